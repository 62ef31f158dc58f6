// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of mcctl metrics: the Prometheus exposition of ports and
 * groups (names, types, labels, values, escaping, what is left out), and
 * the atomic write of --textfile. If promtool (Debian's prometheus
 * package) is installed, it checks an exposition of every metric.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ibmcg_priv.h"
#include "mcctl_metrics.h"
#include "ktap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define BIT(a)		(1ULL << IB_MCG_A_##a)

static char *out;

static int format(const struct metrics_snapshot *s)
{
	size_t len;
	FILE *fp;
	int ret;

	free(out);
	fp = open_memstream(&out, &len);
	ret = metrics_format(fp, s);
	fclose(fp);
	return ret;
}

/* What every port sends, RoCE or InfiniBand. */
#define COMMON	(BIT(DEV_NAME) | BIT(DEV_INDEX) | BIT(PORT) | BIT(LINK_LAYER) | \
		 BIT(PORT_STATE) | BIT(BACKEND) | BIT(MAX_MCAST_GRP) |	\
		 BIT(MAX_MCAST_QP_ATTACH) | BIT(MAX_TOTAL_MCAST_QP_ATTACH) | \
		 BIT(GROUPS) | BIT(HOLDER_COUNT) | BIT(JOINS) | BIT(LEAVES) | \
		 BIT(JOIN_ERRORS) | BIT(LINGER_HITS) | BIT(LINGER_EXPIRED) | \
		 BIT(MAX_GROUPS) | BIT(MAX_OWNER_HOLDS))
#define IB	(BIT(LID) | BIT(SM_LID) | BIT(SM_REREGISTERS) |		\
		 BIT(REJOIN_WAVES) | BIT(GROUP_REJOINS) |		\
		 BIT(REJOIN_FAILURES) | BIT(SA_TIMEOUTS) | BIT(LAST_SM_LID) | \
		 BIT(LAST_REJOIN_WAVE_MS) | BIT(REJOIN_PENDING) |	\
		 BIT(MLID_CHANGES))

static const struct ibmcg_port roce = {
	.present = { COMMON | BIT(NETDEV) | BIT(IFINDEX) },
	.dev_name = "rxe0", .port = 1,
	.link_layer = IB_MCG_LINK_LAYER_ETHERNET, .port_state = 4,
	.backend = IB_MCG_BACKEND_ROCE, .netdev = "veth0", .ifindex = 3,
	.max_mcast_grp = 8192, .max_mcast_qp_attach = 56,
	.max_total_mcast_qp_attach = 458752,
	.groups = 3, .holder_count = 4, .joins = 10, .leaves = 6,
	.join_errors = 1, .linger_hits = 2, .linger_expired = 1,
	.max_groups = 0, .max_owner_holds = 100,
};

static const struct ibmcg_port ib = {
	.present = { COMMON | IB },
	.dev_name = "mlx5_0", .port = 2,
	.link_layer = IB_MCG_LINK_LAYER_INFINIBAND, .port_state = 4,
	.backend = IB_MCG_BACKEND_IB_SA,
	.max_mcast_grp = 2097152, .max_mcast_qp_attach = 240,
	.max_total_mcast_qp_attach = 503316480,
	.groups = 1, .holder_count = 1, .joins = 1,
	.lid = 7, .sm_lid = 1, .last_sm_lid = 2, .last_rejoin_wave_ms = 1234,
	.rejoin_pending = 0, .sm_reregisters = 3, .rejoin_waves = 3,
	.group_rejoins = 5, .rejoin_failures = 18446744073709551615ULL,
	.sa_timeouts = 4, .mlid_changes = 6,
};

static struct ibmcg_group group(const char *dev, uint32_t port, uint8_t state)
{
	struct ibmcg_group g = { .port = port, .state = state };

	snprintf(g.dev_name, sizeof(g.dev_name), "%s", dev);
	return g;
}

