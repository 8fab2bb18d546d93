//! Playing a unit: the position after it and what it did (`Effects`).
//!
//! One entry point, [`Ruleset::apply`], in place; [`Ruleset::play`] is its
//! copying form, and `Ruleset::apply_tallied` the form for a playout that
//! only counts what each unit did (the simulator's driver).
//!
//! Behind it, two forms: `play_general` plays any unit, and `play_plain`
//! plays the ordinary ones (`plays_plainly`: a step, a bear-off or a pass
//! with no relocation, split, lock, queue or bound throw, decided by the
//! rule set's `PlainSquares`) without a branch on what the unit does. A
//! step whose landing relocates the piece to a square, and one that lands
//! in the region of a bear-off without a throw (which may make it due), is
//! played by a copy of `play_plain` too, reached out of line from
//! `play_general`; but where the landings in that region are all a rule
//! set's plain units do beyond the bare ones (`Tables::plain_home`), every
//! plain unit is played inlined by a copy that sees to the due. They are
//! kept two because one form costs: with every unit played by
//! `play_general` (measured with callgrind, 300 games per rule set, the
//! same games), the bench loop runs 23 % more
//! instructions per unit on `bga` (436 -> 538), 13-21 % more on the other
//! rule sets but `piccione` (+2.5 %), and the simulator's driver 10 % more
//! on `bga` (522 -> 573); the branches it takes on a hit, a bear-off and the
//! end of the turn follow the throws and are mispredicted besides. The two
//! are kept in step by `play_plain_knows_every_field` below and by the
//! generator's referee test (`fast_path_equals_general_path`), which plays
//! every unit both ways.

// Nested `if`s mirror the order of the rules they apply.
#![allow(clippy::collapsible_if)]

use super::constructs::movement::HitDest;
use super::mask_of;
use super::movegen::Refusal;
use super::unit::{Part, Relocated};
use super::{Forbid, Heading, Position, Reach, Ruleset, Unit, UnitKind};

/// What a played unit did, for statistics and display.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Effects {
    /// An opposing piece was hit: where it went (`None` if it left the board).
    pub hit_to: Option<u8>,
    pub swap: bool,
    /// A piece went into a relocation or lock square (the water).
    pub water: bool,
    pub bear_off: bool,
    pub pass: bool,
    pub skip: bool,
    pub backward: bool,
    pub truncation: bool,
    pub queue_join: bool,
    /// The hit piece left the game (BL-4).
    pub capture: bool,
    /// A queued piece entered the board.
    pub queue_enter: bool,
    /// The turn ended with this unit.
    pub turn_ended: bool,
    /// The mover won with this unit.
    pub won: bool,
}

/// What the squares a part landed on gave its owner.
#[derive(Clone, Copy, Default)]
pub(crate) struct Landed {
    /// An extra throw bound to the piece (R-11, PC-2).
    pub bound: bool,
    /// An extra throw (PC-6).
    pub extra: bool,
}

impl Ruleset {
    /// Plays a unit produced by [`legal_units`](Self::legal_units) or
    /// [`free_units`](Self::free_units) for this position. The unit is not
    /// re-validated: look it up among the generated units first.
    #[inline]
    pub fn play(&self, pos: &Position, unit: &Unit) -> Result<(Position, Effects), Refusal> {
        let mut next = *pos;
        let fx = self.apply(&mut next, unit)?;
        Ok((next, fx))
    }

    /// [`play`](Self::play) in place: `pos` becomes the position after
    /// `unit`. On a refusal `pos` is left as it was. Playouts and replays
    /// use this form: it copies no position in or out.
    // Always inlined: in a large caller (the replay) the compiler keeps it
    // out of line, and the call, its register saves and the returned
    // `Result` cost a fifth of what a plain unit's play does.
    #[inline(always)]
    pub fn apply(&self, pos: &mut Position, unit: &Unit) -> Result<Effects, Refusal> {
        if self.plays_plainly(pos, unit) {
            return Ok(self.play_plain(pos, unit));
        }
        self.play_general(pos, unit)
    }

    /// [`apply`](Self::apply) for a playout that only counts what the
    /// unit did: `tally` sees the unit's `Effects` where they are made,
    /// and nothing is returned through memory. Called in each of the two
    /// forms apart, so that in the plain one the compiler keeps the
    /// effects in registers and computes only those `tally` reads. With
    /// `BARE`, for a rule set whose plain units are bare
    /// (`Tables::plain_bare`, which the caller has tested): a playout loop
    /// compiled once per form then holds one copy of `play_plain`.
    #[inline(always)]
    pub(crate) fn apply_tallied<const BARE: bool>(
        &self,
        pos: &mut Position,
        unit: &Unit,
        mut tally: impl FnMut(&Effects),
    ) -> Result<(), Refusal> {
        debug_assert!(!BARE || self.tables.plain_bare);
        if self.plays_plainly(pos, unit) {
            tally(&if BARE {
                self.play_plain_as::<true, false, false>(pos, unit)
            } else if self.tables.plain_home {
                self.play_plain_as::<true, false, true>(pos, unit)
            } else {
                self.play_plain_as::<false, false, false>(pos, unit)
            });
        } else {
            tally(&self.play_general(pos, unit)?);
        }
        Ok(())
    }

