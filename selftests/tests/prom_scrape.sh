#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# contrib/prometheus and contrib/grafana against the real programs, in the
# VM (Debian 12's prometheus 2.42 and prometheus-node-exporter 1.5): the
# command of the shipped cron example (contrib/prometheus/
# ib_mcgroups-metrics.cron, run every second here) writes the metrics file,
# node_exporter's textfile collector serves it, Prometheus scrapes it. After
# a client reregister on simhca whose re-joins partly fail, Prometheus's
# HTTP API answers ib_mcgroups_groups, mcast_table_used,
# sm_reregisters_total and group_rejoins_total as sysfs says; the shipped
# alert IbMcgroupsRejoinFailures fires (/api/v1/alerts) and resolves;
# IbMcgroupsMulticastTableFull fires at 4 groups of simhca's table of 5 and
# resolves at 3; IbMcgroupsModuleDown fires when the module is unloaded
# while the cron command keeps running; every expression
# of the Grafana dashboard returns data. The rules are the shipped ones with
# their "for:" and range windows shortened (a test-only copy). Fails (no
# skip) without Prometheus on the host: make deps installs it.
# timeout: 180
# guest-files: /usr/bin/prometheus /usr/bin/prometheus-node-exporter
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca

CONTRIB=$SELFTESTS_DIR/../contrib
TD=/var/lib/prometheus/node-exporter
PD=/tmp/prom_scrape
API=http://127.0.0.1:9090/api/v1

ktap_plan 34

missing=
for p in prometheus prometheus-node-exporter wget jq; do
	command -v "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if ! check_eq "prometheus and node_exporter are in the VM (make deps installs them on the host)" "" "$missing"; then
	ktap_diag "missing:$missing"
	ktap_finish
fi

modprobe ib_umad
# a multicast table of 5 entries: 4 groups held pass the alert's 80 %
check "load simhca (a table of 5), then ib_mcgroups" sh -c \
	"modprobe simhca max_mcast_grp=5 && modprobe ib_mcgroups settle_ms=300 backoff_base_ms=200"
defer mcg_unload_simhca
check "hold three groups on $P" sh -c "
	mcctl join $P ff12:401b:ffff::1 owner a create &&
	mcctl join $P ff12:401b:ffff::2 owner b create &&
	mcctl join $P ff12:401b:ffff::3 owner b create"

# --- the metrics file, as the shipped cron example writes it ------------------
mkdir -p $TD $PD
[ -e /usr/sbin/mcctl ] || ln -s "$(command -v mcctl)" /usr/sbin/mcctl
cron=$(grep -v '^#' "$CONTRIB/prometheus/ib_mcgroups-metrics.cron" | grep .)
cmd=$(awk '{for (i = 7; i <= NF; i++) printf "%s%s", $i, (i < NF ? " " : "")}' <<<"$cron")
check_eq "the cron example runs mcctl metrics --textfile $TD as root" \
	"root /usr/sbin/mcctl metrics --textfile $TD" "$(awk '{print $6}' <<<"$cron") $cmd"
# every second instead of every minute (cron's granularity), also while
# rmmod runs below
(while :; do
	$cmd
	sleep 1
done) &
defer kill $!
check "it writes $TD/ib_mcgroups.prom" wait_for -t 10 test -s $TD/ib_mcgroups.prom

# --- node_exporter and Prometheus -------------------------------------------------
prometheus-node-exporter --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory=$TD --web.listen-address=127.0.0.1:9100 \
	>$PD/node_exporter.log 2>&1 &
defer kill $!
check "node_exporter serves the file" wait_for -t 30 \
	sh -c "wget -qO- http://127.0.0.1:9100/metrics | grep -q '^ib_mcgroups_up 1'"

# the shipped rules, with windows a test can wait for
sed -e 's/for: [0-9]*m/for: 2s/' -e 's/\[10m\]/[30s]/' \
	"$CONTRIB/prometheus/ib_mcgroups.rules.yml" >$PD/rules.yml
