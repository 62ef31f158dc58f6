#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# mcctl fabric on simhca: the SA's groups (GetTable over umad, RMPP) agree
# with saquery -g / -m for the same SA, and the MLID capacity is the
# switch's MulticastFDBCap. Planted behind the module's back with sa_mcm:
# a stale member (port 1 joined a group nobody here holds, as a crashed
# raw-umad user leaves it; port 2 keeps the group), a lost one (port 1's
# membership of a held group deleted at the SA), an IPoIB-format member
# (reported as kernel, left alone) and another port's group. The report
# classifies each (exit 5 stale, 6 both, 4 lost), and --reconcile re-joins
# exactly the lost group through the module (REJOIN, holders kept) and
# deletes exactly port 1's stale member, never port 2's: checked in the
# SA database (debugfs) and with saquery -m. A request with another SM_Key
# goes unanswered, as OpenSM's does: the report is untrusted (groups
# only, exit 1) unless smkey names the key.
# REJOIN of a group nobody holds is refused (ENOENT) with the kernel's
# message, and creates nothing.
# timeout: 300
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
command -v jq >/dev/null || ktap_skip_all "jq not installed"
command -v sa_mcm >/dev/null || ktap_skip_all "sa_mcm not built"
command -v mcg_bulk >/dev/null || ktap_skip_all "mcg_bulk not built"

GOK=ff12:1234::1
GLOST=ff12:1234::2
GSTALE=ff12:1234::3
GOTHER=ff12:1234::4
GKERN=ff12:401b:ffff::99
GID1=fe80::53:494d:4843:4101
GID2=fe80::53:494d:4843:4102

# members MGID: "GID:JOIN" of each member in the SA database, sorted
members() {
	awk -v m="mgid=$1" '$1 == "member" && $2 == m {
		sub("gid=", "", $4); sub("join=", "", $5); print $4 ":" $5 }' \
		$D/sa_db | sort | paste -sd' '
}
rc() { "$@" >/dev/null 2>&1; echo $?; }
fab() { mcctl -j fabric "$P"; }
# class MGID: this port's class of MGID in the report, "" if not listed
class() {
	fab | jq -r --arg m "$1" '.[0].memberships[] | select(.mgid == $m) | .class'
}
state_of() { mcctl -j show "$P" "$1" | jq -r .state; }
# "MGID MLID" of every group, from mcctl fabric and from saquery -g
fab_groups() {
	fab | jq -r '.[0].groups[] | "\(.mgid) \(.mlid)"' |
		while read -r m l; do printf '%s 0x%04x\n' "$m" "$l"; done | sort
}
sq_groups() {
	saquery -C simhca0 -g | awk '
		/MGID\./ {sub(/.*\.\.\./, ""); m = $0}
		/Mlid\./ {sub(/.*\.\.\./, ""); print m, tolower($0)}' | sort
}
# "MGID MEMBERS" of every group, from mcctl fabric and saquery -m (trusted)
fab_members() {
	fab | jq -r '.[0].groups[] | "\(.mgid) \(.members)"' | sort
}
sq_members() {
	saquery -C simhca0 --smkey 1 -m | awk '
		/MGID\./ {sub(/.*\.\.\./, ""); n[$0]++}
		END {for (m in n) print m, n[m]}' | sort
}
# port 1's member of MGID per saquery -m: its JoinState, "" if none
sq_port1() {
	saquery -C simhca0 --smkey 1 -m | awk -v m="$1" -v g="$GID1" '
		/MGID\./ {sub(/.*\.\.\./, ""); mg = $0}
		/PortGid\./ {sub(/.*\.\.\./, ""); pg = $0}
		/ScopeState\./ {if (mg == m && pg == g) print substr($0, length($0))}'
}

ktap_plan 41
modprobe ib_umad
mcg_unload_simhca
check "load simhca (2 ports)" modprobe simhca nports=2 || ktap_skip_all "no simhca"
check "load ib_mcgroups" mcg_load settle_ms=100 backoff_base_ms=200 \
	backoff_max_ms=1000
defer mcg_unload_simhca

check "hold $GOK and $GLOST on port 1" sh -c \
	"mcctl join $P $GOK owner t create && mcctl join $P $GLOST owner t create &&
	 mcctl join $P $GLOST owner u"
check "port 2 creates $GOTHER" sa_mcm -d simhca0 -p 2 set create mgid=$GOTHER
out=$(mcctl fabric "$P")
check_eq "all held groups at the SA: exit 0" 0 $?
ktap_diag "$out"
check_eq "both held groups ok, port 2's group not ours" "ok ok" \
	"$(fab | jq -r '.[0].memberships | map(.class) | join(" ")')"

# the stale member: port 1 (and port 2) full members of a group nobody here holds
check "port 1 joins $GSTALE behind the module's back" \
	sa_mcm -d simhca0 -p 1 set create mgid=$GSTALE
check "port 2 joins it too" \
	sa_mcm -d simhca0 -p 2 set mgid=$GSTALE port_gid=self join=1
check "port 1 joins the IPoIB-format $GKERN" \
	sa_mcm -d simhca0 -p 1 set create mgid=$GKERN
check_eq "stale found: exit 5" 5 "$(rc mcctl fabric "$P")"
check_eq "$GSTALE stale, $GKERN kernel, $GOTHER not listed" "stale kernel " \
	"$(class $GSTALE) $(class $GKERN) $(class $GOTHER)"

# the lost member: the SA forgets port 1's membership of a held group
check "sa_mcm deletes port 1's membership of $GLOST" \
	sa_mcm -d simhca0 -p 1 delete mgid=$GLOST port_gid=self join=1
