#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Unprivileged holds (uid 65534, no capabilities): a bound hold of owner
# uid:65534 works and goes with its process (kill -9 included); another
# owner, a persistent hold, a linger time, a controlled Q_Key, leaving a
# hold taken with CAP_NET_ADMIN and OWNER_RELEASE are refused with a
# message and change nothing; user_max_holds caps the holds of one uid
# (0: root only); unprivileged readers never see other owners' names or
# portids. Every process of the user has a hold of its own on a group
# (one owner, several sockets), which the user's other processes cannot
# leave. Root keeps every power over the user's holds.
# timeout: 180
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

P=$MCG_DEV0/1
SYS=/sys/kernel/ib_mcgroups/$MCG_DEV0/1
PARAM=/sys/module/ib_mcgroups/parameters/user_max_holds
ME=uid:65534


holders_are() { [ "$(cat "$SYS/holders")" = "$1" ]; }
# group_holders_are GROUP N: GROUP on $P has N holders (as root sees it).
group_holders_are() {
	[ "$(mcctl -j show "$P" "$1" | jq '.holders | length')" = "$2" ]
}

# owners_of GROUP [unpriv]: the holders' owners of GROUP on $P, as root
# (or as uid 65534 with "unpriv"), sorted, space-separated.
owners_of() {
	local run=()

	[ "${2:-}" = unpriv ] && run=(run_unpriv)
	"${run[@]}" mcctl -j show "$P" "$1" |
		jq -r '[.holders[].owner] | sort | join(" ")'
}

ktap_plan 33
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer mcg_unload
check_eq "user_max_holds defaults to 64" 64 "$(cat $PARAM 2>&1)"

# --- a bound hold of the user's own -------------------------------------------
"${UNPRIV[@]}" mcctl join "$P" 239.7.7.1 owner $ME bound >/tmp/unpriv1.$$ 2>&1 &
pid=$!
defer kill -9 $pid
check "uid 65534 takes a bound hold" wait_for -t 10 igmp_has "$MCG_IF0" 239.7.7.1
check_eq "root sees it, owned by $ME" "$ME" "$(owners_of 239.7.7.1)"
check_eq "it is bound" true \
	"$(mcctl -j show "$P" 239.7.7.1 | jq -r '.holders[0].bound')"

# --- what the user may not do -------------------------------------------------
refused "another owner is refused" "owner must be uid:" \
	run_unpriv mcctl join "$P" 239.7.7.2 owner job:1 bound
refused "the default owner is refused" "owner must be uid:" \
	run_unpriv mcctl join "$P" 239.7.7.2 bound
refused "a persistent (unbound) hold is refused" "bound" \
	run_unpriv mcctl join "$P" 239.7.7.2 owner $ME
refused "a linger time is refused" "linger" \
	run_unpriv mcctl join "$P" 239.7.7.2 owner $ME bound linger 10s
refused "a controlled Q_Key (high bit) is refused" "Q_Key" \
	run_unpriv mcctl join "$P" 239.7.7.2 owner $ME bound qkey 0x80000001

check "root holds 239.7.7.3 as job:root and as $ME (persistent)" \
	sh -c "mcctl join $P 239.7.7.3 owner job:root >/dev/null &&
	       mcctl join $P 239.7.7.3 owner $ME >/dev/null"
refused "leaving root's owner is refused" "owner must be uid:" \
	run_unpriv mcctl leave "$P" 239.7.7.3 owner job:root
refused "leaving a hold taken with CAP_NET_ADMIN is refused" "CAP_NET_ADMIN" \
	run_unpriv mcctl leave "$P" 239.7.7.3 owner $ME
refused "OWNER_RELEASE is refused" "CAP_NET_ADMIN" \
	run_unpriv mcctl leave owner $ME all
check_eq "root's holds are all there" "job:root $ME" "$(owners_of 239.7.7.3)"

