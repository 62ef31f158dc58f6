#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Everything "make check" runs: mcctl's host unit tests, the build
# machinery's host tests (feature probes, MLNX_OFED detection, DKMS files),
# the packages' (make deb, make rpm: selftests/host/pkg_test.sh), then, for
# each installed Debian 12 kernel, the VM tests and the DKMS install VM test
# (see KVERS below); the static checks of the modules against every kernel
# (style.sh); the core set and the DKMS test on the kernels of other Debian
# releases, built here (LANES below: 5.10 and the newest); last the debug
# lane: the VM tests on a debug kernel (KASAN, lockdep, kmemleak; see
# DEBUG_TESTS below). The kernels built here are built in the background
# meanwhile. Each part prints KTAP and its own tally (shown here as a
# "# part: ..." comment); a per-kernel breakdown follows, and the last line
# is the total: "N passed, M failed[, K skipped]". Exits non-zero if
# anything failed.
#
#   selftests/check.sh [TEST...]     TEST...: only these VM tests (no DKMS),
#                                    on the built kernels too
#   KVER=X selftests/check.sh        only kernel X (no built kernels)
#   DEBUG_LANE=0 selftests/check.sh  without the debug lane
#   LANES= selftests/check.sh        without the 5.10 and newest lanes
set -u

TOP=$(cd "$(dirname "$0")/.." && pwd)
LOG=$TOP/build/check
mkdir -p "$LOG"
passed=0
failed=0
skipped=0

# part NAME CMD...: run CMD, show its output, add its tally to the total.
part() {
	local name=$1 rc line p f s
	local t0=$SECONDS
	shift

	echo "# ==== $name: $*"
	"$@" 2>&1 | tee "$LOG/$name.log" | sed -E 's/^([0-9]+ passed, [0-9]+ failed.*)$/# '"$name"': \1/'
	rc=${PIPESTATUS[0]}
	echo "# $name: $((SECONDS - t0)) s"
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$LOG/$name.log" | tail -n1)
	if [ -z "$line" ]; then
		echo "# $name: no result line (exit $rc); counted as one failure"
		failed=$((failed + 1))
		return
	fi
	p=$(sed -E 's/^([0-9]+) passed.*/\1/' <<<"$line")
	f=$(sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/' <<<"$line")
	s=$(sed -nE 's/.*, ([0-9]+) skipped.*/\1/p' <<<"$line")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "# $name: exit $rc without a failed test; counted as one failure"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + ${s:-0}))
}

# The kernels: KVER alone if given, else every series installed (kver.sh
# --all: 6.1, 6.12, 6.12-rt on a Debian 12 machine after "make deps"). The
# generic kernels run every VM test and the DKMS test; PREEMPT_RT kernels
# run the membership core (RT_TESTS), which is what differs under RT
# (threaded interrupts, sleeping spinlocks in the RDMA and IGMP paths).
CORE_TESTS=${CORE_TESTS:-roce_membership datapath ib_datapath bound_holds ib_join ib_sm_ah ib_failover ib_pacer lifecycle}
RT_TESTS=${RT_TESTS:-$CORE_TESTS}
# The lanes on kernels of other Debian releases, built from their
# linux-source (selftests/kernels/: bullseye is Debian 11's 5.10, sid the
# newest kernel in the archive): the core set (CORE_TESTS; TEST... if
# given) and the DKMS test. LANES= leaves them out; KVER=X does too.
LANES=${LANES-bullseye sid}
if [ -n "${KVER:-}" ]; then
	KVERS=$KVER
else
	KVERS=$("$TOP/selftests/vm/kver.sh" --all) || KVERS=
fi

