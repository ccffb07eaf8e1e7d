#!/usr/bin/env bash
# CI: an sfsim sweep run as a Slurm job array, merged, must equal the same sweep run
# locally, byte for byte (diff -r).
#
# Runs as root on a fresh Debian 12 machine (or container: no systemd, no cgroups needed).
# It installs Debian's slurm-wlm and munge if missing, then brings up a throwaway one-node
# cluster under $STATE (default /tmp/sfsim-slurm-ci): a private munged (its own key and
# socket, so a host's munge is left alone), slurmctld and slurmd with a slurm.conf written
# there (this host as the only node, CPUs and memory from `slurmd -C`; SLURM_CONF points
# the client commands at it; ports 16817/16818). Then it
#   1. runs a stand-in array through the cluster (each task writes its id and host name),
#   2. runs `sfsim sweep $SWEEP --out $STATE/sweep/local`,
#   3. runs scripts/slurm/submit.sh $SWEEP $STATE/sweep 4 (array of 4 shards + merge),
#   4. diff -r $STATE/sweep/local $STATE/sweep/merged.
# (local, shard-* and merged are siblings, so paths relative to an output folder agree.)
# The daemons are stopped and $STATE removed on exit (KEEP_STATE=1 keeps it for a look);
# daemons left by a killed earlier run are stopped first, so a rerun always starts clean.
#
# Environment: SWEEP (default scenarios/sweeps/ci-small.ron), TASKS (4), SFSIM (default
# target/release/sfsim, built with cargo build --release if missing), STATE, KEEP_STATE,
# SLURM_CI_TIMEOUT (seconds for the node to come up, default 60), SLURM_CI_JOB_TIMEOUT
# (seconds for each array job, default 600).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
repo="$PWD"

sweep="${SWEEP:-scenarios/sweeps/ci-small.ron}"
tasks="${TASKS:-4}"
state="${STATE:-/tmp/sfsim-slurm-ci}"
up_timeout="${SLURM_CI_TIMEOUT:-60}"
job_timeout="${SLURM_CI_JOB_TIMEOUT:-600}"

say() { echo "ci-test: $*"; }
die() {
    echo "ci-test: FAIL: $*" >&2
    exit 1
}

[[ "$(id -u)" == 0 ]] || die "run as root (it installs packages and runs slurmctld/slurmd with SlurmUser=root)"
case "$state" in /tmp/?* | /var/tmp/?*) ;; *) die "STATE '$state' must be under /tmp or /var/tmp (it is removed on exit)" ;; esac

# --- Packages -------------------------------------------------------------------------
missing=()
for cmd in slurmctld slurmd sbatch sinfo squeue scontrol; do
    command -v "$cmd" >/dev/null 2>&1 || missing+=(slurm-wlm)
