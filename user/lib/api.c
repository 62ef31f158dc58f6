// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * libibmcg: the public request functions of LIBIBMCG_1.1. Results are
 * objects the library allocates (rule 1 of ibmcg.h): each group and port
 * on its own, lists as NULL-terminated arrays of pointers, so that the
 * structures can grow without the applications' sizeof mattering.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ibmcg_priv.h"

const char *ibmcg_version(void)
{
	return VERSION;
}

bool ibmcg_group_has(const struct ibmcg_group *g, unsigned int attr)
{
	return g && ibmcg_attr_test(g->present, attr);
}

bool ibmcg_port_has(const struct ibmcg_port *p, unsigned int attr)
{
	return p && ibmcg_attr_test(p->present, attr);
}

const struct ibmcg_holder *ibmcg_group_holder(const struct ibmcg_group *g,
					      size_t i)
{
	return g && i < g->nholders ? &g->holders[i] : NULL;
}

/*
 * The caller's join arguments, @size bytes of them, as this library's
 * structure: fields the caller does not know are zero (not set); a larger
 * structure is accepted only if what this library does not know is zero.
 */
static int join_args_copy(struct ibmcg *h, const struct ibmcg_join_args *a,
			  struct ibmcg_join_args *out)
{
	const unsigned char *p = (const unsigned char *)a;
	size_t size, i;

	memset(out, 0, sizeof(*out));
	if (!a)
		return ibmcg__set_errmsg(h, -EINVAL, "no join arguments");
	size = a->size;
	if (size < offsetof(struct ibmcg_join_args, owner) + sizeof(a->owner))
		return ibmcg__set_errmsg(h, -EINVAL,
					"join arguments without their size: initialise them with IBMCG_JOIN_ARGS_INIT");
	for (i = sizeof(*out); i < size; i++)
		if (p[i])
			return ibmcg__set_errmsg(h, -E2BIG,
						"join arguments of a newer libibmcg (%zu bytes, this one knows %zu) set fields this version does not know",
						size, sizeof(*out));
	memcpy(out, a, size < sizeof(*out) ? size : sizeof(*out));
	out->size = sizeof(*out);
	return 0;
}

/* A group object of its own, from a record: @rec is emptied. */
static int group_obj(struct ibmcg_group *rec, struct ibmcg_group **out)
{
	struct ibmcg_group *g = malloc(sizeof(*g));

	if (!g) {
		ibmcg__group_clear(rec);
		return -ENOMEM;
	}
	*g = *rec;
	memset(rec, 0, sizeof(*rec));
	*out = g;
	return 0;
}

int ibmcg_join(struct ibmcg *h, const char *dev, uint32_t port,
	       const uint8_t mgid[IBMCG_GID_LEN],
	       const struct ibmcg_join_args *args, struct ibmcg_group **out)
{
	struct ibmcg_join_args a;
	struct ibmcg_group rec;
	int err;

	if (out)
		*out = NULL;
	err = join_args_copy(h, args, &a);
	if (err)
		return err;
	memset(&rec, 0, sizeof(rec));
	err = ibmcg__join_rec(h, dev, port, mgid, &a, out ? &rec : NULL);
	if (err || !out)
		return err;
	return group_obj(&rec, out);
}

int ibmcg_leave(struct ibmcg *h, const char *dev, uint32_t port,
		const uint8_t mgid[IBMCG_GID_LEN], const char *owner,
		uint8_t join_state, struct ibmcg_group **out)
{
	struct ibmcg_group rec;
	int err;

	if (out)
		*out = NULL;
	memset(&rec, 0, sizeof(rec));
	err = ibmcg__leave_rec(h, dev, port, mgid, owner, join_state,
			      out ? &rec : NULL);
	if (err || !out)
		return err;
	return group_obj(&rec, out);
}

int ibmcg_rejoin(struct ibmcg *h, const char *dev, uint32_t port,
		 const uint8_t mgid[IBMCG_GID_LEN], struct ibmcg_group **out)
{
	struct ibmcg_group rec;
	int err;

	if (out)
		*out = NULL;
	memset(&rec, 0, sizeof(rec));
	err = ibmcg__rejoin_rec(h, dev, port, mgid, out ? &rec : NULL);
	if (err || !out)
		return err;
	return group_obj(&rec, out);
}

int ibmcg_group_get(struct ibmcg *h, const char *dev, uint32_t port,
		    const uint8_t mgid[IBMCG_GID_LEN], struct ibmcg_group **out)
{
	struct ibmcg_group rec;
	int err;

	if (!out)
		return ibmcg__set_errmsg(h, -EINVAL, "no result pointer");
	*out = NULL;
	memset(&rec, 0, sizeof(rec));
	err = ibmcg__group_get_rec(h, dev, port, mgid, &rec);
	if (err)
		return err;
	return group_obj(&rec, out);
}

int ibmcg_port_get(struct ibmcg *h, const char *dev, uint32_t port,
		   struct ibmcg_port **out)
{
	struct ibmcg_port *p;
	int err;

	if (!out)
		return ibmcg__set_errmsg(h, -EINVAL, "no result pointer");
	*out = NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	err = ibmcg__port_get_rec(h, dev, port, p);
	if (err) {
		free(p);
		return err;
	}
	*out = p;
	return 0;
}

