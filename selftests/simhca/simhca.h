/* SPDX-License-Identifier: GPL-2.0 */
/*
 * simhca: a simulated InfiniBand HCA with a simulated SM/SA, for tests.
 */
#ifndef _SIMHCA_H
#define _SIMHCA_H

#include <linux/hashtable.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>

#include "compat_autoconf.h"	/* the feature probes (Makefile) */

/*
 * The type of a port number in the verbs operations: u32 since 5.13
 * (MCG_HAVE_IB_PORT_U32, the module's probe), u8 before. simhca keeps port
 * numbers as u32 everywhere else.
 */
#ifdef MCG_HAVE_IB_PORT_U32
typedef u32 simhca_verbs_port_t;
#else
typedef u8 simhca_verbs_port_t;
#endif

#define SIMHCA_MAX_PORTS	2
/* 4 devices, or 64 in a fabric (module parameter fabric, main.c) */
#define SIMHCA_MAX_DEVS		4
#define SIMHCA_FABRIC_MAX_DEVS	64
#define SIMHCA_PKEY_TBL_LEN	16
#define SIMHCA_GID_TBL_LEN	1
#define SIMHCA_MAX_QP		16
#define SIMHCA_MAX_WR		4096
#define SIMHCA_MAX_CQE		65536
#define SIMHCA_MAX_SGE		4
/* debugfs "subnet_prefix" changes it (GID_CHANGE on every port) */
extern u64 simhca_subnet_prefix;
#define SIMHCA_SUBNET_PREFIX_DEFAULT	0xfe80000000000000ULL
#define SIMHCA_SUBNET_PREFIX	READ_ONCE(simhca_subnet_prefix)
#define SIMHCA_GUID_BASE	0x0053494d48434100ULL
#define SIMHCA_MLID_BASE	0xc000
#define SIMHCA_MLID_MAX		0xfffe
/* above the most requests any host sends in 100 ms (20,000/s and more) */
#define SIMHCA_RATE_RING	8192
/* stats' arrivals: requests per 10 ms since the reset, for 120 s */
#define SIMHCA_ARRIVAL_NS	(10 * NSEC_PER_MSEC)
#define SIMHCA_ARRIVALS		12000
#define SIMHCA_TID_RING		1024
#define SIMHCA_LOST_TIDS	16
#define SIMHCA_MLID_NUM		(SIMHCA_MLID_MAX - SIMHCA_MLID_BASE + 1)
/* UD QPs of kernel consumers: QPNs from 0x10, a few per device */
#define SIMHCA_MAX_UD_QP	12
#define SIMHCA_UD_QPN_BASE	0x10
/* IPoIB attaches its QP to the broadcast group and every IPv4/IPv6 group */
#define SIMHCA_MAX_MC_ATTACH	64
#define SIMHCA_UD_MTU		4096

/* SA status codes, already shifted into the MAD status field */
#define SIMHCA_SA_ERR_NO_RESOURCES	0x0100
#define SIMHCA_SA_ERR_REQ_INVALID	0x0200
#define SIMHCA_SA_ERR_NO_RECORDS	0x0300
#define SIMHCA_SA_ERR_TOO_MANY_RECORDS	0x0400
#define SIMHCA_SA_ERR_REQ_INVALID_GID	0x0500
#define SIMHCA_SA_ERR_INSUFFICIENT_COMPS 0x0600

/* MCMemberRecord, IBA 15.2.5.17 */
struct simhca_mcmr {
	u8	mgid[16];
	u8	port_gid[16];
	__be32	qkey;
	__be16	mlid;
	u8	mtu;
	u8	tclass;
	__be16	pkey;
	u8	rate;
	u8	pkt_life;
	__be32	sl_flow_hop;
	u8	scope_state;
	u8	proxy_join;
	u8	reserved[14];
} __packed;

