// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcast_ud - send or receive UD multicast datagrams with libibverbs.
 *
 *   mcast_ud recv -d DEV -g MGID [-p PORT] [-i GID_INDEX] [-c COUNT]
 *                 [-t TIMEOUT_MS] [-q QKEY] [-l MLID] [-s SIZE]
 *   mcast_ud send -d DEV -g MGID [-p PORT] [-i GID_INDEX] -c COUNT
 *                 [-q QKEY] [-l MLID] [-s SIZE] [-D DELAY_US] [-H HOP_LIMIT]
 *
 * recv attaches a UD QP to MGID (ibv_attach_mcast), prints "listening" on
 * stderr once attached, and counts datagrams until COUNT arrived or
 * TIMEOUT_MS (default 2000) passed, or SIGUSR1 came (the caller has sent
 * what it meant to); it prints "received N" and exits 0.
 * send posts COUNT datagrams to MGID (remote QPN 0xFFFFFF) and prints
 * "sent N". MGID is an IPv6-notation GID ("ff0e::1234",
 * "::ffff:239.1.1.1") or a dotted IPv4 group, which is IPv4-mapped.
 * Without -i, the first RoCEv2 GID of the group's address family is used
 * (index 0 on InfiniBand). Exit status 1 on any error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define GRH_LEN		40
#define MCAST_QPN	0xffffff
#define DEFAULT_QKEY	0x01234567
#define PAYLOAD_MAGIC	0x6d637564	/* "mcud" */
#define RECV_DEPTH	256
#define SEND_DEPTH	64

struct opts {
	bool send;
	const char *dev;
	const char *mgid_str;
	union ibv_gid mgid;
	uint8_t port;
	int gid_index;		/* -1: pick automatically */
	long count;		/* recv: -1 = until timeout */
	long timeout_ms;
	uint32_t qkey;
	uint16_t mlid;
	uint32_t size;
	long delay_us;
	uint8_t hop_limit;
	bool verbose;
};

struct ctx {
	struct ibv_context *ctx;
	struct ibv_comp_channel *ch;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	struct ibv_ah *ah;
	char *buf;
	size_t slot;		/* bytes per buffer slot */
	int depth;
	bool attached;
	enum ibv_port_state port_state;
	uint8_t link_layer;
};

static const char *prog = "mcast_ud";

static void __attribute__((format(printf, 1, 2))) err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s recv -d DEV -g MGID [-p PORT] [-i GID_INDEX] [-c COUNT] [-t TIMEOUT_MS]\n"
		"                    [-q QKEY] [-l MLID] [-s SIZE] [-v]\n"
		"       %s send -d DEV -g MGID [-p PORT] [-i GID_INDEX] -c COUNT [-q QKEY]\n"
		"                    [-l MLID] [-s SIZE] [-D DELAY_US] [-H HOP_LIMIT] [-v]\n"
		"MGID: IPv6 notation (ff0e::1234, ::ffff:239.1.1.1) or an IPv4 group.\n",
		prog, prog);
}

static bool parse_ulong(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 0);
	return !errno && end != s && !*end && *out <= max && s[0] != '-';
}

static bool parse_mgid(const char *s, union ibv_gid *gid)
{
	struct in_addr a4;

	if (inet_pton(AF_INET6, s, gid->raw) == 1)
		return true;
	if (inet_pton(AF_INET, s, &a4) == 1) {
		memset(gid->raw, 0, 10);
		gid->raw[10] = gid->raw[11] = 0xff;
		memcpy(&gid->raw[12], &a4, 4);
		return true;
	}
	return false;
}

static bool gid_is_v4mapped(const union ibv_gid *gid)
{
	static const uint8_t pfx[12] = { [10] = 0xff, [11] = 0xff };

	return !memcmp(gid->raw, pfx, sizeof(pfx));
}

static bool gid_is_zero(const union ibv_gid *gid)
{
	static const union ibv_gid zero;

	return !memcmp(gid, &zero, sizeof(zero));
}

