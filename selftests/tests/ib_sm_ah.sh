#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The InfiniBand backend after a port comes up, while ib_sa has no address
# handle for the SM yet (it drops it at every port event and makes a new
# one in a work of its own; until then every SA query fails with EAGAIN):
# simhca's ah_delay_ms holds that window open. Joins that waited for the
# port - a create by MGID, an SA-assigned MGID, a group lost at port down -
# are joined, with no join error, no failed re-join and no retry-wait. If
# ib_sa cannot make one at all (ah_fail_next), the group goes to
# retry-wait with EAGAIN, and is joined once the next port event (an SM
# change) has given ib_sa its address handle.
# timeout: 150
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
PARAM=/sys/module/ib_mcgroups/parameters
G=ff12:401b:ffff::10
G2=ff12:401b:ffff::11
G3=ff12:401b:ffff::12
OUT=/tmp/ib_sm_ah.$$

state_of() { mcctl -j show "$P" "$1" | jq -r .state; }
state_is() { [ "$(state_of "$1")" = "$2" ]; }
joined() { state_is "$1" joined; }
stat_above() { [ "$(sa_stat "$1")" -gt "$2" ]; }
not_joined() { mcg_count '!joined' "$P"; }
both_wait() { [ "$(cat $SYS/holders)" = 3 ] && state_is $G2 joining; }
# The port goes down, and ib_sa has made its SM address handle for that
# event (PORT_ERR): the knobs set next meet only the one of the port up.
port_down() {
	local n

	n=$(sa_stat sm_ah_creates)
	echo down >$D/port1/state
	wait_for -t 10 stat_above sm_ah_creates "$n"
}
field() { jq -r "$1" <"$2" 2>/dev/null; }

ktap_plan 26
modprobe ib_umad
check "load simhca" modprobe simhca || ktap_skip_all "no simhca"
check "load ib_mcgroups" mcg_load backoff_base_ms=200
defer mcg_unload_simhca
defer rm -f $OUT.g2 $OUT.sa $OUT.g3
SCALE=${TIMEOUT_SCALE:-1}
echo $((20000 * SCALE)) >$PARAM/join_wait_ms

check_eq "a creates $G: joined" joined \
	"$(mcctl -j join "$P" $G owner a create | jq -r .state)"
errors=$(cat $SYS/join_errors)
failures=$(cat $SYS/rejoin_failures)

# --- a slow SM address handle: a transient EAGAIN, joined ---
check "port down, ib_sa's PORT_ERR handled" port_down
check "$G waits for the port" wait_for -t 10 __lib_not joined $G
# Well inside the ~1 s of quick re-issues (not scaled: that bound is not).
echo 200 >$D/ah_delay_ms
mcctl -j join "$P" $G2 owner w create >$OUT.g2 2>&1 &
p2=$!
mcctl -j join "$P" 0 owner u create >$OUT.sa 2>&1 &
p3=$!
check "both joins wait for the port" wait_for -t 10 both_wait
n=$(sa_stat sm_ah_creates)
echo up >$D/port1/state
wait $p2
check_eq "port up, no SM address handle yet: mcctl join of $G2 succeeds" 0 $?
check_eq "with the group joined" joined "$(field .state $OUT.g2)"
ktap_diag "$(cat $OUT.g2)"
wait $p3
check_eq "an SA-assigned MGID join succeeds too" 0 $?
check_eq "joined" joined "$(field .state $OUT.sa)"
ktap_diag "$(cat $OUT.sa)"
check "$G lost at port down is joined again" wait_for -t 10 joined $G
check_eq "ib_sa's new SM address handle was the slow one" $((n + 1)) \
	"$(sa_stat sm_ah_creates)"
check_eq "no join error" "$errors" "$(cat $SYS/join_errors)"
check_eq "no failed re-join" "$failures" "$(cat $SYS/rejoin_failures)"
check_eq "every group joined" 0 "$(not_joined)"
echo 0 >$D/ah_delay_ms

# --- no SM address handle until the next port event: retry-wait, EAGAIN ---
check "port down again" port_down
echo 1 >$D/ah_fail_next
mcctl -j join "$P" $G3 owner f create >$OUT.g3 2>&1 &
p4=$!
check "a join of $G3 waits for the port" wait_for -t 10 state_is $G3 joining
echo up >$D/port1/state
wait $p4
check_eq "ib_sa could not make its SM address handle: mcctl join succeeds" 0 $?
check_eq "with $G3 in retry-wait" retry-wait "$(field .state $OUT.g3)"
check_eq "reason error, EAGAIN" "error 11" "$(field '.reason + " " + (.error | tostring)' $OUT.g3)"
ktap_diag "$(cat $OUT.g3)"
check_eq "the create failed" 1 "$(sa_stat sm_ah_fails)"
check "counted as a failed re-join" test "$(cat $SYS/rejoin_failures)" -gt "$failures"
check_eq "not as a join error" "$errors" "$(cat $SYS/join_errors)"
echo 1 >$D/sm_change
check "after an SM change $G3 is joined" wait_for -t 30 joined $G3
check "and so is every other group" wait_for -t 30 mcg_all_joined "$P"
check_eq "all four held" 4 "$(cat $SYS/groups)"
ktap_finish
