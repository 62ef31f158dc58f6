// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of libibmcg's message decoding and reply loop, fed with
 * messages built here: replies and notifications in the group and port
 * formats, acks with extended ack TLVs, and whole request/reply exchanges
 * over an AF_UNIX datagram socket pair standing in for the kernel.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/socket.h>

#include "ibmcg_priv.h"
#include "ktap.h"

#define FAMILY		0x1d
#define AGE_BIG		(1ULL << 40)
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static void put_holder(struct nl_msg *msg, const char *owner, uint8_t js,
		       uint32_t flags, uint32_t portid, uint64_t age)
{
	struct nlattr *nest = nla_nest_start(msg, IB_MCG_A_HOLDER);

	nla_put_string(msg, IB_MCG_HOLDER_A_OWNER, owner);
	nla_put_u8(msg, IB_MCG_HOLDER_A_JOIN_STATE, js);
	nla_put_u32(msg, IB_MCG_HOLDER_A_FLAGS, flags);
	if (portid)
		nla_put_u32(msg, IB_MCG_HOLDER_A_NL_PORTID, portid);
	nla_put(msg, IB_MCG_HOLDER_A_PAD, 0, NULL);
	nla_put_u64(msg, IB_MCG_HOLDER_A_AGE_MS, age);
	nla_nest_end(msg, nest);
}

/* A GROUP_GET reply with no attributes yet: the test puts its own. */
static struct nl_msg *empty_group_msg(void)
{
	struct nl_msg *msg = nlmsg_alloc();

	genlmsg_put(msg, 0, 1, FAMILY, 0, 0, IB_MCG_CMD_GROUP_GET, 1);
	return msg;
}

/* A reply or notification in the group format, as the kernel sends it. */
static struct nl_msg *group_msg(uint8_t cmd, uint32_t seq, bool record,
				int nholders)
{
	struct nl_msg *msg = nlmsg_alloc();
	uint8_t mgid[16], gid[16];
	struct nlattr *nest;

	ibmcg_mgid_parse("239.1.1.1", mgid, NULL);
	memset(gid, 0, sizeof(gid));
	gid[0] = 0xfe;
	gid[1] = 0x80;
	gid[15] = 1;
	genlmsg_put(msg, 0, seq, FAMILY, 0, 0, cmd, IB_MCG_GENL_VERSION);
	nla_put_string(msg, IB_MCG_A_DEV_NAME, "mlx5_0");
	nla_put_u32(msg, IB_MCG_A_DEV_INDEX, 3);
	nla_put_u32(msg, IB_MCG_A_PORT, 1);
	nla_put(msg, IB_MCG_A_MGID, 16, mgid);
	nla_put_u8(msg, IB_MCG_A_STATE, IB_MCG_STATE_JOINED);
	nla_put_u8(msg, IB_MCG_A_REASON, IB_MCG_REASON_JOIN);
	nla_put_u32(msg, IB_MCG_A_ERROR, 0);
	nla_put_u8(msg, IB_MCG_A_JOIN_STATE,
		   IB_MCG_JOIN_FULL | IB_MCG_JOIN_SENDONLY_NON_MEMBER);
	nla_put_u8(msg, IB_MCG_A_BACKEND, IB_MCG_BACKEND_ROCE);
	if (record) {
		nla_put_u16(msg, IB_MCG_A_MLID, 0xc001);
		nla_put_u32(msg, IB_MCG_A_QKEY, IB_MCG_DEFAULT_QKEY);
		nla_put_u16(msg, IB_MCG_A_PKEY, 0xffff);
		nla_put_u8(msg, IB_MCG_A_MTU, 5);
		nla_put_u8(msg, IB_MCG_A_RATE, 16);
		nla_put_u8(msg, IB_MCG_A_SL, 3);
		nla_put_u32(msg, IB_MCG_A_FLOW_LABEL, 0x12345);
		nla_put_u8(msg, IB_MCG_A_TCLASS, 32);
		nla_put_u8(msg, IB_MCG_A_HOP_LIMIT, 64);
		nla_put(msg, IB_MCG_A_PORT_GID, 16, gid);
		nla_put_u32(msg, IB_MCG_A_SGID_INDEX, 7);
	}
	if (nholders == 0) {
		/* the kernel keeps an empty nest; libnl's nla_nest_end()
		 * would trim it
		 */
		nla_put(msg, IB_MCG_A_HOLDERS | NLA_F_NESTED, 0, NULL);
	} else if (nholders > 0) {
		nest = nla_nest_start(msg, IB_MCG_A_HOLDERS);
		if (nholders > 0)
			put_holder(msg, "job:42", IB_MCG_JOIN_FULL,
				   IB_MCG_F_BOUND, 4242, 1500);
		if (nholders > 1)
			put_holder(msg, "admin",
				   IB_MCG_JOIN_SENDONLY_NON_MEMBER, 0, 0,
				   AGE_BIG);
		nla_nest_end(msg, nest);
	}
	return msg;
}

static void parse_group_full(void)
{
	struct nl_msg *msg = group_msg(IB_MCG_CMD_GROUP_GET, 1, true, 2);
	struct ibmcg_group g;
	char buf[IBMCG_MGID_STRLEN];

	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == 0);
	EXPECT_STR(g.dev_name, "mlx5_0");
	EXPECT(g.dev_index == 3 && g.port == 1);
	EXPECT_STR(ibmcg_mgid_format(g.mgid, buf, sizeof(buf)), "239.1.1.1");
	EXPECT(g.state == IB_MCG_STATE_JOINED);
	EXPECT(g.reason == IB_MCG_REASON_JOIN);
	EXPECT(g.error == 0);
	EXPECT(g.join_state == (IB_MCG_JOIN_FULL |
				IB_MCG_JOIN_SENDONLY_NON_MEMBER));
	EXPECT(g.backend == IB_MCG_BACKEND_ROCE);
	EXPECT(IBMCG_HAS(&g, IB_MCG_A_MLID) && g.mlid == 0xc001);
	EXPECT(g.qkey == IB_MCG_DEFAULT_QKEY && g.pkey == 0xffff);
	EXPECT(g.mtu == 5 && g.rate == 16 && g.sl == 3);
	EXPECT(g.flow_label == 0x12345 && g.tclass == 32 &&
	       g.hop_limit == 64);
	EXPECT_STR(ibmcg_gid_format(g.port_gid, buf, sizeof(buf)), "fe80::1");
	EXPECT(g.sgid_index == 7);
	EXPECT(g.nholders == 2);
	if (g.nholders == 2) {
		EXPECT_STR(g.holders[0].owner, "job:42");
		EXPECT(g.holders[0].join_state == IB_MCG_JOIN_FULL);
		EXPECT(g.holders[0].flags == IB_MCG_F_BOUND);
		EXPECT(g.holders[0].nl_portid == 4242);
		EXPECT(g.holders[0].age_ms == 1500);
		EXPECT_STR(g.holders[1].owner, "admin");
		EXPECT(g.holders[1].nl_portid == 0);
		EXPECT(g.holders[1].age_ms == AGE_BIG);
	}
	ibmcg__group_clear(&g);
	EXPECT(g.holders == NULL && g.nholders == 0);
	nlmsg_free(msg);
}

static void parse_group_no_record(void)
{
	struct nl_msg *msg = group_msg(IB_MCG_CMD_GROUP_GET, 1, false, -1);
	struct ibmcg_group g;

	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == 0);
	EXPECT(!IBMCG_HAS(&g, IB_MCG_A_MLID));
	EXPECT(!IBMCG_HAS(&g, IB_MCG_A_QKEY));
	EXPECT(!IBMCG_HAS(&g, IB_MCG_A_HOLDERS));
	EXPECT(IBMCG_HAS(&g, IB_MCG_A_STATE));
	EXPECT(g.nholders == 0 && g.holders == NULL);
	ibmcg__group_clear(&g);
	nlmsg_free(msg);

	msg = group_msg(IB_MCG_CMD_GROUP_GET, 1, false, 0);
	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == 0);
	EXPECT(IBMCG_HAS(&g, IB_MCG_A_HOLDERS));
	EXPECT(g.nholders == 0 && g.holders == NULL);
	nlmsg_free(msg);
}

static void parse_group_ignores_unknown(void)
{
	struct nl_msg *msg = group_msg(IB_MCG_CMD_GROUP_GET, 1, false, 1);
	struct ibmcg_group g;

	/* Attributes of a newer kernel are skipped. */
	nla_put_u32(msg, IB_MCG_A_MAX + 1, 7);
	nla_put_string(msg, 200, "future");
	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == 0);
	ibmcg__group_clear(&g);
	nlmsg_free(msg);
}

static void parse_group_lingering(void)
{
	struct nl_msg *msg = group_msg(IB_MCG_CMD_GROUP_GET, 1, true, -1);
	struct nlattr *a;
	struct ibmcg_group g;

	/* as the kernel sends a group that lost its last holder */
	a = nlmsg_find_attr(nlmsg_hdr(msg), GENL_HDRLEN, IB_MCG_A_STATE);
	*(uint8_t *)nla_data(a) = IB_MCG_STATE_LINGERING;
	a = nlmsg_find_attr(nlmsg_hdr(msg), GENL_HDRLEN, IB_MCG_A_REASON);
	*(uint8_t *)nla_data(a) = IB_MCG_REASON_LEAVE;
	nla_put_u32(msg, IB_MCG_A_LINGER_MS, 30000);
	nla_put_u32(msg, IB_MCG_A_LINGER_LEFT_MS, 12345);
	nla_put(msg, IB_MCG_A_HOLDERS | NLA_F_NESTED, 0, NULL);

	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == 0);
	EXPECT(g.state == IB_MCG_STATE_LINGERING);
	EXPECT_STR(ibmcg_state_name(g.state), "lingering");
	EXPECT(g.reason == IB_MCG_REASON_LEAVE);
	EXPECT(IBMCG_HAS(&g, IB_MCG_A_LINGER_MS) && g.linger_ms == 30000);
	EXPECT(IBMCG_HAS(&g, IB_MCG_A_LINGER_LEFT_MS) &&
	       g.linger_left_ms == 12345);
	EXPECT(g.nholders == 0);
	/* the membership is kept: the record is still there */
	EXPECT(IBMCG_HAS(&g, IB_MCG_A_QKEY) && g.mlid == 0xc001);
	ibmcg__group_clear(&g);
	nlmsg_free(msg);

	/* a joined group: its linger time, no time left */
	msg = group_msg(IB_MCG_CMD_GROUP_GET, 1, false, 1);
	nla_put_u32(msg, IB_MCG_A_LINGER_MS, 0);
	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == 0);
	EXPECT(IBMCG_HAS(&g, IB_MCG_A_LINGER_MS) && g.linger_ms == 0);
	EXPECT(!IBMCG_HAS(&g, IB_MCG_A_LINGER_LEFT_MS));
	ibmcg__group_clear(&g);
	nlmsg_free(msg);

	/* a linger time shorter than a u32 */
	msg = group_msg(IB_MCG_CMD_GROUP_GET, 1, false, -1);
	nla_put_u16(msg, IB_MCG_A_LINGER_LEFT_MS, 1);
	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == -EPROTO);
	nlmsg_free(msg);
}

static void parse_group_rejects(void)
{
	char owner[IB_MCG_OWNER_MAX + 2];
	struct ibmcg_group g;
	struct nlattr *nest;
	struct nl_msg *msg;

	msg = empty_group_msg();
	nla_put(msg, IB_MCG_A_MGID, 15, "012345678901234");
	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == -EPROTO);
	nlmsg_free(msg);

	msg = empty_group_msg();
	nla_put_u16(msg, IB_MCG_A_PORT, 1);
	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == -EPROTO);
	nlmsg_free(msg);

	msg = empty_group_msg();
	nla_put(msg, IB_MCG_A_DEV_NAME, 6, "mlx5_0");	/* no NUL */
	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == -EPROTO);
	nlmsg_free(msg);

	/* a bad second holder: the first one's allocation is released */
	memset(owner, 'o', sizeof(owner) - 1);
	owner[sizeof(owner) - 1] = '\0';
	msg = group_msg(IB_MCG_CMD_GROUP_GET, 1, false, -1);
	nest = nla_nest_start(msg, IB_MCG_A_HOLDERS);
	put_holder(msg, "ok", IB_MCG_JOIN_FULL, 0, 0, 1);
	put_holder(msg, owner, IB_MCG_JOIN_FULL, 0, 0, 1);
	nla_nest_end(msg, nest);
	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == -EPROTO);
	EXPECT(g.holders == NULL && g.nholders == 0);
	nlmsg_free(msg);

	/* not even a genetlink header */
	msg = nlmsg_alloc_simple(FAMILY, 0);
	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == -EPROTO);
	nlmsg_free(msg);
}

/*
 * The attribute rules the decoder keeps (as libnl's nla_parse() with a
 * policy): types above the last one known are skipped whatever their
 * length; a known type may be longer than its size unless the policy has a
 * maximum; a string ends at its first NUL; of two attributes of one type
 * the later counts; the nested flag is not part of the type.
 */
