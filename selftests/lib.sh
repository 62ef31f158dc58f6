# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# Helpers for the ib_mcgroups selftests; source from a bash test:
#
#   . "$(dirname "$0")/../lib.sh"
#
# KTAP:      ktap_plan N, ktap_ok DESC, ktap_fail DESC, ktap_skip DESC [WHY],
#            ktap_result RC DESC, ktap_diag MSG, ktap_skip_all WHY,
#            check DESC CMD..., check_fail DESC CMD..., check_eq DESC EXP ACT,
#            ktap_finish
# cleanup:   defer CMD... (run in reverse order at exit), run_deferred
# setup:     mcg_setup_rxe, mcg_teardown_rxe, mcg_load, mcg_unload,
#            mcg_require_module, mcg_require_mcctl, mcg_require_simhca (D, P,
#            SYS), mcg_unload_simhca, in_peer CMD..., PEER_EXEC,
#            run_unpriv CMD..., UNPRIV, wait_for [-t SECS] CMD..., wait_for_not ...,
#            save_output NAME (a file returned to the host)
# OpenSM:    mcg_opensm_start NAME GUID [OPTION VALUE]..., mcg_opensm_stop NAME
#            [SIGNAL], mcg_opensm_log NAME, mcg_opensm_errors [NAME],
#            mcg_opensm_up, mcg_opensm_cache NAME, MCG_OSM_PID
# IGMP/MLD:  igmp_count DEV GROUP, igmp_has DEV GROUP,
#            igmp6_count DEV GROUP, igmp6_has DEV GROUP, mcast_has DEV GROUP

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

# The test topology made by mcg_setup_rxe: rxe0 on veth0 (10.0.0.1/24,
# fd00::1/64) <-> rxe1 on veth1 (10.0.0.2/24, fd00::2/64).
#
# By default both veth ends stay in the init netns, with accept_local=1 and
# rp_filter=0 on them so that datagrams from a local source address are not
# dropped as martians. A separate netns for veth1 (MCG_NS=peer in the
# environment) does not work with the 6.1 kernel: rxe's UDP port 4791 socket
# exists only in init_net, so veth1 in another netns never delivers RoCEv2
# packets to rxe1 (they count as Udp IgnoredMulti there). Tests must not
# assume either: run receiver-side network commands with in_peer CMD... (or
# "${PEER_EXEC[@]}" CMD... & to keep the pid of a background CMD).
MCG_NS=${MCG_NS:-}
MCG_IF0=veth0 MCG_IF1=veth1
MCG_DEV0=rxe0 MCG_DEV1=rxe1
MCG_IP0=10.0.0.1 MCG_IP1=10.0.0.2
MCG_IP6_0=fd00::1 MCG_IP6_1=fd00::2
if [ -n "$MCG_NS" ]; then
	PEER_EXEC=(ip netns exec "$MCG_NS")
else
	PEER_EXEC=()
fi

SELFTESTS_DIR=${SELFTESTS_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}
case ":$PATH:" in
*":$SELFTESTS_DIR/bin:"*) ;;
*) PATH=$SELFTESTS_DIR/bin:$PATH ;;
esac

# --- KTAP -------------------------------------------------------------------
__ktap_num=0
__ktap_pass=0
__ktap_fail=0
__ktap_skip=0
__ktap_plan=-1
__ktap_header=0

__ktap_print_header() {
	if [ "$__ktap_header" = 0 ]; then
		echo "TAP version 13"
		__ktap_header=1
	fi
}

ktap_plan() {
	__ktap_print_header
	__ktap_plan=$1
	echo "1..$1"
}

ktap_diag() {
	local l

	while IFS= read -r l; do
		echo "# $l"
	done <<<"$*"
}

ktap_ok() {
	__ktap_print_header
	__ktap_num=$((__ktap_num + 1))
	__ktap_pass=$((__ktap_pass + 1))
	echo "ok $__ktap_num $1"
}

ktap_fail() {
	__ktap_print_header
	__ktap_num=$((__ktap_num + 1))
	__ktap_fail=$((__ktap_fail + 1))
	echo "not ok $__ktap_num $1"
}

# ktap_skip DESC [REASON]
ktap_skip() {
	__ktap_print_header
	__ktap_num=$((__ktap_num + 1))
	__ktap_skip=$((__ktap_skip + 1))
	echo "ok $__ktap_num $1 # SKIP${2:+ $2}"
}

# ktap_result RC DESC: ok if RC is 0, else not ok.
ktap_result() {
	if [ "$1" -eq 0 ]; then
		ktap_ok "$2"
	else
		ktap_fail "$2"
	fi
}

# Skip the whole test (before or instead of any result) and exit 4.
ktap_skip_all() {
	__ktap_print_header
	if [ "$__ktap_num" -eq 0 ]; then
		echo "1..0 # SKIP $*"
	else
		echo "# SKIP $*"
	fi
	exit $KSFT_SKIP
}

