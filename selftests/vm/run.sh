#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Boot the Debian kernel in qemu with a busybox initramfs and run the
# ib_mcgroups selftests (or the demo) in it.
#
#   selftests/vm/run.sh [--demo] [--keep] [--timeout SECS]
#                       [--modules-from DIR] [TEST...]
#
#   --demo          run selftests/demo.sh instead of the tests
#   --keep          after the run, leave a shell on the console (interactive;
#                   exit the shell to end the VM); no timeout
#   --timeout SECS  overall VM timeout (default 3600). The VM is also
#                   stopped when it has printed no result line for longer
#                   than the longest test timeout of the guest plus 120 s
#                   (x TIMEOUT_SCALE): a hung guest, since every test's
#                   own timeout ends a test that hangs. A guest that
#                   crashes or hangs before its tests start (300 s x
#                   TIMEOUT_SCALE) is booted once more
#   --modules-from DIR
#                   take ib_mcgroups.ko from the module tree
#                   DIR/lib/modules/KVER (a DKMS --installtree, or what
#                   make install-module INSTALL_MOD_PATH=DIR installs) and put
#                   it at the same path in the VM (updates/dkms/...), instead
#                   of kernel/ib_mcgroups.ko in extra/
#   TEST...         only these tests (tests/NAME.sh or a C test NAME;
#                   ".sh" optional); default: all
#
# Environment: KVER (guest kernel, default: the one selftests/vm/kver.sh
# prints), O (build dir, default <repo>/build/vm), QEMU_EXTRA (extra
# qemu args), BUILD=1 (run "make -C kernel" and "make -C user" first),
# MCG_NS (passed to the guest; see selftests/lib.sh), TIMEOUT_SCALE
# (multiplies every test's timeout in the guest, default 1), SKIP_TESTS
# (test names left out when no TEST... is given), PROGS_DIR (the C tests
# and test tools already built there by "make -C selftests OUTPUT=DIR
# progs", as make check does once for all its VMs; default: built in
# $O/selftests).
#
# Another kernel (the debug lane, selftests/debug/): KERNEL_DIR=DIR or
# --kernel DIR boots DIR/bzImage (release in DIR/kernel.release) with the
# modules in DIR/mods/lib/modules/<release>; MCG_KO and SIMHCA_KO then name
# the project's modules built for it; EXTRA_TESTS (shell tests) are added to
# tests/ and POST_TESTS (guest scripts, 120 s each) run after all the others;
# GUEST_FILES are copied to /selftests/bin; EXTRA_KOS (kernel modules, e.g.
# the KUnit tests) go to /lib/modules/<release>/extra; KERNEL_APPEND is
# added to the kernel command line. With TEST... given, EXTRA_TESTS and POST_TESTS run too.
# A test's "# guest-files: PATH..." lines: host files only it needs, in a
# second cpio appended to the initramfs when it runs (see below).
#
# Output: $O/console.log (serial console), $O/results.log (KTAP channel),
# $O/ktap.log, $O/dmesg.log, $O/out/ (the files tests saved with
# save_output; promtool checks the *.prom ones on the host, plot-wave.sh
# renders the *.wave ones as SVG). The last
# line is "N passed, M failed[, K skipped]".
set -euo pipefail

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$VM_DIR/../.." && pwd)
O=${O:-$TOP/build/vm}

DEMO=0
KEEP=0
TIMEOUT=3600
TESTS=()

usage() {
	sed -n '/^#   selftests/,/^#   TEST\.\.\./s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
	exit "${1:-0}"
}

while [ $# -gt 0 ]; do
	case "$1" in
	--demo) DEMO=1 ;;
	--keep) KEEP=1 ;;
	--timeout)
		[ $# -ge 2 ] || usage 2
		TIMEOUT=$2
		shift ;;
	--timeout=*) TIMEOUT=${1#--timeout=} ;;
	--kernel)
		[ $# -ge 2 ] || usage 2
		KERNEL_DIR=$2
		shift ;;
	--modules-from)
		[ $# -ge 2 ] || usage 2
		MODULES_FROM=$2
		shift ;;
	-h|--help) usage 0 ;;
	-*) echo "run.sh: unknown option $1" >&2; usage 2 ;;
	*) TESTS+=("$1") ;;
	esac
	shift
