/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_mcgroups: the pacer of a port's SA requests (kernel/pacer.c) and its
 * pure model: the token buckets that bound the rate, the SA round trip
 * and the in-flight limit it gives. The IB backend (backend_ib.c) decides
 * what to send and in what order; what may go now is decided here.
 *
 * The static inline functions below are pure, as mcg_logic.h's are:
 * nothing here takes a lock, sleeps, allocates, or reads module
 * parameters, jiffies or the clock; the KUnit suite mcg_pacing
 * (kernel/tests/pacer_kunit.c) tests them with chosen values.
 */
#ifndef _MCG_PACER_H
#define _MCG_PACER_H

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/time64.h>
#include <linux/uidgid.h>

struct mcg_port;
struct mcg_ib_memb;
struct mcg_ib_user;

/* ---- the model (pure) ------------------------------------------------------ */

/**
 * mcg_pace_interval_ns() - the pacer's interval at a rate
 * @rate: SA joins per second (0 as 1)
 *
 * Context: any; a pure function (see the top of this file).
 * Return: the time between two SA joins of a port at @rate per second,
 * in nanoseconds.
 */
static inline u64 mcg_pace_interval_ns(unsigned int rate)
{
	return div_u64(NSEC_PER_SEC, max(rate, 1U));
}

/*
 * The pacer's token bucket (pacer.c): a port's SA requests, re-joins
 * and leaves, at most one per @interval_ns (mcg_pace_interval_ns()) over
 * any stretch of time. The bucket holds credit in nanoseconds; a request
 * costs @interval_ns. Each run of the pacer first adds the time elapsed
 * since the last one, up to a limit, and then sends as many requests as
 * the credit pays for, so the rate does not depend on how often or how
 * late the pacer runs (jiffies are coarse, a loaded machine wakes it
 * late):
 *
 *  - while requests waited (@backlog: for credit, or for a slot under
 *    the in-flight limit), credit grows up to one request and the lesser
 *    of @cap_ns and one more request, and at least up to @cap_ns (the
 *    pacer passes MCG_TB_CAP_NS, 10 ms of requests): a late wake-up is
 *    made up, within that bound, so that at most 10 ms of requests, and
 *    at most one more than is due, go out at once beyond the rate. The
 *    pacer is woken when the next request is paid for (by an hrtimer, a
 *    millisecond or two after its last run at the soonest: backend_ib.c's
 *    arm_token()), so the time it wakes late is always beyond that
 *    request: were the credit capped at one request, a pacer woken 5 ms
 *    late every time would lose 5 ms per request (20 % at 40/s). Not
 *    more than 10 ms: the pacer must never send more than the rate plus
 *    two requests in any 100 ms at 200/s (ib_failover.sh, which allows
 *    the SA 10 ms of multicast.c's workqueue more), so a longer pause
 *    - such as the start of a re-join wave, whose first re-joins wait
 *    behind multicast.c's reports of the lost groups - is not made up;
 *  - after an idle spell, up to one request: an idle port banks no burst.
 *
 * From an idle start no stretch of time of length T sees more than
 * 1 + T / @interval_ns requests: a wave of N requests never takes less
 * than (N - 1) / rate.
 *
 * Credit may go below zero: the joins of one group (up to four join
 * states) are sent together, and the debt is paid by waiting. An
 * @interval_ns of 0 (a rate above 10^9/s) is no limit.
 */
#define MCG_TB_CAP_NS	(10 * NSEC_PER_MSEC)

/**
 * mcg_tb_refill() - add the time elapsed to the token bucket's credit
 * @credit: the credit, in nanoseconds
 * @elapsed_ns: the time since the last refill
 * @interval_ns: the cost of a request (mcg_pace_interval_ns())
 * @cap_ns: the most a late wake-up makes up (MCG_TB_CAP_NS)
 * @backlog: requests waited since the last run
 *
 * The rules are in the comment on the token bucket above.
 *
 * Context: any; a pure function (see the top of this file).
 * Return: the new credit.
 */
static inline s64 mcg_tb_refill(s64 credit, u64 elapsed_ns, u64 interval_ns,
				u64 cap_ns, bool backlog)
{
	s64 top = backlog ? max(cap_ns, interval_ns + min(interval_ns, cap_ns)) :
		  interval_ns;

	if (credit >= top || elapsed_ns >= (u64)(top - credit))
		return top;
	return credit + elapsed_ns;
}

