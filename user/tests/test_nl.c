// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of libibmcg's own netlink plumbing (lib/nlsock.c): requests
 * built in place, attribute lookup, the controller's family reply, and
 * the sockets against the host kernel's "nlctrl" family (always there),
 * ibmcg_connect_flags().
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ibmcg_priv.h"
#include "ktap.h"

/* The attribute at byte @off of q. */
static struct nlattr *attr_at(struct ibmcg_req *q, size_t off)
{
	return (struct nlattr *)(q->buf + off);
}

static void req_layout(void)
{
	static const uint8_t mgid[16] = { 0xff, 0x12, [15] = 7 };
	const size_t hdr = NLMSG_HDRLEN + GENL_HDRLEN;
	struct genlmsghdr *g;
	struct ibmcg_req q;

	memset(&q, 0xaa, sizeof(q));	/* padding must be written, not left */
	ibmcg__req_init(&q, 0x1234, NLM_F_ACK, IB_MCG_CMD_JOIN, 2);
	EXPECT(q.nlh.nlmsg_len == hdr);
	EXPECT(q.nlh.nlmsg_type == 0x1234);
	EXPECT(q.nlh.nlmsg_flags == (NLM_F_REQUEST | NLM_F_ACK));
	EXPECT(q.nlh.nlmsg_seq == 0 && q.nlh.nlmsg_pid == 0);
	g = (struct genlmsghdr *)(q.buf + NLMSG_HDRLEN);
	EXPECT(g->cmd == IB_MCG_CMD_JOIN && g->version == 2 && !g->reserved);
	EXPECT(!q.overflow);

	/* "ab" + NUL: 4 + 3 bytes, padded to 8 */
	ibmcg__req_put_str(&q, IB_MCG_A_DEV_NAME, "ab");
	EXPECT(q.nlh.nlmsg_len == hdr + 8);
	EXPECT(attr_at(&q, hdr)->nla_type == IB_MCG_A_DEV_NAME);
	EXPECT(attr_at(&q, hdr)->nla_len == NLA_HDRLEN + 3);
	EXPECT(!memcmp(q.buf + hdr + NLA_HDRLEN, "ab\0\0", 4));

	ibmcg_req_put_u8(&q, IB_MCG_A_JOIN_STATE, 5);
	EXPECT(q.nlh.nlmsg_len == hdr + 16);
	EXPECT(attr_at(&q, hdr + 8)->nla_len == NLA_HDRLEN + 1);
	EXPECT(!memcmp(q.buf + hdr + 12, "\5\0\0\0", 4));

	ibmcg_req_put_u16(&q, IB_MCG_A_PKEY, 0xffff);
	ibmcg_req_put_u32(&q, IB_MCG_A_PORT, 1);
	ibmcg__req_put(&q, IB_MCG_A_MGID, mgid, sizeof(mgid));
	ibmcg__req_put(&q, IB_MCG_A_REPLY_BRIEF, NULL, 0);	/* a flag */
	EXPECT(q.nlh.nlmsg_len == hdr + 16 + 8 + 8 + 20 + 4);
	EXPECT(attr_at(&q, hdr + 16)->nla_len == NLA_HDRLEN + 2);
	EXPECT(attr_at(&q, hdr + 24)->nla_type == IB_MCG_A_PORT);
	EXPECT(attr_at(&q, hdr + 32)->nla_len == NLA_HDRLEN + 16);
	EXPECT(!memcmp(q.buf + hdr + 36, mgid, 16));
	EXPECT(attr_at(&q, hdr + 52)->nla_type == IB_MCG_A_REPLY_BRIEF);
	EXPECT(attr_at(&q, hdr + 52)->nla_len == NLA_HDRLEN);
	EXPECT(!q.overflow);
}

