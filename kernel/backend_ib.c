// SPDX-License-Identifier: GPL-2.0
/*
 * InfiniBand join backend: memberships through the SA with
 * ib_sa_join_multicast(), one per (group, join state bit) - multicast.c
 * merges the join states of all its users into one SA record per port -
 * and re-joined by us whenever the fabric loses them.
 *
 * multicast.c reports a lost membership (CLIENT_REREGISTER, PORT_ERR,
 * LID_CHANGE, a moved P_Key) with -ENETRESET and never re-joins.
 *
 * At PORT_ACTIVE, PORT_ERR, LID_CHANGE, PKEY_CHANGE, SM_CHANGE and
 * CLIENT_REREGISTER ib_sa drops its address handle for the SM and makes a
 * new one in a work on ib_wq (update_sm_ah()); until that has run, every
 * SA query fails with -EAGAIN, which multicast.c passes to our callback.
 * Our own handling of the event (resync_work, ib_refresh(), the pacer)
 * may well come first, on PREEMPT_RT in particular; after a re-register
 * the settle time hides it, after a PORT_ACTIVE nothing does. Such a
 * request never left the node: it is no answer of the SA. The membership
 * is asked for again after 16 ms, doubled per try, MCG_IB_EAGAIN_TRIES
 * times in a row (about 1 s in all; eagain_retry()), with the group left
 * as it is (joining), counted nowhere and reported to nobody. It goes to
 * the head of the retry list: paced like any retry, but not behind a
 * re-join wave, and a fresh join stays ahead of the wave. Only after that
 * is the -EAGAIN a failure like any other (retry-wait, reason error,
 * EAGAIN, the backoff; an SA-assigned MGID's join fails): ib_sa could not
 * make the address handle, and has none until the next port event. A
 * membership's count restarts when the SA answers it; it is kept over a
 * port down (no join is sent until the port is ACTIVE again), and dies
 * with the group: a retry waiting is only the group's place on the retry
 * list, which a release or the port's end takes it off.
 *
 * The pacer (join_work) sends a port's SA requests, in this order:
 *
 *  - root's fresh joins, the join states a JOIN with CAP_NET_ADMIN asked
 *    for (port->ib.fresh): at once, not paced, so that an application
 *    never waits behind a re-join wave;
 *  - re-joins of root's groups' lost memberships and retries of failed
 *    joins (port->ib.retry; a failed attempt comes back after an
 *    exponential backoff with jitter, for as long as the group has
 *    holders);
 *  - root's leaves (port->ib.leaves): a membership let go of is freed
 *    with ib_sa_free_multicast() - which sends the SA Delete - by the
 *    pacer, not by the request that let go of it, so that releasing
 *    thousands of groups at once does not flood the SA (and the port's
 *    MAD receive queue, whose overflow makes multicast.c resend Deletes);
 *  - then, only while none of root's paced work above waits (for credit
 *    or the in-flight limit), users' work: the leaves, and then the
 *    fresh joins, re-joins and retries (port->ib.ujoins), of the groups
 *    a user without CAP_NET_ADMIN made (mcg_group.user_sa, until root
 *    joins them; charged to the user whose join made it, sa_uid).
 *
 * How many requests may go and how fast - rejoin_rate, the users'
 * budgets (user_sa_rate, user_sa_rate_total), the in-flight limit that
 * follows the SA's round trip - is the pacer's (pacer.c). A user's loop
 * of JOIN, LEAVE and close therefore costs the SA no more than its
 * budget, however fast it runs: a join let go of before its turn sends
 * nothing. A group root joins while it waits as a user's is root's:
 * ib_update() moves it to root's fresh joins at once.
 *
 * A membership let go of while its join is in flight keeps its slot: it
 * is freed at once and counted as a leave in flight from then on
 * (multicast.c's join goes on, and its Delete follows the answer) until
 * the Delete has been answered, as any leave; a user's group's Delete is
 * charged to the user's budget then, as a debt its next requests wait
 * for. So in any T seconds the SA sees at most 1 + T x user_sa_rate
 * requests of one user's groups, plus the joins it let go of in flight
 * (the users' share of the in-flight limit at most). Root's queued leaves are bounded
 * (MCG_IB_LEAVES_MAX): one past the bound is sent at once, unpaced, and
 * counted in flight - nothing is lost or kept, the SA sees a burst.
 * Users' queued leaves need no bound of their own: each is of a
 * membership the user's budget paid for, and a user's leaves go before
 * its joins, so they are bounded by its holds (user_max_holds).
 *
 * A group lost by other means than the SA (a GID change, REJOIN) leaves
 * its memberships through this pacer too (leave_and_rejoin()) and is
 * re-joined only once they are sent: multicast.c would answer a join of
 * a membership it still has without asking the SA.
 *
 * Joins go only while the port is ACTIVE and not before the settle time
 * after a re-register (a new SM master ignores requests during its first
 * sweep), which begins when resync_work handles the event: a wave whose
 * losses multicast.c reported before that waits for it (wave_unheard()).
 * A re-join wave is root's: it ends when root's groups have
 * their memberships again, whatever users' groups still wait. At the
 * start of a wave, multicast.c reports the lost groups one at a time on
 * its ordered workqueue, and the first re-joins queue behind the rest of
 * those reports (how long that took: see Documentation/design-notes.rst);
 * that time is lost to the wave. A join is unanswered until its callback,
 * a leave until multicast.c has dropped its group
 * (ib_sa_get_mcmember_rec() no longer finds it, after the Delete's
 * answer) or its membership is joined again (leave_answered()), or
 * LEAVE_INFLIGHT_NS at most (the SA may be gone, or another
 * user of the port may still hold the group). join_work runs when a
 * request is due: a JOIN, a group's retry time, the next token, the end
 * of the settle time, or (need_slot) an answer that frees room under the
 * in-flight limit; arm() never delays a run already due.
 *
 * Locking: the lists, counters and buckets above are under mcg_lock;
 * SA callbacks must not take mcg_lock, because the paths that
 * free a membership hold it and ib_sa_free_multicast() waits for running
 * callbacks. A callback only records its result under mcg_ib_lock and
 * queues the port's done_work, which handles it under mcg_lock. A freed
 * membership is taken off the done list, so done_work never sees it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_sa.h>

#include "ib_mcgroups.h"
#include "mcg_logic.h"
#include "pacer.h"

static unsigned int settle_ms = 3000;
module_param(settle_ms, uint, 0644);
MODULE_PARM_DESC(settle_ms,
		 "Wait after CLIENT_REREGISTER before re-joining, plus up to half as much random jitter (default 3000: a new opensm master ignores SA requests during its first sweep)");

static unsigned int rejoin_refusals = 10;
module_param(rejoin_refusals, uint, 0644);
MODULE_PARM_DESC(rejoin_refusals,
		 "Re-joins the SA may refuse in a row before a group that no holder here can create again is released with reason group-gone (default 10, about 5 minutes with the default backoff; 0: retry for ever)");

static unsigned int backoff_base_ms = 1000;
module_param(backoff_base_ms, uint, 0644);
MODULE_PARM_DESC(backoff_base_ms,
		 "First retry delay after a failed join; doubles per failure (default 1000)");

static unsigned int backoff_max_ms = 60000;
module_param(backoff_max_ms, uint, 0644);
MODULE_PARM_DESC(backoff_max_ms,
		 "Longest retry delay (default 60000); each delay gets -50..+50% jitter");

enum { MCG_MEMB_NONE, MCG_MEMB_JOINING, MCG_MEMB_JOINED };

static DEFINE_SPINLOCK(mcg_ib_lock);
static struct ib_sa_client mcg_sa_client;
/* Groups' memberships (struct mcg_ib_memb), allocated as they are wanted. */
static struct kmem_cache *mcg_ib_memb_cache;

/* A Delete counts as unanswered this long at most: its first timeout. */
#define LEAVE_INFLIGHT_NS	(3500 * NSEC_PER_MSEC)

/*
 * Runs join_work at jiffies @when, or earlier if it is due earlier
 * already: a pending run is never put off, and one due no later is left
 * alone. Under mcg_lock, which keeps wake_at; a run that has just started
 * (no longer pending) may be queued once more, which costs a run.
 */
static void arm(struct mcg_port *port, unsigned long when)
{
	unsigned long now = jiffies;

	if (delayed_work_pending(&port->ib.join_work) &&
	    !time_after(port->ib.wake_at, when))
		return;
	if (time_before(when, now))
		when = now;
	port->ib.wake_at = when;
	mod_delayed_work(mcg_wq, &port->ib.join_work, when - now);
}

/* The list a group's paced joins wait on: root's, or users' behind it. */
static struct list_head *retry_list(struct mcg_port *port,
				    struct mcg_group *g)
{
	return g->user_sa ? &port->ib.ujoins : &port->ib.retry;
}

/* Queues @g for paced joins after @delay_ms. */
static void retry_later(struct mcg_group *g, unsigned int delay_ms)
{
	struct mcg_port *port = g->port;

	mcg_ib(g)->retry_at = jiffies + msecs_to_jiffies(delay_ms);
	if (list_empty(&mcg_ib(g)->retry_node))
		list_add_tail(&mcg_ib(g)->retry_node, retry_list(port, g));
	arm(port, mcg_ib(g)->retry_at);
}

