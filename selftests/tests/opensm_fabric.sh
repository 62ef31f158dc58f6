#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# mcctl fabric against OpenSM's SA (simhca internal_sa=N, OpenSM on port
# 1), as ib_fabric does against simhca's own SA: the groups, MLIDs and
# member counts mcctl reads (GetTable over umad, RMPP) are the ones
# saquery -g / -m reads from OpenSM, the IPoIB broadcast group OpenSM
# keeps without members included; the MLID capacity is the switch's
# MulticastFDBCap as OpenSM read it (SwitchInfoRecord). Planted behind
# the module's back with sa_mcm through OpenSM: a stale member, a lost
# one, an IPoIB-format member; --reconcile re-joins exactly the lost
# group and deletes exactly port 1's stale member, as saquery -m then
# shows. OpenSM ignores a request with another SM_Key (ERR 1A04: no
# answer, where simhca's SA used to refuse it): mcctl fabric then lists
# the groups untrusted all the same, and "smkey KEY" makes it trusted.
# timeout: 400
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
for b in opensm saquery sa_mcm jq; do
	command -v $b >/dev/null || ktap_skip_all "$b not installed (make deps)"
done
PARAM=/sys/module/ib_mcgroups/parameters
G1=0x0053494d48434101
GID2=fe80::53:494d:4843:4102
OSM_LOG=$(mcg_opensm_log sm)
GOK=ff12:1234::1
GLOST=ff12:1234::2
GSTALE=ff12:1234::3
GOTHER=ff12:1234::4
GKERN=ff12:401b:ffff::99
BCAST=ff12:401b:ffff::ffff:ffff

rc() { "$@" >/dev/null 2>&1; echo $?; }
fab() { mcctl -j fabric "$P" "$@"; }
class() {
	fab | jq -r --arg m "$1" '.[0].memberships[] | select(.mgid == $m) | .class'
}
# "MGID MLID" of every group, from mcctl fabric and from saquery -g
fab_groups() {
	fab "$@" | jq -r '.[0].groups[] | "\(.mgid) \(.mlid)"' |
		while read -r m l; do printf '%s 0x%04x\n' "$m" "$l"; done | sort
}
sq_groups() {
	saquery -C simhca0 -P 2 -g | awk '
		/MGID\./ {sub(/.*\.\.\./, ""); m = $0}
		/Mlid\./ {sub(/.*\.\.\./, ""); print m, tolower($0)}' | sort
}
# "MGID MEMBERS" of every group with members, from both (trusted)
fab_members() {
	fab | jq -r '.[0].groups[] | select(.members > 0) | "\(.mgid) \(.members)"' | sort
}
sq_members() {
	saquery -C simhca0 -P 2 --smkey 1 -m | awk '
		/MGID\./ {sub(/.*\.\.\./, ""); n[$0]++}
		END {for (m in n) print m, n[m]}' | sort
}
# port 1's JoinState in MGID per saquery -m, "" if not a member
port1_in() { mcg_sa_member_of 1 "$1"; }
port1_is() { [ "$(port1_in "$1")" = "$2" ]; }

ktap_plan 36
modprobe ib_umad
mcg_unload_simhca
check "load simhca with 2 ports, internal_sa=N" \
	modprobe simhca nports=2 internal_sa=0 || ktap_skip_all "no simhca"
defer mcg_unload_simhca
echo 100 >$D/mlid_capacity
mcg_opensm_start sm $G1
check "OpenSM brings both ports to ACTIVE" wait_for -t 90 mcg_ports_active
check "OpenSM's SA answers port 2 (saquery)" wait_for -t 60 mcg_sa_up || mcg_opensm_errors
check "load ib_mcgroups" mcg_load settle_ms=300 backoff_base_ms=200 \
	backoff_max_ms=1000
echo $((10000 * ${TIMEOUT_SCALE:-1})) >$PARAM/join_wait_ms

check "hold $GOK and $GLOST on port 1" sh -c \
	"mcctl join $P $GOK owner t create && mcctl join $P $GLOST owner t create &&
	 mcctl join $P $GLOST owner u"
check "port 2 creates $GOTHER through OpenSM" \
	sa_mcm -d simhca0 -p 2 set create mgid=$GOTHER
out=$(mcctl fabric "$P")
check_eq "all held groups at the SA: exit 0" 0 $?
ktap_diag "$out"
check_eq "both held groups ok, port 2's group not ours" "ok ok" \
	"$(fab | jq -r '.[0].memberships | map(.class) | join(" ")')"
check_eq "groups and MLIDs: as saquery -g, the broadcast group included" \
	"$(sq_groups)" "$(fab_groups)"
