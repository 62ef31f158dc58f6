#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The InfiniBand backend under pressure: a partition's groups wait while
# their P_Key is out of the port's table and come back with it; an
# overloaded SA (rate-limited, dropping the excess) still gets every group
# back without a storm; and repeated failovers during join/leave churn
# from several processes end with holders and SA records in agreement.
# timeout: 500
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca

waves_are() { [ "$(cat $SYS/rejoin_waves)" = "$1" ]; }
state_of() { mcctl -j show "$P" "$1" | jq -r '.state + " " + .reason'; }
pending_is() { [ "$(mcctl -j stats $P | jq '.[0].rejoin_pending')" = "$1" ]; }

ktap_plan 16
modprobe ib_umad
check "load simhca" modprobe simhca || ktap_skip_all "no simhca"
check "load ib_mcgroups" mcg_load rejoin_rate=200 settle_ms=300 backoff_base_ms=300 backoff_max_ms=3000
defer mcg_unload_simhca

# --- P_Key leaves the table and comes back --------------------------------
echo "1 0x8123" >$D/port1/pkeys
check "a group in partition 0x8123" mcctl join "$P" ff12:401b:8123::1 owner p pkey 0x8123
echo "1 0x0000" >$D/port1/pkeys
echo 1 >$D/client_reregister
check "P_Key gone: the group waits for it" \
	wait_for -t 20 sh -c "mcctl -j show $P ff12:401b:8123::1 | jq -e '.reason == \"pkey-missing\"'"
echo "1 0x8123" >$D/port1/pkeys
check "P_Key back: the group is joined again" \
	wait_for -t 20 sh -c "mcctl -j show $P ff12:401b:8123::1 | jq -e '.state == \"joined\"'"
check "and the SA has it" grep -q "^group mgid=ff12:401b:8123::1 " $D/sa_db
check "leave it" mcctl leave "$P" ff12:401b:8123::1 owner p

# --- an overloaded SA ------------------------------------------------------
check "hold 1000 groups" mcg_bulk join simhca0 1 1000 job:2
echo 50 >$D/rate_limit
w=$(cat $SYS/rejoin_waves)
echo 1 >$D/stats
echo 1 >$D/client_reregister
check "SA limited to 50 MADs/s: every group still comes back" \
	wait_for -t 240 waves_are $((w + 1))
check_eq "all 1000 in the SA" 1000 "$(sa_groups)"
ktap_diag "SA dropped $(sa_stat drop_rate) MADs over its limit; ib_mcgroups saw $(cat $SYS/sa_timeouts) timeouts, $(cat $SYS/rejoin_failures) failed attempts"
# Measured on 6.12 (ib_sa resends a join every 300 ms, 10 times): a wave
# with 1,000 joins in flight and no cap, 7,898 drops, and 361 joins timed
# out; this one, 2,100-3,100 drops and none (5.10's ib_sa sends once:
# about 1,100 drops, each a timeout and a retry of ours). The window does
# not see the drops, only the resends' late answers: design-notes.rst,
# "Single-port waves: what the regression was".
check "pacing kept the drops at half an unpaced wave's (< 4 x groups)" \
	test "$(sa_stat drop_rate)" -lt 4000
echo 0 >$D/rate_limit
check "release them" mcg_bulk leave simhca0 1 1000 job:2

# --- failovers during churn -------------------------------------------------
churn() {
	local n=$1 r i

	for r in 1 2 3 4 5 6; do
		for i in 1 2 3 4 5; do
			mcctl join "$P" "ff12:401b:cccc::$i" owner "w$n" create >/dev/null || return 1
		done
		[ "$r" -eq 6 ] && break
		for i in 1 2 3 4 5; do
			mcctl leave "$P" "ff12:401b:cccc::$i" owner "w$n" >/dev/null || return 1
		done
	done
}
pids=""
for n in 1 2 3 4; do churn $n & pids="$pids $!"; done
for _ in 1 2 3; do sleep 2; echo 1 >$D/client_reregister; done
fail=0
for p in $pids; do wait "$p" || fail=$((fail + 1)); done
check_eq "4 processes churned through 3 failovers without an error" 0 $fail
check "the port settles" wait_for -t 60 pending_is 0
check_eq "holders: 4 owners x 5 groups" "5 20" "$(cat $SYS/groups) $(cat $SYS/holders)"
check_eq "the SA has exactly those 5 groups, each with our full member" "5 5" \
	"$(sa_groups) $(grep -c '^member .*join=0x1 ' $D/sa_db)"
ktap_finish
