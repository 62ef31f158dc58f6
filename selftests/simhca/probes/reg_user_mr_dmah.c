// SPDX-License-Identifier: GPL-2.0
/*
 * MCG_HAVE_REG_USER_MR_DMAH: ib_device_ops.reg_user_mr() takes a struct
 * ib_dmah * (a DMA handle) before the udata (7.x; sid's 7.2 has it).
 */
#include <linux/build_bug.h>
#include <rdma/ib_verbs.h>

static_assert(__builtin_types_compatible_p(typeof(((struct ib_device_ops *)0)->reg_user_mr),
					   struct ib_mr *(*)(struct ib_pd *, u64, u64, u64, int,
							     struct ib_dmah *,
							     struct ib_udata *)),
	      "reg_user_mr() takes no struct ib_dmah");
