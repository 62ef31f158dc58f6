// SPDX-License-Identifier: GPL-2.0
/*
 * simhca verbs: a UD-only HCA for kernel consumers: ib_mad's QP0/QP1 and
 * UD QPs that send and receive multicast through a simulated switch.
 *
 * Software DMA: SGE addresses are kernel virtual addresses. A send on QP1
 * to the SM LID is queued for the simulated SA; every other send on QP0/QP1
 * completes and is dropped. Answers come back through simhca_to_host() as
 * receive completions on QP1, from a workqueue.
 *
 * A send on a UD QP enters the switch of the device's subnet (all ports of
 * one simhca device, whose SA is the device's): simhca_switch_work() looks
 * the MLID up in the multicast forwarding table the SM programmed from the
 * SA's membership (sa.c, simhca_mft_work()) and hands a copy to every UD QP
 * attached to the MGID on every port the table lists, but the port it came
 * from. Unicast UD is not modelled (dropped and counted).
 */
#include <linux/delay.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/jiffies.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

#include "simhca.h"

static int simhca_query_device(struct ib_device *ibdev,
			       struct ib_device_attr *attr,
			       struct ib_udata *udata)
{
	struct simhca_dev *sdev = to_sdev(ibdev);

	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;

	memset(attr, 0, sizeof(*attr));
	attr->fw_ver = 1;
	attr->sys_image_guid = sdev->ibdev.node_guid;
	attr->max_mr_size = ~0ULL;
	attr->page_size_cap = PAGE_SIZE;
	attr->vendor_id = 0x5348;
	attr->vendor_part_id = 1;
	attr->hw_ver = 1;
	attr->max_qp = SIMHCA_MAX_QP;
	attr->max_qp_wr = SIMHCA_MAX_WR;
#ifdef MCG_HAVE_KERNEL_CAP_FLAGS
	attr->kernel_cap_flags = IBK_LOCAL_DMA_LKEY;
#else
	attr->device_cap_flags = IB_DEVICE_LOCAL_DMA_LKEY;
#endif
	attr->max_send_sge = SIMHCA_MAX_SGE;
	attr->max_recv_sge = SIMHCA_MAX_SGE;
	attr->max_sge_rd = 1;
	attr->max_cq = SIMHCA_MAX_QP;
	attr->max_cqe = SIMHCA_MAX_CQE;
	attr->max_mr = 16;
	attr->max_pd = 16;
	attr->max_ah = 4096;
	attr->max_pkeys = SIMHCA_PKEY_TBL_LEN;
	attr->local_ca_ack_delay = 15;
	attr->max_mcast_grp = simhca_max_mcast_grp ?: SIMHCA_MLID_NUM;
	attr->max_mcast_qp_attach = SIMHCA_MAX_MC_ATTACH;
	attr->max_total_mcast_qp_attach = SIMHCA_MAX_UD_QP * SIMHCA_MAX_MC_ATTACH;
	return 0;
}

static int simhca_query_port(struct ib_device *ibdev, simhca_verbs_port_t port_num,
			     struct ib_port_attr *attr)
{
	struct simhca_dev *sdev = to_sdev(ibdev);
	struct simhca_port *p = &sdev->port[port_num - 1];
	enum ib_port_state state = READ_ONCE(p->state);

	/* INIT and ARMED only with an external SM (sma.c) */
	attr->state = state;
	attr->phys_state = state != IB_PORT_DOWN ? IB_PORT_PHYS_STATE_LINK_UP :
				IB_PORT_PHYS_STATE_POLLING;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = IB_MTU_4096;
	attr->gid_tbl_len = SIMHCA_GID_TBL_LEN;
	attr->port_cap_flags = READ_ONCE(p->cap_mask);
	attr->max_msg_sz = 0x80000000;
	attr->pkey_tbl_len = SIMHCA_PKEY_TBL_LEN;
	attr->lid = READ_ONCE(p->lid);
	attr->active_width = IB_WIDTH_4X;
	if (simhca_internal_sa) {
		attr->sm_lid = READ_ONCE(sdev->knobs.sm_lid);
		attr->lmc = 0;
		attr->max_vl_num = 4;
		attr->sm_sl = 0;
		attr->subnet_timeout = 18;
		attr->active_speed = IB_SPEED_EDR;
	} else {
		/* as the SM set them, and as the SMA's PortInfo tells */
		attr->sm_lid = READ_ONCE(p->sm_lid);
		attr->lmc = READ_ONCE(p->lmc);
		attr->max_vl_num = 1;
		attr->sm_sl = READ_ONCE(p->sm_sl);
		attr->subnet_timeout = READ_ONCE(p->subnet_timeout);
		attr->active_speed = IB_SPEED_QDR;
	}
	attr->subnet_prefix = SIMHCA_SUBNET_PREFIX;
	return 0;
}

static int simhca_get_port_immutable(struct ib_device *ibdev, simhca_verbs_port_t port_num,
				     struct ib_port_immutable *immutable)
{
	immutable->pkey_tbl_len = SIMHCA_PKEY_TBL_LEN;
	immutable->gid_tbl_len = SIMHCA_GID_TBL_LEN;
	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_IB;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static int simhca_query_pkey(struct ib_device *ibdev, simhca_verbs_port_t port_num, u16 index,
			     u16 *pkey)
{
	struct simhca_dev *sdev = to_sdev(ibdev);

	if (index >= SIMHCA_PKEY_TBL_LEN)
		return -EINVAL;
	*pkey = READ_ONCE(sdev->port[port_num - 1].pkeys[index]);
	return 0;
}

static int simhca_query_gid(struct ib_device *ibdev, simhca_verbs_port_t port_num, int index,
			    union ib_gid *gid)
{
	if (index >= SIMHCA_GID_TBL_LEN)
		return -EINVAL;
	simhca_port_gid(to_sdev(ibdev), port_num, gid->raw);
	return 0;
}

static int simhca_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return 0;
}

static int simhca_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return 0;
}

/*
 * An address handle for the SM's LID (ib_sa's update_sm_ah() makes one
 * after every port event, and has none until then) can be made slow
 * (ah_delay_ms: only a sleepable create, as ib_sa's is, sleeps) or fail
 * (ah_fail_next), to open or keep open the window in which SA queries
 * fail with -EAGAIN.
 */
