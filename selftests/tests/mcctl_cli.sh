#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# mcctl's command line around the module: -V reports the loaded module's
# version and protocol (from sysfs and the family, without loading the
# module as a family lookup would), help and apply --check work without
# the module.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

modver=$(modinfo -F version ib_mcgroups)
CONF=$(mktemp /tmp/ib_mcgroups.conf.XXXXXX)
printf 'owner node\ngroup g1 all 239.1.1.1\npool p1 all 239.1.2.1\n' >"$CONF"
cleanup() {
	rm -f "$CONF"
	mcg_unload
}

ktap_plan 9
defer cleanup
mcg_unload

out=$(mcctl -V 2>&1)
check_eq "-V without the module: exit 0" 0 $?
check_eq "-V without the module: mcctl's version, module not loaded" \
	"mcctl $modver (ib_mcgroups protocol 2)
module ib_mcgroups not loaded" "$out"
check_fail "-V did not load the module" test -d /sys/module/ib_mcgroups
check "list help without the module" sh -c 'mcctl list help | grep -q "^Usage: mcctl list"'
check "apply --check without the module" mcctl -c "$CONF" apply --check

check "load ib_mcgroups" mcg_load
out=$(mcctl -V 2>/dev/null)
check_eq "-V: the module's version and protocol" \
	"mcctl $modver (ib_mcgroups protocol 2)
module ib_mcgroups $modver (protocol 2)" "$out"
check_eq "the module's version is its MODULE_VERSION" "$modver" \
	"$(cat /sys/module/ib_mcgroups/version)"
check_eq "same protocol: no warning" "" "$(mcctl -V 2>&1 >/dev/null)"
ktap_finish
