/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_mcgroups: the module's pure logic, as static inline functions.
 *
 * Both ib_mcgroups.ko and its KUnit test module (kernel/tests/) compile
 * this header: 6.1 has no EXPORT_SYMBOL_IF_KUNIT, and a test module cannot
 * reach the module's static functions. Nothing here takes a lock, sleeps,
 * allocates, or reads module parameters, jiffies, the clock or random
 * numbers: the callers pass those in, so every function is a function of
 * its arguments and can be tested with chosen values.
 *
 * Functions that refuse a request set extack's message (extack may be
 * NULL), so the messages are part of what the tests check.
 */
#ifndef _MCG_LOGIC_H
#define _MCG_LOGIC_H

#include <linux/in.h>
#include <linux/inet.h>
#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/netlink.h>
#include <linux/string.h>
#include <linux/user_namespace.h>
#include <net/ipv6.h>

#include "ib_mcgroups.h"

/* ---- MGIDs ---------------------------------------------------------------- */

/**
 * mcg_mgid_is_zero() - is an MGID all zero?
 * @mgid: the MGID
 *
 * An all-zero MGID: the join asks the SA to assign one.
 *
 * Context: any; a pure function (see the top of this file).
 * Return: true if every byte of @mgid is 0.
 */
static inline bool mcg_mgid_is_zero(const union ib_gid *mgid)
{
	return !memchr_inv(mgid->raw, 0, sizeof(mgid->raw));
}

/**
 * mcg_mgid_to_ipv4() - the IPv4 group of an IPv4-mapped MGID
 * @mgid: an IPv4-mapped MGID (::ffff:a.b.c.d)
 *
 * Context: any; a pure function (see the top of this file).
 * Return: the IPv4 address, in network order.
 */
static inline __be32 mcg_mgid_to_ipv4(const union ib_gid *mgid)
{
	return ((const struct in6_addr *)mgid->raw)->s6_addr32[3];
}

/**
 * mcg_mgid_scope_linklocal() - is a multicast MGID of local scope?
 * @mgid: an IPv6 multicast MGID
 *
 * An IPv6 multicast MGID of interface- or link-local scope (ffx1, ffx2).
 *
 * Context: any; a pure function (see the top of this file).
 * Return: true if its scope is 2 or less.
 */
static inline bool mcg_mgid_scope_linklocal(const union ib_gid *mgid)
{
	return (mgid->raw[1] & 0xf) <= 2;
}

/**
 * mcg_mgid_sa_linklocal() - is an MGID of the kind the SA assigns?
 * @mgid: the MGID
 *
 * An MGID of the kind the SA assigns by default: signature A01B, link-local
 * scope (ff12:a01b:...). opensm refuses to create a group for one on
 * request (IBA o15-0.1.5 as it reads it), so such a group exists only as
 * the SA assigned it, and once the SA lost it nobody can create it again.
 *
 * Context: any; a pure function (see the top of this file).
 * Return: true if @mgid is ff12:a01b:...
 */
static inline bool mcg_mgid_sa_linklocal(const union ib_gid *mgid)
{
	return mgid->raw[0] == 0xff && (mgid->raw[1] & 0xf) == 2 &&
	       mgid->raw[2] == 0xa0 && mgid->raw[3] == 0x1b;
}

/**
 * mcg_ib_check_mgid() - may an InfiniBand JOIN name this MGID?
 * @mgid: the MGID
 * @join_state: the join state asked for
 * @extack: where the refusal's message goes, or NULL
 *
 * InfiniBand: a multicast GID (first byte 0xff), or all-zero for an
 * SA-assigned MGID, which only a full member can create.
 *
 * Context: any; a pure function (see the top of this file).
 * Return: 0, or -EINVAL with @extack's message set.
 */
static inline int mcg_ib_check_mgid(const union ib_gid *mgid, u8 join_state,
				    struct netlink_ext_ack *extack)
{
	if (mcg_mgid_is_zero(mgid)) {
		if (!(join_state & (IB_MCG_JOIN_FULL |
				    IB_MCG_JOIN_SENDONLY_FULL))) {
			NL_SET_ERR_MSG(extack,
				       "only a full member can create a group with an SA-assigned MGID");
			return -EINVAL;
		}
	} else if (mgid->raw[0] != 0xff) {
		NL_SET_ERR_MSG(extack,
			       "MGID is not a multicast GID: its first byte must be 0xff");
		return -EINVAL;
	}
	return 0;
}

