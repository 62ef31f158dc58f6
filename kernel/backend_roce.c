// SPDX-License-Identifier: GPL-2.0
/*
 * RoCE join backend. RoCE has no SA: like rdma_cm, the member record is
 * built locally, and what makes the fabric deliver the group is the IP
 * multicast membership of the port's netdev: IGMP for IPv4-mapped MGIDs
 * (::ffff:a.b.c.d), MLD for IPv6 MGIDs. Send-only joins take none.
 *
 * Everything in struct mcg_roce_port and a group's struct mcg_roce_group
 * (whether it holds its IP membership: on the port's list or not) is
 * protected by RTNL, so the netdevice notifier, which runs with RTNL held,
 * can drop memberships of a vanishing netdev without mcg_lock. A RoCE
 * group is a struct mcg_roce_group_obj, from mcg_roce_group_cache.
 *
 * The netdev's IPv4 and IPv6 state (in_device, inet6_dev) holds the
 * memberships, and it can go away while the netdev stays: an MTU below 68
 * destroys the in_device, one below 1280 the inet6_dev, each with its
 * multicast list, and raising the MTU makes a new, empty one. The port
 * therefore keeps a reference on the in_device and inet6_dev its
 * memberships were taken on (so that the pointers cannot be reused while
 * we compare them); when the netdev's current one differs, those
 * memberships are gone: the groups no longer hold anything there (a later
 * release must not drop someone else's membership of the new one), and
 * the port's resync takes them again.
 */
#include <linux/igmp.h>
#include <linux/inetdevice.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/addrconf.h>
#include <net/net_namespace.h>
#include <net/ipv6.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>

#include "ib_mcgroups.h"
#include "mcg_logic.h"

/* Ports with the RoCE backend, under RTNL. */
static LIST_HEAD(mcg_roce_ports);

static int roce_check(struct mcg_port *port, const struct mcg_join_req *req,
		      struct netlink_ext_ack *extack)
{
	return mcg_roce_check_mgid(&req->mgid, req->create.create, extack);
}

/*
 * The port's netdev, with a reference held. Where ib_core exports it
 * (MCG_HAVE_IB_DEVICE_GET_NETDEV), the netdev the driver bound to the
 * port; before, the netdev of the port's default GID, as rdma_cm finds it.
 *
 * Only a netdev of the initial network namespace, where the family lives
 * (it is not netnsok): a port whose netdev is in another one - a
 * container's, with the RDMA device shared by every namespace - has none
 * for us, so that nobody takes IGMP/MLD memberships inside a namespace
 * from outside it; *@elsewhere (if given) then says why. A netdev that
 * moves away takes our memberships with it (NETDEV_UNREGISTER); they are
 * taken again when it comes back (NETDEV_REGISTER, the port's work).
 */
static struct net_device *roce_find_ndev(struct mcg_port *port,
					 bool *elsewhere)
{
	struct net_device *ndev;
#ifndef MCG_HAVE_IB_DEVICE_GET_NETDEV
	const struct ib_gid_attr *attr;
#endif

	ASSERT_RTNL();
#ifdef MCG_HAVE_IB_DEVICE_GET_NETDEV
	ndev = ib_device_get_netdev(port->dev->ibdev, port->port_num);
	if (ndev && ndev->reg_state != NETREG_REGISTERED) {
		dev_put(ndev);
		ndev = NULL;
	}
#else
	attr = rdma_get_gid_attr(port->dev->ibdev, port->port_num, 0);
	if (IS_ERR(attr))
		return NULL;
	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(attr);
	if (IS_ERR(ndev) || ndev->reg_state != NETREG_REGISTERED)
		ndev = NULL;
	else
		dev_hold(ndev);
	rcu_read_unlock();
	rdma_put_gid_attr(attr);
#endif
	if (ndev && !net_eq(dev_net(ndev), &init_net)) {
		dev_put(ndev);
		ndev = NULL;
		if (elsewhere)
			*elsewhere = true;
	}
	return ndev;
}

