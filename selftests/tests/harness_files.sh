#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The files tests save come back to the host whole, also when init, while
# it sends them on ttyS1, takes signals: a process left behind sends it
# SIGCHLD without pause once the tests are over. The host checks each
# file's MD5 sum (run.sh, "arrived whole").
#
# (A signal to init once cut short its wait for the buffer to drain when it
# closed ttyS1, and the kernel dropped what was left: a CI run lost part of
# metrics-roce.prom so.)
# timeout: 60
. "$(dirname "$0")/../lib.sh"

ktap_plan 3

# The runner: this test's parent is timeout(1), whose parent is the runner.
runner=$(awk '{ print $4 }' "/proc/$PPID/stat")
check "found the runner ($runner)" grep -q runner.sh "/proc/$runner/cmdline"

# 256 small files, lines the host can tell apart if a piece is missing:
# each file's begin and end lines are chances for a signal to cut
# (written here, not with save_output, whose cat would be a process each)
mkdir -p /selftests/out
for n in $(seq -w 256); do
	printf 'file %s line 1\nfile %s line 2\n' "$n" "$n" \
		>"/selftests/out/harness-files-$n.txt"
done
check_eq "saved 256 files" 256 \
	"$(cat /selftests/out/harness-files-*.txt | grep -c ' line 2$')"

# Out of the runner's reach (its own session): within 50 ms of the
# runner's end, SIGCHLD to init for 30 s, while init sends the results
# (it looks with lib.sh's nap, without a process per look).
setsid bash -c "$(declare -f nap)"'
	while [ -d "/proc/$1" ]; do nap 0.05; done
	end=$((SECONDS + 30))
	while [ $SECONDS -lt $end ]; do kill -CHLD 1; done' harness_files "$runner" \
	</dev/null >/dev/null 2>&1 &
check "left a process that signals init" kill -0 $!
ktap_finish
