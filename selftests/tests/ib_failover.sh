#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# SM failover with 1,000 groups held: a new master that wiped the SA
# database gets every group back with the right join state, never faster
# than rejoin_rate; a master silent during its first sweep is waited out;
# a port that goes down is re-joined once it is up again, with no MADs
# while down; a group whose P_Key leaves the table waits for it.
# timeout: 400
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
N=1000
RATE=200

full_members() { grep -c '^member .* join=0x1 ' $D/sa_db; }
waves_are() { [ "$(cat $SYS/rejoin_waves)" = "$1" ]; }
sa_set_rx() { awk '$1 ~ /^rx_.*[Ss]et.*MCMember/ {n += $2} END {print n + 0}' $D/stats; }

ktap_plan 21
modprobe ib_umad
check "load simhca" modprobe simhca || ktap_skip_all "no simhca"
check "load ib_mcgroups (rejoin_rate=$RATE, settle 500 ms)" \
	mcg_load rejoin_rate=$RATE settle_ms=500 backoff_base_ms=300
defer mcg_unload_simhca

check "hold $N groups" mcg_bulk join simhca0 1 $N job:1
check_eq "the SA has $N groups, each with our full member" "$N $N" \
	"$(sa_groups) $(full_members)"

echo 1 >$D/stats
traced=0
fn_trace_start ib_sa_join_multicast ib_sa_mcmember_rec_query && traced=1
start=${EPOCHREALTIME/./}
mcg_wave_record ib_failover $N $RATE	# the picture: out/ib_failover.svg
echo 1 >$D/client_reregister
check "reregister, SA wiped: a re-join wave completes" wait_for -t 60 waves_are 1
mcg_wave_stop
[ $traced = 1 ] && fn_trace_stop
check_eq "every group is back with its join state" "$N $N" \
	"$(sa_groups) $(full_members)"
# rejoin_rate's bucket makes up a late run's time, up to 10 ms of requests
# (pacer.h): at 200/s, 2 beyond the rate in any stretch of time. That is
# the bound of our calls of ib_sa_join_multicast(), which the function
# tracer counts. The SA sees multicast.c's posts (ib_sa_mcmember_rec_query()),
# made from its ordered workqueue: on a loaded host, or a debug kernel,
# that workqueue runs late, and what it held back comes at once (CI saw
# 25 MCMemberRecords in 100 ms on the debug kernel, 24 on 7.2), which is
# not ours to bound. The SA's count is checked over a second, where 10 ms
# of that (2 requests) is 1 % of the rate. ib_sa's own queries
# (ClassPortInfo, 1 s after the reregister, inside this wave) are not
# ours: MCMemberRecords alone are counted.
late=$((RATE / 100))
if [ $traced = 1 ]; then
	calls=$(fn_trace_peak ib_sa_join_multicast 100)
	ncalls=$(fn_trace_count ib_sa_join_multicast)
	ktap_diag "peak in 100 ms: our joins $calls (limit $((RATE / 10)) + 2 made up) of $ncalls, multicast.c's posts $(fn_trace_peak ib_sa_mcmember_rec_query 100), MCMemberRecords at the SA $(sa_stat mcm_max_per_100ms), all requests $(sa_stat max_per_100ms)"
	check "we never called ib_sa_join_multicast() more than rejoin_rate in 100 ms (with its 10 ms of catch-up)" \
		test "$calls" -le $((RATE / 10 + 2)) -a "$ncalls" -ge $N
else
	ktap_skip "we never called ib_sa_join_multicast() more than rejoin_rate in 100 ms" "no function tracer"
fi
ktap_diag "MCMemberRecords per 10 ms around the SA's peak: $(sa_arrivals_at "$(sa_stat mcm_max_per_100ms_end_ms)")(ms:n); answers to resent requests: $(sa_stat answers_resent)"
sec=$(sa_arrivals_peak 1000)
ktap_diag "peak SA MCMemberRecord requests in a second: $sec (limit $RATE + 2 made up + $late late)"
check "the SA never saw more than rejoin_rate in a second" test "$sec" -le $((RATE + 2 + late))
check_eq "counters: one reregister, $N group re-joins" "1 $N" \
	"$(cat $SYS/sm_reregisters) $(cat $SYS/group_rejoins)"
wave=$(cat $SYS/last_rejoin_wave_ms)
ktap_diag "last_rejoin_wave_ms $wave"
check "wave took at least N / rate" test "$wave" -ge $((N * 1000 / RATE - 500))
check "and no more than the time we waited" \
	test "$wave" -le $(((${EPOCHREALTIME/./} - start) / 1000))
check_eq "no group left waiting" 0 "$(mcctl -j stats $P | jq '.[0].rejoin_pending')"

check "release all but 50" mcg_bulk leave simhca0 1 $((N - 50)) job:1 0x1032
echo 2500 >$D/first_sweep_ms
echo 1 >$D/client_reregister
check "a new master silent for its first sweep: wave completes after it" \
	wait_for -t 60 waves_are 2
check_eq "all 50 back" "50 50" "$(sa_groups) $(full_members)"
check "and not before the sweep ended (2.5 s)" \
	test "$(cat $SYS/last_rejoin_wave_ms)" -ge 2500
echo 0 >$D/first_sweep_ms

echo down >$D/port1/state
sleep 1
rx=$(sa_set_rx)
sleep 3
check_eq "port down for 3 s: no joins sent" "$rx" "$(sa_set_rx)"
check "the groups wait" sh -c "mcctl list $P | grep -qv joined"
echo up >$D/port1/state
check "port up: wave completes" wait_for -t 30 waves_are 3
check_eq "all 50 joined" 50 "$(mcg_count joined $P)"
check "rmmod with 50 groups held" mcg_unload
ktap_diag "$(tail -n 30 $D/stats)"
ktap_finish
