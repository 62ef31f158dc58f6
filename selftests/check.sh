#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Everything "make check" runs: mcctl's host unit tests, the build
# machinery's host tests (feature probes, MLNX_OFED detection, DKMS files),
# the packages' (make deb, make rpm: selftests/host/pkg_test.sh), then, for
# each installed Debian 12 kernel, the modules' build with W=1 and sparse,
# the VM tests and the DKMS install VM test (see KVERS below); the static
# checks of the sources (style.sh); the core set and the DKMS test on the
# kernels of other Debian releases, built here (LANES below: 5.10 and the
# newest); and the debug lane: the VM tests on a debug kernel (KASAN,
# lockdep, kmemleak; see DEBUG_TESTS below). The kernels built here are
# built in the background meanwhile. The parts run as jobs, two at a time
# (CHECK_JOBS below). Each part prints KTAP and its own tally (shown here as a "# part: ..."
# comment); a per-kernel breakdown follows, and the last line is the total:
# "N passed, M failed[, K skipped]". Exits non-zero if anything failed.
#
#   selftests/check.sh [TEST...]     TEST...: only these VM tests (no DKMS),
#                                    on the built kernels too
#   KVER=X selftests/check.sh        only kernel X (no built kernels)
#   DEBUG_LANE=0 selftests/check.sh  without the debug lane
#   LANES= selftests/check.sh        without the 5.10 and newest lanes
#   CHECK_JOBS=1 selftests/check.sh  one part at a time
set -u
trap 'trap - INT TERM; kill 0' INT TERM

TOP=$(cd "$(dirname "$0")/.." && pwd)
LOG=$TOP/build/check
mkdir -p "$LOG"
passed=0
failed=0
skipped=0

# The parts run as jobs, CHECK_JOBS at a time (default 2: a TCG guest
# keeps about 0.75 of a core busy, since most tests wait on timers, the SA
# or the guest's network stack). A job's output goes to
# build/check/NAME.log and is shown whole when it ends, with its tally
# (as a "# NAME: ..." comment) and its time; a job that needs a kernel
# built here waits in the queue until it is built (need_met), so it never
# holds a slot while the build runs. Jobs that would share files run one
# after the other (a lane's DKMS test after its VM tests).
CHECK_JOBS=${CHECK_JOBS:-2}
declare -a jobs=()		# in the order they are started when free
declare -A job_cmd job_need job_pid job_t0 job_p job_f job_alone

# job NAME NEED CMD...: queue CMD as part NAME once NEED is met (NEED: "" or
# kernel:TAG (built; see kbuilds) or job:NAME (ended)).
job() {
	local name=$1 need=$2

	shift 2
	jobs+=("$name")
	job_need[$name]=$need
	job_cmd[$name]=$(printf '%q ' "$@")
}

# alone NAME: NAME runs with no other job beside it (the debug lane: its
# timing checks, on a kernel ten times slower, need the cores to itself).
alone() { job_alone[$1]=1; }

need_met() {
	case $1 in
	"") return 0 ;;
	kernel:*) [ -f "$LOG/kernel-${1#kernel:}.done" ] ;;
	job:*) [ -n "${job_p[${1#job:}]:-}" ] ;;
	esac
}

job_start() {
	local name=$1

	echo "# ==== $name: started (${job_cmd[$name]% })"
	rm -f "$LOG/$name.rc"
	job_t0[$name]=$SECONDS
	(
		eval "${job_cmd[$name]}" </dev/null >"$LOG/$name.log" 2>&1
		rc=$?
		# the CPU the part's processes used (qemu's included)
		times >"$LOG/$name.cpu"
		echo $rc >"$LOG/$name.rc"
	) &
	job_pid[$name]=$!
}

# cpu_s FILE: the user + system seconds of the children in the output of
# "times" (its second line: "1m2.5s 0m3.1s")
cpu_s() {
	awk 'NR == 2 { t = 0
		for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] }
		printf "%d", t }' "$1" 2>/dev/null
}

