// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The ib_mcgroups netlink family, spoken raw: every malformed or invalid
 * request is refused with an errno and an extack message and changes
 * nothing; a valid JOIN's reply carries the member record; reads work
 * without privileges and JOIN and REJOIN do not; without CAP_NET_ADMIN
 * only the unprivileged policy (bound holds of "uid:N") passes, hostile
 * requests included.
 *
 * Needs rxe0 (port 1) and the module; FIXTURE_SETUP makes them with
 * lib.sh. No libnl on purpose: the requests here are ones a library
 * would refuse to build.
 */
#include <errno.h>
#include <stdbool.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "mcg_test.h"
#include "ib_mcgroups.h"

#define DEV "rxe0"
#define BUFSZ 8192

struct req {
	union {
		struct nlmsghdr nlh;
		char buf[BUFSZ];
	};
};

static void req_init(struct req *r, uint16_t family, uint8_t cmd,
		     uint16_t flags)
{
	struct genlmsghdr *g;

	memset(r, 0, sizeof(*r));
	r->nlh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	r->nlh.nlmsg_type = family;
	r->nlh.nlmsg_flags = NLM_F_REQUEST | flags;
	r->nlh.nlmsg_seq = 1;
	g = NLMSG_DATA(&r->nlh);
	g->cmd = cmd;
	g->version = IB_MCG_GENL_VERSION;
}

/* Appends an attribute; @hdr_len lets a test lie about the length. */
static void put_raw(struct req *r, uint16_t type, const void *data,
		    uint16_t len, uint16_t hdr_len)
{
	struct nlattr *a = (void *)(r->buf + NLMSG_ALIGN(r->nlh.nlmsg_len));

	a->nla_type = type;
	a->nla_len = hdr_len;
	memcpy(a + 1, data, len);
	r->nlh.nlmsg_len = NLMSG_ALIGN(r->nlh.nlmsg_len) +
			   NLA_ALIGN(NLA_HDRLEN + len);
}

static void put(struct req *r, uint16_t type, const void *data, uint16_t len)
{
	put_raw(r, type, data, len, NLA_HDRLEN + len);
}

static void put_u8(struct req *r, uint16_t type, uint8_t v)
{
	put(r, type, &v, 1);
}

static void put_u32(struct req *r, uint16_t type, uint32_t v)
{
	put(r, type, &v, 4);
}

static void put_str(struct req *r, uint16_t type, const char *s)
{
	put(r, type, s, strlen(s) + 1);
}

static const uint8_t mgid_239_1_1_9[16] = {
	[10] = 0xff, [11] = 0xff, [12] = 239, [13] = 1, [14] = 1, [15] = 9 };

struct nl {
	int fd;
	uint16_t family;
	char msg[256];		/* extack message of the last error */
	char reply[BUFSZ];	/* the last non-error message received */
	int reply_len;
};

static int nl_open(struct nl *nl)
{
	int one = 1;

	memset(nl, 0, sizeof(*nl));
	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (nl->fd < 0)
		return -errno;
	setsockopt(nl->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nl->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	return 0;
}

static void parse_extack(struct nl *nl, struct nlmsghdr *h)
{
	struct nlmsgerr *e = NLMSG_DATA(h);
	int off = sizeof(*e), len = h->nlmsg_len - NLMSG_HDRLEN;
	struct nlattr *a;

	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	while (off + NLA_HDRLEN <= len) {
		a = (void *)((char *)e + off);
		if (a->nla_len < NLA_HDRLEN)
			return;
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG)
			snprintf(nl->msg, sizeof(nl->msg), "%s",
				 (char *)(a + 1));
		off += NLA_ALIGN(a->nla_len);
	}
}

/* A dump that failed ends in NLMSG_DONE: an int errno, then the TLVs. */
static void parse_done_extack(struct nl *nl, struct nlmsghdr *h)
{
	int off = sizeof(int), len = h->nlmsg_len - NLMSG_HDRLEN;
	char *p = NLMSG_DATA(h);
	struct nlattr *a;

	while (off + NLA_HDRLEN <= len) {
		a = (void *)(p + off);
		if (a->nla_len < NLA_HDRLEN)
			return;
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG)
			snprintf(nl->msg, sizeof(nl->msg), "%s",
				 (char *)(a + 1));
		off += NLA_ALIGN(a->nla_len);
	}
}

/*
 * Sends @r and reads until the ack, NLMSG_DONE or an error. Returns the
 * negative errno of the ack, else the number of data messages seen.
 */
static int nl_talk(struct nl *nl, struct req *r)
{
	static char buf[65536];
	int n, count = 0;

	nl->msg[0] = '\0';
	if (send(nl->fd, r->buf, r->nlh.nlmsg_len, 0) < 0)
		return -errno;
	for (;;) {
		struct nlmsghdr *h;

		n = recv(nl->fd, buf, sizeof(buf), 0);
		if (n < 0)
			return -errno;
		for (h = (void *)buf; NLMSG_OK(h, (unsigned int)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE) {
				int err = *(int *)NLMSG_DATA(h);

				if (err < 0)
					parse_done_extack(nl, h);
				return err < 0 ? err : count;
			}
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);

				parse_extack(nl, h);
				return e->error ? e->error : count;
			}
			count++;
			nl->reply_len = h->nlmsg_len < BUFSZ ? h->nlmsg_len : BUFSZ;
			memcpy(nl->reply, h, nl->reply_len);
		}
	}
}

static int resolve_family(struct nl *nl)
{
	struct req r;
	struct nlattr *a;
	int off, err;

	req_init(&r, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, NLM_F_ACK);
	put_str(&r, CTRL_ATTR_FAMILY_NAME, IB_MCG_GENL_NAME);
	err = nl_talk(nl, &r);
	if (err < 0)
		return err;
	for (off = NLMSG_LENGTH(GENL_HDRLEN); off + NLA_HDRLEN <= nl->reply_len;
	     off += NLA_ALIGN(a->nla_len)) {
		a = (void *)(nl->reply + off);
		if (a->nla_len < NLA_HDRLEN)
			break;
		if (a->nla_type == CTRL_ATTR_FAMILY_ID) {
			nl->family = *(uint16_t *)(a + 1);
			return 0;
		}
	}
	return -ENOENT;
}

/* The attribute @type of the last reply, or NULL. */
static struct nlattr *reply_attr(struct nl *nl, int type)
{
	int off = NLMSG_LENGTH(GENL_HDRLEN);
	struct nlattr *a;

	for (; off + NLA_HDRLEN <= nl->reply_len; off += NLA_ALIGN(a->nla_len)) {
		a = (void *)(nl->reply + off);
		if (a->nla_len < NLA_HDRLEN)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
	}
	return NULL;
}

static int count_groups(struct nl *nl)
{
	struct req r;

	req_init(&r, nl->family, IB_MCG_CMD_GROUP_GET, NLM_F_DUMP);
	return nl_talk(nl, &r);
}

/* A JOIN of 239.1.1.9 on rxe0/1 by "policy", minus what @skip names. */
enum { NO_DEV = 1, NO_PORT = 2, NO_MGID = 4, NO_OWNER = 8 };

static void join_req(struct req *r, uint16_t family, int skip)
{
	req_init(r, family, IB_MCG_CMD_JOIN, NLM_F_ACK);
	if (!(skip & NO_DEV))
		put_str(r, IB_MCG_A_DEV_NAME, DEV);
	if (!(skip & NO_PORT))
		put_u32(r, IB_MCG_A_PORT, 1);
	if (!(skip & NO_MGID))
		put(r, IB_MCG_A_MGID, mgid_239_1_1_9, 16);
	if (!(skip & NO_OWNER))
		put_str(r, IB_MCG_A_OWNER, "policy");
}

FIXTURE(mcg) {
	struct nl nl;
};

FIXTURE_SETUP(mcg)
{
	ASSERT_EQ(0, mcg_env_setup());
	ASSERT_EQ(0, nl_open(&self->nl));
	ASSERT_EQ(0, resolve_family(&self->nl));
}

FIXTURE_TEARDOWN(mcg)
{
	close(self->nl.fd);
}

/* A bad request: how it is built, the errno and the message expected. */
FIXTURE_VARIANT(bad) {
	void (*build)(struct req *r, uint16_t family);
	int err;
	const char *msg;	/* substring of the extack message */
};

FIXTURE(bad) {
	struct nl nl;
};

FIXTURE_SETUP(bad)
{
	ASSERT_EQ(0, mcg_env_setup());
	ASSERT_EQ(0, nl_open(&self->nl));
	ASSERT_EQ(0, resolve_family(&self->nl));
}

FIXTURE_TEARDOWN(bad)
{
	close(self->nl.fd);
}

#define BAD(name, e, m)							\
	static void build_##name(struct req *r, uint16_t family);	\
	FIXTURE_VARIANT_ADD(bad, name) {				\
		.build = build_##name, .err = e, .msg = m,		\
	};								\
	static void build_##name(struct req *r, uint16_t family)

BAD(missing_mgid, EINVAL, "MGID is required")
{
	join_req(r, family, NO_MGID);
}

BAD(missing_owner, EINVAL, "owner is required")
{
	join_req(r, family, NO_OWNER);
}

