#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# libibmcg's namespace, as built (lib/libibmcg.a, lib/libibmcg.so.1): a
# library defines no global that is not ibmcg_*, its internals are
# ibmcg__* and hidden, nothing of mcctl is in it, no thread-local state.
# The rules are in HACKING ("Symbols").
cd "$(dirname "$0")/.." || exit 1
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
# shellcheck source=tests/ktap.sh
. tests/ktap.sh

echo "TAP version 13"
echo "1..7"
# name of every global defined symbol of FILE (nm's uppercase types but
# the absolute version nodes "A" of a shared library)
globals() {
	nm "$@" 2>/dev/null | awk 'NF == 3 && $2 ~ /^[BCDGRSTVW]$/ { print $3 }' | sort -u
}
# the public functions: the names libibmcg.map lists (and compat.c's)
grep -o 'ibmcg_[a-z_0-9]*[;:]' lib/libibmcg.map | tr -d ';:' | sort -u >"$D/public"

globals --defined-only lib/libibmcg.a >"$D/a"
[ -s "$D/a" ] && ! grep -v '^ibmcg_' "$D/a" >"$D/bad"
r=$?
sed 's/^/# not ibmcg_*: /' "$D/bad"
ok $r "libibmcg.a: every global symbol is ibmcg_* ($(wc -l <"$D/a") globals)"

grep -v '^ibmcg__' "$D/a" | sort | comm -23 - "$D/public" >"$D/bad"
[ ! -s "$D/bad" ]
r=$?
sed 's/^/# internal, but not ibmcg__*: /' "$D/bad"
ok $r "libibmcg.a: every global that is not in libibmcg.map is ibmcg__*"

globals -D --defined-only lib/libibmcg.so.1 >"$D/so"
[ -s "$D/so" ] && ! grep -v '^ibmcg_' "$D/so" >"$D/bad" &&
	! grep '^ibmcg__' "$D/so" >>"$D/bad"
r=$?
sed 's/^/# exported: /' "$D/bad"
ok $r "libibmcg.so.1 exports only ibmcg_* and no ibmcg__* ($(wc -l <"$D/so") symbols)"

# Hidden visibility, not only the version script: in the shared
# library's own symbol table the internals are local.
globals --defined-only lib/libibmcg.so.1 | grep '^ibmcg__' >"$D/bad"
[ ! -s "$D/bad" ]
r=$?
sed 's/^/# global in .symtab: /' "$D/bad"
ok $r "libibmcg.so.1: ibmcg__* internals are local (symtab)"

# In the objects of the archive: ibmcg__* defined HIDDEN, the rest DEFAULT.
readelf -sW lib/libibmcg.a 2>/dev/null |
	awk '$5 == "GLOBAL" && $7 != "UND" && $8 ~ /^ibmcg_/ {
		hidden = $8 ~ /^ibmcg__/
		if (hidden != ($6 == "HIDDEN")) print $8, $6
	}' >"$D/bad"
[ -s "$D/a" ] && [ ! -s "$D/bad" ]
r=$?
sed 's/^/# wrong visibility: /' "$D/bad"
ok $r "libibmcg.a's objects: ibmcg__* hidden, public symbols default (-fvisibility=hidden)"

readelf -sW lib/libibmcg.a lib/libibmcg.so.1 2>/dev/null | awk '$4 == "TLS"' >"$D/bad"
[ ! -s "$D/bad" ]
r=$?
sed 's/^/# /' "$D/bad"
ok $r "no thread-local variable in libibmcg"

ar t lib/libibmcg.a >"$D/members"
[ -s "$D/members" ] && ! grep -e '^mcctl' -e '^json_print' "$D/members" >"$D/bad"
r=$?
sed 's/^/# member: /' "$D/bad"
ok $r "libibmcg.a holds no object of mcctl ($(tr '\n' ' ' <"$D/members"))"
ktap_done
