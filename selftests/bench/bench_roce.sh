#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# make bench, soft-RoCE scenario: held join vs rdma_cm join, mcctl as a
# process vs spawning true, kernel memory per RoCE group, genetlink socket
# close cost with 16k groups and a bound hold, mcctl -j list of 16k
# groups vs ip -j route show of as many routes.
# timeout: 900
. "$(dirname "$0")/../bench/bench_lib.sh"

mcg_require_module
mcg_require_mcctl
N=${BENCH_N:-16384}
REPS=${BENCH_REPS:-400}
TRUE=/selftests/bin/true
[ -x "$TRUE" ] || TRUE=true

ktap_plan 1
modprobe rdma_ucm
mcg_setup_rxe || ktap_skip_all "no soft-RoCE"
mcg_load max_groups=0 || ktap_skip_all "cannot load ib_mcgroups"

# 4. genetlink socket close with N groups and one bound hold vs with none
# (run after 3, which joins the groups; defined here for BENCH_CLOSE_ONLY).
# A close costs microseconds, and the load on the machine moves that by as
# much: the two are measured in turns, CLOSE_ROUNDS rounds of REPS closes
# each way (one mcg_bench close each), the state changed between them (the
# N groups and the bound hold let go of, or taken again), in the order
# B A, A B, B A, ... so that a drift of the load, and the time since the
# state changed, hit both alike. The closes run on CPU 0 (taskset): a
# vCPU whose host thread is busier than the other's does not land on one
# side only. Even so the host's other VMs switch a close between two
# speeds (say 6 and 10 us) every second or so; a round's two halves, one
# toggle apart, mostly share one, while the medians of twelve rounds each
# way may each fall on either. So the figure's ratio is the median of the
# rounds' ratios (held / none); the row shows the medians of the rounds'
# medians each way, and the next one the lowest, median and highest ratio
# of a round. The KTAP log has every round.
CLOSE_ROUNDS=${BENCH_CLOSE_ROUNDS:-12}
PIN=
! command -v taskset >/dev/null || PIN="taskset -c 0"
bound_hold() {
	mcg_bench joinmany -4 $MCG_DEV0 1 1 bench:bound 0x30000 bound \
		>/tmp/bench.bound &
	bpid=$!
	wait_for -t 30 grep -q joined /tmp/bench.bound
}
no_groups() { [ "$(mcctl -j list | jq length)" = 0 ]; }
close_toggle() {
	if [ "$cstate" = held ]; then
		kill $bpid
		wait $bpid 2>/dev/null
		mcctl leave owner bench:mem all >/dev/null
		wait_for -t 120 no_groups
		cstate=none
	else
		mcg_bench joinmany -4 $MCG_DEV0 1 $N bench:mem 0x10000 \
			sendonly >/dev/null
		bound_hold
		cstate=held
	fi
}
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR)
		print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# With the N groups of bench:mem held; returns with them held again.
close_figure() {
	local r k t spread

	bound_hold
	cstate=held
	: >/tmp/bench.close
	for r in $(seq 1 "$CLOSE_ROUNDS"); do
		for k in 1 2; do
			t=$(bench_median $PIN mcg_bench close $REPS)
			echo "$r $cstate ${t:-?}" >>/tmp/bench.close
			[ $k = 2 ] || close_toggle
		done
	done
	[ "$cstate" = held ] || close_toggle
	kill $bpid
	wait $bpid 2>/dev/null
	ktap_diag "close rounds (round, state, median_us):" \
		"$(tr '\n' ';' </tmp/bench.close)"
	close0=$(awk '$2 == "none" && $3 != "?" {print $3}' /tmp/bench.close |
		 median)
	close1=$(awk '$2 == "held" && $3 != "?" {print $3}' /tmp/bench.close |
		 median)
	awk '$3 != "?" { t[$1, $2] = $3 } END {
		for (r = 1; t[r, "held"] != ""; r++)
			if (t[r, "none"] > 0)
				printf "%.3f\n", t[r, "held"] / t[r, "none"] }' \
		/tmp/bench.close | sort -g >/tmp/bench.close.ratios
	bench_row "genetlink socket close, $N groups + 1 bound hold, median of $CLOSE_ROUNDS rounds x $REPS (ratio: median of the rounds' ratios)" \
		"with none" "$close0" "$close1" "us" 1.1 \
		"$(median </tmp/bench.close.ratios)"
	spread=$(awk -v m="$(median </tmp/bench.close.ratios)" '
		NR == 1 { lo = $1 } { hi = $1 }
		END { if (NR) printf "%.2fx %.2fx %.2fx", lo, m, hi }' \
		/tmp/bench.close.ratios)
	bench_info "genetlink socket close, ratio per round (lowest, median, highest)" \
		"${spread:-?}"
}

