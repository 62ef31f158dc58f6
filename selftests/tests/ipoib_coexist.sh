#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# ib_mcgroups next to the kernel's IPoIB on the same port (simhca, internal
# SA with IPoIB's broadcast group): both join through ib_core's
# multicast.c, which keeps one SA membership per port and MGID. Holding
# IPoIB's broadcast group or an IPv4-mapped IPoIB group with IPoIB's
# parameters works and adds no SA membership; our leave does not touch
# IPoIB's, an "ip link set ib0 down" does not touch ours; after a client
# reregister that wiped the SA both are back. A hold whose Q_Key, MTU or
# SL differ from the group IPoIB holds is refused with a message naming the
# field (and, on 6.2 and later, the group's value), changing nothing.
# mcctl list and stats show our holds only, as the admin guide says: a
# group IPoIB alone holds is not listed, one both hold has our holder
# alone (holder_count 1), and the port counts our groups and holds.
# timeout: 300
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
NS=ipoibc$$
BCAST=ff12:401b:ffff::ffff:ffff
G4=ff12:401b:ffff::f01:203	# IPoIB's MGID of 239.1.2.3, P_Key 0xffff
GID1=fe80::53:494d:4843:4101
IPOIB_PARAMS="create qkey 0x0b1b pkey 0xffff mtu 2048 rate 10 sl 0"

# the SA's JoinState for port 1 on MGID $1 ("" if none), and its count
join1() {
	awk -v m="mgid=$1" -v gid="gid=$GID1" \
		'$1 == "member" && $2 == m && $4 == gid { sub("join=", "", $5); print $5 }' $D/sa_db
}
nmemb1() { grep -c "^member mgid=$1 .*gid=$GID1 " $D/sa_db; }
# our holders of MGID $1 in "mcctl -j list": [holder_count, "owner,...", join_state]
list_entry() {
	mcctl -j list "$P" | jq -c --arg g "$1" \
		'.[] | select(.group == $g) | [.holder_count, ([.holders[].owner] | join(",")), .join_state]'
}
# the port's "groups holders" in "mcctl -j stats"
port_counts() {
	mcctl -j stats "$P" | jq -r '(if type == "array" then .[0] else . end) | "\(.groups) \(.holder_count)"'
}
state_of() { mcctl -j show "$P" "$1" 2>/dev/null | jq -r .state; }
joined() { [ "$(state_of "$1")" = joined ]; }
no_join1() { [ -z "$(join1 "$1")" ]; }
join1_is() { [ "$(join1 "$1")" = "$2" ]; }
in_ns() { ip netns exec $NS "$@"; }

ktap_plan 29
check "load simhca with IPoIB's broadcast group" \
	modprobe simhca nports=2 ipoib_bcast=1 || ktap_skip_all "no simhca"
defer mcg_unload_simhca
defer rmmod ib_ipoib
defer ip netns del $NS
modinfo ib_ipoib >/dev/null 2>&1 || ktap_skip_all "no ib_ipoib module"
check "load ib_mcgroups" mcg_load settle_ms=300 backoff_base_ms=200
check "load ib_ipoib" modprobe ib_ipoib
wait_for -t 10 mcg_ipoib_dev 2
IB1=$(mcg_ipoib_dev 1)
IB2=$(mcg_ipoib_dev 2)
ip netns add $NS
ip link set "$IB2" netns $NS
ip addr add 10.78.0.1/24 dev "$IB1"
ip link set "$IB1" up
in_ns ip addr add 10.78.0.2/24 dev "$IB2"
in_ns ip link set "$IB2" up
both_up() { mcg_carrier "$IB1" && mcg_carrier "$IB2"; }
check "both IPoIB interfaces up (broadcast group joined)" wait_for -t 20 both_up
check "IPoIB pings" ping -c 2 -W 5 10.78.0.2

# mismatching parameters: refused before multicast.c's bare -EINVAL
refused "a hold with Q_Key 0x1234 is refused, naming the Q_Key" "Q_Key differs from the group's" \
	mcctl join "$P" $BCAST owner bad create qkey 0x1234
refused "a hold with MTU 4096 is refused, naming the MTU" "MTU differs from the group's" \
	mcctl join "$P" $BCAST owner bad create qkey 0x0b1b mtu 4096
