#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# mcctl metrics against the module: without it, ib_mcgroups_up 0 (and the
# module stays unloaded, also when scraped while rmmod runs); on RoCE and on InfiniBand (simhca, after an SM
# reregister with failed re-joins) every value equals what sysfs, mcctl
# stats and mcctl list say; --textfile replaces one 0644 file; nobody may
# run it. The expositions are saved for promtool on the host (run.sh).
# timeout: 240
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

TF=/tmp/textfile
# m NAME [LABELS]: the value of the series NAME{LABELS} in $prom
m() {
	local k=ib_mcgroups_$1

	[ -n "${2:-}" ] && k="$k{$2}"
	awk -v k="$k" '$1 == k { print $2 }' <<<"$prom"
}
# groups_in STATE DEV/PORT: groups mcctl list shows in STATE there
groups_in() {
	mcg_count "$1" "$2"
}
# same_as_sysfs LABELS SYSDIR: every per-port counter and gauge equals sysfs
same_as_sysfs() {
	local l=$1 s=$2 f name

	for f in groups:mcast_table_used holders:holders joins:joins_total \
		 leaves:leaves_total join_errors:join_errors_total \
		 linger_hits:linger_hits_total linger_expired:linger_expired_total; do
		name=${f#*:}
		[ "$(m "$name" "$l")" = "$(cat "$s/${f%%:*}")" ] || {
			echo "$name: $(m "$name" "$l"), sysfs ${f%%:*}: $(cat "$s/${f%%:*}")"
			return 1
		}
	done
}
# state_sum LABELS: the sum of ib_mcgroups_groups over the states
state_sum() {
	awk -v p="ib_mcgroups_groups{$1,state=" 'index($1, p) == 1 { n += $2 } END { print n + 0 }' <<<"$prom"
}
cleanup() {
	mcctl leave owner a all >/dev/null 2>&1
	mcctl leave owner b all >/dev/null 2>&1
	mcg_unload_simhca
	mcg_teardown_rxe
	rm -rf "$TF"
}

ktap_plan 46
defer cleanup
mcg_unload

# --- the module not loaded ---------------------------------------------------
prom=$(mcctl metrics)
check_eq "without the module: exit 0" 0 $?
check_eq "ib_mcgroups_up 0" 0 "$(m up)"
check "the library version, no module version" grep -qx \
	"ib_mcgroups_info{module_version=\"\",protocol_version=\"\",library_version=\"$(modinfo -F version ib_mcgroups)\"} 1" <<<"$prom"
check_fail "metrics did not load the module" test -d /sys/module/ib_mcgroups
save_output metrics-down.prom <<<"$prom"

# --- scraped while it is unloaded ---------------------------------------------
# A scrape that looks the family up while rmmod runs must not load the
# module again (a lookup by name makes the kernel load it): 20 unloads
# under a loop of mcctl metrics and mcctl version.
rm -f /tmp/scrape.stop
( while [ ! -e /tmp/scrape.stop ]; do
	mcctl metrics >/dev/null 2>&1
	mcctl version >/dev/null 2>&1
  done ) &
scraper=$!
reloaded=0 unloaded=0
for _ in $(seq 20); do
	mcg_load
	sleep 0.$((RANDOM % 4))
	rmmod ib_mcgroups 2>/dev/null || continue
	unloaded=$((unloaded + 1))
	sleep 0.5
	[ -d /sys/module/ib_mcgroups ] && reloaded=$((reloaded + 1))
done
touch /tmp/scrape.stop
wait $scraper
check "scraped while unloading: most of 20 rmmods succeeded" test $unloaded -ge 15
check_eq "and none loaded the module again" "0 of $unloaded" "$reloaded of $unloaded"
mcg_unload

# --- RoCE --------------------------------------------------------------------
check "set up rxe0/rxe1" mcg_setup_rxe
check "load ib_mcgroups" mcg_load
R=rxe0/1
check "joins: two owners on 239.1.1.1, a on 239.1.1.2 and ff0e::1234" sh -c "
	mcctl join $R 239.1.1.1 owner a && mcctl join $R 239.1.1.1 owner b &&
	mcctl join $R 239.1.1.2 owner a && mcctl join $R ff0e::1234 owner a"
check "b leaves; a 239.1.1.3 with a linger of 60 s left lingering" sh -c "
	mcctl leave $R 239.1.1.1 owner b &&
	mcctl join $R 239.1.1.3 owner b linger 60s && mcctl leave $R 239.1.1.3 owner b"

prom=$(mcctl metrics)
check_eq "with the module: exit 0" 0 $?
save_output metrics-roce.prom <<<"$prom"
L='device="rxe0",port="1",link_layer="ethernet"'
SYS=/sys/kernel/ib_mcgroups/rxe0/1
check_eq "ib_mcgroups_up 1" 1 "$(m up)"
check "the module's version and protocol" grep -qx \
	"ib_mcgroups_info{module_version=\"$(cat /sys/module/ib_mcgroups/version)\",protocol_version=\"2\",library_version=\"$(modinfo -F version ib_mcgroups)\"} 1" <<<"$prom"
check "rxe0/1: every counter and gauge as in sysfs" same_as_sysfs "$L" $SYS
check_eq "rxe0/1: joined groups as mcctl list" "$(groups_in joined $R)" \
	"$(m groups "$L,state=\"joined\"")"
check_eq "rxe0/1: one lingering group" 1 "$(m groups "$L,state=\"lingering\"")"
check_eq "rxe0/1: the states add up to the groups held" "$(cat $SYS/groups)" \
	"$(state_sum "$L")"
check_eq "rxe0/1: mcast table max as mcctl stats" \
	"$(mcctl -j stats $R | jq '.[0].mcast_table.max')" "$(m mcast_table_max "$L")"
