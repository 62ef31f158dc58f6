// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of libibmcg's pure helpers: group/MGID parsing and
 * formatting, DEV/PORT, owners, join states and enum names.
 */
#include <arpa/inet.h>
#include <errno.h>

#include "ibmcg.h"
#include "ktap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static void mgid_ipv4_group(void)
{
	static const uint8_t want[16] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 239, 1, 1, 1
	};
	uint8_t mgid[16];

	EXPECT(ibmcg_mgid_parse("239.1.1.1", mgid, NULL) == 0);
	EXPECT(!memcmp(mgid, want, 16));
	EXPECT(ibmcg_mgid_parse("224.0.0.0", mgid, NULL) == 0);
	EXPECT(ibmcg_mgid_parse("239.255.255.255", mgid, NULL) == 0);
}

static void mgid_ipv6_group(void)
{
	static const uint8_t want[16] = {
		0xff, 0x0e, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x12, 0x34
	};
	uint8_t mgid[16];

	EXPECT(ibmcg_mgid_parse("ff0e::1234", mgid, NULL) == 0);
	EXPECT(!memcmp(mgid, want, 16));
	EXPECT(ibmcg_mgid_parse("FF0E::1234", mgid, NULL) == 0);
	EXPECT(!memcmp(mgid, want, 16));
}

static void mgid_full_gid(void)
{
	/* IPoIB broadcast group of the default partition */
	static const uint8_t want[16] = {
		0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0,
		0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff
	};
	uint8_t mgid[16];

	EXPECT(ibmcg_mgid_parse("ff12:401b:ffff:0000:0000:0000:ffff:ffff",
				mgid, NULL) == 0);
	EXPECT(!memcmp(mgid, want, 16));
}

static void mgid_v4mapped_notation(void)
{
	uint8_t a[16], b[16];

	EXPECT(ibmcg_mgid_parse("::ffff:239.1.1.1", a, NULL) == 0);
	EXPECT(ibmcg_mgid_parse("239.1.1.1", b, NULL) == 0);
	EXPECT(!memcmp(a, b, 16));
	EXPECT(ibmcg_mgid_parse("::ffff:ef01:0101", a, NULL) == 0);
	EXPECT(!memcmp(a, b, 16));
}

static void mgid_rejects(void)
{
	static const char * const bad[] = {
		"", "10.0.0.1", "223.255.255.255", "240.0.0.1",
		"255.255.255.255", "0.0.0.0", "fe80::1", "::1", "::",
		"2001:db8::1", "::ffff:10.0.0.1", "::ffff:240.0.0.1",
		"239.1.1", "239.1.1.1.1", "239.1.1.256", " 239.1.1.1",
		"239.1.1.1 ", "ff0e::1%eth0", "ff0e:::1", "gg0e::1",
		"ff0e::1/128", "239.1.1.1/32", "mlx5_0", "0xff0e",
	};
	uint8_t mgid[16];
	const char *why;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		why = NULL;
		if (ibmcg_mgid_parse(bad[i], mgid, &why) != -EINVAL || !why) {
			ktap_case_ok = false;
			printf("# accepted \"%s\"\n", bad[i]);
		}
	}
	EXPECT(ibmcg_mgid_parse(NULL, mgid, NULL) == -EINVAL);
	ibmcg_mgid_parse("10.1.2.3", mgid, &why);
	EXPECT_STR(why, "not an IPv4 multicast group (224.0.0.0/4)");
	ibmcg_mgid_parse("fe80::1", mgid, &why);
	EXPECT_STR(why, "not a multicast GID (must start with ff)");
	ibmcg_mgid_parse("239.1.1", mgid, &why);
	EXPECT_STR(why, "not an IPv4 or IPv6 group address or MGID");
}

