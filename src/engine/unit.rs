//! `Unit`: one throw and what was done with it, as the engine generates and
//! plays it. Compact and `Copy` so that move generation fills a caller's
//! buffer without allocating.

use std::fmt;

/// What kind of unit this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnitKind {
    /// A piece moved (forward or backward, possibly bearing off).
    Move,
    /// A move without a throw (B-12a: `0:27-15`).
    NoThrow,
    /// Threw and did not move.
    Pass,
    /// The rules took this turn away.
    Skip,
}

/// A unit. Squares are track numbers; `to == len + 1` means borne off.
/// Square 0 is the hand: `from == 0` enters a piece (`1:hand-1`), and a move
/// with `to == 0` takes one back to the hand (`3:1-hand`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Unit {
    pub kind: UnitKind,
    /// Throw value (0 for `NoThrow` and `Skip`).
    pub throw: u8,
    pub from: u8,
    /// Where the move ends as written: the real destination after truncation
    /// or diversion, before relocation.
    pub to: u8,
    /// Where the rules moved the piece on to after landing (`=15`), if anywhere.
    pub relocated: Option<Relocated>,
    /// The target held an opposing piece (written `x`).
    pub hit: bool,
    /// The throw gives another throw (written `+`).
    pub extra_mark: bool,
    /// `to` is the last square plus one.
    pub off: bool,
    /// For a pass: nothing else was legal with this throw. Not written in
    /// SGN; it decides what happens to a pending extra throw.
    pub forced: bool,
    /// The second part of a split throw (PC-3), played after the first.
    pub split: Option<Part>,
    /// The parts after the second, for a throw split into any number of
    /// parts (`5:12-13:13-14:20-23`); empty otherwise.
    pub more: MoreParts,
}

/// The third and later parts of a throw split into any number of parts,
/// packed so that a unit stays small: at most [`MoreParts::CAPACITY`], each
/// a move along the track, off the board or into the water's hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct MoreParts([u16; MoreParts::CAPACITY]);

impl MoreParts {
    /// Parts a unit holds beyond the first two.
    pub const CAPACITY: usize = 4;

    /// Whether `part` fits the packing: squares below 64, a relocation (if
    /// any) to the hand only.
    pub fn fits(part: &Part) -> bool {
        part.from < 64 && part.to < 64 && matches!(part.relocated, None | Some(Relocated::Hand))
    }
    pub fn len(&self) -> usize {
        self.0.iter().take_while(|&&w| w != 0).count()
    }
    pub fn is_empty(&self) -> bool {
        self.0[0] == 0
    }
    /// Adds a part; false when full or when the part does not fit.
    pub fn push(&mut self, part: &Part) -> bool {
        let n = self.len();
        if n == Self::CAPACITY || !Self::fits(part) {
            return false;
        }
        self.0[n] = Self::pack(part);
        true
    }
    /// The packed word of a part that [`fits`](Self::fits).
    #[inline(always)]
    fn pack(part: &Part) -> u16 {
        1 | u16::from(part.from) << 1
            | u16::from(part.to) << 7
            | u16::from(part.hit) << 13
            | u16::from(part.off) << 14
            | u16::from(part.relocated.is_some()) << 15
    }
    /// Keeps the first `n` parts and removes the others.
    #[inline(always)]
    pub(crate) fn truncate(&mut self, n: usize) {
        // (A fixed loop the compiler unrolls, not a call to clear memory.)
        for i in 0..Self::CAPACITY {
            if i >= n {
                self.0[i] = 0;
            }
        }
    }
    /// Sets the part at `index` (below [`CAPACITY`](Self::CAPACITY)) to a
    /// part that [`fits`](Self::fits); the parts before it must be set.
    /// For a generator that writes a unit part by part, overwriting the
    /// last part for each choice of it.
    #[inline(always)]
    pub(crate) fn set(&mut self, index: usize, part: &Part) {
        debug_assert!(Self::fits(part) && self.0[..index].iter().all(|&w| w != 0));
        self.0[index] = Self::pack(part);
    }
    /// The packed words, each 0 (no part) or a part's bits: 1, then `from`
    /// (6 bits), `to` (6 bits), `hit`, `off`, relocated to the hand.
    #[inline(always)]
    pub(crate) fn words(&self) -> [u16; Self::CAPACITY] {
        self.0
    }
    /// The parts, in the order played.
    pub fn iter(&self) -> impl Iterator<Item = Part> + '_ {
        self.0.iter().take_while(|&&w| w != 0).map(|&w| Part {
            from: (w >> 1 & 63) as u8,
            to: (w >> 7 & 63) as u8,
            hit: w >> 13 & 1 != 0,
            off: w >> 14 & 1 != 0,
            relocated: (w >> 15 != 0).then_some(Relocated::Hand),
        })
    }
}

/// The second part of a split throw: another piece moved by the rest of the
/// throw (`5:12-14:20-23`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Part {
    pub from: u8,
    pub to: u8,
    pub relocated: Option<Relocated>,
    pub hit: bool,
    pub off: bool,
}

impl Part {
    /// A part that bears the piece on `from` off, to `off`, the square
    /// past the board.
    pub(crate) fn bear_off(from: u8, off: u8) -> Part {
        Part {
            from,
            to: off,
            relocated: None,
            hit: false,
            off: true,
        }
    }

    /// A part from `from` onto the empty square `to`, which sends the
    /// piece back to its owner's hand (PC-7).
    pub(crate) fn to_hand(from: u8, to: u8) -> Part {
        Part {
            from,
            to,
            relocated: Some(Relocated::Hand),
            hit: false,
            off: false,
        }
    }
}

