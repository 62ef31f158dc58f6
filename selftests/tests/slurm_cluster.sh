#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# contrib/slurm under the real Slurm: a one-node cluster in the VM (munged,
# slurmctld, slurmd of Debian 12's Slurm 22.05) with the shipped prolog and
# epilog installed as contrib/slurm/README.md says and pools declared in
# /etc/ib_mcgroups.conf. sbatch and srun jobs of two partitions hold exactly
# their partition's groups as job:<id> while they run and nothing after;
# scancel, a time limit and kill -9 of the job's processes end with the
# holds released and the node not drained; a job array of 100 short jobs
# leaves no hold and one membership for its lingering pool; "srun mcctl
# hold" as an unprivileged user holds only while the step runs; with the
# module unloaded STRICT=no runs the job and logs it, STRICT=yes drains the
# node with a reason naming ib_mcgroups. Fails (no skip) without Slurm on
# the host: make deps installs it.
# timeout: 480
# guest-files: /usr/sbin/munged /usr/bin/munge /usr/bin/unmunge /usr/sbin/slurmctld
# guest-files: /usr/sbin/slurmd /usr/sbin/slurmstepd /usr/bin/sbatch
# guest-files: /usr/bin/srun /usr/bin/scancel /usr/bin/squeue /usr/bin/sinfo
# guest-files: /usr/bin/scontrol /usr/bin/install /usr/lib/x86_64-linux-gnu/slurm-wlm
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

SLURM_SRC=$SELFTESTS_DIR/../contrib/slurm
LOGS=/var/log/slurm
W=/tmp/slurm_cluster	# shared with the jobs (world-writable)
NODE=$(hostname)
ALICE=1000

ktap_plan 57

# Every program the test runs: a missing one is a failure (make deps).
missing=
for p in munged munge slurmctld slurmd slurmstepd sbatch srun scancel squeue sinfo scontrol; do
	command -v "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if ! check_eq "Slurm and munge are in the VM (make deps installs them on the host)" "" "$missing"; then
	ktap_diag "missing:$missing"
	ktap_finish
fi

check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer mcg_unload

# --- the node: users, syslog, munge, slurm.conf, the shipped scripts -------
grep -q '^munge:' /etc/passwd || echo 'munge:x:101:101:munge:/nonexistent:/bin/false' >>/etc/passwd
grep -q '^munge:' /etc/group || echo 'munge:x:101:' >>/etc/group
grep -q '^alice:' /etc/passwd || echo "alice:x:$ALICE:$ALICE:alice:/tmp:/bin/sh" >>/etc/passwd
grep -q '^alice:' /etc/group || echo "alice:x:$ALICE:" >>/etc/group
grep -q "$NODE" /etc/hosts 2>/dev/null || echo "127.0.0.1 localhost $NODE" >>/etc/hosts
mkdir -p "$W" "$LOGS" /var/spool/slurmctld /var/spool/slurmd /etc/slurm /etc/default
# slurmd needs a cgroup file system; cgroup v2 without systemd (the VM has none)
mkdir -p /sys/fs/cgroup
grep -q ' /sys/fs/cgroup ' /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup
# slurmd puts slurmstepd in system.slice, as systemd would have made it
mkdir -p /sys/fs/cgroup/system.slice
printf 'CgroupPlugin=cgroup/v2\nIgnoreSystemd=yes\n' >/etc/slurm/cgroup.conf
chmod 1777 "$W"

# syslog: the scripts' logger calls land in /tmp/syslog
syslogd -n -O /tmp/syslog &
defer kill $!

mkdir -p /etc/munge /var/lib/munge /var/log/munge /run/munge
dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null
chown -R munge:munge /etc/munge /var/lib/munge /var/log/munge /run/munge
chmod 0700 /etc/munge /var/lib/munge /var/log/munge
chmod 0755 /run/munge
chmod 0400 /etc/munge/munge.key
check "munged starts" setpriv --reuid=munge --regid=munge --clear-groups munged
defer pkill -x munged
check "munge credentials decode" sh -c "munge -n | unmunge"