static void mgid_format_round_trip(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "239.1.1.1", "239.1.1.1" },
		{ "224.0.0.251", "224.0.0.251" },
		{ "::ffff:224.0.0.1", "224.0.0.1" },
		{ "ff0e::1234", "ff0e::1234" },
		{ "FF02::1:FF00:1", "ff02::1:ff00:1" },
		{ "ff12:401b:ffff:0:0:0:ffff:ffff", "ff12:401b:ffff::ffff:ffff" },
		{ "ff12:601b:ffff::1:ff28:9a31", "ff12:601b:ffff::1:ff28:9a31" },
		{ "ff3e:0030:2001:0db8:0000:0000:0000:0001",
		  "ff3e:30:2001:db8::1" },
	};
	char buf[IBMCG_MGID_STRLEN];
	uint8_t a[16], b[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		EXPECT(ibmcg_mgid_parse(cases[i].in, a, NULL) == 0);
		EXPECT_STR(ibmcg_mgid_format(a, buf, sizeof(buf)),
			   cases[i].out);
		EXPECT(ibmcg_mgid_parse(buf, b, NULL) == 0);
		EXPECT(!memcmp(a, b, 16));
	}
}

static void gid_format(void)
{
	char buf[IBMCG_MGID_STRLEN];
	uint8_t g[16];

	EXPECT(ibmcg_mgid_parse("239.1.1.1", g, NULL) == 0);
	EXPECT_STR(ibmcg_gid_format(g, buf, sizeof(buf)), "::ffff:239.1.1.1");
	memset(g, 0xff, sizeof(g));
	EXPECT_STR(ibmcg_gid_format(g, buf, sizeof(buf)),
		   "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff");
	/* too small a buffer gives an empty string, not garbage */
	EXPECT_STR(ibmcg_gid_format(g, buf, 8), "");
}

static void devport_parse(void)
{
	char dev[IBMCG_DEV_NAME_MAX];
	char name[80];
	uint32_t port = 99;

	EXPECT(ibmcg_devport_parse("mlx5_0/1", dev, &port, false, NULL) == 0);
	EXPECT_STR(dev, "mlx5_0");
	EXPECT(port == 1);
	EXPECT(ibmcg_devport_parse("rxe0/2", dev, &port, true, NULL) == 0);
	EXPECT_STR(dev, "rxe0");
	EXPECT(port == 2);
	EXPECT(ibmcg_devport_parse("mlx5_1", dev, &port, true, NULL) == 0);
	EXPECT_STR(dev, "mlx5_1");
	EXPECT(port == 0);
	EXPECT(ibmcg_devport_parse("ib0/4294967295", dev, &port, false,
				   NULL) == 0);
	EXPECT(port == 4294967295U);

	memset(name, 'd', 63);
	strcpy(name + 63, "/1");
	EXPECT(ibmcg_devport_parse(name, dev, &port, false, NULL) == 0);
	EXPECT(strlen(dev) == 63);
	memset(name, 'd', 64);
	strcpy(name + 64, "/1");
	EXPECT(ibmcg_devport_parse(name, dev, &port, false, NULL) == -EINVAL);
}

static void devport_rejects(void)
{
	static const char * const bad[] = {
		"mlx5_0", "/1", "", "mlx5_0/", "mlx5_0/0", "mlx5_0/x",
		"mlx5_0/1x", "mlx5_0/-1", "mlx5_0/+1", "mlx5_0/ 1",
		"mlx5_0/1/2", "mlx5_0/4294967296", "mlx5_0/99999999999999999999",
	};
	char dev[IBMCG_DEV_NAME_MAX];
	const char *why;
	uint32_t port;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		why = NULL;
		if (ibmcg_devport_parse(bad[i], dev, &port, false, &why) !=
		    -EINVAL || !why) {
			ktap_case_ok = false;
			printf("# accepted \"%s\"\n", bad[i]);
		}
	}
	EXPECT(ibmcg_devport_parse("/1", dev, &port, true, NULL) == -EINVAL);
	EXPECT(ibmcg_devport_parse("", dev, &port, true, NULL) == -EINVAL);
	ibmcg_devport_parse("mlx5_0", dev, &port, false, &why);
	EXPECT_STR(why, "expected DEV/PORT");
	ibmcg_devport_parse("mlx5_0/0", dev, &port, false, &why);
	EXPECT_STR(why, "port 0 does not exist: ports are numbered from 1");
	ibmcg_devport_parse("mlx5_0/4294967296", dev, &port, false, &why);
	EXPECT_STR(why, "port number out of range");
}