static int simhca_sm_ah_faults(struct simhca_dev *sdev,
			       const struct rdma_ah_init_attr *init_attr)
{
	struct simhca_knobs *k = &sdev->knobs;
	unsigned int delay = READ_ONCE(k->ah_delay_ms);
	unsigned long flags;
	bool fail = false;
	u32 n;

	if (rdma_ah_get_dlid(init_attr->ah_attr) != READ_ONCE(k->sm_lid))
		return 0;
	if (delay && (init_attr->flags & RDMA_CREATE_AH_SLEEPABLE))
		msleep(delay);
	spin_lock_irqsave(&sdev->lock, flags);
	sdev->sw.sm_ah_creates++;
	n = READ_ONCE(k->ah_fail_next);
	if (n) {
		WRITE_ONCE(k->ah_fail_next, n - 1);
		sdev->sw.sm_ah_fails++;
		fail = true;
	}
	spin_unlock_irqrestore(&sdev->lock, flags);
	return fail ? -EIO : 0;
}

static int simhca_create_ah(struct ib_ah *ibah,
			    struct rdma_ah_init_attr *init_attr,
			    struct ib_udata *udata)
{
	struct simhca_ah *ah = container_of(ibah, struct simhca_ah, ibah);
	int ret;

	ret = simhca_sm_ah_faults(to_sdev(ibah->device), init_attr);
	if (ret)
		return ret;
	ah->attr = *init_attr->ah_attr;
	ah->attr.grh.sgid_attr = NULL;
	return 0;
}

static int simhca_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	struct simhca_ah *ah = container_of(ibah, struct simhca_ah, ibah);

	*attr = ah->attr;
	return 0;
}

static int simhca_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	return 0;
}

static struct ib_mr *simhca_get_dma_mr(struct ib_pd *ibpd, int access)
{
	struct simhca_mr *mr;

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	return &mr->ibmr;
}

/*
 * ib_core requires reg_user_mr() of every device (ib_device_check_mandatory)
 * although, without alloc_ucontext, simhca has no uverbs device through
 * which it could be called. Its type gained a struct ib_dmah * on the
 * newest kernels (MCG_HAVE_REG_USER_MR_DMAH, probes/reg_user_mr_dmah.c).
 */
#ifdef MCG_HAVE_REG_USER_MR_DMAH
static struct ib_mr *simhca_reg_user_mr(struct ib_pd *ibpd, u64 start,
					u64 length, u64 virt_addr, int access,
					struct ib_dmah *dmah,
					struct ib_udata *udata)
{
	return ERR_PTR(-EOPNOTSUPP);
}
#else
static struct ib_mr *simhca_reg_user_mr(struct ib_pd *ibpd, u64 start,
					u64 length, u64 virt_addr, int access,
					struct ib_udata *udata)
{
	return ERR_PTR(-EOPNOTSUPP);
}
#endif

static int simhca_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	kfree(container_of(ibmr, struct simhca_mr, ibmr));
	return 0;
}

/*
 * Kernel CQs only. Since 6.11 create_cq() gets the uverbs attribute bundle
 * (NULL for a kernel consumer) where it got the udata before: probed as
 * MCG_HAVE_CREATE_CQ_ATTRS (probes/create_cq_attrs.c).
 */
#ifdef MCG_HAVE_CREATE_CQ_ATTRS
#define simhca_cq_uctx	uverbs_attr_bundle
#else
#define simhca_cq_uctx	ib_udata
#endif

static int simhca_create_cq(struct ib_cq *ibcq,
			    const struct ib_cq_init_attr *attr,
			    struct simhca_cq_uctx *uctx)
{
	struct simhca_cq *cq = container_of(ibcq, struct simhca_cq, ibcq);

	if (uctx || attr->flags)
		return -EOPNOTSUPP;
	if (!attr->cqe || attr->cqe > SIMHCA_MAX_CQE)
		return -EINVAL;
	cq->ring = kvcalloc(attr->cqe, sizeof(*cq->ring), GFP_KERNEL);
	if (!cq->ring)
		return -ENOMEM;
	cq->size = attr->cqe;
	ibcq->cqe = attr->cqe;
	spin_lock_init(&cq->lock);
	return 0;
}

static int simhca_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct simhca_cq *cq = container_of(ibcq, struct simhca_cq, ibcq);

	kvfree(cq->ring);
	return 0;
}

static int simhca_poll_cq(struct ib_cq *ibcq, int num, struct ib_wc *wc)
{
	struct simhca_cq *cq = container_of(ibcq, struct simhca_cq, ibcq);
	unsigned long flags;
	int n = 0;

	spin_lock_irqsave(&cq->lock, flags);
	while (n < num && cq->count) {
		wc[n++] = cq->ring[cq->head];
		cq->head = (cq->head + 1) % cq->size;
		cq->count--;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

static int simhca_req_notify_cq(struct ib_cq *ibcq,
				enum ib_cq_notify_flags flags)
{
	struct simhca_cq *cq = container_of(ibcq, struct simhca_cq, ibcq);
	unsigned long irqflags;
	int ret = 0;

	spin_lock_irqsave(&cq->lock, irqflags);
	cq->armed = true;
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) && cq->count)
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return ret;
}

/*
 * Add a completion; the completion handler is called with no CQ lock held.
 * Callers hold a reference on the CQ through a live QP.
 */