BAD(missing_device, EINVAL, "device name or index is required")
{
	join_req(r, family, NO_DEV);
}

BAD(missing_port, EINVAL, "port is required")
{
	join_req(r, family, NO_PORT);
}

BAD(port_zero, EINVAL, "port 0 does not exist")
{
	join_req(r, family, NO_PORT);
	put_u32(r, IB_MCG_A_PORT, 0);
}

BAD(port_out_of_range, ENODEV, "port number out of range")
{
	join_req(r, family, NO_PORT);
	put_u32(r, IB_MCG_A_PORT, 2);
}

BAD(unknown_device, ENODEV, "no such RDMA device")
{
	join_req(r, family, NO_DEV);
	put_str(r, IB_MCG_A_DEV_NAME, "nosuchdev0");
}

BAD(device_name_too_long, EINVAL, "device name is empty, too long")
{
	join_req(r, family, NO_DEV);
	put_str(r, IB_MCG_A_DEV_NAME,
		"a_device_name_that_is_longer_than_sixty_four_bytes_is_not_a_name");
}

BAD(device_name_index_mismatch, EINVAL, "name different devices")
{
	join_req(r, family, 0);
	put_u32(r, IB_MCG_A_DEV_INDEX, 0x7ffffff0);
}

BAD(mgid_short, ERANGE, "size out of range")
{
	join_req(r, family, NO_MGID);
	put(r, IB_MCG_A_MGID, mgid_239_1_1_9, 15);
}

BAD(mgid_unicast_ipv4, EINVAL, "not an IPv4 multicast address")
{
	uint8_t m[16] = { [10] = 0xff, [11] = 0xff, 10, 0, 0, 1 };

	join_req(r, family, NO_MGID);
	put(r, IB_MCG_A_MGID, m, 16);
}

BAD(mgid_unicast_ipv6, EINVAL, "not a multicast GID")
{
	uint8_t m[16] = { 0xfe, 0x80, [15] = 1 };

	join_req(r, family, NO_MGID);
	put(r, IB_MCG_A_MGID, m, 16);
}

BAD(owner_too_long, EINVAL, "owner must be 1 to 64 printable")
{
	join_req(r, family, NO_OWNER);
	put_str(r, IB_MCG_A_OWNER,
		"an-owner-name-that-is-sixty-five-bytes-long-which-is-one-too-many");
}

BAD(owner_empty, EINVAL, "owner must be 1 to 64 printable")
{
	join_req(r, family, NO_OWNER);
	put_str(r, IB_MCG_A_OWNER, "");
}

BAD(owner_with_space, EINVAL, "owner must be 1 to 64 printable")
{
	join_req(r, family, NO_OWNER);
	put_str(r, IB_MCG_A_OWNER, "job 42");
}

BAD(owner_embedded_nul, EINVAL, "owner must be 1 to 64 printable")
{
	join_req(r, family, NO_OWNER);
	put(r, IB_MCG_A_OWNER, "job\0x", 6);
}

BAD(join_state_two_bits, EINVAL, "join state must be exactly one of")
{
	join_req(r, family, 0);
	put_u8(r, IB_MCG_A_JOIN_STATE, 3);
}

BAD(join_state_zero, EINVAL, "join state must be exactly one of")
{
	join_req(r, family, 0);
	put_u8(r, IB_MCG_A_JOIN_STATE, 0);
}

BAD(join_state_unknown_bit, EINVAL, "join state must be exactly one of")
{
	join_req(r, family, 0);
	put_u8(r, IB_MCG_A_JOIN_STATE, 0x10);
}

BAD(flags_unknown_bit, EINVAL, "")
{
	join_req(r, family, 0);
	put_u32(r, IB_MCG_A_FLAGS, 0x80);
}

BAD(port_wrong_size, EINVAL, "")
{
	uint16_t p = 1;

	join_req(r, family, NO_PORT);
	put(r, IB_MCG_A_PORT, &p, 2);
}

BAD(unknown_attribute, EINVAL, "")
{
	join_req(r, family, 0);
	put_u32(r, 200, 1);
}

BAD(attribute_of_another_op, EINVAL, "")
{
	join_req(r, family, 0);
	put_u32(r, IB_MCG_A_MLID, 0xc001);
}

BAD(truncated_attribute, EINVAL, "")
{
	join_req(r, family, 0);
	put_raw(r, IB_MCG_A_QKEY, "\1\2\3\4", 4, 64);
}

BAD(nested_flag_on_scalar, EINVAL, "")
{
	join_req(r, family, NO_PORT);
	put_u32(r, IB_MCG_A_PORT | NLA_F_NESTED, 1);
}

BAD(leave_group_not_held, ENOENT, "no such group on this port")
{
	join_req(r, family, 0);
	((struct genlmsghdr *)NLMSG_DATA(&r->nlh))->cmd = IB_MCG_CMD_LEAVE;
}

BAD(group_get_not_held, ENOENT, "no such group on this port")
{
	req_init(r, family, IB_MCG_CMD_GROUP_GET, NLM_F_ACK);
	put_str(r, IB_MCG_A_DEV_NAME, DEV);
	put_u32(r, IB_MCG_A_PORT, 1);
	put(r, IB_MCG_A_MGID, mgid_239_1_1_9, 16);
}

BAD(rejoin_without_mgid, EINVAL, "MGID is required")
{
	req_init(r, family, IB_MCG_CMD_REJOIN, NLM_F_ACK);
	put_str(r, IB_MCG_A_DEV_NAME, DEV);
	put_u32(r, IB_MCG_A_PORT, 1);
}

BAD(rejoin_on_roce, EOPNOTSUPP, "REJOIN is for InfiniBand ports")
{
	req_init(r, family, IB_MCG_CMD_REJOIN, NLM_F_ACK);
	put_str(r, IB_MCG_A_DEV_NAME, DEV);
	put_u32(r, IB_MCG_A_PORT, 1);
	put(r, IB_MCG_A_MGID, mgid_239_1_1_9, 16);
}

BAD(rejoin_with_owner, EINVAL, "Unsupported attribute")
{
	req_init(r, family, IB_MCG_CMD_REJOIN, NLM_F_ACK);
	put_str(r, IB_MCG_A_DEV_NAME, DEV);
	put_u32(r, IB_MCG_A_PORT, 1);
	put(r, IB_MCG_A_MGID, mgid_239_1_1_9, 16);
	put_str(r, IB_MCG_A_OWNER, "policy");
}

BAD(dump_port_without_device, EINVAL, "a port filter needs a device")
{
	req_init(r, family, IB_MCG_CMD_GROUP_GET, NLM_F_DUMP);
	put_u32(r, IB_MCG_A_PORT, 1);
}

BAD(group_get_dump_of_a_group_not_held, ENOENT, "no such group on this port")
{
	req_init(r, family, IB_MCG_CMD_GROUP_GET, NLM_F_DUMP);
	put_str(r, IB_MCG_A_DEV_NAME, DEV);
	put_u32(r, IB_MCG_A_PORT, 1);
	put(r, IB_MCG_A_MGID, mgid_239_1_1_9, 16);
}

BAD(group_get_dump_of_a_group_without_port, EINVAL, "port is required")
{
	req_init(r, family, IB_MCG_CMD_GROUP_GET, NLM_F_DUMP);
	put_str(r, IB_MCG_A_DEV_NAME, DEV);
	put(r, IB_MCG_A_MGID, mgid_239_1_1_9, 16);
}

BAD(owner_release_dump_bad_owner, EINVAL, "owner must be")
{
	req_init(r, family, IB_MCG_CMD_OWNER_RELEASE, NLM_F_DUMP);
	put_str(r, IB_MCG_A_OWNER, "job 42");
}

BAD(owner_release_dump_no_owner, EINVAL, "owner is required")
{
	req_init(r, family, IB_MCG_CMD_OWNER_RELEASE, NLM_F_DUMP);
	put_str(r, IB_MCG_A_DEV_NAME, DEV);
}

BAD(owner_release_dump_no_such_device, ENODEV, "no such RDMA device")
{
	req_init(r, family, IB_MCG_CMD_OWNER_RELEASE, NLM_F_DUMP);
	put_str(r, IB_MCG_A_OWNER, "policy");
	put_str(r, IB_MCG_A_DEV_NAME, "nosuchdev0");
}

BAD(owner_release_dump_port_without_device, EINVAL,
    "a port filter needs a device")
{
	req_init(r, family, IB_MCG_CMD_OWNER_RELEASE, NLM_F_DUMP);
	put_str(r, IB_MCG_A_OWNER, "policy");
	put_u32(r, IB_MCG_A_PORT, 1);
}

/*
 * A dump accepts the attributes it reads (its policy; the do's where the
 * kernel has no split ops, which is the same set): any other is refused
 * by the kernel's validation, before the dump starts.
 */
BAD(group_get_dump_with_owner, EINVAL, "Unsupported attribute")
{
	req_init(r, family, IB_MCG_CMD_GROUP_GET, NLM_F_DUMP);
	put_str(r, IB_MCG_A_DEV_NAME, DEV);
	put_str(r, IB_MCG_A_OWNER, "policy");
}

BAD(port_get_dump_with_mgid, EINVAL, "Unsupported attribute")
{
	req_init(r, family, IB_MCG_CMD_PORT_GET, NLM_F_DUMP);
	put_str(r, IB_MCG_A_DEV_NAME, DEV);
	put(r, IB_MCG_A_MGID, mgid_239_1_1_9, 16);
}

