// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites of ib_mcgroups' pure logic (mcg_logic.h): join-state union
 * and lingering (group.c), join limits and rejoin checks, SA retry backoff
 * (backend_ib.c), MGID checks (backend_*.c) and request attribute
 * validation (netlink.c). The pacer's (pacer.h) are in pacer_kunit.c.
 *
 * The module compiles the same static inline functions as ib_mcgroups.ko
 * and needs neither it nor an RDMA device: modprobe ib_mcgroups_kunit runs
 * every suite once (results in dmesg and /sys/kernel/debug/kunit/).
 * selftests/debug/kunit.sh does that in the debug lane's VM.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "mcg_logic.h"
#include "pacer.h"
#include "suites.h"

/* ---- helpers --------------------------------------------------------------- */

static union ib_gid gid_v6(u16 a, u16 b, u16 c, u16 d, u16 e, u16 f, u16 g,
			   u16 h)
{
	const u16 w[8] = { a, b, c, d, e, f, g, h };
	union ib_gid gid;
	int i;

	for (i = 0; i < 8; i++) {
		gid.raw[2 * i] = w[i] >> 8;
		gid.raw[2 * i + 1] = w[i] & 0xff;
	}
	return gid;
}

/* ::ffff:a.b.c.d, as rdma_cm maps an IPv4 group for RoCE */
static union ib_gid gid_v4(u8 a, u8 b, u8 c, u8 d)
{
	return gid_v6(0, 0, 0, 0, 0, 0xffff, a << 8 | b, c << 8 | d);
}

/* A refusal must have told why: extack's message contains @substr. */
static void expect_msg(struct kunit *test, const struct netlink_ext_ack *ext,
		       const char *substr)
{
	KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(test, ext->_msg,
					 "no message, expected \"%s\"", substr);
	KUNIT_EXPECT_TRUE_MSG(test, strstr(ext->_msg, substr),
			      "message \"%s\" lacks \"%s\"", ext->_msg,
			      substr);
}

/* ---- suite mcg_group: union, want, linger, create parameters ------------- */

static void holders_union_test(struct kunit *test)
{
	static const u8 states[] = { IB_MCG_JOIN_NON_MEMBER,
				     IB_MCG_JOIN_NON_MEMBER,
				     IB_MCG_JOIN_SENDONLY_FULL,
				     IB_MCG_JOIN_FULL,
				     IB_MCG_JOIN_SENDONLY_NON_MEMBER };
	static const u8 expect[] = { 0x2, 0x2, 0xa, 0xb, 0xf };
	struct mcg_holder *h;
	LIST_HEAD(holders);
	int i;

	KUNIT_EXPECT_EQ(test, mcg_holders_union(&holders), 0);
	h = kunit_kcalloc(test, ARRAY_SIZE(states), sizeof(*h), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, h);
	for (i = 0; i < ARRAY_SIZE(states); i++) {
		h[i].join_state = states[i];
		list_add_tail(&h[i].node, &holders);
		KUNIT_EXPECT_EQ(test, mcg_holders_union(&holders), expect[i]);
	}
	/* A leave shrinks it to what the others hold, not below. */
	list_del(&h[3].node);	/* the only full member */
	KUNIT_EXPECT_EQ(test, mcg_holders_union(&holders), 0xe);
	list_del(&h[0].node);	/* one of two non-members */
	KUNIT_EXPECT_EQ(test, mcg_holders_union(&holders), 0xe);
	list_del(&h[1].node);
	KUNIT_EXPECT_EQ(test, mcg_holders_union(&holders), 0xc);
}

static void holders_create_union_test(struct kunit *test)
{
	static const struct { u8 js; bool create; u8 expect; } steps[] = {
		{ IB_MCG_JOIN_NON_MEMBER, false, 0x0 },	/* a plain joiner */
		{ IB_MCG_JOIN_FULL, true, 0x1 },	/* the creator */
		{ IB_MCG_JOIN_FULL, false, 0x1 },	/* full by MGID */
		{ IB_MCG_JOIN_SENDONLY_FULL, true, 0x9 },
	};
	struct mcg_holder *h;
	LIST_HEAD(holders);
	int i;

	KUNIT_EXPECT_EQ(test, mcg_holders_create_union(&holders), 0);
	h = kunit_kcalloc(test, ARRAY_SIZE(steps), sizeof(*h), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, h);
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		h[i].join_state = steps[i].js;
		h[i].create = steps[i].create;
		list_add_tail(&h[i].node, &holders);
		KUNIT_EXPECT_EQ(test, mcg_holders_create_union(&holders),
				steps[i].expect);
	}
	/* the creator leaves: the full member left joined by MGID only */
	list_del(&h[1].node);
	KUNIT_EXPECT_EQ(test, mcg_holders_create_union(&holders), 0x8);
	KUNIT_EXPECT_EQ(test, mcg_holders_union(&holders), 0xb);
	list_del(&h[3].node);
	KUNIT_EXPECT_EQ(test, mcg_holders_create_union(&holders), 0);
}

static void join_want_test(struct kunit *test)
{
	/* held groups: the union grows, a subset changes nothing */
	KUNIT_EXPECT_EQ(test, mcg_join_want(0, IB_MCG_JOIN_FULL, false), 0x1);
	KUNIT_EXPECT_EQ(test, mcg_join_want(0x1, IB_MCG_JOIN_NON_MEMBER, false),
			0x3);
	KUNIT_EXPECT_EQ(test, mcg_join_want(0x3, IB_MCG_JOIN_FULL, false), 0x3);
	KUNIT_EXPECT_EQ(test, mcg_join_want(0x9, IB_MCG_JOIN_SENDONLY_FULL,
					    false), 0x9);
	/* a lingering group is taken back with the joiner's state only */
	KUNIT_EXPECT_EQ(test, mcg_join_want(0x3, IB_MCG_JOIN_SENDONLY_FULL,
					    true), 0x8);
	KUNIT_EXPECT_EQ(test, mcg_join_want(0x1, IB_MCG_JOIN_FULL, true), 0x1);
}

static void settle_lingers_test(struct kunit *test)
{
	const u8 leave = IB_MCG_REASON_LEAVE;

	/* holders gone of their own accord, whatever the link's state */
	KUNIT_EXPECT_TRUE(test, mcg_settle_lingers(1, false, leave, true));
	KUNIT_EXPECT_TRUE(test, mcg_settle_lingers(IB_MCG_LINGER_MAX_MS, false,
						   IB_MCG_REASON_SOCKET_CLOSED,
						   true));
	KUNIT_EXPECT_TRUE(test, mcg_settle_lingers(500, false,
						   IB_MCG_REASON_OWNER_RELEASE,
						   true));
	/* no linger time, already lingering, or not a holder's choice */
	KUNIT_EXPECT_FALSE(test, mcg_settle_lingers(0, false, leave, true));
	KUNIT_EXPECT_FALSE(test, mcg_settle_lingers(500, true, leave, true));
	KUNIT_EXPECT_FALSE(test, mcg_settle_lingers(500, false,
						    IB_MCG_REASON_UNLOAD,
						    true));
	KUNIT_EXPECT_FALSE(test, mcg_settle_lingers(500, false,
						    IB_MCG_REASON_DEVICE_REMOVED,
						    true));
	KUNIT_EXPECT_FALSE(test, mcg_settle_lingers(500, false,
						    IB_MCG_REASON_LINGER_EXPIRED,
						    true));
	KUNIT_EXPECT_FALSE(test, mcg_settle_lingers(500, false,
						    IB_MCG_REASON_SA_REJECTED,
						    true));
	/* a group without its SA-assigned MGID can never be taken back */
	KUNIT_EXPECT_FALSE(test, mcg_settle_lingers(500, false, leave, false));
	KUNIT_EXPECT_FALSE(test, mcg_settle_lingers(500, false,
						    IB_MCG_REASON_OWNER_RELEASE,
						    false));
}

