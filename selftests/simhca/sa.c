// SPDX-License-Identifier: GPL-2.0
/*
 * simhca SA: the subnet administrator of the simulated subnet.
 *
 * MCMemberRecord Set/Delete/Get/GetTable, NodeRecord Get/GetTable,
 * SwitchInfoRecord GetTable (the one switch) and ClassPortInfo Get,
 * following the rules of IBA chapter 15 as opensm implements them.
 * GetTable answers always use RMPP (one or more segments), as opensm
 * does. The fault knobs act before a request is looked at. Everything
 * runs on the device's ordered workqueue.
 */
#include <linux/bitmap.h>
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_sa.h>

#include "simhca.h"

#define JOIN_MASK	(IB_SA_MCMEMBER_REC_MGID | IB_SA_MCMEMBER_REC_PORT_GID | \
			 IB_SA_MCMEMBER_REC_JOIN_STATE)
#define CREATE_MASK	(JOIN_MASK | IB_SA_MCMEMBER_REC_QKEY | \
			 IB_SA_MCMEMBER_REC_TRAFFIC_CLASS | \
			 IB_SA_MCMEMBER_REC_PKEY | IB_SA_MCMEMBER_REC_FLOW_LABEL | \
			 IB_SA_MCMEMBER_REC_SL)

#define JOIN_FULL		0x1
#define JOIN_NON		0x2
#define JOIN_SENDONLY_NON	0x4
#define JOIN_SENDONLY_FULL	0x8

#define MC_SCOPE_LINK_LOCAL	0x2

#define SEL_GT		0
#define SEL_LT		1
#define SEL_EQ		2
#define SEL_ANY		3

#define PORT_MTU	IB_MTU_4096
#define PORT_RATE	IB_RATE_100_GBPS
#define PKT_LIFE	18
#define RMPP_SEG_DATA	IB_MGMT_SA_DATA
#define RMPP_TIMEOUT	(30 * HZ)

/* NodeRecord component mask bit for the LID */
#define NR_COMP_LID	IB_SA_COMP_MASK(0)

static const char * const method_names[SIMHCA_M_NUM] = {
	"get", "set", "gettable", "delete", "other",
};

static const char * const attr_names[SIMHCA_A_NUM] = {
	"cpi", "mcm", "node", "path", "other",
};

static const char * const event_names[] = {
	[IB_EVENT_PORT_ACTIVE] = "port_active",
	[IB_EVENT_PORT_ERR] = "port_err",
	[IB_EVENT_LID_CHANGE] = "lid_change",
	[IB_EVENT_PKEY_CHANGE] = "pkey_change",
	[IB_EVENT_SM_CHANGE] = "sm_change",
	[IB_EVENT_CLIENT_REREGISTER] = "client_reregister",
	[IB_EVENT_GID_CHANGE] = "gid_change",
};

static int method_idx(u8 method)
{
	switch (method) {
	case IB_MGMT_METHOD_GET:
		return SIMHCA_M_GET;
	case IB_MGMT_METHOD_SET:
		return SIMHCA_M_SET;
	case IB_SA_METHOD_GET_TABLE:
		return SIMHCA_M_GETTABLE;
	case IB_SA_METHOD_DELETE:
		return SIMHCA_M_DELETE;
	default:
		return SIMHCA_M_OTHER;
	}
}

static int attr_idx(__be16 attr)
{
	switch (be16_to_cpu(attr)) {
	case IB_SA_ATTR_CLASS_PORTINFO:
		return SIMHCA_A_CPI;
	case IB_SA_ATTR_MC_MEMBER_REC:
		return SIMHCA_A_MCM;
	case IB_SA_ATTR_NODE_REC:
		return SIMHCA_A_NODE;
	case IB_SA_ATTR_PATH_REC:
		return SIMHCA_A_PATH;
	default:
		return SIMHCA_A_OTHER;
	}
}

/* The groups of every device; see simhca_sa_module_init() */
static struct kmem_cache *simhca_mcm_cache;

/*
 * A constructor keeps the cache from being merged with another of the
 * same size (SLAB_NO_MERGE is not in every kernel we build for), so that
 * /proc/slabinfo shows simhca's SA records apart from everyone else's.
 * Every allocation initialises the group itself (group_create()).
 */
static void simhca_mcm_ctor(void *obj)
{
}

int simhca_sa_module_init(void)
{
	simhca_mcm_cache = kmem_cache_create("simhca_mcm",
					     sizeof(struct simhca_group) +
					     simhca_sa_slots *
					     sizeof(struct simhca_member),
					     0, 0, simhca_mcm_ctor);
	return simhca_mcm_cache ? 0 : -ENOMEM;
}

void simhca_sa_module_exit(void)
{
	kmem_cache_destroy(simhca_mcm_cache);
}

static void rate_ring_free(struct simhca_rate_ring *r)
{
	kvfree(r->t);
	kvfree(r->arrivals);
}

static bool rate_ring_alloc(struct simhca_rate_ring *r)
{
	r->t = kvcalloc(SIMHCA_RATE_RING, sizeof(*r->t), GFP_KERNEL);
	r->arrivals = kvcalloc(SIMHCA_ARRIVALS, sizeof(*r->arrivals),
			       GFP_KERNEL);
	return r->t && r->arrivals;
}

static void rate_ring_reset(struct simhca_rate_ring *r)
{
	r->count = 0;
	memset(r->arrivals, 0, SIMHCA_ARRIVALS * sizeof(*r->arrivals));
}

static void sa_free_tables(struct simhca_sa *sa)
{
	kvfree(sa->by_mgid);
	kvfree(sa->by_mlid);
	bitmap_free(sa->mlid_used);
	kvfree(sa->mft_dirty);
	bitmap_free(sa->mft_dirty_map);
	rate_ring_free(&sa->ring);
	rate_ring_free(&sa->mcm_ring);
}

static void sa_ipoib_bcast(struct simhca_dev *sdev);

int simhca_sa_init(struct simhca_dev *sdev)
{
	struct simhca_sa *sa = &sdev->sa;
	u32 i;

	sa->by_mgid = kvmalloc_array(1U << SIMHCA_SA_HASH_BITS,
				     sizeof(*sa->by_mgid), GFP_KERNEL);
	sa->by_mlid = kvcalloc(SIMHCA_MLID_NUM, sizeof(*sa->by_mlid),
			       GFP_KERNEL);
	sa->mlid_used = bitmap_zalloc(SIMHCA_MLID_NUM, GFP_KERNEL);
	sa->mft_dirty = kvmalloc_array(SIMHCA_MLID_NUM, sizeof(*sa->mft_dirty),
				       GFP_KERNEL);
	sa->mft_dirty_map = bitmap_zalloc(SIMHCA_MLID_NUM, GFP_KERNEL);
	sa->arrivals_t0 = ktime_get();
	if (!sa->by_mgid || !sa->by_mlid || !sa->mlid_used ||
	    !sa->mft_dirty || !sa->mft_dirty_map ||
	    !rate_ring_alloc(&sa->ring) || !rate_ring_alloc(&sa->mcm_ring)) {
		sa_free_tables(sa);
		return -ENOMEM;
	}
	for (i = 0; i < 1U << SIMHCA_SA_HASH_BITS; i++)
		INIT_HLIST_HEAD(&sa->by_mgid[i]);
	mutex_init(&sa->lock);
	INIT_LIST_HEAD(&sa->groups);
	INIT_LIST_HEAD(&sa->rmpp);
	sa->rate_start = jiffies;
	sa->mgid_counter = 1;
	/* in a fabric only device 0's SA is used */
	if (!simhca_fabric || !sdev->index) {
		mutex_lock(&sa->lock);
		sa_ipoib_bcast(sdev);
		mutex_unlock(&sa->lock);
	}
	return 0;
}

static struct hlist_head *mgid_bucket(struct simhca_sa *sa, const u8 *mgid)
{
	return &sa->by_mgid[jhash(mgid, 16, 0) &
			    ((1U << SIMHCA_SA_HASH_BITS) - 1)];
}

/* The MFT entry of @mlid (an index from 0xC000) is to be programmed. */
static void mft_mark(struct simhca_sa *sa, u32 mlid)
{
	if (!__test_and_set_bit(mlid, sa->mft_dirty_map))
		sa->mft_dirty[sa->mft_ndirty++] = mlid;
}

static void group_free(struct simhca_sa *sa, struct simhca_group *g)
{
	u32 i = be16_to_cpu(g->rec.mlid) - SIMHCA_MLID_BASE;
	struct list_head *pos;

	list_for_each(pos, &g->members)
		sa->nmembers--;
	if (i < SIMHCA_MLID_NUM && sa->by_mlid[i] == g) {
		sa->by_mlid[i] = NULL;
		__clear_bit(i, sa->mlid_used);
		mft_mark(sa, i);
	}
	hlist_del(&g->hnode);
	list_del(&g->list);
	kmem_cache_free(simhca_mcm_cache, g);
	sa->ngroups--;
}

static void rmpp_free(struct simhca_rmpp *r)
{
	list_del(&r->list);
	kfree(r->data);
	kfree(r);
}

static void sa_wipe_locked(struct simhca_sa *sa)
{
	struct simhca_group *g, *tmp;

	list_for_each_entry_safe(g, tmp, &sa->groups, list)
		group_free(sa, g);
}

void simhca_sa_wipe(struct simhca_dev *sdev)
{
	mutex_lock(&sdev->sa.lock);
	sa_wipe_locked(&sdev->sa);
	sa_ipoib_bcast(sdev);
	simhca_sa_changed(sdev);
	mutex_unlock(&sdev->sa.lock);
}

void simhca_sa_fini(struct simhca_dev *sdev)
{
	struct simhca_rmpp *r, *tmp;

	mutex_lock(&sdev->sa.lock);
	sa_wipe_locked(&sdev->sa);
	list_for_each_entry_safe(r, tmp, &sdev->sa.rmpp, list)
		rmpp_free(r);
	mutex_unlock(&sdev->sa.lock);
	mutex_destroy(&sdev->sa.lock);
	sa_free_tables(&sdev->sa);
}