/**
 * mcg_tb_may_send() - does the credit pay for one more request?
 * @credit: the credit, in nanoseconds
 * @interval_ns: the cost of a request; 0 is no limit
 *
 * Context: any; a pure function (see the top of this file).
 * Return: true if @credit pays for one more request.
 */
static inline bool mcg_tb_may_send(s64 credit, u64 interval_ns)
{
	return !interval_ns || credit >= (s64)interval_ns;
}

/**
 * mcg_tb_take() - pay for requests sent
 * @credit: the credit, in nanoseconds
 * @interval_ns: the cost of a request
 * @n: the requests sent
 *
 * Context: any; a pure function (see the top of this file).
 * Return: the credit left after @n requests were sent (may be negative).
 */
static inline s64 mcg_tb_take(s64 credit, u64 interval_ns, unsigned int n)
{
	return credit - (s64)(n * interval_ns);
}

/**
 * mcg_tb_wait_ns() - how long until the credit pays for a request
 * @credit: the credit, in nanoseconds
 * @interval_ns: the cost of a request
 *
 * Context: any; a pure function (see the top of this file).
 * Return: nanoseconds until @credit pays for a request (0: now).
 */
static inline u64 mcg_tb_wait_ns(s64 credit, u64 interval_ns)
{
	return mcg_tb_may_send(credit, interval_ns) ? 0 :
	       (u64)((s64)interval_ns - credit);
}

/**
 * mcg_inflight_full() - may a port send no more SA joins?
 * @inflight: its unanswered SA joins
 * @limit: its in-flight limit (0 as 1)
 *
 * Context: any; a pure function (see the top of this file).
 * Return: true if a port with @inflight unanswered SA joins may send no
 * more.
 */
static inline bool mcg_inflight_full(unsigned int inflight, unsigned int limit)
{
	return inflight >= max(limit, 1U);
}

/**
 * mcg_srtt_update() - fold a sample into the smoothed SA round trip
 * @srtt_ns: the estimate so far, 0 if none
 * @sample_ns: the round trip of one join
 *
 * The SA round trip the pacer measures (pacer.c): every join the SA
 * answers is timed from its send to its answer, and the estimate follows
 * the samples as TCP's smoothed RTT does, by 1/8 of each difference; the
 * first sample (@srtt_ns 0) is taken as it is.
 *
 * Context: any; a pure function (see the top of this file).
 * Return: the new estimate, at least 1.
 */
static inline u64 mcg_srtt_update(u64 srtt_ns, u64 sample_ns)
{
	if (!srtt_ns)
		return max_t(u64, sample_ns, 1);
	if (sample_ns >= srtt_ns)
		return srtt_ns + (sample_ns - srtt_ns) / 8;
	return max_t(u64, srtt_ns - (srtt_ns - sample_ns) / 8, 1);
}

/**
 * mcg_rtt_is_sa() - is a join's round trip a sample of the SA's?
 * @sent_ns: when the join was sent (0: not timed)
 * @reset_ns: when the port's last loss report (-ENETRESET) was handled
 * @status: the join's answer (0, or an error)
 *
 * A success is an answer of the SA; a refusal (-EINVAL) may be its BUSY,
 * sent at once, not from its queue (the window law); another error may not
 * be the SA's at all. And a join sent before a loss report that came after
 * it waited behind that report: multicast.c reports the lost groups of a
 * reregister one at a time on its ordered workqueue, which also sends our
 * joins, so a join sent while those reports run (a wave's first re-joins)
 * is timed with the rest of the reports in it - 44 to 77 ms for 16,383
 * groups, against an SA answer of 0.3 ms (design-notes, "The start of a
 * re-join wave"). Read as the SA's queue, that cut the window at each
 * wave's start. The report is timed when done_work handles it, after
 * multicast.c made it: a join sent in between is left out too. Reports we
 * never see - of other clients' groups (IPoIB's, rdma_cm's), of
 * memberships we are leaving - may still be queued after our last: a join
 * sent then is sampled with that wait in it, as before.
 *
 * Context: any; a pure function (see the top of this file).
 * Return: true if the round trip is to be sampled.
 */
static inline bool mcg_rtt_is_sa(u64 sent_ns, u64 reset_ns, int status)
{
	return sent_ns && sent_ns > reset_ns && !status;
}