    /// Any unit, in place. Every refusal is decided before the first
    /// change to `p`, so a refused unit leaves it as it was, and no
    /// position is copied in or out.
    fn play_general(&self, p: &mut Position, unit: &Unit) -> Result<Effects, Refusal> {
        // A landing relocated to a square (the water's, K-11, T-14) plays
        // plainly but for the square the piece stays on, and one in the
        // region of a bear-off without a throw (MC-8) but for its due; their
        // test and play are here, out of line, so that the inlined plain
        // play of the other units pays nothing for them.
        if self.tables.plain.onward_any && self.plays_plainly_as::<true>(p, unit) {
            return Ok(if self.tables.plain_bare | self.tables.plain_home {
                self.play_plain_as::<true, true, true>(p, unit)
            } else {
                self.play_plain_as::<false, true, true>(p, unit)
            });
        }
        let mut fx = Effects::default();
        let side = p.to_move;
        let me = side.index();
        let mut ends_turn;
        match unit.kind {
            UnitKind::Skip => {
                if !self.skip_due(p) {
                    return Err(Refusal {
                        from: 0,
                        to: 0,
                        forbid: Forbid::MissedTurn,
                    });
                }
                p.skip[me] = false;
                fx.skip = true;
                ends_turn = true;
            }
            UnitKind::NoThrow if unit.off => {
                // A bear-off without a throw: due only now, and the turn
                // goes on or ends as the throw of the move before said.
                if self.auto_off_due(p) != Some(unit.from) {
                    return Err(Refusal {
                        from: unit.from,
                        to: unit.to,
                        forbid: if p.pieces[me].contains(unit.from) {
                            Forbid::NotAllIn
                        } else {
                            Forbid::NoPiece
                        },
                    });
                }
                p.pieces[me].remove(unit.from);
                p.off[me] += 1;
                fx.bear_off = true;
                ends_turn = !p.extra;
            }
            UnitKind::NoThrow => {
                if !p.pieces[me].contains(unit.from) {
                    return Err(Refusal {
                        from: unit.from,
                        to: unit.to,
                        forbid: Forbid::NoPiece,
                    });
                }
                p.pieces[me].remove(unit.from);
                match unit.relocated {
                    None => p.pieces[me].insert(unit.to),
                    Some(Relocated::Square(s)) => p.pieces[me].insert(s),
                    Some(Relocated::Queue) => {
                        p.queue.push(side);
                        fx.queue_join = true;
                    }
                    Some(Relocated::Hand) => p.hand[me] += 1,
                }
                // KD-8: the release to 15 costs the next turn.
                if self.squares[unit.from as usize]
                    .lock
                    .as_ref()
                    .is_some_and(|l| l.release_misses_turn)
                {
                    p.skip[me] = true;
                }
                ends_turn = true;
            }
            UnitKind::Pass => {
                fx.pass = true;
                let had_bound = p.bound.is_some();
                // A bound throw is used up by passing it too (P-6).
                p.bound = None;
                let forced = unit.forced;
                let locked = p.pieces[me]
                    .iter()
                    .find_map(|s| self.squares[s as usize].lock.as_ref());
                ends_turn = if let Some(lock) = locked {
                    // LK-14: a refused exit is a forced pass like any other,
                    // which keeps its extra throw as forced passes do.
                    let refused_exit =
                        lock.refused_exit_passes && lock.exit_throws & (1 << unit.throw) != 0;
                    if refused_exit {
                        !(unit.extra_mark && self.turn.forced_pass_keeps_extra)
                    } else {
                        lock.fail_ends_turn || !unit.extra_mark
                    }
                } else if had_bound {
                    self.turn.bound_pass_ends_turn || !unit.extra_mark
                } else if forced {
                    !(unit.extra_mark && self.turn.forced_pass_keeps_extra)
                } else {
                    !(unit.extra_mark && self.turn.voluntary_pass_keeps_extra)
                };
                // LK-15: the starting throw ends the wait when it is thrown,
                // passed or not.
                if self.movement.start_throw_counted
                    && self.movement.start_throw == Some(unit.throw)
                {
                    p.waiting[me] = false;
                }
            }
            UnitKind::Move => {
                let entering = unit.from == 0;
                if !entering && !p.pieces[me].contains(unit.from) || entering && p.hand[me] == 0 {
                    return Err(Refusal {
                        from: unit.from,
                        to: unit.to,
                        forbid: Forbid::NoPiece,
                    });
                }
                // A bound throw is used by this unit, whatever it does.
                ends_turn = !unit.extra_mark;
                if let Some(lock) = &self.squares[unit.from as usize].lock {
                    // whether bearing off from the water gives another throw.
                    ends_turn |= unit.off && !lock.exit_gives_extra;
                }
                p.bound = None;
                p.waiting[me] = false;
                // LK-12: the mark ends when its piece leaves its square or
                // is swapped off it; a lock's move out makes a new one.
                if p.marked.is_some_and(|m| m == unit.from || m == unit.to) {
                    p.marked = None;
                }
                if let Some(lock) = &self.squares[unit.from as usize].lock
                    && lock.binds_next
                    && !unit.off
                {
                    p.marked = Some(unit.to);
                }
                let first = unit.first_part();
                let mut landed = self.play_part(p, &mut fx, &first, unit.throw);
                if let Some(second) = &unit.split {
                    let rest = self.play_part(p, &mut fx, second, 0);
                    landed.bound |= rest.bound;
                    landed.extra |= rest.extra;
                }
                for part in unit.more.iter() {
                    let rest = self.play_part(p, &mut fx, &part, 0);
                    landed.bound |= rest.bound;
                    landed.extra |= rest.extra;
                }
                // A lock's move out (`otherwise relocate to 15`, LK-11,
                // HK-2) is a relocation by the lock, not a backward move.
                if self.squares[unit.from as usize].lock.is_some() {
                    fx.backward = false;
                }
                if self.turn.held_extra && !entering && !unit.forced {
                    // A throw used up by moving takes the extra throw the
                    // game holds; a throw whose rest is lost leaves the one
                    // it earned to the game (extra throws never add up).
                    if self.uses_whole_throw(unit) {
                        landed.extra |= p.held;
                        p.held = false;
                    } else {
                        p.held |= landed.extra;
                        landed.extra = false;
                    }
                }
                if landed.bound || landed.extra {
                    ends_turn = false;
                }
                if unit.forced && self.squares[unit.from as usize].stuck_to_hand {
                    // PC-5: no move was possible; the turn ends as with a pass.
                    ends_turn = true;
                } else if self.movement.one_direction {
                    p.heading = if fx.backward {
                        Heading::Backward
                    } else {
                        Heading::Forward
                    };
                }
            }
        }
        // the queue head enters its square when it is empty.
        if let Some(q) = (!p.queue.is_empty()).then(|| self.queue_square()).flatten() {
            if p.at(q).is_none() {
                if let Some(s) = p.queue.pop() {
                    p.pieces[s.index()].insert(q);
                    fx.queue_enter = true;
                }
            }
        }
        // (A side with a piece on the board has one in play: the count,
        // a software popcount on baseline x86-64, is taken only without.)
        if p.pieces[me].is_empty() && p.in_play(side) == 0 {
            // BL-7: with captures the game ends only when neither side has a
            // piece in play; the mover's turn ends when it has none. LJ-9:
            // a last bear-off whose throw gives another keeps the turn, and
            // the game is drawn.
            let drawn = self.end.draw_on_extra && unit.kind == UnitKind::Move && !ends_turn;
            p.extra = drawn;
            fx.won = !drawn && self.winner(p) == Some(side);
            ends_turn = !drawn;
        }
        // A move that makes a bear-off without a throw due keeps its side
        // to move for it, the throw still pending or not.
        if matches!(self.bear_off.reach, Reach::WithoutThrow { .. })
            && unit.kind == UnitKind::Move
            && !fx.won
            && self.auto_off_due(p).is_some()
        {
            p.extra = !ends_turn;
            return Ok(fx);
        }
        if ends_turn {
            p.end_turn();
            fx.turn_ended = true;
        } else {
            p.extra = true;
        }
        Ok(fx)
    }

