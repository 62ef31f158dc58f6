// SPDX-License-Identifier: GPL-2.0
/*
 * Groups and holders: who holds what, the union of their join states, and
 * the group's lifecycle. Everything here runs under mcg_lock.
 *
 * A join reads top-down: netlink.c parses and resolves the port, mcg_join()
 * finds or creates the group and the holder, asks the port's backend to
 * hold the new union of join states, and only then links the new objects
 * and sends notifications. A failed join leaves everything as it was.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "ib_mcgroups.h"

/* Holds with IB_MCG_F_BOUND; lets socket release skip the walk when 0. */
atomic_t mcg_bound_holders = ATOMIC_INIT(0);
/* Bumped on every change of groups or holders; dumps report NLM_F_DUMP_INTR. */
unsigned int mcg_generation = 1;

static int mgid_cmp(const union ib_gid *a, const union ib_gid *b)
{
	return memcmp(a->raw, b->raw, sizeof(a->raw));
}

struct mcg_group *mcg_group_find(struct mcg_port *port,
				 const union ib_gid *mgid)
{
	struct rb_node *n = port->groups.rb_node;

	while (n) {
		struct mcg_group *g = rb_entry(n, struct mcg_group, node);
		int c = mgid_cmp(mgid, &g->mgid);

		if (c < 0)
			n = n->rb_left;
		else if (c > 0)
			n = n->rb_right;
		else
			return g;
	}
	return NULL;
}

/* The first group whose MGID sorts after @after (the first group if NULL). */
struct mcg_group *mcg_group_next(struct mcg_port *port,
				 const union ib_gid *after)
{
	struct rb_node *n = port->groups.rb_node;
	struct mcg_group *best = NULL;

	if (!after) {
		n = rb_first(&port->groups);
		return n ? rb_entry(n, struct mcg_group, node) : NULL;
	}
	while (n) {
		struct mcg_group *g = rb_entry(n, struct mcg_group, node);

		if (mgid_cmp(&g->mgid, after) > 0) {
			best = g;
			n = n->rb_left;
		} else {
			n = n->rb_right;
		}
	}
	return best;
}

