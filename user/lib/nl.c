// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * libibmcg netlink client: requests built in place and sent with send(),
 * replies read with our own loop, so that errno values, extended acks and
 * NLM_F_DUMP_INTR are seen exactly as the kernel sent them. No netlink
 * library (ibmcg_nl.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ibmcg_priv.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

/*
 * Repeat a dump the kernel marked inconsistent (NLM_F_DUMP_INTR) at most
 * this many times, then return what the last one read, marked as such
 * (ibmcg_dump_inconsistent()): under constant change a consistent dump
 * may never come, and a list is more use than an error.
 */
#define DUMP_TRIES	4
#define RXBUF_MIN	32768
/* What any datagram of a version 2 kernel fits in (ibmcg__recv_dgram()). */
#define RXBUF_V2	(64 * 1024)
/*
 * Receive buffer asked for (best effort): a protocol version 1 kernel
 * sends an owner release or a group's holder list as one big reply.
 */
#define SOCK_RCVBUF	(4 << 20)

int ibmcg__set_errmsg(struct ibmcg *h, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->errmsg, sizeof(h->errmsg), fmt, ap);
	va_end(ap);
	return err;
}

static void clear_errmsg(struct ibmcg *h)
{
	h->errmsg[0] = '\0';
}

const char *ibmcg_errmsg(const struct ibmcg *h)
{
	return h && h->errmsg[0] ? h->errmsg : NULL;
}

const char *ibmcg_strerror(const struct ibmcg *h, int err)
{
	if (h && h->errmsg[0])
		return h->errmsg;
	return strerror(err < 0 ? -err : err);
}

struct ibmcg *ibmcg_alloc(void)
{
	struct ibmcg *h = calloc(1, sizeof(*h));

	if (h) {
		h->fd = -1;
		h->ev_fd = -1;
		h->family = -1;
		h->version = 1;
	}
	return h;
}

static int parse_family_cb(const struct nlmsghdr *nlh, void *arg)
{
	return ibmcg__parse_family(nlh, IB_MCG_MCGRP_EVENTS, arg);
}

static int req_send(struct ibmcg *h, struct ibmcg_req *q);
static int recv_replies(struct ibmcg *h, int fd, uint32_t seq,
			ibmcg_msg_cb cb, void *arg, bool noack);

/* In a dump of every family: ours by name, the others skipped. */
static int find_family_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *head, *n;
	int len;

	if (!ibmcg__genl_hdr(nlh, &head, &len))
		return -EPROTO;
	n = ibmcg__nla_find(head, len, CTRL_ATTR_FAMILY_NAME);
	if (!n || ibmcg_nla_len(n) != sizeof(IB_MCG_GENL_NAME) ||
	    memcmp(ibmcg_nla_data(n), IB_MCG_GENL_NAME,
		   sizeof(IB_MCG_GENL_NAME)))
		return 0;
	return ibmcg__parse_family(nlh, IB_MCG_MCGRP_EVENTS, arg);
}

/*
 * The family's id, version and events group in one request to the
 * controller (CTRL_CMD_GETFAMILY by name), not a dump of every family:
 * connecting is most of what a short mcctl command costs. But asked by
 * name for a family it does not have, the controller loads the module
 * that provides it (our MODULE_ALIAS_GENL_FAMILY), also while rmmod is
 * taking it away; with @noload the family is found in a dump of the
 * registered ones instead, which loads nothing.
 */
static int resolve_family(struct ibmcg *h, struct ibmcg_family *fi,
			  bool noload)
{
	struct ibmcg_req q;
	int saved = h->family, err;

	fi->id = -1;
	fi->version = 1;
	fi->maxattr = 0;
	fi->events_grp = -1;
	if (noload) {
		ibmcg__req_init(&q, GENL_ID_CTRL, NLM_F_DUMP,
			       CTRL_CMD_GETFAMILY, 1);
	} else {
		ibmcg__req_init(&q, GENL_ID_CTRL, NLM_F_ACK,
			       CTRL_CMD_GETFAMILY, 1);
		ibmcg__req_put_str(&q, CTRL_ATTR_FAMILY_NAME, IB_MCG_GENL_NAME);
	}
	err = req_send(h, &q);
	if (err)
		return err;
	/* recv_replies() takes the family's messages: the controller's here */
	h->family = GENL_ID_CTRL;
	err = recv_replies(h, h->fd, q.nlh.nlmsg_seq,
			   noload ? find_family_cb : parse_family_cb, fi,
			   false);
	h->family = saved;
	if (!err && fi->id < 0)
		err = -ENOENT;
	return err;
}

int ibmcg_protocol_version(const struct ibmcg *h)
{
	return h && h->family >= 0 ? h->version : -ENOTCONN;
}

bool ibmcg_dump_inconsistent(const struct ibmcg *h)
{
	return h && h->dump_intr;
}

static int open_sock(struct ibmcg *h, int *fdp)
{
	int fd = ibmcg__nl_open(false, &h->portid);

	if (fd < 0)
		return ibmcg__set_errmsg(h, fd,
					"cannot open generic netlink socket: %s",
					strerror(-fd));
	*fdp = fd;
	return 0;
}

/* Where a loaded module shows, whatever the network namespace. */
#define MODULE_DIR	"/sys/module/ib_mcgroups"

int ibmcg_connect(struct ibmcg *h)
{
	return ibmcg_connect_flags(h, 0);
}