/* NodeRecord, IBA 15.2.5.2 (LID, reserved, NodeInfo, NodeDescription) */
struct simhca_node_rec {
	__be16	lid;
	__be16	reserved;
	u8	base_version;
	u8	class_version;
	u8	node_type;
	u8	num_ports;
	__be64	sys_image_guid;
	__be64	node_guid;
	__be64	port_guid;
	__be16	partition_cap;
	__be16	device_id;
	__be32	revision;
	u8	local_port_num;
	u8	vendor_id[3];
	u8	node_desc[IB_DEVICE_NODE_DESC_MAX];
} __packed;

struct simhca_cq {
	struct ib_cq ibcq;
	spinlock_t lock;	/* the CQE ring and armed */
	struct ib_wc *ring;
	u32 size;
	u32 head;
	u32 count;
	bool armed;
	u64 overflows;
};

struct simhca_recv_wqe {
	u64 wr_id;
	u64 addr;
	u32 length;
};

struct simhca_mc_attach {
	u8 mgid[16];
	u16 mlid;
};

struct simhca_qp {
	struct ib_qp ibqp;
	u32 port;		/* UD: 0 until modified to INIT */
	enum ib_qp_state state;
	spinlock_t rq_lock;	/* the receive ring */
	struct simhca_recv_wqe *rq;
	u32 rq_size;
	u32 rq_head;
	u32 rq_count;
	bool sq_sig_all;
	/* UD QPs: under sdev->lock (the switch reads them) */
	u32 qkey;
	u16 pkey_index;
	u32 nattach;
	struct simhca_mc_attach attach[SIMHCA_MAX_MC_ATTACH];
};

struct simhca_ah {
	struct ib_ah ibah;
	struct rdma_ah_attr attr;
};

struct simhca_pd {
	struct ib_pd ibpd;
};

struct simhca_mr {
	struct ib_mr ibmr;
};

struct simhca_dev;

struct simhca_port {
	struct simhca_dev *sdev;
	u32 num;
	/* DOWN, ACTIVE; with an external SM also INIT and ARMED (sma.c) */
	enum ib_port_state state;
	u16 lid;
	u16 pkeys[SIMHCA_PKEY_TBL_LEN];
	/* the SM's LID and SL as the external SM set them (sma.c) */
	u16 sm_lid;
	u8 sm_sl;
	u8 lmc;
	u8 subnet_timeout;
	/* CapabilityMask: modify_port() sets and clears bits */
	u32 cap_mask;
	/* what PortInfo Sets wrote and the SMA does not model (sma.c) */
	struct ib_port_info pi;
	/* QP0 and QP1, under sdev->lock */
	struct simhca_qp *qp[2];
};

/* A MAD travelling between the host and the simulated SM */
struct simhca_pkt {
	struct list_head list;
	unsigned long due;
	ktime_t sent;		/* when the host posted it (requests) */
	/*
	 * Requests: the device whose port sent it (in a fabric, not the
	 * SA's device; see simhca_sa_of()), which the answer goes back to
	 */
	struct simhca_dev *from;
	u32 port;
	u16 slid;
	u16 dlid;		/* to the SMA: the address handle's DLID */
	u8 qpn;			/* to the SMA: posted on QP0 or QP1 */
	u16 pkey_index;
	bool first;		/* the first answer to its request (see to_host) */
	bool counted;		/* in requests_pending */
	u8 mad[IB_MGMT_MAD_SIZE];
};

/* The TID of a request answered, in simhca_dev's ring and hash */
struct simhca_tid {
	struct hlist_node node;
	__be64 tid;
};

/* A UD datagram on its way through the simulated switch */
struct simhca_dgram {
	struct list_head list;
	u32 port;		/* where it entered the switch */
	u16 slid;
	u16 dlid;
	u8 sgid[16];
	u8 dgid[16];
	bool grh;
	u32 src_qpn;
	u32 qkey;
	u16 pkey;
	u8 sl;
	u32 dst_qpn;		/* unicast: the QP at the DLID's port */
	u32 len;
	u8 data[];
};