/* A fabric's device is going (main.c): its RMPP sends end here. */
void simhca_sa_forget(struct simhca_dev *sdev, struct simhca_dev *gone)
{
	struct simhca_rmpp *r, *tmp;

	mutex_lock(&sdev->sa.lock);
	list_for_each_entry_safe(r, tmp, &sdev->sa.rmpp, list)
		if (r->from == gone)
			rmpp_free(r);
	mutex_unlock(&sdev->sa.lock);
}

void simhca_sa_start_sweep(struct simhca_dev *sdev)
{
	struct simhca_sa *sa = &sdev->sa;

	mutex_lock(&sa->lock);
	if (READ_ONCE(sdev->knobs.reregister_wipe)) {
		sa_wipe_locked(sa);
		sa_ipoib_bcast(sdev);
		simhca_sa_changed(sdev);
	}
	sa->sweep_end = jiffies +
		msecs_to_jiffies(READ_ONCE(sdev->knobs.first_sweep_ms));
	sa->sweeping = true;
	mutex_unlock(&sa->lock);
}

/* --- answers ------------------------------------------------------------ */

/*
 * When an answer leaves: after delay_ms, and with serve_rate after every
 * answer before it, the server taking 1 / serve_rate s for each request
 * (@first: an RMPP answer's later segments go with its first; @busy: a
 * BUSY answer, which is not queued). Under sa.lock.
 */
static unsigned long sa_due(struct simhca_dev *sdev, bool first, bool busy)
{
	struct simhca_sa *sa = &sdev->sa;
	u32 rate = READ_ONCE(sdev->knobs.serve_rate);
	unsigned long due = jiffies +
		msecs_to_jiffies(READ_ONCE(sdev->knobs.delay_ms));
	u64 now, at;

	lockdep_assert_held(&sa->lock);
	if (!rate || busy)
		return due;
	now = ktime_get_ns();
	at = max(now, sa->serve_next_ns);
	if (first)
		sa->serve_next_ns = at + div_u64(NSEC_PER_SEC, rate);
	sa->st.serve_wait_max_ns = max(sa->st.serve_wait_max_ns, at - now);
	return due + nsecs_to_jiffies(at - now);
}

/* @first: the first answer to @req (not an RMPP segment after the first) */
static void sa_send(struct simhca_dev *sdev, const struct simhca_pkt *req,
		    const struct ib_sa_mad *mad, bool first)
{
	struct simhca_pkt *pkt;

	pkt = kzalloc(sizeof(*pkt), GFP_KERNEL);
	if (!pkt)
		return;
	pkt->port = req->port;
	pkt->pkey_index = req->pkey_index;
	pkt->slid = READ_ONCE(sdev->knobs.sm_lid);
	pkt->due = sa_due(sdev, first, mad->mad_hdr.status ==
			  cpu_to_be16(IB_MGMT_MAD_STATUS_BUSY));
	pkt->first = first;
	memcpy(pkt->mad, mad, sizeof(pkt->mad));
	simhca_to_host(req->from, pkt);
}

static u8 resp_method(u8 method)
{
	switch (method) {
	case IB_MGMT_METHOD_SET:
		return IB_MGMT_METHOD_GET_RESP;
	default:
		return method | IB_MGMT_METHOD_RESP;
	}
}

static void sa_count_answer(struct simhca_dev *sdev, const struct ib_sa_mad *req)
{
	sdev->sa.st.answered[method_idx(req->mad_hdr.method)]
			    [attr_idx(req->mad_hdr.attr_id)]++;
}

/* A single-MAD answer: the request with @data (or its own data) and @status. */
static void sa_reply(struct simhca_dev *sdev, const struct simhca_pkt *pkt,
		     u16 status, const void *data, size_t len)
{
	const struct ib_sa_mad *req = (const void *)pkt->mad;
	struct ib_sa_mad *resp;

	resp = kmemdup(req, sizeof(*resp), GFP_KERNEL);
	if (!resp)
		return;
	resp->mad_hdr.method = resp_method(req->mad_hdr.method);
	resp->mad_hdr.status = cpu_to_be16(status);
	memset(&resp->rmpp_hdr, 0, sizeof(resp->rmpp_hdr));
	resp->sa_hdr.sm_key = 0;
	resp->sa_hdr.attr_offset = 0;
	if (data) {
		memset(resp->data, 0, sizeof(resp->data));
		memcpy(resp->data, data, min(len, sizeof(resp->data)));
	}
	sa_count_answer(sdev, req);
	sa_send(sdev, pkt, resp, true);
	kfree(resp);
}

static void rmpp_send_seg(struct simhca_dev *sdev, struct simhca_rmpp *r,
			  const struct simhca_pkt *req, u32 seg)
{
	struct ib_sa_mad *mad;
	u32 off = (seg - 1) * RMPP_SEG_DATA;
	u32 pad = r->nseg * RMPP_SEG_DATA - r->len;
	u8 flags = IB_MGMT_RMPP_FLAG_ACTIVE;
	u32 paylen = 0;

	mad = kmemdup(&r->hdr, sizeof(*mad), GFP_KERNEL);
	if (!mad)
		return;
	memset(mad->data, 0, sizeof(mad->data));
	if (off < r->len)
		memcpy(mad->data, r->data + off,
		       min_t(u32, r->len - off, RMPP_SEG_DATA));
	if (seg == 1) {
		flags |= IB_MGMT_RMPP_FLAG_FIRST;
		paylen = r->nseg * IB_MGMT_RMPP_DATA - pad;
	}
	if (seg == r->nseg) {
		flags |= IB_MGMT_RMPP_FLAG_LAST;
		paylen = IB_MGMT_RMPP_DATA - pad;
	}
	mad->rmpp_hdr.rmpp_version = IB_MGMT_RMPP_VERSION;
	mad->rmpp_hdr.rmpp_type = IB_MGMT_RMPP_TYPE_DATA;
	mad->rmpp_hdr.rmpp_rtime_flags = (IB_MGMT_RMPP_NO_RESPTIME << 3) | flags;
	mad->rmpp_hdr.rmpp_status = 0;
	mad->rmpp_hdr.seg_num = cpu_to_be32(seg);
	mad->rmpp_hdr.paylen_newwin = cpu_to_be32(paylen);
	sdev->sa.st.rmpp_segments++;
	sa_send(sdev, req, mad, seg == 1);
	kfree(mad);
}

/*
 * Answer a GetTable with @n records of @recsize bytes (a multiple of 8).
 * Takes ownership of @recs.
 */
static void sa_reply_table(struct simhca_dev *sdev,
			   const struct simhca_pkt *pkt, void *recs,
			   u32 n, u32 recsize)
{
	const struct ib_sa_mad *req = (const void *)pkt->mad;
	struct simhca_rmpp *r;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r) {
		kfree(recs);
		return;
	}
	r->data = recs;
	r->len = n * recsize;
	r->nseg = max_t(u32, DIV_ROUND_UP(r->len, RMPP_SEG_DATA), 1);
	r->from = pkt->from;
	r->port = pkt->port;
	r->pkey_index = pkt->pkey_index;
	r->tid = req->mad_hdr.tid;
	r->expires = jiffies + RMPP_TIMEOUT;
	r->hdr = *req;
	r->hdr.mad_hdr.method = IB_SA_METHOD_GET_TABLE_RESP;
	r->hdr.mad_hdr.status = 0;
	r->hdr.sa_hdr.sm_key = 0;
	r->hdr.sa_hdr.attr_offset = cpu_to_be16(n ? recsize / 8 : 0);
	r->sent = 1;
	r->newwin = 1;
	sa_count_answer(sdev, req);
	rmpp_send_seg(sdev, r, pkt, 1);
	if (r->nseg > 1) {
		list_add_tail(&r->list, &sdev->sa.rmpp);
	} else {
		kfree(r->data);
		kfree(r);
	}
}

static void sa_rmpp_in(struct simhca_dev *sdev, const struct simhca_pkt *pkt)
{
	const struct ib_sa_mad *mad = (const void *)pkt->mad;
	struct simhca_rmpp *r, *tmp, *found = NULL;
	u32 seg, win;

	list_for_each_entry_safe(r, tmp, &sdev->sa.rmpp, list) {
		if (time_after(jiffies, r->expires)) {
			rmpp_free(r);
			continue;
		}
		if (r->from == pkt->from && r->port == pkt->port &&
		    r->tid == mad->mad_hdr.tid)
			found = r;
	}

	switch (mad->rmpp_hdr.rmpp_type) {
	case IB_MGMT_RMPP_TYPE_ACK:
		sdev->sa.st.rmpp_acks++;
		if (!found)
			return;
		seg = be32_to_cpu(mad->rmpp_hdr.seg_num);
		win = be32_to_cpu(mad->rmpp_hdr.paylen_newwin);
		if (seg >= found->nseg) {
			rmpp_free(found);
			return;
		}
		found->expires = jiffies + RMPP_TIMEOUT;
		if (win > found->newwin)
			found->newwin = min(win, found->nseg);
		while (found->sent < found->newwin)
			rmpp_send_seg(sdev, found, pkt, ++found->sent);
		return;
	case IB_MGMT_RMPP_TYPE_STOP:
	case IB_MGMT_RMPP_TYPE_ABORT:
		sdev->sa.st.rmpp_aborts++;
		if (found)
			rmpp_free(found);
		return;
	default:
		sdev->sa.st.drop_not_sa++;
	}
}

/* --- ClassPortInfo and NodeRecord ---------------------------------------- */

