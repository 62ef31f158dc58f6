// SPDX-License-Identifier: GPL-2.0
/*
 * MCG_HAVE_IB_PORT_IMMUTABLE_READ: ib_port_immutable_read() is exported
 * (5.12; before, a port's immutable data, its GID table length among them,
 * is read directly from ib_device.port_data[port].immutable).
 */
#include <linux/build_bug.h>
#include <rdma/ib_verbs.h>

static_assert(__builtin_types_compatible_p(typeof(ib_port_immutable_read),
					   const struct ib_port_immutable *(struct ib_device *,
									    unsigned int)),
	      "no exported ib_port_immutable_read()");
