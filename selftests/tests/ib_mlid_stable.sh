#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# MLIDs stay with their groups across SA wipes (simhca's internal SA): 10
# groups created on port 1 (two of them after two others were released,
# so that they have the lowest MLIDs but do not come first), 4 also held
# on port 2. Three rounds of three SA-wiping client reregisters in quick
# succession: the SA gives the lowest free MLID to a group it creates
# unless the request asks for one, so the re-joins would get the MLIDs in
# the order they arrive; a creator's re-create asks for the group's
# previous MLID (the MLID component), which the wiped SA has free. After
# each round every group has its MLID again, and datagrams
# sent as an application sends them (the address handle and the attach
# made with the first MLIDs) reach port 2 for exactly the 4 groups it
# holds. opensm_failover checks the same against OpenSM across a failover
# and a handover.
# Then the SA moves them (simhca's mlid_shift: it ignores the MLID asked
# for and gives MLIDs from 0xC020): one more wipe, and every group of
# port 1 is reported once, "mlid-changed" in mcctl monitor -j with its old
# and new MLID, mlid_changes counts them, the group's record has the new
# MLID and the old one as prev_mlid, and an application that re-attaches
# and re-makes its address handle with the new MLIDs reaches exactly the
# held groups again, while the old MLIDs reach nobody.
# timeout: 300
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
command -v mcg_bulk >/dev/null || ktap_skip_all "mcg_bulk not built"
N=10
HELD=4
COUNT=10
ROUNDS=3

waves() { cat $SYS/rejoin_waves; }
waves2() { cat /sys/kernel/ib_mcgroups/simhca0/2/rejoin_waves; }
settled() {
	[ "$(mcg_count joined $P)" = $N ] &&
		[ "$(mcg_count joined simhca0/2)" = $HELD ] &&
		[ "$(grep -c '^group ' $D/sa_db)" = $N ]
}
# "MGID MLID" of every group of port 1
mlids() { mcctl -j list $P | jq -r '.[] | "\(.group) \(.mlid)"' | sort; }

ktap_plan $((5 + 3 * ROUNDS + 8))
modprobe ib_umad
mcg_unload_simhca
check "load simhca (internal SA) with 2 ports" modprobe simhca nports=2 ||
	ktap_skip_all "no simhca"
defer mcg_unload_simhca
check "load ib_mcgroups" mcg_load rejoin_rate=20 settle_ms=100 backoff_base_ms=100
check "create $N groups on port 1, release 2, create 2 more; hold $HELD on port 2" \
	sh -c "mcg_bulk join simhca0 1 $N job:1 && mcg_bulk leave simhca0 1 2 job:1 &&
	       mcg_bulk join simhca0 1 2 job:1 0x1010 &&
	       mcg_bulk join simhca0 2 $HELD job:2 0x1002"
# M0: the first MLIDs in MGID order, the groups port 2 holds first
M0=$(mcctl -j list $P | jq -r '.[] | "\(.group) \(.mlid)"' | sort -V)
head -n $HELD <<<"$M0" | while read -r mgid mlid; do
	echo "attach 2 $mgid $mlid" >$D/ud
done
check_eq "traffic: all to the $HELD held groups reach port 2, none of the others" \
	"$((HELD * COUNT)) 0" "$(mcg_ud_traffic $HELD $COUNT <<<"$M0")"

for r in $(seq $ROUNDS); do
	w1=$(waves)
	w2=$(waves2)
	for _ in 1 2 3; do
		echo 1 >$D/client_reregister
		sleep 0.3
	done
	check "round $r: 3 wipes, the groups are back" \
		wait_for -t 60 sh -c "[ \$(cat $SYS/rejoin_waves) -gt $w1 ] &&
			[ \$(cat /sys/kernel/ib_mcgroups/simhca0/2/rejoin_waves) -gt $w2 ]" &&
		wait_for -t 30 settled
	check_eq "round $r: every group has its first MLID" "$(sort <<<"$M0")" "$(mlids)" ||
		ktap_diag "first: $(tr '\n' ' ' <<<"$M0")"
	check_eq "round $r: traffic reaches exactly the held groups again" \
		"$((HELD * COUNT)) 0" "$(mcg_ud_traffic $HELD $COUNT <<<"$M0")"
