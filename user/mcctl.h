/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mcctl printers: each prints one object into the current json_print
 * context (json_print_init() picks the FILE * and text or JSON).
 */
#ifndef MCCTL_H
#define MCCTL_H

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

/* mcctl.c: the handle of this run, connected on first use. */
extern const char *mcctl_config;	/* -c FILE, or IBMCG_CONF_PATH */
/* NULL after printing why (then *ret is the exit status). */
struct ibmcg *mcctl_handle(int *ret);
/* Print the kernel's message for err, else the hint for -ENOENT. */
int mcctl_kernel_err(int err, const char *enoent_hint);
/* Write the output (JSON is written at the end); exit status. */
int mcctl_finish_output(void);
/* A bound hold: wait for SIGINT, SIGTERM or SIGHUP (blocked before). */
void mcctl_bound_wait(void);
void mcctl_bound_block(void);

/* mcctl_apply.c */
int cmd_apply(int argc, char **argv);
int join_named(int argc, char **argv);
int join_named_then(int argc, char **argv, const char *owner,
		    int (*then)(void *arg), void *arg);

/* mcctl_hold.c */
int cmd_hold(int argc, char **argv);
int leave_named(int argc, char **argv);

#endif /* MCCTL_H */
