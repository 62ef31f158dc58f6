#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Everything "make check" runs: static checks of the module, mcctl's host
# unit tests, the build machinery's host tests (feature probes, MLNX_OFED
# detection, DKMS files), then every VM test and the DKMS install VM test. Each part prints KTAP and its own tally
# (shown here as a "# part: ..." comment); the last line is the total:
# "N passed, M failed[, K skipped]". Exits non-zero if anything failed.
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

part style "$TOP/selftests/style.sh"
part unit make -s -C "$TOP/user" check
part build "$TOP/selftests/host/build_test.sh"
part vm "$TOP/selftests/vm/run.sh" "$@"
part dkms "$TOP/selftests/dkms/dkms_vm.sh"

if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
