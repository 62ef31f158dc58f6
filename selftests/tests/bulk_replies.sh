#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Replies that do not fit in one netlink message: a job's epilog releasing
# 10,000 holds ("mcctl leave owner X all", the Slurm epilog) and "mcctl
# show" / "mcctl list" of a group with 10,000 holders succeed, with exact
# counts and every item listed; a refused bulk release changes nothing.
# 20,000 joins through libibmcg: a few minutes under TCG.
# timeout: 1200
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

P=$MCG_DEV0/1
SYS=/sys/kernel/ib_mcgroups/$MCG_DEV0/1
N=10000
BIG=ff12:401b:ffff::f000	# mcg_bulk's MGID 0xf000

ktap_plan 20
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer mcg_unload

# --- 500 holds: the size the report started failing at -----------------------
check "job:500 holds 500 groups" mcg_bulk join "$MCG_DEV0" 1 500 job:500 0x20000
out=$(mcctl leave owner job:500 all 2>&1)
check_eq "releasing them exits 0" 0 $?
check_eq "and says so" "released 500 hold(s) of owner job:500" "$(tail -n1 <<<"$out")"
check_eq "nothing left" 0 "$(cat $SYS/groups)"

# --- one owner, 10,000 holds ------------------------------------------------
check "job:bulk holds $N groups" mcg_bulk join "$MCG_DEV0" 1 $N job:bulk
check_eq "$N groups held" $N "$(cat $SYS/groups)"
check "a release on a missing device is refused" \
	__lib_not mcctl leave owner job:bulk all nosuchdev0
check_eq "and changes nothing" $N "$(cat $SYS/holders)"
out=$(mcctl list "$P")
check_eq "mcctl list shows all $N groups" $N "$(grep -c ' holders 1 ' <<<"$out")"
out=$(mcctl -j leave owner job:bulk all)
check_eq "mcctl leave owner job:bulk all exits 0" 0 $?
check_eq "$N holds dropped" $N "$(jq -r .holds_dropped <<<"$out")"
check_eq "$N distinct groups reported, all released" "$N $N" \
	"$(jq -r '[.groups[].group] | unique | length' <<<"$out") $(jq -r '[.groups[] | select(.state == "released")] | length' <<<"$out")"
check_eq "no groups left" "0 0" "$(cat $SYS/groups) $(cat $SYS/holders)"

# --- one group, 10,000 owners -----------------------------------------------
check "$N owners hold $BIG" mcg_bulk owners "$MCG_DEV0" 1 $N own: 0xf000
out=$(mcctl -j show "$P" $BIG)
check_eq "mcctl -j show exits 0" 0 $?
check_eq "and lists $N distinct holders" "$N $N" \
	"$(jq -r '.holder_count' <<<"$out") $(jq -r '[.holders[].owner] | unique | length' <<<"$out")"
out=$(mcctl show "$P" $BIG)
check_eq "mcctl show prints a line per holder" $N "$(grep -c '^ *holder own:' <<<"$out")"
out=$(mcctl -j list "$P")
check_eq "mcctl list: one group with $N distinct holders" "1 $N" \
	"$(jq -r 'length' <<<"$out") $(jq -r '[.[0].holders[].owner] | unique | length' <<<"$out")"
ktap_finish
