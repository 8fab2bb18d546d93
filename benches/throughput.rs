//! `cargo bench --bench throughput`: random playouts per second of the
//! compiled engine and of the simulator's driver for every built-in rule
//! set, and, for `bga`, of the hand-written engine of `benches/hand_bga`,
//! all on the very same games.
//!
//! Single-threaded. Every loop plays the games of `senet simulate
//! --threads 1 --seed SEED` with the random player, drawing as the
//! simulator draws: each game from its own `Pcg64` (`simulate::game_rng`),
//! a coin for the first side when it goes by lot, `skip` played when due,
//! a bear-off without a throw played when due, a coin between a release
//! (`0:27-15`) and a throw, the throw from the low
//! bits of a 32-bit draw (a table of the stick patterns), and the unit
//! chosen uniformly (`simulate::Draws`, `simulate::ThrowTable`). A game stops when it is over (a win,
//! or BL-7's draw) or after 2000 units, as in the simulator.
//!
//! The bench loop picks the unit rather than lists them all: it asks
//! `senet::simulate::random_unit`, the random player's draw of the
//! simulator's driver (the same code, which `Ruleset::pick_unit` also
//! runs), for the unit that `legal_units` would list at the drawn index,
//! which, where a calm position's units are ordinary steps alone (or with
//! sure bear-offs and relocating landings sure to be legal) and perhaps a
//! voluntary pass, counts them from the square set and writes only the
//! one drawn; elsewhere it writes the list, its moves' `+` unfinished,
//! and completes the `+` of the one drawn. It also draws the units due
//! without a throw, as the loop did itself before. (Figures of a bench
//! loop that listed every unit with its `+`, `legal_units`, are in
//! docs/performance.md up to "Issue 11: the sixth round", which gives
//! both.)
//!
//! The engines draw as the simulator draws, so they play the very same
//! games, and the bench checks it: the bench
//! loop (`compiled`: the engine alone), the simulator's driver
//! (`simulate`: `senet::simulate::run` on one thread, with the statistics
//! of `--stats`) and, on `bga`, the hand-written engine of
//! `benches/hand_bga`; the ratios of the summary compare like with like.
//! (The bench loop and the driver draw a unit by the same code, so their
//! check covers the loops around it: `apply` against the driver's
//! `apply_tallied`, the end of a game. That the unit drawn is the one
//! `legal_units` lists is the test `a_picked_unit_is_the_listed_unit`'s,
//! and on `bga` the hand-written engine's check.)
//! The engines alternate in three rounds.
//!
//! Wall time and process CPU time are both reported: the machine is shared.
//! `SENET_BENCH_SECONDS` (default 5) sets the time spent per rule set;
//! `SENET_BENCH_RULES=bga,thai` measures only those rule sets, and
//! `SENET_BENCH_GAMES=N` plays exactly N games per measurement instead of
//! timing a calibration run (for instruction counts under callgrind).

#[path = "hand_bga/mod.rs"]
#[allow(dead_code)] // shared with the differential test, which uses the rest
mod hand_bga;

use senet::engine::{
    Position, Ruleset, Side, Starter, Unit, bit_instructions_in_use, with_bit_instructions,
};
use senet::simulate::{Draws, ThrowTable, game_seed, random_unit};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Units per game at most.
const CAP: u32 = 2000;
const SEED: u64 = 0x0005_e7e7_2026;

/// Process CPU time (user + system), from `CLOCK_PROCESS_CPUTIME_ID`.
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

/// What one batch of games did.
#[derive(Default, Clone, Copy, PartialEq, Eq, Debug)]
struct Tally {
    games: u64,
    units: u64,
    wins: [u64; 2],
    /// Games stopped by the cap.
    capped: u64,
}

struct Measure {
    tally: Tally,
    wall: Duration,
    cpu: Duration,
}

impl Measure {
    fn per_second(&self, n: u64, cpu: bool) -> f64 {
        n as f64 / if cpu { self.cpu } else { self.wall }.as_secs_f64()
    }
}