/**
 * mcg_status_cuts() - does a join's answer cut the window?
 * @status: the join's answer
 *
 * A refusal (-EINVAL: an SA too busy to queue it answers BUSY, which
 * ib_sa reports as any refusal) and a time-out (-ETIMEDOUT: ib_mad's
 * tries all went unanswered, an SA that drops or queues too long) say the
 * SA got too much (the window law, mcg_win_refused()).
 *
 * Context: any; a pure function (see the top of this file).
 * Return: true if the window is to be cut.
 */
static inline bool mcg_status_cuts(int status)
{
	return status == -EINVAL || status == -ETIMEDOUT;
}

/*
 * MCG_INFLIGHT_MIN: the SA Deletes a port may have unanswered, if the
 * maximum (rejoin_inflight) allows that many: their answers are not seen
 * (multicast.c sends them), so no window of theirs is measured.
 */
#define MCG_INFLIGHT_MIN	8U

/**
 * mcg_leave_limit() - the in-flight limit of leaves
 * @max: rejoin_inflight; 0 as 1
 *
 * Context: any; a pure function (see the top of this file).
 * Return: MCG_INFLIGHT_MIN, at most @max (0 as 1).
 */
static inline unsigned int mcg_leave_limit(unsigned int max)
{
	return clamp(max, 1U, MCG_INFLIGHT_MIN);
}

/**
 * mcg_tb_idle() - may a user's bucket be freed?
 * @credit: its credit, after mcg_tb_refill() without backlog
 * @interval_ns: the cost of a request (mcg_pace_interval_ns())
 *
 * Context: any; a pure function (see the top of this file).
 * Return: true if the bucket holds what a new one starts with (one
 * request), so that freeing it and making it again gives nothing more.
 */
static inline bool mcg_tb_idle(s64 credit, u64 interval_ns)
{
	return credit >= (s64)interval_ns;
}

/**
 * mcg_user_inflight_limit() - the users' share of the in-flight limit
 * @limit: the port's in-flight limit of joins (mcg_pacer_join_limit())
 *
 * Users' joins and re-joins together may have half the port's limit
 * unanswered, at least one: root's re-joins always find room.
 *
 * Context: any; a pure function (see the top of this file).
 * Return: the most users' SA joins the port may have unanswered.
 */
static inline unsigned int mcg_user_inflight_limit(unsigned int limit)
{
	return max(limit / 2, 1U);
}

/*
 * The window law (the pacer's pace and in-flight limit, pacer.c; its
 * design: Documentation/design-notes.rst, "Fleet-scale recovery"). After a
 * fabric-wide CLIENT_REREGISTER every node's re-joins meet at one SA, whose
 * capacity nobody here knows. The SA's answers carry the only signal: a
 * round trip longer than the base is time spent in the SA's queue. So each
 * port keeps a window W of SA requests in flight (in 1/MCG_WIN_ONE
 * requests; below one, the request is paced: one every round trip / W),
 * and once per round (the least round trip of the round's answers, at
 * least MCG_WIN_ROUND_MIN_NS) estimates its own requests in the SA's
 * queue as W x (1 - base / round trip), TCP Vegas's estimate:
 *
 *  - it starts at MCG_WIN_START and doubles each round while the estimate
 *    stays below MCG_WIN_VA, then gives up a quarter once and grows no
 *    faster than below;
 *  - below MCG_WIN_VA it grows by one request a round (by a quarter of
 *    itself below one request, at least MCG_WIN_MIN); above MCG_WIN_VB it
 *    shrinks by one (by a quarter at two requests or less); never below
 *    MCG_WIN_MIN, never above the caller's maximum;
 *  - a round trip less than MCG_WIN_DELAY_OK_NS longer than the base is
 *    no queue, whatever the estimate: it doubles or grows. An SA that is
 *    not saturated answers later as it gets more (OpenSM: 0.6 ms for one
 *    request in flight, 1.5 ms for four, at nearly twice the pace), and
 *    such a round trip's jitter alone would hold a port at one request in
 *    flight. At most that delay is added to the SA's queue, 2 % of any
 *    100 ms of its work, whatever its pace and the number of ports;
 *  - the base is the least round trip seen, but at most
 *    MCG_WIN_BASE_MAX_NS: a port that starts while the queue is long would
 *    take the queue for its base and never see it;
 *  - a refusal or a time-out of root's join (mcg_status_cuts()) halves the
 *    window at the end of its round (once for the requests sent before that
 *    cut) and ends the doubling. An SA whose queue is bounded answers BUSY
 *    what it cannot queue, at once, and ib_sa reports BUSY as it reports
 *    any refusal (-EINVAL): such an answer is the SA's "too much", and its
 *    round trip is not the queue's (mcg_rtt_is_sa() leaves it out). A round
 *    whose only answers were refusals ends too, its round trip the last
 *    round's. The last round's least round trip at the cut is the SA's
 *    bound, as near as a port can tell: after the cut a queue (as above)
 *    lets the window grow only while the round trip stays below half of
 *    that bound, and it grows by less (1/MCG_WIN_CUT_DIV of itself below
 *    one request, at least one unit; MCG_WIN_CUT_STEP above), so that the
 *    fleet comes back to the bound slowly rather than in a few rounds;
 *    until MCG_WIN_CUT_QUIET rounds in a row had no queue, which lets a
 *    port that is among the last of a wave take up the SA that the others
 *    left. A refusal of another cause (the SA's rules) costs the same: the
 *    refused group waits its backoff.
 *
 * Every port's estimate is about the same queue, so the ports share it:
 * each keeps between a quarter and one request in it. Each keeps one
 * request in flight at least, so the SA's queue holds as many requests
 * as there are ports: up to 150 ports share an SA of 500/s without a
 * wait of ib_mad's 300 ms (design-notes.rst).
 */
