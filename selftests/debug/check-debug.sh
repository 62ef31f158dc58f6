#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The debug-kernel lane ("make check-debug"): the VM tests on a kernel with
# KASAN, lockdep, kmemleak, debug objects, fault injection and KUnit.
#
#   selftests/debug/check-debug.sh [run.sh options] [TEST...]
#   selftests/debug/check-debug.sh kunit     # only the KUnit suites (~1 min)
#   selftests/debug/check-debug.sh --build   # steps 1 and 2 only
#   selftests/debug/check-debug.sh --built [run.sh options] [TEST...]
#                                            # steps 3 and 4, on the modules
#                                            # a --build left
#
# make check runs the build as one part beside others, and the tests as two:
# most beside other parts, the two with timing checks (ib_failover's pace,
# ib_churn's drops) alone, since they fail when other work shares the cores.
#
# 1. selftests/kernels/build-kernel.sh builds the kernel once (cached in
#    /var/cache/ib_mcgroups)
# 2. ib_mcgroups.ko, its KUnit module and simhca.ko are built against it
#    from a copy of their sources in build/debug/src (the normal build in
#    kernel/ is untouched; selftests/kernels/mods.sh), with W=1 and sparse:
#    a warning fails the lane (the KUnit module's static check)
# 3. selftests/vm/run.sh boots it with those modules, runs the tests (all,
#    or TEST...), then failslab.sh (join/leave/dump with their Nth
#    allocation failed), kunit.sh (the KUnit suites of the module's pure
#    logic, kernel/tests/) and kmemleak_scan.sh (unload the modules, scan)
# 4. any KASAN, lockdep, kmemleak, BUG:, WARNING: or refcount report fails
#    the run and is printed in full
#
# Environment: DEBUG_KERNEL (6.1 or 6.12, the linux-source package the
# kernel is built from, default 6.1), O (VM build dir, default
# build/debug/vm), CACHE, JOBS (see selftests/kernels/build-kernel.sh), TIMEOUT (overall VM
# timeout, default 5400), TIMEOUT_SCALE (per-test timeouts, default x3),
# FAILSLAB_SWEEPS (failslab.sh's sweeps to run, default all), DEBUG_EXTRAS
# (0: without failslab and KUnit).
# The last line is "N passed, M failed[, K skipped]".
set -uo pipefail

DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$DIR/../.." && pwd)
OUT=$TOP/build/debug
export O=${O:-$OUT/vm}
# "make check-debug O=..." passes O (and KDIR) down in MAKEFLAGS, where
# they would redirect the module builds below: start afresh.
unset MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL

log() { echo "check-debug: $*" >&2; }
die() { log "error: $*"; echo "0 passed, 1 failed"; exit 1; }

phase=all
case "${1:-}" in
--build) phase=build; shift ;;
--built) phase=tests; shift ;;
esac

# --- 1. the kernel ------------------------------------------------------------
t0=$(date +%s)
K=$(KFLAVOUR=debug "$TOP/selftests/kernels/build-kernel.sh") || die "debug kernel build failed"
KDIR=$K/build
rel=$(cat "$K/kernel.release")
t1=$(date +%s)
echo "# debug kernel $rel in $K (built in $(cat "$K/build-time")s; this run $((t1 - t0))s)"

# --- 2. the project's modules, built for it -----------------------------------
# shellcheck source-path=SCRIPTDIR source=../kernels/mods.sh
. "$TOP/selftests/kernels/mods.sh"
# With W=1 and sparse, any warning failing it: the only build of the KUnit
# module (kernel/tests/), which needs a kernel with CONFIG_KUNIT, so this
# is its static check (style.sh's when run alone).
modcheck="ib_mcgroups.ko, ib_mcgroups_kunit.ko and simhca.ko build warning-free with W=1 and sparse (C=2)"
built=0
if [ "$phase" = tests ]; then
	# what a --build left (build_project_mods' names)
	export MCG_KO=$OUT/src/kernel/ib_mcgroups.ko
	export KUNIT_KO=$OUT/src/kernel/tests/ib_mcgroups_kunit.ko
	export SIMHCA_KO=$OUT/src/simhca/simhca.ko
	for f in "$MCG_KO" "$KUNIT_KO" "$SIMHCA_KO" "$OUT/failnth.so" "$OUT/built"; do
		[ -f "$f" ] || die "$f: missing (check-debug.sh --build first)"
	done
	[ "$(cat "$OUT/built")" = "$rel" ] || die "the modules in $OUT/src are not built for $rel"