static void group_insert(struct mcg_port *port, struct mcg_group *g)
{
	struct rb_node **link = &port->groups.rb_node, *parent = NULL;

	while (*link) {
		struct mcg_group *cur = rb_entry(*link, struct mcg_group, node);

		parent = *link;
		if (mgid_cmp(&g->mgid, &cur->mgid) < 0)
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(&g->node, parent, link);
	rb_insert_color(&g->node, &port->groups);
	port->ngroups++;
}

static u8 holders_union(const struct mcg_group *g)
{
	const struct mcg_holder *h;
	u8 js = 0;

	list_for_each_entry(h, &g->holders, node)
		js |= h->join_state;
	return js;
}

static void holder_link(struct mcg_group *g, struct mcg_holder *h)
{
	list_add_tail(&h->node, &g->holders);
	g->nholders++;
	g->port->nholders++;
	if (h->flags & IB_MCG_F_BOUND)
		atomic_inc(&mcg_bound_holders);
	atomic64_inc(&g->port->joins);
	mcg_generation++;
}

/* Unlinks and frees @h, tells listeners why; the caller settles @g. */
static void holder_drop(struct mcg_group *g, struct mcg_holder *h, u8 reason)
{
	list_del(&h->node);
	g->nholders--;
	g->port->nholders--;
	if (h->flags & IB_MCG_F_BOUND)
		atomic_dec(&mcg_bound_holders);
	atomic64_inc(&g->port->leaves);
	mcg_generation++;
	mcg_notify(g, IB_MCG_CMD_HOLDER_DEL_NTF, reason, h);
	kfree(h);
}

/*
 * After holders left: shrink the backend membership to the new union, or
 * release the group if nobody holds it any more. Returns true if @g was
 * freed. Shrinking and releasing never fail in a backend.
 */
static bool group_settle(struct mcg_group *g, u8 reason)
{
	struct mcg_port *port = g->port;
	u8 js = holders_union(g);

	if (js == g->join_state)
		return false;
	port->backend->update(g, js, NULL);
	g->join_state = js;
	mcg_generation++;
	if (js)
		return false;

	rb_erase(&g->node, &port->groups);
	port->ngroups--;
	g->state = IB_MCG_STATE_RELEASED;
	g->reason = reason;
	mcg_notify(g, IB_MCG_CMD_GROUP_DEL_NTF, reason, NULL);
	kfree(g);
	return true;
}

static struct mcg_holder *holder_find(struct mcg_group *g, const char *owner,
				      u8 join_state)
{
	struct mcg_holder *h;

	list_for_each_entry(h, &g->holders, node)
		if (h->join_state == join_state && !strcmp(h->owner, owner))
			return h;
	return NULL;
}

/* An existing (owner, join state): idempotent if it is the same kind of hold. */
static int rejoin_check(const struct mcg_holder *h,
			const struct mcg_join_req *req,
			struct netlink_ext_ack *extack)
{
	if ((h->flags ^ req->flags) & IB_MCG_F_BOUND) {
		if (h->flags & IB_MCG_F_BOUND)
			NL_SET_ERR_MSG(extack,
				       "owner already holds this group with a bound hold; leave it first");
		else
			NL_SET_ERR_MSG(extack,
				       "owner already holds this group with an unbound hold; leave it first");
		return -EBUSY;
	}
	if ((h->flags & IB_MCG_F_BOUND) &&
	    (h->nl_portid != req->nl_portid || h->nl_net != req->nl_net)) {
		NL_SET_ERR_MSG(extack,
			       "owner's bound hold on this group belongs to another socket");
		return -EBUSY;
	}
	return 0;
}

int mcg_join(const struct mcg_join_req *req, struct mcg_group **out,
	     struct mcg_holder **hout, struct netlink_ext_ack *extack)
{
	struct mcg_port *port = req->port;
	struct mcg_group *g, *new_group = NULL;
	struct mcg_holder *h;
	int err;

	lockdep_assert_held(&mcg_lock);

	err = port->backend->check(port, &req->mgid, extack);
	if (err)
		return err;

	g = mcg_group_find(port, &req->mgid);
	if (g) {
		if (req->has_qkey && g->rec.qkey != req->qkey) {
			NL_SET_ERR_MSG(extack,
				       "group exists with a different Q_Key");
			return -EINVAL;
		}
		h = holder_find(g, req->owner, req->join_state);
		if (h) {
			err = rejoin_check(h, req, extack);
			if (!err) {
				*out = g;
				*hout = h;
			}
			return err;
		}
	}

	h = kzalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	strscpy(h->owner, req->owner, sizeof(h->owner));
	h->join_state = req->join_state;
	h->flags = req->flags;
	if (h->flags & IB_MCG_F_BOUND) {
		h->nl_portid = req->nl_portid;
		h->nl_net = req->nl_net;
	}
	h->since_ns = ktime_get_boottime_ns();

	if (!g) {
		new_group = kzalloc(sizeof(*new_group), GFP_KERNEL);
		if (!new_group) {
			kfree(h);
			return -ENOMEM;
		}
		g = new_group;
		g->port = port;
		g->mgid = req->mgid;
		g->rec.qkey = req->has_qkey ? req->qkey : IB_MCG_DEFAULT_QKEY;
		g->state = IB_MCG_STATE_JOINING;
		g->reason = IB_MCG_REASON_JOIN;
		INIT_LIST_HEAD(&g->holders);
		INIT_LIST_HEAD(&g->roce_node);
	}

	err = port->backend->update(g, g->join_state | req->join_state,
				    extack);
	if (err) {
		atomic64_inc(&port->join_errors);
		kfree(new_group);
		kfree(h);
		return err;
	}
	g->join_state |= req->join_state;
	g->error = 0;

	if (new_group) {
		g->state = IB_MCG_STATE_JOINED;
		group_insert(port, g);
		mcg_notify(g, IB_MCG_CMD_GROUP_NEW_NTF, IB_MCG_REASON_JOIN,
			   NULL);
	} else if (g->state != IB_MCG_STATE_JOINED) {
		g->state = IB_MCG_STATE_JOINED;
		g->reason = IB_MCG_REASON_JOIN;
		mcg_notify(g, IB_MCG_CMD_GROUP_STATE_NTF, IB_MCG_REASON_JOIN,
			   NULL);
	}
	holder_link(g, h);
	mcg_notify(g, IB_MCG_CMD_HOLDER_NEW_NTF, IB_MCG_REASON_JOIN, h);
	*out = g;
	*hout = h;
	return 0;
}

/*
 * Drops the owner's hold with @join_state, or all of the owner's holds on
 * the group if @join_state is 0. On success *out is the group or, if that
 * was its last holder and it has been released, @snap: a copy of the group
 * as released, without holders.
 */
int mcg_leave(struct mcg_port *port, const union ib_gid *mgid,
	      const char *owner, u8 join_state, struct mcg_group **out,
	      struct mcg_group *snap, struct netlink_ext_ack *extack)
{
	struct mcg_holder *h, *tmp;
	struct mcg_group *g;
	unsigned int n = 0;

	lockdep_assert_held(&mcg_lock);

	g = mcg_group_find(port, mgid);
	if (!g) {
		NL_SET_ERR_MSG(extack, "no such group on this port");
		return -ENOENT;
	}
	list_for_each_entry_safe(h, tmp, &g->holders, node) {
		if (strcmp(h->owner, owner) ||
		    (join_state && h->join_state != join_state))
			continue;
		holder_drop(g, h, IB_MCG_REASON_LEAVE);
		n++;
	}
	if (!n) {
		if (join_state)
			NL_SET_ERR_MSG(extack,
				       "owner does not hold this group with that join state");
		else
			NL_SET_ERR_MSG(extack, "owner does not hold this group");
		return -ENOENT;
	}
	*snap = *g;
	INIT_LIST_HEAD(&snap->holders);
	snap->nholders = 0;
	snap->join_state = 0;
	snap->state = IB_MCG_STATE_RELEASED;
	snap->reason = IB_MCG_REASON_LEAVE;
	*out = group_settle(g, IB_MCG_REASON_LEAVE) ? snap : g;
	return 0;
}

static void group_release(struct mcg_group *g, u8 reason)
{
	struct mcg_holder *h, *tmp;

	list_for_each_entry_safe(h, tmp, &g->holders, node)
		holder_drop(g, h, reason);
	group_settle(g, reason);
}

/* The device is going away (or the module is): drop everything, loudly. */
void mcg_port_release_all(struct mcg_port *port, u8 reason)
{
	unsigned int groups = port->ngroups, holders = port->nholders;
	struct rb_node *n;

	lockdep_assert_held(&mcg_lock);

	while ((n = rb_first(&port->groups)))
		group_release(rb_entry(n, struct mcg_group, node), reason);
	if (groups)
		pr_info("%s/%u: released %u group(s) held by %u holder(s): %s\n",
			mcg_dev_name(port), port->port_num, groups, holders,
			reason == IB_MCG_REASON_UNLOAD ? "module unloaded" :
			"device removed");
}

/* Release every hold bound to the netlink socket (@net, @portid). */
void mcg_release_bound(const struct net *net, u32 portid)
{
	struct mcg_device *dev;
	u32 i;

	lockdep_assert_held(&mcg_lock);

	list_for_each_entry(dev, &mcg_devices, node) {
		for (i = 0; i < dev->nports; i++) {
			struct mcg_port *port = dev->ports[i];
			struct rb_node *n = rb_first(&port->groups);

			while (n && atomic_read(&mcg_bound_holders)) {
				struct mcg_group *g =
					rb_entry(n, struct mcg_group, node);
				struct mcg_holder *h, *tmp;
				bool hit = false;

				n = rb_next(n);
				list_for_each_entry_safe(h, tmp, &g->holders,
							 node) {
					if (!(h->flags & IB_MCG_F_BOUND) ||
					    h->nl_portid != portid ||
					    h->nl_net != net)
						continue;
					holder_drop(g, h,
						    IB_MCG_REASON_SOCKET_CLOSED);
					hit = true;
				}
				if (hit)
					group_settle(g,
						     IB_MCG_REASON_SOCKET_CLOSED);
			}
		}
	}
}

/*
 * The port's link changed under us (RoCE netdev gone or back, GIDs
 * changed): ask the backend to hold every group again and report groups
 * that became detached or were re-attached.
 */
void mcg_port_resync(struct mcg_port *port)
{
	struct rb_node *n;

	lockdep_assert_held(&mcg_lock);

	if (port->backend->refresh)
		port->backend->refresh(port);
	for (n = rb_first(&port->groups); n; n = rb_next(n)) {
		struct mcg_group *g = rb_entry(n, struct mcg_group, node);
		int err = port->backend->update(g, g->join_state, NULL);

		if (err && g->state != IB_MCG_STATE_DETACHED) {
			g->state = IB_MCG_STATE_DETACHED;
			g->reason = IB_MCG_REASON_NETDEV_DOWN;
			g->error = -err;
		} else if (!err && g->state == IB_MCG_STATE_DETACHED) {
			g->state = IB_MCG_STATE_JOINED;
			g->reason = IB_MCG_REASON_NETDEV_UP;
			g->error = 0;
		} else {
			continue;
		}
		mcg_generation++;
		mcg_notify(g, IB_MCG_CMD_GROUP_STATE_NTF, g->reason, NULL);
	}
}