static void parse_group_attr_rules(void)
{
	char name[IBMCG_DEV_NAME_MAX + 1];
	struct ibmcg_group g;
	struct nlattr *nest;
	struct nl_msg *msg;

	msg = empty_group_msg();
	nla_put(msg, IB_MCG_A_MAX + 1, 1, "x");
	nla_put_u32(msg, IB_MCG_A_STATE, IB_MCG_STATE_JOINED);	/* u8 in 4 */
	nla_put_u32(msg, IB_MCG_A_PORT, 1);
	nla_put_u32(msg, IB_MCG_A_PORT, 2);
	nla_put(msg, IB_MCG_A_DEV_NAME, 8, "ab\0cdef");
	nest = nla_nest_start(msg, IB_MCG_A_HOLDERS | NLA_F_NESTED);
	put_holder(msg, "job:1", IB_MCG_JOIN_FULL, 0, 0, 1);
	nla_nest_end(msg, nest);
	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == 0);
	EXPECT(g.state == IB_MCG_STATE_JOINED && g.port == 2);
	EXPECT_STR(g.dev_name, "ab");
	EXPECT(g.nholders == 1 && !strcmp(g.holders[0].owner, "job:1"));
	EXPECT(!IBMCG_HAS(&g, IB_MCG_A_MGID));
	ibmcg__group_clear(&g);
	nlmsg_free(msg);

	/* a device name of the longest length, and one byte more */
	memset(name, 'd', sizeof(name));
	name[IBMCG_DEV_NAME_MAX - 1] = '\0';
	msg = empty_group_msg();
	nla_put(msg, IB_MCG_A_DEV_NAME, IBMCG_DEV_NAME_MAX, name);
	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == 0);
	EXPECT(strlen(g.dev_name) == IBMCG_DEV_NAME_MAX - 1);
	ibmcg__group_clear(&g);
	nlmsg_free(msg);
	name[IBMCG_DEV_NAME_MAX - 1] = 'd';
	name[IBMCG_DEV_NAME_MAX] = '\0';
	msg = empty_group_msg();
	nla_put(msg, IB_MCG_A_DEV_NAME, IBMCG_DEV_NAME_MAX + 1, name);
	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == -EPROTO);
	nlmsg_free(msg);

	/* an empty string has no NUL */
	msg = empty_group_msg();
	nla_put(msg, IB_MCG_A_DEV_NAME, 0, NULL);
	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == -EPROTO);
	nlmsg_free(msg);
}

static void parse_port_full(void)
{
	struct nl_msg *msg = nlmsg_alloc();
	struct ibmcg_port p;

	genlmsg_put(msg, 0, 1, FAMILY, 0, 0, IB_MCG_CMD_PORT_GET, 1);
	nla_put_string(msg, IB_MCG_A_DEV_NAME, "rxe0");
	nla_put_u32(msg, IB_MCG_A_DEV_INDEX, 2);
	nla_put_u32(msg, IB_MCG_A_PORT, 1);
	nla_put_u8(msg, IB_MCG_A_LINK_LAYER, IB_MCG_LINK_LAYER_ETHERNET);
	nla_put_u8(msg, IB_MCG_A_PORT_STATE, 4);
	nla_put_u8(msg, IB_MCG_A_BACKEND, IB_MCG_BACKEND_ROCE);
	nla_put_string(msg, IB_MCG_A_NETDEV, "veth0");
	nla_put_u32(msg, IB_MCG_A_IFINDEX, 9);
	nla_put_u32(msg, IB_MCG_A_MAX_MCAST_GRP, 8192);
	nla_put_u32(msg, IB_MCG_A_MAX_MCAST_QP_ATTACH, 56);
	nla_put_u32(msg, IB_MCG_A_MAX_TOTAL_MCAST_QP_ATTACH, 0x70000);
	nla_put_u32(msg, IB_MCG_A_GROUPS, 12);
	nla_put_u32(msg, IB_MCG_A_HOLDER_COUNT, 30);
	nla_put(msg, IB_MCG_A_PAD, 0, NULL);
	nla_put_u64(msg, IB_MCG_A_JOINS, 45);
	nla_put_u64(msg, IB_MCG_A_LEAVES, 33);
	nla_put_u64(msg, IB_MCG_A_JOIN_ERRORS, 1ULL << 33);
	nla_put_u64(msg, IB_MCG_A_LINGER_HITS, 5);
	nla_put_u64(msg, IB_MCG_A_LINGER_EXPIRED, 1ULL << 35);
	nla_put_u32(msg, IB_MCG_A_MAX_GROUPS, 1000);
	nla_put_u32(msg, IB_MCG_A_MAX_OWNER_HOLDS, 0);

	EXPECT(ibmcg__parse_port(nlmsg_hdr(msg), &p) == 0);
	EXPECT_STR(p.dev_name, "rxe0");
	EXPECT(p.dev_index == 2 && p.port == 1);
	EXPECT(p.link_layer == IB_MCG_LINK_LAYER_ETHERNET);
	EXPECT(p.port_state == 4 && p.backend == IB_MCG_BACKEND_ROCE);
	EXPECT_STR(p.netdev, "veth0");
	EXPECT(IBMCG_HAS(&p, IB_MCG_A_IFINDEX) && p.ifindex == 9);
	EXPECT(p.max_mcast_grp == 8192 && p.max_mcast_qp_attach == 56);
	EXPECT(p.max_total_mcast_qp_attach == 0x70000);
	EXPECT(p.groups == 12 && p.holder_count == 30);
	EXPECT(p.joins == 45 && p.leaves == 33);
	EXPECT(p.join_errors == 1ULL << 33);
	EXPECT(p.linger_hits == 5 && p.linger_expired == 1ULL << 35);
	EXPECT(IBMCG_HAS(&p, IB_MCG_A_MAX_GROUPS) && p.max_groups == 1000);
	EXPECT(IBMCG_HAS(&p, IB_MCG_A_MAX_OWNER_HOLDS) &&
	       p.max_owner_holds == 0);
	nlmsg_free(msg);
}

static void parse_port_old_kernel(void)
{
	struct nl_msg *msg = nlmsg_alloc();
	struct ibmcg_port p;

	/* without the linger counters and limits: absent, not "no limit" */
	genlmsg_put(msg, 0, 1, FAMILY, 0, 0, IB_MCG_CMD_PORT_GET, 1);
	nla_put_string(msg, IB_MCG_A_DEV_NAME, "rxe0");
	nla_put_u32(msg, IB_MCG_A_PORT, 1);
	EXPECT(ibmcg__parse_port(nlmsg_hdr(msg), &p) == 0);
	EXPECT(!IBMCG_HAS(&p, IB_MCG_A_LINGER_HITS));
	EXPECT(!IBMCG_HAS(&p, IB_MCG_A_MAX_GROUPS));
	EXPECT(!IBMCG_HAS(&p, IB_MCG_A_MAX_OWNER_HOLDS));
	EXPECT(p.linger_hits == 0 && p.max_groups == 0);
	nlmsg_free(msg);

	/* a limit of the wrong size is refused */
	msg = nlmsg_alloc();
	genlmsg_put(msg, 0, 1, FAMILY, 0, 0, IB_MCG_CMD_PORT_GET, 1);
	nla_put_u8(msg, IB_MCG_A_MAX_GROUPS, 1);
	EXPECT(ibmcg__parse_port(nlmsg_hdr(msg), &p) == -EPROTO);
	nlmsg_free(msg);
}

/* An InfiniBand group as the kernel sends it, joined or waiting. */
static struct nl_msg *ib_group_msg(uint8_t cmd, uint32_t seq, uint8_t state,
				   uint8_t reason, uint32_t error)
{
	struct nl_msg *msg = nlmsg_alloc();
	uint8_t mgid[16], gid[16];

	ibmcg_mgid_parse("ff12:a01b:fe80::1:0", mgid, NULL);
	memset(gid, 0, sizeof(gid));
	gid[0] = 0xfe;
	gid[1] = 0x80;
	gid[15] = 2;
	genlmsg_put(msg, 0, seq, FAMILY, 0, 0, cmd, IB_MCG_GENL_VERSION);
	nla_put_string(msg, IB_MCG_A_DEV_NAME, "simhca0");
	nla_put_u32(msg, IB_MCG_A_DEV_INDEX, 5);
	nla_put_u32(msg, IB_MCG_A_PORT, 1);
	nla_put(msg, IB_MCG_A_MGID, 16, mgid);
	nla_put_u8(msg, IB_MCG_A_STATE, state);
	nla_put_u8(msg, IB_MCG_A_REASON, reason);
	nla_put_u32(msg, IB_MCG_A_ERROR, error);
	nla_put_u8(msg, IB_MCG_A_JOIN_STATE, IB_MCG_JOIN_FULL);
	nla_put_u8(msg, IB_MCG_A_BACKEND, IB_MCG_BACKEND_IB_SA);
	if (state == IB_MCG_STATE_JOINED) {
		nla_put_u16(msg, IB_MCG_A_MLID, 0xc004);
		nla_put_u32(msg, IB_MCG_A_QKEY, 0x11111111);
		nla_put_u16(msg, IB_MCG_A_PKEY, 0x8001);
		nla_put_u8(msg, IB_MCG_A_MTU, 4);
		nla_put_u8(msg, IB_MCG_A_RATE, 3);
		nla_put_u8(msg, IB_MCG_A_SL, 7);
		nla_put_u32(msg, IB_MCG_A_FLOW_LABEL, 0xfffff);
		nla_put_u8(msg, IB_MCG_A_TCLASS, 0xb8);
		nla_put_u8(msg, IB_MCG_A_HOP_LIMIT, 2);
		nla_put(msg, IB_MCG_A_PORT_GID, 16, gid);
		nla_put_u32(msg, IB_MCG_A_SGID_INDEX, 0);
	}
	nla_put_u32(msg, IB_MCG_A_LINGER_MS, 0);
	nla_put(msg, IB_MCG_A_HOLDERS | NLA_F_NESTED, 0, NULL);
	return msg;
}

static void parse_group_ib(void)
{
	struct nl_msg *msg;
	struct ibmcg_group g;
	char buf[IBMCG_MGID_STRLEN];

	msg = ib_group_msg(IB_MCG_CMD_GROUP_GET, 1, IB_MCG_STATE_JOINED,
			   IB_MCG_REASON_JOIN, 0);
	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == 0);
	EXPECT_STR(g.dev_name, "simhca0");
	EXPECT_STR(ibmcg_mgid_format(g.mgid, buf, sizeof(buf)),
		   "ff12:a01b:fe80::1:0");
	EXPECT(g.backend == IB_MCG_BACKEND_IB_SA);
	EXPECT(IBMCG_HAS(&g, IB_MCG_A_MLID) && g.mlid == 0xc004);
	EXPECT(g.qkey == 0x11111111 && g.pkey == 0x8001);
	EXPECT(g.mtu == 4 && ibmcg_mtu_to_bytes(g.mtu) == 2048);
	EXPECT(g.rate == 3);
	EXPECT_STR(ibmcg_rate_name(g.rate), "10Gbps");
	EXPECT(g.sl == 7 && g.flow_label == 0xfffff);
	EXPECT(g.tclass == 0xb8 && g.hop_limit == 2);
	EXPECT(IBMCG_HAS(&g, IB_MCG_A_SGID_INDEX) && g.sgid_index == 0);
	ibmcg__group_clear(&g);
	nlmsg_free(msg);

	/* the SA did not answer: held, retried, no record yet */
	msg = ib_group_msg(IB_MCG_CMD_GROUP_STATE_NTF, 0,
			   IB_MCG_STATE_RETRY_WAIT, IB_MCG_REASON_TIMEOUT,
			   ETIMEDOUT);
	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == 0);
	EXPECT(g.state == IB_MCG_STATE_RETRY_WAIT);
	EXPECT_STR(ibmcg_state_name(g.state), "retry-wait");
	EXPECT(g.reason == IB_MCG_REASON_TIMEOUT);
	EXPECT_STR(ibmcg_reason_name(g.reason), "timeout");
	EXPECT(g.error == ETIMEDOUT);
	EXPECT(!IBMCG_HAS(&g, IB_MCG_A_MLID) && !IBMCG_HAS(&g, IB_MCG_A_MTU));
	EXPECT(!IBMCG_HAS(&g, IB_MCG_A_LINK_STATE));
	ibmcg__group_clear(&g);
	nlmsg_free(msg);

	/* a lingering group joined again after an SM failover (link state) */
	msg = ib_group_msg(IB_MCG_CMD_GROUP_STATE_NTF, 0,
			   IB_MCG_STATE_LINGERING, IB_MCG_REASON_NET_RESET,
			   ENETRESET);
	nla_put_u8(msg, IB_MCG_A_LINK_STATE, IB_MCG_STATE_RETRY_WAIT);
	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == 0);
	EXPECT(g.state == IB_MCG_STATE_LINGERING);
	EXPECT(IBMCG_HAS(&g, IB_MCG_A_LINK_STATE));
	EXPECT(g.link_state == IB_MCG_STATE_RETRY_WAIT);
	ibmcg__group_clear(&g);
	nlmsg_free(msg);
	/* an empty link state is refused */
	msg = ib_group_msg(IB_MCG_CMD_GROUP_GET, 1, IB_MCG_STATE_JOINING,
			   IB_MCG_REASON_JOIN, 0);
	nla_put(msg, IB_MCG_A_LINK_STATE, 0, NULL);
	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == -EPROTO);
	nlmsg_free(msg);

	/* an empty MTU, or an MLID shorter than a u16, is refused */
	msg = ib_group_msg(IB_MCG_CMD_GROUP_GET, 1, IB_MCG_STATE_JOINING,
			   IB_MCG_REASON_JOIN, 0);
	nla_put(msg, IB_MCG_A_MTU, 0, NULL);
	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == -EPROTO);
	nlmsg_free(msg);
	msg = ib_group_msg(IB_MCG_CMD_GROUP_GET, 1, IB_MCG_STATE_JOINING,
			   IB_MCG_REASON_JOIN, 0);
	nla_put_u8(msg, IB_MCG_A_MLID, 4);
	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == -EPROTO);
	nlmsg_free(msg);
}

