#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The kernel's own IPoIB (ib_ipoib) on simhca with the internal SA: the SA
# has IPoIB's broadcast group as OpenSM creates it (ipoib_bcast=Y), the
# two ports' interfaces (one moved into a netns) come up, ping and ping6
# each other (ARP/ND over the broadcast group, PathRecord Get, unicast UD
# by LID and QPN), an IPv4 group a socket joins on one side reaches it
# (IPoIB's own SA join, the switch's MFT); P_Key children on both ports
# ping each other in P_Key 0x8001, whose broadcast group the SA created
# as OpenSM does for a partitions.conf entry with the ipoib flag, and the
# switch drops their datagrams when both ports are limited members; and
# ifdown, deleting a P_Key child interface and rmmod ib_ipoib finish
# without IPoIB's 5 s wait for receives that never complete and without a
# kernel warning.
# timeout: 300
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
NS=ipoib$$
BCAST=ff12:401b:ffff::ffff:ffff
# IPoIB's MGID of 239.1.2.3 in P_Key 0xffff (ip_ib_mc_map: the low 28 bits)
G4=ff12:401b:ffff::f01:203
GID2=fe80::53:494d:4843:4102

group_line() { grep "^group mgid=$1 " $D/sa_db; }
member_join() {
	awk -v m="mgid=$1" -v gid="gid=$2" \
		'$1 == "member" && $2 == m && $4 == gid { sub("join=", "", $5); print $5 }' $D/sa_db
}

ktap_plan 35
check "load simhca with two ports and IPoIB's broadcast group" \
	modprobe simhca nports=2 ipoib_bcast=1 || ktap_skip_all "no simhca"
defer mcg_unload_simhca
defer rmmod ib_ipoib
defer ip netns del $NS
modinfo ib_ipoib >/dev/null 2>&1 || ktap_skip_all "no ib_ipoib module"
dmesg -c >/dev/null

check_eq "the SA has the broadcast group with OpenSM's parameters" \
	"mlid=0xc000 pkey=0xffff qkey=0x00000b1b mtu=0x84 rate=0x83 sl=0" \
	"$(group_line $BCAST | awk '{print $3, $4, $5, $6, $7, $8}')"

check "load ib_ipoib" modprobe ib_ipoib
wait_for -t 10 mcg_ipoib_dev 2
IB1=$(mcg_ipoib_dev 1)
IB2=$(mcg_ipoib_dev 2)
check "an IPoIB interface on each port" test -n "$IB1" -a -n "$IB2"
ip netns add $NS
ip link set "$IB2" netns $NS
in_ns() { ip netns exec $NS "$@"; }
ip addr add 10.77.0.1/24 dev "$IB1"
ip addr add fd77::1/64 dev "$IB1" nodad
ip link set "$IB1" up
in_ns ip link set lo up
in_ns ip addr add 10.77.0.2/24 dev "$IB2"
in_ns ip addr add fd77::2/64 dev "$IB2" nodad
in_ns ip link set "$IB2" up

check "$IB1 has carrier (joined the broadcast group)" wait_for -t 20 mcg_carrier "$IB1"
check "$IB2 (in a netns) has carrier" wait_for -t 20 mcg_carrier "$IB2"
check_eq "port 2 is a full member of the broadcast group" 0x1 \
	"$(member_join $BCAST $GID2)"
check "ping $IB1 -> $IB2" ping -c 3 -W 5 10.77.0.2
check "ping from the netns back" in_ns ping -c 2 -W 5 10.77.0.1
check "the SA answered PathRecord Gets" \
	test "$(sa_stat answered_get_path)" -ge 1
check "unicast datagrams went through the switch" \
	test "$(sa_stat ud_unicast)" -ge 4
check "ping6 $IB1 -> $IB2" ping6 -c 3 -W 5 fd77::2

# IPv4 multicast: the netns' host answers an echo to a group it joined
in_ns sysctl -qw net.ipv4.icmp_echo_ignore_broadcasts=0
ip route add 224.0.0.0/4 dev "$IB1"
check_fail "no echo from 239.1.2.3 before anyone joins it" \
	ping -c 1 -W 2 239.1.2.3
