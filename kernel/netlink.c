// SPDX-License-Identifier: GPL-2.0
/*
 * The ib_mcgroups generic netlink family; the protocol is documented in
 * include/uapi/ib_mcgroups.h. Requests are parsed and checked here, with
 * an extack message for every rejection, before anything is changed.
 *
 * The family runs with parallel_ops: every op takes mcg_lock itself. Bound
 * holds are released from the netlink notifier when their socket closes
 * (NETLINK_URELEASE runs in process context of the closing task; see
 * struct mcg_sock for why the portid is not enough to find them).
 *
 * Who may do what (the "Security model" of the admin guide): JOIN, LEAVE
 * and OWNER_RELEASE check CAP_NET_ADMIN themselves (netlink_capable(): the
 * socket's opener and the sender, in the initial user namespace; the
 * family exists in init_net only), so that a caller without it gets the
 * unprivileged policy, each refusal with a message: bound holds only,
 * owned by "uid:N" (N the sender's real uid, from the request's
 * credentials), no linger time, no controlled Q_Key, at most
 * user_max_holds of them, no parameters for a group root does not hold,
 * and LEAVE of its own socket's holds alone. Readers without it
 * see only their own such holds; a group's IB_MCG_A_HOLDER_COUNT still
 * counts all.
 */
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/timekeeping.h>
#include <linux/uidgid.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <rdma/ib_cache.h>

#include "ib_mcgroups.h"
#include "mcg_logic.h"

static struct genl_family mcg_family;

enum { MCG_MCGRP_EVENTS };

static const struct genl_multicast_group mcg_mcgrps[] = {
	[MCG_MCGRP_EVENTS] = {
		.name = IB_MCG_MCGRP_EVENTS,
#ifdef MCG_HAVE_GENL_MCAST_CAP_NET_ADMIN
		/* events name owners: not for every local user */
		.flags = GENL_MCAST_CAP_NET_ADMIN,
#endif
		/* else events carry no owner names or portids: MCG_EVENTS_ANON */
	},
};

#define MCG_POLICY_DEV							\
	[IB_MCG_A_DEV_NAME]	= { .type = NLA_STRING },		\
	[IB_MCG_A_DEV_INDEX]	= { .type = NLA_U32 },			\
	[IB_MCG_A_PORT]		= { .type = NLA_U32 }

static struct netlink_range_validation flow_label_range = {
	.max = 0xfffff,
};

static const struct nla_policy mcg_join_policy[IB_MCG_A_MAX + 1] = {
	MCG_POLICY_DEV,
	[IB_MCG_A_MGID]		= NLA_POLICY_EXACT_LEN(16),
	[IB_MCG_A_OWNER]	= { .type = NLA_STRING },
	[IB_MCG_A_JOIN_STATE]	= { .type = NLA_U8 },
	[IB_MCG_A_FLAGS]	= NLA_POLICY_MASK(NLA_U32, __IB_MCG_F_ALL),
	[IB_MCG_A_QKEY]		= { .type = NLA_U32 },
	[IB_MCG_A_LINGER_MS]	= { .type = NLA_U32 },
	[IB_MCG_A_PKEY]		= { .type = NLA_U16 },
	[IB_MCG_A_MTU]		= NLA_POLICY_RANGE(NLA_U8, IB_MTU_256,
						   IB_MTU_4096),
	[IB_MCG_A_RATE]		= NLA_POLICY_RANGE(NLA_U8, IB_RATE_2_5_GBPS,
						   IB_RATE_600_GBPS),
	[IB_MCG_A_SL]		= NLA_POLICY_MAX(NLA_U8, 15),
	[IB_MCG_A_FLOW_LABEL]	= NLA_POLICY_FULL_RANGE(NLA_U32, &flow_label_range),
	[IB_MCG_A_TCLASS]	= { .type = NLA_U8 },
	[IB_MCG_A_HOP_LIMIT]	= { .type = NLA_U8 },
	[IB_MCG_A_SCOPE]	= NLA_POLICY_MAX(NLA_U8, 15),
	[IB_MCG_A_REPLY_BRIEF]	= { .type = NLA_FLAG },
};

static const struct nla_policy mcg_owner_release_policy[IB_MCG_A_MAX + 1] = {
	MCG_POLICY_DEV,
	[IB_MCG_A_OWNER]	= { .type = NLA_STRING },
};

static const struct nla_policy mcg_leave_policy[IB_MCG_A_MAX + 1] = {
	MCG_POLICY_DEV,
	[IB_MCG_A_MGID]		= NLA_POLICY_EXACT_LEN(16),
	[IB_MCG_A_OWNER]	= { .type = NLA_STRING },
	[IB_MCG_A_JOIN_STATE]	= { .type = NLA_U8 },
};

/* do: device, port, MGID; dump: the same, each optional (filters). */
static const struct nla_policy mcg_group_get_policy[IB_MCG_A_MAX + 1] = {
	MCG_POLICY_DEV,
	[IB_MCG_A_MGID]		= NLA_POLICY_EXACT_LEN(16),
	[IB_MCG_A_LIST_BRIEF]	= { .type = NLA_FLAG },
};

/* REJOIN names a group as GROUP_GET's "do" does. */
static const struct nla_policy mcg_rejoin_policy[IB_MCG_A_MAX + 1] = {
	MCG_POLICY_DEV,
	[IB_MCG_A_MGID]		= NLA_POLICY_EXACT_LEN(16),
};

static const struct nla_policy mcg_port_get_policy[IB_MCG_A_MAX + 1] = {
	MCG_POLICY_DEV,
};

/*
 * Where the kernel cannot keep listeners without CAP_NET_ADMIN out of the
 * events group, the events name nobody: holders without owner or portid.
 */
#ifdef MCG_HAVE_GENL_MCAST_CAP_NET_ADMIN
#define MCG_EVENTS_ANON false
#else
#define MCG_EVENTS_ANON true
#endif

/* ---- the caller ------------------------------------------------------- */

/*
 * The token (struct mcg_sock) of the socket that sent @skb: the socket
 * itself. (Generic netlink's per-socket private data, sock_priv, 6.10,
 * would do, but genl_sk_priv_get() is not exported to modules.)
 */
static void *nl_sock_token(struct sk_buff *skb)
{
	return NETLINK_CB(skb).sk;
}

/*
 * Who sent a request, from its skb: whether it has CAP_NET_ADMIN and its
 * real uid (the credentials netlink_sendmsg() recorded). Only the first
 * round of a dump runs in the sender's context: dumps take this once.
 */
struct mcg_caller {
	bool admin;
	kuid_t uid;
};

static struct mcg_caller nl_caller(const struct sk_buff *skb)
{
	return (struct mcg_caller){
		.admin	= netlink_capable(skb, CAP_NET_ADMIN),
		.uid	= NETLINK_CB(skb).creds.uid,
	};
}

/* The only owner a caller without CAP_NET_ADMIN may act for. */
static void uid_owner(kuid_t uid, char *buf)
{
	snprintf(buf, IB_MCG_OWNER_MAX + 1, "uid:%u",
		 from_kuid_munged(&init_user_ns, uid));
}

/* ---- request parsing --------------------------------------------------- */

/* NL_SET_ERR_MSG() for a message chosen by the caller; @msg is a literal. */
static void set_err(struct netlink_ext_ack *extack, const struct nlattr *attr,
		    const char *msg)
{
	if (!extack)
		return;
	extack->_msg = msg;
	NL_SET_BAD_ATTR(extack, attr);
}

/* The parsed attributes of a dump's request (compat.h knows where). */
static struct nlattr **dump_attrs(struct netlink_callback *cb)
{
	return mcg_dump_attrs(cb);
}

static int require(struct nlattr **tb, int type, const char *msg,
		   struct netlink_ext_ack *extack)
{
	if (tb[type])
		return 0;
	set_err(extack, NULL, msg);
	return -EINVAL;
}

/*
 * A string attribute as a C string of at most @max bytes: one trailing NUL
 * is allowed, embedded NULs and control characters are not.
 */
static int get_string(const struct nlattr *attr, char *buf, size_t max,
		      const char *what_bad, struct netlink_ext_ack *extack)
{
	int len = mcg_name_len(nla_data(attr), nla_len(attr), max);

	if (len < 0) {
		set_err(extack, attr, what_bad);
		return -EINVAL;
	}
	memcpy(buf, nla_data(attr), len);
	buf[len] = '\0';
	return 0;
}