static void req_overflow(void)
{
	char big[200];
	struct ibmcg_req q;
	int i;

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ibmcg__req_init(&q, 0x20, 0, IB_MCG_CMD_JOIN, 2);
	for (i = 0; i < 2; i++)
		ibmcg__req_put_str(&q, IB_MCG_A_OWNER, big);
	EXPECT(!q.overflow);
	ibmcg__req_put_str(&q, IB_MCG_A_OWNER, big);	/* past 512 bytes */
	EXPECT(q.overflow);
	EXPECT(q.nlh.nlmsg_len <= sizeof(q.buf));
	ibmcg_req_put_u8(&q, IB_MCG_A_SL, 1);	/* stays overflowed */
	EXPECT(q.overflow);
	ibmcg__req_init(&q, 0x20, 0, IB_MCG_CMD_JOIN, 2);
	ibmcg__req_put(&q, IB_MCG_A_MGID, big, 1 << 20);
	EXPECT(q.overflow);
}

static void attr_find(void)
{
	struct ibmcg_req q;
	const struct nlattr *head;
	struct nlattr *a;
	uint64_t v = 0x0102030405060708ULL, got = 0;
	int len;

	ibmcg__req_init(&q, 0x20, 0, IB_MCG_CMD_JOIN, 2);
	ibmcg_req_put_u32(&q, IB_MCG_A_PORT, 2);
	ibmcg__req_put(&q, IB_MCG_A_GROUP_ID | NLA_F_NET_BYTEORDER, &v,
		      sizeof(v));
	ibmcg_req_put_u32(&q, IB_MCG_A_QKEY, 9);
	EXPECT(ibmcg__genl_hdr(&q.nlh, &head, &len) != NULL);
	EXPECT(len == 8 + 12 + 8);
	a = ibmcg__nla_find(head, len, IB_MCG_A_GROUP_ID);	/* flags masked */
	EXPECT(a && !ibmcg__nla_get_u64(a, &got) && got == v);
	a = ibmcg__nla_find(head, len, IB_MCG_A_PORT);
	EXPECT(a && ibmcg__nla_get_u64(a, &got) == -EPROTO);	/* 4 bytes */
	EXPECT(ibmcg__nla_get_u64(NULL, &got) == -EPROTO);
	EXPECT(!ibmcg__nla_find(head, len, IB_MCG_A_OWNER));
	/* a length that runs past the end stops the walk */
	((struct nlattr *)head)->nla_len = 200;
	EXPECT(!ibmcg__nla_find(head, len, IB_MCG_A_QKEY));
	/* no room for a genetlink header */
	q.nlh.nlmsg_len = NLMSG_HDRLEN + 2;
	EXPECT(ibmcg__genl_hdr(&q.nlh, &head, &len) == NULL);
}

/*
 * A controller reply (CTRL_CMD_NEWFAMILY) as the kernel builds it: id,
 * name, version, maxattr, and multicast groups, each a nest of its name
 * and id.
 */
