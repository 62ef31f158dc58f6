// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of the configuration file: parsing and its error messages,
 * which ports a target covers, and the plan of "mcctl apply" against
 * made-up kernel state (ports and groups as the dumps would return them).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

/* Builds groups itself: the library's whole structures. */
#include "ibmcg_priv.h"
#include "mcctl_conf.h"
#include "ktap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static char *errbuf;
static size_t errlen;

/* Parse text as "test.conf"; stderr is captured into errbuf. */
static int parse(const char *text, struct conf *c)
{
	FILE *saved = stderr, *fp;
	int ret;

	free(errbuf);
	errbuf = NULL;
	stderr = open_memstream(&errbuf, &errlen);
	fp = fmemopen((void *)text, strlen(text), "r");
	ret = conf_parse(fp, "test.conf", c);
	fclose(fp);
	fclose(stderr);
	stderr = saved;
	if (errlen && errbuf[errlen - 1] == '\n')
		errbuf[--errlen] = '\0';
	return ret;
}

static void mgid_of(const char *s, uint8_t *mgid)
{
	if (ibmcg_mgid_parse(s, mgid, NULL))
		abort();
}

static void parse_all_forms(void)
{
	static const char text[] =
		"# declared groups\n"
		"\n"
		"group mgmt   mlx5_0/1 ff12:401b:ffff::1 create qkey 0x1b mtu 2048 linger 30s\n"
		"  group tele all-ib ff15:401b::10 state sendonly  # trailing\n"
		"pool  jobs0  all-roce 239.1.1.1 linger 5m\n"
		"group dev    mlx5_1 ff12:401b::2 owner admin\n"
		"group every  all    ff12:401b::3 \\\n"
		"      create \\\n"
		"      pkey 0x8001\n"
		"owner boot\n";
	const struct conf_entry *e;
	uint8_t mgid[16];
	struct conf c;

	EXPECT(parse(text, &c) == 0);
	EXPECT_STR(errbuf, "");
	EXPECT(c.n == 5);
	EXPECT_STR(c.owner, "boot");

	e = ibmcg__conf_find(&c, "mgmt");
	EXPECT(e && e->kind == CONF_GROUP && e->target == TARGET_PORT);
	EXPECT(e && !strcmp(e->dev, "mlx5_0") && e->port == 1 &&
	       e->line == 3);
	mgid_of("ff12:401b:ffff::1", mgid);
	EXPECT(e && !memcmp(e->join.mgid, mgid, 16));
	EXPECT(e && e->join.args.create && e->join.args.set_qkey &&
	       e->join.args.qkey == 0x1b && e->join.args.set_mtu &&
	       e->join.args.mtu == 4 && e->join.args.linger_ms == 30000);
	EXPECT(e && !e->join.owner_set);
	EXPECT_STR(e ? ibmcg__conf_entry_owner(&c, e) : NULL, "boot");

	e = ibmcg__conf_find(&c, "tele");
	EXPECT(e && e->target == TARGET_ALL_IB &&
	       e->join.args.join_state == IB_MCG_JOIN_SENDONLY_NON_MEMBER);
	e = ibmcg__conf_find(&c, "jobs0");
	EXPECT(e && e->kind == CONF_POOL && e->target == TARGET_ALL_ROCE &&
	       e->join.args.linger_ms == 300000);
	e = ibmcg__conf_find(&c, "dev");
	EXPECT(e && e->target == TARGET_DEV && !strcmp(e->dev, "mlx5_1") &&
	       e->port == 0);
	EXPECT_STR(e ? ibmcg__conf_entry_owner(&c, e) : NULL, "admin");
	e = ibmcg__conf_find(&c, "every");
	EXPECT(e && e->target == TARGET_ALL && e->line == 7 &&
	       e->join.args.set_pkey && e->join.args.pkey == 0x8001);
	EXPECT(!ibmcg__conf_find(&c, "nope"));
	ibmcg__conf_free(&c);

	EXPECT(parse("# nothing\n\n", &c) == 0);
	EXPECT(c.n == 0);
	EXPECT_STR(c.owner, IBMCG__CONF_OWNER);
	ibmcg__conf_free(&c);
}

