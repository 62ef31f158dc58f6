// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of mcctl's command line parsing: linger times, join and both
 * forms of leave. Usage messages are captured from stderr.
 */
#include <errno.h>
#include <stdlib.h>

#include "ibmcg_priv.h"
#include "mcctl_args.h"
#include "ktap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define ARGV(...)	((char *[]){ __VA_ARGS__, NULL })
#define ARGC(...)	((int)ARRAY_SIZE(((char *[]){ __VA_ARGS__ })))

/* What a parser wrote to stderr, with the trailing newline dropped. */
static char *errbuf;
static size_t errlen;
static FILE *saved_stderr;

static void err_start(void)
{
	free(errbuf);
	errbuf = NULL;
	saved_stderr = stderr;
	stderr = open_memstream(&errbuf, &errlen);
}

static const char *err_end(void)
{
	fclose(stderr);
	stderr = saved_stderr;
	if (errlen && errbuf[errlen - 1] == '\n')
		errbuf[--errlen] = '\0';
	return errbuf;
}

typedef int (*parse_fn)(int argc, char **argv, void *out);

static int leave_fn(int argc, char **argv, void *out)
{
	return parse_leave(argc, argv, out);
}

static int join_fn(int argc, char **argv, void *out)
{
	return parse_join(argc, argv, out);
}

/* Run a parser with stderr captured; the message is in errbuf. */
static int run(parse_fn fn, int argc, char **argv, void *out)
{
	int ret;

	err_start();
	ret = fn(argc, argv, out);
	err_end();
	return ret;
}

static void linger_values(void)
{
	static const struct {
		const char *in;
		uint32_t ms;
	} cases[] = {
		{ "0", 0 }, { "1", 1 }, { "1500", 1500 }, { "007", 7 },
		{ "0ms", 0 }, { "500ms", 500 }, { "0s", 0 }, { "30s", 30000 },
		{ "2m", 120000 }, { "0m", 0 },
		{ "86400000", IB_MCG_LINGER_MAX_MS },
		{ "86400000ms", IB_MCG_LINGER_MAX_MS },
		{ "86400s", IB_MCG_LINGER_MAX_MS },
		{ "1440m", IB_MCG_LINGER_MAX_MS },
	};
	const char *why;
	uint32_t ms;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ms = 12345;
		why = NULL;
		if (ibmcg__parse_linger(cases[i].in, &ms, &why) || ms != cases[i].ms) {
			ktap_case_ok = false;
			printf("# \"%s\": got %u, want %u\n", cases[i].in, ms,
			       cases[i].ms);
		}
		EXPECT(why == NULL);
	}
}

static void linger_rejects(void)
{
	static const char * const malformed[] = {
		"", "-1", "+1", " 1", "1 ", "1.5s", "0.5", "0x10", "1e3",
		"10h", "1d", "1S", "1MS", "1sec", "1 s", "1s ", "ms", "s", "m",
		"1ms2", "1sm", "one",
	};
	static const char * const too_long[] = {
		"86400001", "86400001ms", "86401s", "1441m",
		"4294967295", "4294967296", "99999999999999999999",
		"18446744073709551616ms", "71582789m",
	};
	const char *why;
	uint32_t ms;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(malformed); i++) {
		ms = 12345;
		why = NULL;
		if (ibmcg__parse_linger(malformed[i], &ms, &why) != -EINVAL ||
		    ms != 12345 || !why || !strstr(why, "unit")) {
			ktap_case_ok = false;
			printf("# accepted \"%s\"\n", malformed[i]);
		}
	}
	for (i = 0; i < ARRAY_SIZE(too_long); i++) {
		ms = 12345;
		why = NULL;
		if (ibmcg__parse_linger(too_long[i], &ms, &why) != -EINVAL ||
		    ms != 12345 || !why || !strstr(why, "one day")) {
			ktap_case_ok = false;
			printf("# accepted \"%s\"\n", too_long[i]);
		}
	}
	ibmcg__parse_linger("10h", &ms, &why);
	EXPECT_STR(why, "expected whole milliseconds, or a whole number with unit ms, s or m (500ms, 30s, 2m)");
	ibmcg__parse_linger("86401s", &ms, &why);
	EXPECT_STR(why, "longer than one day (86400000 ms)");
}