# job_end NAME: show NAME's output and add its tally to the total.
job_end() {
	local name=$1 rc line p f s

	wait "${job_pid[$name]}"
	rc=$(cat "$LOG/$name.rc" 2>/dev/null || echo 1)
	unset "job_pid[$name]"
	echo "# ==== $name: ${job_cmd[$name]% }"
	sed -E 's/^([0-9]+ passed, [0-9]+ failed.*)$/# '"$name"': \1/' "$LOG/$name.log"
	echo "# $name: $((SECONDS - job_t0[$name])) s, CPU $(cpu_s "$LOG/$name.cpu") s"
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$LOG/$name.log" | tail -n1)
	if [ -z "$line" ]; then
		echo "# $name: no result line (exit $rc); counted as one failure"
		p=0 f=1 s=0
	else
		p=$(sed -E 's/^([0-9]+) passed.*/\1/' <<<"$line")
		f=$(sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/' <<<"$line")
		s=$(sed -nE 's/.*, ([0-9]+) skipped.*/\1/p' <<<"$line")
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
			echo "# $name: exit $rc without a failed test; counted as one failure"
			f=1
		fi
	fi
	job_p[$name]=$p job_f[$name]=$f
	[ "$f" -eq 0 ] || why_failed "$name" "$rc"
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + ${s:-0}))
}

