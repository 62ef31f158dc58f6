// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite mcg_pacing: the pacer's model (kernel/pacer.h), the token
 * buckets of rejoin_rate and the users' rates, the SA round trip and the
 * in-flight limits. Part of ib_mcgroups_kunit.ko (logic_kunit.c registers
 * the suites).
 */
#include <kunit/test.h>
#include <linux/math64.h>

#include "mcg_logic.h"
#include "pacer.h"
#include "suites.h"

static void pace_interval_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mcg_pace_interval_ns(20), 50 * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, mcg_pace_interval_ns(1), NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, mcg_pace_interval_ns(0), NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, mcg_pace_interval_ns(3), 333333333ULL);
	KUNIT_EXPECT_EQ(test, mcg_pace_interval_ns(1000000000), 1ULL);
	KUNIT_EXPECT_EQ(test, mcg_pace_interval_ns(UINT_MAX), 0ULL);
}

static void tb_refill_test(struct kunit *test)
{
	const u64 ms = NSEC_PER_MSEC, iv = 50 * ms, cap = 8 * ms;

	/* (cap: any value; the pacer passes MCG_TB_CAP_NS) */

	/* idle: up to one request's worth, whatever the time elapsed */
	KUNIT_EXPECT_EQ(test, mcg_tb_refill(0, 10 * ms, iv, cap, false),
			10 * ms);
	KUNIT_EXPECT_EQ(test, mcg_tb_refill(0, 10000 * ms, iv, cap, false),
			(s64)iv);
	KUNIT_EXPECT_EQ(test, mcg_tb_refill(0, U64_MAX, iv, cap, false),
			(s64)iv);
	/* backlog: one request and the cap, at most two, at least the cap */
	KUNIT_EXPECT_EQ(test, mcg_tb_refill(0, 1000 * ms, iv, cap, true),
			(s64)(iv + cap));
	KUNIT_EXPECT_EQ(test, mcg_tb_refill(0, 1000 * ms, 3 * ms, cap, true),
			(s64)cap);
	KUNIT_EXPECT_EQ(test, mcg_tb_refill(0, 1000 * ms, 6 * ms, cap, true),
			(s64)(12 * ms));
	KUNIT_EXPECT_EQ(test, mcg_tb_refill(0, 1000 * ms, ms / 5, cap, true),
			(s64)cap);
	KUNIT_EXPECT_EQ(test, mcg_tb_refill(ms, 3 * ms, ms / 5, cap, true),
			(s64)(4 * ms));
	/* a pacer woken 5 ms late keeps those 5 ms */
	KUNIT_EXPECT_EQ(test, mcg_tb_refill(0, iv + 5 * ms, iv, cap, true),
			(s64)(iv + 5 * ms));
	/* a debt is paid by time */
	KUNIT_EXPECT_EQ(test, mcg_tb_refill(-100 * ms, 30 * ms, iv, cap, true),
			-70 * (s64)ms);
	KUNIT_EXPECT_EQ(test, mcg_tb_refill(-100 * ms, U64_MAX, iv, cap, true),
			(s64)(iv + cap));
	/* more than the top (one request, and the cap in a backlog): the top */
	KUNIT_EXPECT_EQ(test, mcg_tb_refill(cap, 0, ms, cap, false), (s64)ms);
	/* no limit */
	KUNIT_EXPECT_TRUE(test, mcg_tb_may_send(mcg_tb_refill(0, 0, 0, cap,
							      false), 0));
}

static void tb_take_test(struct kunit *test)
{
	const u64 ms = NSEC_PER_MSEC, iv = 50 * ms;

	KUNIT_EXPECT_TRUE(test, mcg_tb_may_send(iv, iv));
	KUNIT_EXPECT_FALSE(test, mcg_tb_may_send(iv - 1, iv));
	KUNIT_EXPECT_FALSE(test, mcg_tb_may_send(-1, iv));
	KUNIT_EXPECT_TRUE(test, mcg_tb_may_send(-1, 0));
	/* a group of two join states costs two, into debt */
	KUNIT_EXPECT_EQ(test, mcg_tb_take(iv, iv, 2), -(s64)iv);
	KUNIT_EXPECT_EQ(test, mcg_tb_take(3 * iv, iv, 0), 3 * (s64)iv);
	KUNIT_EXPECT_EQ(test, mcg_tb_wait_ns(iv, iv), 0ULL);
	KUNIT_EXPECT_EQ(test, mcg_tb_wait_ns(10 * ms, iv), 40 * ms);
	KUNIT_EXPECT_EQ(test, mcg_tb_wait_ns(-(s64)iv, iv), 2 * iv);
	KUNIT_EXPECT_EQ(test, mcg_tb_wait_ns(-5, 0), 0ULL);
}

/*
 * No second holds more than @rate requests plus what the credit cap
 * lets out at once: at[0..n) are the send times, in order, so a
 * window's end only moves forward.
 */
static void tb_check_windows(struct kunit *test, const u64 *at,
			     unsigned int n, unsigned int rate, u64 cap,
			     u64 iv)
{
	unsigned int i, j;

	for (i = 0, j = 0; i < n; i++) {
		while (j < n && at[j] < at[i] + NSEC_PER_SEC)
			j++;
		KUNIT_EXPECT_LE_MSG(test, j - i,
				    rate + (unsigned int)div64_u64(cap, iv) + 1,
				    "rate %u: window at %llu ns", rate, at[i]);
	}
}

/*
 * join_work as a port runs it with a backlog of @total requests: woken
 * on jiffies (4 ms), late by up to 7 ms at random, it refills and sends
 * what the credit pays for. Returns how many went out in @dur_ms; checks
 * that no one-second window saw more than rate plus the cap's worth.
 */
