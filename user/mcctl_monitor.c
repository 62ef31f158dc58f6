// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl monitor: the module's events until SIGINT, SIGTERM or SIGHUP.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mcctl.h"
#include "mcctl_args.h"

static volatile sig_atomic_t stop;

const struct cmd_usage monitor_usage = {
	"mcctl monitor [ -t | --timestamp ]\n", 0,
	"-t: each event after the time it was received (JSON: \"timestamp\")\n",
};

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

int cmd_monitor(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct monitor_ctx m = { 0 };
	sigset_t sigs, orig;
	struct pollfd pfd;
	struct ibmcg *h;
	int err;

	for (; argc > 0; argc--, argv++) {
		if (strcmp(*argv, "-t") && strcmp(*argv, "--timestamp"))
			return unknown_param(*argv);
		m.timestamps = true;
	}
	h = mcctl_handle(&err);
	if (!h)
		return err;
	err = ibmcg_event_subscribe(h);
	if (err)
		return mcctl_kernel_err_hint(err, 0, NULL);

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
			return mcctl_kernel_err_hint(-errno, 0, NULL);
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
			return mcctl_kernel_err_hint(err, 0, NULL);
	}
	return 0;
}