check_eq "OpenSM's IPoIB broadcast group, no member, listed" "1 0" \
	"$(fab | jq -r --arg m $BCAST '[.[0].groups[] | select(.mgid == $m)] | "\(length) \(.[0].members)"')"
check_eq "mlids in use: every group's, as saquery -g counts them" \
	"$(sq_groups | wc -l)" "$(fab | jq -r '.[0].mlids_used')"
check_eq "mlid capacity: the switch's MulticastFDBCap, as OpenSM read it" 100 \
	"$(fab | jq -r '.[0].mlid_capacity')"

# stale, kernel-format and lost members, planted through OpenSM
check "port 1 joins $GSTALE behind the module's back" \
	sa_mcm -d simhca0 -p 1 set create mgid=$GSTALE
check "port 2 joins it too" \
	sa_mcm -d simhca0 -p 2 set mgid=$GSTALE port_gid=self join=1
check "port 1 joins the IPoIB-format $GKERN" \
	sa_mcm -d simhca0 -p 1 set create mgid=$GKERN
check_eq "stale found: exit 5" 5 "$(rc mcctl fabric "$P")"
check_eq "$GSTALE stale, $GKERN kernel, $GOTHER not listed" "stale kernel " \
	"$(class $GSTALE) $(class $GKERN) $(class $GOTHER)"
check "sa_mcm deletes port 1's membership of $GLOST at OpenSM" \
	sa_mcm -d simhca0 -p 1 delete mgid=$GLOST port_gid=self join=1
check_eq "lost and stale: exit 6" 6 "$(rc mcctl fabric "$P")"
check_eq "$GLOST lost, while the module has it joined" "lost joined" \
	"$(class $GLOST) $(mcctl -j show "$P" $GLOST | jq -r .state)"
check_eq "groups and MLIDs still as saquery -g" "$(sq_groups)" "$(fab_groups)"
check_eq "member counts: as saquery -m" "$(sq_members)" "$(fab_members)"

rejoins=$(cat "$SYS/group_rejoins")
out=$(mcctl -j fabric "$P" --reconcile)
check_eq "--reconcile: exit 0" 0 $?
ktap_diag "$out"
check_eq "exactly two actions: rejoin $GLOST, delete $GSTALE" \
	"rejoin $GLOST true delete $GSTALE true" \
	"$(jq -r '.[0].actions | map("\(.action) \(.mgid) \(.ok)") | join(" ")' <<<"$out")"
check "saquery -m: port 1 a full member of $GLOST again" \
	wait_for -t 20 port1_is $GLOST 0x1
check_eq "its holders kept, counted as a group re-join" "t,u $((rejoins + 1))" \
	"$(mcctl -j show "$P" $GLOST | jq -r '[.holders[].owner] | sort | join(",")') $(cat "$SYS/group_rejoins")"
check_eq "saquery -m: $GSTALE has port 2 only" "$GID2 0x1" "$(mcg_sa_members $GSTALE)"
check_eq "untouched: $GOK, $GKERN (port 1), $GOTHER (port 2)" \
	"0x1 0x1 $GID2 0x1" \
	"$(port1_in $GOK) $(port1_in $GKERN) $(mcg_sa_members $GOTHER)"
check_eq "after reconcile: exit 0" 0 "$(rc mcctl fabric "$P")"

# OpenSM with another SA key: a request with SM_Key 1 goes unanswered
mcg_opensm_stop sm
mcg_opensm_start sm $G1 sa_key 0x5
check "OpenSM (sa_key 5) is back: saquery answers" wait_for -t 60 mcg_sa_up ||
	mcg_opensm_errors
check "the module re-joined its groups there (smkey 5: exit 0)" \
	wait_for -t 60 sh -c "mcctl fabric $P smkey 5 >/dev/null 2>&1"
out=$(mcctl -j fabric "$P" 2>/tmp/fabric.err)
check_eq "SM_Key 1 ignored: exit 1" 1 $?
ktap_diag "$(cat /tmp/fabric.err)"
check "OpenSM logged it (ERR 1A04)" grep -q "ERR 1A04" $OSM_LOG
check "mcctl says the SA did not answer the key" \
	grep -q "did not answer a request with SM_Key 0x1: members and this port's memberships are unknown" /tmp/fabric.err
check_eq "the groups listed untrusted, without members or classes" \
	"false $(sq_groups | wc -l) null null" \
	"$(jq -r '.[0] | "\(.trusted) \(.groups | length) \(.groups[0].members) \(.memberships)"' <<<"$out")"
check_eq "smkey 5: trusted, as saquery -g" "$(sq_groups)" "$(fab_groups smkey 5)"
mcg_unload
mcg_opensm_stop sm
ktap_finish
