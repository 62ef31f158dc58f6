#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The InfiniBand backend against the simulated SA: create, join, the
# union of join states in one SA membership, SA-assigned MGIDs, local
# P_Key refusal, SA refusal, a timed-out join that is retried, and a
# client reregister that wipes the SA: every group comes back.
# timeout: 180
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
PARAM=/sys/module/ib_mcgroups/parameters
G=ff12:401b:ffff::1

# joinstate MGID: the JoinState the SA holds for our port on MGID
joinstate() {
	awk -v m="mgid=$1" '$1 == "member" && $2 == m { sub("join=", "", $5); print $5 }' $D/sa_db
}
state_of() { mcctl -j show "$P" "$1" | jq -r .state; }
joined() { [ "$(state_of "$1")" = joined ]; }
state_is() { [ "$(state_of "$1")" = "$2" ]; }

ktap_plan 49
modprobe ib_umad
check "load simhca" modprobe simhca || ktap_skip_all "no simhca"
check "load ib_mcgroups" mcg_load settle_ms=300 backoff_base_ms=200
# How long mcctl join waits for the SA, scaled on a slow (debug) kernel:
# the SA's own timeout (3 s in multicast.c) must end well inside it.
SCALE=${TIMEOUT_SCALE:-1}
echo $((5000 * SCALE)) >$PARAM/join_wait_ms
defer mcg_unload_simhca
check_eq "simhca0/1 uses the SA backend" ib-sa "$(cat $SYS/backend)"

out=$(mcctl -j join "$P" $G owner a create mtu 2048 2>&1)
check_eq "a creates $G: joined" joined "$(jq -r .state <<<"$out" 2>/dev/null)"
check_eq "the SA's record comes back: MLID" 0xc000 \
	"$(printf '0x%04x' "$(jq -r .mlid <<<"$out" 2>/dev/null)")"
check_eq "the SA holds a full member for the port" 0x1 "$(joinstate $G)"
check "b joins send-only full" mcctl join "$P" $G owner b state sendonly-full
check_eq "one SA membership with the union 0x9" 0x9 "$(joinstate $G)"
check "b leaves" mcctl leave "$P" $G owner b
check_eq "the SA membership is back to 0x1" 0x1 "$(joinstate $G)"
check "c joins the existing group by MGID only" mcctl join "$P" $G owner c state nonmember
check_eq "union 0x3" 0x3 "$(joinstate $G)"

check "create with every parameter" mcctl join "$P" ff12:401b:ffff::6 owner g \
	qkey 0x1234 pkey 0xffff mtu 2048 rate 100 sl 3 flow_label 0x123 tclass 7 hop_limit 5
check "the SA's record has them" grep -q \
	"^group mgid=ff12:401b:ffff::6 mlid=0x[0-9a-f]* pkey=0xffff qkey=0x00001234 mtu=0x84 rate=0x90 sl=3 flow=0x123 hop=5 tclass=0x07 " \
	$D/sa_db
check_eq "and so does the group's record" "4660 2048 100Gbps 3 291 7 5" \
	"$(mcctl -j show $P ff12:401b:ffff::6 | jq -r '[.qkey, .mtu, .rate, .sl, .flow_label, .tclass, .hop_limit] | map(tostring) | join(" ")')"
# The list view (mcctl list) keeps an InfiniBand group's record: the SA
# chose it. Only the port's own GID and its index are left out.
check_eq "and the list shows it as show does" \
	"$(mcctl -j show $P ff12:401b:ffff::6 | jq -c '[.mlid, .qkey, .pkey, .mtu, .rate, .sl, .flow_label, .tclass, .hop_limit]')" \
	"$(mcctl -j list $P | jq -c '.[] | select(.group == "ff12:401b:ffff::6") | [.mlid, .qkey, .pkey, .mtu, .rate, .sl, .flow_label, .tclass, .hop_limit]')"
check "g leaves" mcctl leave "$P" ff12:401b:ffff::6 owner g

out=$(mcctl join "$P" 0 owner d create 2>&1)
mgid=$(sed -n 's/.*assigned mgid \([^ ]*\).*/\1/p' <<<"$out" | head -n1)
ktap_diag "$out"
check "SA-assigned MGID reported" test -n "$mgid"
check "the SA has that group" grep -q "^group mgid=$mgid " $D/sa_db
check "held under its MGID" joined "$mgid"

