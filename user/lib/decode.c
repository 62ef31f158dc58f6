// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Decoding of ib_mcgroups replies and netlink acks into plain structs.
 * Works on a message in memory, so the host unit tests can feed it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibmcg_priv.h"
#include "nla_policy.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))


static const struct nla_policy group_policy[IB_MCG_A_MAX + 1] = {
	[IB_MCG_A_DEV_NAME]	= { .type = NLA_STRING,
				    .maxlen = IBMCG_DEV_NAME_MAX },
	[IB_MCG_A_DEV_INDEX]	= { .type = NLA_U32 },
	[IB_MCG_A_PORT]		= { .type = NLA_U32 },
	[IB_MCG_A_MGID]		= { .minlen = IBMCG_GID_LEN,
				    .maxlen = IBMCG_GID_LEN },
	[IB_MCG_A_GROUP_ID]	= { .type = NLA_U64 },
	[IB_MCG_A_STATE]	= { .type = NLA_U8 },
	[IB_MCG_A_LINK_STATE]	= { .type = NLA_U8 },
	[IB_MCG_A_REASON]	= { .type = NLA_U8 },
	[IB_MCG_A_ERROR]	= { .type = NLA_U32 },
	[IB_MCG_A_JOIN_STATE]	= { .type = NLA_U8 },
	[IB_MCG_A_BACKEND]	= { .type = NLA_U8 },
	[IB_MCG_A_MLID]		= { .type = NLA_U16 },
	[IB_MCG_A_PREV_MLID]	= { .type = NLA_U16 },
	[IB_MCG_A_QKEY]		= { .type = NLA_U32 },
	[IB_MCG_A_PKEY]		= { .type = NLA_U16 },
	[IB_MCG_A_MTU]		= { .type = NLA_U8 },
	[IB_MCG_A_RATE]		= { .type = NLA_U8 },
	[IB_MCG_A_SL]		= { .type = NLA_U8 },
	[IB_MCG_A_FLOW_LABEL]	= { .type = NLA_U32 },
	[IB_MCG_A_TCLASS]	= { .type = NLA_U8 },
	[IB_MCG_A_HOP_LIMIT]	= { .type = NLA_U8 },
	[IB_MCG_A_PORT_GID]	= { .minlen = IBMCG_GID_LEN,
				    .maxlen = IBMCG_GID_LEN },
	[IB_MCG_A_SGID_INDEX]	= { .type = NLA_U32 },
	[IB_MCG_A_HOLDERS]	= { .type = NLA_NESTED },
	[IB_MCG_A_LINK_LAYER]	= { .type = NLA_U8 },
	[IB_MCG_A_PORT_STATE]	= { .type = NLA_U8 },
	[IB_MCG_A_NETDEV]	= { .type = NLA_STRING,
				    .maxlen = IBMCG_IFNAME_MAX },
	[IB_MCG_A_IFINDEX]	= { .type = NLA_U32 },
	[IB_MCG_A_MAX_MCAST_GRP] = { .type = NLA_U32 },
	[IB_MCG_A_MAX_MCAST_QP_ATTACH] = { .type = NLA_U32 },
	[IB_MCG_A_MAX_TOTAL_MCAST_QP_ATTACH] = { .type = NLA_U32 },
	[IB_MCG_A_GROUPS]	= { .type = NLA_U32 },
	[IB_MCG_A_HOLDER_COUNT]	= { .type = NLA_U32 },
	[IB_MCG_A_JOINS]	= { .type = NLA_U64 },
	[IB_MCG_A_LEAVES]	= { .type = NLA_U64 },
	[IB_MCG_A_JOIN_ERRORS]	= { .type = NLA_U64 },
	[IB_MCG_A_LINGER_MS]	= { .type = NLA_U32 },
	[IB_MCG_A_LINGER_LEFT_MS] = { .type = NLA_U32 },
	[IB_MCG_A_LINGER_HITS]	= { .type = NLA_U64 },
	[IB_MCG_A_LINGER_EXPIRED] = { .type = NLA_U64 },
	[IB_MCG_A_MAX_GROUPS]	= { .type = NLA_U32 },
	[IB_MCG_A_MAX_OWNER_HOLDS] = { .type = NLA_U32 },
	[IB_MCG_A_SCOPE]	= { .type = NLA_U8 },
	/* InfiniBand ports */
	[IB_MCG_A_LID]		= { .type = NLA_U32 },
	[IB_MCG_A_SM_LID]	= { .type = NLA_U32 },
	[IB_MCG_A_SM_REREGISTERS] = { .type = NLA_U64 },
	[IB_MCG_A_REJOIN_WAVES]	= { .type = NLA_U64 },
	[IB_MCG_A_GROUP_REJOINS] = { .type = NLA_U64 },
	[IB_MCG_A_REJOIN_FAILURES] = { .type = NLA_U64 },
	[IB_MCG_A_SA_TIMEOUTS]	= { .type = NLA_U64 },
	[IB_MCG_A_LAST_SM_LID]	= { .type = NLA_U32 },
	[IB_MCG_A_LAST_REJOIN_WAVE_MS] = { .type = NLA_U32 },
	[IB_MCG_A_REJOIN_PENDING] = { .type = NLA_U32 },
	[IB_MCG_A_MLID_CHANGES]	= { .type = NLA_U64 },
	/* OWNER_RELEASE replies */
	[IB_MCG_A_OWNER]	= { .type = NLA_STRING,
				    .maxlen = IB_MCG_OWNER_MAX + 1 },
	[IB_MCG_A_RELEASED]	= { .type = NLA_NESTED },
};