done
ktap_diag "group_rejoins $(cat $SYS/group_rejoins), rejoin_failures $(cat $SYS/rejoin_failures)"

# --- the SA gives other MLIDs: applications are told
MON=/tmp/ib_mlid_stable.monitor.$$
mcctl -j monitor >$MON 2>&1 &
mon=$!
defer rm -f $MON
defer kill $mon
G0=$(head -n 1 <<<"$M0" | cut -d' ' -f1)
check "(the monitor is listening)" wait_for -t 10 sh -c \
	"mcctl join $P $G0 owner mon-sync >/dev/null &&
	 mcctl leave $P $G0 owner mon-sync >/dev/null &&
	 grep -q mon-sync $MON"
c0=$(cat $SYS/mlid_changes)
w1=$(waves)
echo 32 >$D/mlid_shift
echo 1 >$D/client_reregister
check "a wipe with the SA's MLIDs shifted: the groups are back" \
	wait_for -t 60 sh -c "[ \$(cat $SYS/rejoin_waves) -gt $w1 ]" &&
	wait_for -t 30 settled
echo 0 >$D/mlid_shift
M1=$(mcctl -j list $P | jq -r '.[] | "\(.group) \(.mlid)"' | sort -V)
# "MGID NEW OLD" as the record says, and as the events said
REC=$(mcctl -j list $P | jq -r '.[] | "\(.group) \(.mlid) \(.prev_mlid)"' | sort)
# (only the lines whose MLID moved: all of them)
EXP=$(awk 'NR == FNR { old[$1] = $2; next } $2 != old[$1] { print $1, $2, old[$1] }' \
	<(echo "$M0") <(echo "$M1") | sort)
check_eq "every group has another MLID, the old one as prev_mlid (GROUP_GET)" \
	"$EXP" "$REC"
check "mcctl monitor: one mlid-changed per group of port 1, old and new MLID" \
	wait_for -t 10 sh -c "[ \"\$(jq -r 'select(.event == \"mlid-changed\" and .port == 1) |
		\"\\(.group) \\(.mlid) \\(.prev_mlid)\"' $MON | sort)\" = '$EXP' ]" ||
	ktap_diag "monitor: $(grep mlid-changed $MON | head -n 3)"
check_eq "mlid_changes counted them" $((c0 + N)) "$(cat $SYS/mlid_changes)"
check_eq "mcctl stats shows mlid_changes" $((c0 + N)) \
	"$(mcctl -j stats $P | jq '.[0].mlid_changes')"
check_eq "mcctl metrics: mlid_changes_total as sysfs" $((c0 + N)) \
	"$(mcctl metrics | sed -n 's/^ib_mcgroups_mlid_changes_total{device="simhca0",port="1",[^}]*} //p')"
# an application re-attaches and re-makes its address handle (ud: sends
# carry the MLID): detach the old MLIDs, attach the new ones
head -n $HELD <<<"$M0" | while read -r mgid mlid; do
	echo "detach 2 $mgid $mlid" >$D/ud
done
head -n $HELD <<<"$M1" | while read -r mgid mlid; do
	echo "attach 2 $mgid $mlid" >$D/ud
done
check_eq "traffic to the new MLIDs reaches exactly the held groups; the old MLIDs nobody" \
	"$((HELD * COUNT)) 0 0 0" \
	"$(mcg_ud_traffic $HELD $COUNT <<<"$M1") $(mcg_ud_traffic $HELD $COUNT <<<"$M0")"
check "rmmod with the groups held" mcg_unload
ktap_finish
