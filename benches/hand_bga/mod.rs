//! A hand-written engine of exactly the `bga` rule set (docs/sources/bga.md, "Default
//! readings, move by move" and P-5), written from the rules and not from
//! `src/engine`. It exists for two reasons only: as the yardstick of the
//! `throughput` benchmark (how fast can one rule set go when every rule is
//! hard-coded?) and as the second opinion of the differential test
//! (`tests/senet/differential.rs`). The product never uses it.
//!
//! Stage: a position (two `u32` bitboards, bit `s` = square `s`) + a throw →
//! the legal moves in a fixed buffer → `play`. Square numbers are hard-coded
//! here on purpose: that is what "hand-written" means.
//!
//! The rules, as implemented:
//! - values k → k, 0 → 5; throws of 1, 4, 5 give another throw (B-4, B-5);
//!   White starts;
//! - a forward move is compulsory when one exists (B-8), else a backward move
//!   by the throw from 1..26, never below 1, same landing rules (B-9, A-9),
//!   else `pass` and the turn ends, a pending extra throw lost (B-10, A-1);
//! - never onto one's own piece; onto an opposing piece: a swap, unless it
//!   is in a run of two or more of its colour, on any squares (B-6, B-7);
//! - no forward move may pass 26 (B-11); from 26: 1 → 27, 2 → 28, 3 → 29,
//!   4 → 30, 5 → off, whenever the piece got there (P-5);
//! - from 26 onto a lone opposing piece on 28..30 with 27 empty: that piece
//!   goes to 27 and the mover takes its square (B-15); it is never swapped,
//!   so with 27 taken there is no such move;
//! - from 26 onto a protected opposing piece on 28..30 with 27 empty, when no
//!   other forward move exists (bear-offs included): the mover goes to 27
//!   instead, `2:26-27` (B-13); it counts as a forward move;
//! - a piece on 27 stays; while its owner has one there, their other pieces
//!   cannot move: each unit is either `0:27-15` (15 empty; the turn ends) or
//!   a throw: 4 bears it off (`4+:27-off`, the turn goes on), anything else
//!   is `pass` and the turn ends (B-12, A-8);
//! - 28 bears off with 3, 29 with 2, 30 with any throw; they never move
//!   otherwise (B-14);
//! - the first side to bear off all five wins.

use std::fmt;

/// Squares 1..=30.
const BOARD: u32 = 0x7FFF_FFFE;
const SQ15: u32 = 1 << 15;
const SQ26: u32 = 1 << 26;
const SQ27: u32 = 1 << 27;
const SQ28: u32 = 1 << 28;
const SQ29: u32 = 1 << 29;
const SQ30: u32 = 1 << 30;
/// Bit `v`: a throw of value `v` gives another throw.
const EXTRA: u32 = (1 << 1) | (1 << 4) | (1 << 5);
/// Stick count k (marked sides up) → throw value.
pub const VALUE: [u8; 5] = [5, 1, 2, 3, 4];
/// The square a borne-off piece is written as going to.
pub const OFF: u8 = 31;

/// Squares `1..=n` as bits.
#[inline(always)]
const fn upto(n: u32) -> u32 {
    ((1u64 << (n + 1)) - 2) as u32
}

#[inline(always)]
pub fn gives_extra(throw: u8) -> bool {
    EXTRA & (1 << throw) != 0
}

/// A position between two units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pos {
    /// `[white, black]` bitboards, bit `s` = square `s`.
    pub bb: [u32; 2],
    /// Pieces borne off, `[white, black]`.
    pub off: [u8; 2],
    /// 0 = White, 1 = Black.
    pub side: u8,
    /// The side to move is mid-turn with a pending throw.
    pub extra: bool,
    /// Turn number (the round: increases after Black's turn ends).
    pub turn: u32,
}

