//! How pieces move: direction (forward only, or backward when no forward
//! move exists), compulsion, passing, landing on a piece (own piece,
//! opposing piece: swap, capture, lowest empty, forbidden), the setup guard
//! (JQ-4), split throws (PC-3) and one direction per turn (PC-4). The square
//! sets that shape a move (gates, truncation, priority, ...) are carried
//! here for the generator; their words are in `squares`.
//!
//! The model value with its clauses, and its words: how `senet rules show`
//! says it, its token in `senet rules summary`, and how a move it refuses
//! reads.

use super::squares;
use super::words::*;
use crate::engine::movegen::{Dir, Tried, unasked_if};
use crate::engine::play::{Effects, Gives, StepMark};
use crate::engine::*;

#[derive(Debug, Clone, PartialEq)]
pub struct Movement {
    pub backward: Backward,
    pub backward_clause: Clause,
    /// A forward move is compulsory when one exists (B-8). Always true in
    /// effect when backward moves are never allowed.
    pub compulsory_clause: Clause,
    /// A player may pass voluntarily at any unit (T-10).
    pub voluntary_pass: bool,
    pub voluntary_pass_clause: Clause,
    /// Squares whose pieces must be moved first when any of them can (R-2).
    pub priority: SquareSet,
    pub priority_clause: Clause,
    /// Squares that no move may pass over; a move must land on them exactly
    /// (T-13, B-11). Indexed by the bit of the square.
    pub gates: SquareSet,
    pub gate_clause: Clause,
    /// Squares at which a move that would pass them stops (R-13).
    pub truncate_at: SquareSet,
    pub truncate_clause: Clause,
    /// Squares from which a piece never moves along the track, only off (T-15).
    pub immobile: SquareSet,
    pub immobile_clause: Clause,
    /// Squares from which a piece never moves backward (PC-4).
    pub no_backward: SquareSet,
    pub no_backward_clause: Clause,
    /// Squares from which a piece never moves forward along the track: it
    /// bears off (by an exit throw or an exact throw) or moves backward
    /// (HM-9b).
    pub no_forward: SquareSet,
    pub no_forward_clause: Clause,
    /// Clause forbidding landing on one's own piece (T-7, K-8).
    pub own_clause: Clause,
    /// What landing on an opposing piece does (where no square rule says
    /// otherwise): swap (T-6), send it to the lowest empty square (JQ-6) or
    /// capture it (BL-4).
    pub hit: Hit,
    /// Clause for what landing on an opposing piece does (T-6, K-9, JQ-6).
    pub swap_clause: Clause,
    /// Squares of a move that would pass them send the piece to another
    /// square instead (`SquareRule::overshoot_to`, KD-10 Trap).
    pub overshoot: SquareSet,
    /// A piece on one of `guard_squares` (of its side) may move only when
    /// the next square is empty: its side's setup squares (JQ-4) or the
    /// squares the file names, for both sides (LJ-4).
    pub setup_guard: bool,
    pub setup_guard_clause: Clause,
    /// The guarded squares, `[white, black]`.
    pub guard_squares: [SquareSet; 2],
    /// The guard holds the setup squares (JQ-4), not squares named.
    pub guard_on_setup: bool,
    /// The setup squares, `[white, black]`, as sets.
    pub setup_squares: [SquareSet; 2],
    /// When every legal unit bears a piece off, the player may pass instead
    /// (KD-6 "bearing off is never compulsory").
    pub bear_off_voluntary: bool,
    pub bear_off_voluntary_clause: Clause,
    /// A side whose pieces all still stand on its setup squares (none borne
    /// off) moves only with this throw; other throws are passes (KD-10
    /// Starting Throw).
    pub start_throw: Option<u8>,
    pub start_throw_clause: Clause,
    /// Only this side waits for the starting throw (LK-15); `None`: both.
    pub start_throw_side: Option<Side>,
    /// The starting throw ends the wait when it is thrown, even when it has
    /// no legal move and is passed (LK-15); otherwise only a move ends it.
    pub start_throw_counted: bool,
    /// A throw may be split between two pieces, each moving forward by its
    /// part (PC-3): a unit then has two parts, `5:12-14:20-23`.
    pub split: bool,
    pub split_clause: Clause,
    /// A throw may be spent in any number of parts, each moving any piece
    /// (the same one again, too) forward by 1 up to the rest, until the
    /// throw is used or no part is possible, when the rest is lost: a unit
    /// then has as many parts as were played, `5:12-13:13-14:20-23`. Its
    /// clause is `split_clause`.
    pub split_any: bool,
    /// A pass is offered beside entering when the throw moves no piece on
    /// the board (`pass when no move but entering`); its clause is
    /// `voluntary_pass_clause`.
    pub pass_beside_entry: bool,
    /// All the moves of a turn go in one direction (PC-4): after a forward
    /// move only forward moves, after a backward one only backward ones.
    pub one_direction: bool,
    pub one_direction_clause: Clause,
    /// Every backward move gives another throw, whatever the value thrown
    /// (a forced pass still does what `forced pass` says).
    pub backward_extra: bool,
    pub backward_extra_clause: Clause,
    /// A side's last piece, on one of these squares and with no other
    /// move, may move to that square; a piece there goes to the square it
    /// left (HK-6).
    pub last_piece: Option<(SquareSet, u8)>,
    pub last_piece_clause: Clause,
}

/// What landing on an opposing piece does to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hit {
    /// It goes to the square the mover came from (T-6).
    Swap,
    /// It goes to the lowest-numbered empty square (JQ-6).
    LowestEmpty,
    /// It goes to the lowest-numbered empty square as the board is before
    /// the move: the square the mover leaves counts as taken (LJ-6).
    LowestEmptyBeforeMove,
    /// It is removed from the game (BL-4).
    Capture,
    /// No move may land on it (PC-3: no two pieces on one square).
    Forbidden,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backward {
    /// Forward moves only.
    Never,
    /// A backward move by the throw when no forward move exists (T-9b, B-9).
    WhenNoForward,
    /// A backward move of one square, whatever the throw, when no forward
    /// move exists (MB-1).
    OneSquareWhenNoForward,
    /// A backward move by the throw onto an empty square only, when no
    /// forward move exists (JQ-7).
    ToEmptyWhenNoForward,
    /// A backward move of one square, whatever the throw, onto an empty
    /// square only, when no forward move exists (HM-6).
    OneSquareToEmptyWhenNoForward,
}

// Words.

/// `rules show`: `forward move compulsory`.
pub const COMPULSORY: &str = "A forward move is compulsory when one exists.";
/// `rules show`: `landing on own piece forbidden`.
pub const OWN_PIECE: &str = "A piece may not land on a piece of its own colour.";
/// `rules show`: the setup guard (JQ-4).
pub const GUARD: &str = "A piece on one of its side's starting squares may move only when the square in front of it is empty.";

/// `rules show`: the guard on squares named (LJ-4).
pub fn guard_on_sentence(n: &Names, squares: SquareSet) -> String {
    format!(
        "A piece on {}, of either side, may move only when the square in front of it is empty.",
        n.set(squares)
    )
}
/// `rules show`: split throws (PC-3).
pub const SPLIT: &str = "A throw may be split in two parts, each moving a different piece forward by its part; the second part moves on the board the first left.";
/// `rules show`: a throw split into any number of parts.
pub const SPLIT_ANY: &str = "A throw may be spent in any number of parts, each moving any piece forward by 1 up to what is left of the throw (the same piece may move again); when part of the throw is left and no part can be moved, the rest is lost.";
/// `rules show`: `pass when no move but entering`.
pub const PASS_BESIDE_ENTRY: &str = "A player may pass only when the throw moves no piece on the board; entering a piece is then a choice beside the pass.";
/// `rules show`: `backward move gives extra throw`.
pub const BACKWARD_EXTRA: &str = "Every backward move gives another throw, whatever its value.";
/// `rules show`: one direction per turn (PC-4).
pub const ONE_DIRECTION: &str = "All the moves of a turn go in one direction: after a forward move the turn's later throws move forward only (or are passed), after a backward move backward only.";

/// `rules show`: whether a player may pass voluntarily.
pub fn pass_sentence(voluntary: bool) -> &'static str {
    if voluntary {
        "A player may pass voluntarily at any unit."
    } else {
        "A player may pass only when no move is legal."
    }
}

/// `rules show`: the last piece's move (HK-6).
pub fn last_piece_sentence(names: &Names, from: SquareSet, to: u8) -> String {
    format!(
        "A side's last piece on the board, standing on {} with no other move, may move to {}; a piece standing there goes to the square it left.",
        names.set(from),
        names.sq(to)
    )
}

impl Backward {
    /// `rules show`.
    pub fn sentence(self) -> &'static str {
        match self {
            Backward::Never => "Pieces move forward only.",
            Backward::OneSquareWhenNoForward => {
                "When no forward move exists, a piece must move backward one square, whatever the throw (same landing rules)."
            }
            Backward::ToEmptyWhenNoForward => {
                "When no forward move exists, a piece must move backward by the throw, onto an empty square only."
            }
            Backward::WhenNoForward => {
                "When no forward move exists, a piece must move backward by the throw (same landing rules)."
            }
            Backward::OneSquareToEmptyWhenNoForward => {
                "When no forward move exists, a piece must move backward one square, whatever the throw, onto an empty square only."
            }
        }
    }

    /// A backward move goes one square, whatever the throw (MB-1, HM-6).
    pub fn one_square(self) -> bool {
        matches!(
            self,
            Backward::OneSquareWhenNoForward | Backward::OneSquareToEmptyWhenNoForward
        )
    }

    /// A backward move may land only on an empty square (JQ-7, HM-6).
    pub fn onto_empty_only(self) -> bool {
        matches!(
            self,
            Backward::ToEmptyWhenNoForward | Backward::OneSquareToEmptyWhenNoForward
        )
    }
}

impl Hit {
    /// `rules show`.
    pub fn sentence(self) -> &'static str {
        match self {
            Hit::LowestEmpty => {
                "A piece that lands on an opposing piece sends it to the lowest-numbered empty square."
            }
            Hit::LowestEmptyBeforeMove => {
                "A piece that lands on an opposing piece sends it to the lowest-numbered empty square, looked for before the move (the square the mover leaves counts as taken)."
            }
            Hit::Forbidden => {
                "No move may land on an opposing piece: no two pieces share a square and nothing is hit."
            }
            Hit::Capture => {
                "A piece that lands on an opposing piece captures it: the opposing piece leaves the game."
            }
            Hit::Swap => {
                "A piece that lands on an opposing piece swaps with it: the opposing piece goes to the square the mover came from."
            }
        }
    }
}

impl Movement {
    /// The `rules summary` lines of direction, compulsion and passing.
    pub fn direction_tokens(&self) -> [String; 3] {
        [
            format!("backward: {:?}{}", self.backward, cl(&self.backward_clause)),
            format!("compulsory:{}", cl(&self.compulsory_clause)),
            format!(
                "voluntary pass: {}{}",
                self.voluntary_pass,
                cl(&self.voluntary_pass_clause)
            ),
        ]
    }
    /// The `rules summary` lines of landing on a piece: the clauses, and
    /// what a hit does where it is not a swap.
    pub fn landing_tokens(&self) -> Vec<String> {
        let mut out = vec![format!(
            "own piece:{}; swap:{}",
            cl(&self.own_clause),
            cl(&self.swap_clause)
        )];
        // Constructs beyond the four source rule sets print only when
        // used, so that the summaries of rule sets without them stay as
        // they were.
        if self.hit != Hit::Swap {
            out.push(format!("hit: {:?}{}", self.hit, cl(&self.swap_clause)));
        }
        if self.setup_guard {
            out.push(format!("setup guard{}", cl(&self.setup_guard_clause)));
        }
        out
    }
    /// The `rules summary` lines of split throws and one direction per
    /// turn, when used.
    pub fn turn_tokens(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.split {
            out.push(format!("split throws{}", cl(&self.split_clause)));
        }
        if self.split_any {
            out.push(format!(
                "split throws into any parts{}",
                cl(&self.split_clause)
            ));
        }
        if self.pass_beside_entry {
            out.push(format!(
                "pass beside entering{}",
                cl(&self.voluntary_pass_clause)
            ));
        }
        if self.one_direction {
            out.push(format!(
                "one direction per turn{}",
                cl(&self.one_direction_clause)
            ));
        }
        if self.backward_extra {
            out.push(format!(
                "backward move gives extra throw{}",
                cl(&self.backward_extra_clause)
            ));
        }
        if let Some((from, to)) = self.last_piece {
            out.push(format!(
                "last piece: {} -> {to}{}",
                set_token(from),
                cl(&self.last_piece_clause)
            ));
        }
        out
    }
}

/// A move refused by how pieces move: no piece, a piece in the way, the
/// direction, the guard.
pub(crate) fn refused(cx: &Refused) -> Said {
    let side = cx.side();
    let (from, to, throw) = (cx.refusal.from, cx.refusal.to, cx.throw);
    match cx.refusal.forbid {
        Forbid::OwnPiece => Said::new(
            "own piece there",
            format!(
                "{} holds a {side} piece: a piece may not land on its own colour",
                cx.sq(to)
            ),
        ),
        Forbid::Occupied => Said::new(
            "square taken",
            format!(
                "{} holds a {} piece, and no move may land on a piece",
                cx.sq(to),
                side.other()
            ),
        ),
        Forbid::Backward => Said::new(
            "backward not allowed",
            format!("a forward move exists, so the piece on {from} may not move backward"),
        ),
        Forbid::BeforeStart => Said::new(
            "before the first square",
            format!("a throw of {throw} would carry the piece on {from} back past square 1"),
        ),
        Forbid::BackwardOntoPiece => Said::new(
            "backward onto a piece",
            format!(
                "a backward move must end on an empty square, and {} is taken",
                cx.sq(to)
            ),
        ),
        Forbid::Guard if cx.rules.movement.guard_on_setup => Said::new(
            "the square in front is taken",
            format!(
                "the piece on {} still stands on its starting square and may not move until {} is empty",
                cx.sq(from),
                cx.sq(from + 1)
            ),
        ),
        Forbid::Guard => Said::new(
            "the square in front is taken",
            format!(
                "a piece on {} may not move until {} is empty",
                cx.sq(from),
                cx.sq(from + 1)
            ),
        ),
        Forbid::Direction => Said::new(
            "the turn goes the other way",
            match cx.position.heading {
                Heading::Backward => format!(
                    "{side}'s turn has gone backward, so every move of the turn goes backward"
                ),
                _ => format!(
                    "{side}'s turn has gone forward, so no move of the turn may go backward"
                ),
            },
        ),
        // `NoPiece`: `Refusal::words` sends only this module's refusals.
        _ => Said::new("no piece", format!("there is no {side} piece on {from}")),
    }
}

// The generator's side.

