//! Protection: when an opposing piece cannot be hit, as a predicate over
//! its run (counted on the squares runs count on, T-11), its square and
//! its owner, composed with and/or/not.
//!
//! The model value with its clauses, its compiled masks (the protected
//! pieces of a position, for the forward and backward stages), and its
//! words: how `senet rules show`
//! says it, its token in `senet rules summary`, and how a move it refuses
//! reads.

use super::words::*;
use crate::engine::mask_of;
use crate::engine::*;

/// Protection: when an opposing piece on the target square cannot be hit.
#[derive(Debug, Clone, PartialEq)]
pub struct Protection {
    /// The predicate; `None` means nothing is protected.
    pub rule: Option<Pred>,
    /// Squares on which runs are counted; pieces elsewhere never form or
    /// extend a run (T-11).
    pub run_squares: SquareSet,
    /// `except runs reaching`: a run with a piece on one of these squares
    /// is no run; its pieces are in none, as pieces off `run_squares` are.
    /// Empty: every run counts.
    pub run_except: SquareSet,
}

/// A protection predicate over the target piece, composed with and/or/not.
#[derive(Debug, Clone, PartialEq)]
pub enum Pred {
    /// The length of the target's run (counted on `run_squares`) is in this set
    /// (bit `n` = length `n`).
    RunLength {
        lengths: u64,
        clause: Clause,
    },
    /// The target is the middle piece of its run (odd length).
    Middle {
        clause: Clause,
    },
    /// The target is the first or the last piece of its run (a piece
    /// alone in its run is both).
    EndOfRun {
        clause: Clause,
    },
    /// The target is a piece of its run that is neither first nor last
    /// (a run of 3 or more has them).
    InnerOfRun {
        clause: Clause,
    },
    /// The target stands on one of these squares.
    OnSquare {
        squares: SquareSet,
        clause: Clause,
    },
    /// Some piece, of either side, stands on one of these squares (KD-9).
    Taken {
        squares: SquareSet,
        clause: Clause,
    },
    /// The target's owner has a piece on one of these squares (KD-9).
    OwnerOn {
        squares: SquareSet,
        clause: Clause,
    },
    /// The target's owner is to miss their next turn (KD-9).
    OwnerSkips {
        clause: Clause,
    },
    /// The target's owner has a piece right before or after it in the same
    /// row of the board (LJ-5). `before`: the squares whose previous square
    /// lies in their row; `after`: those whose next square does.
    OwnerBeside {
        before: u64,
        after: u64,
        clause: Clause,
    },
    /// The target's group (its owner's pieces connected to it through grid
    /// neighbours, `groups.rs`) has at least `min` pieces.
    Group {
        min: u8,
        clause: Clause,
    },
    And(Vec<Pred>),
    Or(Vec<Pred>),
    Not(Box<Pred>),
}

// Words.

/// `rules show`: the protection declared (`None`: nothing is protected).
pub fn sentence(names: &Names, rule: Option<&Pred>) -> String {
    match rule {
        None => "No piece is protected.".into(),
        Some(p) => format!(
            "An opposing piece cannot be hit when {}.",
            p.sentence(names)
        ),
    }
}

/// `rules show`: where runs count (T-11).
pub fn runs_sentence(names: &Names, squares: SquareSet, except: SquareSet) -> String {
    format!(
        "Runs are counted on squares {} only; pieces elsewhere never form or extend a run{}.",
        names.set(squares),
        runs_except_words(names, except)
    )
}

/// Run lengths `lengths` (bit `n`): `Some(n)` when they are every length
/// from `n` up.
fn at_least(ls: &[u8]) -> Option<u8> {
    (ls.len() > 1 && ls.windows(2).all(|w| w[1] == w[0] + 1) && ls.last() == Some(&63))
        .then(|| ls[0])
}

fn lengths_of(lengths: u64) -> Vec<u8> {
    (0..64u8).filter(|i| lengths & (1u64 << i) != 0).collect()
}

impl Pred {
    /// The condition in words, after "cannot be hit when".
    pub fn sentence(&self, n: &Names) -> String {
        let paren = |p: &Pred| match p {
            Pred::And(_) | Pred::Or(_) => format!("({})", p.sentence(n)),
            _ => p.sentence(n),
        };
        match self {
            Pred::RunLength { lengths, .. } => {
                let ls = lengths_of(*lengths);
                match at_least(&ls) {
                    Some(k) => format!("it is in a run of {k} or more"),
                    None => format!("it is in a run of {}", list(&ls)),
                }
            }
            Pred::Middle { .. } => "it is the middle piece of its run".into(),
            Pred::EndOfRun { .. } => "it is the first or the last piece of its run".into(),
            Pred::InnerOfRun { .. } => {
                "it is an inner piece of its run (neither its first nor its last)".into()
            }
            Pred::OnSquare { squares, .. } => format!("it stands on {}", n.set(*squares)),
            Pred::Taken { squares, .. } => format!("a piece stands on {}", n.set(*squares)),
            Pred::OwnerOn { squares, .. } => {
                format!("its owner has a piece on {}", n.set(*squares))
            }
            Pred::OwnerSkips { .. } => "its owner is to miss their next turn".into(),
            Pred::OwnerBeside { .. } => {
                "its owner has a piece right beside it in its row of the board".into()
            }
            Pred::Group { min, .. } => format!(
                "it is in a group of {min} or more (its owner's pieces connected to it side by side in a row of the board or one above another)"
            ),
            Pred::And(ps) => ps.iter().map(paren).collect::<Vec<_>>().join(" and "),
            Pred::Or(ps) => ps.iter().map(paren).collect::<Vec<_>>().join(" or "),
            Pred::Not(q) => match &**q {
                Pred::Middle { .. } => "it is not the middle piece of its run".into(),
                q => format!("not ({})", q.sentence(n)),
            },
        }
    }

    /// The distinct clauses cited inside the predicate, in order.
    pub fn clauses(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut add = |c: &String| {
            for part in c.split(", ").filter(|s| !s.is_empty()) {
                if !out.iter().any(|o| o == part) {
                    out.push(part.to_string());
                }
            }
        };
        match self {
            Pred::RunLength { clause, .. }
            | Pred::Middle { clause }
            | Pred::EndOfRun { clause }
            | Pred::InnerOfRun { clause }
            | Pred::OnSquare { clause, .. }
            | Pred::Taken { clause, .. }
            | Pred::OwnerOn { clause, .. }
            | Pred::OwnerSkips { clause }
            | Pred::OwnerBeside { clause, .. }
            | Pred::Group { clause, .. } => add(clause),
            Pred::And(ps) | Pred::Or(ps) => {
                for q in ps {
                    for c in q.clauses() {
                        add(&c);
                    }
                }
            }
            Pred::Not(q) => {
                for c in q.clauses() {
                    add(&c);
                }
            }
        }
        out
    }

    /// The compact `rules summary` form: `or(run >=2 [K-9a], on {26} [K-9b])`.
    pub fn token(&self) -> String {
        let join = |ps: &[Pred]| ps.iter().map(Pred::token).collect::<Vec<_>>().join(", ");
        match self {
            Pred::RunLength { lengths, clause } => {
                let v = lengths_of(*lengths);
                let text = match at_least(&v) {
                    Some(k) => format!(">={k}"),
                    None => format!("in {{{}}}", ranges(&v)),
                };
                format!("run {text}{}", cl(clause))
            }
            Pred::Middle { clause } => format!("middle{}", cl(clause)),
            Pred::EndOfRun { clause } => format!("end-of-run{}", cl(clause)),
            Pred::InnerOfRun { clause } => format!("inner-of-run{}", cl(clause)),
            Pred::OnSquare { squares, clause } => {
                format!("on {}{}", set_token(*squares), cl(clause))
            }
            Pred::Taken { squares, clause } => {
                format!("taken {}{}", set_token(*squares), cl(clause))
            }
            Pred::OwnerOn { squares, clause } => {
                format!("owner-on {}{}", set_token(*squares), cl(clause))
            }
            Pred::OwnerSkips { clause } => format!("owner-skips{}", cl(clause)),
            Pred::OwnerBeside { clause, .. } => format!("owner-beside-in-row{}", cl(clause)),
            Pred::Group { min, clause } => format!("group >={min}{}", cl(clause)),
            Pred::And(ps) => format!("and({})", join(ps)),
            Pred::Or(ps) => format!("or({})", join(ps)),
            Pred::Not(q) => format!("not({})", q.token()),
        }
    }
}

impl Protection {
    /// The `rules summary` lines: the predicate and where runs count.
    pub fn tokens(&self) -> [String; 2] {
        [
            format!(
                "protection: {}",
                self.rule.as_ref().map_or("none".into(), Pred::token)
            ),
            // The exception is printed only when declared, so that other
            // summaries stay as they were.
            if self.run_except.is_empty() {
                format!("runs on: {}", set_token(self.run_squares))
            } else {
                format!(
                    "runs on: {} except reaching {}",
                    set_token(self.run_squares),
                    set_token(self.run_except)
                )
            },
        ]
    }

    /// Whether the predicate asks for the place of a piece in its run
    /// (`end of run`, `inner of run`) or runs have an exception: the
    /// masks then take the postfix program or walk the predicate
    /// ([`Protect::Tree`] without terms), which find runs without the
    /// excepted ones (`Ruleset::run_bits`).
    fn placed(&self) -> bool {
        fn places(p: &Pred) -> bool {
            match p {
                Pred::EndOfRun { .. } | Pred::InnerOfRun { .. } => true,
                Pred::And(ps) | Pred::Or(ps) => ps.iter().any(places),
                Pred::Not(q) => places(q),
                _ => false,
            }
        }
        !self.run_except.is_empty() || self.rule.as_ref().is_some_and(places)
    }
}

/// `runs count on ... except runs reaching SQUARES`: the text of that
/// part of the sentence (empty without an exception).
pub fn runs_except_words(names: &Names, except: SquareSet) -> String {
    if except.is_empty() {
        String::new()
    } else {
        format!(
            "; a run with a piece on {} is no run, and its pieces are in none",
            names.set(except)
        )
    }
}

/// A move refused because the piece it would hit is protected.
pub(crate) fn refused(cx: &Refused) -> Said {
    let side = cx.side();
    Said::new(
        "protected piece",
        format!(
            "the {} piece on {} is protected and cannot be {}",
            side.other(),
            cx.sq(cx.refusal.to),
            match cx.rules.movement().hit {
                Hit::Capture => "captured",
                Hit::Swap => "swapped",
                _ => "hit",
            }
        ),
    )
}

// The compiled form: masks of the protected pieces, for the forward and
// backward stages (a step onto a protected piece is cleared).

