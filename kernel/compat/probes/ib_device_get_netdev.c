// SPDX-License-Identifier: GPL-2.0
/*
 * MCG_HAVE_IB_DEVICE_GET_NETDEV: ib_device_get_netdev() is exported and
 * declared in <rdma/ib_verbs.h> (by 6.12; before, private to ib_core): the
 * netdev a RoCE driver bound to a port, with a reference held.
 */
#include <linux/build_bug.h>
#include <rdma/ib_verbs.h>

static_assert(__builtin_types_compatible_p(typeof(ib_device_get_netdev),
					   struct net_device *(struct ib_device *, u32)),
	      "no exported ib_device_get_netdev(ib_device, u32 port)");
