//! Differential test: the `bga` rule set compiled from `rules/bga.senet`
//! against the hand-written engine of `benches/hand_bga` (written from
//! docs/sources, not from `src/engine`). For every position below and every
//! throw 1..5, plus the units due without a throw, both must give the same
//! set of legal units (canonical SGN) and the same position after each.
//!
//! Positions come from two fixed-seed sources: random playouts from the start
//! (what games reach), and random placements weighted towards squares 20..30
//! (what games reach rarely: B-13, B-15, both sides in the last row). A
//! coverage count asserts that every special rule was exercised.

#[path = "../../benches/hand_bga/mod.rs"]
#[allow(dead_code)]
mod hand_bga;

use hand_bga::{Kind, Moves, Mv, Pos};
use rand::{Rng, RngCore, SeedableRng};
use rand_pcg::Pcg64;
use senet::engine::{Position, Ruleset, Side, SquareSet, Unit};

/// Positions visited by random playouts from the start.
const PLAYOUT_POSITIONS: usize = 12_000;
/// Random placements.
const PLACED_POSITIONS: usize = 12_000;

fn bga() -> Ruleset {
    senet::rules::load("bga", None, &[]).expect("the built-in bga rule set compiles")
}

fn to_hand(p: &Position) -> Pos {
    Pos {
        bb: [p.pieces[0].0 as u32, p.pieces[1].0 as u32],
        off: p.off,
        side: p.to_move.index() as u8,
        extra: p.extra,
        turn: p.turn,
    }
}

/// The compiled engine's position for a hand-written one. Rule state the
/// bga rules never use (bound throws, missed turns, the queue) stays empty;
/// fields are set one by one so that new ones keep their start values.
fn from_hand(p: &Pos) -> Position {
    let mut q = Position::parse("10/10/10 w 0-0 - 1", 30, 10).expect("an empty board parses");
    q.pieces = [SquareSet(p.bb[0] as u64), SquareSet(p.bb[1] as u64)];
    q.to_move = if p.side == 0 {
        Side::White
    } else {
        Side::Black
    };
    q.off = p.off;
    q.extra = p.extra;
    q.turn = p.turn;
    q
}

/// How often each special rule was met, to prove the test reached it.
#[derive(Default, Debug)]
struct Coverage {
    positions: usize,
    forward: usize,
    backward: usize,
    swap: usize,
    /// B-15: the hit piece went into the water.
    hit_into_water: usize,
    /// B-13: the mover diverted into the water.
    diverted: usize,
    /// From 26 onto a lone opposing piece on 27.
    swap_on_27: usize,
    into_water: usize,
    bear_off_26: usize,
    bear_off_28_29_30: usize,
    water_exit: usize,
    water_pass: usize,
    release: usize,
    forced_pass: usize,
    won: usize,
}

impl Coverage {
    fn count(&mut self, before: &Pos, m: &Mv, after: &Pos) {
        match m.kind {
            Kind::Release => self.release += 1,
            Kind::Pass if before.bb[before.side as usize] & (1 << 27) != 0 => self.water_pass += 1,
            Kind::Pass => self.forced_pass += 1,
            Kind::Off if m.from == 27 => self.water_exit += 1,
            Kind::Off if m.from == 26 => self.bear_off_26 += 1,
            Kind::Off => self.bear_off_28_29_30 += 1,
            Kind::Move => {
                if m.to < m.from {
                    self.backward += 1;
                } else {
                    self.forward += 1;
                }
                if m.hit_to == 27 {
                    self.hit_into_water += 1;
                } else if m.hit_to != 0 {
                    self.swap += 1;
                }
                if m.from == 26 && m.to == 27 && m.throw != 1 {
                    self.diverted += 1;
                }
                if m.from == 26 && m.to == 27 && m.hit_to != 0 {
                    self.swap_on_27 += 1;
                }
                if m.to == 27 {
                    self.into_water += 1;
                }
            }
        }
        if after.winner().is_some() {
            self.won += 1;
        }
    }

    fn assert_all_met(&self) {
        let c = [
            ("forward", self.forward),
            ("backward (B-9)", self.backward),
            ("swap (B-6)", self.swap),
            ("hit into the water (B-15)", self.hit_into_water),
            ("diverted into the water (B-13)", self.diverted),
            ("swap on 27 (P-5)", self.swap_on_27),
            ("into the water", self.into_water),
            ("bear off from 26 (B-11)", self.bear_off_26),
            ("bear off from 28..30 (B-14)", self.bear_off_28_29_30),
            ("water exit with 4 (B-12b)", self.water_exit),
            ("water pass (B-12b)", self.water_pass),
            ("release 0:27-15 (B-12a)", self.release),
            ("forced pass (B-10)", self.forced_pass),
            ("won", self.won),
        ];
        let missed: Vec<&str> = c.iter().filter(|(_, n)| *n == 0).map(|(s, _)| *s).collect();
        assert!(
            missed.is_empty(),
            "the positions never exercised: {missed:?}\n{self:?}"
        );
    }
}

