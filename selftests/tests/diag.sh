#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# mcctl diag: on soft-RoCE a healthy group passes every check (IGMP and
# MLD included) and a group not held fails the hold check; on simhca a
# healthy InfiniBand group passes with the SA's record, and each injected
# fault fails its own check: P_Key removed from the port's table, the SA
# record deleted behind the module's back, the port's membership deleted
# while another port keeps the group, the port down. -j is parsed
# with jq; a failed check exits 3, diag that cannot run 1, usage errors 2.
# timeout: 240
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl
command -v jq >/dev/null || ktap_skip_all "jq not installed"

R=$MCG_DEV0/1
D=/sys/kernel/debug/simhca/simhca0
I=simhca0/1
G=ff12:401b:ffff::1
GP=ff12:401b:8001::1

# result GROUP DEV/PORT CHECK: PASS, WARN, SKIP or FAIL of one check
result() {
	mcctl -j diag "$1" "$2" |
		jq -r --arg c "$3" '.[0].checks[] | select(.check == $c) | .result'
}
# fix GROUP DEV/PORT CHECK
fix_of() {
	mcctl -j diag "$1" "$2" |
		jq -r --arg c "$3" '.[0].checks[] | select(.check == $c) | .fix // ""'
}
# rc CMD...: the exit status
rc() { "$@" >/dev/null 2>&1; echo $?; }
# every check of the first port passes
all_pass() {
	mcctl -j diag "$1" "$2" | jq -e '.[0].checks | all(.result == "PASS")'
}
state_of() { mcctl -j show "$1" "$2" | jq -r .state; }

unload() {
	mcg_unload
	[ -d /sys/module/simhca ] && rmmod simhca
	mcg_teardown_rxe
	return 0
}

ktap_plan 40
defer unload

# --- usage ---------------------------------------------------------------------
check_eq "diag without a group: usage error" 2 "$(rc mcctl diag)"
check_eq "a unicast address is no group" 2 "$(rc mcctl diag 10.1.1.1)"
check_eq "an extra argument" 2 "$(rc mcctl diag 239.1.1.1 $R extra)"
check_eq "no such port: diag cannot run, exit 1" 1 \
	"$(rc mcctl diag 239.1.1.1 nosuch0/1)"

# --- soft-RoCE -----------------------------------------------------------------
if mcg_setup_rxe && mcg_load; then
	ktap_ok "soft-RoCE and ib_mcgroups"
	mcctl join $R 239.1.1.1 owner diag >/dev/null
	out=$(mcctl diag 239.1.1.1 $R)
	check_eq "healthy group: exit 0" 0 $?
	ktap_diag "$out"
	check "every check passes, IGMP included" all_pass 239.1.1.1 $R
	check_eq "the checks of a RoCE port" "port hold params mcast_table igmp" \
		"$(mcctl -j diag 239.1.1.1 $R | jq -r '[.[0].checks[].check] | join(" ")')"
	check_eq "without DEV/PORT: the one port holding it" "1 rxe0 1 PASS" \
		"$(mcctl -j diag 239.1.1.1 | jq -r '"\(length) \(.[0].dev) \(.[0].port) \(.[0].result)"')"
	check_eq "unprivileged: the same" 0 "$(rc run_unpriv mcctl diag 239.1.1.1 $R)"

	mcctl join $R ff0e::1234 owner diag >/dev/null
	check "an IPv6 group: the MLD check passes" \
		sh -c "mcctl diag ff0e::1234 $R | grep -q '^  PASS mld '"

	out=$(mcctl diag 239.1.1.9 $R)
	check_eq "a group not held: a check fails, exit 3" 3 $?
	ktap_diag "$out"
	check_eq "hold fails" FAIL "$(result 239.1.1.9 $R hold)"
	check "with the fix: mcctl join" grep -q "mcctl join $R 239.1.1.9" \
		<<<"$(fix_of 239.1.1.9 $R hold)"
	check_eq "and no IGMP membership" FAIL "$(result 239.1.1.9 $R igmp)"
	check_eq "without DEV/PORT: every port" 2 \
		"$(mcctl -j diag 239.1.1.9 | jq length)"
	mcctl leave $R 239.1.1.1 owner diag >/dev/null
	mcctl leave $R ff0e::1234 owner diag >/dev/null
	mcg_unload
	mcg_teardown_rxe
else
	ktap_fail "soft-RoCE and ib_mcgroups"
	for i in $(seq 11); do ktap_skip "soft-RoCE" "no setup"; done
fi

# --- simhca ----------------------------------------------------------------------
if ! modinfo simhca >/dev/null 2>&1; then
	for _ in $(seq 24); do ktap_skip "simhca" "simhca.ko not built"; done
	ktap_finish
fi
modprobe ib_umad
check "load simhca (two ports) and ib_mcgroups" sh -c "modprobe simhca nports=2 &&
	modprobe ib_mcgroups settle_ms=300 backoff_base_ms=200"

