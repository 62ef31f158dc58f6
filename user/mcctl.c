// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl: hold and inspect InfiniBand/RoCE multicast groups through the
 * ib_mcgroups kernel module.
 *
 * Exit status: 0 success, 1 error reported by the kernel or the system,
 * 2 usage error, 3 a check of diag failed (EXIT_DIAG_FAIL), 4/5/6 fabric
 * found lost/stale/both memberships (EXIT_FABRIC_*).
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mcctl.h"
#include "mcctl_args.h"
#include "mcctl_conf.h"
#include "mcctl_diag.h"
#include "mcctl_metrics.h"
#include "mcctl_fabric.h"
#include "mcctl_version.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static struct ibmcg *h;
const char *mcctl_config = IBMCG_CONF_PATH;
static volatile sig_atomic_t stop;

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

static const struct {
	unsigned int what;
	const char *text;
} terms[] = {
	{ W_GROUPNAME,
	  "GROUPNAME := a group or pool of the configuration file\n"
	  "             (-c FILE, default " IBMCG_CONF_PATH ")\n" },
	{ W_GROUP,
	  "GROUP := { IPv4 group | IPv6 group | MGID }; join: 0 or :: = the SA assigns one\n" },
	{ W_STATE, "STATE := { full | nonmember | sendonly | sendonly-full }\n" },
	{ W_GROUPSTATE,
	  "GROUPSTATE := { joining | joined | retry-wait | detached | lingering }\n" },
	{ W_NAME,
	  "NAME := owner, 1..64 printable characters, no spaces (default: default)\n" },
	{ W_TIME,
	  "TIME := milliseconds, or with unit ms, s or m (500ms, 30s, 2m); at most 1 day\n" },
	{ W_CREATE,
	  "MTU := { 256 | 512 | 1024 | 2048 | 4096 }\n"
	  "RATE := Gb/s { 2.5 | 5 | 10 | 14 | 20 | 25 | 28 | 30 | 40 | 50 | 56 | 60 |\n"
	  "               80 | 100 | 112 | 120 | 168 | 200 | 300 | 400 | 600 }\n"
	  "SL := 0..15; flow_label 0..0xfffff; tclass, hop_limit 0..255; scope 0..15\n" },
};

static const char options_usage[] =
	"OPTIONS := { -j[son] | -p[retty] | -c[onfig] FILE | -V[ersion] | -h[elp] }\n";

/*
 * A command's usage: one or more lines, each "mcctl CMD ..." (continued
 * lines indented); what: the terms to explain; note: said after them.
 */
struct cmd_usage {
	const char *text;
	unsigned int what;
	const char *note;
};

static const struct cmd_usage join_usage = {
	"mcctl join DEV/PORT { GROUP | 0 } [ owner NAME ] [ state STATE ]\n"
	"           [ qkey QKEY ] [ linger TIME ] [ bound ] [ create ]\n"
	"           [ pkey PKEY ] [ mtu MTU ] [ rate RATE ] [ sl SL ]\n"
	"           [ flow_label N ] [ tclass N ] [ hop_limit N ] [ scope N ]\n"
	"mcctl join GROUPNAME [ owner NAME ] [ state STATE ] [ bound ]\n",
	W_GROUPNAME | W_GROUP | W_STATE | W_NAME | W_TIME | W_CREATE, NULL,
};

static const struct cmd_usage leave_usage = {
	"mcctl leave DEV/PORT GROUP [ owner NAME ] [ state STATE ]\n"
	"mcctl leave GROUPNAME [ owner NAME ] [ state STATE ]\n"
	"mcctl leave owner NAME all [ DEV[/PORT] ]\n",
	W_GROUPNAME | W_GROUP | W_STATE | W_NAME, NULL,
};

static const struct cmd_usage list_usage = {
	"mcctl list [ DEV[/PORT] ] [ owner NAME ] [ state GROUPSTATE ]\n",
	W_NAME | W_GROUPSTATE, NULL,
};

