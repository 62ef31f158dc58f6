#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A join of an SA-assigned MGID (group 0) that the SA has not answered yet
# is held under no MGID: "mcctl leave owner X all" (the epilog) releases
# it, by group, without a kernel warning, and so does a LEAVE of group 0.
# timeout: 180
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca

warnings() { dmesg | grep -c 'WARNING:'; }
# pending OWNER: OWNER's SA-assigned join is held and waits for the SA
pending() {
	local out

	out=$(mcctl -j join "$P" 0 owner "$1" create) &&
		[ "$(jq -r .state <<<"$out")" = joining ]
}

ktap_plan 13
modprobe ib_umad
check "load simhca" modprobe simhca || ktap_skip_all "no simhca"
# JOINs reply at once; the SA answers after 2.5 s (within its retries).
check "load ib_mcgroups" mcg_load join_wait_ms=0
defer mcg_unload_simhca
echo 2500 >$D/delay_ms
w0=$(warnings)

check "job:1 holds a group whose SA-assigned MGID is pending" pending job:1
check "and one with an MGID" mcctl join "$P" ff12:401b:ffff::7 owner job:1 create
out=$(mcctl -j leave owner job:1 all)
check_eq "mcctl leave owner job:1 all exits 0" 0 $?
ktap_diag "$out"
check_eq "both holds dropped" 2 "$(jq -r .holds_dropped <<<"$out" 2>/dev/null)"
check_eq "the pending group is reported with no MGID, released" ":: released" \
	"$(jq -r '.groups[] | select(.group == "::") | "\(.group) \(.state)"' <<<"$out" 2>/dev/null)"
check_eq "nothing held" "0 0" "$(cat $SYS/groups $SYS/holders | xargs)"

check "job:2 holds a pending SA-assigned group" pending job:2
check "a LEAVE of group 0 releases it" mcctl leave "$P" 0 owner job:2
check_eq "nothing held" "0 0" "$(cat $SYS/groups $SYS/holders | xargs)"
check "a LEAVE of group 0 with nothing pending is refused" \
	__lib_not mcctl leave "$P" 0 owner job:2
check_eq "no kernel warning" "$w0" "$(warnings)"
echo 0 >$D/delay_ms
ktap_finish