BAD(owner_release_dump_with_mgid, EINVAL, "Unsupported attribute")
{
	req_init(r, family, IB_MCG_CMD_OWNER_RELEASE, NLM_F_DUMP);
	put_str(r, IB_MCG_A_OWNER, "policy");
	put(r, IB_MCG_A_MGID, mgid_239_1_1_9, 16);
}

BAD(owner_release_dump_with_join_state, EINVAL, "Unsupported attribute")
{
	req_init(r, family, IB_MCG_CMD_OWNER_RELEASE, NLM_F_DUMP);
	put_str(r, IB_MCG_A_OWNER, "policy");
	put_u8(r, IB_MCG_A_JOIN_STATE, 1);
}

/* Only JOIN knows IB_MCG_A_REPLY_BRIEF, only GROUP_GET IB_MCG_A_LIST_BRIEF. */
BAD(leave_reply_brief, EINVAL, "Unsupported attribute")
{
	join_req(r, family, 0);
	((struct genlmsghdr *)NLMSG_DATA(&r->nlh))->cmd = IB_MCG_CMD_LEAVE;
	put(r, IB_MCG_A_REPLY_BRIEF, NULL, 0);
}

BAD(join_list_brief, EINVAL, "Unsupported attribute")
{
	join_req(r, family, 0);
	put(r, IB_MCG_A_LIST_BRIEF, NULL, 0);
}

BAD(port_dump_list_brief, EINVAL, "Unsupported attribute")
{
	req_init(r, family, IB_MCG_CMD_PORT_GET, NLM_F_DUMP);
	put(r, IB_MCG_A_LIST_BRIEF, NULL, 0);
}

/* A flag carries no value. */
BAD(group_dump_list_brief_with_value, ERANGE,
    "Attribute failed policy validation")
{
	req_init(r, family, IB_MCG_CMD_GROUP_GET, NLM_F_DUMP);
	put_u32(r, IB_MCG_A_LIST_BRIEF, 1);
}

TEST_F(bad, refused_without_change)
{
	long joins = mcg_sysfs_counter(DEV, "joins");
	long errors = mcg_sysfs_counter(DEV, "join_errors");
	struct req r;
	int before, err;

	before = count_groups(&self->nl);
	ASSERT_LE(0, before);
	variant->build(&r, self->nl.family);
	err = nl_talk(&self->nl, &r);
	TH_LOG("errno %d, extack \"%s\"", -err, self->nl.msg);
	EXPECT_EQ(-variant->err, err);
	EXPECT_NE('\0', self->nl.msg[0]);
	EXPECT_NE(NULL, strstr(self->nl.msg, variant->msg));
	EXPECT_EQ(before, count_groups(&self->nl));
	EXPECT_EQ(joins, mcg_sysfs_counter(DEV, "joins"));
	EXPECT_EQ(errors, mcg_sysfs_counter(DEV, "join_errors"));
}

TEST_F(mcg, join_reply_carries_member_record)
{
	struct nlattr *a;
	struct req r;

	join_req(&r, self->nl.family, 0);
	ASSERT_EQ(1, nl_talk(&self->nl, &r));
	a = reply_attr(&self->nl, IB_MCG_A_MGID);
	ASSERT_NE(NULL, a);
	EXPECT_EQ(0, memcmp(a + 1, mgid_239_1_1_9, 16));
	a = reply_attr(&self->nl, IB_MCG_A_STATE);
	ASSERT_NE(NULL, a);
	EXPECT_EQ(IB_MCG_STATE_JOINED, *(uint8_t *)(a + 1));
	a = reply_attr(&self->nl, IB_MCG_A_QKEY);
	ASSERT_NE(NULL, a);
	EXPECT_EQ((uint32_t)IB_MCG_DEFAULT_QKEY, *(uint32_t *)(a + 1));
	a = reply_attr(&self->nl, IB_MCG_A_PKEY);
	ASSERT_NE(NULL, a);
	EXPECT_EQ(0xffff, *(uint16_t *)(a + 1));
	a = reply_attr(&self->nl, IB_MCG_A_MTU);
	ASSERT_NE(NULL, a);
	EXPECT_LE(1, *(uint8_t *)(a + 1));
	a = reply_attr(&self->nl, IB_MCG_A_HOP_LIMIT);
	ASSERT_NE(NULL, a);
	EXPECT_EQ(64, *(uint8_t *)(a + 1));
	a = reply_attr(&self->nl, IB_MCG_A_BACKEND);
	ASSERT_NE(NULL, a);
	EXPECT_EQ(IB_MCG_BACKEND_ROCE, *(uint8_t *)(a + 1));

	/* A different Q_Key for the same group is refused. */
	join_req(&r, self->nl.family, NO_OWNER);
	put_str(&r, IB_MCG_A_OWNER, "other");
	put_u32(&r, IB_MCG_A_QKEY, 0x11111111);
	EXPECT_EQ(-EINVAL, nl_talk(&self->nl, &r));
	EXPECT_NE(NULL, strstr(self->nl.msg, "different Q_Key"));

	join_req(&r, self->nl.family, 0);
	((struct genlmsghdr *)NLMSG_DATA(&r.nlh))->cmd = IB_MCG_CMD_LEAVE;
	ASSERT_EQ(1, nl_talk(&self->nl, &r));
	a = reply_attr(&self->nl, IB_MCG_A_STATE);
	ASSERT_NE(NULL, a);
	EXPECT_EQ(IB_MCG_STATE_RELEASED, *(uint8_t *)(a + 1));
}

/* Attribute @type of the first holder in the last reply, or NULL. */
static struct nlattr *reply_holder_attr(struct nl *nl, int type)
{
	struct nlattr *list = reply_attr(nl, IB_MCG_A_HOLDERS), *ho, *a;
	int o1, o2;

	if (!list)
		return NULL;
	for (o1 = NLA_HDRLEN; o1 + NLA_HDRLEN <= list->nla_len;
	     o1 += NLA_ALIGN(ho->nla_len)) {
		ho = (void *)((char *)list + o1);
		if (ho->nla_len < NLA_HDRLEN)
			break;
		for (o2 = NLA_HDRLEN; o2 + NLA_HDRLEN <= ho->nla_len;
		     o2 += NLA_ALIGN(a->nla_len)) {
			a = (void *)((char *)ho + o2);
			if (a->nla_len < NLA_HDRLEN)
				break;
			if ((a->nla_type & NLA_TYPE_MASK) == type)
				return a;
		}
		return NULL;
	}
	return NULL;
}

/* The hold id of the first holder in the last reply's holders, or 0. */
static uint64_t reply_hold_id(struct nl *nl)
{
	struct nlattr *a = reply_holder_attr(nl, IB_MCG_HOLDER_A_ID);

	return a ? *(uint64_t *)(a + 1) : 0;
}

/* A GROUP_GET of 239.1.1.9 on rxe0/1, a dump of it alone with @dump. */
static void group_get_req(struct req *r, uint16_t family, bool dump,
			  bool brief)
{
	req_init(r, family, IB_MCG_CMD_GROUP_GET, dump ? NLM_F_DUMP : NLM_F_ACK);
	put_str(r, IB_MCG_A_DEV_NAME, DEV);
	put_u32(r, IB_MCG_A_PORT, 1);
	put(r, IB_MCG_A_MGID, mgid_239_1_1_9, 16);
	if (brief)
		put(r, IB_MCG_A_LIST_BRIEF, NULL, 0);
}

/*
 * IB_MCG_A_LIST_BRIEF: GROUP_GET (do and dump) sends the group as a
 * listing shows it: what the full reply has, less the group id, the member
 * record (RoCE) and the holders' ages and ids; smaller.
 */
