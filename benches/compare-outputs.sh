#!/usr/bin/env bash
# Compares what two `senet` binaries print, byte for byte: `check`,
# `moves` (with and without `--why`), `replay` (text, json, positions),
# `fmt` and `simulate` (records and statistics), over games/, every SGN
# and replay fixture, and simulated records of every built-in rule set,
# alone and with each of its options. Each case keeps standard output,
# standard error and the exit code.
#
#   benches/compare-outputs.sh OLD_BINARY NEW_BINARY [WORK_DIR]
#
# Prints the number of cases and every case that differs; exits 1 when
# any does. Run from the repository root (fixtures are found from there).
set -u
old=$(realpath "$1")
new=$(realpath "$2")
work=${3:-$(mktemp -d)}
mkdir -p "$work/old" "$work/new" "$work/sim"
cases=0

# run NAME ARGS...: runs both binaries, keeps out/err/exit code of each.
run() {
    local name=$1
    shift
    cases=$((cases + 1))
    for side in old new; do
        local bin=$old
        [ "$side" = new ] && bin=$new
        "$bin" "$@" >"$work/$side/$name.out" 2>"$work/$side/$name.err"
        echo $? >"$work/$side/$name.rc"
    done
}

rulesets=$("$old" rules list | awk '/^[a-z]/ {print $1}')

# Simulated records of every rule set, alone and with each option; the
# records are written by the old binary and compared as written by both.
for r in $rulesets; do
    opts=$(grep -oE '^option [^ ]+' "rules/$r.senet" | awk '{print $2}')
    for o in "" $opts; do
        tag=$r${o:+-${o//\//_}}
        args=(--rules "$r")
        [ -n "$o" ] && args+=(--option "$o")
        for p in random greedy; do
            run "sim-$tag-$p-stats" simulate "${args[@]}" --games 40 --seed 11 --threads 1 --player "$p" --stats
            run "sim-$tag-$p-json" simulate "${args[@]}" --games 10 --seed 5 --threads 2 --player "$p,random" --format json
        done
        for side in old new; do
            bin=$old
            [ "$side" = new ] && bin=$new
            "$bin" simulate "${args[@]}" --games 12 --seed 3 --threads 1 --out "$work/sim/$tag-$side.sgn" >/dev/null 2>&1
        done
        cases=$((cases + 1))
        if ! cmp -s "$work/sim/$tag-old.sgn" "$work/sim/$tag-new.sgn"; then
            echo "DIFF sim-$tag records"
        fi
    done
done

# Every record: games/, fixtures, simulated ones.
records=$(ls games/*.sgn games/generated/*.sgn tests/fixtures/sgn/*/*.sgn \
    tests/fixtures/replay/*.sgn tests/fixtures/replay/err/*.sgn "$work"/sim/*-old.sgn 2>/dev/null)
for f in $records; do
    tag=$(echo "$f" | tr '/' '_')
    run "check-$tag" check "$f"
    run "fmt-$tag" fmt --stdout "$f"
    run "fmt-check-$tag" fmt --check "$f"
    for fmt in text json positions; do
        run "replay-$fmt-$tag" replay "$f" --format "$fmt"
    done
    # `moves` on positions of the record's first game: every seventh
    # position up to six of them, every throw value from 0 to 6.
    rules=$(grep -m1 -oE '^\[Rules "[^"]+"\]' "$f" | sed -E 's/.*"(.*)".*/\1/')
    [ -z "$rules" ] && continue
    mapfile -t optargs < <(grep -m1 -oE '^\[RuleOptions "[^"]*"\]' "$f" | sed -E 's/.*"(.*)".*/\1/' | tr ', ' '\n\n' | grep -v '^$' | sed 's/^/--option=/')
    i=0
    "$old" replay "$f" --format positions 2>/dev/null | awk 'NR % 7 == 1' | head -6 | while IFS= read -r pos; do
        i=$((i + 1))
        run "moves-$tag-$i-free" moves --rules "$rules" "${optargs[@]}" --position "$pos"
        for t in 0 1 2 3 4 5 6; do
            run "moves-$tag-$i-$t" moves --rules "$rules" "${optargs[@]}" --position "$pos" --throw "$t" --why
            run "moves-$tag-$i-$t-json" moves --rules "$rules" "${optargs[@]}" --position "$pos" --throw "$t" --why --format json
        done
        echo $cases >"$work/subcases"
    done
    [ -f "$work/subcases" ] && cases=$(cat "$work/subcases") && rm "$work/subcases"
done

diffs=$(diff -rq "$work/old" "$work/new" | wc -l)
diff -rq "$work/old" "$work/new" | sed 's/^/DIFF /' | head -50
sims=$(ls "$work"/sim/*-old.sgn | while read -r o; do cmp -s "$o" "${o%-old.sgn}-new.sgn" || echo x; done | wc -l)
echo "$cases cases ($(ls "$work/old" | wc -l) output files per binary), $diffs output files differ, $sims simulated record files differ (work: $work)"
[ "$diffs" = 0 ] && [ "$sims" = 0 ]
