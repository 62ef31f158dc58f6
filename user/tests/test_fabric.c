// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of mcctl fabric: the SA's groups and this port's memberships
 * (ok, lost, joining, stale, kernel) made of made-up records, and the exit
 * status of a report.
 */
#include <arpa/inet.h>
#include <stdlib.h>

#include "mcctl_fabric.h"
#include "ktap.h"

#define JF	IB_MCG_JOIN_FULL
#define JN	IB_MCG_JOIN_NON_MEMBER
#define JS	IB_MCG_JOIN_SENDONLY_NON_MEMBER

static uint8_t me[16], other[16], me_newprefix[16];

static void gid(uint8_t *g, const char *s)
{
	if (inet_pton(AF_INET6, s, g) != 1)
		abort();
}

static void setup(void)
{
	gid(me, "fe80::53:494d:4843:4101");
	gid(other, "fe80::53:494d:4843:4102");
	/* the same GUID under another subnet prefix: still this port */
	gid(me_newprefix, "fec0::53:494d:4843:4101");
}

static struct fabric_rec rec(const char *mgid, const uint8_t *port,
			     uint16_t mlid, uint8_t js)
{
	struct fabric_rec r = { .mlid = mlid, .join_state = js,
				.pkey = 0xffff };

	gid(r.mgid, mgid);
	if (port)
		memcpy(r.port_gid, port, 16);
	return r;
}

static struct fabric_held held(const char *mgid, uint8_t js, uint8_t state)
{
	struct fabric_held h = { .join_state = js, .state = state };

	gid(h.mgid, mgid);
	return h;
}

/* The item for mgid, NULL if none. */
static const struct fabric_item *find(const struct fabric_item *it, long n,
				      const char *mgid)
{
	uint8_t m[16];
	long i;

	gid(m, mgid);
	for (i = 0; i < n; i++)
		if (!memcmp(it[i].mgid, m, 16))
			return &it[i];
	return NULL;
}

static void groups_aggregate(void)
{
	struct fabric_rec r[] = {
		rec("ff12:1234::1", me, 0xc000, JF),
		rec("ff12:1234::2", me, 0xc001, JF),
		rec("ff12:1234::1", other, 0xc000, JN),
		rec("ff12:1234::3", other, 0xc001, JS),	/* shares an MLID */
	};
	struct fabric_group *g;
	long n;

	setup();
	n = fabric_groups(NULL, 0, r, 4, &g);
	EXPECT(n == 3);
	if (n != 3)
		return;
	EXPECT(g[0].members == 2 && g[0].join_state == (JF | JN) &&
	       g[0].mlid == 0xc000);
	EXPECT(g[1].members == 1 && g[1].join_state == JF);
	EXPECT(g[2].members == 1 && g[2].mlid == 0xc001);
	EXPECT(fabric_mlids_used(g, n) == 2);
	free(g);

	EXPECT(fabric_groups(NULL, 0, r, 0, &g) == 0 && !g);
}

/*
 * A trusted GetTable has a record per member only (OpenSM's IPoIB
 * broadcast group, made without members, is not in it): the groups come
 * from the untrusted table too, whose records are not members.
 */
static void groups_without_members(void)
{
	struct fabric_rec grp[] = {
		rec("ff12:401b:ffff::ffff:ffff", NULL, 0xc000, 0),
		rec("ff12:1234::1", NULL, 0xc001, 0),
	};
	struct fabric_rec mem[] = {
		rec("ff12:1234::1", me, 0xc001, JF),
		rec("ff12:1234::1", other, 0xc001, JN),
		rec("ff12:1234::2", other, 0xc002, JF),	/* made since */
	};
	struct fabric_group *g;
	long n;

	setup();
	n = fabric_groups(grp, 2, mem, 3, &g);
	EXPECT(n == 3);
	if (n != 3)
		return;
	EXPECT(g[0].members == 0 && g[0].mlid == 0xc000 && !g[0].join_state);
	EXPECT(g[1].members == 2 && g[1].join_state == (JF | JN));
	EXPECT(g[2].members == 1 && g[2].mlid == 0xc002);
	EXPECT(fabric_mlids_used(g, n) == 3);
	free(g);

	/* untrusted: the groups, no members */
	n = fabric_groups(grp, 2, NULL, 0, &g);
	EXPECT(n == 2 && g && g[1].members == 0);
	free(g);
}

static void classify_all_ok(void)
{
	struct fabric_rec r[] = {
		rec("ff12:1234::1", me, 0xc000, JF),
		rec("ff12:1234::1", other, 0xc000, JF),
	};
	struct fabric_held h[] = { held("ff12:1234::1", JF,
					IB_MCG_STATE_JOINED) };
	size_t counts[FABRIC_NCLASS];
	struct fabric_item *it;
	long n;

	setup();
	n = fabric_classify(r, 2, me, h, 1, &it, counts);
	EXPECT(n == 1);
	EXPECT(n == 1 && it[0].cls == FABRIC_OK && it[0].at_sa &&
	       it[0].sa_js == JF && it[0].mlid == 0xc000);
	EXPECT(counts[FABRIC_OK] == 1 && counts[FABRIC_LOST] == 0 &&
	       counts[FABRIC_STALE] == 0);
	EXPECT(fabric_exit_status(counts) == 0);
	free(it);
}

