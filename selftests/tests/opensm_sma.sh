#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# simhca's SMA, checked the way an admin checks a fabric, then swept by the
# real SM: simhca with internal_sa=N (its SA off, the ports in INIT with no
# LID), two ports on the simulated switch. ibnetdiscover finds the switch
# and both ports by directed route, smpquery answers NodeInfo and PortInfo;
# OpenSM on port 1 becomes MASTER (sminfo, from both ports), assigns the
# LIDs it records in its guid2lid cache, brings both ports to ACTIVE
# (PORT_ACTIVE, LID_CHANGE, SM_CHANGE, CLIENT_REREGISTER raised from its
# Sets), sets IsSM on its port (issm0), and programs the switch's LFT, which
# ibroute shows and LID-routed SMPs follow. A link that goes down comes back
# in INIT and OpenSM brings it to ACTIVE again. Traps: the switch tells the
# SM of a link's change by a trap 128, which OpenSM represses and sweeps on:
# with its periodic sweep off, the trap alone brings the port back; with no
# SM the trap is sent once per TrapTimer, 5 times, and given up.
# timeout: 400
. "$(dirname "$0")/../lib.sh"

modinfo simhca >/dev/null 2>&1 || ktap_skip_all "simhca.ko not built"
for b in opensm sminfo smpquery ibnetdiscover ibroute; do
	command -v $b >/dev/null || ktap_skip_all "$b not installed (make deps)"
done
D=/sys/kernel/debug/simhca/simhca0
S=/sys/class/infiniband/simhca0/ports
G1=0x0053494d48434101		# port 1's GUID
G2=0x0053494d48434102
GSW=0x0053494d48434108		# the switch's
GCA=0x0053494d48434100		# the CA's
OSM_LOG=$(mcg_opensm_log sm)
OSM_CACHE=$(mcg_opensm_cache sm)

unload() { [ -d /sys/module/simhca ] && rmmod simhca; return 0; }
osm_diag() {
	ktap_diag "opensm log (tail):"
	tail -n 30 $OSM_LOG 2>/dev/null | while read -r l; do ktap_diag "  $l"; done
	while read -r l; do ktap_diag "  sma: $l"; done <$D/sma
}
# sma_above KEY N: the SMA's counter KEY is above N
sma_above() { [ "$(mcg_sma "$1")" -gt "$2" ]; }
flap2() {
	echo down >$D/port2/state
	echo up >$D/port2/state
}
# smpquery FIELD of ATTR at directed route PATH: the value after the dots
smp() {
	smpquery -C simhca0 -P 1 -D "$1" "$2" ${3:+"$3"} |
		sed -n "s/^$4:\.*\(.*\)$/\1/p"
}
smp_lid() {
	smpquery -C simhca0 -P "$1" "$2" "$3" ${4:+"$4"} |
		sed -n "s/^$5:\.*\(.*\)$/\1/p"
}
sminfo_master() { sminfo -C simhca0 -P "$1" | grep -q 'SMINFO_MASTER'; }
# IsSM (CapabilityMask bit 1) on port 1, not on port 2
is_sm() { grep -q "^port $1 .*cap_mask 0x.......[2367abef]\$" $D/sma; }
is_sm_1_only() { is_sm 1 && ! is_sm 2; }
# the switch's port N to the CA's port N in ibnetdiscover's output $1
cabled() {
	grep -q "^\[1\][[:space:]]*\"H-${GCA#0x}\"\[1\]" <<<"$1" &&
		grep -q "^\[2\][[:space:]]*\"H-${GCA#0x}\"\[2\]" <<<"$1"
}
# the LID OpenSM recorded for GUID in its cache
osm_lid() {
	printf %d "$(awk -v g="$1" '($1 "") == g {print $2; exit}' $OSM_CACHE/guid2lid)"
}

ktap_plan 34
modprobe ib_umad
unload
check "load simhca with 2 ports, internal_sa=N" \
	modprobe simhca nports=2 internal_sa=0 || ktap_skip_all "no simhca"
