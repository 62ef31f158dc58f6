#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# IPoIB on simhca with OpenSM (internal_sa=N): OpenSM sweeps the fabric
# through the SMA and creates the broadcast group itself, its SA answers
# IPoIB's joins and PathRecord Gets; the two ports' interfaces (one in a
# netns) ping and ping6 each other, an echo to an IPv4 group a socket
# joins on the far side is answered, ifdown and rmmod ib_ipoib do not
# stall, no kernel warning. ib_mcgroups holds the broadcast group with
# IPoIB's parameters next to IPoIB: saquery -m shows one member for the
# port; another Q_Key is refused naming the field.
# timeout: 400
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
for b in opensm saquery; do
	command -v $b >/dev/null || ktap_skip_all "$b not installed (make deps)"
done
modinfo ib_ipoib >/dev/null 2>&1 || ktap_skip_all "no ib_ipoib module"
G1=0x0053494d48434101
NS=ipoibo$$
BCAST=ff12:401b:ffff::ffff:ffff
PARAM=/sys/module/ib_mcgroups/parameters

both_up() { mcg_carrier "$IB1" && mcg_carrier "$IB2"; }
in_ns() { ip netns exec $NS "$@"; }

ktap_plan 15
modprobe ib_umad
mcg_unload_simhca
check "load simhca with 2 ports, internal_sa=N" \
	modprobe simhca nports=2 internal_sa=0 || ktap_skip_all "no simhca"
defer mcg_unload_simhca
defer rmmod ib_ipoib
defer ip netns del $NS
dmesg -c >/dev/null
mcg_opensm_start sm $G1
check "OpenSM brings both ports to ACTIVE" wait_for -t 90 mcg_ports_active
check "OpenSM's SA answers" wait_for -t 60 mcg_sa_up

check "load ib_ipoib" modprobe ib_ipoib
wait_for -t 10 mcg_ipoib_dev 2
IB1=$(mcg_ipoib_dev 1)
IB2=$(mcg_ipoib_dev 2)
ip netns add $NS
ip link set "$IB2" netns $NS
ip addr add 10.79.0.1/24 dev "$IB1"
ip addr add fd79::1/64 dev "$IB1" nodad
ip link set "$IB1" up
in_ns ip link set lo up
in_ns ip addr add 10.79.0.2/24 dev "$IB2"
in_ns ip addr add fd79::2/64 dev "$IB2" nodad
in_ns ip link set "$IB2" up
check "both interfaces joined OpenSM's broadcast group (carrier)" \
	wait_for -t 30 both_up
check "ping through OpenSM's fabric" ping -c 3 -W 5 10.79.0.2
check "ping6" ping6 -c 3 -W 5 fd79::2
in_ns sysctl -qw net.ipv4.icmp_echo_ignore_broadcasts=0
ip route add 224.0.0.0/4 dev "$IB1"
ip netns exec $NS mcast_join -I "$IB2" 239.1.2.3 >/dev/null &
mj=$!
defer kill $mj
sleep 2
check "an echo to 239.1.2.3 is answered from the netns" \
	ping -c 3 -W 5 239.1.2.3

check "load ib_mcgroups" mcg_load settle_ms=300 backoff_base_ms=200
echo $((10000 * ${TIMEOUT_SCALE:-1})) >$PARAM/join_wait_ms
refused "another Q_Key is refused, naming the field" "Q_Key differs from the group's" \
	mcctl join simhca0/1 $BCAST owner bad create qkey 0x1234
check "hold the broadcast group with IPoIB's parameters" \
	mcctl join simhca0/1 $BCAST owner co create qkey 0x0b1b pkey 0xffff mtu 2048 rate 10 sl 0
check_eq "saquery -m: one member per port, full" \
	"fe80::53:494d:4843:4101 0x21
fe80::53:494d:4843:4102 0x21" "$(mcg_sa_members $BCAST)"
mcctl leave simhca0/1 $BCAST owner co

took=$(mcg_ms ip link set "$IB1" down); rc=$?
check "ifdown (${took} ms; a flush stall would show in dmesg)" test $rc = 0
kill $mj 2>/dev/null
took=$(mcg_ms rmmod ib_ipoib); rc=$?
check "rmmod ib_ipoib (${took} ms; a flush stall would show in dmesg)" test $rc = 0
check "no kernel warning or IPoIB stall in dmesg" mcg_ipoib_dmesg_clean
ktap_finish