static void parse_errors(void)
{
	static const struct {
		const char *text;
		const char *msg;
	} cases[] = {
		{ "grup a rxe0/1 239.1.1.1\n",
		  "mcctl: test.conf:1: unknown keyword 'grup': expected owner, group or pool" },
		{ "\ngroup g1 rxe0/1\n",
		  "mcctl: test.conf:2: expected 'group NAME TARGET GROUP [ options ]'" },
		{ "group g1 rxe0/1 239.1.1.1\npool g1 rxe0/1 239.1.1.2\n",
		  "mcctl: test.conf:2: 'g1' is already declared on line 1" },
		{ "group -a rxe0/1 239.1.1.1\n",
		  "mcctl: test.conf:1: name '-a' must start with a letter or digit" },
		{ "group a/b rxe0/1 239.1.1.1\n",
		  "mcctl: test.conf:1: name 'a/b': only letters, digits and _ . : + - are allowed" },
		{ "group g1 rxe0/x 239.1.1.1\n",
		  "mcctl: test.conf:1: invalid target 'rxe0/x': missing or malformed port number; expected DEV/PORT, DEV, all, all-ib or all-roce" },
		{ "group g1 rxe0/1 10.0.0.1\n",
		  "mcctl: test.conf:1: invalid group '10.0.0.1': not an IPv4 multicast group (224.0.0.0/4)" },
		{ "group g1 rxe0/1 :: create\n",
		  "mcctl: test.conf:1: an SA-assigned MGID (0) cannot be declared: every apply would create another group" },
		{ "group g1 rxe0/1 0\n",
		  "mcctl: test.conf:1: an SA-assigned MGID (0) cannot be declared: every apply would create another group" },
		{ "group g1 rxe0/1 239.1.1.1 bound\n",
		  "mcctl: test.conf:1: 'bound' ends a hold with the process that took it; declared holds outlive mcctl" },
		{ "pool p1 all 239.1.1.1 owner x\n",
		  "mcctl: test.conf:1: a pool has no owner: jobs join it by name with their own ('mcctl join p1 owner job:42')" },
		{ "owner a\nowner b\n",
		  "mcctl: test.conf:2: a second owner line: the file has one owner (a group line may name its own)" },
		{ "owner\n", "mcctl: test.conf:1: expected 'owner NAME'" },
		{ "group g1 all-ib 239.1.1.1\n",
		  "mcctl: test.conf:1: an IPv4 group is a RoCE group: all-ib covers no RoCE port" },
		{ "group g1 all-roce ff12::1 pkey 0x8001\n",
		  "mcctl: test.conf:1: pkey is an InfiniBand create parameter: all-roce covers no InfiniBand port" },
		{ "group g1 rxe0/1 239.1.1.1 qkey\n",
		  "mcctl: test.conf:1: missing value for 'qkey'" },
		{ "group g1 rxe0/1 239.1.1.1 colour red\n",
		  "mcctl: test.conf:1: unknown parameter 'colour'" },
		{ "group g1 rxe0/1 239.1.1.1 pkey 5\n",
		  "mcctl: test.conf:1: pkey is an InfiniBand create parameter, and an IPv4 group is a RoCE group" },
		{ "\n\ngroup g1 rxe0/1 \\\n239.1.1.1 mtu 3000\n",
		  "mcctl: test.conf:3: invalid mtu '3000': expected 256, 512, 1024, 2048 or 4096 (bytes)" },
		{ "group g1 rxe0/1 239.1.1.1 \\\n",
		  "mcctl: test.conf:1: the last line ends with a backslash" },
		{ "pool o all 239.1.1.1\n",
		  "mcctl: test.conf:1: name 'o' is an abbreviation of the keyword 'owner': mcctl join and leave would take it for the keyword" },
		{ "group help all 239.1.1.1\n",
		  "mcctl: test.conf:1: name 'help' is the keyword 'help': mcctl join and leave would take it for the keyword" },
	};
	struct conf c;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (parse(cases[i].text, &c) != EXIT_USAGE) {
			ktap_case_ok = false;
			printf("# case %zu accepted\n", i);
			ibmcg__conf_free(&c);
			continue;
		}
		EXPECT(c.n == 0 && !c.entries);
		EXPECT_STR(errbuf, cases[i].msg);
	}
	/* Messages outside the file carry no location afterwards. */
	{
		char bogus[] = "bogus", *argv[] = { bogus, NULL };
		FILE *saved = stderr;
		struct join_cmd j = { 0 };

		free(errbuf);
		errbuf = NULL;
		stderr = open_memstream(&errbuf, &errlen);
		EXPECT(parse_join_opts(1, argv, &j) == EXIT_USAGE);
		fclose(stderr);
		stderr = saved;
		EXPECT_STR(errbuf,
			   "mcctl: unknown parameter 'bogus'; try \"mcctl help\"\n");
	}
}