/* Resolves the device of a request; under mcg_lock. */
static struct mcg_device *nl_device(struct nlattr **tb,
				    struct netlink_ext_ack *extack)
{
	char name[IB_DEVICE_NAME_MAX];
	struct mcg_device *dev;

	if (tb[IB_MCG_A_DEV_NAME]) {
		if (get_string(tb[IB_MCG_A_DEV_NAME], name, sizeof(name) - 1,
			       "device name is empty, too long or not printable",
			       extack))
			return ERR_PTR(-EINVAL);
		dev = mcg_device_find(name, true, 0);
	} else if (tb[IB_MCG_A_DEV_INDEX]) {
		dev = mcg_device_find(NULL, false,
				      nla_get_u32(tb[IB_MCG_A_DEV_INDEX]));
	} else {
		NL_SET_ERR_MSG(extack, "device name or index is required");
		return ERR_PTR(-EINVAL);
	}
	if (!dev) {
		NL_SET_ERR_MSG(extack, "no such RDMA device");
		return ERR_PTR(-ENODEV);
	}
	if (!mcg_device_visible(dev)) {
		NL_SET_ERR_MSG(extack,
			       "RDMA device is in another network namespace (exclusive mode)");
		return ERR_PTR(-ENODEV);
	}
	if (tb[IB_MCG_A_DEV_NAME] && tb[IB_MCG_A_DEV_INDEX] &&
	    nla_get_u32(tb[IB_MCG_A_DEV_INDEX]) != dev->ibdev->index) {
		NL_SET_ERR_MSG(extack,
			       "device name and device index name different devices");
		return ERR_PTR(-EINVAL);
	}
	return dev;
}

static struct mcg_port *get_port(struct mcg_device *dev, struct nlattr **tb,
				 struct netlink_ext_ack *extack)
{
	struct mcg_port *port;
	u32 num;

	if (require(tb, IB_MCG_A_PORT, "port is required", extack))
		return ERR_PTR(-EINVAL);
	num = nla_get_u32(tb[IB_MCG_A_PORT]);
	if (!num) {
		NL_SET_ERR_MSG_ATTR(extack, tb[IB_MCG_A_PORT],
				    "port 0 does not exist: ports are numbered from 1");
		return ERR_PTR(-EINVAL);
	}
	port = mcg_port_get(dev, num);
	if (!port) {
		NL_SET_ERR_MSG_ATTR(extack, tb[IB_MCG_A_PORT],
				    "port number out of range for this device");
		return ERR_PTR(-ENODEV);
	}
	return port;
}

static struct mcg_port *get_dev_port(struct nlattr **tb,
				     struct netlink_ext_ack *extack)
{
	struct mcg_device *dev = nl_device(tb, extack);

	if (IS_ERR(dev))
		return ERR_CAST(dev);
	return get_port(dev, tb, extack);
}

/*
 * The group a request names by device, port and MGID (GROUP_GET's do and
 * its dump of one group, REJOIN), or an ERR_PTR with the reason in
 * @extack. With @rejoin, a port whose backend cannot re-join (RoCE) is
 * refused before the group is looked for. Under mcg_lock.
 */
static struct mcg_group *nl_group(struct nlattr **tb, bool rejoin,
				  struct netlink_ext_ack *extack)
{
	struct mcg_port *port;
	struct mcg_group *g;
	union ib_gid mgid;

	if (require(tb, IB_MCG_A_MGID, "MGID is required", extack))
		return ERR_PTR(-EINVAL);
	port = get_dev_port(tb, extack);
	if (IS_ERR(port))
		return ERR_CAST(port);
	if (rejoin && !port->backend->rejoin) {
		NL_SET_ERR_MSG(extack,
			       "REJOIN is for InfiniBand ports (SA memberships) only");
		return ERR_PTR(-EOPNOTSUPP);
	}
	nla_memcpy(mgid.raw, tb[IB_MCG_A_MGID], sizeof(mgid.raw));
	g = mcg_group_find(port, &mgid);
	if (!g) {
		NL_SET_ERR_MSG(extack, "no such group on this port");
		return ERR_PTR(-ENOENT);
	}
	return g;
}

/*
 * An optional device and port that narrow a request (dumps, owner
 * release): *dev and *port stay NULL when not given. Under mcg_lock.
 */
static int get_filter(struct nlattr **tb, struct mcg_device **dev,
		      struct mcg_port **port, struct netlink_ext_ack *extack)
{
	*dev = NULL;
	*port = NULL;
	if (!tb[IB_MCG_A_DEV_NAME] && !tb[IB_MCG_A_DEV_INDEX]) {
		if (!tb[IB_MCG_A_PORT])
			return 0;
		NL_SET_ERR_MSG(extack, "a port filter needs a device");
		return -EINVAL;
	}
	*dev = nl_device(tb, extack);
	if (IS_ERR(*dev))
		return PTR_ERR(*dev);
	if (tb[IB_MCG_A_PORT]) {
		*port = get_port(*dev, tb, extack);
		if (IS_ERR(*port))
			return PTR_ERR(*port);
	}
	return 0;
}

static int get_join_state(struct nlattr **tb, u8 *js,
			  struct netlink_ext_ack *extack)
{
	u8 v = nla_get_u8(tb[IB_MCG_A_JOIN_STATE]);

	if (mcg_join_state_valid(v)) {
		*js = v;
		return 0;
	}
	NL_SET_ERR_MSG_ATTR(extack, tb[IB_MCG_A_JOIN_STATE],
			    "join state must be exactly one of full (1), non-member (2), send-only non-member (4), send-only full (8)");
	return -EINVAL;
}

/*
 * What every JOIN and LEAVE names: the group and the owner. A caller
 * without CAP_NET_ADMIN acts for "uid:N" only, which it may leave out.
 */
static int get_group_owner(struct nlattr **tb, const struct mcg_caller *who,
			   union ib_gid *mgid, char *owner,
			   struct netlink_ext_ack *extack)
{
	char mine[IB_MCG_OWNER_MAX + 1] = "";
	int err;

	if (require(tb, IB_MCG_A_MGID, "MGID is required", extack))
		return -EINVAL;
	nla_memcpy(mgid->raw, tb[IB_MCG_A_MGID], sizeof(mgid->raw));
	if (!who->admin) {
		uid_owner(who->uid, mine);
		if (!tb[IB_MCG_A_OWNER]) {
			strscpy(owner, mine, IB_MCG_OWNER_MAX + 1);
			return 0;
		}
	} else if (require(tb, IB_MCG_A_OWNER, "owner is required", extack)) {
		return -EINVAL;
	}
	err = get_string(tb[IB_MCG_A_OWNER], owner, IB_MCG_OWNER_MAX,
			 "owner must be 1 to 64 printable characters without spaces",
			 extack);
	if (err || who->admin || !strcmp(owner, mine))
		return err;
	set_err(extack, tb[IB_MCG_A_OWNER],
		"without CAP_NET_ADMIN the owner must be uid:<your uid> (or none, the same)");
	return -EPERM;
}

/*
 * What a JOIN without CAP_NET_ADMIN may not ask for: a hold that outlives
 * its socket (unbound, or a linger time that keeps the membership after
 * it), or a controlled Q_Key (high bit set, IBA 10.2.4: privileged only).
 */
static int check_unpriv_join(struct nlattr **tb, const struct mcg_join_req *req,
			     struct netlink_ext_ack *extack)
{
	if (!(req->flags & IB_MCG_F_BOUND)) {
		set_err(extack, tb[IB_MCG_A_FLAGS],
			"without CAP_NET_ADMIN only bound holds (IB_MCG_F_BOUND) may be taken");
		return -EPERM;
	}
	if (req->has_linger) {
		set_err(extack, tb[IB_MCG_A_LINGER_MS],
			"without CAP_NET_ADMIN a join cannot set a linger time");
		return -EPERM;
	}
	if (req->has_qkey && (req->qkey & 0x80000000)) {
		set_err(extack, tb[IB_MCG_A_QKEY],
			"without CAP_NET_ADMIN the Q_Key must not be a controlled one (high bit set)");
		return -EPERM;
	}
	return 0;
}

/*
 * InfiniBand create parameters; any of them (or an all-zero MGID) makes
 * the join a create. Ranges are checked by the policy.
 */
static int get_create(struct nlattr **tb, struct mcg_join_req *req,
		      struct netlink_ext_ack *extack)
{
	struct mcg_create *c = &req->create;

