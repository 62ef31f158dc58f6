#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# mcctl's layout, as built (HACKING, "Layout"): main() and its command
# table in mcctl.c, which nothing else calls into; the objects of mcctl
# depend on each other without a cycle (a command file may use
# mcctl_utils.c, mcctl_named.c and the parsers, never the other way round).
cd "$(dirname "$0")/.." || exit 1
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
# shellcheck source=tests/ktap.sh
. tests/ktap.sh

echo "TAP version 13"
echo "1..3"
objs=$(make -s -f Makefile -f - print-mcctl-objs <<'MK'
print-mcctl-objs:
	@echo $(MCCTL_OBJS)
MK
)
for o in $objs; do
	nm -g --defined-only "$o" | awk -v o="$o" 'NF == 3 { print $3, o }'
done | sort >"$D/defs"
for o in $objs; do
	nm -u "$o" | awk -v o="$o" '{ print $2, o }'
done | sort >"$D/uses"
# "user definer" for every symbol one object of mcctl takes from another
join "$D/uses" "$D/defs" | awk '$2 != $3 { print $2, $3 }' | sort -u >"$D/edges"

[ -s "$D/edges" ] && awk '$2 == "mcctl.o"' "$D/edges" >"$D/bad" && [ ! -s "$D/bad" ]
r=$?
sed 's/^/# calls into main: /' "$D/bad"
ok $r "nothing calls into mcctl.c ($(echo "$objs" | wc -w) objects)"

awk '{ print $2, $1 }' "$D/edges" | tsort >/dev/null 2>"$D/loop"
[ ! -s "$D/loop" ]
r=$?
sed 's/^/# /' "$D/loop"
ok $r "mcctl's objects depend on each other without a cycle"

nm -g --defined-only mcctl.o | awk 'NF == 3 { print $3 }' >"$D/main"
[ "$(cat "$D/main")" = main ]
r=$?
sed 's/^/# mcctl.o defines: /' "$D/main"
ok $r "mcctl.c defines only main()"
ktap_done
