#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# contrib/prometheus and contrib/grafana against the exporter: the alert
# rules pass "promtool check rules" and their unit tests ("promtool test
# rules"), the Grafana dashboard is JSON, and both use only metrics that
# mcctl metrics emits (tests/test_metrics --print shows every one).
# Skipped without promtool (apt-get install prometheus) or jq.
cd "$(dirname "$0")/.." || exit 1
C=../contrib
RULES=$C/prometheus/ib_mcgroups.rules.yml
DASH=$C/grafana/ib_mcgroups.json
D=$(mktemp -d /tmp/test_contrib.XXXXXX)
trap 'rm -rf "$D"' EXIT
# shellcheck source=tests/ktap.sh
. tests/ktap.sh
# run CMD...: its output as diagnostics if it fails; its status.
run() {
	"$@" >"$D/out" 2>&1
	r=$?
	[ $r = 0 ] || sed 's/^/# /' "$D/out"
	return $r
}
# unknown FILE: the ib_mcgroups_* names FILE uses that the exporter does not
# emit (none: empty output).
unknown() {
	grep -o 'ib_mcgroups_[a-z_]*' "$1" | sort -u | comm -23 - "$D/names"
}

echo "TAP version 13"
echo "1..6"
tests/test_metrics --print >"$D/all.prom"
sed -n 's/^# TYPE \([a-z_]*\) .*/\1/p' "$D/all.prom" | sort -u >"$D/names"
[ "$(wc -l <"$D/names")" -ge 27 ] && grep -qx ib_mcgroups_up "$D/names" &&
	grep -qx ib_mcgroups_sm_reregisters_total "$D/names"
ok $? "the exporter's metric names ($(wc -l <"$D/names"))"

if command -v promtool >/dev/null 2>&1; then
	run promtool check rules "$RULES"
	ok $? "promtool check rules $RULES"
	(cd $C/prometheus && run promtool test rules ib_mcgroups.rules.test.yml)
	ok $? "promtool test rules: the alerts fire when they should, and only then"
else
	ok skip "promtool check rules" "promtool not installed (apt-get install prometheus)"
	ok skip "promtool test rules" "promtool not installed (apt-get install prometheus)"
fi
bad=$(unknown "$RULES")
[ -z "$bad" ]
ok $? "the rules use only emitted metrics${bad:+ (not: $bad)}"

if command -v jq >/dev/null 2>&1; then
	run jq -e '.panels | length > 0' "$DASH"
	ok $? "the dashboard is JSON with panels"
else
	ok skip "the dashboard is JSON" "jq not installed"
fi
bad=$(unknown "$DASH")
[ -z "$bad" ] && grep -q 'ib_mcgroups_' "$DASH"
ok $? "the dashboard uses only emitted metrics${bad:+ (not: $bad)}"
ktap_done
