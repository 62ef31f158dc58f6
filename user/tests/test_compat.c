// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The LIBIBMCG_1 ABI kept for binaries linked against libibmcg 0.2.0:
 * the frozen structures of compat_v1.h still have 0.2.0's layout, and the
 * conversion of current groups and ports into them (compat_conv.c) copies
 * every field, the presence mask and the holders.
 */
#include <stddef.h>
#include <stdlib.h>

#include "ibmcg_priv.h"
#include "compat_v1.h"
#include "ktap.h"

#define OFF(t, f)	offsetof(struct t, f)

/* Measured on the 0.2.0 header (x86_64, LP64). */
static void layout_is_0_2_0(void)
{
#if defined(__x86_64__)
	EXPECT(sizeof(struct ibmcg_group_v1) == 176);
	EXPECT(OFF(ibmcg_group_v1, present) == 0);
	EXPECT(OFF(ibmcg_group_v1, mgid) == 80);
	EXPECT(OFF(ibmcg_group_v1, mlid) == 106);
	EXPECT(OFF(ibmcg_group_v1, qkey) == 108);
	EXPECT(OFF(ibmcg_group_v1, port_gid) == 126);
	EXPECT(OFF(ibmcg_group_v1, nholders) == 152);
	EXPECT(OFF(ibmcg_group_v1, holders) == 160);
	EXPECT(OFF(ibmcg_group_v1, linger_left_ms) == 172);
	EXPECT(sizeof(struct ibmcg_holder_v1) == 88);
	EXPECT(OFF(ibmcg_holder_v1, age_ms) == 80);
	EXPECT(sizeof(struct ibmcg_port_v1) == 240);
	EXPECT(OFF(ibmcg_port_v1, netdev) == 83);
	EXPECT(OFF(ibmcg_port_v1, joins) == 128);
	EXPECT(OFF(ibmcg_port_v1, max_owner_holds) == 172);
	EXPECT(OFF(ibmcg_port_v1, sa_timeouts) == 232);
	EXPECT(sizeof(struct ibmcg_join_args_v1) == 56);
	EXPECT(OFF(ibmcg_join_args_v1, qkey) == 20);
	EXPECT(OFF(ibmcg_join_args_v1, linger_ms) == 28);
	EXPECT(OFF(ibmcg_join_args_v1, scope) == 53);
	EXPECT(sizeof(struct ibmcg_released_v1) == 92);
	EXPECT(OFF(ibmcg_released_v1, state) == 89);
	EXPECT(sizeof(struct ibmcg_event_v1) == 432);
	EXPECT(OFF(ibmcg_event_v1, is_port) == 184);
	EXPECT(OFF(ibmcg_event_v1, port) == 192);
#else
	ktap_skip("the layout was measured on x86_64");
#endif
}

static void group_converted(void)
{
	struct ibmcg_group g;
	struct ibmcg_group_v1 o;
	size_t i;

	memset(&g, 0, sizeof(g));
	strcpy(g.dev_name, "mlx5_0");
	g.dev_index = 3;
	g.port = 2;
	for (i = 0; i < IBMCG_GID_LEN; i++) {
		g.mgid[i] = 0xf0 + i;
		g.port_gid[i] = 0x10 + i;
	}
	g.state = 4;
	g.reason = 5;
	g.error = 6;
	g.join_state = 7;
	g.backend = 8;
	g.mlid = 0xc009;
	g.qkey = 0x0a0b0c0d;
	g.pkey = 0x8001;
	g.mtu = 4;
	g.rate = 7;
	g.sl = 11;
	g.flow_label = 0x12345;
	g.tclass = 13;
	g.hop_limit = 14;
	g.sgid_index = 15;
	g.linger_ms = 16000;
	g.linger_left_ms = 1700;
	ibmcg_attr_set(g.present, IB_MCG_A_MLID);
	ibmcg_attr_set(g.present, IB_MCG_A_LINGER_LEFT_MS);
	g.nholders = 2;
	g.holders = calloc(2, sizeof(*g.holders));
	if (!g.holders)
		return;
	strcpy(g.holders[0].owner, "job:1");
	g.holders[0].join_state = 1;
	g.holders[0].flags = IB_MCG_F_BOUND;
	g.holders[0].nl_portid = 4242;
	g.holders[0].age_ms = 99;
	strcpy(g.holders[1].owner, "admin");

	EXPECT(ibmcg__group_to_v1(&g, &o) == 0);
	EXPECT(!g.holders && !g.nholders);	/* emptied */
	EXPECT_STR(o.dev_name, "mlx5_0");
	EXPECT(o.dev_index == 3 && o.port == 2);
	for (i = 0; i < IBMCG_GID_LEN; i++)
		EXPECT(o.mgid[i] == 0xf0 + i && o.port_gid[i] == 0x10 + i);
	EXPECT(o.state == 4 && o.reason == 5 && o.error == 6 &&
	       o.join_state == 7 && o.backend == 8);
	EXPECT(o.mlid == 0xc009 && o.qkey == 0x0a0b0c0d && o.pkey == 0x8001 &&
	       o.mtu == 4 && o.rate == 7 && o.sl == 11);
	EXPECT(o.flow_label == 0x12345 && o.tclass == 13 &&
	       o.hop_limit == 14 && o.sgid_index == 15);
	EXPECT(o.linger_ms == 16000 && o.linger_left_ms == 1700);
	EXPECT(o.present == ((1ULL << IB_MCG_A_MLID) |
			     (1ULL << IB_MCG_A_LINGER_LEFT_MS)));
	EXPECT(o.nholders == 2 && o.holders);
	if (o.holders) {
		EXPECT_STR(o.holders[0].owner, "job:1");
		EXPECT(o.holders[0].join_state == 1 &&
		       o.holders[0].flags == IB_MCG_F_BOUND &&
		       o.holders[0].nl_portid == 4242 &&
		       o.holders[0].age_ms == 99);
		EXPECT_STR(o.holders[1].owner, "admin");
	}
	free(o.holders);
}