impl Ruleset {
    /// Stage 5, one direction per turn (PC-4): the way the turn's moves
    /// have gone so far. A turn gone backward has no forward move: with
    /// `WHY`, every forward move and entry is refused.
    #[inline]
    pub(crate) fn direction_stage<const WHY: bool>(
        &self,
        pos: &Position,
        throw: u8,
        why: &mut Vec<Refusal>,
    ) -> Heading {
        let side = pos.to_move;
        let me = pos.pieces[side.index()];
        let heading = if self.movement.one_direction {
            pos.heading
        } else {
            Heading::Any
        };
        if heading == Heading::Backward && WHY {
            for from in me.iter() {
                why.push(Refusal {
                    from,
                    to: from.saturating_add(throw),
                    forbid: Forbid::Direction,
                });
            }
            if let Some(e) = &self.entry
                && e.throws & (1 << throw) != 0
                && pos.hand[side.index()] > 0
            {
                why.push(Refusal {
                    from: 0,
                    to: e.square,
                    forbid: Forbid::Direction,
                });
            }
        }
        heading
    }
}

// Hits: where a hit piece goes.

impl Ruleset {
    /// Where a hit piece on `to` goes when the mover came from `from`.
    pub(crate) fn hit_destination(&self, pos: &Position, from: u8, to: u8) -> HitDest {
        let sq = &self.squares[to as usize];
        // HK-5: a backward move onto the piece swaps.
        let sends = sq
            .hit_sends_to
            .filter(|_| !(sq.hit_sends_forward_only && to < from));
        match sends {
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
                Hit::LowestEmpty | Hit::LowestEmptyBeforeMove => {
                    // The board once the mover stands on `to` (JQ-6): the
                    // square it left is empty, so one always exists. Before
                    // the move (LJ-6) that square is still taken; on a full
                    // board the pieces swap.
                    let mut occ = pos.occupied();
                    if self.movement.hit == Hit::LowestEmpty {
                        occ.remove(from);
                    }
                    let q = (1..=self.board.len)
                        .find(|&q| !occ.contains(q))
                        .unwrap_or(from);
                    HitDest::Square(q)
                }
            },
        }
    }
}

/// Where a hit opposing piece goes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum HitDest {
    Square(u8),
    /// Off the board into the dead-piece queue (R-12).
    Queue,
    /// Out of the game (BL-4).
    Removed,
}

// Split throws (PC-3), the second half of stage 9.

impl Ruleset {
    /// PC-3: the throw split in two parts, each moving another piece forward
    /// by its part, the second from the board the first left. A throw bound
    /// to a piece (PC-2) must move that piece in one of the parts. Splits
    /// never enter a piece.
    ///
    /// Returns whether the units' marks are complete: with `MARK`, in a
    /// rule set whose moves may give another throw by what they do
    /// (`Tables::move_marks`) and whose square sets read only the piece
    /// sets, the units are written with their `+` complete, decided once
    /// per first part for the second parts that are ordinary steps
    /// ([`Gives::again_after_step`]).
    pub(crate) fn split_units<const MARK: bool>(
        &self,
        pos: &Position,
        throw: u8,
        extra_mark: bool,
        out: &mut Vec<Unit>,
    ) -> bool {
        if self.tables.steps.split_masks {
            return if MARK && self.tables.enabled && self.tables.move_marks {
                self.split_units_masks::<true>(pos, throw, extra_mark, out);
                true
            } else {
                self.split_units_masks::<false>(pos, throw, extra_mark, out);
                false
            };
        }
        let movers = self.unguarded(pos);
        for first in 1..throw {
            // The first parts: ordinary steps from the square sets, the
            // others tried by `attempt`, in the order of the squares.
            let sets = self.step_sets(pos, first, movers);
            let mut xs = sets.steps | sets.slow;
            while xs != 0 {
                let x = xs.trailing_zeros() as u8;
                xs &= xs - 1;
                let plain = sets.steps >> x & 1 != 0;
                self.split_from(pos, x, first, throw, extra_mark, plain, out);
            }
        }
        false
    }

    /// The number of units [`split_units`](Self::split_units) would write,
    /// counted rather than written, for a playout that
    /// draws one unit (`Listed::Splits`): where the square sets decide
    /// every unit (`Steps::split_masks`, no part that hits or that
    /// `attempt` must try; [`SplitMasks::count`]), and no later stage
    /// adds a unit beside them but a voluntary pass, with the cuts'
    /// counts ([`SplitMasks::count`]). Else `None`, and the
    /// units are listed. `bound`: the piece the throw is bound to (R-11,
    /// PC-2; the turn state's, `None` in a calm position, where the
    /// compiler then drops the bound count), which one of the two parts
    /// must move ([`CutCount::total_bound`]). Inlined into the playout
    /// loops' stages, which run with the CPU's population count
    /// (`cpu::bit_instructions`).
    #[inline(always)]
    pub(crate) fn split_count(
        &self,
        pos: &Position,
        throw: u8,
        bound: Option<u8>,
    ) -> Option<(usize, u64)> {
        let steps = &self.tables.steps;
        // (A pass beside entering or bearing off asks what every unit is.)
        if !steps.split_masks || steps.pass_beside_moves && !self.movement.voluntary_pass {
            return None;
        }
        // (`nth_split` finds the drawn unit by `pos.bound`: the two agree.)
        debug_assert_eq!(bound, pos.bound);
        match bound {
            None => self.split_masks_of(pos, throw, false, u64::MAX).count(),
            // (Out of the calm positions' copy: a throw bound to the
            // piece that entered, PC-2, after the entry's extra throw.
            // Not beside a voluntary pass, which a bound throw does not
            // have: `pick_known` counts one after the split units.)
            Some(b) if !self.movement.voluntary_pass => self
                .split_masks_of(pos, throw, false, bound_square(b))
                .count(),
            Some(_) => None,
        }
    }

    /// The unit at index `j` of those [`split_count`](Self::split_count)
    /// counted (`cuts` its cuts' counts), and the others of its first
    /// part, into `out` (cleared first), unmarked as the stage writes
    /// them; its index there. For a
    /// throw in any number of parts, the unit at index `j` of those
    /// [`any_split_count`](Self::any_split_count) counted, alone (index 0).
    #[inline(always)]
    pub(crate) fn nth_split(
        &self,
        pos: &Position,
        throw: u8,
        j: usize,
        cuts: u64,
        out: &mut Vec<Unit>,
    ) -> usize {
        if self.movement.split_any {
            return self.nth_any_split(pos, throw, j, out);
        }
        out.clear();
        if pos.bound.is_some() {
            return self.nth_bound_split(pos, throw, j, cuts, out);
        }
        self.split_masks_of(pos, throw, self.throws.gives_extra(throw), u64::MAX)
            .nth(j, cuts, out)
    }

    /// [`nth_split`](Self::nth_split) for a throw bound to a piece: out
    /// of line, so that the playout loops, which draw most split units
    /// without one, hold one copy of the search of a cut.
    #[inline(never)]
    fn nth_bound_split(
        &self,
        pos: &Position,
        throw: u8,
        j: usize,
        cuts: u64,
        out: &mut Vec<Unit>,
    ) -> usize {
        let bound = pos.bound.map_or(u64::MAX, bound_square);
        // (Its population counts the CPU's, as in the loops.)
        crate::engine::cpu::with_bit_instructions(
            #[inline(always)]
            || {
                self.split_masks_of(pos, throw, self.throws.gives_extra(throw), bound)
                    .nth(j, cuts, out)
            },
        )
    }

    /// The search of [`split_units_masks`](Self::split_units_masks), its
    /// units unmarked; `bound` as there (all ones when no throw is bound).
    #[inline(always)]
    fn split_masks_of<'a>(
        &'a self,
        pos: &'a Position,
        throw: u8,
        extra_mark: bool,
        bound: u64,
    ) -> SplitMasks<'a, false> {
        SplitMasks {
            rules: self,
            pos,
            throw,
            extra_mark,
            me: pos.pieces[pos.to_move.index()].0,
            opp: pos.pieces[pos.to_move.other().index()].0,
            bound,
        }
    }

    /// [`split_units`](Self::split_units) in a rule set whose square sets
    /// read nothing of the position but the two piece sets
    /// (`Steps::split_masks`), by [`SplitMasks`]. The same units in the
    /// same order as `split_from` gives for every first part; with `MARK`,
    /// with their marks complete.
    #[inline(always)]
    fn split_units_masks<const MARK: bool>(
        &self,
        pos: &Position,
        throw: u8,
        extra_mark: bool,
        out: &mut Vec<Unit>,
    ) {
        let split = SplitMasks::<MARK> {
            rules: self,
            pos,
            throw,
            extra_mark,
            me: pos.pieces[pos.to_move.index()].0,
            opp: pos.pieces[pos.to_move.other().index()].0,
            // A throw bound to a piece (R-11) keeps it for one of the two
            // parts.
            bound: pos.bound.map_or(u64::MAX, bound_square),
        };
        for first in 1..throw {
            split.cut(first, out);
        }
    }

    /// [`split_from`](Self::split_from), with the units' marks completed
    /// with `MARK`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn split_from_marked<const MARK: bool>(
        &self,
        pos: &Position,
        x: u8,
        first: u8,
        throw: u8,
        extra_mark: bool,
        plain: bool,
        out: &mut Vec<Unit>,
    ) {
        let from = out.len();
        self.split_from(pos, x, first, throw, extra_mark, plain, out);
        if MARK {
            for u in &mut out[from..] {
                u.extra_mark = self.gives_another_throw(pos, u);
            }
        }
    }

    /// The position a split throw's second part moves in, after the first
    /// part `u1` by `first` (`plain`: an ordinary step from the square
    /// sets, without a hit, which only moves the piece: what generation
    /// reads of the position is the pieces, and `arrived` for A-14); any
    /// other first part is played as `play` plays it.
    fn after_first_part(&self, pos: &Position, u1: &Unit, plain: bool, first: u8) -> Position {
        if plain && !u1.hit {
            self.after_plain_part(pos, u1.from, u1.to)
        } else {
            let mut mid = *pos;
            let mut fx = Effects::default();
            self.move_part(pos, &mut mid, &mut fx, &u1.first_part(), first);
            mid
        }
    }

    /// The units of a split throw whose first part moves the piece on `x`
    /// by `first` (`plain`: an ordinary step from the square sets), in the
    /// order of the second part's squares. Out of line: in a rule set with
    /// `split_masks`, only first parts that are not ordinary steps, and
    /// second parts the sets leave to `attempt`, come here.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn split_from(
        &self,
        pos: &Position,
        x: u8,
        first: u8,
        throw: u8,
        extra_mark: bool,
        plain: bool,
        out: &mut Vec<Unit>,
    ) {
        let rest = throw - first;
        let u1 = if plain {
            self.plain_step(pos, x, first)
        } else {
            match self.attempt(pos, x, first, Dir::Forward) {
                Ok(u) => u,
                Err(_) => return,
            }
        };
        // The position the second part moves in. After an ordinary step
        // without a hit it differs from `pos` only in where the mover
        // stands (what generation reads of it: the pieces, and `arrived`
        // for A-14); any other first part is played as `play` plays it.
        let mid = self.after_first_part(pos, &u1, plain, first);
        let landed = match u1.relocated {
            Some(Relocated::Square(s)) => s,
            None if !u1.off => u1.to,
            _ => 0,
        };
        // The second part moves another piece than the one just moved; a
        // bound throw (R-11) keeps one of the two.
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

    /// The position after the ordinary step without a hit of the piece on
    /// `from` to `to`, as far as generation reads it: the pieces, and
    /// `arrived` for A-14.
    #[inline(always)]
    fn after_plain_part(&self, pos: &Position, from: u8, to: u8) -> Position {
        let mut mid = *pos;
        let moved = (1u64 << from) | (1u64 << to);
        mid.pieces[pos.to_move.index()].0 ^= moved;
        mid.arrived.0 = (mid.arrived.0 & !(1u64 << from)) | (1u64 << to);
        mid
    }
}

/// The square set of the piece a throw is bound to (R-11, PC-2): empty
/// for a piece off the board's squares, which then moves in no part.
#[inline(always)]
fn bound_square(b: u8) -> u64 {
    1u64.checked_shl(u32::from(b)).unwrap_or(0)
}

/// The units of a split throw (PC-3) from the piece sets, in a rule set
/// whose square sets read nothing of the position but the two piece sets
/// (`Steps::split_masks`): what stays the same for every cut of the throw.
/// A first part without a hit changes only where the mover stands, so the
/// second parts' square sets follow from the piece sets after it (the
/// table row of the rest of the throw, fetched once per cut), and their
/// ordinary steps are written from the masks; a position after the first
/// part is built only when a second part must be tried by `attempt`.
/// Bear-offs that the tables say are always legal (`BearOffSquares::sure`)
/// are written directly, as the forward stage writes them. A first part
/// that hits goes through [`Ruleset::split_from`]. With `MARK`, the units
/// are written with their marks complete: for the second parts that are
/// ordinary steps, decided once per first part ([`StepMark`]).
///
/// The ordinary first parts without a hit and their ordinary second steps
/// (most units) stay in one loop; every other first or second part is
/// tried out of line, so that the loop keeps its values in registers.
struct SplitMasks<'a, const MARK: bool> {
    rules: &'a Ruleset,
    pos: &'a Position,
    throw: u8,
    /// The mark the stage gives the throw.
    extra_mark: bool,
    /// The pieces of the side to move, and of the other side.
    me: u64,
    opp: u64,
    /// The square of the piece a bound throw must move (R-11), all ones
    /// when none is bound.
    bound: u64,
}

/// The count of one cut's units (the throw split as `first` and `rest`)
/// from the square sets of the position, for a playout that draws one
/// unit and writes only that one ([`SplitMasks::count`]). A first part
/// that hits nothing changes where one piece stands: the piece on `x`
/// leaves it, and lands on `x + first` (or leaves the board, or goes to
/// the hand). The second parts after it are then those from the pieces
/// as they stand (`landing`, `offs`), but for the piece on `x` itself,
/// for the piece whose second part would land where the first part
/// landed (now taken), and for the piece whose second part lands on `x`
/// (now free: `freed`). So the count of every first part follows from
/// masks, without the second parts' sets of each.
#[derive(Clone, Copy)]
struct CutCount {
    first: u8,
    rest: u8,
    /// The first parts that are ordinary steps hitting nothing.
    plain: u64,
    /// The first parts that leave no piece on the board: sure bear-offs
    /// and moves to the hand.
    landless: u64,
    /// The pieces whose second part is a sure bear-off, whatever the
    /// first part.
    offs: u64,
    /// The pieces whose second part is an ordinary step or a move to the
    /// hand in the position before the first part.
    landing: u64,
    /// The pieces whose second part is one of those when its landing
    /// square is empty.
    freed: u64,
    /// The parts the square sets do not decide (hits, parts `attempt`
    /// must try): where any is, the units are listed, not counted.
    undecided: u64,
}

impl CutCount {
    /// The number of units whose first part moves the piece on `x`, a
    /// square of `plain` or `landless`.
    #[inline(always)]
    fn of(&self, x: u8) -> usize {
        let bx = 1u64 << x;
        let taken = ((self.plain & bx) << self.first) >> self.rest;
        ((self.offs & !bx).count_ones()
            + (self.landing & !bx & !taken).count_ones()
            + u32::from((bx >> self.rest) & self.freed != 0)) as usize
    }

    /// The count with the first parts kept to the pieces of `firsts` and
    /// the second parts to those of `seconds`.
    #[inline(always)]
    fn keeping(&self, firsts: u64, seconds: u64) -> CutCount {
        CutCount {
            plain: self.plain & firsts,
            landless: self.landless & firsts,
            offs: self.offs & seconds,
            landing: self.landing & seconds,
            freed: self.freed & seconds,
            ..*self
        }
    }

