#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Unpacks Debian packages the VM needs into the project's cache instead of
# installing them on the machine (make deps):
#
#   selftests/vm/unpack-debs.sh PACKAGE...
#
# A kernel image (linux-image-*, or a metapackage such as
# linux-image-6.12-amd64, which names the image it depends on) lands in
# $IMAGE_CACHE/<release>/ - boot/vmlinuz-<release>, boot/config-<release>
# and lib/modules/<release>/ with its modules.dep - where kver.sh and
# run.sh find it. Installing it instead would make dpkg build an initramfs
# for it (minutes on 2 cores; the VM brings its own) and GRUB boot it next.
# Any other package lands in $DEB_CACHE/<package>/ (busybox-static: the
# tests' guest shell, which installed would replace the machine's busybox
# and so rebuild the machine's initramfs).
#
# A package already unpacked at the version apt would install is left as
# it is; so is an image installed at that version (the machine's own
# kernel: kver.sh finds it in /boot). Environment: IMAGE_CACHE (default
# /var/cache/ib_mcgroups/images), DEB_CACHE (default
# /var/cache/ib_mcgroups/debs).
#
#   selftests/vm/unpack-debs.sh --stand-in IMAGE...
#
# Before the headers are installed: Debian's linux-headers-<release>
# depends on linux-image-<release> (or its -unsigned twin), so apt would
# install the very images this script unpacks instead. This installs
# ib-mcgroups-vm-kernels, a package with no files that provides the image
# names of the given kernel metapackages (their current release, those not
# installed), and so stands in for them; `apt-get purge
# ib-mcgroups-vm-kernels` removes it.
set -euo pipefail

IMAGE_CACHE=${IMAGE_CACHE:-/var/cache/ib_mcgroups/images}
DEB_CACHE=${DEB_CACHE:-/var/cache/ib_mcgroups/debs}

die() { echo "unpack-debs.sh: $*" >&2; exit 1; }

[ $# -gt 0 ] || die "usage: unpack-debs.sh [--stand-in] PACKAGE..."

# The package a kernel metapackage stands for (itself if it is none).
image_of() {
	local dep

	dep=$(apt-cache depends "$1" 2>/dev/null |
	      awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ {print $2; exit}')
	echo "${dep:-$1}"
}

installed() {
	[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

candidate() {
	apt-cache policy "$1" | awk '$1 == "Candidate:" {print $2}'
}

# unpack PACKAGE VERSION DEST: the package's files in DEST, replaced whole.
unpack() {
	local pkg=$1 ver=$2 dest=$3 tmp

	tmp=$(mktemp -d "$(dirname "$dest")/.unpack.XXXXXX")
	# apt downloads as _apt when it can write there
	chown _apt "$tmp" 2>/dev/null || true
	(cd "$tmp" && apt-get download -q "$pkg=$ver" >&2) ||
		{ rm -rf "$tmp"; die "apt-get download $pkg=$ver failed"; }
	mkdir "$tmp/root"
	dpkg-deb -x "$tmp"/*.deb "$tmp/root"
	echo "$ver" >"$tmp/root/.version"
	rm -rf "$dest"
	mv "$tmp/root" "$dest"
	rm -rf "$tmp"
}

# --stand-in: the package of no files that provides the images' names.
stand_in() {
	local p pkg ver provides="" tmp

	# versioned: the headers depend on the image of their own version.
	# Not for an image installed (signed or not): the headers need no
	# stand-in then, and the signed image conflicts with the -unsigned.
	for p in "$@"; do
		pkg=$(image_of "$p")
		if installed "$pkg" || installed "$pkg-unsigned"; then
			echo "unpack-debs.sh: $pkg is installed: no stand-in needed"
			continue
		fi
		ver=$(candidate "$pkg")
		provides="$provides${provides:+, }$pkg (= $ver)"
	done
	[ -n "$provides" ] || return 0
	if [ "$(dpkg-query -W -f='${Status} ${Provides}' ib-mcgroups-vm-kernels 2>/dev/null)" = \
	     "install ok installed $provides" ]; then
		echo "unpack-debs.sh: ib-mcgroups-vm-kernels stands in for $provides"
		return
	fi
	tmp=$(mktemp -d)
	mkdir -m 0755 "$tmp/pkg" "$tmp/pkg/DEBIAN"
	cat >"$tmp/pkg/DEBIAN/control" <<-EOF
	Package: ib-mcgroups-vm-kernels
	Version: 1
	Architecture: all
	Maintainer: ib_mcgroups selftests <root@localhost>
	Section: misc
	Priority: optional
	Provides: $provides
	Description: stand-in for the kernel images the ib_mcgroups VM boots
	 The ib_mcgroups tests boot these kernels in qemu from
	 /var/cache/ib_mcgroups/images, unpacked there by
	 selftests/vm/unpack-debs.sh. Their headers are installed, and depend
	 on the images: this package, with no files, satisfies that, so that
	 the images are not installed (no initramfs, no new boot entry).
	EOF
	dpkg-deb -b "$tmp/pkg" "$tmp/stand-in.deb" >/dev/null
	dpkg -i "$tmp/stand-in.deb" >/dev/null
	rm -rf "$tmp"
	echo "unpack-debs.sh: ib-mcgroups-vm-kernels installed: stands in for $provides"
}

if [ "$1" = --stand-in ]; then
	shift
	stand_in "$@"
	exit
fi

for p in "$@"; do
	case "$p" in
	linux-image-*)
		pkg=$(image_of "$p")
		rel=${pkg#linux-image-}
		dest=$IMAGE_CACHE/$rel ;;
	*)
		pkg=$p
		dest=$DEB_CACHE/$p ;;
	esac
	ver=$(candidate "$pkg")
	[ -n "$ver" ] && [ "$ver" != "(none)" ] || die "$pkg: not in apt's lists (apt-get update?)"
	case "$p" in
	linux-image-*)
		# the machine's own (kver.sh finds it in /boot)
		if [ "$(dpkg-query -W -f='${Status} ${Version}' "$pkg" 2>/dev/null)" = \
		     "install ok installed $ver" ]; then
			echo "unpack-debs.sh: $pkg $ver: installed, not unpacked"
			continue
		fi ;;
	esac
	if [ "$(cat "$dest/.version" 2>/dev/null)" = "$ver" ]; then
		echo "unpack-debs.sh: $pkg $ver: cached in $dest"
		continue
	fi
	mkdir -p "$(dirname "$dest")"
	unpack "$pkg" "$ver" "$dest"
	case "$p" in
	linux-image-*)
		[ -f "$dest/boot/vmlinuz-$rel" ] || die "$pkg has no boot/vmlinuz-$rel"
		depmod -b "$dest" "$rel" ;;
	esac
	echo "unpack-debs.sh: $pkg $ver: unpacked in $dest"
done