static unsigned int tb_run(struct kunit *test, unsigned int rate,
			   unsigned int dur_ms)
{
	const u64 iv = mcg_pace_interval_ns(rate), ms = NSEC_PER_MSEC;
	const u64 cap = MCG_TB_CAP_NS;
	u64 tick, t, last = 0, *at;
	unsigned int n = 0, max_n = rate * dur_ms / 1000 + 64;
	s64 credit = 0;
	u32 rnd = 1;

	at = kunit_kcalloc(test, max_n, sizeof(*at), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, at);
	for (tick = 0; tick < dur_ms * ms; tick += 4 * ms) {
		rnd = rnd * 1664525 + 1013904223;
		t = max(tick + (rnd >> 29) * ms, last);
		credit = mcg_tb_refill(credit, t - last, iv, cap, n > 0);
		last = t;
		while (mcg_tb_may_send(credit, iv)) {
			KUNIT_ASSERT_LT(test, n, max_n);
			at[n++] = t;
			credit = mcg_tb_take(credit, iv, 1);
		}
	}
	tb_check_windows(test, at, n, rate, cap, iv);
	return n;
}

/* The rate is kept, neither undershot nor exceeded, from 20 to 5,000/s. */
static void tb_rate_test(struct kunit *test)
{
	static const unsigned int rates[] = { 1, 20, 200, 1000, 5000 };
	unsigned int i, n;

	for (i = 0; i < ARRAY_SIZE(rates); i++) {
		n = tb_run(test, rates[i], 10000);
		KUNIT_EXPECT_GE_MSG(test, n, 10 * rates[i] * 95 / 100,
				    "rate %u", rates[i]);
		KUNIT_EXPECT_LE_MSG(test, n, 10 * rates[i] + 1, "rate %u",
				    rates[i]);
	}
}

/*
 * join_work as ib_join_work() and done_work run it in a re-join wave with
 * @limit requests in flight at most (0: no limit), each answered @rtt_ns
 * after it went out. A run stopped by the limit runs again at the next
 * answer (done_work); one stopped by credit is armed for the jiffy (4 ms)
 * by which the credit pays for the next request and woken late by up to
 * 7 ms at random (a loaded machine, qemu). Either way the requests waited,
 * so the credit keeps growing (@backlog). Returns how many went out in
 * @dur_ms; checks the window as tb_run() does.
 */
static unsigned int tb_paced_run(struct kunit *test, unsigned int rate,
				 unsigned int limit, u64 rtt_ns,
				 unsigned int dur_ms)
{
	const u64 iv = mcg_pace_interval_ns(rate), ms = NSEC_PER_MSEC;
	const u64 jiffy = 4 * ms, cap = MCG_TB_CAP_NS;
	unsigned int n = 0, i, max_n = rate * dur_ms / 1000 + 64;
	u64 t = 0, last = 0, *at, next, wait;
	bool backlog = false, slot;
	s64 credit = 0;
	u32 rnd = 1;

	at = kunit_kcalloc(test, max_n, sizeof(*at), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, at);
	while (t < dur_ms * ms) {
		credit = mcg_tb_refill(credit, t - last, iv, cap, backlog);
		last = t;
		backlog = true;
		slot = false;
		/* at[] is in order: the answers outstanding are the last ones */
		for (;;) {
			for (i = n; i > 0 && at[i - 1] + rtt_ns > t; i--)
				;
			if (limit && n - i >= limit) {
				slot = true;
				break;
			}
			if (!mcg_tb_may_send(credit, iv))
				break;
			KUNIT_ASSERT_LT(test, n, max_n);
			at[n++] = t;
			credit = mcg_tb_take(credit, iv, 1);
		}
		next = U64_MAX;
		if (slot)
			next = at[i] + rtt_ns;	/* the first answer due */
		if (!mcg_tb_may_send(credit, iv)) {
			wait = max_t(u64, 1, div64_u64(mcg_tb_wait_ns(credit, iv) +
						       jiffy - 1, jiffy));
			rnd = rnd * 1664525 + 1013904223;
			next = min(next, (div64_u64(t, jiffy) + wait) * jiffy +
				   (rnd >> 29) * ms);
		}
		t = next;
	}
	tb_check_windows(test, at, n, rate, cap, iv);
	return n;
}

/*
 * Woken late every time, or held back by the in-flight limit (8 requests
 * answered in 1 ms: room for 8,000/s), the pacer still keeps its rate.
 * (Not from about 150 to 500/s: there the credit holds less than one
 * request beyond the one due, so that no more than two go out at once,
 * and a wake-up later than that is not made up in full.)
 */
static void tb_paced_rate_test(struct kunit *test)
{
	static const unsigned int rates[] = { 1, 20, 100, 1000, 5000 };
	unsigned int i, k, n;

	for (k = 0; k < 2; k++) {
		for (i = 0; i < ARRAY_SIZE(rates); i++) {
			n = tb_paced_run(test, rates[i], k ? 8 : 0,
					 NSEC_PER_MSEC, 10000);
			KUNIT_EXPECT_GE_MSG(test, n, 10 * rates[i] * 95 / 100,
					    "rate %u, limit %u", rates[i],
					    k ? 8 : 0);
			KUNIT_EXPECT_LE_MSG(test, n, 10 * rates[i] + 1,
					    "rate %u, limit %u", rates[i],
					    k ? 8 : 0);
		}
	}
}

static void inflight_test(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, mcg_inflight_full(0, 8));
	KUNIT_EXPECT_FALSE(test, mcg_inflight_full(7, 8));
	KUNIT_EXPECT_TRUE(test, mcg_inflight_full(8, 8));
	KUNIT_EXPECT_TRUE(test, mcg_inflight_full(9, 8));
	/* 0 counts as 1: one join at a time, never none */
	KUNIT_EXPECT_FALSE(test, mcg_inflight_full(0, 0));
	KUNIT_EXPECT_TRUE(test, mcg_inflight_full(1, 0));
	KUNIT_EXPECT_FALSE(test, mcg_inflight_full(UINT_MAX - 1, UINT_MAX));
}