    /// [`of`](Self::of) where a throw bound to the piece on the square of
    /// `bound` keeps it for one of the two parts: a first part that does
    /// not move it leaves it the second.
    #[inline(always)]
    fn of_bound(&self, x: u8, bound: u64) -> usize {
        let keep = bound | mask_of(bound >> x & 1 != 0);
        self.keeping(u64::MAX, keep).of(x)
    }

    /// [`total`](Self::total) where a throw bound to the piece on the
    /// square of `bound` (one square, or none) keeps it for one of the two
    /// parts: [`of_bound`](Self::of_bound) summed, by square sets. The
    /// first part that moves it, with every second part; each other first
    /// part with its second part alone, but for the first part whose
    /// landing takes its landing and with the first part that frees it.
    #[inline(always)]
    fn total_bound(&self, bound: u64) -> usize {
        debug_assert!(bound.count_ones() <= 1);
        let firsts = self.plain | self.landless;
        let by_bound = if firsts & bound != 0 {
            self.of(bound.trailing_zeros() as u8)
        } else {
            0
        };
        let others = firsts & !bound;
        let taken = ((self.plain & !bound) << self.first) >> self.rest;
        let seconds = (self.offs | self.landing) & bound;
        let total = by_bound
            + (others.count_ones() * u32::from(seconds != 0)) as usize
            + usize::from((others >> self.rest) & self.freed & bound != 0)
            - usize::from(taken & self.landing & bound != 0);
        debug_assert_eq!(
            total,
            SquareSet(firsts)
                .iter()
                .map(|x| self.of_bound(x, bound))
                .sum::<usize>()
        );
        total
    }

    /// The number of units of the cut: [`of`](Self::of) summed over its
    /// first parts, by whole square sets.
    #[inline(always)]
    fn total(&self) -> usize {
        let firsts = self.plain | self.landless;
        let each = (self.offs | self.landing).count_ones() * firsts.count_ones();
        // Each first part's own piece, the piece whose landing it takes
        // (its own when the two parts are equal: not twice), the piece
        // whose landing it frees.
        let taken = (self.plain << self.first) >> self.rest;
        let twice = (self.plain & self.landing & mask_of(self.first == self.rest)).count_ones();
        (each + twice + ((firsts >> self.rest) & self.freed).count_ones()
            - (firsts & (self.offs | self.landing)).count_ones()
            - (taken & self.landing).count_ones()) as usize
    }
}

impl<const MARK: bool> SplitMasks<'_, MARK> {
    /// The units whose first part is by `first`, in the order of the first
    /// part's squares.
    #[inline(always)]
    fn cut(&self, first: u8, out: &mut Vec<Unit>) {
        let rules = self.rules;
        let rest = self.throw - first;
        let row1 = rules.step_row(first);
        let sets = row1.sets(self.me, self.opp, self.me);
        let row2 = rules.step_row(rest);
        debug_assert!(row1.agrees(
            &sets,
            &rules.step_sets(self.pos, first, rules.unguarded(self.pos))
        ));
        // The ordinary first parts that hit nothing.
        let plain = sets.steps & !(self.opp >> first);
        let mut xs = sets.steps | sets.slow | sets.hand;
        while xs != 0 {
            let x = xs.trailing_zeros() as u8;
            xs &= xs - 1;
            self.first_part(x, first, &sets, plain, row2, out);
        }
    }

    /// The units whose first part moves the piece on `x` by `first`, of
    /// the first parts' square sets `sets` (`plain`: their ordinary steps
    /// that hit nothing), `row2` the table row of the rest of the throw.
    #[inline(always)]
    fn first_part(
        &self,
        x: u8,
        first: u8,
        sets: &StepSets,
        plain: u64,
        row2: StepRow,
        out: &mut Vec<Unit>,
    ) {
        if plain >> x & 1 == 0 {
            self.other_first(x, first, sets, row2, out);
            return;
        }
        let to = x + first;
        let u1 = Unit::step(self.throw, x, to, false, self.extra_mark);
        let step_mark = StepMark::after_plain_step(self.rules, self.pos, self.extra_mark, to);
        if let Some(sets2) = self.seconds(&u1, true, first, to, step_mark, row2, out) {
            self.plain_then_tried(x, first, &sets2, step_mark, out);
        }
    }

    /// How many units the cut of `first` has, from the square sets of the
    /// position alone (see [`CutCount`]).
    #[inline(always)]
    fn cut_count(&self, first: u8) -> CutCount {
        let rules = self.rules;
        let rest = self.throw - first;
        let (me, opp) = (self.me, self.opp);
        let sure = rules.tables.bear_off.sure;
        let sets = rules.step_row(first).sets(me, opp, me);
        let row2 = rules.step_row(rest);
        let sets2 = row2.sets(me, opp, me);
        let plain = sets.steps & !(opp >> first);
        // The first parts that are not ordinary steps: sure bear-offs and
        // moves to the hand leave no piece on the board; the others are
        // tried by `attempt`, as are the ordinary steps that hit.
        let others = (sets.slow | sets.hand) & !sets.steps;
        let landless = others & ((sets.off_from & sure) | sets.hand);
        let offs = sets2.slow & sets2.off_from & sure;
        let firsts = plain | landless;
        CutCount {
            first,
            rest,
            plain,
            landless,
            offs,
            landing: sets2.steps | sets2.hand,
            freed: me & (row2.plain | row2.unhit_from | row2.hand_from),
            undecided: (sets.steps & (opp >> first))
                | (others & !landless)
                | (sets2.slow & !offs & mask_of(firsts != 0)),
        }
    }

    /// The number of units of every cut, when the square sets decide them
    /// all (no part `attempt` must try, no part that hits); else `None`.
    /// With it, the cuts' counts, 16 bits each from the cut of 1 up, for
    /// [`nth`](Self::nth): those of a throw of 5 or less (the others'
    /// bits are not read).
    #[inline(always)]
    fn count(&self) -> Option<(usize, u64)> {
        let mut n = 0;
        let mut undecided = 0;
        let mut cuts = 0u64;
        for first in 1..self.throw {
            let cut = self.cut_count(first);
            undecided |= cut.undecided;
            let total = self.total_of(&cut);
            // (At most about 64 × 64 + 128 units a cut: 16 bits hold it.)
            debug_assert!(total < 1 << 16, "{total} units in one cut");
            cuts |= (total as u64) << (16 * (u32::from(first - 1) & 3));
            n += total;
        }
        (undecided == 0).then_some((n, cuts))
    }

    /// The number of units of the cut `cut`, as the bound throw keeps
    /// its piece (`bound`; a constant where none is, and the compiler
    /// keeps the plain sum alone).
    #[inline(always)]
    fn total_of(&self, cut: &CutCount) -> usize {
        if self.bound == u64::MAX {
            cut.total()
        } else {
            cut.total_bound(self.bound)
        }
    }

    /// The number of units of the cut `cut` whose first part moves the
    /// piece on `x`, as [`total_of`](Self::total_of).
    #[inline(always)]
    fn of(&self, cut: &CutCount, x: u8) -> usize {
        if self.bound == u64::MAX {
            cut.of(x)
        } else {
            cut.of_bound(x, self.bound)
        }
    }

    /// Writes the units of the first part of the `j`-th unit that
    /// [`count`](Self::count) counted, as [`cut`](Self::cut) writes them,
    /// into `out`, and returns that unit's index there. `cuts`: the cuts'
    /// counts `count` gave, read for a throw of 5 or less: the cuts before
    /// the drawn unit's are passed over without their square sets.
    #[inline(always)]
    fn nth(&self, mut j: usize, cuts: u64, out: &mut Vec<Unit>) -> usize {
        let rules = self.rules;
        for first in 1..self.throw {
            let total = if self.throw <= 5 {
                (cuts >> (16 * (u32::from(first - 1) & 3))) as usize & 0xffff
            } else {
                self.total_of(&self.cut_count(first))
            };
            if j >= total {
                // (Debug builds check the count passed over too.)
                debug_assert_eq!(total, self.total_of(&self.cut_count(first)));
                j -= total;
                continue;
            }
            let cut = self.cut_count(first);
            debug_assert_eq!(total, self.total_of(&cut));
            let sets = rules.step_row(first).sets(self.me, self.opp, self.me);
            let mut xs = cut.plain | cut.landless;
            while xs != 0 {
                let x = xs.trailing_zeros() as u8;
                xs &= xs - 1;
                let n = self.of(&cut, x);
                if j >= n {
                    j -= n;
                    continue;
                }
                let start = out.len();
                let row2 = rules.step_row(cut.rest);
                if let Some(unit) = self.nth_plain_second(x, first, cut.plain, row2, j) {
                    debug_assert!({
                        let mut all = Vec::new();
                        self.first_part(x, first, &sets, cut.plain, row2, &mut all);
                        all.len() == n && all[j] == unit
                    });
                    out.push(unit);
                    return start;
                }
                self.first_part(x, first, &sets, cut.plain, row2, out);
                debug_assert_eq!(out.len() - start, n, "the units of the first part from {x}");
                return start + j;
            }
            unreachable!("a cut's units are its first parts'");
        }
        unreachable!("the index {j} is below the count")
    }

    /// The unit at index `j` of those whose first part is the ordinary
    /// step without a hit from `x` by `first` (`plain` those first parts),
    /// where its second parts are ordinary steps alone (most first
    /// parts): the first part with the second from the `j`-th square of
    /// their set, found without writing the others (`seconds` writes them
    /// all). Else `None`.
    #[inline(always)]
    fn nth_plain_second(
        &self,
        x: u8,
        first: u8,
        plain: u64,
        row2: StepRow,
        j: usize,
    ) -> Option<Unit> {
        if plain >> x & 1 == 0 {
            return None;
        }
        let to = x + first;
        let bx = 1u64 << x;
        let mine = (self.me & !bx) | (1u64 << to);
        let keep = self.bound | mask_of(self.bound & bx != 0);
        let sets2 = row2.sets(mine, self.opp, mine & !(1u64 << to) & keep);
        if sets2.slow | sets2.hand != 0 {
            return None;
        }
        let u1 = Unit::step(self.throw, x, to, false, self.extra_mark);
        let step_mark = StepMark::after_plain_step(self.rules, self.pos, self.extra_mark, to);
        let y = crate::engine::cpu::nth_square(sets2.steps, j).trailing_zeros() as u8;
        Some(self.with_step(&u1, y, self.throw - first, step_mark))
    }

    /// [`seconds_tried`](Self::seconds_tried) after the ordinary step
    /// without a hit from `x` by `first`: out of line, so that the loop
    /// over the first parts does not keep that unit in memory for it.
    #[inline(never)]
    fn plain_then_tried(
        &self,
        x: u8,
        first: u8,
        sets2: &StepSets,
        step_mark: StepMark,
        out: &mut Vec<Unit>,
    ) {
        let u1 = Unit::step(self.throw, x, x + first, false, self.extra_mark);
        self.seconds_tried(&u1, true, first, sets2, step_mark, out);
    }

    /// The units whose first part, by `first` from `x`, is not an ordinary
    /// step without a hit: a sure bear-off, a move back to the hand
    /// (`StepSets::hand`), a move `attempt` tries, or a hit (by
    /// `split_from`).
    #[inline(never)]
    fn other_first(&self, x: u8, first: u8, sets: &StepSets, row2: StepRow, out: &mut Vec<Unit>) {
        let rules = self.rules;
        let (pos, throw, extra_mark) = (self.pos, self.throw, self.extra_mark);
        let plain = sets.steps >> x & 1 != 0;
        // The first part, and where it leaves the mover (0: off the board
        // or in the hand).
        let (u1, landed) = if plain {
            // An ordinary step that hits.
            return rules.split_from_marked::<MARK>(pos, x, first, throw, extra_mark, plain, out);
        } else if (sets.off_from & rules.tables.bear_off.sure) >> x & 1 != 0 {
            (Unit::bear_off(throw, x, rules.board.off(), extra_mark), 0)
        } else if sets.hand >> x & 1 != 0 {
            let u1 = Unit {
                relocated: Some(Relocated::Hand),
                ..Unit::step(throw, x, x + first, false, extra_mark)
            };
            (u1, 0)
        } else {
            match rules.attempt(pos, x, first, Dir::Forward) {
                Ok(u) if u.hit => {
                    return rules
                        .split_from_marked::<MARK>(pos, x, first, throw, extra_mark, plain, out);
                }
                Ok(u) => {
                    let landed = match u.relocated {
                        Some(Relocated::Square(s)) => s,
                        None if !u.off => u.to,
                        _ => 0,
                    };
                    (
                        Unit {
                            throw,
                            extra_mark,
                            ..u
                        },
                        landed,
                    )
                }
                Err(_) => return,
            }
        };
        let gives = Gives::default().add(rules, u1.from, u1.to, u1.off, u1.relocated.is_some());
        let step_mark = gives.again_after_step(rules, pos, &u1, throw - first);
        if let Some(sets2) = self.seconds(&u1, false, first, landed, step_mark, row2, out) {
            self.seconds_tried(&u1, false, first, &sets2, step_mark, out);
        }
    }

    /// The units of the first part `u1` by `first` (`plain`: an ordinary
    /// step without a hit), which left its piece on `landed` (0: off the
    /// board or in the hand), in the order of the second part's squares;
    /// `step_mark`: the marks of those whose second part is an ordinary
    /// step, `row2` the table row of the rest of the throw. When some
    /// second part is not an ordinary step, writes none and returns the
    /// second parts' square sets, for
    /// [`seconds_tried`](Self::seconds_tried).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn seconds(
        &self,
        u1: &Unit,
        plain: bool,
        first: u8,
        landed: u8,
        step_mark: StepMark,
        row2: StepRow,
        out: &mut Vec<Unit>,
    ) -> Option<StepSets> {
        let rules = self.rules;
        let (opp, x) = (self.opp, u1.from);
        let rest = self.throw - first;
        let bx = 1u64 << x;
        let mine = (self.me & !bx) | ((1u64 << landed) & !1);
        // The second part moves another piece than the one just moved; a
        // bound throw binds one of the two: unless the first part moved
        // the bound piece, the second must.
        let keep = self.bound | mask_of(self.bound & bx != 0);
        let sets2 = row2.sets(mine, opp, mine & !(1u64 << landed) & keep);
        debug_assert!({
            let mid = rules.after_first_part(self.pos, u1, plain, first);
            let ys = rules.unguarded(&mid) & !(1u64 << landed) & keep;
            row2.agrees(&sets2, &rules.step_sets(&mid, rest, ys))
        });
        if sets2.slow | sets2.hand != 0 {
            return Some(sets2);
        }
        // Ordinary second steps only (most first parts): each unit is `u1`
        // with its second part and mark.
        let mut ys = sets2.steps;
        while ys != 0 {
            let y = ys.trailing_zeros() as u8;
            ys &= ys - 1;
            out.push(self.with_step(u1, y, rest, step_mark));
        }
        None
    }

    /// The unit of the first part `u1` and the ordinary second step from
    /// `y` by `rest`, with its mark.
    #[inline(always)]
    fn with_step(&self, u1: &Unit, y: u8, rest: u8, step_mark: StepMark) -> Unit {
        let to = y + rest;
        Unit {
            split: Some(Part {
                from: y,
                to,
                relocated: None,
                hit: self.opp >> to & 1 != 0,
                off: false,
            }),
            extra_mark: if MARK {
                step_mark.of(self.rules, to)
            } else {
                u1.extra_mark
            },
            ..*u1
        }
    }

    /// [`seconds`](Self::seconds) when some second part is not an ordinary
    /// step: those are sure bear-offs, moves back to the hand
    /// (`StepSets::hand`), or tried by `attempt` in the position after the
    /// first part (built for the first such part).
    #[inline(always)]
    fn seconds_tried(
        &self,
        u1: &Unit,
        plain: bool,
        first: u8,
        sets2: &StepSets,
        step_mark: StepMark,
        out: &mut Vec<Unit>,
    ) {
        let rules = self.rules;
        let rest = self.throw - first;
        let mut mid = None;
        let sure = rules.tables.bear_off.sure;
        // What the first part gave, for the marks of the second parts
        // that are not ordinary steps.
        let first_gives =
            Gives::default().add(rules, u1.from, u1.to, u1.off, u1.relocated.is_some());
        let mut ys = sets2.steps | sets2.slow | sets2.hand;
        while ys != 0 {
            let y = ys.trailing_zeros() as u8;
            ys &= ys - 1;
            let by = 1u64 << y;
            if sets2.steps & by != 0 {
                out.push(self.with_step(u1, y, rest, step_mark));
                continue;
            }
            let second = if sets2.off_from & sure & by != 0 {
                Part::bear_off(y, rules.board.off())
            } else if sets2.hand & by != 0 {
                Part::to_hand(y, y + rest)
            } else {
                let mid =
                    mid.get_or_insert_with(|| rules.after_first_part(self.pos, u1, plain, first));
                match rules.attempt(mid, y, rest, Dir::Forward) {
                    Ok(u) => u.first_part(),
                    Err(_) => continue,
                }
            };
            let extra_mark = if MARK {
                first_gives
                    .add(
                        rules,
                        second.from,
                        second.to,
                        second.off,
                        second.relocated.is_some(),
                    )
                    .again(rules, self.pos, u1)
            } else {
                u1.extra_mark
            };
            out.push(Unit {
                split: Some(second),
                extra_mark,
                ..*u1
            });
        }
    }
}