# ip netns exec execs mcast_join: $! is the process to kill
ip netns exec $NS mcast_join -I "$IB2" 239.1.2.3 >/tmp/mj.$$ &
mj=$!
defer kill $mj
check "a socket joins 239.1.2.3 on $IB2" wait_for -t 5 grep -q joined /tmp/mj.$$
check "IPoIB joined $G4 for it: port 2 a full member" \
	wait_for -t 10 sh -c "grep -q 'member mgid=$G4 .*gid=$GID2 join=0x1' $D/sa_db"
check "an echo to 239.1.2.3 from $IB1 is answered from $IB2" \
	ping -c 3 -W 5 239.1.2.3
kill $mj
wait $mj 2>/dev/null
rm -f /tmp/mj.$$
# port 1 stays a send-only member (IPoIB keeps its send-only joins)
check "the leave: port 2 no longer a member of $G4" \
	wait_for -t 10 sh -c "! grep -q 'member mgid=$G4 .*gid=$GID2 ' $D/sa_db"

# no 5 s stall: the receives of a QP in ERR complete (flushed)
took=$(mcg_ms ip link set "$IB1" down); rc=$?
check "ifdown $IB1 (${took} ms; a flush stall would show in dmesg)" test $rc = 0
ip link set "$IB1" up
check "ifup: carrier again" wait_for -t 20 mcg_carrier "$IB1"
check "ping again" ping -c 2 -W 5 10.77.0.2

# P_Key children: both ports get P_Key 0x8001 (PKEY_CHANGE), and the SA
# creates the partition's broadcast group as OpenSM does for a
# partitions.conf entry with the ipoib flag; a child interface on each
# port (one in the netns) opens its own QP and joins that group
BC8001=ff12:401b:8001::ffff:ffff
echo "1 0x8001" >$D/port1/pkeys
echo "1 0x8001" >$D/port2/pkeys
check_eq "the SA has P_Key 0x8001's broadcast group with OpenSM's parameters" \
	"pkey=0x8001 qkey=0x00000b1b mtu=0x84 rate=0x83 sl=0" \
	"$(group_line $BC8001 | awk '{print $4, $5, $6, $7, $8}')"
check "child interface with P_Key 0x8001 on port 1" \
	ip link add link "$IB1" name "$IB1.8001" type ipoib pkey 0x8001
check "... and on port 2, in the netns" \
	in_ns ip link add link "$IB2" name "$IB2.8001" type ipoib pkey 0x8001
ip addr add 10.78.1.1/24 dev "$IB1.8001"
in_ns ip addr add 10.78.1.2/24 dev "$IB2.8001"
ip link set "$IB1.8001" up
in_ns ip link set "$IB2.8001" up
children_up() { mcg_carrier "$IB1.8001" && mcg_carrier "$IB2.8001"; }
check "both children have carrier (joined $BC8001)" wait_for -t 20 children_up
check_eq "port 2 is a full member of $BC8001" 0x1 "$(member_join $BC8001 $GID2)"
check "the children ping each other in P_Key 0x8001" \
	ping -c 3 -W 5 10.78.1.2
# the switch keeps partitions apart: two limited members do not talk
echo "1 0x0001" >$D/port2/pkeys
check "a limited member (port 2) still talks to a full one" \
	ping -c 2 -W 5 10.78.1.2
drops=$(sa_stat ud_drop_pkey)
echo "1 0x0001" >$D/port1/pkeys
check_fail "two limited members of 0x8001 do not" ping -c 2 -W 2 10.78.1.2
check "... the switch dropped them for their P_Key" \
	test "$(sa_stat ud_drop_pkey)" -gt "$drops"
echo "1 0x8001" >$D/port1/pkeys
echo "1 0x8001" >$D/port2/pkeys
check "both full again: the children ping" ping -c 2 -W 5 10.78.1.2
took=$(mcg_ms ip link del "$IB1.8001"); rc=$?
check "deleting the child (${took} ms; a flush stall would show in dmesg)" test $rc = 0
in_ns ip link del "$IB2.8001"
check "the parent still pings after the P_Key change" \
	ping -c 2 -W 5 10.77.0.2

took=$(mcg_ms rmmod ib_ipoib); rc=$?
check "rmmod ib_ipoib (${took} ms; a flush stall would show in dmesg)" test $rc = 0
check_eq "the broadcast group stays without members" "members=0" \
	"$(group_line $BCAST | awk '{print $NF}')"
check "no kernel warning or IPoIB stall in dmesg" mcg_ipoib_dmesg_clean
ktap_finish