static void srtt_test(struct kunit *test)
{
	const u64 ms = NSEC_PER_MSEC;
	u64 srtt = 0;
	int i;

	/* the first sample as it is, then 1/8 of each difference */
	KUNIT_EXPECT_EQ(test, mcg_srtt_update(0, 8 * ms), 8 * ms);
	KUNIT_EXPECT_EQ(test, mcg_srtt_update(8 * ms, 16 * ms), 9 * ms);
	KUNIT_EXPECT_EQ(test, mcg_srtt_update(8 * ms, 0), 7 * ms);
	KUNIT_EXPECT_EQ(test, mcg_srtt_update(0, 0), 1ULL);
	KUNIT_EXPECT_EQ(test, mcg_srtt_update(1, 0), 1ULL);
	KUNIT_EXPECT_EQ(test, mcg_srtt_update(U64_MAX - 7, U64_MAX), U64_MAX - 7);
	/* one 300 ms answer (behind multicast.c's error reports) fades */
	srtt = mcg_srtt_update(srtt, 300 * ms);
	for (i = 0; i < 50; i++)
		srtt = mcg_srtt_update(srtt, ms);
	KUNIT_EXPECT_LT(test, srtt, 2 * ms);
}

/*
 * Which answers time the SA: a success of a join sent after
 * the port's last loss report; not one sent before it (it waited behind
 * the reports on multicast.c's workqueue), not an untimed one, not
 * another error.
 */
static void rtt_is_sa_test(struct kunit *test)
{
	const u64 ms = NSEC_PER_MSEC;

	KUNIT_EXPECT_TRUE(test, mcg_rtt_is_sa(5 * ms, 0, 0));
	KUNIT_EXPECT_TRUE(test, mcg_rtt_is_sa(5 * ms, 4 * ms, 0));
	/* a refusal may be a BUSY, sent at once: no sample */
	KUNIT_EXPECT_FALSE(test, mcg_rtt_is_sa(5 * ms, 4 * ms, -EINVAL));
	/* sent before the report, or in the same nanosecond */
	KUNIT_EXPECT_FALSE(test, mcg_rtt_is_sa(5 * ms, 6 * ms, 0));
	KUNIT_EXPECT_FALSE(test, mcg_rtt_is_sa(5 * ms, 5 * ms, 0));
	KUNIT_EXPECT_FALSE(test, mcg_rtt_is_sa(0, 0, 0));
	KUNIT_EXPECT_FALSE(test, mcg_rtt_is_sa(5 * ms, 0, -ETIMEDOUT));
	KUNIT_EXPECT_FALSE(test, mcg_rtt_is_sa(5 * ms, 0, -ENETRESET));
	KUNIT_EXPECT_FALSE(test, mcg_rtt_is_sa(5 * ms, 0, -EAGAIN));
	/* which answers cut the window: a refusal, a time-out */
	KUNIT_EXPECT_TRUE(test, mcg_status_cuts(-EINVAL));
	KUNIT_EXPECT_TRUE(test, mcg_status_cuts(-ETIMEDOUT));
	KUNIT_EXPECT_FALSE(test, mcg_status_cuts(0));
	KUNIT_EXPECT_FALSE(test, mcg_status_cuts(-ENETRESET));
	KUNIT_EXPECT_FALSE(test, mcg_status_cuts(-EAGAIN));
	KUNIT_EXPECT_FALSE(test, mcg_status_cuts(-ENOMEM));
}

/* Leaves: MCG_INFLIGHT_MIN, rejoin_inflight winning, 0 as 1. */
static void leave_limit_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mcg_leave_limit(64), MCG_INFLIGHT_MIN);
	KUNIT_EXPECT_EQ(test, mcg_leave_limit(UINT_MAX), MCG_INFLIGHT_MIN);
	KUNIT_EXPECT_EQ(test, mcg_leave_limit(4), 4U);
	KUNIT_EXPECT_EQ(test, mcg_leave_limit(1), 1U);
	KUNIT_EXPECT_EQ(test, mcg_leave_limit(0), 1U);
}

/*
 * A re-join wave of @n groups at @rate, as ib_join_work() and done_work
 * run it (see tb_paced_run()), with what the VM showed (issue 12):
 * multicast.c reports the loss of the groups one at a time on its ordered
 * workqueue for the first @stall_ns, and a re-join sent meanwhile queues
 * behind that, so none is answered before @stall_ns + @rtt_ns; later ones
 * are answered @rtt_ns after they went out. The pace and the in-flight
 * limit are pacer.c's: the window law's (every answer timed but those of
 * joins sent during the reports, a round of the law at each run), at
 * most @rate (rejoin_rate) and rejoin_inflight @max. Returns the wave's
 * length, from its start to its last answer, in ns; checks the windows as
 * tb_run() does.
 */
static u64 tb_wave_run(struct kunit *test, unsigned int rate, unsigned int n,
		       u64 rtt_ns, u64 stall_ns, unsigned int max)
{
	const u64 riv = mcg_pace_interval_ns(rate), ms = NSEC_PER_MSEC;
	const u64 jiffy = 4 * ms, cap = MCG_TB_CAP_NS;
	u64 t = 0, last = 0, *at, *ans, next, wait, srtt = 0, end = 0, iv;
	unsigned int sent = 0, done = 0, i, limit;
	bool backlog = false, slot;
	struct mcg_win c;
	s64 credit = 0;
	u32 rnd = 1;

	mcg_win_init(&c);

	at = kunit_kcalloc(test, n, sizeof(*at), GFP_KERNEL);
	ans = kunit_kcalloc(test, n, sizeof(*ans), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, at);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ans);
	while (done < n) {
		/*
		 * done_work: the answers due by now, each timed but those of
		 * joins sent before the last report (mcg_rtt_is_sa())
		 */
		while (done < sent && ans[done] <= t) {
			if (mcg_rtt_is_sa(at[done], stall_ns, 0)) {
				srtt = mcg_srtt_update(srtt,
						       ans[done] - at[done]);
				mcg_win_sample(&c, ans[done] - at[done]);
			}
			end = max(end, ans[done]);
			done++;
		}
		if (done == n)
			break;
		/* mcg_pace_begin(), mcg_pacer_join_limit() */
		mcg_win_round(&c, t, max * MCG_WIN_ONE);
		iv = max(riv, mcg_win_interval_ns(c.w, srtt));
		limit = min(mcg_win_inflight(c.w), max);
		credit = mcg_tb_refill(credit, t - last, iv, cap, backlog);
		last = t;
		backlog = true;
		slot = false;
		while (sent < n) {
			if (mcg_inflight_full(sent - done, limit)) {
				slot = true;
				break;
			}
			if (!mcg_tb_may_send(credit, iv))
				break;
			at[sent] = t;
			ans[sent] = max(t, stall_ns) + rtt_ns;
			sent++;
			credit = mcg_tb_take(credit, iv, 1);
		}
		next = U64_MAX;
		if (slot || sent == n)
			next = ans[done];	/* the first answer due */
		if (sent < n && !mcg_tb_may_send(credit, iv)) {
			wait = max_t(u64, 1, div64_u64(mcg_tb_wait_ns(credit, iv) +
						       jiffy - 1, jiffy));
			rnd = rnd * 1664525 + 1013904223;
			next = min(next, (div64_u64(t, jiffy) + wait) * jiffy +
				   (rnd >> 29) * ms);
		}
		t = max(next, t);
	}
	for (i = 0; i < n; i++)
		at[i] = max(at[i], stall_ns);	/* when the SA saw them */
	tb_check_windows(test, at, n, rate, cap, riv);
	return end;
}

