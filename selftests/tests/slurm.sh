#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# contrib/slurm: the prolog joins a job's declared groups as job:ID (per
# partition), the epilog releases them; a failed join fails the prolog
# and leaves nothing held; other jobs' holds are untouched; the epilog of
# a job with thousands of holds succeeds. The shipped defaults with the
# shipped configuration succeed; a missing module is logged at daemon.err
# and fails the prolog only with STRICT=yes; every logger call has a
# priority (info for successes); the joins run concurrently under one
# overall timeout (MCG_TIMEOUT).
# timeout: 180
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

SLURM=$SELFTESTS_DIR/../contrib/slurm
CONF=$(mktemp /tmp/ib_mcgroups.conf.XXXXXX)
DEFAULTS=$(mktemp /tmp/ib_mcgroups-slurm.XXXXXX)
defer rm -f "$CONF" "$DEFAULTS"
cat >"$CONF" <<CONF_EOF
pool coll0 all-roce 239.30.0.1 linger 2s
pool coll1 all-roce 239.30.0.2
group mgmt $MCG_DEV0/1 239.30.0.9
CONF_EOF
cat >"$DEFAULTS" <<DEFAULTS_EOF
MCG_GROUPS="coll0"
MCG_GROUPS_gpu_a100="coll0 coll1"
MCG_GROUPS_broken="coll0 nosuch"
MCG_GROUPS_lax="coll1 nosuch"
STRICT=yes
MCCTL_CONFIG=$CONF
DEFAULTS_EOF
export IB_MCGROUPS_SLURM_CONF=$DEFAULTS

prolog() { env SLURM_JOB_ID="$1" SLURM_JOB_PARTITION="$2" "$SLURM/ib_mcgroups-prolog"; }
epilog() { env SLURM_JOB_ID="$1" "$SLURM/ib_mcgroups-epilog"; }

# A logger that records its arguments, one call a line.
STUBS=$(mktemp -d /tmp/slurm-stubs.XXXXXX)
LOGGED=$STUBS/logged
defer rm -rf "$STUBS"
cat >"$STUBS/logger" <<'STUB_EOF'
#!/bin/sh
echo "$*" >>"${0%/*}/logged"
STUB_EOF
chmod +x "$STUBS/logger"
# (LOGGER too: busybox sh, the VM's /bin/sh, runs its own applet first)
export PATH=$STUBS:$PATH LOGGER=$STUBS/logger
# logged: the logger calls since the last one, emptied
logged() { cat "$LOGGED" 2>/dev/null; : >"$LOGGED"; }
# no_priority: the logger calls (all of them: shown) without "-p daemon.{info,warning,err}"
no_priority() { sed 's/^/# logger /' "$LOGGED" >&2; grep -Ev '^-p daemon\.(info|warning|err) -t ib_mcgroups-slurm ' "$LOGGED"; }

ktap_plan 39
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer mcg_unload

# The shipped files: the defaults (no group declared) with the shipped
# /etc/ib_mcgroups.conf (examples only, commented out).
SHIPPED=$(mktemp /tmp/ib_mcgroups-slurm.shipped.XXXXXX)
defer rm -f "$SHIPPED"
sed "s|^MCCTL_CONFIG=.*|MCCTL_CONFIG=$SELFTESTS_DIR/shipped/ib_mcgroups.conf|" \
	"$SLURM/ib_mcgroups-slurm.default" >"$SHIPPED"
check "the shipped defaults set MCCTL_CONFIG (rewritten for the test)" \
	grep -q "^MCCTL_CONFIG=$SELFTESTS_DIR/shipped/" "$SHIPPED"
check "the shipped defaults with the shipped config: the prolog succeeds" \
	env IB_MCGROUPS_SLURM_CONF="$SHIPPED" SLURM_JOB_ID=40 SLURM_JOB_PARTITION=batch \
	"$SLURM/ib_mcgroups-prolog"
check "and so does the epilog" env IB_MCGROUPS_SLURM_CONF="$SHIPPED" SLURM_JOB_ID=40 \
	"$SLURM/ib_mcgroups-epilog"
check_eq "nothing held" "" "$(holds_of job:40)"
: >"$LOGGED"

check "prolog of job 42 (partition gpu-a100)" prolog 42 gpu-a100
check "logged at daemon.info: the groups job:42 holds" grep -qxe \
	"-p daemon.info -t ib_mcgroups-slurm job 42: holds coll0 coll1 as job:42" "$LOGGED"
check_eq "job:42 holds coll0 and coll1 on both RoCE ports" \
	"$MCG_DEV0/1 239.30.0.1 $MCG_DEV0/1 239.30.0.2 $MCG_DEV1/1 239.30.0.1 $MCG_DEV1/1 239.30.0.2 " \
	"$(holds_of job:42)"
check "prolog of job 43 (partition cpu: the default groups)" prolog 43 cpu
check_eq "job:43 holds coll0 only" "$MCG_DEV0/1 239.30.0.1 $MCG_DEV1/1 239.30.0.1 " "$(holds_of job:43)"
check "epilog of job 42" epilog 42
check_eq "job:42 holds nothing" "" "$(holds_of job:42)"
check "logged at daemon.info: the release" grep -qxe \
	"-p daemon.info -t ib_mcgroups-slurm job 42: holds of job:42 released" "$LOGGED"
