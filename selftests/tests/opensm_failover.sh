#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# SM failover and handover with two OpenSMs on simhca's fabric
# (internal_sa=N): A on port 1 (sm_priority 10) is MASTER, B on port 2
# (priority 5) goes STANDBY, which needs the SMInfo between them to reach
# the other SM's QP0 agent by directed route (simhca's process_mad). N
# groups are held by three owners, two on port 1 and one on port 2.
# kill -9 A: B finds it dead after its SMInfo polling, becomes MASTER with
# an empty SA and sets ClientReregister on every port; the module re-joins
# every group on both ports (counted in its counters), saquery -m shows
# every member again, every group has its MLID again (a creator's
# re-create asks for it) and datagrams reach port 2 again. Then A comes back
# with its higher priority: B hands over (trap 144, SMInfo HANDOVER) and
# the same happens again. The time from A's death to full membership is
# printed next to OpenSM's detection time (no timed assert).
# timeout: 900
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
for b in opensm sminfo saquery mcg_bulk; do
	command -v $b >/dev/null || ktap_skip_all "$b not installed (make deps)"
done
S=/sys/class/infiniband/simhca0/ports
K=/sys/kernel/ib_mcgroups/simhca0
G1=0x0053494d48434101
G2=0x0053494d48434102
N=${OSM_FAILOVER_GROUPS:-1000}
RATE=200
POLL_MS=1000			# sminfo_polling_timeout
POLL_RETRIES=3			# polling_retry_number
SIG=0x1234			# no IPoIB signature: any Q_Key (see opensm_sa)
PFX=ff12:1234:ffff::
G=${PFX}2000			# the data path's group (see below)
COUNT=20
export MCG_BULK_SIGNATURE=$SIG

lid() { printf %d "$(cat $S/"$1"/lid)"; }
sm_lid() { printf %d "$(cat $S/"$1"/sm_lid)"; }
# the SMInfo state of the SM at LID $2, asked from port $1 (LID routed)
sm_state() {
	sminfo -C simhca0 -P "$1" "$2" 2>/dev/null | grep -o 'SMINFO_[A-Z]*'
}
is_state() { [ "$(sm_state "$1" "$2")" = "$3" ]; }
# members of our N groups in the SA of the master, as saquery -m shows them
sa_members() {
	saquery -C simhca0 -P 2 --smkey 1 -m 2>/dev/null |
		grep -c "MGID\.*$PFX"
}
all_members() { [ "$(sa_members)" = $((2 * N)) ]; }
joined() {
	mcg_count joined simhca0/"$1"
}
all_joined() { [ "$(joined 1)" = "$N" ] && [ "$(joined 2)" = "$N" ]; }
waves() { echo "$(cat $K/1/rejoin_waves) $(cat $K/2/rejoin_waves)"; }
counter() { echo "$(cat $K/1/"$1") $(cat $K/2/"$1")"; }
plus() { echo "$(($1 + $3)) $(($2 + $3))"; }
waves_done() { [ "$(waves)" = "$1" ]; }
# "MGID MLID" of every group of port 1, and how many moved since $1
mlids() { mcctl -j list simhca0/1 | jq -r '.[] | "\(.group) \(.mlid)"' | sort; }
moved() { grep -cvxF -f <(mlids) <<<"$1"; }
mlid_of() { printf '0x%04x' "$(mcctl -j show simhca0/1 $G | jq -r .mlid)"; }
# attach port 2's UD QP to $G at its current MLID, send COUNT from port 1
received() {
	local mlid

	mlid=$(mlid_of)
	echo clear >$D/ud
	echo "attach 2 $G $mlid" >$D/ud || { echo attach-failed; return; }
	echo "send 1 $G $mlid $COUNT" >$D/ud || { echo send-failed; return; }
	mcg_ud_field 2 received
	echo "detach 2 $G $mlid" >$D/ud
}
osm_diag() {
	local n

	for n in a b; do
		ktap_diag "opensm $n log (errors, state):"
		grep "ERR\|Entering\|SUBNET UP\|HANDOVER" "$(mcg_opensm_log $n)" 2>/dev/null |
			tail -n 12 | while read -r l; do ktap_diag "  $l"; done
	done
	while read -r l; do ktap_diag "  sma: $l"; done <$D/sma
}
since() { awk -v a="$1" -v b="${EPOCHREALTIME}" 'BEGIN {printf "%.1f", b - a}'; }
osm() {
	mcg_opensm_start "$1" "$2" sm_priority "$3" \
		sminfo_polling_timeout $POLL_MS polling_retry_number $POLL_RETRIES
}

# recovered WHO LID KPORT: after the new master WHO (at LID) took over,
# the checks every SM change must pass: one wave per port, every member
# back in saquery, 0 lost, counted, MLIDs kept, the SM LID the module saw
# (ib_mcgroups' last_sm_lid of port KPORT), datagrams; t_full is the time
# from $t0 to full membership
recovered() {
	check "the module re-joins on both ports (one wave each)" \
		wait_for -t 180 waves_done "$(plus $w0 1)" || osm_diag
	check "saquery -m shows every member again ($1's SA)" \
		wait_for -t 60 all_members
	t_full=$(since "$t0")
	check_eq "0 lost: all $N groups joined on both ports" "$N $N" \
		"$(joined 1) $(joined 2)"
	check_eq "counted: one reregister and $N group re-joins per port" \
		"$(plus $r0 1) $(plus $j0 "$N")" \
		"$(counter sm_reregisters) $(counter group_rejoins)"
	check_eq "every group has its MLID again (asked for on re-create)" 0 \
		"$(moved "$m0")"
	check_eq "both ports' SM LID is $1's port: $2" "$2 $2 $2" \
		"$(sm_lid 1) $(sm_lid 2) $(cat $K/"$3"/last_sm_lid)"
	check_eq "datagrams reach port 2 again ($G, MLID $(mlid_of))" $COUNT \
		"$(received)"
}