static const struct nla_policy holder_policy[IB_MCG_HOLDER_A_MAX + 1] = {
	[IB_MCG_HOLDER_A_OWNER]		= { .type = NLA_STRING,
					    .maxlen = IB_MCG_OWNER_MAX + 1 },
	[IB_MCG_HOLDER_A_JOIN_STATE]	= { .type = NLA_U8 },
	[IB_MCG_HOLDER_A_FLAGS]		= { .type = NLA_U32 },
	[IB_MCG_HOLDER_A_NL_PORTID]	= { .type = NLA_U32 },
	[IB_MCG_HOLDER_A_AGE_MS]	= { .type = NLA_U64 },
	[IB_MCG_HOLDER_A_ID]		= { .type = NLA_U64 },
};

/*
 * Attributes are walked and checked here, not by libnl's nla_parse():
 * the same rules, in one loop without a library call per attribute
 * (listing 16k groups spent more time in those calls than the kernel took
 * to send the groups). Attributes above @max are skipped; a known one
 * shorter than its type (or its policy's minlen), longer than its maxlen,
 * or a string without its NUL makes the message malformed; of two with
 * the same type, the later one counts.
 */
static const uint8_t type_minlen[NLA_TYPE_MAX + 1] = {
	[NLA_U8] = 1, [NLA_U16] = 2, [NLA_U32] = 4, [NLA_U64] = 8,
	[NLA_STRING] = 1, [NLA_MSECS] = 8,
};

static inline int attr_type(const struct nlattr *a)
{
	return a->nla_type & NLA_TYPE_MASK;
}

static bool attr_valid(const struct nlattr *a, const struct nla_policy *pt)
{
	int len = ibmcg_nla_len(a);
	int min = pt->minlen ? pt->minlen :
		  pt->type <= NLA_TYPE_MAX ? type_minlen[pt->type] : 0;

	if (len < min || (pt->maxlen && len > pt->maxlen))
		return false;
	return pt->type != NLA_STRING || !((char *)ibmcg_nla_data(a))[len - 1];
}

/*
 * nla_parse() of @len bytes of attributes at @head into tb[0..@max]; the
 * types found are added to @present, if given.
 */
static int attrs_parse_present(struct nlattr **tb, int max,
			       struct nlattr *head, int len,
			       const struct nla_policy *policy,
			       uint64_t *present)
{
	struct nlattr *a;
	int rem, type;

	memset(tb, 0, (max + 1) * sizeof(*tb));
	ibmcg_nla_for_each(a, head, len, rem) {
		type = attr_type(a);
		if (type > max)
			continue;
		if (policy && type && !attr_valid(a, &policy[type]))
			return -EPROTO;
		tb[type] = a;
		if (present && type)
			ibmcg_attr_set(present, type);
	}
	return 0;
}