static void family_reply(struct ibmcg_req *q, bool with_id, bool events,
			 bool short_version)
{
	uint16_t id = 0x1f;
	uint32_t v;
	size_t groups, grp;

	ibmcg__req_init(q, GENL_ID_CTRL, 0, CTRL_CMD_NEWFAMILY, 2);
	if (with_id)
		ibmcg_req_put_u16(q, CTRL_ATTR_FAMILY_ID, id);
	ibmcg__req_put_str(q, CTRL_ATTR_FAMILY_NAME, IB_MCG_GENL_NAME);
	if (short_version)
		ibmcg_req_put_u16(q, CTRL_ATTR_VERSION, 2);
	else
		ibmcg_req_put_u32(q, CTRL_ATTR_VERSION, 2);
	ibmcg_req_put_u32(q, CTRL_ATTR_MAXATTR, IB_MCG_A_MAX);
	/* the nests: their lengths are fixed up once their items are in */
	groups = q->nlh.nlmsg_len;
	ibmcg__req_put(q, CTRL_ATTR_MCAST_GROUPS | NLA_F_NESTED, NULL, 0);
	grp = q->nlh.nlmsg_len;
	ibmcg__req_put(q, 1 | NLA_F_NESTED, NULL, 0);
	v = 7;
	ibmcg_req_put_u32(q, CTRL_ATTR_MCAST_GRP_ID, v);
	ibmcg__req_put_str(q, CTRL_ATTR_MCAST_GRP_NAME, "other");
	attr_at(q, grp)->nla_len = q->nlh.nlmsg_len - grp;
	grp = q->nlh.nlmsg_len;
	ibmcg__req_put(q, 2 | NLA_F_NESTED, NULL, 0);
	ibmcg__req_put_str(q, CTRL_ATTR_MCAST_GRP_NAME,
			  events ? IB_MCG_MCGRP_EVENTS : "eventsx");
	v = 9;
	ibmcg_req_put_u32(q, CTRL_ATTR_MCAST_GRP_ID, v);
	attr_at(q, grp)->nla_len = q->nlh.nlmsg_len - grp;
	attr_at(q, groups)->nla_len = q->nlh.nlmsg_len - groups;
}

static void family_parse(void)
{
	struct ibmcg_family fi;
	struct ibmcg_req q;

	family_reply(&q, true, true, false);
	EXPECT(!q.overflow);
	EXPECT(ibmcg__parse_family(&q.nlh, IB_MCG_MCGRP_EVENTS, &fi) == 0);
	EXPECT(fi.id == 0x1f);
	EXPECT(fi.version == 2);
	EXPECT(fi.maxattr == IB_MCG_A_MAX);
	EXPECT(fi.events_grp == 9);
	EXPECT(ibmcg__parse_family(&q.nlh, "other", &fi) == 0);
	EXPECT(fi.events_grp == 7);
}

static void family_parse_rejects(void)
{
	struct ibmcg_family fi;
	struct ibmcg_req q;

	/* a group whose name only starts with "events" is not it */
	family_reply(&q, true, false, false);
	EXPECT(ibmcg__parse_family(&q.nlh, IB_MCG_MCGRP_EVENTS, &fi) == 0);
	EXPECT(fi.id == 0x1f && fi.events_grp == -1);
	/* no family id */
	family_reply(&q, false, true, false);
	EXPECT(ibmcg__parse_family(&q.nlh, IB_MCG_MCGRP_EVENTS, &fi) ==
	       -EPROTO);
	EXPECT(fi.id == -1);
	/* a version shorter than its u32 */
	family_reply(&q, true, true, true);
	EXPECT(ibmcg__parse_family(&q.nlh, IB_MCG_MCGRP_EVENTS, &fi) ==
	       -EPROTO);
	/* no genetlink header */
	q.nlh.nlmsg_len = NLMSG_HDRLEN;
	EXPECT(ibmcg__parse_family(&q.nlh, IB_MCG_MCGRP_EVENTS, &fi) ==
	       -EPROTO);
}

static void nlmsg_walk(void)
{
	struct nlmsghdr m[3];
	struct nlmsghdr *nlh;
	int rem = sizeof(m), n = 0;

	memset(m, 0, sizeof(m));
	m[0].nlmsg_len = sizeof(m[0]);
	m[1].nlmsg_len = sizeof(m[1]);
	m[2].nlmsg_len = sizeof(m[2]) + 1;	/* runs past the datagram */
	for (nlh = m; ibmcg_nlmsg_ok(nlh, rem); nlh = ibmcg_nlmsg_next(nlh, &rem))
		n++;
	EXPECT(n == 2);
	m[0].nlmsg_len = 4;			/* shorter than its header */
	EXPECT(!ibmcg_nlmsg_ok(m, sizeof(m)));
}

/*
 * The kernel's controller: GETFAMILY "nlctrl" with a request of ours,
 * its reply parsed; the socket's port id is its bound address, and a
 * second socket has another; joining the controller's "notify" group.
 */
