#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# user/ builds without a warning at every optimisation level (GCC's
# warnings depend on it: format-truncation at -O0, maybe-uninitialized at
# -O3), and without the optional libraries; -Werror only with WERROR=1
# (make check sets it). Builds libibmcg and mcctl in a scratch copy.
cd "$(dirname "$0")/.." || exit 1
D=$(mktemp -d /tmp/mcctl-build.XXXXXX)
trap 'rm -rf "$D"' EXIT
unset MAKEFLAGS MAKELEVEL MFLAGS
# shellcheck source=tests/ktap.sh
. tests/ktap.sh

mkdir -p "$D/include" "$D/user"
cp -r ../include/uapi "$D/include/" && cp ../VERSION "$D/" &&
	cp -r ./* "$D/user/" && make -s -C "$D/user" clean

echo "TAP version 13"
echo "1..12"
# build NAME MAKEARGS...: libibmcg and mcctl from scratch, warning-free
build() {
	name=$1
	shift
	make -s -C "$D/user" clean >/dev/null 2>&1
	make -s -j2 -C "$D/user" WERROR=1 "$@" all >"$D/log" 2>&1 &&
		! grep -qi 'warning' "$D/log"
	r=$?
	[ $r = 0 ] || sed 's/^/# /' "$D/log" | head -n 20
	ok $r "$name"
}
for o in -O0 -Og -O1 -O2 -Os -O3; do
	build "builds with WERROR=1 at $o" CFLAGS="$o -g"
done
build "builds with WERROR=1 without libibumad and libibverbs" \
	HAVE_UMAD= HAVE_VERBS=
# Start-up is most of a short command: mcctl loads libc only (libibmcg
# linked in, no netlink or JSON library; libibverbs and libibumad only
# when diag dlopen()s them).
objdump -p "$D/user/mcctl" | awk '$1 == "NEEDED" {print $2}' >"$D/needed"
! grep -v -e '^libc\.so\.' -e '^ld-linux' "$D/needed"
ok $? "mcctl needs no library but libc ($(tr '\n' ' ' <"$D/needed"))"

# Without WERROR from the caller: "make check" at the top level exports it.
! env -u WERROR -u MAKEFLAGS -u MFLAGS make -s -C "$D/user" -n -B mcctl.o 2>/dev/null |
	grep -q -- '-Werror'
ok $? "no -Werror by default"
make -s -C "$D/user" -n -B WERROR=1 mcctl.o 2>/dev/null | grep -q -- '-Wall -Wextra -Werror'
ok $? "-Werror with WERROR=1"
make -s -C "$D/user" -n -B check 2>/dev/null | grep -- '-c -o mcctl.o mcctl.c' |
	grep -q -- '-Werror'
ok $? "-Werror in make check (make -n check compiles with it)"
# rdma-core's warnings, on every object of libibmcg and mcctl: the builds
# above fail on any of them.
flags=$(make -s -C "$D/user" -n -B lib/conf.o mcctl.o 2>/dev/null)
missing=
for w in -Wmissing-prototypes -Wmissing-declarations -Wwrite-strings \
	-Wformat=2 -Wredundant-decls -Wshadow -Wstrict-prototypes; do
	[ "$(printf '%s\n' "$flags" | grep -c -- " $w ")" = 2 ] ||
		missing="$missing $w"
done
[ -z "$missing" ]
r=$?
[ $r = 0 ] || echo "# missing:$missing"
ok $r "rdma-core's warning set on libibmcg and mcctl"
ktap_done
