#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The soft-RoCE demo, run in the VM by "make demo": two rxe "nodes" on a
# veth pair, ib_mcgroups holding a group for two owners, a UD QP that only
# attached to the group receiving datagrams, and the leave.
# timeout: 600
. "$(dirname "$0")/lib.sh"

run() {
	printf '\n# %s\n' "$*"
	"$@"
}

say() {
	printf '\n### %s\n' "$*"
}

say "Two soft-RoCE nodes: rxe0 on veth0 (10.0.0.1), rxe1 on veth1 (10.0.0.2, netns peer)"
mcg_setup_rxe || exit 1
run rdma link show
run modprobe ib_mcgroups || exit 1

say "Two jobs hold 239.1.1.1 on the receiving node's port, an admin holds an IPv6 group"
run mcctl join rxe1/1 239.1.1.1 owner job:42 || exit 1
run mcctl join rxe1/1 239.1.1.1 owner job:43 || exit 1
run mcctl join rxe1/1 ff0e::1234 owner admin || exit 1
run mcctl list
run mcctl -j -p list
run mcctl show rxe1/1 239.1.1.1
run mcctl stats rxe1/1
run cat /sys/kernel/ib_mcgroups/rxe1/1/groups
say "One IGMP membership on veth1, shared by both holders"
in_peer grep -A3 veth1 /proc/net/igmp

say "A UD QP on rxe1 that only called ibv_attach_mcast() receives what rxe0 sends"
mcast_ud recv -d rxe1 -g ::ffff:239.1.1.1 -c 10 -t 3000 >/tmp/recv.log 2>&1 &
pid=$!
wait_for -t 5 grep -q listening /tmp/recv.log
run mcast_ud send -d rxe0 -g ::ffff:239.1.1.1 -c 10
wait $pid
cat /tmp/recv.log

say "job:42 leaves: the group stays held for job:43"
run mcctl leave rxe1/1 239.1.1.1 owner job:42
run mcctl list
say "job:43 leaves: the group is released"
run mcctl leave rxe1/1 239.1.1.1 owner job:43
run mcctl stats
say "Nothing is received any more"
mcast_ud recv -d rxe1 -g ::ffff:239.1.1.1 -c 10 -t 2000 >/tmp/recv.log 2>&1 &
pid=$!
wait_for -t 5 grep -q listening /tmp/recv.log
run mcast_ud send -d rxe0 -g ::ffff:239.1.1.1 -c 10
wait $pid
cat /tmp/recv.log
run mcctl leave rxe1/1 ff0e::1234 owner admin
run rmmod ib_mcgroups
say "demo done"
