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

#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <net/sock.h>

#include "ib_mcgroups.h"
#include "mcg_logic.h"

static unsigned int linger_ms;

/* Refuses what a JOIN would refuse: more than IB_MCG_LINGER_MAX_MS. */
static int linger_ms_set(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	int err;

	err = kstrtouint(val, 0, &v);
	if (err)
		return err;
	if (!mcg_linger_valid(v))
		return -EINVAL;
	WRITE_ONCE(*(unsigned int *)kp->arg, v);
	return 0;
}

static const struct kernel_param_ops linger_ms_ops = {
	.set	= linger_ms_set,
	.get	= param_get_uint,
};

module_param_cb(linger_ms, &linger_ms_ops, &linger_ms, 0644);
__MODULE_PARM_TYPE(linger_ms, "uint");
MODULE_PARM_DESC(linger_ms,
		 "Default time (ms) a group stays joined after its last holder leaves, for groups whose joins gave none; at most 86400000, one day (default 0: release at once)");

unsigned int mcg_max_groups;
module_param_named(max_groups, mcg_max_groups, uint, 0644);
MODULE_PARM_DESC(max_groups,
		 "Groups one port may hold, lingering ones included (default 0: no limit)");

/*
 * The kernel never waits for the fabric in a request: libibmcg reads this
 * and waits for the group's notification, in user space, for this long.
 */
static unsigned int join_wait_ms = 5000;
module_param(join_wait_ms, uint, 0644);
MODULE_PARM_DESC(join_wait_ms,
		 "How long libibmcg (mcctl join) waits for the SA's answer to a join before reporting the group still joining (default 5000: longer than the SA's 10 x 300 ms retries)");

/* Every group gets the next one; under mcg_lock. */
static u64 mcg_next_group_id = 1;

unsigned int mcg_max_owner_holds;
module_param_named(max_owner_holds, mcg_max_owner_holds, uint, 0644);
MODULE_PARM_DESC(max_owner_holds,
		 "Holds one owner may have on all ports (default 0: no limit)");

/*
 * Holds a user without CAP_NET_ADMIN may have, on all ports: such holds
 * are bound and owned by "uid:N", counted per uid in mcg_ucounts, where
 * the owner of a user namespace is charged for its users' holds too
 * (mcg_charge_uid()). 0 lets only CAP_NET_ADMIN hold groups.
 */
unsigned int mcg_user_max_holds = 64;
module_param_named(user_max_holds, mcg_user_max_holds, uint, 0644);
MODULE_PARM_DESC(user_max_holds,
		 "Holds one user without CAP_NET_ADMIN may have on all ports, all bound to its sockets, those of the users of its user namespaces included (default 64; 0: only CAP_NET_ADMIN may join)");

/* All holds without CAP_NET_ADMIN together (mcg_unpriv_holds). */
unsigned int mcg_user_max_holds_total = 4096;
module_param_named(user_max_holds_total, mcg_user_max_holds_total, uint,
		   0644);
MODULE_PARM_DESC(user_max_holds_total,
		 "Holds all users without CAP_NET_ADMIN may have together (default 4096)");

/*
 * MGID ranges in which a user's JOIN may create a group at an InfiniBand
 * SA (mcg_join()). Written by the parameter's set() under mcg_lock (the
 * module's parameter lock is taken first; nothing under mcg_lock takes
 * it), read under mcg_lock.
 */
#define MCG_USER_CREATE_MAX 16
static struct mcg_mgid_range mcg_user_create[MCG_USER_CREATE_MAX];
static int mcg_user_create_n;

static int user_create_set(const char *val, const struct kernel_param *kp)
{
	struct mcg_mgid_range r[MCG_USER_CREATE_MAX];
	const char *why;
	int n;

	n = mcg_mgid_ranges_parse(val, r, ARRAY_SIZE(r), &why);
	if (n < 0) {
		pr_warn("user_create: %s; at most %d entries MGID[/LEN], LEN 8 to 128 (unchanged)\n",
			why, MCG_USER_CREATE_MAX);
		return n;
	}
	mutex_lock(&mcg_lock);
	memcpy(mcg_user_create, r, n * sizeof(r[0]));
	mcg_user_create_n = n;
	mutex_unlock(&mcg_lock);
	return 0;
}

static int user_create_get(char *buf, const struct kernel_param *kp)
{
	int i, len = 0;

	mutex_lock(&mcg_lock);
	for (i = 0; i < mcg_user_create_n; i++)
		len += sysfs_emit_at(buf, len, "%s%pI6c/%u", i ? "," : "",
				     mcg_user_create[i].mgid.raw,
				     mcg_user_create[i].len);
	mutex_unlock(&mcg_lock);
	return len + sysfs_emit_at(buf, len, "\n");
}

static const struct kernel_param_ops user_create_ops = {
	.set	= user_create_set,
	.get	= user_create_get,
};

module_param_cb(user_create, &user_create_ops, NULL, 0644);
__MODULE_PARM_TYPE(user_create, "charp");
MODULE_PARM_DESC(user_create,
		 "MGID ranges (MGID/LEN, comma-separated, at most 16) in which users without CAP_NET_ADMIN may create groups at an InfiniBand SA, with the default parameters (default: none)");

/* Under mcg_lock. */
static bool user_may_create(const union ib_gid *mgid)
{
	int i;

	for (i = 0; i < mcg_user_create_n; i++)
		if (mcg_mgid_in_range(&mcg_user_create[i], mgid))
			return true;
	return false;
}

/*
 * Holds without CAP_NET_ADMIN, per uid they are charged to (the holder's
 * own and its user namespace's owner, mcg_holder.charge_uid), and in all.
 * Under mcg_lock. An entry lives while it counts a hold.
 */
struct mcg_ucount {
	struct hlist_node node;
	kuid_t uid;
	unsigned int holds;
};

static DEFINE_HASHTABLE(mcg_ucounts, 6);
static unsigned int mcg_unpriv_holds;

/* Owners by name: each one's holds on every port. */
static DEFINE_HASHTABLE(mcg_owners, 8);

/*
 * Bound holds by the socket they belong to, (net, portid): a socket's
 * release finds its holds without looking at any group. Changed under
 * mcg_lock and mcg_bound_lock; the netlink notifier, which runs for every
 * generic netlink socket closed on the system, only looks a socket up
 * under mcg_bound_lock and takes mcg_lock only for a socket that has
 * bound holds. A bound hold names its socket through its entry
 * (struct mcg_bound), which lives until the socket's last bound hold
 * has been dropped and notified.
 */
static DEFINE_HASHTABLE(mcg_bound_hash, 8);
static DEFINE_SPINLOCK(mcg_bound_lock);

/*
 * Bumped on every change of groups or holders; a changed group takes the
 * new value as its generation (mcg_group.gen), so a dump that continues
 * a group in a later message can tell whether the group changed between
 * the parts.
 */
unsigned int mcg_generation = 1;
/* The id of the last holder created; ids only grow (dump cursors). */
static u64 mcg_holder_ids;

static void group_changed(struct mcg_group *g)
{
	g->gen = ++mcg_generation;
}

static int mgid_cmp(const union ib_gid *a, const union ib_gid *b)
{
	return memcmp(a->raw, b->raw, sizeof(a->raw));
}

/**
 * mcg_group_find() - look a group up by MGID
 * @port: the port
 * @mgid: the MGID; groups still waiting for an SA-assigned MGID are not
 *        in the tree and never found
 *
 * Context: under mcg_lock.
 * Return: the group, or NULL. No reference is taken.
 */
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

