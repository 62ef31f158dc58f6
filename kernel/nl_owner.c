// SPDX-License-Identifier: GPL-2.0
/*
 * ib_mcgroups netlink: OWNER_RELEASE, as one reply (protocol version 1)
 * or as a dump of any length (version 2). The release itself is
 * mcg_owner_release() in group.c.
 */
#include <linux/netlink.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "ib_mcgroups.h"
#include "nl.h"

/* ---- OWNER_RELEASE ----------------------------------------------------- */

/*
 * The result of an OWNER_RELEASE, kept from the release until it is sent:
 * a dump sends it over as many messages as it takes (cb->ctx points to
 * it; freed by .done, also when the socket closes mid-dump).
 */
struct mcg_release {
	char owner[IB_MCG_OWNER_MAX + 1];
	u32 holds;		/* holds dropped */
	u32 n;			/* ent[] used */
	u32 next;		/* dump: next entry to send */
	bool sent;		/* dump: the first message went out */
	struct mcg_released ent[];
};

static size_t released_size(const char *dev_name)
{
	return nla_total_size(0) + nla_total_size(strlen(dev_name) + 1) +
	       2 * nla_total_size(4) + nla_total_size(16) +
	       2 * nla_total_size(1);
}

/* One entry of the OWNER_RELEASE reply: a group and what was dropped. */
static int put_released(struct sk_buff *skb, const struct mcg_released *e)
{
	struct nlattr *nest = nla_nest_start(skb, IB_MCG_A_GROUP);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_string(skb, IB_MCG_A_DEV_NAME, e->dev_name) ||
	    nla_put_u32(skb, IB_MCG_A_DEV_INDEX, e->dev_index) ||
	    nla_put_u32(skb, IB_MCG_A_PORT, e->port) ||
	    nla_put(skb, IB_MCG_A_MGID, sizeof(e->mgid.raw), e->mgid.raw) ||
	    nla_put_u8(skb, IB_MCG_A_JOIN_STATE, e->dropped) ||
	    nla_put_u8(skb, IB_MCG_A_STATE, e->state)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * An upper bound on the payload of a one-message reply listing every
 * hold of @o that matches the filter; under mcg_lock.
 */
static size_t release_reply_size(const struct mcg_owner *o,
				 const struct mcg_device *dev,
				 const struct mcg_port *port)
{
	size_t size = nla_total_size(IB_MCG_OWNER_MAX + 1) +
		      nla_total_size(4) + nla_total_size(0);
	const struct mcg_holder *h;

	if (!o)
		return size;
	list_for_each_entry(h, &o->holders, owner_node)
		if (mcg_hold_matches(h, dev, port))
			size += released_size(mcg_dev_name(h->group->port));
	return size;
}

/*
 * Drops every hold of the request's owner (on its device or port) and
 * returns what was dropped, or an ERR_PTR with @extack set and nothing
 * changed. With @msgp (the "do" of protocol version 1) the result must fit
 * in one reply of at most MCG_DO_REPLY_MAX bytes, which is allocated into
 * *@msgp before anything is released, so that no failure can follow a
 * release. Groups are released by reference, never looked up by MGID: a
 * group still waiting for an SA-assigned MGID has none (all zero) yet.
 */
static struct mcg_release *owner_release(const struct sk_buff *req,
					 struct nlattr **tb,
					 struct sk_buff **msgp,
					 struct netlink_ext_ack *extack)
{
	char owner[IB_MCG_OWNER_MAX + 1];
	struct mcg_release *r;
	struct mcg_device *dev;
	struct mcg_port *port;
	struct mcg_owner *o;
	unsigned int max;
	size_t size;
	int err;

	if (!netlink_capable(req, CAP_NET_ADMIN)) {
		NL_SET_ERR_MSG(extack,
			       "OWNER_RELEASE needs CAP_NET_ADMIN (without it, close the socket of the bound holds, or leave them one by one)");
		return ERR_PTR(-EPERM);
	}
	if (nl_require(tb, IB_MCG_A_OWNER, "owner is required", extack))
		return ERR_PTR(-EINVAL);
	err = nl_get_string(tb[IB_MCG_A_OWNER], owner, IB_MCG_OWNER_MAX,
			    "owner must be 1 to 64 printable characters without spaces",
			    extack);
	if (err)
		return ERR_PTR(err);

	mutex_lock(&mcg_lock);
	err = nl_get_filter(tb, &dev, &port, extack);
	if (err)
		goto out;
	o = mcg_owner_find(owner);
	if (msgp) {
		size = release_reply_size(o, dev, port);
		if (size > MCG_DO_REPLY_MAX) {
			NL_SET_ERR_MSG(extack,
				       "owner holds too many groups for a one-message reply: ask for the reply as a dump (NLM_F_DUMP, protocol version 2)");
			err = -EMSGSIZE;
			goto out;
		}
		*msgp = genlmsg_new(size, GFP_KERNEL);
		if (!*msgp) {
			err = -ENOMEM;
			goto out;
		}
	}
	/* Every group has at least one of the owner's holds. */
	max = o ? o->nholds : 0;
	r = kvzalloc(struct_size(r, ent, max), GFP_KERNEL);
	if (!r) {
		err = -ENOMEM;
		goto out_msg;
	}
	strscpy(r->owner, owner, sizeof(r->owner));

	r->n = mcg_owner_release(o, dev, port, r->ent, max, &r->holds);
	mutex_unlock(&mcg_lock);
	return r;

out_msg:
	if (msgp) {
		nlmsg_free(*msgp);
		*msgp = NULL;
	}
out:
	mutex_unlock(&mcg_lock);
	return ERR_PTR(err);
}

/*
 * One OWNER_RELEASE message: the owner, the holds dropped and as many of
 * the remaining entries, from r->next, as fit. -EMSGSIZE if not even the
 * message's head fits.
 */
static int fill_release(struct sk_buff *skb, struct mcg_release *r,
			u32 portid, u32 seq, int flags)
{
	struct nlattr *nest;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &mcg_family, flags,
			  IB_MCG_CMD_OWNER_RELEASE);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, IB_MCG_A_OWNER, r->owner) ||
	    nla_put_u32(skb, IB_MCG_A_HOLDER_COUNT, r->holds))
		goto cancel;
	nest = nla_nest_start(skb, IB_MCG_A_RELEASED);
	if (!nest)
		goto cancel;
	while (r->next < r->n && !nl_nest_full(skb, nest) &&
	       !put_released(skb, &r->ent[r->next]))
		r->next++;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/**
 * mcg_nl_owner_release() - OWNER_RELEASE with one reply
 * @skb: the request
 * @info: its attributes and sender
 *
 * Protocol version 1: the whole result in one reply.
 *
 * Context: a genetlink request; takes mcg_lock.
 * Return: 0, or a negative errno with an extack message.
 */
