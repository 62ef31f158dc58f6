// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Pure helpers of libibmcg: parsing and formatting of groups, DEV/PORT,
 * owners, join states and enum names. No netlink here.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ibmcg.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const uint8_t v4mapped_prefix[12] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
};

static int fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EINVAL;
}

static bool is_v4mapped(const uint8_t gid[IBMCG_GID_LEN])
{
	return !memcmp(gid, v4mapped_prefix, sizeof(v4mapped_prefix));
}

int ibmcg_mgid_parse(const char *s, uint8_t mgid[IBMCG_GID_LEN],
		     const char **why)
{
	struct in6_addr a6;
	struct in_addr a4;

	if (!s || !*s)
		return fail(why, "empty group address");

	if (inet_pton(AF_INET, s, &a4) == 1) {
		if ((ntohl(a4.s_addr) >> 28) != 0xe)
			return fail(why, "not an IPv4 multicast group (224.0.0.0/4)");
		memcpy(mgid, v4mapped_prefix, sizeof(v4mapped_prefix));
		memcpy(mgid + 12, &a4.s_addr, 4);
		return 0;
	}

	if (inet_pton(AF_INET6, s, &a6) != 1)
		return fail(why, "not an IPv4 or IPv6 group address or MGID");

	if (is_v4mapped(a6.s6_addr)) {
		if ((a6.s6_addr[12] & 0xf0) != 0xe0)
			return fail(why, "IPv4-mapped address is not a multicast group (::ffff:224.0.0.0/100)");
	} else if (a6.s6_addr[0] != 0xff) {
		return fail(why, "not a multicast GID (must start with ff)");
	}
	memcpy(mgid, a6.s6_addr, IBMCG_GID_LEN);
	return 0;
}

/*
 * Formatting is written out here rather than left to inet_ntop(), which
 * goes through sprintf() for every number: a list of 16k groups formats
 * 16k GIDs. The text is inet_ntop()'s, character for character (the unit
 * tests compare the two).
 */
static char *put_dec8(char *p, unsigned int v)
{
	if (v >= 100)
		*p++ = '0' + v / 100;
	if (v >= 10)
		*p++ = '0' + v / 10 % 10;
	*p++ = '0' + v % 10;
	return p;
}

static char *put_v4(char *p, const uint8_t a[4])
{
	int i;

	for (i = 0; i < 4; i++) {
		if (i)
			*p++ = '.';
		p = put_dec8(p, a[i]);
	}
	return p;
}

static char *put_hex16(char *p, unsigned int w)
{
	static const char hex[] = "0123456789abcdef";
	int shift = 12;

	while (shift && !(w >> shift))
		shift -= 4;
	for (; shift >= 0; shift -= 4)
		*p++ = hex[(w >> shift) & 15];
	return p;
}

/*
 * RFC 5952 text: the longest run of two or more zero words (the first of
 * equals) as "::", the other words in hex without leading zeros. When
 * that run starts the address, inet_ntop() may end it in dotted quad (its
 * IPv4-compatible and -mapped forms): those are left to inet_ntop().
 */
static bool put_v6(char *p, const uint8_t a[16])
{
	int i, run = -1, runlen = 0, cur = -1;

	for (i = 0; i < 8; i++) {
		if (a[2 * i] || a[2 * i + 1]) {
			cur = -1;
			continue;
		}
		if (cur < 0)
			cur = i;
		if (i - cur + 1 > runlen) {
			run = cur;
			runlen = i - cur + 1;
		}
	}
	if (runlen < 2)
		run = -1;
	else if (run == 0)
		return false;
	for (i = 0; i < 8; i++) {
		if (i == run) {
			*p++ = ':';
			i += runlen - 1;
			if (i == 7)
				*p++ = ':';
			continue;
		}
		if (i)
			*p++ = ':';
		p = put_hex16(p, a[2 * i] << 8 | a[2 * i + 1]);
	}
	*p = '\0';
	return true;
}

