#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Run KTAP test programs, then print one summary line "N passed, M failed".
# A program that crashes, exits non-zero without a failed case, or reports
# fewer results than its plan counts the missing results as failures.

passed=0
failed=0
skipped=0
for t in "$@"; do
	case $t in */*) ;; *) t=./$t ;; esac
	out=$("$t" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | grep -c '^ok ')
	s=$(printf '%s\n' "$out" | grep -c '^ok .* # SKIP')
	f=$(printf '%s\n' "$out" | grep -c '^not ok ')
	plan=$(printf '%s\n' "$out" | sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' | head -n 1)
	missing=$(( ${plan:-0} - p - f ))
	if [ "$missing" -gt 0 ]; then
		echo "# $t: $missing result(s) missing"
		f=$((f + missing))
	fi
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "# $t: exit status $rc"
		f=1
	fi
	passed=$((passed + p - s))
	skipped=$((skipped + s))
	failed=$((failed + f))
done
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