/**
 * mcg_roce_check_mgid() - may a RoCE JOIN name this MGID?
 * @mgid: the MGID
 * @create: the JOIN gave create parameters or an all-zero MGID
 * @extack: where the refusal's message goes, or NULL
 *
 * RoCE: an IPv4-mapped MGID of an IPv4 multicast group (224.0.0.0/4), or
 * an IPv6 multicast address; no SA, so no create parameters but the Q_Key.
 *
 * Context: any; a pure function (see the top of this file).
 * Return: 0, or -EINVAL with @extack's message set.
 */
static inline int mcg_roce_check_mgid(const union ib_gid *mgid, bool create,
				      struct netlink_ext_ack *extack)
{
	if (create) {
		NL_SET_ERR_MSG(extack,
			       "RoCE has no SA: no SA-assigned MGID, and no create parameters but the Q_Key");
		return -EINVAL;
	}
	if (mcg_mgid_is_v4mapped(mgid)) {
		if (!ipv4_is_multicast(mcg_mgid_to_ipv4(mgid))) {
			NL_SET_ERR_MSG(extack,
				       "IPv4-mapped MGID is not an IPv4 multicast address (224.0.0.0/4)");
			return -EINVAL;
		}
		return 0;
	}
	if (mgid->raw[0] != 0xff) {
		NL_SET_ERR_MSG(extack,
			       "MGID is not a multicast GID: it must start with 0xff, or be an IPv4-mapped multicast group");
		return -EINVAL;
	}
	return 0;
}

/* ---- request attributes (netlink.c) ------------------------------------- */

/**
 * mcg_name_len() - the length of a name in a string attribute
 * @s: the attribute's payload
 * @len: its length in bytes
 * @max: the longest name allowed
 *
 * The length of a string attribute's text of @len bytes (one trailing NUL
 * allowed), or -EINVAL if it is empty, longer than @max, or has a byte
 * outside printable ASCII without space (0x21..0x7e): owner and device
 * names go into logs, debugfs and JSON unquoted.
 *
 * Context: any; a pure function (see the top of this file).
 * Return: the name's length without the NUL, or -EINVAL.
 */
static inline int mcg_name_len(const char *s, int len, size_t max)
{
	int i;

	if (len > 0 && !s[len - 1])
		len--;
	if (len <= 0 || (size_t)len > max)
		return -EINVAL;
	for (i = 0; i < len; i++)
		if ((u8)s[i] < 0x21 || (u8)s[i] > 0x7e)
			return -EINVAL;
	return len;
}

/**
 * mcg_join_state_valid() - is @js one join state?
 * @js: join state bits (IB_MCG_JOIN_*)
 *
 * Context: any; a pure function (see the top of this file).
 * Return: true if exactly one of the four join state bits is set.
 */
static inline bool mcg_join_state_valid(u8 js)
{
	return js && !(js & (js - 1)) && !(js & ~IB_MCG_JOIN_ALL);
}

/**
 * mcg_linger_valid() - is a linger time within its limit?
 * @linger_ms: the linger time asked for, in milliseconds
 *
 * Context: any; a pure function (see the top of this file).
 * Return: true if it is at most IB_MCG_LINGER_MAX_MS.
 */
static inline bool mcg_linger_valid(u32 linger_ms)
{
	return linger_ms <= IB_MCG_LINGER_MAX_MS;
}

/**
 * mcg_pkey_valid() - is @pkey a valid P_Key?
 * @pkey: the P_Key, with or without its membership bit
 *
 * 0x0000 and 0x8000 are the invalid P_Key (IBA 10.9.1.2).
 *
 * Context: any; a pure function (see the top of this file).
 * Return: false for those two, true for any other.
 */
static inline bool mcg_pkey_valid(u16 pkey)
{
	return pkey & 0x7fff;
}

/**
 * mcg_linger_left_ms() - what is left of a linger time
 * @until: the end of the linger time, in jiffies
 * @now: jiffies now
 *
 * Context: any; a pure function (see the top of this file).
 * Return: what is left of a linger ending at @until at @now, in
 * milliseconds; 0 if over.
 */