# The debug lane (selftests/debug/README.md): a kernel built from Debian's
# linux-source-$DEBUG_KERNEL with KASAN, lockdep, kmemleak, debug objects,
# fault injection and KUnit, cached in /var/cache/ib_mcgroups (CACHE) and
# built when missing (a fresh machine: ~7 min on 2 cores). It runs
# DEBUG_TESTS (TEST... if given), then failslab, the KUnit suites and the
# kmemleak scan; any KASAN, lockdep, kmemleak, refcount, BUG or WARNING
# report fails it and is printed in full. Every VM test on it takes about
# as long as the rest of make check together, too long for CI's 45
# minutes on 2 cores with the kernel build of a fresh machine, so
# DEBUG_TESTS is a core set: membership on RoCE and IB, SM failover, churn
# and concurrency, bound holds and bulk release by owner, an unanswered
# SA join released, device removal and module unload; and failslab only
# sweeps join (IPv4), leave all and dump (FAILSLAB_SWEEPS; each sweep
# is about 90 mcctl runs with one allocation failed). DEBUG_TESTS= and
# FAILSLAB_SWEEPS= run everything (so does make check-debug). KVER=X
# (one kernel) or DEBUG_LANE=0 leave the lane out.
DEBUG_TESTS=${DEBUG_TESTS-roce_membership ib_join ib_failover ib_churn concurrency bound_holds owner_release ib_pending_release lifecycle}
FAILSLAB_SWEEPS=${FAILSLAB_SWEEPS-join4 leaveall dump}
DEBUG_KERNEL=${DEBUG_KERNEL:-6.12}
DEBUG_LANE=${DEBUG_LANE:-1}
debug_k=
if [ -n "${KVER:-}" ]; then
	echo "# debug lane: not run (KVER=$KVER: that kernel only; make check-debug runs it)"
	DEBUG_LANE=0
	LANES=
elif [ "$DEBUG_LANE" = 0 ]; then
	echo "# debug lane: not run (DEBUG_LANE=0)"
fi

# The kernels built here (selftests/kernels/build-kernel.sh, cached in
# /var/cache/ib_mcgroups): the debug lane's and the other releases' lanes'.
# On a fresh machine they are built one after the other in the background,
# at nice 19, while the host checks and the VM tests on Debian 12's kernels
# run: TCG guests leave much of the CPU idle while tests wait, and the
# build takes only what they leave. Whatever needs a kernel waits for it
# (build-kernel.sh returns at once if it is built, else waits for the
# cache's lock). Each build's messages: build/check/kernel-*.log.
kbuilds=()
[ "$DEBUG_LANE" = 0 ] || kbuilds+=("debug:$DEBUG_KERNEL")
for l in $LANES; do
	kbuilds+=("plain:$l")
