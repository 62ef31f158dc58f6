/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * libibmcg: client library for the ib_mcgroups generic netlink family.
 * Applications: #include <ibmcg/ibmcg.h>, link with -libmcg (pkg-config
 * libibmcg). Overview: libibmcg(3).
 *
 * ABI rules (libibmcg.so.1; the soname does not change for these):
 *
 *  1. Objects the library returns (struct ibmcg_group, ibmcg_holder,
 *     ibmcg_port, ibmcg_released, ibmcg_event) are allocated by the
 *     library and only read by the application, through pointers. An
 *     application never allocates one, copies one by value, takes its
 *     sizeof or does pointer arithmetic on it: lists are arrays of
 *     pointers (ended by a NULL pointer too) and a group's holders are
 *     reached with ibmcg_group_holder(). New fields are added at the end
 *     of these structures in later versions, so the fields an application
 *     was compiled with stay where they are.
 *  2. Whether an attribute came from the kernel: ibmcg_group_has() and
 *     ibmcg_port_has() with its IB_MCG_A_* number (or IBMCG_HAS() in C);
 *     there is no limit on the number of attributes.
 *  3. Structures the application fills (struct ibmcg_join_args) start
 *     with their size: initialise them with their _INIT macro
 *     (IBMCG_JOIN_ARGS_INIT), which sets size to
 *     the sizeof the application was compiled with. Fields are only ever
 *     added at the end; the library treats fields beyond the caller's size
 *     as zero (not set) and refuses with -E2BIG a size larger than its own
 *     unless the extra bytes are zero. An optional field is only used when
 *     its set_ flag is true, so all-zero means "defaults".
 *  4. Symbol versions only grow. LIBIBMCG_1 is the ABI of libibmcg 0.2.0
 *     and keeps working for binaries linked against it; functions whose
 *     types changed after 0.2.0 (join, leave, get, dump, free, event
 *     functions) are new versions in LIBIBMCG_1.1 under the same names,
 *     and new functions go into a new node per release. ibmcg_version()
 *     tells the library's version at run time.
 *
 * A handle owns one netlink socket for requests and, once subscribed, a
 * second one for notifications. Handles are not thread safe. Functions
 * returning int return 0 (or a count) on success and a negative errno on
 * failure; after a failure ibmcg_strerror() gives the kernel's extended ack
 * message if it sent one, else strerror().
 *
 * Holds taken with IB_MCG_F_BOUND belong to the handle's request socket:
 * they are released when ibmcg_close() is called or the process exits.
 * The socket is close-on-exec.
 */
#ifndef IBMCG_H
#define IBMCG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Installed next to this header, in <ibmcg/>. */
#include "ib_mcgroups.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * libibmcg is built with -fvisibility=hidden: what this header declares
 * is what it exports (with the versions of libibmcg.map).
 */
#pragma GCC visibility push(default)

#define IBMCG_DEV_NAME_MAX	64	/* IB_DEVICE_NAME_MAX, with the NUL */
#define IBMCG_IFNAME_MAX	16	/* IFNAMSIZ */
#define IBMCG_GID_LEN		16
#define IBMCG_MGID_STRLEN	46	/* INET6_ADDRSTRLEN */
#define IBMCG_JOIN_STATE_STRLEN	64	/* any u8, e.g. "full,sendonly,0x10" */

struct ibmcg;

/* One holder of a group: ibmcg_group_holder(). */
struct ibmcg_holder {
	char owner[IB_MCG_OWNER_MAX + 1];
	uint8_t join_state;		/* one IB_MCG_JOIN_* bit */
	uint32_t flags;			/* IB_MCG_F_* */
	uint32_t nl_portid;		/* bound socket, 0 if not bound */
	uint64_t age_ms;
	/* Later versions add fields here. */
};

/*
 * The library's own fields of a group and a port follow the public ones;
 * applications neither see nor need them (rule 1 above).
 */
#ifdef IBMCG_BUILDING_LIBRARY
#define IBMCG_ATTR_WORDS_	((IB_MCG_A_MAX + 64) / 64)
#define IBMCG_PRIVATE_(fields)	fields
#else
#define IBMCG_PRIVATE_(fields)
#endif