/* Counters of the switch and of address handles, under sdev->lock */
struct simhca_switch_stats {
	u64 sent;		/* UD datagrams posted by the host */
	u64 delivered;		/* receive completions, one per QP */
	u64 drop_no_mft;	/* MLID with no port in the MFT */
	u64 drop_no_qp;		/* a port got it, no QP there attached */
	u64 drop_port_down;
	u64 drop_qkey;
	u64 drop_pkey;
	u64 drop_rq_empty;
	u64 drop_no_grh;	/* multicast without a GRH */
	u64 unicast;		/* unicast datagrams posted */
	u64 drop_unicast;	/* unicast to no port or no such QP there */
	u64 mft_programs;
	u64 sm_ah_creates;	/* create_ah calls for the SM's LID */
	u64 sm_ah_fails;	/* ... failed by ah_fail_next */
};

/* A port's membership: a slot of its group, on members while in use */
struct simhca_member {
	struct list_head list;
	u8 port_gid[16];
	u8 join_state;
	u8 proxy_join;
};

/*
 * An MCMemberRecord group, from the "simhca_mcm" slab cache. A member is
 * a port the SA serves (found by GUID): one of the device's, or in a
 * fabric one of any device's. So a group has at most simhca_sa_slots
 * members (main.c): they live in slot[], listed on members in the order
 * they joined.
 */
struct simhca_group {
	struct list_head list;		/* sa.groups, in creation order */
	struct hlist_node hnode;	/* sa.by_mgid */
	struct simhca_mcmr rec;
	struct list_head members;
	bool sm_created;	/* the SM's own group: kept with no members */
	struct simhca_member slot[];	/* simhca_sa_slots of them */
};

#define SIMHCA_SA_HASH_BITS	14	/* as many buckets as MLIDs */

/* An RMPP send in progress (a multi-segment GetTableResp) */
struct simhca_rmpp {
	struct list_head list;
	struct simhca_dev *from;	/* the requester (simhca_pkt.from) */
	u32 port;
	u16 pkey_index;
	__be64 tid;
	unsigned long expires;
	struct ib_sa_mad hdr;
	u8 *data;
	u32 len;
	u32 nseg;
	u32 sent;
	u32 newwin;
};

enum { SIMHCA_M_GET, SIMHCA_M_SET, SIMHCA_M_GETTABLE, SIMHCA_M_DELETE,
	SIMHCA_M_OTHER, SIMHCA_M_NUM };
enum { SIMHCA_A_CPI, SIMHCA_A_MCM, SIMHCA_A_NODE, SIMHCA_A_PATH, SIMHCA_A_OTHER,
	SIMHCA_A_NUM };

struct simhca_stats {
	u64 rx[SIMHCA_M_NUM][SIMHCA_A_NUM];
	u64 answered[SIMHCA_M_NUM][SIMHCA_A_NUM];
	u64 drop_fault;
	u64 drop_query;
	u64 drop_rate;
	u64 drop_sweep;
	u64 drop_port_down;
	u64 drop_not_sa;
	u64 drop_bad_smkey;	/* another SM_Key: discarded, as OpenSM does */
	u64 fail_injected;
	u64 busy;		/* answered BUSY (serve_busy_ms) */
	u64 rmpp_segments;
	u64 rmpp_acks;
	u64 rmpp_aborts;
	u64 max_per_100ms;
	u64 max_per_100ms_end_ns;	/* its window's end, since the reset */
	u64 mcm_max_per_100ms;		/* the same, MCMemberRecord requests */
	u64 mcm_max_per_100ms_end_ns;
	u64 mcm_updates;	/* MCMemberRecord Sets and Deletes handled */
	u64 mcm_update_ns;	/* time spent on them */
	u64 mft_ns;		/* time spent programming the MFT */
	u64 serve_wait_max_ns;	/* serve_rate: the longest an answer queued */
};

