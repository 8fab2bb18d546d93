//! Blockades: runs of pieces that no move may pass over (K-10, R-5).
//!
//! The model value with its clauses, and its words: how `senet rules show`
//! says it, its token in `senet rules summary`, and how a move it refuses
//! reads.

use super::words::*;
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
