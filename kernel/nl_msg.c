// SPDX-License-Identifier: GPL-2.0
/*
 * ib_mcgroups netlink: the messages of groups and holders (replies and
 * notifications) and the events the group layer and the backends report
 * (struct mcg_events). What a reader may see of other holders is decided
 * here (struct mcg_reader).
 */
#include <linux/netlink.h>
#include <linux/timekeeping.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "ib_mcgroups.h"
#include "mcg_logic.h"
#include "nl.h"

static size_t holder_msg_size(const struct mcg_holder *h)
{
	return nla_total_size(0) + nla_total_size(strlen(h->o->name) + 1) +
	       nla_total_size(1) + 2 * nla_total_size(4) +
	       2 * nla_total_size_64bit(8);
}

/**
 * nl_nest_full() - is a list nest about to outgrow its u16 length?
 * @skb: the message
 * @nest: the nest
 *
 * A list nest (holders, released groups) ends before its u16 length could
 * wrap, whatever the size of the message: the rest goes in the next one.
 * Its entries are far smaller than the margin.
 *
 * Context: any.
 * Return: true if the rest must go in the next message.
 */
bool nl_nest_full(const struct sk_buff *skb, const struct nlattr *nest)
{
	return skb_tail_pointer(skb) - (const unsigned char *)nest >
	       U16_MAX - 1024;
}

/* An upper bound on a group message with the given holders. */
static size_t group_msg_size(const struct mcg_group *g, int which,
			     const struct mcg_holder *one)
{
	size_t size = NLMSG_ALIGN(GENL_HDRLEN) + 384 + nla_total_size(4);
	const struct mcg_holder *h;

	if (which == HOLDERS_ONE)
		size += holder_msg_size(one);
	else if (which == HOLDERS_ALL && g->hold != MCG_HOLD_RELEASED)
		list_for_each_entry(h, &g->holders, node)
			size += holder_msg_size(h);
	return size;
}

static bool holder_visible(const struct mcg_holder *h,
			   const struct mcg_reader *rd)
{
	return !rd || rd->anon || (h->unpriv && uid_eq(h->uid, rd->uid));
}