static void create_matches_test(struct kunit *test)
{
	struct mcg_rec r = {
		.valid = true, .pkey = 0xffff, .sl = 3, .tclass = 8,
		.flow_label = 0x12345, .mtu = IB_MTU_2048, .rate = 7,
		.hop_limit = 16,
	};
	struct mcg_create c = {
		.create = true, .pkey = 0xffff, .sl = 3, .tclass = 8,
		.flow_label = 0x12345,
	};

	/* a join by MGID only, or a group without a record yet */
	KUNIT_EXPECT_TRUE(test, mcg_create_matches(&r, &(struct mcg_create){}));
	r.valid = false;
	KUNIT_EXPECT_TRUE(test, mcg_create_matches(&r, &(struct mcg_create){
		.create = true, .pkey = 0x8001 }));
	r.valid = true;
	/* same parameters; MTU, rate, hop limit unset match anything */
	KUNIT_EXPECT_TRUE(test, mcg_create_matches(&r, &c));
	c.has = MCG_HAS_MTU | MCG_HAS_RATE | MCG_HAS_HOP;
	c.mtu = IB_MTU_2048;
	c.rate = 7;
	c.hop_limit = 16;
	KUNIT_EXPECT_TRUE(test, mcg_create_matches(&r, &c));
	c.mtu = IB_MTU_4096;
	KUNIT_EXPECT_FALSE(test, mcg_create_matches(&r, &c));
	c.has &= ~MCG_HAS_MTU;
	KUNIT_EXPECT_TRUE(test, mcg_create_matches(&r, &c));
	c.hop_limit = 15;
	KUNIT_EXPECT_FALSE(test, mcg_create_matches(&r, &c));
	c.hop_limit = 16;
	c.flow_label = 0x12344;
	KUNIT_EXPECT_FALSE(test, mcg_create_matches(&r, &c));
	c.flow_label = 0x12345;
	c.pkey = 0x7fff;
	KUNIT_EXPECT_FALSE(test, mcg_create_matches(&r, &c));
	c.pkey = 0xffff;
	c.sl = 0;
	KUNIT_EXPECT_FALSE(test, mcg_create_matches(&r, &c));
}

static struct kunit_case mcg_group_cases[] = {
	KUNIT_CASE(holders_union_test),
	KUNIT_CASE(holders_create_union_test),
	KUNIT_CASE(join_want_test),
	KUNIT_CASE(settle_lingers_test),
	KUNIT_CASE(create_matches_test),
	{}
};

static struct kunit_suite mcg_group_suite = {
	.name = "mcg_group",
	.test_cases = mcg_group_cases,
};

/* ---- suite mcg_join_checks: limits, rejoin ---------------------------------- */

static void join_limits_test(struct kunit *test)
{
	struct netlink_ext_ack ext = {};

	/* 0 is no limit */
	KUNIT_EXPECT_EQ(test, mcg_join_limits(true, 100000, 0, 100000, 0, &ext),
			0);
	KUNIT_EXPECT_NULL(test, ext._msg);
	/* the port's budget: only a new group counts */
	KUNIT_EXPECT_EQ(test, mcg_join_limits(true, 9, 10, 0, 0, &ext), 0);
	KUNIT_EXPECT_EQ(test, mcg_join_limits(false, 10, 10, 0, 0, &ext), 0);
	KUNIT_EXPECT_EQ(test, mcg_join_limits(false, 11, 10, 0, 0, &ext), 0);
	KUNIT_EXPECT_NULL(test, ext._msg);
	KUNIT_EXPECT_EQ(test, mcg_join_limits(true, 10, 10, 0, 0, &ext),
			-ENOSPC);
	expect_msg(test, &ext, "max_groups");
	ext._msg = NULL;
	KUNIT_EXPECT_EQ(test, mcg_join_limits(true, 1, 1, 0, 0, NULL), -ENOSPC);
	/* the owner's holds, on existing groups too */
	KUNIT_EXPECT_EQ(test, mcg_join_limits(false, 0, 0, 4, 5, &ext), 0);
	KUNIT_EXPECT_EQ(test, mcg_join_limits(false, 0, 0, 5, 5, &ext),
			-ENOSPC);
	expect_msg(test, &ext, "max_owner_holds");
	ext._msg = NULL;
	KUNIT_EXPECT_EQ(test, mcg_join_limits(true, 3, 4, 1, 1, &ext), -ENOSPC);
	expect_msg(test, &ext, "max_owner_holds");
}

/* user_max_holds: 0 refuses every user (EPERM), else a cap (ENOSPC). */
static void user_limit_test(struct kunit *test)
{
	struct netlink_ext_ack ext = {};

	KUNIT_EXPECT_EQ(test, mcg_user_limit(0, 64, &ext), 0);
	KUNIT_EXPECT_EQ(test, mcg_user_limit(63, 64, &ext), 0);
	KUNIT_EXPECT_NULL(test, ext._msg);
	KUNIT_EXPECT_EQ(test, mcg_user_limit(64, 64, &ext), -ENOSPC);
	expect_msg(test, &ext, "user_max_holds");
	ext._msg = NULL;
	KUNIT_EXPECT_EQ(test, mcg_user_limit(100, 1, &ext), -ENOSPC);
	ext._msg = NULL;
	KUNIT_EXPECT_EQ(test, mcg_user_limit(0, 0, &ext), -EPERM);
	expect_msg(test, &ext, "user_max_holds is 0");
	KUNIT_EXPECT_EQ(test, mcg_user_limit(0, 0, NULL), -EPERM);
}

/*
 * A user namespace's owner is charged for its users' holds: the owner of
 * the outermost namespace below the initial one, unless that is root.
 */
static void charge_uid_test(struct kunit *test)
{
	static struct user_namespace outer, inner, by_root;
	kuid_t u = KUIDT_INIT(100005);

	outer.parent = &init_user_ns;
	outer.owner = KUIDT_INIT(1000);
	inner.parent = &outer;
	inner.owner = KUIDT_INIT(100007);
	by_root.parent = &init_user_ns;
	by_root.owner = GLOBAL_ROOT_UID;
	KUNIT_EXPECT_EQ(test, __kuid_val(mcg_charge_uid(&init_user_ns, u)),
			100005u);
	KUNIT_EXPECT_EQ(test, __kuid_val(mcg_charge_uid(&outer, u)), 1000u);
	KUNIT_EXPECT_EQ(test, __kuid_val(mcg_charge_uid(&inner, u)), 1000u);
	KUNIT_EXPECT_EQ(test, __kuid_val(mcg_charge_uid(&by_root, u)),
			100005u);
}

