// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * libibmcg: the LIBIBMCG_1 versions of the functions whose types changed
 * in LIBIBMCG_1.1, for binaries linked against libibmcg 0.2.0. They take
 * and return the frozen structures of compat_v1.h (caller-allocated groups
 * and ports, contiguous arrays, 64-bit "present" masks) and convert from
 * the current ones. Only in the shared library: a static link always gets
 * the current functions.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ibmcg_priv.h"
#include "compat_v1.h"

#define COMPAT(fn)	__asm__(".symver " #fn "_v1, " #fn "@LIBIBMCG_1")

/* The library is built with hidden visibility; these are its ABI. */
#pragma GCC visibility push(default)

/* A group result: *out converted, or emptied on failure. */
static int group_result(int err, struct ibmcg_group *rec,
			struct ibmcg_group_v1 *out)
{
	if (err) {
		memset(out, 0, sizeof(*out));
		return err;
	}
	return ibmcg__group_to_v1(rec, out);
}

int ibmcg_join_v1(struct ibmcg *h, const char *dev, uint32_t port,
		  const uint8_t mgid[IBMCG_GID_LEN],
		  const struct ibmcg_join_args_v1 *args,
		  struct ibmcg_group_v1 *out);
int ibmcg_join_v1(struct ibmcg *h, const char *dev, uint32_t port,
		  const uint8_t mgid[IBMCG_GID_LEN],
		  const struct ibmcg_join_args_v1 *args,
		  struct ibmcg_group_v1 *out)
{
	struct ibmcg_join_args a = IBMCG_JOIN_ARGS_INIT;
	struct ibmcg_group rec;
	int err;

	if (out)
		memset(out, 0, sizeof(*out));
	if (!args)
		return ibmcg__set_errmsg(h, -EINVAL, "no join arguments");
	a.owner = args->owner;
	a.join_state = args->join_state;
	a.flags = args->flags;
	a.set_qkey = args->set_qkey;
	a.qkey = args->qkey;
	a.set_linger = args->set_linger;
	a.linger_ms = args->linger_ms;
	a.create = args->create;
	a.set_pkey = args->set_pkey;
	a.pkey = args->pkey;
	a.set_mtu = args->set_mtu;
	a.mtu = args->mtu;
	a.set_rate = args->set_rate;
	a.rate = args->rate;
	a.set_sl = args->set_sl;
	a.sl = args->sl;
	a.set_flow_label = args->set_flow_label;
	a.flow_label = args->flow_label;
	a.set_tclass = args->set_tclass;
	a.tclass = args->tclass;
	a.set_hop_limit = args->set_hop_limit;
	a.hop_limit = args->hop_limit;
	a.set_scope = args->set_scope;
	a.scope = args->scope;
	memset(&rec, 0, sizeof(rec));
	err = ibmcg__join_rec(h, dev, port, mgid, &a, out ? &rec : NULL);
	return out ? group_result(err, &rec, out) : err;
}
COMPAT(ibmcg_join);

int ibmcg_leave_v1(struct ibmcg *h, const char *dev, uint32_t port,
		   const uint8_t mgid[IBMCG_GID_LEN], const char *owner,
		   uint8_t join_state, struct ibmcg_group_v1 *out);
int ibmcg_leave_v1(struct ibmcg *h, const char *dev, uint32_t port,
		   const uint8_t mgid[IBMCG_GID_LEN], const char *owner,
		   uint8_t join_state, struct ibmcg_group_v1 *out)
{
	struct ibmcg_group rec;
	int err;

	memset(&rec, 0, sizeof(rec));
	err = ibmcg__leave_rec(h, dev, port, mgid, owner, join_state,
			      out ? &rec : NULL);
	return out ? group_result(err, &rec, out) : err;
}
COMPAT(ibmcg_leave);

int ibmcg_group_get_v1(struct ibmcg *h, const char *dev, uint32_t port,
		       const uint8_t mgid[IBMCG_GID_LEN],
		       struct ibmcg_group_v1 *out);