#define PORT(d, n, ll, be) \
	{ .dev_name = d, .port = n, .link_layer = IB_MCG_LINK_LAYER_##ll, \
	  .backend = IB_MCG_BACKEND_##be }

static const struct ibmcg_port ports[] = {
	PORT("mlx5_0", 1, INFINIBAND, IB_SA),
	PORT("mlx5_0", 2, INFINIBAND, IB_SA),
	PORT("rxe0", 1, ETHERNET, ROCE),
	PORT("odd0", 1, UNSPEC, NONE),
};

static void covers(void)
{
	static const struct {
		const char *line;
		const char *covered;	/* one letter per port: y/n */
	} cases[] = {
		{ "group g1 mlx5_0/2 ff12::1\n", "nynn" },
		{ "group g1 mlx5_0 ff12::1\n", "yynn" },
		{ "group g1 odd0/1 ff12::1\n", "nnny" },
		{ "group g1 odd0 ff12::1\n", "nnnn" },
		{ "group g1 all ff12::1\n", "yyyn" },
		{ "group g1 all ff0e::1\n", "yyyn" },
		{ "group g1 all 239.1.1.1\n", "nnyn" },
		{ "group g1 mlx5_0/1 239.1.1.1\n", "ynnn" },
		{ "group g1 all-ib ff12::1\n", "yynn" },
		{ "group g1 all-roce ff12::1\n", "nnyn" },
		/* InfiniBand create parameters: InfiniBand ports only */
		{ "group g1 all ff12::1 mtu 2048\n", "yynn" },
		{ "group g1 all ff12::1 create qkey 5\n", "yyyn" },
		{ "group g1 rxe0/1 ff12::1 sl 1\n", "nnyn" },
	};
	struct conf c;
	size_t i, p;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (parse(cases[i].line, &c) || c.n != 1) {
			ktap_case_ok = false;
			printf("# case %zu: %s\n", i, errbuf);
			continue;
		}
		for (p = 0; p < ARRAY_SIZE(ports); p++)
			if (ibmcg__conf_covers(&c.entries[0], &ports[p]) !=
			    (cases[i].covered[p] == 'y')) {
				ktap_case_ok = false;
				printf("# case %zu, port %zu\n", i, p);
			}
		ibmcg__conf_free(&c);
	}
}

/* A made-up group as a dump returns it, with up to 3 holders. */
static struct ibmcg_group group(const char *dev, uint32_t port,
				const char *mgid, uint8_t state,
				uint32_t linger_ms, size_t nholders,
				struct ibmcg_holder *holders)
{
	struct ibmcg_group g = {
		.port = port, .state = state, .linger_ms = linger_ms,
		.nholders = nholders, .holders = holders,
	};

	snprintf(g.dev_name, sizeof(g.dev_name), "%s", dev);
	mgid_of(mgid, g.mgid);
	return g;
}

#define HOLDER(o, js)	{ .owner = o, .join_state = IB_MCG_JOIN_##js }

/* "op name dev/port group owner state", one per action. */
static void describe(const struct plan_action *a, char *buf, size_t len)
{
	char g[IBMCG_MGID_STRLEN], js[IBMCG_JOIN_STATE_STRLEN];

	snprintf(buf, len, "%s %s %s/%u %s %s %s", ibmcg__plan_op_name(a->op),
		 a->entry ? a->entry->name : "-", a->dev, a->port,
		 ibmcg_mgid_format(a->mgid, g, sizeof(g)), a->owner,
		 ibmcg_join_state_format(a->join_state, js, sizeof(js)));
}

/* The lists of pointers a dump returns, of ports[] and gs[0..ng). */
static struct ibmcg_port *const *port_list(void)
{
	static struct ibmcg_port *pl[ARRAY_SIZE(ports) + 1];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ports); i++)
		pl[i] = (struct ibmcg_port *)&ports[i];
	return pl;
}

static struct ibmcg_group *const *group_list(const struct ibmcg_group *gs,
					     size_t ng)
{
	static struct ibmcg_group *gl[16];
	size_t i;

	for (i = 0; i < ng && i < ARRAY_SIZE(gl) - 1; i++)
		gl[i] = (struct ibmcg_group *)&gs[i];
	gl[i] = NULL;
	return gl;
}