/* The exact exposition of one RoCE port, one group; module not loaded. */
static void down_exact(void)
{
	struct metrics_snapshot s = { .library_version = "0.2.0" };

	EXPECT(format(&s) == 0);
	EXPECT_STR(out,
		   "# HELP ib_mcgroups_up 1 if the ib_mcgroups module is loaded and answered, else 0.\n"
		   "# TYPE ib_mcgroups_up gauge\n"
		   "ib_mcgroups_up 0\n"
		   "# HELP ib_mcgroups_info Versions of the module, its netlink protocol and libibmcg (empty: module not loaded); always 1.\n"
		   "# TYPE ib_mcgroups_info gauge\n"
		   "ib_mcgroups_info{module_version=\"\",protocol_version=\"\",library_version=\"0.2.0\"} 1\n");
}

static void roce_exact(void)
{
	struct ibmcg_group g = group("rxe0", 1, IB_MCG_STATE_JOINED);
	struct ibmcg_port p = roce;
	const struct ibmcg_port *pp[] = { &p };
	const struct ibmcg_group *gp[] = { &g };
	struct metrics_snapshot s = {
		.up = true, .module_version = "0.2.0", .protocol_version = 2,
		.library_version = "0.2.0", .ports = pp, .nports = 1,
		.groups = gp, .ngroups = 1,
	};

	p.present[0] &= ~(BIT(LINGER_HITS) | BIT(LINGER_EXPIRED) |
		       BIT(MAX_GROUPS) | BIT(MAX_OWNER_HOLDS) |
		       BIT(MAX_MCAST_QP_ATTACH) |
		       BIT(MAX_TOTAL_MCAST_QP_ATTACH));
	p.groups = 1;
	p.holder_count = 2;
#define L "{device=\"rxe0\",port=\"1\",link_layer=\"ethernet\""
	EXPECT(format(&s) == 0);
	EXPECT_STR(out,
		   "# HELP ib_mcgroups_up 1 if the ib_mcgroups module is loaded and answered, else 0.\n"
		   "# TYPE ib_mcgroups_up gauge\n"
		   "ib_mcgroups_up 1\n"
		   "# HELP ib_mcgroups_info Versions of the module, its netlink protocol and libibmcg (empty: module not loaded); always 1.\n"
		   "# TYPE ib_mcgroups_info gauge\n"
		   "ib_mcgroups_info{module_version=\"0.2.0\",protocol_version=\"2\",library_version=\"0.2.0\"} 1\n"
		   "# HELP ib_mcgroups_port_info The port's join backend and, on RoCE, its netdev; always 1.\n"
		   "# TYPE ib_mcgroups_port_info gauge\n"
		   "ib_mcgroups_port_info" L ",backend=\"roce\",netdev=\"veth0\"} 1\n"
		   "# HELP ib_mcgroups_groups Multicast groups held on the port, by state.\n"
		   "# TYPE ib_mcgroups_groups gauge\n"
		   "ib_mcgroups_groups" L ",state=\"joining\"} 0\n"
		   "ib_mcgroups_groups" L ",state=\"joined\"} 1\n"
		   "ib_mcgroups_groups" L ",state=\"retry-wait\"} 0\n"
		   "ib_mcgroups_groups" L ",state=\"detached\"} 0\n"
		   "ib_mcgroups_groups" L ",state=\"lingering\"} 0\n"
		   "# HELP ib_mcgroups_port_state IB port state: 1 down, 2 init, 3 armed, 4 active, 5 active-defer, 0 unknown.\n"
		   "# TYPE ib_mcgroups_port_state gauge\n"
		   "ib_mcgroups_port_state" L "} 4\n"
		   "# HELP ib_mcgroups_holders Holds on the port's groups (one per owner and join state).\n"
		   "# TYPE ib_mcgroups_holders gauge\n"
		   "ib_mcgroups_holders" L "} 2\n"
		   "# HELP ib_mcgroups_mcast_table_used Multicast groups held on the port, each an entry of the HCA's multicast table.\n"
		   "# TYPE ib_mcgroups_mcast_table_used gauge\n"
		   "ib_mcgroups_mcast_table_used" L "} 1\n"
		   "# HELP ib_mcgroups_mcast_table_max Multicast groups the HCA supports (max_mcast_grp), 0 if it does not say.\n"
		   "# TYPE ib_mcgroups_mcast_table_max gauge\n"
		   "ib_mcgroups_mcast_table_max" L "} 8192\n"
		   "# HELP ib_mcgroups_joins_total Holds taken on the port (idempotent re-joins not counted).\n"
		   "# TYPE ib_mcgroups_joins_total counter\n"
		   "ib_mcgroups_joins_total" L "} 10\n"
		   "# HELP ib_mcgroups_leaves_total Holds dropped on the port, for any reason.\n"
		   "# TYPE ib_mcgroups_leaves_total counter\n"
		   "ib_mcgroups_leaves_total" L "} 6\n"
		   "# HELP ib_mcgroups_join_errors_total Joins the port's backend failed (not retried).\n"
		   "# TYPE ib_mcgroups_join_errors_total counter\n"
		   "ib_mcgroups_join_errors_total" L "} 1\n");
#undef L
}