/*
 * Issue 12: with a fixed number of joins in flight, the round trip, not
 * the rate, bounded re-join waves (the measurements:
 * Documentation/design-notes.rst). Against an SA that answers at once, a
 * wave capped at C (rejoin_rate) must take N / C to 1.10 x N / C, never
 * less than (N - 1) / C, when its start (behind multicast.c's reports of
 * the lost groups) is as late as measured there (w[].stall_ms), plus the
 * window's start: ten rounds of MCG_WIN_ROUND_MIN_NS at most, from a
 * tenth of a request doubling to 64 (issue 31: after a reregister every
 * node starts so). A short fast wave pays it: 1,024 at 5,000/s take
 * 0.3 s instead of 0.2.
 */
static void tb_wave_test(struct kunit *test)
{
	static const struct {
		unsigned int rate, n, rtt_us, stall_ms;
	} w[] = {
		{ 5000, 1024, 2000, 10 },
		{ 5000, 1024, 1000, 20 },
		{ 5000, 16383, 1500, 40 },
		{ 1000, 1024, 2000, 30 },
		{ 1000, 16383, 5000, 45 },
		{ 100, 1024, 2000, 30 },
		{ 20, 200, 2000, 30 },
	};
	unsigned int i;
	u64 len, nc;

	for (i = 0; i < ARRAY_SIZE(w); i++) {
		len = tb_wave_run(test, w[i].rate, w[i].n,
				  w[i].rtt_us * NSEC_PER_USEC,
				  w[i].stall_ms * NSEC_PER_MSEC, 64);
		nc = div_u64((u64)w[i].n * NSEC_PER_SEC, w[i].rate);
		kunit_info(test, "N %u at %u/s, round trip %u us: %llu ms, N / C %llu ms\n",
			   w[i].n, w[i].rate, w[i].rtt_us,
			   div_u64(len, NSEC_PER_MSEC), div_u64(nc, NSEC_PER_MSEC));
		KUNIT_EXPECT_LE_MSG(test, len, div_u64(nc * 110, 100) +
				    10 * MCG_WIN_ROUND_MIN_NS,
				    "N %u at %u/s: %llu ns, N / C %llu ns",
				    w[i].n, w[i].rate, len, nc);
		KUNIT_EXPECT_GE_MSG(test, len,
				    nc - mcg_pace_interval_ns(w[i].rate),
				    "N %u at %u/s: %llu ns, N / C %llu ns",
				    w[i].n, w[i].rate, len, nc);
	}
}

/*
 * A user's bucket as backend_ib.c keeps it: refilled without backlog at
 * every run of the pacer, freed when idle (mcg_tb_idle()) and made again
 * with one request's credit when the user next asks. Whatever the times
 * of the runs, a user asking all the time never gets more than
 * 1 + T / interval requests in any window of length T from the start,
 * and one asking once an interval gets every request.
 */
static void tb_user_test(struct kunit *test)
{
	const u64 iv = mcg_pace_interval_ns(2);	/* user_sa_rate 2/s */
	u64 now = 0, last = 0, t;
	unsigned int sent = 0, i;
	bool exists = false;
	s64 credit = 0;
	u32 rnd = 1;

	KUNIT_EXPECT_TRUE(test, mcg_tb_idle(iv, iv));
	KUNIT_EXPECT_FALSE(test, mcg_tb_idle(iv - 1, iv));
	KUNIT_EXPECT_TRUE(test, mcg_tb_idle(mcg_tb_refill(0, iv, iv,
							  MCG_TB_CAP_NS, false),
					    iv));
	for (i = 0; i < 20000; i++) {
		/* pacer runs 0..40 ms apart (jiffies, late wake-ups) */
		rnd = rnd * 1103515245 + 12345;
		now += (rnd >> 8) % (40 * NSEC_PER_MSEC);
		if (exists) {
			credit = mcg_tb_refill(credit, now - last, iv,
					       MCG_TB_CAP_NS, false);
		} else {
			credit = iv;
			exists = true;
		}
		last = now;
		while (mcg_tb_may_send(credit, iv)) {
			credit = mcg_tb_take(credit, iv, 1);
			sent++;
		}
		t = now;
		KUNIT_ASSERT_LE_MSG(test, (u64)sent, 1 + div64_u64(t, iv),
				    "%u requests in %llu ns", sent, t);
		/* users_trim(): an idle bucket is freed */
		if (mcg_tb_idle(credit, iv))
			exists = false;
	}
	/* asking all the time, the user gets its rate, less one request */
	KUNIT_EXPECT_GE(test, (u64)sent + 2, div64_u64(now, iv) * 9 / 10);
}

