// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl fabric: what the SA's records say, without any I/O (unit-tested
 * by tests/test_fabric.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mcctl_fabric.h"

const char *fabric_class_name(enum fabric_class c)
{
	static const char *const names[FABRIC_NCLASS] = {
		[FABRIC_OK]		= "ok",
		[FABRIC_LOST]		= "lost",
		[FABRIC_JOINING]	= "joining",
		[FABRIC_STALE]		= "stale",
		[FABRIC_KERNEL]		= "kernel",
	};

	return (unsigned int)c < FABRIC_NCLASS ? names[c] : "?";
}

bool fabric_same_port(const uint8_t a[IBMCG_GID_LEN],
		      const uint8_t b[IBMCG_GID_LEN])
{
	return !memcmp(a + 8, b + 8, 8);
}

bool fabric_mgid_ipoib(const uint8_t mgid[IBMCG_GID_LEN])
{
	return mgid[0] == 0xff && (mgid[2] == 0x40 || mgid[2] == 0x60) &&
	       mgid[3] == 0x1b;
}

/* The group of @rec in g[0..*ng), added if not there. */
static struct fabric_group *group_of(struct fabric_group *g, size_t *ng,
				     const struct fabric_rec *rec)
{
	size_t j;

	for (j = 0; j < *ng; j++)
		if (!memcmp(g[j].mgid, rec->mgid, IBMCG_GID_LEN))
			return &g[j];
	memcpy(g[j].mgid, rec->mgid, IBMCG_GID_LEN);
	g[j].mlid = rec->mlid;
	g[j].pkey = rec->pkey;
	(*ng)++;
	return &g[j];
}

long fabric_groups(const struct fabric_rec *grecs, size_t ng,
		   const struct fabric_rec *mrecs, size_t nm,
		   struct fabric_group **out)
{
	struct fabric_group *g, *grp;
	size_t i, n = 0;

	*out = NULL;
	if (!ng && !nm)
		return 0;
	g = calloc(ng + nm, sizeof(*g));
	if (!g)
		return -ENOMEM;
	for (i = 0; i < ng; i++)
		group_of(g, &n, &grecs[i]);
	for (i = 0; i < nm; i++) {
		grp = group_of(g, &n, &mrecs[i]);
		grp->members++;
		grp->join_state |= mrecs[i].join_state;
	}
	*out = g;
	return n;
}

size_t fabric_mlids_used(const struct fabric_group *g, size_t n)
{
	size_t i, j, used = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			if (g[j].mlid == g[i].mlid)
				break;
		if (j == i)
			used++;
	}
	return used;
}

/* The port's record of mgid, NULL if the port is no member. */
static const struct fabric_rec *port_rec(const struct fabric_rec *recs,
					 size_t n, const uint8_t *mgid,
					 const uint8_t *port_gid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!memcmp(recs[i].mgid, mgid, IBMCG_GID_LEN) &&
		    fabric_same_port(recs[i].port_gid, port_gid))
			return &recs[i];
	return NULL;
}

static bool is_held(const struct fabric_held *held, size_t nheld,
		    const uint8_t *mgid)
{
	size_t i;

	for (i = 0; i < nheld; i++)
		if (!memcmp(held[i].mgid, mgid, IBMCG_GID_LEN))
			return true;
	return false;
}

/* Joined as far as the module knows: the SA should have the member. */
static bool held_joined(uint8_t state)
{
	return state == IB_MCG_STATE_JOINED || state == IB_MCG_STATE_LINGERING;
}

long fabric_classify(const struct fabric_rec *recs, size_t nrecs,
		     const uint8_t port_gid[IBMCG_GID_LEN],
		     const struct fabric_held *held, size_t nheld,
		     struct fabric_item **out,
		     size_t counts[FABRIC_NCLASS])
{
	const struct fabric_rec *r;
	struct fabric_item *it;
	size_t i, n = 0;

	*out = NULL;
	if (counts)
		memset(counts, 0, sizeof(*counts) * FABRIC_NCLASS);
	if (!nrecs && !nheld)
		return 0;
	it = calloc(nrecs + nheld, sizeof(*it));
	if (!it)
		return -ENOMEM;

	for (i = 0; i < nheld; i++) {
		struct fabric_item *x = &it[n++];

		memcpy(x->mgid, held[i].mgid, IBMCG_GID_LEN);
		x->held_js = held[i].join_state;
		x->state = held[i].state;
		r = port_rec(recs, nrecs, held[i].mgid, port_gid);
		if (r) {
			x->at_sa = true;
			x->sa_js = r->join_state;
			x->mlid = r->mlid;
			memcpy(x->sa_port_gid, r->port_gid, IBMCG_GID_LEN);
		}
		if (!held_joined(x->state))
			x->cls = FABRIC_JOINING;
		/* a JoinState the SA lacks is lost too (lingering: none) */
		else if (!r || (x->held_js & ~r->join_state))
			x->cls = FABRIC_LOST;
		else
			x->cls = FABRIC_OK;
	}

	for (i = 0; i < nrecs; i++) {
		struct fabric_item *x;

		r = &recs[i];
		if (!fabric_same_port(r->port_gid, port_gid) ||
		    is_held(held, nheld, r->mgid))
			continue;
		x = &it[n++];
		memcpy(x->mgid, r->mgid, IBMCG_GID_LEN);
		x->at_sa = true;
		x->sa_js = r->join_state;
		x->mlid = r->mlid;
		memcpy(x->sa_port_gid, r->port_gid, IBMCG_GID_LEN);
		x->cls = fabric_mgid_ipoib(r->mgid) ? FABRIC_KERNEL : FABRIC_STALE;
	}

	if (counts)
		for (i = 0; i < n; i++)
			counts[it[i].cls]++;
	*out = it;
	return n;
}

int fabric_exit_status(const size_t counts[FABRIC_NCLASS])
{
	bool lost = counts[FABRIC_LOST], stale = counts[FABRIC_STALE];

	if (lost && stale)
		return EXIT_FABRIC_BOTH;
	if (lost)
		return EXIT_FABRIC_LOST;
	if (stale)
		return EXIT_FABRIC_STALE;
	return 0;
}