static struct metrics_snapshot both(struct ibmcg_port *ports,
				    struct ibmcg_group *groups, size_t ngroups)
{
	/* The library hands out arrays of pointers. */
	static const struct ibmcg_group *gp[16];
	static const struct ibmcg_port *pp[2];
	struct metrics_snapshot s = {
		.up = true, .module_version = "0.2.0", .protocol_version = 2,
		.library_version = "0.2.0", .ports = pp, .nports = 2,
		.groups = gp, .ngroups = ngroups,
	};
	size_t i;

	ports[0] = roce;
	ports[1] = ib;
	pp[0] = &ports[0];
	pp[1] = &ports[1];
	for (i = 0; i < ngroups && i < ARRAY_SIZE(gp); i++)
		gp[i] = &groups[i];
	return s;
}

/* The re-join statistics: InfiniBand ports only; ms become seconds. */
static void ib_only(void)
{
	struct ibmcg_port ports[2];
	struct metrics_snapshot s = both(ports, NULL, 0);

#define IBL "{device=\"mlx5_0\",port=\"2\",link_layer=\"infiniband\"}"
	EXPECT(format(&s) == 0);
	EXPECT(strstr(out, "ib_mcgroups_sm_reregisters_total" IBL " 3\n"));
	EXPECT(strstr(out, "ib_mcgroups_group_rejoins_total" IBL " 5\n"));
	EXPECT(strstr(out, "ib_mcgroups_rejoin_failures_total" IBL " 18446744073709551615\n"));
	EXPECT(strstr(out, "ib_mcgroups_sa_timeouts_total" IBL " 4\n"));
	EXPECT(strstr(out, "ib_mcgroups_mlid_changes_total" IBL " 6\n"));
	EXPECT(strstr(out, "ib_mcgroups_rejoin_waves_total" IBL " 3\n"));
	EXPECT(strstr(out, "ib_mcgroups_last_rejoin_wave_seconds" IBL " 1.234\n"));
	EXPECT(strstr(out, "ib_mcgroups_lid" IBL " 7\n"));
	EXPECT(strstr(out, "ib_mcgroups_sm_lid" IBL " 1\n"));
	EXPECT(strstr(out, "ib_mcgroups_last_sm_lid" IBL " 2\n"));
	EXPECT(strstr(out, "ib_mcgroups_rejoin_pending" IBL " 0\n"));
	EXPECT(strstr(out, "# TYPE ib_mcgroups_sm_reregisters_total counter\n"));
	EXPECT(strstr(out, "# TYPE ib_mcgroups_last_rejoin_wave_seconds gauge\n"));
	EXPECT(!strstr(out, "ib_mcgroups_sm_reregisters_total{device=\"rxe0\""));
	EXPECT(!strstr(out, "ib_mcgroups_lid{device=\"rxe0\""));
	EXPECT(strstr(out, "ib_mcgroups_port_info" "{device=\"mlx5_0\",port=\"2\",link_layer=\"infiniband\",backend=\"ib-sa\",netdev=\"\"} 1\n"));
#undef IBL
}

