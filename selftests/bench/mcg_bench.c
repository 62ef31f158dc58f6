// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcg_bench: the timing loops of "make bench" (selftests/bench/). Each
 * mode prints one line "median_us N" (and min/max) on stdout.
 *
 *   mcg_bench heldjoin DEV PORT MGID COUNT
 *	owner bench:a holds MGID; COUNT times, owner bench:b joins it (the
 *	timed call, ibmcg_join() on an open handle) and leaves it again.
 *   mcg_bench spawn COUNT CMD [ARG...]
 *	COUNT times fork, exec CMD (stdout to /dev/null) and wait for it.
 *   mcg_bench close COUNT
 *	COUNT times opens and binds a generic netlink socket, and times
 *	its close().
 *   mcg_bench joinmany DEV PORT COUNT OWNER FIRST [sendonly] [bound]
 *	joins the MGIDs ff12:401b:ffff::FIRST.. (or ::ffff:239.X.Y.Z from
 *	239.0.0.0 + FIRST when DEV is a RoCE port: "-4" before DEV), prints
 *	"joined N"; with bound, holds them until killed.
 *
 * Exits 1 if the benchmark itself fails (never on timing).
 */
#include <errno.h>
#include <fcntl.h>
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

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";
	int ret = 2;

	if (!strcmp(m, "heldjoin"))
		ret = held_join(argc, argv);
	else if (!strcmp(m, "spawn"))
		ret = spawn(argc, argv);
	else if (!strcmp(m, "close"))
		ret = sock_close(argc, argv);
	else if (!strcmp(m, "joinmany"))
		ret = join_many(argc, argv);
	if (ret == 2)
		fprintf(stderr,
			"usage: mcg_bench {heldjoin DEV PORT MGID COUNT | spawn COUNT CMD... | close COUNT | joinmany [-4] DEV PORT COUNT OWNER FIRST [sendonly] [bound]}\n");
	return ret;
}
