#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A refused or timed-out join cuts the port's window (the window law: an
# SA that answers BUSY is reported as one that refuses), but not a user's:
# any user can hold a group the SA does not have (a join by MGID, which
# the SA refuses), and a cut for each would keep root's re-joins at the
# slowest pace. Seen in debugfs pacer's cuts: none after uid 65534's
# refused holds; after root's refused join at least one, and no more
# than the refused Sets the SA saw.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
PACER=/sys/kernel/debug/ib_mcgroups/pacer
# pacer_field NAME: the field of simhca0/1's line in debugfs pacer
pacer_field() {
	awk -v p="$P" -v k="$1" '$1 == p {
		for (i = 2; i <= NF; i++)
			if (split($i, a, "=") == 2 && a[1] == k) {
				sub(/\/.*/, "", a[2])
				print a[2]
			}
	}' $PACER
}
cuts_at_least() { [ "$(pacer_field cuts)" -ge "$1" ] 2>/dev/null; }
# join_ok N: root holds ff12:401b::N (made with the default parameters)
join_ok() { mcctl join "$P" "ff12:401b::$1" create owner admin >/dev/null; }

ktap_plan 11
modprobe ib_umad
check "load simhca" modprobe simhca || ktap_skip_all "no simhca"
check "load ib_mcgroups" mcg_load settle_ms=0
defer mcg_unload_simhca
check "root's join" join_ok 1
check_eq "no cut yet" 0 "$(pacer_field cuts)"
sets=$(sa_stat rx_set_mcm)
refused=0
for i in 1 2 3 4 5; do
	run_unpriv mcctl hold "$P" ff12:401b:fffe::$i -- true 2>&1 |
		grep -q refused && refused=$((refused + 1))
done
check_eq "uid 65534's 5 holds of groups the SA does not have: refused" \
	5 "$refused"
check_eq "... by the SA (5 Sets)" $((sets + 5)) "$(sa_stat rx_set_mcm)"
sleep 0.1
check "root's next join (a run of the pacer after the round's end)" join_ok 2
check_eq "the users' refusals cut nothing" 0 "$(pacer_field cuts)"
w=$(pacer_field window)
before=$(sa_stat rx_set_mcm)
check "root's join of a group the SA does not have: refused" \
	eval '! mcctl join "$P" ff12:401b:fffe::9 owner admin 2>/dev/null'
# libibmcg sends a JOIN refused before it listened once more, to learn
# the reason (nl.c, join_and_wait()): one or two refused Sets, each of
# which may cut the window in its own round, none without one.
rsets=$(($(sa_stat rx_set_mcm) - before))
sleep 0.1
join_ok 3
check "and that cuts the window" wait_for -t 10 cuts_at_least 1
check "once for each refused Set at most ($rsets)" \
	test "$(pacer_field cuts)" -le "$rsets"
ktap_diag "window $w/256 before, $(pacer_field window)/256 after; $(cat $PACER)"
ktap_finish
