// SPDX-License-Identifier: GPL-2.0
/*
 * simhca's UD test helper: debugfs <dev>/ud drives one UD QP per port of
 * the device through the ordinary kernel verbs (ib_create_qp,
 * ib_modify_qp, ib_attach_mcast, ib_post_send/recv, ib_poll_cq), as a
 * kernel consumer would. It never talks to the SA: a receiver only
 * attaches, whether its port is a member is up to whoever joins.
 *
 * Write one command:
 *   attach PORT MGID MLID        attach PORT's QP to the group
 *   detach PORT MGID MLID
 *   send PORT MGID MLID COUNT    send COUNT datagrams from PORT's QP to
 *                                MGID/MLID; returns once the switch has
 *                                forwarded (or dropped) all of them
 *   clear                        zero the counters
 * Read: per port with a QP, "port N qpn Q received R bad B", after taking
 * every completion: R counts the helper's datagrams received intact, B
 * anything else (error completions, foreign or damaged datagrams).
 *
 * The QP is created on first use and lives until the module is unloaded;
 * its receive queue is kept full. Everything under udh.lock.
 */
#include <linux/inet.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "simhca.h"

#define UDH_RQ		256
#define UDH_PAYLOAD	64
#define UDH_BUF		(sizeof(struct ib_grh) + 256)
#define UDH_QKEY	0x0053494d
#define UDH_MAGIC	"simhca-ud"

void simhca_udh_init(struct simhca_dev *sdev)
{
	mutex_init(&sdev->udh.lock);
}