static const struct cmd_usage show_usage = {
	"mcctl show DEV/PORT GROUP\n", W_GROUP, NULL,
};

static const struct cmd_usage stats_usage = {
	"mcctl stats [ DEV[/PORT] ]\n", 0, NULL,
};

static const struct cmd_usage monitor_usage = {
	"mcctl monitor [ -t | --timestamp ]\n", 0,
	"-t: each event after the time it was received (JSON: \"timestamp\")\n",
};

static const struct cmd_usage metrics_usage = {
	"mcctl metrics [ --textfile DIR ]\n", 0,
	"Prometheus text format on stdout, or written atomically to\n"
	"DIR/" MCCTL_METRICS_FILE " (node_exporter's textfile collector);\n"
	"ib_mcgroups_up 0 when the module is not loaded\n",
};

static const struct cmd_usage apply_usage = {
	"mcctl apply [ --dry-run | -n | --check ]\n", 0,
	"--dry-run, -n: print the plan, change nothing;\n"
	"--check: only validate the configuration file (no module needed);\n"
	"exit status 2 if it has errors\n",
};

static const struct cmd_usage diag_usage = {
	"mcctl diag GROUP [ DEV/PORT ]\n", W_GROUP,
	"exit status: 0 no check failed, 3 a check failed (FAIL),\n"
	"1 diag could not run, 2 usage error\n",
};

static const struct cmd_usage fabric_usage = {
	"mcctl fabric [ DEV/PORT ] [ --reconcile ] [ -j ] [ smkey KEY ]\n", 0,
	"the SA's groups and this port's memberships: ok, lost, stale;\n"
	"--reconcile re-joins lost groups and deletes the port's stale members;\n"
	"exit status: 0 all ok (or reconciled), 4 lost, 5 stale, 6 both,\n"
	"1 error, 2 usage error\n",
};

static const struct cmd_usage hold_usage = {
	"mcctl hold DEV/PORT GROUP [ owner NAME ] [ state STATE ] [ qkey QKEY ]\n"
	"           [ create ... ] -- COMMAND [ ARGS ]\n"
	"mcctl hold GROUPNAME [ owner NAME ] [ state STATE ] -- COMMAND [ ARGS ]\n",
	W_GROUPNAME | W_GROUP | W_STATE,
	"holds the group (bound; owner default uid:UID) while COMMAND runs,\n"
	"forwards SIGINT, SIGTERM and SIGHUP to it and exits with its status\n"
	"(128 + the signal that killed it); nothing runs if the join is refused\n",
};

static const struct cmd_usage help_usage = {
	"mcctl help [ COMMAND ]\n"
	"mcctl COMMAND { help | -h | --help }\n", 0, NULL,
};

/* Prints text's lines, the first after *lead, the others indented. */
static void print_lines(FILE *fp, const char *text, const char **lead)
{
	const char *nl;

	for (; *text; text = nl + 1, *lead = "       ") {
		nl = strchr(text, '\n');
		fprintf(fp, "%s%.*s\n", *lead, (int)(nl - text), text);
	}
}

/* The options (if @options) and the terms in @what, after "where". */
static void print_terms(FILE *fp, unsigned int what, bool options,
			const char *note)
{
	const char *lead = "where  ";
	size_t i;

	if (options)
		print_lines(fp, options_usage, &lead);
	for (i = 0; i < ARRAY_SIZE(terms); i++)
		if (what & terms[i].what)
			print_lines(fp, terms[i].text, &lead);
	if (note)
		fputs(note, fp);
}

static const struct cmd_usage *const all_usage[] = {
	&join_usage, &leave_usage, &list_usage, &show_usage, &stats_usage,
	&monitor_usage, &metrics_usage, &apply_usage, &diag_usage,
	&fabric_usage, &hold_usage, &help_usage,
};

