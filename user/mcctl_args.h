/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mcctl command line parsing, apart from main() so that the unit tests can
 * call it. Parsers print their own message to stderr and return EXIT_USAGE
 * on a usage error, 0 on success.
 */
#ifndef MCCTL_ARGS_H
#define MCCTL_ARGS_H

#include <stdbool.h>
#include <stdint.h>

#include "ibmcg.h"

#define EXIT_USAGE	2

/*
 * Print a usage error and return EXIT_USAGE. While usage_where is set
 * (a "FILE:LINE" of the configuration file) it is named in the message.
 */
int usage_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern __thread const char *usage_where;
/*
 * While usage_sink is set (libibmcg's ibmcg_conf_open(), this thread
 * only), usage_err() writes its message there instead of to stderr.
 */
extern __thread char *usage_sink;
extern __thread size_t usage_sink_len;
/*
 * The command being parsed ("list"; NULL: none yet), for the hint of
 * unknown_param(): a usage error for an unknown parameter, which says to
 * try "mcctl CMD help" (in the configuration file: FILE:LINE).
 */
extern const char *usage_cmd;
int unknown_param(const char *arg);
/* iproute2's matches(): arg is a non-empty prefix of word. */
bool matches(const char *arg, const char *word);
/* Decimal, or hexadecimal with 0x; nothing else (no octal, no sign). */
int parse_u32(const char *s, uint32_t *v);
/*
 * A linger time: a whole number of milliseconds, optionally with the unit
 * ms, s or m ("500ms", "30s", "2m"), at most IB_MCG_LINGER_MAX_MS. Returns
 * -EINVAL with *why set if it is not one.
 */
int parse_linger(const char *s, uint32_t *ms, const char **why);

/* An IPv4-mapped MGID (::ffff:a.b.c.d): an IPv4 group, RoCE only. */
bool mgid_is_ipv4(const uint8_t mgid[IBMCG_GID_LEN]);
/* The create parameter the kernel takes on InfiniBand only, if any. */
const char *ib_only_param(const struct ibmcg_join_args *a);
/* GROUP of join: "0" or an all-zero IPv6 address asks the SA for one. */
bool is_sa_assigned(const char *s);
/* DEV/PORT or, with port_optional, DEV (then *port = 0). */
int parse_devport(const char *s, char *dev, uint32_t *port,
		  bool port_optional);
/* DEV/PORT GROUP, consumed from the front of the argument list. */
int parse_target(int *argc, char ***argv, char *dev, uint32_t *port,
		 uint8_t *mgid);
/* [DEV[/PORT]] of list and stats; dev is "" when not given. */
int parse_filter(int argc, char **argv, char *dev, uint32_t *port);

/*
 * list [DEV[/PORT]] [owner NAME] [state GROUPSTATE], in any order: the
 * groups of a device or port, those NAME holds, those in a group state
 * (joining, joined, retry-wait, detached, lingering).
 */
struct list_cmd {
	char dev[IBMCG_DEV_NAME_MAX];	/* "" for every device */
	uint32_t port;			/* 0: every port */
	const char *owner;		/* NULL: any; points into argv */
	uint8_t state;			/* enum ib_mcg_state, 0: any */
};

int parse_list(int argc, char **argv, struct list_cmd *c);
/* Does group g pass the owner and state filters of c? */
bool list_match(const struct list_cmd *c, const struct ibmcg_group *g);

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

int parse_join(int argc, char **argv, struct join_cmd *c);
/*
 * The options after DEV/PORT GROUP, applied on top of *c (a later keyword
 * wins): parse_join() after the target, and the configuration file and
 * named joins with their own targets.
 */
int parse_join_opts(int argc, char **argv, struct join_cmd *c);

/*
 * leave DEV/PORT GROUP [owner NAME] [state S]: drop holds on one group;
 * leave owner NAME all [DEV[/PORT]]: drop every hold of NAME (all set).
 * The first word tells them apart: a DEV/PORT has a slash, "owner" none.
 */
struct leave_cmd {
	bool all;
	char dev[IBMCG_DEV_NAME_MAX];	/* "" for all without a filter */
	uint32_t port;			/* 0: every port (all only) */
	uint8_t mgid[IBMCG_GID_LEN];	/* not with all */
	const char *owner;		/* points into argv, or "default" */
	uint8_t join_state;		/* 0: every hold; not with all */
};

int parse_leave(int argc, char **argv, struct leave_cmd *c);
/* [owner NAME] [state S]: the options of leave. */
int parse_holder_opts(int argc, char **argv, const char **owner, uint8_t *js);

#endif /* MCCTL_ARGS_H */
