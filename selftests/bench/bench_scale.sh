#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# make bench, cost that grows with the work (soft-RoCE), at 1x, 4x and
# 16x the size, each row's growth next to linear (or flat): OWNER_RELEASE
# of 1,000 / 4,000 / 16,000 holds; a held join with 0 / 4,000 / 16,383
# groups already held; a genetlink socket close with 0 / 16,000 bound
# holds of other sockets. Then mcctl -batch of N joins vs ip -batch of N
# route adds, in the same boot.
# timeout: 1200
. "$(dirname "$0")/../bench/bench_lib.sh"

mcg_require_module
mcg_require_mcctl
REPS=${BENCH_REPS:-400}
ROUNDS=${BENCH_SCALE_ROUNDS:-3}
BN=${BENCH_BATCH_N:-4000}

ktap_plan 1
mcg_setup_rxe || ktap_skip_all "no soft-RoCE"
mcg_load max_groups=0 || ktap_skip_all "cannot load ib_mcgroups"

median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR)
		print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
no_groups() { [ "$(cat /sys/kernel/ib_mcgroups/$MCG_DEV0/1/groups)" = 0 ]; }
# growth A B: "B/A" with two decimals.
growth() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "?" }'; }

# 1. OWNER_RELEASE of K holds (one send-only group each), timed in one
# process (mcg_bench release: the request and the decoded reply), the
# median of ROUNDS releases per size.
for k in 1000 4000 16000; do
	for r in $(seq 1 "$ROUNDS"); do
		mcg_bench joinmany -4 $MCG_DEV0 1 $k bench:rel 0x40000 \
			sendonly >/dev/null
		bench_median mcg_bench release bench:rel
		wait_for -t 120 no_groups >/dev/null
	done | median >/tmp/bench.rel.$k
	rel[k]=$(cat /tmp/bench.rel.$k)
	ktap_diag "OWNER_RELEASE of $k holds: ${rel[k]} us"
done
g4=$(growth "${rel[1000]}" "${rel[4000]}")
g16=$(growth "${rel[1000]}" "${rel[16000]}")
bench_inforow "OWNER_RELEASE of 1,000 / 4,000 / 16,000 holds, median of $ROUNDS (us)" \
	"growth next to linear" \
	"${rel[1000]} / ${rel[4000]} / ${rel[16000]} us; 4x size: ${g4}x time (linear 4x), 16x size: ${g16}x time (linear 16x)"

# 2. A held join (second owner of one group, as in bench_roce) with K
# other groups held.
held=()
for k in 0 4000 16383; do
	mcctl leave owner bench:fill all >/dev/null
	wait_for -t 120 no_groups
	[ $k = 0 ] || mcg_bench joinmany -4 $MCG_DEV0 1 $k bench:fill 0x10000 \
		sendonly >/dev/null
	held[k]=$(bench_median mcg_bench heldjoin $MCG_DEV0 1 ::ffff:239.2.0.1 $REPS)
	ktap_diag "held join with $k groups held: ${held[k]} us"
done
mcctl leave owner bench:fill all >/dev/null
wait_for -t 120 no_groups
bench_inforow "held join with 0 / 4,000 / 16,383 groups held, median of $REPS (us)" \
	"growth next to flat" \
	"${held[0]} / ${held[4000]} / ${held[16383]} us; flat: $(growth "${held[0]}" "${held[4000]}")x, $(growth "${held[0]}" "${held[16383]}")x"

# 3. The close of a genetlink socket that holds nothing, with 0 and with
# 16,000 bound holds of another socket (a process that stays).
close0=$(bench_median mcg_bench close $REPS)
mcg_bench joinmany -4 $MCG_DEV0 1 16000 bench:bound 0x50000 sendonly bound \
	>/tmp/bench.bound &
bpid=$!
wait_for -t 300 grep -q joined /tmp/bench.bound
close1=$(bench_median mcg_bench close $REPS)
kill $bpid
wait $bpid 2>/dev/null
wait_for -t 120 no_groups
bench_inforow "genetlink socket close with 0 / 16,000 bound holds of other sockets, median of $REPS (us)" \
	"growth next to flat" \
	"$close0 / $close1 us; flat: $(growth "$close0" "$close1")x"

# 4. mcctl -batch of BN joins vs ip -batch of BN route adds.
modprobe dummy
ip link add bench0 type dummy && ip link set bench0 up
awk -v n="$BN" -v d="$MCG_DEV0" 'BEGIN { for (i = 0; i < n; i++)
	printf "join %s/1 239.6.%d.%d owner bench:batch state sendonly\n", d, int(i / 256), i % 256 }' \
	>/tmp/bench.mcctl.batch
awk -v n="$BN" 'BEGIN { for (i = 0; i < n; i++)
	printf "route add 10.%d.%d.0/24 dev bench0 table 101\n", 64 + int(i / 256) % 64, i % 256 }' \
	>/tmp/bench.ip.batch
t_ip=$(bench_median mcg_bench spawn 1 ip -batch /tmp/bench.ip.batch)
t_mcctl=$(bench_median mcg_bench spawn 1 mcctl -batch /tmp/bench.mcctl.batch)
ktap_diag "mcctl -batch: $(cat /sys/kernel/ib_mcgroups/$MCG_DEV0/1/holders) holds; ip: $(ip route show table 101 | wc -l) routes"
mcctl leave owner bench:batch all >/dev/null
bench_row "mcctl -batch of $BN joins (one process)" \
	"ip -batch of $BN route adds" "$t_ip" "$t_mcctl" "us" 1.0

check "benchmark ran" test -n "${rel[16000]}${held[16383]}$close1$t_mcctl"
ktap_finish