/**
 * mcg_group_next() - the next group in MGID order
 * @port: the port
 * @after: an MGID, which need not be a group's, or NULL
 *
 * The first group whose MGID sorts after @after (the first group if
 * NULL): where a dump resumes.
 *
 * Context: under mcg_lock.
 * Return: the group, or NULL if there is none after @after.
 */
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

/**
 * mcg_group_after() - the group after @g in MGID order
 * @g: a group in its port's tree (one with an MGID)
 *
 * Context: under mcg_lock.
 * Return: the next group, or NULL if @g is the last.
 */
struct mcg_group *mcg_group_after(struct mcg_group *g)
{
	struct rb_node *n = rb_next(&g->node);

	return n ? rb_entry(n, struct mcg_group, node) : NULL;
}

static void group_tree_insert(struct mcg_port *port, struct mcg_group *g)
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
}

/* A group asking the SA for its MGID is keyed only once it has one. */
static void group_insert(struct mcg_port *port, struct mcg_group *g)
{
	if (mcg_mgid_is_zero(&g->mgid))
		list_add_tail(&g->unkeyed_node, &port->unkeyed);
	else
		group_tree_insert(port, g);
	port->ngroups++;
}

struct kmem_cache *mcg_group_cache;
struct kmem_cache *mcg_ib_group_cache;
struct kmem_cache *mcg_roce_group_cache;
static struct kmem_cache *mcg_holder_cache;

/**
 * mcg_cache_init() - create the slab caches of groups and holders
 *
 * Groups and holders come from their own slab caches, one of groups per
 * kind of backend state (ib_mcgroups.h): what they take shows in
 * /proc/slabinfo, and a group takes no more than its backend needs.
 *
 * Context: process context (module init), may sleep.
 * Return: 0, or -ENOMEM (no cache is left then).
 */
int mcg_cache_init(void)
{
	/*
	 * The budget of issue #12: a group held once, with one join state,
	 * takes at most 512 bytes of our kernel memory - its group object,
	 * its holder and, on InfiniBand, its one SA membership (what
	 * multicast.c and the SA keep for it is not ours). The benchmark
	 * (selftests/bench, "ours") measures what the slabs really take.
	 */
	BUILD_BUG_ON(sizeof(struct mcg_ib_group_obj) + sizeof(struct mcg_holder) +
		     sizeof(struct mcg_ib_memb) > MCG_GROUP_BUDGET);
	BUILD_BUG_ON(sizeof(struct mcg_roce_group_obj) +
		     sizeof(struct mcg_holder) > MCG_GROUP_BUDGET);
	mcg_group_cache = kmem_cache_create("mcg_group",
					    sizeof(struct mcg_group), 0, 0,
					    NULL);
	mcg_ib_group_cache = kmem_cache_create("mcg_group_ib",
					       sizeof(struct mcg_ib_group_obj),
					       0, 0, NULL);
	mcg_roce_group_cache = kmem_cache_create("mcg_group_roce",
						 sizeof(struct mcg_roce_group_obj),
						 0, 0, NULL);
	mcg_holder_cache = kmem_cache_create("mcg_holder",
					     sizeof(struct mcg_holder), 0, 0,
					     NULL);
	if (mcg_group_cache && mcg_ib_group_cache && mcg_roce_group_cache &&
	    mcg_holder_cache)
		return 0;
	mcg_cache_exit();
	return -ENOMEM;
}

/**
 * mcg_cache_exit() - destroy the caches of mcg_cache_init()
 *
 * Every hold was dropped before, so every user's count with it (warns
 * otherwise).
 *
 * Context: process context (module exit or a failed init), may sleep.
 */
void mcg_cache_exit(void)
{
	/* Every hold was dropped, so every user's count with it. */
	WARN_ON(mcg_unpriv_holds || !hash_empty(mcg_ucounts));
	kmem_cache_destroy(mcg_holder_cache);
	kmem_cache_destroy(mcg_roce_group_cache);
	kmem_cache_destroy(mcg_ib_group_cache);
	kmem_cache_destroy(mcg_group_cache);
}

static void group_dealloc(struct mcg_group *g)
{
	const struct mcg_backend_ops *ops = g->port->backend;

	if (ops->group_fini)
		ops->group_fini(g);
	kmem_cache_free(*ops->group_cache, g);
}

/* The last reference goes in group_free(), with the port still there. */
static void group_kref_release(struct kref *ref)
{
	group_dealloc(container_of(ref, struct mcg_group, ref));
}

/**
 * mcg_group_put() - drop a reference to a group
 * @g: the group; the last reference frees it (the backend's group_fini(),
 *     then its slab object)
 *
 * Context: under mcg_lock; the last put may sleep (group_fini() of an
 * InfiniBand group waits for its SA callbacks).
 */
void mcg_group_put(struct mcg_group *g)
{
	kref_put(&g->ref, group_kref_release);
}

/**
 * mcg_group_rekey() - give a group the MGID the SA assigned it
 * @g: a group waiting on its port's unkeyed list (all-zero MGID)
 * @mgid: the MGID the SA assigned
 *
 * Moves @g from the unkeyed list into the port's tree.
 *
 * Context: under mcg_lock.
 * Return: 0, or -EEXIST if @mgid is zero or another group of the port
 * has it (then nothing changed).
 */
int mcg_group_rekey(struct mcg_group *g, const union ib_gid *mgid)
{
	if (mcg_mgid_is_zero(mgid) || mcg_group_find(g->port, mgid))
		return -EEXIST;
	list_del(&g->unkeyed_node);
	g->mgid = *mgid;
	group_tree_insert(g->port, g);
	group_changed(g);
	return 0;
}

/*
 * Events: the transport (netlink.c) registers itself at load, before any
 * device is added, and goes after every device has been removed.
 */
static const struct mcg_events *mcg_ev;

/**
 * mcg_events_set() - register who is told of changes
 * @ev: the transport's callbacks, or NULL to unregister
 *
 * Context: module init and exit, when no request, device or work item
 * can report anything.
 */
void mcg_events_set(const struct mcg_events *ev)
{
	mcg_ev = ev;
}

/* A group notification, or with @h a holder notification listing @h. */
static void holder_event(struct mcg_group *g, u8 cmd, u8 reason,
			 const struct mcg_holder *h)
{
	if (mcg_ev)
		mcg_ev->group(g, cmd, reason, h);
}

/**
 * mcg_group_event() - tell listeners of a change of a group
 * @g: the group
 * @cmd: the notification (IB_MCG_CMD_GROUP_*_NTF)
 * @reason: why (enum ib_mcg_reason)
 *
 * Context: under mcg_lock; may sleep.
 */
void mcg_group_event(struct mcg_group *g, u8 cmd, u8 reason)
{
	holder_event(g, cmd, reason, NULL);
}

/**
 * mcg_port_event() - tell listeners of a change of a port
 * @port: the port
 * @cmd: the notification (IB_MCG_CMD_REJOIN_WAVE_*_NTF)
 *
 * Context: under mcg_lock; may sleep.
 */
void mcg_port_event(struct mcg_port *port, u8 cmd)
{
	if (mcg_ev)
		mcg_ev->port(port, cmd);
}

/*
 * The one place a group's state changes (Documentation/group-state.rst):
 * its hold (enum mcg_hold) and its link, why, and the error. Returns
 * whether anything changed; the caller tells listeners.
 */
static bool group_set(struct mcg_group *g, u8 hold, u8 link, u8 reason,
		      int err)
{
	if (g->hold == hold && g->link == link && g->reason == reason &&
	    g->error == err)
		return false;
	g->hold = hold;
	g->link = link;
	g->reason = reason;
	g->error = err;
	group_changed(g);
	return true;
}

/* group_set() and, if anything changed, GROUP_STATE_NTF. */
static void group_transition(struct mcg_group *g, u8 hold, u8 link,
			     u8 reason, int err)
{
	if (group_set(g, hold, link, reason, err))
		mcg_group_event(g, IB_MCG_CMD_GROUP_STATE_NTF, reason);
}

