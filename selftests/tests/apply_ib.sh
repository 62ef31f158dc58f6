#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Declared groups on InfiniBand (simhca): apply creates an all-ib group
# with its declared parameters in the SA, jobs reuse a lingering pool
# group without SA traffic, and after the HCA goes away and comes back
# (simhca reloaded) apply creates the declared group in the SA again.
# RoCE ports other tests left behind must not matter: the pool's MTU
# keeps its "all" target on InfiniBand ports.
# timeout: 150
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
CONF=$(mktemp /tmp/ib_mcgroups.conf.XXXXXX)
defer rm -f "$CONF"
cat >"$CONF" <<CONF_EOF
group mgmt  all-ib      ff12:401b:ffff::1:1 create qkey 0x1b mtu 2048
group roce  nosuchdev/1 239.1.1.1
pool  coll0 all         ff12:401b:ffff::100 create mtu 1024 linger 2s
CONF_EOF

mc() { mcctl -c "$CONF" "$@"; }
sa_member() { grep -c "^member mgid=$1 " $D/sa_db; }
sa_set_rx() { awk '$1 ~ /^rx_.*[Ss]et.*MCMember/ {n += $2} END {print n + 0}' $D/stats; }
state_of() { mcctl -j show simhca0/1 "$1" | jq -r .state; }

ktap_plan 16
modprobe ib_umad
check "load simhca" modprobe simhca || ktap_skip_all "no simhca"
check "load ib_mcgroups" mcg_load settle_ms=300 backoff_base_ms=200
defer mcg_unload_simhca

check_eq "apply joins mgmt on the IB port, skips the absent device" \
	"1 0 0 0 1 0" "$(apply_summary "$(mc -j apply)")"
check "the SA created it with the declared Q_Key and MTU" \
	grep -q "^group mgid=ff12:401b:ffff::1:1 .* qkey=0x0000001b mtu=0x84 " $D/sa_db
check_eq "a second apply keeps it" "0 0 0 1 1 0" "$(apply_summary "$(mc -j apply)")"

check "job:7 joins coll0 by name" mc join coll0 owner job:7
check_eq "the SA holds our membership of coll0" 1 "$(sa_member ff12:401b:ffff::100)"
check "job:7 leaves" mc leave coll0 owner job:7
check_eq "coll0 lingers, still a member in the SA" "lingering 1" \
	"$(state_of ff12:401b:ffff::100) $(sa_member ff12:401b:ffff::100)"
sets=$(sa_set_rx)
check "job:8 joins coll0 within the linger time" mc join coll0 owner job:8
check_eq "without a request to the SA" "$sets" "$(sa_set_rx)"
check "job:8 leaves" mc leave coll0 owner job:8
sa_gone() { [ "$(sa_member ff12:401b:ffff::100)" = 0 ]; }
check "after the linger time our membership is gone from the SA" wait_for -t 15 sa_gone

check "the HCA goes away (simhca unloaded) and comes back" \
	sh -c "rmmod simhca && modprobe simhca"
wait_for -t 10 test -d $SYS
check_eq "apply creates the declared group again" "1 0 0 0 1 0" "$(apply_summary "$(mc -j apply)")"
check_eq "and the SA has it with our membership" 1 "$(sa_member ff12:401b:ffff::1:1)"
ktap_finish
