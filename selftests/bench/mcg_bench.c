// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcg_bench: the timing loops of "make bench" (selftests/bench/). Each
 * mode prints one line "median_us N" (and min/max) on stdout.
 *
 *   mcg_bench heldjoin DEV PORT MGID COUNT
 *	owner bench:a holds MGID; COUNT times, owner bench:b joins it (the
 *	timed call, ibmcg_join() on an open handle) and leaves it again.
 *   mcg_bench heldjoin-raw DEV PORT MGID COUNT [brief]
 *	as heldjoin, but the timed JOIN is built once and sent with plain
 *	send() and recv() on a socket of its own (no libibmcg, no libnl):
 *	kernel and system calls only; with brief, it asks for the brief
 *	reply (IB_MCG_A_REPLY_BRIEF). Also prints "send_median_us" and
 *	"recv_median_us", the two calls apart.
 *   mcg_bench joinsteps DEV PORT MGID COUNT
 *	where a held JOIN's time goes, step by step (join_steps()).
 *   mcg_bench floor COUNT
 *	the floor of any request to ib_mcgroups: COUNT round trips of a
 *	generic netlink request the family refuses before parsing anything
 *	(a command it does not have; answered by an error ack), plain
 *	send() and recv().
 *   mcg_bench getfamily COUNT
 *	COUNT round trips of CTRL_CMD_GETFAMILY "ib_mcgroups" (the
 *	controller's reply lists its commands and groups), send() and recv().
 *   mcg_bench spawn COUNT CMD [ARG...]
 *	COUNT times fork, exec CMD (stdout to /dev/null) and wait for it.
 *   mcg_bench close COUNT
 *	COUNT times opens and binds a generic netlink socket, and times
 *	its close().
 *   mcg_bench dump COUNT {raw|lib} [brief]
 *	COUNT times dumps all groups (GROUP_GET, NLM_F_DUMP): raw reads the
 *	messages to NLMSG_DONE with plain recv() into one buffer and decodes
 *	nothing (the kernel's and the system calls' share); lib calls
 *	ibmcg_group_dump() and frees the result. With brief, the list view
 *	(raw: IB_MCG_A_LIST_BRIEF; lib: ibmcg_group_list()). Also prints
 *	"groups", and for raw "bytes" and "datagrams" of one dump.
 *   mcg_bench joinmany DEV PORT COUNT OWNER FIRST [sendonly] [bound]
 *	joins the MGIDs ff12:401b:ffff::FIRST.. (or ::ffff:239.X.Y.Z from
 *	239.0.0.0 + FIRST when DEV is a RoCE port: "-4" before DEV), prints
 *	"joined N"; with bound, holds them until killed.
 *
 * Exits 1 if the benchmark itself fails (never on timing).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ibmcg.h"

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void report(double *t, unsigned long n)
{
	qsort(t, n, sizeof(*t), cmp_double);
	printf("median_us %.1f min_us %.1f max_us %.1f count %lu\n",
	       n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2, t[0],
	       t[n - 1], n);
}

static int parse_gid(const char *s, uint8_t gid[16])
{
	return ibmcg_mgid_parse(s, gid, NULL) ? -1 : 0;
}

static struct ibmcg *connect_or_die(void)
{
	struct ibmcg *h = ibmcg_alloc();

	if (!h || ibmcg_connect(h)) {
		fprintf(stderr, "mcg_bench: cannot talk to ib_mcgroups: %s\n",
			ibmcg_strerror(h, -EIO));
		exit(1);
	}
	return h;
}

static int held_join(int argc, char **argv)
{
	struct ibmcg_join_args a = { .size = sizeof(a), .owner = "bench:a",
					  .create = true };
	struct ibmcg_join_args b = { .size = sizeof(b), .owner = "bench:b" };
	unsigned long i, n;
	uint8_t mgid[16];
	struct ibmcg *h;
	double *t, t0;
	int err;

	if (argc != 6 || parse_gid(argv[4], mgid))
		return 2;
	n = strtoul(argv[5], NULL, 0);
	t = calloc(n ? n : 1, sizeof(*t));
	h = connect_or_die();
	err = ibmcg_join(h, argv[2], strtoul(argv[3], NULL, 0), mgid, &a,
			 NULL);
	for (i = 0; i < n && !err; i++) {
		t0 = now_us();
		err = ibmcg_join(h, argv[2], strtoul(argv[3], NULL, 0), mgid,
				 &b, NULL);
		t[i] = now_us() - t0;
		if (!err)
			err = ibmcg_leave(h, argv[2],
					  strtoul(argv[3], NULL, 0), mgid,
					  b.owner, 0, NULL);
	}
	if (!err)
		err = ibmcg_leave(h, argv[2], strtoul(argv[3], NULL, 0), mgid,
				  a.owner, 0, NULL);
	if (err) {
		fprintf(stderr, "mcg_bench: %s\n", ibmcg_strerror(h, err));
		return 1;
	}
	report(t, n);
	ibmcg_close(h);
	return 0;
}

/* ---- raw generic netlink: no libnl, no libibmcg ----------------------- */

struct raw_msg {
	union {
		struct nlmsghdr nlh;
		char buf[512];
	};
	size_t len;
};

static void raw_start(struct raw_msg *m, uint16_t type, uint8_t cmd)
{
	struct genlmsghdr *g;

	memset(m, 0, sizeof(*m));
	m->nlh.nlmsg_type = type;
	m->nlh.nlmsg_flags = NLM_F_REQUEST;
	g = NLMSG_DATA(&m->nlh);
	g->cmd = cmd;
	g->version = IB_MCG_GENL_VERSION;
	m->len = NLMSG_HDRLEN + GENL_HDRLEN;
	m->nlh.nlmsg_len = m->len;
}

static void raw_put(struct raw_msg *m, uint16_t type, const void *data,
		    size_t len)
{
	struct nlattr *a = (struct nlattr *)(m->buf + m->len);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((char *)a + NLA_HDRLEN, data, len);
	m->len += NLA_ALIGN(a->nla_len);
	m->nlh.nlmsg_len = m->len;
}

static int raw_socket(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int one = 1;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		perror("mcg_bench: genetlink socket");
		exit(1);
	}
	/* Error acks without the request: as small as an answer gets. */
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	return fd;
}

