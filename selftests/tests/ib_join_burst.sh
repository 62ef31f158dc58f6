#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A burst of root's JOINs does not hold a re-join wave back. JOINs go
# first and may fill the window, but a re-join goes whenever none is
# unanswered (mcg_pacer_rejoins_full()), also while JOINs still wait for
# room. Root joins BURST new groups during the settle time after a
# reregister; when it ends, the window starts again at one request and the
# SA answers each request 300 ms late: the first re-join must be answered
# long before the last new group is joined.
# timeout: 300
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
N=50
BURST=30

joined_of() {
	mcg_count joined owner "$1"
}
rejoined() { [ "$(cat $SYS/group_rejoins)" -ge 1 ]; }

ktap_plan 7
modprobe ib_umad
check "load simhca" modprobe simhca || ktap_skip_all "no simhca"
check "load ib_mcgroups (settle_ms=1500)" \
	mcg_load settle_ms=1500 join_wait_ms=0
defer mcg_unload_simhca
check "hold $N groups" mcg_bulk join simhca0 1 $N job:1
# join_wait_ms=0: a group still joining at the reregister is no re-join
wait_for -t 60 mcg_all_joined owner job:1

echo 300 >$D/delay_ms
echo 1 >$D/client_reregister
check "root joins $BURST new groups while the port settles" \
	mcg_bulk join simhca0 1 $BURST job:2 0x2000
wait_for -t 60 rejoined
new=$(joined_of job:2)
ktap_diag "at the first re-join's answer, $new of $BURST new groups joined"
check "the first re-join is answered before half the new groups are joined" \
	test "$new" -lt $((BURST / 2))
check "all $BURST new groups joined" wait_for -t 60 \
	eval '[ "$(joined_of job:2)" = '$BURST' ]'
check "all $N groups joined again" wait_for -t 60 \
	eval '[ "$(joined_of job:1)" = '$N' ]'
echo 0 >$D/delay_ms
ktap_finish