defer unload

check_eq "ports start in INIT with no LID" "INIT INIT 0x0 0x0" \
	"$(mcg_port_state 1) $(mcg_port_state 2) $(cat $S/1/lid) $(cat $S/2/lid)"

# --- the SMA, before any SM ---------------------------------------------------
net=$(ibnetdiscover -C simhca0 -P 1 2>&1)
check "ibnetdiscover: the switch, 2 ports" \
	grep -q "^Switch[[:space:]]*2 \"S-${GSW#0x}\"" <<<"$net"
check "ibnetdiscover: the CA, 2 ports" \
	grep -q "^Ca[[:space:]]*2 \"H-${GCA#0x}\"" <<<"$net"
check "ibnetdiscover: switch ports 1 and 2 cabled to CA ports 1 and 2" \
	cabled "$net"
grep -q '^Ca' <<<"$net" || ktap_diag "$net"
check_eq "smpquery nodeinfo (hop 0): the CA, port 1" \
	"Channel Adapter $G1 1" \
	"$(smp nodeinfo 0 '' NodeType) $(smp nodeinfo 0 '' PortGuid) $(smp nodeinfo 0 '' LocalPort)"
check_eq "smpquery nodeinfo 0,1: the switch, entered by port 1" \
	"Switch $GSW 1" \
	"$(smp nodeinfo 0,1 '' NodeType) $(smp nodeinfo 0,1 '' Guid) $(smp nodeinfo 0,1 '' LocalPort)"
check_eq "smpquery nodeinfo 0,1,2: the CA, port 2" "$G2 2" \
	"$(smp nodeinfo 0,1,2 '' PortGuid) $(smp nodeinfo 0,1,2 '' LocalPort)"
check_eq "smpquery portinfo: port 1 Initialize, LinkUp, LID 0" \
	"Initialize LinkUp 0" \
	"$(smp portinfo 0 1 LinkState) $(smp portinfo 0 1 PhysLinkState) $(smp portinfo 0 1 Lid)"
check_eq "smpquery portinfo: switch port 2 Initialize" "Initialize" \
	"$(smp portinfo 0,1 2 LinkState)"
check_fail "no SM yet: sminfo fails" sminfo_master 1

# --- OpenSM --------------------------------------------------------------------
echo 0 >$D/stats
t0=$(date +%s.%N)
mcg_opensm_start sm $G1
check "OpenSM becomes MASTER (sminfo on port 1)" wait_for -t 90 sminfo_master 1 ||
	osm_diag
check "both ports go ACTIVE" wait_for -t 90 mcg_ports_active || osm_diag
ktap_diag "opensm start to both ports ACTIVE: $(awk -v a="$t0" -v b="$(date +%s.%N)" \
	'BEGIN {printf "%.1f", b - a}') s"
check "sminfo from port 2 (LID routed through the LFT)" sminfo_master 2
wait_for -t 30 test -s $OSM_CACHE/guid2lid
l1=$(printf %d "$(cat $S/1/lid)")
l2=$(printf %d "$(cat $S/2/lid)")
check_eq "the ports have the LIDs OpenSM assigned (guid2lid)" \
	"$(osm_lid $G1) $(osm_lid $G2)" "$l1 $l2" ||
	ktap_diag "guid2lid: $(tr '\n' ';' <$OSM_CACHE/guid2lid)"
check_eq "both ports' SM LID is port 1's LID" "$l1 $l1" \
	"$(printf %d "$(cat $S/1/sm_lid)") $(printf %d "$(cat $S/2/sm_lid)")"
check "IsSM set on port 1 (issm0), not on port 2" is_sm_1_only
check "events: PORT_ACTIVE, LID_CHANGE, SM_CHANGE, CLIENT_REREGISTER" \
	test "$(sa_stat event_port_active)" -ge 2 -a "$(sa_stat event_lid_change)" -ge 2 \
	     -a "$(sa_stat event_sm_change)" -ge 2 -a "$(sa_stat event_client_reregister)" -ge 2