done
[[ $TIMEOUT =~ ^[0-9]+$ ]] || { echo "run.sh: bad --timeout '$TIMEOUT'" >&2; exit 2; }
[[ ${TIMEOUT_SCALE:-1} =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: bad TIMEOUT_SCALE '$TIMEOUT_SCALE'" >&2; exit 2; }

log() { echo "run.sh: $*" >&2; }
# A tool or file only some tests use is missing: not worth a line in the demo.
optional() { [ "$DEMO" = 1 ] || log "note: $*"; }
# A harness error still ends with a summary line, for CI log parsers.
die() { log "error: $*"; echo "0 passed, 1 failed"; exit 1; }

# warn_stale ARTIFACT DIR: warn if a source file in DIR is newer.
warn_stale() {
	local newer

	newer=$(find "$2" -maxdepth 2 \( -name '*.c' -o -name '*.h' \) \
		-newer "$1" -print -quit 2>/dev/null)
	[ -z "$newer" ] || log "warning: $1 is older than $newer (BUILD=1 rebuilds it)"
}

# --- kernel -----------------------------------------------------------------
# --kernel DIR / KERNEL_DIR (debug lane): its bzImage and modules.
MODROOT=
if [ -n "${KERNEL_DIR:-}" ]; then
	[ -f "$KERNEL_DIR/bzImage" ] && [ -f "$KERNEL_DIR/kernel.release" ] ||
		die "$KERNEL_DIR: no bzImage or kernel.release (selftests/kernels/build-kernel.sh)"
	KVER=$(cat "$KERNEL_DIR/kernel.release")
	MODROOT=$KERNEL_DIR/mods
fi
if [ -z "${KVER:-}" ]; then
	KVER=$("$VM_DIR/kver.sh") || die "no kernel with both an image and headers (make deps)"
fi
if [ -n "${KERNEL_DIR:-}" ]; then
	VMLINUZ=$KERNEL_DIR/bzImage
else
	# an image make deps unpacked (unpack-debs.sh), or the machine's own
	MODROOT=$("$VM_DIR/kver.sh" --root "$KVER") ||
		die "kernel $KVER: no /boot/vmlinuz-$KVER and none unpacked (make deps)"
	VMLINUZ=$MODROOT/boot/vmlinuz-$KVER
fi
[ -f "$VMLINUZ" ] || die "$VMLINUZ not found"
[ -r "$VMLINUZ" ] || die "$VMLINUZ not readable"
log "kernel $KVER, build dir $O"

# --- build ------------------------------------------------------------------
mkdir -p "$O"
O=$(cd "$O" && pwd)	# make -C below needs it absolute
if [ "${BUILD:-0}" = 1 ]; then
	for d in kernel user; do
		[ -f "$TOP/$d/Makefile" ] && make -C "$TOP/$d" >&2
	done
fi
PROGS=$O/selftests
if [ "$DEMO" = 1 ]; then
	# Only the demo's tools: no C test, no kernel source needed.
	make -s -C "$TOP/selftests" OUTPUT="$O/selftests" demo-tools >&2 ||
		die "the demo's tools did not build"
	C_TESTS=
	TOOLS=$(make -s -C "$TOP/selftests" list-demo-tools)
elif [ -n "${PROGS_DIR:-}" ]; then
	PROGS=$PROGS_DIR
	C_TESTS=$(make -s -C "$TOP/selftests" list-progs)
	TOOLS=$(make -s -C "$TOP/selftests" list-tools)
else
	# A C test that does not build is reported as failed by the guest runner.
	# simhca.ko given (check.sh builds one per kernel elsewhere): not the
	# tree's, which another run.sh may be building for another kernel.
	make -s -k -C "$TOP/selftests" OUTPUT="$O/selftests" \
		"$([ -n "${SIMHCA_KO:-}" ] && echo progs || echo all)" >&2 ||
		log "warning: selftests build failed; programs that did not build will fail"
	C_TESTS=$(make -s -C "$TOP/selftests" list-progs)
	TOOLS=$(make -s -C "$TOP/selftests" list-tools)
fi

# --- initramfs --------------------------------------------------------------
ROOT=$O/initramfs
rm -rf "$ROOT"
mkdir -p "$ROOT"/{usr/bin,usr/sbin,usr/lib,usr/lib64,etc,proc,sys,dev,tmp,run,root,bb}
mkdir -p "$ROOT"/selftests/bin "$ROOT"/var
ln -s usr/bin "$ROOT/bin"
ln -s usr/sbin "$ROOT/sbin"
ln -s usr/lib "$ROOT/lib"
ln -s usr/lib64 "$ROOT/lib64"
ln -s ../run "$ROOT/var/run"

declare -A COPIED=()

# Copy a host file to the same path in the initramfs (following symlinks).
copy_file() {
	local src=$1 dst=${2:-$1}

	[ -n "${COPIED[$dst]:-}" ] && return 0
	COPIED[$dst]=1
	mkdir -p "$ROOT$(dirname "$dst")"
	cp -L "$src" "$ROOT$dst"
}

# Copy the shared libraries an ELF file needs (ldd), including the loader.
copy_libs() {
	local lib

	for lib in $(ldd "$1" 2>/dev/null | awk '/=> \//{print $3} /^\t\//{print $1}'); do
		copy_file "$lib"
	done
}

# Install a host binary (by name or path) at its path, or at $2.
install_bin() {
	local src

	src=$(command -v "$1" 2>/dev/null) || return 1
	copy_file "$src" "${2:-$src}"
	copy_libs "$src"
}

# busybox-static as make deps unpacks it (unpack-debs.sh), else the
# machine's busybox (make deps-demo)
BUSYBOX=${DEB_CACHE:-/var/cache/ib_mcgroups/debs}/busybox-static/bin/busybox
[ -x "$BUSYBOX" ] || BUSYBOX=busybox
install_bin "$BUSYBOX" /usr/bin/busybox || die "busybox not found (make deps-demo)"
for a in $("$BUSYBOX" --list); do
	ln -s /usr/bin/busybox "$ROOT/bb/$a"
done
ln -s busybox "$ROOT/usr/bin/sh"
for b in bash kmod ip rdma setpriv; do
	install_bin "$b" || die "$b not found on the host"
done
for a in modprobe rmmod insmod lsmod depmod modinfo; do
	ln -sf ../bin/kmod "$ROOT/usr/sbin/$a"
done
for b in ibv_devices ibv_devinfo ibv_ud_pingpong ibv_rc_pingpong strace jq; do
	install_bin "$b" || optional "$b not found on the host, not installed"
done

# libibverbs with the rxe provider
for f in /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav*.so; do
	[ -e "$f" ] || die "rxe provider not found (apt install ibverbs-providers)"
	copy_file "$f"
	copy_libs "$f"
done
copy_file /etc/libibverbs.d/rxe.driver

# kernel modules and their dependencies
MODS="rdma_rxe veth dummy ib_core ib_uverbs ib_umad ib_cm rdma_cm rdma_ucm"
MCG_KO=${MCG_KO:-$TOP/kernel/ib_mcgroups.ko}
MCG_KO_DEST=/lib/modules/$KVER/extra/ib_mcgroups.ko
if [ -n "${MODULES_FROM:-}" ]; then
	mdir=$MODULES_FROM/lib/modules/$KVER
	[ -d "$mdir" ] || die "--modules-from: no $mdir"
	MCG_KO=$(find "$mdir" -name 'ib_mcgroups.ko*' | head -n1)
	[ -n "$MCG_KO" ] || die "--modules-from: no ib_mcgroups.ko in $mdir"
	MCG_KO_DEST=/lib/modules/$KVER/${MCG_KO#"$mdir"/}
	log "ib_mcgroups.ko from $MCG_KO, at $MCG_KO_DEST"
fi
if [ -f "$MCG_KO" ]; then
	vermagic=$(modinfo -F vermagic "$MCG_KO" 2>/dev/null | awk '{print $1}')
	[ "$vermagic" = "$KVER" ] ||
		log "warning: $MCG_KO is built for '$vermagic', not $KVER"
	MODS+=" $(modinfo -F depends "$MCG_KO" 2>/dev/null | tr , ' ')"
	[ -n "${MODULES_FROM:-}" ] || warn_stale "$MCG_KO" "$TOP/kernel"
	copy_file "$MCG_KO" "$MCG_KO_DEST"
else
	log "note: $MCG_KO not built; tests needing it will fail or skip"
fi
# simhca: the simulated IB HCA + SM/SA (selftests/simhca), like ib_mcgroups.ko
SIMHCA_KO=${SIMHCA_KO:-$TOP/selftests/simhca/simhca.ko}
if [ -f "$SIMHCA_KO" ]; then
	MODS+=" $(modinfo -F depends "$SIMHCA_KO" 2>/dev/null | tr , ' ')"
	warn_stale "$SIMHCA_KO" "$TOP/selftests/simhca"
	copy_file "$SIMHCA_KO" "/lib/modules/$KVER/extra/simhca.ko"
elif [ "$DEMO" = 0 ]; then
	log "note: $SIMHCA_KO not built; simhca tests will skip"
fi
# EXTRA_KOS (debug lane): more of the project's modules, e.g. its KUnit tests
for ko in ${EXTRA_KOS:-}; do
	[ -f "$ko" ] || die "$ko not found (EXTRA_KOS)"
	MODS+=" $(modinfo -F depends "$ko" 2>/dev/null | tr , ' ')"
	copy_file "$ko" "/lib/modules/$KVER/extra/$(basename "$ko")"
done

for b in saquery ibstat sminfo smpquery ibnetdiscover ibroute; do
	install_bin "$b" || optional "$b not found (apt install infiniband-diags)"
done
# OpenSM, the real SM, for the tests that run it on simhca's SMA
# (simhca internal_sa=N); the tests skip where it is missing.
for b in opensm osmtest; do
	install_bin "$b" || optional "$b not found (apt install opensm)"
done
# glibc loads libgcc_s (no ldd dependency) when a thread is cancelled, as
# osmtest and opensm do at exit; without it they abort.
if [ -e /lib/x86_64-linux-gnu/libgcc_s.so.1 ]; then
	copy_file /lib/x86_64-linux-gnu/libgcc_s.so.1
fi
# Optional: team registers a generic netlink family (ib_join.sh loads it);
# crc32_generic, the crypto API's crc32, which rdma_rxe used up to 6.13
# (mcg_load_rxe in lib.sh); ipv6, a module (or built in) until IPv6 became
# a bool option, which the newest kernels build in with no module name;
# ib_ipoib, the kernel's IPoIB, for the ipoib_* tests (they skip without).
for m in team crc32_generic ipv6 ib_ipoib; do
	modprobe ${MODROOT:+-d "$MODROOT"} -S "$KVER" --show-depends "$m" \
		>/dev/null 2>&1 && MODS+=" $m"
done
for m in $MODS; do
	deps=$(modprobe ${MODROOT:+-d "$MODROOT"} -S "$KVER" --show-depends "$m" 2>/dev/null) ||
		die "kernel module $m not found for $KVER"
	for ko in $(awk '$1 == "insmod" {print $2}' <<<"$deps"); do
		copy_file "$ko" "${ko#"$MODROOT"}"
	done
done
for f in modules.order modules.builtin modules.builtin.modinfo; do
	[ -f "$MODROOT/lib/modules/$KVER/$f" ] &&
		copy_file "$MODROOT/lib/modules/$KVER/$f" "/lib/modules/$KVER/$f"
done
depmod -b "$ROOT" "$KVER"

# the project's user space
if [ -x "$TOP/user/mcctl" ]; then
	warn_stale "$TOP/user/mcctl" "$TOP/user"
	cp "$TOP/user/mcctl" "$ROOT/usr/bin/mcctl"
	for f in "$TOP"/user/*.so* "$TOP"/user/lib/*.so*; do
		[ -e "$f" ] && cp -a "$f" "$ROOT/usr/lib/"
	done
	LD_LIBRARY_PATH=$TOP/user:$TOP/user/lib copy_libs "$TOP/user/mcctl"
else
	log "note: $TOP/user/mcctl not built"
fi

# tests, tools and the guest scripts; contrib/ for the tests of its scripts
# (not simhca/, vm/ or tools/: sources, and an in-place kbuild of simhca
# beside us would make files vanish under cp)
mkdir -p "$ROOT/selftests"
tar -C "$TOP/selftests" --exclude=./simhca --exclude=./vm --exclude=./tools \
	-cf - . | tar -C "$ROOT/selftests" -xf -
cp -a "$TOP/contrib" "$ROOT/contrib"
# the shipped configuration (the Slurm test runs the shipped defaults on it)
mkdir -p "$ROOT/selftests/shipped"
cp "$TOP/user/ib_mcgroups.conf" "$ROOT/selftests/shipped/"
rm -rf "$ROOT/selftests/vm" "$ROOT/selftests/tools" "$ROOT/selftests/simhca"
find "$ROOT/selftests" \( -name '*.c' -o -name '*.h' -o -name Makefile \) -delete
for p in $TOOLS $C_TESTS; do
	bin=$PROGS/$p
	src=$TOP/selftests/$p.c
	[ -f "$src" ] || src=$TOP/selftests/tools/$p.c
	if [ -x "$bin" ] && ! [ "$src" -nt "$bin" ]; then
		copy_file "$bin" "/selftests/bin/$p"
		copy_libs "$bin"
	else
		log "warning: $p not built"
	fi
done
# EXTRA_TESTS, POST_TESTS, GUEST_FILES (debug lane): see the top.
add_test() {
	[ ${#TESTS[@]} -gt 0 ] && [[ " ${TESTS[*]} " != *" $1 "* ]] && TESTS+=("$1")
	return 0
}
for f in ${GUEST_FILES:-}; do
	cp "$f" "$ROOT/selftests/bin/"
done
for f in ${EXTRA_TESTS:-}; do
	cp "$f" "$ROOT/selftests/tests/"
	chmod +x "$ROOT/selftests/tests/$(basename "$f")"
	add_test "$(basename "$f" .sh)"
done
for f in ${POST_TESTS:-}; do
	p=$(basename "$f" .sh)
	cp "$f" "$ROOT/selftests/bin/$p"
	chmod +x "$ROOT/selftests/bin/$p"
	C_TESTS+=" $p"
	add_test "$p"
done
cp "$VM_DIR/init" "$ROOT/init"
cp "$VM_DIR/runner.sh" "$ROOT/selftests/runner.sh"
chmod +x "$ROOT/init" "$ROOT/selftests/runner.sh"

cat >"$ROOT/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
EOF
cat >"$ROOT/etc/group" <<'EOF'
root:x:0:
nogroup:x:65534:
EOF
printf '/usr/lib/x86_64-linux-gnu\n/usr/local/lib\n/usr/lib\n' >"$ROOT/etc/ld.so.conf"
ldconfig -r "$ROOT" 2>/dev/null || log "warning: ldconfig -r failed"
{
	echo "MODE=$([ "$DEMO" = 1 ] && echo demo || echo tests)"
	echo "KEEP=$KEEP"
	echo "KVER=$KVER"
	echo "C_TESTS='$C_TESTS'"
	printf "TESTS='%s'\n" "${TESTS[*]:-}"
	printf "SKIP_TESTS='%s'\n" "${SKIP_TESTS:-}"
	echo "export MCG_NS='${MCG_NS:-}'"
	echo "export TIMEOUT_SCALE=${TIMEOUT_SCALE:-1}"
} >"$ROOT/etc/vmtest.conf"

INITRD=$O/initramfs.cpio.gz
(cd "$ROOT" && find . -print0 | sort -z | cpio --null -o -H newc --quiet) |
	gzip -1 >"$INITRD"
log "initramfs $(du -h "$INITRD" | cut -f1)"

# Per-test guest files: a shell test that needs host programs no other test
# does (Slurm, Prometheus) names them in "# guest-files: PATH..." lines
# (programs with their libraries; directories whole, with the libraries of
# their ELF files). Only when such a test is selected are they packed into a
# second cpio appended to the initramfs (the kernel unpacks both); a path
# missing on the host is left out, and the test fails on it in the guest.
GUEST_EXTRA=()
for f in "$ROOT"/selftests/tests/*.sh; do
	if [ ${#TESTS[@]} -eq 0 ]; then
		[[ " ${SKIP_TESTS:-} " != *" $(basename "$f" .sh) "* ]] || continue
	else
		[[ " ${TESTS[*]} " == *" $(basename "$f" .sh) "* ]] ||
			[[ " ${TESTS[*]} " == *" $(basename "$f") "* ]] || continue
	fi
	# shellcheck disable=SC2207
	GUEST_EXTRA+=($(sed -n 's/^#[[:space:]]*guest-files:\(.*\)/\1/p' "$f"))
done
if [ ${#GUEST_EXTRA[@]} -gt 0 ]; then
	XROOT=$O/initramfs-extra
	rm -rf "$XROOT"
	mkdir -p "$XROOT"/usr/{bin,sbin,lib,lib64}
	for d in bin sbin lib lib64; do
		ln -s "usr/$d" "$XROOT/$d"
	done
	BASE_ROOT=$ROOT
	ROOT=$XROOT	# copy_file, install_bin and copy_libs write here now
	for p in "${GUEST_EXTRA[@]}"; do
		if [ -d "$p" ]; then
			mkdir -p "$ROOT$p"
			cp -a "$p/." "$ROOT$p/"
			while IFS= read -r -d '' elf; do
				copy_libs "$elf"
			done < <(find "$p" -type f -name '*.so*' -print0)
		elif [ -e "$p" ]; then
			copy_file "$p"
			copy_libs "$p"
		else
			optional "$p (guest-files) not on the host (make deps)"
		fi
	done
	ROOT=$BASE_ROOT
	(cd "$XROOT" && find . -print0 | sort -z | cpio --null -o -H newc --quiet) |
		gzip -1 >>"$INITRD"
	log "initramfs with guest-files $(du -h "$INITRD" | cut -f1)"
fi

# --- boot -------------------------------------------------------------------
CONSOLE=$O/console.log
RESULTS=$O/results.log
rm -f "$CONSOLE" "$RESULTS" "$O/ktap.log" "$O/dmesg.log"

APPEND="console=ttyS0 panic=-1 oops=panic panic_on_warn=1 loglevel=5 no_timer_check"
APPEND+=" mitigations=off nokaslr i8042.noaux i8042.nokbd i8042.nopnp"
APPEND+=" rdinit=/init"
[ -n "${KERNEL_APPEND:-}" ] && APPEND+=" $KERNEL_APPEND"

# Console on stdio (and $CONSOLE); KTAP and dmesg come back on ttyS1. With
# --keep, Ctrl-C goes to the guest and Ctrl-A x quits qemu.
if [ "$KEEP" = 1 ]; then
	# shellcheck disable=SC2054 # commas within qemu's option values
	CON=(-chardev "stdio,id=con,mux=on,signal=off,logfile=$CONSOLE"
	     -mon chardev=con,mode=readline)
else
	CON=(-chardev "stdio,id=con,signal=on,logfile=$CONSOLE" -monitor none)
fi
QEMU=(qemu-system-x86_64 -machine q35 -accel tcg -m 1G -smp 2
	-nographic -no-reboot
	-kernel "$VMLINUZ" -initrd "$INITRD" -append "$APPEND"
	"${CON[@]}" -serial chardev:con
	-serial "file:$RESULTS"
	-nic none)
# shellcheck disable=SC2206
[ -n "${QEMU_EXTRA:-}" ] && QEMU+=($QEMU_EXTRA)

# The longest a test may run (its "# timeout:", default 120 s, as
# runner.sh reads it), for the watchdog below: a guest silent for longer
# than that is hung.
longest=120
for f in "$ROOT"/selftests/tests/*.sh; do
	[ -e "$f" ] || continue
	t=$(sed -n 's/^#[[:space:]]*timeout:[[:space:]]*\([0-9]\+\).*/\1/p' "$f" | head -n1)
	[ "${t:-0}" -le "$longest" ] || longest=$t
done
IDLE=$(( (longest + 120) * ${TIMEOUT_SCALE:-1} ))

# console_end: what the guest said last: the first lines that say what
# went wrong (a panic, a warning, a stall), then the console's last lines.
console_end() {
	tr -d '\r' <"$CONSOLE" 2>/dev/null | grep -av '^[[:space:]]*$' >"$O/console.tail" || true
	grep -aE 'Kernel panic|WARNING:|BUG:|Oops|stall|soft lockup|hung_task|Unable to|not syncing' \
		"$O/console.tail" | head -n 5 | cut -c1-200
	echo "..."
	tail -n 10 "$O/console.tail" | cut -c1-200
	rm -f "$O/console.tail"
}

# The guest must reach its tests (=== KTAP begin ===) within BOOT_LIMIT s.
# A guest that crashed or hung before that ran nothing of ours (init loads
# no module before the tests): seen once on a loaded machine, it is booted
# a second time, and the first console is kept as console-boot1.log.
BOOT_LIMIT=$((300 * ${TIMEOUT_SCALE:-1}))
# began: the guest has reached its tests (once seen, not read again)
began() {
	[ -n "$began_seen" ] && return 0
	grep -aq '^=== KTAP begin ===' "$RESULTS" 2>/dev/null && began_seen=1
}
log "booting (timeout ${TIMEOUT}s, ${IDLE}s without a result)"
start=$(date +%s)
qemu_rc=0
if [ "$KEEP" = 1 ]; then
	"${QEMU[@]}" || qemu_rc=$?
else
	for attempt in 1 2; do
		# Stopped after TIMEOUT in all, or IDLE seconds without a line on
		# the results channel. A loaded machine (a fresh one, building
		# kernels beside the tests) only makes the run longer, not silent.
		"${QEMU[@]}" </dev/null &
		qpid=$!
		qemu_rc=0
		timed_out=
		began_seen=
		while kill -0 "$qpid" 2>/dev/null; do
			sleep 2
			now=$(date +%s)
			last=$(stat -c %Y "$RESULTS" 2>/dev/null || echo "$start")
			[ "$last" -ge "$start" ] || last=$start
			if [ $((now - start)) -ge "$TIMEOUT" ] ||
				[ $((now - last)) -ge "$IDLE" ] ||
				{ [ $((now - start)) -ge "$BOOT_LIMIT" ] && ! began; }; then
				timed_out=$((now - start))
				silent=$((now - last))
				kill -TERM "$qpid" 2>/dev/null
				sleep 5
				kill -KILL "$qpid" 2>/dev/null
				break
			fi
		done
		wait "$qpid" || qemu_rc=$?
		began && break
		[ "$attempt" = 1 ] || break
		echo "# the guest did not reach its tests (qemu status $qemu_rc${timed_out:+, stopped after ${timed_out}s}); its console's end:"
		console_end | sed 's/^/#   /'
		echo "# booting it again (the first console: $O/console-boot1.log)"
		mv "$CONSOLE" "$O/console-boot1.log"
		rm -f "$RESULTS"
		start=$(date +%s)
	done
fi
elapsed=$(( $(date +%s) - start ))

# --- results ----------------------------------------------------------------
touch "$RESULTS"
tr -d '\r' <"$RESULTS" >"$O/results.clean"
sed -n '/^=== KTAP begin ===$/,/^=== KTAP end ===$/{//!p}' "$O/results.clean" >"$O/ktap.log"
sed -n '/^=== dmesg begin ===$/,/^=== dmesg end ===$/{//!p}' "$O/results.clean" >"$O/dmesg.log"
boot=$(sed -n 's/^=== boot \([0-9.]*\) ===$/\1/p' "$O/results.clean")
# Files the tests saved (save_output), in $O/out, and in $O/out.sums a
# line for each: its name and the MD5 sum the guest sent after it, or
# "noend" (its end line is missing) or "nobegin" (an end line without its
# begin: the lines between went nowhere). They are checked below, before
# anything reads them.
rm -rf "$O/out"
mkdir -p "$O/out"
awk -v dir="$O/out" -v sums="$O/out.sums" '
	function cut() { if (f != "") { close(f); print name, "noend" >sums } f = "" }
	BEGIN { printf "" >sums }
	/^=== file [A-Za-z0-9._-]+ begin ===$/ {
		cut(); name = $3; f = dir "/" name; printf "" >f; next
	}
	/^=== file [A-Za-z0-9._-]+ end [0-9a-f]+ ===$/ {
		if ($3 == name && f != "") {
			close(f); print name, $5 >sums; f = ""
		} else {
			cut(); print $3, "nobegin" >sums
		}
		next
	}
	f != "" { print >f }
	END { cut() }' "$O/results.clean"

extra_fail=0
if ! grep -q '^=== done ===$' "$O/results.clean"; then
	if [ -n "${timed_out:-}" ]; then
		echo "# VM stopped after ${timed_out}s, ${silent}s without a result (limits: ${TIMEOUT}s in all, ${IDLE}s without a result, ${BOOT_LIMIT}s to reach the tests)"
	else
		echo "# VM crashed or exited early (qemu status $qemu_rc)"
	fi
	# What the guest said last (the console; the whole of it: $CONSOLE)
	console_end | sed 's/^/# console: /'
	extra_fail=$((extra_fail + 1))
fi

SPLAT='WARNING:|BUG:|Oops|general protection fault|KASAN|possible circular locking|refcount_t:|UBSAN|kernel BUG|unreferenced object|Call Trace:'
# Without a complete dmesg dump (crash), fall back to the console.
SPLAT_SRC=$O/dmesg.log
grep -q '^=== dmesg end ===$' "$O/results.clean" || SPLAT_SRC=$CONSOLE
if grep -aEq "$SPLAT" "$SPLAT_SRC" 2>/dev/null; then
	echo "# kernel splat in $SPLAT_SRC:"
	grep -aEn "$SPLAT" "$SPLAT_SRC" | tr -d '\r' | head -n 40 | sed 's/^/#   /'
	extra_fail=$((extra_fail + 1))
fi

# Count leaf results: a result line is a leaf unless the result line before it
# is indented deeper (then it closes a subtest). A failed non-leaf whose
# subtree has no failed leaf (timeout, crash, bad exit) counts as a failure.
read -r passed failed skipped < <(awk '
	# lf at the end of the last result at level <= d: the deepest mark <= d
	function markof(d,   k, best, v) {
		best = -1; v = 0
		for (k in mark)
			if (k + 0 <= d && k + 0 > best) { best = k + 0; v = mark[k] }
		return v
	}
	{ sub(/\r$/, "") }
	/^ *(ok|not ok) [0-9]+/ {
		ind = match($0, /[^ ]/) - 1
		notok = ($0 ~ /^ *not ok/)
		skip = ($0 ~ /#[ \t]*[Ss][Kk][Ii][Pp]/)
		if (nres == 0 || prev <= ind) {
			if (skip) s++
			else if (notok) { f++; lf++ }
			else p++
		} else if (notok && lf == markof(ind)) {
			f++; lf++
		}
		for (k in mark) if (k + 0 > ind) delete mark[k]
		mark[ind] = lf
		prev = ind; nres++
	}
	END { printf "%d %d %d\n", p, f, s }' "$O/ktap.log")
# Host checks of the saved files, with programs the VM does not have.
# host_check TOOL HINT WHAT LOG CMD...: skipped without TOOL (HINT says how
# to install it), else ok if CMD succeeds; its output goes to LOG, shown
# when it fails.
host_check() {
	local tool=$1 hint=$2 what=$3 log=$4

	shift 4
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "ok - host: $what # SKIP $tool not installed ($hint)"
		skipped=$((skipped + 1))
	elif "$@" >"$log" 2>&1; then
		echo "ok - host: $what"
		passed=$((passed + 1))
	else
		echo "not ok - host: $what"
		sed 's/^/#   /' "$log"
		failed=$((failed + 1))
	fi
}
# Each saved file arrived whole: its MD5 sum is the one the guest sent. One
# that did not is renamed NAME.damaged, out of the checks below.
# sent_whole FILE SUM: FILE is the file the guest summed as SUM, or that
# and the newline the guest sent after it if it had none at its end
sent_whole() {
	[ "$(md5sum <"$1")" = "$2  -" ] || [ "$(head -c -1 "$1" | md5sum)" = "$2  -" ]
}
if [ -s "$O/out.sums" ]; then
	damaged=()
	while read -r name sum; do
		f=$O/out/$name
		case $sum in
		nobegin) damaged+=("$name: its begin line is missing") ;;
		noend) damaged+=("$name: its end line is missing") ;;
		*) ! sent_whole "$f" "$sum" || continue
		   damaged+=("$name: $(wc -c <"$f") bytes, not the MD5 sum the guest sent") ;;
		esac
		[ ! -f "$f" ] || mv "$f" "$f.damaged"
	done <"$O/out.sums"
	if [ ${#damaged[@]} -eq 0 ]; then
		echo "ok - host: every saved file arrived whole ($(wc -l <"$O/out.sums"))"
		passed=$((passed + 1))
	else
		echo "not ok - host: every saved file arrived whole (${#damaged[@]} of $(wc -l <"$O/out.sums") did not)"
		printf '#   %s\n' "${damaged[@]}"
		failed=$((failed + 1))
	fi
fi
prom_check() { promtool check metrics <"$1"; }
wave_svg() { "$VM_DIR/plot-wave.sh" "$1" "$2" && grep -q '<svg' "$2"; }
# promtool (Debian's prometheus package) on the Prometheus expositions
for f in "$O"/out/*.prom; do
	[ -f "$f" ] || continue
	host_check promtool "apt-get install prometheus" \
		"promtool check metrics ${f##*/}" "$f.promtool" prom_check "$f"
done
# Re-join waves the tests recorded (mcg_wave_record, *.wave): rendered as
# SVG pictures next to them with gnuplot (plot-wave.sh).
for f in "$O"/out/*.wave; do
	[ -f "$f" ] || continue
	host_check gnuplot "apt-get install gnuplot-nox" \
		"plot-wave.sh ${f##*/} -> ${f%.wave}.svg" "$f.log" \
		wave_svg "$f" "${f%.wave}.svg"
done
failed=$((failed + extra_fail))

echo "# boot ${boot:-?}s, total ${elapsed}s; logs in $O"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