static inline u32 mcg_linger_left_ms(unsigned long until, unsigned long now)
{
	long left = (long)(until - now);

	return left > 0 ? jiffies_to_msecs(left) : 0;
}

/* ---- groups and holders (group.c) --------------------------------------- */

/**
 * mcg_holders_union() - the join states a group's holders hold
 * @holders: a list of struct mcg_holder, by their node
 *
 * Context: under mcg_lock (the caller's list); otherwise pure.
 * Return: the union of the join states of the holders on @holders.
 */
static inline u8 mcg_holders_union(const struct list_head *holders)
{
	const struct mcg_holder *h;
	u8 js = 0;

	list_for_each_entry(h, holders, node)
		js |= h->join_state;
	return js;
}

/**
 * mcg_holders_create_union() - the join states held as creators
 * @holders: a list of struct mcg_holder, by their node
 *
 * The join states of the holders on @holders that joined with create
 * parameters (or MGID 0): those a re-join asks for as a creator, who may
 * create the group again; the others re-join as they joined, by MGID.
 *
 * Context: under mcg_lock (the caller's list); otherwise pure.
 * Return: the union of those join states.
 */
static inline u8 mcg_holders_create_union(const struct list_head *holders)
{
	const struct mcg_holder *h;
	u8 js = 0;

	list_for_each_entry(h, holders, node)
		if (h->create)
			js |= h->join_state;
	return js;
}

/**
 * mcg_join_want() - the join state a group must hold after a join
 * @held: what the group holds
 * @req_js: the join state the join asks for
 * @lingering: the group is lingering
 *
 * The join state a group must hold after a join asking for @req_js when it
 * holds @held. A lingering group has no holders: what it holds is only
 * kept for a later join, which asks for exactly its own join state.
 *
 * Context: any; a pure function (see the top of this file).
 * Return: @req_js for a lingering group, else @held | @req_js.
 */
static inline u8 mcg_join_want(u8 held, u8 req_js, bool lingering)
{
	return lingering ? req_js : held | req_js;
}

/**
 * mcg_settle_lingers() - does a group without holders linger?
 * @linger_ms: the group's linger time
 * @lingering: it lingers already
 * @reason: why its holders are gone (enum ib_mcg_reason)
 * @keyed: it has its MGID (not waiting for an SA-assigned one)
 *
 * Whether a group whose holders are all gone (for @reason) lingers rather
 * than being released: only when it has a linger time, is not lingering
 * already, its holders left of their own accord (not a device or the
 * module going away), and it is @keyed: a group still waiting for its
 * SA-assigned MGID could never be taken back, since a join with MGID 0
 * always asks for a new group.
 *
 * Context: any; a pure function (see the top of this file).
 * Return: true if it lingers, false if it is released.
 */
static inline bool mcg_settle_lingers(u32 linger_ms, bool lingering,
				      u8 reason, bool keyed)
{
	return linger_ms && keyed && !lingering &&
	       (reason == IB_MCG_REASON_LEAVE ||
		reason == IB_MCG_REASON_SOCKET_CLOSED ||
		reason == IB_MCG_REASON_OWNER_RELEASE);
}

/**
 * mcg_join_limits() - the port's and the owner's limits of a join
 * @new_group: the join creates a group
 * @ngroups: the port's groups
 * @max_groups: its budget of groups (max_groups; 0: no limit)
 * @owner_holds: the owner's holds
 * @max_holds: the most an owner may have (max_owner_holds; 0: no limit)
 * @extack: where the refusal's message goes, or NULL
 *
 * Refuses a join that would exceed the port's budget of groups (only a
 * join creating a group counts) or the owner's limit of holds; a limit of
 * 0 is no limit.
 *
 * Context: any; a pure function (see the top of this file).
 * Return: 0, or -ENOSPC with @extack's message set.
 */
static inline int mcg_join_limits(bool new_group, unsigned int ngroups,
				  unsigned int max_groups,
				  unsigned int owner_holds,
				  unsigned int max_holds,
				  struct netlink_ext_ack *extack)
{
	if (new_group && max_groups && ngroups >= max_groups) {
		NL_SET_ERR_MSG(extack,
			       "port holds its budget of groups (module parameter max_groups)");
		return -ENOSPC;
	}
	if (max_holds && owner_holds >= max_holds) {
		NL_SET_ERR_MSG(extack,
			       "owner has the most holds allowed (module parameter max_owner_holds)");
		return -ENOSPC;
	}
	return 0;
}

