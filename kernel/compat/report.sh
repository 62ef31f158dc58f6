#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# What the feature probes find in a kernel tree, with what each one selects:
# for checking a kernel that is not among the tested ones ("make KDIR=...
# probe-report", README.md "Supported kernels").
#
#   kernel/compat/report.sh KDIR [OFA_DIR]
#
# Runs the module's probes (kernel/compat/probes/) and simhca's
# (selftests/simhca/probes/, the test HCA) through probe.sh against KDIR and
# prints one line per probe: yes/no, its name and the first sentence of its
# comment. The sanity probe must build: if it does not, the tree cannot
# build modules at all and the script fails with the build log.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
[ $# -ge 1 ] || { sed -n '9p' "$0" | sed 's/^# *//' >&2; exit 2; }
KDIR=$1
OFA_DIR=${2:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcg-report.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# describe PROBE.c: its comment up to the first full stop, on one line.
describe() {
	sed -n '/^\/\*/,/\*\//p' "$1" | sed -E 's@^ ?/?\*+/? ?@@; s@\*/$@@' |
		tr '\n' ' ' | sed -E 's/  +/ /g; s/^ //; s/^MCG_HAVE_[A-Z0-9_]+: //; s/(\.|\)\.) .*/\1/'
}

report() {
	local title=$1 pdir=$2 out=$3 p name
	echo "$title"
	for p in "$pdir"/*.c; do
		name=$(basename "$p" .c)
		[ "$name" = sanity ] && continue
		if grep -q "^#define MCG_HAVE_${name^^} 1" "$out"; then
			printf '  yes  %-26s %s\n' "$name" "$(describe "$p")"
		else
			printf '  no   %-26s %s\n' "$name" "$(describe "$p")"
		fi
	done
}

echo "kernel tree: $KDIR ($(cat "$KDIR/include/config/kernel.release" 2>/dev/null || echo 'release unknown'))"
MCG_PROBE_CACHE='' bash "$HERE/probe.sh" -q "$KDIR" "$tmp/module.h" "$OFA_DIR"
echo "RDMA headers: $(sed -n 's/^#define MCG_RDMA_HEADERS "\(.*\)"/\1/p' "$tmp/module.h")"
report "ib_mcgroups (kernel/compat/probes):" "$HERE/probes" "$tmp/module.h"
if [ -d "$TOP/selftests/simhca/probes" ]; then
	MCG_PROBE_CACHE='' MCG_PROBES_DIR=$TOP/selftests/simhca/probes:$HERE/probes \
		bash "$HERE/probe.sh" -q "$KDIR" "$tmp/simhca.h" "$OFA_DIR"
	report "simhca, the test HCA (selftests/simhca/probes):" \
		"$TOP/selftests/simhca/probes" "$tmp/simhca.h"
fi
