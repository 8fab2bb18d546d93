//! Move generation and play over a compiled [`Ruleset`].
//!
//! One generator, `Ruleset::generate`, runs a fixed list of stages over
//! square sets; `legal_units` runs it for the units alone and `refusals`
//! for the refusals too, so what the checker explains is exactly what the
//! generator decided. A move the compiled tables do not decide is tried by
//! one function, `Ruleset::attempt`, which either builds the unit or says
//! which constraint refused it.

// Nested `if let`s here test a rule and then a position fact; keeping them
// apart reads closer to the clauses than let-chains do.
#![allow(clippy::collapsible_if)]

use super::play::Effects;
use super::unit::Relocated;
use super::{
    Backward, Clause, Goal, Heading, Hit, Position, Reach, Ruleset, Side, SquareSet, Unit,
    UnitKind, between,
};

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
}

/// A refused move: from, the intended target (`len + 1` for off), the reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Refusal {
    pub from: u8,
    pub to: u8,
    pub forbid: Forbid,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Dir {
    Forward,
    Backward,
}

/// Where a hit opposing piece goes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum HitDest {
    Square(u8),
    /// Off the board into the dead-piece queue.
    Queue,
    /// Out of the game (BL-4).
    Removed,
}

/// The outcome of trying one move: the unit, or the refusal together with,
/// for a target refused only because it was protected on a square that
/// diverts the mover (B-13), the diverted unit.
type Tried = Result<Unit, (Refusal, Option<Unit>)>;

