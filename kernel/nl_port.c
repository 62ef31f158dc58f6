// SPDX-License-Identifier: GPL-2.0
/*
 * ib_mcgroups netlink: PORT_GET, a port's counters and re-join state,
 * and the port notifications (re-join waves) in the same format.
 */
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <rdma/ib_cache.h>

#include "ib_mcgroups.h"
#include "nl.h"

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
	const struct list_head *pos;
	u32 pending = 0;

	if (port->backend != &mcg_ib_backend)
		return 0;
	list_for_each(pos, &ib->retry)
		pending++;
	list_for_each(pos, &ib->ujoins)	/* users' groups', theirs too */
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
			      atomic64_read(&ib->sa_timeouts), IB_MCG_A_PAD) ||
	    nla_put_u64_64bit(skb, IB_MCG_A_MLID_CHANGES,
			      atomic64_read(&ib->mlid_changes), IB_MCG_A_PAD))
		return -EMSGSIZE;
	return 0;
}

/**
 * nl_fill_port() - one port message
 * @skb: the message
 * @port: the port
 * @portid: the receiver
 * @seq: the sequence number
 * @flags: netlink message flags
 * @cmd: the command or notification
 *
 * Context: under mcg_lock.
 * Return: 0, or -EMSGSIZE.
 */
int nl_fill_port(struct sk_buff *skb, struct mcg_port *port, u32 portid,
		 u32 seq, int flags, u8 cmd)
{
	const struct ib_device_attr *attrs = &port->dev->ibdev->attrs;
	enum ib_port_state state;
	void *hdr;

	/*
	 * ib_core's cached copy, kept up to date by its port events: no
	 * driver call (a firmware command on some HCAs) under mcg_lock,
	 * which every PORT_GET takes, any user's included.
	 */
	if (ib_get_cached_port_state(port->dev->ibdev, port->port_num, &state))
		state = IB_PORT_NOP;

	hdr = genlmsg_put(skb, portid, seq, &mcg_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (nl_put_dev_port(skb, port) ||
	    nla_put_u8(skb, IB_MCG_A_LINK_LAYER, link_layer(port)) ||
	    nla_put_u8(skb, IB_MCG_A_PORT_STATE, state) ||
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

/**
 * mcg_nl_port_get_doit() - PORT_GET of one port
 * @skb: the request
 * @info: its attributes and sender
 *
 * Context: a genetlink request; takes mcg_lock.
 * Return: 0, or a negative errno with an extack message.
 */
int mcg_nl_port_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mcg_port *port;
	struct sk_buff *msg;
	int err;

	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	mutex_lock(&mcg_lock);
	port = nl_get_dev_port(info->attrs, info->extack);
	if (IS_ERR(port))
		err = PTR_ERR(port);
	else
		err = nl_fill_port(msg, port, info->snd_portid, info->snd_seq, 0,
				   IB_MCG_CMD_PORT_GET);
	mutex_unlock(&mcg_lock);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/**
 * mcg_nl_port_get_dumpit() - PORT_GET as a dump
 * @skb: the message to fill
 * @cb: the dump
 *
 * Context: a genetlink dump round; takes mcg_lock.
 * Return: the length filled, 0 at the end, or a negative errno.
 */
int mcg_nl_port_get_dumpit(struct sk_buff *skb,
			   struct netlink_callback *cb)
{
	struct mcg_dump_ctx *ctx = nl_dump_ctx(cb);
	struct mcg_port *port;
	int err = 0;

	mutex_lock(&mcg_lock);
	err = nl_dump_init(cb);
	if (err)
		goto out;
	for (port = mcg_port_next(NULL); port; port = mcg_port_next(port)) {
		if (nl_dump_skip_port(ctx, port))
			continue;
		err = nl_fill_port(skb, port, NETLINK_CB(cb->skb).portid,
				   cb->nlh->nlmsg_seq, NLM_F_MULTI,
				   IB_MCG_CMD_PORT_GET);
		if (err)
			goto out;
		ctx->dev_index = port->dev->ibdev->index;
		ctx->port = port->port_num + 1;
	}
out:
	mutex_unlock(&mcg_lock);
	if (err && !skb->len)
		return err;
	return skb->len;
}