/**
 * mcg_user_limit() - the limit of a user without CAP_NET_ADMIN
 * @user_holds: the holds the user has so far
 * @max: the most it may have (user_max_holds)
 * @extack: where the refusal's message goes, or NULL
 *
 * The limit of a user without CAP_NET_ADMIN, who holds @user_holds holds
 * so far: at most @max (module parameter user_max_holds); 0 lets no such
 * user hold anything.
 *
 * Context: any; a pure function (see the top of this file).
 * Return: 0, -EPERM if @max is 0, or -ENOSPC; @extack's message set on
 * a refusal.
 */
static inline int mcg_user_limit(unsigned int user_holds, unsigned int max,
				 struct netlink_ext_ack *extack)
{
	if (!max) {
		NL_SET_ERR_MSG(extack,
			       "holds without CAP_NET_ADMIN are disabled (module parameter user_max_holds is 0)");
		return -EPERM;
	}
	if (user_holds >= max) {
		NL_SET_ERR_MSG(extack,
			       "the user has the most holds allowed without CAP_NET_ADMIN (module parameter user_max_holds)");
		return -ENOSPC;
	}
	return 0;
}

/**
 * mcg_charge_uid() - whom a hold without CAP_NET_ADMIN is charged to
 * @ns: the requester's user namespace (the sender's current_user_ns():
 *      a request runs in its sender's context)
 * @uid: the requester's uid
 *
 * Whom a hold without CAP_NET_ADMIN is charged to besides its user @uid:
 * the owner of the outermost user namespace below the initial one that
 * the request was sent from (@ns), unless root set it up (then root chose
 * what its users may do, and each is still held to user_max_holds). A
 * rootless container maps its users to subordinate uids of their own:
 * charging the namespace's owner for them bounds them all by one user's
 * limit. @uid itself outside user namespaces.
 *
 * Context: any; reads only @ns and its parents, which the caller's
 * reference keeps.
 * Return: the uid to charge.
 */
static inline kuid_t mcg_charge_uid(const struct user_namespace *ns,
				    kuid_t uid)
{
	while (ns != &init_user_ns && ns->parent != &init_user_ns)
		ns = ns->parent;
	if (ns == &init_user_ns || uid_eq(ns->owner, GLOBAL_ROOT_UID))
		return uid;
	return ns->owner;
}

/**
 * mcg_user_limits_more() - the other limits of a hold without CAP_NET_ADMIN
 * @in_userns: the request was sent from a user namespace that a user
 *             other than root set up
 * @owner_holds: the holds charged to that namespace's owner
 * @total: all holds without CAP_NET_ADMIN
 * @max: user_max_holds
 * @max_total: user_max_holds_total
 * @extack: where the refusal's message goes, or NULL
 *
 * The other limits of a hold without CAP_NET_ADMIN: with @in_userns (the
 * socket was opened in a user namespace that a user other than root set
 * up), the namespace's owner, whom the holds of every user of its
 * namespaces are charged to, has @owner_holds of at most @max
 * (user_max_holds); all such holds together, @total, are at most
 * @max_total (user_max_holds_total).
 *
 * Context: any; a pure function (see the top of this file).
 * Return: 0, or -ENOSPC with @extack's message set.
 */
static inline int mcg_user_limits_more(bool in_userns,
				       unsigned int owner_holds,
				       unsigned int total, unsigned int max,
				       unsigned int max_total,
				       struct netlink_ext_ack *extack)
{
	if (in_userns && owner_holds >= max) {
		NL_SET_ERR_MSG(extack,
			       "the owner of the user namespace has the most holds allowed without CAP_NET_ADMIN, counting those of every user in its namespaces (module parameter user_max_holds)");
		return -ENOSPC;
	}
	if (total >= max_total) {
		NL_SET_ERR_MSG(extack,
			       "users without CAP_NET_ADMIN have the most holds allowed in total (module parameter user_max_holds_total)");
		return -ENOSPC;
	}
	return 0;
}

