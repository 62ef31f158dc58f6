#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Linger: after the last holder leaves, the membership is kept for the
# group's linger time; a join in that window takes it back without any
# IGMP change, and the group is released when the time runs out.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

P=$MCG_DEV0/1
SYS=/sys/kernel/ib_mcgroups/$MCG_DEV0/1
PARAM=/sys/module/ib_mcgroups/parameters
G=239.8.0.1

groups_are() { [ "$(cat $SYS/groups)" = "$1" ]; }

ktap_plan 25
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer mcg_unload

check "a joins $G with a 3 s linger" mcctl join "$P" $G owner a linger 3000
check "a leaves" mcctl leave "$P" $G owner a
check "group is lingering" sh -c "mcctl list | grep $G | grep -q lingering"
check_eq "membership kept while lingering (groups, holders, IGMP users)" \
	"1 0 1" "$(cat $SYS/groups) $(cat $SYS/holders) $(igmp_count "$MCG_IF0" $G)"
check "b joins within the window" mcctl join "$P" $G owner b
check_eq "taken back: one linger hit" 1 "$(cat $SYS/linger_hits)"
check_eq "IGMP membership untouched (still one user)" 1 "$(igmp_count "$MCG_IF0" $G)"
check "group joined again" sh -c "mcctl list | grep $G | grep -q joined"
check "b leaves" mcctl leave "$P" $G owner b
check "released after the linger time" wait_for -t 8 groups_are 0
check_eq "IGMP membership dropped" 0 "$(igmp_count "$MCG_IF0" $G)"
check_eq "one linger expiry counted" 1 "$(cat $SYS/linger_expired)"

echo 60000 >$PARAM/linger_ms
check "default linger from the module parameter" \
	sh -c "mcctl join $P 239.8.0.2 owner c && mcctl leave $P 239.8.0.2 owner c &&
	       mcctl list | grep 239.8.0.2 | grep -q lingering"
check "debugfs names the lingering state" \
	sh -c "grep '::ffff:239.8.0.2 ' /sys/kernel/debug/ib_mcgroups/groups | grep -q ' state=lingering '"
check "the module parameter refuses a linger above one day" \
	__lib_not sh -c "echo 86400001 >$PARAM/linger_ms"
check_eq "and keeps its value" 60000 "$(cat $PARAM/linger_ms)"
check "it takes one day" sh -c "echo 86400000 >$PARAM/linger_ms"
echo 0 >$PARAM/linger_ms
check "a linger above one day is refused" __lib_not \
	mcctl join "$P" 239.8.0.3 owner d linger 86400001
check "linger 0 releases at once" \
	sh -c "mcctl join $P 239.8.0.4 owner d linger 0 && mcctl leave $P 239.8.0.4 owner d"
check "rmmod with a lingering group" mcg_unload
check_eq "its membership is released" 0 "$(igmp_count "$MCG_IF0" 239.8.0.2)"
check "loading with linger_ms above one day fails" \
	__lib_not modprobe ib_mcgroups linger_ms=86400001
check "and leaves the module unloaded" test ! -d /sys/module/ib_mcgroups
ktap_finish
