// SPDX-License-Identifier: GPL-2.0
/*
 * The ib_mcgroups generic netlink family; the protocol is documented in
 * include/uapi/ib_mcgroups.h. Requests are parsed and checked here, with
 * an extack message for every rejection, before anything is changed.
 *
 * The family runs with parallel_ops: every op takes mcg_lock itself. Bound
 * holds are released from the netlink notifier when their socket closes
 * (NETLINK_URELEASE runs in process context of the closing task).
 */
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/timekeeping.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "ib_mcgroups.h"
#include "mcg_logic.h"

static struct genl_family mcg_family;

enum { MCG_MCGRP_EVENTS };

static const struct genl_multicast_group mcg_mcgrps[] = {
	[MCG_MCGRP_EVENTS] = { .name = IB_MCG_MCGRP_EVENTS },
};

#define MCG_POLICY_DEV							\
	[IB_MCG_A_DEV_NAME]	= { .type = NLA_STRING },		\
	[IB_MCG_A_DEV_INDEX]	= { .type = NLA_U32 },			\
	[IB_MCG_A_PORT]		= { .type = NLA_U32 }

static struct netlink_range_validation flow_label_range = {
	.max = 0xfffff,
};

static const struct nla_policy mcg_join_policy[IB_MCG_A_MAX + 1] = {
	MCG_POLICY_DEV,
	[IB_MCG_A_MGID]		= NLA_POLICY_EXACT_LEN(16),
	[IB_MCG_A_OWNER]	= { .type = NLA_STRING },
	[IB_MCG_A_JOIN_STATE]	= { .type = NLA_U8 },
	[IB_MCG_A_FLAGS]	= NLA_POLICY_MASK(NLA_U32, __IB_MCG_F_ALL),
	[IB_MCG_A_QKEY]		= { .type = NLA_U32 },
	[IB_MCG_A_LINGER_MS]	= { .type = NLA_U32 },
	[IB_MCG_A_PKEY]		= { .type = NLA_U16 },
	[IB_MCG_A_MTU]		= NLA_POLICY_RANGE(NLA_U8, IB_MTU_256,
						   IB_MTU_4096),
	[IB_MCG_A_RATE]		= NLA_POLICY_RANGE(NLA_U8, IB_RATE_2_5_GBPS,
						   IB_RATE_600_GBPS),
	[IB_MCG_A_SL]		= NLA_POLICY_MAX(NLA_U8, 15),
	[IB_MCG_A_FLOW_LABEL]	= NLA_POLICY_FULL_RANGE(NLA_U32, &flow_label_range),
	[IB_MCG_A_TCLASS]	= { .type = NLA_U8 },
	[IB_MCG_A_HOP_LIMIT]	= { .type = NLA_U8 },
	[IB_MCG_A_SCOPE]	= NLA_POLICY_MAX(NLA_U8, 15),
};

static const struct nla_policy mcg_owner_release_policy[IB_MCG_A_MAX + 1] = {
	MCG_POLICY_DEV,
	[IB_MCG_A_OWNER]	= { .type = NLA_STRING },
};

static const struct nla_policy mcg_leave_policy[IB_MCG_A_MAX + 1] = {
	MCG_POLICY_DEV,
	[IB_MCG_A_MGID]		= NLA_POLICY_EXACT_LEN(16),
	[IB_MCG_A_OWNER]	= { .type = NLA_STRING },
	[IB_MCG_A_JOIN_STATE]	= { .type = NLA_U8 },
};

static const struct nla_policy mcg_group_get_policy[IB_MCG_A_MAX + 1] = {
	MCG_POLICY_DEV,
	[IB_MCG_A_MGID]		= NLA_POLICY_EXACT_LEN(16),
};

static const struct nla_policy mcg_port_get_policy[IB_MCG_A_MAX + 1] = {
	MCG_POLICY_DEV,
};

/* ---- request parsing --------------------------------------------------- */

/* NL_SET_ERR_MSG() for a message chosen by the caller; @msg is a literal. */
static void set_err(struct netlink_ext_ack *extack, const struct nlattr *attr,
		    const char *msg)
{
	if (!extack)
		return;
	extack->_msg = msg;
	NL_SET_BAD_ATTR(extack, attr);
}

static int require(struct nlattr **tb, int type, const char *msg,
		   struct netlink_ext_ack *extack)
{
	if (tb[type])
		return 0;
	set_err(extack, NULL, msg);
	return -EINVAL;
}

/*
 * A string attribute as a C string of at most @max bytes: one trailing NUL
 * is allowed, embedded NULs and control characters are not.
 */
static int get_string(const struct nlattr *attr, char *buf, size_t max,
		      const char *what_bad, struct netlink_ext_ack *extack)
{
	int len = mcg_name_len(nla_data(attr), nla_len(attr), max);

	if (len < 0) {
		set_err(extack, attr, what_bad);
		return -EINVAL;
	}
	memcpy(buf, nla_data(attr), len);
	buf[len] = '\0';
	return 0;
}

/* Resolves the device of a request; under mcg_lock. */
static struct mcg_device *nl_device(struct nlattr **tb,
				    struct netlink_ext_ack *extack)
{
	char name[IB_DEVICE_NAME_MAX];
	struct mcg_device *dev;