	c->pkey = 0xffff;
	c->qkey = req->has_qkey;
	c->create = !memchr_inv(req->mgid.raw, 0, sizeof(req->mgid.raw));
	if (tb[IB_MCG_A_PKEY]) {
		c->pkey = nla_get_u16(tb[IB_MCG_A_PKEY]);
		c->create = true;
		if (!mcg_pkey_valid(c->pkey)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[IB_MCG_A_PKEY],
					    "P_Key 0x0000 and 0x8000 are the invalid P_Key");
			return -EINVAL;
		}
	}
	if (tb[IB_MCG_A_SL]) {
		c->sl = nla_get_u8(tb[IB_MCG_A_SL]);
		c->create = true;
	}
	if (tb[IB_MCG_A_TCLASS]) {
		c->tclass = nla_get_u8(tb[IB_MCG_A_TCLASS]);
		c->create = true;
	}
	if (tb[IB_MCG_A_FLOW_LABEL]) {
		c->flow_label = nla_get_u32(tb[IB_MCG_A_FLOW_LABEL]);
		c->create = true;
	}
	if (tb[IB_MCG_A_MTU]) {
		c->mtu = nla_get_u8(tb[IB_MCG_A_MTU]);
		c->has |= MCG_HAS_MTU;
	}
	if (tb[IB_MCG_A_RATE]) {
		c->rate = nla_get_u8(tb[IB_MCG_A_RATE]);
		c->has |= MCG_HAS_RATE;
	}
	if (tb[IB_MCG_A_HOP_LIMIT]) {
		c->hop_limit = nla_get_u8(tb[IB_MCG_A_HOP_LIMIT]);
		c->has |= MCG_HAS_HOP;
	}
	if (tb[IB_MCG_A_SCOPE]) {
		c->scope = nla_get_u8(tb[IB_MCG_A_SCOPE]);
		c->has |= MCG_HAS_SCOPE;
	}
	if (c->has)
		c->create = true;
	return 0;
}

/* ---- messages ---------------------------------------------------------- */

/* Which holders a group message lists. */
enum { HOLDERS_NONE, HOLDERS_ONE, HOLDERS_ALL };

static size_t holder_msg_size(const struct mcg_holder *h)
{
	return nla_total_size(0) + nla_total_size(strlen(h->o->name) + 1) +
	       nla_total_size(1) + 2 * nla_total_size(4) +
	       2 * nla_total_size_64bit(8);
}

/*
 * The largest reply to a GROUP_GET "do": a group whose holders do not fit
 * lists the first ones that do (IB_MCG_A_HOLDER_COUNT says how many there
 * are; the dump lists them all). Keeps the IB_MCG_A_HOLDERS nest, whose
 * length is a u16, well below 64 KiB.
 */
#define MCG_DO_REPLY_MAX	(48 * 1024)

/*
 * A list nest (holders, released groups) ends before its u16 length could
 * wrap, whatever the size of the message: the rest goes in the next one.
 * Its entries are far smaller than the margin.
 */
static bool nest_full(const struct sk_buff *skb, const struct nlattr *nest)
{
	return skb_tail_pointer(skb) - (const unsigned char *)nest >
	       U16_MAX - 1024;
}

/* An upper bound on a group message with the given holders. */
static size_t group_msg_size(const struct mcg_group *g, int which,
			     const struct mcg_holder *one)
{
	size_t size = NLMSG_ALIGN(GENL_HDRLEN) + 384 + nla_total_size(4);
	const struct mcg_holder *h;

	if (which == HOLDERS_ONE)
		size += holder_msg_size(one);
	else if (which == HOLDERS_ALL && g->hold != MCG_HOLD_RELEASED)
		list_for_each_entry(h, &g->holders, node)
			size += holder_msg_size(h);
	return size;
}

/*
 * Who a group message is for: NULL, a reader with CAP_NET_ADMIN, sees
 * every holder; a reader without it only the holds it took itself (the
 * others are only counted, in IB_MCG_A_HOLDER_COUNT); @anon, events that
 * anyone may be listening to, name no owner and no socket.
 */
struct mcg_reader {
	bool anon;
	kuid_t uid;
};

static bool holder_visible(const struct mcg_holder *h,
			   const struct mcg_reader *rd)
{
	return !rd || rd->anon || (h->unpriv && uid_eq(h->uid, rd->uid));
}

/*
 * What a group message shows: @which of its holders (none, just @one, or
 * all), those @rd may see (NULL: all), with their ages as of @now; @after
 * is the cursor of a list spanning messages (fill_group()). A dump takes
 * the time once per message, not once per group; @now is read under
 * mcg_lock, so after the start of every holder listed. @brief: the list
 * view of IB_MCG_A_LIST_BRIEF (no group id, no record on RoCE, no port
 * GID, holders without age and id).
 */
struct mcg_view {
	int which;
	const struct mcg_holder *one;
	const struct mcg_reader *rd;
	u64 *after;
	u64 now;
	bool brief;
};

