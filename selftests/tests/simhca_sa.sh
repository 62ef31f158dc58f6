#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The simulated SA's MCMemberRecord rules (as opensm): create, join an
# existing group, SA-assigned MGID, JoinState OR-ed per port, missing
# components, bad MGIDs, P_Key not held, a limited P_Key of the group's
# partition (accepted, as OpenSM), MTU selectors, Q_Key mismatch,
# MLID exhaustion, Get, trusted and untrusted queries (another SM_Key: no
# answer, as OpenSM), leave of bits not
# held, and the group going away when its last full member leaves.
# Two ports: port 2 joins the groups port 1 creates.
# timeout: 180
. "$(dirname "$0")/../lib.sh"

modinfo simhca >/dev/null 2>&1 || ktap_skip_all "simhca.ko not built"
D=/sys/kernel/debug/simhca/simhca0
G=ff12:401b:ffff::1

unload() { [ -d /sys/module/simhca ] && rmmod simhca; return 0; }
S() { sa_mcm -d simhca0 -p 1 "$@"; }
S2() { sa_mcm -d simhca0 -p 2 "$@"; }
# st CMD...: the MAD status CMD printed
st() { "$@" 2>/dev/null | sed -n '1s/^status=\([^ ]*\).*/\1/p'; }
# field NAME CMD...: NAME=VALUE from the first record CMD printed
field() {
	local n=$1
	shift
	"$@" 2>/dev/null | sed -n "2s/.* $n=\([^ ]*\).*/\1/p"
}
# held BYPORTGID: the JoinState sa_db holds for the port with that GID in $G
held() {
	awk -v g="gid=$1" -v m="mgid=$G" '$1 == "member" && $2 == m && $4 == g {
		sub("join=", "", $5); print $5 }' $D/sa_db
}

ktap_plan 43
modprobe ib_umad
unload
check "load simhca with 2 ports" modprobe simhca nports=2 || ktap_skip_all "no simhca"
defer unload

out=$(S set create mgid=$G)
check_eq "create $G" 0x0000 "$(sed -n '1s/^status=\([^ ]*\).*/\1/p' <<<"$out")"
check_eq "first MLID is 0xC000" 0xc000 "$(sed -n '2s/.* mlid=\([^ ]*\).*/\1/p' <<<"$out")"
check_eq "group MTU 4096 exactly, rate 100G exactly" "0x85 0x90" \
	"$(sed -n '2s/.* mtu=\([^ ]*\).* rate=\([^ ]*\).*/\1 \2/p' <<<"$out")"
check "sa_db has the group" grep -q "^group mgid=$G mlid=0xc000 pkey=0xffff" $D/sa_db
P1=$(sa_mcm -d simhca0 -p 1 -k 1 get mgid=$G port_gid=self join=1 | sed -n '2s/.* port_gid=\([^ ]*\).*/\1/p')
P2=${P1%1}2
check_eq "port 1 is a full member" 0x1 "$(held "$P1")"

check_eq "port 2 joins as non-member (MGID, PortGID, JoinState only)" 0x0000 \
	"$(st S2 set mgid=$G port_gid=self join=2)"
check_eq "two members" "members=2" "$(grep -o 'members=[0-9]*' $D/sa_db)"
check_eq "port 1 adds NonMember: JoinState OR-ed" 0x3 \
	"$(field join S set mgid=$G port_gid=self join=2)"
check_eq "sa_db: port 1 holds 0x3, port 2 0x2" "0x3 0x2" "$(held "$P1") $(held "$P2")"

check_eq "Set without JoinState: insufficient components" 0x0600 \
	"$(st S set mgid=$G port_gid=self)"
check_eq "create without Q_Key etc.: insufficient components" 0x0600 \
	"$(st S set mgid=ff12:401b:ffff::2 port_gid=self join=1)"
check_eq "create as non-member: invalid" 0x0200 \
	"$(st S set create mgid=ff12:401b:ffff::3 join=2)"
check_eq "MGID not starting with 0xff: invalid" 0x0200 \
	"$(st S set create mgid=fe12:401b:ffff::4)"
check_eq "MGID with reserved flags: invalid" 0x0200 \
	"$(st S set create mgid=ff32:1234::4)"
check_eq "A01B signature with link-local scope: invalid" 0x0200 \
	"$(st S set create mgid=ff12:a01b::4)"
check_eq "P_Key the port does not hold: invalid" 0x0200 \
	"$(st S set create mgid=ff12:401b:8123::1 pkey=0x8123)"
check_eq "join with another Q_Key: invalid" 0x0200 \
	"$(st S2 set mgid=$G port_gid=self join=1 qkey=0x1234)"
