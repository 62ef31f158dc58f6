// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl's shared services, for the command files: the handle of this run,
 * the kernel's errors, the end of the output, bound holds, and the usage
 * texts' printing. Nothing here calls a command, nor main().
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcctl.h"
#include "mcctl_args.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static struct ibmcg *h;
const char *mcctl_config = IBMCG_CONF_PATH;

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
	"OPTIONS := { -j[son] | -p[retty] | -c[onfig] FILE | -V[ersion] | -h[elp] }\n"
	"-batch FILE: each line (\"-\": of stdin) a COMMAND [ ARGS ], on one socket;\n"
	"            stops at the first error, unless -force\n";

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

void mcctl_usage_all(FILE *fp, const struct cmd_usage *const *all,
		     size_t n)
{
	const char *lead = "       ";
	unsigned int what = 0;
	size_t i;

	fprintf(fp, "Usage: mcctl [ OPTIONS ] COMMAND [ ARGS ]\n"
		    "       mcctl [ OPTIONS ] -batch FILE [ -force ]\n");
	for (i = 0; i < n; i++) {
		print_lines(fp, all[i]->text, &lead);
		what |= all[i]->what;
	}
	print_terms(fp, what, true, NULL);
}

void mcctl_usage(FILE *fp, const struct cmd_usage *u)
{
	const char *lead = "Usage: ";

	print_lines(fp, u->text, &lead);
	print_terms(fp, u->what, false, u->note);
}

/* The kernel's message, else a hint for hint_err, else strerror(). */
int mcctl_kernel_err_hint(int err, int hint_err, const char *hint)
{
	const char *msg = ibmcg_errmsg(h);

	if (msg)
		fprintf(stderr, "%smcctl: %s\n", mcctl_err_where, msg);
	else if (err == hint_err && hint)
		fprintf(stderr, "%smcctl: %s\n", mcctl_err_where, hint);
	else if (err == -EPERM)
		fprintf(stderr, "%smcctl: %s (CAP_NET_ADMIN required)\n",
			mcctl_err_where, strerror(EPERM));
	else
		fprintf(stderr, "%smcctl: %s\n", mcctl_err_where,
			strerror(-err));
	return EXIT_FAILURE;
}

/* A dump that stayed inconsistent is still a list: say so, on stderr. */
void mcctl_note_inconsistent(struct ibmcg *handle)
{
	if (ibmcg_dump_inconsistent(handle))
		fprintf(stderr,
			"mcctl: note: holders changed while a group's list was read; it may mix two moments\n");
}

int mcctl_finish_output(void)
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
	return err ? mcctl_kernel_err_hint(err, 0, NULL) : 0;
}

struct ibmcg *mcctl_handle(int *ret)
{
	*ret = open_handle();
	return *ret ? NULL : h;
}

int mcctl_kernel_err(int err, const char *enoent_hint)
{
	if (err == -ENOSPC)
		return mcctl_kernel_err_hint(err, -ENOSPC,
				       "the port holds its budget of groups or the owner its most holds");
	return mcctl_kernel_err_hint(err, -ENOENT, enoent_hint);
}

void mcctl_handle_close(void)
{
	ibmcg_close(h);
	h = NULL;
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
