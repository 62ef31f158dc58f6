#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Static checks of the kernel module, as KTAP: checkpatch --strict, a W=1
# build and a sparse (C=2) build must all be free of warnings.
# checkpatch.pl comes from Debian's linux-source tarball at run time.
set -u

TOP=$(cd "$(dirname "$0")/.." && pwd)
O=$TOP/build/style
KDIR=${KDIR:-/lib/modules/$("$TOP/selftests/vm/kver.sh")/build}
KSRC_TAR=${KSRC_TAR:-$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n1)}
n=0
failed=0

result() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		failed=$((failed + 1))
		sed 's/^/# /' "$O/out"
	fi
}

# Builds the module in a scratch copy, so the checks never race a build.
build() {
	rm -rf "$O/kernel" && mkdir -p "$O/kernel" &&
		cp "$TOP"/kernel/*.[ch] "$TOP"/kernel/Kbuild "$TOP"/kernel/Makefile "$O/kernel/" &&
		rm -f "$O"/kernel/*.mod.c &&
		mkdir -p "$O/include" && cp -r "$TOP/include/uapi" "$O/include/" &&
		cp "$TOP/VERSION" "$O/" &&
		make -s -C "$O/kernel" KDIR="$KDIR" "$@" >"$O/out" 2>&1 &&
		! grep -E 'warning|error' "$O/out"
}

mkdir -p "$O"
echo "TAP version 13"
echo "1..3"

if [ -n "$KSRC_TAR" ] && [ ! -e "$O/scripts/checkpatch.pl" ]; then
	tar -xf "$KSRC_TAR" -C "$O" --strip-components=1 --wildcards \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch' 2>/dev/null
fi
if [ -e "$O/scripts/checkpatch.pl" ]; then
	(cd "$TOP" && perl "$O/scripts/checkpatch.pl" --strict --no-tree \
		--terse --show-types -f $(ls kernel/*.c | grep -v '\.mod\.c$') $(ls kernel/*.h | grep -v version.h) \
		include/uapi/ib_mcgroups.h) >"$O/out" 2>&1
	! grep -qE '^[^ ]+:[0-9]+: (ERROR|WARNING|CHECK):' "$O/out"
	result $? "checkpatch --strict clean"
else
	echo "no checkpatch.pl (is linux-source-6.1 installed?)" >"$O/out"
	result 1 "checkpatch --strict clean"
fi

build W=1
result $? "module builds warning-free with W=1"

if command -v sparse >/dev/null; then
	build C=2 W=1
	result $? "sparse (C=2) clean"
else
	echo "sparse not installed" >"$O/out"
	result 1 "sparse (C=2) clean"
fi

echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
