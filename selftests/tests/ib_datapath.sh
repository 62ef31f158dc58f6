#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The reason ib_mcgroups exists, on InfiniBand: simhca0 with two ports on
# one simulated switch. A UD QP on port 2 that only attaches (simhca's
# in-kernel helper, debugfs ud) receives nothing from port 1 until
# ib_mcgroups holds the group on port 2, everything while it does (full or
# non-member), nothing after the leave; a send-only-full hold does not make
# the port receive; the SM programs the switch only after the SA's join;
# after a client reregister that wiped the SA nothing arrives until the
# re-join wave restored the membership, then everything does; a kill -9 of
# a bound holder stops delivery.
# timeout: 240
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
G=ff12:401b:ffff::17
COUNT=20
# port GIDs: simhca's subnet prefix and port GUID 0x0053494d48434100 + port
GID2=fe80::53:494d:4843:4102
SYS1=/sys/kernel/ib_mcgroups/simhca0/1
SYS2=/sys/kernel/ib_mcgroups/simhca0/2

# joinstate: the JoinState the SA holds for port 2 on G ("" if none)
joinstate() {
	awk -v m="mgid=$G" -v gid="gid=$GID2" \
		'$1 == "member" && $2 == m && $4 == gid { sub("join=", "", $5); print $5 }' $D/sa_db
}
no_member() { [ -z "$(joinstate)" ]; }
joinstate_is() { [ "$(joinstate)" = "$1" ]; }
mlid_of_g() {
	awk -v m="mgid=$G" '$1 == "group" && $2 == m { sub("mlid=", "", $3); print $3 }' $D/sa_db
}
mft_of_g() { grep "^mlid=$MLID " $D/mft; }
waves_are() { [ "$(cat $SYS1/rejoin_waves) $(cat $SYS2/rejoin_waves)" = "$1" ]; }
# mcg_ud_field PORT FIELD: the helper's counter on PORT (received, bad)

# received: COUNT datagrams from port 1's QP to G; how many port 2's QP
# got. The helper's send returns once the switch has handled them all.
received() {
	echo clear >$D/ud
	echo "send 1 $G $MLID $COUNT" >$D/ud || { echo send-failed; return; }
	mcg_ud_field 2 received
}

ktap_plan 42
modprobe ib_umad
check "load simhca with two ports" modprobe simhca nports=2 ||
	ktap_skip_all "no simhca"
check "load ib_mcgroups" mcg_load settle_ms=300 backoff_base_ms=200
defer mcg_unload_simhca

out=$(mcctl -j join simhca0/1 $G owner sender state sendonly-full create 2>&1)
check_eq "port 1 (the sender) creates $G send-only full" joined \
	"$(jq -r .state <<<"$out" 2>/dev/null)"
MLID=$(printf '0x%04x' "$(jq -r .mlid <<<"$out" 2>/dev/null)")
check_eq "its MLID is the SA's" "$(mlid_of_g)" "$MLID"
check_eq "the switch forwards $MLID nowhere (send-only)" "" "$(mft_of_g)"
check "port 2's QP attaches to $G (no join)" sh -c "echo 'attach 2 $G $MLID' >$D/ud"
check_eq "no hold on port 2: 0 of $COUNT received" 0 "$(received)"
check_eq "the switch dropped them all for want of an MFT entry" $COUNT \
	"$(sa_stat ud_drop_no_mft)"

# --- full member ---
check "ib_mcgroups joins $G on port 2 (full)" mcctl join simhca0/2 $G owner dp
check_eq "the SA has port 2 as a full member" 0x1 "$(joinstate)"
check_eq "the switch forwards $MLID to port 2" "mlid=$MLID ports=2" "$(mft_of_g)"
check_eq "while held: $COUNT of $COUNT received" $COUNT "$(received)"
check "port 2's QP detaches" sh -c "echo 'detach 2 $G $MLID' >$D/ud"
check_eq "held but not attached: 0 received" 0 "$(received)"
check "and attaches again" sh -c "echo 'attach 2 $G $MLID' >$D/ud"
check_eq "attached again: $COUNT received" $COUNT "$(received)"
check "leave" mcctl leave simhca0/2 $G owner dp
check "the SA processes the leave" wait_for -t 10 no_member
check_eq "after the leave: 0 of $COUNT received" 0 "$(received)"

# --- send-only full, non-member ---
check "port 2 holds $G send-only full" \
	mcctl join simhca0/2 $G owner so state sendonly-full
check_eq "the SA has it as such" 0x8 "$(joinstate)"
check_eq "a send-only hold does not receive: 0" 0 "$(received)"
check "nonmember hold added" mcctl join simhca0/2 $G owner nm state nonmember
check_eq "the SA has the union 0xa" 0xa "$(joinstate)"
check_eq "a non-member receives: $COUNT" $COUNT "$(received)"
mcctl leave simhca0/2 $G owner nm
check "the nonmember hold left, the send-only one stays" \
	wait_for -t 10 joinstate_is 0x8
check_eq "send-only again: 0" 0 "$(received)"
mcctl leave simhca0/2 $G owner so
check "all of port 2's holds left" wait_for -t 10 no_member

# --- the SM programs the switch after the SA's join ---
echo 600000 >$D/mft_delay_ms
check "with a 10 min MFT delay, port 2 joins" mcctl join simhca0/2 $G owner dp
check_eq "the SA has the member, the switch not yet: 0 received" "0x1 0" \
	"$(joinstate) $(received)"
echo 1 >$D/mft_program
check_eq "once the MFT is programmed: $COUNT" $COUNT "$(received)"
echo 0 >$D/mft_delay_ms

# --- client reregister with an SA wipe ---
echo 1000000 >$D/drop_next
echo 1 >$D/client_reregister
check_eq "reregister wiped the SA; it drops every re-join: 0 received" \
	"0 0" "$(grep -c '^group ' $D/sa_db) $(received)"
echo 0 >$D/drop_next
check "the re-join waves of both ports complete" wait_for -t 60 waves_are "1 1"
check_eq "port 2 is a full member again, on the same MLID" "0x1 $MLID" \
	"$(joinstate) $(mlid_of_g)"
check_eq "re-joined: $COUNT of $COUNT received" $COUNT "$(received)"
check "leave" mcctl leave simhca0/2 $G owner dp
check "the SA processes it" wait_for -t 10 no_member

# --- a bound hold dies with its process ---
mcctl join simhca0/2 $G owner job:17 bound >/dev/null 2>&1 &
pid=$!
defer kill -9 $pid
check "a bound hold on port 2" wait_for -t 10 joinstate_is 0x1
check_eq "while the holder lives: $COUNT" $COUNT "$(received)"
kill -9 $pid
wait $pid 2>/dev/null
check "kill -9 of the holder: the SA loses the member" wait_for -t 10 no_member
check_eq "and nothing arrives: 0" 0 "$(received)"

check_eq "port 2's QP never got a bad datagram" 0 "$(mcg_ud_field 2 bad)"
ktap_diag "$(grep -e '^ud_' -e '^mft_' $D/stats | xargs)"
ktap_finish