cat >/etc/slurm/slurm.conf <<EOF
ClusterName=vm
SlurmctldHost=$NODE
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=$LOGS/slurmctld.log
SlurmdLogFile=$LOGS/slurmd.log
ProctrackType=proctrack/cgroup
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
KillWait=2
InactiveLimit=0
MessageTimeout=30
MinJobAge=600
Prolog=/etc/slurm/prolog.d/*
Epilog=/etc/slurm/epilog.d/*
NodeName=$NODE CPUs=32 State=UNKNOWN
PartitionName=batch Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
PartitionName=gpu Nodes=$NODE MaxTime=INFINITE State=UP
PartitionName=array Nodes=$NODE MaxTime=INFINITE State=UP
EOF

# contrib/slurm/README.md, "Install"
(
	cd "$SLURM_SRC" &&
	install -d /etc/slurm/prolog.d /etc/slurm/epilog.d &&
	install -m 0755 ib_mcgroups-prolog /etc/slurm/prolog.d/50-ib_mcgroups &&
	install -m 0755 ib_mcgroups-epilog /etc/slurm/epilog.d/50-ib_mcgroups &&
	install -m 0644 ib_mcgroups-slurm.default /etc/default/ib_mcgroups-slurm
) || ktap_diag "installing the scripts failed"
defer rm -f /etc/default/ib_mcgroups-slurm /etc/ib_mcgroups.conf

cat >/etc/ib_mcgroups.conf <<EOF
pool coll0 all-roce 239.31.0.1 linger 5m
pool coll1 all-roce 239.31.0.2 linger 5m
pool coll2 all-roce 239.31.0.3 linger 5m
EOF
# defaults: STRICT (yes/no) as given
defaults() {
	sed -e 's/^MCG_GROUPS=.*/MCG_GROUPS="coll0"/' -e "s/^STRICT=.*/STRICT=$1/" \
		"$SLURM_SRC/ib_mcgroups-slurm.default" >/etc/default/ib_mcgroups-slurm
	printf 'MCG_GROUPS_gpu="coll0 coll1"\nMCG_GROUPS_array="coll2"\n' \
		>>/etc/default/ib_mcgroups-slurm
}
defaults no

check "slurmctld starts" slurmctld
defer pkill -x slurmctld
check "slurmd starts" slurmd
defer pkill -x slurmd
defer pkill -x slurmstepd
node_state() { scontrol show node "$NODE" 2>/dev/null | sed -n 's/.*State=\([^ ]*\).*/\1/p'; }
node_idle() { [ "$(node_state)" = IDLE ]; }
if ! check "the node is IDLE" wait_for -t 60 node_idle; then
	ktap_diag "$(scontrol show node "$NODE" 2>&1)"
	ktap_diag "$(tail -n 20 $LOGS/slurmctld.log $LOGS/slurmd.log 2>&1)"
	ktap_finish
fi

# --- helpers -----------------------------------------------------------------
# Expected holds of a job of a partition: its pools on both RoCE ports.
G0=239.31.0.1 G1=239.31.0.2
EXP_BATCH="$MCG_DEV0/1 $G0 $MCG_DEV1/1 $G0 "
EXP_GPU="$MCG_DEV0/1 $G0 $MCG_DEV0/1 $G1 $MCG_DEV1/1 $G0 $MCG_DEV1/1 $G1 "

job_gone() { [ -z "$(squeue -h -j "$1" 2>/dev/null)" ]; }
job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([^ ]*\).*/\1/p'; }
# the node is not drained (IDLE, or MIXED/ALLOCATED while other jobs run)
not_drained() {
	local s

	s=$(sinfo -h -n "$NODE" -o %T 2>/dev/null)
	case $s in
	*drain* | *DRAIN* | *down* | *fail*) echo "sinfo: $s"; return 1 ;;
	esac
	return 0
}
# submit ARGS...: sbatch --parsable, the job id
submit() { sbatch --parsable -o "$W/%j.out" "$@" 2>&1; }
# the job script waits for $W/go.<id>, after writing $W/started.<id>
WAITJOB="touch $W/started.\$SLURM_JOB_ID; while [ ! -e $W/go.\$SLURM_JOB_ID ]; do sleep 0.2; done"