static char raw_rx[65536];

/*
 * One round trip: send @m, receive one datagram; *send_us and *recv_us
 * the two calls' times. Returns the reply's first message (in raw_rx).
 */
static struct nlmsghdr *raw_rt(int fd, struct raw_msg *m, double *send_us,
			       double *recv_us)
{
	double t0 = now_us(), t1;
	ssize_t len;

	m->nlh.nlmsg_seq++;
	if (send(fd, m->buf, m->len, 0) != (ssize_t)m->len) {
		perror("mcg_bench: send");
		exit(1);
	}
	t1 = now_us();
	len = recv(fd, raw_rx, sizeof(raw_rx), 0);
	*recv_us = now_us() - t1;
	*send_us = t1 - t0;
	if (len < (ssize_t)NLMSG_HDRLEN) {
		perror("mcg_bench: recv");
		exit(1);
	}
	return (struct nlmsghdr *)raw_rx;
}

/* The family id of ib_mcgroups, by CTRL_CMD_GETFAMILY; @m the request. */
static uint16_t raw_family(int fd, struct raw_msg *m)
{
	struct nlmsghdr *nlh;
	struct nlattr *a;
	double s, r;
	int len;

	raw_start(m, GENL_ID_CTRL, CTRL_CMD_GETFAMILY);
	((struct genlmsghdr *)NLMSG_DATA(&m->nlh))->version = 1;
	raw_put(m, CTRL_ATTR_FAMILY_NAME, IB_MCG_GENL_NAME,
		sizeof(IB_MCG_GENL_NAME));
	nlh = raw_rt(fd, m, &s, &r);
	if (nlh->nlmsg_type != GENL_ID_CTRL) {
		fprintf(stderr, "mcg_bench: no family %s\n", IB_MCG_GENL_NAME);
		exit(1);
	}
	len = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	for (a = (struct nlattr *)((char *)NLMSG_DATA(nlh) + GENL_HDRLEN);
	     len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= len;
	     len -= NLA_ALIGN(a->nla_len),
	     a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len)))
		if (a->nla_type == CTRL_ATTR_FAMILY_ID)
			return *(uint16_t *)((char *)a + NLA_HDRLEN);
	fprintf(stderr, "mcg_bench: no family id\n");
	exit(1);
}

