#!/usr/bin/env bash
# Checker throughput and peak memory on a generated corpus (docs/performance.md).
#
#   benches/checker.sh [RUNS] [GAMES]
#
# Builds the release binary, writes GAMES (default 50,000: about 111 MB)
# simulated bga games to a temporary corpus, then runs `senet check` RUNS
# times (default 9) on every core and with one replay thread, interleaved,
# and prints the median wall and user CPU time as MB/s and units/s, with
# the largest peak RSS. Needs GNU time (/usr/bin/time). The corpus is
# removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-9}
games=${2:-50000}
cargo build --release --quiet
bin=target/release/senet
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
corpus=$dir/corpus.sgn
"$bin" simulate --rules bga --games "$games" --seed 1 --out "$corpus" > /dev/null
bytes=$(stat -c %s "$corpus")
# Units: every move, pass and skip of the movetext (result tokens and turn
# numbers aside), as the checker counts them.
units=$("$bin" check --format json "$corpus" 2> /dev/null | tail -1 | sed -E 's/.*"units":([0-9]+).*/\1/')
echo "corpus: $games games, $bytes bytes, $units units"
for i in $(seq "$runs"); do
    for threads in 0 1; do
        args=()
        [ "$threads" = 1 ] && args=(--threads 1)
        /usr/bin/time -f "%e %U %M" -a -o "$dir/t$threads" "$bin" check "${args[@]}" "$corpus" > /dev/null 2>&1
    done
done
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for threads in 0 1; do
    f=$dir/t$threads
    wall=$(awk '{print $1}' "$f" | median)
    user=$(awk '{print $2}' "$f" | median)
    rss=$(awk '{print $3}' "$f" | sort -n | tail -1)
    label=$([ "$threads" = 1 ] && echo "--threads 1" || echo "every core ")
    awk -v l="$label" -v w="$wall" -v u="$user" -v b="$bytes" -v n="$units" -v r="$rss" -v k="$runs" 'BEGIN {
        printf "check %s: median of %d, wall %.2f s = %.0f MB/s, %.1f M units/s; user CPU %.2f s = %.0f MB/s, %.1f M units/s; peak RSS %.1f MB\n",
            l, k, w, b / w / 1e6, n / w / 1e6, u, b / u / 1e6, n / u / 1e6, r / 1024
    }'
done
