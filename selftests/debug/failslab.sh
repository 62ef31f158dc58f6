#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest side of the debug lane (before kmemleak_scan):
# the join, leave and dump paths (mcctl join/leave/list) with their Nth
# kernel allocation failed, for N = 1, 2, ... until a run hits no more
# allocations (failslab and fail_page_alloc through /proc/<pid>/fail-nth,
# set by failnth.so after mcctl has started). Each failure must give a
# clean result (an error or success, no crash), and afterwards the state
# must be clean: nothing held once the owner leaves, the module unloads.
# KASAN/lockdep reports and leaks are caught by the lane (dmesg,
# kmemleak_scan). run.sh installs it as tests/failslab.sh (EXTRA_TESTS).
# FAILSLAB_SWEEPS, from bin/failslab.conf (check-debug.sh writes it), picks
# the sweeps: join4 join6 leave leaveall dump show (default all of them).
# timeout: 1200
. "$(dirname "$0")/../lib.sh"

FAILNTH=$SELFTESTS_DIR/bin/failnth.so
MAX_N=${FAILNTH_MAX:-100}
P=$MCG_DEV0/1
SYS=/sys/kernel/ib_mcgroups/$MCG_DEV0/1
G4=239.9.9.1
G6=ff0e::9:1
STATE=/tmp/failnth.state
ALL_SWEEPS="join4 join6 leave leaveall dump show"
FAILSLAB_SWEEPS=
# shellcheck disable=SC1091  # written by check-debug.sh
[ -f "$SELFTESTS_DIR/bin/failslab.conf" ] && . "$SELFTESTS_DIR/bin/failslab.conf"
SWEEPS=${FAILSLAB_SWEEPS:-$ALL_SWEEPS}

[ -d /sys/kernel/debug/failslab ] || { echo "# no failslab on $(uname -r)"; exit "$KSFT_SKIP"; }
[ -f "$FAILNTH" ] || { echo "# $FAILNTH not installed"; exit "$KSFT_SKIP"; }
mcg_require_module
mcg_require_mcctl

for w in $SWEEPS; do
	[[ " $ALL_SWEEPS " = *" $w "* ]] || { echo "# unknown sweep $w in FAILSLAB_SWEEPS"; exit 1; }
done
# shellcheck disable=SC2086  # a list of words
set -- $SWEEPS
ktap_plan $((5 + $#))
[ "$SWEEPS" = "$ALL_SWEEPS" ] || echo "# sweeps: $SWEEPS (FAILSLAB_SWEEPS; of $ALL_SWEEPS)"
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer mcg_unload

# GFP_KERNEL allocations too (by default only atomic ones may fail), no
# stack dump per failure (it would look like a splat).
for a in failslab fail_page_alloc; do
	echo N >/sys/kernel/debug/$a/ignore-gfp-wait
	echo 0 >/sys/kernel/debug/$a/verbose
done

# sweep PREP CLEAN CMD...: for N = 1.., run PREP, CMD with its Nth
# allocation failed, CLEAN; fail if CMD crashed (status > 1) or if a group
# is left after CLEAN (unless CLEAN is ":"). Stops when CMD hit no injected
# failure.
sweep() {
	local prep=$1 clean=$2 n rc errs=0 bad=0 st groups t0=$SECONDS
	shift 2

	for ((n = 1; n <= MAX_N; n++)); do
		eval "$prep" >/dev/null 2>&1
		rm -f $STATE
		FAIL_NTH=$n FAIL_NTH_STATE=$STATE LD_PRELOAD=$FAILNTH "$@" >/dev/null 2>&1
		rc=$?
		st=
		[ -f $STATE ] && read -r st <$STATE
		eval "$clean" >/dev/null 2>&1
		[ "$rc" -ne 0 ] && errs=$((errs + 1))
		if [ "$rc" -gt 1 ]; then
			echo "N=$n: $* exited $rc"
			bad=$((bad + 1))
		fi
		read -r groups <$SYS/groups
		if [ "$clean" != : ] && [ "$groups" != 0 ]; then
			echo "N=$n: $* left $groups groups after cleanup"
			bad=$((bad + 1))
			mcctl leave owner fs all >/dev/null 2>&1
		fi
		[ "$st" = unused ] && break
	done
	echo "$*: $((n - 1)) allocations failed in turn ($errs errors, $bad bad) in $((SECONDS - t0))s"
	[ "$st" = unused ] || echo "(stopped at FAILNTH_MAX=$MAX_N)"
	[ "$bad" -eq 0 ]
}

# test_sweep NAME DESC PREP CLEAN CMD...: a sweep as one KTAP result, with
# its figures; nothing if NAME is not in SWEEPS.
test_sweep() {
	local desc=$2 out rc
	[[ " $SWEEPS " = *" $1 "* ]] || return 0
	shift 2

	out=$(sweep "$@" 2>&1)
	rc=$?
	ktap_diag "$out"
	ktap_result $rc "$desc"
}

J4="mcctl join $P $G4 owner fs"
J6="mcctl join $P $G6 owner fs"
CLEAN="mcctl leave owner fs all"
test_sweep join4 "join IPv4 under failslab" : "$CLEAN" $J4
test_sweep join6 "join IPv6 under failslab" : "$CLEAN" $J6
test_sweep leave "leave under failslab" "$J4" "$CLEAN" mcctl leave $P $G4 owner fs
test_sweep leaveall "leave all under failslab" "$J4; $J6" "$CLEAN" mcctl leave owner fs all
eval "$J4; $J6" >/dev/null
test_sweep dump "dump under failslab" : : mcctl list
test_sweep show "show under failslab" : : mcctl show $P $G4
check_eq "the dumped groups are intact" 2 "$(mcctl -j list $P | jq length)"
eval "$CLEAN" >/dev/null
check "mcctl works again" sh -c "$J4 && mcctl list | grep -q $G4 && $CLEAN"
check "ib_mcgroups unloads" mcg_unload
ktap_finish