/* @text into @buf if it fits, else "" (as inet_ntop() failing). */
static char *copy_out(const char *text, char *buf, size_t len)
{
	size_t n = strlen(text);

	if (n < len)
		memcpy(buf, text, n + 1);
	else if (len)
		buf[0] = '\0';
	return buf;
}

char *ibmcg_gid_format(const uint8_t gid[IBMCG_GID_LEN], char *buf,
		       size_t len)
{
	char text[INET6_ADDRSTRLEN];

	if (!put_v6(text, gid) &&
	    !inet_ntop(AF_INET6, gid, text, sizeof(text)))
		text[0] = '\0';
	return copy_out(text, buf, len);
}

char *ibmcg_mgid_format(const uint8_t mgid[IBMCG_GID_LEN], char *buf,
			size_t len)
{
	char text[INET_ADDRSTRLEN];

	if (is_v4mapped(mgid)) {
		*put_v4(text, mgid + 12) = '\0';
		return copy_out(text, buf, len);
	}
	return ibmcg_gid_format(mgid, buf, len);
}

int ibmcg_devport_parse(const char *s, char dev[IBMCG_DEV_NAME_MAX],
			uint32_t *port, bool port_optional, const char **why)
{
	const char *slash = strchr(s, '/');
	size_t dlen = slash ? (size_t)(slash - s) : strlen(s);
	unsigned long long v;
	char *end;

	if (!dlen)
		return fail(why, "missing device name");
	if (dlen >= IBMCG_DEV_NAME_MAX)
		return fail(why, "device name too long");
	if (!slash) {
		if (!port_optional)
			return fail(why, "expected DEV/PORT");
		*port = 0;
	} else {
		/* Digits only: strtoull would accept "+1", " 1" and "-1". */
		if (slash[1] < '0' || slash[1] > '9')
			return fail(why, "missing or malformed port number");
		errno = 0;
		v = strtoull(slash + 1, &end, 10);
		if (*end)
			return fail(why, "malformed port number");
		if (!errno && v == 0)
			return fail(why, "port 0 does not exist: ports are numbered from 1");
		if (errno || v > UINT32_MAX)
			return fail(why, "port number out of range");
		*port = v;
	}
	memcpy(dev, s, dlen);
	dev[dlen] = '\0';
	return 0;
}

int ibmcg_owner_check(const char *owner, const char **why)
{
	size_t len;

	if (!owner || !*owner)
		return fail(why, "owner must not be empty");
	len = strlen(owner);
	if (len > IB_MCG_OWNER_MAX)
		return fail(why, "owner longer than 64 bytes");
	/* As the kernel checks it: isgraph(), so no spaces. */
	for (; *owner; owner++)
		if ((unsigned char)*owner <= 0x20 || (unsigned char)*owner > 0x7e)
			return fail(why, "owner must be printable ASCII without spaces");
	return 0;
}

static const char * const join_state_names[] = {
	"full", "nonmember", "sendonly", "sendonly-full",
};

const char *ibmcg_join_state_name(uint8_t bit)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(join_state_names); i++)
		if (bit == 1U << i)
			return join_state_names[i];
	return NULL;
}

int ibmcg_join_state_parse(const char *s, uint8_t *join_state,
			   const char **why)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(join_state_names); i++) {
		if (!strcmp(s, join_state_names[i])) {
			*join_state = 1U << i;
			return 0;
		}
	}
	return fail(why, "join state must be full, nonmember, sendonly or sendonly-full");
}

/* @text into @buf (@len > 0), cut to fit as snprintf() would. */
static char *copy_out_trunc(const char *text, char *buf, size_t len)
{
	size_t n = strlen(text);

	if (n >= len)
		n = len - 1;
	memcpy(buf, text, n);
	buf[n] = '\0';
	return buf;
}