# why_failed NAME RC: the lines of NAME's log that say what failed (failed
# tests, each with the diagnostic line just before it and up to three just
# after it (check_eq's expected and actual; what a host check's tool said),
# a VM that crashed or hung, a splat, a build error), at most 16, kept for
# the summary: what CI shows of a run is its end.
declare -a failures=()
why_failed() {
	local name=$1 rc=$2 line n=0

	while IFS= read -r line; do
		failures+=("$name: $line")
		n=$((n + 1))
	done < <(awk '
		/# *SKIP/ { next }
		/^ *not ok / { if (diag != "") print diag; print; diag = ""
			after = /^ +not ok|^not ok - host: / ? 3 : 0; next }
		/^# VM |^# console: |^# kernel splat|failed; end of|no result line|never started/ ||
		/^#   .*(BUG|WARNING|Oops|panic|Call Trace)/ { print; next }
		/^ *# / { if (after-- > 0) print; else diag = $0; next }
		{ diag = ""; after = 0 }' "$LOG/$name.log" | head -n 16)
	[ "$n" -gt 0 ] || failures+=("$name: exit $rc; see build/check/$name.log")
}

# run_jobs: every queued job, CHECK_JOBS at a time, in queue order among
# those whose need is met.
run_jobs() {
	local name left running started by_itself

	while :; do
		running=0 left=0 by_itself=0
		for name in "${jobs[@]}"; do
			if [ -n "${job_pid[$name]:-}" ]; then
				if [ -f "$LOG/$name.rc" ]; then
					job_end "$name"
				else
					running=$((running + 1))
					[ -z "${job_alone[$name]:-}" ] || by_itself=1
				fi
			elif [ -z "${job_p[$name]:-}" ]; then
				left=$((left + 1))
			fi
		done
		[ $((running + left)) -gt 0 ] || return 0
		started=0
		for name in "${jobs[@]}"; do
			[ "$running" -lt "$CHECK_JOBS" ] && [ "$by_itself" = 0 ] || break
			[ -z "${job_pid[$name]:-}" ] && [ -z "${job_p[$name]:-}" ] || continue
			need_met "${job_need[$name]}" || continue
			if [ -n "${job_alone[$name]:-}" ]; then
				[ "$running" -eq 0 ] || continue
				by_itself=1
			fi
			job_start "$name"
			running=$((running + 1)) started=1
		done
		if [ "$running" -eq 0 ] && [ "$started" -eq 0 ] && ! kbuild_running; then
			for name in "${jobs[@]}"; do
				[ -z "${job_p[$name]:-}" ] || continue
				echo "# ==== $name: never started (${job_need[$name]} not met)"
				echo "# $name: counted as one failure"
				failures+=("$name: never started (${job_need[$name]} not met)")
				job_p[$name]=0 job_f[$name]=1
				failed=$((failed + 1))
			done
			return 0
		fi
		sleep 2
	done
}

kbuild_running() { [ -n "$kbuild_pid" ] && kill -0 "$kbuild_pid" 2>/dev/null; }

# tally NAME...: "N passed, M failed" of these jobs together (breakdown)
tally() {
	local n p=0 f=0

	for n in "$@"; do
		p=$((p + ${job_p[$n]:-0})) f=$((f + ${job_f[$n]:-0}))
	done
	echo "$p passed, $f failed"
}

# The kernels: KVER alone if given, else every series installed (kver.sh
# --all: 6.1, 6.12, 6.12-rt on a Debian 12 machine after "make deps"). The
# generic kernels run every VM test and the DKMS test; PREEMPT_RT kernels
# run the membership core (RT_TESTS), which is what differs under RT
# (threaded interrupts, sleeping spinlocks in the RDMA and IGMP paths),
# with joins through OpenSM's SA (opensm_sa: the kernel's MAD and SA
# client paths against the real SM on each kernel of the core set).
CORE_TESTS=${CORE_TESTS:-roce_membership datapath ib_datapath bound_holds ib_join ib_sm_ah ib_failover ib_pacer lifecycle opensm_sa}
RT_TESTS=${RT_TESTS:-$CORE_TESTS}
# The lanes on kernels of other Debian releases (selftests/kernels/):
# bullseye is Debian 11's 5.10, sid the newest kernel in the archive, each
# as Debian ships it (its image and modules; the project's modules built
# against its headers, or against its linux-source prepared with its
# config where the headers need a newer compiler: selftests/kernels/
# distro.sh): the core set (CORE_TESTS; TEST... if given) and the DKMS
# test. LANES= leaves them out; KVER=X does too.
LANES=${LANES-bullseye sid}
if [ -n "${KVER:-}" ]; then
	KVERS=$KVER
else
	KVERS=$("$TOP/selftests/vm/kver.sh" --all) || KVERS=
fi

# The debug lane (selftests/debug/README.md): a kernel built from Debian's
# linux-source-$DEBUG_KERNEL with KASAN, lockdep, kmemleak, debug objects,
# fault injection and KUnit, cached in /var/cache/ib_mcgroups (CACHE) and
# built when missing (a fresh machine: ~7 min on 2 cores). It runs
# DEBUG_TESTS (TEST... if given) and DEBUG_TIMED_TESTS, then failslab,
# the KUnit suites and the kmemleak scan; any KASAN, lockdep, kmemleak,
# refcount, BUG or WARNING report fails it and is printed in full. Every
# VM test on it takes about as long as the rest of make check together,
# too long for CI's hour on 2 cores with the kernel builds of a fresh
# machine, so the tests are a core set: membership on RoCE and IB, SM
# failover, churn and concurrency, bound holds and bulk release by owner,
# an unanswered SA join released, device removal (ib_remove_race: while
# the SA answers) and module unload; and failslab only sweeps join
# (IPv4), leave all and dump (FAILSLAB_SWEEPS; each sweep is about 90
# mcctl runs with one allocation failed). DEBUG_TESTS= and
# FAILSLAB_SWEEPS= run everything (so does make check-debug).
# DEBUG_TIMED_TESTS are the tests whose timing checks (a pace, a number
# of drops) fail on this kernel, ten times slower, when other work shares
# the cores: they run in a VM of their own, alone (with the kmemleak scan
# after them), the rest beside other parts. KVER=X (one kernel) or
# DEBUG_LANE=0 leave the lane out.
DEBUG_TESTS=${DEBUG_TESTS-roce_membership ib_join concurrency bound_holds owner_release ib_pending_release ib_remove_race lifecycle}
DEBUG_TIMED_TESTS=${DEBUG_TIMED_TESTS-ib_failover ib_churn}
FAILSLAB_SWEEPS=${FAILSLAB_SWEEPS-join4 leaveall dump}
DEBUG_KERNEL=${DEBUG_KERNEL:-6.12}
DEBUG_LANE=${DEBUG_LANE:-1}
if [ -n "${KVER:-}" ]; then
	echo "# debug lane: not run (KVER=$KVER: that kernel only; make check-debug runs it)"
	DEBUG_LANE=0
	LANES=
elif [ "$DEBUG_LANE" = 0 ]; then
	echo "# debug lane: not run (DEBUG_LANE=0)"
fi

# The kernels (selftests/kernels/build-kernel.sh, cached in
# /var/cache/ib_mcgroups), made one after the other in the background
# while the host checks and the VM tests on Debian 12's kernels run. On a
# fresh machine the debug lane's comes first, built at normal priority
# (KBUILD_NICE=0), since three parts wait for it, one of which runs alone
# (under "make deps check", deps has started it already: this waits for
# that build). Then the other releases' lanes' are fetched at nice 19
# (selftests/kernels/distro.sh: a download, and for sid a prepared
# linux-source tree, a few minutes): they take what the VMs leave, and
# plenty of other jobs run meanwhile. A job
# that needs one of these kernels is queued until its build has ended
# (build/check/kernel-TAG.done, written whether it built or not: a kernel
# that does not build fails the jobs that need it). Each build's
# messages: build/check/kernel-TAG.log.
kbuilds=()
[ "$DEBUG_LANE" = 0 ] || kbuilds+=("debug:$DEBUG_KERNEL")
for l in $LANES; do
	kbuilds+=("plain:$l")
done
rm -f "$LOG"/kernel-*.done "$LOG"/*.rc
kbuild_pid=
if [ ${#kbuilds[@]} -gt 0 ]; then
	echo "# ==== kernels to build, in the background: ${kbuilds[*]}"
	(
		for b in "${kbuilds[@]}"; do
			t0=$SECONDS
			nice=19
			[ "${b%%:*}" != debug ] || nice=0
			KFLAVOUR=${b%%:*} DEBUG_KERNEL=${b#*:} KSERIES=${b#*:} KBUILD_NICE=$nice \
				"$TOP/selftests/kernels/build-kernel.sh" >/dev/null 2>"$LOG/kernel-${b/:/-}.log"
			echo "build-kernel: exit $? after $((SECONDS - t0)) s" >>"$LOG/kernel-${b/:/-}.log"
			: >"$LOG/kernel-${b/:/-}.done"
		done
	) </dev/null &
	kbuild_pid=$!
fi

# vm_part KVER TEST...: the modules built for KVER with W=1 and sparse, a
# warning of either failing one check (style.sh's build check, made here
# once instead of twice: style_part), then the VM tests on them; the
# total line is run.sh's with that check added.
vm_part() {
	local k=$1 dir=$TOP/build/kernels/$1 what flags=(W=1) bp=1 bf=0 rc
	shift

	what="ib_mcgroups.ko and simhca.ko build warning-free with W=1 and sparse (C=2) against $k"
	! command -v sparse >/dev/null || flags+=(C=2)
	if ! "$TOP/selftests/vm/build-mods.sh" "$k" "$dir" "${flags[@]}"; then
		echo "not ok - $what"
		echo "0 passed, 1 failed"
		return 1
	fi
	if [ ${#flags[@]} -lt 2 ]; then
		echo "not ok - $what"
		echo "# sparse is not installed (make deps)"
		bp=0 bf=1
	elif grep -E 'warning:|error:' "$dir/build.log" >"$dir/warnings"; then
		echo "not ok - $what"
		sed 's/^/# /' "$dir/warnings"
		bp=0 bf=1
	else
		echo "ok - $what"
	fi
	KVER=$k MCG_KO=$dir/kernel/ib_mcgroups.ko SIMHCA_KO=$dir/simhca/simhca.ko \
		O=$TOP/build/vm/$k "$TOP/selftests/vm/run.sh" "$@" |
		awk -v p=$bp -v f=$bf '/^[0-9]+ passed, [0-9]+ failed/ {
			sub(/^[0-9]+ passed, [0-9]+ failed/, ($1 + p) " passed, " ($3 + f) " failed") } 1'
	rc=${PIPESTATUS[0]}
	[ "$bf" -eq 0 ] || rc=1
	return "$rc"
}

# style_part: style.sh without its module builds (STYLE_BUILDS=0): each
# VM part builds its kernel's modules with W=1 and sparse (vm_part), and
# the debug lane the KUnit module (selftests/debug/check-debug.sh).
style_part() {
	STYLE_BUILDS=0 "$TOP/selftests/style.sh"
}

# debug_part --build|--built [TEST...]: a part of the debug lane: the
# modules' build with W=1 and sparse (check-debug.sh --build), or tests on
# the modules it left (--built; DEBUG_O: the VM's directory, DEBUG_EXTRAS
# as check-debug.sh reads it); its kernel's release is written to
# build/check/debug.release for the breakdown.
debug_part() {
	local k

	if ! k=$(KFLAVOUR=debug DEBUG_KERNEL=$DEBUG_KERNEL "$TOP/selftests/kernels/build-kernel.sh"); then
		echo "# no debug kernel: its build failed (build/check/kernel-debug-$DEBUG_KERNEL.log)"
		echo "0 passed, 1 failed"
		return 1
	fi
	echo "# debug kernel: $(cat "$k/kernel.release") in $k (built in $(cat "$k/build-time") s)"
	cat "$k/kernel.release" >"$LOG/debug.release"
	export DEBUG_KERNEL FAILSLAB_SWEEPS	# (in the job's own shell)
	O=${DEBUG_O:-$TOP/build/vm/debug-$DEBUG_KERNEL} "$TOP/selftests/debug/check-debug.sh" "$@"
}

# Tests of how the module works with the programs a cluster runs (Slurm,
# Prometheus): they test the programs and our scripts, not the kernel, and
# take minutes each, so they run on the first (newest) generic kernel only.
ONE_KERNEL_TESTS=${ONE_KERNEL_TESTS-slurm_cluster prom_scrape}
one_kernel_done=

# The queue, longest first among what can start: the full suites (10-15
# min each), the debug lane (8), the core sets (4-5), the static checks (3),
# the packages and DKMS tests (1.5 each), the unit and build tests (1).
if [ -z "$KVERS" ]; then
	echo "# no kernel with an image and headers (make deps): no VM tests"
	failed=$((failed + 1))
fi
kjobs=()	# "KVER vm-job [dkms-job]" for the breakdown
dkms_jobs=()
rt_kvers=()
for k in $KVERS; do
	if "$TOP/selftests/vm/kver.sh" --rt "$k" && [ $# -eq 0 ]; then
		rt_kvers+=("$k")
		kjobs+=("$k vm-$k")
	elif [ $# -eq 0 ] && [ -n "$one_kernel_done" ]; then
		echo "# vm-$k: $ONE_KERNEL_TESTS run on $one_kernel_done only"
		job "vm-$k" "" SKIP_TESTS="$ONE_KERNEL_TESTS" vm_part "$k"
		kjobs+=("$k vm-$k dkms-$k")
		dkms_jobs+=("$k")
	else
		one_kernel_done=$k
		job "vm-$k" "" vm_part "$k" "$@"
		if [ $# -eq 0 ]; then
			kjobs+=("$k vm-$k dkms-$k")
			dkms_jobs+=("$k")
		else
			kjobs+=("$k vm-$k")
		fi
	fi
done
debug_jobs=()
if [ "$DEBUG_LANE" != 0 ]; then
	job "debug-build" "kernel:debug-$DEBUG_KERNEL" debug_part --build
	debug_jobs=(debug-build)
	if [ $# -eq 0 ] && [ -z "$DEBUG_TESTS" ]; then
		# DEBUG_TESTS=: every test, in one part alone
		job "debug-$DEBUG_KERNEL" "job:debug-build" debug_part --built
		alone "debug-$DEBUG_KERNEL"
		debug_jobs+=("debug-$DEBUG_KERNEL")
	else
		# TEST... if given, else DEBUG_TESTS and DEBUG_TIMED_TESTS: those
		# of DEBUG_TIMED_TESTS in a part alone, the others in a part
		# beside other parts, with failslab and KUnit (in the part alone
		# if it is the only one)
		shared=() timed=()
		# shellcheck disable=SC2206  # lists of test names
		if [ $# -gt 0 ]; then given=("$@"); else given=($DEBUG_TESTS $DEBUG_TIMED_TESTS); fi
		for t in "${given[@]}"; do
			case " $DEBUG_TIMED_TESTS " in
			*" $t "*) timed+=("$t") ;;
			*) shared+=("$t") ;;
			esac
		done
		if [ ${#shared[@]} -gt 0 ]; then
			job "debug-$DEBUG_KERNEL" "job:debug-build" debug_part --built "${shared[@]}"
			debug_jobs+=("debug-$DEBUG_KERNEL")
		fi
		if [ ${#timed[@]} -gt 0 ]; then
			extras=0
			[ ${#shared[@]} -gt 0 ] || extras=1
			job "debug-$DEBUG_KERNEL-timed" "job:debug-build" DEBUG_EXTRAS=$extras \
				DEBUG_O="$TOP/build/vm/debug-$DEBUG_KERNEL-timed" debug_part --built "${timed[@]}"
			alone "debug-$DEBUG_KERNEL-timed"
			debug_jobs+=("debug-$DEBUG_KERNEL-timed")
		fi
	fi
fi
for k in "${rt_kvers[@]}"; do
	# shellcheck disable=SC2086  # a list of test names
	job "vm-$k" "" vm_part "$k" $RT_TESTS
done
for l in $LANES; do
	if [ $# -eq 0 ]; then
		# shellcheck disable=SC2086  # a list of test names
		job "vm-$l" "kernel:plain-$l" "$TOP/selftests/kernels/lane.sh" "$l" vm $CORE_TESTS
	else
		job "vm-$l" "kernel:plain-$l" "$TOP/selftests/kernels/lane.sh" "$l" vm "$@"
	fi
done
job style "" style_part
job pkg "" "$TOP/selftests/host/pkg_test.sh"
for k in "${dkms_jobs[@]}"; do
	job "dkms-$k" "" env KVER="$k" O="$TOP/build/dkms/$k" "$TOP/selftests/dkms/dkms_vm.sh"
done
[ $# -gt 0 ] || for l in $LANES; do
	job "dkms-$l" "job:vm-$l" "$TOP/selftests/kernels/lane.sh" "$l" dkms
done
job unit "" make -s -C "$TOP/user" check
job build "" "$TOP/selftests/host/build_test.sh"

# The C tests and test tools, built once here for every VM part (run.sh
# builds them itself otherwise, about 20 s of CPU each time). One that does
# not build is missing in the VMs and its test fails there.
if make -s -k -C "$TOP/selftests" OUTPUT="$TOP/build/selftests" progs >"$LOG/progs.log" 2>&1; then
	echo "# ==== the C tests and test tools: built in build/selftests"
else
	echo "# ==== the C tests and test tools: some did not build (build/check/progs.log):"
	tail -n 20 "$LOG/progs.log" | sed 's/^/# /'
fi
export PROGS_DIR=$TOP/build/selftests

run_jobs
[ -z "$kbuild_pid" ] || wait "$kbuild_pid"
times >"$LOG/all.cpu"
cpu=$(cpu_s "$LOG/all.cpu")
echo "# ==== summary ($((SECONDS / 60)) min $((SECONDS % 60)) s, $CHECK_JOBS jobs at a time; CPU $((cpu / 60)) min $((cpu % 60)) s, the kernels built here included)"
for b in "${kbuilds[@]}"; do
	[ -f "$LOG/kernel-${b/:/-}.log" ] &&
		echo "# kernel build $b: $(grep -E '^(build-kernel|kernels/distro): (built|cached|unpacked|waited|exit)' "$LOG/kernel-${b/:/-}.log" | tr '\n' ' ')"
done
for kj in "${kjobs[@]}"; do
	read -r k names <<<"$kj"
	# shellcheck disable=SC2086  # job names
	echo "# kernel $k: $(tally $names)"
done
for l in $LANES; do
	# lane.sh's line: "# kernel REL (SERIES: ORIGIN, DIR; ...)"
	rel=$(sed -nE 's/^# kernel ([^ ]+) .*/\1/p' "$LOG/vm-$l.log" 2>/dev/null | head -n1)
	origin=$(sed -nE 's/^# kernel [^ ]+ \(([^,]+),.*/\1/p' "$LOG/vm-$l.log" 2>/dev/null | head -n1)
	echo "# kernel ${rel:-?} (${origin:-$l}; core set): $(tally "vm-$l" "dkms-$l")"
done
if [ "$DEBUG_LANE" != 0 ]; then
	rel=$(cat "$LOG/debug.release" 2>/dev/null || echo "$DEBUG_KERNEL")
	echo "# kernel $rel debug (KASAN, lockdep, kmemleak): $(tally "${debug_jobs[@]}")"
fi
if [ ${#failures[@]} -gt 0 ]; then
	echo "# what failed (each part's whole log: build/check/PART.log):"
	printf '#   %s\n' "${failures[@]}"
fi
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