/**
 * mcg_group_set_link() - a backend's report of a group's link state
 * @g: the group
 * @link: IB_MCG_STATE_JOINING, _JOINED, _RETRY_WAIT or _DETACHED
 * @reason: why (enum ib_mcg_reason)
 * @err: the error that caused it, a positive errno, or 0
 *
 * Record it and tell listeners, among them a library waiting for the
 * outcome of its JOIN (GROUP_STATE_NTF). Nothing happens if link,
 * reason and error are unchanged. Whether anyone holds the group is not
 * the backend's to say: a lingering group stays lingering.
 *
 * Context: under mcg_lock; may sleep.
 */
void mcg_group_set_link(struct mcg_group *g, u8 link, u8 reason, int err)
{
	group_transition(g, g->hold, link, reason, err);
}

static u32 owner_hash(const char *name)
{
	return jhash(name, strlen(name), 0);
}

/**
 * mcg_owner_find() - look an owner up by name
 * @name: the owner's name
 *
 * Context: under mcg_lock.
 * Return: the owner, or NULL if it holds nothing.
 */
struct mcg_owner *mcg_owner_find(const char *name)
{
	struct mcg_owner *o;

	hash_for_each_possible(mcg_owners, o, node, owner_hash(name))
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

static u8 holders_union(const struct mcg_group *g)
{
	return mcg_holders_union(&g->holders);
}

static u32 bound_hash(const struct net *net, u32 portid)
{
	return hash_ptr(net, 32) ^ portid;
}

/* Under mcg_lock or mcg_bound_lock: writers hold both. */
static struct mcg_bound *bound_find(const struct mcg_sock *sock)
{
	struct mcg_bound *b;

	hash_for_each_possible(mcg_bound_hash, b, node,
			       bound_hash(sock->net, sock->portid))
		if (mcg_sock_eq(&b->sock, sock))
			return b;
	return NULL;
}

/**
 * mcg_has_bound() - does a socket of (@net, @portid) have bound holds?
 * @net: the socket's network namespace
 * @portid: its netlink portid
 *
 * Lets the netlink notifier skip sockets without bound holds without
 * waiting for mcg_lock.
 *
 * Context: any context; takes mcg_bound_lock (a spinlock).
 * Return: true if a socket of (@net, @portid), dead or alive, has one.
 */
bool mcg_has_bound(const struct net *net, u32 portid)
{
	struct mcg_bound *b;
	bool ret = false;

	spin_lock(&mcg_bound_lock);
	hash_for_each_possible(mcg_bound_hash, b, node,
			       bound_hash(net, portid))
		if (b->sock.net == net && b->sock.portid == portid) {
			ret = true;
			break;
		}
	spin_unlock(&mcg_bound_lock);
	return ret;
}

/*
 * A socket's first bound hold pins the struct sock that names it, its
 * last one unpins it (see struct mcg_sock): it must not be freed, and its
 * address reused by a new socket, while holds name it.
 */
static void sock_pin(struct mcg_sock *sock)
{
	sock_hold(sock->token);
}

static void sock_unpin(struct mcg_sock *sock)
{
	sock_put(sock->token);
}

static struct mcg_ucount *ucount_find(kuid_t uid)
{
	struct mcg_ucount *uc;

