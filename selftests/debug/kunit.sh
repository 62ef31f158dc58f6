#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest side of the debug lane: the KUnit suites of ib_mcgroups' pure
# logic (kernel/tests/logic_kunit.c, pacer_kunit.c). Loading the module runs them;
# each suite's KTAP is read back from /sys/kernel/debug/kunit/<suite>/results
# and printed as one KTAP document, one subtest per suite, so that run.sh
# counts every test case. Fails on a failed case, a missing case (a suite
# whose plan and results differ) or a module that does not load or unload.
# run.sh installs it as tests/kunit.sh (EXTRA_TESTS).
# timeout: 120
KU=/sys/kernel/debug/kunit
MOD=ib_mcgroups_kunit
SUITES="mcg_group mcg_join_checks mcg_backoff mcg_pacing mcg_mgid mcg_attrs mcg_ib_states"
rc=0

if ! modinfo $MOD >/dev/null 2>&1; then
	echo "# $MOD.ko not installed (kernel without CONFIG_KUNIT?)"
	exit 4
fi
[ -d /sys/kernel/debug/kunit ] ||
	mount -t debugfs none /sys/kernel/debug 2>/dev/null
grep -q "^$MOD " /proc/modules && rmmod $MOD
if ! modprobe $MOD; then
	echo "# modprobe $MOD failed"
	dmesg | tail -n 20 | sed 's/^/# /'
	exit 1
fi
if [ ! -d $KU ]; then
	echo "# $KU missing: CONFIG_KUNIT_DEBUGFS off?"
	rmmod $MOD
	exit 1
fi

set -- $SUITES
echo "KTAP version 1"
echo "1..$(($# + 1))"
n=0
for s in $SUITES; do
	n=$((n + 1))
	f=$KU/$s/results
	echo "    KTAP version 1"
	echo "    # Subtest: $s"
	if [ ! -r "$f" ]; then
		if dmesg | grep -q 'kunit: disabled'; then
			echo "not ok $n $s # KUnit is disabled: boot with kunit.enable=1"
		else
			echo "not ok $n $s # no results in $f"
		fi
		rc=1
		continue
	fi
	# The cases' lines and diagnostics (4 spaces deep in results); the
	# suite's own result line is ours, computed from them.
	plan=$(sed -n 's/^    1\.\.\([0-9]*\)$/\1/p' "$f" | head -n1)
	echo "    1..${plan:-0}"
	sed -n '/^    \(KTAP\|# Subtest\|1\.\.\)/d; /^    /p' "$f"
	# A case's log is a small buffer (512 bytes in 6.1): one with many
	# failed expectations can lose its result line. Count it as failed.
	for i in $(seq "${plan:-0}"); do
		grep -Eq "^    (not )?ok $i " "$f" ||
			echo "    not ok $i case_$i # no result line (KUnit log full?)"
	done
	ok=$(grep -c '^    ok [0-9]' "$f")
	bad=$(grep -c '^    not ok [0-9]' "$f")
	if [ "$bad" -gt 0 ] || [ "$ok" != "${plan:-x}" ]; then
		echo "not ok $n $s # $ok of ${plan:-?} cases passed"
		rc=1
	else
		echo "ok $n $s"
	fi
done
# Every suite the module registered is one of SUITES (a suite missing
# from the list would run unchecked).
n=$((n + 1))
extra=
for d in "$KU"/mcg_*; do
	[ -d "$d" ] || continue
	case " $SUITES " in
	*" ${d##*/} "*) ;;
	*) extra="$extra ${d##*/}" ;;
	esac
done
if [ -n "$extra" ]; then
	echo "not ok $n every suite of $MOD is checked # not in SUITES:$extra"
	rc=1
else
	echo "ok $n every suite of $MOD is checked"
fi
if ! rmmod $MOD; then
	echo "# rmmod $MOD failed"
	rc=1
fi
exit $rc
