// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl command line parsing; see mcctl_args.h.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcctl_args.h"

__thread const char *usage_where;
const char *usage_cmd;
__thread char *usage_sink;
__thread size_t usage_sink_len;

int usage_err(const char *fmt, ...)
{
	char *msg = NULL;
	const char *m;
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (len < 0) {
		fputs("mcctl: usage error\n", stderr);
		return EXIT_USAGE;
	}
	m = msg;
	if (usage_sink) {
		if (!strncmp(m, "mcctl: ", 7))
			m += 7;
		snprintf(usage_sink, usage_sink_len, "%s%s%s",
			 usage_where ? usage_where : "",
			 usage_where ? ": " : "", m);
	} else if (usage_where) {
		if (!strncmp(m, "mcctl: ", 7))
			m += 7;
		fprintf(stderr, "mcctl: %s: %s\n", usage_where, m);
	} else {
		fprintf(stderr, "%s\n", m);
	}
	free(msg);
	return EXIT_USAGE;
}

int unknown_param(const char *arg)
{
	/* In the configuration file, FILE:LINE says where to look. */
	if (usage_where)
		return usage_err("unknown parameter '%s'", arg);
	return usage_err("mcctl: unknown parameter '%s'; try \"mcctl %s%shelp\"",
			 arg, usage_cmd ? usage_cmd : "", usage_cmd ? " " : "");
}

bool matches(const char *arg, const char *word)
{
	size_t len = strlen(arg);

	return len && !strncmp(arg, word, len);
}

int parse_u32(const char *s, uint32_t *v)
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

int parse_linger(const char *s, uint32_t *ms, const char **why)
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

int parse_devport(const char *s, char *dev, uint32_t *port,
		  bool port_optional)
{
	const char *why;

	if (ibmcg_devport_parse(s, dev, port, port_optional, &why))
		return usage_err("mcctl: invalid %s '%s': %s",
				 port_optional ? "DEV[/PORT]" : "DEV/PORT",
				 s, why);
	return 0;
}

int parse_target(int *argc, char ***argv, char *dev, uint32_t *port,
		 uint8_t *mgid)
{
	const char *why;
	int err;

	if (*argc < 2)
		return usage_err("mcctl: expected DEV/PORT GROUP");
	err = parse_devport((*argv)[0], dev, port, false);
	if (err)
		return err;
	if (ibmcg_mgid_parse((*argv)[1], mgid, &why))
		return usage_err("mcctl: invalid group '%s': %s", (*argv)[1],
				 why);
	*argc -= 2;
	*argv += 2;
	return 0;
}

int parse_filter(int argc, char **argv, char *dev, uint32_t *port)
{
	dev[0] = '\0';
	*port = 0;
	if (argc > 1)
		return unknown_param(argv[1]);
	return argc ? parse_devport(argv[0], dev, port, true) : 0;
}

/* Step to the value of keyword (*argv)[0]; a usage error if none. */
static int next_arg(int *argc, char ***argv)
{
	const char *key = **argv;

	if (*argc < 2)
		return usage_err("mcctl: missing value for '%s'", key);
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
static int once(unsigned int *seen, enum keyword kw, const char *name)
{
	if (*seen & (1u << kw))
		return usage_err("mcctl: '%s' given twice: each keyword may be given once",
				 name);
	*seen |= 1u << kw;
	return 0;
}

static int parse_owner(const char *s, const char **owner)
{
	const char *why;

	if (ibmcg_owner_check(s, &why))
		return usage_err("mcctl: invalid owner '%s': %s", s, why);
	*owner = s;
	return 0;
}

/* The group states list can filter on: those a dump shows. */
static const uint8_t list_states[] = {
	IB_MCG_STATE_JOINING, IB_MCG_STATE_JOINED, IB_MCG_STATE_RETRY_WAIT,
	IB_MCG_STATE_DETACHED, IB_MCG_STATE_LINGERING,
};

static int parse_group_state(const char *s, uint8_t *state)
{
	size_t i;

	for (i = 0; i < sizeof(list_states); i++) {
		if (!strcmp(s, ibmcg_state_name(list_states[i]))) {
			*state = list_states[i];
			return 0;
		}
	}
	return usage_err("mcctl: invalid group state '%s': expected joining, joined, retry-wait, detached or lingering",
			 s);
}

int parse_list(int argc, char **argv, struct list_cmd *c)
{
	unsigned int seen = 0;
	bool have_dev = false;
	int err;

	memset(c, 0, sizeof(*c));
	for (; argc > 0; argc--, argv++) {
		if (matches(*argv, "owner")) {
			err = once(&seen, KW_OWNER, "owner");
			if (!err)
				err = next_arg(&argc, &argv);
			if (!err)
				err = parse_owner(*argv, &c->owner);
		} else if (matches(*argv, "state")) {
			err = once(&seen, KW_STATE, "state");
			if (!err)
				err = next_arg(&argc, &argv);
			if (!err)
				err = parse_group_state(*argv, &c->state);
		} else if (!have_dev) {
			have_dev = true;
			err = parse_devport(*argv, c->dev, &c->port, true);
		} else {
			err = unknown_param(*argv);
		}
		if (err)
			return err;
	}
	return 0;
}

bool list_match(const struct list_cmd *c, const struct ibmcg_group *g)
{
	size_t i;

	if (c->state && g->state != c->state)
		return false;
	if (!c->owner)
		return true;
	for (i = 0; i < g->nholders; i++)
		if (!strcmp(ibmcg_group_holder(g, i)->owner, c->owner))
			return true;
	return false;
}

/*
 * owner NAME and state STATE, shared by join and leave; *owner_set (may be
 * NULL) tells that owner was given. *seen: the keywords given so far.
 */
static int parse_holder_arg(int *argcp, char ***argvp, const char **owner,
			    bool *owner_set, uint8_t *js, unsigned int *seen,
			    bool *used)
{
	const char *why;
	int err;

	*used = true;
	if (matches(**argvp, "owner")) {
		err = once(seen, KW_OWNER, "owner");
		if (!err)
			err = next_arg(argcp, argvp);
		if (err)
			return err;
		if (owner_set)
			*owner_set = true;
		return parse_owner(**argvp, owner);
	} else if (matches(**argvp, "state")) {
		err = once(seen, KW_STATE, "state");
		if (!err)
			err = next_arg(argcp, argvp);
		if (err)
			return err;
		if (ibmcg_join_state_parse(**argvp, js, &why))
			return usage_err("mcctl: invalid state '%s': %s",
					 **argvp, why);
	} else {
		*used = false;
	}
	return 0;
}

bool is_sa_assigned(const char *s)
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
			    bool *set)
{
	int err;

	err = next_arg(argc, argv);
	if (err)
		return err;
	if (parse_u32(**argv, v) || *v > max)
		return usage_err("mcctl: invalid %s '%s': expected %s", name,
				 **argv, range);
	*set = true;
	return 0;
}

