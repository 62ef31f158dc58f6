// SPDX-License-Identifier: GPL-2.0
/*
 * MCG_HAVE_GENL_RESV_START_OP: struct genl_family has resv_start_op, the
 * first command validated strictly (6.0).
 */
#include <linux/build_bug.h>
#include <net/genetlink.h>

static_assert(__builtin_types_compatible_p(typeof(((struct genl_family *)0)->resv_start_op),
					   u8),
	      "genl_family has no u8 resv_start_op");