int ibmcg_connect_flags(struct ibmcg *h, unsigned int flags)
{
	struct ibmcg_family fi;
	int one = 1, fd, err;

	clear_errmsg(h);
	if (flags & ~IBMCG_CONNECT_NOLOAD)
		return ibmcg__set_errmsg(h, -EINVAL,
					"unknown connect flags 0x%x",
					flags & ~IBMCG_CONNECT_NOLOAD);
	if (h->fd >= 0)
		return -EISCONN;
	err = open_sock(h, &h->fd);
	if (err)
		return err;
	fd = h->fd;
	/* Best effort: kernels before 4.12 have no extended acks. */
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));

	err = resolve_family(h, &fi, flags & IBMCG_CONNECT_NOLOAD);
	/*
	 * The family exists in the initial network namespace only: from
	 * another one, a loaded module is not found either.
	 */
	if (err == -ENOENT && !access(MODULE_DIR, F_OK)) {
		err = ibmcg__set_errmsg(h, -ENOENT,
				       "ib_mcgroups is loaded but not reachable from this network namespace (only from the initial one)");
		goto fail;
	}
	if (err == -ENOENT) {
		err = ibmcg__set_errmsg(h, -ENOENT,
				       "ib_mcgroups module not loaded (modprobe ib_mcgroups)");
		goto fail;
	}
	if (err)
		goto fail;
	if (fi.events_grp < 0) {
		err = ibmcg__set_errmsg(h, -ENOENT,
				       "ib_mcgroups has no \"%s\" multicast group",
				       IB_MCG_MCGRP_EVENTS);
		goto fail;
	}
	h->family = fi.id;
	h->events_grp = fi.events_grp;
	h->version = fi.version ? fi.version : 1;
	h->maxattr = fi.maxattr;

	/*
	 * Best effort, for version 1 kernels: room for a one-message reply
	 * of some hundred groups or holders and its ack. FORCE (with
	 * CAP_NET_ADMIN) passes net.core.rmem_max. Version 2 sends big
	 * replies as dumps, paced to what we read.
	 */
	if (h->version < 2) {
		int rcvbuf = SOCK_RCVBUF;

		if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
			       sizeof(rcvbuf)))
			setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
				   sizeof(rcvbuf));
	}
	return 0;

fail:
	close(h->fd);
	h->fd = -1;
	h->family = -1;
	return err;
}

void ibmcg_close(struct ibmcg *h)
{
	if (!h)
		return;
	if (h->ev_fd >= 0)
		close(h->ev_fd);
	if (h->fd >= 0)
		close(h->fd);
	free(h->rxbuf);
	free(h);
}

/*
 * Read one datagram from the kernel into h->rxbuf, sized to fit.
 *
 * A version 2 kernel bounds every datagram it sends: a "do" reply by
 * 48 KiB (the holders that fit), a dump's by netlink's 32 KiB, a
 * notification by one group and one holder. So the datagram is read with
 * one recvmsg() into a buffer of RXBUF_V2 bytes. A version 1 kernel sends
 * a big reply as one datagram: its size is peeked first (two calls).
 */
ssize_t ibmcg__recv_dgram(struct ibmcg *h, int fd, bool retry_eintr)
{
	bool peek = h->version < 2;
	struct sockaddr_nl sa;
	struct iovec iov;
	struct msghdr mh;
	ssize_t len;
	void *buf;

	for (;;) {
		if (peek) {
			len = recv(fd, NULL, 0, MSG_PEEK | MSG_TRUNC);
			if (len < 0) {
				if (errno == EINTR && retry_eintr)
					continue;
				return -errno;
			}
		} else {
			len = RXBUF_V2;
		}
		if ((size_t)len > h->rxcap || !h->rxbuf) {
			size_t cap = (size_t)len > RXBUF_MIN ? (size_t)len
							     : RXBUF_MIN;

			buf = realloc(h->rxbuf, cap);
			if (!buf)
				return -ENOMEM;
			h->rxbuf = buf;
			h->rxcap = cap;
		}

		iov.iov_base = h->rxbuf;
		iov.iov_len = h->rxcap;
		memset(&mh, 0, sizeof(mh));
		mh.msg_name = &sa;
		mh.msg_namelen = sizeof(sa);
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		len = recvmsg(fd, &mh, 0);
		if (len < 0) {
			if (errno == EINTR && retry_eintr)
				continue;
			return -errno;
		}
		if (mh.msg_flags & MSG_TRUNC)
			return -EMSGSIZE;
		/* Only the kernel (port id 0) may talk to us. */
		if (mh.msg_namelen == sizeof(sa) &&
		    sa.nl_family == AF_NETLINK && sa.nl_pid)
			continue;
		return len;
	}
}

/*
 * Read the replies to request "seq" until its ack or NLMSG_DONE, calling cb
 * for each ib_mcgroups message. A dump is always read to its end, even after
 * an error, so that the socket is clean for the next request. Returns 0,
 * IBMCG_DUMP_INTR if the kernel flagged the dump as inconsistent, or -errno
 * (the kernel's error first, else the callback's).
 */
int ibmcg__recv_replies(struct ibmcg *h, int fd, uint32_t seq,
		       ibmcg_msg_cb cb, void *arg)
{
	return recv_replies(h, fd, seq, cb, arg, false);
}

/*
 * As ibmcg__recv_replies(); with noack (a "do" sent without NLM_F_ACK),
 * the reply ends with its one message: the kernel acks only an error.
 */
static int recv_replies(struct ibmcg *h, int fd, uint32_t seq,
			ibmcg_msg_cb cb, void *arg, bool noack)
{
	bool intr = false;
	int cberr = 0;

	for (;;) {
		struct nlmsghdr *nlh;
		ssize_t len;
		int rem, err;

		len = ibmcg__recv_dgram(h, fd, true);
		if (len < 0)
			return len;
		if (len > INT32_MAX)
			return -EMSGSIZE;
		rem = len;
		for (nlh = h->rxbuf; ibmcg_nlmsg_ok(nlh, rem);
		     nlh = ibmcg_nlmsg_next(nlh, &rem)) {
			if (nlh->nlmsg_seq != seq)
				continue;	/* stale, from an earlier request */
			if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
				intr = true;
			if (nlh->nlmsg_type == NLMSG_ERROR ||
			    nlh->nlmsg_type == NLMSG_DONE) {
				err = ibmcg__parse_ack(h, nlh);
				if (err)
					return err;
				if (cberr)
					return cberr;
				return intr ? IBMCG_DUMP_INTR : 0;
			}
			if (nlh->nlmsg_type != h->family || cberr)
				continue;
			cberr = cb(nlh, arg);
			if (cberr > 0)
				cberr = -EIO;
			if (noack)
				return cberr;
		}
	}
}

