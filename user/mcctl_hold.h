/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mcctl hold: hold a group (bound) while a command runs, like flock(1).
 *
 *   mcctl hold DEV/PORT GROUP [ join options ] -- COMMAND [ ARGS ]
 *   mcctl hold GROUPNAME [ join options ] -- COMMAND [ ARGS ]
 *
 * Parsing (mcctl_hold_args.c) is apart from running (mcctl_hold.c), for
 * the unit tests.
 */
#ifndef MCCTL_HOLD_H
#define MCCTL_HOLD_H

#include "mcctl_args.h"

struct hold_cmd {
	bool named;		/* GROUPNAME: join_argv[0] names it */
	int join_argc;		/* the words before "--" */
	char **join_argv;
	struct join_cmd join;	/* DEV/PORT GROUP [options], parsed, bound */
	char **cmd;		/* COMMAND [ARGS], NULL-terminated (argv's) */
	/* The owner unless one is given: "uid:UID", the only one a user
	 * without CAP_NET_ADMIN may hold for; empty (none sent: the kernel
	 * names it) for HOLD_UID_KERNEL.
	 */
	char owner[IB_MCG_OWNER_MAX + 1];
};

/*
 * parse_hold()'s uid inside a user namespace: getuid() is not the uid
 * the kernel names the owner by (that of the initial namespace), and no
 * process in a user namespace has CAP_NET_ADMIN over the module, so the
 * hold goes without an owner and the kernel names it "uid:N".
 */
#define HOLD_UID_KERNEL	((unsigned int)-1)

/* Usage errors print their message and return EXIT_USAGE. */
int parse_hold(int argc, char **argv, unsigned int uid, struct hold_cmd *c);
/* mcctl hold's exit status for COMMAND's waitpid() status: its exit
 * status, or 128 + the signal that killed it, as shells report it.
 */
int hold_exit_status(int wstatus);

#endif /* MCCTL_HOLD_H */