/*
 * A NULL-terminated array of pointers to the n elements of @v (each of
 * @size bytes), all in one allocation with @v's contents: the pointers
 * first, then the elements. @v itself is grown and its elements moved
 * up (no second copy of a large list in fresh memory); on failure @v is
 * left as it was.
 */
static void **ptr_array(void *v, size_t n, size_t size)
{
	size_t head = (n + 1) * sizeof(void *);
	void **pv;
	char *e;
	size_t i;

	/* sizes are multiples of the elements' alignment, as is head */
	pv = realloc(v, head + n * size);
	if (!pv)
		return NULL;
	e = (char *)pv + head;
	if (n)
		memmove(e, pv, n * size);
	for (i = 0; i < n; i++)
		pv[i] = e + i * size;
	pv[n] = NULL;
	return pv;
}

static int group_dump(struct ibmcg *h, const char *dev, uint32_t port,
		      bool brief, struct ibmcg_group ***groups, size_t *n)
{
	struct ibmcg_group *v = NULL, **pv;
	size_t cnt = 0, i;
	int err;

	if (!groups || !n)
		return ibmcg__set_errmsg(h, -EINVAL, "no result pointer");
	*groups = NULL;
	*n = 0;
	err = ibmcg__group_dump_rec(h, dev, port, brief, &v, &cnt);
	if (err)
		return err;
	pv = (struct ibmcg_group **)ptr_array(v, cnt, sizeof(*v));
	if (!pv) {
		for (i = 0; i < cnt; i++)
			ibmcg__group_clear(&v[i]);
		free(v);
		return -ENOMEM;
	}
	*groups = pv;
	*n = cnt;
	return 0;
}

int ibmcg_group_dump(struct ibmcg *h, const char *dev, uint32_t port,
		     struct ibmcg_group ***groups, size_t *n)
{
	return group_dump(h, dev, port, false, groups, n);
}

int ibmcg_group_list(struct ibmcg *h, const char *dev, uint32_t port,
		     struct ibmcg_group ***groups, size_t *n)
{
	return group_dump(h, dev, port, true, groups, n);
}

int ibmcg_port_dump(struct ibmcg *h, const char *dev,
		    struct ibmcg_port ***ports, size_t *n)
{
	struct ibmcg_port *v = NULL, **pv;
	size_t cnt = 0;
	int err;

	if (!ports || !n)
		return ibmcg__set_errmsg(h, -EINVAL, "no result pointer");
	*ports = NULL;
	*n = 0;
	err = ibmcg__port_dump_rec(h, dev, &v, &cnt);
	if (err)
		return err;
	pv = (struct ibmcg_port **)ptr_array(v, cnt, sizeof(*v));
	if (!pv) {
		free(v);
		return -ENOMEM;
	}
	*ports = pv;
	*n = cnt;
	return 0;
}

int ibmcg_owner_release(struct ibmcg *h, const char *owner, const char *dev,
			uint32_t port, struct ibmcg_released ***out, size_t *n,
			uint32_t *holds_dropped)
{
	struct ibmcg_released *v = NULL, **pv;
	size_t cnt = 0;
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
	pv = (struct ibmcg_released **)ptr_array(v, cnt, sizeof(*v));
	if (!pv) {
		free(v);
		/* the holds are released: say so */
		return ibmcg__set_errmsg(h, -ENOMEM,
					"out of memory for the list of released groups (the holds were released)");
	}
	*out = pv;
	*n = cnt;
	return 0;
}

void ibmcg_group_free(struct ibmcg_group *g)
{
	if (!g)
		return;
	ibmcg__group_clear(g);
	free(g);
}

void ibmcg_groups_free(struct ibmcg_group **groups)
{
	size_t i;

	if (!groups)
		return;
	for (i = 0; groups[i]; i++)
		ibmcg__group_clear(groups[i]);
	free(groups);		/* the groups are in the same allocation */
}

void ibmcg_port_free(struct ibmcg_port *p)
{
	free(p);
}

void ibmcg_ports_free(struct ibmcg_port **ports)
{
	free(ports);
}

void ibmcg_released_free(struct ibmcg_released **released)
{
	free(released);
}

bool ibmcg_event_mlid_change(const struct ibmcg_event *ev,
			     uint8_t mgid[IBMCG_GID_LEN], uint16_t *old_mlid,
			     uint16_t *new_mlid)
{
	const struct ibmcg_group *g = ev ? ev->group : NULL;

	if (!g || ev->cmd != IB_MCG_CMD_GROUP_STATE_NTF ||
	    g->reason != IB_MCG_REASON_MLID_CHANGED ||
	    !ibmcg_group_has(g, IB_MCG_A_MLID) ||
	    !ibmcg_group_has(g, IB_MCG_A_PREV_MLID))
		return false;
	if (mgid)
		memcpy(mgid, g->mgid, IBMCG_GID_LEN);
	if (old_mlid)
		*old_mlid = g->prev_mlid;
	if (new_mlid)
		*new_mlid = g->mlid;
	return true;
}