	hash_for_each_possible(mcg_ucounts, uc, node, __kuid_val(uid))
		if (uid_eq(uc->uid, uid))
			return uc;
	return NULL;
}

static unsigned int ucount_holds(kuid_t uid)
{
	struct mcg_ucount *uc = ucount_find(uid);

	return uc ? uc->holds : 0;
}

/*
 * Makes sure @uid has an entry for ucount_charge(): a new one from
 * @spare[] (allocated by the caller, GFP_KERNEL_ACCOUNT) if needed.
 */
static int ucount_prepare(kuid_t uid, struct mcg_ucount **spare)
{
	if (ucount_find(uid))
		return 0;
	if (!*spare) {
		*spare = kzalloc(sizeof(**spare), GFP_KERNEL_ACCOUNT);
		if (!*spare)
			return -ENOMEM;
	}
	return 0;
}

static void ucount_charge(kuid_t uid, struct mcg_ucount **spare)
{
	struct mcg_ucount *uc = ucount_find(uid);

	if (!uc) {
		uc = *spare;
		*spare = NULL;
		uc->uid = uid;
		hash_add(mcg_ucounts, &uc->node, __kuid_val(uid));
	}
	uc->holds++;
}

static void ucount_uncharge(kuid_t uid)
{
	struct mcg_ucount *uc = ucount_find(uid);

	if (WARN_ON_ONCE(!uc))
		return;
	if (!--uc->holds) {
		hash_del(&uc->node);
		kfree(uc);
	}
}

/*
 * Links @h, a new hold of @g that @req asked for. @b is a preallocated
 * mcg_bound for a bound hold of a socket that has none yet; it is used
 * (and *@b cleared) or left to the caller to free.
 */
static void holder_link(struct mcg_group *g, struct mcg_holder *h,
			const struct mcg_join_req *req, struct mcg_bound **b,
			struct mcg_ucount **spare)
{
	h->group = g;
	h->id = ++mcg_holder_ids;
	list_add_tail(&h->owner_node, &h->o->holders);
	h->o->nholds++;
	if (h->unpriv) {
		ucount_charge(h->uid, &spare[0]);
		if (!uid_eq(h->charge_uid, h->uid))
			ucount_charge(h->charge_uid, &spare[1]);
		mcg_unpriv_holds++;
	}
	/* In id order: dumps resume a holder list after an id. */
	list_add_tail(&h->node, &g->holders);
	g->nholders++;
	g->create_js = mcg_holders_create_union(&g->holders);
	g->port->nholders++;
	if (h->flags & IB_MCG_F_BOUND) {
		spin_lock(&mcg_bound_lock);
		h->bound = bound_find(&req->nl_sock);
		if (!h->bound) {
			h->bound = *b;
			*b = NULL;
			INIT_LIST_HEAD(&h->bound->holders);
			h->bound->sock = req->nl_sock;
			sock_pin(&h->bound->sock);
			hash_add(mcg_bound_hash, &h->bound->node,
				 bound_hash(req->nl_sock.net,
					    req->nl_sock.portid));
		}
		list_add_tail(&h->bound_node, &h->bound->holders);
		spin_unlock(&mcg_bound_lock);
	}
	atomic64_inc(&g->port->joins);
	group_changed(g);
}

/* Unlinks and frees @h, tells listeners why; the caller settles @g. */
static void holder_drop(struct mcg_group *g, struct mcg_holder *h, u8 reason)
{
	struct mcg_bound *b = NULL;

	list_del(&h->owner_node);
	if (h->unpriv) {
		ucount_uncharge(h->uid);
		if (!uid_eq(h->charge_uid, h->uid))
			ucount_uncharge(h->charge_uid);
		mcg_unpriv_holds--;
	}
	h->o->nholds--;
	list_del(&h->node);
	g->nholders--;
	/* A lingering group re-joins as its last holders joined. */
	if (g->nholders)
		g->create_js = mcg_holders_create_union(&g->holders);
	g->port->nholders--;
	if (h->bound) {
		b = h->bound;
		spin_lock(&mcg_bound_lock);
		list_del(&h->bound_node);
		if (list_empty(&b->holders))
			hash_del(&b->node);
		else
			b = NULL;	/* the socket has other bound holds */
		spin_unlock(&mcg_bound_lock);
	}
	atomic64_inc(&g->port->leaves);
	group_changed(g);
	holder_event(g, IB_MCG_CMD_HOLDER_DEL_NTF, reason, h);
	/* The socket (h->bound) was the holder's, in the notification. */
	if (b) {
		sock_unpin(&b->sock);
		kfree(b);
	}
	/* The owner's name was the holder's, in the notification. */
	if (!h->o->nholds) {
		hash_del(&h->o->node);
		kfree(h->o);
	}
	kmem_cache_free(mcg_holder_cache, h);
}

static void group_free(struct mcg_group *g, u8 reason)
{
	struct mcg_port *port = g->port;

	port->backend->update(g, 0, NULL);
	g->join_state = 0;
	/* Its MGID tells where it is: node and unkeyed_node share room. */
	if (mcg_mgid_is_zero(&g->mgid))
		list_del(&g->unkeyed_node);
	else
		rb_erase(&g->node, &port->groups);
	port->ngroups--;
	group_set(g, MCG_HOLD_RELEASED, g->link, reason, g->error);
	mcg_group_event(g, IB_MCG_CMD_GROUP_DEL_NTF, reason);
	mcg_group_put(g);
}

/* Keeps the membership of a group without holders for @ms. */
static void group_linger(struct mcg_group *g, u8 reason, u32 ms)
{
	struct mcg_port *port = g->port;

	g->linger_until = jiffies + msecs_to_jiffies(ms);
	if (!delayed_work_pending(&port->linger_work) ||
	    time_before(g->linger_until, port->linger_next)) {
		port->linger_next = g->linger_until;
		mod_delayed_work(mcg_wq, &port->linger_work,
				 g->linger_until - jiffies);
	}
	/* Held before: the state changes, GROUP_STATE_NTF goes. */
	group_transition(g, MCG_HOLD_LINGERING, g->link, reason, g->error);
}

/* Milliseconds left of root's linger time that users took back, or 0. */
static u32 keep_left_ms(const struct mcg_group *g)
{
	u64 now = ktime_get_boottime_ns();

	if (now >= g->keep_until_ns)
		return 0;
	return max_t(u32, 1, div_u64(g->keep_until_ns - now, NSEC_PER_MSEC));
}

/*
 * After holders left: shrink the backend membership to the new union, or,
 * if nobody holds the group any more, let it linger or release it. Only
 * holders leaving of their own accord (not a device or the module going
 * away) start a linger. Returns true if @g was freed. Shrinking and
 * releasing never fail in a backend.
 */
static bool group_settle(struct mcg_group *g, u8 reason)
{
	u8 js = holders_union(g);
	u32 ms = g->linger_ms;
	int ret;

	if (!js && g->keep_js) {
		/*
		 * Users held root's lingering group: it lingers again as root
		 * left it, for what was left of its linger time.
		 */
		ms = keep_left_ms(g);
		/* Giving up the users' join states: shrinking never fails. */
		if (ms && g->keep_js != g->join_state) {
			g->port->backend->update(g, g->keep_js, NULL);
			g->join_state = g->keep_js;
		}
		g->keep_js = 0;
		if (!ms) {
			group_free(g, reason);
			return true;
		}
	}
	if (!js) {
		if (mcg_settle_lingers(ms, g->hold == MCG_HOLD_LINGERING, reason,
				       !mcg_mgid_is_zero(&g->mgid))) {
			group_linger(g, reason, ms);
			return false;
		}
		group_free(g, reason);
		return true;
	}
	js |= g->keep_js;
	if (js != g->join_state) {
		ret = g->port->backend->update(g, js, NULL);
		g->join_state = js;
		group_changed(g);
		/*
		 * What is left may be held already: a group that waited only
		 * for the join states given up is joined.
		 */
		if (!ret && (g->link == IB_MCG_STATE_JOINING ||
			     g->link == IB_MCG_STATE_RETRY_WAIT))
			mcg_group_set_link(g, IB_MCG_STATE_JOINED, reason, 0);
	}
	return false;
}

/**
 * mcg_linger_work() - release the port's groups whose linger time is over
 * @work: the port's linger_work
 *
 * Frees every lingering group whose time is up (LINGER_EXPIRED) and
 * schedules itself again for the next one. Does nothing once the port is
 * dead.
 *
 * Context: work item on mcg_wq; takes mcg_lock; may sleep.
 */
void mcg_linger_work(struct work_struct *work)
{
	struct mcg_port *port = container_of(to_delayed_work(work),
					     struct mcg_port, linger_work);
	unsigned long now = jiffies, next = 0;
	bool more = false;
	struct rb_node *n;

	mutex_lock(&mcg_lock);
	if (port->dead)
		goto out;
	n = rb_first(&port->groups);
	while (n) {
		struct mcg_group *g = rb_entry(n, struct mcg_group, node);

		n = rb_next(n);
		if (g->hold != MCG_HOLD_LINGERING)
			continue;
		if (time_after_eq(now, g->linger_until)) {
			atomic64_inc(&port->linger_expired);
			group_free(g, IB_MCG_REASON_LINGER_EXPIRED);
		} else if (!more || time_before(g->linger_until, next)) {
			next = g->linger_until;
			more = true;
		}
	}
	if (more && (!delayed_work_pending(&port->linger_work) ||
		     time_before(next, port->linger_next))) {
		port->linger_next = next;
		mod_delayed_work(mcg_wq, &port->linger_work, next - now);
	}
out:
	mutex_unlock(&mcg_lock);
}

/* Is @h bound to the socket @sock? */
static bool holder_of_sock(const struct mcg_holder *h,
			   const struct mcg_sock *sock)
{
	return h->bound && mcg_sock_eq(&h->bound->sock, sock);
}

/*
 * Is @h a hold of @o with @join_state (any if 0) and, if @sock is given,
 * bound to that socket? What a LEAVE drops. Owners are interned (struct
 * mcg_owner, one per name): a name is looked up once, where the request
 * comes in, and a NULL owner (nobody by that name holds anything)
 * matches no hold.
 */
static bool holder_matches(const struct mcg_holder *h,
			   const struct mcg_owner *o, u8 join_state,
			   const struct mcg_sock *sock)
{
	return h->o == o && (!join_state || h->join_state == join_state) &&
	       (!sock || holder_of_sock(h, sock));
}

/* Does @o hold @g with @join_state (any join state if 0) [on @sock]? */
static bool holder_held(struct mcg_group *g, const struct mcg_owner *o,
			u8 join_state, const struct mcg_sock *sock)
{
	struct mcg_holder *h;

	list_for_each_entry(h, &g->holders, node)
		if (holder_matches(h, o, join_state, sock))
			return true;
	return false;
}

/**
 * mcg_holder_find() - an owner's hold of a group with a join state
 * @g: the group
 * @o: the owner (mcg_owner_find()), or NULL
 * @join_state: the exact join state of the hold
 *
 * Context: under mcg_lock.
 * Return: the holder, or NULL.
 */
struct mcg_holder *mcg_holder_find(struct mcg_group *g,
				   const struct mcg_owner *o, u8 join_state)
{
	struct mcg_holder *h;

	list_for_each_entry(h, &g->holders, node)
		if (h->o == o && h->join_state == join_state)
			return h;
	return NULL;
}

/*
 * The hold a JOIN asks for again, if any. Every process of a user holds
 * as the one owner "uid:N", each with bound holds of its own socket: an
 * unprivileged join finds only its own socket's hold and takes a new one
 * beside those of the user's other sockets (it still finds a hold taken
 * with CAP_NET_ADMIN, and is refused as before). Any other owner has at
 * most one hold per join state on a group.
 */
static struct mcg_holder *join_holder_find(struct mcg_group *g,
					   const struct mcg_owner *o,
					   const struct mcg_join_req *req)
{
	struct mcg_holder *h;

	if (!req->unpriv)
		return mcg_holder_find(g, o, req->join_state);
	list_for_each_entry(h, &g->holders, node)
		if (h->o == o && h->join_state == req->join_state &&
		    (!h->unpriv || holder_of_sock(h, &req->nl_sock)))
			return h;
	return NULL;
}

/* Refuses a join that would exceed the port's budget or the owner's limit. */
static int join_limits(const struct mcg_join_req *req,
		       const struct mcg_owner *o, bool new_group,
		       struct netlink_ext_ack *extack)
{
	unsigned int max = READ_ONCE(mcg_user_max_holds);
	int err;

