#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# What a user's holds allocate is charged to the user's memory cgroup
# (GFP_KERNEL_ACCOUNT), so that a container's memory limit bounds them:
# uid 65534 in a cgroup of its own holds N groups with bound holds, and
# the cgroup's memory grows by at least a small part of what N groups
# and holds take (272 bytes a group in make bench); when the process
# ends, the holds go and the charge with them.
#
# What is measured is the cgroup's slab (memory.stat's slab_reclaimable
# plus slab_unreclaimable): holds are kmalloc'd, and slab is counted per
# object. memory.current is not: a charge takes 64 pages at a time into
# a per-CPU stock, so it moves in steps of 256 KiB, as large as what is
# measured (it failed this way on 6.1: 141 bytes a hold for root's
# holds that charge it none).
# timeout: 180
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

SYS=/sys/kernel/ib_mcgroups/$MCG_DEV0/1
CG=/sys/fs/cgroup
U=$CG/mcg_user
N=3000
TMP=/tmp/unpriv_memcg.$$

ktap_plan 10
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load user_max_holds=$((N + 10)) \
	user_max_holds_total=$((N + 10))
defer mcg_unload
grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG ||
	ktap_skip_all "no cgroup2"
grep -qw memory $CG/cgroup.controllers || ktap_skip_all "no memory controller"
echo +memory >$CG/cgroup.subtree_control 2>/dev/null
mkdir -p $U
defer rmdir $U

# in_cg CMD...: CMD as uid 65534 in the cgroup $U, in the background;
# in_cg_root CMD...: as root. Not one through the other: setpriv must
# come before env, whose PATH lookup in the guest finds busybox's
# setpriv applet, which has no --reuid.
in_cg() {
	bash -c 'echo $$ >'"$U"'/cgroup.procs && exec "$@"' bash \
		"${UNPRIV[@]}" env MCG_BULK_NOCREATE=1 "$@" >>$TMP 2>&1 &
	pid=$!
}
in_cg_root() {
	bash -c 'echo $$ >'"$U"'/cgroup.procs && exec "$@"' bash \
		env MCG_BULK_NOCREATE=1 "$@" >>$TMP 2>&1 &
	pid=$!
}
holders_are() { [ "$(cat $SYS/holders)" = "$1" ]; }
mem() {
	awk '$1 == "slab_reclaimable" || $1 == "slab_unreclaimable" { n += $2 }
	     END { print n + 0 }' $U/memory.stat
}

# the process alone, holding one group: what it costs without the holds
in_cg mcg_bulk hold "$MCG_DEV0" 1 1 uid:65534 0x7000
check "uid 65534 holds one group from its cgroup" wait_for -t 20 holders_are 1 ||
	ktap_diag "$(cat $TMP)"
sleep 1
base=$(mem)
kill $pid; wait $pid 2>/dev/null
wait_for -t 10 holders_are 0

in_cg mcg_bulk hold "$MCG_DEV0" 1 $N uid:65534 0x7000
check "uid 65534 holds $N groups" wait_for -t 120 holders_are $N
sleep 1
full=$(mem)
ktap_diag "slab: $base with 1 hold, $full with $N: $(((full - base) / N)) bytes a hold"
check "the cgroup was charged at least 150 bytes a hold" \
	test $((full - base)) -ge $((150 * N))
kill $pid; wait $pid 2>/dev/null
check "the holds go with the process" wait_for -t 60 holders_are 0
sleep 1
after=$(mem)
ktap_diag "slab after the process ended: $after"
check "and most of the charge with them" \
	test $((after)) -le $((base + (full - base) / 4))

# Root's holds are the node's, not its cgroup's: the same N holds from
# the same cgroup charge its slab almost nothing (which also shows that
# the growth above is the holds').
in_cg_root mcg_bulk hold "$MCG_DEV0" 1 $N job:root 0x7000
check "root holds $N groups from the same cgroup" wait_for -t 120 holders_are $N
sleep 1
root=$(mem)
ktap_diag "slab with root's $N holds: $root ($(((root - after) / N)) bytes a hold)"
check "root's holds are not charged to it (under 20 bytes a hold)" \
	test $((root - after)) -lt $((20 * N))
kill $pid; wait $pid 2>/dev/null
check "root's holds go with the process" wait_for -t 60 holders_are 0
rm -f $TMP
ktap_finish
