// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * libibmcg as an application (an MPI or collectives library) uses it: hold
 * a group, read the record for ibv_attach_mcast(), see events, and have a
 * bound hold go away with the handle. Also: a dump (and a get, and a
 * list) of a group with more holders than fit in one netlink message comes
 * back as one group, an owner release of thousands of holds reports every
 * one, and a list agrees with a dump.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "mcg_test.h"
#include "ibmcg.h"

#define DEV "rxe0"

FIXTURE(lib) {
	struct ibmcg *h;
	uint8_t mgid[16];
};

FIXTURE_SETUP(lib)
{
	ASSERT_EQ(0, mcg_env_setup());
	self->h = ibmcg_alloc();
	ASSERT_NE(NULL, self->h);
	ASSERT_EQ(0, ibmcg_connect(self->h));
	ASSERT_EQ(0, ibmcg_mgid_parse("239.7.7.7", self->mgid, NULL));
}

FIXTURE_TEARDOWN(lib)
{
	ibmcg_close(self->h);
}

TEST_F(lib, join_gives_the_record_and_get_agrees)
{
	struct ibmcg_join_args args = IBMCG_JOIN_ARGS_INIT;
	struct ibmcg_group *g, *got;

	args.owner = "mpi:1";
	args.set_qkey = true;
	args.qkey = 0x1234;
	ASSERT_EQ(0, ibmcg_join(self->h, DEV, 1, self->mgid, &args, &g));
	EXPECT_EQ(IB_MCG_STATE_JOINED, g->state);
	EXPECT_EQ(0x1234u, g->qkey);
	EXPECT_EQ(0xffff, g->pkey);
	EXPECT_EQ(0, g->mlid);
	EXPECT_LE(1, g->mtu);
	EXPECT_TRUE(ibmcg_group_has(g, IB_MCG_A_QKEY));
	EXPECT_TRUE(IBMCG_HAS(g, IB_MCG_A_MTU));
	EXPECT_FALSE(ibmcg_group_has(g, IB_MCG_A_LINGER_LEFT_MS));
	EXPECT_EQ(1u, g->nholders);
	EXPECT_STREQ("mpi:1", ibmcg_group_holder(g, 0)->owner);
	EXPECT_EQ(NULL, ibmcg_group_holder(g, 1));
	EXPECT_EQ(0, memcmp(g->mgid, self->mgid, 16));

	ASSERT_EQ(0, ibmcg_group_get(self->h, DEV, 1, self->mgid, &got));
	EXPECT_EQ(g->qkey, got->qkey);
	EXPECT_EQ(g->sgid_index, got->sgid_index);
	EXPECT_EQ(0, memcmp(g->port_gid, got->port_gid, 16));
	ibmcg_group_free(got);
	ibmcg_group_free(g);

	ASSERT_EQ(0, ibmcg_leave(self->h, DEV, 1, self->mgid, "mpi:1", 0, &g));
	EXPECT_EQ(IB_MCG_STATE_RELEASED, g->state);
	ibmcg_group_free(g);
	EXPECT_EQ(-ENOENT, ibmcg_group_get(self->h, DEV, 1, self->mgid, &got));
	ASSERT_NE(NULL, ibmcg_errmsg(self->h));
	EXPECT_NE(NULL, strstr(ibmcg_errmsg(self->h), "no such group"));
}

TEST_F(lib, bound_hold_dies_with_the_handle)
{
	struct ibmcg_join_args args = IBMCG_JOIN_ARGS_INIT;
	struct ibmcg *other = ibmcg_alloc();

	args.owner = "mpi:2";
	args.flags = IB_MCG_F_BOUND;
	ASSERT_NE(NULL, other);
	ASSERT_EQ(0, ibmcg_connect(other));
	ASSERT_EQ(0, ibmcg_join(other, DEV, 1, self->mgid, &args, NULL));
	EXPECT_EQ(1, mcg_sysfs_counter(DEV, "holders"));
	/* Another socket cannot take over the bound hold. */
	EXPECT_EQ(-EBUSY, ibmcg_join(self->h, DEV, 1, self->mgid, &args, NULL));
	ibmcg_close(other);
	EXPECT_EQ(0, mcg_sysfs_counter(DEV, "holders"));
	EXPECT_EQ(0, mcg_sysfs_counter(DEV, "groups"));
}

struct seen {
	int new_group, new_holder, del_holder, del_group;
	int bad;		/* a group event without its group */
};

static int count_event(const struct ibmcg_event *ev, void *arg)
{
	struct seen *s = arg;

	if (!ev->group || ev->port || ev->group->port != 1)
		s->bad++;
	switch (ev->cmd) {
	case IB_MCG_CMD_GROUP_NEW_NTF:
		s->new_group++;
		break;
	case IB_MCG_CMD_HOLDER_NEW_NTF:
		s->new_holder++;
		break;
	case IB_MCG_CMD_HOLDER_DEL_NTF:
		s->del_holder++;
		break;
	case IB_MCG_CMD_GROUP_DEL_NTF:
		s->del_group++;
		break;
	}
	return 0;
}

