#!/usr/bin/env bash
# Writes every fuzz target's seed corpus into fuzz/corpus/<target>/ from the repository's
# real content (the `seedgen` binary of this package: real BC tiles, crops of the real
# textures packed as `sfsim pack` packs them, the scenario, sweep and camera files).
# Existing corpus files are kept, so it can be re-run over a grown corpus. Honours
# FUZZ_SANITIZER as scripts/fuzz.sh does, so both share one build.
set -euo pipefail
cd "$(dirname "$0")"
export RUSTC_BOOTSTRAP=1
sanitizer=()
[ -n "${FUZZ_SANITIZER:-}" ] && sanitizer=(--sanitizer "$FUZZ_SANITIZER")
cargo fuzz build "${sanitizer[@]}" seedgen
./target/x86_64-unknown-linux-gnu/release/seedgen corpus