/* base * 2^failures, capped, then -50..+50% so that nodes spread out. */
static unsigned int backoff_ms(unsigned int failures)
{
	return mcg_backoff_ms(failures, READ_ONCE(backoff_base_ms),
			      READ_ONCE(backoff_max_ms), get_random_u32());
}

static void memb_free(struct mcg_port *port, struct mcg_ib_memb *m)
{
	if (!m->mc)
		return;
	ib_sa_free_multicast(m->mc);	/* waits for its callbacks */
	m->mc = NULL;
	spin_lock_irq(&mcg_ib_lock);
	list_del_init(&m->done_node);
	spin_unlock_irq(&mcg_ib_lock);
	if (m->state == MCG_MEMB_JOINING) {
		mcg_pacer_join_done(port, m);
		/* No answer will come to run the pacer: run it now. */
		if (port->ib.need_slot && !port->dead)
			arm(port, jiffies);
	}
	m->state = MCG_MEMB_NONE;
}

/*
 * Lets go of @m's membership, paced: the pacer frees it (and so sends
 * the SA Delete) when its turn comes, a user's group's from the user's
 * budget. Its callbacks are ignored from now on: the context is cleared
 * under mcg_ib_lock, which ib_join_done() reads it under, so that none
 * can reach @m, freed with its group.
 *
 * A membership still joining is freed now, but keeps its in-flight
 * slot, as a leave in flight from now on: multicast.c's join goes on,
 * and its Delete follows the answer; a user's group's Delete is charged
 * to the user's budget now (a debt its next requests wait for). Freed
 * later, a re-join of the same MGID meanwhile would find multicast.c's
 * membership and send nothing, and the next leave would wait behind it.
 *
 * A membership never sent (no Delete to send), one of a port going
 * away, or one without memory for the queue entry, is freed at once;
 * so is one of root's past MCG_IB_LEAVES_MAX queued (its Delete
 * unpaced, counted in flight). With @rejoin, the group is re-joined
 * once the leave has been sent (leave_and_rejoin()). Returns true if the
 * leave waits for the pacer.
 */
static bool memb_leave_paced(struct mcg_port *port, struct mcg_ib_memb *m,
			     bool rejoin)
{
	struct mcg_group *g = m->g;
	bool joining = m->state == MCG_MEMB_JOINING;
	struct mcg_ib_leave *l;
	u64 now_ns;

	if (!m->mc)
		return false;
	l = (m->state == MCG_MEMB_JOINED || joining) && !port->dead ?
	    kzalloc(sizeof(*l), GFP_KERNEL) : NULL;
	if (!l) {
		memb_free(port, m);
		return false;
	}
	spin_lock_irq(&mcg_ib_lock);
	m->mc->context = NULL;
	list_del_init(&m->done_node);
	spin_unlock_irq(&mcg_ib_lock);
	l->mc = m->mc;
	l->mgid = g->mgid;
	l->bit = m->bit;
	l->group_id = g->id;
	l->user = g->user_sa;
	l->uid = g->sa_uid;
	l->rejoin = rejoin;
	m->mc = NULL;
	if (joining) {
		/* The join's slot goes on as the leave's. */
		mcg_pacer_join_done(port, m);
		l->joining = true;
	}
	m->state = MCG_MEMB_NONE;
	if (joining ||
	    (!l->user &&
	     !mcg_ib_leave_paced(port->ib.nleaves, MCG_IB_LEAVES_MAX))) {
		/* Sent now (the bound, or a join in flight), counted in flight. */
		now_ns = ktime_get_ns();
		ib_sa_free_multicast(l->mc);
		l->mc = NULL;
		l->sent_ns = now_ns;
		list_add_tail(&l->node, &port->ib.leaves_sent);
		port->ib.leaves_inflight++;
		if (l->user)
			mcg_pacer_user_debt(port, l->uid, now_ns);
		/*
		 * No answer reports a leave's end: a run waiting for a slot
		 * must look for it (join_work looks each tick while it waits
		 * and leaves are in flight), or nothing may run it again.
		 */
		if (port->ib.need_slot && !port->dead)
			arm(port, jiffies);
		return false;
	}
	if (!l->user) {
		port->ib.nleaves++;
		if (rejoin)
			port->ib.rejoin_leaves++;
	}
	list_add_tail(&l->node, &port->ib.leaves);
	arm(port, jiffies);
	return true;
}

static void memb_leave(struct mcg_port *port, struct mcg_ib_memb *m)
{
	memb_leave_paced(port, m, false);
}

/* SA callback: record and hand over to done_work; see the top comment. */
static int ib_join_done(int status, struct ib_sa_multicast *mc)
{
	struct mcg_port *port;
	struct mcg_ib_memb *m;
	unsigned long flags;

	spin_lock_irqsave(&mcg_ib_lock, flags);
	m = mc->context;
	if (!m) {
		/* Let go of (memb_leave()): waits for the pacer to free it. */
		spin_unlock_irqrestore(&mcg_ib_lock, flags);
		return 0;
	}
	port = m->g->port;
	m->status = status;
	if (list_empty(&m->done_node))
		list_add_tail(&m->done_node, &port->ib.done);
	spin_unlock_irqrestore(&mcg_ib_lock, flags);
	queue_work(mcg_wq, &port->ib.done_work);
	return 0;	/* we free it ourselves, never from here */
}

static bool all_joined(struct mcg_group *g)
{
	int i;

	for (i = 0; i < 4; i++)
		if ((mcg_ib(g)->want & BIT(i)) &&
		    (!mcg_ib(g)->m[i] ||
		     mcg_ib(g)->m[i]->state != MCG_MEMB_JOINED))
			return false;
	return true;
}

static void wave_start(struct mcg_port *port)
{
	if (port->ib.wave)
		return;
	port->ib.wave = true;
	port->ib.wave_seq++;
	port->ib.wave_start_ns = ktime_get_ns();
	mcg_pacer_wave_start(port);
	mcg_port_event(port, IB_MCG_CMD_REJOIN_WAVE_START_NTF);
}

/* @g lost its memberships: a wave is on, and @g was lost in it. */
static void wave_lose(struct mcg_port *port, struct mcg_group *g)
{
	wave_start(port);
	mcg_ib(g)->lost_wave = port->ib.wave_seq;
}

/* @g is back (or gone): the wave no longer waits for it. */
static void wave_got(struct mcg_port *port, struct mcg_group *g)
{
	if (!mcg_ib(g)->wave_wait)
		return;
	mcg_ib(g)->wave_wait = false;
	port->ib.wave_waits--;
}

/*
 * A CLIENT_REREGISTER or LID_CHANGE makes multicast.c report every joined
 * group of the port lost (-ENETRESET), one at a time on its own
 * workqueue, and it may report them after we have seen the event: until
 * then, such a group still looks joined and waits on no list, and an SA
 * answer of other work (a fresh join, a user's) would find the wave
 * finished. So every group of root's that is joined now is one the wave
 * waits for, until it is joined again or released - but not one already
 * reported lost in the wave that is on: multicast.c may report groups,
 * and the pacer join them again, before our event handler has even run
 * (it comes after ib_sa's, and other handlers may come between); such a
 * group is joined again, not still to be reported, and would keep the
 * wave open until MCG_WAVE_REPORT_MS. After that time, groups never
 * reported are let go: one mid-join at the event, for one.
 */
#define MCG_WAVE_REPORT_MS	10000

static void wave_expect(struct mcg_port *port)
{
	struct rb_node *n;

	for (n = rb_first(&port->groups); n; n = rb_next(n)) {
		struct mcg_group *g = rb_entry(n, struct mcg_group, node);

		if (g->user_sa || !mcg_ib(g)->want || mcg_ib(g)->wave_wait ||
		    !all_joined(g) ||
		    (port->ib.wave && mcg_ib(g)->lost_wave == port->ib.wave_seq))
			continue;
		mcg_ib(g)->wave_wait = true;
		port->ib.wave_waits++;
	}
	if (!port->ib.wave_waits)
		return;
	wave_start(port);
	port->ib.wave_wait_until = jiffies + msecs_to_jiffies(MCG_WAVE_REPORT_MS);
	arm(port, port->ib.wave_wait_until);
}

/*
 * After MCG_WAVE_REPORT_MS: what was not reported lost was not lost.
 * Until then, the pacer is kept armed for that time (arm() leaves an
 * earlier run alone, which must then arm it again).
 */
static void wave_wait_expire(struct mcg_port *port)
{
	struct rb_node *n;

	if (!port->ib.wave_waits)
		return;
	if (time_before(jiffies, port->ib.wave_wait_until)) {
		arm(port, port->ib.wave_wait_until);
		return;
	}
	for (n = rb_first(&port->groups); n; n = rb_next(n))
		wave_got(port, rb_entry(n, struct mcg_group, node));
}