static void owner_check(void)
{
	char name[80];
	const char *why;

	EXPECT(ibmcg_owner_check("default", NULL) == 0);
	EXPECT(ibmcg_owner_check("job:42", NULL) == 0);
	EXPECT(ibmcg_owner_check("slurm.step-7/3~x", NULL) == 0);
	EXPECT(ibmcg_owner_check("job 42", &why) == -EINVAL);
	EXPECT_STR(why, "owner must be printable ASCII without spaces");
	memset(name, 'o', 64);
	name[64] = '\0';
	EXPECT(ibmcg_owner_check(name, NULL) == 0);
	name[64] = 'o';
	name[65] = '\0';
	EXPECT(ibmcg_owner_check(name, &why) == -EINVAL);
	EXPECT_STR(why, "owner longer than 64 bytes");
	EXPECT(ibmcg_owner_check("", &why) == -EINVAL);
	EXPECT_STR(why, "owner must not be empty");
	EXPECT(ibmcg_owner_check(NULL, NULL) == -EINVAL);
	EXPECT(ibmcg_owner_check("a\tb", &why) == -EINVAL);
	EXPECT(ibmcg_owner_check("caf\xc3\xa9", NULL) == -EINVAL);
	EXPECT(ibmcg_owner_check("x\x7f", NULL) == -EINVAL);
}

static void join_state_names(void)
{
	static const struct {
		const char *name;
		uint8_t bit;
	} cases[] = {
		{ "full", IB_MCG_JOIN_FULL },
		{ "nonmember", IB_MCG_JOIN_NON_MEMBER },
		{ "sendonly", IB_MCG_JOIN_SENDONLY_NON_MEMBER },
		{ "sendonly-full", IB_MCG_JOIN_SENDONLY_FULL },
	};
	static const char * const bad[] = {
		"", "FULL", "ful", "sendonly-ful", "full,sendonly", "none",
		"send-only",
	};
	const char *why;
	uint8_t js;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		js = 0;
		EXPECT(ibmcg_join_state_parse(cases[i].name, &js, NULL) == 0);
		EXPECT(js == cases[i].bit);
		EXPECT_STR(ibmcg_join_state_name(cases[i].bit), cases[i].name);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		why = NULL;
		EXPECT(ibmcg_join_state_parse(bad[i], &js, &why) == -EINVAL);
		EXPECT(why != NULL);
	}
	EXPECT(ibmcg_join_state_name(0) == NULL);
	EXPECT(ibmcg_join_state_name(3) == NULL);
	EXPECT(ibmcg_join_state_name(0x10) == NULL);
}

/*
 * The library writes GIDs itself (not with inet_ntop(), for speed): the
 * text must be inet_ntop()'s for every pattern of zero words, with words
 * of one to four hex digits, IPv4-mapped and -compatible forms included;
 * IPv4-mapped MGIDs as inet_ntop(AF_INET) writes their last 4 bytes.
 */
