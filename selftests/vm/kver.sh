#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The kernels the VM can boot and the module can be built for: those with
# headers (/lib/modules/X/build) and an image, installed (/boot/vmlinuz-X)
# or unpacked by make deps into the cache (unpack-debs.sh:
# $IMAGE_CACHE/X/boot/vmlinuz-X, which is preferred).
#
#   kver.sh          the default kernel: the newest one that is not
#                    PREEMPT_RT (the newest RT kernel if there is no other)
#   kver.sh --all    one kernel per series (major.minor and flavour: 6.1,
#                    6.12, 6.12-rt), the newest of each: first the generic
#                    kernels, newest series first, then the RT ones
#   kver.sh --rt X   exit 0 if kernel X is a PREEMPT_RT kernel
#   kver.sh --root X the root kernel X's image and modules are under: its
#                    cache directory, or nothing for the machine's own
#                    (/boot, /lib/modules)
set -u

IMAGE_CACHE=${IMAGE_CACHE:-/var/cache/ib_mcgroups/images}

root_of() {
	if [ -e "$IMAGE_CACHE/$1/boot/vmlinuz-$1" ]; then
		echo "$IMAGE_CACHE/$1"
	elif [ -e "/boot/vmlinuz-$1" ]; then
		echo ""
	else
		return 1
	fi
}

is_rt() {
	case "$1" in
	*-rt-*|*-rt) return 0 ;;
	esac
	grep -qs '^CONFIG_PREEMPT_RT=y' "$(root_of "$1")/boot/config-$1"
}

usable() {
	root_of "$1" >/dev/null && [ -e "/lib/modules/$1/build/Makefile" ]
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
--root)
	root_of "${2:?kver.sh --root KERNEL}"
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
	echo "usage: kver.sh [--all | --rt KERNEL | --root KERNEL]" >&2
	exit 2 ;;
esac
echo "kver.sh: no kernel with an image and headers; run 'make deps'" >&2
exit 1