/* Both ports' series of a metric follow its one HELP and TYPE. */
static void one_family_each(void)
{
	struct ibmcg_port ports[2];
	struct metrics_snapshot s = both(ports, NULL, 0);
	const char *a, *b, *c;

	EXPECT(format(&s) == 0);
	a = strstr(out, "# TYPE ib_mcgroups_joins_total counter\n");
	b = strstr(out, "ib_mcgroups_joins_total{device=\"rxe0\"");
	c = strstr(out, "ib_mcgroups_joins_total{device=\"mlx5_0\"");
	EXPECT(a && b && c && a < b && b < c);
	EXPECT(a && !strstr(a + 1, "# TYPE ib_mcgroups_joins_total"));
	c = strstr(out, "# HELP ib_mcgroups_leaves_total");
	EXPECT(b && c && b < c);
	EXPECT(strstr(out, "ib_mcgroups_linger_hits_total{device=\"rxe0\",port=\"1\",link_layer=\"ethernet\"} 2\n"));
	EXPECT(strstr(out, "ib_mcgroups_max_owner_holds{device=\"rxe0\",port=\"1\",link_layer=\"ethernet\"} 100\n"));
	EXPECT(strstr(out, "ib_mcgroups_max_groups{device=\"rxe0\",port=\"1\",link_layer=\"ethernet\"} 0\n"));
	EXPECT(strstr(out, "ib_mcgroups_mcast_total_qp_attach_max{device=\"mlx5_0\",port=\"2\",link_layer=\"infiniband\"} 503316480\n"));
}

/* Groups counted per port and state; an unknown state as "unknown". */
static void groups_by_state(void)
{
	struct ibmcg_group g[] = {
		group("rxe0", 1, IB_MCG_STATE_JOINED),
		group("rxe0", 1, IB_MCG_STATE_JOINED),
		group("rxe0", 1, IB_MCG_STATE_LINGERING),
		group("mlx5_0", 2, IB_MCG_STATE_RETRY_WAIT),
		group("mlx5_0", 2, 42),
		group("mlx5_0", 1, IB_MCG_STATE_JOINED),	/* no such port */
	};
	struct ibmcg_port ports[2];
	struct metrics_snapshot s = both(ports, g, ARRAY_SIZE(g));

#define R "ib_mcgroups_groups{device=\"rxe0\",port=\"1\",link_layer=\"ethernet\",state="
#define I "ib_mcgroups_groups{device=\"mlx5_0\",port=\"2\",link_layer=\"infiniband\",state="
	EXPECT(format(&s) == 0);
	EXPECT(strstr(out, R "\"joined\"} 2\n"));
	EXPECT(strstr(out, R "\"lingering\"} 1\n"));
	EXPECT(strstr(out, R "\"joining\"} 0\n"));
	EXPECT(!strstr(out, R "\"unknown\""));
	EXPECT(strstr(out, I "\"retry-wait\"} 1\n"));
	EXPECT(strstr(out, I "\"joined\"} 0\n"));
	EXPECT(strstr(out, I "\"unknown\"} 1\n"));
	EXPECT(!strstr(out, "state=\"released\""));
#undef R
#undef I
}

/* Label values escape backslash, double quote and newline. */
static void escaping(void)
{
	struct ibmcg_port p = roce;
	const struct ibmcg_port *pp[] = { &p };
	struct metrics_snapshot s = {
		.up = true, .module_version = "1\"2\\3\n4", .ports = pp,
		.nports = 1,
	};

	snprintf(p.dev_name, sizeof(p.dev_name), "a\"b\\c");
	EXPECT(format(&s) == 0);
	EXPECT(strstr(out, "module_version=\"1\\\"2\\\\3\\n4\""));
	EXPECT(strstr(out, "ib_mcgroups_holders{device=\"a\\\"b\\\\c\",port=\"1\""));
	EXPECT(strstr(out, "library_version=\"\"} 1\n"));
}

