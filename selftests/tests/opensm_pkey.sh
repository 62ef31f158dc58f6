#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Partitions from OpenSM's partitions.conf, and what its SA refuses for
# them (simhca internal_sa=N, OpenSM on port 1). P1=0x8001 has port 1
# only: OpenSM writes it into port 1's P_Key table (the module sees the
# PKEY_CHANGE), never into port 2's.
#  - port 1 creates a group in P1: OpenSM's record has P_Key 0x8001;
#  - port 2 joining it by MGID (no P_Key of its own to check) is refused
#    by OpenSM (ERR 1B14: the port is not in the group's partition), and
#    holds nothing; asked with the P_Key, the module refuses it first;
#  - a create naming P_Key 0x8001 for a group OpenSM has in the default
#    partition is refused (ERR 1B32: P_Key base mismatch), and holds
#    nothing;
#  - the limited P_Key of the default partition (0x7fff) for a group
#    OpenSM has with 0xffff: OpenSM accepts it (it compares partitions,
#    and needs one of the two P_Keys full), but the kernel's multicast.c
#    compares the P_Key of the record it gets exactly with the one asked
#    for and fails the join (-EINVAL): refused, nothing held, and
#    multicast.c's membership leaves the SA again;
#  - the group's own P_Key is joined.
# timeout: 300
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
for b in opensm saquery sa_mcm jq; do
	command -v $b >/dev/null || ktap_skip_all "$b not installed (make deps)"
done
G1=0x0053494d48434101
OSM_LOG=$(mcg_opensm_log sm)
PARTS=/tmp/opensm-sm-partitions.conf
GP=ff12:1234::81		# in P1
GD=ff12:1234::82		# in the default partition
GD2=ff12:1234::83
cat >$PARTS <<EOF
Default=0x7fff, ipoib : ALL=full ;
P1=0x8001 : $G1=full ;
EOF
defer rm -f $PARTS

pkeys() { cat /sys/class/infiniband/simhca0/ports/"$1"/pkeys/* | grep -v '^0x0000$' | sort | xargs; }
has_p1() { pkeys 1 | grep -q 0x8001; }
# OpenSM's record of MGID, asked from PORT: its P_Key
sa_pkey() {
	sa_mcm -d simhca0 -p "$1" get mgid="$2" 2>/dev/null |
		sed -n 's/.* pkey=\(0x[0-9a-f]*\) .*/\1/p'
}
err_count() { grep -c "ERR $1" $OSM_LOG; }
# port_not_in PORT MGID: OpenSM has no member of MGID from PORT
port_not_in() { [ -z "$(mcg_sa_member_of "$1" "$2")" ]; }
held() { cat $SYS/groups $SYS/holders | xargs; }

ktap_plan 23
modprobe ib_umad
mcg_unload_simhca
check "load simhca with 2 ports, internal_sa=N" \
	modprobe simhca nports=2 internal_sa=0 || ktap_skip_all "no simhca"
defer mcg_unload_simhca
mcg_opensm_start sm $G1 partition_config_file $PARTS
check "OpenSM brings both ports to ACTIVE, its SA answers" mcg_opensm_up || mcg_opensm_errors
check "OpenSM wrote P1 (0x8001) into port 1's P_Key table" wait_for -t 30 has_p1
check_eq "and not into port 2's" 0xffff "$(pkeys 2)"
check "load ib_mcgroups" mcg_load settle_ms=300 backoff_base_ms=200
echo $((10000 * ${TIMEOUT_SCALE:-1})) >/sys/module/ib_mcgroups/parameters/join_wait_ms

# --- a group in P1 ------------------------------------------------------------------
check "port 1 creates $GP in P1" mcctl join $P $GP owner a create pkey 0x8001 ||
	mcg_opensm_errors
check_eq "OpenSM's record has P_Key 0x8001" 0x8001 "$(sa_pkey 1 $GP)"
before=$(held)
n=$(err_count 1B14)
err=$(mcctl join simhca0/2 $GP owner b 2>&1)
check_eq "port 2, not in P1, joining it by MGID: refused" 1 $?
ktap_diag "$err"
check "by OpenSM (ERR 1B14: not in the group's partition)" \
	test "$(err_count 1B14)" -gt "$n"
check "with the SA's rejection" grep -q "SA rejected" <<<"$err"
err=$(mcctl join simhca0/2 $GP owner b create pkey 0x8001 2>&1)
check_eq "asked with P_Key 0x8001: the module refuses it first" 1 $?
check "naming the P_Key table" grep -q "P_Key table" <<<"$err"
check_eq "neither left a group or hold" "$before" "$(held)"

# --- groups in the default partition ------------------------------------------------
check "port 2 creates $GD and $GD2 (P_Key 0xffff)" sh -c \
	"mcctl join simhca0/2 $GD owner c create && mcctl join simhca0/2 $GD2 owner c create"
before=$(held)
n=$(grep -c ERR $OSM_LOG)
err=$(mcctl join $P $GD owner d create pkey 0x7fff 2>&1)
check_eq "port 1 asking the limited P_Key 0x7fff of $GD: refused" 1 $?
ktap_diag "$err"
check_eq "not by OpenSM: no error in its log" "$n" "$(grep -c ERR $OSM_LOG)"
check_eq "nothing held" "$before" "$(held)"
check "and multicast.c's membership left the SA again" \
	wait_for -t 20 port_not_in 1 $GD
check_eq "the group keeps P_Key 0xffff" 0xffff "$(sa_pkey 1 $GD)"
n=$(err_count 1B32)
err=$(mcctl join $P $GD2 owner d create pkey 0x8001 2>&1)
check_eq "port 1 creating $GD2 in P1: refused" 1 $?
ktap_diag "$err"
check "by OpenSM (ERR 1B32: P_Key base mismatch)" \
	test "$(err_count 1B32)" -gt "$n"
check_eq "and nothing held" "$before" "$(held)"
out=$(mcctl -j join $P $GD2 owner d create 2>&1)
check_eq "then with its own P_Key 0xffff: joined" joined \
	"$(jq -r .state <<<"$out" 2>/dev/null)" || { ktap_diag "$out"; mcg_opensm_errors; }
mcg_unload
mcg_opensm_stop sm
ktap_finish
