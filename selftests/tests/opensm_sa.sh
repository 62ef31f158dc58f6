#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# ib_mcgroups against OpenSM's SA: simhca with internal_sa=N routes QP1
# MADs by DLID, so the kernel's SA client on either port reaches OpenSM
# (on port 1) and back. saquery from port 2 reads OpenSM's records (its
# IPoIB broadcast group included); OpenSM refuses to create a group with
# the IPoIB signature whose Q_Key is not the broadcast group's (simhca's
# internal SA does not); port 1 creates a group send-only and port 2
# joins it: saquery -m shows both members, OpenSM programs the switch's
# MFT (ibroute -M, and the table the simulated switch forwards by), and
# datagrams from port 1 reach port 2; after port 2 leaves, they do not.
# Creates: OpenSM assigns an MGID when none is given, and refuses a
# requested link-local A01B MGID and a group faster than the port.
# timeout: 400
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
for b in opensm saquery ibroute; do
	command -v $b >/dev/null || ktap_skip_all "$b not installed (make deps)"
done
PARAM=/sys/module/ib_mcgroups/parameters
G1=0x0053494d48434101
GSW=0x0053494d48434108
OSM_LOG=$(mcg_opensm_log sm)
G=ff12:1234::1			# no IPoIB signature (0x401b)
GI=ff12:401b:ffff::1		# with it
COUNT=20

# the MLID ibroute -M shows with the number of ports it forwards to
ib_mft() {
	ibroute -C simhca0 -P 1 -M "$LSW" |
		awk -v l="$1" 'tolower($1) == l {print $1, gsub(/x/, "x")}'
}
sa_has_no() { ! saquery -C simhca0 -P 2 -g | grep -qi "MGID\.*$1\$"; }
received() {
	echo clear >$D/ud
	echo "send 1 $G $MLID $COUNT" >$D/ud || { echo send-failed; return; }
	mcg_ud_field 2 received
}

ktap_plan 26
modprobe ib_umad
mcg_unload_simhca
check "load simhca with 2 ports, internal_sa=N" \
	modprobe simhca nports=2 internal_sa=0 || ktap_skip_all "no simhca"
defer mcg_unload_simhca
mcg_opensm_start sm $G1
check "OpenSM brings both ports to ACTIVE" wait_for -t 90 mcg_ports_active
check "OpenSM's SA answers port 2 (saquery)" wait_for -t 60 mcg_sa_up || mcg_opensm_errors
LSW=$(printf %d "$(awk -v g=$GSW '($1 "") == g {print $2}' "$(mcg_opensm_cache sm)/guid2lid")")
check_eq "its NodeRecords: both CA ports and the switch" 3 \
	"$(saquery -C simhca0 -P 2 | grep -c 'NodeRecord dump')"
check "OpenSM created the IPoIB broadcast group itself" \
	sh -c "saquery -C simhca0 -P 2 -g | grep -q 'MGID\.*ff12:401b:ffff::ffff:ffff\$'"

check "load ib_mcgroups" mcg_load settle_ms=300 backoff_base_ms=200
echo $((10000 * ${TIMEOUT_SCALE:-1})) >$PARAM/join_wait_ms
check_fail "OpenSM refuses an IPoIB-signature group with another Q_Key" \
	mcctl join simhca0/1 $GI owner a create
grep -q "ERR 1B30: Q_Key mismatch" $OSM_LOG ||
	ktap_diag "no Q_Key mismatch in OpenSM's log"

out=$(mcctl -j join simhca0/1 $G owner s state sendonly-full create 2>&1)
check_eq "port 1 creates $G send-only full through OpenSM" joined \
	"$(jq -r .state <<<"$out" 2>/dev/null)" || { ktap_diag "$out"; mcg_opensm_errors; }
