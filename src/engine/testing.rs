//! Test support for the engine's referee tests: the rule sets they run
//! over and random positions with random rule state; and the referee of
//! the compiled tables.

use super::{Position, Queue, Ruleset, Side, SquareSet};
use rand::Rng;
use rand_pcg::Pcg64;

/// Every built-in rule set, alone and with each option and each pair of
/// options that compile together, and overlays with forms no built-in
/// set has.
pub(crate) fn variants() -> Vec<(String, Ruleset)> {
    let mut out = Vec::new();
    for name in crate::rules::builtin_names() {
        let base = crate::rules::load(name, None, &[]).expect("built-in compiles");
        let opts: Vec<String> = base.meta.options.iter().map(|(o, _)| o.clone()).collect();
        let mut sets: Vec<Vec<String>> = vec![vec![]];
        for (i, a) in opts.iter().enumerate() {
            sets.push(vec![a.clone()]);
            for b in &opts[i + 1..] {
                sets.push(vec![a.clone(), b.clone()]);
            }
        }
        for set in sets {
            if let Ok(r) = crate::rules::load(name, None, &set) {
                out.push((format!("{name} {set:?}"), r));
            }
        }
    }
    // Forms no built-in set has: longer runs in the mask form of
    // protection, longer and other blockades.
    for text in [
        "extends \"bga\"\nprotect when run >= 3   [X-1]\nblockade 2 of one colour   [X-3]\n",
        "extends \"meub\"\nblockade 2 any   [X-3]\n",
        "extends \"ryabinin\"\nprotect when (middle of run [X-1]) or (run in {1, 6, 8, 9} [X-2])\n",
        // Terms with negated leaves and every condition.
        "extends \"kendall1979\"\nprotect when (not (run in {1, 3}) and not on 20..24 and not not square 27 taken [X-1]) or (owner misses next turn and not owner on 1..10 [X-2]) or (not middle of run and run = 3 [X-3])\n",
        // Nested `or`s and `and`s, still a union of terms.
        "extends \"kendall\"\nprotect when ((run = 2 [X-1]) or (on 5..9 and not square 27 taken [X-2])) or ((not middle of run) and (run in {3, 5}) [X-3])\n",
        // Not a union of terms: the postfix program.
        "extends \"thai\"\nprotect when not ((run >= 2 [X-1]) or (on 20..22 [X-2]))\n",
        "extends \"bga\"\nprotect when (run >= 2 [X-1]) and ((on 10..20 [X-2]) or (not middle of run [X-3]))\n",
        "extends \"kendall\"\nprotect when (run >= 3 [X-1]) or (on 15, 26 [X-2])\nblockade 4 any   [X-3]\n",
        "extends \"thai\"\nprotect when (on 20..22 [X-2]) or (run >= 4 [X-1])\nblockade 2 of one colour   [X-3]\n",
        "extends \"jequier\"\nblockade 2 any   [X-3]\n",
        // Places in a run, runs that do not count, a blockade by target
        // beside an ordinary one, taken squares that divert and a piece
        // that leaves its square for another.
        "extends \"kendall\"\nruns count on 1..27 except runs reaching 27, 28   [X-1]\nprotect when (end of run and run >= 2 [X-2]) or (inner of run and on 12..18 [X-3])\nblockade on forward moves: onto inner of run passing run = 2; onto 26 passing inner of run; otherwise passing run >= 2 or on 15   [X-4]\nat 28, 30: taken target diverts mover to water   [X-5]\nat water: taken target diverts mover to 15 else counting down   [X-6]\nat water: stay, moving with 1, 2 to 15 else counting down   [X-7]\n",
        "extends \"thai\"\nruns count on 1..25 except runs reaching 12   [X-1]\nblockade on forward moves: onto 10..20 passing end of run; otherwise passing not inner of run   [X-4]\n",
    ] {
        let file = crate::diag::SourceFile::new("overlay.senet", text);
        let r = crate::rules::load_source(file, &[]).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        out.push((text.to_string(), r));
    }
    out
}

pub(crate) fn random_position(rules: &Ruleset, rng: &mut Pcg64) -> Position {
    let len = rules.board.len;
    let mut p = Position::start(rules, Side::White);
    p.pieces = [SquareSet::EMPTY; 2];
    let mut free: Vec<u8> = (1..=len).collect();
    for side in 0..2 {
        let n = rng.random_range(0..=rules.pieces);
        for _ in 0..n {
            let i = rng.random_range(0..free.len());
            p.pieces[side].insert(free.swap_remove(i));
        }
        p.off[side] = rng.random_range(0..=rules.pieces - n);
    }
    p.to_move = if rng.random() {
        Side::White
    } else {
        Side::Black
    };
    p.extra = rng.random_bool(0.3);
    if p.extra && rng.random_bool(0.2) {
        p.bound = Some(rng.random_range(1..=len));
    }
    p.skip = [rng.random_bool(0.1), rng.random_bool(0.1)];
    p.waiting = [rng.random_bool(0.2), rng.random_bool(0.2)];
    let mut q = Queue::default();
    if rng.random_bool(0.1) {
        for _ in 0..rng.random_range(1..=2) {
            q.push(if rng.random() {
                Side::White
            } else {
                Side::Black
            });
        }
    }
    p.queue = q;
    p.turn = rng.random_range(1..=3);
    let mine = p.pieces[p.to_move.index()];
    p.arrived = SquareSet(mine.0 & rng.random::<u64>());
    // Pieces in hand, as a position written by hand may have them
    // under rules without an entry.
    if rng.random_bool(0.1) {
        p.hand = [rng.random_range(0..=2), rng.random_range(0..=2)];
    }
    p
}

