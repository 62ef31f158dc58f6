// SPDX-License-Identifier: GPL-2.0
/*
 * MCG_HAVE_GENL_MCAST_CAP_NET_ADMIN: a generic netlink multicast group can
 * require CAP_NET_ADMIN of its listeners (6.7, backported to 6.1.y).
 */
#include <linux/build_bug.h>
#include <net/genetlink.h>

static_assert(GENL_MCAST_CAP_NET_ADMIN != 0 &&
	      __builtin_types_compatible_p(typeof(((struct genl_multicast_group *)0)->flags),
					   u8),
	      "no GENL_MCAST_CAP_NET_ADMIN");
