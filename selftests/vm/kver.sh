#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Prints the newest installed kernel that has both an image to boot and
# headers to build against: the kernel the VM runs and the module targets.
for d in $(ls -1 /lib/modules 2>/dev/null | sort -V -r); do
	if [ -e "/boot/vmlinuz-$d" ] && [ -e "/lib/modules/$d/build/Makefile" ]; then
		echo "$d"
		exit 0
	fi
done
echo "kver.sh: no kernel with /boot/vmlinuz-* and headers; run 'make deps'" >&2
exit 1