/// Compares both engines on `pos`; disagreements are appended to `errors`.
fn compare(rules: &Ruleset, pos: &Position, cov: &mut Coverage, errors: &mut Vec<String>) {
    let text = pos.write(30, 10);
    let hp = to_hand(pos);
    assert_eq!(from_hand(&hp).write(30, 10), text, "position conversion");
    cov.positions += 1;
    let mut units = Vec::new();
    let mut moves = Moves::default();

    let mut check = |label: String, units: &[Unit], moves: &[Mv], errors: &mut Vec<String>| {
        let mut c: Vec<(String, &Unit)> = units.iter().map(|u| (u.to_string(), u)).collect();
        let mut h: Vec<(String, &Mv)> = moves.iter().map(|m| (m.to_string(), m)).collect();
        c.sort_by(|a, b| a.0.cmp(&b.0));
        h.sort_by(|a, b| a.0.cmp(&b.0));
        let cs: Vec<&str> = c.iter().map(|x| x.0.as_str()).collect();
        let hs: Vec<&str> = h.iter().map(|x| x.0.as_str()).collect();
        if cs != hs {
            errors.push(format!(
                "{text} {label}: compiled {cs:?}, hand-written {hs:?}"
            ));
            return;
        }
        for ((s, u), (_, m)) in c.iter().zip(&h) {
            let after = match rules.play(pos, u) {
                Ok((p, _)) => p,
                Err(r) => {
                    errors.push(format!(
                        "{text} {s}: the compiled engine refused its own unit: {r:?}"
                    ));
                    continue;
                }
            };
            let hafter = hp.play(m);
            cov.count(&hp, m, &hafter);
            let (a, b) = (after.write(30, 10), from_hand(&hafter).write(30, 10));
            if a != b {
                errors.push(format!("{text} {s}: compiled gives {a}, hand-written {b}"));
            }
        }
    };

    for throw in 1..=5u8 {
        rules.legal_units(pos, throw, &mut units);
        hp.legal(throw, &mut moves);
        check(format!("throw {throw}"), &units, moves.as_slice(), errors);
    }
    rules.free_units(pos, &mut units);
    let release: Vec<Mv> = hp.release().into_iter().collect();
    check("no throw".into(), &units, &release, errors);
}

/// A throw from four fair sticks (B-4).
fn throw(rng: &mut Pcg64) -> u8 {
    hand_bga::VALUE[(rng.next_u32() & 15).count_ones() as usize]
}

/// A random position: each side has 0..=4 pieces off and the rest on distinct
/// squares, half of them drawn from 20..30.
fn placed(rng: &mut Pcg64) -> Position {
    let mut bb = [0u32; 2];
    let mut off = [0u8; 2];
    for side in 0..2 {
        off[side] = [0, 0, 0, 1, 2, 3, 4][rng.random_range(0..7)];
        let mut n = 5 - off[side];
        while n > 0 {
            let s = if rng.random_bool(0.5) {
                rng.random_range(20..=30)
            } else {
                rng.random_range(1..=30)
            };
            if (bb[0] | bb[1]) & (1 << s) == 0 {
                bb[side] |= 1 << s;
                n -= 1;
            }
        }
    }
    let side = rng.random_range(0..2u8);
    from_hand(&Pos {
        bb,
        off,
        side,
        extra: rng.random_bool(0.3),
        turn: rng.random_range(1..200),
    })
}

fn report(errors: &[String]) {
    if !errors.is_empty() {
        let shown: Vec<&String> = errors.iter().take(20).collect();
        panic!(
            "{} disagreements between the compiled and the hand-written bga engine; the first:\n{}",
            errors.len(),
            shown
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

#[test]
fn compiled_bga_agrees_with_the_hand_written_engine() {
    let rules = bga();
    let mut cov = Coverage::default();
    let mut errors = Vec::new();
    let mut units = Vec::new();
    let mut free = Vec::new();

    // Random playouts from the start; every position met is compared.
    let mut rng = Pcg64::seed_from_u64(0x5e7e7);
    let mut visited = 0;
    while visited < PLAYOUT_POSITIONS {
        let mut pos = Position::start(&rules, Side::White);
        for _ in 0..2000 {
            compare(&rules, &pos, &mut cov, &mut errors);
            visited += 1;
            rules.free_units(&pos, &mut free);
            let unit = if !free.is_empty() && rng.random_bool(0.5) {
                free[rng.random_range(0..free.len())]
            } else {
                rules.legal_units(&pos, throw(&mut rng), &mut units);
                assert!(!units.is_empty(), "no unit at all in {}", pos.write(30, 10));
                units[rng.random_range(0..units.len())]
            };
            let (next, fx) = rules.play(&pos, &unit).expect("a generated unit plays");
            pos = next;
            if fx.won {
                compare(&rules, &pos, &mut cov, &mut errors);
                break;
            }
        }
        report(&errors);
    }

    // Random placements.
    let mut rng = Pcg64::seed_from_u64(0xb6a);
    for _ in 0..PLACED_POSITIONS {
        let pos = placed(&mut rng);
        compare(&rules, &pos, &mut cov, &mut errors);
    }
    report(&errors);
    assert!(cov.positions >= PLAYOUT_POSITIONS + PLACED_POSITIONS);
    println!("{cov:#?}");
    cov.assert_all_met();
}
