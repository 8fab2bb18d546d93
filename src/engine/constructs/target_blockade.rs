//! Blockades on forward moves that depend on the target: which opposing
//! pieces a forward move may not pass over (strictly between its ends)
//! depends on where it ends, case by case. A case names its targets by
//! squares or by a protection condition the target meets (`onto inner of
//! run`); the first case whose targets include the move's target decides,
//! else the `otherwise` case. The pieces a case forbids passing are those
//! for which its condition holds, a protection condition over the passed
//! piece (`passing run = 2`). Backward moves are never concerned.
//!
//! The model value with its clauses, the test `attempt` and a bear-off
//! make, its compiled masks (the squares from which an ordinary forward
//! step is blocked, for the forward stage: `Masks`,
//! `Ruleset::protected_and_target_blocked`), and its words: how `senet rules
//! show` says it, its token in `senet rules summary`, and how a move it
//! refuses reads.

use super::blockade::spread;
use super::groups::spread_short;
use super::protection::{self, PROGRAM_DEPTH, PredOp, RunClasses, postfix, program_runs};
use super::words::*;
use crate::engine::*;

/// `blockade on forward moves: onto ... passing ...; otherwise passing ...`.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetBlockade {
    /// The cases in the order written; the last has no `onto`
    /// (`otherwise`).
    pub cases: Vec<TargetCase>,
    pub clause: Clause,
}

/// One case: for a forward move whose target meets `onto` (`None`: every
/// target), no opposing piece for which `passing` holds may stand strictly
/// between its ends.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetCase {
    pub onto: Option<Onto>,
    pub passing: Pred,
}

/// The targets of a case.
#[derive(Debug, Clone, PartialEq)]
pub enum Onto {
    /// One of these squares.
    Squares(SquareSet),
    /// A square on the board for which the condition holds (an empty
    /// square is in no run and has no owner).
    Pred(Pred),
}

// Words.

impl TargetBlockade {
    /// `rules show`.
    pub fn sentence(&self, names: &Names) -> String {
        let cases: Vec<String> = self
            .cases
            .iter()
            .map(|c| {
                let onto = match &c.onto {
                    None => "onto any other square".to_string(),
                    Some(Onto::Squares(s)) => format!("onto {}", names.set(*s)),
                    Some(Onto::Pred(p)) => format!("onto a piece where {}", p.sentence(names)),
                };
                format!("{onto}, one where {}", c.passing.sentence(names))
            })
            .collect();
        format!(
            "A forward move may not pass over (strictly between its ends) an opposing piece as the first case that fits its target says: {}. Backward moves are not concerned.",
            cases.join("; ")
        )
    }

    /// The `rules summary` line.
    pub fn token(&self) -> String {
        let cases: Vec<String> = self
            .cases
            .iter()
            .map(|c| {
                let onto = match &c.onto {
                    None => "otherwise".to_string(),
                    Some(Onto::Squares(s)) => format!("onto {}", set_token(*s)),
                    Some(Onto::Pred(p)) => format!("onto {}", p.token()),
                };
                format!("{onto} passing {}", c.passing.token())
            })
            .collect();
        format!(
            "blockade on forward moves: {}{}",
            cases.join("; "),
            cl(&self.clause)
        )
    }
}

/// A forward move refused for passing over a piece that case `i` forbids
/// passing.
pub(crate) fn refused(cx: &Refused, i: u8) -> Said {
    let why = cx
        .rules
        .target_blockade()
        .and_then(|b| b.cases.get(i as usize))
        .map(|c| {
            c.passing.sentence(&Names {
                houses: cx.rules.houses(),
            })
        })
        .unwrap_or_default();
    Said::new(
        "blockade in the way",
        format!(
            "the move from {} to {} passes over a {} piece where {why}, which blocks a move ending there",
            cx.refusal.from,
            cx.sq(cx.refusal.to),
            cx.side().other()
        ),
    )
}

// The compiled form: each case's targets and the pieces it forbids
// passing as masks, for every ordinary forward step at once.