fn timed(run: impl FnOnce() -> Tally) -> Measure {
    let (w, c) = (Instant::now(), cpu_time());
    let tally = run();
    Measure {
        tally,
        wall: w.elapsed(),
        cpu: cpu_time() - c,
    }
}

/// `games` random playouts with the compiled engine: the games of
/// `senet simulate --threads 1 --seed SEED --games N` with the random
/// player, drawn as it draws them (see the module's doc).
///
/// Run, like the simulator's driver, in the copy compiled with the CPU's
/// bit instructions where it has them (`with_bit_instructions`).
#[inline(never)]
fn compiled_games(rules: &Ruleset, games: u64, seed: u64) -> Tally {
    with_bit_instructions(
        #[inline(always)]
        || compiled_games_in(rules, games, seed),
    )
}

/// [`compiled_games`]' loop.
#[inline(always)]
fn compiled_games_in(rules: &Ruleset, games: u64, seed: u64) -> Tally {
    let throws = ThrowTable::new(rules);
    let mut units: Vec<Unit> = Vec::with_capacity(16);
    let mut t = Tally::default();
    // A game ends only when a side has no piece on the board, or at a
    // turn limit (LK-19, from the turn `turn_limit_from` on): as in the
    // simulator, that test spares the full one on every other unit.
    let limit_from = rules.turn_limit_from();
    let over = |pos: &Position| {
        ((pos.pieces[0].0 == 0) | (pos.pieces[1].0 == 0) | (pos.turn >= limit_from))
            && rules.game_over(pos)
    };
    for g in 0..games {
        let mut draws = Draws::new(game_seed(seed, g));
        let first = match rules.starter() {
            Starter::Fixed(side, _) => *side,
            Starter::ByLot(_) if draws.coin() => Side::White,
            Starter::ByLot(_) => Side::Black,
        };
        let mut pos = Position::start(rules, first);
        let mut n = 0;
        while n < CAP && !over(&pos) {
            // The unit is played where the engine wrote it (a reference,
            // not a copy): the engine writes a unit field by field, and
            // reading it back whole right after stalls the CPU.
            let Some(unit) = random_unit(rules, &throws, &mut draws, &pos, &mut units) else {
                break;
            };
            rules.apply(&mut pos, unit).expect("a generated unit plays");
            n += 1;
        }
        t.games += 1;
        t.units += n as u64;
        match rules.winner(&pos) {
            Some(s) => t.wins[s.index()] += 1,
            None => t.capped += !rules.game_over(&pos) as u64,
        }
    }
    black_box(t)
}

/// `games` random playouts by `senet simulate --threads 1 --stats`'s
/// driver: [`senet::simulate::run`] on one thread, the random player, the
/// same unit cap, and the statistics computed at the end as `--stats`
/// does. It plays the bench loop's games, which the bench checks.
#[inline(never)]
fn simulated_games(rules: &Ruleset, games: u64, seed: u64) -> Tally {
    use senet::simulate::{self, Player, RunConfig, Stats};
    let config = RunConfig {
        players: [Player::Random; 2],
        games,
        seed,
        threads: 1,
        max_units: CAP as usize,
        keep_units: false,
    };
    let played = simulate::run(rules, &config, &|_| {});
    let figures: Vec<_> = played.iter().map(|g| g.figures()).collect();
    black_box(Stats::from_games(&figures));
    let mut t = Tally::default();
    for g in &played {
        t.games += 1;
        t.units += g.unit_count as u64;
        match g.winner {
            Some(s) => t.wins[s.index()] += 1,
            None => t.capped += !g.finished as u64,
        }
    }
    black_box(t)
}

