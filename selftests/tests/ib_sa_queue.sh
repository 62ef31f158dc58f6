#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# An SA that queues (simhca's serve_rate): one server answering R requests
# a second, one after the other, dropping nothing - as OpenSM's SA does
# when more come than it handles (its queue; simhca's rate_limit drops
# instead). Joins and a re-join wave against it: every group joined, one
# Set each at the SA (ib_mad's resends of a late answer apart), never
# more unanswered than rejoin_inflight, nothing dropped, and the SA's pace
# seen in the time they take (at least N / R: a lower bound only). The
# queue's longest wait and the resends are printed: the fleet-scale work
# (issue 31) is to keep that wait below ib_mad's 300 ms per try.
# timeout: 240
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
N=60
R=100		# the SA's requests a second
INFLIGHT=16	# rejoin_inflight: the queue's wait stays under 300 ms

waves_are() { [ "$(cat $SYS/rejoin_waves)" = "$1" ]; }
all_joined() {
	[ "$(mcg_count joined "$P")" = "$N" ]
}
now_ms() { echo $((${EPOCHREALTIME/./} / 1000)); }
# sets_are N: the SA got N MCMember Sets (a resend of one counted once)
sets_are() { [ $(($(sa_stat rx_set_mcm) - $(sa_stat answers_resent))) = "$1" ]; }
report() {
	ktap_diag "$1: SA queue's longest wait $(sa_stat serve_wait_max_us) us," \
		"requests pending at most $(sa_stat max_requests_pending)," \
		"answers to resent requests $(sa_stat answers_resent)," \
		"sa_timeouts $(cat $SYS/sa_timeouts)"
}

ktap_plan 14
modprobe ib_umad
check "load simhca" modprobe simhca || ktap_skip_all "no simhca"
check "load ib_mcgroups (rejoin_rate=1000, rejoin_inflight=$INFLIGHT)" \
	mcg_load rejoin_rate=1000 rejoin_inflight=$INFLIGHT settle_ms=0 join_wait_ms=0
defer mcg_unload_simhca
echo $R >$D/serve_rate
echo 1 >$D/stats

# --- fresh joins -------------------------------------------------------------
t0=$(now_ms)
check "hold $N groups" mcg_bulk join simhca0 1 $N job:1
check "the SA has them all" wait_for -t 60 sa_groups_are $N
check "mcctl lists them all joined" wait_for -t 30 all_joined
el=$(($(now_ms) - t0))
report "$N joins in $el ms at $R/s"
check "they took at least N / R (the SA's pace)" test "$el" -ge $((N * 1000 / R - 20))
check "one Set each at the SA" sets_are $N
check "nothing dropped" test "$(sa_stat drop_rate)" = 0
check "never more than rejoin_inflight ($INFLIGHT) unanswered" \
	test "$(sa_stat max_requests_pending)" -le $INFLIGHT

# --- a re-join wave ----------------------------------------------------------
echo 1 >$D/stats
w=$(cat $SYS/rejoin_waves)
echo 1 >$D/client_reregister
check "SA wiped: the re-join wave completes" wait_for -t 120 waves_are $((w + 1))
check "the SA has them all again" sa_groups_are $N
wave=$(cat $SYS/last_rejoin_wave_ms)
report "re-join wave of $N in $wave ms at $R/s"
check "the wave took at least N / R" test "$wave" -ge $((N * 1000 / R - 20))
check "one Set each at the SA" sets_are $N
check "never more than rejoin_inflight ($INFLIGHT) unanswered" \
	test "$(sa_stat max_requests_pending)" -le $INFLIGHT
echo 0 >$D/serve_rate
ktap_finish