    /// Moves one piece as `part` says, on `p`, which holds the pieces of
    /// `before` (the position before this part, kept apart by the caller).
    /// `throw` is the part's throw when known (0 for the second part of a
    /// split, which never truncates).
    pub(super) fn move_part(
        &self,
        before: &Position,
        p: &mut Position,
        fx: &mut Effects,
        part: &Part,
        throw: u8,
    ) -> Landed {
        debug_assert_eq!(before.pieces, p.pieces);
        self.play_part(p, fx, part, throw)
    }

    /// [`move_part`](Self::move_part) on `p` as it stands before the part.
    fn play_part(&self, p: &mut Position, fx: &mut Effects, part: &Part, throw: u8) -> Landed {
        let side = p.to_move;
        let me = side.index();
        let them = side.other().index();
        let mut landed = Landed::default();
        if part.from == 0 {
            // PC-2: a piece enters from the hand.
            p.hand[me] -= 1;
            p.pieces[me].insert(part.to);
            p.arrived.insert(part.to);
            let landed = self.landed_by(part);
            if landed.bound {
                p.bound = Some(part.to);
            }
            return landed;
        }
        // Where a hit piece goes is decided on the board before the mover
        // leaves its square.
        let dest = (part.hit && !part.off && part.to != 0)
            .then(|| self.hit_destination(p, part.from, part.to));
        p.pieces[me].remove(part.from);
        p.arrived.remove(part.from);
        if part.off {
            p.off[me] += 1;
            fx.bear_off = true;
            return self.landed_by(part);
        }
        if part.to == 0 {
            // PC-5: back to the hand.
            p.hand[me] += 1;
            return landed;
        }
        fx.backward = part.to < part.from && !self.leaves_with(part.from, throw);
        fx.truncation = !fx.backward
            && part.to < part.from.saturating_add(throw)
            && self.movement.truncate_at.contains(part.to);
        if let Some(dest) = dest {
            fx.swap = true;
            p.pieces[them].remove(part.to);
            match dest {
                HitDest::Square(d) => {
                    p.pieces[them].insert(d);
                    fx.hit_to = Some(d);
                    if d != part.from {
                        fx.water = true;
                    }
                }
                HitDest::Queue => {
                    p.queue.push(side.other());
                    fx.water = true;
                    fx.queue_join = true;
                }
                HitDest::Removed => {
                    fx.swap = false;
                    fx.capture = true;
                }
            }
        }
        let sq = &self.squares[part.to as usize];
        match part.relocated {
            Some(Relocated::Square(s)) => {
                p.pieces[me].insert(s);
                p.arrived.insert(s);
                fx.water = true;
            }
            Some(Relocated::Queue) => {
                p.queue.push(side);
                fx.water = true;
                fx.queue_join = true;
            }
            Some(Relocated::Hand) => {
                p.hand[me] += 1;
                fx.water = true;
            }
            None => {
                p.pieces[me].insert(part.to);
                p.arrived.insert(part.to);
                if sq.lock.is_some() {
                    fx.water = true;
                }
            }
        }
        if part.relocated.is_none() {
            if sq.miss_turn {
                p.skip[me] = true;
            }
            landed = self.landed_by(part);
            // exactly one pending throw, bound to this piece,
            // whatever the value that landed it (P-6).
            if landed.bound {
                p.bound = Some(part.to);
            }
        }
        landed
    }

    /// What the square a part ends on (or bears off from) gives its
    /// owner, whatever the throw: an extra throw bound to the piece (an
    /// entry's, PC-2; a square's, R-11) or another throw (PC-6, LP-8; a
    /// bear-off's, LP-11e). A piece relocated from its landing, or taken
    /// back to the hand, earns nothing there.
    #[inline]
    pub(crate) fn landed_by(&self, part: &Part) -> Landed {
        if part.from == 0 {
            return Landed {
                bound: self.entry.as_ref().is_some_and(|e| e.bound_extra),
                extra: false,
            };
        }
        if part.off {
            return Landed {
                bound: false,
                extra: self.squares[part.from as usize].off_extra,
            };
        }
        if part.to == 0 || part.relocated.is_some() {
            return Landed::default();
        }
        let sq = &self.squares[part.to as usize];
        Landed {
            bound: sq.bound_extra,
            extra: sq.extra_throw,
        }
    }