	if (tb[IB_MCG_A_DEV_NAME]) {
		if (get_string(tb[IB_MCG_A_DEV_NAME], name, sizeof(name) - 1,
			       "device name is empty, too long or not printable",
			       extack))
			return ERR_PTR(-EINVAL);
		dev = mcg_device_find(name, true, 0);
	} else if (tb[IB_MCG_A_DEV_INDEX]) {
		dev = mcg_device_find(NULL, false,
				      nla_get_u32(tb[IB_MCG_A_DEV_INDEX]));
	} else {
		NL_SET_ERR_MSG(extack, "device name or index is required");
		return ERR_PTR(-EINVAL);
	}
	if (!dev) {
		NL_SET_ERR_MSG(extack, "no such RDMA device");
		return ERR_PTR(-ENODEV);
	}
	if (tb[IB_MCG_A_DEV_NAME] && tb[IB_MCG_A_DEV_INDEX] &&
	    nla_get_u32(tb[IB_MCG_A_DEV_INDEX]) != dev->ibdev->index) {
		NL_SET_ERR_MSG(extack,
			       "device name and device index name different devices");
		return ERR_PTR(-EINVAL);
	}
	return dev;
}

static struct mcg_port *get_port(struct mcg_device *dev, struct nlattr **tb,
				 struct netlink_ext_ack *extack)
{
	struct mcg_port *port;
	u32 num;

	if (require(tb, IB_MCG_A_PORT, "port is required", extack))
		return ERR_PTR(-EINVAL);
	num = nla_get_u32(tb[IB_MCG_A_PORT]);
	if (!num) {
		NL_SET_ERR_MSG_ATTR(extack, tb[IB_MCG_A_PORT],
				    "port 0 does not exist: ports are numbered from 1");
		return ERR_PTR(-EINVAL);
	}
	port = mcg_port_get(dev, num);
	if (!port) {
		NL_SET_ERR_MSG_ATTR(extack, tb[IB_MCG_A_PORT],
				    "port number out of range for this device");
		return ERR_PTR(-ENODEV);
	}
	return port;
}

static struct mcg_port *get_dev_port(struct nlattr **tb,
				     struct netlink_ext_ack *extack)
{
	struct mcg_device *dev = nl_device(tb, extack);

	if (IS_ERR(dev))
		return ERR_CAST(dev);
	return get_port(dev, tb, extack);
}

/*
 * An optional device and port that narrow a request (dumps, owner
 * release): *dev and *port stay NULL when not given. Under mcg_lock.
 */
static int get_filter(struct nlattr **tb, struct mcg_device **dev,
		      struct mcg_port **port, struct netlink_ext_ack *extack)
{
	*dev = NULL;
	*port = NULL;
	if (!tb[IB_MCG_A_DEV_NAME] && !tb[IB_MCG_A_DEV_INDEX]) {
		if (!tb[IB_MCG_A_PORT])
			return 0;
		NL_SET_ERR_MSG(extack, "a port filter needs a device");
		return -EINVAL;
	}
	*dev = nl_device(tb, extack);
	if (IS_ERR(*dev))
		return PTR_ERR(*dev);
	if (tb[IB_MCG_A_PORT]) {
		*port = get_port(*dev, tb, extack);
		if (IS_ERR(*port))
			return PTR_ERR(*port);
	}
	return 0;
}

static int get_join_state(struct nlattr **tb, u8 *js,
			  struct netlink_ext_ack *extack)
{
	u8 v = nla_get_u8(tb[IB_MCG_A_JOIN_STATE]);

	if (mcg_join_state_valid(v)) {
		*js = v;
		return 0;
	}
	NL_SET_ERR_MSG_ATTR(extack, tb[IB_MCG_A_JOIN_STATE],
			    "join state must be exactly one of full (1), non-member (2), send-only non-member (4), send-only full (8)");
	return -EINVAL;
}

/* What every JOIN and LEAVE names: the group and the owner. */
static int get_group_owner(struct nlattr **tb, union ib_gid *mgid, char *owner,
			   struct netlink_ext_ack *extack)
{
	if (require(tb, IB_MCG_A_MGID, "MGID is required", extack) ||
	    require(tb, IB_MCG_A_OWNER, "owner is required", extack))
		return -EINVAL;
	nla_memcpy(mgid->raw, tb[IB_MCG_A_MGID], sizeof(mgid->raw));
	return get_string(tb[IB_MCG_A_OWNER], owner, IB_MCG_OWNER_MAX,
			  "owner must be 1 to 64 printable characters without spaces",
			  extack);
}

/*
 * InfiniBand create parameters; any of them (or an all-zero MGID) makes
 * the join a create. Ranges are checked by the policy.
 */
static int get_create(struct nlattr **tb, struct mcg_join_req *req,
		      struct netlink_ext_ack *extack)
{
	struct mcg_create *c = &req->create;

