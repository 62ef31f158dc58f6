// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * libibmcg: waiting for the outcome of a JOIN.
 *
 * The kernel never waits for the fabric in a request (protocol version 2;
 * a version 1 kernel slept in the JOIN, under the global genetlink lock):
 * a JOIN the SA has not answered yet is replied to at once in state
 * JOINING, with the group's IB_MCG_A_GROUP_ID and the hold's
 * IB_MCG_HOLDER_A_ID, and the outcome follows as notifications of that
 * group: GROUP_STATE_NTF (joined, retry-wait), a HOLDER_DEL_NTF of the
 * hold with reason sa-rejected, timeout or error (the SA refused the join
 * state; the group may stay for other holders), or GROUP_DEL_NTF (the
 * group was released). ibmcg_join()
 * subscribes a socket of its own to the events group only when the reply
 * says JOINING (the fast path, a group already joined, is one send and one
 * receive), looks at the group again so that nothing notified before the
 * subscription is missed (nl.c, join_and_wait()), and waits here, for at
 * most the module parameter join_wait_ms, as the kernel did.
 *
 * Notifications come on another socket than the reply, so their order
 * relative to the reply is unknown: some may predate the JOIN. Every
 * change of a group's state is notified, entering JOINING included, so the
 * group's state is the one in its latest notification: the wait ends when
 * all notifications queued so far leave the group in a state other than
 * JOINING, or as soon as the hold is refused. Hold ids are never reused,
 * so a refusal of an earlier hold of the same owner cannot be taken for
 * this one's.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ibmcg_priv.h"

#define JOIN_WAIT_PARAM	"/sys/module/ib_mcgroups/parameters/join_wait_ms"
#define JOIN_WAIT_DEFAULT_MS	5000

int ibmcg__msg_group_id(const struct nlmsghdr *nlh, uint64_t *id)
{
	const struct nlattr *head;
	int len;

	if (!ibmcg__genl_hdr(nlh, &head, &len))
		return -EPROTO;
	if (ibmcg__nla_get_u64(ibmcg__nla_find(head, len, IB_MCG_A_GROUP_ID),
			      id))
		return -ENOENT;
	return 0;
}

/* The IB_MCG_HOLDER_A_ID of the first holder a group message lists. */
int ibmcg__msg_hold_id(const struct nlmsghdr *nlh, uint64_t *id)
{
	const struct nlattr *head;
	struct nlattr *list, *ho;
	int len;

	if (!ibmcg__genl_hdr(nlh, &head, &len))
		return -EPROTO;
	list = ibmcg__nla_find(head, len, IB_MCG_A_HOLDERS);
	if (!list)
		return -ENOENT;
	ho = ibmcg__nla_find(ibmcg_nla_data(list), ibmcg_nla_len(list),
			    IB_MCG_A_HOLDER);
	if (!ho)
		return -ENOENT;
	if (ibmcg__nla_get_u64(ibmcg__nla_find(ibmcg_nla_data(ho),
					     ibmcg_nla_len(ho),
					     IB_MCG_HOLDER_A_ID), id))
		return -ENOENT;
	return 0;
}

/* The module parameter join_wait_ms, or its default if it cannot be read. */
unsigned int ibmcg__join_wait_ms(void)
{
	unsigned int ms = JOIN_WAIT_DEFAULT_MS;
	FILE *f = fopen(JOIN_WAIT_PARAM, "re");

	if (f) {
		if (fscanf(f, "%u", &ms) != 1)
			ms = JOIN_WAIT_DEFAULT_MS;
		fclose(f);
	}
	return ms;
}

int ibmcg__join_watch_open(struct ibmcg *h)
{
	return ibmcg__nl_open_events(h->events_grp, true);
}

static bool is_group_ntf(uint8_t cmd)
{
	return cmd == IB_MCG_CMD_GROUP_NEW_NTF ||
	       cmd == IB_MCG_CMD_GROUP_STATE_NTF ||
	       cmd == IB_MCG_CMD_GROUP_DEL_NTF;
}

/* The reasons a hold is dropped for because the fabric refused it. */
static bool is_refusal(uint8_t reason)
{
	return reason == IB_MCG_REASON_SA_REJECTED ||
	       reason == IB_MCG_REASON_TIMEOUT ||
	       reason == IB_MCG_REASON_ERROR;
}

/* A HOLDER_DEL_NTF that refuses the watched hold. */
static void watch_hold_del(struct ibmcg_join_watch *w,
			   const struct nlmsghdr *nlh)
{
	struct ibmcg_group g;
	uint64_t hid;

	if (!w->hold_id || ibmcg__msg_hold_id(nlh, &hid) || hid != w->hold_id)
		return;
	if (ibmcg__parse_group(nlh, &g))
		return;
	if (is_refusal(g.reason)) {
		w->refused = true;
		w->refused_reason = g.reason;
		w->refused_error = g.error;
	}
	ibmcg__group_clear(&g);
}

