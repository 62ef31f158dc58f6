#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Static checks of the kernel modules (ib_mcgroups, simhca), as KTAP: checkpatch --strict, a W=1
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

# build SRC FLAGS...: builds the module in SRC from a scratch copy, so the
# checks never race a build; fails on any warning.
build() {
	local src=$1 name
	shift

	name=$(basename "$src")
	rm -rf "$O/$name" && mkdir -p "$O/$name" &&
		cp "$TOP/$src"/*.[ch] "$TOP/$src/Makefile" "$O/$name/" &&
		{ [ ! -e "$TOP/$src/Kbuild" ] || cp "$TOP/$src/Kbuild" "$O/$name/"; } &&
		{ [ ! -e "$TOP/$src/ofa.mk" ] || cp "$TOP/$src/ofa.mk" "$O/$name/"; } &&
		{ [ ! -d "$TOP/$src/compat" ] || cp -r "$TOP/$src/compat" "$O/$name/"; } &&
		rm -f "$O/$name/compat_autoconf.h" &&
		rm -f "$O/$name"/*.mod.c &&
		mkdir -p "$O/include" && cp -r "$TOP/include/uapi" "$O/include/" &&
		cp "$TOP/VERSION" "$O/" &&
		make -s -C "$O/$name" KDIR="$KDIR" "$@" >"$O/out" 2>&1 &&
		! grep -E 'warning|error' "$O/out"
}

mkdir -p "$O"
echo "TAP version 13"
echo "1..5"

if [ -n "$KSRC_TAR" ] && [ ! -e "$O/scripts/checkpatch.pl" ]; then
	tar -xf "$KSRC_TAR" -C "$O" --strip-components=1 --wildcards \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch' 2>/dev/null
fi
if [ -e "$O/scripts/checkpatch.pl" ]; then
	(cd "$TOP" && perl "$O/scripts/checkpatch.pl" --strict --no-tree \
		--terse --show-types -f \
		$(ls kernel/*.c kernel/compat/probes/*.c selftests/simhca/*.c | grep -v '\.mod\.c$') \
		$(ls kernel/*.h selftests/simhca/*.h | grep -v -e version.h -e compat_autoconf.h) \
		include/uapi/ib_mcgroups.h) >"$O/out" 2>&1
	! grep -qE '^[^ ]+:[0-9]+: (ERROR|WARNING|CHECK):' "$O/out"
	result $? "checkpatch --strict clean"
else
	echo "no checkpatch.pl (is linux-source-6.1 installed?)" >"$O/out"
	result 1 "checkpatch --strict clean"
fi

for mod in kernel selftests/simhca; do
	build $mod W=1
	result $? "$mod builds warning-free with W=1"
	if command -v sparse >/dev/null; then
		build $mod C=2 W=1
		result $? "$mod: sparse (C=2) clean"
	else
		echo "sparse not installed" >"$O/out"
		result 1 "$mod: sparse (C=2) clean"
	fi
done

# The scripts admins install (contrib/): POSIX sh, run by slurmd.
if command -v shellcheck >/dev/null; then
	shellcheck -s sh "$TOP"/contrib/slurm/ib_mcgroups-prolog \
		"$TOP"/contrib/slurm/ib_mcgroups-epilog >"$O/out" 2>&1
	result $? "contrib/slurm scripts: shellcheck clean"
else
	echo "shellcheck not installed" >"$O/out"
	result 1 "contrib/slurm scripts: shellcheck clean"
fi

echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