    /// Whether a move's parts add up to its whole throw (a bear-off counts
    /// to the square past the end); parts that add up to less lost the
    /// rest (LP-3), and the extra throw they earned is held (LP-11d).
    pub(crate) fn uses_whole_throw(&self, unit: &Unit) -> bool {
        let off = self.board.off();
        let used: u32 = unit
            .parts()
            .map(|q| u32::from((if q.off { off } else { q.to }).saturating_sub(q.from)))
            .sum();
        used >= u32::from(unit.throw)
    }

    /// Whether the move `unit`, played in `pos`, gives its player another
    /// throw: the meaning of a move's `+` (docs/sgn.md). The unit's mark as
    /// its stage made it says what the throw gives (its value, `extra throw
    /// on`; a backward move's, `backward move gives extra throw`; none from
    /// a lock whose plies give none, or after a move a lock moved out,
    /// LK-6, LK-12); then what the move did: a bear-off from a lock whose
    /// exit gives none, a landing that gives one or binds one to the
    /// piece, the extra throw the game holds or the one a lost rest leaves
    /// to it, and a return to the hand, which ends the turn (PC-5). The
    /// general `play` decides the turn the same way; whether the game ends
    /// with the move is not asked.
    ///
    /// From the rule set's [`MarkSquares`] when it has its tables (one
    /// pass over the parts, no branch per part on what it did); without
    /// them, as the referee of the tables runs, from the square rules
    /// themselves (`gives_another_throw_general`). A unit already marked
    /// so is marked the same again: what the parts gave is in the mark,
    /// and is found again.
    // Out of line: a playout marks one unit per ply, and its loop keeps
    // its registers without the test in it.
    // The one-part move with tables is decided here without a call, so
    // that no register is saved on its way (about a third of the call
    // in `ryabinin`); the others go on out of line.
    #[inline(never)]
    pub(crate) fn gives_another_throw(&self, pos: &Position, unit: &Unit) -> bool {
        if !self.tables.enabled || unit.split.is_some() {
            return self.gives_another_throw_parts(pos, unit);
        }
        Gives::default()
            .add(self, unit.from, unit.to, unit.off, unit.relocated.is_some())
            .again(self, pos, unit)
    }

    /// [`gives_another_throw`](Self::gives_another_throw) of a move of
    /// several parts, or without tables.
    #[inline(never)]
    fn gives_another_throw_parts(&self, pos: &Position, unit: &Unit) -> bool {
        self.gives_another_throw_inline(pos, unit)
    }

    /// [`gives_another_throw`](Self::gives_another_throw), always inlined:
    /// for a loop over a throw's moves, where a call per move costs as much
    /// as the test (the parts after the first and the form without tables
    /// are out of line).
    #[inline(always)]
    pub(crate) fn gives_another_throw_inline(&self, pos: &Position, unit: &Unit) -> bool {
        if !self.tables.enabled {
            return self.gives_another_throw_general(pos, unit);
        }
        let mut gives =
            Gives::default().add(self, unit.from, unit.to, unit.off, unit.relocated.is_some());
        // Most moves have one part: the walk over the others is out of
        // line, so that the one-part case is inlined into its callers.
        if unit.split.is_some() {
            gives = self.gives_of_later_parts(gives, unit);
        }
        gives.again(self, pos, unit)
    }

    /// `gives` with the parts of a split `unit` after its first added.
    #[inline(never)]
    fn gives_of_later_parts(&self, mut gives: Gives, unit: &Unit) -> Gives {
        if let Some(p) = &unit.split {
            gives = gives.add(self, p.from, p.to, p.off, p.relocated.is_some());
            for w in unit.more.words() {
                if w == 0 {
                    break;
                }
                // (The packing of `MoreParts`.)
                gives = gives.add(
                    self,
                    (w >> 1 & 63) as u8,
                    (w >> 7 & 63) as u8,
                    w >> 14 & 1 != 0,
                    w >> 15 != 0,
                );
            }
        }
        gives
    }

    /// [`gives_another_throw`](Self::gives_another_throw) from the square
    /// rules, part by part.
    #[inline(never)]
    fn gives_another_throw_general(&self, pos: &Position, unit: &Unit) -> bool {
        let from = &self.squares[unit.from as usize];
        let mut again = unit.extra_mark;
        if let Some(lock) = &from.lock {
            // the bear-off from the water gives none.
            again &= !unit.off || lock.exit_gives_extra;
        }
        // Most moves have one part: no walk over the parts for them.
        let mut landed = self.landed_by(&unit.first_part());
        if unit.split.is_some() || !unit.more.is_empty() {
            for part in unit.parts().skip(1) {
                let l = self.landed_by(&part);
                landed.bound |= l.bound;
                landed.extra |= l.extra;
            }
        }
        if self.turn.held_extra && unit.from != 0 && !unit.forced {
            if self.uses_whole_throw(unit) {
                landed.extra |= pos.held;
            } else {
                landed.extra = false;
            }
        }
        again |= landed.bound | landed.extra;
        again && !(unit.forced && from.stuck_to_hand)
    }

    /// Whether [`play_plain`](Self::play_plain) plays `unit` in `pos` as
    /// the general `play` would, by the rule set's [`PlainSquares`]: a
    /// step from a square of `from` (not a lock's) by a side with a piece
    /// there, onto a square of `land` (a hit only where it is a swap or a
    /// send to the lowest empty square) and not relocated, a bear-off, or
    /// a pass without a bound throw by a side with no piece on a square of
    /// `pass_held` (a lock's that may keep the turn); no mark, and the queue empty.
    #[inline(always)]
    pub(crate) fn plays_plainly(&self, pos: &Position, unit: &Unit) -> bool {
        self.plays_plainly_as::<false>(pos, unit)
    }