static void sa_cpi(struct simhca_dev *sdev, const struct simhca_pkt *pkt)
{
	struct ib_class_port_info cpi = {};

	cpi.base_version = IB_MGMT_BASE_VERSION;
	cpi.class_version = 2;
	/* IsUDMulticastSupported */
	cpi.capability_mask = cpu_to_be16(BIT(9));
	ib_set_cpi_capmask2(&cpi, IB_SA_CAP_MASK2_SENDONLY_FULL_MEM_SUPPORT);
	ib_set_cpi_resp_time(&cpi, 18);
	sa_reply(sdev, pkt, 0, &cpi, sizeof(cpi));
}

static void sa_node(struct simhca_dev *sdev, const struct simhca_pkt *pkt)
{
	const struct ib_sa_mad *req = (const void *)pkt->mad;
	const struct simhca_node_rec *q = (const void *)req->data;
	u32 recsize = round_up(sizeof(struct simhca_node_rec), 8);
	struct simhca_dev *d;
	u8 *recs;
	u32 i, k, n = 0;

	recs = kcalloc(simhca_sa_ndevs() * SIMHCA_MAX_PORTS, recsize,
		       GFP_KERNEL);
	if (!recs)
		return;
	for (k = 0; k < simhca_sa_ndevs() * SIMHCA_MAX_PORTS; k++) {
		struct simhca_node_rec *nr = (void *)(recs + n * recsize);
		u16 lid;

		d = simhca_sa_dev(sdev, k / SIMHCA_MAX_PORTS);
		i = k % SIMHCA_MAX_PORTS;
		if (!d || i >= d->nports)
			continue;
		lid = READ_ONCE(d->port[i].lid);
		if ((req->sa_hdr.comp_mask & NR_COMP_LID) &&
		    be16_to_cpu(q->lid) != lid)
			continue;
		nr->lid = cpu_to_be16(lid);
		nr->base_version = IB_MGMT_BASE_VERSION;
		nr->class_version = 1;
		nr->node_type = RDMA_NODE_IB_CA;
		nr->num_ports = d->nports;
		nr->sys_image_guid = d->ibdev.node_guid;
		nr->node_guid = d->ibdev.node_guid;
		nr->port_guid = simhca_port_guid(d, i + 1);
		nr->partition_cap = cpu_to_be16(SIMHCA_PKEY_TBL_LEN);
		nr->device_id = cpu_to_be16(1);
		nr->revision = cpu_to_be32(1);
		nr->local_port_num = i + 1;
		memcpy(nr->node_desc, d->ibdev.node_desc,
		       sizeof(nr->node_desc));
		n++;
	}
	if (req->mad_hdr.method == IB_SA_METHOD_GET_TABLE) {
		sa_reply_table(sdev, pkt, recs, n, recsize);
		return;
	}
	if (n == 1)
		sa_reply(sdev, pkt, 0, recs, sizeof(struct simhca_node_rec));
	else
		sa_reply(sdev, pkt, n ? SIMHCA_SA_ERR_TOO_MANY_RECORDS :
			 SIMHCA_SA_ERR_NO_RECORDS, NULL, 0);
	kfree(recs);
}

/*
 * SwitchInfoRecord (IBA 15.2.5.4): LID, reserved, SwitchInfo (14.2.5.4).
 * The one switch forwards mlid_capacity MLIDs from 0xC000, which its
 * MulticastFDBCap says (a reader learns the fabric's MLID capacity here).
 */
struct simhca_switch_rec {
	__be16	lid;
	__be16	reserved;
	__be16	linear_fdb_cap;
	__be16	random_fdb_cap;
	__be16	mcast_fdb_cap;
	__be16	linear_fdb_top;
	u8	default_port;
	u8	default_mcast_primary_port;
	u8	default_mcast_not_primary_port;
	u8	life_state;
	__be16	lids_per_port;
	__be16	partition_enforcement_cap;
	u8	flags;
	u8	reserved2;
	__be16	mcast_fdb_top;
} __packed;

static void sa_switch(struct simhca_dev *sdev, const struct simhca_pkt *pkt)
{
	u32 recsize = round_up(sizeof(struct simhca_switch_rec), 8);
	u32 cap = min_t(u32, READ_ONCE(sdev->knobs.mlid_capacity),
			SIMHCA_MLID_NUM);
	struct simhca_switch_rec *sw;

	sw = kzalloc(recsize, GFP_KERNEL);
	if (!sw)
		return;
	sw->lid = cpu_to_be16(READ_ONCE(sdev->knobs.sm_lid));
	sw->linear_fdb_cap = cpu_to_be16(SIMHCA_MLID_BASE);
	sw->mcast_fdb_cap = cpu_to_be16(cap);
	sw->mcast_fdb_top = cpu_to_be16(cap ? SIMHCA_MLID_BASE + cap - 1 : 0);
	sw->lids_per_port = cpu_to_be16(1);
	sw->partition_enforcement_cap = cpu_to_be16(SIMHCA_PKEY_TBL_LEN);
	sa_reply_table(sdev, pkt, sw, READ_ONCE(sdev->knobs.switch_info) ? 1 : 0,
		       recsize);
}

/* --- MCMemberRecord ------------------------------------------------------ */

/*
 * A port the SA serves (in a fabric, of any device), by its GID. Like
 * opensm, ports are found by GUID, the prefix is not checked.
 */
static struct simhca_port *port_by_gid(struct simhca_dev *sdev, const u8 *gid)
{
	__be64 guid;

	memcpy(&guid, gid + 8, 8);
	return simhca_port_by_guid(sdev, guid);
}

/* The port that sent @pkt (a request): of pkt->from, the SA's or not. */
static struct simhca_port *req_port(const struct simhca_pkt *pkt)
{
	return &pkt->from->port[pkt->port - 1];
}

static struct simhca_group *group_by_mgid(struct simhca_sa *sa, const u8 *mgid)
{
	struct simhca_group *g;

	hlist_for_each_entry(g, mgid_bucket(sa, mgid), hnode)
		if (!memcmp(g->rec.mgid, mgid, 16))
			return g;
	return NULL;
}

static struct simhca_group *group_by_mlid(struct simhca_sa *sa, __be16 mlid)
{
	u32 i = be16_to_cpu(mlid) - SIMHCA_MLID_BASE;

	return i < SIMHCA_MLID_NUM ? sa->by_mlid[i] : NULL;
}

/* A free member slot of @g (there is one for each port the SA serves). */
static struct simhca_member *member_add(struct simhca_sa *sa,
					struct simhca_group *g)
{
	u32 i;

	for (i = 0; i < simhca_sa_slots; i++) {
		struct simhca_member *m = &g->slot[i];

		if (list_empty(&m->list)) {
			list_add_tail(&m->list, &g->members);
			sa->nmembers++;
			return m;
		}
	}
	return NULL;
}

static void member_del(struct simhca_sa *sa, struct simhca_member *m)
{
	sa->nmembers--;
	list_del_init(&m->list);
	memset(m->port_gid, 0, sizeof(m->port_gid));
	m->join_state = 0;
	m->proxy_join = 0;
}

static struct simhca_member *member_by_gid(struct simhca_group *g,
					   const u8 *gid)
{
	struct simhca_member *m;

	list_for_each_entry(m, &g->members, list)
		if (!memcmp(m->port_gid + 8, gid + 8, 8))
			return m;
	return NULL;
}

static bool ports_share_pkey(struct simhca_port *a, struct simhca_port *b)
{
	int i;

	for (i = 0; i < SIMHCA_PKEY_TBL_LEN; i++) {
		u16 k = READ_ONCE(a->pkeys[i]);

		if ((k & 0x7fff) && simhca_port_has_pkey(b, k))
			return true;
	}
	return false;
}

static int rate_mbps(u8 rate)
{
	return rate ? ib_rate_to_mbps(rate) : -1;
}

/* The fastest valid rate slower than @rate, or 0. */
static u8 rate_below(u8 rate)
{
	int want = rate_mbps(rate), best = 0;
	u8 e, found = 0;

	for (e = IB_RATE_2_5_GBPS; e <= IB_RATE_600_GBPS; e++) {
		int m = rate_mbps(e);

		if (m > 0 && m < want && m > best) {
			best = m;
			found = e;
		}
	}
	return found;
}

static bool sel_ok(u8 sel, int have, int want)
{
	switch (sel) {
	case SEL_GT:
		return have > want;
	case SEL_LT:
		return have < want;
	case SEL_EQ:
		return have == want;
	default:
		return true;
	}
}

/* The MTU and rate selectors of a request against an existing group. */
static bool group_matches_selectors(const struct simhca_group *g,
				    const struct simhca_mcmr *rec,
				    ib_sa_comp_mask cm)
{
	if ((cm & IB_SA_MCMEMBER_REC_MTU_SELECTOR) &&
	    !sel_ok(rec->mtu >> 6, g->rec.mtu & 0x3f, rec->mtu & 0x3f))
		return false;
	if ((cm & IB_SA_MCMEMBER_REC_RATE_SELECTOR) &&
	    !sel_ok(rec->rate >> 6, rate_mbps(g->rec.rate & 0x3f),
		    rate_mbps(rec->rate & 0x3f)))
		return false;
	return true;
}

/*
 * The MTU of the ports' links (knob neighbor_mtu; OpenSM takes the
 * requesting port's NeighborMTU): what a create naming no MTU gets, and
 * the largest a port can join.
 */
static u8 sa_port_mtu(struct simhca_dev *sdev)
{
	u32 mtu = READ_ONCE(sdev->knobs.neighbor_mtu);

	return mtu >= IB_MTU_256 && mtu <= PORT_MTU ? mtu : PORT_MTU;
}

