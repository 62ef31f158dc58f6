#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Host tests of the packages, as KTAP; the last line is "N passed, M failed".
# Builds both kinds from a copy of the tree under /tmp (contrib/pkg/build.sh,
# as make deb and make rpm do) and checks:
#
# - debian/: dpkg-buildpackage -b -us -uc makes ib-mcgroups-dkms, mcctl,
#   libibmcg1 and libibmcg-dev at the version of VERSION; each has its
#   files (dpkg -c), the DKMS one exactly the tree make dkms-source copies;
#   every file the tree's install targets install is in some package;
#   nothing under /usr/local, headers in /usr/include/ibmcg/ only; the
#   conffiles, the DKMS and systemd maintainer scripts; the symbols file
#   matches the library; lintian reports no error and no warning (but the
#   one that every package outside the Debian archive gets).
# - The .debs unpacked into a scratch root (dpkg-deb -x): mcctl runs and
#   the unit runs that mcctl; a program written against <ibmcg/ibmcg.h>
#   builds with the installed pkg-config file and runs against the
#   installed libibmcg.so.1; the packaged module source builds with DKMS
#   (a private DKMS tree; KVER, default the newest kernel with headers).
# - ib_mcgroups.spec: rpmbuild -ba makes ib_mcgroups-dkms, mcctl, libibmcg
#   and libibmcg-devel at VERSION; their file lists (rpm -qlp), conffiles
#   and scriptlets.
#
# Needs what "make deps" installs (debhelper, dh-dkms, lintian, rpm, dkms
# and the build dependencies). About two minutes.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/selftests/lib.sh"
unset MAKEFLAGS MAKELEVEL MFLAGS
export LC_ALL=C

T=$(mktemp -d "${TMPDIR:-/tmp}/mcg-pkg-test.XXXXXX")
defer rm -rf "$T"
VERSION=$(cat "$TOP/VERSION")
ARCH=$(dpkg --print-architecture)
MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null)
DEB=$T/deb
RPM=$T/rpm
R=$T/root

ktap_plan 42

# (these two run through check: SC2317)
# has_all LIST FILE...: every FILE is a line of LIST (prints the missing)
# shellcheck disable=SC2317
has_all() {
	local list=$1 f rc=0
	shift

	for f in "$@"; do
		grep -qxF -- "$f" "$list" || { echo "missing: $f"; rc=1; }
	done
	return "$rc"
}

# none_match LIST REGEX: no line of LIST matches (prints those that do)
# shellcheck disable=SC2317
none_match() {
	! grep -E -- "$2" "$1"
}

# debfiles PKG: the files and links of PKG's .deb, one path a line ("/x/y")
debfiles() {
	dpkg-deb -c "$DEB/${1}_$VERSION-1_$2.deb" | grep -v '^d' |
		awk '{ print $6 }' | sed 's|^\.||'
}

# The files the tree's install targets install, as the Debian build names
# them (the same directories as debian/rules).
make -s -C "$TOP/user" install DESTDIR="$T/inst" PREFIX=/usr LIBDIR="/usr/lib/$MA" \
	UNITDIR=/lib/systemd/system UDEVRULESDIR=/lib/udev/rules.d >"$T/inst.log" 2>&1
make -s -C "$TOP" install-slurm DESTDIR="$T/inst" PREFIX=/usr KVER=none >>"$T/inst.log" 2>&1
make -s -C "$TOP" dkms-source DKMS_SRC="$T/inst/usr/src/ib_mcgroups-$VERSION" KVER=none \
	>>"$T/inst.log" 2>&1
(cd "$T/inst" && find . ! -type d | sed 's|^\.||; s|/man/\(man[0-9]\)/\(.*\)|/man/\1/\2.gz|' |
	sed 's|\.gz\.gz$|.gz|' | sort) >"$T/installed"

# --- Debian ------------------------------------------------------------------
for tool in dpkg-buildpackage dh dh_dkms lintian rpmbuild dkms; do
	command -v "$tool" >/dev/null || ktap_diag "$tool is not installed (make deps)"
done
# (nocheck: user/'s unit tests, which the builds run, are make check's
# "unit" part already)
t0=$SECONDS
check "dpkg-buildpackage -b -us -uc (contrib/pkg/build.sh deb)" \
	env DEB_BUILD_OPTIONS=nocheck "$TOP/contrib/pkg/build.sh" deb "$DEB" ||
	ktap_diag "$(tail -n 40 "$DEB/build.log" 2>/dev/null)"
