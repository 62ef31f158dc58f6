// SPDX-License-Identifier: GPL-2.0
/*
 * MCG_HAVE_IB_PORT_U32: RDMA port numbers are u32 (5.13; before, u8): the
 * port argument of ib_query_port() and the port of an ib_event.
 */
#include <linux/build_bug.h>
#include <rdma/ib_verbs.h>

static_assert(__builtin_types_compatible_p(typeof(ib_query_port),
					   int (struct ib_device *, u32,
						struct ib_port_attr *)),
	      "ib_query_port() does not take a u32 port");
static_assert(__builtin_types_compatible_p(typeof(((struct ib_event *)0)->element.port_num),
					   u32),
	      "ib_event port_num is not u32");