static void expect_plan(const struct conf *c, const struct ibmcg_group *gs,
			size_t ng, const char *const *want, size_t nwant)
{
	struct plan_action *acts;
	char buf[256];
	size_t i, n;

	if (ibmcg__conf_plan(c, port_list(), ARRAY_SIZE(ports), group_list(gs, ng),
		      ng, &acts, &n)) {
		ktap_case_ok = false;
		printf("# conf_plan failed\n");
		return;
	}
	if (n != nwant) {
		ktap_case_ok = false;
		printf("# %zu actions, want %zu\n", n, nwant);
	}
	for (i = 0; i < n; i++) {
		describe(&acts[i], buf, sizeof(buf));
		if (i >= nwant || strcmp(buf, want[i])) {
			ktap_case_ok = false;
			printf("# action %zu: got \"%s\", want \"%s\"\n", i,
			       buf, i < nwant ? want[i] : "(none)");
		}
		/* What apply passes to ibmcg_join() names the owner. */
		if (acts[i].op == PLAN_JOIN || acts[i].op == PLAN_UPDATE)
			EXPECT(acts[i].args.owner == acts[i].owner &&
			       acts[i].args.join_state == acts[i].join_state);
	}
	free(acts);
}

static const char plan_conf[] =
	"group mgmt mlx5_0/1 ff12:401b::1 create linger 10s\n"
	"group tele all ff12:401b::2 state sendonly\n"
	"group v4   all 239.1.1.1 owner admin\n"
	"group gone mlx9 ff12:401b::3\n"
	"pool  jobs all ff12:401b::100\n";

static void plan_from_nothing(void)
{
	static const char *const want[] = {
		"join mgmt mlx5_0/1 ff12:401b::1 config full",
		"join tele mlx5_0/1 ff12:401b::2 config sendonly",
		"join tele mlx5_0/2 ff12:401b::2 config sendonly",
		"join tele rxe0/1 ff12:401b::2 config sendonly",
		"join v4 rxe0/1 239.1.1.1 admin full",
		"skip gone mlx9/0 ff12:401b::3 config full",
	};
	struct conf c;

	EXPECT(parse(plan_conf, &c) == 0);
	expect_plan(&c, NULL, 0, want, ARRAY_SIZE(want));
	ibmcg__conf_free(&c);
}

static void plan_keeps_updates_leaves(void)
{
	struct ibmcg_holder h_mgmt[] = {
		HOLDER("config", FULL), HOLDER("job:7", FULL),
	};
	struct ibmcg_holder h_tele[] = { HOLDER("config", SENDONLY_NON_MEMBER) };
	/* tele's hold on rxe0 is full where sendonly is declared */
	struct ibmcg_holder h_tele_rxe[] = { HOLDER("config", FULL) };
	struct ibmcg_holder h_v4[] = { HOLDER("admin", FULL) };
	/* held by the file's owner, declared nowhere */
	struct ibmcg_holder h_old[] = {
		HOLDER("config", FULL), HOLDER("other", FULL),
	};
	/* another owner's group: not apply's business */
	struct ibmcg_holder h_job[] = { HOLDER("job:7", FULL) };
	struct ibmcg_holder h_pool[] = { HOLDER("job:9", FULL) };
	struct ibmcg_group gs[] = {
		group("mlx5_0", 1, "ff12:401b::1", IB_MCG_STATE_JOINED,
		      5000, 2, h_mgmt),
		group("mlx5_0", 1, "ff12:401b::2", IB_MCG_STATE_JOINED, 0,
		      1, h_tele),
		group("mlx5_0", 2, "ff12:401b::2", IB_MCG_STATE_RETRY_WAIT,
		      0, 1, h_tele),
		group("rxe0", 1, "ff12:401b::2", IB_MCG_STATE_JOINED, 0, 1,
		      h_tele_rxe),
		group("rxe0", 1, "239.1.1.1", IB_MCG_STATE_JOINED, 0, 1,
		      h_v4),
		group("mlx5_0", 2, "ff12:401b::9", IB_MCG_STATE_JOINED, 0, 2,
		      h_old),
		group("mlx5_0", 2, "ff12:401b::10", IB_MCG_STATE_JOINED, 0, 1,
		      h_job),
		group("rxe0", 1, "ff12:401b::100", IB_MCG_STATE_JOINED, 0, 1,
		      h_pool),
	};
	static const char *const want[] = {
		"update mgmt mlx5_0/1 ff12:401b::1 config full",
		"keep tele mlx5_0/1 ff12:401b::2 config sendonly",
		"keep tele mlx5_0/2 ff12:401b::2 config sendonly",
		"join tele rxe0/1 ff12:401b::2 config sendonly",
		"keep v4 rxe0/1 239.1.1.1 admin full",
		"skip gone mlx9/0 ff12:401b::3 config full",
		"leave - rxe0/1 ff12:401b::2 config full",
		"leave - mlx5_0/2 ff12:401b::9 config full",
	};
	struct plan_action *acts;
	struct conf c;
	size_t n;

	EXPECT(parse(plan_conf, &c) == 0);
	expect_plan(&c, gs, ARRAY_SIZE(gs), want, ARRAY_SIZE(want));
	EXPECT(ibmcg__conf_plan(&c, port_list(), ARRAY_SIZE(ports),
			 group_list(gs, ARRAY_SIZE(gs)), ARRAY_SIZE(gs),
			 &acts, &n) == 0);
	EXPECT(n > 0 && acts[0].op == PLAN_UPDATE && acts[0].linger_was == 5000 &&
	       acts[0].args.linger_ms == 10000 && acts[0].args.create);
	free(acts);
	ibmcg__conf_free(&c);
}