static void join_linger(void)
{
	struct join_cmd c;

	EXPECT(run(join_fn, ARGC("mlx5_0/1", "239.1.1.1"),
		   ARGV("mlx5_0/1", "239.1.1.1"), &c) == 0);
	EXPECT(!c.args.set_linger && c.args.linger_ms == 0);
	EXPECT_STR(c.args.owner, "default");

	EXPECT(run(join_fn, ARGC("mlx5_0/1", "239.1.1.1", "owner", "job:42",
				 "linger", "30s", "bound"),
		   ARGV("mlx5_0/1", "239.1.1.1", "owner", "job:42", "linger",
			"30s", "bound"), &c) == 0);
	EXPECT(c.args.set_linger && c.args.linger_ms == 30000);
	EXPECT_STR(c.args.owner, "job:42");
	EXPECT(c.args.flags == IB_MCG_F_BOUND);
	EXPECT_STR(c.dev, "mlx5_0");
	EXPECT(c.port == 1);

	/* keywords abbreviate; 0 asks for release at once */
	EXPECT(run(join_fn, ARGC("rxe0/1", "ff0e::1", "lin", "0", "q", "0x10"),
		   ARGV("rxe0/1", "ff0e::1", "lin", "0", "q", "0x10"),
		   &c) == 0);
	EXPECT(c.args.set_linger && c.args.linger_ms == 0);
	EXPECT(c.args.set_qkey && c.args.qkey == 0x10);

	/* given twice: refused, as every other keyword */
	EXPECT(run(join_fn, ARGC("rxe0/1", "ff0e::1", "linger", "1m",
				 "linger", "500ms"),
		   ARGV("rxe0/1", "ff0e::1", "linger", "1m", "linger",
			"500ms"), &c) == EXIT_USAGE);
	EXPECT_STR(errbuf, "mcctl: 'linger' given twice: each keyword may be given once");
}

/* Every keyword of join and leave, given twice (abbreviated the 2nd time). */
static void repeated_keywords(void)
{
	static const char * const join_kw[][4] = {
		{ "owner", "a", "o", "b" },
		{ "state", "full", "st", "full" },
		{ "qkey", "1", "q", "2" },
		{ "linger", "1", "lin", "1" },
		{ "bound", NULL, "bo", NULL },
		{ "create", NULL, "cr", NULL },
		{ "pkey", "0xffff", "pk", "0xffff" },
		{ "mtu", "2048", "mt", "2048" },
		{ "rate", "10", "ra", "10" },
		{ "sl", "1", "sl", "2" },
		{ "flow_label", "1", "fl", "1" },
		{ "tclass", "1", "tc", "1" },
		{ "hop_limit", "1", "ho", "1" },
	};
	char msg[128];
	struct join_cmd c;
	struct leave_cmd l;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(join_kw); i++) {
		const char * const *k = join_kw[i];
		char *argv[8] = { "mlx5_0/1", "ff12::1" };
		int argc = 2;

		argv[argc++] = (char *)k[0];
		if (k[1])
			argv[argc++] = (char *)k[1];
		argv[argc++] = (char *)k[2];
		if (k[3])
			argv[argc++] = (char *)k[3];
		snprintf(msg, sizeof(msg),
			 "mcctl: '%s' given twice: each keyword may be given once",
			 k[0]);
		if (run(join_fn, argc, argv, &c) != EXIT_USAGE ||
		    strcmp(errbuf, msg)) {
			ktap_case_ok = false;
			printf("# join: %s twice: \"%s\"\n", k[0], errbuf);
		}
	}
	/* scope: only with an SA-assigned MGID */
	EXPECT(run(join_fn, ARGC("mlx5_0/1", "0", "scope", "2", "sc", "5"),
		   ARGV("mlx5_0/1", "0", "scope", "2", "sc", "5"), &c) ==
	       EXIT_USAGE);
	EXPECT_STR(errbuf, "mcctl: 'scope' given twice: each keyword may be given once");

	EXPECT(run(leave_fn, ARGC("rxe0/1", "239.1.1.1", "owner", "a", "owner",
				  "b"),
		   ARGV("rxe0/1", "239.1.1.1", "owner", "a", "owner", "b"),
		   &l) == EXIT_USAGE);
	EXPECT_STR(errbuf, "mcctl: 'owner' given twice: each keyword may be given once");
	EXPECT(run(leave_fn, ARGC("rxe0/1", "239.1.1.1", "state", "full",
				  "state", "nonmember"),
		   ARGV("rxe0/1", "239.1.1.1", "state", "full", "state",
			"nonmember"), &l) == EXIT_USAGE);
	EXPECT_STR(errbuf, "mcctl: 'state' given twice: each keyword may be given once");

	/* once each is fine */
	EXPECT(run(join_fn, ARGC("rxe0/1", "239.1.1.1", "owner", "a", "state",
				 "full", "linger", "1s", "bound", "qkey", "1"),
		   ARGV("rxe0/1", "239.1.1.1", "owner", "a", "state", "full",
			"linger", "1s", "bound", "qkey", "1"), &c) == 0);
}