#define MCG_WIN_ONE		256U
#define MCG_WIN_START		(MCG_WIN_ONE / 10)
#define MCG_WIN_MIN		(MCG_WIN_ONE / 20)
#define MCG_WIN_VA		(MCG_WIN_ONE / 4)
#define MCG_WIN_VB		MCG_WIN_ONE
#define MCG_WIN_BASE_MAX_NS	(5 * NSEC_PER_MSEC)
#define MCG_WIN_DELAY_OK_NS	(2 * NSEC_PER_MSEC)
#define MCG_WIN_ROUND_MIN_NS	(10 * NSEC_PER_MSEC)
#define MCG_WIN_BLIND_MAX_NS	(500 * NSEC_PER_MSEC)
#define MCG_WIN_CUT_DIV		16U
#define MCG_WIN_CUT_STEP	(MCG_WIN_ONE / 8)
#define MCG_WIN_CUT_QUIET	5U

/**
 * struct mcg_win - a port's window (the window law above)
 * @w: the window, in 1/MCG_WIN_ONE requests
 * @start: still doubling
 * @base_ns: the least round trip seen, at most MCG_WIN_BASE_MAX_NS; 0: none
 * @rmin_ns: the least round trip of this round's answers; 0: none yet
 * @round_end_ns: the time this round ends
 * @last_ns: the last round's least round trip
 * @refused: a request sent after @cut_ns was refused in this round
 * @cut_ns: when a refusal last halved the window; 0: never in this wave
 * @bound_ns: the least round trip of the round before that cut
 * @blind_ns: the pace before the first sample (mcg_win_pace_ns())
 * @quiet: rounds in a row without a queue since the cut, at most
 *	MCG_WIN_CUT_QUIET
 * @cuts: cuts in this wave (debugfs)
 */
struct mcg_win {
	u32 w;
	bool start;
	bool refused;
	u64 base_ns;
	u64 rmin_ns;
	u64 round_end_ns;
	u64 last_ns;
	u64 cut_ns;
	u64 bound_ns;
	u64 blind_ns;
	u32 quiet;
	u32 cuts;
};

/**
 * mcg_win_init() - a window at the start of a wave
 * @c: the window
 *
 * Context: any; a pure function (see the top of this file).
 */
static inline void mcg_win_init(struct mcg_win *c)
{
	*c = (struct mcg_win){ .w = MCG_WIN_START, .start = true,
			       .blind_ns = MCG_WIN_BASE_MAX_NS };
}

/**
 * mcg_win_sample() - an SA answer's round trip
 * @c: the window
 * @rtt_ns: the round trip, send to answer (0 as 1)
 *
 * Context: any; a pure function (see the top of this file).
 */
static inline void mcg_win_sample(struct mcg_win *c, u64 rtt_ns)
{
	rtt_ns = max_t(u64, rtt_ns, 1);
	if (!c->base_ns)
		c->base_ns = min_t(u64, rtt_ns, MCG_WIN_BASE_MAX_NS);
	else
		c->base_ns = min(c->base_ns, rtt_ns);
	if (!c->rmin_ns || rtt_ns < c->rmin_ns)
		c->rmin_ns = rtt_ns;
}