/* An InfiniBand port in the PORT_GET format; also the wave events. */
static struct nl_msg *ib_port_msg(uint8_t cmd, uint32_t seq, bool rejoin)
{
	struct nl_msg *msg = nlmsg_alloc();

	genlmsg_put(msg, 0, seq, FAMILY, 0, 0, cmd, IB_MCG_GENL_VERSION);
	nla_put_string(msg, IB_MCG_A_DEV_NAME, "simhca0");
	nla_put_u32(msg, IB_MCG_A_DEV_INDEX, 5);
	nla_put_u32(msg, IB_MCG_A_PORT, 1);
	nla_put_u8(msg, IB_MCG_A_LINK_LAYER, IB_MCG_LINK_LAYER_INFINIBAND);
	nla_put_u8(msg, IB_MCG_A_PORT_STATE, 4);
	nla_put_u8(msg, IB_MCG_A_BACKEND, IB_MCG_BACKEND_IB_SA);
	nla_put_u32(msg, IB_MCG_A_GROUPS, 3);
	nla_put_u32(msg, IB_MCG_A_LID, 7);
	nla_put_u32(msg, IB_MCG_A_SM_LID, 1);
	if (!rejoin)
		return msg;
	nla_put(msg, IB_MCG_A_PAD, 0, NULL);
	nla_put_u64(msg, IB_MCG_A_SM_REREGISTERS, 4);
	nla_put_u64(msg, IB_MCG_A_REJOIN_WAVES, 3);
	nla_put_u64(msg, IB_MCG_A_GROUP_REJOINS, 1ULL << 36);
	nla_put_u64(msg, IB_MCG_A_REJOIN_FAILURES, 2);
	nla_put_u64(msg, IB_MCG_A_SA_TIMEOUTS, 5);
	nla_put_u32(msg, IB_MCG_A_LAST_SM_LID, 9);
	nla_put_u32(msg, IB_MCG_A_LAST_REJOIN_WAVE_MS, 250);
	nla_put_u32(msg, IB_MCG_A_REJOIN_PENDING, 2);
	return msg;
}

static void parse_port_ib(void)
{
	struct nl_msg *msg = ib_port_msg(IB_MCG_CMD_PORT_GET, 1, true);
	struct ibmcg_port p;

	EXPECT(ibmcg__parse_port(nlmsg_hdr(msg), &p) == 0);
	EXPECT_STR(p.dev_name, "simhca0");
	EXPECT(p.link_layer == IB_MCG_LINK_LAYER_INFINIBAND);
	EXPECT(p.backend == IB_MCG_BACKEND_IB_SA);
	EXPECT(IBMCG_HAS(&p, IB_MCG_A_LID) && p.lid == 7);
	EXPECT(IBMCG_HAS(&p, IB_MCG_A_SM_LID) && p.sm_lid == 1);
	EXPECT(p.sm_reregisters == 4 && p.rejoin_waves == 3);
	EXPECT(p.group_rejoins == 1ULL << 36);
	EXPECT(p.rejoin_failures == 2 && p.sa_timeouts == 5);
	EXPECT(IBMCG_HAS(&p, IB_MCG_A_LAST_SM_LID) && p.last_sm_lid == 9);
	EXPECT(p.last_rejoin_wave_ms == 250);
	EXPECT(IBMCG_HAS(&p, IB_MCG_A_REJOIN_PENDING) &&
	       p.rejoin_pending == 2);
	nlmsg_free(msg);

	/* a kernel that sends the LIDs only: the counters are absent */
	msg = ib_port_msg(IB_MCG_CMD_PORT_GET, 1, false);
	EXPECT(ibmcg__parse_port(nlmsg_hdr(msg), &p) == 0);
	EXPECT(IBMCG_HAS(&p, IB_MCG_A_LID));
	EXPECT(!IBMCG_HAS(&p, IB_MCG_A_SM_REREGISTERS));
	EXPECT(!IBMCG_HAS(&p, IB_MCG_A_REJOIN_PENDING));
	EXPECT(!IBMCG_HAS(&p, IB_MCG_A_LAST_SM_LID));
	nlmsg_free(msg);

	/* a RoCE port has none of them */
	msg = nlmsg_alloc();
	genlmsg_put(msg, 0, 1, FAMILY, 0, 0, IB_MCG_CMD_PORT_GET, 1);
	nla_put_string(msg, IB_MCG_A_DEV_NAME, "rxe0");
	nla_put_u32(msg, IB_MCG_A_PORT, 1);
	EXPECT(ibmcg__parse_port(nlmsg_hdr(msg), &p) == 0);
	EXPECT(!IBMCG_HAS(&p, IB_MCG_A_LID) && !IBMCG_HAS(&p, IB_MCG_A_SM_LID));
	EXPECT(p.lid == 0 && p.sm_reregisters == 0);
	nlmsg_free(msg);

	/* a counter of the wrong size is refused */
	msg = ib_port_msg(IB_MCG_CMD_PORT_GET, 1, false);
	nla_put_u32(msg, IB_MCG_A_SA_TIMEOUTS, 1);
	EXPECT(ibmcg__parse_port(nlmsg_hdr(msg), &p) == -EPROTO);
	nlmsg_free(msg);
}

/* One IB_MCG_A_GROUP entry of an OWNER_RELEASE reply. */
static void put_released(struct nl_msg *msg, const char *dev, uint32_t idx,
			 uint32_t port, const char *group, uint8_t js,
			 uint8_t state)
{
	struct nlattr *nest = nla_nest_start(msg, IB_MCG_A_GROUP);
	uint8_t mgid[16];

	ibmcg_mgid_parse(group, mgid, NULL);
	nla_put_string(msg, IB_MCG_A_DEV_NAME, dev);
	nla_put_u32(msg, IB_MCG_A_DEV_INDEX, idx);
	nla_put_u32(msg, IB_MCG_A_PORT, port);
	nla_put(msg, IB_MCG_A_MGID, 16, mgid);
	nla_put_u8(msg, IB_MCG_A_JOIN_STATE, js);
	nla_put_u8(msg, IB_MCG_A_STATE, state);
	nla_nest_end(msg, nest);
}

/*
 * An OWNER_RELEASE reply as the kernel builds it: owner, the list, then
 * the count. ngroups 0 gives the empty list of an owner holding nothing.
 */
static struct nl_msg *release_msg(uint32_t seq, const char *owner,
				  int ngroups)
{
	struct nl_msg *msg = nlmsg_alloc();
	struct nlattr *nest;
	uint32_t holds = 0;

	genlmsg_put(msg, 0, seq, FAMILY, 0, 0, IB_MCG_CMD_OWNER_RELEASE,
		    IB_MCG_GENL_VERSION);
	nla_put_string(msg, IB_MCG_A_OWNER, owner);
	if (!ngroups) {
		nla_put(msg, IB_MCG_A_RELEASED | NLA_F_NESTED, 0, NULL);
	} else {
		nest = nla_nest_start(msg, IB_MCG_A_RELEASED);
		put_released(msg, "mlx5_0", 3, 1, "239.10.0.1",
			     IB_MCG_JOIN_FULL | IB_MCG_JOIN_SENDONLY_FULL,
			     IB_MCG_STATE_RELEASED);
		holds += 2;
		if (ngroups > 1) {
			put_released(msg, "mlx5_0", 3, 1, "239.10.0.2",
				     IB_MCG_JOIN_FULL, IB_MCG_STATE_JOINED);
			holds++;
		}
		if (ngroups > 2) {
			put_released(msg, "mlx5_1", 4, 2, "ff0e::a3",
				     IB_MCG_JOIN_FULL,
				     IB_MCG_STATE_LINGERING);
			holds++;
		}
		nla_nest_end(msg, nest);
	}
	nla_put_u32(msg, IB_MCG_A_HOLDER_COUNT, holds);
	return msg;
}

static void parse_owner_release(void)
{
	struct nl_msg *msg = release_msg(1, "job:42", 3);
	struct ibmcg_release_reply r;
	char buf[IBMCG_MGID_STRLEN];

	EXPECT(ibmcg__parse_owner_release(nlmsg_hdr(msg), &r) == 0);
	EXPECT_STR(r.owner, "job:42");
	EXPECT(r.holds_dropped == 4);
	EXPECT(r.n == 3);
	if (r.n == 3) {
		EXPECT_STR(r.released[0].dev_name, "mlx5_0");
		EXPECT(r.released[0].dev_index == 3);
		EXPECT(r.released[0].port == 1);
		EXPECT_STR(ibmcg_mgid_format(r.released[0].mgid, buf,
					     sizeof(buf)), "239.10.0.1");
		EXPECT(r.released[0].join_state ==
		       (IB_MCG_JOIN_FULL | IB_MCG_JOIN_SENDONLY_FULL));
		EXPECT(r.released[0].state == IB_MCG_STATE_RELEASED);
		EXPECT(r.released[1].state == IB_MCG_STATE_JOINED);
		EXPECT_STR(r.released[2].dev_name, "mlx5_1");
		EXPECT(r.released[2].dev_index == 4 &&
		       r.released[2].port == 2);
		EXPECT_STR(ibmcg_mgid_format(r.released[2].mgid, buf,
					     sizeof(buf)), "ff0e::a3");
		EXPECT(r.released[2].state == IB_MCG_STATE_LINGERING);
	}
	free(r.released);
	nlmsg_free(msg);
}

static void parse_owner_release_nothing(void)
{
	struct nl_msg *msg = release_msg(1, "nobody", 0);
	struct ibmcg_release_reply r;

	EXPECT(ibmcg__parse_owner_release(nlmsg_hdr(msg), &r) == 0);
	EXPECT_STR(r.owner, "nobody");
	EXPECT(r.holds_dropped == 0);
	EXPECT(r.n == 0 && r.released == NULL);
	nlmsg_free(msg);
}

/* Sets the length of a list nest as a version 1 kernel did: its low 16 bits. */
static void end_wrapped_nest(struct nl_msg *msg, struct nlattr *nest)
{
	size_t len = (char *)nlmsg_tail(nlmsg_hdr(msg)) - (char *)nest;

	EXPECT(len > 0xffff);
	nest->nla_len = (uint16_t)len;
}

/* Version 1: a group with holders past 64 KiB; the parse gets them all. */
static void parse_group_wrapped_holders(void)
{
	struct nl_msg *msg = nlmsg_alloc_size(512 * 1024);
	struct nlattr *nest, *ho;
	struct ibmcg_group g;
	char owner[32];
	int i;

	genlmsg_put(msg, 0, 1, FAMILY, 0, 0, IB_MCG_CMD_GROUP_GET, 1);
	nla_put_string(msg, IB_MCG_A_DEV_NAME, "mlx5_0");
	nla_put_u32(msg, IB_MCG_A_PORT, 1);
	nla_put_u8(msg, IB_MCG_A_STATE, IB_MCG_STATE_JOINED);
	nest = nla_nest_start(msg, IB_MCG_A_HOLDERS);
	for (i = 0; i < 3000; i++) {
		ho = nla_nest_start(msg, IB_MCG_A_HOLDER);
		snprintf(owner, sizeof(owner), "owner-%04d", i);
		nla_put_string(msg, IB_MCG_HOLDER_A_OWNER, owner);
		nla_put_u8(msg, IB_MCG_HOLDER_A_JOIN_STATE, IB_MCG_JOIN_FULL);
		nla_put_u32(msg, IB_MCG_HOLDER_A_FLAGS, 0);
		nla_nest_end(msg, ho);
	}
	end_wrapped_nest(msg, nest);
	EXPECT(ibmcg__parse_group(nlmsg_hdr(msg), &g) == 0);
	EXPECT(g.state == IB_MCG_STATE_JOINED && g.port == 1);
	EXPECT(g.nholders == 3000);
	if (g.nholders == 3000) {
		EXPECT_STR(g.holders[0].owner, "owner-0000");
		EXPECT_STR(g.holders[2999].owner, "owner-2999");
	}
	ibmcg__group_clear(&g);
	nlmsg_free(msg);
}

