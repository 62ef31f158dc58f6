// SPDX-License-Identifier: GPL-2.0
/*
 * Not a feature: must always build. If it does not, the probe run itself is
 * broken (headers missing, compiler mismatch) and no result is trusted.
 */
#include <linux/build_bug.h>
#include <rdma/ib_verbs.h>
#include <net/genetlink.h>

static_assert(sizeof(struct ib_client) > 0 && sizeof(struct genl_family) > 0,
	      "RDMA and generic netlink headers");
