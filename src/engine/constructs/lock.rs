//! Locks (B-12): a square whose piece holds its owner's other pieces
//! until a throw bears it off, or a move without a throw releases it.
//!
//! The model value with its clauses, and its words: how `senet rules show`
//! says it, its token in `senet rules summary`, and how a move it refuses
//! reads.

use super::words::*;
use crate::engine::*;

/// A square that locks its owner (B-12).
#[derive(Debug, Clone, PartialEq)]
pub struct Lock {
    /// A move without a throw to this square (if empty), which ends the turn.
    pub release_to: Option<u8>,
    /// When `release_to` is occupied: `None`, the release is unavailable
    /// (B-12 default); `Some(r)`, the piece is relocated by `r` instead
    /// (A-3 alternatives: `LowestEmpty`, `Queue(release_to)`). Added by the rules
    /// compiler.
    pub release_when_taken: Option<Relocation>,
    /// Throws that bear the piece off.
    pub exit_throws: u32,
    /// What any other throw does to the piece.
    pub otherwise: Relocation,
    /// Whether a failed throw ends the turn.
    pub fail_ends_turn: bool,
    /// The release also makes the owner miss their next turn (KD-8).
    pub release_misses_turn: bool,
    /// Whether an exit throw gives another throw as any throw of its value
    /// does (A-8 default `true`); `false`: the turn ends after it (A-8 "no").
    /// Added by the rules compiler.
    pub exit_gives_extra: bool,
    pub clause: Clause,
    /// The clause that made `exit_gives_extra` false, empty otherwise.
    pub exit_extra_clause: Clause,
}

/// A lock as a rule file declares it, before its throws are known: the
/// exit throws as written (`None`: any throw).
#[derive(Debug, Clone, PartialEq)]
pub struct LockDecl {
    /// `release to S`, and its fallback when S is taken.
    pub release: Option<(u8, Option<Relocation>)>,
    pub exit: Option<Vec<u8>>,
    pub otherwise: Relocation,
    pub fail_ends_turn: bool,
    pub exit_gives_extra: bool,
    pub release_misses_turn: bool,
}

impl LockDecl {
    /// The lock, with its exit throws among the throws the rules give
    /// (`all`, bit `v`).
    pub fn resolve(&self, all: u32, clause: Clause) -> Lock {
        Lock {
            release_to: self.release.map(|r| r.0),
            release_when_taken: self.release.and_then(|r| r.1),
            exit_throws: self.exit.as_ref().map_or(all, |v| bits(v)),
            otherwise: self.otherwise,
            fail_ends_turn: self.fail_ends_turn,
            exit_gives_extra: self.exit_gives_extra,
            release_misses_turn: self.release_misses_turn,
            clause,
            exit_extra_clause: Clause::new(),
        }
    }

    /// `rules show`, after "Square 27: ".
    pub fn sentence(&self, names: &Names, all: u32) -> String {
        let reloc = |r: Relocation| r.sentence(&|s| names.sq(s));
        let mut parts = vec![
            "while a player has a piece here, none of their other pieces may move".to_string(),
        ];
        if let Some((s, fb)) = self.release {
            let mut t = format!(
                "at each unit they may move it to {} without a throw, which ends the turn{}",
                names.sq(s),
                if self.release_misses_turn {
                    " and makes them miss their next turn"
                } else {
                    ""
                }
            );
            match fb {
                None => t += " (not when that square is taken)",
                Some(r) => t += &format!("; if that square is taken the piece {}", reloc(r)),
            }
            parts.push(t);
        }
        parts.push(format!(
            "or throw: {} bears it off",
            throws_text(&self.exit, all)
        ));
        if !self.exit_gives_extra {
            parts.push("and that throw gives no further throw".into());
        }
        let other = match self.otherwise {
            Relocation::Stay => "any other throw leaves it here".to_string(),
            r => format!("on any other throw it {}", reloc(r)),
        };
        parts.push(format!(
            "{other}{}",
            if self.fail_ends_turn {
                " and ends the turn"
            } else {
                "; the turn goes on as the throw allows"
            }
        ));
        parts.join("; ")
    }
}

/// `rules show`, after "Square 27: ": `exit gives no extra throw`.
pub const EXIT_NO_EXTRA: &str = "the throw that bears the locked piece off gives no further throw";

impl Lock {
    /// The square's `rules summary` part.
    pub fn token(&self) -> String {
        format!(
            "lock(release {}{}{}, exit {}, otherwise {}, fail-ends-turn {}, exit-gives-extra {}){}",
            self.release_to.map_or("-".into(), |s| s.to_string()),
            self.release_when_taken
                .map(|f| format!(" else {}", f.token()))
                .unwrap_or_default(),
            if self.release_misses_turn {
                " misses-turn"
            } else {
                ""
            },
            bitlist(self.exit_throws),
            self.otherwise.token(),
            self.fail_ends_turn,
            self.exit_gives_extra,
            cl(&self.clause)
        )
    }
}

/// A move refused because a piece of the mover's is held by a lock.
pub(crate) fn refused(cx: &Refused) -> Said {
    let side = cx.side();
    Said::new(
        "pieces held by the water",
        format!("{side} has a piece held in the water: no other piece of {side} may move"),
    )
}