/// The blockade on forward moves as the forward stage applies it to
/// ordinary steps, compiled with the rule set ([`Masks::compile`]): the
/// cases' conditions as one postfix program (as protection's,
/// `protection.rs`) over the opposing pieces, which leaves each
/// condition's mask on its stack.
#[derive(Debug, Clone, Default)]
pub(crate) struct Masks {
    /// The rule set has the blockade and every case has this form: the
    /// forward tables keep its ordinary steps, which
    /// [`Ruleset::protected_and_target_blocked`] clears. Otherwise every forward
    /// move of a rule set with the blockade is left to `attempt`.
    pub tabled: bool,
    /// The programs of the conditions, one after another.
    prog: Vec<PredOp>,
    /// The program has run-length or middle-of-run leaves.
    runs: bool,
    /// The program as tables by run class, where its leaves allow:
    /// evaluated in its place.
    classes: Option<RunClasses>,
    /// The cases, in the order of the model's.
    cases: Vec<CaseMasks>,
    /// Where `classes` also leave the protection rule's mask, when the
    /// protection rule is read from tables by run class as well
    /// ([`Masks::share_protection`]): both from one look at the opposing
    /// pieces' runs.
    pub protection_at: Option<usize>,
}

#[derive(Debug, Clone)]
struct CaseMasks {
    onto: OntoMasks,
    /// Where the program leaves the mask of the pieces it forbids passing.
    passing: usize,
}

/// A case's targets.
#[derive(Debug, Clone)]
enum OntoMasks {
    /// These squares (all of them for `otherwise`).
    Squares(u64),
    /// The squares for which a condition holds: on an opposing piece as
    /// the program's value `at` says, on an empty square as `empty` says
    /// (a square a piece of the side to move stands on is never an
    /// ordinary step's target).
    Pred { at: usize, empty: u64 },
}

impl Masks {
    /// The masks of the rule set's blockade on forward moves; not
    /// `tabled` without one, or when the conditions nest too deep for a
    /// program or a target's condition reads the whole board (`taken`).
    pub(crate) fn compile(rules: &Ruleset) -> Masks {
        let Some(b) = &rules.target_blockade else {
            return Masks::default();
        };
        let mut prog = Vec::new();
        let mut depth = 0;
        let mut push = |p: &Pred, prog: &mut Vec<PredOp>| {
            postfix(p, prog, depth)?;
            depth += 1;
            Some(depth - 1)
        };
        let cases: Option<Vec<CaseMasks>> = b
            .cases
            .iter()
            .map(|c| {
                let onto = match &c.onto {
                    None => OntoMasks::Squares(u64::MAX),
                    Some(Onto::Squares(s)) => OntoMasks::Squares(s.0),
                    Some(Onto::Pred(p)) => OntoMasks::Pred {
                        empty: on_empty(p)?,
                        at: push(p, &mut prog)?,
                    },
                };
                Some(CaseMasks {
                    onto,
                    passing: push(&c.passing, &mut prog)?,
                })
            })
            .collect();
        match cases {
            Some(cases) => Masks {
                tabled: true,
                runs: program_runs(&prog),
                classes: RunClasses::compile(&prog),
                prog,
                cases,
                protection_at: None,
            },
            None => Masks::default(),
        }
    }

    /// Adds the protection rule's program to the tables by run class,
    /// where both the blockade and the protection rule are read from
    /// such tables (`gym-senet-skiryuk`): the opposing pieces' classes,
    /// found once, then give both masks.
    pub(crate) fn share_protection(&mut self, protection: &protection::Masks) {
        let Some(rc) = &self.classes else {
            return;
        };
        if !protection.by_classes_alone() {
            return;
        }
        let at = rc.values();
        let mut prog = self.prog.clone();
        prog.extend_from_slice(&protection.program);
        if let Some(both) = RunClasses::compile(&prog) {
            self.classes = Some(both);
            self.protection_at = Some(at);
        }
    }
}

