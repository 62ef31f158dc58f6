#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The RoCE multicast data path, without ib_mcgroups: rxe1 receives what rxe0
# sends to a group only while the kernel holds the IP membership on rxe1's
# netdev (here: a plain socket joined with IP_ADD_MEMBERSHIP/IPV6_JOIN_GROUP).
# timeout: 90
. "$(dirname "$0")/../lib.sh"

COUNT=20

# run_case FAMILY GROUP MGID
run_case() {
	local fam=$1 grp=$2 mgid=$3 pid n

	n=$(mcast_recv_while_sending "$mgid" "$COUNT" 2>/tmp/diag.$$)
	ktap_diag "$(cat /tmp/diag.$$)"
	check_eq "$fam: no membership on $MCG_IF1, nothing received" 0 "$n"

	"${PEER_EXEC[@]}" mcast_join -I "$MCG_IF1" "$grp" >/tmp/join.$$ 2>&1 &
	pid=$!
	defer kill "$pid"
	if ! check "$fam: socket joined $grp on $MCG_IF1" \
		wait_for -t 5 mcast_has "$MCG_IF1" "$grp"; then
		ktap_diag "$(cat /tmp/join.$$)"
	fi

	n=$(mcast_recv_while_sending "$mgid" "$COUNT" 2>/tmp/diag.$$)
	ktap_diag "$(cat /tmp/diag.$$)"
	check_eq "$fam: membership held, all $COUNT datagrams received" "$COUNT" "$n"

	kill "$pid"
	wait "$pid" 2>/dev/null
	check "$fam: membership dropped with the socket" \
		wait_for_not -t 5 mcast_has "$MCG_IF1" "$grp"
	n=$(mcast_recv_while_sending "$mgid" "$COUNT" 2>/tmp/diag.$$)
	ktap_diag "$(cat /tmp/diag.$$)"
	check_eq "$fam: membership gone, nothing received" 0 "$n"
	rm -f /tmp/diag.$$ /tmp/join.$$
}

ktap_plan 11
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
run_case IPv4 239.1.1.1 ::ffff:239.1.1.1
run_case IPv6 ff0e::1234 ff0e::1234
ktap_finish