/// The protection rule as the generator evaluates it, compiled with the
/// rule set ([`Masks::compile`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct Masks {
    /// How the protection rule is evaluated.
    pub protect: Protect,
    /// Under [`Protect::Tree`], the predicate as a union of terms (see
    /// [`Term`]) where it has that form; empty otherwise.
    pub terms: Vec<Term>,
    /// How `terms` are evaluated: the squares of the terms that ask for
    /// squares alone (no run, no condition), such as R-9's `on rebirth`.
    pub on_squares: u64,
    /// The terms that ask for run lengths and the middle of a run alone
    /// (any square, no condition), such as R-8, as one table by run
    /// length: bit `i` of `by_run[n]` is set when the piece `i` squares
    /// into a run of `n` is protected. Looked up once per run of the
    /// owner's pieces. Empty when no term is of this kind.
    pub by_run: Vec<u64>,
    /// Some term is in `by_run`.
    pub any_by_run: bool,
    /// Those terms protect the pieces off the counted squares (run length 0).
    pub by_run_zero: bool,
    /// The terms of `by_run` when they come to "a run of k or more"
    /// (2 <= k < 8): `k`, found by shift-ands with no loop over the runs;
    /// 0 otherwise.
    pub by_run_at_least: u8,
    /// The terms of `by_run` as shift-ands where they come to runs of a
    /// range of lengths with the middles of some odd lengths taken out or
    /// added (R-8: runs of 2 to 5 but the middles of runs of 3 and 5), so
    /// that no step is taken per run (see [`RunShifts`]).
    pub run_shifts: Option<RunShifts>,
    /// The rule is `run_shifts` and squares alone (R-8 with R-9): the
    /// shift-ands first, with no look at the other forms.
    pub shifts_alone: bool,
    /// `run_shifts` is the form of runs of 2 to 5 with the odd runs'
    /// middles out ([`RunShifts::TWO_TO_FIVE`], R-8's): its shift-ands
    /// with the fields as constants.
    pub shifts_two_to_five: bool,
    /// The other terms, evaluated one by one, each compiled for
    /// evaluation without a branch on the position (see [`TermMask`]).
    pub term_masks: Vec<TermMask>,
    /// Some term of `term_masks` asks for exact run lengths or the middle
    /// of a run.
    pub terms_runs: bool,
    /// Under [`Protect::Tree`], the predicate in postfix form, evaluated
    /// with a small stack instead of a walk of the tree; empty when it
    /// nests too deep for that stack.
    pub program: Vec<PredOp>,
    /// The program has run-length or middle-of-run leaves.
    pub program_runs: bool,
    /// The program as tables by the class of a piece in its run, where
    /// its leaves allow (see [`RunClasses`]): evaluated in its place.
    pub classes: Option<RunClasses>,
    /// Under [`Protect::Tree`], a union of terms (KD-4/KD-9, LK-9, HK-3)
    /// each of which asks at most for a run of 2 or more, squares and
    /// position-wide conditions on a few facts, with terms of squares
    /// alone and of a run of 2 or more alone: the terms of `term_masks` as
    /// one table by their conditions (see [`FlatTable`]), before the
    /// terms one by one. `None` for any other rule.
    pub flat: Option<FlatTable>,
    /// With `flat`, all ones when the terms of `by_run` come to "a run of
    /// 2 or more" (`by_run_at_least == 2`), else 0.
    pub flat_run2: u64,
    /// Under [`Protect::Tree`], the rule "in a group of `.0` or more",
    /// alone or or'ed with "on one of the squares `.1`" (MC-3, MC-4):
    /// the group masks (`groups.rs`) and one mask, before terms and
    /// programs.
    pub groups: Option<(u8, u64)>,
    /// Under [`Protect::Tree`], the rule "its owner has a piece right
    /// beside it in its row", alone or or'ed with "on one of the squares
    /// `.2`" (LJ-5): the shift-ands of [`PredOp::Beside`] with its masks
    /// `.0` and `.1`, and one mask, before terms and programs.
    pub beside: Option<(u64, u64, u64)>,
}

impl Masks {
    /// The rule is evaluated by its program's tables by run class
    /// (`classes`), no other form coming before them in
    /// [`Ruleset::protected_mask`].
    pub(crate) fn by_classes_alone(&self) -> bool {
        self.protect == Protect::Tree
            && self.flat.is_none()
            && !self.shifts_alone
            && self.groups.is_none()
            && self.beside.is_none()
            && self.terms.is_empty()
            && self.classes.is_some()
    }

    /// The masks of a protection rule: the shift-and form where the rule
    /// has it, else a union of terms, else a postfix program.
    pub(crate) fn compile(protection: &Protection) -> Masks {
        let placed = protection.placed();
        let protect = match &protection.rule {
            None => Protect::Nothing,
            Some(_) if placed => Protect::Tree,
            Some(p) => runs_or_squares(p).map_or(Protect::Tree, |(run, squares)| Protect::Runs {
                run,
                squares,
            }),
        };
        let groups = match &protection.rule {
            Some(p) if protect == Protect::Tree && !placed => group_or_squares(p),
            _ => None,
        };
        let beside = match &protection.rule {
            Some(p) if protect == Protect::Tree && !placed => beside_or_squares(p),
            _ => None,
        };
        let mut program = Vec::new();
        if let Some(p) = &protection.rule
            && protect == Protect::Tree
            && postfix(p, &mut program, 0).is_none()
        {
            program.clear();
        }
        let program_runs = program_runs(&program);
        let classes = RunClasses::compile(&program);
        let terms = match &protection.rule {
            Some(p) if protect == Protect::Tree && !placed => union_of_terms(p).unwrap_or_default(),
            _ => Vec::new(),
        };
        let mut on_squares = 0;
        let mut by_run = vec![0u64; 65];
        let (mut any_by_run, mut by_run_zero) = (false, false);
        let mut other_terms = Vec::new();
        for t in &terms {
            if t.n_conds == 0 && t.lengths == u64::MAX && t.middle.is_none() {
                on_squares |= t.squares;
            } else if t.n_conds == 0 && t.squares == u64::MAX {
                any_by_run = true;
                // Length 0: a piece off the counted squares, in no run and
                // never the middle of one.
                by_run_zero |= t.lengths & 1 != 0 && t.middle != Some(true);
                for (n, slot) in by_run.iter_mut().enumerate().skip(1) {
                    // (A run of 64 cannot stand on a board, whose squares
                    // start at 1; it reads as the longest length named.)
                    if t.lengths >> n.min(63) & 1 == 0 {
                        continue;
                    }
                    let whole = u64::MAX >> (64 - n);
                    let middle = if n % 2 == 1 { 1u64 << (n / 2) } else { 0 };
                    *slot |= match t.middle {
                        None => whole,
                        Some(true) => middle,
                        Some(false) => whole & !middle,
                    };
                }
            } else {
                other_terms.push(*t);
            }
        }
        if !any_by_run {
            by_run.clear();
        }
        let by_run_at_least = (2..8u8)
            .find(|&k| {
                any_by_run
                    && !by_run_zero
                    && by_run.iter().enumerate().skip(1).all(|(n, &slot)| {
                        slot == if n >= usize::from(k) {
                            u64::MAX >> (64 - n)
                        } else {
                            0
                        }
                    })
            })
            .unwrap_or(0);
        let run_shifts = RunShifts::compile(&by_run).filter(|_| by_run_at_least == 0);
        let term_masks: Vec<TermMask> = other_terms.iter().map(TermMask::compile).collect();
        // R-8 and squares alone: the shift-ands before any other form.
        let shifts_alone = run_shifts.is_some()
            && protect == Protect::Tree
            && groups.is_none()
            && beside.is_none()
            && !terms.is_empty()
            && term_masks.is_empty();
        let shifts_two_to_five = run_shifts == Some(RunShifts::TWO_TO_FIVE);
        let terms_runs = other_terms.iter().any(|t| {
            t.middle.is_some() || (t.lengths != u64::MAX && run_at_least(t.lengths).is_none())
        });
        // The flat form: every run part "a run of 2 or more" or none, no
        // middle of a run, few conditions.
        let flat = FlatTable::compile(&term_masks).filter(|_| {
            protect == Protect::Tree
                && groups.is_none()
                && !terms.is_empty()
                && !term_masks.is_empty()
                && matches!((any_by_run, by_run_at_least), (false, _) | (true, 2))
        });
        let flat_run2 = mask_of(flat.is_some() && any_by_run);
        Masks {
            protect,
            flat,
            flat_run2,
            terms,
            on_squares,
            by_run,
            any_by_run,
            by_run_zero,
            by_run_at_least,
            run_shifts,
            shifts_alone,
            shifts_two_to_five,
            term_masks,
            terms_runs,
            program,
            program_runs,
            classes,
            groups,
            beside,
        }
    }
}

/// A table by run length (`Masks::by_run`) as shift-ands: the pieces in
/// runs of `lo` to `hi` squares, with the middle piece of each run of
/// `2i + 1` squares (bit `i` of `middles`) taken out where its run is in
/// the range and added where it is not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RunShifts {
    /// The shortest length of the range (1 or more); 0: no range.
    lo: u8,
    /// Runs of this many squares (2 to 8) or more are out of the range,
    /// and are read by the steps per run (only a position written by hand
    /// has them where it is more than a side's pieces); 0: none are.
    long: u8,
    /// Bit `i`: the middle of a run of `2i + 1` squares is toggled.
    middles: u8,
}

impl RunShifts {
    /// Runs of 2 to 5 squares, the middles of runs of 3 and 5 taken out,
    /// runs of 6 or more read by the steps per run: the form of R-8 (and
    /// of any rule file that says the same), common enough to have its
    /// fields as constants where it is read.
    pub(crate) const TWO_TO_FIVE: RunShifts = RunShifts {
        lo: 2,
        long: 6,
        middles: 0b110,
    };

    /// The shift-and form of `by_run` (bit `i` of `by_run[n]`: the piece
    /// `i` squares into a run of `n` is protected), if it has one.
    fn compile(by_run: &[u64]) -> Option<RunShifts> {
        if by_run.len() < 65 {
            return None;
        }
        let whole = |n: usize| u64::MAX >> (64 - n);
        // The range: the lengths of 2 or more whose first piece (never a
        // middle) is protected, and 1 with them where it joins them.
        let in_range: Vec<usize> = (2..=64).filter(|&n| by_run[n] & 1 != 0).collect();
        let (mut lo, hi) = match (in_range.first(), in_range.last()) {
            (Some(&a), Some(&b)) if b - a + 1 == in_range.len() => (a, b),
            (None, None) => (0, 0),
            _ => return None,
        };
        if lo == 2 && by_run[1] == 1 {
            lo = 1;
        }
        let mut middles = 0u8;
        for (n, &slot) in by_run.iter().enumerate().take(65).skip(1) {
            let ranged = if lo != 0 && (lo..=hi).contains(&n) {
                whole(n)
            } else {
                0
            };
            let toggled = slot ^ ranged;
            if toggled == 0 {
                continue;
            }
            if n % 2 == 0 || n / 2 >= MIDDLES || toggled != 1u64 << (n / 2) {
                return None;
            }
            middles |= 1 << (n / 2);
        }
        let long = if lo == 0 || hi == 64 { 0 } else { hi as u8 + 1 };
        if !(long == 0 || (2..=8).contains(&long)) {
            return None;
        }
        Some(RunShifts {
            lo: lo as u8,
            long,
            middles,
        })
    }