int ibmcg_group_get_v1(struct ibmcg *h, const char *dev, uint32_t port,
		       const uint8_t mgid[IBMCG_GID_LEN],
		       struct ibmcg_group_v1 *out)
{
	struct ibmcg_group rec;

	if (!out)
		return ibmcg__set_errmsg(h, -EINVAL, "no result buffer");
	memset(&rec, 0, sizeof(rec));
	return group_result(ibmcg__group_get_rec(h, dev, port, mgid, &rec),
			    &rec, out);
}
COMPAT(ibmcg_group_get);

int ibmcg_port_get_v1(struct ibmcg *h, const char *dev, uint32_t port,
		      struct ibmcg_port_v1 *out);
int ibmcg_port_get_v1(struct ibmcg *h, const char *dev, uint32_t port,
		      struct ibmcg_port_v1 *out)
{
	struct ibmcg_port rec;
	int err;

	if (!out)
		return ibmcg__set_errmsg(h, -EINVAL, "no result buffer");
	memset(out, 0, sizeof(*out));
	memset(&rec, 0, sizeof(rec));
	err = ibmcg__port_get_rec(h, dev, port, &rec);
	if (!err)
		ibmcg__port_to_v1(&rec, out);
	return err;
}
COMPAT(ibmcg_port_get);

void ibmcg_group_free_v1(struct ibmcg_group_v1 *g);
void ibmcg_group_free_v1(struct ibmcg_group_v1 *g)
{
	if (!g)
		return;
	free(g->holders);
	g->holders = NULL;
	g->nholders = 0;
}
COMPAT(ibmcg_group_free);

void ibmcg_groups_free_v1(struct ibmcg_group_v1 *groups, size_t n);
void ibmcg_groups_free_v1(struct ibmcg_group_v1 *groups, size_t n)
{
	size_t i;

	for (i = 0; groups && i < n; i++)
		ibmcg_group_free_v1(&groups[i]);
	free(groups);
}
COMPAT(ibmcg_groups_free);

int ibmcg_group_dump_v1(struct ibmcg *h, const char *dev, uint32_t port,
			struct ibmcg_group_v1 **groups, size_t *n);
int ibmcg_group_dump_v1(struct ibmcg *h, const char *dev, uint32_t port,
			struct ibmcg_group_v1 **groups, size_t *n)
{
	struct ibmcg_group *v = NULL;
	struct ibmcg_group_v1 *o;
	size_t cnt = 0, i;
	int err;

	err = ibmcg__group_dump_rec(h, dev, port, false, &v, &cnt);
	if (err)
		return err;
	o = calloc(cnt ? cnt : 1, sizeof(*o));
	for (i = 0; i < cnt; i++) {
		if (!o || ibmcg__group_to_v1(&v[i], &o[i])) {
			while (++i < cnt)
				ibmcg__group_clear(&v[i]);
			free(v);
			ibmcg_groups_free_v1(o, cnt);
			return -ENOMEM;
		}
	}
	free(v);
	if (!o)
		return -ENOMEM;
	*groups = o;
	*n = cnt;
	return 0;
}
COMPAT(ibmcg_group_dump);

int ibmcg_port_dump_v1(struct ibmcg *h, const char *dev,
		       struct ibmcg_port_v1 **ports, size_t *n);
int ibmcg_port_dump_v1(struct ibmcg *h, const char *dev,
		       struct ibmcg_port_v1 **ports, size_t *n)
{
	struct ibmcg_port *v = NULL;
	struct ibmcg_port_v1 *o;
	size_t cnt = 0, i;
	int err;

	err = ibmcg__port_dump_rec(h, dev, &v, &cnt);
	if (err)
		return err;
	o = calloc(cnt ? cnt : 1, sizeof(*o));
	if (!o) {
		free(v);
		return -ENOMEM;
	}
	for (i = 0; i < cnt; i++)
		ibmcg__port_to_v1(&v[i], &o[i]);
	free(v);
	*ports = o;
	*n = cnt;
	return 0;
}
COMPAT(ibmcg_port_dump);

