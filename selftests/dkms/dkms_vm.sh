#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The DKMS install, end to end, without touching the host's DKMS state or
# /lib/modules:
#
#   1. make dkms-tarball (build/ib_mcgroups-VERSION-source-only.dkms.tar.gz)
#   2. dkms ldtarball, build and install it for the VM's kernel in a private
#      tree: --dkmstree, --sourcetree, --installtree under $O/dkms, the
#      VM kernel's headers as --kernelsourcedir, a private signing key,
#      --no-depmod
#   3. boot the VM with that tree (selftests/vm/run.sh --modules-from) and
#      run selftests/dkms/dkms_module.sh in it: modinfo filename in
#      updates/dkms, version = VERSION, modprobe, join/list/data/leave.
#
#   selftests/dkms/dkms_vm.sh      (KVER as for run.sh; the build dir is
#                                   $O/dkms-vm, default build/dkms-vm)
#
# Prints KTAP for the host steps, then the VM's; the last line is the total
# "N passed, M failed". Needs dkms (make deps) and root, as the VM tests do.
set -uo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
# Run from make check: the outer make's flags are not for dkms's make.
unset MAKEFLAGS MAKELEVEL MFLAGS
# Never the build dir of the other VM tests, whose logs make check keeps.
O=${O:-$TOP/build}/dkms-vm
mkdir -p "$O"
O=$(cd "$O" && pwd)	# dkms needs its trees absolute
export O
# A kernel built by selftests/kernels/build-kernel.sh (KERNEL_DIR, as for
# run.sh; selftests/kernels/lane.sh SERIES dkms): its release, its build
# tree as the headers (KDIR), and run.sh boots it.
if [ -n "${KERNEL_DIR:-}" ]; then
	KVER=$(cat "$KERNEL_DIR/kernel.release") || { echo "0 passed, 1 failed"; exit 1; }
	KSRC=${KDIR:-$KERNEL_DIR/build}
else
	KVER=${KVER:-$("$TOP/selftests/vm/kver.sh")} || { echo "0 passed, 1 failed"; exit 1; }
	KSRC=/lib/modules/$KVER/build
fi
export KVER
VERSION=$(cat "$TOP/VERSION")
D=$O/dkms
n=0
failed=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		failed=$((failed + 1))
		[ -s "$D/step.log" ] && tail -n 30 "$D/step.log" | sed 's/^/# /'
	fi
	return "$1"
}

# step DESC CMD...: run CMD with its output in $D/step.log
step() {
	local desc=$1
	shift

	"$@" >"$D/step.log" 2>&1
	ok $? "$desc"
}

bail() {
	echo "# bailing out: $*"
	echo "$((n - failed)) passed, $((failed + 1)) failed"
	exit 1
}

echo "TAP version 13"
echo "# host: dkms install into $D for $KVER"
rm -rf "$D"
mkdir -p "$D/dkms" "$D/src" "$D/root/lib/modules/$KVER"
stamp=$D/stamp
touch "$stamp"
sleep 1

command -v dkms >/dev/null || bail "dkms is not installed (make deps)"
[ -f "$KSRC/Makefile" ] || bail "no headers for $KVER in $KSRC"
# The private tree's own key: dkms would otherwise create /var/lib/dkms/mok.*
export mok_signing_key=$D/mok.key mok_certificate=$D/mok.pub
DKMS=(dkms --dkmstree "$D/dkms" --sourcetree "$D/src"
      --installtree "$D/root/lib/modules" --kernelsourcedir "$KSRC")
MV=(-m ib_mcgroups -v "$VERSION" -k "$KVER")

step "make dkms-tarball" make -s --no-print-directory -C "$TOP" dkms-tarball ||
	bail "no tarball"
tarball=$(tail -n1 "$D/step.log")
step "dkms ldtarball $(basename "$tarball")" "${DKMS[@]}" ldtarball "$TOP/$tarball" ||
	bail "ldtarball"
step "dkms build for $KVER" "${DKMS[@]}" build "${MV[@]}" || bail "build"
grep -E '^ *(PROBE|OFA) ' "$D/dkms/ib_mcgroups/$VERSION/$KVER/$(uname -m)/log/make.log" 2>/dev/null |
	sed 's/^/# make.log: /'
step "dkms install (private installtree, no depmod)" \
	"${DKMS[@]}" install --no-depmod "${MV[@]}" || bail "install"
# DKMS compresses the module the way the kernel does (6.12: .ko.xz).
ko=$(ls "$D"/root/lib/modules/"$KVER"/updates/dkms/ib_mcgroups.ko* 2>/dev/null | head -n1)
ko=${ko:-$D/root/lib/modules/$KVER/updates/dkms/ib_mcgroups.ko}
step "installed in updates/dkms ($(basename "$ko"))" test -f "$ko"
step "its version is VERSION ($VERSION)" \
	test "$(modinfo -F version "$ko" 2>/dev/null)" = "$VERSION"
step "its vermagic is $KVER" \
	test "$(modinfo -F vermagic "$ko" 2>/dev/null | awk '{print $1}')" = "$KVER"
step "dkms status: installed" \
	sh -c "'${DKMS[0]}' --dkmstree '$D/dkms' --sourcetree '$D/src' --installtree '$D/root/lib/modules' status -m ib_mcgroups | tee /dev/stderr | grep -q ': installed'"
# Nothing of the host's changed: its DKMS tree, /usr/src, its module tree.
changed=$(find /var/lib/dkms /usr/src -maxdepth 2 -newer "$stamp" 2>/dev/null
	  find "/lib/modules/$KVER" -newer "$stamp" 2>/dev/null)
printf '%s\n' "$changed" >"$D/step.log"
ok "$([ -z "$changed" ]; echo $?)" "the host's /var/lib/dkms, /usr/src and /lib/modules/$KVER are untouched"

echo "VERSION=$VERSION" >"$D/dkms.expect"
echo "# vm: boot with --modules-from $D/root"
vm_out=$D/vm.log
GUEST_FILES="$D/dkms.expect" EXTRA_TESTS="$TOP/selftests/dkms/dkms_module.sh" \
	"$TOP/selftests/vm/run.sh" --timeout 400 --modules-from "$D/root" dkms_module \
	>"$vm_out" 2>&1
vm_rc=$?
sed -n '/^=== KTAP begin ===$/,/^=== KTAP end ===$/{//!p}' "$O/results.clean" 2>/dev/null |
	tr -d '\r' | sed 's/^/    /'
grep -E '^(run\.sh|#)' "$vm_out" | sed 's/^/# /'
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$vm_out" | tail -n1)
vp=$(sed -nE 's/^([0-9]+) passed.*/\1/p' <<<"$line")
vf=$(sed -nE 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/p' <<<"$line")
vs=$(sed -nE 's/.*, ([0-9]+) skipped.*/\1/p' <<<"$line")
if [ -z "$line" ]; then
	vp=0 vf=1
elif [ "$vm_rc" -ne 0 ] && [ "${vf:-0}" -eq 0 ]; then
	vf=1
fi
# Total: the host steps plus the VM's leaf results; the VM's line below only
# sums those up.
passed=$((n - failed + vp))
total_failed=$((failed + vf))
ok "$([ "$vf" -eq 0 ]; echo $?)" "vm: the DKMS-installed module ($vp passed, $vf failed${vs:+, $vs skipped})"
echo "1..$n"
echo "$passed passed, $total_failed failed${vs:+, $vs skipped}"
[ "$total_failed" -eq 0 ]
