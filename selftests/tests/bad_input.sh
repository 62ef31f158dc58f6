#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Through mcctl: every bad input fails with a clear message and a non-zero
# exit, and changes nothing. Unprivileged users can read, and join only as
# themselves (tests/unpriv.sh).
# (Raw malformed netlink requests are covered by genl_policy.)
# timeout: 120
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

P=$MCG_DEV0/1
SYS=/sys/kernel/ib_mcgroups/$MCG_DEV0/1

# refused (lib.sh) compares these counters of $SYS.
# shellcheck disable=SC2034 # read by refused()
REFUSED_COUNTERS="groups holders joins join_errors"

ktap_plan 17
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer mcg_unload

refused "unicast IPv4 address" "multicast" mcctl join "$P" 10.0.0.7
refused "unicast IPv6 address" "multicast" mcctl join "$P" fd00::7
refused "malformed group" "group" mcctl join "$P" 239.1.1
refused "malformed MGID" "group" mcctl join "$P" ff0e::12345::1
refused "unknown device" "no such RDMA device" mcctl join nosuch0/1 239.1.1.1
refused "port 0" "port 0 does not exist" mcctl join "$MCG_DEV0/0" 239.1.1.1
refused "port out of range" "out of range" mcctl join "$MCG_DEV0/9" 239.1.1.1
refused "owner too long" "owner" mcctl join "$P" 239.1.1.1 owner \
	"$(printf 'x%.0s' $(seq 65))"
refused "unknown join state" "state" mcctl join "$P" 239.1.1.1 state sometimes
refused "unknown keyword" "" mcctl join "$P" 239.1.1.1 colour blue
refused "leave of a group not held" "no such group" \
	mcctl leave "$P" 239.1.1.1 owner nobody

check "unprivileged list works" run_unpriv mcctl list
refused "unprivileged join for another owner refused" "owner must be uid:" \
	run_unpriv mcctl join "$P" 239.1.1.1 owner nobody bound
check_eq "nothing was created" 0 "$(cat $SYS/groups)"
# The events name owners: where the kernel can enforce it
# (GENL_MCAST_CAP_NET_ADMIN, probed), only CAP_NET_ADMIN may listen.
if modinfo -F compat ib_mcgroups | grep -qw genl_mcast_cap_net_admin; then
	refused "unprivileged monitor refused: events need CAP_NET_ADMIN" \
		"events name their owners: listening needs CAP_NET_ADMIN" \
		run_unpriv timeout 10 mcctl monitor
else
	ktap_skip "unprivileged monitor refused" "kernel cannot restrict a multicast group"
fi
ktap_finish