static void usage(FILE *fp)
{
	const char *lead = "       ";
	unsigned int what = 0;
	size_t i;

	fprintf(fp, "Usage: mcctl [ OPTIONS ] COMMAND [ ARGS ]\n");
	for (i = 0; i < ARRAY_SIZE(all_usage); i++) {
		print_lines(fp, all_usage[i]->text, &lead);
		what |= all_usage[i]->what;
	}
	print_terms(fp, what, true, NULL);
}

/* "mcctl CMD help": that command's lines and terms. */
static void cmd_usage(FILE *fp, const struct cmd_usage *u)
{
	const char *lead = "Usage: ";

	print_lines(fp, u->text, &lead);
	print_terms(fp, u->what, false, u->note);
}

/* The kernel's message, else a hint for hint_err, else strerror(). */
static int kernel_err_hint(int err, int hint_err, const char *hint)
{
	const char *msg = ibmcg_errmsg(h);

	if (msg)
		fprintf(stderr, "mcctl: %s\n", msg);
	else if (err == hint_err && hint)
		fprintf(stderr, "mcctl: %s\n", hint);
	else if (err == -EPERM)
		fprintf(stderr, "mcctl: %s (CAP_NET_ADMIN required)\n",
			strerror(EPERM));
	else
		fprintf(stderr, "mcctl: %s\n", strerror(-err));
	return EXIT_FAILURE;
}

static int kernel_err(int err, const char *enoent_hint)
{
	return kernel_err_hint(err, -ENOENT, enoent_hint);
}

/* A dump that stayed inconsistent is still a list: say so, on stderr. */
static void note_inconsistent(void)
{
	if (ibmcg_dump_inconsistent(h))
		fprintf(stderr,
			"mcctl: note: holders changed while a group's list was read; it may mix two moments\n");
}

static int finish_output(void)
{
	int err = json_print_end();

	if (err) {
		fprintf(stderr, "mcctl: cannot write output: %s\n",
			strerror(-err));
		return EXIT_FAILURE;
	}
	return 0;
}

static int open_handle(void)
{
	int err;

	if (h)
		return 0;
	h = ibmcg_alloc();
	if (!h) {
		fprintf(stderr, "mcctl: %s\n", strerror(ENOMEM));
		return EXIT_FAILURE;
	}
	err = ibmcg_connect(h);
	return err ? kernel_err(err, NULL) : 0;
}

int mcctl_finish_output(void)
{
	return finish_output();
}

struct ibmcg *mcctl_handle(int *ret)
{
	*ret = open_handle();
	return *ret ? NULL : h;
}

int mcctl_kernel_err(int err, const char *enoent_hint)
{
	if (err == -ENOSPC)
		return kernel_err_hint(err, -ENOSPC,
				       "the port holds its budget of groups or the owner its most holds");
	return kernel_err(err, enoent_hint);
}

static int print_one_group(const struct ibmcg_group *g)
{
	print_group_detail(g);
	return finish_output();
}

static sigset_t bound_sigs;

void mcctl_bound_block(void)
{
	/*
	 * A bound hold lives as long as our socket. Block the signals that
	 * end it now, so that one arriving during the join is not lost.
	 */
	sigemptyset(&bound_sigs);
	sigaddset(&bound_sigs, SIGINT);
	sigaddset(&bound_sigs, SIGTERM);
	sigaddset(&bound_sigs, SIGHUP);
	sigprocmask(SIG_BLOCK, &bound_sigs, NULL);
}

void mcctl_bound_wait(void)
{
	int sig;

	/* The kernel drops the hold when we exit and the socket closes. */
	while (sigwait(&bound_sigs, &sig))
		;
}