/* Fill in the MTU and rate of a new group from the request and the port. */
static bool group_realizable(struct simhca_mcmr *g, const struct simhca_mcmr *rec,
			     ib_sa_comp_mask cm, u8 port_mtu)
{
	u8 sel, want, mtu, rate;

	sel = rec->mtu >> 6;
	want = rec->mtu & 0x3f;
	if (!(cm & IB_SA_MCMEMBER_REC_MTU) ||
	    !(cm & IB_SA_MCMEMBER_REC_MTU_SELECTOR) || sel == SEL_ANY) {
		mtu = port_mtu;
	} else if (sel == SEL_GT) {
		if (want >= port_mtu)
			return false;
		mtu = port_mtu;
	} else if (sel == SEL_LT) {
		mtu = want > port_mtu ? port_mtu : want - 1;
	} else {
		mtu = want;
	}
	if (mtu < IB_MTU_256 || mtu > IB_MTU_4096)
		return false;

	sel = rec->rate >> 6;
	want = rec->rate & 0x3f;
	if (!(cm & IB_SA_MCMEMBER_REC_RATE) ||
	    !(cm & IB_SA_MCMEMBER_REC_RATE_SELECTOR) || sel == SEL_ANY) {
		rate = PORT_RATE;
	} else {
		if (rate_mbps(want) <= 0)
			return false;
		if (sel == SEL_GT) {
			if (rate_mbps(want) >= rate_mbps(PORT_RATE))
				return false;
			rate = PORT_RATE;
		} else if (sel == SEL_LT) {
			rate = rate_mbps(want) > rate_mbps(PORT_RATE) ?
				PORT_RATE : rate_below(want);
		} else {
			rate = want;
		}
	}
	if (rate_mbps(rate) <= 0)
		return false;

	g->mtu = (SEL_EQ << 6) | mtu;
	g->rate = (SEL_EQ << 6) | rate;
	return true;
}

/* IBA 4.1.1 and o15-0.1.5, as opensm checks a requested MGID */
static bool mgid_valid(const u8 *mgid)
{
	u16 sig = (mgid[2] << 8) | mgid[3];

	if (mgid[0] != 0xff)
		return false;
	if (sig == 0x401b || sig == 0x601b)
		return true;
	if (mgid[1] & 0xe0)
		return false;
	if (sig == 0xa01b && (mgid[1] & 0x0f) == MC_SCOPE_LINK_LOCAL)
		return false;
	return true;
}

static bool mgid_is_zero(const u8 *mgid)
{
	return !memchr_inv(mgid, 0, 16);
}

static u16 mlid_alloc(struct simhca_dev *sdev, const struct simhca_mcmr *rec)
{
	u32 cap = min_t(u32, READ_ONCE(sdev->knobs.mlid_capacity),
			SIMHCA_MLID_NUM);
	unsigned long *used = sdev->sa.mlid_used;
	u32 want = be16_to_cpu(rec->mlid), bit;
	u32 shift = READ_ONCE(sdev->knobs.mlid_shift);

	if (!cap)
		return 0;
	/*
	 * the requested MLID if it is free, else the lowest free one; as
	 * OpenSM's get_new_mlid(), a nonzero MLID is read whether or not the
	 * request has its component (selftests/simhca/README.md). The knob
	 * mlid_shift ignores the request and starts from another MLID: the
	 * MLIDs of groups re-created after a wipe change.
	 */
	if (shift) {
		bit = find_next_zero_bit(used, cap, shift % cap);
		if (bit >= cap)
			bit = find_first_zero_bit(used, cap);
	} else if (want >= SIMHCA_MLID_BASE &&
		   want - SIMHCA_MLID_BASE < cap &&
		   !test_bit(want - SIMHCA_MLID_BASE, used)) {
		bit = want - SIMHCA_MLID_BASE;
	} else {
		bit = find_first_zero_bit(used, cap);
	}
	return bit < cap ? SIMHCA_MLID_BASE + bit : 0;
}

/* Can a port join a group of @rec's MTU and rate (validate_port_caps())? */
static bool port_meets(struct simhca_dev *sdev, const struct simhca_mcmr *rec)
{
	return (rec->mtu & 0x3f) <= sa_port_mtu(sdev) &&
	       rate_mbps(rec->rate & 0x3f) <= rate_mbps(PORT_RATE);
}

static u16 group_create(struct simhca_dev *sdev, const struct simhca_mcmr *rec,
			ib_sa_comp_mask cm, struct simhca_port *rp,
			struct simhca_group **out)
{
	struct simhca_sa *sa = &sdev->sa;
	struct simhca_group *g;
	struct simhca_mcmr n = *rec;
	__be64 prefix = cpu_to_be64(SIMHCA_SUBNET_PREFIX);
	u16 mlid;
	int i;

	if (mgid_is_zero(rec->mgid)) {
		u8 scope = MC_SCOPE_LINK_LOCAL;

		if (cm & IB_SA_MCMEMBER_REC_SCOPE)
			scope = rec->scope_state >> 4;
		n.mgid[0] = 0xff;
		n.mgid[1] = 0x10 | scope;
		n.mgid[2] = 0xa0;
		n.mgid[3] = 0x1b;
		memcpy(&n.mgid[4], &prefix, 8);
		for (i = 0; i < 1000; i++) {
			__be32 c = cpu_to_be32(sa->mgid_counter++);

			memcpy(&n.mgid[12], &c, 4);
			if (!group_by_mgid(sa, n.mgid))
				break;
		}
		if (i == 1000)
			return SIMHCA_SA_ERR_NO_RESOURCES;
	} else if (!mgid_valid(rec->mgid)) {
		return SIMHCA_SA_ERR_REQ_INVALID;
	}

	/* the port must be a member of the group's partition */
	if (!simhca_port_has_pkey(rp, be16_to_cpu(rec->pkey)))
		return SIMHCA_SA_ERR_REQ_INVALID;
	/*
	 * OpenSM creates a group with exactly the MTU and rate asked for
	 * even if they are above the port's, and then refuses the port's
	 * join (validate_port_caps()): no group either way.
	 */
	if (!group_realizable(&n, rec, cm, sa_port_mtu(sdev)) ||
	    !port_meets(sdev, &n))
		return SIMHCA_SA_ERR_REQ_INVALID;
	mlid = mlid_alloc(sdev, rec);
	if (!mlid)
		return SIMHCA_SA_ERR_NO_RESOURCES;

	g = kmem_cache_alloc(simhca_mcm_cache, GFP_KERNEL);
	if (!g)
		return SIMHCA_SA_ERR_NO_RESOURCES;
	memset(g, 0, struct_size(g, slot, simhca_sa_slots));
	INIT_LIST_HEAD(&g->members);
	for (i = 0; i < simhca_sa_slots; i++)
		INIT_LIST_HEAD(&g->slot[i].list);
	memset(n.port_gid, 0, sizeof(n.port_gid));
	n.mlid = cpu_to_be16(mlid);
	if (!(cm & IB_SA_MCMEMBER_REC_PACKET_LIFE_TIME))
		n.pkt_life = PKT_LIFE;
	n.pkt_life = (SEL_EQ << 6) | (n.pkt_life & 0x3f);
	if (!(cm & IB_SA_MCMEMBER_REC_HOP_LIMIT))
		n.sl_flow_hop &= cpu_to_be32(~0xffU);
	n.scope_state = (n.mgid[1] & 0x0f) << 4;
	n.proxy_join = 0;
	memset(n.reserved, 0, sizeof(n.reserved));
	g->rec = n;
	list_add_tail(&g->list, &sa->groups);
	hlist_add_head(&g->hnode, mgid_bucket(sa, g->rec.mgid));
	sa->by_mlid[mlid - SIMHCA_MLID_BASE] = g;
	__set_bit(mlid - SIMHCA_MLID_BASE, sa->mlid_used);
	sa->ngroups++;
	*out = g;
	return 0;
}

/*
 * IPoIB's broadcast group of a partition, as OpenSM creates it
 * (osm_prtn_add_mcgroup()): that of the default partition with no
 * partitions.conf, and that of each partitions.conf entry with the ipoib
 * flag, with the flag's defaults: MGID ff12:401b:PKEY::ffff:ffff (PKEY
 * with the full-member bit), Q_Key 0x0b1b, MTU 2048, rate 10 Gb/s, SL 0,
 * P_Key PKEY, no members, kept when its last member leaves. The internal
 * SM has no partitions.conf: every P_Key in a port's table is taken for
 * a partition with the ipoib flag. IPoIB's join of it carries only the
 * MGID, PortGID, P_Key and JoinState, so without it no IPoIB interface
 * (parent or P_Key child) comes up. sa.lock held.
 */
static void sa_ipoib_bcast_pkey(struct simhca_dev *sdev, u16 pkey)
{
	struct simhca_mcmr rec = {};
	struct simhca_port *port = NULL;
	struct simhca_group *g;
	ib_sa_comp_mask cm = CREATE_MASK | IB_SA_MCMEMBER_REC_MTU_SELECTOR |
		IB_SA_MCMEMBER_REC_MTU | IB_SA_MCMEMBER_REC_RATE_SELECTOR |
		IB_SA_MCMEMBER_REC_RATE | IB_SA_MCMEMBER_REC_SL;
	u32 i;

	pkey |= 0x8000;
	rec.mgid[0] = 0xff;
	rec.mgid[1] = 0x12;
	rec.mgid[2] = 0x40;
	rec.mgid[3] = 0x1b;
	rec.mgid[4] = pkey >> 8;
	rec.mgid[5] = pkey & 0xff;
	memset(rec.mgid + 12, 0xff, 4);
	if (group_by_mgid(&sdev->sa, rec.mgid))
		return;
	/* group_create() wants a port of the partition (of any device served) */
	for (i = 0; !port && i < simhca_sa_ndevs() * SIMHCA_MAX_PORTS; i++) {
		struct simhca_dev *d = simhca_sa_dev(sdev, i / SIMHCA_MAX_PORTS);
		u32 p = i % SIMHCA_MAX_PORTS;

		if (d && p < d->nports &&
		    simhca_port_has_pkey(&d->port[p], pkey))
			port = &d->port[p];
	}
	if (!port)
		return;
	rec.qkey = cpu_to_be32(0x0b1b);
	rec.pkey = cpu_to_be16(pkey);
	rec.mtu = (SEL_EQ << 6) | IB_MTU_2048;
	rec.rate = (SEL_EQ << 6) | IB_RATE_10_GBPS;
	if (group_create(sdev, &rec, cm, port, &g))
		return;
	g->sm_created = true;
	mft_mark(&sdev->sa, be16_to_cpu(g->rec.mlid) - SIMHCA_MLID_BASE);
}

