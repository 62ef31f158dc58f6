# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# Sourced by the lanes that boot a kernel built by build-kernel.sh
# (selftests/kernels/lane.sh, selftests/debug/check-debug.sh):
#
#   build_project_mods TOP KDIR SRC
#
# builds ib_mcgroups.ko (and kernel/tests/, the KUnit module, where KDIR has
# CONFIG_KUNIT) and simhca.ko against KDIR from copies of their sources in
# SRC, so that the normal build in kernel/ and selftests/simhca/ is never
# touched, and exports MCG_KO and SIMHCA_KO (and KUNIT_KO when built) for
# selftests/vm/run.sh. Returns non-zero, with a message, if one does not
# build. MODS_W1=1: built with W=1, and any compiler warning fails it too;
# MODS_SPARSE=1 as well: sparse checks every file (C=2), and its warnings
# fail it the same way (the debug lane: the KUnit module's static check).

# copy_mod_src FROM TO: a module's sources, feature probes included.
copy_mod_src() {
	local f

	for f in "$1"/*.c "$1"/*.h "$1"/*.mk "$1"/Kbuild "$1"/Makefile; do
		[ -e "$f" ] || continue
		case "$f" in
		*.mod.c|*/version.h|*/compat_autoconf.h) continue ;;
		esac
		cp "$f" "$2/"
	done
	# kernel/: the feature probes (compat/probe.sh, compat/probes/);
	# simhca: its probes (probes/)
	[ ! -d "$1/compat" ] || cp -r "$1/compat" "$2/"
	[ ! -d "$1/probes" ] || cp -r "$1/probes" "$2/"
}

# mods_make LOG ARGS...: make ARGS, its output to stderr and LOG; fails on
# a compiler (or sparse) warning when MODS_W1=1.
mods_make() {
	local log=$1 sparse=()
	shift

	[ "${MODS_SPARSE:-0}" != 1 ] || sparse=(C=2)
	if [ "${MODS_W1:-0}" = 1 ]; then
		make -s W=1 "${sparse[@]}" "$@" 2>&1 | tee "$log" >&2
		[ "${PIPESTATUS[0]}" = 0 ] || return 1
		if grep -qE 'warning:|error:' "$log"; then
			echo "warnings with W=1 ${sparse[*]} (MODS_W1=1):" >&2
			grep -E 'warning:|error:' "$log" >&2
			return 1
		fi
	else
		make -s "$@" >&2
	fi
}

build_project_mods() {
	local top=$1 kdir=$2 src=$3

	rm -rf "$src"
	mkdir -p "$src/kernel/tests" "$src/simhca"
	cp -a "$top/VERSION" "$top/include" "$src/"
	copy_mod_src "$top/kernel" "$src/kernel"
	# kernel/Kbuild builds tests/ (the KUnit module) when the kernel has KUnit.
	copy_mod_src "$top/kernel/tests" "$src/kernel/tests"
	if ! mods_make "$src/kernel.log" -C "$src/kernel" KDIR="$kdir"; then
		echo "ib_mcgroups.ko does not build against $kdir" >&2
		return 1
	fi
	export MCG_KO=$src/kernel/ib_mcgroups.ko
	if [ -f "$src/kernel/tests/ib_mcgroups_kunit.ko" ]; then
		export KUNIT_KO=$src/kernel/tests/ib_mcgroups_kunit.ko
	fi
	[ -f "$top/selftests/simhca/Makefile" ] || return 0
	copy_mod_src "$top/selftests/simhca" "$src/simhca"
	if ! mods_make "$src/simhca.log" -C "$src/simhca" KDIR="$kdir" \
		PROBE_SH="$src/kernel/compat/probe.sh"; then
		echo "simhca.ko does not build against $kdir" >&2
		return 1
	fi
	export SIMHCA_KO=$src/simhca/simhca.ko
}
