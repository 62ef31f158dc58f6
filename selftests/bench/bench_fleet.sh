#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# make bench, fleet scenario (issue #31): the nodes of a cluster re-join at
# one SA after its SM failed over. simhca as one fabric (fabric=Y): DEVS
# devices of 2 ports, each port holding the same G groups (every node in
# every group, as collectives and cluster management have them), one SA
# whose capacity is R requests a second (serve_rate: it answers one
# request after the other and drops nothing, as OpenSM queues what it
# cannot answer at once). ib_mcgroups is loaded with its defaults but
# settle_ms: nothing tells it the fleet's size or R. settle_ms is 1000
# (BENCH_FLEET_SETTLE_MS) instead of 3000 (each port waits 1 s plus up
# to 0.5 s of jitter after the reregister, the SM's first sweep): the
# waves are shorter, the start as jittered. For each R, one fabric-wide
# client reregister (the SA wiped), and:
#  - the time to full membership (every member back at the SA and every
#    port's wave ended), from the reregister less settle_ms, against
#    total / R (target 1.2 x); next to it, the same wave against the SA
#    without a limit, in the same boot: what the guest itself can do (on
#    TCG, a few thousand re-joins a second), which bounds the fast SAs;
#  - the most MCMemberRecord requests the SA got in any 100 ms against
#    R / 10 (1.1 x), and of all requests: ib_sa itself asks every port's
#    SA for its ClassPortInfo a second after a reregister, 64 queries at
#    once, which the waves (settle_ms 1000) meet; when the busiest 100 ms
#    ended, and the requests of each 10 ms saved (fleet-R.arrivals);
#  - the requests the SA got against the members (its Sets, resends
#    included: 1.01 x), and ib_sa's timeouts (sa_timeouts);
#  - members lost (0).
# timeout: 1800
. "$(dirname "$0")/../bench/bench_lib.sh"

mcg_require_simhca
DEVS=${BENCH_FLEET_DEVS:-32}
G=${BENCH_FLEET_G:-256}
RS=${BENCH_FLEET_R:-"500 2000 5000 20000"}
PORTS=$((DEVS * 2))
TOTAL=$((PORTS * G))

now_ms() { echo $((${EPOCHREALTIME/./} / 1000)); }
# full: every member at the SA and every port's wave over
full() { [ "$(sa_stat members)" = "${2:-$TOTAL}" ] && [ "$(mcg_sysfs_sum rejoin_waves)" = "$1" ]; }

ktap_plan 1
modprobe ib_umad
mcg_unload_simhca
modprobe simhca fabric=Y ndevs=$DEVS nports=2 || ktap_skip_all "no simhca with fabric=Y"
SETTLE_MS=${BENCH_FLEET_SETTLE_MS:-1000}
# BENCH_FLEET_SA=drop: an SA unlike OpenSM's, which answers the first R
# requests of each second at once and drops the others (rate_limit);
# busy: the queue of serve_rate bounded, a request that would wait more
# than BENCH_FLEET_BUSY_MS (50) answered BUSY at once (serve_busy_ms)
SA_KNOB=serve_rate
case ${BENCH_FLEET_SA:-queue} in
drop) SA_KNOB=rate_limit ;;
busy) echo "${BENCH_FLEET_BUSY_MS:-50}" >"$D/serve_busy_ms" ;;
esac
mcg_load settle_ms=$SETTLE_MS max_groups=0 || ktap_skip_all "cannot load ib_mcgroups"
defer mcg_unload_simhca

broken=0
t0=$(now_ms)
for ((d = 0; d < DEVS; d++)); do
	for p in 1 2; do
		mcg_bulk join simhca$d $p $G bench:fleet >/dev/null || broken=1
	done
done
wait_for -t 600 full "$(mcg_sysfs_sum rejoin_waves)" || broken=1
bench_info "fleet: $PORTS ports x $G groups joined (SA without a limit)" \
	"$(($(now_ms) - t0)) ms; SA $(sa_stat groups) groups, $(sa_stat members) members"