	c->pkey = 0xffff;
	c->qkey = req->has_qkey;
	c->create = !memchr_inv(req->mgid.raw, 0, sizeof(req->mgid.raw));
	if (tb[IB_MCG_A_PKEY]) {
		c->pkey = nla_get_u16(tb[IB_MCG_A_PKEY]);
		c->create = true;
		if (!mcg_pkey_valid(c->pkey)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[IB_MCG_A_PKEY],
					    "P_Key 0x0000 and 0x8000 are the invalid P_Key");
			return -EINVAL;
		}
	}
	if (tb[IB_MCG_A_SL]) {
		c->sl = nla_get_u8(tb[IB_MCG_A_SL]);
		c->create = true;
	}
	if (tb[IB_MCG_A_TCLASS]) {
		c->tclass = nla_get_u8(tb[IB_MCG_A_TCLASS]);
		c->create = true;
	}
	if (tb[IB_MCG_A_FLOW_LABEL]) {
		c->flow_label = nla_get_u32(tb[IB_MCG_A_FLOW_LABEL]);
		c->create = true;
	}
	if (tb[IB_MCG_A_MTU]) {
		c->mtu = nla_get_u8(tb[IB_MCG_A_MTU]);
		c->has |= MCG_HAS_MTU;
	}
	if (tb[IB_MCG_A_RATE]) {
		c->rate = nla_get_u8(tb[IB_MCG_A_RATE]);
		c->has |= MCG_HAS_RATE;
	}
	if (tb[IB_MCG_A_HOP_LIMIT]) {
		c->hop_limit = nla_get_u8(tb[IB_MCG_A_HOP_LIMIT]);
		c->has |= MCG_HAS_HOP;
	}
	if (tb[IB_MCG_A_SCOPE]) {
		c->scope = nla_get_u8(tb[IB_MCG_A_SCOPE]);
		c->has |= MCG_HAS_SCOPE;
	}
	if (c->has)
		c->create = true;
	return 0;
}

/* ---- messages ---------------------------------------------------------- */

/* Which holders a group message lists. */
enum { HOLDERS_NONE, HOLDERS_ONE, HOLDERS_ALL };

static size_t holder_msg_size(const struct mcg_holder *h)
{
	return nla_total_size(0) + nla_total_size(strlen(h->owner) + 1) +
	       nla_total_size(1) + 2 * nla_total_size(4) +
	       nla_total_size_64bit(8);
}

/* An upper bound on a group message with the given holders. */
static size_t group_msg_size(const struct mcg_group *g, int which,
			     const struct mcg_holder *one)
{
	size_t size = NLMSG_ALIGN(GENL_HDRLEN) + 352;
	const struct mcg_holder *h;

	if (which == HOLDERS_ONE)
		size += holder_msg_size(one);
	else if (which == HOLDERS_ALL && g->state != IB_MCG_STATE_RELEASED)
		list_for_each_entry(h, &g->holders, node)
			size += holder_msg_size(h);
	return size;
}

