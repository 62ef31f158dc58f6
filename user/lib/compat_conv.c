// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * libibmcg: the current groups and ports as the frozen structures of
 * LIBIBMCG_1 (compat_v1.h), for compat.c; apart from it so that the unit
 * tests can call them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ibmcg_priv.h"
#include "compat_v1.h"

/* The attributes below 64, the only ones LIBIBMCG_1 could report. */
static uint64_t present_v1(const uint64_t *present)
{
	return present[0];
}

int ibmcg__group_to_v1(struct ibmcg_group *g, struct ibmcg_group_v1 *o)
{
	size_t i;

	memset(o, 0, sizeof(*o));
	o->present = present_v1(g->present);
	memcpy(o->dev_name, g->dev_name, sizeof(o->dev_name));
	o->dev_index = g->dev_index;
	o->port = g->port;
	memcpy(o->mgid, g->mgid, sizeof(o->mgid));
	o->state = g->state;
	o->reason = g->reason;
	o->error = g->error;
	o->join_state = g->join_state;
	o->backend = g->backend;
	o->mlid = g->mlid;
	o->qkey = g->qkey;
	o->pkey = g->pkey;
	o->mtu = g->mtu;
	o->rate = g->rate;
	o->sl = g->sl;
	o->flow_label = g->flow_label;
	o->tclass = g->tclass;
	o->hop_limit = g->hop_limit;
	memcpy(o->port_gid, g->port_gid, sizeof(o->port_gid));
	o->sgid_index = g->sgid_index;
	o->linger_ms = g->linger_ms;
	o->linger_left_ms = g->linger_left_ms;
	if (g->nholders) {
		o->holders = calloc(g->nholders, sizeof(*o->holders));
		if (!o->holders) {
			ibmcg__group_clear(g);
			return -ENOMEM;
		}
	}
	for (i = 0; i < g->nholders; i++) {
		struct ibmcg_holder_v1 *d = &o->holders[i];
		const struct ibmcg_holder *s = &g->holders[i];

		memcpy(d->owner, s->owner, sizeof(d->owner));
		d->join_state = s->join_state;
		d->flags = s->flags;
		d->nl_portid = s->nl_portid;
		d->age_ms = s->age_ms;
	}
	o->nholders = g->nholders;
	ibmcg__group_clear(g);
	return 0;
}

void ibmcg__port_to_v1(const struct ibmcg_port *p, struct ibmcg_port_v1 *o)
{
	memset(o, 0, sizeof(*o));
	o->present = present_v1(p->present);
	memcpy(o->dev_name, p->dev_name, sizeof(o->dev_name));
	o->dev_index = p->dev_index;
	o->port = p->port;
	o->link_layer = p->link_layer;
	o->port_state = p->port_state;
	o->backend = p->backend;
	memcpy(o->netdev, p->netdev, sizeof(o->netdev));
	o->ifindex = p->ifindex;
	o->max_mcast_grp = p->max_mcast_grp;
	o->max_mcast_qp_attach = p->max_mcast_qp_attach;
	o->max_total_mcast_qp_attach = p->max_total_mcast_qp_attach;
	o->groups = p->groups;
	o->holder_count = p->holder_count;
	o->joins = p->joins;
	o->leaves = p->leaves;
	o->join_errors = p->join_errors;
	o->linger_hits = p->linger_hits;
	o->linger_expired = p->linger_expired;
	o->max_groups = p->max_groups;
	o->max_owner_holds = p->max_owner_holds;
	o->lid = p->lid;
	o->sm_lid = p->sm_lid;
	o->last_sm_lid = p->last_sm_lid;
	o->last_rejoin_wave_ms = p->last_rejoin_wave_ms;
	o->rejoin_pending = p->rejoin_pending;
	o->sm_reregisters = p->sm_reregisters;
	o->rejoin_waves = p->rejoin_waves;
	o->group_rejoins = p->group_rejoins;
	o->rejoin_failures = p->rejoin_failures;
	o->sa_timeouts = p->sa_timeouts;
}

