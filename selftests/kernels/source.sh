#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Print the path of a Debian linux-source tarball, fetching it first when it
# comes from another Debian release than the machine's:
#
#   selftests/kernels/source.sh SERIES
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
set -euo pipefail

CACHE=${CACHE:-/var/cache/ib_mcgroups}
log() { echo "kernels/source: $*" >&2; }
die() { log "error: $*"; exit 1; }

series=${1:?usage: source.sh 6.1|6.12|bullseye|sid}

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

# The mirror of the machine's own Debian sources (deb822 or one-line form).
mirror=${MIRROR:-$(grep -rhoE 'https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list \
	/etc/apt/sources.list.d/ 2>/dev/null | head -n1 | tr -d ' ' || true)}
mirror=${mirror:-http://deb.debian.org/debian}
A=$CACHE/apt/$series
mkdir -p "$A/lists/partial" "$A/archives/partial" "$CACHE/src"
exec 8>"$A/.lock"
flock 8
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${mirror%/} $series main" \
	>"$A/sources.list"
APT=(-o Dir::Etc::SourceList="$A/sources.list" -o Dir::Etc::SourceParts=/dev/null
     -o Dir::State::Lists="$A/lists" -o Dir::State::status=/dev/null
     -o Dir::Cache="$A" -o Dir::Cache::archives="$A/archives"
     -o Debug::NoLocking=1 -o APT::Sandbox::User=root)

if [ -z "$(find "$A/lists" -maxdepth 1 -name '*_Packages*' -mtime -1 2>/dev/null)" ]; then
	log "apt update of $series from $mirror (private lists in $A)"
	apt-get "${APT[@]}" -q update >"$A/update.log" 2>&1 ||
		die "apt-get update of $series failed; see $A/update.log"
fi

# bullseye: the one linux-source-X.Y it has; sid: the one the metapackage
# "linux-source" depends on (the newest).
if [ "$series" = sid ]; then
	pkg=$(apt-cache "${APT[@]}" depends linux-source 2>/dev/null |
		sed -nE 's/^ *Depends: (linux-source-[0-9.]+)$/\1/p' | sort -V | tail -n1)
else
	pkg=$(apt-cache "${APT[@]}" pkgnames linux-source- 2>/dev/null |
		grep -E '^linux-source-[0-9]+\.[0-9]+$' | sort -V | tail -n1)
fi
[ -n "$pkg" ] || die "no linux-source package in $series"
ver=$(apt-cache "${APT[@]}" policy "$pkg" | sed -nE 's/^ *Candidate: (.*)$/\1/p')
if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
	die "$pkg has no candidate in $series"
fi
out=$CACHE/src/$pkg-$ver.tar.xz
if [ ! -s "$out" ]; then
	log "fetching $pkg $ver from $series"
	(cd "$A/archives" && apt-get "${APT[@]}" -q download "$pkg=$ver" >"$A/download.log" 2>&1) ||
		die "apt-get download $pkg=$ver failed; see $A/download.log"
	deb=$(find "$A/archives" -maxdepth 1 -name "${pkg}_*.deb" | sort -V | tail -n1)
	x=$(mktemp -d "$CACHE/src/.x.XXXXXX")
	dpkg-deb -x "$deb" "$x"
	t=$(find "$x/usr/src" -maxdepth 1 -name 'linux-source-*.tar.xz' | head -n1)
	[ -s "$t" ] || die "no tarball in $deb"
	mv "$t" "$out.tmp" && mv "$out.tmp" "$out"
	rm -rf "$x" "$deb"
fi
printf '%s\t%s\n' "$out" "$ver"