refused "a hold with SL 1 is refused, naming the SL" "SL differs from the group's" \
	mcctl join "$P" $BCAST owner bad create qkey 0x0b1b sl 1
if [ -n "$(mcctl join "$P" $BCAST owner bad create qkey 0x1234 2>&1 | grep -o "0x00000b1b")" ]; then
	ktap_ok "the message has the group's Q_Key 0x00000b1b"
else
	ktap_skip "the message has the group's Q_Key # no NL_SET_ERR_MSG_FMT (before 6.2)"
fi
err=$(run_unpriv mcctl hold "$P" $BCAST qkey 0x1234 -- true 2>&1)
if [ $? -ne 0 ] && [[ $err == *"without CAP_NET_ADMIN"* ]] && [[ $err != *0x00000b1b* ]]; then
	ktap_ok "a user giving a Q_Key is refused without learning IPoIB's"
else
	ktap_fail "a user giving a Q_Key is refused without learning IPoIB's"
	ktap_diag "$err"
fi

# IPoIB's parameters: one SA membership, shared
check_eq "mcctl list: IPoIB's $BCAST alone is not listed" "" "$(list_entry $BCAST)"
check "hold $BCAST with IPoIB's parameters" mcctl join "$P" $BCAST owner co $IPOIB_PARAMS
check_eq "... joined" joined "$(state_of $BCAST)"
check_eq "the SA still has one membership of port 1 (full)" "1 0x1" \
	"$(nmemb1 $BCAST) $(join1 $BCAST)"
check_eq "mcctl -j list: our holder alone (holder_count 1, co, full)" \
	'[1,"co","full"]' "$(list_entry $BCAST)"
check "mcctl list: the line says holders 1 co(full)" \
	sh -c "mcctl list $P | grep -q ' group $BCAST .* holders 1 co(full)\$'"
check_eq "mcctl stats: the port counts our group and hold only" "1 1" "$(port_counts)"
mcast_join -I "$IB1" 239.1.2.3 >/tmp/mjc.$$ &
mj=$!
defer kill $mj
check "IPoIB joins $G4 for a socket on $IB1" wait_for -t 10 join1_is $G4 0x1
check "hold $G4 with IPoIB's parameters" mcctl join "$P" $G4 owner co $IPOIB_PARAMS
check_eq "one SA membership of port 1 on $G4" "1 0x1" "$(nmemb1 $G4) $(join1 $G4)"

check "our leave of $BCAST" mcctl leave "$P" $BCAST owner co
check_eq "IPoIB's membership stays at the SA" 0x1 "$(join1 $BCAST)"
check_eq "... and mcctl list no longer shows $BCAST" "" "$(list_entry $BCAST)"
check "IPoIB still pings" ping -c 2 -W 5 10.78.0.2

check "hold $BCAST again" mcctl join "$P" $BCAST owner co $IPOIB_PARAMS
ip link set "$IB1" down
check "ip link set $IB1 down: our hold stays joined, and at the SA" \
	sh -c "sleep 2; [ \"\$(mcctl -j show $P $BCAST | jq -r .state)\" = joined ] && grep -q 'member mgid=$BCAST .*gid=$GID1 join=0x1' $D/sa_db"
ip link set "$IB1" up
wait_for -t 20 mcg_carrier "$IB1"

echo 1 >$D/client_reregister
check "after a client reregister that wiped the SA: port 1 back in both groups" \
	wait_for -t 20 sh -c "grep -q 'member mgid=$BCAST .*gid=$GID1 join=0x1' $D/sa_db && grep -q 'member mgid=$G4 .*gid=$GID1 join=0x1' $D/sa_db"
check "our holds joined again" wait_for -t 20 sh -c "[ \"\$(mcctl -j show $P $BCAST | jq -r .state)\" = joined ] && [ \"\$(mcctl -j show $P $G4 | jq -r .state)\" = joined ]"
check "IPoIB pings after the reregister" ping -c 2 -W 10 10.78.0.2
kill $mj 2>/dev/null
mcctl leave "$P" $BCAST owner co
mcctl leave "$P" $G4 owner co
ktap_finish