/*
 * A loss report that came before resync_work had handled the event behind
 * it (our event handler runs after ib_sa's, and anything between them
 * delays it). Until resync_work runs, nothing marks the groups
 * multicast.c has still to report (wave_expect()), and the wave would end
 * as soon as those reported so far are back. That can come before the
 * other reports: a join that comes while a group's own work runs on
 * multicast.c's workqueue is sent from that work, ahead of the reports
 * queued behind it. And the event may be a CLIENT_REREGISTER, whose
 * settle time begins only when resync_work handles it.
 *
 * Every event multicast.c reports losses for comes to our handler too;
 * its reports may come before or after it, but not that long after. And
 * multicast.c reports a membership lost once for the events that came
 * while its group's work waited, and only if it is joined: an event
 * explains one report of each membership, and none of one joined after
 * it was heard (issue() charges each join to the last event heard). So a
 * report of @m is explained if an event was heard in the last
 * MCG_WAVE_REPORT_MS that @m is not charged to; it is charged to it
 * (mcg_loss_explained()). Otherwise it is charged to the next event
 * heard, and the port waits (wave_unheard_wait()) until resync_work has
 * handled one (ib_refresh()), or for MCG_WAVE_REPORT_MS: an event heard a
 * moment ago, whose reports came, does not explain a second event's. Two
 * cases are still explained by an event that did not lose them, within
 * 10 s of it: the groups a P_Key change left alone (it reports only those
 * whose P_Key moved), and a join in flight at the event, which
 * multicast.c sends again itself and which we sent, and charged, before
 * we heard of it. Such a report is re-joined without waiting to hear of
 * the event behind it, which at worst sends it into a new master's first
 * sweep, and ib_mad sends it again. Charging the groups a P_Key change
 * leaves alone to it would need multicast.c's P_Key index of each group,
 * which it takes at the group's first join and keeps while any client
 * holds the group (IPoIB, for one), across our re-joins: where a copy of
 * ours differed, the port would wait 10 s.
 */
static void wave_unheard(struct mcg_port *port, struct mcg_ib_memb *m)
{
	u64 now_ns = ktime_get_ns();

	if (mcg_loss_explained(port->ib.heard_ns, port->ib.heard_seq,
			       &m->lost_seq, now_ns,
			       MCG_WAVE_REPORT_MS * NSEC_PER_MSEC))
		return;
	if (mcg_ib_unheard_left_ns(port))
		return;
	port->ib.unheard_ns = now_ns;
	arm(port, jiffies + msecs_to_jiffies(MCG_WAVE_REPORT_MS));
}

/**
 * mcg_ib_unheard_left_ns() - how long does the port still wait to hear of
 * the event behind a loss report (wave_unheard())?
 * @port: an IB port
 *
 * Until then its wave does not end, and no join is sent: a re-join sent
 * before the settle time of a CLIENT_REREGISTER would reach a new master
 * in its first sweep, which ignores it. A LID change, a P_Key move or a
 * port error sets no settle time: once heard, the joins go at once.
 *
 * Context: under mcg_lock.
 * Return: the time left, 0 if it does not wait.
 */
u64 mcg_ib_unheard_left_ns(const struct mcg_port *port)
{
	return mcg_unheard_left_ns(port->ib.heard_ns, port->ib.unheard_ns,
				   ktime_get_ns(),
				   MCG_WAVE_REPORT_MS * NSEC_PER_MSEC);
}

/*
 * Does the port wait to hear of an event (mcg_ib_unheard_left_ns())? If
 * so, *@until is the jiffy to look again, the one after the wait's end.
 */
static bool wave_unheard_wait(struct mcg_port *port, unsigned long *until)
{
	u64 left = mcg_ib_unheard_left_ns(port);

	if (!left)
		return false;
	*until = jiffies + msecs_to_jiffies(div_u64(left, NSEC_PER_MSEC) + 1);
	return true;
}

/*
 * Are the port's joins held: the settle time of a CLIENT_REREGISTER, or
 * a loss report whose event is not yet heard? If so, *@until is when to
 * look again.
 */
static bool joins_held(struct mcg_port *port, unsigned long now,
		       unsigned long *until)
{
	if (mcg_settling(&port->ib.settling, port->ib.settle_until, now)) {
		*until = port->ib.settle_until;
		return true;
	}
	return wave_unheard_wait(port, until);
}

/* A wave ends when every group has its memberships again. */
static void wave_check(struct mcg_port *port)
{
	unsigned long until;

	wave_wait_expire(port);
	/* Root's work only: users' groups come back behind it. */
	if (!port->ib.wave || !list_empty(&port->ib.retry) ||
	    !list_empty(&port->ib.fresh) || port->ib.wave_waits ||
	    port->ib.inflight > port->ib.uinflight || port->ib.rejoin_leaves)
		return;
	if (wave_unheard_wait(port, &until)) {
		arm(port, until);
		return;
	}
	port->ib.wave = false;
	port->ib.last_wave_ms = div_u64(ktime_get_ns() -
					port->ib.wave_start_ns, NSEC_PER_MSEC);
	atomic64_inc(&port->ib.rejoin_waves);
	mcg_port_event(port, IB_MCG_CMD_REJOIN_WAVE_END_NTF);
}

static void rec_from_sa(struct mcg_rec *r, const struct ib_sa_mcmember_rec *sa)
{
	r->port_gid = sa->port_gid;
	r->sgid_index = 0;
	r->qkey = be32_to_cpu(sa->qkey);
	r->mlid = be16_to_cpu(sa->mlid);
	r->pkey = be16_to_cpu(sa->pkey);
	r->mtu = sa->mtu;
	r->rate = sa->rate;
	r->sl = sa->sl;
	r->flow_label = be32_to_cpu(sa->flow_label);
	r->tclass = sa->traffic_class;
	r->hop_limit = sa->hop_limit;
	r->valid = true;
}

/* Make before break: all that is wanted is held; let go of the rest. */
static void release_stale(struct mcg_port *port, struct mcg_group *g)
{
	int i;

	for (i = 0; i < 4; i++)
		if ((mcg_ib(g)->stale & BIT(i)) && mcg_ib(g)->m[i])
			memb_leave(port, mcg_ib(g)->m[i]);
	mcg_ib(g)->stale = 0;
}

/*
 * The SA may answer a re-join with another MLID than the group had: it
 * lost the group (a wipe, a reregister, an SM failover) and the MLID
 * asked for was taken, or it does not honour the wish. The attaches and
 * address handles applications made with the old MLID then reach another
 * group or none: count it and tell them both MLIDs, after the JOINED of
 * the re-join. Compared once every wanted bit is held, with the MLID last
 * reported, so a group of several memberships reports a change once.
 */
static void mlid_check(struct mcg_port *port, struct mcg_group *g)
{
	u16 old = mcg_ib(g)->mlid;

	mcg_ib(g)->mlid = g->rec.mlid;
	if (!old || old == g->rec.mlid)
		return;
	g->rec.prev_mlid = old;
	atomic64_inc(&port->ib.mlid_changes);
	mcg_group_event(g, IB_MCG_CMD_GROUP_STATE_NTF,
			IB_MCG_REASON_MLID_CHANGED);
}

static void join_succeeded(struct mcg_port *port, struct mcg_ib_memb *m,
			   const struct ib_sa_mcmember_rec *sa)
{
	struct mcg_group *g = m->g;

	m->state = MCG_MEMB_JOINED;
	m->eagain = 0;
	mcg_ib(g)->held |= m->bit;
	rec_from_sa(&g->rec, sa);
	if (mcg_mgid_is_zero(&g->mgid) && mcg_group_rekey(g, &sa->mgid)) {
		mcg_group_abandon(g, IB_MCG_REASON_ERROR, EEXIST);
		return;
	}
	if (!all_joined(g))
		return;
	wave_got(port, g);
	mcg_ib(g)->failures = 0;
	mcg_ib(g)->refusals = 0;
	mcg_ib(g)->established = true;
	if (mcg_ib(g)->rejoining) {
		mcg_ib(g)->rejoining = false;
		atomic64_inc(&port->ib.group_rejoins);
	}
	/* Joined first: the old membership goes only after that. */
	mcg_group_set_link(g, IB_MCG_STATE_JOINED, IB_MCG_REASON_JOIN, 0);
	mlid_check(port, g);
	release_stale(port, g);
}

static u8 reason_of(int status)
{
	switch (status) {
	case -ETIMEDOUT:
		return IB_MCG_REASON_TIMEOUT;
	case -EINVAL:
		return IB_MCG_REASON_SA_REJECTED;
	case -ENETRESET:
		return IB_MCG_REASON_NET_RESET;
	default:
		return IB_MCG_REASON_ERROR;
	}
}

/*
 * A re-join of @g was refused. The SA may have lost the group; if nobody
 * here can create it again - its holders joined it by MGID only, or its
 * MGID is one the SA assigned, which the SA never creates on request -
 * it is released after rejoin_refusals refusals in a row, rather than
 * retried for ever for a creator that may never come back. Returns true
 * if @g was released.
 */
