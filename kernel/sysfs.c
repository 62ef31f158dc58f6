// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/ib_mcgroups/<device>/<port>/: one value per file, for
 * monitoring (Documentation/ABI/testing/sysfs-kernel-ib_mcgroups).
 *
 * The port's kobject owns the port: its release frees the mcg_port, so a
 * reader that still has a file open keeps the memory valid until it is
 * done. Values are read without mcg_lock: counters are atomic64, and the
 * group and holder counts are single words.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "ib_mcgroups.h"

static struct kobject *mcg_root;

#define to_port(k) container_of(k, struct mcg_port, kobj)

static ssize_t groups_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(to_port(kobj)->ngroups));
}

static ssize_t holders_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(to_port(kobj)->nholders));
}

static ssize_t joins_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%lld\n", atomic64_read(&to_port(kobj)->joins));
}

static ssize_t leaves_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%lld\n", atomic64_read(&to_port(kobj)->leaves));
}

static ssize_t join_errors_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&to_port(kobj)->join_errors));
}

static ssize_t linger_hits_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&to_port(kobj)->linger_hits));
}

static ssize_t linger_expired_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&to_port(kobj)->linger_expired));
}

/* InfiniBand re-join counters; 0 on ports of other backends. */
static ssize_t sm_reregisters_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&to_port(kobj)->ib.sm_reregisters));
}

static ssize_t rejoin_waves_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&to_port(kobj)->ib.rejoin_waves));
}

static ssize_t group_rejoins_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&to_port(kobj)->ib.group_rejoins));
}

static ssize_t rejoin_failures_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&to_port(kobj)->ib.rejoin_failures));
}

static ssize_t sa_timeouts_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&to_port(kobj)->ib.sa_timeouts));
}

static ssize_t mlid_changes_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&to_port(kobj)->ib.mlid_changes));
}

static ssize_t last_sm_lid_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(to_port(kobj)->ib.last_sm_lid));
}

static ssize_t last_rejoin_wave_ms_show(struct kobject *kobj,
					struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  READ_ONCE(to_port(kobj)->ib.last_wave_ms));
}

static struct kobj_attribute sm_reregisters_attr = __ATTR_RO(sm_reregisters);
static struct kobj_attribute rejoin_waves_attr = __ATTR_RO(rejoin_waves);
static struct kobj_attribute group_rejoins_attr = __ATTR_RO(group_rejoins);
static struct kobj_attribute rejoin_failures_attr = __ATTR_RO(rejoin_failures);
static struct kobj_attribute sa_timeouts_attr = __ATTR_RO(sa_timeouts);
static struct kobj_attribute mlid_changes_attr = __ATTR_RO(mlid_changes);
static struct kobj_attribute last_sm_lid_attr = __ATTR_RO(last_sm_lid);
static struct kobj_attribute last_rejoin_wave_ms_attr =
	__ATTR_RO(last_rejoin_wave_ms);

static ssize_t backend_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", to_port(kobj)->backend->name);
}

static struct kobj_attribute groups_attr = __ATTR_RO(groups);
static struct kobj_attribute holders_attr = __ATTR_RO(holders);
static struct kobj_attribute backend_attr = __ATTR_RO(backend);
static struct kobj_attribute joins_attr = __ATTR_RO(joins);
static struct kobj_attribute leaves_attr = __ATTR_RO(leaves);
static struct kobj_attribute join_errors_attr = __ATTR_RO(join_errors);
static struct kobj_attribute linger_hits_attr = __ATTR_RO(linger_hits);
static struct kobj_attribute linger_expired_attr = __ATTR_RO(linger_expired);

static struct attribute *mcg_port_attrs[] = {
	&groups_attr.attr,
	&holders_attr.attr,
	&joins_attr.attr,
	&leaves_attr.attr,
	&join_errors_attr.attr,
	&linger_hits_attr.attr,
	&linger_expired_attr.attr,
	&backend_attr.attr,
	&sm_reregisters_attr.attr,
	&rejoin_waves_attr.attr,
	&group_rejoins_attr.attr,
	&rejoin_failures_attr.attr,
	&sa_timeouts_attr.attr,
	&mlid_changes_attr.attr,
	&last_sm_lid_attr.attr,
	&last_rejoin_wave_ms_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(mcg_port);

static void mcg_port_release(struct kobject *kobj)
{
	kfree(to_port(kobj));
}

static const struct kobj_type mcg_port_ktype = {
	.release	= mcg_port_release,
	.sysfs_ops	= &kobj_sysfs_ops,
	.default_groups	= mcg_port_groups,
};

/**
 * mcg_sysfs_add_device() - create /sys/kernel/ib_mcgroups/<dev>
 * @dev: the device, named after its ib_device
 *
 * Context: process context (ib_client add()), may sleep.
 * Return: 0, or -ENOMEM.
 */
int mcg_sysfs_add_device(struct mcg_device *dev)
{
	dev->kobj = kobject_create_and_add(dev_name(&dev->ibdev->dev),
					   mcg_root);
	return dev->kobj ? 0 : -ENOMEM;
}

/**
 * mcg_sysfs_add_port() - create the port's directory <dev>/<port>
 * @port: the port; its kobject's release frees it
 *
 * On failure the port has been freed.
 *
 * Context: process context (ib_client add()), may sleep.
 * Return: 0, or the error of kobject_init_and_add().
 */
int mcg_sysfs_add_port(struct mcg_port *port)
{
	int err;

	err = kobject_init_and_add(&port->kobj, MCG_KTYPE(&mcg_port_ktype),
				   port->dev->kobj, "%u", port->port_num);
	if (err)
		kobject_put(&port->kobj);
	return err;
}

/**
 * mcg_port_put() - remove the port's directory and drop its reference
 * @port: the port, freed by its kobject's release once sysfs readers are
 *        done with it
 *
 * Context: process context, may sleep; mcg_lock not held.
 */
void mcg_port_put(struct mcg_port *port)
{
	kobject_del(&port->kobj);
	kobject_put(&port->kobj);
}

/**
 * mcg_sysfs_del_device() - remove the device's directory
 * @dev: the device, whose ports' directories are gone already
 *
 * Context: process context, may sleep.
 */
void mcg_sysfs_del_device(struct mcg_device *dev)
{
	kobject_put(dev->kobj);
}

/**
 * mcg_sysfs_rename_device() - follow a rename of the ib_device
 * @dev: the device, whose ib_device has its new name
 *
 * A failure is logged and leaves the old name.
 *
 * Context: process context (ib_client rename()), under mcg_lock; may
 * sleep.
 */
void mcg_sysfs_rename_device(struct mcg_device *dev)
{
	if (kobject_rename(dev->kobj, dev_name(&dev->ibdev->dev)))
		pr_warn("%s: could not rename sysfs directory\n",
			dev_name(&dev->ibdev->dev));
}

/**
 * mcg_sysfs_init() - create /sys/kernel/ib_mcgroups
 *
 * Context: process context (module init), may sleep.
 * Return: 0, or -ENOMEM.
 */
int mcg_sysfs_init(void)
{
	mcg_root = kobject_create_and_add("ib_mcgroups", kernel_kobj);
	return mcg_root ? 0 : -ENOMEM;
}

/**
 * mcg_sysfs_exit() - remove /sys/kernel/ib_mcgroups
 *
 * Context: process context (module exit), may sleep; after every device
 * is gone.
 */
void mcg_sysfs_exit(void)
{
	kobject_put(mcg_root);
}
