// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl diag: the SA's MCMemberRecord of a group, through libibumad.
 *
 * SubnAdmGet(MCMemberRecord) with the component mask MGID + PortGID asks
 * whether our port is a member; if it is not, a second Get with the MGID
 * alone tells "no such group" from "not a member". The first request is
 * sent with the SM_Key 1 (opensm's default sa_key), which makes it a
 * trusted request whose answer includes the JoinState; an SA with another
 * key refuses it, and the request is repeated untrusted (SM_Key 0).
 *
 * Built without libibumad (HAVE_UMAD undefined), the check is skipped.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mcctl_diag.h"

#ifndef HAVE_UMAD

void diag_sa_query(struct diag_facts *f, const uint8_t port_gid[16])
{
	(void)port_gid;
	snprintf(f->sa_why, sizeof(f->sa_why),
		 "mcctl was built without libibumad");
}

#else

#include <endian.h>
#include <stdlib.h>

#include <infiniband/umad.h>
#include <infiniband/umad_sa.h>
#include <infiniband/umad_sa_mcm.h>
#include <infiniband/umad_types.h>

#include "mcctl_dl.h"

#define QP1_QKEY	0x80010000
#define SA_TIMEOUT_MS	1000
#define SA_RETRIES	2
#define OPENSM_SA_KEY	1ULL
#define MAD_BUF		256

struct sa_answer {
	uint16_t status;		/* MAD status, class part shifted */
	bool timeout;
	struct umad_sa_mcmember_record rec;
};

static int sa_get(int fd, int agent, const umad_port_t *up, uint64_t smkey,
		  const uint8_t *mgid, const uint8_t *port_gid,
		  struct sa_answer *a)
{
	static uint32_t tid_low;
	struct umad_sa_mcmember_record *rec;
	struct umad_sa_packet *mad;
	uint64_t mask = UMAD_SA_MCM_COMP_MASK_MGID;
	int len = MAD_BUF, rc;
	void *umad, *tmp;

	umad = calloc(1, umad_size() + MAD_BUF);
	if (!umad)
		return -ENOMEM;
	mad = umad_get_mad(umad);
	mad->mad_hdr.base_version = UMAD_BASE_VERSION;
	mad->mad_hdr.mgmt_class = UMAD_CLASS_SUBN_ADM;
	mad->mad_hdr.class_version = UMAD_SA_CLASS_VERSION;
	mad->mad_hdr.method = UMAD_METHOD_GET;
	mad->mad_hdr.tid = htobe64(((uint64_t)getpid() << 32) | ++tid_low);
	mad->mad_hdr.attr_id = htobe16(UMAD_SA_ATTR_MCMEMBER_REC);
	smkey = htobe64(smkey);
	memcpy(mad->sm_key, &smkey, sizeof(mad->sm_key));
	rec = (void *)mad->data;
	memcpy(rec->mgid, mgid, 16);
	if (port_gid) {
		memcpy(rec->portgid, port_gid, 16);
		mask |= UMAD_SA_MCM_COMP_MASK_PORT_GID;
	}
	mad->comp_mask = htobe64(mask);
	umad_set_addr(umad, up->sm_lid, 1, up->sm_sl, QP1_QKEY);
	umad_set_pkey(umad, 0);

	if (umad_send(fd, agent, umad, MAD_BUF, SA_TIMEOUT_MS,
		      SA_RETRIES) < 0) {
		rc = -errno;
		goto out;
	}
	for (;;) {
		rc = umad_recv(fd, umad, &len,
			       SA_TIMEOUT_MS * (SA_RETRIES + 1) + 2000);
		if (rc >= 0)
			break;
		if (rc == -ENOSPC || errno == ENOSPC) {
			tmp = realloc(umad, umad_size() + len);
			if (!tmp) {
				rc = -ENOMEM;
				goto out;
			}
			umad = tmp;
			continue;
		}
		rc = rc < 0 ? rc : -errno;
		goto out;
	}
	rc = 0;
	memset(a, 0, sizeof(*a));
	if (umad_status(umad)) {
		a->timeout = true;
		goto out;
	}
	mad = umad_get_mad(umad);
	a->status = be16toh(mad->mad_hdr.status);
	if (!a->status)
		memcpy(&a->rec, mad->data, sizeof(a->rec));
out:
	free(umad);
	return rc;
}

static uint8_t sa_status_code(uint16_t status)
{
	return status >> 8;	/* the SA class status, bits 8..15 */
}

void diag_sa_query(struct diag_facts *f, const uint8_t port_gid[16])
{
	uint8_t gid[16];
	struct sa_answer a;
	umad_port_t up;
	bool trusted = true;
	int fd, agent, err;

	if (!mcctl_dl_umad()) {
		snprintf(f->sa_why, sizeof(f->sa_why),
			 "libibumad.so.3 is not installed (rdma-core's libibumad3)");
		return;
	}
	/* libibumad resolves the port's umad device and opens it. */
	if (umad_init() < 0 || umad_get_port(f->dev, f->port, &up) < 0) {
		snprintf(f->sa_why, sizeof(f->sa_why), "%s",
			 access("/sys/class/infiniband_mad", F_OK) ?
			 "no umad device for the port (modprobe ib_umad)" :
			 "libibumad cannot see the port");
		return;
	}
	if (port_gid) {
		memcpy(gid, port_gid, 16);
	} else {
		memcpy(gid, &up.gid_prefix, 8);
		memcpy(gid + 8, &up.port_guid, 8);
	}
	errno = 0;
	fd = umad_open_port(f->dev, f->port);
	if (fd == -EINVAL) {
		snprintf(f->sa_why, sizeof(f->sa_why),
			 "no umad device for the port (modprobe ib_umad)");
		goto release;
	}
	if (fd < 0) {
		/* -EIO: open() of /dev/infiniband/umadN failed, errno why */
		snprintf(f->sa_why, sizeof(f->sa_why),
			 "no access to the port's umad device (%s): run as root or grant access to /dev/infiniband/umad*",
			 strerror(errno ? errno : -fd));
		goto release;
	}
	agent = umad_register(fd, UMAD_CLASS_SUBN_ADM, UMAD_SA_CLASS_VERSION,
			      1, NULL);
	if (agent < 0) {
		snprintf(f->sa_why, sizeof(f->sa_why),
			 "cannot register an SA agent on the port's umad device");
		goto close;
	}

	err = sa_get(fd, agent, &up, OPENSM_SA_KEY, f->mgid, gid, &a);
	if (!err && !a.timeout &&
	    sa_status_code(a.status) == UMAD_SA_STATUS_REQ_DENIED) {
		trusted = false;
		err = sa_get(fd, agent, &up, 0, f->mgid, gid, &a);
	}
	if (err) {
		f->sa = DIAG_SA_ERROR;
		snprintf(f->sa_why, sizeof(f->sa_why), "umad: %s",
			 strerror(-err));
	} else if (a.timeout) {
		f->sa = DIAG_SA_TIMEOUT;
	} else if (!a.status) {
		f->sa = DIAG_SA_MEMBER;
		f->sa_rec.mlid = be16toh(a.rec.mlid);
		f->sa_rec.qkey = be32toh(a.rec.qkey);
		f->sa_rec.pkey = be16toh(a.rec.pkey);
		f->sa_rec.mtu = a.rec.mtu & 0x3f;
		f->sa_rec.rate = a.rec.rate & 0x3f;
		f->sa_rec.join_state = a.rec.scope_state & 0x0f;
		/* An untrusted answer hides JoinState (zero). */
		f->sa_rec.join_state_known = trusted &&
					     f->sa_rec.join_state;
		memcpy(f->sa_rec.port_gid, a.rec.portgid, 16);
	} else if (sa_status_code(a.status) == UMAD_SA_STATUS_NO_RECORDS) {
		/* Not a member: is there a group at all? Untrusted, one record. */
		err = sa_get(fd, agent, &up, 0, f->mgid, NULL, &a);
		if (err || a.timeout) {
			f->sa = a.timeout ? DIAG_SA_TIMEOUT : DIAG_SA_ERROR;
			if (err)
				snprintf(f->sa_why, sizeof(f->sa_why),
					 "umad: %s", strerror(-err));
		} else if (!a.status) {
			f->sa = DIAG_SA_NOT_MEMBER;
		} else if (sa_status_code(a.status) ==
			   UMAD_SA_STATUS_NO_RECORDS) {
			f->sa = DIAG_SA_NO_GROUP;
		} else {
			f->sa = DIAG_SA_ERROR;
			f->sa_status = a.status;
		}
	} else {
		f->sa = DIAG_SA_ERROR;
		f->sa_status = a.status;
	}
	umad_unregister(fd, agent);
close:
	umad_close_port(fd);
release:
	umad_release_port(&up);
}

#endif /* HAVE_UMAD */
