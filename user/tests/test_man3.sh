#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# libibmcg's man3 pages: installed by "make install", one for every
# exported function (its own or a .so link to its group's page), each page
# clean for man --warnings and groff -ww, and every page names only
# functions that exist.
cd "$(dirname "$0")/.." || exit 1
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
# shellcheck source=tests/ktap.sh
. tests/ktap.sh

echo "TAP version 13"
echo "1..7"
make -s install DESTDIR="$D" PREFIX=/usr >"$D/log" 2>&1
ok $? "make install DESTDIR=... PREFIX=/usr"
M=$D/usr/share/man
nm -D --defined-only lib/libibmcg.so.1 | awk '$2 == "T" { print $3 }' |
	sed 's/@.*//' | sort -u >"$D/syms"
missing=0
while read -r s; do
	[ -s "$M/man3/$s.3" ] || { echo "# no page for $s"; missing=1; }
done <"$D/syms"
ok $missing "every exported function has a man3 page ($(wc -l <"$D/syms") functions)"
[ -s "$M/man3/libibmcg.3" ]
ok $? "libibmcg(3), the overview, is installed"
extra=0
for f in "$M"/man3/*.3; do
	p=$(basename "$f" .3)
	[ "$p" = libibmcg ] && continue
	grep -qx "$p" "$D/syms" || { echo "# page of no function: $p"; extra=1; }
done
ok $extra "no page names a function the library does not export"
r=0
for f in man/*.3; do
	w=$(man --warnings -l "$f" 2>&1 >/dev/null)
	[ -z "$w" ] || { echo "# $f: $w"; r=1; }
	w=$(groff -man -ww -z "$f" 2>&1)
	[ -z "$w" ] || { echo "# $f: $w"; r=1; }
done
ok $r "man --warnings -l and groff -man -ww -z: no warning on any page"
# A .so page shows its group's page.
(cd "$M" && man --warnings -l man3/ibmcg_leave.3 2>&1) | grep -Eq 'ibmcg_join, +ibmcg_leave, +ibmcg_rejoin'
ok $? "ibmcg_leave(3) shows the page of ibmcg_join, ibmcg_leave and ibmcg_rejoin"
v=$(cat ../VERSION)
grep -q "^\.TH IBMCG_JOIN 3 [0-9-]* \"ib_mcgroups $v\"" "$M/man3/ibmcg_join.3"
ok $? "the installed pages carry the version $v"
ktap_done