static int cmd_join(int argc, char **argv)
{
	struct ibmcg_group *g;
	struct join_cmd c;
	int err;

	/* A DEV/PORT has a slash, the name of a declared group none. */
	if (argc > 0 && !strchr(argv[0], '/'))
		return join_named(argc, argv);
	err = parse_join(argc, argv, &c);
	if (err)
		return err;
	if (c.args.flags & IB_MCG_F_BOUND)
		mcctl_bound_block();

	err = open_handle();
	if (err)
		return err;
	err = ibmcg_join(h, c.dev, c.port, c.mgid, &c.args, &g);
	if (err)
		return kernel_err_hint(err, -ENOSPC,
				       "the port holds its budget of groups or the owner its most holds");
	print_join_reply(g, c.sa_assigned);
	ibmcg_group_free(g);
	err = finish_output();
	if (err || !(c.args.flags & IB_MCG_F_BOUND))
		return err;
	mcctl_bound_wait();
	return 0;
}

/* leave owner NAME all [DEV[/PORT]]: one OWNER_RELEASE request. */
static int leave_owner_all(const struct leave_cmd *c)
{
	struct ibmcg_released **rel;
	uint32_t holds;
	size_t n;
	int err;

	err = open_handle();
	if (err)
		return err;
	err = ibmcg_owner_release(h, c->owner, c->dev[0] ? c->dev : NULL,
				  c->port, &rel, &n, &holds);
	if (err == -EOPNOTSUPP)
		return kernel_err_hint(err, -EOPNOTSUPP,
				       "the ib_mcgroups module is too old to release by owner");
	if (err)
		return kernel_err(err, "no such device or port");
	print_owner_release(c->owner, holds, rel, n);
	ibmcg_released_free(rel);
	return finish_output();
}

static int cmd_leave(int argc, char **argv)
{
	struct ibmcg_group *g;
	struct leave_cmd c;
	int err;

	if (argc > 0 && !strchr(argv[0], '/') && !ibmcg__matches(argv[0], "owner"))
		return leave_named(argc, argv);
	err = parse_leave(argc, argv, &c);
	if (err)
		return err;
	if (c.all)
		return leave_owner_all(&c);

	err = open_handle();
	if (err)
		return err;
	err = ibmcg_leave(h, c.dev, c.port, c.mgid, c.owner, c.join_state,
			  &g);
	if (err)
		return kernel_err(err, "owner holds nothing matching on that group");
	err = print_one_group(g);
	ibmcg_group_free(g);
	return err;
}

static int cmd_show(int argc, char **argv)
{
	char dev[IBMCG_DEV_NAME_MAX];
	struct ibmcg_group *g;
	uint8_t mgid[IBMCG_GID_LEN];
	uint32_t port;
	int err;

	err = parse_target(&argc, &argv, dev, &port, mgid);
	if (err)
		return err;
	if (argc > 0)
		return unknown_param(*argv);

	err = open_handle();
	if (err)
		return err;
	err = ibmcg_group_get(h, dev, port, mgid, &g);
	if (err)
		return kernel_err(err, "no such group");
	note_inconsistent();
	err = print_one_group(g);
	ibmcg_group_free(g);
	return err;
}

static int cmd_list(int argc, char **argv)
{
	struct ibmcg_group **groups;
	struct list_cmd c;
	size_t i, n;
	int err;

	err = parse_list(argc, argv, &c);
	if (err)
		return err;
	err = open_handle();
	if (err)
		return err;
	err = ibmcg_group_list(h, c.dev[0] ? c.dev : NULL, c.port, &groups, &n);
	if (err)
		return kernel_err(err, "no such device or port");
	note_inconsistent();

	open_json_array(NULL);
	for (i = 0; i < n; i++)
		if (list_match(&c, groups[i]))
			print_group_line(groups[i]);
	close_json_array();
	ibmcg_groups_free(groups);
	return finish_output();
}

