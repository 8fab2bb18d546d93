//! Move generation over a compiled [`Ruleset`]: the order of the stages.
//!
//! One generator, `Ruleset::generate`, runs a fixed list of stages over
//! square sets; `legal_units` runs it for the units alone and `refusals`
//! for the refusals too, so what the checker explains is exactly what the
//! generator decided. Each stage's code, and the tables it starts from,
//! live in its construct's module (`super::constructs`); this file says
//! in which order they run, and splits the positions without rule state
//! (`calm`) from the others. A move the compiled tables do not decide is
//! tried by one function, `Ruleset::attempt`, which either builds the unit
//! or says which constraint refused it.

// Nested `if let`s here test a rule and then a position fact; keeping them
// apart reads closer to the clauses than let-chains do.
#![allow(clippy::collapsible_if)]

use super::constructs::movement::HitDest;
use super::{Heading, Hit, Position, Ruleset, SquareSet, Unit, UnitKind, between};

/// Why a move was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Forbid {
    /// No piece of the side to move stands on the square.
    NoPiece,
    /// The target holds a piece of the mover's own colour.
    OwnPiece,
    /// The target holds a protected opposing piece.
    Protected,
    /// The move passes over a blockade (index into `Ruleset::blockades`).
    Blockade(u8),
    /// A forward move passes over a piece that the blockade on forward
    /// moves forbids for its target (index into its cases).
    TargetBlockade(u8),
    /// The move passes a square that must be landed on exactly.
    Gate(u8),
    /// The piece stands on a square from which it only bears off.
    Immobile,
    /// The move ends beyond the end of the track without bearing off.
    BeyondEnd,
    /// This square bears off only with other throws.
    ExitThrow,
    /// Bearing off needs all the side's pieces in a region.
    NotAllIn,
    /// A piece on a priority square can move and must.
    Priority,
    /// A forward move exists, so backward moves are not allowed; or backward
    /// moves are never allowed.
    Backward,
    /// The opening binds this unit.
    Opening,
    /// The pending throw is bound to another piece.
    Bound,
    /// A piece of the mover's on a lock square holds its other pieces.
    Locked,
    /// The piece would be relocated to an occupied square.
    RelocationBlocked,
    /// The turn is missed: the only unit is `skip`.
    MissedTurn,
    /// The piece reached its square during this turn and may bear off from
    /// it only in a later turn (A-14 alternative).
    ArrivedThisTurn,
    /// A backward move would go past the first square.
    BeforeStart,
    /// Backward moves go to empty squares only (JQ-7).
    BackwardOntoPiece,
    /// A piece on its setup square waits for the square in front (JQ-4).
    Guard,
    /// The side has not yet thrown its starting throw (KD-10).
    StartingThrow,
    /// The target holds a piece and no move may land on one (PC-3).
    Occupied,
    /// The turn's moves have gone the other way (PC-4).
    Direction,
    /// A piece on this square never moves backward (PC-4).
    NoBackward,
    /// A piece on this square never moves forward along the track; it only
    /// bears off or moves backward (HM-9b).
    NoForward,
    /// The opposing piece is never swapped here and the square it would go
    /// to is taken (B-15).
    HitSendsTaken,
    /// The square half the throw ahead lies in a row of taken squares
    /// (LJ-4).
    Halfway,
    /// A piece leaves without a throw first (`bear off without a throw`).
    BearOffDue,
    /// A piece a lock moved out binds its owner's ply (LK-12).
    Released,
    /// The move would pass this square, which drops it onto a square only
    /// while that square is empty, and it is taken (LK-16).
    DropTaken(u8),
}

/// The units `out[a..b]` that a stage wrote with their marks complete
/// (`Some((a, b))`), which `generate` does not mark again.
type Marked = Option<(usize, usize)>;

/// What the stages gave for a throw.
#[derive(Clone, Copy)]
pub(crate) enum Listed {
    /// The units, written into `out` (`Marked` as there).
    Units(Marked),
    /// Only when asked to count (a playout that plays one unit): none
    /// written, the units being the ordinary steps from these squares
    /// (not 0) in ascending order, the squares of sure bear-offs past the
    /// last square and of relocating landings sure to be legal among them,
    /// and a voluntary pass where
    /// `Tables::pass_beside_steps` (`Ruleset::forward_stage`).
    Steps(u64),
    /// Only when asked to count: the ordinary steps from the squares of
    /// `steps` in ascending order, counted rather than written beside the
    /// split units (`Tables::steps_beside_splits`; relocating landings
    /// sure to be legal among them, as in `Steps`), then the units
    /// written into `out` (an entry from the hand), then `splits` split
    /// units counted rather than written (`Ruleset::split_count` or
    /// `Ruleset::any_split_count`, and `Ruleset::nth_split`), then the
    /// voluntary pass where the rule set has one (no other pass comes
    /// beside split units or steps where they are counted, and the split
    /// units of a throw bound to a piece, which has no voluntary pass,
    /// are counted only without one). `steps` and `splits` are not both
    /// 0. `cuts`: for a split in two of a throw of 5 or less, the count of
    /// each cut (16 bits from the cut of 1 up), so that the drawn unit's
    /// search starts at its cut (`SplitMasks::nth`); else not read (0
    /// for a throw in any number of parts; for a throw above 5, the
    /// higher cuts' counts laid over the lower ones).
    Splits {
        steps: u64,
        splits: usize,
        cuts: u64,
    },
}

/// A refused move: from, the intended target (`len + 1` for off), the reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Refusal {
    pub from: u8,
    pub to: u8,
    pub forbid: Forbid,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dir {
    Forward,
    Backward,
}

/// The outcome of trying one move: the unit, or the refusal together with,
/// for a target refused only because it was protected on a square that
/// diverts the mover (B-13), the diverted unit.
pub(crate) type Tried = Result<Unit, (Refusal, Option<Unit>)>;

/// What stages 1 to 5 leave for the stages that follow: the direction the
/// turn's moves have gone (PC-4), the opening rule in force (K-5, K-7) and
/// the piece a throw is bound to (R-11, PC-2).
#[derive(Clone, Copy)]
struct TurnState<'a> {
    heading: Heading,
    opening: Option<&'a super::OpeningRule>,
    bound: Option<u8>,
}

impl TurnState<'_> {
    /// None of them: the state of most positions.
    const CALM: TurnState<'static> = TurnState {
        heading: Heading::Any,
        opening: None,
        bound: None,
    };
}

impl Ruleset {
    /// The units legal for `throw` in `pos`, into `out` (cleared first).
    /// Empty when the throw itself is not allowed now (a missed turn, or an
    /// opening that requires another throw).
    #[inline]
    pub fn legal_units(&self, pos: &Position, throw: u8, out: &mut Vec<Unit>) {
        self.legal_units_inline(pos, throw, out);
    }

