#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest-side test runner, modelled on kselftest's runner.sh:
#
#   runner.sh [NAME...]     run tests/*.sh (executable) and the C tests in
#                           $C_TESTS (from /etc/vmtest.conf) but those in
#                           $SKIP_TESTS, or only NAMEs
#   runner.sh --demo        run demo.sh
#
# Prints "TAP version 13", "1..N", then for each test its own output
# indented by four spaces (a KTAP subtest) and "ok N name", "not ok N name"
# or "ok N name # SKIP" (exit status 4). Each test runs in its own process
# group with a timeout: 120 s, or "# timeout: SECS" in a shell test; leftover
# processes of the group are killed when the test ends. TIMEOUT_SCALE (from
# /etc/vmtest.conf, default 1) multiplies every test's timeout: the debug
# kernel runs the tests 2-4x slower.
set -u

DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DEFAULT_TIMEOUT=120
C_TESTS=${C_TESTS:-}
[ -r /etc/vmtest.conf ] && . /etc/vmtest.conf
export SELFTESTS_DIR=$DIR
export PATH=$DIR/bin:$PATH

test_timeout() {
	local t

	t=$(sed -n 's/^#[[:space:]]*timeout:[[:space:]]*\([0-9]\+\).*/\1/p' "$1" 2>/dev/null | head -n1)
	echo "$(( ${t:-$DEFAULT_TIMEOUT} * ${TIMEOUT_SCALE:-1} ))"
}

# busy: BUSY is set to the guest's busy CPU time so far (user, nice,
# system, irq, softirq: /proc/stat), in USER_HZ ticks, without a fork.
busy() {
	local _cpu u n s _i _w q sq _rest

	read -r _cpu u n s _i _w q sq _rest </proc/stat
	BUSY=$((u + n + s + q + sq))
}

# The runner's own polling, without a process per turn: a read with a
# timeout on a FIFO nobody writes (every exec costs much under TCG).
NAP_FIFO=/tmp/.runner-nap.$$
if mkfifo "$NAP_FIFO" 2>/dev/null && exec {NAP_FD}<>"$NAP_FIFO"; then
	rm -f "$NAP_FIFO"
	nap() { read -r -t "$1" -u "$NAP_FD" _ || true; }
else
	nap() { sleep "$1"; }
fi

# run_one NUM NAME TIMEOUT PREFIX CMD...: run CMD, print its output with
# PREFIX before each line while it runs, then the result line.
run_one() {
	local num=$1 name=$2 t=$3 prefix=$4 log line partial="" rc start dur b0
	shift 4

	log=$(mktemp /tmp/test.XXXXXX)
	start=$EPOCHSECONDS
	busy
	b0=$BUSY
	set -m
	timeout -k 10 "$t" "$@" >"$log" 2>&1 </dev/null &
	local pid=$!
	set +m
	exec 5<"$log"
	drain() {
		while IFS= read -r -u 5 line; do
			printf '%s%s\n' "$prefix" "$partial$line"
			partial=""
		done
		partial+=$line
	}
	while kill -0 "$pid" 2>/dev/null; do
		drain
		nap 0.2
	done
	wait "$pid"
	rc=$?
	kill -KILL -- "-$pid" 2>/dev/null
	drain
	[ -n "$partial" ] && printf '%s%s\n' "$prefix" "$partial"
	exec 5<&-
	rm -f "$log"
	dur=$((EPOCHSECONDS - start))
	busy

	# (the CPU time: of the guest's vCPUs together, this test's and the
	# runner's, what the host pays for it under TCG)
	echo "# $name: exit $rc after ${dur}s, CPU busy $(((BUSY - b0) / 100))s"
	if [ "$rc" -eq 0 ]; then
		echo "ok $num $name"
	elif [ "$rc" -eq 4 ]; then
		echo "ok $num $name # SKIP"
	elif [ "$dur" -ge "$t" ] && { [ "$rc" -eq 124 ] || [ "$rc" -ge 128 ]; }; then
		echo "not ok $num $name # TIMEOUT $t seconds"
	else
		echo "not ok $num $name # exit=$rc"
	fi
}

echo "TAP version 13"

if [ "${1:-}" = --demo ]; then
	echo "1..1"
	if [ -x "$DIR/demo.sh" ] || [ -f "$DIR/demo.sh" ]; then
		t=$(test_timeout "$DIR/demo.sh")
		[ "$t" = "$DEFAULT_TIMEOUT" ] && t=900
		run_one 1 demo "$t" "# " bash "$DIR/demo.sh"
	else
		echo "# selftests/demo.sh does not exist (yet); nothing to demo"
		echo "ok 1 demo # SKIP demo.sh not present"
	fi
	exit 0
fi

# Collect (name, command) pairs.
names=()
cmds=()
for f in "$DIR"/tests/*.sh; do
	[ -x "$f" ] || continue
	names+=("$(basename "$f" .sh)")
	cmds+=("$f")
done
for p in $C_TESTS; do
	names+=("$p")
	cmds+=("$DIR/bin/$p")
done

sel_names=()
sel_cmds=()
if [ $# -eq 0 ]; then
	# All tests, but SKIP_TESTS (from /etc/vmtest.conf: the tests
	# make check runs on one kernel only).
	for i in "${!names[@]}"; do
		if [[ " ${SKIP_TESTS:-} " == *" ${names[$i]} "* ]]; then
			echo "# ${names[$i]}: not run on this kernel (SKIP_TESTS)"
			continue
		fi
		sel_names+=("${names[$i]}")
		sel_cmds+=("${cmds[$i]}")
	done
else
	for want in "$@"; do
		want=$(basename "$want" .sh)
		found=""
		for i in "${!names[@]}"; do
			if [ "${names[$i]}" = "$want" ]; then
				found=${cmds[$i]}
				break
			fi
		done
		sel_names+=("$want")
		sel_cmds+=("${found:-}")
	done
fi

echo "1..${#sel_names[@]}"
for i in "${!sel_names[@]}"; do
	n=$((i + 1))
	name=${sel_names[$i]}
	cmd=${sel_cmds[$i]}
	echo "# selftests: $name"
	if [ -z "$cmd" ]; then
		echo "not ok $n $name # no such test"
		continue
	elif [ ! -x "$cmd" ]; then
		echo "not ok $n $name # not built"
		continue
	fi
	case "$cmd" in
	*.sh) t=$(test_timeout "$cmd") ;;
	*) t=$((DEFAULT_TIMEOUT * ${TIMEOUT_SCALE:-1})) ;;
	esac
	(cd /tmp && run_one "$n" "$name" "$t" "    " "$cmd")
done
