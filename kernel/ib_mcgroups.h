/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_mcgroups: private declarations shared by the module's files.
 *
 * Objects and their lifetimes:
 *
 *   mcg_device   one per ib_device, from ib_client add() to remove().
 *   mcg_port     one per port of a device; freed by the release of its
 *                sysfs kobject, after remove() has dropped every group.
 *   mcg_group    (port, MGID); lives while it has holders (or lingers).
 *                Refcounted: the port holds the reference; a request
 *                never sleeps with one (nothing in the kernel waits for
 *                the fabric: libibmcg waits for the notifications).
 *                From its backend's slab cache (ops->group_cache): an
 *                InfiniBand group is a struct mcg_ib_group_obj, a RoCE
 *                group a struct mcg_roce_group_obj, the group followed
 *                by its backend's state; other groups have none.
 *   mcg_ib_memb  one SA membership (join state bit) of an InfiniBand
 *                group, from the cache mcg_ib_memb: allocated when the
 *                group first wants that bit, freed with the group
 *                (ops->group_fini), so a group has only the ones it used.
 *   mcg_holder   (owner, join state) on a group; also listed on its
 *                mcg_owner, which lives while the owner holds anything.
 *
 * Locking:
 *
 *   mcg_lock (a mutex) protects the device list, every port's group tree and
 *   counts, every group and every holder. Netlink requests, the ib_client
 *   callbacks, port work and netlink socket release all take it, so the
 *   group layer reads as single-threaded code.
 *
 *   RTNL nests inside mcg_lock (mcg_lock -> rtnl_lock), taken by the RoCE
 *   backend to change IP multicast memberships. The netdevice notifier runs
 *   with RTNL held and therefore never takes mcg_lock: the state it touches
 *   (the RoCE port's netdev and which groups hold an IP membership) belongs
 *   to RTNL, and it defers everything else to the port's work item.
 *
 *   InfiniBand SA callbacks never take mcg_lock: ib_sa_free_multicast(),
 *   called with mcg_lock held, waits for them. They record their result
 *   under mcg_ib_lock (a spinlock) and queue work (backend_ib.c).
 *
 *   mcg_bound_lock (a spinlock, group.c) protects the index of bound holds
 *   by socket; it is changed under mcg_lock too, so code under mcg_lock
 *   reads it without the spinlock. The netlink notifier looks a closing
 *   socket up under the spinlock alone, so that closing a socket without
 *   bound holds never waits for mcg_lock.
 *
 *   Port counters are atomic64 and read by sysfs without any lock.
 */
#ifndef _IB_MCGROUPS_H
#define _IB_MCGROUPS_H

#include <linux/hrtimer.h>
#include <linux/kobject.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rbtree.h>
#include <linux/uidgid.h>
#include <linux/workqueue.h>
#include <rdma/ib_sa.h>
#include <rdma/ib_verbs.h>

#include "compat.h"
#include "pacer.h"
#include "../include/uapi/ib_mcgroups.h"

#define MCG_RECV_STATES (IB_MCG_JOIN_FULL | IB_MCG_JOIN_NON_MEMBER)

/* Bytes of our memory a group held once may take (mcg_cache_init()). */
#define MCG_GROUP_BUDGET 512

extern struct mutex mcg_lock;
extern struct list_head mcg_devices;
extern struct workqueue_struct *mcg_wq;
extern bool mcg_unloading;

/* The member record an application needs for ibv_attach_mcast() and its AH. */
struct mcg_rec {
	union ib_gid port_gid;
	u32 sgid_index;
	u32 qkey;
	u32 flow_label;
	u16 mlid;
	u16 prev_mlid;		/* IB: the MLID before the SA last gave
				 * another on a re-join, 0 if it never did
				 */
	u16 pkey;
	u8 mtu;
	u8 rate;
	u8 sl;
	u8 tclass;
	u8 hop_limit;
	bool valid;
};

struct mcg_port;
struct mcg_group;
struct mcg_join_req;

/* Create parameters of a JOIN (InfiniBand; RoCE takes only the Q_Key). */
#define MCG_HAS_MTU	BIT(0)
#define MCG_HAS_RATE	BIT(1)
#define MCG_HAS_HOP	BIT(2)
#define MCG_HAS_SCOPE	BIT(3)

struct mcg_create {
	bool create;		/* any create parameter given, or MGID 0 */
	bool qkey;		/* a Q_Key was given: a create on IB too */
	u8 has;			/* MCG_HAS_* */
	u16 pkey;
	u8 sl;
	u8 tclass;
	u8 mtu;
	u8 rate;
	u8 hop_limit;
	u8 scope;
	u32 flow_label;
};

/*
 * Returns of mcg_backend_ops.update besides 0 (held) and an error: the
 * backend completes later. MCG_UPDATE_JOINING: it asked the fabric for
 * more than the group holds, whose link is now JOINING (group.c records
 * it). MCG_UPDATE_PENDING: what is missing was asked for already (or waits
 * for a retry): the link is as it was.
 */
#define MCG_UPDATE_PENDING 1
#define MCG_UPDATE_JOINING 2

/**
 * struct mcg_backend_ops - a join backend: the fabric side of a port
 * @id: the backend's IB_MCG_BACKEND_*, as netlink reports it
 * @name: its name, as sysfs and debugfs show it
 * @port_init: set up the backend's state of @port (struct mcg_port's
 *	ib or roce). Called by the ib_client add() after the port's sysfs
 *	directory exists and before the port is reachable (it is not yet
 *	in dev->ports, no request or event can find it); mcg_lock not
 *	held; may sleep. Returns 0, or a negative errno: the port is then
 *	freed and the device's add() fails, without port_fini().
 * @port_fini: undo port_init(). Called by the ib_client remove() (or a
 *	failed add()) once the port is dead and every group of it has been
 *	released (update(g, 0) and group_fini() have run); mcg_lock not
 *	held, so it may wait for the backend's work items, which take it.
 *	May sleep. After it returns, the backend must make no callback for
 *	the port.
 * @check: is the JOIN @req something this port can hold (its MGID,
 *	join state, create parameters)? Called by mcg_join() under
 *	mcg_lock, before anything changes; may sleep. Returns 0, or a
 *	negative errno with @extack's message set.
 * @update: make the fabric membership of @g match @join_state (0
 *	releases it) and fill g->rec. Called under mcg_lock by group.c
 *	(mcg_join(), a LEAVE, linger expiry, mcg_port_resync()); may
 *	sleep. Returns 0 once held, or MCG_UPDATE_JOINING or
 *	MCG_UPDATE_PENDING if the backend finishes asynchronously: it then
 *	reports the outcome later, from its own work under mcg_lock, through
 *	mcg_group_set_link() (the group's link state and why),
 *	mcg_group_refuse() (a join state the fabric refused the first time),
 *	mcg_group_abandon() (a group that can never be held), and
 *	mcg_group_rekey() for a group whose MGID the SA assigns. It writes
 *	no state of the group itself.
 *	On error (negative errno, @extack set where given)
 *	the previous membership is still held, except that a release
 *	(join_state 0) never fails. @g may be freed right after
 *	update(g, 0): the backend must not call back for it afterwards.
 * @refresh: optional; the port's link may have changed (IB event,
 *	netdev event), before its groups are brought up to date. Called by
 *	mcg_port_resync() under mcg_lock; may sleep; reports nothing
 *	itself.
 * @rejoin: optional (REJOIN); join @g's membership again although the
 *	backend believes it held, keeping the holders. Called by netlink.c
 *	under mcg_lock; may sleep. Returns 0 (the outcome is reported as
 *	for update()), or a negative errno with @extack's message set.
 * @group_cache: the slab cache its groups come from, whose objects hold
 *	struct mcg_group followed by the backend's state of the group
 * @group_init: optional; initialize the backend's state of a new group,
 *	just allocated (zeroed) under mcg_lock, before its first update()
 *
 * Every op but port_init() and port_fini() runs with mcg_lock held; the
 * backend may take RTNL (mcg_lock -> rtnl_lock) and its own locks inside
 * it. Callbacks from the fabric (SA, netdev notifier) must not take
 * mcg_lock: they defer to a work item, which does (the locking notes
 * at the top of this file).
 */
struct mcg_backend_ops {
	u8 id;
	const char *name;
	int (*port_init)(struct mcg_port *port);
	void (*port_fini)(struct mcg_port *port);
	int (*check)(struct mcg_port *port, const struct mcg_join_req *req,
		     struct netlink_ext_ack *extack);
	int (*update)(struct mcg_group *g, u8 join_state,
		      struct netlink_ext_ack *extack);
	void (*refresh)(struct mcg_port *port);
	int (*rejoin)(struct mcg_group *g, struct netlink_ext_ack *extack);
	struct kmem_cache **group_cache;	/* its groups' slab cache */
	/**
	 * @local_qkey: the Q_Key in g->rec is the group's own, not the
	 * fabric's (RoCE): root's first hold of a group only users held may
	 * give another.
	 */
	bool local_qkey;
	void (*group_init)(struct mcg_group *g);	/* optional */
	/**
	 * @group_fini: optional: frees what the backend allocated for @g,
	 * once @g holds nothing (update(g, 0) has run, or the update of a
	 * new group failed); under mcg_lock, just before @g is freed. May
	 * sleep (the IB backend waits for the SA's callbacks).
	 */
	void (*group_fini)(struct mcg_group *g);
};

extern const struct mcg_backend_ops mcg_roce_backend;
extern const struct mcg_backend_ops mcg_none_backend;
extern const struct mcg_backend_ops mcg_ib_backend;
int mcg_ib_init(void);
void mcg_ib_exit(void);
u64 mcg_ib_unheard_left_ns(const struct mcg_port *port);
int mcg_roce_init(void);
void mcg_roce_exit(void);

/* RoCE backend state of a port. Everything here is protected by RTNL. */
struct mcg_roce_port {
	struct list_head node;		/* on mcg_roce_ports */
	struct net_device *ndev;	/* held with dev_hold() */
	struct list_head groups;	/* groups holding an IP membership */
	struct in_device *in_dev;	/* held: IGMP memberships are on it */
	struct inet6_dev *in6_dev;	/* held: MLD memberships are on it */
};

/*
 * One SA membership of a group: one join state bit. The record of a
 * successful join is read from mc->rec, which multicast.c writes before
 * the callback and not again for the membership's life. Allocated by
 * ib_update() when its group first wants the bit, kept (unused, mc NULL,
 * off the done list) when the bit is given up, and freed with the group:
 * SA callbacks reach it through mc->context, and join_failed() still
 * reads it after memb_free().
 */
struct mcg_ib_memb {
	struct mcg_group *g;
	struct ib_sa_multicast *mc;	/* NULL when none */
	struct list_head done_node;	/* on port->ib.done (mcg_ib_lock) */
	int status;			/* callback's, under mcg_ib_lock */
	u8 bit;
	u8 state;			/* MCG_MEMB_* */
	u8 eagain;			/* -EAGAIN answers in a row (no SM
					 * address in ib_sa), under mcg_lock
					 */
	bool user;			/* its join in flight is a user's
					 * (counted in ib.uinflight)
					 */
	bool fresh;			/* ... a JOIN's, sent from ib.fresh
					 * (counted in ib.finflight)
					 */
	u32 lost_seq;			/* the event (ib.heard_seq) its last
					 * join or loss report is charged to
					 * (wave_unheard())
					 */
	u64 sent_ns;			/* ktime_get_ns() its join went at,
					 * 0 if none is timed (pacer.c)
					 */
};

/*
 * InfiniBand backend state of a group, under mcg_lock. A group usually
 * holds one join state: only the memberships it has wanted are allocated
 * (NULL in m[] for the others).
 */
struct mcg_ib_group {
	struct mcg_ib_memb *m[4];	/* by join state bit, or NULL */
	struct list_head retry_node;	/* on ib.fresh, ib.retry or ib.ujoins */
	unsigned long retry_at;		/* jiffies */
	unsigned int failures;		/* in a row, for the backoff */
	unsigned int refusals;		/* re-joins refused since joined */
	u8 want;			/* join state bits to hold */
	u8 held;			/* bits the SA ever gave us */
	u8 stale;			/* bits given up, kept until want is
					 * held (make before break)
					 */
	bool established;		/* joined at least once */
	bool rejoining;			/* lost its membership */
	bool wave_wait;			/* the port's wave waits for it to
					 * be joined again (wave_expect())
					 */
	u32 lost_wave;			/* ib.wave_seq when last lost */
	u8 rejoin_leaves;		/* leaves queued by leave_and_rejoin():
					 * not re-joined before they are sent
					 */
	u16 mlid;			/* the MLID last reported joined, 0
					 * before the first join
					 */
};

/*
 * An SA membership let go of (backend_ib.c): waits on port->ib.leaves for
 * the pacer to free it - ib_sa_free_multicast() of a port's last member
 * of the group sends the SA Delete - then on port->ib.leaves_sent while
 * that Delete counts as in flight.
 */
struct mcg_ib_leave {
	struct list_head node;
	struct ib_sa_multicast *mc;	/* NULL once freed */
	union ib_gid mgid;
	u64 sent_ns;			/* ktime_get_ns() when freed */
	u64 group_id;			/* mcg_group.id, for rejoin */
	kuid_t uid;			/* user charged, if user */
	u8 bit;				/* its membership's join state bit */
	bool user;			/* a user's group's: paced per user */
	bool joining;			/* let go of while its join was in
					 * flight: freed at once, its slot
					 * kept (memb_leave_paced())
					 */
	bool rejoin;			/* its group re-joins once it is sent
					 * (leave_and_rejoin())
					 */
};

/*
 * The token bucket of one user's SA requests on a port (backend_ib.c):
 * on port->ib.users while it holds less than an idle bucket's credit; one
 * that has refilled is the same as a new one and is freed.
 */
struct mcg_ib_user {
	struct list_head node;
	kuid_t uid;
	s64 credit;			/* ns, as mcg_tb_refill() */
	u64 credit_ns;			/* ktime_get_ns() of its last refill */
};

/* InfiniBand backend state of a port, under mcg_lock unless noted. */
struct mcg_ib_port {
	struct list_head fresh;		/* groups with joins asked for by a
					 * JOIN: sent first, not paced
					 */
	struct list_head retry;		/* groups to re-join or retry: paced */
	struct list_head ujoins;	/* users' groups' joins, re-joins and
					 * retries: paced per user, after
					 * root's re-joins
					 */
	struct list_head users;		/* mcg_ib_user: users' buckets */
	struct list_head leaves;	/* mcg_ib_leave to send: paced */
	unsigned int nleaves;		/* root's entries on leaves (bound:
					 * MCG_IB_LEAVES_MAX)
					 */
	unsigned int rejoin_leaves;	/* root's entries with rejoin set */
	struct list_head leaves_sent;	/* mcg_ib_leave in flight */
	struct list_head done;		/* finished SA calls (mcg_ib_lock) */
	struct work_struct done_work;
	struct delayed_work join_work;	/* the pacer: issues joins, leaves */
	unsigned long wake_at;		/* jiffies: join_work due, if pending */
	struct hrtimer token_timer;	/* the pacer's next token: queues */
	struct work_struct token_work;	/* ... this, which runs the pacer */
	unsigned long events;		/* IB events to handle (atomic bits) */
	unsigned long settle_until;	/* jiffies: no joins before ... */
	bool settling;			/* ... while set (mcg_settling()) */
	s64 credit;			/* pacer's token bucket, ns */
	u64 credit_ns;			/* ktime_get_ns() of its last refill */
	bool backlog;			/* paced requests waited for credit
					 * or for the in-flight limit
					 */
	bool need_slot;			/* requests waited for the in-flight
					 * limit: done_work runs the pacer
					 */
	unsigned int inflight;		/* SA joins without an answer */
	unsigned int uinflight;		/* ... of them users' */
	unsigned int finflight;		/* ... of them sent from fresh */
	s64 ucredit;			/* users' token bucket, ns */
	u64 ucredit_ns;			/* ktime_get_ns() of its last refill */
	u64 srtt_ns;			/* SA round trip (mcg_srtt_update()),
					 * 0 until measured
					 */
	u64 reset_ns;			/* ktime_get_ns() of the last loss
					 * report handled (mcg_rtt_is_sa())
					 */
	struct mcg_win win;		/* the window law (pacer.h) */
	unsigned int leaves_inflight;	/* entries on leaves_sent */
	bool active;			/* port ACTIVE */
	bool wave;			/* a re-join wave is on */
	u32 wave_seq;			/* waves started */
	u64 wave_start_ns;
	unsigned int wave_waits;	/* groups with wave_wait set */
	unsigned long wave_wait_until;	/* jiffies: then they are let go */
	u64 heard_ns;			/* when resync_work last handled an
					 * event that makes multicast.c report
					 * losses (0: never)
					 */
	u32 heard_seq;			/* such events handled */
	u64 unheard_ns;			/* when a loss report came that no
					 * such event explains: the wave and
					 * the port's joins wait for one
					 * (mcg_ib_unheard_left_ns())
					 */
	u32 lid;
	u32 sm_lid;
	u32 last_sm_lid;
	u32 last_wave_ms;
	atomic64_t sm_reregisters;
	atomic64_t rejoin_waves;
	atomic64_t group_rejoins;
	atomic64_t rejoin_failures;
	atomic64_t sa_timeouts;
	atomic64_t mlid_changes;
};

struct mcg_device {
	struct list_head node;		/* on mcg_devices, by ibdev->index */
	struct ib_device *ibdev;
	struct kobject *kobj;		/* /sys/kernel/ib_mcgroups/<dev> */
	struct ib_event_handler event_handler;
	u32 nports;
	struct mcg_port *ports[];	/* index: port number - start port */
};

struct mcg_port {
	struct kobject kobj;		/* <dev>/<port>; release frees us */
	struct mcg_device *dev;
	u32 port_num;
	bool dead;			/* device being removed */
	const struct mcg_backend_ops *backend;
	struct rb_root groups;		/* mcg_group, by MGID */
	unsigned int ngroups;
	unsigned int nholders;
	atomic64_t joins;
	atomic64_t leaves;
	atomic64_t join_errors;
	atomic64_t linger_hits;
	atomic64_t linger_expired;
	struct list_head unkeyed;	/* groups waiting for an SA MGID */
	struct work_struct resync_work;
	struct delayed_work linger_work;	/* expires lingering groups */
	unsigned long linger_next;	/* when linger_work is due */
	struct mcg_roce_port roce;
	struct mcg_ib_port ib;
};

/**
 * enum mcg_hold - whether anyone holds a group
 * @MCG_HOLD_HELD: it has holders
 * @MCG_HOLD_LINGERING: none, its membership kept for its linger time
 * @MCG_HOLD_RELEASED: none, and gone (a released group's last reply
 *	or notification)
 *
 * The group's other state, its link (g->link), is independent of it: a
 * lingering group may be joining again after an SM failover. Only
 * group.c changes either (Documentation/group-state.rst has the
 * diagrams); mcg_group_state() derives what the protocol calls the
 * group's state.
 */
enum mcg_hold {
	MCG_HOLD_HELD,
	MCG_HOLD_LINGERING,
	MCG_HOLD_RELEASED,
};

/*
 * Only state every backend uses; a backend's own follows in its group
 * object (struct mcg_ib_group_obj, struct mcg_roce_group_obj).
 */
struct mcg_group {
	union {
		struct rb_node node;	/* in port->groups, or, while its
					 * MGID is 0 (waiting for the SA's) ...
					 */
		struct list_head unkeyed_node;	/* ... on port->unkeyed */
	};
	struct mcg_port *port;
	u64 id;				/* unique while the module is loaded */
	union ib_gid mgid;
	struct list_head holders;	/* in mcg_holder.id order */
	struct kref ref;		/* the port's */
	unsigned int nholders;
	unsigned int gen;		/* mcg_generation at its last change */
	int error;			/* last error, positive errno */
	u32 linger_ms;			/* kept this long without holders */
	u8 join_state;			/* union of the holders' states */
	u8 hold;			/* enum mcg_hold: group.c alone */
	u8 link;			/* the fabric's side: JOINING, JOINED,
					 * RETRY_WAIT or DETACHED (enum
					 * ib_mcg_state); backends report it
					 * through mcg_group_set_link()
					 */
	u8 reason;			/* enum ib_mcg_reason, of the last
					 * change of hold or link
					 */
	u8 create_js;			/* join states a holder asked for with
					 * create parameters (or MGID 0): the
					 * ones that re-join as creators; kept
					 * while lingering
					 */
	struct mcg_create create;	/* parameters to (re)create it with */
	bool provisional;		/* only holds taken without
					 * CAP_NET_ADMIN ever had it: its
					 * parameters are nobody's, the first
					 * hold of root's sets them
					 */
	bool user_create;		/* made by a user's join in a
					 * user_create range: created at the
					 * SA with the default parameters,
					 * every user's hold a creator
					 */
	bool user_sa;			/* its SA requests are a user's:
					 * paced per user, behind root's
					 * (backend_ib.c); set by mcg_join()
					 * before the backend's update: a
					 * group a user's join made, until
					 * root joins it ...
					 */
	kuid_t sa_uid;			/* ... charged to this user (the
					 * charge_uid of the join that made
					 * it)
					 */
	u8 keep_js;			/* join states of root's lingering
					 * membership, kept while users hold
					 * the group they took back ...
					 */
	u64 keep_until_ns;		/* ... until this boottime, the rest
					 * of its linger time
					 */
	unsigned long linger_until;	/* jiffies; MCG_HOLD_LINGERING */
	struct mcg_rec rec;
};

/**
 * mcg_group_state() - a group's state as the protocol reports it
 * @g: the group
 *
 * IB_MCG_A_STATE: RELEASED or LINGERING while nobody holds the group,
 * else its link state. IB_MCG_A_LINK_STATE always gives the link.
 *
 * Context: under mcg_lock.
 * Return: an enum ib_mcg_state.
 */
static inline u8 mcg_group_state(const struct mcg_group *g)
{
	switch (g->hold) {
	case MCG_HOLD_RELEASED:
		return IB_MCG_STATE_RELEASED;
	case MCG_HOLD_LINGERING:
		return IB_MCG_STATE_LINGERING;
	default:
		return g->link;
	}
}

/*
 * A group of an InfiniBand port, from the cache mcg_ib_group_cache: the
 * IB state only where it is used.
 */
struct mcg_ib_group_obj {
	struct mcg_group g;
	struct mcg_ib_group ib;
};

/* RoCE backend state of a group, under RTNL (backend_roce.c). */
struct mcg_roce_group {
	struct list_head node;		/* on port->roce.groups while the
					 * group holds an IP membership
					 */
};

/* A group of a RoCE port, from the cache mcg_roce_group_cache. */
struct mcg_roce_group_obj {
	struct mcg_group g;
	struct mcg_roce_group roce;
};

/**
 * mcg_roce() - the RoCE backend's state of a group
 * @g: a group of a RoCE port (from mcg_roce_group_cache)
 *
 * Context: any; the state itself is under RTNL.
 * Return: the state that follows @g in its group object.
 */
static inline struct mcg_roce_group *mcg_roce(struct mcg_group *g)
{
	return &container_of(g, struct mcg_roce_group_obj, g)->roce;
}

/**
 * mcg_roce_ip_held() - does a RoCE group hold its IP multicast membership?
 * @g: a group of a RoCE port
 *
 * Context: under RTNL.
 * Return: true if @g is on its port's list of groups with one.
 */
static inline bool mcg_roce_ip_held(const struct mcg_group *g)
{
	return !list_empty(&container_of(g, const struct mcg_roce_group_obj,
					 g)->roce.node);
}

/**
 * mcg_ib() - the InfiniBand backend's state of a group
 * @g: a group of an InfiniBand port (from mcg_ib_group_cache)
 *
 * Context: any; the state itself is under mcg_lock.
 * Return: the state that follows @g in its group object.
 */
static inline struct mcg_ib_group *mcg_ib(struct mcg_group *g)
{
	return &container_of(g, struct mcg_ib_group_obj, g)->ib;
}

/**
 * mcg_ib_group_of() - the group of an InfiniBand backend state
 * @ib: the state, as mcg_ib() returned it
 *
 * Context: any.
 * Return: the group @ib belongs to.
 */
static inline struct mcg_group *mcg_ib_group_of(struct mcg_ib_group *ib)
{
	return &container_of(ib, struct mcg_ib_group_obj, ib)->g;
}

/* Everything one owner holds, on every port. */
struct mcg_owner {
	struct hlist_node node;		/* in the owner hash table */
	struct list_head holders;	/* mcg_holder.owner_node */
	unsigned int nholds;
	char name[IB_MCG_OWNER_MAX + 1];
};

/*
 * A netlink socket, as bound holds name it: its (net, portid) and a token
 * no other socket has while the socket names bound holds, the struct
 * sock, pinned (sock_hold(), group.c) meanwhile. The portid alone is not
 * enough: netlink_release() frees it (netlink_remove()) before
 * NETLINK_URELEASE, from which the socket's holds are released, and a new
 * socket may bind it in between; the notification names only (net,
 * portid), so it releases the holds of the sockets of that portid that
 * are dead (SOCK_DEAD, set by sock_orphan() before the notification).
 * Generic netlink's per-socket private data (sock_priv, 6.10) would name
 * the socket too, but genl_sk_priv_get() is not exported to modules.
 */
struct mcg_sock {
	const struct net *net;		/* compared only */
	u32 portid;
	void *token;			/* its struct sock */
};

/**
 * mcg_sock_eq() - are @a and @b the same socket?
 * @a: a socket, as bound holds name it
 * @b: another
 *
 * Its portid alone does not tell.
 *
 * Context: any.
 * Return: true if net, portid and token are the same.
 */
static inline bool mcg_sock_eq(const struct mcg_sock *a,
			       const struct mcg_sock *b)
{
	return a->net == b->net && a->portid == b->portid &&
	       a->token == b->token;
}

/*
 * The bound holds of one netlink socket (group.c): an entry of the index
 * of bound holds by socket, from the socket's first bound hold to its
 * last. Its holds name their socket through it.
 */
struct mcg_bound {
	struct hlist_node node;		/* in mcg_bound_hash */
	struct list_head holders;	/* mcg_holder.bound_node */
	struct mcg_sock sock;
};

struct mcg_holder {
	struct list_head node;		/* in group->holders */
	struct list_head owner_node;	/* in owner->holders */
	struct list_head bound_node;	/* BOUND: in bound->holders */
	struct mcg_bound *bound;	/* BOUND: its socket, set when the
					 * hold is linked
					 */
	struct mcg_group *group;
	u64 id;				/* unique, growing: a dump cursor */
	struct mcg_owner *o;		/* its name is the holder's owner */
	u64 since_ns;			/* ktime_get_boottime_ns() at join */
	u8 join_state;
	u8 flags;			/* IB_MCG_F_* (all fit in a u8) */
	bool create;			/* joined with create parameters */
	bool unpriv;			/* taken without CAP_NET_ADMIN ... */
	kuid_t uid;			/* ... by this user (owner "uid:N") */
	kuid_t charge_uid;		/* ... charged to it too (user ns) */
};

struct mcg_join_req {
	struct mcg_port *port;
	union ib_gid mgid;
	const char *owner;
	u8 join_state;
	u32 flags;
	u32 qkey;
	bool has_qkey;
	u32 linger_ms;
	bool has_linger;
	struct mcg_create create;
	struct mcg_sock nl_sock;	/* the requester's socket */
	bool unpriv;			/* no CAP_NET_ADMIN: user_max_holds */
	kuid_t uid;			/* the requester's (real) uid */
	kuid_t charge_uid;		/* its user namespace's owner, or uid
					 * (mcg_charge_uid())
					 */
};

/* device.c */
int mcg_device_init(void);
void mcg_device_exit(void);
struct mcg_port *mcg_port_get(struct mcg_device *dev, u32 port_num);
struct mcg_port *mcg_port_next(struct mcg_port *port);
bool mcg_device_visible(const struct mcg_device *dev);
struct mcg_device *mcg_device_find(const char *name, bool by_name,
				   u32 index);

/* group.c */
extern struct kmem_cache *mcg_group_cache;
extern struct kmem_cache *mcg_ib_group_cache;
extern struct kmem_cache *mcg_roce_group_cache;
int mcg_cache_init(void);
void mcg_cache_exit(void);
int mcg_join(const struct mcg_join_req *req, struct mcg_group **out,
	     struct mcg_holder **hout, struct netlink_ext_ack *extack);
int mcg_leave_group(struct mcg_group *g, const struct mcg_owner *o,
		    u8 join_state, const struct mcg_sock *sock, u8 reason,
		    struct mcg_group **out, struct mcg_group *snap,
		    struct netlink_ext_ack *extack);
int mcg_leave(struct mcg_port *port, const union ib_gid *mgid,
	      const struct mcg_owner *o, u8 join_state,
	      const struct mcg_sock *sock, u8 reason, struct mcg_group **out,
	      struct mcg_group *snap, struct netlink_ext_ack *extack);
struct mcg_owner *mcg_owner_find(const char *name);

/* One group an OWNER_RELEASE dropped holds on (mcg_owner_release()). */
struct mcg_released {
	char dev_name[IB_DEVICE_NAME_MAX];
	u32 dev_index;
	u32 port;
	union ib_gid mgid;	/* all zero: was waiting for an SA MGID */
	u8 dropped;		/* the owner's join states on it */
	u8 state;		/* the group's state afterwards */
};

unsigned int mcg_owner_release(struct mcg_owner *o,
			       const struct mcg_device *dev,
			       const struct mcg_port *port,
			       struct mcg_released *ent, unsigned int max,
			       u32 *holds);
int mcg_leave_check_unpriv(struct mcg_port *port, const union ib_gid *mgid,
			   const struct mcg_owner *o, u8 join_state, kuid_t uid,
			   const struct mcg_sock *sock,
			   struct netlink_ext_ack *extack);
void mcg_linger_work(struct work_struct *work);
void mcg_group_put(struct mcg_group *g);
struct mcg_holder *mcg_holder_find(struct mcg_group *g,
				   const struct mcg_owner *o, u8 join_state);
int mcg_group_rekey(struct mcg_group *g, const union ib_gid *mgid);
void mcg_group_abandon(struct mcg_group *g, u8 reason, int err);
void mcg_group_refuse(struct mcg_group *g, u8 join_state, u8 reason, int err);
void mcg_group_set_link(struct mcg_group *g, u8 link, u8 reason, int err);
void mcg_group_event(struct mcg_group *g, u8 cmd, u8 reason);
void mcg_port_event(struct mcg_port *port, u8 cmd);
extern unsigned int mcg_max_groups;
extern unsigned int mcg_max_owner_holds;
extern unsigned int mcg_user_max_holds;
extern unsigned int mcg_user_max_holds_total;
struct mcg_group *mcg_group_find(struct mcg_port *port,
				 const union ib_gid *mgid);
struct mcg_group *mcg_group_next(struct mcg_port *port,
				 const union ib_gid *after);
struct mcg_group *mcg_group_after(struct mcg_group *g);
void mcg_port_release_all(struct mcg_port *port, u8 reason);
void mcg_port_resync(struct mcg_port *port);
void mcg_release_bound(const struct mcg_sock *sock);
void mcg_release_dead_bound(const struct net *net, u32 portid);
bool mcg_has_bound(const struct net *net, u32 portid);
extern unsigned int mcg_generation;

/**
 * struct mcg_events - who is told of changes (netlink.c's notifications)
 * @group: a group or holder changed: @cmd is the notification
 *	(IB_MCG_CMD_GROUP_*_NTF, IB_MCG_CMD_HOLDER_*_NTF), @h the holder of
 *	a HOLDER_*_NTF, else NULL. Under mcg_lock; may sleep.
 * @port: a port's notification (@cmd: IB_MCG_CMD_REJOIN_WAVE_*_NTF).
 *	Under mcg_lock; may sleep.
 *
 * The group layer and the backends report through mcg_group_event() and
 * mcg_port_event(); the transport registers itself (mcg_events_set()),
 * so that nothing below it calls into it.
 */
struct mcg_events {
	void (*group)(struct mcg_group *g, u8 cmd, u8 reason,
		      const struct mcg_holder *h);
	void (*port)(struct mcg_port *port, u8 cmd);
};

void mcg_events_set(const struct mcg_events *ev);	/* group.c */

/* netlink.c */
int mcg_netlink_init(void);
void mcg_netlink_exit(void);

/* sysfs.c */
int mcg_sysfs_init(void);
void mcg_sysfs_exit(void);
int mcg_sysfs_add_device(struct mcg_device *dev);
int mcg_sysfs_add_port(struct mcg_port *port);
void mcg_sysfs_del_device(struct mcg_device *dev);
void mcg_sysfs_rename_device(struct mcg_device *dev);
void mcg_port_put(struct mcg_port *port);

/* debugfs.c */
void mcg_debugfs_init(void);
void mcg_debugfs_exit(void);

/**
 * mcg_dev_name() - the name of a port's ib_device
 * @port: the port
 *
 * Context: any; the name may change (rename) unless mcg_lock is held.
 * Return: the device's current name.
 */
static inline const char *mcg_dev_name(const struct mcg_port *port)
{
	return dev_name(&port->dev->ibdev->dev);
}

/**
 * mcg_hold_matches() - is a hold on the port or device a request names?
 * @h: the hold
 * @dev: the device, or NULL for any
 * @port: the port, or NULL; takes precedence over @dev
 *
 * Is @h on @port if given, else on @dev if given (else anywhere)?
 *
 * Context: under mcg_lock.
 * Return: true if it is.
 */
static inline bool mcg_hold_matches(const struct mcg_holder *h,
				    const struct mcg_device *dev,
				    const struct mcg_port *port)
{
	if (port)
		return h->group->port == port;
	return !dev || h->group->port->dev == dev;
}

/**
 * mcg_mgid_is_v4mapped() - is an MGID an IPv4-mapped address?
 * @mgid: the MGID
 *
 * ::ffff:a.b.c.d, the form RoCE gives an IPv4 multicast group.
 *
 * Context: any.
 * Return: true if it is.
 */
static inline bool mcg_mgid_is_v4mapped(const union ib_gid *mgid)
{
	return ipv6_addr_v4mapped((const struct in6_addr *)mgid->raw);
}

#endif /* _IB_MCGROUPS_H */
