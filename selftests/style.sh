#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Static checks of the kernel modules (ib_mcgroups, simhca), as KTAP:
# checkpatch --strict, and a build with W=1 and sparse (C=2) against every
# installed kernel (selftests/vm/kver.sh --all: 6.1, 6.12 and 6.12-rt after
# "make deps"; KDIR=dir checks only that tree) must all be free of warnings.
# checkpatch.pl comes from Debian's newest linux-source tarball at run time.
# The KUnit module (kernel/tests/) builds only against a kernel with
# CONFIG_KUNIT: the debug lane's cached kernel (KUNIT_KDIR, default the
# newest /var/cache/ib_mcgroups/kernel-*/build that has it); its check is
# skipped when there is none.
# Also: the YNL spec, the UAPI header and the policy tables agree
# (selftests/tools/spec_check.py, and its self-test), and the kernel's
# ynl-gen-c reads the spec.
# STYLE_BUILDS=0: without the module builds (W=1 and sparse, KUnit): make
# check makes them where it builds the modules anyway (selftests/check.sh's
# vm_part, the debug lane), rather than compile everything twice.
set -u

TOP=$(cd "$(dirname "$0")/.." && pwd)
O=$TOP/build/style
if [ -n "${KDIR:-}" ]; then
	KDIRS=$KDIR
else
	KDIRS=$("$TOP/selftests/vm/kver.sh" --all | sed 's|.*|/lib/modules/&/build|')
fi
KSRC_TAR=${KSRC_TAR:-$(printf '%s\n' /usr/src/linux-source-*.tar.xz | sort -V | tail -n1)}
[ -e "$KSRC_TAR" ] || KSRC_TAR=
n=0
failed=0
skipped=0
if [ -z "${KUNIT_KDIR:-}" ]; then
	# newest first; the cache's names have no spaces
	# shellcheck disable=SC2045
	for d in $(ls -1dt /var/cache/ib_mcgroups/kernel-*/build 2>/dev/null); do
		# (a finished build only: build-kernel.sh's .done)
		if [ -f "$d/../.done" ] && grep -qx 'CONFIG_KUNIT=y' "$d/.config" 2>/dev/null; then
			KUNIT_KDIR=$d
			break
		fi
	done
fi

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