/* A request of ours to the family, flags besides NLM_F_REQUEST. */
static void req_init(const struct ibmcg *h, struct ibmcg_req *q, uint8_t cmd,
		     int flags)
{
	ibmcg__req_init(q, h->family, flags, cmd, IB_MCG_GENL_VERSION);
}

/* Send q (again: a new sequence number each time). */
static int req_send(struct ibmcg *h, struct ibmcg_req *q)
{
	ssize_t ret;

	if (q->overflow)
		return -EMSGSIZE;
	q->nlh.nlmsg_seq = ++h->seq;
	q->nlh.nlmsg_pid = h->portid;
	do {
		ret = send(h->fd, q->buf, q->nlh.nlmsg_len, 0);
	} while (ret < 0 && errno == EINTR);
	return ret < 0 ? -errno : 0;
}

/* Send q and read its replies. */
static int req_transact(struct ibmcg *h, struct ibmcg_req *q, ibmcg_msg_cb cb,
			void *arg)
{
	int err = req_send(h, q);

	if (err)
		return err;
	return recv_replies(h, h->fd, q->nlh.nlmsg_seq, cb, arg,
			   !(q->nlh.nlmsg_flags & (NLM_F_ACK | NLM_F_DUMP)));
}

/*
 * The flags of a "do" whose success always has a reply (JOIN, LEAVE): a
 * version 2 kernel is not asked for an ack, so that the request is one
 * send and one receive (an error is acked anyway). Version 1 kernels are
 * asked for one, as before.
 */
static int do_flags(const struct ibmcg *h)
{
	return h->version >= 2 ? 0 : NLM_F_ACK;
}

static int check_dev(struct ibmcg *h, const char *dev)
{
	if (!dev || !*dev)
		return ibmcg__set_errmsg(h, -EINVAL, "device name required");
	if (strlen(dev) >= IBMCG_DEV_NAME_MAX)
		return ibmcg__set_errmsg(h, -EINVAL, "device name too long");
	return 0;
}

/* A request for one (dev, port[, mgid]); mgid may be NULL. */
static int target_req(struct ibmcg *h, uint8_t cmd, int flags,
		      const char *dev, uint32_t port, const uint8_t *mgid,
		      struct ibmcg_req *q)
{
	int err;

	clear_errmsg(h);
	if (h->family < 0)
		return ibmcg__set_errmsg(h, -ENOTCONN, "not connected");
	err = check_dev(h, dev);
	if (err)
		return err;
	req_init(h, q, cmd, flags);
	ibmcg__req_put_str(q, IB_MCG_A_DEV_NAME, dev);
	ibmcg_req_put_u32(q, IB_MCG_A_PORT, port);
	if (mgid)
		ibmcg__req_put(q, IB_MCG_A_MGID, mgid, IBMCG_GID_LEN);
	return 0;
}

struct one_ctx {
	void *obj;
	int (*parse)(const struct nlmsghdr *nlh, void *obj);
	bool got;
};

static int one_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct one_ctx *c = arg;
	int err;

	if (c->got)		/* a "do" has one reply; ignore extras */
		return 0;
	err = c->parse(nlh, c->obj);
	if (!err)
		c->got = true;
	return err;
}

static int parse_group_cb(const struct nlmsghdr *nlh, void *obj)
{
	return ibmcg__parse_group(nlh, obj);
}

static int parse_port_cb(const struct nlmsghdr *nlh, void *obj)
{
	return ibmcg__parse_port(nlh, obj);
}

/* Send a "do" and decode its single reply into obj. */
static int do_one(struct ibmcg *h, struct ibmcg_req *q,
		      int (*parse)(const struct nlmsghdr *, void *),
		      void *obj, void (*release)(void *))
{
	struct one_ctx c = { .obj = obj, .parse = parse };
	int err;

	err = req_transact(h, q, one_cb, &c);
	if (!err && !c.got)
		err = ibmcg__set_errmsg(h, -EPROTO, "no reply from the kernel");
	if (err && c.got)
		release(obj);
	return err;
}

static void release_group(void *obj)
{
	ibmcg__group_clear(obj);
}

static void release_none(void *obj)
{
	(void)obj;
}

static int do_group(struct ibmcg *h, struct ibmcg_req *q,
		    struct ibmcg_group *out)
{
	struct ibmcg_group tmp;
	int err;

	if (out)
		memset(out, 0, sizeof(*out));
	err = do_one(h, q, parse_group_cb, out ? out : &tmp, release_group);
	if (!err && !out)
		ibmcg__group_clear(&tmp);
	return err;
}

/* Any create parameter besides the Q_Key? */
static bool has_create_param(const struct ibmcg_join_args *a)
{
	return a->set_pkey || a->set_mtu || a->set_rate || a->set_sl ||
	       a->set_flow_label || a->set_tclass || a->set_hop_limit ||
	       a->set_scope;
}

/* The ranges of the create parameters: NULL if fine, else why not. */
static const char *check_create(const struct ibmcg_join_args *a)
{
	if (a->set_pkey && !(a->pkey & 0x7fff))
		return "P_Key 0x0000 and 0x8000 are invalid";
	if (a->set_mtu && !ibmcg_mtu_to_bytes(a->mtu))
		return "MTU must be an enum ib_mtu, 1 (256) to 5 (4096)";
	if (a->set_rate && (a->rate < 2 || !ibmcg_rate_name(a->rate)))
		return "rate must be an enum ib_rate, 2 (2.5 Gb/s) to 22 (600 Gb/s)";
	if (a->set_sl && a->sl > 15)
		return "SL must be 0..15";
	if (a->set_flow_label && a->flow_label > 0xfffff)
		return "flow label must be 0..0xfffff (20 bits)";
	if (a->set_scope && a->scope > 15)
		return "scope must be 0..15";
	return NULL;
}

