#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The ABI of libibmcg as installed: the headers in <ibmcg/>, an
# application built with pkg-config against them and the shared library,
# the exported symbols (name@version) equal to what libibmcg.map declares,
# and a LIBIBMCG_1 binary bound to the old versions of changed functions.
cd "$(dirname "$0")/.." || exit 1
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
CC=${CC:-cc}
# shellcheck source=tests/ktap.sh
. tests/ktap.sh
# "name value" from the output of a test program
val() { sed -n "s/^$1 //p" "$2"; }

echo "TAP version 13"
echo "1..16"
make -s install DESTDIR="$D" PREFIX=/usr >"$D/log" 2>&1
ok $? "make install DESTDIR=... PREFIX=/usr"
[ -f "$D/usr/include/ibmcg/ibmcg.h" ] &&
	[ -f "$D/usr/include/ibmcg/ib_mcgroups.h" ] &&
	[ ! -e "$D/usr/include/ibmcg.h" ] && [ ! -e "$D/usr/include/ib_mcgroups.h" ]
ok $? "headers in include/ibmcg/ (ibmcg.h, ib_mcgroups.h), none in include/"

# pkg-config of the installed .pc, pointed at the DESTDIR
pc="$D/usr/lib/pkgconfig/libibmcg.pc"
sed "s|^prefix=/usr|prefix=$D/usr|; s|=/usr/|=$D/usr/|" "$pc" >"$D/libibmcg.pc"
flags=$(PKG_CONFIG_PATH="$D" pkg-config --cflags --libs libibmcg 2>"$D/log")
ok $? "pkg-config --cflags --libs libibmcg"
# shellcheck disable=SC2086 # $flags: the words pkg-config printed
$CC -std=c11 -Wall -Wextra -Werror -o "$D/app" tests/abi_app.c $flags \
	-Wl,-rpath,"$D/usr/lib" >"$D/log" 2>&1
r=$?
[ $r = 0 ] || sed 's/^/# /' "$D/log"
ok $r "an application builds with -std=c11 -Werror against <ibmcg/ibmcg.h>"
"$D/app" >"$D/out" 2>&1
ok $? "it runs"
sed 's/^/# /' "$D/out"
[ "$(val version "$D/out")" = "$(cat ../VERSION)" ]
ok $? "ibmcg_version() is VERSION"
[ "$(val args_size "$D/out")" = 1 ] &&
	[ "$(val join_nosize "$D/out")" = "-$(printf '%d' 22)" ] &&
	[ "$(val join_nosize_out_null "$D/out")" = 1 ] &&
	[ "$(val join_nosize_msg "$D/out")" = 1 ]
ok $? "join arguments without their size: -EINVAL with a message, *out NULL"
[ "$(val join_unconnected "$D/out")" = -107 ]
ok $? "IBMCG_JOIN_ARGS_INIT arguments pass the check (then -ENOTCONN)"

# Exported symbols = the map: "name@@NODE" for every name listed in a
# node, "name@LIBIBMCG_1" for the compat.c versions named in comments.
map=lib/libibmcg.map
awk '
	/^[A-Z0-9_.]+ *\{/ { node = $1 }
	/^\t\t[a-z_0-9]+;/ { sub(/;/, "", $1); print $1 "@@" node }
	/^\t\t\/\* [a-z_0-9]+: compat.c \*\// { print $2 "@" node }
' "$map" | tr -d ':' | sort >"$D/want"
nm -D --defined-only lib/libibmcg.so.1 | awk '$2 == "T" { print $3 }' |
	sort >"$D/have"
diff "$D/want" "$D/have" >"$D/diff"
r=$?
[ $r = 0 ] || sed 's/^/# /' "$D/diff"
ok $r "exported symbols equal libibmcg.map ($(wc -l <"$D/have") name@version)"
# Every declared function has a symbol, and every symbol a declaration.
# (return type and name on one line, or the name at the start of one)
grep -o '^[a-z].*[ *]\(ibmcg_[a-z_0-9]*\)(\|^ibmcg_[a-z_0-9]*(' lib/ibmcg.h |
	sed 's/.*[ *]\(ibmcg_[a-z_0-9]*\)(/\1/; s/($//' | sort -u >"$D/decl"
sed 's/@.*//' "$D/have" | sort -u >"$D/names"
diff "$D/decl" "$D/names" >"$D/diff"
r=$?
[ $r = 0 ] || sed 's/^/# /' "$D/diff"
ok $r "the functions declared in ibmcg.h are the exported ones"
objdump -p lib/libibmcg.so.1 | grep -q 'SONAME *libibmcg.so.1$'
ok $? "soname libibmcg.so.1"
# No netlink library (lib/nlsock.c): an application loads libc only.
objdump -p lib/libibmcg.so.1 | awk '$1 == "NEEDED" {print $2}' >"$D/needed"
! grep -v -e '^libc\.so\.' -e '^ld-linux' "$D/needed"
ok $? "libibmcg.so.1 needs no library but libc ($(tr '\n' ' ' <"$D/needed"))"
! grep -q '^Requires' "$pc"
ok $? "libibmcg.pc requires no other package"

# A binary of the 0.2.0 ABI
# shellcheck disable=SC2046 # the words pkg-config prints
$CC -std=gnu11 -Wall -Werror -D_GNU_SOURCE -Ilib -I../include/uapi \
	$(pkg-config --cflags libnl-3.0) -o "$D/v1" tests/abi_v1.c \
	-Llib -l:libibmcg.so.1 -Wl,-rpath,"$PWD/lib" >"$D/log" 2>&1
r=$?
[ $r = 0 ] || sed 's/^/# /' "$D/log"
ok $r "a LIBIBMCG_1 binary links"
nm -D --undefined-only "$D/v1" | grep -o 'ibmcg_[a-z_]*@LIBIBMCG_1[.0-9]*' |
	sort >"$D/v1syms"
sed 's/^/# /' "$D/v1syms"
grep -qx 'ibmcg_join@LIBIBMCG_1' "$D/v1syms" &&
	grep -qx 'ibmcg_event_recv@LIBIBMCG_1' "$D/v1syms" &&
	! grep -q 'ibmcg_join@LIBIBMCG_1.1' "$D/v1syms"
ok $? "it binds to ibmcg_join@LIBIBMCG_1 and ibmcg_event_recv@LIBIBMCG_1"
"$D/v1" >"$D/out" 2>&1
r=$?
sed 's/^/# /' "$D/out"
[ $r = 0 ] && [ "$(val join_v1 "$D/out")" = -107 ] &&
	[ "$(val join_v1_out_cleared "$D/out")" = 1 ] &&
	[ "$(val get_v1 "$D/out")" = -107 ] &&
	[ "$(val event_v1 "$D/out")" = -107 ]
ok $? "the LIBIBMCG_1 functions run: size-less arguments accepted, results cleared"
ktap_done
