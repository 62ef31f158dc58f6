#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest side of the debug lane (run.sh POST_TESTS): runs as the last test,
# after every selected test. Unloads the project's modules (so what they
# leaked is no longer referenced from them), triggers kmemleak scans and
# fails if any object is reported, printing the report. A module that does
# not unload (a reference held after the tests) fails it too.
KML=/sys/kernel/debug/kmemleak
rc=0

if [ ! -e $KML ]; then
	echo "# kmemleak not available on $(uname -r)"
	exit 4
fi
echo scan=off >$KML	# no automatic scan in between
for m in ib_mcgroups simhca rdma_rxe; do
	if grep -q "^$m " /proc/modules && ! rmmod $m; then
		echo "# rmmod $m failed: $(grep "^$m " /proc/modules)"
		rc=1
	fi
done
# Objects younger than 5 s are never reported, and one scan may miss what
# the next finds: scan twice after they are old enough.
sleep 6
t0=$(cut -d' ' -f1 /proc/uptime)
echo scan >$KML
echo scan >$KML
echo "# two scans from ${t0}s to $(cut -d' ' -f1 /proc/uptime)s uptime"
report=$(cat $KML)
if [ -n "$report" ]; then
	n=$(printf '%s\n' "$report" | grep -c 'unreferenced object')
	echo "# kmemleak: $n unreferenced objects"
	printf '%s\n' "$report"
	exit 1
fi
echo "# kmemleak: no leaks"
exit $rc