TEST_F(mcg, group_get_list_brief)
{
	static const int kept[] = {
		IB_MCG_A_DEV_NAME, IB_MCG_A_DEV_INDEX, IB_MCG_A_PORT,
		IB_MCG_A_MGID, IB_MCG_A_STATE, IB_MCG_A_REASON, IB_MCG_A_ERROR,
		IB_MCG_A_JOIN_STATE, IB_MCG_A_BACKEND, IB_MCG_A_LINGER_MS,
		IB_MCG_A_HOLDER_COUNT, IB_MCG_A_HOLDERS,
	};
	static const int dropped[] = {
		IB_MCG_A_GROUP_ID, IB_MCG_A_MLID, IB_MCG_A_QKEY, IB_MCG_A_PKEY,
		IB_MCG_A_MTU, IB_MCG_A_RATE, IB_MCG_A_SL, IB_MCG_A_FLOW_LABEL,
		IB_MCG_A_TCLASS, IB_MCG_A_HOP_LIMIT, IB_MCG_A_PORT_GID,
		IB_MCG_A_SGID_INDEX,
	};
	int dump, i, full_len;
	struct nlattr *a;
	struct req r;

	join_req(&r, self->nl.family, 0);
	ASSERT_EQ(1, nl_talk(&self->nl, &r));
	for (dump = 0; dump < 2; dump++) {
		group_get_req(&r, self->nl.family, dump, false);
		ASSERT_EQ(1, nl_talk(&self->nl, &r));
		full_len = self->nl.reply_len;
		for (i = 0; i < (int)ARRAY_SIZE(dropped); i++)
			EXPECT_NE(NULL, reply_attr(&self->nl, dropped[i]));
		EXPECT_NE(NULL, reply_holder_attr(&self->nl,
						  IB_MCG_HOLDER_A_AGE_MS));

		group_get_req(&r, self->nl.family, dump, true);
		ASSERT_EQ(1, nl_talk(&self->nl, &r)) TH_LOG("%s", self->nl.msg);
		EXPECT_EQ(IB_MCG_CMD_GROUP_GET,
			  ((struct genlmsghdr *)NLMSG_DATA(self->nl.reply))->cmd);
		for (i = 0; i < (int)ARRAY_SIZE(kept); i++)
			EXPECT_NE(NULL, reply_attr(&self->nl, kept[i]))
				TH_LOG("attribute %d missing", kept[i]);
		for (i = 0; i < (int)ARRAY_SIZE(dropped); i++)
			EXPECT_EQ(NULL, reply_attr(&self->nl, dropped[i]))
				TH_LOG("attribute %d sent", dropped[i]);
		a = reply_attr(&self->nl, IB_MCG_A_STATE);
		ASSERT_NE(NULL, a);
		EXPECT_EQ(IB_MCG_STATE_JOINED, *(uint8_t *)(a + 1));
		a = reply_holder_attr(&self->nl, IB_MCG_HOLDER_A_OWNER);
		ASSERT_NE(NULL, a);
		EXPECT_STREQ("policy", (char *)(a + 1));
		EXPECT_NE(NULL, reply_holder_attr(&self->nl,
						  IB_MCG_HOLDER_A_JOIN_STATE));
		EXPECT_NE(NULL, reply_holder_attr(&self->nl,
						  IB_MCG_HOLDER_A_FLAGS));
		EXPECT_EQ(NULL, reply_holder_attr(&self->nl,
						  IB_MCG_HOLDER_A_AGE_MS));
		EXPECT_EQ(NULL, reply_holder_attr(&self->nl,
						  IB_MCG_HOLDER_A_ID));
		/* 8 B of attribute header and value for each one left out */
		EXPECT_GE(full_len - 8 * (int)ARRAY_SIZE(dropped) - 2 * 12,
			  self->nl.reply_len);
	}

	join_req(&r, self->nl.family, 0);
	((struct genlmsghdr *)NLMSG_DATA(&r.nlh))->cmd = IB_MCG_CMD_LEAVE;
	ASSERT_EQ(1, nl_talk(&self->nl, &r));
}

/*
 * IB_MCG_A_REPLY_BRIEF: the JOIN's reply is the group's id and state and
 * the hold's id, nothing else; the group and the hold are those that
 * GROUP_GET then shows in full.
 */
TEST_F(mcg, join_reply_brief)
{
	uint64_t gid, hid;
	struct nlattr *a;
	struct req r;
	int off, n = 0;

	join_req(&r, self->nl.family, 0);
	put(&r, IB_MCG_A_REPLY_BRIEF, NULL, 0);
	ASSERT_EQ(1, nl_talk(&self->nl, &r));
	EXPECT_EQ(IB_MCG_CMD_JOIN,
		  ((struct genlmsghdr *)NLMSG_DATA(self->nl.reply))->cmd);
	a = reply_attr(&self->nl, IB_MCG_A_STATE);
	ASSERT_NE(NULL, a);
	EXPECT_EQ(IB_MCG_STATE_JOINED, *(uint8_t *)(a + 1));
	a = reply_attr(&self->nl, IB_MCG_A_GROUP_ID);
	ASSERT_NE(NULL, a);
	gid = *(uint64_t *)(a + 1);
	hid = reply_hold_id(&self->nl);
	EXPECT_NE((uint64_t)0, hid);
	/* GROUP_ID, STATE, HOLDERS and the 64-bit alignment pads only */
	for (off = NLMSG_LENGTH(GENL_HDRLEN); off + NLA_HDRLEN <=
	     self->nl.reply_len; off += NLA_ALIGN(a->nla_len)) {
		a = (void *)(self->nl.reply + off);
		if (a->nla_len < NLA_HDRLEN)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) != IB_MCG_A_PAD)
			n++;
	}
	EXPECT_EQ(3, n);
	EXPECT_EQ(NULL, reply_attr(&self->nl, IB_MCG_A_MGID));
	EXPECT_EQ(NULL, reply_attr(&self->nl, IB_MCG_A_QKEY));

	req_init(&r, self->nl.family, IB_MCG_CMD_GROUP_GET, NLM_F_ACK);
	put_str(&r, IB_MCG_A_DEV_NAME, DEV);
	put_u32(&r, IB_MCG_A_PORT, 1);
	put(&r, IB_MCG_A_MGID, mgid_239_1_1_9, 16);
	ASSERT_EQ(1, nl_talk(&self->nl, &r));
	a = reply_attr(&self->nl, IB_MCG_A_GROUP_ID);
	ASSERT_NE(NULL, a);
	EXPECT_EQ(gid, *(uint64_t *)(a + 1));
	EXPECT_EQ(hid, reply_hold_id(&self->nl));

	/* The same join again: idempotent, the same hold. */
	join_req(&r, self->nl.family, 0);
	put(&r, IB_MCG_A_REPLY_BRIEF, NULL, 0);
	ASSERT_EQ(1, nl_talk(&self->nl, &r));
	EXPECT_EQ(hid, reply_hold_id(&self->nl));

	join_req(&r, self->nl.family, 0);
	((struct genlmsghdr *)NLMSG_DATA(&r.nlh))->cmd = IB_MCG_CMD_LEAVE;
	ASSERT_EQ(1, nl_talk(&self->nl, &r));
}

TEST_F(mcg, unprivileged_reads_but_cannot_join)
{
	pid_t pid = fork();
	int status;

	ASSERT_LE(0, pid);
	if (!pid) {
		struct nl nl;
		struct req r;

		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(10);
		if (nl_open(&nl) || resolve_family(&nl))
			_exit(11);
		if (count_groups(&nl) < 0)
			_exit(12);
		join_req(&r, nl.family, 0);
		if (nl_talk(&nl, &r) != -EPERM)
			_exit(13);
		req_init(&r, nl.family, IB_MCG_CMD_REJOIN, NLM_F_ACK);
		put_str(&r, IB_MCG_A_DEV_NAME, DEV);
		put_u32(&r, IB_MCG_A_PORT, 1);
		put(&r, IB_MCG_A_MGID, mgid_239_1_1_9, 16);
		if (nl_talk(&nl, &r) != -EPERM)
			_exit(14);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, mcg_sysfs_counter(DEV, "groups"));
}

/* In a child: become uid 65534 without capabilities; exit 10 if not. */
static void drop_privileges(void)
{
	if (setresgid(65534, 65534, 65534) || setgroups(0, NULL) ||
	    setresuid(65534, 65534, 65534))
		_exit(10);
}

/* The holders a group message (the last reply) lists, by owner. */
static int reply_holders(struct nl *nl, int *with_owner, int *with_portid)
{
	struct nlattr *list = reply_attr(nl, IB_MCG_A_HOLDERS), *ho, *a;
	int n = 0, off, hoff;

	*with_owner = *with_portid = 0;
	if (!list)
		return -1;
	for (off = NLA_HDRLEN; off + NLA_HDRLEN <= list->nla_len;
	     off += NLA_ALIGN(ho->nla_len)) {
		ho = (void *)((char *)list + off);
		if (ho->nla_len < NLA_HDRLEN)
			break;
		n++;
		for (hoff = NLA_HDRLEN; hoff + NLA_HDRLEN <= ho->nla_len;
		     hoff += NLA_ALIGN(a->nla_len)) {
			a = (void *)((char *)ho + hoff);
			if (a->nla_len < NLA_HDRLEN)
				break;
			if (a->nla_type == IB_MCG_HOLDER_A_OWNER)
				(*with_owner)++;
			if (a->nla_type == IB_MCG_HOLDER_A_NL_PORTID)
				(*with_portid)++;
		}
	}
	return n;
}

static uint32_t reply_u32(struct nl *nl, int type)
{
	struct nlattr *a = reply_attr(nl, type);

	return a ? *(uint32_t *)(a + 1) : 0xffffffff;
}

/* An unprivileged request that must fail with @err and a message. */
#define EXPECT_REFUSED(nl, r, err, m) do {				\
	int __ret = nl_talk(nl, r);					\
	if (__ret != -(err) || !strstr((nl)->msg, m)) {			\
		fprintf(stderr, "%s:%d: got %d '%s', expected %d '%s'\n", \
			__FILE__, __LINE__, __ret, (nl)->msg, -(err), m); \
		_exit(20 + __LINE__ % 200);				\
	}								\
} while (0)

/*
 * As uid 65534: a bound JOIN without an owner holds for "uid:65534", and
 * its reply names it; everything else the unprivileged policy forbids is
 * refused with EPERM and a message; root's hold of the same group is
 * counted but not listed. Nothing of root's changes.
 */
