#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Declared groups: "mcctl apply" makes the holds of the configuration
# file's owners match the file (dry run first, idempotent, other owners
# untouched, undeclared holds of its owners dropped, linger updated), and
# jobs join and leave a declared pool by name on every port it covers.
# timeout: 150
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

SYS0=/sys/kernel/ib_mcgroups/$MCG_DEV0/1
SYS1=/sys/kernel/ib_mcgroups/$MCG_DEV1/1
CONF=$(mktemp /tmp/ib_mcgroups.conf.XXXXXX)
chmod 0644 "$CONF"
defer rm -f "$CONF"

write_conf() {
	cat >"$CONF" <<-EOF
	# test configuration
	owner boot
	group mgmt  $MCG_DEV0/1 239.20.0.1 linger ${1:-2s}
	${2:-group every all-roce 239.20.0.2}
	group v6    $MCG_DEV0   ff0e::20 owner admin
	group gone  nodev0/1    239.20.0.9
	pool  jobs0 all-roce    239.20.0.100 linger 3s
	EOF
}

mc() { mcctl -c "$CONF" "$@"; }

ktap_plan 36
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer mcg_unload
write_conf

out=$(mc -j apply --dry-run)
check_eq "dry run plans 4 joins and skips the absent device" "4 0 0 0 1 0" "$(apply_summary "$out")"
check_eq "the plan names each action" \
	"join mgmt,join every,join every,join v6,skip gone" \
	"$(jq -r '[.actions[] | "\(.action) \(.name)"] | join(",")' <<<"$out")"
check_eq "and every action is only planned" planned \
	"$(jq -r '[.actions[].result] | unique | join(",")' <<<"$out")"
check_eq "a dry run changes nothing" "0 0" "$(cat $SYS0/holders) $(cat $SYS1/holders)"
check "a dry run works unprivileged" run_unpriv mcctl -c "$CONF" apply --dry-run
check_fail "apply unprivileged is refused" run_unpriv mcctl -c "$CONF" apply
check_eq "and changes nothing" "0 0" "$(cat $SYS0/holders) $(cat $SYS1/holders)"

out=$(mc apply)
check_eq "apply joins them" "apply: 4 joined, 0 updated, 0 left, 0 kept, 1 skipped, 0 failed" \
	"$(tail -n1 <<<"$out")"
check_eq "boot holds mgmt and every (both devices)" \
	"$MCG_DEV0/1 239.20.0.1 $MCG_DEV0/1 239.20.0.2 $MCG_DEV1/1 239.20.0.2 " "$(holds_of boot)"
check_eq "admin holds v6 on every port of $MCG_DEV0" "$MCG_DEV0/1 ff0e::20 " "$(holds_of admin)"
check_eq "IGMP on both netdevs" "1 1 1" \
	"$(igmp_count "$MCG_IF0" 239.20.0.1) $(igmp_count "$MCG_IF0" 239.20.0.2) $(igmp_count "$MCG_IF1" 239.20.0.2)"

joins=$(cat $SYS0/joins)
out=$(mc -j apply)
check_eq "a second apply keeps everything" "0 0 0 4 1 0" "$(apply_summary "$out")"
check_eq "and sends no join" "$joins" "$(cat $SYS0/joins)"

check "job:1 shares mgmt" mcctl join "$MCG_DEV0/1" 239.20.0.1 owner job:1
check "boot holds an undeclared group" mcctl join "$MCG_DEV0/1" 239.20.0.50 owner boot
out=$(mc -j apply)
check_eq "apply drops only the undeclared hold of its owner" \
	"0 0 1 4 1 0 leave 239.20.0.50" \
	"$(apply_summary "$out") $(jq -r '.actions[] | select(.action == "leave") | "\(.action) \(.group)"' <<<"$out")"
check_eq "job:1's hold is untouched" "$MCG_DEV0/1 239.20.0.1 " "$(holds_of job:1)"

write_conf 5s "# every removed"
out=$(mc -j apply)
check_eq "new linger is an update, the removed group two leaves" "0 1 2 1 1 0" "$(apply_summary "$out")"
check_eq "mgmt now lingers 5 s" 5000 \
	"$(mcctl -j show "$MCG_DEV0/1" 239.20.0.1 | jq -r .linger_ms)"
check_eq "239.20.0.2 is released on both devices" "0 0" \
	"$(igmp_count "$MCG_IF0" 239.20.0.2) $(igmp_count "$MCG_IF1" 239.20.0.2)"

out=$(mc -j join jobs0 owner job:42)
check_eq "join by name holds the pool group on every RoCE port" \
	"$MCG_DEV0/1 239.20.0.100 $MCG_DEV1/1 239.20.0.100 " "$(holds_of job:42)"
check_eq "with the declared linger" "3000 3000" "$(jq -r '[.[].linger_ms] | join(" ")' <<<"$out")"
out=$(mc -j apply)
check_eq "apply leaves the job's holds alone" "0 0 0 2 1 0" "$(apply_summary "$out")"
check "leave by name" mc leave jobs0 owner job:42
check_eq "the pool group lingers on both ports" "lingering lingering" \
	"$(mcctl -j list | jq -r '[.[] | select(.group == "239.20.0.100") | .state] | join(" ")')"
hits=$(cat $SYS1/linger_hits)
check "the next job joins within the linger time" mc join jobs0 owner job:43
check_eq "and takes the lingering membership back" $((hits + 1)) "$(cat $SYS1/linger_hits)"

# An HCA reset or rxe re-add: the module drops the device's groups, the
# udev rule runs apply, which takes the declared ones back.
check "rdma link delete $MCG_DEV0 (a device reset)" rdma link delete "$MCG_DEV0"
check "and add it again" mcg_setup_rxe
check_eq "apply after the re-add joins its declared groups again" "2 0 0 0 1 0" \
	"$(apply_summary "$(mc -j apply)")"
check_eq "boot and admin hold them" "$MCG_DEV0/1 239.20.0.1 |$MCG_DEV0/1 ff0e::20 " \
	"$(holds_of boot)|$(holds_of admin)"

err=$(mc join nosuch owner job:1 2>&1; echo "exit $?")
check_eq "an unknown name is a usage error" \
	"mcctl: no group named 'nosuch' in $CONF (a DEV/PORT needs a slash)
exit 2" "$err"
before=$(mcctl -j list | jq -c .)
printf 'group broken %s/1 239.20.0.7 qkey\n' "$MCG_DEV0" >>"$CONF"
err=$(mc apply 2>&1; echo "exit $?")
check_eq "a broken file names its line and changes nothing" \
	"mcctl: $CONF:8: missing value for 'qkey'
exit 2" "$err"
check_eq "state unchanged" "$before" "$(mcctl -j list | jq -c .)"
ktap_finish