done
command -v munged >/dev/null 2>&1 || missing+=(munge)
if ((${#missing[@]})); then
    pkgs=()
    while IFS= read -r p; do pkgs+=("$p"); done < <(printf '%s\n' "${missing[@]}" | sort -u)
    say "installing ${pkgs[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y "${pkgs[@]}" >/dev/null 2>&1 || {
        apt-get update >/dev/null && apt-get install -y "${pkgs[@]}" >/dev/null
    } || die "could not install ${pkgs[*]} with apt-get"
fi
for cmd in slurmctld slurmd sbatch sinfo squeue scontrol munged munge; do
    command -v "$cmd" >/dev/null 2>&1 || die "$cmd not found after installing slurm-wlm and munge"
done

# --- sfsim ----------------------------------------------------------------------------
sfsim="${SFSIM:-$repo/target/release/sfsim}"
if [[ -z "${SFSIM:-}" && ! -x "$sfsim" ]]; then
    command -v cargo >/dev/null 2>&1 || die "no $sfsim and no cargo to build it"
    say "building $sfsim (cargo build --release)"
    cargo build --release
fi
[[ -x "$sfsim" ]] || die "sfsim '$sfsim' is not an executable file"
"$sfsim" sweep --help 2>/dev/null | grep -q -- '--shard' ||
    die "$sfsim has no 'sweep --shard' (an old binary? cargo build --release)"
"$sfsim" merge --help >/dev/null 2>&1 || die "$sfsim has no 'merge' command (an old binary? cargo build --release)"
[[ -f "$sweep" ]] || die "sweep file '$sweep' not found"

# --- Daemons: stop, clean -------------------------------------------------------------
# Stop the daemon whose pid file is $1 if it is still that program ($2), and wait for it.
stop_pidfile() {
    local pidfile="$1" name="$2" pid i
    [[ -s "$pidfile" ]] || return 0
    pid="$(cat "$pidfile")"
    if [[ "$pid" =~ ^[0-9]+$ ]] && [[ "$(cat "/proc/$pid/comm" 2>/dev/null)" == "$name" ]]; then
        kill "$pid" 2>/dev/null || true
        for ((i = 0; i < 50; i++)); do
            [[ -d "/proc/$pid" ]] || break
            sleep 0.1
        done
        if [[ -d "/proc/$pid" ]]; then
            kill -9 "$pid" 2>/dev/null || true
        fi
    fi
    rm -f "$pidfile"
}
stop_all() {
    # Cancel what is left (after a failure), then the daemons, newest first.
    if [[ -s "$state/slurmctld.pid" ]]; then
        SLURM_CONF="$state/slurm.conf" timeout 10 scancel --user=root >/dev/null 2>&1 || true
    fi
    stop_pidfile "$state/slurmd.pid" slurmd
    stop_pidfile "$state/slurmctld.pid" slurmctld
    stop_pidfile "$state/munged.pid" munged
}
show_logs() {
    local f
    for f in "$state"/log/*; do
        [[ -s "$f" ]] || continue
        echo "--- $f (last lines)" >&2
        tail -n 40 "$f" >&2
    done
}
cleanup() {
    local rc=$?
    trap - EXIT
    stop_all
    if [[ "${KEEP_STATE:-0}" == 1 ]]; then
        say "state kept in $state"
    else
        rm -rf "$state"
    fi
    exit "$rc"
}

stop_all # a killed earlier run's daemons, if any
rm -rf "$state"
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$state"/{munge,spool,ctld,log,run}
chmod 755 "$state" "$state/run" # munged insists that all can reach its socket's folder
chmod 700 "$state/munge"

# --- munge ----------------------------------------------------------------------------
# A private key and socket: this test needs no key shared with other hosts.
dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$state/munge/munge.key"
socket="$state/run/munge.socket"
munged --key-file="$state/munge/munge.key" --socket="$socket" \
    --pid-file="$state/munged.pid" --log-file="$state/log/munged.log" \
    --seed-file="$state/munge/munged.seed" ||
    {
        show_logs
        die "munged did not start"
    }
munge -S "$socket" -n | unmunge -S "$socket" >/dev/null || {
    show_logs
    die "munge credentials do not round-trip through $socket"
}

# --- slurm.conf -----------------------------------------------------------------------
node_line="$(slurmd -C | head -n 1)"
[[ "$node_line" == NodeName=* ]] || die "slurmd -C printed no node line: $node_line"
node="${node_line#NodeName=}"
node="${node%% *}"
export SLURM_CONF="$state/slurm.conf"
cat >"$SLURM_CONF" <<CONF
# Written by scripts/slurm/ci-test.sh: a throwaway one-node cluster.
ClusterName=sfsim-ci
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
MinJobAge=600
MailProg=/bin/true
$node_line NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF

# --- slurmctld, slurmd ----------------------------------------------------------------
say "starting slurmctld and slurmd (node $node: ${node_line#"NodeName=$node "})"
slurmctld -c >"$state/log/slurmctld.stdout" 2>&1 || {
    show_logs
    die "slurmctld did not start"
}
slurmd >"$state/log/slurmd.stdout" 2>&1 || {
    show_logs
    die "slurmd did not start"
}
node_state=""
for ((i = 0; i < up_timeout * 2; i++)); do
    node_state="$(sinfo -h -N -n "$node" -o '%T' 2>/dev/null | head -n 1 || true)"
    [[ "$node_state" == idle ]] && break
    sleep 0.5
done
if [[ "$node_state" != idle ]]; then
    sinfo -N -l >&2 || true
    sinfo -R >&2 || true
    show_logs
    die "node $node not idle after ${up_timeout}s (state: '${node_state:-no answer from slurmctld}')"
fi
say "cluster up: node $node idle"

# Run "$@" (an sbatch --wait, or what calls it) with the job timeout; on failure show why.
run_job() {
    local rc=0
    timeout "$job_timeout" "$@" || rc=$?
    if [[ "$rc" != 0 ]]; then
        squeue -t all -o '%.14i %.12j %.10T %.16r %N' >&2 || true
        show_logs
        ((rc == 124)) && die "$* did not finish within ${job_timeout}s"
        die "$* failed (exit $rc)"
    fi
}

# --- 1. A stand-in array: the cluster runs array jobs ---------------------------------
mkdir -p "$state/standin"
# shellcheck disable=SC2016 # $SLURM_ARRAY_TASK_ID and $(hostname) expand in the job
run_job sbatch --wait --quiet --array="0-$((tasks - 1))" --output="$state/standin/%a.log" \
    --wrap='echo "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT $(hostname)" > "'"$state"'/standin/task-$SLURM_ARRAY_TASK_ID"'
for ((i = 0; i < tasks; i++)); do
    [[ "$(cat "$state/standin/task-$i" 2>/dev/null)" == "$i/$tasks $(hostname)" ]] ||
        die "stand-in array task $i wrote '$(cat "$state/standin/task-$i" 2>/dev/null)', not '$i/$tasks $(hostname)'"
done
say "stand-in array of $tasks tasks ran"

# --- 2. The sweep locally --------------------------------------------------------------
start=$SECONDS
mkdir -p "$state/sweep"
"$sfsim" sweep "$sweep" --out "$state/sweep/local" >"$state/log/local-sweep.log" 2>&1 || {
    cat "$state/log/local-sweep.log" >&2
    die "local sweep failed: $sfsim sweep $sweep --out $state/sweep/local"
}
say "local sweep: $((SECONDS - start))s"

# --- 3. The sweep as an array of $tasks shards, merged ---------------------------------
start=$SECONDS
SFSIM="$sfsim" run_job "$repo/scripts/slurm/submit.sh" "$sweep" "$state/sweep" "$tasks"
say "Slurm array of $tasks shards + merge: $((SECONDS - start))s"

# --- 4. Byte for byte ------------------------------------------------------------------
if ! diff -r "$state/sweep/local" "$state/sweep/merged" >"$state/diff.txt" 2>&1; then
    head -c 20000 "$state/diff.txt" >&2
    die "sharded + merged differs from local: diff -r $state/sweep/local $state/sweep/merged"
fi
say "OK: $(find "$state/sweep/local" -type f | wc -l) files identical (diff -r local merged)"
