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

# BENCH_LIST_ONLY: only the groups and the list figures (sections 3, 5).
LIST_ONLY=${BENCH_LIST_ONLY:-}
if [ -z "$LIST_ONLY" ]; then
# Anchors that need an idle module first.
close0=$(bench_median mcg_bench close $REPS)

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
if [ -n "${BENCH_HELD_ONLY:-}" ]; then
	check "benchmark ran" test -n "$held$cm$floor$raw"
	ktap_finish
	exit 0
fi

# 2. mcctl join as a process (a held join) vs spawning true
mcctl join $MCG_DEV0/1 239.2.0.3 owner bench:a >/dev/null
t_true=$(bench_median mcg_bench spawn 100 $TRUE)
t_mcctl=$(bench_median mcg_bench spawn 100 mcctl join $MCG_DEV0/1 239.2.0.3 owner bench:b)
bench_row "mcctl join as a process, median" "spawning true" "$t_true" \
	"$t_mcctl" "us" 2
mcctl leave owner bench:a all >/dev/null
mcctl leave owner bench:b all >/dev/null
fi

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

# 4. genetlink socket close with N groups and one bound hold
if [ -z "$LIST_ONLY" ]; then
mcg_bench joinmany -4 $MCG_DEV0 1 1 bench:bound 0x30000 bound >/tmp/bench.bound &
bpid=$!
wait_for -t 30 grep -q joined /tmp/bench.bound
close1=$(bench_median mcg_bench close $REPS)
bench_row "genetlink socket close, $N groups + 1 bound hold, median" \
	"with none" "$close0" "$close1" "us" 1.1
kill $bpid; wait $bpid 2>/dev/null
fi

# 5. mcctl -j list of N groups vs ip -j route show of N routes
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
# Where mcctl's time goes: the kernel's dump read without decoding, the
# library's dump (decoded, freed), the text list.
draw=$(mcg_bench dump 5 raw)
dlib=$(bench_median mcg_bench dump 5 lib)
t_text=$(bench_median mcg_bench spawn 3 mcctl list)
bench_inforow "... its dump read raw (recv only, no decoding), median of 5" \
	"$(echo "$draw" | awk '$1 == "bytes" || $1 == "datagrams" {printf "%s %s ", $2, $1}')" \
	"$(echo "$draw" | awk '$1 == "median_us" {print $2}') us"
bench_inforow "... its dump through libibmcg (ibmcg_group_dump), median of 5" \
	"-" "$dlib us"
bench_inforow "mcctl list (text) of $N groups, median of 3" "-" "$t_text us"
mcctl leave owner bench:mem all >/dev/null

if [ -n "$LIST_ONLY" ]; then
	check "benchmark ran" test -n "$t_list" -a -n "$dlib"
else
	check "benchmark ran" test -n "$held$cm$t_mcctl$close1$t_list"
fi
ktap_finish
