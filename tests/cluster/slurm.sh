#!/usr/bin/env bash
# slurm.sh: `warpsim sweep --emit slurm` on a real one-node Slurm cluster.
#
# Installs Debian's slurmctld, slurmd and munge if they are missing (needs root and apt), starts
# munged, slurmctld and slurmd on this machine with a private configuration in a scratch
# folder, runs a small sweep once locally and once as the emitted sbatch job array, and checks
# that the two result sets are identical (every result file, wall time and peak memory aside) and that
# `warpsim report` reads the cluster's. Stops what it started. Exit 0 on success.
set -euo pipefail

WARPSIM=${WARPSIM:-build/warpsim}
WARPSIM=$(cd "$(dirname "$WARPSIM")" && pwd)/$(basename "$WARPSIM")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-slurm-XXXXXX")
started_munged=0

say() { printf 'slurm test: %s\n' "$*"; }
fail() { say "FAILED: $*"; exit 1; }

cleanup() {
    for d in slurmd slurmctld; do
        [ -f "$tmp/$d.pid" ] && kill "$(cat "$tmp/$d.pid")" 2>/dev/null || true
    done
    pkill -f "$tmp/slurm.conf" 2>/dev/null || true # daemons whose pid file was not written yet
    for _ in $(seq 50); do pgrep -f "$tmp/slurm.conf" >/dev/null || break; sleep 0.1; done
    [ "$started_munged" = 1 ] && pkill -x munged 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null ||
    ! command -v munged >/dev/null; then
    [ "$(id -u)" = 0 ] || fail "Slurm is not installed and installing it needs root"
    say "installing slurmctld, slurmd, slurm-client and munge"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurmctld slurmd slurm-client munge >/dev/null
fi

# munge: a key, its socket folder, and the daemon (Slurm's authentication).
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    [ -s /etc/munge/munge.key ] || mungekey -c -f >/dev/null 2>&1 ||
        { dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null && chmod 400 /etc/munge/munge.key; }
    chown munge:munge /etc/munge/munge.key 2>/dev/null || true
    mkdir -p /run/munge && chown munge:munge /run/munge 2>/dev/null || true
    munged --force 2>/dev/null
    started_munged=1
    for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
    munge -n | unmunge >/dev/null 2>&1 || fail "munged did not start"
fi

host=$(hostname -s)
mkdir -p "$tmp/state" "$tmp/spool"
cat >"$tmp/slurm.conf" <<CONF
ClusterName=warpsimtest
SlurmctldHost=$host
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start (see $tmp/slurmctld.log)"
slurmd -f "$SLURM_CONF" || fail "slurmd did not start"
for _ in $(seq 60); do sinfo -h -o %t 2>/dev/null | grep -qx idle && break; sleep 0.5; done
sinfo -h -o %t | grep -qx idle || { cat "$tmp/slurmctld.log" "$tmp/slurmd.log" 2>/dev/null | tail -20; fail "the node never became idle"; }
say "one-node cluster up ($host, $(nproc) CPUs)"

cat >"$tmp/spec" <<SPEC
name clustertest
preset gtx480
workload conflict workloads/synthetic/conflict.syn class=divergent
workload noconflict workloads/synthetic/noconflict.syn class=coherent
variant conv: l1d.index=conv
variant fup: l1d.index=fup
baseline conv
figure ipc: metric=sim.ipc
SPEC

"$WARPSIM" sweep "$tmp/spec" --results "$tmp/local" -j 2 2>/dev/null || fail "local sweep failed"
"$WARPSIM" sweep "$tmp/spec" --results "$tmp/cluster" --emit slurm >/dev/null 2>&1 || fail "--emit slurm failed"
timeout 300 sbatch --wait "$tmp/cluster/sweep.sbatch" >/dev/null || fail "the sbatch job array failed or timed out"

n=0
for f in "$tmp/local/runs/"*.json; do
    g="$tmp/cluster/runs/$(basename "$f")"
    [ -f "$g" ] || fail "the cluster produced no $(basename "$g")"
    diff <(grep -v -e '"wall_seconds"' -e '"peak_rss_mib"' "$f") <(grep -v -e '"wall_seconds"' -e '"peak_rss_mib"' "$g") >/dev/null ||
        fail "$(basename "$f") differs between the local and the cluster sweep"
    n=$((n + 1))
done
[ "$n" = 4 ] || fail "expected 4 results, found $n"
"$WARPSIM" report "$tmp/cluster" --no-png --quiet >/dev/null 2>&1 || fail "warpsim report failed on the cluster results"
say "$n runs through sbatch --array identical to a local sweep; report OK"
