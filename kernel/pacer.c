// SPDX-License-Identifier: GPL-2.0
/*
 * The pacer of a port's SA requests: how many may go now, and how many
 * may be unanswered. backend_ib.c's join_work decides what goes and in
 * what order (its top comment); it asks here whether a request may go and
 * pays for it here. pacer.h has the model these functions apply.
 *
 * The pace. Re-joins, retries and leaves go at the pace of the port's
 * window (the window law, pacer.h): W requests in flight, sent over one
 * SA round trip, one every round trip / W, by a token bucket
 * (mcg_tb_refill()): each run sends as many as the time elapsed since
 * the last one pays for, so the pace holds however late the work runs.
 * Credit keeps growing (up to its cap, 10 ms of requests) while paced
 * requests wait, whether for credit or for the in-flight limit: a wave
 * held back by the limit must not lose the time it waited. A longer
 * pause is not made up (pacer.h, the token bucket). rejoin_rate, if set,
 * caps the pace: an admin's upper bound, never a floor.
 *
 * The window. Every answer of the SA to a join (a success or a refusal)
 * is timed from its send to done_work's handling of it (the time of our
 * own workqueues is part of the cycle that frees a slot): the smoothed
 * round trip (mcg_srtt_update()) paces the window, and each run of the
 * pacer ends a round of the law if it is over (mcg_win_round()), which
 * moves the window by its estimate of the port's requests in the SA's
 * queue. The window starts small at the port's start and at every re-join
 * wave: after a client reregister every node of the fabric starts at
 * once, and the SA's round trip, not a rate set for one node, tells each
 * how much the SA takes. Nothing here knows the fleet's size or the SA's
 * capacity.
 *
 * The in-flight limit. A join is unanswered until its callback, a leave
 * until its Delete's answer is certain (backend_ib.c's leaves_reap()).
 * Joins may have the window (rounded up, at least 1) unanswered, at most
 * rejoin_inflight (mcg_pacer_join_limit()), and all requests together
 * rejoin_inflight (mcg_pacer_joins_full()): a Delete waiting for its
 * answer takes no place in the window, and the SA never has more than
 * rejoin_inflight of the port's requests. JOINs, sent first, may fill
 * the window, but never take the last slot of the paced joins
 * (mcg_pacer_rejoins_full()): a wave always moves. Leaves go while
 * fewer than MCG_INFLIGHT_MIN requests are unanswered
 * (mcg_leave_limit()): their answers are not seen, only noticed at the
 * next run.
 * Measurements: Documentation/design-notes.rst, "Fleet-scale recovery".
 *
 * Users. Users' requests are paced and bounded per user and in total:
 * each costs a request of the port's bucket (the window's pace), of the
 * users' bucket (user_sa_rate_total) and of the user's own (user_sa_rate,
 * a struct mcg_ib_user on port->ib.users, freed once it has refilled: see
 * mcg_tb_idle()), the last two refilled without catch-up; and users'
 * joins have at most half the port's in-flight limit unanswered
 * (mcg_user_inflight_limit()). A Delete sent at once, unpaced, of a
 * user's group is charged as a debt its next requests wait for
 * (mcg_pacer_user_debt()).
 *
 * Locking: everything here is under mcg_lock (port->ib's counters,
 * buckets and users).
 */
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "ib_mcgroups.h"
#include "pacer.h"

static unsigned int rejoin_rate;
module_param(rejoin_rate, uint, 0644);
MODULE_PARM_DESC(rejoin_rate,
		 "SA requests (re-joins, retries, leaves) one port sends per second at most, a cap on the pace the SA's round trip sets (default 0: no cap; see the admin guide, \"Re-join pacing\")");

static unsigned int rejoin_inflight = 64;
module_param(rejoin_inflight, uint, 0644);
MODULE_PARM_DESC(rejoin_inflight,
		 "SA requests (joins, Deletes) one port has unanswered at most (default 64); joins use the window of it the SA's round trip sets, Deletes go while fewer than 8 are unanswered");

static unsigned int user_sa_rate = 2;
module_param(user_sa_rate, uint, 0644);
MODULE_PARM_DESC(user_sa_rate,
		 "SA requests (joins, re-joins, Deletes) the groups one user without CAP_NET_ADMIN made may cost one port per second at most (default 2; 0 counts as 1)");

static unsigned int user_sa_rate_total = 10;
module_param(user_sa_rate_total, uint, 0644);
MODULE_PARM_DESC(user_sa_rate_total,
		 "SA requests the groups of all users without CAP_NET_ADMIN together may cost one port per second at most (default 10; 0 counts as 1)");