TEST_F(mcg, unprivileged_policy)
{
	struct nl *nl = &self->nl;
	int status, joins;
	struct req r;
	pid_t pid;

	join_req(&r, nl->family, NO_OWNER);
	put_str(&r, IB_MCG_A_OWNER, "job:root");
	put_u32(&r, IB_MCG_A_FLAGS, IB_MCG_F_BOUND);
	ASSERT_EQ(1, nl_talk(nl, &r));
	joins = mcg_sysfs_counter(DEV, "joins");

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int n, owners, portids;
		struct nl u;

		drop_privileges();
		if (nl_open(&u) || resolve_family(&u))
			_exit(11);

		join_req(&r, u.family, NO_OWNER);
		EXPECT_REFUSED(&u, &r, EPERM, "only bound holds");
		put_u32(&r, IB_MCG_A_FLAGS, IB_MCG_F_BOUND);
		put_u32(&r, IB_MCG_A_LINGER_MS, 1000);
		EXPECT_REFUSED(&u, &r, EPERM, "linger time");
		join_req(&r, u.family, NO_OWNER);
		put_u32(&r, IB_MCG_A_FLAGS, IB_MCG_F_BOUND);
		put_u32(&r, IB_MCG_A_QKEY, 0x80000000);
		EXPECT_REFUSED(&u, &r, EPERM, "controlled");
		join_req(&r, u.family, NO_OWNER);
		put_u32(&r, IB_MCG_A_FLAGS, IB_MCG_F_BOUND);
		put_str(&r, IB_MCG_A_OWNER, "job:root");
		EXPECT_REFUSED(&u, &r, EPERM, "owner must be uid:");
		join_req(&r, u.family, NO_OWNER);
		put_u32(&r, IB_MCG_A_FLAGS, IB_MCG_F_BOUND);
		put_str(&r, IB_MCG_A_OWNER, "uid:0");
		EXPECT_REFUSED(&u, &r, EPERM, "owner must be uid:");
		/* A bad owner is a bad owner first. */
		join_req(&r, u.family, NO_OWNER);
		put_u32(&r, IB_MCG_A_FLAGS, IB_MCG_F_BOUND);
		put_str(&r, IB_MCG_A_OWNER, "a b");
		EXPECT_REFUSED(&u, &r, EINVAL, "printable");

		join_req(&r, u.family, NO_OWNER);
		((struct genlmsghdr *)NLMSG_DATA(&r.nlh))->cmd =
			IB_MCG_CMD_LEAVE;
		put_str(&r, IB_MCG_A_OWNER, "job:root");
		EXPECT_REFUSED(&u, &r, EPERM, "owner must be uid:");
		req_init(&r, u.family, IB_MCG_CMD_OWNER_RELEASE, NLM_F_ACK);
		put_str(&r, IB_MCG_A_OWNER, "job:root");
		EXPECT_REFUSED(&u, &r, EPERM, "CAP_NET_ADMIN");
		req_init(&r, u.family, IB_MCG_CMD_OWNER_RELEASE, NLM_F_DUMP);
		put_str(&r, IB_MCG_A_OWNER, "uid:65534");
		EXPECT_REFUSED(&u, &r, EPERM, "CAP_NET_ADMIN");

		/* GROUP_GET: root's hold counted, not listed. */
		join_req(&r, u.family, NO_OWNER);
		((struct genlmsghdr *)NLMSG_DATA(&r.nlh))->cmd =
			IB_MCG_CMD_GROUP_GET;
		if (nl_talk(&u, &r) != 1 ||
		    reply_u32(&u, IB_MCG_A_HOLDER_COUNT) != 1 ||
		    reply_holders(&u, &owners, &portids) != 0)
			_exit(12);

		/* The user's own bound hold: owner uid:65534. */
		join_req(&r, u.family, NO_OWNER);
		put_u32(&r, IB_MCG_A_FLAGS, IB_MCG_F_BOUND);
		if (nl_talk(&u, &r) != 1 ||
		    reply_holders(&u, &owners, &portids) != 1 ||
		    owners != 1 || portids != 1)
			_exit(13);
		join_req(&r, u.family, NO_OWNER);
		((struct genlmsghdr *)NLMSG_DATA(&r.nlh))->cmd =
			IB_MCG_CMD_GROUP_GET;
		if (nl_talk(&u, &r) != 1 ||
		    reply_u32(&u, IB_MCG_A_HOLDER_COUNT) != 2)
			_exit(14);
		n = reply_holders(&u, &owners, &portids);
		if (n != 1 || owners != 1 || portids != 1)
			_exit(15);
		/* The dump too lists only the user's own hold. */
		req_init(&r, u.family, IB_MCG_CMD_GROUP_GET, NLM_F_DUMP);
		if (nl_talk(&u, &r) != 1 ||
		    reply_holders(&u, &owners, &portids) != 1)
			_exit(16);
		_exit(0);	/* the socket closes: the hold goes */
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	/* The user's one hold came and went; root's is there, untouched. */
	EXPECT_EQ(joins + 1, mcg_sysfs_counter(DEV, "joins"));
	EXPECT_EQ(1, mcg_sysfs_counter(DEV, "groups"));
	EXPECT_EQ(1, mcg_sysfs_counter(DEV, "holders"));
	join_req(&r, nl->family, NO_OWNER);
	((struct genlmsghdr *)NLMSG_DATA(&r.nlh))->cmd = IB_MCG_CMD_LEAVE;
	put_str(&r, IB_MCG_A_OWNER, "job:root");
	EXPECT_EQ(1, nl_talk(nl, &r));
	EXPECT_EQ(0, mcg_sysfs_counter(DEV, "groups"));
}