before=$(cat $SYS/groups $SYS/holders | xargs)
err=$(mcctl join "$P" ff12:401b:ffff::2 owner e pkey 0x1234 2>&1)
check_eq "P_Key not in the table: refused" 1 $?
check "with a message naming the P_Key table" grep -q "P_Key table" <<<"$err"
err=$(mcctl join "$P" ff12:401b:ffff::3 owner e 2>&1)
check_eq "joining a group the SA does not have: refused" 1 $?
check "with the SA's rejection" grep -q "SA rejected" <<<"$err"
# as OpenSM (validate_port_caps()): the creator must meet the group's rate
err=$(mcctl join "$P" ff12:401b:ffff::8 owner e create rate 200 2>&1)
check_eq "a create at 200 Gb/s from a 100 Gb/s port: refused by the SA" 1 $?
check "with the SA's rejection" grep -q "SA rejected" <<<"$err"
check_eq "neither left a group or hold" "$before" "$(cat $SYS/groups $SYS/holders | xargs)"

# One query lost with every resend the MAD layer makes of it (ten on 6.1
# and later, none on 5.10, whose ib_sa posts a query once): it times out.
echo 1 >$D/drop_queries
out=$(mcctl -j join "$P" ff12:401b:ffff::4 owner f create 2>&1)
check_eq "a timed-out create is held and retried" retry-wait \
	"$(jq -r .state <<<"$out" 2>/dev/null)"
check "and joins on a later attempt" wait_for -t 20 joined ff12:401b:ffff::4
check_eq "sa_timeouts counted" 1 "$(cat $SYS/sa_timeouts)"

# An SA-assigned MGID cannot be requested back after a wipe (opensm refuses
# a requested A01B link-local MGID): not part of this failover.
check "d leaves the SA-assigned group" mcctl leave "$P" "$mgid" owner d
n=$(sa_groups)
echo 1 >$D/client_reregister
back() { sa_groups_are "$1" && [ "$(cat $SYS/rejoin_waves)" = 1 ]; }
check "reregister with a wiped SA: every group back" wait_for -t 30 back "$n"
check_eq "join states restored" "0x3" "$(joinstate $G)"
check_eq "counters: reregister, groups re-joined" "1 $n" \
	"$(cat $SYS/sm_reregisters) $(cat $SYS/group_rejoins)"
check "e creates ff12:401b:ffff::5 with a 4 s linger, then leaves" \
	sh -c "mcctl join $P ff12:401b:ffff::5 owner e create linger 4000 &&
	       mcctl leave $P ff12:401b:ffff::5 owner e"
check_eq "it lingers" lingering "$(state_of ff12:401b:ffff::5)"
check "e takes it back with a join state it does not hold" \
	mcctl join "$P" ff12:401b:ffff::5 owner e state sendonly-full
sleep 5
check_eq "past the linger time it is still held, joined, by e" "joined 1" \
	"$(mcctl -j show $P ff12:401b:ffff::5 | jq -r '.state + " " + (.holders | length | tostring)')"

# No request sleeps in the kernel on the fabric: while a join waits (the port
# is down, so it cannot even be sent), a generic netlink family registers
# (which needs every genetlink request to be out of the kernel) and other
# requests are answered. mcctl join itself still waits for the outcome.
G7=ff12:401b:ffff::7
echo $((20000 * SCALE)) >$PARAM/join_wait_ms
echo down >$D/port1/state
check "port down: $G waits" wait_for -t 10 __lib_not joined $G
check_eq "in retry-wait, reason port-down" "retry-wait port-down" \
	"$(mcctl -j show $P $G | jq -r '.state + " " + .reason')"
mcctl -j join "$P" $G7 owner w create >/tmp/join.$$ 2>&1 &
jpid=$!
check "a join of $G7 waits for the port" wait_for -t 10 state_is $G7 joining
check "and says why: joining, reason port-down" wait_for -t 10 sh -c \
	"[ \"\$(mcctl -j show $P $G7 | jq -r '.state + \" \" + .reason')\" = 'joining port-down' ]"
if modprobe -n team 2>/dev/null; then
	check "meanwhile a generic netlink family registers (team)" modprobe team
else
	ktap_skip "meanwhile a generic netlink family registers" "no team module"
fi
check "and another request is answered" mcctl list "$P"
check "while mcctl join still waits" kill -0 $jpid
check_eq "and so does the group" joining "$(state_of $G7)"
echo up >$D/port1/state
wait $jpid
check_eq "port up: mcctl join succeeds" 0 $?
check_eq "with the group joined" joined "$(jq -r .state </tmp/join.$$ 2>/dev/null)"
ktap_diag "$(cat /tmp/join.$$)"
rm -f /tmp/join.$$
echo $((5000 * SCALE)) >$PARAM/join_wait_ms
[ -d /sys/module/team ] && rmmod team

check "rmmod leaves the SA's groups" sh -c "rmmod ib_mcgroups && [ \$(grep -c '^member ' $D/sa_db) = 0 ]"
ktap_finish