static void join_linger_rejects(void)
{
	struct join_cmd c;

	EXPECT(run(join_fn, ARGC("mlx5_0/1", "239.1.1.1", "linger"),
		   ARGV("mlx5_0/1", "239.1.1.1", "linger"), &c) == EXIT_USAGE);
	EXPECT_STR(errbuf, "mcctl: missing value for 'linger'");
	EXPECT(run(join_fn, ARGC("mlx5_0/1", "239.1.1.1", "linger", "2h"),
		   ARGV("mlx5_0/1", "239.1.1.1", "linger", "2h"), &c) ==
	       EXIT_USAGE);
	EXPECT_STR(errbuf, "mcctl: invalid linger '2h': expected whole milliseconds, or a whole number with unit ms, s or m (500ms, 30s, 2m)");
	EXPECT(run(join_fn, ARGC("mlx5_0/1", "239.1.1.1", "linger",
				 "86400001"),
		   ARGV("mlx5_0/1", "239.1.1.1", "linger", "86400001"), &c) ==
	       EXIT_USAGE);
	EXPECT_STR(errbuf, "mcctl: invalid linger '86400001': longer than one day (86400000 ms)");
	EXPECT(run(join_fn, ARGC("mlx5_0/1", "239.1.1.1", "lingerx", "1"),
		   ARGV("mlx5_0/1", "239.1.1.1", "lingerx", "1"), &c) ==
	       EXIT_USAGE);
	EXPECT_STR(errbuf, "mcctl: unknown parameter 'lingerx'; try \"mcctl help\"");
}

static void join_create_params(void)
{
	struct join_cmd c;
	struct ibmcg_join_args *a = &c.args;

	/* no parameters: names an existing group, no create */
	EXPECT(run(join_fn, ARGC("mlx5_0/1", "ff12:401b::1"),
		   ARGV("mlx5_0/1", "ff12:401b::1"), &c) == 0);
	EXPECT(!a->create && !a->set_qkey && !a->set_pkey && !a->set_mtu &&
	       !a->set_rate && !a->set_sl && !a->set_flow_label &&
	       !a->set_tclass && !a->set_hop_limit && !a->set_scope);
	EXPECT(!c.sa_assigned);

	/* create alone: defaults */
	EXPECT(run(join_fn, ARGC("mlx5_0/1", "ff12:401b::1", "create"),
		   ARGV("mlx5_0/1", "ff12:401b::1", "create"), &c) == 0);
	EXPECT(a->create && !a->set_qkey && !a->set_pkey && !a->set_mtu);

	EXPECT(run(join_fn, ARGC("mlx5_0/1", "ff12:401b::1", "create",
				 "qkey", "0x11111111", "pkey", "0x8001",
				 "mtu", "4096", "rate", "100", "sl", "15",
				 "flow_label", "0xfffff", "tclass", "255",
				 "hop_limit", "255"),
		   ARGV("mlx5_0/1", "ff12:401b::1", "create", "qkey",
			"0x11111111", "pkey", "0x8001", "mtu", "4096", "rate",
			"100", "sl", "15", "flow_label", "0xfffff", "tclass",
			"255", "hop_limit", "255"), &c) == 0);
	EXPECT(a->create);
	EXPECT(a->set_qkey && a->qkey == 0x11111111);
	EXPECT(a->set_pkey && a->pkey == 0x8001);
	EXPECT(a->set_mtu && a->mtu == 5);
	EXPECT(a->set_rate && a->rate == 16);
	EXPECT(a->set_sl && a->sl == 15);
	EXPECT(a->set_flow_label && a->flow_label == 0xfffff);
	EXPECT(a->set_tclass && a->tclass == 255);
	EXPECT(a->set_hop_limit && a->hop_limit == 255);
	EXPECT(!a->set_scope);

	/* lowest values; a parameter implies create, "create" not needed */
	EXPECT(run(join_fn, ARGC("mlx5_0/1", "ff12:401b::1", "mtu", "256",
				 "rate", "2.5", "sl", "0", "flow_label", "0",
				 "tclass", "0", "hop_limit", "0", "pkey", "1"),
		   ARGV("mlx5_0/1", "ff12:401b::1", "mtu", "256", "rate",
			"2.5", "sl", "0", "flow_label", "0", "tclass", "0",
			"hop_limit", "0", "pkey", "1"), &c) == 0);
	EXPECT(!a->create);
	EXPECT(a->set_mtu && a->mtu == 1);
	EXPECT(a->set_rate && a->rate == 2);
	EXPECT(a->set_sl && a->sl == 0);
	EXPECT(a->set_flow_label && a->flow_label == 0);
	EXPECT(a->set_tclass && a->set_hop_limit && a->hop_limit == 0);
	EXPECT(a->set_pkey && a->pkey == 1);

	/* every MTU; rates as printed; abbreviations ("s" stays state) */
	EXPECT(run(join_fn, ARGC("mlx5_0/1", "ff12::1", "m", "512", "ra",
				 "600Gbps", "s", "sendonly-full", "sl", "7",
				 "f", "1048575", "c", "t", "3", "h", "64",
				 "p", "0x7fff"),
		   ARGV("mlx5_0/1", "ff12::1", "m", "512", "ra", "600Gbps",
			"s", "sendonly-full", "sl", "7", "f", "1048575", "c",
			"t", "3", "h", "64", "p", "0x7fff"), &c) == 0);
	EXPECT(a->mtu == 2 && a->rate == 22 && a->sl == 7);
	EXPECT(a->join_state == IB_MCG_JOIN_SENDONLY_FULL);
	EXPECT(a->flow_label == 0xfffff && a->create);
	EXPECT(a->tclass == 3 && a->hop_limit == 64 && a->pkey == 0x7fff);
	EXPECT(run(join_fn, ARGC("mlx5_0/1", "ff12::1", "mtu", "1024"),
		   ARGV("mlx5_0/1", "ff12::1", "mtu", "1024"), &c) == 0);
	EXPECT(a->mtu == 3);
	EXPECT(run(join_fn, ARGC("mlx5_0/1", "ff12::1", "mtu", "2048",
				 "rate", "28"),
		   ARGV("mlx5_0/1", "ff12::1", "mtu", "2048", "rate", "28"),
		   &c) == 0);
	EXPECT(a->mtu == 4 && a->rate == 19);

	/* RoCE: create and the Q_Key are fine on an IPv4 group */
	EXPECT(run(join_fn, ARGC("rxe0/1", "239.1.1.1", "create", "qkey", "7"),
		   ARGV("rxe0/1", "239.1.1.1", "create", "qkey", "7"),
		   &c) == 0);
	EXPECT(a->create && a->qkey == 7);
}