/**
 * mcg_win_refused() - the SA refused a request sent at @sent_ns
 * @c: the window
 * @sent_ns: when it was sent
 *
 * Context: any; a pure function (see the top of this file).
 */
static inline void mcg_win_refused(struct mcg_win *c, u64 sent_ns)
{
	if (sent_ns > c->cut_ns)
		c->refused = true;
}

/**
 * mcg_win_queued() - a port's requests in the SA's queue, estimated
 * @w: its window, in 1/MCG_WIN_ONE requests
 * @base_ns: its base round trip
 * @rtt_ns: the round trip now
 *
 * Context: any; a pure function (see the top of this file).
 * Return: W x (1 - base / round trip), in 1/MCG_WIN_ONE requests (0 if
 * the round trip is no longer than the base).
 */
static inline u32 mcg_win_queued(u32 w, u64 base_ns, u64 rtt_ns)
{
	if (rtt_ns <= base_ns)
		return 0;
	return (u32)div64_u64((u64)w * (rtt_ns - base_ns), rtt_ns);
}

/**
 * mcg_win_round() - the end of a round, if it is over
 * @c: the window
 * @now_ns: the time now
 * @wmax: the most the window may be, in 1/MCG_WIN_ONE requests
 *
 * Applies the window law once the round is over and it had an answer.
 *
 * Context: any; a pure function (see the top of this file).
 * Return: true if a round ended (the window may be the same).
 */
static inline bool mcg_win_round(struct mcg_win *c, u64 now_ns, u32 wmax)
{
	u64 w = c->w;	/* no wrap: at most 2 x U32_MAX below */
	bool queue;
	u32 q;

	if (now_ns < c->round_end_ns ||
	    (!c->refused && (!c->rmin_ns || !c->base_ns)))
		return false;
	if (c->rmin_ns)
		c->last_ns = c->rmin_ns;
	q = mcg_win_queued(c->w, c->base_ns, c->rmin_ns);
	queue = c->rmin_ns >= c->base_ns + MCG_WIN_DELAY_OK_NS;
	c->quiet = queue ? 0 : min(c->quiet + 1, MCG_WIN_CUT_QUIET);
	if (c->refused) {
		c->refused = false;
		c->start = false;
		c->quiet = 0;
		c->cuts++;
		c->cut_ns = now_ns;
		c->bound_ns = c->last_ns;
		if (!c->base_ns)
			c->blind_ns = min_t(u64, 2 * c->blind_ns,
					    MCG_WIN_BLIND_MAX_NS);
		w /= 2;
	} else if (c->start) {
		if (queue && q > MCG_WIN_VA) {
			c->start = false;
			w -= w / 4;
		} else {
			w *= 2;
		}
	} else {
		/* since a cut: slower, and below half of its bound */
		bool cut = c->cut_ns && c->quiet < MCG_WIN_CUT_QUIET;

		if (!queue || (q < MCG_WIN_VA &&
			       (!cut || c->rmin_ns < c->bound_ns / 2)))
			w += w >= MCG_WIN_ONE ?
			     (cut ? MCG_WIN_CUT_STEP : MCG_WIN_ONE) :
			     cut ? max_t(u64, w / MCG_WIN_CUT_DIV, 1) :
			     max_t(u64, w / 4, MCG_WIN_MIN);
		else if (q > MCG_WIN_VB)
			w -= w > 2 * MCG_WIN_ONE ? MCG_WIN_ONE : w / 4;
	}
	c->w = clamp_t(u64, w, MCG_WIN_MIN, max(wmax, MCG_WIN_MIN));
	c->round_end_ns = now_ns + max_t(u64, c->last_ns, MCG_WIN_ROUND_MIN_NS);
	c->rmin_ns = 0;
	return true;
}

/**
 * mcg_win_inflight() - the requests a window lets be unanswered
 * @w: the window, in 1/MCG_WIN_ONE requests
 *
 * Context: any; a pure function (see the top of this file).
 * Return: W rounded up, at least 1.
 */
static inline unsigned int mcg_win_inflight(u32 w)
{
	return max(DIV_ROUND_UP(w, MCG_WIN_ONE), 1U);
}