static bool refused_for_good(struct mcg_port *port, struct mcg_group *g)
{
	bool sa_mgid = mcg_mgid_sa_linklocal(&g->mgid);

	if (!mcg_ib_group_gone(++mcg_ib(g)->refusals, READ_ONCE(rejoin_refusals),
			       mcg_ib(g)->want, sa_mgid ? 0 : g->create_js))
		return false;
	pr_info("%s/%u: group %pI6 released: the SA refused %u re-joins in a row, and %s\n",
		mcg_dev_name(port), port->port_num, g->mgid.raw,
		mcg_ib(g)->refusals, sa_mgid ?
		"the SA does not create a group for an MGID it assigned" :
		"no holder here can create it");
	atomic64_inc(&port->ib.rejoin_failures);
	mcg_group_abandon(g, sa_mgid ? IB_MCG_REASON_MGID_LOST :
			  IB_MCG_REASON_GROUP_GONE, EINVAL);
	return true;
}

/*
 * -EAGAIN: ib_sa has no address handle for the SM yet (see the top
 * comment). @m's join is asked for again soon, from the head of the retry
 * list, without a word to anyone, MCG_IB_EAGAIN_TRIES times in a row;
 * returns false after that, or for any other status (which restarts the
 * count).
 * @m has been freed: the group's retry goes like any other (issue()
 * sends every bit wanted and not held); a group already on a list keeps
 * its place there, and the earlier of the two retry times.
 */
static bool eagain_retry(struct mcg_port *port, struct mcg_ib_memb *m,
			 int status)
{
	struct mcg_group *g = m->g;
	unsigned int delay;
	unsigned long when;

	if (status != -EAGAIN) {
		m->eagain = 0;
		return false;
	}
	if (m->eagain <= MCG_IB_EAGAIN_TRIES)
		m->eagain++;
	delay = mcg_ib_eagain_delay_ms(m->eagain);
	if (!delay)
		return false;
	when = jiffies + msecs_to_jiffies(delay);
	if (list_empty(&mcg_ib(g)->retry_node)) {
		list_add(&mcg_ib(g)->retry_node, retry_list(port, g));
		mcg_ib(g)->retry_at = when;
	} else if (time_after(mcg_ib(g)->retry_at, when)) {
		mcg_ib(g)->retry_at = when;
	}
	arm(port, mcg_ib(g)->retry_at);
	return true;
}

/*
 * Asks the device for the port's state, LID and SM LID. Returns whether
 * the port is ACTIVE: as the device says, or as last known if it does not
 * answer.
 */
static bool port_query(struct mcg_port *port)
{
	struct ib_port_attr attr;

	if (!ib_query_port(port->dev->ibdev, port->port_num, &attr)) {
		port->ib.active = attr.state == IB_PORT_ACTIVE;
		port->ib.lid = attr.lid;
		port->ib.sm_lid = attr.sm_lid;
	}
	return port->ib.active;
}

static void join_failed(struct mcg_port *port, struct mcg_ib_memb *m,
			int status)
{
	struct mcg_group *g = m->g;
	u8 reason = reason_of(status);
	unsigned int delay = 0;

	memb_free(port, m);
	if (status == -ETIMEDOUT)
		atomic64_inc(&port->ib.sa_timeouts);
	/* The joins sent before it waited behind it (mcg_rtt_is_sa()). */
	if (status == -ENETRESET)
		port->ib.reset_ns = ktime_get_ns();
	if (mcg_ib(g)->stale & m->bit) {
		/* Kept only until its successor is held: not needed again. */
		mcg_ib(g)->stale &= ~m->bit;
		return;
	}
	if (eagain_retry(port, m, status))
		return;

	switch (mcg_ib_failure(status, m->bit, mcg_ib(g)->held,
			       mcg_mgid_is_zero(&g->mgid))) {
	case MCG_IB_ABANDON:
		atomic64_inc(&port->join_errors);
		mcg_group_abandon(g, reason, -status);
		return;
	case MCG_IB_REFUSE:
		/* Only its holders lose; the group may be held for others. */
		atomic64_inc(&port->join_errors);
		mcg_group_refuse(g, m->bit, reason, -status);
		return;
	case MCG_IB_RETRY:
		break;
	}
	if (status == -EINVAL && refused_for_good(port, g))
		return;
	if (status == -ENETRESET) {
		/* Lost, not refused: re-join as soon as the port allows. */
		mcg_ib(g)->rejoining = true;
		/*
		 * A membership lost to a port error (not to a reregister, a
		 * LID change or a P_Key move) is reported as such. The device
		 * is asked: multicast.c reports the loss before resync_work
		 * has seen PORT_ERR, and until then the pacer would send the
		 * re-join to a port that is down (port_active() asks again).
		 */
		if (!port_query(port))
			reason = IB_MCG_REASON_PORT_DOWN;
		wave_unheard(port, m);
		wave_lose(port, g);
	} else {
		atomic64_inc(&port->ib.rejoin_failures);
		delay = backoff_ms(++mcg_ib(g)->failures);
	}
	mcg_group_set_link(g, IB_MCG_STATE_RETRY_WAIT, reason, -status);
	retry_later(g, delay);
}

static void ib_done_work(struct work_struct *work)
{
	struct mcg_port *port = container_of(work, struct mcg_port,
					     ib.done_work);
	struct mcg_ib_memb *m;
	int status = 0;

	mutex_lock(&mcg_lock);
	while (!port->dead) {
		spin_lock_irq(&mcg_ib_lock);
		m = list_first_entry_or_null(&port->ib.done,
					     struct mcg_ib_memb, done_node);
		if (m) {
			list_del_init(&m->done_node);
			status = m->status;
		}
		spin_unlock_irq(&mcg_ib_lock);
		if (!m)
			break;

		mcg_pacer_rtt_sample(port, m, status);
		if (status) {
			join_failed(port, m, status);
		} else if (m->state == MCG_MEMB_JOINING) {
			mcg_pacer_join_done(port, m);
			/* Written before the callback, for good. */
			join_succeeded(port, m, &m->mc->rec);
		}
	}
	/*
	 * A pacer run waiting for its next token or retry time stays as
	 * armed; one stopped by the in-flight limit runs now there is room
	 * (for a re-join, whose rule lets more go than a JOIN's).
	 */
	if (!port->dead) {
		wave_check(port);
		if (port->ib.need_slot &&
		    !mcg_pacer_rejoins_full(port, mcg_pacer_join_limit(port))) {
			port->ib.need_slot = false;
			arm(port, jiffies);
		}
	}
	mutex_unlock(&mcg_lock);
}

/*
 * The record and component mask of the join of @m's bit: as its holders
 * joined. A bit asked for only by holders that named an existing group is
 * joined by MGID and join state, always, so that a re-join never creates
 * the group with parameters of its own; one asked for with create
 * parameters (a creator) sends them, and once the group has been joined
 * its last record, so that it is created again as it was if the SA lost
 * it, its MLID included: an SA that re-creates a group after a wipe
 * gives the MLID asked for if it is free (OpenSM's get_new_mlid(), and
 * simhca's), so the groups do not swap MLIDs when the re-joins arrive in
 * another order, and the address handles and attaches made with the old
 * MLID keep reaching the group. Where it is taken, the SA gives another.
 * The MTU and rate are the creator's, not the old SM's: exactly those the
 * creator named, else "largest available" (IB_SA_BEST), as a create that
 * names none gets - a new SM whose links are slower or have a smaller
 * MTU cannot give the old values and would refuse the group for ever.
 */
static ib_sa_comp_mask build_rec(struct mcg_group *g, struct mcg_ib_memb *m,
				 struct ib_sa_mcmember_rec *rec)
{
	const struct mcg_create *c = &g->create;
	ib_sa_comp_mask mask = IB_SA_MCMEMBER_REC_MGID |
			       IB_SA_MCMEMBER_REC_PORT_GID |
			       IB_SA_MCMEMBER_REC_JOIN_STATE;
	struct mcg_port *port = g->port;

	memset(rec, 0, sizeof(*rec));
	rec->mgid = g->mgid;
	if (rdma_query_gid(port->dev->ibdev, port->port_num, 0, &rec->port_gid))
		memset(&rec->port_gid, 0, sizeof(rec->port_gid));
	rec->join_state = m->bit;

