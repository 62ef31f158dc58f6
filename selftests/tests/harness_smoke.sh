#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The VM harness works: two rxe devices on a veth pair, both ports ACTIVE.
# timeout: 60
. "$(dirname "$0")/../lib.sh"

ktap_plan 6
check "set up rxe0 <-> rxe1" mcg_setup_rxe
links=$(rdma link show 2>&1)
ktap_diag "$links"
check "rdma link show lists $MCG_DEV0" grep -q "link $MCG_DEV0/1 " <<<"$links"
check "rdma link show lists $MCG_DEV1" grep -q "link $MCG_DEV1/1 " <<<"$links"
check_eq "$MCG_DEV0 port 1 ACTIVE" ACTIVE \
	"$(awk -v d="$MCG_DEV0/1" '$2 == d { print $4 }' <<<"$links")"
check_eq "$MCG_DEV1 port 1 ACTIVE" ACTIVE \
	"$(awk -v d="$MCG_DEV1/1" '$2 == d { print $4 }' <<<"$links")"
check "libibverbs sees both devices" \
	sh -c "ibv_devices | grep -q $MCG_DEV0 && ibv_devices | grep -q $MCG_DEV1"
ktap_finish