# check DESC CMD...: run CMD; ok if it succeeds, else not ok with its output
# as diagnostics. Returns CMD's status.
check() {
	local desc=$1 out rc
	shift

	out=$("$@" 2>&1)
	rc=$?
	if [ $rc -eq 0 ]; then
		ktap_ok "$desc"
	else
		ktap_fail "$desc"
		ktap_diag "\$ $* (exit $rc)"
		[ -n "$out" ] && ktap_diag "$out"
	fi
	return $rc
}

# check_fail DESC CMD...: ok if CMD fails. Returns 0 if it failed.
check_fail() {
	local desc=$1 out rc
	shift

	out=$("$@" 2>&1)
	rc=$?
	if [ $rc -ne 0 ]; then
		ktap_ok "$desc"
		return 0
	fi
	ktap_fail "$desc"
	ktap_diag "\$ $* succeeded, expected failure"
	[ -n "$out" ] && ktap_diag "$out"
	return 1
}

# check_eq DESC EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then
		ktap_ok "$1"
		return 0
	fi
	ktap_fail "$1"
	ktap_diag "expected: '$2'"
	ktap_diag "actual:   '$3'"
	return 1
}

# Exit: 0 if nothing failed (and the plan, if any, was met), 4 if every
# result was a skip, else 1.
ktap_finish() {
	if [ "$__ktap_plan" -ge 0 ] && [ "$__ktap_num" -ne "$__ktap_plan" ]; then
		echo "# planned $__ktap_plan tests, ran $__ktap_num"
		__ktap_fail=$((__ktap_fail + 1))
	fi
	echo "# totals: pass:$__ktap_pass fail:$__ktap_fail skip:$__ktap_skip"
	if [ "$__ktap_fail" -gt 0 ]; then
		exit $KSFT_FAIL
	elif [ "$__ktap_num" -gt 0 ] && [ "$__ktap_skip" -eq "$__ktap_num" ]; then
		exit $KSFT_SKIP
	fi
	exit $KSFT_PASS
}

# --- cleanup ----------------------------------------------------------------
# defer CMD [ARGS...]: run CMD when the test exits (also on SIGTERM from the
# runner's timeout, or SIGINT), last registered first. A test that sets its
# own EXIT trap should call run_deferred from it.
__deferred=()

defer() {
	__deferred+=("$(printf '%q ' "$@")")
}

