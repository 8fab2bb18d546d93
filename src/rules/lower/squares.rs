//! Lowering the rules of single squares (`at SQUARES: EFFECT`): where a
//! piece that lands goes (a relocation), locks, gates, truncation, exits,
//! where a hit piece goes, diversion, extra and bound throws, missed
//! turns, the way back to the hand and overshoot; and the checks between
//! the rules of one square.

use super::*;

impl Lowerer<'_> {
    /// `at SQUARES: EFFECT`: one item per square.
    pub(super) fn lower_at(
        &mut self,
        layer: usize,
        d: &Decl,
        squares: &[SquareItem],
        effect: &Effect,
        out: &mut Vec<Item>,
    ) {
        let clause = clause_of(d);
        let set = self.squares(layer, squares);
        let (kind, setting) = match effect {
            Effect::Relocate(r) => match self.relocation(layer, r) {
                Some((r, fb)) => (SquareKind::Landing, Setting::Landing(r, fb)),
                None => return,
            },
            Effect::Gate => (SquareKind::Gate, Setting::Flag),
            Effect::Truncate => (SquareKind::Truncate, Setting::Flag),
            Effect::Immobile => (SquareKind::Immobile, Setting::Flag),
            Effect::Priority => (SquareKind::Priority, Setting::Flag),
            Effect::ExitWith(ts) => (
                SquareKind::Exit,
                Setting::Exit(self.throw_values(layer, ts)),
            ),
            Effect::ExitOnlyFromTurnStart => (SquareKind::ExitFromTurnStart, Setting::Flag),
            Effect::ExitNoExtra => (SquareKind::ExitNoExtra, Setting::Flag),
            Effect::HitSendsTo(s, forbidden, fwd) => match self.square(layer, s) {
                Some(s) => (SquareKind::HitSends, Setting::HitSends(s, *forbidden, *fwd)),
                None => return,
            },
            Effect::DivertTo(s) => match self.square(layer, s) {
                Some(s) => (SquareKind::Divert, Setting::Target(s)),
                None => return,
            },
            Effect::DivertWhenTaken(s, fb) => match self.relocation_without_queue(layer, s, *fb) {
                Some((r, fb)) => (SquareKind::DivertTaken, Setting::Landing(r, fb)),
                None => return,
            },
            Effect::StayMoving {
                throws,
                to,
                fallback,
            } => {
                let values: Vec<Option<u8>> = throws
                    .iter()
                    .map(|t| self.small(layer, t, 1, 31, "a throw value"))
                    .collect();
                let values = values.into_iter().collect::<Option<Vec<u8>>>();
                match (values, self.relocation_without_queue(layer, to, *fallback)) {
                    (Some(vs), Some((r, fb))) => {
                        (SquareKind::Landing, Setting::StayMoving(bits(&vs), r, fb))
                    }
                    _ => return,
                }
            }
            Effect::BoundExtra => (SquareKind::BoundExtra, Setting::Flag),
            Effect::ExtraThrow => (SquareKind::ExtraThrow, Setting::Flag),
            Effect::OffExtra => (SquareKind::OffExtra, Setting::Flag),
            Effect::StuckToHand => (SquareKind::StuckToHand, Setting::Flag),
            Effect::NoBackward => (SquareKind::NoBackward, Setting::Flag),
            Effect::NoForward => (SquareKind::NoForward, Setting::Flag),
            Effect::MissTurn => (SquareKind::MissTurn, Setting::Flag),
            Effect::OvershootTo(s, when_empty) => match self.square(layer, s) {
                Some(s) => (SquareKind::Overshoot, Setting::Overshoot(s, *when_empty)),
                None => return,
            },
            Effect::Lock(parts) => match self.lock(layer, d, parts) {
                Some(l) => (SquareKind::Lock, Setting::Lock(l)),
                None => return,
            },
        };
        for s in set.iter() {
            let sent = match &setting {
                Setting::Landing(r, _) => Some(*r),
                Setting::Lock(l) => Some(l.otherwise),
                _ => None,
            };
            if sent.is_some_and(|r| !r.fits(s, self.len)) {
                self.bad(
                    layer,
                    &d.span,
                    format!("a piece that lands on square {s} would be sent off the board"),
                    "off the board",
                    format!("count back or forward to a square from 1 to {}", self.len),
                );
                continue;
            }
            // A diversion or a piece's way out that names its own square.
            let named = match (&kind, &setting) {
                (
                    SquareKind::DivertTaken,
                    Setting::Landing(
                        Relocation::To(t)
                        | Relocation::CountDownFrom(t)
                        | Relocation::CountUpFrom(t),
                        _,
                    ),
                )
                | (
                    _,
                    Setting::StayMoving(
                        _,
                        Relocation::To(t)
                        | Relocation::CountDownFrom(t)
                        | Relocation::CountUpFrom(t),
                        _,
                    ),
                ) => Some(*t),
                (_, Setting::Target(t) | Setting::HitSends(t, _, _)) => Some(*t),
                _ => None,
            };
            if named == Some(s) {
                self.bad(
                    layer,
                    &d.span,
                    format!("square {s} sends pieces to itself"),
                    "sends to itself",
                    "name another square",
                );
                continue;
            }
            out.push(Item {
                key: Key::Square(kind, s),
                setting: setting.clone(),
                clause: clause.clone(),
                layer,
                span: d.span,
            });
        }
    }

    /// `to SQUARE [else ...]` where a move ends (a diversion, a piece that
    /// leaves its square): the queue is no fallback there, since the
    /// mover would wait in it with its move half made.
    fn relocation_without_queue(
        &mut self,
        layer: usize,
        s: &ast::Spanned<SquareRef>,
        fb: Option<ast::Fallback>,
    ) -> Option<(Relocation, Option<Relocation>)> {
        if fb == Some(ast::Fallback::Queue) {
            self.bad(
                layer,
                &s.span,
                "a move cannot end in the queue",
                "queue",
                "write `else counting down`, `else counting up` or `else lowest empty`",
            );
            return None;
        }
        self.relocation(layer, &RelocationAst::To(s.clone(), fb))
    }

    pub(super) fn relocation(
        &mut self,
        layer: usize,
        r: &RelocationAst,
    ) -> Option<(Relocation, Option<Relocation>)> {
        Some(match r {
            RelocationAst::LowestEmpty => (Relocation::LowestEmpty, None),
            RelocationAst::Stay => (Relocation::Stay, None),
            RelocationAst::Hand => (Relocation::Hand, None),
            RelocationAst::To(s, fb) => {
                let s = self.square(layer, s)?;
                match fb {
                    None => (Relocation::To(s), None),
                    Some(ast::Fallback::CountingDown) => (Relocation::CountDownFrom(s), None),
                    Some(ast::Fallback::LowestEmpty) => {
                        (Relocation::To(s), Some(Relocation::LowestEmpty))
                    }
                    Some(ast::Fallback::CountingUp) => (Relocation::CountUpFrom(s), None),
                    Some(ast::Fallback::Queue) => (Relocation::Queue(s), None),
                }
            }
            RelocationAst::By {
                back,
                squares,
                fallback,
            } => {
                let n = self.small(layer, squares, 1, 61, "a number of squares")? as i8;
                let then = match fallback {
                    None => WhenTaken::Refuse,
                    Some(ast::Fallback::CountingDown) => WhenTaken::CountDown,
                    Some(ast::Fallback::CountingUp) => WhenTaken::CountUp,
                    Some(ast::Fallback::LowestEmpty) => WhenTaken::LowestEmpty,
                    Some(ast::Fallback::Queue) => {
                        // The queue enters one fixed square; a relative
                        // move reaches a different square from each square.
                        self.bad(
                            layer,
                            &squares.span,
                            "a relative move cannot fall back to the queue",
                            "relative move",
                            "write `else counting down`, `else counting up` or `else lowest empty`, or `relocate to SQUARE else queue`",
                        );
                        return None;
                    }
                };
                let step = if *back { -n } else { n };
                (Relocation::By { step, then }, None)
            }
        })
    }

    fn lock(
        &mut self,
        layer: usize,
        d: &Decl,
        parts: &[ast::Spanned<LockPart>],
    ) -> Option<LockDecl> {
        let mut spec = LockDecl {
            release: None,
            exit: Some(Vec::new()),
            otherwise: Relocation::Stay,
            fail_ends_turn: true,
            exit_gives_extra: true,
            release_misses_turn: false,
            pass_allowed: false,
            no_extra: false,
            binds_next: false,
            refused_exit_passes: false,
        };
        let mut seen: Vec<(std::mem::Discriminant<LockPart>, Span)> = Vec::new();
        let mut has_exit = false;
        let mut ok = true;
        for p in parts {
            let disc = std::mem::discriminant(&p.node);
            if let Some((_, first)) = seen.iter().find(|(k, _)| *k == disc) {
                self.errors.push(RuleError::Duplicate {
                    src: self.src(layer),
                    span: mspan(p.span.start, p.span.end),
                    first: mspan(first.start, first.end),
                    what: "this part of the lock".into(),
                });
                ok = false;
                continue;
            }
            seen.push((disc, p.span));
            match &p.node {
                LockPart::Release(r) => match r {
                    RelocationAst::To(s, fb) => {
                        let s = self.square(layer, s)?;
                        let when_taken = fb.map(|fb| match fb {
                            ast::Fallback::CountingDown => Relocation::CountDownFrom(s),
                            ast::Fallback::CountingUp => Relocation::CountUpFrom(s),
                            ast::Fallback::LowestEmpty => Relocation::LowestEmpty,
                            ast::Fallback::Queue => Relocation::Queue(s),
                        });
                        spec.release = Some((s, when_taken));
                    }
                    _ => {
                        self.bad(
                            layer,
                            &p.span,
                            "a lock releases its piece to a named square",
                            "no square",
                            "write e.g. `release to 15`",
                        );
                        ok = false;
                    }
                },
                LockPart::Exit(ts) => {
                    has_exit = true;
                    spec.exit = self.throw_values(layer, ts);
                }
                LockPart::Otherwise(r) => match self.relocation(layer, r)? {
                    (r, None) => spec.otherwise = r,
                    _ => {
                        self.bad(layer, &p.span, "`else lowest empty` cannot follow a failed lock throw", "not supported here", "write `otherwise relocate to lowest empty` or `otherwise relocate to 15 else counting down`");
                        ok = false;
                    }
                },
                LockPart::FailureEndsTurn(b) => spec.fail_ends_turn = *b,
                LockPart::ExitNoExtra => spec.exit_gives_extra = false,
                LockPart::ReleaseMissesTurn => spec.release_misses_turn = true,
                LockPart::PassAllowed => spec.pass_allowed = true,
                LockPart::NoExtra => spec.no_extra = true,
                LockPart::BindsNextPly => spec.binds_next = true,
                LockPart::RefusedExitPasses => spec.refused_exit_passes = true,
            }
        }
        // Where a part of the lock is written, for an error about it.
        let part_span = |part: LockPart| {
            parts
                .iter()
                .find(|p| p.node == part)
                .map_or(d.span, |p| p.span)
        };
        // LK-12: the mark binds the piece the lock moves out; a lock that
        // leaves its piece where it is moves none.
        if spec.binds_next
            && matches!(
                spec.otherwise,
                Relocation::Stay | Relocation::Hand | Relocation::Queue(_)
            )
        {
            self.bad(
                layer,
                &part_span(LockPart::BindsNextPly),
                "`moved piece binds next ply` binds the piece this lock's other throws move to a square, but they do not move it to one",
                "no piece is moved out",
                "add e.g. `otherwise relocate to 15`, or remove `moved piece binds next ply`",
            );
            ok = false;
        }
        // HK-2: the pass is a choice beside the move `otherwise` makes;
        // a lock whose other throws leave the piece where it is passes
        // them already.
        if spec.pass_allowed && spec.otherwise == Relocation::Stay {
            self.bad(
                layer,
                &part_span(LockPart::PassAllowed),
                "`pass allowed` offers a pass beside the move `otherwise` makes, but this lock's other throws leave the piece where it is",
                "nothing to pass instead of",
                "add e.g. `otherwise relocate to 15`, or remove `pass allowed`",
            );
            ok = false;
        }
        if !has_exit {
            self.bad(
                layer,
                &d.span,
                "a lock must say which throws bear its piece off",
                "no `exit with`",
                "add e.g. `exit with 4`",
            );
            ok = false;
        }
        ok.then_some(spec)
    }

    /// A square that is both a gate and a truncation square contradicts
    /// itself.
    pub(super) fn check_gate_and_truncate(&mut self, m: &Merged) {
        let (gates, _) = m.set_of(SquareKind::Gate);
        let (truncate_at, _) = m.set_of(SquareKind::Truncate);
        for s in SquareSet(gates.0 & truncate_at.0).iter() {
            let g = &m.0[&Key::Square(SquareKind::Gate, s)];
            let t = &m.0[&Key::Square(SquareKind::Truncate, s)];
            self.errors.push(RuleError::Conflict {
                src: self.src(t.layer),
                span: mspan(t.span.start, t.span.end),
                other: (g.layer == t.layer).then(|| mspan(g.span.start, g.span.end)),
                what: format!("square {s} is both a gate and a truncation square"),
                label: "truncates".into(),
                help:
                    "a gate forbids moves that would pass it; truncation stops them on it: keep one"
                        .into(),
            });
        }
    }

    /// The rules of each square, indexed by square number, and the checks
    /// between the rules of one square (a lock needs `stay`, an exit
    /// without an extra throw needs a lock).
    pub(super) fn build_squares(
        &mut self,
        m: &Merged,
        len: u8,
        all_throws: u32,
    ) -> Vec<SquareRule> {
        let map = m.0;
        let mut squares = vec![SquareRule::default(); len as usize + 1];
        for (k, i) in map.iter() {
            let Key::Square(kind, s) = *k else { continue };
            // A square off the board was reported when it was read; with a
            // syntax error elsewhere the board may be unknown, so squares
            // were only checked against the largest board.
            let Some(sq) = squares.get_mut(s as usize) else {
                continue;
            };
            let c = i.clause.clone();
            match (&kind, &i.setting) {
                (SquareKind::Landing, Setting::Landing(r, fb)) => {
                    sq.on_land = Some(Landing {
                        effect: *r,
                        clause: c,
                        when_taken: *fb,
                    })
                }
                (SquareKind::Exit, Setting::Exit(ts)) => {
                    sq.exit_throws = Some(ts.as_ref().map_or(all_throws, |v| bits(v)));
                    sq.exit_clause = c;
                }
                (SquareKind::ExitFromTurnStart, _) => {
                    sq.exit_from_turn_start = true;
                    sq.exit_from_turn_start_clause = c;
                }
                (SquareKind::HitSends, Setting::HitSends(t, forbidden, fwd)) => {
                    sq.hit_sends_to = Some(*t);
                    sq.hit_refused_when_taken = *forbidden;
                    sq.hit_sends_forward_only = *fwd;
                    sq.hit_clause = c;
                }
                (SquareKind::Divert, Setting::Target(t)) => {
                    sq.divert_when_protected = Some(*t);
                    sq.divert_clause = c;
                }
                (SquareKind::DivertTaken, Setting::Landing(r, fb)) => {
                    sq.divert_when_taken = Some(Landing {
                        effect: *r,
                        clause: c,
                        when_taken: *fb,
                    });
                }
                (SquareKind::Landing, Setting::StayMoving(throws, r, fb)) => {
                    sq.on_land = Some(Landing {
                        effect: Relocation::Stay,
                        clause: c.clone(),
                        when_taken: None,
                    });
                    sq.leave = Some(Leave {
                        throws: *throws,
                        to: Landing {
                            effect: *r,
                            clause: c,
                            when_taken: *fb,
                        },
                    });
                }
                (SquareKind::BoundExtra, _) => {
                    sq.bound_extra = true;
                    sq.bound_clause = c;
                }
                (SquareKind::ExtraThrow, _) => {
                    sq.extra_throw = true;
                    sq.extra_clause = c;
                }
                (SquareKind::OffExtra, _) => {
                    sq.off_extra = true;
                    sq.off_extra_clause = c;
                }
                (SquareKind::StuckToHand, _) => {
                    sq.stuck_to_hand = true;
                    sq.stuck_clause = c;
                }
                (SquareKind::MissTurn, _) => {
                    sq.miss_turn = true;
                    sq.miss_clause = c;
                }
                (SquareKind::Overshoot, Setting::Overshoot(t, when_empty)) => {
                    sq.overshoot_to = Some(*t);
                    sq.overshoot_when_empty = *when_empty;
                    sq.overshoot_clause = c;
                }
                (SquareKind::Lock, Setting::Lock(l)) => sq.lock = Some(l.resolve(all_throws, c)),
                _ => {}
            }
        }
        for (k, i) in map.iter() {
            if let Key::Square(SquareKind::ExitNoExtra, s) = *k
                && let Some(square) = squares.get_mut(s as usize)
            {
                match &mut square.lock {
                    Some(l) => {
                        l.exit_gives_extra = false;
                        l.exit_extra_clause = i.clause.clone();
                    }
                    None => self.errors.push(RuleError::Conflict {
                        src: self.src(i.layer),
                        span: mspan(i.span.start, i.span.end),
                        other: None,
                        what: format!(
                            "square {s} has no lock, so no exit throw to take the extra throw from"
                        ),
                        label: "needs a lock".into(),
                        help: format!(
                            "declare the lock first: `at {s}: lock: exit with 4, otherwise stay`"
                        ),
                    }),
                }
            }
        }
        for (s, sq) in squares.iter().enumerate() {
            if sq.lock.is_some()
                && !matches!(
                    sq.on_land,
                    Some(Landing {
                        effect: Relocation::Stay,
                        ..
                    })
                )
            {
                let l = &map[&Key::Square(SquareKind::Lock, s as u8)];
                self.errors.push(RuleError::Conflict {
                    src: self.src(l.layer),
                    span: mspan(l.span.start, l.span.end),
                    other: map.get(&Key::Square(SquareKind::Landing, s as u8)).filter(|o| o.layer == l.layer).map(|o| mspan(o.span.start, o.span.end)),
                    what: format!("square {s} locks its piece, but a piece that lands there does not stay"),
                    label: "lock".into(),
                    help: format!("a locking square must keep the piece that lands on it: declare `at {s}: stay`"),
                });
            }
        }
        squares
    }
}
