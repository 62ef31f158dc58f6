// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of mcctl hold's command line: where the group's words end
 * and COMMAND begins, the default owner, the bound hold, usage errors;
 * and the exit status a command's wait status becomes.
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "mcctl_hold.h"
#include "ktap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define ARGV(...)	((char *[]){ __VA_ARGS__, NULL })
#define ARGC(...)	((int)ARRAY_SIZE(((char *[]){ __VA_ARGS__ })))

static char *errbuf;
static size_t errlen;

/* parse_hold() with stderr captured (in errbuf, without the newline). */
static int run(int argc, char **argv, unsigned int uid, struct hold_cmd *c)
{
	FILE *saved = stderr;
	int ret;

	free(errbuf);
	errbuf = NULL;
	stderr = open_memstream(&errbuf, &errlen);
	ret = parse_hold(argc, argv, uid, c);
	fclose(stderr);
	stderr = saved;
	if (errlen && errbuf[errlen - 1] == '\n')
		errbuf[--errlen] = '\0';
	return ret;
}

static void devport_form(void)
{
	char **argv = ARGV("rxe0/1", "239.1.1.1", "--", "./app", "-x", "--");
	struct hold_cmd c;

	EXPECT(run(ARGC("rxe0/1", "239.1.1.1", "--", "./app", "-x", "--"),
		   argv, 65534, &c) == 0);
	EXPECT(!c.named);
	EXPECT_STR(c.join.dev, "rxe0");
	EXPECT(c.join.port == 1);
	EXPECT(c.join.mgid[15] == 1 && c.join.mgid[12] == 239);
	/* Bound, owned by the user: what works without CAP_NET_ADMIN. */
	EXPECT(c.join.args.flags & IB_MCG_F_BOUND);
	EXPECT_STR(c.join.args.owner, "uid:65534");
	/* COMMAND is everything after the first "--", "--" included. */
	EXPECT(c.cmd == argv + 3);
	EXPECT_STR(c.cmd[0], "./app");
	EXPECT_STR(c.cmd[1], "-x");
	EXPECT_STR(c.cmd[2], "--");
	EXPECT(c.cmd[3] == NULL);
	EXPECT(c.join_argc == 2);
}

static void join_options(void)
{
	struct hold_cmd c;

	EXPECT(run(ARGC("rxe0/1", "ff0e::1", "owner", "job:7", "state",
			"sendonly", "--", "true"),
		   ARGV("rxe0/1", "ff0e::1", "owner", "job:7", "state",
			"sendonly", "--", "true"), 0, &c) == 0);
	EXPECT_STR(c.join.args.owner, "job:7");
	EXPECT(c.join.args.join_state == IB_MCG_JOIN_SENDONLY_NON_MEMBER);
	EXPECT(c.join.args.flags & IB_MCG_F_BOUND);
	/* "bound" is allowed, and changes nothing. */
	EXPECT(run(ARGC("rxe0/1", "239.1.1.1", "bound", "--", "true"),
		   ARGV("rxe0/1", "239.1.1.1", "bound", "--", "true"), 0,
		   &c) == 0);
	EXPECT(c.join.args.flags == IB_MCG_F_BOUND);
	EXPECT_STR(c.join.args.owner, "uid:0");
}

static void named_form(void)
{
	struct hold_cmd c;

	EXPECT(run(ARGC("coll0", "--", "./app"), ARGV("coll0", "--", "./app"),
		   1000, &c) == 0);
	EXPECT(c.named);
	EXPECT(c.join_argc == 1);
	EXPECT_STR(c.join_argv[0], "coll0");
	EXPECT_STR(c.owner, "uid:1000");
	EXPECT_STR(c.cmd[0], "./app");
	EXPECT(run(ARGC("coll0", "owner", "job:1", "--", "./app"),
		   ARGV("coll0", "owner", "job:1", "--", "./app"), 1000,
		   &c) == 0);
	EXPECT(c.join_argc == 3);
}

static void usage_errors(void)
{
	struct hold_cmd c;

	EXPECT(run(ARGC("rxe0/1", "239.1.1.1", "./app"),
		   ARGV("rxe0/1", "239.1.1.1", "./app"), 0, &c) == EXIT_USAGE);
	EXPECT_STR(errbuf, "mcctl: expected '-- COMMAND [ARGS]': the command to run while the group is held");
	EXPECT(run(ARGC("rxe0/1", "239.1.1.1", "--"),
		   ARGV("rxe0/1", "239.1.1.1", "--"), 0, &c) == EXIT_USAGE);
	EXPECT_STR(errbuf, "mcctl: expected a COMMAND after '--'");
	EXPECT(run(ARGC("--", "./app"), ARGV("--", "./app"), 0, &c) ==
	       EXIT_USAGE);
	EXPECT_STR(errbuf, "mcctl: expected DEV/PORT GROUP or GROUPNAME before '--'");
	EXPECT(run(0, ARGV(NULL), 0, &c) == EXIT_USAGE);
	/* The join's own errors, before anything runs. */
	EXPECT(run(ARGC("rxe0/1", "10.0.0.1", "--", "true"),
		   ARGV("rxe0/1", "10.0.0.1", "--", "true"), 0, &c) ==
	       EXIT_USAGE);
	EXPECT(run(ARGC("rxe0/1", "--", "true"), ARGV("rxe0/1", "--", "true"),
		   0, &c) == EXIT_USAGE);
	EXPECT(run(ARGC("rxe0/1", "239.1.1.1", "colour", "blue", "--", "true"),
		   ARGV("rxe0/1", "239.1.1.1", "colour", "blue", "--", "true"),
		   0, &c) == EXIT_USAGE);
	EXPECT(run(ARGC("coll0", "owner", "--", "true"),
		   ARGV("coll0", "owner", "--", "true"), 0, &c) == EXIT_USAGE);
	EXPECT(run(ARGC("coll0", "state", "sometimes", "--", "true"),
		   ARGV("coll0", "state", "sometimes", "--", "true"), 0, &c) ==
	       EXIT_USAGE);
}

static void exit_status(void)
{
	EXPECT(hold_exit_status(0) == 0);
	EXPECT(hold_exit_status(3 << 8) == 3);
	EXPECT(hold_exit_status(255 << 8) == 255);
	/* Killed by a signal: 128 + the signal, as a shell says. */
	EXPECT(hold_exit_status(SIGKILL) == 128 + SIGKILL);
	EXPECT(hold_exit_status(SIGTERM | 0x80) == 128 + SIGTERM);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(devport_form),
	KTAP_CASE(join_options),
	KTAP_CASE(named_form),
	KTAP_CASE(usage_errors),
	KTAP_CASE(exit_status),
};

KTAP_MAIN(cases)
