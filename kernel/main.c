// SPDX-License-Identifier: GPL-2.0
/*
 * ib_mcgroups: persistent, refcounted InfiniBand and RoCE multicast group
 * memberships, held in the kernel on behalf of named owners.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <net/genetlink.h>

#include "ib_mcgroups.h"
#include "version.h"

struct workqueue_struct *mcg_wq;

static int __init mcg_init(void)
{
	int err;

	err = mcg_cache_init();
	if (err)
		return err;
	mcg_wq = alloc_ordered_workqueue("ib_mcgroups", 0);
	if (!mcg_wq) {
		err = -ENOMEM;
		goto err_cache;
	}
	err = mcg_sysfs_init();
	if (err)
		goto err_wq;
	mcg_debugfs_init();
	err = mcg_netlink_init();
	if (err)
		goto err_debugfs;
	/* Last: from here on devices appear and requests can hold groups. */
	err = mcg_device_init();
	if (err)
		goto err_netlink;
	pr_info("version %s loaded\n", IB_MCG_VERSION);
	return 0;

err_netlink:
	mcg_netlink_exit();
err_debugfs:
	mcg_debugfs_exit();
	mcg_sysfs_exit();
err_wq:
	destroy_workqueue(mcg_wq);
err_cache:
	mcg_cache_exit();
	return err;
}

static void __exit mcg_exit(void)
{
	/* Releases every group (with notifications) before netlink goes. */
	mcg_device_exit();
	mcg_netlink_exit();
	mcg_debugfs_exit();
	mcg_sysfs_exit();
	destroy_workqueue(mcg_wq);
	mcg_cache_exit();
}

module_init(mcg_init);
module_exit(mcg_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Persistent InfiniBand/RoCE multicast group memberships");
MODULE_AUTHOR("ib_mcgroups developers");
MODULE_VERSION(IB_MCG_VERSION);
MODULE_ALIAS_GENL_FAMILY(IB_MCG_GENL_NAME);