/* Names joined by ",", truncated to @len as snprintf() would. */
char *ibmcg_join_state_format(uint8_t join_state, char *buf, size_t len)
{
	char text[8 * sizeof("sendonly-full,")], *p = text;
	unsigned int i;

	if (!len)
		return buf;
	if (!(join_state & (join_state - 1)) &&
	    ibmcg_join_state_name(join_state))	/* one known state */
		return copy_out_trunc(ibmcg_join_state_name(join_state), buf,
				      len);
	if (!join_state)
		p = stpcpy(p, "none");
	for (i = 0; i < 8; i++) {
		uint8_t bit = 1U << i;
		const char *name;

		if (!(join_state & bit))
			continue;
		name = ibmcg_join_state_name(bit);
		if (p != text)
			*p++ = ',';
		if (name) {
			p = stpcpy(p, name);
		} else {
			p = stpcpy(p, "0x");
			p = put_hex16(p, bit);
		}
	}
	*p = '\0';
	return copy_out_trunc(text, buf, len);
}

static const char *lookup(const char * const *names, size_t n, unsigned int v)
{
	return v < n ? names[v] : NULL;
}

const char *ibmcg_state_name(uint8_t state)
{
	static const char * const names[] = {
		[IB_MCG_STATE_JOINING]		= "joining",
		[IB_MCG_STATE_JOINED]		= "joined",
		[IB_MCG_STATE_DETACHED]		= "detached",
		[IB_MCG_STATE_RETRY_WAIT]	= "retry-wait",
		[IB_MCG_STATE_RELEASED]		= "released",
		[IB_MCG_STATE_LINGERING]	= "lingering",
	};

	return lookup(names, ARRAY_SIZE(names), state);
}

const char *ibmcg_reason_name(uint8_t reason)
{
	static const char * const names[] = {
		[IB_MCG_REASON_NONE]		= "none",
		[IB_MCG_REASON_JOIN]		= "join",
		[IB_MCG_REASON_LEAVE]		= "leave",
		[IB_MCG_REASON_SOCKET_CLOSED]	= "socket-closed",
		[IB_MCG_REASON_DEVICE_REMOVED]	= "device-removed",
		[IB_MCG_REASON_NETDEV_DOWN]	= "netdev-down",
		[IB_MCG_REASON_NETDEV_UP]	= "netdev-up",
		[IB_MCG_REASON_UNLOAD]		= "unload",
		[IB_MCG_REASON_TIMEOUT]		= "timeout",
		[IB_MCG_REASON_SA_REJECTED]	= "sa-rejected",
		[IB_MCG_REASON_PORT_DOWN]	= "port-down",
		[IB_MCG_REASON_PKEY_MISSING]	= "pkey-missing",
		[IB_MCG_REASON_NET_RESET]	= "net-reset",
		[IB_MCG_REASON_ERROR]		= "error",
		[IB_MCG_REASON_LINGER_EXPIRED]	= "linger-expired",
		[IB_MCG_REASON_OWNER_RELEASE]	= "owner-release",
		[IB_MCG_REASON_GROUP_GONE]	= "group-gone",
		[IB_MCG_REASON_MGID_LOST]	= "mgid-lost",
		[IB_MCG_REASON_REJOIN]		= "rejoin",
		[IB_MCG_REASON_MLID_CHANGED]	= "mlid-changed",
	};

	return lookup(names, ARRAY_SIZE(names), reason);
}

const char *ibmcg_backend_name(uint8_t backend)
{
	static const char * const names[] = {
		[IB_MCG_BACKEND_NONE]	= "none",
		[IB_MCG_BACKEND_IB_SA]	= "ib-sa",
		[IB_MCG_BACKEND_ROCE]	= "roce",
	};

	return lookup(names, ARRAY_SIZE(names), backend);
}

const char *ibmcg_link_layer_name(uint8_t link_layer)
{
	/* As sysfs and rdma(8) spell them. */
	static const char * const names[] = {
		[IB_MCG_LINK_LAYER_UNSPEC]	= "unspecified",
		[IB_MCG_LINK_LAYER_INFINIBAND]	= "InfiniBand",
		[IB_MCG_LINK_LAYER_ETHERNET]	= "Ethernet",
	};

	return lookup(names, ARRAY_SIZE(names), link_layer);
}

