/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mcctl -batch FILE: the iproute2 convention. Each line of FILE ("-":
 * standard input) is an mcctl command line without "mcctl"; blank lines
 * and '#' comments are skipped. All lines run in this one process, on
 * its one netlink socket (mcctl_handle()). Apart from main() so that the
 * unit tests can call it.
 */
#ifndef MCCTL_BATCH_H
#define MCCTL_BATCH_H

#include <stdbool.h>
#include <stdio.h>

/* At most this many words on a line. */
#define MCCTL_BATCH_MAX_ARGS	64

/*
 * Splits @line in place into words: blanks separate them, '#' outside
 * quotes starts a comment, "..." and '...' quote (no escapes). Returns
 * the number of words (0: nothing to run), or -1 with *@err set to why.
 */
int mcctl_batch_split(char *line, char **argv, int max, const char **err);

/*
 * Runs every line of @fp (called @name in messages) through @run, which
 * returns a command's exit status. Stops at the first line that fails,
 * or with @force goes on. While a line runs, mcctl_err_where is
 * "NAME:LINE: ", which the usage and kernel errors print first; a line
 * that fails also ends with "NAME:LINE: command failed". Returns 0 if
 * every line succeeded, else the first failing line's status.
 */
int mcctl_batch(FILE *fp, const char *name, bool force,
		int (*run)(int argc, char **argv));

#endif /* MCCTL_BATCH_H */
