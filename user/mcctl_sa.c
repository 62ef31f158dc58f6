// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl diag: the SA's MCMemberRecord of a group, through libibumad.
 *
 * SubnAdmGet(MCMemberRecord) with the component mask MGID + PortGID asks
 * whether our port is a member; if it is not, a second Get with the MGID
 * alone tells "no such group" from "not a member". The first request is
 * sent with the SM_Key 1 (opensm's default sa_key), which makes it a
 * trusted request whose answer includes the JoinState; an SA with another
 * key refuses it, or ignores it as OpenSM does (a timeout), and the
 * request is repeated untrusted (SM_Key 0).
 *
 * mcctl fabric (fabric_sa_*): GetTable(MCMemberRecord) and
 * GetTable(SwitchInfoRecord), whose answers come as RMPP transfers that
 * the kernel's MAD layer reassembles for our RMPP-registered agent, and
 * Delete(MCMemberRecord) of the port's own membership.
 *
 * Built without libibumad (HAVE_UMAD undefined), the check is skipped.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mcctl_diag.h"
#include "mcctl_fabric.h"

#ifndef HAVE_UMAD

void diag_sa_query(struct diag_facts *f, const uint8_t port_gid[16])
{
	(void)port_gid;
	snprintf(f->sa_why, sizeof(f->sa_why),
		 "mcctl was built without libibumad");
}

struct fabric_sa *fabric_sa_open(const char *dev, uint32_t port, char *why,
				 size_t whylen)
{
	(void)dev;
	(void)port;
	snprintf(why, whylen, "mcctl was built without libibumad");
	return NULL;
}

void fabric_sa_close(struct fabric_sa *sa)
{
	(void)sa;
}

void fabric_sa_port(const struct fabric_sa *sa, uint8_t gid[IBMCG_GID_LEN],
		    uint16_t *sm_lid)
{
	(void)sa;
	memset(gid, 0, IBMCG_GID_LEN);
	*sm_lid = 0;
}

int fabric_sa_mcm_table(struct fabric_sa *sa, uint64_t smkey,
			struct fabric_rec **recs, size_t *n, uint16_t *status)
{
	(void)sa;
	(void)smkey;
	(void)recs;
	(void)n;
	(void)status;
	return -EOPNOTSUPP;
}

int fabric_sa_mcm_delete(struct fabric_sa *sa, const uint8_t mgid[IBMCG_GID_LEN],
			 const uint8_t port_gid[IBMCG_GID_LEN],
			 uint8_t join_state, uint16_t *status)
{
	(void)sa;
	(void)mgid;
	(void)port_gid;
	(void)join_state;
	(void)status;
	return -EOPNOTSUPP;
}

int fabric_sa_mfdb_cap(struct fabric_sa *sa, uint64_t smkey, uint32_t *cap,
		       uint16_t *status)
{
	(void)sa;
	(void)smkey;
	(void)status;
	*cap = 0;
	return -EOPNOTSUPP;
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

/* ---- mcctl fabric ------------------------------------------------------ */

#define SA_HDR_LEN	56	/* MAD header, RMPP header, SA header */
#define SA_TABLE_BUF	(64 * 1024)
#define SA_METHOD_DELETE	0x15
#define SWITCH_INFO_MFDB_CAP	8	/* LID, reserved, Linear/RandomFDBCap */

struct fabric_sa {
	int fd;
	int agent;
	umad_port_t up;
	uint32_t tid;
};

struct fabric_sa *fabric_sa_open(const char *dev, uint32_t port, char *why,
				 size_t whylen)
{
	struct fabric_sa *sa;

	/* libibumad is loaded only for the commands that talk to the SA. */
	if (!mcctl_dl_umad()) {
		snprintf(why, whylen,
			 "libibumad.so.3 is not installed (rdma-core's libibumad3)");
		return NULL;
	}
	sa = calloc(1, sizeof(*sa));
	if (!sa) {
		snprintf(why, whylen, "%s", strerror(ENOMEM));
		return NULL;
	}
	if (umad_init() < 0 || umad_get_port(dev, port, &sa->up) < 0) {
		snprintf(why, whylen, "%s",
			 access("/sys/class/infiniband_mad", F_OK) ?
			 "no umad device for the port (modprobe ib_umad)" :
			 "libibumad cannot see the port");
		free(sa);
		return NULL;
	}
	errno = 0;
	sa->fd = umad_open_port(dev, port);
	if (sa->fd < 0) {
		if (sa->fd == -EINVAL)
			snprintf(why, whylen,
				 "no umad device for the port (modprobe ib_umad)");
		else
			snprintf(why, whylen,
				 "no access to the port's umad device (%s): run as root or grant access to /dev/infiniband/umad*",
				 strerror(errno ? errno : -sa->fd));
		goto release;
	}
	/* RMPP version 1: the kernel reassembles GetTable answers. */
	sa->agent = umad_register(sa->fd, UMAD_CLASS_SUBN_ADM,
				  UMAD_SA_CLASS_VERSION, 1, NULL);
	if (sa->agent < 0) {
		snprintf(why, whylen,
			 "cannot register an SA agent on the port's umad device");
		umad_close_port(sa->fd);
		goto release;
	}
	return sa;
release:
	umad_release_port(&sa->up);
	free(sa);
	return NULL;
}

void fabric_sa_close(struct fabric_sa *sa)
{
	if (!sa)
		return;
	umad_unregister(sa->fd, sa->agent);
	umad_close_port(sa->fd);
	umad_release_port(&sa->up);
	free(sa);
}

void fabric_sa_port(const struct fabric_sa *sa, uint8_t gid[IBMCG_GID_LEN],
		    uint16_t *sm_lid)
{
	memcpy(gid, &sa->up.gid_prefix, 8);
	memcpy(gid + 8, &sa->up.port_guid, 8);
	*sm_lid = sa->up.sm_lid;
}

/*
 * One SA request and its answer: *resp (malloc'ed, the umad buffer) and
 * *len, the bytes of the MAD (all segments of an RMPP answer). 0 with
 * *status the MAD status, -ETIMEDOUT if unanswered, or -errno.
 */
static int sa_call(struct fabric_sa *sa, uint8_t method, uint16_t attr,
		   uint64_t smkey, uint64_t comp_mask, const void *rec,
		   size_t reclen, void **resp, int *len, uint16_t *status)
{
	struct umad_sa_packet *mad;
	size_t size = SA_TABLE_BUF;
	uint64_t tid, be;
	void *umad, *tmp;
	int rc, n;

	umad = calloc(1, umad_size() + size);
	if (!umad)
		return -ENOMEM;
	mad = umad_get_mad(umad);
	mad->mad_hdr.base_version = UMAD_BASE_VERSION;
	mad->mad_hdr.mgmt_class = UMAD_CLASS_SUBN_ADM;
	mad->mad_hdr.class_version = UMAD_SA_CLASS_VERSION;
	mad->mad_hdr.method = method;
	tid = ((uint64_t)getpid() << 32) | (0x80000000u | ++sa->tid);
	mad->mad_hdr.tid = htobe64(tid);
	mad->mad_hdr.attr_id = htobe16(attr);
	be = htobe64(smkey);
	memcpy(mad->sm_key, &be, sizeof(mad->sm_key));
	mad->comp_mask = htobe64(comp_mask);
	if (rec)
		memcpy(mad->data, rec, reclen);
	umad_set_addr(umad, sa->up.sm_lid, 1, sa->up.sm_sl, QP1_QKEY);
	umad_set_pkey(umad, 0);
	if (umad_send(sa->fd, sa->agent, umad, MAD_BUF, SA_TIMEOUT_MS,
		      SA_RETRIES) < 0) {
		rc = -errno;
		goto fail;
	}
	for (;;) {
		n = size;
		rc = umad_recv(sa->fd, umad, &n,
			       SA_TIMEOUT_MS * (SA_RETRIES + 1) + 2000);
		if (rc < 0 && (rc == -ENOSPC || errno == ENOSPC)) {
			/* n is the size it needs; the MAD waits for us */
			size = n;
			tmp = realloc(umad, umad_size() + size);
			if (!tmp) {
				rc = -ENOMEM;
				goto fail;
			}
			umad = tmp;
			continue;
		}
		if (rc < 0) {
			rc = errno ? -errno : -EIO;
			goto fail;
		}
		mad = umad_get_mad(umad);
		/*
		 * An answer to an earlier request that timed out is not ours.
		 * ib_umad puts the agent's own bits in the high 32 of a
		 * request's TID: only the low 32 are ours to compare.
		 */
		if ((uint32_t)be64toh(mad->mad_hdr.tid) != (uint32_t)tid)
			continue;
		break;
	}
	if (umad_status(umad)) {
		rc = -ETIMEDOUT;
		goto fail;
	}
	*status = be16toh(mad->mad_hdr.status);
	*resp = umad;
	*len = n;
	return 0;
fail:
	free(umad);
	return rc;
}

/* The records of a GetTable answer: count and size. */
static size_t table_records(void *umad, int len, size_t *recsize)
{
	struct umad_sa_packet *mad = umad_get_mad(umad);

	*recsize = (size_t)be16toh(mad->attr_offset) * 8;
	if (!*recsize || len <= SA_HDR_LEN)
		return 0;
	return (len - SA_HDR_LEN) / *recsize;
}

int fabric_sa_mcm_table(struct fabric_sa *sa, uint64_t smkey,
			struct fabric_rec **recs, size_t *n,
			uint16_t *status)
{
	struct umad_sa_mcmember_record *r;
	struct fabric_rec *out;
	size_t i, cnt, recsize;
	uint8_t *data;
	void *umad;
	int rc, len;

	*recs = NULL;
	*n = 0;
	rc = sa_call(sa, UMAD_SA_METHOD_GET_TABLE, UMAD_SA_ATTR_MCMEMBER_REC,
		     smkey, 0, NULL, 0, &umad, &len, status);
	if (rc || *status) {
		if (!rc)
			free(umad);
		return rc;
	}
	cnt = table_records(umad, len, &recsize);
	if (cnt && recsize < sizeof(*r)) {
		free(umad);
		return -EPROTO;
	}
	out = calloc(cnt ? cnt : 1, sizeof(*out));
	if (!out) {
		free(umad);
		return -ENOMEM;
	}
	data = ((struct umad_sa_packet *)umad_get_mad(umad))->data;
	for (i = 0; i < cnt; i++) {
		r = (void *)(data + i * recsize);
		memcpy(out[i].mgid, r->mgid, 16);
		memcpy(out[i].port_gid, r->portgid, 16);
		out[i].mlid = be16toh(r->mlid);
		out[i].pkey = be16toh(r->pkey);
		out[i].qkey = be32toh(r->qkey);
		out[i].join_state = r->scope_state & 0x0f;
		out[i].proxy = r->proxy_join & 0x80;
	}
	free(umad);
	*recs = out;
	*n = cnt;
	return 0;
}

int fabric_sa_mcm_delete(struct fabric_sa *sa, const uint8_t mgid[IBMCG_GID_LEN],
			 const uint8_t port_gid[IBMCG_GID_LEN],
			 uint8_t join_state, uint16_t *status)
{
	struct umad_sa_mcmember_record rec = {};
	void *umad;
	int rc, len;

	memcpy(rec.mgid, mgid, 16);
	memcpy(rec.portgid, port_gid, 16);
	rec.scope_state = join_state & 0x0f;
	/* Our own membership: an ordinary (untrusted) request. */
	rc = sa_call(sa, SA_METHOD_DELETE, UMAD_SA_ATTR_MCMEMBER_REC, 0,
		     UMAD_SA_MCM_COMP_MASK_MGID |
		     UMAD_SA_MCM_COMP_MASK_PORT_GID |
		     UMAD_SA_MCM_COMP_MASK_JOIN_STATE,
		     &rec, sizeof(rec), &umad, &len, status);
	if (!rc)
		free(umad);
	return rc;
}

int fabric_sa_mfdb_cap(struct fabric_sa *sa, uint64_t smkey, uint32_t *cap,
		       uint16_t *status)
{
	size_t i, cnt, recsize;
	uint8_t *data;
	uint16_t c;
	void *umad;
	int rc, len;

	*cap = 0;
	rc = sa_call(sa, UMAD_SA_METHOD_GET_TABLE, UMAD_SA_ATTR_SWITCH_INFO_REC,
		     smkey, 0, NULL, 0, &umad, &len, status);
	if (rc || *status) {
		if (!rc)
			free(umad);
		return rc;
	}
	cnt = table_records(umad, len, &recsize);
	data = ((struct umad_sa_packet *)umad_get_mad(umad))->data;
	for (i = 0; recsize >= SWITCH_INFO_MFDB_CAP + 2 && i < cnt; i++) {
		memcpy(&c, data + i * recsize + SWITCH_INFO_MFDB_CAP, 2);
		c = be16toh(c);
		if (!*cap || c < *cap)
			*cap = c;
	}
	free(umad);
	return 0;
}

/* ---- mcctl diag -------------------------------------------------------- */

struct sa_answer {
	uint16_t status;		/* MAD status, class part shifted */
	bool timeout;
	struct umad_sa_mcmember_record rec;
};

/* SubnAdmGet(MCMemberRecord) of @mgid, of @port_gid's membership if given. */
static int sa_get(struct fabric_sa *sa, uint64_t smkey, const uint8_t *mgid,
		  const uint8_t *port_gid, struct sa_answer *a)
{
	struct umad_sa_mcmember_record rec = {};
	uint64_t mask = UMAD_SA_MCM_COMP_MASK_MGID;
	struct umad_sa_packet *mad;
	void *umad;
	int rc, len;

	memset(a, 0, sizeof(*a));
	memcpy(rec.mgid, mgid, 16);
	if (port_gid) {
		memcpy(rec.portgid, port_gid, 16);
		mask |= UMAD_SA_MCM_COMP_MASK_PORT_GID;
	}
	rc = sa_call(sa, UMAD_METHOD_GET, UMAD_SA_ATTR_MCMEMBER_REC, smkey,
		     mask, &rec, sizeof(rec), &umad, &len, &a->status);
	if (rc == -ETIMEDOUT) {
		a->timeout = true;
		return 0;
	}
	if (rc)
		return rc;
	mad = umad_get_mad(umad);
	if (!a->status && len < SA_HDR_LEN + (int)sizeof(a->rec))
		rc = -EPROTO;
	else if (!a->status)
		memcpy(&a->rec, mad->data, sizeof(a->rec));
	free(umad);
	return rc;
}

static uint8_t sa_status_code(uint16_t status)
{
	return status >> 8;	/* the SA class status, bits 8..15 */
}

void diag_sa_query(struct diag_facts *f, const uint8_t port_gid[16])
{
	struct fabric_sa *sa;
	uint8_t gid[16];
	struct sa_answer a;
	bool trusted = true;
	uint16_t sm_lid;
	int err;

	sa = fabric_sa_open(f->dev, f->port, f->sa_why, sizeof(f->sa_why));
	if (!sa)
		return;
	if (port_gid)
		memcpy(gid, port_gid, 16);
	else
		fabric_sa_port(sa, gid, &sm_lid);

	err = sa_get(sa, OPENSM_SA_KEY, f->mgid, gid, &a);
	/* another key: refused, or ignored as OpenSM does (a timeout) */
	if (!err && (a.timeout ||
		     sa_status_code(a.status) == UMAD_SA_STATUS_REQ_DENIED)) {
		trusted = false;
		err = sa_get(sa, 0, f->mgid, gid, &a);
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
		f->sa_rec.sl = be32toh(a.rec.sl_flow_hop) >> 28;
		f->sa_rec.flow_label = be32toh(a.rec.sl_flow_hop) >> 8 &
				       0xfffff;
		f->sa_rec.tclass = a.rec.tclass;
		f->sa_rec.join_state = a.rec.scope_state & 0x0f;
		/* An untrusted answer hides JoinState (zero). */
		f->sa_rec.join_state_known = trusted &&
					     f->sa_rec.join_state;
		memcpy(f->sa_rec.port_gid, a.rec.portgid, 16);
	} else if (sa_status_code(a.status) == UMAD_SA_STATUS_NO_RECORDS) {
		/* Not a member: is there a group at all? Untrusted, one record. */
		err = sa_get(sa, 0, f->mgid, NULL, &a);
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
	fabric_sa_close(sa);
}

#endif /* HAVE_UMAD */
