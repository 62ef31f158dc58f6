#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# An SA whose queue is bounded answers BUSY what it cannot queue, at once
# (simhca's serve_busy_ms on serve_rate), and ib_sa reports BUSY as any
# refusal. A fleet (fabric=Y: 8 devices x 2 ports, every port in the same
# 64 groups) re-joins at one such SA after a fabric-wide reregister, with
# more ports than the bound has room for. Checked: every membership is
# back at the SA and every group joined, none released; the refusals are
# few (the window law cuts its window at one: before it did, this fleet's
# windows grew on the refusals, 1.7 per re-join; now about 5 %), each
# counted in rejoin_failures; the bound was reached (else nothing was
# tested); ib_sa timed nothing out.
# timeout: 300
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
NDEVS=8
PORTS=$((NDEVS * 2))
G=64
TOTAL=$((PORTS * G))
R=200		# the SA's requests a second
BUSY_MS=20	# room for 4 requests: fewer than the ports

members_are() { [ "$(sa_stat members)" = "$1" ]; }
waves_are() { [ "$(mcg_sysfs_sum rejoin_waves)" = "$1" ]; }

ktap_plan 11
modprobe ib_umad
mcg_unload_simhca
modprobe simhca fabric=Y ndevs=$NDEVS nports=2 || ktap_skip_all "no simhca with fabric=Y"
defer mcg_unload_simhca
check "load ib_mcgroups (settle_ms=0)" mcg_load settle_ms=0 join_wait_ms=0
broken=0
for ((d = 0; d < NDEVS; d++)); do
	for p in 1 2; do
		mcg_bulk join simhca$d $p $G job:1 >/dev/null || broken=1
	done
done
check_eq "mcg_bulk held every group" 0 "$broken"
check "$PORTS ports x $G groups joined (the SA without a bound)" \
	eval 'wait_for -t 120 members_are $TOTAL && wait_for -t 60 mcg_all_joined'

echo $R >"$D/serve_rate"
echo $BUSY_MS >"$D/serve_busy_ms"
echo 1 >"$D/stats"
w=$(mcg_sysfs_sum rejoin_waves)
rf=$(mcg_sysfs_sum rejoin_failures)
to=$(mcg_sysfs_sum sa_timeouts)
echo 1 >"$D/client_reregister"
check "every port's wave ends" wait_for -t 200 waves_are $((w + PORTS))
check "the SA has every membership again" wait_for -t 30 members_are $TOTAL
check "every group joined" wait_for -t 30 mcg_all_joined
check_eq "none released" "$TOTAL" "$(mcctl -j list | jq length)"
refused=$(($(mcg_sysfs_sum rejoin_failures) - rf))
ktap_diag "SA: $(sa_stat busy) BUSY answers, $(sa_stat rx_set_mcm) Sets for $TOTAL members, queue's longest wait $(sa_stat serve_wait_max_us) us; re-joins refused $refused"
check "the bound was reached: some re-joins refused" test "$refused" -gt 0
# before the law read refusals: more refusals than re-joins
check "refused re-joins at most 15 % of the memberships ($refused)" \
	test "$refused" -le $((TOTAL * 15 / 100))
check_eq "each refusal counted in rejoin_failures: Sets = members + refused" \
	$((TOTAL + refused)) "$(sa_stat rx_set_mcm)"
check_eq "no SA timeouts" "$to" "$(mcg_sysfs_sum sa_timeouts)"
echo 0 >"$D/serve_busy_ms"
echo 0 >"$D/serve_rate"
ktap_finish