/// What a unit is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A piece moves along the track (forward, backward, or into 27).
    Move,
    /// A piece leaves the board.
    Off,
    /// Threw and did not move; the turn ends.
    Pass,
    /// `0:27-15`: no throw; the turn ends.
    Release,
}

/// A unit: a throw and what was done with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Mv {
    pub kind: Kind,
    pub throw: u8,
    pub from: u8,
    pub to: u8,
    /// Where the hit opposing piece goes (the mover's square, or 27 by
    /// B-15); 0 when nothing is hit.
    pub hit_to: u8,
}

impl Mv {
    #[inline(always)]
    const fn step(throw: u8, from: u8, to: u8, hit_to: u8) -> Mv {
        Mv {
            kind: Kind::Move,
            throw,
            from,
            to,
            hit_to,
        }
    }
    #[inline(always)]
    const fn off(throw: u8, from: u8) -> Mv {
        Mv {
            kind: Kind::Off,
            throw,
            from,
            to: OFF,
            hit_to: 0,
        }
    }
    #[inline(always)]
    const fn pass(throw: u8) -> Mv {
        Mv {
            kind: Kind::Pass,
            throw,
            from: 0,
            to: 0,
            hit_to: 0,
        }
    }
    pub const RELEASE: Mv = Mv {
        kind: Kind::Release,
        throw: 0,
        from: 27,
        to: 15,
        hit_to: 0,
    };
}

impl fmt::Display for Mv {
    /// Canonical SGN (docs/sgn.md): `3:12-15`, `4+:9x12`, `2:29-off`,
    /// `0:27-15`, `4+:pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind == Kind::Release {
            return f.write_str("0:27-15");
        }
        write!(
            f,
            "{}{}:",
            self.throw,
            if gives_extra(self.throw) { "+" } else { "" }
        )?;
        match self.kind {
            Kind::Pass => f.write_str("pass"),
            Kind::Off => write!(f, "{}-off", self.from),
            _ => write!(
                f,
                "{}{}{}",
                self.from,
                if self.hit_to != 0 { 'x' } else { '-' },
                self.to
            ),
        }
    }
}

/// A fixed buffer of units: five pieces give at most five moves.
#[derive(Clone, Copy)]
pub struct Moves {
    pub len: usize,
    pub buf: [Mv; 8],
}

impl Default for Moves {
    fn default() -> Moves {
        Moves {
            len: 0,
            buf: [Mv::pass(0); 8],
        }
    }
}

impl Moves {
    #[inline(always)]
    fn push(&mut self, m: Mv) {
        self.buf[self.len] = m;
        self.len += 1;
    }
    pub fn as_slice(&self) -> &[Mv] {
        &self.buf[..self.len]
    }
}

impl Pos {
    /// White on 1,3,5,7,9, Black on 2,4,6,8,10, White to move (B-2, A-7).
    pub const START: Pos = Pos {
        bb: [0b010_1010_1010, 0b101_0101_0100],
        off: [0, 0],
        side: 0,
        extra: false,
        turn: 1,
    };

    /// The winner (0 = White, 1 = Black), once one side has borne off all five.
    #[inline(always)]
    pub fn winner(&self) -> Option<u8> {
        if self.off[0] == 5 {
            Some(0)
        } else if self.off[1] == 5 {
            Some(1)
        } else {
            None
        }
    }

    /// The unit due without a throw: `0:27-15` when the side to move has a
    /// piece on 27 and 15 is empty (B-12a).
    #[inline(always)]
    pub fn release(&self) -> Option<Mv> {
        let me = self.bb[self.side as usize];
        let occ = self.bb[0] | self.bb[1];
        (me & SQ27 != 0 && occ & SQ15 == 0).then_some(Mv::RELEASE)
    }