/* The JOIN reply: the group, and what says whether to wait for it. */
struct join_reply {
	struct ibmcg_group g;
	uint8_t version;		/* the kernel's protocol version */
	bool has_id;
	uint64_t id;			/* IB_MCG_A_GROUP_ID (version 2) */
	uint64_t hold_id;		/* IB_MCG_HOLDER_A_ID, 0 if none */
};

static int parse_join_cb(const struct nlmsghdr *nlh, void *obj)
{
	struct join_reply *r = obj;
	int err;

	err = ibmcg__parse_group(nlh, &r->g);
	if (err)
		return err;
	r->version = ((struct genlmsghdr *)NLMSG_DATA(nlh))->version;
	r->has_id = !ibmcg__msg_group_id(nlh, &r->id);
	if (ibmcg__msg_hold_id(nlh, &r->hold_id))
		r->hold_id = 0;
	return 0;
}

/*
 * The brief JOIN reply (IB_MCG_A_REPLY_BRIEF): the group's id and state
 * and the hold's id, read in place; r->g has nothing else (no holders, no
 * MGID: the caller knows it).
 */
static int parse_join_brief_cb(const struct nlmsghdr *nlh, void *obj)
{
	struct join_reply *r = obj;
	const struct genlmsghdr *gh;
	const struct nlattr *head;
	bool has_state = false;
	struct nlattr *a;
	int len, rem;

	gh = ibmcg__genl_hdr(nlh, &head, &len);
	if (!gh)
		return -EPROTO;
	r->version = gh->version;
	ibmcg_nla_for_each(a, (struct nlattr *)head, len, rem) {
		int type = a->nla_type & NLA_TYPE_MASK;

		if (type == IB_MCG_A_STATE && ibmcg_nla_len(a) >= 1) {
			r->g.state = *(uint8_t *)ibmcg_nla_data(a);
			ibmcg_attr_set(r->g.present, IB_MCG_A_STATE);
			has_state = true;
		} else if (type == IB_MCG_A_GROUP_ID &&
			   !ibmcg__nla_get_u64(a, &r->id)) {
			r->has_id = true;
		}
	}
	if (!has_state)
		return -EPROTO;
	if (ibmcg__msg_hold_id(nlh, &r->hold_id))
		r->hold_id = 0;
	return 0;
}

static void release_join(void *obj)
{
	ibmcg__group_clear(&((struct join_reply *)obj)->g);
}

static bool mgid_is_zero(const uint8_t *mgid)
{
	static const uint8_t zero[IBMCG_GID_LEN];

	return !memcmp(mgid, zero, IBMCG_GID_LEN);
}

/* Does the group "id" (still) list the hold "hold_id"? */
struct hold_check {
	uint64_t id, hold_id;
	struct ibmcg_group g;
	bool same_group, has_hold;
};

static void release_group_of(void *obj)
{
	ibmcg__group_clear(&((struct hold_check *)obj)->g);
}

static int parse_hold_check_cb(const struct nlmsghdr *nlh, void *obj)
{
	struct hold_check *c = obj;
	const struct nlattr *head;
	struct nlattr *list, *ho;
	uint64_t id, hid;
	int len, rem;

	if (ibmcg__msg_group_id(nlh, &id) || id != c->id)
		return ibmcg__parse_group(nlh, &c->g);
	c->same_group = true;
	ibmcg__genl_hdr(nlh, &head, &len);	/* valid: it has a group id */
	list = ibmcg__nla_find(head, len, IB_MCG_A_HOLDERS);
	if (list)
		ibmcg_nla_for_each_nested(ho, list, rem) {
			if (!ibmcg__nla_get_u64(ibmcg__nla_find(ibmcg_nla_data(ho),
							      ibmcg_nla_len(ho),
							      IB_MCG_HOLDER_A_ID),
					       &hid) &&
			    hid == c->hold_id)
				c->has_hold = true;
		}
	return ibmcg__parse_group(nlh, &c->g);
}

/*
 * Subscribed after a JOIN was answered JOINING: what happened before the
 * subscription? The group's state now (GROUP_GET), and whether it still
 * has our hold. Returns 1 if the hold is there and the group still
 * joining (wait for notifications), 0 with *g updated if its outcome is
 * known (joined, retry-wait), -EAGAIN if the hold went away (refused, or
 * the group released) before we listened: the reason is lost, so the
 * caller sends the JOIN again, subscribed this time.
 */
static int join_recheck(struct ibmcg *h, const char *dev, uint32_t port,
			const struct join_reply *r, struct ibmcg_group *g)
{
	struct hold_check c = { .id = r->id, .hold_id = r->hold_id };
	struct ibmcg_req q;
	int err;

	memset(&c.g, 0, sizeof(c.g));
	err = target_req(h, IB_MCG_CMD_GROUP_GET, NLM_F_ACK, dev, port,
			 r->g.mgid, &q);
	if (err)
		return err;
	err = do_one(h, &q, parse_hold_check_cb, &c, release_group_of);
	if (err == -ENOENT)
		return -EAGAIN;		/* released */
	if (err)
		return err;
	if (!c.same_group || !c.has_hold) {
		ibmcg__group_clear(&c.g);
		return -EAGAIN;
	}
	if (c.g.state == IB_MCG_STATE_JOINING) {
		ibmcg__group_clear(&c.g);
		return 1;
	}
	/* The group as it is now, with the requester's hold of the reply. */
	free(c.g.holders);
	c.g.holders = g->holders;
	c.g.nholders = g->nholders;
	*g = c.g;
	return 0;
}