static void gid_format_as_inet_ntop(void)
{
	static const uint16_t words[] = { 1, 0xa, 0xff, 0x100, 0xffff, 0xfe80 };
	char want[INET6_ADDRSTRLEN], buf[INET6_ADDRSTRLEN];
	unsigned int mask, v, i, bad = 0, n = 0;
	uint8_t g[16];

	for (mask = 0; mask < 256; mask++) {
		for (v = 0; v < 6 * 6; v++) {
			for (i = 0; i < 8; i++) {
				uint16_t w = mask & (1U << i) ? 0 :
					     words[(v + i * (v / 6 + 1)) % 6];

				g[2 * i] = w >> 8;
				g[2 * i + 1] = w;
			}
			inet_ntop(AF_INET6, g, want, sizeof(want));
			ibmcg_gid_format(g, buf, sizeof(buf));
			n++;
			if (strcmp(buf, want) && bad++ < 5)
				printf("# gid %s written as %s\n", want, buf);
			/* a buffer one byte short: "" as inet_ntop's failure */
			ibmcg_gid_format(g, buf, strlen(want));
			if (buf[0])
				bad++;
		}
	}
	EXPECT(n == 256 * 36 && bad == 0);

	for (v = 0; v < 256; v++) {
		uint8_t m[16] = { [10] = 0xff, [11] = 0xff, 224 + v % 16, v,
				  255 - v, v / 3 };

		inet_ntop(AF_INET, m + 12, want, sizeof(want));
		ibmcg_mgid_format(m, buf, sizeof(buf));
		if (strcmp(buf, want) && bad++ < 5)
			printf("# mgid %s written as %s\n", want, buf);
	}
	EXPECT(bad == 0);
}

static void join_state_format(void)
{
	char buf[IBMCG_JOIN_STATE_STRLEN];

	EXPECT_STR(ibmcg_join_state_format(IB_MCG_JOIN_FULL, buf, sizeof(buf)),
		   "full");
	EXPECT_STR(ibmcg_join_state_format(IB_MCG_JOIN_FULL |
					   IB_MCG_JOIN_SENDONLY_NON_MEMBER,
					   buf, sizeof(buf)), "full,sendonly");
	EXPECT_STR(ibmcg_join_state_format(IB_MCG_JOIN_ALL, buf, sizeof(buf)),
		   "full,nonmember,sendonly,sendonly-full");
	EXPECT_STR(ibmcg_join_state_format(0, buf, sizeof(buf)), "none");
	EXPECT_STR(ibmcg_join_state_format(0x11, buf, sizeof(buf)),
		   "full,0x10");
	EXPECT_STR(ibmcg_join_state_format(0xff, buf, sizeof(buf)),
		   "full,nonmember,sendonly,sendonly-full,0x10,0x20,0x40,0x80");
	/* truncates safely */
	EXPECT_STR(ibmcg_join_state_format(0xf, buf, 8), "full,no");
}

