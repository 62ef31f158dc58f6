#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# mcctl hold GROUP -- COMMAND, as uid 65534: the group is held (bound,
# owner uid:65534) while COMMAND runs and gone after; COMMAND gets no
# netlink socket of the hold; mcctl exits with COMMAND's status (128 +
# the signal that killed it), forwards SIGTERM to it, and runs nothing
# when the join is refused. A declared group (GROUPNAME) works the same.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

P=$MCG_DEV0/1
ME=uid:65534
D=$(mktemp -d /tmp/mcctl_hold.XXXXXX)
chmod 777 "$D"
defer rm -rf "$D"
CONF=$D/ib_mcgroups.conf
# A pool's linger time is the administrator's: hold does not ask for it
# (a user may not).
printf 'pool coll0 %s 239.9.9.5 linger 5s\n' "$P" >"$CONF"
chmod 644 "$CONF"

# A COMMAND that says it runs (and lists its fds), waits for $D/go, and
# exits with status $1.
WAITER='ls -l /proc/$$/fd/ >'$D'/fds; touch '$D'/started; while [ ! -e '$D'/go ]; do sleep 0.1; done; exit $0'

owners_of() {
	mcctl -j show "$P" "$1" 2>/dev/null | jq -r '[.holders[] | "\(.owner):\(.bound)"] | join(" ")'
}

ktap_plan 20
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer mcg_unload

"${UNPRIV[@]}" mcctl hold "$P" 239.9.9.1 -- sh -c "$WAITER" 7 &
pid=$!
defer kill -9 $pid
check "uid 65534: COMMAND runs" wait_for -t 20 test -e "$D/started"
check_eq "the group is held while it runs, bound, by $ME" "$ME:true" \
	"$(owners_of 239.9.9.1)"
check "COMMAND has its fds but no socket of the hold" \
	sh -c "grep -q -- '->' $D/fds && ! grep -q socket $D/fds"
touch "$D/go"
wait $pid
check_eq "mcctl exits with COMMAND's status" 7 $?
check "the group is gone after" sh -c "! mcctl show $P 239.9.9.1 >/dev/null 2>&1"
rm -f "$D/go" "$D/started"

run_unpriv mcctl hold "$P" 239.9.9.1 -- sh -c 'kill -KILL $$'
check_eq "COMMAND killed by SIGKILL: 128 + 9" 137 $?

"${UNPRIV[@]}" mcctl hold "$P" 239.9.9.2 -- \
	sh -c "trap 'exit 42' TERM; $WAITER" 0 &
pid=$!
wait_for -t 20 test -e "$D/started"
kill -TERM $pid
wait $pid
check_eq "SIGTERM is forwarded to COMMAND (it exits 42 on it)" 42 $?
check "and the group is gone" sh -c "! mcctl show $P 239.9.9.2 >/dev/null 2>&1"
rm -f "$D/started"

out=$(run_unpriv mcctl hold "$P" 239.9.9.3 owner job:x -- touch "$D/ran" 2>&1)
rc=$?
check_eq "a refused join: exit 1" 1 $rc
check "with the kernel's message, and COMMAND did not run" \
	sh -c "[ ! -e $D/ran ] && echo '$out' | grep -q 'owner must be uid:'"
run_unpriv mcctl hold "$P" 239.9.9.3 -- /nonexistent/app 2>/dev/null
check_eq "a COMMAND that does not exist: 127" 127 $?

"${UNPRIV[@]}" mcctl -c "$CONF" hold coll0 -- sh -c "$WAITER" 0 &
pid=$!
wait_for -t 20 test -e "$D/started"
check_eq "a declared group by name, held while COMMAND runs" "$ME:true" \
	"$(owners_of 239.9.9.5)"
touch "$D/go"
wait $pid
check_eq "exit 0" 0 $?
check "nothing is held after" wait_for -t 10 sh -c \
	"[ \$(cat /sys/kernel/ib_mcgroups/$MCG_DEV0/1/holders) = 0 ]"

# --- InfiniBand: COMMAND starts once the SA has answered ------------------------
# A user may not listen to the events group; the library looks at the
# group until the SA's answer (500 ms late here) instead. A user cannot
# create a group at the SA (admin guide, "Security model"): root creates
# it from port 2, the user's hold joins it from port 1.
if ! modinfo simhca >/dev/null 2>&1; then
	for _ in 1 2 3 4; do ktap_skip "InfiniBand" "simhca.ko not built"; done
	ktap_finish
fi
mcg_unload
mcg_require_simhca
modprobe simhca nports=2 && modprobe ib_mcgroups
defer mcg_unload_simhca
check "IB: root creates the group from port 2" \
	mcctl join simhca0/2 ff12:401b:ffff::71 owner admin create
echo 500 >$D/delay_ms
state=$(run_unpriv mcctl hold $P ff12:401b:ffff::71 -- \
	sh -c "mcctl -j show $P ff12:401b:ffff::71 | jq -r .state")
check_eq "IB: COMMAND sees the group joined" joined "$state"
out=$(run_unpriv mcctl hold $P ff12:401b:ffff::72 -- true 2>&1)
check_eq "IB: a group the SA does not have: exit 1" 1 $?
check "with a message" grep -q "refused" <<<"$out" ||
	ktap_diag "$out"
ktap_finish