static uint32_t fuzz_rand(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/*
 * As uid 65534, thousands of hostile requests: every command, random
 * attributes (types up to past the last, lengths that lie, values near
 * the limits), some of them valid bound joins of the user's own. Nothing
 * may crash (the harness checks the kernel log), and once the user's
 * socket is closed nothing of root's has changed and nothing of the
 * user's is left.
 */
TEST_F(mcg, unprivileged_fuzz)
{
	static const uint8_t cmds[] = {
		IB_MCG_CMD_JOIN, IB_MCG_CMD_LEAVE, IB_MCG_CMD_OWNER_RELEASE,
		IB_MCG_CMD_GROUP_GET, IB_MCG_CMD_PORT_GET,
	};
	static const char *const owners[] = {
		"job:root", "uid:65534", "uid:0", "uid:65534 ", "", "x",
	};
	struct nl *nl = &self->nl;
	int status, groups, holders;
	struct req r;
	pid_t pid;

	join_req(&r, nl->family, NO_OWNER);
	put_str(&r, IB_MCG_A_OWNER, "job:root");
	ASSERT_EQ(1, nl_talk(nl, &r));
	groups = mcg_sysfs_counter(DEV, "groups");
	holders = mcg_sysfs_counter(DEV, "holders");

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		uint32_t seed = 0x1badcafe, v;
		struct nl u;
		int i, k, n;

		drop_privileges();
		if (nl_open(&u) || resolve_family(&u))
			_exit(11);
		for (i = 0; i < 3000; i++) {
			uint8_t cmd = cmds[fuzz_rand(&seed) % sizeof(cmds)];
			uint16_t flags = fuzz_rand(&seed) % 4 ? NLM_F_ACK
							      : NLM_F_DUMP;

			req_init(&r, u.family, cmd, flags);
			if (fuzz_rand(&seed) % 2)
				put_str(&r, IB_MCG_A_DEV_NAME, DEV);
			if (fuzz_rand(&seed) % 2)
				put_u32(&r, IB_MCG_A_PORT,
					fuzz_rand(&seed) % 3);
			if (fuzz_rand(&seed) % 2) {
				uint8_t mgid[16];

				memcpy(mgid, mgid_239_1_1_9, 16);
				mgid[15] = fuzz_rand(&seed) % 4;
				put(&r, IB_MCG_A_MGID, mgid, 16);
			}
			if (fuzz_rand(&seed) % 2)
				put_str(&r, IB_MCG_A_OWNER,
					owners[fuzz_rand(&seed) % 6]);
			if (fuzz_rand(&seed) % 2)
				put_u32(&r, IB_MCG_A_FLAGS,
					fuzz_rand(&seed) % 3);
			n = fuzz_rand(&seed) % 4;
			for (k = 0; k < n; k++) {
				uint16_t type = fuzz_rand(&seed) %
						(IB_MCG_A_MAX + 3);
				uint16_t len = fuzz_rand(&seed) % 20;
				uint8_t data[20];

				for (v = 0; v < sizeof(data); v++)
					data[v] = fuzz_rand(&seed);
				put_raw(&r, type, data, len,
					fuzz_rand(&seed) % 8 ? NLA_HDRLEN + len
							     : fuzz_rand(&seed) % 64);
			}
			nl_talk(&u, &r);
		}
		/* The socket closes: whatever it held goes. */
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(groups, mcg_sysfs_counter(DEV, "groups"));
	EXPECT_EQ(holders, mcg_sysfs_counter(DEV, "holders"));
	join_req(&r, nl->family, NO_OWNER);
	((struct genlmsghdr *)NLMSG_DATA(&r.nlh))->cmd = IB_MCG_CMD_LEAVE;
	put_str(&r, IB_MCG_A_OWNER, "job:root");
	EXPECT_EQ(1, nl_talk(nl, &r));
	EXPECT_EQ(0, mcg_sysfs_counter(DEV, "groups"));
}

static int dump_count(struct nl *nl, struct req *rq, const uint8_t *mgid,
		      int list, int item, int *msgs, int *items);

/*
 * Counts, over a GROUP_GET dump, the messages for @mgid and the holders
 * they carry. Returns 0 or a negative errno.
 */
static int dump_holders(struct nl *nl, const uint8_t *mgid, int *msgs,
			int *holders)
{
	struct req r;

	req_init(&r, nl->family, IB_MCG_CMD_GROUP_GET, NLM_F_DUMP);
	return dump_count(nl, &r, mgid, IB_MCG_A_HOLDERS, IB_MCG_A_HOLDER,
			  msgs, holders);
}

/*
 * Sends the dump request @r and counts the messages whose MGID is @mgid
 * (any message if NULL) and the @item nests in their @list nest. Returns
 * 0 or a negative errno.
 */
static int dump_count(struct nl *nl, struct req *rq, const uint8_t *mgid,
		      int list, int item, int *msgs, int *items)
{
	static char buf[65536];
	int n, *holders = items;
	struct req r = *rq;

	*msgs = *holders = 0;
	if (send(nl->fd, r.buf, r.nlh.nlmsg_len, 0) < 0)
		return -errno;
	for (;;) {
		struct nlmsghdr *h;

		n = recv(nl->fd, buf, sizeof(buf), 0);
		if (n < 0)
			return -errno;
		for (h = (void *)buf; NLMSG_OK(h, (unsigned int)n);
		     h = NLMSG_NEXT(h, n)) {
			struct nlattr *a, *hs = NULL;
			bool match = false;
			int off;

			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			if (h->nlmsg_type == NLMSG_ERROR)
				return ((struct nlmsgerr *)NLMSG_DATA(h))->error;
			for (off = NLMSG_LENGTH(GENL_HDRLEN);
			     off + NLA_HDRLEN <= (int)h->nlmsg_len;
			     off += NLA_ALIGN(a->nla_len)) {
				a = (void *)((char *)h + off);
				if (a->nla_len < NLA_HDRLEN)
					break;
				if (mgid && a->nla_type == IB_MCG_A_MGID &&
				    !memcmp(a + 1, mgid, 16))
					match = true;
				if ((a->nla_type & NLA_TYPE_MASK) == list)
					hs = a;
			}
			if (!match && mgid)
				continue;
			(*msgs)++;
			if (!hs)
				continue;
			for (off = NLA_HDRLEN; off + NLA_HDRLEN <= hs->nla_len;
			     off += NLA_ALIGN(a->nla_len)) {
				a = (void *)((char *)hs + off);
				if (a->nla_len < NLA_HDRLEN)
					break;
				if ((a->nla_type & NLA_TYPE_MASK) == item)
					(*holders)++;
			}
		}
	}
}

/* A group with more holders than fit in a dump message spans several. */
TEST_F(mcg, dump_splits_a_group_with_many_holders)
{
	const int owners = 1000;
	int i, msgs, holders;
	char owner[32];
	struct req r;

	for (i = 0; i < owners; i++) {
		snprintf(owner, sizeof(owner), "owner-%d", i);
		join_req(&r, self->nl.family, NO_OWNER);
		put_str(&r, IB_MCG_A_OWNER, owner);
		ASSERT_EQ(1, nl_talk(&self->nl, &r));
	}
	EXPECT_EQ(owners, mcg_sysfs_counter(DEV, "holders"));
	ASSERT_EQ(0, dump_holders(&self->nl, mgid_239_1_1_9, &msgs, &holders));
	TH_LOG("%d holders in %d messages", holders, msgs);
	EXPECT_EQ(owners, holders);
	EXPECT_LT(1, msgs);

	/* The dump of that one group: all holders, nothing else. */
	req_init(&r, self->nl.family, IB_MCG_CMD_GROUP_GET, NLM_F_DUMP);
	put_str(&r, IB_MCG_A_DEV_NAME, DEV);
	put_u32(&r, IB_MCG_A_PORT, 1);
	put(&r, IB_MCG_A_MGID, mgid_239_1_1_9, 16);
	ASSERT_EQ(0, dump_count(&self->nl, &r, NULL, IB_MCG_A_HOLDERS,
				IB_MCG_A_HOLDER, &msgs, &holders));
	EXPECT_EQ(owners, holders);
	EXPECT_LT(1, msgs);

	/*
	 * GROUP_GET do answers in one message, with the holders that fit
	 * and the group's holder count.
	 */
	req_init(&r, self->nl.family, IB_MCG_CMD_GROUP_GET, NLM_F_ACK);
	put_str(&r, IB_MCG_A_DEV_NAME, DEV);
	put_u32(&r, IB_MCG_A_PORT, 1);
	put(&r, IB_MCG_A_MGID, mgid_239_1_1_9, 16);
	EXPECT_EQ(1, nl_talk(&self->nl, &r));
	ASSERT_NE(NULL, reply_attr(&self->nl, IB_MCG_A_HOLDER_COUNT));
	EXPECT_EQ(owners, (int)*(uint32_t *)(reply_attr(&self->nl,
							IB_MCG_A_HOLDER_COUNT) + 1));

	for (i = 0; i < owners; i++) {
		snprintf(owner, sizeof(owner), "owner-%d", i);
		join_req(&r, self->nl.family, NO_OWNER);
		put_str(&r, IB_MCG_A_OWNER, owner);
		((struct genlmsghdr *)NLMSG_DATA(&r.nlh))->cmd =
			IB_MCG_CMD_LEAVE;
		ASSERT_EQ(1, nl_talk(&self->nl, &r));
	}
	EXPECT_EQ(0, mcg_sysfs_counter(DEV, "groups"));
}

/* JOIN (or LEAVE) of @mgid by @owner on rxe0/1; the reply's errno or count. */
static int hold(struct nl *nl, const uint8_t *mgid, const char *owner,
		bool leave)
{
	struct req r;

	join_req(&r, nl->family, NO_MGID | NO_OWNER);
	put(&r, IB_MCG_A_MGID, mgid, 16);
	put_str(&r, IB_MCG_A_OWNER, owner);
	if (leave)
		((struct genlmsghdr *)NLMSG_DATA(&r.nlh))->cmd =
			IB_MCG_CMD_LEAVE;
	return nl_talk(nl, &r);
}

/*
 * Dumps all groups; after the first datagram, @other makes a change (a
 * hold of @owner on @mgid). Returns 1 if a message of the dump carried
 * NLM_F_DUMP_INTR, 0 if none did, or a negative errno.
 */
static int dump_with_change(struct nl *nl, struct nl *other,
			    const uint8_t *mgid, const char *owner)
{
	static char buf[65536];
	int n, intr = 0, first = 1;
	struct req r;

	req_init(&r, nl->family, IB_MCG_CMD_GROUP_GET, NLM_F_DUMP);
	if (send(nl->fd, r.buf, r.nlh.nlmsg_len, 0) < 0)
		return -errno;
	for (;;) {
		struct nlmsghdr *h;

		n = recv(nl->fd, buf, sizeof(buf), 0);
		if (n < 0)
			return -errno;
		/*
		 * This recv() already made the next round of the dump: the
		 * change lands in the round after it.
		 */
		if (first && hold(other, mgid, owner, false) != 1)
			return -EIO;
		first = 0;
		for (h = (void *)buf; NLMSG_OK(h, (unsigned int)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_flags & NLM_F_DUMP_INTR)
				intr = 1;
			if (h->nlmsg_type == NLMSG_DONE)
				return intr;
			if (h->nlmsg_type == NLMSG_ERROR)
				return ((struct nlmsgerr *)NLMSG_DATA(h))->error;
		}
	}
}

/*
 * A dump over several rounds: a change of another group does not mark
 * it inconsistent (the cursor copes), a change of the group whose holder
 * list spans the rounds does.
 */
TEST_F(mcg, dump_intr_only_for_a_group_changed_between_its_parts)
{
	const int owners = 3000;
	uint8_t other_mgid[16];
	struct nl other;
	char owner[32];
	int i;

	ASSERT_EQ(0, nl_open(&other));
	ASSERT_EQ(0, resolve_family(&other));
	memcpy(other_mgid, mgid_239_1_1_9, 16);
	other_mgid[15] = 10;
	for (i = 0; i < owners; i++) {
		snprintf(owner, sizeof(owner), "o-%d", i);
		ASSERT_EQ(1, hold(&self->nl, mgid_239_1_1_9, owner, false));
	}
	EXPECT_EQ(0, dump_with_change(&self->nl, &other, other_mgid,
				      "elsewhere"));
	EXPECT_EQ(1, dump_with_change(&self->nl, &other, mgid_239_1_1_9,
				      "late"));

	ASSERT_EQ(1, hold(&self->nl, other_mgid, "elsewhere", true));
	ASSERT_EQ(1, hold(&self->nl, mgid_239_1_1_9, "late", true));
	for (i = 0; i < owners; i++) {
		snprintf(owner, sizeof(owner), "o-%d", i);
		ASSERT_EQ(1, hold(&self->nl, mgid_239_1_1_9, owner, true));
	}
	EXPECT_EQ(0, mcg_sysfs_counter(DEV, "groups"));
	close(other.fd);
}

/*
 * An owner whose groups do not fit in one message: the one-message "do"
 * (protocol version 1) refuses and releases nothing; the dump releases
 * everything and lists every group over several messages.
 */
/*
 * A bound hold is released when its socket closes, from NETLINK_URELEASE,
 * which netlink_release() sends after it has freed the socket's portid: a
 * new socket may bind that portid meanwhile and take a bound hold. The
 * old socket's release must not take the new socket's hold with it. Many
 * short-lived sockets of one process on one portid, the old one closed
 * by another thread while the new one binds and joins, and a third
 * thread keeping mcg_lock busy so that the release waits for it.
 */
#define REUSE_ROUNDS 400
#define REUSE_SECONDS 40	/* at most, under TCG (some 4 rounds a second) */

struct reuse_closer {
	int fd;
	atomic_bool closed;
};

static void *reuse_close(void *arg)
{
	struct reuse_closer *c = arg;

	close(c->fd);
	atomic_store(&c->closed, true);
	return NULL;
}

static atomic_bool reuse_stop;

static void *reuse_busy(void *arg)
{
	struct nl nl;
	struct req r;

	if (nl_open(&nl) || resolve_family(&nl))
		return NULL;
	/* Not nl_talk(): its buffer is static, and the main thread's. */
	while (!atomic_load(&reuse_stop)) {
		static __thread char buf[32768];
		bool done = false;
		int n;

		req_init(&r, nl.family, IB_MCG_CMD_GROUP_GET, NLM_F_DUMP);
		if (send(nl.fd, r.buf, r.nlh.nlmsg_len, 0) < 0)
			break;
		while (!done && (n = recv(nl.fd, buf, sizeof(buf), 0)) > 0) {
			struct nlmsghdr *h;

			for (h = (void *)buf; NLMSG_OK(h, (unsigned int)n);
			     h = NLMSG_NEXT(h, n))
				if (h->nlmsg_type == NLMSG_DONE ||
				    h->nlmsg_type == NLMSG_ERROR)
					done = true;
		}
		if (!done)
			break;
	}
	close(nl.fd);
	return NULL;
}

static int nl_open_bound(struct nl *nl, uint32_t portid, uint16_t family)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_pid = portid };
	int err = nl_open(nl);

	if (err)
		return err;
	nl->family = family;
	if (bind(nl->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		close(nl->fd);
		return err;
	}
	return 0;
}