static void join_sa_assigned(void)
{
	static const uint8_t zero[IBMCG_GID_LEN];
	static const char * const spellings[] = {
		"0", "::", "0::0", "::0", "0:0:0:0:0:0:0:0",
	};
	struct join_cmd c;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(spellings); i++) {
		memset(&c, 0xa5, sizeof(c));
		EXPECT(run(join_fn, 2, ARGV("mlx5_0/2", (char *)spellings[i]),
			   &c) == 0);
		EXPECT(c.sa_assigned);
		EXPECT(!memcmp(c.mgid, zero, sizeof(zero)));
		EXPECT_STR(c.dev, "mlx5_0");
		EXPECT(c.port == 2);
		EXPECT(!c.args.create && !c.args.set_scope);
	}

	/* with a scope and the other create parameters */
	EXPECT(run(join_fn, ARGC("mlx5_0/1", "0", "scope", "5", "pkey",
				 "0xffff", "owner", "job:42"),
		   ARGV("mlx5_0/1", "0", "scope", "5", "pkey", "0xffff",
			"owner", "job:42"), &c) == 0);
	EXPECT(c.sa_assigned && c.args.set_scope && c.args.scope == 5);
	EXPECT(c.args.pkey == 0xffff);
	EXPECT_STR(c.args.owner, "job:42");
	EXPECT(run(join_fn, ARGC("mlx5_0/1", "::", "sc", "0xe", "state",
				 "sendonly-full"),
		   ARGV("mlx5_0/1", "::", "sc", "0xe", "state",
			"sendonly-full"), &c) == 0);
	EXPECT(c.args.scope == 14);

	/* leave "0": the groups whose SA-assigned MGID is pending */
	{
		struct leave_cmd l;

		memset(&l, 0xa5, sizeof(l));
		EXPECT(run(leave_fn, ARGC("mlx5_0/1", "0", "owner", "job:1"),
			   ARGV("mlx5_0/1", "0", "owner", "job:1"), &l) == 0);
		EXPECT(!memcmp(l.mgid, zero, sizeof(zero)));
		EXPECT_STR(l.dev, "mlx5_0");
		EXPECT(l.port == 1 && !l.all && !l.join_state);
		EXPECT_STR(l.owner, "job:1");
	}
}