/// The most parts a unit of a throw split into any number of parts holds.
pub const MAX_PARTS: usize = 2 + MoreParts::CAPACITY;

impl Ruleset {
    /// Stage 9 for a throw split into any number of parts: every sequence
    /// of parts whose first is shorter than the throw (the forward stage
    /// gives the whole throw as one move), each part moving any piece
    /// forward by 1 up to the rest as a whole throw of that value would,
    /// until the throw is used, or until no part is possible and the rest
    /// is lost. A throw bound to a piece (PC-2) binds the first part.
    /// Units come depth first: by the first part's value, then its square,
    /// then likewise for the second part, and so on.
    ///
    /// Returns whether the units' marks are complete (in a rule set whose
    /// moves may give another throw by what they do, `Tables::move_marks`,
    /// and whose square sets read only the piece sets): the search then
    /// adds up what the parts give as it writes them, so that no unit is
    /// walked over again ([`Gives`]). Without `MARK`, never: the search
    /// then writes the marks as the stage makes them, for a playout that
    /// completes the mark of the one unit it plays.
    pub(crate) fn any_split_units<const MARK: bool>(
        &self,
        pos: &Position,
        throw: u8,
        extra_mark: bool,
        out: &mut Vec<Unit>,
    ) -> bool {
        // A first part shorter than the throw needs a throw of 2 or more
        // (a throw of 0 is a starting or skipped unit).
        if throw < 2 {
            return false;
        }
        let mut movers = self.unguarded(pos);
        if let Some(b) = pos.bound {
            movers &= 1u64.checked_shl(u32::from(b)).unwrap_or(0);
        }
        // The unit the parts are written into, one level of the search at
        // a time.
        let unit = Unit::step(throw, 0, 0, false, extra_mark);
        if self.tables.enabled && self.tables.steps.split_masks {
            let me = pos.pieces[pos.to_move.index()].0;
            let opp = pos.pieces[pos.to_move.other().index()].0;
            let sure = self.tables.bear_off.sure;
            if MARK && self.tables.move_marks {
                AnySplit::<true, false> {
                    rules: self,
                    pos,
                    out,
                    unit,
                    movers,
                    opp,
                    sure,
                    seek: None,
                }
                .next_parts::<0>(me, pos.arrived.0, throw, Gives::default());
                true
            } else {
                AnySplit::<false, false> {
                    rules: self,
                    pos,
                    out,
                    unit,
                    movers,
                    opp,
                    sure,
                    seek: None,
                }
                .next_parts::<0>(me, pos.arrived.0, throw, Gives::default());
                false
            }
        } else {
            self.next_parts(pos, throw, movers, unit, 0, out);
            false
        }
    }

    /// The number of units [`any_split_units`](Self::any_split_units)
    /// would write, counted rather than written, for a playout that draws
    /// one unit (`Listed::Splits`): in a rule set whose square sets read
    /// nothing of the position but the piece sets (`Steps::split_masks`;
    /// a part they do not decide is tried by `attempt`, as the listing
    /// tries it), where the throw is bound to no piece, no part hits or
    /// goes to the queue (the count stops there), and no later stage adds a unit
    /// beside them but a voluntary pass (a pass when no move but entering
    /// never comes beside a split unit). Else `None`, and the units are
    /// listed. The searches below a part are counted once per state
    /// ([`Memo`]).
    #[inline(never)]
    pub(crate) fn any_split_count(&self, pos: &Position, throw: u8) -> Option<usize> {
        // (A pass beside bearing off asks what every unit is; one beside
        // entering is never beside a split unit, which moves a piece on
        // the board.)
        let mv = &self.movement;
        if !self.tables.enabled
            || !self.tables.steps.split_masks
            || mv.bear_off_voluntary && !mv.voluntary_pass
            || pos.bound.is_some()
        {
            return None;
        }
        if throw < 2 {
            return Some(0);
        }
        let me = pos.pieces[pos.to_move.index()].0;
        with_memo(|memo| {
            memo.start(self, pos, throw);
            self.any_split_search::<false>(pos, throw, &mut Vec::new(), None)
                .count::<0>(me, pos.arrived.0, throw, memo)
        })
    }

    /// The unit at index `j` of those
    /// [`any_split_count`](Self::any_split_count) counted, alone in `out`
    /// (cleared first), unmarked as the stage writes it: the search of
    /// [`any_split_units`](Self::any_split_units) that passes over whole
    /// searches below a part by their counts and writes the one unit.
    #[inline(never)]
    pub(crate) fn nth_any_split(
        &self,
        pos: &Position,
        throw: u8,
        j: usize,
        out: &mut Vec<Unit>,
    ) -> usize {
        out.clear();
        with_memo(|memo| {
            // (The counts the count of this search kept, unless another
            // search's replaced them.)
            if !memo.is_of(self, pos, throw) {
                memo.start(self, pos, throw);
            }
            let seek = Seek {
                skip: j,
                found: false,
                memo,
            };
            let me = pos.pieces[pos.to_move.index()].0;
            let mut search = self.any_split_search::<true>(pos, throw, out, Some(seek));
            search.next_parts::<0>(me, pos.arrived.0, throw, Gives::default());
            assert!(
                search.seek.is_some_and(|s| s.found),
                "index {j} of the split units counted"
            );
        });
        debug_assert_eq!(out.len(), 1);
        0
    }

    /// The search of [`any_split_units`](Self::any_split_units) from the
    /// piece sets, unmarked, for a position without a bound throw.
    fn any_split_search<'a, const SEEK: bool>(
        &'a self,
        pos: &'a Position,
        throw: u8,
        out: &'a mut Vec<Unit>,
        seek: Option<Seek<'a>>,
    ) -> AnySplit<'a, false, SEEK> {
        AnySplit {
            rules: self,
            pos,
            out,
            unit: Unit::step(throw, 0, 0, false, self.throws.gives_extra(throw)),
            movers: self.unguarded(pos),
            opp: pos.pieces[pos.to_move.other().index()].0,
            sure: self.tables.bear_off.sure,
            seek,
        }
    }

    /// The parts after the first `depth` (written in `unit`), played to
    /// `pos`, with `rest` of the throw left.
    fn next_parts(
        &self,
        pos: &Position,
        rest: u8,
        movers: u64,
        unit: Unit,
        depth: usize,
        out: &mut Vec<Unit>,
    ) {
        let mut possible = false;
        // The first part is shorter than the throw.
        let longest = if depth == 0 { rest - 1 } else { rest };
        for v in 1..=longest {
            let sets = self.step_sets(pos, v, movers);
            let mut xs = sets.steps | sets.slow;
            while xs != 0 {
                let x = xs.trailing_zeros() as u8;
                xs &= xs - 1;
                let u = if sets.steps >> x & 1 != 0 {
                    self.plain_step(pos, x, v)
                } else {
                    match self.attempt(pos, x, v, Dir::Forward) {
                        Ok(u) => u,
                        Err(_) => continue,
                    }
                };
                possible = true;
                self.part_then_rest(pos, &u.first_part(), v, rest, unit, depth, out);
            }
        }
        // No part possible: the rest is lost.
        if depth > 0 && !possible {
            out.push(unit);
        }
    }

    /// A possible part by `v` of `rest`, played in `pos`, after the first
    /// `depth` parts written in `unit`: the unit it ends, or the units of
    /// the parts after it.
    #[allow(clippy::too_many_arguments)]
    fn part_then_rest(
        &self,
        pos: &Position,
        part: &Part,
        v: u8,
        rest: u8,
        unit: Unit,
        depth: usize,
        out: &mut Vec<Unit>,
    ) {
        // (The lowering keeps every throw within `MAX_PARTS` and every
        // landing within what a packed part holds.)
        if depth >= MAX_PARTS || depth >= 2 && !MoreParts::fits(part) {
            return;
        }
        let unit = unit.with_part(depth, part);
        if v == rest {
            out.push(unit);
        } else {
            let mut mid = *pos;
            let mut fx = Effects::default();
            self.move_part(pos, &mut mid, &mut fx, part, v);
            let movers = self.unguarded(&mid);
            self.next_parts(&mid, rest - v, movers, unit, depth + 1, out);
        }
    }
}

/// A search of [`Ruleset::any_split_units`] from the piece sets, in a rule
/// set whose square sets read nothing of the position but the two piece
/// sets (`Steps::split_masks`): the unit being written, part by part, and
/// what stays the same for the whole search. With `MARK`, the units are
/// written with their marks complete. With `SEEK`, only one unit is
/// written, the one at the index `seek` names, the searches below a part
/// passed over by their counts ([`Ruleset::nth_any_split`]).
struct AnySplit<'a, const MARK: bool, const SEEK: bool> {
    rules: &'a Ruleset,
    /// The position before the throw.
    pos: &'a Position,
    out: &'a mut Vec<Unit>,
    /// The parts written so far (and none after them).
    unit: Unit,
    /// The pieces the first part may move.
    movers: u64,
    /// The other side's pieces: no part of this search moves them.
    opp: u64,
    /// The squares a bear-off is sure from (`BearOffSquares::sure`).
    sure: u64,
    /// With `SEEK`: the units still to pass over before the one sought,
    /// and the counts of the searches below a part
    /// ([`Ruleset::nth_any_split`]).
    seek: Option<Seek<'a>>,
}

/// What a search with `SEEK` keeps: how many units to pass over before
/// the one it writes, whether it was written, and the counts of the
/// searches it passed over.
struct Seek<'a> {
    skip: usize,
    found: bool,
    memo: &'a mut Memo,
}

/// The number of units below a state of the search in any number of
/// parts, kept while one search counts them: a state is the pieces of
/// the side to move, those that reached their squares this turn, the
/// rest of the throw and the depth. Different orders of the same parts
/// reach the same state (a 1 by the piece on 5 and then a 1 by the piece
/// on 9, or the other way round), so the counts of the inner levels are
/// found once. A fixed table: a state it has no room for is counted
/// again.
struct Memo {
    keys: [(u64, u64, u16); Memo::SLOTS],
    counts: [u32; Memo::SLOTS],
    used: u64,
    /// The search the counts are of: the rule set (its address: two rule
    /// sets alive at once are told apart), the position and the throw.
    of: Option<(usize, Position, u8)>,
}

/// `f` with this thread's table of counts ([`MEMO`]).
#[inline(always)]
fn with_memo<R>(f: impl FnOnce(&mut Memo) -> R) -> R {
    MEMO.with_borrow_mut(f)
}

#[cfg(test)]
thread_local! {
    /// How many steps counted beside split units
    /// [`Ruleset::push_steps_beside_splits`] wrote on this thread, the
    /// split units not being counted after all, and how many of them were
    /// relocating landings: for the test that requires that path taken.
    pub(crate) static STEPS_WRITTEN_BESIDE_SPLITS: std::cell::Cell<[usize; 2]> =
        const { std::cell::Cell::new([0; 2]) };
}

thread_local! {
    /// The counts of the last search counted on this thread, kept for the
    /// search of the unit drawn among them.
    static MEMO: std::cell::RefCell<Memo> = const {
        std::cell::RefCell::new(Memo {
            keys: [(0, 0, 0); Memo::SLOTS],
            counts: [0; Memo::SLOTS],
            used: 0,
            of: None,
        })
    };
}

impl Memo {
    const SLOTS: usize = 64;

    /// Empties the table for the search of `throw` in `pos`.
    // (`#[inline]` here and on `is_of`: the code generator may place them
    // apart from their callers, where each is a call: `ludii-piccione`
    // ran 1.1 % more instructions per unit when a copy of the stages
    // added elsewhere moved them so, 0.8 % with the hint.)
    #[inline]
    fn start(&mut self, rules: &Ruleset, pos: &Position, throw: u8) {
        self.used = 0;
        self.of = Some((std::ptr::from_ref(rules) as usize, *pos, throw));
    }

    /// Whether the table holds counts of the search of `throw` in `pos`.
    #[inline]
    fn is_of(&self, rules: &Ruleset, pos: &Position, throw: u8) -> bool {
        self.of.is_some_and(|(r, p, t)| {
            r == std::ptr::from_ref(rules) as usize && t == throw && p == *pos
        })
    }

    fn slot(me: u64, arrived: u64, tag: u16) -> usize {
        let h = (me ^ arrived.rotate_left(29) ^ u64::from(tag) << 48)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> 58) as usize
    }

    /// The count kept for the state, or the free slot to keep it in
    /// (`Err(None)`: no room).
    fn find(&self, me: u64, arrived: u64, tag: u16) -> Result<u32, Option<usize>> {
        let mut i = Memo::slot(me, arrived, tag);
        for _ in 0..Memo::SLOTS {
            if self.used >> i & 1 == 0 {
                return Err(Some(i));
            }
            if self.keys[i] == (me, arrived, tag) {
                return Ok(self.counts[i]);
            }
            i = (i + 1) % Memo::SLOTS;
        }
        Err(None)
    }

    fn keep(&mut self, i: usize, me: u64, arrived: u64, tag: u16, n: usize) {
        self.keys[i] = (me, arrived, tag);
        debug_assert!(u32::try_from(n).is_ok(), "{n} units below one state");
        self.counts[i] = n as u32;
        self.used |= 1 << i;
    }
}