static void kernel_nlctrl(void)
{
	struct sockaddr_nl sa;
	socklen_t salen = sizeof(sa);
	struct ibmcg_family fi;
	struct ibmcg_req q;
	uint32_t port, port2 = 0;
	char buf[8192];
	int fd, fd2;
	ssize_t n;

	fd = ibmcg__nl_open(false, &port);
	if (fd < 0) {
		ktap_skip("no generic netlink here");
		return;
	}
	EXPECT(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	EXPECT(!(fcntl(fd, F_GETFL) & O_NONBLOCK));
	EXPECT(!getsockname(fd, (struct sockaddr *)&sa, &salen));
	EXPECT(sa.nl_pid == port && port != 0);
	fd2 = ibmcg__nl_open(true, &port2);
	EXPECT(fd2 >= 0 && port2 != port);
	EXPECT(fcntl(fd2, F_GETFL) & O_NONBLOCK);
	EXPECT(recv(fd2, buf, sizeof(buf), 0) < 0 && errno == EAGAIN);

	ibmcg__req_init(&q, GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY, 1);
	ibmcg__req_put_str(&q, CTRL_ATTR_FAMILY_NAME, "nlctrl");
	q.nlh.nlmsg_seq = 42;
	q.nlh.nlmsg_pid = port;
	EXPECT(send(fd, q.buf, q.nlh.nlmsg_len, 0) == (ssize_t)q.nlh.nlmsg_len);
	n = recv(fd, buf, sizeof(buf), 0);
	EXPECT(ibmcg_nlmsg_ok((struct nlmsghdr *)buf, n));
	EXPECT(((struct nlmsghdr *)buf)->nlmsg_seq == 42);
	EXPECT(((struct nlmsghdr *)buf)->nlmsg_type == GENL_ID_CTRL);
	EXPECT(ibmcg__parse_family((struct nlmsghdr *)buf, "notify", &fi) == 0);
	EXPECT(fi.id == GENL_ID_CTRL);
	EXPECT(fi.events_grp > 0);
	printf("# nlctrl: version %d maxattr %d notify %d\n", fi.version, fi.maxattr, fi.events_grp);
	if (fi.events_grp > 0)
		EXPECT(ibmcg__nl_add_membership(fd2, fi.events_grp) == 0);
	EXPECT(ibmcg__nl_add_membership(fd2, 0x7fffffff) < 0);
	close(fd);
	if (fd2 >= 0)
		close(fd2);
}

/*
 * ibmcg_connect_flags(): unknown flags refused before any socket; with
 * NOLOAD, found in a dump or -ENOENT (the host has no ib_mcgroups).
 */
static void connect_flags(void)
{
	struct ibmcg *h = ibmcg_alloc();
	int err;

	EXPECT(h != NULL);
	if (!h)
		return;
	EXPECT(ibmcg_connect_flags(h, 0x2) == -EINVAL);
	EXPECT(ibmcg_errmsg(h) && strstr(ibmcg_errmsg(h), "0x2"));
	EXPECT(ibmcg_protocol_version(h) == -ENOTCONN);
	err = ibmcg_connect_flags(h, IBMCG_CONNECT_NOLOAD);
	if (err == -ENOENT)
		EXPECT(strstr(ibmcg_strerror(h, err), "not loaded") != NULL);
	else
		EXPECT(err == 0 && ibmcg_protocol_version(h) >= 1);
	printf("# NOLOAD connect on this host: %d\n", err);
	ibmcg_close(h);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(req_layout),
	KTAP_CASE(req_overflow),
	KTAP_CASE(attr_find),
	KTAP_CASE(family_parse),
	KTAP_CASE(family_parse_rejects),
	KTAP_CASE(nlmsg_walk),
	KTAP_CASE(kernel_nlctrl),
	KTAP_CASE(connect_flags),
};

KTAP_MAIN(cases)
