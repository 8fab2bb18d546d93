#!/usr/bin/env bash
# Seeds every fuzz target's corpus from the bundled games, rule files and
# test fixtures, then runs each target for FUZZ_SECONDS seconds (default 60).
# The seed is fixed (FUZZ_SEED, default 1) so that a run is repeatable.
# Any crash, panic, leak or timeout fails the run and leaves the input in
# fuzz/artifacts/<target>/.
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`). libFuzzer's instrumentation
# and the address sanitizer need compiler flags that only nightly Rust
# accepts; on a stable toolchain the script sets RUSTC_BOOTSTRAP=1, which
# lets stable accept them (set SENET_FUZZ_NO_BOOTSTRAP=1 to refuse that and
# skip with a notice instead).
set -euo pipefail
cd "$(dirname "$0")"
secs=${FUZZ_SECONDS:-60}
targets=(${FUZZ_TARGETS:-read_sgn check_sgn compile_rules position_string fmt_roundtrip generator_vs_hand})

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz: cargo-fuzz is not installed (cargo install cargo-fuzz); skipped" >&2
    exit 0
fi
if ! rustc --version | grep -q nightly; then
    if [[ -n ${SENET_FUZZ_NO_BOOTSTRAP:-} ]]; then
        echo "fuzz: no nightly toolchain and RUSTC_BOOTSTRAP refused; skipped" >&2
        exit 0
    fi
    export RUSTC_BOOTSTRAP=1
fi

# seed TARGET FILE...: copies each file into the target's corpus under a
# name made from its path, so reruns do not duplicate seeds.
seed() {
    local target=$1
    shift
    mkdir -p "corpus/$target"
    for f in "$@"; do
        [[ -f $f ]] && cp -- "$f" "corpus/$target/seed-${f//\//_}"
    done
}
shopt -s nullglob globstar
sgn=(../games/*.sgn ../tests/fixtures/**/*.sgn)
senet=(../rules/*.senet ../tests/fixtures/rules/**/*.senet)
seed read_sgn "${sgn[@]}"
seed check_sgn "${sgn[@]}"
seed fmt_roundtrip "${sgn[@]}"
seed compile_rules "${senet[@]}"
mkdir -p corpus/position_string
grep -ohE '\[%pos [^]]*\]|Position "[^"]*"' "${sgn[@]}" | sed -E 's/^\[%pos //; s/\]$//; s/^Position "//; s/"$//' |
    sort -u | sed -n 1,200p | while read -r p; do
        printf '%s' "$p" > "corpus/position_string/seed-$(printf '%s' "$p" | cksum | cut -d' ' -f1)"
    done
mkdir -p corpus/generator_vs_hand

cargo fuzz build -O
mkdir -p logs
for t in "${targets[@]}"; do
    echo "fuzz: $t for ${secs}s" >&2
    rc=0
    cargo fuzz run -O "$t" "corpus/$t" -- -max_total_time="$secs" -seed="${FUZZ_SEED:-1}" -max_len=65536 -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 >"logs/$t.log" 2>&1 || rc=$?
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb)' "logs/$t.log" >&2 || true
    if [[ $rc -ne 0 ]]; then
        tail -40 "logs/$t.log" >&2
        echo "fuzz: $t failed (exit $rc); the input is in fuzz/artifacts/$t" >&2
        exit 1
    fi
done
