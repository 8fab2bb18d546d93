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

use super::words::*;
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
    /// Squares whose pieces must be moved first when any of them can.
    pub priority: SquareSet,
    pub priority_clause: Clause,
    /// Squares that no move may pass over; a move must land on them exactly
    /// (T-13, B-11). Indexed by the bit of the square.
    pub gates: SquareSet,
    pub gate_clause: Clause,
    /// Squares at which a move that would pass them stops.
    pub truncate_at: SquareSet,
    pub truncate_clause: Clause,
    /// Squares from which a piece never moves along the track, only off (T-15).
    pub immobile: SquareSet,
    pub immobile_clause: Clause,
    /// Squares from which a piece never moves backward (PC-4).
    pub no_backward: SquareSet,
    pub no_backward_clause: Clause,
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
    /// A piece on one of its side's setup squares may move only when the
    /// next square is empty (JQ-4); `setup_squares` holds those squares.
    pub setup_guard: bool,
    pub setup_guard_clause: Clause,
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
    /// A throw may be split between two pieces, each moving forward by its
    /// part (PC-3): a unit then has two parts, `5:12-14:20-23`.
    pub split: bool,
    pub split_clause: Clause,
    /// All the moves of a turn go in one direction (PC-4): after a forward
    /// move only forward moves, after a backward one only backward ones.
    pub one_direction: bool,
    pub one_direction_clause: Clause,
}

/// What landing on an opposing piece does to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hit {
    /// It goes to the square the mover came from (T-6).
    Swap,
    /// It goes to the lowest-numbered empty square (JQ-6).
    LowestEmpty,
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
}

// Words.

/// `rules show`: `forward move compulsory`.
pub const COMPULSORY: &str = "A forward move is compulsory when one exists.";
/// `rules show`: `landing on own piece forbidden`.
pub const OWN_PIECE: &str = "A piece may not land on a piece of its own colour.";
/// `rules show`: the setup guard (JQ-4).
pub const GUARD: &str = "A piece on one of its side's starting squares may move only when the square in front of it is empty.";
/// `rules show`: split throws (PC-3).
pub const SPLIT: &str = "A throw may be split in two parts, each moving a different piece forward by its part; the second part moves on the board the first left.";
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
        }
    }
}

impl Hit {
    /// `rules show`.
    pub fn sentence(self) -> &'static str {
        match self {
            Hit::LowestEmpty => {
                "A piece that lands on an opposing piece sends it to the lowest-numbered empty square."
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
        if self.one_direction {
            out.push(format!(
                "one direction per turn{}",
                cl(&self.one_direction_clause)
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
        Forbid::Guard => Said::new(
            "the square in front is taken",
            format!(
                "the piece on {} still stands on its starting square and may not move until {} is empty",
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