/* Version 1: an owner release of 1,500 groups, its list past 64 KiB. */
static void parse_owner_release_wrapped(void)
{
	struct nl_msg *msg = nlmsg_alloc_size(512 * 1024);
	struct ibmcg_release_reply r;
	char buf[IBMCG_MGID_STRLEN];
	struct nlattr *nest;
	char mgid[32];
	int i;

	genlmsg_put(msg, 0, 1, FAMILY, 0, 0, IB_MCG_CMD_OWNER_RELEASE, 1);
	nla_put_string(msg, IB_MCG_A_OWNER, "job:42");
	nest = nla_nest_start(msg, IB_MCG_A_RELEASED);
	for (i = 0; i < 1500; i++) {
		snprintf(mgid, sizeof(mgid), "239.10.%d.%d", i / 256, i % 256);
		put_released(msg, "mlx5_0", 3, 1, mgid, IB_MCG_JOIN_FULL,
			     IB_MCG_STATE_RELEASED);
	}
	end_wrapped_nest(msg, nest);
	nla_put_u32(msg, IB_MCG_A_HOLDER_COUNT, 1500);
	EXPECT(ibmcg__parse_owner_release(nlmsg_hdr(msg), &r) == 0);
	EXPECT(r.holds_dropped == 1500);
	EXPECT(r.n == 1500);
	if (r.n == 1500)
		EXPECT_STR(ibmcg_mgid_format(r.released[1499].mgid, buf,
					     sizeof(buf)), "239.10.5.219");
	free(r.released);
	nlmsg_free(msg);
}

/* Version 2: the parts of a dumped release append to one list. */
static void merge_owner_release_parts(void)
{
	struct ibmcg_release_reply acc = { .n = 0 }, part;
	struct nl_msg *m1 = release_msg(1, "job:42", 3);
	struct nl_msg *m2 = release_msg(1, "job:42", 2);
	struct nl_msg *m3 = release_msg(1, "job:42", 0);
	char buf[IBMCG_MGID_STRLEN];

	EXPECT(ibmcg__parse_owner_release(nlmsg_hdr(m1), &part) == 0);
	EXPECT(ibmcg__merge_owner_release(&acc, &part) == 0);
	EXPECT(part.n == 0 && part.released == NULL);
	EXPECT(ibmcg__parse_owner_release(nlmsg_hdr(m2), &part) == 0);
	EXPECT(ibmcg__merge_owner_release(&acc, &part) == 0);
	EXPECT(ibmcg__parse_owner_release(nlmsg_hdr(m3), &part) == 0);
	EXPECT(ibmcg__merge_owner_release(&acc, &part) == 0);
	EXPECT_STR(acc.owner, "job:42");
	EXPECT(acc.n == 5);
	if (acc.n == 5) {
		EXPECT_STR(ibmcg_mgid_format(acc.released[2].mgid, buf,
					     sizeof(buf)), "ff0e::a3");
		EXPECT_STR(ibmcg_mgid_format(acc.released[4].mgid, buf,
					     sizeof(buf)), "239.10.0.2");
	}
	free(acc.released);
	nlmsg_free(m1);
	nlmsg_free(m2);
	nlmsg_free(m3);
}

static void parse_owner_release_rejects(void)
{
	char owner[IB_MCG_OWNER_MAX + 2];
	struct ibmcg_release_reply r;
	struct nlattr *nest, *entry;
	struct nl_msg *msg;

	/* a bad second entry: the first one's allocation is released */
	msg = nlmsg_alloc();
	genlmsg_put(msg, 0, 1, FAMILY, 0, 0, IB_MCG_CMD_OWNER_RELEASE, 1);
	nla_put_string(msg, IB_MCG_A_OWNER, "job:42");
	nest = nla_nest_start(msg, IB_MCG_A_RELEASED);
	put_released(msg, "mlx5_0", 3, 1, "239.10.0.1", 1, 5);
	entry = nla_nest_start(msg, IB_MCG_A_GROUP);
	nla_put(msg, IB_MCG_A_MGID, 15, "012345678901234");
	nla_nest_end(msg, entry);
	nla_nest_end(msg, nest);
	EXPECT(ibmcg__parse_owner_release(nlmsg_hdr(msg), &r) == -EPROTO);
	EXPECT(r.released == NULL && r.n == 0);
	nlmsg_free(msg);

	/* an owner longer than the protocol allows */
	memset(owner, 'o', sizeof(owner) - 1);
	owner[sizeof(owner) - 1] = '\0';
	msg = nlmsg_alloc();
	genlmsg_put(msg, 0, 1, FAMILY, 0, 0, IB_MCG_CMD_OWNER_RELEASE, 1);
	nla_put_string(msg, IB_MCG_A_OWNER, owner);
	EXPECT(ibmcg__parse_owner_release(nlmsg_hdr(msg), &r) == -EPROTO);
	nlmsg_free(msg);

	/* unknown entries in the list are skipped */
	msg = nlmsg_alloc();
	genlmsg_put(msg, 0, 1, FAMILY, 0, 0, IB_MCG_CMD_OWNER_RELEASE, 1);
	nest = nla_nest_start(msg, IB_MCG_A_RELEASED);
	nla_put_u32(msg, IB_MCG_A_MAX + 1, 7);
	put_released(msg, "mlx5_0", 3, 1, "239.10.0.1", 1, 5);
	nla_nest_end(msg, nest);
	nla_put_u32(msg, IB_MCG_A_HOLDER_COUNT, 1);
	EXPECT(ibmcg__parse_owner_release(nlmsg_hdr(msg), &r) == 0);
	EXPECT(r.n == 1 && r.holds_dropped == 1);
	free(r.released);
	nlmsg_free(msg);
}

static size_t put_attr(char *buf, size_t off, uint16_t type,
		       const void *data, size_t len)
{
	struct nlattr *a = (struct nlattr *)(buf + off);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy(buf + off + NLA_HDRLEN, data, len);
	return off + NLA_ALIGN(NLA_HDRLEN + len);
}

/*
 * An NLMSG_ERROR as netlink_ack() builds it. Uncapped, it echoes a request
 * with a 22 byte payload, so the TLVs start at an aligned offset after it.
 */
static size_t build_ack(char *buf, uint32_t seq, int error, bool capped,
			const char *text, int miss_type)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct nlmsgerr *e = NLMSG_DATA(nlh);
	size_t off = NLMSG_HDRLEN + sizeof(*e);
	uint16_t flags = 0;
	uint32_t mt = miss_type;

	memset(buf, 0, 1024);
	e->error = error;
	e->msg.nlmsg_type = FAMILY;
	e->msg.nlmsg_seq = seq;
	if (capped) {
		e->msg.nlmsg_len = 400;	/* the request's, not echoed */
		flags |= NLM_F_CAPPED;
	} else {
		e->msg.nlmsg_len = NLMSG_HDRLEN + 22;
		memset(buf + off, 0xaa, 22);
		off += NLMSG_ALIGN(22);
	}
	if (text)
		off = put_attr(buf, off, NLMSGERR_ATTR_MSG, text,
			       strlen(text) + 1);
	if (miss_type)
		off = put_attr(buf, off, NLMSGERR_ATTR_MISS_TYPE, &mt,
			       sizeof(mt));
	if (text || miss_type)
		flags |= NLM_F_ACK_TLVS;
	nlh->nlmsg_len = off;
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = seq;
	return off;
}

/* An NLMSG_DONE as netlink_dump_done() builds it. */
static size_t build_done(char *buf, uint32_t seq, int error, uint16_t flags,
			 const char *text)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	size_t off = NLMSG_HDRLEN + sizeof(int);

	memset(buf, 0, 1024);
	memcpy(NLMSG_DATA(nlh), &error, sizeof(error));
	if (text) {
		off = put_attr(buf, off, NLMSGERR_ATTR_MSG, text,
			       strlen(text) + 1);
		flags |= NLM_F_ACK_TLVS;
	}
	nlh->nlmsg_len = off;
	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI | flags;
	nlh->nlmsg_seq = seq;
	return off;
}

static void ack_extack_capped(void)
{
	struct ibmcg *h = ibmcg_alloc();
	char buf[1024];

	build_ack(buf, 1, -EINVAL, true, "owner is not printable", 0);
	EXPECT(ibmcg__parse_ack(h, (struct nlmsghdr *)buf) == -EINVAL);
	EXPECT_STR(ibmcg_errmsg(h), "owner is not printable");
	EXPECT_STR(ibmcg_strerror(h, -EINVAL), "owner is not printable");
	ibmcg_close(h);
}

static void ack_extack_uncapped(void)
{
	struct ibmcg *h = ibmcg_alloc();
	char buf[1024];

	build_ack(buf, 1, -EBUSY, false, "hold is bound to another socket",
		  0);
	EXPECT(ibmcg__parse_ack(h, (struct nlmsghdr *)buf) == -EBUSY);
	EXPECT_STR(ibmcg_errmsg(h), "hold is bound to another socket");
	ibmcg_close(h);
}

static void ack_missing_attr(void)
{
	struct ibmcg *h = ibmcg_alloc();
	char buf[1024];

	build_ack(buf, 1, -EINVAL, true, NULL, IB_MCG_A_OWNER);
	EXPECT(ibmcg__parse_ack(h, (struct nlmsghdr *)buf) == -EINVAL);
	EXPECT_STR(ibmcg_errmsg(h), "missing attribute: owner");
	h->errmsg[0] = '\0';
	build_ack(buf, 1, -EINVAL, true, NULL, 99);
	EXPECT(ibmcg__parse_ack(h, (struct nlmsghdr *)buf) == -EINVAL);
	EXPECT_STR(ibmcg_errmsg(h), "missing attribute 99");
	ibmcg_close(h);
}

static void ack_plain(void)
{
	struct ibmcg *h = ibmcg_alloc();
	char buf[1024];

	build_ack(buf, 1, 0, true, NULL, 0);
	EXPECT(ibmcg__parse_ack(h, (struct nlmsghdr *)buf) == 0);
	build_ack(buf, 1, -ENODEV, false, NULL, 0);
	EXPECT(ibmcg__parse_ack(h, (struct nlmsghdr *)buf) == -ENODEV);
	EXPECT(ibmcg_errmsg(h) == NULL);
	EXPECT_STR(ibmcg_strerror(h, -ENODEV), strerror(ENODEV));
	EXPECT_STR(ibmcg_strerror(NULL, -EPERM), strerror(EPERM));
	/* truncated: shorter than struct nlmsgerr */
	((struct nlmsghdr *)buf)->nlmsg_len = NLMSG_HDRLEN + 4;
	EXPECT(ibmcg__parse_ack(h, (struct nlmsghdr *)buf) == -EPROTO);
	ibmcg_close(h);
}

static void done_with_error(void)
{
	struct ibmcg *h = ibmcg_alloc();
	char buf[1024];

	build_done(buf, 1, 0, 0, NULL);
	EXPECT(ibmcg__parse_ack(h, (struct nlmsghdr *)buf) == 0);
	build_done(buf, 1, -ENODEV, 0, "no device mlx9");
	EXPECT(ibmcg__parse_ack(h, (struct nlmsghdr *)buf) == -ENODEV);
	EXPECT_STR(ibmcg_errmsg(h), "no device mlx9");
	ibmcg_close(h);
}

/* The fake kernel: one datagram of concatenated messages. */
struct wire {
	int sv[2];
	char buf[4096];
	size_t len;
};

static void wire_open(struct wire *w)
{
	EXPECT(socketpair(AF_UNIX, SOCK_DGRAM, 0, w->sv) == 0);
	w->len = 0;
}

static void wire_add(struct wire *w, const void *msg, size_t len)
{
	memcpy(w->buf + w->len, msg, len);
	w->len += NLMSG_ALIGN(len);
}

static void wire_add_nl(struct wire *w, struct nl_msg *msg)
{
	wire_add(w, nlmsg_hdr(msg), nlmsg_hdr(msg)->nlmsg_len);
	nlmsg_free(msg);
}

static void wire_send(struct wire *w)
{
	EXPECT(send(w->sv[1], w->buf, w->len, 0) == (ssize_t)w->len);
	w->len = 0;
}

static void wire_close(struct wire *w)
{
	close(w->sv[0]);
	close(w->sv[1]);
}

struct collect {
	int calls;
	int fail_with;
	struct ibmcg_group last;
};

static int collect_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct collect *c = arg;

	c->calls++;
	if (c->fail_with)
		return c->fail_with;
	ibmcg__group_clear(&c->last);
	return ibmcg__parse_group(nlh, &c->last);
}

