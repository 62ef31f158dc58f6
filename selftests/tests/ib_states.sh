#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The InfiniBand backend's group states against the simulated SA, where
# joins, leaves, refusals and resets interleave: a join state that is
# asked for and given up before the SA answers, a join state the SA
# refuses while others hold the group, a lingering group taken back after
# it lost its membership or with another join state (make before break),
# an SA-assigned group left while the port is down, re-joins that ask
# for a group as its holders did (by MGID, or as its creator), a port
# that became ACTIVE without the module seeing the event, and groups that
# the SA lost and nobody here can create again (joined by MGID only, or
# with an MGID the SA assigned), and a port GID that changes.
# timeout: 300
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
PARAM=/sys/module/ib_mcgroups/parameters

unload() {
	mcg_unload
	[ -d /sys/module/simhca ] && rmmod simhca
	return 0
}
# joinstate MGID: the JoinState the SA holds for our port on MGID
joinstate() {
	awk -v m="mgid=$1" '$1 == "member" && $2 == m { sub("join=", "", $5); print $5 }' $D/sa_db
}
state_of() { mcctl -j show "$P" "$1" | jq -r .state; }
state_reason() { mcctl -j show "$P" "$1" | jq -r '.state + " " + .reason'; }
holders_of() { mcctl -j show "$P" "$1" | jq -r '[.holders[].owner] | sort | join(",")'; }
is_state() { [ "$(state_of "$1")" = "$2" ]; }
is_joinstate() { [ "$(joinstate "$1")" = "$2" ]; }
sa_quiet() {
	echo 0 >$D/drop_next
	echo 0 >$D/delay_ms
	echo 0 >$D/refuse_join
}

ktap_plan 69
modprobe ib_umad
check "load simhca (2 ports)" modprobe simhca nports=2 || ktap_skip_all "no simhca"
check "load ib_mcgroups" mcg_load settle_ms=300 backoff_base_ms=200 \
	backoff_max_ms=1000 join_wait_ms=8000
defer unload

# --- a join state asked for and given up before the SA answers (issue 11.4)
G1=ff12:401b:ffff::41
check "a creates $G1" mcctl join "$P" $G1 owner a create
echo 1000 >$D/drop_next
echo 200 >$PARAM/join_wait_ms
out=$(mcctl -j join "$P" $G1 owner b state sendonly-full 2>&1)
check_eq "b joins send-only full while the SA is silent: joining" joining \
	"$(jq -r .state <<<"$out" 2>/dev/null)"
out=$(mcctl -j leave "$P" $G1 owner b 2>&1)
sa_quiet
check_eq "b leaves before the SA answered: the group is joined (a's member)" \
	joined "$(jq -r .state <<<"$out" 2>/dev/null)"
out=$(mcctl -j join "$P" $G1 owner c 2>&1)
check_eq "c joins it by MGID: joined at once" joined \
	"$(jq -r .state <<<"$out" 2>/dev/null)"
check_eq "the SA has our full member only" 0x1 "$(joinstate $G1)"

# --- the SA refuses a join state others do not need (issue 11.4)
echo 8 >$D/refuse_join
echo 8000 >$PARAM/join_wait_ms
err=$(mcctl join "$P" $G1 owner b state sendonly-full 2>&1)
check_eq "the SA refuses b's send-only-full join: b's JOIN fails" 1 $?
check "with the SA's rejection" grep -q "SA rejected" <<<"$err"
check_eq "$G1 stays joined, held by a and c" "joined a,c" \
	"$(state_of $G1) $(holders_of $G1)"
check_eq "the SA still has our full member" 0x1 "$(joinstate $G1)"

G2=ff12:401b:ffff::42
echo 2000 >$D/delay_ms
echo 100 >$PARAM/join_wait_ms
out=$(mcctl -j join "$P" $G2 owner a create 2>&1)
check_eq "a creates $G2 while the SA answers slowly: joining" joining \
	"$(jq -r .state <<<"$out" 2>/dev/null)"