static int put_holder(struct sk_buff *skb, const struct mcg_holder *h,
		      const struct mcg_view *v)
{
	bool anon = v->rd && v->rd->anon;
	struct nlattr *nest = nla_nest_start(skb, IB_MCG_A_HOLDER);

	if (!nest)
		return -EMSGSIZE;
	if ((!anon && nla_put_string(skb, IB_MCG_HOLDER_A_OWNER, h->o->name)) ||
	    nla_put_u8(skb, IB_MCG_HOLDER_A_JOIN_STATE, h->join_state) ||
	    nla_put_u32(skb, IB_MCG_HOLDER_A_FLAGS, h->flags) ||
	    (!anon && (h->flags & IB_MCG_F_BOUND) &&
	     nla_put_u32(skb, IB_MCG_HOLDER_A_NL_PORTID,
			 h->bound->sock.portid)))
		goto cancel;
	if (!v->brief &&
	    (nla_put_u64_64bit(skb, IB_MCG_HOLDER_A_AGE_MS,
			       div_u64(v->now - h->since_ns, NSEC_PER_MSEC),
			       IB_MCG_HOLDER_A_PAD) ||
	     nla_put_u64_64bit(skb, IB_MCG_HOLDER_A_ID, h->id,
			       IB_MCG_HOLDER_A_PAD)))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;

cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

static int put_dev_port(struct sk_buff *skb, const struct mcg_port *port)
{
	if (nla_put_string(skb, IB_MCG_A_DEV_NAME, mcg_dev_name(port)) ||
	    nla_put_u32(skb, IB_MCG_A_DEV_INDEX, port->dev->ibdev->index) ||
	    nla_put_u32(skb, IB_MCG_A_PORT, port->port_num))
		return -EMSGSIZE;
	return 0;
}

/*
 * The member record; the list view (@brief) has InfiniBand's fabric
 * parameters only, those the SA chose.
 */
static int put_rec(struct sk_buff *skb, const struct mcg_group *g, bool brief)
{
	const struct mcg_rec *rec = &g->rec;

	if (!rec->valid ||
	    (brief && g->port->backend->id != IB_MCG_BACKEND_IB_SA))
		return 0;
	if (nla_put_u16(skb, IB_MCG_A_MLID, rec->mlid) ||
	    (rec->prev_mlid &&
	     nla_put_u16(skb, IB_MCG_A_PREV_MLID, rec->prev_mlid)) ||
	    nla_put_u32(skb, IB_MCG_A_QKEY, rec->qkey) ||
	    nla_put_u16(skb, IB_MCG_A_PKEY, rec->pkey) ||
	    nla_put_u8(skb, IB_MCG_A_MTU, rec->mtu) ||
	    nla_put_u8(skb, IB_MCG_A_RATE, rec->rate) ||
	    nla_put_u8(skb, IB_MCG_A_SL, rec->sl) ||
	    nla_put_u32(skb, IB_MCG_A_FLOW_LABEL, rec->flow_label) ||
	    nla_put_u8(skb, IB_MCG_A_TCLASS, rec->tclass) ||
	    nla_put_u8(skb, IB_MCG_A_HOP_LIMIT, rec->hop_limit))
		return -EMSGSIZE;
	if (brief)
		return 0;
	if (nla_put(skb, IB_MCG_A_PORT_GID, sizeof(rec->port_gid.raw),
		    rec->port_gid.raw) ||
	    nla_put_u32(skb, IB_MCG_A_SGID_INDEX, rec->sgid_index))
		return -EMSGSIZE;
	return 0;
}

static u32 linger_left_ms(const struct mcg_group *g)
{
	return mcg_linger_left_ms(g->linger_until, jiffies);
}

/*
 * One group message as @v shows it, listing the holders it selects (none
 * when @g is a released snapshot, whose holder list is empty).
 *
 * With v->after (HOLDERS_ALL), holders are listed from the first whose
 * id is above *after (0: from the first), and if the rest do not fit, the
 * message ends after those that do: *after is the id of the last one
 * listed and -EAGAIN says the group continues in the next message. The
 * cursor is an id, not a position, so holders that come and go between
 * the messages neither repeat nor hide the others. Returns -EMSGSIZE if
 * nothing of the group fits.
 */
static int fill_group(struct sk_buff *skb, const struct mcg_group *g,
		      u32 portid, u32 seq, int flags, u8 cmd, u8 reason,
		      const struct mcg_view *v)
{
	u64 *after = v->after;
	const struct mcg_holder *h;
	unsigned int n = 0;
	struct nlattr *nest;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &mcg_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (put_dev_port(skb, g->port) ||
	    nla_put(skb, IB_MCG_A_MGID, sizeof(g->mgid.raw), g->mgid.raw) ||
	    (!v->brief &&
	     nla_put_u64_64bit(skb, IB_MCG_A_GROUP_ID, g->id, IB_MCG_A_PAD)) ||
	    nla_put_u8(skb, IB_MCG_A_STATE, mcg_group_state(g)) ||
	    nla_put_u8(skb, IB_MCG_A_LINK_STATE, g->link) ||
	    nla_put_u8(skb, IB_MCG_A_REASON, reason) ||
	    nla_put_u32(skb, IB_MCG_A_ERROR, g->error) ||
	    nla_put_u8(skb, IB_MCG_A_JOIN_STATE, g->join_state) ||
	    nla_put_u8(skb, IB_MCG_A_BACKEND, g->port->backend->id) ||
	    nla_put_u32(skb, IB_MCG_A_LINGER_MS, g->linger_ms) ||
	    nla_put_u32(skb, IB_MCG_A_HOLDER_COUNT, g->nholders) ||
	    (g->hold == MCG_HOLD_LINGERING &&
	     nla_put_u32(skb, IB_MCG_A_LINGER_LEFT_MS, linger_left_ms(g))) ||
	    put_rec(skb, g, v->brief))
		goto cancel;

	nest = nla_nest_start(skb, IB_MCG_A_HOLDERS);
	if (!nest)
		goto cancel;
	if (v->which == HOLDERS_ONE) {
		if (put_holder(skb, v->one, v))
			goto cancel;
	} else if (v->which == HOLDERS_ALL && g->hold != MCG_HOLD_RELEASED) {
		list_for_each_entry(h, &g->holders, node) {
			if (h->id <= *after || !holder_visible(h, v->rd))
				continue;
			if (nest_full(skb, nest) || put_holder(skb, h, v)) {
				if (!n)
					goto cancel;
				nla_nest_end(skb, nest);
				genlmsg_end(skb, hdr);
				return -EAGAIN;
			}
			*after = h->id;
			n++;
		}
	}
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	if (after)
		*after = 0;
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static int reply_group(struct genl_info *info, const struct mcg_group *g,
		       u8 cmd, int which, const struct mcg_holder *one,
		       const struct mcg_reader *rd)
{
	size_t size = min_t(size_t, group_msg_size(g, which, one),
			    MCG_DO_REPLY_MAX);
	u64 after = 0;
	/* Only GROUP_GET's policy lets IB_MCG_A_LIST_BRIEF through. */
	struct mcg_view v = {
		.which = which, .one = one, .rd = rd, .after = &after,
		.now = ktime_get_boottime_ns(),
		.brief = !!info->attrs[IB_MCG_A_LIST_BRIEF],
	};
	struct sk_buff *skb;
	int err;

	skb = genlmsg_new(size, GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	err = fill_group(skb, g, info->snd_portid, info->snd_seq, 0, cmd,
			 g->reason, &v);
	if (err == -EAGAIN)	/* the holders that fit; see MCG_DO_REPLY_MAX */
		err = 0;
	if (err) {
		nlmsg_free(skb);
		return err;
	}
	return genlmsg_reply(skb, info);
}

/*
 * The brief reply to a JOIN (IB_MCG_A_REPLY_BRIEF): the group's id and
 * state and the hold's id, all a requester that does not want the group
 * needs to know whether, and for what, to wait.
 */
static int reply_join_brief(struct genl_info *info, const struct mcg_group *g,
			    const struct mcg_holder *h)
{
	struct nlattr *list, *ho;
	struct sk_buff *skb;
	void *hdr;

	skb = genlmsg_new(2 * nla_total_size_64bit(8) + nla_total_size(1) +
			  2 * nla_total_size(0), GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	hdr = genlmsg_put_reply(skb, info, &mcg_family, 0, IB_MCG_CMD_JOIN);
	if (!hdr)
		goto nospace;
	if (nla_put_u64_64bit(skb, IB_MCG_A_GROUP_ID, g->id, IB_MCG_A_PAD) ||
	    nla_put_u8(skb, IB_MCG_A_STATE, mcg_group_state(g)))
		goto nospace;
	list = nla_nest_start(skb, IB_MCG_A_HOLDERS);
	ho = list ? nla_nest_start(skb, IB_MCG_A_HOLDER) : NULL;
	if (!ho || nla_put_u64_64bit(skb, IB_MCG_HOLDER_A_ID, h->id,
				     IB_MCG_HOLDER_A_PAD))
		goto nospace;
	nla_nest_end(skb, ho);
	nla_nest_end(skb, list);
	genlmsg_end(skb, hdr);
	return genlmsg_reply(skb, info);

nospace:
	nlmsg_free(skb);
	return -EMSGSIZE;
}

/**
 * nl_group_event() - multicast a group or holder notification
 * @g: the group
 * @cmd: the notification, an IB_MCG_CMD_*_NTF
 * @reason: why (enum ib_mcg_reason)
 * @h: the holder a holder notification lists, or NULL for a group one
 *
 * Holder notifications list their holder; group notifications none.
 * Sends to the events multicast group of init_net, in the GROUP_GET
 * format. Does nothing without listeners; a notification that cannot be
 * allocated or filled is dropped without a word.
 *
 * Context: under mcg_lock; may sleep (GFP_KERNEL).
 */
static void nl_group_event(struct mcg_group *g, u8 cmd, u8 reason,
			   const struct mcg_holder *h)
{
	static const struct mcg_reader listeners = { .anon = true };
	struct mcg_view v = {
		.which = h ? HOLDERS_ONE : HOLDERS_NONE, .one = h,
		.rd = MCG_EVENTS_ANON ? &listeners : NULL,
	};
	struct sk_buff *skb;

	if (!genl_has_listeners(&mcg_family, &init_net, MCG_MCGRP_EVENTS))
		return;
	skb = genlmsg_new(group_msg_size(g, v.which, h), GFP_KERNEL);
	if (!skb)
		return;
	v.now = ktime_get_boottime_ns();
	if (fill_group(skb, g, 0, 0, 0, cmd, reason, &v)) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_multicast(&mcg_family, skb, 0, MCG_MCGRP_EVENTS, GFP_KERNEL);
}

static int fill_port(struct sk_buff *skb, struct mcg_port *port, u32 portid,
		     u32 seq, int flags, u8 cmd);

/**
 * nl_port_event() - multicast a port notification
 * @port: the port
 * @cmd: the notification (the re-join wave's start or end)
 *
 * A port event (re-join waves), in the PORT_GET format. Dropped, as in
 * nl_group_event(), when nobody listens or it cannot be built.
 *
 * Context: under mcg_lock; may sleep (GFP_KERNEL).
 */
static void nl_port_event(struct mcg_port *port, u8 cmd)
{
	struct sk_buff *skb;

	if (!genl_has_listeners(&mcg_family, &init_net, MCG_MCGRP_EVENTS))
		return;
	skb = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!skb)
		return;
	if (fill_port(skb, port, 0, 0, 0, cmd)) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_multicast(&mcg_family, skb, 0, MCG_MCGRP_EVENTS, GFP_KERNEL);
}

/* The group layer's and the backends' events, as notifications. */
static const struct mcg_events nl_events = {
	.group	= nl_group_event,
	.port	= nl_port_event,
};

/* ---- JOIN / LEAVE ------------------------------------------------------ */

/*
 * JOIN answers at once with the group as it is. No request sleeps on the
 * fabric: a doit runs under the global genetlink cb_lock, and a family
 * (un)registering anywhere on the system would wait for it, and every
 * genetlink request behind that. A group an asynchronous backend (the SA)
 * is still joining is reported JOINING, with its IB_MCG_A_GROUP_ID; the
 * outcome follows as a GROUP_STATE_NTF or GROUP_DEL_NTF carrying that id,
 * which libibmcg waits for (subscribed before it sends the JOIN).
 */
static int mcg_nl_join(struct sk_buff *skb, struct genl_info *info)
{
	struct mcg_caller who = nl_caller(skb);
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;
	char owner[IB_MCG_OWNER_MAX + 1];
	struct mcg_join_req req = {
		.owner		= owner,
		.join_state	= IB_MCG_JOIN_FULL,
		.nl_sock	= {
			.net	= genl_info_net(info),
			.portid	= info->snd_portid,
			.token	= nl_sock_token(skb),
		},
		.unpriv		= !who.admin,
		.uid		= who.uid,
		/* the sender's namespace: a doit runs in its task */
		.charge_uid	= mcg_charge_uid(current_user_ns(), who.uid),
	};
	struct mcg_holder *h;
	struct mcg_group *g;
	int err;

	err = get_group_owner(tb, &who, &req.mgid, owner, extack);
	if (err)
		return err;
	if (tb[IB_MCG_A_JOIN_STATE]) {
		err = get_join_state(tb, &req.join_state, extack);
		if (err)
			return err;
	}
	if (tb[IB_MCG_A_FLAGS])
		req.flags = nla_get_u32(tb[IB_MCG_A_FLAGS]);
	if (tb[IB_MCG_A_QKEY]) {
		req.qkey = nla_get_u32(tb[IB_MCG_A_QKEY]);
		req.has_qkey = true;
	}
	if (tb[IB_MCG_A_LINGER_MS]) {
		req.linger_ms = nla_get_u32(tb[IB_MCG_A_LINGER_MS]);
		req.has_linger = true;
		if (!mcg_linger_valid(req.linger_ms)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[IB_MCG_A_LINGER_MS],
					    "linger time is longer than one day");
			return -EINVAL;
		}
	}

	if (req.unpriv) {
		err = check_unpriv_join(tb, &req, extack);
		if (err)
			return err;
	}
	err = get_create(tb, &req, extack);
	if (err)
		return err;

	mutex_lock(&mcg_lock);
	req.port = get_dev_port(tb, extack);
	if (IS_ERR(req.port)) {
		err = PTR_ERR(req.port);
		goto out;
	}
	err = mcg_join(&req, &g, &h, extack);
	if (!err && tb[IB_MCG_A_REPLY_BRIEF])
		err = reply_join_brief(info, g, h);
	else if (!err)
		err = reply_group(info, g, IB_MCG_CMD_JOIN, HOLDERS_ONE, h,
				  NULL);
out:
	mutex_unlock(&mcg_lock);
	return err;
}

static int mcg_nl_leave(struct sk_buff *skb, struct genl_info *info)
{
	struct mcg_caller who = nl_caller(skb);
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;
	char owner[IB_MCG_OWNER_MAX + 1];
	/* A user's LEAVE drops only the holds of the socket it came on. */
	const struct mcg_sock sock = {
		.net	= genl_info_net(info),
		.portid	= info->snd_portid,
		.token	= nl_sock_token(skb),
	};
	struct mcg_group *g, snap;
	struct mcg_port *port;
	struct mcg_owner *o;
	union ib_gid mgid;
	u8 js = 0;
	int err;

	err = get_group_owner(tb, &who, &mgid, owner, extack);
	if (err)
		return err;
	if (tb[IB_MCG_A_JOIN_STATE]) {
		err = get_join_state(tb, &js, extack);
		if (err)
			return err;
	}

	mutex_lock(&mcg_lock);
	port = get_dev_port(tb, extack);
	if (IS_ERR(port)) {
		err = PTR_ERR(port);
		goto out;
	}
	/* NULL if the owner holds nothing: then nothing matches. */
	o = mcg_owner_find(owner);
	if (!who.admin) {
		err = mcg_leave_check_unpriv(port, &mgid, o, js, who.uid,
					     &sock, extack);
		if (err)
			goto out;
	}
	err = mcg_leave(port, &mgid, o, js, who.admin ? NULL : &sock,
			IB_MCG_REASON_LEAVE, &g, &snap, extack);
	if (!err)
		err = reply_group(info, g, IB_MCG_CMD_LEAVE, HOLDERS_NONE,
				  NULL, NULL);
out:
	mutex_unlock(&mcg_lock);
	return err;
}

/* ---- REJOIN ------------------------------------------------------------ */

/* The backend joins the group's membership again; see the UAPI header. */
static int mcg_nl_rejoin(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct mcg_group *g;
	int err;

	mutex_lock(&mcg_lock);
	g = nl_group(info->attrs, true, extack);
	if (IS_ERR(g)) {
		err = PTR_ERR(g);
		goto out;
	}
	err = g->port->backend->rejoin(g, extack);
	if (!err)
		err = reply_group(info, g, IB_MCG_CMD_REJOIN, HOLDERS_NONE,
				  NULL, NULL);
out:
	mutex_unlock(&mcg_lock);
	return err;
}

/* ---- OWNER_RELEASE ----------------------------------------------------- */

/*
 * The result of an OWNER_RELEASE, kept from the release until it is sent:
 * a dump sends it over as many messages as it takes (cb->ctx points to
 * it; freed by .done, also when the socket closes mid-dump).
 */
struct mcg_release {
	char owner[IB_MCG_OWNER_MAX + 1];
	u32 holds;		/* holds dropped */
	u32 n;			/* ent[] used */
	u32 next;		/* dump: next entry to send */
	bool sent;		/* dump: the first message went out */
	struct mcg_released ent[];
};

static size_t released_size(const char *dev_name)
{
	return nla_total_size(0) + nla_total_size(strlen(dev_name) + 1) +
	       2 * nla_total_size(4) + nla_total_size(16) +
	       2 * nla_total_size(1);
}

/* One entry of the OWNER_RELEASE reply: a group and what was dropped. */
static int put_released(struct sk_buff *skb, const struct mcg_released *e)
{
	struct nlattr *nest = nla_nest_start(skb, IB_MCG_A_GROUP);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_string(skb, IB_MCG_A_DEV_NAME, e->dev_name) ||
	    nla_put_u32(skb, IB_MCG_A_DEV_INDEX, e->dev_index) ||
	    nla_put_u32(skb, IB_MCG_A_PORT, e->port) ||
	    nla_put(skb, IB_MCG_A_MGID, sizeof(e->mgid.raw), e->mgid.raw) ||
	    nla_put_u8(skb, IB_MCG_A_JOIN_STATE, e->dropped) ||
	    nla_put_u8(skb, IB_MCG_A_STATE, e->state)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * An upper bound on the payload of a one-message reply listing every
 * hold of @o that matches the filter; under mcg_lock.
 */
static size_t release_reply_size(const struct mcg_owner *o,
				 const struct mcg_device *dev,
				 const struct mcg_port *port)
{
	size_t size = nla_total_size(IB_MCG_OWNER_MAX + 1) +
		      nla_total_size(4) + nla_total_size(0);
	const struct mcg_holder *h;

	if (!o)
		return size;
	list_for_each_entry(h, &o->holders, owner_node)
		if (mcg_hold_matches(h, dev, port))
			size += released_size(mcg_dev_name(h->group->port));
	return size;
}

/*
 * Drops every hold of the request's owner (on its device or port) and
 * returns what was dropped, or an ERR_PTR with @extack set and nothing
 * changed. With @msgp (the "do" of protocol version 1) the result must fit
 * in one reply of at most MCG_DO_REPLY_MAX bytes, which is allocated into
 * *@msgp before anything is released, so that no failure can follow a
 * release. Groups are released by reference, never looked up by MGID: a
 * group still waiting for an SA-assigned MGID has none (all zero) yet.
 */
static struct mcg_release *owner_release(const struct sk_buff *req,
					 struct nlattr **tb,
					 struct sk_buff **msgp,
					 struct netlink_ext_ack *extack)
{
	char owner[IB_MCG_OWNER_MAX + 1];
	struct mcg_release *r;
	struct mcg_device *dev;
	struct mcg_port *port;
	struct mcg_owner *o;
	unsigned int max;
	size_t size;
	int err;

	if (!netlink_capable(req, CAP_NET_ADMIN)) {
		NL_SET_ERR_MSG(extack,
			       "OWNER_RELEASE needs CAP_NET_ADMIN (without it, close the socket of the bound holds, or leave them one by one)");
		return ERR_PTR(-EPERM);
	}
	if (require(tb, IB_MCG_A_OWNER, "owner is required", extack))
		return ERR_PTR(-EINVAL);
	err = get_string(tb[IB_MCG_A_OWNER], owner, IB_MCG_OWNER_MAX,
			 "owner must be 1 to 64 printable characters without spaces",
			 extack);
	if (err)
		return ERR_PTR(err);

	mutex_lock(&mcg_lock);
	err = get_filter(tb, &dev, &port, extack);
	if (err)
		goto out;
	o = mcg_owner_find(owner);
	if (msgp) {
		size = release_reply_size(o, dev, port);
		if (size > MCG_DO_REPLY_MAX) {
			NL_SET_ERR_MSG(extack,
				       "owner holds too many groups for a one-message reply: ask for the reply as a dump (NLM_F_DUMP, protocol version 2)");
			err = -EMSGSIZE;
			goto out;
		}
		*msgp = genlmsg_new(size, GFP_KERNEL);
		if (!*msgp) {
			err = -ENOMEM;
			goto out;
		}
	}
	/* Every group has at least one of the owner's holds. */
	max = o ? o->nholds : 0;
	r = kvzalloc(struct_size(r, ent, max), GFP_KERNEL);
	if (!r) {
		err = -ENOMEM;
		goto out_msg;
	}
	strscpy(r->owner, owner, sizeof(r->owner));

	r->n = mcg_owner_release(o, dev, port, r->ent, max, &r->holds);
	mutex_unlock(&mcg_lock);
	return r;

out_msg:
	if (msgp) {
		nlmsg_free(*msgp);
		*msgp = NULL;
	}
out:
	mutex_unlock(&mcg_lock);
	return ERR_PTR(err);
}

/*
 * One OWNER_RELEASE message: the owner, the holds dropped and as many of
 * the remaining entries, from r->next, as fit. -EMSGSIZE if not even the
 * message's head fits.
 */
static int fill_release(struct sk_buff *skb, struct mcg_release *r,
			u32 portid, u32 seq, int flags)
{
	struct nlattr *nest;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &mcg_family, flags,
			  IB_MCG_CMD_OWNER_RELEASE);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, IB_MCG_A_OWNER, r->owner) ||
	    nla_put_u32(skb, IB_MCG_A_HOLDER_COUNT, r->holds))
		goto cancel;
	nest = nla_nest_start(skb, IB_MCG_A_RELEASED);
	if (!nest)
		goto cancel;
	while (r->next < r->n && !nest_full(skb, nest) &&
	       !put_released(skb, &r->ent[r->next]))
		r->next++;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* Protocol version 1: the whole result in one reply. */
static int mcg_nl_owner_release(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg = NULL;
	struct mcg_release *r;
	int err;

	r = owner_release(skb, info->attrs, &msg, info->extack);
	if (IS_ERR(r))
		return PTR_ERR(r);
	/*
	 * Sized for every entry by release_reply_size(), so this cannot
	 * fail; the holds are gone already, so it must not.
	 */
	err = fill_release(msg, r, info->snd_portid, info->snd_seq, 0);
	kvfree(r);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static struct mcg_release **release_ctx(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct mcg_release *) > sizeof(cb->ctx));
	return (struct mcg_release **)cb->ctx;
}