/**
 * mcg_rejoin_check() - may an existing hold be asked for again?
 * @h: the existing (owner, join state) hold
 * @req: the JOIN that asks for it again
 * @extack: where the refusal's message goes, or NULL
 *
 * An existing (owner, join state) hold @h asked for again: idempotent if
 * it is the same kind of hold (bound to the same socket, or unbound).
 *
 * Context: under mcg_lock (reads @h); otherwise pure.
 * Return: 0, or -EBUSY with @extack's message set.
 */
static inline int mcg_rejoin_check(const struct mcg_holder *h,
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
	    !mcg_sock_eq(&h->bound->sock, &req->nl_sock)) {
		NL_SET_ERR_MSG(extack,
			       "owner's bound hold on this group belongs to another socket");
		return -EBUSY;
	}
	return 0;
}

/**
 * mcg_create_matches() - does a join repeat a group's create parameters?
 * @r: the group's record
 * @c: the join's create parameters
 *
 * A join naming an existing group (record @r) may repeat its create
 * parameters @c, not change them; unset MTU, rate and hop limit match any.
 *
 * Context: any; a pure function (see the top of this file).
 * Return: true if they match, or the join gives none, or the record is
 * not known yet.
 */
static inline bool mcg_create_matches(const struct mcg_rec *r,
				      const struct mcg_create *c)
{
	if (!c->create || !r->valid)
		return true;
	return c->pkey == r->pkey && c->sl == r->sl &&
	       c->tclass == r->tclass && c->flow_label == r->flow_label &&
	       (!(c->has & MCG_HAS_MTU) || c->mtu == r->mtu) &&
	       (!(c->has & MCG_HAS_RATE) || c->rate == r->rate) &&
	       (!(c->has & MCG_HAS_HOP) || c->hop_limit == r->hop_limit);
}

/* ---- SA join retries (backend_ib.c; the pacer: pacer.h) ------------------ */

/**
 * mcg_backoff_ms() - the delay before the retry of a failed join
 * @failures: the failures in a row, 1 for the first
 * @base_ms: the first delay (backoff_base_ms)
 * @max_ms: the longest delay before jitter (backoff_max_ms)
 * @rnd: a random u32
 *
 * The delay before retry number @failures (1 = the first) of a failed
 * join: @base_ms doubled per failure after the first, capped at @max_ms
 * (0 counts as 1), then -50..+50% from @rnd (a random u32) so that the
 * nodes of a fabric spread out. Never 0, so that a failing SA is not
 * asked again at once; computed in 64 bits, so any parameter values are
 * safe (no overflow, no division by zero).
 *
 * Context: any; a pure function (see the top of this file).
 * Return: the delay in milliseconds, at least 1.
 */
static inline unsigned int mcg_backoff_ms(unsigned int failures,
					  unsigned int base_ms,
					  unsigned int max_ms, u32 rnd)
{
	u64 cap = max(max_ms, 1U);
	u64 d = base_ms;
	u32 jitter;

	while (failures-- > 1 && d < cap)
		d *= 2;
	d = clamp_val(d, 1, cap);
	/* 0..d; d + 1 is 2^32 at most, where every u32 is in range. */
	jitter = d < U32_MAX ? rnd % (u32)(d + 1) : rnd;
	return min_t(u64, max_t(u64, d / 2 + jitter, 1), U32_MAX);
}

/**
 * mcg_settle_delay_ms() - the wait after a CLIENT_REREGISTER
 * @settle_ms: settle_ms
 * @rnd: a random u32
 *
 * Context: any; a pure function (see the top of this file).
 * Return: @settle_ms plus 0..50% from @rnd, in milliseconds.
 */
static inline unsigned int mcg_settle_delay_ms(unsigned int settle_ms, u32 rnd)
{
	return settle_ms + rnd % (settle_ms / 2 + 1);
}

/**
 * mcg_settling() - is the port still settling?
 * @settling: the port's flag, set with @until at a CLIENT_REREGISTER
 * @until: the end of the settle time, in jiffies
 * @now: jiffies now
 *
 * Is the port still settling at @now, after a CLIENT_REREGISTER that set
 * *@settling and @until? Clears *@settling once @until has passed, so
 * that @until is never compared again: time_before() of a time long past
 * says "in the future" again after half the jiffies range (on 32-bit
 * jiffies every 24.9 days at HZ=1000, and from boot, when jiffies starts
 * 5 minutes before its wrap), which would stall the port's joins for as
 * long.
 *
 * Context: under mcg_lock (writes *@settling); otherwise pure.
 * Return: true while it settles.
 */
