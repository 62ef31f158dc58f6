#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Build (once) a kernel for the VM and print its cache directory on stdout:
#
#   selftests/kernels/build-kernel.sh [--config-only]
#
#   KFLAVOUR=debug  (default) the debug lane's kernel: base.config plus
#                   selftests/debug/debug.config (KASAN, lockdep, kmemleak,
#                   debug objects, fault injection, KUnit); the source is
#                   DEBUG_KERNEL (6.1 or 6.12, Debian 12's linux-source-X;
#                   default 6.1)
#   KFLAVOUR=plain  a kernel for the other lanes: base.config plus
#                   plain.config; the source is KSERIES (a series of
#                   selftests/kernels/source.sh: 6.1, 6.12). For
#                   KSERIES=bullseye or sid, that release's own image and
#                   modules instead, nothing built (distro.sh, which
#                   prints its directory); KSRC_TAR builds one from a
#                   tarball
#
# The kernel is Debian's linux-source configured by "make allnoconfig" with
# the fragments as KCONFIG_ALLCONFIG: only what the VM and the tests need.
# Nothing is written to the work tree:
#
#   $CACHE/linux-source-<pkgver>/       the unpacked source (shared)
#   $CACHE/kernel-<key>/build/          O= build tree (KDIR for modules)
#   $CACHE/kernel-<key>/bzImage         the kernel
#   $CACHE/kernel-<key>/mods/lib/modules/<release>/   its modules
#   $CACHE/kernel-<key>/kernel.release, build.log, build-time, series
#
# <key> hashes the fragments' settings (not their comments or their order),
# the linux-source package version and the compiler version, so a changed
# fragment or source gets a new kernel and an unchanged one is reused.
# CACHE defaults to /var/cache/ib_mcgroups.
# Environment: KFLAVOUR, DEBUG_KERNEL, KSERIES (above), KSRC_TAR (a tarball
# instead, with KSRC_VER its version), JOBS (default: number of CPUs), CACHE,
# KBUILD_NICE (the build's niceness, default 19: it takes what else leaves).
set -euo pipefail

DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${CACHE:-/var/cache/ib_mcgroups}
export CACHE
KFLAVOUR=${KFLAVOUR:-debug}
JOBS=${JOBS:-$(nproc)}
CONFIG_ONLY=0
[ "${1:-}" = --config-only ] && CONFIG_ONLY=1

log() { echo "build-kernel: $*" >&2; }
die() { log "error: $*"; exit 1; }

# The other releases' kernels are used as Debian ships them (distro.sh):
# their images boot here, and the modules build against their headers or
# their prepared linux-source with Debian 12's gcc.
case "${KSERIES:-}" in
bullseye|sid)
	if [ "$KFLAVOUR" = plain ] && [ -z "${KSRC_TAR:-}" ] &&
		[ "${1:-}" != --config-only ]; then
		exec "$DIR/distro.sh" "$KSERIES"
	fi ;;
esac

case "$KFLAVOUR" in
debug)
	FRAGS=("$DIR/base.config" "$DIR/../debug/debug.config")
	series=${DEBUG_KERNEL:-6.1} ;;
plain)
	FRAGS=("$DIR/base.config" "$DIR/plain.config")
	series=${KSERIES:?KSERIES: 6.1, 6.12, bullseye or sid} ;;
*) die "KFLAVOUR=$KFLAVOUR: debug or plain" ;;
esac
if [ -n "${KSRC_TAR:-}" ]; then
	pkgver=${KSRC_VER:-$(stat -c '%s-%Y' "$KSRC_TAR")}
else
	IFS=$'\t' read -r KSRC_TAR pkgver < <("$DIR/source.sh" "$series") ||
		die "no linux-source for $series"
fi
[ -r "$KSRC_TAR" ] || die "$KSRC_TAR not found"
for t in bc bison flex gcc make; do
	command -v "$t" >/dev/null || die "$t not found (make deps)"
done
[ -e /usr/include/libelf.h ] || die "libelf.h not found (make deps)"
[ -e /usr/include/openssl/ssl.h ] || die "openssl headers not found (make deps)"

# The fragments as one KCONFIG_ALLCONFIG file; the key over their settings.
FRAG=$(mktemp "${TMPDIR:-/tmp}/mcg-kconfig.XXXXXX")
trap 'rm -f "$FRAG"' EXIT
cat "${FRAGS[@]}" >"$FRAG"
key=$( { grep -E '^CONFIG_|^# CONFIG_.* is not set' "$FRAG" | sort
	echo "src $pkgver"; gcc --version | head -n1; } | sha256sum | cut -c1-16)
K=$CACHE/kernel-$key
B=$K/build

cached() {
	if [ -f "$K/.done" ] && [ "$CONFIG_ONLY" = 0 ]; then
		log "cached: $K ($(cat "$K/kernel.release"))"
		echo "$K"
		exit 0
	fi
}
# A built kernel needs no lock (.done is written last); one build at a time
# (the lock is the cache's), the others wait for it.
cached
mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
if ! flock -n 9; then
	# another build (make deps starts the debug kernel's early): wait
	log "waiting for another build (the lock $CACHE/.lock)"
	w0=$(date +%s)
	flock 9
	log "waited $(( $(date +%s) - w0 )) s for another build"
fi
cached

SRC=$("$DIR/source.sh" --unpack "$KSRC_TAR" "$pkgver") || die "cannot unpack $KSRC_TAR"

mkdir -p "$B"
MAKE=(nice -n "${KBUILD_NICE:-19}" make -C "$SRC" O="$B" ARCH=x86_64 -j"$JOBS")
# allnoconfig + the fragment; then check that every symbol of the fragment
# survived (a dependency missing from the fragment silently drops it).
"${MAKE[@]}" -s KCONFIG_ALLCONFIG="$FRAG" allnoconfig >&2
missing=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*) ;;
	*) continue ;;
	esac
	sym=${line%%=*}
	val=${line#*=}
	have=$(grep -E "^$sym=|^# $sym is not set" "$B/.config" || true)
	if [ "$val" = n ]; then
		[ -z "$have" ] || [ "$have" = "# $sym is not set" ] && continue
	elif [ "$have" = "$line" ]; then
		continue
	fi
	log "config: wanted $line, got '${have:-(absent)}'"
	missing=$((missing + 1))
done <"$FRAG"
[ "$missing" = 0 ] || die "$missing symbols of $FRAG not in the config"
[ "$CONFIG_ONLY" = 1 ] && { echo "$K"; exit 0; }

log "building in $B (log $K/build.log); takes a while the first time"
start=$(date +%s)
if ! "${MAKE[@]}" bzImage modules >"$K/build.log" 2>&1; then
	tail -n 30 "$K/build.log" >&2
	die "kernel build failed; see $K/build.log"
fi
rel=$(cat "$B/include/config/kernel.release")
rm -rf "$K/mods"
"${MAKE[@]}" -s INSTALL_MOD_PATH="$K/mods" modules_install >>"$K/build.log" 2>&1 ||
	die "modules_install failed; see $K/build.log"
cp "$B/arch/x86/boot/bzImage" "$K/bzImage"
echo "$rel" >"$K/kernel.release"
secs=$(( $(date +%s) - start ))
echo "$secs" >"$K/build-time"
echo "$series $KFLAVOUR" >"$K/series"
touch "$K/.done"
log "built $rel in ${secs}s: $K"
echo "$K"