/**
 * mcg_pace_begin() - start a run of the pacer
 * @port: the port
 * @p: filled with the run's intervals and time
 *
 * Refills the port's and the users' buckets for the time since the last
 * run and clears what the last run noted (backlog, need_slot).
 */
void mcg_pace_begin(struct mcg_port *port, struct mcg_pace *p)
{
	struct mcg_ib_port *ib = &port->ib;
	unsigned int rate = READ_ONCE(rejoin_rate);
	u64 now_ns = ktime_get_ns();

	/* the window's maximum: rejoin_inflight (in 1/MCG_WIN_ONE requests) */
	mcg_win_round(&ib->win, now_ns,
		      clamp(READ_ONCE(rejoin_inflight), 1U,
			    U32_MAX / MCG_WIN_ONE) * MCG_WIN_ONE);
	*p = (struct mcg_pace){
		.rinterval = rate ? mcg_pace_interval_ns(rate) : 0,
		.uinterval = mcg_pace_interval_ns(READ_ONCE(user_sa_rate)),
		.tinterval = mcg_pace_interval_ns(READ_ONCE(user_sa_rate_total)),
		.now_ns = now_ns,
	};
	/* the window's pace, never faster than rejoin_rate (0: none) */
	p->interval = max(p->rinterval,
			  mcg_win_pace_ns(&ib->win, ib->srtt_ns));
	ib->credit = mcg_tb_refill(ib->credit, p->now_ns - ib->credit_ns,
				   p->interval, MCG_TB_CAP_NS, ib->backlog);
	ib->credit_ns = p->now_ns;
	ib->ucredit = mcg_tb_refill(ib->ucredit, p->now_ns - ib->ucredit_ns,
				    p->tinterval, MCG_TB_CAP_NS, false);
	ib->ucredit_ns = p->now_ns;
	ib->backlog = false;
	ib->need_slot = false;
}

/**
 * mcg_pacer_join_limit() - the in-flight limit of joins
 * @port: the port
 *
 * Return: the port's window (the window law), at most rejoin_inflight.
 */
unsigned int mcg_pacer_join_limit(const struct mcg_port *port)
{
	return min(mcg_win_inflight(port->ib.win.w),
		   max(READ_ONCE(rejoin_inflight), 1U));
}

/**
 * mcg_pacer_wave_start() - the port's window starts again
 * @port: the port
 *
 * At the port's start and at each re-join wave: after a reregister every
 * node of the fabric starts at once, each with a small window and one
 * request unanswered until its first sample (mcg_win_pace_ns()): the
 * round trip of the last wave (an SA's queue, maybe) says nothing of the
 * new SM's.
 */
void mcg_pacer_wave_start(struct mcg_port *port)
{
	mcg_win_init(&port->ib.win);
	port->ib.srtt_ns = 0;
}

/**
 * mcg_pacer_joins_full() - may the port send no more joins now?
 * @port: the port
 * @limit: its in-flight limit of joins this run (mcg_pacer_join_limit())
 *
 * Joins have @limit (the window) unanswered at most, and all requests
 * together, Deletes included, rejoin_inflight: a Delete waiting for its
 * answer takes no place in the window, and the SA still never has more
 * than rejoin_inflight of the port's requests.
 *
 * Return: true if no join may go now.
 */
bool mcg_pacer_joins_full(const struct mcg_port *port, unsigned int limit)
{
	return mcg_inflight_full(port->ib.inflight, limit) ||
	       mcg_inflight_full(port->ib.inflight + port->ib.leaves_inflight,
				 READ_ONCE(rejoin_inflight));
}

/**
 * mcg_pacer_rejoins_full() - may the port send no more paced joins now?
 * @port: the port
 * @limit: its in-flight limit of joins this run (mcg_pacer_join_limit())
 *
 * As mcg_pacer_joins_full(), but a JOIN's joins (sent first, from the
 * fresh list) never take the last slot of the paced ones: with none of
 * those unanswered, one may go even when JOINs fill the window. A window
 * of one request (a busy node's own delays read as the SA's queue) and a
 * steady stream of JOINs would otherwise hold a re-join wave back for as
 * long as the stream lasts. Joins unanswered are then the window plus
 * one at most, and all requests still rejoin_inflight.
 *
 * Return: true if no paced join may go now.
 */
bool mcg_pacer_rejoins_full(const struct mcg_port *port, unsigned int limit)
{
	/* none of them unanswered: only the bound of all requests holds */
	return mcg_pacer_joins_full(port, port->ib.inflight == port->ib.finflight ?
				    UINT_MAX : limit);
}