mcctl join $I $G owner diag create >/dev/null
out=$(mcctl diag $G $I)
check_eq "healthy InfiniBand group: exit 0" 0 $?
ktap_diag "$out"
check "every check passes or is skipped" \
	sh -c "mcctl -j diag $G $I | jq -e '.[0].checks | all(.result == \"PASS\" or .result == \"SKIP\")'"
check_eq "the SA has the port's record, JoinState full" "PASS" \
	"$(result $G $I sa_record)"
check "and says so" grep -q "member, JoinState full, MLID 0xc" \
	<<<"$(mcctl -j diag $G $I | jq -r '.[0].checks[] | select(.check == "sa_record") | .detail')"
check_eq "sm, pkey and params pass" "PASS PASS PASS" \
	"$(result $G $I sm) $(result $G $I pkey) $(result $G $I params)"
out=$(run_unpriv mcctl -j diag $G $I)
check_eq "unprivileged: exit 0, the SA check skipped for the umad device" \
	"0 SKIP" "$? $(jq -r '.[0].checks[] | select(.check == "sa_record") | .result' <<<"$out")"
ktap_diag "$(jq -r '.[0].checks[] | select(.check == "sa_record") | .detail' <<<"$out")"

# P_Key 0x8001 in the table, a group in it; then the P_Key goes away.
echo "1 0x8001" >$D/port1/pkeys
mcctl join $I $GP owner diag create pkey 0x8001 >/dev/null
check_eq "a group of partition 0x8001: exit 0" 0 "$(rc mcctl diag $GP $I)"
echo "1 0" >$D/port1/pkeys
wait_for -t 10 sh -c "[ \"\$(mcctl -j show $I $GP | jq -r .state)\" != joined ]"
out=$(mcctl diag $GP $I)
check_eq "P_Key removed from the port: a check fails, exit 3" 3 $?
ktap_diag "$out"
check_eq "the pkey check fails" FAIL "$(result $GP $I pkey)"
check "naming the P_Key, with the fix" sh -c \
	"mcctl -j diag $GP $I | jq -e '.[0].checks[] | select(.check == \"pkey\") |
		(.detail | test(\"0x8001\")) and (.fix | test(\"partition\"))'"
check_eq "the hold waits for it" FAIL "$(result $GP $I hold)"
echo "1 0x8001" >$D/port1/pkeys
check "P_Key back: joined again" wait_for -t 20 \
	sh -c "[ \"\$(mcctl -j show $I $GP | jq -r .state)\" = joined ]"
mcctl leave $I $GP owner diag >/dev/null

# The SA loses the group behind the module's back.
check "sa_mcm deletes the port's membership in the SA" \
	sa_mcm -d simhca0 -p 1 delete mgid=$G port_gid=self join=1
check "the SA has no group $G any more" \
	sh -c "! grep -q '^group mgid=$G ' $D/sa_db"
out=$(mcctl diag $G $I)
check_eq "SA record missing: a check fails, exit 3" 3 $?
ktap_diag "$out"
check_eq "the sa_record check fails" FAIL "$(result $G $I sa_record)"
check_eq "while the hold still looks joined" "PASS joined" \
	"$(result $G $I hold) $(state_of $I $G)"

# Port 2 keeps the group in the SA, port 1's membership goes.
G2=ff12:401b:ffff::2
mcctl join simhca0/2 $G2 owner diag create >/dev/null
mcctl join $I $G2 owner diag >/dev/null
check "sa_mcm deletes port 1's membership of a group port 2 keeps" \
	sa_mcm -d simhca0 -p 1 delete mgid=$G2 port_gid=self join=1
out=$(mcctl diag $G2)
check_eq "not a member: a check fails, exit 3" 3 $?
ktap_diag "$out"
check_eq "without DEV/PORT: both ports, port 1 fails, port 2 passes" \
	"simhca0/1 FAIL simhca0/2 PASS" \
	"$(mcctl -j diag $G2 | jq -r 'sort_by(.port) | map("\(.dev)/\(.port) \(.result)") | join(" ")')"
check "port 1: the group exists but the port is no member" sh -c \
	"mcctl -j diag $G2 $I | jq -e '.[0].checks[] | select(.check == \"sa_record\") |
		.result == \"FAIL\" and (.detail | test(\"not a member\"))'"
mcctl leave $I $G2 owner diag >/dev/null 2>&1
mcctl leave simhca0/2 $G2 owner diag >/dev/null

# The port goes down.
echo down >$D/port1/state
wait_for -t 10 sh -c "[ \"\$(cat /sys/class/infiniband/simhca0/ports/1/state)\" != '4: ACTIVE' ]"
out=$(mcctl diag $G $I)
check_eq "port down: a check fails, exit 3" 3 $?
ktap_diag "$out"
check_eq "the port check fails, the SA check is skipped" "FAIL SKIP" \
	"$(result $G $I port) $(result $G $I sa_record)"
echo up >$D/port1/state
mcctl leave $I $G owner diag >/dev/null
ktap_finish