/// The squares on which an empty square meets `pred`, as `Ruleset::eval`
/// finds for a square without a piece (in no run, no owner); `None` when
/// that depends on the position (`taken`).
fn on_empty(pred: &Pred) -> Option<u64> {
    Some(match pred {
        Pred::RunLength { lengths, .. } => mask_of(lengths & 1 != 0),
        Pred::Middle { .. }
        | Pred::EndOfRun { .. }
        | Pred::InnerOfRun { .. }
        | Pred::OwnerSkips { .. }
        | Pred::OwnerOn { .. }
        | Pred::OwnerBeside { .. }
        | Pred::Group { .. } => 0,
        Pred::OnSquare { squares, .. } => squares.0,
        Pred::Taken { .. } => return None,
        Pred::And(ps) => ps
            .iter()
            .try_fold(u64::MAX, |m, q| Some(m & on_empty(q)?))?,
        Pred::Or(ps) => ps.iter().try_fold(0, |m, q| Some(m | on_empty(q)?))?,
        Pred::Not(q) => !on_empty(q)?,
    })
}

/// [`spread`]`::<false>`: by three shifts ([`spread_short`]) for the
/// steps of the usual throws (below 9 squares), which cost a dozen
/// instructions less a call than `spread`'s windows picked from an
/// array. (Its test follows the throw, and is taken the same way for
/// every throw of a rule set whose steps are all short.)
#[inline(always)]
fn spread_between(x: u64, k: u32) -> u64 {
    if k < 8 {
        spread_short(x, k)
    } else {
        spread::<false>(x, k)
    }
}

impl Ruleset {
    /// The squares from which an ordinary forward step of `step` squares
    /// (one the forward tables keep: it ends on the board, `step` squares
    /// on) is refused by the blockade on forward moves, as
    /// [`target_blocked`](Self::target_blocked) finds move by move, among
    /// the squares of the side to move (the others may read either way);
    /// 0 without the masks. (For the tests: the forward stage asks for it
    /// with protection, [`protected_and_target_blocked`](Self::protected_and_target_blocked).)
    #[cfg(test)]
    pub(crate) fn target_blocked_steps(&self, pos: &Position, step: u8) -> u64 {
        if self.tables.target.tabled {
            self.target_blocked_masks(pos, step)
        } else {
            0
        }
    }

    /// The squares from which an ordinary forward step of `step` squares
    /// (one the forward tables keep: it ends on the board, `step` squares
    /// on) is refused by the blockade on forward moves, as
    /// [`target_blocked`](Self::target_blocked) finds move by move, from
    /// the masks: each case takes the targets that meet it and no earlier
    /// case, and blocks a step to one of them that passes a piece for
    /// which its condition holds. Exact on the squares of the side to
    /// move, the only squares a step starts from.
    #[inline(never)]
    fn target_blocked_masks(&self, pos: &Position, step: u8) -> u64 {
        let f = &self.tables.target;
        let them = pos.to_move.other();
        let opp = pos.pieces[them.index()].0;
        let me = pos.pieces[pos.to_move.index()].0;
        // From s, the squares strictly between: s+1 ..= s+step-1.
        let between = u32::from(step).saturating_sub(1);
        // Only a step that passes an opposing piece can be blocked: when
        // no piece of the side to move has one among the squares it
        // passes (always for a step of one square), the program is not run.
        if spread_between(opp >> 1, between) & me == 0 {
            return 0;
        }
        let empty = !(opp | me);
        if let Some(rc) = &f.classes {
            let (_, bits) = self.run_bits(pos, them);
            // Specialised by the tables' `k`: their loops unrolled.
            return match rc.k() {
                3 => self.target_by_classes::<3>(rc, bits, opp, empty, step),
                4 => self.target_by_classes::<4>(rc, bits, opp, empty, step),
                5 => self.target_by_classes::<5>(rc, bits, opp, empty, step),
                6 => self.target_by_classes::<6>(rc, bits, opp, empty, step),
                7 => self.target_by_classes::<7>(rc, bits, opp, empty, step),
                _ => self.target_by_classes::<8>(rc, bits, opp, empty, step),
            };
        }
        let mut values = [0u64; PROGRAM_DEPTH];
        if self
            .program_stack(&f.prog, f.runs, pos, them, &mut values)
            .is_none()
        {
            self.target_walk(pos, them, &mut values);
        }
        let (mut decided, mut blocked) = (0u64, 0u64);
        for c in &f.cases {
            let targets = match c.onto {
                OntoMasks::Squares(s) => s,
                OntoMasks::Pred { at, empty: e } => (values[at] & opp) | (e & empty),
            } & !decided;
            decided |= targets;
            let passing = values[c.passing] & opp;
            blocked |= spread_between(passing >> 1, between) & (targets >> step);
        }
        blocked
    }

