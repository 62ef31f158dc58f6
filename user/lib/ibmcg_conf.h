/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * /etc/ib_mcgroups.conf: the groups a node holds by declaration (group
 * lines, held by "mcctl apply" under the file's owner) and the planned
 * pool of groups jobs join by name (pool lines, "mcctl join NAME owner
 * job:42"). The format is described in ib_mcgroups.conf(5):
 *
 *   owner NAME
 *   group NAME TARGET GROUP [ join options ]
 *   pool  NAME TARGET GROUP [ join options ]
 *
 * TARGET := DEV/PORT | DEV | all | all-ib | all-roce
 *
 * libibmcg internals, not installed: the parser behind ibmcg_conf_open()
 * (conf_parse.c) and its join options (parse.c), which mcctl links from
 * libibmcg.a so that a name means the same to an application as to "mcctl
 * join NAME". Parsing, the ports a target covers and the plan of "mcctl
 * apply" are pure functions of their inputs, apart from netlink, so that
 * the unit tests can call them.
 *
 * Functions here are ibmcg__*: library-internal (see HACKING, "Symbols").
 * They print nothing: a usage error returns -EINVAL (-ENOMEM and the
 * like for other failures) with its message in the caller's struct
 * ibmcg__perr.
 */
#ifndef IBMCG_CONF_H
#define IBMCG_CONF_H

#include <stdio.h>

#include "ibmcg.h"

#define IBMCG__CONF_OWNER	"config"	/* owner when none is set */
#define IBMCG__CONF_NAME_MAX	64

/*
 * A usage error. While where is set ("FILE:LINE" of the configuration
 * file) the message starts with it. unknown: the error is an unknown
 * parameter outside a file, to which mcctl adds its help hint.
 */
struct ibmcg__perr {
	char where[300];
	bool unknown;
	char msg[8192];
};

/* Set pe's message; returns -EINVAL. */
int ibmcg__perr_set(struct ibmcg__perr *pe, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "unknown parameter 'ARG'"; returns -EINVAL. */
int ibmcg__perr_unknown(struct ibmcg__perr *pe, const char *arg);

/* iproute2's matches(): arg is a non-empty prefix of word. */
bool ibmcg__matches(const char *arg, const char *word);
/* Decimal, or hexadecimal with 0x; nothing else (no octal, no sign). */
int ibmcg__parse_u32(const char *s, uint32_t *v);
/*
 * A linger time: a whole number of milliseconds, optionally with the unit
 * ms, s or m ("500ms", "30s", "2m"), at most IB_MCG_LINGER_MAX_MS. Returns
 * -EINVAL with *why set if it is not one.
 */
int ibmcg__parse_linger(const char *s, uint32_t *ms, const char **why);
/* An IPv4-mapped MGID (::ffff:a.b.c.d): an IPv4 group, RoCE only. */
bool ibmcg__mgid_is_ipv4(const uint8_t mgid[IBMCG_GID_LEN]);
/* The create parameter the kernel takes on InfiniBand only, if any. */
const char *ibmcg__ib_only_param(const struct ibmcg_join_args *a);
/* GROUP of join: "0" or an all-zero IPv6 address asks the SA for one. */
bool ibmcg__is_sa_assigned(const char *s);

/*
 * join DEV/PORT GROUP [owner NAME] [state S] [qkey Q] [linger MS] [bound]
 *      [create] [pkey P] [mtu BYTES] [rate GBPS] [sl N] [flow_label N]
 *      [tclass N] [hop_limit N] [scope N]
 * GROUP "0" or "::" (any all-zero IPv6 spelling) asks the SA to assign
 * an MGID: mgid is then all zero and sa_assigned set.
 */
struct join_cmd {
	char dev[IBMCG_DEV_NAME_MAX];
	uint32_t port;
	uint8_t mgid[IBMCG_GID_LEN];
	bool sa_assigned;		/* GROUP 0: the SA picks the MGID */
	bool owner_set;			/* owner was given */
	struct ibmcg_join_args args;	/* args.owner points into argv */
};

/*
 * The options after DEV/PORT GROUP, applied on top of *c (a later keyword
 * wins): "mcctl join" after the target, and the configuration file and
 * named joins with their own targets.
 */
int ibmcg__parse_join_opts(int argc, char **argv, struct join_cmd *c,
			   struct ibmcg__perr *pe);
/* [owner NAME] [state S]: the options of leave. */
int ibmcg__parse_holder_opts(int argc, char **argv, const char **owner,
			     uint8_t *js, struct ibmcg__perr *pe);

enum conf_kind {
	CONF_GROUP,		/* held by apply */
	CONF_POOL,		/* only joined by name */
};

enum conf_target {
	TARGET_PORT,		/* DEV/PORT */
	TARGET_DEV,		/* every port of DEV */
	TARGET_ALL,		/* every port that can hold groups */
	TARGET_ALL_IB,		/* every InfiniBand port */
	TARGET_ALL_ROCE,	/* every RoCE port */
};

struct conf_entry {
	char name[IBMCG__CONF_NAME_MAX + 1];
	enum conf_kind kind;
	enum conf_target target;
	char dev[IBMCG_DEV_NAME_MAX];	/* TARGET_PORT, TARGET_DEV */
	uint32_t port;			/* TARGET_PORT */
	struct join_cmd join;		/* mgid and options; dev unused */
	unsigned int line;
	char *buf;			/* the line; join.args.owner points
					 * into it
					 */
	char **tokens;			/* its words */
	int ntokens;
};

struct conf {
	char path[256];
	char owner[IB_MCG_OWNER_MAX + 1];	/* the file's owner */
	struct conf_entry *entries;
	size_t n;
};

/*
 * Parse a configuration; on error the message is "PATH:LINE: why" (the
 * conf is then empty). ibmcg__conf_load() opens path first; a missing
 * file is an error there too ("cannot read PATH: why").
 */
int ibmcg__conf_parse(FILE *fp, const char *path, struct conf *c,
		      struct ibmcg__perr *pe);
int ibmcg__conf_load(const char *path, struct conf *c,
		     struct ibmcg__perr *pe);
void ibmcg__conf_free(struct conf *c);
const struct conf_entry *ibmcg__conf_find(const struct conf *c,
					  const char *name);
/* The owner apply holds an entry's group with. */
const char *ibmcg__conf_entry_owner(const struct conf *c,
				    const struct conf_entry *e);
/* Whether entry e covers port p. */
bool ibmcg__conf_covers(const struct conf_entry *e,
			const struct ibmcg_port *p);
/* Whether a target names a device that must exist (not one of all*). */
bool ibmcg__conf_names_device(const struct conf_entry *e);

enum plan_op {
	PLAN_KEEP,		/* held as declared */
	PLAN_JOIN,		/* declared, not held: join */
	PLAN_UPDATE,		/* held, linger differs: join again */
	PLAN_LEAVE,		/* held by the file's owners, not declared */
	PLAN_SKIP,		/* declared on a device or port not present */
};

struct plan_action {
	enum plan_op op;
	const struct conf_entry *entry;	/* NULL for PLAN_LEAVE */
	char dev[IBMCG_DEV_NAME_MAX];
	uint32_t port;			/* 0 with PLAN_SKIP of a DEV */
	uint8_t mgid[IBMCG_GID_LEN];
	char owner[IB_MCG_OWNER_MAX + 1];
	uint8_t join_state;		/* one bit */
	struct ibmcg_join_args args;	/* PLAN_JOIN, PLAN_UPDATE; owner
					 * points at this action's owner
					 */
	uint32_t linger_was;		/* PLAN_UPDATE */
};

/* "keep", "join", "update", "leave" or "skip" */
const char *ibmcg__plan_op_name(enum plan_op op);

/*
 * What makes the kernel's holds of the file's owners (the owner line and
 * every owner named on a group line) match the file: for each group line
 * and covered port a KEEP, JOIN or UPDATE; for each hold of those owners
 * no line declares a LEAVE. Holds of other owners are not looked at.
 * Actions come in the order they are to be done: joins first, so that a
 * hold changing its join state is never dropped before its successor is
 * taken. Returns 0 or -ENOMEM; free *out with free().
 */
int ibmcg__conf_plan(const struct conf *c, struct ibmcg_port *const *ports,
		     size_t nports, struct ibmcg_group *const *groups,
		     size_t ngroups, struct plan_action **out, size_t *n);

#endif /* IBMCG_CONF_H */