# 5. mcctl -j list of N groups vs ip -j route show of as many routes, and
# where its time goes (defined here for BENCH_LIST_ONLY): the kernel's
# dump read without decoding and through the library, in full and in the
# list view (IB_MCG_A_LIST_BRIEF, which mcctl list asks for), the text
# list.
list_figure() {
	local draw drawb dlibb

	modprobe dummy
	ip link add bench0 type dummy && ip link set bench0 up
	awk -v n=$N 'BEGIN { for (i = 0; i < n; i++)
		printf "route add 10.%d.%d.0/24 dev bench0 table 100\n", 64 + int(i / 256) % 64, i % 256 }' |
		ip -batch -
	t_ip=$(bench_median mcg_bench spawn 3 ip -j route show table 100)
	t_list=$(bench_median mcg_bench spawn 3 mcctl -j list)
	bench_row "mcctl -j list of $N groups, median of 3" \
		"ip -j route show table 100 with $(ip route show table 100 | wc -l) routes" \
		"$t_ip" "$t_list" "us" 1
	draw=$(mcg_bench dump 5 raw)
	drawb=$(mcg_bench dump 5 raw brief)
	dlib=$(bench_median mcg_bench dump 5 lib)
	dlibb=$(bench_median mcg_bench dump 5 lib brief)
	t_text=$(bench_median mcg_bench spawn 3 mcctl list)
	bench_inforow "... the full dump read raw (recv only, no decoding), median of 5" \
		"$(echo "$draw" | awk '$1 == "bytes" || $1 == "datagrams" {printf "%s %s ", $2, $1}')" \
		"$(echo "$draw" | awk '$1 == "median_us" {print $2}') us"
	bench_inforow "... the list view read raw, median of 5" \
		"$(echo "$drawb" | awk '$1 == "bytes" || $1 == "datagrams" {printf "%s %s ", $2, $1}')" \
		"$(echo "$drawb" | awk '$1 == "median_us" {print $2}') us"
	bench_inforow "... the full dump through libibmcg (ibmcg_group_dump), median of 5" \
		"-" "$dlib us"
	bench_inforow "... the list view through libibmcg (ibmcg_group_list), median of 5" \
		"-" "$dlibb us"
	bench_inforow "mcctl list (text) of $N groups, median of 3" "-" \
		"$t_text us"
}

# 2. mcctl join as a process (a held join) vs spawning true (defined here
# for BENCH_SPAWN_ONLY).
spawn_figure() {
	mcctl join $MCG_DEV0/1 239.2.0.3 owner bench:a >/dev/null
	t_true=$(bench_median mcg_bench spawn 100 $TRUE)
	t_mcctl=$(bench_median mcg_bench spawn 100 mcctl join $MCG_DEV0/1 239.2.0.3 owner bench:b)
	bench_row "mcctl join as a process, median" "spawning true" "$t_true" \
		"$t_mcctl" "us" 2
	mcctl leave owner bench:a all >/dev/null
	mcctl leave owner bench:b all >/dev/null
}

if [ -n "${BENCH_SPAWN_ONLY:-}" ]; then
	spawn_figure
	check "benchmark ran" test -n "$t_true$t_mcctl"
	ktap_finish
	exit 0
fi
if [ -n "${BENCH_CLOSE_ONLY:-}" ]; then
	mcg_bench joinmany -4 $MCG_DEV0 1 $N bench:mem 0x10000 sendonly >/dev/null
	close_figure
	mcctl leave owner bench:mem all >/dev/null
	check "benchmark ran" test -n "$close0$close1"
	ktap_finish
	exit 0
fi
if [ -n "${BENCH_LIST_ONLY:-}" ]; then
	mcg_bench joinmany -4 $MCG_DEV0 1 $N bench:mem 0x10000 sendonly >/dev/null
	list_figure
	mcctl leave owner bench:mem all >/dev/null
	check "benchmark ran" test -n "$t_list" -a -n "$dlib"
	ktap_finish
	exit 0
fi

