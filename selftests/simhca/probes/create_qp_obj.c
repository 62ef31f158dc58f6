// SPDX-License-Identifier: GPL-2.0
/*
 * MCG_HAVE_CREATE_QP_OBJ: ib_core allocates a driver's QP (the size given
 * by INIT_RDMA_OBJ_SIZE) and create_qp() initialises it (5.15; before,
 * create_qp() allocated the QP and returned it, and destroy_qp() freed it).
 */
#include <linux/build_bug.h>
#include <rdma/ib_verbs.h>

static_assert(__builtin_types_compatible_p(typeof(((struct ib_device_ops *)0)->create_qp),
					   int (*)(struct ib_qp *, struct ib_qp_init_attr *,
						   struct ib_udata *)),
	      "create_qp() allocates the QP itself");