static void report_split(const char *what, double *t, unsigned long n)
{
	qsort(t, n, sizeof(*t), cmp_double);
	printf("%s_median_us %.1f\n", what,
	       n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2);
}

/* floor, getfamily: the round trips every request pays at least. */
static int raw_floor(int argc, char **argv, bool getfamily)
{
	unsigned long i, n;
	struct raw_msg m;
	double *t, *ts, *tr;
	uint16_t family;
	int fd;

	if (argc != 3)
		return 2;
	n = strtoul(argv[2], NULL, 0);
	t = calloc(n ? n : 1, sizeof(*t));
	ts = calloc(n ? n : 1, sizeof(*t));
	tr = calloc(n ? n : 1, sizeof(*t));
	fd = raw_socket();
	family = raw_family(fd, &m);
	if (!getfamily)
		raw_start(&m, family, IB_MCG_CMD_MAX + 1);
	for (i = 0; i < n; i++) {
		struct nlmsghdr *nlh = raw_rt(fd, &m, &ts[i], &tr[i]);

		t[i] = ts[i] + tr[i];
		if (nlh->nlmsg_type != (getfamily ? GENL_ID_CTRL : NLMSG_ERROR)) {
			fprintf(stderr, "mcg_bench: unexpected reply %u\n",
				nlh->nlmsg_type);
			return 1;
		}
	}
	report(t, n);
	report_split("send", ts, n);
	report_split("recv", tr, n);
	close(fd);
	return 0;
}

/*
 * joinsteps: where a held JOIN's time goes. Each round sends, in turn, the
 * floor's request and four JOINs that each stop one step further in
 * mcg_nl_join(): refused by an attribute's value (policy, caller, owner
 * parsed), refused for a device that does not exist (mcg_lock taken, the
 * device looked up), a JOIN by the owner that holds the group already
 * (group and holder found, the brief reply built; nothing allocated), and
 * the held join of heldjoin-raw brief (a new owner and holder, left again
 * untimed). Prints each one's median: step_NAME_median_us.
 */
enum { ST_FLOOR, ST_BADATTR, ST_NODEV, ST_REPEAT, ST_NEW, ST_N };
static const char *const step_name[ST_N] = {
	"floor", "badattr", "nodev", "repeat", "new",
};

/* A raw JOIN of @mgid on @dev/@port for @owner, no other attribute. */
static void join_req(struct raw_msg *m, uint16_t family, const char *dev,
		     uint32_t port, const uint8_t *mgid, const char *owner)
{
	raw_start(m, family, IB_MCG_CMD_JOIN);
	raw_put(m, IB_MCG_A_DEV_NAME, dev, strlen(dev) + 1);
	raw_put(m, IB_MCG_A_PORT, &port, sizeof(port));
	raw_put(m, IB_MCG_A_MGID, mgid, 16);
	raw_put(m, IB_MCG_A_OWNER, owner, strlen(owner) + 1);
}

