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
#include <linux/uidgid.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "ib_mcgroups.h"
#include "mcg_logic.h"
#include "nl.h"

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

/**
 * nl_require() - refuse a request that lacks an attribute
 * @tb: the request's attributes
 * @type: the attribute required
 * @msg: the extack message if it is missing (a literal)
 * @extack: where the message goes
 *
 * Context: any.
 * Return: 0, or -EINVAL with @msg set.
 */
int nl_require(struct nlattr **tb, int type, const char *msg,
	       struct netlink_ext_ack *extack)
{
	if (tb[type])
		return 0;
	set_err(extack, NULL, msg);
	return -EINVAL;
}

/**
 * nl_get_string() - a string attribute as a C string
 * @attr: the attribute
 * @buf: where the string goes, @max + 1 bytes
 * @max: its longest length
 * @what_bad: the extack message if it is not such a string (a literal)
 * @extack: where the message goes
 *
 * A string attribute as a C string of at most @max bytes: one trailing NUL
 * is allowed, embedded NULs and control characters are not.
 *
 * Context: any.
 * Return: 0, or -EINVAL with @what_bad set.
 */
int nl_get_string(const struct nlattr *attr, char *buf, size_t max,
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
		if (nl_get_string(tb[IB_MCG_A_DEV_NAME], name, sizeof(name) - 1,
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

	if (nl_require(tb, IB_MCG_A_PORT, "port is required", extack))
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

/**
 * nl_get_dev_port() - the port a request names by device and port
 * @tb: the request's attributes
 * @extack: where a refusal's message goes
 *
 * Context: under mcg_lock.
 * Return: the port, or an ERR_PTR with @extack set.
 */
struct mcg_port *nl_get_dev_port(struct nlattr **tb,
				 struct netlink_ext_ack *extack)
{
	struct mcg_device *dev = nl_device(tb, extack);

	if (IS_ERR(dev))
		return ERR_CAST(dev);
	return get_port(dev, tb, extack);
}

/**
 * nl_group() - the group a request names
 * @tb: the request's attributes
 * @rejoin: refuse a port whose backend cannot re-join
 * @extack: where a refusal's message goes
 *
 * The group a request names by device, port and MGID (GROUP_GET's do and
 * its dump of one group, REJOIN), or an ERR_PTR with the reason in
 * @extack. With @rejoin, a port whose backend cannot re-join (RoCE) is
 * refused before the group is looked for. Under mcg_lock.
 *
 * Context: under mcg_lock.
 * Return: the group, or an ERR_PTR with @extack set.
 */
struct mcg_group *nl_group(struct nlattr **tb, bool rejoin,
			   struct netlink_ext_ack *extack)
{
	struct mcg_port *port;
	struct mcg_group *g;
	union ib_gid mgid;

	if (nl_require(tb, IB_MCG_A_MGID, "MGID is required", extack))
		return ERR_PTR(-EINVAL);
	port = nl_get_dev_port(tb, extack);
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

/**
 * nl_get_filter() - the device and port that narrow a request
 * @tb: the request's attributes
 * @dev: set to the device, or NULL if none is named
 * @port: set to the port, or NULL if none is named
 * @extack: where a refusal's message goes
 *
 * An optional device and port that narrow a request (dumps, owner
 * release): *dev and *port stay NULL when not given. Under mcg_lock.
 *
 * Context: under mcg_lock.
 * Return: 0, or a negative errno with @extack set.
 */
int nl_get_filter(struct nlattr **tb, struct mcg_device **dev,
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

/**
 * nl_get_join_state() - a request's join state
 * @tb: the request's attributes (IB_MCG_A_JOIN_STATE present)
 * @js: set to it
 * @extack: where a refusal's message goes
 *
 * Context: any.
 * Return: 0, or -EINVAL unless it is exactly one join state bit.
 */
int nl_get_join_state(struct nlattr **tb, u8 *js,
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

/**
 * nl_get_group_owner() - the group and the owner a JOIN or LEAVE names
 * @tb: the request's attributes
 * @who: the caller
 * @mgid: set to the MGID
 * @owner: set to the owner, IB_MCG_OWNER_MAX + 1 bytes
 * @extack: where a refusal's message goes
 *
 * What every JOIN and LEAVE names: the group and the owner. A caller
 * without CAP_NET_ADMIN acts for "uid:N" only, which it may leave out.
 *
 * Context: any.
 * Return: 0, or a negative errno with @extack set.
 */
int nl_get_group_owner(struct nlattr **tb, const struct mcg_caller *who,
		       union ib_gid *mgid, char *owner,
		       struct netlink_ext_ack *extack)
{
	char mine[IB_MCG_OWNER_MAX + 1] = "";
	int err;

	if (nl_require(tb, IB_MCG_A_MGID, "MGID is required", extack))
		return -EINVAL;
	nla_memcpy(mgid->raw, tb[IB_MCG_A_MGID], sizeof(mgid->raw));
	if (!who->admin) {
		uid_owner(who->uid, mine);
		if (!tb[IB_MCG_A_OWNER]) {
			strscpy(owner, mine, IB_MCG_OWNER_MAX + 1);
			return 0;
		}
	} else if (nl_require(tb, IB_MCG_A_OWNER, "owner is required", extack)) {
		return -EINVAL;
	}
	err = nl_get_string(tb[IB_MCG_A_OWNER], owner, IB_MCG_OWNER_MAX,
			    "owner must be 1 to 64 printable characters without spaces",
			    extack);
	if (err || who->admin || !strcmp(owner, mine))
		return err;
	set_err(extack, tb[IB_MCG_A_OWNER],
		"without CAP_NET_ADMIN the owner must be uid:<your uid> (or none, the same)");
	return -EPERM;
}

/**
 * nl_check_unpriv_join() - refuse what a JOIN without CAP_NET_ADMIN may not ask for
 * @tb: the request's attributes
 * @req: the JOIN as parsed so far
 * @extack: where a refusal's message goes
 *
 * What a JOIN without CAP_NET_ADMIN may not ask for: a hold that outlives
 * its socket (unbound, or a linger time that keeps the membership after
 * it), or a controlled Q_Key (high bit set, IBA 10.2.4: privileged only).
 *
 * Context: any.
 * Return: 0, or -EPERM with @extack set.
 */
int nl_check_unpriv_join(struct nlattr **tb, const struct mcg_join_req *req,
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

/**
 * nl_get_create() - a JOIN's InfiniBand create parameters
 * @tb: the request's attributes
 * @req: the JOIN, whose create parameters are filled
 * @extack: where a refusal's message goes
 *
 * InfiniBand create parameters; any of them (or an all-zero MGID) makes
 * the join a create. Ranges are checked by the policy.
 *
 * Context: any.
 * Return: 0, or a negative errno with @extack set.
 */
int nl_get_create(struct nlattr **tb, struct mcg_join_req *req,
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

/*
 * Every do and every dump (compat.h), each with the policy of the
 * attributes it reads; the dumps read the same ones as their do, as
 * filters (nl_get_filter(), nl_dump_init(), dump_init_mgid(), owner_release()).
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

struct genl_family mcg_family __ro_after_init = {
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
