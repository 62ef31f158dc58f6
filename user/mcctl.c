// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl: hold and inspect InfiniBand/RoCE multicast groups through the
 * ib_mcgroups kernel module. This file is main(): the options and the
 * table of commands, each in its own file (mcctl_CMD.c); what they share
 * is in mcctl_utils.c. Nothing calls back into this file.
 *
 * Exit status: 0 success, 1 error reported by the kernel or the system,
 * 2 usage error, 3 a check of diag failed (EXIT_DIAG_FAIL), 4/5/6 fabric
 * found lost/stale/both memberships (EXIT_FABRIC_*).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mcctl.h"
#include "mcctl_args.h"
#include "mcctl_batch.h"
#include "mcctl_version.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const struct cmd_usage help_usage = {
	"mcctl help [ COMMAND ]\n"
	"mcctl COMMAND { help | -h | --help }\n", 0, NULL,
};

/* "mcctl help": the commands in this order. */
static const struct cmd_usage *const all_usage[] = {
	&join_usage, &leave_usage, &list_usage, &show_usage, &stats_usage,
	&monitor_usage, &metrics_usage, &apply_usage, &diag_usage,
	&fabric_usage, &hold_usage, &help_usage,
};

static void usage(FILE *fp)
{
	mcctl_usage_all(fp, all_usage, ARRAY_SIZE(all_usage));
}

static int cmd_help(int argc, char **argv);

/*
 * The commands: one file each (mcctl_CMD.c), declared in mcctl.h. Prefix
 * matching picks the first match: "l" is list, "s" is show.
 */
static const struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const struct cmd_usage *usage;
} cmds[] = {
	{ "list",	cmd_list,	&list_usage },
	{ "leave",	cmd_leave,	&leave_usage },
	{ "join",	cmd_join,	&join_usage },
	{ "apply",	cmd_apply,	&apply_usage },
	{ "show",	cmd_show,	&show_usage },
	{ "stats",	cmd_stats,	&stats_usage },
	{ "monitor",	cmd_monitor,	&monitor_usage },
	{ "metrics",	cmd_metrics,	&metrics_usage },
	{ "diag",	cmd_diag,	&diag_usage },
	{ "fabric",	cmd_fabric,	&fabric_usage },
	{ "help",	cmd_help,	&help_usage },
	{ "hold",	cmd_hold,	&hold_usage },	/* after help: "h" */
};

static int find_cmd(const char *arg)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (ibmcg__matches(arg, cmds[i].name))
			return i;
	return -1;
}

static int unknown_cmd(const char *arg)
{
	return usage_err("mcctl: unknown command '%s'; try \"mcctl help\"",
			 arg);
}

/* help [COMMAND] */
static int cmd_help(int argc, char **argv)
{
	int i;

	if (argc > 1)
		return unknown_param(argv[1]);
	if (!argc) {
		usage(stdout);
		return 0;
	}
	i = find_cmd(argv[0]);
	if (i < 0)
		return unknown_cmd(argv[0]);
	mcctl_usage(stdout, cmds[i].usage);
	return 0;
}

/*
 * "CMD help", "CMD -h", "CMD --help": whole words only, so that they are
 * never taken for a device or (ib_mcgroups.conf(5) refuses such names) a
 * declared group.
 */
static bool wants_help(int argc, char **argv)
{
	return argc == 1 && (!strcmp(argv[0], "help") ||
			     !strcmp(argv[0], "-h") ||
			     !strcmp(argv[0], "--help"));
}

/*
 * One command line, of main() or of a -batch line. Commands that run
 * until stopped (hold, monitor) cannot be a batch line.
 */
static int run_cmd(int argc, char **argv, bool batch)
{
	int i = find_cmd(argv[0]);

	if (i < 0)
		return unknown_cmd(argv[0]);
	usage_cmd = cmds[i].name;
	if (batch && (cmds[i].fn == cmd_hold || cmds[i].fn == cmd_monitor))
		return usage_err("mcctl: %s runs until stopped: it cannot be a line of -batch",
				 cmds[i].name);
	if (wants_help(argc - 1, argv + 1)) {
		mcctl_usage(stdout, cmds[i].usage);
		return 0;
	}
	return cmds[i].fn(argc - 1, argv + 1);
}

static bool json, pretty;

/* Each line's output is its own text or JSON document, as ip -batch's. */
static int run_batch_line(int argc, char **argv)
{
	json_print_init(stdout, json, pretty);
	return run_cmd(argc, argv, true);
}

static int run_batch(const char *name, bool force)
{
	FILE *fp = stdin;
	int ret;

	if (strcmp(name, "-")) {
		fp = fopen(name, "r");
		if (!fp) {
			fprintf(stderr, "mcctl: %s: %s\n", name,
				strerror(errno));
			return EXIT_FAILURE;
		}
	}
	ret = mcctl_batch(fp, name, force, run_batch_line);
	if (fp != stdin)
		fclose(fp);
	return ret;
}

static char stdout_buf[65536];

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json",	no_argument, NULL, 'j' },
		{ "pretty",	no_argument, NULL, 'p' },
		{ "version",	no_argument, NULL, 'V' },
		{ "help",	no_argument, NULL, 'h' },
		{ "config",	required_argument, NULL, 'c' },
		{ "batch",	required_argument, NULL, 'b' },
		{ "force",	no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	bool force = false;
	const char *batch = NULL;
	int opt, ret;

	/* "-batch FILE" as ip(8): long options take one dash too. */
	while ((opt = getopt_long_only(argc, argv, "+jpVhc:", opts,
				       NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'p':
			json = true;
			pretty = true;
			break;
		case 'V':
			return cmd_version();
		case 'h':
			usage(stdout);
			return 0;
		case 'c':
			mcctl_config = optarg;
			break;
		case 'b':
			batch = optarg;
			break;
		case 'f':
			force = true;
			break;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	argc -= optind;
	argv += optind;
	if (batch && argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!batch && argc < 1) {
		usage(stderr);
		return EXIT_USAGE;
	}

	/*
	 * Not a terminal: a list of thousands of groups in 64 KiB writes, not
	 * in stdio's 4 KiB ones (commands that stream, like monitor, flush
	 * after each event).
	 */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, stdout_buf, _IOFBF, sizeof(stdout_buf));
	json_print_init(stdout, json, pretty);
	if (batch)
		ret = run_batch(batch, force);
	else
		ret = run_cmd(argc, argv, false);
	mcctl_handle_close();
	return ret;
}