/* The users' share of the in-flight limit, and the bound of root's leaves. */
static void user_limits_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mcg_user_inflight_limit(0), 1U);
	KUNIT_EXPECT_EQ(test, mcg_user_inflight_limit(1), 1U);
	KUNIT_EXPECT_EQ(test, mcg_user_inflight_limit(8), 4U);
	KUNIT_EXPECT_EQ(test, mcg_user_inflight_limit(64), 32U);
	KUNIT_EXPECT_TRUE(test, mcg_ib_leave_paced(0, MCG_IB_LEAVES_MAX));
	KUNIT_EXPECT_TRUE(test, mcg_ib_leave_paced(MCG_IB_LEAVES_MAX - 1,
						   MCG_IB_LEAVES_MAX));
	KUNIT_EXPECT_FALSE(test, mcg_ib_leave_paced(MCG_IB_LEAVES_MAX,
						    MCG_IB_LEAVES_MAX));
}

/*
 * The window law's steps (pacer.h), one rule at a time. Round trips are
 * in units of u, the base (MCG_WIN_BASE_MAX_NS): one of 2u is then a
 * queue (MCG_WIN_DELAY_OK_NS longer than the base).
 */
static void win_law_test(struct kunit *test)
{
	const u64 ms = NSEC_PER_MSEC, round = MCG_WIN_ROUND_MIN_NS;
	const u64 u = MCG_WIN_BASE_MAX_NS;
	const u32 one = MCG_WIN_ONE, wmax = 64 * MCG_WIN_ONE;
	struct mcg_win c;
	u64 now = 0;
	int i;

	BUILD_BUG_ON(MCG_WIN_DELAY_OK_NS > MCG_WIN_BASE_MAX_NS);
	mcg_win_init(&c);
	KUNIT_EXPECT_EQ(test, c.w, MCG_WIN_START);
	KUNIT_EXPECT_TRUE(test, c.start);
	/* no answer yet: no round ends, whatever the time */
	KUNIT_EXPECT_FALSE(test, mcg_win_round(&c, 10000 * ms, wmax));
	/* the base: the least round trip, at most MCG_WIN_BASE_MAX_NS */
	mcg_win_sample(&c, 50 * ms);
	KUNIT_EXPECT_EQ(test, c.base_ns, MCG_WIN_BASE_MAX_NS);
	KUNIT_EXPECT_EQ(test, c.rmin_ns, 50 * ms);
	mcg_win_sample(&c, u);
	KUNIT_EXPECT_EQ(test, c.base_ns, u);
	KUNIT_EXPECT_EQ(test, c.rmin_ns, u);

	/* no queue: x2 each round, rounds of at least MCG_WIN_ROUND_MIN_NS */
	for (i = 0; i < 4; i++) {
		u32 w = c.w;

		KUNIT_ASSERT_TRUE(test, mcg_win_round(&c, now, wmax));
		KUNIT_EXPECT_EQ(test, c.w, 2 * w);
		KUNIT_EXPECT_EQ(test, c.round_end_ns, now + round);
		KUNIT_EXPECT_FALSE(test, mcg_win_round(&c, now + round - 1, wmax));
		mcg_win_sample(&c, u);
		now += round;
	}
	/* never above the maximum */
	c.w = wmax;
	KUNIT_ASSERT_TRUE(test, mcg_win_round(&c, now, wmax));
	KUNIT_EXPECT_EQ(test, c.w, wmax);

	/* an estimate above MCG_WIN_VA but a round trip less than
	 * MCG_WIN_DELAY_OK_NS over the base: no queue, still doubling
	 */
	c.w = 2 * one;
	mcg_win_sample(&c, u + MCG_WIN_DELAY_OK_NS - 1);
	now += round;
	KUNIT_EXPECT_GT(test, mcg_win_queued(c.w, u, u + MCG_WIN_DELAY_OK_NS - 1),
			MCG_WIN_VA);
	KUNIT_ASSERT_TRUE(test, mcg_win_round(&c, now, wmax));
	KUNIT_EXPECT_TRUE(test, c.start);
	KUNIT_EXPECT_EQ(test, c.w, 4 * one);

	/* half of a window of 2 queued (round trip twice the base): the
	 * doubling ends, a quarter given up
	 */
	c.w = 2 * one;
	mcg_win_sample(&c, 2 * u);
	now += 2 * u;
	KUNIT_EXPECT_EQ(test, mcg_win_queued(c.w, u, 2 * u), one);
	KUNIT_ASSERT_TRUE(test, mcg_win_round(&c, now, wmax));
	KUNIT_EXPECT_FALSE(test, c.start);
	KUNIT_EXPECT_EQ(test, c.w, 3 * one / 2);
	/* a round lasts its least round trip, MCG_WIN_ROUND_MIN_NS at least */
	KUNIT_EXPECT_EQ(test, c.round_end_ns, now + max(2 * u, round));

	/* between MCG_WIN_VA and MCG_WIN_VB queued: unchanged */
	mcg_win_sample(&c, 2 * u);
	now += max(2 * u, round);
	KUNIT_ASSERT_TRUE(test, mcg_win_round(&c, now, wmax));
	KUNIT_EXPECT_EQ(test, c.w, 3 * one / 2);
	/* ... but not a queue if less than MCG_WIN_DELAY_OK_NS: one more */
	mcg_win_sample(&c, u + MCG_WIN_DELAY_OK_NS - 1);
	now += max(2 * u, round);
	KUNIT_ASSERT_TRUE(test, mcg_win_round(&c, now, wmax));
	KUNIT_EXPECT_EQ(test, c.w, 5 * one / 2);
	c.w = 3 * one / 2;
	/* below MCG_WIN_VA: one more */
	mcg_win_sample(&c, u);
	now += max(2 * u, round);
	KUNIT_ASSERT_TRUE(test, mcg_win_round(&c, now, wmax));
	KUNIT_EXPECT_EQ(test, c.w, 5 * one / 2);
	/* above MCG_WIN_VB: one less above two, a quarter less below */
	mcg_win_sample(&c, 10 * u);
	now += max(u, round);
	KUNIT_ASSERT_TRUE(test, mcg_win_round(&c, now, wmax));
	KUNIT_EXPECT_EQ(test, c.w, 3 * one / 2);
	/* a round as long as its least round trip, when that is longer */
	KUNIT_EXPECT_EQ(test, c.round_end_ns, now + 10 * u);
	mcg_win_sample(&c, 10 * u);
	now += 10 * u;
	KUNIT_ASSERT_TRUE(test, mcg_win_round(&c, now, wmax));
	KUNIT_EXPECT_EQ(test, c.w, 3 * one / 2 - 3 * one / 8);
	/* however long the queue, a port keeps a request or less in it:
	 * 288 (0.995 x 288 queued) shrinks once, to 216 (215 queued)
	 */
	for (i = 0; i < 8; i++) {
		mcg_win_sample(&c, 1000 * ms);
		now += 1000 * ms;
		mcg_win_round(&c, now, wmax);
	}
	KUNIT_EXPECT_EQ(test, c.w, 216U);
	/* below one request, it grows by a quarter, at least MCG_WIN_MIN */
	c.w = MCG_WIN_MIN;
	mcg_win_sample(&c, u);
	now += 1000 * ms;
	KUNIT_ASSERT_TRUE(test, mcg_win_round(&c, now, wmax));
	KUNIT_EXPECT_EQ(test, c.w, 2 * MCG_WIN_MIN);
	c.w = 128;
	mcg_win_sample(&c, u);
	now += 1000 * ms;
	KUNIT_ASSERT_TRUE(test, mcg_win_round(&c, now, wmax));
	KUNIT_EXPECT_EQ(test, c.w, 160U);

	/* in flight: the window rounded up, at least one */
	KUNIT_EXPECT_EQ(test, mcg_win_inflight(0), 1U);
	KUNIT_EXPECT_EQ(test, mcg_win_inflight(MCG_WIN_MIN), 1U);
	KUNIT_EXPECT_EQ(test, mcg_win_inflight(one), 1U);
	KUNIT_EXPECT_EQ(test, mcg_win_inflight(one + 1), 2U);
	/* paced: a window per round trip */
	KUNIT_EXPECT_EQ(test, mcg_win_interval_ns(one, ms), ms);
	KUNIT_EXPECT_EQ(test, mcg_win_interval_ns(4 * one, ms), ms / 4);
	KUNIT_EXPECT_EQ(test, mcg_win_interval_ns(one / 10 * 10, 10 * ms),
			div64_u64(10 * ms * one, one / 10 * 10));
	KUNIT_EXPECT_EQ(test, mcg_win_interval_ns(0, ms),
			mcg_win_interval_ns(MCG_WIN_MIN, ms));
	/* no sample yet: one at a time, one per MCG_WIN_BASE_MAX_NS at most */
	KUNIT_EXPECT_EQ(test, mcg_win_interval_ns(MCG_WIN_START, 0),
			MCG_WIN_BASE_MAX_NS);
	KUNIT_EXPECT_EQ(test, mcg_win_inflight(MCG_WIN_START), 1);
	/* the estimate */
	KUNIT_EXPECT_EQ(test, mcg_win_queued(4 * one, ms, ms), 0U);
	KUNIT_EXPECT_EQ(test, mcg_win_queued(4 * one, 2 * ms, ms), 0U);
	KUNIT_EXPECT_EQ(test, mcg_win_queued(4 * one, ms, 4 * ms), 3 * one);
}

