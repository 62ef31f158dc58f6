// SPDX-License-Identifier: GPL-2.0
/*
 * ib_mcgroups netlink: the group commands, JOIN, LEAVE, REJOIN and
 * GROUP_GET, and GROUP_GET's dump with its stable cursor.
 */
#include <linux/netlink.h>
#include <linux/timekeeping.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "ib_mcgroups.h"
#include "mcg_logic.h"
#include "nl.h"

/* ---- JOIN / LEAVE ------------------------------------------------------ */

/**
 * mcg_nl_join() - JOIN
 * @skb: the request
 * @info: its attributes and sender
 *
 * JOIN answers at once with the group as it is. No request sleeps on the
 * fabric: a doit runs under the global genetlink cb_lock, and a family
 * (un)registering anywhere on the system would wait for it, and every
 * genetlink request behind that. A group an asynchronous backend (the SA)
 * is still joining is reported JOINING, with its IB_MCG_A_GROUP_ID; the
 * outcome follows as a GROUP_STATE_NTF or GROUP_DEL_NTF carrying that id,
 * which libibmcg waits for (subscribed before it sends the JOIN).
 *
 * Context: a genetlink request; takes mcg_lock.
 * Return: 0, or a negative errno with an extack message.
 */
int mcg_nl_join(struct sk_buff *skb, struct genl_info *info)
{
	struct mcg_caller who = nl_caller(skb);
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;
	char owner[IB_MCG_OWNER_MAX + 1];
	struct mcg_join_req req = {
		.owner		= owner,
		.join_state	= IB_MCG_JOIN_FULL,
		.nl_sock	= {
			.net	= genl_info_net(info),
			.portid	= info->snd_portid,
			.token	= nl_sock_token(skb),
		},
		.unpriv		= !who.admin,
		.uid		= who.uid,
		/* the sender's namespace: a doit runs in its task */
		.charge_uid	= mcg_charge_uid(current_user_ns(), who.uid),
	};
	struct mcg_holder *h;
	struct mcg_group *g;
	int err;

	err = nl_get_group_owner(tb, &who, &req.mgid, owner, extack);
	if (err)
		return err;
	if (tb[IB_MCG_A_JOIN_STATE]) {
		err = nl_get_join_state(tb, &req.join_state, extack);
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

	if (req.unpriv) {
		err = nl_check_unpriv_join(tb, &req, extack);
		if (err)
			return err;
	}
	err = nl_get_create(tb, &req, extack);
	if (err)
		return err;

	mutex_lock(&mcg_lock);
	req.port = nl_get_dev_port(tb, extack);
	if (IS_ERR(req.port)) {
		err = PTR_ERR(req.port);
		goto out;
	}
	err = mcg_join(&req, &g, &h, extack);
	if (!err && tb[IB_MCG_A_REPLY_BRIEF])
		err = nl_reply_join_brief(info, g, h);
	else if (!err)
		err = nl_reply_group(info, g, IB_MCG_CMD_JOIN, HOLDERS_ONE, h,
				     NULL);
out:
	mutex_unlock(&mcg_lock);
	return err;
}

/**
 * mcg_nl_leave() - LEAVE
 * @skb: the request
 * @info: its attributes and sender
 *
 * Context: a genetlink request; takes mcg_lock.
 * Return: 0, or a negative errno with an extack message.
 */
int mcg_nl_leave(struct sk_buff *skb, struct genl_info *info)
{
	struct mcg_caller who = nl_caller(skb);
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;
	char owner[IB_MCG_OWNER_MAX + 1];
	/* A user's LEAVE drops only the holds of the socket it came on. */
	const struct mcg_sock sock = {
		.net	= genl_info_net(info),
		.portid	= info->snd_portid,
		.token	= nl_sock_token(skb),
	};
	struct mcg_group *g, snap;
	struct mcg_port *port;
	struct mcg_owner *o;
	union ib_gid mgid;
	u8 js = 0;
	int err;

	err = nl_get_group_owner(tb, &who, &mgid, owner, extack);
	if (err)
		return err;
	if (tb[IB_MCG_A_JOIN_STATE]) {
		err = nl_get_join_state(tb, &js, extack);
		if (err)
			return err;
	}

	mutex_lock(&mcg_lock);
	port = nl_get_dev_port(tb, extack);
	if (IS_ERR(port)) {
		err = PTR_ERR(port);
		goto out;
	}
	/* NULL if the owner holds nothing: then nothing matches. */
	o = mcg_owner_find(owner);
	if (!who.admin) {
		err = mcg_leave_check_unpriv(port, &mgid, o, js, who.uid,
					     &sock, extack);
		if (err)
			goto out;
	}
	err = mcg_leave(port, &mgid, o, js, who.admin ? NULL : &sock,
			IB_MCG_REASON_LEAVE, &g, &snap, extack);
	if (!err)
		err = nl_reply_group(info, g, IB_MCG_CMD_LEAVE, HOLDERS_NONE,
				     NULL, NULL);
out:
	mutex_unlock(&mcg_lock);
	return err;
}

/* ---- REJOIN ------------------------------------------------------------ */

/**
 * mcg_nl_rejoin() - REJOIN
 * @skb: the request
 * @info: its attributes and sender
 *
 * The backend joins the group's membership again; see the UAPI header.
 *
 * Context: a genetlink request; takes mcg_lock.
 * Return: 0, or a negative errno with an extack message.
 */
int mcg_nl_rejoin(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct mcg_group *g;
	int err;

	mutex_lock(&mcg_lock);
	g = nl_group(info->attrs, true, extack);
	if (IS_ERR(g)) {
		err = PTR_ERR(g);
		goto out;
	}
	err = g->port->backend->rejoin(g, extack);
	if (!err)
		err = nl_reply_group(info, g, IB_MCG_CMD_REJOIN, HOLDERS_NONE,
				     NULL, NULL);
out:
	mutex_unlock(&mcg_lock);
	return err;
}

/* ---- GROUP_GET --------------------------------------------------------- */

/**
 * mcg_nl_group_get_doit() - GROUP_GET of one group
 * @skb: the request
 * @info: its attributes and sender
 *
 * Context: a genetlink request; takes mcg_lock.
 * Return: 0, or a negative errno with an extack message.
 */
int mcg_nl_group_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mcg_caller who = nl_caller(skb);
	struct mcg_reader rd = { .uid = who.uid };
	struct mcg_group *g;
	int err;

	mutex_lock(&mcg_lock);
	g = nl_group(info->attrs, false, info->extack);
	if (IS_ERR(g)) {
		err = PTR_ERR(g);
		goto out;
	}
	err = nl_reply_group(info, g, IB_MCG_CMD_GROUP_GET, HOLDERS_ALL, NULL,
			     who.admin ? NULL : &rd);
out:
	mutex_unlock(&mcg_lock);
	return err;
}