# 1. held join (second owner) vs rdma_cm join on the same port
held=$(bench_median mcg_bench heldjoin $MCG_DEV0 1 ::ffff:239.2.0.1 $REPS)
cm=$(bench_median rdmacm_join $MCG_IP0 239.2.0.2 $((REPS / 2)))
bench_row "held join (library, second owner), median" \
	"rdma_cm join on rxe" "$cm" "$held" "us" 0.5
# The floor under it, same boot: a generic netlink round trip to the
# family that does no work (a command it does not have, error ack), and
# the same held JOIN without the library (plain send and recv).
floor=$(bench_median mcg_bench floor $REPS)
getfam=$(bench_median mcg_bench getfamily $REPS)
raw=$(bench_median mcg_bench heldjoin-raw $MCG_DEV0 1 ::ffff:239.2.0.4 $REPS)
bench_row "floor: genetlink round trip to ib_mcgroups doing nothing, median" \
	"rdma_cm join on rxe" "$cm" "$floor" "us" 0.5
bench_row "held join without the library (send + recv), median" \
	"rdma_cm join on rxe" "$cm" "$raw" "us" 0.5
rawb=$(bench_median mcg_bench heldjoin-raw $MCG_DEV0 1 ::ffff:239.2.0.4 $REPS brief 2>/dev/null)
bench_info "held join without the library, brief reply (send + recv), median" "${rawb:-?} us"
bench_info "CTRL_CMD_GETFAMILY ib_mcgroups round trip, median" "${getfam:-?} us"
# Where the held join's time goes: the floor and four JOINs, each stopping
# one step further in mcg_nl_join(), sent in turns (mcg_bench joinsteps).
# Each step's median is printed with what it adds to the one before; the
# library's share is the held join less the raw one of the last step.
steps=$(mcg_bench joinsteps $MCG_DEV0 1 ::ffff:239.2.0.5 $REPS)
step() { awk -v k="step_$1_median_us" '$1 == k {print $2}' <<<"$steps"; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1f", a - b}'; }
s_floor=$(step floor) s_attr=$(step badattr) s_nodev=$(step nodev)
s_rep=$(step repeat) s_new=$(step new)
if [ -n "$s_floor" ] && [ -n "$s_new" ] && [ -n "$held" ]; then
	bench_info "where a held join's time goes, in turns (raw, brief reply): the floor" "$s_floor us"
	bench_info "... refused by an attribute's value: policy, caller, owner and MGID parsed, an error ack with its message" \
		"$s_attr us (+$(minus "$s_attr" "$s_floor"))"
	bench_info "... refused for a device that does not exist: mcg_lock, the device looked up" \
		"$s_nodev us (+$(minus "$s_nodev" "$s_attr"))"
	bench_info "... the owner's join again: port, group and hold found, the brief reply built, nothing allocated" \
		"$s_rep us (+$(minus "$s_rep" "$s_nodev"))"
	bench_info "... a new owner's hold: owner and hold allocated and linked, the events' listeners checked" \
		"$s_new us (+$(minus "$s_new" "$s_rep"))"
	bench_row "held join (library) next to the floor" "floor" "$s_floor" "$held" "us" 1.25
	bench_info "... of which libibmcg's own code (held join less the raw new hold)" \
		"$(minus "$held" "$s_new") us"
fi
if [ -n "${BENCH_HELD_ONLY:-}" ]; then
	check "benchmark ran" test -n "$held$cm$floor$raw"
	ktap_finish
	exit 0
fi

# 2. mcctl join as a process (a held join) vs spawning true (above)
spawn_figure

# 3. kernel memory per group: N send-only RoCE groups
sync
echo 3 >/proc/sys/vm/drop_caches
s0=$(slab_kb)
slab_snap /tmp/bench.slab0
mcg_bench joinmany -4 $MCG_DEV0 1 $N bench:mem 0x10000 sendonly >/dev/null
s1=$(slab_kb)
slab_snap /tmp/bench.slab1
bench_mem_rows "RoCE, send-only" "$N" /tmp/bench.slab0 /tmp/bench.slab1 \
	"$s0" "$s1"

# 4. genetlink socket close with N groups and one bound hold (above)
close_figure

# 5. mcctl -j list of N groups vs ip -j route show of N routes (above)
list_figure
mcctl leave owner bench:mem all >/dev/null

check "benchmark ran" test -n "$held$cm$t_mcctl$close1$t_list"
ktap_finish