echo 8000 >$PARAM/join_wait_ms
err=$(mcctl join "$P" $G2 owner b state sendonly-full 2>&1)
check_eq "b joins it send-only full before it was ever joined: refused" 1 $?
sa_quiet
check "$G2 is kept for a and joined" wait_for -t 20 is_state $G2 joined
check_eq "held by a only, with a's full member in the SA" "a 0x1" \
	"$(holders_of $G2) $(joinstate $G2)"

# --- a lingering group that lost its membership is taken back (issue 11.6)
G3=ff12:401b:ffff::43
check "e creates $G3 with a 60 s linger and leaves" sh -c \
	"mcctl join $P $G3 owner e create linger 60000 &&
	 mcctl leave $P $G3 owner e"
echo 100000 >$D/drop_next
echo 1 >$D/client_reregister
check "reregister, SA wiped and silent: $G3 lingers, net-reset" \
	wait_for -t 20 sh -c "[ \"\$(mcctl -j show $P $G3 | jq -r '.state + \" \" + .reason')\" = 'lingering net-reset' ]"
ls=$(mcctl -j show "$P" $G3 | jq -r .link_state)
check "while it lingers its link state says it is being joined again ($ls)" \
	grep -qx 'joining\|retry-wait' <<<"$ls"
# (it moves between the two while the SA is silent)
check "mcctl show says so: state lingering (joining or retry-wait)" sh -c \
	"mcctl show $P $G3 | grep -q 'state lingering (\\(joining\\|retry-wait\\))'"
echo 200 >$PARAM/join_wait_ms
out=$(mcctl -j join "$P" $G3 owner e create 2>&1)
st=$(jq -r .state <<<"$out" 2>/dev/null)
ktap_diag "taken back: $st"
check "e takes it back (full, its creator): not reported joined" \
	grep -qx 'joining\|retry-wait' <<<"$st"
check_eq "(the SA has no member for it)" "" "$(joinstate $G3)"
sa_quiet
check "once the SA answers it is joined" wait_for -t 30 is_state $G3 joined
check_eq "with our full member in the SA" 0x1 "$(joinstate $G3)"
echo 8000 >$PARAM/join_wait_ms

# --- a lingering group re-joined by itself: its link says so (issue 29)
G5=ff12:401b:ffff::48
link_of() { mcctl -j show "$P" "$1" | jq -r '.state + " " + .link_state'; }
check "lg creates $G5 with a 60 s linger and leaves" sh -c \
	"mcctl join $P $G5 owner lg create linger 60000 &&
	 mcctl leave $P $G5 owner lg"
check_eq "state lingering, link state joined" "lingering joined" "$(link_of $G5)"
check "mcctl show prints no link state for a joined lingering group" sh -c \
	"mcctl show $P $G5 | grep -q 'state lingering ' &&
	 ! mcctl show $P $G5 | grep -q 'state lingering ('"
M5=/tmp/ib_states.g5.$$
mcctl -j monitor >$M5 2>&1 &
m5=$!
check "(a monitor is listening)" wait_for -t 10 sh -c \
	"mcctl join $P ff12:401b:ffff::4f owner m5-sync create >/dev/null &&
	 mcctl leave $P ff12:401b:ffff::4f owner m5-sync >/dev/null &&
	 grep -q m5-sync $M5"
echo 1 >$D/client_reregister
g5_states() {
	jq -r --arg g "$G5" 'select(.event == "group-state" and .group == $g) |
		.state + " " + .link_state' "$M5" | tr '\n' ' '
}
g5_rejoined() { g5_states | grep -q 'lingering retry-wait .*lingering joined'; }
check "a reregister: the monitor sees its link go retry-wait, then joined, its state lingering" \
	wait_for -t 20 g5_rejoined
ktap_diag "$G5: $(g5_states)"
kill $m5 2>/dev/null
check_eq "it is joined again while it lingers" "lingering joined" "$(link_of $G5)"
check_eq "the SA has our full member again" 0x1 "$(joinstate $G5)"
rm -f $M5
check "lg takes it back without a linger time and leaves: it is gone" sh -c \
	"mcctl join $P $G5 owner lg linger 0 >/dev/null &&
	 mcctl leave $P $G5 owner lg >/dev/null && ! mcctl show $P $G5 2>/dev/null"
