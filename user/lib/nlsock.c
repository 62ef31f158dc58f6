// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * libibmcg's generic netlink plumbing; see ibmcg_nl.h.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ibmcg_nl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

struct nlattr *ibmcg__nla_find(const struct nlattr *head, int len, int type)
{
	struct nlattr *a;
	int rem;

	ibmcg_nla_for_each(a, (struct nlattr *)head, len, rem)
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
	return NULL;
}

int ibmcg__nla_get_u64(const struct nlattr *a, uint64_t *v)
{
	if (!a || ibmcg_nla_len(a) != sizeof(*v))
		return -EPROTO;
	memcpy(v, ibmcg_nla_data(a), sizeof(*v));
	return 0;
}

const struct genlmsghdr *ibmcg__genl_hdr(const struct nlmsghdr *nlh,
					const struct nlattr **head, int *len)
{
	if (nlh->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
		return NULL;
	if (head)
		*head = (const struct nlattr *)((const char *)nlh +
						NLMSG_LENGTH(GENL_HDRLEN));
	if (len)
		*len = (int)(nlh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN));
	return NLMSG_DATA(nlh);
}

void ibmcg__req_init(struct ibmcg_req *q, uint16_t type, uint16_t flags,
		    uint8_t cmd, uint8_t version)
{
	struct genlmsghdr *g = (struct genlmsghdr *)(q->buf + NLMSG_HDRLEN);

	memset(q->buf, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	q->nlh.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	q->nlh.nlmsg_type = type;
	q->nlh.nlmsg_flags = NLM_F_REQUEST | flags;
	g->cmd = cmd;
	g->version = version;
	q->overflow = false;
}

void ibmcg__req_put(struct ibmcg_req *q, uint16_t type, const void *data,
		   size_t len)
{
	size_t off = NLMSG_ALIGN(q->nlh.nlmsg_len);
	struct nlattr *a = (struct nlattr *)(q->buf + off);

	if (q->overflow || len > sizeof(q->buf) ||
	    off + NLA_HDRLEN + NLA_ALIGN(len) > sizeof(q->buf)) {
		q->overflow = true;
		return;
	}
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((char *)a + NLA_HDRLEN, data, len);
	memset((char *)a + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	q->nlh.nlmsg_len = off + NLA_ALIGN(a->nla_len);
}

void ibmcg__req_put_str(struct ibmcg_req *q, uint16_t type, const char *s)
{
	ibmcg__req_put(q, type, s, strlen(s) + 1);
}

/*
 * Buffer sizes of a request socket, as libibmcg had them when libnl
 * opened its sockets (32 KiB each way, doubled by the kernel): the pace
 * of a dump, a dump datagram at a time or two ahead, stays what it was.
 */
#define SOCK_BUF	32768

int ibmcg__nl_open(bool nonblock, uint32_t *portid)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	socklen_t salen = sizeof(sa);
	int size = SOCK_BUF, fd, err;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC |
		    (nonblock ? SOCK_NONBLOCK : 0), NETLINK_GENERIC);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	/* Port id 0: the kernel assigns one, unique in the namespace. */
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(fd, (struct sockaddr *)&sa, &salen)) {
		err = -errno;
		close(fd);
		return err;
	}
	if (salen != sizeof(sa) || sa.nl_family != AF_NETLINK) {
		close(fd);
		return -EPROTO;
	}
	if (portid)
		*portid = sa.nl_pid;
	return fd;
}

int ibmcg__nl_add_membership(int fd, unsigned int grp)
{
	if (setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &grp,
		       sizeof(grp)))
		return -errno;
	return 0;
}

int ibmcg__nl_open_events(unsigned int grp, bool nonblock)
{
	int rcvbuf = 1 << 20, fd, err;

	fd = ibmcg__nl_open(nonblock, NULL);
	if (fd < 0)
		return fd;
	err = ibmcg__nl_add_membership(fd, grp);
	if (err) {
		close(fd);
		return err;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	return fd;
}

/* One CTRL_ATTR_MCAST_GROUPS entry: its id if it is named @name, else -1. */
static int mcast_grp_id(const struct nlattr *grp, const char *name)
{
	const struct nlattr *n, *id;
	int len;

	n = ibmcg__nla_find(ibmcg_nla_data(grp), ibmcg_nla_len(grp),
			   CTRL_ATTR_MCAST_GRP_NAME);
	id = ibmcg__nla_find(ibmcg_nla_data(grp), ibmcg_nla_len(grp),
			    CTRL_ATTR_MCAST_GRP_ID);
	if (!n || !id || ibmcg_nla_len(id) != sizeof(uint32_t))
		return -1;
	len = ibmcg_nla_len(n);
	if (len < 1 || ((char *)ibmcg_nla_data(n))[len - 1] ||
	    strcmp(ibmcg_nla_data(n), name))
		return -1;
	return (int)*(uint32_t *)ibmcg_nla_data(id);
}

/* A u32 attribute (at least 4 bytes) into *v; a shorter one is malformed. */
static int get_u32(const struct nlattr *a, int *v)
{
	uint32_t x;

	if (!a)
		return 0;
	if (ibmcg_nla_len(a) < (int)sizeof(x))
		return -EPROTO;
	memcpy(&x, ibmcg_nla_data(a), sizeof(x));
	*v = (int)x;
	return 0;
}

int ibmcg__parse_family(const struct nlmsghdr *nlh, const char *grp_name,
		       struct ibmcg_family *fi)
{
	const struct nlattr *head, *a, *id = NULL, *ver = NULL, *max = NULL;
	const struct nlattr *grps = NULL;
	struct nlattr *g;
	int len, rem, gid;
	uint16_t fam;

	fi->id = -1;
	fi->version = 1;
	fi->maxattr = 0;
	fi->events_grp = -1;
	if (!ibmcg__genl_hdr(nlh, &head, &len))
		return -EPROTO;
	ibmcg_nla_for_each(a, (struct nlattr *)head, len, rem) {
		switch (a->nla_type & NLA_TYPE_MASK) {
		case CTRL_ATTR_FAMILY_ID:
			id = a;
			break;
		case CTRL_ATTR_VERSION:
			ver = a;
			break;
		case CTRL_ATTR_MAXATTR:
			max = a;
			break;
		case CTRL_ATTR_MCAST_GROUPS:
			grps = a;
			break;
		}
	}
	if (!id || ibmcg_nla_len(id) < (int)sizeof(fam))
		return -EPROTO;
	if (get_u32(ver, &fi->version) || get_u32(max, &fi->maxattr))
		return -EPROTO;
	memcpy(&fam, ibmcg_nla_data(id), sizeof(fam));
	fi->id = fam;
	if (grps)
		ibmcg_nla_for_each_nested(g, grps, rem) {
			gid = mcast_grp_id(g, grp_name);
			if (gid >= 0)
				fi->events_grp = gid;
		}
	return 0;
}
