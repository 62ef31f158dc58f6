// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl: hold and inspect InfiniBand/RoCE multicast groups through the
 * ib_mcgroups kernel module.
 *
 * Exit status: 0 success, 1 error reported by the kernel or the system,
 * 2 usage error.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcctl.h"

#ifndef VERSION
#define VERSION		"0.1.0"
#endif

#define EXIT_USAGE	2
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static struct ibmcg *h;
static volatile sig_atomic_t stop;

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: mcctl [ OPTIONS ] COMMAND [ ARGS ]\n"
		"       mcctl join DEV/PORT GROUP [ owner NAME ] [ state STATE ] [ qkey QKEY ] [ bound ]\n"
		"       mcctl leave DEV/PORT GROUP [ owner NAME ] [ state STATE ]\n"
		"       mcctl list [ DEV[/PORT] ]\n"
		"       mcctl show DEV/PORT GROUP\n"
		"       mcctl stats [ DEV[/PORT] ]\n"
		"       mcctl monitor\n"
		"       mcctl help\n"
		"where  OPTIONS := { -j[son] | -p[retty] | -V[ersion] | -h[elp] }\n"
		"       GROUP := { IPv4 group | IPv6 group | MGID }\n"
		"       STATE := { full | nonmember | sendonly | sendonly-full }\n"
		"       NAME := owner, 1..64 printable characters, no spaces (default: default)\n");
}

static int usage_err(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static int usage_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

/* iproute2's matches(): arg is a non-empty prefix of word. */
static bool matches(const char *arg, const char *word)
{
	size_t len = strlen(arg);

	return len && !strncmp(arg, word, len);
}

static int kernel_err(int err, const char *enoent_hint)
{
	const char *msg = ibmcg_errmsg(h);

	if (msg)
		fprintf(stderr, "mcctl: %s\n", msg);
	else if (err == -ENOENT && enoent_hint)
		fprintf(stderr, "mcctl: %s\n", enoent_hint);
	else if (err == -EPERM)
		fprintf(stderr, "mcctl: %s (CAP_NET_ADMIN required)\n",
			strerror(EPERM));
	else
		fprintf(stderr, "mcctl: %s\n", strerror(-err));
	return EXIT_FAILURE;
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

	h = ibmcg_alloc();
	if (!h) {
		fprintf(stderr, "mcctl: %s\n", strerror(ENOMEM));
		return EXIT_FAILURE;
	}
	err = ibmcg_connect(h);
	return err ? kernel_err(err, NULL) : 0;
}

static int parse_devport(const char *s, char *dev, uint32_t *port,
			 bool port_optional)
{
	const char *why;

	if (ibmcg_devport_parse(s, dev, port, port_optional, &why))
		return usage_err("mcctl: invalid %s '%s': %s",
				 port_optional ? "DEV[/PORT]" : "DEV/PORT",
				 s, why);
	return 0;
}

/* DEV/PORT GROUP, consumed from the front of the argument list. */
static int parse_target(int *argc, char ***argv, char *dev, uint32_t *port,
			uint8_t *mgid)
{
	const char *why;
	int err;

	if (*argc < 2)
		return usage_err("mcctl: expected DEV/PORT GROUP");
	err = parse_devport((*argv)[0], dev, port, false);
	if (err)
		return err;
	if (ibmcg_mgid_parse((*argv)[1], mgid, &why))
		return usage_err("mcctl: invalid group '%s': %s", (*argv)[1],
				 why);
	*argc -= 2;
	*argv += 2;
	return 0;
}

/* Decimal, or hexadecimal with 0x; nothing else (no octal, no sign). */
static int parse_u32(const char *s, uint32_t *v)
{
	unsigned long long x;
	int base = 10;
	char *end;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!isxdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &end, base);
	if (errno || *end || x > UINT32_MAX)
		return -EINVAL;
	*v = x;
	return 0;
}

/* Step to the value of keyword (*argv)[0]; a usage error if none. */
static int next_arg(int *argc, char ***argv)
{
	const char *key = **argv;

	if (*argc < 2)
		return usage_err("mcctl: missing value for '%s'", key);
	(*argc)--;
	(*argv)++;
	return 0;
}