TEST_F(lib, events_follow_join_and_leave)
{
	struct ibmcg_join_args args = IBMCG_JOIN_ARGS_INIT;
	struct ibmcg *mon = ibmcg_alloc();
	struct seen s = {};
	struct pollfd pfd;
	int i;

	args.owner = "mpi:3";
	ASSERT_NE(NULL, mon);
	ASSERT_EQ(0, ibmcg_connect(mon));
	ASSERT_EQ(0, ibmcg_event_subscribe(mon));
	ASSERT_EQ(0, ibmcg_join(self->h, DEV, 1, self->mgid, &args, NULL));
	ASSERT_EQ(0, ibmcg_leave(self->h, DEV, 1, self->mgid, "mpi:3", 0,
				 NULL));
	pfd.fd = ibmcg_event_fd(mon);
	pfd.events = POLLIN;
	for (i = 0; i < 8 && s.del_group == 0; i++) {
		if (poll(&pfd, 1, 2000) <= 0)
			break;
		ASSERT_LE(0, ibmcg_event_recv(mon, count_event, &s));
	}
	EXPECT_EQ(1, s.new_group);
	EXPECT_EQ(1, s.new_holder);
	EXPECT_EQ(1, s.del_holder);
	EXPECT_EQ(1, s.del_group);
	EXPECT_EQ(0, s.bad);
	ibmcg_close(mon);
}

TEST_F(lib, dump_merges_a_group_split_over_messages)
{
	const int owners = 1000;
	struct ibmcg_join_args args = IBMCG_JOIN_ARGS_INIT;
	struct ibmcg_group **groups, *one;
	char owner[32];
	size_t n, i;
	int k;

	for (k = 0; k < owners; k++) {
		snprintf(owner, sizeof(owner), "rank-%d", k);
		args.owner = owner;
		ASSERT_EQ(0, ibmcg_join(self->h, DEV, 1, self->mgid, &args,
					NULL));
	}
	ASSERT_EQ(0, ibmcg_group_dump(self->h, DEV, 1, &groups, &n));
	ASSERT_EQ(1u, n);
	EXPECT_EQ(NULL, groups[1]);		/* NULL-terminated */
	EXPECT_EQ((size_t)owners, groups[0]->nholders);
	for (i = 1; i < groups[0]->nholders; i++)
		if (!strcmp(ibmcg_group_holder(groups[0], i)->owner,
			    ibmcg_group_holder(groups[0], i - 1)->owner))
			break;
	EXPECT_EQ(groups[0]->nholders, i);	/* no holder twice */
	EXPECT_FALSE(ibmcg_dump_inconsistent(self->h));
	ibmcg_groups_free(groups);

	/* The list view too (fewer bytes, still several messages). */
	ASSERT_EQ(0, ibmcg_group_list(self->h, DEV, 1, &groups, &n));
	ASSERT_EQ(1u, n);
	EXPECT_EQ((size_t)owners, groups[0]->nholders);
	EXPECT_STREQ("rank-999",
		     ibmcg_group_holder(groups[0], owners - 1)->owner);
	ibmcg_groups_free(groups);

	/* A get of the group: every holder too (version 2: a dump). */
	EXPECT_EQ(2, ibmcg_protocol_version(self->h));
	ASSERT_EQ(0, ibmcg_group_get(self->h, DEV, 1, self->mgid, &one));
	EXPECT_EQ((size_t)owners, one->nholders);
	ibmcg_group_free(one);

	for (k = 0; k < owners; k++) {
		snprintf(owner, sizeof(owner), "rank-%d", k);
		ASSERT_EQ(0, ibmcg_leave(self->h, DEV, 1, self->mgid, owner, 0,
					 NULL));
	}
	EXPECT_EQ(0, mcg_sysfs_counter(DEV, "groups"));
}

/* An epilog's release of 2,000 holds: all released, all reported. */
TEST_F(lib, owner_release_reports_every_group)
{
	const int count = 2000;
	struct ibmcg_join_args args = IBMCG_JOIN_ARGS_INIT;
	struct ibmcg_released **rel;
	uint8_t mgid[16];
	uint32_t holds;
	size_t n;
	int k;

	args.owner = "job:7";
	memcpy(mgid, self->mgid, 16);
	for (k = 0; k < count; k++) {
		mgid[14] = 8 + k / 256;
		mgid[15] = k % 256;
		ASSERT_EQ(0, ibmcg_join(self->h, DEV, 1, mgid, &args, NULL));
	}
	ASSERT_EQ(0, ibmcg_owner_release(self->h, "job:7", NULL, 0, &rel, &n,
					 &holds));
	EXPECT_EQ((uint32_t)count, holds);
	EXPECT_EQ((size_t)count, n);
	for (k = 0; k < (int)n; k++)
		if (rel[k]->state != IB_MCG_STATE_RELEASED)
			break;
	EXPECT_EQ(count, k);
	ibmcg_released_free(rel);
	EXPECT_EQ(0, mcg_sysfs_counter(DEV, "groups"));
}

