/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mcctl printers: each prints one object into the current json_print
 * context (json_print_init() picks the FILE * and text or JSON).
 */
#ifndef MCCTL_H
#define MCCTL_H

#include <stdio.h>

#include "ibmcg.h"
#include "json_print.h"

/* Percentage of the HCA multicast table at which stats warns. */
#define MCCTL_MCAST_WARN_PCT	80

void print_group_line(const struct ibmcg_group *g);	/* list */
void print_group_detail(const struct ibmcg_group *g);	/* show, leave */
/* join: the detail, after "assigned mgid M" when the SA picked it. */
void print_join_reply(const struct ibmcg_group *g, bool sa_assigned);
void print_port(const struct ibmcg_port *p);		/* stats */
/* monitor: group events, and re-join waves of InfiniBand ports */
void print_event(const struct ibmcg_event *ev);
/* monitor -t: the same after a timestamp (NULL: none) */
void print_event_ts(const struct ibmcg_event *ev, const char *timestamp);
/*
 * A time as ISO 8601 in local time, with microseconds and the UTC offset:
 * "2026-12-03T09:40:00.123456+01:00".
 */
#define MCCTL_TIMESTAMP_LEN	40
struct timespec;
void format_timestamp(const struct timespec *ts, char *buf, size_t len);
/* leave owner NAME all: one line per group, then the count. */
void print_owner_release(const char *owner, uint32_t holds_dropped,
			 struct ibmcg_released *const *rel, size_t n);

/*
 * mcctl_utils.c: the services the command files share (nothing there
 * calls a command or main()).
 */
extern const char *mcctl_config;	/* -c FILE, or IBMCG_CONF_PATH */
/* The handle of this run, connected on first use; NULL after printing
 * why (then *ret is the exit status).
 */
struct ibmcg *mcctl_handle(int *ret);
void mcctl_handle_close(void);		/* main(), at the end */
/* Print the kernel's message for err, else the hint for -ENOENT (and
 * the budget's for -ENOSPC); exit status.
 */
int mcctl_kernel_err(int err, const char *enoent_hint);
/* The kernel's message, else hint if err is hint_err, else strerror(). */
int mcctl_kernel_err_hint(int err, int hint_err, const char *hint);
/* A dump that stayed inconsistent is still a list: say so, on stderr. */
void mcctl_note_inconsistent(struct ibmcg *h);
/* Write the output (JSON is written at the end); exit status. */
int mcctl_finish_output(void);
/* A bound hold: wait for SIGINT, SIGTERM or SIGHUP (blocked before). */
void mcctl_bound_wait(void);
void mcctl_bound_block(void);

/* The terms a command's usage uses, explained after it ("where ..."). */
enum {
	W_GROUPNAME	= 1 << 0,
	W_GROUP		= 1 << 1,
	W_STATE		= 1 << 2,
	W_NAME		= 1 << 3,
	W_TIME		= 1 << 4,
	W_CREATE	= 1 << 5,	/* MTU, RATE, SL and the numbers */
	W_GROUPSTATE	= 1 << 6,
};


/*
 * A command's usage: one or more lines, each "mcctl CMD ..." (continued
 * lines indented); what: the terms to explain (W_*); note: said after
 * them.
 */
struct cmd_usage {
	const char *text;
	unsigned int what;
	const char *note;
};

/* "mcctl CMD help": that command's lines and terms. */
void mcctl_usage(FILE *fp, const struct cmd_usage *u);
/* "mcctl help": the lines of all, then the options and their terms. */
void mcctl_usage_all(FILE *fp, const struct cmd_usage *const *all, size_t n);

/*
 * The commands, one file each (mcctl_CMD.c): what main()'s table holds.
 * A command returns the exit status.
 */
int cmd_join(int argc, char **argv);
extern const struct cmd_usage join_usage;
int cmd_leave(int argc, char **argv);
extern const struct cmd_usage leave_usage;
int cmd_list(int argc, char **argv);
extern const struct cmd_usage list_usage;
int cmd_show(int argc, char **argv);
extern const struct cmd_usage show_usage;
int cmd_stats(int argc, char **argv);
extern const struct cmd_usage stats_usage;
int cmd_monitor(int argc, char **argv);
extern const struct cmd_usage monitor_usage;
int cmd_metrics(int argc, char **argv);
extern const struct cmd_usage metrics_usage;
int cmd_apply(int argc, char **argv);
extern const struct cmd_usage apply_usage;
int cmd_diag(int argc, char **argv);
extern const struct cmd_usage diag_usage;
int cmd_fabric(int argc, char **argv);
extern const struct cmd_usage fabric_usage;
int cmd_hold(int argc, char **argv);
extern const struct cmd_usage hold_usage;

/*
 * mcctl_named.c: join and leave of a group the configuration file
 * declares (GROUPNAME), for join, leave and hold.
 */
int join_named(int argc, char **argv);
int join_named_then(int argc, char **argv, const char *owner,
		    int (*then)(void *arg), void *arg);
int leave_named(int argc, char **argv);

#endif /* MCCTL_H */