static int join_steps(int argc, char **argv)
{
	struct ibmcg_join_args a = { .size = sizeof(a), .owner = "bench:a",
					  .create = true };
	struct raw_msg m[ST_N];
	unsigned long i, n;
	double *t[ST_N], s, r;
	uint16_t family;
	uint8_t mgid[16], bad_js = 3;
	uint32_t port;
	struct ibmcg *h;
	int fd, k, err;

	if (argc != 6 || parse_gid(argv[4], mgid))
		return 2;
	n = strtoul(argv[5], NULL, 0);
	port = strtoul(argv[3], NULL, 0);
	for (k = 0; k < ST_N; k++)
		t[k] = calloc(n ? n : 1, sizeof(double));
	h = connect_or_die();
	fd = raw_socket();
	family = raw_family(fd, &m[0]);
	raw_start(&m[ST_FLOOR], family, IB_MCG_CMD_MAX + 1);
	join_req(&m[ST_BADATTR], family, argv[2], port, mgid, "bench:b");
	raw_put(&m[ST_BADATTR], IB_MCG_A_JOIN_STATE, &bad_js, 1);
	join_req(&m[ST_NODEV], family, "nodev", port, mgid, "bench:b");
	join_req(&m[ST_REPEAT], family, argv[2], port, mgid, "bench:a");
	join_req(&m[ST_NEW], family, argv[2], port, mgid, "bench:b");
	for (k = ST_REPEAT; k <= ST_NEW; k++)
		raw_put(&m[k], IB_MCG_A_REPLY_BRIEF, NULL, 0);
	err = ibmcg_join(h, argv[2], port, mgid, &a, NULL);
	for (i = 0; i < n && !err; i++) {
		for (k = 0; k < ST_N; k++) {
			struct nlmsghdr *nlh = raw_rt(fd, &m[k], &s, &r);
			bool refused = nlh->nlmsg_type == NLMSG_ERROR &&
				((struct nlmsgerr *)NLMSG_DATA(nlh))->error;

			t[k][i] = s + r;
			if (refused != (k < ST_REPEAT)) {
				fprintf(stderr, "mcg_bench: step %s: %s\n",
					step_name[k],
					refused ? "refused" : "not refused");
				return 1;
			}
		}
		err = ibmcg_leave(h, argv[2], port, mgid, "bench:b", 0, NULL);
	}
	if (!err)
		err = ibmcg_leave(h, argv[2], port, mgid, a.owner, 0, NULL);
	if (err) {
		fprintf(stderr, "mcg_bench: %s\n", ibmcg_strerror(h, err));
		return 1;
	}
	for (k = 0; k < ST_N; k++) {
		char what[32];

		snprintf(what, sizeof(what), "step_%s", step_name[k]);
		report_split(what, t[k], n);
	}
	close(fd);
	ibmcg_close(h);
	return 0;
}

/* heldjoin-raw: the JOIN of heldjoin without the library. */
static int held_join_raw(int argc, char **argv)
{
	struct ibmcg_join_args a = { .size = sizeof(a), .owner = "bench:a",
					  .create = true };
	unsigned long i, n;
	uint32_t port;
	uint8_t mgid[16];
	struct raw_msg m;
	struct ibmcg *h;
	double *t, *ts, *tr;
	int fd, err;

	if (argc < 6 || argc > 7 || parse_gid(argv[4], mgid) ||
	    (argc == 7 && strcmp(argv[6], "brief")))
		return 2;
	n = strtoul(argv[5], NULL, 0);
	port = strtoul(argv[3], NULL, 0);
	t = calloc(n ? n : 1, sizeof(*t));
	ts = calloc(n ? n : 1, sizeof(*t));
	tr = calloc(n ? n : 1, sizeof(*t));
	h = connect_or_die();
	fd = raw_socket();
	join_req(&m, raw_family(fd, &m), argv[2], port, mgid, "bench:b");
	if (argc == 7)
		raw_put(&m, IB_MCG_A_REPLY_BRIEF, NULL, 0);
	err = ibmcg_join(h, argv[2], port, mgid, &a, NULL);
	for (i = 0; i < n && !err; i++) {
		struct nlmsghdr *nlh = raw_rt(fd, &m, &ts[i], &tr[i]);

		t[i] = ts[i] + tr[i];
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			err = ((struct nlmsgerr *)NLMSG_DATA(nlh))->error;
			break;
		}
		err = ibmcg_leave(h, argv[2], port, mgid, "bench:b", 0, NULL);
	}
	if (!err)
		err = ibmcg_leave(h, argv[2], port, mgid, a.owner, 0, NULL);
	if (err) {
		fprintf(stderr, "mcg_bench: %s\n", ibmcg_strerror(h, err));
		return 1;
	}
	report(t, n);
	report_split("send", ts, n);
	report_split("recv", tr, n);
	close(fd);
	ibmcg_close(h);
	return 0;
}