static int bound_hold(struct nl *nl, const uint8_t *mgid, const char *owner)
{
	struct req r;

	join_req(&r, nl->family, NO_MGID | NO_OWNER);
	put(&r, IB_MCG_A_MGID, mgid, 16);
	put_str(&r, IB_MCG_A_OWNER, owner);
	put_u32(&r, IB_MCG_A_FLAGS, IB_MCG_F_BOUND);
	return nl_talk(nl, &r);
}

/* Holders of @mgid on rxe0/1 (IB_MCG_A_HOLDER_COUNT), -ENOENT if none. */
static int holder_count(struct nl *nl, const uint8_t *mgid)
{
	struct nlattr *a;
	struct req r;
	int err;

	req_init(&r, nl->family, IB_MCG_CMD_GROUP_GET, NLM_F_ACK);
	put_str(&r, IB_MCG_A_DEV_NAME, DEV);
	put_u32(&r, IB_MCG_A_PORT, 1);
	put(&r, IB_MCG_A_MGID, mgid, 16);
	err = nl_talk(nl, &r);
	if (err < 0)
		return err;
	a = reply_attr(nl, IB_MCG_A_HOLDER_COUNT);
	return a ? (int)*(uint32_t *)(a + 1) : -EPROTO;
}

TEST_F_TIMEOUT(mcg, bound_hold_of_a_new_socket_on_a_reused_portid,
	       REUSE_SECONDS + 20)
{
	static const uint8_t g_old[16] = {
		[10] = 0xff, [11] = 0xff, [12] = 239, [13] = 1, [14] = 2, [15] = 1 };
	static const uint8_t g_new[16] = {
		[10] = 0xff, [11] = 0xff, [12] = 239, [13] = 1, [14] = 2, [15] = 2 };
	uint32_t portid = 0x7e000000 | (getpid() & 0xffff);
	time_t end = time(NULL) + REUSE_SECONDS;
	int i, lost = 0, overlap = 0, n;
	pthread_t busy, closer;

	atomic_store(&reuse_stop, false);
	ASSERT_EQ(0, pthread_create(&busy, NULL, reuse_busy, NULL));
	for (i = 0; i < REUSE_ROUNDS; i++) {
		struct reuse_closer c = {};
		struct nl old, new;
		int err;

		ASSERT_EQ(0, nl_open_bound(&old, portid, self->nl.family));
		ASSERT_LE(0, bound_hold(&old, g_old, "reuse:old")) {
			TH_LOG("JOIN: %s", old.msg);
		}
		c.fd = old.fd;
		ASSERT_EQ(0, pthread_create(&closer, NULL, reuse_close, &c));
		/* The portid is free once the old socket is unhashed. */
		while ((err = nl_open_bound(&new, portid, self->nl.family)) ==
		       -EADDRINUSE)
			;
		ASSERT_EQ(0, err);
		if (!atomic_load(&c.closed))
			overlap++;
		ASSERT_LE(0, bound_hold(&new, g_new, "reuse:new")) {
			TH_LOG("JOIN: %s", new.msg);
		}
		pthread_join(closer, NULL);
		/* The old socket's release is over: close() returned. */
		n = holder_count(&self->nl, g_new);
		if (n != 1) {
			lost++;
			TH_LOG("round %d: the new socket's hold is gone (%d)",
			       i, n);
		}
		close(new.fd);
		if (time(NULL) >= end) {
			i++;
			break;	/* a slow VM: enough rounds for the time */
		}
	}
	atomic_store(&reuse_stop, true);
	pthread_join(busy, NULL);
	TH_LOG("%d rounds, %d with the new socket bound before the old one's close() returned",
	       i, overlap);
	EXPECT_EQ(0, lost);
	EXPECT_EQ(-ENOENT, holder_count(&self->nl, g_old));
	EXPECT_EQ(-ENOENT, holder_count(&self->nl, g_new));
}

TEST_F(mcg, owner_release_of_many_groups)
{
	const int groups = 1000;
	uint8_t mgid[16];
	int i, msgs, items;
	struct nlattr *a;
	struct req r;

	memcpy(mgid, mgid_239_1_1_9, 16);
	for (i = 0; i < groups; i++) {
		mgid[14] = 2 + i / 256;
		mgid[15] = i % 256;
		join_req(&r, self->nl.family, NO_MGID);
		put(&r, IB_MCG_A_MGID, mgid, 16);
		ASSERT_EQ(1, nl_talk(&self->nl, &r));
	}
	ASSERT_EQ(groups, mcg_sysfs_counter(DEV, "groups"));

	req_init(&r, self->nl.family, IB_MCG_CMD_OWNER_RELEASE, NLM_F_ACK);
	put_str(&r, IB_MCG_A_OWNER, "policy");
	EXPECT_EQ(-EMSGSIZE, nl_talk(&self->nl, &r));
	EXPECT_NE(NULL, strstr(self->nl.msg, "too many groups"));
	EXPECT_EQ(groups, mcg_sysfs_counter(DEV, "holders"));

	req_init(&r, self->nl.family, IB_MCG_CMD_OWNER_RELEASE, NLM_F_DUMP);
	put_str(&r, IB_MCG_A_OWNER, "policy");
	ASSERT_EQ(0, dump_count(&self->nl, &r, NULL, IB_MCG_A_RELEASED,
				IB_MCG_A_GROUP, &msgs, &items));
	TH_LOG("%d groups in %d messages", items, msgs);
	EXPECT_EQ(groups, items);
	EXPECT_LT(1, msgs);
	EXPECT_EQ(0, mcg_sysfs_counter(DEV, "groups"));

	/* An owner holding nothing: one message, a count of 0. */
	ASSERT_EQ(1, nl_talk(&self->nl, &r));
	a = reply_attr(&self->nl, IB_MCG_A_HOLDER_COUNT);
	ASSERT_NE(NULL, a);
	EXPECT_EQ(0, (int)*(uint32_t *)(a + 1));
}

/* ---- the policies the kernel reports (CTRL_CMD_GETPOLICY) ------------- */

#define A(x)	(1ULL << IB_MCG_A_##x)
#define A_DEV	(A(DEV_NAME) | A(DEV_INDEX) | A(PORT))

_Static_assert(IB_MCG_A_MAX < 64, "attribute sets are u64 masks");

/*
 * The request attributes of every command's do and dump, as the netlink
 * spec (Documentation/netlink/specs/ib_mcgroups.yaml) documents them; 0:
 * no such form. A dump lists the attributes it reads, its filters.
 */