/*
 * The dump form (NLM_F_DUMP): the first round releases and keeps the
 * result; every round sends as much of it as fits, so the reply is never
 * bigger than the reader's buffer and netlink's flow control paces it.
 * The release is complete before anything is sent: the NLMSG_DONE that
 * ends the messages reports success however many messages it took.
 */
static int mcg_nl_owner_release_dumpit(struct sk_buff *skb,
				       struct netlink_callback *cb)
{
	struct mcg_release *r = *release_ctx(cb);

	if (!r) {
		/* The first round, in the sender's context. */
		r = owner_release(cb->skb, dump_attrs(cb), NULL, cb->extack);
		if (IS_ERR(r))
			return PTR_ERR(r);
		*release_ctx(cb) = r;
	}
	while (!r->sent || r->next < r->n) {
		const void *mark = skb_tail_pointer(skb);
		u32 first = r->next;

		if (fill_release(skb, r, NETLINK_CB(cb->skb).portid,
				 cb->nlh->nlmsg_seq, NLM_F_MULTI))
			break;
		if (r->sent && r->next == first) {
			/* No entry fit: the rest goes in the next round. */
			nlmsg_trim(skb, mark);
			break;
		}
		r->sent = true;
	}
	/* An entry too big for an empty message would never be sent. */
	return skb->len ?: (r->sent && r->next == r->n ? 0 : -EMSGSIZE);
}

