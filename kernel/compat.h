/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels ib_mcgroups builds against. Each is
 * keyed by a feature of the target tree, not by its version number,
 * because distributions and MLNX_OFED backport RDMA APIs independently.
 * The build currently targets Debian 12's 6.1; probes are added here as
 * older and newer trees are supported.
 */
#ifndef _IB_MCGROUPS_COMPAT_H
#define _IB_MCGROUPS_COMPAT_H

#include <linux/version.h>

#endif /* _IB_MCGROUPS_COMPAT_H */