/* No ports (module loaded, no RDMA device): up, info and nothing else. */
static void no_ports(void)
{
	struct metrics_snapshot s = { .up = true, .module_version = "0.2.0",
				      .protocol_version = 2 };

	EXPECT(format(&s) == 0);
	EXPECT(strstr(out, "ib_mcgroups_up 1\n"));
	EXPECT(!strstr(out, "ib_mcgroups_groups"));
	EXPECT(!strstr(out, "ib_mcgroups_joins_total"));
}

static char dir[] = "/tmp/test_metrics.XXXXXX";

static int entries(void)
{
	struct dirent *e;
	int n = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static char *slurp(const char *path)
{
	static char buf[256];
	size_t n;
	FILE *fp;

	fp = fopen(path, "r");
	if (!fp)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

/* --textfile: the file replaced whole, 0644, no temporary file left. */
static void textfile(void)
{
	char path[sizeof(dir) + 32];
	const char *what = NULL;
	struct stat st;
	mode_t old;

	snprintf(path, sizeof(path), "%s/ib_mcgroups.prom", dir);
	old = umask(077);
	EXPECT(metrics_write_textfile(dir, "a 1\n", 4, &what) == 0);
	EXPECT(metrics_write_textfile(dir, "b 2\n", 4, &what) == 0);
	umask(old);
	EXPECT_STR(slurp(path), "b 2\n");
	EXPECT(stat(path, &st) == 0 && (st.st_mode & 07777) == 0644);
	EXPECT(entries() == 1);
}

static void textfile_fails(void)
{
	char sub[sizeof(dir) + 32];
	const char *what = NULL;

	snprintf(sub, sizeof(sub), "%s/missing", dir);
	EXPECT(metrics_write_textfile(sub, "a 1\n", 4, &what) == -ENOENT);
	EXPECT_STR(what, "cannot create a temporary file in");
	/* A directory where the file should be: the rename fails. */
	snprintf(sub, sizeof(sub), "%s/ib_mcgroups.prom", dir);
	unlink(sub);
	EXPECT(mkdir(sub, 0755) == 0);
	EXPECT(metrics_write_textfile(dir, "a 1\n", 4, &what) == -EISDIR);
	EXPECT_STR(what, "cannot rename the temporary file in");
	EXPECT(entries() == 1);	/* the directory; no temporary file */
	rmdir(sub);
}

/* promtool check metrics on every metric, both ports, every state. */
static void promtool(void)
{
	struct ibmcg_group g[] = {
		group("rxe0", 1, IB_MCG_STATE_JOINED),
		group("mlx5_0", 2, 42),
	};
	struct ibmcg_port ports[2];
	struct metrics_snapshot s = both(ports, g, ARRAY_SIZE(g));
	FILE *fp;
	int st;

	if (system("command -v promtool >/dev/null 2>&1")) {
		ktap_skip("promtool not installed (apt-get install prometheus)");
		return;
	}
	fp = popen("promtool check metrics", "w");
	EXPECT(fp != NULL);
	if (!fp)
		return;
	EXPECT(metrics_format(fp, &s) == 0);
	st = pclose(fp);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(down_exact),
	KTAP_CASE(roce_exact),
	KTAP_CASE(ib_only),
	KTAP_CASE(one_family_each),
	KTAP_CASE(groups_by_state),
	KTAP_CASE(escaping),
	KTAP_CASE(no_ports),
	KTAP_CASE(textfile),
	KTAP_CASE(textfile_fails),
	KTAP_CASE(promtool),
};

/* --print: an exposition with every metric, for tests/test_contrib.sh. */
static int print_all(void)
{
	struct ibmcg_group g[] = {
		group("rxe0", 1, IB_MCG_STATE_JOINED),
		group("mlx5_0", 2, IB_MCG_STATE_RETRY_WAIT),
	};
	struct ibmcg_port ports[2];
	struct metrics_snapshot s = both(ports, g, ARRAY_SIZE(g));

	return metrics_format(stdout, &s) ? 1 : 0;
}

int main(int argc, char **argv)
{
	int ret;

	if (argc == 2 && !strcmp(argv[1], "--print"))
		return print_all();

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	ret = ktap_run(cases, ARRAY_SIZE(cases));
	rmdir(dir);
	free(out);
	return ret;
}
