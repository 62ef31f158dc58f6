// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl hold DEV/PORT GROUP|GROUPNAME [ join options ] -- COMMAND [ ARGS ]
 *
 * Takes the group with a bound hold (released by the kernel when our
 * socket closes: when we exit, however we die), runs COMMAND as our
 * child, forwards SIGINT, SIGTERM and SIGHUP to it, and exits with its
 * status (128 + the signal if a signal killed it). The hold's netlink
 * sockets are close-on-exec (libibmcg opens them so): COMMAND cannot keep
 * the group held after we are gone. A refused join runs nothing.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mcctl.h"
#include "mcctl_hold.h"

const struct cmd_usage hold_usage = {
	"mcctl hold DEV/PORT GROUP [ owner NAME ] [ state STATE ] [ qkey QKEY ]\n"
	"           [ create ... ] -- COMMAND [ ARGS ]\n"
	"mcctl hold GROUPNAME [ owner NAME ] [ state STATE ] -- COMMAND [ ARGS ]\n",
	W_GROUPNAME | W_GROUP | W_STATE,
	"holds the group (bound; owner default uid:UID) while COMMAND runs,\n"
	"forwards SIGINT, SIGTERM and SIGHUP to it and exits with its status\n"
	"(128 + the signal that killed it); nothing runs if the join is refused\n",
};

/* Forwarded to COMMAND; SIGCHLD says it ended. Blocked from the start. */
static sigset_t hold_sigs;

static void hold_block(sigset_t *orig)
{
	sigemptyset(&hold_sigs);
	sigaddset(&hold_sigs, SIGINT);
	sigaddset(&hold_sigs, SIGTERM);
	sigaddset(&hold_sigs, SIGHUP);
	sigaddset(&hold_sigs, SIGCHLD);
	sigprocmask(SIG_BLOCK, &hold_sigs, orig);
}

struct hold_run {
	char **cmd;
	sigset_t orig;		/* the signal mask COMMAND gets */
};

/*
 * Runs COMMAND while the group is held and waits for it. A signal that
 * came before it started is forwarded as well: pending in the child
 * until it restores the mask, just before exec.
 */
static int run_command(void *arg)
{
	struct hold_run *r = arg;
	int sig, status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "mcctl: cannot fork: %s\n", strerror(errno));
		return EXIT_FAILURE;
	}
	if (!pid) {
		sigprocmask(SIG_SETMASK, &r->orig, NULL);
		execvp(r->cmd[0], r->cmd);
		fprintf(stderr, "mcctl: cannot run %s: %s\n", r->cmd[0],
			strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	for (;;) {
		sig = sigwaitinfo(&hold_sigs, NULL);
		if (sig < 0)
			continue;	/* EINTR: a stop and continue */
		if (sig != SIGCHLD) {
			kill(pid, sig);
			continue;
		}
		if (waitpid(pid, &status, WNOHANG) == pid)
			return hold_exit_status(status);
	}
}

/*
 * Whether we run in the initial user namespace: its uid_map maps every
 * uid to itself ("0 0 4294967295"); a user namespace's maps a range.
 */
static bool in_initial_userns(void)
{
	unsigned long in, out, count;
	bool init = true;
	FILE *fp;

	fp = fopen("/proc/self/uid_map", "re");
	if (!fp)
		return true;	/* no /proc or no user namespaces */
	if (fscanf(fp, "%lu %lu %lu", &in, &out, &count) != 3 || in || out ||
	    count != 4294967295UL)
		init = false;
	fclose(fp);
	return init;
}

int cmd_hold(int argc, char **argv)
{
	struct hold_cmd c;
	struct hold_run r;
	struct ibmcg *h;
	int err, ret;

	ret = parse_hold(argc, argv,
			 in_initial_userns() ? getuid() : HOLD_UID_KERNEL, &c);
	if (ret)
		return ret;
	r.cmd = c.cmd;
	/* From before the join on: no signal is lost. */
	hold_block(&r.orig);
	if (c.named)
		return join_named_then(c.join_argc, c.join_argv, c.owner,
				       run_command, &r);
	h = mcctl_handle(&ret);
	if (!h)
		return ret;
	err = ibmcg_join(h, c.join.dev, c.join.port, c.join.mgid,
			 &c.join.args, NULL);
	if (err)
		return mcctl_kernel_err(err, NULL);
	return run_command(&r);
}