/*
 * A caller that may not listen to the events group (without CAP_NET_ADMIN
 * the subscription is refused) looks at the group instead, first after
 * 5 ms, then at doubling intervals of at most 200 ms, for at most
 * join_wait_ms: joined or retry-wait is the outcome (r->g updated), still
 * joining when the wait runs out is reported as such. A hold that went
 * away was refused (or dropped by root); the SA's reason goes only to
 * listeners, so the error says what is known.
 */
static int join_poll(struct ibmcg *h, const char *dev, uint32_t port,
		     struct join_reply *r)
{
	long long end = ibmcg__now_ms() + ibmcg__join_wait_ms();
	struct timespec ts;
	long delay = 5;
	int err;

	for (;;) {
		if (ibmcg__now_ms() >= end)
			return 0;
		ts.tv_sec = delay / 1000;
		ts.tv_nsec = (delay % 1000) * 1000000;
		nanosleep(&ts, NULL);
		delay = delay * 2 > 200 ? 200 : delay * 2;
		err = join_recheck(h, dev, port, r, &r->g);
		if (err != 1)
			break;
	}
	if (err == -EAGAIN)
		return ibmcg__set_errmsg(h, -EINVAL,
					"the join was refused: its hold is gone (the SA's reason is told only to listeners with CAP_NET_ADMIN)");
	return err;
}

/*
 * Send the JOIN; if the group is still joining, wait for its outcome
 * (join_wait.c), as a version 1 kernel did in the request itself.
 *
 * The fast path, a group already joined (any held join, every RoCE join),
 * is one send and one receive: the events subscription the wait needs is
 * made only when the reply says JOINING. Subscribing then leaves a window
 * between the kernel's reply and our subscription in which the outcome
 * may have been notified, unseen. So once subscribed, we look at the
 * group again (join_recheck(): every change from then on is notified to
 * us, every change before shows in the GROUP_GET): still joining with our
 * hold, we wait; joined (or waiting to retry), that is the outcome; our
 * hold gone (the SA refused it, or the group was released), we lost the
 * refusal's reason, and send the JOIN once more, now subscribed before
 * it is sent, so that its outcome cannot be missed (the refused hold was
 * not held, so sending it again changes nothing but asking the SA again).
 * An SA-assigned MGID (all zeros) cannot be looked up before its outcome
 * names it: those JOINs subscribe before they are sent, as they always
 * did.
 */
static int join_and_wait(struct ibmcg *h, struct ibmcg_req *q, bool brief,
			 const char *dev, uint32_t port, const uint8_t *mgid,
			 struct ibmcg_group *out)
{
	struct join_reply r;
	bool resent = false;
	int ev = -1, err;

	/* If that fails (ev < 0), the reply is all we can report. */
	if (mgid_is_zero(mgid))
		ev = ibmcg__join_watch_open(h);
again:
	memset(&r, 0, sizeof(r));
	err = do_one(h, q, brief ? parse_join_brief_cb : parse_join_cb, &r,
		     release_join);
	if (!err && brief)	/* what join_recheck() looks up */
		memcpy(r.g.mgid, mgid, IBMCG_GID_LEN);
	if (!err && r.g.state == IB_MCG_STATE_JOINING && r.version >= 2 &&
	    r.has_id) {
		if (ev < 0 && !mgid_is_zero(mgid) && !resent) {
			ev = ibmcg__join_watch_open(h);
			if (ev < 0) {
				err = join_poll(h, dev, port, &r);
				if (err)
					ibmcg__group_clear(&r.g);
				goto done;
			}
			err = join_recheck(h, dev, port, &r, &r.g);
			if (err == -EAGAIN) {
				ibmcg__group_clear(&r.g);
				resent = true;
				goto again;
			}
			if (err < 0)
				ibmcg__group_clear(&r.g);
			else if (err == 1)
				err = ibmcg__join_wait(h, ev, r.id, r.hold_id,
						      &r.g);
			else
				err = 0;
			goto done;
		}
		if (ev >= 0) {
			err = ibmcg__join_wait(h, ev, r.id, r.hold_id, &r.g);
			if (err)
				ibmcg__group_clear(&r.g);
		}
	}
done:
	if (ev >= 0)
		close(ev);
	if (err)
		return err;
	if (out)
		*out = r.g;
	else
		ibmcg__group_clear(&r.g);
	return 0;
}

