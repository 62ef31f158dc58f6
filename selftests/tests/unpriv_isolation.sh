#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# What a user without CAP_NET_ADMIN (uid 65534) can do to others: nothing.
# A LEAVE drops only the holds of its own socket, never those of the
# user's other processes; a user's hold never fixes a group's Q_Key or
# create parameters (root's join of a group only users hold takes it
# over, and a user cannot give a new group parameters); a user taking a
# lingering group back keeps root's membership and linger deadline; and
# the default linger time does not keep groups only users held.
# timeout: 180
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

P=$MCG_DEV0/1
SYS=/sys/kernel/ib_mcgroups/$MCG_DEV0/1
PARAM=/sys/module/ib_mcgroups/parameters
ME=uid:65534
TMP=/tmp/unpriv_iso.$$

holders_are() { [ "$(cat "$SYS/holders")" = "$1" ]; }
groups_are() { [ "$(cat "$SYS/groups")" = "$1" ]; }
group_holders_are() {
	[ "$(mcctl -j show "$P" "$1" | jq '.holders | length')" = "$2" ]
}
# field GROUP KEY: a key of GROUP's JSON as root sees it
field() { mcctl -j show "$P" "$1" | jq -r ".$2"; }

# refused (lib.sh) compares these counters of $SYS.
# shellcheck disable=SC2034 # read by refused()
REFUSED_COUNTERS="groups holders joins leaves"

# user_hold GROUP [ARGS...]: starts a background bound hold of uid 65534
# (its pid in $hold_pid); held: it waits until GROUP has one more holder.
user_hold() {
	local g=$1

	shift
	hold_n=$(mcctl -j show "$P" "$g" 2>/dev/null | jq '.holders | length' 2>/dev/null)
	"${UNPRIV[@]}" mcctl join "$P" "$g" owner $ME bound "$@" >>$TMP 2>&1 &
	hold_pid=$!
	defer kill -9 $hold_pid
}
held() { wait_for -t 10 group_holders_are "$1" $((${hold_n:-0} + 1)); }

ktap_plan 22
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer mcg_unload

# --- finding 5: a LEAVE drops only its own socket's holds -----------------------
user_hold 239.9.1.1
check "one process of the user holds 239.9.1.1" held 239.9.1.1
pa=$hold_pid
user_hold 239.9.1.1
check "a second process of the user holds it too" held 239.9.1.1
pb=$hold_pid
refused "a third process's LEAVE is refused: the holds are other sockets'" \
	"socket" run_unpriv mcctl leave "$P" 239.9.1.1 owner $ME
check_eq "both processes still hold it" 2 "$(field 239.9.1.1 'holders | length')"
refused "a LEAVE naming one join state is refused too" "socket" \
	run_unpriv mcctl leave "$P" 239.9.1.1 owner $ME state full
kill -9 $pa $pb
wait $pa $pb 2>/dev/null
check "their holds go with their processes" wait_for -t 10 holders_are 0

# --- finding 4: a user's hold fixes no parameters -----------------------------------
user_hold 239.9.2.1
check "the user holds 239.9.2.1 first (no Q_Key given)" held 239.9.2.1
check "root joins it with its own Q_Key" \
	mcctl join "$P" 239.9.2.1 owner job:adm qkey 0x2222
check_eq "the group has root's Q_Key" 8738 "$(field 239.9.2.1 qkey)"
check_eq "the user's hold is still there" 2 "$(field 239.9.2.1 'holders | length')"
user_hold 239.9.2.1 qkey 0x2222
check "another process of the user may repeat root's Q_Key" held 239.9.2.1
refused "the user may not give a Q_Key of its own" "Q_Key" \
	"${UNPRIV[@]}" timeout 5 mcctl join "$P" 239.9.2.1 owner $ME bound qkey 0x3333
refused "a user's Q_Key on a new group is refused" "parameters" \
	"${UNPRIV[@]}" timeout 5 mcctl join "$P" 239.9.2.2 owner $ME bound qkey 0x2222
check "root leaves" mcctl leave "$P" 239.9.2.1 owner job:adm

# A lingering group of root's, taken back by a user with another join state.
mcctl join "$P" 239.9.3.1 owner job:l linger 60s >/dev/null
mcctl leave "$P" 239.9.3.1 owner job:l >/dev/null
check_eq "root's group lingers, full" "lingering full" \
	"$(field 239.9.3.1 state) $(field 239.9.3.1 join_state)"
user_hold 239.9.3.1 state nonmember
check "the user takes it back as a non-member" held 239.9.3.1
check_eq "root's full membership is kept" "full,nonmember" \
	"$(field 239.9.3.1 join_state)"
kill -9 $hold_pid
wait $hold_pid 2>/dev/null
check "the user gone, root's group lingers again, full" wait_for -t 10 \
	sh -c "[ \"\$(mcctl -j show $P 239.9.3.1 | jq -r '\"\(.state) \(.join_state)\"')\" = 'lingering full' ]"

# --- finding 2: the default linger keeps no group only users held ------------------
echo 60000 >$PARAM/linger_ms
defer sh -c "echo 0 >$PARAM/linger_ms"
user_hold 239.9.4.1
check "a user's short-lived hold" held 239.9.4.1
kill -9 $hold_pid
wait $hold_pid 2>/dev/null
check "its group does not linger" wait_for -t 10 \
	sh -c "! mcctl show $P 239.9.4.1 >/dev/null 2>&1"
echo 0 >$PARAM/linger_ms
rm -f $TMP
ktap_finish