	if (req->unpriv) {
		err = mcg_user_limit(ucount_holds(req->uid), max, extack);
		if (!err)
			err = mcg_user_limits_more(!uid_eq(req->charge_uid,
							   req->uid),
						   ucount_holds(req->charge_uid),
						   mcg_unpriv_holds, max,
						   READ_ONCE(mcg_user_max_holds_total),
						   extack);
		if (err)
			return err;
	}
	return mcg_join_limits(new_group, req->port->ngroups,
			       READ_ONCE(mcg_max_groups), o ? o->nholds : 0,
			       READ_ONCE(mcg_max_owner_holds), extack);
}

static struct mcg_group *group_new(const struct mcg_join_req *req, gfp_t gfp)
{
	const struct mcg_backend_ops *ops = req->port->backend;
	struct mcg_group *g = kmem_cache_zalloc(*ops->group_cache, gfp);

	if (!g)
		return NULL;
	g->id = mcg_next_group_id++;
	g->port = req->port;
	g->mgid = req->mgid;
	g->rec.qkey = req->has_qkey ? req->qkey : IB_MCG_DEFAULT_QKEY;
	g->linger_ms = req->has_linger ? req->linger_ms : READ_ONCE(linger_ms);
	g->create = req->create;
	/*
	 * A user's group gives nothing to others: no parameters (a user's
	 * join cannot give any to a new group, mcg_join()) and no linger
	 * time, not even the default one, until root holds it.
	 */
	if (req->unpriv) {
		g->provisional = true;
		g->linger_ms = 0;
		g->user_sa = true;
		g->sa_uid = req->charge_uid;
	}
	g->hold = MCG_HOLD_HELD;
	g->link = IB_MCG_STATE_JOINING;
	g->reason = IB_MCG_REASON_JOIN;
	kref_init(&g->ref);
	INIT_LIST_HEAD(&g->holders);
	if (ops->group_init)
		ops->group_init(g);
	return g;
}

/**
 * mcg_join() - take a hold of a group for an owner (a JOIN)
 * @req: the request, checked by netlink.c
 * @out: the group held, on success
 * @hout: the hold, on success: the new one, or the owner's existing hold
 *        with the same join state (a repeated JOIN, which may update the
 *        linger time)
 * @extack: where a refusal's message goes
 *
 * Finds or creates the group, refuses what the request may not do
 * (parameters from a user, a Q_Key or create parameters that differ, the
 * limits), and asks the backend (ops->update) for the membership the
 * holders now want. A synchronous backend holds it on return; one that
 * returns MCG_UPDATE_PENDING reports the outcome later through
 * mcg_group_set_link() or mcg_group_refuse()/mcg_group_abandon().
 * Sends GROUP_NEW_NTF or GROUP_STATE_NTF, then HOLDER_NEW_NTF.
 *
 * Context: under mcg_lock; may sleep (allocates, the backend, notifies).
 * Return: 0, or a negative errno with @extack set; on error nothing
 * changed (the group keeps what it held).
 */
int mcg_join(const struct mcg_join_req *req, struct mcg_group **out,
	     struct mcg_holder **hout, struct netlink_ext_ack *extack)
{
	struct mcg_port *port = req->port;
	struct mcg_group *g, *new_group = NULL;
	struct mcg_ucount *spare[2] = { NULL, NULL };
	struct mcg_owner *o, *new_owner = NULL;
	struct mcg_bound *new_bound = NULL;
	struct mcg_holder *h;
	gfp_t gfp;
	u8 want, link, old_js;
	bool adopt = false, lingering, old_user_sa, user_create = false;
	struct mcg_join_req ureq;
	int err, ret, link_err;

	lockdep_assert_held(&mcg_lock);

	o = mcg_owner_find(req->owner);
	/* An all-zero MGID always asks the SA for a new group. */
	g = mcg_mgid_is_zero(&req->mgid) ? NULL :
					   mcg_group_find(port, &req->mgid);
	/*
	 * A user never gives a group its parameters: it may repeat those of
	 * a group root holds (or left lingering), nothing else. Refused
	 * before the backend compares them with another client's group,
	 * whose values a refusal would name.
	 */
	if (req->unpriv && (req->has_qkey || req->create.create) &&
	    (!g || g->provisional)) {
		NL_SET_ERR_MSG(extack,
			       "without CAP_NET_ADMIN a join cannot give a group its parameters (Q_Key, create parameters, an SA-assigned MGID): join without them, or root must hold the group with them first");
		return -EPERM;
	}
	/*
	 * Except in a range root allowed (user_create): there a user's join
	 * of a group nobody holds creates it at the SA, with the default
	 * parameters, and every user's hold of it is one of its creators.
	 */
	if (req->unpriv && port->backend->id == IB_MCG_BACKEND_IB_SA &&
	    (g ? g->user_create : user_may_create(&req->mgid))) {
		ureq = *req;
		ureq.create = (struct mcg_create){ .create = true,
						   .pkey = 0xffff };
		req = &ureq;
		user_create = true;
	}
	err = port->backend->check(port, req, extack);
	if (err)
		return err;
	/*
	 * Root's first hold of a group only users held gives it root's
	 * Q_Key where the Q_Key is ours (RoCE), or is not known yet.
	 */
	if (g && !req->unpriv && g->provisional)
		adopt = port->backend->local_qkey || !g->rec.valid;
	if (g) {
		if (req->has_qkey && g->rec.qkey != req->qkey && !adopt) {
			NL_SET_ERR_MSG(extack,
				       "group exists with a different Q_Key");
			return -EINVAL;
		}
		if (!adopt && !mcg_create_matches(&g->rec, &req->create)) {
			NL_SET_ERR_MSG(extack,
				       "group exists with different create parameters");
			return -EINVAL;
		}
		h = join_holder_find(g, o, req);
		if (h) {
			err = mcg_rejoin_check(h, req, extack);
			if (err)
				return err;
			/* The latest join that gives a linger time sets it. */
			if (req->has_linger)
				g->linger_ms = req->linger_ms;
			*out = g;
			*hout = h;
			return 0;
		}
	}
	err = join_limits(req, o, !g, extack);
	if (err)
		return err;

	/* What a user's holds take is charged to the user's memory cgroup. */
	gfp = req->unpriv ? GFP_KERNEL_ACCOUNT : GFP_KERNEL;
	h = kmem_cache_zalloc(mcg_holder_cache, gfp);
	if (!h)
		return -ENOMEM;
	h->join_state = req->join_state;
	/* A user's parameters only repeat root's: it re-joins by MGID. */
	h->create = user_create ||
		    (!req->unpriv && (req->create.create || req->create.qkey));
	h->unpriv = req->unpriv;
	h->uid = req->uid;
	h->charge_uid = req->charge_uid;
	if (req->unpriv &&
	    (ucount_prepare(h->uid, &spare[0]) ||
	     (!uid_eq(h->charge_uid, h->uid) &&
	      ucount_prepare(h->charge_uid, &spare[1]))))
		goto nomem;
	BUILD_BUG_ON(__IB_MCG_F_ALL > U8_MAX);
	h->flags = req->flags;	/* netlink.c allows only __IB_MCG_F_ALL */
	h->since_ns = ktime_get_boottime_ns();
	/* The socket's first bound hold: its index entry, allocated now. */
	if ((h->flags & IB_MCG_F_BOUND) && !bound_find(&req->nl_sock)) {
		new_bound = kzalloc(sizeof(*new_bound), gfp);
		if (!new_bound)
			goto nomem;
	}
	h->o = o;
	if (!h->o) {
		new_owner = kzalloc(sizeof(*new_owner), gfp);
		if (!new_owner)
			goto nomem;
		strscpy(new_owner->name, req->owner, sizeof(new_owner->name));
		INIT_LIST_HEAD(&new_owner->holders);
		h->o = new_owner;
	}
	if (!g) {
		new_group = group_new(req, gfp);
		if (!new_group)
			goto nomem;
		new_group->user_create = user_create;
		g = new_group;
	}