/* owner NAME and state STATE, shared by join and leave. */
static int parse_holder_arg(int *argcp, char ***argvp, const char **owner,
			    uint8_t *js, bool *used)
{
	const char *why;
	int err;

	*used = true;
	if (matches(**argvp, "owner")) {
		err = next_arg(argcp, argvp);
		if (err)
			return err;
		if (ibmcg_owner_check(**argvp, &why))
			return usage_err("mcctl: invalid owner '%s': %s",
					 **argvp, why);
		*owner = **argvp;
	} else if (matches(**argvp, "state")) {
		err = next_arg(argcp, argvp);
		if (err)
			return err;
		if (ibmcg_join_state_parse(**argvp, js, &why))
			return usage_err("mcctl: invalid state '%s': %s",
					 **argvp, why);
	} else {
		*used = false;
	}
	return 0;
}

static int print_one_group(const struct ibmcg_group *g)
{
	print_group_detail(g);
	return finish_output();
}

static int cmd_join(int argc, char **argv)
{
	struct ibmcg_join_args args = { .owner = "default" };
	char dev[IBMCG_DEV_NAME_MAX];
	struct ibmcg_group g;
	uint8_t mgid[IBMCG_GID_LEN];
	uint32_t port;
	sigset_t sigs;
	bool used;
	int err, sig;

	err = parse_target(&argc, &argv, dev, &port, mgid);
	if (err)
		return err;
	for (; argc > 0; argc--, argv++) {
		err = parse_holder_arg(&argc, &argv, &args.owner,
				       &args.join_state, &used);
		if (err)
			return err;
		if (used)
			continue;
		if (matches(*argv, "qkey")) {
			err = next_arg(&argc, &argv);
			if (err)
				return err;
			if (parse_u32(*argv, &args.qkey))
				return usage_err("mcctl: invalid qkey '%s'",
						 *argv);
			args.set_qkey = true;
		} else if (matches(*argv, "bound")) {
			args.flags |= IB_MCG_F_BOUND;
		} else {
			return usage_err("Unknown parameter '%s'.", *argv);
		}
	}

	/*
	 * A bound hold lives as long as our socket. Block the signals that
	 * end it now, so that one arriving during the join is not lost.
	 */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	if (args.flags & IB_MCG_F_BOUND)
		sigprocmask(SIG_BLOCK, &sigs, NULL);

	err = open_handle();
	if (err)
		return err;
	err = ibmcg_join(h, dev, port, mgid, &args, &g);
	if (err)
		return kernel_err(err, NULL);
	err = print_one_group(&g);
	ibmcg_group_free(&g);
	if (err || !(args.flags & IB_MCG_F_BOUND))
		return err;

	/* The kernel drops the hold when we exit and the socket closes. */
	while (sigwait(&sigs, &sig))
		;
	return 0;
}

static int cmd_leave(int argc, char **argv)
{
	char dev[IBMCG_DEV_NAME_MAX];
	const char *owner = "default";
	struct ibmcg_group g;
	uint8_t mgid[IBMCG_GID_LEN];
	uint8_t js = 0;
	uint32_t port;
	bool used;
	int err;

	err = parse_target(&argc, &argv, dev, &port, mgid);
	if (err)
		return err;
	for (; argc > 0; argc--, argv++) {
		err = parse_holder_arg(&argc, &argv, &owner, &js, &used);
		if (err)
			return err;
		if (!used)
			return usage_err("Unknown parameter '%s'.", *argv);
	}

	err = open_handle();
	if (err)
		return err;
	err = ibmcg_leave(h, dev, port, mgid, owner, js, &g);
	if (err)
		return kernel_err(err, "owner holds nothing matching on that group");
	err = print_one_group(&g);
	ibmcg_group_free(&g);
	return err;
}