static int mcg_nl_owner_release_done(struct netlink_callback *cb)
{
	kvfree(*release_ctx(cb));
	return 0;
}

/* ---- GROUP_GET --------------------------------------------------------- */

static int mcg_nl_group_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mcg_caller who = nl_caller(skb);
	struct mcg_reader rd = { .uid = who.uid };
	struct mcg_group *g;
	int err;

	mutex_lock(&mcg_lock);
	g = nl_group(info->attrs, false, info->extack);
	if (IS_ERR(g)) {
		err = PTR_ERR(g);
		goto out;
	}
	err = reply_group(info, g, IB_MCG_CMD_GROUP_GET, HOLDERS_ALL, NULL,
			  who.admin ? NULL : &rd);
out:
	mutex_unlock(&mcg_lock);
	return err;
}

/*
 * Where a dump stands: the last object sent, and the request's filters.
 * GROUP_GET resumes by a stable cursor, (device index, port, MGID) and,
 * within a group whose holders span messages, the id of the last holder
 * sent, so that no change between two rounds makes it restart, repeat or
 * skip a group that exists throughout.
 */
struct mcg_dump_ctx {
	u32 dev_index;		/* device being dumped */
	u32 port;		/* port being dumped (PORT_GET: next port) */
	union ib_gid last;	/* GROUP_GET: last group sent on that port */
	u64 holder_last;	/* the next group's holders sent so far: the
				 * last one's id; 0 if none
				 */
	unsigned int group_gen;	/* that group's gen when its first part
				 * was sent
				 */
	u32 filter_dev;
	u32 filter_port;
	u8 started:1;
	u8 has_last:1;
	u8 has_filter_dev:1;
	u8 has_filter_port:1;
	u8 has_filter_mgid:1;	/* GROUP_GET: one group, the request's */
	u8 admin:1;		/* the requester has CAP_NET_ADMIN */
	u8 brief:1;		/* GROUP_GET: IB_MCG_A_LIST_BRIEF */
};

static struct mcg_dump_ctx *dump_ctx(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct mcg_dump_ctx) > sizeof(cb->ctx));
	return (struct mcg_dump_ctx *)cb->ctx;
}

/*
 * Resolves a dump's filters on its first round, under mcg_lock. This is
 * not done in .start because 6.1 gives .start no extack to explain a
 * refusal; the first .dumpit has one.
 */
static int dump_init(struct netlink_callback *cb)
{
	struct nlattr **tb = dump_attrs(cb);
	struct mcg_dump_ctx *ctx = dump_ctx(cb);
	struct mcg_device *dev;
	struct mcg_port *port;
	int err;

	if (ctx->started)
		return 0;
	ctx->started = 1;
	/* The first round runs in the sender's context. */
	ctx->admin = netlink_capable(cb->skb, CAP_NET_ADMIN);
	ctx->brief = !!tb[IB_MCG_A_LIST_BRIEF];
	err = get_filter(tb, &dev, &port, cb->extack);
	if (err)
		return err;
	if (dev) {
		ctx->has_filter_dev = 1;
		ctx->filter_dev = dev->ibdev->index;
	}
	if (port) {
		ctx->has_filter_port = 1;
		ctx->filter_port = port->port_num;
	}
	return 0;
}

/*
 * A GROUP_GET dump with an MGID lists that one group, all of its holders
 * however many messages they take: the "do" of a group too big for one
 * message. Device and port are then required, and the group must exist.
 */
static int dump_init_mgid(struct netlink_callback *cb)
{
	struct nlattr **tb = dump_attrs(cb);
	struct mcg_dump_ctx *ctx = dump_ctx(cb);
	struct mcg_group *g;

	if (!tb[IB_MCG_A_MGID])
		return 0;
	g = nl_group(tb, false, cb->extack);
	if (IS_ERR(g))
		return PTR_ERR(g);
	ctx->has_filter_mgid = 1;
	return 0;
}

/*
 * The first group of @port to send in this round, or NULL. *@cont says
 * that it is the group the last round sent a first part of (the cursor
 * ctx->last with ctx->holder_last set).
 */