/* dump: one GROUP_GET dump, raw (no decoding) or through the library. */
static int dump(int argc, char **argv)
{
	unsigned long i, n, groups = 0, bytes = 0, dgrams = 0;
	bool raw, brief;
	struct raw_msg m;
	struct ibmcg *h = NULL;
	double *t, t0;
	int fd = -1;

	if (argc < 4 || argc > 5 ||
	    (strcmp(argv[3], "raw") && strcmp(argv[3], "lib")) ||
	    (argc == 5 && strcmp(argv[4], "brief")))
		return 2;
	raw = !strcmp(argv[3], "raw");
	brief = argc == 5;
	n = strtoul(argv[2], NULL, 0);
	t = calloc(n ? n : 1, sizeof(*t));
	if (raw) {
		fd = raw_socket();
		raw_start(&m, raw_family(fd, &m), IB_MCG_CMD_GROUP_GET);
		m.nlh.nlmsg_flags |= NLM_F_DUMP;
		if (brief)
			raw_put(&m, IB_MCG_A_LIST_BRIEF, NULL, 0);
	} else {
		h = connect_or_die();
	}
	for (i = 0; i < n; i++) {
		struct ibmcg_group **v;
		size_t cnt;
		bool done = false;

		groups = bytes = dgrams = 0;
		t0 = now_us();
		if (!raw) {
			int err = brief ? ibmcg_group_list(h, NULL, 0, &v, &cnt) :
					  ibmcg_group_dump(h, NULL, 0, &v, &cnt);

			if (err) {
				fprintf(stderr, "mcg_bench: %s\n",
					ibmcg_strerror(h, err));
				return 1;
			}
			groups = cnt;
			ibmcg_groups_free(v);
			t[i] = now_us() - t0;
			continue;
		}
		m.nlh.nlmsg_seq++;
		if (send(fd, m.buf, m.len, 0) != (ssize_t)m.len) {
			perror("mcg_bench: send");
			return 1;
		}
		while (!done) {
			ssize_t len = recv(fd, raw_rx, sizeof(raw_rx), 0);
			struct nlmsghdr *nlh = (struct nlmsghdr *)raw_rx;
			int rem = len;

			if (len < 0) {
				perror("mcg_bench: recv");
				return 1;
			}
			bytes += len;
			dgrams++;

			for (; NLMSG_OK(nlh, rem); nlh = NLMSG_NEXT(nlh, rem)) {
				if (nlh->nlmsg_type == NLMSG_ERROR) {
					fprintf(stderr, "mcg_bench: dump refused\n");
					return 1;
				}
				if (nlh->nlmsg_type == NLMSG_DONE)
					done = true;
				else
					groups++;
			}
		}
		t[i] = now_us() - t0;
	}
	report(t, n);
	printf("groups %lu\n", groups);
	if (raw)
		printf("bytes %lu\ndatagrams %lu\n", bytes, dgrams);
	if (h)
		ibmcg_close(h);
	if (fd >= 0)
		close(fd);
	return 0;
}

static int spawn(int argc, char **argv)
{
	unsigned long i, n;
	double *t, t0;
	int st;

	if (argc < 4)
		return 2;
	n = strtoul(argv[2], NULL, 0);
	t = calloc(n ? n : 1, sizeof(*t));
	for (i = 0; i < n; i++) {
		pid_t pid;

		t0 = now_us();
		pid = fork();
		if (pid < 0)
			return 1;
		if (!pid) {
			int fd = open("/dev/null", O_WRONLY);

			if (fd >= 0)
				dup2(fd, 1);
			execvp(argv[3], argv + 3);
			_exit(127);
		}
		if (waitpid(pid, &st, 0) < 0)
			return 1;
		t[i] = now_us() - t0;
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "mcg_bench: %s failed (status 0x%x)\n",
				argv[3], st);
			return 1;
		}
	}
	report(t, n);
	return 0;
}

static int sock_close(int argc, char **argv)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	unsigned long i, n;
	double *t, t0;

	if (argc != 3)
		return 2;
	n = strtoul(argv[2], NULL, 0);
	t = calloc(n ? n : 1, sizeof(*t));
	for (i = 0; i < n; i++) {
		int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
				NETLINK_GENERIC);

		if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
			perror("mcg_bench: genetlink socket");
			return 1;
		}
		t0 = now_us();
		close(fd);
		t[i] = now_us() - t0;
	}
	report(t, n);
	return 0;
}

