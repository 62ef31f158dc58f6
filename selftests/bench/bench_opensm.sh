#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# make bench, InfiniBand against OpenSM's SA next to simhca's internal SA,
# in one boot: the same measurements on each SA, the internal SA's the
# anchor of OpenSM's.
#  - a fresh join: "mcctl join ... create" of a new group, which returns
#    once the SA has answered (median of K, in ms; a process spawn each,
#    the same on both SAs);
#  - a re-join wave of N groups at C joins/s after a client reregister
#    (last_rejoin_wave_ms), also next to N / C. OpenSM keeps its records
#    over a client reregister that only the port sees, so its SA answers
#    joins of members it has, as after a handover with its database kept.
# And on OpenSM alone (issue #31): its own pace for MCMemberRecord Sets,
# measured with a raw client over umad (sa_mcm -n: NW creates, 64 in
# flight), the anchor of a re-join wave of NW groups at the pace the
# window law finds (rejoin_rate 0, the default): the wave against NW /
# that pace; and that pace for 1 to 16 requests in flight.
# And the failover: OpenSM B (port 2, standby, SMInfo polling every
# POLL_MS, POLL_RETRIES tries) takes over when A is killed, with an empty
# SA; the time from A's death to the NW groups all joined again, with
# the module's defaults (settle_ms 3000, rejoin_rate 0; BENCH_OSM_SETTLE_MS
# another settle_ms), against B's
# detection time (POLL_MS x POLL_RETRIES) plus NW / the Set pace.
# OpenSM runs on port 1 (internal_sa=N: QP1 is routed by DLID to it); the
# joins come from port 2.
# timeout: 1200
. "$(dirname "$0")/../bench/bench_lib.sh"

mcg_require_simhca
for b in opensm mcg_bulk; do
	command -v $b >/dev/null || ktap_skip_all "$b not installed (make deps)"
done
K=${BENCH_OSM_JOINS:-20}
N=${BENCH_OSM_WAVE_N:-512}
C=${BENCH_OSM_WAVE_C:-100}
NW=${BENCH_OSM_FLEET_N:-16000}	# OpenSM keeps 0xC000 for IPoIB: 16,382 MLIDs left
G1=0x0053494d48434101
G2=0x0053494d48434102
SWEEP_W=${BENCH_OSM_SWEEP_W:-"1 2 4 8 16"}	# osm_pace's windows
SWEEP_N=${BENCH_OSM_SWEEP_N:-4000}
POLL_MS=${BENCH_OSM_POLL_MS:-1000}	# B's sminfo_polling_timeout
SETTLE_MS=${BENCH_OSM_SETTLE_MS:-3000}	# settle_ms in the failover (the default)
POLL_RETRIES=${BENCH_OSM_POLL_RETRIES:-3}	# B's polling_retry_number
SYS=/sys/kernel/ib_mcgroups/simhca0/2
PARAM=/sys/module/ib_mcgroups/parameters
export MCG_BULK_SIGNATURE=0x1234	# OpenSM: no IPoIB Q_Key rule

now_us() { echo "${EPOCHREALTIME/./}"; }
joined_count() { mcctl -j list 2>/dev/null | jq '[.[] | select(.state == "joined")] | length'; }
all_joined() { [ "$(joined_count)" = "$1" ]; }
waves_are() { [ "$(cat $SYS/rejoin_waves)" = "$1" ]; }

# join_median: the median of K fresh joins (ms, one decimal), or ""
join_median() {
	local i t0 t1

	for ((i = 1; i <= K; i++)); do
		t0=$(now_us)
		mcctl join simhca0/2 "ff12:1234::$(printf %x $((0x100 + i)))" \
			owner bench:fresh create >/dev/null || return 1
		t1=$(now_us)
		echo $((t1 - t0))
	done | sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.1f\n", v[int((NR + 1) / 2)] / 1000 }'
}

# wave: the ms of a re-join wave of N groups at C/s, or ""
wave() {
	local w

	mcg_bulk join simhca0 2 "$N" bench:wave >/dev/null || return 1
	wait_for -t 300 all_joined $((N + K)) || return 1
	echo "$C" >$PARAM/rejoin_rate
	w=$(cat $SYS/rejoin_waves)
	echo 1 >$D/client_reregister
	wait_for -t $((N * 3 / C + 60)) waves_are $((w + 1)) || return 1
	cat $SYS/last_rejoin_wave_ms
}

ktap_plan 1
modprobe ib_umad
broken=0