	/*
	 * A lingering group has no holders: what it holds is only kept for
	 * a later join, which asks for exactly its own join state - unless
	 * the join is a user's, which must not drop root's membership: the
	 * group keeps it (keep_js) while users hold it.
	 */
	lingering = g->hold == MCG_HOLD_LINGERING;
	want = mcg_join_want(g->join_state, req->join_state,
			     lingering && !req->unpriv);
	link = g->link;
	link_err = g->error;
	old_js = g->join_state;
	old_user_sa = g->user_sa;
	/* Root's join makes the group's SA requests root's, from now on. */
	if (!req->unpriv)
		g->user_sa = false;
	ret = 0;
	/*
	 * A lingering group is asked too: it may have lost its membership
	 * while nobody held it (an SM failover), and is then joining again.
	 * So is a user's group root now joins, unless joined: a join of it
	 * that waits for the users' turn is root's now (sent at once).
	 */
	if (new_group || want != g->join_state ||
	    g->link == IB_MCG_STATE_DETACHED || lingering ||
	    (old_user_sa != g->user_sa && g->link != IB_MCG_STATE_JOINED)) {
		ret = port->backend->update(g, want, extack);
		if (ret < 0) {
			atomic64_inc(&port->join_errors);
			g->user_sa = old_user_sa;
			err = ret;
			goto err_free;
		}
		if (!ret) {
			/* Held now (a synchronous backend). */
			link = IB_MCG_STATE_JOINED;
			link_err = 0;
		} else if (ret == MCG_UPDATE_JOINING) {
			link = IB_MCG_STATE_JOINING;
		}
		/* MCG_UPDATE_PENDING: on its way already, as the link says. */
	}
	if (req->has_linger)
		g->linger_ms = req->linger_ms;
	g->join_state = want;
	/* The first creator of a group joined by MGID gives its parameters. */
	if (h->create && !g->create.create && !g->create.qkey)
		g->create = req->create;
	if (lingering && req->unpriv) {
		g->keep_js = old_js;
		g->keep_until_ns = ktime_get_boottime_ns() +
			(u64)jiffies_to_msecs(max_t(long, 0, g->linger_until -
							    jiffies)) *
			NSEC_PER_MSEC;
	} else if (!req->unpriv) {
		/* Root holds it: the group is root's, as any other. */
		g->keep_js = 0;
		if (g->provisional && !req->has_linger)
			g->linger_ms = READ_ONCE(linger_ms);
		if (adopt && req->has_qkey)
			g->rec.qkey = req->qkey;
		g->provisional = false;
	}
	if (new_owner)
		hash_add(mcg_owners, &new_owner->node,
			 owner_hash(new_owner->name));
	if (new_group) {
		group_set(g, MCG_HOLD_HELD, link, IB_MCG_REASON_JOIN, link_err);
		group_insert(port, g);
		mcg_group_event(g, IB_MCG_CMD_GROUP_NEW_NTF, IB_MCG_REASON_JOIN);
	} else if (link != g->link || lingering) {
		if (lingering)
			atomic64_inc(&port->linger_hits);
		group_transition(g, MCG_HOLD_HELD, link, IB_MCG_REASON_JOIN,
				 link_err);
	}
	holder_link(g, h, req, &new_bound, spare);
	kfree(new_bound);	/* NULL unless already there */
	kfree(spare[0]);	/* NULL unless not needed */
	kfree(spare[1]);
	holder_event(g, IB_MCG_CMD_HOLDER_NEW_NTF, IB_MCG_REASON_JOIN, h);
	*out = g;
	*hout = h;
	return 0;

nomem:
	err = -ENOMEM;
err_free:
	kfree(spare[0]);
	kfree(spare[1]);
	kfree(new_bound);
	if (new_group)
		group_dealloc(new_group);
	kfree(new_owner);
	kmem_cache_free(mcg_holder_cache, h);
	return err;
}

/**
 * mcg_leave_group() - drop an owner's holds of a group (a LEAVE)
 * @g: the group
 * @o: the owner (mcg_owner_find()); NULL (nobody by that name holds
 *     anything) matches nothing
 * @join_state: the join state of the hold to drop, or 0 for all of them
 * @sock: if not NULL, drop only the holds bound to this socket (a LEAVE
 *        without CAP_NET_ADMIN)
 * @reason: the reason the notifications carry
 * @out: on success, the group or, if that was its last holder and it has
 *       been released, @snap
 * @snap: filled with a copy of the group as released, without holders
 * @extack: where the refusal's message goes
 *
 * Sends a HOLDER_DEL_NTF for each hold dropped; the group then settles:
 * it lingers, is released, or asks its backend for less.
 *
 * Context: under mcg_lock; may sleep.
 * Return: 0, or -ENOENT (with @extack) if the owner holds nothing
 * matching; then nothing changed.
 */
int mcg_leave_group(struct mcg_group *g, const struct mcg_owner *o,
		    u8 join_state,
		    const struct mcg_sock *sock, u8 reason,
		    struct mcg_group **out, struct mcg_group *snap,
		    struct netlink_ext_ack *extack)
{
	struct mcg_holder *h, *tmp;
	unsigned int n = 0;

	lockdep_assert_held(&mcg_lock);