impl<const MARK: bool, const SEEK: bool> AnySplit<'_, MARK, SEEK> {
    /// [`Ruleset::next_parts`] on the pieces of the side to move after the
    /// first `depth` parts (`me`, which reached `arrived` this turn), which
    /// gave `gives`, with `rest` of the throw left. A part without a hit
    /// that leaves the other side's pieces where they were changes only
    /// where its piece stands, so the search goes on from the piece sets,
    /// with no position built: ordinary steps and sure bear-offs are
    /// written from the masks, and a position is built only for a part
    /// `attempt` must try. A part that hits, or sends its piece to the
    /// queue, goes on by `Ruleset::next_parts`. The same units in the same
    /// order as `next_parts`; with `MARK`, each with its mark complete.
    ///
    /// One copy per depth (`DEPTH`, up to `MAX_PARTS`), so that which
    /// field of the unit each part goes to, and the tests of the depth,
    /// are decided when it is compiled.
    fn next_parts<const DEPTH: usize>(&mut self, me: u64, arrived: u64, rest: u8, gives: Gives) {
        let depth = DEPTH;
        let rules = self.rules;
        let opp = self.opp;
        let movers = if depth == 0 { self.movers } else { me };
        let mut possible = false;
        let longest = if depth == 0 { rest - 1 } else { rest };
        // (`self.unit` holds the first `depth` parts; what it holds after
        // them is left by the searches below this one, and is removed
        // before a unit of this level is written.)
        // (A loop by hand: the inclusive range's iterator, with its test
        // of exhaustion, cost more than the search's tests.)
        let mut v = 0;
        while v < longest {
            v += 1;
            let row = rules.step_row(v);
            let sets = row.sets(me, opp, movers);
            debug_assert!(row.agrees(&sets, &rules.step_sets(&self.after(me, arrived), v, movers)));
            let mut xs = sets.steps | sets.slow | sets.hand;
            if v == rest
                && sets.slow | sets.hand == 0
                && sets.steps & (opp >> v) == 0
                && depth < MAX_PARTS
            {
                // The last parts, all ordinary steps without a hit (most
                // of the units): written in a loop of their own.
                possible |= xs != 0;
                if SEEK {
                    // Only the one sought, when it is among them.
                    let seek = self.seek.as_mut().expect("a seeking search");
                    let k = xs.count_ones() as usize;
                    if seek.skip >= k {
                        seek.skip -= k;
                        continue;
                    }
                    xs = crate::engine::cpu::nth_square(xs, seek.skip);
                    seek.skip = 0;
                    seek.found = true;
                }
                self.unit.truncate(depth);
                // (The mark of each unit but for where its last step
                // lands, decided once.)
                let step_mark = gives.again_after_step(rules, self.pos, &self.unit, v);
                self.last_steps::<DEPTH>(xs, v, step_mark);
                if SEEK {
                    return;
                }
                continue;
            }
            while xs != 0 {
                let x = xs.trailing_zeros() as u8;
                xs &= xs - 1;
                let bx = 1u64 << x;
                // The part, and where it leaves its piece (0: off the
                // board or in the hand).
                let (part, landed) = if sets.steps & bx != 0 {
                    let to = x + v;
                    let part = Part {
                        from: x,
                        to,
                        relocated: None,
                        hit: opp >> to & 1 != 0,
                        off: false,
                    };
                    if part.hit {
                        possible = true;
                        let mid = self.after(me, arrived);
                        self.by_position(&mid, &part, v, rest, depth);
                        continue;
                    }
                    (part, to)
                } else if sets.off_from & self.sure & bx != 0 {
                    (Part::bear_off(x, rules.board.off()), 0)
                } else if sets.hand & bx != 0 {
                    (Part::to_hand(x, x + v), 0)
                } else {
                    let mid = self.after(me, arrived);
                    let Ok(u) = rules.attempt(&mid, x, v, Dir::Forward) else {
                        continue;
                    };
                    let part = u.first_part();
                    let landed = Self::landed(&u);
                    possible = true;
                    let Some(landed) = landed else {
                        self.by_position(&mid, &part, v, rest, depth);
                        continue;
                    };
                    // (The parts from the masks always fit.)
                    if depth >= 2 && !MoreParts::fits(&part) {
                        continue;
                    }
                    (part, landed)
                };
                possible = true;
                // (The lowering keeps every throw within `MAX_PARTS`.)
                if depth >= MAX_PARTS {
                    continue;
                }
                self.unit = self.unit.with_part(depth, &part);
                let gives = if MARK {
                    gives.add(
                        rules,
                        part.from,
                        part.to,
                        part.off,
                        part.relocated.is_some(),
                    )
                } else {
                    gives
                };
                if v == rest {
                    if SEEK && self.passed_over(1) {
                        continue;
                    }
                    self.unit.truncate(depth + 1);
                    self.push(gives);
                    if SEEK {
                        self.sought();
                        return;
                    }
                } else {
                    let now = (1u64 << landed) & !1;
                    let me = (me & !bx) | now;
                    let arrived = (arrived & !bx) | now;
                    if SEEK {
                        let seek = self.seek.take().expect("a seeking search");
                        let below = self.count_memo(DEPTH + 1, me, arrived, rest - v, seek.memo);
                        let below = below.expect("a search counted before it seeks");
                        self.seek = Some(seek);
                        if self.passed_over(below) {
                            continue;
                        }
                    }
                    self.deeper(DEPTH + 1, me, arrived, rest - v, gives);
                    if SEEK && self.seek.as_ref().is_some_and(|s| s.found) {
                        return;
                    }
                }
            }
        }
        if depth > 0 && !possible {
            // No part possible: the rest is lost.
            if SEEK && self.passed_over(1) {
                return;
            }
            self.unit.truncate(depth);
            self.push(gives);
            if SEEK {
                self.sought();
            }
        }
    }

    /// With `SEEK`, before `n` units that the search would write next:
    /// whether the one sought is not among them (they are passed over).
    #[inline(always)]
    fn passed_over(&mut self, n: usize) -> bool {
        let seek = self.seek.as_mut().expect("a seeking search");
        let over = seek.skip >= n;
        if over {
            seek.skip -= n;
        }
        over
    }

    /// With `SEEK`: the unit sought is written.
    #[inline(always)]
    fn sought(&mut self) {
        self.seek.as_mut().expect("a seeking search").found = true;
    }

    /// The number of units [`next_parts`](Self::next_parts) would write
    /// from the state after `depth` parts, kept in `memo` where the rest
    /// is 2 or more; `None` where a part hits or goes
    /// to the queue (the search then goes on from a position built, which
    /// is not counted here).
    fn count_memo(
        &self,
        depth: usize,
        me: u64,
        arrived: u64,
        rest: u8,
        memo: &mut Memo,
    ) -> Option<usize> {
        if rest < 2 {
            // The last part, by 1 (most of the searches counted): its
            // ordinary steps without a hit, or the rest lost when there is
            // none, as `count` finds them, without the call.
            if depth < MAX_PARTS {
                let sets = self.rules.step_row(1).sets(me, self.opp, me);
                if sets.slow | sets.hand == 0 && sets.steps & (self.opp >> 1) == 0 {
                    return Some((sets.steps.count_ones() as usize).max(1));
                }
            }
            return self.count_at(depth, me, arrived, rest, memo);
        }
        let tag = u16::from(rest) << 8 | depth as u16;
        match memo.find(me, arrived, tag) {
            Ok(n) => Some(n as usize),
            Err(slot) => {
                let n = self.count_at(depth, me, arrived, rest, memo)?;
                if let Some(i) = slot {
                    memo.keep(i, me, arrived, tag, n);
                }
                Some(n)
            }
        }
    }

    /// [`count`](Self::count) after `depth` parts (at most `MAX_PARTS`).
    fn count_at(
        &self,
        depth: usize,
        me: u64,
        arrived: u64,
        rest: u8,
        memo: &mut Memo,
    ) -> Option<usize> {
        const { assert!(MAX_PARTS == 6) };
        match depth {
            0 => self.count::<0>(me, arrived, rest, memo),
            1 => self.count::<1>(me, arrived, rest, memo),
            2 => self.count::<2>(me, arrived, rest, memo),
            3 => self.count::<3>(me, arrived, rest, memo),
            4 => self.count::<4>(me, arrived, rest, memo),
            5 => self.count::<5>(me, arrived, rest, memo),
            _ => self.count::<6>(me, arrived, rest, memo),
        }
    }

    /// The units [`next_parts`](Self::next_parts) writes after `DEPTH`
    /// parts, counted by the same tests in the same order, none written:
    /// the last parts that are ordinary steps by a population count, the
    /// searches below a part by [`count_memo`](Self::count_memo). `None`
    /// where a part hits or goes to the queue.
    fn count<const DEPTH: usize>(
        &self,
        me: u64,
        arrived: u64,
        rest: u8,
        memo: &mut Memo,
    ) -> Option<usize> {
        let depth = DEPTH;
        let rules = self.rules;
        let opp = self.opp;
        let movers = if depth == 0 { self.movers } else { me };
        let mut n = 0;
        let mut possible = false;
        let longest = if depth == 0 { rest - 1 } else { rest };
        let mut v = 0;
        while v < longest {
            v += 1;
            let sets = rules.step_row(v).sets(me, opp, movers);
            let mut xs = sets.steps | sets.slow | sets.hand;
            if v == rest
                && sets.slow | sets.hand == 0
                && sets.steps & (opp >> v) == 0
                && depth < MAX_PARTS
            {
                possible |= xs != 0;
                n += xs.count_ones() as usize;
                continue;
            }
            while xs != 0 {
                let x = xs.trailing_zeros() as u8;
                xs &= xs - 1;
                let bx = 1u64 << x;
                let landed = if sets.steps & bx != 0 {
                    let to = x + v;
                    if opp >> to & 1 != 0 {
                        return None;
                    }
                    to
                } else if sets.off_from & self.sure & bx != 0 || sets.hand & bx != 0 {
                    0
                } else {
                    let mid = self.after(me, arrived);
                    let Ok(u) = rules.attempt(&mid, x, v, Dir::Forward) else {
                        continue;
                    };
                    let landed = Self::landed(&u);
                    possible = true;
                    let landed = landed?;
                    if depth >= 2 && !MoreParts::fits(&u.first_part()) {
                        continue;
                    }
                    landed
                };
                possible = true;
                if depth >= MAX_PARTS {
                    continue;
                }
                if v == rest {
                    n += 1;
                } else {
                    let now = (1u64 << landed) & !1;
                    n += self.count_memo(
                        DEPTH + 1,
                        (me & !bx) | now,
                        (arrived & !bx) | now,
                        rest - v,
                        memo,
                    )?;
                }
            }
        }
        if depth > 0 && !possible {
            n += 1;
        }
        Some(n)
    }

    /// [`next_parts`](Self::next_parts) after `depth` parts (at most
    /// `MAX_PARTS`): the copy of that depth. Inlined into each copy,
    /// whose `depth` is a constant there: a direct call of the next copy,
    /// not a call of a dispatch.
    #[inline(always)]
    fn deeper(&mut self, depth: usize, me: u64, arrived: u64, rest: u8, gives: Gives) {
        const { assert!(MAX_PARTS == 6) };
        match depth {
            1 => self.next_parts::<1>(me, arrived, rest, gives),
            2 => self.next_parts::<2>(me, arrived, rest, gives),
            3 => self.next_parts::<3>(me, arrived, rest, gives),
            4 => self.next_parts::<4>(me, arrived, rest, gives),
            5 => self.next_parts::<5>(me, arrived, rest, gives),
            _ => self.next_parts::<6>(me, arrived, rest, gives),
        }
    }

    /// Writes the units of the parts so far (`self.unit`, `DEPTH` parts,
    /// below `MAX_PARTS`) and a last part that is an ordinary step without
    /// a hit by `v` from each square of `xs`, in the order of the squares,
    /// with the marks `step_mark` gives (with `MARK`).
    #[inline(always)]
    fn last_steps<const DEPTH: usize>(&mut self, mut xs: u64, v: u8, step_mark: StepMark) {
        let base = self.unit;
        while xs != 0 {
            let x = xs.trailing_zeros() as u8;
            xs &= xs - 1;
            let to = x + v;
            let part = Part {
                from: x,
                to,
                relocated: None,
                hit: false,
                off: false,
            };
            let unit = base.with_part(DEPTH, &part);
            let extra_mark = if MARK {
                step_mark.of(self.rules, to)
            } else {
                unit.extra_mark
            };
            self.out.push(Unit { extra_mark, ..unit });
        }
    }

    /// Writes the unit as it stands, with its mark complete (with
    /// `MARK`), from what its parts gave.
    #[inline(always)]
    fn push(&mut self, gives: Gives) {
        let extra_mark = if MARK {
            gives.again(self.rules, self.pos, &self.unit)
        } else {
            self.unit.extra_mark
        };
        self.out.push(Unit {
            extra_mark,
            ..self.unit
        });
    }

    /// The part of the piece on `part.from` by `v` of `rest`, in `mid`,
    /// the position after the parts so far, and the parts after it, by
    /// [`Ruleset::part_then_rest`], their marks completed (with `MARK`).
    #[cold]
    fn by_position(&mut self, mid: &Position, part: &Part, v: u8, rest: u8, depth: usize) {
        debug_assert!(!SEEK, "a search that was counted has no such part");
        let from = self.out.len();
        // (`part_then_rest` writes from the first `depth` parts on.)
        self.unit.truncate(depth);
        self.rules
            .part_then_rest(mid, part, v, rest, self.unit, depth, self.out);
        if MARK {
            for u in &mut self.out[from..] {
                u.extra_mark = self.rules.gives_another_throw(self.pos, u);
            }
        }
    }

    /// Where a part `attempt` made leaves its piece, for the search from
    /// the piece sets (0: off the board or in the hand); `None` for a
    /// part that hits or goes to the queue, after which the search goes
    /// on from a position built.
    #[inline(always)]
    fn landed(u: &Unit) -> Option<u8> {
        match u.relocated {
            _ if u.hit => None,
            Some(Relocated::Square(s)) => Some(s),
            Some(Relocated::Hand) => Some(0),
            None if u.off => Some(0),
            None => Some(u.to),
            Some(Relocated::Queue) => None,
        }
    }

    /// The position after parts that moved only the side to move's
    /// pieces, to `me`, which reached `arrived` this turn, as far as
    /// generation reads it: the pieces, and `arrived` for A-14 (a part
    /// played changes besides only what no stage of a throw's later parts
    /// reads: the hand, the pieces borne off, the turns missed and the
    /// throw bound).
    fn after(&self, me: u64, arrived: u64) -> Position {
        let mut p = *self.pos;
        p.pieces[p.to_move.index()].0 = me;
        p.arrived.0 = arrived;
        p
    }
}

// Stage 11's entry point.