static int attrs_parse(struct nlattr **tb, int max, struct nlattr *head,
		       int len, const struct nla_policy *policy)
{
	return attrs_parse_present(tb, max, head, len, policy, NULL);
}

static int attrs_parse_nested(struct nlattr **tb, int max,
			      const struct nlattr *nest,
			      const struct nla_policy *policy)
{
	return attrs_parse(tb, max, ibmcg_nla_data(nest), ibmcg_nla_len(nest),
			   policy);
}

const char *ibmcg__attr_name(unsigned int attr)
{
	static const char * const names[] = {
		[IB_MCG_A_DEV_NAME] = "device name",
		[IB_MCG_A_DEV_INDEX] = "device index",
		[IB_MCG_A_PORT] = "port", [IB_MCG_A_MGID] = "MGID",
		[IB_MCG_A_OWNER] = "owner",
		[IB_MCG_A_JOIN_STATE] = "join state",
		[IB_MCG_A_FLAGS] = "flags", [IB_MCG_A_QKEY] = "Q_Key",
		[IB_MCG_A_PKEY] = "P_Key", [IB_MCG_A_MTU] = "MTU",
		[IB_MCG_A_RATE] = "rate", [IB_MCG_A_SL] = "SL",
		[IB_MCG_A_FLOW_LABEL] = "flow label",
		[IB_MCG_A_TCLASS] = "traffic class",
		[IB_MCG_A_HOP_LIMIT] = "hop limit",
		[IB_MCG_A_LINGER_MS] = "linger time",
		[IB_MCG_A_SCOPE] = "scope",
	};

	return attr < ARRAY_SIZE(names) ? names[attr] : NULL;
}

/*
 * Protocol version 1 could send a list nest (a group's holders, an owner
 * release's groups) longer than 64 KiB: its u16 nla_len then holds only
 * the low 16 bits of the length. Such a list is the last attribute of its
 * message but for @tail bytes of attributes after it, so its true length
 * is known. Returns it, and the nest in *nestp, if the nest of @type is
 * there and wrapped; else 0.
 */
static size_t wrapped_list(const struct nlmsghdr *nlh, int type, size_t tail,
			   struct nlattr **nestp)
{
	const struct nlattr *head;
	struct nlattr *a;
	int rem;

	/* Only a message of more than 64 KiB can hold one. */
	if (!ibmcg__genl_hdr(nlh, &head, &rem) || (size_t)rem <= tail + 0xffff)
		return 0;
	a = (struct nlattr *)head;
	while (rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN) {
		if (attr_type(a) == type) {
			size_t len = rem - tail;

			if ((size_t)rem < tail || len <= 0xffff ||
			    (len & 0xffff) != a->nla_len)
				return 0;
			*nestp = a;
			return len;
		}
		if (NLA_ALIGN(a->nla_len) > rem)
			return 0;
		rem -= NLA_ALIGN(a->nla_len);
		a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len));
	}
	return 0;
}

/*
 * Parse the genetlink payload; record which attributes came. A wrapped
 * list (see wrapped_list(): @list of @len bytes) is left out of the parse
 * and its tail parsed on its own.
 */
static int parse_attrs_list(const struct nlmsghdr *nlh, struct nlattr **tb,
			    uint64_t *present, struct nlattr *list,
			    size_t len)
{
	struct nlattr *tail[IB_MCG_A_MAX + 1];
	const struct nlattr *chead;
	struct nlattr *head;
	char *end;
	int i, alen;

	if (!ibmcg__genl_hdr(nlh, &chead, &alen))
		return -EPROTO;
	head = (struct nlattr *)chead;
	end = (char *)head + alen;
	memset(present, 0, IBMCG_ATTR_WORDS * sizeof(*present));
	if (!list)
		return attrs_parse_present(tb, IB_MCG_A_MAX, head, alen,
					   group_policy, present) ? -EPROTO : 0;
	if (attrs_parse_present(tb, IB_MCG_A_MAX, head,
				(char *)list - (char *)head, group_policy,
				present) ||
	    attrs_parse_present(tail, IB_MCG_A_MAX,
				(struct nlattr *)((char *)list + len),
				end - ((char *)list + len), group_policy,
				present))
		return -EPROTO;
	for (i = 1; i <= IB_MCG_A_MAX; i++)
		if (tail[i])
			tb[i] = tail[i];
	return 0;
}