	if (!(g->create_js & m->bit))
		return mask;	/* join an existing group: MGID and state */
	if (mcg_ib(g)->established) {
		/*
		 * After a re-register the SA may have forgotten the group:
		 * ask for it exactly as it was, so that it is created again.
		 */
		rec->qkey = cpu_to_be32(g->rec.qkey);
		rec->pkey = cpu_to_be16(g->rec.pkey);
		rec->sl = g->rec.sl;
		rec->traffic_class = g->rec.tclass;
		rec->flow_label = cpu_to_be32(g->rec.flow_label);
		rec->mtu_selector = c->has & MCG_HAS_MTU ? IB_SA_EQ : IB_SA_BEST;
		rec->mtu = g->rec.mtu;
		rec->rate_selector = c->has & MCG_HAS_RATE ? IB_SA_EQ :
							      IB_SA_BEST;
		rec->rate = g->rec.rate;
		rec->hop_limit = g->rec.hop_limit;
		/*
		 * Its MLID as a wish, without the MLID component: OpenSM
		 * reads a nonzero MLID either way, and multicast.c compares
		 * a component MLID with the record of its group on the port,
		 * which another client (IPoIB) may have re-created already
		 * with another MLID: every retry would be refused (cmp_rec()).
		 */
		rec->mlid = cpu_to_be16(g->rec.mlid);
		return mask |
		       IB_SA_MCMEMBER_REC_QKEY | IB_SA_MCMEMBER_REC_PKEY |
		       IB_SA_MCMEMBER_REC_SL |
		       IB_SA_MCMEMBER_REC_TRAFFIC_CLASS |
		       IB_SA_MCMEMBER_REC_FLOW_LABEL |
		       IB_SA_MCMEMBER_REC_MTU_SELECTOR |
		       IB_SA_MCMEMBER_REC_MTU |
		       IB_SA_MCMEMBER_REC_RATE_SELECTOR |
		       IB_SA_MCMEMBER_REC_RATE | IB_SA_MCMEMBER_REC_HOP_LIMIT;
	}
	rec->qkey = cpu_to_be32(g->rec.qkey);
	rec->pkey = cpu_to_be16(c->pkey);
	rec->sl = c->sl;
	rec->traffic_class = c->tclass;
	rec->flow_label = cpu_to_be32(c->flow_label);
	mask |= IB_SA_MCMEMBER_REC_QKEY | IB_SA_MCMEMBER_REC_PKEY |
		IB_SA_MCMEMBER_REC_SL | IB_SA_MCMEMBER_REC_TRAFFIC_CLASS |
		IB_SA_MCMEMBER_REC_FLOW_LABEL;
	if (c->has & MCG_HAS_MTU) {
		rec->mtu_selector = IB_SA_EQ;
		rec->mtu = c->mtu;
		mask |= IB_SA_MCMEMBER_REC_MTU_SELECTOR | IB_SA_MCMEMBER_REC_MTU;
	}
	if (c->has & MCG_HAS_RATE) {
		rec->rate_selector = IB_SA_EQ;
		rec->rate = c->rate;
		mask |= IB_SA_MCMEMBER_REC_RATE_SELECTOR |
			IB_SA_MCMEMBER_REC_RATE;
	}
	if (c->has & MCG_HAS_HOP) {
		rec->hop_limit = c->hop_limit;
		mask |= IB_SA_MCMEMBER_REC_HOP_LIMIT;
	}
	if (c->has & MCG_HAS_SCOPE) {
		rec->scope = c->scope;
		mask |= IB_SA_MCMEMBER_REC_SCOPE;
	}
	return mask;
}

/* The P_Key the group needs, or -1 if not known (joining by MGID only). */
static int group_pkey(struct mcg_group *g)
{
	if (mcg_ib(g)->established)
		return g->rec.pkey;
	if (g->create.create || g->create.qkey)
		return g->create.pkey;
	return -1;
}

static bool pkey_present(struct mcg_port *port, struct mcg_group *g)
{
	int pkey = group_pkey(g);
	u16 index;

	return pkey < 0 || !ib_find_pkey(port->dev->ibdev, port->port_num,
					 pkey, &index);
}

/*
 * Will multicast.c answer a join of @rec itself, without the SA? It does
 * when another client of the port holds the group with that join state
 * (or fails it at once when the record differs). Such an answer is no
 * sample of the SA's round trip: its microseconds would become the
 * window's base, and every real answer would then look queued.
 */
static bool join_answered_here(struct mcg_port *port,
			       struct ib_sa_mcmember_rec *rec)
{
	struct ib_sa_mcmember_rec cur;

	if (!memchr_inv(rec->mgid.raw, 0, sizeof(rec->mgid.raw)))
		return false;	/* an SA-assigned MGID: always the SA */
	return !ib_sa_get_mcmember_rec(port->dev->ibdev, port->port_num,
				       &rec->mgid, &cur) &&
	       (cur.join_state & rec->join_state);
}

/*
 * Starts the SA joins @g lacks (@fresh: from the fresh list); returns how
 * many were sent.
 */
static unsigned int issue(struct mcg_port *port, struct mcg_group *g,
			  bool fresh)
{
	struct ib_sa_mcmember_rec rec;
	bool here;
	unsigned int sent = 0;
	ib_sa_comp_mask mask;
	int i;

	/* Its leaves go first (leave_and_rejoin()), then it is queued. */
	if (mcg_ib(g)->rejoin_leaves)
		return 0;
	for (i = 0; i < 4; i++) {
		struct mcg_ib_memb *m = mcg_ib(g)->m[i];
		struct ib_sa_multicast *mc;

		/* ib_update() allocated the memberships of wanted bits. */
		if (!(mcg_ib(g)->want & BIT(i)) || !m ||
		    m->state != MCG_MEMB_NONE)
			continue;
		mask = build_rec(g, m, &rec);
		here = join_answered_here(port, &rec);
		/* not lost to the events heard before it (wave_unheard()) */
		m->lost_seq = port->ib.heard_seq;
		mc = ib_sa_join_multicast(&mcg_sa_client, port->dev->ibdev,
					  port->port_num, &rec, mask,
					  GFP_KERNEL, ib_join_done, m);
		if (IS_ERR(mc)) {
			join_failed(port, m, PTR_ERR(mc));
			return sent;
		}
		m->mc = mc;
		m->state = MCG_MEMB_JOINING;
		mcg_pacer_join_sent(port, m, g->user_sa, fresh, !here);
		sent++;
	}
	return sent;
}

/*
 * Whether the port is ACTIVE. A port we last saw down is asked again, as
 * IPoIB's join task does: a PORT_ACTIVE that came between port_init()
 * and the registration of the event handler was never seen, and the
 * groups would wait for it for ever.
 */
static bool port_active(struct mcg_port *port)
{
	return port->ib.active || port_query(port);
}

/*
 * Has @l's Delete been answered? Yes once multicast.c has dropped its
 * group (it does so after the Delete's answer), or once the same
 * membership of the MGID is joined again: that join went to multicast.c
 * after @l was freed, and multicast.c sends one request of a group at a
 * time, so it was answered after the Delete (or satisfied with none
 * sent). A join of the group still waiting in the pacer, or still
 * unanswered, proves nothing: its group's Delete may be at the SA.
 */
static bool leave_answered(struct mcg_port *port, struct mcg_ib_leave *l)
{
	struct mcg_group *g = mcg_group_find(port, &l->mgid);
	struct mcg_ib_memb *m = g ? mcg_ib(g)->m[__ffs(l->bit)] : NULL;
	struct ib_sa_mcmember_rec rec;

	if (m && m->state == MCG_MEMB_JOINED)
		return true;
	return ib_sa_get_mcmember_rec(port->dev->ibdev, port->port_num,
				      &l->mgid, &rec) != 0;
}

/*
 * Ends the count of the leaves in flight whose Delete has been answered
 * (leave_answered()), or that have been in flight LEAVE_INFLIGHT_NS.
 */
static void leaves_reap(struct mcg_port *port, u64 now_ns)
{
	struct mcg_ib_leave *l, *tmp;

	list_for_each_entry_safe(l, tmp, &port->ib.leaves_sent, node) {
		if (now_ns - l->sent_ns < LEAVE_INFLIGHT_NS &&
		    !leave_answered(port, l))
			continue;
		list_del(&l->node);
		kfree(l);
		port->ib.leaves_inflight--;
	}
}

static void group_pkey_wait(struct mcg_group *g)
{
	/* Waits for PKEY_CHANGE to bring it back. */
	mcg_group_set_link(g, IB_MCG_STATE_RETRY_WAIT,
			   IB_MCG_REASON_PKEY_MISSING, ENOENT);
}

static unsigned int issue_now(struct mcg_port *port, struct mcg_group *g,
			      bool fresh)
{
	list_del_init(&mcg_ib(g)->retry_node);
	if (g->link == IB_MCG_STATE_RETRY_WAIT)
		mcg_group_set_link(g, IB_MCG_STATE_JOINING, g->reason,
				   g->error);
	return issue(port, g, fresh);
}

/* @l, a re-join's leave, has been sent: its group re-joins once all have. */
static void rejoin_leave_sent(struct mcg_port *port, struct mcg_ib_leave *l)
{
	struct mcg_group *g = mcg_group_find(port, &l->mgid);

	if (!g || g->id != l->group_id || !mcg_ib(g)->rejoin_leaves)
		return;
	if (--mcg_ib(g)->rejoin_leaves || !mcg_ib(g)->want)
		return;
	retry_later(g, 0);
}

/* @l has been sent. */
static void leave_sent(struct mcg_port *port, struct mcg_ib_leave *l)
{
	if (!l->user)
		port->ib.nleaves--;
	if (!l->rejoin)
		return;
	if (!l->user)
		port->ib.rejoin_leaves--;
	rejoin_leave_sent(port, l);
	/*
	 * The last of root's re-join leaves may end nothing but a wave (its
	 * group was let go of meanwhile). Only then: a wave that a client
	 * reregister started ends only with an answer, since multicast.c
	 * reports the lost groups one at a time after it has started.
	 */
	if (!l->user && !port->ib.rejoin_leaves)
		wave_check(port);
}