MLID=$(printf '0x%04x' "$(jq -r .mlid <<<"$out" 2>/dev/null)")
ktap_diag "OpenSM gave $G MLID $MLID"
check_eq "no MFT entry for a group of send-only members" "" "$(ib_mft "$MLID")"
out=$(mcctl -j join simhca0/2 $G owner r 2>&1)
check_eq "port 2 joins it (full), same MLID" "joined $MLID" \
	"$(jq -r .state <<<"$out" 2>/dev/null) $(printf '0x%04x' "$(jq -r .mlid <<<"$out" 2>/dev/null)")"
check_eq "saquery -m: both ports, send-only full and full" \
	"fe80::53:494d:4843:4101 0x8
fe80::53:494d:4843:4102 0x1" "$(mcg_sa_members $G)"
# OpenSM's full MFT rebuild puts every member's port in the tree, the
# send-only port 1 too (simhca's internal SA leaves it out): the switch
# never sends a datagram back out of its ingress port either way.
check "ibroute -M: OpenSM programmed $MLID" \
	wait_for -t 20 sh -c "ibroute -C simhca0 -P 1 -M $LSW | grep -qi '^$MLID .*x'"
check "the switch forwards $MLID to port 2 as OpenSM set it" \
	grep -q "^mlid=$MLID ports=.*2" $D/mft
echo "attach 2 $G $MLID" >$D/ud
check_eq "all $COUNT datagrams from port 1 reach port 2" $COUNT "$(received)"

check "port 2 leaves" mcctl leave simhca0/2 $G owner r
check_eq "saquery -m: port 1 only" "fe80::53:494d:4843:4101 0x8" "$(mcg_sa_members $G)"
check "OpenSM removes $MLID from the MFT" \
	wait_for -t 20 sh -c "! grep -q '^mlid=$MLID ' $D/mft"
check_eq "no datagram reaches port 2" 0 "$(received)"

# --- creates: an MGID OpenSM assigns, and what it refuses -----------------------
out=$(mcctl join $P 0 owner d create 2>&1)
mgid=$(sed -n 's/.*assigned mgid \([^ ]*\).*/\1/p' <<<"$out" | head -n1)
check "OpenSM assigns an MGID (A01B signature)" \
	grep -q '^ff1[0-9a-f]:a01b:' <<<"$mgid" || { ktap_diag "$out"; mcg_opensm_errors; }
check_eq "held under it, and saquery -m has port 1" "joined fe80::53:494d:4843:4101 0x1" \
	"$(mcctl -j show $P "$mgid" | jq -r .state) $(mcg_sa_members "$mgid")"
before=$(cat $SYS/groups $SYS/holders | xargs)
# IBA o15-0.1.5 as OpenSM reads it: A01B is the SA's, never link-local
err=$(mcctl join $P ff12:a01b::5 owner e create 2>&1)
rc=$?
check "OpenSM refuses a requested link-local A01B MGID (ERR 1B24)" \
	test "$rc" = 1 -a "$(grep -c 'ERR 1B24' $OSM_LOG)" -ge 1 || ktap_diag "$err"
grep 'ERR 1B24' $OSM_LOG | while read -r l; do ktap_diag "  $l"; done
# validate_port_caps(): the creator must meet the group's rate (4X QDR)
err=$(mcctl join $P ff12:1234::7 owner e create rate 100 2>&1)
rc=$?
check "OpenSM refuses a create at 100 Gb/s from a 40 Gb/s port (ERR 1B12)" \
	test "$rc" = 1 -a "$(grep -c 'ERR 1B12' $OSM_LOG)" -ge 1 || ktap_diag "$err"
check "with the SA's rejection" grep -q "SA rejected" <<<"$err"
check_eq "neither left a group or hold" "$before" "$(cat $SYS/groups $SYS/holders | xargs)"
check "d leaves the SA-assigned group" mcctl leave $P "$mgid" owner d
check "OpenSM deletes it" wait_for -t 20 sa_has_no "$mgid"
ktap_diag "QP1 MADs routed $(mcg_sma gsi_routed), dropped $(mcg_sma gsi_dropped)"
mcg_unload
mcg_opensm_stop sm
ktap_finish
