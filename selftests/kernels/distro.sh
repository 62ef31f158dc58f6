#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Fetch (once) another Debian release's own kernel - its image and its
# modules, as a node of that release has them - and a build tree to build
# the project's modules against, and print the directory the lanes use,
# laid out as build-kernel.sh lays out a kernel it built:
#
#   selftests/kernels/distro.sh SERIES   (bullseye: Debian 11's 5.10; sid:
#                                         the newest kernel of the archive)
#
#   $CACHE/distro-<image package>-<version>/
#     root/          the packages linux-image-<abi> (with sid's
#                    linux-binary-<abi> and linux-modules-<abi>, which
#                    carry its vmlinuz and modules), linux-headers-<abi>,
#                    linux-headers-<abi>-common and linux-kbuild-<ver>,
#                    unpacked (dpkg-deb -x; nothing is installed)
#     build          KDIR: the packaged headers, root/usr/src/linux-headers-
#                    <abi> (whose Makefile includes the -common one from
#                    root/), when a module builds against them here; else
#                    kbuild/ (below)
#     kbuild/        only when the packaged headers do not work here (sid's
#                    kbuild tools need a newer glibc, its flags gcc 16):
#                    the same release's linux-source (source.sh, at the
#                    image's version) prepared as an O= tree with the
#                    headers' .config (make olddefconfig, so the options
#                    that depend on the compiler become Debian 12's gcc's,
#                    then modules_prepare with the image's KERNELRELEASE),
#                    and the headers' Module.symvers and vmlinux. No kernel
#                    is built: the modules are built for the image Debian
#                    ships, as DKMS on a node with another gcc would build
#                    them
#     bzImage        the image's vmlinuz; mods/lib/modules/<release>: its
#                    modules (depmod run here)
#     bin/gcc-N      when the headers name a gcc-N this machine lacks
#                    (bullseye's: gcc-10): Debian 12's gcc under that name;
#                    lane.sh puts bin/ first in PATH
#     kernel.release, series, origin, build-time (0), .done
#
# Whether the packaged headers work is probed, not assumed: a module of one
# line is built against them. The packages come from the suite's mirror
# through the private apt configuration of apt.sh (a candidate newer than
# the cached one fetches it again). CACHE defaults to /var/cache/ib_mcgroups.
# stdout: the directory; messages: stderr.
set -euo pipefail

CACHE=${CACHE:-/var/cache/ib_mcgroups}
log() { echo "kernels/distro: $*" >&2; }
die() { log "error: $*"; exit 1; }

series=${1:?usage: distro.sh bullseye}
case "$series" in
bullseye|sid) ;;
*) die "$series: bullseye or sid" ;;
esac
DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# shellcheck source-path=SCRIPTDIR source=apt.sh
. "$DIR/apt.sh"
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
# sid's image package carries neither: its linux-binary and linux-modules do.
pkgs=("$img" "$hdr" "$common" "$kbuild")
for p in linux-binary linux-modules; do
	d=$(apt_depends "$img" "$p-[^ ]*")
	[ -z "$d" ] || pkgs+=("$d")
done
for p in "${pkgs[@]}"; do
	deb=$(apt_fetch "$p")
	dpkg-deb -x "$deb" "$K.tmp/root" || die "cannot unpack $deb"
	rm -f "$deb"
done
# Where the release keeps them: /boot and /lib, or /usr/lib (merged /usr).
vmlinuz=$(cd "$K.tmp/root" && find boot "usr/lib/modules/$rel" -maxdepth 1 \
	\( -name "vmlinuz-$rel" -o -name vmlinuz \) 2>/dev/null | head -n1 || true)
H=root/usr/src/$hdr
[ -f "$K.tmp/$H/Makefile" ] && [ -n "$vmlinuz" ] ||
	die "$hdr or $img lacks its Makefile or vmlinuz"
[ -e "$K.tmp/root/lib" ] || ln -s usr/lib "$K.tmp/root/lib"
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
depmod -b "$K.tmp/root" "$rel" 2>/dev/null || die "depmod of $rel failed"

# headers_work DIR: does a module of one line build against DIR (PATH with
# bin/ first, as lane.sh runs it)? The paths are the final ones ($K), which
# the headers' Makefile names: the probe runs once $K.tmp is in place.
headers_work() {
	local t rc

	t=$(mktemp -d)
	printf '#include <linux/module.h>\nMODULE_LICENSE("GPL");\n' >"$t/probe.c"
	echo 'obj-m := probe.o' >"$t/Kbuild"
	PATH="$K/bin:$PATH" make -s -C "$1" M="$t" modules >"$t/log" 2>&1
	rc=$?
	[ "$rc" = 0 ] || log "$(basename "$1"): a module does not build here: $(grep -m1 -iE 'error|not found' "$t/log" || tail -n1 "$t/log")"
	rm -rf "$t"
	return "$rc"
}

# The same release's linux-source at the image's version, prepared as an
# O= tree with the headers' configuration (see the top comment).
prepare_from_source() {
	local tar sver src b=$K/kbuild

	# source.sh takes the suite's apt lock too: this run's downloads are
	# done, so give it up.
	exec 8>&-
	IFS=$'\t' read -r tar sver < <("$DIR/source.sh" "$series") ||
		die "no linux-source in $series"
	[ "$sver" = "$ver" ] || die "linux-source of $series is $sver, the image $ver"
	src=$("$DIR/source.sh" --unpack "$tar" "$sver") || die "cannot unpack $tar"
	rm -rf "$b"
	mkdir -p "$b"
	cp "$K/$H/.config" "$b/.config"
	log "preparing $b from $src with $hdr's .config"
	nice -n 19 make -s -C "$src" O="$b" olddefconfig >"$K/kbuild.log" 2>&1 &&
		nice -n 19 make -s -C "$src" O="$b" KERNELRELEASE="$rel" \
			-j"${JOBS:-$(nproc)}" modules_prepare >>"$K/kbuild.log" 2>&1 ||
		die "preparing $b failed; see $K/kbuild.log"
	[ "$(cat "$b/include/config/kernel.release")" = "$rel" ] ||
		die "$b: kernel.release is not $rel"
	cp "$K/$H/Module.symvers" "$b/"
	[ ! -f "$K/$H/vmlinux" ] || cp "$K/$H/vmlinux" "$b/"	# BTF
	rm -f "$K/build"
	ln -s kbuild "$K/build"
	# The options the compiler changed, for the record.
	diff <(grep '^CONFIG_' "$K/$H/.config" | sort) <(grep '^CONFIG_' "$b/.config" | sort) |
		sed -n 's/^[<>] //p' >"$K/config-changes" || true
	headers_work "$b" || die "a module does not build against $b either"
}

ln -s "$H" "$K.tmp/build"
ln -s "root/$vmlinuz" "$K.tmp/bzImage"
ln -s root "$K.tmp/mods"
echo "$rel" >"$K.tmp/kernel.release"
echo "$series distro" >"$K.tmp/series"
echo 0 >"$K.tmp/build-time"
mv "$K.tmp" "$K"
if headers_work "$K/build"; then
	echo "Debian's $img $ver and its headers" >"$K/origin"
else
	prepare_from_source
	echo "Debian's $img $ver; modules built against its linux-source prepared with its config" >"$K/origin"
fi
touch "$K/.done"
log "unpacked $rel: $K ($(cat "$K/origin"))"
echo "$K"