g5_gone() { [ -z "$(joinstate $G5)" ]; }
check "and the SA has it no more" wait_for -t 10 g5_gone

# --- make before break: taken back with another join state (issue 11.10)
G4=ff12:401b:ffff::44
check "f creates $G4 with a 60 s linger and leaves" sh -c \
	"mcctl join $P $G4 owner f create linger 60000 &&
	 mcctl leave $P $G4 owner f"
check_eq "it lingers, full member in the SA" "lingering 0x1" \
	"$(state_of $G4) $(joinstate $G4)"
echo 2000 >$D/delay_ms
mcctl join "$P" $G4 owner f state sendonly-full >/dev/null 2>&1 &
jpid=$!
# The SA records the new member at once and answers 2 s later: the SA
# database alone is polled (cheap) until it has the new member, then the
# group must still be joining; until it is joined the full member stays.
lost=0 seen=0 end=$(($(date +%s) + 30))
while [ "$(date +%s)" -lt "$end" ]; do
	js=$(joinstate $G4)
	[ $((${js:-0} & 1)) = 1 ] || lost=1
	if [ $((${js:-0} & 8)) = 8 ]; then
		[ "$(state_of $G4)" = joining ] && seen=1
		break
	fi
done
while [ "$(date +%s)" -lt "$end" ]; do
	js=$(joinstate $G4)
	st=$(state_of $G4)
	[ "$st" = joined ] && break
	[ "$st" = joining ] && [ $((${js:-0} & 1)) != 1 ] && lost=1
done
wait $jpid
check_eq "f takes it back send-only full: joined" joined "$(state_of $G4)"
check_eq "the SA was asked for the new join state while joining" 1 "$seen"
check_eq "and kept the full member until the new one was held" 0 "$lost"
check "then the full member is left" wait_for -t 10 is_joinstate $G4 0x8
sa_quiet

# --- an SA-assigned group left while the port is down (issue 11.7)
n=$(cat $SYS/groups)
echo down >$D/port1/state
sleep 1
echo 200 >$PARAM/join_wait_ms
out=$(mcctl -j join "$P" 0 owner g create linger 300 2>&1)
check_eq "port down: an SA-assigned group waits for its MGID" joining \
	"$(jq -r .state <<<"$out" 2>/dev/null)"
check "g releases it" mcctl leave owner g all
check "nobody can take it back by MGID: it does not linger" \
	wait_for -t 5 sh -c "[ \$(cat $SYS/groups) = $n ]"
echo up >$D/port1/state
check "port up: no group is asked for" wait_for -t 10 sh -c \
	"[ \$(mcctl -j stats $P | jq .[0].rejoin_pending) = 0 ]"
check_eq "and the SA has no group for it" 4 "$(grep -c '^group ' $D/sa_db)"
echo 8000 >$PARAM/join_wait_ms

# --- re-joins ask as the holders joined (issue 11.9)
G5=ff12:401b:ffff::45
check "port 2 (another node) creates $G5 with SL 1" \
	sa_mcm -d simhca0 -p 2 set create mgid=$G5 sl=1
check "h joins it full, by MGID only" mcctl join "$P" $G5 owner h
check_eq "with the group's SL" 1 "$(mcctl -j show $P $G5 | jq .sl)"
echo 1 >$D/client_reregister
check "SA wiped: h's re-join does not create it, it waits (sa-rejected)" \
	wait_for -t 20 sh -c "[ \"\$(mcctl -j show $P $G5 | jq -r '.state + \" \" + .reason')\" = 'retry-wait sa-rejected' ]"
check_eq "the SA has no $G5" 0 "$(grep -c "^group mgid=$G5 " $D/sa_db)"
check "port 2 creates it again, with SL 2" \
	sa_mcm -d simhca0 -p 2 set create mgid=$G5 sl=2
