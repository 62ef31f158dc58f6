#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# OpenSM's own test client against OpenSM on simhca's fabric (internal_sa=N,
# two ports, OpenSM on port 1, osmtest on port 2, every SA MAD routed by
# simhca between them): the inventory (-f c: nodes, ports, paths), its
# validation (-f a) and the multicast flow (-f m: the MCMemberRecord rules
# of IBA chapter 15 as OpenSM implements them) pass. Then, as a check of
# simhca's internal SA (the one the fault-injection tests use), the
# multicast flow against it passes too (ipoib_bcast=Y: osmtest's flow
# needs the IPoIB broadcast group, which OpenSM creates; without it the
# flow asks for MTU 0 "exactly", which any SA refuses). The inventory
# and validation flows need PortInfoRecord tables and MultiPathRecords,
# which the internal SA does not model (selftests/simhca/README.md).
# timeout: 500
. "$(dirname "$0")/../lib.sh"

modinfo simhca >/dev/null 2>&1 || ktap_skip_all "simhca.ko not built"
for b in opensm osmtest saquery; do
	command -v $b >/dev/null || ktap_skip_all "$b not installed (make deps)"
done
G1=0x0053494d48434101
G2=0x0053494d48434102
INV=/tmp/osmtest.dat

unload() { [ -d /sys/module/simhca ] && rmmod simhca; return 0; }
# osmtest FLOW NAME: run the flow from port 2; it passes if osmtest says so
osmt() {
	local out rc=0

	out=$(cd /tmp && timeout $((150 * ${TIMEOUT_SCALE:-1})) \
		osmtest -g $G2 -f "$1" -i $INV 2>&1) || rc=$?
	if [ $rc = 0 ] && grep -q "OSMTEST: TEST \"$2\" PASS" <<<"$out"; then
		return 0
	fi
	echo "osmtest -f $1: exit $rc"
	grep -v "IS EXPECTED\|Expecting Errors\|ERR 5501\|ERR 0003\|ERR 0224" <<<"$out" |
		grep "ERR\|FAIL" | tail -n 10
	return 1
}

ktap_plan 8
modprobe ib_umad
unload
check "load simhca with 2 ports, internal_sa=N" \
	modprobe simhca nports=2 internal_sa=0 || ktap_skip_all "no simhca"
defer unload
rm -f $INV
mcg_opensm_start sm $G1
check "OpenSM brings both ports to ACTIVE" wait_for -t 90 mcg_ports_active
check "its SA answers port 2" wait_for -t 60 mcg_sa_up
check "osmtest -f c: inventory" osmt c "Create Inventory"
check "osmtest -f a: all validations" osmt a "All Validations"
check "osmtest -f m: the multicast flow" osmt m "Multicast"
mcg_opensm_stop sm

unload
check "load simhca with 2 ports, its internal SA (ipoib_bcast=Y)" \
	modprobe simhca nports=2 ipoib_bcast=1
check "osmtest -f m against the internal SA: the multicast flow" \
	osmt m "Multicast"
ktap_finish
