#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# simhca as one fabric (fabric=Y): several devices, one subnet, one SA -
# device 0's - serving every port, as the nodes of a cluster share their
# SM. The fleet-scale work (issue 31) needs it: many ports re-joining at
# one SA after one fabric-wide client reregister. Checked: LIDs are unique
# across the devices and every port knows the one SM LID; the ports of
# every device join the same groups and the one SA has each port as a
# member; the other devices' SAs stay empty; the SA answers NodeRecords of
# every device; a client_reregister written on any device wipes the one SA
# and every port re-joins; leaves empty it; simhca unloads with groups
# held and requests in flight on every device.
# timeout: 240
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
NDEVS=4
NPORTS=2
NP=$((NDEVS * NPORTS))
N=16

ports() {
	local d p

	for ((d = 0; d < NDEVS; d++)); do
		for ((p = 1; p <= NPORTS; p++)); do
			echo "simhca$d $p"
		done
	done
}
lids() {
	local d p

	while read -r d p; do
		cat "/sys/class/infiniband/$d/ports/$p/lid"
	done < <(ports)
}
sm_lids() {
	local d p

	while read -r d p; do
		cat "/sys/class/infiniband/$d/ports/$p/sm_lid"
	done < <(ports) | sort -u
}
# the SA's members (device 0's stats), and the distinct port GIDs of sa_db's
members() { sa_stat members simhca0; }
member_gids() { sed -n 's/^member .* gid=\([^ ]*\) .*/\1/p' "$D/sa_db" | sort -u | wc -l; }
members_are() { [ "$(members)" = "$1" ]; }
joined() { mcg_count joined; }
joined_are() { [ "$(joined)" = "$1" ]; }
all_ports() {
	local d p

	while read -r d p; do
		"$@" "$d" "$p" || return 1
	done < <(ports)
}
bulk() { mcg_bulk "$1" "$2" "$3" $N job:1 >/dev/null; }
waves() { cat "/sys/kernel/ib_mcgroups/$1/$2/rejoin_waves"; }
waves_sum() {
	local d p s=0

	while read -r d p; do
		s=$((s + $(waves "$d" "$p")))
	done < <(ports)
	echo $s
}
waves_sum_is() { [ "$(waves_sum)" = "$1" ]; }

ktap_plan 18
modprobe ib_umad
mcg_unload_simhca
check "load simhca with fabric=Y ndevs=$NDEVS nports=$NPORTS" \
	modprobe simhca fabric=Y ndevs=$NDEVS nports=$NPORTS ||
	ktap_skip_all "no simhca"
defer mcg_unload_simhca
check_eq "LIDs 1..$NP, one per port across the devices" \
	"$(seq -s ' ' 1 $NP)" "$(lids | xargs printf '%d\n' | sort -n | xargs)"
check_eq "every port has the one SM LID" "$(printf '0x%x' $((NP + 1)))" "$(sm_lids | xargs)"
check "load ib_mcgroups" mcg_load settle_ms=0 join_wait_ms=0
for f in /sys/kernel/debug/simhca/simhca*/stats; do echo 1 >"$f"; done

check "every port joins the same $N groups" all_ports bulk join
check "the one SA has $N groups" wait_for -t 60 sa_groups_are $N
check "with every port a member of each" wait_for -t 60 members_are $((N * NP))
check_eq "sa_db lists them" $((N * NP)) "$(grep -c '^member ' "$D/sa_db")"
check_eq "members from all $NP ports" $NP "$(member_gids)"
check_eq "one Set per join at the SA" $((N * NP)) \
	"$(($(sa_stat rx_set_mcm simhca0) - $(sa_stat_sum answers_resent)))"
check "every port's holds are joined" wait_for -t 30 joined_are $((N * NP))
check_eq "the other devices' SAs are empty" "0 0 0" \
	"$(for d in 1 2 3; do sa_stat groups simhca$d; done | xargs)"
check_eq "the SA answers the NodeRecords of every device's ports" $NP \
	"$(saquery -C simhca3 -P 2 2>/dev/null | grep -c 'NodeRecord dump')"

w=$(waves_sum)
echo 1 >/sys/kernel/debug/simhca/simhca2/client_reregister
check "client_reregister on simhca2: every port re-joins" \
	wait_for -t 120 waves_sum_is $((w + NP))
check "the one SA has every member again" wait_for -t 60 members_are $((N * NP))

check "every port leaves" all_ports bulk leave
check "the SA is empty" wait_for -t 60 sa_groups_are 0

# unload with holds and requests in flight on every device: the devices go
# from the last to device 0, whose SA serves the others' leaves meanwhile
all_ports bulk join
echo 50 >"$D/delay_ms"
check "simhca unloads with groups held and requests in flight" rmmod simhca
ktap_finish