static void enum_names(void)
{
	EXPECT_STR(ibmcg_state_name(IB_MCG_STATE_JOINING), "joining");
	EXPECT_STR(ibmcg_state_name(IB_MCG_STATE_JOINED), "joined");
	EXPECT_STR(ibmcg_state_name(IB_MCG_STATE_DETACHED), "detached");
	EXPECT_STR(ibmcg_state_name(IB_MCG_STATE_RETRY_WAIT), "retry-wait");
	EXPECT_STR(ibmcg_state_name(IB_MCG_STATE_RELEASED), "released");
	EXPECT_STR(ibmcg_state_name(IB_MCG_STATE_LINGERING), "lingering");
	EXPECT(ibmcg_state_name(0) == NULL);
	EXPECT(ibmcg_state_name(7) == NULL);

	EXPECT_STR(ibmcg_reason_name(IB_MCG_REASON_NONE), "none");
	EXPECT_STR(ibmcg_reason_name(IB_MCG_REASON_SOCKET_CLOSED),
		   "socket-closed");
	EXPECT_STR(ibmcg_reason_name(IB_MCG_REASON_ERROR), "error");
	EXPECT_STR(ibmcg_reason_name(IB_MCG_REASON_LINGER_EXPIRED),
		   "linger-expired");
	EXPECT_STR(ibmcg_reason_name(IB_MCG_REASON_OWNER_RELEASE),
		   "owner-release");
	EXPECT_STR(ibmcg_reason_name(IB_MCG_REASON_GROUP_GONE), "group-gone");
	EXPECT_STR(ibmcg_reason_name(IB_MCG_REASON_MGID_LOST), "mgid-lost");
	EXPECT_STR(ibmcg_reason_name(IB_MCG_REASON_REJOIN), "rejoin");
	EXPECT_STR(ibmcg_reason_name(IB_MCG_REASON_MLID_CHANGED), "mlid-changed");
	EXPECT(ibmcg_reason_name(20) == NULL);

	EXPECT_STR(ibmcg_backend_name(IB_MCG_BACKEND_NONE), "none");
	EXPECT_STR(ibmcg_backend_name(IB_MCG_BACKEND_IB_SA), "ib-sa");
	EXPECT_STR(ibmcg_backend_name(IB_MCG_BACKEND_ROCE), "roce");
	EXPECT(ibmcg_backend_name(3) == NULL);

	EXPECT_STR(ibmcg_link_layer_name(IB_MCG_LINK_LAYER_INFINIBAND),
		   "InfiniBand");
	EXPECT_STR(ibmcg_link_layer_name(IB_MCG_LINK_LAYER_ETHERNET),
		   "Ethernet");
	EXPECT(ibmcg_link_layer_name(3) == NULL);

	EXPECT_STR(ibmcg_port_state_name(1), "DOWN");
	EXPECT_STR(ibmcg_port_state_name(4), "ACTIVE");
	EXPECT_STR(ibmcg_port_state_name(5), "ACTIVE_DEFER");
	EXPECT(ibmcg_port_state_name(6) == NULL);

	EXPECT_STR(ibmcg_event_name(IB_MCG_CMD_GROUP_NEW_NTF), "group-new");
	EXPECT_STR(ibmcg_event_name(IB_MCG_CMD_HOLDER_DEL_NTF), "holder-del");
	EXPECT(ibmcg_event_name(IB_MCG_CMD_JOIN) == NULL);
	/* a request, not a notification */
	EXPECT(ibmcg_event_name(IB_MCG_CMD_OWNER_RELEASE) == NULL);
	EXPECT(ibmcg_event_name(IB_MCG_CMD_MAX + 1) == NULL);
	EXPECT_STR(ibmcg_event_name(IB_MCG_CMD_REJOIN_WAVE_START_NTF),
		   "rejoin-wave-start");
	EXPECT_STR(ibmcg_event_name(IB_MCG_CMD_REJOIN_WAVE_END_NTF),
		   "rejoin-wave-end");
	EXPECT_STR(ibmcg_reason_name(IB_MCG_REASON_TIMEOUT), "timeout");
	EXPECT_STR(ibmcg_reason_name(IB_MCG_REASON_SA_REJECTED),
		   "sa-rejected");
	EXPECT_STR(ibmcg_reason_name(IB_MCG_REASON_PORT_DOWN), "port-down");
	EXPECT_STR(ibmcg_reason_name(IB_MCG_REASON_PKEY_MISSING),
		   "pkey-missing");
	EXPECT_STR(ibmcg_reason_name(IB_MCG_REASON_NET_RESET), "net-reset");
	EXPECT_STR(ibmcg_state_name(IB_MCG_STATE_JOINING), "joining");
	EXPECT_STR(ibmcg_state_name(IB_MCG_STATE_RETRY_WAIT), "retry-wait");
}

