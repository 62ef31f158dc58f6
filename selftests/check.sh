#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Everything "make check" runs: static checks of the modules against every
# installed kernel, mcctl's host unit tests, the build machinery's host tests
# (feature probes, MLNX_OFED detection, DKMS files), then, for each kernel,
# the VM tests and the DKMS install VM test (see KVERS below). Each part
# prints KTAP and its own tally (shown here as a "# part: ..." comment); a
# per-kernel breakdown follows, and the last line is the total:
# "N passed, M failed[, K skipped]". Exits non-zero if anything failed.
#
#   selftests/check.sh [TEST...]     TEST...: only these VM tests (no DKMS)
#   KVER=X selftests/check.sh        only kernel X
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
	shift

	echo "# ==== $name: $*"
	"$@" 2>&1 | tee "$LOG/$name.log" | sed -E 's/^([0-9]+ passed, [0-9]+ failed.*)$/# '"$name"': \1/'
	rc=${PIPESTATUS[0]}
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
RT_TESTS=${RT_TESTS:-roce_membership datapath ib_datapath bound_holds ib_join ib_failover lifecycle}
if [ -n "${KVER:-}" ]; then
	KVERS=$KVER
else
	KVERS=$("$TOP/selftests/vm/kver.sh" --all) || KVERS=
fi

part style "$TOP/selftests/style.sh"
part unit make -s -C "$TOP/user" check
part build "$TOP/selftests/host/build_test.sh"

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
	else
		part "vm-$k" vm_part "$k" "$@"
		[ $# -gt 0 ] || part "dkms-$k" env KVER="$k" O="$TOP/build/dkms/$k" \
			"$TOP/selftests/dkms/dkms_vm.sh"
	fi
	breakdown+=("# kernel $k: $((passed - b0)) passed, $((failed - f0)) failed")
done

echo "# ==== summary"
for line in "${breakdown[@]}"; do
	echo "$line"
done
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
