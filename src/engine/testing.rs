//! Test support for the engine's referee tests: the rule sets they run
//! over and random positions with random rule state.

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
