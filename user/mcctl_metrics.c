// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl metrics; see mcctl_metrics.h. Every metric is named
 * ib_mcgroups_*; counters end in _total, durations are in seconds, and
 * every per-port series has the labels device, port and link_layer.
 * Metrics a port does not report (the re-join statistics of RoCE ports,
 * attributes an older module does not send) are left out for that port.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mcctl_args.h"
#include "mcctl.h"
#include "mcctl_metrics.h"
#include "mcctl_version.h"

const struct cmd_usage metrics_usage = {
	"mcctl metrics [ --textfile DIR ]\n", 0,
	"Prometheus text format on stdout, or written atomically to\n"
	"DIR/" MCCTL_METRICS_FILE " (node_exporter's textfile collector);\n"
	"ib_mcgroups_up 0 when the module is not loaded\n",
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define PREFIX		"ib_mcgroups_"

enum metric_kind { K_U8, K_U32, K_U64, K_MS_AS_S };

struct port_metric {
	const char *name;		/* after PREFIX */
	bool counter;			/* else a gauge */
	unsigned int attr;		/* IB_MCG_A_*: only ports that sent it */
	size_t off;			/* in struct ibmcg_port */
	enum metric_kind kind;
	const char *help;
};

#define PM(n, c, a, f, k, h) \
	{ n, c, IB_MCG_A_##a, offsetof(struct ibmcg_port, f), k, h }

static const struct port_metric port_metrics[] = {
	PM("port_state", false, PORT_STATE, port_state, K_U8,
	   "IB port state: 1 down, 2 init, 3 armed, 4 active, 5 active-defer, 0 unknown."),
	PM("holders", false, HOLDER_COUNT, holder_count, K_U32,
	   "Holds on the port's groups (one per owner and join state)."),
	PM("mcast_table_used", false, GROUPS, groups, K_U32,
	   "Multicast groups held on the port, each an entry of the HCA's multicast table."),
	PM("mcast_table_max", false, MAX_MCAST_GRP, max_mcast_grp, K_U32,
	   "Multicast groups the HCA supports (max_mcast_grp), 0 if it does not say."),
	PM("mcast_qp_attach_max", false, MAX_MCAST_QP_ATTACH,
	   max_mcast_qp_attach, K_U32,
	   "QPs the HCA can attach to one multicast group (max_mcast_qp_attach)."),
	PM("mcast_total_qp_attach_max", false, MAX_TOTAL_MCAST_QP_ATTACH,
	   max_total_mcast_qp_attach, K_U32,
	   "QP attachments to multicast groups the HCA supports in all (max_total_mcast_qp_attach)."),
	PM("max_groups", false, MAX_GROUPS, max_groups, K_U32,
	   "Groups the port may hold (module parameter max_groups), 0 for no limit."),
	PM("max_owner_holds", false, MAX_OWNER_HOLDS, max_owner_holds, K_U32,
	   "Holds one owner may have (module parameter max_owner_holds), 0 for no limit."),
	PM("joins_total", true, JOINS, joins, K_U64,
	   "Holds taken on the port (idempotent re-joins not counted)."),
	PM("leaves_total", true, LEAVES, leaves, K_U64,
	   "Holds dropped on the port, for any reason."),
	PM("join_errors_total", true, JOIN_ERRORS, join_errors, K_U64,
	   "Joins the port's backend failed (not retried)."),
	PM("linger_hits_total", true, LINGER_HITS, linger_hits, K_U64,
	   "Joins that took back a lingering group."),
	PM("linger_expired_total", true, LINGER_EXPIRED, linger_expired, K_U64,
	   "Lingering groups released when their linger time ran out."),
	PM("lid", false, LID, lid, K_U32,
	   "InfiniBand: the port's LID."),
	PM("sm_lid", false, SM_LID, sm_lid, K_U32,
	   "InfiniBand: the LID of the port's subnet manager."),
	PM("last_sm_lid", false, LAST_SM_LID, last_sm_lid, K_U32,
	   "InfiniBand: the SM's LID at the last client reregister, 0 before the first."),
	PM("sm_reregisters_total", true, SM_REREGISTERS, sm_reregisters, K_U64,
	   "InfiniBand: client reregister requests of an SM (failover, SM restart)."),
	PM("rejoin_waves_total", true, REJOIN_WAVES, rejoin_waves, K_U64,
	   "InfiniBand: completed re-join waves (every group joined again after memberships were lost)."),
	PM("group_rejoins_total", true, GROUP_REJOINS, group_rejoins, K_U64,
	   "InfiniBand: groups joined again after losing their membership."),
	PM("rejoin_failures_total", true, REJOIN_FAILURES, rejoin_failures, K_U64,
	   "InfiniBand: failed SA join attempts of held groups (retried)."),
	PM("sa_timeouts_total", true, SA_TIMEOUTS, sa_timeouts, K_U64,
	   "InfiniBand: SA joins that got no answer."),
	PM("mlid_changes_total", true, MLID_CHANGES, mlid_changes, K_U64,
	   "InfiniBand: re-joins the SA answered with another MLID (applications must attach again)."),
	PM("rejoin_pending", false, REJOIN_PENDING, rejoin_pending, K_U32,
	   "InfiniBand: groups waiting to be joined again."),
	PM("last_rejoin_wave_seconds", false, LAST_REJOIN_WAVE_MS,
	   last_rejoin_wave_ms, K_MS_AS_S,
	   "InfiniBand: duration of the last completed re-join wave, 0 before the first."),
};

/* The group states a dump can show, in the order they are printed. */
static const uint8_t group_states[] = {
	IB_MCG_STATE_JOINING, IB_MCG_STATE_JOINED, IB_MCG_STATE_RETRY_WAIT,
	IB_MCG_STATE_DETACHED, IB_MCG_STATE_LINGERING,
};

/* A label value: backslash, double quote and newline escaped. */
static void put_label_value(FILE *fp, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(fp, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", fp);
		else
			putc(*s, fp);
	}
}

static void put_label(FILE *fp, const char *sep, const char *name,
		      const char *value)
{
	fprintf(fp, "%s%s=\"", sep, name);
	put_label_value(fp, value);
	putc('"', fp);
}

static void put_header(FILE *fp, const char *name, const char *type,
		       const char *help)
{
	fprintf(fp, "# HELP " PREFIX "%s %s\n# TYPE " PREFIX "%s %s\n",
		name, help, name, type);
}

static const char *link_layer_label(uint8_t ll)
{
	switch (ll) {
	case IB_MCG_LINK_LAYER_INFINIBAND:
		return "infiniband";
	case IB_MCG_LINK_LAYER_ETHERNET:
		return "ethernet";
	default:
		return "unknown";
	}
}

/* "NAME{device="D",port="P",link_layer="L"" - the caller closes it. */
static void put_port_series(FILE *fp, const char *name,
			    const struct ibmcg_port *p)
{
	char port[16];

	snprintf(port, sizeof(port), "%" PRIu32, p->port);
	fprintf(fp, PREFIX "%s", name);
	put_label(fp, "{", "device", p->dev_name);
	put_label(fp, ",", "port", port);
	put_label(fp, ",", "link_layer", link_layer_label(p->link_layer));
}

static bool port_has(const struct ibmcg_port *p, unsigned int attr)
{
	return ibmcg_port_has(p, attr);
}

static void put_port_metric(FILE *fp, const struct port_metric *m,
			    const struct metrics_snapshot *s)
{
	const struct ibmcg_port *p;
	bool any = false;
	const void *v;
	uint32_t ms;
	size_t i;

	for (i = 0; i < s->nports; i++) {
		p = s->ports[i];
		if (!port_has(p, m->attr))
			continue;
		if (!any)
			put_header(fp, m->name, m->counter ? "counter" : "gauge",
				   m->help);
		any = true;
		put_port_series(fp, m->name, p);
		v = (const char *)p + m->off;
		switch (m->kind) {
		case K_U8:
			fprintf(fp, "} %u\n", *(const uint8_t *)v);
			break;
		case K_U32:
			fprintf(fp, "} %" PRIu32 "\n", *(const uint32_t *)v);
			break;
		case K_U64:
			fprintf(fp, "} %" PRIu64 "\n", *(const uint64_t *)v);
			break;
		case K_MS_AS_S:
			ms = *(const uint32_t *)v;
			fprintf(fp, "} %" PRIu32 ".%03" PRIu32 "\n",
				ms / 1000, ms % 1000);
			break;
		}
	}
}

static bool group_on_port(const struct ibmcg_group *g,
			  const struct ibmcg_port *p)
{
	return g->port == p->port && !strcmp(g->dev_name, p->dev_name);
}

static bool known_state(uint8_t state)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(group_states); i++)
		if (group_states[i] == state)
			return true;
	return false;
}

