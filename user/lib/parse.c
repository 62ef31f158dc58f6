// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * libibmcg internals: the join options, shared by the configuration file
 * (conf_parse.c) and "mcctl join"; see ibmcg_conf.h. A usage error is a
 * message in the caller's struct ibmcg__perr, never output.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibmcg_conf.h"

int ibmcg__perr_set(struct ibmcg__perr *pe, const char *fmt, ...)
{
	size_t n = 0;
	va_list ap;

	if (pe->where[0])
		n = snprintf(pe->msg, sizeof(pe->msg), "%s: ", pe->where);
	va_start(ap, fmt);
	vsnprintf(pe->msg + n, sizeof(pe->msg) - n, fmt, ap);
	va_end(ap);
	pe->unknown = false;
	return -EINVAL;
}

int ibmcg__perr_unknown(struct ibmcg__perr *pe, const char *arg)
{
	int err = ibmcg__perr_set(pe, "unknown parameter '%s'", arg);

	pe->unknown = !pe->where[0];
	return err;
}

bool ibmcg__matches(const char *arg, const char *word)
{
	size_t len = strlen(arg);

	return len && !strncmp(arg, word, len);
}

int ibmcg__parse_u32(const char *s, uint32_t *v)
{
	unsigned long long x;
	int base = 10;
	char *end;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!isxdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &end, base);
	if (errno || *end || x > UINT32_MAX)
		return -EINVAL;
	*v = x;
	return 0;
}

int ibmcg__parse_linger(const char *s, uint32_t *ms, const char **why)
{
	static const struct {
		const char *unit;
		unsigned int ms;
	} units[] = {
		{ "", 1 }, { "ms", 1 }, { "s", 1000 }, { "m", 60000 },
	};
	unsigned long long v;
	unsigned int i;
	char *end;

	/* Digits first: strtoull would take "-1", "+1" and " 1". */
	if (*s < '0' || *s > '9')
		goto malformed;
	errno = 0;
	v = strtoull(s, &end, 10);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit))
			break;
	if (i == sizeof(units) / sizeof(units[0]))
		goto malformed;
	if (errno || v > IB_MCG_LINGER_MAX_MS / units[i].ms) {
		*why = "longer than one day (86400000 ms)";
		return -EINVAL;
	}
	*ms = v * units[i].ms;
	return 0;

malformed:
	*why = "expected whole milliseconds, or a whole number with unit ms, s or m (500ms, 30s, 2m)";
	return -EINVAL;
}

/* Step to the value of keyword (*argv)[0]; a usage error if none. */
static int next_arg(int *argc, char ***argv, struct ibmcg__perr *pe)
{
	const char *key = **argv;

	if (*argc < 2)
		return ibmcg__perr_set(pe, "missing value for '%s'", key);
	(*argc)--;
	(*argv)++;
	return 0;
}

/* The keywords of join and leave, for refusing one given twice. */
enum keyword {
	KW_OWNER, KW_STATE, KW_QKEY, KW_LINGER, KW_BOUND, KW_CREATE, KW_PKEY,
	KW_MTU, KW_RATE, KW_SL, KW_FLOW_LABEL, KW_TCLASS, KW_HOP_LIMIT,
	KW_SCOPE,
};

/*
 * Records keyword @kw (spelled out as @name) in *seen; a usage error if it
 * was given before: "owner a owner b" would otherwise quietly act for b.
 */
static int once(unsigned int *seen, enum keyword kw, const char *name,
		struct ibmcg__perr *pe)
{
	if (*seen & (1u << kw))
		return ibmcg__perr_set(pe, "'%s' given twice: each keyword may be given once",
				 name);
	*seen |= 1u << kw;
	return 0;
}

static int parse_owner(const char *s, const char **owner,
		       struct ibmcg__perr *pe)
{
	const char *why;

	if (ibmcg_owner_check(s, &why))
		return ibmcg__perr_set(pe, "invalid owner '%s': %s", s, why);
	*owner = s;
	return 0;
}

/*
 * owner NAME and state STATE, shared by join and leave; *owner_set (may be
 * NULL) tells that owner was given. *seen: the keywords given so far.
 */
static int parse_holder_arg(int *argcp, char ***argvp, const char **owner,
			    bool *owner_set, uint8_t *js, unsigned int *seen,
			    bool *used, struct ibmcg__perr *pe)
{
	const char *why;
	int err;

	*used = true;
	if (ibmcg__matches(**argvp, "owner")) {
		err = once(seen, KW_OWNER, "owner", pe);
		if (!err)
			err = next_arg(argcp, argvp, pe);
		if (err)
			return err;
		if (owner_set)
			*owner_set = true;
		return parse_owner(**argvp, owner, pe);
	} else if (ibmcg__matches(**argvp, "state")) {
		err = once(seen, KW_STATE, "state", pe);
		if (!err)
			err = next_arg(argcp, argvp, pe);
		if (err)
			return err;
		if (ibmcg_join_state_parse(**argvp, js, &why))
			return ibmcg__perr_set(pe, "invalid state '%s': %s",
					 **argvp, why);
	} else {
		*used = false;
	}
	return 0;
}

