// SPDX-License-Identifier: GPL-2.0
/*
 * The ib_client: devices and ports as they come and go, IB events, and the
 * choice of a join backend per port.
 *
 * A device is visible to netlink (on mcg_devices) only between the end of
 * add() and the start of remove(), so requests never see a half-built or
 * half-removed device. remove() releases every group before the backend
 * lets go of the port, and cancels the port's work only after nothing can
 * queue it again (the IB event handler is unregistered and the backend has
 * unlinked the port from its notifier's list).
 */
#include <linux/slab.h>
#include <net/net_namespace.h>

#include "ib_mcgroups.h"

/* Protects devices, ports, groups and holders: see ib_mcgroups.h. */
DEFINE_MUTEX(mcg_lock);
LIST_HEAD(mcg_devices);
bool mcg_unloading;

static int none_check(struct mcg_port *port, const struct mcg_join_req *req,
		      struct netlink_ext_ack *extack)
{
	NL_SET_ERR_MSG(extack,
		       "port has no multicast join backend (neither RoCE nor InfiniBand with SA multicast)");
	return -EOPNOTSUPP;
}

static int none_update(struct mcg_group *g, u8 join_state,
		       struct netlink_ext_ack *extack)
{
	return join_state ? -EOPNOTSUPP : 0;
}

static int none_port_init(struct mcg_port *port)
{
	return 0;
}

static void none_port_fini(struct mcg_port *port)
{
}

const struct mcg_backend_ops mcg_none_backend = {
	.id		= IB_MCG_BACKEND_NONE,
	.name		= "none",
	.port_init	= none_port_init,
	.port_fini	= none_port_fini,
	.check		= none_check,
	.update		= none_update,
	.group_cache	= &mcg_group_cache,
	.local_qkey	= true,
};

static const struct mcg_backend_ops *pick_backend(struct ib_device *ibdev,
						  mcg_ib_port_t port_num)
{
	if (rdma_protocol_roce(ibdev, port_num))
		return &mcg_roce_backend;
	if (rdma_cap_ib_mcast(ibdev, port_num))
		return &mcg_ib_backend;
	return &mcg_none_backend;
}

/**
 * mcg_port_get() - a device's port by its number
 * @dev: the device
 * @port_num: the port number, as the RDMA core numbers ports
 *
 * Takes no reference: the port lives as long as @dev is on mcg_devices.
 *
 * Context: under mcg_lock, or from @dev's IB event handler, which is
 * unregistered before @dev is freed.
 * Return: the port, or NULL if @dev has no port @port_num.
 */
struct mcg_port *mcg_port_get(struct mcg_device *dev, u32 port_num)
{
	u32 first = rdma_start_port(dev->ibdev);

	if (port_num < first || port_num - first >= dev->nports)
		return NULL;
	return dev->ports[port_num - first];
}

/**
 * mcg_port_next() - walk every port of every device on mcg_devices
 * @port: the port before, or NULL for the first one
 *
 * for (port = mcg_port_next(NULL); port; port = mcg_port_next(port))
 * visits the ports of each device in port order, the devices in
 * mcg_devices' order.
 *
 * Context: under mcg_lock, held across the walk.
 * Return: the port after @port, or NULL after the last one.
 */
struct mcg_port *mcg_port_next(struct mcg_port *port)
{
	struct mcg_device *dev;
	u32 i = 0;

	lockdep_assert_held(&mcg_lock);
	if (port) {
		dev = port->dev;
		i = port->port_num - rdma_start_port(dev->ibdev) + 1;
	} else {
		dev = list_first_entry(&mcg_devices, struct mcg_device, node);
	}
	for (; &dev->node != &mcg_devices;
	     dev = list_next_entry(dev, node), i = 0) {
		if (i < dev->nports)
			return dev->ports[i];
	}
	return NULL;
}

/**
 * mcg_device_find() - look a device up by name or by index
 * @name: the ib_device's name, if @by_name
 * @by_name: look up by @name, else by @index
 * @index: the ib_device's index, if not @by_name
 *
 * Context: under mcg_lock.
 * Return: the device, or NULL if there is none.
 */