/*
 * Refusals: a cut to half at the round's end, once for what was sent
 * before it, even in a round without a success; the doubling ends; the
 * round trip before the cut bounds the growth after it, which is slower.
 */
static void win_refused_test(struct kunit *test)
{
	const u64 ms = NSEC_PER_MSEC, u = 2 * ms, step = 250 * ms;
	const u32 one = MCG_WIN_ONE, wmax = 64 * MCG_WIN_ONE;
	struct mcg_win c;
	unsigned int i;
	u64 now = 0;

	mcg_win_init(&c);
	mcg_win_sample(&c, u);
	KUNIT_ASSERT_TRUE(test, mcg_win_round(&c, now, wmax));
	KUNIT_EXPECT_EQ(test, c.w, 2 * MCG_WIN_START);
	KUNIT_EXPECT_TRUE(test, c.start);
	c.w = 8 * one;
	/* a refusal within the round: no cut before the round's end */
	mcg_win_sample(&c, 40 * ms);
	mcg_win_refused(&c, now + 1);
	KUNIT_EXPECT_FALSE(test, mcg_win_round(&c, now + 9 * ms, wmax));
	KUNIT_EXPECT_EQ(test, c.w, 8 * one);
	now += 50 * ms;
	KUNIT_ASSERT_TRUE(test, mcg_win_round(&c, now, wmax));
	KUNIT_EXPECT_EQ(test, c.w, 4 * one);
	KUNIT_EXPECT_FALSE(test, c.start);
	KUNIT_EXPECT_EQ(test, c.cut_ns, now);
	KUNIT_EXPECT_EQ(test, c.cuts, 1U);
	KUNIT_EXPECT_EQ(test, c.bound_ns, 40 * ms);
	KUNIT_EXPECT_EQ(test, c.round_end_ns, now + 40 * ms);
	/* refused, but sent before the cut (or at it): no second cut */
	mcg_win_refused(&c, now - ms);
	mcg_win_refused(&c, now);
	KUNIT_EXPECT_FALSE(test, c.refused);
	/* a round of refusals only ends too, as long as the last round */
	mcg_win_refused(&c, now + ms);
	KUNIT_EXPECT_FALSE(test, mcg_win_round(&c, now + 40 * ms - 1, wmax));
	now += 40 * ms;
	KUNIT_ASSERT_TRUE(test, mcg_win_round(&c, now, wmax));
	KUNIT_EXPECT_EQ(test, c.w, 2 * one);
	KUNIT_EXPECT_EQ(test, c.cuts, 2U);
	KUNIT_EXPECT_EQ(test, c.bound_ns, 40 * ms);
	/* a queue of half the bound or more: no growth... */
	c.w = one / 8;
	mcg_win_sample(&c, 20 * ms);
	now += step;
	KUNIT_ASSERT_TRUE(test, mcg_win_round(&c, now, wmax));
	KUNIT_EXPECT_EQ(test, c.w, one / 8);
	/* ... below it, a 16th of the window */
	mcg_win_sample(&c, 20 * ms - 1);
	now += step;
	KUNIT_ASSERT_TRUE(test, mcg_win_round(&c, now, wmax));
	KUNIT_EXPECT_EQ(test, c.w, one / 8 + one / 8 / MCG_WIN_CUT_DIV);
	/* at least one unit */
	c.w = MCG_WIN_MIN;
	mcg_win_sample(&c, u);
	now += step;
	KUNIT_ASSERT_TRUE(test, mcg_win_round(&c, now, wmax));
	KUNIT_EXPECT_EQ(test, c.w, MCG_WIN_MIN + 1);
	/* no queue, whatever the bound: MCG_WIN_CUT_STEP from one request */
	c.w = 2 * one;
	mcg_win_sample(&c, u);
	now += step;
	KUNIT_ASSERT_TRUE(test, mcg_win_round(&c, now, wmax));
	KUNIT_EXPECT_EQ(test, c.w, 2 * one + MCG_WIN_CUT_STEP);
	/* a long queue still shrinks it */
	c.w = 4 * one;
	mcg_win_sample(&c, 200 * ms);
	now += step;
	KUNIT_ASSERT_TRUE(test, mcg_win_round(&c, now, wmax));
	KUNIT_EXPECT_EQ(test, c.w, 3 * one);
	/* never below MCG_WIN_MIN */
	c.w = MCG_WIN_MIN;
	mcg_win_refused(&c, now + 1);
	now += step;
	KUNIT_ASSERT_TRUE(test, mcg_win_round(&c, now, wmax));
	KUNIT_EXPECT_EQ(test, c.w, MCG_WIN_MIN);
	KUNIT_EXPECT_EQ(test, c.quiet, 0U);
	/* MCG_WIN_CUT_QUIET rounds in a row without a queue: growth as before */
	c.w = one / 2;
	for (i = 1; i <= MCG_WIN_CUT_QUIET; i++) {
		u32 w = c.w;

		mcg_win_sample(&c, u);
		now += step;
		KUNIT_ASSERT_TRUE(test, mcg_win_round(&c, now, wmax));
		KUNIT_EXPECT_EQ(test, c.quiet, i);
		KUNIT_EXPECT_EQ(test, c.w, i < MCG_WIN_CUT_QUIET ?
				w + w / MCG_WIN_CUT_DIV : w + w / 4);
	}
	/* until the next queue */
	mcg_win_sample(&c, 200 * ms);
	now += step;
	KUNIT_ASSERT_TRUE(test, mcg_win_round(&c, now, wmax));
	KUNIT_EXPECT_EQ(test, c.quiet, 0U);
	/* a new wave forgets it all */
	mcg_win_init(&c);
	KUNIT_EXPECT_EQ(test, c.cut_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, c.bound_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, c.cuts, 0U);
	KUNIT_EXPECT_FALSE(test, c.refused);
	KUNIT_EXPECT_TRUE(test, c.start);
}

