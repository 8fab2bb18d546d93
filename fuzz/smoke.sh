#!/usr/bin/env bash
# Seeds every fuzz target's corpus from the bundled games, rule files and
# test fixtures, then runs each target.
#
# By default the run is repeatable, for CI: each target executes a fixed
# number of inputs (FUZZ_RUNS overrides the per-target counts below, which
# take about 30 to 60 seconds each on a 2-core machine) with a fixed seed
# (FUZZ_SEED, default 1), starting from the seeds alone: the same commit
# runs the same inputs on every machine. FUZZ_SECONDS=N runs each target
# for N seconds instead and keeps what it learns in fuzz/corpus/<target>/
# across runs, for longer local runs.
#
# Any crash, panic, leak or timeout fails the run and leaves the input in
# fuzz/artifacts/<target>/; add it to tests/fixtures/fuzz/ (named after the
# target) before fixing the bug.
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`). libFuzzer's instrumentation
# and the address sanitizer need compiler flags that only nightly Rust
# accepts; on a stable toolchain the script sets RUSTC_BOOTSTRAP=1, which
# lets stable accept them (set SENET_FUZZ_NO_BOOTSTRAP=1 to refuse that and
# skip with a notice instead).
set -euo pipefail
cd "$(dirname "$0")"
targets=(${FUZZ_TARGETS:-read_sgn check_sgn compile_rules position_string fmt_roundtrip generator_vs_hand})

# Inputs per target in the repeatable run: about 30 to 60 seconds each,
# measured on a busy 2-core machine (docs/security.md).
runs_of() {
    case $1 in
        read_sgn) echo 30000 ;;
        check_sgn) echo 8000 ;;
        compile_rules) echo 5000 ;;
        position_string) echo 400000 ;;
        fmt_roundtrip) echo 80000 ;;
        generator_vs_hand) echo 25000 ;;
        *) echo 10000 ;;
    esac
}

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

# seed TARGET FILE...: copies each file into the target's seeds under a
# name made from its path (the seeds are rebuilt on every run).
seed() {
    local target=$1
    shift
    rm -rf "seeds/$target"
    mkdir -p "seeds/$target"
    for f in "$@"; do
        [[ -f $f ]] && cp -- "$f" "seeds/$target/seed-${f//\//_}"
    done
}
shopt -s nullglob globstar
sgn=(../games/*.sgn ../tests/fixtures/**/*.sgn ../tests/fixtures/fuzz/read_sgn-* ../tests/fixtures/fuzz/check_sgn-* ../tests/fixtures/fuzz/fmt_roundtrip-*)
senet=(../rules/*.senet ../tests/fixtures/rules/**/*.senet ../tests/fixtures/fuzz/compile_rules-*)
seed read_sgn "${sgn[@]}"
seed check_sgn "${sgn[@]}"
seed fmt_roundtrip "${sgn[@]}"
seed compile_rules "${senet[@]}"
seed position_string
grep -ohE '\[%pos [^]]*\]|Position "[^"]*"' ../games/*.sgn ../tests/fixtures/**/*.sgn |
    sed -E 's/^\[%pos //; s/\]$//; s/^Position "//; s/"$//' |
    LC_ALL=C sort -u | sed -n 1,200p | while read -r p; do
        printf '%s' "$p" > "seeds/position_string/seed-$(printf '%s' "$p" | cksum | cut -d' ' -f1)"
    done
seed generator_vs_hand

cargo fuzz build -O
mkdir -p logs
for t in "${targets[@]}"; do
    if [[ -n ${FUZZ_SECONDS:-} ]]; then
        limit=(-max_total_time="$FUZZ_SECONDS")
        echo "fuzz: $t for ${FUZZ_SECONDS}s" >&2
    else
        # A fresh corpus: what an earlier run found would change the inputs.
        rm -rf "corpus/$t"
        n=${FUZZ_RUNS:-$(runs_of "$t")}
        limit=(-runs="$n")
        echo "fuzz: $t for $n inputs" >&2
    fi
    mkdir -p "corpus/$t"
    rc=0
    start=$(date +%s)
    cargo fuzz run -O "$t" "corpus/$t" "seeds/$t" -- "${limit[@]}" -seed="${FUZZ_SEED:-1}" -max_len=65536 -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 >"logs/$t.log" 2>&1 || rc=$?
    echo "fuzz: $t took $(($(date +%s) - start))s" >&2
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb)' "logs/$t.log" >&2 || true
    if [[ $rc -ne 0 ]]; then
        tail -40 "logs/$t.log" >&2
        echo "fuzz: $t failed (exit $rc); the input is in fuzz/artifacts/$t" >&2
        exit 1
    fi
done
