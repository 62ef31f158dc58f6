#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# simhca registers an InfiniBand CA with an ACTIVE port, ib_umad and
# ibstat see it, the simulated SA answers ClassPortInfo and an empty
# MCMemberRecord table, and 20 load/unload cycles leave no splat (the
# harness checks dmesg).
# timeout: 300
. "$(dirname "$0")/../lib.sh"

modinfo simhca >/dev/null 2>&1 || ktap_skip_all "simhca.ko not built"
D=/sys/kernel/debug/simhca/simhca0

unload() { [ -d /sys/module/simhca ] && rmmod simhca; return 0; }

ktap_plan 21
modprobe ib_umad
unload
check "load simhca" modprobe simhca
defer unload
check "simhca0 registered" test -d /sys/class/infiniband/simhca0
check_eq "node type" "1: CA" "$(cat /sys/class/infiniband/simhca0/node_type)"
ktap_diag "$(rdma -d link show simhca0/1)"
check "rdma link: ACTIVE, LINK_UP" \
	sh -c "rdma link show simhca0/1 | grep -q 'state ACTIVE physical_state LINK_UP'"
check_eq "link layer" InfiniBand "$(cat /sys/class/infiniband/simhca0/ports/1/link_layer)"
check_eq "port LID" 0x1 "$(cat /sys/class/infiniband/simhca0/ports/1/lid)"
check_eq "SM LID" 0x2 "$(cat /sys/class/infiniband/simhca0/ports/1/sm_lid)"
check_eq "P_Key 0" 0xffff "$(cat /sys/class/infiniband/simhca0/ports/1/pkeys/0)"
check "GID 0 is fe80::/64 + port GUID" \
	grep -q '^fe80:0000:0000:0000:' /sys/class/infiniband/simhca0/ports/1/gids/0
check "ib_umad made a umad device" \
	sh -c 'grep -qx simhca0 /sys/class/infiniband_mad/umad*/ibdev'
check "ibstat: Active, LinkUp, SM lid 2" \
	sh -c "ibstat simhca0 1 | grep -q 'State: Active' &&
	       ibstat simhca0 1 | grep -q 'Physical state: LinkUp' &&
	       ibstat simhca0 1 | grep -q 'SM lid: 2'"
check "SA ClassPortInfo" sa_mcm -d simhca0 cpi
check "saquery -c" sh -c 'saquery -C simhca0 -c | grep -q -i "capability"'
out=$(sa_mcm -d simhca0 gettable 2>&1)
check_eq "empty MCMemberRecord table" "status=0x0000 method=0x92 records=0" "$out"
check "saquery -g works on an empty SA" saquery -C simhca0 -g

rc=0
for _ in $(seq 20); do
	rmmod simhca || { rc=1; break; }
	modprobe simhca || { rc=1; break; }
	sa_mcm -d simhca0 -t 2000 cpi >/dev/null || { rc=1; break; }
done
check "20 unload/load cycles, each answering" test $rc = 0
check "debugfs knobs of simhca0" test -w $D/client_reregister -a -r $D/port1/pkeys

rmmod simhca
check "load 2 devices with 2 ports" modprobe simhca ndevs=2 nports=2
check_eq "4 umad ports" 4 "$(cat /sys/class/infiniband_mad/umad*/ibdev | grep -c simhca)"
check "each device has its own SA" sh -c \
	'sa_mcm -d simhca1 -p 2 set create mgid=ff12:401b:ffff::1 >/dev/null &&
	 grep -q "^group " /sys/kernel/debug/simhca/simhca1/sa_db &&
	 ! grep -q "^group " /sys/kernel/debug/simhca/simhca0/sa_db'
check "unload" unload
ktap_finish