/// `games` random playouts with the hand-written bga engine, drawing exactly
/// as [`compiled_games`] does (bga: White starts, no skip, no opening).
/// `rules` are bga's, for the table of the throws.
///
/// In the copy with the CPU's bit instructions too, as the others.
#[inline(never)]
fn hand_games(rules: &Ruleset, games: u64, seed: u64) -> Tally {
    with_bit_instructions(
        #[inline(always)]
        || hand_games_in(rules, games, seed),
    )
}

/// [`hand_games`]' loop.
#[inline(always)]
fn hand_games_in(rules: &Ruleset, games: u64, seed: u64) -> Tally {
    use hand_bga::{Moves, Pos};
    let throws = ThrowTable::new(rules);
    let mut moves = Moves::default();
    let mut t = Tally::default();
    for g in 0..games {
        let mut draws = Draws::new(game_seed(seed, g));
        let mut pos = Pos::START;
        let mut n = 0;
        let mut won = None;
        while n < CAP {
            let release = pos.release();
            let unit = match &release {
                Some(r) if draws.coin() => {
                    // The choice among the one release, as the others draw it.
                    draws.index(1);
                    r
                }
                _ => {
                    pos.legal(throws.throw(rules, &mut draws), &mut moves);
                    &moves.buf[draws.index(moves.len)]
                }
            };
            let side = pos.side;
            pos = pos.play(unit);
            n += 1;
            if pos.off[side as usize] == 5 {
                won = Some(side);
                break;
            }
        }
        t.games += 1;
        t.units += n as u64;
        match won {
            Some(s) => t.wins[s as usize] += 1,
            None => t.capped += 1,
        }
    }
    black_box(t)
}

/// How many games fill about `secs` seconds (from a short trial run).
fn calibrate(secs: f64, run: impl Fn(u64) -> Tally) -> u64 {
    if let Some(games) = std::env::var("SENET_BENCH_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        return games;
    }
    let mut games = 64;
    loop {
        let m = timed(|| run(games));
        if m.wall.as_secs_f64() > 0.25 {
            return ((games as f64 * secs / m.wall.as_secs_f64()) as u64).max(1);
        }
        games *= 4;
    }
}

fn row(rules: &str, engine: &str, m: &Measure) {
    let t = &m.tally;
    println!(
        "{rules:<11} {engine:<13} {:>9} {:>11} {:>7.2} {:>7.2} {:>10.0} {:>10.0} {:>8.2} {:>8.2} {:>7.1} {:>6.1}",
        t.games,
        t.units,
        m.wall.as_secs_f64(),
        m.cpu.as_secs_f64(),
        m.per_second(t.games, false),
        m.per_second(t.games, true),
        m.per_second(t.units, false) / 1e6,
        m.per_second(t.units, true) / 1e6,
        t.units as f64 / t.games as f64,
        100.0 * t.capped as f64 / t.games as f64,
    );
}