    /// The legal units for `throw` (1..=5), in ascending order of the square
    /// moved from. Never empty: when nothing moves it is the forced pass.
    #[inline]
    pub fn legal(&self, throw: u8, out: &mut Moves) {
        out.len = 0;
        let t = throw as u32;
        let me = self.bb[self.side as usize];
        let opp = self.bb[(self.side ^ 1) as usize];

        // The water (B-12b): only the piece on 27 is dealt with.
        if me & SQ27 != 0 {
            out.push(if throw == 4 {
                Mv::off(throw, 27)
            } else {
                Mv::pass(throw)
            });
            return;
        }

        // Opposing pieces in a run of two or more (B-7, on any squares).
        let prot = opp & ((opp << 1) | (opp >> 1));
        let closed = me | prot;
        let water_free = (me | opp) & SQ27 == 0;

        // Forward moves along the track, landing on 26 at the furthest (B-11).
        let mut m = me & upto(26 - t) & !(closed >> t);
        while m != 0 {
            let from = m.trailing_zeros();
            let to = from + t;
            let hit = if opp & (1 << to) != 0 { from as u8 } else { 0 };
            out.push(Mv::step(throw, from as u8, to as u8, hit));
            m &= m - 1;
        }
        // From 26 (B-11, B-13, B-15).
        let mut divert = false;
        if me & SQ26 != 0 {
            if throw == 5 {
                out.push(Mv::off(throw, 26));
            } else {
                let to = 26 + t;
                let bit = 1u32 << to;
                if me & bit != 0 {
                    // own piece: no move
                } else if opp & bit == 0 {
                    out.push(Mv::step(throw, 26, to as u8, 0));
                } else if prot & bit != 0 {
                    divert = to >= 28 && water_free;
                } else if to >= 28 && water_free {
                    out.push(Mv::step(throw, 26, to as u8, 27));
                } else if to >= 28 {
                    // never swapped (B-15), and 27 is taken: no move
                } else {
                    out.push(Mv::step(throw, 26, to as u8, 26));
                }
            }
        }
        // The houses that only bear off (B-14).
        if me & SQ28 != 0 && throw == 3 {
            out.push(Mv::off(throw, 28));
        }
        if me & SQ29 != 0 && throw == 2 {
            out.push(Mv::off(throw, 29));
        }
        if me & SQ30 != 0 {
            out.push(Mv::off(throw, 30));
        }
        if out.len != 0 {
            return;
        }
        if divert {
            out.push(Mv::step(throw, 26, 27, 0));
            return;
        }

        // Backward moves (B-9): from 1..26, never below 1.
        let mut m = me & upto(26) & !upto(t) & !(closed << t);
        while m != 0 {
            let from = m.trailing_zeros();
            let to = from - t;
            let hit = if opp & (1 << to) != 0 { from as u8 } else { 0 };
            out.push(Mv::step(throw, from as u8, to as u8, hit));
            m &= m - 1;
        }
        if out.len == 0 {
            out.push(Mv::pass(throw));
        }
    }

    /// Plays a unit generated for this position.
    #[inline]
    pub fn play(&self, m: &Mv) -> Pos {
        let mut p = *self;
        let s = self.side as usize;
        let ends = match m.kind {
            Kind::Move => {
                p.bb[s] ^= (1 << m.from) | (1 << m.to);
                if m.hit_to != 0 {
                    p.bb[s ^ 1] ^= (1 << m.to) | (1 << m.hit_to);
                }
                !gives_extra(m.throw)
            }
            Kind::Off => {
                p.bb[s] ^= 1 << m.from;
                p.off[s] += 1;
                !gives_extra(m.throw) || p.off[s] == 5
            }
            Kind::Pass => true,
            Kind::Release => {
                p.bb[s] ^= SQ27 | SQ15;
                true
            }
        };
        if ends {
            p.extra = false;
            p.turn += s as u32;
            p.side ^= 1;
        } else {
            p.extra = true;
        }
        debug_assert_eq!(p.bb[0] & p.bb[1], 0);
        debug_assert_eq!((p.bb[0] | p.bb[1]) & !BOARD, 0);
        p
    }
}