check "h is joined again" wait_for -t 30 is_state $G5 joined
check_eq "with the new SL" 2 "$(mcctl -j show $P $G5 | jq .sl)"
check "a, who created $G1, has it back" wait_for -t 30 is_state $G1 joined
# --- a PORT_ACTIVE that was missed (issue 11.11)
echo down >$D/port1/state
sleep 1
echo up-silent >$D/port1/state
G6=ff12:401b:ffff::46
out=$(mcctl -j join "$P" $G6 owner i create 2>&1)
check_eq "the port came up without an event: a JOIN still joins" joined \
	"$(jq -r .state <<<"$out" 2>/dev/null)"
check "and the groups that waited for the port are joined again" \
	wait_for -t 30 is_state $G1 joined

# --- a group nobody here can create, gone from the SA (issue 11.12)
G7=ff12:401b:ffff::47
MON=/tmp/ib_states.monitor.$$
mcctl monitor >$MON 2>&1 &
mon=$!
defer rm -f $MON
defer kill $mon
check "port 2 creates $G7" sa_mcm -d simhca0 -p 2 set create mgid=$G7
check "j joins it as a non-member" mcctl join "$P" $G7 owner j state nonmember
# The monitor subscribes some time after it starts: a hold taken and
# dropped until it reports one.
check "(the monitor is listening)" wait_for -t 10 sh -c \
	"mcctl join $P $G7 owner mon-sync state nonmember >/dev/null &&
	 mcctl leave $P $G7 owner mon-sync state nonmember >/dev/null &&
	 grep -q mon-sync $MON"
check "rejoin_refusals 3" sh -c "echo 3 >$PARAM/rejoin_refusals"
echo 1 >$D/client_reregister
check "SA wiped, its creator gone: $G7 is released" \
	wait_for -t 30 sh -c "! mcctl show $P $G7"
check "j was told why: group-gone" sh -c \
	"grep '$G7' $MON | grep holder-del | grep -q group-gone"
check "$G1, whose creator is here, is back" wait_for -t 30 is_state $G1 joined

# --- an SA-assigned link-local MGID the SA lost (issue 11.8)
out=$(mcctl join "$P" 0 owner k create 2>&1)
M=$(sed -n 's/.*assigned mgid \([^ ]*\).*/\1/p' <<<"$out" | head -n1)
check "k creates a group with an SA-assigned MGID ($M)" grep -q '^ff12:a01b:' <<<"$M"
echo 1 >$D/client_reregister
check "SA wiped: the SA does not create $M on request, so it is released" \
	wait_for -t 30 sh -c "! mcctl show $P $M"
check "k was told why: mgid-lost" sh -c \
	"grep '$M' $MON | grep holder-del | grep -q mgid-lost"
check "k asks for a new group with MGID 0" sh -c \
	"mcctl join $P 0 owner k create | grep -q 'assigned mgid ff12:a01b:'"

# --- a new port GID (issue 11.11)
old=$(mcctl -j show "$P" $G1 | jq -r .port_gid)
port_gid_moved() { [ "$(mcctl -j show "$P" $G1 | jq -r .port_gid)" != "$old" ]; }
# 6.1's ib_core passes an IB port's GID_CHANGE to no client: the module
# notices at the port's next event, here a PKEY_CHANGE that moves nothing.
echo 0xfe80000000000abc >$D/subnet_prefix
ktap_diag "$(grep event_gid_change $D/stats)"
echo "0 $(awk '$1 == 0 { print $2 }' $D/port1/pkeys)" >$D/port1/pkeys
check "a new subnet prefix, then a port event: $G1 is joined again with the new port GID" \
	wait_for -t 30 port_gid_moved
gid=$(mcctl -j show "$P" $G1 | jq -r .port_gid)
ktap_diag "port GID $old -> $gid"
check_eq "the SA has our member of $G1 under the new GID only" "gid=$gid" \
	"$(awk -v m="mgid=$G1" '$1 == "member" && $2 == m { print $4 }' $D/sa_db)"
check "no member of ours is left under the old GID" \
	sh -c "! grep -q '^member .* gid=$old ' $D/sa_db"

check "rmmod leaves the SA's groups" sh -c \
	"rmmod ib_mcgroups && ! grep -q '^member .* gid=$gid ' $D/sa_db"
ktap_finish