# --- simhca's internal SA --------------------------------------------------------
modprobe simhca nports=2 || ktap_skip_all "no simhca"
mcg_load settle_ms=0 join_wait_ms=20000 || ktap_skip_all "cannot load ib_mcgroups"
defer mcg_unload_simhca
lat_int=$(join_median) || broken=1
wave_int=$(wave) || broken=1
mcg_unload_simhca

# --- OpenSM ------------------------------------------------------------------------
modprobe simhca nports=2 internal_sa=0 || broken=1
mcg_opensm_start sm $G1
if ! wait_for -t 120 mcg_ports_active || ! wait_for -t 60 mcg_sa_up; then
	bench_info "OpenSM" "did not come up (ports ACTIVE, SA answering)"
	broken=1
fi
if [ "$broken" = 0 ]; then
	mcg_load settle_ms=0 join_wait_ms=20000 || broken=1
	lat_osm=$(join_median) || broken=1
	wave_osm=$(wave) || broken=1
fi

# osm_sets N W MGID: N creates of new groups from MGID on, W in flight,
# then the groups gone; sets out to sa_mcm's line (answers a second)
osm_sets() {
	local t

	t=$(cpu_ticks)
	out=$(sa_mcm -d simhca0 -p 2 -t 1000 -n "$1" -w "$2" set create \
		mgid="$3") || return 1
	out+="; the guest's CPUs $(busy_since "$t")% busy"
	sa_mcm -d simhca0 -p 2 -t 1000 -n "$1" -w 64 delete \
		mgid="$3" port_gid=self join=1 >/dev/null
}
# OpenSM's pace for Sets (creates of NW new groups, 64 in flight), then
# by the requests a client keeps in flight (SWEEP_N creates each): what a
# window of W requests can get. The groups held before are let go first:
# OpenSM has 16,382 MLIDs.
osm_pace() {
	local out w

	mcctl leave owner bench:wave all >/dev/null 2>&1
	mcctl leave owner bench:fresh all >/dev/null 2>&1
	wait_for -t 120 all_joined 0 || return 1
	osm_sets "$NW" 64 ff12:1234:0:0:0:0:7:0 || return 1
	bench_info "OpenSM: $NW MCMemberRecord Sets from a raw umad client" "${out#bulk: }"
	pace=$(sed -n 's|.* \([0-9]*\)/s;.*|\1|p' <<<"$out")
	for w in $SWEEP_W; do
		osm_sets "$SWEEP_N" "$w" ff12:1234:0:0:0:0:6:0 || return 1
		bench_info "OpenSM: $SWEEP_N Sets, $w in flight" "${out#bulk: }"
	done
}
# pacer_watch FILE: port 2's pacer (debugfs) every 0.5 s, into FILE
pacer_watch() {
	while :; do
		grep '^simhca0/2 ' /sys/kernel/debug/ib_mcgroups/pacer >>"$1"
		sleep 0.5
	done
}
# pacer_summary FILE: the median and the most of the window (requests),
# the smoothed round trip (ms) and the joins unanswered over the samples
pacer_summary() {
	awk '{ for (i = 2; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] }
	       split(v["window"], w, "/")
	       print w[1] / w[2], v["srtt_us"] / 1000, v["joins"] }' "$1" >"$1.v"
	local c what=(window srtt_ms joins) out=

	for c in 1 2 3; do
		out+="${what[c - 1]} $(sort -g -k$c,$c "$1.v" | awk -v c=$c '{ v[NR] = $c }
			END { if (NR) printf "%g (most %g)", v[int((NR + 1) / 2)], v[NR] }'), "
	done
	echo "$(wc -l <"$1") samples: ${out%, }"
}
# counters of port 2 the waves print: SA time-outs, re-joins failed
port2_errors() { echo "sa_timeouts $(cat $SYS/sa_timeouts), rejoin_failures $(cat $SYS/rejoin_failures)"; }