/*
 * ib_mcgroups_groups{...,state=S}: every port has a series for every
 * state (0 included, so that alerts see them), and one for state
 * "unknown" when a newer module reports a state this mcctl does not know.
 */
static void put_groups_by_state(FILE *fp, const struct metrics_snapshot *s)
{
	const struct ibmcg_port *p;
	unsigned int n, unknown;
	size_t i, j, k;

	if (!s->nports)
		return;
	put_header(fp, "groups", "gauge",
		   "Multicast groups held on the port, by state.");
	for (i = 0; i < s->nports; i++) {
		p = s->ports[i];
		for (k = 0; k < ARRAY_SIZE(group_states); k++) {
			n = 0;
			for (j = 0; j < s->ngroups; j++)
				if (group_on_port(s->groups[j], p) &&
				    s->groups[j]->state == group_states[k])
					n++;
			put_port_series(fp, "groups", p);
			put_label(fp, ",", "state",
				  ibmcg_state_name(group_states[k]));
			fprintf(fp, "} %u\n", n);
		}
		unknown = 0;
		for (j = 0; j < s->ngroups; j++)
			if (group_on_port(s->groups[j], p) &&
			    !known_state(s->groups[j]->state))
				unknown++;
		if (unknown) {
			put_port_series(fp, "groups", p);
			put_label(fp, ",", "state", "unknown");
			fprintf(fp, "} %u\n", unknown);
		}
	}
}

