#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# make bench, InfiniBand scenario on simhca: re-join waves of N groups at
# cap C (rejoin_rate) against N / C (each also drawn: out/wave-N*-C*.svg),
# SA Deletes when N groups are released at once against N, kernel memory
# per IB group: ours, ib_core's and simhca's.
# timeout: 1500
. "$(dirname "$0")/../bench/bench_lib.sh"

mcg_require_simhca
NS=${BENCH_WAVE_N:-"1024 16383"}
CS=${BENCH_WAVE_C:-"20 100 1000 5000"}
[ "$CS" = none ] && CS=		# BENCH_WAVE_C=none: no waves
# Waves longer than this (N / C, seconds) are left out: 16,383 at 20/s
# would take 14 minutes.
MAX_WAVE_S=${BENCH_MAX_WAVE_S:-200}
# rejoin_inflight for the waves (default: the module's own; the most the
# pacer may use, see the admin guide)
INFLIGHT=${BENCH_INFLIGHT:-}
# The waves together get this long (seconds): a wave that would not fit
# (at N / C, 10 % over) is left out, one that does not end in what is left
# is reported so and ends the waves.
BUDGET_S=${BENCH_IB_BUDGET_S:-720}

sa_groups() { awk '$1 == "groups" {print $2}' $D/stats; }
waves() { cat $SYS/rejoin_waves; }
waves_are() { [ "$(waves)" = "$1" ]; }
sa_has() { [ "$(sa_groups)" = "$1" ]; }
# simhca's own cost since the last stats reset: SA time per MCMemberRecord
# Set/Delete and MFT programming time per programming, in microseconds;
# the most SA answers queued to the host at once (about the most requests
# the port had unanswered: the in-flight limit the pacer used)
sa_cost() {
	awk '{ v[$1] = $2 }
	     END { printf "SA %.1f us per Set/Delete (%d), MFT %.1f us per programming (%d), at most %d answers pending",
		   v["mcm_updates"] ? v["mcm_update_ns"] / v["mcm_updates"] / 1000 : 0, v["mcm_updates"],
		   v["mft_programs"] ? v["mft_program_ns"] / v["mft_programs"] / 1000 : 0, v["mft_programs"],
		   v["max_answers_pending"] }' $D/stats
}

ktap_plan 1
modprobe ib_umad
modprobe simhca || ktap_skip_all "no simhca"
mcg_load rejoin_rate=5000 settle_ms=0 max_groups=0 || ktap_skip_all "cannot load ib_mcgroups"
defer mcg_unload_simhca
[ -n "$INFLIGHT" ] && echo "$INFLIGHT" >/sys/module/ib_mcgroups/parameters/rejoin_inflight
inflight=$(cat /sys/module/ib_mcgroups/parameters/rejoin_inflight)

held=0
broken=0
deadline=$((SECONDS + BUDGET_S))
sync
echo 3 >/proc/sys/vm/drop_caches
s0=$(slab_kb)
slab_snap /tmp/bench.slab0
for n in $NS; do
	first=$((0x1000 + held))
	echo 5000 >/sys/module/ib_mcgroups/parameters/rejoin_rate
	if ! mcg_bulk join simhca0 1 $((n - held)) bench:ib $first >/dev/null; then
		broken=1
		break
	fi
	wait_for -t 300 sa_has $n
	held=$n
	bench_info "simhca, joins of groups $((first - 0x1000 + 1))..$n" "$(sa_cost)"
	# Memory of the most groups (the last N), after its joins
	if [ "$n" = "${NS##* }" ]; then
		slab_snap /tmp/bench.slab1
		bench_mem_rows "IB on simhca" "$n" /tmp/bench.slab0 \
			/tmp/bench.slab1 "$s0" "$(slab_kb)" ib
	fi
	for c in $CS; do
		want=$((n * 11 / c / 10 + 1))
		left=$((deadline - SECONDS))
		if [ $((n / c)) -gt "$MAX_WAVE_S" ] || [ "$want" -gt "$left" ]; then
			bench_info "re-join wave, N=$n, C=$c/s" "left out: N / C = $((n / c)) s, $left s of the budget left"
			continue
		fi
		echo "$c" >/sys/module/ib_mcgroups/parameters/rejoin_rate
		w=$(waves)
		echo 1 >$D/stats
		mcg_wave_record "wave-N$n-C$c" "$n" "$c"	# out/wave-*.svg
		echo 1 >$D/client_reregister
		limit=$((n * 3 / c + 60))
		[ "$limit" -le "$left" ] || limit=$left
		if ! wait_for -t "$limit" waves_are $((w + 1)); then
			mcg_wave_stop
			bench_info "re-join wave, N=$n, C=$c/s" "did not end in $limit s (N / C = $((n * 1000 / c)) ms)"
			break 2
		fi
		mcg_wave_stop
		bench_row "re-join wave, N=$n, C=$c/s, rejoin_inflight=$inflight (last_rejoin_wave_ms)" \
			"N / C" "$((n * 1000 / c))" "$(cat $SYS/last_rejoin_wave_ms)" ms 1.10
		bench_info "simhca, wave N=$n C=$c/s" "$(sa_cost)"
	done
done

# SA Deletes when N groups are released at once (one owner release)
echo 5000 >/sys/module/ib_mcgroups/parameters/rejoin_rate
if [ "$broken" = 0 ]; then
	echo 1 >$D/stats
	mcctl leave owner bench:ib all >/dev/null
	wait_for -t 300 sa_has 0
	sleep 3		# resends of lost Deletes
	bench_row "SA Deletes when $held IB groups are released at once" \
		"N" "$held" "$(sa_stat rx_delete_mcm)" "Deletes" 1
fi

check "benchmark ran" test "$broken" = 0
ktap_finish