cat >$PD/prometheus.yml <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $PD/rules.yml
scrape_configs:
  - job_name: node
    static_configs:
      - targets: ['127.0.0.1:9100']
EOF
prometheus --config.file=$PD/prometheus.yml --storage.tsdb.path=$PD/data \
	--web.listen-address=127.0.0.1:9090 >$PD/prometheus.log 2>&1 &
defer kill $!
if ! check "Prometheus is ready" wait_for -t 60 wget -qO- http://127.0.0.1:9090/-/ready; then
	ktap_diag "$(tail -n 20 $PD/prometheus.log)"
fi
check "it loaded the shipped rules (5 alerts)" wait_for -t 10 sh -c \
	"[ \$(wget -qO- $API/rules | jq '[.data.groups[].rules[]] | length') = 5 ]"

# q EXPR: the values of an instant query, "labels value" a line, sorted
q() {
	wget -qO- "$API/query?query=$(jq -rn --arg q "$1" '$q | @uri')" |
		jq -r '.data.result[] | "\(.metric | del(.instance, .job) | to_entries | map("\(.key)=\(.value)") | join(",")) \(.value[1])"' |
		sort
}
# v EXPR: the single value of EXPR
v() { q "$1" | awk '{print $NF}'; }
check "Prometheus scrapes ib_mcgroups_up 1" wait_for -t 30 sh -c "[ \"\$(wget -qO- '$API/query?query=ib_mcgroups_up' | jq -r '.data.result[0].value[1]')\" = 1 ]"

# --- a client reregister whose re-joins partly fail -------------------------------
L='device="simhca0",port="1"'
# increase() sees the failures only if the series was scraped before them
check_eq "before: Prometheus has rejoin_failures_total 0" 0 \
	"$(v "ib_mcgroups_rejoin_failures_total{$L}")"
echo 2 >$D/fail_next
echo 1 >$D/client_reregister
check "reregister with 2 SA requests failing: the wave completes" \
	wait_for -t 60 sh -c "[ \$(cat $SYS/rejoin_waves) = 1 ]"
failures=$(cat $SYS/rejoin_failures)

# --- the shipped alerts -------------------------------------------------------
# alert NAME: its state in /api/v1/alerts (firing, pending or nothing)
alert() { wget -qO- "$API/alerts" | jq -r --arg a "$1" '[.data.alerts[] | select(.labels.alertname == $a) | .state] | first // empty'; }
firing() { [ "$(alert "$1")" = firing ]; }
check "IbMcgroupsRejoinFailures fires" wait_for -t 30 firing IbMcgroupsRejoinFailures ||
	ktap_diag "increase[30s]: $(q "increase(ib_mcgroups_rejoin_failures_total{$L}[30s])")"
ktap_diag "$(wget -qO- "$API/alerts" | jq -c '.data.alerts[] | {a: .labels.alertname, s: .state, d: .labels.device}')"
ktap_diag "sysfs: groups $(cat $SYS/groups), sm_reregisters $(cat $SYS/sm_reregisters), group_rejoins $(cat $SYS/group_rejoins), rejoin_failures $failures"
seen() { [ "$(v "ib_mcgroups_group_rejoins_total{$L}")" = "$(cat $SYS/group_rejoins)" ]; }
check "Prometheus has the wave's counters" wait_for -t 30 seen
check_eq "ib_mcgroups_groups: all groups held, summed over states, as sysfs groups" \
	"$(cat $SYS/groups)" "$(v "sum(ib_mcgroups_groups{$L})")"
check_eq "ib_mcgroups_groups{state=\"joined\"} as mcctl list" \
	"$(mcg_count joined $P)" \
	"$(v "ib_mcgroups_groups{$L,state=\"joined\"}")"
check_eq "ib_mcgroups_mcast_table_used as sysfs groups" "$(cat $SYS/groups)" \
	"$(v "ib_mcgroups_mcast_table_used{$L}")"
