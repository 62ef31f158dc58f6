#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# MLIDs stay with their groups when OpenSM restarts (ib_mlid_stable's
# check against the real SM): OpenSM on port 1 (internal_sa=N), 10 groups
# created on port 1 (two of them after two others were released, so that
# they have the lowest MLIDs but do not come first), 4 also held on port
# 2. Three times OpenSM is killed (-9) and started again: the new SM's SA
# is empty but for the IPoIB broadcast group, its first sweep sets
# ClientReregister on both ports, and OpenSM gives a group it creates the
# MLID the request carries if it is free. After each restart every group
# is back with its MLID, and datagrams sent as an application sends them
# (the address handle and the attach made with the first MLIDs) reach
# port 2 for exactly the 4 groups it holds.
# timeout: 400
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
for b in opensm saquery mcg_bulk; do
	command -v $b >/dev/null || ktap_skip_all "$b not installed (make deps)"
done
K=/sys/kernel/ib_mcgroups/simhca0
G1=0x0053494d48434101
N=10
HELD=4
COUNT=10
ROUNDS=3
export MCG_BULK_SIGNATURE=0x1234	# OpenSM creates these with any Q_Key

joined() {
	mcg_count joined simhca0/"$1"
}
waves() { echo "$(cat $K/1/rejoin_waves) $(cat $K/2/rejoin_waves)"; }
# both ports' waves past "$1", every group joined again
back() {
	local a b

	read -r a b <<<"$1"
	[ "$(cat $K/1/rejoin_waves)" -gt "$a" ] &&
		[ "$(cat $K/2/rejoin_waves)" -gt "$b" ] &&
		[ "$(joined 1)" = $N ] && [ "$(joined 2)" = $HELD ]
}
# "MGID MLID" of every group of port 1
mlids() { mcctl -j list $P | jq -r '.[] | "\(.group) \(.mlid)"' | sort; }

ktap_plan $((6 + 3 * ROUNDS))
modprobe ib_umad
mcg_unload_simhca
check "load simhca with 2 ports, internal_sa=N" \
	modprobe simhca nports=2 internal_sa=0 || ktap_skip_all "no simhca"
defer mcg_unload_simhca
mcg_opensm_start sm $G1
check "OpenSM brings both ports to ACTIVE, its SA answers" mcg_opensm_up || mcg_opensm_errors
check "load ib_mcgroups" mcg_load rejoin_rate=20 settle_ms=300 backoff_base_ms=200
echo $((10000 * ${TIMEOUT_SCALE:-1})) >/sys/module/ib_mcgroups/parameters/join_wait_ms
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
	w=$(waves)
	mcg_opensm_stop sm KILL
	mcg_opensm_start sm $G1
	check "restart $r: kill -9 and start OpenSM, the groups are back" \
		wait_for -t 120 back "$w" || mcg_opensm_errors
	check_eq "restart $r: every group has its first MLID" "$(sort <<<"$M0")" "$(mlids)" ||
		ktap_diag "first: $(tr '\n' ' ' <<<"$M0")"
	check_eq "restart $r: traffic reaches exactly the held groups again" \
		"$((HELD * COUNT)) 0" "$(mcg_ud_traffic $HELD $COUNT <<<"$M0")"
done
ktap_diag "group_rejoins $(cat $K/1/group_rejoins) $(cat $K/2/group_rejoins)," \
	"rejoin_failures $(cat $K/1/rejoin_failures) $(cat $K/2/rejoin_failures)"
check "rmmod with the groups held" mcg_unload
mcg_opensm_stop sm
ktap_finish
