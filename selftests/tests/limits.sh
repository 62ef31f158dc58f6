#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The per-port group budget and the per-owner hold limit refuse joins past
# them with a clear message and no change.
# timeout: 90
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

P=$MCG_DEV0/1
SYS=/sys/kernel/ib_mcgroups/$MCG_DEV0/1
PARAM=/sys/module/ib_mcgroups/parameters

ktap_plan 12
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups with max_groups=2" mcg_load max_groups=2
defer mcg_unload

check "two groups fit the budget" \
	sh -c "mcctl join $P 239.9.0.1 owner a && mcctl join $P 239.9.0.2 owner a"
err=$(mcctl join "$P" 239.9.0.3 owner a 2>&1)
check_eq "a third group is refused" 1 $?
check "with a message naming the budget" grep -q "budget" <<<"$err"
check_eq "nothing changed" "2 2" "$(cat $SYS/groups) $(cat $SYS/holders)"
check "another holder of an existing group is fine" mcctl join "$P" 239.9.0.1 owner b
check "stats shows the budget" sh -c "mcctl -j stats $P | jq -e '.[0].max_groups == 2'"

echo 0 >$PARAM/max_groups
echo 3 >$PARAM/max_owner_holds
check "a reaches three holds" mcctl join "$P" 239.9.0.3 owner a
err=$(mcctl join "$P" 239.9.0.4 owner a 2>&1)
check_eq "a fourth hold of a is refused" 1 $?
check "with a message naming the owner limit" grep -q "max_owner_holds" <<<"$err"
check "a re-join of a held group is still idempotent" mcctl join "$P" 239.9.0.1 owner a
echo 0 >$PARAM/max_owner_holds
ktap_finish