static int parse_attrs(const struct nlmsghdr *nlh, struct nlattr **tb,
		       uint64_t *present)
{
	return parse_attrs_list(nlh, tb, present, NULL, 0);
}

/* The items of a list nest, @nest, or of a wrapped one of @len bytes. */
static void list_items(struct nlattr *nest, size_t len, struct nlattr **head,
		       int *hlen)
{
	*head = ibmcg_nla_data(nest);
	*hlen = len ? (int)(len - NLA_HDRLEN) : ibmcg_nla_len(nest);
}

static void get_u8(struct nlattr **tb, int a, uint8_t *v)
{
	if (tb[a])
		*v = *(uint8_t *)ibmcg_nla_data(tb[a]);
}

static void get_u16(struct nlattr **tb, int a, uint16_t *v)
{
	if (tb[a])
		memcpy(v, ibmcg_nla_data(tb[a]), sizeof(*v));
}

static void get_u32(struct nlattr **tb, int a, uint32_t *v)
{
	if (tb[a])
		memcpy(v, ibmcg_nla_data(tb[a]), sizeof(*v));
}

static void get_u64(struct nlattr **tb, int a, uint64_t *v)
{
	if (tb[a])
		memcpy(v, ibmcg_nla_data(tb[a]), sizeof(*v));
}

/* As nla_strlcpy(): at most @len - 1 bytes, up to the NUL; terminated. */
static void attr_strlcpy(char *buf, const struct nlattr *a, size_t len)
{
	size_t n = strnlen(ibmcg_nla_data(a), ibmcg_nla_len(a));

	if (!len)
		return;
	if (n >= len)
		n = len - 1;
	memcpy(buf, ibmcg_nla_data(a), n);
	memset(buf + n, 0, len - n);
}

static void get_str(struct nlattr **tb, int a, char *buf, size_t len)
{
	if (tb[a])
		attr_strlcpy(buf, tb[a], len);
}

static void get_gid(struct nlattr **tb, int a, uint8_t *gid)
{
	if (tb[a])
		memcpy(gid, ibmcg_nla_data(tb[a]), IBMCG_GID_LEN);
}

static int parse_holders(struct nlattr *nest, size_t len,
			 struct ibmcg_group *g)
{
	struct nlattr *tb[IB_MCG_HOLDER_A_MAX + 1];
	struct ibmcg_holder *ho;
	struct nlattr *pos, *items;
	int rem, ilen;
	size_t n = 0;

	list_items(nest, len, &items, &ilen);
	ibmcg_nla_for_each(pos, items, ilen, rem)
		if (attr_type(pos) == IB_MCG_A_HOLDER)
			n++;
	if (!n)
		return 0;
	g->holders = calloc(n, sizeof(*g->holders));
	if (!g->holders)
		return -ENOMEM;

	ibmcg_nla_for_each(pos, items, ilen, rem) {
		if (attr_type(pos) != IB_MCG_A_HOLDER)
			continue;
		if (attrs_parse_nested(tb, IB_MCG_HOLDER_A_MAX, pos,
				       holder_policy))
			return -EPROTO;
		ho = &g->holders[g->nholders++];
		get_str(tb, IB_MCG_HOLDER_A_OWNER, ho->owner,
			sizeof(ho->owner));
		get_u8(tb, IB_MCG_HOLDER_A_JOIN_STATE, &ho->join_state);
		get_u32(tb, IB_MCG_HOLDER_A_FLAGS, &ho->flags);
		get_u32(tb, IB_MCG_HOLDER_A_NL_PORTID, &ho->nl_portid);
		get_u64(tb, IB_MCG_HOLDER_A_AGE_MS, &ho->age_ms);
	}
	return 0;
}