static const char *gid_str(const union ibv_gid *gid, char *buf, size_t len)
{
	return inet_ntop(AF_INET6, gid->raw, buf, len) ? buf : "?";
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	unsigned long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->port = 1;
	o->gid_index = -1;
	o->count = -1;
	o->timeout_ms = 2000;
	o->qkey = DEFAULT_QKEY;
	o->size = 64;
	o->hop_limit = 64;

	if (argc < 2) {
		usage(stderr);
		return -1;
	}
	if (!strcmp(argv[1], "send")) {
		o->send = true;
	} else if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		exit(0);
	} else if (strcmp(argv[1], "recv")) {
		err("unknown mode '%s' (want send or recv)", argv[1]);
		usage(stderr);
		return -1;
	}
	argc--;
	argv++;

	while ((c = getopt(argc, argv, "d:g:p:i:c:t:q:l:s:D:H:vh")) != -1) {
		switch (c) {
		case 'd':
			o->dev = optarg;
			break;
		case 'g':
			o->mgid_str = optarg;
			if (!parse_mgid(optarg, &o->mgid)) {
				err("invalid MGID '%s'", optarg);
				return -1;
			}
			break;
		case 'p':
			if (!parse_ulong(optarg, 255, &v) || !v)
				goto bad;
			o->port = v;
			break;
		case 'i':
			if (!parse_ulong(optarg, 0xffff, &v))
				goto bad;
			o->gid_index = v;
			break;
		case 'c':
			if (!parse_ulong(optarg, 100000000, &v))
				goto bad;
			o->count = v;
			break;
		case 't':
			if (!parse_ulong(optarg, 86400000, &v))
				goto bad;
			o->timeout_ms = v;
			break;
		case 'q':
			if (!parse_ulong(optarg, 0xffffffff, &v))
				goto bad;
			o->qkey = v;
			break;
		case 'l':
			if (!parse_ulong(optarg, 0xffff, &v))
				goto bad;
			o->mlid = v;
			break;
		case 's':
			if (!parse_ulong(optarg, 4096, &v) || v < 8)
				goto bad;
			o->size = v;
			break;
		case 'D':
			if (!parse_ulong(optarg, 10000000, &v))
				goto bad;
			o->delay_us = v;
			break;
		case 'H':
			if (!parse_ulong(optarg, 255, &v))
				goto bad;
			o->hop_limit = v;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc) {
		err("unexpected argument '%s'", argv[optind]);
		return -1;
	}
	if (!o->dev || !o->mgid_str) {
		err("-d DEV and -g MGID are required");
		usage(stderr);
		return -1;
	}
	if (o->send && o->count < 0) {
		err("send needs -c COUNT");
		return -1;
	}
	return 0;
bad:
	err("invalid value '%s' for -%c", optarg, c);
	return -1;
}

static struct ibv_context *open_device(const char *name)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	int i, n;

	list = ibv_get_device_list(&n);
	if (!list) {
		err("ibv_get_device_list: %s", strerror(errno));
		return NULL;
	}
	for (i = 0; i < n; i++) {
		if (strcmp(ibv_get_device_name(list[i]), name))
			continue;
		ctx = ibv_open_device(list[i]);
		if (!ctx)
			err("ibv_open_device(%s): %s", name, strerror(errno));
		break;
	}
	if (i == n)
		err("no RDMA device '%s' (%d device(s) found by libibverbs)",
		    name, n);
	ibv_free_device_list(list);
	return ctx;
}

/*
 * Pick the first RoCEv2 GID whose address family matches the group's;
 * for IPv6 groups prefer a non-link-local address.
 */
static int pick_gid_index(struct ctx *c, const struct opts *o, int tbl_len)
{
	bool want_v4 = gid_is_v4mapped(&o->mgid);
	int i, fallback = -1;

	if (c->link_layer != IBV_LINK_LAYER_ETHERNET)
		return 0;

	for (i = 0; i < tbl_len; i++) {
		struct ibv_gid_entry e;

		if (ibv_query_gid_ex(c->ctx, o->port, i, &e, 0))
			continue;
		if (e.gid_type != IBV_GID_TYPE_ROCE_V2 ||
		    gid_is_zero(&e.gid) ||
		    gid_is_v4mapped(&e.gid) != want_v4)
			continue;
		if (want_v4)
			return i;
		if (e.gid.raw[0] == 0xfe && (e.gid.raw[1] & 0xc0) == 0x80) {
			if (fallback < 0)
				fallback = i;
			continue;
		}
		return i;
	}
	if (fallback >= 0)
		return fallback;
	err("%s port %u: no RoCEv2 %s GID in the GID table (use -i)",
	    o->dev, o->port, want_v4 ? "IPv4-mapped" : "IPv6");
	return -1;
}