const char *ibmcg_port_state_name(uint8_t port_state)
{
	static const char * const names[] = {
		"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER",
	};

	return lookup(names, ARRAY_SIZE(names), port_state);
}

const char *ibmcg_event_name(uint8_t cmd)
{
	static const char * const names[] = {
		[IB_MCG_CMD_GROUP_NEW_NTF]	= "group-new",
		[IB_MCG_CMD_GROUP_DEL_NTF]	= "group-del",
		[IB_MCG_CMD_GROUP_STATE_NTF]	= "group-state",
		[IB_MCG_CMD_HOLDER_NEW_NTF]	= "holder-new",
		[IB_MCG_CMD_HOLDER_DEL_NTF]	= "holder-del",
		[IB_MCG_CMD_REJOIN_WAVE_START_NTF] = "rejoin-wave-start",
		[IB_MCG_CMD_REJOIN_WAVE_END_NTF] = "rejoin-wave-end",
	};

	return lookup(names, ARRAY_SIZE(names), cmd);
}

const char *ibmcg_rate_name(uint8_t rate)
{
	/* enum ib_rate of include/rdma/ib_verbs.h */
	static const char * const names[] = {
		[0] = "port-current",
		[2] = "2.5Gbps", [5] = "5Gbps", [3] = "10Gbps", [6] = "20Gbps",
		[4] = "30Gbps", [7] = "40Gbps", [8] = "60Gbps", [9] = "80Gbps",
		[10] = "120Gbps", [11] = "14Gbps", [12] = "56Gbps",
		[13] = "112Gbps", [14] = "168Gbps", [15] = "25Gbps",
		[16] = "100Gbps", [17] = "200Gbps", [18] = "300Gbps",
		[19] = "28Gbps", [20] = "50Gbps", [21] = "400Gbps",
		[22] = "600Gbps",
	};

	return lookup(names, ARRAY_SIZE(names), rate);
}

int ibmcg_rate_parse(const char *s, uint8_t *rate, const char **why)
{
	/* In the order of speed, as the usage message lists them. */
	static const struct {
		const char *gbps;
		uint8_t rate;
	} rates[] = {
		{ "2.5", 2 }, { "5", 5 }, { "10", 3 }, { "14", 11 },
		{ "20", 6 }, { "25", 15 }, { "28", 19 }, { "30", 4 },
		{ "40", 7 }, { "50", 20 }, { "56", 12 }, { "60", 8 },
		{ "80", 9 }, { "100", 16 }, { "112", 13 }, { "120", 10 },
		{ "168", 14 }, { "200", 17 }, { "300", 18 }, { "400", 21 },
		{ "600", 22 },
	};
	size_t len, i;

	if (!s)
		s = "";
	len = strlen(s);
	/* "100Gbps" as ibmcg_rate_name() prints it */
	if (len > 4 && !strcasecmp(s + len - 4, "gbps"))
		len -= 4;
	for (i = 0; i < ARRAY_SIZE(rates); i++) {
		if (strlen(rates[i].gbps) == len &&
		    !strncmp(s, rates[i].gbps, len)) {
			*rate = rates[i].rate;
			return 0;
		}
	}
	return fail(why, "expected a rate in Gb/s: 2.5 5 10 14 20 25 28 30 40 50 56 60 80 100 112 120 168 200 300 400 600");
}

int ibmcg_mtu_to_bytes(uint8_t mtu)
{
	return mtu >= 1 && mtu <= 5 ? 128 << mtu : 0;
}

int ibmcg_mtu_from_bytes(unsigned int bytes)
{
	int mtu;

	for (mtu = 1; mtu <= 5; mtu++)
		if (bytes == 128U << mtu)
			return mtu;
	return -EINVAL;
}
