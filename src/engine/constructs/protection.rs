//! Protection: when an opposing piece cannot be hit, as a predicate over
//! its run (counted on the squares runs count on, T-11), its square and
//! its owner, composed with and/or/not.
//!
//! The model value with its clauses, and its words: how `senet rules show`
//! says it, its token in `senet rules summary`, and how a move it refuses
//! reads.

use super::words::*;
use crate::engine::*;

/// Protection: when an opposing piece on the target square cannot be hit.
#[derive(Debug, Clone, PartialEq)]
pub struct Protection {
    /// The predicate; `None` means nothing is protected.
    pub rule: Option<Pred>,
    /// Squares on which runs are counted; pieces elsewhere never form or
    /// extend a run (T-11).
    pub run_squares: SquareSet,
}

/// A protection predicate over the target piece, composed with and/or/not.
#[derive(Debug, Clone, PartialEq)]
pub enum Pred {
    /// The length of the target's run (counted on `run_squares`) is in this set
    /// (bit `n` = length `n`).
    RunLength {
        lengths: u64,
        clause: Clause,
    },
    /// The target is the middle piece of its run (odd length).
    Middle {
        clause: Clause,
    },
    /// The target stands on one of these squares.
    OnSquare {
        squares: SquareSet,
        clause: Clause,
    },
    /// Some piece, of either side, stands on one of these squares (KD-9).
    Taken {
        squares: SquareSet,
        clause: Clause,
    },
    /// The target's owner has a piece on one of these squares (KD-9).
    OwnerOn {
        squares: SquareSet,
        clause: Clause,
    },
    /// The target's owner is to miss their next turn (KD-9).
    OwnerSkips {
        clause: Clause,
    },
    And(Vec<Pred>),
    Or(Vec<Pred>),
    Not(Box<Pred>),
}

// Words.

/// `rules show`: the protection declared (`None`: nothing is protected).
pub fn sentence(names: &Names, rule: Option<&Pred>) -> String {
    match rule {
        None => "No piece is protected.".into(),
        Some(p) => format!(
            "An opposing piece cannot be hit when {}.",
            p.sentence(names)
        ),
    }
}

/// `rules show`: where runs count (T-11).
pub fn runs_sentence(names: &Names, squares: SquareSet) -> String {
    format!(
        "Runs are counted on squares {} only; pieces elsewhere never form or extend a run.",
        names.set(squares)
    )
}

/// Run lengths `lengths` (bit `n`): `Some(n)` when they are every length
/// from `n` up.
fn at_least(ls: &[u8]) -> Option<u8> {
    (ls.len() > 1 && ls.windows(2).all(|w| w[1] == w[0] + 1) && ls.last() == Some(&63))
        .then(|| ls[0])
}

fn lengths_of(lengths: u64) -> Vec<u8> {
    (0..64u8).filter(|i| lengths & (1u64 << i) != 0).collect()
}

impl Pred {
    /// The condition in words, after "cannot be hit when".
    pub fn sentence(&self, n: &Names) -> String {
        let paren = |p: &Pred| match p {
            Pred::And(_) | Pred::Or(_) => format!("({})", p.sentence(n)),
            _ => p.sentence(n),
        };
        match self {
            Pred::RunLength { lengths, .. } => {
                let ls = lengths_of(*lengths);
                match at_least(&ls) {
                    Some(k) => format!("it is in a run of {k} or more"),
                    None => format!("it is in a run of {}", list(&ls)),
                }
            }
            Pred::Middle { .. } => "it is the middle piece of its run".into(),
            Pred::OnSquare { squares, .. } => format!("it stands on {}", n.set(*squares)),
            Pred::Taken { squares, .. } => format!("a piece stands on {}", n.set(*squares)),
            Pred::OwnerOn { squares, .. } => {
                format!("its owner has a piece on {}", n.set(*squares))
            }
            Pred::OwnerSkips { .. } => "its owner is to miss their next turn".into(),
            Pred::And(ps) => ps.iter().map(paren).collect::<Vec<_>>().join(" and "),
            Pred::Or(ps) => ps.iter().map(paren).collect::<Vec<_>>().join(" or "),
            Pred::Not(q) => match &**q {
                Pred::Middle { .. } => "it is not the middle piece of its run".into(),
                q => format!("not ({})", q.sentence(n)),
            },
        }
    }