# wave R LIMIT_S [MEMBERS]: a fabric-wide reregister against an SA of R/s
# (0: no limit); sets el (ms from the reregister to full membership, less
# settle_ms), or fails after LIMIT_S
wave() {
	echo "$1" >"$D/$SA_KNOB"
	for f in /sys/kernel/debug/simhca/simhca*/stats; do echo 1 >"$f"; done
	w=$(mcg_sysfs_sum rejoin_waves)
	to=$(mcg_sysfs_sum sa_timeouts)
	rf=$(mcg_sysfs_sum rejoin_failures)
	t0=$(now_ms)
	echo 1 >$D/client_reregister
	wait_for -t "$2" full $((w + PORTS)) "${3:-$TOTAL}" || return 1
	el=$(($(now_ms) - t0 - SETTLE_MS))
}

ceiling=
if [ "$broken" = 0 ] && wave 0 300; then
	ceiling=$el
	bench_info "fleet: the wave against an SA without a limit (the guest's own pace)" \
		"$el ms, $((TOTAL * 1000 / (el > 0 ? el : 1)))/s; sa_timeouts $(($(mcg_sysfs_sum sa_timeouts) - to))"
fi
for r in $RS; do
	[ "$broken" = 0 ] || break
	ideal=$((TOTAL * 1000 / r))
	limit=$((TOTAL * 4 / r + 120))
	if ! wave "$r" "$limit"; then
		bench_info "fleet: $PORTS x $G at R=$r/s" \
			"not back in $limit s: SA $(sa_stat members) of $TOTAL members, waves $(($(mcg_sysfs_sum rejoin_waves) - w)) of $PORTS, Sets $(sa_stat rx_set_mcm), sa_timeouts $(($(mcg_sysfs_sum sa_timeouts) - to)), queue wait at most $(sa_stat serve_wait_max_us) us"
		continue
	fi
	sets=$(sa_stat rx_set_mcm)
	bench_row "fleet: full membership after a fabric-wide reregister, $PORTS ports x $G groups, SA R=$r/s" \
		"total / R" "$ideal" "$el" ms 1.20
	[ -z "$ceiling" ] || [ "$ideal" -ge "$ceiling" ] ||
		bench_inforow "fleet: the same, R=$r/s, against the guest's own pace" \
			"the wave without a limit, $ceiling ms" "$el ms ($((el * 100 / (ceiling > 0 ? ceiling : 1))) %)"
	bench_row "fleet: the SA's most MCMemberRecord requests in 100 ms, R=$r/s" \
		"R / 10" "$((r / 10))" "$(sa_stat mcm_max_per_100ms)" requests 1.10
	bench_inforow "fleet: ... all SA requests, ib_sa's own included, R=$r/s" \
		"R / 10 $((r / 10))" "$(sa_stat max_per_100ms) requests"
	bench_row "fleet: the SA's Sets (resends included), R=$r/s" \
		"members" "$TOTAL" "$sets" Sets 1.01
	bench_info "fleet: R=$r/s" \
		"sa_timeouts $(($(mcg_sysfs_sum sa_timeouts) - to)), dropped $(sa_stat drop_rate), answered BUSY $(sa_stat busy), re-joins refused $(($(mcg_sysfs_sum rejoin_failures) - rf)), answers to resent requests $(sa_stat_sum answers_resent), queue wait at most $(sa_stat serve_wait_max_us) us, lost $((TOTAL - $(sa_stat members))); the busiest 100 ms ended $(sa_stat mcm_max_per_100ms_end_ms) ms after the reregister (MCMemberRecords; all requests: $(sa_stat max_per_100ms_end_ms) ms; the waves began at $SETTLE_MS ms, the last ended by $((el + SETTLE_MS)) ms)"
	# the SA's requests per 10 ms, since the reregister ($O/out/)
	save_output "fleet-$r.arrivals" <"$D/arrivals"
