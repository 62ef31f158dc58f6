// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ibmcg_recv - an application of libibmcg: hold a multicast group for as
 * long as it runs, and receive on it with libibverbs.
 *
 *   ibmcg_recv [-o OWNER] [-n COUNT] [-t TIMEOUT_MS] DEV/PORT GROUP
 *   ibmcg_recv [-o OWNER] [-n COUNT] [-t TIMEOUT_MS] [-c CONF] NAME
 *
 * 1. ibmcg_join() with IB_MCG_F_BOUND: ib_mcgroups holds the group (joins
 *    it on the fabric: the SA on InfiniBand, IGMP/MLD on RoCE) until this
 *    process closes its handle or dies, however it dies. NAME is a group
 *    or pool of /etc/ib_mcgroups.conf (or -c CONF), on its first port of
 *    this node, with its declared join options.
 * 2. The member record of the reply: MGID, MLID, Q_Key, P_Key, SL, MTU,
 *    rate, printed on stdout as "record mgid ... mlid 0x... qkey 0x...".
 * 3. A UD QP with that Q_Key, attached with ibv_attach_mcast() to the
 *    group: no rdma_cm, no join of its own.
 * 4. COUNT datagrams (default 10), each printed as "datagram N: LEN bytes
 *    from qpn 0x...: HEX"; "received N" at the end. Exits 0 when COUNT
 *    arrived, 1 on an error or when TIMEOUT_MS (default 30000) passed.
 * 5. Where it may listen to the module's events (CAP_NET_ADMIN on kernels
 *    that enforce it), it waits on them too: when the SA gives the group
 *    another MLID on a re-join (an SA wipe, a client reregister, an SM
 *    failover; ibmcg_event_mlid_change()), the QP is detached from the
 *    old MLID and attached to the new one, "mlid-changed 0xOLD -> 0xNEW"
 *    on stderr. A sender would create its address handle again with the
 *    new MLID as its DLID.
 *
 * "listening" on stderr says the QP is attached. Build: make (at the top
 * of the source tree, or here), or against an installed libibmcg:
 *   cc -o ibmcg_recv ibmcg_recv.c $(pkg-config --cflags --libs libibmcg) \
 *      -libverbs
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <ibmcg/ibmcg.h>

#define GRH_LEN		40	/* a UD receive buffer starts with the GRH */
#define SLOT		(GRH_LEN + 4096)
#define DEPTH		64

static const char *prog = "ibmcg_recv";

struct verbs {
	struct ibv_context *ctx;
	struct ibv_comp_channel *ch;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	char *buf;
	bool attached;
	union ibv_gid mgid;
	uint16_t mlid;
	struct ibmcg *h;		/* events, if subscribed, else NULL */
	const char *dev;
	uint32_t port;
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: %s [-o OWNER] [-n COUNT] [-t TIMEOUT_MS] DEV/PORT GROUP\n"
		"       %s [-o OWNER] [-n COUNT] [-t TIMEOUT_MS] [-c CONF] NAME\n",
		prog, prog);
	return 2;
}

/* NAME of the configuration: its MGID, options and first port here. */
static int lookup(struct ibmcg *h, const char *conf_path, const char *name,
		  char *dev, uint32_t *port, uint8_t *mgid,
		  struct ibmcg_join_args *args)
{
	const struct ibmcg_conf_group *cg;
	struct ibmcg_port **ports;
	struct ibmcg_conf *conf;
	char why[512];
	size_t i, n;
	int err;