#[cfg(test)]
mod tests {
    //! The referee of the compiled tables: the same rule set with its
    //! tables switched off (every move tried by `attempt`, every unit
    //! played by the general `play`) is the reference. Every built-in rule set, alone
    //! and with each option and each pair of options that compile together;
    //! positions from random playouts and from random placements with random
    //! rule state (missed turns, bound throws, the queue, the opening, ...).

    use super::*;
    use crate::engine::{Position, Side, Unit, UnitKind};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    /// Compares the two engines on `pos` for every throw (and the units due
    /// without one); returns the next position of a random unit.
    fn compare(
        name: &str,
        fast: &Ruleset,
        slow: &Ruleset,
        pos: &Position,
        rng: &mut Pcg64,
    ) -> Option<Position> {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let mut throws = fast.throws.distinct_values();
        throws.push(0);
        throws.push(throws.iter().max().unwrap() + 1);
        let mut all = Vec::new();
        for &t in &throws {
            fast.legal_units(pos, t, &mut a);
            slow.legal_units(pos, t, &mut b);
            assert_eq!(a, b, "{name}: legal units for {t} in {}", pos.write(30, 10));
            all.extend_from_slice(&a);
        }
        fast.free_units(pos, &mut a);
        slow.free_units(pos, &mut b);
        assert_eq!(a, b, "{name}: free units in {}", pos.write(30, 10));
        all.extend_from_slice(&a);
        // A unit from a square without a piece of the mover: refused. And
        // units no generator makes but a caller may pass: a bear-off
        // marked as a hit, squares beyond the board's 64 bits.
        let empty = (1..=fast.board.len).find(|&s| !pos.pieces[pos.to_move.index()].contains(s));
        let mut refused: Vec<Unit> = all
            .iter()
            .filter(|u| u.kind == UnitKind::Move && u.from != 0)
            .take(1)
            .filter_map(|u| empty.map(|from| Unit { from, ..*u }))
            .collect();
        refused.extend(
            all.iter()
                .filter(|u| u.off)
                .map(|u| Unit { hit: true, ..*u }),
        );
        refused.extend(
            all.iter()
                .filter(|u| u.kind == UnitKind::Move && !u.off)
                .take(1)
                .map(|u| Unit {
                    from: u.from + 64,
                    to: u.to + 64,
                    ..*u
                }),
        );
        for u in all.iter().chain(&refused) {
            let played = fast.play(pos, u);
            assert_eq!(
                played,
                slow.play(pos, u),
                "{name}: play {u} in {}",
                pos.write(30, 10)
            );
            // `apply` is `play` in place, and leaves the position alone on
            // a refusal.
            let mut q = *pos;
            match (fast.apply(&mut q, u), played) {
                (Ok(fx), Ok((next, fx2))) => assert!(q == next && fx == fx2, "{name}: apply {u}"),
                (Err(a), Err(b)) => assert!(a == b && q == *pos, "{name}: apply {u} refused"),
                (a, b) => panic!("{name}: apply {u} gave {a:?}, play {b:?}"),
            }
        }
        let real: Vec<&Unit> = all
            .iter()
            .filter(|u| u.throw != 0 || u.kind != UnitKind::Move)
            .collect();
        if real.is_empty() {
            return None;
        }
        let u = real[rng.random_range(0..real.len())];
        slow.play(pos, u).ok().map(|(p, _)| p)
    }

    #[test]
    fn fast_path_equals_general_path() {
        let mut rng = Pcg64::seed_from_u64(5);
        let mut served = 0;
        for (name, fast) in variants() {
            if !fast.tables.enabled {
                continue;
            }
            served += 1;
            let mut slow = fast.clone();
            // The reference: the same generator with no step tables (every
            // move tried by `attempt`) and the general `play` only.
            slow.tables.enabled = false;
            slow.tables.steps.tabled = 0;
            for _ in 0..300 {
                let pos = random_position(&fast, &mut rng);
                compare(&name, &fast, &slow, &pos, &mut rng);
            }
            for game in 0..6 {
                let first = if game % 2 == 0 {
                    Side::White
                } else {
                    Side::Black
                };
                let mut pos = Position::start(&fast, first);
                for _ in 0..300 {
                    if fast.game_over(&pos) {
                        break;
                    }
                    match compare(&name, &fast, &slow, &pos, &mut rng) {
                        Some(next) => pos = next,
                        None => break,
                    }
                }
            }
        }
        assert!(served >= 10, "the fast path served only {served} rule sets");
    }
}