/* A group: ibmcg_join(), ibmcg_group_get(), ibmcg_group_dump(), events. */
struct ibmcg_group {
	char dev_name[IBMCG_DEV_NAME_MAX];
	uint32_t dev_index;
	uint32_t port;
	uint8_t mgid[IBMCG_GID_LEN];	/* network byte order */
	uint8_t state;			/* enum ib_mcg_state */
	uint8_t reason;			/* enum ib_mcg_reason */
	uint32_t error;			/* positive errno, 0 if none */
	uint8_t join_state;		/* union of the holders' */
	uint8_t backend;		/* enum ib_mcg_backend */
	/* Member record, valid when ibmcg_group_has(g, IB_MCG_A_MLID) etc. */
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
	size_t nholders;		/* ibmcg_group_holder(g, 0..n-1) */
	uint32_t linger_ms;		/* kept this long after the last
					 * holder leaves; 0: released at once
					 */
	uint32_t linger_left_ms;	/* IB_MCG_STATE_LINGERING only:
					 * ibmcg_group_has(g,
					 * IB_MCG_A_LINGER_LEFT_MS)
					 */
	/* Added after 0.2.0 (LIBIBMCG_1.1): */
	uint32_t holder_count;		/* every holder of the group, when
					 * ibmcg_group_has(g,
					 * IB_MCG_A_HOLDER_COUNT); a caller
					 * without CAP_NET_ADMIN gets only its
					 * own holders listed (nholders), the
					 * others only counted here
					 */
	/* Added after 0.5.0 (LIBIBMCG_1.4): */
	uint16_t prev_mlid;		/* InfiniBand, when ibmcg_group_has(g,
					 * IB_MCG_A_PREV_MLID): the MLID before
					 * the SA last gave the group another
					 * on a re-join
					 */
	/* Added after 0.7.0: */
	uint8_t link_state;		/* when ibmcg_group_has(g,
					 * IB_MCG_A_LINK_STATE): the
					 * membership's own state (enum
					 * ib_mcg_state: JOINING .. DETACHED),
					 * which a LINGERING group's state
					 * does not show
					 */
	/* Later versions add fields here. */
	IBMCG_PRIVATE_(uint64_t present[IBMCG_ATTR_WORDS_];
		       struct ibmcg_holder *holders;)
};