static int parse_create_u8(int *argc, char ***argv, const char *name,
			   uint8_t max, const char *range, uint8_t *v, bool *set)
{
	uint32_t x;
	int err;

	err = parse_create_u32(argc, argv, name, max, range, &x, set);
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
			    bool *used)
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
		if (matches(key, keys[i].name)) {
			err = once(seen, keys[i].kw, keys[i].name);
			if (err)
				return err;
			break;
		}
	}

	*used = true;
	if (matches(key, "create")) {
		a->create = true;
	} else if (matches(key, "pkey")) {
		err = next_arg(argcp, argvp);
		if (err)
			return err;
		if (parse_u32(**argvp, &v) || v > 0xffff)
			return usage_err("mcctl: invalid pkey '%s': expected 0x0001..0xffff",
					 **argvp);
		if (!(v & 0x7fff))
			return usage_err("mcctl: invalid pkey '%s': P_Keys 0x0000 and 0x8000 are invalid",
					 **argvp);
		a->pkey = v;
		a->set_pkey = true;
	} else if (matches(key, "mtu")) {
		err = next_arg(argcp, argvp);
		if (err)
			return err;
		if (parse_u32(**argvp, &v) || ibmcg_mtu_from_bytes(v) < 0)
			return usage_err("mcctl: invalid mtu '%s': expected 256, 512, 1024, 2048 or 4096 (bytes)",
					 **argvp);
		a->mtu = ibmcg_mtu_from_bytes(v);
		a->set_mtu = true;
	} else if (matches(key, "rate")) {
		err = next_arg(argcp, argvp);
		if (err)
			return err;
		if (ibmcg_rate_parse(**argvp, &a->rate, &why))
			return usage_err("mcctl: invalid rate '%s': %s",
					 **argvp, why);
		a->set_rate = true;
	} else if (matches(key, "sl")) {
		return parse_create_u8(argcp, argvp, "sl", 15, "0..15",
				       &a->sl, &a->set_sl);
	} else if (matches(key, "flow_label")) {
		return parse_create_u32(argcp, argvp, "flow_label", 0xfffff,
					"0..1048575 (0xfffff, 20 bits)",
					&a->flow_label, &a->set_flow_label);
	} else if (matches(key, "tclass")) {
		return parse_create_u8(argcp, argvp, "tclass", 255, "0..255",
				       &a->tclass, &a->set_tclass);
	} else if (matches(key, "hop_limit")) {
		return parse_create_u8(argcp, argvp, "hop_limit", 255,
				       "0..255", &a->hop_limit,
				       &a->set_hop_limit);
	} else if (matches(key, "scope")) {
		return parse_create_u8(argcp, argvp, "scope", 15, "0..15",
				       &a->scope, &a->set_scope);
	} else {
		*used = false;
	}
	return 0;
}

bool mgid_is_ipv4(const uint8_t mgid[IBMCG_GID_LEN])
{
	static const uint8_t v4mapped[12] = { [10] = 0xff, [11] = 0xff };

	return !memcmp(mgid, v4mapped, sizeof(v4mapped));
}