/*
 * A fleet of ports under the window law against one SA that answers R
 * requests per second in the order they come (a FIFO queue), plus a fixed
 * network round trip (WF_NET_NS, added after the SA's answer): what a
 * fabric-wide CLIENT_REREGISTER makes of an SA whose capacity nobody here
 * knows. Each port re-joins its groups, paced as the law says; the ports
 * start within 32 ms. Time goes in steps of a tenth of the SA's time per
 * request, 10 us at least.
 */
#define WF_PORTS	256
#define WF_NET_NS	(400 * NSEC_PER_USEC)
#define WF_QUEUE	4096
#define WF_RETRY	1024

struct wf_req {
	u8 port;
	bool busy;	/* answered BUSY (refused), at once */
	u64 sent;
	u64 due;	/* its answer's arrival at the port; a retry's time */
};

struct wf_port {
	struct mcg_win c;
	unsigned int left, inflight;
	u64 srtt, next, begin;
};

struct wf_fleet {
	struct wf_port p[WF_PORTS];
	struct wf_req q[WF_QUEUE];	/* at the SA, in order */
	struct wf_req a[WF_QUEUE];	/* answers on the way, in order */
	struct wf_req r[WF_RETRY];	/* refused, to be sent again */
	unsigned int qh, qn, ah, an, rh, rn;
	u64 qmax_ns;	/* the longest an answer waited in the SA's queue */
	unsigned int busy;
};

/*
 * The wave of @ports x @groups re-joins at @rate/s: its time, in ns. With
 * @busy_ns, the SA answers BUSY at once what would wait longer than that
 * in its queue, and the refused re-join is sent again a second later (the
 * module's backoff after a refusal: 0.5 to 1.5 s).
 */