ktap_plan 30
modprobe ib_umad
mcg_unload_simhca
check "load simhca with 2 ports, internal_sa=N" \
	modprobe simhca nports=2 internal_sa=0 || ktap_skip_all "no simhca"
defer mcg_unload_simhca

# --- A master, B standby -----------------------------------------------------
osm a $G1 10
check "OpenSM A (port 1, priority 10) brings both ports to ACTIVE" \
	wait_for -t 120 mcg_ports_active || osm_diag
L1=$(lid 1)
L2=$(lid 2)
check "A is MASTER (sminfo)" wait_for -t 60 is_state 1 "$L1" SMINFO_MASTER
check "its SA answers" wait_for -t 60 mcg_sa_up 2 || osm_diag
osm b $G2 5
check "OpenSM B (port 2, priority 5) goes STANDBY (SMInfo between the SMs)" \
	wait_for -t 120 is_state 1 "$L2" SMINFO_STANDBY || osm_diag
check_eq "A is still MASTER, the SM of both ports" "SMINFO_MASTER $L1 $L1" \
	"$(sm_state 2 "$L1") $(sm_lid 1) $(sm_lid 2)"

check "load ib_mcgroups (rejoin_rate=$RATE)" \
	mcg_load rejoin_rate=$RATE settle_ms=300 backoff_base_ms=200
echo $((10000 * ${TIMEOUT_SCALE:-1})) >/sys/module/ib_mcgroups/parameters/join_wait_ms
check "hold $N groups: job:1 and job:2 on port 1, job:3 on port 2" \
	sh -c "mcg_bulk join simhca0 1 $N job:1 && mcg_bulk join simhca0 1 $N job:2 &&
	       mcg_bulk join simhca0 2 $N job:3"
# The first two groups released, two others created: those have the two
# lowest MLIDs but are not the first MGIDs. A new master's empty SA gives
# the lowest free MLID to a group it creates unless the request asks for
# one, so re-joins in MGID or any other order would swap MLIDs around.
check "release the first 2, create ${PFX}2000 and ${PFX}2001" \
	sh -c "mcg_bulk leave simhca0 1 2 job:1 && mcg_bulk leave simhca0 1 2 job:2 &&
	       mcg_bulk leave simhca0 2 2 job:3 &&
	       mcg_bulk join simhca0 1 2 job:1 0x2000 && mcg_bulk join simhca0 1 2 job:2 0x2000 &&
	       mcg_bulk join simhca0 2 2 job:3 0x2000"
check_eq "saquery -m: $((2 * N)) members (both ports in every group)" \
	$((2 * N)) "$(sa_members)"
check_eq "all $COUNT datagrams from port 1 reach port 2 ($G)" $COUNT \
	"$(received)"

# --- kill -9 the master: B takes over --------------------------------------------
m0=$(mlids)
w0=$(waves)
r0=$(counter sm_reregisters)
j0=$(counter group_rejoins)
t0=$EPOCHREALTIME
mcg_opensm_stop a KILL
check "kill -9 A: B becomes MASTER" \
	wait_for -t 120 is_state 2 "$L2" SMINFO_MASTER || osm_diag
t_master=$(since "$t0")
recovered B "$L2" 1
ktap_diag "failover: A killed -> B MASTER ${t_master} s, -> full membership ${t_full} s;" \
	"OpenSM's detection time sminfo_polling_timeout x polling_retry_number" \
	"= $((POLL_MS * POLL_RETRIES / 1000)) s; waves $(counter last_rejoin_wave_ms) ms" \
	"(N / rejoin_rate $((N * 1000 / RATE)) ms)"
ktap_diag "rejoin_failures $(counter rejoin_failures), sa_timeouts $(counter sa_timeouts)"

# --- A returns with the higher priority: handover --------------------------------
w0=$(waves)
r0=$(counter sm_reregisters)
j0=$(counter group_rejoins)
t0=$EPOCHREALTIME
osm a $G1 10
check "A returns: B hands over, A is MASTER" \
	wait_for -t 180 is_state 1 "$L1" SMINFO_MASTER || osm_diag
t_master=$(since "$t0")
check "B is STANDBY again" wait_for -t 60 is_state 1 "$L2" SMINFO_STANDBY
recovered A "$L1" 2
states=$(grep -o 'Entering [A-Z]* state' "$(mcg_opensm_log a)" | awk '{print $2}' | xargs)
check "A's states: STANDBY, then MASTER (handed over by the live B)" \
	grep -q "STANDBY MASTER" <<<"$states" || ktap_diag "A: $states"
ktap_diag "handover: A started -> A MASTER ${t_master} s, -> full membership ${t_full} s;" \
	"waves $(counter last_rejoin_wave_ms) ms (N / rejoin_rate $((N * 1000 / RATE)) ms)"
ktap_diag "rejoin_failures $(counter rejoin_failures), sa_timeouts $(counter sa_timeouts)"
ktap_diag "sma: $(grep '^smp_\|^gsi_' $D/sma | tr '\n' ' ')"
check "rmmod with the groups held" mcg_unload
mcg_opensm_stop_all
ktap_finish