impl Ruleset {
    /// Stage 11 with its refusals: when no forward move exists, the
    /// backward moves (T-9b, B-9), none in a turn that went forward
    /// (PC-4); and with `WHY`, why each backward move is refused. `start`
    /// is where this throw's units begin in `out`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn backward_moves<const WHY: bool>(
        &self,
        pos: &Position,
        throw: u8,
        heading: Heading,
        bound: Option<u8>,
        start: usize,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
    ) {
        let me = pos.pieces[pos.to_move.index()];
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
                let mut unasked = Vec::new();
                let why = unasked_if::<WHY>(why, &mut unasked);
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
    }
}

// Stage 11b, the last piece's move (HK-6).

impl Ruleset {
    /// Stage 11b: when the throw has no unit yet, a side whose only piece
    /// (none in hand) stands on one of the squares moves it to the target
    /// square (HK-6), swapping with a piece there.
    #[inline(always)]
    pub(crate) fn last_piece_stage(
        &self,
        pos: &Position,
        throw: u8,
        bound: Option<u8>,
        start: usize,
        out: &mut Vec<Unit>,
    ) {
        let Some((from_set, to)) = self.movement.last_piece else {
            return;
        };
        let side = pos.to_move.index();
        let me = pos.pieces[side].0;
        if out.len() != start || bound.is_some() || me.count_ones() != 1 || pos.hand[side] != 0 {
            return;
        }
        let from = me.trailing_zeros() as u8;
        if from_set.contains(from) && from != to {
            let hit = pos.pieces[1 - side].contains(to);
            out.push(Unit::step(
                throw,
                from,
                to,
                hit,
                self.throws.gives_extra(throw),
            ));
        }
    }
}

// Stage 12, the passes.

impl Ruleset {
    /// Stage 12: a throw without a unit is passed, or sends a stuck
    /// piece back to the hand (PC-5); a list with moves may also end in a
    /// voluntary pass (T-10, KD-6). `start` is where this throw's units
    /// begin in `out`.
    #[inline(always)]
    pub(crate) fn pass_stage(
        &self,
        me: SquareSet,
        throw: u8,
        bound: Option<u8>,
        start: usize,
        out: &mut Vec<Unit>,
    ) {
        let extra_mark = self.throws.gives_extra(throw);
        if out.len() == start {
            // PC-5: a piece that cannot move from its square goes back to hand.
            let stuck = me.0 & self.tables.squares.stuck_squares;
            match (stuck != 0).then(|| stuck.trailing_zeros() as u8) {
                Some(from) => out.push(Unit {
                    forced: true,
                    ..Unit::step(throw, from, 0, false, extra_mark)
                }),
                None => out.push(Unit::pass(throw, extra_mark, true)),
            }
        } else if !self.tables.steps.pass_beside_moves {
            // No pass beside moves in this rule set.
        } else if self.movement.voluntary_pass && bound.is_none() {
            out.push(Unit::pass(throw, extra_mark, false));
        } else if self.movement.pass_beside_entry && out[start..].iter().all(|u| u.from == 0) {
            // Only entries: the player may pass instead of entering.
            out.push(Unit::pass(throw, extra_mark, false));
        } else if self.movement.bear_off_voluntary && out[start..].iter().all(|u| u.off) {
            // KD-6: bearing off is never compulsory.
            out.push(Unit::pass(throw, extra_mark, false));
        }
    }
}

// The tables of stages 6 and 11, compiled with the rule set.
//
// Most moves of a game are ordinary steps that no rule touches: a piece
// goes `t` squares on, onto an empty square or a swappable opposing piece.
// `Steps::compile` works out, for every throw value and every square,
// which moves are such ordinary steps (and which are bear-offs, and which
// can never be legal), as square sets. The forward and backward stages
// start from them and clear the squares each rule forbids in the position;
// a move the tables do not decide is tried by `Ruleset::attempt`, so the
// result is the same units in the same order as trying every move would
// give.

/// Throw values the tables cover: bit `v` of `u32` masks, as `Throws::extra`.
pub(crate) const THROWS: usize = 32;

/// The per-throw square sets of the forward and backward stages and what
/// the play of a plain unit needs of movement. Square sets: bit `s` =
/// square `s`; the arrays are indexed by the throw value.
#[derive(Debug, Clone, Default)]
pub(crate) struct Steps {
    /// Bit `v`: the tables cover a throw of value `v` (the rule set's values).
    pub throws: u32,
    /// `throws` while the tables are in use, else 0: the one word the
    /// generator tests.
    pub tabled: u64,
    /// The largest throw value the tables cover.
    pub max_throw: u8,
    /// Squares from which a forward move by the throw is an ordinary step:
    /// it ends on the board `t` squares on, passes no gate, truncation or
    /// overshoot square, starts on no immobile, exit or lock square, and
    /// lands on a square without relocation (a "stay" landing
    /// counts as none) or diversion. Legal exactly when no blockade stands
    /// on its path and the target holds no own piece and no protected
    /// opposing piece.
    pub fwd_plain: [u64; THROWS],
    /// Squares from which a forward move by the throw is an ordinary step
    /// unless the target holds an opposing piece (the target may divert a
    /// mover that it refuses, B-13): onto an empty square it is a plain
    /// step, onto an own piece never legal, onto an opposing piece it is
    /// left to `attempt`.
    pub fwd_unhit: [u64; THROWS],
    /// Squares from which a forward move by the throw is an ordinary step
    /// but for its landing, which relocates the piece (the water square 27
    /// of `kendall`, K-11, and of `thai`, T-14; the House of Water, PC-7),
    /// also from a square whose exit applies only to a bear-off (GK-5):
    /// onto an empty square and past no blockade, nothing but the landing
    /// can refuse it. Left among the slow squares; `Ruleset::forward_slow`
    /// works out the landing of those moves alone, and leaves the others
    /// to `attempt`.
    pub fwd_land: [u64; THROWS],
    /// Squares from which a forward move by the throw is an ordinary step
    /// onto a square that sends the mover back to its hand (PC-7, the
    /// House of Water; `Relocation::Hand`, whatever is taken), but for
    /// that relocation as `fwd_unhit`: onto an empty square it is legal
    /// and relocated to the hand, onto an own piece never legal, onto an
    /// opposing piece it is left to `attempt`. Read only by the split
    /// throws' square sets (`StepRow`); the forward stage finds these
    /// moves among `fwd_land`.
    pub fwd_hand: [u64; THROWS],
    /// The squares of `fwd_land` whose move lands on a square whose
    /// relocation always finds the piece a place
    /// (`Relocation::always_resolves`: the lowest empty square of K-11
    /// and JQ-8, the queue of R-12, the hand of PC-7, or a landing that
    /// stays): onto an empty square and past no
    /// blockade, such a move is legal in every position, and the forward
    /// stage counts it beside the ordinary steps (`StepSets::land`).
    pub fwd_sure: [u64; THROWS],
    /// Squares from which the forward move is a bear-off in every position:
    /// legal exactly when `Ruleset::bear_off_unit` allows it.
    pub fwd_off: [u64; THROWS],
    /// Squares from which a forward move by the throw is never legal and
    /// never diverts (a gate passed, an immobile square, the wrong exit
    /// throw, past the end without bearing off).
    pub fwd_dead: [u64; THROWS],
    /// As `fwd_plain` for backward moves (when the rule set allows them).
    pub back_plain: [u64; THROWS],
    /// As `fwd_dead` for backward moves.
    pub back_dead: [u64; THROWS],
    /// Squares on which a hit opposing piece is simply swapped to the
    /// mover's square (`Hit::Swap`) or sent to the lowest empty square
    /// (`Hit::LowestEmpty`, JQ-6), with no `hit_sends_to`.
    pub swap_plain: u64,
    /// Hits send the hit piece to the lowest empty square (JQ-6).
    pub hit_lowest: bool,
    /// All ones when a move may land on an opposing piece; 0 when none
    /// may (PC-3), so that a `fwd_unhit` step onto one is cleared by the
    /// masks instead of being refused by `attempt`.
    pub hits_tried: u64,
    /// All ones when that square is looked for before the move, the
    /// mover's square counting as taken (LJ-6); else 0.
    pub hit_origin_taken: u64,
    /// The forward stage clears blocked steps: the rule set has
    /// blockades, or one on forward moves by target with masks.
    pub blocks: bool,
    /// A unit list with a move may still end in a pass: voluntary passes
    /// (T-10) or bear-offs that are never compulsory (KD-6).
    pub pass_beside_moves: bool,
    /// The forward square sets read nothing of the position but the two
    /// piece sets (no blockade, none on forward moves by target in the
    /// tables, no protection, no bear-off region, no setup guard), and `attempt` refuses no first part for the blockade
    /// at half the throw (none declared): a split throw's second parts are then found from the
    /// piece sets after the first part (`StepRow::sets`).
    pub split_masks: bool,
    /// The rows of `StepRow::sets` by throw value, as
    /// [`Ruleset::step_row`] gives them (`fill_rows`).
    pub rows: StepRows,
    // (Last, after the fields every rule set reads: placed among them,
    // they cost `bga`'s playouts about 2 % of their time.)
    /// The squares of `fwd_land` whose move lands on a square whose
    /// relocation finds the piece a place while a square of `land_room`
    /// is empty (`Relocation::room`: GK-7's 15, else counting down from
    /// it): in such a position, as `fwd_sure`.
    pub fwd_roomy: [u64; THROWS],
    /// Squares one of which, empty, lets every landing of `fwd_roomy` find
    /// its place (the common squares of their `Relocation::room`); 0 when
    /// `fwd_roomy` is empty.
    pub land_room: u64,
}

/// The rows of `StepRow::sets` for every throw value a `u8` holds: the
/// tables' for a value `Steps::tabled` covers, for the others one in
/// which every move is tried by `attempt`. Behind a pointer, so that the
/// tables the playouts read keep their layout, and indexed by the value
/// without a test.
#[derive(Debug, Clone)]
pub(crate) struct StepRows(Box<[StepRow; 256]>);

impl Default for StepRows {
    fn default() -> StepRows {
        StepRows(Box::new([StepRow::default(); 256]))
    }
}

impl Steps {
    /// The square sets of a rule set; `target_tabled`: whether its
    /// blockade on forward moves by target has masks
    /// (`target_blockade::Masks::tabled`), which then clear the ordinary
    /// steps it blocks.
    pub(crate) fn compile(rules: &Ruleset, target_tabled: bool) -> Steps {
        let mut f = Steps::default();
        let len = rules.board.len;
        let off = rules.board.off();
        let mv = &rules.movement;
        let sq = |s: u8| &rules.squares[s as usize];
        for &v in &rules.throws.values {
            f.throws |= 1 << v;
            f.max_throw = f.max_throw.max(v);
        }
        for t in 1..THROWS as u8 {
            for from in 1..=len {
                let b = 1u64 << from;
                // (JQ-4, the setup guard, depends on the square in front:
                // the forward stage takes guarded pieces out per position.)
                // Forward: the decisions of `attempt` that depend only on
                // the squares, in its order.
                let to = from + t;
                let passed = between(from, to.min(off));
                let trunc = mv.truncate_at.0 & passed != 0;
                let over = mv.overshoot.0 & passed != 0;
                let gate = mv.gates.0 & between(from, to) != 0;
                let bears_off = rules.bear_off.bears_off(to, len);
                let exact = rules.bear_off.exact(to, len);
                let immobile = mv.immobile.contains(from);
                if sq(from).lock.is_some() || sq(from).leave.is_some() || trunc || over {
                    // general
                } else if gate {
                    f.fwd_dead[t as usize] |= b;
                } else if let Some(exits) = sq(from).exit_throws.filter(|_| bears_off || immobile) {
                    if exits & (1 << t) == 0 {
                        f.fwd_dead[t as usize] |= b;
                    } else {
                        f.fwd_off[t as usize] |= b;
                    }
                } else if (immobile || mv.no_forward.contains(from)) && !bears_off {
                    // (HM-9b: a square without forward moves.)
                    f.fwd_dead[t as usize] |= b;
                } else if bears_off {
                    if exact {
                        f.fwd_off[t as usize] |= b;
                    } else {
                        f.fwd_dead[t as usize] |= b;
                    }
                } else if rules.target_blockade.is_some() && !target_tabled {
                    // general: the blockade depends on the target, and
                    // has no masks.
                } else if squares::leaves_plainly(sq(from))
                    && to <= len
                    && squares::lands_plainly(sq(to))
                    && mv.hit != Hit::Forbidden
                {
                    f.fwd_plain[t as usize] |= b;
                } else if squares::leaves_plainly(sq(from))
                    && to <= len
                    && squares::unrelocated(&sq(to).on_land)
                    && sq(to).divert_when_taken.is_none()
                {
                    // B-13 diversion only happens on a hit.
                    f.fwd_unhit[t as usize] |= b;
                } else if to <= len && sq(to).divert_when_taken.is_none() {
                    // (A lock or a leave on `from` went to `attempt` above;
                    // an exit there applies only to a bear-off: GK-5's 26
                    // moves onto the water square 27 with a 1.)
                    f.fwd_land[t as usize] |= b;
                    if squares::leaves_plainly(sq(from))
                        && sq(to)
                            .on_land
                            .as_ref()
                            .is_some_and(|l| l.effect == Relocation::Hand)
                    {
                        f.fwd_hand[t as usize] |= b;
                    }
                }
                // Backward.
                if mv.backward == Backward::Never {
                    continue;
                }
                let step = if mv.backward.one_square() { 1 } else { t };
                if sq(from).lock.is_some() {
                    // general
                } else if immobile || step >= from || mv.no_backward.contains(from) {
                    // (PC-4: a square without backward moves.)
                    f.back_dead[t as usize] |= b;
                } else if squares::lands_plainly(sq(from - step)) {
                    f.back_plain[t as usize] |= b;
                }
            }
        }
        for s in 1..=len {
            if matches!(
                mv.hit,
                Hit::Swap | Hit::LowestEmpty | Hit::LowestEmptyBeforeMove
            ) && sq(s).hit_sends_to.is_none()
            {
                f.swap_plain |= 1 << s;
            }
        }
        f.hit_lowest = matches!(mv.hit, Hit::LowestEmpty | Hit::LowestEmptyBeforeMove);
        f.hit_origin_taken = if mv.hit == Hit::LowestEmptyBeforeMove {
            u64::MAX
        } else {
            0
        };
        f.hits_tried = mask_of(mv.hit != Hit::Forbidden);
        f.pass_beside_moves = mv.voluntary_pass || mv.bear_off_voluntary || mv.pass_beside_entry;
        let (mut sure_to, mut roomy_to, mut room) = (0u64, 0u64, u64::MAX);
        for s in 1..=len {
            if let Some(l) = &sq(s).on_land {
                if l.effect.always_resolves(l.when_taken) {
                    sure_to |= 1 << s;
                } else if let Some(r) = l.effect.room(l.when_taken, len) {
                    roomy_to |= 1 << s;
                    room &= r;
                }
            }
        }
        if roomy_to == 0 || room == 0 {
            (roomy_to, room) = (0, 0);
        }
        for t in 1..THROWS {
            f.fwd_sure[t] = f.fwd_land[t] & (sure_to >> t);
            f.fwd_roomy[t] = f.fwd_land[t] & (roomy_to >> t);
        }
        f.land_room = room;
        f.tabled = u64::from(f.throws);
        f.blocks = !rules.blockades.is_empty() || target_tabled;
        f.split_masks = rules.blockades.is_empty()
            && rules.protection.rule.is_none()
            && rules.bear_off.all_in.is_none()
            && rules.halfway.is_none()
            && !target_tabled
            && !mv.setup_guard;
        f.fill_rows();
        f
    }