check_eq "ib_mcgroups_sm_reregisters_total as sysfs (1)" "$(cat $SYS/sm_reregisters) 1" \
	"$(v "ib_mcgroups_sm_reregisters_total{$L}") $(cat $SYS/sm_reregisters)"
check_eq "ib_mcgroups_group_rejoins_total as sysfs" "$(cat $SYS/group_rejoins)" \
	"$(v "ib_mcgroups_group_rejoins_total{$L}")"
check_eq "ib_mcgroups_rejoin_failures_total as sysfs" "$failures" \
	"$(v "ib_mcgroups_rejoin_failures_total{$L}")"
check "the re-joins failed (rejoin_failures >= 1)" test "$failures" -ge 1

# (the value checks above took some of the window)
check "IbMcgroupsRejoinFailures resolves once no re-join fails (30 s window)" \
	wait_for -t 60 sh -c "[ -z \"\$(wget -qO- $API/alerts | jq -r '.data.alerts[] | select(.labels.alertname == \"IbMcgroupsRejoinFailures\") | .state')\" ]"

# --- the multicast table past its threshold -----------------------------------
check_eq "3 groups in a table of 5: IbMcgroupsMulticastTableFull quiet" "" \
	"$(alert IbMcgroupsMulticastTableFull)"
check "c holds a fourth group: 80 % of the table" \
	mcctl join $P ff12:401b:ffff::4 owner c create
check "IbMcgroupsMulticastTableFull fires" \
	wait_for -t 30 firing IbMcgroupsMulticastTableFull
ktap_diag "table: $(q "ib_mcgroups_mcast_table_used{$L}") of $(q "ib_mcgroups_mcast_table_max{$L}")"
check "c leaves it" mcctl leave $P ff12:401b:ffff::4 owner c
check "the alert resolves at 3 of 5" wait_for -t 30 sh -c \
	"[ -z \"\$(wget -qO- $API/alerts | jq -r '.data.alerts[] | select(.labels.alertname == \"IbMcgroupsMulticastTableFull\") | .state')\" ]"

# --- the Grafana dashboard: every panel's expression returns data ----------------
# Each asked again for up to 10 s: a query on a loaded host once came
# back empty for one of them (6.12, a fresh-machine run).
has_data() { [ -n "$(q "$1")" ]; }
nexpr=0
empty=
while IFS= read -r e; do
	nexpr=$((nexpr + 1))
	wait_for -t 10 has_data "${e//\$instance/.*}" || empty="$empty [$e]"
done < <(jq -r '.. | objects | select(has("expr")) | .expr' "$CONTRIB/grafana/ib_mcgroups.json")
ktap_diag "Grafana: $nexpr expressions"
check "the dashboard has expressions" test "$nexpr" -ge 10
check_eq "every one returns data" "" "$empty"

# --- the module unloaded --------------------------------------------------------
# The cron command keeps running every second while rmmod runs: mcctl
# metrics never loads the module (libibmcg's IBMCG_CONNECT_NOLOAD), so it
# stays unloaded and the alert fires.
check "unload ib_mcgroups" mcg_unload
check "IbMcgroupsModuleDown fires" wait_for -t 40 firing IbMcgroupsModuleDown
check_fail "the scrapes meanwhile did not load the module" test -d /sys/module/ib_mcgroups
check "ib_mcgroups_up 0 in Prometheus" wait_for -t 5 sh -c "[ \"\$(wget -qO- '$API/query?query=ib_mcgroups_up' | jq -r '.data.result[0].value[1]')\" = 0 ]"
check "load it again: IbMcgroupsModuleDown resolves" sh -c \
	"modprobe ib_mcgroups && sleep 1"
check "resolved" wait_for -t 40 sh -c "[ -z \"\$(wget -qO- $API/alerts | jq -r '.data.alerts[] | select(.labels.alertname == \"IbMcgroupsModuleDown\") | .state')\" ]"
ktap_finish