# --- what the user sees ---------------------------------------------------------
mcctl join "$P" 239.7.7.1 owner job:secret bound >/tmp/unpriv2.$$ 2>&1 &
rpid=$!
defer kill $rpid
check "root holds the user's group too, bound" \
	wait_for -t 10 sh -c "[ \"\$(cat $SYS/holders)\" = 4 ]"
check_eq "the user sees only its own hold" "$ME" "$(owners_of 239.7.7.1 unpriv)"
out=$(run_unpriv mcctl -j list 2>&1)
if [[ $out != *job:secret* && $out != *job:root* ]] &&
   [ "$(jq '[.[].holders[] | select(has("portid") and .owner != "'$ME'")] | length' <<<"$out")" = 0 ]; then
	ktap_ok "no other owner's name or portid in the user's list"
else
	ktap_fail "no other owner's name or portid in the user's list"
	ktap_diag "$out"
fi
check_eq "the others are counted: the user sees holder_count 2" 2 \
	"$(run_unpriv mcctl -j show "$P" 239.7.7.1 | jq '.holder_count')"
check_eq "root sees every owner" "job:secret $ME" "$(owners_of 239.7.7.1)"
kill $rpid
wait $rpid 2>/dev/null

# --- user_max_holds -------------------------------------------------------------
echo 1 >$PARAM
refused "user_max_holds 1: a second hold is refused" "user_max_holds" \
	run_unpriv mcctl join "$P" 239.7.7.4 owner $ME bound
echo 0 >$PARAM
refused "user_max_holds 0: unprivileged holds are off" "user_max_holds" \
	run_unpriv mcctl join "$P" 239.7.7.4 owner $ME bound
check "user_max_holds 0 does not cap root" mcctl join "$P" 239.7.7.5 owner uid:0
echo 64 >$PARAM
check "root leaves it" mcctl leave "$P" 239.7.7.5 owner uid:0

# --- release -----------------------------------------------------------------------
kill -9 $pid
wait $pid 2>/dev/null
check "kill -9 of the holder releases its hold" \
	wait_for -t 10 sh -c "! mcctl show $P 239.7.7.1 >/dev/null 2>&1"
check_eq "and its IGMP membership" 0 "$(igmp_count "$MCG_IF0" 239.7.7.1)"

"${UNPRIV[@]}" mcctl join "$P" 239.7.7.6 owner $ME bound >/tmp/unpriv1.$$ 2>&1 &
pid=$!
defer kill -9 $pid
wait_for -t 10 igmp_has "$MCG_IF0" 239.7.7.6
"${UNPRIV[@]}" mcctl join "$P" 239.7.7.6 owner $ME bound >/tmp/unpriv3.$$ 2>&1 &
pid3=$!
defer kill -9 $pid3
check "a second process of the user holds the same group too" \
	wait_for -t 10 group_holders_are 239.7.7.6 2
kill -9 $pid3
wait $pid3 2>/dev/null
check "killing it leaves the first process's hold" \
	wait_for -t 10 group_holders_are 239.7.7.6 1
refused "another process of the same uid may not leave the user's bound hold" \
	"own socket" run_unpriv mcctl leave "$P" 239.7.7.6 owner $ME
kill -9 $pid
wait $pid 2>/dev/null
wait_for -t 10 sh -c "! mcctl show $P 239.7.7.6 >/dev/null 2>&1"
"${UNPRIV[@]}" mcctl join "$P" 239.7.7.6 owner $ME bound >/tmp/unpriv1.$$ 2>&1 &
pid2=$!
defer kill -9 $pid2
wait_for -t 10 igmp_has "$MCG_IF0" 239.7.7.6
check "root may leave the user's hold" mcctl leave "$P" 239.7.7.6 owner $ME
check "root releases the rest" mcctl leave owner job:root all
mcctl leave "$P" 239.7.7.3 owner $ME >/dev/null
kill -9 $pid $pid2 2>/dev/null
wait $pid $pid2 2>/dev/null
check "nothing is left" wait_for -t 10 holders_are 0
rm -f /tmp/unpriv1.$$ /tmp/unpriv2.$$ /tmp/unpriv3.$$
ktap_finish
