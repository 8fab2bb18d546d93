//! `Position`: the board, the side to move and the rule state between units.
//!
//! Its text form, the position string of SGN §5, belongs to the notation
//! layer (`crate::notation::position_string`); the engine knows no text.

use super::{Ruleset, Side, SquareSet};

/// The shared first-in-first-out queue of dead pieces, head first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Queue {
    /// Bit `i` set: the `i`-th piece from the head is Black.
    bits: u32,
    len: u8,
}

impl Queue {
    /// The most pieces the queue holds (one bit each).
    pub const CAPACITY: usize = 32;
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn push(&mut self, side: Side) {
        debug_assert!(self.len < 32);
        if side == Side::Black {
            self.bits |= 1 << self.len;
        }
        self.len += 1;
    }
    pub fn pop(&mut self) -> Option<Side> {
        if self.len == 0 {
            return None;
        }
        let side = if self.bits & 1 != 0 {
            Side::Black
        } else {
            Side::White
        };
        self.bits >>= 1;
        self.len -= 1;
        Some(side)
    }
    pub fn iter(&self) -> impl Iterator<Item = Side> + '_ {
        (0..self.len).map(|i| {
            if self.bits & (1 << i) != 0 {
                Side::Black
            } else {
                Side::White
            }
        })
    }
    pub fn count(&self, side: Side) -> u8 {
        self.iter().filter(|&s| s == side).count() as u8
    }
}

/// Which way the moves of the current turn have gone, where the rules allow
/// only one direction per turn (PC-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Heading {
    /// No move yet this turn.
    #[default]
    Any,
    Forward,
    Backward,
}

/// Where the game a position belongs to began: whether the rule set's
/// opening (K-5, K-7) binds its first turns, which it does only in games
/// from the rule set's standard setup (P-4). It never changes in a game,
/// and the position string does not show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Origin {
    /// The rule set's standard setup: the opening binds.
    Standard,
    /// A position the record sets up (`SetUp`): the opening never binds.
    SetUp,
    /// A position string on its own, whose game is not known: the opening
    /// binds where the board shows it has not begun (see
    /// `Ruleset::opening_rule`).
    Unknown,
}

/// A position between two units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Pieces per side, `[white, black]`, as square bitboards.
    pub pieces: [SquareSet; 2],
    pub to_move: Side,
    /// Pieces borne off, `[white, black]`.
    pub off: [u8; 2],
    /// The side to move is in the middle of its turn with a pending throw.
    pub extra: bool,
    /// The pending throw must be used by the piece on this square.
    pub bound: Option<u8>,
    /// That side's next turn is missed, `[white, black]`.
    pub skip: [bool; 2],
    /// Dead pieces waiting to re-enter.
    pub queue: Queue,
    /// That side has not yet made its first move and still needs its
    /// starting throw (KD-10 Starting Throw), `[white, black]`.
    pub waiting: [bool; 2],
    /// A piece moved out of a lock that binds its owner's next ply: its
    /// square (the owner is the side whose piece stands there). The mark
    /// ends when the piece leaves the square or is swapped off it.
    pub marked: Option<u8>,
    /// The number of the turn the side to move is in or about to start.
    pub turn: u32,
    /// Squares that the side to move's pieces reached during the current
    /// turn (for the A-14 alternative of B-11). Not part of the position
    /// string: a parsed position assumes none.
    pub arrived: SquareSet,
    /// Pieces in hand, waiting to enter (PC-1), `[white, black]`.
    pub hand: [u8; 2],
    /// The direction of this turn's moves so far (PC-4); `Any` unless the
    /// rule set allows one direction per turn.
    pub heading: Heading,
    /// Where the game began (for the opening, P-4).
    pub origin: Origin,
    /// The side that took the game's first turn, for counting the turns
    /// played (C-5) where the first player is drawn by lot: turn numbers
    /// pair a White turn with the Black turn after it, so a game Black
    /// starts has one turn fewer behind it at each number. Never changes
    /// in a game; the position string does not show it (a parsed position
    /// takes White, and a record's `FirstPlayer` tag sets it).
    pub first: Side,
    /// An extra throw the game holds for whichever side next uses up a
    /// whole throw by moving: earned by a throw whose rest was lost, under
    /// rules where such a throw is held (`Rules::turn.held_extra`).
    pub held: bool,
}

impl Position {
    /// The highest turn number a position string may give: nine digits,
    /// as in movetext, far enough below `u32::MAX` that counting on never
    /// wraps.
    pub const MAX_TURN: u32 = 999_999_999;

    /// The start position of a rule set, with `first` to move.
    pub fn start(rules: &Ruleset, first: Side) -> Position {
        let mut pieces = [SquareSet::EMPTY; 2];
        for side in Side::BOTH {
            for &s in &rules.setup[side.index()] {
                pieces[side.index()].insert(s);
            }
        }
        Position {
            pieces,
            to_move: first,
            off: [0, 0],
            extra: false,
            bound: None,
            skip: [false, false],
            queue: Queue::default(),
            waiting: Side::BOTH.map(|s| rules.movement.start_throw_due_for(s)),
            marked: None,
            turn: 1,
            arrived: SquareSet::EMPTY,
            hand: Side::BOTH.map(|s| {
                rules
                    .pieces
                    .saturating_sub(rules.setup[s.index()].len() as u8)
            }),
            heading: Heading::Any,
            origin: Origin::Standard,
            first,
            held: false,
        }
    }

    /// Ends the turn of the side to move: a pending throw, its binding and
    /// the turn's direction lapse, and the other side is to move (the turn
    /// number advances after Black's turn).
    pub fn end_turn(&mut self) {
        self.bound = None;
        self.end_turn_if(true);
    }

    /// After a unit: when `ends`, the turn ends as in
    /// [`end_turn`](Self::end_turn) (the caller has cleared `bound`);
    /// otherwise the side to move has a pending throw. Written without a
    /// branch on `ends`, which follows the throws and so is unpredictable.
    #[inline]
    pub fn end_turn_if(&mut self, ends: bool) {
        self.extra = !ends;
        self.arrived.0 &= (ends as u64).wrapping_sub(1);
        if ends {
            self.heading = Heading::Any;
        }
        self.turn += (ends & (self.to_move == Side::Black)) as u32;
        self.to_move = if ends {
            self.to_move.other()
        } else {
            self.to_move
        };
    }

    pub fn occupied(&self) -> SquareSet {
        self.pieces[0].union(self.pieces[1])
    }

    /// The side with a piece on `square`, if any.
    pub fn at(&self, square: u8) -> Option<Side> {
        if self.pieces[0].contains(square) {
            Some(Side::White)
        } else if self.pieces[1].contains(square) {
            Some(Side::Black)
        } else {
            None
        }
    }

    /// Pieces of `side` still in play (on the board, in the queue or in hand).
    pub fn in_play(&self, side: Side) -> u8 {
        self.pieces[side.index()].len() as u8 + self.queue.count(side) + self.hand[side.index()]
    }
}