ktap_diag "events: $(grep '^event_' $D/stats | tr '\n' ' ')"

lsw=$(osm_lid $GSW)
check_eq "smpquery nodeinfo by LID (port 2's): its GUID" "$G2" \
	"$(smp_lid 1 nodeinfo "$l2" '' PortGuid)"
check_eq "smpquery portinfo by LID (the switch's): port 2 Active" "Active" \
	"$(smp_lid 1 portinfo "$lsw" 2 LinkState)"
rt=$(ibroute -C simhca0 -P 1 "$lsw" 2>&1)
check "ibroute: port 1's LID on switch port 1" \
	grep -qi "^0x0*$(printf %x "$l1") 001 " <<<"$rt"
check "ibroute: port 2's LID on switch port 2" \
	grep -qi "^0x0*$(printf %x "$l2") 002 " <<<"$rt"
check "ibroute: the switch's own LID on port 0" \
	grep -qi "^0x0*$(printf %x "$lsw") 000 " <<<"$rt"
grep -q "^0x" <<<"$rt" || ktap_diag "$rt"

# --- the link of port 2 goes down and comes back -------------------------------
# OpenSM's sweep on the trap of the link's going down can bring port 2
# back before this shell reads its state, so that it came back in INIT is
# read from the Set that armed it (INIT -> ARMED), not from a sample
pa=$(sa_stat event_port_active)
pe=$(sa_stat event_port_err)
ar=$(mcg_sma ca_armed)
flap2
check_eq "port 2's link goes down and up: PORT_ERR raised" "$((pe + 1))" \
	"$(sa_stat event_port_err)"
port2_back() {
	[ "$(mcg_port_state 2)" = ACTIVE ] && [ "$(sa_stat event_port_active)" -gt "$pa" ]
}
check "OpenSM brings port 2 to ACTIVE again (PORT_ACTIVE)" \
	wait_for -t 60 port2_back
check_eq "... from INIT: OpenSM armed it once" $((ar + 1)) "$(mcg_sma ca_armed)"

# --- traps -------------------------------------------------------------------
check "the switch sent a trap 128 and OpenSM repressed it" \
	test "$(mcg_sma trap_sent)" -ge 1 -a "$(mcg_sma trap_repressed)" -ge 1 || osm_diag
check "OpenSM's log: trap 128 (link state) from the switch's LID" \
	grep -q "Received Generic Notice type:1 num:128 .* from LID:$lsw TID" $OSM_LOG
mcg_opensm_stop sm
# OpenSM again, without its periodic sweep: only a trap makes it sweep
MCG_OSM_SWEEP=0 mcg_opensm_start sm $G1
check "OpenSM with no periodic sweep (-s 0): MASTER, both ports ACTIVE" \
	wait_for -t 90 mcg_ports_active || osm_diag
wait_for -t 30 sminfo_master 1
pa=$(sa_stat event_port_active)
rp=$(mcg_sma trap_repressed)
flap2
check "no periodic sweep: the trap alone has OpenSM bring port 2 back" \
	wait_for -t 30 port2_back || osm_diag
check "... after it repressed the trap" sma_above trap_repressed "$rp"
mcg_opensm_stop sm
# No SM: the trap of one change (the link goes down) goes every TrapTimer
# (4.096 us x 2^SubnetTimeOut, OpenSM's 18: about 1 s) and is given up
# after 5 sends
sent=$(mcg_sma trap_sent)
un=$(mcg_sma trap_unrepressed)
echo down >$D/port2/state
check "no SM: the trap is given up" wait_for -t 30 sma_above trap_unrepressed "$un"
check_eq "... after 5 sends" 5 "$(($(mcg_sma trap_sent) - sent))"
echo up >$D/port2/state
check_eq "... and port 2, up again, stays in INIT" INIT "$(mcg_port_state 2)"
ktap_finish