static void rate_and_mtu(void)
{
	static const int bytes[] = { 0, 256, 512, 1024, 2048, 4096, 0 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bytes); i++)
		EXPECT(ibmcg_mtu_to_bytes(i) == bytes[i]);
	for (i = 1; i <= 5; i++)
		EXPECT(ibmcg_mtu_from_bytes(bytes[i]) == (int)i);
	EXPECT(ibmcg_mtu_from_bytes(0) == -EINVAL);
	EXPECT(ibmcg_mtu_from_bytes(1500) == -EINVAL);
	EXPECT(ibmcg_mtu_from_bytes(8192) == -EINVAL);

	EXPECT_STR(ibmcg_rate_name(0), "port-current");
	EXPECT_STR(ibmcg_rate_name(2), "2.5Gbps");
	EXPECT_STR(ibmcg_rate_name(16), "100Gbps");
	EXPECT_STR(ibmcg_rate_name(22), "600Gbps");
	EXPECT(ibmcg_rate_name(1) == NULL);
	EXPECT(ibmcg_rate_name(23) == NULL);
}

/* Gb/s on the command line to enum ib_rate of include/rdma/ib_verbs.h. */
static void rate_parse(void)
{
	static const struct {
		const char *in;
		uint8_t rate;
	} cases[] = {
		{ "2.5", 2 }, { "5", 5 }, { "10", 3 }, { "14", 11 },
		{ "20", 6 }, { "25", 15 }, { "28", 19 }, { "30", 4 },
		{ "40", 7 }, { "50", 20 }, { "56", 12 }, { "60", 8 },
		{ "80", 9 }, { "100", 16 }, { "112", 13 }, { "120", 10 },
		{ "168", 14 }, { "200", 17 }, { "300", 18 }, { "400", 21 },
		{ "600", 22 },
		/* as ibmcg_rate_name() prints them */
		{ "100Gbps", 16 }, { "2.5Gbps", 2 }, { "600gbps", 22 },
	};
	static const char * const bad[] = {
		"", "0", "1", "2", "3", "2.50", "02.5", "2,5", "15", "1000",
		"100G", "Gbps", "100 Gbps", "100Gbps ", " 100", "0x10", "-5",
		"port-current", "100Mbps",
	};
	const char *why;
	uint8_t rate;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		rate = 0xff;
		if (ibmcg_rate_parse(cases[i].in, &rate, NULL) ||
		    rate != cases[i].rate) {
			ktap_case_ok = false;
			printf("# \"%s\": got %u, want %u\n", cases[i].in,
			       rate, cases[i].rate);
		}
	}
	/* every rate the library names can be given back */
	for (i = 2; i <= 22; i++) {
		rate = 0;
		EXPECT(ibmcg_rate_parse(ibmcg_rate_name(i), &rate, NULL) == 0);
		EXPECT(rate == i);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		rate = 0xff;
		why = NULL;
		if (ibmcg_rate_parse(bad[i], &rate, &why) != -EINVAL ||
		    rate != 0xff || !why) {
			ktap_case_ok = false;
			printf("# accepted \"%s\"\n", bad[i]);
		}
	}
	EXPECT(ibmcg_rate_parse(NULL, &rate, NULL) == -EINVAL);
	ibmcg_rate_parse("3", &rate, &why);
	EXPECT_STR(why, "expected a rate in Gb/s: 2.5 5 10 14 20 25 28 30 40 50 56 60 80 100 112 120 168 200 300 400 600");
}

static const struct ktap_case cases[] = {
	KTAP_CASE(mgid_ipv4_group),
	KTAP_CASE(mgid_ipv6_group),
	KTAP_CASE(mgid_full_gid),
	KTAP_CASE(mgid_v4mapped_notation),
	KTAP_CASE(mgid_rejects),
	KTAP_CASE(mgid_format_round_trip),
	KTAP_CASE(gid_format),
	KTAP_CASE(devport_parse),
	KTAP_CASE(devport_rejects),
	KTAP_CASE(owner_check),
	KTAP_CASE(join_state_names),
	KTAP_CASE(gid_format_as_inet_ntop),
	KTAP_CASE(join_state_format),
	KTAP_CASE(enum_names),
	KTAP_CASE(rate_and_mtu),
	KTAP_CASE(rate_parse),
};

KTAP_MAIN(cases)
