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
# that pace.
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

# OpenSM's pace for Sets (creates of NW new groups), then the groups gone;
# the groups held before are let go first: OpenSM has 16,382 MLIDs. Sets
# pace (answers a second).
osm_pace() {
	local out

	mcctl leave owner bench:wave all >/dev/null 2>&1
	mcctl leave owner bench:fresh all >/dev/null 2>&1
	wait_for -t 120 all_joined 0 || return 1
	out=$(sa_mcm -d simhca0 -p 2 -t 1000 -n "$NW" -w 64 set create \
		mgid=ff12:1234:0:0:0:0:7:0) || return 1
	bench_info "OpenSM: $NW MCMemberRecord Sets from a raw umad client" "${out#bulk: }"
	sa_mcm -d simhca0 -p 2 -t 1000 -n "$NW" -w 64 delete \
		mgid=ff12:1234:0:0:0:0:7:0 port_gid=self join=1 >/dev/null || return 1
	pace=$(sed -n 's|.* \([0-9]*\)/s$|\1|p' <<<"$out")
}
# fwave: a re-join wave of NW groups at the window's pace; sets fwave_ms
fwave() {
	local w

	mcg_bulk join simhca0 2 "$NW" bench:fleet 0x20000 >/dev/null || return 1
	wait_for -t 600 all_joined "$NW" || return 1
	echo 0 >$PARAM/rejoin_rate
	w=$(cat $SYS/rejoin_waves)
	echo 1 >$D/client_reregister
	wait_for -t 600 waves_are $((w + 1)) || return 1
	fwave_ms=$(cat $SYS/last_rejoin_wave_ms)
}
pace=
fwave_ms=
if [ "$broken" = 0 ]; then
	osm_pace || broken=1
	[ "$broken" = 1 ] || fwave || broken=1
fi
bench_row "fresh IB join (mcctl join ... create, median of $K), OpenSM's SA" \
	"simhca's internal SA" "$lat_int" "$lat_osm" ms 3
bench_row "re-join wave, N=$N, C=$C/s, OpenSM's SA" \
	"simhca's internal SA" "$wave_int" "$wave_osm" ms 1.10
bench_row "re-join wave, N=$N, C=$C/s, OpenSM's SA" \
	"N / C" "$((N * 1000 / C))" "$wave_osm" ms 1.10
[ -z "$pace" ] || bench_row "re-join wave, N=$NW, at the window's pace (rejoin_rate 0), OpenSM's SA" \
	"N / OpenSM's Set pace ($pace/s)" "$((NW * 1000 / (pace > 0 ? pace : 1)))" "$fwave_ms" ms 1.20
check "benchmark ran" test "$broken" = 0
ktap_finish
