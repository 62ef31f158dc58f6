#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# make bench: boots one VM per scenario (bench_*.sh here), each measuring
# its figures next to anchors measured in the same boot, and prints the
# table: figure | anchor | now | ratio | target | met. Timing never
# fails it: the exit status is 0 unless a benchmark itself broke.
#
#   selftests/bench/run.sh [SCENARIO...]     (default: roce ib scale opensm fleet)
#
# Environment: KVER (as for selftests/vm/run.sh), O (default
# build/bench), and the scenarios' knobs: BENCH_N (RoCE groups, 16384),
# BENCH_REPS (timed repetitions, 400), BENCH_CLOSE_ONLY (only the
# socket close figure), BENCH_CLOSE_ROUNDS (12), BENCH_LIST_ONLY (only
# the list figures), BENCH_SPAWN_ONLY (only mcctl join vs spawning true), BENCH_WAVE_N ("1024 16383"),
# BENCH_WAVE_C ("20 100 1000 5000"; none: no waves), BENCH_MAX_WAVE_S
# (200), BENCH_SCALE_ROUNDS (scale: releases per size, 3), BENCH_BATCH_N
# (scale: joins of mcctl -batch and route adds of ip -batch, 4000),
# BENCH_FLEET_DEVS (32), BENCH_FLEET_G (256), BENCH_FLEET_R ("500 2000
# 5000 20000"), BENCH_FLEET_ORDER_R (2000; 0: no admin-before-users
# wave), BENCH_FLEET_SETTLE_MS (1000), BENCH_FLEET_SA (queue; drop: an
# SA that drops what exceeds R in each second; busy: one that answers
# BUSY what would wait more than BENCH_FLEET_BUSY_MS, 50). The VMs boot with
# slab_nomerge (added to KERNEL_APPEND), so that the memory figures can
# tell our slab caches from the kernel's.
set -uo pipefail

DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$DIR/../.." && pwd)
O=${O:-$TOP/build/bench}
SCENARIOS=("$@")
[ ${#SCENARIOS[@]} -gt 0 ] || SCENARIOS=(roce ib scale opensm fleet)
mkdir -p "$O"

# Knobs of the scenarios reach the guest through a sourced file, quoted:
# a list such as BENCH_WAVE_C="1000 5000" is one value.
for v in $(compgen -e | grep '^BENCH_'); do
	printf 'export %s=%q\n' "$v" "${!v}"
done >"$O/bench.env"
rc=0
rows=()
for s in "${SCENARIOS[@]}"; do
	t=$DIR/bench_$s.sh
	[ -f "$t" ] || { echo "bench: no scenario $s" >&2; rc=1; continue; }
	echo "bench: scenario $s (one VM boot)" >&2
	# slab_nomerge: our caches show as themselves in /proc/slabinfo.
	env O="$O/$s" EXTRA_TESTS="$t" GUEST_FILES="/usr/bin/true $O/bench.env" \
		KERNEL_APPEND="${KERNEL_APPEND:+$KERNEL_APPEND }slab_nomerge" \
		"$TOP/selftests/vm/run.sh" --timeout 1800 "bench_$s" >"$O/$s.log" 2>&1
	tail -n 1 "$O/$s.log" >&2
	grep -q '^1 passed, 0 failed' "$O/$s.log" || rc=1
	while IFS= read -r l; do
		rows+=("${l#*BENCH|}")
	done < <(grep -a 'BENCH|' "$O/$s/ktap.log")
done

printf '\n| figure | anchor (same boot) | now | ratio | target | |\n'
printf '|---|---|---|---|---|---|\n'
for r in "${rows[@]}"; do
	printf '| %s |\n' "${r//|/ | }"
done
for f in "$O"/*/out/*.svg; do
	[ -f "$f" ] && printf '\nre-join wave picture: %s' "$f"
done
printf '\nqemu TCG on %s, kernel %s; only ratios within one boot count.\n' \
	"$(uname -n)" "${KVER:-$("$TOP/selftests/vm/kver.sh")}"
exit $rc