static void join_create_rejects(void)
{
	/* not static: the ARGV() compound literals are automatic */
	const struct {
		int argc;
		char **argv;
		const char *msg;
	} cases[] = {
#define J(...)	ARGC("mlx5_0/1", "ff12::1", __VA_ARGS__),		\
		ARGV("mlx5_0/1", "ff12::1", __VA_ARGS__)
		{ J("mtu", "1500"),
		  "mcctl: invalid mtu '1500': expected 256, 512, 1024, 2048 or 4096 (bytes)" },
		{ J("mtu", "8192"),
		  "mcctl: invalid mtu '8192': expected 256, 512, 1024, 2048 or 4096 (bytes)" },
		{ J("mtu", "5"),
		  "mcctl: invalid mtu '5': expected 256, 512, 1024, 2048 or 4096 (bytes)" },
		{ J("mtu", "0"),
		  "mcctl: invalid mtu '0': expected 256, 512, 1024, 2048 or 4096 (bytes)" },
		{ J("mtu", "4k"),
		  "mcctl: invalid mtu '4k': expected 256, 512, 1024, 2048 or 4096 (bytes)" },
		{ J("mtu"), "mcctl: missing value for 'mtu'" },
		{ J("rate", "16"),
		  "mcctl: invalid rate '16': expected a rate in Gb/s: 2.5 5 10 14 20 25 28 30 40 50 56 60 80 100 112 120 168 200 300 400 600" },
		{ J("rate", "0"),
		  "mcctl: invalid rate '0': expected a rate in Gb/s: 2.5 5 10 14 20 25 28 30 40 50 56 60 80 100 112 120 168 200 300 400 600" },
		{ J("rate", "1000"),
		  "mcctl: invalid rate '1000': expected a rate in Gb/s: 2.5 5 10 14 20 25 28 30 40 50 56 60 80 100 112 120 168 200 300 400 600" },
		{ J("sl", "16"), "mcctl: invalid sl '16': expected 0..15" },
		{ J("sl", "-1"), "mcctl: invalid sl '-1': expected 0..15" },
		{ J("sl", "0x10"), "mcctl: invalid sl '0x10': expected 0..15" },
		{ J("sl", "1.5"), "mcctl: invalid sl '1.5': expected 0..15" },
		{ J("flow_label", "0x100000"),
		  "mcctl: invalid flow_label '0x100000': expected 0..1048575 (0xfffff, 20 bits)" },
		{ J("fl", "1048576"),
		  "mcctl: invalid flow_label '1048576': expected 0..1048575 (0xfffff, 20 bits)" },
		{ J("tclass", "256"),
		  "mcctl: invalid tclass '256': expected 0..255" },
		{ J("hop_limit", "256"),
		  "mcctl: invalid hop_limit '256': expected 0..255" },
		{ J("hop_limit", "4294967296"),
		  "mcctl: invalid hop_limit '4294967296': expected 0..255" },
		{ J("pkey", "0"),
		  "mcctl: invalid pkey '0': P_Keys 0x0000 and 0x8000 are invalid" },
		{ J("pkey", "0x8000"),
		  "mcctl: invalid pkey '0x8000': P_Keys 0x0000 and 0x8000 are invalid" },
		{ J("pkey", "0x10000"),
		  "mcctl: invalid pkey '0x10000': expected 0x0001..0xffff" },
		{ J("pkey", "default"),
		  "mcctl: invalid pkey 'default': expected 0x0001..0xffff" },
		{ J("scope", "2"),
		  "mcctl: scope is only for an SA-assigned MGID (group 0); an MGID carries its scope in its second byte" },
		{ J("creat", "x"), "mcctl: unknown parameter 'x'; try \"mcctl help\"" },
		{ J("createx"), "mcctl: unknown parameter 'createx'; try \"mcctl help\"" },
		{ J("flowlabel", "1"), "mcctl: unknown parameter 'flowlabel'; try \"mcctl help\"" },
#undef J
		{ ARGC("mlx5_0/1", "0", "scope", "16"),
		  ARGV("mlx5_0/1", "0", "scope", "16"),
		  "mcctl: invalid scope '16': expected 0..15" },
		{ ARGC("mlx5_0/1", "0", "state", "nonmember"),
		  ARGV("mlx5_0/1", "0", "state", "nonmember"),
		  "mcctl: an SA-assigned MGID needs state full or sendonly-full: only a full member creates a group" },
		{ ARGC("mlx5_0/1", "::", "state", "sendonly"),
		  ARGV("mlx5_0/1", "::", "state", "sendonly"),
		  "mcctl: an SA-assigned MGID needs state full or sendonly-full: only a full member creates a group" },
		{ ARGC("mlx5_0", "0"), ARGV("mlx5_0", "0"),
		  "mcctl: invalid DEV/PORT 'mlx5_0': expected DEV/PORT" },
		{ ARGC("rxe0/1", "239.1.1.1", "pkey", "0xffff"),
		  ARGV("rxe0/1", "239.1.1.1", "pkey", "0xffff"),
		  "mcctl: pkey is an InfiniBand create parameter, and an IPv4 group is a RoCE group" },
		{ ARGC("rxe0/1", "239.1.1.1", "mtu", "1024"),
		  ARGV("rxe0/1", "239.1.1.1", "mtu", "1024"),
		  "mcctl: mtu is an InfiniBand create parameter, and an IPv4 group is a RoCE group" },
	};
	struct join_cmd c;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (run(join_fn, cases[i].argc, cases[i].argv, &c) !=
		    EXIT_USAGE) {
			ktap_case_ok = false;
			printf("# case %zu accepted\n", i);
			continue;
		}
		EXPECT_STR(errbuf, cases[i].msg);
	}
}