# fwave: a re-join wave of NW groups at the window's pace; sets fwave_ms
fwave() {
	local w watcher t busy

	mcg_bulk join simhca0 2 "$NW" bench:fleet 0x20000 >/dev/null || return 1
	wait_for -t 600 all_joined "$NW" || return 1
	echo 0 >$PARAM/rejoin_rate
	w=$(cat $SYS/rejoin_waves)
	: >/tmp/pacer-wave
	pacer_watch /tmp/pacer-wave &
	watcher=$!
	t=$(cpu_ticks)
	echo 1 >$D/client_reregister
	wait_for -t 600 waves_are $((w + 1)) || { kill $watcher; return 1; }
	busy=$(busy_since "$t")
	kill $watcher
	fwave_ms=$(cat $SYS/last_rejoin_wave_ms)
	bench_info "OpenSM: the wave of $NW groups, port 2's pacer" \
		"$(pacer_summary /tmp/pacer-wave); $(port2_errors); the guest's CPUs $busy% busy"
}
# the SMInfo state of the SM at LID $2, asked from port $1
sm_state() {
	sminfo -C simhca0 -P "$1" "$2" 2>/dev/null | grep -o 'SMINFO_[A-Z]*'
}
is_state() { [ "$(sm_state "$1" "$2")" = "$3" ]; }
lid2() { printf %d "$(cat /sys/class/infiniband/simhca0/ports/2/lid)"; }
since_ms() { echo $((($(now_us) - $1) / 1000)); }
# failover: B on port 2 standby, A killed; sets master_ms, full_ms, wave_f
failover() {
	local w t0 watcher

	mcg_opensm_start b $G2 sminfo_polling_timeout "$POLL_MS" \
		polling_retry_number "$POLL_RETRIES"
	wait_for -t 120 is_state 1 "$(lid2)" SMINFO_STANDBY || return 1
	echo "$SETTLE_MS" >$PARAM/settle_ms
	w=$(cat $SYS/rejoin_waves)
	: >/tmp/pacer-failover
	t0=$(now_us)
	mcg_opensm_stop sm KILL
	wait_for -t 120 is_state 2 "$(lid2)" SMINFO_MASTER || return 1
	master_ms=$(since_ms "$t0")
	pacer_watch /tmp/pacer-failover &
	watcher=$!
	wait_for -t 600 waves_are $((w + 1)) || { kill $watcher; return 1; }
	wait_for -t 60 all_joined "$NW" || { kill $watcher; return 1; }
	full_ms=$(since_ms "$t0")
	kill $watcher
	wave_f=$(cat $SYS/last_rejoin_wave_ms)
	bench_info "OpenSM failover: A killed -> B MASTER, -> $NW groups joined" \
		"$master_ms ms, $full_ms ms (the module's wave $wave_f ms, settle_ms $SETTLE_MS included)"
	bench_info "OpenSM failover: port 2's pacer" \
		"$(pacer_summary /tmp/pacer-failover); $(port2_errors)"
}
pace=
fwave_ms=
full_ms=
wave_f=
if [ "$broken" = 0 ]; then
	osm_pace || broken=1
	[ "$broken" = 1 ] || fwave || broken=1
	[ "$broken" = 1 ] || failover || broken=1
fi
bench_row "fresh IB join (mcctl join ... create, median of $K), OpenSM's SA" \
	"simhca's internal SA" "$lat_int" "$lat_osm" ms 3
bench_row "re-join wave, N=$N, C=$C/s, OpenSM's SA" \
	"simhca's internal SA" "$wave_int" "$wave_osm" ms 1.10
bench_row "re-join wave, N=$N, C=$C/s, OpenSM's SA" \
	"N / C" "$((N * 1000 / C))" "$wave_osm" ms 1.10
[ -z "$pace" ] || bench_row "re-join wave, N=$NW, at the window's pace (rejoin_rate 0), OpenSM's SA" \
	"N / OpenSM's Set pace ($pace/s)" "$((NW * 1000 / (pace > 0 ? pace : 1)))" "$fwave_ms" ms 1.20
fo_what="module defaults"
[ "$SETTLE_MS" = 3000 ] || fo_what="settle_ms $SETTLE_MS"
[ -z "$pace" ] || bench_row "OpenSM failover: A's death to $NW groups joined again ($fo_what)" \
	"B's detection ${POLL_MS} ms x $POLL_RETRIES + N / Set pace" \
	"$((POLL_MS * POLL_RETRIES + NW * 1000 / (pace > 0 ? pace : 1)))" "$full_ms" ms 1.20
# the module's part of it: from B's client reregister (sent in its first
# sweep, after its election) to every group joined, settle_ms included
[ -z "$pace" ] || bench_row "OpenSM failover: B's reregister to $NW groups joined again ($fo_what)" \
	"N / Set pace" "$((NW * 1000 / (pace > 0 ? pace : 1)))" "$wave_f" ms 1.20
check "benchmark ran" test "$broken" = 0
ktap_finish