check_eq "rxe0/1: port state active (4)" 4 "$(m port_state "$L")"
check "rxe0/1: backend roce on veth0" grep -qx \
	"ib_mcgroups_port_info{$L,backend=\"roce\",netdev=\"veth0\"} 1" <<<"$prom"
check_eq "rxe1/1: nothing held" "0 0" \
	"$(m holders 'device="rxe1",port="1",link_layer="ethernet"') $(state_sum 'device="rxe1",port="1",link_layer="ethernet"')"
check_eq "no re-join statistics on RoCE" "" \
	"$(grep -E '^ib_mcgroups_(sm_reregisters|group_rejoins|rejoin_failures)_total' <<<"$prom")"
check_eq "every per-port series has device, port and link_layer" "" \
	"$(grep -v '^#' <<<"$prom" | grep -Ev '^ib_mcgroups_(up|info)[ {]' |
	   grep -Ev '^ib_mcgroups_[a-z_]+\{device="[^"]+",port="[0-9]+",link_layer="(ethernet|infiniband)"[,}]')"

# unprivileged: the service runs without capabilities
uout=$(run_unpriv mcctl metrics)
check_eq "nobody without capabilities: exit 0" 0 $?
check_eq "and the same holders" "$(m holders "$L")" \
	"$(prom=$uout; m holders "$L")"

# --textfile
mkdir -p $TF
check "--textfile $TF: exit 0" mcctl metrics --textfile $TF
# shellcheck disable=SC2011 # every name, dot files too; none has a space
check_eq "it wrote ib_mcgroups.prom alone, mode 644" "ib_mcgroups.prom 644" \
	"$(ls -A $TF | xargs) $(stat -c %a $TF/ib_mcgroups.prom)"
check_eq "with the holders of stdout" "$(m holders "$L")" \
	"$(prom=$(cat $TF/ib_mcgroups.prom); m holders "$L")"
mcctl leave $R 239.1.1.2 owner a >/dev/null
check "written again after a leave" mcctl metrics --textfile $TF
check_eq "the file has the new value" "$(cat $SYS/holders)" \
	"$(prom=$(cat $TF/ib_mcgroups.prom); m holders "$L")"
# shellcheck disable=SC2011 # as above
check_eq "and no temporary file" "ib_mcgroups.prom" "$(ls -A $TF | xargs)"
err=$(mcctl metrics --textfile $TF/missing 2>&1)
check_eq "a missing directory: exit 1" 1 $?
check "saying which" grep -q "cannot create a temporary file in $TF/missing" <<<"$err"

# --- InfiniBand (simhca) -----------------------------------------------------
if ! modinfo simhca >/dev/null 2>&1; then
	for _ in $(seq 12); do ktap_skip "InfiniBand" "simhca.ko not built"; done
	ktap_finish
fi
mcg_unload
mcg_require_simhca
modprobe ib_umad
check "load simhca, then ib_mcgroups" sh -c \
	"modprobe simhca && modprobe ib_mcgroups settle_ms=300 backoff_base_ms=200"
check "create two groups on $P" sh -c "
	mcctl join $P ff12:401b:ffff::1 owner a create &&
	mcctl join $P ff12:401b:ffff::2 owner b create"
mcctl join $P ff12:401b:ffff::3 owner a >/dev/null 2>&1	# not at the SA: a join error
echo 3 >$D/fail_next
echo 1 >$D/client_reregister
check "reregister, 3 SA requests failed: the wave completes" \
	wait_for -t 60 sh -c "[ \$(cat $SYS/rejoin_waves) = 1 ]"
prom=$(mcctl metrics)
save_output metrics-ib.prom <<<"$prom"
L='device="simhca0",port="1",link_layer="infiniband"'
check "simhca0/1: every counter and gauge as in sysfs" same_as_sysfs "$L" $SYS
check_eq "sm_reregisters_total 1, group_rejoins_total 2" "1 2" \
	"$(m sm_reregisters_total "$L") $(m group_rejoins_total "$L")"
check_eq "rejoin_failures_total as sysfs" "$(cat $SYS/rejoin_failures)" \
	"$(m rejoin_failures_total "$L")"
check "the failed re-joins counted" test "$(m rejoin_failures_total "$L")" -ge 1
# (1, or 2 when the SA's refusal came before libibmcg listened for it:
# the library then asks once more to learn the reason; admin guide, "The
# JOIN round trip")
je=$(cat $SYS/join_errors)
check_eq "join_errors_total: the group the SA does not have, as sysfs" \
	"$je $je" "$(m join_errors_total "$L") $(cat $SYS/join_errors)"
check "join_errors counted it" test "$je" -ge 1 -a "$je" -le 2
check_eq "rejoin_waves_total, sa_timeouts_total as sysfs" \
	"$(cat $SYS/rejoin_waves) $(cat $SYS/sa_timeouts)" \
	"$(m rejoin_waves_total "$L") $(m sa_timeouts_total "$L")"
ms=$(cat $SYS/last_rejoin_wave_ms)
check_eq "last_rejoin_wave_seconds: last_rejoin_wave_ms / 1000" \
	"$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))" \
	"$(m last_rejoin_wave_seconds "$L")"
check_eq "LIDs as mcctl stats" \
	"$(mcctl -j stats $P | jq -r '.[0] | "\(.lid) \(.sm_lid)"')" \
	"$(m lid "$L") $(m sm_lid "$L")"
check_eq "two groups joined, as mcctl list" "2 $(groups_in joined $P)" \
	"$(m groups "$L,state=\"joined\"") $(state_sum "$L")"
ktap_finish
