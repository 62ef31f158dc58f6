#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# libibmcg's held join is one send and one receive, with no events
# socket: counted with strace as the difference between 10 and 30
# join+leave rounds of a second owner on a held RoCE group. A join that
# waits (a fresh InfiniBand group on simhca, JOINING in the reply) still
# reports the outcome: joined, or the SA's refusal; also when the caller
# does not want the group and gets the brief reply (mcg_bulk).
# timeout: 300
. "$(dirname "$0")/../lib.sh"

mcg_require_module
command -v strace >/dev/null || ktap_skip_all "no strace"
command -v mcg_bench >/dev/null || ktap_skip_all "mcg_bench not built"
G=::ffff:239.5.0.1

# calls SYSCALL ROUNDS: SYSCALL's count in "mcg_bench heldjoin" of ROUNDS
calls() {
	strace -f -c -o /tmp/jf.strace mcg_bench heldjoin $MCG_DEV0 1 $G "$2" \
		>/dev/null || return 1
	awk -v s="$1" '$NF == s {print $4}' /tmp/jf.strace |
		head -n1 | sed 's/^$/0/'
}
per_request() {
	local a b

	a=$(calls "$1" 10) || return 1
	b=$(calls "$1" 30) || return 1
	echo $(((${b:-0} - ${a:-0}) / 40))
}

ktap_plan 13
check "set up soft-RoCE" mcg_setup_rxe
check "load ib_mcgroups" mcg_load
defer mcg_unload_simhca
check_eq "a held join or leave: one recvmsg" 1 "$(per_request recvmsg)"
check_eq "and one sendto" 1 "$(per_request sendto)"
check_eq "no socket of its own (no events subscription)" 0 "$(per_request socket)"

if modinfo simhca >/dev/null 2>&1 && modprobe ib_umad && modprobe simhca; then
	out=$(mcctl join simhca0/1 ff12:401b:ffff::9 owner job:1 create 2>&1)
	check "a fresh IB group (JOINING in the reply) is reported joined" \
		grep -q "joined" <<<"$out"
	out=$(mcctl join simhca0/1 ff12:401b:ffff::a owner job:1 2>&1)
	check "a join the SA rejects reports the SA's refusal" \
		grep -q "SA rejected" <<<"$out"
	check_eq "and holds nothing" 0 "$(mcctl -j list simhca0/1 | jq '[.[] | select(.mgid == "ff12:401b:ffff::a")] | length')"
	out=$(mcctl join simhca0/1 ff12:401b:ffff::9 owner job:2 2>&1)
	check "a second owner of the IB group: joined at once" \
		grep -q "joined" <<<"$out"
	# The library subscribes only after a JOINING reply; strace delays
	# its events socket (every socket() after the first) by 0.5 s, so
	# that the SA's answer comes before it listens: the outcome must
	# still be reported, with the SA's own reason.
	# shellcheck disable=SC2054 # commas within strace's option values
	late=(strace -f -o /tmp/jf.late -e trace=socket,sendto
	      -e inject=socket:delay_enter=500000:when=2+)
	out=$("${late[@]}" mcctl join simhca0/1 ff12:401b:ffff::b owner job:1 create 2>&1)
	check "subscribed late: a fresh IB group is reported joined" \
		grep -q "joined" <<<"$out"
	out=$("${late[@]}" mcctl join simhca0/1 ff12:401b:ffff::c owner job:1 2>&1)
	check "subscribed late: the SA's refusal is reported with its reason" \
		grep -q "SA rejected" <<<"$out"
	ktap_diag "requests sent for the refused join: $(grep -c '^[0-9]* *sendto' /tmp/jf.late)"
	check_eq "and holds nothing" 0 "$(mcctl -j list simhca0/1 | jq '[.[] | select(.mgid == "ff12:401b:ffff::c")] | length')"
	# A caller that does not want the group (mcg_bulk: out == NULL) gets
	# the brief reply; the wait for a JOINING group works from it too.
	check "brief reply: a fresh IB group is joined" sh -c \
		"mcg_bulk join simhca0 1 1 job:3 0xd >/dev/null &&
		 [ \"\$(mcctl -j show simhca0/1 ff12:401b:ffff::d | jq -r .state)\" = joined ]"
else
	for i in 1 2 3 4 5 6 7 8; do ktap_skip "IB case $i" "simhca not available"; done
fi
ktap_finish
