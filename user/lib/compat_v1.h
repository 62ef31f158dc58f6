/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * libibmcg internals: the structures of the LIBIBMCG_1 ABI (libibmcg
 * 0.2.0 and before), frozen. compat.c keeps the LIBIBMCG_1 versions of the
 * functions that took or returned them for applications linked then.
 * Never change these; not installed.
 */
#ifndef IBMCG_COMPAT_V1_H
#define IBMCG_COMPAT_V1_H

#include "ibmcg.h"

struct ibmcg_holder_v1 {
	char owner[IB_MCG_OWNER_MAX + 1];
	uint8_t join_state;		/* one IB_MCG_JOIN_* bit */
	uint32_t flags;			/* IB_MCG_F_* */
	uint32_t nl_portid;		/* bound socket, 0 if not bound */
	uint64_t age_ms;
};

struct ibmcg_group_v1 {
	uint64_t present;		/* 1 << IB_MCG_A_* received */
	char dev_name[IBMCG_DEV_NAME_MAX];
	uint32_t dev_index;
	uint32_t port;
	uint8_t mgid[IBMCG_GID_LEN];	/* network byte order */
	uint8_t state;			/* enum ib_mcg_state */
	uint8_t reason;			/* enum ib_mcg_reason */
	uint32_t error;			/* positive errno, 0 if none */
	uint8_t join_state;		/* union of the holders' */
	uint8_t backend;		/* enum ib_mcg_backend */
	/* Member record, valid when IBMCG_HAS(g, IB_MCG_A_MLID) etc. */
	uint16_t mlid;
	uint32_t qkey;
	uint16_t pkey;
	uint8_t mtu;			/* enum ib_mtu, 1 = 256 .. 5 = 4096 */
	uint8_t rate;			/* enum ib_rate */
	uint8_t sl;
	uint32_t flow_label;
	uint8_t tclass;
	uint8_t hop_limit;
	uint8_t port_gid[IBMCG_GID_LEN];
	uint32_t sgid_index;
	size_t nholders;
	struct ibmcg_holder_v1 *holders;	/* malloc'ed; ibmcg_group_free() */
	uint32_t linger_ms;		/* kept this long after the last
					 * holder leaves; 0: released at once
					 */
	uint32_t linger_left_ms;	/* IB_MCG_STATE_LINGERING only:
					 * IBMCG_HAS(g, IB_MCG_A_LINGER_LEFT_MS)
					 */
};

struct ibmcg_port_v1 {
	uint64_t present;		/* 1 << IB_MCG_A_* received */
	char dev_name[IBMCG_DEV_NAME_MAX];
	uint32_t dev_index;
	uint32_t port;
	uint8_t link_layer;		/* enum ib_mcg_link_layer */
	uint8_t port_state;		/* 1 DOWN .. 5 ACTIVE_DEFER */
	uint8_t backend;		/* enum ib_mcg_backend */
	char netdev[IBMCG_IFNAME_MAX];	/* RoCE only, "" if unresolved */
	uint32_t ifindex;
	uint32_t max_mcast_grp;
	uint32_t max_mcast_qp_attach;
	uint32_t max_total_mcast_qp_attach;
	uint32_t groups;
	uint32_t holder_count;
	uint64_t joins;
	uint64_t leaves;
	uint64_t join_errors;
	uint64_t linger_hits;		/* joins that took back a lingering
					 * group
					 */
	uint64_t linger_expired;	/* lingering groups released */
	uint32_t max_groups;		/* group budget of the port, 0: none */
	uint32_t max_owner_holds;	/* holds one owner may have, 0: none */
	/*
	 * InfiniBand ports only (test with IBMCG_HAS(p, IB_MCG_A_LID) etc.:
	 * a kernel without IB support, or a RoCE port, sends none of them).
	 * A re-join wave starts when the port loses its memberships (SM
	 * reregister, port error, LID or P_Key change) and ends when every
	 * held group is joined again.
	 */
	uint32_t lid;			/* the port's LID */
	uint32_t sm_lid;		/* its SM's LID */
	uint32_t last_sm_lid;		/* SM LID at the last reregister */
	uint32_t last_rejoin_wave_ms;	/* duration of the last wave */
	uint32_t rejoin_pending;	/* groups waiting to be re-joined */
	uint64_t sm_reregisters;	/* CLIENT_REREGISTER events seen */
	uint64_t rejoin_waves;		/* completed re-join waves */
	uint64_t group_rejoins;		/* successful re-joins of groups */
	uint64_t rejoin_failures;	/* failed join attempts of held
					 * groups (retried)
					 */
	uint64_t sa_timeouts;		/* joins the SA did not answer */
};

