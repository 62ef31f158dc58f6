#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The IP state of a RoCE netdev torn down and rebuilt under held groups:
# an MTU below 1280 destroys the netdev's IPv6 state (inet6_dev) with its
# MLD memberships, one below 68 its IPv4 state (in_device) with its IGMP
# memberships. When the MTU is raised again the groups take their
# memberships again, and a later leave drops only ib_mcgroups' own, never
# the one a socket took meanwhile. Ethernet netdevs (veth) refuse MTUs below
# 68, so this test puts a soft-RoCE device on a dummy netdev.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

IF=mcgdummy0
DEV=rxe9
P=$DEV/1
G=239.1.2.1
G6=ff0e::1:2:1

state_of() { mcctl -j show "$P" "$1" | jq -r '"\(.state) \(.reason)"'; }
state_is() { [ "$(state_of "$1")" = "$2" ]; }
mtu() { ip link set "$IF" mtu "$1"; }
# sock_join GROUP: a socket holds GROUP on IF; its pid in SOCK_PID.
sock_join() {
	mcast_join -I "$IF" "$1" >/dev/null 2>&1 &
	SOCK_PID=$!
	defer kill "$SOCK_PID"
}

setup() {
	mcg_load_rxe && modprobe dummy &&
	ip link add "$IF" type dummy && ip link set "$IF" up &&
	rdma link add "$DEV" type rxe netdev "$IF" &&
	wait_for -t 15 test -e "/sys/class/infiniband/$DEV"
}

ktap_plan 26
check "soft-RoCE $DEV on dummy netdev $IF" setup ||
	ktap_skip_all "no soft-RoCE on a dummy netdev"
defer ip link del "$IF"
defer rdma link del "$DEV"
check "load ib_mcgroups" mcg_load
defer mcg_unload

check "a joins $G" mcctl join "$P" $G owner a
check "a joins $G6" mcctl join "$P" $G6 owner a
check_eq "one IGMP and one MLD membership" "1 1" \
	"$(igmp_count "$IF" $G) $(igmp6_count "$IF" $G6)"

# IPv6 alone: inet6_dev destroyed and made anew.
check "MTU 1000: $IF loses its IPv6 state" mtu 1000
check "MLD membership gone with it" __lib_not igmp6_has "$IF" $G6
check "MTU 1500: new IPv6 state" mtu 1500
check "MLD membership taken again" wait_for -t 10 igmp6_has "$IF" $G6
check_eq "exactly once" 1 "$(igmp6_count "$IF" $G6)"
check_eq "IGMP membership untouched" 1 "$(igmp_count "$IF" $G)"
check_eq "$G6 joined" "joined" "$(state_of $G6 | cut -d' ' -f1)"
sock_join $G6
check "a socket joins $G6 too: two users" \
	wait_for -t 5 test "$(igmp6_count "$IF" $G6)" = 2
check "a leaves $G6" mcctl leave "$P" $G6 owner a
check_eq "the socket's MLD membership stays" 1 "$(igmp6_count "$IF" $G6)"
kill "$SOCK_PID"
wait "$SOCK_PID" 2>/dev/null

# IPv4 (and IPv6): in_device destroyed and made anew.
check "MTU 60: $IF loses its IPv4 state" mtu 60
check "IGMP membership gone with it" __lib_not igmp_has "$IF" $G
check "$G detached while $IF has no IPv4 state" \
	wait_for -t 10 state_is $G "detached netdev-down"
check "MTU 1500: new IPv4 state" mtu 1500
check "IGMP membership taken again" wait_for -t 10 igmp_has "$IF" $G
check_eq "exactly once" 1 "$(igmp_count "$IF" $G)"
check "$G joined again" wait_for -t 10 state_is $G "joined netdev-up"
sock_join $G
igmp_users_are() { [ "$(igmp_count "$IF" $G)" = "$1" ]; }
check "a socket joins $G too: two users" wait_for -t 5 igmp_users_are 2
check "a leaves $G" mcctl leave "$P" $G owner a
check_eq "the socket's IGMP membership stays" 1 "$(igmp_count "$IF" $G)"
kill "$SOCK_PID"
wait "$SOCK_PID" 2>/dev/null
check_eq "no groups left" 0 "$(cat /sys/kernel/ib_mcgroups/$DEV/1/groups)"
ktap_finish
