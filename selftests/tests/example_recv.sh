#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# examples/ibmcg_recv, the libibmcg application: it holds a group bound,
# prints the member record, attaches a UD QP with ibv_attach_mcast() and
# prints the datagrams rxe0 sends to the group from another QP; its hold
# ends with it. Once by DEV/PORT and MGID, once by the name of a pool of
# an ib_mcgroups.conf. As uid 65534 when the module lets unprivileged
# processes hold groups (parameter user_max_holds), else as root.
# timeout: 180
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl
command -v ibmcg_recv >/dev/null || ktap_skip_all "examples/ibmcg_recv not built"

COUNT=5
LOG=/tmp/example_recv.$$
CONF=/tmp/example_recv.conf.$$

# run_example MGID ARGS...: ibmcg_recv ARGS while rxe0 sends COUNT
# datagrams to MGID with the record's Q_Key; its exit status.
run_example() {
	local mgid=$1 pid rc qkey
	shift

	"${AS[@]}" ibmcg_recv -n "$COUNT" -t 60000 "$@" >"$LOG.out" 2>"$LOG.err" &
	pid=$!
	if ! wait_for -t 20 grep -q listening "$LOG.err"; then
		kill "$pid" 2>/dev/null
		wait "$pid"
		return 1
	fi
	# (run_example runs in check's subshell: the count goes to a file)
	mcctl -j list | jq -r '[.[] | .holders[]? | select(.bound == true)] | length' \
		>"$LOG.held"
	qkey=$(sed -n 's/.* qkey \(0x[0-9a-f]*\).*/\1/p' "$LOG.out")
	mcast_ud send -d "$MCG_DEV0" -g "$mgid" -c "$COUNT" -q "${qkey:-0}" >&2
	# all COUNT arrive in microseconds; the example exits when it has them
	wait "$pid"
	rc=$?
	sed 's/^/  example: /' "$LOG.out" "$LOG.err" >&2
	return $rc
}

ktap_plan 15
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer mcg_unload
defer rm -f "$LOG.out" "$LOG.err" "$LOG.held" "$CONF"

if [ -e /sys/module/ib_mcgroups/parameters/user_max_holds ]; then
	AS=(run_unpriv)
	ktap_diag "running the example as uid 65534"
else
	AS=()
	ktap_diag "running the example as root: this ib_mcgroups has no user_max_holds parameter (no unprivileged holds)"
fi

# --- by DEV/PORT and MGID (IPv4) ---
check "ibmcg_recv $MCG_DEV1/1 239.5.5.5 receives $COUNT datagrams" \
	run_example ::ffff:239.5.5.5 "$MCG_DEV1/1" 239.5.5.5
check_eq "while it ran it held the group, bound" 1 "$(cat "$LOG.held")"
rec=$(grep '^record ' "$LOG.out")
ktap_diag "$rec"
check "its member record: the MGID, joined, the default Q_Key, P_Key" \
	grep -q "mgid 239.5.5.5 state joined .*qkey 0x01234567 pkey 0xffff" <<<"$rec"
check_eq "$COUNT datagrams printed" "$COUNT" "$(grep -c '^datagram ' "$LOG.out")"
check "each carries the sender's payload (\"mcud\")" \
	sh -c "! grep '^datagram ' '$LOG.out' | grep -v ': 6d 63 75 64 '"
check_eq "it says received $COUNT" "received $COUNT" "$(grep '^received' "$LOG.out")"
check "its bound hold ended with it: the group is released" \
	wait_for -t 10 sh -c "[ \"\$(mcctl -j list | jq length)\" = 0 ]"

# --- by name, from a configuration (IPv6) ---
printf 'pool ex0 %s/1 ff0e::5555\n' "$MCG_DEV1" >"$CONF"
chmod 0644 "$CONF"
check "ibmcg_recv -c CONF ex0 (a pool) receives $COUNT datagrams" \
	run_example ff0e::5555 -c "$CONF" ex0
check "the record names the pool's group on $MCG_DEV1/1" \
	grep -q "^record dev $MCG_DEV1 port 1 mgid ff0e::5555 state joined" "$LOG.out"
check_eq "received $COUNT" "received $COUNT" "$(grep '^received' "$LOG.out")"
check "released after it" \
	wait_for -t 10 sh -c "[ \"\$(mcctl -j list | jq length)\" = 0 ]"

# --- a name the file does not declare ---
check_fail "an unknown name fails" "${AS[@]}" ibmcg_recv -c "$CONF" nosuch
check "with a message naming it" grep -q "no group or pool 'nosuch'" \
	<("${AS[@]}" ibmcg_recv -c "$CONF" nosuch 2>&1)
ktap_finish
