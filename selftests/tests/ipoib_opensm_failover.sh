#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# IPoIB and ib_mcgroups through an SM failover (simhca, internal_sa=N):
# OpenSM A on port 1 (priority 10) is MASTER, B on port 2 (priority 5)
# STANDBY. IPoIB runs on both ports (port 2's interface in a netns);
# ib_mcgroups holds IPoIB's broadcast group on port 1 with IPoIB's
# parameters (one SA membership, shared) and a group of its own. kill -9
# A: B becomes MASTER with an empty SA but the broadcast group, and sets
# ClientReregister; both clients join again, each on its own: saquery -m
# on B shows port 1 and port 2 (IPoIB's alone) in the broadcast group and
# port 1 in ours, our holds are joined, and IPoIB resolves and pings its
# peer again through the new SM's multicast forwarding.
# timeout: 400
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
for b in opensm sminfo saquery; do
	command -v $b >/dev/null || ktap_skip_all "$b not installed (make deps)"
done
modinfo ib_ipoib >/dev/null 2>&1 || ktap_skip_all "no ib_ipoib module"
S=/sys/class/infiniband/simhca0/ports
G1=0x0053494d48434101
G2=0x0053494d48434102
NS=ipoibf$$
BCAST=ff12:401b:ffff::ffff:ffff
OWN=ff12:1234:ffff::7	# no IPoIB signature: ours alone
GID1=fe80::53:494d:4843:4101
GID2=fe80::53:494d:4843:4102
IPOIB_PARAMS="create qkey 0x0b1b pkey 0xffff mtu 2048 rate 10 sl 0"

lid() { printf %d "$(cat $S/"$1"/lid)"; }
sm_lid() { printf %d "$(cat $S/"$1"/sm_lid)"; }
sm_state() {
	sminfo -C simhca0 -P "$1" "$2" 2>/dev/null | grep -o 'SMINFO_[A-Z]*'
}
is_state() { [ "$(sm_state "$1" "$2")" = "$3" ]; }
osm() {
	mcg_opensm_start "$1" "$2" sm_priority "$3" \
		sminfo_polling_timeout 1000 polling_retry_number 3
}
osm_diag() {
	local n

	for n in a b; do
		grep "ERR\|Entering\|SUBNET UP" "$(mcg_opensm_log $n)" 2>/dev/null |
			tail -n 8 | while read -r l; do ktap_diag "opensm $n: $l"; done
	done
}
# saquery -m on the master: "PORTGID SCOPESTATE" lines of MGID $1
members() { mcg_sa_members "$1" 2>/dev/null | xargs; }
bcast_both() {
	[ "$(members $BCAST)" = "$GID1 0x21 $GID2 0x21" ]
}
own_back() { [ "$(members $OWN)" = "$GID1 0x1" ]; }
state_of() { mcctl -j show simhca0/1 "$1" 2>/dev/null | jq -r .state; }
both_joined() {
	[ "$(state_of $BCAST) $(state_of $OWN)" = "joined joined" ]
}
both_up() { mcg_carrier "$IB1" && mcg_carrier "$IB2"; }
in_ns() { ip netns exec $NS "$@"; }

ktap_plan 19
modprobe ib_umad
mcg_unload_simhca
check "load simhca with 2 ports, internal_sa=N" \
	modprobe simhca nports=2 internal_sa=0 || ktap_skip_all "no simhca"
defer mcg_unload_simhca
defer rmmod ib_ipoib
defer ip netns del $NS
osm a $G1 10
check "OpenSM A (port 1, priority 10) brings both ports to ACTIVE" \
	wait_for -t 120 mcg_ports_active || osm_diag
L1=$(lid 1)
L2=$(lid 2)
check "A is MASTER" wait_for -t 60 is_state 1 "$L1" SMINFO_MASTER
check "its SA answers" wait_for -t 60 mcg_sa_up 2 || osm_diag
osm b $G2 5
check "OpenSM B (port 2, priority 5) goes STANDBY" \
	wait_for -t 120 is_state 1 "$L2" SMINFO_STANDBY || osm_diag

check "load ib_ipoib" modprobe ib_ipoib
wait_for -t 10 mcg_ipoib_dev 2
IB1=$(mcg_ipoib_dev 1)
IB2=$(mcg_ipoib_dev 2)
ip netns add $NS
ip link set "$IB2" netns $NS
ip addr add 10.80.0.1/24 dev "$IB1"
ip link set "$IB1" up
in_ns ip addr add 10.80.0.2/24 dev "$IB2"
in_ns ip link set "$IB2" up
check "both IPoIB interfaces joined A's broadcast group (carrier)" \
	wait_for -t 30 both_up
check "IPoIB pings" ping -c 2 -W 5 10.80.0.2

check "load ib_mcgroups" mcg_load settle_ms=300 backoff_base_ms=200
echo $((10000 * ${TIMEOUT_SCALE:-1})) >/sys/module/ib_mcgroups/parameters/join_wait_ms
check "hold $BCAST with IPoIB's parameters, and $OWN" \
	sh -c "mcctl join simhca0/1 $BCAST owner co $IPOIB_PARAMS &&
	       mcctl join simhca0/1 $OWN owner co create qkey 0x1234"
check_eq "A's SA: both ports in $BCAST, one membership of port 1" \
	"$GID1 0x21 $GID2 0x21" "$(members $BCAST)"

# --- kill -9 the master: B takes over ----------------------------------------
mcg_opensm_stop a KILL
check "kill -9 A: B becomes MASTER" \
	wait_for -t 120 is_state 2 "$L2" SMINFO_MASTER || osm_diag
sm_is_b() { [ "$(sm_lid 1) $(sm_lid 2)" = "$L2 $L2" ]; }
check "both ports' SM LID becomes B's port" wait_for -t 60 sm_is_b
check "B's SA: port 1 and port 2 (IPoIB's alone) back in $BCAST" \
	wait_for -t 90 bcast_both || ktap_diag "$(members $BCAST)"
check "B's SA: port 1 back in $OWN (ours alone)" \
	wait_for -t 60 own_back || ktap_diag "$(members $OWN)"
check "our holds of both are joined" wait_for -t 60 both_joined
check "both IPoIB interfaces kept carrier" both_up
ip neigh flush dev "$IB1"
in_ns ip neigh flush dev "$IB2"
check "IPoIB resolves (ARP over the broadcast group) and pings again" \
	ping -c 3 -W 5 10.80.0.2
check "... and from the netns back" in_ns ping -c 2 -W 5 10.80.0.1
mcctl leave simhca0/1 $BCAST owner co >/dev/null
mcctl leave simhca0/1 $OWN owner co >/dev/null
mcg_opensm_stop_all
ktap_finish