/*
 * ibmcg_group_list(): the groups of ibmcg_group_dump(), each as a listing
 * shows it: the same fields and holders, no RoCE member record, no ages.
 */
TEST_F(lib, list_is_the_dump_without_details)
{
	struct ibmcg_join_args args = IBMCG_JOIN_ARGS_INIT;
	struct ibmcg_group **list, **dump;
	const struct ibmcg_holder *a, *b;
	uint8_t mgid[16];
	size_t n, m, i, k;

	memcpy(mgid, self->mgid, 16);
	for (k = 0; k < 3; k++) {
		mgid[15] = 20 + k;
		args.owner = "app:1";
		args.flags = k == 1 ? IB_MCG_F_BOUND : 0;
		ASSERT_EQ(0, ibmcg_join(self->h, DEV, 1, mgid, &args, NULL));
		args.owner = "app:2";
		args.flags = 0;
		args.join_state = IB_MCG_JOIN_SENDONLY_FULL;
		ASSERT_EQ(0, ibmcg_join(self->h, DEV, 1, mgid, &args, NULL));
		args.join_state = 0;
	}
	usleep(20000);		/* ages of at least 20 ms in the dump */
	ASSERT_EQ(0, ibmcg_group_list(self->h, DEV, 1, &list, &n));
	ASSERT_EQ(0, ibmcg_group_dump(self->h, DEV, 1, &dump, &m));
	ASSERT_EQ(3u, n);
	ASSERT_EQ(m, n);
	EXPECT_EQ(NULL, list[n]);
	for (i = 0; i < n; i++) {
		EXPECT_STREQ(dump[i]->dev_name, list[i]->dev_name);
		EXPECT_EQ(dump[i]->dev_index, list[i]->dev_index);
		EXPECT_EQ(dump[i]->port, list[i]->port);
		EXPECT_EQ(0, memcmp(dump[i]->mgid, list[i]->mgid, 16));
		EXPECT_EQ(dump[i]->state, list[i]->state);
		EXPECT_EQ(dump[i]->reason, list[i]->reason);
		EXPECT_EQ(dump[i]->error, list[i]->error);
		EXPECT_EQ(IB_MCG_JOIN_FULL | IB_MCG_JOIN_SENDONLY_FULL,
			  list[i]->join_state);
		EXPECT_EQ(dump[i]->join_state, list[i]->join_state);
		EXPECT_EQ(IB_MCG_BACKEND_ROCE, list[i]->backend);
		EXPECT_EQ(dump[i]->linger_ms, list[i]->linger_ms);
		EXPECT_EQ(2u, list[i]->holder_count);
		EXPECT_EQ(dump[i]->holder_count, list[i]->holder_count);
		/* the record: in the dump, not in the list */
		EXPECT_TRUE(ibmcg_group_has(dump[i], IB_MCG_A_QKEY));
		EXPECT_FALSE(ibmcg_group_has(list[i], IB_MCG_A_QKEY));
		EXPECT_FALSE(ibmcg_group_has(list[i], IB_MCG_A_MTU));
		EXPECT_FALSE(ibmcg_group_has(list[i], IB_MCG_A_PORT_GID));
		EXPECT_TRUE(ibmcg_group_has(list[i], IB_MCG_A_HOLDER_COUNT));
		EXPECT_TRUE(ibmcg_group_has(list[i], IB_MCG_A_LINGER_MS));
		ASSERT_EQ(2u, list[i]->nholders);
		ASSERT_EQ(dump[i]->nholders, list[i]->nholders);
		for (k = 0; k < list[i]->nholders; k++) {
			a = ibmcg_group_holder(list[i], k);
			b = ibmcg_group_holder(dump[i], k);
			EXPECT_STREQ(b->owner, a->owner);
			EXPECT_EQ(b->join_state, a->join_state);
			EXPECT_EQ(b->flags, a->flags);
			EXPECT_EQ(b->nl_portid, a->nl_portid);
			EXPECT_LE(20u, b->age_ms);
			EXPECT_EQ(0u, a->age_ms);
		}
	}
	EXPECT_EQ((uint32_t)IB_MCG_F_BOUND,
		  ibmcg_group_holder(list[1], 0)->flags);
	EXPECT_NE(0u, ibmcg_group_holder(list[1], 0)->nl_portid);
	ibmcg_groups_free(list);
	ibmcg_groups_free(dump);
	EXPECT_EQ(0, ibmcg_owner_release(self->h, "app:1", NULL, 0, NULL,
					 NULL, NULL));
	EXPECT_EQ(0, ibmcg_owner_release(self->h, "app:2", NULL, 0, NULL,
					 NULL, NULL));
}

TEST_HARNESS_MAIN