static inline bool mcg_settling(bool *settling, unsigned long until,
				unsigned long now)
{
	if (!*settling)
		return false;
	if (time_before(now, until))
		return true;
	*settling = false;
	return false;
}

/**
 * mcg_unheard_left_ns() - how long do a port's joins still wait to hear
 * of the event behind a loss report?
 * @heard_ns: when resync_work last handled an event that makes
 *	multicast.c report losses (0: never)
 * @unheard_ns: when a loss report came that no such event explained
 *	(0: never)
 * @now_ns: now
 * @limit_ns: how long they wait at most (MCG_WAVE_REPORT_MS)
 *
 * The wait ends when an event is handled (@heard_ns reaches @unheard_ns)
 * or @limit_ns after the report; the times are ktime_get_ns(), which
 * does not wrap, so a wait long over stays over.
 *
 * Context: pure.
 * Return: the time left, 0 if they do not wait.
 */
static inline u64 mcg_unheard_left_ns(u64 heard_ns, u64 unheard_ns,
				      u64 now_ns, u64 limit_ns)
{
	if (heard_ns >= unheard_ns || now_ns - unheard_ns >= limit_ns)
		return 0;
	return limit_ns - (now_ns - unheard_ns);
}

/**
 * mcg_loss_explained() - is a loss report explained by the last event
 * heard, and which event is it charged to?
 * @heard_ns: when resync_work last handled an event that makes
 *	multicast.c report losses (0: never)
 * @heard_seq: how many such events it has handled
 * @lost_seq: the membership's charge: the event its last loss was charged
 *	to, or the last event heard when it was joined (issue()); set to the
 *	event this report is charged to
 * @now_ns: now
 * @limit_ns: how long after an event its reports may come
 *	(MCG_WAVE_REPORT_MS)
 *
 * An event explains one loss of each membership that was joined before
 * it was heard: a report within @limit_ns of it, of a membership not yet
 * charged to it, is charged to it. Any other report (nothing heard
 * lately, a second report after one event, a membership joined after
 * it) is charged to the next event, not heard yet.
 *
 * Context: pure, but for *@lost_seq.
 * Return: true if the report is explained; false if the port must wait
 * to hear of the event behind it (mcg_unheard_left_ns()).
 */
static inline bool mcg_loss_explained(u64 heard_ns, u32 heard_seq,
				      u32 *lost_seq, u64 now_ns, u64 limit_ns)
{
	if (heard_ns && now_ns - heard_ns < limit_ns &&
	    *lost_seq != heard_seq) {
		*lost_seq = heard_seq;
		return true;
	}
	*lost_seq = heard_seq + 1;
	return false;
}

/*
 * ib_sa fails every query with -EAGAIN while it has no address handle for
 * the SM: from a port event until its own work has made a new one
 * (backend_ib.c). A join that met that is issued again after
 * mcg_ib_eagain_delay_ms(@tries), @tries such answers in a row (1 for the
 * first): MCG_IB_EAGAIN_MS, doubled per try, MCG_IB_EAGAIN_TRIES times,
 * about 1 s in all; 0 after that (handled as any other failure).
 */
#define MCG_IB_EAGAIN_MS	16
#define MCG_IB_EAGAIN_TRIES	6

/**
 * mcg_ib_eagain_delay_ms() - the delay before re-issuing a join ib_sa failed
 * @tries: the -EAGAIN answers in a row, 1 for the first
 *
 * As the comment above MCG_IB_EAGAIN_MS says.
 *
 * Context: any; a pure function (see the top of this file).
 * Return: the delay in milliseconds, or 0 once the tries are used up
 * (then it is a failure like any other).
 */
static inline unsigned int mcg_ib_eagain_delay_ms(unsigned int tries)
{
	if (!tries || tries > MCG_IB_EAGAIN_TRIES)
		return 0;
	return MCG_IB_EAGAIN_MS << (tries - 1);
}