struct simhca_sa {
	struct mutex lock;	/* everything below */
	struct list_head groups;
	u32 ngroups;
	u32 nmembers;		/* of all groups (stats: members) */
	/* the groups by MGID (jhash) and by MLID (index from 0xC000) */
	struct hlist_head *by_mgid;
	struct simhca_group **by_mlid;
	unsigned long *mlid_used;	/* SIMHCA_MLID_NUM bits */
	/*
	 * MLIDs whose forwarding may have changed since the MFT was last
	 * programmed: each once in mft_dirty[] (its bit in mft_dirty_map).
	 */
	u16 *mft_dirty;
	unsigned long *mft_dirty_map;
	u32 mft_ndirty;
	struct list_head rmpp;
	u32 mgid_counter;
	unsigned long sweep_end;
	bool sweeping;
	unsigned long rate_start;
	u32 rate_count;
	u64 serve_next_ns;	/* serve_rate: when the server is next free */
	/* requests posted: all of them, and MCMemberRecords alone */
	struct simhca_rate_ring {
		ktime_t *t;	/* the last 100 ms's post times, a ring */
		u32 head;
		u32 count;
		u32 *arrivals;	/* per SIMHCA_ARRIVAL_NS since the reset */
	} ring, mcm_ring;
	ktime_t arrivals_t0;	/* the stats' reset */
	/* TIDs of the queries drop_queries lost: their resends are lost too */
	__be64 lost[SIMHCA_LOST_TIDS];
	u32 lost_next;
	struct simhca_stats st;
	u64 events[IB_EVENT_GID_CHANGE + 1];
};

/* debugfs knobs; plain integers read without locks by the SA worker */
struct simhca_knobs {
	u16 sm_lid;
	bool reregister_wipe;
	u32 first_sweep_ms;
	u32 drop_next;
	u32 drop_queries;
	u32 fail_next;
	u32 fail_status;
	u32 delay_ms;
	u32 rate_limit;
	u32 serve_rate;
	u32 serve_busy_ms;
	u32 mlid_capacity;
	u32 mlid_shift;
	u32 neighbor_mtu;
	bool switch_info;
	u32 refuse_join;
	u64 sa_key;
	u32 mft_delay_ms;
	u32 ah_delay_ms;
	u32 ah_fail_next;
	u32 event_delay_ms;
};

/* The in-kernel UD test helper of debugfs "ud" (ud.c): one QP per port */
struct simhca_udh_port {
	struct ib_cq *cq;
	struct ib_qp *qp;
	u8 *bufs;
	u64 received;
	u64 bad;
};

struct simhca_udh {
	struct mutex lock;	/* everything below */
	struct ib_pd *pd;
	u32 seq;
	struct simhca_udh_port port[SIMHCA_MAX_PORTS];
};

/*
 * The subnet management agent (sma.c) of the device's switch: its port 0
 * (the switch itself) and one port per HCA port, and the tables the SM
 * programs. Written by the SMA's work only (on the ordered workqueue);
 * the MFT is mirrored into sdev->mft under sdev->lock for the data path.
 */
#define SIMHCA_LFT_CAP		0xc000	/* LinearFDBCap: every unicast LID */
#define SIMHCA_SW_PORTS		(SIMHCA_MAX_PORTS + 1)

struct simhca_sma_stats {
	u64 rx;			/* SMPs the host posted */
	u64 answered;		/* answered by the SMA of a CA port or the switch */
	u64 to_host;		/* delivered to a port's QP0 (SMInfo, replies) */
	u64 local;		/* answered in process_mad (hop count 0) */
	u64 dropped;		/* no route, bad hop count, unsupported routing */
	u64 bad_set;		/* Sets refused with an invalid field status */
	u64 ca_armed;		/* Sets that armed a CA port (INIT -> ARMED) */
	u64 gsi_routed;		/* QP1 MADs delivered by DLID (internal_sa=N) */
	u64 gsi_dropped;	/* ... lost: port not ACTIVE, no route */
	u64 trap_sent;		/* Trap(Notice 128)s sent to the SM, resends too */
	u64 trap_repressed;	/* ... that the SM's TrapRepress ended */
	u64 trap_unrepressed;	/* ... given up after SMA_TRAP_SENDS sends */
	u64 trap_no_sm;		/* not sent: no SM LID or switch LID, no route */
};

