#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The settle time after a CLIENT_REREGISTER holds even when ib_mcgroups
# hears of the reregister late. multicast.c reports the lost groups
# (-ENETRESET) from its own event handler's work; a slow handler of another
# client between multicast.c's and ours (simhca's event_delay_ms) delays
# ours. Re-joins of groups reported before we heard of the reregister must
# wait for it too: a new master ignores SA requests during its first sweep
# (simhca's first_sweep_ms), and a re-join sent then only times out.
# Reports of a LID change (no settle time) heard late are re-joined as soon
# as the event is heard, not 10 s later. An event heard a moment before
# does not explain a second one's reports: each event explains one loss
# of each membership.
# timeout: 300
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
N=64
SETTLE=1500
LATE=400

# MCMemberRecord requests the SA saw in the 10 ms windows that began before
# MS since the stats' reset
ARRIVALS=/sys/kernel/debug/simhca/simhca0/arrivals
mcm_before() {
	awk -v e="$1" '$1 < e {s += $3} END {print s + 0}' "$ARRIVALS"
}
waves_are() { [ "$(cat $SYS/rejoin_waves)" = "$1" ]; }
# reregister_late WAVE: a new master that ignores the SA for 1 s, whose
# reregister our handler hears LATE ms after multicast.c has reported the
# groups lost; waits for the port's WAVEth wave, and sets early to the
# MCMemberRecords the SA saw in the settle time
reregister_late() {
	echo 1000 >$D/first_sweep_ms
	echo $LATE >$D/event_delay_ms
	echo 1 >$D/stats
	echo 1 >$D/client_reregister
	wait_for -t 60 waves_are "$1"
	echo 0 >$D/event_delay_ms
	early=$(mcm_before $SETTLE)
	ktap_diag "MCMemberRecords in the first $SETTLE ms: $early; wave $(cat $SYS/last_rejoin_wave_ms) ms"
	# when, in 10 ms windows (ib_mad resends an ignored request every
	# 300 ms: one request sent early shows as a train)
	[ "$early" = 0 ] ||
		awk -v e=$SETTLE '$1 < e && $3 {print "    # at " $1 " ms: " $3}' "$ARRIVALS"
}
not_joined() {
	mcg_count '!joined' owner job:1
}

ktap_plan 13
modprobe ib_umad
check "load simhca" modprobe simhca || ktap_skip_all "no simhca"
check "load ib_mcgroups (settle_ms=$SETTLE)" \
	mcg_load rejoin_rate=1000 settle_ms=$SETTLE join_wait_ms=0
defer mcg_unload_simhca
check "hold $N groups" mcg_bulk join simhca0 1 $N job:1
# join_wait_ms=0: the joins are answered later. A join still on its way
# when the reregister comes is not a re-join, and is not held.
check "... all joined" wait_for -t 60 mcg_all_joined owner job:1
timeouts=$(cat $SYS/sa_timeouts)

reregister_late 1
check_eq "handler $LATE ms late: no re-join before the settle time" 0 "$early"
check_eq "... all $N groups joined again" 0 "$(not_joined)"
check_eq "... no SA time-out" "$timeouts" "$(cat $SYS/sa_timeouts)"
check_eq "... sm_reregisters counts it" 1 "$(cat $SYS/sm_reregisters)"

# A LID change heard late: no settle time, and no 10 s wait for the event.
echo 0 >$D/first_sweep_ms
echo $LATE >$D/event_delay_ms
echo 1 >$D/stats
lid=$(cat $D/port1/lid)
echo $((lid + 16)) >$D/port1/lid
wait_for -t 60 waves_are 2
echo 0 >$D/event_delay_ms
wave=$(cat $SYS/last_rejoin_wave_ms)
ktap_diag "LID change heard $LATE ms late: wave $wave ms"
check "LID change heard late: the wave ends within 3 s" test "$wave" -lt 3000
check_eq "... all $N groups joined again" 0 "$(not_joined)"

# Straight after, a reregister heard late again: the LID change, heard
# less than 10 s ago, has had its reports, and explains none of these.
reregister_late 3
check_eq "a reregister heard late just after another event: no re-join before the settle time" 0 "$early"
check_eq "... all $N groups joined again" 0 "$(not_joined)"
check_eq "... sm_reregisters counts it" 2 "$(cat $SYS/sm_reregisters)"
ktap_finish