static void leave_group_form(void)
{
	struct leave_cmd c;
	char buf[IBMCG_MGID_STRLEN];

	EXPECT(run(leave_fn, ARGC("mlx5_0/1", "239.1.1.1"),
		   ARGV("mlx5_0/1", "239.1.1.1"), &c) == 0);
	EXPECT(!c.all);
	EXPECT_STR(c.dev, "mlx5_0");
	EXPECT(c.port == 1);
	EXPECT_STR(ibmcg_mgid_format(c.mgid, buf, sizeof(buf)), "239.1.1.1");
	EXPECT_STR(c.owner, "default");
	EXPECT(c.join_state == 0);

	EXPECT(run(leave_fn, ARGC("mlx5_0/2", "ff0e::1", "owner", "job:42",
				  "state", "sendonly"),
		   ARGV("mlx5_0/2", "ff0e::1", "owner", "job:42", "state",
			"sendonly"), &c) == 0);
	EXPECT(!c.all && c.port == 2);
	EXPECT_STR(c.owner, "job:42");
	EXPECT(c.join_state == IB_MCG_JOIN_SENDONLY_NON_MEMBER);

	/* a device called "owner" is still a device: it has a port */
	EXPECT(run(leave_fn, ARGC("owner/1", "239.1.1.1", "o", "all"),
		   ARGV("owner/1", "239.1.1.1", "o", "all"), &c) == 0);
	EXPECT(!c.all);
	EXPECT_STR(c.dev, "owner");
	EXPECT_STR(c.owner, "all");
}

static void leave_owner_form(void)
{
	struct leave_cmd c;

	EXPECT(run(leave_fn, ARGC("owner", "job:42", "all"),
		   ARGV("owner", "job:42", "all"), &c) == 0);
	EXPECT(c.all);
	EXPECT_STR(c.owner, "job:42");
	EXPECT_STR(c.dev, "");
	EXPECT(c.port == 0 && c.join_state == 0);

	EXPECT(run(leave_fn, ARGC("owner", "job:42", "all", "mlx5_0"),
		   ARGV("owner", "job:42", "all", "mlx5_0"), &c) == 0);
	EXPECT(c.all);
	EXPECT_STR(c.dev, "mlx5_0");
	EXPECT(c.port == 0);

	EXPECT(run(leave_fn, ARGC("owner", "job:42", "all", "mlx5_0/2"),
		   ARGV("owner", "job:42", "all", "mlx5_0/2"), &c) == 0);
	EXPECT_STR(c.dev, "mlx5_0");
	EXPECT(c.port == 2);

	/* abbreviated keywords; owner names may have slashes and be "all" */
	EXPECT(run(leave_fn, ARGC("o", "slurm/7", "a"),
		   ARGV("o", "slurm/7", "a"), &c) == 0);
	EXPECT(c.all);
	EXPECT_STR(c.owner, "slurm/7");
	EXPECT(run(leave_fn, ARGC("owner", "all", "all"),
		   ARGV("owner", "all", "all"), &c) == 0);
	EXPECT(c.all);
	EXPECT_STR(c.owner, "all");
}