static void put_port_info(FILE *fp, const struct metrics_snapshot *s)
{
	const struct ibmcg_port *p;
	const char *backend;
	size_t i;

	if (!s->nports)
		return;
	put_header(fp, "port_info", "gauge",
		   "The port's join backend and, on RoCE, its netdev; always 1.");
	for (i = 0; i < s->nports; i++) {
		p = s->ports[i];
		backend = ibmcg_backend_name(p->backend);
		put_port_series(fp, "port_info", p);
		put_label(fp, ",", "backend", backend ? backend : "unknown");
		put_label(fp, ",", "netdev", p->netdev);
		fputs("} 1\n", fp);
	}
}

int metrics_format(FILE *fp, const struct metrics_snapshot *s)
{
	char proto[16] = "";
	size_t i;

	put_header(fp, "up", "gauge",
		   "1 if the ib_mcgroups module is loaded and answered, else 0.");
	fprintf(fp, PREFIX "up %d\n", s->up ? 1 : 0);

	if (s->protocol_version > 0)
		snprintf(proto, sizeof(proto), "%d", s->protocol_version);
	put_header(fp, "info", "gauge",
		   "Versions of the module, its netlink protocol and libibmcg (empty: module not loaded); always 1.");
	fputs(PREFIX "info", fp);
	put_label(fp, "{", "module_version",
		  s->module_version ? s->module_version : "");
	put_label(fp, ",", "protocol_version", proto);
	put_label(fp, ",", "library_version",
		  s->library_version ? s->library_version : "");
	fputs("} 1\n", fp);

	put_port_info(fp, s);
	put_groups_by_state(fp, s);
	for (i = 0; i < ARRAY_SIZE(port_metrics); i++)
		put_port_metric(fp, &port_metrics[i], s);
	return ferror(fp) ? -EIO : 0;
}

int metrics_write_textfile(const char *dir, const char *text, size_t len,
			   const char **what)
{
	char *tmp = NULL, *dst = NULL;
	int fd = -1, err = 0;
	bool created = false;
	size_t done = 0;
	ssize_t n;

	if (asprintf(&tmp, "%s/." MCCTL_METRICS_FILE ".XXXXXX", dir) < 0) {
		tmp = NULL;
		*what = "memory";
		return -ENOMEM;
	}
	if (asprintf(&dst, "%s/" MCCTL_METRICS_FILE, dir) < 0) {
		dst = NULL;
		*what = "memory";
		err = -ENOMEM;
		goto out;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		*what = "cannot create a temporary file in";
		err = -errno;
		goto out;
	}
	created = true;
	while (done < len) {
		n = write(fd, text + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			*what = "cannot write a temporary file in";
			err = n < 0 ? -errno : -EIO;
			goto out;
		}
		done += n;
	}
	/* mkstemp() made it 0600; node_exporter may run as another user. */
	if (fchmod(fd, 0644) || fsync(fd)) {
		*what = "cannot write a temporary file in";
		err = -errno;
		goto out;
	}
	if (close(fd)) {
		fd = -1;
		*what = "cannot write a temporary file in";
		err = -errno;
		goto out;
	}
	fd = -1;
	if (rename(tmp, dst)) {
		*what = "cannot rename the temporary file in";
		err = -errno;
	}
out:
	if (fd >= 0)
		close(fd);
	if (err && created)
		unlink(tmp);
	free(tmp);
	free(dst);
	return err;
}

