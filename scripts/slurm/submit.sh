#!/usr/bin/env bash
# Run an sfsim sweep on a Slurm cluster and merge it:
#
#   scripts/slurm/submit.sh SWEEP.ron OUT [TASKS [SBATCH_OPTION...]]
#
# submits sweep-array.sbatch as a job array of TASKS tasks (default 4; task I runs shard
# I+1/TASKS of the sweep's points into OUT/shard-I, logs in OUT/logs/), waits for the whole
# array with `sbatch --wait`, then runs `sfsim merge OUT/shard-* --out OUT/merged` here.
# OUT/merged is then the folder `sfsim sweep SWEEP.ron --out OUT/merged` would have written.
# OUT must be on a filesystem the compute nodes and this host share, and so must SWEEP and
# the sfsim binary. Extra arguments go to sbatch (they override the script's #SBATCH
# lines), e.g. --partition=batch --cpus-per-task=4 --time=1:00:00.
#
# Environment: SFSIM  the sfsim binary (default: sfsim on PATH, else target/release/sfsim
#                     of this checkout). SBATCH_* variables work as sbatch documents.
set -euo pipefail

die() {
    echo "submit.sh: $*" >&2
    exit 1
}
usage() {
    sed -n '2,15s/^# \{0,1\}//p' "$0" >&2
    exit 2
}

[[ $# -ge 2 ]] || usage
sweep="$1"
out="$2"
tasks="${3:-4}"
shift $(($# < 3 ? $# : 3))
[[ "$tasks" =~ ^[1-9][0-9]*$ ]] || die "TASKS '$tasks' is not a positive integer"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"

command -v sbatch >/dev/null 2>&1 ||
    die "sbatch not found on PATH: run this on a Slurm submit host (Debian: apt-get install slurm-client, with a slurm.conf for the cluster)"
if [[ -n "${SFSIM:-}" ]]; then
    sfsim="$SFSIM"
elif command -v sfsim >/dev/null 2>&1; then
    sfsim="$(command -v sfsim)"
elif [[ -x "$repo/target/release/sfsim" ]]; then
    sfsim="$repo/target/release/sfsim"
else
    die "sfsim not found: set SFSIM=/path/to/sfsim, put sfsim on PATH, or build $repo/target/release/sfsim (cargo build --release)"
fi
if [[ "$sfsim" != */* ]]; then
    sfsim="$(command -v "$sfsim")" || die "sfsim '$SFSIM' not found on PATH"
fi
[[ -x "$sfsim" ]] || die "sfsim '$sfsim' is not an executable file"
[[ -f "$sweep" ]] || die "sweep file '$sweep' not found"

# The tasks run elsewhere: give them absolute paths.
sfsim="$(cd "$(dirname "$sfsim")" && pwd)/$(basename "$sfsim")"
sweep="$(cd "$(dirname "$sweep")" && pwd)/$(basename "$sweep")"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
# Shards or a merged folder of an earlier run would be merged into, or mixed with, this one.
for old in "$out"/shard-* "$out/merged"; do
    [[ -e "$old" ]] && die "'$old' exists (from an earlier run?): remove it or choose another OUT"
done
mkdir -p "$out/logs"

echo "submit.sh: $sweep as $tasks array task(s) -> $out/shard-0..$((tasks - 1)) (logs: $out/logs/)"
export SWEEP="$sweep" OUT="$out" SFSIM="$sfsim" SHARDS="$tasks"
rc=0
sbatch --wait --export=ALL --job-name=sfsim-sweep --array="0-$((tasks - 1))" \
    --output="$out/logs/%A_%a.out" "$@" "$here/sweep-array.sbatch" || rc=$?
if [[ "$rc" != 0 ]]; then
    for log in "$out"/logs/*.out; do
        [[ -e "$log" ]] || continue
        echo "--- $log (last lines)" >&2
        tail -n 20 "$log" >&2
    done
    die "the array job failed (sbatch --wait exit $rc); task logs are in $out/logs/"
fi

shards=()
for ((i = 0; i < tasks; i++)); do
    [[ -d "$out/shard-$i" ]] || die "array task $i reported success but wrote no $out/shard-$i (is OUT on a shared filesystem?)"
    shards+=("$out/shard-$i")
done
echo "submit.sh: merging ${#shards[@]} shard(s) -> $out/merged"
"$sfsim" merge "${shards[@]}" --out "$out/merged"
echo "submit.sh: done: $out/merged"
