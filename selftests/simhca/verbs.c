// SPDX-License-Identifier: GPL-2.0
/*
 * simhca verbs: just enough of a UD-only HCA for ib_mad's QP0/QP1.
 *
 * Software DMA: SGE addresses are kernel virtual addresses. A send on QP1
 * to the SM LID is queued for the simulated SA; every other send completes
 * and is dropped. Answers come back through simhca_to_host() as receive
 * completions on QP1, from a workqueue.
 */
#include <linux/slab.h>
#include <linux/jiffies.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

#include "compat_autoconf.h"
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
	attr->kernel_cap_flags = IBK_LOCAL_DMA_LKEY;
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
	return 0;
}

static int simhca_query_port(struct ib_device *ibdev, u32 port_num,
			     struct ib_port_attr *attr)
{
	struct simhca_dev *sdev = to_sdev(ibdev);
	struct simhca_port *p = &sdev->port[port_num - 1];
	bool up = READ_ONCE(p->state) == IB_PORT_ACTIVE;

	attr->state = up ? IB_PORT_ACTIVE : IB_PORT_DOWN;
	attr->phys_state = up ? IB_PORT_PHYS_STATE_LINK_UP :
				IB_PORT_PHYS_STATE_POLLING;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = IB_MTU_4096;
	attr->gid_tbl_len = SIMHCA_GID_TBL_LEN;
	attr->port_cap_flags = IB_PORT_CM_SUP | IB_PORT_CLIENT_REG_SUP |
			       IB_PORT_SYS_IMAGE_GUID_SUP;
	attr->max_msg_sz = 0x80000000;
	attr->pkey_tbl_len = SIMHCA_PKEY_TBL_LEN;
	attr->lid = READ_ONCE(p->lid);
	attr->sm_lid = READ_ONCE(sdev->knobs.sm_lid);
	attr->lmc = 0;
	attr->max_vl_num = 4;
	attr->sm_sl = 0;
	attr->subnet_timeout = 18;
	attr->active_width = IB_WIDTH_4X;
	attr->active_speed = IB_SPEED_EDR;
	attr->subnet_prefix = SIMHCA_SUBNET_PREFIX;
	return 0;
}

static int simhca_get_port_immutable(struct ib_device *ibdev, u32 port_num,
				     struct ib_port_immutable *immutable)
{
	immutable->pkey_tbl_len = SIMHCA_PKEY_TBL_LEN;
	immutable->gid_tbl_len = SIMHCA_GID_TBL_LEN;
	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_IB;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static int simhca_query_pkey(struct ib_device *ibdev, u32 port_num, u16 index,
			     u16 *pkey)
{
	struct simhca_dev *sdev = to_sdev(ibdev);

	if (index >= SIMHCA_PKEY_TBL_LEN)
		return -EINVAL;
	*pkey = READ_ONCE(sdev->port[port_num - 1].pkeys[index]);
	return 0;
}

static int simhca_query_gid(struct ib_device *ibdev, u32 port_num, int index,
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

static int simhca_create_ah(struct ib_ah *ibah,
			    struct rdma_ah_init_attr *init_attr,
			    struct ib_udata *udata)
{
	struct simhca_ah *ah = container_of(ibah, struct simhca_ah, ibah);

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

static struct ib_mr *simhca_reg_user_mr(struct ib_pd *ibpd, u64 start,
					u64 length, u64 virt_addr, int access,
					struct ib_udata *udata)
{
	return ERR_PTR(-EOPNOTSUPP);
}

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
	else
		return -EOPNOTSUPP;
	if (!init->port_num || init->port_num > sdev->nports)
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
	qp->port = init->port_num;
	qp->state = IB_QPS_RESET;
	ibqp->qp_num = idx;

	spin_lock_irqsave(&sdev->lock, flags);
	if (sdev->port[qp->port - 1].qp[idx])
		ret = -EBUSY;
	else
		sdev->port[qp->port - 1].qp[idx] = qp;
	spin_unlock_irqrestore(&sdev->lock, flags);
	if (ret)
		kvfree(qp->rq);
	return ret;
}

static int simhca_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			    int mask, struct ib_udata *udata)
{
	struct simhca_qp *qp = container_of(ibqp, struct simhca_qp, ibqp);

	if (mask & IB_QP_STATE)
		WRITE_ONCE(qp->state, attr->qp_state);
	return 0;
}

static int simhca_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			   int mask, struct ib_qp_init_attr *init)
{
	struct simhca_qp *qp = container_of(ibqp, struct simhca_qp, ibqp);

	memset(attr, 0, sizeof(*attr));
	attr->qp_state = READ_ONCE(qp->state);
	attr->cur_qp_state = attr->qp_state;
	attr->port_num = qp->port;
	attr->qkey = IB_QP1_QKEY;
	attr->cap.max_recv_wr = qp->rq_size;
	memset(init, 0, sizeof(*init));
	init->qp_type = ibqp->qp_type;
	init->port_num = qp->port;
	init->cap = attr->cap;
	return 0;
}