struct mcg_device *mcg_device_find(const char *name, bool by_name, u32 index)
{
	struct mcg_device *dev;

	list_for_each_entry(dev, &mcg_devices, node) {
		if (by_name ? !strcmp(dev_name(&dev->ibdev->dev), name) :
			      dev->ibdev->index == index)
			return dev;
	}
	return NULL;
}

/**
 * mcg_device_visible() - whether the family's users may see a device
 * @dev: the device
 *
 * The family lives in the initial network namespace only (it is not
 * netnsok). In the RDMA subsystem's exclusive netns mode a device moved to
 * another namespace is not reachable from there - ib_core removed it from
 * every client and added it again in its new namespace - and so neither
 * listed nor joinable, as "rdma dev" does not show it; in shared mode
 * every device is.
 *
 * Context: under mcg_lock (ib_core changes a device's namespace only
 * between our remove() and add()).
 * Return: true if @dev can be reached from the initial namespace.
 */
bool mcg_device_visible(const struct mcg_device *dev)
{
	return rdma_dev_access_netns(dev->ibdev, &init_net);
}

static void port_resync_work(struct work_struct *work)
{
	struct mcg_port *port = container_of(work, struct mcg_port,
					     resync_work);

	mutex_lock(&mcg_lock);
	if (!port->dead)
		mcg_port_resync(port);
	mutex_unlock(&mcg_lock);
}

/* Called from the IB core's event work; never blocks on our locks. */
static void mcg_ib_event(struct ib_event_handler *handler,
			 struct ib_event *event)
{
	struct mcg_device *dev = container_of(handler, struct mcg_device,
					      event_handler);
	struct mcg_port *port;

	switch (event->event) {
	case IB_EVENT_PORT_ACTIVE:
	case IB_EVENT_PORT_ERR:
	case IB_EVENT_GID_CHANGE:
	case IB_EVENT_LID_CHANGE:
	case IB_EVENT_PKEY_CHANGE:
	case IB_EVENT_CLIENT_REREGISTER:
		port = mcg_port_get(dev, event->element.port_num);
		if (!port)
			break;
		/* For the backend's refresh(), which runs in resync_work. */
		set_bit(event->event, &port->ib.events);
		queue_work(mcg_wq, &port->resync_work);
		break;
	default:
		break;
	}
}

static void device_insert(struct mcg_device *dev)
{
	struct mcg_device *cur;

	list_for_each_entry(cur, &mcg_devices, node)
		if (cur->ibdev->index > dev->ibdev->index)
			break;
	list_add_tail(&dev->node, &cur->node);
}

/*
 * Also add()'s error path, where nothing marked the ports dead yet: a
 * resync queued by a netdev event before port_fini() unlinked the port
 * would otherwise run after it and take a netdev reference (RoCE refresh)
 * that nobody drops. Dead ports' work does nothing.
 */
static void device_free_ports(struct mcg_device *dev)
{
	u32 i;

	mutex_lock(&mcg_lock);
	for (i = 0; i < dev->nports; i++)
		if (dev->ports[i])
			dev->ports[i]->dead = true;
	mutex_unlock(&mcg_lock);

	for (i = 0; i < dev->nports; i++) {
		struct mcg_port *port = dev->ports[i];

		if (!port)
			continue;
		port->backend->port_fini(port);
		cancel_work_sync(&port->resync_work);
		cancel_delayed_work_sync(&port->linger_work);
		mcg_port_put(port);
	}
	mcg_sysfs_del_device(dev);
	kfree(dev);
}

static struct ib_client mcg_client;