    /// The protected pieces of `bits` (the owner's pieces on the counted
    /// squares), or `None` when some run is of `long` squares or more.
    /// No step per run: the loops go over the run lengths the rule set
    /// names, and each branch follows the rule set alone.
    #[inline(always)]
    fn mask(&self, bits: u64) -> Option<u64> {
        if self.long != 0 {
            // Windows of 2, then 4 squares, then `long` (2 to 8) by one
            // more shift-and.
            let w2 = bits & (bits >> 1);
            let w4 = w2 & (w2 >> 2);
            let starts = if self.long > 4 {
                w4 & (w4 >> (self.long - 4))
            } else {
                w2 & (w2 >> (self.long - 2))
            };
            if starts != 0 {
                return None;
            }
        }
        let mut m = match self.lo {
            0 => 0,
            1 => bits,
            2 => bits & ((bits << 1) | (bits >> 1)),
            k => in_runs_of(bits, u32::from(k)),
        };
        // The middles: `inner` holds the pieces with `i` of the owner's
        // pieces on each side, the middle of a run of `2i + 1` when the
        // squares beyond are not the owner's.
        if self.middles & 1 != 0 {
            m ^= bits & !((bits << 1) | (bits >> 1));
        }
        let mut inner = bits;
        for i in 1..MIDDLES {
            if self.middles >> i == 0 {
                break;
            }
            inner &= (bits << i) & (bits >> i);
            let alone = inner & !((bits << (i + 1)) | (bits >> (i + 1)));
            m ^= alone & mask_of(self.middles >> i & 1 != 0);
        }
        Some(m)
    }
}

/// The odd run lengths whose middles [`RunShifts`] toggles: 1, 3, 5 and 7.
const MIDDLES: usize = 4;

/// How [`Ruleset::protected_mask`] evaluates the protection rule, chosen
/// when the rule file is compiled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Protect {
    /// No protection rule: nothing is protected.
    Nothing,
    /// The rule is "a run of `run` or more" (B-7, T-8; `run == 0`: no run
    /// part), or "on one of `squares`" (BL-5), or the run joined by `or`
    /// to any number of square sets (K-9a/K-9b, JQ-6): shift-ands and one
    /// mask, without a branch.
    Runs { run: u8, squares: u64 },
    /// Any other predicate: its postfix program (`Masks::program`),
    /// or the walk of the tree of masks where there is none.
    #[default]
    Tree,
}

/// The pieces of `bits` in runs of exactly n (`exact[n]`, n = 1..=max) and
/// the middle pieces of odd runs; `None` when a run is longer than `max`.
#[inline]
#[allow(clippy::needless_range_loop)] // as in `protected_mask_tree`
fn runs_by_length(bits: u64, max: usize, exact: &mut [u64; 17]) -> Option<u64> {
    // One step per run (a side has a handful of pieces): its first square,
    // its length, its squares. (`exact` is the caller's: returned by value,
    // the array would be copied.)
    let mut middle = 0;
    let mut rest = bits;
    while rest != 0 {
        let lo = rest.trailing_zeros();
        let n = (!(rest >> lo)).trailing_zeros();
        if n as usize > max {
            return None;
        }
        let run = (u64::MAX >> (64 - n)) << lo;
        exact[n as usize] |= run;
        if n % 2 == 1 {
            middle |= 1u64 << (lo + n / 2);
        }
        rest &= !run;
    }
    Some(middle)
}

/// The pieces of `bits` in runs of `k` or more: shift-and finds the first
/// squares of k-square windows, shift-or spreads them over the windows.
#[inline(always)]
fn in_runs_of(bits: u64, k: u32) -> u64 {
    let mut starts = bits;
    for i in 1..k {
        starts &= bits >> i;
    }
    let mut m = starts;
    for i in 1..k {
        m |= starts << i;
    }
    m
}

/// The pieces whose run length is in `lengths` (bit n: length n), from the
/// decomposition of [`runs_by_length`]; pieces off the counted squares have
/// length 0.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // as in `protected_mask_tree`
fn of_lengths(exact: &[u64; 17], lengths: u64, counted: u64, max: usize) -> u64 {
    let mut m = if lengths & 1 != 0 { !counted } else { 0 };
    for n in 1..=max {
        m |= exact[n] & mask_of(lengths >> n & 1 != 0);
    }
    m
}

/// "A run of k or more" (2 <= k < 8) as a set of lengths: `Some(k)`.
fn run_at_least(lengths: u64) -> Option<u8> {
    let k = lengths.trailing_zeros();
    ((2..8).contains(&k) && lengths == u64::MAX << k).then_some(k as u8)
}

/// "A run of `lo` to `hi`" (1 <= lo <= hi < 8) as a set of lengths:
/// `Some((lo, hi))`.
fn run_range(lengths: u64) -> Option<(u8, u8)> {
    if lengths == 0 {
        return None;
    }
    let lo = lengths.trailing_zeros();
    let hi = 63 - lengths.leading_zeros();
    (lo >= 1 && hi < 8 && lengths == (u64::MAX >> (63 - hi)) & (u64::MAX << lo))
        .then_some((lo as u8, hi as u8))
}

/// A position-wide condition of a [`Term`]; the flag negates it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cond {
    /// Some piece stands on one of these squares (KD-9).
    Taken(u64, bool),
    /// The owner has a piece on one of these squares (KD-9).
    OwnerOn(u64, bool),
    /// The owner is to miss their next turn (KD-9).
    OwnerSkips(bool),
}

/// Conditions a [`Term`] holds at most.
const TERM_CONDS: usize = 4;

/// One term of a protection rule written as a union of terms: a piece is
/// protected by the term when its run's length is in `lengths` (all ones:
/// any), it is or is not the middle of its run as `middle` says, it
/// stands on `squares`, and every condition holds. R-8 and KD-4/KD-9 have
/// this form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Term {
    pub lengths: u64,
    pub middle: Option<bool>,
    pub squares: u64,
    pub conds: [Cond; TERM_CONDS],
    pub n_conds: u8,
}

/// The run-length part of a [`TermMask`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RunPart {
    /// Any run length.
    Any,
    /// A run of this many or more (2 <= k < 8), by shift-ands.
    AtLeast(u8),
    /// The lengths of this set (bit n: length n), from the decomposition
    /// of the runs.
    Lengths(u64),
}

/// A position-wide condition of a [`TermMask`] as masks: it holds when
/// the pieces on `occupied` (any side's), the owner's pieces on `mine`, or
/// (with `skips` all ones) the owner's missed turn are there, negated by
/// `negated`. One form for the three kinds of [`Cond`], so that a term's
/// conditions cost no branch on their kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct CondMask {
    occupied: u64,
    mine: u64,
    skips: u64,
    negated: bool,
}

impl CondMask {
    fn compile(c: &Cond) -> CondMask {
        match *c {
            Cond::Taken(sq, negated) => CondMask {
                occupied: sq,
                negated,
                ..CondMask::default()
            },
            Cond::OwnerOn(sq, negated) => CondMask {
                mine: sq,
                negated,
                ..CondMask::default()
            },
            Cond::OwnerSkips(negated) => CondMask {
                skips: u64::MAX,
                negated,
                ..CondMask::default()
            },
        }
    }

    /// Whether the condition holds, given the occupied squares, the
    /// owner's pieces and the owner's missed turn as a mask.
    #[inline(always)]
    fn holds(&self, occupied: u64, mine: u64, skips: u64) -> bool {
        let seen = (occupied & self.occupied) | (mine & self.mine) | (skips & self.skips);
        (seen != 0) != self.negated
    }
}

/// A [`Term`] compiled for evaluation: its run part, its middle-of-run
/// part as `middle & middle_and ^ middle_xor` (all ones for none, the
/// middles, or the others), its squares and its conditions as masks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TermMask {
    run: RunPart,
    middle_and: u64,
    middle_xor: u64,
    squares: u64,
    conds: [CondMask; TERM_CONDS],
    n_conds: u8,
}

impl TermMask {
    fn compile(t: &Term) -> TermMask {
        let run = if t.lengths == u64::MAX {
            RunPart::Any
        } else if let Some(k) = run_at_least(t.lengths) {
            RunPart::AtLeast(k)
        } else {
            RunPart::Lengths(t.lengths)
        };
        let (middle_and, middle_xor) = match t.middle {
            None => (0, u64::MAX),
            Some(true) => (u64::MAX, 0),
            Some(false) => (u64::MAX, u64::MAX),
        };
        let mut conds = [CondMask::default(); TERM_CONDS];
        for (m, c) in conds.iter_mut().zip(&t.conds[..t.n_conds as usize]) {
            *m = CondMask::compile(c);
        }
        TermMask {
            run,
            middle_and,
            middle_xor,
            squares: t.squares,
            conds,
            n_conds: t.n_conds,
        }
    }
}

/// Facts a [`FlatTable`] reads at most (a table of `1 << FLAT_FACTS`
/// entries).
const FLAT_FACTS: usize = 6;

/// The terms of the flat form (`Masks::flat`) as one table: their
/// conditions read a few position-wide facts (a piece on some squares,
/// an owner's piece on some squares, the owner's missed turn), each
/// `words[fact.0] & fact.1 != 0` for one of `facts`, `words` being the
/// occupied squares, the owner's pieces and the owner's missed turn (all
/// ones or none); `table[key]`, `key` having bit `i` set when fact `i`
/// holds, is the squares the terms whose conditions hold protect: `.0`
/// whatever the run, `.1` in a run of 2 or more.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct FlatTable {
    facts: Vec<(usize, u64)>,
    table: Vec<(u64, u64)>,
}

impl FlatTable {
    /// The table of `terms`, if every one has the flat form (a run part
    /// "a run of 2 or more" or none, no middle of a run) and they read
    /// [`FLAT_FACTS`] facts at most.
    fn compile(terms: &[TermMask]) -> Option<FlatTable> {
        // A condition's fact: the word it reads and the squares of it.
        let fact = |c: &CondMask| match (c.occupied, c.mine, c.skips) {
            (sq, 0, 0) => (0, sq),
            (0, sq, 0) => (1, sq),
            _ => (2, u64::MAX),
        };
        let mut facts = Vec::new();
        for t in terms {
            let flat = matches!(t.run, RunPart::Any | RunPart::AtLeast(2))
                && (t.middle_and, t.middle_xor) == (0, u64::MAX);
            if !flat {
                return None;
            }
            for c in &t.conds[..t.n_conds as usize] {
                if !facts.contains(&fact(c)) {
                    facts.push(fact(c));
                }
            }
        }
        if facts.len() > FLAT_FACTS {
            return None;
        }
        let table = (0..1usize << facts.len())
            .map(|key| {
                let (mut any, mut in_run) = (0, 0);
                for t in terms {
                    let holds = t.conds[..t.n_conds as usize].iter().all(|c| {
                        let i = facts.iter().position(|f| *f == fact(c)).unwrap_or(0);
                        (key >> i & 1 != 0) != c.negated
                    });
                    if !holds {
                        continue;
                    }
                    if matches!(t.run, RunPart::AtLeast(2)) {
                        in_run |= t.squares;
                    } else {
                        any |= t.squares;
                    }
                }
                (any, in_run)
            })
            .collect();
        Some(FlatTable { facts, table })
    }
}