/* The namespace owner's share and the total of all users. */
static void user_limits_more_test(struct kunit *test)
{
	struct netlink_ext_ack ext = {};

	KUNIT_EXPECT_EQ(test, mcg_user_limits_more(false, 64, 0, 64, 10, &ext),
			0);
	KUNIT_EXPECT_EQ(test, mcg_user_limits_more(true, 63, 9, 64, 10, &ext),
			0);
	KUNIT_EXPECT_NULL(test, ext._msg);
	KUNIT_EXPECT_EQ(test, mcg_user_limits_more(true, 64, 0, 64, 10, &ext),
			-ENOSPC);
	expect_msg(test, &ext, "owner of the user namespace");
	ext._msg = NULL;
	KUNIT_EXPECT_EQ(test, mcg_user_limits_more(false, 0, 10, 64, 10, &ext),
			-ENOSPC);
	expect_msg(test, &ext, "user_max_holds_total");
	ext._msg = NULL;
	KUNIT_EXPECT_EQ(test, mcg_user_limits_more(false, 0, 0, 64, 0, NULL),
			-ENOSPC);
}

static void rejoin_check_test(struct kunit *test)
{
	/* netns pointers and socket tokens are only compared */
	static int net_a, net_b, sk_a, sk_b;
	struct mcg_bound b = { .sock = { .net = (const struct net *)&net_a,
					 .portid = 42, .token = &sk_a } };
	struct mcg_holder h = { .flags = 0 };
	struct mcg_join_req req = { .flags = 0 };
	struct netlink_ext_ack ext = {};

	/* unbound again: idempotent */
	KUNIT_EXPECT_EQ(test, mcg_rejoin_check(&h, &req, &ext), 0);
	KUNIT_EXPECT_NULL(test, ext._msg);
	/* unbound hold, bound request and the reverse */
	req.flags = IB_MCG_F_BOUND;
	KUNIT_EXPECT_EQ(test, mcg_rejoin_check(&h, &req, &ext), -EBUSY);
	expect_msg(test, &ext, "unbound hold");
	ext._msg = NULL;
	h.flags = IB_MCG_F_BOUND;
	h.bound = &b;	/* the socket (net_a, 42) */
	req.flags = 0;
	KUNIT_EXPECT_EQ(test, mcg_rejoin_check(&h, &req, &ext), -EBUSY);
	expect_msg(test, &ext, "a bound hold");
	ext._msg = NULL;
	/* bound: the same socket only */
	req.flags = IB_MCG_F_BOUND;
	req.nl_sock.portid = 42;
	req.nl_sock.net = (const struct net *)&net_a;
	req.nl_sock.token = &sk_a;
	KUNIT_EXPECT_EQ(test, mcg_rejoin_check(&h, &req, &ext), 0);
	KUNIT_EXPECT_NULL(test, ext._msg);
	req.nl_sock.portid = 43;
	KUNIT_EXPECT_EQ(test, mcg_rejoin_check(&h, &req, &ext), -EBUSY);
	expect_msg(test, &ext, "another socket");
	req.nl_sock.portid = 42;
	req.nl_sock.net = (const struct net *)&net_b;
	KUNIT_EXPECT_EQ(test, mcg_rejoin_check(&h, &req, NULL), -EBUSY);
	/* a new socket that got the old one's portid is another socket */
	req.nl_sock.net = (const struct net *)&net_a;
	req.nl_sock.token = &sk_b;
	KUNIT_EXPECT_EQ(test, mcg_rejoin_check(&h, &req, NULL), -EBUSY);
	req.nl_sock.token = &sk_a;
	/* flags other than BOUND do not matter */
	req.flags = IB_MCG_F_BOUND | BIT(7);
	KUNIT_EXPECT_EQ(test, mcg_rejoin_check(&h, &req, NULL), 0);
}

static struct kunit_case mcg_join_checks_cases[] = {
	KUNIT_CASE(join_limits_test),
	KUNIT_CASE(user_limit_test),
	KUNIT_CASE(rejoin_check_test),
	{}
};

static struct kunit_suite mcg_join_checks_suite = {
	.name = "mcg_join_checks",
	.test_cases = mcg_join_checks_cases,
};

/* ---- suite mcg_backoff: retry delays, settle time ----------------------- */

/* The delay before jitter for the defaults (1000 ms base, 60 s cap). */
static void backoff_doubling_test(struct kunit *test)
{
	static const unsigned int d[] = { 1000, 1000, 2000, 4000, 8000, 16000,
					  32000, 60000, 60000 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(d); i++) {
		/* rnd 0: the lowest, d/2; rnd d: the highest, d + d/2 */
		KUNIT_EXPECT_EQ_MSG(test, mcg_backoff_ms(i, 1000, 60000, 0),
				    d[i] / 2, "failures %u", i);
		KUNIT_EXPECT_EQ_MSG(test, mcg_backoff_ms(i, 1000, 60000, d[i]),
				    d[i] + d[i] / 2, "failures %u", i);
	}
	/* capped for good: no overflow after many failures */
	KUNIT_EXPECT_EQ(test, mcg_backoff_ms(1000, 1000, 60000, 0), 30000);
	KUNIT_EXPECT_EQ(test, mcg_backoff_ms(UINT_MAX, 1000, 60000, 60000),
			90000);
	/* a base above the cap is capped */
	KUNIT_EXPECT_EQ(test, mcg_backoff_ms(1, 5000, 1000, 0), 500);
	/* a cap that is not a power-of-two multiple of the base */
	KUNIT_EXPECT_EQ(test, mcg_backoff_ms(3, 300, 1000, 0), 500);
	KUNIT_EXPECT_EQ(test, mcg_backoff_ms(4, 300, 1000, 0), 500);
}

/* Any random value gives d/2 .. d + d/2. */
static void backoff_jitter_test(struct kunit *test)
{
	u32 rnd = 0x12345678;
	unsigned int i, v, lo = UINT_MAX, hi = 0;

	for (i = 0; i < 10000; i++) {
		rnd = rnd * 1664525 + 1013904223;	/* any sequence will do */
		v = mcg_backoff_ms(3, 1000, 60000, rnd);
		KUNIT_ASSERT_GE(test, v, 2000U);
		KUNIT_ASSERT_LE(test, v, 6000U);
		lo = min(lo, v);
		hi = max(hi, v);
	}
	/* and spreads over that range (the whole of it, in 10000 draws) */
	KUNIT_EXPECT_LT(test, lo, 2100U);
	KUNIT_EXPECT_GT(test, hi, 5900U);
	/* the remainder is taken modulo d + 1 */
	KUNIT_EXPECT_EQ(test, mcg_backoff_ms(1, 1000, 60000, 1001), 500U);
	KUNIT_EXPECT_EQ(test, mcg_backoff_ms(1, 1000, 60000, 1002), 501U);
}