    /// [`plays_plainly`](Self::plays_plainly); with `ONWARD`, whether
    /// `play_plain_as::<_, true, true>` plays a step whose landing relocates the
    /// piece to a square (`onward` for `land`) or lands in the region of a
    /// bear-off without a throw (`home`), and nothing else.
    #[inline(always)]
    fn plays_plainly_as<const ONWARD: bool>(&self, pos: &Position, unit: &Unit) -> bool {
        // Data-dependent tests (a hit, a bear-off) are combined with `&`
        // and masks rather than `&&`: a branch on them would be
        // mispredicted about as often as not.
        let f = &self.tables.plain;
        let me = pos.pieces[pos.to_move.index()].0;
        let pos_ok = pos.queue.is_empty() & pos.marked.is_none();
        match unit.kind {
            UnitKind::Move => {
                let from = 1u64 << (unit.from & 63);
                let to = 1u64 << (unit.to & 63);
                // (The squares of a unit no generator makes may be past
                // the board's 64 bits: those are played by the general
                // `play`.)
                let range = (unit.from | unit.to) < 64;
                let land = if ONWARD {
                    match unit.relocated {
                        Some(Relocated::Square(s)) => f.onward[unit.hit as usize] & mask_of(s < 64),
                        None => f.home[unit.hit as usize],
                        _ => 0,
                    }
                } else {
                    f.land[unit.hit as usize] & mask_of(unit.relocated.is_none())
                };
                // A branch on the piece moved, which a generated unit
                // always has: taken or not the same way all game but where
                // a lock's piece moves, never in a rule set without plain
                // play (whose `from` is empty).
                (me & from & f.from != 0)
                    && pos_ok
                        & range
                        & unit.split.is_none()
                        & ((unit.off & !ONWARD) | (land & to != 0))
            }
            // A pass may end a starting throw's wait (LK-15).
            UnitKind::Pass => {
                !ONWARD
                    & pos_ok
                    & f.pass
                    & (me & f.pass_held == 0)
                    & pos.bound.is_none()
                    & !pos.waiting[pos.to_move.index()]
            }
            _ => false,
        }
    }

    /// `play` for a unit that [`plays_plainly`](Self::plays_plainly), in
    /// place. Written without branches on what the unit does (a hit, a
    /// bear-off, whether the turn ends), for the reason given there.
    /// Always inlined, as `apply` is: called out of line (as the
    /// simulator's driver did, the compiler's choice), the call and the
    /// `Effects` it returns through memory cost a third of the unit.
    /// The rule sets whose plain units are bare (`Tables::plain_bare`)
    /// play them by a copy without the tests of what they lack.
    #[inline(always)]
    pub(crate) fn play_plain(&self, p: &mut Position, unit: &Unit) -> Effects {
        if self.tables.plain_bare {
            self.play_plain_as::<true, false, false>(p, unit)
        } else if self.tables.plain_home {
            // (The copy that sees to the due, `Tables::plain_home`.)
            self.play_plain_as::<true, false, true>(p, unit)
        } else {
            self.play_plain_as::<false, false, false>(p, unit)
        }
    }