int ibmcg__parse_group(const struct nlmsghdr *nlh, struct ibmcg_group *g)
{
	struct nlattr *tb[IB_MCG_A_MAX + 1], *list = NULL;
	size_t len;
	int err;

	memset(g, 0, sizeof(*g));
	len = wrapped_list(nlh, IB_MCG_A_HOLDERS, 0, &list);
	err = parse_attrs_list(nlh, tb, g->present, list, len);
	if (err)
		return err;
	if (list)
		tb[IB_MCG_A_HOLDERS] = list;

	get_str(tb, IB_MCG_A_DEV_NAME, g->dev_name, sizeof(g->dev_name));
	get_u32(tb, IB_MCG_A_DEV_INDEX, &g->dev_index);
	get_u32(tb, IB_MCG_A_PORT, &g->port);
	get_gid(tb, IB_MCG_A_MGID, g->mgid);
	get_u8(tb, IB_MCG_A_STATE, &g->state);
	get_u8(tb, IB_MCG_A_REASON, &g->reason);
	get_u32(tb, IB_MCG_A_ERROR, &g->error);
	get_u8(tb, IB_MCG_A_JOIN_STATE, &g->join_state);
	get_u8(tb, IB_MCG_A_BACKEND, &g->backend);
	get_u16(tb, IB_MCG_A_MLID, &g->mlid);
	get_u32(tb, IB_MCG_A_QKEY, &g->qkey);
	get_u16(tb, IB_MCG_A_PKEY, &g->pkey);
	get_u8(tb, IB_MCG_A_MTU, &g->mtu);
	get_u8(tb, IB_MCG_A_RATE, &g->rate);
	get_u8(tb, IB_MCG_A_SL, &g->sl);
	get_u32(tb, IB_MCG_A_FLOW_LABEL, &g->flow_label);
	get_u8(tb, IB_MCG_A_TCLASS, &g->tclass);
	get_u8(tb, IB_MCG_A_HOP_LIMIT, &g->hop_limit);
	get_gid(tb, IB_MCG_A_PORT_GID, g->port_gid);
	get_u32(tb, IB_MCG_A_SGID_INDEX, &g->sgid_index);
	get_u32(tb, IB_MCG_A_LINGER_MS, &g->linger_ms);
	get_u32(tb, IB_MCG_A_LINGER_LEFT_MS, &g->linger_left_ms);
	get_u32(tb, IB_MCG_A_HOLDER_COUNT, &g->holder_count);
	get_u16(tb, IB_MCG_A_PREV_MLID, &g->prev_mlid);
	get_u8(tb, IB_MCG_A_LINK_STATE, &g->link_state);

	if (tb[IB_MCG_A_HOLDERS]) {
		err = parse_holders(tb[IB_MCG_A_HOLDERS], len, g);
		if (err) {
			ibmcg__group_clear(g);
			return err;
		}
	}
	return 0;
}