/// `pred` as a union of terms, if it is an `or` (nested `or`s included)
/// of `and`s (nested `and`s included) of leaves and negated leaves, or one
/// of those; `None` otherwise.
fn union_of_terms(pred: &Pred) -> Option<Vec<Term>> {
    fn add(t: &mut Term, p: &Pred, negated: bool) -> Option<()> {
        let cond = |t: &mut Term, c: Cond| {
            let i = t.n_conds as usize;
            if i == TERM_CONDS {
                return None;
            }
            t.conds[i] = c;
            t.n_conds += 1;
            Some(())
        };
        match p {
            Pred::Not(q) => add(t, q, !negated),
            Pred::And(ps) if !negated => ps.iter().try_for_each(|q| add(t, q, false)),
            Pred::RunLength { lengths, .. } => {
                t.lengths &= if negated { !lengths } else { *lengths };
                Some(())
            }
            Pred::Middle { .. } => {
                let want = !negated;
                if t.middle.is_some_and(|m| m != want) {
                    t.squares = 0; // middle and not middle: never
                }
                t.middle = Some(want);
                Some(())
            }
            Pred::OnSquare { squares, .. } => {
                t.squares &= if negated { !squares.0 } else { squares.0 };
                Some(())
            }
            Pred::Taken { squares, .. } => cond(t, Cond::Taken(squares.0, negated)),
            Pred::OwnerOn { squares, .. } => cond(t, Cond::OwnerOn(squares.0, negated)),
            Pred::OwnerSkips { .. } => cond(t, Cond::OwnerSkips(negated)),
            // A mask that depends on the owner's pieces square by square:
            // the postfix program evaluates it.
            Pred::OwnerBeside { .. }
            | Pred::Group { .. }
            | Pred::EndOfRun { .. }
            | Pred::InnerOfRun { .. }
            | Pred::And(_)
            | Pred::Or(_) => None,
        }
    }
    let any = Term {
        lengths: u64::MAX,
        middle: None,
        squares: u64::MAX,
        conds: [Cond::OwnerSkips(false); TERM_CONDS],
        n_conds: 0,
    };
    let one = |p: &Pred| {
        let mut t = any;
        add(&mut t, p, false).map(|()| t)
    };
    fn terms(p: &Pred, one: &dyn Fn(&Pred) -> Option<Term>, out: &mut Vec<Term>) -> Option<()> {
        match p {
            Pred::Or(ps) => ps.iter().try_for_each(|q| terms(q, one, out)),
            p => {
                out.push(one(p)?);
                Some(())
            }
        }
    }
    let mut out = Vec::new();
    terms(pred, &one, &mut out)?;
    Some(out)
}

/// The squares that have a piece of `mine` right before them in their row
/// (`before`: the squares whose previous square is in their row) or right
/// after them (`after`, likewise).
#[inline]
fn beside(mine: u64, before: u64, after: u64) -> u64 {
    ((mine << 1) & before) | ((mine >> 1) & after)
}

/// Values a protection program holds at once at most.
pub(crate) const PROGRAM_DEPTH: usize = 16;

/// One step of a protection predicate in postfix form: a leaf pushes its
/// mask, `And` and `Or` replace the top two masks by their intersection
/// or union, `Not` complements the top one. Leaves as in
/// [`Pred`]; position-wide facts push all ones or all zeros.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PredOp {
    /// A run of this length or more (2 <= k < 8), by shift-ands.
    RunAtLeast(u8),
    /// A run of `.0` to `.1` squares (1 <= `.0` <= `.1` < 8), by
    /// shift-ands: in a run of `.0` or more and not of `.1 + 1` or more.
    RunRange(u8, u8),
    Run(u64),
    Middle,
    /// The first or last piece of its run (`end of run`).
    EndOfRun,
    /// A piece of its run that is neither first nor last (`inner of run`).
    InnerOfRun,
    On(u64),
    Taken(u64),
    OwnerOn(u64),
    OwnerSkips,
    /// Squares with an owner's piece right before (`.0`) or after (`.1`)
    /// them in their row.
    Beside(u64, u64),
    /// Pieces in a group of this many or more (`groups.rs`).
    Group(u8),
    And,
    Or,
    Not,
}

/// Whether a program has run-length or middle-of-run leaves, for which
/// [`Ruleset::program_mask`] splits the runs by length.
pub(crate) fn program_runs(prog: &[PredOp]) -> bool {
    prog.iter()
        .any(|op| matches!(op, PredOp::Run(_) | PredOp::Middle))
}

/// Classes a [`RunClasses`] tells apart at most.
pub(crate) const RUN_CLASSES: usize = 16;

/// A postfix program whose leaves all read a piece's place in its run
/// (`run >= k`, `run = k` and ranges of lengths, `end of run`, `inner of
/// run`) or its square (`on`), as tables: every such leaf is the same for
/// the pieces of one class, the class being the length of the piece's
/// run (0 for a piece in no run, 1 to `k - 1` exactly, `k` or more as one)
/// and whether it is an inner piece of it. Each value the program leaves is
/// then, square by square, the union over the classes of the class's
/// pieces and the squares on which the program gives true for that class:
/// shift-ands that find the classes once per position and one `and` per
/// class and value, without an interpreted step per leaf or operator.
///
/// The classes, in order: no run; runs of 1 to `k` (`k`: or more) and not
/// inner; runs of 3 to `k` and inner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RunClasses {
    /// Runs of `k` or more are one class (3 <= k <= 8).
    k: u8,
    /// Per value the program leaves, in order: per class, the squares on
    /// which the value holds for a piece of that class.
    values: Vec<[u64; RUN_CLASSES]>,
}

impl RunClasses {
    /// The tables of `prog`, if its leaves are all of the kinds above;
    /// `None` otherwise (or for an empty program).
    pub(crate) fn compile(prog: &[PredOp]) -> Option<RunClasses> {
        let mut k = 3u8;
        for op in prog {
            match *op {
                PredOp::RunAtLeast(j) => k = k.max(j),
                PredOp::RunRange(_, hi) => k = k.max(hi + 1),
                PredOp::EndOfRun
                | PredOp::InnerOfRun
                | PredOp::On(_)
                | PredOp::And
                | PredOp::Or
                | PredOp::Not => {}
                _ => return None,
            }
        }
        if prog.is_empty() || k > 8 {
            return None;
        }
        let mut classes = vec![(0u8, false)];
        classes.extend((1..=k).map(|l| (l, false)));
        classes.extend((3..=k).map(|l| (l, true)));
        debug_assert!(classes.len() <= RUN_CLASSES);
        let mut values: Vec<[u64; RUN_CLASSES]> = Vec::new();
        for (c, &(len, inner)) in classes.iter().enumerate() {
            // The program run on the class: its run leaves all ones or
            // none, its squares as they are.
            let mut stack: Vec<u64> = Vec::new();
            for op in prog {
                let v = match *op {
                    PredOp::RunAtLeast(j) => mask_of(len >= j),
                    PredOp::RunRange(lo, hi) => mask_of(len >= lo && len <= hi),
                    PredOp::EndOfRun => mask_of(len >= 1 && !inner),
                    PredOp::InnerOfRun => mask_of(inner),
                    PredOp::On(sq) => sq,
                    PredOp::Not => !stack.pop()?,
                    PredOp::And | PredOp::Or => {
                        let b = stack.pop()?;
                        let a = stack.pop()?;
                        if *op == PredOp::And { a & b } else { a | b }
                    }
                    _ => return None,
                };
                stack.push(v);
            }
            if values.is_empty() {
                values = vec![[0; RUN_CLASSES]; stack.len()];
            }
            for (v, s) in values.iter_mut().zip(stack) {
                v[c] = s;
            }
        }
        Some(RunClasses { k, values })
    }

    /// The number of values the program leaves.
    pub(crate) fn values(&self) -> usize {
        self.values.len()
    }

    /// Runs of `k` or more are one class: the `K` of
    /// [`classes_k`](Self::classes_k) and [`value_k`](Self::value_k).
    #[inline(always)]
    pub(crate) fn k(&self) -> u8 {
        self.k
    }

    /// The first value of the program (a protection rule's one) for the
    /// pieces `bits` (those on which runs count, as [`Ruleset::run_bits`]
    /// gives them); exact on the squares of `bits`' side.
    #[inline(always)]
    pub(crate) fn first(&self, bits: u64) -> u64 {
        // Specialised by `k`: the loops unrolled.
        match self.k {
            3 => self.value_k::<3>(&self.classes_k::<3>(bits), 0),
            4 => self.value_k::<4>(&self.classes_k::<4>(bits), 0),
            5 => self.value_k::<5>(&self.classes_k::<5>(bits), 0),
            6 => self.value_k::<6>(&self.classes_k::<6>(bits), 0),
            7 => self.value_k::<7>(&self.classes_k::<7>(bits), 0),
            _ => self.value_k::<8>(&self.classes_k::<8>(bits), 0),
        }
    }

    /// The pieces of each class (`2K - 1` masks) among `bits`, for `K` the
    /// tables' [`k`](Self::k).
    #[inline(always)]
    pub(crate) fn classes_k<const K: usize>(&self, bits: u64) -> [u64; RUN_CLASSES] {
        debug_assert_eq!(K, usize::from(self.k));
        let inner = bits & (bits << 1) & (bits >> 1);
        let mut classes = [0u64; RUN_CLASSES];
        classes[0] = !bits;
        // `starts`: the first squares of windows of `l` squares all in
        // `bits`; `at_least`: the pieces in runs of `l` or more.
        let (mut starts, mut at_least) = (bits, bits);
        for l in 1..=K {
            let (next_starts, next) = if l < K {
                let s = starts & (bits >> l);
                let mut m = s;
                for i in 1..=l {
                    m |= s << i;
                }
                (s, m)
            } else {
                (0, 0)
            };
            let exact = at_least & !next;
            classes[l] = exact & !inner;
            if l >= 3 {
                classes[K + l - 2] = exact & inner;
            }
            (starts, at_least) = (next_starts, next);
        }
        classes
    }

    /// Value `i` of the program, from the classes' pieces
    /// ([`classes_k`](Self::classes_k)).
    #[inline(always)]
    pub(crate) fn value_k<const K: usize>(&self, classes: &[u64; RUN_CLASSES], i: usize) -> u64 {
        let t = &self.values[i];
        let mut v = 0;
        for c in 0..2 * K - 1 {
            v |= classes[c] & t[c];
        }
        v
    }
}

