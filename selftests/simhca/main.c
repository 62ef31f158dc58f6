// SPDX-License-Identifier: GPL-2.0
/*
 * simhca: a simulated InfiniBand HCA whose fabric is a simulated SM/SA,
 * steered through debugfs (/sys/kernel/debug/simhca/). Test-only.
 */
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "simhca.h"

static unsigned int ndevs = 1;
module_param(ndevs, uint, 0444);
MODULE_PARM_DESC(ndevs, "number of devices (1-4, default 1; 1-64 with fabric=Y)");

static unsigned int nports = 1;
module_param(nports, uint, 0444);
MODULE_PARM_DESC(nports, "ports per device (1-2, default 1)");

static unsigned int sm_lid;
module_param(sm_lid, uint, 0444);
MODULE_PARM_DESC(sm_lid, "initial SM LID (default: the LID after the last port's)");

unsigned int simhca_max_mcast_grp;
module_param_named(max_mcast_grp, simhca_max_mcast_grp, uint, 0444);
MODULE_PARM_DESC(max_mcast_grp,
		 "the multicast table size each device reports (max_mcast_grp; 0, the default: every MLID the SA can assign)");

bool simhca_internal_sa = true;
module_param_named(internal_sa, simhca_internal_sa, bool, 0444);
MODULE_PARM_DESC(internal_sa,
		 "Y (default): simhca's own SM/SA answers on QP1, the ports are ACTIVE with LIDs 1..nports; N: the ports come up in INIT with no LID, the SA is off, and an SM run on a port (OpenSM) configures the fabric through the SMA");

bool simhca_ipoib_bcast;
module_param_named(ipoib_bcast, simhca_ipoib_bcast, bool, 0444);
MODULE_PARM_DESC(ipoib_bcast,
		 "Y: the internal SA creates IPoIB's broadcast group ff12:401b:ffff::ffff:ffff (Q_Key 0x0b1b, MTU 2048, rate 10 Gb/s, P_Key 0xffff) at load and after every wipe, as OpenSM does; N (default): it starts empty");

bool simhca_fabric;
module_param_named(fabric, simhca_fabric, bool, 0444);
MODULE_PARM_DESC(fabric,
		 "Y: the devices are one subnet: device 0's SA serves every port, LIDs are numbered across the devices, client_reregister on any device is the whole fabric's (a fleet of nodes sharing one SM; only device 0's switch forwards datagrams); N (default): each device is a subnet of its own. Needs internal_sa=Y");

/* the member slots of a group: the most ports one SA serves */
unsigned int simhca_sa_slots;

/*
 * The devices by index; device 0 is made first and destroyed last. In a
 * fabric, device 0's SA looks every device's ports up here under its
 * sa.lock, and the reregister of the fabric walks them under
 * simhca_devs_lock: an entry is set before its device is registered and
 * cleared before it is unregistered, under both (simhca_devs_set()); the
 * reregister only raises events on a device while it is registered
 * (simhca_dev.registered, under simhca_devs_lock).
 */
static struct simhca_dev *simhca_devs[SIMHCA_FABRIC_MAX_DEVS];
static DEFINE_MUTEX(simhca_devs_lock);

static void simhca_devs_set(u32 index, struct simhca_dev *sdev)
{
	struct simhca_dev *sa = simhca_devs[0];

	mutex_lock(&simhca_devs_lock);
	if (simhca_fabric && index && sa)
		mutex_lock(&sa->sa.lock);
	WRITE_ONCE(simhca_devs[index], sdev);
	if (simhca_fabric && index && sa)
		mutex_unlock(&sa->sa.lock);
	mutex_unlock(&simhca_devs_lock);
}

/* The device whose SA serves @sdev's ports: itself, or in a fabric device 0. */
struct simhca_dev *simhca_sa_of(struct simhca_dev *sdev)
{
	return simhca_fabric ? READ_ONCE(simhca_devs[0]) : sdev;
}

/* How many devices an SA serves (simhca_sa_dev()'s indexes): 1, or ndevs. */
u32 simhca_sa_ndevs(void)
{
	return simhca_fabric ? ndevs : 1;
}

/*
 * The @i-th device whose ports @sa_dev's SA serves (NULL: none now).
 * Context: @sa_dev's sa.lock held.
 */
