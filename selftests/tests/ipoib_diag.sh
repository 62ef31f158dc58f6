#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# mcctl diag and IPoIB joining a group that ib_mcgroups created with other
# parameters (simhca, internal SA with IPoIB's broadcast group): IPoIB
# joins an IPv4-mapped MGID with its broadcast group's Q_Key, MTU, SL,
# rate and P_Key; ib_core's multicast.c refuses the join (EINVAL) when our
# membership of the port has others, and IPoIB retries without end. diag
# finds the interface (its multicast addresses in /proc/net/dev_mcast),
# fails the "ipoib" check naming the MGID, the netdev, the field and both
# values, with the fix; after a leave and a join with IPoIB's parameters
# IPoIB's join completes (its debugfs _mcg file) and the check passes.
# timeout: 180
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
BCAST=ff12:401b:ffff::ffff:ffff
G4=ff12:401b:ffff::f01:203	# IPoIB's MGID of 239.1.2.3, P_Key 0xffff
G5=ff12:401b:ffff::f01:204	# 239.1.2.4
G6=ff12:401b:ffff::f01:205	# 239.1.2.5, which IPoIB does not join
IPOIB_PARAMS="create qkey 0x0b1b pkey 0xffff mtu 2048 rate 10 sl 0"

# the "ipoib" check of mcctl -j diag GROUP $P: "RESULT|detail|fix"
ipoib_check() {
	mcctl -j diag "$1" "$P" 2>/dev/null |
		jq -r '.[0].checks[] | select(.check == "ipoib") | "\(.result)|\(.detail)|\(.fix // "")"'
}
# IPoIB's join of the group in debugfs (CONFIG_INFINIBAND_IPOIB_DEBUG)
mcg_file() { echo "/sys/kernel/debug/ipoib/${IB1}_mcg"; }
ipoib_complete() {
	awk -v g="$1" '$1 == "GID:" { m = ($2 == g) } m && $1 == "complete:" { print $2 }' \
		"$(mcg_file)"
}

ktap_plan 17
check "load simhca with IPoIB's broadcast group" \
	modprobe simhca nports=2 ipoib_bcast=1 || ktap_skip_all "no simhca"
defer mcg_unload_simhca
defer rmmod ib_ipoib
modinfo ib_ipoib >/dev/null 2>&1 || ktap_skip_all "no ib_ipoib module"
check "load ib_mcgroups" mcg_load settle_ms=300 backoff_base_ms=200
modprobe ib_umad	# diag asks the SA for the broadcast group's record
check "load ib_ipoib" modprobe ib_ipoib
wait_for -t 10 mcg_ipoib_dev 1
IB1=$(mcg_ipoib_dev 1)
ip link set "$IB1" up
check "$IB1 up (broadcast group joined)" wait_for -t 20 mcg_carrier "$IB1"

# created by us with Q_Key 0x1234, then a socket on $IB1 joins it
check "hold $G4 with Q_Key 0x1234" mcctl join "$P" $G4 owner d create qkey 0x1234
check "hold $G5 with MTU 1024" mcctl join "$P" $G5 owner d create qkey 0x0b1b mtu 1024
mcast_join -I "$IB1" 239.1.2.3 239.1.2.4 >/tmp/mjd.$$ &
mj=$!
defer kill $mj
wait_for -t 5 grep -q joined /tmp/mjd.$$
sleep 3
r=$(ipoib_check $G4)
ktap_diag "$r"
check_eq "diag fails the ipoib check of $G4" FAIL "${r%%|*}"
d=${r#*|}
d=${d%%|*}
case "$d" in
*"$IB1"*"$G4"*"Q_Key 0x00000b1b"*"0x00001234"*) ktap_ok "... naming $IB1, $G4, the Q_Key and both values" ;;
*) ktap_fail "... naming $IB1, $G4, the Q_Key and both values" ;;
esac
case "${r##*|}" in
*"leave"*"qkey 0x00000b1b"*) ktap_ok "... with the fix: leave, join with IPoIB's Q_Key" ;;
*) ktap_fail "... with the fix: leave, join with IPoIB's Q_Key" ;;
esac
mcctl diag $G4 "$P" >/dev/null 2>&1
check_eq "mcctl diag exits 3 (a check failed)" 3 $?
r=$(ipoib_check $G5)
ktap_diag "$r"
case "$r" in
FAIL*"$IB1"*"MTU 2048"*"1024"*) ktap_ok "diag fails $G5 naming the MTU, 2048 and 1024" ;;
*) ktap_fail "diag fails $G5 naming the MTU, 2048 and 1024" ;;
esac
if [ -r "$(mcg_file)" ]; then
	check_eq "IPoIB's join of $G4 has not completed (debugfs)" no \
		"$(ipoib_complete ff12:401b:ffff:0:0:0:f01:203)"
else
	ktap_skip "IPoIB's join of $G4 has not completed # no $(mcg_file)"
fi

# the fix the check gives
mcctl leave "$P" $G4 owner d
check "hold $G4 again with IPoIB's parameters" mcctl join "$P" $G4 owner d $IPOIB_PARAMS
r_ok() { [ "$(ipoib_check $G4 | cut -d'|' -f1)" = PASS ]; }
check "IPoIB's retry joins it: the ipoib check passes" wait_for -t 40 r_ok
ktap_diag "$(ipoib_check $G4)"

check_eq "no ipoib check for $G6, which IPoIB does not join" "" \
	"$(mcctl join "$P" $G6 owner d create qkey 0x1234 >/dev/null && ipoib_check $G6)"
check "hold the broadcast group with IPoIB's parameters" \
	mcctl join "$P" $BCAST owner d $IPOIB_PARAMS
r=$(ipoib_check $BCAST)
ktap_diag "$r"
case "$r" in
PASS*"$IB1"*broadcast*) ktap_ok "the ipoib check of $IB1's broadcast group passes" ;;
*) ktap_fail "the ipoib check of $IB1's broadcast group passes" ;;
esac
kill $mj 2>/dev/null
mcctl leave owner d all >/dev/null 2>&1
ktap_finish