static int put_holder(struct sk_buff *skb, const struct mcg_holder *h, u64 now)
{
	struct nlattr *nest = nla_nest_start(skb, IB_MCG_A_HOLDER);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_string(skb, IB_MCG_HOLDER_A_OWNER, h->owner) ||
	    nla_put_u8(skb, IB_MCG_HOLDER_A_JOIN_STATE, h->join_state) ||
	    nla_put_u32(skb, IB_MCG_HOLDER_A_FLAGS, h->flags) ||
	    ((h->flags & IB_MCG_F_BOUND) &&
	     nla_put_u32(skb, IB_MCG_HOLDER_A_NL_PORTID, h->nl_portid)) ||
	    nla_put_u64_64bit(skb, IB_MCG_HOLDER_A_AGE_MS,
			      div_u64(now - h->since_ns, NSEC_PER_MSEC),
			      IB_MCG_HOLDER_A_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int put_dev_port(struct sk_buff *skb, const struct mcg_port *port)
{
	if (nla_put_string(skb, IB_MCG_A_DEV_NAME, mcg_dev_name(port)) ||
	    nla_put_u32(skb, IB_MCG_A_DEV_INDEX, port->dev->ibdev->index) ||
	    nla_put_u32(skb, IB_MCG_A_PORT, port->port_num))
		return -EMSGSIZE;
	return 0;
}

static int put_rec(struct sk_buff *skb, const struct mcg_rec *rec)
{
	if (!rec->valid)
		return 0;
	if (nla_put_u16(skb, IB_MCG_A_MLID, rec->mlid) ||
	    nla_put_u32(skb, IB_MCG_A_QKEY, rec->qkey) ||
	    nla_put_u16(skb, IB_MCG_A_PKEY, rec->pkey) ||
	    nla_put_u8(skb, IB_MCG_A_MTU, rec->mtu) ||
	    nla_put_u8(skb, IB_MCG_A_RATE, rec->rate) ||
	    nla_put_u8(skb, IB_MCG_A_SL, rec->sl) ||
	    nla_put_u32(skb, IB_MCG_A_FLOW_LABEL, rec->flow_label) ||
	    nla_put_u8(skb, IB_MCG_A_TCLASS, rec->tclass) ||
	    nla_put_u8(skb, IB_MCG_A_HOP_LIMIT, rec->hop_limit) ||
	    nla_put(skb, IB_MCG_A_PORT_GID, sizeof(rec->port_gid.raw),
		    rec->port_gid.raw) ||
	    nla_put_u32(skb, IB_MCG_A_SGID_INDEX, rec->sgid_index))
		return -EMSGSIZE;
	return 0;
}

static u32 linger_left_ms(const struct mcg_group *g)
{
	return mcg_linger_left_ms(g->linger_until, jiffies);
}

/*
 * One group message listing @which holders: none, just @one, or all of
 * them (none when @g is a released snapshot, whose holder list is empty).
 *
 * With @skip (dumps), the first *@skip holders are left out, and if the
 * rest do not fit, the message ends after those that do: *@skip counts
 * them and -EAGAIN says the group continues in the next message. Returns
 * -EMSGSIZE if nothing of the group fits.
 */
static int fill_group(struct sk_buff *skb, const struct mcg_group *g,
		      u32 portid, u32 seq, int flags, u8 cmd, u8 reason,
		      int which, const struct mcg_holder *one,
		      unsigned int *skip)
{
	u64 now = ktime_get_boottime_ns();
	unsigned int i = 0, n = 0;
	const struct mcg_holder *h;
	struct nlattr *nest;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &mcg_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (put_dev_port(skb, g->port) ||
	    nla_put(skb, IB_MCG_A_MGID, sizeof(g->mgid.raw), g->mgid.raw) ||
	    nla_put_u8(skb, IB_MCG_A_STATE, g->state) ||
	    nla_put_u8(skb, IB_MCG_A_REASON, reason) ||
	    nla_put_u32(skb, IB_MCG_A_ERROR, g->error) ||
	    nla_put_u8(skb, IB_MCG_A_JOIN_STATE, g->join_state) ||
	    nla_put_u8(skb, IB_MCG_A_BACKEND, g->port->backend->id) ||
	    nla_put_u32(skb, IB_MCG_A_LINGER_MS, g->linger_ms) ||
	    (g->state == IB_MCG_STATE_LINGERING &&
	     nla_put_u32(skb, IB_MCG_A_LINGER_LEFT_MS, linger_left_ms(g))) ||
	    put_rec(skb, &g->rec))
		goto cancel;

	nest = nla_nest_start(skb, IB_MCG_A_HOLDERS);
	if (!nest)
		goto cancel;
	if (which == HOLDERS_ONE) {
		if (put_holder(skb, one, now))
			goto cancel;
	} else if (which == HOLDERS_ALL && g->state != IB_MCG_STATE_RELEASED) {
		list_for_each_entry(h, &g->holders, node) {
			if (skip && i++ < *skip)
				continue;
			if (put_holder(skb, h, now)) {
				if (!skip || !n)
					goto cancel;
				nla_nest_end(skb, nest);
				genlmsg_end(skb, hdr);
				*skip += n;
				return -EAGAIN;
			}
			n++;
		}
	}
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	if (skip)
		*skip = 0;
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static int reply_group(struct genl_info *info, const struct mcg_group *g,
		       u8 cmd, int which, const struct mcg_holder *one)
{
	struct sk_buff *skb;
	int err;

	skb = genlmsg_new(group_msg_size(g, which, one), GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	err = fill_group(skb, g, info->snd_portid, info->snd_seq, 0, cmd,
			 g->reason, which, one, NULL);
	if (err) {
		nlmsg_free(skb);
		return err;
	}
	return genlmsg_reply(skb, info);
}

/* Holder notifications list their holder; group notifications none. */
void mcg_notify(struct mcg_group *g, u8 cmd, u8 reason,
		const struct mcg_holder *h)
{
	int which = h ? HOLDERS_ONE : HOLDERS_NONE;
	struct sk_buff *skb;

	if (!genl_has_listeners(&mcg_family, &init_net, MCG_MCGRP_EVENTS))
		return;
	skb = genlmsg_new(group_msg_size(g, which, h), GFP_KERNEL);
	if (!skb)
		return;
	if (fill_group(skb, g, 0, 0, 0, cmd, reason, which, h, NULL)) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_multicast(&mcg_family, skb, 0, MCG_MCGRP_EVENTS, GFP_KERNEL);
}

static int fill_port(struct sk_buff *skb, struct mcg_port *port, u32 portid,
		     u32 seq, int flags, u8 cmd);

/* A port event (re-join waves), in the PORT_GET format. */
void mcg_notify_port(struct mcg_port *port, u8 cmd)
{
	struct sk_buff *skb;

	if (!genl_has_listeners(&mcg_family, &init_net, MCG_MCGRP_EVENTS))
		return;
	skb = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!skb)
		return;
	if (fill_port(skb, port, 0, 0, 0, cmd)) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_multicast(&mcg_family, skb, 0, MCG_MCGRP_EVENTS, GFP_KERNEL);
}

/* ---- JOIN / LEAVE ------------------------------------------------------ */

#define MCG_MSG_SA_REJECTED \
	"the SA rejected the join: no such group (join it with create parameters to create it), different parameters than the group's, or no MLID left"

/*
 * Waits, without mcg_lock, for an asynchronous backend to finish joining
 * @g (the caller holds a reference on it), at most join_wait_ms. A group
 * still joining then is reported as such; one released meanwhile (the
 * fabric refused it, or its device went away) fails the JOIN.
 */
static int wait_joined(struct mcg_group *g, struct netlink_ext_ack *extack)
{
	unsigned long t = msecs_to_jiffies(READ_ONCE(mcg_join_wait_ms));

	mutex_unlock(&mcg_lock);
	wait_event_interruptible_timeout(mcg_join_wq,
					 READ_ONCE(g->state) !=
					 IB_MCG_STATE_JOINING, t);
	mutex_lock(&mcg_lock);
	if (g->state != IB_MCG_STATE_RELEASED)
		return 0;
	switch (g->reason) {
	case IB_MCG_REASON_SA_REJECTED:
		NL_SET_ERR_MSG(extack, MCG_MSG_SA_REJECTED);
		break;
	case IB_MCG_REASON_TIMEOUT:
		NL_SET_ERR_MSG(extack,
			       "the SA did not answer the request for an SA-assigned MGID (not retried: it would ask for another group)");
		break;
	case IB_MCG_REASON_DEVICE_REMOVED:
	case IB_MCG_REASON_UNLOAD:
		NL_SET_ERR_MSG(extack, "the device went away during the join");
		break;
	default:
		NL_SET_ERR_MSG(extack, "the group was released during the join");
		break;
	}
	return g->error ? -g->error : -ENODEV;
}

static int mcg_nl_join(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;
	char owner[IB_MCG_OWNER_MAX + 1];
	struct mcg_join_req req = {
		.owner		= owner,
		.join_state	= IB_MCG_JOIN_FULL,
		.nl_portid	= info->snd_portid,
		.nl_net		= genl_info_net(info),
	};
	struct mcg_holder *h;
	struct mcg_group *g;
	bool waited;
	int err;

	err = get_group_owner(tb, &req.mgid, owner, extack);
	if (err)
		return err;
	if (tb[IB_MCG_A_JOIN_STATE]) {
		err = get_join_state(tb, &req.join_state, extack);
		if (err)
			return err;
	}
	if (tb[IB_MCG_A_FLAGS])
		req.flags = nla_get_u32(tb[IB_MCG_A_FLAGS]);
	if (tb[IB_MCG_A_QKEY]) {
		req.qkey = nla_get_u32(tb[IB_MCG_A_QKEY]);
		req.has_qkey = true;
	}
	if (tb[IB_MCG_A_LINGER_MS]) {
		req.linger_ms = nla_get_u32(tb[IB_MCG_A_LINGER_MS]);
		req.has_linger = true;
		if (!mcg_linger_valid(req.linger_ms)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[IB_MCG_A_LINGER_MS],
					    "linger time is longer than one day");
			return -EINVAL;
		}
	}

	err = get_create(tb, &req, extack);
	if (err)
		return err;

	mutex_lock(&mcg_lock);
	req.port = get_dev_port(tb, extack);
	if (IS_ERR(req.port)) {
		err = PTR_ERR(req.port);
		goto out;
	}
	err = mcg_join(&req, &g, &h, extack);
	if (err)
		goto out;
	waited = g->state == IB_MCG_STATE_JOINING;
	if (waited) {
		kref_get(&g->ref);
		err = wait_joined(g, extack);
		/* Someone may have dropped the hold meanwhile. */
		if (!err)
			h = mcg_holder_find(g, owner, req.join_state);
		/* The fabric refused this join state, not the group. */
		if (!err && !h && (g->refused & req.join_state)) {
			NL_SET_ERR_MSG(extack, MCG_MSG_SA_REJECTED);
			err = -g->refused_error;
		}
	}
	if (!err)
		err = reply_group(info, g, IB_MCG_CMD_JOIN,
				  h ? HOLDERS_ONE : HOLDERS_NONE, h);
	if (waited)
		mcg_group_put(g);
out:
	mutex_unlock(&mcg_lock);
	return err;
}

static int mcg_nl_leave(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;
	char owner[IB_MCG_OWNER_MAX + 1];
	struct mcg_group *g, snap;
	struct mcg_port *port;
	union ib_gid mgid;
	u8 js = 0;
	int err;

	err = get_group_owner(tb, &mgid, owner, extack);
	if (err)
		return err;
	if (tb[IB_MCG_A_JOIN_STATE]) {
		err = get_join_state(tb, &js, extack);
		if (err)
			return err;
	}

	mutex_lock(&mcg_lock);
	port = get_dev_port(tb, extack);
	if (IS_ERR(port)) {
		err = PTR_ERR(port);
		goto out;
	}
	err = mcg_leave(port, &mgid, owner, js, IB_MCG_REASON_LEAVE, &g, &snap,
			extack);
	if (!err)
		err = reply_group(info, g, IB_MCG_CMD_LEAVE, HOLDERS_NONE,
				  NULL);
out:
	mutex_unlock(&mcg_lock);
	return err;
}

/* ---- OWNER_RELEASE ----------------------------------------------------- */

/* One entry of the OWNER_RELEASE reply: a group and what was dropped. */
static int put_released(struct sk_buff *skb, const struct mcg_group *g,
			u8 dropped)
{
	struct nlattr *nest = nla_nest_start(skb, IB_MCG_A_GROUP);

	if (!nest)
		return -EMSGSIZE;
	if (put_dev_port(skb, g->port) ||
	    nla_put(skb, IB_MCG_A_MGID, sizeof(g->mgid.raw), g->mgid.raw) ||
	    nla_put_u8(skb, IB_MCG_A_JOIN_STATE, dropped) ||
	    nla_put_u8(skb, IB_MCG_A_STATE, g->state)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int mcg_nl_owner_release(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;
	char owner[IB_MCG_OWNER_MAX + 1];
	struct mcg_device *dev;
	struct mcg_port *port;
	struct mcg_group *g, snap;
	unsigned int dropped = 0;
	struct nlattr *released;
	struct mcg_holder *h;
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (require(tb, IB_MCG_A_OWNER, "owner is required", extack))
		return -EINVAL;
	err = get_string(tb[IB_MCG_A_OWNER], owner, IB_MCG_OWNER_MAX,
			 "owner must be 1 to 64 printable characters without spaces",
			 extack);
	if (err)
		return err;

	mutex_lock(&mcg_lock);
	err = get_filter(tb, &dev, &port, extack);
	if (err)
		goto out;

	/* Room for every hold, so that nothing is dropped unreported. */
	msg = genlmsg_new(128 + 112 * mcg_owner_holds(owner), GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		goto out;
	}
	hdr = genlmsg_put_reply(msg, info, &mcg_family, 0,
				IB_MCG_CMD_OWNER_RELEASE);
	if (!hdr || nla_put_string(msg, IB_MCG_A_OWNER, owner))
		goto nospace;
	released = nla_nest_start(msg, IB_MCG_A_RELEASED);
	if (!released)
		goto nospace;

	while ((h = mcg_owner_next_hold(owner, dev, port))) {
		struct mcg_holder *o;
		u8 js = 0;

		g = h->group;
		list_for_each_entry(o, &g->holders, node)
			if (!strcmp(o->owner, owner))
				js |= o->join_state;
		list_for_each_entry(o, &g->holders, node)
			dropped += !strcmp(o->owner, owner);
		err = mcg_leave_group(g, owner, 0, IB_MCG_REASON_OWNER_RELEASE,
				      &g, &snap, extack);
		if (WARN_ON_ONCE(err) || put_released(msg, g, js))
			goto nospace;
	}
	nla_nest_end(msg, released);
	if (nla_put_u32(msg, IB_MCG_A_HOLDER_COUNT, dropped))
		goto nospace;
	genlmsg_end(msg, hdr);
	mutex_unlock(&mcg_lock);
	return genlmsg_reply(msg, info);

nospace:
	nlmsg_free(msg);
	err = err ?: -EMSGSIZE;
out:
	mutex_unlock(&mcg_lock);
	return err;
}

/* ---- GROUP_GET --------------------------------------------------------- */

static int mcg_nl_group_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;
	struct mcg_port *port;
	struct mcg_group *g;
	union ib_gid mgid;
	int err;

	if (require(tb, IB_MCG_A_MGID, "MGID is required", extack))
		return -EINVAL;
	nla_memcpy(mgid.raw, tb[IB_MCG_A_MGID], sizeof(mgid.raw));

	mutex_lock(&mcg_lock);
	port = get_dev_port(tb, extack);
	if (IS_ERR(port)) {
		err = PTR_ERR(port);
		goto out;
	}
	g = mcg_group_find(port, &mgid);
	if (!g) {
		NL_SET_ERR_MSG(extack, "no such group on this port");
		err = -ENOENT;
		goto out;
	}
	err = reply_group(info, g, IB_MCG_CMD_GROUP_GET, HOLDERS_ALL, NULL);
out:
	mutex_unlock(&mcg_lock);
	return err;
}

/* Where a dump stands: the last object sent, and the request's filters. */
struct mcg_dump_ctx {
	u32 dev_index;		/* device being dumped */
	u32 port;		/* port being dumped (PORT_GET: next port) */
	union ib_gid last;	/* GROUP_GET: last group sent on that port */
	u32 holder_skip;	/* holders of the next group already sent */
	u32 filter_dev;
	u32 filter_port;
	u8 started:1;
	u8 has_last:1;
	u8 has_filter_dev:1;
	u8 has_filter_port:1;
};

static struct mcg_dump_ctx *dump_ctx(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct mcg_dump_ctx) > sizeof(cb->ctx));
	return (struct mcg_dump_ctx *)cb->ctx;
}

/*
 * Resolves a dump's filters on its first round, under mcg_lock. This is
 * not done in .start because 6.1 gives .start no extack to explain a
 * refusal; the first .dumpit has one.
 */
static int dump_init(struct netlink_callback *cb)
{
	struct nlattr **tb = genl_dumpit_info(cb)->attrs;
	struct mcg_dump_ctx *ctx = dump_ctx(cb);
	struct mcg_device *dev;
	struct mcg_port *port;
	int err;

	if (ctx->started)
		return 0;
	ctx->started = 1;
	err = get_filter(tb, &dev, &port, cb->extack);
	if (err)
		return err;
	if (dev) {
		ctx->has_filter_dev = 1;
		ctx->filter_dev = dev->ibdev->index;
	}
	if (port) {
		ctx->has_filter_port = 1;
		ctx->filter_port = port->port_num;
	}
	return 0;
}

static bool dump_skip_port(const struct mcg_dump_ctx *ctx,
			   const struct mcg_port *port)
{
	u32 index = port->dev->ibdev->index;

	if (ctx->has_filter_dev && index != ctx->filter_dev)
		return true;
	if (ctx->has_filter_port && port->port_num != ctx->filter_port)
		return true;
	if (index != ctx->dev_index)
		return index < ctx->dev_index;
	return port->port_num < ctx->port;
}

static int mcg_nl_group_get_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	struct mcg_dump_ctx *ctx = dump_ctx(cb);
	struct mcg_device *dev;
	struct mcg_group *g;
	int err = 0;
	u32 i;

	mutex_lock(&mcg_lock);
	err = dump_init(cb);
	if (err)
		goto out;
	cb->seq = mcg_generation;
	list_for_each_entry(dev, &mcg_devices, node) {
		for (i = 0; i < dev->nports; i++) {
			struct mcg_port *port = dev->ports[i];

			if (dump_skip_port(ctx, port))
				continue;
			if (ctx->dev_index != dev->ibdev->index ||
			    ctx->port != port->port_num) {
				ctx->dev_index = dev->ibdev->index;
				ctx->port = port->port_num;
				ctx->has_last = 0;
				ctx->holder_skip = 0;
			}
			g = mcg_group_next(port, ctx->has_last ? &ctx->last :
					   NULL);
			for (; g; g = mcg_group_next(port, &g->mgid)) {
				struct nlmsghdr *nlh = (void *)skb_tail_pointer(skb);

				err = fill_group(skb, g,
						 NETLINK_CB(cb->skb).portid,
						 cb->nlh->nlmsg_seq,
						 NLM_F_MULTI,
						 IB_MCG_CMD_GROUP_GET,
						 g->reason, HOLDERS_ALL, NULL,
						 &ctx->holder_skip);
				if (err != -EMSGSIZE)
					nl_dump_check_consistent(cb, nlh);
				if (err)
					goto out;
				ctx->last = g->mgid;
				ctx->has_last = 1;
			}
		}
	}
out:
	mutex_unlock(&mcg_lock);
	/* Only a group too big for an empty message is an error. */
	if (err && err != -EAGAIN && !skb->len)
		return err;
	return skb->len;
}