fn main() {
    let secs: f64 = std::env::var("SENET_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5.0);
    println!(
        "senet throughput: single thread, random playouts (uniform legal units, the simulator's games of seed {SEED:#x}, cap {CAP} units/game)"
    );
    println!(
        "{} seconds per rule set; CPU = process CPU time (CLOCK_PROCESS_CPUTIME_ID)",
        secs
    );
    println!(
        "bit instructions (popcnt, lzcnt, bmi1, bmi2): {}",
        if bit_instructions_in_use() {
            "in use"
        } else {
            "not on this CPU: the baseline copy"
        }
    );
    println!();
    println!(
        "{:<11} {:<13} {:>9} {:>11} {:>7} {:>7} {:>10} {:>10} {:>8} {:>8} {:>7} {:>6}",
        "rules",
        "engine",
        "games",
        "units",
        "wall s",
        "cpu s",
        "games/s",
        "games/cpu",
        "Mu/s",
        "Mu/cpu-s",
        "u/game",
        "capped%"
    );
    let only: Option<Vec<String>> = std::env::var("SENET_BENCH_RULES")
        .ok()
        .map(|s| s.split(',').map(str::to_string).collect());
    // Per rule set: units per CPU-second of the bench loop, of the
    // simulator's driver and (bga) of the hand-written engine.
    let mut summary: Vec<(&str, f64, f64, Option<f64>)> = Vec::new();
    for name in senet::rules::builtin_names() {
        let name: &str = name;
        if only.as_ref().is_some_and(|o| !o.iter().any(|n| n == name)) {
            continue;
        }
        let rules = senet::rules::load(name, None, &[])
            .unwrap_or_else(|e| panic!("built-in rule set {name}: {e}"));
        // The engines alternate in rounds, so that noise on the shared
        // machine hits them alike. On bga the bench loop and the
        // hand-written engine play the same games.
        let rounds = 3;
        let hand = name == "bga";
        let share = secs / rounds as f64 / if hand { 3.0 } else { 2.0 };
        let games = calibrate(share, |g| compiled_games(&rules, g, SEED));
        let (mut c, mut s, mut h) = (Vec::new(), Vec::new(), Vec::new());
        for r in 0..rounds {
            let seed = SEED + r;
            c.push(timed(|| compiled_games(&rules, games, seed)));
            s.push(timed(|| simulated_games(&rules, games, seed)));
            let (a, b) = (c[r as usize].tally, s[r as usize].tally);
            assert_eq!(
                a, b,
                "{name}: the bench loop and the simulator played different games (seed {seed:#x})"
            );
            if hand {
                h.push(timed(|| hand_games(&rules, games, seed)));
                let (a, b) = (c[r as usize].tally, h[r as usize].tally);
                assert_eq!(
                    a, b,
                    "the compiled and the hand-written bga engines played different games (seed {seed:#x})"
                );
            }
        }
        let (c, s) = (sum(&c), sum(&s));
        row(name, "compiled", &c);
        row(name, "simulate", &s);
        let per_cpu = |m: &Measure| m.per_second(m.tally.units, true);
        let mut vs_hand = None;
        if hand {
            let h = sum(&h);
            row(name, "hand-written", &h);
            vs_hand = Some(per_cpu(&h));
        }
        summary.push((name, per_cpu(&c), per_cpu(&s), vs_hand));
    }
    println!();
    println!(
        "units per CPU-second (M); targets: bench >= 30 (piccione 15), simulate/bench >= 0.85, bga simulate/hand-written >= 0.9"
    );
    println!(
        "{:<11} {:>8} {:>9} {:>10} {:>8} {:>10} {:>10}",
        "rules", "bench", "simulate", "sim/bench", "hand", "sim/hand", "bench/hand"
    );
    for (name, bench, sim, hand) in summary {
        let target = if name == "piccione" { 15e6 } else { 30e6 };
        let mark = |ok: bool| if ok { "met" } else { "MISSED" };
        let (h, sh, bh) = match hand {
            Some(h) => (
                format!("{:.2}", h / 1e6),
                format!("{:.3} {}", sim / h, mark(sim / h >= 0.9)),
                format!("{:.3}", bench / h),
            ),
            None => ("-".into(), "-".into(), "-".into()),
        };
        println!(
            "{name:<11} {:>8.2} {:>9.2} {:>10} {h:>8} {sh:>10} {bh:>10}   bench {}",
            bench / 1e6,
            sim / 1e6,
            format!("{:.3} {}", sim / bench, mark(sim / bench >= 0.85)),
            mark(bench >= target),
        );
    }
}

/// The measurements of several rounds as one.
fn sum(ms: &[Measure]) -> Measure {
    Measure {
        tally: ms.iter().fold(Tally::default(), |mut a, m| {
            a.games += m.tally.games;
            a.units += m.tally.units;
            a.capped += m.tally.capped;
            a.wins[0] += m.tally.wins[0];
            a.wins[1] += m.tally.wins[1];
            a
        }),
        wall: ms.iter().map(|m| m.wall).sum(),
        cpu: ms.iter().map(|m| m.cpu).sum(),
    }
}
