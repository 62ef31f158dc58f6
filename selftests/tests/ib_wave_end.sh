#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A re-join wave ends only when every group that had its memberships at
# the client reregister has them again - not when an SA answer of other
# work (a fresh join, a user's join) finds the queues empty before
# multicast.c has reported the lost groups. Root churns other groups
# through the SA while the waves run, so that answers arrive at any
# moment of each wave's start, and busy loops compete with the kernel's
# workqueues for the CPUs, so that multicast.c's reports come late. Every
# wave must then last at least (N - 1) / rejoin_rate less the pacer's
# burst (10 ms of credit), and end with each of the N groups joined.
# Then the other order: ib_mcgroups hears of the reregister only after
# multicast.c has reported groups lost and some are joined again (simhca's
# event handler, between ib_sa's and ours, sleeps first): those must not
# keep the wave open until the groups nobody reported are let go (10 s).
# timeout: 300
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
N=200
RATE=100
WAVES=${WAVES:-4}

waves_are() { [ "$(cat $SYS/rejoin_waves)" = "$1" ]; }
# groups of job:1 not joined, as mcctl reports them
not_joined() {
	mcg_count '!joined' owner job:1
}

ktap_plan $((6 + 2 * WAVES))
modprobe ib_umad
check "load simhca" modprobe simhca || ktap_skip_all "no simhca"
check "load ib_mcgroups (rejoin_rate=$RATE, settle_ms=0)" \
	mcg_load rejoin_rate=$RATE settle_ms=0 join_wait_ms=0
defer mcg_unload_simhca
check "hold $N groups" mcg_bulk join simhca0 1 $N job:1
# join_wait_ms=0: the JOINs are answered before the SA's; a group still
# joining at the reregister is not lost, and makes the wave shorter
check "... all joined" wait_for -t 60 mcg_all_joined owner job:1

mcg_bulk churn simhca0 1 8 job:0 0x5000 >/dev/null 2>&1 &
others=$!
for _ in 1 2 3 4; do
	bash -c 'while :; do :; done' &
	others="$others $!"
done
# shellcheck disable=SC2086 # a list of PIDs
defer kill $others
for i in $(seq "$WAVES"); do
	rejoins=$(cat $SYS/group_rejoins)
	echo 1 >$D/client_reregister
	wait_for -t 60 waves_are "$i"
	wave=$(cat $SYS/last_rejoin_wave_ms)
	left=$(not_joined)
	ktap_diag "wave $i: ${wave} ms, groups not joined at its end: $left, re-joined: $(($(cat $SYS/group_rejoins) - rejoins))"
	check "wave $i lasted at least (N - 1) / rejoin_rate" \
		test "$wave" -ge $(((N - 1) * 1000 / RATE - 10))
	check_eq "wave $i: all $N groups joined at its end" 0 "$left"
done

# shellcheck disable=SC2086 # a list of PIDs
kill $others
wait 2>/dev/null
echo 300 >$D/event_delay_ms
echo 1 >$D/client_reregister
wait_for -t 60 waves_are $((WAVES + 1))
echo 0 >$D/event_delay_ms
wave=$(cat $SYS/last_rejoin_wave_ms)
ktap_diag "our event handler 300 ms late: wave ${wave} ms"
check "our handler 300 ms late: the wave ends when its groups are back (< 6 s, not at 10 s)" \
	test "$wave" -lt 6000
check_eq "... with all $N groups joined" 0 "$(not_joined)"
ktap_finish
