#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Print the path of a Debian linux-source tarball, fetching it first when it
# comes from another Debian release than the machine's:
#
#   selftests/kernels/source.sh SERIES
#   selftests/kernels/source.sh --unpack TARBALL VERSION
#
#   6.1, 6.12    Debian 12's own (make deps installs linux-source-6.1 and
#                -6.12): /usr/src/linux-source-SERIES.tar.xz
#   bullseye     Debian 11's kernel (today 5.10)
#   sid          Debian unstable's, the newest kernel in the archive (the
#                package the linux-source metapackage depends on; it moves
#                forward by itself)
#
# bullseye and sid come from the same Debian mirror apt already uses, through
# a private apt configuration under $CACHE/apt (sources, lists and the
# downloaded .deb): nothing is installed and the system's apt state is never
# touched, so no package of another release (sid's libc above all) can get
# into the system. The tarball is taken out of the .deb with dpkg-deb into
# $CACHE/src/linux-source-<package version>.tar.xz and reused while that
# version is the newest one of the suite; the apt lists are refreshed at
# most once a day (MIRROR: default the machine's Debian mirror).
#
# stdout: the tarball's path, a tab, the package version. Messages: stderr.
# CACHE defaults to /var/cache/ib_mcgroups.
#
# --unpack unpacks TARBALL (once; the kernel builds and distro.sh share it)
# into $CACHE/linux-source-VERSION and prints that directory.
set -euo pipefail

CACHE=${CACHE:-/var/cache/ib_mcgroups}
log() { echo "kernels/source: $*" >&2; }
die() { log "error: $*"; exit 1; }

series=${1:?usage: source.sh 6.1|6.12|bullseye|sid, or --unpack TARBALL VERSION}

if [ "$series" = --unpack ]; then
	tar=${2:?--unpack TARBALL VERSION}
	src=$CACHE/linux-source-${3:?--unpack TARBALL VERSION}
	mkdir -p "$CACHE"
	exec 7>"$CACHE/.unpack-lock"
	flock 7
	if [ ! -f "$src/.unpacked" ]; then
		log "unpacking $tar into $src"
		rm -rf "$src" "$src.tmp"
		mkdir -p "$src.tmp"
		tar -xJf "$tar" -C "$src.tmp" --strip-components=1 ||
			die "cannot unpack $tar"
		mv "$src.tmp" "$src"
		touch "$src/.unpacked"
	fi
	echo "$src"
	exit 0
fi

case "$series" in
[0-9]*.[0-9]*)
	tar=/usr/src/linux-source-$series.tar.xz
	[ -r "$tar" ] || die "$tar not found (apt install linux-source-$series; make deps)"
	ver=$(dpkg-query -W -f '${Version}' "linux-source-$series" 2>/dev/null ||
		stat -c '%s-%Y' "$tar")
	printf '%s\t%s\n' "$tar" "$ver"
	exit 0 ;;
bullseye|sid) ;;
*) die "unknown series '$series' (6.1, 6.12, bullseye or sid)" ;;
esac

# shellcheck source-path=SCRIPTDIR source=apt.sh
. "$(dirname "${BASH_SOURCE[0]}")/apt.sh"
apt_private "$series"
mkdir -p "$CACHE/src"

if [ "$series" = sid ]; then
	pkg=$(apt_depends linux-source 'linux-source-[0-9.]+')
else
	pkg=$(apt-cache "${APT[@]}" pkgnames linux-source- 2>/dev/null |
		grep -E '^linux-source-[0-9]+\.[0-9]+$' | sort -V | tail -n1)
fi
[ -n "$pkg" ] || die "no linux-source package in $series"
ver=$(apt_candidate "$pkg")
if [ -z "$ver" ]; then
	die "$pkg has no candidate in $series"
fi
out=$CACHE/src/$pkg-$ver.tar.xz
if [ ! -s "$out" ]; then
	log "fetching $pkg $ver from $series"
	deb=$(apt_fetch "$pkg=$ver")
	x=$(mktemp -d "$CACHE/src/.x.XXXXXX")
	dpkg-deb -x "$deb" "$x"
	t=$(find "$x/usr/src" -maxdepth 1 -name 'linux-source-*.tar.xz' | head -n1)
	[ -s "$t" ] || die "no tarball in $deb"
	mv "$t" "$out.tmp" && mv "$out.tmp" "$out"
	rm -rf "$x" "$deb"
fi
printf '%s\t%s\n' "$out" "$ver"