static void simhca_cq_add(struct simhca_cq *cq, const struct ib_wc *wc)
{
	unsigned long flags;
	bool notify = false;

	spin_lock_irqsave(&cq->lock, flags);
	if (cq->count == cq->size) {
		cq->overflows++;
	} else {
		cq->ring[(cq->head + cq->count) % cq->size] = *wc;
		cq->count++;
		notify = cq->armed;
		cq->armed = false;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	if (notify && cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
}

static int simhca_create_qp(struct ib_qp *ibqp,
			    struct ib_qp_init_attr *init,
			    struct ib_udata *udata)
{
	struct simhca_dev *sdev = to_sdev(ibqp->device);
	struct simhca_qp *qp = container_of(ibqp, struct simhca_qp, ibqp);
	unsigned long flags;
	u32 idx;
	int ret = 0;

	if (udata)
		return -EOPNOTSUPP;
	if (init->qp_type == IB_QPT_SMI)
		idx = 0;
	else if (init->qp_type == IB_QPT_GSI)
		idx = 1;
	else if (init->qp_type == IB_QPT_UD)
		idx = 2;
	else
		return -EOPNOTSUPP;
	if (init->srq || init->create_flags)
		return -EOPNOTSUPP;
	/* ib_core gives the port of QP0/QP1 here, of a UD QP at INIT */
	if (idx < 2 && (!init->port_num || init->port_num > sdev->nports))
		return -EINVAL;
	if (init->cap.max_recv_wr > SIMHCA_MAX_WR ||
	    init->cap.max_send_wr > SIMHCA_MAX_WR ||
	    init->cap.max_send_sge > SIMHCA_MAX_SGE ||
	    init->cap.max_recv_sge > SIMHCA_MAX_SGE)
		return -EINVAL;

	qp->rq_size = max_t(u32, init->cap.max_recv_wr, 1);
	qp->rq = kvcalloc(qp->rq_size, sizeof(*qp->rq), GFP_KERNEL);
	if (!qp->rq)
		return -ENOMEM;
	spin_lock_init(&qp->rq_lock);
	qp->port = idx < 2 ? init->port_num : 0;
	qp->state = IB_QPS_RESET;
	qp->sq_sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;

	spin_lock_irqsave(&sdev->lock, flags);
	if (idx < 2) {
		ibqp->qp_num = idx;
		if (sdev->port[qp->port - 1].qp[idx])
			ret = -EBUSY;
		else
			sdev->port[qp->port - 1].qp[idx] = qp;
	} else {
		ret = -ENOMEM;
		for (idx = 0; idx < SIMHCA_MAX_UD_QP; idx++) {
			if (!sdev->ud[idx]) {
				ibqp->qp_num = SIMHCA_UD_QPN_BASE + idx;
				sdev->ud[idx] = qp;
				ret = 0;
				break;
			}
		}
	}
	spin_unlock_irqrestore(&sdev->lock, flags);
	if (ret)
		kvfree(qp->rq);
	return ret;
}

static bool simhca_is_ud(struct simhca_qp *qp)
{
	return qp->ibqp.qp_type == IB_QPT_UD;
}

/*
 * A QP in the error state completes every receive it holds with
 * IB_WC_WR_FLUSH_ERR (IBA 10.3.1, 11.4.2.2), and every receive posted
 * while it stays there. Without them IPoIB's ipoib_ib_dev_stop() waits
 * 5 s for its ring to empty and warns, on every ifdown and unload. Sends
 * complete when posted, so none is left to flush.
 */
static void simhca_flush_rq(struct simhca_qp *qp)
{
	struct simhca_cq *rcq = container_of(qp->ibqp.recv_cq,
					     struct simhca_cq, ibcq);
	struct simhca_recv_wqe wqe;
	unsigned long flags;
	struct ib_wc wc;

	for (;;) {
		spin_lock_irqsave(&qp->rq_lock, flags);
		if (!qp->rq_count) {
			spin_unlock_irqrestore(&qp->rq_lock, flags);
			return;
		}
		wqe = qp->rq[qp->rq_head];
		qp->rq_head = (qp->rq_head + 1) % qp->rq_size;
		qp->rq_count--;
		spin_unlock_irqrestore(&qp->rq_lock, flags);

		memset(&wc, 0, sizeof(wc));
		wc.wr_id = wqe.wr_id;
		wc.status = IB_WC_WR_FLUSH_ERR;
		wc.opcode = IB_WC_RECV;
		wc.qp = &qp->ibqp;
		wc.port_num = qp->port;
		simhca_cq_add(rcq, &wc);
	}
}

/* UD QPs follow the IBA state machine, as ib_modify_qp_is_ok() knows it. */
static int simhca_modify_ud(struct simhca_qp *qp, struct ib_qp_attr *attr,
			    int mask)
{
	struct simhca_dev *sdev = to_sdev(qp->ibqp.device);
	enum ib_qp_state cur, next;
	unsigned long flags;

	spin_lock_irqsave(&sdev->lock, flags);
	cur = (mask & IB_QP_CUR_STATE) ? attr->cur_qp_state : qp->state;
	spin_unlock_irqrestore(&sdev->lock, flags);
	next = (mask & IB_QP_STATE) ? attr->qp_state : cur;
	if (!ib_modify_qp_is_ok(cur, next, IB_QPT_UD, mask))
		return -EINVAL;
	if ((mask & IB_QP_PORT) &&
	    (!attr->port_num || attr->port_num > sdev->nports))
		return -EINVAL;
	if ((mask & IB_QP_PKEY_INDEX) &&
	    attr->pkey_index >= SIMHCA_PKEY_TBL_LEN)
		return -EINVAL;

	spin_lock_irqsave(&sdev->lock, flags);
	if (mask & IB_QP_PORT)
		qp->port = attr->port_num;
	if (mask & IB_QP_PKEY_INDEX)
		qp->pkey_index = attr->pkey_index;
	if (mask & IB_QP_QKEY)
		qp->qkey = attr->qkey;
	qp->state = next;
	spin_unlock_irqrestore(&sdev->lock, flags);

	if (next == IB_QPS_ERR)
		simhca_flush_rq(qp);
	/* RESET empties the receive queue (no completions) */
	if (next == IB_QPS_RESET) {
		spin_lock_irqsave(&qp->rq_lock, flags);
		qp->rq_head = 0;
		qp->rq_count = 0;
		spin_unlock_irqrestore(&qp->rq_lock, flags);
	}
	return 0;
}

static int simhca_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			    int mask, struct ib_udata *udata)
{
	struct simhca_qp *qp = container_of(ibqp, struct simhca_qp, ibqp);

	if (simhca_is_ud(qp))
		return simhca_modify_ud(qp, attr, mask);
	if (mask & IB_QP_STATE)
		WRITE_ONCE(qp->state, attr->qp_state);
	return 0;
}

static int simhca_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			   int mask, struct ib_qp_init_attr *init)
{
	struct simhca_dev *sdev = to_sdev(ibqp->device);
	struct simhca_qp *qp = container_of(ibqp, struct simhca_qp, ibqp);
	unsigned long flags;

	memset(attr, 0, sizeof(*attr));
	spin_lock_irqsave(&sdev->lock, flags);
	attr->qp_state = READ_ONCE(qp->state);
	attr->port_num = qp->port;
	attr->qkey = simhca_is_ud(qp) ? qp->qkey : IB_QP1_QKEY;
	attr->pkey_index = qp->pkey_index;
	spin_unlock_irqrestore(&sdev->lock, flags);
	attr->cur_qp_state = attr->qp_state;
	attr->cap.max_recv_wr = qp->rq_size;
	attr->cap.max_send_sge = SIMHCA_MAX_SGE;
	attr->cap.max_recv_sge = 1;
	memset(init, 0, sizeof(*init));
	init->qp_type = ibqp->qp_type;
	init->port_num = attr->port_num;
	init->sq_sig_type = qp->sq_sig_all ? IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	init->cap = attr->cap;
	return 0;
}