static int simhca_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct simhca_dev *sdev = to_sdev(ibqp->device);
	struct simhca_qp *qp = container_of(ibqp, struct simhca_qp, ibqp);
	struct simhca_port *p = &sdev->port[qp->port - 1];
	unsigned long flags;

	/* After this no delivery can find the QP (or its CQs) any more. */
	spin_lock_irqsave(&sdev->lock, flags);
	if (p->qp[ibqp->qp_num] == qp)
		p->qp[ibqp->qp_num] = NULL;
	spin_unlock_irqrestore(&sdev->lock, flags);
	kvfree(qp->rq);
	return 0;
}

static int simhca_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
			    const struct ib_recv_wr **bad_wr)
{
	struct simhca_qp *qp = container_of(ibqp, struct simhca_qp, ibqp);
	unsigned long flags;
	int ret = 0;

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
	return ret;
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
		if (ibqp->qp_num == 1 && ud->remote_qpn == 1 &&
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
			pkt->port = qp->port;
			pkt->slid = READ_ONCE(p->lid);
			pkt->pkey_index = ud->pkey_index;
			spin_lock_irqsave(&sdev->lock, flags);
			if (!sdev->dying) {
				list_add_tail(&pkt->list, &sdev->to_sa);
				queue_work(sdev->wq, &sdev->sa_work);
				pkt = NULL;
			}
			spin_unlock_irqrestore(&sdev->lock, flags);
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

/* Deliver one MAD to QP1 of pkt->port as a receive completion. */
static void simhca_deliver(struct simhca_dev *sdev, struct simhca_pkt *pkt)
{
	struct simhca_qp *qp;
	struct simhca_recv_wqe wqe;
	struct simhca_cq *rcq;
	struct ib_wc wc = {};
	bool got = false;

	lockdep_assert_held(&sdev->lock);
	qp = sdev->port[pkt->port - 1].qp[1];
	if (!qp || READ_ONCE(sdev->port[pkt->port - 1].state) != IB_PORT_ACTIVE)
		return;

	spin_lock(&qp->rq_lock);
	if (qp->rq_count) {
		wqe = qp->rq[qp->rq_head];
		qp->rq_head = (qp->rq_head + 1) % qp->rq_size;
		qp->rq_count--;
		got = true;
	}
	spin_unlock(&qp->rq_lock);
	if (!got)
		return;

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
		wc.src_qp = 1;
		wc.slid = pkt->slid;
		wc.sl = 0;
		wc.pkey_index = pkt->pkey_index;
		wc.dlid_path_bits = 0;
		wc.wc_flags = 0;
	}
	rcq = container_of(qp->ibqp.recv_cq, struct simhca_cq, ibcq);
	simhca_cq_add(rcq, &wc);
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
	}
	spin_unlock_irqrestore(&sdev->lock, flags);

	list_for_each_entry_safe(pkt, tmp, &done, list)
		kfree(pkt);
}

const struct ib_device_ops simhca_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,

	.alloc_pd = simhca_alloc_pd,
	.create_ah = simhca_create_ah,
	.create_cq = simhca_create_cq,
	.create_qp = simhca_create_qp,
	.dealloc_pd = simhca_dealloc_pd,
	.dereg_mr = simhca_dereg_mr,
	.destroy_ah = simhca_destroy_ah,
	.destroy_cq = simhca_destroy_cq,
	.destroy_qp = simhca_destroy_qp,
	.get_dma_mr = simhca_get_dma_mr,
	.get_port_immutable = simhca_get_port_immutable,
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
	INIT_RDMA_OBJ_SIZE(ib_qp, simhca_qp, ibqp),
};