struct ibmcg_join_args_v1 {
	const char *owner;		/* required, see ibmcg_owner_check() */
	uint8_t join_state;		/* one IB_MCG_JOIN_* bit, 0: default */
	uint32_t flags;			/* IB_MCG_F_* */
	bool set_qkey;			/* false: kernel default Q_Key */
	uint32_t qkey;
	bool set_linger;		/* false: the group keeps its linger
					 * time (a new group: the module's
					 * default, parameter linger_ms)
					 */
	uint32_t linger_ms;		/* 0..IB_MCG_LINGER_MAX_MS */
	/*
	 * InfiniBand: the parameters of a group the join may create. Setting
	 * any of them, or create, or passing an all-zero MGID (the SA assigns
	 * one; the reply carries it) makes the join a create; parameters not
	 * set take the kernel's defaults (Q_Key IB_MCG_DEFAULT_QKEY, P_Key
	 * 0xffff, SL, flow label and traffic class 0, MTU and rate chosen by
	 * the SA). Without them the join names an existing group. A join that
	 * repeats an existing group's parameters succeeds, one that differs
	 * fails with -EINVAL. ibmcg_join() checks the ranges given here.
	 */
	bool create;			/* a create even with no parameter
					 * set: sends the Q_Key (default
					 * IB_MCG_DEFAULT_QKEY)
					 */
	bool set_pkey;
	uint16_t pkey;			/* not 0x0000 or 0x8000 */
	bool set_mtu;
	uint8_t mtu;			/* enum ib_mtu, 1 (256) .. 5 (4096) */
	bool set_rate;
	uint8_t rate;			/* enum ib_rate, 2 .. 22, see
					 * ibmcg_rate_parse()
					 */
	bool set_sl;
	uint8_t sl;			/* 0..15 */
	bool set_flow_label;
	uint32_t flow_label;		/* 0..0xfffff */
	bool set_tclass;
	uint8_t tclass;
	bool set_hop_limit;
	uint8_t hop_limit;
	bool set_scope;
	uint8_t scope;			/* 0..15, the scope of an SA-assigned
					 * MGID (all-zero mgid only)
					 */
};

/* One group an ibmcg_owner_release() dropped holds on. */
struct ibmcg_released_v1 {
	char dev_name[IBMCG_DEV_NAME_MAX];
	uint32_t dev_index;
	uint32_t port;
	uint8_t mgid[IBMCG_GID_LEN];	/* network byte order */
	uint8_t join_state;		/* the owner's dropped join states */
	uint8_t state;			/* the group's state afterwards:
					 * released, lingering or joined
					 */
};

/*
 * One notification. Group and holder notifications fill group; the port
 * notifications IB_MCG_CMD_REJOIN_WAVE_START_NTF and _END_NTF (InfiniBand)
 * come in the port format of ibmcg_port_get() and fill port instead, with
 * is_port set and group all zero (port is all zero otherwise). Both are
 * only valid during the callback.
 */
struct ibmcg_event_v1 {
	uint8_t cmd;			/* IB_MCG_CMD_*_NTF */
	struct ibmcg_group_v1 group;	/* freed after the callback returns */
	bool is_port;			/* port, not group, is filled */
	struct ibmcg_port_v1 port;
};

/* Return 0 to continue, anything else stops ibmcg_event_recv(). */
typedef int (*ibmcg_event_cb_v1)(const struct ibmcg_event_v1 *ev, void *arg);

/*
 * compat_conv.c: g's fields into *o, its holders into a new array (g's
 * are freed: g is emptied either way); -ENOMEM. Only attributes below 64
 * can be in o->present.
 */
int ibmcg__group_to_v1(struct ibmcg_group *g, struct ibmcg_group_v1 *o);
void ibmcg__port_to_v1(const struct ibmcg_port *p, struct ibmcg_port_v1 *o);

#endif /* IBMCG_COMPAT_V1_H */