    /// [`play_plain`](Self::play_plain); with `BARE`, for a rule set that
    /// has none of what `Tables::plain_bare` lists, whose tests the
    /// compiler then drops. Without, for any rule set. With `ONWARD`, for
    /// a step whose landing relocates the piece to a square or lands in
    /// the region of a bear-off without a throw, which may make it due
    /// (`plays_plainly_as::<true>`); without, for the others. With `HOME`,
    /// the copy sees to that due (`ONWARD` implies it; alone, for every
    /// plain unit of a rule set of `Tables::plain_home`, none relocated).
    #[inline(always)]
    fn play_plain_as<const BARE: bool, const ONWARD: bool, const HOME: bool>(
        &self,
        p: &mut Position,
        unit: &Unit,
    ) -> Effects {
        const {
            assert!(
                !ONWARD || HOME,
                "ONWARD plays may become due: HOME sees to it"
            )
        };
        let mut fx = Effects::default();
        let side = p.to_move;
        let me = side.index();
        // The landing relocated the piece onward (never without `ONWARD`).
        let mut relocated_onward = false;
        if unit.kind == UnitKind::Move {
            let from = 1u64 << unit.from;
            // JQ-6: a hit piece goes to the lowest square that is empty
            // once the mover stands on the target (the square it left is
            // one, so there always is one).
            // (A test of the rule set, the same every time: no cost to
            // the rule sets that swap.)
            let dest = if !BARE && self.tables.steps.hit_lowest {
                // LJ-6: before the move, the square left is still taken.
                let kept = from & self.tables.steps.hit_origin_taken;
                let left = (p.pieces[0].0 | p.pieces[1].0) & !from | kept;
                let empty = !left & self.tables.squares.board_squares;
                // (On a full board the pieces swap, as in `hit_dest`.)
                1u64.checked_shl(empty.trailing_zeros()).unwrap_or(from)
            } else {
                from
            };
            // The square moved to, and the one the piece stays on (the
            // same but where the landing relocates it onward). A bear-off
            // lands on no square.
            let (onward, lands) = if ONWARD {
                landing(unit)
            } else {
                (false, unit.to)
            };
            let to = if unit.off { 0 } else { 1u64 << unit.to };
            // (A bear-off stays nowhere.)
            let stays = if ONWARD {
                (1u64 << lands) & mask_of(!unit.off)
            } else {
                to
            };
            p.pieces[me].0 = (p.pieces[me].0 & !from) | stays;
            p.arrived.0 = (p.arrived.0 & !from) | stays;
            p.off[me] += unit.off as u8;
            fx.bear_off = unit.off;
            // Into the water: a relocation (K-11, T-14), or a lock that
            // holds the piece from the next unit on (B-12).
            fx.water = (self.tables.lock.squares & to != 0) | onward;
            // The square's own rules apply only to a piece that stays on it.
            let settles = to & mask_of(!onward);
            // the owner misses the next turn.
            if !BARE {
                p.skip[me] |= self.tables.squares.miss_squares & settles != 0;
            }
            // A bear-off's `to` is past every square moved from.
            fx.backward = unit.to < unit.from;
            // As in `play`; `to` is 0 for a bear-off.
            fx.truncation = !BARE
                & (self.movement.truncate_at.0 & to != 0)
                & (unit.to < unit.from + unit.throw)
                & !fx.backward;
            // A hit piece goes to `dest` (the square moved from, or the
            // lowest empty one); a bear-off hits nothing, whatever the unit
            // says (as in `move_part`).
            let hits = unit.hit & !unit.off;
            let hit = mask_of(hits);
            let them = &mut p.pieces[side.other().index()].0;
            *them = (*them & !(to & hit)) | (dest & hit);
            fx.swap = hits;
            fx.hit_to = if hits {
                Some(dest.trailing_zeros() as u8)
            } else {
                None
            };
            // A hit piece sent elsewhere than the mover's square (as
            // `move_part` counts it).
            fx.water |= hits & (dest != from);
            p.waiting[me] = false;
            relocated_onward = onward;
        } else {
            fx.pass = true;
        }
        // No piece left in play: on the board or in hand (a position
        // written by hand may have pieces in hand under rules without an
        // entry); the queue is empty.
        let none_left = (p.pieces[me].0 == 0) & (p.hand[me] == 0);
        // a square that binds an extra throw to the piece (P-6:
        // whatever the value that landed it); a bear-off lands nowhere.
        let bound = !BARE
            && unit.kind == UnitKind::Move
            && !unit.off
            && !relocated_onward
            && self.tables.squares.bound_squares & (1u64 << unit.to) != 0;
        // LJ-9: a last bear-off whose throw gives another keeps the turn,
        // and the game is drawn.
        let drawn = !BARE
            & none_left
            & self.end.draw_on_extra
            & (unit.kind == UnitKind::Move)
            & unit.extra_mark;
        // A pass by a side with a piece on a lock square (`pass_held`
        // leaves only locks that end the turn of every pass) ends it.
        let ends_turn = if unit.kind == UnitKind::Move {
            (!unit.extra_mark & !bound) | (none_left & !drawn)
        } else if unit.forced {
            !(unit.extra_mark && self.turn.forced_pass_keeps_extra)
                || none_left
                || p.pieces[me].0 & self.tables.lock.squares != 0
        } else {
            !(unit.extra_mark && self.turn.voluntary_pass_keeps_extra)
                || none_left
                || p.pieces[me].0 & self.tables.lock.squares != 0
        };
        if none_left {
            p.extra = drawn;
            fx.won = !drawn && self.winner(p) == Some(side);
        }
        // A bound throw keeps the turn going (the piece is on the board, so
        // the side has a piece in play).
        p.bound = if bound { Some(unit.to) } else { None };
        // PC-4: the turn's moves so far went this way (a rule of the set,
        // the same every time).
        if !BARE && self.movement.one_direction && unit.kind == UnitKind::Move {
            p.heading = if fx.backward {
                super::Heading::Backward
            } else {
                super::Heading::Forward
            };
        }
        // A move that makes a bear-off without a throw due (all the side's
        // pieces in the region, one on its square) keeps its side to move
        // for it, the throw still pending or not, as in the general play:
        // the turn does not end, and `extra` says what the throw gave.
        // Only in the copies with `HOME`: out of line for the landings in
        // the region (`PlainSquares::home`, with `ONWARD`), and inlined
        // for every plain unit of a rule set of `Tables::plain_home`, whose
        // landings in the region are in `land`. The other copies are the
        // other rule sets'.
        let due = HOME
            && self.tables.auto_off.from != 0
            && (unit.kind == UnitKind::Move)
                & self.tables.auto_off.may_be_due(p.pieces[me].0)
                & (p.hand[me] == 0);
        p.end_turn_if(ends_turn & !due);
        if due {
            p.extra = !ends_turn;
        }
        fx.turn_ended = ends_turn & !due;
        fx
    }
}

/// Whether `unit`'s landing relocates its piece onward to a square
/// (`=15`), and the square the piece stays on: that one, or `to`.
#[inline(always)]
fn landing(unit: &Unit) -> (bool, u8) {
    let onward = matches!(unit.relocated, Some(Relocated::Square(_)));
    let s = if let Some(Relocated::Square(s)) = unit.relocated {
        s
    } else {
        unit.to
    };
    (onward, s)
}

/// Which units [`Ruleset::plays_plainly`] lets `play_plain` play, as
/// square sets (bit `s` = square `s`) compiled with the rule set: one
/// load per test of a unit. The default lets none (no tables, or the
/// referee's general play).
#[derive(Debug, Clone, Default)]
pub(crate) struct PlainSquares {
    /// The squares a plain move starts from: the board's but the lock
    /// squares, whose moves out the lock decides (LK-11, A-8, LK-12),
    /// and those a piece leaves for another square (`stay, moving with`:
    /// a forward move whatever square it reaches, a lower one among them,
    /// which only the general play tells from a backward one). (A piece
    /// of the mover on such a square elsewhere changes nothing in the
    /// play of a move.)
    pub from: u64,
    /// The squares a plain move lands on, by `hit as usize`: where a
    /// landing gives no other throw and may not make a bear-off without a
    /// throw due (`Landings::land_plain`); with a hit, only where the hit
    /// piece is swapped or sent to the lowest empty square
    /// (`Steps::swap_plain`).
    pub land: [u64; 2],
    /// As `land`, for a landing that relocates the piece to a square: only
    /// squares whose landing relocates (in the region of a bear-off
    /// without a throw too: `home`).
    pub onward: [u64; 2],
    /// As `land`, for the squares left out of it only because a landing
    /// there may make a bear-off without a throw due (`Landings::land_home`):
    /// played by `play_plain_as::<_, true, true>`, out of line, which sees to it.
    /// Empty where the inlined plain play sees to it (`home_inline`: the
    /// squares are in `land`).
    pub home: [u64; 2],
    /// `onward` or `home` is not empty: a test that spares the general
    /// play of the other rule sets `plays_plainly_as::<true>`.
    pub onward_any: bool,
    /// A pass plays plainly (without a bound throw, a piece on a square
    /// of `pass_held` or a wait for the starting throw).
    pub pass: bool,
    /// The lock squares whose piece keeps a pass of its side from the
    /// plain play: those whose lock lets a failed exit keep the turn, or
    /// passes a refused exit (LK-14). A pass by a side with pieces on
    /// the other lock squares only (the water of `bga`, B-12b) ends the
    /// turn, as the general play gives it by the side's first lock.
    pub pass_held: u64,
}