static int simhca_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct simhca_dev *sdev = to_sdev(ibqp->device);
	struct simhca_qp *qp = container_of(ibqp, struct simhca_qp, ibqp);
	unsigned long flags;
	u32 n = ibqp->qp_num;

	/* After this no delivery can find the QP (or its CQs) any more. */
	spin_lock_irqsave(&sdev->lock, flags);
	if (simhca_is_ud(qp)) {
		n -= SIMHCA_UD_QPN_BASE;
		if (n < SIMHCA_MAX_UD_QP && sdev->ud[n] == qp)
			sdev->ud[n] = NULL;
	} else if (sdev->port[qp->port - 1].qp[n] == qp) {
		sdev->port[qp->port - 1].qp[n] = NULL;
	}
	spin_unlock_irqrestore(&sdev->lock, flags);
	kvfree(qp->rq);
#ifndef MCG_HAVE_CREATE_QP_OBJ
	kfree(qp);
#endif
	return 0;
}

/*
 * Before 5.15 (MCG_HAVE_CREATE_QP_OBJ unset) a driver allocated its QP in
 * create_qp() and freed it in destroy_qp(); ib_core fills in the ib_qp's
 * device, PD and the rest after create_qp() returns.
 */
#ifndef MCG_HAVE_CREATE_QP_OBJ
static struct ib_qp *simhca_create_qp_alloc(struct ib_pd *pd,
					    struct ib_qp_init_attr *init,
					    struct ib_udata *udata)
{
	struct simhca_qp *qp = kzalloc(sizeof(*qp), GFP_KERNEL);
	int ret;

	if (!qp)
		return ERR_PTR(-ENOMEM);
	qp->ibqp.device = pd->device;
	ret = simhca_create_qp(&qp->ibqp, init, udata);
	if (ret) {
		kfree(qp);
		return ERR_PTR(ret);
	}
	return &qp->ibqp;
}

#define simhca_create_qp	simhca_create_qp_alloc
#endif

static int simhca_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
			    const struct ib_recv_wr **bad_wr)
{
	struct simhca_qp *qp = container_of(ibqp, struct simhca_qp, ibqp);
	unsigned long flags;
	int ret = 0;

	if (simhca_is_ud(qp) && READ_ONCE(qp->state) == IB_QPS_RESET) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->rq_lock, flags);
	for (; wr; wr = wr->next) {
		struct simhca_recv_wqe *wqe;

		if (wr->num_sge != 1 || qp->rq_count == qp->rq_size) {
			ret = wr->num_sge != 1 ? -EINVAL : -ENOMEM;
			*bad_wr = wr;
			break;
		}
		wqe = &qp->rq[(qp->rq_head + qp->rq_count) % qp->rq_size];
		wqe->wr_id = wr->wr_id;
		wqe->addr = wr->sg_list[0].addr;
		wqe->length = wr->sg_list[0].length;
		qp->rq_count++;
	}
	spin_unlock_irqrestore(&qp->rq_lock, flags);
	if (simhca_is_ud(qp) && READ_ONCE(qp->state) == IB_QPS_ERR)
		simhca_flush_rq(qp);
	return ret;
}

/*
 * A send on a UD QP in RTS: the datagram is copied and queued for the
 * switch; the send completes at once (if signaled), as UD does whether or
 * not anyone receives it.
 */
static int simhca_post_send_ud(struct simhca_qp *qp,
			       const struct ib_send_wr *wr,
			       const struct ib_send_wr **bad_wr)
{
	struct simhca_dev *sdev = to_sdev(qp->ibqp.device);
	struct simhca_cq *scq = container_of(qp->ibqp.send_cq, struct simhca_cq,
					     ibcq);
	unsigned long flags;

	for (; wr; wr = wr->next) {
		const struct ib_ud_wr *ud = ud_wr(wr);
		struct simhca_ah *ah = container_of(ud->ah, struct simhca_ah,
						    ibah);
		const struct ib_global_route *grh;
		struct simhca_port *p;
		struct simhca_dgram *d;
		struct ib_wc wc = {};
		u32 len = 0, off = 0;
		int i;

		for (i = 0; i < wr->num_sge && i < SIMHCA_MAX_SGE; i++)
			len += wr->sg_list[i].length;
		if (wr->opcode != IB_WR_SEND || wr->num_sge > SIMHCA_MAX_SGE ||
		    len > SIMHCA_UD_MTU || READ_ONCE(qp->state) != IB_QPS_RTS) {
			*bad_wr = wr;
			return -EINVAL;
		}
		d = kzalloc(struct_size(d, data, len), GFP_ATOMIC);
		if (!d) {
			*bad_wr = wr;
			return -ENOMEM;
		}
		for (i = 0; i < wr->num_sge; i++) {
			memcpy(d->data + off,
			       (void *)(uintptr_t)wr->sg_list[i].addr,
			       wr->sg_list[i].length);
			off += wr->sg_list[i].length;
		}
		d->len = len;
		d->dst_qpn = ud->remote_qpn;
		d->dlid = rdma_ah_get_dlid(&ah->attr);
		d->sl = rdma_ah_get_sl(&ah->attr);
		if (rdma_ah_get_ah_flags(&ah->attr) & IB_AH_GRH) {
			grh = rdma_ah_read_grh(&ah->attr);
			d->grh = true;
			memcpy(d->dgid, grh->dgid.raw, 16);
		}

		spin_lock_irqsave(&sdev->lock, flags);
		p = &sdev->port[qp->port - 1];
		d->port = qp->port;
		d->slid = READ_ONCE(p->lid);
		simhca_port_gid(sdev, qp->port, d->sgid);
		d->src_qpn = qp->ibqp.qp_num;
		/* IBA 10.2.5: a Q_Key with the high bit set means the QP's */
		d->qkey = (ud->remote_qkey & 0x80000000) ? qp->qkey :
							  ud->remote_qkey;
		d->pkey = READ_ONCE(p->pkeys[qp->pkey_index]);
		if (!sdev->dying) {
			list_add_tail(&d->list, &sdev->to_switch);
			queue_work(sdev->wq, &sdev->switch_work);
			sdev->sw.sent++;
			d = NULL;
		}
		spin_unlock_irqrestore(&sdev->lock, flags);
		kfree(d);

		if (!qp->sq_sig_all && !(wr->send_flags & IB_SEND_SIGNALED))
			continue;
		wc.wr_id = wr->wr_id;
		wc.status = IB_WC_SUCCESS;
		wc.opcode = IB_WC_SEND;
		wc.qp = &qp->ibqp;
		wc.port_num = qp->port;
		simhca_cq_add(scq, &wc);
	}
	return 0;
}

