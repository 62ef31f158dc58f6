#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest half of dkms_vm.sh (not one of tests/: it needs the VM booted with
# --modules-from a DKMS install tree). The module modprobe finds must be the
# DKMS-built one in updates/dkms, of the version in /selftests/bin/dkms.expect,
# and must hold a group: join, list, IGMP membership, data, leave.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

EXPECT=$SELFTESTS_DIR/bin/dkms.expect
[ -r "$EXPECT" ] || ktap_skip_all "no $EXPECT (run through selftests/dkms/dkms_vm.sh)"
want_version=$(sed -n 's/^VERSION=//p' "$EXPECT")
kver=$(uname -r)

ktap_plan 12

file=$(modinfo -F filename ib_mcgroups 2>&1)
# .ko, or .ko.xz / .ko.zst / .ko.gz where the kernel compresses its modules
base=${file%.xz}
base=${base%.zst}
base=${base%.gz}
check_eq "modprobe finds ib_mcgroups in updates/dkms ($(basename "$file"))" \
	"/lib/modules/$kver/updates/dkms/ib_mcgroups.ko" "$base"
check "no other ib_mcgroups.ko in the module tree" \
	test "$(find "/lib/modules/$kver" -name 'ib_mcgroups.ko*' | wc -l)" -eq 1
check_eq "modinfo version is VERSION" "$want_version" "$(modinfo -F version ib_mcgroups)"
check_eq "built against the kernel's ib_core" "kernel" "$(modinfo -F rdma_headers ib_mcgroups)"

mcg_setup_rxe || ktap_skip_all "soft-RoCE setup failed"
defer mcg_teardown_rxe
check "modprobe ib_mcgroups" modprobe ib_mcgroups
defer mcg_unload
check_eq "loaded version is VERSION" "$want_version" "$(cat /sys/module/ib_mcgroups/version 2>&1)"

check "join $MCG_DEV1/1 239.1.1.1 owner dkms" mcctl join "$MCG_DEV1/1" 239.1.1.1 owner dkms
check "list shows the group" sh -c "mcctl list | grep -q 239.1.1.1"
check "the IGMP membership is held on $MCG_IF1" wait_for -t 5 igmp_has "$MCG_IF1" 239.1.1.1
check_eq "an attached UD QP receives the group's datagrams" 5 \
	"$(mcast_recv_while_sending ::ffff:239.1.1.1 5)"
check "leave" mcctl leave "$MCG_DEV1/1" 239.1.1.1 owner dkms
check "rmmod ib_mcgroups" rmmod ib_mcgroups

ktap_finish
