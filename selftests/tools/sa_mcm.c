// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * sa_mcm: send one SA request (MCMemberRecord Set/Delete/Get/GetTable or
 * ClassPortInfo Get) through ib_umad and print the answer.
 *
 *   sa_mcm [-d CA] [-p PORT] [-t MS] [-r RETRIES] [-k SMKEY] METHOD [ARG...]
 *
 * METHOD: set | delete | get | gettable | cpi
 * ARG (each sets its component mask bit):
 *   mgid=GID port_gid=GID|self qkey=N mlid=N mtu=[SEL:]N tclass=N pkey=N
 *   rate=[SEL:]N life=[SEL:]N sl=N flow=N hop=N scope=N join=N proxy=N
 *   create       port_gid=self join=1 qkey=0xb1b tclass=0 pkey=0xffff
 *                flow=0 sl=0 (later arguments override)
 *   mask=N       send this component mask instead
 *   expect=S     exit 0 iff the answer's MAD status is S (a number), or
 *                S=timeout and the request timed out
 *
 * Prints "status=0x.... method=0x.. records=N" and one line per record
 * ("mgid=... port_gid=... mlid=0x.... join=0x. ...").
 * Exit: 0 status 0 (or as expected), 1 other status, 2 timeout, 3 error.
 *
 *   sa_mcm ... -n COUNT [-w WINDOW] set|delete ARG...
 *	the SA's throughput (make bench, scenario opensm): COUNT requests,
 *	the MGID's last 32 bits counting up from the one given, at most
 *	WINDOW (default 64) unanswered at once, each with its own TID.
 *	Prints "bulk: COUNT requests, WINDOW in flight: A answered (K with
 *	status 0), T timed out, in MS ms, R/s" (R: answers a second); exit
 *	0 if every one was answered with status 0, else 1.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/umad.h>

#define SA_CLASS	0x03
#define SA_CLASS_VER	2
#define ATTR_CPI	0x0001
#define ATTR_MCMR	0x0038
#define SA_HDR		56
#define QP1_QKEY	0x80010000

enum {
	CM_MGID, CM_PORT_GID, CM_QKEY, CM_MLID, CM_MTU_SEL, CM_MTU, CM_TCLASS,
	CM_PKEY, CM_RATE_SEL, CM_RATE, CM_LIFE_SEL, CM_LIFE, CM_SL, CM_FLOW,
	CM_HOP, CM_SCOPE, CM_JOIN, CM_PROXY,
};

struct mcmr {
	uint8_t mgid[16];
	uint8_t port_gid[16];
	uint32_t qkey;
	uint16_t mlid;
	uint8_t mtu;
	uint8_t tclass;
	uint16_t pkey;
	uint8_t rate;
	uint8_t pkt_life;
	uint32_t sl_flow_hop;
	uint8_t scope_state;
	uint8_t proxy_join;
	uint8_t reserved[14];
} __attribute__((packed));

struct sa_mad {
	uint8_t base_version;
	uint8_t mgmt_class;
	uint8_t class_version;
	uint8_t method;
	uint16_t status;
	uint16_t class_specific;
	uint64_t tid;
	uint16_t attr_id;
	uint16_t resv;
	uint32_t attr_mod;
	uint8_t rmpp[12];
	uint64_t sm_key;
	uint16_t attr_offset;
	uint16_t reserved;
	uint64_t comp_mask;
	uint8_t data[200];
} __attribute__((packed));

static void usage(void)
{
	fprintf(stderr,
		"usage: sa_mcm [-d CA] [-p PORT] [-t MS] [-r RETRIES] [-k SMKEY] [-n COUNT [-w WINDOW]] METHOD [ARG...]\n"
		"  METHOD: set | delete | get | gettable | cpi\n"
		"  ARG: mgid= port_gid=|self qkey= mlid= mtu=[SEL:]N tclass= pkey=\n"
		"       rate=[SEL:]N life=[SEL:]N sl= flow= hop= scope= join= proxy=\n"
		"       create mask=N expect=STATUS|timeout\n");
	exit(3);
}

static unsigned long num(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || !*s) {
		fprintf(stderr, "sa_mcm: bad number '%s'\n", s);
		exit(3);
	}
	return v;
}