static void plan_lingering_and_duplicates(void)
{
	struct ibmcg_holder none[1];
	struct ibmcg_group gs[] = {
		/* lingering: held by nobody, so the hold must be taken */
		group("mlx5_0", 1, "ff12:401b::1", IB_MCG_STATE_LINGERING,
		      10000, 0, none),
	};
	static const char text[] =
		"group g1 mlx5_0/1 ff12:401b::1\n"
		"group g2 mlx5_0 ff12:401b::1\n";
	static const char *const want[] = {
		"join g1 mlx5_0/1 ff12:401b::1 config full",
		"join g2 mlx5_0/2 ff12:401b::1 config full",
	};
	struct conf c;

	EXPECT(parse(text, &c) == 0);
	expect_plan(&c, gs, ARRAY_SIZE(gs), want, ARRAY_SIZE(want));
	ibmcg__conf_free(&c);
}

static void plan_empty_file_releases_own_holds(void)
{
	struct ibmcg_holder hs[] = {
		HOLDER("config", FULL), HOLDER("config", SENDONLY_NON_MEMBER),
		HOLDER("admin", FULL),
	};
	struct ibmcg_group gs[] = {
		group("rxe0", 1, "239.1.1.1", IB_MCG_STATE_JOINED, 0, 3, hs),
	};
	static const char *const want[] = {
		"leave - rxe0/1 239.1.1.1 config full",
		"leave - rxe0/1 239.1.1.1 config sendonly",
	};
	struct conf c;

	EXPECT(parse("# nothing declared\n", &c) == 0);
	expect_plan(&c, gs, ARRAY_SIZE(gs), want, ARRAY_SIZE(want));
	ibmcg__conf_free(&c);
}

/* The installed example, with its commented-out examples taken in. */
static void example_file(void)
{
	char *text = NULL, line[512];
	size_t len = 0;
	struct conf c;
	FILE *in, *out;

	EXPECT(conf_load("ib_mcgroups.conf", &c) == 0);
	EXPECT(c.n == 0);
	EXPECT_STR(c.owner, "config");
	ibmcg__conf_free(&c);

	in = fopen("ib_mcgroups.conf", "r");
	out = open_memstream(&text, &len);
	while (in && fgets(line, sizeof(line), in))
		fputs(!strncmp(line, "# group ", 8) || !strncmp(line, "# pool ", 7) ?
		      line + 2 : line, out);
	if (in)
		fclose(in);
	fclose(out);
	EXPECT(parse(text, &c) == 0);
	EXPECT_STR(errbuf, "");
	EXPECT(c.n == 5);
	ibmcg__conf_free(&c);
	free(text);
}

