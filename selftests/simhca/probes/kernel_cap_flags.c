// SPDX-License-Identifier: GPL-2.0
/*
 * MCG_HAVE_KERNEL_CAP_FLAGS: struct ib_device_attr has kernel_cap_flags,
 * where IBK_LOCAL_DMA_LKEY is (6.0; before, IB_DEVICE_LOCAL_DMA_LKEY in
 * device_cap_flags).
 */
#include <linux/build_bug.h>
#include <rdma/ib_verbs.h>

static_assert(sizeof(((struct ib_device_attr *)0)->kernel_cap_flags) > 0 &&
	      IBK_LOCAL_DMA_LKEY != 0,
	      "no ib_device_attr.kernel_cap_flags");
