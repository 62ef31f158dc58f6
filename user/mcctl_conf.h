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
 * Parsing, the ports a target covers and the plan of "mcctl apply" are
 * pure functions of their inputs, apart from netlink, so that the unit
 * tests can call them.
 */
#ifndef MCCTL_CONF_H
#define MCCTL_CONF_H

#include <stdio.h>

#include "mcctl_args.h"

#define MCCTL_CONF_PATH		"/etc/ib_mcgroups.conf"
#define MCCTL_CONF_OWNER	"config"	/* owner when none is set */
#define MCCTL_CONF_NAME_MAX	64

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
	char name[MCCTL_CONF_NAME_MAX + 1];
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
 * Parse a configuration; on error print "mcctl: PATH:LINE: why" and
 * return EXIT_USAGE (the conf is then empty). conf_load() opens path
 * first; a missing file is an error there too.
 */
int conf_parse(FILE *fp, const char *path, struct conf *c);
int conf_load(const char *path, struct conf *c);
void conf_free(struct conf *c);
const struct conf_entry *conf_find(const struct conf *c, const char *name);
/* The owner apply holds an entry's group with. */
const char *conf_entry_owner(const struct conf *c, const struct conf_entry *e);
/* Whether entry e covers port p. */
bool conf_covers(const struct conf_entry *e, const struct ibmcg_port *p);
/* Whether a target names a device that must exist (not one of all*). */
bool conf_names_device(const struct conf_entry *e);

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
const char *plan_op_name(enum plan_op op);

/*
 * What makes the kernel's holds of the file's owners (the owner line and
 * every owner named on a group line) match the file: for each group line
 * and covered port a KEEP, JOIN or UPDATE; for each hold of those owners
 * no line declares a LEAVE. Holds of other owners are not looked at.
 * Actions come in the order they are to be done: joins first, so that a
 * hold changing its join state is never dropped before its successor is
 * taken. Returns 0 or -ENOMEM; free *out with free().
 */
int conf_plan(const struct conf *c, struct ibmcg_port *const *ports,
	      size_t nports, struct ibmcg_group *const *groups,
	      size_t ngroups, struct plan_action **out, size_t *n);

#endif /* MCCTL_CONF_H */
