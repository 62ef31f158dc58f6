/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mcctl metrics: the ports' counters and gauges, the groups by state and
 * the versions in the Prometheus text exposition format (version 0.0.4),
 * on stdout or, for node_exporter's textfile collector, written
 * atomically to DIR/ib_mcgroups.prom.
 */
#ifndef MCCTL_METRICS_H
#define MCCTL_METRICS_H

#include <stdio.h>

#include "ibmcg.h"

/* The file --textfile DIR writes; node_exporter reads only "*.prom". */
#define MCCTL_METRICS_FILE	"ib_mcgroups.prom"

/* Everything one exposition shows: one moment of the module. */
struct metrics_snapshot {
	bool up;			/* module loaded and answered */
	const char *module_version;	/* NULL or "": unknown (not loaded) */
	int protocol_version;		/* <= 0: unknown */
	const char *library_version;	/* libibmcg's (mcctl is linked with
					 * it statically: the same as mcctl's)
					 */
	const struct ibmcg_port *const *ports;
	size_t nports;
	const struct ibmcg_group *const *groups; /* counted by state, per port */
	size_t ngroups;
};

/* The exposition of @s. Returns 0, or -EIO if fp had a write error. */
int metrics_format(FILE *fp, const struct metrics_snapshot *s);

/*
 * Write @len bytes of @text to DIR/MCCTL_METRICS_FILE atomically: a
 * temporary file in DIR (".ib_mcgroups.prom.XXXXXX", which the collector
 * ignores) written, synced and made 0644, then renamed over the file. On
 * failure nothing is left behind, *what names the step that failed and
 * the return value is -errno.
 */
int metrics_write_textfile(const char *dir, const char *text, size_t len,
			   const char **what);

#endif /* MCCTL_METRICS_H */