/// Where a relocated piece ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Relocated {
    Square(u8),
    /// Joined the dead-piece queue (`=Q`).
    Queue,
    /// Went back to its owner's hand (`=hand`).
    Hand,
}

impl Unit {
    pub fn pass(throw: u8, extra_mark: bool, forced: bool) -> Unit {
        Unit {
            kind: UnitKind::Pass,
            throw,
            from: 0,
            to: 0,
            relocated: None,
            hit: false,
            extra_mark,
            off: false,
            forced,
            split: None,
            more: MoreParts::default(),
        }
    }
    /// A move of the piece on `from` to `to` (0: back to the hand; from 0:
    /// an entry from the hand), hitting the piece there when `hit`.
    #[inline]
    pub fn step(throw: u8, from: u8, to: u8, hit: bool, extra_mark: bool) -> Unit {
        Unit {
            kind: UnitKind::Move,
            throw,
            from,
            to,
            relocated: None,
            hit,
            extra_mark,
            off: false,
            forced: false,
            split: None,
            more: MoreParts::default(),
        }
    }
    /// The piece on `from` leaves the board; `off` is the last square plus one.
    pub fn bear_off(throw: u8, from: u8, off: u8, extra_mark: bool) -> Unit {
        Unit {
            kind: UnitKind::Move,
            throw,
            from,
            to: off,
            relocated: None,
            hit: false,
            extra_mark,
            off: true,
            forced: false,
            split: None,
            more: MoreParts::default(),
        }
    }
    pub fn skip() -> Unit {
        Unit {
            kind: UnitKind::Skip,
            throw: 0,
            from: 0,
            to: 0,
            relocated: None,
            hit: false,
            extra_mark: false,
            off: false,
            forced: false,
            split: None,
            more: MoreParts::default(),
        }
    }
    /// Every part of the unit in the order played: the first, the second
    /// of a split, and the parts after it.
    pub fn parts(&self) -> impl Iterator<Item = Part> + '_ {
        std::iter::once(self.first_part())
            .chain(self.split)
            .chain(self.more.iter())
    }
    /// This unit with `part` as its part number `index` (0: the first,
    /// 1: the second of a split, then the later parts, which must fit
    /// [`MoreParts`]); the parts before it must be set. Parts after it
    /// stay as they were.
    #[inline(always)]
    pub(crate) fn with_part(self, index: usize, part: &Part) -> Unit {
        let mut u = self;
        match index {
            0 => {
                u.from = part.from;
                u.to = part.to;
                u.relocated = part.relocated;
                u.hit = part.hit;
                u.off = part.off;
            }
            1 => u.split = Some(*part),
            _ => u.more.set(index - 2, part),
        }
        u
    }
    /// Keeps the unit's first `n` parts (at least 1) and removes the
    /// parts after them.
    #[inline(always)]
    pub(crate) fn truncate(&mut self, n: usize) {
        if n <= 1 {
            self.split = None;
        }
        self.more.truncate(n.saturating_sub(2));
    }
    /// The part this unit's first piece plays, as a [`Part`].
    pub fn first_part(&self) -> Part {
        Part {
            from: self.from,
            to: self.to,
            relocated: self.relocated,
            hit: self.hit,
            off: self.off,
        }
    }
}

impl fmt::Display for Unit {
    /// The canonical SGN form: `3:12-15`, `4+:9x12`, `2:29-off`, `2:25-27=15`,
    /// `0:27-15`, `0:30-off`, `3:pass`, `skip`, `1:hand-1`, `5:12-14:20-23`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            UnitKind::Skip => f.write_str("skip"),
            UnitKind::NoThrow if self.off => write!(f, "0:{}-off", self.from),
            UnitKind::NoThrow => {
                write!(f, "0:{}-{}", self.from, self.to)?;
                write_reloc(f, self.relocated)
            }
            UnitKind::Pass => write!(
                f,
                "{}{}:pass",
                self.throw,
                if self.extra_mark { "+" } else { "" }
            ),
            UnitKind::Move => {
                write!(
                    f,
                    "{}{}:",
                    self.throw,
                    if self.extra_mark { "+" } else { "" }
                )?;
                write_part(f, &self.first_part())?;
                if let Some(part) = &self.split {
                    f.write_str(":")?;
                    write_part(f, part)?;
                }
                for part in self.more.iter() {
                    f.write_str(":")?;
                    write_part(f, &part)?;
                }
                Ok(())
            }
        }
    }
}

/// `12-15`, `9x12`, `29-off`, `25-27=15`, `hand-1`, `1-hand`.
fn write_part(f: &mut fmt::Formatter<'_>, part: &Part) -> fmt::Result {
    if part.from == 0 {
        f.write_str("hand")?;
    } else {
        write!(f, "{}", part.from)?;
    }
    f.write_str(if part.hit { "x" } else { "-" })?;
    if part.off {
        f.write_str("off")?;
    } else if part.to == 0 {
        f.write_str("hand")?;
    } else {
        write!(f, "{}", part.to)?;
    }
    write_reloc(f, part.relocated)
}

fn write_reloc(f: &mut fmt::Formatter<'_>, r: Option<Relocated>) -> fmt::Result {
    match r {
        Some(Relocated::Square(s)) => write!(f, "={s}"),
        Some(Relocated::Queue) => f.write_str("=Q"),
        Some(Relocated::Hand) => f.write_str("=hand"),
        None => Ok(()),
    }
}