int ibmcg__join_rec(struct ibmcg *h, const char *dev, uint32_t port,
	       const uint8_t mgid[IBMCG_GID_LEN],
	       const struct ibmcg_join_args *args, struct ibmcg_group *out)
{
	const char *why;
	bool send_qkey, brief;
	struct ibmcg_req q;
	uint32_t qkey;
	int err;

	if (out)
		memset(out, 0, sizeof(*out));

	if (!args)
		return ibmcg__set_errmsg(h, -EINVAL, "no join arguments");
	clear_errmsg(h);
	if (h->family < 0)
		return ibmcg__set_errmsg(h, -ENOTCONN, "not connected");
	err = check_dev(h, dev);
	if (err)
		return err;
	err = args->owner ? ibmcg_owner_check(args->owner, &why) : 0;
	if (err)
		goto invalid;
	if (args->join_state && !ibmcg_join_state_name(args->join_state)) {
		why = "join state must be exactly one IB_MCG_JOIN_* bit";
		goto invalid;
	}
	if (args->set_linger && args->linger_ms > IB_MCG_LINGER_MAX_MS) {
		why = "linger time is longer than one day";
		goto invalid;
	}
	why = check_create(args);
	if (why)
		goto invalid;
	/* "create" alone: the Q_Key is a create parameter too */
	qkey = args->set_qkey ? args->qkey : IB_MCG_DEFAULT_QKEY;
	send_qkey = args->set_qkey || (args->create && !has_create_param(args));
	/*
	 * A caller that does not want the group gets the brief reply, if
	 * the kernel knows it (its maxattr; older kernels refuse unknown
	 * attributes). Not for an SA-assigned MGID: the group's outcome
	 * names the MGID, and the caller does not know it.
	 */
	brief = !out && h->maxattr >= IB_MCG_A_REPLY_BRIEF &&
		!mgid_is_zero(mgid);
	req_init(h, &q, IB_MCG_CMD_JOIN, do_flags(h));
	ibmcg__req_put_str(&q, IB_MCG_A_DEV_NAME, dev);
	ibmcg_req_put_u32(&q, IB_MCG_A_PORT, port);
	ibmcg__req_put(&q, IB_MCG_A_MGID, mgid, IBMCG_GID_LEN);
	if (args->owner)
		ibmcg__req_put_str(&q, IB_MCG_A_OWNER, args->owner);
	if (args->join_state)
		ibmcg_req_put_u8(&q, IB_MCG_A_JOIN_STATE, args->join_state);
	if (args->flags)
		ibmcg_req_put_u32(&q, IB_MCG_A_FLAGS, args->flags);
	if (send_qkey)
		ibmcg_req_put_u32(&q, IB_MCG_A_QKEY, qkey);
	if (args->set_linger)
		ibmcg_req_put_u32(&q, IB_MCG_A_LINGER_MS, args->linger_ms);
	if (args->set_pkey)
		ibmcg_req_put_u16(&q, IB_MCG_A_PKEY, args->pkey);
	if (args->set_mtu)
		ibmcg_req_put_u8(&q, IB_MCG_A_MTU, args->mtu);
	if (args->set_rate)
		ibmcg_req_put_u8(&q, IB_MCG_A_RATE, args->rate);
	if (args->set_sl)
		ibmcg_req_put_u8(&q, IB_MCG_A_SL, args->sl);
	if (args->set_flow_label)
		ibmcg_req_put_u32(&q, IB_MCG_A_FLOW_LABEL, args->flow_label);
	if (args->set_tclass)
		ibmcg_req_put_u8(&q, IB_MCG_A_TCLASS, args->tclass);
	if (args->set_hop_limit)
		ibmcg_req_put_u8(&q, IB_MCG_A_HOP_LIMIT, args->hop_limit);
	if (args->set_scope)
		ibmcg_req_put_u8(&q, IB_MCG_A_SCOPE, args->scope);
	if (brief)
		ibmcg__req_put(&q, IB_MCG_A_REPLY_BRIEF, NULL, 0);
	if (q.overflow)
		return -EMSGSIZE;
	return join_and_wait(h, &q, brief, dev, port, mgid, out);

invalid:
	return ibmcg__set_errmsg(h, -EINVAL, "%s", why);
}

int ibmcg__leave_rec(struct ibmcg *h, const char *dev, uint32_t port,
		const uint8_t mgid[IBMCG_GID_LEN], const char *owner,
		uint8_t join_state, struct ibmcg_group *out)
{
	struct ibmcg_req q;
	const char *why;
	int err;

	err = target_req(h, IB_MCG_CMD_LEAVE, do_flags(h), dev, port, mgid,
			 &q);
	if (err)
		return err;
	err = ibmcg_owner_check(owner, &why);
	if (err)
		goto invalid;
	if (join_state && !ibmcg_join_state_name(join_state)) {
		why = "join state must be exactly one IB_MCG_JOIN_* bit";
		goto invalid;
	}
	ibmcg__req_put_str(&q, IB_MCG_A_OWNER, owner);
	if (join_state)
		ibmcg_req_put_u8(&q, IB_MCG_A_JOIN_STATE, join_state);
	return do_group(h, &q, out);

invalid:
	return ibmcg__set_errmsg(h, -EINVAL, "%s", why);
}

int ibmcg__rejoin_rec(struct ibmcg *h, const char *dev, uint32_t port,
		     const uint8_t mgid[IBMCG_GID_LEN], struct ibmcg_group *out)
{
	struct ibmcg_req q;
	int err;

	err = target_req(h, IB_MCG_CMD_REJOIN, NLM_F_ACK, dev, port, mgid,
			 &q);
	if (err)
		return err;
	return do_group(h, &q, out);
}

static int parse_release_cb(const struct nlmsghdr *nlh, void *obj)
{
	return ibmcg__parse_owner_release(nlh, obj);
}

static void release_release(void *obj)
{
	struct ibmcg_release_reply *r = obj;

	free(r->released);
	r->released = NULL;
	r->n = 0;
}

/* Version 2: every message of the reply adds to the list. */
static int merge_release_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct ibmcg_release_reply part, *acc = arg;
	int err;

	err = ibmcg__parse_owner_release(nlh, &part);
	if (err)
		return err;
	return ibmcg__merge_owner_release(acc, &part);
}

int ibmcg__owner_release_rec(struct ibmcg *h, const char *owner, const char *dev,
			uint32_t port, struct ibmcg_released **out, size_t *n,
			uint32_t *holds_dropped)
{
	struct ibmcg_release_reply r = { .n = 0 };
	struct ibmcg_req q;
	const char *why;
	int err;

	clear_errmsg(h);
	if (out)
		*out = NULL;
	if (n)
		*n = 0;
	if (holds_dropped)
		*holds_dropped = 0;
	if (h->family < 0)
		return ibmcg__set_errmsg(h, -ENOTCONN, "not connected");
	if (out && !n)
		return ibmcg__set_errmsg(h, -EINVAL, "no result count");
	if (ibmcg_owner_check(owner, &why))
		return ibmcg__set_errmsg(h, -EINVAL, "%s", why);
	err = dev ? check_dev(h, dev) : 0;
	if (err)
		return err;
	if (port && !dev)
		return ibmcg__set_errmsg(h, -EINVAL,
					"a port filter needs a device");

	/*
	 * Version 2 sends the result as a dump: any number of messages,
	 * paced to our reading, ended by NLMSG_DONE with the outcome. The
	 * release is complete before the first message is sent.
	 */
	req_init(h, &q, IB_MCG_CMD_OWNER_RELEASE,
		 h->version >= 2 ? NLM_F_DUMP : NLM_F_ACK);
	ibmcg__req_put_str(&q, IB_MCG_A_OWNER, owner);
	if (dev)
		ibmcg__req_put_str(&q, IB_MCG_A_DEV_NAME, dev);
	if (port)
		ibmcg_req_put_u32(&q, IB_MCG_A_PORT, port);
	if (h->version >= 2) {
		err = req_transact(h, &q, merge_release_cb, &r);
		if (err == IBMCG_DUMP_INTR)	/* not a dump of state */
			err = 0;
		if (err)
			release_release(&r);
	} else {
		err = do_one(h, &q, parse_release_cb, &r, release_release);
	}
	if (err == -ENOBUFS)
		return ibmcg__set_errmsg(h, err,
					"the reply was lost (socket receive buffer overrun): the holds may have been released");
	if (err)
		return err;
	if (holds_dropped)
		*holds_dropped = r.holds_dropped;
	if (out) {
		*out = r.released;
		if (n)
			*n = r.n;
	} else {
		free(r.released);
	}
	return 0;
}