int ibmcg__parse_port(const struct nlmsghdr *nlh, struct ibmcg_port *p)
{
	struct nlattr *tb[IB_MCG_A_MAX + 1];
	int err;

	memset(p, 0, sizeof(*p));
	err = parse_attrs(nlh, tb, p->present);
	if (err)
		return err;

	get_str(tb, IB_MCG_A_DEV_NAME, p->dev_name, sizeof(p->dev_name));
	get_u32(tb, IB_MCG_A_DEV_INDEX, &p->dev_index);
	get_u32(tb, IB_MCG_A_PORT, &p->port);
	get_u8(tb, IB_MCG_A_LINK_LAYER, &p->link_layer);
	get_u8(tb, IB_MCG_A_PORT_STATE, &p->port_state);
	get_u8(tb, IB_MCG_A_BACKEND, &p->backend);
	get_str(tb, IB_MCG_A_NETDEV, p->netdev, sizeof(p->netdev));
	get_u32(tb, IB_MCG_A_IFINDEX, &p->ifindex);
	get_u32(tb, IB_MCG_A_MAX_MCAST_GRP, &p->max_mcast_grp);
	get_u32(tb, IB_MCG_A_MAX_MCAST_QP_ATTACH, &p->max_mcast_qp_attach);
	get_u32(tb, IB_MCG_A_MAX_TOTAL_MCAST_QP_ATTACH,
		&p->max_total_mcast_qp_attach);
	get_u32(tb, IB_MCG_A_GROUPS, &p->groups);
	get_u32(tb, IB_MCG_A_HOLDER_COUNT, &p->holder_count);
	get_u64(tb, IB_MCG_A_JOINS, &p->joins);
	get_u64(tb, IB_MCG_A_LEAVES, &p->leaves);
	get_u64(tb, IB_MCG_A_JOIN_ERRORS, &p->join_errors);
	get_u64(tb, IB_MCG_A_LINGER_HITS, &p->linger_hits);
	get_u64(tb, IB_MCG_A_LINGER_EXPIRED, &p->linger_expired);
	get_u32(tb, IB_MCG_A_MAX_GROUPS, &p->max_groups);
	get_u32(tb, IB_MCG_A_MAX_OWNER_HOLDS, &p->max_owner_holds);
	get_u32(tb, IB_MCG_A_LID, &p->lid);
	get_u32(tb, IB_MCG_A_SM_LID, &p->sm_lid);
	get_u32(tb, IB_MCG_A_LAST_SM_LID, &p->last_sm_lid);
	get_u32(tb, IB_MCG_A_LAST_REJOIN_WAVE_MS, &p->last_rejoin_wave_ms);
	get_u32(tb, IB_MCG_A_REJOIN_PENDING, &p->rejoin_pending);
	get_u64(tb, IB_MCG_A_SM_REREGISTERS, &p->sm_reregisters);
	get_u64(tb, IB_MCG_A_REJOIN_WAVES, &p->rejoin_waves);
	get_u64(tb, IB_MCG_A_GROUP_REJOINS, &p->group_rejoins);
	get_u64(tb, IB_MCG_A_REJOIN_FAILURES, &p->rejoin_failures);
	get_u64(tb, IB_MCG_A_SA_TIMEOUTS, &p->sa_timeouts);
	get_u64(tb, IB_MCG_A_MLID_CHANGES, &p->mlid_changes);
	return 0;
}

/* IB_MCG_A_RELEASED: a list of IB_MCG_A_GROUP nests, in the top level's
 * attribute space.
 */
static int parse_released(struct nlattr *nest, size_t len,
			  struct ibmcg_release_reply *r)
{
	struct nlattr *tb[IB_MCG_A_MAX + 1];
	struct ibmcg_released *e;
	struct nlattr *pos, *items;
	int rem, ilen;
	size_t n = 0;

	list_items(nest, len, &items, &ilen);
	ibmcg_nla_for_each(pos, items, ilen, rem)
		if (attr_type(pos) == IB_MCG_A_GROUP)
			n++;
	if (!n)
		return 0;
	r->released = calloc(n, sizeof(*r->released));
	if (!r->released)
		return -ENOMEM;

	ibmcg_nla_for_each(pos, items, ilen, rem) {
		if (attr_type(pos) != IB_MCG_A_GROUP)
			continue;
		if (attrs_parse_nested(tb, IB_MCG_A_MAX, pos, group_policy))
			return -EPROTO;
		e = &r->released[r->n++];
		get_str(tb, IB_MCG_A_DEV_NAME, e->dev_name,
			sizeof(e->dev_name));
		get_u32(tb, IB_MCG_A_DEV_INDEX, &e->dev_index);
		get_u32(tb, IB_MCG_A_PORT, &e->port);
		get_gid(tb, IB_MCG_A_MGID, e->mgid);
		get_u8(tb, IB_MCG_A_JOIN_STATE, &e->join_state);
		get_u8(tb, IB_MCG_A_STATE, &e->state);
	}
	return 0;
}

int ibmcg__parse_owner_release(const struct nlmsghdr *nlh,
			      struct ibmcg_release_reply *r)
{
	struct nlattr *tb[IB_MCG_A_MAX + 1], *list = NULL;
	uint64_t present[IBMCG_ATTR_WORDS];
	size_t len;
	int err;

	memset(r, 0, sizeof(*r));
	/* Version 1 put IB_MCG_A_HOLDER_COUNT (8 bytes) after the list. */
	len = wrapped_list(nlh, IB_MCG_A_RELEASED, nla_total_size(4), &list);
	err = parse_attrs_list(nlh, tb, present, list, len);
	if (err)
		return err;
	if (list)
		tb[IB_MCG_A_RELEASED] = list;