static int join_many(int argc, char **argv)
{
	struct ibmcg_join_args a = { .size = sizeof(a), .create = true };
	unsigned long i, n, first;
	bool v4 = false, bound = false;
	uint8_t mgid[16];
	struct ibmcg *h;
	uint32_t port;
	int err = 0;

	if (argc > 2 && !strcmp(argv[2], "-4")) {
		v4 = true;
		argv++;
		argc--;
	}
	if (argc < 7)
		return 2;
	port = strtoul(argv[3], NULL, 0);
	n = strtoul(argv[4], NULL, 0);
	a.owner = argv[5];
	first = strtoul(argv[6], NULL, 0);
	for (i = 7; i < (unsigned long)argc; i++) {
		if (!strcmp(argv[i], "sendonly"))
			a.join_state = IB_MCG_JOIN_SENDONLY_FULL;
		else if (!strcmp(argv[i], "bound"))
			bound = true;
		else
			return 2;
	}
	if (bound)
		a.flags = IB_MCG_F_BOUND;
	h = connect_or_die();
	for (i = 0; i < n && !err; i++) {
		unsigned long g = first + i;

		memset(mgid, 0, sizeof(mgid));
		if (v4) {
			mgid[10] = mgid[11] = 0xff;
			mgid[12] = 239;
		} else {
			mgid[0] = 0xff;
			mgid[1] = 0x12;
			mgid[2] = 0x40;
			mgid[3] = 0x1b;
			mgid[4] = mgid[5] = 0xff;
			mgid[12] = g >> 24;
		}
		mgid[13] = g >> 16;
		mgid[14] = g >> 8;
		mgid[15] = g;
		err = ibmcg_join(h, argv[2], port, mgid, &a, NULL);
	}
	if (err) {
		fprintf(stderr, "mcg_bench: group %lu: %s\n", i - 1,
			ibmcg_strerror(h, err));
		return 1;
	}
	printf("joined %lu\n", n);
	fflush(stdout);
	while (bound)
		pause();
	ibmcg_close(h);
	return 0;
}

/*
 * release OWNER: one OWNER_RELEASE of every hold of OWNER, timed through
 * the library (the reply decoded too), in this process: no spawn in it.
 */
static int owner_release(int argc, char **argv)
{
	struct ibmcg_released **rel = NULL;
	uint32_t holds = 0;
	struct ibmcg *h;
	size_t n = 0;
	double t0, t;
	int err;

	if (argc != 3)
		return 2;
	h = connect_or_die();
	t0 = now_us();
	err = ibmcg_owner_release(h, argv[2], NULL, 0, &rel, &n, &holds);
	t = now_us() - t0;
	if (err) {
		fprintf(stderr, "mcg_bench: %s\n", ibmcg_strerror(h, err));
		return 1;
	}
	ibmcg_released_free(rel);
	report(&t, 1);
	printf("holds %u groups %zu\n", holds, n);
	ibmcg_close(h);
	return 0;
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";
	int ret = 2;

	if (!strcmp(m, "heldjoin"))
		ret = held_join(argc, argv);
	else if (!strcmp(m, "heldjoin-raw"))
		ret = held_join_raw(argc, argv);
	else if (!strcmp(m, "joinsteps"))
		ret = join_steps(argc, argv);
	else if (!strcmp(m, "floor"))
		ret = raw_floor(argc, argv, false);
	else if (!strcmp(m, "getfamily"))
		ret = raw_floor(argc, argv, true);
	else if (!strcmp(m, "spawn"))
		ret = spawn(argc, argv);
	else if (!strcmp(m, "close"))
		ret = sock_close(argc, argv);
	else if (!strcmp(m, "dump"))
		ret = dump(argc, argv);
	else if (!strcmp(m, "joinmany"))
		ret = join_many(argc, argv);
	else if (!strcmp(m, "release"))
		ret = owner_release(argc, argv);
	if (ret == 2)
		fprintf(stderr,
			"usage: mcg_bench {heldjoin DEV PORT MGID COUNT | heldjoin-raw DEV PORT MGID COUNT [brief] | joinsteps DEV PORT MGID COUNT | floor COUNT | getfamily COUNT | spawn COUNT CMD... | close COUNT | dump COUNT {raw|lib} [brief] | joinmany [-4] DEV PORT COUNT OWNER FIRST [sendonly] [bound] | release OWNER}\n");
	return ret;
}
