/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels ib_mcgroups builds against. Each is
 * keyed by a feature of the target tree, not by its version number,
 * because distributions and MLNX_OFED backport RDMA APIs independently:
 * compat/probe.sh compiles compat/probes/NAME.c against the tree (through
 * kbuild, OFED headers included) and compat_autoconf.h defines
 * MCG_HAVE_<NAME> for each one that built.
 */
#ifndef _IB_MCGROUPS_COMPAT_H
#define _IB_MCGROUPS_COMPAT_H

#include <linux/types.h>

#if !__has_include("compat_autoconf.h")
#error "compat_autoconf.h is missing: build with make -C kernel, which runs the feature probes"
#endif
#include "compat_autoconf.h"

/*
 * mcg_ib_port_t: the type of an RDMA port number in the verbs API, u32
 * since 5.13 (ib_query_port(), ib_event.element.port_num), u8 before.
 * The module keeps port numbers as u32 and hands them to the verbs as this.
 */
#ifdef MCG_HAVE_IB_PORT_U32
typedef u32 mcg_ib_port_t;
#else
typedef u8 mcg_ib_port_t;
#endif

/*
 * The ib_client .add callback returns int since 5.8 and void before. The
 * module's add function returns int; MCG_IB_CLIENT_ADD(fn) names it, or
 * the void wrapper that MCG_IB_CLIENT_ADD_WRAPPER(fn) defines. On void
 * kernels an error of fn leaves the device without client data and the
 * remove callback is still called, with NULL client data.
 */
#ifdef MCG_HAVE_IB_CLIENT_ADD_INT
#define MCG_IB_CLIENT_ADD(fn)		fn
#define MCG_IB_CLIENT_ADD_WRAPPER(fn)
#else
#define MCG_IB_CLIENT_ADD(fn)		fn##_void
#define MCG_IB_CLIENT_ADD_WRAPPER(fn)				\
static void fn##_void(struct ib_device *ibdev)			\
{								\
	fn(ibdev);						\
}
#endif

/*
 * Generic netlink: MCG_HAVE_GENL_RESV_START_OP (6.0) lets the family say
 * from which command on requests are validated strictly; netlink.c sets
 * it to the first command where it exists (older kernels validate every
 * command of a family with per-op policies strictly anyway).
 * MCG_HAVE_GENL_SPLIT_OPS (6.2) is probed for information only: the
 * module declares struct genl_ops, which split-ops kernels still accept.
 */

#endif /* _IB_MCGROUPS_COMPAT_H */
