/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_mcgroups: private declarations shared by the module's files.
 *
 * Objects and their lifetimes:
 *
 *   mcg_device   one per ib_device, from ib_client add() to remove().
 *   mcg_port     one per port of a device; freed by the release of its
 *                sysfs kobject, after remove() has dropped every group.
 *   mcg_group    (port, MGID); lives while it has holders.
 *   mcg_holder   (owner, join state) on a group.
 *
 * Locking:
 *
 *   mcg_lock (a mutex) protects the device list, every port's group tree and
 *   counts, every group and every holder. Netlink requests, the ib_client
 *   callbacks, port work and netlink socket release all take it, so the
 *   group layer reads as single-threaded code.
 *
 *   RTNL nests inside mcg_lock (mcg_lock -> rtnl_lock), taken by the RoCE
 *   backend to change IP multicast memberships. The netdevice notifier runs
 *   with RTNL held and therefore never takes mcg_lock: the state it touches
 *   (the RoCE port's netdev and which groups hold an IP membership) belongs
 *   to RTNL, and it defers everything else to the port's work item.
 *
 *   Port counters are atomic64 and read by sysfs without any lock.
 */
#ifndef _IB_MCGROUPS_H
#define _IB_MCGROUPS_H

#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rbtree.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#include "compat.h"
#include "../include/uapi/ib_mcgroups.h"

#define MCG_RECV_STATES (IB_MCG_JOIN_FULL | IB_MCG_JOIN_NON_MEMBER)

extern struct mutex mcg_lock;
extern struct list_head mcg_devices;
extern struct workqueue_struct *mcg_wq;
extern bool mcg_unloading;

/* The member record an application needs for ibv_attach_mcast() and its AH. */
struct mcg_rec {
	union ib_gid port_gid;
	u32 sgid_index;
	u32 qkey;
	u32 flow_label;
	u16 mlid;
	u16 pkey;
	u8 mtu;
	u8 rate;
	u8 sl;
	u8 tclass;
	u8 hop_limit;
	bool valid;
};

struct mcg_port;
struct mcg_group;

/*
 * A join backend holds the fabric side of a group's membership. Called
 * with mcg_lock held.
 *
 * @check:  is @mgid a group this port can hold? Sets extack when not.
 * @update: make the fabric membership match @join_state (0 releases
 *          it) and fill g->rec. Returns 0 once held. On error the
 *          previous membership is still held, except that a release
 *          (join_state 0) never fails.
 * @refresh: optional; the port's link may have changed (IB event,
 *          netdev event), before its groups are brought up to date.
 */
struct mcg_backend_ops {
	u8 id;
	const char *name;
	int (*port_init)(struct mcg_port *port);
	void (*port_fini)(struct mcg_port *port);
	int (*check)(struct mcg_port *port, const union ib_gid *mgid,
		     struct netlink_ext_ack *extack);
	int (*update)(struct mcg_group *g, u8 join_state,
		      struct netlink_ext_ack *extack);
	void (*refresh)(struct mcg_port *port);
};

extern const struct mcg_backend_ops mcg_roce_backend;
extern const struct mcg_backend_ops mcg_none_backend;
int mcg_roce_init(void);
void mcg_roce_exit(void);

/* RoCE backend state of a port. Everything here is protected by RTNL. */
struct mcg_roce_port {
	struct list_head node;		/* on mcg_roce_ports */
	struct net_device *ndev;	/* held with dev_hold() */
	struct list_head groups;	/* groups holding an IP membership */
};

struct mcg_device {
	struct list_head node;		/* on mcg_devices, by ibdev->index */
	struct ib_device *ibdev;
	struct kobject *kobj;		/* /sys/kernel/ib_mcgroups/<dev> */
	struct ib_event_handler event_handler;
	u32 nports;
	struct mcg_port *ports[];	/* index: port number - start port */
};

struct mcg_port {
	struct kobject kobj;		/* <dev>/<port>; release frees us */
	struct mcg_device *dev;
	u32 port_num;
	bool dead;			/* device being removed */
	const struct mcg_backend_ops *backend;
	struct rb_root groups;		/* mcg_group, by MGID */
	unsigned int ngroups;
	unsigned int nholders;
	atomic64_t joins;
	atomic64_t leaves;
	atomic64_t join_errors;
	atomic64_t linger_hits;
	atomic64_t linger_expired;
	struct work_struct resync_work;
	struct delayed_work linger_work;	/* expires lingering groups */
	unsigned long linger_next;	/* when linger_work is due */
	struct mcg_roce_port roce;
};

struct mcg_group {
	struct rb_node node;		/* in port->groups */
	struct mcg_port *port;
	union ib_gid mgid;
	struct list_head holders;
	unsigned int nholders;
	u8 join_state;			/* union of the holders' states */
	u8 state;			/* enum ib_mcg_state */
	u8 reason;			/* enum ib_mcg_reason */
	int error;			/* last error, positive errno */
	u32 linger_ms;			/* kept this long without holders */
	unsigned long linger_until;	/* jiffies; IB_MCG_STATE_LINGERING */
	struct mcg_rec rec;
	/* RoCE backend, under RTNL. */
	struct list_head roce_node;	/* on port->roce.groups if ip_held */
	bool ip_held;
};

/* Everything one owner holds, on every port. */
struct mcg_owner {
	struct hlist_node node;		/* in the owner hash table */
	struct list_head holders;	/* mcg_holder.owner_node */
	unsigned int nholds;
	char name[IB_MCG_OWNER_MAX + 1];
};

struct mcg_holder {
	struct list_head node;		/* in group->holders */
	struct list_head owner_node;	/* in owner->holders */
	struct mcg_group *group;
	struct mcg_owner *o;
	char owner[IB_MCG_OWNER_MAX + 1];
	u8 join_state;
	u32 flags;			/* IB_MCG_F_* */
	u32 nl_portid;			/* BOUND: the owning socket ... */
	const struct net *nl_net;	/* ... and its netns (compared only) */
	u64 since_ns;			/* ktime_get_boottime_ns() at join */
};

struct mcg_join_req {
	struct mcg_port *port;
	union ib_gid mgid;
	const char *owner;
	u8 join_state;
	u32 flags;
	u32 qkey;
	bool has_qkey;
	u32 linger_ms;
	bool has_linger;
	u32 nl_portid;
	const struct net *nl_net;
};

/* device.c */
int mcg_device_init(void);
void mcg_device_exit(void);
struct mcg_port *mcg_port_get(struct mcg_device *dev, u32 port_num);
struct mcg_device *mcg_device_find(const char *name, bool by_name,
				   u32 index);

/* group.c */
int mcg_join(const struct mcg_join_req *req, struct mcg_group **out,
	     struct mcg_holder **hout, struct netlink_ext_ack *extack);
int mcg_leave(struct mcg_port *port, const union ib_gid *mgid,
	      const char *owner, u8 join_state, u8 reason,
	      struct mcg_group **out, struct mcg_group *snap,
	      struct netlink_ext_ack *extack);
struct mcg_holder *mcg_owner_next_hold(const char *owner,
				       const struct mcg_device *dev,
				       const struct mcg_port *port);
unsigned int mcg_owner_holds(const char *owner);
void mcg_linger_work(struct work_struct *work);
extern unsigned int mcg_max_groups;
extern unsigned int mcg_max_owner_holds;
struct mcg_group *mcg_group_find(struct mcg_port *port,
				 const union ib_gid *mgid);
struct mcg_group *mcg_group_next(struct mcg_port *port,
				 const union ib_gid *after);
void mcg_port_release_all(struct mcg_port *port, u8 reason);
void mcg_port_resync(struct mcg_port *port);
void mcg_release_bound(const struct net *net, u32 portid);
extern atomic_t mcg_bound_holders;
extern unsigned int mcg_generation;

/* netlink.c */
int mcg_netlink_init(void);
void mcg_netlink_exit(void);
void mcg_notify(struct mcg_group *g, u8 cmd, u8 reason,
		const struct mcg_holder *h);

/* sysfs.c */
int mcg_sysfs_init(void);
void mcg_sysfs_exit(void);
int mcg_sysfs_add_device(struct mcg_device *dev);
int mcg_sysfs_add_port(struct mcg_port *port);
void mcg_sysfs_del_device(struct mcg_device *dev);
void mcg_sysfs_rename_device(struct mcg_device *dev);
void mcg_port_put(struct mcg_port *port);

/* debugfs.c */
void mcg_debugfs_init(void);
void mcg_debugfs_exit(void);

static inline const char *mcg_dev_name(const struct mcg_port *port)
{
	return dev_name(&port->dev->ibdev->dev);
}

static inline bool mcg_mgid_is_v4mapped(const union ib_gid *mgid)
{
	return ipv6_addr_v4mapped((const struct in6_addr *)mgid->raw);
}

#endif /* _IB_MCGROUPS_H */