static int setup(struct ctx *c, struct opts *o)
{
	struct ibv_qp_init_attr init = {};
	struct ibv_qp_attr attr = {};
	struct ibv_port_attr pattr;
	char gbuf[INET6_ADDRSTRLEN];
	union ibv_gid sgid;
	size_t len;

	c->ctx = open_device(o->dev);
	if (!c->ctx)
		return -1;
	if (ibv_query_port(c->ctx, o->port, &pattr)) {
		err("ibv_query_port(%s, %u): %s", o->dev, o->port,
		    strerror(errno));
		return -1;
	}
	c->port_state = pattr.state;
	c->link_layer = pattr.link_layer;
	if (pattr.state != IBV_PORT_ACTIVE)
		fprintf(stderr, "%s: warning: %s port %u is %s\n", prog, o->dev,
			o->port, ibv_port_state_str(pattr.state));

	if (o->gid_index < 0) {
		o->gid_index = pick_gid_index(c, o, pattr.gid_tbl_len);
		if (o->gid_index < 0)
			return -1;
	}
	if (ibv_query_gid(c->ctx, o->port, o->gid_index, &sgid)) {
		err("ibv_query_gid(%s, %u, %d): %s", o->dev, o->port,
		    o->gid_index, strerror(errno));
		return -1;
	}
	if (o->verbose)
		fprintf(stderr, "%s: %s port %u gid[%d] %s, mgid %s, qkey 0x%x\n",
			prog, o->dev, o->port, o->gid_index,
			gid_str(&sgid, gbuf, sizeof(gbuf)), o->mgid_str, o->qkey);

	c->depth = o->send ? SEND_DEPTH : RECV_DEPTH;
	c->slot = GRH_LEN + o->size;
	len = c->slot * c->depth;
	c->buf = calloc(1, len);
	if (!c->buf) {
		err("out of memory");
		return -1;
	}

	c->pd = ibv_alloc_pd(c->ctx);
	if (!c->pd) {
		err("ibv_alloc_pd: %s", strerror(errno));
		return -1;
	}
	c->mr = ibv_reg_mr(c->pd, c->buf, len, IBV_ACCESS_LOCAL_WRITE);
	if (!c->mr) {
		err("ibv_reg_mr: %s", strerror(errno));
		return -1;
	}
	c->ch = ibv_create_comp_channel(c->ctx);
	if (!c->ch) {
		err("ibv_create_comp_channel: %s", strerror(errno));
		return -1;
	}
	c->cq = ibv_create_cq(c->ctx, c->depth, NULL, c->ch, 0);
	if (!c->cq) {
		err("ibv_create_cq: %s", strerror(errno));
		return -1;
	}

	init.send_cq = c->cq;
	init.recv_cq = c->cq;
	init.qp_type = IBV_QPT_UD;
	init.cap.max_send_wr = o->send ? c->depth : 1;
	init.cap.max_recv_wr = o->send ? 1 : c->depth;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;
	c->qp = ibv_create_qp(c->pd, &init);
	if (!c->qp) {
		err("ibv_create_qp(UD): %s", strerror(errno));
		return -1;
	}

	attr.qp_state = IBV_QPS_INIT;
	attr.pkey_index = 0;
	attr.port_num = o->port;
	attr.qkey = o->qkey;
	if (ibv_modify_qp(c->qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_QKEY)) {
		err("ibv_modify_qp(INIT): %s", strerror(errno));
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(c->qp, &attr, IBV_QP_STATE)) {
		err("ibv_modify_qp(RTR): %s", strerror(errno));
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTS;
	attr.sq_psn = 0;
	if (ibv_modify_qp(c->qp, &attr, IBV_QP_STATE | IBV_QP_SQ_PSN)) {
		err("ibv_modify_qp(RTS): %s", strerror(errno));
		return -1;
	}
	return 0;
}

static void teardown(struct ctx *c, const struct opts *o)
{
	if (c->attached && ibv_detach_mcast(c->qp, &o->mgid, o->mlid))
		err("ibv_detach_mcast(%s): %s", o->mgid_str, strerror(errno));
	if (c->ah)
		ibv_destroy_ah(c->ah);
	if (c->qp)
		ibv_destroy_qp(c->qp);
	if (c->cq)
		ibv_destroy_cq(c->cq);
	if (c->ch)
		ibv_destroy_comp_channel(c->ch);
	if (c->mr)
		ibv_dereg_mr(c->mr);
	if (c->pd)
		ibv_dealloc_pd(c->pd);
	if (c->ctx)
		ibv_close_device(c->ctx);
	free(c->buf);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait for a completion event for up to @ms milliseconds; 0 on timeout. */
static int wait_cq_event(struct ctx *c, long ms)
{
	struct pollfd pfd = { .fd = c->ch->fd, .events = POLLIN };
	struct ibv_cq *ev_cq;
	void *ev_ctx;
	int ret;

	ret = poll(&pfd, 1, ms < 0 ? 0 : ms);
	if (ret < 0) {
		if (errno == EINTR)
			return 0;
		err("poll: %s", strerror(errno));
		return -1;
	}
	if (!ret)
		return 0;
	if (ibv_get_cq_event(c->ch, &ev_cq, &ev_ctx)) {
		err("ibv_get_cq_event: %s", strerror(errno));
		return -1;
	}
	ibv_ack_cq_events(ev_cq, 1);
	if (ibv_req_notify_cq(c->cq, 0)) {
		err("ibv_req_notify_cq: %s", strerror(errno));
		return -1;
	}
	return 1;
}

static int post_recv(struct ctx *c, int slot)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)(c->buf + slot * c->slot),
		.length = c->slot,
		.lkey = c->mr->lkey,
	};
	struct ibv_recv_wr wr = {
		.wr_id = slot, .sg_list = &sge, .num_sge = 1,
	}, *bad;
	int ret = ibv_post_recv(c->qp, &wr, &bad);

	if (ret)
		err("ibv_post_recv: %s", strerror(ret));
	return ret ? -1 : 0;
}

