#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Eight processes join and leave the same groups at once; at the end the
# counts are exact and the IP memberships match the groups still held.
# 608 mcctl runs: about 1 min on Debian's kernel, 5 min and more on the
# debug lane's (KASAN, lockdep, TCG, a shared host); the timeout only
# catches a hang.
# timeout: 900
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

P=$MCG_DEV0/1
SYS=/sys/kernel/ib_mcgroups/$MCG_DEV0/1
MGROUPS="239.6.0.1 239.6.0.2 239.6.0.3 239.6.0.4"
ROUNDS=10

# worker N: ROUNDS times join all groups then leave all but the last round.
worker() {
	local n=$1 r g

	for r in $(seq $ROUNDS); do
		for g in $MGROUPS; do
			mcctl join "$P" "$g" owner "w$n" >/dev/null || return 1
		done
		[ "$r" -eq $ROUNDS ] && break
		for g in $MGROUPS; do
			mcctl leave "$P" "$g" owner "w$n" >/dev/null || return 1
		done
	done
}

ktap_plan 9
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer mcg_unload

pids=""
for n in 1 2 3 4 5 6 7 8; do
	worker $n &
	pids="$pids $!"
done
fail=0
for p in $pids; do
	wait "$p" || fail=$((fail + 1))
done
check_eq "every worker's joins and leaves succeeded" 0 $fail
check_eq "4 groups held" 4 "$(cat $SYS/groups)"
check_eq "32 holders (8 owners x 4 groups)" 32 "$(cat $SYS/holders)"
check_eq "joins = 8 x 4 x $ROUNDS" $((8 * 4 * ROUNDS)) "$(cat $SYS/joins)"
check_eq "leaves = 8 x 4 x $((ROUNDS - 1))" $((8 * 4 * (ROUNDS - 1))) "$(cat $SYS/leaves)"
check_eq "one IGMP user per group" "1 1 1 1" \
	"$(for g in $MGROUPS; do igmp_count "$MCG_IF0" "$g"; done | xargs)"

for n in 1 2 3 4 5 6 7 8; do
	for g in $MGROUPS; do
		mcctl leave "$P" "$g" owner "w$n" >/dev/null &
	done
done
wait
check_eq "all released in parallel: no groups" 0 "$(cat $SYS/groups)"
ktap_finish