    /// The distinct clauses cited inside the predicate, in order.
    pub fn clauses(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut add = |c: &String| {
            for part in c.split(", ").filter(|s| !s.is_empty()) {
                if !out.iter().any(|o| o == part) {
                    out.push(part.to_string());
                }
            }
        };
        match self {
            Pred::RunLength { clause, .. }
            | Pred::Middle { clause }
            | Pred::OnSquare { clause, .. }
            | Pred::Taken { clause, .. }
            | Pred::OwnerOn { clause, .. }
            | Pred::OwnerSkips { clause } => add(clause),
            Pred::And(ps) | Pred::Or(ps) => {
                for q in ps {
                    for c in q.clauses() {
                        add(&c);
                    }
                }
            }
            Pred::Not(q) => {
                for c in q.clauses() {
                    add(&c);
                }
            }
        }
        out
    }

    /// The compact `rules summary` form: `or(run >=2 [K-9a], on {26} [K-9b])`.
    pub fn token(&self) -> String {
        let join = |ps: &[Pred]| ps.iter().map(Pred::token).collect::<Vec<_>>().join(", ");
        match self {
            Pred::RunLength { lengths, clause } => {
                let v = lengths_of(*lengths);
                let text = match at_least(&v) {
                    Some(k) => format!(">={k}"),
                    None => format!("in {{{}}}", ranges(&v)),
                };
                format!("run {text}{}", cl(clause))
            }
            Pred::Middle { clause } => format!("middle{}", cl(clause)),
            Pred::OnSquare { squares, clause } => {
                format!("on {}{}", set_token(*squares), cl(clause))
            }
            Pred::Taken { squares, clause } => {
                format!("taken {}{}", set_token(*squares), cl(clause))
            }
            Pred::OwnerOn { squares, clause } => {
                format!("owner-on {}{}", set_token(*squares), cl(clause))
            }
            Pred::OwnerSkips { clause } => format!("owner-skips{}", cl(clause)),
            Pred::And(ps) => format!("and({})", join(ps)),
            Pred::Or(ps) => format!("or({})", join(ps)),
            Pred::Not(q) => format!("not({})", q.token()),
        }
    }
}

impl Protection {
    /// The `rules summary` lines: the predicate and where runs count.
    pub fn tokens(&self) -> [String; 2] {
        [
            format!(
                "protection: {}",
                self.rule.as_ref().map_or("none".into(), Pred::token)
            ),
            format!("runs on: {}", set_token(self.run_squares)),
        ]
    }
}

/// A move refused because the piece it would hit is protected.
pub(crate) fn refused(cx: &Refused) -> Said {
    let side = cx.side();
    Said::new(
        "protected piece",
        format!(
            "the {} piece on {} is protected and cannot be {}",
            side.other(),
            cx.sq(cx.refusal.to),
            match cx.rules.movement().hit {
                Hit::Capture => "captured",
                Hit::Swap => "swapped",
                _ => "hit",
            }
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_every_length_from_n_reads_as_n_or_more() {
        let houses = [House {
            square: 26,
            name: "House of Happiness".into(),
            glyph: None,
            clause: String::new(),
        }];
        let names = Names { houses: &houses };
        let p = Pred::Or(vec![
            Pred::RunLength {
                lengths: u64::MAX << 2,
                clause: "K-9a".into(),
            },
            Pred::And(vec![
                Pred::OnSquare {
                    squares: SquareSet::range(26, 30),
                    clause: "K-9b".into(),
                },
                Pred::Not(Box::new(Pred::Middle {
                    clause: "K-9a".into(),
                })),
            ]),
        ]);
        assert_eq!(
            p.sentence(&names),
            "it is in a run of 2 or more or (it stands on 26..30 and it is not the middle piece of its run)"
        );
        assert_eq!(
            p.token(),
            "or(run >=2 [K-9a], and(on {26..30} [K-9b], not(middle [K-9a])))"
        );
        assert_eq!(p.clauses(), ["K-9a", "K-9b"]);
        // Two lengths are a list, not "or more".
        let two = Pred::RunLength {
            lengths: 0b1100,
            clause: String::new(),
        };
        assert_eq!(two.sentence(&names), "it is in a run of 2 or 3");
        assert_eq!(two.token(), "run in {2, 3}");
    }
}