check_eq "job:43's holds stay, coll1 is released" \
	"$MCG_DEV0/1 239.30.0.1 $MCG_DEV1/1 239.30.0.1 |0" \
	"$(holds_of job:43)|$(igmp_count "$MCG_IF0" 239.30.0.2)"
err=$(prolog 44 broken 2>&1)
check_eq "a group that is not declared fails the prolog" \
	"ib_mcgroups-prolog: job 44: joining nosuch failed: mcctl: no group named 'nosuch' in $CONF (a DEV/PORT needs a slash)" \
	"$err"
check_eq "and job:44 is left holding nothing" "" "$(holds_of job:44)"
check "logged at daemon.err" grep -qe \
	"^-p daemon.err -t ib_mcgroups-slurm job 44: joining nosuch failed: " "$LOGGED"
sed -i 's/^STRICT=yes/STRICT=no/' "$DEFAULTS"
check "with STRICT=no the failure is only logged" prolog 45 lax
check "at daemon.warning" grep -qe \
	"^-p daemon.warning -t ib_mcgroups-slurm job 45: joining nosuch failed: " "$LOGGED"
check_eq "and the other groups are held" "$MCG_DEV0/1 239.30.0.2 $MCG_DEV1/1 239.30.0.2 " "$(holds_of job:45)"
check "an epilog of a job holding nothing succeeds" epilog 46
sed -i 's/^STRICT=no/STRICT=yes/' "$DEFAULTS"
check "job 47 holds 3000 groups" mcg_bulk join "$MCG_DEV0" 1 3000 job:47
check "its strict epilog succeeds: the node is not drained" epilog 47
check_eq "and every hold is gone" "" "$(holds_of job:47)"
check_fail "the prolog refuses to run without SLURM_JOB_ID" "$SLURM/ib_mcgroups-prolog"
check_eq "every logger call so far had a priority" "" "$(no_priority)"
logged >/dev/null

# Concurrent joins: a stub mcctl whose joins of coll0 and coll1 each wait
# until both have started succeeds only if the prolog runs them together.
cat >"$STUBS/mcctl-barrier" <<STUB_EOF
#!/bin/sh
if [ "\$3" = join ]; then
	: >"$STUBS/started.\$4"
	n=0	# (bounded, so that joins run one after the other fail, not hang)
	while [ ! -e "$STUBS/started.coll0" ] || [ ! -e "$STUBS/started.coll1" ]; do
		n=\$((n + 1))
		[ \$n -le 300 ] || { echo "mcctl-barrier: the other join never started"; exit 1; }
		sleep 0.1
	done
fi
exec mcctl "\$@"
STUB_EOF
chmod +x "$STUBS/mcctl-barrier"
check "joins that wait for each other complete: they run concurrently" \
	env MCCTL="$STUBS/mcctl-barrier" MCG_TIMEOUT=30 SLURM_JOB_ID=48 \
	SLURM_JOB_PARTITION=gpu-a100 "$SLURM/ib_mcgroups-prolog"
check_eq "job:48 holds coll0 and coll1" \
	"$MCG_DEV0/1 239.30.0.1 $MCG_DEV0/1 239.30.0.2 $MCG_DEV1/1 239.30.0.1 $MCG_DEV1/1 239.30.0.2 " \
	"$(holds_of job:48)"
epilog 48
# One overall timeout: a join of coll1 that never ends.
cat >"$STUBS/mcctl-hang" <<'STUB_EOF'
#!/bin/sh
[ "$3" = join ] && [ "$4" = coll1 ] && exec sleep 1000
exec mcctl "$@"
STUB_EOF
chmod +x "$STUBS/mcctl-hang"
err=$(env MCCTL="$STUBS/mcctl-hang" MCG_TIMEOUT=2 SLURM_JOB_ID=49 \
	SLURM_JOB_PARTITION=gpu-a100 "$SLURM/ib_mcgroups-prolog" 2>&1)
check_eq "a join hanging past MCG_TIMEOUT fails the strict prolog" 1 $?
check_eq "saying so" "ib_mcgroups-prolog: job 49: joining coll1 failed: timed out after 2 s" "$err"
check_eq "and the other join's holds are released" "" "$(holds_of job:49)"

# The module missing (a DKMS build that failed after a kernel update).
mcg_unload
sed -i 's/^STRICT=yes/STRICT=no/' "$DEFAULTS"
: >"$LOGGED"
check "no module, STRICT=no: the prolog lets the job run" prolog 50 cpu
check "logged at daemon.err" grep -qe \
	"^-p daemon.err -t ib_mcgroups-slurm job 50: the ib_mcgroups module is not loaded" "$LOGGED"
check "the epilog succeeds too" epilog 50
sed -i 's/^STRICT=no/STRICT=yes/' "$DEFAULTS"
err=$(prolog 51 cpu 2>&1)
check_eq "no module, STRICT=yes: the prolog fails" 1 $?
check "saying why" grep -q "job 51: the ib_mcgroups module is not loaded" <<<"$err"
check_fail "the prolog did not load the module" test -d /sys/module/ib_mcgroups
check_eq "every logger call had a priority" "" "$(no_priority)"
ktap_finish
