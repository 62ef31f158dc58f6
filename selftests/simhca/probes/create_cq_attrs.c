// SPDX-License-Identifier: GPL-2.0
/*
 * MCG_HAVE_CREATE_CQ_ATTRS: ib_device_ops.create_cq() gets the uverbs
 * attribute bundle instead of the udata (6.11).
 */
#include <linux/build_bug.h>
#include <rdma/ib_verbs.h>

static_assert(__builtin_types_compatible_p(typeof(((struct ib_device_ops *)0)->create_cq),
					   int (*)(struct ib_cq *,
						   const struct ib_cq_init_attr *,
						   struct uverbs_attr_bundle *)),
	      "create_cq() does not take a uverbs_attr_bundle");