static int mcg_add_one(struct ib_device *ibdev)
{
	u32 nports = rdma_end_port(ibdev) - rdma_start_port(ibdev) + 1;
	struct mcg_device *dev;
	u32 p;
	int err;

	dev = kzalloc(struct_size(dev, ports, nports), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	dev->ibdev = ibdev;
	dev->nports = nports;
	err = mcg_sysfs_add_device(dev);
	if (err)
		goto err_free;

	rdma_for_each_port(ibdev, p) {
		struct mcg_port *port = kzalloc(sizeof(*port), GFP_KERNEL);

		if (!port) {
			err = -ENOMEM;
			goto err_ports;
		}
		port->dev = dev;
		port->port_num = p;
		port->groups = RB_ROOT;
		INIT_LIST_HEAD(&port->unkeyed);
		port->backend = pick_backend(ibdev, p);
		INIT_WORK(&port->resync_work, port_resync_work);
		INIT_DELAYED_WORK(&port->linger_work, mcg_linger_work);
		err = mcg_sysfs_add_port(port);
		if (err)
			goto err_ports;	/* the kobject release freed it */
		err = port->backend->port_init(port);
		if (err) {
			port->backend = &mcg_none_backend;
			mcg_port_put(port);
			goto err_ports;
		}
		dev->ports[p - rdma_start_port(ibdev)] = port;
	}

	INIT_IB_EVENT_HANDLER(&dev->event_handler, ibdev, mcg_ib_event);
	ib_register_event_handler(&dev->event_handler);
	ib_set_client_data(ibdev, &mcg_client, dev);

	mutex_lock(&mcg_lock);
	device_insert(dev);
	mutex_unlock(&mcg_lock);
	return 0;

err_ports:
	device_free_ports(dev);
	return err;
err_free:
	kfree(dev);
	return err;
}

MCG_IB_CLIENT_ADD_WRAPPER(mcg_add_one);

static void mcg_remove_one(struct ib_device *ibdev, void *client_data)
{
	struct mcg_device *dev = client_data;
	u32 i;

	if (!dev)	/* add failed (kernels before 5.8 still call us) */
		return;
	ib_unregister_event_handler(&dev->event_handler);

	mutex_lock(&mcg_lock);
	list_del(&dev->node);
	for (i = 0; i < dev->nports; i++) {
		dev->ports[i]->dead = true;
		mcg_port_release_all(dev->ports[i],
				     READ_ONCE(mcg_unloading) ?
				     IB_MCG_REASON_UNLOAD :
				     IB_MCG_REASON_DEVICE_REMOVED);
	}
	mcg_generation++;
	mutex_unlock(&mcg_lock);

	device_free_ports(dev);
}

static void mcg_rename(struct ib_device *ibdev, void *client_data)
{
	struct mcg_device *dev = client_data;

	/*
	 * As in remove: before 5.8 a failed add() (void, see compat.h)
	 * leaves the device registered for us with NULL client data.
	 */
	if (!dev)
		return;
	mutex_lock(&mcg_lock);
	mcg_sysfs_rename_device(dev);
	mutex_unlock(&mcg_lock);
}

static struct ib_client mcg_client = {
	.name	= "ib_mcgroups",
	.add	= MCG_IB_CLIENT_ADD(mcg_add_one),
	.remove	= mcg_remove_one,
	.rename	= mcg_rename,
};

/**
 * mcg_device_init() - start the backends and the RDMA client
 *
 * Sets up the RoCE and InfiniBand backends, then registers the ib_client,
 * whose add() creates an mcg_device for every RDMA device, present or
 * later. Undoes what it did on failure.
 *
 * Context: process context, may sleep; mcg_lock not held (add() takes
 * it).
 * Return: 0, or the error of the step that failed.
 */
int mcg_device_init(void)
{
	int err;

	err = mcg_roce_init();
	if (err)
		return err;
	err = mcg_ib_init();
	if (err)
		goto err_roce;
	err = ib_register_client(&mcg_client);
	if (err)
		goto err_ib;
	return 0;

err_ib:
	mcg_ib_exit();
err_roce:
	mcg_roce_exit();
	return err;
}

/**
 * mcg_device_exit() - stop the RDMA client and the backends
 *
 * Sets mcg_unloading, then unregisters the ib_client: its remove()
 * releases every port's groups and frees every device. The backends go
 * last.
 *
 * Context: process context, may sleep; mcg_lock not held.
 */
void mcg_device_exit(void)
{
	WRITE_ONCE(mcg_unloading, true);
	ib_unregister_client(&mcg_client);
	mcg_ib_exit();
	mcg_roce_exit();
}
