#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A job's epilog: "mcctl leave owner job:42 all" drops every hold of the
# owner in one request, optionally on one device only, reports what it
# released, and leaves other owners' holds alone.
# timeout: 90
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

SYS0=/sys/kernel/ib_mcgroups/$MCG_DEV0/1
SYS1=/sys/kernel/ib_mcgroups/$MCG_DEV1/1

ktap_plan 17
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer mcg_unload

check "job:42 holds three groups on $MCG_DEV0 (one twice) and one on $MCG_DEV1" \
	sh -c "mcctl join $MCG_DEV0/1 239.10.0.1 owner job:42 &&
	       mcctl join $MCG_DEV0/1 239.10.0.1 owner job:42 state sendonly-full &&
	       mcctl join $MCG_DEV0/1 239.10.0.2 owner job:42 &&
	       mcctl join $MCG_DEV0/1 ff0e::a3 owner job:42 &&
	       mcctl join $MCG_DEV1/1 239.10.0.4 owner job:42"
check "job:43 shares 239.10.0.2" mcctl join $MCG_DEV0/1 239.10.0.2 owner job:43

check "release on $MCG_DEV1 only" mcctl leave owner job:42 all "$MCG_DEV1"
check_eq "$MCG_DEV1 has nothing left, $MCG_DEV0 untouched" "0 5" \
	"$(cat $SYS1/holders) $(cat $SYS0/holders)"

out=$(mcctl -j leave owner job:42 all)
check_eq "one request releases the rest: 4 holds" 4 "$(jq -r .holds_dropped <<<"$out")"
check_eq "and reports the three groups" 3 "$(jq -r '.groups | length' <<<"$out")"
check_eq "job:43's group stays joined, the others are gone" "1 1" \
	"$(cat $SYS0/groups) $(cat $SYS0/holders)"
check_eq "IGMP: 239.10.0.1 dropped, 239.10.0.2 kept" "0 1" \
	"$(igmp_count "$MCG_IF0" 239.10.0.1) $(igmp_count "$MCG_IF0" 239.10.0.2)"
check "an owner holding nothing is not an error" mcctl leave owner nobody all
check "unprivileged release is refused" __lib_not run_unpriv mcctl leave owner job:43 all

# The release walks the owner's holds once: holds of one group that are not
# next to each other, and holds the filter skips, in between.
check "job:44 holds groups on both devices, one twice, interleaved" \
	sh -c "mcctl join $MCG_DEV0/1 239.10.1.1 owner job:44 &&
	       mcctl join $MCG_DEV1/1 239.10.1.2 owner job:44 &&
	       mcctl join $MCG_DEV0/1 239.10.1.1 owner job:44 state nonmember &&
	       mcctl join $MCG_DEV1/1 239.10.1.3 owner job:44 &&
	       mcctl join $MCG_DEV0/1 239.10.1.4 owner job:44"
out=$(mcctl -j leave owner job:44 all "$MCG_DEV0")
check_eq "release on $MCG_DEV0: 3 holds on 2 groups, 239.10.1.1 full and nonmember" \
	"3 2 full,nonmember" \
	"$(jq -r '"\(.holds_dropped) \(.groups | length) \(.groups[] | select(.group == "239.10.1.1") | .dropped)"' <<<"$out")"
check_eq "$MCG_DEV1's two holds stay" "2 2" "$(cat $SYS1/holders) $(cat $SYS1/groups)"
check "the rest goes" mcctl leave owner job:44 all
check_eq "nothing left of job:44" "0 1" "$(cat $SYS1/holders) $(cat $SYS0/holders)"
ktap_finish