    /// Fills `rows` from the tables and `tabled` (a throw the tables do
    /// not cover gets the row that leaves every move to `attempt`): called
    /// again whenever `tabled` changes.
    pub(crate) fn fill_rows(&mut self) {
        let untabled = StepRow {
            t: 0,
            plain: 0,
            unhit_from: 0,
            hand_from: 0,
            dead: 0,
            off_from: 0,
            hits_tried: self.hits_tried,
        };
        for t in 0..256 {
            self.rows.0[t] = if t < THROWS && self.tabled >> t & 1 != 0 {
                StepRow {
                    t: t as u8,
                    plain: self.fwd_plain[t],
                    unhit_from: self.fwd_unhit[t],
                    hand_from: self.fwd_hand[t],
                    dead: self.fwd_dead[t],
                    off_from: self.fwd_off[t],
                    hits_tried: self.hits_tried,
                }
            } else {
                untabled
            };
        }
    }
}

// Stages 6 and 11: forward and backward moves from the per-throw square
// sets, and the setup guard (JQ-4) they apply first.

/// The forward moves of a throw as square sets: see `Ruleset::step_sets`.
pub(crate) struct StepSets {
    steps: u64,
    slow: u64,
    off_from: u64,
    /// The legal moves onto a square that sends the mover back to its
    /// hand (`Steps::fwd_hand`), found by the split throws' square sets
    /// only (`StepRow::sets`); else 0, those moves are in `slow`.
    hand: u64,
    /// The squares of `slow` whose move is legal and lands by the rule of
    /// its landing square (relocated, or staying),
    /// found by the forward stage's sets of a rule set of the general
    /// shape (`Ruleset::step_sets_of`): a move of `Steps::fwd_sure` (or of
    /// `Steps::fwd_roomy`, a square of `Steps::land_room` being empty)
    /// onto an empty square, past no blockade. Else 0.
    land: u64,
}

/// One throw's row of the forward tables, for `StepRow::sets`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct StepRow {
    t: u8,
    plain: u64,
    unhit_from: u64,
    hand_from: u64,
    dead: u64,
    off_from: u64,
    hits_tried: u64,
}

impl StepRow {
    /// Whether `sets`, which [`sets`](Self::sets) gave, are `general`, the
    /// forward stage's sets of the same moves (`Ruleset::step_sets`), but
    /// for the moves onto a square that sends the mover to its hand, which
    /// `general` leaves to `attempt` (and those onto an own piece drops):
    /// for debug assertions.
    fn agrees(&self, sets: &StepSets, general: &StepSets) -> bool {
        let tried = sets.slow | sets.hand;
        sets.steps == general.steps
            && tried & !general.slow == 0
            && general.slow & !tried & !self.hand_from == 0
    }

    /// The step sets of the pieces on `movers` when the side to move has
    /// the pieces `me` and the other side `opp`, in a rule set with
    /// `Steps::split_masks` (as `Ruleset::step_sets` computes them there),
    /// but for the moves onto a square that sends the mover to its hand
    /// (`Steps::fwd_hand`): those onto an empty square are in `hand`,
    /// those onto an opposing piece in `slow` (when a move may land on
    /// one), and none onto an own piece.
    #[inline(always)]
    fn sets(&self, me: u64, opp: u64, movers: u64) -> StepSets {
        let t = self.t;
        let unhit = movers & self.unhit_from;
        let hand = movers & self.hand_from;
        StepSets {
            steps: (movers & self.plain & !(me >> t)) | (unhit & !((me | opp) >> t)),
            slow: (movers & !self.plain & !self.unhit_from & !self.hand_from & !self.dead)
                | ((unhit | hand) & (opp >> t) & self.hits_tried),
            off_from: self.off_from,
            hand: hand & !((me | opp) >> t),
            land: 0,
        }
    }
}

