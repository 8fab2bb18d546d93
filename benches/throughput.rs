//! `cargo bench --bench throughput`: random playouts per second of the
//! compiled engine for every built-in rule set, and, for `bga`, of the
//! hand-written engine of `benches/hand_bga` on the very same games.
//!
//! Single-threaded. The random player: at each unit, when units are due
//! without a throw (`skip`, `0:27-15`) a `skip` is played, and a release is
//! chosen uniformly among the releases plus "throw"; otherwise four sticks
//! are thrown and one of the legal units is chosen uniformly. One 64-bit draw
//! of a seeded PCG (`Pcg64Mcg`) per unit: the low 32 bits are the throw
//! (`Throws::from_bits`: sticks read the low bits, a die the whole word), the
//! high 32 bits choose the unit. Games stop at a win or after 2000 units.
//! Both `bga` engines list units in ascending order of the square moved from,
//! so with the same seed they play the same games, and the bench checks it.
//!
//! Beside the bench loop, every rule set is also played by the simulator's
//! driver (`senet simulate --threads 1 --stats`: `senet::simulate::run`
//! on one thread, the random player, its seeded `Pcg64` and statistics),
//! and the summary gives units per CPU-second of each with the ratios the
//! targets are stated in. The engines alternate in three rounds.
//!
//! Wall time and process CPU time are both reported: the machine is shared.
//! `SENET_BENCH_SECONDS` (default 5) sets the time spent per rule set;
//! `SENET_BENCH_RULES=bga,thai` measures only those rule sets, and
//! `SENET_BENCH_GAMES=N` plays exactly N games per measurement instead of
//! timing a calibration run (for instruction counts under callgrind).

#[path = "hand_bga/mod.rs"]
#[allow(dead_code)] // shared with the differential test, which uses the rest
mod hand_bga;

use rand::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;
use senet::engine::{Position, Ruleset, Side, Starter, Unit, UnitKind};
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

/// Chooses one of `n` with the high 32 bits of a draw (multiply-shift).
#[inline(always)]
fn pick(draw: u64, n: usize) -> usize {
    (((draw >> 32) * n as u64) >> 32) as usize
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

/// `games` random playouts with the compiled engine.
#[inline(never)]
fn compiled_games(rules: &Ruleset, games: u64, seed: u64) -> Tally {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let first = match rules.starter() {
        Starter::Fixed(side, _) => *side,
        Starter::ByLot(_) => Side::White,
    };
    let start = Position::start(rules, first);
    let mut units: Vec<Unit> = Vec::with_capacity(16);
    let mut free: Vec<Unit> = Vec::with_capacity(4);
    let mut t = Tally::default();
    for _ in 0..games {
        let mut pos = start;
        let mut n = 0;
        let mut redraws = 0;
        let mut won = None;
        while n < CAP {
            let mut draw = rng.next_u64();
            rules.free_units(&pos, &mut free);
            // The unit is played where the engine wrote it (a reference,
            // not a copy): the engine writes a unit field by field, and
            // reading it back whole right after stalls the CPU.
            let unit = if free.is_empty() {
                None
            } else if free[0].kind == UnitKind::Skip {
                Some(&free[0])
            } else {
                let k = pick(draw, free.len() + 1);
                draw = rng.next_u64();
                free.get(k)
            };
            let unit = match unit {
                Some(u) => u,
                None => {
                    // Sticks read the low bits, a die the whole low word;
                    // the unit is chosen with the high word.
                    let throw = rules.throws().from_bits(draw as u32);
                    rules.legal_units(&pos, throw, &mut units);
                    if units.is_empty() {
                        // The throw is not allowed now (K-5: the opening
                        // roll-off wants a 1): throw again.
                        redraws += 1;
                        assert!(
                            redraws < 10_000,
                            "no throw is ever allowed in {}",
                            pos.write(30, 10)
                        );
                        continue;
                    }
                    &units[pick(draw, units.len())]
                }
            };
            let fx = rules.apply(&mut pos, unit).expect("a generated unit plays");
            n += 1;
            if fx.won {
                won = Some(pos.to_move.other());
                break;
            }
        }
        t.games += 1;
        t.units += n as u64;
        match won {
            Some(s) => t.wins[s.index()] += 1,
            None => t.capped += 1,
        }
    }
    black_box(t)
}

/// `games` random playouts by `senet simulate --threads 1 --stats`'s
/// driver: [`senet::simulate::run`] on one thread, the random player, the
/// same unit cap, and the statistics computed at the end as `--stats`
/// does. Its games are not the bench loop's (the simulator draws from the
/// seeded `Pcg64` its records name), so it is compared by units per
/// second.
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
/// as [`compiled_games`] does.
fn hand_games(games: u64, seed: u64) -> Tally {
    use hand_bga::{Moves, Pos, VALUE};
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut moves = Moves::default();
    let mut t = Tally::default();
    for _ in 0..games {
        let mut pos = Pos::START;
        let mut n = 0;
        let mut won = None;
        while n < CAP {
            let mut draw = rng.next_u64();
            let mut unit = None;
            let release = pos.release();
            if let Some(r) = &release {
                if pick(draw, 2) == 0 {
                    unit = Some(r);
                }
                draw = rng.next_u64();
            }
            let unit = match unit {
                Some(u) => u,
                None => {
                    pos.legal(VALUE[(draw & 15).count_ones() as usize], &mut moves);
                    &moves.buf[pick(draw, moves.len)]
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
        "senet throughput: single thread, random playouts (uniform legal units, Pcg64Mcg seed {SEED:#x}, cap {CAP} units/game)"
    );
    println!(
        "{} seconds per rule set; CPU = process CPU time (CLOCK_PROCESS_CPUTIME_ID)",
        secs
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
        let sim_games = calibrate(share, |g| simulated_games(&rules, g, SEED));
        let (mut c, mut s, mut h) = (Vec::new(), Vec::new(), Vec::new());
        for r in 0..rounds {
            let seed = SEED + r;
            c.push(timed(|| compiled_games(&rules, games, seed)));
            s.push(timed(|| simulated_games(&rules, sim_games, seed)));
            if hand {
                h.push(timed(|| hand_games(games, seed)));
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
