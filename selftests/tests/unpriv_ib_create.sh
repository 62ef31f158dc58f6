#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Users create InfiniBand groups only in MGID ranges root allowed (issue
# 27; admin guide, "Security model"): the module parameter user_create.
#  - bad values are refused and change nothing; a good one reads back
#    written one way;
#  - outside the ranges a user's hold of a group the SA does not have is
#    refused, as before; inside, uid 65534's hold creates it at the SA
#    with the default parameters, and its Delete goes with the hold;
#  - a user still gives no parameters, not even in a range;
#  - the user's holds re-create their group after an SA wipe (they are
#    its creators), and root may join it without taking it from them;
#  - taking a range away later drops no hold.
# timeout: 180
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
PARAM=/sys/module/ib_mcgroups/parameters/user_create
R=ff12:401b:ffff::/112
T=$(mktemp -d /tmp/unpriv_ib_create.XXXXXX)
chmod 777 "$T"
G=ff12:401b:ffff::5

sa_groups_of() { grep -c "^group mgid=$1 " $D/sa_db; }
sa_members_of() { grep -c "^member mgid=$1 " $D/sa_db; }
sa_has() { [ "$(sa_groups_of "$1")" = 1 ] && [ "$(sa_members_of "$1")" -ge 1 ]; }
sa_lacks() { [ "$(sa_groups_of "$1")" = 0 ]; }
state_of() { mcctl -j show "$P" "$1" 2>/dev/null | jq -r .state; }
state_is() { [ "$(state_of "$1")" = "$2" ]; }
gone() { ! mcctl show "$P" "$1" >/dev/null 2>&1; }
# refused VALUE: writing VALUE fails and the parameter keeps what it had
refused() {
	local before
	before=$(cat $PARAM)
	! echo "$1" >$PARAM 2>/dev/null && [ "$(cat $PARAM)" = "$before" ]
}

ktap_plan 24
modprobe ib_umad
check "load simhca" modprobe simhca || ktap_skip_all "no simhca"
check "load ib_mcgroups" mcg_load
defer mcg_unload_simhca
defer rm -rf "$T"

# --- the parameter -------------------------------------------------------------
check_eq "no range by default" "" "$(cat $PARAM)"
check "an entry that is not a multicast GID is refused" refused fe80::/16
check "bits set after the prefix length are refused" refused ff12::1/112
check "a prefix length out of 8..128 is refused" refused ff12::/7
check "more than 16 ranges are refused" \
	refused "$(printf 'ff12::%x,' $(seq 1 17))"
check "and the kernel log says why" \
	sh -c "dmesg | grep -q 'user_create: too many ranges'"
echo "$R, ff15::7" >$PARAM
check_eq "ranges read back one way" "$R,ff15::7/128" "$(cat $PARAM)"

# --- outside and inside a range -------------------------------------------------
out=$(run_unpriv mcctl hold "$P" ff12:401b:fffe::5 -- true 2>&1)
check_eq "outside: a group the SA does not have: exit 1" 1 $?
check "outside: refused" grep -q refused <<<"$out" || ktap_diag "$out"
check "outside: nothing at the SA" sa_lacks ff12:401b:fffe::5 ||
	ktap_diag "$(grep fffe $D/sa_db)"
"${UNPRIV[@]}" mcctl hold "$P" $G -- sh -c \
	"mcctl -j show $P $G | jq -r '\"\(.state) \(.qkey)\"' >$T/state; sleep 2" &
hold=$!
check "the SA has it while the hold lasts" wait_for -t 10 sa_has $G
wait $hold
check_eq "inside: uid 65534's hold creates $G, default Q_Key" \
	"joined $((0x01234567))" "$(cat $T/state)"
check "and its Delete goes with the hold" wait_for -t 10 sa_lacks $G
check "the group is gone" gone $G
out=$(run_unpriv mcctl hold "$P" ff12:401b:ffff::6 qkey 0x1234 -- true 2>&1)
check "inside: a user still gives no parameters (EPERM)" \
	grep -q "cannot give a group its parameters" <<<"$out"

# --- the user's holds are its creators ------------------------------------------
"${UNPRIV[@]}" mcctl hold "$P" $G -- sleep 60 &
hold=$!
check "a long hold joined" wait_for -t 10 state_is $G joined
echo 1 >$D/client_reregister
check "an SA wipe: the user's hold creates $G again" \
	wait_for -t 30 sa_has $G
check "and the group is joined again" wait_for -t 30 state_is $G joined
check "root joins it by MGID" mcctl join "$P" $G owner admin
mcctl leave "$P" $G owner admin >/dev/null
echo "" >$PARAM
check_eq "the range taken away: the user's hold stays" \
	"joined 1" "$(mcctl -j show "$P" $G | jq -r '"\(.state) \(.holder_count)"')"
out=$(run_unpriv mcctl hold "$P" ff12:401b:ffff::7 -- true 2>&1)
check_eq "and a new group there is refused" 1 $?
kill $hold
wait $hold 2>/dev/null
check "the last hold gone: the SA's group too" wait_for -t 10 sa_lacks $G
ktap_finish
