//! `cargo bench --bench analysis`: how fast the evaluator values positions,
//! and how long `senet analyze` takes over the bga demonstration game.
//!
//! Single-threaded. Positions: every 12th position of a seeded greedy
//! game, valued before their throw by a fresh evaluator each (no values
//! carried over between positions) at depth 1 and depth 2 with 100 greedy
//! rollouts per leaf. The analysis: every main-line unit of
//! `games/bga-demo.sgn` judged at the default settings on one thread.
//! Wall time and process CPU time are both reported: the machine is shared.
//! `SENET_BENCH_RULES=bga,thai` chooses the rule sets (default bga, thai,
//! kendall).

use senet::analysis::game::{Thresholds, judge_all};
use senet::analysis::{Evaluator, Settings};
use senet::engine::{Position, Ruleset, Unit};
use senet::notation::header::start_position;
use senet::notation::replay::{Replayer, Step};
use senet::simulate::{Player, play_game};
use std::time::{Duration, Instant};

fn cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID)");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

fn timed<T>(run: impl FnOnce() -> T) -> (T, f64, f64) {
    let (w, c) = (Instant::now(), cpu_time());
    let out = run();
    (
        out,
        w.elapsed().as_secs_f64(),
        (cpu_time() - c).as_secs_f64(),
    )
}

fn positions(rules: &Ruleset) -> Vec<Position> {
    let g = play_game(rules, [Player::Greedy; 2], 7, 2000, true);
    let mut pos = Position::start(rules, g.first);
    let mut out = Vec::new();
    for (i, (_, _, u)) in g.units.iter().enumerate() {
        if i % 12 == 6 && !rules.game_over(&pos) {
            out.push(pos);
        }
        pos = rules.play(&pos, u).expect("a played unit").0;
    }
    out
}

fn demo_moves() -> (Ruleset, Vec<(Position, Unit)>) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/games/bga-demo.sgn");
    let text = std::fs::read_to_string(path).expect("the demo game is there");
    let game = senet::notation::Reader::new(&text)
        .next()
        .expect("one game")
        .expect("it reads");
    let rules = senet::rules::load("bga", None, &[]).expect("bga loads");
    let start = start_position(&game, &rules, Default::default(), &mut Vec::new())
        .expect("a start position");
    let mut moves = Vec::new();
    let mut visit = |s: &Step<'_>| {
        if !s.in_variation {
            moves.push((s.before, s.unit));
        }
    };
    Replayer::new(&rules, 10)
        .visiting(&mut visit)
        .replay(&game, start);
    (rules, moves)
}

fn main() {
    let names = std::env::var("SENET_BENCH_RULES").unwrap_or_else(|_| "bga,thai,kendall".into());
    println!(
        "{:<10} {:>5} {:>9} {:>8} {:>8} {:>12} {:>12}",
        "rules", "depth", "positions", "wall s", "cpu s", "pos/wall-s", "pos/cpu-s"
    );
    for name in names.split(',') {
        let rules = senet::rules::load(name, None, &[]).expect("a built-in rule set");
        let all = positions(&rules);
        for (depth, take) in [(1u8, all.len()), (2, 4)] {
            let chosen = &all[..take.min(all.len())];
            let settings = Settings {
                depth,
                rollouts: 100,
                ..Settings::default()
            };
            let (_, wall, cpu) = timed(|| {
                for p in chosen {
                    std::hint::black_box(Evaluator::new(&rules, settings).position(p));
                }
            });
            let n = chosen.len() as f64;
            println!(
                "{name:<10} {depth:>5} {:>9} {wall:>8.2} {cpu:>8.2} {:>12.2} {:>12.2}",
                chosen.len(),
                n / wall,
                n / cpu
            );
        }
    }
    let (rules, moves) = demo_moves();
    let (reports, wall, cpu) = timed(|| {
        judge_all(
            &rules,
            &moves,
            &Settings::default(),
            &Thresholds::default(),
            1,
            &|_| {},
        )
    });
    println!(
        "\nanalyze games/bga-demo.sgn, default settings (depth 1, 100 rollouts, 400 for the second look), one thread: {} units in {wall:.2} s wall, {cpu:.2} s CPU",
        reports.len()
    );
}
