#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Helpers of the benchmark scenarios (sourced; see README.md here).
# A row of the table is one line on stdout:
#   BENCH|figure|anchor|now|ratio|target|met or not met
# Benchmarks never fail on timing: only a broken benchmark exits non-zero.

. "$(dirname "$0")/../lib.sh"

# bench_median TOOL ARGS...: the median_us a timing loop printed, or "".
bench_median() {
	"$@" | awk '$1 == "median_us" {print $2}'
}

# bench_row FIGURE ANCHOR_TEXT ANCHOR NOW UNIT TARGET_RATIO
# The ratio NOW / ANCHOR against TARGET_RATIO (met if at most).
bench_row() {
	local fig=$1 atext=$2 a=$3 now=$4 unit=$5 target=$6

	if [ -z "$a" ] || [ -z "$now" ]; then
		echo "BENCH|$fig|$atext ${a:-?}|${now:-?}|-|<= ${target}x|broken"
		return
	fi
	awk -v f="$fig" -v at="$atext" -v a="$a" -v n="$now" -v u="$unit" \
	    -v t="$target" 'BEGIN {
		r = a > 0 ? n / a : 0
		printf "BENCH|%s|%s %s %s|%s %s|%.2fx|<= %sx|%s\n", f, at, a, u,
		       n, u, r, t, (a > 0 && r <= t + 0) ? "met" : "not met"
	}'
}

# bench_info FIGURE TEXT: a measured figure without an anchor.
bench_info() {
	echo "BENCH|$1|-|$2|-|-|-"
}

slab_kb() { awk '$1 == "Slab:" {print $2}' /proc/meminfo; }

# The knobs given to selftests/bench/run.sh (BENCH_*).
[ -r "${SELFTESTS_DIR:-/selftests}/bin/bench.env" ] &&
	. "${SELFTESTS_DIR:-/selftests}/bin/bench.env"