check_eq "join with the limited P_Key 0x7fff: the same partition (as OpenSM)" 0x0000 \
	"$(st S2 set mgid=$G port_gid=self join=2 pkey=0x7fff)"
check_eq "join with MTU selector 'less than 2048': invalid" 0x0200 \
	"$(st S2 set mgid=$G port_gid=self join=1 mtu=1:4)"
check_eq "create with MTU 'less than 4096' gets 2048" 0x84 \
	"$(field mtu S set create mgid=ff12:401b:ffff::5 mtu=1:5)"
check_eq "create with rate 'greater than 100G': not realizable" 0x0200 \
	"$(st S set create mgid=ff12:401b:ffff::6 rate=0:16)"

sa_out=$(S set create mgid=::)
mgid=$(sed -n '2s/^ mgid=\([^ ]*\).*/\1/p' <<<"$sa_out")
sa_assigned() { grep -q '^status=0x0000' <<<"$sa_out" && [[ $mgid == ff12:a01b:fe80::* ]]; }
check "all-zero MGID: SA assigns ff12:a01b:<prefix>:<n> ($mgid)" sa_assigned
check "sa_db has the SA-assigned group" grep -q "^group mgid=$mgid " $D/sa_db

check_eq "Get of $G" 0xc000 "$(field mlid S get mgid=$G)"
check_eq "Get of an unknown MGID: no records" 0x0300 "$(st S get mgid=ff12:401b:ffff::77)"
check_eq "untrusted GetTable hides PortGID and JoinState" "3 0" \
	"$(S gettable | awk 'NR == 1 {sub("records=", "", $3); n = $3}
		NR > 1 && ($2 != "port_gid=::" || $NF != "proxy=0" || $(NF-1) != "join=0x0") {bad++}
		END {print n, bad + 0}')"
check_eq "trusted GetTable lists members (2 + 1 + 1)" "records=4" \
	"$(sa_mcm -d simhca0 -k 1 gettable | sed -n '1s/.* //p')"
echo 1 >$D/stats
check_eq "wrong SM_Key: no answer, as OpenSM's" timeout \
	"$(sa_mcm -d simhca0 -k 7 -t 300 -r 0 gettable | sed -n '1s/^status=\([^ ]*\).*/\1/p')"
check_eq "counted as dropped" 1 "$(awk '$1 == "drop_bad_smkey" {print $2}' $D/stats)"

echo 4 >$D/mlid_capacity
check_eq "4th group with capacity 4" 0x0000 "$(st S set create mgid=ff12:401b:ffff::8)"
check_eq "5th group: MLIDs exhausted" 0x0100 "$(st S set create mgid=ff12:401b:ffff::9)"

check_eq "port 2 leaves a bit it does not hold: invalid" 0x0200 \
	"$(st S2 delete mgid=$G port_gid=self join=1)"
check_eq "port 1 leaves NonMember" 0x0000 "$(st S delete mgid=$G port_gid=self join=2)"
check_eq "port 1 leaves again: not held" 0x0200 "$(st S delete mgid=$G port_gid=self join=2)"
check_eq "last full member leaves" 0x0000 "$(st S delete mgid=$G port_gid=self join=1)"
check "group deleted although port 2 is still a non-member" \
	__lib_not grep -q "mgid=$G " $D/sa_db
check "MFT: 0xc000 forwards nowhere once its group is gone" \
	__lib_not grep -q '^mlid=0xc000 ' $D/mft
check_eq "a new group gets the freed MLID 0xc000" 0xc000 \
	"$(field mlid S set create mgid=ff12:401b:ffff::a)"
check_eq "MFT: 0xc000 forwards to port 1 only (its new group's member)" \
	"mlid=0xc000 ports=1" "$(grep '^mlid=0xc000 ' $D/mft)"
check_eq "Get by MLID alone finds that group" ff12:401b:ffff::a \
	"$(field mgid S get mlid=0xc000)"
check_eq "Get by an MLID no group has: no records" 0x0300 \
	"$(st S get mlid=0xc0ff)"
# The SA's groups are in a slab cache of their own, not merged with
# another, so that a benchmark can tell simhca's memory from others'.
check "slab cache simhca_mcm holds the SA's $(awk '$1 == "groups" {print $2}' $D/stats) groups" \
	awk -v n="$(awk '$1 == "groups" {print $2}' $D/stats)" \
	'$1 == "simhca_mcm" {found = 1; ok = $3 >= n} END {exit !(found && ok)}' /proc/slabinfo
ktap_diag "$(cat $D/sa_db)"
ktap_finish