/* [SEL:]VAL -> selector << 6 | value; *has_sel tells whether SEL was given */
static uint8_t sel_val(const char *s, int *has_sel)
{
	const char *c = strchr(s, ':');
	char sel[16];

	if (!c) {
		*has_sel = 0;
		return num(s) & 0x3f;
	}
	if ((size_t)(c - s) >= sizeof(sel))
		usage();
	memcpy(sel, s, c - s);
	sel[c - s] = '\0';
	*has_sel = 1;
	return (num(sel) & 3) << 6 | (num(c + 1) & 0x3f);
}

static void print_gid(const char *name, const uint8_t *gid)
{
	char buf[INET6_ADDRSTRLEN];

	printf(" %s=%s", name, inet_ntop(AF_INET6, gid, buf, sizeof(buf)));
}

static void print_mcmr(const struct mcmr *r)
{
	uint32_t sfh = be32toh(r->sl_flow_hop);

	print_gid("mgid", r->mgid);
	print_gid("port_gid", r->port_gid);
	printf(" qkey=0x%x mlid=0x%04x mtu=0x%02x tclass=0x%x pkey=0x%04x rate=0x%02x life=0x%02x sl=%u flow=0x%x hop=%u scope=0x%x join=0x%x proxy=%u\n",
	       be32toh(r->qkey), be16toh(r->mlid), r->mtu, r->tclass,
	       be16toh(r->pkey), r->rate, r->pkt_life, sfh >> 28,
	       (sfh >> 8) & 0xfffff, sfh & 0xff, r->scope_state >> 4,
	       r->scope_state & 0xf, r->proxy_join >> 7);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * -n: @n requests like the one in @umad (its MGID's last 32 bits and its
 * TID counting up), at most @window unanswered; see the top comment.
 */
static int bulk(int fd, int agent, void *umad, int n, int window,
		int timeout, int retries)
{
	struct sa_mad *mad = umad_get_mad(umad);
	struct mcmr *rec = (struct mcmr *)mad->data;
	uint32_t base, v;
	int sent = 0, inflight = 0, answered = 0, ok = 0, lost = 0, len;
	uint64_t tid = be64toh(mad->tid);
	void *ans = calloc(1, umad_size() + 256);
	double t0, el;

	if (!ans)
		return 3;
	memcpy(&v, rec->mgid + 12, 4);
	base = be32toh(v);
	t0 = now_ms();
	while (answered + lost < n) {
		while (sent < n && inflight < window) {
			v = htobe32(base + sent);
			memcpy(rec->mgid + 12, &v, 4);
			mad->tid = htobe64(tid + sent);
			if (umad_send(fd, agent, umad, 256, timeout, retries) < 0) {
				fprintf(stderr, "sa_mcm: umad_send: %s\n",
					strerror(errno));
				free(ans);
				return 3;
			}
			sent++;
			inflight++;
		}
		len = 256;
		if (umad_recv(fd, ans, &len, timeout * (retries + 1) + 5000) < 0) {
			fprintf(stderr, "sa_mcm: umad_recv: %s\n", strerror(errno));
			free(ans);
			return 3;
		}
		inflight--;
		if (umad_status(ans)) {
			lost++;
			continue;
		}
		answered++;
		if (!((struct sa_mad *)umad_get_mad(ans))->status)
			ok++;
	}
	el = now_ms() - t0;
	/* the pace of the answers: requests that timed out are not counted */
	printf("bulk: %d requests, %d in flight: %d answered (%d with status 0), %d timed out, in %.0f ms, %.0f/s\n",
	       n, window, answered, ok, lost, el,
	       el > 0 ? answered * 1e3 / el : 0);
	free(ans);
	return ok == n ? 0 : 1;
}

int main(int argc, char **argv)
{
	const char *ca = NULL, *expect = NULL;
	int port = 0, timeout = 1000, retries = 0, opt, fd, agent, len, i;
	int sel, explicit_mask = 0, self = 0, status, rc, count = 0, window = 64;
	uint64_t mask = 0, smkey = 0;
	uint32_t sfh = 0;
	struct mcmr rec;
	struct sa_mad *mad;
	umad_port_t uport;
	uint8_t method;
	uint16_t attr = ATTR_MCMR;
	void *umad;

	while ((opt = getopt(argc, argv, "d:p:t:r:k:n:w:h")) != -1) {
		switch (opt) {
		case 'n':
			count = num(optarg);
			break;
		case 'w':
			window = num(optarg);
			break;
		case 'd':
			ca = optarg;
			break;
		case 'p':
			port = num(optarg);
			break;
		case 't':
			timeout = num(optarg);
			break;
		case 'r':
			retries = num(optarg);
			break;
		case 'k':
			smkey = strtoull(optarg, NULL, 0);
			break;
		default:
			usage();
		}
	}
	if (optind >= argc)
		usage();
	if (!strcmp(argv[optind], "set")) {
		method = 0x02;
	} else if (!strcmp(argv[optind], "delete")) {
		method = 0x15;
	} else if (!strcmp(argv[optind], "get")) {
		method = 0x01;
	} else if (!strcmp(argv[optind], "gettable")) {
		method = 0x12;
	} else if (!strcmp(argv[optind], "cpi")) {
		method = 0x01;
		attr = ATTR_CPI;
	} else {
		usage();
	}

	memset(&rec, 0, sizeof(rec));
	for (i = optind + 1; i < argc; i++) {
		char *a = argv[i], *v = strchr(a, '=');

		if (!strcmp(a, "create")) {
			self = 1;
			rec.scope_state = (rec.scope_state & 0xf0) | 1;
			rec.qkey = htobe32(0xb1b);
			rec.tclass = 0;
			rec.pkey = htobe16(0xffff);
			sfh &= 0xff;
			mask |= 1ULL << CM_PORT_GID | 1ULL << CM_JOIN |
				1ULL << CM_QKEY | 1ULL << CM_TCLASS |
				1ULL << CM_PKEY | 1ULL << CM_FLOW | 1ULL << CM_SL;
			continue;
		}
		if (!v)
			usage();
		*v++ = '\0';
		if (!strcmp(a, "mgid") || !strcmp(a, "port_gid")) {
			int pg = a[0] == 'p';

			mask |= 1ULL << (pg ? CM_PORT_GID : CM_MGID);
			if (pg && !strcmp(v, "self")) {
				self = 1;
			} else {
				if (pg)
					self = 0;
				if (inet_pton(AF_INET6, v, pg ? rec.port_gid :
					      rec.mgid) != 1) {
					fprintf(stderr, "sa_mcm: bad GID '%s'\n", v);
					return 3;
				}
			}
		} else if (!strcmp(a, "qkey")) {
			rec.qkey = htobe32(num(v));
			mask |= 1ULL << CM_QKEY;
		} else if (!strcmp(a, "mlid")) {
			rec.mlid = htobe16(num(v));
			mask |= 1ULL << CM_MLID;
		} else if (!strcmp(a, "mtu")) {
			rec.mtu = sel_val(v, &sel);
			mask |= 1ULL << CM_MTU | (sel ? 1ULL << CM_MTU_SEL : 0);
		} else if (!strcmp(a, "tclass")) {
			rec.tclass = num(v);
			mask |= 1ULL << CM_TCLASS;
		} else if (!strcmp(a, "pkey")) {
			rec.pkey = htobe16(num(v));
			mask |= 1ULL << CM_PKEY;
		} else if (!strcmp(a, "rate")) {
			rec.rate = sel_val(v, &sel);
			mask |= 1ULL << CM_RATE | (sel ? 1ULL << CM_RATE_SEL : 0);
		} else if (!strcmp(a, "life")) {
			rec.pkt_life = sel_val(v, &sel);
			mask |= 1ULL << CM_LIFE | (sel ? 1ULL << CM_LIFE_SEL : 0);
		} else if (!strcmp(a, "sl")) {
			sfh = (sfh & 0x0fffffff) | (num(v) & 0xf) << 28;
			mask |= 1ULL << CM_SL;
		} else if (!strcmp(a, "flow")) {
			sfh = (sfh & 0xf00000ff) | (num(v) & 0xfffff) << 8;
			mask |= 1ULL << CM_FLOW;
		} else if (!strcmp(a, "hop")) {
			sfh = (sfh & 0xffffff00) | (num(v) & 0xff);
			mask |= 1ULL << CM_HOP;
		} else if (!strcmp(a, "scope")) {
			rec.scope_state = (rec.scope_state & 0x0f) | (num(v) & 0xf) << 4;
			mask |= 1ULL << CM_SCOPE;
		} else if (!strcmp(a, "join")) {
			rec.scope_state = (rec.scope_state & 0xf0) | (num(v) & 0xf);
			mask |= 1ULL << CM_JOIN;
		} else if (!strcmp(a, "proxy")) {
			rec.proxy_join = num(v) ? 0x80 : 0;
			mask |= 1ULL << CM_PROXY;
		} else if (!strcmp(a, "mask")) {
			mask = strtoull(v, NULL, 0);
			explicit_mask = 1;
		} else if (!strcmp(a, "expect")) {
			expect = v;
		} else {
			usage();
		}
	}
	rec.sl_flow_hop = htobe32(sfh);
	(void)explicit_mask;

	if (umad_init() < 0) {
		fprintf(stderr, "sa_mcm: umad_init failed\n");
		return 3;
	}
	if (umad_get_port(ca, port, &uport) < 0) {
		fprintf(stderr, "sa_mcm: no port %s/%d\n", ca ? ca : "(any)", port);
		return 3;
	}
	if (self) {
		memcpy(rec.port_gid, &uport.gid_prefix, 8);
		memcpy(rec.port_gid + 8, &uport.port_guid, 8);
	}
	fd = umad_open_port(uport.ca_name, uport.portnum);
	if (fd < 0) {
		fprintf(stderr, "sa_mcm: cannot open %s/%d\n", uport.ca_name,
			uport.portnum);
		return 3;
	}
	agent = umad_register(fd, SA_CLASS, SA_CLASS_VER, 1, NULL);
	if (agent < 0) {
		fprintf(stderr, "sa_mcm: umad_register failed\n");
		return 3;
	}

	len = 256;
	umad = calloc(1, umad_size() + len);
	if (!umad)
		return 3;
	mad = umad_get_mad(umad);
	mad->base_version = 1;
	mad->mgmt_class = SA_CLASS;
	mad->class_version = SA_CLASS_VER;
	mad->method = method;
	mad->tid = htobe64(((uint64_t)getpid() << 32) | 0x5a5a);
	mad->attr_id = htobe16(attr);
	mad->sm_key = htobe64(smkey);
	if (attr == ATTR_MCMR) {
		mad->comp_mask = htobe64(mask);
		memcpy(mad->data, &rec, sizeof(rec));
	}
	umad_set_addr(umad, uport.sm_lid, 1, uport.sm_sl, QP1_QKEY);
	umad_set_pkey(umad, 0);
	if (count) {
		if (attr != ATTR_MCMR || (method != 0x02 && method != 0x15) ||
		    window < 1)
			usage();
		rc = bulk(fd, agent, umad, count, window, timeout, retries);
		goto out;
	}

	if (umad_send(fd, agent, umad, 256, timeout, retries) < 0) {
		fprintf(stderr, "sa_mcm: umad_send: %s\n", strerror(errno));
		return 3;
	}
	for (;;) {
		rc = umad_recv(fd, umad, &len, timeout * (retries + 1) + 5000);
		if (rc >= 0)
			break;
		if (rc == -ENOSPC || errno == ENOSPC) {
			umad = realloc(umad, umad_size() + len);
			if (!umad)
				return 3;
			continue;
		}
		fprintf(stderr, "sa_mcm: umad_recv: %s\n", strerror(errno));
		return 3;
	}
	mad = umad_get_mad(umad);
	if (umad_status(umad)) {
		printf("status=timeout\n");
		rc = 2;
		if (expect)
			rc = strcmp(expect, "timeout") ? 1 : 0;
		goto out;
	}

	status = be16toh(mad->status);
	if (mad->method == 0x92) {
		int recsz = be16toh(mad->attr_offset) * 8;
		int n = recsz ? (len - SA_HDR) / recsz : 0;

		printf("status=0x%04x method=0x%02x records=%d\n", status,
		       mad->method, status ? 0 : n);
		for (i = 0; !status && i < n; i++)
			print_mcmr((struct mcmr *)((uint8_t *)mad + SA_HDR +
						   i * recsz));
	} else {
		printf("status=0x%04x method=0x%02x records=%d\n", status,
		       mad->method, status ? 0 : 1);
		if (!status && attr == ATTR_MCMR) {
			print_mcmr((struct mcmr *)mad->data);
		} else if (!status) {
			uint32_t c2 = be32toh(*(uint32_t *)(mad->data + 4));

			printf(" base_version=%u class_version=%u capmask=0x%04x capmask2=0x%x resp_time=%u\n",
			       mad->data[0], mad->data[1],
			       be16toh(*(uint16_t *)(mad->data + 2)), c2 >> 5,
			       c2 & 0x1f);
		}
	}
	if (expect)
		rc = (unsigned long)status == num(expect) ? 0 : 1;
	else
		rc = status ? 1 : 0;
out:
	umad_unregister(fd, agent);
	umad_close_port(fd);
	umad_release_port(&uport);
	free(umad);
	return rc;
}