	err = ibmcg_conf_open(conf_path, &conf, why, sizeof(why));
	if (err) {
		fprintf(stderr, "%s: %s\n", prog, why);
		return err;
	}
	cg = ibmcg_conf_group(conf, name);
	if (!cg) {
		fprintf(stderr, "%s: no group or pool '%s' in %s\n", prog,
			name, conf_path ? conf_path : IBMCG_CONF_PATH);
		ibmcg_conf_close(conf);
		return -ENOENT;
	}
	memcpy(mgid, cg->mgid, IBMCG_GID_LEN);
	ibmcg_conf_join_args(cg, args);
	err = ibmcg_port_dump(h, NULL, &ports, &n);
	if (err) {
		fprintf(stderr, "%s: %s\n", prog, ibmcg_strerror(h, err));
		ibmcg_conf_close(conf);
		return err;
	}
	err = -ENODEV;
	for (i = 0; i < n; i++) {
		if (!ibmcg_conf_covers(cg, ports[i]))
			continue;
		snprintf(dev, IBMCG_DEV_NAME_MAX, "%s", ports[i]->dev_name);
		*port = ports[i]->port;
		err = 0;
		break;
	}
	if (err)
		fprintf(stderr, "%s: '%s' covers no port of this node\n", prog,
			name);
	ibmcg_ports_free(ports);
	ibmcg_conf_close(conf);
	return err;
}

static void print_record(const struct ibmcg_group *g)
{
	char mgid[IBMCG_MGID_STRLEN];
	const char *rate = ibmcg_rate_name(g->rate);

	printf("record dev %s port %u mgid %s state %s",
	       g->dev_name, g->port,
	       ibmcg_mgid_format(g->mgid, mgid, sizeof(mgid)),
	       ibmcg_state_name(g->state) ? ibmcg_state_name(g->state) : "?");
	/* what the kernel did not send, it does not know (yet) */
	if (ibmcg_group_has(g, IB_MCG_A_MLID))
		printf(" mlid 0x%04x", g->mlid);
	if (ibmcg_group_has(g, IB_MCG_A_QKEY))
		printf(" qkey 0x%08x", g->qkey);
	if (ibmcg_group_has(g, IB_MCG_A_PKEY))
		printf(" pkey 0x%04x", g->pkey);
	if (ibmcg_group_has(g, IB_MCG_A_SL))
		printf(" sl %u", g->sl);
	if (ibmcg_group_has(g, IB_MCG_A_MTU))
		printf(" mtu %d", ibmcg_mtu_to_bytes(g->mtu));
	if (ibmcg_group_has(g, IB_MCG_A_RATE))
		printf(" rate %s", rate ? rate : "?");
	printf("\n");
	fflush(stdout);
}

static int post_recv(struct verbs *v, uint64_t slot)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)(v->buf + slot * SLOT),
		.length = SLOT,
		.lkey = v->mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = slot, .sg_list = &sge,
				  .num_sge = 1 }, *bad;

	return ibv_post_recv(v->qp, &wr, &bad);
}

/* A UD QP with the group's Q_Key on dev/port, attached to the group. */
static int verbs_open(struct verbs *v, const char *dev, uint32_t port,
		      const struct ibmcg_group *g)
{
	struct ibv_qp_init_attr init = {
		.qp_type = IBV_QPT_UD,
		.cap = { .max_send_wr = 1, .max_recv_wr = DEPTH,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_device **list;
	struct ibv_qp_attr attr;
	int i, n;

	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), dev))
			v->ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	if (!v->ctx) {
		fprintf(stderr, "%s: cannot open %s\n", prog, dev);
		return -1;
	}
	v->ch = ibv_create_comp_channel(v->ctx);
	v->pd = ibv_alloc_pd(v->ctx);
	v->cq = v->ch && v->pd ? ibv_create_cq(v->ctx, DEPTH, NULL, v->ch, 0) :
				 NULL;
	v->buf = calloc(DEPTH, SLOT);
	v->mr = v->cq && v->buf ? ibv_reg_mr(v->pd, v->buf, DEPTH * SLOT,
					     IBV_ACCESS_LOCAL_WRITE) : NULL;
	if (!v->mr) {
		fprintf(stderr, "%s: verbs resources: %s\n", prog,
			strerror(errno));
		return -1;
	}
	init.send_cq = v->cq;
	init.recv_cq = v->cq;
	v->qp = ibv_create_qp(v->pd, &init);
	if (!v->qp) {
		fprintf(stderr, "%s: ibv_create_qp: %s\n", prog,
			strerror(errno));
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_INIT;
	attr.pkey_index = 0;
	attr.port_num = port;
	/* the group's Q_Key: datagrams with another are dropped */
	attr.qkey = g->qkey;
	if (ibv_modify_qp(v->qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_QKEY))
		goto modify;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(v->qp, &attr, IBV_QP_STATE))
		goto modify;
	for (i = 0; i < DEPTH; i++)
		if (post_recv(v, i))
			goto modify;
	if (ibv_req_notify_cq(v->cq, 0))
		goto modify;
	memcpy(v->mgid.raw, g->mgid, sizeof(v->mgid.raw));
	v->mlid = g->mlid;
	if (ibv_attach_mcast(v->qp, &v->mgid, v->mlid)) {
		fprintf(stderr, "%s: ibv_attach_mcast: %s\n", prog,
			strerror(errno));
		return -1;
	}
	v->attached = true;
	return 0;

