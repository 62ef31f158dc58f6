#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The ib_mcgroups family exists in the initial network namespace only:
# from another one, mcctl says the module is loaded but not reachable
# (and does not suggest modprobe), and nothing can be held from there;
# without the module (not even to be loaded on demand) it says so and
# suggests modprobe.
# timeout: 60
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl
command -v unshare >/dev/null || ktap_skip_all "no unshare"

P=$MCG_DEV0/1
SYS=/sys/kernel/ib_mcgroups/$MCG_DEV0/1

# says CMD MESSAGE [NOT]: CMD fails, its stderr has MESSAGE and not NOT.
says() {
	local out rc

	out=$($1 2>&1 >/dev/null)
	rc=$?
	ktap_diag "$out"
	[ $rc -ne 0 ] && [[ $out == *"$2"* ]] && { [ -z "${3:-}" ] || [[ $out != *"$3"* ]]; }
}

ktap_plan 6
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer mcg_unload

check "another netns: loaded but not reachable, no modprobe hint" \
	says "unshare -n mcctl list" \
	"ib_mcgroups is loaded but not reachable from this network namespace" modprobe
check "another netns: a join is impossible too" \
	says "unshare -n mcctl join $P 239.8.8.1 owner job:ns" "not reachable"
check_eq "nothing was held" 0 "$(cat $SYS/groups)"
# Really absent: unloaded, and not to be loaded on demand (the family's
# alias) either.
ko=$(modinfo -n ib_mcgroups)
mcg_unload
mv "$ko" "$ko.away"
defer mv "$ko.away" "$ko"
check "no module: not loaded, modprobe suggested" \
	says "mcctl list" "ib_mcgroups module not loaded (modprobe ib_mcgroups)"
mv "$ko.away" "$ko"
ktap_finish
