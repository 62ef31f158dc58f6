#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Groups held while the world changes under them: link down/up keeps them;
# deleting the rxe device releases its groups (with events, nothing left
# in IGMP); unloading the module releases everything cleanly.
# timeout: 180
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

SYS0=/sys/kernel/ib_mcgroups/$MCG_DEV0/1

ktap_plan 29
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load

mcctl monitor >/tmp/monitor.$$ 2>&1 &
mon=$!
defer kill $mon
sleep 1

check "join 239.5.5.1 and ff0e::5551 on $MCG_DEV0" \
	sh -c "mcctl join $MCG_DEV0/1 239.5.5.1 owner a &&
	       mcctl join $MCG_DEV0/1 ff0e::5551 owner a"
check "monitor saw the join" wait_for -t 5 grep -q 239.5.5.1 /tmp/monitor.$$

ip link set "$MCG_IF0" down
sleep 1
check_eq "link down: hold kept" 2 "$(cat $SYS0/groups)"
ip link set "$MCG_IF0" up
check "link up: port ACTIVE again" wait_for -t 15 __port_active "$MCG_DEV0"
check "link up: IGMP membership still there" igmp_has "$MCG_IF0" 239.5.5.1
check "link up: group still joined" sh -c "mcctl list | grep 239.5.5.1 | grep -q joined"

check "debugfs table lists the hold" \
	sh -c "grep -A1 '::ffff:239.5.5.1 ' /sys/kernel/debug/ib_mcgroups/groups | grep -q 'a join_state=0x1'"
check "rename $MCG_DEV0 to mcgren0 with groups held" rdma dev set "$MCG_DEV0" name mcgren0
check "sysfs directory follows the rename" \
	test -e /sys/kernel/ib_mcgroups/mcgren0/1/groups -a ! -e "$SYS0"
check "holds kept under the new name" sh -c "mcctl list mcgren0 | grep -q 239.5.5.1"
check "rename back" rdma dev set mcgren0 name "$MCG_DEV0"

check "rdma link delete $MCG_DEV0 with groups held" rdma link delete "$MCG_DEV0"
check "sysfs directory of $MCG_DEV0 gone" test ! -e "$SYS0"
check_eq "IGMP membership dropped" 0 "$(igmp_count "$MCG_IF0" 239.5.5.1)"
check "MLD membership dropped" __lib_not igmp6_has "$MCG_IF0" ff0e::5551
check "monitor reported the release" \
	wait_for -t 5 sh -c "grep 239.5.5.1 /tmp/monitor.$$ | grep -q device-removed"
check "dmesg says what was released" \
	sh -c "dmesg | grep -q 'rxe0/1: released 2 group(s)'"

check "re-create $MCG_DEV0" mcg_setup_rxe
check "join 239.5.5.4 on $MCG_DEV0 again" mcctl join $MCG_DEV0/1 239.5.5.4 owner c
check "delete the netdev (veth pair) with groups held" ip link del "$MCG_IF0"
check "rxe devices go away, and their groups with them" \
	wait_for -t 20 test ! -e "$SYS0"
check "monitor reported the release" \
	wait_for -t 5 sh -c "grep 239.5.5.4 /tmp/monitor.$$ | grep -q device-removed"
check "re-create the veth pair and both rxe devices" mcg_setup_rxe
check "join on both devices" \
	sh -c "mcctl join $MCG_DEV0/1 239.5.5.2 owner b &&
	       mcctl join $MCG_DEV1/1 239.5.5.3 owner b"
check "rmmod with groups held" mcg_unload
check "$MCG_IF0 membership released" __lib_not igmp_has "$MCG_IF0" 239.5.5.2
check "$MCG_IF1 membership released" __lib_not igmp_has "$MCG_IF1" 239.5.5.3
kill $mon 2>/dev/null
rm -f /tmp/monitor.$$
ktap_finish