bool ibmcg__is_sa_assigned(const char *s)
{
	static const uint8_t zero[IBMCG_GID_LEN];
	struct in6_addr a6;

	if (!strcmp(s, "0"))
		return true;
	return inet_pton(AF_INET6, s, &a6) == 1 &&
	       !memcmp(a6.s6_addr, zero, sizeof(zero));
}

/* A number of a create parameter: 0..max, decimal or 0x hex. */
static int parse_create_u32(int *argc, char ***argv, const char *name,
			    uint32_t max, const char *range, uint32_t *v,
			    bool *set, struct ibmcg__perr *pe)
{
	int err;

	err = next_arg(argc, argv, pe);
	if (err)
		return err;
	if (ibmcg__parse_u32(**argv, v) || *v > max)
		return ibmcg__perr_set(pe, "invalid %s '%s': expected %s", name,
				 **argv, range);
	*set = true;
	return 0;
}

static int parse_create_u8(int *argc, char ***argv, const char *name,
			   uint8_t max, const char *range, uint8_t *v, bool *set,
			   struct ibmcg__perr *pe)
{
	uint32_t x;
	int err;

	err = parse_create_u32(argc, argv, name, max, range, &x, set, pe);
	if (!err)
		*v = x;
	return err;
}

/*
 * The create parameters of an InfiniBand group. Keywords are matched in
 * this order after the older ones, so that existing abbreviations keep
 * their meaning ("s" is still state).
 */
static int parse_create_arg(int *argcp, char ***argvp,
			    struct ibmcg_join_args *a, unsigned int *seen,
			    bool *used, struct ibmcg__perr *pe)
{
	static const struct {
		const char *name;
		enum keyword kw;
	} keys[] = {
		{ "create", KW_CREATE }, { "pkey", KW_PKEY }, { "mtu", KW_MTU },
		{ "rate", KW_RATE }, { "sl", KW_SL },
		{ "flow_label", KW_FLOW_LABEL }, { "tclass", KW_TCLASS },
		{ "hop_limit", KW_HOP_LIMIT }, { "scope", KW_SCOPE },
	};
	const char *key = **argvp, *why;
	unsigned int i;
	uint32_t v;
	int err;

	/* The first keyword it abbreviates, in the order matched below. */
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (ibmcg__matches(key, keys[i].name)) {
			err = once(seen, keys[i].kw, keys[i].name, pe);
			if (err)
				return err;
			break;
		}
	}

	*used = true;
	if (ibmcg__matches(key, "create")) {
		a->create = true;
	} else if (ibmcg__matches(key, "pkey")) {
		err = next_arg(argcp, argvp, pe);
		if (err)
			return err;
		if (ibmcg__parse_u32(**argvp, &v) || v > 0xffff)
			return ibmcg__perr_set(pe, "invalid pkey '%s': expected 0x0001..0xffff",
					 **argvp);
		if (!(v & 0x7fff))
			return ibmcg__perr_set(pe, "invalid pkey '%s': P_Keys 0x0000 and 0x8000 are invalid",
					 **argvp);
		a->pkey = v;
		a->set_pkey = true;
	} else if (ibmcg__matches(key, "mtu")) {
		err = next_arg(argcp, argvp, pe);
		if (err)
			return err;
		if (ibmcg__parse_u32(**argvp, &v) || ibmcg_mtu_from_bytes(v) < 0)
			return ibmcg__perr_set(pe, "invalid mtu '%s': expected 256, 512, 1024, 2048 or 4096 (bytes)",
					 **argvp);
		a->mtu = ibmcg_mtu_from_bytes(v);
		a->set_mtu = true;
	} else if (ibmcg__matches(key, "rate")) {
		err = next_arg(argcp, argvp, pe);
		if (err)
			return err;
		if (ibmcg_rate_parse(**argvp, &a->rate, &why))
			return ibmcg__perr_set(pe, "invalid rate '%s': %s",
					 **argvp, why);
		a->set_rate = true;
	} else if (ibmcg__matches(key, "sl")) {
		return parse_create_u8(argcp, argvp, "sl", 15, "0..15",
				       &a->sl, &a->set_sl, pe);
	} else if (ibmcg__matches(key, "flow_label")) {
		return parse_create_u32(argcp, argvp, "flow_label", 0xfffff,
					"0..1048575 (0xfffff, 20 bits)",
					&a->flow_label, &a->set_flow_label, pe);
	} else if (ibmcg__matches(key, "tclass")) {
		return parse_create_u8(argcp, argvp, "tclass", 255, "0..255",
				       &a->tclass, &a->set_tclass, pe);
	} else if (ibmcg__matches(key, "hop_limit")) {
		return parse_create_u8(argcp, argvp, "hop_limit", 255,
				       "0..255", &a->hop_limit,
				       &a->set_hop_limit, pe);
	} else if (ibmcg__matches(key, "scope")) {
		return parse_create_u8(argcp, argvp, "scope", 15, "0..15",
				       &a->scope, &a->set_scope, pe);
	} else {
		*used = false;
	}
	return 0;
}