ktap_diag "deb build: $((SECONDS - t0)) s"
check_eq "debian/changelog's version is VERSION-1" "$VERSION-1" \
	"$(cd "$TOP" && dpkg-parsechangelog -S Version 2>/dev/null)"
check_eq "the four packages" \
	"ib-mcgroups-dkms_${VERSION}-1_all.deb libibmcg-dev_${VERSION}-1_$ARCH.deb libibmcg1_${VERSION}-1_$ARCH.deb mcctl_${VERSION}-1_$ARCH.deb" \
	"$(cd "$DEB" 2>/dev/null && printf '%s\n' *.deb | grep -v dbgsym | xargs)"

debfiles mcctl "$ARCH" >"$T/mcctl.list"
debfiles libibmcg1 "$ARCH" >"$T/lib.list"
debfiles libibmcg-dev "$ARCH" >"$T/dev.list"
debfiles ib-mcgroups-dkms all >"$T/dkms.list"
cat "$T"/mcctl.list "$T"/lib.list "$T"/dev.list "$T"/dkms.list | sort >"$T/all.list"

# dh_compress gzips a document over 4 KiB: the Slurm README either way.
slurm_doc=$(grep -xE '/usr/share/doc/mcctl/README\.slurm\.md(\.gz)?' "$T/mcctl.list" ||
	echo /usr/share/doc/mcctl/README.slurm.md)
check "mcctl: mcctl, units, udev rule, completion, man pages, conffiles, Slurm scripts" \
	has_all "$T/mcctl.list" /usr/sbin/mcctl /lib/systemd/system/ib_mcgroups.service \
	/lib/systemd/system/ib_mcgroups-metrics.service \
	/lib/systemd/system/ib_mcgroups-metrics.timer \
	/lib/udev/rules.d/90-ib_mcgroups.rules /usr/share/bash-completion/completions/mcctl \
	/usr/share/man/man8/mcctl.8.gz /usr/share/man/man5/ib_mcgroups.conf.5.gz \
	/etc/ib_mcgroups.conf /etc/default/ib_mcgroups-slurm \
	/usr/libexec/ib_mcgroups/ib_mcgroups-prolog /usr/libexec/ib_mcgroups/ib_mcgroups-epilog \
	/usr/share/doc/mcctl/copyright "$slurm_doc"
check_eq "libibmcg1: libibmcg.so.1 (and its doc dir) only" "/usr/lib/$MA/libibmcg.so.1" \
	"$(grep -v '^/usr/share/doc/libibmcg1/' "$T/lib.list")"
check "libibmcg-dev: headers in /usr/include/ibmcg/, .so, .a, .pc" \
	has_all "$T/dev.list" /usr/include/ibmcg/ibmcg.h /usr/include/ibmcg/ib_mcgroups.h \
	"/usr/lib/$MA/libibmcg.so" "/usr/lib/$MA/libibmcg.a" "/usr/lib/$MA/pkgconfig/libibmcg.pc"
# shellcheck disable=SC2046  # a list of files
check "libibmcg-dev: every man3 page the tree installs ($(grep -c '/man3/' "$T/installed"))" \
	has_all "$T/dev.list" $(grep '/man3/' "$T/installed")
check_eq "ib-mcgroups-dkms: exactly the tree of make dkms-source" \
	"$(grep "^/usr/src/" "$T/installed")" "$(grep -v '^/usr/share/doc/' "$T/dkms.list" | sort)"
# shellcheck disable=SC2046  # a list of files
check "every file the install targets install is in a package ($(wc -l <"$T/installed"))" \
	has_all "$T/all.list" $(cat "$T/installed")
check "no file in two packages" bash -c "! uniq -d '$T/all.list' | grep ."
check "nothing under /usr/local" none_match "$T/all.list" '^/usr/local/'
check "no header outside /usr/include/ibmcg/" none_match "$T/all.list" '^/usr/include/[^/]+$'
check "no file outside /etc, /lib, /usr/{include,lib,libexec,sbin,share,src}" \
	bash -c "! grep -vE '^/(etc|lib|usr/(include|lib|libexec|sbin|share|src))/' '$T/all.list'"
mkdir -p "$T/ctl-dkms" "$T/ctl-mcctl" "$T/ctl-lib"
dpkg-deb -e "$DEB/ib-mcgroups-dkms_${VERSION}-1_all.deb" "$T/ctl-dkms" 2>/dev/null
dpkg-deb -e "$DEB/mcctl_${VERSION}-1_$ARCH.deb" "$T/ctl-mcctl" 2>/dev/null
dpkg-deb -e "$DEB/libibmcg1_${VERSION}-1_$ARCH.deb" "$T/ctl-lib" 2>/dev/null
check_eq "mcctl's conffiles" "/etc/default/ib_mcgroups-slurm /etc/ib_mcgroups.conf" \
	"$(sort "$T/ctl-mcctl/conffiles" 2>/dev/null | xargs)"