static void backoff_edges_test(struct kunit *test)
{
	unsigned int v;

	/* never 0, whatever the parameters and the draw */
	KUNIT_EXPECT_EQ(test, mcg_backoff_ms(1, 0, 60000, 0), 1U);
	KUNIT_EXPECT_EQ(test, mcg_backoff_ms(1, 1, 60000, 0), 1U);
	KUNIT_EXPECT_EQ(test, mcg_backoff_ms(1, 1, 60000, 1), 1U);
	KUNIT_EXPECT_EQ(test, mcg_backoff_ms(1, 1000, 0, 0), 1U);
	KUNIT_EXPECT_EQ(test, mcg_backoff_ms(0, 0, 0, U32_MAX), 1U);
	/* base 0 still doubles from 1 ms: max 0 and 1 count the same */
	KUNIT_EXPECT_EQ(test, mcg_backoff_ms(5, 0, 1, 1), 1U);
	KUNIT_EXPECT_EQ(test, mcg_backoff_ms(5, 0, 0, 1), 1U);
	/*
	 * Parameters near UINT_MAX: no overflow of the doubling or of d + 1
	 * (which divided by zero before), and the result saturates.
	 */
	v = mcg_backoff_ms(1, UINT_MAX, UINT_MAX, 0);
	KUNIT_EXPECT_EQ(test, v, UINT_MAX / 2);
	v = mcg_backoff_ms(1, UINT_MAX, UINT_MAX, U32_MAX);
	KUNIT_EXPECT_EQ(test, v, UINT_MAX);
	v = mcg_backoff_ms(40, 0x80000001U, UINT_MAX, 0);
	KUNIT_EXPECT_EQ(test, v, UINT_MAX / 2);
}

static void settle_delay_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mcg_settle_delay_ms(3000, 0), 3000U);
	KUNIT_EXPECT_EQ(test, mcg_settle_delay_ms(3000, 1500), 4500U);
	KUNIT_EXPECT_EQ(test, mcg_settle_delay_ms(3000, 1501), 3000U);
	KUNIT_EXPECT_EQ(test, mcg_settle_delay_ms(3000, U32_MAX),
			3000U + U32_MAX % 1501);
	KUNIT_EXPECT_EQ(test, mcg_settle_delay_ms(0, U32_MAX), 0U);
	KUNIT_EXPECT_EQ(test, mcg_settle_delay_ms(1, U32_MAX), 1U);
}

/*
 * The settle time ends once, whatever the jiffies do afterwards: a settle
 * time set long ago is not "in the future" again after a wrap.
 */
static void settling_test(struct kunit *test)
{
	/* 32-bit jiffies start 5 minutes before the wrap (INITIAL_JIFFIES) */
	unsigned long boot = (unsigned long)(unsigned int)(-300 * HZ);
	unsigned long until = boot + 3 * HZ, half = ULONG_MAX / 2;
	bool settling = false;

	/* never set: not settling, even where until would look ahead */
	KUNIT_EXPECT_FALSE(test, mcg_settling(&settling, 0, 0));
	KUNIT_EXPECT_FALSE(test, mcg_settling(&settling, until, boot));
	settling = true;
	KUNIT_EXPECT_TRUE(test, mcg_settling(&settling, until, boot));
	KUNIT_EXPECT_TRUE(test, mcg_settling(&settling, until, until - 1));
	KUNIT_EXPECT_TRUE(test, settling);
	KUNIT_EXPECT_FALSE(test, mcg_settling(&settling, until, until));
	KUNIT_EXPECT_FALSE(test, settling);
	/* half a jiffies range later time_before() says "ahead" again ... */
	KUNIT_EXPECT_TRUE(test, time_before(until + half + 2, until));
	/* ... but the settle time is over for good */
	KUNIT_EXPECT_FALSE(test, mcg_settling(&settling, until,
					      until + half + 2));
	KUNIT_EXPECT_FALSE(test, mcg_settling(&settling, until, until - 1));
	/* a settle time across the wrap */
	settling = true;
	until = 5;
	KUNIT_EXPECT_TRUE(test, mcg_settling(&settling, until, ULONG_MAX - 5));
	KUNIT_EXPECT_FALSE(test, mcg_settling(&settling, until, 6));
}

/* A loss report no event explains holds joins until one is heard, or 10 s */
static void unheard_test(struct kunit *test)
{
	const u64 ms = NSEC_PER_MSEC, limit = 10000 * ms, t = 5000 * ms;

	/* nothing reported, or heard before anything was */
	KUNIT_EXPECT_EQ(test, mcg_unheard_left_ns(0, 0, t, limit), 0);
	KUNIT_EXPECT_EQ(test, mcg_unheard_left_ns(t, 0, t, limit), 0);
	/* reported at t, nothing heard since: the rest of the 10 s */
	KUNIT_EXPECT_EQ(test, mcg_unheard_left_ns(0, t, t, limit), limit);
	KUNIT_EXPECT_EQ(test, mcg_unheard_left_ns(t - ms, t, t + 4000 * ms,
						  limit), 6000 * ms);
	KUNIT_EXPECT_EQ(test, mcg_unheard_left_ns(0, t, t + limit - 1, limit),
			1);
	/* over at 10 s, and stays over */
	KUNIT_EXPECT_EQ(test, mcg_unheard_left_ns(0, t, t + limit, limit), 0);
	KUNIT_EXPECT_EQ(test, mcg_unheard_left_ns(0, t, U64_MAX, limit), 0);
	/* an event heard at or after the report ends it */
	KUNIT_EXPECT_EQ(test, mcg_unheard_left_ns(t, t, t + ms, limit), 0);
	KUNIT_EXPECT_EQ(test, mcg_unheard_left_ns(t + ms, t, t + 2 * ms,
						  limit), 0);
}