/* Frees @l's membership: multicast.c sends the Delete if it was the last. */
static void leave_send(struct mcg_port *port, struct mcg_ib_leave *l,
		       u64 now_ns)
{
	ib_sa_free_multicast(l->mc);
	l->mc = NULL;
	l->sent_ns = now_ns;
	list_move_tail(&l->node, &port->ib.leaves_sent);
	port->ib.leaves_inflight++;
	leave_sent(port, l);
}

/*
 * Root's leaves: rejoin_rate (if set), the leaves' in-flight limit. Not
 * the window's pace: no answer of theirs is seen to move the window, and
 * a job's end may release thousands at once.
 */
static void send_root_leaves(struct mcg_port *port, struct mcg_pace *p)
{
	struct mcg_ib_port *ib = &port->ib;
	struct mcg_ib_leave *l, *tmp;

	list_for_each_entry_safe(l, tmp, &ib->leaves, node) {
		if (l->user)
			continue;
		if (mcg_pacer_leaves_full(port)) {
			ib->need_slot = true;
			ib->backlog = true;
			p->stopped = true;
			return;
		}
		if (!mcg_tb_may_send(ib->credit, p->rinterval)) {
			ib->backlog = true;
			p->stopped = true;
			return;
		}
		leave_send(port, l, p->now_ns);
		ib->credit = mcg_tb_take(ib->credit, p->rinterval, 1);
	}
}

/* Users' leaves: each from its user's budget too. */
static void send_user_leaves(struct mcg_port *port, struct mcg_pace *p)
{
	struct mcg_ib_port *ib = &port->ib;
	struct mcg_ib_leave *l, *tmp;
	struct mcg_ib_user *u;
	bool stop;

	list_for_each_entry_safe(l, tmp, &ib->leaves, node) {
		if (!l->user)
			continue;
		if (mcg_pacer_leaves_full(port)) {
			ib->need_slot = true;
			return;
		}
		u = mcg_pacer_user_turn(port, l->uid, p, &stop);
		if (stop)
			return;
		if (!u)
			continue;
		leave_send(port, l, p->now_ns);
		mcg_pacer_user_take(port, u, p, 1);
	}
}

/*
 * Users' groups' joins, re-joins and retries, once root's are sent:
 * each from its user's budget, and the users' together at most half the
 * port's in-flight limit. A group root has joined since it was queued
 * (no longer user_sa) is root's: it goes with root's fresh joins.
 */
static void send_user_joins(struct mcg_port *port, struct mcg_pace *p,
			    unsigned int limit, unsigned long now)
{
	struct mcg_ib_port *ib = &port->ib;
	struct mcg_ib_group *ig, *itmp;
	struct mcg_ib_user *u;
	struct mcg_group *g;
	bool moved = false, stop;
	unsigned int sent;

	list_for_each_entry_safe(ig, itmp, &ib->ujoins, retry_node) {
		g = mcg_ib_group_of(ig);
		if (!g->user_sa) {
			list_move_tail(&ig->retry_node, &ib->fresh);
			moved = true;
			continue;
		}
		if (time_before(now, ig->retry_at)) {
			arm(port, ig->retry_at);
			continue;
		}
		if (mcg_pacer_joins_full(port, limit) ||
		    mcg_inflight_full(ib->uinflight,
				      mcg_user_inflight_limit(limit))) {
			ib->need_slot = true;
			break;
		}
		if (!pkey_present(port, g)) {
			group_pkey_wait(g);
			continue;
		}
		u = mcg_pacer_user_turn(port, g->sa_uid, p, &stop);
		if (stop)
			break;
		if (!u)
			continue;
		sent = issue_now(port, g, false);
		mcg_pacer_user_take(port, u, p, sent);
	}
	if (moved)
		arm(port, now);
}

/*
 * The port is not ACTIVE: the joins waiting to be sent say why (joining,
 * reason port-down), once. They go when it is ACTIVE again; a JOIN
 * waiting in libibmcg keeps waiting (the state is still joining).
 */
static void joins_wait_port(struct mcg_port *port)
{
	struct list_head *lists[] = {
		&port->ib.fresh, &port->ib.retry, &port->ib.ujoins,
	};
	struct mcg_ib_group *ig;
	struct mcg_group *g;
	int i;

	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		list_for_each_entry(ig, lists[i], retry_node) {
			g = mcg_ib_group_of(ig);
			if (g->link == IB_MCG_STATE_JOINING)
				mcg_group_set_link(g, IB_MCG_STATE_JOINING,
						   IB_MCG_REASON_PORT_DOWN,
						   g->error);
		}
	}
}

/*
 * The pacer's next token, due in @wait_ns: token_timer queues token_work
 * then. A jiffies timer cannot: the timer wheel fires it one to two ticks
 * after the time asked for, so a pacer waiting for less than a tick ran
 * every 8 ms or so at HZ=250, and every run later than the bucket's
 * catch-up (MCG_TB_CAP_NS) lost the difference: single-port waves capped
 * at 5,000/s went at 93-95 % of it. It is woken no sooner than
 * MCG_TOKEN_MIN_NS after this run, with as much slack, so that a fast
 * pace costs one run per millisecond or two, each sending what the time
 * since the last one paid for.
 */
#define MCG_TOKEN_MIN_NS	NSEC_PER_MSEC

static void arm_token(struct mcg_port *port, u64 wait_ns)
{
	hrtimer_start_range_ns(&port->ib.token_timer,
			       ns_to_ktime(max_t(u64, wait_ns, MCG_TOKEN_MIN_NS)),
			       MCG_TOKEN_MIN_NS, HRTIMER_MODE_REL);
}

static enum hrtimer_restart token_timer_fn(struct hrtimer *t)
{
	struct mcg_port *port = container_of(t, struct mcg_port,
					     ib.token_timer);

	queue_work(mcg_wq, &port->ib.token_work);
	return HRTIMER_NORESTART;
}

/*
 * The pacer (join_work, or token_work at its next token): issues the
 * requests that are due; see the top comment.
 */
static void pacer_run(struct mcg_port *port)
{
	struct mcg_pace p;
	unsigned int limit;
	unsigned long now = jiffies, next = 0, until;
	struct mcg_ib_port *ib = &port->ib;
	struct mcg_ib_group *ig, *itmp;
	bool later = false, joins = false;
	struct mcg_group *g;
	unsigned int sent;

	mutex_lock(&mcg_lock);
	if (port->dead)
		goto out;
	mcg_pace_begin(port, &p);
	limit = mcg_pacer_join_limit(port);
	leaves_reap(port, p.now_ns);

	/* Joins: the port must be ACTIVE (PORT_ACTIVE kicks us) and settled. */
	if (!port_active(port)) {
		joins_wait_port(port);
		goto leaves;
	}
	if (joins_held(port, now, &until)) {
		if (!list_empty(&ib->fresh) || !list_empty(&ib->retry) ||
		    !list_empty(&ib->ujoins))
			arm(port, until);
		goto leaves;
	}
	joins = true;
	list_for_each_entry_safe(ig, itmp, &ib->fresh, retry_node) {
		g = mcg_ib_group_of(ig);
		if (mcg_pacer_joins_full(port, limit)) {
			ib->need_slot = true;
			p.stopped = true;
			/* a re-join may still go (mcg_pacer_rejoins_full()) */
			break;
		}
		if (!pkey_present(port, g)) {
			group_pkey_wait(g);
			list_move_tail(&mcg_ib(g)->retry_node, &ib->retry);
			continue;
		}
		issue_now(port, g, true);
	}
	list_for_each_entry_safe(ig, itmp, &ib->retry, retry_node) {
		g = mcg_ib_group_of(ig);
		if (mcg_pacer_rejoins_full(port, limit)) {
			ib->need_slot = true;
			ib->backlog = true;
			p.stopped = true;
			break;
		}
		if (time_before(now, mcg_ib(g)->retry_at)) {
			if (!later || time_before(mcg_ib(g)->retry_at, next))
				next = mcg_ib(g)->retry_at;
			later = true;
			continue;
		}
		if (!pkey_present(port, g)) {
			group_pkey_wait(g);
			continue;
		}
		if (!mcg_tb_may_send(ib->credit, p.interval)) {
			ib->backlog = true;
			p.stopped = true;
			break;
		}
		sent = issue_now(port, g, false);
		ib->credit = mcg_tb_take(ib->credit, p.interval, sent);
	}
leaves:
	send_root_leaves(port, &p);
	/* Users' work waits while root's paced work does. */
	if (!p.stopped) {
		send_user_leaves(port, &p);
		if (joins)
			send_user_joins(port, &p, limit, now);
	}
	mcg_pacer_users_trim(port, &p);

	/* Waiting for credit: the next token. For a slot: done_work. */
	if (ib->backlog && !mcg_tb_may_send(ib->credit, p.interval))
		arm_token(port, mcg_tb_wait_ns(ib->credit, p.interval));
	if (p.uwait)
		arm(port, now + max(1UL, nsecs_to_jiffies(p.uwait_ns +
							  TICK_NSEC - 1)));
	if (later)
		arm(port, next);
	/* Leaves free their slots unseen: look again at the next tick. */
	if (ib->need_slot && ib->leaves_inflight)
		arm(port, now + 1);
	/* Run at wave_wait_until too (wave_expect()). */
	wave_check(port);
out:
	mutex_unlock(&mcg_lock);
}