/* recv: SIGUSR1 ends the wait early (see the top). */
static volatile sig_atomic_t recv_stop;

static void on_usr1(int sig)
{
	(void)sig;
	recv_stop = 1;
}

static int do_recv(struct ctx *c, struct opts *o)
{
	struct sigaction sa = { .sa_handler = on_usr1 };	/* no SA_RESTART */
	long received = 0, bad = 0, deadline;
	struct ibv_wc wc[16];
	int i, n;

	for (i = 0; i < c->depth; i++)
		if (post_recv(c, i))
			return -1;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	if (ibv_req_notify_cq(c->cq, 0)) {
		err("ibv_req_notify_cq: %s", strerror(errno));
		return -1;
	}
	if (ibv_attach_mcast(c->qp, &o->mgid, o->mlid)) {
		err("ibv_attach_mcast(%s, %s, mlid 0x%x): %s", o->dev,
		    o->mgid_str, o->mlid, strerror(errno));
		return -1;
	}
	c->attached = true;
	fprintf(stderr, "listening on %s qpn 0x%x for %s\n", o->dev,
		c->qp->qp_num, o->mgid_str);

	deadline = now_ms() + o->timeout_ms;
	while (o->count < 0 || received < o->count) {
		n = ibv_poll_cq(c->cq, 16, wc);
		if (n < 0) {
			err("ibv_poll_cq failed");
			return -1;
		}
		for (i = 0; i < n; i++) {
			const uint32_t *p;

			if (wc[i].status != IBV_WC_SUCCESS) {
				err("receive completion: %s",
				    ibv_wc_status_str(wc[i].status));
				return -1;
			}
			p = (const uint32_t *)(c->buf + wc[i].wr_id * c->slot +
					       GRH_LEN);
			if (wc[i].byte_len >= GRH_LEN + 8 &&
			    ntohl(p[0]) == PAYLOAD_MAGIC) {
				received++;
				if (o->verbose)
					fprintf(stderr, "got seq %u from qpn 0x%x\n",
						ntohl(p[1]), wc[i].src_qp);
			} else {
				bad++;
			}
			if (post_recv(c, wc[i].wr_id))
				return -1;
		}
		if (n)
			continue;
		if (recv_stop || now_ms() >= deadline)
			break;
		/* in slices, so that a SIGUSR1 just before poll() is seen */
		if (wait_cq_event(c, deadline - now_ms() < 100 ?
				     deadline - now_ms() : 100) < 0)
			return -1;
	}
	if (bad)
		fprintf(stderr, "%s: ignored %ld datagram(s) without our payload\n",
			prog, bad);
	printf("received %ld\n", received);
	return 0;
}