static int group_get_dump(struct ibmcg *h, const char *dev, uint32_t port,
			  const uint8_t *mgid, struct ibmcg_group *out);

int ibmcg__group_get_rec(struct ibmcg *h, const char *dev, uint32_t port,
		    const uint8_t mgid[IBMCG_GID_LEN], struct ibmcg_group *out)
{
	struct ibmcg_req q;
	int err;

	if (!out)
		return ibmcg__set_errmsg(h, -EINVAL, "no result buffer");
	/*
	 * Version 2: the group as a dump filtered by its MGID, so that any
	 * number of holders arrive (a "do" reply lists those that fit in one
	 * message).
	 */
	if (h->version >= 2 && h->family >= 0)
		return group_get_dump(h, dev, port, mgid, out);
	err = target_req(h, IB_MCG_CMD_GROUP_GET, NLM_F_ACK, dev, port, mgid,
			 &q);
	if (err)
		return err;
	return do_group(h, &q, out);
}

int ibmcg__port_get_rec(struct ibmcg *h, const char *dev, uint32_t port,
		   struct ibmcg_port *out)
{
	struct ibmcg_req q;
	int err;

	if (!out)
		return ibmcg__set_errmsg(h, -EINVAL, "no result buffer");
	memset(out, 0, sizeof(*out));
	err = target_req(h, IB_MCG_CMD_PORT_GET, NLM_F_ACK, dev, port, NULL,
			 &q);
	if (err)
		return err;
	return do_one(h, &q, parse_port_cb, out, release_none);
}

/* Growing array of decoded replies of one dump. */
struct dump_ctx {
	char *v;
	size_t n, cap, size;
	int (*parse)(const struct nlmsghdr *nlh, void *obj);
	int (*merge)(void *prev, void *next);	/* optional */
	void (*release)(void *obj);
	bool brief;	/* GROUP_GET: ask for the list view if known */
};

static int dump_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct dump_ctx *c = arg;
	int err;

	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		char *v = reallocarray(c->v, cap, c->size);

		if (!v)
			return -ENOMEM;
		c->v = v;
		c->cap = cap;
	}
	err = c->parse(nlh, c->v + c->n * c->size);
	if (err)
		return err;
	if (c->merge && c->n) {
		err = c->merge(c->v + (c->n - 1) * c->size,
			       c->v + c->n * c->size);
		if (err)	/* merged (1) or failed (-ENOMEM) */
			return err < 0 ? err : 0;
	}
	c->n++;
	return 0;
}

/*
 * A group with more holders than fit in one message arrives as several
 * consecutive messages for the same group: append @next's holders to
 * @prev and drop @next. Returns 1 if merged, -ENOMEM (@next dropped).
 */
static int merge_group(void *prev, void *next)
{
	struct ibmcg_group *p = prev, *g = next;
	struct ibmcg_holder *h;

	if (p->dev_index != g->dev_index || p->port != g->port ||
	    memcmp(p->mgid, g->mgid, sizeof(p->mgid)))
		return 0;
	if (g->nholders) {
		h = reallocarray(p->holders, p->nholders + g->nholders,
				 sizeof(*h));
		if (!h) {
			ibmcg__group_clear(g);
			return -ENOMEM;
		}
		memcpy(h + p->nholders, g->holders, g->nholders * sizeof(*h));
		p->holders = h;
		p->nholders += g->nholders;
	}
	ibmcg__group_clear(g);
	return 1;
}

static void dump_release(struct dump_ctx *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		c->release(c->v + i * c->size);
	free(c->v);
	c->v = NULL;
	c->n = c->cap = 0;
}

/*
 * Dump cmd, optionally filtered by device, port and MGID. A dump the
 * kernel marks with NLM_F_DUMP_INTR (version 2: a group's holder list
 * spanning messages changed between them; version 1: anything changed)
 * is repeated a few times; after that its result is returned and
 * h->dump_intr says it may mix two moments.
 */
static int dump(struct ibmcg *h, uint8_t cmd, const char *dev,
		uint32_t port, const uint8_t *mgid, struct dump_ctx *c)
{
	struct ibmcg_req q;
	int tries, err;

	clear_errmsg(h);
	h->dump_intr = false;
	if (h->family < 0)
		return ibmcg__set_errmsg(h, -ENOTCONN, "not connected");
	err = dev ? check_dev(h, dev) : 0;
	if (err)
		return err;
	if (port && !dev)
		return ibmcg__set_errmsg(h, -EINVAL,
					"a port filter needs a device");

	for (tries = 1;; tries++) {
		req_init(h, &q, cmd, NLM_F_DUMP);
		if (dev)
			ibmcg__req_put_str(&q, IB_MCG_A_DEV_NAME, dev);
		if (port)
			ibmcg_req_put_u32(&q, IB_MCG_A_PORT, port);
		if (mgid)
			ibmcg__req_put(&q, IB_MCG_A_MGID, mgid, IBMCG_GID_LEN);
		if (c->brief && h->maxattr >= IB_MCG_A_LIST_BRIEF)
			ibmcg__req_put(&q, IB_MCG_A_LIST_BRIEF, NULL, 0);
		err = req_transact(h, &q, dump_cb, c);
		if (err != IBMCG_DUMP_INTR) {
			if (err)
				dump_release(c);
			return err;
		}
		if (tries == DUMP_TRIES) {
			h->dump_intr = true;
			return 0;
		}
		dump_release(c);
	}
}