static int put_holder(struct sk_buff *skb, const struct mcg_holder *h,
		      const struct mcg_view *v)
{
	bool anon = v->rd && v->rd->anon;
	struct nlattr *nest = nla_nest_start(skb, IB_MCG_A_HOLDER);

	if (!nest)
		return -EMSGSIZE;
	if ((!anon && nla_put_string(skb, IB_MCG_HOLDER_A_OWNER, h->o->name)) ||
	    nla_put_u8(skb, IB_MCG_HOLDER_A_JOIN_STATE, h->join_state) ||
	    nla_put_u32(skb, IB_MCG_HOLDER_A_FLAGS, h->flags) ||
	    (!anon && (h->flags & IB_MCG_F_BOUND) &&
	     nla_put_u32(skb, IB_MCG_HOLDER_A_NL_PORTID,
			 h->bound->sock.portid)))
		goto cancel;
	if (!v->brief &&
	    (nla_put_u64_64bit(skb, IB_MCG_HOLDER_A_AGE_MS,
			       div_u64(v->now - h->since_ns, NSEC_PER_MSEC),
			       IB_MCG_HOLDER_A_PAD) ||
	     nla_put_u64_64bit(skb, IB_MCG_HOLDER_A_ID, h->id,
			       IB_MCG_HOLDER_A_PAD)))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;

cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/**
 * nl_put_dev_port() - put a port's device name and index and its number
 * @skb: the message
 * @port: the port
 *
 * Context: under mcg_lock.
 * Return: 0, or -EMSGSIZE.
 */
int nl_put_dev_port(struct sk_buff *skb, const struct mcg_port *port)
{
	if (nla_put_string(skb, IB_MCG_A_DEV_NAME, mcg_dev_name(port)) ||
	    nla_put_u32(skb, IB_MCG_A_DEV_INDEX, port->dev->ibdev->index) ||
	    nla_put_u32(skb, IB_MCG_A_PORT, port->port_num))
		return -EMSGSIZE;
	return 0;
}

/*
 * The member record; the list view (@brief) has InfiniBand's fabric
 * parameters only, those the SA chose.
 */
static int put_rec(struct sk_buff *skb, const struct mcg_group *g, bool brief)
{
	const struct mcg_rec *rec = &g->rec;

	if (!rec->valid ||
	    (brief && g->port->backend->id != IB_MCG_BACKEND_IB_SA))
		return 0;
	if (nla_put_u16(skb, IB_MCG_A_MLID, rec->mlid) ||
	    (rec->prev_mlid &&
	     nla_put_u16(skb, IB_MCG_A_PREV_MLID, rec->prev_mlid)) ||
	    nla_put_u32(skb, IB_MCG_A_QKEY, rec->qkey) ||
	    nla_put_u16(skb, IB_MCG_A_PKEY, rec->pkey) ||
	    nla_put_u8(skb, IB_MCG_A_MTU, rec->mtu) ||
	    nla_put_u8(skb, IB_MCG_A_RATE, rec->rate) ||
	    nla_put_u8(skb, IB_MCG_A_SL, rec->sl) ||
	    nla_put_u32(skb, IB_MCG_A_FLOW_LABEL, rec->flow_label) ||
	    nla_put_u8(skb, IB_MCG_A_TCLASS, rec->tclass) ||
	    nla_put_u8(skb, IB_MCG_A_HOP_LIMIT, rec->hop_limit))
		return -EMSGSIZE;
	if (brief)
		return 0;
	if (nla_put(skb, IB_MCG_A_PORT_GID, sizeof(rec->port_gid.raw),
		    rec->port_gid.raw) ||
	    nla_put_u32(skb, IB_MCG_A_SGID_INDEX, rec->sgid_index))
		return -EMSGSIZE;
	return 0;
}

static u32 linger_left_ms(const struct mcg_group *g)
{
	return mcg_linger_left_ms(g->linger_until, jiffies);
}

/**
 * nl_fill_group() - one group message
 * @skb: the message
 * @g: the group
 * @portid: the receiver
 * @seq: the sequence number
 * @flags: netlink message flags
 * @cmd: the command or notification
 * @reason: the reason it carries
 * @v: what it shows
 *
 * One group message as @v shows it, listing the holders it selects (none
 * when @g is a released snapshot, whose holder list is empty).
 *
 * With v->after (HOLDERS_ALL), holders are listed from the first whose
 * id is above *after (0: from the first), and if the rest do not fit, the
 * message ends after those that do: *after is the id of the last one
 * listed and -EAGAIN says the group continues in the next message. The
 * cursor is an id, not a position, so holders that come and go between
 * the messages neither repeat nor hide the others. Returns -EMSGSIZE if
 * nothing of the group fits.
 *
 * Context: under mcg_lock.
 * Return: 0, -EAGAIN if the holders go on in another message, or -EMSGSIZE.
 */
int nl_fill_group(struct sk_buff *skb, const struct mcg_group *g,
		  u32 portid, u32 seq, int flags, u8 cmd, u8 reason,
		  const struct mcg_view *v)
{
	u64 *after = v->after;
	const struct mcg_holder *h;
	unsigned int n = 0;
	struct nlattr *nest;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &mcg_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (nl_put_dev_port(skb, g->port) ||
	    nla_put(skb, IB_MCG_A_MGID, sizeof(g->mgid.raw), g->mgid.raw) ||
	    (!v->brief &&
	     nla_put_u64_64bit(skb, IB_MCG_A_GROUP_ID, g->id, IB_MCG_A_PAD)) ||
	    nla_put_u8(skb, IB_MCG_A_STATE, mcg_group_state(g)) ||
	    nla_put_u8(skb, IB_MCG_A_LINK_STATE, g->link) ||
	    nla_put_u8(skb, IB_MCG_A_REASON, reason) ||
	    nla_put_u32(skb, IB_MCG_A_ERROR, g->error) ||
	    nla_put_u8(skb, IB_MCG_A_JOIN_STATE, g->join_state) ||
	    nla_put_u8(skb, IB_MCG_A_BACKEND, g->port->backend->id) ||
	    nla_put_u32(skb, IB_MCG_A_LINGER_MS, g->linger_ms) ||
	    nla_put_u32(skb, IB_MCG_A_HOLDER_COUNT, g->nholders) ||
	    (g->hold == MCG_HOLD_LINGERING &&
	     nla_put_u32(skb, IB_MCG_A_LINGER_LEFT_MS, linger_left_ms(g))) ||
	    put_rec(skb, g, v->brief))
		goto cancel;

	nest = nla_nest_start(skb, IB_MCG_A_HOLDERS);
	if (!nest)
		goto cancel;
	if (v->which == HOLDERS_ONE) {
		if (put_holder(skb, v->one, v))
			goto cancel;
	} else if (v->which == HOLDERS_ALL && g->hold != MCG_HOLD_RELEASED) {
		list_for_each_entry(h, &g->holders, node) {
			if (h->id <= *after || !holder_visible(h, v->rd))
				continue;
			if (nl_nest_full(skb, nest) || put_holder(skb, h, v)) {
				if (!n)
					goto cancel;
				nla_nest_end(skb, nest);
				genlmsg_end(skb, hdr);
				return -EAGAIN;
			}
			*after = h->id;
			n++;
		}
	}
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	if (after)
		*after = 0;
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/**
 * nl_reply_group() - reply with a group
 * @info: the request
 * @g: the group
 * @cmd: the reply's command
 * @which: which holders it lists (HOLDERS_*)
 * @one: the holder of HOLDERS_ONE
 * @rd: the reader, NULL for one with CAP_NET_ADMIN
 *
 * Context: under mcg_lock.
 * Return: 0, or a negative errno.
 */
int nl_reply_group(struct genl_info *info, const struct mcg_group *g,
		   u8 cmd, int which, const struct mcg_holder *one,
		   const struct mcg_reader *rd)
{
	size_t size = min_t(size_t, group_msg_size(g, which, one),
			    MCG_DO_REPLY_MAX);
	u64 after = 0;
	/* Only GROUP_GET's policy lets IB_MCG_A_LIST_BRIEF through. */
	struct mcg_view v = {
		.which = which, .one = one, .rd = rd, .after = &after,
		.now = ktime_get_boottime_ns(),
		.brief = !!info->attrs[IB_MCG_A_LIST_BRIEF],
	};
	struct sk_buff *skb;
	int err;

	skb = genlmsg_new(size, GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	err = nl_fill_group(skb, g, info->snd_portid, info->snd_seq, 0, cmd,
			    g->reason, &v);
	if (err == -EAGAIN)	/* the holders that fit; see MCG_DO_REPLY_MAX */
		err = 0;
	if (err) {
		nlmsg_free(skb);
		return err;
	}
	return genlmsg_reply(skb, info);
}

/**
 * nl_reply_join_brief() - the short reply to a JOIN
 * @info: the request
 * @g: the group
 * @h: the hold
 *
 * The brief reply to a JOIN (IB_MCG_A_REPLY_BRIEF): the group's id and
 * state and the hold's id, all a requester that does not want the group
 * needs to know whether, and for what, to wait.
 *
 * Context: under mcg_lock.
 * Return: 0, or a negative errno.
 */
int nl_reply_join_brief(struct genl_info *info, const struct mcg_group *g,
			const struct mcg_holder *h)
{
	struct nlattr *list, *ho;
	struct sk_buff *skb;
	void *hdr;

	skb = genlmsg_new(2 * nla_total_size_64bit(8) + nla_total_size(1) +
			  2 * nla_total_size(0), GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	hdr = genlmsg_put_reply(skb, info, &mcg_family, 0, IB_MCG_CMD_JOIN);
	if (!hdr)
		goto nospace;
	if (nla_put_u64_64bit(skb, IB_MCG_A_GROUP_ID, g->id, IB_MCG_A_PAD) ||
	    nla_put_u8(skb, IB_MCG_A_STATE, mcg_group_state(g)))
		goto nospace;
	list = nla_nest_start(skb, IB_MCG_A_HOLDERS);
	ho = list ? nla_nest_start(skb, IB_MCG_A_HOLDER) : NULL;
	if (!ho || nla_put_u64_64bit(skb, IB_MCG_HOLDER_A_ID, h->id,
				     IB_MCG_HOLDER_A_PAD))
		goto nospace;
	nla_nest_end(skb, ho);
	nla_nest_end(skb, list);
	genlmsg_end(skb, hdr);
	return genlmsg_reply(skb, info);

nospace:
	nlmsg_free(skb);
	return -EMSGSIZE;
}

/**
 * nl_group_event() - multicast a group or holder notification
 * @g: the group
 * @cmd: the notification, an IB_MCG_CMD_*_NTF
 * @reason: why (enum ib_mcg_reason)
 * @h: the holder a holder notification lists, or NULL for a group one
 *
 * Holder notifications list their holder; group notifications none.
 * Sends to the events multicast group of init_net, in the GROUP_GET
 * format. Does nothing without listeners; a notification that cannot be
 * allocated or filled is dropped without a word.
 *
 * Context: under mcg_lock; may sleep (GFP_KERNEL).
 */
static void nl_group_event(struct mcg_group *g, u8 cmd, u8 reason,
			   const struct mcg_holder *h)
{
	static const struct mcg_reader listeners = { .anon = true };
	struct mcg_view v = {
		.which = h ? HOLDERS_ONE : HOLDERS_NONE, .one = h,
		.rd = MCG_EVENTS_ANON ? &listeners : NULL,
	};
	struct sk_buff *skb;

	if (!genl_has_listeners(&mcg_family, &init_net, MCG_MCGRP_EVENTS))
		return;
	skb = genlmsg_new(group_msg_size(g, v.which, h), GFP_KERNEL);
	if (!skb)
		return;
	v.now = ktime_get_boottime_ns();
	if (nl_fill_group(skb, g, 0, 0, 0, cmd, reason, &v)) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_multicast(&mcg_family, skb, 0, MCG_MCGRP_EVENTS, GFP_KERNEL);
}

/**
 * nl_port_event() - multicast a port notification
 * @port: the port
 * @cmd: the notification (the re-join wave's start or end)
 *
 * A port event (re-join waves), in the PORT_GET format. Dropped, as in
 * nl_group_event(), when nobody listens or it cannot be built.
 *
 * Context: under mcg_lock; may sleep (GFP_KERNEL).
 */
static void nl_port_event(struct mcg_port *port, u8 cmd)
{
	struct sk_buff *skb;

	if (!genl_has_listeners(&mcg_family, &init_net, MCG_MCGRP_EVENTS))
		return;
	skb = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!skb)
		return;
	if (nl_fill_port(skb, port, 0, 0, 0, cmd)) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_multicast(&mcg_family, skb, 0, MCG_MCGRP_EVENTS, GFP_KERNEL);
}

/* The group layer's and the backends' events, as notifications. */
const struct mcg_events nl_events = {
	.group	= nl_group_event,
	.port	= nl_port_event,
};