/// Appends `pred` in postfix form; `depth` values are already on the stack.
/// The stack depth reached, or `None` when it would exceed
/// [`PROGRAM_DEPTH`].
pub(crate) fn postfix(pred: &Pred, out: &mut Vec<PredOp>, depth: usize) -> Option<usize> {
    let leaf = |op, out: &mut Vec<PredOp>| {
        out.push(op);
        (depth < PROGRAM_DEPTH).then_some(depth + 1)
    };
    match pred {
        Pred::RunLength { lengths, .. } => match (run_at_least(*lengths), run_range(*lengths)) {
            (Some(k), _) => leaf(PredOp::RunAtLeast(k), out),
            (None, Some((lo, hi))) => leaf(PredOp::RunRange(lo, hi), out),
            (None, None) => leaf(PredOp::Run(*lengths), out),
        },
        Pred::Middle { .. } => leaf(PredOp::Middle, out),
        Pred::EndOfRun { .. } => leaf(PredOp::EndOfRun, out),
        Pred::InnerOfRun { .. } => leaf(PredOp::InnerOfRun, out),
        Pred::OnSquare { squares, .. } => leaf(PredOp::On(squares.0), out),
        Pred::Taken { squares, .. } => leaf(PredOp::Taken(squares.0), out),
        Pred::OwnerOn { squares, .. } => leaf(PredOp::OwnerOn(squares.0), out),
        Pred::OwnerSkips { .. } => leaf(PredOp::OwnerSkips, out),
        Pred::OwnerBeside { before, after, .. } => leaf(PredOp::Beside(*before, *after), out),
        Pred::Group { min, .. } => leaf(PredOp::Group(*min), out),
        Pred::Not(p) => {
            let reached = postfix(p, out, depth)?;
            out.push(PredOp::Not);
            Some(reached)
        }
        Pred::And(ps) | Pred::Or(ps) => {
            let and = matches!(pred, Pred::And(_));
            let Some((first, rest)) = ps.split_first() else {
                // Empty `and` is true, empty `or` false: as the walk's folds.
                return leaf(PredOp::On(mask_of(and)), out);
            };
            // Each operand after the first joins the value before it.
            let mut reached = postfix(first, out, depth)?;
            for p in rest {
                reached = reached.max(postfix(p, out, depth + 1)?);
                out.push(if and { PredOp::And } else { PredOp::Or });
            }
            Some(reached)
        }
    }
}

/// A protection rule of the form "run of k or more", "on one of these
/// squares", or one run joined by `or` to any number of square sets:
/// `Some((k, squares))`, with `k == 0` for no run part.
fn runs_or_squares(pred: &Pred) -> Option<(u8, u64)> {
    fn at_least(p: &Pred) -> Option<u8> {
        match p {
            Pred::RunLength { lengths, .. } => run_at_least(*lengths),
            _ => None,
        }
    }
    fn on_squares(p: &Pred) -> Option<u64> {
        match p {
            Pred::OnSquare { squares, .. } => Some(squares.0),
            _ => None,
        }
    }
    match pred {
        // One run of k or more and squares, in any order and number (GK-3,
        // GK-4, GK-5: a run of 2 or more, or on 15, or on 26..30): the
        // squares' union.
        Pred::Or(ps) if ps.len() >= 2 => {
            let (mut run, mut squares) = (None, 0);
            for p in ps {
                match (at_least(p), on_squares(p)) {
                    (Some(k), _) if run.is_none() => run = Some(k),
                    (_, Some(sq)) => squares |= sq,
                    _ => return None,
                }
            }
            run.map(|k| (k, squares))
        }
        Pred::Or(_) => None,
        p => at_least(p)
            .map(|k| (k, 0))
            .or_else(|| on_squares(p).map(|sq| (0, sq))),
    }
}

/// A protection rule of the form "group of n or more", or that or "on one
/// of these squares" joined by `or`: `Some((n, squares))`.
fn group_or_squares(pred: &Pred) -> Option<(u8, u64)> {
    match pred {
        Pred::Group { min, .. } => Some((*min, 0)),
        Pred::Or(ps) => match ps.as_slice() {
            [Pred::Group { min, .. }, Pred::OnSquare { squares, .. }]
            | [Pred::OnSquare { squares, .. }, Pred::Group { min, .. }] => Some((*min, squares.0)),
            _ => None,
        },
        _ => None,
    }
}

/// A protection rule of the form "owner beside in row", or that or "on
/// one of these squares" joined by `or`: `Some((before, after, squares))`.
fn beside_or_squares(pred: &Pred) -> Option<(u64, u64, u64)> {
    match pred {
        Pred::OwnerBeside { before, after, .. } => Some((*before, *after, 0)),
        Pred::Or(ps) => match ps.as_slice() {
            [
                Pred::OwnerBeside { before, after, .. },
                Pred::OnSquare { squares, .. },
            ]
            | [
                Pred::OnSquare { squares, .. },
                Pred::OwnerBeside { before, after, .. },
            ] => Some((*before, *after, squares.0)),
            _ => None,
        },
        _ => None,
    }
}

impl Ruleset {
    /// The squares of `owner`'s pieces that the protection rule protects in
    /// `pos`: [`Ruleset::protected`] for all of them at once, bit by bit.
    #[inline]
    pub(crate) fn protected_mask(&self, pos: &Position, owner: Side) -> u64 {
        match self.tables.protection.protect {
            Protect::Nothing => 0,
            Protect::Runs { run, squares } => {
                let mine = pos.pieces[owner.index()].0;
                let b = mine & self.protection.run_squares.0;
                let by_run = match run {
                    0 => 0,
                    2 => b & ((b << 1) | (b >> 1)),
                    k => in_runs_of(b, k as u32),
                };
                by_run | (mine & squares)
            }
            Protect::Tree => self.protected_mask_tree(pos, owner),
        }
    }

    /// The mask of a rule of `run_shifts` and squares alone
    /// (`Masks::shifts_alone`); the steps per run
    /// ([`by_run_steps`](Self::by_run_steps)) where a run is too long for
    /// the shift-ands.
    // Out of line, apart from the other forms: it saves few registers.
    #[inline(never)]
    fn protected_mask_shifts(&self, pos: &Position, owner: Side) -> u64 {
        let f = &self.tables.protection;
        let counted = self.protection.run_squares.0;
        let mine = pos.pieces[owner.index()].0;
        let bits = mine & counted;
        // Runs of 2 to 5 (R-8's form) with the fields as constants:
        // straight shift-ands, without the tests on `lo`, `long` and the
        // middles' loop.
        let m = if f.shifts_two_to_five {
            RunShifts::TWO_TO_FIVE.mask(bits)
        } else {
            f.run_shifts.and_then(|s| s.mask(bits))
        };
        // A run too long for the shift-ands: the steps per run.
        let by_run = m.unwrap_or_else(|| self.by_run_steps(bits));
        (by_run | f.on_squares | (!counted & mask_of(f.by_run_zero))) & mine
    }

    /// The mask of a rule of the flat form (`Masks::flat`), as
    /// [`protected_mask_terms`](Self::protected_mask_terms) finds it: the
    /// squares alone, the runs of 2 or more alone, and the other terms by
    /// one lookup of the facts their conditions read.
    // Out of line: inlined, it made `protected_mask_tree` save and
    // restore more registers on every call.
    #[inline(never)]
    fn protected_mask_flat(&self, flat: &FlatTable, pos: &Position, owner: Side) -> u64 {
        let f = &self.tables.protection;
        let mine = pos.pieces[owner.index()].0;
        let bits = mine & self.protection.run_squares.0;
        let run2 = bits & ((bits << 1) | (bits >> 1));
        let occupied = pos.occupied().0;
        let skips = mask_of(pos.skip[owner.index()]);
        let words = [occupied, mine, skips];
        let mut key = 0;
        for (i, &(w, sq)) in flat.facts.iter().enumerate() {
            key |= usize::from(words[w] & sq != 0) << i;
        }
        let (any, in_run) = flat.table[key];
        (f.on_squares | (run2 & (f.flat_run2 | in_run)) | any) & mine
    }

    /// The mask of a [`Protect::Tree`] rule: its terms where it is a union
    /// of terms, else its postfix program where there is one, else the walk
    /// of the tree ([`pred_mask`](Self::pred_mask)).
    // Indexed loops over `exact`: the iterator form measured a quarter
    // slower here.
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    fn protected_mask_tree(&self, pos: &Position, owner: Side) -> u64 {
        // The flat form tested where the mask is asked for: tested in the
        // function below, it paid for that function's saved registers.
        match &self.tables.protection.flat {
            Some(flat) => self.protected_mask_flat(flat, pos, owner),
            None => self.protected_mask_general(pos, owner),
        }
    }

    /// [`protected_mask_tree`](Self::protected_mask_tree) for a rule not
    /// of the flat form.
    // The forms that need no saved register here (R-8's shift-ands by a
    // jump, "owner beside in row" in a few shift-ands), the others in a
    // function of their own: the registers those save, paid on entry
    // whatever the form, cost each of these two 16 to 18 instructions a
    // call.
    #[inline(never)]
    fn protected_mask_general(&self, pos: &Position, owner: Side) -> u64 {
        let f = &self.tables.protection;
        if f.shifts_alone {
            return self.protected_mask_shifts(pos, owner);
        }
        if let Some((before, after, squares)) = f.beside {
            let mine = pos.pieces[owner.index()].0;
            return (beside(mine, before, after) | squares) & mine;
        }
        self.protected_mask_other(pos, owner)
    }

    /// [`protected_mask_general`](Self::protected_mask_general) for a
    /// rule neither of `run_shifts` and squares alone nor "owner beside
    /// in row".
    #[allow(clippy::needless_range_loop)] // as in `protected_mask_tree`
    #[inline(never)]
    fn protected_mask_other(&self, pos: &Position, owner: Side) -> u64 {
        let f = &self.tables.protection;
        if let Some((min, squares)) = f.groups {
            let mine = pos.pieces[owner.index()].0;
            return self.in_groups(mine, min) | (mine & squares);
        }
        if !f.terms.is_empty() {
            return self.protected_mask_terms(pos, owner);
        }
        if let Some(classes) = &f.classes {
            let (_, bits) = self.run_bits(pos, owner);
            return classes.first(bits) & pos.pieces[owner.index()].0;
        }
        let prog = &f.program;
        if prog.is_empty() {
            return self.protected_mask_walk(pos, owner);
        }
        match self.program_mask(prog, f.program_runs, pos, owner) {
            Some(m) => m & pos.pieces[owner.index()].0,
            // A run longer than a side's pieces: the walk finds it.
            None => self.protected_mask_walk(pos, owner),
        }
    }

    /// The squares on which a piece of `owner` satisfies the predicate
    /// whose postfix program is `prog` (exact on `owner`'s pieces, as
    /// [`pred_mask`](Self::pred_mask)); `runs`: the program has
    /// run-length or middle-of-run leaves ([`program_runs`]). `None` when
    /// a run is longer than a side's pieces (in a position written by
    /// hand): the walk finds it.
    #[inline]
    pub(crate) fn program_mask(
        &self,
        prog: &[PredOp],
        runs: bool,
        pos: &Position,
        owner: Side,
    ) -> Option<u64> {
        let mut stack = [0u64; PROGRAM_DEPTH];
        self.program_stack(prog, runs, pos, owner, &mut stack)?;
        Some(stack[0])
    }