# ended ID DESC: the job is gone (epilog done), it held nothing, the node
# is not drained
ended() {
	check "$2: the job ends" wait_for -t 60 job_gone "$1"
	check_eq "$2: no hold of job:$1 left" "" "$(holds_of "job:$1")"
	check "$2: the node is not drained" not_drained
}

# --- a job that exceeds its time limit (1 minute, checked about every 30 s):
# submitted first, looked at last
tl=$(submit -p batch -t 1 --wrap "$WAITJOB")
ktap_diag "time-limit job $tl"

# --- sbatch, partition gpu: coll0 and coll1, then scancel -----------------------
j=$(submit -p gpu --wrap "$WAITJOB")
check "sbatch -p gpu: the job starts" wait_for -t 60 test -e "$W/started.$j"
check_eq "sbatch -p gpu: job:$j holds coll0 and coll1 on both ports" "$EXP_GPU" "$(holds_of "job:$j")"
check_eq "mcctl list owner job:$j shows them" 4 \
	"$(mcctl -j list owner "job:$j" | jq length)"
check "scancel" scancel "$j"
ended "$j" "scancel"

# --- sbatch, partition batch: coll0 only, ends by itself -----------------------
j=$(submit -p batch --wrap "$WAITJOB")
check "sbatch -p batch: the job starts" wait_for -t 60 test -e "$W/started.$j"
check_eq "sbatch -p batch: job:$j holds coll0 on both ports" "$EXP_BATCH" "$(holds_of "job:$j")"
touch "$W/go.$j"
ended "$j" "a batch job that exits"
check_eq "it completed" COMPLETED "$(job_state "$j")"

# --- kill -9 of the job's processes -----------------------------------------------
j=$(submit -p gpu --wrap "$WAITJOB")
check "kill -9: the job starts" wait_for -t 60 test -e "$W/started.$j"
check_eq "kill -9: job:$j holds its groups" "$EXP_GPU" "$(holds_of "job:$j")"
# the job's processes (the batch script and its sleep), not slurmstepd,
# which "scontrol listpids" lists too (it is in the job's cgroup)
pids=
for pid in $(scontrol listpids "$j" 2>/dev/null | awk 'NR > 1 && $1 ~ /^[0-9]+$/ {print $1}'); do
	[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = slurmstepd ] || pids="$pids $pid"
done
ktap_diag "job $j processes:$pids"
# shellcheck disable=SC2086 # a list
check "kill -9 the job's processes" kill -9 $pids
ended "$j" "kill -9"

# --- srun: the step sees the holds, none after ----------------------------------
check "srun -p gpu: the step sees job:\$SLURM_JOB_ID's holds" \
	srun -p gpu bash -c ". $SELFTESTS_DIR/lib.sh; holds_of job:\$SLURM_JOB_ID >$W/srun.holds; echo \$SLURM_JOB_ID >$W/srun.id"
j=$(cat "$W/srun.id" 2>/dev/null)
check_eq "srun -p gpu: job:$j held coll0 and coll1 on both ports" "$EXP_GPU" "$(cat "$W/srun.holds" 2>/dev/null)"
ended "$j" "srun"

# --- srun mcctl hold as an unprivileged user -------------------------------------
# alice's step holds coll1 (bound, owner uid:1000) while it runs; the
# job's own holds (partition batch: coll0) are job:<id>'s
check "srun mcctl hold coll1 -- ... as alice" setpriv --reuid=$ALICE --regid=$ALICE --clear-groups \
	srun -p batch mcctl hold coll1 -- bash -c ". $SELFTESTS_DIR/lib.sh; holds_of uid:$ALICE >$W/hold.holds; echo \$SLURM_JOB_ID >$W/hold.id"
