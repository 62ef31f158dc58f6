#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Builds ib_mcgroups.ko and simhca.ko for one kernel in a directory of their
# own, so that the modules of several kernels exist side by side (kbuild
# builds an external module in its source directory):
#
#   selftests/vm/build-mods.sh KVER DIR [MAKE ARGS...]
#
# copies kernel/, include/uapi/, VERSION and selftests/simhca/ to DIR,
# builds both against /lib/modules/KVER/build (feature probes included) and
# leaves DIR/kernel/ib_mcgroups.ko and DIR/simhca/simhca.ko. The build log
# is DIR/build.log; on failure its end is printed and the exit is non-zero.
set -euo pipefail

[ $# -ge 2 ] || { sed -n '7p' "$0" | sed 's/^# *//' >&2; exit 2; }
KVER=$1
DIR=$2
shift 2
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
KDIR=/lib/modules/$KVER/build
[ -f "$KDIR/Makefile" ] || { echo "build-mods.sh: no headers for $KVER ($KDIR)" >&2; exit 1; }
# Not the flags of a make around us.
unset MAKEFLAGS MAKELEVEL MFLAGS

mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
# Fresh sources each time (a stale object of another kernel must not stay),
# but the probe cache survives: it is keyed by tree and probe sources.
rm -rf "$DIR/kernel.new" "$DIR/simhca"
mkdir -p "$DIR/kernel.new" "$DIR/include"
(cd "$TOP/kernel" && cp -r ./*.c ./*.h Kbuild Makefile ofa.mk compat tests "$DIR/kernel.new/")
rm -f "$DIR/kernel.new/compat_autoconf.h" "$DIR/kernel.new/version.h"
[ ! -d "$DIR/kernel/.compat-cache" ] || mv "$DIR/kernel/.compat-cache" "$DIR/kernel.new/"
rm -rf "$DIR/kernel"
mv "$DIR/kernel.new" "$DIR/kernel"
rm -rf "$DIR/include/uapi"
cp -r "$TOP/include/uapi" "$DIR/include/"
cp "$TOP/VERSION" "$DIR/"
mkdir -p "$DIR/simhca"
cp "$TOP"/selftests/simhca/*.[ch] "$TOP/selftests/simhca/Makefile" "$DIR/simhca/"
cp -r "$TOP/selftests/simhca/probes" "$DIR/simhca/"
rm -f "$DIR/simhca/compat_autoconf.h" "$DIR"/simhca/*.mod.c "$DIR"/kernel/*.mod.c

if ! { make -C "$DIR/kernel" KDIR="$KDIR" "$@" &&
       make -C "$DIR/simhca" KDIR="$KDIR" \
	    PROBE_SH="$DIR/kernel/compat/probe.sh" "$@"; } >"$DIR/build.log" 2>&1; then
	echo "build-mods.sh: building for $KVER failed; end of $DIR/build.log:" >&2
	tail -n 30 "$DIR/build.log" >&2
	exit 1
fi
test -f "$DIR/kernel/ib_mcgroups.ko" && test -f "$DIR/simhca/simhca.ko"