static void loss_explained_test(struct kunit *test)
{
	const u64 ms = NSEC_PER_MSEC, limit = 10000 * ms, t = 5000 * ms;
	u32 seq;

	/* nothing heard yet: charged to the first event, which it waits for */
	seq = 0;
	KUNIT_EXPECT_FALSE(test, mcg_loss_explained(0, 0, &seq, t, limit));
	KUNIT_EXPECT_EQ(test, seq, 1);
	/* joined before event 3, heard 1 s ago: explained, charged to it */
	seq = 2;
	KUNIT_EXPECT_TRUE(test, mcg_loss_explained(t, 3, &seq, t + 1000 * ms,
						   limit));
	KUNIT_EXPECT_EQ(test, seq, 3);
	/* reported again: a second event's report, not heard yet */
	KUNIT_EXPECT_FALSE(test, mcg_loss_explained(t, 3, &seq, t + 1400 * ms,
						    limit));
	KUNIT_EXPECT_EQ(test, seq, 4);
	/* ... which, once heard, explains no further report of it */
	KUNIT_EXPECT_FALSE(test, mcg_loss_explained(t + 1500 * ms, 4, &seq,
						    t + 1600 * ms, limit));
	KUNIT_EXPECT_EQ(test, seq, 5);
	/* joined after event 3 was heard (issue() charged it 3) */
	seq = 3;
	KUNIT_EXPECT_FALSE(test, mcg_loss_explained(t, 3, &seq, t + ms, limit));
	KUNIT_EXPECT_EQ(test, seq, 4);
	/* heard 10 s ago or more: it explains nothing any more */
	seq = 2;
	KUNIT_EXPECT_TRUE(test, mcg_loss_explained(t, 3, &seq,
						   t + limit - 1, limit));
	seq = 2;
	KUNIT_EXPECT_FALSE(test, mcg_loss_explained(t, 3, &seq, t + limit,
						    limit));
	KUNIT_EXPECT_EQ(test, seq, 4);
	/* the count wraps: still one event each */
	seq = U32_MAX;
	KUNIT_EXPECT_TRUE(test, mcg_loss_explained(t, 0, &seq, t + ms, limit));
	KUNIT_EXPECT_EQ(test, seq, 0);
	seq = U32_MAX;
	KUNIT_EXPECT_FALSE(test, mcg_loss_explained(t, U32_MAX, &seq, t + ms,
						    limit));
	KUNIT_EXPECT_EQ(test, seq, 0);
}

static struct kunit_case mcg_backoff_cases[] = {
	KUNIT_CASE(backoff_doubling_test),
	KUNIT_CASE(backoff_jitter_test),
	KUNIT_CASE(backoff_edges_test),
	KUNIT_CASE(settle_delay_test),
	KUNIT_CASE(settling_test),
	KUNIT_CASE(unheard_test),
	KUNIT_CASE(loss_explained_test),
	{}
};

static struct kunit_suite mcg_backoff_suite = {
	.name = "mcg_backoff",
	.test_cases = mcg_backoff_cases,
};

/* ---- suite mcg_ib_states: failed joins, make before break ------------------ */

static void ib_failure_test(struct kunit *test)
{
	const u8 full = IB_MCG_JOIN_FULL, sfull = IB_MCG_JOIN_SENDONLY_FULL;

	/* a lost membership is always joined again */
	KUNIT_EXPECT_EQ(test, mcg_ib_failure(-ENETRESET, full, 0, false),
			MCG_IB_RETRY);
	KUNIT_EXPECT_EQ(test, mcg_ib_failure(-ENETRESET, full, 0, true),
			MCG_IB_RETRY);
	/* a group waiting for its SA-assigned MGID: any other failure */
	KUNIT_EXPECT_EQ(test, mcg_ib_failure(-EINVAL, full, 0, true),
			MCG_IB_ABANDON);
	KUNIT_EXPECT_EQ(test, mcg_ib_failure(-ETIMEDOUT, full, 0, true),
			MCG_IB_ABANDON);
	/* refused the first time: that join state only, held or not */
	KUNIT_EXPECT_EQ(test, mcg_ib_failure(-EINVAL, full, 0, false),
			MCG_IB_REFUSE);
	KUNIT_EXPECT_EQ(test, mcg_ib_failure(-EINVAL, sfull, full, false),
			MCG_IB_REFUSE);
	/* refused after the SA gave it once (a failover): retried */
	KUNIT_EXPECT_EQ(test, mcg_ib_failure(-EINVAL, sfull, sfull | full,
					     false), MCG_IB_RETRY);
	/* not answered, or a local error: retried */
	KUNIT_EXPECT_EQ(test, mcg_ib_failure(-ETIMEDOUT, full, 0, false),
			MCG_IB_RETRY);
	KUNIT_EXPECT_EQ(test, mcg_ib_failure(-ENOMEM, sfull, full, false),
			MCG_IB_RETRY);
}

static void ib_eagain_test(struct kunit *test)
{
	unsigned int tries, total = 0;

	/* not one yet: nothing to wait for */
	KUNIT_EXPECT_EQ(test, mcg_ib_eagain_delay_ms(0), 0U);
	/* short, doubling */
	KUNIT_EXPECT_EQ(test, mcg_ib_eagain_delay_ms(1), 16U);
	KUNIT_EXPECT_EQ(test, mcg_ib_eagain_delay_ms(2), 32U);
	for (tries = 1; mcg_ib_eagain_delay_ms(tries); tries++)
		total += mcg_ib_eagain_delay_ms(tries);
	/* a few tries, about a second in all */
	KUNIT_EXPECT_EQ(test, tries - 1, (unsigned int)MCG_IB_EAGAIN_TRIES);
	KUNIT_EXPECT_GE(test, total, 800U);
	KUNIT_EXPECT_LE(test, total, 1500U);
	/* then done for good: the caller's count may go on */
	KUNIT_EXPECT_EQ(test, mcg_ib_eagain_delay_ms(MCG_IB_EAGAIN_TRIES + 1), 0U);
	KUNIT_EXPECT_EQ(test, mcg_ib_eagain_delay_ms(UINT_MAX), 0U);
}

static void ib_keep_stale_test(struct kunit *test)
{
	/* taken back send-only full: the held full member stays for now */
	KUNIT_EXPECT_TRUE(test, mcg_ib_keep_stale(0x8, 0x8, 0, 0x1, true));
	/* and while that is asked for, whatever else changes */
	KUNIT_EXPECT_TRUE(test, mcg_ib_keep_stale(0x8, 0, 0x1, 0x1, true));
	KUNIT_EXPECT_TRUE(test, mcg_ib_keep_stale(0x2, 0x2, 0x1, 0x1, true));
	/* a membership still being asked for is not worth keeping */
	KUNIT_EXPECT_FALSE(test, mcg_ib_keep_stale(0x8, 0x8, 0, 0x1, false));
	/* a shrink without new bits frees at once */
	KUNIT_EXPECT_FALSE(test, mcg_ib_keep_stale(0x1, 0, 0, 0x8, true));
	/* a release keeps nothing */
	KUNIT_EXPECT_FALSE(test, mcg_ib_keep_stale(0, 0, 0x1, 0x1, true));
	/* a bit that is wanted is not stale */
	KUNIT_EXPECT_FALSE(test, mcg_ib_keep_stale(0x9, 0x8, 0x1, 0x1, true));
}

static void ib_group_gone_test(struct kunit *test)
{
	/* a non-member, or a full member by MGID only: bounded */
	KUNIT_EXPECT_FALSE(test, mcg_ib_group_gone(9, 10, 0x2, 0));
	KUNIT_EXPECT_TRUE(test, mcg_ib_group_gone(10, 10, 0x2, 0));
	KUNIT_EXPECT_TRUE(test, mcg_ib_group_gone(11, 10, 0x1, 0));
	/* a creator's non-member bit cannot create it either */
	KUNIT_EXPECT_TRUE(test, mcg_ib_group_gone(10, 10, 0x3, 0x2));
	/* a creator's full member here: retried for as long as held */
	KUNIT_EXPECT_FALSE(test, mcg_ib_group_gone(100, 10, 0x3, 0x1));
	KUNIT_EXPECT_FALSE(test, mcg_ib_group_gone(100, 10, 0x8, 0x8));
	/* 0: no bound */
	KUNIT_EXPECT_FALSE(test, mcg_ib_group_gone(UINT_MAX, 0, 0x2, 0));
}