/*
 * How well a GID suits a group, 0 if not at all: a RoCEv2 GID of the
 * port's netdev (not a VLAN or macvlan upper device), IPv4-mapped for IPv4
 * groups; for IPv6 groups a link-local GID for link-local groups and a
 * routable one otherwise is best.
 */
static int gid_score(const struct ib_gid_attr *attr, struct net_device *ndev,
		     const union ib_gid *mgid)
{
	const struct in6_addr *gid = (const struct in6_addr *)attr->gid.raw;
	bool group_ll = mcg_mgid_scope_linklocal(mgid);
	struct net_device *gid_ndev;
	bool same_ndev;

	if (attr->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return 0;
	rcu_read_lock();
	gid_ndev = rdma_read_gid_attr_ndev_rcu(attr);
	same_ndev = !IS_ERR(gid_ndev) && gid_ndev == ndev;
	rcu_read_unlock();
	if (!same_ndev)
		return 0;
	if (mcg_mgid_is_v4mapped(mgid))
		return ipv6_addr_v4mapped(gid) ? 2 : 0;
	if (ipv6_addr_v4mapped(gid))
		return 0;
	return !!(ipv6_addr_type(gid) & IPV6_ADDR_LINKLOCAL) == group_ll ? 2 : 1;
}

/* The GID to send from: the best by gid_score(), else index 0. */
static void roce_fill_port_gid(struct mcg_group *g, struct net_device *ndev,
			       struct mcg_rec *rec)
{
	struct ib_device *ibdev = g->port->dev->ibdev;
	mcg_ib_port_t port_num = g->port->port_num;
	int i, score, best = 0, best_index = 0;
	const struct ib_gid_attr *attr;
	int len = mcg_port_immutable(ibdev, port_num)->gid_tbl_len;

	for (i = 0; i < len && best < 2; i++) {
		attr = rdma_get_gid_attr(ibdev, port_num, i);
		if (IS_ERR(attr))
			continue;
		score = gid_score(attr, ndev, &g->mgid);
		if (score > best) {
			best = score;
			best_index = i;
		}
		rdma_put_gid_attr(attr);
	}
	rec->sgid_index = best_index;
	if (rdma_query_gid(ibdev, port_num, best_index, &rec->port_gid))
		memset(&rec->port_gid, 0, sizeof(rec->port_gid));
}

/* Lets go of the port's reference on the IP state of its netdev. */
static void roce_put_ipdevs(struct mcg_roce_port *rp, bool v4, bool v6)
{
	if (v4 && rp->in_dev) {
		in_dev_put(rp->in_dev);
		rp->in_dev = NULL;
	}
	if (v6 && rp->in6_dev) {
		in6_dev_put(rp->in6_dev);
		rp->in6_dev = NULL;
	}
}

/*
 * If the netdev's in_device or inet6_dev is not the one our memberships
 * were taken on, those memberships went with the old one: forget them.
 * Returns true if any group lost its membership so.
 */
static bool roce_forget_stale(struct mcg_roce_port *rp)
{
	struct net_device *ndev = rp->ndev;
	bool v4_gone, v6_gone, lost = false;
	struct mcg_roce_group_obj *o, *tmp;

	ASSERT_RTNL();
	v4_gone = rp->in_dev && (!ndev || rp->in_dev != __in_dev_get_rtnl(ndev));
	v6_gone = rp->in6_dev && (!ndev || rp->in6_dev != __in6_dev_get(ndev));
	if (!v4_gone && !v6_gone)
		return false;
	list_for_each_entry_safe(o, tmp, &rp->groups, roce.node) {
		if (mcg_mgid_is_v4mapped(&o->g.mgid) ? !v4_gone : !v6_gone)
			continue;
		list_del_init(&o->roce.node);
		lost = true;
	}
	roce_put_ipdevs(rp, v4_gone, v6_gone);
	return lost;
}

/* Takes the IP membership of @g; roce_forget_stale() has run. */
static int ip_take(struct mcg_group *g, struct net_device *ndev,
		   struct netlink_ext_ack *extack)
{
	const struct in6_addr *addr = (const struct in6_addr *)g->mgid.raw;
	struct mcg_roce_port *rp = &g->port->roce;
	struct inet6_dev *in6_dev;
	struct in_device *in_dev;
	int err;

	if (mcg_mgid_is_v4mapped(&g->mgid)) {
		in_dev = __in_dev_get_rtnl(ndev);
		if (!in_dev) {
			NL_SET_ERR_MSG(extack,
				       "port's netdev has no IPv4 configuration");
			return -ENODEV;
		}
		ip_mc_inc_group(in_dev, mcg_mgid_to_ipv4(&g->mgid));
		if (!rp->in_dev) {
			in_dev_hold(in_dev);
			rp->in_dev = in_dev;
		}
	} else {
		err = ipv6_dev_mc_inc(ndev, addr);
		if (err) {
			NL_SET_ERR_MSG(extack,
				       "port's netdev refused the MLD membership (IPv6 disabled?)");
			return err;
		}
		/* ipv6_dev_mc_inc() found it, under RTNL: it is still there. */
		in6_dev = __in6_dev_get(ndev);
		if (!rp->in6_dev && !WARN_ON_ONCE(!in6_dev)) {
			in6_dev_hold(in6_dev);
			rp->in6_dev = in6_dev;
		}
	}
	list_add_tail(&mcg_roce(g)->node, &rp->groups);
	return 0;
}

static void ip_drop(struct mcg_group *g, struct net_device *ndev)
{
	struct mcg_roce_port *rp = &g->port->roce;

	ASSERT_RTNL();
	if (!mcg_roce_ip_held(g))
		return;
	/*
	 * Only from the IP state the membership was taken on: the netdev may
	 * have torn it down already (unregister), or replaced it.
	 */
	if (mcg_mgid_is_v4mapped(&g->mgid)) {
		if (rp->in_dev && rp->in_dev == __in_dev_get_rtnl(ndev))
			ip_mc_dec_group(rp->in_dev, mcg_mgid_to_ipv4(&g->mgid));
	} else {
		if (rp->in6_dev && rp->in6_dev == __in6_dev_get(ndev))
			ipv6_dev_mc_dec(ndev,
					(const struct in6_addr *)g->mgid.raw);
	}
	list_del_init(&mcg_roce(g)->node);
}

static int roce_update(struct mcg_group *g, u8 join_state,
		       struct netlink_ext_ack *extack)
{
	struct mcg_roce_port *rp = &g->port->roce;
	bool v4 = mcg_mgid_is_v4mapped(&g->mgid);
	struct mcg_rec rec = {};
	bool elsewhere = false;
	int err = 0;

	rtnl_lock();
	roce_forget_stale(rp);
	if (!join_state) {
		if (rp->ndev)
			ip_drop(g, rp->ndev);
		g->rec.valid = false;
		goto out;
	}
	if (!rp->ndev)
		rp->ndev = roce_find_ndev(g->port, &elsewhere);
	if (!rp->ndev) {
		if (elsewhere)
			NL_SET_ERR_MSG(extack,
				       "RoCE port's network device is in another network namespace");
		else
			NL_SET_ERR_MSG(extack, "RoCE port has no network device");
		err = -ENODEV;
		goto out;
	}

	if (join_state & MCG_RECV_STATES) {
		if (!mcg_roce_ip_held(g)) {
			err = ip_take(g, rp->ndev, extack);
			if (err)
				goto out;
		}
	} else {
		ip_drop(g, rp->ndev);
	}

	roce_fill_port_gid(g, rp->ndev, &rec);
	/* 0 (unknown) if the netdev's MTU is below RoCE's smallest. */
	rec.mtu = iboe_get_mtu(rp->ndev->mtu);
	rec.qkey = g->rec.qkey;
	rec.pkey = 0xffff;
	rec.rate = IB_RATE_PORT_CURRENT;
	/* IPv4 and non-link-local IPv6 groups are routable, as in rdma_cm. */
	rec.hop_limit = (v4 || (g->mgid.raw[1] & 0xf) > 2) ?
			IPV6_DEFAULT_HOPLIMIT : 1;
	rec.valid = true;
	g->rec = rec;
out:
	rtnl_unlock();
	return err;
}

/* Pick up a netdev that appeared while the port had none. */
static void roce_refresh(struct mcg_port *port)
{
	rtnl_lock();
	if (!port->roce.ndev)
		port->roce.ndev = roce_find_ndev(port, NULL);
	rtnl_unlock();
}

static int roce_port_init(struct mcg_port *port)
{
	INIT_LIST_HEAD(&port->roce.groups);
	rtnl_lock();
	port->roce.ndev = roce_find_ndev(port, NULL);
	list_add_tail(&port->roce.node, &mcg_roce_ports);
	rtnl_unlock();
	return 0;
}

/* Called after every group of the port has been released. */
static void roce_port_fini(struct mcg_port *port)
{
	rtnl_lock();
	WARN_ON(!list_empty(&port->roce.groups));
	list_del(&port->roce.node);
	roce_put_ipdevs(&port->roce, true, true);
	dev_put(port->roce.ndev);
	port->roce.ndev = NULL;
	rtnl_unlock();
}

/* Holds no IP membership (mcg_roce_ip_held()) until ip_take(). */
static void roce_group_init(struct mcg_group *g)
{
	INIT_LIST_HEAD(&mcg_roce(g)->node);
}

const struct mcg_backend_ops mcg_roce_backend = {
	.id		= IB_MCG_BACKEND_ROCE,
	.name		= "roce",
	.port_init	= roce_port_init,
	.port_fini	= roce_port_fini,
	.check		= roce_check,
	.update		= roce_update,
	.refresh	= roce_refresh,
	.group_cache	= &mcg_roce_group_cache,
	.local_qkey	= true,
	.group_init	= roce_group_init,
};

/*
 * Runs with RTNL held. A vanishing netdev takes our memberships and our
 * reference with it right here; the group states are brought up to date
 * by the port's work, which may also pick up a new netdev. So is an IP
 * state the netdev replaced (MTU changes; events on our netdev after the
 * inet and addrconf notifiers' own, which were registered first): the
 * work takes the memberships again, on the new one.
 */
static int mcg_roce_netdev_event(struct notifier_block *nb,
				 unsigned long event, void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct mcg_roce_group_obj *o, *tmp;
	struct mcg_roce_port *rp;

	list_for_each_entry(rp, &mcg_roce_ports, node) {
		struct mcg_port *port = container_of(rp, struct mcg_port,
						     roce);

		switch (event) {
		case NETDEV_UNREGISTER:
			if (rp->ndev != ndev)
				continue;
			list_for_each_entry_safe(o, tmp, &rp->groups, roce.node)
				ip_drop(&o->g, ndev);
			roce_put_ipdevs(rp, true, true);
			dev_put(ndev);
			rp->ndev = NULL;
			break;
		case NETDEV_REGISTER:
		case NETDEV_UP:
			if (!rp->ndev)
				break;
			fallthrough;
		default:
			if (rp->ndev != ndev)
				continue;
			if (!roce_forget_stale(rp) && event != NETDEV_UP &&
			    event != NETDEV_CHANGEMTU &&
			    event != NETDEV_POST_TYPE_CHANGE)
				continue;
			break;
		}
		queue_work(mcg_wq, &port->resync_work);
	}
	return NOTIFY_DONE;
}

static struct notifier_block mcg_roce_netdev_nb = {
	.notifier_call = mcg_roce_netdev_event,
};

/**
 * mcg_roce_init() - set up the RoCE backend at module load
 *
 * Registers the netdevice notifier that follows the netdevs of RoCE
 * ports. Called by mcg_device_init() before the IB client is registered.
 *
 * Context: process context, may sleep; takes RTNL; mcg_lock not held.
 * Return: 0, or the error of register_netdevice_notifier().
 */
int mcg_roce_init(void)
{
	return register_netdevice_notifier(&mcg_roce_netdev_nb);
}

/**
 * mcg_roce_exit() - unregister the netdevice notifier of mcg_roce_init()
 *
 * Context: process context, may sleep; takes RTNL; mcg_lock not held.
 */
void mcg_roce_exit(void)
{
	unregister_netdevice_notifier(&mcg_roce_netdev_nb);
}