/**
 * mcg_win_interval_ns() - the pacing of a window
 * @w: the window, in 1/MCG_WIN_ONE requests (0 as MCG_WIN_MIN)
 * @rtt_ns: the smoothed round trip; 0: no sample yet
 *
 * A window is sent over one round trip: one request every round trip / W.
 * Before its first sample, a window (below one request: it only grows by
 * samples) has one request unanswered at a time, one every
 * MCG_WIN_BASE_MAX_NS at most: its next request goes when the answer
 * comes. Not a tenth of one every MCG_WIN_BASE_MAX_NS (50 ms): a wave's
 * first re-joins are sent while multicast.c still reports the lost
 * groups, and their answers are no sample (mcg_rtt_is_sa()), so a wave
 * of 1,024 groups at 5,000/s spent its first 50 ms on one request.
 *
 * Context: any; a pure function (see the top of this file).
 * Return: the time between two requests, in nanoseconds.
 */
static inline u64 mcg_win_interval_ns(u32 w, u64 rtt_ns)
{
	if (!rtt_ns)
		return MCG_WIN_BASE_MAX_NS;
	return div64_u64(rtt_ns * MCG_WIN_ONE, max(w, MCG_WIN_MIN));
}

/**
 * mcg_win_pace_ns() - a port's time between two requests
 * @c: its window
 * @srtt_ns: its smoothed round trip; 0: no sample yet
 *
 * The window paced over the round trip (mcg_win_interval_ns()); before the
 * first sample, one every MCG_WIN_BASE_MAX_NS, twice as long after each
 * cut (up to MCG_WIN_BLIND_MAX_NS): a port that has only been refused
 * (an SA answering BUSY at once) has no round trip to pace by, and its
 * next request would otherwise go as soon as the refusal came.
 *
 * Context: any; a pure function (see the top of this file).
 * Return: the time between two requests, in nanoseconds.
 */
static inline u64 mcg_win_pace_ns(const struct mcg_win *c, u64 srtt_ns)
{
	return srtt_ns ? mcg_win_interval_ns(c->w, srtt_ns) : c->blind_ns;
}

/* ---- the pacer of a port (pacer.c; under mcg_lock) ------------------------- */

/**
 * struct mcg_pace - one run's pacing state (mcg_pace_begin())
 * @interval: ns between two requests of the port: the window's pace, at
 *	most rejoin_rate
 * @rinterval: rejoin_rate's alone (0: no cap), root's leaves' pace: they
 *	tell the window nothing (no answer is seen), the in-flight limit
 *	of leaves bounds them
 * @uinterval: user_sa_rate's, of one user's groups
 * @tinterval: user_sa_rate_total's, of all users' groups
 * @now_ns: ktime_get_ns() at the start of the run
 * @uwait_ns: users' work waits this long at least ...
 * @uwait: ... if set
 * @stopped: root's paced work waits: users' too
 */
struct mcg_pace {
	u64 interval;
	u64 rinterval;
	u64 uinterval;
	u64 tinterval;
	u64 now_ns;
	u64 uwait_ns;
	bool uwait;
	bool stopped;
};

void mcg_pace_begin(struct mcg_port *port, struct mcg_pace *p);
unsigned int mcg_pacer_join_limit(const struct mcg_port *port);
unsigned int mcg_pacer_leave_limit(void);
bool mcg_pacer_joins_full(const struct mcg_port *port, unsigned int limit);
bool mcg_pacer_rejoins_full(const struct mcg_port *port, unsigned int limit);
bool mcg_pacer_leaves_full(const struct mcg_port *port);
void mcg_pacer_wave_start(struct mcg_port *port);
void mcg_pacer_join_sent(struct mcg_port *port, struct mcg_ib_memb *m,
			 bool user, bool fresh, bool timed);
void mcg_pacer_join_done(struct mcg_port *port, struct mcg_ib_memb *m);
void mcg_pacer_rtt_sample(struct mcg_port *port, struct mcg_ib_memb *m,
			  int status);
struct mcg_ib_user *mcg_pacer_user_turn(struct mcg_port *port, kuid_t uid,
					struct mcg_pace *p, bool *stop);
void mcg_pacer_user_take(struct mcg_port *port, struct mcg_ib_user *u,
			 struct mcg_pace *p, unsigned int n);
void mcg_pacer_user_debt(struct mcg_port *port, kuid_t uid, u64 now_ns);
void mcg_pacer_users_trim(struct mcg_port *port, const struct mcg_pace *p);
void mcg_pacer_users_free(struct mcg_port *port);

#endif /* _MCG_PACER_H */