static int group_get_dump(struct ibmcg *h, const char *dev, uint32_t port,
			  const uint8_t *mgid, struct ibmcg_group *out)
{
	struct dump_ctx c = {
		.size = sizeof(*out),
		.parse = parse_group_cb,
		.merge = merge_group,
		.release = release_group,
	};
	int err;

	memset(out, 0, sizeof(*out));
	if (!dev)
		return ibmcg__set_errmsg(h, -EINVAL, "device name required");
	err = dump(h, IB_MCG_CMD_GROUP_GET, dev, port, mgid, &c);
	if (err)
		return err;
	if (c.n != 1) {
		dump_release(&c);
		return ibmcg__set_errmsg(h, -EPROTO,
					"the kernel sent %s group for one MGID",
					c.n ? "more than one" : "no");
	}
	memcpy(out, c.v, sizeof(*out));
	free(c.v);
	return 0;
}

/*
 * @brief: the list view (IB_MCG_A_LIST_BRIEF), where the kernel knows it;
 * a kernel before it sends everything, a superset.
 */
int ibmcg__group_dump_rec(struct ibmcg *h, const char *dev, uint32_t port,
			 bool brief, struct ibmcg_group **groups, size_t *n)
{
	struct dump_ctx c = {
		.size = sizeof(**groups),
		.parse = parse_group_cb,
		.merge = merge_group,
		.release = release_group,
		.brief = brief,
	};
	int err;

	err = dump(h, IB_MCG_CMD_GROUP_GET, dev, port, NULL, &c);
	if (err)
		return err;
	*groups = (struct ibmcg_group *)c.v;
	*n = c.n;
	return 0;
}

int ibmcg__port_dump_rec(struct ibmcg *h, const char *dev,
		    struct ibmcg_port **ports, size_t *n)
{
	struct dump_ctx c = {
		.size = sizeof(**ports),
		.parse = parse_port_cb,
		.release = release_none,
	};
	int err;

	err = dump(h, IB_MCG_CMD_PORT_GET, dev, 0, NULL, &c);
	if (err)
		return err;
	*ports = (struct ibmcg_port *)c.v;
	*n = c.n;
	return 0;
}

int ibmcg_event_subscribe(struct ibmcg *h)
{
	int fd;

	clear_errmsg(h);
	if (h->family < 0)
		return ibmcg__set_errmsg(h, -ENOTCONN, "not connected");
	if (h->ev_fd >= 0)
		return 0;
	fd = ibmcg__nl_open_events(h->events_grp, false);
	if (fd == -EPERM)
		return ibmcg__set_errmsg(h, fd,
					"cannot subscribe to ib_mcgroups events: the events name their owners: listening needs CAP_NET_ADMIN");
	if (fd < 0)
		return ibmcg__set_errmsg(h, fd,
					"cannot subscribe to ib_mcgroups events: %s",
					strerror(-fd));
	h->ev_fd = fd;
	return 0;
}

int ibmcg_event_fd(const struct ibmcg *h)
{
	return h->ev_fd >= 0 ? h->ev_fd : -ENOTCONN;
}

/* Notifications in the port format; every other one is a group's. */
static bool is_port_event(uint8_t cmd)
{
	return cmd == IB_MCG_CMD_REJOIN_WAVE_START_NTF ||
	       cmd == IB_MCG_CMD_REJOIN_WAVE_END_NTF;
}

/* Pass each notification in buf[0..len) to cb; see ibmcg_event_recv(). */
int ibmcg__parse_events(struct ibmcg *h, void *buf, int len,
		       ibmcg_event_cb cb, void *arg)
{
	struct ibmcg_event ev;
	struct ibmcg_group g;
	struct ibmcg_port p;
	struct nlmsghdr *nlh;
	int ret, count = 0;

	for (nlh = buf; ibmcg_nlmsg_ok(nlh, len);
	     nlh = ibmcg_nlmsg_next(nlh, &len)) {
		const struct genlmsghdr *gh = ibmcg__genl_hdr(nlh, NULL, NULL);

		if (nlh->nlmsg_type != h->family || !gh)
			continue;
		ev.cmd = gh->cmd;
		memset(&g, 0, sizeof(g));
		if (is_port_event(ev.cmd)) {
			ev.group = NULL;
			ev.port = &p;
			ret = ibmcg__parse_port(nlh, &p);
		} else {
			ev.group = &g;
			ev.port = NULL;
			ret = ibmcg__parse_group(nlh, &g);
		}
		if (ret)
			return ibmcg__set_errmsg(h, ret,
						"malformed ib_mcgroups event");
		ret = cb(&ev, arg);
		ibmcg__group_clear(&g);
		if (ret)
			return ret;
		count++;
	}
	return count;
}

int ibmcg_event_recv(struct ibmcg *h, ibmcg_event_cb cb, void *arg)
{
	ssize_t len;

	clear_errmsg(h);
	if (h->ev_fd < 0)
		return ibmcg__set_errmsg(h, -ENOTCONN, "not subscribed");
	len = ibmcg__recv_dgram(h, h->ev_fd, false);
	if (len == -ENOBUFS)
		return ibmcg__set_errmsg(h, -ENOBUFS,
					"event queue overrun, events were lost");
	if (len < 0)
		return len;
	if (len > INT32_MAX)
		return -EMSGSIZE;
	return ibmcg__parse_events(h, h->rxbuf, len, cb, arg);
}