run_deferred() {
	local i

	for ((i = ${#__deferred[@]} - 1; i >= 0; i--)); do
		eval "${__deferred[$i]}" >/dev/null 2>&1 || true
	done
	__deferred=()
}

trap 'run_deferred' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# --- polling ----------------------------------------------------------------
# nap SECS: sleep without a new process: a read with a timeout on a FIFO
# that nobody writes (opened once per shell). The guest emulates every
# instruction (TCG), and a test polls for long stretches: a fork and exec
# of sleep and date on each turn of a 0.1 s loop cost more than the
# condition polled.
__lib_nap_fd=
__lib_nap_pid=
nap() {
	local f

	if [ -z "$__lib_nap_fd" ] || [ "$__lib_nap_pid" != "$BASHPID" ]; then
		f=/tmp/.nap.$BASHPID.$RANDOM
		if ! mkfifo "$f" 2>/dev/null || ! exec {__lib_nap_fd}<>"$f"; then
			rm -f "$f"
			__lib_nap_fd=
			sleep "$1"
			return 0
		fi
		rm -f "$f"
		__lib_nap_pid=$BASHPID
	fi
	read -r -t "$1" -u "$__lib_nap_fd" _ || true
}

# wait_for [-t SECS] CMD...: poll CMD every 0.1 s until it succeeds; 1 if it
# did not within SECS (default 10).
wait_for() {
	local t=10 end

	if [ "${1:-}" = -t ]; then
		t=$2
		shift 2
	fi
	end=$((EPOCHSECONDS + t))
	while ! "$@" >/dev/null 2>&1; do
		[ "$EPOCHSECONDS" -ge "$end" ] && return 1
		nap 0.1
	done
	return 0
}

# wait_for_not [-t SECS] CMD...: poll until CMD fails.
wait_for_not() {
	local args=()

	if [ "${1:-}" = -t ]; then
		args=(-t "$2")
		shift 2
	fi
	wait_for "${args[@]}" __lib_not "$@"
}

__lib_not() { ! "$@"; }

# --- holds and mcctl apply ---------------------------------------------------
# holds_of OWNER: "DEV/PORT GROUP " for every group OWNER holds, sorted.
holds_of() {
	mcctl -j list | jq -r --arg o "$1" \
		'.[] | select(any(.holders[]?; .owner == $o)) | "\(.dev)/\(.port) \(.group)"' |
		sort | tr '\n' ' '
}

# apply_summary JSON: "join update leave keep skip failed" of an apply.
apply_summary() {
	jq -r '"\(.join) \(.update) \(.leave) \(.keep) \(.skip) \(.failed)"' <<<"$1"
}

# save_output NAME: stdin to /selftests/out/NAME ([A-Za-z0-9._-]), which the
# VM returns to the host ($O/out/NAME; run.sh checks *.prom with promtool).
save_output() {
	mkdir -p /selftests/out && cat >"/selftests/out/$1"
}

# mcg_count STATE [ARGS...]: how many entries of "mcctl list ARGS..." are
# in STATE ("!STATE": are not), e.g. mcg_count '!joined' owner job:1
mcg_count() {
	local st=$1 op='=='

	shift
	[ "${st#!}" != "$st" ] && op='!=' st=${st#!}
	mcctl -j list "$@" |
		jq --arg s "$st" "[.[] | select(.state $op \$s)] | length"
}

# mcg_all_joined [ARGS...]: is every entry of "mcctl list ARGS..." joined?
mcg_all_joined() { [ "$(mcg_count '!joined' "$@")" = 0 ]; }

# mcg_sysfs_sum COUNTER: COUNTER summed over the ports of every simhca
# device (their ib_mcgroups sysfs directories)
mcg_sysfs_sum() {
	cat /sys/kernel/ib_mcgroups/simhca*/[0-9]*/"$1" | awk '{s += $1} END {print s + 0}'
}

# --- environment ------------------------------------------------------------
# in_peer CMD...: run CMD where veth1 is (netns $MCG_NS, if set).
in_peer() { "${PEER_EXEC[@]}" "$@"; }

# Run CMD as nobody without capabilities. "${UNPRIV[@]}" CMD... & keeps
# the pid of a background CMD (setpriv execs it).
UNPRIV=(setpriv --reuid=65534 --regid=65534 --clear-groups --no-new-privs
	--inh-caps=-all --)
run_unpriv() { "${UNPRIV[@]}" "$@"; }

# rdma_port_state DEV [PORT]: e.g. ACTIVE, DOWN
rdma_port_state() {
	local s

	s=$(cat "/sys/class/infiniband/$1/ports/${2:-1}/state" 2>/dev/null) || return 1
	echo "${s#*: }"
}

# rdma_has_gid DEV GID: DEV port 1 has GID (in sysfs notation or IPv6/IPv4
# text, e.g. 10.0.0.1 or fd00::1).
rdma_has_gid() {
	local want

	want=$(__gid_sysfs "$2") || return 1
	grep -qx "$want" /sys/class/infiniband/"$1"/ports/1/gids/* 2>/dev/null
}

# mcg_load_rxe: load rdma_rxe, with the crypto API's crc32 (crc32_generic)
# first where the kernel has it: rdma_rxe asked the crypto API for "crc32"
# up to 6.13 (and the initramfs has no module autoloading for it); later
# kernels compute the ICRC with the crc32 library and have no such module.
mcg_load_rxe() {
	if grep -q '/crc32_generic\.ko' "/lib/modules/$(uname -r)/modules.dep" 2>/dev/null; then
		modprobe crc32_generic || return 1
	fi
	modprobe rdma_rxe
}

# mcg_setup_rxe: create the topology above (see MCG_NS), bring it up and
# wait until rxe0/rxe1 port 1 are ACTIVE and have their IPv4 GIDs.
# Idempotent: an existing setup is reused.
mcg_setup_rxe() {
	local d

	mcg_load_rxe || return 1
	modprobe veth || return 1
	modprobe ib_uverbs 2>/dev/null

	if [ -n "$MCG_NS" ] && [ ! -e "/run/netns/$MCG_NS" ]; then
		ip netns add "$MCG_NS" || return 1
	fi
	if ! ip link show dev "$MCG_IF0" >/dev/null 2>&1; then
		in_peer ip link del "$MCG_IF1" 2>/dev/null
		ip link add "$MCG_IF0" type veth peer name "$MCG_IF1" \
			${MCG_NS:+netns "$MCG_NS"} || return 1
	fi
	for d in all "$MCG_IF0"; do
		sysctl -qw "net.ipv4.conf.$d.rp_filter=0"
		sysctl -qw "net.ipv4.conf.$d.accept_local=1"
	done
	sysctl -qw "net.ipv6.conf.$MCG_IF0.disable_ipv6=0"
	ip addr replace "$MCG_IP0/24" dev "$MCG_IF0" || return 1
	ip -6 addr replace "$MCG_IP6_0/64" dev "$MCG_IF0" nodad || return 1
	ip link set "$MCG_IF0" up || return 1

	in_peer ip link set lo up
	for d in all "$MCG_IF1"; do
		in_peer sysctl -qw "net.ipv4.conf.$d.rp_filter=0"
		in_peer sysctl -qw "net.ipv4.conf.$d.accept_local=1"
	done
	in_peer sysctl -qw "net.ipv6.conf.$MCG_IF1.disable_ipv6=0"
	in_peer ip addr replace "$MCG_IP1/24" dev "$MCG_IF1" || return 1
	in_peer ip -6 addr replace "$MCG_IP6_1/64" dev "$MCG_IF1" nodad || return 1
	in_peer ip link set "$MCG_IF1" up || return 1

	if [ ! -e "/sys/class/infiniband/$MCG_DEV0" ]; then
		rdma link add "$MCG_DEV0" type rxe netdev "$MCG_IF0" || return 1
	fi
	if [ ! -e "/sys/class/infiniband/$MCG_DEV1" ]; then
		in_peer rdma link add "$MCG_DEV1" type rxe netdev "$MCG_IF1" || return 1
	fi
	for d in "$MCG_DEV0" "$MCG_DEV1"; do
		if ! wait_for -t 15 __port_active "$d"; then
			echo "mcg_setup_rxe: $d port 1 is $(rdma_port_state "$d")" >&2
			return 1
		fi
	done
	if ! wait_for -t 10 rdma_has_gid "$MCG_DEV0" "$MCG_IP0" ||
	   ! wait_for -t 10 rdma_has_gid "$MCG_DEV1" "$MCG_IP1"; then
		echo "mcg_setup_rxe: IPv4 GIDs did not appear" >&2
		return 1
	fi
}

__port_active() { [ "$(rdma_port_state "$1")" = ACTIVE ]; }

mcg_teardown_rxe() {
	rdma link del "$MCG_DEV1" 2>/dev/null
	rdma link del "$MCG_DEV0" 2>/dev/null
	ip link del "$MCG_IF0" 2>/dev/null
	[ -n "$MCG_NS" ] && ip netns del "$MCG_NS" 2>/dev/null
	return 0
}

mcg_module_available() { modinfo ib_mcgroups >/dev/null 2>&1; }

# Skip the whole test if ib_mcgroups.ko / mcctl were not built.
mcg_require_module() {
	mcg_module_available || ktap_skip_all "ib_mcgroups.ko not built"
}

mcg_require_mcctl() {
	command -v mcctl >/dev/null 2>&1 || ktap_skip_all "mcctl not built"
}

mcg_load() {
	[ -d /sys/module/ib_mcgroups ] && return 0
	modprobe ib_mcgroups "$@"
}

mcg_unload() {
	[ -d /sys/module/ib_mcgroups ] || return 0
	rmmod ib_mcgroups
}

# The InfiniBand tests on simhca: skip unless ib_mcgroups, mcctl and
# simhca.ko were built; D (simhca0's debugfs), P (its port 1 as DEV/PORT)
# and SYS (ib_mcgroups' sysfs of that port) name what they use.
# shellcheck disable=SC2034 # D, P: set for the test that sources this
mcg_require_simhca() {
	mcg_require_module
	mcg_require_mcctl
	modinfo simhca >/dev/null 2>&1 || ktap_skip_all "simhca.ko not built"
	D=/sys/kernel/debug/simhca/simhca0
	P=simhca0/1
	SYS=/sys/kernel/ib_mcgroups/simhca0/1
}

# sa_groups: how many groups simhca's SA holds, from its stats. Not a
# count of sa_db's lines: sa_db is made whole at each read, under the SA's
# lock, and polling it with thousands of groups took most of a test's CPU
# and held off the SA it waited for.
sa_groups() { awk '$1 == "groups" {print $2}' "$D/stats"; }
sa_groups_are() { [ "$(sa_groups)" = "$1" ]; }
# sa_stat KEY [DEV]: simhca's counter KEY of device DEV (default simhca0)
sa_stat() {
	awk -v k="$1" '$1 == k {print $2}' "/sys/kernel/debug/simhca/${2:-simhca0}/stats"
}
# sa_arrivals_at END_MS [DEV]: the MCMemberRecord requests simhca counted
# per 10 ms over the 100 ms that ended at END_MS (since the stats' reset),
# with the 10 ms on either side, as one diagnostic line "MS:N ..."
sa_arrivals_at() {
	awk -v e="$1" '$1 >= e - 120 && $1 <= e + 10 {printf "%s:%s ", $1, $3}
		END {print ""}' "/sys/kernel/debug/simhca/${2:-simhca0}/arrivals"
}
# sa_arrivals_peak MS [DEV]: the most MCMemberRecord requests simhca
# counted in MS (a multiple of 10) on its 10 ms grid since the stats'
# reset (arrivals: its windows begin on the grid, a sliding window may
# hold more)
sa_arrivals_peak() {
	awk -v n="$(($1 / 10))" '{c[NR] = $3; s += $3; if (NR > n) s -= c[NR - n]
		if (s > m) m = s} END {print m + 0}' \
		"/sys/kernel/debug/simhca/${2:-simhca0}/arrivals"
}
# sa_stat_sum KEY: simhca's counter KEY summed over every device's stats
# (in a fabric, fabric=Y, the answers' way back is counted by the device
# whose port sent the request)
sa_stat_sum() {
	cat /sys/kernel/debug/simhca/simhca*/stats |
		awk -v k="$1" '$1 == k {s += $2} END {print s + 0}'
}

# Unload ib_mcgroups, then simhca.
mcg_unload_simhca() {
	mcg_unload
	[ -d /sys/module/simhca ] && rmmod simhca
	return 0
}

# --- function trace -----------------------------------------------------------
# What the SA counts is what multicast.c posted from its workqueue; what
# the pacer bounds is its calls. The function tracer tells them apart:
#   fn_trace_start FUNC...   trace calls of FUNC... from now (returns 1 if
#                            the first FUNC cannot be traced; the others
#                            are traced if they can be)
#   fn_trace_stop            stop, keep the calls in /tmp/fn_trace
#   fn_trace_peak FUNC MS    the most calls of FUNC in any MS ms (a
#                            sliding window [t, t + MS), on the calls'
#                            own microseconds)
#   fn_trace_count FUNC      how many calls of FUNC were traced
FN_TRACE=/sys/kernel/tracing
fn_trace_start() {
	[ -w $FN_TRACE/set_ftrace_filter ] || return 1
	echo 0 >$FN_TRACE/tracing_on
	echo nop >$FN_TRACE/current_tracer
	echo >$FN_TRACE/set_ftrace_filter
	for f; do echo "$f" >>$FN_TRACE/set_ftrace_filter; done 2>/dev/null
	awk -v f="$1" '$1 == f {ok = 1} END {exit !ok}' \
		$FN_TRACE/set_ftrace_filter || return 1
	echo 4096 >$FN_TRACE/buffer_size_kb
	echo >$FN_TRACE/trace
	echo function >$FN_TRACE/current_tracer || return 1
	echo 1 >$FN_TRACE/tracing_on
}
fn_trace_stop() {
	echo 0 >$FN_TRACE/tracing_on
	# "TASK-PID [CPU] FLAGS SECONDS.MICROS: FUNC <-CALLER": keep
	# "MICROSECONDS FUNC"
	awk '!/^#/ {for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
		t = $i; sub(/:$/, "", t); split(t, p, ".")
		print p[1] p[2], $(i + 1); break}}' $FN_TRACE/trace >/tmp/fn_trace
	echo nop >$FN_TRACE/current_tracer
	echo >$FN_TRACE/set_ftrace_filter
	echo >$FN_TRACE/trace
}
fn_trace_peak() {
	awk -v f="$1" -v w="$(($2 * 1000))" 'BEGIN {h = 0} $2 == f {t[n++] = $1
		while (t[h] + w <= $1) h++
		if (n - h > m) m = n - h} END {print m + 0}' /tmp/fn_trace
}
fn_trace_count() { awk -v f="$1" '$2 == f {n++} END {print n + 0}' /tmp/fn_trace; }

# --- OpenSM -------------------------------------------------------------------
# The opensm_* tests run OpenSM on simhca's ports (internal_sa=N). Each
# instance has a NAME: its opensm.conf is /tmp/opensm-NAME.conf, its log
# (mcg_opensm_log NAME) /tmp/opensm-NAME.log and its cache (guid2lid, in
# mcg_opensm_cache NAME) and dump files /var/cache/opensm-NAME, so that two
# SMs in one guest do not share them.
declare -gA MCG_OSM_PID=()
__mcg_osm_deferred=

# The OpenSM tests run on simhca0 (internal_sa=N): mcg_port_state N is
# port N's state (ACTIVE, INIT, ...), mcg_ports_active whether both ports
# are ACTIVE, mcg_sa_up [PORT] whether OpenSM's SA answers saquery from
# PORT (default 2), mcg_sa_members MGID "PORTGID SCOPESTATE" of each of its
# members in OpenSM's SA, sorted, mcg_sa_member_of PORT MGID the one of
# port PORT, and mcg_sma KEY the value of simhca0's
# SMA counter KEY (debugfs sma: smp_*, gsi_*, trap_*).
mcg_sma() { awk -v k="$1" '$1 == k {print $2}' /sys/kernel/debug/simhca/simhca0/sma; }
mcg_port_state() {
	local s

	read -r s </sys/class/infiniband/simhca0/ports/"$1"/state
	s=${s#*:}
	echo "${s# }"
}
mcg_ports_active() {
	local a b

	read -r a </sys/class/infiniband/simhca0/ports/1/state
	read -r b </sys/class/infiniband/simhca0/ports/2/state
	[ "${a#*: }" = ACTIVE ] && [ "${b#*: }" = ACTIVE ]
}
mcg_sa_up() { saquery -C simhca0 -P "${1:-2}" >/dev/null 2>&1; }
mcg_sa_members() {
	saquery -C simhca0 -P 2 --smkey 1 -m | awk -v g="$1" '
		/MGID\./ {sub(/.*\.\.\./, ""); m = $0}
		/PortGid\./ {sub(/.*\.\.\./, ""); p = $0}
		/ScopeState\./ {sub(/.*\.\.\./, ""); if (m == g) print p, $0}' |
		sort
}
# mcg_sa_member_of PORT MGID: the ScopeState of simhca0 port PORT's
# membership of MGID in OpenSM's SA (mcg_sa_members), "" if it has none
mcg_sa_member_of() {
	mcg_sa_members "$2" | awk -v g="fe80::53:494d:4843:410$1" '$1 == g {print $2}'
}
mcg_opensm_log() { echo "/tmp/opensm-$1.log"; }
# mcg_opensm_errors [NAME]: the last 10 ERR lines of instance NAME's log
# (default sm) as KTAP diagnostics
mcg_opensm_errors() {
	local l

	ktap_diag "opensm log (errors):"
	grep ERR "$(mcg_opensm_log "${1:-sm}")" 2>/dev/null | tail -n 10 |
		while read -r l; do ktap_diag "  $l"; done
}
# mcg_opensm_up: both ports ACTIVE and OpenSM's SA answering, in time
mcg_opensm_up() { wait_for -t 120 mcg_ports_active && wait_for -t 60 mcg_sa_up; }
mcg_opensm_cache() { echo "/var/cache/opensm-$1"; }

# mcg_opensm_start NAME GUID [OPTION VALUE]...: start OpenSM in the background
# on the port with GUID, sweeping every MCG_OSM_SWEEP s (default 2; 0: only
# when a trap asks), with the OPTION VALUE pairs in its opensm.conf (e.g.
# sm_priority 10); its pid goes to MCG_OSM_PID[NAME]. Every instance still
# running is stopped when the test exits.
mcg_opensm_start() {
	local name=$1 guid=$2 dir conf log

	shift 2
	dir=$(mcg_opensm_cache "$name")
	log=$(mcg_opensm_log "$name")
	conf=/tmp/opensm-$name.conf
	mkdir -p "$dir" /var/log
	rm -f "$log" "$dir/guid2lid"
	: >"$conf"
	while [ $# -ge 2 ]; do
		echo "$1 $2" >>"$conf"
		shift 2
	done
	# OpenSM's syslog messages go to the console where no /dev/log listens
	if [ ! -S /dev/log ] && command -v syslogd >/dev/null; then
		syslogd -n -O /tmp/messages &
		defer kill $!
		wait_for test -S /dev/log
	fi
	if [ -z "$__mcg_osm_deferred" ]; then
		defer mcg_opensm_stop_all
		__mcg_osm_deferred=1
	fi
	OSM_CACHE_DIR=$dir OSM_TMP_DIR=$dir \
		opensm -F "$conf" -g "$guid" -s "${MCG_OSM_SWEEP:-2}" -f "$log" >/dev/null 2>&1 &
	MCG_OSM_PID[$name]=$!
}

# mcg_opensm_stop NAME [SIGNAL]: stop instance NAME (SIGTERM, or SIGNAL,
# e.g. KILL) and wait for it to exit.
mcg_opensm_stop() {
	local pid=${MCG_OSM_PID[$1]:-}

	[ -n "$pid" ] || return 0
	kill -"${2:-TERM}" "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	unset "MCG_OSM_PID[$1]"
	return 0
}

mcg_opensm_stop_all() {
	local name

	for name in "${!MCG_OSM_PID[@]}"; do
		mcg_opensm_stop "$name"
	done
}

# --- IGMP / MLD ---------------------------------------------------------------
# __dev_exec DEV CMD...: run CMD in the netns that has netdev DEV.
__dev_exec() {
	local dev=$1 ns
	shift

	if ip link show dev "$dev" >/dev/null 2>&1; then
		"$@"
		return
	fi
	for ns in $(ip netns list 2>/dev/null | awk '{print $1}'); do
		if ip netns exec "$ns" ip link show dev "$dev" >/dev/null 2>&1; then
			ip netns exec "$ns" "$@"
			return
		fi
	done
	echo "no netdev $dev in any netns" >&2
	return 1
}

# 239.1.1.1 (or ::ffff:239.1.1.1) -> 010101EF, as /proc/net/igmp prints it
__igmp_hex() {
	local a=${1#::ffff:} b1 b2 b3 b4

	IFS=. read -r b1 b2 b3 b4 <<<"$a"
	[ -n "$b4" ] || return 1
	printf '%02X%02X%02X%02X\n' "$b4" "$b3" "$b2" "$b1"
}

# ff0e::1234 -> ff0e0000000000000000000000001234, as /proc/net/igmp6 prints it
__ip6_hex() {
	local a=${1,,} head tail h t out="" g v4 n i

	if [[ $a =~ ^(.*:)([0-9]+\.[0-9]+\.[0-9]+\.[0-9]+)$ ]]; then
		IFS=. read -r b1 b2 b3 b4 <<<"${BASH_REMATCH[2]}"
		v4=$(printf '%x:%x' $((b1 * 256 + b2)) $((b3 * 256 + b4)))
		a=${BASH_REMATCH[1]}$v4
	fi
	if [[ $a == *::* ]]; then
		head=${a%%::*}
		tail=${a#*::}
	else
		head=$a
		tail=""
	fi
	IFS=: read -ra h <<<"$head"
	IFS=: read -ra t <<<"$tail"
	n=$((8 - ${#h[@]} - ${#t[@]}))
	[[ $a == *::* ]] || n=0
	[ "$n" -ge 0 ] || return 1
	for g in "${h[@]}"; do out+=$(printf '%04x' "0x${g:-0}"); done
	for ((i = 0; i < n; i++)); do out+=0000; done
	for g in "${t[@]}"; do out+=$(printf '%04x' "0x${g:-0}"); done
	[ ${#out} -eq 32 ] || return 1
	echo "$out"
}

# GID text -> sysfs notation (0000:0000:0000:0000:0000:ffff:0a00:0001)
__gid_sysfs() {
	local a=$1 hex

	[[ $a =~ ^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$ ]] && a=::ffff:$a
	hex=$(__ip6_hex "$a") || return 1
	echo "$hex" | sed 's/\(....\)/\1:/g; s/:$//'
}

# igmp_count DEV GROUP: users of IPv4 GROUP on DEV in /proc/net/igmp (0 if
# not joined).
igmp_count() {
	local hex

	hex=$(__igmp_hex "$2") || { echo 0; return 1; }
	__dev_exec "$1" cat /proc/net/igmp | awk -v dev="$1" -v grp="$hex" '
		/^[0-9]/ { cur = $2; next }
		cur == dev && toupper($1) == grp { n = $2 }
		END { print n + 0 }'
}

igmp_has() { [ "$(igmp_count "$@")" -gt 0 ]; }

# igmp6_count DEV GROUP: users of IPv6 GROUP on DEV in /proc/net/igmp6.
igmp6_count() {
	local hex

	hex=$(__ip6_hex "$2") || { echo 0; return 1; }
	__dev_exec "$1" cat /proc/net/igmp6 | awk -v dev="$1" -v grp="$hex" '
		$2 == dev && $3 == grp { n = $4 }
		END { print n + 0 }'
}

igmp6_has() { [ "$(igmp6_count "$@")" -gt 0 ]; }

# mcast_has DEV GROUP: igmp_has for IPv4 / ::ffff:a.b.c.d, else igmp6_has.
mcast_has() {
	if [[ ${2,,} =~ ^(::ffff:)?[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
		igmp_has "$@"
	else
		igmp6_has "$@"
	fi
}

# mcast_recv_while_sending MGID COUNT: a receiver on $MCG_DEV1, COUNT
# datagrams to MGID from $MCG_DEV0; prints how many the receiver got (-1 if
# it said nothing), its own output going to stderr.
mcast_recv_while_sending() {
	local mgid=$1 count=$2 log=/tmp/recv.$$ n pid

	# The receiver's window is not a fixed time from its start: the
	# sender, a new process opening the device, can take seconds on a
	# slow (debug) kernel. It waits until the sender has posted everything
	# and exited, then 2 s more for the datagrams in flight (microseconds
	# through rxe and veth), then SIGUSR1 makes it print its count. A
	# receiver that got all COUNT has exited before that.
	mcast_ud recv -d "$MCG_DEV1" -g "$mgid" -c "$count" -t 60000 >"$log" 2>&1 &
	pid=$!
	wait_for -t 10 grep -q listening "$log"
	mcast_ud send -d "$MCG_DEV0" -g "$mgid" -c "$count" >&2
	for n in $(seq 20); do
		kill -0 "$pid" 2>/dev/null || break
		nap 0.1
	done
	kill -USR1 "$pid" 2>/dev/null
	wait "$pid"
	sed 's/^/  recv: /' "$log" >&2
	n=$(sed -n 's/^received \([0-9]*\)$/\1/p' "$log")
	rm -f "$log"
	echo "${n:--1}"
}

# refused DESC MESSAGE CMD...: CMD fails, says MESSAGE (a substring) on
# stderr, and the port's groups and counters (the files of $SYS named in
# REFUSED_COUNTERS, default groups holders joins leaves join_errors) are
# unchanged.
refused() {
	local desc=$1 want=$2 files=${REFUSED_COUNTERS:-groups holders joins leaves join_errors}
	local before after err rc f
	shift 2

	before=$(for f in $files; do cat "$SYS/$f"; done | xargs)
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	after=$(for f in $files; do cat "$SYS/$f"; done | xargs)
	if [ $rc -ne 0 ] && [[ $err == *"$want"* ]] && [ "$before" = "$after" ]; then
		ktap_ok "$desc"
		ktap_diag "$err"
		return 0
	fi
	ktap_fail "$desc"
	ktap_diag "\$ $* (exit $rc)"
	ktap_diag "stderr: $err"
	ktap_diag "expected message containing: $want"
	ktap_diag "$files: $before -> $after"
	return 1
}

# --- simhca's UD test helper (debugfs "ud") and IPoIB --------------------------
# mcg_ud_field PORT FIELD: FIELD (received, bad, qpn) of PORT's helper QP
mcg_ud_field() {
	awk -v p="$1" -v f="$2" '$1 == "port" && $2 == p { for (i = 3; i < NF; i += 2) if ($i == f) print $(i + 1) }' "$D/ud"
}

# mcg_ud_traffic HELD COUNT: COUNT datagrams from port 1 to each "MGID MLID"
# line of stdin; prints what port 2 received for the first HELD lines and
# for the others: "held other"
mcg_ud_traffic() {
	local mgid mlid i=0 held=0 other=0 r

	while read -r mgid mlid; do
		echo clear >"$D/ud"
		echo "send 1 $mgid $mlid $2" >"$D/ud"
		r=$(mcg_ud_field 2 received)
		if [ $i -lt "$1" ]; then
			held=$((held + r))
		else
			other=$((other + r))
		fi
		i=$((i + 1))
	done
	echo "$held $other"
}

# mcg_ipoib_dev PORT: the IPoIB netdev of simhca0's port PORT (IPoIB sets
# dev_port to port - 1), not a child
mcg_ipoib_dev() {
	local n

	for n in /sys/class/net/*; do
		[ -e "$n/pkey" ] && [ "$(cat "$n/dev_port")" = $(($1 - 1)) ] &&
			[ ! -e "$n/parent" ] && { basename "$n"; return; }
	done
	return 1
}
# mcg_carrier DEV: DEV (in whichever netns) has carrier
mcg_carrier() { [ "$(__dev_exec "$1" cat /sys/class/net/"$1"/carrier 2>/dev/null)" = 1 ]; }
# mcg_ms CMD...: run CMD, print how many milliseconds it took (and fail as it)
mcg_ms() {
	local t0=${EPOCHREALTIME/./} rc

	"$@" >/dev/null 2>&1
	rc=$?
	echo $(( (${EPOCHREALTIME/./} - t0) / 1000 ))
	return $rc
}
# mcg_ipoib_dmesg_clean: the kernel log has no warning and no IPoIB stall
# (5 s wait for unflushed work) since dmesg -c >/dev/null
mcg_ipoib_dmesg_clean() {
	! dmesg | grep -E 'WARNING:|Call Trace|not completed|timing out|BUG:'
}

# --- re-join wave pictures ---------------------------------------------------
# mcg_wave_record NAME N C: in the background, every 100 ms until
# mcg_wave_stop, one line "ms group_rejoins rejoin_failures sa_set_answers"
# of port $SYS and simhca $D into the saved output NAME.wave (after a
# "# wave N=... C=..." line): N groups re-joined at cap C per second. The
# VM harness renders it into NAME.svg on the host (selftests/vm/plot-wave.sh).
mcg_wave_record() {
	local f=/tmp/$1.wave n=$2 c=$3

	rm -f "$f.stop"
	echo "# wave N=$n C=$c" >"$f"
	(
		local t0=${EPOCHREALTIME/./} now r fl k v a
		while [ ! -e "$f.stop" ]; do
			now=${EPOCHREALTIME/./}
			read -r r <"$SYS/group_rejoins"
			read -r fl <"$SYS/rejoin_failures"
			a=0
			while read -r k v; do
				[ "$k" = answered_set_mcm ] && a=$v
			done <"$D/stats"
			echo "$(((now - t0) / 1000)) $r $fl $a"
			nap 0.1
		done >>"$f"
	) &
	MCG_WAVE_PID=$!
	MCG_WAVE=$1
}

# mcg_wave_stop: stop the recorder after two more samples, save its file.
mcg_wave_stop() {
	[ -n "${MCG_WAVE:-}" ] || return 0
	sleep 0.2
	touch "/tmp/$MCG_WAVE.wave.stop"
	wait "$MCG_WAVE_PID" 2>/dev/null
	save_output "$MCG_WAVE.wave" <"/tmp/$MCG_WAVE.wave"
	MCG_WAVE=
}