/// The forward moves of a throw as square sets: see `Ruleset::step_sets`.
struct StepSets {
    steps: u64,
    slow: u64,
    off_from: u64,
}

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
        out.clear();
        self.generate::<false>(pos, throw, out, &mut Vec::new());
    }

    /// The units due without a throw: `skip` for a missed turn, or a lock's
    /// release (`0:27-15`), into `out` (cleared first).
    #[inline]
    pub fn free_units(&self, pos: &Position, out: &mut Vec<Unit>) {
        out.clear();
        // Only a missed turn or a piece on a lock square with a release
        // gives a unit here.
        if self.fast.enabled
            && !self.skip_due(pos)
            && pos.pieces[pos.to_move.index()].0 & self.fast.lock.releases == 0
        {
            return;
        }
        self.free_units_general(pos, out);
    }

    fn free_units_general(&self, pos: &Position, out: &mut Vec<Unit>) {
        if self.skip_due(pos) {
            out.push(Unit::skip());
            return;
        }
        if pos.extra && pos.bound.is_some() {
            return;
        }
        self.release_units(pos, out);
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

    /// The clause a refusal cites, from the rule file's provenance.
    pub fn clause_of(&self, refusal: &Refusal, pos: &Position) -> Clause {
        let sq = |s: u8| self.squares.get(s as usize);
        match refusal.forbid {
            Forbid::NoPiece => String::new(),
            Forbid::OwnPiece => self.movement.own_clause.clone(),
            Forbid::BackwardOntoPiece | Forbid::BeforeStart => {
                self.movement.backward_clause.clone()
            }
            Forbid::Protected => self.protection_clause(pos, refusal.to),
            Forbid::Blockade(i) => self.blockades[i as usize].clause.clone(),
            Forbid::Gate(_) => self.movement.gate_clause.clone(),
            Forbid::Immobile => self.movement.immobile_clause.clone(),
            Forbid::BeyondEnd => self.bear_off.clause.clone(),
            Forbid::ExitThrow => sq(refusal.from)
                .map(|s| s.exit_clause.clone())
                .unwrap_or_default(),
            Forbid::NotAllIn => self.bear_off.all_in_clause.clone(),
            Forbid::ArrivedThisTurn => sq(refusal.from)
                .map(|s| s.exit_from_turn_start_clause.clone())
                .unwrap_or_default(),
            Forbid::Priority => self.movement.priority_clause.clone(),
            // A backward move while a forward one exists: the compulsory
            // forward move forbids it (B-8), or backward moves never happen.
            Forbid::Backward => {
                if self.movement.backward == Backward::Never
                    || !self.movement.compulsory_clause.is_empty()
                {
                    self.movement.compulsory_clause.clone()
                } else {
                    self.movement.backward_clause.clone()
                }
            }
            Forbid::Guard => self.movement.setup_guard_clause.clone(),
            Forbid::StartingThrow => self.movement.start_throw_clause.clone(),
            Forbid::Occupied => self.movement.swap_clause.clone(),
            Forbid::Direction => self.movement.one_direction_clause.clone(),
            Forbid::NoBackward => self.movement.no_backward_clause.clone(),
            Forbid::Opening => self
                .opening
                .iter()
                .find(|o| o.side == pos.to_move)
                .map(|o| o.clause.clone())
                .unwrap_or_default(),
            // R-11's square, or the entry that bound the throw (PC-2).
            Forbid::Bound => sq(pos.bound.unwrap_or(0))
                .map(|s| s.bound_clause.clone())
                .filter(|c| !c.is_empty())
                .or_else(|| self.entry.as_ref().map(|e| e.clause.clone()))
                .unwrap_or_default(),
            Forbid::Locked => self
                .squares
                .iter()
                .find_map(|s| s.lock.as_ref().map(|l| l.clause.clone()))
                .unwrap_or_default(),
            Forbid::RelocationBlocked => sq(refusal.to)
                .and_then(|s| s.on_land.as_ref().map(|l| l.clause.clone()))
                .unwrap_or_default(),
            Forbid::MissedTurn => self
                .squares
                .iter()
                .find(|s| s.miss_turn)
                .map(|s| s.miss_clause.clone())
                .unwrap_or_default(),
        }
    }

    pub(super) fn skip_due(&self, pos: &Position) -> bool {
        pos.skip[pos.to_move.index()] && !pos.extra
    }

    /// Whether the piece on `from` is held by the setup guard (JQ-4): it
    /// stands on one of its side's setup squares and the next square is taken.
    fn guarded(&self, pos: &Position, from: u8) -> bool {
        self.movement.setup_guard
            && self.movement.setup_squares[pos.to_move.index()].contains(from)
            && pos.occupied().contains(from + 1)
    }

    /// The one generator, as a fixed list of stages: the units legal for
    /// `throw` into `out` and, when `WHY`, the refusal of every move a stage
    /// forbids into `why` (`legal_units` asks without, `refusals` with: the
    /// same pass, so what `moves --why` and `check` explain is what the
    /// generator decided). A stage for a construct the rule set does not
    /// have costs a test of a rule, the same in every position.
    ///
    /// The stages, in order:
    /// 1. a missed turn;
    /// 2. a piece on a lock square (B-12);
    /// 3. an opening that wants another throw (K-5, K-7);
    /// 4. a starting throw still due (KD-10);
    /// 5. one direction per turn (PC-4);
    /// 6. forward moves ([`forward_stage`](Self::forward_stage): candidates
    ///    per throw as square sets, cleared by the setup guard, gates,
    ///    exits, blockades, own and protected pieces);
    /// 7. the opening's square moved from;
    /// 8. priority squares;
    /// 9. entries from the hand (PC-2) and split throws (PC-3);
    /// 10. a diverted move (B-13);
    /// 11. backward moves ([`backward_stage`](Self::backward_stage));
    /// 12. the passes and the return to the hand (PC-5).
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
        // Stages 1 to 5 concern rule state that most positions do not have:
        // one test says whether any of them may apply. The stages that
        // follow are compiled twice, once for that calm state (where the
        // compiler drops every test of it) and once for the others.
        if self.calm(pos) {
            self.move_stages::<WHY>(pos, throw, TurnState::CALM, out, why);
        } else {
            self.generate_in_rule_state::<WHY>(pos, throw, out, why);
        }
    }

    /// [`generate`](Self::generate) for a position some of stages 1 to 5
    /// may concern.
    #[inline(never)]
    fn generate_in_rule_state<const WHY: bool>(
        &self,
        pos: &Position,
        throw: u8,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
    ) {
        if let Some((heading, opening)) = self.rule_state_stages::<WHY>(pos, throw, out, why) {
            let state = TurnState {
                heading,
                opening,
                bound: pos.bound,
            };
            self.move_stages::<WHY>(pos, throw, state, out, why);
        }
    }

    /// Stages 6 to 12, in the turn state that stages 1 to 5 left.
    #[inline(always)]
    fn move_stages<const WHY: bool>(
        &self,
        pos: &Position,
        throw: u8,
        state: TurnState<'_>,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
    ) {
        let side = pos.to_move;
        let me = pos.pieces[side.index()];
        let extra_mark = self.throws.gives_extra(throw);
        let start = out.len();
        let mut divert: Option<Unit> = None;
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
            self.forward_stage::<WHY>(pos, throw, movers, out, why, &mut divert);
        }
        // The square the opening moves from (K-5, K-7).
        if let Some(rule) = opening
            && self.opening_from_stage::<WHY>(rule, throw, start, out, why)
        {
            return;
        }
        // Priority squares.
        let prio = self.movement.priority;
        if me.0 & prio.0 != 0 && out[start..].iter().any(|u| prio.contains(u.from)) {
            let mut i = start;
            while i < out.len() {
                if !prio.contains(out[i].from) {
                    let u = out.remove(i);
                    if WHY {
                        why.push(Refusal {
                            from: u.from,
                            to: u.to,
                            forbid: Forbid::Priority,
                        });
                    }
                } else {
                    i += 1;
                }
            }
        }
        if self.fast.hand_stage && heading != Heading::Backward {
            // PC-2: a whole throw enters a piece from the hand.
            if self.entry.is_some() {
                self.entries::<WHY>(pos, throw, extra_mark, out, why);
            }
            // PC-3: the throw split between two pieces.
            if self.movement.split {
                self.split_units(pos, throw, extra_mark, out);
            }
        }
        // B-13: a diverted move counts as a forward move when no other exists.
        if out.len() == start {
            if let Some(u) = divert {
                out.push(u);
            }
        }
        if out.len() == start && heading == Heading::Forward {
            // PC-4: no backward move in a turn that went forward.
            if WHY {
                for from in me.iter() {
                    if throw < from && !self.movement.immobile.contains(from) {
                        let forbid = if self.movement.no_backward.contains(from) {
                            Forbid::NoBackward
                        } else {
                            Forbid::Direction
                        };
                        why.push(Refusal {
                            from,
                            to: from - throw,
                            forbid,
                        });
                    }
                }
            }
        } else if out.len() == start && bound.is_none() {
            // Backward moves when no forward move exists (T-9b, B-9).
            if self.movement.backward != Backward::Never {
                self.backward_stage::<WHY>(pos, throw, out, why);
            }
        } else if WHY && bound.is_none() && self.movement.backward != Backward::Never {
            let step = self.backward_step(throw);
            for from in me.iter() {
                if step < from && !self.movement.immobile.contains(from) {
                    // PC-4: some squares never move backward at all.
                    let forbid = if self.movement.no_backward.contains(from) {
                        Forbid::NoBackward
                    } else {
                        Forbid::Backward
                    };
                    why.push(Refusal {
                        from,
                        to: from - step,
                        forbid,
                    });
                }
            }
        }
        if out.len() == start {
            // PC-5: a piece that cannot move from its square goes back to hand.
            let stuck = me.0 & self.fast.stuck_squares;
            match (stuck != 0).then(|| stuck.trailing_zeros() as u8) {
                Some(from) => out.push(Unit {
                    kind: UnitKind::Move,
                    throw,
                    from,
                    to: 0,
                    relocated: None,
                    hit: false,
                    extra_mark,
                    off: false,
                    forced: true,
                    split: None,
                }),
                None => out.push(Unit::pass(throw, extra_mark, true)),
            }
        } else if !self.fast.pass_beside_moves {
            // No pass beside moves in this rule set.
        } else if self.movement.voluntary_pass && bound.is_none() {
            out.push(Unit::pass(throw, extra_mark, false));
        } else if self.movement.bear_off_voluntary && out[start..].iter().all(|u| u.off) {
            // KD-6: bearing off is never compulsory.
            out.push(Unit::pass(throw, extra_mark, false));
        }
    }

    /// Whether none of stages 1 to 5 applies: no missed turn due, no piece
    /// on a lock square, no opening or starting throw pending, no direction
    /// taken this turn and no bound throw. Combined without branches: in
    /// most positions all are false, and one test decides.
    #[inline(always)]
    fn calm(&self, pos: &Position) -> bool {
        let side = pos.to_move.index();
        let f = &self.fast;
        let quiet = !(pos.skip[side] & !pos.extra)
            & (pos.pieces[side].0 & f.lock.squares == 0)
            & pos.bound.is_none()
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
        if self.skip_due(pos) {
            refuse_all::<WHY>(me, Forbid::MissedTurn, why);
            return None;
        }

        // A piece on a lock square: it alone is dealt with (B-12).
        let locked = me.0 & self.fast.lock.squares;
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
    fn explain(&self, pos: &Position, from: u8, throw: u8, dir: Dir, why: &mut Vec<Refusal>) {
        match self.attempt(pos, from, throw, dir) {
            Err((r, _)) => why.push(r),
            Ok(u) => debug_assert!(false, "the masks refused {u}, which is legal"),
        }
    }

    /// Stage 6, forward moves of the pieces on `movers`. The candidates are
    /// square sets per throw, compiled with the rule set (`FastTables`):
    /// ordinary steps (`fwd_plain`, `fwd_unhit`), bear-offs (`fwd_off`),
    /// moves never legal (`fwd_dead`); each rule then clears the squares it
    /// forbids in this position (the setup guard, blockades, own and
    /// protected pieces, a bear-off region). Squares whose move the tables
    /// do not decide (truncation, overshoot, landings that relocate, hits
    /// that divert) are tried one by one by [`attempt`](Self::attempt).
    /// Units come in the order of the squares moved from.
    #[inline]
    fn forward_stage<const WHY: bool>(
        &self,
        pos: &Position,
        throw: u8,
        movers: u64,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
        divert: &mut Option<Unit>,
    ) {
        let side = pos.to_move;
        let me = pos.pieces[side.index()].0;
        let opp = pos.pieces[side.other().index()].0;
        let extra_mark = self.throws.gives_extra(throw);
        // JQ-4: a piece on its setup square with the square in front taken
        // does not move, forward or backward (refused first by `attempt`).
        let guarded = if self.movement.setup_guard {
            movers & self.movement.setup_squares[side.index()].0 & ((me | opp) >> 1)
        } else {
            0
        };
        if WHY {
            for from in SquareSet(guarded).iter() {
                self.explain(pos, from, throw, Dir::Forward, why);
            }
        }
        let movers = movers & !guarded;
        let StepSets {
            steps,
            slow,
            off_from,
        } = self.step_sets(pos, throw, movers);
        // Every ordinary step is this unit with its squares and hit filled in.
        let template = Unit {
            kind: UnitKind::Move,
            throw,
            from: 0,
            to: 0,
            relocated: None,
            hit: false,
            extra_mark,
            off: false,
            forced: false,
            split: None,
        };
        let step = |from: u8, to: u8, hit: bool| Unit {
            from,
            to,
            hit,
            ..template
        };
        if slow == 0 {
            // Ordinary steps only (most positions): no other test per piece.
            let mut bits = steps;
            while bits != 0 {
                let from = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                out.push(step(
                    from,
                    from + throw,
                    opp & (1u64 << (from + throw)) != 0,
                ));
            }
        }
        if slow != 0 {
            self.forward_slow::<WHY>(pos, throw, steps | slow, steps, off_from, out, why, divert);
        }
        if WHY {
            // The squares the masks cleared.
            for from in SquareSet(movers & !(steps | slow)).iter() {
                self.explain(pos, from, throw, Dir::Forward, why);
            }
        }
    }

    /// The forward moves of stage 6 from `squares` when some of them are
    /// not ordinary steps (`steps`): bear-offs (`off_from`) and the moves
    /// the tables leave to [`attempt`](Self::attempt), in the order of the
    /// squares. Out of line: few positions need it.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn forward_slow<const WHY: bool>(
        &self,
        pos: &Position,
        throw: u8,
        squares: u64,
        steps: u64,
        off_from: u64,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
        divert: &mut Option<Unit>,
    ) {
        let f = &self.fast;
        let extra_mark = self.throws.gives_extra(throw);
        let mut bits = squares;
        while bits != 0 {
            let from = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let b = 1u64 << from;
            if steps & b != 0 {
                out.push(self.plain_step(pos, from, throw));
            } else if off_from & f.off_sure & b != 0 {
                out.push(Unit::bear_off(throw, from, self.board.off(), extra_mark));
            } else if off_from & b != 0 {
                match self.bear_off_unit(pos, from, throw, extra_mark) {
                    Ok(u) => out.push(u),
                    Err((r, _)) => {
                        if WHY {
                            why.push(r);
                        }
                    }
                }
            } else {
                match self.attempt(pos, from, throw, Dir::Forward) {
                    Ok(u) => out.push(u),
                    Err((r, d)) => {
                        if d.is_some() && divert.is_none() {
                            *divert = d;
                        }
                        if WHY {
                            why.push(r);
                        }
                    }
                }
            }
        }
    }

    /// The forward moves by `throw` of the pieces on `movers` (none held
    /// by the setup guard), as square sets from the tables: `steps`, the
    /// ordinary steps that are legal (not onto an own or a protected piece,
    /// no blockade on the path); `slow`, the squares whose move the tables
    /// do not decide, left to [`attempt`](Self::attempt) (bear-offs among
    /// them in `off_from`). A square in neither has no legal move.
    #[inline(always)]
    fn step_sets(&self, pos: &Position, throw: u8, movers: u64) -> StepSets {
        let f = &self.fast;
        let side = pos.to_move;
        let me = pos.pieces[side.index()].0;
        let opp = pos.pieces[side.other().index()].0;
        // A throw the tables do not cover (not one of the rule set's
        // values): every move is tried by `attempt`.
        let tabled = f.tabled.checked_shr(u32::from(throw)).unwrap_or(0) & 1 != 0;
        let (t, plain, unhit_from, dead, off_from) = if tabled {
            let t = throw as usize;
            (
                t,
                f.fwd_plain[t],
                f.fwd_unhit[t],
                f.fwd_dead[t],
                f.fwd_off[t],
            )
        } else {
            (0, 0, 0, 0, 0)
        };
        // The protected opposing pieces, if an ordinary step lands on one
        // (the shift-and of B-7 costs less than the test).
        let prot = self.protected_if(pos, side.other(), ((movers & plain) << t) & opp != 0);
        let blocked = if self.blockades.is_empty() || !tabled {
            0
        } else {
            self.blocked_steps(me, opp, throw, false)
        };
        let unhit = movers & unhit_from & !blocked;
        let steps = (movers & plain & !blocked & !((me | (opp & prot)) >> t))
            | (unhit & !((me | opp) >> t));
        let mut slow = (movers & !plain & !unhit_from & !dead) | (unhit & (opp >> t));
        // K-13, JQ-9: while some piece of the side is outside the region
        // (or waits in the queue), no bear-off is legal; `bear_off_unit`
        // would refuse each one.
        if let Some(region) = self.bear_off.all_in
            && (me & !region.0 != 0 || pos.queue.count(side) > 0)
        {
            slow &= !off_from;
        }
        StepSets {
            steps,
            slow,
            off_from,
        }
    }

    /// Stage 11, backward moves when no forward move exists (T-9b, B-9,
    /// MB-1, JQ-7), as [`forward_stage`](Self::forward_stage) does forward
    /// moves: `back_plain` steps, cleared by blockades, own pieces and
    /// protected or forbidden hits; `back_dead` never legal; the rest tried
    /// by [`attempt`](Self::attempt).
    #[inline]
    fn backward_stage<const WHY: bool>(
        &self,
        pos: &Position,
        throw: u8,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
    ) {
        let f = &self.fast;
        let side = pos.to_move;
        let me = pos.pieces[side.index()].0;
        let opp = pos.pieces[side.other().index()].0;
        let guarded = if self.movement.setup_guard {
            me & self.movement.setup_squares[side.index()].0 & ((me | opp) >> 1)
        } else {
            0
        };
        let movers = me & !guarded;
        let tabled = f.tabled.checked_shr(u32::from(throw)).unwrap_or(0) & 1 != 0;
        let (back, back_dead) = if tabled {
            (f.back_plain[throw as usize], f.back_dead[throw as usize])
        } else {
            (0, 0)
        };
        let stepb = self.backward_step(throw);
        // JQ-7: onto empty squares only; PC-3: no move lands on a piece.
        let no_hit = self.movement.backward == Backward::ToEmptyWhenNoForward
            || self.movement.hit == Hit::Forbidden;
        let (prot, blocked) = if back == 0 {
            (0, 0)
        } else {
            let prot = self.protected_if(pos, side.other(), ((movers & back) >> stepb) & opp != 0);
            let blocked = if self.blockades.is_empty() {
                0
            } else {
                self.blocked_steps(me, opp, stepb, true)
            };
            (prot, blocked)
        };
        let extra_mark = self.throws.gives_extra(throw);
        let mut bits = movers;
        while bits != 0 {
            let from = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let b = 1u64 << from;
            if back & blocked & b != 0 {
                // The path holds a blockade.
                if WHY {
                    self.explain(pos, from, throw, Dir::Backward, why);
                }
            } else if back & b != 0 {
                let tb = b >> stepb;
                let hit = opp & tb != 0;
                if me & tb == 0 && !(hit && (no_hit || prot & tb != 0)) {
                    out.push(Unit {
                        kind: UnitKind::Move,
                        throw,
                        from,
                        to: from - stepb,
                        relocated: None,
                        hit,
                        extra_mark,
                        off: false,
                        forced: false,
                        split: None,
                    });
                } else if WHY {
                    self.explain(pos, from, throw, Dir::Backward, why);
                }
            } else if back_dead & b == 0 {
                match self.attempt(pos, from, throw, Dir::Backward) {
                    Ok(u) => out.push(u),
                    Err((r, _)) => {
                        if WHY {
                            why.push(r);
                        }
                    }
                }
            } else if WHY {
                self.explain(pos, from, throw, Dir::Backward, why);
            }
        }
        if WHY {
            for from in SquareSet(guarded).iter() {
                self.explain(pos, from, throw, Dir::Backward, why);
            }
        }
    }

    /// Tries one move. `Err` carries the refusal and, for B-13, the diverted
    /// unit that may replace it.
    pub(super) fn attempt(&self, pos: &Position, from: u8, throw: u8, dir: Dir) -> Tried {
        let side = pos.to_move;
        let me = pos.pieces[side.index()];
        let opp = pos.pieces[side.other().index()];
        let len = self.board.len;
        let off = self.board.off();
        let square = &self.squares[from as usize];
        let extra_mark = self.throws.gives_extra(throw);
        let refuse = |to: u8, forbid| Err((Refusal { from, to, forbid }, None));
        if self.movement.setup_guard && self.guarded(pos, from) {
            return refuse(from, Forbid::Guard);
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
            if self.movement.backward == Backward::ToEmptyWhenNoForward && opp.contains(to) {
                return refuse(to, Forbid::BackwardOntoPiece);
            }
        } else {
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
                to = self.squares[s as usize].overshoot_to.unwrap_or(s);
            } else {
                let gates = self.movement.gates.0 & between(from, to);
                if gates != 0 {
                    return refuse(to.min(off), Forbid::Gate(gates.trailing_zeros() as u8));
                }
            }
            let bears_off = match self.bear_off.reach {
                Reach::ExactPast | Reach::Beyond => to >= off,
                Reach::ExactLast => to >= len,
            };
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
            if bears_off {
                let exact = match self.bear_off.reach {
                    Reach::ExactPast => to == off,
                    Reach::ExactLast => to == len,
                    Reach::Beyond => true,
                };
                if !exact {
                    return refuse(off, Forbid::BeyondEnd);
                }
                return self.bear_off_unit(pos, from, throw, extra_mark);
            }
        }

        // Passage: blockades over the squares strictly between.
        let path = between(from.min(to), from.max(to));
        if let Some(i) = self.blocked(pos, path) {
            return refuse(to, Forbid::Blockade(i));
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
        self.landing_unit(pos, from, to, throw, extra_mark, hit, truncated, dir)
    }

    /// Builds the unit for a move landing on `to`, working out relocation.
    #[allow(clippy::too_many_arguments)]
    fn landing_unit(
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
            kind: UnitKind::Move,
            throw,
            from,
            to,
            relocated,
            hit,
            extra_mark,
            off: false,
            forced: false,
            split: None,
        })
    }

    /// PC-2: entering a piece from the hand with a whole throw, onto an
    /// empty entry square.
    fn entries<const WHY: bool>(
        &self,
        pos: &Position,
        throw: u8,
        extra_mark: bool,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
    ) {
        let Some(entry) = &self.entry else { return };
        if pos.hand[pos.to_move.index()] == 0 || entry.throws & (1 << throw) == 0 {
            return;
        }
        let to = entry.square;
        let forbid = match pos.at(to) {
            _ if pos.bound.is_some() => Some(Forbid::Bound),
            Some(s) if s == pos.to_move => Some(Forbid::OwnPiece),
            Some(_) => Some(Forbid::Occupied),
            None => None,
        };
        match forbid {
            Some(forbid) => {
                if WHY {
                    why.push(Refusal {
                        from: 0,
                        to,
                        forbid,
                    });
                }
            }
            None => out.push(Unit {
                kind: UnitKind::Move,
                throw,
                from: 0,
                to,
                relocated: None,
                hit: false,
                extra_mark,
                off: false,
                forced: false,
                split: None,
            }),
        }
    }

    /// PC-3: the throw split in two parts, each moving another piece forward
    /// by its part, the second from the board the first left. A throw bound
    /// to a piece (PC-2) must move that piece in one of the parts. Splits
    /// never enter a piece.
    fn split_units(&self, pos: &Position, throw: u8, extra_mark: bool, out: &mut Vec<Unit>) {
        for first in 1..throw {
            let rest = throw - first;
            // The first parts: ordinary steps from the square sets, the
            // others tried by `attempt`, in the order of the squares.
            let sets = self.step_sets(pos, first, self.unguarded(pos));
            let mut xs = sets.steps | sets.slow;
            while xs != 0 {
                let x = xs.trailing_zeros() as u8;
                xs &= xs - 1;
                let u1 = if sets.steps >> x & 1 != 0 {
                    self.plain_step(pos, x, first)
                } else {
                    match self.attempt(pos, x, first, Dir::Forward) {
                        Ok(u) => u,
                        Err(_) => continue,
                    }
                };
                let mut mid = *pos;
                let mut fx = Effects::default();
                let part = u1.first_part();
                self.move_part(pos, &mut mid, &mut fx, &part, first);
                let landed = match part.relocated {
                    Some(Relocated::Square(s)) => s,
                    None if !part.off => part.to,
                    _ => 0,
                };
                // The second part moves another piece than the one just
                // moved; a bound throw keeps one of the two.
                let mut ys = self.unguarded(&mid) & !(1u64 << (landed & 63));
                if let Some(b) = pos.bound
                    && b != x
                {
                    ys &= 1u64.checked_shl(u32::from(b)).unwrap_or(0);
                }
                let sets2 = self.step_sets(&mid, rest, ys);
                let mut ys = sets2.steps | sets2.slow;
                while ys != 0 {
                    let y = ys.trailing_zeros() as u8;
                    ys &= ys - 1;
                    let u2 = if sets2.steps >> y & 1 != 0 {
                        self.plain_step(&mid, y, rest)
                    } else {
                        match self.attempt(&mid, y, rest, Dir::Forward) {
                            Ok(u) => u,
                            Err(_) => continue,
                        }
                    };
                    out.push(Unit {
                        throw,
                        extra_mark,
                        split: Some(u2.first_part()),
                        ..u1
                    });
                }
            }
        }
    }

    /// The pieces of the side to move that the setup guard (JQ-4) does not
    /// hold: a guarded piece has no move, forward or backward.
    #[inline(always)]
    fn unguarded(&self, pos: &Position) -> u64 {
        let side = pos.to_move.index();
        let me = pos.pieces[side].0;
        if self.movement.setup_guard {
            let taken = pos.occupied().0;
            me & !(self.movement.setup_squares[side].0 & (taken >> 1))
        } else {
            me
        }
    }

    /// The ordinary step of the piece on `from` by `throw`, which
    /// [`step_sets`](Self::step_sets) found legal: the unit `attempt` would
    /// give for it.
    #[inline(always)]
    fn plain_step(&self, pos: &Position, from: u8, throw: u8) -> Unit {
        let to = from + throw;
        let opp = pos.pieces[pos.to_move.other().index()].0;
        Unit {
            kind: UnitKind::Move,
            throw,
            from,
            to,
            relocated: None,
            hit: opp >> to & 1 != 0,
            extra_mark: self.throws.gives_extra(throw),
            off: false,
            forced: false,
            split: None,
        }
    }

    pub(super) fn bear_off_unit(
        &self,
        pos: &Position,
        from: u8,
        throw: u8,
        extra_mark: bool,
    ) -> Tried {
        let off = self.board.off();
        if self.squares[from as usize].exit_from_turn_start && pos.arrived.contains(from) {
            return Err((
                Refusal {
                    from,
                    to: off,
                    forbid: Forbid::ArrivedThisTurn,
                },
                None,
            ));
        }
        if let Some(region) = self.bear_off.all_in {
            let me = pos.pieces[pos.to_move.index()];
            if me.0 & !region.0 != 0 || pos.queue.count(pos.to_move) > 0 {
                return Err((
                    Refusal {
                        from,
                        to: off,
                        forbid: Forbid::NotAllIn,
                    },
                    None,
                ));
            }
        }
        // P-1: the path of a bearing-off move runs to the last square.
        let path = between(from, off);
        if let Some(i) = self.blocked(pos, path) {
            return Err((
                Refusal {
                    from,
                    to: off,
                    forbid: Forbid::Blockade(i),
                },
                None,
            ));
        }
        Ok(Unit::bear_off(throw, from, off, extra_mark))
    }

    /// How far a backward move goes with `throw` (MB-1: one square).
    fn backward_step(&self, throw: u8) -> u8 {
        if self.movement.backward == Backward::OneSquareWhenNoForward {
            1
        } else {
            throw
        }
    }

    /// Where a hit piece on `to` goes when the mover came from `from`.
    pub(super) fn hit_destination(&self, pos: &Position, from: u8, to: u8) -> HitDest {
        match self.squares[to as usize].hit_sends_to {
            Some(d) if pos.at(d).is_none() => {
                // The hit piece lands on `d` and that square's rule applies.
                let mut occ = pos.occupied();
                occ.remove(to);
                occ.remove(from);
                occ.insert(to); // the mover now stands on `to`
                match self.squares[d as usize].on_land.as_ref() {
                    Some(l) => match l.effect.resolve(d, occ, self.board.len, l.when_taken) {
                        Some(Some(Relocated::Square(s))) => HitDest::Square(s),
                        Some(Some(Relocated::Queue)) => HitDest::Queue,
                        _ => HitDest::Square(d),
                    },
                    None => HitDest::Square(d),
                }
            }
            _ => match self.movement.hit {
                // A forbidden hit never reaches here (PC-3).
                Hit::Swap | Hit::Forbidden => HitDest::Square(from),
                Hit::Capture => HitDest::Removed,
                Hit::LowestEmpty => {
                    // The board once the mover stands on `to` (JQ-6): the
                    // square it left is empty, so one always exists.
                    let mut occ = pos.occupied();
                    occ.remove(from);
                    let q = (1..=self.board.len)
                        .find(|&q| !occ.contains(q))
                        .unwrap_or(from);
                    HitDest::Square(q)
                }
            },
        }
    }

    /// The square the dead-piece queue enters, if the rule set has one.
    pub(super) fn queue_square(&self) -> Option<u8> {
        self.squares
            .iter()
            .find_map(|s| s.on_land.as_ref().and_then(|l| l.effect.queue_square()))
    }

    /// The winner, once a side has no pieces left in play (K-4); under
    /// [`Goal::MostBorneOff`], once neither side has, the side that bore off
    /// more (`None` for a draw: see [`game_over`](Self::game_over)).
    pub fn winner(&self, pos: &Position) -> Option<Side> {
        match self.end.goal {
            Goal::BearOffAll => Side::BOTH.into_iter().find(|&s| pos.in_play(s) == 0),
            Goal::MostBorneOff => {
                if !self.game_over(pos) || pos.off[0] == pos.off[1] {
                    None
                } else if pos.off[0] > pos.off[1] {
                    Some(Side::White)
                } else {
                    Some(Side::Black)
                }
            }
        }
    }

    /// Whether the game has ended (with a winner, or drawn under BL-7).
    pub fn game_over(&self, pos: &Position) -> bool {
        match self.end.goal {
            Goal::BearOffAll => Side::BOTH.into_iter().any(|s| pos.in_play(s) == 0),
            Goal::MostBorneOff => Side::BOTH.into_iter().all(|s| pos.in_play(s) == 0),
        }
    }

    /// The winner's points under the rule set's scoring (K-14), if it scores.
    pub fn score(&self, pos: &Position) -> Option<(Side, u32)> {
        let weights = self.end.score_by_row.as_ref()?;
        let winner = self.winner(pos)?;
        let loser = winner.other();
        let points = pos.pieces[loser.index()]
            .iter()
            .map(|s| {
                let row = self.board.row_of(s) as usize;
                weights.get(row).copied().unwrap_or(0) as u32
            })
            .sum();
        Some((winner, points))
    }
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