/* A port: ibmcg_port_get(), ibmcg_port_dump(), re-join wave events. */
struct ibmcg_port {
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
	 * InfiniBand ports only (test with ibmcg_port_has(p, IB_MCG_A_LID):
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
	/* Added after 0.5.0 (LIBIBMCG_1.4): */
	uint64_t mlid_changes;		/* re-joins the SA answered with
					 * another MLID than the group had
					 * (IB_MCG_A_MLID_CHANGES)
					 */
	/* Later versions add fields here. */
	IBMCG_PRIVATE_(uint64_t present[IBMCG_ATTR_WORDS_];)
};

/*
 * What ibmcg_join() asks for; filled by the application (rule 3 above):
 *	struct ibmcg_join_args a = IBMCG_JOIN_ARGS_INIT;
 *	a.owner = "job:42";
 */
struct ibmcg_join_args {
	size_t size;			/* IBMCG_JOIN_ARGS_INIT sets it */
	const char *owner;		/* required, see ibmcg_owner_check();
					 * NULL only without CAP_NET_ADMIN:
					 * the kernel names the caller's own
					 * owner, "uid:N" with N its uid in
					 * the initial user namespace
					 */
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
	/* Later versions add fields here, each with its set_ flag. */
};

#define IBMCG_JOIN_ARGS_INIT	{ .size = sizeof(struct ibmcg_join_args) }

/* One group an ibmcg_owner_release() dropped holds on. */
struct ibmcg_released {
	char dev_name[IBMCG_DEV_NAME_MAX];
	uint32_t dev_index;
	uint32_t port;
	uint8_t mgid[IBMCG_GID_LEN];	/* network byte order */
	uint8_t join_state;		/* the owner's dropped join states */
	uint8_t state;			/* the group's state afterwards:
					 * released, lingering or joined
					 */
	/* Later versions add fields here. */
};

/*
 * One notification, valid only during the callback. Group and holder
 * notifications have group set and port NULL; the port notifications
 * IB_MCG_CMD_REJOIN_WAVE_START_NTF and _END_NTF (InfiniBand) come in the
 * port format of ibmcg_port_get(): port set, group NULL.
 */
struct ibmcg_event {
	uint8_t cmd;			/* IB_MCG_CMD_*_NTF */
	const struct ibmcg_group *group;
	const struct ibmcg_port *port;
	/* Later versions add fields here. */
};

/* Return 0 to continue, anything else stops ibmcg_event_recv(). */
typedef int (*ibmcg_event_cb)(const struct ibmcg_event *ev, void *arg);

/* Handle. ibmcg_connect() fails with -ENOENT, "ib_mcgroups module not
 * loaded", when the family is not registered.
 */
struct ibmcg *ibmcg_alloc(void);
int ibmcg_connect(struct ibmcg *h);
/*
 * ibmcg_connect() with flags (LIBIBMCG_1.3). IBMCG_CONNECT_NOLOAD: never
 * make the kernel load the module. ibmcg_connect() looks the family up by
 * name, and for a name it does not know the kernel loads the module that
 * provides it (so a first `mcctl join` loads ib_mcgroups), also while
 * rmmod takes it away. With this flag the family is found in a dump of
 * the registered families; if it is not there, -ENOENT. For scrapers and
 * anything else that only looks. Unknown flags: -EINVAL.
 */
#define IBMCG_CONNECT_NOLOAD	0x1u
int ibmcg_connect_flags(struct ibmcg *h, unsigned int flags);
void ibmcg_close(struct ibmcg *h);
const char *ibmcg_strerror(const struct ibmcg *h, int err);
const char *ibmcg_errmsg(const struct ibmcg *h);	/* NULL if none */

/* The library's version, VERSION of the source tree (for example "0.3.0"). */
const char *ibmcg_version(void);

/* Requests. "dev" is an rdma device name; "out" may be NULL for join and
 * leave, and is set to NULL on failure. A join_state of 0 in ibmcg_leave()
 * drops every hold of the owner. Results are freed with ibmcg_group_free(),
 * ibmcg_groups_free(), ibmcg_port_free() and ibmcg_ports_free(); lists end
 * with a NULL pointer besides their count. A join fails with -ENOSPC
 * when the port holds its budget of groups or the owner its most holds
 * (see struct ibmcg_port); ibmcg_strerror() says which.
 */
/*
 * An all-zero mgid asks the SA to assign an MGID (InfiniBand; the join
 * state must let the join create the group: full or sendonly-full); the
 * assigned MGID is in (*out)->mgid, so pass out to learn it.
 *
 * On InfiniBand ibmcg_join() waits for the SA's answer, for at most the
 * module parameter join_wait_ms (read from /sys/module/ib_mcgroups/
 * parameters/, default 5000): out then shows the group joined (with its
 * record), in retry-wait (unanswered, held and retried) or, if the wait
 * ran out, still joining; a group the SA refuses fails the join (the
 * group and the hold are gone). The kernel never waits in the request
 * (protocol version 2): a reply that shows the group joined (any join of
 * a joined group, every RoCE join) is the answer, one send and one
 * receive; a reply that says joining makes the library subscribe a
 * socket of its own to the events group, look at the group once more and
 * wait for its notification (an SA-assigned MGID subscribes before the
 * JOIN is sent). A caller without CAP_NET_ADMIN may not subscribe: it
 * looks at the group at growing intervals instead, and a refusal shows
 * as the hold gone, without the SA's reason. With a version 1 kernel,
 * which waited itself, the reply is the answer.
 */
int ibmcg_join(struct ibmcg *h, const char *dev, uint32_t port,
	       const uint8_t mgid[IBMCG_GID_LEN],
	       const struct ibmcg_join_args *args, struct ibmcg_group **out);
int ibmcg_leave(struct ibmcg *h, const char *dev, uint32_t port,
		const uint8_t mgid[IBMCG_GID_LEN], const char *owner,
		uint8_t join_state, struct ibmcg_group **out);
/*
 * Drop every hold of owner (a job's epilog), on all devices, on dev (port
 * 0) or on one port of dev. An owner holding nothing is not an error.
 * *out gets one entry per group, in the kernel's order, freed with
 * ibmcg_released_free(); out (then n is ignored) and holds_dropped may be
 * NULL. With a protocol version 2 kernel any number of holds is released
 * and reported. A version 1 kernel sends one reply: it is read whole up
 * to the socket's receive buffer (4 MiB asked, some 35,000 groups); past
 * that the call fails with -ENOBUFS although the holds were released.
 * A group that was still waiting for an SA-assigned MGID is reported
 * with an all-zero mgid.
 */
int ibmcg_owner_release(struct ibmcg *h, const char *owner, const char *dev,
			uint32_t port, struct ibmcg_released ***out, size_t *n,
			uint32_t *holds_dropped);
/*
 * InfiniBand: join the held group's SA membership again, keeping its
 * holders (the SA lost it without telling the port). -ENOENT if the port
 * holds no such group, -EOPNOTSUPP on a RoCE port or with a kernel
 * without the REJOIN command. out (may be NULL) is the group after the
 * request: retry-wait until the SA's answer, which arrives as an event.
 */
int ibmcg_rejoin(struct ibmcg *h, const char *dev, uint32_t port,
		 const uint8_t mgid[IBMCG_GID_LEN], struct ibmcg_group **out);
int ibmcg_group_get(struct ibmcg *h, const char *dev, uint32_t port,
		    const uint8_t mgid[IBMCG_GID_LEN], struct ibmcg_group **out);
/*
 * dev NULL: all devices; port 0: all ports (port needs dev). Groups come
 * in (device, port, MGID) order; every group that exists from the start
 * to the end of the dump is listed exactly once, with all its holders,
 * however much changes meanwhile. Groups created or released during the
 * dump may or may not be listed. A group whose holders did not fit in one
 * message and changed while they were read may mix two moments: such a
 * dump is repeated a few times, then returned with
 * ibmcg_dump_inconsistent() true rather than failed.
 */
int ibmcg_group_dump(struct ibmcg *h, const char *dev, uint32_t port,
		     struct ibmcg_group ***groups, size_t *n);
/*
 * As ibmcg_group_dump(), each group as a listing shows it, in fewer bytes
 * from the kernel (LIBIBMCG_1.2): the member record only on InfiniBand
 * (the SA's choice), and there without port_gid and sgid_index
 * (ibmcg_group_has() false for what is left out); holders' age_ms is 0.
 * ibmcg_group_get() gives a RoCE group's record (for ibv_attach_mcast()).
 * A kernel that does not know the list view sends everything.
 */
int ibmcg_group_list(struct ibmcg *h, const char *dev, uint32_t port,
		     struct ibmcg_group ***groups, size_t *n);
/* Did the last dump (group or port dump, or group get) mix two moments? */
bool ibmcg_dump_inconsistent(const struct ibmcg *h);
/*
 * The kernel's protocol version (IB_MCG_GENL_VERSION of the loaded
 * module), once connected; -ENOTCONN before. The library speaks versions
 * 1 and 2: with 2, owner releases and group gets of any size arrive in
 * several messages.
 */
int ibmcg_protocol_version(const struct ibmcg *h);
int ibmcg_port_get(struct ibmcg *h, const char *dev, uint32_t port,
		   struct ibmcg_port **out);
int ibmcg_port_dump(struct ibmcg *h, const char *dev,
		    struct ibmcg_port ***ports, size_t *n);
/* Each takes NULL too. */
void ibmcg_group_free(struct ibmcg_group *g);
void ibmcg_groups_free(struct ibmcg_group **groups);
void ibmcg_port_free(struct ibmcg_port *p);
void ibmcg_ports_free(struct ibmcg_port **ports);
void ibmcg_released_free(struct ibmcg_released **released);

/*
 * Did the group's or port's message carry attribute attr (IB_MCG_A_*)?
 * Optional values (the member record, linger_left_ms, the InfiniBand port
 * counters) are only meaningful when it did.
 */
bool ibmcg_group_has(const struct ibmcg_group *g, unsigned int attr);
bool ibmcg_port_has(const struct ibmcg_port *p, unsigned int attr);
#ifndef __cplusplus
#define IBMCG_HAS(obj, attr)						\
	_Generic((obj),							\
		 struct ibmcg_group *: ibmcg_group_has,			\
		 const struct ibmcg_group *: ibmcg_group_has,		\
		 struct ibmcg_port *: ibmcg_port_has,			\
		 const struct ibmcg_port *: ibmcg_port_has)((obj), (attr))
#endif
/* Holder i (0 .. g->nholders - 1) of g; NULL past the end. */
const struct ibmcg_holder *ibmcg_group_holder(const struct ibmcg_group *g,
					      size_t i);

/* Notifications: subscribe once, then poll ibmcg_event_fd() and call
 * ibmcg_event_recv(), which reads one datagram (blocking unless the fd was
 * made non-blocking) and returns the number of events passed to cb, the
 * callback's non-zero return value, or -errno (-ENOBUFS: events were lost,
 * -EINTR: a signal arrived, -EAGAIN: nothing to read). Port notifications
 * (re-join waves) are delivered too: see struct ibmcg_event.
 */
int ibmcg_event_subscribe(struct ibmcg *h);
int ibmcg_event_fd(const struct ibmcg *h);
int ibmcg_event_recv(struct ibmcg *h, ibmcg_event_cb cb, void *arg);

/*
 * LIBIBMCG_1.4. Is ev the report that the SA gave a group another MLID on
 * a re-join (an SA wipe, a client reregister, an SM failover):
 * IB_MCG_CMD_GROUP_STATE_NTF with reason IB_MCG_REASON_MLID_CHANGED? If
 * so, returns true and fills those of mgid, old_mlid and new_mlid that
 * are not NULL; else returns false and fills nothing. The group is
 * ev->group (its device and port); a receiver attached to the old MLID
 * and an address handle made with it no longer reach the group: detach
 * from old_mlid, attach to new_mlid, create the AH again with new_mlid.
 */
bool ibmcg_event_mlid_change(const struct ibmcg_event *ev,
			     uint8_t mgid[IBMCG_GID_LEN], uint16_t *old_mlid,
			     uint16_t *new_mlid);

/*
 * Declared groups and pools: /etc/ib_mcgroups.conf, ib_mcgroups.conf(5),
 * read by the same code as mcctl's ("mcctl join NAME", "mcctl apply").
 * An application looks a name up, then joins on the ports it covers:
 *
 *	struct ibmcg_conf *c;
 *	const struct ibmcg_conf_group *cg;
 *	struct ibmcg_join_args a = IBMCG_JOIN_ARGS_INIT;
 *
 *	ibmcg_conf_open(NULL, &c, err, sizeof(err));
 *	cg = ibmcg_conf_group(c, "coll0");
 *	ibmcg_conf_join_args(cg, &a);	(the declared options)
 *	a.owner = "job:42";
 *	for each port p of ibmcg_port_dump(): if ibmcg_conf_covers(cg, p),
 *		ibmcg_join(h, p->dev_name, p->port, cg->mgid, &a, &g);
 *
 * ibmcg_conf_open(): path NULL is IBMCG_CONF_PATH. Returns 0, -ENOENT and
 * the like when the file cannot be read, -EINVAL when it is invalid; err
 * (if not NULL) then gets "PATH:LINE: why" or "cannot read PATH: why".
 * The objects live until ibmcg_conf_close().
 */
#define IBMCG_CONF_PATH		"/etc/ib_mcgroups.conf"

struct ibmcg_conf;

/* A group or pool line (rule 1: read-only, allocated by the library). */
struct ibmcg_conf_group {
	const char *name;
	bool pool;			/* a pool line (else a group line) */
	const char *target;		/* as written: DEV/PORT, DEV, all,
					 * all-ib or all-roce
					 */
	char dev[IBMCG_DEV_NAME_MAX];	/* DEV/PORT and DEV targets, else "" */
	uint32_t port;			/* DEV/PORT targets, else 0 */
	uint8_t mgid[IBMCG_GID_LEN];
	const char *owner;		/* named on the line, else NULL */
	unsigned int line;		/* its (first) line in the file */
	/* Later versions add fields here. */
	IBMCG_PRIVATE_(const struct conf_entry *entry;)
};

int ibmcg_conf_open(const char *path, struct ibmcg_conf **conf, char *err,
		    size_t errlen);
void ibmcg_conf_close(struct ibmcg_conf *conf);
/* The file's owner line, "config" if none: the owner apply holds with. */
const char *ibmcg_conf_owner(const struct ibmcg_conf *conf);
/* The group or pool NAME; NULL if none. */
const struct ibmcg_conf_group *ibmcg_conf_group(const struct ibmcg_conf *conf,
						const char *name);
/* Entry i (0, 1, ... in file order); NULL past the last. */
const struct ibmcg_conf_group *
ibmcg_conf_group_at(const struct ibmcg_conf *conf, size_t i);
/* Does the group's target cover port p (as ibmcg_port_dump() gives it)? */
bool ibmcg_conf_covers(const struct ibmcg_conf_group *cg,
		       const struct ibmcg_port *p);
/*
 * The declared join options into args, which the caller initialised with
 * IBMCG_JOIN_ARGS_INIT (args->size is kept): owner is the line's, or
 * NULL. 0, or -EINVAL if args has no size.
 */
int ibmcg_conf_join_args(const struct ibmcg_conf_group *cg,
			 struct ibmcg_join_args *args);

/* Pure helpers; no handle needed. On failure they return -EINVAL and set
 * *why (if why is not NULL) to a static sentence describing the problem.
 */
int ibmcg_mgid_parse(const char *s, uint8_t mgid[IBMCG_GID_LEN],
		     const char **why);
char *ibmcg_mgid_format(const uint8_t mgid[IBMCG_GID_LEN], char *buf,
			size_t len);
char *ibmcg_gid_format(const uint8_t gid[IBMCG_GID_LEN], char *buf,
		       size_t len);
/* "DEV/PORT", or "DEV" when port_optional (then *port = 0). */
int ibmcg_devport_parse(const char *s, char dev[IBMCG_DEV_NAME_MAX],
			uint32_t *port, bool port_optional, const char **why);
int ibmcg_owner_check(const char *owner, const char **why);
int ibmcg_join_state_parse(const char *s, uint8_t *join_state,
			   const char **why);
const char *ibmcg_join_state_name(uint8_t bit);	/* NULL if not one bit */
char *ibmcg_join_state_format(uint8_t join_state, char *buf, size_t len);

/* Names; NULL for values this library does not know. */
const char *ibmcg_state_name(uint8_t state);
const char *ibmcg_reason_name(uint8_t reason);
const char *ibmcg_backend_name(uint8_t backend);
const char *ibmcg_link_layer_name(uint8_t link_layer);
const char *ibmcg_port_state_name(uint8_t port_state);
const char *ibmcg_event_name(uint8_t cmd);
const char *ibmcg_rate_name(uint8_t rate);	/* "100Gbps" */
/*
 * A rate in Gb/s, as enum ib_rate names them: "2.5", "5", "10",
 * "14", "20", "25", "28", "30", "40", "50", "56", "60", "80", "100",
 * "112", "120", "168", "200", "300", "400" or "600", optionally followed
 * by "Gbps" (as ibmcg_rate_name() prints it), to its enum ib_rate value.
 */
int ibmcg_rate_parse(const char *s, uint8_t *rate, const char **why);
int ibmcg_mtu_to_bytes(uint8_t mtu);		/* 0 if not an ib_mtu */
int ibmcg_mtu_from_bytes(unsigned int bytes);	/* -EINVAL if none */

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* IBMCG_H */