done

# Admin before users: uid 65534 holds U groups of its own on both ports
# of every fourth device (bound holds, in a range root lets users create in), and one
# more reregister at the SA of ORDER_R: on each of those ports, every one
# of root's groups must be joined again before any of the user's
# (mcctl monitor's group-state events, in the order the module sent them).
U=4	# 16 ports x 4: user_max_holds, 64 by default
ORDER_R=${BENCH_FLEET_ORDER_R:-2000}
order_wave() {
	local d p n=0 pids=() mon ok=0 bad=0 early

	echo ff12:401b:ffff::7000/116 >/sys/module/ib_mcgroups/parameters/user_create
	for ((d = 0; d < DEVS; d += 4)); do
		for p in 1 2; do
			MCG_BULK_NOCREATE=1 "${UNPRIV[@]}" mcg_bulk hold simhca$d $p $U uid:65534 \
				$((0x7000 + n * U)) >/tmp/fleet-hold.$n 2>&1 &
			pids+=($!)
			n=$((n + 1))
		done
	done
	for ((d = 0; d < n; d++)); do
		wait_for -t 120 grep -q joined /tmp/fleet-hold.$d ||
			{ cat /tmp/fleet-hold.$d >/tmp/fleet-order.err; return 1; }
	done
	wait_for -t 120 full "$(mcg_sysfs_sum rejoin_waves)" $((TOTAL + n * U)) ||
		{ echo "SA members $(sa_stat members)" >/tmp/fleet-order.err; return 1; }
	mcctl -j monitor >/tmp/fleet-order.json 2>/tmp/fleet-order.err &
	mon=$!
	sleep 1
	wave "$ORDER_R" $((TOTAL * 4 / ORDER_R + 120)) $((TOTAL + n * U)) ||
		{ echo "the wave: SA members $(sa_stat members)" >/tmp/fleet-order.err; return 1; }
	kill "$mon" "${pids[@]}"
	wait "$mon" "${pids[@]}" 2>/dev/null
	# per port: the line of root's last joined event, the user's first
	jq -r 'select(.event == "group-state" and .state == "joined") |
		"\(.dev)/\(.port) \(.group)"' /tmp/fleet-order.json |
		awk '{ user = ($2 ~ /::7[0-9a-f][0-9a-f][0-9a-f]$/) }
		     !user { root[$1] = NR; nroot[$1]++ }
		     user && !($1 in first) { first[$1] = NR }
		     user { nuser[$1]++ }
		     END { for (p in first)
				print p, root[p] + 0, first[p], nroot[p] + 0, nuser[p] }' \
		>/tmp/fleet-order.txt
	# each port: all of root's G and the user's U joined, root's first
	while read -r p last first nroot nuser; do
		if [ "$nroot" = "$G" ] && [ "$nuser" = "$U" ] &&
		   [ "$first" -gt "$last" ]; then
			ok=$((ok + 1))
		else
			bad=$((bad + 1))
			early="${early:-} $p"
		fi
	done </tmp/fleet-order.txt
	bench_info "fleet: admin before users, R=$ORDER_R/s: uid 65534's $U groups on $n ports" \
		"on $ok of $n ports all $G of root's groups were joined again before the user's first; not on $bad${early:+ (}${early# }${early:+)}; monitor: $(wc -l </tmp/fleet-order.json) events"
	[ "$ok" = "$n" ]
}
if [ "$broken" = 0 ] && [ "$ORDER_R" != 0 ]; then
	order_wave || ktap_diag "admin before users: the wave failed: $(cat /tmp/fleet-order.err 2>/dev/null)"
fi
echo 0 >"$D/$SA_KNOB"
echo 0 >"$D/serve_busy_ms"

check "benchmark ran" test "$broken" = 0
ktap_finish