    /// The opposing pieces protected (as `protected_if` gives them, where
    /// `needed`) and the steps the blockade on forward moves refuses
    /// ([`target_blocked_masks`](Self::target_blocked_masks); 0 without
    /// its masks), from one look at the opposing pieces' run classes where the
    /// tables hold both (`Masks::protection_at`).
    #[inline(always)]
    pub(crate) fn protected_and_target_blocked(
        &self,
        pos: &Position,
        step: u8,
        needed: bool,
    ) -> (u64, u64) {
        // (The shared tables only with the blockade's masks: the one test
        // of `tabled` for a rule set without them.)
        let f = &self.tables.target;
        let prot = |rules: &Ruleset| rules.protected_if(pos, pos.to_move.other(), needed);
        match (f.tabled, f.protection_at) {
            (false, _) => (prot(self), 0),
            (true, Some(at)) => self.protected_and_target_by_classes(pos, step, needed, at),
            (true, None) => (prot(self), self.target_blocked_masks(pos, step)),
        }
    }

    /// [`protected_and_target_blocked`](Self::protected_and_target_blocked)
    /// from the shared tables: nothing when neither mask is asked for
    /// (no step lands on an opposing piece, none passes one); the
    /// protection mask, cheap beside the classes, whether asked for or
    /// not once they are found.
    #[inline(never)]
    fn protected_and_target_by_classes(
        &self,
        pos: &Position,
        step: u8,
        needed: bool,
        at: usize,
    ) -> (u64, u64) {
        let f = &self.tables.target;
        let Some(rc) = &f.classes else {
            unreachable!("`protection_at` is set with the tables")
        };
        let them = pos.to_move.other();
        let opp = pos.pieces[them.index()].0;
        let me = pos.pieces[pos.to_move.index()].0;
        let between = u32::from(step).saturating_sub(1);
        let passes = spread_between(opp >> 1, between) & me != 0;
        if !(passes || needed) {
            return (0, 0);
        }
        let empty = !(opp | me);
        let (_, bits) = self.run_bits(pos, them);
        match rc.k() {
            3 => self.both_by_classes::<3>(rc, bits, opp, empty, step, passes, at),
            4 => self.both_by_classes::<4>(rc, bits, opp, empty, step, passes, at),
            5 => self.both_by_classes::<5>(rc, bits, opp, empty, step, passes, at),
            6 => self.both_by_classes::<6>(rc, bits, opp, empty, step, passes, at),
            7 => self.both_by_classes::<7>(rc, bits, opp, empty, step, passes, at),
            _ => self.both_by_classes::<8>(rc, bits, opp, empty, step, passes, at),
        }
    }

