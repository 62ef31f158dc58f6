#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The InfiniBand pacer (rejoin_rate, rejoin_inflight): groups released at
# once leave the SA with one Delete each, never more unanswered than the
# in-flight limit; joins, re-joins and leaves all keep that limit; fresh
# joins do not wait behind a re-join wave paced at rejoin_rate. Every
# check counts what simhca's SA saw; none measures time.
# timeout: 400
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
N=2000
PARAM=/sys/module/ib_mcgroups/parameters

waves_are() { [ "$(cat $SYS/rejoin_waves)" = "$1" ]; }
joined() { mcg_count joined "$P"; }
joined_from() {
	mcctl -j list "$P" | jq --arg p "$1" \
		'[.[] | select(.state == "joined" and (.group | startswith($p)))] | length'
}
# Every Delete sent has been answered (the SA answers each one it gets).
deletes_answered() {
	[ "$(sa_stat rx_delete_mcm)" = "$(sa_stat answered_delete_mcm)" ]
}

ktap_plan 25
modprobe ib_umad
check "load simhca" modprobe simhca || ktap_skip_all "no simhca"
check "load ib_mcgroups (rejoin_rate=2000, rejoin_inflight=8)" \
	mcg_load rejoin_rate=2000 rejoin_inflight=8 settle_ms=200
defer mcg_unload_simhca

# --- N groups released at once: N Deletes ----------------------------------
check "hold $N groups" mcg_bulk join simhca0 1 $N job:1
check_eq "the SA has them" $N "$(sa_groups)"
# debugfs pacer: each InfiniBand port's window, round trips, requests out
pacer=/sys/kernel/debug/ib_mcgroups/pacer
check_eq "debugfs pacer: a line per port of simhca0" \
	"$(ls /sys/class/infiniband/simhca0/ports | wc -l)" \
	"$(grep -c '^simhca0/[0-9]* window=' $pacer)"
check "port 1's window, round trips, nothing unanswered" \
	grep -Eq '^simhca0/1 window=[0-9]+/256 start=[01] base_us=[0-9]+ srtt_us=[0-9]+ cuts=0 bound_us=0 joins=0 users=0 deletes=0 active=1 settling=[01] wave=0 heard_ms=-?[0-9]+ unheard_ms=0 wave_waits=0$' $pacer
echo 1 >$D/stats
check "release all $N at once" mcg_bulk leave simhca0 1 $N job:1
check "the SA loses every group" wait_for -t 120 sa_groups_are 0
# A Delete whose answer is lost (the port's MAD receive queue overflowed)
# is sent again: by ib_mad after 300 ms (the same request), by multicast.c
# once that has failed (3 s): give any such resend the time to show. ib_mad
# sends it again too when the answer is only late, which on a loaded
# machine it can be even with no delay at the SA: answers_resent counts
# those, the losses are answers_rq_empty.
sleep 4
wait_for -t 20 deletes_answered
ktap_diag "SA Deletes: $(sa_stat rx_delete_mcm); answers pending at most: $(sa_stat max_answers_pending);" \
	"answers to resent requests: $(sa_stat answers_resent)"
check_eq "no SA answer lost to a full MAD receive queue" 0 "$(sa_stat answers_rq_empty)"
check_eq "exactly one SA Delete per group (ib_mad's resends aside)" $N \
	"$(($(sa_stat rx_delete_mcm) - $(sa_stat answers_resent)))"

# --- the in-flight limit, with a slow SA -----------------------------------
# With every answer delayed, an answer pending at simhca is a request that
# ib_mcgroups has sent and not yet had answered: max_requests_pending is
# the most at once. ib_mad resends a request whose answer has not come
# after 300 ms (multicast.c's 3 s timeout over 10 tries), with the same
# TID; on a loaded machine a 100 ms answer can come later than that, and
# the SA then answers the same request twice. max_requests_pending counts
# such a request once (max_answers_pending, in the diagnostics, counts
# every answer): the pacer's limit is on the requests it sends, not on
# ib_mad's resends of them.
pending() {
	ktap_diag "$1: requests pending at most $(sa_stat max_requests_pending)," \
		"answers pending at most $(sa_stat max_answers_pending)," \
		"answers to resent requests $(sa_stat answers_resent)"
}
# A join waits for its outcome: 8 joiners of 10 groups each, at once,
# ask for up to 8 joins at a time. (With answers 100 ms late the port's
# window keeps about one join in flight: 10 a second.)
hold_8x10() {
	local i rc=0 pids=()

	for i in $(seq 0 7); do
		mcg_bulk join simhca0 1 10 job:2 $((0x1000 + 10 * i)) >/dev/null &
		pids+=($!)
	done
	for i in "${pids[@]}"; do
		wait "$i" || rc=1
	done
	return $rc
}
M=80
echo 4 >$PARAM/rejoin_inflight
echo 100 >$D/delay_ms
echo 1 >$D/stats
check "hold $M groups (8 joiners at once), every SA answer 100 ms late" hold_8x10
pending "fresh joins"
check "fresh joins: at most 4 unanswered at once" \
	test "$(sa_stat max_requests_pending)" -le 4
echo 1 >$D/stats
w=$(cat $SYS/rejoin_waves)
echo 1 >$D/client_reregister
check "SA wiped: a re-join wave completes" wait_for -t 120 waves_are $((w + 1))
check_eq "every group is back" $M "$(sa_groups)"
# One more: the ClassPortInfo query ib_sa makes after a re-register.
pending "re-joins"
check "re-joins: at most 4 (+1) unanswered at once" \
	test "$(sa_stat max_requests_pending)" -le 5
echo 1 >$D/stats
check "release them all at once" mcg_bulk leave simhca0 1 $M job:2
check "the SA loses every group" wait_for -t 120 sa_groups_are 0
ktap_diag "Deletes: $(sa_stat rx_delete_mcm)"
pending "leaves"
check "leaves: at most 4 unanswered at once" \
	test "$(sa_stat max_requests_pending)" -le 4
echo 0 >$D/delay_ms
echo 8 >$PARAM/rejoin_inflight

# --- fresh joins do not wait behind a paced re-join wave -------------------
echo 1 >$PARAM/rejoin_rate
check "hold 30 groups at rejoin_rate=1" mcg_bulk join simhca0 1 30 job:3
w=$(cat $SYS/rejoin_waves)
r=$(cat $SYS/group_rejoins)
echo 1 >$D/client_reregister
check "a re-join wave of 30 groups at 1/s starts" \
	wait_for -t 30 sh -c "[ \$(mcctl -j stats $P | jq '.[0].rejoin_pending') -gt 0 ]"
check "20 fresh groups joined one after the other" \
	mcg_bulk join simhca0 1 20 job:4 0x9000
check_eq "all 20 joined" 20 "$(joined_from ff12:401b:ffff::9)"
ktap_diag "group re-joins done by then: $(($(cat $SYS/group_rejoins) - r)) of 30"
check "while the wave is still on" waves_are "$w"
echo 1000 >$PARAM/rejoin_rate
check "the wave completes" wait_for -t 60 waves_are $((w + 1))
check_eq "all 50 joined" 50 "$(joined)"
ktap_finish