static int simhca_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
			    const struct ib_send_wr **bad_wr)
{
	struct simhca_dev *sdev = to_sdev(ibqp->device);
	struct simhca_qp *qp = container_of(ibqp, struct simhca_qp, ibqp);
	struct simhca_cq *scq = container_of(ibqp->send_cq, struct simhca_cq,
					     ibcq);
	struct simhca_port *p = &sdev->port[qp->port - 1];
	unsigned long flags;

	if (simhca_is_ud(qp))
		return simhca_post_send_ud(qp, wr, bad_wr);

	for (; wr; wr = wr->next) {
		const struct ib_ud_wr *ud = ud_wr(wr);
		struct simhca_ah *ah;
		struct simhca_pkt *pkt = NULL;
		struct ib_wc wc = {};
		u32 off = 0;
		int i;

		if (wr->opcode != IB_WR_SEND || wr->num_sge > SIMHCA_MAX_SGE) {
			*bad_wr = wr;
			return -EINVAL;
		}
		ah = container_of(ud->ah, struct simhca_ah, ibah);
		/*
		 * QP0: every SMP goes to the SMA (sma.c), which routes it;
		 * with an external SM so does every QP1 MAD to a QP1
		 */
		if (ibqp->qp_num == 0 ||
		    (ibqp->qp_num == 1 && !simhca_internal_sa &&
		     ud->remote_qpn == 1))
			simhca_sma_post(sdev, qp->port, ibqp->qp_num, ud);
		else if (ibqp->qp_num == 1 && simhca_internal_sa &&
			 ud->remote_qpn == 1 &&
		    rdma_ah_get_dlid(&ah->attr) == READ_ONCE(sdev->knobs.sm_lid))
			pkt = kzalloc(sizeof(*pkt), GFP_ATOMIC);
		for (i = 0; pkt && i < wr->num_sge; i++) {
			u32 len = wr->sg_list[i].length;

			if (off + len > sizeof(pkt->mad))
				len = sizeof(pkt->mad) - off;
			memcpy(pkt->mad + off,
			       (void *)(uintptr_t)wr->sg_list[i].addr, len);
			off += len;
		}
		if (pkt) {
			/* to the SA of the port's subnet (a fabric's: device 0) */
			struct simhca_dev *sa = simhca_sa_of(sdev);

			pkt->from = sdev;
			pkt->port = qp->port;
			pkt->slid = READ_ONCE(p->lid);
			pkt->pkey_index = ud->pkey_index;
			spin_lock_irqsave(&sa->lock, flags);
			if (!sa->dying) {
				/* in list order: the SA's rate ring needs it */
				pkt->sent = ktime_get();
				list_add_tail(&pkt->list, &sa->to_sa);
				queue_work(sa->wq, &sa->sa_work);
				pkt = NULL;
			}
			spin_unlock_irqrestore(&sa->lock, flags);
			kfree(pkt);
		}

		wc.wr_id = wr->wr_id;
		wc.status = IB_WC_SUCCESS;
		wc.opcode = IB_WC_SEND;
		wc.qp = ibqp;
		wc.port_num = qp->port;
		simhca_cq_add(scq, &wc);
	}
	return 0;
}

/*
 * Deliver one MAD to QP @qpn (0 or 1) of pkt->port as a receive
 * completion: to QP1 on an active port only, to QP0 on any port whose
 * link is up (the SM configures ports in INIT and ARMED through it).
 */
void simhca_deliver_qp(struct simhca_dev *sdev, struct simhca_pkt *pkt,
		       u32 qpn)
{
	enum ib_port_state state = READ_ONCE(sdev->port[pkt->port - 1].state);
	struct simhca_qp *qp;
	struct simhca_recv_wqe wqe;
	struct simhca_cq *rcq;
	struct ib_wc wc = {};
	bool got = false;

	lockdep_assert_held(&sdev->lock);
	qp = sdev->port[pkt->port - 1].qp[qpn];
	if (!qp || state == IB_PORT_DOWN ||
	    (qpn == 1 && state != IB_PORT_ACTIVE))
		return;

	spin_lock(&qp->rq_lock);
	if (qp->rq_count) {
		wqe = qp->rq[qp->rq_head];
		qp->rq_head = (qp->rq_head + 1) % qp->rq_size;
		qp->rq_count--;
		got = true;
	}
	spin_unlock(&qp->rq_lock);
	if (!got) {
		/* ib_mad had not posted receive buffers fast enough */
		if (qpn == 1)
			sdev->answers_rq_empty++;
		return;
	}

	wc.wr_id = wqe.wr_id;
	wc.qp = &qp->ibqp;
	wc.port_num = pkt->port;
	if (wqe.length < sizeof(struct ib_grh) + IB_MGMT_MAD_SIZE) {
		wc.status = IB_WC_LOC_LEN_ERR;
	} else {
		u8 *buf = (u8 *)(uintptr_t)wqe.addr;

		memset(buf, 0, sizeof(struct ib_grh));
		memcpy(buf + sizeof(struct ib_grh), pkt->mad,
		       IB_MGMT_MAD_SIZE);
		wc.status = IB_WC_SUCCESS;
		wc.opcode = IB_WC_RECV;
		wc.byte_len = sizeof(struct ib_grh) + IB_MGMT_MAD_SIZE;
		wc.src_qp = qpn;
		wc.slid = pkt->slid;
		wc.sl = 0;
		wc.pkey_index = pkt->pkey_index;
		wc.dlid_path_bits = 0;
		wc.wc_flags = 0;
	}
	rcq = container_of(qp->ibqp.recv_cq, struct simhca_cq, ibcq);
	simhca_cq_add(rcq, &wc);
}