static int do_send(struct ctx *c, struct opts *o)
{
	struct ibv_ah_attr ah = {
		.is_global = 1,
		.grh = {
			.dgid = o->mgid,
			.sgid_index = o->gid_index,
			.hop_limit = o->hop_limit,
		},
		.dlid = o->mlid,
		.port_num = o->port,
	};
	long posted = 0, done = 0;
	struct ibv_wc wc[16];
	int i, n, ret;

	c->ah = ibv_create_ah(c->pd, &ah);
	if (!c->ah) {
		err("ibv_create_ah(%s, dgid %s, sgid_index %d): %s", o->dev,
		    o->mgid_str, o->gid_index, strerror(errno));
		return -1;
	}
	if (ibv_req_notify_cq(c->cq, 0)) {
		err("ibv_req_notify_cq: %s", strerror(errno));
		return -1;
	}

	while (done < o->count) {
		while (posted < o->count && posted - done < c->depth) {
			int slot = posted % c->depth;
			uint32_t *p = (uint32_t *)(c->buf + slot * c->slot);
			struct ibv_sge sge = {
				.addr = (uintptr_t)p,
				.length = o->size,
				.lkey = c->mr->lkey,
			};
			struct ibv_send_wr wr = {
				.wr_id = posted,
				.sg_list = &sge,
				.num_sge = 1,
				.opcode = IBV_WR_SEND,
				.send_flags = IBV_SEND_SIGNALED,
				.wr.ud = {
					.ah = c->ah,
					.remote_qpn = MCAST_QPN,
					.remote_qkey = o->qkey,
				},
			}, *bad;

			p[0] = htonl(PAYLOAD_MAGIC);
			p[1] = htonl(posted);
			ret = ibv_post_send(c->qp, &wr, &bad);
			if (ret) {
				err("ibv_post_send: %s", strerror(ret));
				return -1;
			}
			posted++;
			if (o->delay_us)
				usleep(o->delay_us);
		}
		n = ibv_poll_cq(c->cq, 16, wc);
		if (n < 0) {
			err("ibv_poll_cq failed");
			return -1;
		}
		for (i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS) {
				err("send completion %lu: %s",
				    (unsigned long)wc[i].wr_id,
				    ibv_wc_status_str(wc[i].status));
				return -1;
			}
			done++;
		}
		if (n)
			continue;
		/* An event may race with the poll above; poll once more. */
		ret = wait_cq_event(c, 5000);
		if (ret < 0)
			return -1;
		if (!ret && !ibv_poll_cq(c->cq, 1, wc)) {
			err("timed out waiting for send completions (%ld of %ld)",
			    done, o->count);
			return -1;
		} else if (!ret) {
			if (wc[0].status != IBV_WC_SUCCESS) {
				err("send completion: %s",
				    ibv_wc_status_str(wc[0].status));
				return -1;
			}
			done++;
		}
	}
	printf("sent %ld\n", done);
	return 0;
}

int main(int argc, char **argv)
{
	struct ctx c = {};
	struct opts o;
	int ret;

	if (parse_args(argc, argv, &o))
		return 1;
	setvbuf(stdout, NULL, _IOLBF, 0);

	ret = setup(&c, &o);
	if (!ret)
		ret = o.send ? do_send(&c, &o) : do_recv(&c, &o);
	teardown(&c, &o);
	return ret ? 1 : 0;
}