    /// [`protected_and_target_by_classes`](Self::protected_and_target_by_classes)
    /// for the tables' `k` (`K`): the protected pieces, and the blocked
    /// steps where a step `passes` an opposing piece.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn both_by_classes<const K: usize>(
        &self,
        rc: &RunClasses,
        bits: u64,
        opp: u64,
        empty: u64,
        step: u8,
        passes: bool,
        at: usize,
    ) -> (u64, u64) {
        let classes = rc.classes_k::<K>(bits);
        let prot = rc.value_k::<K>(&classes, at) & opp;
        let blocked = if passes {
            self.cases_by_classes::<K>(rc, &classes, opp, empty, step)
        } else {
            0
        };
        (prot, blocked)
    }

    /// [`target_blocked_masks`](Self::target_blocked_masks) from the
    /// program's tables by run class (`rc`, whose `k` is `K`), for the
    /// opposing pieces `opp` (`bits` of them where runs count) and the
    /// empty squares `empty`: each case's values taken from the classes
    /// where the case reads them.
    #[inline(always)]
    fn target_by_classes<const K: usize>(
        &self,
        rc: &RunClasses,
        bits: u64,
        opp: u64,
        empty: u64,
        step: u8,
    ) -> u64 {
        let classes = rc.classes_k::<K>(bits);
        self.cases_by_classes::<K>(rc, &classes, opp, empty, step)
    }

    /// The blocked steps of [`target_by_classes`](Self::target_by_classes)
    /// from the opposing pieces' classes.
    #[inline(always)]
    fn cases_by_classes<const K: usize>(
        &self,
        rc: &RunClasses,
        classes: &[u64; super::protection::RUN_CLASSES],
        opp: u64,
        empty: u64,
        step: u8,
    ) -> u64 {
        let between = u32::from(step).saturating_sub(1);
        let (mut decided, mut blocked) = (0u64, 0u64);
        for c in &self.tables.target.cases {
            let targets = match c.onto {
                OntoMasks::Squares(s) => s,
                OntoMasks::Pred { at, empty: e } => {
                    (rc.value_k::<K>(classes, at) & opp) | (e & empty)
                }
            } & !decided;
            decided |= targets;
            let passing = rc.value_k::<K>(classes, c.passing) & opp;
            blocked |= spread_between(passing >> 1, between) & (targets >> step);
        }
        blocked
    }

    /// The values of the blockade's program, each condition walked
    /// ([`pred_mask`](Self::pred_mask)): for a run longer than a side's
    /// pieces, in a position written by hand.
    #[cold]
    fn target_walk(&self, pos: &Position, them: Side, values: &mut [u64; PROGRAM_DEPTH]) {
        let Some(b) = &self.target_blockade else {
            return;
        };
        for (c, model) in self.tables.target.cases.iter().zip(&b.cases) {
            if let (OntoMasks::Pred { at, .. }, Some(Onto::Pred(p))) = (&c.onto, &model.onto) {
                values[*at] = self.pred_mask(p, pos, them);
            }
            values[c.passing] = self.pred_mask(&model.passing, pos, them);
        }
    }
}

// The generator's side: the test of one forward move.

impl Ruleset {
    /// The case of the blockade on forward moves that refuses a forward
    /// move ending on `to` (the square past the last for a bear-off) and
    /// passing over `path` (the squares strictly between its ends), as an
    /// index into its cases; `None` when the move passes.
    // The test of the construct inlined: most rule sets have none, and paid
    // for the call.
    #[inline(always)]
    pub(crate) fn target_blocked(&self, pos: &Position, path: u64, to: u8) -> Option<u8> {
        let b = self.target_blockade.as_ref()?;
        self.target_blocked_by(b, pos, path, to)
    }

    /// [`target_blocked`](Self::target_blocked) for the rule set's blockade
    /// on forward moves `b`.
    #[inline(never)]
    fn target_blocked_by(
        &self,
        b: &TargetBlockade,
        pos: &Position,
        path: u64,
        to: u8,
    ) -> Option<u8> {
        let them = pos.to_move.other();
        let passed = pos.pieces[them.index()].0 & path;
        if passed == 0 {
            return None;
        }
        let on_board = to <= self.board.len;
        let i = b.cases.iter().position(|c| match &c.onto {
            None => true,
            Some(Onto::Squares(s)) => s.contains(to),
            Some(Onto::Pred(p)) => on_board && self.eval(p, pos, to),
        })?;
        (self.pred_mask(&b.cases[i].passing, pos, them) & passed != 0).then_some(i as u8)
    }