const char *ib_only_param(const struct ibmcg_join_args *a)
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
static int check_join(const struct join_cmd *c)
{
	const struct ibmcg_join_args *a = &c->args;
	const char *ib = ib_only_param(a);
	uint8_t js = a->join_state ? a->join_state : IB_MCG_JOIN_FULL;

	if (c->sa_assigned &&
	    !(js & (IB_MCG_JOIN_FULL | IB_MCG_JOIN_SENDONLY_FULL)))
		return usage_err("mcctl: an SA-assigned MGID needs state full or sendonly-full: only a full member creates a group");
	if (a->set_scope && !c->sa_assigned)
		return usage_err("mcctl: scope is only for an SA-assigned MGID (group 0); an MGID carries its scope in its second byte");
	if (ib && mgid_is_ipv4(c->mgid))
		return usage_err("mcctl: %s is an InfiniBand create parameter, and an IPv4 group is a RoCE group",
				 ib);
	return 0;
}

/*
 * DEV/PORT GROUP or a name, as parse_target(), where GROUP may also be 0
 * (an SA-assigned MGID: *@mgid stays zero, *@sa, if given, is set).
 */
static int parse_target_or_sa(int *argc, char ***argv, char *dev,
			      uint32_t *port, uint8_t *mgid, bool *sa)
{
	int err;

	if (*argc < 2 || !is_sa_assigned((*argv)[1]))
		return parse_target(argc, argv, dev, port, mgid);
	err = parse_devport((*argv)[0], dev, port, false);
	if (err)
		return err;
	if (sa)
		*sa = true;
	*argc -= 2;
	*argv += 2;
	return 0;
}

int parse_join(int argc, char **argv, struct join_cmd *c)
{
	int err;

	memset(c, 0, sizeof(*c));
	c->args.owner = "default";
	err = parse_target_or_sa(&argc, &argv, c->dev, &c->port, c->mgid,
				 &c->sa_assigned);
	if (err)
		return err;
	return parse_join_opts(argc, argv, c);
}

int parse_join_opts(int argc, char **argv, struct join_cmd *c)
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
				       &used);
		if (err)
			return err;
		if (used)
			continue;
		if (matches(*argv, "qkey")) {
			err = once(&seen, KW_QKEY, "qkey");
			if (!err)
				err = next_arg(&argc, &argv);
			if (err)
				return err;
			if (parse_u32(*argv, &args->qkey))
				return usage_err("mcctl: invalid qkey '%s'",
						 *argv);
			args->set_qkey = true;
		} else if (matches(*argv, "linger")) {
			err = once(&seen, KW_LINGER, "linger");
			if (!err)
				err = next_arg(&argc, &argv);
			if (err)
				return err;
			if (parse_linger(*argv, &args->linger_ms, &why))
				return usage_err("mcctl: invalid linger '%s': %s",
						 *argv, why);
			args->set_linger = true;
		} else if (matches(*argv, "bound")) {
			err = once(&seen, KW_BOUND, "bound");
			if (err)
				return err;
			args->flags |= IB_MCG_F_BOUND;
		} else {
			err = parse_create_arg(&argc, &argv, args, &seen,
					       &used);
			if (err)
				return err;
			if (!used)
				return unknown_param(*argv);
		}
	}
	return check_join(c);
}

/* owner NAME all [DEV[/PORT]], after "owner". */
static int parse_leave_owner(int argc, char **argv, struct leave_cmd *c)
{
	int err;

	if (argc < 1)
		return usage_err("mcctl: missing value for 'owner'");
	err = parse_owner(argv[0], &c->owner);
	if (err)
		return err;
	if (argc < 2 || !matches(argv[1], "all"))
		return usage_err("mcctl: expected 'leave owner NAME all [ DEV[/PORT] ]' to drop every hold of '%s'",
				 argv[0]);
	c->all = true;
	if (argc > 3)
		return unknown_param(argv[3]);
	return argc == 3 ? parse_devport(argv[2], c->dev, &c->port, true) : 0;
}

int parse_leave(int argc, char **argv, struct leave_cmd *c)
{
	int err;

	memset(c, 0, sizeof(*c));
	c->owner = "default";
	/* A DEV/PORT always has a slash; the keyword never does. */
	if (argc > 0 && !strchr(argv[0], '/') && matches(argv[0], "owner"))
		return parse_leave_owner(argc - 1, argv + 1, c);

	/* Group 0: the groups whose SA-assigned MGID is still pending. */
	err = parse_target_or_sa(&argc, &argv, c->dev, &c->port, c->mgid, NULL);
	if (err)
		return err;
	return parse_holder_opts(argc, argv, &c->owner, &c->join_state);
}

int parse_holder_opts(int argc, char **argv, const char **owner, uint8_t *js)
{
	unsigned int seen = 0;
	bool used;
	int err;

	for (; argc > 0; argc--, argv++) {
		err = parse_holder_arg(&argc, &argv, owner, NULL, js, &seen,
				       &used);
		if (err)
			return err;
		if (!used)
			return unknown_param(*argv);
	}
	return 0;
}