static void ib_join_work(struct work_struct *work)
{
	pacer_run(container_of(to_delayed_work(work), struct mcg_port,
			       ib.join_work));
}

static void ib_token_work(struct work_struct *work)
{
	pacer_run(container_of(work, struct mcg_port, ib.token_work));
}

#define SHARED_LIT(f) \
	f " differs from the group's, which another client of this port holds (IPoIB?)"
/* (at most 80 bytes, NETLINK_MAX_FMTMSG_LEN: "flow label ... 0xfffff" is 68) */
#define SHARED_FMT(f) f " differs from the group's %s (held by another client)"

/*
 * Another client of the port (IPoIB, rdma_cm) may hold the group: ib_core's
 * multicast.c merges every join of one port and MGID into one SA
 * membership, and its cmp_rec() fails a join whose Q_Key, MTU, rate, SL,
 * P_Key, traffic class or flow label differ from the record it holds with
 * a bare -EINVAL, without asking the SA. A join that would send them (one
 * with create parameters or a Q_Key, build_rec()) is compared here first
 * and refused naming the field and the group's value. Not when the module
 * holds the group itself: mcg_join() compares with its own record then.
 * Under mcg_lock.
 */
static int ib_check_shared(struct mcg_port *port,
			   const struct mcg_join_req *req,
			   struct netlink_ext_ack *extack)
{
	const struct mcg_create *c = &req->create;
	union ib_gid mgid = req->mgid;
	struct ib_sa_mcmember_rec rec;
	u32 qkey = req->has_qkey ? req->qkey : IB_MCG_DEFAULT_QKEY;
	char val[24];

	if (!(c->create || c->qkey || req->has_qkey) ||
	    mcg_mgid_is_zero(&req->mgid) || mcg_group_find(port, &req->mgid))
		return 0;
	/* no record (or none yet: its first join has not been answered) */
	if (ib_sa_get_mcmember_rec(port->dev->ibdev, port->port_num, &mgid,
				   &rec) || !rec.mlid)
		return 0;

	if (be32_to_cpu(rec.qkey) != qkey) {
		snprintf(val, sizeof(val), "0x%08x", be32_to_cpu(rec.qkey));
		mcg_extack_fmt(extack, SHARED_LIT("Q_Key"), SHARED_FMT("Q_Key"), val);
	} else if ((c->has & MCG_HAS_MTU) && rec.mtu != c->mtu) {
		snprintf(val, sizeof(val), "%d", ib_mtu_enum_to_int(rec.mtu));
		mcg_extack_fmt(extack, SHARED_LIT("MTU"), SHARED_FMT("MTU"), val);
	} else if ((c->has & MCG_HAS_RATE) && rec.rate != c->rate) {
		snprintf(val, sizeof(val), "%d Mb/s", ib_rate_to_mbps(rec.rate));
		mcg_extack_fmt(extack, SHARED_LIT("rate"), SHARED_FMT("rate"), val);
	} else if (rec.sl != c->sl) {
		snprintf(val, sizeof(val), "%u", rec.sl);
		mcg_extack_fmt(extack, SHARED_LIT("SL"), SHARED_FMT("SL"), val);
	} else if (be16_to_cpu(rec.pkey) != c->pkey) {
		snprintf(val, sizeof(val), "0x%04x", be16_to_cpu(rec.pkey));
		mcg_extack_fmt(extack, SHARED_LIT("P_Key"), SHARED_FMT("P_Key"), val);
	} else if (rec.traffic_class != c->tclass) {
		snprintf(val, sizeof(val), "%u", rec.traffic_class);
		mcg_extack_fmt(extack, SHARED_LIT("traffic class"),
			       SHARED_FMT("tclass"), val);
	} else if (be32_to_cpu(rec.flow_label) != c->flow_label) {
		snprintf(val, sizeof(val), "0x%x", be32_to_cpu(rec.flow_label));
		mcg_extack_fmt(extack, SHARED_LIT("flow label"),
			       SHARED_FMT("flow label"), val);
	} else {
		return 0;
	}
	return -EINVAL;
}

static int ib_check(struct mcg_port *port, const struct mcg_join_req *req,
		    struct netlink_ext_ack *extack)
{
	u16 index;
	int err;

	err = mcg_ib_check_mgid(&req->mgid, req->join_state, extack);
	if (err)
		return err;
	err = ib_check_shared(port, req, extack);
	if (err)
		return err;
	if ((req->create.create || req->create.qkey) &&
	    ib_find_pkey(port->dev->ibdev, port->port_num, req->create.pkey,
			 &index)) {
		NL_SET_ERR_MSG(extack,
			       "P_Key is not in the port's P_Key table: the port is not a member of that partition");
		return -EINVAL;
	}
	return 0;
}

/*
 * Whether @g waits on the users' queue. Asked by ib_update() only for a
 * root group queued for a join that adds nothing (one root has just
 * taken from a user, or a lingering one taken back), which is rare: a
 * walk of the queue is cheaper than a field every list move would have
 * to keep.
 */
static bool on_ujoins(struct mcg_port *port, struct mcg_group *g)
{
	struct mcg_ib_group *ig;

	if (list_empty(&mcg_ib(g)->retry_node))
		return false;
	list_for_each_entry(ig, &port->ib.ujoins, retry_node)
		if (ig == mcg_ib(g))
			return true;
	return false;
}

/*
 * Holds exactly @join_state: queues new bits and frees dropped ones now,
 * except that a held membership given up while new bits are asked for (a
 * lingering group taken back with another join state) is kept until they
 * are held: make before break, so the group never lacks a membership.
 */
static int ib_update(struct mcg_group *g, u8 join_state,
		     struct netlink_ext_ack *extack)
{
	struct mcg_port *port = g->port;
	u8 added = join_state & ~mcg_ib(g)->want;
	struct mcg_ib_memb *m;
	u8 stale = 0;
	int i;

	/* Memberships of bits never wanted before, while nothing changed. */
	for (i = 0; i < 4; i++) {
		if (!(join_state & BIT(i)) || mcg_ib(g)->m[i])
			continue;
		m = kmem_cache_zalloc(mcg_ib_memb_cache, GFP_KERNEL);
		if (!m) {
			NL_SET_ERR_MSG(extack, "out of memory for the SA membership");
			return -ENOMEM;
		}
		m->g = g;
		m->bit = BIT(i);
		INIT_LIST_HEAD(&m->done_node);
		mcg_ib(g)->m[i] = m;
	}
	for (i = 0; i < 4; i++) {
		m = mcg_ib(g)->m[i];
		if (!m || (join_state & BIT(i)))
			continue;
		if (mcg_ib_keep_stale(join_state, added, mcg_ib(g)->stale, BIT(i),
				      m->state == MCG_MEMB_JOINED))
			stale |= BIT(i);
		else
			memb_leave(port, m);
	}
	mcg_ib(g)->stale = stale;
	mcg_ib(g)->want = join_state;
	if (!join_state) {
		list_del_init(&mcg_ib(g)->retry_node);
		g->rec.valid = false;
		wave_got(port, g);
		wave_check(port);
		return 0;
	}
	if (all_joined(g)) {
		release_stale(port, g);
		/* Nothing to ask for: what it waited for was given up. */
		if (!list_empty(&mcg_ib(g)->retry_node)) {
			list_del_init(&mcg_ib(g)->retry_node);
			wave_check(port);
		}
		return 0;
	}
	if (!added && !g->user_sa && on_ujoins(port, g)) {
		/* Root joined a user's group waiting for the users' turn. */
		list_move_tail(&mcg_ib(g)->retry_node, &port->ib.fresh);
		arm(port, jiffies);
	}
	if (added) {
		/*
		 * Asked for by a JOIN: root's sent at once, with what it
		 * lacks; a user's group's paced, behind root's re-joins.
		 */
		mcg_ib(g)->retry_at = jiffies;
		list_move_tail(&mcg_ib(g)->retry_node,
			       g->user_sa ? &port->ib.ujoins : &port->ib.fresh);
		arm(port, jiffies);
		return MCG_UPDATE_JOINING;
	}
	return MCG_UPDATE_PENDING;
}

/*
 * Leaves every SA membership of @g and queues it to be joined again, as
 * a lost group (a re-join wave, group_rejoins when it is back). The
 * leaves are paced like any other (a user's group's from the user's
 * budget); the group waits, on no list, until the pacer has sent them
 * all (rejoin_leaves): multicast.c would answer a join of a membership
 * it still has itself, without asking the SA.
 */
static void leave_and_rejoin(struct mcg_port *port, struct mcg_group *g,
			     u8 reason, int err)
{
	unsigned int queued = 0;
	int i;

	for (i = 0; i < 4; i++)
		if (mcg_ib(g)->m[i] &&
		    memb_leave_paced(port, mcg_ib(g)->m[i], true))
			queued++;
	mcg_ib(g)->stale = 0;
	mcg_ib(g)->rejoining = true;
	wave_lose(port, g);
	mcg_group_set_link(g, IB_MCG_STATE_RETRY_WAIT, reason, err);
	mcg_ib(g)->rejoin_leaves += queued;
	if (mcg_ib(g)->rejoin_leaves)
		list_del_init(&mcg_ib(g)->retry_node);
	else
		retry_later(g, 0);
}