static struct ibmcg *fake_handle(void)
{
	struct ibmcg *h = ibmcg_alloc();

	h->family = FAMILY;
	return h;
}

/* ib_group_msg() of group @id, one after the other in @buf at *@off. */
static void add_group_ntf(char *buf, size_t *off, uint8_t cmd, uint64_t id,
			  uint8_t state, uint8_t reason, uint32_t error)
{
	struct nl_msg *msg = ib_group_msg(cmd, 0, state, reason, error);
	struct nlmsghdr *nlh;

	if (id)
		nla_put_u64(msg, IB_MCG_A_GROUP_ID, id);
	nlh = nlmsg_hdr(msg);
	memcpy(buf + *off, nlh, nlh->nlmsg_len);
	*off += NLMSG_ALIGN(nlh->nlmsg_len);
	nlmsg_free(msg);
}

/* A HOLDER_DEL_NTF of group 7 dropping hold @hold_id of job:42. */
static void add_hold_del_ntf(char *buf, size_t *off, uint64_t hold_id,
			     uint8_t reason, uint32_t error)
{
	struct nl_msg *msg = nlmsg_alloc();
	struct nlattr *list, *ho;
	struct nlmsghdr *nlh;

	genlmsg_put(msg, 0, 0, FAMILY, 0, 0, IB_MCG_CMD_HOLDER_DEL_NTF,
		    IB_MCG_GENL_VERSION);
	nla_put_string(msg, IB_MCG_A_DEV_NAME, "simhca0");
	nla_put_u32(msg, IB_MCG_A_PORT, 1);
	nla_put_u64(msg, IB_MCG_A_GROUP_ID, 7);
	nla_put_u8(msg, IB_MCG_A_STATE, IB_MCG_STATE_JOINING);
	nla_put_u8(msg, IB_MCG_A_REASON, reason);
	nla_put_u32(msg, IB_MCG_A_ERROR, error);
	list = nla_nest_start(msg, IB_MCG_A_HOLDERS);
	ho = nla_nest_start(msg, IB_MCG_A_HOLDER);
	nla_put_string(msg, IB_MCG_HOLDER_A_OWNER, "job:42");
	nla_put_u8(msg, IB_MCG_HOLDER_A_JOIN_STATE, IB_MCG_JOIN_SENDONLY_FULL);
	if (hold_id)
		nla_put_u64(msg, IB_MCG_HOLDER_A_ID, hold_id);
	nla_nest_end(msg, ho);
	nla_nest_end(msg, list);
	nlh = nlmsg_hdr(msg);
	memcpy(buf + *off, nlh, nlh->nlmsg_len);
	*off += NLMSG_ALIGN(nlh->nlmsg_len);
	nlmsg_free(msg);
}

/* A JOIN reply in state joining, with the requester's hold. */
static void joining_reply(struct ibmcg_group *g)
{
	memset(g, 0, sizeof(*g));
	g->state = IB_MCG_STATE_JOINING;
	g->nholders = 1;
	g->holders = calloc(1, sizeof(*g->holders));
	strcpy(g->holders[0].owner, "job:42");
}

/*
 * What ibmcg__join_rec() makes of the notifications it waits for: only its
 * group's (by IB_MCG_A_GROUP_ID), the latest one decides, and the outcome
 * keeps the requester's hold from the reply.
 */
static void join_watch_outcome(void)
{
	struct ibmcg_join_watch w = { .id = 7 };
	struct ibmcg *h = fake_handle();
	struct ibmcg_group g;
	static char buf[8192];
	size_t off = 0;

	/* joined, then joining again (notified before the JOIN): waits */
	joining_reply(&g);
	add_group_ntf(buf, &off, IB_MCG_CMD_GROUP_STATE_NTF, 7,
		      IB_MCG_STATE_JOINED, IB_MCG_REASON_JOIN, 0);
	add_group_ntf(buf, &off, IB_MCG_CMD_GROUP_STATE_NTF, 7,
		      IB_MCG_STATE_JOINING, IB_MCG_REASON_JOIN, 0);
	/* another group, a group without id, a holder notification */
	add_group_ntf(buf, &off, IB_MCG_CMD_GROUP_STATE_NTF, 8,
		      IB_MCG_STATE_JOINED, IB_MCG_REASON_JOIN, 0);
	add_group_ntf(buf, &off, IB_MCG_CMD_GROUP_STATE_NTF, 0,
		      IB_MCG_STATE_JOINED, IB_MCG_REASON_JOIN, 0);
	add_group_ntf(buf, &off, IB_MCG_CMD_HOLDER_NEW_NTF, 7,
		      IB_MCG_STATE_JOINED, IB_MCG_REASON_JOIN, 0);
	ibmcg__join_watch_feed(h, &w, buf, off);
	EXPECT(w.seen && w.last.state == IB_MCG_STATE_JOINING);

	/* the SA's answer */
	off = 0;
	add_group_ntf(buf, &off, IB_MCG_CMD_GROUP_STATE_NTF, 7,
		      IB_MCG_STATE_JOINED, IB_MCG_REASON_JOIN, 0);
	ibmcg__join_watch_feed(h, &w, buf, off);
	EXPECT(w.seen && w.last.state == IB_MCG_STATE_JOINED);
	EXPECT(ibmcg__join_watch_result(h, &w, &g) == 0);
	EXPECT(g.state == IB_MCG_STATE_JOINED && g.mlid == 0xc004 &&
	       g.dev_index == 5 && IBMCG_HAS(&g, IB_MCG_A_MLID));
	EXPECT(g.nholders == 1 && g.holders &&
	       !strcmp(g.holders[0].owner, "job:42"));
	ibmcg__group_clear(&g);

	/* the SA did not answer: held and retried */
	joining_reply(&g);
	off = 0;
	add_group_ntf(buf, &off, IB_MCG_CMD_GROUP_STATE_NTF, 7,
		      IB_MCG_STATE_RETRY_WAIT, IB_MCG_REASON_TIMEOUT,
		      ETIMEDOUT);
	ibmcg__join_watch_feed(h, &w, buf, off);
	EXPECT(ibmcg__join_watch_result(h, &w, &g) == 0);
	EXPECT(g.state == IB_MCG_STATE_RETRY_WAIT && g.error == ETIMEDOUT &&
	       g.nholders == 1);
	ibmcg__group_clear(&g);

	/* the SA refused it: the JOIN fails as a version 1 kernel's did */
	joining_reply(&g);
	off = 0;
	add_group_ntf(buf, &off, IB_MCG_CMD_GROUP_DEL_NTF, 7,
		      IB_MCG_STATE_RELEASED, IB_MCG_REASON_SA_REJECTED, EINVAL);
	ibmcg__join_watch_feed(h, &w, buf, off);
	EXPECT(ibmcg__join_watch_result(h, &w, &g) == -EINVAL);
	EXPECT_STR(ibmcg_errmsg(h), "the SA rejected the join: no such group (join it with create parameters to create it), different parameters than the group's, or no MLID left");
	EXPECT(g.state == IB_MCG_STATE_JOINING);	/* untouched */
	ibmcg__group_clear(&g);

	/* nothing heard before the wait ran out: the reply stands */
	joining_reply(&g);
	EXPECT(ibmcg__join_watch_result(h, &w, &g) == 0);
	EXPECT(g.state == IB_MCG_STATE_JOINING && g.nholders == 1);
	ibmcg__group_clear(&g);
	ibmcg_close(h);
}

/*
 * The SA refused the join state of the hold a JOIN waits for while the
 * group stays for its other holders: the hold's HOLDER_DEL_NTF (by its
 * IB_MCG_HOLDER_A_ID) fails the JOIN, even when a GROUP_STATE_NTF
 * "joined" of the group follows; another hold's refusal (an earlier one of
 * the same owner), a hold without id and a plain leave do not.
 */
static void join_watch_refused_hold(void)
{
	struct ibmcg_join_watch w = { .id = 7, .hold_id = 31 };
	struct ibmcg *h = fake_handle();
	struct ibmcg_group g;
	static char buf[8192];
	size_t off = 0;

	joining_reply(&g);
	add_hold_del_ntf(buf, &off, 30, IB_MCG_REASON_SA_REJECTED, EINVAL);
	add_hold_del_ntf(buf, &off, 0, IB_MCG_REASON_SA_REJECTED, EINVAL);
	add_hold_del_ntf(buf, &off, 31, IB_MCG_REASON_LEAVE, 0);
	ibmcg__join_watch_feed(h, &w, buf, off);
	EXPECT(!w.refused);

	off = 0;
	add_hold_del_ntf(buf, &off, 31, IB_MCG_REASON_SA_REJECTED, EINVAL);
	add_group_ntf(buf, &off, IB_MCG_CMD_GROUP_STATE_NTF, 7,
		      IB_MCG_STATE_JOINED, IB_MCG_REASON_SA_REJECTED, 0);
	ibmcg__join_watch_feed(h, &w, buf, off);
	EXPECT(w.refused && w.seen && w.last.state == IB_MCG_STATE_JOINED);
	EXPECT(ibmcg__join_watch_result(h, &w, &g) == -EINVAL);
	EXPECT_STR(ibmcg_errmsg(h), "the SA rejected the join: no such group (join it with create parameters to create it), different parameters than the group's, or no MLID left");
	EXPECT(g.state == IB_MCG_STATE_JOINING);	/* untouched */
	EXPECT(!w.refused && !w.seen);
	ibmcg__group_clear(&g);

	/* an SA-assigned MGID the SA did not answer for */
	joining_reply(&g);
	off = 0;
	add_hold_del_ntf(buf, &off, 31, IB_MCG_REASON_TIMEOUT, ETIMEDOUT);
	ibmcg__join_watch_feed(h, &w, buf, off);
	EXPECT(ibmcg__join_watch_result(h, &w, &g) == -ETIMEDOUT);
	ibmcg__group_clear(&g);
	ibmcg_close(h);
}

static void reply_then_ack(void)
{
	struct ibmcg *h = fake_handle();
	struct collect c = { 0 };
	struct wire w;
	char ack[1024];

	wire_open(&w);
	/* a leftover from an older request comes first and is skipped */
	wire_add_nl(&w, group_msg(IB_MCG_CMD_JOIN, 6, true, 2));
	wire_add_nl(&w, group_msg(IB_MCG_CMD_JOIN, 7, true, 1));
	wire_send(&w);
	wire_add(&w, ack, build_ack(ack, 7, 0, true, NULL, 0));
	wire_send(&w);

	EXPECT(ibmcg__recv_replies(h, w.sv[0], 7, collect_cb, &c) == 0);
	EXPECT(c.calls == 1);
	EXPECT(c.last.nholders == 1);
	ibmcg__group_clear(&c.last);
	wire_close(&w);
	ibmcg_close(h);
}

static void error_ack(void)
{
	struct ibmcg *h = fake_handle();
	struct collect c = { 0 };
	struct wire w;
	char ack[1024];

	wire_open(&w);
	wire_add(&w, ack, build_ack(ack, 3, -EBUSY, true,
				    "hold is bound to another socket", 0));
	wire_send(&w);
	EXPECT(ibmcg__recv_replies(h, w.sv[0], 3, collect_cb, &c) == -EBUSY);
	EXPECT(c.calls == 0);
	EXPECT_STR(ibmcg_strerror(h, -EBUSY),
		   "hold is bound to another socket");
	wire_close(&w);
	ibmcg_close(h);
}

static void dump_complete(void)
{
	struct ibmcg *h = fake_handle();
	struct collect c = { 0 };
	struct wire w;
	char done[1024];

	wire_open(&w);
	wire_add_nl(&w, group_msg(IB_MCG_CMD_GROUP_GET, 9, true, 1));
	wire_add_nl(&w, group_msg(IB_MCG_CMD_GROUP_GET, 9, true, 2));
	wire_send(&w);
	wire_add_nl(&w, group_msg(IB_MCG_CMD_GROUP_GET, 9, false, 0));
	wire_add(&w, done, build_done(done, 9, 0, 0, NULL));
	wire_send(&w);
	EXPECT(ibmcg__recv_replies(h, w.sv[0], 9, collect_cb, &c) == 0);
	EXPECT(c.calls == 3);
	ibmcg__group_clear(&c.last);
	wire_close(&w);
	ibmcg_close(h);
}