/* ---- PORT_GET ---------------------------------------------------------- */

static u8 link_layer(const struct mcg_port *port)
{
	switch (rdma_port_get_link_layer(port->dev->ibdev, port->port_num)) {
	case IB_LINK_LAYER_INFINIBAND:
		return IB_MCG_LINK_LAYER_INFINIBAND;
	case IB_LINK_LAYER_ETHERNET:
		return IB_MCG_LINK_LAYER_ETHERNET;
	default:
		return IB_MCG_LINK_LAYER_UNSPEC;
	}
}

static int put_netdev(struct sk_buff *skb, const struct mcg_port *port)
{
	int err = 0;

	if (port->backend != &mcg_roce_backend)
		return 0;
	rtnl_lock();
	if (port->roce.ndev)
		err = nla_put_string(skb, IB_MCG_A_NETDEV,
				     port->roce.ndev->name) ||
		      nla_put_u32(skb, IB_MCG_A_IFINDEX,
				  port->roce.ndev->ifindex);
	rtnl_unlock();
	return err ? -EMSGSIZE : 0;
}

/* The re-join state of an InfiniBand port. */
static int put_ib_port(struct sk_buff *skb, const struct mcg_port *port)
{
	const struct mcg_ib_port *ib = &port->ib;
	struct mcg_group *g;
	u32 pending = 0;

	if (port->backend != &mcg_ib_backend)
		return 0;
	list_for_each_entry(g, &ib->retry, ib.retry_node)
		pending++;
	if (nla_put_u32(skb, IB_MCG_A_LID, ib->lid) ||
	    nla_put_u32(skb, IB_MCG_A_SM_LID, ib->sm_lid) ||
	    nla_put_u32(skb, IB_MCG_A_LAST_SM_LID, ib->last_sm_lid) ||
	    nla_put_u32(skb, IB_MCG_A_LAST_REJOIN_WAVE_MS, ib->last_wave_ms) ||
	    nla_put_u32(skb, IB_MCG_A_REJOIN_PENDING, pending) ||
	    nla_put_u64_64bit(skb, IB_MCG_A_SM_REREGISTERS,
			      atomic64_read(&ib->sm_reregisters),
			      IB_MCG_A_PAD) ||
	    nla_put_u64_64bit(skb, IB_MCG_A_REJOIN_WAVES,
			      atomic64_read(&ib->rejoin_waves), IB_MCG_A_PAD) ||
	    nla_put_u64_64bit(skb, IB_MCG_A_GROUP_REJOINS,
			      atomic64_read(&ib->group_rejoins),
			      IB_MCG_A_PAD) ||
	    nla_put_u64_64bit(skb, IB_MCG_A_REJOIN_FAILURES,
			      atomic64_read(&ib->rejoin_failures),
			      IB_MCG_A_PAD) ||
	    nla_put_u64_64bit(skb, IB_MCG_A_SA_TIMEOUTS,
			      atomic64_read(&ib->sa_timeouts), IB_MCG_A_PAD))
		return -EMSGSIZE;
	return 0;
}

