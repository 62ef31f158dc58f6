#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Fetch (once) another Debian release's own kernel - its image and its
# headers, as a node of that release has them - and print the directory
# the lanes use, laid out as build-kernel.sh lays out a kernel it built:
#
#   selftests/kernels/distro.sh SERIES       (bullseye: Debian 11's 5.10)
#
#   $CACHE/distro-<image package>-<version>/
#     root/          the packages linux-image-<abi>, linux-headers-<abi>,
#                    linux-headers-<abi>-common and linux-kbuild-<ver>,
#                    unpacked (dpkg-deb -x; nothing is installed)
#     build          the headers (KDIR): root/usr/src/linux-headers-<abi>,
#                    whose Makefile includes the -common one from root/
#     bzImage        the image's vmlinuz; mods/lib/modules/<release>: its
#                    modules (depmod run here)
#     bin/gcc-N      when the headers build with a gcc-N this machine lacks
#                    (bullseye's: gcc-10): Debian 12's gcc under that name;
#                    lane.sh puts bin/ first in PATH. The module is built
#                    with another compiler than the kernel, as DKMS on a
#                    node whose gcc was upgraded would; kbuild's binaries
#                    (linux-kbuild) run on Debian 12's newer glibc.
#     kernel.release, series, origin, build-time (0), .done
#
# The packages come from the suite's mirror through the private apt
# configuration of apt.sh (a candidate newer than the cached one fetches it
# again). Only for a release whose headers work here: sid's need gcc 16
# and a newer glibc for their tools, so its lane builds its kernel from
# linux-source instead (build-kernel.sh). CACHE defaults to
# /var/cache/ib_mcgroups. stdout: the directory; messages: stderr.
set -euo pipefail

CACHE=${CACHE:-/var/cache/ib_mcgroups}
log() { echo "kernels/distro: $*" >&2; }
die() { log "error: $*"; exit 1; }

series=${1:?usage: distro.sh bullseye}
case "$series" in
bullseye) ;;
*) die "$series: only bullseye's kernel is used as packaged (see the comment)" ;;
esac

# shellcheck source-path=SCRIPTDIR source=apt.sh
. "$(dirname "${BASH_SOURCE[0]}")/apt.sh"
apt_private "$series"

img=$(apt_depends linux-image-amd64 'linux-image-[0-9][^ ]*')
hdr=$(apt_depends linux-headers-amd64 'linux-headers-[0-9][^ ]*')
[ -n "$img" ] && [ -n "$hdr" ] || die "no linux-image/linux-headers packages in $series"
common=$(apt_depends "$hdr" 'linux-headers-[^ ]*-common')
kbuild=$(apt_depends "$hdr" 'linux-kbuild-[^ ]*')
[ -n "$common" ] && [ -n "$kbuild" ] || die "$hdr: no -common or linux-kbuild dependency"
ver=$(apt_candidate "$img")
[ -n "$ver" ] || die "$img has no candidate in $series"
rel=${img#linux-image-}
K=$CACHE/distro-$img-$ver
if [ -f "$K/.done" ]; then
	log "cached: $K ($rel)"
	echo "$K"
	exit 0
fi

log "fetching $img $hdr $common $kbuild ($ver) from $series"
rm -rf "$K" "$K.tmp"
mkdir -p "$K.tmp/root"
for p in "$img" "$hdr" "$common" "$kbuild"; do
	deb=$(apt_fetch "$p")
	dpkg-deb -x "$deb" "$K.tmp/root" || die "cannot unpack $deb"
	rm -f "$deb"
done
H=root/usr/src/$hdr
[ -f "$K.tmp/$H/Makefile" ] && [ -f "$K.tmp/root/boot/vmlinuz-$rel" ] ||
	die "$hdr or $img lacks its Makefile or vmlinuz"
# The headers include the -common Makefile by its absolute path.
sed -i "s|include /usr/src/|include $K/root/usr/src/|" "$K.tmp/$H/Makefile"
# The compiler the headers name (.kernelvariables: CC = ... gcc-N).
cc=$(sed -nE 's/^CC *=.*\)(gcc-[0-9]+).*/\1/p' "$K.tmp/$H/.kernelvariables" 2>/dev/null || true)
if [ -n "$cc" ] && ! command -v "$cc" >/dev/null; then
	command -v gcc >/dev/null || die "no gcc (make deps)"
	mkdir -p "$K.tmp/bin"
	printf '#!/bin/sh\n# %s: not in Debian 12; its gcc instead (distro.sh)\nexec gcc "$@"\n' \
		"$cc" >"$K.tmp/bin/$cc"
	chmod +x "$K.tmp/bin/$cc"
fi
depmod -b "$K.tmp/root" "$rel" || die "depmod of $rel failed"
ln -s "$H" "$K.tmp/build"
ln -s "root/boot/vmlinuz-$rel" "$K.tmp/bzImage"
ln -s root "$K.tmp/mods"
echo "$rel" >"$K.tmp/kernel.release"
echo "$series distro" >"$K.tmp/series"
echo "Debian's $img $ver and its headers" >"$K.tmp/origin"
echo 0 >"$K.tmp/build-time"
touch "$K.tmp/.done"
mv "$K.tmp" "$K"
log "unpacked $rel: $K"
echo "$K"