    /// Runs the postfix program `prog` as
    /// [`program_mask`](Self::program_mask) does, leaving its values on
    /// `stack`: a program made of several predicates' programs, one after
    /// another, leaves each one's mask, in their order (the runs and
    /// their places are found once for all of them).
    #[allow(clippy::needless_range_loop)] // as in `protected_mask_tree`
    #[inline]
    pub(crate) fn program_stack(
        &self,
        prog: &[PredOp],
        runs: bool,
        pos: &Position,
        owner: Side,
        stack: &mut [u64; PROGRAM_DEPTH],
    ) -> Option<()> {
        let mine = pos.pieces[owner.index()].0;
        let (counted, bits) = self.run_bits(pos, owner);
        let max = self.run_bound() as usize;
        // The decomposition by run length only for a program that asks for
        // it (zeroed at every call, it cost the others 10 instructions).
        static NO_RUNS: [u64; 17] = [0; 17];
        let mut exact_runs: [u64; 17];
        let (exact, middle) = if runs {
            exact_runs = [0; 17];
            let middle = runs_by_length(bits, max, &mut exact_runs)?;
            (&exact_runs, middle)
        } else {
            (&NO_RUNS, 0)
        };
        let mut sp = 0;
        for op in prog {
            let v = match *op {
                // (A run of two or more, the usual rule, without loops.)
                PredOp::RunAtLeast(2) => bits & ((bits << 1) | (bits >> 1)),
                PredOp::RunAtLeast(k) => in_runs_of(bits, k as u32),
                PredOp::RunRange(lo, hi) => {
                    in_runs_of(bits, lo as u32) & !in_runs_of(bits, hi as u32 + 1)
                }
                PredOp::Run(lengths) => of_lengths(exact, lengths, counted, max),
                PredOp::Middle => middle,
                PredOp::EndOfRun => bits & (!(bits << 1) | !(bits >> 1)),
                PredOp::InnerOfRun => bits & (bits << 1) & (bits >> 1),
                PredOp::On(sq) => sq,
                PredOp::Taken(sq) => mask_of(pos.occupied().0 & sq != 0),
                PredOp::OwnerOn(sq) => mask_of(mine & sq != 0),
                PredOp::OwnerSkips => mask_of(pos.skip[owner.index()]),
                PredOp::Beside(before, after) => beside(mine, before, after),
                PredOp::Group(min) => self.in_groups(mine, min),
                PredOp::And => {
                    sp -= 2;
                    stack[sp] & stack[sp + 1]
                }
                PredOp::Or => {
                    sp -= 2;
                    stack[sp] | stack[sp + 1]
                }
                PredOp::Not => {
                    sp -= 1;
                    !stack[sp]
                }
            };
            stack[sp] = v;
            sp += 1;
        }
        Some(())
    }

    /// The mask of a rule that is a union of [`Term`]s: the terms of
    /// squares alone as one mask, the terms of runs alone by a table
    /// lookup per run of the owner's pieces, and each other term's run,
    /// middle and square masks and its position-wide conditions, without
    /// a branch on the position.
    #[allow(clippy::needless_range_loop)] // as in `protected_mask_tree`
    fn protected_mask_terms(&self, pos: &Position, owner: Side) -> u64 {
        let f = &self.tables.protection;
        let counted = self.protection.run_squares.0;
        let mine = pos.pieces[owner.index()].0;
        let bits = mine & counted;
        let mut mask = f.on_squares;
        if f.by_run_at_least != 0 {
            mask |= in_runs_of(bits, u32::from(f.by_run_at_least));
        } else if let Some(m) = f.run_shifts.and_then(|r| r.mask(bits)) {
            mask |= m | (!counted & mask_of(f.by_run_zero));
        } else if f.any_by_run {
            mask |= self.by_run_steps(bits) | (!counted & mask_of(f.by_run_zero));
        }
        if f.term_masks.is_empty() {
            return mask & mine;
        }
        let max = self.run_bound() as usize;
        // The decomposition by run length, only where a term asks for it.
        static NO_RUNS: [u64; 17] = [0; 17];
        let mut exact_runs: [u64; 17];
        let (exact, middle) = if f.terms_runs {
            exact_runs = [0; 17];
            match runs_by_length(bits, max, &mut exact_runs) {
                Some(m) => (&exact_runs, m),
                None => return self.protected_mask_walk(pos, owner),
            }
        } else {
            (&NO_RUNS, 0)
        };
        let occupied = pos.occupied().0;
        let skips = mask_of(pos.skip[owner.index()]);
        for t in &f.term_masks {
            let by_run = match t.run {
                RunPart::Any => u64::MAX,
                RunPart::AtLeast(k) => in_runs_of(bits, u32::from(k)),
                RunPart::Lengths(lengths) => of_lengths(exact, lengths, counted, max),
            };
            let by_middle = (middle & t.middle_and) ^ t.middle_xor;
            let mut holds = true;
            for c in &t.conds[..t.n_conds as usize] {
                holds &= c.holds(occupied, mine, skips);
            }
            mask |= by_run & by_middle & t.squares & mask_of(holds);
        }
        mask & mine
    }

    /// The protected pieces of `bits` (the owner's pieces on the counted
    /// squares) by `by_run`, one step per run: its first square `lo` and
    /// length `n`.
    fn by_run_steps(&self, bits: u64) -> u64 {
        let by_run = &self.tables.protection.by_run;
        // As many steps as a side has pieces, whether or not it has that
        // many runs (a step past the last run reads `lo` 64, `n` 0 and
        // adds nothing), so that the loop's end does not follow the
        // position: it was mispredicted on the number of runs.
        let step = |rest: u64, mask: &mut u64| {
            let lo = rest.trailing_zeros();
            let n = (!rest.wrapping_shr(lo)).trailing_zeros();
            *mask |= by_run[n as usize].wrapping_shl(lo);
            // Adding the run's lowest bit carries through the run.
            rest & rest.wrapping_add(1u64.wrapping_shl(lo))
        };
        let mut mask = 0;
        let mut rest = bits;
        for _ in 0..self.pieces {
            rest = step(rest, &mut mask);
        }
        // More runs than pieces (a position written by hand).
        while rest != 0 {
            rest = step(rest, &mut mask);
        }
        mask
    }

    /// [`protected_mask`](Self::protected_mask) where `needed`, else 0,
    /// or the mask anyway where that is cheaper than a branch.
    #[inline]
    pub(crate) fn protected_if(&self, pos: &Position, owner: Side, needed: bool) -> u64 {
        let f = &self.tables.protection;
        match f.protect {
            Protect::Nothing => 0,
            Protect::Runs { .. } => self.protected_mask(pos, owner),
            // "Owner beside in row" (LJ-5), a few shift-ands: asked
            // whether needed or not, rather than after a branch on
            // `needed`, which follows the throws (mispredicted on about one
            // unit in three of `ludii-jequier`). (Its shift-ands written
            // here cost every rule set 12 to 15 instructions per unit.)
            Protect::Tree if f.beside.is_some() || needed => self.protected_mask_tree(pos, owner),
            Protect::Tree => 0,
        }
    }

    fn protected_mask_walk(&self, pos: &Position, owner: Side) -> u64 {
        match &self.protection.rule {
            Some(p) => self.pred_mask(p, pos, owner) & pos.pieces[owner.index()].0,
            None => 0,
        }
    }

    /// The squares runs count on for `owner` in `pos`, and `owner`'s pieces
    /// there: `runs count on`'s squares, without the runs that reach an
    /// excepted square (`except runs reaching`), whose pieces are in no
    /// run.
    #[inline]
    pub(crate) fn run_bits(&self, pos: &Position, owner: Side) -> (u64, u64) {
        let counted = self.protection.run_squares.0;
        let bits = pos.pieces[owner.index()].0 & counted;
        let except = self.protection.run_except.0;
        if except == 0 {
            return (counted, bits);
        }
        // The runs through the excepted squares, grown square by square.
        let mut gone = bits & except;
        loop {
            let next = gone | (bits & ((gone << 1) | (gone >> 1)));
            if next == gone {
                break;
            }
            gone = next;
        }
        (counted & !gone, bits & !gone)
    }

    /// The run lengths that `pred_mask` finds with fixed-length loops: a
    /// side's pieces (longer runs only arise in positions written by hand,
    /// and are found one by one).
    #[inline]
    fn run_bound(&self) -> u32 {
        (self.pieces as u32).clamp(1, 16)
    }

    /// The squares on which a piece of `owner` would satisfy `pred` (exact on
    /// the squares of `owner`'s pieces, which is all that is asked).
    pub(crate) fn pred_mask(&self, pred: &Pred, pos: &Position, owner: Side) -> u64 {
        let all = |b: bool| if b { u64::MAX } else { 0 };
        match pred {
            Pred::RunLength { lengths, .. } => {
                let (counted, bits) = self.run_bits(pos, owner);
                let k = lengths.trailing_zeros();
                if k > 0 && k < 8 && *lengths == u64::MAX << k {
                    // "A run of k or more" (B-7, T-8).
                    return in_runs_of(bits, k);
                }
                // Pieces off the counted squares are in no run (length 0).
                let mut mask = if lengths & 1 != 0 { !counted } else { 0 };
                // Run by run, lengths 1..=max: `win` holds the first squares
                // of n-square windows, `ge` the pieces in runs of n or more.
                // The loops have the same length in every position, so no
                // branch follows the runs.
                let max = self.run_bound();
                let (mut win, mut ge) = (bits, bits);
                for n in 1..=max {
                    let win_next = win & (bits >> n);
                    let mut ge_next = win_next;
                    for i in 1..=n {
                        ge_next |= win_next << i;
                    }
                    mask |= ge & !ge_next & mask_of(lengths >> n & 1 != 0);
                    (win, ge) = (win_next, ge_next);
                }
                // Runs longer than a side's pieces (in a position written
                // by hand), one by one.
                let mut rest = ge;
                while rest != 0 {
                    let lo = rest.trailing_zeros();
                    let n = (!(rest >> lo)).trailing_zeros();
                    let run = (u64::MAX >> (64 - n)) << lo;
                    if n < 64 && lengths & (1u64 << n) != 0 {
                        mask |= run;
                    }
                    rest &= !run;
                }
                mask
            }
            Pred::EndOfRun { .. } => {
                let (_, bits) = self.run_bits(pos, owner);
                bits & (!(bits << 1) | !(bits >> 1))
            }
            Pred::InnerOfRun { .. } => {
                let (_, bits) = self.run_bits(pos, owner);
                bits & (bits << 1) & (bits >> 1)
            }
            Pred::Middle { .. } => {
                let (_, bits) = self.run_bits(pos, owner);
                // As for `RunLength`: a run of exactly n starts on a piece
                // with none before it, with an n-window and no n+1-window.
                let first = bits & !(bits << 1);
                let max = self.run_bound();
                let mut mask = 0;
                let mut win = bits;
                for n in 1..=max {
                    let win_next = win & (bits >> n);
                    if n % 2 == 1 {
                        mask |= (first & win & !win_next) << (n / 2);
                    }
                    win = win_next;
                }
                // Longer runs, one by one.
                let mut rest = 0;
                for i in 0..=max {
                    rest |= win << i;
                }
                while rest != 0 {
                    let lo = rest.trailing_zeros();
                    let n = (!(rest >> lo)).trailing_zeros();
                    let run = (u64::MAX >> (64 - n)) << lo;
                    if n % 2 == 1 {
                        mask |= 1u64 << (lo + n / 2);
                    }
                    rest &= !run;
                }
                mask
            }
            Pred::OnSquare { squares, .. } => squares.0,
            Pred::Taken { squares, .. } => all(pos.occupied().0 & squares.0 != 0),
            Pred::OwnerSkips { .. } => all(pos.skip[owner.index()]),
            Pred::OwnerOn { squares, .. } => all(pos.pieces[owner.index()].0 & squares.0 != 0),
            Pred::OwnerBeside { before, after, .. } => {
                beside(pos.pieces[owner.index()].0, *before, *after)
            }
            Pred::Group { min, .. } => self.in_groups(pos.pieces[owner.index()].0, *min),
            Pred::And(ps) => ps
                .iter()
                .fold(u64::MAX, |m, p| m & self.pred_mask(p, pos, owner)),
            Pred::Or(ps) => ps.iter().fold(0, |m, p| m | self.pred_mask(p, pos, owner)),
            Pred::Not(p) => !self.pred_mask(p, pos, owner),
        }
    }
}