impl PlainSquares {
    /// The sets of a rule set that plays its ordinary units plainly
    /// (`plain_play`), or none.
    pub(crate) fn compile(
        rules: &Ruleset,
        plain_play: bool,
        landings: &super::constructs::squares::Landings,
        steps: &super::constructs::movement::Steps,
        lock: &super::constructs::lock::LockSquares,
        home_inline: bool,
    ) -> PlainSquares {
        if !plain_play {
            return PlainSquares::default();
        }
        let land = landings.land_plain;
        let hit = land & steps.swap_plain;
        let home = landings.land_home;
        let mut relocating = 0u64;
        let mut leaving = 0u64;
        for s in 1..=rules.board.len {
            let sq = &rules.squares[s as usize];
            if !super::constructs::squares::unrelocated(&sq.on_land) {
                relocating |= 1 << s;
            }
            if sq.leave.is_some() {
                leaving |= 1 << s;
            }
        }
        let onward = [
            (land | home) & relocating,
            (hit | (home & steps.swap_plain)) & relocating,
        ];
        // The out-of-line copy's squares: the home landings only where
        // the inlined copy does not play them.
        let home_out = if home_inline { 0 } else { home };
        PlainSquares {
            from: landings.board_squares & !lock.squares & !leaving,
            land: if home_inline {
                [land | home, hit | (home & steps.swap_plain)]
            } else {
                [land, hit]
            },
            onward,
            home: [home_out, home_out & steps.swap_plain],
            pass: true,
            pass_held: lock.squares & !passes_end_turn(rules, lock.squares),
            onward_any: onward[0] | home_out != 0,
        }
    }
}

/// The squares of `squares` whose lock ends the turn of every pass of a
/// side with a piece there, whatever its throw and mark: a failed exit
/// ends the turn, and no refused exit is a pass that keeps its throw
/// (LK-14). (The general `play` takes the lock of the side's first piece
/// on a lock square; where every such square is one of these, each gives
/// the same.)
fn passes_end_turn(rules: &Ruleset, squares: u64) -> u64 {
    let mut ends = 0u64;
    for s in 1..=rules.board.len.min(63) {
        if squares & (1 << s) != 0
            && let Some(lock) = &rules.squares[s as usize].lock
            && lock.fail_ends_turn
            && !lock.refused_exit_passes
        {
            ends |= 1 << s;
        }
    }
    ends
}

/// What the parts of a move played so far gave its player
/// (`Ruleset::landed_by`: bit 0 another throw, bit 1 one bound to the
/// piece) and how much of the throw they used (`Ruleset::uses_whole_throw`,
/// from bit 8), from the rule set's [`MarkSquares`]: for
/// [`Ruleset::gives_another_throw`], and for a generator that adds the
/// parts one by one as it writes them.
#[derive(Clone, Copy, Default)]
pub(crate) struct Gives(u32);

/// [`Gives`]: another throw.
const EXTRA: u8 = 1;
/// [`Gives`]: an extra throw bound to the piece.
const BOUND: u8 = 2;

impl Gives {
    /// Adds a part from `from` to `to` (borne off when `off`; `relocated`
    /// elsewhere after landing), in the order of `landed_by`'s cases. (Its
    /// branches are taken seldom: most parts land on the board.)
    #[inline(always)]
    #[must_use]
    pub(crate) fn add(
        self,
        rules: &Ruleset,
        from: u8,
        to: u8,
        off: bool,
        relocated: bool,
    ) -> Gives {
        let m = &rules.tables.marks;
        let end = if off { rules.board.off() } else { to };
        let got = if from == 0 {
            m.entry
        } else if off {
            m.off[from as usize & 63]
        } else if relocated {
            0
        } else {
            m.land[to as usize & 63]
        };
        Gives((self.0 | u32::from(got)) + (u32::from(end.saturating_sub(from)) << 8))
    }

    /// [`again`](Self::again) for every unit that adds, to the parts of
    /// `unit` that these are, one ordinary step by `v`, whatever square
    /// it lands on: what does not depend on that square is decided once,
    /// for a generator that writes many such units from one prefix. The
    /// same mark as `again` after the step's `add`.
    #[inline(always)]
    pub(crate) fn again_after_step(
        self,
        rules: &Ruleset,
        pos: &Position,
        unit: &Unit,
        v: u8,
    ) -> StepMark {
        let m = &rules.tables.marks;
        let mut got = self.0;
        // The bits of the step's landing that count.
        let mut land = EXTRA | BOUND;
        if rules.turn.held_extra && unit.from != 0 && !unit.forced {
            // As in `again`: the step's value counts in the throw used.
            if (self.0 >> 8) + u32::from(v) >= u32::from(unit.throw) {
                got |= u32::from(pos.held);
            } else {
                got &= !u32::from(EXTRA);
                land = BOUND;
            }
        }
        let base = (unit.extra_mark & !(unit.off & has(m.exit_without_extra, unit.from)))
            | (got & u32::from(EXTRA | BOUND) != 0);
        let live = !(unit.forced & has(m.stuck, unit.from));
        StepMark {
            base: base & live,
            land: if live { land } else { 0 },
        }
    }

