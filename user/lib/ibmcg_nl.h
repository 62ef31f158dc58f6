/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * libibmcg's own generic netlink plumbing (nlsock.c): the sockets, the
 * requests built in place, and the attribute walking the decoders share.
 * No netlink library: a short mcctl command spent more time loading one
 * than talking to the kernel. Not installed.
 */
#ifndef IBMCG_NL_H
#define IBMCG_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

/* ---- reading ------------------------------------------------------------ */

static inline void *ibmcg_nla_data(const struct nlattr *a)
{
	return (char *)a + NLA_HDRLEN;
}

static inline int ibmcg_nla_len(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

/* Is there a whole attribute at @a, with @rem bytes left? */
static inline bool ibmcg_nla_ok(const struct nlattr *a, int rem)
{
	return rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	       a->nla_len <= rem;
}

static inline struct nlattr *ibmcg_nla_next(const struct nlattr *a, int *rem)
{
	*rem -= NLA_ALIGN(a->nla_len);
	return (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len));
}

#define ibmcg_nla_for_each(pos, head, len, rem)				\
	for (pos = (head), rem = (len); ibmcg_nla_ok(pos, rem);		\
	     pos = ibmcg_nla_next(pos, &(rem)))

#define ibmcg_nla_for_each_nested(pos, nest, rem)			\
	ibmcg_nla_for_each(pos, (struct nlattr *)ibmcg_nla_data(nest),	\
			   ibmcg_nla_len(nest), rem)

/* The first attribute of @type (flags masked off) in @len bytes, or NULL. */
struct nlattr *ibmcg__nla_find(const struct nlattr *head, int len, int type);

/* A u64 of exactly 8 bytes at @a: 0, or -EPROTO. */
int ibmcg__nla_get_u64(const struct nlattr *a, uint64_t *v);

/*
 * The generic netlink header of @nlh, if it has a whole one (NULL if not),
 * and its attributes: *head, *len bytes.
 */
const struct genlmsghdr *ibmcg__genl_hdr(const struct nlmsghdr *nlh,
					const struct nlattr **head, int *len);

/* The next message of a datagram, as NLMSG_OK/NLMSG_NEXT with an int. */
static inline bool ibmcg_nlmsg_ok(const struct nlmsghdr *nlh, int rem)
{
	return rem >= (int)sizeof(*nlh) &&
	       nlh->nlmsg_len >= sizeof(*nlh) && nlh->nlmsg_len <= (unsigned)rem;
}

static inline struct nlmsghdr *ibmcg_nlmsg_next(const struct nlmsghdr *nlh,
						int *rem)
{
	int len = NLMSG_ALIGN(nlh->nlmsg_len);

	*rem -= len;
	return (struct nlmsghdr *)((char *)nlh + len);
}

/* ---- requests ----------------------------------------------------------- */

/*
 * A request built in place, on the caller's stack: big enough for any of
 * ours (a JOIN with every attribute: a device name and an owner of at
 * most 64 bytes, an MGID and a dozen small values). A put that does not
 * fit sets overflow; sending such a request fails with -EMSGSIZE.
 */
struct ibmcg_req {
	union {
		struct nlmsghdr nlh;
		char buf[512];
	};
	bool overflow;
};

void ibmcg__req_init(struct ibmcg_req *q, uint16_t type, uint16_t flags,
		    uint8_t cmd, uint8_t version);
void ibmcg__req_put(struct ibmcg_req *q, uint16_t type, const void *data,
		   size_t len);

static inline void ibmcg_req_put_u8(struct ibmcg_req *q, uint16_t type,
				    uint8_t v)
{
	ibmcg__req_put(q, type, &v, sizeof(v));
}

static inline void ibmcg_req_put_u16(struct ibmcg_req *q, uint16_t type,
				     uint16_t v)
{
	ibmcg__req_put(q, type, &v, sizeof(v));
}

static inline void ibmcg_req_put_u32(struct ibmcg_req *q, uint16_t type,
				     uint32_t v)
{
	ibmcg__req_put(q, type, &v, sizeof(v));
}

void ibmcg__req_put_str(struct ibmcg_req *q, uint16_t type, const char *s);

/* ---- sockets ------------------------------------------------------------ */

/*
 * A generic netlink socket, close-on-exec (and non-blocking with
 * @nonblock), bound to a port id the kernel picks (*portid). Returns the
 * descriptor or -errno.
 */
int ibmcg__nl_open(bool nonblock, uint32_t *portid);
/* Join multicast group @grp: 0 or -errno. */
int ibmcg__nl_add_membership(int fd, unsigned int grp);
/*
 * A socket as ibmcg__nl_open() opens, subscribed to multicast group @grp,
 * with a receive buffer of 1 MiB (best effort, capped by rmem_max: bursts
 * of notifications, and other groups' queue up too). The descriptor or
 * -errno (-EPERM: subscribing needs CAP_NET_ADMIN).
 */
int ibmcg__nl_open_events(unsigned int grp, bool nonblock);

/* ---- the controller ----------------------------------------------------- */

/* What CTRL_CMD_GETFAMILY tells of a family. */
struct ibmcg_family {
	int id;			/* -1 if the message names none */
	int version;
	int maxattr;		/* 0 if not told */
	int events_grp;		/* -1 if it has no multicast group "events" */
};

/*
 * Decode the controller's reply about a family (CTRL_CMD_NEWFAMILY) into
 * *fi, the multicast group named @grp_name as events_grp: 0, or -EPROTO
 * if it is malformed or names no family id.
 */
int ibmcg__parse_family(const struct nlmsghdr *nlh, const char *grp_name,
		       struct ibmcg_family *fi);

#endif /* IBMCG_NL_H */