else
	command -v sparse >/dev/null || die "sparse is not installed (make deps)"
	rm -f "$OUT/built"
	if ! MODS_W1=1 MODS_SPARSE=1 build_project_mods "$TOP" "$KDIR" "$OUT/src"; then
		echo "not ok - $modcheck against $rel"
		die "the modules do not build warning-free against $KDIR"
	fi
	[ -n "${KUNIT_KO:-}" ] || die "ib_mcgroups_kunit.ko not built (no CONFIG_KUNIT in $KDIR?)"
	echo "ok - $modcheck against $rel"
	gcc -O2 -Wall -shared -fPIC -o "$OUT/failnth.so" "$DIR/failnth.c" ||
		die "failnth.so does not build"
	echo "$rel" >"$OUT/built"
	built=1
	if [ "$phase" = build ]; then
		echo "1 passed, 0 failed"
		exit 0
	fi
fi
export EXTRA_KOS=$KUNIT_KO

# --- 3. the tests ---------------------------------------------------------------
# panic_on_warn=0: go on after a WARNING so that every report of the run is
# collected (any report still fails it); kasan_multi_shot: report every
# KASAN error, not only the first. kunit.enable=1: the kernel is built from
# allnoconfig, so CONFIG_KUNIT_DEFAULT_ENABLED is off and KUnit would skip
# every suite ("kunit: disabled"); the parameter turns it on without a
# rebuild (no built-in suites are configured, so none run at boot).
export GUEST_FILES=$OUT/failnth.so
# FAILSLAB_SWEEPS: only these of failslab.sh's sweeps (make check runs 3),
# written to this run's own O (two runs may share the modules in $OUT).
rm -f "$O/failslab.conf"
if [ -n "${FAILSLAB_SWEEPS:-}" ]; then
	mkdir -p "$O"
	printf "FAILSLAB_SWEEPS='%s'\n" "$FAILSLAB_SWEEPS" >"$O/failslab.conf"
	GUEST_FILES+=" $O/failslab.conf"
fi
export EXTRA_TESTS="$DIR/failslab.sh $DIR/kunit.sh"
# DEBUG_EXTRAS=0: the tests and the kmemleak scan only (make check's part
# of the lane that runs alone leaves failslab and KUnit to the other).
[ "${DEBUG_EXTRAS:-1}" != 0 ] || EXTRA_TESTS=
export POST_TESTS=$DIR/kmemleak_scan.sh
# "kunit" alone: just the KUnit suites, without failslab and kmemleak.
if [ "$*" = kunit ]; then
	EXTRA_TESTS=$DIR/kunit.sh
	POST_TESTS=
fi
export KERNEL_APPEND="panic_on_warn=0 kasan_multi_shot kunit.enable=1"
# Every test's timeout x3: the tests run 2-4x slower on this kernel, more
# on a shared host (datapath_socket took over its 90 s there); a timeout
# only catches a hang.
export TIMEOUT_SCALE=${TIMEOUT_SCALE:-3}
mkdir -p "$O"
"$TOP/selftests/vm/run.sh" --kernel "$K" --timeout "${TIMEOUT:-5400}" "$@" | tee "$O/run.log"
rc=${PIPESTATUS[0]}
t2=$(date +%s)

# --- 4. the reports, in full ------------------------------------------------------
# run.sh already counted them as failures and listed their first lines.
src=$O/dmesg.log
grep -q '^=== dmesg end ===$' "$O/results.clean" 2>/dev/null || src=$O/console.log
if [ -s "$src" ] && "$DIR/splats.sh" <"$src" >"$O/splats.log" && [ -s "$O/splats.log" ]; then
	echo "# ==== kernel reports ($src):"
	sed 's/^/# /' "$O/splats.log"
fi
if grep -q 'unreferenced object' "$O/ktap.log" 2>/dev/null; then
	echo "# ==== kmemleak report:"
	sed -n '/kmemleak: [0-9]* unreferenced/,/^ *\(not \)\{0,1\}ok [0-9]/p' "$O/ktap.log" |
		sed 's/^ */# /'
fi
echo "# debug lane: kernel $((t1 - t0))s, tests $((t2 - t1))s; logs in $O"
# run.sh's total, with the build check above (when made here)
tail -n1 "$O/run.log" | awk -v b=$built '/^[0-9]+ passed/ { sub(/^[0-9]+/, $1 + b) } 1'
exit "$rc"
