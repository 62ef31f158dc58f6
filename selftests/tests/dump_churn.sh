#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# "mcctl list" while other processes join and leave groups as fast as they
# can: every listing succeeds and lists every group that was held
# throughout exactly once, including all holders of a group whose holder
# list spans several messages.
# timeout: 900
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

P=$MCG_DEV0/1
SYS=/sys/kernel/ib_mcgroups/$MCG_DEV0/1
LISTS=20

# stable_seen FILE: "groups distinct-groups holders-of-the-big-group"
# counted over the groups owner "stable" holds in a JSON listing.
stable_seen() {
	jq -r '[.[] | select(any(.holders[]?; .owner == "stable"))] |
	       "\(length) \([.[].group] | unique | length) \([.[] | select(.group == "ff12:401b:ffff::f000") | .holders[] | select(.owner | startswith("big:")) | .owner] | unique | length)"' "$1"
}

ktap_plan 7
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer mcg_unload

check "owner stable holds 200 groups and one with 1500 other holders" \
	sh -c "mcg_bulk join $MCG_DEV0 1 200 stable 0x1000 &&
	       mcg_bulk join $MCG_DEV0 1 1 stable 0xf000 &&
	       mcg_bulk owners $MCG_DEV0 1 1500 big: 0xf000"

# Two processes change groups (and the big group's holders) all the time.
mcg_bulk churn "$MCG_DEV0" 1 20 churnA 0x5000 >/dev/null 2>&1 &
churn_a=$!
mcg_bulk churn "$MCG_DEV0" 1 1 churnB 0xf000 >/dev/null 2>&1 &
churn_b=$!
defer kill $churn_a $churn_b
joins0=$(cat $SYS/joins)

fails=0 bad=""
for i in $(seq $LISTS); do
	if ! mcctl -j list "$P" >/tmp/dump_churn.json 2>/tmp/dump_churn.err; then
		fails=$((fails + 1))
		ktap_diag "list $i: $(cat /tmp/dump_churn.err)"
		continue
	fi
	seen=$(stable_seen /tmp/dump_churn.json)
	[ "$seen" = "201 201 1500" ] || bad="$bad [$i: $seen]"
done
joins1=$(cat $SYS/joins)
check "groups changed during the listings" test $((joins1 - joins0)) -gt $((2 * LISTS))
check_eq "all $LISTS listings succeeded" 0 $fails
check_eq "each listed the 201 stable groups once and all 1500 holders" "" "$bad"
kill $churn_a $churn_b
wait $churn_a $churn_b 2>/dev/null
check_eq "owner stable still holds its 201 groups" 201 \
	"$(mcctl -j list "$P" | jq '[.[] | select(any(.holders[]?; .owner == "stable"))] | length')"
ktap_finish
