#!/usr/bin/env bash
# Runs every cargo-fuzz target in fuzz/ in turn, one job each, and prints each one's
# execution count and speed. Usage:
#
#   scripts/fuzz.sh [seconds-per-target] [target ...]
#
# Defaults: 60 s per target, every target (`cargo fuzz list`). Needs cargo-fuzz
# (`cargo install cargo-fuzz`); it uses nightly-only compiler flags, which RUSTC_BOOTSTRAP=1
# lets the stable toolchain accept. Set FUZZ_SANITIZER=none to build without AddressSanitizer
# (faster), FUZZ_RUNS=N to stop each target after N executions instead of by time.
# Seeds come from fuzz/seed-corpus.sh (run first if fuzz/corpus/ is missing). Findings land
# in fuzz/artifacts/<target>/, each target's libFuzzer log in fuzz/logs/<target>.log.
set -uo pipefail
secs=${1:-60}
shift $(( $# > 0 ? 1 : 0 ))
cd "$(dirname "$0")/../fuzz" || exit 1
export RUSTC_BOOTSTRAP=1
sanitizer=()
[ -n "${FUZZ_SANITIZER:-}" ] && sanitizer=(--sanitizer "$FUZZ_SANITIZER")
if [ $# -gt 0 ]; then targets=("$@"); else mapfile -t targets < <(cargo fuzz list | grep -vx seedgen); fi

# Longest input per target: decoders get small inputs (fast executions); containers need
# room for a packed tile.
max_len() {
    case "$1" in
        container) echo 65536 ;;
        mdu_decode) echo 16384 ;;
        swizzle) echo 2048 ;;
        zlib_decode | bcpack_*) echo 4096 ;;
        *) echo 8192 ;;
    esac
}

mkdir -p logs
status=0
printf '%-20s %14s %10s  %s\n' target executions exec/s result
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    limit=(-max_total_time="$secs")
    [ -n "${FUZZ_RUNS:-}" ] && limit=(-runs="$FUZZ_RUNS")
    cargo fuzz run "${sanitizer[@]}" "$t" "corpus/$t" -- \
        "${limit[@]}" -max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="artifacts/$t/" -print_final_stats=1 >"logs/$t.log" 2>&1
    rc=$?
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "logs/$t.log" | grep -o '[0-9]*$' | tail -1)
    speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "logs/$t.log" | grep -o '[0-9]*$' | tail -1)
    result=ok
    if [ $rc -ne 0 ]; then
        result="FAILED (rc $rc; see fuzz/logs/$t.log, fuzz/artifacts/$t/)"
        status=1
    fi
    printf '%-20s %14s %10s  %s\n' "$t" "${execs:-?}" "${speed:-?}" "$result"
done
exit $status