struct simhca_switch {
	u16 lid;			/* port 0's LID */
	u8 lmc;
	u16 sm_lid;
	u8 life_state;
	u16 lin_top;
	u16 mcast_top;
	u8 def_mcast_pri;
	u8 def_mcast_not;
	u8 state[SIMHCA_SW_PORTS];	/* IB_PORT_*; port 0 always ACTIVE */
	struct ib_port_info pi[SIMHCA_SW_PORTS];
	u8 *lft;			/* SIMHCA_LFT_CAP entries, 0xff: none */
	__be16 *mft;			/* SIMHCA_MLID_NUM port masks, as Set */
	struct simhca_sma_stats st;
	/*
	 * Trap 128 (a link's state changed) until the SM represses it:
	 * trap_work sends it and resends it (sma.c, traps).
	 */
	struct delayed_work trap_work;
	u64 trap_tid;			/* the pending trap's TID */
	u32 trap_seq;			/* traps begun; its low bit: Toggle */
	u8 trap_sends;			/* its sends so far */
	bool trap_pending;
};

struct simhca_dev {
	struct ib_device ibdev;
	u32 index;
	u32 nports;
	struct simhca_port port[SIMHCA_MAX_PORTS];

	/* port[].qp[], ud[], UD QP attributes, to_sa, to_host, to_switch,
	 * answers_pending, max_answers_pending, requests_pending,
	 * max_requests_pending, answers_resent, answers_rq_empty, answered*,
	 * mft, sw, dying
	 */
	spinlock_t lock;
	struct list_head to_sa;
	struct list_head to_host;
	struct list_head to_switch;
	u32 answers_pending;		/* on to_host */
	u32 max_answers_pending;	/* the most since the stats reset */
	/*
	 * Requests whose first answer is on to_host, each counted once
	 * however often the host sent it (simhca_to_host()), the most since
	 * the stats reset, and the answers to requests answered already.
	 */
	u32 requests_pending;
	u32 max_requests_pending;
	u64 answers_resent;
	/* answers dropped: QP1's receive queue of their port was empty */
	u64 answers_rq_empty;
	/*
	 * The TIDs of the last SIMHCA_TID_RING requests answered: a ring
	 * (the oldest is reused), hashed by TID.
	 */
	struct simhca_tid answered[SIMHCA_TID_RING];
	DECLARE_HASHTABLE(answered_hash, 10);
	u32 answered_next;
	u32 answered_count;		/* entries in use */
	bool dying;
	struct workqueue_struct *wq;	/* ordered: SA, MFT, switch, host */
	struct work_struct sa_work;
	struct delayed_work host_work;
	struct work_struct switch_work;
	struct delayed_work mft_work;

	/*
	 * The switch's multicast forwarding table: for each MLID from
	 * SIMHCA_MLID_BASE a bitmap of the ports (bit 0: port 1) it forwards
	 * to. NULL until first programmed. mft_work writes the entries of
	 * the MLIDs that changed (sa.mft_dirty) under sdev->lock.
	 */
	u8 *mft;
	struct simhca_qp *ud[SIMHCA_MAX_UD_QP];
	/* SMPs the host posted on QP0, for the SMA's work (sma.c) */
	struct list_head to_sma;
	struct work_struct sma_work;
	struct mutex sma_lock;	/* the SMA's state (sma.c) */
	struct simhca_switch swi;
	struct simhca_switch_stats sw;
	struct simhca_udh udh;

	struct simhca_knobs knobs;
	struct simhca_sa sa;
	bool registered;	/* with ib_core (main.c's simhca_devs_lock) */
	struct ib_event_handler event_handler;
	struct dentry *ddir;
};

static inline struct simhca_dev *to_sdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct simhca_dev, ibdev);
}

static inline __be64 simhca_port_guid(struct simhca_dev *sdev, u32 port)
{
	return cpu_to_be64(SIMHCA_GUID_BASE + (sdev->index << 4) + port);
}

/* main.c: the internal SA answers on QP1 (default); N: an external SM */
extern bool simhca_internal_sa;
/* main.c: the multicast table size the devices report (0: one per MLID) */
extern unsigned int simhca_max_mcast_grp;
/*
 * main.c: Y: the devices are one subnet, served by device 0's SA (a
 * fleet of nodes sharing an SM; README.md, "A fabric"); the member slots
 * of a group: the ports that SA serves
 */
