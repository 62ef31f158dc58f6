#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The reason ib_mcgroups exists on RoCE: a UD QP on rxe1 that only calls
# ibv_attach_mcast() receives nothing until ib_mcgroups holds the group on
# rxe1's port, everything while it does, and nothing after the leave.
# timeout: 150
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

COUNT=20

# run_case NAME GROUP MGID
run_case() {
	local name=$1 grp=$2 mgid=$3

	check_eq "$name: before the join, 0 of $COUNT received" 0 \
		"$(mcast_recv_while_sending "$mgid" "$COUNT")"
	check "$name: ib_mcgroups joins $grp on $MCG_DEV1/1" \
		mcctl join "$MCG_DEV1/1" "$grp" owner datapath
	check_eq "$name: while held, $COUNT of $COUNT received" "$COUNT" \
		"$(mcast_recv_while_sending "$mgid" "$COUNT")"
	check "$name: leave" mcctl leave "$MCG_DEV1/1" "$grp" owner datapath
	check_eq "$name: after the leave, 0 of $COUNT received" 0 \
		"$(mcast_recv_while_sending "$mgid" "$COUNT")"
}

ktap_plan 12
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer mcg_unload
run_case IPv4 239.3.3.3 ::ffff:239.3.3.3
run_case IPv6 ff0e::3333 ff0e::3333
ktap_finish
