//! Locks (B-12): a square whose piece holds its owner's other pieces
//! until a throw bears it off, or a move without a throw releases it.
//!
//! The model value with its clauses, its squares for the generator, the
//! lock stage and the release without a throw, and its words: how `senet rules show`
//! says it, its token in `senet rules summary`, and how a move it refuses
//! reads.

use super::words::*;
use crate::engine::movegen::Dir;
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
    /// A throw that does not bear the piece off may be passed instead of
    /// moving the piece as `otherwise` says (HK-2).
    pub pass_allowed: bool,
    /// No ply of the lock gives another throw: its bear-off, its
    /// `otherwise` move, its pass (LK-6).
    pub no_extra: bool,
    /// The piece `otherwise` moves out alone moves at its owner's next ply
    /// (LK-12; `Position::marked`).
    pub binds_next: bool,
    /// An exit throw the bear-off condition refuses is a forced pass
    /// rather than what any other throw does (LK-14).
    pub refused_exit_passes: bool,
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
    pub pass_allowed: bool,
    pub no_extra: bool,
    pub binds_next: bool,
    pub refused_exit_passes: bool,
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
            pass_allowed: self.pass_allowed,
            no_extra: self.no_extra,
            binds_next: self.binds_next,
            refused_exit_passes: self.refused_exit_passes,
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
            r if self.pass_allowed => format!(
                "any other throw either moves it: it {}, or is passed",
                reloc(r)
            ),
            r => format!("on any other throw it {}", reloc(r)),
        };
        if self.no_extra {
            parts.push(format!("{other}; none of these plies gives another throw"));
        } else {
            parts.push(format!(
                "{other}{}",
                if self.fail_ends_turn {
                    " and ends the turn"
                } else {
                    "; the turn goes on as the throw allows"
                }
            ));
        }
        if self.binds_next {
            parts.push("a piece moved out of here alone moves at its owner's next ply: forward, else backward, else the throw is passed, and its move gives no further throw; the mark ends when it leaves its square or is swapped off it".into());
        }
        if self.refused_exit_passes {
            parts.push("an exit throw that the bear-off condition refuses is a forced pass".into());
        }
        parts.join("; ")
    }
}

/// `rules show`, after "Square 27: ": `exit gives no extra throw`.
pub const EXIT_NO_EXTRA: &str = "the throw that bears the locked piece off gives no further throw";

impl Lock {
    /// The square's `rules summary` part.
    pub fn token(&self) -> String {
        format!(
            "lock(release {}{}{}, exit {}, otherwise {}{}, fail-ends-turn {}, exit-gives-extra {}{}){}",
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
            // Printed only when used, so other summaries stay as they were.
            if self.pass_allowed { " or pass" } else { "" },
            self.fail_ends_turn,
            self.exit_gives_extra,
            [
                (self.no_extra, ", no-extra"),
                (self.binds_next, ", binds-next-ply"),
                (self.refused_exit_passes, ", refused-exit-passes"),
            ]
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, t)| *t)
            .collect::<String>(),
            cl(&self.clause)
        )
    }
}

/// A move refused because a piece a lock moved out binds its owner's ply
/// (LK-12).
pub(crate) fn refused_released(cx: &Refused) -> Said {
    let side = cx.side();
    let sq = cx.position.marked.map(|s| cx.sq(s)).unwrap_or_default();
    Said::new(
        "the piece moved out of the water moves first",
        format!("{side}'s piece moved out of the water to {sq} is the only piece that may move"),
    )
}

/// A move refused because a piece of the mover's is held by a lock.
pub(crate) fn refused(cx: &Refused) -> Said {
    let side = cx.side();
    Said::new(
        "pieces held by the water",
        format!("{side} has a piece held in the water: no other piece of {side} may move"),
    )
}

// The generator's side: the lock squares, the lock stage (stage 2) and
// the release without a throw.

