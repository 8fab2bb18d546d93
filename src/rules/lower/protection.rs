//! Lowering protection (when an opposing piece cannot be hit: a predicate
//! over its run, its square and its owner, composed with and/or/not), the
//! squares on which runs count (T-11), and blockades.

use super::*;

impl Lowerer<'_> {
    /// `protect when run >= 2 [K-9a]`, or `protect nothing`.
    pub(super) fn lower_protect(
        &mut self,
        layer: usize,
        p: &Option<PredNode>,
        clause: &str,
    ) -> Option<(Key, Setting)> {
        let pred = match p {
            None => None,
            Some(p) => Some(self.pred(layer, p, clause)?),
        };
        Some((Key::Protect, Setting::Protect(pred)))
    }

    /// `blockade 3 opposing, 4 any`.
    pub(super) fn lower_blockades(
        &mut self,
        layer: usize,
        bs: &[ast::BlockadeAst],
    ) -> Option<(Key, Setting)> {
        let list: Vec<(u8, BlockadeKind)> = bs
            .iter()
            .filter_map(|b| {
                self.small(layer, &b.length, 1, 62, "a blockade length")
                    .map(|n| (n, b.of))
            })
            .collect();
        Some((Key::Blockade, Setting::Blockades(list)))
    }

    pub(super) fn pred(&mut self, layer: usize, p: &PredNode, inherited: &str) -> Option<Pred> {
        let own = p
            .clauses
            .iter()
            .map(|c| c.node.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        let clause = if own.is_empty() {
            inherited.to_string()
        } else {
            own
        };
        let run_len =
            |lw: &mut Self, n: &ast::Spanned<u32>| lw.small(layer, n, 1, 63, "a run length");
        Some(match &p.pred {
            PredAst::RunAtLeast(n) => {
                let n = run_len(self, n)?;
                Pred::RunLength {
                    lengths: u64::MAX << n,
                    clause,
                }
            }
            PredAst::RunExactly(n) => Pred::RunLength {
                lengths: 1 << run_len(self, n)?,
                clause,
            },
            PredAst::RunIn(ns) => {
                let mut lengths = 0u64;
                for n in ns {
                    lengths |= 1 << run_len(self, n)?;
                }
                Pred::RunLength { lengths, clause }
            }
            PredAst::Middle => Pred::Middle { clause },
            PredAst::On(set) => Pred::OnSquare {
                squares: self.squares(layer, set),
                clause,
            },
            PredAst::Taken(set) => Pred::Taken {
                squares: self.squares(layer, set),
                clause,
            },
            PredAst::OwnerSkips => Pred::OwnerSkips { clause },
            PredAst::OwnerOn(set) => Pred::OwnerOn {
                squares: self.squares(layer, set),
                clause,
            },
            PredAst::And(ps) => Pred::And(
                ps.iter()
                    .map(|q| self.pred(layer, q, &clause))
                    .collect::<Option<_>>()?,
            ),
            PredAst::Or(ps) => Pred::Or(
                ps.iter()
                    .map(|q| self.pred(layer, q, &clause))
                    .collect::<Option<_>>()?,
            ),
            PredAst::Not(q) => Pred::Not(Box::new(self.pred(layer, q, &clause)?)),
        })
    }
}

/// The protection predicate, and the squares runs count on (every square
/// unless declared).
pub(super) fn build_protection(m: &Merged, len: u8) -> Protection {
    Protection {
        rule: match m.setting(Key::Protect) {
            Some(Setting::Protect(p)) => p.clone(),
            _ => None,
        },
        run_squares: match m.setting(Key::Runs) {
            Some(Setting::Squares(s)) => *s,
            _ => SquareSet::range(1, len),
        },
    }
}

pub(super) fn build_blockades(m: &Merged) -> Vec<Blockade> {
    match m.get(Key::Blockade) {
        Some(Item {
            setting: Setting::Blockades(bs),
            clause,
            ..
        }) => bs
            .iter()
            .map(|&(length, of)| Blockade {
                length,
                of,
                clause: clause.clone(),
            })
            .collect(),
        _ => Vec::new(),
    }
}
