#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A group this node created is created again after the SA lost it (a
# client reregister that wiped the SA) with what its creator asked for,
# not with what the old SM chose: a new SM whose ports have a smaller MTU
# (simhca's neighbor_mtu, OpenSM's neighbour MTU of the port) gives the
# group it can give when the creator named no MTU or rate, and refuses
# the one whose creator asked for exactly 4096 bytes, which stays held and
# waits for its retry. Issue #27 finding 11: the re-join sent the old MTU
# and rate as "exactly", which the new SM refused for ever.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
GA=ff12:401b:ffff::a1	# created without MTU or rate
GB=ff12:401b:ffff::a2	# created with exactly MTU 4096

show() { mcctl -j show "$P" "$1" | jq -r "$2"; }
joined_with_mtu() { [ "$(show "$1" '.state + " " + (.mtu | tostring)')" = "joined $2" ]; }

ktap_plan 9
modprobe ib_umad
check "load simhca" modprobe simhca || ktap_skip_all "no simhca"
check "load ib_mcgroups" mcg_load settle_ms=300 backoff_base_ms=200
defer mcg_unload_simhca

check "a creates $GA, naming no MTU: joined with the SA's 4096" \
	sh -c "mcctl join $P $GA owner a create &&
	       [ \"\$(mcctl -j show $P $GA | jq -r .mtu)\" = 4096 ]"
check "a creates $GB with mtu 4096" mcctl join "$P" $GB owner a create mtu 4096
check "$GB joined with 4096" joined_with_mtu $GB 4096

# A new SM: the ports' MTU is 2048 now, and the SA forgot every group.
echo 4 >"$D/neighbor_mtu"	# IB_MTU_2048
defer sh -c "echo 0 >$D/neighbor_mtu"
echo 1 >"$D/client_reregister"
check "$GA is created again with the MTU the new SM gives: 2048" \
	wait_for -t 20 joined_with_mtu $GA 2048
check_eq "the SA has it with MTU 2048 (selector exactly, as created)" 1 \
	"$(grep -c "^group mgid=$GA .*mtu=0x84" "$D/sa_db")"
state_holders() { [ "$(show "$1" '.state + " " + (.holders | length | tostring)')" = "$2" ]; }
check "$GB, which asked for exactly 4096, is refused and waits, still held" \
	wait_for -t 10 state_holders $GB "retry-wait 1"
check "the SA has no $GB" sh -c "! grep -q '^group mgid=$GB ' $D/sa_db"
ktap_finish
