//! Entry from the hand (PC-1, PC-2): the square a piece enters on, the
//! throws that enter a piece, and the throw that entering may give.
//!
//! The model value with its clauses, and its words: how `senet rules show`
//! says it, its token in `senet rules summary`, and how a move it refuses
//! reads.

use super::words::*;
use crate::engine::*;

/// How a piece in hand enters the board (PC-2).
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The square a piece enters on; it must be empty.
    pub square: u8,
    /// Throws (bit `v`) that enter a piece; only a whole throw enters.
    pub throws: u32,
    /// Entering gives another throw, which must be used by the entered piece.
    pub bound_extra: bool,
    pub clause: Clause,
}

// Words.

/// `rules show`: entry as declared, with its throws in the order written.
pub fn sentence(names: &Names, square: u8, throws: &[u8], bound: bool) -> String {
    format!(
        "A throw of {} (whole, never a part of a split throw) may enter a piece from the hand onto {} when it is empty{}.",
        list(throws),
        names.sq(square),
        if bound {
            "; entering gives another throw, which must move the entered piece (alone, or as one part of a split)"
        } else {
            ""
        }
    )
}

impl Entry {
    /// The `rules summary` line.
    pub fn token(&self) -> String {
        format!(
            "enter on {} with {}{}{}",
            self.square,
            bitlist(self.throws),
            if self.bound_extra {
                ", bound extra"
            } else {
                ""
            },
            cl(&self.clause)
        )
    }
}

/// A move refused because the pending throw is bound to another piece:
/// the one that entered (PC-2) or the one a square bound it to.
pub(crate) fn refused_bound(cx: &Refused) -> Said {
    let p = cx.position;
    let sentence = match cx.rules.entry() {
        Some(e) if e.bound_extra && p.bound == Some(e.square) => format!(
            "the throw that entering gives must move the piece that entered on {}, alone or as one part of a split",
            cx.sq(e.square)
        ),
        _ => format!(
            "the pending throw must be used by the piece on {}",
            p.bound.map(|s| cx.sq(s)).unwrap_or_default()
        ),
    };
    Said::new("the throw belongs to another piece", sentence)
}

// The generator's side: stage 9's entries from the hand.

/// Whether stage 9 runs in the rule set: it enters pieces from the hand
/// (PC-2) or splits throws (PC-3).
pub(crate) fn hand_stage(rules: &Ruleset) -> bool {
    rules.entry.is_some() || rules.movement.split || rules.movement.split_any
}

impl Ruleset {
    /// PC-2: entering a piece from the hand with a whole throw, onto an
    /// empty entry square.
    pub(crate) fn entries<const WHY: bool>(
        &self,
        pos: &Position,
        throw: u8,
        extra_mark: bool,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
    ) {
        let Some(entry) = &self.entry else { return };
        if !WHY {
            // Without a branch on whether the piece enters, which follows
            // the throws (in a playout, a branch mispredicted about as
            // often as a throw enters): the unit is written, and kept when
            // it is legal.
            let to = entry.square;
            let taken = (pos.pieces[0].0 | pos.pieces[1].0) >> to & 1 != 0;
            let enters = (pos.hand[pos.to_move.index()] != 0)
                & (entry.throws & (1 << throw) != 0)
                & pos.bound.is_none()
                & !taken;
            let len = out.len();
            out.push(Unit::step(throw, 0, to, false, extra_mark));
            out.truncate(len + usize::from(enters));
            return;
        }
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
            None => out.push(Unit::step(throw, 0, to, false, extra_mark)),
        }
    }
}

// The replay gloss.

/// A piece entered from the hand (PC-2).
pub(crate) fn glossed(cx: &PlayedUnit, out: &mut Vec<String>) {
    out.push(format!(
        "{}; enters a piece from the hand on {}",
        cx.throw,
        cx.sq(cx.unit.to)
    ));
}
