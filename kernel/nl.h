/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_mcgroups netlink: what the family's files share, and nothing else
 * includes. One file per object of the protocol:
 *
 *   netlink.c   the family, its policies and ops table, request parsing
 *               and checks, the caller, bound holds of a closing socket
 *   nl_msg.c    group and holder messages: replies and notifications,
 *               the events of struct mcg_events
 *   nl_group.c  JOIN, LEAVE, REJOIN, GROUP_GET (do and dump)
 *   nl_port.c   PORT_GET and the port notifications' format
 *   nl_owner.c  OWNER_RELEASE
 *   nl_dump.c   the dump cursor GROUP_GET and PORT_GET share
 *
 * Every handler takes mcg_lock itself (the family has parallel_ops).
 */
#ifndef _MCG_NL_H
#define _MCG_NL_H

#include <linux/netlink.h>
#include <net/genetlink.h>

#include "ib_mcgroups.h"

extern struct genl_family mcg_family;

enum { MCG_MCGRP_EVENTS };

/*
 * Where the kernel cannot keep listeners without CAP_NET_ADMIN out of the
 * events group, the events name nobody: holders without owner or portid.
 */
#ifdef MCG_HAVE_GENL_MCAST_CAP_NET_ADMIN
#define MCG_EVENTS_ANON false
#else
#define MCG_EVENTS_ANON true
#endif

/* ---- the caller (netlink.c) ------------------------------------------- */

/*
 * The token (struct mcg_sock) of the socket that sent @skb: the socket
 * itself. (Generic netlink's per-socket private data, sock_priv, 6.10,
 * would do, but genl_sk_priv_get() is not exported to modules.)
 */
static inline void *nl_sock_token(struct sk_buff *skb)
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

static inline struct mcg_caller nl_caller(const struct sk_buff *skb)
{
	return (struct mcg_caller){
		.admin	= netlink_capable(skb, CAP_NET_ADMIN),
		.uid	= NETLINK_CB(skb).creds.uid,
	};
}

/* ---- request parsing (netlink.c) --------------------------------------- */

int nl_require(struct nlattr **tb, int type, const char *msg,
	       struct netlink_ext_ack *extack);
int nl_get_string(const struct nlattr *attr, char *buf, size_t max,
		  const char *msg, struct netlink_ext_ack *extack);
struct mcg_port *nl_get_dev_port(struct nlattr **tb,
				 struct netlink_ext_ack *extack);
struct mcg_group *nl_group(struct nlattr **tb, bool rejoin,
			   struct netlink_ext_ack *extack);
int nl_get_filter(struct nlattr **tb, struct mcg_device **dev,
		  struct mcg_port **port, struct netlink_ext_ack *extack);
int nl_get_join_state(struct nlattr **tb, u8 *js,
		      struct netlink_ext_ack *extack);
int nl_get_group_owner(struct nlattr **tb, const struct mcg_caller *who,
		       union ib_gid *mgid, char *owner,
		       struct netlink_ext_ack *extack);
int nl_check_unpriv_join(struct nlattr **tb, const struct mcg_join_req *req,
			 struct netlink_ext_ack *extack);
int nl_get_create(struct nlattr **tb, struct mcg_join_req *req,
		  struct netlink_ext_ack *extack);

/* ---- messages (nl_msg.c) ------------------------------------------------ */

/* Which holders a group message lists. */
enum { HOLDERS_NONE, HOLDERS_ONE, HOLDERS_ALL };

/*
 * The largest reply to a GROUP_GET "do": a group whose holders do not fit
 * lists the first ones that do (IB_MCG_A_HOLDER_COUNT says how many there
 * are; the dump lists them all). Keeps the IB_MCG_A_HOLDERS nest, whose
 * length is a u16, well below 64 KiB.
 */
#define MCG_DO_REPLY_MAX	(48 * 1024)

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

/*
 * What a group message shows: @which of its holders (none, just @one, or
 * all), those @rd may see (NULL: all), with their ages as of @now; @after
 * is the cursor of a list spanning messages (nl_fill_group()). A dump takes
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

bool nl_nest_full(const struct sk_buff *skb, const struct nlattr *nest);
int nl_put_dev_port(struct sk_buff *skb, const struct mcg_port *port);
int nl_fill_group(struct sk_buff *skb, const struct mcg_group *g,
		  u32 portid, u32 seq, int flags, u8 cmd, u8 reason,
		  const struct mcg_view *v);
int nl_reply_group(struct genl_info *info, const struct mcg_group *g,
		   u8 cmd, int which, const struct mcg_holder *one,
		   const struct mcg_reader *rd);
int nl_reply_join_brief(struct genl_info *info, const struct mcg_group *g,
			const struct mcg_holder *h);
extern const struct mcg_events nl_events;

/* ---- the dump cursor (nl_dump.c) ---------------------------------------- */

/* The parsed attributes of a dump's request (compat.h knows where). */
static inline struct nlattr **nl_dump_attrs(struct netlink_callback *cb)
{
	return mcg_dump_attrs(cb);
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

static inline struct mcg_dump_ctx *nl_dump_ctx(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct mcg_dump_ctx) > sizeof(cb->ctx));
	return (struct mcg_dump_ctx *)cb->ctx;
}

int nl_dump_init(struct netlink_callback *cb);
bool nl_dump_skip_port(const struct mcg_dump_ctx *ctx,
		       const struct mcg_port *port);

/* ---- the handlers ------------------------------------------------------- */

/* nl_group.c */
int mcg_nl_join(struct sk_buff *skb, struct genl_info *info);
int mcg_nl_leave(struct sk_buff *skb, struct genl_info *info);
int mcg_nl_rejoin(struct sk_buff *skb, struct genl_info *info);
int mcg_nl_group_get_doit(struct sk_buff *skb, struct genl_info *info);
int mcg_nl_group_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
/* nl_port.c */
int nl_fill_port(struct sk_buff *skb, struct mcg_port *port, u32 portid,
		 u32 seq, int flags, u8 cmd);
int mcg_nl_port_get_doit(struct sk_buff *skb, struct genl_info *info);
int mcg_nl_port_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
/* nl_owner.c */
int mcg_nl_owner_release(struct sk_buff *skb, struct genl_info *info);
int mcg_nl_owner_release_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb);
int mcg_nl_owner_release_done(struct netlink_callback *cb);

#endif /* _MCG_NL_H */