static int udh_post_recv(struct simhca_udh_port *u, u32 i)
{
	struct ib_sge sge = {
		.addr = (uintptr_t)(u->bufs + i * UDH_BUF),
		.length = UDH_BUF,
		.lkey = u->qp->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = {
		.wr_id = i,
		.sg_list = &sge,
		.num_sge = 1,
	};

	return ib_post_recv(u->qp, &wr, NULL);
}

/*
 * Each attachment holds a use count of the QP (ib_attach_mcast()): detach
 * from what the QP is attached to, then destroy it.
 */
static void udh_port_free(struct simhca_udh_port *u)
{
	if (u->qp) {
		struct simhca_dev *sdev = to_sdev(u->qp->device);
		struct simhca_qp *qp = container_of(u->qp, struct simhca_qp,
						    ibqp);
		union ib_gid mgid;
		unsigned long flags;
		bool more;
		u16 mlid = 0;

		for (;;) {
			spin_lock_irqsave(&sdev->lock, flags);
			more = qp->nattach;
			if (more) {
				memcpy(mgid.raw, qp->attach[0].mgid, 16);
				mlid = qp->attach[0].mlid;
			}
			spin_unlock_irqrestore(&sdev->lock, flags);
			if (!more || ib_detach_mcast(u->qp, &mgid, mlid))
				break;
		}
		ib_destroy_qp(u->qp);
	}
	if (u->cq)
		ib_destroy_cq(u->cq);
	kvfree(u->bufs);
	memset(u, 0, sizeof(*u));
}

/* PORT's QP, created in RTS with a full receive queue on first use. */
static struct simhca_udh_port *udh_port(struct simhca_dev *sdev, u32 port)
{
	struct simhca_udh *h = &sdev->udh;
	struct simhca_udh_port *u = &h->port[port - 1];
	struct ib_cq_init_attr cqa = { .cqe = 2 * UDH_RQ };
	struct ib_qp_init_attr init = {};
	struct ib_qp_attr attr = {};
	int ret;
	u32 i;

	lockdep_assert_held(&h->lock);
	if (u->qp)
		return u;
	if (!h->pd) {
		h->pd = ib_alloc_pd(&sdev->ibdev, 0);
		if (IS_ERR(h->pd)) {
			ret = PTR_ERR(h->pd);
			h->pd = NULL;
			return ERR_PTR(ret);
		}
	}
	u->bufs = kvcalloc(UDH_RQ, UDH_BUF, GFP_KERNEL);
	if (!u->bufs)
		return ERR_PTR(-ENOMEM);
	u->cq = ib_create_cq(&sdev->ibdev, NULL, NULL, NULL, &cqa);
	if (IS_ERR(u->cq)) {
		ret = PTR_ERR(u->cq);
		u->cq = NULL;
		goto err;
	}
	init.qp_type = IB_QPT_UD;
	init.send_cq = u->cq;
	init.recv_cq = u->cq;
	init.sq_sig_type = IB_SIGNAL_REQ_WR;
	init.cap.max_send_wr = 64;
	init.cap.max_recv_wr = UDH_RQ;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;
	u->qp = ib_create_qp(h->pd, &init);
	if (IS_ERR(u->qp)) {
		ret = PTR_ERR(u->qp);
		u->qp = NULL;
		goto err;
	}

	attr.qp_state = IB_QPS_INIT;
	attr.pkey_index = 0;
	attr.port_num = port;
	attr.qkey = UDH_QKEY;
	ret = ib_modify_qp(u->qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_QKEY);
	if (ret)
		goto err;
	attr.qp_state = IB_QPS_RTR;
	ret = ib_modify_qp(u->qp, &attr, IB_QP_STATE);
	if (ret)
		goto err;
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 0;
	ret = ib_modify_qp(u->qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN);
	if (ret)
		goto err;
	for (i = 0; i < UDH_RQ; i++) {
		ret = udh_post_recv(u, i);
		if (ret)
			goto err;
	}
	return u;

err:
	udh_port_free(u);
	return ERR_PTR(ret);
}

/* Take every completion of PORT's QP, count it, refill the receive queue. */
static void udh_poll(struct simhca_udh_port *u)
{
	struct ib_wc wc[16];
	int n, i;

	if (!u->qp)
		return;
	while ((n = ib_poll_cq(u->cq, ARRAY_SIZE(wc), wc)) > 0) {
		for (i = 0; i < n; i++) {
			const u8 *buf;

			if (wc[i].opcode != IB_WC_RECV && wc[i].status == IB_WC_SUCCESS)
				continue;	/* a signaled send: not ours */
			if (wc[i].wr_id >= UDH_RQ) {
				u->bad++;
				continue;
			}
			buf = u->bufs + wc[i].wr_id * UDH_BUF;
			if (wc[i].status == IB_WC_SUCCESS &&
			    (wc[i].wc_flags & IB_WC_GRH) &&
			    wc[i].byte_len == sizeof(struct ib_grh) + UDH_PAYLOAD &&
			    !memcmp(buf + sizeof(struct ib_grh), UDH_MAGIC,
				    sizeof(UDH_MAGIC)))
				u->received++;
			else
				u->bad++;
			udh_post_recv(u, wc[i].wr_id);
		}
	}
}

static int udh_send(struct simhca_dev *sdev, struct simhca_udh_port *u,
		    u32 port, union ib_gid *mgid, u16 mlid, u32 count)
{
	struct rdma_ah_attr aa = {};
	struct ib_ud_wr wr = {};
	struct ib_sge sge;
	struct ib_ah *ah;
	u8 *payload;
	int ret = 0;
	u32 i;

	payload = kzalloc(UDH_PAYLOAD, GFP_KERNEL);
	if (!payload)
		return -ENOMEM;
	aa.type = rdma_ah_find_type(&sdev->ibdev, port);
	rdma_ah_set_dlid(&aa, mlid);
	rdma_ah_set_port_num(&aa, port);
	rdma_ah_set_grh(&aa, mgid, 0, 0, 1, 0);
	ah = rdma_create_ah(u->qp->pd, &aa, RDMA_CREATE_AH_SLEEPABLE);
	if (IS_ERR(ah)) {
		kfree(payload);
		return PTR_ERR(ah);
	}

	memcpy(payload, UDH_MAGIC, sizeof(UDH_MAGIC));
	sge.addr = (uintptr_t)payload;
	sge.length = UDH_PAYLOAD;
	sge.lkey = u->qp->pd->local_dma_lkey;
	wr.wr.opcode = IB_WR_SEND;
	wr.wr.sg_list = &sge;
	wr.wr.num_sge = 1;
	wr.ah = ah;
	wr.remote_qpn = 0xffffff;	/* the multicast QPN */
	wr.remote_qkey = UDH_QKEY;
	/* the switch copies the payload at post time: one buffer will do */
	for (i = 0; i < count && !ret; i++) {
		wr.wr.wr_id = sdev->udh.seq++;
		ret = ib_post_send(u->qp, &wr.wr, NULL);
	}
	/* every datagram has passed the switch when this returns */
	flush_work(&sdev->switch_work);
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	kfree(payload);
	return ret;
}

static ssize_t udh_cmd(struct simhca_dev *sdev, const char __user *ubuf,
		       size_t count)
{
	struct simhca_udh *h = &sdev->udh;
	struct simhca_udh_port *u;
	char buf[128], cmd[16], gidstr[64];
	union ib_gid mgid;
	u32 port = 0, mlid = 0, n = 0, i;
	int args, ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	args = sscanf(buf, "%15s %u %63s %i %u", cmd, &port, gidstr, &mlid, &n);
	if (args < 1)
		return -EINVAL;

	mutex_lock(&h->lock);
	if (!strcmp(cmd, "clear") && args == 1) {
		for (i = 0; i < SIMHCA_MAX_PORTS; i++) {
			udh_poll(&h->port[i]);
			h->port[i].received = 0;
			h->port[i].bad = 0;
		}
		ret = count;
		goto out;
	}
	ret = -EINVAL;
	if (args < 4 || !port || port > sdev->nports ||
	    !in6_pton(gidstr, -1, mgid.raw, -1, NULL) ||
	    mlid < SIMHCA_MLID_BASE || mlid > SIMHCA_MLID_MAX)
		goto out;
	u = udh_port(sdev, port);
	if (IS_ERR(u)) {
		ret = PTR_ERR(u);
		goto out;
	}
	if (!strcmp(cmd, "attach") && args == 4)
		ret = ib_attach_mcast(u->qp, &mgid, mlid);
	else if (!strcmp(cmd, "detach") && args == 4)
		ret = ib_detach_mcast(u->qp, &mgid, mlid);
	else if (!strcmp(cmd, "send") && args == 5 && n <= 100000)
		ret = udh_send(sdev, u, port, &mgid, mlid, n);
	else
		goto out;
	mutex_unlock(&h->lock);
	return ret ? ret : count;
out:
	mutex_unlock(&h->lock);
	if (ret == -EINVAL)
		pr_err("simhca: ud: write \"attach|detach PORT MGID MLID\", \"send PORT MGID MLID COUNT\" or \"clear\"\n");
	return ret;
}

static int udh_show(struct seq_file *s, void *unused)
{
	struct simhca_dev *sdev = s->private;
	struct simhca_udh *h = &sdev->udh;
	u32 i;

	mutex_lock(&h->lock);
	for (i = 0; i < SIMHCA_MAX_PORTS; i++) {
		struct simhca_udh_port *u = &h->port[i];

		if (!u->qp)
			continue;
		udh_poll(u);
		seq_printf(s, "port %u qpn 0x%x received %llu bad %llu\n", i + 1,
			   u->qp->qp_num, u->received, u->bad);
	}
	mutex_unlock(&h->lock);
	return 0;
}

static int udh_open(struct inode *inode, struct file *file)
{
	return single_open(file, udh_show, inode->i_private);
}

static ssize_t udh_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	struct seq_file *s = file->private_data;

	return udh_cmd(s->private, ubuf, count);
}

const struct file_operations simhca_udh_fops = {
	.open = udh_open,
	.read = seq_read,
	.write = udh_write,
	.llseek = seq_lseek,
	.release = single_release,
	.owner = THIS_MODULE,
};

void simhca_udh_fini(struct simhca_dev *sdev)
{
	struct simhca_udh *h = &sdev->udh;
	u32 i;

	mutex_lock(&h->lock);
	for (i = 0; i < SIMHCA_MAX_PORTS; i++)
		udh_port_free(&h->port[i]);
	if (h->pd)
		ib_dealloc_pd(h->pd);
	h->pd = NULL;
	mutex_unlock(&h->lock);
	mutex_destroy(&h->lock);
}