/*
 * With ipoib_bcast=Y: the default partition's broadcast group, and that
 * of every other P_Key in the ports' tables, at load, after every wipe
 * (the SM re-creates them on its sweep) and when a P_Key is set through
 * debugfs (port<N>/pkeys). sa.lock held.
 */
static void sa_ipoib_bcast(struct simhca_dev *sdev)
{
	u32 i, j;

	if (!simhca_ipoib_bcast || !simhca_internal_sa)
		return;
	sa_ipoib_bcast_pkey(sdev, 0xffff);
	for (i = 0; i < simhca_sa_ndevs() * SIMHCA_MAX_PORTS; i++) {
		struct simhca_dev *d = simhca_sa_dev(sdev, i / SIMHCA_MAX_PORTS);
		u32 p = i % SIMHCA_MAX_PORTS;

		for (j = 0; d && p < d->nports && j < SIMHCA_PKEY_TBL_LEN; j++) {
			u16 k = READ_ONCE(d->port[p].pkeys[j]);

			if (k & 0x7fff)
				sa_ipoib_bcast_pkey(sdev, k);
		}
	}
}

/* A P_Key was set through debugfs: its partition's broadcast group. */
void simhca_sa_pkeys_changed(struct simhca_dev *port_dev)
{
	struct simhca_dev *sdev = simhca_sa_of(port_dev);

	if (!simhca_ipoib_bcast || !simhca_internal_sa)
		return;
	mutex_lock(&sdev->sa.lock);
	sa_ipoib_bcast(sdev);
	simhca_sa_changed(sdev);
	mutex_unlock(&sdev->sa.lock);
}

/* The group's values for a record about @m (or the group if NULL). */
static void group_record(const struct simhca_group *g,
			 const struct simhca_member *m, struct simhca_mcmr *r)
{
	const struct simhca_member *pos;
	u8 join = 0;

	*r = g->rec;
	if (m) {
		memcpy(r->port_gid, m->port_gid, 16);
		join = m->join_state;
		r->proxy_join = m->proxy_join ? 0x80 : 0;
	} else {
		list_for_each_entry(pos, &g->members, list)
			join |= pos->join_state;
	}
	r->scope_state = (g->rec.scope_state & 0xf0) | join;
}

static bool group_has_full_member(const struct simhca_group *g)
{
	const struct simhca_member *m;

	list_for_each_entry(m, &g->members, list)
		if (m->join_state & (JOIN_FULL | JOIN_SENDONLY_FULL))
			return true;
	return false;
}

/*
 * A join's P_Key against the group's, as OpenSM compares them: the same
 * partition, and not both limited members (ERR 1B31, 1B32).
 */
static bool pkeys_match(__be16 a, __be16 b)
{
	u16 x = be16_to_cpu(a), y = be16_to_cpu(b);

	return (x & 0x7fff) == (y & 0x7fff) && ((x | y) & 0x8000);
}

/* Components that must match the group on a join (opensm mcgroup_join_validation) */
static bool join_fields_match(const struct simhca_group *g,
			      const struct simhca_mcmr *rec, ib_sa_comp_mask cm)
{
	u32 a = be32_to_cpu(rec->sl_flow_hop), b = be32_to_cpu(g->rec.sl_flow_hop);

	if ((cm & IB_SA_MCMEMBER_REC_QKEY) && rec->qkey != g->rec.qkey)
		return false;
	if ((cm & IB_SA_MCMEMBER_REC_PKEY) && !pkeys_match(rec->pkey, g->rec.pkey))
		return false;
	if ((cm & IB_SA_MCMEMBER_REC_TRAFFIC_CLASS) && rec->tclass != g->rec.tclass)
		return false;
	if ((cm & IB_SA_MCMEMBER_REC_SL) && (a >> 28) != (b >> 28))
		return false;
	if ((cm & IB_SA_MCMEMBER_REC_FLOW_LABEL) &&
	    ((a >> 8) & 0xfffff) != ((b >> 8) & 0xfffff))
		return false;
	if ((cm & IB_SA_MCMEMBER_REC_HOP_LIMIT) && (a & 0xff) != (b & 0xff))
		return false;
	return true;
}

static u16 mcm_join(struct simhca_dev *sdev, const struct simhca_pkt *pkt,
		    struct simhca_mcmr *out)
{
	const struct ib_sa_mad *req = (const void *)pkt->mad;
	const struct simhca_mcmr *rec = (const void *)req->data;
	ib_sa_comp_mask cm = req->sa_hdr.comp_mask;
	struct simhca_port *rp = req_port(pkt);
	struct simhca_port *tp;
	struct simhca_group *g;
	struct simhca_member *m = NULL;
	u8 join = rec->scope_state & 0x0f;
	bool proxy, created = false;
	u16 status;

	if ((cm & JOIN_MASK) != JOIN_MASK)
		return SIMHCA_SA_ERR_INSUFFICIENT_COMPS;
	/* fault knob: refuse joins asking for these JoinState bits */
	if (join & READ_ONCE(sdev->knobs.refuse_join))
		return SIMHCA_SA_ERR_REQ_INVALID;
	tp = port_by_gid(sdev, rec->port_gid);
	if (!tp)
		return SIMHCA_SA_ERR_REQ_INVALID;
	proxy = tp != rp;
	if (proxy && !ports_share_pkey(tp, rp))
		return SIMHCA_SA_ERR_REQ_INVALID;

	g = mgid_is_zero(rec->mgid) ? NULL : group_by_mgid(&sdev->sa, rec->mgid);
	if (!g) {
		if (!(join & (JOIN_FULL | JOIN_SENDONLY_FULL)))
			return SIMHCA_SA_ERR_REQ_INVALID;
		if ((cm & CREATE_MASK) != CREATE_MASK)
			return SIMHCA_SA_ERR_INSUFFICIENT_COMPS;
		status = group_create(sdev, rec, cm, rp, &g);
		if (status)
			return status;
		created = true;
	} else {
		if (!group_matches_selectors(g, rec, cm) || !port_meets(sdev, &g->rec) ||
		    !join || !join_fields_match(g, rec, cm) ||
		    !simhca_port_has_pkey(rp, be16_to_cpu(g->rec.pkey)))
			return SIMHCA_SA_ERR_REQ_INVALID;
		m = member_by_gid(g, rec->port_gid);
		/* o15-0.2.1: only the port itself modifies a non-proxy join */
		if (m && !m->proxy_join && proxy)
			return SIMHCA_SA_ERR_REQ_INVALID;
	}

	if (!m) {
		m = member_add(&sdev->sa, g);
		if (!m) {
			if (created)
				group_free(&sdev->sa, g);
			return SIMHCA_SA_ERR_NO_RESOURCES;
		}
		memcpy(m->port_gid, rec->port_gid, 16);
		m->proxy_join = proxy;
	}
	m->join_state |= join;
	mft_mark(&sdev->sa, be16_to_cpu(g->rec.mlid) - SIMHCA_MLID_BASE);
	group_record(g, m, out);
	return 0;
}

static u16 mcm_leave(struct simhca_dev *sdev, const struct simhca_pkt *pkt,
		     struct simhca_mcmr *out)
{
	const struct ib_sa_mad *req = (const void *)pkt->mad;
	const struct simhca_mcmr *rec = (const void *)req->data;
	ib_sa_comp_mask cm = req->sa_hdr.comp_mask;
	struct simhca_port *rp = req_port(pkt);
	u8 join = rec->scope_state & 0x0f;
	struct simhca_group *g;
	struct simhca_member *m;
	u8 rgid[16];

	if ((cm & JOIN_MASK) != JOIN_MASK)
		return SIMHCA_SA_ERR_INSUFFICIENT_COMPS;
	g = group_by_mgid(&sdev->sa, rec->mgid);
	if (!g)
		return SIMHCA_SA_ERR_REQ_INVALID;
	m = member_by_gid(g, rec->port_gid);
	/* o15-0.1.14: only bits the port holds, and at least one */
	if (!m || !(join & m->join_state) || (join & ~m->join_state))
		return SIMHCA_SA_ERR_REQ_INVALID;
	simhca_port_gid(rp->sdev, rp->num, rgid);
	if (!m->proxy_join && memcmp(rgid + 8, m->port_gid + 8, 8))
		return SIMHCA_SA_ERR_REQ_INVALID;
	if (m->proxy_join && !simhca_port_has_pkey(rp, be16_to_cpu(g->rec.pkey)))
		return SIMHCA_SA_ERR_REQ_INVALID;

	m->join_state &= ~join;
	mft_mark(&sdev->sa, be16_to_cpu(g->rec.mlid) - SIMHCA_MLID_BASE);
	group_record(g, m, out);
	if (!m->join_state)
		member_del(&sdev->sa, m);
	if (!group_has_full_member(g) && !g->sm_created)
		group_free(&sdev->sa, g);
	return 0;
}

/* --- PathRecord ---------------------------------------------------------- */

/* PathRecord, IBA 15.2.5.16 */
struct simhca_path_rec {
	__be64	service_id;
	u8	dgid[16];
	u8	sgid[16];
	__be16	dlid;
	__be16	slid;
	__be32	raw_flow_hop;
	u8	tclass;
	u8	rev_numb;
	__be16	pkey;
	__be16	qos_sl;
	u8	mtu;
	u8	rate;
	u8	pkt_life;
	u8	preference;
	u8	reserved[6];
} __packed;

