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

# cpu_ticks: the guest's busy and all CPU ticks so far, "BUSY ALL"
# (/proc/stat's first line: busy is user, nice, system, irq and softirq)
cpu_ticks() {
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat
}
# busy_since "BUSY ALL": how busy the guest's CPUs were since cpu_ticks
# printed that, in % of all of them
busy_since() {
	local b0 a0 b1 a1

	read -r b0 a0 <<<"$1"
	read -r b1 a1 <<<"$(cpu_ticks)"
	echo $(((b1 - b0) * 100 / (a1 > a0 ? a1 - a0 : 1)))
}

# bench_row FIGURE ANCHOR_TEXT ANCHOR NOW UNIT TARGET_RATIO [RATIO]
# The ratio NOW / ANCHOR against TARGET_RATIO (met if at most); RATIO,
# if given, is the ratio instead (a median of ratios measured in pairs).
bench_row() {
	local fig=$1 atext=$2 a=$3 now=$4 unit=$5 target=$6 ratio=${7:-}

	if [ -z "$a" ] || [ -z "$now" ]; then
		echo "BENCH|$fig|$atext ${a:-?}|${now:-?}|-|<= ${target}x|broken"
		return
	fi
	awk -v f="$fig" -v at="$atext" -v a="$a" -v n="$now" -v u="$unit" \
	    -v t="$target" -v rr="$ratio" 'BEGIN {
		r = rr != "" ? rr + 0 : a > 0 ? n / a : 0
		printf "BENCH|%s|%s %s %s|%s %s|%.2fx|<= %sx|%s\n", f, at, a, u,
		       n, u, r, t, (a > 0 && r <= t + 0) ? "met" : "not met"
	}'
}

# bench_info FIGURE TEXT: a measured figure without an anchor.
bench_info() {
	echo "BENCH|$1|-|$2|-|-|-"
}

slab_kb() { awk '$1 == "Slab:" {print $2}' /proc/meminfo; }

# bench_inforow FIGURE WHAT NOW: a figure for information, without a
# target; WHAT (the anchor column) says what it is.
bench_inforow() {
	echo "BENCH|$1|$2|$3|-|-|info"
}

# slab_snap FILE: the slab caches now (/proc/slabinfo).
slab_snap() { cat /proc/slabinfo >"$1"; }

# slab_delta BEFORE AFTER N: per slab cache whose memory changed, "name
# bytes_per_N objects_per_N objsize", largest first. A cache's memory is
# its slabs' pages (num_slabs x pagesperslab), so what its objects leave
# unused in their slabs counts too. Booted with slab_nomerge (run.sh), a
# cache of our own is its own line, not merged into a kmalloc cache.
slab_delta() {
	awk -v n="$3" -v pg="$(getconf PAGESIZE 2>/dev/null || echo 4096)" '
	FNR == 1 { f++ }
	/^#|^slabinfo/ { next }
	{ b = $15 * $6 * pg; o = $3; sz[$1] = $4 }
	f == 1 { b0[$1] = b; o0[$1] = o; next }
	{ db = b - b0[$1]; do_ = o - o0[$1]
	  if (db != 0 || do_ != 0)
		printf "%s %.1f %.3f %d\n", $1, db / n, do_ / n, sz[$1] }' \
		"$1" "$2" | sort -k2,2 -g -r
}

# slab_sum DELTA REGEX: bytes per group of the caches matching REGEX
# (an awk regular expression on the name) in slab_delta's output.
slab_sum() {
	awk -v re="$2" '$1 ~ re { s += $2 } END { printf "%d\n", s + 0.5 }' "$1"
}

# slab_list DELTA REGEX: "name B (objects x objsize)" of those caches.
slab_list() {
	awk -v re="$2" '$1 ~ re && ($2 >= 1 || $2 <= -1) {
		printf "%s%s %d B (%.2f x %d B)", sep, $1, $2 + 0.5, $3, $4
		sep = ", " } END { if (!sep) printf "none" }' "$1"
}

# Our caches (kernel/group.c, backend_ib.c), the kmalloc caches, and
# simhca's own SA record cache where simhca has one.
MCG_CACHES='^mcg_'
KMALLOC_CACHES='^kmalloc-'
SIMHCA_CACHES='^simhca_'

# bench_mem_rows WHAT N BEFORE AFTER SLAB_KB0 SLAB_KB1 [IB]: the memory rows
# of N groups: ours (our slab caches; we kmalloc nothing per held group:
# leave records live only while a Delete is on its way) against the
# 512 B budget, then for information the kmalloc caches (ib_core's
# multicast.c state on IB: a struct mcast_group and a struct mcast_member
# per group and join state; with IB, simhca's SA records too unless
# simhca keeps them in a simhca_mcm cache), simhca's own caches, and the
# whole Slab delta. The per-cache lines go to the KTAP log.
bench_mem_rows() {
	local what=$1 n=$2 d=/tmp/bench.slab.delta ours km sim total

	slab_delta "$3" "$4" "$n" >$d
	ktap_diag "slab caches, bytes and objects per group ($what, N=$n):
$(cat $d)"
	ours=$(slab_sum $d "$MCG_CACHES")
	km=$(slab_sum $d "$KMALLOC_CACHES")
	sim=$(slab_sum $d "$SIMHCA_CACHES")
	total=$(( ($6 - $5) * 1024 / n ))
	bench_row "kernel memory per group, ours ($what, N=$n; our slab caches / N: $(slab_list $d "$MCG_CACHES"))" \
		"budget" 512 "$ours" "B" 1
	if [ -n "${7:-}" ]; then
		if grep -q '^simhca_' "$4"; then
			bench_inforow "kernel memory per group, ib_core ($what, N=$n)" \
				"kmalloc caches / N: $(slab_list $d "$KMALLOC_CACHES")" "$km B"
		else
			bench_inforow "kernel memory per group, ib_core and simhca's SA records ($what, N=$n; simhca has no simhca_mcm cache)" \
				"kmalloc caches / N: $(slab_list $d "$KMALLOC_CACHES")" "$km B"
		fi
		bench_inforow "kernel memory per group, simhca's SA records ($what, N=$n)" \
			"simhca's caches / N: $(slab_list $d "$SIMHCA_CACHES")" "$sim B"
	else
		bench_inforow "kernel memory per group, kmalloc ($what, N=$n)" \
			"kmalloc caches / N: $(slab_list $d "$KMALLOC_CACHES")" "$km B"
	fi
	bench_inforow "kernel memory per group, all ($what, N=$n)" \
		"Slab delta / N (meminfo)" "$total B"
}

# The knobs given to selftests/bench/run.sh (BENCH_*).
[ -r "${SELFTESTS_DIR:-/selftests}/bin/bench.env" ] &&
	. "${SELFTESTS_DIR:-/selftests}/bin/bench.env"