	/*
	 * The owner is freed with its last hold (holder_drop()): @o is then
	 * only compared with the holds left, none of which can be its.
	 */
	list_for_each_entry_safe(h, tmp, &g->holders, node) {
		if (!holder_matches(h, o, join_state, sock))
			continue;
		holder_drop(g, h, reason);
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
	snap->hold = MCG_HOLD_RELEASED;
	snap->reason = reason;
	*out = group_settle(g, reason) ? snap : g;
	return 0;
}

/*
 * What a LEAVE without CAP_NET_ADMIN on @g would find besides the holds
 * of its own socket @sock: MCG_LEAVE_ROOT if a hold of @owner with
 * @join_state (every join state if 0) was taken with CAP_NET_ADMIN (root
 * may name "uid:N" too), MCG_LEAVE_OTHER if one is the user's own but
 * bound to another of its sockets, and MCG_LEAVE_MINE if the socket
 * holds one itself.
 */
#define MCG_LEAVE_MINE	BIT(0)
#define MCG_LEAVE_ROOT	BIT(1)
#define MCG_LEAVE_OTHER	BIT(2)

static unsigned int check_unpriv(struct mcg_group *g,
				 const struct mcg_owner *o,
				 u8 join_state, kuid_t uid,
				 const struct mcg_sock *sock)
{
	struct mcg_holder *h;
	unsigned int found = 0;

	list_for_each_entry(h, &g->holders, node) {
		if (!holder_matches(h, o, join_state, NULL))
			continue;
		if (holder_of_sock(h, sock) && h->unpriv && uid_eq(h->uid, uid))
			found |= MCG_LEAVE_MINE;
		else if (!h->unpriv || !uid_eq(h->uid, uid))
			found |= MCG_LEAVE_ROOT;
		else
			found |= MCG_LEAVE_OTHER;
	}
	return found;
}

/**
 * mcg_leave_check_unpriv() - may a LEAVE without CAP_NET_ADMIN go ahead?
 * @port: the port
 * @mgid: the group's MGID; all zero for all of the port's groups waiting
 *        for an SA-assigned MGID
 * @o: the owner (mcg_owner_find()), or NULL
 * @join_state: the join state to drop, or 0 for every join state
 * @uid: the requester's uid
 * @sock: the requester's socket
 * @extack: where the refusal's message goes
 *
 * Refuses, before anything changes, a LEAVE without CAP_NET_ADMIN that
 * finds none of its own socket's holds but other holds of @owner: those
 * root took (even for "uid:N"), or the user's other processes' (each
 * socket's holds are its own: they go when that socket closes). The
 * LEAVE then drops only holds of @sock (mcg_leave()); whether anything
 * matches at all is mcg_leave()'s to say. Looks at the group @mgid names,
 * or at all of the port's groups waiting for an SA-assigned MGID if it
 * is all zero.
 *
 * Context: under mcg_lock; does not sleep.
 * Return: 0 if the LEAVE may go on, -EPERM (with @extack) if not.
 */
int mcg_leave_check_unpriv(struct mcg_port *port, const union ib_gid *mgid,
			   const struct mcg_owner *o, u8 join_state, kuid_t uid,
			   const struct mcg_sock *sock,
			   struct netlink_ext_ack *extack)
{
	unsigned int found = 0;
	struct mcg_group *g;

	lockdep_assert_held(&mcg_lock);

	if (!mcg_mgid_is_zero(mgid)) {
		g = mcg_group_find(port, mgid);
		if (g)
			found = check_unpriv(g, o, join_state, uid, sock);
	} else {
		list_for_each_entry(g, &port->unkeyed, unkeyed_node)
			found |= check_unpriv(g, o, join_state, uid, sock);
	}
	if (found & MCG_LEAVE_MINE)
		return 0;
	if (found & MCG_LEAVE_ROOT) {
		NL_SET_ERR_MSG(extack,
			       "the hold was taken with CAP_NET_ADMIN: only CAP_NET_ADMIN may drop it");
		return -EPERM;
	}
	if (found & MCG_LEAVE_OTHER) {
		NL_SET_ERR_MSG(extack,
			       "without CAP_NET_ADMIN a LEAVE drops only the holds of its own socket: this hold is another process's (it goes when that process closes its socket or exits)");
		return -EPERM;
	}
	return 0;
}

/*
 * The groups of @port still waiting for an SA-assigned MGID have none
 * yet: an all-zero MGID names all of them. The reply describes the last
 * one the owner's holds were dropped on.
 */
static int leave_unkeyed(struct mcg_port *port, const struct mcg_owner *o,
			 u8 join_state, const struct mcg_sock *sock, u8 reason,
			 struct mcg_group **out, struct mcg_group *snap,
			 struct netlink_ext_ack *extack)
{
	struct mcg_group *g, *tmp;
	bool any = false;

	list_for_each_entry_safe(g, tmp, &port->unkeyed, unkeyed_node) {
		/* Only @g leaves the list: @tmp stays valid. */
		if (!holder_held(g, o, join_state, sock))
			continue;
		if (!mcg_leave_group(g, o, join_state, sock, reason, out,
				     snap, extack))
			any = true;
	}
	if (any)
		return 0;
	NL_SET_ERR_MSG(extack,
		       "owner holds no group waiting for an SA-assigned MGID on this port");
	return -ENOENT;
}

/**
 * mcg_leave() - mcg_leave_group() of the group an MGID names
 * @port: the port
 * @mgid: the MGID; an all-zero @mgid names the port's groups still
 *        waiting for an SA-assigned MGID
 * @o: as for mcg_leave_group()
 * @join_state: as for mcg_leave_group()
 * @sock: with @sock, only the holds bound to that socket are dropped
 * @reason: as for mcg_leave_group()
 * @out: as for mcg_leave_group(); for an all-zero @mgid the last group
 *       the owner's holds were dropped on
 * @snap: as for mcg_leave_group()
 * @extack: where the refusal's message goes
 *
 * Context: under mcg_lock; may sleep.
 * Return: 0, or -ENOENT (with @extack) if there is no such group or the
 * owner holds nothing matching; then nothing changed.
 */
int mcg_leave(struct mcg_port *port, const union ib_gid *mgid,
	      const struct mcg_owner *o, u8 join_state,
	      const struct mcg_sock *sock,
	      u8 reason, struct mcg_group **out, struct mcg_group *snap,
	      struct netlink_ext_ack *extack)
{
	struct mcg_group *g;

	lockdep_assert_held(&mcg_lock);