/* Deliver one MAD to QP1 of pkt->port as a receive completion. */
static void simhca_deliver(struct simhca_dev *sdev, struct simhca_pkt *pkt)
{
	simhca_deliver_qp(sdev, pkt, 1);
}

/* Whether a request with @tid has been answered (recently); under lock. */
static bool simhca_tid_answered(struct simhca_dev *sdev, __be64 tid)
{
	struct simhca_tid *t;

	hash_for_each_possible(sdev->answered_hash, t, node, (__force u64)tid)
		if (t->tid == tid)
			return true;
	return false;
}

/* Remembers @tid, forgetting the oldest when the ring is full; under lock. */
static void simhca_tid_add(struct simhca_dev *sdev, __be64 tid)
{
	struct simhca_tid *t = &sdev->answered[sdev->answered_next];

	if (sdev->answered_count == SIMHCA_TID_RING)
		hash_del(&t->node);
	else
		sdev->answered_count++;
	t->tid = tid;
	hash_add(sdev->answered_hash, &t->node, (__force u64)tid);
	sdev->answered_next = (sdev->answered_next + 1) % SIMHCA_TID_RING;
}

/*
 * Counts @pkt, the first answer to its request (not an RMPP segment after
 * the first), in requests_pending unless a request with its TID has been
 * answered already: the host sent that request again. ib_mad resends a
 * request whose answer it has not had after its timeout (ib_sa's: a tenth
 * of the query's, 300 ms for multicast.c's), with the same TID; when the
 * machine is slow the first answer may well be on its way then, and the
 * SA answers the request twice. requests_pending is what the host has
 * unanswered at the SA, each request once; answers_pending counts every
 * answer queued. A request dropped unanswered (drop_next, ...) and sent
 * again is answered once, and counted. Under lock.
 */
static void simhca_count_request(struct simhca_dev *sdev,
				 struct simhca_pkt *pkt)
{
	__be64 tid = ((const struct ib_mad_hdr *)pkt->mad)->tid;

	if (!pkt->first)
		return;
	if (simhca_tid_answered(sdev, tid)) {
		sdev->answers_resent++;
		return;
	}
	simhca_tid_add(sdev, tid);
	pkt->counted = true;
	if (++sdev->requests_pending > sdev->max_requests_pending)
		sdev->max_requests_pending = sdev->requests_pending;
}

/* Queue a MAD from the SM to the host, sorted by due time. */
void simhca_to_host(struct simhca_dev *sdev, struct simhca_pkt *pkt)
{
	struct simhca_pkt *pos;
	unsigned long flags;

	spin_lock_irqsave(&sdev->lock, flags);
	if (sdev->dying) {
		spin_unlock_irqrestore(&sdev->lock, flags);
		kfree(pkt);
		return;
	}
	list_for_each_entry_reverse(pos, &sdev->to_host, list)
		if (!time_after(pos->due, pkt->due))
			break;
	list_add(&pkt->list, &pos->list);
	if (++sdev->answers_pending > sdev->max_answers_pending)
		sdev->max_answers_pending = sdev->answers_pending;
	simhca_count_request(sdev, pkt);
	if (sdev->to_host.next == &pkt->list) {
		long d = (long)(pkt->due - jiffies);

		mod_delayed_work(sdev->wq, &sdev->host_work, d > 0 ? d : 0);
	}
	spin_unlock_irqrestore(&sdev->lock, flags);
}

void simhca_host_work(struct work_struct *work)
{
	struct simhca_dev *sdev = container_of(to_delayed_work(work),
					       struct simhca_dev, host_work);
	struct simhca_pkt *pkt, *tmp;
	unsigned long flags;
	LIST_HEAD(done);

	spin_lock_irqsave(&sdev->lock, flags);
	list_for_each_entry_safe(pkt, tmp, &sdev->to_host, list) {
		if (time_after(pkt->due, jiffies)) {
			if (!sdev->dying)
				mod_delayed_work(sdev->wq, &sdev->host_work,
						 pkt->due - jiffies);
			break;
		}
		simhca_deliver(sdev, pkt);
		list_move_tail(&pkt->list, &done);
		sdev->answers_pending--;
		if (pkt->counted)
			sdev->requests_pending--;
	}
	spin_unlock_irqrestore(&sdev->lock, flags);

	list_for_each_entry_safe(pkt, tmp, &done, list)
		kfree(pkt);
}

/* --- multicast attach and the switch ------------------------------------ */

static int simhca_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	struct simhca_dev *sdev = to_sdev(ibqp->device);
	struct simhca_qp *qp = container_of(ibqp, struct simhca_qp, ibqp);
	unsigned long flags;
	int ret = 0;
	u32 i;

	spin_lock_irqsave(&sdev->lock, flags);
	for (i = 0; i < qp->nattach; i++)
		if (qp->attach[i].mlid == lid &&
		    !memcmp(qp->attach[i].mgid, gid->raw, 16))
			goto out;
	if (qp->nattach == SIMHCA_MAX_MC_ATTACH) {
		ret = -ENOMEM;
		goto out;
	}
	memcpy(qp->attach[qp->nattach].mgid, gid->raw, 16);
	qp->attach[qp->nattach].mlid = lid;
	qp->nattach++;
out:
	spin_unlock_irqrestore(&sdev->lock, flags);
	return ret;
}

