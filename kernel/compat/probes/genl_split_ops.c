// SPDX-License-Identifier: GPL-2.0
/*
 * MCG_HAVE_GENL_SPLIT_OPS: generic netlink split ops, struct genl_split_ops
 * and genl_family.split_ops (6.2).
 */
#include <linux/build_bug.h>
#include <net/genetlink.h>

static_assert(__builtin_types_compatible_p(typeof(((struct genl_family *)0)->split_ops),
					   const struct genl_split_ops *),
	      "genl_family has no split_ops");
static_assert(sizeof(((struct genl_split_ops *)0)->doit) ==
	      sizeof(int (*)(struct sk_buff *, struct genl_info *)),
	      "genl_split_ops has no doit");
