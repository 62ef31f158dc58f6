// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl hold: its command line; see mcctl_hold.h.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "mcctl_hold.h"

int parse_hold(int argc, char **argv, unsigned int uid, struct hold_cmd *c)
{
	struct join_cmd opts;
	int k, ret;

	memset(c, 0, sizeof(*c));
	if (uid != HOLD_UID_KERNEL)
		snprintf(c->owner, sizeof(c->owner), "uid:%u", uid);
	for (k = 0; k < argc && strcmp(argv[k], "--"); k++)
		;
	if (k == argc)
		return usage_err("mcctl: expected '-- COMMAND [ARGS]': the command to run while the group is held");
	if (k + 1 == argc)
		return usage_err("mcctl: expected a COMMAND after '--'");
	if (!k)
		return usage_err("mcctl: expected DEV/PORT GROUP or GROUPNAME before '--'");
	c->join_argc = k;
	c->join_argv = argv;
	c->cmd = argv + k + 1;
	/* A DEV/PORT has a slash, the name of a declared group none. */
	if (!strchr(argv[0], '/')) {
		c->named = true;
		/* The options now, for a usage error before anything. */
		memset(&opts, 0, sizeof(opts));
		opts.args.owner = c->owner;
		return parse_join_opts(k - 1, argv + 1, &opts);
	}
	ret = parse_join(k, argv, &c->join);
	if (ret)
		return ret;
	c->join.args.flags |= IB_MCG_F_BOUND;
	if (!c->join.owner_set)
		c->join.args.owner = c->owner[0] ? c->owner : NULL;
	return 0;
}

int hold_exit_status(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return 1;
}
