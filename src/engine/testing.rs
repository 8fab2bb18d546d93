//! Test support for the engine's referee tests: the rule sets they run
//! over and random positions with random rule state; and the referee of
//! the compiled tables.

use super::{Heading, Origin, Position, Queue, Ruleset, Side, SquareSet};
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
        // R-8's shift-ands: runs of a range of lengths, the middles of
        // odd runs in it taken out or outside it added; a range up to runs
        // that a side's pieces make (runs of 4 or more, the middles of 5
        // and 7 among them, are read by the steps per run), one from a
        // single piece on, one with no end, middles alone (no range) and
        // middles below the range.
        "extends \"ryabinin\"\nprotect when (run in {2, 3} [X-1]) or (middle of run and run in {5, 7} [X-2]) or (on 15 [X-3])\n",
        "extends \"ryabinin\"\nprotect when (middle of run and run in {1, 3, 5, 7} [X-1]) or (on 15 [X-2])\n",
        "extends \"ryabinin\"\nprotect when (run in {4, 5} [X-1]) or (middle of run and run in {1, 3} [X-2])\n",
        "extends \"ryabinin\"\nprotect when (run in {1, 2, 3, 4, 5, 6, 7} and not middle of run [X-1])\n",
        "extends \"ryabinin\"\nprotect when (run >= 2 [X-1]) or (middle of run and run in {1, 3} [X-2])\n",
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
        // Several blockades: the loop over them, not the one mask form.
        "extends \"kendall\"\nblockade 3 opposing, 2 of one colour   [X-3]\n",
        "extends \"meub\"\nblockade 4 any, 2 opposing where runs count   [X-3]\n",
        // "Owner beside in row" alone (the masks' form), and in a shape
        // the masks do not take (the program's leaf).
        "extends \"ludii-jequier\"\nprotect when owner beside in row   [X-1]\n",
        "extends \"ludii-kendall\"\nprotect when (owner beside in row [X-1]) and not (on 20..22 [X-2])\n",
        // A group blockade of the pieces where runs count only: a group
        // is made of the opposing pieces on those squares.
        "extends \"macabot\"\nruns count on 1..20   [X-1]\nblockade 3 opposing in a group where runs count   [X-3]\n",
        "extends \"macabot\"\nruns count on 5..24   [X-1]\nblockade 2 opposing in a group where runs count, 3 any   [X-3]\n",
        // A throw in any number of parts whose parts may hit: the search's
        // parts played on a position.
        "extends \"ludii-piccione\"\nlanding on opposing piece swaps   [X-1]\n",
        "extends \"ludii-piccione\"\nlanding on opposing piece sends it to lowest empty   [X-1]\nprotect when run >= 2   [X-2]\n",
        // Split throws counted with a voluntary pass after them, and a
        // pass beside bearing off, under which they are listed.
        "extends \"ludii-piccione\"\npass voluntary   [X-1]\n",
        "extends \"ludii-piccione\"\nbear off voluntary   [X-1]\n",
        "extends \"piccione\"\npass voluntary   [X-1]\n",
        // Split throws whose parts may hit: the steps counted beside their
        // units written after all (`push_steps_beside_splits`).
        "extends \"piccione\"\nlanding on opposing piece swaps   [X-1]\n",
        // Places in a run, runs that do not count, a blockade by target
        // beside an ordinary one, taken squares that divert and a piece
        // that leaves its square for another.
        "extends \"kendall\"\nruns count on 1..27 except runs reaching 27, 28   [X-1]\nprotect when (end of run and run >= 2 [X-2]) or (inner of run and on 12..18 [X-3])\nblockade on forward moves: onto inner of run passing run = 2; onto 26 passing inner of run; otherwise passing run >= 2 or on 15   [X-4]\nat 28, 30: taken target diverts mover to water   [X-5]\nat water: taken target diverts mover to 15 else counting down   [X-6]\nat water: stay, moving with 1, 2 to 15 else counting down   [X-7]\n",
        "extends \"thai\"\nruns count on 1..25 except runs reaching 12   [X-1]\nblockade on forward moves: onto 10..20 passing end of run; otherwise passing not inner of run   [X-4]\n",
        // Landings in the region of a bear-off without a throw (MC-8)
        // on squares that bind a throw or miss a turn (played plainly out
        // of line), and a relocation into the region onto its square (the
        // other landings there inlined, `Tables::plain_home`).
        "extends \"macabot\"\nat 24: extra throw bound to piece   [X-1]\nat 22: miss next turn   [X-2]\n",
        "extends \"macabot\"\nat 25: relocate to 30   [X-1]\n",
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
    // An extra throw held for the next whole use of a throw (PC-6, under
    // rules that hold one; the others must ignore it).
    p.held = rng.random_bool(0.2);
    // The direction of the turn's moves so far (PC-4), mid-turn.
    if p.extra && rules.movement.one_direction {
        p.heading = match rng.random_range(0..3) {
            0 => Heading::Any,
            1 => Heading::Forward,
            _ => Heading::Backward,
        };
    }
    // A piece a lock moved out, which binds its owner's next ply (LK-12):
    // on a square some piece stands on.
    let taken = p.pieces[0].0 | p.pieces[1].0;
    if taken != 0 && rng.random_bool(0.1) {
        let squares: Vec<u8> = SquareSet(taken).iter().collect();
        p.marked = Some(squares[rng.random_range(0..squares.len())]);
    }
    // Where the game began, which decides whether the opening binds (P-4).
    p.origin = match rng.random_range(0..4) {
        0 => Origin::SetUp,
        1 => Origin::Unknown,
        _ => Origin::Standard,
    };
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
    use crate::engine::constructs::movement::STEPS_WRITTEN_BESIDE_SPLITS;
    use crate::engine::movegen::Listed;
    use crate::engine::{Position, Relocated, Side, Unit, UnitKind};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    /// `play` by `apply_tallied`, with the bare copy of the plain play
    /// when `BARE`: the position after `unit` and the effects tallied.
    fn tallied<const BARE: bool>(
        rules: &Ruleset,
        pos: &Position,
        unit: &Unit,
    ) -> Result<(Position, crate::engine::Effects), crate::engine::Refusal> {
        let mut next = *pos;
        let mut seen = None;
        rules.apply_tallied::<BARE>(&mut next, unit, |fx| seen = Some(*fx))?;
        Ok((next, seen.expect("a played unit is tallied")))
    }

    /// The reference for `fast`: the same rule set with no step tables
    /// (every move tried by `attempt`), the stages' general copy (not the
    /// plain or the grouped shape's) and no plain play (every unit by the
    /// general `play`).
    fn referee(fast: &Ruleset) -> Ruleset {
        let mut slow = fast.clone();
        slow.tables.enabled = false;
        slow.tables.steps.tabled = 0;
        slow.tables.steps.fill_rows();
        slow.tables.plain_shape = false;
        slow.tables.grouped_shape = false;
        slow.tables.plain = Default::default();
        slow.tables.plain_bare = false;
        slow
    }

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
            // The simulator's form, with the copy of the plain play for
            // any rule set and, where the plain units are bare, the bare
            // copy.
            assert_eq!(
                tallied::<false>(fast, pos, u),
                played,
                "{name}: tallied {u}"
            );
            if fast.plain_bare() {
                assert_eq!(tallied::<true>(fast, pos, u), played, "{name}: bare {u}");
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

    /// The one meaning of `+` (docs/sgn.md), over games of every built-in
    /// rule set, alone and with each option and each pair of options: a
    /// move is marked exactly when its player throws again after it (the
    /// unit after it, a bear-off without a throw aside, is the same
    /// side's), unless the game ended; a pass is marked exactly when its
    /// value gives another throw under the rules in force (not in a lock
    /// whose plies give none, LK-6, whose refused exit is a forced pass
    /// like any other, LK-14), and a pass without the mark ends the turn.
    #[test]
    fn plus_marks_another_throw() {
        use crate::simulate::{Player, play_game};
        let mut moves = 0;
        let mut passes = 0;
        let mut marked = 0;
        for (name, rules) in variants() {
            for seed in 0..4u64 {
                let game = play_game(&rules, [Player::Random; 2], seed, 600, true);
                let mut pos = Position::start(&rules, game.first);
                let mut before = Vec::with_capacity(game.units.len());
                for (_, _, u) in &game.units {
                    before.push(pos);
                    rules.apply(&mut pos, u).expect("a generated unit plays");
                }
                for (i, (side, _, u)) in game.units.iter().enumerate() {
                    let p = &before[i];
                    // The unit after it that is played with a throw or a
                    // skip: a bear-off without a throw belongs to the move
                    // before it.
                    let next = game.units[i + 1..]
                        .iter()
                        .find(|(_, _, n)| !(n.kind == UnitKind::NoThrow && n.off))
                        .map(|(s, _, _)| *s);
                    match u.kind {
                        UnitKind::Move => {
                            if let Some(next) = next {
                                moves += 1;
                                marked += u.extra_mark as u32;
                                assert_eq!(
                                    u.extra_mark,
                                    next == *side,
                                    "{name} seed {seed}: {u} in {}",
                                    p.write(rules.board.len, rules.board.row_len)
                                );
                            }
                        }
                        UnitKind::Pass => {
                            passes += 1;
                            let lock = p.pieces[side.index()]
                                .iter()
                                .find_map(|s| rules.squares[s as usize].lock.as_ref());
                            let refused_exit = lock.is_some_and(|l| {
                                l.refused_exit_passes && l.exit_throws & (1 << u.throw) != 0
                            });
                            let none = lock.is_some_and(|l| l.no_extra) && !refused_exit;
                            assert_eq!(
                                u.extra_mark,
                                rules.throws.gives_extra(u.throw) && !none,
                                "{name} seed {seed}: {u} in {}",
                                p.write(rules.board.len, rules.board.row_len)
                            );
                            if let Some(next) = next {
                                assert!(
                                    u.extra_mark || next != *side,
                                    "{name} seed {seed}: {u} without `+` kept the turn in {}",
                                    p.write(rules.board.len, rules.board.row_len)
                                );
                            }
                        }
                        UnitKind::NoThrow | UnitKind::Skip => assert!(!u.extra_mark, "{name}: {u}"),
                    }
                }
            }
        }
        assert!(
            moves > 100_000 && passes > 1_000 && marked > 10_000,
            "{moves} moves, {passes} passes, {marked} marked"
        );
    }

    fn load(name: &str, options: &[&str]) -> Ruleset {
        let options: Vec<String> = options.iter().map(|o| o.to_string()).collect();
        crate::rules::load(name, None, &options).expect("built-in compiles")
    }

    /// A lock's move out with a throw (LK-11: `otherwise relocate to 15`)
    /// is a relocation by the lock: not counted or glossed as a backward
    /// move.
    #[test]
    fn a_lock_move_out_is_a_relocation_not_a_backward_move() {
        let rules = load("ludii-kendall", &[]);
        let pos = Position::parse("W9/B9/6W3 w 5-6 - 20", 30, 10).unwrap();
        let mut units = Vec::new();
        rules.legal_units(&pos, 2, &mut units);
        let out = units
            .iter()
            .find(|u| u.kind == UnitKind::Move && u.from == 27 && u.to == 15)
            .expect("the lock moves the piece out to 15");
        let (after, fx) = rules.play(&pos, out).unwrap();
        assert!(!fx.backward, "{out} counted as a backward move");
        let gloss = crate::engine::constructs::PlayedUnit {
            rules: &rules,
            unit: out,
            effects: &fx,
            before: &pos,
            after: &after,
            throw: "throw 2",
        }
        .gloss()
        .join("; ");
        assert_eq!(
            gloss,
            "throw 2; relocated out of square 27 (House of Water): 27 → 15"
        );
    }

    /// LK-16: a throw that would carry a piece past 26 while 27 is taken
    /// has no move, and the refusal cites the drop's declaration.
    #[test]
    fn a_drop_into_a_taken_water_cites_its_declaration() {
        let rules = load("ludii-kendall", &["trap"]);
        let pos = Position::parse("W9/B9/3W2B3 w 5-5 - 20", 30, 10).unwrap();
        let refused: Vec<_> = rules
            .refusals(&pos, 4)
            .into_iter()
            .filter(|r| r.from == 24 && r.to == 27)
            .collect();
        assert_eq!(refused.len(), 1, "{refused:?}");
        assert_eq!(refused[0].forbid, crate::engine::Forbid::DropTaken(26));
        assert_eq!(rules.clause_of(&refused[0], &pos), "LK-16");
        // With 27 empty the piece falls in, and the fall gives the 4's
        // extra throw (LK-6).
        let pos = Position::parse("W9/B9/3W6 w 5-6 - 20", 30, 10).unwrap();
        let mut units = Vec::new();
        rules.legal_units(&pos, 4, &mut units);
        assert!(
            units
                .iter()
                .any(|u| u.from == 24 && u.to == 27 && u.extra_mark),
            "{units:?}"
        );
    }

    /// A move that lands on a square that gives another throw is marked
    /// `+` whatever its value (LP-8), and one that goes back to the hand is
    /// not, whatever its value (PC-5).
    #[test]
    fn a_move_is_marked_by_what_it_gives() {
        let rules = load("ludii-piccione", &[]);
        let pos = Position::parse("10/W9/B9 w 0-0 hand:4-4 5", 30, 10).unwrap();
        let mut units = Vec::new();
        rules.legal_units(&pos, 4, &mut units);
        let u = units
            .iter()
            .find(|u| u.from == 11 && u.to == 15 && u.split.is_none())
            .unwrap();
        assert_eq!(u.to_string(), "4+:11-15");
        rules.legal_units(&pos, 3, &mut units);
        let u = units
            .iter()
            .find(|u| u.from == 11 && u.to == 14 && u.split.is_none())
            .unwrap();
        assert_eq!(u.to_string(), "3:11-14");
        let rules = load("piccione", &[]);
        let pos = Position::parse("W4B4/10/10 w 0-0 extra;fwd;bound:1;hand:4-4 3", 30, 10).unwrap();
        rules.legal_units(&pos, 5, &mut units);
        assert_eq!(
            units.iter().map(|u| u.to_string()).collect::<Vec<_>>(),
            ["5:1-hand"]
        );
    }

    /// The units a playout draws from, each marked only once it is
    /// chosen, are the listed units, in the same order, with the same
    /// marks.
    #[test]
    fn a_unit_marked_when_chosen_is_the_listed_unit() {
        let mut rng = Pcg64::seed_from_u64(11);
        let (mut listed, mut unmarked) = (Vec::new(), Vec::new());
        let mut compared = 0;
        let (mut plain, mut grouped) = (0, 0);
        for (name, rules) in variants() {
            for _ in 0..200 {
                let pos = random_position(&rules, &mut rng);
                for throw in rules.throws.distinct_values() {
                    rules.legal_units_inline(&pos, throw, &mut listed);
                    rules.legal_units_unmarked(&pos, throw, &mut unmarked);
                    for u in unmarked.iter_mut() {
                        rules.mark_move(&pos, u);
                    }
                    assert_eq!(listed, unmarked, "{name}: throw {throw} in {pos:?}");
                    compared += listed.len();
                    // The simulator's forms, one per shape of rule set:
                    // the general copy serves every rule set, the plain
                    // one those of the plain shape, the grouped one those
                    // of the grouped shape.
                    rules.legal_units_unmarked_shaped::<false, false>(
                        &pos,
                        throw,
                        false,
                        &mut unmarked,
                    );
                    for u in unmarked.iter_mut() {
                        rules.mark_move(&pos, u);
                    }
                    assert_eq!(
                        listed, unmarked,
                        "{name}: general copy, throw {throw} in {pos:?}"
                    );
                    if rules.plain_shape() {
                        rules.legal_units_unmarked_shaped::<true, false>(
                            &pos,
                            throw,
                            false,
                            &mut unmarked,
                        );
                        for u in unmarked.iter_mut() {
                            rules.mark_move(&pos, u);
                        }
                        assert_eq!(
                            listed, unmarked,
                            "{name}: plain copy, throw {throw} in {pos:?}"
                        );
                        plain += 1;
                    }
                    if rules.grouped_shape() {
                        rules.legal_units_unmarked_shaped::<false, true>(
                            &pos,
                            throw,
                            false,
                            &mut unmarked,
                        );
                        for u in unmarked.iter_mut() {
                            rules.mark_move(&pos, u);
                        }
                        assert_eq!(
                            listed, unmarked,
                            "{name}: grouped copy, throw {throw} in {pos:?}"
                        );
                        grouped += 1;
                    }
                }
            }
        }
        assert!(compared > 100_000, "{compared} units compared");
        assert!(plain > 10_000, "{plain} lists of the plain shape compared");
        // (`macabot` must have the grouped shape.)
        assert!(
            grouped > 1_000,
            "{grouped} lists of the grouped shape compared"
        );
    }

    /// A playout's pick of one unit is the listed unit at the index it
    /// picks, its `+` included, for every index: `pick_unit` (`None`
    /// exactly when the list is empty, `pick` asked once, with the length
    /// of the list), and the simulator's form, the stages with `count`
    /// and `nth_step_as`, in every copy. Positions at random and from random
    /// playouts (most of them calm, where the steps are counted rather
    /// than written, and the sure bear-offs beside them).
    #[test]
    fn a_picked_unit_is_the_listed_unit() {
        let mut rng = Pcg64::seed_from_u64(13);
        let (mut listed, mut out, mut listed_general) = (Vec::new(), Vec::new(), Vec::new());
        let (mut compared, mut counted, mut passes, mut offs, mut landings) = (0, 0, 0, 0, 0);
        let (mut waited, mut waited_counted) = (0, 0);
        let (mut splits, mut any_splits, mut split_passes) = (0, 0, 0);
        let (mut steps_beside, mut entries_beside) = (0, 0);
        let mut grouped_counted = 0;
        let (mut bound_counted, mut landings_beside) = (0, 0);
        // The steps counted beside split units, then written because the
        // split units were not counted after all (a part that hits or
        // that `attempt` must try): the lists, and the relocating
        // landings among those steps.
        let (mut written_beside, mut landings_written) = (0, 0);
        for (name, rules) in variants() {
            let general = referee(&rules);
            let mut positions: Vec<Position> =
                (0..30).map(|_| random_position(&rules, &mut rng)).collect();
            // More games of the splits in two, for enough of their rarer
            // lists: a throw bound to the piece that entered (PC-2), and
            // the water's landings beside split units (PC-7).
            let games = if rules.movement.split { 12 } else { 2 };
            for game in 0..games {
                let first = if game % 2 == 0 {
                    Side::White
                } else {
                    Side::Black
                };
                let mut pos = Position::start(&rules, first);
                for _ in 0..60 {
                    if rules.game_over(&pos) {
                        break;
                    }
                    rules.free_units(&pos, &mut out);
                    if out.is_empty() {
                        let throw = match rules.opening_throw(&pos) {
                            Some(t) => t,
                            None => rules.throws.from_bits(rng.random()),
                        };
                        positions.push(pos);
                        rules.legal_units(&pos, throw, &mut out);
                    }
                    if out.is_empty() {
                        break;
                    }
                    let unit = out[rng.random_range(0..out.len())];
                    rules
                        .apply(&mut pos, &unit)
                        .expect("a generated unit plays");
                }
            }
            for pos in &positions {
                for throw in rules.throws.distinct_values() {
                    rules.legal_units(pos, throw, &mut listed);
                    let at = |what: &str, i: usize| {
                        format!("{name}: {what}, throw {throw}, index {i} in {pos:?}")
                    };
                    if listed.is_empty() {
                        let got = rules.pick_unit(pos, throw, &mut out, |_| {
                            panic!("{}", at("pick asked for an empty list", 0))
                        });
                        assert_eq!(got, None, "{}", at("no unit", 0));
                    }
                    for i in 0..listed.len() {
                        let mut asked = 0;
                        let got = rules
                            .pick_unit(pos, throw, &mut out, |n| {
                                asked += 1;
                                assert_eq!(n, listed.len(), "{}", at("the count", i));
                                i
                            })
                            .copied();
                        assert_eq!(asked, 1, "{}", at("pick asked once", i));
                        assert_eq!(got, Some(listed[i]), "{}", at("picked", i));
                        compared += 1;
                    }
                    // The simulator's form, in each copy of the stages: told
                    // whether the position is calm by `calm`, and, where a
                    // piece waits for a bear-off without a throw that
                    // cannot be due (`calm_waiting`, a position `calm`
                    // does not take as calm), told that it is, as
                    // `draw_unit` tells the stages.
                    let waiting = rules.calm_waiting(pos);
                    waited += waiting as usize;
                    // The copies: 0 the general one, 1 the plain shape's,
                    // 2 the grouped shape's.
                    for (copy, told) in [0, 1, 2].into_iter().flat_map(|c| [(c, false), (c, true)])
                    {
                        if copy == 1 && !rules.plain_shape()
                            || copy == 2 && !rules.grouped_shape()
                            || told && !waiting
                        {
                            continue;
                        }
                        let plain = copy == 1;
                        let before = STEPS_WRITTEN_BESIDE_SPLITS.get();
                        let listing = match (copy, told) {
                            (1, false) => rules.legal_units_unmarked_shaped::<true, false>(
                                pos, throw, true, &mut out,
                            ),
                            (2, false) => rules.legal_units_unmarked_shaped::<false, true>(
                                pos, throw, true, &mut out,
                            ),
                            (_, false) => rules.legal_units_unmarked_shaped::<false, false>(
                                pos, throw, true, &mut out,
                            ),
                            (1, true) => rules.legal_units_unmarked_known::<true, false>(
                                pos, throw, true, true, &mut out,
                            ),
                            (2, true) => rules.legal_units_unmarked_known::<false, true>(
                                pos, throw, true, true, &mut out,
                            ),
                            (_, true) => rules.legal_units_unmarked_known::<false, false>(
                                pos, throw, true, true, &mut out,
                            ),
                        };
                        let steps = match listing {
                            Listed::Steps(steps) => steps,
                            Listed::Units(_) => {
                                for u in out.iter_mut() {
                                    rules.mark_move(pos, u);
                                }
                                assert_eq!(out, listed, "{}", at("listed, not counted", 0));
                                let [steps, lands] = STEPS_WRITTEN_BESIDE_SPLITS.get();
                                if steps != before[0] {
                                    // Against the general path too.
                                    general.legal_units(pos, throw, &mut listed_general);
                                    assert_eq!(
                                        out,
                                        listed_general,
                                        "{}",
                                        at("steps written beside split units", 0)
                                    );
                                    written_beside += 1;
                                    landings_written += lands - before[1];
                                }
                                continue;
                            }
                            Listed::Splits {
                                steps,
                                splits: n,
                                cuts,
                            } => {
                                // The split units counted after the steps
                                // counted beside them and the units written.
                                let written = out.clone();
                                let stepped = steps.count_ones() as usize;
                                let pass = usize::from(rules.movement.voluntary_pass);
                                assert_eq!(
                                    stepped + written.len() + n + pass,
                                    listed.len(),
                                    "{}",
                                    at("split units counted", 0)
                                );
                                steps_beside += stepped;
                                entries_beside += usize::from(stepped != 0 && !written.is_empty());
                                // (A throw bound to a piece, PC-2.)
                                bound_counted += usize::from(pos.bound.is_some() && n != 0);
                                for (i, unit) in listed.iter().enumerate() {
                                    out.clone_from(&written);
                                    let got = *rules.nth_listed_or_split(
                                        pos,
                                        throw,
                                        steps,
                                        written.len(),
                                        n,
                                        cuts,
                                        i,
                                        &mut out,
                                    );
                                    assert_eq!(got, *unit, "{}", at("nth split", i));
                                    splits +=
                                        usize::from(rules.movement.split && got.split.is_some());
                                    any_splits += usize::from(!got.more.is_empty());
                                    split_passes += usize::from(got.kind == UnitKind::Pass);
                                    landings_beside +=
                                        usize::from(i < stepped && got.relocated.is_some());
                                }
                                continue;
                            }
                        };
                        assert_eq!(rules.counted(steps), listed.len(), "{}", at("counted", 0));
                        counted += 1;
                        waited_counted += told as usize;
                        grouped_counted += usize::from(copy == 2);
                        for (i, unit) in listed.iter().enumerate() {
                            let got = if plain {
                                *rules.nth_step_as::<true>(pos, throw, steps, i, &mut out)
                            } else {
                                *rules.nth_step_as::<false>(pos, throw, steps, i, &mut out)
                            };
                            assert_eq!(got, *unit, "{}", at("nth_step", i));
                            passes += (got.kind == UnitKind::Pass) as usize;
                            offs += got.off as usize;
                            landings += got.relocated.is_some() as usize;
                        }
                    }
                }
            }
        }
        assert!(compared > 100_000, "{compared} units compared");
        assert!(counted > 20_000, "{counted} lists counted");
        assert!(
            grouped_counted > 1_000,
            "{grouped_counted} lists counted by the grouped shape's copy"
        );
        assert!(passes > 1_000, "{passes} voluntary passes counted");
        assert!(offs > 1_000, "{offs} sure bear-offs counted");
        // The relocating landings counted beside the steps (K-11, JQ-8).
        assert!(landings > 1_000, "{landings} relocating landings counted");
        // A piece waiting on 30 for a bear-off without a throw (MC-8).
        assert!(waited > 200, "{waited} positions with a piece waiting");
        assert!(waited_counted > 200, "{waited_counted} of them counted");
        // The split units counted rather than written (PC-3).
        assert!(splits > 1_000, "{splits} split units counted");
        // The voluntary pass after split units counted.
        assert!(
            split_passes > 100,
            "{split_passes} passes after split units"
        );
        // Units of three parts or more, counted (LP-3).
        assert!(
            any_splits > 1_000,
            "{any_splits} units in any number of parts counted"
        );
        // Ordinary steps counted beside the split units, and entries from
        // the hand written between the two.
        assert!(
            steps_beside > 1_000,
            "{steps_beside} steps counted beside split units"
        );
        assert!(
            entries_beside > 100,
            "{entries_beside} lists with an entry between counted steps and split units"
        );
        // Relocating landings counted beside split units (PC-7's water).
        assert!(
            landings_beside > 100,
            "{landings_beside} relocating landings counted beside split units"
        );
        // Split units counted where the throw is bound to a piece (PC-2).
        assert!(
            bound_counted > 100,
            "{bound_counted} lists of a bound throw's split units counted"
        );
        // Steps counted beside split units, then written.
        assert!(
            written_beside > 100,
            "{written_beside} lists with steps written beside split units not counted"
        );
        assert!(
            landings_written > 20,
            "{landings_written} relocating landings written beside split units not counted"
        );
    }

    /// A position that `calm_and_free` finds calm has no unit due without
    /// a throw and no opening's throw: a playout that asks it first skips
    /// `free_units` and `opening_throw` (the simulator's `draw_unit`).
    /// Positions at random and from random playouts of every variant.
    #[test]
    fn a_calm_position_has_no_unit_without_a_throw() {
        let mut rng = Pcg64::seed_from_u64(17);
        let mut out = Vec::new();
        let (mut calm, mut free, mut opening, mut waiting) = (0, 0, 0, 0);
        for (name, rules) in variants() {
            let mut positions: Vec<Position> = (0..300)
                .map(|_| random_position(&rules, &mut rng))
                .collect();
            for first in [Side::White, Side::Black] {
                let mut pos = Position::start(&rules, first);
                for _ in 0..300 {
                    if rules.game_over(&pos) {
                        break;
                    }
                    positions.push(pos);
                    rules.free_units(&pos, &mut out);
                    if out.is_empty() || rng.random() {
                        let throw = match rules.opening_throw(&pos) {
                            Some(t) => t,
                            None => rules.throws.from_bits(rng.random()),
                        };
                        rules.legal_units(&pos, throw, &mut out);
                    }
                    if out.is_empty() {
                        break;
                    }
                    let unit = out[rng.random_range(0..out.len())];
                    rules
                        .apply(&mut pos, &unit)
                        .expect("a generated unit plays");
                }
            }
            // The units due without a throw as the general path finds
            // them (the tables' quick answer is itself a mask test).
            let general = referee(&rules);
            for pos in &positions {
                general.free_units(pos, &mut out);
                let throw = rules.opening_throw(pos);
                if rules.calm_and_free(pos) {
                    assert!(
                        out.is_empty(),
                        "{name}: calm, free units {out:?} in {pos:?}"
                    );
                    assert_eq!(throw, None, "{name}: calm, an opening's throw in {pos:?}");
                    calm += 1;
                } else if rules.calm_waiting(pos) {
                    // The simulator's second test (`draw_unit`): a piece
                    // waiting for a bear-off without a throw that cannot
                    // be due (MC-8).
                    assert!(
                        out.is_empty(),
                        "{name}: waiting, free units {out:?} in {pos:?}"
                    );
                    assert_eq!(
                        throw, None,
                        "{name}: waiting, an opening's throw in {pos:?}"
                    );
                    waiting += 1;
                } else {
                    free += !out.is_empty() as usize;
                    opening += throw.is_some() as usize;
                }
            }
        }
        assert!(calm > 50_000, "{calm} calm positions");
        assert!(free > 5_000, "{free} positions with units without a throw");
        assert!(opening > 10, "{opening} positions with an opening's throw");
        assert!(
            waiting > 500,
            "{waiting} positions with a piece waiting (MC-8)"
        );
    }

    #[test]
    fn fast_path_equals_general_path() {
        let mut rng = Pcg64::seed_from_u64(5);
        let mut served = 0;
        let mut bare = 0;
        let mut onward = 0;
        let mut home = 0;
        let mut home_due = 0;
        let mut locked_passes = 0;
        for (name, fast) in variants() {
            if !fast.tables.enabled {
                continue;
            }
            onward += fast.tables.plain.onward_any as usize;
            home += fast.tables.plain_home as usize;
            served += 1;
            bare += fast.plain_bare() as usize;
            let slow = referee(&fast);
            // The passes played plainly by a side with a piece on a lock
            // square (the water of `bga`, B-12b), which `compare` plays
            // both ways with the rest.
            let mut count_locked_passes = |pos: &Position| {
                let me = pos.pieces[pos.to_move.index()].0;
                if me & fast.tables.lock.squares == 0 {
                    return;
                }
                let mut units = Vec::new();
                for t in fast.throws.distinct_values() {
                    fast.legal_units(pos, t, &mut units);
                    locked_passes += units
                        .iter()
                        .filter(|u| u.kind == UnitKind::Pass && fast.plays_plainly(pos, u))
                        .count();
                }
            };
            for _ in 0..300 {
                let pos = random_position(&fast, &mut rng);
                count_locked_passes(&pos);
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
                    count_locked_passes(&pos);
                    match compare(&name, &fast, &slow, &pos, &mut rng) {
                        Some(next) => {
                            // A bear-off made due by the unit just played
                            // (by the inlined copy, under `plain_home`).
                            home_due += usize::from(
                                fast.tables.plain_home
                                    && fast.auto_off_due(&pos).is_none()
                                    && fast.auto_off_due(&next).is_some(),
                            );
                            pos = next;
                        }
                        None => break,
                    }
                }
            }
        }
        assert!(served >= 10, "the fast path served only {served} rule sets");
        // Both copies of the plain play are compared.
        assert!(
            bare >= 10 && bare < served,
            "{bare} of {served} rule sets bare"
        );
        // The plain play's copy for landings relocated to a square is
        // compared too (the water of kendall, thai, meub and others).
        assert!(
            onward >= 5,
            "{onward} rule sets play relocated landings plainly"
        );
        // And the inlined copy for the landings in the region of a
        // bear-off without a throw (`macabot`).
        assert!(
            home >= 1,
            "{home} rule sets play their home landings inlined"
        );
        assert!(
            home_due >= 10,
            "{home_due} bear-offs made due under the inlined home landings"
        );
        // So are passes by a side with a piece on a lock square whose
        // lock ends the turn of every pass (`PlainSquares::pass_held`).
        assert!(
            locked_passes >= 100,
            "{locked_passes} passes with a piece on a lock square played plainly"
        );
    }

    /// PC-7 (LP-7): the parts of a split throw that land in the House of
    /// Water are written from the table of moves that send the mover back
    /// to its hand (`Steps::fwd_hand`), as first part, as second part and
    /// as a later part of a throw in any number of parts: the same units as
    /// the general path, in positions with pieces of the side to move in
    /// reach of the water (squares 22 to 26), and such units do occur with
    /// the part into the water in each of those places.
    #[test]
    fn split_parts_into_the_water_equal_general_path() {
        let mut rng = Pcg64::seed_from_u64(27);
        for name in ["piccione", "ludii-piccione"] {
            let fast = crate::rules::load(name, None, &[]).expect("built-in compiles");
            assert!(
                fast.tables.steps.split_masks,
                "{name}: split from the masks"
            );
            assert!(
                fast.tables.steps.fwd_hand.iter().any(|&s| s != 0),
                "{name}: moves into the water in the tables"
            );
            let slow = referee(&fast);
            // Parts of split units that go into the water, by their
            // place: the first, the second, a later one.
            let mut to_hand = [0usize; 3];
            for _ in 0..400 {
                let mut pos = random_position(&fast, &mut rng);
                let side = pos.to_move.index();
                for _ in 0..2 {
                    let s = rng.random_range(22..=26);
                    // (A piece borne off or in the hand comes back.)
                    if pos.pieces[0].contains(s) || pos.pieces[1].contains(s) {
                        continue;
                    }
                    if pos.off[side] > 0 {
                        pos.off[side] -= 1;
                    } else if pos.hand[side] > 0 {
                        pos.hand[side] -= 1;
                    } else {
                        continue;
                    }
                    pos.pieces[side].insert(s);
                }
                compare(name, &fast, &slow, &pos, &mut rng);
                let mut units = Vec::new();
                for t in fast.throws.distinct_values() {
                    fast.legal_units(&pos, t, &mut units);
                    for u in units.iter().filter(|u| u.split.is_some()) {
                        for (i, p) in u.parts().enumerate() {
                            if p.relocated == Some(Relocated::Hand) {
                                to_hand[i.min(2)] += 1;
                            }
                        }
                    }
                }
            }
            // Throws in any number of parts have later parts; two-part
            // splits have none.
            let places = if fast.movement.split_any { 3 } else { 2 };
            for (place, &n) in to_hand.iter().enumerate() {
                if place < places {
                    let which = ["first", "second", "a later"][place];
                    assert!(
                        n > 100,
                        "{name}: {n} parts into the water as {which} part ({to_hand:?})"
                    );
                } else {
                    assert_eq!(n, 0, "{name}: later parts of a two-part split");
                }
            }
        }
    }
}