void ibmcg__join_watch_feed(struct ibmcg *h, struct ibmcg_join_watch *w,
			   void *buf, int len)
{
	struct ibmcg_group g;
	struct nlmsghdr *nlh;
	uint64_t id;

	for (nlh = buf; ibmcg_nlmsg_ok(nlh, len);
	     nlh = ibmcg_nlmsg_next(nlh, &len)) {
		uint8_t cmd;

		if (nlh->nlmsg_type != h->family ||
		    ibmcg__msg_group_id(nlh, &id) || id != w->id)
			continue;
		cmd = ((struct genlmsghdr *)NLMSG_DATA(nlh))->cmd;
		if (cmd == IB_MCG_CMD_HOLDER_DEL_NTF)
			watch_hold_del(w, nlh);
		if (!is_group_ntf(cmd))
			continue;
		memset(&g, 0, sizeof(g));
		if (ibmcg__parse_group(nlh, &g))
			continue;
		ibmcg__group_clear(&w->last);
		w->last = g;
		w->seen = true;
	}
}

/* The kernel's messages of version 1, when it waited in the JOIN. */
static int released_error(struct ibmcg *h, uint8_t reason, uint32_t error)
{
	int err = error ? -(int)error : -ENODEV;

	switch (reason) {
	case IB_MCG_REASON_SA_REJECTED:
		return ibmcg__set_errmsg(h, err, "the SA rejected the join: no such group (join it with create parameters to create it), different parameters than the group's, or no MLID left");
	case IB_MCG_REASON_TIMEOUT:
		return ibmcg__set_errmsg(h, err, "the SA did not answer the request for an SA-assigned MGID (not retried: it would ask for another group)");
	case IB_MCG_REASON_DEVICE_REMOVED:
	case IB_MCG_REASON_UNLOAD:
		return ibmcg__set_errmsg(h, err,
					"the device went away during the join");
	default:
		return ibmcg__set_errmsg(h, err,
					"the group was released during the join");
	}
}

int ibmcg__join_watch_result(struct ibmcg *h, struct ibmcg_join_watch *w,
			    struct ibmcg_group *g)
{
	int err = 0;

	if (w->refused) {
		err = released_error(h, w->refused_reason, w->refused_error);
	} else if (!w->seen || w->last.state == IB_MCG_STATE_JOINING) {
		/* Still joining when the wait ran out: the reply stands. */
	} else if (w->last.state == IB_MCG_STATE_RELEASED) {
		err = released_error(h, w->last.reason, w->last.error);
	} else {
		/* The group as notified, with the requester's hold. */
		free(w->last.holders);
		w->last.holders = g->holders;
		w->last.nholders = g->nholders;
		*g = w->last;
		memset(&w->last, 0, sizeof(w->last));
	}
	ibmcg__group_clear(&w->last);
	w->seen = false;
	w->refused = false;
	return err;
}

/* CLOCK_MONOTONIC in ms, for the join waits here and in nl.c. */
long long ibmcg__now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

int ibmcg__join_wait(struct ibmcg *h, int fd, uint64_t id, uint64_t hold_id,
		    struct ibmcg_group *g)
{
	struct ibmcg_join_watch w = { .id = id, .hold_id = hold_id };
	long long end = ibmcg__now_ms() + ibmcg__join_wait_ms();
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	long long left;
	ssize_t len;

	for (;;) {
		/* Everything queued so far, in order. */
		while ((len = ibmcg__recv_dgram(h, fd, true)) >= 0)
			ibmcg__join_watch_feed(h, &w, h->rxbuf, (int)len);
		if (len == -ENOBUFS) {
			/*
			 * Lost notifications (an overrun): nothing tells the
			 * group's state any more but a GROUP_GET, which an
			 * SA-assigned MGID not yet known cannot do. Report
			 * what the reply said.
			 */
			ibmcg__group_clear(&w.last);
			return 0;
		}
		if (len != -EAGAIN && len != -EWOULDBLOCK) {
			ibmcg__group_clear(&w.last);
			return len < 0 ? (int)len : -EIO;
		}
		if (w.refused ||
		    (w.seen && w.last.state != IB_MCG_STATE_JOINING))
			break;
		left = end - ibmcg__now_ms();
		if (left <= 0)
			break;
		if (poll(&pfd, 1, left > 60000 ? 60000 : (int)left) < 0 &&
		    errno != EINTR) {
			ibmcg__group_clear(&w.last);
			return -errno;
		}
	}
	return ibmcg__join_watch_result(h, &w, g);
}