static void leave_rejects(void)
{
	/* not static: the ARGV() compound literals are automatic */
	const struct {
		int argc;
		char **argv;
		const char *msg;
	} cases[] = {
		{ 0, ARGV(NULL), "mcctl: expected DEV/PORT GROUP" },
		{ ARGC("owner"), ARGV("owner"),
		  "mcctl: missing value for 'owner'" },
		{ ARGC("owner", "job:42"), ARGV("owner", "job:42"),
		  "mcctl: expected 'leave owner NAME all [ DEV[/PORT] ]' to drop every hold of 'job:42'" },
		{ ARGC("owner", "job:42", "mlx5_0/1"),
		  ARGV("owner", "job:42", "mlx5_0/1"),
		  "mcctl: expected 'leave owner NAME all [ DEV[/PORT] ]' to drop every hold of 'job:42'" },
		{ ARGC("owner", "job:42", "state", "full", "all"),
		  ARGV("owner", "job:42", "state", "full", "all"),
		  "mcctl: expected 'leave owner NAME all [ DEV[/PORT] ]' to drop every hold of 'job:42'" },
		{ ARGC("owner", "job 42", "all"), ARGV("owner", "job 42", "all"),
		  "mcctl: invalid owner 'job 42': owner must be printable ASCII without spaces" },
		{ ARGC("owner", "", "all"), ARGV("owner", "", "all"),
		  "mcctl: invalid owner '': owner must not be empty" },
		{ ARGC("owner", "job:42", "all", "mlx5_0/0"),
		  ARGV("owner", "job:42", "all", "mlx5_0/0"),
		  "mcctl: invalid DEV[/PORT] 'mlx5_0/0': port 0 does not exist: ports are numbered from 1" },
		{ ARGC("owner", "job:42", "all", "mlx5_0/1", "239.1.1.1"),
		  ARGV("owner", "job:42", "all", "mlx5_0/1", "239.1.1.1"),
		  "mcctl: unknown parameter '239.1.1.1'; try \"mcctl help\"" },
		{ ARGC("owner", "job:42", "all", "mlx5_0", "state", "full"),
		  ARGV("owner", "job:42", "all", "mlx5_0", "state", "full"),
		  "mcctl: unknown parameter 'state'; try \"mcctl help\"" },
		/* the group form is unchanged: "all" is not one of its words */
		{ ARGC("mlx5_0/1", "239.1.1.1", "all"),
		  ARGV("mlx5_0/1", "239.1.1.1", "all"),
		  "mcctl: unknown parameter 'all'; try \"mcctl help\"" },
		{ ARGC("mlx5_0/1", "239.1.1.1", "owner", "job:42", "all"),
		  ARGV("mlx5_0/1", "239.1.1.1", "owner", "job:42", "all"),
		  "mcctl: unknown parameter 'all'; try \"mcctl help\"" },
		{ ARGC("mlx5_0", "239.1.1.1"), ARGV("mlx5_0", "239.1.1.1"),
		  "mcctl: invalid DEV/PORT 'mlx5_0': expected DEV/PORT" },
		{ ARGC("mlx5_0/1"), ARGV("mlx5_0/1"),
		  "mcctl: expected DEV/PORT GROUP" },
		{ ARGC("mlx5_0/1", "10.0.0.1"), ARGV("mlx5_0/1", "10.0.0.1"),
		  "mcctl: invalid group '10.0.0.1': not an IPv4 multicast group (224.0.0.0/4)" },
		{ ARGC("mlx5_0/1", "239.1.1.1", "owner"),
		  ARGV("mlx5_0/1", "239.1.1.1", "owner"),
		  "mcctl: missing value for 'owner'" },
		{ ARGC("mlx5_0/1", "239.1.1.1", "linger", "1s"),
		  ARGV("mlx5_0/1", "239.1.1.1", "linger", "1s"),
		  "mcctl: unknown parameter 'linger'; try \"mcctl help\"" },
	};
	struct leave_cmd c;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (run(leave_fn, cases[i].argc, cases[i].argv, &c) !=
		    EXIT_USAGE) {
			ktap_case_ok = false;
			printf("# case %zu accepted\n", i);
			continue;
		}
		EXPECT_STR(errbuf, cases[i].msg);
	}
}

static int list_fn(int argc, char **argv, void *out)
{
	return parse_list(argc, argv, out);
}

