//! The engine: positions, units and move generation over a compiled
//! [`Ruleset`]. It never sees text or spans, and it knows no rule set by name:
//! every special square is special because the rule set's tables say so.
//!
//! Stage: `Ruleset` (from `crate::rules`) + `Position` → legal units → `play`.

pub mod constructs;
mod cpu;
mod movegen;
mod play;
mod position;
mod ruleset;
#[cfg(test)]
mod testing;
mod unit;

pub use constructs::{
    Backward, BearOff, Blockade, BlockadeKind, Board, EndRules, Entry, Goal, HalfwayBlockade, Hit,
    House, Landing, Lapse, Leave, Lock, LockDecl, Movement, Onto, OpeningRule, Pred, Protection,
    Reach, Relocation, SquareRule, Starter, TargetBlockade, TargetCase, Throws, TurnRules,
    WhenTaken,
};
pub use cpu::{bit_instructions_in_use, with_bit_instructions};
pub use movegen::{Forbid, Refusal};
pub use play::Effects;
pub use position::{Heading, Origin, Position, Queue};
pub use ruleset::*;
pub use unit::{MoreParts, Part, Relocated, Unit, UnitKind};

use serde::Serialize;

/// One of the two sides. White is the side whose pieces start on the odd
/// squares of the standard setup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];

    pub fn index(self) -> usize {
        self as usize
    }
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
    /// `W` or `B`, as in the position string.
    pub fn letter(self) -> char {
        match self {
            Side::White => 'W',
            Side::Black => 'B',
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "White",
            Side::Black => "Black",
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of squares as a bitboard: bit `s` is square `s` (bit 0 unused, so
/// tracks of up to 62 squares fit, with `len + 1` for "off").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SquareSet(pub u64);

impl SquareSet {
    pub const EMPTY: SquareSet = SquareSet(0);

    pub fn single(square: u8) -> SquareSet {
        SquareSet(1u64 << square)
    }
    /// Squares `from..=to`.
    pub fn range(from: u8, to: u8) -> SquareSet {
        if from > to {
            return SquareSet::EMPTY;
        }
        let hi = if to >= 63 {
            u64::MAX
        } else {
            (1u64 << (to + 1)) - 1
        };
        SquareSet(hi & !((1u64 << from) - 1))
    }
    pub fn contains(self, square: u8) -> bool {
        square < 64 && self.0 & (1u64 << square) != 0
    }
    pub fn insert(&mut self, square: u8) {
        self.0 |= 1u64 << square;
    }
    pub fn remove(&mut self, square: u8) {
        self.0 &= !(1u64 << square);
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }
    pub fn union(self, other: SquareSet) -> SquareSet {
        SquareSet(self.0 | other.0)
    }
    pub fn iter(self) -> impl Iterator<Item = u8> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                None
            } else {
                let s = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                Some(s)
            }
        })
    }
}

impl FromIterator<u8> for SquareSet {
    fn from_iter<I: IntoIterator<Item = u8>>(iter: I) -> Self {
        let mut set = SquareSet::EMPTY;
        for s in iter {
            set.insert(s);
        }
        set
    }
}

// Square-set arithmetic the stages share.

/// All ones when `b`, else 0.
#[inline(always)]
pub(crate) fn mask_of(b: bool) -> u64 {
    0u64.wrapping_sub(b as u64)
}

/// Bits of the squares strictly between `a` and `b` (`a < b`).
pub(crate) fn between(a: u8, b: u8) -> u64 {
    if b <= a + 1 {
        return 0;
    }
    let hi = if b >= 64 { u64::MAX } else { (1u64 << b) - 1 };
    hi & !((1u64 << (a + 1)) - 1)
}
