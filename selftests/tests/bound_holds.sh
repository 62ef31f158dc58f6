#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A bound hold dies with the socket that made it (kill -9 included); an
# unbound hold survives its process.
# timeout: 90
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

P=$MCG_DEV0/1
SYS=/sys/kernel/ib_mcgroups/$MCG_DEV0/1

holders_are() { [ "$(cat "$SYS/holders")" = "$1" ]; }

ktap_plan 11
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
rm -f /tmp/bound.$$
ktap_finish
