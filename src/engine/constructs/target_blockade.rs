//! Blockades on forward moves that depend on the target: which opposing
//! pieces a forward move may not pass over (strictly between its ends)
//! depends on where it ends, case by case. A case names its targets by
//! squares or by a protection condition the target meets (`onto inner of
//! run`); the first case whose targets include the move's target decides,
//! else the `otherwise` case. The pieces a case forbids passing are those
//! for which its condition holds, a protection condition over the passed
//! piece (`passing run = 2`). Backward moves are never concerned.
//!
//! The model value with its clauses, the test `attempt` and a bear-off
//! make (the forward stage leaves every forward move of a rule set with
//! this blockade to `attempt`), and its words: how `senet rules show` says
//! it, its token in `senet rules summary`, and how a move it refuses reads.

use super::words::*;
use crate::engine::*;

/// `blockade on forward moves: onto ... passing ...; otherwise passing ...`.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetBlockade {
    /// The cases in the order written; the last has no `onto`
    /// (`otherwise`).
    pub cases: Vec<TargetCase>,
    pub clause: Clause,
}

/// One case: for a forward move whose target meets `onto` (`None`: every
/// target), no opposing piece for which `passing` holds may stand strictly
/// between its ends.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetCase {
    pub onto: Option<Onto>,
    pub passing: Pred,
}

/// The targets of a case.
#[derive(Debug, Clone, PartialEq)]
pub enum Onto {
    /// One of these squares.
    Squares(SquareSet),
    /// A square on the board for which the condition holds (an empty
    /// square is in no run and has no owner).
    Pred(Pred),
}

// Words.

impl TargetBlockade {
    /// `rules show`.
    pub fn sentence(&self, names: &Names) -> String {
        let cases: Vec<String> = self
            .cases
            .iter()
            .map(|c| {
                let onto = match &c.onto {
                    None => "onto any other square".to_string(),
                    Some(Onto::Squares(s)) => format!("onto {}", names.set(*s)),
                    Some(Onto::Pred(p)) => format!("onto a piece where {}", p.sentence(names)),
                };
                format!("{onto}, one where {}", c.passing.sentence(names))
            })
            .collect();
        format!(
            "A forward move may not pass over (strictly between its ends) an opposing piece as the first case that fits its target says: {}. Backward moves are not concerned.",
            cases.join("; ")
        )
    }

    /// The `rules summary` line.
    pub fn token(&self) -> String {
        let cases: Vec<String> = self
            .cases
            .iter()
            .map(|c| {
                let onto = match &c.onto {
                    None => "otherwise".to_string(),
                    Some(Onto::Squares(s)) => format!("onto {}", set_token(*s)),
                    Some(Onto::Pred(p)) => format!("onto {}", p.token()),
                };
                format!("{onto} passing {}", c.passing.token())
            })
            .collect();
        format!(
            "blockade on forward moves: {}{}",
            cases.join("; "),
            cl(&self.clause)
        )
    }
}

/// A forward move refused for passing over a piece that case `i` forbids
/// passing.
pub(crate) fn refused(cx: &Refused, i: u8) -> Said {
    let why = cx
        .rules
        .target_blockade()
        .and_then(|b| b.cases.get(i as usize))
        .map(|c| {
            c.passing.sentence(&Names {
                houses: cx.rules.houses(),
            })
        })
        .unwrap_or_default();
    Said::new(
        "blockade in the way",
        format!(
            "the move from {} to {} passes over a {} piece where {why}, which blocks a move ending there",
            cx.refusal.from,
            cx.sq(cx.refusal.to),
            cx.side().other()
        ),
    )
}

// The generator's side: the test of one forward move.

impl Ruleset {
    /// The case of the blockade on forward moves that refuses a forward
    /// move ending on `to` (the square past the last for a bear-off) and
    /// passing over `path` (the squares strictly between its ends), as an
    /// index into its cases; `None` when the move passes.
    pub(crate) fn target_blocked(&self, pos: &Position, path: u64, to: u8) -> Option<u8> {
        let b = self.target_blockade.as_ref()?;
        let them = pos.to_move.other();
        let passed = pos.pieces[them.index()].0 & path;
        if passed == 0 {
            return None;
        }
        let on_board = to <= self.board.len;
        let i = b.cases.iter().position(|c| match &c.onto {
            None => true,
            Some(Onto::Squares(s)) => s.contains(to),
            Some(Onto::Pred(p)) => on_board && self.eval(p, pos, to),
        })?;
        (self.pred_mask(&b.cases[i].passing, pos, them) & passed != 0).then_some(i as u8)
    }

    /// The clause of case `i`: the clauses its condition cites.
    pub(crate) fn target_blockade_clause(&self, i: u8) -> Clause {
        self.target_blockade
            .as_ref()
            .and_then(|b| b.cases.get(i as usize))
            .map(|c| c.passing.clauses().join(", "))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::between;

    /// The case is chosen by the target: onto the inner piece 13 the end
    /// 12 of a run of three may be passed; onto the empty 15 or 16 it may
    /// not, nor onto 26 past the inner piece; backward moves are no case.
    #[test]
    fn the_target_chooses_the_case() {
        let rules = crate::rules::load("gym-senet-skiryuk", None, &[]).unwrap();
        let pos = Position::parse("10/WBBB6/10 w 4-2 - 1", 30, 10).unwrap();
        let path = |a: u8, b: u8| between(a, b);
        assert_eq!(rules.target_blocked(&pos, path(11, 13), 13), None);
        assert_eq!(rules.target_blocked(&pos, path(11, 15), 15), Some(2));
        assert_eq!(rules.target_blocked(&pos, path(11, 26), 26), Some(1));
        // Nothing opposing on the way: no case is looked at.
        assert_eq!(rules.target_blocked(&pos, path(15, 20), 20), None);
        let words = rules.target_blockade().unwrap().token();
        assert!(words.starts_with("blockade on forward moves: onto inner-of-run"));
        assert_eq!(rules.target_blockade_clause(0), "GS-4, GS-12b");
    }
}