static u64 wf_wave(struct kunit *test, struct wf_fleet *f, unsigned int ports,
		   unsigned int groups, unsigned int rate, u64 busy_ns)
{
	const u64 serve = div_u64(NSEC_PER_SEC, rate);
	const u64 step = max_t(u64, serve / 10, 10 * NSEC_PER_USEC);
	unsigned int i, done = 0, total = ports * groups;
	u64 now = 0, credit = 0;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < ports; i++) {
		mcg_win_init(&f->p[i].c);
		f->p[i].left = groups;
		f->p[i].begin = (u64)i * 32 * NSEC_PER_MSEC / ports;
	}
	while (done < total && now < 100ULL * NSEC_PER_SEC) {
		now += step;
		/* the SA answers at its rate, in order */
		credit = min(credit + step, serve);
		if (f->qn && credit >= serve) {
			struct wf_req r = f->q[f->qh];

			credit -= serve;
			f->qh = (f->qh + 1) % WF_QUEUE;
			f->qn--;
			f->qmax_ns = max(f->qmax_ns, now - r.sent);
			r.due = now + WF_NET_NS;	/* both ways */
			KUNIT_ASSERT_LT(test, f->an, WF_QUEUE);
			f->a[(f->ah + f->an++) % WF_QUEUE] = r;
		}
		/* answers reach their ports */
		while (f->an && f->a[f->ah].due <= now) {
			struct wf_req r = f->a[f->ah];
			struct wf_port *p = &f->p[r.port];

			f->ah = (f->ah + 1) % WF_QUEUE;
			f->an--;
			p->inflight--;
			if (r.busy) {
				mcg_win_refused(&p->c, r.sent);
				r.due = now + NSEC_PER_SEC;
				KUNIT_ASSERT_LT(test, f->rn, WF_RETRY);
				f->r[(f->rh + f->rn++) % WF_RETRY] = r;
				continue;
			}
			mcg_win_sample(&p->c, now - r.sent);
			p->srtt = mcg_srtt_update(p->srtt, now - r.sent);
			done++;
		}
		/* refused re-joins come back after their backoff, in order */
		while (f->rn && f->r[f->rh].due <= now) {
			f->p[f->r[f->rh].port].left++;
			f->rh = (f->rh + 1) % WF_RETRY;
			f->rn--;
		}
		/* each port: the law, then what its window and pace let go */
		for (i = 0; i < ports; i++) {
			struct wf_port *p = &f->p[i];

			if (now < p->begin)
				continue;
			mcg_win_round(&p->c, now, 64 * MCG_WIN_ONE);
			if (!p->left || now < p->next ||
			    p->inflight >= mcg_win_inflight(p->c.w))
				continue;
			p->left--;
			p->inflight++;
			p->next = now + mcg_win_pace_ns(&p->c, p->srtt);
			if (busy_ns && f->qn * serve > busy_ns) {
				f->busy++;
				KUNIT_ASSERT_LT(test, f->an, WF_QUEUE);
				f->a[(f->ah + f->an++) % WF_QUEUE] =
					(struct wf_req){ .port = i, .busy = true,
							 .sent = now,
							 .due = now + WF_NET_NS };
				continue;
			}
			KUNIT_ASSERT_LT(test, f->qn, WF_QUEUE);
			f->q[(f->qh + f->qn++) % WF_QUEUE] =
				(struct wf_req){ .port = i, .sent = now };
		}
	}
	KUNIT_EXPECT_EQ(test, done, total);
	return now;
}

static void win_fleet_test(struct kunit *test)
{
	static const struct { unsigned int ports, groups, rate; } w[] = {
		{ 16, 64, 500 }, { 16, 128, 2000 }, { 16, 512, 5000 },
		{ 16, 1024, 20000 }, { 128, 64, 500 }, { 256, 64, 5000 },
	};
	struct wf_fleet *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, f);
	for (i = 0; i < ARRAY_SIZE(w); i++) {
		u64 ideal = div_u64((u64)w[i].ports * w[i].groups * NSEC_PER_SEC,
				    w[i].rate);
		u64 t = wf_wave(test, f, w[i].ports, w[i].groups, w[i].rate, 0);

		kunit_info(test, "%u ports x %u groups at %u/s: %llu ms, total / R %llu ms, longest in the queue %llu ms\n",
			   w[i].ports, w[i].groups, w[i].rate,
			   div_u64(t, NSEC_PER_MSEC),
			   div_u64(ideal, NSEC_PER_MSEC),
			   div_u64(f->qmax_ns, NSEC_PER_MSEC));
		/* at the SA's pace, whatever it is */
		KUNIT_EXPECT_LE(test, t, ideal * 12 / 10);
		/* never so long in the SA's queue that ib_mad resends */
		KUNIT_EXPECT_LT(test, f->qmax_ns, 300 * NSEC_PER_MSEC);
	}
}

/*
 * The same fleet against an SA whose queue is bounded: what would wait
 * more than 50 ms is answered BUSY, which ib_sa reports as a refusal.
 * The windows cut at refusals and keep the queue below the bound they
 * learnt: BUSY answers stay a small share of the requests, at the SA's
 * pace. (Before the law read refusals, 64 ports x 256 groups drew 3.6
 * BUSY answers per re-join in the fleet bench, BENCH_FLEET_SA=busy.)
 */
static void win_busy_test(struct kunit *test)
{
	static const struct { unsigned int ports, groups, rate; } w[] = {
		{ 64, 256, 500 }, { 128, 128, 500 },
	};
	struct wf_fleet *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, f);
	for (i = 0; i < ARRAY_SIZE(w); i++) {
		unsigned int total = w[i].ports * w[i].groups;
		u64 ideal = div_u64((u64)total * NSEC_PER_SEC, w[i].rate);
		u64 t = wf_wave(test, f, w[i].ports, w[i].groups, w[i].rate,
				50 * NSEC_PER_MSEC);

		kunit_info(test, "%u ports x %u groups at %u/s, BUSY above 50 ms: %llu ms, total / R %llu ms, %u BUSY\n",
			   w[i].ports, w[i].groups, w[i].rate,
			   div_u64(t, NSEC_PER_MSEC),
			   div_u64(ideal, NSEC_PER_MSEC), f->busy);
		KUNIT_EXPECT_LE(test, t, ideal * 12 / 10);
		/* 128 ports starting within 32 ms, 25 requests' room */
		KUNIT_EXPECT_LE(test, f->busy, total * 5 / 100);
	}
}

static struct kunit_case mcg_pacing_cases[] = {
	KUNIT_CASE(pace_interval_test),
	KUNIT_CASE(tb_refill_test),
	KUNIT_CASE(tb_take_test),
	KUNIT_CASE(tb_rate_test),
	KUNIT_CASE(tb_paced_rate_test),
	KUNIT_CASE(inflight_test),
	KUNIT_CASE(srtt_test),
	KUNIT_CASE(rtt_is_sa_test),
	KUNIT_CASE(leave_limit_test),
	KUNIT_CASE(tb_wave_test),
	KUNIT_CASE(tb_user_test),
	KUNIT_CASE(user_limits_test),
	KUNIT_CASE(win_law_test),
	KUNIT_CASE(win_refused_test),
	KUNIT_CASE(win_fleet_test),
	KUNIT_CASE(win_busy_test),
	{}
};

struct kunit_suite mcg_pacing_suite = {
	.name = "mcg_pacing",
	.test_cases = mcg_pacing_cases,
};
