#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The installed kernels the VM can boot and the module can be built for:
# those with both an image (/boot/vmlinuz-X) and headers
# (/lib/modules/X/build).
#
#   kver.sh          the default kernel: the newest one that is not
#                    PREEMPT_RT (the newest RT kernel if there is no other)
#   kver.sh --all    one kernel per series (major.minor and flavour: 6.1,
#                    6.12, 6.12-rt), the newest of each: first the generic
#                    kernels, newest series first, then the RT ones
#   kver.sh --rt X   exit 0 if kernel X is a PREEMPT_RT kernel
set -u

is_rt() {
	case "$1" in
	*-rt-*|*-rt) return 0 ;;
	esac
	grep -qs '^CONFIG_PREEMPT_RT=y' "/boot/config-$1"
}

usable() {
	[ -e "/boot/vmlinuz-$1" ] && [ -e "/lib/modules/$1/build/Makefile" ]
}

# Every usable kernel, newest first, generic before RT.
all_kernels() {
	for d in $(ls -1 /lib/modules 2>/dev/null | sort -V -r); do
		usable "$d" && ! is_rt "$d" && echo "$d"
	done
	for d in $(ls -1 /lib/modules 2>/dev/null | sort -V -r); do
		usable "$d" && is_rt "$d" && echo "$d"
	done
}

case "${1:-}" in
--rt)
	is_rt "${2:?kver.sh --rt KERNEL}"
	exit ;;
--all)
	seen=" "
	for d in $(all_kernels); do
		series=$(echo "$d" | sed -E 's/^([0-9]+\.[0-9]+).*/\1/')
		is_rt "$d" && series=$series-rt
		case "$seen" in
		*" $series "*) continue ;;
		esac
		seen="$seen$series "
		echo "$d"
	done
	[ "$seen" != " " ] && exit 0 ;;
"")
	d=$(all_kernels | head -n1)
	[ -n "$d" ] && { echo "$d"; exit 0; } ;;
*)
	echo "usage: kver.sh [--all | --rt KERNEL]" >&2
	exit 2 ;;
esac
echo "kver.sh: no kernel with /boot/vmlinuz-* and headers; run 'make deps'" >&2
exit 1
