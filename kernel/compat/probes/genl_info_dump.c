// SPDX-License-Identifier: GPL-2.0
/*
 * MCG_HAVE_GENL_INFO_DUMP: a dump's request is a struct genl_info, reached
 * with genl_info_dump() (6.6; before, genl_dumpit_info(cb)->attrs).
 */
#include <linux/build_bug.h>
#include <net/genetlink.h>

static_assert(__builtin_types_compatible_p(typeof(genl_info_dump),
					   const struct genl_info *(struct netlink_callback *)),
	      "no genl_info_dump()");