static int fill_port(struct sk_buff *skb, struct mcg_port *port, u32 portid,
		     u32 seq, int flags, u8 cmd)
{
	const struct ib_device_attr *attrs = &port->dev->ibdev->attrs;
	struct ib_port_attr pattr;
	void *hdr;

	if (ib_query_port(port->dev->ibdev, port->port_num, &pattr))
		pattr.state = IB_PORT_NOP;

	hdr = genlmsg_put(skb, portid, seq, &mcg_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (put_dev_port(skb, port) ||
	    nla_put_u8(skb, IB_MCG_A_LINK_LAYER, link_layer(port)) ||
	    nla_put_u8(skb, IB_MCG_A_PORT_STATE, pattr.state) ||
	    nla_put_u8(skb, IB_MCG_A_BACKEND, port->backend->id) ||
	    put_netdev(skb, port) ||
	    nla_put_u32(skb, IB_MCG_A_MAX_MCAST_GRP, attrs->max_mcast_grp) ||
	    nla_put_u32(skb, IB_MCG_A_MAX_MCAST_QP_ATTACH,
			attrs->max_mcast_qp_attach) ||
	    nla_put_u32(skb, IB_MCG_A_MAX_TOTAL_MCAST_QP_ATTACH,
			attrs->max_total_mcast_qp_attach) ||
	    nla_put_u32(skb, IB_MCG_A_GROUPS, port->ngroups) ||
	    nla_put_u32(skb, IB_MCG_A_HOLDER_COUNT, port->nholders) ||
	    nla_put_u64_64bit(skb, IB_MCG_A_JOINS,
			      atomic64_read(&port->joins), IB_MCG_A_PAD) ||
	    nla_put_u64_64bit(skb, IB_MCG_A_LEAVES,
			      atomic64_read(&port->leaves), IB_MCG_A_PAD) ||
	    nla_put_u64_64bit(skb, IB_MCG_A_JOIN_ERRORS,
			      atomic64_read(&port->join_errors),
			      IB_MCG_A_PAD) ||
	    nla_put_u64_64bit(skb, IB_MCG_A_LINGER_HITS,
			      atomic64_read(&port->linger_hits),
			      IB_MCG_A_PAD) ||
	    nla_put_u64_64bit(skb, IB_MCG_A_LINGER_EXPIRED,
			      atomic64_read(&port->linger_expired),
			      IB_MCG_A_PAD) ||
	    nla_put_u32(skb, IB_MCG_A_MAX_GROUPS, READ_ONCE(mcg_max_groups)) ||
	    nla_put_u32(skb, IB_MCG_A_MAX_OWNER_HOLDS,
			READ_ONCE(mcg_max_owner_holds)) ||
	    put_ib_port(skb, port)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int mcg_nl_port_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mcg_port *port;
	struct sk_buff *msg;
	int err;

	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	mutex_lock(&mcg_lock);
	port = get_dev_port(info->attrs, info->extack);
	if (IS_ERR(port))
		err = PTR_ERR(port);
	else
		err = fill_port(msg, port, info->snd_portid, info->snd_seq, 0,
				IB_MCG_CMD_PORT_GET);
	mutex_unlock(&mcg_lock);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static int mcg_nl_port_get_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	struct mcg_dump_ctx *ctx = dump_ctx(cb);
	struct mcg_device *dev;
	int err = 0;
	u32 i;

	mutex_lock(&mcg_lock);
	err = dump_init(cb);
	if (err)
		goto out;
	list_for_each_entry(dev, &mcg_devices, node) {
		for (i = 0; i < dev->nports; i++) {
			struct mcg_port *port = dev->ports[i];

			if (dump_skip_port(ctx, port))
				continue;
			err = fill_port(skb, port, NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, NLM_F_MULTI,
					IB_MCG_CMD_PORT_GET);
			if (err)
				goto out;
			ctx->dev_index = dev->ibdev->index;
			ctx->port = port->port_num + 1;
		}
	}
out:
	mutex_unlock(&mcg_lock);
	if (err && !skb->len)
		return err;
	return skb->len;
}

static const struct genl_ops mcg_ops[] = {
	{
		.cmd	= IB_MCG_CMD_JOIN,
		.doit	= mcg_nl_join,
		.policy	= mcg_join_policy,
		.maxattr = IB_MCG_A_MAX,
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= IB_MCG_CMD_LEAVE,
		.doit	= mcg_nl_leave,
		.policy	= mcg_leave_policy,
		.maxattr = IB_MCG_A_MAX,
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= IB_MCG_CMD_OWNER_RELEASE,
		.doit	= mcg_nl_owner_release,
		.policy	= mcg_owner_release_policy,
		.maxattr = IB_MCG_A_MAX,
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= IB_MCG_CMD_GROUP_GET,
		.doit	= mcg_nl_group_get_doit,
		.dumpit	= mcg_nl_group_get_dumpit,
		.policy	= mcg_group_get_policy,
		.maxattr = IB_MCG_A_MAX,
	},
	{
		.cmd	= IB_MCG_CMD_PORT_GET,
		.doit	= mcg_nl_port_get_doit,
		.dumpit	= mcg_nl_port_get_dumpit,
		.policy	= mcg_port_get_policy,
		.maxattr = IB_MCG_A_MAX,
	},
};

static struct genl_family mcg_family __ro_after_init = {
	.name		= IB_MCG_GENL_NAME,
	.version	= IB_MCG_GENL_VERSION,
	.maxattr	= IB_MCG_A_MAX,
	.parallel_ops	= true,
#ifdef MCG_HAVE_GENL_RESV_START_OP
	.resv_start_op	= IB_MCG_CMD_JOIN,	/* every command, strictly */
#endif
	.module		= THIS_MODULE,
	.ops		= mcg_ops,
	.n_ops		= ARRAY_SIZE(mcg_ops),
	.mcgrps		= mcg_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(mcg_mcgrps),
};

/* ---- bound holds ------------------------------------------------------- */

static int mcg_netlink_event(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	struct netlink_notify *n = ptr;

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    !atomic_read(&mcg_bound_holders))
		return NOTIFY_DONE;
	mutex_lock(&mcg_lock);
	mcg_release_bound(n->net, n->portid);
	mutex_unlock(&mcg_lock);
	return NOTIFY_DONE;
}

static struct notifier_block mcg_netlink_nb = {
	.notifier_call = mcg_netlink_event,
};

int mcg_netlink_init(void)
{
	int err;

	err = genl_register_family(&mcg_family);
	if (err)
		return err;
	err = netlink_register_notifier(&mcg_netlink_nb);
	if (err)
		genl_unregister_family(&mcg_family);
	return err;
}

void mcg_netlink_exit(void)
{
	netlink_unregister_notifier(&mcg_netlink_nb);
	genl_unregister_family(&mcg_family);
}