check "ib-mcgroups-dkms: depends on dkms, its postinst and prerm run DKMS for ib_mcgroups $VERSION" \
	bash -c "grep -q '^Depends:.*dkms' '$T/ctl-dkms/control' &&
		grep -qx 'DKMS_NAME=ib_mcgroups' '$T/ctl-dkms/postinst' &&
		grep -qx 'DKMS_VERSION=$VERSION' '$T/ctl-dkms/postinst' &&
		grep -q 'dkms remove' '$T/ctl-dkms/prerm'"
check "mcctl: deb-systemd-helper knows the unit; the package neither enables nor starts it" \
	bash -c "grep -q \"deb-systemd-helper debian-installed 'ib_mcgroups.service'\" '$T/ctl-mcctl/postinst' &&
		! grep -q 'deb-systemd-invoke' '$T/ctl-mcctl/postinst'"
# Every global symbol of the version script, with its node, is in the
# shipped symbols file; dpkg-gensymbols found none new and none lost.
mapsyms() {
	awk '/^LIBIBMCG_[0-9.]* *\{/ { node = $1 } /global:/ { g = 1; next }
	     /local:|^\}/ { g = 0 }
	     # an older version bound by .symver in compat.c
	     g && /\/\* *ibmcg_[a-z_0-9]*: compat\.c/ { sub(/.*\/\* */, "");
		sub(/:.*/, ""); print $0 "@" node; next }
	     g && /;/ { sub(/;.*/, ""); gsub(/[ \t]/, "");
	     print $0 "@" node }' "$TOP/user/lib/libibmcg.map" | sort
}
check_eq "libibmcg1: the symbols file has every symbol of libibmcg.map ($(mapsyms | wc -l))" \
	"$(mapsyms)" "$(awk '/^ [a-z]/ { print $1 }' "$T/ctl-lib/symbols" 2>/dev/null | sort)"
check "libibmcg1: dpkg-gensymbols found no new or lost symbol" \
	bash -c "! grep -E 'dpkg-gensymbols: (warning|error)' '$DEB/build.log'"
# (initial-upload-closes-no-bugs: a package outside the Debian archive has
# no ITP bug to close.)
lintian --suppress-tags initial-upload-closes-no-bugs "$DEB"/*.changes >"$T/lintian.log" 2>&1
check "lintian: no error, no warning" bash -c "! grep -E '^[EW]: ' '$T/lintian.log'" ||
	ktap_diag "$(cat "$T/lintian.log")"

# --- the .debs in a scratch root ---------------------------------------------
mkdir -p "$R"
for d in "$DEB"/*.deb; do
	case $d in *dbgsym*) continue ;; esac
	dpkg-deb -x "$d" "$R"
done
check_eq "the unpacked mcctl -V prints VERSION" "$VERSION" \
	"$("$R/usr/sbin/mcctl" -V 2>/dev/null | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -n1)"
check_eq "the unit runs the packaged mcctl" "/usr/sbin/mcctl apply" \
	"$(sed -n 's/^ExecStart=//p' "$R/lib/systemd/system/ib_mcgroups.service")"
check "the Slurm scripts are executable" \
	test -x "$R/usr/libexec/ib_mcgroups/ib_mcgroups-prolog" -a \
	-x "$R/usr/libexec/ib_mcgroups/ib_mcgroups-epilog"
check_eq "libibmcg.so links to libibmcg.so.1" "libibmcg.so.1" \
	"$(readlink "$R/usr/lib/$MA/libibmcg.so")"
cat >"$T/app.c" <<'EOF'
#include <stdio.h>
#include <ibmcg/ibmcg.h>

int main(void)
{
	printf("%s %s\n", ibmcg_state_name(IB_MCG_STATE_JOINED),
	       IB_MCG_GENL_NAME);
	return 0;
}
EOF
pcdirs=$R/usr/lib/$MA/pkgconfig:/usr/lib/$MA/pkgconfig:/usr/share/pkgconfig
# shellcheck disable=SC2046  # pkg-config's flags
check "a program with <ibmcg/ibmcg.h> builds with the packaged libibmcg.pc" \
	gcc -Wall -Werror -o "$T/app" "$T/app.c" \
	$(PKG_CONFIG_SYSROOT_DIR=$R PKG_CONFIG_LIBDIR=$pcdirs pkg-config --cflags --libs libibmcg)
check_eq "... and runs against the packaged libibmcg.so.1" "joined ib_mcgroups" \
	"$(LD_LIBRARY_PATH=$R/usr/lib/$MA "$T/app" 2>&1)"
check_eq "... which is the one it loads" "$R/usr/lib/$MA/libibmcg.so.1" \
	"$(LD_LIBRARY_PATH=$R/usr/lib/$MA ldd "$T/app" 2>/dev/null | awk '/libibmcg/ { print $3 }')"

# The packaged module source, built by DKMS in a private tree.
KVER=${KVER:-$("$TOP/selftests/vm/kver.sh" 2>/dev/null | head -n1)}
if [ -n "$KVER" ] && [ -f "/lib/modules/$KVER/build/Makefile" ] && command -v dkms >/dev/null; then
	export mok_signing_key=$T/mok.key mok_certificate=$T/mok.pub
	mkdir -p "$T/dkms" "$T/modroot/lib/modules"
	dk=(dkms --dkmstree "$T/dkms" --sourcetree "$R/usr/src"
	    --installtree "$T/modroot/lib/modules" --kernelsourcedir "/lib/modules/$KVER/build")
	t0=$SECONDS
	"${dk[@]}" add -m ib_mcgroups -v "$VERSION" >"$T/dkms.log" 2>&1 &&
		"${dk[@]}" build -m ib_mcgroups -v "$VERSION" -k "$KVER" >>"$T/dkms.log" 2>&1
	rc=$?
	ko=$(find "$T/dkms/ib_mcgroups/$VERSION/$KVER" -path '*/module/ib_mcgroups.ko*' 2>/dev/null | head -n1)
	ktap_diag "dkms build: $((SECONDS - t0)) s"
	ktap_result "$rc" "the packaged module source builds with DKMS for $KVER"
	[ "$rc" = 0 ] || ktap_diag "$(tail -n 30 "$T/dkms.log")"
	check_eq "... the module's version is VERSION" "$VERSION" \
		"$(modinfo -F version "${ko:-/nonexistent}" 2>/dev/null)"
