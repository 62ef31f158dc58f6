#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# A re-join wave as an SVG picture, from what mcg_wave_record (lib.sh)
# sampled in the VM every 100 ms:
#
#   selftests/vm/plot-wave.sh FILE.wave FILE.svg [TITLE]
#
# Left axis, per second over half-second bins: groups re-joined, SA
# answers to MCMemberRecord Sets, and the configured cap (rejoin_rate).
# Right axis: groups not yet re-joined. Needs gnuplot (gnuplot-nox).
set -euo pipefail

[ $# -ge 2 ] || { sed -n '/^#   selftests/p' "$0" | sed 's/^# *//' >&2; exit 2; }
in=$1 out=$2
hdr=$(head -n 1 "$in")
n=$(sed -n 's/.* N=\([0-9]*\).*/\1/p' <<<"$hdr")
c=$(sed -n 's/.* C=\([0-9]*\).*/\1/p' <<<"$hdr")
if [ -z "$n" ] || [ -z "$c" ]; then echo "plot-wave: $in: no '# wave N=... C=...' line" >&2; exit 1; fi
title=${3:-"re-join wave: $n groups, rejoin_rate $c/s"}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# Half-second bins: time, re-joins/s, SA answers/s, groups pending.
awk -v n="$n" '
	/^#/ { next }
	NF == 4 {
		if (!started) { t0 = $1; r0 = $2; bt = $1; br = $2; ba = $4; started = 1 }
		if ($1 - bt >= 500) {
			dt = ($1 - bt) / 1000
			printf "%.2f %.1f %.1f %d\n", ($1 - t0) / 1000, ($2 - br) / dt, \
				($4 >= ba ? ($4 - ba) / dt : 0), n - ($2 - r0)
			bt = $1; br = $2; ba = $4
		}
	}' "$in" >"$tmp"
[ -s "$tmp" ] || { echo "plot-wave: $in: fewer than two samples half a second apart" >&2; exit 1; }

gnuplot <<GP
set terminal svg size 800,420 dynamic font "sans,11" noenhanced
set output "$out"
set title "$title"
set xlabel "seconds after the client reregister"
set ylabel "per second"
set y2label "groups not yet re-joined"
set ytics nomirror
set y2tics
set yrange [0:$((c * 5 / 4 + 1))<*]
set y2range [0:*]
set key outside bottom center horizontal
set grid ytics
plot "$tmp" using 1:2 with steps lw 2 title "re-joins/s", \
     "$tmp" using 1:3 with steps dt 2 title "SA answers to Sets/s", \
     $c with lines lw 1 lc rgb "red" title "rejoin_rate ($c/s)", \
     "$tmp" using 1:4 axes x1y2 with lines lw 2 title "pending"
GP
