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
        let list: Vec<(u8, BlockadeKind, bool)> = bs
            .iter()
            .filter_map(|b| {
                self.small(layer, &b.length, 1, 62, "a blockade length")
                    .map(|n| (n, b.of, b.where_runs))
            })
            .collect();
        Some((Key::Blockade, Setting::Blockades(list)))
    }

    /// `blockade at half the throw: 3 any in one row, on 4, 6` (LJ-4).
    pub(super) fn lower_halfway(
        &mut self,
        layer: usize,
        length: &ast::Spanned<u32>,
        throws: &[ast::Spanned<u32>],
    ) -> Option<(Key, Setting)> {
        // Every value is checked, so that each mistake is reported.
        let length = self.small(layer, length, 1, 62, "a blockade length");
        let throws: Vec<Option<u8>> = throws
            .iter()
            .map(|t| self.small(layer, t, 1, 31, "a throw value"))
            .collect();
        let throws = throws.into_iter().collect::<Option<Vec<u8>>>()?;
        Some((
            Key::HalfwayBlockade,
            Setting::Halfway {
                length: length?,
                throws,
            },
        ))
    }

    /// `blockade on forward moves: onto 26 passing inner of run; otherwise
    /// passing run >= 2`.
    pub(super) fn lower_target_blockade(
        &mut self,
        layer: usize,
        cases: &[ast::TargetCaseAst],
        clause: &str,
    ) -> Option<(Key, Setting)> {
        // Every case is lowered, so that each mistake is reported.
        let cases: Vec<Option<TargetCase>> = cases
            .iter()
            .map(|c| {
                let onto = match &c.onto {
                    None => None,
                    Some(ast::TargetOnto::Squares(s)) => {
                        Some(Onto::Squares(self.squares(layer, s)))
                    }
                    Some(ast::TargetOnto::Pred(p)) => {
                        Some(Onto::Pred(self.pred(layer, p, clause)?))
                    }
                };
                Some(TargetCase {
                    onto,
                    passing: self.pred(layer, &c.passing, clause)?,
                })
            })
            .collect();
        let cases = cases.into_iter().collect::<Option<Vec<_>>>()?;
        Some((
            Key::TargetBlockade,
            Setting::TargetBlockade(TargetBlockade {
                cases,
                clause: clause.to_string(),
            }),
        ))
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
            PredAst::EndOfRun => Pred::EndOfRun { clause },
            PredAst::InnerOfRun => Pred::InnerOfRun { clause },
            PredAst::On(set) => Pred::OnSquare {
                squares: self.squares(layer, set),
                clause,
            },
            PredAst::Taken(set) => Pred::Taken {
                squares: self.squares(layer, set),
                clause,
            },
            PredAst::OwnerSkips => Pred::OwnerSkips { clause },
            // The rows of the board are known once the declarations are
            // merged: `build_protection` fills the masks in.
            PredAst::OwnerBeside => Pred::OwnerBeside {
                before: 0,
                after: 0,
                clause,
            },
            PredAst::GroupAtLeast(n) => Pred::Group {
                min: self.small(layer, n, 1, 63, "a group size")?,
                clause,
            },
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
    let row_len = match m.setting(Key::Board) {
        Some(Setting::Board { row_len, .. }) => (*row_len).max(1),
        _ => 10,
    };
    let mut rule = match m.setting(Key::Protect) {
        Some(Setting::Protect(p)) => p.clone(),
        _ => None,
    };
    if let Some(p) = &mut rule {
        fill_rows(p, len, row_len);
    }
    let (run_squares, run_except) = match m.setting(Key::Runs) {
        Some(Setting::Runs(s, except)) => (*s, *except),
        _ => (SquareSet::range(1, len), SquareSet::EMPTY),
    };
    Protection {
        rule,
        run_squares,
        run_except,
    }
}

/// Fills in the row masks of `owner beside in row` (LJ-5) for a board of
/// `len` squares in rows of `row_len`.
fn fill_rows(p: &mut Pred, len: u8, row_len: u8) {
    match p {
        Pred::OwnerBeside { before, after, .. } => {
            *before = 0;
            *after = 0;
            for s in 1..=len.min(62) {
                let first = (s - 1) % row_len == 0;
                let last = s % row_len == 0 || s == len;
                if !first {
                    *before |= 1 << s;
                }
                if !last {
                    *after |= 1 << s;
                }
            }
        }
        Pred::And(ps) | Pred::Or(ps) => ps.iter_mut().for_each(|q| fill_rows(q, len, row_len)),
        Pred::Not(q) => fill_rows(q, len, row_len),
        _ => {}
    }
}

/// The blockade on forward moves by target, if declared.
pub(super) fn build_target_blockade(m: &Merged) -> Option<TargetBlockade> {
    match m.get(Key::TargetBlockade) {
        Some(Item {
            setting: Setting::TargetBlockade(b),
            ..
        }) => Some(b.clone()),
        _ => None,
    }
}

/// The blockade at half the throw (LJ-4), if declared.
pub(super) fn build_halfway(m: &Merged) -> Option<HalfwayBlockade> {
    match m.get(Key::HalfwayBlockade) {
        Some(Item {
            setting: Setting::Halfway { length, throws },
            clause,
            ..
        }) => Some(HalfwayBlockade {
            length: *length,
            throws: throws.iter().fold(0, |m, &v| m | 1 << v),
            clause: clause.clone(),
        }),
        _ => None,
    }
}

pub(super) fn build_blockades(m: &Merged, len: u8) -> Vec<Blockade> {
    // `where runs count`: the squares of `runs count on`, or the track.
    let run_squares = match m.setting(Key::Runs) {
        Some(Setting::Runs(s, _)) => *s,
        _ => SquareSet::range(1, len),
    };
    match m.get(Key::Blockade) {
        Some(Item {
            setting: Setting::Blockades(bs),
            clause,
            ..
        }) => bs
            .iter()
            .map(|&(length, of, where_runs)| Blockade {
                length,
                of,
                within: where_runs.then_some(run_squares),
                clause: clause.clone(),
            })
            .collect(),
        _ => Vec::new(),
    }
}