check_eq "lost and stale: exit 6" 6 "$(rc mcctl fabric "$P")"
check_eq "$GLOST lost, while the module has it joined" "lost joined" \
	"$(class $GLOST) $(state_of $GLOST)"
check_eq "counts: ok 1 lost 1 stale 1 kernel 1" "1 1 1 1" \
	"$(fab | jq -r '.[0].counts | "\(.ok) \(.lost) \(.stale) \(.kernel)"')"
check_eq "-j after the command is JSON too" lost \
	"$(mcctl fabric "$P" -j | jq -r --arg m $GLOST '.[0].memberships[] | select(.mgid == $m) | .class')"

# the group list is the one saquery reads from the same SA
check_eq "groups and MLIDs: as saquery -g" "$(sq_groups)" "$(fab_groups)"
check_eq "member counts: as saquery -m" "$(sq_members)" "$(fab_members)"
check_eq "mlids in use: the SA's groups" \
	"$(grep -c '^group ' $D/sa_db)" "$(fab | jq -r '.[0].mlids_used')"
echo 100 >$D/mlid_capacity
check_eq "mlid capacity: the switch's MulticastFDBCap" 100 \
	"$(fab | jq -r '.[0].mlid_capacity')"
# No SwitchInfoRecord (a fabric without switches): nobody tells the
# capacity, and the report says so instead of a number.
echo N >$D/switch_info
check_eq "no SwitchInfoRecord: no mlid_capacity, the MLIDs in use still" \
	"false $(grep -c '^group ' $D/sa_db)" \
	"$(fab | jq -r '.[0] | "\(has("mlid_capacity")) \(.mlids_used)"')"
check "and the text says the capacity is unknown" sh -c \
	"mcctl fabric $P | grep -q 'mlids [0-9]* of unknown capacity (mlid space'"
echo Y >$D/switch_info

# reconcile
rejoins=$(cat "$SYS/group_rejoins")
out=$(mcctl -j fabric "$P" --reconcile)
check_eq "--reconcile: exit 0" 0 $?
ktap_diag "$out"
check_eq "exactly two actions: rejoin $GLOST, delete $GSTALE" \
	"rejoin $GLOST true delete $GSTALE true" \
	"$(jq -r '.[0].actions | map("\(.action) \(.mgid) \(.ok)") | join(" ")' <<<"$out")"
check "the module re-joins $GLOST" wait_for -t 20 \
	sh -c "[ \"\$(mcctl -j show $P $GLOST | jq -r .state)\" = joined ]"
check "port 1 is a full member of $GLOST at the SA again" wait_for -t 10 \
	sh -c "awk '\$1 == \"member\" && \$2 == \"mgid=$GLOST\" && \$4 == \"gid=$GID1\"' $D/sa_db | grep -q join=0x1"
check_eq "its holders kept" "t,u" \
	"$(mcctl -j show "$P" $GLOST | jq -r '[.holders[].owner] | sort | join(",")')"
check_eq "counted as a group re-join" $((rejoins + 1)) "$(cat "$SYS/group_rejoins")"
check_eq "$GSTALE: port 1's member deleted, port 2's kept" "$GID2:0x1" \
	"$(members $GSTALE)"
check_eq "saquery -m: port 1 in $GLOST, not in $GSTALE" "1 " \
	"$(sq_port1 $GLOST) $(sq_port1 $GSTALE)"
check_eq "untouched: $GOK, $GOTHER (port 2), $GKERN (kernel)" \
	"$GID1:0x1 $GID2:0x1 $GID1:0x1" \
	"$(members $GOK) $(members $GOTHER) $(members $GKERN)"
check_eq "after reconcile: exit 0" 0 "$(rc mcctl fabric "$P")"

# lost alone
sa_mcm -d simhca0 -p 1 delete mgid=$GOK port_gid=self join=1 >/dev/null
check_eq "lost only: exit 4" 4 "$(rc mcctl fabric "$P")"
check_eq "port 2, holding nothing: its own members are stale" \
	"$GSTALE:stale $GOTHER:stale" \
	"$(mcctl -j fabric simhca0/2 | jq -r '.[0].memberships | map("\(.mgid):\(.class)") | sort | join(" ")')"

# an SA with another SM_Key ignores the trusted GetTable, as OpenSM does
echo 5 >$D/sa_key
echo 1 >$D/stats
out=$(mcctl -j fabric "$P" 2>/dev/null)
check_eq "SM_Key 1 ignored: exit 1" 1 $?
check "the SA dropped the request unanswered" \
	test "$(awk '$1 == "drop_bad_smkey" {print $2}' $D/stats)" -ge 1
check_eq "the groups listed untrusted, without members or classes" \
	"false $(grep -c '^group ' $D/sa_db) null null" \
	"$(jq -r '.[0] | "\(.trusted) \(.groups | length) \(.groups[0].members) \(.memberships)"' <<<"$out")"
check_eq "smkey 5: trusted, the lost group found: exit 4" 4 \
	"$(rc mcctl fabric "$P" smkey 5)"
echo 1 >$D/sa_key

# REJOIN refusals, with the kernel's message as mcctl fabric --reconcile
# prints it (libibmcg's error message): a group nobody holds
ngroups=$(cat "$SYS/groups")
out=$(mcg_bulk rejoin simhca0 1 1 - 0x7777 2>&1)
check_eq "REJOIN of a group not held: refused" 1 $?
check_eq "... with: no such group on this port" \
	"mcg_bulk: group 0: no such group on this port" "$out"
check_eq "... and nothing created" "$ngroups" "$(cat "$SYS/groups")"
ktap_finish