extern bool simhca_fabric;
extern unsigned int simhca_sa_slots;
struct simhca_dev *simhca_sa_of(struct simhca_dev *sdev);
struct simhca_dev *simhca_sa_dev(struct simhca_dev *sa_dev, u32 i);
u32 simhca_sa_ndevs(void);
struct simhca_port *simhca_port_by_guid(struct simhca_dev *sa_dev,
					__be64 guid);
void simhca_fabric_reregister(struct simhca_dev *sdev);
/* main.c: the internal SA creates IPoIB's broadcast group as OpenSM does */
extern bool simhca_ipoib_bcast;

static inline __be64 simhca_switch_guid(struct simhca_dev *sdev)
{
	return cpu_to_be64(SIMHCA_GUID_BASE + (sdev->index << 4) + 8);
}

void simhca_port_gid(struct simhca_dev *sdev, u32 port, u8 *gid);
bool simhca_port_has_pkey(struct simhca_port *p, u16 pkey);
void simhca_dispatch(struct simhca_dev *sdev, u32 port,
		     enum ib_event_type type);

/* verbs.c */
extern const struct ib_device_ops simhca_dev_ops;
extern const struct ib_device_ops simhca_sma_ops;
void simhca_to_host(struct simhca_dev *sdev, struct simhca_pkt *pkt);
void simhca_host_work(struct work_struct *work);
void simhca_switch_work(struct work_struct *work);
void simhca_switch_stats(struct simhca_dev *sdev, struct seq_file *m);
void simhca_switch_stats_reset(struct simhca_dev *sdev);
void simhca_mft_dump(struct simhca_dev *sdev, struct seq_file *m);
void simhca_deliver_qp(struct simhca_dev *sdev, struct simhca_pkt *pkt,
		       u32 qpn);

/* sma.c */
int simhca_sma_init(struct simhca_dev *sdev);
void simhca_sma_fini(struct simhca_dev *sdev);
void simhca_sma_post(struct simhca_dev *sdev, u32 port, u32 qpn,
		     const struct ib_ud_wr *ud);
void simhca_sma_work(struct work_struct *work);
void simhca_sma_show(struct simhca_dev *sdev, struct seq_file *m);
void simhca_sma_link_changed(struct simhca_dev *sdev);
int simhca_modify_port(struct ib_device *ibdev, simhca_verbs_port_t port_num,
		       int mask, struct ib_port_modify *props);

/* sa.c */
int simhca_sa_module_init(void);
void simhca_sa_module_exit(void);
int simhca_sa_init(struct simhca_dev *sdev);
void simhca_sa_fini(struct simhca_dev *sdev);
void simhca_sa_work(struct work_struct *work);
void simhca_sa_wipe(struct simhca_dev *sdev);
void simhca_sa_start_sweep(struct simhca_dev *sdev);
void simhca_sa_forget(struct simhca_dev *sdev, struct simhca_dev *gone);
void simhca_sa_pkeys_changed(struct simhca_dev *port_dev);
void simhca_sa_dump(struct simhca_dev *sdev, struct seq_file *m);
void simhca_sa_stats(struct simhca_dev *sdev, struct seq_file *m);
void simhca_sa_stats_reset(struct simhca_dev *sdev);
void simhca_sa_arrivals_show(struct simhca_dev *sdev, struct seq_file *s);
void simhca_sa_changed(struct simhca_dev *sdev);
void simhca_mft_work(struct work_struct *work);

/* ud.c */
void simhca_udh_init(struct simhca_dev *sdev);
void simhca_udh_fini(struct simhca_dev *sdev);
extern const struct file_operations simhca_udh_fops;

/* debugfs.c */
void simhca_debugfs_init(void);
void simhca_debugfs_fini(void);
void simhca_debugfs_add(struct simhca_dev *sdev);
void simhca_debugfs_del(struct simhca_dev *sdev);

#endif