#define PR_DGID		IB_SA_COMP_MASK(2)
#define PR_SGID		IB_SA_COMP_MASK(3)
#define PR_DLID		IB_SA_COMP_MASK(4)
#define PR_SLID		IB_SA_COMP_MASK(5)
#define PR_TCLASS	IB_SA_COMP_MASK(10)
#define PR_PKEY		IB_SA_COMP_MASK(13)
#define PR_SL		IB_SA_COMP_MASK(15)

/* A port the SA serves (in a fabric, of any device), by its LID. */
static struct simhca_port *port_by_lid(struct simhca_dev *sdev, u16 lid)
{
	struct simhca_dev *d;
	u32 i, j;

	for (i = 0; lid && i < simhca_sa_ndevs(); i++) {
		d = simhca_sa_dev(sdev, i);
		for (j = 0; d && j < d->nports; j++)
			if (READ_ONCE(d->port[j].lid) == lid)
				return &d->port[j];
	}
	return NULL;
}

/*
 * PathRecord Get and GetTable: the one path between two ports of the
 * device (through the switch, or a port to itself), found by GID or LID,
 * in the P_Key asked for if both ports have it (else the first P_Key they
 * share), SL 0, hop limit 0 (no GRH: one subnet), the port MTU and rate.
 * Enough for IPoIB's path_rec_start(); no multipath, no QoS, no selectors.
 */
static void sa_path(struct simhca_dev *sdev, const struct simhca_pkt *pkt)
{
	const struct ib_sa_mad *req = (const void *)pkt->mad;
	const struct simhca_path_rec *q = (const void *)req->data;
	ib_sa_comp_mask cm = req->sa_hdr.comp_mask;
	struct simhca_port *sp = NULL, *dp = NULL;
	struct simhca_path_rec *r;
	u16 pkey = 0;
	u32 i, j;

	if (cm & PR_SGID)
		sp = port_by_gid(sdev, q->sgid);
	else if (cm & PR_SLID)
		sp = port_by_lid(sdev, be16_to_cpu(q->slid));
	if (cm & PR_DGID)
		dp = port_by_gid(sdev, q->dgid);
	else if (cm & PR_DLID)
		dp = port_by_lid(sdev, be16_to_cpu(q->dlid));
	if ((cm & PR_SLID) && sp && sp->lid != be16_to_cpu(q->slid))
		sp = NULL;
	if ((cm & PR_DLID) && dp && dp->lid != be16_to_cpu(q->dlid))
		dp = NULL;
	if (sp && dp && (cm & PR_PKEY)) {
		pkey = be16_to_cpu(q->pkey);
		if (!simhca_port_has_pkey(sp, pkey) ||
		    !simhca_port_has_pkey(dp, pkey))
			pkey = 0;
	} else if (sp && dp) {
		for (i = 0; !pkey && i < SIMHCA_PKEY_TBL_LEN; i++)
			for (j = 0; j < SIMHCA_PKEY_TBL_LEN; j++)
				if ((sp->pkeys[i] & 0x7fff) &&
				    (sp->pkeys[i] & 0x7fff) == (dp->pkeys[j] & 0x7fff) &&
				    ((sp->pkeys[i] | dp->pkeys[j]) & 0x8000)) {
					pkey = sp->pkeys[i] | 0x8000;
					break;
				}
	}
	if ((cm & PR_SL) && (be16_to_cpu(q->qos_sl) & 0xf))
		pkey = 0;
	if (!sp || !dp || !pkey ||
	    READ_ONCE(sp->state) != IB_PORT_ACTIVE ||
	    READ_ONCE(dp->state) != IB_PORT_ACTIVE) {
		if (req->mad_hdr.method == IB_SA_METHOD_GET_TABLE)
			sa_reply_table(sdev, pkt, NULL, 0, sizeof(*r));
		else
			sa_reply(sdev, pkt, SIMHCA_SA_ERR_NO_RECORDS, NULL, 0);
		return;
	}

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return;
	simhca_port_gid(dp->sdev, dp->num, r->dgid);
	simhca_port_gid(sp->sdev, sp->num, r->sgid);
	r->dlid = cpu_to_be16(READ_ONCE(dp->lid));
	r->slid = cpu_to_be16(READ_ONCE(sp->lid));
	r->tclass = (cm & PR_TCLASS) ? q->tclass : 0;
	r->rev_numb = 0x80 | 1;
	r->pkey = cpu_to_be16(pkey);
	r->mtu = (SEL_EQ << 6) | sa_port_mtu(sdev);
	r->rate = (SEL_EQ << 6) | PORT_RATE;
	r->pkt_life = (SEL_EQ << 6) | PKT_LIFE;
	if (req->mad_hdr.method == IB_SA_METHOD_GET_TABLE) {
		sa_reply_table(sdev, pkt, r, 1, sizeof(*r));
		return;
	}
	sa_reply(sdev, pkt, 0, r, sizeof(*r));
	kfree(r);
}

struct recbuf {
	struct simhca_mcmr *r;
	u32 n;
	u32 cap;
	bool oom;
};

static void recbuf_add(struct recbuf *b, const struct simhca_mcmr *r)
{
	if (b->n == b->cap) {
		u32 cap = b->cap ? b->cap * 2 : 16;
		/* krealloc_array() is 5.12+: array_size() saturates alike */
		void *p = krealloc(b->r, array_size(cap, sizeof(*r)), GFP_KERNEL);

		if (!p) {
			b->oom = true;
			return;
		}
		b->r = p;
		b->cap = cap;
	}
	b->r[b->n++] = *r;
}

static void mcm_match(const struct simhca_group *g, const struct simhca_mcmr *q,
		      ib_sa_comp_mask cm, struct simhca_port *rp, bool trusted,
		      struct recbuf *b)
{
	const struct simhca_member *m;
	struct simhca_mcmr r;
	u8 mask = 0;

	if ((cm & IB_SA_MCMEMBER_REC_MGID) && memcmp(q->mgid, g->rec.mgid, 16))
		return;
	if ((cm & IB_SA_MCMEMBER_REC_MLID) && q->mlid != g->rec.mlid)
		return;
	if (!simhca_port_has_pkey(rp, be16_to_cpu(g->rec.pkey)))
		return;
	if (!join_fields_match(g, q, cm) || !group_matches_selectors(g, q, cm))
		return;
	if ((cm & IB_SA_MCMEMBER_REC_SCOPE))
		mask |= 0xf0;
	if ((cm & IB_SA_MCMEMBER_REC_JOIN_STATE))
		mask |= 0x0f;

	if (cm & IB_SA_MCMEMBER_REC_PORT_GID) {
		m = member_by_gid((struct simhca_group *)g, q->port_gid);
		if (!m)
			return;
		group_record(g, m, &r);
		if ((q->scope_state & mask) == (r.scope_state & mask))
			recbuf_add(b, &r);
	} else if (trusted) {
		list_for_each_entry(m, &g->members, list) {
			group_record(g, m, &r);
			if ((q->scope_state & mask) == (r.scope_state & mask))
				recbuf_add(b, &r);
		}
	} else {
		group_record(g, NULL, &r);
		if ((q->scope_state & mask) == (r.scope_state & mask))
			recbuf_add(b, &r);
	}
}

static void mcm_query(struct simhca_dev *sdev, const struct simhca_pkt *pkt)
{
	const struct ib_sa_mad *req = (const void *)pkt->mad;
	const struct simhca_mcmr *q = (const void *)req->data;
	bool trusted = req->sa_hdr.sm_key != 0;
	struct simhca_port *rp = req_port(pkt);
	ib_sa_comp_mask cm = req->sa_hdr.comp_mask;
	struct simhca_group *g;
	struct recbuf b = {};
	u32 i;

	/* an MGID or MLID names at most one group: no walk for those */
	if (cm & (IB_SA_MCMEMBER_REC_MGID | IB_SA_MCMEMBER_REC_MLID)) {
		g = cm & IB_SA_MCMEMBER_REC_MGID ?
			group_by_mgid(&sdev->sa, q->mgid) :
			group_by_mlid(&sdev->sa, q->mlid);
		if (g)
			mcm_match(g, q, cm, rp, trusted, &b);
	} else {
		list_for_each_entry(g, &sdev->sa.groups, list)
			mcm_match(g, q, cm, rp, trusted, &b);
	}
	if (b.oom) {
		kfree(b.r);
		sa_reply(sdev, pkt, SIMHCA_SA_ERR_NO_RESOURCES, NULL, 0);
		return;
	}
	/* IBA p923: PortGID, JoinState and ProxyJoin only for trusted requests */
	for (i = 0; !trusted && i < b.n; i++) {
		memset(b.r[i].port_gid, 0, 16);
		b.r[i].scope_state &= 0xf0;
		b.r[i].proxy_join = 0;
	}
	if (req->mad_hdr.method == IB_SA_METHOD_GET_TABLE) {
		sa_reply_table(sdev, pkt, b.r, b.n, sizeof(*b.r));
		return;
	}
	if (b.n == 1)
		sa_reply(sdev, pkt, 0, b.r, sizeof(*b.r));
	else
		sa_reply(sdev, pkt, b.n ? SIMHCA_SA_ERR_TOO_MANY_RECORDS :
			 SIMHCA_SA_ERR_NO_RECORDS, NULL, 0);
	kfree(b.r);
}

static void sa_mcm(struct simhca_dev *sdev, const struct simhca_pkt *pkt)
{
	const struct ib_sa_mad *req = (const void *)pkt->mad;
	struct simhca_mcmr out = {};
	ktime_t t0 = ktime_get();
	u16 status;

	switch (req->mad_hdr.method) {
	case IB_MGMT_METHOD_SET:
		status = mcm_join(sdev, pkt, &out);
		break;
	case IB_SA_METHOD_DELETE:
		status = mcm_leave(sdev, pkt, &out);
		break;
	default:
		mcm_query(sdev, pkt);
		return;
	}
	if (!status)
		/* before the answer: the switch is programmed when the host hears */
		simhca_sa_changed(sdev);
	sdev->sa.st.mcm_updates++;
	sdev->sa.st.mcm_update_ns += ktime_to_ns(ktime_sub(ktime_get(), t0));
	sa_reply(sdev, pkt, status, status ? NULL : &out, sizeof(out));
}