/* held and joined here, no record of this port at the SA (another's is) */
static void classify_lost(void)
{
	struct fabric_rec r[] = {
		rec("ff12:1234::1", other, 0xc000, JF),
		rec("ff12:1234::2", me, 0xc001, JF),	/* JoinState short */
	};
	struct fabric_held h[] = {
		held("ff12:1234::1", JF, IB_MCG_STATE_JOINED),
		held("ff12:1234::2", JF | JN, IB_MCG_STATE_JOINED),
		held("ff12:1234::3", JF, IB_MCG_STATE_LINGERING),
	};
	size_t counts[FABRIC_NCLASS];
	const struct fabric_item *x;
	struct fabric_item *it;
	long n;

	setup();
	n = fabric_classify(r, 2, me, h, 3, &it, counts);
	EXPECT(n == 3);
	x = find(it, n, "ff12:1234::1");
	EXPECT(x && x->cls == FABRIC_LOST && !x->at_sa);
	x = find(it, n, "ff12:1234::2");
	EXPECT(x && x->cls == FABRIC_LOST && x->at_sa && x->sa_js == JF);
	x = find(it, n, "ff12:1234::3");
	EXPECT(x && x->cls == FABRIC_LOST);
	EXPECT(counts[FABRIC_LOST] == 3);
	EXPECT(fabric_exit_status(counts) == EXIT_FABRIC_LOST);
	free(it);
}

/* not joined yet here: the module is on it, neither ok nor lost */
static void classify_joining(void)
{
	struct fabric_held h[] = {
		held("ff12:1234::1", JF, IB_MCG_STATE_JOINING),
		held("ff12:1234::2", JF, IB_MCG_STATE_RETRY_WAIT),
	};
	size_t counts[FABRIC_NCLASS];
	struct fabric_item *it;
	long n;

	setup();
	n = fabric_classify(NULL, 0, me, h, 2, &it, counts);
	EXPECT(n == 2 && it[0].cls == FABRIC_JOINING &&
	       it[1].cls == FABRIC_JOINING);
	EXPECT(counts[FABRIC_JOINING] == 2);
	EXPECT(fabric_exit_status(counts) == 0);
	free(it);
}

/* this port's GID (by GUID) at the SA, nothing held: stale; never others' */
static void classify_stale(void)
{
	struct fabric_rec r[] = {
		rec("ff12:1234::9", me_newprefix, 0xc003, JF),
		rec("ff12:1234::9", other, 0xc003, JF),
		rec("ff12:1234::a", other, 0xc004, JF),
		rec("ff12:401b:ffff::1", me, 0xc005, JF),
		rec("ff12:601b:ffff::1", me, 0xc006, JN),
	};
	size_t counts[FABRIC_NCLASS];
	const struct fabric_item *x;
	struct fabric_item *it;
	long n, i;

	setup();
	n = fabric_classify(r, 5, me, NULL, 0, &it, counts);
	EXPECT(n == 3);
	x = find(it, n, "ff12:1234::9");
	EXPECT(x && x->cls == FABRIC_STALE && x->sa_js == JF &&
	       !memcmp(x->sa_port_gid, me_newprefix, 16));
	EXPECT(!find(it, n, "ff12:1234::a"));
	x = find(it, n, "ff12:401b:ffff::1");
	EXPECT(x && x->cls == FABRIC_KERNEL);
	x = find(it, n, "ff12:601b:ffff::1");
	EXPECT(x && x->cls == FABRIC_KERNEL);
	for (i = 0; i < n; i++)
		EXPECT(fabric_same_port(it[i].sa_port_gid, me));
	EXPECT(counts[FABRIC_STALE] == 1 && counts[FABRIC_KERNEL] == 2);
	EXPECT(fabric_exit_status(counts) == EXIT_FABRIC_STALE);
	free(it);
}

static void classify_both(void)
{
	struct fabric_rec r[] = { rec("ff12:1234::9", me, 0xc003, JF) };
	struct fabric_held h[] = { held("ff12:1234::1", JF,
					IB_MCG_STATE_JOINED) };
	size_t counts[FABRIC_NCLASS];
	struct fabric_item *it;
	long n;

	setup();
	n = fabric_classify(r, 1, me, h, 1, &it, counts);
	EXPECT(n == 2 && it[0].cls == FABRIC_LOST &&
	       it[1].cls == FABRIC_STALE);
	EXPECT(fabric_exit_status(counts) == EXIT_FABRIC_BOTH);
	free(it);
	EXPECT(fabric_classify(NULL, 0, me, NULL, 0, &it, counts) == 0);
	EXPECT(fabric_exit_status(counts) == 0);
}

static void names(void)
{
	EXPECT_STR(fabric_class_name(FABRIC_OK), "ok");
	EXPECT_STR(fabric_class_name(FABRIC_LOST), "lost");
	EXPECT_STR(fabric_class_name(FABRIC_JOINING), "joining");
	EXPECT_STR(fabric_class_name(FABRIC_STALE), "stale");
	EXPECT_STR(fabric_class_name(FABRIC_KERNEL), "kernel");
	EXPECT_STR(fabric_class_name(FABRIC_NCLASS), "?");
	setup();
	EXPECT(fabric_mgid_ipoib((const uint8_t *)"\xff\x12\x40\x1b"
			       "\xff\xff\0\0\0\0\0\0\0\0\0\1"));
	EXPECT(!fabric_mgid_ipoib(me));
}

static const struct ktap_case cases[] = {
	KTAP_CASE(groups_aggregate),
	KTAP_CASE(groups_without_members),
	KTAP_CASE(classify_all_ok),
	KTAP_CASE(classify_lost),
	KTAP_CASE(classify_joining),
	KTAP_CASE(classify_stale),
	KTAP_CASE(classify_both),
	KTAP_CASE(names),
};

KTAP_MAIN(cases)