impl Ruleset {
    /// Whether the piece on `square` is protected.
    pub fn protected(&self, pos: &Position, square: u8) -> bool {
        match &self.protection.rule {
            Some(p) => self.eval(p, pos, square),
            None => false,
        }
    }

    pub(crate) fn eval(&self, pred: &Pred, pos: &Position, square: u8) -> bool {
        match pred {
            Pred::RunLength { lengths, .. } => {
                let (len, _) = self.run_of(pos, square);
                lengths & (1u64 << len) != 0
            }
            Pred::Middle { .. } => {
                let (len, index) = self.run_of(pos, square);
                len % 2 == 1 && index == len / 2
            }
            Pred::EndOfRun { .. } => {
                let (len, index) = self.run_of(pos, square);
                len > 0 && (index == 0 || index + 1 == len)
            }
            Pred::InnerOfRun { .. } => {
                let (len, index) = self.run_of(pos, square);
                index > 0 && index + 1 < len
            }
            Pred::OnSquare { squares, .. } => squares.contains(square),
            Pred::Taken { squares, .. } => pos.occupied().0 & squares.0 != 0,
            Pred::OwnerSkips { .. } => pos.at(square).is_some_and(|s| pos.skip[s.index()]),
            Pred::OwnerOn { squares, .. } => pos
                .at(square)
                .is_some_and(|s| pos.pieces[s.index()].0 & squares.0 != 0),
            Pred::OwnerBeside { before, after, .. } => pos.at(square).is_some_and(|s| {
                beside(pos.pieces[s.index()].0, *before, *after) >> square & 1 != 0
            }),
            Pred::Group { min, .. } => pos.at(square).is_some_and(|s| {
                self.board
                    .group_of(pos.pieces[s.index()].0, square)
                    .count_ones()
                    >= u32::from(*min)
            }),
            Pred::And(ps) => ps.iter().all(|p| self.eval(p, pos, square)),
            Pred::Or(ps) => ps.iter().any(|p| self.eval(p, pos, square)),
            Pred::Not(p) => !self.eval(p, pos, square),
        }
    }

    /// The length of the run containing `square` and the square's index in it
    /// (0 = lowest square), counting only `protection.run_squares`. A piece
    /// outside those squares is in no run (length 0).
    fn run_of(&self, pos: &Position, square: u8) -> (u32, u32) {
        let side = match pos.at(square) {
            Some(s) => s,
            None => return (0, 0),
        };
        let (counted, bits) = self.run_bits(pos, side);
        if counted & (1u64 << square) == 0 {
            return (0, 0);
        }
        let above = !(bits >> square);
        let up = above.trailing_zeros();
        let below = !(bits << (64 - square as u32));
        let down = if square == 0 {
            0
        } else {
            below.leading_zeros()
        };
        (up + down, down)
    }