	get_str(tb, IB_MCG_A_OWNER, r->owner, sizeof(r->owner));
	get_u32(tb, IB_MCG_A_HOLDER_COUNT, &r->holds_dropped);
	if (tb[IB_MCG_A_RELEASED]) {
		err = parse_released(tb[IB_MCG_A_RELEASED], len, r);
		if (err) {
			free(r->released);
			memset(r, 0, sizeof(*r));
			return err;
		}
	}
	return 0;
}

/*
 * Protocol version 2 sends an OWNER_RELEASE result as several messages,
 * each with the owner, the total of holds dropped and a part of the list:
 * append @part's list to @acc's. @part is emptied either way.
 */
int ibmcg__merge_owner_release(struct ibmcg_release_reply *acc,
			      struct ibmcg_release_reply *part)
{
	struct ibmcg_released *v;

	memcpy(acc->owner, part->owner, sizeof(acc->owner));
	acc->holds_dropped = part->holds_dropped;
	if (part->n) {
		v = reallocarray(acc->released, acc->n + part->n, sizeof(*v));
		if (!v) {
			free(part->released);
			memset(part, 0, sizeof(*part));
			return -ENOMEM;
		}
		memcpy(v + acc->n, part->released, part->n * sizeof(*v));
		acc->released = v;
		acc->n += part->n;
	}
	free(part->released);
	memset(part, 0, sizeof(*part));
	return 0;
}

/*
 * NLMSG_ERROR or NLMSG_DONE: return the (negative) error it carries and keep
 * the extended ack text, if any, in h->errmsg. Layout as built by the
 * kernel's netlink_ack() and netlink_dump_done(): the TLVs follow the
 * aligned payload, which for an uncapped error includes the request.
 */
int ibmcg__parse_ack(struct ibmcg *h, const struct nlmsghdr *nlh)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	size_t payload, hlen = nlh->nlmsg_len;
	const char *what;
	int err;

	if (nlh->nlmsg_type == NLMSG_DONE) {
		/* Old kernels may send DONE without an error code. */
		if (hlen < NLMSG_LENGTH(sizeof(int)))
			return 0;
		memcpy(&err, NLMSG_DATA(nlh), sizeof(err));
		payload = sizeof(int);
	} else {
		const struct nlmsgerr *e = NLMSG_DATA(nlh);

		if (hlen < NLMSG_LENGTH(sizeof(*e)))
			return -EPROTO;
		err = e->error;
		payload = sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED) &&
		    e->msg.nlmsg_len >= NLMSG_HDRLEN)
			payload += e->msg.nlmsg_len - NLMSG_HDRLEN;
	}
	if (err > 0)		/* nobody sends these; don't call it success */
		err = -err;
	if (!err || !(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return err;

	payload = NLMSG_HDRLEN + NLMSG_ALIGN(payload);
	if (payload >= hlen)
		return err;
	if (attrs_parse(tb, NLMSGERR_ATTR_MAX,
			(struct nlattr *)((char *)nlh + payload),
			hlen - payload, NULL))
		return err;

	if (tb[NLMSGERR_ATTR_MSG]) {
		attr_strlcpy(h->errmsg, tb[NLMSGERR_ATTR_MSG],
			     sizeof(h->errmsg));
	} else if (tb[NLMSGERR_ATTR_MISS_TYPE] &&
		   ibmcg_nla_len(tb[NLMSGERR_ATTR_MISS_TYPE]) >= 4) {
		const struct nlattr *m = tb[NLMSGERR_ATTR_MISS_TYPE];
		uint32_t a;

		memcpy(&a, ibmcg_nla_data(m), sizeof(a));

		what = ibmcg__attr_name(a);
		if (what)
			snprintf(h->errmsg, sizeof(h->errmsg),
				 "missing attribute: %s", what);
		else
			snprintf(h->errmsg, sizeof(h->errmsg),
				 "missing attribute %u", a);
	}
	return err;
}

void ibmcg__group_clear(struct ibmcg_group *g)
{
	if (!g)
		return;
	free(g->holders);
	g->holders = NULL;
	g->nholders = 0;
}
