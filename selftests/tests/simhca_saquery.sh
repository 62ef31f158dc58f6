#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# saquery (infiniband-diags, through ib_umad and the kernel's RMPP
# receiver) lists exactly the groups and members of the simulated SA's
# database: with one group, and with 250 groups, whose GetTableResp takes
# 80 RMPP segments, more than the receiver's first window.
# timeout: 300
. "$(dirname "$0")/../lib.sh"

modinfo simhca >/dev/null 2>&1 || ktap_skip_all "simhca.ko not built"
command -v saquery >/dev/null || ktap_skip_all "saquery not installed"
D=/sys/kernel/debug/simhca/simhca0
N=250

unload() { [ -d /sys/module/simhca ] && rmmod simhca; return 0; }

# MGIDs saquery -g lists / sa_db has, sorted
sq_groups() {
	saquery -C simhca0 -g | sed -n 's/^[[:space:]]*MGID\.*\(.*\)$/\1/p' | sort
}
db_groups() { sed -n 's/^group mgid=\([^ ]*\) .*/\1/p' $D/sa_db | sort; }
# "MGID MLID PORTGID JOINSTATE" per member, from saquery -m / sa_db
sq_members() {
	saquery -C simhca0 --smkey 1 -m | awk '
		/MGID\./ {sub(/.*\.\.\./, ""); m = $0}
		/Mlid\./ {sub(/.*\.\.\./, ""); l = tolower($0)}
		/PortGid\./ {sub(/.*\.\.\./, ""); g = $0}
		/ScopeState\./ {print m, l, g, "0x" substr($0, length($0))}' |
		sort
}
db_members() {
	awk '$1 == "member" {
		sub("mgid=", "", $2); sub("mlid=", "", $3); sub("gid=", "", $4)
		sub("join=", "", $5); print $2, $3, $4, $5}' $D/sa_db |
		sort
}

ktap_plan 14
modprobe ib_umad
unload
check "load simhca with 2 ports" modprobe simhca nports=2 || ktap_skip_all "no simhca"
defer unload

check "saquery NodeRecords: both ports" \
	sh -c 'test "$(saquery -C simhca0 | grep -c "NodeDescription.*simhca0 simulated HCA")" = 2'
check "create one group" sa_mcm -d simhca0 set create mgid=ff12:401b:ffff::1
check_eq "saquery -g: the one group" "$(db_groups)" "$(sq_groups)"
check "port 2 joins it" sa_mcm -d simhca0 -p 2 set mgid=ff12:401b:ffff::1 port_gid=self join=2
check_eq "saquery -m: both members" "$(db_members)" "$(sq_members)"
check_eq "saquery -m without SM_Key: PortGid hidden" "::" \
	"$(saquery -C simhca0 -m | sed -n 's/^[[:space:]]*PortGid\.*\(.*\)$/\1/p' | sort -u)"

rc=0
for i in $(seq 2 $N); do
	sa_mcm -d simhca0 set create mgid="ff12:401b:ffff::$(printf %x "$i")" \
		>/dev/null || { rc=1; break; }
done
for i in $(seq 2 10); do
	sa_mcm -d simhca0 -p 2 set mgid="ff12:401b:ffff::$(printf %x "$i")" \
		port_gid=self join=1 >/dev/null || rc=1
done
check "create $N groups, port 2 joins 10" test $rc = 0
check_eq "sa_db: $N groups" $N "$(sa_stat groups)"
echo 0 >$D/stats
g=$(sq_groups)
check_eq "saquery -g: the $N groups" "$(db_groups)" "$g"
check_eq "saquery -g count" $N "$(wc -l <<<"$g")"
check_eq "answer took 80 RMPP segments" 80 "$(sa_stat rmpp_segments)"
m=$(sq_members)
check_eq "saquery -m: the $((N + 10)) members" "$(db_members)" "$m"
check "sa_mcm gettable agrees" \
	sh -c "test \"\$(sa_mcm -d simhca0 -k 1 gettable | sed -n '1s/.*records=//p')\" = $((N + 10))"
ktap_finish