static void dump_interrupted(void)
{
	struct ibmcg *h = fake_handle();
	struct collect c = { 0 };
	struct nl_msg *msg;
	struct wire w;
	char done[1024];

	wire_open(&w);
	/* flagged on DONE only, as nl_dump_check_consistent() may do */
	wire_add_nl(&w, group_msg(IB_MCG_CMD_GROUP_GET, 9, true, 1));
	wire_add(&w, done, build_done(done, 9, 0, NLM_F_DUMP_INTR, NULL));
	wire_send(&w);
	EXPECT(ibmcg__recv_replies(h, w.sv[0], 9, collect_cb, &c) ==
	       IBMCG_DUMP_INTR);
	EXPECT(c.calls == 1);

	/* flagged on a message in the middle */
	c.calls = 0;
	msg = group_msg(IB_MCG_CMD_GROUP_GET, 10, true, 1);
	nlmsg_hdr(msg)->nlmsg_flags |= NLM_F_DUMP_INTR;
	wire_add_nl(&w, msg);
	wire_add_nl(&w, group_msg(IB_MCG_CMD_GROUP_GET, 10, true, 1));
	wire_add(&w, done, build_done(done, 10, 0, 0, NULL));
	wire_send(&w);
	EXPECT(ibmcg__recv_replies(h, w.sv[0], 10, collect_cb, &c) ==
	       IBMCG_DUMP_INTR);
	EXPECT(c.calls == 2);
	ibmcg__group_clear(&c.last);
	wire_close(&w);
	ibmcg_close(h);
}

static void dump_error_in_done(void)
{
	struct ibmcg *h = fake_handle();
	struct collect c = { 0 };
	struct wire w;
	char done[1024];

	wire_open(&w);
	wire_add(&w, done, build_done(done, 2, -ENODEV, 0, "no such device"));
	wire_send(&w);
	EXPECT(ibmcg__recv_replies(h, w.sv[0], 2, collect_cb, &c) == -ENODEV);
	EXPECT_STR(ibmcg_strerror(h, -ENODEV), "no such device");
	wire_close(&w);
	ibmcg_close(h);
}

static void callback_error_drains(void)
{
	struct ibmcg *h = fake_handle();
	struct collect c = { .fail_with = -ENOMEM };
	struct wire w;
	char done[1024], marker[8] = "marker";

	wire_open(&w);
	wire_add_nl(&w, group_msg(IB_MCG_CMD_GROUP_GET, 4, true, 1));
	wire_send(&w);
	wire_add_nl(&w, group_msg(IB_MCG_CMD_GROUP_GET, 4, true, 1));
	wire_add(&w, done, build_done(done, 4, 0, 0, NULL));
	wire_send(&w);
	EXPECT(send(w.sv[1], marker, sizeof(marker), 0) == sizeof(marker));

	EXPECT(ibmcg__recv_replies(h, w.sv[0], 4, collect_cb, &c) == -ENOMEM);
	EXPECT(c.calls == 1);
	/* the whole dump was consumed: next on the socket is the marker */
	memset(marker, 0, sizeof(marker));
	EXPECT(recv(w.sv[0], marker, sizeof(marker), MSG_DONTWAIT) ==
	       sizeof(marker));
	EXPECT_STR(marker, "marker");
	wire_close(&w);
	ibmcg_close(h);
}

static void foreign_messages_skipped(void)
{
	struct ibmcg *h = fake_handle();
	struct collect c = { 0 };
	struct nl_msg *msg;
	struct wire w;
	char ack[1024];

	wire_open(&w);
	msg = group_msg(IB_MCG_CMD_GROUP_GET, 5, true, 1);
	nlmsg_hdr(msg)->nlmsg_type = FAMILY + 1;
	wire_add_nl(&w, msg);
	wire_add(&w, ack, build_ack(ack, 5, 0, true, NULL, 0));
	wire_send(&w);
	EXPECT(ibmcg__recv_replies(h, w.sv[0], 5, collect_cb, &c) == 0);
	EXPECT(c.calls == 0);
	wire_close(&w);
	ibmcg_close(h);
}

static void large_datagram(void)
{
	struct ibmcg *h = fake_handle();
	struct collect c = { 0 };
	struct nl_msg *msg;
	struct nlmsghdr *nlh;
	int sv[2], sz = 200000;
	char *big, ack[1024];
	size_t len;

	EXPECT(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) == 0);
	EXPECT(setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz)) == 0);
	big = calloc(1, 120000);
	msg = nlmsg_alloc_size(130000);
	genlmsg_put(msg, 0, 8, FAMILY, 0, 0, IB_MCG_CMD_GROUP_GET, 1);
	nla_put_string(msg, IB_MCG_A_DEV_NAME, "mlx5_0");
	nla_put(msg, 250, 100000, big);		/* unknown, skipped */
	nlh = nlmsg_hdr(msg);
	len = build_ack(ack, 8, 0, true, NULL, 0);
	memcpy(big, nlh, nlh->nlmsg_len);
	memcpy(big + NLMSG_ALIGN(nlh->nlmsg_len), ack, len);
	len += NLMSG_ALIGN(nlh->nlmsg_len);
	EXPECT(send(sv[1], big, len, 0) == (ssize_t)len);

	EXPECT(ibmcg__recv_replies(h, sv[0], 8, collect_cb, &c) == 0);
	EXPECT(c.calls == 1);
	EXPECT_STR(c.last.dev_name, "mlx5_0");
	EXPECT(h->rxcap >= len);
	ibmcg__group_clear(&c.last);
	nlmsg_free(msg);
	free(big);
	close(sv[0]);
	close(sv[1]);
	ibmcg_close(h);
}

struct ev_log {
	int n;
	uint8_t cmds[4];
	bool is_port[4];
	char owner[IB_MCG_OWNER_MAX + 1];
	struct ibmcg_port port;		/* the last port event */
	bool group_null;		/* the last port event had no group */
	bool port_null;			/* the last group event had no port */
};

static int ev_cb(const struct ibmcg_event *ev, void *arg)
{
	struct ev_log *log = arg;

	log->is_port[log->n] = ev->port != NULL;
	log->cmds[log->n++] = ev->cmd;
	if (ev->port) {
		log->port = *ev->port;
		log->group_null = !ev->group;
	} else {
		log->port_null = !ev->port && ev->group;
	}
	if (ev->group && ev->group->nholders)
		strcpy(log->owner, ibmcg_group_holder(ev->group, 0)->owner);
	return 0;
}

static void events_parsed(void)
{
	struct ibmcg *h = fake_handle();
	struct ev_log log = { 0 };
	struct wire w;

	w.len = 0;
	wire_add_nl(&w, group_msg(IB_MCG_CMD_HOLDER_NEW_NTF, 0, false, 1));
	wire_add_nl(&w, group_msg(IB_MCG_CMD_GROUP_STATE_NTF, 0, true, -1));
	EXPECT(ibmcg__parse_events(h, w.buf, w.len, ev_cb, &log) == 2);
	EXPECT(log.n == 2);
	EXPECT(log.cmds[0] == IB_MCG_CMD_HOLDER_NEW_NTF);
	EXPECT(log.cmds[1] == IB_MCG_CMD_GROUP_STATE_NTF);
	EXPECT_STR(log.owner, "job:42");
	ibmcg_close(h);
}

static void events_rejoin_wave(void)
{
	struct ibmcg *h = fake_handle();
	struct ev_log log = { 0 };
	struct nl_msg *msg;
	struct wire w;

	/* an SM failover as the kernel reports it: wave start, a group
	 * state change, wave end
	 */
	w.len = 0;
	msg = ib_port_msg(IB_MCG_CMD_REJOIN_WAVE_START_NTF, 0, true);
	wire_add_nl(&w, msg);
	wire_add_nl(&w, ib_group_msg(IB_MCG_CMD_GROUP_STATE_NTF, 0,
				     IB_MCG_STATE_JOINED,
				     IB_MCG_REASON_NET_RESET, 0));
	wire_add_nl(&w, ib_port_msg(IB_MCG_CMD_REJOIN_WAVE_END_NTF, 0, true));
	EXPECT(ibmcg__parse_events(h, w.buf, w.len, ev_cb, &log) == 3);
	EXPECT(log.n == 3);
	EXPECT(log.cmds[0] == IB_MCG_CMD_REJOIN_WAVE_START_NTF &&
	       log.is_port[0]);
	EXPECT(log.cmds[1] == IB_MCG_CMD_GROUP_STATE_NTF && !log.is_port[1]);
	EXPECT(log.cmds[2] == IB_MCG_CMD_REJOIN_WAVE_END_NTF &&
	       log.is_port[2]);
	/* the port is filled, the group left empty, and the other way */
	EXPECT_STR(log.port.dev_name, "simhca0");
	EXPECT(log.port.port == 1 && log.port.dev_index == 5);
	EXPECT(log.port.rejoin_pending == 2 && log.port.rejoin_waves == 3);
	EXPECT(log.port.last_rejoin_wave_ms == 250);
	EXPECT(IBMCG_HAS(&log.port, IB_MCG_A_SM_LID) && log.port.sm_lid == 1);
	EXPECT(log.group_null);
	EXPECT(log.port_null);

	/* a malformed port event is reported, not passed on */
	w.len = 0;
	log.n = 0;
	msg = ib_port_msg(IB_MCG_CMD_REJOIN_WAVE_START_NTF, 0, false);
	nla_put_u8(msg, IB_MCG_A_REJOIN_PENDING, 1);
	wire_add_nl(&w, msg);
	EXPECT(ibmcg__parse_events(h, w.buf, w.len, ev_cb, &log) == -EPROTO);
	EXPECT(log.n == 0);
	EXPECT_STR(ibmcg_errmsg(h), "malformed ib_mcgroups event");
	ibmcg_close(h);
}

struct mlid_log {
	int n, changes;
	uint8_t mgid[16];
	uint16_t old_mlid, new_mlid;
};

static int mlid_cb(const struct ibmcg_event *ev, void *arg)
{
	struct mlid_log *log = arg;

	log->n++;
	if (ibmcg_event_mlid_change(ev, log->mgid, &log->old_mlid,
				    &log->new_mlid))
		log->changes++;
	return 0;
}

/*
 * An SA wipe that moved a group's MLID, as the kernel reports it: the
 * JOINED of the re-join, then the same state with reason mlid-changed and
 * both MLIDs. Only that one is an MLID change; without the old MLID, or
 * with another reason or command, it is not.
 */
static void events_mlid_changed(void)
{
	struct ibmcg *h = fake_handle();
	struct mlid_log log = { 0 };
	struct ibmcg_event ev = { .cmd = IB_MCG_CMD_GROUP_STATE_NTF };
	uint8_t want[16], mgid[16] = { 0 };
	uint16_t old_mlid = 1, new_mlid = 1;
	struct nl_msg *msg;
	struct wire w;

	ibmcg_mgid_parse("ff12:a01b:fe80::1:0", want, NULL);
	w.len = 0;
	wire_add_nl(&w, ib_group_msg(IB_MCG_CMD_GROUP_STATE_NTF, 0,
				     IB_MCG_STATE_JOINED, IB_MCG_REASON_JOIN,
				     0));
	msg = ib_group_msg(IB_MCG_CMD_GROUP_STATE_NTF, 0, IB_MCG_STATE_JOINED,
			   IB_MCG_REASON_MLID_CHANGED, 0);
	nla_put_u16(msg, IB_MCG_A_PREV_MLID, 0xc000);
	wire_add_nl(&w, msg);
	/* the reason without the old MLID (an older kernel): not one */
	wire_add_nl(&w, ib_group_msg(IB_MCG_CMD_GROUP_STATE_NTF, 0,
				     IB_MCG_STATE_JOINED,
				     IB_MCG_REASON_MLID_CHANGED, 0));
	/* a group-get carrying the old MLID, reason join: not one */
	msg = ib_group_msg(IB_MCG_CMD_GROUP_STATE_NTF, 0, IB_MCG_STATE_JOINED,
			   IB_MCG_REASON_JOIN, 0);
	nla_put_u16(msg, IB_MCG_A_PREV_MLID, 0xc000);
	wire_add_nl(&w, msg);
	EXPECT(ibmcg__parse_events(h, w.buf, w.len, mlid_cb, &log) == 4);
	EXPECT(log.n == 4);
	EXPECT(log.changes == 1);
	EXPECT(log.old_mlid == 0xc000 && log.new_mlid == 0xc004);
	EXPECT(!memcmp(log.mgid, want, 16));

	/* NULL outputs are allowed; no group, no change; nothing written */
	EXPECT(!ibmcg_event_mlid_change(&ev, mgid, &old_mlid, &new_mlid));
	EXPECT(!ibmcg_event_mlid_change(NULL, NULL, NULL, NULL));
	EXPECT(old_mlid == 1 && new_mlid == 1 && mgid[0] == 0);
	ibmcg_close(h);
}

static void unconnected_handle(void)
{
	struct ibmcg *h = ibmcg_alloc();
	struct ibmcg_group *groups;
	struct ibmcg_group g;
	uint8_t mgid[16] = { 0xff };
	size_t n;

	EXPECT(ibmcg__group_dump_rec(h, NULL, 0, false, &groups, &n) == -ENOTCONN);
	EXPECT_STR(ibmcg_strerror(h, -ENOTCONN), "not connected");
	EXPECT(ibmcg__group_get_rec(h, "mlx5_0", 1, mgid, &g) == -ENOTCONN);
	EXPECT(ibmcg_event_recv(h, ev_cb, NULL) == -ENOTCONN);
	EXPECT(ibmcg_event_fd(h) == -ENOTCONN);
	ibmcg_close(h);
}

