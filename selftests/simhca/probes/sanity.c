// SPDX-License-Identifier: GPL-2.0
/*
 * Not a feature: must always build (see kernel/compat/probe.sh).
 */
#include <linux/build_bug.h>
#include <rdma/ib_verbs.h>

static_assert(sizeof(struct ib_device_ops) > 0, "RDMA verbs headers");