modify:
	fprintf(stderr, "%s: setting up the QP: %s\n", prog, strerror(errno));
	return -1;
}

static void verbs_close(struct verbs *v)
{
	if (v->attached)
		ibv_detach_mcast(v->qp, &v->mgid, v->mlid);
	if (v->qp)
		ibv_destroy_qp(v->qp);
	if (v->mr)
		ibv_dereg_mr(v->mr);
	if (v->cq)
		ibv_destroy_cq(v->cq);
	if (v->ch)
		ibv_destroy_comp_channel(v->ch);
	if (v->pd)
		ibv_dealloc_pd(v->pd);
	if (v->ctx)
		ibv_close_device(v->ctx);
	free(v->buf);
}

/*
 * The SA gave our group another MLID: the QP attached to the old one
 * listens on another group or on none. Attach the new one first, then
 * let go of the old.
 */
static int on_event(const struct ibmcg_event *ev, void *arg)
{
	struct verbs *v = arg;
	uint8_t mgid[IBMCG_GID_LEN];
	uint16_t old_mlid, new_mlid;

	if (!ibmcg_event_mlid_change(ev, mgid, &old_mlid, &new_mlid) ||
	    strcmp(ev->group->dev_name, v->dev) || ev->group->port != v->port ||
	    memcmp(mgid, v->mgid.raw, sizeof(mgid)) || new_mlid == v->mlid)
		return 0;
	if (ibv_attach_mcast(v->qp, &v->mgid, new_mlid)) {
		fprintf(stderr, "%s: ibv_attach_mcast: %s\n", prog,
			strerror(errno));
		return 0;
	}
	if (v->attached)
		ibv_detach_mcast(v->qp, &v->mgid, v->mlid);
	v->attached = true;
	fprintf(stderr, "mlid-changed 0x%04x -> 0x%04x\n", old_mlid, new_mlid);
	v->mlid = new_mlid;
	return 0;
}

/* Print datagrams until count arrived or timeout_ms passed. */
static long receive(struct verbs *v, long count, long timeout_ms)
{
	long long deadline = now_ms() + timeout_ms;
	struct pollfd pfd[2] = {
		{ .fd = v->ch->fd, .events = POLLIN },
		{ .fd = v->h ? ibmcg_event_fd(v->h) : -1, .events = POLLIN },
	};
	struct ibv_wc wc[16];
	long got = 0;
	void *cq_ctx;
	struct ibv_cq *cq;
	int i, j, n;

	while (got < count) {
		n = ibv_poll_cq(v->cq, 16, wc);
		if (n < 0)
			return -1;
		for (i = 0; i < n; i++) {
			const unsigned char *p = (unsigned char *)v->buf +
						 wc[i].wr_id * SLOT + GRH_LEN;
			unsigned int len;

			if (wc[i].status != IBV_WC_SUCCESS) {
				fprintf(stderr, "%s: completion: %s\n", prog,
					ibv_wc_status_str(wc[i].status));
				return -1;
			}
			len = wc[i].byte_len > GRH_LEN ?
			      wc[i].byte_len - GRH_LEN : 0;
			printf("datagram %ld: %u bytes from qpn 0x%x:", ++got,
			       len, wc[i].src_qp);
			for (j = 0; j < (int)len && j < 16; j++)
				printf(" %02x", p[j]);
			printf("\n");
			if (post_recv(v, wc[i].wr_id))
				return -1;
		}
		if (n)
			continue;
		if (now_ms() >= deadline)
			break;
		if (poll(pfd, 2, (int)(deadline - now_ms())) <= 0)
			continue;
		/* -ENOBUFS (events lost) and the like: keep receiving */
		if (pfd[1].revents & POLLIN)
			ibmcg_event_recv(v->h, on_event, v);
		if (!(pfd[0].revents & POLLIN))
			continue;
		if (ibv_get_cq_event(v->ch, &cq, &cq_ctx))
			return -1;
		ibv_ack_cq_events(cq, 1);
		if (ibv_req_notify_cq(v->cq, 0))
			return -1;
	}
	return got;
}

