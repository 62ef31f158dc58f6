#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# A lane on a kernel of another Debian release (selftests/kernels/README.md):
# Debian 11's 5.10 (bullseye) and the newest kernel in the archive (sid),
# each as Debian ships it (distro.sh), next to Debian 12's own.
#
#   selftests/kernels/lane.sh SERIES vm [run.sh options] [TEST...]
#   selftests/kernels/lane.sh SERIES dkms
#
#   SERIES  bullseye or sid (or 6.1, 6.12: Debian 12's sources, built the
#           same way)
#   vm      the VM tests (all, or TEST...) on that kernel: build-kernel.sh
#           gets it once (KFLAVOUR=plain, cached in /var/cache/ib_mcgroups:
#           for bullseye and sid distro.sh fetches Debian's own),
#           ib_mcgroups.ko and simhca.ko are built against it from a copy of
#           their sources with W=1, a warning failing the lane (mods.sh),
#           selftests/vm/run.sh --kernel boots it
#   dkms    the DKMS install test (selftests/dkms/dkms_vm.sh) with that
#           kernel's build tree (its headers, or sid's prepared source) as
#           the headers
#
# Environment: O (build dir, default build/kernels/lane-SERIES), CACHE, JOBS.
# The last line is "N passed, M failed[, K skipped]".
set -uo pipefail

DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$DIR/../.." && pwd)
unset MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL

log() { echo "lane: $*" >&2; }
die() { log "error: $*"; echo "0 passed, 1 failed"; exit 1; }

[ $# -ge 2 ] || { sed -n '/^#   selftests/,/^#   selftests.*dkms$/s/^# \{0,1\}//p' "$0" >&2; exit 2; }
series=$1
what=$2
shift 2
OUT=${O:-$TOP/build/kernels/lane-$series}
mkdir -p "$OUT"

t0=$(date +%s)
K=$(KFLAVOUR=plain KSERIES=$series "$DIR/build-kernel.sh") || die "the $series kernel does not build"
rel=$(cat "$K/kernel.release")
if [ -f "$K/origin" ]; then
	echo "# kernel $rel ($series: $(cat "$K/origin"), $K; this run $(( $(date +%s) - t0 )) s)"
else
	echo "# kernel $rel ($series: built from its linux-source, $K; built in $(cat "$K/build-time") s, this run $(( $(date +%s) - t0 )) s)"
fi
# A packaged kernel's headers may name a compiler Debian 12 lacks (distro.sh)
[ ! -d "$K/bin" ] || export PATH="$K/bin:$PATH"

case "$what" in
vm)
	# shellcheck source-path=SCRIPTDIR source=mods.sh
	. "$DIR/mods.sh"
	# With W=1, warnings failing, as on Debian 12's kernels (check.sh).
	# (The DKMS test builds its own module: it needs none of these.)
	MODS_W1=1 build_project_mods "$TOP" "$K/build" "$OUT/src" ||
		die "the modules do not build against $rel without a warning (W=1)"
	O=$OUT/vm exec "$TOP/selftests/vm/run.sh" --kernel "$K" "$@" ;;
dkms)
	KERNEL_DIR=$K KDIR=$K/build O=$OUT exec "$TOP/selftests/dkms/dkms_vm.sh" ;;
*)
	die "$what: vm or dkms" ;;
esac