static void request_validation(void)
{
	struct ibmcg *h = fake_handle();	/* no socket: never sends */
	struct ibmcg_join_args args = { .owner = "job:42" };
	struct ibmcg_group *groups;
	uint8_t mgid[16] = { 0xff };
	char longdev[80];
	size_t n;

	EXPECT(ibmcg__group_dump_rec(h, NULL, 1, false, &groups, &n) == -EINVAL);
	EXPECT_STR(ibmcg_errmsg(h), "a port filter needs a device");
	EXPECT(ibmcg__join_rec(h, NULL, 1, mgid, &args, NULL) == -EINVAL);
	EXPECT_STR(ibmcg_errmsg(h), "device name required");
	memset(longdev, 'd', 70);
	longdev[70] = '\0';
	EXPECT(ibmcg__join_rec(h, longdev, 1, mgid, &args, NULL) == -EINVAL);
	EXPECT_STR(ibmcg_errmsg(h), "device name too long");
	args.owner = "";
	EXPECT(ibmcg__join_rec(h, "mlx5_0", 1, mgid, &args, NULL) == -EINVAL);
	EXPECT_STR(ibmcg_errmsg(h), "owner must not be empty");
	args.owner = "x";
	args.join_state = IB_MCG_JOIN_FULL | IB_MCG_JOIN_NON_MEMBER;
	EXPECT(ibmcg__join_rec(h, "mlx5_0", 1, mgid, &args, NULL) == -EINVAL);
	EXPECT(ibmcg__leave_rec(h, "mlx5_0", 1, mgid, "x", 3, NULL) == -EINVAL);
	EXPECT(ibmcg__leave_rec(h, "mlx5_0", 1, mgid, NULL, 0, NULL) == -EINVAL);
	args.join_state = 0;
	args.set_linger = true;
	args.linger_ms = IB_MCG_LINGER_MAX_MS + 1;
	EXPECT(ibmcg__join_rec(h, "mlx5_0", 1, mgid, &args, NULL) == -EINVAL);
	EXPECT_STR(ibmcg_errmsg(h), "linger time is longer than one day");
	ibmcg_close(h);
}

/* A join with one create parameter out of range: refused, never sent. */
#define EXPECT_CREATE_REFUSED(h, field, v, text)			\
	do {								\
		struct ibmcg_join_args a_ = { .owner = "job:42" };	\
		uint8_t m_[16] = { 0xff, 0x12 };			\
									\
		a_.set_##field = true;					\
		a_.field = (v);						\
		EXPECT(ibmcg__join_rec(h, "mlx5_0", 1, m_, &a_, NULL) ==	\
		       -EINVAL);					\
		EXPECT_STR(ibmcg_errmsg(h), text);			\
	} while (0)

static void create_validation(void)
{
	struct ibmcg *h = fake_handle();	/* no socket: never sends */
	const char *mtu = "MTU must be an enum ib_mtu, 1 (256) to 5 (4096)";
	const char *rate = "rate must be an enum ib_rate, 2 (2.5 Gb/s) to 22 (600 Gb/s)";
	const char *pkey = "P_Key 0x0000 and 0x8000 are invalid";

	EXPECT_CREATE_REFUSED(h, pkey, 0, pkey);
	EXPECT_CREATE_REFUSED(h, pkey, 0x8000, pkey);
	EXPECT_CREATE_REFUSED(h, mtu, 0, mtu);
	EXPECT_CREATE_REFUSED(h, mtu, 6, mtu);
	EXPECT_CREATE_REFUSED(h, rate, 0, rate);
	EXPECT_CREATE_REFUSED(h, rate, 1, rate);
	EXPECT_CREATE_REFUSED(h, rate, 23, rate);
	EXPECT_CREATE_REFUSED(h, sl, 16, "SL must be 0..15");
	EXPECT_CREATE_REFUSED(h, flow_label, 0x100000,
			      "flow label must be 0..0xfffff (20 bits)");
	EXPECT_CREATE_REFUSED(h, scope, 16, "scope must be 0..15");
	ibmcg_close(h);
}

static void release_validation(void)
{
	struct ibmcg *h = fake_handle();	/* no socket: never sends */
	struct ibmcg_released *rel = (void *)1;
	uint32_t holds = 7;
	size_t n = 7;

	EXPECT(ibmcg__owner_release_rec(h, "", NULL, 0, &rel, &n, &holds) ==
	       -EINVAL);
	EXPECT_STR(ibmcg_errmsg(h), "owner must not be empty");
	/* outputs are cleared even on failure */
	EXPECT(rel == NULL && n == 0 && holds == 0);
	EXPECT(ibmcg__owner_release_rec(h, NULL, NULL, 0, NULL, NULL, NULL) ==
	       -EINVAL);
	EXPECT(ibmcg__owner_release_rec(h, "job 42", NULL, 0, NULL, NULL,
				   NULL) == -EINVAL);
	EXPECT(ibmcg__owner_release_rec(h, "job:42", NULL, 1, NULL, NULL,
				   NULL) == -EINVAL);
	EXPECT_STR(ibmcg_errmsg(h), "a port filter needs a device");
	EXPECT(ibmcg__owner_release_rec(h, "job:42", "", 0, NULL, NULL, NULL) ==
	       -EINVAL);
	EXPECT_STR(ibmcg_errmsg(h), "device name required");
	EXPECT(ibmcg__owner_release_rec(h, "job:42", "mlx5_0", 0, &rel, NULL,
				   NULL) == -EINVAL);
	ibmcg_close(h);

	h = ibmcg_alloc();
	EXPECT(ibmcg__owner_release_rec(h, "job:42", NULL, 0, NULL, NULL, NULL) ==
	       -ENOTCONN);
	ibmcg_close(h);
}

/*
 * A handle whose request socket is one end of an AF_UNIX datagram pair:
 * what the library sends arrives at *peer, and what the test queues at
 * *peer (through *w, if given, which is set up to send there) is the
 * kernel's answer. *seq is the sequence number of the next request. NULL,
 * and the case skipped, if there is no socket pair.
 */
static struct ibmcg *pair_handle(int *peer, uint32_t *seq, struct wire *w)
{
	struct ibmcg *h = ibmcg_alloc();
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv)) {
		ibmcg_close(h);
		ktap_skip("no socket pair here");
		return NULL;
	}
	h->fd = sv[0];
	h->family = FAMILY;
	*peer = sv[1];
	*seq = h->seq + 1;
	if (w) {
		w->sv[0] = -1;
		w->sv[1] = sv[1];
		w->len = 0;
	}
	return h;
}

/* The request the library sent, with flag set: its command and attributes. */
static int sent_msg(int peer, char *buf, size_t len, struct nlattr **tb,
		    uint8_t *cmd, uint16_t flag)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	ssize_t n = recv(peer, buf, len, MSG_DONTWAIT);

	if (n < (ssize_t)(NLMSG_HDRLEN + GENL_HDRLEN) ||
	    nlh->nlmsg_type != FAMILY || !(nlh->nlmsg_flags & flag) ||
	    genlmsg_parse(nlh, 0, tb, IB_MCG_A_MAX, NULL))
		return -EPROTO;
	*cmd = ((struct genlmsghdr *)nlmsg_data(nlh))->cmd;
	return 0;
}

/* An acked request. */
static int sent_request(int peer, char *buf, size_t len,
			struct nlattr **tb, uint8_t *cmd)
{
	return sent_msg(peer, buf, len, tb, cmd, NLM_F_ACK);
}

static void owner_release_exchange(void)
{
	struct nlattr *tb[IB_MCG_A_MAX + 1];
	struct ibmcg_released *rel;
	char buf[4096], ack[1024];
	uint32_t seq, holds;
	struct ibmcg *h;
	struct wire w;
	uint8_t cmd;
	size_t n;
	int peer;

	h = pair_handle(&peer, &seq, &w);
	if (!h)
		return;

	/* every hold of job:42 on mlx5_0 */
	wire_add_nl(&w, release_msg(seq, "job:42", 3));
	wire_add(&w, ack, build_ack(ack, seq, 0, true, NULL, 0));
	wire_send(&w);
	EXPECT(ibmcg__owner_release_rec(h, "job:42", "mlx5_0", 0, &rel, &n,
				   &holds) == 0);
	EXPECT(n == 3 && holds == 4);
	if (n == 3) {
		EXPECT_STR(rel[0].dev_name, "mlx5_0");
		EXPECT(rel[2].state == IB_MCG_STATE_LINGERING);
	}
	free(rel);
	EXPECT(sent_request(peer, buf, sizeof(buf), tb, &cmd) == 0);
	EXPECT(cmd == IB_MCG_CMD_OWNER_RELEASE);
	EXPECT(tb[IB_MCG_A_OWNER] &&
	       !strcmp(nla_get_string(tb[IB_MCG_A_OWNER]), "job:42"));
	EXPECT(tb[IB_MCG_A_DEV_NAME] &&
	       !strcmp(nla_get_string(tb[IB_MCG_A_DEV_NAME]), "mlx5_0"));
	EXPECT(!tb[IB_MCG_A_PORT] && !tb[IB_MCG_A_MGID]);

	/* an owner holding nothing, on one port, results not wanted */
	seq++;
	wire_add_nl(&w, release_msg(seq, "nobody", 0));
	wire_add(&w, ack, build_ack(ack, seq, 0, true, NULL, 0));
	wire_send(&w);
	holds = 99;
	EXPECT(ibmcg__owner_release_rec(h, "nobody", "mlx5_0", 2, NULL, NULL,
				   &holds) == 0);
	EXPECT(holds == 0);
	EXPECT(sent_request(peer, buf, sizeof(buf), tb, &cmd) == 0);
	EXPECT(tb[IB_MCG_A_PORT] && nla_get_u32(tb[IB_MCG_A_PORT]) == 2);

	/* everywhere: no device in the request; the kernel refuses */
	seq++;
	wire_add(&w, ack, build_ack(ack, seq, -EPERM, true, NULL, 0));
	wire_send(&w);
	rel = (void *)1;
	EXPECT(ibmcg__owner_release_rec(h, "job:42", NULL, 0, &rel, &n, NULL) ==
	       -EPERM);
	EXPECT(rel == NULL && n == 0);
	EXPECT(sent_request(peer, buf, sizeof(buf), tb, &cmd) == 0);
	EXPECT(!tb[IB_MCG_A_DEV_NAME] && !tb[IB_MCG_A_DEV_INDEX] &&
	       !tb[IB_MCG_A_PORT]);

	/* an ack without a reply is a protocol error */
	seq++;
	wire_add(&w, ack, build_ack(ack, seq, 0, true, NULL, 0));
	wire_send(&w);
	EXPECT(ibmcg__owner_release_rec(h, "job:42", NULL, 0, &rel, &n, NULL) ==
	       -EPROTO);
	EXPECT(rel == NULL);
	close(peer);
	ibmcg_close(h);
}

static void join_linger_exchange(void)
{
	struct ibmcg_join_args args = { .owner = "job:42" };
	struct nlattr *tb[IB_MCG_A_MAX + 1];
	char buf[4096], ack[1024];
	struct ibmcg_group g;
	struct ibmcg *h;
	struct wire w;
	uint32_t seq;
	uint8_t cmd;
	size_t i;
	int peer;
	static const struct {
		bool set;
		uint32_t ms;
	} cases[] = {
		{ true, 30000 }, { true, 0 }, { true, IB_MCG_LINGER_MAX_MS },
		{ false, 5 },
	};
	uint8_t mgid[16];

	h = pair_handle(&peer, &seq, &w);
	if (!h)
		return;
	ibmcg_mgid_parse("239.1.1.1", mgid, NULL);
	for (i = 0; i < ARRAY_SIZE(cases); i++, seq++) {
		wire_add_nl(&w, group_msg(IB_MCG_CMD_JOIN, seq, true, 1));
		wire_add(&w, ack, build_ack(ack, seq, 0, true, NULL, 0));
		wire_send(&w);
		args.set_linger = cases[i].set;
		args.linger_ms = cases[i].ms;
		EXPECT(ibmcg__join_rec(h, "mlx5_0", 1, mgid, &args, &g) == 0);
		ibmcg__group_clear(&g);
		EXPECT(sent_request(peer, buf, sizeof(buf), tb, &cmd) == 0);
		EXPECT(cmd == IB_MCG_CMD_JOIN);
		if (cases[i].set)
			EXPECT(tb[IB_MCG_A_LINGER_MS] &&
			       nla_get_u32(tb[IB_MCG_A_LINGER_MS]) ==
			       cases[i].ms);
		else
			EXPECT(!tb[IB_MCG_A_LINGER_MS]);
	}

	/* the kernel's refusal of a join past a limit reaches the caller */
	wire_add(&w, ack, build_ack(ack, seq, -ENOSPC, true,
				    "port holds its budget of groups (module parameter max_groups)",
				    0));
	wire_send(&w);
	args.set_linger = false;
	EXPECT(ibmcg__join_rec(h, "mlx5_0", 1, mgid, &args, NULL) == -ENOSPC);
	EXPECT_STR(ibmcg_strerror(h, -ENOSPC),
		   "port holds its budget of groups (module parameter max_groups)");
	close(peer);
	ibmcg_close(h);
}