else
	ktap_skip "the packaged module source builds with DKMS" "no kernel headers or no dkms"
	ktap_skip "... the module's version is VERSION" "no kernel headers or no dkms"
fi

# --- RPM ---------------------------------------------------------------------
t0=$SECONDS
check "rpmbuild -ba ib_mcgroups.spec (contrib/pkg/build.sh rpm)" \
	env RPMBUILD_FLAGS=--nocheck "$TOP/contrib/pkg/build.sh" rpm "$RPM" ||
	ktap_diag "$(tail -n 40 "$RPM/build.log" 2>/dev/null)"
ktap_diag "rpm build: $((SECONDS - t0)) s"
check_eq "ib_mcgroups.spec's version is VERSION" "$VERSION" \
	"$(sed -n 's/^Version:[[:space:]]*//p' "$TOP/ib_mcgroups.spec")"
rarch=$(rpm --eval '%{_arch}')
check_eq "the source and four binary packages" \
	"ib_mcgroups-$VERSION-1.src.rpm ib_mcgroups-dkms-$VERSION-1.noarch.rpm libibmcg-$VERSION-1.$rarch.rpm libibmcg-devel-$VERSION-1.$rarch.rpm mcctl-$VERSION-1.$rarch.rpm" \
	"$(cd "$RPM" 2>/dev/null && printf '%s\n' *.rpm | grep -v debug | xargs)"
# rpmfiles NAME ARCH: the files of the package (rpm -qlp) without its
# directories, and without the .gz of a compressed manual page
rpmfiles() {
	rpm -qp --qf '[%{FILEMODES:perms} %{FILENAMES}\n]' "$RPM/$1-$VERSION-1.$2.rpm" 2>/dev/null |
		grep -v '^d' | cut -d' ' -f2- | sed 's/\.gz$//' | sort
}
rpmfiles mcctl "$rarch" >"$T/r-mcctl.list"
rpmfiles libibmcg "$rarch" >"$T/r-lib.list"
rpmfiles libibmcg-devel "$rarch" >"$T/r-dev.list"
rpmfiles ib_mcgroups-dkms noarch >"$T/r-dkms.list"
libdir=$(rpm --eval '%{_libdir}')
check "rpm mcctl: mcctl, unit, udev rule, completion, man pages, conffiles, Slurm scripts" \
	has_all "$T/r-mcctl.list" /usr/sbin/mcctl /usr/lib/systemd/system/ib_mcgroups.service \
	/usr/lib/udev/rules.d/90-ib_mcgroups.rules /usr/share/bash-completion/completions/mcctl \
	/usr/share/man/man8/mcctl.8 /usr/share/man/man5/ib_mcgroups.conf.5 \
	/etc/ib_mcgroups.conf /etc/default/ib_mcgroups-slurm \
	/usr/libexec/ib_mcgroups/ib_mcgroups-prolog /usr/libexec/ib_mcgroups/ib_mcgroups-epilog