void ibmcg_ports_free_v1(struct ibmcg_port_v1 *ports);
void ibmcg_ports_free_v1(struct ibmcg_port_v1 *ports)
{
	free(ports);
}
COMPAT(ibmcg_ports_free);

int ibmcg_owner_release_v1(struct ibmcg *h, const char *owner,
			   const char *dev, uint32_t port,
			   struct ibmcg_released_v1 **out, size_t *n,
			   uint32_t *holds_dropped);
int ibmcg_owner_release_v1(struct ibmcg *h, const char *owner,
			   const char *dev, uint32_t port,
			   struct ibmcg_released_v1 **out, size_t *n,
			   uint32_t *holds_dropped)
{
	struct ibmcg_released *v = NULL;
	struct ibmcg_released_v1 *o = NULL;
	size_t cnt = 0, i;
	int err;

	if (out)
		*out = NULL;
	if (n)
		*n = 0;
	if (out && !n)
		return ibmcg__set_errmsg(h, -EINVAL, "no result count");
	err = ibmcg__owner_release_rec(h, owner, dev, port, out ? &v : NULL,
				      out ? &cnt : NULL, holds_dropped);
	if (err || !out)
		return err;
	if (cnt) {
		o = calloc(cnt, sizeof(*o));
		if (!o) {
			free(v);
			return -ENOMEM;
		}
	}
	for (i = 0; i < cnt; i++) {
		memcpy(o[i].dev_name, v[i].dev_name, sizeof(o[i].dev_name));
		o[i].dev_index = v[i].dev_index;
		o[i].port = v[i].port;
		memcpy(o[i].mgid, v[i].mgid, sizeof(o[i].mgid));
		o[i].join_state = v[i].join_state;
		o[i].state = v[i].state;
	}
	free(v);
	*out = o;
	*n = cnt;
	return 0;
}
COMPAT(ibmcg_owner_release);

void ibmcg_released_free_v1(struct ibmcg_released_v1 *released);
void ibmcg_released_free_v1(struct ibmcg_released_v1 *released)
{
	free(released);
}
COMPAT(ibmcg_released_free);

struct event_v1_ctx {
	ibmcg_event_cb_v1 cb;
	void *arg;
};

static int event_v1_cb(const struct ibmcg_event *ev, void *arg)
{
	struct event_v1_ctx *c = arg;
	struct ibmcg_event_v1 o;
	struct ibmcg_group g;
	int ret;

	memset(&o, 0, sizeof(o));
	o.cmd = ev->cmd;
	if (ev->port) {
		o.is_port = true;
		ibmcg__port_to_v1(ev->port, &o.port);
	} else if (ev->group) {
		/* a copy: ibmcg__group_to_v1() takes the record's holders */
		g = *ev->group;
		if (g.nholders) {
			g.holders = malloc(g.nholders * sizeof(*g.holders));
			if (!g.holders)
				return -ENOMEM;
			memcpy(g.holders, ev->group->holders,
			       g.nholders * sizeof(*g.holders));
		}
		if (ibmcg__group_to_v1(&g, &o.group))
			return -ENOMEM;
	}
	ret = c->cb(&o, c->arg);
	ibmcg_group_free_v1(&o.group);
	return ret;
}

int ibmcg_event_recv_v1(struct ibmcg *h, ibmcg_event_cb_v1 cb, void *arg);
int ibmcg_event_recv_v1(struct ibmcg *h, ibmcg_event_cb_v1 cb, void *arg)
{
	struct event_v1_ctx c = { .cb = cb, .arg = arg };

	return ibmcg_event_recv(h, event_v1_cb, &c);
}
COMPAT(ibmcg_event_recv);

#pragma GCC visibility pop