static struct kunit_case mcg_ib_states_cases[] = {
	KUNIT_CASE(ib_failure_test),
	KUNIT_CASE(ib_group_gone_test),
	KUNIT_CASE(ib_keep_stale_test),
	KUNIT_CASE(ib_eagain_test),
	{}
};

static struct kunit_suite mcg_ib_states_suite = {
	.name = "mcg_ib_states",
	.test_cases = mcg_ib_states_cases,
};

/* ---- suite mcg_mgid: IPv4/IPv6 mapping, multicast checks ------------------ */

static void mgid_mapping_test(struct kunit *test)
{
	union ib_gid g = gid_v4(239, 1, 2, 3), z = {};

	KUNIT_EXPECT_TRUE(test, mcg_mgid_is_v4mapped(&g));
	KUNIT_EXPECT_EQ(test, be32_to_cpu(mcg_mgid_to_ipv4(&g)), 0xef010203U);
	KUNIT_EXPECT_EQ(test, g.raw[10], 0xff);
	KUNIT_EXPECT_EQ(test, g.raw[12], 239);
	KUNIT_EXPECT_TRUE(test, mcg_mgid_is_zero(&z));
	KUNIT_EXPECT_FALSE(test, mcg_mgid_is_zero(&g));
	z.raw[15] = 1;
	KUNIT_EXPECT_FALSE(test, mcg_mgid_is_zero(&z));
	/* IPv4-compatible (::a.b.c.d) and ::fffe:... are not mapped */
	g = gid_v6(0, 0, 0, 0, 0, 0, 0xef01, 0x0203);
	KUNIT_EXPECT_FALSE(test, mcg_mgid_is_v4mapped(&g));
	g = gid_v6(0, 0, 0, 0, 0, 0xfffe, 0xef01, 0x0203);
	KUNIT_EXPECT_FALSE(test, mcg_mgid_is_v4mapped(&g));
	/* nor is an IPoIB MGID carrying the same bytes */
	g = gid_v6(0xff12, 0x401b, 0xffff, 0, 0, 0xffff, 0xef01, 0x0203);
	KUNIT_EXPECT_FALSE(test, mcg_mgid_is_v4mapped(&g));
	/* scope: node- and link-local pick a link-local source GID */
	g = gid_v6(0xff02, 0, 0, 0, 0, 0, 0, 1);
	KUNIT_EXPECT_TRUE(test, mcg_mgid_scope_linklocal(&g));
	g = gid_v6(0xff12, 0x401b, 0xffff, 0, 0, 0, 0, 1);
	KUNIT_EXPECT_TRUE(test, mcg_mgid_scope_linklocal(&g));
	g = gid_v6(0xff01, 0, 0, 0, 0, 0, 0, 1);
	KUNIT_EXPECT_TRUE(test, mcg_mgid_scope_linklocal(&g));
	g = gid_v6(0xff05, 0, 0, 0, 0, 0, 0, 1);
	KUNIT_EXPECT_FALSE(test, mcg_mgid_scope_linklocal(&g));
	g = gid_v6(0xff3e, 0, 0, 0, 0, 0, 0, 1);
	KUNIT_EXPECT_FALSE(test, mcg_mgid_scope_linklocal(&g));
}

static void roce_check_v4_test(struct kunit *test)
{
	static const u8 good[][4] = {
		{ 224, 0, 0, 0 }, { 224, 0, 0, 1 }, { 232, 1, 1, 1 },
		{ 239, 255, 255, 255 },
	};
	static const u8 bad[][4] = {
		{ 0, 0, 0, 0 }, { 10, 0, 0, 1 }, { 223, 255, 255, 255 },
		{ 240, 0, 0, 0 }, { 255, 255, 255, 255 },
	};
	struct netlink_ext_ack ext = {};
	union ib_gid g;
	int i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		g = gid_v4(good[i][0], good[i][1], good[i][2], good[i][3]);
		KUNIT_EXPECT_EQ_MSG(test, mcg_roce_check_mgid(&g, false, &ext),
				    0, "%pI4", good[i]);
	}
	KUNIT_EXPECT_NULL(test, ext._msg);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ext._msg = NULL;
		g = gid_v4(bad[i][0], bad[i][1], bad[i][2], bad[i][3]);
		KUNIT_EXPECT_EQ_MSG(test, mcg_roce_check_mgid(&g, false, &ext),
				    -EINVAL, "%pI4", bad[i]);
		expect_msg(test, &ext, "224.0.0.0/4");
	}
}