int main(int argc, char **argv)
{
	struct ibmcg_join_args args = IBMCG_JOIN_ARGS_INIT;
	const char *owner = NULL, *conf_path = NULL, *why;
	char uid_owner[32];
	long count = 10, timeout_ms = 30000, got;
	char dev[IBMCG_DEV_NAME_MAX];
	uint8_t mgid[IBMCG_GID_LEN];
	struct verbs v = { 0 };
	struct ibmcg_group *g;
	struct ibmcg *h;
	uint32_t port;
	int opt, err;

	while ((opt = getopt(argc, argv, "o:n:t:c:")) != -1) {
		switch (opt) {
		case 'o':
			owner = optarg;
			break;
		case 'n':
			count = strtol(optarg, NULL, 0);
			break;
		case 't':
			timeout_ms = strtol(optarg, NULL, 0);
			break;
		case 'c':
			conf_path = optarg;
			break;
		default:
			return usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1 || argc > 2 || count < 1 || timeout_ms < 1)
		return usage();

	h = ibmcg_alloc();
	if (!h)
		return 1;
	err = ibmcg_connect(h);
	if (err) {
		fprintf(stderr, "%s: %s\n", prog, ibmcg_strerror(h, err));
		return 1;
	}
	if (argc == 2) {
		if (ibmcg_devport_parse(argv[0], dev, &port, false, &why) ||
		    ibmcg_mgid_parse(argv[1], mgid, &why)) {
			fprintf(stderr, "%s: %s\n", prog, why);
			return usage();
		}
	} else if (lookup(h, conf_path, argv[0], dev, &port, mgid, &args)) {
		return 1;
	}
	/*
	 * Bound: the hold belongs to h's socket. An unprivileged process is
	 * held as "uid:UID" by the module, whatever it asks for.
	 */
	if (owner)
		args.owner = owner;
	/*
	 * The owner of a hold taken without CAP_NET_ADMIN is always
	 * "uid:<uid>"; root may name any, and gets the same by default.
	 */
	if (!args.owner) {
		snprintf(uid_owner, sizeof(uid_owner), "uid:%u",
			 (unsigned int)getuid());
		args.owner = uid_owner;
	}
	args.flags |= IB_MCG_F_BOUND;
	err = ibmcg_join(h, dev, port, mgid, &args, &g);
	if (err) {
		fprintf(stderr, "%s: cannot hold the group: %s\n", prog,
			ibmcg_strerror(h, err));
		return 1;
	}
	print_record(g);
	if (g->state != IB_MCG_STATE_JOINED)
		fprintf(stderr, "%s: not joined yet (%s); receiving anyway\n",
			prog, ibmcg_state_name(g->state));

	/* MLID changes: before attaching, so that none is missed */
	if (!ibmcg_event_subscribe(h)) {
		v.h = h;
		fcntl(ibmcg_event_fd(h), F_SETFL,
		      fcntl(ibmcg_event_fd(h), F_GETFL) | O_NONBLOCK);
	}
	v.dev = dev;
	v.port = port;
	err = verbs_open(&v, dev, port, g);
	ibmcg_group_free(g);
	if (!err) {
		fprintf(stderr, "listening\n");
		got = receive(&v, count, timeout_ms);
		if (got >= 0)
			printf("received %ld\n", got);
		err = got != count;
	}
	verbs_close(&v);
	ibmcg_close(h);		/* releases the bound hold */
	return err ? 1 : 0;
}
