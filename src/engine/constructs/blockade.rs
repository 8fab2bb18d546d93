//! Blockades: runs of pieces that no move may pass over (K-10, R-5).
//!
//! The model value with its clauses, the masks of the blocked moves for
//! the generator's stages, and its words: how `senet rules show`
//! says it, its token in `senet rules summary`, and how a move it refuses
//! reads.

use super::words::*;
use crate::engine::mask_of;
use crate::engine::*;

/// A blockade: a run of `length` pieces that no move may pass over.
#[derive(Debug, Clone, PartialEq)]
pub struct Blockade {
    pub length: u8,
    pub of: BlockadeKind,
    pub clause: Clause,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockadeKind {
    /// Pieces of the mover's opponent (K-10).
    Opposing,
    /// Pieces all of one colour, either colour.
    OneColour,
    /// Any pieces, mixed colours (R-5b).
    Any,
}

// Words.

/// `rules show`: the blockades declared on one line.
pub fn sentence(blockades: &[(u8, BlockadeKind)]) -> String {
    if blockades.is_empty() {
        return "No blockades.".into();
    }
    blockades
        .iter()
        .map(|(len, of)| {
            let whose = match of {
                BlockadeKind::Opposing => "opposing pieces",
                BlockadeKind::OneColour => "pieces of one colour (either colour)",
                BlockadeKind::Any => "pieces (any colours)",
            };
            format!("No move may pass over {len} {whose} on consecutive squares.")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

impl Blockade {
    /// The `rules summary` line.
    pub fn token(&self) -> String {
        format!(
            "blockade: {} {:?}{}",
            self.length,
            self.of,
            cl(&self.clause)
        )
    }
}

/// A move refused for passing over the blockade `i` of the rule set.
pub(crate) fn refused(cx: &Refused, i: u8) -> Said {
    let b = &cx.rules.blockades()[i as usize];
    let kind = match b.of {
        BlockadeKind::Opposing => format!("{} {} pieces", b.length, cx.side().other()),
        BlockadeKind::OneColour => format!("{} adjacent pieces of one colour", b.length),
        BlockadeKind::Any => format!("{} adjacent pieces", b.length),
    };
    Said::new(
        "blockade in the way",
        format!(
            "the move from {} passes over {kind} in a row, which block the way",
            cx.refusal.from
        ),
    )
}

// The generator's side: the blockades on a move's path, one move at a time
// (`blocked`, as `attempt` and a bear-off ask) and for every piece at once
// (`blocked_steps`, as the forward and backward stages ask).

impl Ruleset {
    /// The squares from which a move of `step` squares (backward when
    /// `backward`) passes a blockade: some blockade's run of `length`
    /// pieces lies wholly strictly between the two ends, as
    /// `Ruleset::blocked` finds on the move's path.
    pub(crate) fn blocked_steps(&self, me: u64, opp: u64, step: u8, backward: bool) -> u64 {
        /// The first squares of `n` consecutive set bits.
        fn starts(bits: u64, n: u32) -> u64 {
            let mut r = bits;
            for i in 1..n {
                r &= bits >> i;
            }
            r
        }
        let step = step as u32;
        // The loops run to the largest throw whatever this one is, and
        // mask the distances that do not apply: a loop whose length
        // followed the throw would end on a mispredicted branch.
        let max = self.tables.steps.max_throw as u32;
        let mut m = 0;
        for b in &self.blockades {
            let n = b.length as u32;
            if n == 0 {
                continue;
            }
            let r = match b.of {
                BlockadeKind::Opposing => starts(opp, n),
                BlockadeKind::OneColour => starts(opp, n) | starts(me, n),
                BlockadeKind::Any => starts(opp | me, n),
            };
            if r == 0 {
                // No such run on the board (most positions: a test that
                // is nearly always taken the same way).
                continue;
            }
            // Forward from s: a run starting on s+1 ..= s+step-n; backward
            // from s: on s-step+1 ..= s-n. None when n >= step: a run
            // never lies wholly strictly inside the path.
            if backward {
                for d in n..max {
                    m |= (r << d) & mask_of(d < step);
                }
            } else {
                for d in 1..=max.saturating_sub(n) {
                    m |= (r >> d) & mask_of(d + n <= step);
                }
            }
        }
        m
    }
}

impl Ruleset {
    /// The first blockade found on `path`, as an index into `blockades`.
    pub(crate) fn blocked(&self, pos: &Position, path: u64) -> Option<u8> {
        let me = pos.pieces[pos.to_move.index()].0 & path;
        let opp = pos.pieces[pos.to_move.other().index()].0 & path;
        for (i, b) in self.blockades.iter().enumerate() {
            let hit = match b.of {
                BlockadeKind::Opposing => has_run(opp, b.length),
                BlockadeKind::OneColour => has_run(opp, b.length) || has_run(me, b.length),
                BlockadeKind::Any => has_run(opp | me, b.length),
            };
            if hit {
                return Some(i as u8);
            }
        }
        None
    }
}

/// Whether `bits` holds `n` consecutive set bits.
fn has_run(bits: u64, n: u8) -> bool {
    let mut acc = bits;
    for i in 1..n {
        acc &= bits >> i;
    }
    n > 0 && acc != 0
}
