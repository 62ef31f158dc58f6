#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# "mcctl -batch FILE": a prolog's thousands of joins in one process on one
# socket. N joins then N leaves give the right state; an error names its
# FILE:LINE and stops the batch (nothing after it runs), -force goes on
# and exits non-zero; "-batch -" reads stdin.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

SYS0=/sys/kernel/ib_mcgroups/$MCG_DEV0/1
N=200
B=$(mktemp -d /tmp/mcctl-batch.XXXXXX)
defer rm -rf "$B"

ktap_plan 12
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer mcg_unload

{
	echo "# $N joins of job:7"
	for i in $(seq 1 $N); do
		echo "join $MCG_DEV0/1 239.20.$((i / 256)).$((i % 256)) owner job:7"
		[ $((i % 50)) = 0 ] && echo
	done
} >"$B/join"
sed 's/^join /leave /' "$B/join" >"$B/leave"

check "$N joins in one batch" mcctl -batch "$B/join"
check_eq "$N groups and holds" "$N $N" "$(cat $SYS0/groups) $(cat $SYS0/holders)"
check "$N leaves in one batch" mcctl -batch "$B/leave"
check_eq "nothing left" "0 0" "$(cat $SYS0/groups) $(cat $SYS0/holders)"

# Line 3 is an error the kernel reports (a port that does not exist); line
# 4 would join.
printf 'join %s/1 239.21.0.1\n\njoin %s/9 239.21.0.2\njoin %s/1 239.21.0.3\n' \
	"$MCG_DEV0" "$MCG_DEV0" "$MCG_DEV0" >"$B/bad"
err=$(mcctl -batch "$B/bad" 2>&1 >/dev/null); rc=$?
check_eq "the error's exit status" 1 "$rc"
check "it names $B/bad:3" grep -q "^$B/bad:3: mcctl: " <<<"$err"
check_eq "stopped there: line 1 joined, line 4 did not" 1 "$(cat $SYS0/groups)"
mcctl -batch "$B/bad" -force >/dev/null 2>&1; rc=$?
check_eq "-force: exit 1, line 4 joined too" "1 2" "$rc $(cat $SYS0/groups)"

printf 'leave %s/1 239.21.0.1\nleave %s/1 239.21.0.3\n' "$MCG_DEV0" "$MCG_DEV0" |
	mcctl -batch - >/dev/null
check_eq "-batch - reads stdin: both left" "0 0" "$(cat $SYS0/groups) $(cat $SYS0/holders)"
err=$(printf 'list\nhold %s/1 239.21.0.9 -- true\n' "$MCG_DEV0" | mcctl -batch - 2>&1 >/dev/null)
check "hold is refused with its line" grep -q "^-:2: mcctl: hold runs until stopped" <<<"$err"
ktap_finish