    /// The clause of case `i`: the clauses its condition cites.
    pub(crate) fn target_blockade_clause(&self, i: u8) -> Clause {
        self.target_blockade
            .as_ref()
            .and_then(|b| b.cases.get(i as usize))
            .map(|c| c.passing.clauses().join(", "))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::between;
    use crate::engine::testing::{random_position, variants};
    use rand::SeedableRng;
    use rand_pcg::Pcg64;

    /// The spread by three shifts for short steps is `spread`'s, for every
    /// step `spread` takes.
    #[test]
    fn spread_between_is_spread() {
        let mut rng = Pcg64::seed_from_u64(5);
        for _ in 0..200 {
            let x = rand::Rng::random::<u64>(&mut rng);
            for k in 0..32 {
                assert_eq!(spread_between(x, k), spread::<false>(x, k), "{x:#x} by {k}");
            }
        }
    }

    /// The blockade's cases read from the tables by run class give the
    /// steps the program gives, for every step of 1 to 6 squares, in every
    /// variant whose program has the tables.
    #[test]
    fn run_classes_give_the_programs_blocked_steps() {
        let mut rng = Pcg64::seed_from_u64(5);
        let (mut sets, mut blocked) = (0, 0);
        for (name, rules) in variants() {
            if rules.tables.target.classes.is_none() {
                continue;
            }
            sets += 1;
            let mut program = rules.clone();
            program.tables.target.classes = None;
            program.tables.target.protection_at = None;
            for _ in 0..600 {
                let pos = random_position(&rules, &mut rng);
                let me = pos.pieces[pos.to_move.index()].0;
                for step in 1..=6 {
                    let got = rules.target_blocked_steps(&pos, step) & me;
                    blocked += usize::from(got != 0);
                    assert_eq!(
                        got,
                        program.target_blocked_steps(&pos, step) & me,
                        "{name}: step {step} in {}",
                        pos.write(30, 10)
                    );
                }
            }
        }
        assert!(
            sets >= 3 && blocked >= 300,
            "{sets} rule sets, {blocked} blocked"
        );
    }

    /// Where the tables by run class hold the protection rule beside the
    /// blockade (`gym-senet-skiryuk`), the two masks from one look at the
    /// classes are those of protection and the blockade each alone, for
    /// every step of 1 to 6 squares; the blocked steps too where
    /// protection is not asked for.
    #[test]
    fn shared_classes_give_protection_and_blocked_steps() {
        let skiryuk = crate::rules::load("gym-senet-skiryuk", None, &[]).unwrap();
        assert!(skiryuk.tables.target.protection_at.is_some());
        let mut rng = Pcg64::seed_from_u64(9);
        let (mut sets, mut protected, mut blocked) = (0, 0, 0);
        for (name, rules) in variants() {
            if rules.tables.target.protection_at.is_none() {
                continue;
            }
            sets += 1;
            let mut apart = rules.clone();
            apart.tables.target.protection_at = None;
            for _ in 0..600 {
                let pos = random_position(&rules, &mut rng);
                let me = pos.pieces[pos.to_move.index()].0;
                let opp = pos.pieces[pos.to_move.other().index()].0;
                for step in 1..=6 {
                    let (prot, got) = rules.protected_and_target_blocked(&pos, step, true);
                    let want_prot = apart.protected_mask(&pos, pos.to_move.other()) & opp;
                    let want = apart.target_blocked_steps(&pos, step) & me;
                    let at = format!("{name}: step {step} in {}", pos.write(30, 10));
                    assert_eq!(prot & opp, want_prot, "protected, {at}");
                    assert_eq!(got & me, want, "blocked, {at}");
                    let (_, alone) = rules.protected_and_target_blocked(&pos, step, false);
                    assert_eq!(alone & me, want, "blocked without protection, {at}");
                    protected += want_prot.count_ones();
                    blocked += usize::from(want != 0);
                }
            }
        }
        assert!(
            sets >= 1 && protected >= 1000 && blocked >= 300,
            "{sets} rule sets, {protected} protected, {blocked} blocked"
        );
    }

    /// The case is chosen by the target: onto the inner piece 13 the end
    /// 12 of a run of three may be passed; onto the empty 15 or 16 it may
    /// not, nor onto 26 past the inner piece; backward moves are no case.
    #[test]
    fn the_target_chooses_the_case() {
        let rules = crate::rules::load("gym-senet-skiryuk", None, &[]).unwrap();
        let pos = Position::parse("10/WBBB6/10 w 4-2 - 1", 30, 10).unwrap();
        let path = |a: u8, b: u8| between(a, b);
        assert_eq!(rules.target_blocked(&pos, path(11, 13), 13), None);
        assert_eq!(rules.target_blocked(&pos, path(11, 15), 15), Some(2));
        assert_eq!(rules.target_blocked(&pos, path(11, 26), 26), Some(1));
        // Nothing opposing on the way: no case is looked at.
        assert_eq!(rules.target_blocked(&pos, path(15, 20), 20), None);
        let words = rules.target_blockade().unwrap().token();
        assert!(words.starts_with("blockade on forward moves: onto inner-of-run"));
        assert_eq!(rules.target_blockade_clause(0), "GS-4, GS-12b");
    }
}