/// The squares with a lock, compiled with the rule set: the generator's
/// lock stage and the play of a plain unit test a position against them.
#[derive(Debug, Clone, Default)]
pub(crate) struct LockSquares {
    /// Squares with a lock (B-12): a side with a piece there is dealt
    /// with by the lock stage.
    pub squares: u64,
    /// Squares whose lock has a release move (`0:27-15`).
    pub releases: u64,
}

impl LockSquares {
    /// The lock squares of a board's square rules.
    pub(crate) fn compile(squares: &[SquareRule]) -> LockSquares {
        let mut t = LockSquares::default();
        for (s, r) in squares.iter().enumerate() {
            if let Some(lock) = &r.lock {
                t.squares |= 1 << s;
                if lock.release_to.is_some() {
                    t.releases |= 1 << s;
                }
            }
        }
        t
    }
}

impl Ruleset {
    /// The releases due without a throw (`0:27-15`, B-12) of the side to
    /// move's pieces on lock squares, into `out`.
    // The lock, then its release: apart, as the clauses read.
    #[allow(clippy::collapsible_if)]
    pub(crate) fn release_units(&self, pos: &Position, out: &mut Vec<Unit>) {
        let side = pos.to_move;
        // Only the pieces on a lock with a release (each piece, without
        // tables, as the referee runs): the same squares in the same order.
        let me = pos.pieces[side.index()].0;
        let on_release = if self.tables.enabled {
            me & self.tables.lock.releases
        } else {
            me
        };
        for from in SquareSet(on_release).iter() {
            if let Some(lock) = &self.squares[from as usize].lock {
                if let Some(to) = lock.release_to {
                    // When the release square is taken, the fallback is the
                    // move's real destination (written `0:27-1`); only the
                    // queue, which is no square, is written `=Q`.
                    let (to, relocated) = if pos.at(to).is_none() {
                        (to, None)
                    } else {
                        match lock.release_when_taken {
                            None => continue,
                            Some(r) => match self.relocate(pos, r, from) {
                                Some(Some(Relocated::Square(s))) => (s, None),
                                Some(Some(Relocated::Queue)) => (to, Some(Relocated::Queue)),
                                _ => continue,
                            },
                        }
                    };
                    {
                        out.push(Unit {
                            kind: UnitKind::NoThrow,
                            throw: 0,
                            from,
                            to,
                            relocated,
                            hit: false,
                            extra_mark: false,
                            off: false,
                            forced: false,
                            split: None,
                            more: crate::engine::MoreParts::default(),
                        });
                    }
                }
            }
        }
    }
}

impl Ruleset {
    /// Stage 2: the side has a piece on the lock square `from` (B-12). Its
    /// other pieces are held; the piece bears off with the lock's throws and
    /// otherwise goes where the lock sends it, or the throw is passed.
    pub(crate) fn lock_stage<const WHY: bool>(
        &self,
        pos: &Position,
        throw: u8,
        from: u8,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
    ) {
        let me = pos.pieces[pos.to_move.index()];
        let Some(lock) = &self.squares[from as usize].lock else {
            // `lock_squares` holds the squares with a lock.
            return;
        };
        // LK-6: no ply of the lock gives another throw.
        let extra_mark = self.throws.gives_extra(throw) && !lock.no_extra;
        if WHY {
            for other in me.iter().filter(|&s| s != from) {
                why.push(Refusal {
                    from: other,
                    to: other,
                    forbid: Forbid::Locked,
                });
            }
        }
        let off = self.board.off();
        if lock.exit_throws & (1 << throw) != 0 {
            // A bear-off from the lock square is a bear-off: it too needs
            // all the side's pieces in the region (KD-10 Home Row, K-13).
            // Refused, the throw does what any other throw does.
            let outside = self
                .bear_off
                .all_in
                .is_some_and(|region| me.0 & !region.0 != 0 || pos.queue.count(pos.to_move) > 0);
            if !outside {
                // A-8 "no": the turn ends after it, so it is written without `+`.
                let extra = extra_mark && lock.exit_gives_extra;
                out.push(Unit::bear_off(throw, from, off, extra));
                return;
            }
            if WHY {
                why.push(Refusal {
                    from,
                    to: off,
                    forbid: Forbid::NotAllIn,
                });
            }
            // LK-14: the refused exit has no legal move: a forced pass like
            // any other, no ply of the lock (LK-6), so marked by its value
            // and keeping the extra throw as forced passes do.
            if lock.refused_exit_passes {
                out.push(Unit::pass(throw, self.throws.gives_extra(throw), true));
                return;
            }
        }
        match self.relocate(pos, lock.otherwise, from) {
            Some(None) | None => {
                out.push(Unit::pass(throw, extra_mark, true));
            }
            Some(Some(dest)) => {
                out.push(Unit {
                    kind: UnitKind::Move,
                    throw,
                    from,
                    to: match dest {
                        Relocated::Square(s) => s,
                        Relocated::Queue => from,
                        // Written `1-hand`, as PC-5's return.
                        Relocated::Hand => 0,
                    },
                    relocated: None,
                    hit: false,
                    extra_mark,
                    off: false,
                    forced: false,
                    split: None,
                    more: crate::engine::MoreParts::default(),
                });
                // HK-2: the player may pass instead (a skip by choice).
                if lock.pass_allowed {
                    out.push(Unit::pass(throw, extra_mark, false));
                }
            }
        }
    }