int mcg_nl_owner_release(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg = NULL;
	struct mcg_release *r;
	int err;

	r = owner_release(skb, info->attrs, &msg, info->extack);
	if (IS_ERR(r))
		return PTR_ERR(r);
	/*
	 * Sized for every entry by release_reply_size(), so this cannot
	 * fail; the holds are gone already, so it must not.
	 */
	err = fill_release(msg, r, info->snd_portid, info->snd_seq, 0);
	kvfree(r);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static struct mcg_release **release_ctx(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct mcg_release *) > sizeof(cb->ctx));
	return (struct mcg_release **)cb->ctx;
}

/**
 * mcg_nl_owner_release_dumpit() - OWNER_RELEASE as a dump
 * @skb: the message to fill
 * @cb: the dump
 *
 * The dump form (NLM_F_DUMP): the first round releases and keeps the
 * result; every round sends as much of it as fits, so the reply is never
 * bigger than the reader's buffer and netlink's flow control paces it.
 * The release is complete before anything is sent: the NLMSG_DONE that
 * ends the messages reports success however many messages it took.
 *
 * Context: a genetlink dump round; takes mcg_lock in its first.
 * Return: the length filled, 0 at the end, or a negative errno.
 */
int mcg_nl_owner_release_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	struct mcg_release *r = *release_ctx(cb);

	if (!r) {
		/* The first round, in the sender's context. */
		r = owner_release(cb->skb, nl_dump_attrs(cb), NULL, cb->extack);
		if (IS_ERR(r))
			return PTR_ERR(r);
		*release_ctx(cb) = r;
	}
	while (!r->sent || r->next < r->n) {
		const void *mark = skb_tail_pointer(skb);
		u32 first = r->next;

		if (fill_release(skb, r, NETLINK_CB(cb->skb).portid,
				 cb->nlh->nlmsg_seq, NLM_F_MULTI))
			break;
		if (r->sent && r->next == first) {
			/* No entry fit: the rest goes in the next round. */
			nlmsg_trim(skb, mark);
			break;
		}
		r->sent = true;
	}
	/* An entry too big for an empty message would never be sent. */
	return skb->len ?: (r->sent && r->next == r->n ? 0 : -EMSGSIZE);
}

/**
 * mcg_nl_owner_release_done() - free an OWNER_RELEASE dump's result
 * @cb: the dump
 *
 * Context: the dump's end, or its socket's close.
 * Return: 0.
 */
int mcg_nl_owner_release_done(struct netlink_callback *cb)
{
	kvfree(*release_ctx(cb));
	return 0;
}