    /// [`legal_units`](Self::legal_units), always inlined into its caller:
    /// for a playout loop, whose one call per unit the compiler otherwise
    /// keeps out of line in the library (the unit list then goes through
    /// memory and the rule set's tests are made afresh every call). Other
    /// callers use `legal_units`, so the generator is not copied into each.
    #[inline(always)]
    pub(crate) fn legal_units_inline(&self, pos: &Position, throw: u8, out: &mut Vec<Unit>) {
        out.clear();
        self.generate::<false>(pos, throw, out, &mut Vec::new());
    }

    /// [`legal_units_inline`](Self::legal_units_inline) with the moves'
    /// `+` as their stages made it, not yet completed by what each move
    /// does: for a playout that plays one of them, marked first by
    /// [`mark_move`](Self::mark_move). The units are the same, in the same
    /// order; only their marks may differ.
    // (The simulator's driver uses the shaped form below, one copy per
    // shape of rule set.)
    #[cfg(test)]
    pub(crate) fn legal_units_unmarked(&self, pos: &Position, throw: u8, out: &mut Vec<Unit>) {
        out.clear();
        self.stages::<false, false>(pos, throw, out, &mut Vec::new());
    }

    /// The unit [`legal_units`](Self::legal_units) would list at index
    /// `pick(n)`, `n` the number of units it would list (`None`, and
    /// `pick` not called, when it would list none): for a playout that
    /// plays one unit of the list. `pick` is called once, with `n >= 1`,
    /// and must return an index below `n`. The unit, its `+` included, is
    /// the listed one; `out` holds it (and perhaps others).
    ///
    /// Where a calm position's forward moves are ordinary steps alone (or
    /// with sure bear-offs past the last square and relocating landings
    /// sure to be legal, `StepSets::land`, which count as steps) and
    /// no later stage adds a unit to them but a voluntary pass (the
    /// forward stage, `forward_stage`, asked to count), the units are the
    /// steps from the squares of a square set in ascending order (and the
    /// pass): they are counted, and only the one picked is written
    /// (`nth_step_as`). Likewise, where the square sets decide every unit
    /// of a split throw (PC-3, `split_count`), the split units are
    /// counted after the units written before them, and only the drawn
    /// one's first part is written (`nth_listed_or_split`); the ordinary
    /// steps before those are then counted too, in rule state as well
    /// (`Tables::steps_beside_splits`, `Listed::Splits`), and a drawn
    /// split unit of two plain steps is written alone. Otherwise the
    /// list is written as [`legal_units`] writes it, its moves' `+`
    /// unfinished, and the `+` completed for the one picked
    /// (`mark_move`).
    ///
    /// [`legal_units`]: Self::legal_units
    ///
    /// # Panics
    ///
    /// When `pick` returns an index of `n` or more.
    #[inline(always)]
    pub fn pick_unit<'a>(
        &self,
        pos: &Position,
        throw: u8,
        out: &'a mut Vec<Unit>,
        pick: impl FnOnce(usize) -> usize,
    ) -> Option<&'a Unit> {
        // One copy of the whole pick per shape of rule set, each with its
        // copy of the calm stages.
        if self.tables.plain_shape {
            self.pick_unit_as::<true, false>(pos, throw, out, pick)
        } else if self.tables.grouped_shape {
            self.pick_unit_as::<false, true>(pos, throw, out, pick)
        } else {
            self.pick_unit_as::<false, false>(pos, throw, out, pick)
        }
    }

    /// [`pick_unit`](Self::pick_unit) with the copy of the calm
    /// positions' stages for a rule set of the plain shape (`PLAIN`), of
    /// the grouped one (`GROUPED`) or the general one.
    #[inline(always)]
    fn pick_unit_as<'a, const PLAIN: bool, const GROUPED: bool>(
        &self,
        pos: &Position,
        throw: u8,
        out: &'a mut Vec<Unit>,
        pick: impl FnOnce(usize) -> usize,
    ) -> Option<&'a Unit> {
        let checked = |n: usize| {
            let i = pick(n);
            assert!(i < n, "index {i} of {n} units");
            i
        };
        let unasked = |_: &mut [Unit]| -> usize { unreachable!("only `pick` chooses") };
        self.pick_known::<PLAIN, GROUPED>(pos, throw, self.calm(pos), true, out, checked, unasked)
    }

    /// The unit a playout plays for `throw` in `pos`, whose answer to
    /// [`calm`](Self::calm) the caller knows (`is_calm`): with `draw`,
    /// one unit drawn by `pick(n)` among the `n` that
    /// [`legal_units`](Self::legal_units) would list, only that one
    /// completed (and, where the units are counted, only that one
    /// written), as [`pick_unit`](Self::pick_unit) says; else the list
    /// written with every `+` complete, and the unit `choose` picks
    /// (its index). `None` when there is no unit. One call of the
    /// stages either way, so that a loop of players who draw and players
    /// who choose holds one copy of them (the simulator's driver).
    /// `pick` must return an index below `n`. `PLAIN` and `GROUPED`
    /// choose the copy of the calm positions' stages, as in
    /// [`legal_units_unmarked_known`](Self::legal_units_unmarked_known).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn pick_known<'a, const PLAIN: bool, const GROUPED: bool>(
        &self,
        pos: &Position,
        throw: u8,
        is_calm: bool,
        draw: bool,
        out: &'a mut Vec<Unit>,
        pick: impl FnOnce(usize) -> usize,
        choose: impl FnOnce(&mut [Unit]) -> usize,
    ) -> Option<&'a Unit> {
        let listed =
            self.legal_units_unmarked_known::<PLAIN, GROUPED>(pos, throw, is_calm, draw, out);
        if let Listed::Steps(steps) = listed {
            let i = pick(self.counted(steps));
            return Some(self.nth_step_as::<PLAIN>(pos, throw, steps, i, out));
        }
        // (A rule set of the plain or the grouped shape has no split
        // throw: its copy has no test of them.)
        debug_assert!(!(PLAIN || GROUPED) || !matches!(listed, Listed::Splits { .. }));
        if !(PLAIN || GROUPED)
            && let Listed::Splits {
                steps,
                splits,
                cuts,
            } = listed
        {
            let stepped = steps.count_ones() as usize;
            let written = out.len();
            let i = pick(stepped + written + splits + usize::from(self.movement.voluntary_pass));
            return Some(
                self.nth_listed_or_split(pos, throw, steps, written, splits, cuts, i, out),
            );
        }
        if out.is_empty() {
            return None;
        }
        let i = if draw {
            let i = pick(out.len());
            self.mark_move(pos, &mut out[i]);
            i
        } else {
            self.mark_listed(pos, out);
            choose(out)
        };
        Some(&out[i])
    }

    /// The number of units of a calm position's list that
    /// [`forward_stage`](Self::forward_stage) counted rather than wrote:
    /// the steps (and sure bear-offs, and relocating landings sure to be
    /// legal) from the squares of `steps`, and
    /// the voluntary pass after them where the rule set has one.
    #[inline(always)]
    pub(crate) fn counted(&self, steps: u64) -> usize {
        steps.count_ones() as usize + usize::from(self.tables.pass_beside_steps)
    }

    /// The unit at index `i` (below [`counted`](Self::counted)) of the
    /// list that [`forward_stage`](Self::forward_stage) counted rather
    /// than wrote, the steps (and sure bear-offs past the last square,
    /// and relocating landings sure to be legal) from the squares of
    /// `steps` and perhaps a voluntary pass, with its `+` complete,
    /// written alone into `out`. `PLAIN`: in the copy of the stages of a
    /// rule set of the plain shape, which counts no relocating landing;
    /// else of the general shape, where some may be (`StepSets::land`,
    /// squares of `Steps::fwd_sure`).
    #[inline(always)]
    pub(crate) fn nth_step_as<'a, const PLAIN: bool>(
        &self,
        pos: &Position,
        throw: u8,
        steps: u64,
        i: usize,
        out: &'a mut Vec<Unit>,
    ) -> &'a Unit {
        debug_assert!(i < self.counted(steps));
        // (Without a loop whose trip count is the drawn index.)
        let bit = super::cpu::nth_square(steps, i);
        out.clear();
        if bit != 0 {
            self.push_counted_step::<PLAIN>(pos, throw, bit, out);
            self.mark_move(pos, &mut out[0]);
        } else {
            // The voluntary pass after the steps (`pass_stage`).
            assert!(
                self.tables.pass_beside_steps,
                "index {i} of the steps {steps:#x}"
            );
            out.push(Unit::pass(throw, self.throws.gives_extra(throw), false));
        }
        &out[0]
    }

    /// Pushes the unit of the square `bit` among the squares whose units
    /// [`forward_stage`](Self::forward_stage) counted rather than wrote,
    /// its `+` as the stage gives it: the ordinary step, the sure
    /// bear-off past the last square, or (`!PLAIN`) the relocating
    /// landing sure to be legal. For [`nth_step_as`](Self::nth_step_as),
    /// and for `push_steps_beside_splits`, which writes the steps counted
    /// beside split units where those are not counted after all.
    #[inline(always)]
    pub(crate) fn push_counted_step<const PLAIN: bool>(
        &self,
        pos: &Position,
        throw: u8,
        bit: u64,
        out: &mut Vec<Unit>,
    ) {
        let from = bit.trailing_zeros() as u8;
        // A sure bear-off counted beside the steps lands past the last
        // square (`forward_stage`); an ordinary step never does.
        // Pushed in each branch: a unit chosen between the two was
        // built byte by byte on the stack and copied into `out` by
        // wider loads, which wait for those stores to retire (a store
        // forwarding stall, the loop's costliest instruction timed);
        // the step alone is written straight into `out`.
        if from + throw > self.board.len {
            self.push_counted_bear_off(from, throw, out);
        } else {
            out.push(self.plain_step(pos, from, throw));
        }
        // (A relocating landing is its step with its relocation.)
        if !PLAIN && self.counted_lands(throw, bit) {
            let last = out.len() - 1;
            self.relocate_counted(pos, &mut out[last]);
        }
    }

    /// The unit at index `i` of a list whose split units the stages
    /// counted rather than wrote (`Listed::Splits`): the steps from the
    /// squares of `steps` counted beside them, the `written` units in
    /// `out`, then `splits` split units, then the voluntary pass where
    /// the rule set has one; with its `+` complete.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn nth_listed_or_split<'a>(
        &self,
        pos: &Position,
        throw: u8,
        steps: u64,
        written: usize,
        splits: usize,
        cuts: u64,
        i: usize,
        out: &'a mut Vec<Unit>,
    ) -> &'a Unit {
        let stepped = steps.count_ones() as usize;
        if i < stepped {
            // (The general copy's steps: relocating landings may be among
            // them.)
            return self.nth_step_as::<false>(pos, throw, steps, i, out);
        }
        let i = i - stepped;
        let at = if i < written {
            i
        } else if i - written < splits {
            self.nth_split(pos, throw, i - written, cuts, out)
        } else {
            // The voluntary pass after the moves (`pass_stage`).
            assert!(
                self.movement.voluntary_pass,
                "index {i} of {written} and {splits} split units"
            );
            out.clear();
            out.push(Unit::pass(throw, self.throws.gives_extra(throw), false));
            0
        };
        self.mark_move(pos, &mut out[at]);
        &out[at]
    }

    /// Pushes the sure bear-off from `from` that
    /// [`nth_step_as`](Self::nth_step_as) found among the counted steps.
    /// Out of line: rare. It writes into `out` itself, for the reason given
    /// there: a unit returned through memory is copied by wider loads than
    /// the stores that wrote it.
    #[inline(never)]
    fn push_counted_bear_off(&self, from: u8, throw: u8, out: &mut Vec<Unit>) {
        out.push(Unit::bear_off(
            throw,
            from,
            self.board.off(),
            self.throws.gives_extra(throw),
        ));
    }

    /// [`legal_units_unmarked`](Self::legal_units_unmarked) with one copy
    /// of the calm positions' stages: with `PLAIN`, the copy for a rule
    /// set of the plain shape (`Tables::plain_shape`, which the caller has
    /// tested), with `GROUPED` the one for a rule set of the grouped shape
    /// (`Tables::grouped_shape`, likewise), else the general one. For a playout loop that is itself
    /// compiled once per shape, so that it holds one copy of the generator.
    /// With `count`, as [`pick_unit`](Self::pick_unit) lists: where the
    /// units are ordinary steps alone (counted as `pick_unit` says), none
    /// is written and their squares are returned, for
    /// [`nth_step_as`](Self::nth_step_as); else 0 (a runtime
    /// flag, so that a loop whose players count or not holds one copy).
    // (The simulator's driver asks `calm_and_free` first, and uses the
    // form below.)
    #[cfg(test)]
    pub(crate) fn legal_units_unmarked_shaped<const PLAIN: bool, const GROUPED: bool>(
        &self,
        pos: &Position,
        throw: u8,
        count: bool,
        out: &mut Vec<Unit>,
    ) -> Listed {
        self.legal_units_unmarked_known::<PLAIN, GROUPED>(pos, throw, self.calm(pos), count, out)
    }

    /// `legal_units_unmarked_shaped` (the form the tests use)
    /// with the caller's answer to [`calm`](Self::calm) for `pos`
    /// (`is_calm`): for a playout that has made the test already
    /// ([`calm_and_free`](Self::calm_and_free)).
    #[inline(always)]
    pub(crate) fn legal_units_unmarked_known<const PLAIN: bool, const GROUPED: bool>(
        &self,
        pos: &Position,
        throw: u8,
        is_calm: bool,
        count: bool,
        out: &mut Vec<Unit>,
    ) -> Listed {
        debug_assert!(!PLAIN || self.tables.plain_shape);
        debug_assert!(!GROUPED || self.tables.grouped_shape && !PLAIN);
        out.clear();
        let shape = (PLAIN, GROUPED);
        self.calm_stages::<false, false>(pos, throw, is_calm, shape, count, out, &mut Vec::new())
    }

    /// Whether `pos` is [`calm`](Self::calm) in a rule set with tables:
    /// then [`free_units`](Self::free_units) gives none (the squares
    /// whose piece may have a unit without a throw are among those that
    /// take a position out of the calm state, `Tables::held`) and no
    /// opening fixes the throw ([`opening_throw`](Self::opening_throw)
    /// gives none: an opening rule in force is not calm). One test for
    /// the three, in a playout.
    #[inline(always)]
    pub(crate) fn calm_and_free(&self, pos: &Position) -> bool {
        self.tables.enabled && self.calm(pos)
    }

    /// Whether `pos` is [`calm`](Self::calm) where
    /// [`calm_and_free`](Self::calm_and_free) said no: never with tables
    /// (the answer was no because the position is not calm), so the calm
    /// test is made again only without them, as the referee runs.
    #[inline(always)]
    pub(crate) fn calm_but_untabled(&self, pos: &Position) -> bool {
        !self.tables.enabled && self.calm(pos)
    }

    /// Whether the rule set is of the plain shape (`Tables::plain_shape`),
    /// for [`pick_known`](Self::pick_known).
    #[inline]
    pub(crate) fn plain_shape(&self) -> bool {
        self.tables.plain_shape
    }

    /// Whether the rule set is of the grouped shape
    /// (`Tables::grouped_shape`), for [`pick_known`](Self::pick_known).
    #[inline]
    pub(crate) fn grouped_shape(&self) -> bool {
        self.tables.grouped_shape
    }

    /// Whether the rule set's plain units are bare (`Tables::plain_bare`),
    /// for [`apply_tallied`](Self::apply_tallied).
    #[inline]
    pub(crate) fn plain_bare(&self) -> bool {
        self.tables.plain_bare
    }

    /// Completes the `+` of every unit of
    /// [`legal_units_unmarked`](Self::legal_units_unmarked), in `units`:
    /// the two together give what [`legal_units`](Self::legal_units)
    /// gives, for a playout that looks at every unit.
    #[inline]
    pub(crate) fn mark_listed(&self, pos: &Position, units: &mut [Unit]) {
        if self.marks_after_stages() {
            self.mark_moves(pos, units);
        }
    }

    /// Completes the `+` of one unit of
    /// [`legal_units_unmarked`](Self::legal_units_unmarked) as
    /// [`generate`](Self::generate) does for each.
    #[inline]
    pub(crate) fn mark_move(&self, pos: &Position, unit: &mut Unit) {
        if self.marks_after_stages() && unit.kind == UnitKind::Move {
            unit.extra_mark = self.gives_another_throw(pos, unit);
        }
    }

    /// The units due without a throw: `skip` for a missed turn, a
    /// bear-off without a throw (`0:30-off`), or a lock's release
    /// (`0:27-15`), into `out` (cleared first). `skip` and the bear-off
    /// are due without a choice
    /// ([`due_without_choice`](super::constructs::auto_off::due_without_choice));
    /// a release is offered beside throwing.
    #[inline]
    pub fn free_units(&self, pos: &Position, out: &mut Vec<Unit>) {
        out.clear();
        // Only a missed turn, a piece on a lock square with a release or
        // one on the square of a bear-off without a throw gives a unit
        // here. The tests are joined with `&`: one branch for most
        // positions, as in `calm`.
        let side = pos.to_move.index();
        let quiet =
            !(pos.skip[side] & !pos.extra) & (pos.pieces[side].0 & self.tables.free_from == 0);
        if self.tables.enabled & quiet {
            return;
        }
        self.free_units_general(pos, out);
    }

    fn free_units_general(&self, pos: &Position, out: &mut Vec<Unit>) {
        // A bear-off without a throw due comes before a missed turn: a
        // move that makes it due does not end its turn, and the bear-off
        // belongs to that turn, also where the move landed on a square
        // that misses the side's next turn (MC-8 beside R-10); the missed
        // turn is the next one. (A turn starts with both due only where
        // the other side's unit made the bear-off due, by capturing the
        // last piece outside the region: the bear-off is played first
        // there too.)
        if let Some(from) = self.auto_off_due(pos) {
            out.push(self.auto_off_unit(from));
            return;
        }
        if self.skip_due(pos) {
            out.push(Unit::skip());
            return;
        }
        if pos.extra && pos.bound.is_some() {
            return;
        }
        // (A piece waiting on the square of a bear-off without a throw
        // that is not due has no release to look for. Without tables, as
        // the referee runs, every piece is looked at.)
        if !self.tables.enabled
            || pos.pieces[pos.to_move.index()].0 & self.tables.lock.releases != 0
        {
            self.release_units(pos, out);
        }
    }

    /// Why each move of the side to move with `throw` is not legal. Moves
    /// that are legal do not appear.
    pub fn refusals(&self, pos: &Position, throw: u8) -> Vec<Refusal> {
        let mut out = Vec::new();
        let mut refused = Vec::new();
        self.generate::<true>(pos, throw, &mut out, &mut refused);
        // A piece may have a legal move in one direction and a refused one in
        // the other (T-9b, MB-1): keep every refusal that is not itself a
        // legal move.
        refused.retain(|r| {
            !out.iter().any(|u| {
                u.kind == UnitKind::Move
                    && u.split.is_none()
                    && u.from == r.from
                    && (u.to == r.to || r.to == r.from)
            })
        });
        refused.sort_by_key(|r| (r.from, r.to));
        refused.dedup();
        refused
    }

    /// The one generator, as a fixed list of stages: the units legal for
    /// `throw` into `out` and, when `WHY`, the refusal of every move a stage
    /// forbids into `why` (`legal_units` asks without, `refusals` with: the
    /// same pass, so what `moves --why` and `check` explain is what the
    /// generator decided). A stage for a construct the rule set does not
    /// have costs a test of a rule, the same in every position.
    ///
    /// The stages, in order, each in its construct's module:
    /// 1. a missed turn (R-10; `squares`);
    /// 2. a piece a lock moved out (LK-12), or one on a lock square (B-12;
    ///    `lock`);
    /// 3. an opening that wants another throw (K-5, K-7; `opening`);
    /// 4. a starting throw still due (KD-10; `opening`);
    /// 5. one direction per turn (PC-4; `movement`);
    /// 6. forward moves ([`forward_stage`](Self::forward_stage), `movement`:
    ///    candidates per throw as square sets, cleared by the setup guard,
    ///    gates, exits, blockades, own and protected pieces);
    /// 7. the opening's square moved from (`opening`);
    /// 8. priority squares (R-2; `squares`);
    /// 9. entries from the hand (PC-2; `entry`) and split throws (PC-3;
    ///    `movement`);
    /// 10. a diverted move (B-13);
    /// 11. backward moves ([`backward_stage`](Self::backward_stage),
    ///     `movement`);
    /// 12. the passes and the return to the hand (PC-5; `movement`).
    // Inlined, as the one caller of each form is: most of its stages are
    // then tests of the rule set the compiler sees together.
    #[inline]
    pub(super) fn generate<const WHY: bool>(
        &self,
        pos: &Position,
        throw: u8,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
    ) {
        let start = out.len();
        let Listed::Units(marked) = self.stages::<WHY, true>(pos, throw, out, why) else {
            unreachable!("the stages count only when asked to");
        };
        // A move's `+` says that its player throws again: where a move may
        // give another throw by what it does (a landing, a held extra
        // throw, a return to the hand), the stages' marks, which say what
        // the throw gives, are completed here, but for the units a stage
        // wrote with their marks complete (`marked`). (Without tables, as
        // the referee runs, the test of the rule set is made every time.)
        if self.marks_after_stages() {
            match marked {
                None => self.mark_moves(pos, &mut out[start..]),
                Some((a, b)) => {
                    self.mark_moves(pos, &mut out[start..a]);
                    self.mark_moves(pos, &mut out[b..]);
                }
            }
        }
    }

    /// The stages of [`generate`](Self::generate), without the moves'
    /// marks completed, but for the units `out[a..b]` of the returned
    /// `Some((a, b))`, which a stage wrote with their marks complete.
    /// Without `MARK` no stage completes a mark (the split stages then
    /// write none and return `None`): for a playout that completes the
    /// mark of the one unit it plays.
    #[inline(always)]
    fn stages<const WHY: bool, const MARK: bool>(
        &self,
        pos: &Position,
        throw: u8,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
    ) -> Listed {
        self.calm_stages::<WHY, MARK>(
            pos,
            throw,
            self.calm(pos),
            // (The grouped shape's copy only where a caller holds it:
            // this form serves the lists, with the general copy.)
            (self.tables.plain_shape, false),
            false,
            out,
            why,
        )
    }

    /// [`stages`](Self::stages) with the calm positions' copy of stages 6
    /// to 12 chosen by `(plain, grouped)`: the copy for a rule set of the
    /// plain shape (`Tables::plain_shape`) or of the grouped one
    /// (`Tables::grouped_shape`), without the tests of the constructs it
    /// lacks, or the general one. A caller compiled once per shape passes
    /// constants, and holds one copy (see
    /// [`pick_known`](Self::pick_known)).
    /// Stages 1 to 5 concern rule state that most positions do not have:
    /// one test says whether any of them may apply. The stages that follow
    /// are compiled twice, once for that calm state (where the compiler
    /// drops every test of it) and once for the others. `MARK` as in
    /// `stages`; `count` as in [`move_stages`](Self::move_stages): the
    /// steps counted in the calm positions only (and beside counted split
    /// units, in the others too), the split units in the others too
    /// ([`generate_in_rule_state`](Self::generate_in_rule_state)).
    /// `is_calm` is the answer to [`calm`](Self::calm) for `pos`, which a
    /// playout may have asked already
    /// ([`calm_and_free`](Self::calm_and_free)), or `true` where
    /// [`calm_waiting`](Self::calm_waiting) says so.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn calm_stages<const WHY: bool, const MARK: bool>(
        &self,
        pos: &Position,
        throw: u8,
        is_calm: bool,
        (plain, grouped): (bool, bool),
        count: bool,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
    ) -> Listed {
        debug_assert!(is_calm == self.calm(pos) || is_calm && self.calm_waiting(pos));
        let calm = TurnState::CALM;
        if is_calm {
            if plain {
                self.move_stages::<WHY, true, false, MARK>(pos, throw, calm, count, count, out, why)
            } else if grouped {
                self.move_stages::<WHY, false, true, MARK>(pos, throw, calm, count, count, out, why)
            } else {
                self.move_stages::<WHY, false, false, MARK>(
                    pos, throw, calm, count, count, out, why,
                )
            }
        } else {
            // (Without `WHY`, a list of refusals of its own, made only on
            // this path: see `unasked`.)
            let mut unasked = Vec::new();
            let why = unasked_if::<WHY>(why, &mut unasked);
            self.generate_in_rule_state::<WHY, MARK>(pos, throw, count, out, why)
        }
    }

    /// Whether the moves' `+` are completed after the stages, by what
    /// each move does (a landing, a held extra throw, a return to the
    /// hand): for a rule set where a move may give another throw so, and
    /// always without tables (as the referee runs, the test of the rule
    /// set made every time).
    #[inline(always)]
    fn marks_after_stages(&self) -> bool {
        self.tables.move_marks || !self.tables.enabled
    }

    /// Marks each move of `units` by whether its player throws again
    /// after it ([`gives_another_throw`](Self::gives_another_throw)).
    #[inline(never)]
    fn mark_moves(&self, pos: &Position, units: &mut [Unit]) {
        for u in units.iter_mut().filter(|u| u.kind == UnitKind::Move) {
            u.extra_mark = self.gives_another_throw_inline(pos, u);
        }
    }

    /// [`generate`](Self::generate) for a position some of stages 1 to 5
    /// may concern. With `count`, split units are counted where they can
    /// be (`Listed::Splits`; a turn gone forward, PC-4, is one such
    /// state), and the forward stage's steps beside them
    /// (`Tables::steps_beside_splits`) where no opening is in force; the
    /// steps alone are counted in calm positions only.
    // Out of line, and so compiled without the CPU's bit instructions
    // that the playout loops inlining the calm stages have. A split in two
    // parts (PC-3) is counted here by population counts, a dozen
    // instructions each without them: its rule sets run the stages in a
    // copy with them where the CPU has them. (Not the others: the test of
    // the CPU and the call cost them more than the copy saves.)
    #[inline(never)]
    fn generate_in_rule_state<const WHY: bool, const MARK: bool>(
        &self,
        pos: &Position,
        throw: u8,
        count: bool,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
    ) -> Listed {
        if self.movement.split {
            return super::cpu::with_bit_instructions(
                #[inline(always)]
                || self.generate_in_rule_state_as::<WHY, MARK>(pos, throw, count, out, why),
            );
        }
        self.generate_in_rule_state_as::<WHY, MARK>(pos, throw, count, out, why)
    }

    /// [`generate_in_rule_state`](Self::generate_in_rule_state)'s stages.
    #[inline(always)]
    fn generate_in_rule_state_as<const WHY: bool, const MARK: bool>(
        &self,
        pos: &Position,
        throw: u8,
        count: bool,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
    ) -> Listed {
        // A piece waiting on the square of a bear-off without a throw while
        // the others are on their way (a third of `macabot`'s positions):
        // the stages of a calm position, here rather than in `calm`, which
        // every position pays for.
        if self.calm_waiting(pos) {
            return Listed::Units(self.move_stages_listed::<WHY, false, false, MARK>(
                pos,
                throw,
                TurnState::CALM,
                out,
                why,
            ));
        }
        let Some((heading, opening)) = self.rule_state_stages::<WHY>(pos, throw, out, why) else {
            return Listed::Units(None);
        };
        let state = TurnState {
            heading,
            opening,
            bound: pos.bound,
        };
        // The steps are counted here only beside split units
        // (`Tables::steps_beside_splits`), where no opening's stage reads
        // the units written.
        let steps = count && self.tables.steps_beside_splits && opening.is_none();
        self.move_stages::<WHY, false, false, MARK>(pos, throw, state, steps, count, out, why)
    }

    /// [`move_stages`](Self::move_stages) without `count`: the units
    /// written.
    #[inline(always)]
    fn move_stages_listed<
        const WHY: bool,
        const PLAIN: bool,
        const GROUPED: bool,
        const MARK: bool,
    >(
        &self,
        pos: &Position,
        throw: u8,
        state: TurnState<'_>,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
    ) -> Marked {
        match self
            .move_stages::<WHY, PLAIN, GROUPED, MARK>(pos, throw, state, false, false, out, why)
        {
            Listed::Units(marked) => marked,
            Listed::Steps(_) | Listed::Splits { .. } => {
                unreachable!("the stages count only when asked to")
            }
        }
    }

    /// Stages 6 to 12, in the turn state that stages 1 to 5 left. With
    /// `PLAIN`, for a rule set of the plain shape (`Tables::plain_shape`):
    /// the compiler then drops the tests of the constructs such a rule set
    /// lacks (the setup guard, the blockades, the blockade at half the
    /// throw, a bear-off region, priority squares, the hand, the last
    /// piece's move), as it drops those of the turn state in the calm one.
    /// With `GROUPED`, for a rule set of the grouped shape
    /// (`Tables::grouped_shape`): the look at the opposing groups inlined
    /// (`step_sets_of`) and the tests of the setup guard, the blockade at
    /// half the throw, the bear-off region, priority squares, the hand and
    /// the last piece's move dropped.
    /// `MARK` as in [`stages`](Self::stages). With `count` (a calm
    /// position, or beside counted split units in rule state too,
    /// `Tables::steps_beside_splits`; never with `WHY`), units that are
    /// ordinary steps alone
    /// (counted as [`pick_unit`](Self::pick_unit) says) are not written but their squares returned (`Listed::Steps`,
    /// [`forward_stage`](Self::forward_stage)). With `count_splits` (never
    /// with `WHY`), split units are counted where the square sets decide
    /// them (`Listed::Splits`, [`split_count`](Self::split_count),
    /// [`any_split_count`](Self::any_split_count)).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn move_stages<const WHY: bool, const PLAIN: bool, const GROUPED: bool, const MARK: bool>(
        &self,
        pos: &Position,
        throw: u8,
        state: TurnState<'_>,
        count: bool,
        count_splits: bool,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
    ) -> Listed {
        let side = pos.to_move;
        let mut marked = None;
        let me = pos.pieces[side.index()];
        let extra_mark = self.throws.gives_extra(throw);
        let start = out.len();
        let mut divert: Option<Unit> = None;
        // The forward moves counted rather than written, to come before
        // the split units counted (`Tables::steps_beside_splits`).
        let mut beside = 0;
        let TurnState {
            heading,
            opening,
            bound,
        } = state;
        if heading != Heading::Backward {
            // A throw bound to a piece (R-11, PC-2) moves that piece only.
            let mut movers = me.0;
            if let Some(b) = bound {
                let bound = if b < 64 { 1u64 << b } else { 0 };
                if WHY {
                    for from in SquareSet(movers & !bound).iter() {
                        why.push(Refusal {
                            from,
                            to: from.saturating_add(throw),
                            forbid: Forbid::Bound,
                        });
                    }
                }
                movers &= bound;
            }
            let steps = self.forward_stage::<WHY, PLAIN, GROUPED>(
                pos,
                throw,
                movers,
                count,
                out,
                why,
                &mut divert,
            );
            // (With the hand's stage, the steps were counted beside the
            // split units: `Tables::steps_beside_splits`.)
            if steps != 0 && (PLAIN || GROUPED || !self.tables.hand_stage) {
                return Listed::Steps(steps);
            }
            beside = steps;
        }
        // The square the opening moves from (K-5, K-7).
        if let Some(rule) = opening
            && self.opening_from_stage::<WHY>(rule, throw, start, out, why)
        {
            return Listed::Units(None);
        }
        // Priority squares.
        if !(PLAIN || GROUPED) {
            let mut unasked = Vec::new();
            self.priority_stage::<WHY>(me, start, out, unasked_if::<WHY>(why, &mut unasked));
        }
        if !(PLAIN || GROUPED) && self.tables.hand_stage && heading != Heading::Backward {
            // PC-3: the throw split between two pieces, or (LP-3) spent
            // in any number of parts. (The two are never both in a rule
            // set.)
            let split = self.movement.split;
            let splits = split || self.movement.split_any;
            // A playout's draw counts the split units where the square
            // sets decide them all; with one, no later stage adds a
            // unit but a voluntary pass. Counted before the entries are
            // written, which come between the steps and the split units:
            // steps counted beside split units that are not are written
            // first.
            // (Not a closure: the count of a split in two is inlined
            // into the playout loops, which have the CPU's population
            // count.)
            let counted = match (count_splits && splits, split) {
                (false, _) => None,
                (true, true) => self.split_count(pos, throw, bound),
                (true, false) => self.any_split_count(pos, throw).map(|n| (n, 0)),
            };
            // (The count's outcome tested first: it is rarely `None`,
            // where whether there are steps follows the throws.)
            if counted.is_none() && beside != 0 {
                self.push_steps_beside_splits(pos, throw, beside, out);
                beside = 0;
            }
            // PC-2: a whole throw enters a piece from the hand.
            if self.entry.is_some() {
                let mut unasked = Vec::new();
                let why = unasked_if::<WHY>(why, &mut unasked);
                self.entries::<WHY>(pos, throw, extra_mark, out, why);
            }
            if splits {
                match counted {
                    Some((n, cuts)) if n != 0 || beside != 0 => {
                        return Listed::Splits {
                            steps: beside,
                            splits: n,
                            cuts,
                        };
                    }
                    Some(_) => {}
                    None => {
                        let a = out.len();
                        let complete = if split {
                            self.split_units::<MARK>(pos, throw, extra_mark, out)
                        } else {
                            self.any_split_units::<MARK>(pos, throw, extra_mark, out)
                        };
                        if complete {
                            marked = Some((a, out.len()));
                        }
                    }
                }
            }
        }
        // B-13: a diverted move counts as a forward move when no other exists.
        if out.len() == start {
            if let Some(u) = divert {
                out.push(u);
            }
        }
        // Backward moves when no forward move exists (T-9b, B-9), and the
        // refusals of backward moves (PC-4, B-8).
        self.backward_moves::<WHY>(pos, throw, heading, bound, start, out, why);
        // The last piece's move when nothing else moves (HK-6).
        if !(PLAIN || GROUPED) && self.movement.last_piece.is_some() {
            self.last_piece_stage(pos, throw, bound, start, out);
        }
        // The passes and the return to the hand (PC-5).
        self.pass_stage(me, throw, bound, start, out);
        Listed::Units(marked)
    }

    /// Whether none of stages 1 to 5 applies: no missed turn due, no piece
    /// on a lock square or on the square of a bear-off without a throw, no
    /// opening or starting throw pending, no direction taken this turn and
    /// no bound throw. Combined without branches: in most positions all
    /// are false, and one test decides.
    #[inline(always)]
    fn calm(&self, pos: &Position) -> bool {
        self.calm_holding(pos, self.tables.held)
    }

    /// Whether a position that is not [`calm`](Self::calm) is so but for a
    /// piece on the square of a bear-off without a throw that cannot be
    /// due, a piece of its side being outside the region: the position
    /// then has no rule state either, no unit due without a throw and no
    /// opening's throw, as a calm one (a playout asks it where
    /// [`calm_and_free`](Self::calm_and_free) said no, and takes the
    /// position as calm: `simulate::draw_unit`). Not in `calm` itself,
    /// which every position of every rule set pays for: a test there cost
    /// the others 2 to 4 % of their time. (Never without tables, as the
    /// referee runs: it then goes through stages 1 to 5.)
    // The test of the construct inlined, the rest out of line: the
    // playout loops of the other rule sets hold only that test.
    #[inline(always)]
    pub(crate) fn calm_waiting(&self, pos: &Position) -> bool {
        self.tables.auto_off.from != 0 && self.calm_waiting_by_masks(pos)
    }

    /// [`calm_waiting`](Self::calm_waiting) in a rule set with a bear-off
    /// without a throw.
    #[inline(never)]
    fn calm_waiting_by_masks(&self, pos: &Position) -> bool {
        let f = &self.tables;
        f.enabled
            && !f.auto_off.may_be_due(pos.pieces[pos.to_move.index()].0)
            && self.calm_holding(pos, f.lock.squares)
    }

    /// The test of [`calm`](Self::calm) with `held` the squares whose
    /// piece takes the position out of the calm state.
    #[inline(always)]
    fn calm_holding(&self, pos: &Position, held: u64) -> bool {
        let side = pos.to_move.index();
        let f = &self.tables;
        let quiet = !(pos.skip[side] & !pos.extra)
            & (pos.pieces[side].0 & held == 0)
            & pos.bound.is_none()
            & pos.marked.is_none()
            & (!self.movement.one_direction | (pos.heading == Heading::Any));
        // An opening binds the first turn of a side only.
        quiet && !(f.opening && (self.start_throw_due(pos) || self.opening_rule(pos).is_some()))
    }

    /// Stages 1 to 5 (a missed turn, a lock, an opening, a starting throw,
    /// one direction per turn): `None` when one of them decided the whole
    /// list; else the turn's heading and the opening rule in force, for the
    /// stages that follow.
    #[inline(never)]
    fn rule_state_stages<const WHY: bool>(
        &self,
        pos: &Position,
        throw: u8,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
    ) -> Option<(Heading, Option<&super::OpeningRule>)> {
        let side = pos.to_move;
        let me = pos.pieces[side.index()];
        // A bear-off without a throw due first, then a missed turn (as
        // in `free_units`).
        if self.auto_off_stage::<WHY>(pos, why) {
            return None;
        }
        if self.skip_due(pos) {
            refuse_all::<WHY>(me, Forbid::MissedTurn, why);
            return None;
        }

        // A piece a lock moved out: it alone moves (LK-12).
        if let Some(m) = pos.marked
            && me.contains(m)
        {
            self.marked_stage::<WHY>(pos, throw, m, out, why);
            return None;
        }

        // A piece on a lock square: it alone is dealt with (B-12).
        let locked = me.0 & self.tables.lock.squares;
        if locked != 0 {
            self.lock_stage::<WHY>(pos, throw, locked.trailing_zeros() as u8, out, why);
            return None;
        }

        // An opening that wants another throw (K-5, K-7) or a starting
        // throw still due (KD-10).
        let opening = self.opening_stage::<WHY>(pos, throw, out, why)?;
        // One direction per turn (PC-4).
        let heading = self.direction_stage::<WHY>(pos, throw, why);
        Some((heading, opening))
    }

    /// The refusal of the move of the piece on `from`, which a stage's
    /// masks cleared: the reason, in the order in which the rules are
    /// tried, is [`attempt`](Self::attempt)'s.
    pub(crate) fn explain(
        &self,
        pos: &Position,
        from: u8,
        throw: u8,
        dir: Dir,
        why: &mut Vec<Refusal>,
    ) {
        match self.attempt(pos, from, throw, dir) {
            Err((r, _)) => why.push(r),
            Ok(u) => debug_assert!(false, "the masks refused {u}, which is legal"),
        }
    }

    /// Tries one move. `Err` carries the refusal and, for B-13, the diverted
    /// unit that may replace it.
    pub(crate) fn attempt(&self, pos: &Position, from: u8, throw: u8, dir: Dir) -> Tried {
        let side = pos.to_move;
        let me = pos.pieces[side.index()];
        let opp = pos.pieces[side.other().index()];
        let len = self.board.len;
        let off = self.board.off();
        let square = &self.squares[from as usize];
        let extra_mark =
            self.throws.gives_extra(throw) | (dir == Dir::Backward && self.movement.backward_extra);
        let refuse = |to: u8, forbid| Err((Refusal { from, to, forbid }, None));
        if self.movement.setup_guard && self.guarded(pos, from) {
            return refuse(from, Forbid::Guard);
        }
        if dir == Dir::Forward && self.halfway_held(pos, throw) & (1u64 << from) != 0 {
            return refuse((from + throw).min(off), Forbid::Halfway);
        }

        let mut to: u8;
        let mut truncated = false;
        if dir == Dir::Backward {
            if self.movement.immobile.contains(from) {
                return refuse(from, Forbid::Immobile);
            }
            if self.movement.no_backward.contains(from) {
                return refuse(from, Forbid::NoBackward);
            }
            let step = self.backward_step(throw);
            if step >= from {
                return refuse(from, Forbid::BeforeStart);
            }
            to = from - step;
            // JQ-7: backward moves go to empty squares only.
            if self.movement.backward.onto_empty_only() && opp.contains(to) {
                return refuse(to, Forbid::BackwardOntoPiece);
            }
        } else {
            // A piece that leaves its square with this throw for another
            // (`stay, moving with 1, 2, 3 to 15`).
            if let Some(leave) = &square.leave
                && leave.throws.checked_shr(u32::from(throw)).unwrap_or(0) & 1 != 0
            {
                return self.leave_unit(pos, from, throw, extra_mark, leave);
            }
            to = from + throw;
            // Truncation: a move that would pass the square ends on it.
            let passed = between(from, to.min(off));
            let trunc = self.movement.truncate_at.0 & passed;
            if trunc != 0 {
                to = trunc.trailing_zeros() as u8;
                truncated = true;
            }
            // KD-10 Trap: a move that would pass the square drops into another.
            let over = self.movement.overshoot.0 & between(from, to.min(off));
            if over != 0 {
                let s = over.trailing_zeros() as u8;
                let sq = &self.squares[s as usize];
                to = sq.overshoot_to.unwrap_or(s);
                // LK-16: only into an empty square.
                if sq.overshoot_when_empty && pos.at(to).is_some() {
                    return refuse(to, Forbid::DropTaken(s));
                }
            } else {
                let gates = self.movement.gates.0 & between(from, to);
                if gates != 0 {
                    return refuse(to.min(off), Forbid::Gate(gates.trailing_zeros() as u8));
                }
            }
            let bears_off = self.bear_off.bears_off(to, len);
            let immobile = self.movement.immobile.contains(from);
            if let Some(exits) = square.exit_throws {
                if bears_off || immobile {
                    if exits & (1 << throw) == 0 {
                        return refuse(off, Forbid::ExitThrow);
                    }
                    return self.bear_off_unit(pos, from, throw, extra_mark);
                }
            }
            if immobile && !bears_off {
                return refuse(to.min(off), Forbid::Immobile);
            }
            // HM-9b: off or backward only.
            if !bears_off && self.movement.no_forward.contains(from) {
                return refuse(to.min(off), Forbid::NoForward);
            }
            if bears_off {
                if !self.bear_off.exact(to, len) {
                    return refuse(off, Forbid::BeyondEnd);
                }
                return self.bear_off_unit(pos, from, throw, extra_mark);
            }
        }

        // Passage: blockades over the squares strictly between.
        let path = between(from.min(to), from.max(to));
        if let Some(i) = self.blocked(pos, path, to) {
            return refuse(to, Forbid::Blockade(i));
        }
        if dir == Dir::Forward
            && let Some(i) = self.target_blocked(pos, path, to)
        {
            return refuse(to, Forbid::TargetBlockade(i));
        }

        // A taken square that diverts the mover (`taken target diverts`).
        if self.squares[to as usize].divert_when_taken.is_some() && pos.occupied().contains(to) {
            return match self.divert_taken(pos, from, to) {
                Some(end) => Ok(Unit {
                    relocated: Some(super::Relocated::Square(end)),
                    ..Unit::step(throw, from, to, false, extra_mark)
                }),
                None => refuse(to, Forbid::RelocationBlocked),
            };
        }
        let target = SquareSet::single(to);
        if me.0 & target.0 != 0 {
            return refuse(to, Forbid::OwnPiece);
        }
        let hit = opp.0 & target.0 != 0;
        if hit && self.movement.hit == Hit::Forbidden {
            return refuse(to, Forbid::Occupied);
        }
        if hit && self.protected(pos, to) {
            let tsq = &self.squares[to as usize];
            let divert = match tsq.divert_when_protected {
                Some(d) if dir == Dir::Forward && pos.at(d).is_none() => self
                    .landing_unit(pos, from, d, throw, extra_mark, false, false, dir)
                    .ok(),
                _ => None,
            };
            return Err((
                Refusal {
                    from,
                    to,
                    forbid: Forbid::Protected,
                },
                divert,
            ));
        }
        // B-15: never swapped here; with the square it would go to taken,
        // the landing is not legal.
        if hit
            && let tsq = &self.squares[to as usize]
            && tsq.hit_refused_when_taken
            && !(tsq.hit_sends_forward_only && dir == Dir::Backward)
            && let Some(d) = tsq.hit_sends_to
            && pos.at(d).is_some()
        {
            return refuse(to, Forbid::HitSendsTaken);
        }
        self.landing_unit(pos, from, to, throw, extra_mark, hit, truncated, dir)
    }

    /// Builds the unit for a move landing on `to`, working out relocation.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn landing_unit(
        &self,
        pos: &Position,
        from: u8,
        to: u8,
        throw: u8,
        extra_mark: bool,
        hit: bool,
        _truncated: bool,
        _dir: Dir,
    ) -> Tried {
        let mut relocated = None;
        if let Some(landing) = &self.squares[to as usize].on_land {
            // The board as it is once the mover has left and the hit piece
            // has gone where the rules send it (P-2).
            let mut occ = pos.occupied();
            occ.remove(from);
            if hit {
                let dest = self.hit_destination(pos, from, to);
                occ.remove(to);
                if let HitDest::Square(d) = dest {
                    occ.insert(d);
                }
            }
            match landing
                .effect
                .resolve(to, occ, self.board.len, landing.when_taken)
            {
                Some(r) => relocated = r,
                None => {
                    return Err((
                        Refusal {
                            from,
                            to,
                            forbid: Forbid::RelocationBlocked,
                        },
                        None,
                    ));
                }
            }
        }
        Ok(Unit {
            relocated,
            ..Unit::step(throw, from, to, hit, extra_mark)
        })
    }
}

/// `why` with `WHY`; without, `unasked`, an empty list of refusals made
/// by the caller just before a call out of line that takes one: where
/// every other use of a generator's `why` is under `if WHY`, the one made
/// for a playout (`&mut Vec::new()`) is then never written, rather than
/// written (three words) and dropped on every call.
#[inline(always)]
pub(crate) fn unasked_if<'a, const WHY: bool>(
    why: &'a mut Vec<Refusal>,
    unasked: &'a mut Vec<Refusal>,
) -> &'a mut Vec<Refusal> {
    if WHY { why } else { unasked }
}

/// Refuses every piece of `me` where it stands, for a stage that decides
/// the whole list (a missed turn, an opening, a starting throw).
#[inline]
pub(crate) fn refuse_all<const WHY: bool>(me: SquareSet, forbid: Forbid, why: &mut Vec<Refusal>) {
    if WHY {
        why.extend(me.iter().map(|from| Refusal {
            from,
            to: from,
            forbid,
        }));
    }
}