/* The loaded module's version, or NULL if it is not loaded. */
static char *module_version(void)
{
	char buf[64] = "";
	FILE *fp;

	fp = fopen(MCCTL_MODULE_VERSION_PATH, "r");
	if (!fp)
		return NULL;
	if (!fgets(buf, sizeof(buf), fp))
		buf[0] = '\0';
	fclose(fp);
	buf[strcspn(buf, "\n")] = '\0';
	return strdup(buf);
}

/*
 * Ask the module; a failure leaves s->up false and says why on stderr.
 * Not loaded is not a failure (the module is not loaded for this: the
 * lookup by name that ibmcg_connect() makes would load it).
 */
static int query(struct ibmcg *h, struct metrics_snapshot *s,
		 struct ibmcg_port ***ports, struct ibmcg_group ***groups)
{
	int err;

	/* A scraper never loads the module, not even while rmmod runs. */
	err = ibmcg_connect_flags(h, IBMCG_CONNECT_NOLOAD);
	if (err == -ENOENT)
		return 0;	/* unloaded meanwhile */
	if (!err) {
		s->protocol_version = ibmcg_protocol_version(h);
		err = ibmcg_port_dump(h, NULL, ports, &s->nports);
	}
	if (!err) {
		/* the groups' states: the list view has them */
		err = ibmcg_group_list(h, NULL, 0, groups, &s->ngroups);
		if (err) {
			ibmcg_ports_free(*ports);
			*ports = NULL;
			s->nports = 0;
		}
	}
	if (err) {
		fprintf(stderr, "mcctl: metrics: %s\n", ibmcg_strerror(h, err));
		return EXIT_FAILURE;
	}
	s->ports = (const struct ibmcg_port *const *)*ports;
	s->groups = (const struct ibmcg_group *const *)*groups;
	s->up = true;
	return 0;
}

int cmd_metrics(int argc, char **argv)
{
	struct metrics_snapshot s = { .library_version = VERSION };
	struct ibmcg_group **groups = NULL;
	struct ibmcg_port **ports = NULL;
	const char *dir = NULL, *what;
	char *modver, *text = NULL;
	struct ibmcg *h = NULL;
	size_t len = 0;
	int ret = 0, err;
	FILE *fp;

	for (; argc > 0; argc--, argv++) {
		if (!strcmp(*argv, "--textfile")) {
			if (argc < 2)
				return usage_err("mcctl: %s needs a directory",
						 *argv);
			dir = *++argv;
			argc--;
		} else if (!strncmp(*argv, "--textfile=", 11)) {
			dir = *argv + 11;
		} else {
			return unknown_param(*argv);
		}
	}
	if (dir && !*dir)
		return usage_err("mcctl: --textfile needs a directory");

	modver = module_version();
	s.module_version = modver;
	if (modver) {
		h = ibmcg_alloc();
		if (!h) {
			fprintf(stderr, "mcctl: %s\n", strerror(ENOMEM));
			ret = EXIT_FAILURE;
		} else {
			ret = query(h, &s, &ports, &groups);
		}
	}

	fp = open_memstream(&text, &len);
	if (!fp || metrics_format(fp, &s) || fclose(fp)) {
		fprintf(stderr, "mcctl: %s\n", strerror(ENOMEM));
		ret = EXIT_FAILURE;
		goto out;
	}
	if (dir) {
		err = metrics_write_textfile(dir, text, len, &what);
		if (err) {
			fprintf(stderr, "mcctl: %s %s: %s\n", what, dir,
				strerror(-err));
			ret = EXIT_FAILURE;
		}
	} else if (fwrite(text, 1, len, stdout) != len || fflush(stdout)) {
		fprintf(stderr, "mcctl: cannot write output: %s\n",
			strerror(errno));
		ret = EXIT_FAILURE;
	}
out:
	free(text);
	ibmcg_groups_free(groups);
	ibmcg_ports_free(ports);
	ibmcg_close(h);
	free(modver);
	return ret;
}