/**
 * mcg_pacer_leaves_full() - may the port send no more Deletes now?
 * @port: the port
 *
 * Return: true if joins and Deletes unanswered together reach the
 * leaves' limit (mcg_pacer_leave_limit()).
 */
bool mcg_pacer_leaves_full(const struct mcg_port *port)
{
	return mcg_inflight_full(port->ib.inflight + port->ib.leaves_inflight,
				 mcg_pacer_leave_limit());
}

/**
 * mcg_pacer_leave_limit() - the in-flight limit of leaves
 *
 * Their answer is not seen (multicast.c sends the Delete), only noticed
 * at the next run, so no round trip of theirs is measured or waited for.
 *
 * Return: the minimum limit.
 */
unsigned int mcg_pacer_leave_limit(void)
{
	return mcg_leave_limit(READ_ONCE(rejoin_inflight));
}

/**
 * mcg_pacer_join_sent() - a join of @m went to the SA
 * @port: the port
 * @m: the membership
 * @user: its group's SA requests are a user's
 * @fresh: a JOIN's, sent from the fresh list (mcg_pacer_rejoins_full())
 * @timed: the SA answers it (not multicast.c itself): its round trip is
 *	a sample (mcg_pacer_rtt_sample())
 *
 * Takes an in-flight slot (a user's share too) and times the join.
 */
void mcg_pacer_join_sent(struct mcg_port *port, struct mcg_ib_memb *m,
			 bool user, bool fresh, bool timed)
{
	m->user = user;
	m->fresh = fresh;
	m->sent_ns = timed ? ktime_get_ns() : 0;
	port->ib.inflight++;
	if (user)
		port->ib.uinflight++;
	if (fresh)
		port->ib.finflight++;
}

/**
 * mcg_pacer_join_done() - a join of @m is answered or given up
 * @port: the port
 * @m: the membership
 *
 * Its slot is free.
 */
void mcg_pacer_join_done(struct mcg_port *port, struct mcg_ib_memb *m)
{
	port->ib.inflight--;
	if (m->user)
		port->ib.uinflight--;
	if (m->fresh)
		port->ib.finflight--;
	m->user = false;
	m->fresh = false;
}

/**
 * mcg_pacer_rtt_sample() - the SA answered a join of @m
 * @port: the port
 * @m: the membership
 * @status: the answer's (0, or an error)
 *
 * Its round trip, from the send to done_work's handling of the answer,
 * is a sample of the SA's for the smoothed round trip and the window,
 * unless mcg_rtt_is_sa() says it is not. A refusal (maybe the SA's BUSY)
 * or a time-out is told to the window instead (mcg_status_cuts()), unless
 * the join was a user's: a user who asked for joins the SA refuses would
 * otherwise keep the window, and root's re-joins, at their slowest.
 */
void mcg_pacer_rtt_sample(struct mcg_port *port, struct mcg_ib_memb *m,
			  int status)
{
	u64 sent_ns = m->sent_ns, rtt_ns;

	m->sent_ns = 0;
	if (sent_ns && !m->user && mcg_status_cuts(status))
		mcg_win_refused(&port->ib.win, sent_ns);
	if (!mcg_rtt_is_sa(sent_ns, port->ib.reset_ns, status))
		return;
	rtt_ns = ktime_get_ns() - sent_ns;
	port->ib.srtt_ns = mcg_srtt_update(port->ib.srtt_ns, rtt_ns);
	mcg_win_sample(&port->ib.win, rtt_ns);
}

/*
 * A user's bucket (struct mcg_ib_user), refilled to @now_ns, made if the
 * user has none; NULL without memory (its work waits for the next run).
 */
static struct mcg_ib_user *user_bucket(struct mcg_port *port, kuid_t uid,
				       u64 interval, u64 now_ns)
{
	struct mcg_ib_user *u;

	list_for_each_entry(u, &port->ib.users, node) {
		if (!uid_eq(u->uid, uid))
			continue;
		u->credit = mcg_tb_refill(u->credit, now_ns - u->credit_ns,
					  interval, MCG_TB_CAP_NS, false);
		u->credit_ns = now_ns;
		return u;
	}
	u = kzalloc(sizeof(*u), GFP_KERNEL);
	if (!u)
		return NULL;
	u->uid = uid;
	u->credit = interval;	/* an idle bucket's: one request */
	u->credit_ns = now_ns;
	list_add(&u->node, &port->ib.users);
	return u;
}

