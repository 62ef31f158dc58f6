# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# Sourced by source.sh and distro.sh: a private apt configuration for
# another Debian suite (bullseye, sid) under $CACHE/apt/SUITE - its own
# sources list, lists and download directory, no status file. Nothing is
# installed and the system's apt state is never touched, so no package of
# another release (sid's libc above all) can get into the system.
#
#   apt_private SUITE    sets A (the directory) and APT (apt-get/apt-cache
#                        options), takes the suite's lock (fd 8) and
#                        refreshes the lists at most once a day (MIRROR:
#                        default the machine's Debian mirror); a Release
#                        file whose validity has run out (a snapshot
#                        mirror) is taken, its signature still checked
#   apt_depends PKG RE   the newest package PKG depends on whose name
#                        matches the extended regex RE, or nothing
#   apt_candidate PKG    the version apt would fetch, or nothing
#   apt_fetch PKG=VER    downloads the .deb into $A/archives, prints its path

apt_private() {
	local suite=$1 mirror

	mirror=${MIRROR:-$(grep -rhoE 'https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list \
		/etc/apt/sources.list.d/ 2>/dev/null | head -n1 | tr -d ' ' || true)}
	mirror=${mirror:-http://deb.debian.org/debian}
	A=$CACHE/apt/$suite
	mkdir -p "$A/lists/partial" "$A/archives/partial"
	exec 8>"$A/.lock"
	flock 8
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${mirror%/} $suite main" \
		>"$A/sources.list"
	APT=(-o Dir::Etc::SourceList="$A/sources.list" -o Dir::Etc::SourceParts=/dev/null
	     -o Dir::State::Lists="$A/lists" -o Dir::State::status=/dev/null
	     -o Dir::Cache="$A" -o Dir::Cache::archives="$A/archives"
	     -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
	if [ -z "$(find "$A/lists" -maxdepth 1 -name '*_Packages*' -mtime -1 2>/dev/null)" ]; then
		log "apt update of $suite from $mirror (private lists in $A)"
		rm -f "$A/expired"
		if ! LC_ALL=C apt-get "${APT[@]}" -q update >"$A/update.log" 2>&1; then
			grep -q 'Release file .* is expired' "$A/update.log" ||
				die "apt-get update of $suite failed; see $A/update.log"
			log "$suite's Release file has expired at $mirror (a snapshot?): its dates are not checked, its signature is"
			touch "$A/expired"
			LC_ALL=C apt-get "${APT[@]}" -o Acquire::Check-Valid-Until=false \
				-q update >"$A/update.log" 2>&1 ||
				die "apt-get update of $suite failed; see $A/update.log"
		fi
	fi
	[ ! -e "$A/expired" ] || APT+=(-o Acquire::Check-Valid-Until=false)
}

apt_depends() {
	apt-cache "${APT[@]}" depends "$1" 2>/dev/null |
		sed -nE "s/^ *Depends: ($2)\$/\\1/p" | sort -V | tail -n1
}

apt_candidate() {
	local v

	v=$(apt-cache "${APT[@]}" policy "$1" 2>/dev/null | sed -nE 's/^ *Candidate: (.*)$/\1/p')
	[ "$v" = "(none)" ] || echo "$v"
}

apt_fetch() {
	local pkg=${1%%=*}

	(cd "$A/archives" && apt-get "${APT[@]}" -q download "$1" >"$A/download.log" 2>&1) ||
		die "apt-get download $1 failed; see $A/download.log"
	find "$A/archives" -maxdepth 1 -name "${pkg}_*.deb" | sort -V | tail -n1
}
