#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# mcctl list owner NAME / state GROUPSTATE (with DEV[/PORT], text and
# JSON) against the module's groups, a bad state refused with the valid
# ones named; mcctl monitor -t puts the time an event was received before
# it (JSON: "timestamp").
# timeout: 120
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

R0=$MCG_DEV0/1
R1=$MCG_DEV1/1
MON=$(mktemp /tmp/monitor.XXXXXX)
cleanup() {
	[ -n "${mon_pid:-}" ] && kill "$mon_pid" 2>/dev/null
	rm -f "$MON"
	mcg_unload
}
# groups LIST-ARGS...: "DEV/PORT GROUP" of each group mcctl -j list shows
groups() { mcctl -j list "$@" | jq -r '.[] | "\(.dev)/\(.port) \(.group)"' | sort | xargs; }
lines_in() { [ "$(grep -c . "$MON")" -ge "$1" ]; }
TS='[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[.][0-9]{6}[+-][0-9]{2}:[0-9]{2}'

ktap_plan 18
check "set up rxe0/rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer cleanup

check "a holds 239.2.0.1 on both ports and 239.2.0.2; b holds 239.2.0.1" sh -c "
	mcctl join $R0 239.2.0.1 owner a && mcctl join $R1 239.2.0.1 owner a &&
	mcctl join $R0 239.2.0.2 owner a && mcctl join $R0 239.2.0.1 owner b"
check "c leaves 239.2.0.3 lingering (60 s)" sh -c "
	mcctl join $R0 239.2.0.3 owner c linger 60s && mcctl leave $R0 239.2.0.3 owner c"

check_eq "list owner a: a's three groups" "$R0 239.2.0.1 $R0 239.2.0.2 $R1 239.2.0.1" \
	"$(groups owner a)"
check_eq "list owner b: one" "$R0 239.2.0.1" "$(groups owner b)"
check_eq "list $R1 owner a: on that port only" "$R1 239.2.0.1" "$(groups $R1 owner a)"
check_eq "list owner nobody: none (JSON [])" "[]" "$(mcctl -j list owner nobody)"
check_eq "list state lingering: c's group, which has no holder left" "$R0 239.2.0.3" \
	"$(groups state lingering)"
check_eq "list state joined owner a: as list owner a" "$(groups owner a)" \
	"$(groups state joined owner a)"
check_eq "list state joining: none" "" "$(groups state joining)"
check_eq "text output: the same group lines as list" \
	"$(mcctl list | grep -F '239.2.0.2')" "$(mcctl list owner a state joined | grep -F '239.2.0.2')"
err=$(mcctl list state full 2>&1)
check_eq "list state full (a join state): usage error" 2 $?
check_eq "naming the group states" \
	"mcctl: invalid group state 'full': expected joining, joined, retry-wait, detached or lingering" "$err"

# monitor -t
before=$(date +%Y-%m-%dT%H:%M:%S)
mcctl monitor -t >"$MON" &
mon_pid=$!
wait_for -t 10 sh -c "mcctl join $R0 239.2.0.9 owner m && mcctl leave $R0 239.2.0.9 owner m; grep -q group-del $MON"
check "monitor -t: every line starts with the time, then the event" \
	sh -c "grep -Ev '^\\[$TS\\] \\[(group|holder)-(new|del|state)\\] ' $MON; [ \$? = 1 ] && grep -q . $MON"
ktap_diag "$(head -n 2 "$MON")"
first=$(head -n 1 "$MON" | cut -c2-20)
check "the time is not before the join (${first} >= ${before})" \
	test ! "$first" \< "$before"
kill "$mon_pid"
wait "$mon_pid" 2>/dev/null
: >"$MON"
mcctl -j monitor --timestamp >"$MON" &
mon_pid=$!
wait_for -t 10 sh -c "mcctl join $R0 239.2.0.9 owner m && mcctl leave $R0 239.2.0.9 owner m; grep -q group-del $MON"
check "monitor -j --timestamp: a \"timestamp\" in every event" \
	sh -c "jq -e 'select(.timestamp | test(\"^$TS\$\") | not)' $MON >/dev/null; [ \$? = 4 ] && grep -q . $MON"
check_eq "monitor -x: unknown parameter" 2 "$(mcctl monitor -x 2>/dev/null; echo $?)"
ktap_finish