/* What a failed SA join of one join state bit leads to (backend_ib.c). */
enum mcg_ib_failure {
	MCG_IB_RETRY,		/* join it again, after a backoff if refused */
	MCG_IB_REFUSE,		/* drop the holders of that join state */
	MCG_IB_ABANDON,		/* release the whole group */
};

/**
 * mcg_ib_failure() - what a failed SA join leads to
 * @status: the join's status: -ENETRESET, the membership was lost;
 *          -EINVAL, the SA refused it; else it did not answer, or a local
 *          error
 * @bit: the join state bit
 * @held: the bits the SA ever gave the group
 * @unkeyed: the group still waits for an SA-assigned MGID
 *
 * A lost membership is joined again, and so is one the SA gave before
 * (after a failover the SA may refuse it until the group's creator is
 * back). A group without its MGID is abandoned on any other failure:
 * asking again would ask for another group. Otherwise an SA refusal of a
 * join state never held is final for that join state only: the group may
 * be held with others, which it keeps.
 *
 * Context: any; a pure function (see the top of this file).
 * Return: MCG_IB_RETRY, MCG_IB_REFUSE or MCG_IB_ABANDON.
 */
static inline enum mcg_ib_failure mcg_ib_failure(int status, u8 bit, u8 held,
						 bool unkeyed)
{
	if (status == -ENETRESET)
		return MCG_IB_RETRY;
	if (unkeyed)
		return MCG_IB_ABANDON;
	if (held & bit)
		return MCG_IB_RETRY;
	return status == -EINVAL ? MCG_IB_REFUSE : MCG_IB_RETRY;
}

/**
 * mcg_ib_group_gone() - is a group the SA keeps refusing given up?
 * @refusals: re-joins the SA refused in a row
 * @max: rejoin_refusals; 0 retries for ever
 * @want: the join states the group wants
 * @create_js: those asked for with create parameters
 *
 * Whether a held group whose re-joins the SA refused @refusals times in a
 * row is given up (@max; 0 retries for ever). Only a group that nobody
 * here could create again: none of the join states it wants (@want) is a
 * full one asked for with create parameters (@create_js). A group whose
 * creator is here is retried for as long as it is held.
 *
 * Context: any; a pure function (see the top of this file).
 * Return: true if it is given up.
 */
static inline bool mcg_ib_group_gone(unsigned int refusals, unsigned int max,
				     u8 want, u8 create_js)
{
	const u8 full = IB_MCG_JOIN_FULL | IB_MCG_JOIN_SENDONLY_FULL;

	return max && refusals >= max && !(want & create_js & full);
}

/**
 * mcg_ib_keep_stale() - is a membership given up kept for now?
 * @join_state: the join states the group is to hold
 * @added: the bits newly asked for
 * @stale: the bits already kept for that reason
 * @bit: the membership's bit
 * @joined: the membership is held
 *
 * Make before break: whether the SA membership of @bit, @joined or not,
 * is kept when the group is to hold @join_state. A held membership given
 * up while new bits (@added) are asked for, or one already kept for that
 * reason (@stale), stays until everything in @join_state is held; a
 * release (@join_state 0) keeps nothing.
 *
 * Context: any; a pure function (see the top of this file).
 * Return: true if it is kept.
 */
static inline bool mcg_ib_keep_stale(u8 join_state, u8 added, u8 stale,
				     u8 bit, bool joined)
{
	if (!join_state || (join_state & bit) || !joined)
		return false;
	return added || (stale & bit);
}

/*
 * Users' SA requests (backend_ib.c): the groups a user's join made cost,
 * for every join, re-join and Delete, a request of the port's bucket
 * (rejoin_rate), of the users' bucket (user_sa_rate_total) and of the
 * user's own (user_sa_rate), each refilled without backlog: over any
 * stretch of time T the SA sees at most 1 + T x user_sa_rate of one
 * user's requests (plus the Deletes charged as a debt, backend_ib.c).
 * A user's bucket that has refilled to an idle bucket's credit (one
 * request) is what a new one starts with: it is freed, and made again
 * when the user next asks, with nothing gained.
 */

/*
 * MCG_IB_LEAVES_MAX: root's leaves a port queues for the pacer at most.
 * A leave past it is sent at once, unpaced (and counted in flight as any
 * other): nothing is lost or kept, the SA sees a burst. Users' leaves are
 * not counted: a user's leaves are bounded by its holds (a user's group's
 * Delete is paid from the same budget as its joins, and sent first).
 */