static struct mcg_group *dump_first_group(struct netlink_callback *cb,
					  struct mcg_port *port, bool *cont)
{
	struct mcg_dump_ctx *ctx = dump_ctx(cb);
	struct mcg_group *g;
	union ib_gid mgid;

	*cont = false;
	if (ctx->has_last && ctx->holder_last) {
		g = mcg_group_find(port, &ctx->last);
		if (g) {
			*cont = true;
			return g;
		}
		/* Released since: go on after it. */
		ctx->holder_last = 0;
	}
	if (!ctx->has_filter_mgid)
		return mcg_group_next(port, ctx->has_last ? &ctx->last : NULL);
	if (ctx->has_last)
		return NULL;
	nla_memcpy(mgid.raw, dump_attrs(cb)[IB_MCG_A_MGID],
		   sizeof(mgid.raw));
	return mcg_group_find(port, &mgid);
}

static bool dump_skip_port(const struct mcg_dump_ctx *ctx,
			   const struct mcg_port *port)
{
	u32 index = port->dev->ibdev->index;

	if (!mcg_device_visible(port->dev))
		return true;
	if (ctx->has_filter_dev && index != ctx->filter_dev)
		return true;
	if (ctx->has_filter_port && port->port_num != ctx->filter_port)
		return true;
	if (index != ctx->dev_index)
		return index < ctx->dev_index;
	return port->port_num < ctx->port;
}

static int mcg_nl_group_get_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	struct mcg_dump_ctx *ctx = dump_ctx(cb);
	struct mcg_reader rd = { .uid = NETLINK_CB(cb->skb).creds.uid };
	struct mcg_view v = {
		.which = HOLDERS_ALL, .after = &ctx->holder_last,
	};
	struct mcg_device *dev;
	struct mcg_group *g;
	bool cont;
	int err = 0;
	u32 i;

	mutex_lock(&mcg_lock);
	if (!ctx->started) {
		err = dump_init(cb) ?: dump_init_mgid(cb);
		if (err)
			goto out;
	}
	v.rd = ctx->admin ? NULL : &rd;
	v.now = ktime_get_boottime_ns();	/* after any holder's start */
	v.brief = ctx->brief;
	list_for_each_entry(dev, &mcg_devices, node) {
		for (i = 0; i < dev->nports; i++) {
			struct mcg_port *port = dev->ports[i];

			if (dump_skip_port(ctx, port))
				continue;
			if (ctx->dev_index != dev->ibdev->index ||
			    ctx->port != port->port_num) {
				ctx->dev_index = dev->ibdev->index;
				ctx->port = port->port_num;
				ctx->has_last = 0;
				ctx->holder_last = 0;
			}
			g = dump_first_group(cb, port, &cont);
			for (; g; g = ctx->has_filter_mgid ? NULL :
				      mcg_group_after(g)) {
				struct nlmsghdr *nlh = (void *)skb_tail_pointer(skb);

				err = fill_group(skb, g,
						 NETLINK_CB(cb->skb).portid,
						 cb->nlh->nlmsg_seq,
						 NLM_F_MULTI,
						 IB_MCG_CMD_GROUP_GET,
						 g->reason, &v);
				if (err == -EMSGSIZE)
					goto out;
				/*
				 * A continued group that changed between its
				 * parts mixes two moments: say so. Any other
				 * change is not an inconsistency: the cursor
				 * lists every group that exists throughout
				 * exactly once.
				 */
				if (!cont)
					ctx->group_gen = g->gen;
				else if (g->gen != ctx->group_gen)
					nlh->nlmsg_flags |= NLM_F_DUMP_INTR;
				cont = false;
				ctx->last = g->mgid;
				ctx->has_last = 1;
				if (err)	/* -EAGAIN: @g continues */
					goto out;
			}
		}
	}
out:
	mutex_unlock(&mcg_lock);
	/* Only a group too big for an empty message is an error. */
	if (err && err != -EAGAIN && !skb->len)
		return err;
	return skb->len;
}

/* ---- PORT_GET ---------------------------------------------------------- */

static u8 link_layer(const struct mcg_port *port)
{
	switch (rdma_port_get_link_layer(port->dev->ibdev, port->port_num)) {
	case IB_LINK_LAYER_INFINIBAND:
		return IB_MCG_LINK_LAYER_INFINIBAND;
	case IB_LINK_LAYER_ETHERNET:
		return IB_MCG_LINK_LAYER_ETHERNET;
	default:
		return IB_MCG_LINK_LAYER_UNSPEC;
	}
}

static int put_netdev(struct sk_buff *skb, const struct mcg_port *port)
{
	int err = 0;

	if (port->backend != &mcg_roce_backend)
		return 0;
	rtnl_lock();
	if (port->roce.ndev)
		err = nla_put_string(skb, IB_MCG_A_NETDEV,
				     port->roce.ndev->name) ||
		      nla_put_u32(skb, IB_MCG_A_IFINDEX,
				  port->roce.ndev->ifindex);
	rtnl_unlock();
	return err ? -EMSGSIZE : 0;
}

/* The re-join state of an InfiniBand port. */
static int put_ib_port(struct sk_buff *skb, const struct mcg_port *port)
{
	const struct mcg_ib_port *ib = &port->ib;
	const struct list_head *pos;
	u32 pending = 0;

	if (port->backend != &mcg_ib_backend)
		return 0;
	list_for_each(pos, &ib->retry)
		pending++;
	list_for_each(pos, &ib->ujoins)	/* users' groups', theirs too */
		pending++;
	if (nla_put_u32(skb, IB_MCG_A_LID, ib->lid) ||
	    nla_put_u32(skb, IB_MCG_A_SM_LID, ib->sm_lid) ||
	    nla_put_u32(skb, IB_MCG_A_LAST_SM_LID, ib->last_sm_lid) ||
	    nla_put_u32(skb, IB_MCG_A_LAST_REJOIN_WAVE_MS, ib->last_wave_ms) ||
	    nla_put_u32(skb, IB_MCG_A_REJOIN_PENDING, pending) ||
	    nla_put_u64_64bit(skb, IB_MCG_A_SM_REREGISTERS,
			      atomic64_read(&ib->sm_reregisters),
			      IB_MCG_A_PAD) ||
	    nla_put_u64_64bit(skb, IB_MCG_A_REJOIN_WAVES,
			      atomic64_read(&ib->rejoin_waves), IB_MCG_A_PAD) ||
	    nla_put_u64_64bit(skb, IB_MCG_A_GROUP_REJOINS,
			      atomic64_read(&ib->group_rejoins),
			      IB_MCG_A_PAD) ||
	    nla_put_u64_64bit(skb, IB_MCG_A_REJOIN_FAILURES,
			      atomic64_read(&ib->rejoin_failures),
			      IB_MCG_A_PAD) ||
	    nla_put_u64_64bit(skb, IB_MCG_A_SA_TIMEOUTS,
			      atomic64_read(&ib->sa_timeouts), IB_MCG_A_PAD) ||
	    nla_put_u64_64bit(skb, IB_MCG_A_MLID_CHANGES,
			      atomic64_read(&ib->mlid_changes), IB_MCG_A_PAD))
		return -EMSGSIZE;
	return 0;
}