/* A file with text in a fresh temporary path; returns the path. */
static char *tmp_conf(const char *text)
{
	static char path[64];
	FILE *fp;
	int fd;

	snprintf(path, sizeof(path), "/tmp/test_conf.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	fp = fdopen(fd, "w");
	fputs(text, fp);
	fclose(fp);
	return path;
}

/* The public lookup of libibmcg: the same parser, messages returned. */
static void lib_lookup(void)
{
	const char *text =
		"owner site\n"
		"pool coll0 all-ib ff12:401b::c0 mtu 2048 qkey 0x1234 \\\n"
		"  linger 10s\n"
		"group mine mlx5_0/2 ff12:401b::9 owner admin state sendonly\n";
	struct ibmcg_join_args a = IBMCG_JOIN_ARGS_INIT, old;
	const struct ibmcg_conf_group *cg;
	struct ibmcg_conf *c = NULL;
	char err[256], *path, mgid[IBMCG_MGID_STRLEN];

	path = tmp_conf(text);
	EXPECT(path != NULL);
	if (!path)
		return;
	EXPECT(ibmcg_conf_open(path, &c, err, sizeof(err)) == 0);
	unlink(path);
	EXPECT_STR(err, "");
	if (!c)
		return;
	EXPECT_STR(ibmcg_conf_owner(c), "site");
	cg = ibmcg_conf_group(c, "coll0");
	EXPECT(cg && cg->pool && cg->line == 2 && !cg->owner &&
	       !cg->dev[0] && cg->port == 0);
	if (cg) {
		EXPECT_STR(cg->target, "all-ib");
		EXPECT_STR(ibmcg_mgid_format(cg->mgid, mgid, sizeof(mgid)),
			   "ff12:401b::c0");
		/* InfiniBand ports only, like mcctl join coll0 */
		EXPECT(ibmcg_conf_covers(cg, &ports[0]) &&
		       ibmcg_conf_covers(cg, &ports[1]) &&
		       !ibmcg_conf_covers(cg, &ports[2]));
		a.owner = "job:1";
		EXPECT(ibmcg_conf_join_args(cg, &a) == 0);
		EXPECT(a.size == sizeof(a) && !a.owner && a.set_mtu &&
		       a.mtu == 4 && a.set_qkey && a.qkey == 0x1234 &&
		       a.set_linger && a.linger_ms == 10000);
		/* an application of an older, smaller struct: kept whole */
		memset(&old, 0x5a, sizeof(old));
		old.size = offsetof(struct ibmcg_join_args, qkey);
		EXPECT(ibmcg_conf_join_args(cg, &old) == 0);
		EXPECT(old.set_qkey && old.size ==
		       offsetof(struct ibmcg_join_args, qkey) &&
		       old.qkey == 0x5a5a5a5a);
	}
	cg = ibmcg_conf_group(c, "mine");
	EXPECT(cg && !cg->pool && cg->port == 2 && cg->line == 4);
	if (cg) {
		EXPECT_STR(cg->dev, "mlx5_0");
		EXPECT_STR(cg->owner, "admin");
		EXPECT(ibmcg_conf_covers(cg, &ports[1]) &&
		       !ibmcg_conf_covers(cg, &ports[0]));
		EXPECT(ibmcg_conf_join_args(cg, &a) == 0);
		EXPECT(a.join_state == IB_MCG_JOIN_SENDONLY_NON_MEMBER);
	}
	EXPECT(ibmcg_conf_group_at(c, 1) == cg && !ibmcg_conf_group_at(c, 2));
	EXPECT(!ibmcg_conf_group(c, "none"));
	a.size = 0;
	EXPECT(ibmcg_conf_join_args(cg, &a) == -EINVAL);
	ibmcg_conf_close(c);
}

static void lib_errors(void)
{
	struct ibmcg_conf *c = (struct ibmcg_conf *)1;
	char err[256], *path;

	EXPECT(ibmcg_conf_open("/nonexistent/ib_mcgroups.conf", &c, err,
			       sizeof(err)) == -ENOENT);
	EXPECT(c == NULL);
	EXPECT_STR(err, "cannot read /nonexistent/ib_mcgroups.conf: No such file or directory");
	path = tmp_conf("pool p1 all ff12::1\npool p2 all ff12::2 mtu 3000\n");
	EXPECT(path != NULL);
	if (!path)
		return;
	EXPECT(ibmcg_conf_open(path, &c, err, sizeof(err)) == -EINVAL);
	/* "PATH:LINE: why", on no stream: the caller's buffer */
	EXPECT(!strncmp(err, path, strlen(path)) &&
	       strstr(err, ":2: invalid mtu '3000'"));
	ktap_print_str("err", err);
	unlink(path);
	EXPECT(c == NULL);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(example_file),
	KTAP_CASE(parse_all_forms),
	KTAP_CASE(parse_errors),
	KTAP_CASE(covers),
	KTAP_CASE(plan_from_nothing),
	KTAP_CASE(plan_keeps_updates_leaves),
	KTAP_CASE(plan_lingering_and_duplicates),
	KTAP_CASE(plan_empty_file_releases_own_holds),
	KTAP_CASE(lib_lookup),
	KTAP_CASE(lib_errors),
};

KTAP_MAIN(cases)