/* --- request dispatch ---------------------------------------------------- */

/*
 * A request posted at @now, @since the stats' reset: counted in its 10 ms
 * and in the last 100 ms, whose count, if the most yet, is kept in *@max
 * with the time it ended in *@max_end_ns.
 */
static void rate_ring_add(struct simhca_rate_ring *r, ktime_t now, s64 since,
			  u64 *max, u64 *max_end_ns)
{
	ktime_t old = ktime_sub_ms(now, 100);
	u32 tail;

	if (since >= 0 && since < (s64)SIMHCA_ARRIVALS * SIMHCA_ARRIVAL_NS)
		r->arrivals[div_u64(since, SIMHCA_ARRIVAL_NS)]++;

	r->t[r->head] = now;
	r->head = (r->head + 1) % SIMHCA_RATE_RING;
	if (r->count < SIMHCA_RATE_RING)
		r->count++;
	for (;;) {
		tail = (r->head + SIMHCA_RATE_RING - r->count) %
			SIMHCA_RATE_RING;
		if (!ktime_before(r->t[tail], old))
			break;
		r->count--;
	}
	if (r->count > *max) {
		*max = r->count;
		*max_end_ns = max_t(s64, since, 0);
	}
}

/*
 * The most requests the host sent in any 100 ms, by the time it posted
 * them, not the time the SA worker got to them: a worker held up (a
 * loaded or debug kernel) takes several at once that were sent apart.
 * The same of MCMemberRecord requests alone (ib_sa's own ClassPortInfo
 * queries, one per port a second after a reregister, are not a
 * multicast client's), and both per 10 ms since the stats' reset.
 */
static void sa_rate_track(struct simhca_sa *sa, ktime_t now, bool mcm)
{
	s64 since = ktime_to_ns(ktime_sub(now, sa->arrivals_t0));

	rate_ring_add(&sa->ring, now, since, &sa->st.max_per_100ms,
		      &sa->st.max_per_100ms_end_ns);
	if (mcm)
		rate_ring_add(&sa->mcm_ring, now, since,
			      &sa->st.mcm_max_per_100ms,
			      &sa->st.mcm_max_per_100ms_end_ns);
}

/*
 * stats' arrivals: "MS ALL MCM" per 10 ms since the reset (all requests,
 * MCMemberRecord requests), to the last that had one
 */
void simhca_sa_arrivals_show(struct simhca_dev *sdev, struct seq_file *s)
{
	struct simhca_sa *sa = &sdev->sa;
	u32 i, n = 0;

	mutex_lock(&sa->lock);
	for (i = 0; i < SIMHCA_ARRIVALS; i++)
		if (sa->ring.arrivals[i])
			n = i + 1;
	for (i = 0; i < n; i++)
		seq_printf(s, "%llu %u %u\n",
			   div_u64((u64)i * SIMHCA_ARRIVAL_NS, NSEC_PER_MSEC),
			   sa->ring.arrivals[i], sa->mcm_ring.arrivals[i]);
	mutex_unlock(&sa->lock);
}

/*
 * drop_queries: true if @pkt belongs to a query that is to be lost, which
 * is a resend of one lost before (its TID remembered) or, while queries
 * are left to lose, a new one (its TID then remembered, the knob counted
 * down). ib_sa on 5.10 posts a query once with its whole timeout, later
 * kernels resend it up to ten times: losing a query, not N MADs, times it
 * out on both.
 */
static bool sa_query_lost(struct simhca_sa *sa, struct simhca_knobs *k,
			  const struct simhca_pkt *pkt)
{
	__be64 tid = ((const struct ib_mad_hdr *)pkt->mad)->tid;
	u32 i, n;

	for (i = 0; i < SIMHCA_LOST_TIDS; i++)
		if (sa->lost[i] == tid && tid)
			return true;
	n = READ_ONCE(k->drop_queries);
	if (!n)
		return false;
	WRITE_ONCE(k->drop_queries, n - 1);
	sa->lost[sa->lost_next] = tid;
	sa->lost_next = (sa->lost_next + 1) % SIMHCA_LOST_TIDS;
	return true;
}

/*
 * serve_busy_ms: is the server so far behind that a request is answered
 * BUSY at once rather than queued? Under sa.lock.
 */
static bool sa_busy(struct simhca_dev *sdev)
{
	u32 ms = READ_ONCE(sdev->knobs.serve_busy_ms);
	u64 now = ktime_get_ns();

	return ms && READ_ONCE(sdev->knobs.serve_rate) &&
	       sdev->sa.serve_next_ns > now + (u64)ms * NSEC_PER_MSEC;
}

/* Fault knobs; true if the request was consumed. */
static bool sa_faults(struct simhca_dev *sdev, const struct simhca_pkt *pkt)
{
	struct simhca_knobs *k = &sdev->knobs;
	struct simhca_sa *sa = &sdev->sa;
	u32 limit = READ_ONCE(k->rate_limit), n;

	if (sa->sweeping) {
		if (time_before(jiffies, sa->sweep_end)) {
			sa->st.drop_sweep++;
			return true;
		}
		sa->sweeping = false;
	}
	if (limit) {
		if (time_after_eq(jiffies, sa->rate_start + HZ)) {
			sa->rate_start = jiffies;
			sa->rate_count = 0;
		}
		if (sa->rate_count >= limit) {
			sa->st.drop_rate++;
			return true;
		}
		sa->rate_count++;
	}
	n = READ_ONCE(k->drop_next);
	if (n) {
		WRITE_ONCE(k->drop_next, n - 1);
		sa->st.drop_fault++;
		return true;
	}
	if (sa_query_lost(sa, k, pkt)) {
		sa->st.drop_query++;
		return true;
	}
	if (sa_busy(sdev)) {
		sa->st.busy++;
		sa_reply(sdev, pkt, IB_MGMT_MAD_STATUS_BUSY, NULL, 0);
		return true;
	}
	n = READ_ONCE(k->fail_next);
	if (n) {
		WRITE_ONCE(k->fail_next, n - 1);
		sa->st.fail_injected++;
		sa_reply(sdev, pkt, READ_ONCE(k->fail_status) & 0xffff, NULL, 0);
		return true;
	}
	return false;
}

static void sa_process(struct simhca_dev *sdev, const struct simhca_pkt *pkt)
{
	const struct ib_sa_mad *req = (const void *)pkt->mad;
	struct simhca_sa *sa = &sdev->sa;
	u8 method = req->mad_hdr.method;
	u64 key = READ_ONCE(sdev->knobs.sa_key);
	int a;

	if (READ_ONCE(req_port(pkt)->state) != IB_PORT_ACTIVE) {
		sa->st.drop_port_down++;
		return;
	}
	if (req->mad_hdr.base_version != IB_MGMT_BASE_VERSION ||
	    req->mad_hdr.mgmt_class != IB_MGMT_CLASS_SUBN_ADM ||
	    (method & IB_MGMT_METHOD_RESP)) {
		sa->st.drop_not_sa++;
		return;
	}
	if (ib_get_rmpp_flags((struct ib_rmpp_hdr *)&req->rmpp_hdr) &
	    IB_MGMT_RMPP_FLAG_ACTIVE) {
		sa_rmpp_in(sdev, pkt);
		return;
	}

	a = attr_idx(req->mad_hdr.attr_id);
	sa->st.rx[method_idx(method)][a]++;
	sa_rate_track(sa, pkt->sent, a == SIMHCA_A_MCM);
	if (sa_faults(sdev, pkt))
		return;

	if (req->mad_hdr.class_version != 2) {
		sa_reply(sdev, pkt, IB_MGMT_MAD_STATUS_BAD_VERSION, NULL, 0);
		return;
	}
	/*
	 * A non-zero SM_Key that is not the SA's: OpenSM discards the
	 * request unanswered (osm_sa_mad_ctrl.c, ERR 1A04), and so do we.
	 */
	if (req->sa_hdr.sm_key && be64_to_cpu(req->sa_hdr.sm_key) != key) {
		sa->st.drop_bad_smkey++;
		return;
	}

	switch (a) {
	case SIMHCA_A_CPI:
		if (method == IB_MGMT_METHOD_GET) {
			sa_cpi(sdev, pkt);
			return;
		}
		break;
	case SIMHCA_A_MCM:
		if (method == IB_MGMT_METHOD_GET ||
		    method == IB_MGMT_METHOD_SET ||
		    method == IB_SA_METHOD_GET_TABLE ||
		    method == IB_SA_METHOD_DELETE) {
			sa_mcm(sdev, pkt);
			return;
		}
		break;
	case SIMHCA_A_NODE:
		if (method == IB_MGMT_METHOD_GET ||
		    method == IB_SA_METHOD_GET_TABLE) {
			sa_node(sdev, pkt);
			return;
		}
		break;
	case SIMHCA_A_PATH:
		if (method == IB_MGMT_METHOD_GET ||
		    method == IB_SA_METHOD_GET_TABLE) {
			sa_path(sdev, pkt);
			return;
		}
		break;
	case SIMHCA_A_OTHER:
		if (be16_to_cpu(req->mad_hdr.attr_id) == IB_SA_ATTR_SWITCH_REC &&
		    method == IB_SA_METHOD_GET_TABLE) {
			sa_switch(sdev, pkt);
			return;
		}
		break;
	}
	if (method_idx(method) == SIMHCA_M_OTHER)
		sa_reply(sdev, pkt, IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD, NULL, 0);
	else
		sa_reply(sdev, pkt, IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB,
			 NULL, 0);
}