static int cmd_show(int argc, char **argv)
{
	char dev[IBMCG_DEV_NAME_MAX];
	struct ibmcg_group g;
	uint8_t mgid[IBMCG_GID_LEN];
	uint32_t port;
	int err;

	err = parse_target(&argc, &argv, dev, &port, mgid);
	if (err)
		return err;
	if (argc > 0)
		return usage_err("Unknown parameter '%s'.", *argv);

	err = open_handle();
	if (err)
		return err;
	err = ibmcg_group_get(h, dev, port, mgid, &g);
	if (err)
		return kernel_err(err, "no such group");
	err = print_one_group(&g);
	ibmcg_group_free(&g);
	return err;
}

/* [DEV[/PORT]] of list and stats; dev is "" when not given. */
static int parse_filter(int argc, char **argv, char *dev, uint32_t *port)
{
	dev[0] = '\0';
	*port = 0;
	if (argc > 1)
		return usage_err("Unknown parameter '%s'.", argv[1]);
	return argc ? parse_devport(argv[0], dev, port, true) : 0;
}

static int cmd_list(int argc, char **argv)
{
	char dev[IBMCG_DEV_NAME_MAX];
	struct ibmcg_group *groups;
	uint32_t port;
	size_t i, n;
	int err;

	err = parse_filter(argc, argv, dev, &port);
	if (err)
		return err;
	err = open_handle();
	if (err)
		return err;
	err = ibmcg_group_dump(h, dev[0] ? dev : NULL, port, &groups, &n);
	if (err)
		return kernel_err(err, "no such device or port");

	open_json_array(NULL);
	for (i = 0; i < n; i++)
		print_group_line(&groups[i]);
	close_json_array();
	ibmcg_groups_free(groups, n);
	return finish_output();
}

static int cmd_stats(int argc, char **argv)
{
	char dev[IBMCG_DEV_NAME_MAX];
	struct ibmcg_port *ports;
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
		ports = calloc(1, sizeof(*ports));
		if (!ports)
			return kernel_err(-ENOMEM, NULL);
		err = ibmcg_port_get(h, dev, port, ports);
		if (err)
			ibmcg_ports_free(ports);
	} else {
		err = ibmcg_port_dump(h, dev[0] ? dev : NULL, &ports, &n);
	}
	if (err)
		return kernel_err(err, "no such device or port");

	open_json_array(NULL);
	for (i = 0; i < n; i++)
		print_port(&ports[i]);
	close_json_array();
	ibmcg_ports_free(ports);
	return finish_output();
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int print_event_cb(const struct ibmcg_event *ev, void *arg)
{
	int *werr = arg;

	print_event(ev);
	*werr = json_print_end();	/* flushes: one line per event */
	return *werr ? 1 : 0;
}

static int cmd_monitor(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t sigs, orig;
	struct pollfd pfd;
	int err, werr = 0;

	if (argc > 0)
		return usage_err("Unknown parameter '%s'.", *argv);
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
		err = ibmcg_event_recv(h, print_event_cb, &werr);
		if (werr) {
			fprintf(stderr, "mcctl: cannot write output: %s\n",
				strerror(-werr));
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

static int cmd_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	usage(stdout);
	return 0;
}

/* Prefix matching picks the first match: "l" is list, "s" is show. */
static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} cmds[] = {
	{ "list",	cmd_list },
	{ "leave",	cmd_leave },
	{ "join",	cmd_join },
	{ "show",	cmd_show },
	{ "stats",	cmd_stats },
	{ "monitor",	cmd_monitor },
	{ "help",	cmd_help },
};

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json",	no_argument, NULL, 'j' },
		{ "pretty",	no_argument, NULL, 'p' },
		{ "version",	no_argument, NULL, 'V' },
		{ "help",	no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool json = false, pretty = false;
	size_t i;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "+jpVh", opts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'p':
			json = pretty = true;
			break;
		case 'V':
			printf("mcctl %s (ib_mcgroups protocol %d)\n", VERSION,
			       IB_MCG_GENL_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
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

	json_print_init(stdout, json, pretty);
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		if (matches(argv[0], cmds[i].name)) {
			ret = cmds[i].fn(argc - 1, argv + 1);
			ibmcg_close(h);
			return ret;
		}
	}
	return usage_err("Unknown command '%s'.", argv[0]);
}