    /// Stage 2, before the lock: the side's piece on `from` was moved out
    /// of a lock that binds its owner's next ply (LK-12). It alone moves:
    /// forward, else backward, else the throw is a forced pass; its move
    /// gives no extra throw.
    pub(crate) fn marked_stage<const WHY: bool>(
        &self,
        pos: &Position,
        throw: u8,
        from: u8,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
    ) {
        if WHY {
            let me = pos.pieces[pos.to_move.index()];
            for other in me.iter().filter(|&s| s != from) {
                why.push(Refusal {
                    from: other,
                    to: other,
                    forbid: Forbid::Released,
                });
            }
        }
        for dir in [Dir::Forward, Dir::Backward] {
            match self.attempt(pos, from, throw, dir) {
                Ok(u) => {
                    out.push(Unit {
                        extra_mark: false,
                        ..u
                    });
                    return;
                }
                Err((r, _)) => {
                    if WHY {
                        why.push(r);
                    }
                }
            }
        }
        out.push(Unit::pass(throw, self.throws.gives_extra(throw), true));
    }

    /// Where the piece on `from` goes by `effect` (a lock's release or
    /// failed throw, B-12).
    pub(crate) fn relocate(
        &self,
        pos: &Position,
        effect: Relocation,
        from: u8,
    ) -> Option<Option<Relocated>> {
        let occ = SquareSet(pos.occupied().0 & !SquareSet::single(from).0);
        effect.resolve(from, occ, self.board.len, None)
    }
}

// The replay gloss: the release without a throw, a piece into the water.

/// A lock's release without a throw (`0:27-15`).
pub(crate) fn glossed_release(cx: &PlayedUnit, out: &mut Vec<String>) {
    out.push(format!("no throw; moves {} → {}", cx.unit.from, cx.unit.to));
}

/// A lock's move out with a throw (`otherwise relocate to 15`, LK-11,
/// HK-2): a relocation by the lock, not a backward move.
pub(crate) fn glossed_relocation(cx: &PlayedUnit, out: &mut Vec<String>) {
    let u = cx.unit;
    out.push(format!(
        "{}; relocated out of {}: {} → {}",
        cx.throw,
        cx.sq(u.from),
        u.from,
        u.to
    ));
}

/// A piece that lands on a lock square and stays there (B-12), or a hit
/// piece sent elsewhere that counts as such.
pub(crate) fn glossed_water(cx: &PlayedUnit, out: &mut Vec<String>) {
    let u = cx.unit;
    if cx.effects.water
        && u.kind == UnitKind::Move
        && !u.off
        && !cx.effects.swap
        && u.split.is_none()
    {
        out.push(format!("into the water on {}", cx.sq(u.to)))
    }
}
