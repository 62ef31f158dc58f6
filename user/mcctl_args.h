/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mcctl command line parsing, apart from main() so that the unit tests can
 * call it. Parsers print their own message to stderr and return EXIT_USAGE
 * on a usage error, 0 on success. The join options are libibmcg's
 * (ibmcg_conf.h), shared with the configuration file.
 */
#ifndef MCCTL_ARGS_H
#define MCCTL_ARGS_H

#include <stdbool.h>
#include <stdint.h>

#include "ibmcg.h"
#include "ibmcg_conf.h"

#define EXIT_USAGE	2

/*
 * Said before every usage and kernel error: "" or, while a line of
 * mcctl -batch runs, "FILE:LINE: ".
 */
extern const char *mcctl_err_where;
/* Print a usage error and return EXIT_USAGE. */
int usage_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Print libibmcg's usage error as "mcctl: MSG" (an unknown parameter
 * outside the configuration file with unknown_param()'s hint); returns
 * EXIT_USAGE.
 */
int mcctl_perr(const struct ibmcg__perr *pe);
/*
 * The command being parsed ("list"; NULL: none yet), for the hint of
 * unknown_param(): a usage error for an unknown parameter, which says to
 * try "mcctl CMD help" (in the configuration file: FILE:LINE).
 */
extern const char *usage_cmd;
int unknown_param(const char *arg);
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

/* join DEV/PORT GROUP [options]: struct join_cmd of ibmcg_conf.h. */
int parse_join(int argc, char **argv, struct join_cmd *c);
/* ibmcg__parse_join_opts(), printing its usage error. */
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