bool ibmcg__mgid_is_ipv4(const uint8_t mgid[IBMCG_GID_LEN])
{
	static const uint8_t v4mapped[12] = { [10] = 0xff, [11] = 0xff };

	return !memcmp(mgid, v4mapped, sizeof(v4mapped));
}

const char *ibmcg__ib_only_param(const struct ibmcg_join_args *a)
{
	if (a->set_pkey)
		return "pkey";
	if (a->set_mtu)
		return "mtu";
	if (a->set_rate)
		return "rate";
	if (a->set_sl)
		return "sl";
	if (a->set_flow_label)
		return "flow_label";
	if (a->set_tclass)
		return "tclass";
	if (a->set_hop_limit)
		return "hop_limit";
	if (a->set_scope)
		return "scope";
	return NULL;
}

/* What no kernel would accept, said here rather than after a round trip. */
static int check_join(const struct join_cmd *c, struct ibmcg__perr *pe)
{
	const struct ibmcg_join_args *a = &c->args;
	const char *ib = ibmcg__ib_only_param(a);
	uint8_t js = a->join_state ? a->join_state : IB_MCG_JOIN_FULL;

	if (c->sa_assigned &&
	    !(js & (IB_MCG_JOIN_FULL | IB_MCG_JOIN_SENDONLY_FULL)))
		return ibmcg__perr_set(pe, "an SA-assigned MGID needs state full or sendonly-full: only a full member creates a group");
	if (a->set_scope && !c->sa_assigned)
		return ibmcg__perr_set(pe, "scope is only for an SA-assigned MGID (group 0); an MGID carries its scope in its second byte");
	if (ib && ibmcg__mgid_is_ipv4(c->mgid))
		return ibmcg__perr_set(pe, "%s is an InfiniBand create parameter, and an IPv4 group is a RoCE group",
				 ib);
	return 0;
}

int ibmcg__parse_join_opts(int argc, char **argv, struct join_cmd *c,
			   struct ibmcg__perr *pe)
{
	struct ibmcg_join_args *args = &c->args;
	unsigned int seen = 0;
	const char *why;
	bool used;
	int err;

	args->size = sizeof(*args);	/* the ABI's size of this libibmcg */
	for (; argc > 0; argc--, argv++) {
		err = parse_holder_arg(&argc, &argv, &args->owner,
				       &c->owner_set, &args->join_state, &seen,
				       &used, pe);
		if (err)
			return err;
		if (used)
			continue;
		if (ibmcg__matches(*argv, "qkey")) {
			err = once(&seen, KW_QKEY, "qkey", pe);
			if (!err)
				err = next_arg(&argc, &argv, pe);
			if (err)
				return err;
			if (ibmcg__parse_u32(*argv, &args->qkey))
				return ibmcg__perr_set(pe, "invalid qkey '%s'",
						 *argv);
			args->set_qkey = true;
		} else if (ibmcg__matches(*argv, "linger")) {
			err = once(&seen, KW_LINGER, "linger", pe);
			if (!err)
				err = next_arg(&argc, &argv, pe);
			if (err)
				return err;
			if (ibmcg__parse_linger(*argv, &args->linger_ms, &why))
				return ibmcg__perr_set(pe, "invalid linger '%s': %s",
						 *argv, why);
			args->set_linger = true;
		} else if (ibmcg__matches(*argv, "bound")) {
			err = once(&seen, KW_BOUND, "bound", pe);
			if (err)
				return err;
			args->flags |= IB_MCG_F_BOUND;
		} else {
			err = parse_create_arg(&argc, &argv, args, &seen,
					       &used, pe);
			if (err)
				return err;
			if (!used)
				return ibmcg__perr_unknown(pe, *argv);
		}
	}
	return check_join(c, pe);
}

int ibmcg__parse_holder_opts(int argc, char **argv, const char **owner,
			     uint8_t *js, struct ibmcg__perr *pe)
{
	unsigned int seen = 0;
	bool used;
	int err;

	for (; argc > 0; argc--, argv++) {
		err = parse_holder_arg(&argc, &argv, owner, NULL, js, &seen,
				       &used, pe);
		if (err)
			return err;
		if (!used)
			return ibmcg__perr_unknown(pe, *argv);
	}
	return 0;
}