	if (mcg_mgid_is_zero(mgid))
		return leave_unkeyed(port, o, join_state, sock, reason,
				     out, snap, extack);
	g = mcg_group_find(port, mgid);
	if (!g) {
		NL_SET_ERR_MSG(extack, "no such group on this port");
		return -ENOENT;
	}
	return mcg_leave_group(g, o, join_state, sock, reason, out, snap,
			       extack);
}

/**
 * mcg_owner_release() - drop every hold of an owner (OWNER_RELEASE)
 * @o: the owner (mcg_owner_find()), or NULL: nothing to drop
 * @dev: only holds on this device, or NULL for every device
 * @port: only holds on this port, or NULL; takes precedence over @dev
 * @ent: filled with one entry per group the owner's holds were dropped
 *       on, in the order of the owner's holds
 * @max: room in @ent; @o->nholds is always enough
 * @holds: set to the number of holds dropped
 *
 * Groups are released by reference, never looked up by MGID: a group
 * still waiting for an SA-assigned MGID has none (all zero) yet. Each
 * group settles as after a LEAVE (reason OWNER_RELEASE): it lingers, is
 * released, or asks its backend for less. @o goes with its last hold.
 *
 * Context: under mcg_lock; may sleep.
 * Return: the entries filled in @ent.
 */
unsigned int mcg_owner_release(struct mcg_owner *o,
			       const struct mcg_device *dev,
			       const struct mcg_port *port,
			       struct mcg_released *ent, unsigned int max,
			       u32 *holds)
{
	struct mcg_holder *h, *oh, *next;
	struct mcg_group *g, snap;
	unsigned int n = 0;
	bool last;

	lockdep_assert_held(&mcg_lock);

	*holds = 0;
	/*
	 * One walk of the owner's holds, releasing each group at its first
	 * hold that matches the filter. That drops every hold of the owner
	 * on the group, so the walk's next hold is first moved past those
	 * that follow at once: it is on another group and stays. The owner
	 * goes with its last hold: the walk ends before.
	 */
	h = o ? list_first_entry(&o->holders, struct mcg_holder, owner_node) :
		NULL;
	while (h && n < max) {
		struct mcg_released *e = &ent[n];

		next = list_next_entry(h, owner_node);
		if (!mcg_hold_matches(h, dev, port)) {
			h = list_entry_is_head(next, &o->holders, owner_node) ?
			    NULL : next;
			continue;
		}
		g = h->group;
		while (!list_entry_is_head(next, &o->holders, owner_node) &&
		       next->group == g)
			next = list_next_entry(next, owner_node);
		last = list_entry_is_head(next, &o->holders, owner_node);
		memset(e, 0, sizeof(*e));
		list_for_each_entry(oh, &g->holders, node) {
			if (oh->o != o)
				continue;
			e->dropped |= oh->join_state;
			(*holds)++;
		}
		strscpy(e->dev_name, mcg_dev_name(g->port),
			sizeof(e->dev_name));
		e->dev_index = g->port->dev->ibdev->index;
		e->port = g->port->port_num;
		e->mgid = g->mgid;
		/* Cannot fail: the owner holds @g. */
		if (mcg_leave_group(g, o, 0, NULL, IB_MCG_REASON_OWNER_RELEASE,
				    &g, &snap, NULL))
			break;
		e->state = mcg_group_state(g);
		n++;
		h = last ? NULL : next;
	}
	return n;
}

static void group_release(struct mcg_group *g, u8 reason)
{
	struct mcg_holder *h, *tmp;

	list_for_each_entry_safe(h, tmp, &g->holders, node)
		holder_drop(g, h, reason);
	group_settle(g, reason);
}

/**
 * mcg_group_abandon() - release a group the fabric refused
 * @g: the group, which is freed
 * @reason: the reason the notifications carry
 * @err: the error, a positive errno
 *
 * The fabric refused a group that was never joined (the SA rejected its
 * record, or an SA-assigned MGID could not be had): holding it would only
 * retry a request that cannot succeed, so its holders are told and it is
 * released. The holders' HOLDER_DEL_NTFs carry @err, which a JOIN waiting
 * in libibmcg fails with. Called by a backend that finishes
 * asynchronously.
 *
 * Context: under mcg_lock; may sleep.
 */
void mcg_group_abandon(struct mcg_group *g, u8 reason, int err)
{
	struct mcg_holder *h, *tmp;

	g->error = err;
	list_for_each_entry_safe(h, tmp, &g->holders, node)
		holder_drop(g, h, reason);
	group_free(g, reason);
}

/**
 * mcg_group_refuse() - drop the holds of a join state the fabric refused
 * @g: the group
 * @join_state: the refused join state bit(s)
 * @reason: the reason the notifications carry
 * @err: the error, a positive errno
 *
 * The fabric refused @join_state of @g the first time it was asked for,
 * while the group may be held with other join states: only the holders
 * that asked for it are told and dropped (HOLDER_DEL_NTF with @reason and
 * @err, which a JOIN waiting in libibmcg fails with), and the group
 * settles to what the others hold (joined, if that is held already), or
 * is released if nobody else holds it. Called by a backend that
 * finishes asynchronously.
 *
 * Context: under mcg_lock; may sleep.
 */
void mcg_group_refuse(struct mcg_group *g, u8 join_state, u8 reason, int err)
{
	struct mcg_holder *h, *tmp;

	/* The group's last error, until it is joined again. */
	g->error = err;
	list_for_each_entry_safe(h, tmp, &g->holders, node)
		if (h->join_state & join_state)
			holder_drop(g, h, reason);
	group_settle(g, reason);
}

/**
 * mcg_port_release_all() - drop every group of a port
 * @port: the port, already marked dead
 * @reason: IB_MCG_REASON_UNLOAD or IB_MCG_REASON_DEVICE_REMOVED
 *
 * The device is going away (or the module is): drop everything, loudly
 * (one line in the kernel log if the port had groups).
 *
 * Context: under mcg_lock; may sleep.
 */
void mcg_port_release_all(struct mcg_port *port, u8 reason)
{
	unsigned int groups = port->ngroups, holders = port->nholders;
	struct rb_node *n;

	lockdep_assert_held(&mcg_lock);

	while ((n = rb_first(&port->groups)))
		group_release(rb_entry(n, struct mcg_group, node), reason);
	while (!list_empty(&port->unkeyed))
		group_release(list_first_entry(&port->unkeyed,
					       struct mcg_group, unkeyed_node),
			      reason);
	if (groups)
		pr_info("%s/%u: released %u group(s) held by %u holder(s): %s\n",
			mcg_dev_name(port), port->port_num, groups, holders,
			reason == IB_MCG_REASON_UNLOAD ? "module unloaded" :
			"device removed");
}

static void group_release_bound(struct mcg_group *g,
				const struct mcg_sock *sock)
{
	struct mcg_holder *h, *tmp;
	bool hit = false;

	list_for_each_entry_safe(h, tmp, &g->holders, node) {
		if (!holder_of_sock(h, sock))
			continue;
		holder_drop(g, h, IB_MCG_REASON_SOCKET_CLOSED);
		hit = true;
	}
	if (hit)
		group_settle(g, IB_MCG_REASON_SOCKET_CLOSED);
}

/**
 * mcg_release_bound() - release every hold bound to a netlink socket
 * @sock: the socket
 *
 * Context: under mcg_lock; may sleep.
 */
void mcg_release_bound(const struct mcg_sock *sock)
{
	struct mcg_holder *h;
	struct mcg_bound *b;

	lockdep_assert_held(&mcg_lock);

	/*
	 * Each round drops all of the socket's holds on one group; the
	 * socket's entry goes with its last hold, so look it up again.
	 */
	while ((b = bound_find(sock))) {
		h = list_first_entry(&b->holders, struct mcg_holder,
				     bound_node);
		group_release_bound(h->group, sock);
	}
}

/**
 * mcg_release_dead_bound() - release the bound holds of closed sockets
 * @net: the sockets' network namespace
 * @portid: the netlink portid NETLINK_URELEASE names
 *
 * NETLINK_URELEASE of (@net, @portid): release the holds of the sockets
 * of that portid that are dead. The portid was free before the
 * notification: a new socket that got it meanwhile keeps its holds.
 *
 * Context: under mcg_lock (the netlink notifier takes it); may sleep.
 */
void mcg_release_dead_bound(const struct net *net, u32 portid)
{
	struct mcg_sock sock;
	struct mcg_bound *b;
	bool found;

	lockdep_assert_held(&mcg_lock);

	do {
		found = false;
		hash_for_each_possible(mcg_bound_hash, b, node,
				       bound_hash(net, portid)) {
			if (b->sock.net != net || b->sock.portid != portid ||
			    !sock_flag((struct sock *)b->sock.token,
				       SOCK_DEAD))
				continue;
			/* Frees @b: the table is looked at again. */
			sock = b->sock;
			mcg_release_bound(&sock);
			found = true;
			break;
		}
	} while (found);
}

/**
 * mcg_port_resync() - bring a port's groups up to date with its link
 * @port: the port, not dead
 *
 * The port's link changed under us (RoCE netdev gone or back, GIDs
 * changed): ask the backend to hold every group again and report groups
 * that became detached or were re-attached. A lingering group that
 * cannot be held is freed.
 *
 * Context: under mcg_lock (the port's resync work); may sleep.
 */
void mcg_port_resync(struct mcg_port *port)
{
	struct rb_node *n;

	lockdep_assert_held(&mcg_lock);

	if (port->backend->refresh)
		port->backend->refresh(port);
	n = rb_first(&port->groups);
	while (n) {
		struct mcg_group *g = rb_entry(n, struct mcg_group, node);
		int err = port->backend->update(g, g->join_state, NULL);

		n = rb_next(n);
		if (err == MCG_UPDATE_PENDING || err == MCG_UPDATE_JOINING)
			continue;	/* the backend reports it itself */
		if (err && g->hold == MCG_HOLD_LINGERING)
			/* Nobody to keep it for. */
			group_free(g, IB_MCG_REASON_NETDEV_DOWN);
		else if (err && g->link != IB_MCG_STATE_DETACHED)
			mcg_group_set_link(g, IB_MCG_STATE_DETACHED,
					   IB_MCG_REASON_NETDEV_DOWN, -err);
		else if (!err && g->link == IB_MCG_STATE_DETACHED)
			mcg_group_set_link(g, IB_MCG_STATE_JOINED,
					   IB_MCG_REASON_NETDEV_UP, 0);
	}
}