static int simhca_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	struct simhca_dev *sdev = to_sdev(ibqp->device);
	struct simhca_qp *qp = container_of(ibqp, struct simhca_qp, ibqp);
	unsigned long flags;
	int ret = -EINVAL;
	u32 i;

	spin_lock_irqsave(&sdev->lock, flags);
	for (i = 0; i < qp->nattach; i++) {
		if (qp->attach[i].mlid != lid ||
		    memcmp(qp->attach[i].mgid, gid->raw, 16))
			continue;
		qp->attach[i] = qp->attach[--qp->nattach];
		ret = 0;
		break;
	}
	spin_unlock_irqrestore(&sdev->lock, flags);
	return ret;
}

static bool simhca_qp_attached(const struct simhca_qp *qp,
			       const struct simhca_dgram *d)
{
	u32 i;

	for (i = 0; i < qp->nattach; i++)
		if (qp->attach[i].mlid == d->dlid &&
		    !memcmp(qp->attach[i].mgid, d->dgid, 16))
			return true;
	return false;
}

/* One copy of @d to UD QP @qp: a receive completion with the GRH. */
static void simhca_ud_deliver(struct simhca_dev *sdev, struct simhca_qp *qp,
			      const struct simhca_dgram *d)
{
	struct simhca_recv_wqe wqe;
	struct simhca_cq *rcq;
	struct ib_wc wc = {};
	bool got = false;
	u16 pkey;

	lockdep_assert_held(&sdev->lock);
	if (qp->qkey != d->qkey) {
		sdev->sw.drop_qkey++;
		return;
	}
	/* IBA 10.9.3: the same partition, and not two limited members */
	pkey = READ_ONCE(sdev->port[qp->port - 1].pkeys[qp->pkey_index]);
	if ((pkey & 0x7fff) != (d->pkey & 0x7fff) ||
	    !((pkey | d->pkey) & 0x8000)) {
		sdev->sw.drop_pkey++;
		return;
	}
	spin_lock(&qp->rq_lock);
	if (qp->rq_count) {
		wqe = qp->rq[qp->rq_head];
		qp->rq_head = (qp->rq_head + 1) % qp->rq_size;
		qp->rq_count--;
		got = true;
	}
	spin_unlock(&qp->rq_lock);
	if (!got) {
		sdev->sw.drop_rq_empty++;
		return;
	}

	wc.wr_id = wqe.wr_id;
	wc.qp = &qp->ibqp;
	wc.port_num = qp->port;
	if (wqe.length < sizeof(struct ib_grh) + d->len) {
		wc.status = IB_WC_LOC_LEN_ERR;
	} else {
		struct ib_grh *grh = (struct ib_grh *)(uintptr_t)wqe.addr;

		/* the first 40 bytes: the GRH if it came with one */
		memset(grh, 0, sizeof(*grh));
		if (d->grh) {
			grh->version_tclass_flow = cpu_to_be32(6 << 28);
			grh->paylen = cpu_to_be16(d->len);
			grh->next_hdr = 0x1b;
			grh->hop_limit = 0;
			memcpy(grh->sgid.raw, d->sgid, 16);
			memcpy(grh->dgid.raw, d->dgid, 16);
			wc.wc_flags = IB_WC_GRH;
		}
		memcpy(grh + 1, d->data, d->len);
		wc.status = IB_WC_SUCCESS;
		wc.opcode = IB_WC_RECV;
		wc.byte_len = sizeof(*grh) + d->len;
		wc.src_qp = d->src_qpn;
		wc.slid = d->slid;
		wc.sl = d->sl;
		wc.pkey_index = qp->pkey_index;
		sdev->sw.delivered++;
	}
	rcq = container_of(qp->ibqp.recv_cq, struct simhca_cq, ibcq);
	simhca_cq_add(rcq, &wc);
}

/*
 * Unicast: the switch forwards @d to the port whose LID is its DLID (with
 * an external SM, the LID the SM gave it; a port's own LID loops back),
 * where the UD QP with the destination QPN, in RTR or RTS, receives it if
 * the Q_Key and P_Key match. The GRH only if the sender's AH had one.
 */
static void simhca_switch_unicast(struct simhca_dev *sdev,
				  const struct simhca_dgram *d)
{
	u32 i, q, n;

	lockdep_assert_held(&sdev->lock);
	sdev->sw.unicast++;
	for (i = 0; i < sdev->nports; i++) {
		struct simhca_port *p = &sdev->port[i];

		n = 1U << READ_ONCE(p->lmc);
		if (p->lid && d->dlid >= p->lid && d->dlid < p->lid + n)
			break;
	}
	if (i == sdev->nports) {
		sdev->sw.drop_unicast++;
		return;
	}
	if (READ_ONCE(sdev->port[i].state) != IB_PORT_ACTIVE) {
		sdev->sw.drop_port_down++;
		return;
	}
	for (q = 0; q < SIMHCA_MAX_UD_QP; q++) {
		struct simhca_qp *qp = sdev->ud[q];

		if (!qp || qp->port != i + 1 ||
		    qp->ibqp.qp_num != d->dst_qpn)
			continue;
		if (qp->state != IB_QPS_RTR && qp->state != IB_QPS_RTS)
			break;
		simhca_ud_deliver(sdev, qp, d);
		return;
	}
	sdev->sw.drop_unicast++;
}

/*
 * The switch: forward @d to every port the MFT lists for its MLID but the
 * one it came from; there every UD QP in RTR/RTS attached to (MGID, MLID)
 * gets a copy.
 */
static void simhca_switch_one(struct simhca_dev *sdev,
			      const struct simhca_dgram *d)
{
	u32 i, q, hits;
	u8 ports;

	lockdep_assert_held(&sdev->lock);
	if (d->dlid < SIMHCA_MLID_BASE || d->dlid > SIMHCA_MLID_MAX) {
		simhca_switch_unicast(sdev, d);
		return;
	}
	if (!d->grh) {
		sdev->sw.drop_no_grh++;
		return;
	}
	ports = sdev->mft ? sdev->mft[d->dlid - SIMHCA_MLID_BASE] : 0;
	if (!ports) {
		sdev->sw.drop_no_mft++;
		return;
	}
	for (i = 0; i < sdev->nports; i++) {
		if (!(ports & BIT(i)) || i + 1 == d->port)
			continue;
		if (READ_ONCE(sdev->port[i].state) != IB_PORT_ACTIVE) {
			sdev->sw.drop_port_down++;
			continue;
		}
		hits = 0;
		for (q = 0; q < SIMHCA_MAX_UD_QP; q++) {
			struct simhca_qp *qp = sdev->ud[q];

			if (!qp || qp->port != i + 1 ||
			    (qp->state != IB_QPS_RTR && qp->state != IB_QPS_RTS) ||
			    !simhca_qp_attached(qp, d))
				continue;
			hits++;
			simhca_ud_deliver(sdev, qp, d);
		}
		if (!hits)
			sdev->sw.drop_no_qp++;
	}
}

