#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A bound hold dies with the socket that made it (kill -9 included); an
# unbound hold survives its process. With several sockets holding bound
# groups, some shared, closing one releases exactly its holds, and
# closing unrelated sockets releases nothing.
# timeout: 90
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

P=$MCG_DEV0/1
SYS=/sys/kernel/ib_mcgroups/$MCG_DEV0/1

holders_are() { [ "$(cat "$SYS/holders")" = "$1" ]; }

ktap_plan 18
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer mcg_unload

mcctl join "$P" 239.4.4.4 owner job:7 bound >/tmp/bound.$$ 2>&1 &
pid=$!
check "bound hold taken" wait_for -t 10 igmp_has "$MCG_IF0" 239.4.4.4
check_eq "one holder" 1 "$(cat $SYS/holders)"
check "list marks it bound" sh -c "mcctl list | grep -q bound"
kill -9 $pid
wait $pid 2>/dev/null
check "kill -9: hold released" wait_for -t 10 holders_are 0
check_eq "kill -9: IGMP membership gone" 0 "$(igmp_count "$MCG_IF0" 239.4.4.4)"

check "unbound join from a process that exits" \
	sh -c "mcctl join $P 239.4.4.5 owner job:8"
check_eq "unbound hold survives its process" 1 "$(cat $SYS/holders)"
check "another socket cannot leave it without its owner name" \
	__lib_not mcctl leave "$P" 239.4.4.5 owner job:9
check "owner leaves it" mcctl leave "$P" 239.4.4.5 owner job:8

# Bound holds are found by their socket: several sockets, shared groups.
mcg_bulk hold "$MCG_DEV0" 1 3 job:a 0x1000 >/tmp/bound_a.$$ &
pid_a=$!
mcg_bulk hold "$MCG_DEV0" 1 3 job:b 0x1001 >/tmp/bound_b.$$ &
pid_b=$!
defer kill $pid_a $pid_b
check "two processes hold 3 bound groups each, 2 shared" \
	wait_for -t 20 sh -c "grep -q joined /tmp/bound_a.$$ && grep -q joined /tmp/bound_b.$$"
check_eq "4 groups, 6 holders" "4 6" "$(cat $SYS/groups $SYS/holders | xargs)"
for _ in $(seq 30); do mcctl stats "$P" >/dev/null; done
check_eq "30 other sockets closed: nothing released" "4 6" \
	"$(cat $SYS/groups $SYS/holders | xargs)"
kill $pid_a
wait $pid_a 2>/dev/null
check "killing the first releases its 3 holds" wait_for -t 10 holders_are 3
check_eq "the second's groups stay, with it alone" "3 job:b job:b job:b" \
	"$(cat $SYS/groups) $(mcctl -j list "$P" | jq -r '[.[].holders[].owner] | join(" ")')"
kill $pid_b
wait $pid_b 2>/dev/null
check "killing the second releases the rest" wait_for -t 10 holders_are 0
check_eq "no groups left" 0 "$(cat $SYS/groups)"
rm -f /tmp/bound.$$ /tmp/bound_a.$$ /tmp/bound_b.$$
ktap_finish
