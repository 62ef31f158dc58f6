#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Holders on a RoCE port: two owners share exactly one IGMP membership,
# re-joins are idempotent, IPv6 groups take an MLD membership, send-only
# holds take none, and the union of join states decides.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

P=$MCG_DEV0/1
SYS=/sys/kernel/ib_mcgroups/$MCG_DEV0/1
G=239.1.1.1

ktap_plan 36
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer mcg_unload

check "job:42 joins $G" mcctl join "$P" $G owner job:42
check "job:43 joins $G" mcctl join "$P" $G owner job:43
check_eq "one IGMP membership on $MCG_IF0, one user" 1 "$(igmp_count "$MCG_IF0" $G)"
check_eq "sysfs groups" 1 "$(cat $SYS/groups)"
check_eq "sysfs holders" 2 "$(cat $SYS/holders)"
check "job:42 joins again (idempotent)" mcctl join "$P" $G owner job:42
check_eq "still two holders" 2 "$(cat $SYS/holders)"
check_eq "joins counts holds taken, not re-joins" 2 "$(cat $SYS/joins)"
check "list shows both owners" \
	sh -c "mcctl list | grep -q 'job:42' && mcctl list | grep -q 'job:43'"

check "job:42 leaves" mcctl leave "$P" $G owner job:42
check_eq "membership kept for job:43" 1 "$(igmp_count "$MCG_IF0" $G)"
check_eq "one holder left" 1 "$(cat $SYS/holders)"
check_fail "job:42 leaves again: nothing held" mcctl leave "$P" $G owner job:42
check "job:43 leaves" mcctl leave "$P" $G owner job:43
check_eq "IGMP membership gone" 0 "$(igmp_count "$MCG_IF0" $G)"
check_eq "no groups" 0 "$(cat $SYS/groups)"
check_eq "leaves counter" 2 "$(cat $SYS/leaves)"

check "admin joins ff0e::1234 (MLD)" mcctl join "$P" ff0e::1234 owner admin
check "ff0e::1234 in /proc/net/igmp6" igmp6_has "$MCG_IF0" ff0e::1234
check "admin leaves ff0e::1234" mcctl leave "$P" ff0e::1234 owner admin
check "ff0e::1234 gone from /proc/net/igmp6" __lib_not igmp6_has "$MCG_IF0" ff0e::1234

check "tx joins 239.1.1.2 send-only" mcctl join "$P" 239.1.1.2 owner tx state sendonly-full
check_eq "send-only takes no IGMP membership" 0 "$(igmp_count "$MCG_IF0" 239.1.1.2)"
check "rx joins 239.1.1.2 full" mcctl join "$P" 239.1.1.2 owner rx
check_eq "full member takes it" 1 "$(igmp_count "$MCG_IF0" 239.1.1.2)"
check "rx leaves" mcctl leave "$P" 239.1.1.2 owner rx
check_eq "back to send-only: membership dropped, group kept" \
	"0 1" "$(igmp_count "$MCG_IF0" 239.1.1.2) $(cat $SYS/groups)"
check "tx leaves" mcctl leave "$P" 239.1.1.2 owner tx state sendonly-full

check "a group on each device" sh -c "mcctl join $P 239.1.1.3 owner f &&
	mcctl join $MCG_DEV1/1 239.1.1.4 owner f"
check "list $MCG_DEV0 shows only $MCG_DEV0's group" \
	sh -c "mcctl list $MCG_DEV0 | grep -q 239.1.1.3 && ! mcctl list $MCG_DEV0 | grep -q 239.1.1.4"
check "list $MCG_DEV1/1 shows only $MCG_DEV1's group" \
	sh -c "mcctl list $MCG_DEV1/1 | grep -q 239.1.1.4 && ! mcctl list $MCG_DEV1/1 | grep -q 239.1.1.3"
check "-j list is JSON with both groups" \
	sh -c "mcctl -j list | jq -e 'length == 2'"
check_eq "-j show gives the record" "65535 19088743 0" \
	"$(mcctl -j show $P 239.1.1.3 | jq -r '"\(.pkey) \(.qkey) \(.mlid)"')"
check "leave both" sh -c "mcctl leave $P 239.1.1.3 owner f &&
	mcctl leave $MCG_DEV1/1 239.1.1.4 owner f"
ktap_finish