/*
 * A GROUP_GET dump with an MGID lists that one group, all of its holders
 * however many messages they take: the "do" of a group too big for one
 * message. Device and port are then required, and the group must exist.
 */
static int dump_init_mgid(struct netlink_callback *cb)
{
	struct nlattr **tb = nl_dump_attrs(cb);
	struct mcg_dump_ctx *ctx = nl_dump_ctx(cb);
	struct mcg_group *g;

	if (!tb[IB_MCG_A_MGID])
		return 0;
	g = nl_group(tb, false, cb->extack);
	if (IS_ERR(g))
		return PTR_ERR(g);
	ctx->has_filter_mgid = 1;
	return 0;
}

/*
 * The first group of @port to send in this round, or NULL. *@cont says
 * that it is the group the last round sent a first part of (the cursor
 * ctx->last with ctx->holder_last set).
 */
static struct mcg_group *dump_first_group(struct netlink_callback *cb,
					  struct mcg_port *port, bool *cont)
{
	struct mcg_dump_ctx *ctx = nl_dump_ctx(cb);
	struct mcg_group *g;
	union ib_gid mgid;

	*cont = false;
	if (ctx->has_last && ctx->holder_last) {
		g = mcg_group_find(port, &ctx->last);
		if (g) {
			*cont = true;
			return g;
		}
		/* Released since: go on after it. */
		ctx->holder_last = 0;
	}
	if (!ctx->has_filter_mgid)
		return mcg_group_next(port, ctx->has_last ? &ctx->last : NULL);
	if (ctx->has_last)
		return NULL;
	nla_memcpy(mgid.raw, nl_dump_attrs(cb)[IB_MCG_A_MGID],
		   sizeof(mgid.raw));
	return mcg_group_find(port, &mgid);
}

/**
 * mcg_nl_group_get_dumpit() - GROUP_GET as a dump
 * @skb: the message to fill
 * @cb: the dump
 *
 * Context: a genetlink dump round; takes mcg_lock.
 * Return: the length filled, 0 at the end, or a negative errno.
 */
int mcg_nl_group_get_dumpit(struct sk_buff *skb,
			    struct netlink_callback *cb)
{
	struct mcg_dump_ctx *ctx = nl_dump_ctx(cb);
	struct mcg_reader rd = { .uid = NETLINK_CB(cb->skb).creds.uid };
	struct mcg_view v = {
		.which = HOLDERS_ALL, .after = &ctx->holder_last,
	};
	struct mcg_port *port;
	struct mcg_group *g;
	bool cont;
	int err = 0;

	mutex_lock(&mcg_lock);
	if (!ctx->started) {
		err = nl_dump_init(cb) ?: dump_init_mgid(cb);
		if (err)
			goto out;
	}
	v.rd = ctx->admin ? NULL : &rd;
	v.now = ktime_get_boottime_ns();	/* after any holder's start */
	v.brief = ctx->brief;
	for (port = mcg_port_next(NULL); port; port = mcg_port_next(port)) {
		if (nl_dump_skip_port(ctx, port))
			continue;
		if (ctx->dev_index != port->dev->ibdev->index ||
		    ctx->port != port->port_num) {
			ctx->dev_index = port->dev->ibdev->index;
			ctx->port = port->port_num;
			ctx->has_last = 0;
			ctx->holder_last = 0;
		}
		g = dump_first_group(cb, port, &cont);
		for (; g; g = ctx->has_filter_mgid ? NULL :
			      mcg_group_after(g)) {
			struct nlmsghdr *nlh = (void *)skb_tail_pointer(skb);

			err = nl_fill_group(skb, g,
					    NETLINK_CB(cb->skb).portid,
					    cb->nlh->nlmsg_seq,
					    NLM_F_MULTI,
					    IB_MCG_CMD_GROUP_GET,
					    g->reason, &v);
			if (err == -EMSGSIZE)
				goto out;
			/*
			 * A continued group that changed between its
			 * parts mixes two moments: say so. Any other
			 * change is not an inconsistency: the cursor
			 * lists every group that exists throughout
			 * exactly once.
			 */
			if (!cont)
				ctx->group_gen = g->gen;
			else if (g->gen != ctx->group_gen)
				nlh->nlmsg_flags |= NLM_F_DUMP_INTR;
			cont = false;
			ctx->last = g->mgid;
			ctx->has_last = 1;
			if (err)	/* -EAGAIN: @g continues */
				goto out;
		}
	}
out:
	mutex_unlock(&mcg_lock);
	/* Only a group too big for an empty message is an error. */
	if (err && err != -EAGAIN && !skb->len)
		return err;
	return skb->len;
}