# build SRC FLAGS...: builds the module in SRC against KDIR from a scratch
# copy ($O/<kernel>/), so the checks never race a build; fails on any warning.
build() {
	local src=$1 name d
	shift

	name=$(basename "$src")
	d=$O/$(basename "$(dirname "$KDIR")")
	rm -rf "${d:?}/$name" && mkdir -p "$d/$name" &&
		cp "$TOP/$src"/*.[ch] "$TOP/$src/Makefile" "$d/$name/" &&
		{ [ ! -e "$TOP/$src/Kbuild" ] || cp "$TOP/$src/Kbuild" "$d/$name/"; } &&
		{ [ ! -e "$TOP/$src/ofa.mk" ] || cp "$TOP/$src/ofa.mk" "$d/$name/"; } &&
		{ [ ! -d "$TOP/$src/compat" ] || cp -r "$TOP/$src/compat" "$d/$name/"; } &&
		{ [ ! -d "$TOP/$src/probes" ] || cp -r "$TOP/$src/probes" "$d/$name/"; } &&
		rm -f "$d/$name/compat_autoconf.h" &&
		{ [ ! -d "$TOP/$src/tests" ] || { mkdir "$d/$name/tests" &&
			cp "$TOP/$src"/tests/*.[ch] "$TOP/$src/tests/Kbuild" "$d/$name/tests/"; }; } &&
		rm -f "$d/$name"/*.mod.c "$d/$name"/tests/*.mod.c &&
		mkdir -p "$d/include" && cp -r "$TOP/include/uapi" "$d/include/" &&
		cp "$TOP/VERSION" "$d/" &&
		make -s -C "$d/$name" KDIR="$KDIR" \
			PROBE_SH="$TOP/kernel/compat/probe.sh" "$@" >"$O/out" 2>&1 &&
		! grep -E 'warning|error' "$O/out"
}

mkdir -p "$O"
echo "TAP version 13"
STYLE_BUILDS=${STYLE_BUILDS:-1}
nk=$(echo "$KDIRS" | wc -w)
if [ "$STYLE_BUILDS" = 0 ]; then
	echo "1..10"
else
	echo "1..$((2 * nk + 11))"
fi

if [ -n "$KSRC_TAR" ] && [ ! -e "$O/scripts/checkpatch.pl" ]; then
	tar -xf "$KSRC_TAR" -C "$O" --strip-components=1 --wildcards \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch' 2>/dev/null
fi
# The sources checkpatch reads, without what kbuild and the probes generate.
kernel_sources() {
	local f

	for f in kernel/*.c kernel/compat/probes/*.c kernel/tests/*.[ch] \
		selftests/simhca/*.c kernel/*.h selftests/simhca/*.h; do
		case $f in
		*.mod.c | *version.h | *compat_autoconf.h) continue ;;
		esac
		[ -e "$f" ] && echo "$f"
	done
	echo include/uapi/ib_mcgroups.h
}
# scripts/kernel-doc from the same tarball: a perl script up to 6.x, a
# python one (kernel-doc.py, with its library scripts/lib/kdoc/) in newer
# trees, where scripts/kernel-doc may be a link to it.
if [ -n "$KSRC_TAR" ] && [ ! -e "$O/scripts/kernel-doc" ] &&
	[ ! -e "$O/scripts/kernel-doc.py" ]; then
	tar -xf "$KSRC_TAR" -C "$O" --strip-components=1 --wildcards \
		'*/scripts/kernel-doc*' '*/scripts/lib/kdoc/*' 2>/dev/null
fi
if [ -e "$O/scripts/checkpatch.pl" ]; then
	mapfile -t ksources < <(cd "$TOP" && kernel_sources)
	(cd "$TOP" && perl "$O/scripts/checkpatch.pl" --strict --no-tree \
		--terse --show-types -f "${ksources[@]}") >"$O/out" 2>&1
	! grep -qE '^[^ ]+:[0-9]+: (ERROR|WARNING|CHECK):' "$O/out"
	result $? "checkpatch --strict clean"
else
	echo "no checkpatch.pl (is linux-source-6.1 installed?)" >"$O/out"
	result 1 "checkpatch --strict clean"
fi

# kernel-doc: the comments of kernel/ (every function other files call,
# the backend ops contract, HACKING.md) parse without a warning, and every
# function of kernel/*.c that is not static has one.
kernel_doc() {
	local kd=$O/scripts/kernel-doc.py

	[ -e "$kd" ] || kd=$O/scripts/kernel-doc
	[ -e "$kd" ] || return 2
	if head -n 1 "$kd" | grep -q perl; then
		perl "$kd" "$@"
	else
		python3 "$kd" "$@"
	fi
}
# kdoc_missing FILE...: the non-static functions defined at the left
# margin without a "/**" comment naming them just above.
kdoc_missing() {
	awk '
	FNR == 1 { kdoc = ""; prev = ""; inkdoc = 0 }
	/^\/\*\*$/ { inkdoc = 1; named = 0; kdoc = ""; prev = $0; next }
	inkdoc && !named && /^ \* [a-z_][a-z0-9_]*\(\) - / {
		kdoc = $2; sub(/\(\)$/, "", kdoc); named = 1
	}
	inkdoc && /\*\/$/ { inkdoc = 0; prev = "*/"; next }
	inkdoc { next }
	/^[a-z_][a-z0-9_ \t*]*[ *][a-z_][a-z0-9_]*\(/ && !/;[ \t]*$/ &&
	    !/^(static|typedef|extern|return)[ \t]/ {
		name = $0
		sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
		if (prev != "*/" || kdoc != name)
			printf "%s:%d: %s() has no kernel-doc comment\n",
			       FILENAME, FNR, name
	}
	$0 != "" { prev = $0; kdoc = "" }
	' "$@"
}
if [ -e "$O/scripts/kernel-doc" ] || [ -e "$O/scripts/kernel-doc.py" ]; then
	mapfile -t kdsources < <(cd "$TOP" && kernel_sources | grep '^kernel/[^/]*$')
	(cd "$TOP" && kernel_doc -none -Wall "${kdsources[@]}") >"$O/out" 2>&1 &&
		[ ! -s "$O/out" ]
	result $? "scripts/kernel-doc -Wall clean over kernel/*.[ch]"
else
	echo "no scripts/kernel-doc (is linux-source-6.1 installed?)" >"$O/out"
	result 1 "scripts/kernel-doc -Wall clean over kernel/*.[ch]"
fi
mapfile -t kdc < <(cd "$TOP" && kernel_sources | grep '^kernel/[^/]*\.c$')
(cd "$TOP" && kdoc_missing "${kdc[@]}") >"$O/out" 2>&1
[ ! -s "$O/out" ]
result $? "every non-static function of kernel/*.c has a kernel-doc comment"

# One build of each module against each kernel, with W=1 and sparse (C=2)
# together: kbuild compiles with W=1 and runs sparse on each file, and any
# warning of either fails it (half the builds of one pass for each).
what="builds warning-free with W=1 and sparse (C=2)"
SPARSE=()
! command -v sparse >/dev/null || SPARSE=(C=2)
sparse_ran() {
	[ ${#SPARSE[@]} -gt 0 ] || { echo "sparse not installed (make deps)" >>"$O/out"; return 1; }
}
[ "$STYLE_BUILDS" = 0 ] || for KDIR in $KDIRS; do
	kv=$(basename "$(dirname "$KDIR")")
	for mod in kernel selftests/simhca; do
		build $mod W=1 "${SPARSE[@]}" && sparse_ran
		result $? "$mod $what against $kv"
	done
done

# ShellCheck, over every shell script in git: a file named *.sh or *.bash,
# one whose "#!" names sh, bash or dash, or a sourced fragment that says
# "# shellcheck shell=..." (dkms.conf, contrib/slurm's default file).
# Sourced files are followed (-x; "# shellcheck source=" where the path is
# computed). Two levels, the same rules for every file:
#  - every script: severity "warning" and above: errors (syntax, an
#    array used as a string) and warnings (unused or unset variables, word
#    splitting of $(...), ls | grep, "local" in POSIX sh) are bugs or
#    likely ones;
#  - what is installed or builds the tree (user/, contrib/, .ci/,
#    selftests/style.sh): every level, the notes and style hints too.
# The notes (mostly SC2086, a variable not quoted) are not checked in the
# tests and benchmarks: there they are numbers, device names or word
# lists split on purpose, hundreds of them. No check is switched off for
# the tree; a false positive is disabled on its line with the reason:
# "# shellcheck disable=SCnnnn # why".
shell_scripts() {
	local f

	(cd "$TOP" || exit 1
	 git ls-files 2>/dev/null | while read -r f; do
		[ -f "$f" ] || continue
		case $f in
		*.sh | *.bash) echo "$f" ;;
		*) { head -n 1 "$f" | grep -qE '^#!.*[/ ](ba|da|)sh( |$)' ||
			head -n 5 "$f" | grep -q '^# shellcheck shell='; } && echo "$f" ;;
		esac
	 done)
}
if command -v shellcheck >/dev/null; then
	mapfile -t scripts < <(shell_scripts)
	(cd "$TOP" && shellcheck -x -P SCRIPTDIR:SCRIPTDIR/.. -S warning \
		"${scripts[@]}") >"$O/out" 2>&1
	result $? "every shell script (${#scripts[@]}): shellcheck -S warning clean"
	mapfile -t strict < <(printf '%s\n' "${scripts[@]}" |
		grep -E '^(user/|contrib/|\.ci/|selftests/style\.sh$)')
	(cd "$TOP" && shellcheck -x -P SCRIPTDIR:SCRIPTDIR/.. -S style \
		"${strict[@]}") >"$O/out" 2>&1
	result $? "installed and build scripts (${#strict[@]}: user/, contrib/, .ci/, style.sh): shellcheck -S style clean"
else
	echo "shellcheck not installed (make deps)" >"$O/out"
	result 1 "every shell script: shellcheck -S warning clean"
	result 1 "installed and build scripts: shellcheck -S style clean"
fi

# Every file in git names its licence: an SPDX-License-Identifier line
# first (second after "#!"), in the file's comment syntax. Not the licence
# texts themselves (nor debian/copyright, which states them all), nor files
# whose format has no comment (VERSION, read by make; the kernel-style ABI
# description; debian/changelog and debian/source/format); a JSON file
# names it in FILE.license beside it (as REUSE does).
spdx_missing() {
	local f

	(cd "$TOP" || exit 1
	 git ls-files 2>/dev/null || find . -type f ! -path './.git/*' ! -path './build/*' | sed 's|^\./||') |
	while read -r f; do
		case $f in
		LICENSES/* | COPYING | VERSION | Documentation/ABI/*) continue ;;
		debian/copyright | debian/changelog | debian/source/format) continue ;;
		esac
		[ -f "$TOP/$f" ] || continue
		case $f in
		*.json) grep -qs 'SPDX-License-Identifier: ' "$TOP/$f.license" ||
				echo "$f: no SPDX-License-Identifier line in $f.license"
			continue ;;
		esac
		head -n 2 "$TOP/$f" | grep -q 'SPDX-License-Identifier: ' ||
			echo "$f: no SPDX-License-Identifier line in its first two lines"
	done
}
spdx_missing >"$O/out"
[ ! -s "$O/out" ]
result $? "every source file has an SPDX-License-Identifier line"

# Every per-port sysfs file of the module (kernel/sysfs.c) is documented
# in the ABI description and in mcctl.8's FILES.
sysfs_undocumented() {
	local f files

	files=$(sed -n 's/.*__ATTR_RO(\([a-z_0-9]*\)).*/\1/p' "$TOP/kernel/sysfs.c")
	[ -n "$files" ] || echo "no __ATTR_RO() in kernel/sysfs.c"
	for f in $files; do
		grep -q "^What:.*/<port>/$f\$" "$TOP/Documentation/ABI/testing/sysfs-kernel-ib_mcgroups" ||
			echo "$f: not in Documentation/ABI/testing/sysfs-kernel-ib_mcgroups"
		sed -n '/^\.SH FILES/,/^\.SH /p' "$TOP/user/mcctl.8" | grep -qw -- "$f" ||
			echo "$f: not in mcctl.8's FILES"
	done
}
sysfs_undocumented >"$O/out"
[ ! -s "$O/out" ]
result $? "every sysfs file of the module is documented (ABI, mcctl.8 FILES)"

# The protocol is written down by hand in five places: the YNL spec, the
# UAPI header, the kernel's policies and replies (kernel/netlink.c, nl_*.c),
# libibmcg's decode policies (user/lib/decode.c) and genl_policy.c's
# op_attrs[]. spec_check.py (python3-yaml) prints every difference
# between them; its self-test makes one change of each kind to a copy of
# the files and expects each reported, so that the check can fail.
if python3 -c 'import yaml' 2>/dev/null; then
	python3 "$TOP/selftests/tools/spec_check.py" >"$O/out" 2>&1
	result $? "YNL spec, UAPI header, kernel and libibmcg policies agree (spec_check.py)"
	python3 "$TOP/selftests/tools/spec_check.py" --self-test >"$O/out" 2>&1
	result $? "spec_check.py reports each change made to a copy of the files"
else
	echo "python3-yaml not installed (make deps)" >"$O/out"
	result 1 "YNL spec, UAPI header, kernel and libibmcg policies agree (spec_check.py)"
	result 1 "spec_check.py reports each change made to a copy of the files"
fi

# The kernel's own YNL C generator (tools/net/ynl of the same tarball)
# reads the spec: it generates the UAPI header and the kernel's policies
# from a copy of it (the output is not used, see the spec's doc). It needs
# python3-jsonschema as well, to validate the spec against the kernel's
# genetlink-legacy schema: skipped without.
ynl_gen() {
	local gen=$O/tools/net/ynl/ynl-gen-c.py d=$O/ynl

	[ -e "$gen" ] || gen=$O/tools/net/ynl/pyynl/ynl_gen_c.py
	[ -e "$gen" ] || { echo "no ynl-gen-c in $KSRC_TAR"; return 1; }
	rm -rf "$d" && mkdir -p "$d/Documentation/netlink/specs" &&
		cp "$O"/Documentation/netlink/genetlink*.yaml "$d/Documentation/netlink/" &&
		cp "$TOP/Documentation/netlink/specs/ib_mcgroups.yaml" \
			"$d/Documentation/netlink/specs/" &&
		touch "$d/MAINTAINERS" || return 1
	# (the generator looks for MAINTAINERS above the spec, the tree's
	# root, for ever if there is none: hence the timeouts too)
	(cd "$(dirname "$gen")" &&
	 timeout 300 python3 "$gen" --mode uapi --header -o "$d/uapi.h" \
		--spec "$d/Documentation/netlink/specs/ib_mcgroups.yaml" &&
	 timeout 300 python3 "$gen" --mode kernel --source -o "$d/nl.c" \
		--spec "$d/Documentation/netlink/specs/ib_mcgroups.yaml") &&
		grep -q 'IB_MCG_A_MLID_CHANGES' "$d/uapi.h"
}
if [ -n "$KSRC_TAR" ] && [ ! -e "$O/Documentation/netlink/genetlink-legacy.yaml" ]; then
	tar -xf "$KSRC_TAR" -C "$O" --strip-components=1 --wildcards \
		'*/tools/net/ynl/*' '*/Documentation/netlink/genetlink*.yaml' 2>/dev/null
fi
if ! python3 -c 'import jsonschema, yaml' 2>/dev/null; then
	n=$((n + 1))
	skipped=$((skipped + 1))
	echo "ok $n the kernel's ynl-gen-c reads the YNL spec # SKIP python3-jsonschema not installed"
else
	ynl_gen >"$O/out" 2>&1
	result $? "the kernel's ynl-gen-c reads the YNL spec"
fi

# The KUnit module, with ib_mcgroups.ko, against a kernel with KUnit.
if [ "$STYLE_BUILDS" = 0 ]; then
	:
elif [ -n "${KUNIT_KDIR:-}" ]; then
	KDIR=$KUNIT_KDIR build kernel W=1 "${SPARSE[@]}" && sparse_ran &&
		[ -f "$O/$(basename "$(dirname "$KUNIT_KDIR")")/kernel/tests/ib_mcgroups_kunit.ko" ]
	result $? "kernel/tests (KUnit) $what against $KUNIT_KDIR"
else
	n=$((n + 1))
	skipped=$((skipped + 1))
	echo "ok $n kernel/tests (KUnit) builds warning-free with W=1 and sparse (C=2) # SKIP no kernel with CONFIG_KUNIT (selftests/kernels/build-kernel.sh)"
fi

if [ "$skipped" -gt 0 ]; then
	echo "$((n - failed - skipped)) passed, $failed failed, $skipped skipped"
else
	echo "$((n - failed)) passed, $failed failed"
fi
[ "$failed" -eq 0 ]
