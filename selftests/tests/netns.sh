#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The ib_mcgroups family exists in the initial network namespace only:
# from another one, mcctl says the module is loaded but not reachable
# (and does not suggest modprobe), and nothing can be held from there;
# without the module (not even to be loaded on demand) it says so and
# suggests modprobe. What belongs to another network namespace is not
# reachable from the initial one either: a RoCE port whose netdev lives in
# a container's namespace takes no membership there (a JOIN is refused,
# the container's /proc/net/igmp stays as it was), and an RDMA device
# moved to another namespace in exclusive mode ("rdma system set netns
# exclusive") is neither listed nor joinable until it comes back.
# timeout: 120
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

ktap_plan 19
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer mcg_unload

check "another netns: loaded but not reachable, no modprobe hint" \
	says "unshare -n mcctl list" \
	"ib_mcgroups is loaded but not reachable from this network namespace" modprobe
check "another netns: a join is impossible too" \
	says "unshare -n mcctl join $P 239.8.8.1 owner job:ns" "not reachable"
check_eq "nothing was held" 0 "$(cat $SYS/groups)"

# --- a RoCE port whose netdev is in another network namespace ----------------
NS=mcgc
ip netns add $NS
defer ip netns del $NS
ip link add vc0 type veth peer name vc1 netns $NS
defer ip link del vc0
ip link set vc0 up
ip netns exec $NS ip link set vc1 up
ip netns exec $NS ip addr add 10.9.0.2/24 dev vc1
check "rxec on a netdev of netns $NS" \
	ip netns exec $NS rdma link add rxec type rxe netdev vc1
defer rdma link del rxec
check "a join on rxec is refused, naming the namespace" \
	says "mcctl join rxec/1 239.8.8.2 owner job:ns" "another network namespace"
check_fail "$NS's vc1 took no IGMP membership" igmp_has vc1 239.8.8.2
check_eq "rxec holds nothing" 0 "$(cat /sys/kernel/ib_mcgroups/rxec/1/groups 2>&1)"
check "rxe0, in this namespace, still joins" \
	mcctl join "$P" 239.8.8.3 owner job:ns
check "rxe0's netdev has the membership" igmp_has "$MCG_IF0" 239.8.8.3
check "leave" mcctl leave "$P" 239.8.8.3 owner job:ns
rdma link del rxec

# --- an RDMA device moved to another namespace (exclusive mode) --------------
# Switching modes needs every other namespace gone; their cleanup is
# asynchronous. simhca can move: it has no user contexts to disassociate.
ip netns del $NS
ip link del vc0 2>/dev/null
modprobe simhca
defer mcg_unload_simhca
excl() { rdma system set netns "$1" 2>/dev/null; }
check "exclusive netns mode" wait_for -t 20 excl exclusive
defer wait_for -t 20 excl shared
listed() { mcctl -j stats | jq -e 'any(.[]; .dev == "simhca0")' >/dev/null; }
check "simhca0 is listed while in this namespace" listed
ip netns add mcgx
check "simhca0 moved to netns mcgx" rdma dev set simhca0 netns mcgx
check "simhca0 is not listed from the initial namespace" wait_for_not -t 10 listed
check "a join on simhca0 is refused, naming the namespace" \
	says "mcctl join simhca0/1 ff12:401b::8 owner job:ns" "another network namespace"
ip netns del mcgx
check "simhca0 is back when mcgx is gone" wait_for -t 20 listed
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