static void roce_check_v6_test(struct kunit *test)
{
	struct netlink_ext_ack ext = {};
	union ib_gid g, z = {};

	g = gid_v6(0xff02, 0, 0, 0, 0, 0, 0, 1);
	KUNIT_EXPECT_EQ(test, mcg_roce_check_mgid(&g, false, &ext), 0);
	g = gid_v6(0xff0e, 0, 0, 0, 0, 0, 0xdb8, 1);
	KUNIT_EXPECT_EQ(test, mcg_roce_check_mgid(&g, false, &ext), 0);
	KUNIT_EXPECT_NULL(test, ext._msg);
	/* unicast, link-local unicast, the all-zero MGID */
	g = gid_v6(0xfe80, 0, 0, 0, 0x0200, 0x5eff, 0xfe00, 0x0001);
	KUNIT_EXPECT_EQ(test, mcg_roce_check_mgid(&g, false, &ext), -EINVAL);
	expect_msg(test, &ext, "must start with 0xff");
	g = gid_v6(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1);
	KUNIT_EXPECT_EQ(test, mcg_roce_check_mgid(&g, false, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, mcg_roce_check_mgid(&z, false, NULL), -EINVAL);
	/* no SA: a create (parameters or SA-assigned MGID) is refused */
	ext._msg = NULL;
	g = gid_v4(239, 1, 1, 1);
	KUNIT_EXPECT_EQ(test, mcg_roce_check_mgid(&g, true, &ext), -EINVAL);
	expect_msg(test, &ext, "RoCE has no SA");
	KUNIT_EXPECT_EQ(test, mcg_roce_check_mgid(&z, true, NULL), -EINVAL);
}

static void sa_linklocal_test(struct kunit *test)
{
	union ib_gid g, z = {};

	/* what opensm assigns by default: A01B, link-local */
	g = gid_v6(0xff12, 0xa01b, 0xfe80, 0, 0, 0, 0, 1);
	KUNIT_EXPECT_TRUE(test, mcg_mgid_sa_linklocal(&g));
	g = gid_v6(0xff32, 0xa01b, 0xfe80, 0, 0, 0, 0, 1);
	KUNIT_EXPECT_TRUE(test, mcg_mgid_sa_linklocal(&g));
	/* another scope, signature, or not a multicast GID */
	g = gid_v6(0xff15, 0xa01b, 0xfe80, 0, 0, 0, 0, 1);
	KUNIT_EXPECT_FALSE(test, mcg_mgid_sa_linklocal(&g));
	g = gid_v6(0xff12, 0x401b, 0xffff, 0, 0, 0, 0, 1);
	KUNIT_EXPECT_FALSE(test, mcg_mgid_sa_linklocal(&g));
	g = gid_v6(0xfe12, 0xa01b, 0xfe80, 0, 0, 0, 0, 1);
	KUNIT_EXPECT_FALSE(test, mcg_mgid_sa_linklocal(&g));
	KUNIT_EXPECT_FALSE(test, mcg_mgid_sa_linklocal(&z));
}

static void ib_check_test(struct kunit *test)
{
	struct netlink_ext_ack ext = {};
	union ib_gid g, z = {};

	g = gid_v6(0xff12, 0x401b, 0xffff, 0, 0, 0, 0xffff, 0xffff);
	KUNIT_EXPECT_EQ(test, mcg_ib_check_mgid(&g, IB_MCG_JOIN_NON_MEMBER,
						&ext), 0);
	g = gid_v6(0xff00, 0, 0, 0, 0, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, mcg_ib_check_mgid(&g, IB_MCG_JOIN_FULL, &ext), 0);
	/* SA-assigned: full and send-only full members only */
	KUNIT_EXPECT_EQ(test, mcg_ib_check_mgid(&z, IB_MCG_JOIN_FULL, &ext), 0);
	KUNIT_EXPECT_EQ(test, mcg_ib_check_mgid(&z, IB_MCG_JOIN_SENDONLY_FULL,
						&ext), 0);
	KUNIT_EXPECT_NULL(test, ext._msg);
	KUNIT_EXPECT_EQ(test, mcg_ib_check_mgid(&z, IB_MCG_JOIN_NON_MEMBER,
						&ext), -EINVAL);
	expect_msg(test, &ext, "only a full member");
	KUNIT_EXPECT_EQ(test,
			mcg_ib_check_mgid(&z, IB_MCG_JOIN_SENDONLY_NON_MEMBER,
					  NULL), -EINVAL);
	/* not multicast; a RoCE-style IPv4-mapped group is not one on IB */
	ext._msg = NULL;
	g = gid_v6(0xfe80, 0, 0, 0, 0, 0, 0, 1);
	KUNIT_EXPECT_EQ(test, mcg_ib_check_mgid(&g, IB_MCG_JOIN_FULL, &ext),
			-EINVAL);
	expect_msg(test, &ext, "first byte must be 0xff");
	g = gid_v4(239, 1, 1, 1);
	KUNIT_EXPECT_EQ(test, mcg_ib_check_mgid(&g, IB_MCG_JOIN_FULL, NULL),
			-EINVAL);
	g = gid_v6(0xfeff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff,
		   0xffff);
	KUNIT_EXPECT_EQ(test, mcg_ib_check_mgid(&g, IB_MCG_JOIN_FULL, NULL),
			-EINVAL);
}

/* A list of user_create ranges, and which MGIDs each covers. */
static void mgid_ranges_test(struct kunit *test)
{
	struct mcg_mgid_range r[3];
	union ib_gid g;
	const char *why = NULL;

	KUNIT_EXPECT_EQ(test, mcg_mgid_ranges_parse("", r, 3, &why), 0);
	KUNIT_EXPECT_EQ(test, mcg_mgid_ranges_parse(" ,\n", r, 3, &why), 0);
	KUNIT_ASSERT_EQ(test,
			mcg_mgid_ranges_parse("ff12:401b:ffff::/112, ff15::1\n",
					      r, 3, &why), 2);
	KUNIT_EXPECT_EQ(test, r[0].len, 112);
	KUNIT_EXPECT_EQ(test, r[1].len, 128);
	g = gid_v6(0xff12, 0x401b, 0xffff, 0, 0, 0, 0, 0x1234);
	KUNIT_EXPECT_TRUE(test, mcg_mgid_in_range(&r[0], &g));
	g = gid_v6(0xff12, 0x401b, 0xffff, 0, 0, 0, 1, 0);
	KUNIT_EXPECT_FALSE(test, mcg_mgid_in_range(&r[0], &g));
	g = gid_v6(0xff15, 0, 0, 0, 0, 0, 0, 1);
	KUNIT_EXPECT_TRUE(test, mcg_mgid_in_range(&r[1], &g));
	g.raw[15] = 2;
	KUNIT_EXPECT_FALSE(test, mcg_mgid_in_range(&r[1], &g));
	/* a length that is not a multiple of 8 */
	KUNIT_ASSERT_EQ(test, mcg_mgid_ranges_parse("ff12:401b:ff80::/41", r,
						    3, &why), 1);
	g = gid_v6(0xff12, 0x401b, 0xffc0, 0, 0, 0, 0, 7);
	KUNIT_EXPECT_TRUE(test, mcg_mgid_in_range(&r[0], &g));
	g = gid_v6(0xff12, 0x401b, 0xff00, 0, 0, 0, 0, 7);
	KUNIT_EXPECT_FALSE(test, mcg_mgid_in_range(&r[0], &g));
	KUNIT_ASSERT_EQ(test, mcg_mgid_ranges_parse("ff00::/8", r, 3, &why), 1);
	KUNIT_EXPECT_TRUE(test, mcg_mgid_in_range(&r[0], &g));

	/* each refusal says why */
	KUNIT_EXPECT_EQ(test, mcg_mgid_ranges_parse("ff12::/7", r, 3, &why),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "a prefix length is not 8 to 128");
	KUNIT_EXPECT_EQ(test, mcg_mgid_ranges_parse("ff12::/129", r, 3, &why),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mcg_mgid_ranges_parse("ff12::/", r, 3, &why),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mcg_mgid_ranges_parse("ff12::/0128", r, 3, &why),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mcg_mgid_ranges_parse("ff12::/1x", r, 3, &why),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mcg_mgid_ranges_parse("ff12::g/16", r, 3, &why),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, why,
			   "an entry is not an MGID (an IPv6 address)");
	KUNIT_EXPECT_EQ(test, mcg_mgid_ranges_parse("fe80::/16", r, 3, &why),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, why,
			   "an MGID is not a multicast GID (ff00::/8)");
	KUNIT_EXPECT_EQ(test, mcg_mgid_ranges_parse("ff12::1/112", r, 3, &why),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, why,
			   "an MGID has bits set after its prefix length");
	KUNIT_EXPECT_EQ(test, mcg_mgid_ranges_parse("ff12:401b:ffc0::/41", r,
						    3, &why), -EINVAL);
	KUNIT_EXPECT_EQ(test, mcg_mgid_ranges_parse("ff11::,ff12::,ff13::,ff14::",
						    r, 3, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "too many ranges");
}

static struct kunit_case mcg_mgid_cases[] = {
	KUNIT_CASE(mgid_mapping_test),
	KUNIT_CASE(roce_check_v4_test),
	KUNIT_CASE(roce_check_v6_test),
	KUNIT_CASE(ib_check_test),
	KUNIT_CASE(sa_linklocal_test),
	KUNIT_CASE(mgid_ranges_test),
	{}
};

static struct kunit_suite mcg_mgid_suite = {
	.name = "mcg_mgid",
	.test_cases = mcg_mgid_cases,
};

/* ---- suite mcg_attrs: owner names, join state, linger, P_Key -------------- */

static void name_len_test(struct kunit *test)
{
	char s[IB_MCG_OWNER_MAX + 2];

	KUNIT_EXPECT_EQ(test, mcg_name_len("a", 1, IB_MCG_OWNER_MAX), 1);
	KUNIT_EXPECT_EQ(test, mcg_name_len("job:42", 7, IB_MCG_OWNER_MAX), 6);
	KUNIT_EXPECT_EQ(test, mcg_name_len("!~", 2, IB_MCG_OWNER_MAX), 2);
	/* 64 bytes, with or without the NUL; 65 is too long */
	memset(s, 'x', sizeof(s));
	KUNIT_EXPECT_EQ(test, mcg_name_len(s, 64, IB_MCG_OWNER_MAX), 64);
	s[64] = '\0';
	KUNIT_EXPECT_EQ(test, mcg_name_len(s, 65, IB_MCG_OWNER_MAX), 64);
	s[64] = 'x';
	KUNIT_EXPECT_EQ(test, mcg_name_len(s, 65, IB_MCG_OWNER_MAX), -EINVAL);
	s[65] = '\0';
	KUNIT_EXPECT_EQ(test, mcg_name_len(s, 66, IB_MCG_OWNER_MAX), -EINVAL);
	/* empty, only a NUL, embedded or two NULs */
	KUNIT_EXPECT_EQ(test, mcg_name_len("", 0, IB_MCG_OWNER_MAX), -EINVAL);
	KUNIT_EXPECT_EQ(test, mcg_name_len("", 1, IB_MCG_OWNER_MAX), -EINVAL);
	KUNIT_EXPECT_EQ(test, mcg_name_len("a\0b", 3, IB_MCG_OWNER_MAX),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mcg_name_len("ab\0", 4, IB_MCG_OWNER_MAX),
			-EINVAL);
	/* space, control, DEL and high bytes */
	KUNIT_EXPECT_EQ(test, mcg_name_len("a b", 3, IB_MCG_OWNER_MAX),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mcg_name_len("a\tb", 3, IB_MCG_OWNER_MAX),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mcg_name_len("a\n", 2, IB_MCG_OWNER_MAX),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mcg_name_len("\x7f", 1, IB_MCG_OWNER_MAX),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mcg_name_len("caf\xc3\xa9", 5, IB_MCG_OWNER_MAX),
			-EINVAL);
	/* device names use the same check with their own limit */
	KUNIT_EXPECT_EQ(test, mcg_name_len("mlx5_0", 7, IB_DEVICE_NAME_MAX - 1),
			6);
}

static void join_state_test(struct kunit *test)
{
	unsigned int v, good = 0;

	for (v = 0; v < 256; v++)
		if (mcg_join_state_valid(v))
			good |= BIT(v < 32 ? v : 31);
	/* exactly 1, 2, 4 and 8 */
	KUNIT_EXPECT_EQ(test, good, BIT(1) | BIT(2) | BIT(4) | BIT(8));
	KUNIT_EXPECT_FALSE(test, mcg_join_state_valid(0));
	KUNIT_EXPECT_FALSE(test, mcg_join_state_valid(IB_MCG_JOIN_ALL));
	KUNIT_EXPECT_FALSE(test, mcg_join_state_valid(0x10));
	KUNIT_EXPECT_FALSE(test, mcg_join_state_valid(0x80));
}

static void linger_test(struct kunit *test)
{
	unsigned long now = 1000;
	u32 left;

	KUNIT_EXPECT_TRUE(test, mcg_linger_valid(0));
	KUNIT_EXPECT_TRUE(test, mcg_linger_valid(86400000));
	KUNIT_EXPECT_FALSE(test, mcg_linger_valid(86400001));
	KUNIT_EXPECT_FALSE(test, mcg_linger_valid(U32_MAX));

	KUNIT_EXPECT_EQ(test, mcg_linger_left_ms(now + HZ, now), 1000U);
	KUNIT_EXPECT_EQ(test, mcg_linger_left_ms(now + 1, now),
			jiffies_to_msecs(1));
	KUNIT_EXPECT_EQ(test, mcg_linger_left_ms(now, now), 0U);
	KUNIT_EXPECT_EQ(test, mcg_linger_left_ms(now - 1, now), 0U);
	KUNIT_EXPECT_EQ(test, mcg_linger_left_ms(now - 10 * HZ, now), 0U);
	/* across the jiffies wrap */
	now = ULONG_MAX - HZ / 2;
	KUNIT_EXPECT_EQ(test, mcg_linger_left_ms(now + 2 * HZ, now), 2000U);
	KUNIT_EXPECT_EQ(test, mcg_linger_left_ms(now - HZ, now + HZ), 0U);
	/* the longest linger, one day, to a jiffy */
	now = 5;
	left = mcg_linger_left_ms(now + msecs_to_jiffies(IB_MCG_LINGER_MAX_MS),
				  now);
	KUNIT_EXPECT_GE(test, left, IB_MCG_LINGER_MAX_MS);
	KUNIT_EXPECT_LE(test, left, IB_MCG_LINGER_MAX_MS + jiffies_to_msecs(1));
}

static void pkey_test(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, mcg_pkey_valid(0x0000));
	KUNIT_EXPECT_FALSE(test, mcg_pkey_valid(0x8000));
	KUNIT_EXPECT_TRUE(test, mcg_pkey_valid(0xffff));
	KUNIT_EXPECT_TRUE(test, mcg_pkey_valid(0x7fff));
	KUNIT_EXPECT_TRUE(test, mcg_pkey_valid(0x0001));
	KUNIT_EXPECT_TRUE(test, mcg_pkey_valid(0x8001));
}

static struct kunit_case mcg_attrs_cases[] = {
	KUNIT_CASE(name_len_test),
	KUNIT_CASE(join_state_test),
	KUNIT_CASE(charge_uid_test),
	KUNIT_CASE(user_limits_more_test),
	KUNIT_CASE(linger_test),
	KUNIT_CASE(pkey_test),
	{}
};

static struct kunit_suite mcg_attrs_suite = {
	.name = "mcg_attrs",
	.test_cases = mcg_attrs_cases,
};

kunit_test_suites(&mcg_group_suite, &mcg_join_checks_suite,
		  &mcg_backoff_suite, &mcg_pacing_suite, &mcg_mgid_suite,
		  &mcg_attrs_suite, &mcg_ib_states_suite);

MODULE_DESCRIPTION("KUnit tests of ib_mcgroups' pure logic");
MODULE_LICENSE("GPL");