void simhca_switch_work(struct work_struct *work)
{
	struct simhca_dev *sdev = container_of(work, struct simhca_dev,
					       switch_work);
	struct simhca_dgram *d, *tmp;
	unsigned long flags;
	LIST_HEAD(todo);

	spin_lock_irqsave(&sdev->lock, flags);
	list_splice_init(&sdev->to_switch, &todo);
	spin_unlock_irqrestore(&sdev->lock, flags);

	list_for_each_entry_safe(d, tmp, &todo, list) {
		spin_lock_irqsave(&sdev->lock, flags);
		simhca_switch_one(sdev, d);
		spin_unlock_irqrestore(&sdev->lock, flags);
		kfree(d);
	}
}

void simhca_switch_stats(struct simhca_dev *sdev, struct seq_file *m)
{
	struct simhca_switch_stats st;
	unsigned long flags;

	spin_lock_irqsave(&sdev->lock, flags);
	st = sdev->sw;
	spin_unlock_irqrestore(&sdev->lock, flags);
	seq_printf(m, "ud_sent %llu\n", st.sent);
	seq_printf(m, "ud_delivered %llu\n", st.delivered);
	seq_printf(m, "ud_drop_no_mft %llu\n", st.drop_no_mft);
	seq_printf(m, "ud_drop_no_qp %llu\n", st.drop_no_qp);
	seq_printf(m, "ud_drop_port_down %llu\n", st.drop_port_down);
	seq_printf(m, "ud_drop_qkey %llu\n", st.drop_qkey);
	seq_printf(m, "ud_drop_pkey %llu\n", st.drop_pkey);
	seq_printf(m, "ud_drop_rq_empty %llu\n", st.drop_rq_empty);
	seq_printf(m, "ud_drop_no_grh %llu\n", st.drop_no_grh);
	seq_printf(m, "ud_unicast %llu\n", st.unicast);
	seq_printf(m, "ud_drop_unicast %llu\n", st.drop_unicast);
	seq_printf(m, "mft_programs %llu\n", st.mft_programs);
	seq_printf(m, "sm_ah_creates %llu\n", st.sm_ah_creates);
	seq_printf(m, "sm_ah_fails %llu\n", st.sm_ah_fails);
}

void simhca_switch_stats_reset(struct simhca_dev *sdev)
{
	unsigned long flags;

	spin_lock_irqsave(&sdev->lock, flags);
	memset(&sdev->sw, 0, sizeof(sdev->sw));
	spin_unlock_irqrestore(&sdev->lock, flags);
}

/* "mlid=0xc000 ports=1,2" for every MLID the MFT forwards */
void simhca_mft_dump(struct simhca_dev *sdev, struct seq_file *m)
{
	unsigned long flags;
	u8 *copy;
	u32 i, p;

	copy = kvzalloc(SIMHCA_MLID_NUM, GFP_KERNEL);
	if (!copy)
		return;
	spin_lock_irqsave(&sdev->lock, flags);
	if (sdev->mft)
		memcpy(copy, sdev->mft, SIMHCA_MLID_NUM);
	spin_unlock_irqrestore(&sdev->lock, flags);
	for (i = 0; i < SIMHCA_MLID_NUM; i++) {
		const char *sep = "";

		if (!copy[i])
			continue;
		seq_printf(m, "mlid=0x%04x ports=", SIMHCA_MLID_BASE + i);
		for (p = 0; p < SIMHCA_MAX_PORTS; p++) {
			if (copy[i] & BIT(p)) {
				seq_printf(m, "%s%u", sep, p + 1);
				sep = ",";
			}
		}
		seq_putc(m, '\n');
	}
	kvfree(copy);
}

/*
 * Moving a device to another network namespace (exclusive mode, "rdma dev
 * set simhca0 netns NS") needs this op, which must end every user context
 * of the device; without alloc_ucontext simhca never has one.
 */
static void simhca_disassociate_ucontext(struct ib_ucontext *ibcontext)
{
}

const struct ib_device_ops simhca_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,

	.alloc_pd = simhca_alloc_pd,
	.attach_mcast = simhca_attach_mcast,
	.create_ah = simhca_create_ah,
	.create_cq = simhca_create_cq,
	.create_qp = simhca_create_qp,
	.dealloc_pd = simhca_dealloc_pd,
	.dereg_mr = simhca_dereg_mr,
	.destroy_ah = simhca_destroy_ah,
	.destroy_cq = simhca_destroy_cq,
	.destroy_qp = simhca_destroy_qp,
	.detach_mcast = simhca_detach_mcast,
	.disassociate_ucontext = simhca_disassociate_ucontext,
	.get_dma_mr = simhca_get_dma_mr,
	.get_port_immutable = simhca_get_port_immutable,
	.modify_port = simhca_modify_port,
	.modify_qp = simhca_modify_qp,
	.poll_cq = simhca_poll_cq,
	.post_recv = simhca_post_recv,
	.post_send = simhca_post_send,
	.query_ah = simhca_query_ah,
	.query_device = simhca_query_device,
	.query_gid = simhca_query_gid,
	.query_pkey = simhca_query_pkey,
	.query_port = simhca_query_port,
	.query_qp = simhca_query_qp,
	.reg_user_mr = simhca_reg_user_mr,
	.req_notify_cq = simhca_req_notify_cq,

	INIT_RDMA_OBJ_SIZE(ib_ah, simhca_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, simhca_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_pd, simhca_pd, ibpd),
#ifdef MCG_HAVE_CREATE_QP_OBJ
	INIT_RDMA_OBJ_SIZE(ib_qp, simhca_qp, ibqp),
#endif
};
