#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# contrib/slurm: the prolog joins a job's declared groups as job:ID (per
# partition), the epilog releases them; a failed join fails the prolog
# and leaves nothing held; other jobs' holds are untouched; the epilog of
# a job with thousands of holds succeeds.
# timeout: 120
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

ktap_plan 18
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer mcg_unload

check "prolog of job 42 (partition gpu-a100)" prolog 42 gpu-a100
check_eq "job:42 holds coll0 and coll1 on both RoCE ports" \
	"$MCG_DEV0/1 239.30.0.1 $MCG_DEV0/1 239.30.0.2 $MCG_DEV1/1 239.30.0.1 $MCG_DEV1/1 239.30.0.2 " \
	"$(holds_of job:42)"
check "prolog of job 43 (partition cpu: the default groups)" prolog 43 cpu
check_eq "job:43 holds coll0 only" "$MCG_DEV0/1 239.30.0.1 $MCG_DEV1/1 239.30.0.1 " "$(holds_of job:43)"
check "epilog of job 42" epilog 42
check_eq "job:42 holds nothing" "" "$(holds_of job:42)"
check_eq "job:43's holds stay, coll1 is released" \
	"$MCG_DEV0/1 239.30.0.1 $MCG_DEV1/1 239.30.0.1 |0" \
	"$(holds_of job:43)|$(igmp_count "$MCG_IF0" 239.30.0.2)"
err=$(prolog 44 broken 2>&1)
check_eq "a group that is not declared fails the prolog" \
	"ib_mcgroups-prolog: job 44: joining nosuch failed: mcctl: no group named 'nosuch' in $CONF (a DEV/PORT needs a slash)" \
	"$err"
check_eq "and job:44 is left holding nothing" "" "$(holds_of job:44)"
sed -i 's/^STRICT=yes/STRICT=no/' "$DEFAULTS"
check "with STRICT=no the failure is only logged" prolog 45 lax
check_eq "and the other groups are held" "$MCG_DEV0/1 239.30.0.2 $MCG_DEV1/1 239.30.0.2 " "$(holds_of job:45)"
check "an epilog of a job holding nothing succeeds" epilog 46
sed -i 's/^STRICT=no/STRICT=yes/' "$DEFAULTS"
check "job 47 holds 3000 groups" mcg_bulk join "$MCG_DEV0" 1 3000 job:47
check "its strict epilog succeeds: the node is not drained" epilog 47
check_eq "and every hold is gone" "" "$(holds_of job:47)"
check_fail "the prolog refuses to run without SLURM_JOB_ID" "$SLURM/ib_mcgroups-prolog"
ktap_finish
