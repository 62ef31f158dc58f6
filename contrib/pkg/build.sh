#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Builds the packages from a copy of the tree in a scratch directory, never
# in the tree itself (dpkg-buildpackage writes its results to the parent
# directory, rpmbuild wants a source tarball):
#
#   contrib/pkg/build.sh deb OUTDIR  debian/: dpkg-buildpackage -b -us -uc
#   contrib/pkg/build.sh rpm OUTDIR  ib_mcgroups.spec: rpmbuild -ba, with
#                                    --nodeps where rpm's database has no
#                                    packages (Debian: the build
#                                    dependencies are Debian packages)
#
# "make deb" and "make rpm" run it with OUTDIR build/pkg/deb, build/pkg/rpm.
# The copy holds the files git knows (tracked or untracked, not ignored),
# so that nothing built in the tree goes in; without git, everything but
# build/ and .git/. OUTDIR gets the packages and build.log (the whole
# output; its end is printed on failure). RPMBUILD_FLAGS: more rpmbuild
# options.
set -euo pipefail

what=${1:-}
out=${2:-}
case $what in
deb | rpm) ;;
*)
	echo "usage: $0 deb|rpm OUTDIR" >&2
	exit 2
	;;
esac
[ -n "$out" ] || { echo "usage: $0 deb|rpm OUTDIR" >&2; exit 2; }

TOP=$(cd "$(dirname "$0")/../.." && pwd)
version=$(cat "$TOP/VERSION")
# Builds run outside any make of the tree: no flags of an outer make.
unset MAKEFLAGS MAKELEVEL MFLAGS

T=$(mktemp -d "${TMPDIR:-/tmp}/ib_mcgroups-$what.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/*.deb "$out"/*.rpm "$out"/*.buildinfo "$out"/*.changes "$out/build.log"
log=$out/build.log

# copy_tree DIR: the source files of the tree into DIR.
copy_tree() {
	mkdir -p "$1"
	if git -C "$TOP" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		(cd "$TOP" && git ls-files -z -co --exclude-standard |
			while IFS= read -r -d '' f; do
				[ -e "$f" ] && printf '%s\0' "$f"
			done | tar --null -T - -cf -) | tar -C "$1" -xf -
	else
		tar -C "$TOP" --exclude=./build --exclude=./.git -cf - . | tar -C "$1" -xf -
	fi
}

fail() {
	echo "$what build failed: $log" >&2
	tail -n 30 "$log" >&2
	exit 1
}

if [ "$what" = deb ]; then
	src=$T/ib-mcgroups-$version
	copy_tree "$src"
	(cd "$src" && dpkg-buildpackage -b -us -uc) >"$log" 2>&1 || fail
	mv "$T"/*.deb "$T"/*.buildinfo "$T"/*.changes "$out/"
else
	name=ib_mcgroups-$version
	copy_tree "$T/$name"
	mkdir -p "$T/rpmbuild/SOURCES"
	tar -C "$T" --owner=0 --group=0 -czf "$T/rpmbuild/SOURCES/$name.tar.gz" "$name"
	flags=()
	rpm -qa 2>/dev/null | grep -q . || flags+=(--nodeps)
	# shellcheck disable=SC2086  # options
	rpmbuild -ba "${flags[@]}" ${RPMBUILD_FLAGS:-} --define "_topdir $T/rpmbuild" \
		"$T/$name/ib_mcgroups.spec" >"$log" 2>&1 || fail
	mv "$T"/rpmbuild/SRPMS/*.rpm "$T"/rpmbuild/RPMS/*/*.rpm "$out/"
fi
ls "$out"/*.*rpm "$out"/*.deb 2>/dev/null || true