static void list_filters(void)
{
	struct ibmcg_holder h[2] = { { .owner = "job:1" }, { .owner = "job:2" } };
	struct ibmcg_group g = { .state = IB_MCG_STATE_JOINED, .holders = h,
				 .nholders = 2 };
	struct list_cmd c;

	EXPECT(run(list_fn, 0, ARGV(NULL), &c) == 0);
	EXPECT(!c.dev[0] && !c.port && !c.owner && !c.state);
	EXPECT(list_match(&c, &g));

	EXPECT(run(list_fn, ARGC("mlx5_0/2", "owner", "job:2", "state", "joined"),
		   ARGV("mlx5_0/2", "owner", "job:2", "state", "joined"), &c) == 0);
	EXPECT_STR(c.dev, "mlx5_0");
	EXPECT(c.port == 2);
	EXPECT_STR(c.owner, "job:2");
	EXPECT(c.state == IB_MCG_STATE_JOINED);
	EXPECT(list_match(&c, &g));

	/* any order, abbreviated keywords, the device last */
	EXPECT(run(list_fn, ARGC("st", "retry-wait", "o", "job:3", "rxe0"),
		   ARGV("st", "retry-wait", "o", "job:3", "rxe0"), &c) == 0);
	EXPECT_STR(c.dev, "rxe0");
	EXPECT(c.port == 0);
	EXPECT(c.state == IB_MCG_STATE_RETRY_WAIT);
	EXPECT(!list_match(&c, &g));		/* neither state nor owner */
	g.state = IB_MCG_STATE_RETRY_WAIT;
	EXPECT(!list_match(&c, &g));		/* not job:3's */
	strcpy(h[1].owner, "job:3");
	EXPECT(list_match(&c, &g));
	c.owner = "job:4";
	EXPECT(!list_match(&c, &g));
	c.owner = NULL;
	EXPECT(list_match(&c, &g));
	g.nholders = 0;				/* a lingering group */
	c.state = 0;
	c.owner = "job:1";
	EXPECT(!list_match(&c, &g));

	EXPECT(run(list_fn, ARGC("state", "lingering"),
		   ARGV("state", "lingering"), &c) == 0);
	EXPECT(c.state == IB_MCG_STATE_LINGERING);
	EXPECT(run(list_fn, ARGC("state", "detached"),
		   ARGV("state", "detached"), &c) == 0);
	EXPECT(c.state == IB_MCG_STATE_DETACHED);
	EXPECT(run(list_fn, ARGC("state", "joining"),
		   ARGV("state", "joining"), &c) == 0);
	EXPECT(c.state == IB_MCG_STATE_JOINING);
}

static void list_rejects(void)
{
	const struct {
		int argc;
		char **argv;
		const char *msg;
	} cases[] = {
		{ ARGC("state", "full"), ARGV("state", "full"),
		  "mcctl: invalid group state 'full': expected joining, joined, retry-wait, detached or lingering" },
		{ ARGC("state", "released"), ARGV("state", "released"),
		  "mcctl: invalid group state 'released': expected joining, joined, retry-wait, detached or lingering" },
		{ ARGC("state", "Joined"), ARGV("state", "Joined"),
		  "mcctl: invalid group state 'Joined': expected joining, joined, retry-wait, detached or lingering" },
		{ ARGC("state"), ARGV("state"), "mcctl: missing value for 'state'" },
		{ ARGC("owner"), ARGV("owner"), "mcctl: missing value for 'owner'" },
		{ ARGC("owner", "job 1"), ARGV("owner", "job 1"),
		  "mcctl: invalid owner 'job 1': owner must be printable ASCII without spaces" },
		{ ARGC("owner", "a", "owner", "b"), ARGV("owner", "a", "owner", "b"),
		  "mcctl: 'owner' given twice: each keyword may be given once" },
		{ ARGC("state", "joined", "st", "joining"),
		  ARGV("state", "joined", "st", "joining"),
		  "mcctl: 'state' given twice: each keyword may be given once" },
		{ ARGC("rxe0", "rxe1"), ARGV("rxe0", "rxe1"),
		  "mcctl: unknown parameter 'rxe1'; try \"mcctl help\"" },
		{ ARGC("rxe0/0"), ARGV("rxe0/0"),
		  "mcctl: invalid DEV[/PORT] 'rxe0/0': port 0 does not exist: ports are numbered from 1" },
	};
	struct list_cmd c;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (run(list_fn, cases[i].argc, cases[i].argv, &c) !=
		    EXIT_USAGE) {
			ktap_case_ok = false;
			printf("# case %zu accepted\n", i);
			continue;
		}
		EXPECT_STR(errbuf, cases[i].msg);
	}
}

static const struct ktap_case cases[] = {
	KTAP_CASE(list_filters),
	KTAP_CASE(list_rejects),
	KTAP_CASE(linger_values),
	KTAP_CASE(linger_rejects),
	KTAP_CASE(join_linger),
	KTAP_CASE(join_linger_rejects),
	KTAP_CASE(repeated_keywords),
	KTAP_CASE(join_create_params),
	KTAP_CASE(join_sa_assigned),
	KTAP_CASE(join_create_rejects),
	KTAP_CASE(leave_group_form),
	KTAP_CASE(leave_owner_form),
	KTAP_CASE(leave_rejects),
};

KTAP_MAIN(cases)