struct simhca_dev *simhca_sa_dev(struct simhca_dev *sa_dev, u32 i)
{
	lockdep_assert_held(&sa_dev->sa.lock);
	/* device 0's SA serves its own ports, in the table or not yet */
	if (!simhca_fabric || !i)
		return i ? NULL : sa_dev;
	return i < ndevs ? simhca_devs[i] : NULL;
}

/*
 * A port @sa_dev's SA serves, by GUID (BASE + device index << 4 + port,
 * simhca_port_guid()). Context: @sa_dev's sa.lock held.
 */
struct simhca_port *simhca_port_by_guid(struct simhca_dev *sa_dev,
					__be64 guid)
{
	u64 v = be64_to_cpu(guid) - SIMHCA_GUID_BASE;
	struct simhca_dev *d;
	u32 port = v & 0xf;

	if (be64_to_cpu(guid) < SIMHCA_GUID_BASE ||
	    v >> 4 >= SIMHCA_FABRIC_MAX_DEVS)
		return NULL;
	if (simhca_fabric)
		d = simhca_sa_dev(sa_dev, v >> 4);
	else
		d = v >> 4 == sa_dev->index ? sa_dev : NULL;
	if (!d || !port || port > d->nports)
		return NULL;
	return &d->port[port - 1];
}

/*
 * client_reregister: a new master SM. Its SA (device 0's in a fabric) is
 * wiped if reregister_wipe and starts its first sweep, and every active
 * port it serves gets CLIENT_REREGISTER, one device after the other
 * (ib_core queues the events: they reach the clients together).
 */
void simhca_fabric_reregister(struct simhca_dev *sdev)
{
	struct simhca_dev *sa = simhca_sa_of(sdev);
	u32 i, p;

	simhca_sa_start_sweep(sa);
	mutex_lock(&simhca_devs_lock);
	for (i = 0; i < simhca_sa_ndevs(); i++) {
		struct simhca_dev *d = simhca_fabric ? simhca_devs[i] : sdev;

		/* not one that is not (or no longer) registered */
		if (!d || !d->registered)
			continue;
		for (p = 0; p < d->nports; p++)
			if (READ_ONCE(d->port[p].state) == IB_PORT_ACTIVE)
				simhca_dispatch(d, p + 1,
						IB_EVENT_CLIENT_REREGISTER);
	}
	mutex_unlock(&simhca_devs_lock);
}

/*
 * In a fabric, device 0's SA may hold requests of @sdev (not device 0),
 * which is going: nothing of it may be left there once it is freed. It
 * is unregistered and dying, so it posts no more; its requests still
 * queued are dropped, a run of the SA that took some is waited for, and
 * its RMPP sends are ended.
 */
static void simhca_fabric_forget(struct simhca_dev *sdev)
{
	struct simhca_dev *sa = simhca_devs[0];
	struct simhca_pkt *pkt, *tmp;
	unsigned long flags;
	LIST_HEAD(gone);

	spin_lock_irqsave(&sa->lock, flags);
	list_for_each_entry_safe(pkt, tmp, &sa->to_sa, list)
		if (pkt->from == sdev)
			list_move_tail(&pkt->list, &gone);
	spin_unlock_irqrestore(&sa->lock, flags);
	flush_work(&sa->sa_work);
	simhca_sa_forget(sa, sdev);
	list_for_each_entry_safe(pkt, tmp, &gone, list)
		kfree(pkt);
}

void simhca_port_gid(struct simhca_dev *sdev, u32 port, u8 *gid)
{
	__be64 prefix = cpu_to_be64(SIMHCA_SUBNET_PREFIX);
	__be64 guid = simhca_port_guid(sdev, port);

	memcpy(gid, &prefix, 8);
	memcpy(gid + 8, &guid, 8);
}

/* Partition membership ignores the full/limited member bit. */
bool simhca_port_has_pkey(struct simhca_port *p, u16 pkey)
{
	int i;

	if (!(pkey & 0x7fff))
		return false;
	for (i = 0; i < SIMHCA_PKEY_TBL_LEN; i++) {
		u16 k = READ_ONCE(p->pkeys[i]);

		if ((k & 0x7fff) && (k & 0x7fff) == (pkey & 0x7fff))
			return true;
	}
	return false;
}

void simhca_dispatch(struct simhca_dev *sdev, u32 port,
		     enum ib_event_type type)
{
	struct ib_event ev = {
		.device = &sdev->ibdev,
		.element.port_num = port,
		.event = type,
	};

	ib_dispatch_event(&ev);
}

