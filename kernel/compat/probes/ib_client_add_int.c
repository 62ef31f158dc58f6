// SPDX-License-Identifier: GPL-2.0
/*
 * MCG_HAVE_IB_CLIENT_ADD_INT: struct ib_client's add() returns int (5.8;
 * before, void).
 */
#include <linux/build_bug.h>
#include <rdma/ib_verbs.h>

static_assert(__builtin_types_compatible_p(typeof(((struct ib_client *)0)->add),
					   int (*)(struct ib_device *)),
	      "ib_client.add does not return int");