/*
 * The port's GID may have changed (a new subnet prefix). multicast.c does
 * not act on that, and the SA keeps the memberships under the GID they
 * were joined with. A group whose record carries another port GID than
 * the port's now is handled as lost: its memberships are left and it is
 * joined again, with the new GID, at once.
 *
 * Checked at every port event, not only GID_CHANGE: 6.1's ib_core updates
 * its GID cache on an IB port's GID_CHANGE but passes the event to no
 * client (ib_cache_event_task()), so the next event we see is the first
 * chance to notice.
 */
static void gid_check(struct mcg_port *port)
{
	union ib_gid gid;
	struct rb_node *n;

	if (rdma_query_gid(port->dev->ibdev, port->port_num, 0, &gid))
		return;
	for (n = rb_first(&port->groups); n; n = rb_next(n)) {
		struct mcg_group *g = rb_entry(n, struct mcg_group, node);

		if (!g->rec.valid || !mcg_ib(g)->want ||
		    !memcmp(&g->rec.port_gid, &gid, sizeof(gid)))
			continue;
		leave_and_rejoin(port, g, IB_MCG_REASON_NET_RESET, ENETRESET);
	}
}

/*
 * REJOIN: the admin found the group's membership missing at the SA (mcctl
 * fabric). multicast.c still counts it as joined and would answer a new
 * join itself, so the memberships are left (multicast.c's leave reaches
 * the SA only when no other kernel user, such as IPoIB, holds the same
 * MGID and join state on the port) and joined again, at once, as after a
 * GID change; the holders stay. A group that is not fully joined is
 * already on its way (retry list, or answers pending): nothing to do.
 */
static int ib_rejoin(struct mcg_group *g, struct netlink_ext_ack *extack)
{
	if (!mcg_ib(g)->want) {
		NL_SET_ERR_MSG(extack, "the group holds no membership to re-join");
		return -EINVAL;
	}
	if (!all_joined(g))
		return 0;
	leave_and_rejoin(g->port, g, IB_MCG_REASON_REJOIN, 0);
	return 0;
}

/* After IB events (from resync_work): port state, reregister, settle. */
static void ib_refresh(struct mcg_port *port)
{
	bool was_active = port->ib.active, lost = false, heard;

	port_query(port);
	/* The events multicast.c reports losses for (wave_unheard()) */
	heard = test_bit(IB_EVENT_CLIENT_REREGISTER, &port->ib.events) ||
		test_bit(IB_EVENT_LID_CHANGE, &port->ib.events) ||
		test_bit(IB_EVENT_PORT_ERR, &port->ib.events) ||
		test_bit(IB_EVENT_PKEY_CHANGE, &port->ib.events);
	if (test_and_clear_bit(IB_EVENT_CLIENT_REREGISTER, &port->ib.events)) {
		unsigned int settle = mcg_settle_delay_ms(READ_ONCE(settle_ms),
							  get_random_u32());

		atomic64_inc(&port->ib.sm_reregisters);
		port->ib.last_sm_lid = port->ib.sm_lid;
		port->ib.settle_until = jiffies + msecs_to_jiffies(settle);
		port->ib.settling = true;
		/* Nothing to re-join is no wave. */
		if (port->ngroups)
			wave_start(port);
		lost = true;
	}
	if (test_and_clear_bit(IB_EVENT_LID_CHANGE, &port->ib.events))
		lost = true;
	if (lost)
		wave_expect(port);
	clear_bit(IB_EVENT_PORT_ERR, &port->ib.events);
	clear_bit(IB_EVENT_PORT_ACTIVE, &port->ib.events);
	clear_bit(IB_EVENT_PKEY_CHANGE, &port->ib.events);
	clear_bit(IB_EVENT_GID_CHANGE, &port->ib.events);
	gid_check(port);
	if (heard) {
		port->ib.heard_ns = ktime_get_ns();
		port->ib.heard_seq++;
		wave_check(port);
	}
	if (port->ib.active && (!was_active || !list_empty(&port->ib.retry) ||
				!list_empty(&port->ib.fresh) ||
				!list_empty(&port->ib.ujoins)))
		arm(port, jiffies);
}

static int ib_port_init(struct mcg_port *port)
{
	INIT_LIST_HEAD(&port->ib.fresh);
	INIT_LIST_HEAD(&port->ib.retry);
	INIT_LIST_HEAD(&port->ib.ujoins);
	INIT_LIST_HEAD(&port->ib.users);
	INIT_LIST_HEAD(&port->ib.leaves);
	INIT_LIST_HEAD(&port->ib.leaves_sent);
	INIT_LIST_HEAD(&port->ib.done);
	INIT_WORK(&port->ib.done_work, ib_done_work);
	INIT_DELAYED_WORK(&port->ib.join_work, ib_join_work);
	INIT_WORK(&port->ib.token_work, ib_token_work);
	mcg_hrtimer_setup(&port->ib.token_timer, token_timer_fn,
			  CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	mcg_pacer_wave_start(port);
	ib_refresh(port);
	return 0;
}

/*
 * Called after every group of the port has been released, with the port
 * dead: no work does anything any more and nothing else touches the
 * leave lists once join_work is cancelled. Leaves not sent yet go now,
 * unpaced: the device or the module goes. Only then is done_work
 * cancelled: an SA callback of such a membership that read its context
 * before memb_leave() cleared it may still queue done_work, until
 * ib_sa_free_multicast() has waited for it; cancelled before, done_work
 * could run after the port is freed.
 */
static void ib_port_fini(struct mcg_port *port)
{
	struct mcg_ib_leave *l, *tmp;

	/* A dead port's pacer arms nothing: the timer first, then its work. */
	hrtimer_cancel(&port->ib.token_timer);
	cancel_work_sync(&port->ib.token_work);
	cancel_delayed_work_sync(&port->ib.join_work);
	list_for_each_entry_safe(l, tmp, &port->ib.leaves, node) {
		ib_sa_free_multicast(l->mc);
		list_del(&l->node);
		kfree(l);
	}
	port->ib.nleaves = 0;
	port->ib.rejoin_leaves = 0;
	mcg_pacer_users_free(port);
	cancel_work_sync(&port->ib.done_work);
	list_for_each_entry_safe(l, tmp, &port->ib.leaves_sent, node) {
		list_del(&l->node);
		kfree(l);
	}
	port->ib.leaves_inflight = 0;
	WARN_ON(!list_empty(&port->ib.done) || port->ib.inflight);
}

static void ib_group_init(struct mcg_group *g)
{
	INIT_LIST_HEAD(&mcg_ib(g)->retry_node);
}

/*
 * @g is about to be freed: update(g, 0) has let go of every membership
 * (or a new group's first update failed), so none has an SA call left
 * to wait for; memb_free() would finish one that had.
 */
static void ib_group_fini(struct mcg_group *g)
{
	int i;

	wave_got(g->port, g);
	for (i = 0; i < 4; i++) {
		if (!mcg_ib(g)->m[i])
			continue;
		memb_free(g->port, mcg_ib(g)->m[i]);
		kmem_cache_free(mcg_ib_memb_cache, mcg_ib(g)->m[i]);
		mcg_ib(g)->m[i] = NULL;
	}
}

const struct mcg_backend_ops mcg_ib_backend = {
	.id		= IB_MCG_BACKEND_IB_SA,
	.name		= "ib-sa",
	.port_init	= ib_port_init,
	.port_fini	= ib_port_fini,
	.check		= ib_check,
	.update		= ib_update,
	.refresh	= ib_refresh,
	.rejoin		= ib_rejoin,
	.group_cache	= &mcg_ib_group_cache,
	.group_init	= ib_group_init,
	.group_fini	= ib_group_fini,
};

/**
 * mcg_ib_init() - set up the InfiniBand backend at module load
 *
 * Creates the slab cache of SA memberships (struct mcg_ib_memb) and
 * registers the module as an SA client. Called by mcg_device_init()
 * before the IB client is registered, so before any port exists.
 *
 * Context: process context, may sleep; no lock held.
 * Return: 0, or -ENOMEM if the cache cannot be created.
 */
int mcg_ib_init(void)
{
	mcg_ib_memb_cache = kmem_cache_create("mcg_ib_memb",
					      sizeof(struct mcg_ib_memb), 0, 0,
					      NULL);
	if (!mcg_ib_memb_cache)
		return -ENOMEM;
	ib_sa_register_client(&mcg_sa_client);
	return 0;
}

/**
 * mcg_ib_exit() - tear down what mcg_ib_init() set up
 *
 * Unregisters the SA client and destroys the membership cache. Called
 * after the IB client is unregistered (every port and group is gone), or
 * when mcg_device_init() fails after mcg_ib_init().
 *
 * Context: process context, may sleep; no lock held.
 */
void mcg_ib_exit(void)
{
	ib_sa_unregister_client(&mcg_sa_client);
	kmem_cache_destroy(mcg_ib_memb_cache);
}
