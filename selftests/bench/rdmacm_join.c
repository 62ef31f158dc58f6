// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdmacm_join: the anchor of the held-join benchmark. Times rdma_cm
 * multicast joins (librdmacm) on the port that owns LOCAL_IP:
 *
 *   rdmacm_join LOCAL_IP GROUP_IP COUNT
 *
 * COUNT times: rdma_join_multicast() until its RDMA_CM_EVENT_MULTICAST_JOIN
 * (the timed part), then rdma_leave_multicast(). Prints
 * "median_us N min_us N max_us N count N". Exits 1 if a join fails.
 */
#include <arpa/inet.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdma/rdma_cma.h>

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

static int get_event(struct rdma_event_channel *ch,
		     enum rdma_cm_event_type want)
{
	struct rdma_cm_event *ev;
	int type, status;

	if (rdma_get_cm_event(ch, &ev)) {
		perror("rdmacm_join: rdma_get_cm_event");
		return -1;
	}
	type = ev->event;
	status = ev->status;
	rdma_ack_cm_event(ev);
	if (type != (int)want) {
		fprintf(stderr, "rdmacm_join: %s (status %d), expected %s\n",
			rdma_event_str(type), status, rdma_event_str(want));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct sockaddr_in local = { .sin_family = AF_INET };
	struct sockaddr_in grp = { .sin_family = AF_INET };
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	unsigned long i, n;
	double *t, t0;

	if (argc != 4 || inet_pton(AF_INET, argv[1], &local.sin_addr) != 1 ||
	    inet_pton(AF_INET, argv[2], &grp.sin_addr) != 1) {
		fprintf(stderr, "usage: rdmacm_join LOCAL_IP GROUP_IP COUNT\n");
		return 2;
	}
	n = strtoul(argv[3], NULL, 0);
	t = calloc(n ? n : 1, sizeof(*t));
	ch = rdma_create_event_channel();
	if (!ch || !t) {
		perror("rdmacm_join: rdma_create_event_channel");
		return 1;
	}
	if (rdma_create_id(ch, &id, NULL, RDMA_PS_UDP)) {
		perror("rdmacm_join: rdma_create_id");
		return 1;
	}
	if (rdma_bind_addr(id, (struct sockaddr *)&local)) {
		perror("rdmacm_join: rdma_bind_addr");
		return 1;
	}
	for (i = 0; i < n; i++) {
		t0 = now_us();
		if (rdma_join_multicast(id, (struct sockaddr *)&grp, NULL)) {
			perror("rdmacm_join: rdma_join_multicast");
			return 1;
		}
		if (get_event(ch, RDMA_CM_EVENT_MULTICAST_JOIN))
			return 1;
		t[i] = now_us() - t0;
		if (rdma_leave_multicast(id, (struct sockaddr *)&grp)) {
			perror("rdmacm_join: rdma_leave_multicast");
			return 1;
		}
	}
	qsort(t, n, sizeof(*t), cmp_double);
	if (n)
		printf("median_us %.1f min_us %.1f max_us %.1f count %lu\n",
		       n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2, t[0],
		       t[n - 1], n);
	rdma_destroy_id(id);
	rdma_destroy_event_channel(ch);
	return 0;
}