static int cmd_stats(int argc, char **argv)
{
	char dev[IBMCG_DEV_NAME_MAX];
	struct ibmcg_port **ports, *one[2] = { NULL, NULL };
	uint32_t port;
	size_t i, n = 1;
	int err;

	err = parse_filter(argc, argv, dev, &port);
	if (err)
		return err;
	err = open_handle();
	if (err)
		return err;
	if (port) {
		ports = one;
		err = ibmcg_port_get(h, dev, port, &one[0]);
	} else {
		err = ibmcg_port_dump(h, dev[0] ? dev : NULL, &ports, &n);
	}
	if (err)
		return kernel_err(err, "no such device or port");

	open_json_array(NULL);
	for (i = 0; i < n; i++)
		print_port(ports[i]);
	close_json_array();
	if (port)
		ibmcg_port_free(one[0]);
	else
		ibmcg_ports_free(ports);
	return finish_output();
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

struct monitor_ctx {
	bool timestamps;
	int werr;
};

static int print_event_cb(const struct ibmcg_event *ev, void *arg)
{
	struct monitor_ctx *m = arg;
	char ts[MCCTL_TIMESTAMP_LEN];
	struct timespec now;

	if (m->timestamps) {
		clock_gettime(CLOCK_REALTIME, &now);
		format_timestamp(&now, ts, sizeof(ts));
	}
	print_event_ts(ev, m->timestamps ? ts : NULL);
	m->werr = json_print_end();	/* flushes: one line per event */
	return m->werr ? 1 : 0;
}

static int cmd_monitor(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct monitor_ctx m = { 0 };
	sigset_t sigs, orig;
	struct pollfd pfd;
	int err;

	for (; argc > 0; argc--, argv++) {
		if (strcmp(*argv, "-t") && strcmp(*argv, "--timestamp"))
			return unknown_param(*argv);
		m.timestamps = true;
	}
	err = open_handle();
	if (err)
		return err;
	err = ibmcg_event_subscribe(h);
	if (err)
		return kernel_err(err, NULL);

	/* Signals are only delivered inside ppoll(): no lost wakeup. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	sigprocmask(SIG_BLOCK, &sigs, &orig);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	pfd.fd = ibmcg_event_fd(h);
	pfd.events = POLLIN;
	while (!stop) {
		if (ppoll(&pfd, 1, NULL, &orig) < 0) {
			if (errno == EINTR)
				continue;
			return kernel_err(-errno, NULL);
		}
		err = ibmcg_event_recv(h, print_event_cb, &m);
		if (m.werr) {
			fprintf(stderr, "mcctl: cannot write output: %s\n",
				strerror(-m.werr));
			return EXIT_FAILURE;
		}
		if (err == -ENOBUFS) {
			fprintf(stderr, "mcctl: warning: %s\n",
				ibmcg_strerror(h, err));
			continue;
		}
		if (err == -EAGAIN || err == -EINTR)
			continue;
		if (err < 0)
			return kernel_err(err, NULL);
	}
	return 0;
}

static int cmd_help(int argc, char **argv);

/* Prefix matching picks the first match: "l" is list, "s" is show. */
static const struct {
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
	cmd_usage(stdout, cmds[i].usage);
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

static char stdout_buf[65536];

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json",	no_argument, NULL, 'j' },
		{ "pretty",	no_argument, NULL, 'p' },
		{ "version",	no_argument, NULL, 'V' },
		{ "help",	no_argument, NULL, 'h' },
		{ "config",	required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	bool json = false, pretty = false;
	int i, opt, ret;

	while ((opt = getopt_long(argc, argv, "+jpVhc:", opts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'p':
			json = pretty = true;
			break;
		case 'V':
			return cmd_version();
		case 'h':
			usage(stdout);
			return 0;
		case 'c':
			mcctl_config = optarg;
			break;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1) {
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
	i = find_cmd(argv[0]);
	if (i < 0)
		return unknown_cmd(argv[0]);
	usage_cmd = cmds[i].name;
	if (wants_help(argc - 1, argv + 1)) {
		cmd_usage(stdout, cmds[i].usage);
		return 0;
	}
	ret = cmds[i].fn(argc - 1, argv + 1);
	ibmcg_close(h);
	return ret;
}