#define MCG_IB_LEAVES_MAX	65536

/**
 * mcg_ib_leave_paced() - may a leave wait for the pacer?
 * @queued: root's leaves the port has queued
 * @max: the bound (MCG_IB_LEAVES_MAX)
 *
 * Context: any; a pure function (see the top of this file).
 * Return: true if one more leave may be queued, false if it must be
 * sent at once.
 */
static inline bool mcg_ib_leave_paced(unsigned int queued, unsigned int max)
{
	return queued < max;
}

/* ---- MGID ranges users may create groups in ------------------------------ */

/**
 * struct mcg_mgid_range - an MGID prefix: the first @len bits of @mgid
 * @mgid: the prefix, its bits after @len zero
 * @len: its length in bits, 8..128
 */
struct mcg_mgid_range {
	union ib_gid mgid;
	u8 len;
};

/**
 * mcg_mgid_in_range() - does an MGID start with a range's prefix?
 * @r: the range
 * @mgid: the MGID
 *
 * Context: any; a pure function (see the top of this file).
 * Return: true if the first @r->len bits of @mgid are @r's.
 */
static inline bool mcg_mgid_in_range(const struct mcg_mgid_range *r,
				     const union ib_gid *mgid)
{
	unsigned int bytes = r->len / 8, bits = r->len % 8;
	u8 mask = 0xff << (8 - bits);

	if (memcmp(r->mgid.raw, mgid->raw, bytes))
		return false;
	return !bits || !((r->mgid.raw[bytes] ^ mgid->raw[bytes]) & mask);
}

/* Are the bits of @mgid after the first @len zero? */
static inline bool mcg_mgid_prefix_only(const union ib_gid *mgid,
					unsigned int len)
{
	unsigned int i = len / 8;

	if (len % 8 && (mgid->raw[i++] & (0xff >> (len % 8))))
		return false;
	return !memchr_inv(mgid->raw + i, 0, sizeof(mgid->raw) - i);
}

/**
 * mcg_mgid_ranges_parse() - parse a list of MGID ranges
 * @s: "MGID[/LEN]" entries, separated by commas or white space (LEN 8 to
 *     128, default 128: one MGID); may be empty
 * @r: where the ranges go
 * @max: room in @r
 * @why: on error, what was wrong (a constant string)
 *
 * Each MGID must be a multicast GID (first byte 0xff) whose bits after
 * LEN are zero, so that each range is written one way only.
 *
 * Context: any; a pure function (see the top of this file).
 * Return: the number of ranges, or -EINVAL with @why set.
 */
static inline int mcg_mgid_ranges_parse(const char *s,
					struct mcg_mgid_range *r, int max,
					const char **why)
{
	static const char sep[] = ", \t\n";
	int n = 0;

	for (s += strspn(s, sep); *s; s += strspn(s, sep)) {
		size_t len = strcspn(s, sep), alen = len;
		const char *slash = memchr(s, '/', len), *end;
		struct mcg_mgid_range x = { .len = 128 };
		char num[4] = "";

		if (slash) {
			alen = slash - s;
			if (len - alen - 1 < sizeof(num))
				memcpy(num, slash + 1, len - alen - 1);
			if (kstrtou8(num, 10, &x.len) || x.len < 8 ||
			    x.len > 128) {
				*why = "a prefix length is not 8 to 128";
				return -EINVAL;
			}
		}
		if (!in6_pton(s, alen, x.mgid.raw, -1, &end) ||
		    end != s + alen) {
			*why = "an entry is not an MGID (an IPv6 address)";
			return -EINVAL;
		}
		if (x.mgid.raw[0] != 0xff) {
			*why = "an MGID is not a multicast GID (ff00::/8)";
			return -EINVAL;
		}
		if (!mcg_mgid_prefix_only(&x.mgid, x.len)) {
			*why = "an MGID has bits set after its prefix length";
			return -EINVAL;
		}
		if (n == max) {
			*why = "too many ranges";
			return -EINVAL;
		}
		r[n++] = x;
		s += len;
	}
	return n;
}

#endif /* _MCG_LOGIC_H */