check "rpm libibmcg: $libdir/libibmcg.so.1" has_all "$T/r-lib.list" "$libdir/libibmcg.so.1"
# shellcheck disable=SC2046  # a list of files
check "rpm libibmcg-devel: headers in /usr/include/ibmcg/, .so, .a, .pc, man3 pages" \
	has_all "$T/r-dev.list" /usr/include/ibmcg/ibmcg.h /usr/include/ibmcg/ib_mcgroups.h \
	"$libdir/libibmcg.so" "$libdir/libibmcg.a" "$libdir/pkgconfig/libibmcg.pc" \
	$(grep '/man3/' "$T/installed" | sed 's/\.gz$//')
check_eq "rpm ib_mcgroups-dkms: exactly the tree of make dkms-source" \
	"$(grep "^/usr/src/" "$T/installed")" \
	"$(grep '^/usr/src/' "$T/r-dkms.list")"
check "rpm: nothing under /usr/local, no header outside /usr/include/ibmcg/" \
	bash -c "! cat '$T'/r-*.list | grep -E '^/usr/local/|^/usr/include/[^/]+$'"
check "rpm: no file in two packages" bash -c "! cat '$T'/r-*.list | sort | uniq -d | grep ."
check_eq "rpm mcctl's conffiles" "/etc/default/ib_mcgroups-slurm /etc/ib_mcgroups.conf" \
	"$(rpm -qpc "$RPM/mcctl-$VERSION-1.$rarch.rpm" 2>/dev/null | sort | xargs)"
check "rpm ib_mcgroups-dkms: requires dkms, %post builds and %preun removes ib_mcgroups $VERSION" \
	bash -c "rpm -qpR '$RPM/ib_mcgroups-dkms-$VERSION-1.noarch.rpm' | grep -qx dkms &&
		rpm -qp --scripts '$RPM/ib_mcgroups-dkms-$VERSION-1.noarch.rpm' >'$T/dkms.scripts' &&
		grep -q 'dkms install -m ib_mcgroups -v $VERSION' '$T/dkms.scripts' &&
		grep -q 'dkms remove -m ib_mcgroups -v $VERSION' '$T/dkms.scripts'"

# The four together in a scratch root: rpm --root with its own database,
# no scriptlets, no check of what Debian cannot provide (libc and the
# others are Debian packages here); what they require of each other must
# be there.
RR=$T/rpmroot
mkdir -p "$RR"
check "rpm: the binary packages install together into a scratch root" \
	bash -c "rpm --root '$RR' --initdb &&
		rpm --root '$RR' -i --nodeps --noscripts --notriggers \
		'$RPM'/ib_mcgroups-dkms-*.noarch.rpm '$RPM'/mcctl-*.$rarch.rpm \
		'$RPM'/libibmcg-$VERSION-1.$rarch.rpm '$RPM'/libibmcg-devel-*.$rarch.rpm"
check_eq "rpm: the installed mcctl -V prints VERSION" "$VERSION" \
	"$("$RR/usr/sbin/mcctl" -V 2>/dev/null | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -n1)"
# ourreqs: what the packages require of each other (names or sonames of
# this project)
ourreqs() {
	local f
	for f in "$RPM"/*."$rarch".rpm "$RPM"/*.noarch.rpm; do
		rpm -qpR "$f" 2>/dev/null
	done | grep -E '^(ib_mcgroups|mcctl|libibmcg)' | sed 's/ *$//' | sort -u
}
# (all of them name a package or soname exactly: "=" or no version)
rpm --root "$RR" -qa --provides 2>/dev/null | sed 's/ *$//' | sort -u >"$T/r-provides"
ourreqs >"$T/r-ourreqs"
check "rpm: what they require of each other ($(wc -l <"$T/r-ourreqs")) is provided" \
	bash -c "[ -s '$T/r-ourreqs' ] && ! grep -vxFf '$T/r-provides' '$T/r-ourreqs'"

echo "$__ktap_pass passed, $__ktap_fail failed$([ "$__ktap_skip" -gt 0 ] && echo ", $__ktap_skip skipped")"
ktap_finish