void simhca_sa_work(struct work_struct *work)
{
	struct simhca_dev *sdev = container_of(work, struct simhca_dev, sa_work);
	struct simhca_pkt *pkt, *tmp;
	unsigned long flags;
	LIST_HEAD(todo);

	spin_lock_irqsave(&sdev->lock, flags);
	list_splice_init(&sdev->to_sa, &todo);
	spin_unlock_irqrestore(&sdev->lock, flags);

	mutex_lock(&sdev->sa.lock);
	list_for_each_entry_safe(pkt, tmp, &todo, list) {
		sa_process(sdev, pkt);
		kfree(pkt);
	}
	mutex_unlock(&sdev->sa.lock);
}

/* --- the SM programs the switch ----------------------------------------- */

/*
 * The membership changed: the SM reprograms the switch's multicast
 * forwarding table mft_delay_ms later (at once for 0), from the database
 * as it is then. A change while a programming is pending is picked up by
 * it. The work runs on the device's ordered workqueue, so with no delay a
 * join's answer, and any datagram sent after the change, come after it.
 * Called with sa.lock held or from the SA's own work.
 */
void simhca_sa_changed(struct simhca_dev *sdev)
{
	unsigned long flags;

	spin_lock_irqsave(&sdev->lock, flags);
	if (!sdev->dying)
		queue_delayed_work(sdev->wq, &sdev->mft_work,
				   msecs_to_jiffies(READ_ONCE(sdev->knobs.mft_delay_ms)));
	spin_unlock_irqrestore(&sdev->lock, flags);
}

/* The ports @mlid (an index from 0xC000) forwards to, as the SA has it. */
static u8 mft_ports(struct simhca_dev *sdev, u32 mlid)
{
	struct simhca_group *g = sdev->sa.by_mlid[mlid];
	struct simhca_member *m;
	u8 ports = 0;

	if (!g)
		return 0;
	list_for_each_entry(m, &g->members, list) {
		struct simhca_port *p = port_by_gid(sdev, m->port_gid);

		/* in a fabric, only device 0's ports are on its switch */
		if (p && p->sdev == sdev &&
		    (m->join_state & (JOIN_FULL | JOIN_NON)))
			ports |= BIT(p->num - 1);
	}
	return ports;
}

/*
 * One switch for the device's ports: an MLID forwards to every port that
 * is a receiving member (full or non-member, IBA 15.2.5.17: send-only
 * members only send) of its group. Only the MLIDs whose membership
 * changed since the last programming are written (sa.mft_dirty); the
 * first programming starts from an empty table, in which every MLID ever
 * used is among those.
 */
void simhca_mft_work(struct work_struct *work)
{
	struct simhca_dev *sdev = container_of(to_delayed_work(work),
					       struct simhca_dev, mft_work);
	struct simhca_sa *sa = &sdev->sa;
	ktime_t t0 = ktime_get();
	unsigned long flags;
	u8 *mft = NULL;
	u32 i;

	/* Only this work sets sdev->mft, so it may be read unlocked here. */
	if (!sdev->mft) {
		mft = kvzalloc(SIMHCA_MLID_NUM, GFP_KERNEL);
		if (!mft)
			return;
	}
	mutex_lock(&sa->lock);
	spin_lock_irqsave(&sdev->lock, flags);
	if (mft)
		sdev->mft = mft;
	for (i = 0; i < sa->mft_ndirty; i++) {
		u32 mlid = sa->mft_dirty[i];

		sdev->mft[mlid] = mft_ports(sdev, mlid);
		__clear_bit(mlid, sa->mft_dirty_map);
	}
	sa->mft_ndirty = 0;
	sdev->sw.mft_programs++;
	spin_unlock_irqrestore(&sdev->lock, flags);
	sa->st.mft_ns += ktime_to_ns(ktime_sub(ktime_get(), t0));
	mutex_unlock(&sa->lock);
}

/* --- debugfs views ------------------------------------------------------- */

void simhca_sa_dump(struct simhca_dev *sdev, struct seq_file *s)
{
	struct simhca_group *g;
	struct simhca_member *m;

	mutex_lock(&sdev->sa.lock);
	list_for_each_entry(g, &sdev->sa.groups, list) {
		u32 sfh = be32_to_cpu(g->rec.sl_flow_hop), n = 0;

		list_for_each_entry(m, &g->members, list)
			n++;
		seq_printf(s, "group mgid=%pI6c mlid=0x%04x pkey=0x%04x qkey=0x%08x mtu=0x%02x rate=0x%02x sl=%u flow=0x%x hop=%u tclass=0x%02x scope=0x%x members=%u\n",
			   g->rec.mgid, be16_to_cpu(g->rec.mlid),
			   be16_to_cpu(g->rec.pkey), be32_to_cpu(g->rec.qkey),
			   g->rec.mtu, g->rec.rate, sfh >> 28,
			   (sfh >> 8) & 0xfffff, sfh & 0xff, g->rec.tclass,
			   g->rec.scope_state >> 4, n);
		list_for_each_entry(m, &g->members, list)
			seq_printf(s, "member mgid=%pI6c mlid=0x%04x gid=%pI6c join=0x%x proxy=%u\n",
				   g->rec.mgid, be16_to_cpu(g->rec.mlid),
				   m->port_gid, m->join_state, m->proxy_join);
	}
	mutex_unlock(&sdev->sa.lock);
}

void simhca_sa_stats(struct simhca_dev *sdev, struct seq_file *s)
{
	struct simhca_sa *sa = &sdev->sa;
	struct simhca_stats *st = &sa->st;
	u32 max_pending, max_requests;
	u64 resent, rq_empty;
	int m, a;

	mutex_lock(&sa->lock);
	for (m = 0; m < SIMHCA_M_NUM; m++)
		for (a = 0; a < SIMHCA_A_NUM; a++)
			seq_printf(s, "rx_%s_%s %llu\n", method_names[m],
				   attr_names[a], st->rx[m][a]);
	for (m = 0; m < SIMHCA_M_NUM; m++)
		for (a = 0; a < SIMHCA_A_NUM; a++)
			seq_printf(s, "answered_%s_%s %llu\n", method_names[m],
				   attr_names[a], st->answered[m][a]);
	seq_printf(s, "drop_fault %llu\n", st->drop_fault);
	seq_printf(s, "drop_query %llu\n", st->drop_query);
	seq_printf(s, "drop_rate %llu\n", st->drop_rate);
	seq_printf(s, "drop_sweep %llu\n", st->drop_sweep);
	seq_printf(s, "drop_port_down %llu\n", st->drop_port_down);
	seq_printf(s, "drop_not_sa %llu\n", st->drop_not_sa);
	seq_printf(s, "drop_bad_smkey %llu\n", st->drop_bad_smkey);
	seq_printf(s, "fail_injected %llu\n", st->fail_injected);
	seq_printf(s, "busy %llu\n", st->busy);
	seq_printf(s, "rmpp_segments %llu\n", st->rmpp_segments);
	seq_printf(s, "rmpp_acks %llu\n", st->rmpp_acks);
	seq_printf(s, "rmpp_aborts %llu\n", st->rmpp_aborts);
	seq_printf(s, "max_per_100ms %llu\n", st->max_per_100ms);
	seq_printf(s, "max_per_100ms_end_ms %llu\n",
		   div_u64(st->max_per_100ms_end_ns, NSEC_PER_MSEC));
	seq_printf(s, "mcm_max_per_100ms %llu\n", st->mcm_max_per_100ms);
	seq_printf(s, "mcm_max_per_100ms_end_ms %llu\n",
		   div_u64(st->mcm_max_per_100ms_end_ns, NSEC_PER_MSEC));
	seq_printf(s, "mcm_updates %llu\n", st->mcm_updates);
	seq_printf(s, "mcm_update_ns %llu\n", st->mcm_update_ns);
	seq_printf(s, "mft_program_ns %llu\n", st->mft_ns);
	seq_printf(s, "serve_wait_max_us %llu\n",
		   div_u64(st->serve_wait_max_ns, NSEC_PER_USEC));
	spin_lock_irq(&sdev->lock);
	max_pending = sdev->max_answers_pending;
	max_requests = sdev->max_requests_pending;
	resent = sdev->answers_resent;
	rq_empty = sdev->answers_rq_empty;
	spin_unlock_irq(&sdev->lock);
	seq_printf(s, "max_answers_pending %u\n", max_pending);
	seq_printf(s, "max_requests_pending %u\n", max_requests);
	seq_printf(s, "answers_resent %llu\n", resent);
	seq_printf(s, "answers_rq_empty %llu\n", rq_empty);
	seq_printf(s, "groups %u\n", sa->ngroups);
	seq_printf(s, "members %u\n", sa->nmembers);
	for (m = 0; m < ARRAY_SIZE(event_names); m++)
		if (event_names[m])
			seq_printf(s, "event_%s %llu\n", event_names[m],
				   sa->events[m]);
	mutex_unlock(&sa->lock);
}

void simhca_sa_stats_reset(struct simhca_dev *sdev)
{
	mutex_lock(&sdev->sa.lock);
	memset(&sdev->sa.st, 0, sizeof(sdev->sa.st));
	memset(sdev->sa.events, 0, sizeof(sdev->sa.events));
	rate_ring_reset(&sdev->sa.ring);
	rate_ring_reset(&sdev->sa.mcm_ring);
	sdev->sa.arrivals_t0 = ktime_get();
	spin_lock_irq(&sdev->lock);
	sdev->max_answers_pending = sdev->answers_pending;
	sdev->max_requests_pending = sdev->requests_pending;
	sdev->answers_resent = 0;
	sdev->answers_rq_empty = 0;
	spin_unlock_irq(&sdev->lock);
	mutex_unlock(&sdev->sa.lock);
}