/*
 * simhca's own event handler: counts the events ib_core delivers for this
 * device, for the tests (stats). It is registered
 * after ib_register_device(), so after ib_sa's and before those of the
 * clients loaded later: with event_delay_ms it sleeps first, as a slow
 * handler between them would, and multicast.c reports the lost groups to
 * such a client before it hears of the event itself. Handlers run in
 * ib_wq's work, where sleeping is allowed.
 */
static void simhca_event(struct ib_event_handler *h, struct ib_event *ev)
{
	struct simhca_dev *sdev = container_of(h, struct simhca_dev,
					       event_handler);
	unsigned int delay = READ_ONCE(sdev->knobs.event_delay_ms);

	if (ev->event > IB_EVENT_GID_CHANGE)
		return;
	if (delay)
		msleep(delay);
	mutex_lock(&sdev->sa.lock);
	sdev->sa.events[ev->event]++;
	mutex_unlock(&sdev->sa.lock);
}

static struct simhca_dev *simhca_dev_create(u32 index)
{
	struct simhca_dev *sdev;
	u32 i;
	int ret;

	sdev = ib_alloc_device(simhca_dev, ibdev);
	if (!sdev)
		return ERR_PTR(-ENOMEM);

	sdev->index = index;
	sdev->nports = nports;
	spin_lock_init(&sdev->lock);
	INIT_LIST_HEAD(&sdev->to_sa);
	INIT_LIST_HEAD(&sdev->to_host);
	INIT_LIST_HEAD(&sdev->to_switch);
	INIT_WORK(&sdev->sa_work, simhca_sa_work);
	INIT_DELAYED_WORK(&sdev->host_work, simhca_host_work);
	INIT_WORK(&sdev->switch_work, simhca_switch_work);
	INIT_DELAYED_WORK(&sdev->mft_work, simhca_mft_work);
	simhca_udh_init(sdev);
	for (i = 0; i < nports; i++) {
		struct simhca_port *p = &sdev->port[i];

		p->sdev = sdev;
		p->num = i + 1;
		p->state = simhca_internal_sa ? IB_PORT_ACTIVE : IB_PORT_INIT;
		/* LIDs 1..nports, or in a fabric numbered across the devices */
		p->lid = simhca_internal_sa ?
			 (simhca_fabric ? index * nports : 0) + i + 1 : 0;
		p->pkeys[0] = 0xffff;
		p->cap_mask = IB_PORT_CM_SUP | IB_PORT_CLIENT_REG_SUP |
			      IB_PORT_SYS_IMAGE_GUID_SUP;
	}
	sdev->knobs.sm_lid = sm_lid ? sm_lid :
			     (simhca_fabric ? ndevs : 1) * nports + 1;
	sdev->knobs.reregister_wipe = true;
	sdev->knobs.fail_status = SIMHCA_SA_ERR_NO_RESOURCES;
	sdev->knobs.mlid_capacity = SIMHCA_MLID_MAX - SIMHCA_MLID_BASE + 1;
	sdev->knobs.switch_info = true;
	sdev->knobs.sa_key = 1;
	ret = simhca_sma_init(sdev);
	if (ret)
		goto err_sma;
	ret = simhca_sa_init(sdev);
	if (ret)
		goto err_sa;

	sdev->wq = alloc_ordered_workqueue("simhca%u", 0, index);
	if (!sdev->wq) {
		ret = -ENOMEM;
		goto err_dealloc;
	}

	ib_set_device_ops(&sdev->ibdev, &simhca_dev_ops);
	if (!simhca_internal_sa)
		ib_set_device_ops(&sdev->ibdev, &simhca_sma_ops);
	sdev->ibdev.node_type = RDMA_NODE_IB_CA;
	sdev->ibdev.phys_port_cnt = nports;
	sdev->ibdev.num_comp_vectors = 1;
	sdev->ibdev.node_guid = cpu_to_be64(SIMHCA_GUID_BASE + (index << 4));
	snprintf(sdev->ibdev.node_desc, sizeof(sdev->ibdev.node_desc),
		 "simhca%u simulated HCA", index);

	/* in the table before its QP1 may post (registration's ib_sa) */
	simhca_devs_set(index, sdev);
	ret = ib_register_device(&sdev->ibdev, "simhca%d", NULL);
	if (ret)
		goto err_wq;
	mutex_lock(&simhca_devs_lock);
	sdev->registered = true;
	mutex_unlock(&simhca_devs_lock);