static const struct {
	uint8_t cmd;
	uint64_t do_attrs, dump_attrs;
} op_attrs[] = {
	{ IB_MCG_CMD_JOIN,
	  A_DEV | A(MGID) | A(OWNER) | A(JOIN_STATE) | A(FLAGS) | A(QKEY) |
	  A(LINGER_MS) | A(PKEY) | A(MTU) | A(RATE) | A(SL) | A(FLOW_LABEL) |
	  A(TCLASS) | A(HOP_LIMIT) | A(SCOPE) | A(REPLY_BRIEF), 0 },
	{ IB_MCG_CMD_LEAVE, A_DEV | A(MGID) | A(OWNER) | A(JOIN_STATE), 0 },
	{ IB_MCG_CMD_GROUP_GET, A_DEV | A(MGID) | A(LIST_BRIEF),
	  A_DEV | A(MGID) | A(LIST_BRIEF) },
	{ IB_MCG_CMD_PORT_GET, A_DEV, A_DEV },
	{ IB_MCG_CMD_OWNER_RELEASE, A_DEV | A(OWNER), A_DEV | A(OWNER) },
	{ IB_MCG_CMD_REJOIN, A_DEV | A(MGID), 0 },
};

#define MAX_POLICIES 32

/* What a policy dump said: per command, its do and dump policy indexes. */
struct policies {
	int do_idx[256], dump_idx[256];	/* -1: none reported */
	bool has_map;			/* any CTRL_ATTR_OP_POLICY at all */
	uint64_t attrs[MAX_POLICIES];	/* per policy: attributes with a type */
	int npol;			/* highest policy index + 1 */
};

/* The attribute of type @type inside nest @nest, or NULL. */
static struct nlattr *nested(struct nlattr *nest, int type)
{
	struct nlattr *a;
	int off;

	for (off = NLA_HDRLEN; off + NLA_HDRLEN <= nest->nla_len;
	     off += NLA_ALIGN(a->nla_len)) {
		a = (void *)((char *)nest + off);
		if (a->nla_len < NLA_HDRLEN)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
	}
	return NULL;
}

/* Every attribute @a in @nest (@off: the iterator). */
#define for_each_nested(a, nest, off)					\
	for ((off) = NLA_HDRLEN;					\
	     (off) + NLA_HDRLEN <= (nest)->nla_len &&			\
	     ((a) = (void *)((char *)(nest) + (off)))->nla_len >= NLA_HDRLEN; \
	     (off) += NLA_ALIGN((a)->nla_len))

static void parse_policy_msg(struct policies *p, struct nlmsghdr *h)
{
	struct nlattr *a, *cmd, *pol, *attr, *idx;
	int off, o1, o2, o3;

	for (off = NLMSG_LENGTH(GENL_HDRLEN);
	     off + NLA_HDRLEN <= (int)h->nlmsg_len;
	     off += NLA_ALIGN(a->nla_len)) {
		a = (void *)((char *)h + off);
		if (a->nla_len < NLA_HDRLEN)
			break;
		switch (a->nla_type & NLA_TYPE_MASK) {
		case CTRL_ATTR_OP_POLICY:
			p->has_map = true;
			for_each_nested(cmd, a, o1) {
				int c = cmd->nla_type & NLA_TYPE_MASK;

				pol = nested(cmd, CTRL_ATTR_POLICY_DO);
				if (pol)
					p->do_idx[c & 255] = *(uint32_t *)(pol + 1);
				pol = nested(cmd, CTRL_ATTR_POLICY_DUMP);
				if (pol)
					p->dump_idx[c & 255] = *(uint32_t *)(pol + 1);
			}
			break;
		case CTRL_ATTR_POLICY:
			for_each_nested(idx, a, o2) {
				int i = idx->nla_type & NLA_TYPE_MASK;

				if (i >= MAX_POLICIES)
					continue;
				if (i >= p->npol)
					p->npol = i + 1;
				for_each_nested(attr, idx, o3) {
					int t = attr->nla_type & NLA_TYPE_MASK;

					if (t < 64)
						p->attrs[i] |= 1ULL << t;
				}
			}
			break;
		}
	}
}

/*
 * CTRL_CMD_GETPOLICY of the family, of command @op only if @op >= 0.
 * Returns 0 or a negative errno.
 */
static int get_policies(struct nl *nl, int op, struct policies *p)
{
	static char buf[65536];
	struct req r;
	int n, i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < 256; i++)
		p->do_idx[i] = p->dump_idx[i] = -1;
	req_init(&r, GENL_ID_CTRL, CTRL_CMD_GETPOLICY, NLM_F_DUMP);
	put(&r, CTRL_ATTR_FAMILY_ID, &nl->family, 2);
	if (op >= 0)
		put_u32(&r, CTRL_ATTR_OP, op);
	if (send(nl->fd, r.buf, r.nlh.nlmsg_len, 0) < 0)
		return -errno;
	for (;;) {
		struct nlmsghdr *h;

		n = recv(nl->fd, buf, sizeof(buf), 0);
		if (n < 0)
			return -errno;
		for (h = (void *)buf; NLMSG_OK(h, (unsigned int)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			if (h->nlmsg_type == NLMSG_ERROR)
				return ((struct nlmsgerr *)NLMSG_DATA(h))->error;
			parse_policy_msg(p, h);
		}
	}
}

/*
 * Whether the module was built with split ops (its "compat" modinfo: the
 * features its compile-time probes found): a do and a dump each with its
 * own policy. Without, one policy per command serves both.
 */
static bool module_has_split_ops(void)
{
	char line[512] = "";
	FILE *f = popen("modinfo -F compat ib_mcgroups 2>/dev/null", "r");

	if (!f)
		return false;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	pclose(f);
	return strstr(line, "genl_split_ops") != NULL;
}

static uint64_t policy_attrs(const struct policies *p, int idx)
{
	return idx >= 0 && idx < p->npol ? p->attrs[idx] : ~0ULL;
}

/*
 * The kernel reports, per command, a policy for the do and one for the
 * dump, each accepting exactly the documented request attributes (on a
 * kernel without split ops the dump's is the do's), and none for a form
 * the command does not have; no other command has one.
 */
TEST_F(mcg, policies_per_op_do_and_dump)
{
	bool split = module_has_split_ops();
	struct policies p;
	unsigned int i;
	int c;

	TH_LOG("module built with split ops: %s", split ? "yes" : "no");
	ASSERT_EQ(0, get_policies(&self->nl, -1, &p));
	ASSERT_TRUE(p.has_map);
	for (i = 0; i < sizeof(op_attrs) / sizeof(op_attrs[0]); i++) {
		uint64_t want_dump = op_attrs[i].dump_attrs;
		int cmd = op_attrs[i].cmd;

		if (want_dump && !split)
			want_dump = op_attrs[i].do_attrs;
		TH_LOG("cmd %d: do policy %d (%#llx), dump policy %d (%#llx)",
		       cmd, p.do_idx[cmd],
		       (unsigned long long)policy_attrs(&p, p.do_idx[cmd]),
		       p.dump_idx[cmd],
		       (unsigned long long)policy_attrs(&p, p.dump_idx[cmd]));
		ASSERT_LE(0, p.do_idx[cmd]);
		EXPECT_EQ(op_attrs[i].do_attrs, policy_attrs(&p, p.do_idx[cmd]));
		if (!want_dump) {
			EXPECT_EQ(-1, p.dump_idx[cmd]);
			continue;
		}
		ASSERT_LE(0, p.dump_idx[cmd]);
		EXPECT_EQ(want_dump, policy_attrs(&p, p.dump_idx[cmd]));
	}
	for (c = 0; c < 256; c++) {
		bool listed = false;

		for (i = 0; i < sizeof(op_attrs) / sizeof(op_attrs[0]); i++)
			listed |= op_attrs[i].cmd == c;
		if (listed)
			continue;
		EXPECT_EQ(-1, p.do_idx[c]);
		EXPECT_EQ(-1, p.dump_idx[c]);
	}
}

/*
 * The policy of one command (CTRL_ATTR_OP): the same as in the whole
 * family's report where the kernel says which policy is the do's and which
 * the dump's (6.1 and 6.12 do); where it sends only the policy (older
 * kernels), that one is the command's, the do's.
 */
TEST_F(mcg, policy_of_one_op)
{
	bool split = module_has_split_ops();
	struct policies p;
	unsigned int i;

	for (i = 0; i < sizeof(op_attrs) / sizeof(op_attrs[0]); i++) {
		uint64_t want_dump = op_attrs[i].dump_attrs;
		int cmd = op_attrs[i].cmd;

		if (want_dump && !split)
			want_dump = op_attrs[i].do_attrs;
		ASSERT_EQ(0, get_policies(&self->nl, cmd, &p));
		TH_LOG("cmd %d: %s, %d policies", cmd,
		       p.has_map ? "do/dump map" : "no map", p.npol);
		if (!p.has_map) {
			EXPECT_EQ(1, p.npol);
			EXPECT_EQ(op_attrs[i].do_attrs, p.attrs[0]);
			continue;
		}
		EXPECT_EQ(op_attrs[i].do_attrs, policy_attrs(&p, p.do_idx[cmd]));
		if (want_dump) {
			EXPECT_EQ(want_dump, policy_attrs(&p, p.dump_idx[cmd]));
		} else {
			EXPECT_EQ(-1, p.dump_idx[cmd]);
		}
	}
	/* A command without a policy (a notification) has none to report. */
	EXPECT_GT(0, get_policies(&self->nl, IB_MCG_CMD_GROUP_NEW_NTF, &p));
}

TEST_HARNESS_MAIN