impl Ruleset {
    /// Stage 6, forward moves of the pieces on `movers`. The candidates are
    /// square sets per throw, compiled with the rule set (`Steps`):
    /// ordinary steps (`fwd_plain`, `fwd_unhit`), bear-offs (`fwd_off`),
    /// moves never legal (`fwd_dead`); each rule then clears the squares it
    /// forbids in this position (the setup guard, blockades, own and
    /// protected pieces, a bear-off region). Squares whose move the tables
    /// do not decide (truncation, overshoot, landings that relocate, hits
    /// that divert) are tried one by one by [`attempt`](Self::attempt).
    /// Units come in the order of the squares moved from.
    ///
    /// With `count` (a calm position, for a playout that plays one unit
    /// of the list, never with `WHY`): when the moves are ordinary steps
    /// alone (or relocating landings sure to be legal: `StepSets::land`,
    /// written by `nth_step_as` as a step relocated) and no later stage
    /// adds a unit to them or removes one, but
    /// a voluntary pass (`Tables::steps_alone`; priority squares remove
    /// none where no step is from one), nothing is written and their
    /// squares are returned: the whole list is then those squares' steps
    /// in ascending order, and the pass where `Tables::pass_beside_steps`.
    /// The same where the other moves are sure bear-offs past the last
    /// square (`BearOffSquares::sure`) beside the steps: their squares are
    /// among those returned, and a bear-off is told from a step by where
    /// it lands. Else 0.
    // Always inlined: in the simulator's driver the compiler kept it out
    // of line (a call per unit, 30 instructions per unit on bga).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn forward_stage<const WHY: bool, const PLAIN: bool, const GROUPED: bool>(
        &self,
        pos: &Position,
        throw: u8,
        movers: u64,
        count: bool,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
        divert: &mut Option<Unit>,
    ) -> u64 {
        debug_assert!(!(WHY && count));
        let side = pos.to_move;
        let me = pos.pieces[side.index()].0;
        let opp = pos.pieces[side.other().index()].0;
        // JQ-4: a piece on its setup square with the square in front taken
        // does not move, forward or backward (refused first by `attempt`).
        // (The plain and the grouped shapes have neither.)
        let guarded = if !(PLAIN || GROUPED) && self.movement.setup_guard {
            movers & self.movement.guard_squares[side.index()].0 & ((me | opp) >> 1)
        } else {
            0
        };
        // LJ-4: a row of taken squares half the throw ahead.
        let guarded = if PLAIN || GROUPED {
            guarded
        } else {
            guarded | (movers & self.halfway_held(pos, throw))
        };
        if WHY {
            for from in SquareSet(guarded).iter() {
                self.explain(pos, from, throw, Dir::Forward, why);
            }
        }
        let movers = movers & !guarded;
        // (`hand` is empty here: those moves are in `slow`.)
        let StepSets {
            steps,
            slow,
            off_from,
            hand: _,
            land,
        } = self.step_sets_of::<PLAIN, GROUPED>(pos, throw, movers);
        // Counted: the ordinary steps and the relocating landings sure to
        // be legal (`nth_step_as` writes either), when no other move is tried.
        let counted = steps | land;
        // (Beside split units, `Tables::steps_beside_splits`, the steps
        // are counted where `move_stages` counts those; else it writes
        // them, `push_steps_beside_splits`.)
        if slow & !land == 0
            && count
            && counted != 0
            && (self.tables.steps_alone || (!(PLAIN || GROUPED) && self.tables.steps_beside_splits))
            && (PLAIN || GROUPED || counted & self.movement.priority.0 == 0)
        {
            return counted;
        }
        if slow == 0 {
            // Ordinary steps only (most positions): no other test per piece.
            self.push_steps(pos, throw, steps, out);
        }
        if slow != 0 {
            // Sure bear-offs past the last square beside ordinary steps
            // (pieces waiting near the end: about a tenth of `bga`'s
            // units) are counted as the steps are: `nth_step_as` tells one
            // from a step by its landing past the last square, which no
            // ordinary step has. Not where bearing off is voluntary (KD-6)
            // without an ordinary step: a pass then follows bear-offs alone.
            // (Out of line, as the rest of this path: the playout loops
            // hold the inlined stage, which grew dearer on every unit with
            // this test inlined.)
            if count && self.tables.count_offs {
                // (The counted relocating landings go with the steps.)
                let counted = self.steps_and_sure_offs(throw, steps | land, slow, off_from);
                if counted != 0 && (PLAIN || GROUPED || counted & self.movement.priority.0 == 0) {
                    return counted;
                }
            }
            let mut unasked = Vec::new();
            let why = unasked_if::<WHY>(why, &mut unasked);
            self.forward_slow::<WHY>(
                pos,
                throw,
                steps | slow,
                steps,
                off_from,
                land,
                out,
                why,
                divert,
            );
        }
        if WHY {
            // The squares the masks cleared.
            for from in SquareSet(movers & !(steps | slow)).iter() {
                self.explain(pos, from, throw, Dir::Forward, why);
            }
        }
        0
    }

    /// Writes the ordinary steps by `throw` from the squares of `steps`,
    /// in ascending order, into `out`.
    #[inline(always)]
    fn push_steps(&self, pos: &Position, throw: u8, steps: u64, out: &mut Vec<Unit>) {
        let opp = pos.pieces[pos.to_move.other().index()].0;
        // Every ordinary step is this unit with its squares and hit
        // filled in. (Its mark found here, after the counted steps'
        // return, which need none.)
        let template = Unit::step(throw, 0, 0, false, self.throws.gives_extra(throw));
        let step = |from: u8, to: u8, hit: bool| Unit {
            from,
            to,
            hit,
            ..template
        };
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

    /// The units of the squares `counted` that
    /// [`forward_stage`](Self::forward_stage) counted beside split units
    /// (`Tables::steps_beside_splits`), written into `out` where the split
    /// units are not counted after all: ordinary steps, and relocating
    /// landings sure to be legal, each as
    /// [`nth_step_as`](Self::nth_step_as) writes it
    /// ([`push_counted_step`](Self::push_counted_step)). Out of line:
    /// where a split's part hits or is tried by `attempt`.
    #[inline(never)]
    pub(crate) fn push_steps_beside_splits(
        &self,
        pos: &Position,
        throw: u8,
        counted: u64,
        out: &mut Vec<Unit>,
    ) {
        #[cfg(test)]
        let start = out.len();
        let mut bits = counted;
        while bits != 0 {
            let bit = bits & bits.wrapping_neg();
            bits &= bits - 1;
            self.push_counted_step::<false>(pos, throw, bit, out);
        }
        #[cfg(test)]
        STEPS_WRITTEN_BESIDE_SPLITS.with(|n| {
            let [steps, lands] = n.get();
            let landed = out[start..].iter().filter(|u| u.relocated.is_some());
            n.set([steps + out.len() - start, lands + landed.count()]);
        });
    }

    /// The squares of `steps` and of the sure bear-offs past the last
    /// square where those are all the forward moves (`slow`, the squares
    /// not of ordinary steps, all of them such bear-offs) and a playout may
    /// count them ([`forward_stage`](Self::forward_stage) with `count`);
    /// else 0. Not where bearing off is voluntary (KD-6) and no ordinary
    /// step is among them: a pass then follows the bear-offs.
    #[inline(never)]
    fn steps_and_sure_offs(&self, throw: u8, steps: u64, slow: u64, off_from: u64) -> u64 {
        if steps == 0 && self.movement.bear_off_voluntary {
            return 0;
        }
        let past = u64::MAX
            .checked_shl(u32::from(self.board.off().saturating_sub(throw)))
            .unwrap_or(0);
        let counted = steps | (slow & off_from & self.tables.bear_off.sure & past);
        if counted & slow == slow { counted } else { 0 }
    }

    /// The forward moves of stage 6 from `squares` when some of them are
    /// not ordinary steps (`steps`): bear-offs (`off_from`), relocating
    /// landings sure to be legal (`land`, `StepSets::land`) and the moves
    /// the tables leave to [`attempt`](Self::attempt), in the order of the
    /// squares. Out of line: few positions need it.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(crate) fn forward_slow<const WHY: bool>(
        &self,
        pos: &Position,
        throw: u8,
        squares: u64,
        steps: u64,
        off_from: u64,
        land: u64,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
        divert: &mut Option<Unit>,
    ) {
        let extra_mark = self.throws.gives_extra(throw);
        let opp = pos.pieces[pos.to_move.other().index()].0;
        let mut bits = squares;
        while bits != 0 {
            let from = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let b = 1u64 << from;
            if steps & b != 0 {
                // (`plain_step`, with the throw's mark found once.)
                let to = from + throw;
                out.push(Unit::step(throw, from, to, opp >> to & 1 != 0, extra_mark));
            } else if off_from & self.tables.bear_off.sure & b != 0 {
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
            } else if land & b != 0 {
                out.push(self.sure_landing(pos, from, throw, extra_mark));
            } else {
                let tried = if self.lands_relocated(throw, b) {
                    self.relocating_step(pos, from, throw, extra_mark)
                } else {
                    self.attempt(pos, from, throw, Dir::Forward)
                };
                match tried {
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

    /// Whether the forward move by `throw` from the square of `b` is one of
    /// `Steps::fwd_land`. (Without tables, as the referee runs, every such
    /// move goes to `attempt`.)
    fn lands_relocated(&self, throw: u8, b: u64) -> bool {
        let f = &self.tables.steps;
        f.tabled.checked_shr(u32::from(throw)).unwrap_or(0) & 1 != 0
            && f.fwd_land[usize::from(throw)] & b != 0
    }

    /// The forward move by `throw` of the piece on `from`, a square of
    /// `Steps::fwd_land`: onto an empty square past no blockade, the unit
    /// (or refusal) of its relocating landing, which is what
    /// [`attempt`](Self::attempt) would give; any other such move (a hit,
    /// an own piece, a blockade) is left to `attempt`.
    fn relocating_step(&self, pos: &Position, from: u8, throw: u8, extra_mark: bool) -> Tried {
        let to = from + throw;
        let path = between(from, to);
        if pos.occupied().contains(to)
            || self.blocked(pos, path, to).is_some()
            || self.target_blocked(pos, path, to).is_some()
        {
            return self.attempt(pos, from, throw, Dir::Forward);
        }
        self.landing_unit(pos, from, to, throw, extra_mark, false, false, Dir::Forward)
    }

    /// The forward moves by `throw` of the pieces on `movers` (none held
    /// by the setup guard), as square sets from the tables: `steps`, the
    /// ordinary steps that are legal (not onto an own or a protected piece,
    /// no blockade on the path); `slow`, the squares whose move the tables
    /// do not decide, left to [`attempt`](Self::attempt) (bear-offs among
    /// them in `off_from`). A square in neither has no legal move.
    #[inline(always)]
    pub(crate) fn step_sets(&self, pos: &Position, throw: u8, movers: u64) -> StepSets {
        self.step_sets_of::<false, false>(pos, throw, movers)
    }

    /// Whether the counted forward move by `throw` from the square of `b`
    /// (`nth_step_as`) is a relocating landing (`StepSets::land`) rather
    /// than an ordinary step or a sure bear-off: a square of `fwd_land`,
    /// which has neither. (A counted square's throw is tabled, below
    /// `THROWS`.)
    #[inline(always)]
    pub(crate) fn counted_lands(&self, throw: u8, b: u64) -> bool {
        self.tables.steps.fwd_land[usize::from(throw) % THROWS] & b != 0
    }

    /// `unit`, the ordinary step of a move of `StepSets::land` that
    /// `nth_step_as` wrote ([`plain_step`](Self::plain_step): onto an
    /// empty square, so without a hit), with its relocation: the unit of
    /// [`sure_landing`](Self::sure_landing). Out of line, and in place, so
    /// that the playout loops hold only the test.
    #[inline(never)]
    pub(crate) fn relocate_counted(&self, pos: &Position, unit: &mut Unit) {
        *unit = self.sure_landing(pos, unit.from, unit.throw, unit.extra_mark);
    }

    /// The forward move by `throw` of the piece on `from`, one of
    /// `StepSets::land` (a relocating landing of `Steps::fwd_sure` onto an
    /// empty square past no blockade): its unit, which `attempt`
    /// would give. Out of line, for the calm lists that count it
    /// (`nth_step_as`) as for those that write it.
    #[inline(never)]
    pub(crate) fn sure_landing(
        &self,
        pos: &Position,
        from: u8,
        throw: u8,
        extra_mark: bool,
    ) -> Unit {
        match self.landing_unit(
            pos,
            from,
            from + throw,
            throw,
            extra_mark,
            false,
            false,
            Dir::Forward,
        ) {
            Ok(u) => u,
            Err(_) => unreachable!("a landing of `StepSets::land` resolves"),
        }
    }

    /// [`step_sets`](Self::step_sets); with `PLAIN`, for a rule set of the
    /// plain shape (`Tables::plain_shape`: no blockade, no bear-off
    /// region); with `GROUPED`, of the grouped shape
    /// (`Tables::grouped_shape`: the protection and the blockade from
    /// [`grouped_steps_in`](Self::grouped_steps_in) inlined, no bear-off
    /// region).
    #[inline(always)]
    fn step_sets_of<const PLAIN: bool, const GROUPED: bool>(
        &self,
        pos: &Position,
        throw: u8,
        movers: u64,
    ) -> StepSets {
        let f = &self.tables.steps;
        let side = pos.to_move;
        let me = pos.pieces[side.index()].0;
        let opp = pos.pieces[side.other().index()].0;
        // A throw the tables do not cover (not one of the rule set's
        // values): every move is tried by `attempt`.
        let tabled = f.tabled.checked_shr(u32::from(throw)).unwrap_or(0) & 1 != 0;
        let (t, plain, unhit_from, dead, off_from, land_from) = if tabled {
            let t = throw as usize;
            (
                t,
                f.fwd_plain[t],
                f.fwd_unhit[t],
                f.fwd_dead[t],
                f.fwd_off[t],
                if PLAIN { 0 } else { f.fwd_sure[t] },
            )
        } else {
            (0, 0, 0, 0, 0, 0)
        };
        // The protected opposing pieces, if an ordinary step lands on one
        // (the shift-and of B-7 costs less than the test), and the
        // blockades and the one on forward moves by target (tabled steps
        // only): one test in the rule sets without either. Protection by
        // groups and the group blockade (`macabot`) come from one look at
        // the opposing groups.
        let needed = ((movers & plain) << t) & opp != 0;
        let (prot, blocked) = if PLAIN || !(GROUPED || f.blocks) || !tabled {
            (self.protected_if(pos, side.other(), needed), 0)
        } else if GROUPED {
            // (The grouped shape's own copy: the look inlined.)
            let Some(g) = &self.tables.grouped else {
                unreachable!("the grouped shape has the grouped form")
            };
            self.grouped_steps_in(g, opp, throw)
        } else if self.tables.grouped.is_some() {
            self.grouped_steps(opp, throw)
        } else {
            let (prot, target) = self.protected_and_target_blocked(pos, throw, needed);
            (prot, self.blocked_steps(me, opp, throw, false) | target)
        };
        let unhit = movers & unhit_from & !blocked;
        let steps = (movers & plain & !blocked & !((me | (opp & prot)) >> t))
            | (unhit & !((me | opp) >> t));
        let mut slow =
            (movers & !plain & !unhit_from & !dead) | (unhit & (opp >> t) & f.hits_tried);
        // K-13, JQ-9: while some piece of the side is outside the region
        // (or waits in the queue), no bear-off is legal; `bear_off_unit`
        // would refuse each one. (Without a branch on whether a bear-off
        // is among the slow squares, which follows the throws: that test
        // first was mispredicted in a rule set with the region as in one
        // without.)
        if !(PLAIN || GROUPED)
            && let Some(region) = self.bear_off.all_in
        {
            let queued = !pos.queue.is_empty() && pos.queue.count(side) > 0;
            slow &= !(off_from & mask_of((me & !region.0 != 0) | queued));
        }
        // The relocating landings that are sure to be legal (K-11, JQ-8,
        // R-12): onto an empty square past no blockade. And those whose
        // relocation finds a place while a square of its room is empty
        // (GK-7), tested in each position: a rule file's room may be full.
        let land = if PLAIN {
            0
        } else {
            let roomy = if f.land_room != 0 {
                f.fwd_roomy[t] & mask_of(f.land_room & !(me | opp) != 0)
            } else {
                0
            };
            movers & (land_from | roomy) & !blocked & !((me | opp) >> t)
        };
        StepSets {
            steps,
            slow,
            off_from,
            hand: 0,
            land,
        }
    }

    /// The row of `throw` of the forward tables, from which
    /// [`StepRow::sets`] gives [`step_sets`](Self::step_sets) in a rule set
    /// whose square sets read nothing of the position but the two piece
    /// sets (`Steps::split_masks`: no blockade, no protection, no bear-off
    /// region, no setup guard), from the pieces of the side to move and of
    /// the other side: fetched once for many positions.
    #[inline(always)]
    pub(crate) fn step_row(&self, throw: u8) -> StepRow {
        let f = &self.tables.steps;
        debug_assert!(f.split_masks);
        // (Compiled rows, `Steps::fill_rows`: one load of each field
        // used, where building the row here cost a test of `tabled` and
        // a copy of every field per fetch.)
        f.rows.0[usize::from(throw)]
    }

    /// The ordinary step of the piece on `from` by `throw`, which
    /// [`step_sets`](Self::step_sets) found legal: the unit `attempt` would
    /// give for it.
    #[inline(always)]
    pub(crate) fn plain_step(&self, pos: &Position, from: u8, throw: u8) -> Unit {
        let to = from + throw;
        let opp = pos.pieces[pos.to_move.other().index()].0;
        Unit::step(
            throw,
            from,
            to,
            opp >> to & 1 != 0,
            self.throws.gives_extra(throw),
        )
    }

    /// Stage 11, backward moves when no forward move exists (T-9b, B-9,
    /// MB-1, JQ-7), as [`forward_stage`](Self::forward_stage) does forward
    /// moves: `back_plain` steps, cleared by blockades, own pieces and
    /// protected or forbidden hits; `back_dead` never legal; the rest tried
    /// by [`attempt`](Self::attempt).
    #[inline]
    pub(crate) fn backward_stage<const WHY: bool>(
        &self,
        pos: &Position,
        throw: u8,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
    ) {
        let f = &self.tables.steps;
        let side = pos.to_move;
        let me = pos.pieces[side.index()].0;
        let opp = pos.pieces[side.other().index()].0;
        let guarded = if self.movement.setup_guard {
            me & self.movement.guard_squares[side.index()].0 & ((me | opp) >> 1)
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
        let no_hit =
            self.movement.backward.onto_empty_only() || self.movement.hit == Hit::Forbidden;
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
        // A backward move may give another throw whatever its value.
        let extra_mark = self.throws.gives_extra(throw) | self.movement.backward_extra;
        if !WHY && movers & !back & !back_dead == 0 {
            // Every move is decided by the tables (most positions): the
            // legal steps are those onto no own piece and no opposing one
            // that may not be hit, past no blockade, as the loop below
            // finds them one by one. (`back` is empty for a throw the
            // tables do not cover, so `stepb` is then below 32.)
            let mut bits = if back == 0 {
                0
            } else {
                let refused_hit = opp & if no_hit { u64::MAX } else { prot };
                movers & back & !blocked & !((me | refused_hit) << stepb)
            };
            while bits != 0 {
                let from = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                let to = from - stepb;
                out.push(Unit::step(throw, from, to, opp >> to & 1 != 0, extra_mark));
            }
            return;
        }
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
                    out.push(Unit::step(throw, from, from - stepb, hit, extra_mark));
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

    /// How far a backward move goes with `throw` (MB-1: one square).
    pub(crate) fn backward_step(&self, throw: u8) -> u8 {
        if self.movement.backward.one_square() {
            1
        } else {
            throw
        }
    }

    /// Whether the piece on `from` is held by the setup guard (JQ-4): it
    /// stands on one of its side's setup squares and the next square is taken.
    pub(crate) fn guarded(&self, pos: &Position, from: u8) -> bool {
        self.movement.setup_guard
            && self.movement.guard_squares[pos.to_move.index()].contains(from)
            && pos.occupied().contains(from + 1)
    }

    /// The pieces of the side to move that the setup guard (JQ-4) does not
    /// hold: a guarded piece has no move, forward or backward.
    #[inline(always)]
    pub(crate) fn unguarded(&self, pos: &Position) -> u64 {
        let side = pos.to_move.index();
        let me = pos.pieces[side].0;
        if self.movement.setup_guard {
            let taken = pos.occupied().0;
            me & !(self.movement.guard_squares[side].0 & (taken >> 1))
        } else {
            me
        }
    }
}

// The replay gloss: passes, moves forward and backward, split throws and
// hits.

/// A pass, forced or by choice (T-10).
pub(crate) fn glossed_pass(cx: &PlayedUnit, out: &mut Vec<String>) {
    let side = cx.side();
    if cx.unit.forced {
        out.push(format!("{}; no legal move: {side} passes", cx.throw));
    } else {
        out.push(format!("{}; {side} passes by choice", cx.throw));
    }
}

/// A move on the board, forward or backward.
pub(crate) fn glossed_move(cx: &PlayedUnit, out: &mut Vec<String>) {
    let u = cx.unit;
    if cx.effects.backward {
        out.push(format!(
            "{}; moves backward {} → {}",
            cx.throw, u.from, u.to
        ));
    } else {
        out.push(format!("{}; moves {} → {}", cx.throw, u.from, u.to));
    }
}

/// A throw split between two pieces (PC-3).
pub(crate) fn glossed_split(cx: &PlayedUnit, second: &Part, out: &mut Vec<String>) {
    let u = cx.unit;
    let part = |from: u8, to: u8, off: bool| {
        if off {
            format!("{from} → off")
        } else {
            format!("{from} → {to}")
        }
    };
    out.push(format!(
        "{}, split: moves {}, then {}",
        cx.throw,
        part(u.from, u.to, u.off),
        part(second.from, second.to, second.off)
    ));
    if let Some(Relocated::Hand) = second.relocated {
        out.push(format!(
            "the second piece landed on {} and goes back to the hand",
            cx.sq(second.to)
        ));
    }
}

/// A hit: a swap, a piece sent elsewhere, or one sent to the queue.
pub(crate) fn glossed_hit(cx: &PlayedUnit, out: &mut Vec<String>) {
    let (u, fx) = (cx.unit, cx.effects);
    let other = cx.side().other();
    if fx.swap {
        match fx.hit_to {
            Some(d) if d == u.from => out.push(format!(
                "swaps with {other}'s piece on {}, which goes back to {d}",
                u.to
            )),
            Some(d) => out.push(format!(
                "hits {other}'s piece on {}, which is sent to {}",
                u.to,
                cx.sq(d)
            )),
            None => out.push(format!(
                "hits {other}'s piece on {}, which joins the queue of dead pieces",
                u.to
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testing::{random_position, variants};
    use rand::SeedableRng;

    /// The unit of a throw in any number of parts sought after another
    /// search was counted (the counts kept are not that search's, and are
    /// made again), and after the same search was counted under another
    /// rule set: every index gives the listed unit (LP-3).
    #[test]
    fn a_sought_split_unit_does_not_read_another_searchs_counts() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(23);
        let rules = crate::rules::load("ludii-piccione", None, &[]).unwrap();
        let other = crate::rules::load_source(
            crate::diag::SourceFile::new(
                "overlay.senet",
                "extends \"ludii-piccione\"\nat 12: relocate to hand   [X-1]\n",
            ),
            &[],
        )
        .unwrap();
        let (mut listed, mut out, mut units) = (Vec::new(), Vec::new(), 0);
        for _ in 0..300 {
            let (a, b) = (
                random_position(&rules, &mut rng),
                random_position(&rules, &mut rng),
            );
            for throw in 2..=5 {
                let Some(n) = rules.any_split_count(&a, throw) else {
                    continue;
                };
                listed.clear();
                rules.any_split_units::<false>(
                    &a,
                    throw,
                    rules.throws.gives_extra(throw),
                    &mut listed,
                );
                assert_eq!(n, listed.len(), "count, throw {throw} in {a:?}");
                for (j, unit) in listed.iter().enumerate() {
                    // Another position counted, then the same one under
                    // other rules, before each seek.
                    let _ = rules.any_split_count(&b, throw);
                    let _ = other.any_split_count(&a, throw);
                    let at = rules.nth_any_split(&a, throw, j, &mut out);
                    assert_eq!(out[at], *unit, "index {j}, throw {throw} in {a:?}");
                    units += 1;
                }
            }
        }
        assert!(units > 1_000, "{units} units sought");
    }

    /// The compiled rows of the forward tables (`StepRows`, which the split
    /// searches fetch by the throw's value) against the tables they are
    /// made of, for every value a `u8` holds, in every variant: a value
    /// the tables cover gives its row, any other the row of moves all
    /// tried by `attempt`; and after `tabled` is cleared (as the referee
    /// does), every value gives that row.
    #[test]
    fn step_rows_are_the_tables_rows() {
        let mut covered = 0;
        for (name, rules) in variants() {
            let mut f = rules.tables.steps.clone();
            for pass in 0..2 {
                for v in 0..=255u8 {
                    let row = f.rows.0[usize::from(v)];
                    let t = usize::from(v);
                    let tabled = t < THROWS && f.tabled >> t & 1 != 0;
                    let want = if tabled {
                        covered += 1;
                        (
                            v,
                            f.fwd_plain[t],
                            f.fwd_unhit[t],
                            f.fwd_hand[t],
                            f.fwd_dead[t],
                            f.fwd_off[t],
                        )
                    } else {
                        (0, 0, 0, 0, 0, 0)
                    };
                    let got = (
                        row.t,
                        row.plain,
                        row.unhit_from,
                        row.hand_from,
                        row.dead,
                        row.off_from,
                    );
                    assert_eq!(got, want, "{name}: throw {v}, pass {pass}");
                    assert_eq!(row.hits_tried, f.hits_tried, "{name}: throw {v}");
                }
                f.tabled = 0;
                f.fill_rows();
            }
        }
        assert!(covered > 100, "{covered} rows of covered values");
    }
}