    /// Whether the move `unit`, whose parts these are, gives its player
    /// another throw in `pos` (its mark as its stage made it, what its
    /// throw gives, is `unit.extra_mark`).
    #[inline(always)]
    pub(crate) fn again(self, rules: &Ruleset, pos: &Position, unit: &Unit) -> bool {
        let m = &rules.tables.marks;
        let mut got = self.0;
        if rules.turn.held_extra && unit.from != 0 && !unit.forced {
            // A throw used up takes the extra throw the game holds; a lost
            // rest earns none now.
            if self.0 >> 8 >= u32::from(unit.throw) {
                got |= u32::from(pos.held);
            } else {
                got &= !u32::from(EXTRA);
            }
        }
        // the bear-off from the water gives none by its throw.
        let again = (unit.extra_mark & !(unit.off & has(m.exit_without_extra, unit.from)))
            | (got & u32::from(EXTRA | BOUND) != 0);
        again & !(unit.forced & has(m.stuck, unit.from))
    }
}

/// The mark of the units that end with an ordinary step from one prefix
/// of parts ([`Gives::again_after_step`]), by the square the step lands on.
#[derive(Clone, Copy)]
pub(crate) struct StepMark {
    /// The mark whatever the step lands on.
    base: bool,
    /// The bits of [`Gives`] that a landing adds to it.
    land: u8,
}

impl StepMark {
    /// The marks of the units of a split throw whose first part is an
    /// ordinary step of a piece on the board onto `to` (no entry, no
    /// bear-off, no relocation) and whose second part is an ordinary step
    /// that uses the rest of the throw, by where the second lands, with
    /// `extra_mark` the mark their stage made: [`Gives::again_after_step`]
    /// after the first step's `add`, with what the game holds (the whole
    /// throw is used) and the stage's mark for every first part.
    #[inline(always)]
    pub(crate) fn after_plain_step(
        rules: &Ruleset,
        pos: &Position,
        extra_mark: bool,
        to: u8,
    ) -> StepMark {
        let held = rules.turn.held_extra & pos.held;
        StepMark {
            base: extra_mark
                | held
                | (rules.tables.marks.land[to as usize & 63] & (EXTRA | BOUND) != 0),
            land: EXTRA | BOUND,
        }
    }

    /// The mark of the unit whose last step lands on `to`.
    #[inline(always)]
    pub(crate) fn of(self, rules: &Ruleset, to: u8) -> bool {
        self.base | (rules.tables.marks.land[to as usize & 63] & self.land != 0)
    }
}

/// Whether square `s` is in `mask`.
#[inline(always)]
fn has(mask: u64, s: u8) -> bool {
    mask >> (s & 63) & 1 != 0
}

/// What a move's parts give its player by the squares they land on or
/// leave, as square sets (bit `s` = square `s`), compiled with the rule
/// set for [`Ruleset::gives_another_throw`]: each set is the squares whose
/// rule says so in `landed_by` and `gives_another_throw`.
#[derive(Debug, Clone)]
pub(crate) struct MarkSquares {
    /// What a landing on the square gives ([`Gives`]' bits): another
    /// throw (PC-6, LP-8), one bound to the piece.
    pub land: [u8; 64],
    /// What a bear-off from the square gives: another throw (LP-11e).
    pub off: [u8; 64],
    /// What an entry gives: an extra throw bound to the piece (PC-2).
    pub entry: u8,
    /// A lock whose bear-off gives no other throw.
    pub exit_without_extra: u64,
    /// A piece that cannot move goes back to the hand, and the turn ends
    /// (PC-5).
    pub stuck: u64,
}

impl Default for MarkSquares {
    fn default() -> MarkSquares {
        MarkSquares {
            land: [0; 64],
            off: [0; 64],
            entry: 0,
            exit_without_extra: 0,
            stuck: 0,
        }
    }
}

impl MarkSquares {
    /// The sets of a rule set's square rules (the board's squares, and
    /// square 0, the hand, which has none of them).
    pub(crate) fn compile(rules: &Ruleset) -> MarkSquares {
        let mut m = MarkSquares {
            entry: if rules.entry.as_ref().is_some_and(|e| e.bound_extra) {
                BOUND
            } else {
                0
            },
            ..MarkSquares::default()
        };
        for (s, sq) in rules.squares.iter().enumerate().take(64) {
            let b = 1u64 << s;
            let set = |on: bool| if on { b } else { 0 };
            // Landings on the board's squares only: a part that ends in
            // the hand (square 0) lands nowhere.
            if (1..=rules.board.len as usize).contains(&s) {
                m.land[s] =
                    if sq.extra_throw { EXTRA } else { 0 } | if sq.bound_extra { BOUND } else { 0 };
            }
            m.off[s] = if sq.off_extra { EXTRA } else { 0 };
            m.exit_without_extra |= set(sq.lock.as_ref().is_some_and(|l| !l.exit_gives_extra));
            m.stuck |= set(sq.stuck_to_hand);
        }
        m
    }
}

/// Not called: it stops compiling when `Position` or `Effects` gains a
/// field, because `play_plain` changes the position in place and sets only
/// the fields it knows. A new field means deciding whether `play_plain` (and
/// `plays_plainly`) must change.
#[allow(dead_code)]
fn play_plain_knows_every_field(p: Position, fx: Effects) {
    let Position {
        pieces: _,
        to_move: _,
        off: _,
        extra: _,
        bound: _,
        skip: _,  // set by a landing on `miss_squares`
        queue: _, // empty for plain units
        waiting: _,
        marked: _, // plain units are played only without a mark
        turn: _,
        arrived: _,
        hand: _,    // entries are played by the general `play`; counted for the win
        heading: _, // set under `one_direction`
        first: _,   // the same all game
        origin: _,  // the same all game
        held: _,    // set only under `held_extra`, whose units are not plain
    } = p;
    let Effects {
        hit_to: _,
        swap: _,
        water: _, // lock squares landed on, JQ-6 hits sent elsewhere; others are not plain
        bear_off: _,
        pass: _,
        skip: _,
        backward: _,
        truncation: _,
        queue_join: _,
        capture: _,
        queue_enter: _,
        turn_ended: _,
        won: _,
    } = fx;
}