done
kbuild_pid=
if [ ${#kbuilds[@]} -gt 0 ]; then
	echo "# ==== kernels to build, in the background: ${kbuilds[*]}"
	(
		for b in "${kbuilds[@]}"; do
			t0=$SECONDS
			KFLAVOUR=${b%%:*} DEBUG_KERNEL=${b#*:} KSERIES=${b#*:} \
				"$TOP/selftests/kernels/build-kernel.sh" >/dev/null 2>"$LOG/kernel-${b/:/-}.log"
			echo "build-kernel: exit $? after $((SECONDS - t0)) s" >>"$LOG/kernel-${b/:/-}.log"
		done
	) </dev/null &
	kbuild_pid=$!
fi

part unit make -s -C "$TOP/user" check
part build "$TOP/selftests/host/build_test.sh"
part pkg "$TOP/selftests/host/pkg_test.sh"

# vm_part KVER TEST...: the modules built for KVER, then the VM tests on it.
vm_part() {
	local k=$1 dir=$TOP/build/kernels/$1
	shift

	if ! "$TOP/selftests/vm/build-mods.sh" "$k" "$dir"; then
		echo "0 passed, 1 failed"
		return 1
	fi
	KVER=$k MCG_KO=$dir/kernel/ib_mcgroups.ko SIMHCA_KO=$dir/simhca/simhca.ko \
		O=$TOP/build/vm/$k "$TOP/selftests/vm/run.sh" "$@"
}

# Tests of how the module works with the programs a cluster runs (Slurm,
# Prometheus): they test the programs and our scripts, not the kernel, and
# take minutes each, so they run on the first (newest) generic kernel only.
ONE_KERNEL_TESTS=${ONE_KERNEL_TESTS-slurm_cluster prom_scrape}
one_kernel_done=

breakdown=()
if [ -z "$KVERS" ]; then
	echo "# no kernel with an image and headers (make deps): no VM tests"
	failed=$((failed + 1))
fi
for k in $KVERS; do
	b0=$passed f0=$failed
	if "$TOP/selftests/vm/kver.sh" --rt "$k" && [ $# -eq 0 ]; then
		# shellcheck disable=SC2086  # a list of test names
		part "vm-$k" vm_part "$k" $RT_TESTS
	elif [ $# -eq 0 ] && [ -n "$one_kernel_done" ]; then
		echo "# vm-$k: $ONE_KERNEL_TESTS ran on $one_kernel_done only"
		SKIP_TESTS=$ONE_KERNEL_TESTS part "vm-$k" vm_part "$k"
		part "dkms-$k" env KVER="$k" O="$TOP/build/dkms/$k" \
			"$TOP/selftests/dkms/dkms_vm.sh"
	else
		one_kernel_done=$k
		part "vm-$k" vm_part "$k" "$@"
		[ $# -gt 0 ] || part "dkms-$k" env KVER="$k" O="$TOP/build/dkms/$k" \
			"$TOP/selftests/dkms/dkms_vm.sh"
	fi
	breakdown+=("# kernel $k: $((passed - b0)) passed, $((failed - f0)) failed")
done

# style.sh checks the KUnit module against the debug kernel too.
if [ "$DEBUG_LANE" != 0 ]; then
	echo "# ==== debug kernel: KFLAVOUR=debug DEBUG_KERNEL=$DEBUG_KERNEL selftests/kernels/build-kernel.sh"
	t0=$SECONDS
	if debug_k=$(KFLAVOUR=debug DEBUG_KERNEL=$DEBUG_KERNEL "$TOP/selftests/kernels/build-kernel.sh"); then
		echo "# debug kernel: $(cat "$debug_k/kernel.release") in $debug_k (built in $(cat "$debug_k/build-time") s; waited $((SECONDS - t0)) s for it)"
		export KUNIT_KDIR=$debug_k/build
	else
		echo "# debug kernel: build failed; the debug lane fails"
		debug_k=
	fi
fi
part style "$TOP/selftests/style.sh"

for l in $LANES; do
	b0=$passed f0=$failed
	if [ $# -eq 0 ]; then
		# shellcheck disable=SC2086  # a list of test names
		part "vm-$l" "$TOP/selftests/kernels/lane.sh" "$l" vm $CORE_TESTS
		part "dkms-$l" "$TOP/selftests/kernels/lane.sh" "$l" dkms
	else
		part "vm-$l" "$TOP/selftests/kernels/lane.sh" "$l" vm "$@"
	fi
	rel=$(sed -nE 's/^# kernel ([^ ]+) .*/\1/p' "$LOG/vm-$l.log" | head -n1)
	breakdown+=("# kernel ${rel:-?} ($l, built from its linux-source; core set): $((passed - b0)) passed, $((failed - f0)) failed")
done

if [ "$DEBUG_LANE" != 0 ]; then
	b0=$passed f0=$failed
	# shellcheck disable=SC2086  # a list of test names
	[ $# -gt 0 ] || set -- $DEBUG_TESTS
	if [ -n "$debug_k" ]; then
		part "debug-$DEBUG_KERNEL" env DEBUG_KERNEL="$DEBUG_KERNEL" \
			FAILSLAB_SWEEPS="$FAILSLAB_SWEEPS" O="$TOP/build/vm/debug-$DEBUG_KERNEL" \
			"$TOP/selftests/debug/check-debug.sh" "$@"
		rel=$(cat "$debug_k/kernel.release")
	else
		echo "# debug-$DEBUG_KERNEL: no debug kernel (its build failed, above); counted as one failure"
		failed=$((failed + 1))
		rel=$DEBUG_KERNEL
	fi
	breakdown+=("# kernel $rel debug (KASAN, lockdep, kmemleak): $((passed - b0)) passed, $((failed - f0)) failed")
fi

[ -z "$kbuild_pid" ] || wait "$kbuild_pid"
echo "# ==== summary ($((SECONDS / 60)) min $((SECONDS % 60)) s)"
for b in "${kbuilds[@]}"; do
	[ -f "$LOG/kernel-${b/:/-}.log" ] &&
		echo "# kernel build $b: $(grep -E '^build-kernel: (built|cached|exit)' "$LOG/kernel-${b/:/-}.log" | tr '\n' ' ')"
done
for line in "${breakdown[@]}"; do
	echo "$line"
done
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