j=$(cat "$W/hold.id" 2>/dev/null)
check_eq "the step held coll1 on both ports as uid:$ALICE" \
	"$MCG_DEV0/1 $G1 $MCG_DEV1/1 $G1 " "$(cat "$W/hold.holds" 2>/dev/null)"
check_eq "and holds nothing after it" "" "$(holds_of "uid:$ALICE")"
ended "$j" "srun mcctl hold"

# --- a job array of 100 short jobs (partition array: coll2) -----------------------
G2=239.31.0.3
MON=$W/monitor
mcctl monitor >"$MON" 2>&1 &
defer kill $!
wait_for -t 5 test -e "$MON"
sleep 1
t0=$(date +%s)
a=$(submit -p array --array=1-100 --wrap true)
# Over 150 s with the host building kernels beside two guests (a fresh
# machine's make check, 2026-12-05): time, not a hang.
check "an array of 100 jobs runs to its end" wait_for -t 300 job_gone "$a"
ktap_diag "array: $(( $(date +%s) - t0 )) s"
# (but the time-limit job's, which may still run when the array was quick)
check_eq "no job:* hold left" "" "$(mcctl -j list | jq -r --arg tl "job:$tl" '.[] | .holders[]? | select((.owner | startswith("job:")) and .owner != $tl) | .owner' | sort -u | tr '\n' ' ')"
check "the node is not drained" not_drained
check_eq "every job held coll2: 100 holds taken and released on each of 2 ports" "200 200" \
	"$(grep -c "holder-new.*$G2" "$MON") $(grep -c "holder-del.*$G2" "$MON")"
# with linger, one membership (one IGMP join; on InfiniBand one SA join)
# per port for the 100 jobs: the group was made once and lingers
check_eq "one membership of coll2 per port for the 100 jobs (linger)" 2 \
	"$(grep -c "group-new.*$G2" "$MON")"
check "coll2 lingers on $MCG_DEV0/1 with no holder" \
	sh -c "mcctl -j show $MCG_DEV0/1 $G2 | jq -e '.state == \"lingering\" and (.holders | length) == 0'"

# --- the time-limit job ---------------------------------------------------------
check "the time-limit job started" test -e "$W/started.$tl"
check "it is killed at its time limit" wait_for -t 100 job_gone "$tl"
check_eq "it timed out" TIMEOUT "$(job_state "$tl")"
check_eq "time limit: no hold of job:$tl left" "" "$(holds_of "job:$tl")"
check "time limit: the node is not drained" not_drained

# --- the module not loaded --------------------------------------------------------
check "unload ib_mcgroups" mcg_unload
check "STRICT=no: a job runs" srun -p batch true
check "and the prolog logged it at daemon.err" \
	grep -q 'ib_mcgroups-slurm.*module is not loaded: the job runs without' /tmp/syslog
check "the node is not drained" not_drained
defaults yes
j=$(submit -p batch --wrap true)
drained() { scontrol show node "$NODE" | grep -q 'State=[^ ]*DRAIN'; }
check "STRICT=yes: the node is drained" wait_for -t 60 drained
reason=$(scontrol show node "$NODE" | sed -n 's/^ *Reason=//p')
ktap_diag "Reason=$reason"
check "with a reason naming ib_mcgroups" grep -q ib_mcgroups <<<"$reason"
ktap_diag "$(scontrol show job "$j" | grep -E 'JobState|Reason')"
check "the job is pending again (requeued, not run)" sh -c "scontrol show job $j | grep -q JobState=PENDING"
scancel "$j" 2>/dev/null
scontrol update NodeName="$NODE" State=RESUME 2>/dev/null
check "the node resumes" wait_for -t 30 node_idle

ktap_diag "$(grep -h ib_mcgroups /tmp/syslog | tail -n 20)"
ktap_finish