    /// The clause of the first protection predicate that holds for the piece
    /// on `square` (the one that protects it).
    pub(crate) fn protection_clause(&self, pos: &Position, square: u8) -> Clause {
        fn find(rules: &Ruleset, pred: &Pred, pos: &Position, sq: u8) -> Option<Clause> {
            match pred {
                Pred::RunLength { clause, .. }
                | Pred::Middle { clause }
                | Pred::EndOfRun { clause }
                | Pred::InnerOfRun { clause }
                | Pred::OnSquare { clause, .. }
                | Pred::Taken { clause, .. }
                | Pred::OwnerOn { clause, .. }
                | Pred::OwnerSkips { clause }
                | Pred::OwnerBeside { clause, .. }
                | Pred::Group { clause, .. } => rules.eval(pred, pos, sq).then(|| clause.clone()),
                Pred::And(ps) => {
                    if rules.eval(pred, pos, sq) {
                        ps.iter().find_map(|p| find(rules, p, pos, sq))
                    } else {
                        None
                    }
                }
                Pred::Or(ps) => ps.iter().find_map(|p| find(rules, p, pos, sq)),
                Pred::Not(p) => {
                    if rules.eval(pred, pos, sq) {
                        // The negated predicate's own clause is the nearest citation.
                        first_clause(p)
                    } else {
                        None
                    }
                }
            }
        }
        fn first_clause(pred: &Pred) -> Option<Clause> {
            match pred {
                Pred::RunLength { clause, .. }
                | Pred::Middle { clause }
                | Pred::EndOfRun { clause }
                | Pred::InnerOfRun { clause }
                | Pred::OnSquare { clause, .. }
                | Pred::Taken { clause, .. }
                | Pred::OwnerOn { clause, .. }
                | Pred::OwnerSkips { clause }
                | Pred::OwnerBeside { clause, .. }
                | Pred::Group { clause, .. } => Some(clause.clone()),
                Pred::And(ps) | Pred::Or(ps) => ps.iter().find_map(first_clause),
                Pred::Not(p) => first_clause(p),
            }
        }
        self.protection
            .rule
            .as_ref()
            .and_then(|p| find(self, p, pos, square))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testing::{random_position, variants};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    #[test]
    fn a_run_of_every_length_from_n_reads_as_n_or_more() {
        let houses = [House {
            square: 26,
            name: "House of Happiness".into(),
            glyph: None,
            clause: String::new(),
        }];
        let names = Names { houses: &houses };
        let p = Pred::Or(vec![
            Pred::RunLength {
                lengths: u64::MAX << 2,
                clause: "K-9a".into(),
            },
            Pred::And(vec![
                Pred::OnSquare {
                    squares: SquareSet::range(26, 30),
                    clause: "K-9b".into(),
                },
                Pred::Not(Box::new(Pred::Middle {
                    clause: "K-9a".into(),
                })),
            ]),
        ]);
        assert_eq!(
            p.sentence(&names),
            "it is in a run of 2 or more or (it stands on 26..30 and it is not the middle piece of its run)"
        );
        assert_eq!(
            p.token(),
            "or(run >=2 [K-9a], and(on {26..30} [K-9b], not(middle [K-9a])))"
        );
        assert_eq!(p.clauses(), ["K-9a", "K-9b"]);
        // Two lengths are a list, not "or more".
        let two = Pred::RunLength {
            lengths: 0b1100,
            clause: String::new(),
        };
        assert_eq!(two.sentence(&names), "it is in a run of 2 or 3");
        assert_eq!(two.token(), "run in {2, 3}");
    }

    /// The protection rules of the built-in sets that have the simple form
    /// are evaluated as such (the test above checks them against the
    /// general `protected`).
    #[test]
    fn simple_protection_rules_take_the_mask_form() {
        let protect = |name: &str| {
            crate::rules::load(name, None, &[])
                .unwrap()
                .tables
                .protection
                .protect
        };
        let sq = |s: &[u8]| s.iter().fold(0u64, |m, &q| m | 1 << q);
        assert_eq!(protect("bga"), Protect::Runs { run: 2, squares: 0 });
        assert_eq!(protect("thai"), Protect::Runs { run: 2, squares: 0 });
        assert_eq!(
            protect("kendall"),
            Protect::Runs {
                run: 2,
                squares: sq(&[26, 28, 29, 30])
            }
        );
        assert_eq!(
            protect("bell"),
            Protect::Runs {
                run: 0,
                squares: sq(&[15, 26, 27, 28, 29])
            }
        );
        assert_eq!(
            protect("gym-senet-kendall"),
            Protect::Runs {
                run: 2,
                squares: sq(&[15, 26, 27, 28, 29, 30])
            }
        );
        assert_eq!(protect("ryabinin"), Protect::Tree);
        // Unions of terms of runs of 2 or more, squares and conditions on
        // a few facts take the flat form.
        for name in ["kendall1979", "ludii-kendall", "horolsky-kendall"] {
            let r = crate::rules::load(name, None, &[]).unwrap();
            assert!(r.tables.protection.flat.is_some(), "{name}");
        }
        // The other rules are unions of terms, or else postfix programs
        // (the mask test checks both against `protected`).
        for name in ["ryabinin", "kendall1979"] {
            let r = crate::rules::load(name, None, &[]).unwrap();
            assert!(!r.tables.protection.terms.is_empty(), "{name}");
        }
        let file = crate::diag::SourceFile::new(
            "overlay.senet",
            "extends \"thai\"\nprotect when not ((run >= 2 [X-1]) or (on 20..22 [X-2]))\n",
        );
        let r = crate::rules::load_source(file, &[]).unwrap();
        assert!(r.tables.protection.terms.is_empty() && !r.tables.protection.program.is_empty());
        let file = crate::diag::SourceFile::new(
            "overlay.senet",
            "extends \"kendall\"\nprotect when ((run = 2 [X-1]) or (on 5..9 [X-2])) or (owner on 27 [X-3])\n",
        );
        let r = crate::rules::load_source(file, &[]).unwrap();
        assert_eq!(r.tables.protection.terms.len(), 3);
        let file = crate::diag::SourceFile::new(
            "overlay.senet",
            "extends \"thai\"\nprotect when (on 20..22 [X-2]) or (run >= 4 [X-1])\n",
        );
        assert_eq!(
            crate::rules::load_source(file, &[])
                .unwrap()
                .tables
                .protection
                .protect,
            Protect::Runs {
                run: 4,
                squares: sq(&[20, 21, 22])
            }
        );
    }

    /// Groups, alone or beside squares, take the group masks.
    #[test]
    fn group_protection_takes_the_group_masks() {
        let rules = crate::rules::load("macabot", None, &[]).unwrap();
        let sq = |s: &[u8]| s.iter().fold(0u64, |m, &q| m | 1 << q);
        assert_eq!(rules.tables.protection.protect, Protect::Tree);
        assert_eq!(rules.tables.protection.groups, Some((2, sq(&[26, 28, 29]))));
        let file = crate::diag::SourceFile::new(
            "overlay.senet",
            "extends \"macabot\"\nprotect when group >= 3 [X-1]\n",
        );
        let r = crate::rules::load_source(file, &[]).unwrap();
        assert_eq!(r.tables.protection.groups, Some((3, 0)));
    }

    /// "Owner beside in row", alone or beside squares, takes its shift-ands
    /// (and `protected_mask_agrees_with_protected` compares them with
    /// `protected` in every variant).
    #[test]
    fn beside_protection_takes_the_beside_masks() {
        let rules = crate::rules::load("ludii-jequier", None, &[]).unwrap();
        let sq = |s: &[u8]| s.iter().fold(0u64, |m, &q| m | 1 << q);
        assert_eq!(rules.tables.protection.protect, Protect::Tree);
        let (before, after, squares) = rules.tables.protection.beside.unwrap();
        assert_eq!(squares, sq(&[15, 26, 28, 29]));
        // 10 and 11 lie in two rows of the board: neither is beside the
        // other.
        assert_eq!(before >> 11 & 1, 0);
        assert_eq!(after >> 10 & 1, 0);
        assert_eq!(before >> 12 & 1, 1);
        let file = crate::diag::SourceFile::new(
            "overlay.senet",
            "extends \"ludii-jequier\"\nprotect when owner beside in row [X-1]\n",
        );
        let r = crate::rules::load_source(file, &[]).unwrap();
        assert_eq!(r.tables.protection.beside, Some((before, after, 0)));
    }

    /// `end of run`, `inner of run` and `except runs reaching`, on the
    /// built-in rule set that has them: ends of runs of two or more and a
    /// piece on 15 in no run are safe; inner pieces and the pieces of a run
    /// through 27 are not.
    #[test]
    fn places_in_runs_and_runs_that_do_not_count() {
        let rules = crate::rules::load("gym-senet-skiryuk", None, &[]).unwrap();
        let at = |text: &str| Position::parse(text, 30, 10).unwrap();
        // Black on 14, 15, 16 (a run of three) and on 24, 25, 26, 27.
        let pos = at("10/3BBB4/3BBBB3 w 0-0 - 1");
        let safe: Vec<u8> = pos.pieces[Side::Black.index()]
            .iter()
            .filter(|&s| rules.protected(&pos, s))
            .collect();
        // The ends 14 and 16; 26 and 27 by their squares; 15 (inner) and
        // 24, 25 (a run reaching 27) are not.
        assert_eq!(safe, [14, 16, 26, 27]);
        assert_eq!(rules.run_of(&pos, 24), (0, 0));
        assert_eq!(rules.run_of(&pos, 15), (3, 1));
        let end = Pred::EndOfRun {
            clause: String::new(),
        };
        let inner = Pred::InnerOfRun {
            clause: String::new(),
        };
        let black = pos.pieces[Side::Black.index()].0;
        assert_eq!(
            rules.pred_mask(&end, &pos, Side::Black) & black,
            1 << 14 | 1 << 16
        );
        assert_eq!(rules.pred_mask(&inner, &pos, Side::Black) & black, 1 << 15);
        // Alone on 15, the piece is safe.
        let pos = at("10/4B5/10 w 4-4 - 1");
        assert!(rules.protected(&pos, 15));
    }

    /// Lays a run of one side's pieces, longer than the side has, from a
    /// square in the first half of the board: positions written by hand
    /// may hold more pieces than the rule set has, in runs longer than any
    /// game makes.
    fn lay_long_run(rules: &Ruleset, pos: &mut Position, rng: &mut Pcg64) {
        let len = rules.board.len;
        let start = rng.random_range(1..=len / 2);
        let run = rng.random_range(rules.pieces..=rules.pieces + 6);
        let side = rng.random_range(0..2);
        for q in start..(start + run).min(len + 1) {
            pos.pieces[1 - side].remove(q);
            pos.pieces[side].insert(q);
        }
    }

    /// What [`same_masks`] compared.
    struct MaskCounts {
        /// Masks compared (one per side and position).
        masks: usize,
        /// Protected pieces in them.
        protected: u32,
        /// Masks that `rules`' shift-ands ([`RunShifts`]) gave, no run
        /// being too long for them.
        shifted: usize,
    }

    /// Compares the protection masks of `rules` with those of `reference`
    /// (the same rule set with one form taken away) on both sides' pieces,
    /// in 400 random positions, a quarter of them with a run longer than a
    /// side's pieces.
    fn same_masks(name: &str, rules: &Ruleset, reference: &Ruleset, rng: &mut Pcg64) -> MaskCounts {
        let counted = rules.protection.run_squares.0;
        let shifts = rules.tables.protection.run_shifts;
        let mut counts = MaskCounts {
            masks: 0,
            protected: 0,
            shifted: 0,
        };
        for i in 0..400 {
            let mut pos = random_position(rules, rng);
            if i % 4 == 0 {
                lay_long_run(rules, &mut pos, rng);
            }
            for owner in Side::BOTH {
                let mine = pos.pieces[owner.index()].0;
                let mask = rules.protected_mask(&pos, owner) & mine;
                assert_eq!(
                    mask,
                    reference.protected_mask(&pos, owner) & mine,
                    "{name}: {owner:?} in {}",
                    pos.write(30, 10)
                );
                counts.masks += 1;
                counts.protected += mask.count_ones();
                counts.shifted +=
                    usize::from(shifts.is_some_and(|s| s.mask(mine & counted).is_some()));
            }
        }
        counts
    }

    /// Programs whose leaves read places in runs and squares only take the
    /// tables by run class (`gym-senet-skiryuk`'s, and the overlays of
    /// `variants` with such programs), whose masks are the program's, in
    /// positions with runs longer than a side's pieces too.
    #[test]
    fn run_classes_give_the_programs_masks() {
        let skiryuk = crate::rules::load("gym-senet-skiryuk", None, &[]).unwrap();
        assert!(skiryuk.tables.protection.classes.is_some());
        let mut rng = Pcg64::seed_from_u64(11);
        let (mut sets, mut checked) = (0, 0);
        for (name, rules) in variants() {
            if rules.tables.protection.classes.is_none() {
                continue;
            }
            sets += 1;
            let mut program = rules.clone();
            program.tables.protection.classes = None;
            checked += same_masks(&name, &rules, &program, &mut rng).masks;
        }
        assert!(
            sets >= 3 && checked >= 2400,
            "{sets} rule sets, {checked} masks"
        );
        // A leaf the classes do not tell apart (the middle of a run): no
        // tables.
        let file = crate::diag::SourceFile::new(
            "overlay.senet",
            "extends \"gym-senet-skiryuk\"\nprotect when (end of run [X-1]) or (middle of run [X-2])\n",
        );
        let r = crate::rules::load_source(file, &[]).unwrap();
        assert!(r.tables.protection.classes.is_none() && !r.tables.protection.program.is_empty());
    }

    /// R-8's runs by length, one step per piece of a side: a position
    /// written by hand with more runs than a side has pieces takes the
    /// loop after the steps, and reads as `protected` does.
    #[test]
    fn more_runs_than_pieces_are_all_read() {
        let rules = crate::rules::load("ryabinin", None, &[]).unwrap();
        assert!(rules.tables.protection.any_by_run);
        // White: eight runs (of 1, 2, 1, 3, 1, 2, 1, 1) on 1..30.
        let pos = Position::parse("W1WW1W1WWW/1W1WW1W1W1/10 b 0-0 - 1", 30, 10).unwrap();
        let white = pos.pieces[Side::White.index()];
        assert!(white.0.count_ones() > 2 * rules.pieces as u32);
        let mask = rules.protected_mask(&pos, Side::White);
        for s in white.iter() {
            assert_eq!(mask >> s & 1 != 0, rules.protected(&pos, s), "square {s}");
        }
        assert_ne!(mask & white.0, 0);
        // And by the steps per run, which the shift-ands leave aside.
        let mut steps = rules.clone();
        steps.tables.protection.run_shifts = None;
        steps.tables.protection.shifts_alone = false;
        steps.tables.protection.shifts_two_to_five = false;
        assert_eq!(
            steps.protected_mask(&pos, Side::White) & white.0,
            mask & white.0
        );
    }

    /// Runs of a range of lengths with the middles of some odd runs
    /// toggled as shift-ands give the masks of the steps per run, in
    /// positions with runs longer than a side's pieces too (which the
    /// shift-ands leave to the steps).
    #[test]
    fn run_shifts_give_the_steps_masks() {
        let ryabinin = crate::rules::load("ryabinin", None, &[]).unwrap();
        assert!(ryabinin.tables.protection.shifts_alone);
        // R-8's form, whose fields are constants where it is read.
        assert_eq!(
            ryabinin.tables.protection.run_shifts,
            Some(RunShifts::TWO_TO_FIVE)
        );
        assert!(ryabinin.tables.protection.shifts_two_to_five);
        let mut rng = Pcg64::seed_from_u64(11);
        let (mut sets, mut protected, mut shifted) = (0, 0, 0);
        for (name, rules) in variants() {
            if rules.tables.protection.run_shifts.is_none() {
                continue;
            }
            sets += 1;
            let mut steps = rules.clone();
            steps.tables.protection.run_shifts = None;
            steps.tables.protection.shifts_alone = false;
            steps.tables.protection.shifts_two_to_five = false;
            let counts = same_masks(&name, &rules, &steps, &mut rng);
            protected += counts.protected;
            shifted += counts.shifted;
        }
        assert!(sets >= 4, "{sets} rule sets of the shift-and form");
        assert!(protected >= 4000, "{protected} protected pieces");
        assert!(shifted >= 1000, "{shifted} masks by the shift-ands");
    }

    #[test]
    fn protected_mask_agrees_with_protected() {
        let mut rng = Pcg64::seed_from_u64(7);
        let mut flat = 0;
        for (name, rules) in variants() {
            // The rule sets of the flat form are also compared without it,
            // so that the terms' own masks stay checked.
            let general = rules.tables.protection.flat.is_some().then(|| {
                flat += 1;
                let mut g = rules.clone();
                g.tables.protection.flat = None;
                g
            });
            for i in 0..400 {
                let mut pos = random_position(&rules, &mut rng);
                if i % 4 == 0 {
                    lay_long_run(&rules, &mut pos, &mut rng);
                }
                for owner in Side::BOTH {
                    let mask = rules.protected_mask(&pos, owner);
                    let terms = general.as_ref().map(|g| g.protected_mask(&pos, owner));
                    for s in pos.pieces[owner.index()].iter() {
                        let want = rules.protected(&pos, s);
                        assert_eq!(
                            mask & (1 << s) != 0,
                            want,
                            "{name}: square {s} in {}",
                            pos.write(30, 10)
                        );
                        if let Some(terms) = terms {
                            assert_eq!(
                                terms & (1 << s) != 0,
                                want,
                                "{name} without the flat form: square {s} in {}",
                                pos.write(30, 10)
                            );
                        }
                    }
                }
            }
        }
        assert!(flat >= 3, "{flat} variants of the flat form");
    }
}