/**
 * mcg_pacer_users_trim() - free the users' buckets that have refilled
 * @port: the port
 * @p: the run's pacing state
 *
 * A bucket that has refilled (mcg_tb_idle()) is as good as none.
 */
void mcg_pacer_users_trim(struct mcg_port *port, const struct mcg_pace *p)
{
	u64 interval = p->uinterval, now_ns = p->now_ns;
	struct mcg_ib_user *u, *tmp;

	list_for_each_entry_safe(u, tmp, &port->ib.users, node) {
		u->credit = mcg_tb_refill(u->credit, now_ns - u->credit_ns,
					  interval, MCG_TB_CAP_NS, false);
		u->credit_ns = now_ns;
		if (mcg_tb_idle(u->credit, interval)) {
			list_del(&u->node);
			kfree(u);
		}
	}
}

/*
 * May a request of user @u's group go (the port's, the users' and its
 * own credit)? If not, notes when it could. @u NULL: the users' bucket
 * only.
 */
static bool user_may_send(struct mcg_port *port, struct mcg_ib_user *u,
			  struct mcg_pace *p)
{
	u64 w = max(mcg_tb_wait_ns(port->ib.credit, p->interval),
		    mcg_tb_wait_ns(port->ib.ucredit, p->tinterval));

	if (u)
		w = max(w, mcg_tb_wait_ns(u->credit, p->uinterval));
	if (!w)
		return true;
	if (!p->uwait || w < p->uwait_ns)
		p->uwait_ns = w;
	p->uwait = true;
	return false;
}

/**
 * mcg_pacer_user_turn() - may a request of a user's group go now?
 * @port: the port
 * @uid: the user its requests are charged to (g->sa_uid)
 * @p: the run's pacing state; notes when users' work could go
 * @stop: set if no user's request may go now
 *
 * Return: the budget the request is paid from (mcg_pacer_user_take()),
 * if it may go now. NULL with *@stop set: no user's request may go now
 * (the port's or the users' bucket is empty, or no memory for @uid's);
 * NULL alone: @uid's own bucket is empty, another user's request may go.
 */
struct mcg_ib_user *mcg_pacer_user_turn(struct mcg_port *port, kuid_t uid,
					struct mcg_pace *p, bool *stop)
{
	struct mcg_ib_user *u;

	*stop = !user_may_send(port, NULL, p);
	if (*stop)
		return NULL;
	u = user_bucket(port, uid, p->uinterval, p->now_ns);
	if (!u) {
		p->uwait = true;
		*stop = true;
		return NULL;
	}
	return user_may_send(port, u, p) ? u : NULL;
}

/**
 * mcg_pacer_user_take() - pay for requests of a user's group
 * @port: the port
 * @u: the user's budget (mcg_pacer_user_turn())
 * @p: the run's pacing state
 * @n: the requests sent
 *
 * From the port's, the users' and the user's own bucket.
 */
void mcg_pacer_user_take(struct mcg_port *port, struct mcg_ib_user *u,
			 struct mcg_pace *p, unsigned int n)
{
	port->ib.credit = mcg_tb_take(port->ib.credit, p->interval, n);
	port->ib.ucredit = mcg_tb_take(port->ib.ucredit, p->tinterval, n);
	u->credit = mcg_tb_take(u->credit, p->uinterval, n);
}

/**
 * mcg_pacer_user_debt() - charge a user for a request sent unpaced
 * @port: the port
 * @uid: the user its group's requests are charged to
 * @now_ns: ktime_get_ns() now
 *
 * A Delete of a user's group sent at once (its join was in flight) is
 * paid from the users' and the user's bucket as a debt: their next
 * requests wait for it.
 */
void mcg_pacer_user_debt(struct mcg_port *port, kuid_t uid, u64 now_ns)
{
	u64 iv = mcg_pace_interval_ns(READ_ONCE(user_sa_rate));
	u64 tiv = mcg_pace_interval_ns(READ_ONCE(user_sa_rate_total));
	struct mcg_ib_user *u = user_bucket(port, uid, iv, now_ns);

	if (u)
		u->credit = mcg_tb_take(u->credit, iv, 1);
	port->ib.ucredit = mcg_tb_take(port->ib.ucredit, tiv, 1);
}

/**
 * mcg_pacer_users_free() - free every user's bucket of a port
 * @port: the port, going away
 */
void mcg_pacer_users_free(struct mcg_port *port)
{
	struct mcg_ib_user *u, *tmp;

	list_for_each_entry_safe(u, tmp, &port->ib.users, node) {
		list_del(&u->node);
		kfree(u);
	}
}