	INIT_IB_EVENT_HANDLER(&sdev->event_handler, &sdev->ibdev, simhca_event);
	ib_register_event_handler(&sdev->event_handler);
	simhca_debugfs_add(sdev);
	return sdev;

err_wq:
	simhca_devs_set(index, NULL);
	destroy_workqueue(sdev->wq);
err_dealloc:
	simhca_sa_fini(sdev);
err_sa:
	simhca_sma_fini(sdev);
err_sma:
	mutex_destroy(&sdev->udh.lock);
	ib_dealloc_device(&sdev->ibdev);
	return ERR_PTR(ret);
}

static void simhca_dev_destroy(struct simhca_dev *sdev)
{
	struct simhca_pkt *pkt, *tmp;
	struct simhca_dgram *d, *dtmp;
	unsigned long flags;
	LIST_HEAD(left);

	simhca_debugfs_del(sdev);
	/* the test helper's QPs, before ib_core tears the device down */
	simhca_udh_fini(sdev);
	ib_unregister_event_handler(&sdev->event_handler);
	mutex_lock(&simhca_devs_lock);
	sdev->registered = false;
	mutex_unlock(&simhca_devs_lock);
	/* device 0's entry stays while it may post: it is its own SA's */
	if (sdev->index)
		simhca_devs_set(sdev->index, NULL);
	ib_unregister_device(&sdev->ibdev);

	/*
	 * Nothing queues work once dying is set (all queueing checks it
	 * under sdev->lock), so the cancels below are final.
	 */
	spin_lock_irqsave(&sdev->lock, flags);
	sdev->dying = true;
	spin_unlock_irqrestore(&sdev->lock, flags);
	cancel_work_sync(&sdev->sa_work);
	cancel_delayed_work_sync(&sdev->host_work);
	cancel_work_sync(&sdev->switch_work);
	cancel_delayed_work_sync(&sdev->mft_work);
	cancel_work_sync(&sdev->sma_work);
	cancel_delayed_work_sync(&sdev->swi.trap_work);
	destroy_workqueue(sdev->wq);
	if (simhca_fabric && sdev->index)
		simhca_fabric_forget(sdev);
	if (!sdev->index)
		simhca_devs_set(0, NULL);

	list_splice_init(&sdev->to_sa, &left);
	list_splice_init(&sdev->to_sma, &left);
	list_splice_init(&sdev->to_host, &left);
	list_for_each_entry_safe(pkt, tmp, &left, list)
		kfree(pkt);
	list_for_each_entry_safe(d, dtmp, &sdev->to_switch, list)
		kfree(d);
	kvfree(sdev->mft);
	simhca_sa_fini(sdev);
	simhca_sma_fini(sdev);
	ib_dealloc_device(&sdev->ibdev);
}

static int __init simhca_init(void)
{
	u32 i;

	if (!ndevs ||
	    ndevs > (simhca_fabric ? SIMHCA_FABRIC_MAX_DEVS : SIMHCA_MAX_DEVS) ||
	    !nports || nports > SIMHCA_MAX_PORTS ||
	    sm_lid > 0xbfff || (simhca_fabric && !simhca_internal_sa)) {
		pr_err("simhca: ndevs must be 1-%d (1-%d with fabric=Y), nports 1-%d, sm_lid < 0xc000; fabric=Y needs internal_sa=Y\n",
		       SIMHCA_MAX_DEVS, SIMHCA_FABRIC_MAX_DEVS,
		       SIMHCA_MAX_PORTS);
		return -EINVAL;
	}
	simhca_sa_slots = simhca_fabric ? ndevs * nports : SIMHCA_MAX_PORTS;

	if (simhca_sa_module_init())
		return -ENOMEM;
	simhca_debugfs_init();
	for (i = 0; i < ndevs; i++) {
		struct simhca_dev *sdev = simhca_dev_create(i);

		if (IS_ERR(sdev)) {
			while (i--)
				simhca_dev_destroy(simhca_devs[i]);
			simhca_debugfs_fini();
			simhca_sa_module_exit();
			return PTR_ERR(sdev);
		}
	}
	return 0;
}

static void __exit simhca_exit(void)
{
	u32 i;

	for (i = ndevs; i--;)
		simhca_dev_destroy(simhca_devs[i]);
	simhca_debugfs_fini();
	simhca_sa_module_exit();
}

module_init(simhca_init);
module_exit(simhca_exit);

MODULE_DESCRIPTION("Simulated InfiniBand HCA and subnet manager (test only)");
MODULE_LICENSE("GPL");