static void port_converted(void)
{
	struct ibmcg_port p;
	struct ibmcg_port_v1 o;
	uint32_t *u32[] = {
		&p.dev_index, &p.port, &p.ifindex, &p.max_mcast_grp,
		&p.max_mcast_qp_attach, &p.max_total_mcast_qp_attach,
		&p.groups, &p.holder_count, &p.max_groups, &p.max_owner_holds,
		&p.lid, &p.sm_lid, &p.last_sm_lid, &p.last_rejoin_wave_ms,
		&p.rejoin_pending,
	};
	uint32_t *o32[] = {
		&o.dev_index, &o.port, &o.ifindex, &o.max_mcast_grp,
		&o.max_mcast_qp_attach, &o.max_total_mcast_qp_attach,
		&o.groups, &o.holder_count, &o.max_groups, &o.max_owner_holds,
		&o.lid, &o.sm_lid, &o.last_sm_lid, &o.last_rejoin_wave_ms,
		&o.rejoin_pending,
	};
	uint64_t *u64[] = {
		&p.joins, &p.leaves, &p.join_errors, &p.linger_hits,
		&p.linger_expired, &p.sm_reregisters, &p.rejoin_waves,
		&p.group_rejoins, &p.rejoin_failures, &p.sa_timeouts,
	};
	uint64_t *o64[] = {
		&o.joins, &o.leaves, &o.join_errors, &o.linger_hits,
		&o.linger_expired, &o.sm_reregisters, &o.rejoin_waves,
		&o.group_rejoins, &o.rejoin_failures, &o.sa_timeouts,
	};
	size_t i;

	memset(&p, 0, sizeof(p));
	strcpy(p.dev_name, "rxe0");
	strcpy(p.netdev, "veth0");
	p.link_layer = 2;
	p.port_state = 4;
	p.backend = 1;
	for (i = 0; i < sizeof(u32) / sizeof(u32[0]); i++)
		*u32[i] = 1000 + i;
	for (i = 0; i < sizeof(u64) / sizeof(u64[0]); i++)
		*u64[i] = (1ULL << 40) + i;
	ibmcg_attr_set(p.present, IB_MCG_A_LID);
	ibmcg__port_to_v1(&p, &o);
	EXPECT_STR(o.dev_name, "rxe0");
	EXPECT_STR(o.netdev, "veth0");
	EXPECT(o.link_layer == 2 && o.port_state == 4 && o.backend == 1);
	for (i = 0; i < sizeof(u32) / sizeof(u32[0]); i++)
		EXPECT(*o32[i] == 1000 + i);
	for (i = 0; i < sizeof(u64) / sizeof(u64[0]); i++)
		EXPECT(*o64[i] == (1ULL << 40) + i);
	EXPECT(o.present == 1ULL << IB_MCG_A_LID);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(layout_is_0_2_0),
	KTAP_CASE(group_converted),
	KTAP_CASE(port_converted),
};

KTAP_MAIN(cases)