static int fill_port(struct sk_buff *skb, struct mcg_port *port, u32 portid,
		     u32 seq, int flags, u8 cmd)
{
	const struct ib_device_attr *attrs = &port->dev->ibdev->attrs;
	enum ib_port_state state;
	void *hdr;

	/*
	 * ib_core's cached copy, kept up to date by its port events: no
	 * driver call (a firmware command on some HCAs) under mcg_lock,
	 * which every PORT_GET takes, any user's included.
	 */
	if (ib_get_cached_port_state(port->dev->ibdev, port->port_num, &state))
		state = IB_PORT_NOP;

	hdr = genlmsg_put(skb, portid, seq, &mcg_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (put_dev_port(skb, port) ||
	    nla_put_u8(skb, IB_MCG_A_LINK_LAYER, link_layer(port)) ||
	    nla_put_u8(skb, IB_MCG_A_PORT_STATE, state) ||
	    nla_put_u8(skb, IB_MCG_A_BACKEND, port->backend->id) ||
	    put_netdev(skb, port) ||
	    nla_put_u32(skb, IB_MCG_A_MAX_MCAST_GRP, attrs->max_mcast_grp) ||
	    nla_put_u32(skb, IB_MCG_A_MAX_MCAST_QP_ATTACH,
			attrs->max_mcast_qp_attach) ||
	    nla_put_u32(skb, IB_MCG_A_MAX_TOTAL_MCAST_QP_ATTACH,
			attrs->max_total_mcast_qp_attach) ||
	    nla_put_u32(skb, IB_MCG_A_GROUPS, port->ngroups) ||
	    nla_put_u32(skb, IB_MCG_A_HOLDER_COUNT, port->nholders) ||
	    nla_put_u64_64bit(skb, IB_MCG_A_JOINS,
			      atomic64_read(&port->joins), IB_MCG_A_PAD) ||
	    nla_put_u64_64bit(skb, IB_MCG_A_LEAVES,
			      atomic64_read(&port->leaves), IB_MCG_A_PAD) ||
	    nla_put_u64_64bit(skb, IB_MCG_A_JOIN_ERRORS,
			      atomic64_read(&port->join_errors),
			      IB_MCG_A_PAD) ||
	    nla_put_u64_64bit(skb, IB_MCG_A_LINGER_HITS,
			      atomic64_read(&port->linger_hits),
			      IB_MCG_A_PAD) ||
	    nla_put_u64_64bit(skb, IB_MCG_A_LINGER_EXPIRED,
			      atomic64_read(&port->linger_expired),
			      IB_MCG_A_PAD) ||
	    nla_put_u32(skb, IB_MCG_A_MAX_GROUPS, READ_ONCE(mcg_max_groups)) ||
	    nla_put_u32(skb, IB_MCG_A_MAX_OWNER_HOLDS,
			READ_ONCE(mcg_max_owner_holds)) ||
	    put_ib_port(skb, port)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int mcg_nl_port_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mcg_port *port;
	struct sk_buff *msg;
	int err;

	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	mutex_lock(&mcg_lock);
	port = get_dev_port(info->attrs, info->extack);
	if (IS_ERR(port))
		err = PTR_ERR(port);
	else
		err = fill_port(msg, port, info->snd_portid, info->snd_seq, 0,
				IB_MCG_CMD_PORT_GET);
	mutex_unlock(&mcg_lock);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static int mcg_nl_port_get_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	struct mcg_dump_ctx *ctx = dump_ctx(cb);
	struct mcg_device *dev;
	int err = 0;
	u32 i;

	mutex_lock(&mcg_lock);
	err = dump_init(cb);
	if (err)
		goto out;
	list_for_each_entry(dev, &mcg_devices, node) {
		for (i = 0; i < dev->nports; i++) {
			struct mcg_port *port = dev->ports[i];

			if (dump_skip_port(ctx, port))
				continue;
			err = fill_port(skb, port, NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, NLM_F_MULTI,
					IB_MCG_CMD_PORT_GET);
			if (err)
				goto out;
			ctx->dev_index = dev->ibdev->index;
			ctx->port = port->port_num + 1;
		}
	}
out:
	mutex_unlock(&mcg_lock);
	if (err && !skb->len)
		return err;
	return skb->len;
}

/*
 * Every do and every dump (compat.h), each with the policy of the
 * attributes it reads; the dumps read the same ones as their do, as
 * filters (get_filter(), dump_init(), dump_init_mgid(), owner_release()).
 * In command order, a command's do before its dump.
 */
static const struct mcg_genl_split_ops mcg_ops[] = {
	{
		.cmd	= IB_MCG_CMD_JOIN,
		.flags	= GENL_CMD_CAP_DO,	/* mcg_nl_join() checks */
		.doit	= mcg_nl_join,
		.policy	= mcg_join_policy,
		.maxattr = IB_MCG_A_MAX,
	},
	{
		.cmd	= IB_MCG_CMD_LEAVE,
		.flags	= GENL_CMD_CAP_DO,	/* mcg_nl_leave() checks */
		.doit	= mcg_nl_leave,
		.policy	= mcg_leave_policy,
		.maxattr = IB_MCG_A_MAX,
	},
	{
		.cmd	= IB_MCG_CMD_GROUP_GET,
		.flags	= GENL_CMD_CAP_DO,
		.doit	= mcg_nl_group_get_doit,
		.policy	= mcg_group_get_policy,
		.maxattr = IB_MCG_A_MAX,
	},
	{
		.cmd	= IB_MCG_CMD_GROUP_GET,
		.flags	= GENL_CMD_CAP_DUMP,
		.dumpit	= mcg_nl_group_get_dumpit,
		.policy	= mcg_group_get_policy,
		.maxattr = IB_MCG_A_MAX,
	},
	{
		.cmd	= IB_MCG_CMD_PORT_GET,
		.flags	= GENL_CMD_CAP_DO,
		.doit	= mcg_nl_port_get_doit,
		.policy	= mcg_port_get_policy,
		.maxattr = IB_MCG_A_MAX,
	},
	{
		.cmd	= IB_MCG_CMD_PORT_GET,
		.flags	= GENL_CMD_CAP_DUMP,
		.dumpit	= mcg_nl_port_get_dumpit,
		.policy	= mcg_port_get_policy,
		.maxattr = IB_MCG_A_MAX,
	},
	{
		.cmd	= IB_MCG_CMD_OWNER_RELEASE,
		.flags	= GENL_CMD_CAP_DO,	/* owner_release() checks */
		.doit	= mcg_nl_owner_release,
		.policy	= mcg_owner_release_policy,
		.maxattr = IB_MCG_A_MAX,
	},
	{
		.cmd	= IB_MCG_CMD_OWNER_RELEASE,
		.flags	= GENL_CMD_CAP_DUMP,	/* owner_release() checks */
		.dumpit	= mcg_nl_owner_release_dumpit,
		.done	= mcg_nl_owner_release_done,
		.policy	= mcg_owner_release_policy,
		.maxattr = IB_MCG_A_MAX,
	},
	{
		.cmd	= IB_MCG_CMD_REJOIN,
		.flags	= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
		.doit	= mcg_nl_rejoin,
		.policy	= mcg_rejoin_policy,
		.maxattr = IB_MCG_A_MAX,
	},
};

static struct genl_family mcg_family __ro_after_init = {
	.name		= IB_MCG_GENL_NAME,
	.version	= IB_MCG_GENL_VERSION,
	.maxattr	= IB_MCG_A_MAX,
	.parallel_ops	= true,
#ifdef MCG_HAVE_GENL_RESV_START_OP
	.resv_start_op	= IB_MCG_CMD_JOIN,	/* every command, strictly */
#endif
	.module		= THIS_MODULE,
	/* .ops or .split_ops: mcg_genl_register_family() */
	.mcgrps		= mcg_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(mcg_mcgrps),
};

/* ---- bound holds ------------------------------------------------------- */

static int mcg_netlink_event(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	struct netlink_notify *n = ptr;

	/*
	 * Runs for every generic netlink socket closed on the system: only a
	 * socket with bound holds (an index lookup, without mcg_lock) costs
	 * more. No new bound hold of this socket can appear meanwhile: its
	 * requests ran in its own sendmsg() calls, which are over. A new
	 * socket may have the portid already, and keeps its holds
	 * (mcg_release_dead_bound()).
	 */
	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    !mcg_has_bound(n->net, n->portid))
		return NOTIFY_DONE;
	mutex_lock(&mcg_lock);
	mcg_release_dead_bound(n->net, n->portid);
	mutex_unlock(&mcg_lock);
	return NOTIFY_DONE;
}

static struct notifier_block mcg_netlink_nb = {
	.notifier_call = mcg_netlink_event,
};

/**
 * mcg_netlink_init() - register the generic netlink family
 *
 * Registers the family, then the netlink notifier that releases the
 * bound holds of a closing socket. Requests may arrive as soon as this
 * returns.
 *
 * Context: process context, may sleep; mcg_lock not held.
 * Return: 0, or the error of the registration that failed (nothing is
 * left registered then).
 */
int mcg_netlink_init(void)
{
	int err;

	err = mcg_genl_register_family(&mcg_family, mcg_ops,
				       ARRAY_SIZE(mcg_ops));
	if (err)
		return err;
	err = netlink_register_notifier(&mcg_netlink_nb);
	if (err) {
		mcg_genl_unregister_family(&mcg_family);
		return err;
	}
	mcg_events_set(&nl_events);
	return 0;
}

/**
 * mcg_netlink_exit() - unregister what mcg_netlink_init() registered
 *
 * Context: process context, may sleep; mcg_lock not held (the notifier
 * and requests in progress take it).
 */
void mcg_netlink_exit(void)
{
	mcg_events_set(NULL);
	netlink_unregister_notifier(&mcg_netlink_nb);
	mcg_genl_unregister_family(&mcg_family);
}