/* The attributes of one join request, after a canned reply. */
static void join_once(struct ibmcg *h, int peer, uint32_t seq,
		      const uint8_t *mgid, const struct ibmcg_join_args *args,
		      struct ibmcg_group *g, char *buf, size_t len,
		      struct nlattr **tb)
{
	struct wire w = { .sv = { -1, peer } };
	char ack[1024];
	uint8_t cmd;

	w.len = 0;
	wire_add_nl(&w, ib_group_msg(IB_MCG_CMD_JOIN, seq, IB_MCG_STATE_JOINED,
				     IB_MCG_REASON_JOIN, 0));
	wire_add(&w, ack, build_ack(ack, seq, 0, true, NULL, 0));
	wire_send(&w);
	EXPECT(ibmcg__join_rec(h, "simhca0", 1, mgid, args, g) == 0);
	EXPECT(sent_request(peer, buf, len, tb, &cmd) == 0);
	EXPECT(cmd == IB_MCG_CMD_JOIN);
}

static void join_create_exchange(void)
{
	static const uint8_t zero[16];
	struct nlattr *tb[IB_MCG_A_MAX + 1];
	struct ibmcg_join_args args;
	struct ibmcg_group g;
	uint8_t mgid[16];
	char buf[4096], txt[IBMCG_MGID_STRLEN];
	struct ibmcg *h;
	uint32_t seq;
	int peer, a;

	h = pair_handle(&peer, &seq, NULL);
	if (!h)
		return;
	ibmcg_mgid_parse("ff12:401b::1", mgid, NULL);

	/* every create parameter, each with its protocol type */
	memset(&args, 0, sizeof(args));
	args.owner = "job:42";
	args.set_pkey = true;
	args.pkey = 0x8001;
	args.set_mtu = true;
	args.mtu = 5;
	args.set_rate = true;
	args.rate = 22;
	args.set_sl = true;
	args.sl = 15;
	args.set_flow_label = true;
	args.flow_label = 0xfffff;
	args.set_tclass = true;
	args.tclass = 255;
	args.set_hop_limit = true;
	args.hop_limit = 64;
	args.set_scope = true;
	args.scope = 5;
	join_once(h, peer, seq++, zero, &args, &g, buf, sizeof(buf), tb);
	ibmcg__group_clear(&g);
	EXPECT(tb[IB_MCG_A_MGID] && !memcmp(nla_data(tb[IB_MCG_A_MGID]), zero,
					     16));
	EXPECT(tb[IB_MCG_A_PKEY] && nla_len(tb[IB_MCG_A_PKEY]) == 2 &&
	       nla_get_u16(tb[IB_MCG_A_PKEY]) == 0x8001);
	EXPECT(tb[IB_MCG_A_FLOW_LABEL] && nla_len(tb[IB_MCG_A_FLOW_LABEL]) == 4 &&
	       nla_get_u32(tb[IB_MCG_A_FLOW_LABEL]) == 0xfffff);
	for (a = IB_MCG_A_MTU; a <= IB_MCG_A_HOP_LIMIT; a++)
		if (a != IB_MCG_A_FLOW_LABEL)
			EXPECT(tb[a] && nla_len(tb[a]) == 1);
	EXPECT(nla_get_u8(tb[IB_MCG_A_MTU]) == 5);
	EXPECT(nla_get_u8(tb[IB_MCG_A_RATE]) == 22);
	EXPECT(nla_get_u8(tb[IB_MCG_A_SL]) == 15);
	EXPECT(nla_get_u8(tb[IB_MCG_A_TCLASS]) == 255);
	EXPECT(nla_get_u8(tb[IB_MCG_A_HOP_LIMIT]) == 64);
	EXPECT(tb[IB_MCG_A_SCOPE] && nla_len(tb[IB_MCG_A_SCOPE]) == 1 &&
	       nla_get_u8(tb[IB_MCG_A_SCOPE]) == 5);
	/* the Q_Key is left to the kernel's default */
	EXPECT(!tb[IB_MCG_A_QKEY]);

	/* "create" alone sends the default Q_Key, a create parameter */
	memset(&args, 0, sizeof(args));
	args.owner = "job:42";
	args.create = true;
	join_once(h, peer, seq++, mgid, &args, &g, buf, sizeof(buf), tb);
	ibmcg__group_clear(&g);
	EXPECT(tb[IB_MCG_A_QKEY] &&
	       nla_get_u32(tb[IB_MCG_A_QKEY]) == IB_MCG_DEFAULT_QKEY);
	EXPECT(!tb[IB_MCG_A_PKEY] && !tb[IB_MCG_A_MTU] && !tb[IB_MCG_A_SCOPE]);

	/* ... or the one given */
	args.set_qkey = true;
	args.qkey = 0x11111111;
	join_once(h, peer, seq++, mgid, &args, &g, buf, sizeof(buf), tb);
	ibmcg__group_clear(&g);
	EXPECT(tb[IB_MCG_A_QKEY] &&
	       nla_get_u32(tb[IB_MCG_A_QKEY]) == 0x11111111);

	/* a plain join names an existing group: no create parameter */
	memset(&args, 0, sizeof(args));
	args.owner = "job:42";
	join_once(h, peer, seq++, mgid, &args, &g, buf, sizeof(buf), tb);
	for (a = IB_MCG_A_QKEY; a <= IB_MCG_A_HOP_LIMIT; a++)
		EXPECT(!tb[a]);
	EXPECT(!tb[IB_MCG_A_SCOPE]);
	/* the reply's MGID is what the caller learns (SA-assigned) */
	EXPECT_STR(ibmcg_mgid_format(g.mgid, txt, sizeof(txt)),
		   "ff12:a01b:fe80::1:0");
	EXPECT(g.backend == IB_MCG_BACKEND_IB_SA && g.mlid == 0xc004);
	ibmcg__group_clear(&g);
	close(peer);
	ibmcg_close(h);
}

static int count_cb(const struct nlmsghdr *nlh, void *arg)
{
	(void)nlh;
	(*(int *)arg)++;
	return 0;
}

/*
 * The real kernel's acks, from the always present "nlctrl" family: a
 * policy violation must come back with its extended ack text, with the
 * request capped or echoed, and a dump must end cleanly at NLMSG_DONE.
 */
static void kernel_acks(bool cap_ack)
{
	struct ibmcg *h = ibmcg_alloc();
	char name[100];
	int one = 1, off = 0, calls = 0, fd;
	struct nl_msg *msg;
	uint32_t seq;

	h->fd = ibmcg__nl_open(false, &h->portid);
	if (h->fd < 0) {
		ktap_skip("no generic netlink here");
		ibmcg_close(h);
		return;
	}
	h->family = GENL_ID_CTRL;
	fd = h->fd;
	if (setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, cap_ack ? &one : &off,
		       sizeof(one))) {
		ktap_skip("kernel without extended acks");
		ibmcg_close(h);
		return;
	}

	memset(name, 'x', sizeof(name) - 1);	/* longer than GENL_NAMSIZ */
	name[sizeof(name) - 1] = '\0';
	msg = nlmsg_alloc();
	genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, GENL_ID_CTRL, 0,
		    NLM_F_REQUEST | NLM_F_ACK, CTRL_CMD_GETFAMILY, 1);
	nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, name);
	seq = nlmsg_hdr(msg)->nlmsg_seq = ++h->seq;
	EXPECT(send(fd, nlmsg_hdr(msg), nlmsg_hdr(msg)->nlmsg_len, 0) > 0);
	EXPECT(ibmcg__recv_replies(h, fd, seq, count_cb, &calls) == -EINVAL);
	EXPECT(ibmcg_errmsg(h) != NULL);
	if (ibmcg_errmsg(h))
		printf("# extack: %s\n", ibmcg_errmsg(h));
	EXPECT(calls == 0);
	nlmsg_free(msg);

	h->errmsg[0] = '\0';
	msg = nlmsg_alloc();
	genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, GENL_ID_CTRL, 0,
		    NLM_F_REQUEST | NLM_F_DUMP, CTRL_CMD_GETFAMILY, 1);
	seq = nlmsg_hdr(msg)->nlmsg_seq = ++h->seq;
	EXPECT(send(fd, nlmsg_hdr(msg), nlmsg_hdr(msg)->nlmsg_len, 0) > 0);
	EXPECT(ibmcg__recv_replies(h, fd, seq, count_cb, &calls) == 0);
	EXPECT(calls >= 1);	/* at least nlctrl itself */
	nlmsg_free(msg);
	ibmcg_close(h);
}

/* The list view is asked for by ibmcg_group_list() where the kernel knows it. */
static void group_list_asks_if_known(void)
{
	static const struct {
		int maxattr;
		bool list, flag;
	} cases[] = {
		{ IB_MCG_A_LIST_BRIEF, true, true },
		{ IB_MCG_A_LIST_BRIEF - 1, true, false },	/* 0.4.0 */
		{ IB_MCG_A_LIST_BRIEF, false, false },	/* ibmcg_group_dump() */
	};
	struct nlattr *tb[IB_MCG_A_MAX + 1];
	struct ibmcg_group **groups;
	char buf[4096], done[1024];
	struct ibmcg *h;
	struct wire w;
	uint32_t seq;
	uint8_t cmd;
	size_t i, n;
	int peer, err;

	h = pair_handle(&peer, &seq, &w);
	if (!h)
		return;
	for (i = 0; i < ARRAY_SIZE(cases); i++, seq++) {
		h->maxattr = cases[i].maxattr;
		wire_add_nl(&w, group_msg(IB_MCG_CMD_GROUP_GET, seq, true, 1));
		wire_add(&w, done, build_done(done, seq, 0, 0, NULL));
		wire_send(&w);
		err = cases[i].list ? ibmcg_group_list(h, NULL, 0, &groups, &n) :
				      ibmcg_group_dump(h, NULL, 0, &groups, &n);
		EXPECT(err == 0 && n == 1);
		if (!err)
			ibmcg_groups_free(groups);
		EXPECT(sent_msg(peer, buf, sizeof(buf), tb, &cmd,
				NLM_F_DUMP) == 0);
		EXPECT(cmd == IB_MCG_CMD_GROUP_GET);
		EXPECT(!!tb[IB_MCG_A_LIST_BRIEF] == cases[i].flag);
	}
	close(peer);
	ibmcg_close(h);
}


static void kernel_acks_capped(void)
{
	kernel_acks(true);
}

static void kernel_acks_uncapped(void)
{
	kernel_acks(false);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(parse_group_full),
	KTAP_CASE(parse_group_no_record),
	KTAP_CASE(parse_group_ignores_unknown),
	KTAP_CASE(parse_group_lingering),
	KTAP_CASE(parse_group_rejects),
	KTAP_CASE(parse_group_attr_rules),
	KTAP_CASE(parse_port_full),
	KTAP_CASE(parse_port_old_kernel),
	KTAP_CASE(parse_group_ib),
	KTAP_CASE(parse_port_ib),
	KTAP_CASE(parse_owner_release),
	KTAP_CASE(parse_owner_release_nothing),
	KTAP_CASE(merge_owner_release_parts),
	KTAP_CASE(parse_group_wrapped_holders),
	KTAP_CASE(parse_owner_release_wrapped),
	KTAP_CASE(parse_owner_release_rejects),
	KTAP_CASE(ack_extack_capped),
	KTAP_CASE(ack_extack_uncapped),
	KTAP_CASE(ack_missing_attr),
	KTAP_CASE(ack_plain),
	KTAP_CASE(done_with_error),
	KTAP_CASE(reply_then_ack),
	KTAP_CASE(error_ack),
	KTAP_CASE(dump_complete),
	KTAP_CASE(dump_interrupted),
	KTAP_CASE(dump_error_in_done),
	KTAP_CASE(callback_error_drains),
	KTAP_CASE(foreign_messages_skipped),
	KTAP_CASE(large_datagram),
	KTAP_CASE(events_parsed),
	KTAP_CASE(events_rejoin_wave),
	KTAP_CASE(events_mlid_changed),
	KTAP_CASE(unconnected_handle),
	KTAP_CASE(request_validation),
	KTAP_CASE(create_validation),
	KTAP_CASE(release_validation),
	KTAP_CASE(owner_release_exchange),
	KTAP_CASE(join_linger_exchange),
	KTAP_CASE(join_create_exchange),
	KTAP_CASE(join_watch_outcome),
	KTAP_CASE(join_watch_refused_hold),
	KTAP_CASE(group_list_asks_if_known),
	KTAP_CASE(kernel_acks_capped),
	KTAP_CASE(kernel_acks_uncapped),
};

KTAP_MAIN(cases)
