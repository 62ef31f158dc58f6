// SPDX-License-Identifier: GPL-2.0
/*
 * MCG_HAVE_GENL_SPLIT_OPS: generic netlink split ops (6.2): a family's
 * split_ops are struct genl_split_ops, one per do (GENL_CMD_CAP_DO) and one
 * per dump (GENL_CMD_CAP_DUMP) of a command, each with its own policy.
 */
#include <linux/build_bug.h>
#include <net/genetlink.h>

static_assert(__builtin_types_compatible_p(typeof(((struct genl_family *)0)->split_ops),
					   const struct genl_split_ops *),
	      "genl_family has no split_ops");
static_assert(sizeof(((struct genl_family *)0)->n_split_ops) > 0,
	      "genl_family has no n_split_ops");
static_assert(__builtin_types_compatible_p(typeof(((struct genl_split_ops *)0)->doit),
					   int (*)(struct sk_buff *, struct genl_info *)),
	      "genl_split_ops has no doit");
static_assert(__builtin_types_compatible_p(typeof(((struct genl_split_ops *)0)->dumpit),
					   int (*)(struct sk_buff *, struct netlink_callback *)),
	      "genl_split_ops has no dumpit");
static_assert(__builtin_types_compatible_p(typeof(((struct genl_split_ops *)0)->policy),
					   const struct nla_policy *),
	      "genl_split_ops has no policy");
static_assert((GENL_CMD_CAP_DO | GENL_CMD_CAP_DUMP) != 0 &&
	      sizeof(((struct genl_split_ops *)0)->flags) > 0,
	      "genl_split_ops has no GENL_CMD_CAP_* flags");
