//! Why a written unit is illegal: the case that applies (a `skip`, a pass,
//! a move without a throw, a split, an entry, a return to the hand, the
//! right piece gone wrong, a refused move), each in its own function, and
//! the finding built from it. The sentence of a refused move is the
//! refusing construct's (`Refusal::words`).

use super::*;

/// What explains an illegal unit; each case fills in what it knows.
struct Why {
    code: Code,
    message: String,
    label: String,
    clause: String,
    help: String,
}

/// The unit and the position it was written in.
#[derive(Clone, Copy)]
struct Case<'c> {
    p: &'c Position,
    u: &'c UnitSyntax,
    throw: Option<u8>,
    free: bool,
    legal: &'c [Unit],
    legal_text: &'c [String],
    alternatives: &'c str,
    refusals: &'c [Refusal],
    side: Side,
    /// For a move: its squares, its marks and the engine's own unit from
    /// the same square, if one is legal.
    from: u8,
    to: Target,
    to_sq: u8,
    off: u8,
    reloc: Option<Reloc>,
    sep: MoveSep,
    split: Option<&'c PartSyntax>,
    same_from: Option<&'c Unit>,
}

impl Replayer<'_, '_> {
    /// Explains why a written unit matches no legal unit.
    pub(super) fn illegal(
        &self,
        p: &Position,
        u: &UnitSyntax,
        throw: Option<u8>,
        free: bool,
        legal: &[Unit],
        illegal_ok: bool,
    ) -> Finding {
        let rules = self.rules;
        let side = p.to_move;
        let legal_text: Vec<String> = legal.iter().map(|g| g.to_string()).collect();
        let alternatives = if legal_text.is_empty() {
            "no unit is legal with this throw".to_string()
        } else {
            format!("legal here: {}", legal_text.join(", "))
        };
        let refusals = match throw {
            Some(t) if t > 0 => rules.refusals(p, t),
            _ => Vec::new(),
        };
        let mut w = Why {
            code: Code::IllegalMove,
            message: String::new(),
            label: "not legal here".to_string(),
            clause: String::new(),
            help: alternatives.clone(),
        };
        let mut c = Case {
            p,
            u,
            throw,
            free,
            legal,
            legal_text: &legal_text,
            alternatives: &alternatives,
            refusals: &refusals,
            side,
            from: 0,
            to: Target::Hand,
            to_sq: 0,
            off: rules.board.off(),
            reloc: None,
            sep: MoveSep::Dash,
            split: None,
            same_from: None,
        };
        match &u.body {
            UnitBody::Skip => self.skip_written(&mut w, &c),
            _ if p.skip[side.index()] && !p.extra => self.turn_missed(&mut w, &c),
            _ if rules.auto_off_due(p).is_some() => self.bear_off_due(&mut w, &c),
            UnitBody::Move {
                to: Target::Off, ..
            } if free
                && matches!(
                    rules.bear_off.reach,
                    crate::engine::Reach::WithoutThrow { .. }
                ) =>
            {
                self.bear_off_not_due(&mut w, &c)
            }
            UnitBody::Pass => self.pass_refused(&mut w, &c),
            UnitBody::Move {
                from,
                to,
                reloc,
                sep,
                split,
            } => {
                c.from = *from;
                c.to = *to;
                c.to_sq = match to {
                    Target::Square(s) => *s,
                    Target::Off => c.off,
                    Target::Hand => 0,
                };
                c.reloc = *reloc;
                c.sep = *sep;
                c.split = split.as_ref();
                // The engine's own unit from that square, if one is legal.
                // A split is not what a whole move was meant as: a piece that
                // may move only as part of a split (the other part being bound,
                // PC-2) is explained by the refusal of the whole move.
                c.same_from = legal.iter().find(|g| {
                    g.kind != UnitKind::Pass
                        && g.from == *from
                        && g.split.is_none()
                        && (g.kind == UnitKind::NoThrow) == free
                });
                self.move_refused(&mut w, &c);
            }
            UnitBody::Gap => unreachable!("gaps are handled before resolution"),
        }
        let Why {
            code,
            message,
            label,
            clause,
            mut help,
        } = w;
        if illegal_ok {
            help = format!(
                "{help}; the record marks it [%played-illegal], so it is applied as written"
            );
        }
        let message = if matches!(u.body, UnitBody::Move { .. }) && !message.starts_with('`') {
            format!("`{u}` is illegal: {message}")
        } else {
            message
        };
        let mut f = if illegal_ok {
            Finding::warning(code, message, u.span)
        } else {
            Finding::error(code, message, u.span)
        }
        .label(label)
        .help(help)
        .clause(&clause);
        if clause.is_empty() {
            f.clause = None;
        }
        f.unit = Some(u.to_string());
        f.throw = throw;
        f.legal = legal_text;
        f
    }

    /// A written move that is not legal: the first case that applies.
    fn move_refused(&self, w: &mut Why, c: &Case) {
        let Case {
            p,
            throw,
            free,
            side,
            from,
            to,
            reloc,
            split,
            same_from,
            ..
        } = *c;
        if free && throw == Some(0) {
            self.free_move_refused(w, c);
        } else if let Some(part) = split {
            self.split_refused(w, c, part);
        } else if from == 0 {
            self.entry_refused(w, c);
        } else if p.at(from) != Some(side) {
            self.no_piece(w, c);
        } else if to == Target::Hand && reloc.is_none() {
            self.to_hand_refused(w, c);
        } else if let Some(g) = same_from {
            self.same_piece_refused(w, c, g);
        } else {
            self.refused_as_written(w, c);
        }
    }

    /// A move of the right piece that the engine refused: the refusal of
    /// that very move, in the written direction to the written square. A
    /// refusal of the piece's move the other way, or to another square, is
    /// never borrowed as if it were the written one.
    fn refused_as_written(&self, w: &mut Why, c: &Case) {
        let rules = self.rules;
        let sq = |s: u8| square_name(self.rules, s);
        let Case {
            p,
            throw,
            legal,
            refusals,
            from,
            to,
            to_sq,
            off,
            ..
        } = *c;
        let t = throw.unwrap_or(0);
        let backward = matches!(to, Target::Square(s) if s < from);
        let bears_off = to == Target::Off;
        let mine = || refusals.iter().filter(|r| r.from == from);
        let heads = |r: &&Refusal| match scope_of(rules, r) {
            Scope::Piece => !(bears_off && r.forbid == Forbid::Immobile),
            Scope::Backward => backward,
            Scope::Forward => !backward,
            Scope::Elsewhere => false,
        };
        let place = |s: u8| {
            if s >= off {
                "off the board".to_string()
            } else {
                format!("on {}", sq(s))
            }
        };
        let exact = mine().find(|r| r.to == to_sq && to_sq != from);
        // A refusal that forbids every move of the piece, or every move of
        // it in the written direction, whatever the square it ends on.
        let whole = || mine().find(heads);
        let forward_exists = legal
            .iter()
            .any(|g| g.kind == UnitKind::Move && (g.off || g.to > g.from));
        if let Some(r) = exact {
            self.refused_by(w, p, r, t);
        } else if backward && rules.movement.backward == crate::engine::Backward::Never {
            self.backward_refused(w, from, "pieces move forward only");
        } else if let Some(r) = whole() {
            self.refused_by(w, p, r, t);
        } else if backward && forward_exists {
            self.backward_refused(w, from, "a forward move exists");
        } else if let Some(r) = mine().find(|r| {
            r.to != r.from && (r.to < r.from) == backward && scope_of(rules, r) == Scope::Elsewhere
        }) {
            // The throw takes the piece elsewhere, and that move is refused.
            self.refused_by(w, p, r, t);
            w.message = format!(
                "with a throw of {t}, the piece on {from} cannot end {}; the move the throw gives it, {}, is refused: {}",
                place(to_sq),
                match r.to >= off {
                    true => format!("{from}-off"),
                    false => format!("{from}-{}", r.to),
                },
                w.message
            );
            w.label = format!("not {}", place(to_sq));
        } else {
            w.message = format!(
                "the rules give the piece on {} no move {} with a throw of {t}",
                sq(from),
                match to {
                    Target::Off => "off the board".to_string(),
                    _ if backward => format!("back to {}", sq(to_sq)),
                    _ => format!("to {}", sq(to_sq)),
                }
            );
        }
    }

    /// The message, label and clause of a refusal.
    fn refused_by(&self, w: &mut Why, p: &Position, r: &Refusal, throw: u8) {
        let rules = self.rules;
        w.message = refusal_reason(rules, p, r, throw);
        w.clause = if r.forbid == Forbid::Backward {
            self.backward_clause()
        } else {
            clause_of(rules, r, p)
        };
        w.label = self.short(p, r);
    }

    /// A backward move that the direction rules forbid: `why` is
    /// "pieces move forward only" or "a forward move exists".
    fn backward_refused(&self, w: &mut Why, from: u8, why: &str) {
        w.message = format!("the piece on {from} may not move backward here: {why}");
        w.label = "backward move".into();
        w.clause = self.backward_clause();
    }

    /// `skip` where no turn is missed.
    fn skip_written(&self, w: &mut Why, c: &Case) {
        let rules = self.rules;
        let Case { side, .. } = *c;
        w.code = Code::IllegalSkip;
        w.message = format!("`skip` is written, but {side}'s turn is not missed");
        w.label = "no missed turn is due".into();
        w.clause = miss_clause(rules);
        w.help = "`skip` stands for a turn the rules take away (a piece moved onto the net); throw instead".into();
    }

    /// A unit other than `skip` where the turn is missed.
    fn turn_missed(&self, w: &mut Why, c: &Case) {
        let rules = self.rules;
        let Case { side, .. } = *c;
        w.code = Code::MissedTurn;
        w.message = format!("{side}'s turn is missed: the only unit is `skip`");
        w.label = "write `skip` here".into();
        w.clause = miss_clause(rules);
        w.help =
            "a piece of this side moved onto the square that makes its owner miss the next turn"
                .into();
    }

    /// Any unit but the bear-off without a throw, while that is due.
    fn bear_off_due(&self, w: &mut Why, c: &Case) {
        let rules = self.rules;
        let Case { p, side, .. } = *c;
        let from = rules.auto_off_due(p).unwrap_or(0);
        w.code = Code::BearOffDue;
        w.message = format!(
            "all {side}'s pieces are home and one stands on {}: it leaves the board without a throw first, and nothing is thrown before",
            square_name(rules, from)
        );
        w.label = format!("write `0:{from}-off` first");
        w.clause = rules.bear_off.clause.clone();
        w.help = format!(
            "`0:{from}-off` follows the move that brought the side's last piece home; then the turn goes on or ends as that move's throw said"
        );
    }

    /// A bear-off without a throw written where it is not due.
    fn bear_off_not_due(&self, w: &mut Why, c: &Case) {
        let rules = self.rules;
        let Case { p, side, u, .. } = *c;
        let from = match u.body {
            UnitBody::Move { from, .. } => from,
            _ => 0,
        };
        let crate::engine::Reach::WithoutThrow {
            from: square,
            region,
        } = rules.bear_off.reach
        else {
            return;
        };
        let me = p.pieces[side.index()];
        let away: Vec<String> = me
            .iter()
            .filter(|&s| !region.contains(s))
            .map(|s| s.to_string())
            .collect();
        w.code = Code::BearOffDue;
        w.message = if from != square {
            format!(
                "a piece leaves the board without a throw only from {}",
                square_name(rules, square)
            )
        } else if !me.contains(square) {
            format!("{side} has no piece on {}", square_name(rules, square))
        } else {
            format!(
                "no bear-off is due: {side} still has pieces outside the home squares (on {})",
                away.join(", ")
            )
        };
        w.label = "not due".into();
        w.clause = rules.bear_off.clause.clone();
        w.help = format!(
            "the piece on {square} leaves without a throw only once all its side's pieces are home; write the next throw instead"
        );
    }

    /// A pass where a move is legal: what makes the move compulsory (the
    /// return to the hand, a lock, a backward move, compulsion).
    fn pass_refused(&self, w: &mut Why, c: &Case) {
        let rules = self.rules;
        let sq = |s: u8| square_name(self.rules, s);
        let Case { p, legal, side, .. } = *c;
        w.code = Code::IllegalPass;
        w.message = format!("{side} may not pass with this throw: a move is legal");
        w.label = "pass not allowed".into();
        let lock = p.pieces[side.index()]
            .iter()
            .find_map(|s| rules.squares[s as usize].lock.as_ref());
        let all_backward = legal
            .iter()
            .filter(|g| g.kind == UnitKind::Move)
            .all(|g| !g.off && g.to < g.from);
        // PC-5: with no move at all, the piece on 1 goes back to hand.
        let to_hand = legal
            .iter()
            .find(|g| g.kind == UnitKind::Move && !g.off && g.to == 0);
        w.clause = if let Some(g) = to_hand {
            w.message = format!(
                "{side} may not pass: the throw allows no move, so the piece on {} goes back to the hand",
                sq(g.from)
            );
            w.label = format!("write `{g}`");
            rules.squares[g.from as usize].stuck_clause.clone()
        } else if let Some(l) = lock {
            w.message = format!("{side}'s piece in the water must bear off with this throw");
            l.clause.clone()
        } else if all_backward && rules.movement.backward != crate::engine::Backward::Never {
            w.message = format!(
                "{side} may not pass: no forward move exists, so a piece must move backward"
            );
            rules.movement.backward_clause.clone()
        } else if rules.movement.voluntary_pass || !rules.movement.voluntary_pass_clause.is_empty()
        {
            rules.movement.voluntary_pass_clause.clone()
        } else {
            rules.movement.compulsory_clause.clone()
        };
    }

    /// A move without a throw (`0:`) that no lock allows (B-12).
    fn free_move_refused(&self, w: &mut Why, c: &Case) {
        let rules = self.rules;
        let sq = |s: u8| square_name(self.rules, s);
        let Case {
            p,
            legal_text,
            alternatives,
            side,
            from,
            to,
            ..
        } = *c;
        w.code = Code::IllegalFreeMove;
        let lock = p.pieces[side.index()]
            .iter()
            .find_map(|s| rules.squares[s as usize].lock.as_ref().map(|l| (s, l)));
        w.message = match (lock, to) {
            (None, _) => format!("{side} has no piece that may move without a throw"),
            (Some((s, _)), _) if s != from => format!(
                "only the piece in the water, on {}, may move without a throw",
                sq(s)
            ),
            (Some((_, l)), Target::Square(t)) if l.release_to == Some(t) && p.at(t).is_some() => {
                format!(
                    "{} is taken, so the piece cannot move there without a throw",
                    sq(t)
                )
            }
            (Some((_, l)), _) => match l.release_to {
                Some(r) => format!(
                    "without a throw the piece on {from} may only move to {}",
                    sq(r)
                ),
                None => format!("the piece on {from} cannot move without a throw"),
            },
        };
        w.label = "a throw is needed".into();
        if let Some(l) = rules.squares.iter().find_map(|s| s.lock.as_ref()) {
            w.clause = l.clause.clone();
        }
        w.help = if legal_text.is_empty() {
            "`0:` units move a piece out of the water without a throw, and only when the square they go to is empty".into()
        } else {
            alternatives.to_string()
        };
    }

    /// A split throw (PC-3) that is not legal: why, part by part.
    fn split_refused(&self, w: &mut Why, c: &Case, part: &PartSyntax) {
        let rules = self.rules;
        let sq = |s: u8| square_name(self.rules, s);
        let Case {
            p,
            throw,
            side,
            from,
            to,
            to_sq,
            off,
            reloc,
            ..
        } = *c;
        // Where bearing off needs the exact throw past the end,
        // a part that bears off moves `off - from` squares too.
        let exact_off = rules.bear_off.reach == crate::engine::Reach::ExactPast;
        let dist = |f: u8, t: u8| -> Option<u8> {
            let t = if t == 0 { return None } else { t };
            (t > f && (t < off || exact_off)).then(|| t - f)
        };
        let second_to = match part.to {
            Target::Square(s) => s,
            Target::Off => off,
            Target::Hand => 0,
        };
        let parts = (dist(from, to_sq), dist(part.from, second_to));
        // Where the first part left its piece.
        let first_end = match (reloc, to) {
            (Some(Reloc::Square(s)), _) => Some(s),
            (None, Target::Square(s)) => Some(s),
            _ => None,
        };
        w.label = "no such split".into();
        w.clause = rules.movement.split_clause.clone();
        w.message = if rules.movement.split_any {
            // A throw spent in any number of parts: the parts as a whole.
            w.label = "no such parts".into();
            let (written, used) = std::iter::once((from, to_sq))
                .chain(std::iter::once((part.from, second_to)))
                .chain(part.later.iter().map(|l| {
                    let t = match l.to {
                        Target::Square(s) => s,
                        Target::Off => off,
                        Target::Hand => 0,
                    };
                    (l.from, t)
                }))
                .fold((0u32, 0u32), |(n, sum), (f, t)| {
                    (n + 1, sum + u32::from(dist(f, t).unwrap_or(0)))
                });
            match throw {
                Some(t) if used > u32::from(t) => format!(
                    "its {written} parts move {used} squares in all, more than the throw of {t}"
                ),
                _ => format!(
                    "these {written} parts are not a legal way of spending the throw: each part moves one piece forward by 1 up to what is left of the throw, onto an empty square or off by the exact part, and the parts stop only when the throw is used or no part is possible"
                ),
            }
        } else if !rules.movement.split {
            // No w.clause says "one piece per throw": none is cited.
            w.clause = String::new();
            "these rules do not split a throw between pieces: a throw moves one piece".to_string()
        } else if from == 0 || part.from == 0 {
            if let Some(e) = &rules.entry {
                w.clause = join_clauses(&w.clause, &e.clause);
            }
            "a split throw cannot enter a piece: entering takes a whole throw".to_string()
        } else if from == part.from || first_end == Some(part.from) {
            format!(
                "the two parts of a split throw move two different pieces, and both parts move the piece from {from}"
            )
        } else {
            match (parts, throw) {
                ((Some(a), Some(b)), Some(t)) if a + b != t => {
                    format!(
                        "the parts move {a} and {b} squares, which do not add up to the throw of {t}"
                    )
                }
                _ => {
                    // The first part on its own, by its share of the throw.
                    let first_refusal = parts.0.and_then(|a| {
                        rules
                            .refusals(p, a)
                            .into_iter()
                            .find(|r| r.from == from && r.to == to_sq)
                            .map(|r| (a, r))
                    });
                    match first_refusal {
                        Some((a, r)) => {
                            w.clause = clause_of(rules, &r, p);
                            format!(
                                "its first part, {}-{}, is not legal: {}",
                                from,
                                to_sq,
                                refusal_reason(rules, p, &r, a)
                            )
                        }
                        None => {
                            // The second part by its share, on the board
                            // as it was: right unless the first part's
                            // squares are involved.
                            let second_refusal = parts.1.and_then(|b| {
                                rules
                                    .refusals(p, b)
                                    .into_iter()
                                    .find(|r| {
                                        r.from == part.from && r.to == second_to && r.to != from
                                    })
                                    .map(|r| (b, r))
                            });
                            match second_refusal {
                                _ if first_end == Some(second_to) => format!(
                                    "its second part, {part}, would land on {}, where the first part put a {side} piece",
                                    sq(second_to)
                                ),
                                Some((b, r)) => {
                                    w.clause = clause_of(rules, &r, p);
                                    format!(
                                        "its second part, {part}, is not legal: {}",
                                        refusal_reason(rules, p, &r, b)
                                    )
                                }
                                None => format!(
                                    "its second part, {part}, is not legal once the first is played"
                                ),
                            }
                        }
                    }
                }
            }
        };
    }

    /// An entry from the hand (PC-2) that is not legal.
    fn entry_refused(&self, w: &mut Why, c: &Case) {
        let rules = self.rules;
        let sq = |s: u8| square_name(self.rules, s);
        let Case {
            p,
            u,
            throw,
            refusals,
            side,
            to_sq,
            ..
        } = *c;
        w.label = "no entry".into();
        match &rules.entry {
            None => {
                w.message = "these rules have no pieces in hand".to_string();
            }
            Some(e) => {
                w.clause = e.clause.clone();
                let values: Vec<String> = (1..32u8)
                    .filter(|v| e.throws & (1 << v) != 0)
                    .map(|v| v.to_string())
                    .collect();
                w.message = if p.hand[side.index()] == 0 {
                    format!("{side} has no piece in hand")
                } else if throw.is_some_and(|t| e.throws & (1 << t) == 0) {
                    format!(
                        "a piece enters from the hand only with a throw of {}",
                        join_or(&values)
                    )
                } else if to_sq != e.square {
                    format!("a piece enters from the hand on {}", sq(e.square))
                } else if let Some(r) = refusals.iter().find(|r| r.from == 0) {
                    w.clause = clause_of(rules, r, p);
                    match (r.forbid, p.at(e.square)) {
                        (Forbid::OwnPiece | Forbid::Occupied, Some(owner)) => {
                            // The entry w.clause is the one that asks for
                            // an empty entry square.
                            w.clause = join_clauses(&e.clause, &w.clause);
                            format!(
                                "a piece enters from the hand only onto an empty {}, and it holds a {owner} piece",
                                sq(e.square)
                            )
                        }
                        _ => refusal_reason(rules, p, r, throw.unwrap_or(0)),
                    }
                } else {
                    format!("{u} is not legal here")
                };
            }
        }
    }

    /// A move from a square without a piece of the side to move.
    fn no_piece(&self, w: &mut Why, c: &Case) {
        let sq = |s: u8| square_name(self.rules, s);
        let Case { p, side, from, .. } = *c;
        w.code = Code::NoPiece;
        w.message = match p.at(from) {
            Some(other) => format!(
                "the piece on {} is {other}'s, and it is {side}'s turn",
                sq(from)
            ),
            None => format!("there is no {side} piece on {}", sq(from)),
        };
        w.label = format!("no {side} piece on {from}");
    }

    /// A return to the hand (PC-5) where the throw allows a move.
    fn to_hand_refused(&self, w: &mut Why, c: &Case) {
        let rules = self.rules;
        let sq = |s: u8| square_name(self.rules, s);
        let Case {
            legal,
            legal_text,
            from,
            ..
        } = *c;
        // `3:1-hand` (PC-5): only where the throw allows no move.
        w.label = "not back to hand".into();
        let stuck: Vec<u8> = (1..=rules.board.len)
            .filter(|&s| rules.squares[s as usize].stuck_to_hand)
            .collect();
        w.message = match stuck.first() {
            None => "these rules never send a piece back to the hand".to_string(),
            Some(&s) if !stuck.contains(&from) => {
                w.clause = rules.squares[s as usize].stuck_clause.clone();
                format!(
                    "only a piece on {} goes back to the hand, when the throw allows no move at all",
                    sq(s)
                )
            }
            Some(_) => {
                w.clause = rules.squares[from as usize].stuck_clause.clone();
                format!(
                    "the piece on {} goes back to the hand only when the throw allows no move at all, and {} legal here",
                    sq(from),
                    match legal.len() {
                        1 => format!("`{}` is", legal_text[0]),
                        n => format!("{n} units are"),
                    }
                )
            }
        };
    }

    /// The right piece with the wrong destination, relocation or mark.
    fn same_piece_refused(&self, w: &mut Why, c: &Case, g: &Unit) {
        let rules = self.rules;
        let sq = |s: u8| square_name(self.rules, s);
        let Case {
            p,
            u,
            throw,
            refusals,
            from,
            to_sq,
            off,
            reloc,
            sep,
            ..
        } = *c;
        // Right piece, wrong destination, relocation or mark.
        let g_to = if g.off { off } else { g.to };
        let turned = refusals
            .iter()
            .find(|r| r.from == from && r.to == to_sq && r.forbid == Forbid::Direction);
        if let (Some(r), true) = (turned, to_sq > from && g_to < from) {
            // A forward move in a turn that went backward (PC-4).
            w.message = refusal_reason(rules, p, r, throw.unwrap_or(0));
            w.label = self.short(p, r);
            w.clause = clause_of(rules, r, p);
        } else if to_sq < from && g_to > from {
            // A backward move where the rules want the forward one.
            let why = if rules.movement.backward == crate::engine::Backward::Never {
                "pieces move forward only"
            } else {
                "a forward move exists"
            };
            self.backward_refused(w, from, why);
        } else if let Some(r) = refusals.iter().find(|r| {
            r.from == from
                && r.to == to_sq
                && to_sq != from
                && g_to != to_sq
                && rules
                    .squares
                    .get(to_sq as usize)
                    .and_then(|s| s.divert_when_protected)
                    != Some(g_to)
        }) {
            // The written move is refused, and the piece's legal unit is
            // another move (its backward one), not the written one diverted
            // (B-13): the refusal of the written move says why.
            self.refused_by(w, p, r, throw.unwrap_or(0));
        } else if g_to != to_sq {
            w.code = Code::WrongDestination;
            let place = |s: u8| {
                if s >= off {
                    "off the board".to_string()
                } else {
                    format!("on {}", sq(s))
                }
            };
            w.message = format!(
                "with a throw of {}, the piece on {from} ends {}, not {}",
                g.throw,
                place(g_to),
                place(to_sq)
            );
            w.label = format!("write `{g}`");
            w.clause = self.divert_clause(p, from, to_sq);
            if w.clause.is_empty() && (to_sq >= off || g.off) {
                w.clause = rules.bear_off.clause.clone();
            }
            w.help = format!(
                "the final square of a move is always written as the rules place it: `{g}`"
            );
        } else if reloc.map(reloc_of) != g.relocated {
            w.code = Code::Relocation;
            // A taken square that diverts the mover (`taken target diverts
            // mover to`, GS-6): the move ends elsewhere because the square
            // is taken, not because of a landing on it. (A bear-off's
            // square is past the board's: no rule of a square.)
            let square = rules.squares.get(g.to as usize).filter(|_| g.to < off);
            let diverted = square
                .and_then(|q| q.divert_when_taken.as_ref())
                .filter(|_| p.at(g.to).is_some());
            let written = match reloc {
                Some(Reloc::Square(s)) => format!("not {}", sq(s)),
                Some(Reloc::Queue) => "not the queue".to_string(),
                Some(Reloc::Hand) => "not the hand".to_string(),
                None if diverted.is_some() => "it does not end there".to_string(),
                None => "it does not stay there".to_string(),
            };
            let piece = if diverted.is_some() {
                format!("{} is taken, so a piece moving onto it", sq(g.to))
            } else {
                format!("a piece landing on {}", sq(g.to))
            };
            let moved_on = if diverted.is_some() {
                "is diverted"
            } else {
                "is moved on"
            };
            w.message = match g.relocated {
                Some(Relocated::Square(s)) => format!("{piece} {moved_on} to {}, {written}", sq(s)),
                Some(Relocated::Queue) => {
                    format!("{piece} joins the queue of dead pieces, {written}")
                }
                Some(Relocated::Hand) => format!("{piece} goes back to the hand, {written}"),
                None if g.to >= off => {
                    "the piece leaves the board: nothing moves it on".to_string()
                }
                None => format!("the piece stays on {}: nothing moves it on", sq(g.to)),
            };
            w.label = format!("write `{g}`");
            if let Some(l) = diverted.or(square.and_then(|q| q.on_land.as_ref())) {
                w.clause = l.clause.clone();
            } else if g.to >= off {
                w.clause = rules.bear_off.clause.clone();
            }
            w.help = if g.relocated.is_none() && g.to >= off {
                format!("a piece borne off is written without `=`: `{g}`")
            } else {
                format!("write the final square after `=`: `{g}`")
            };
        } else if sep == MoveSep::Cross && !g.hit {
            w.code = Code::NoCapture;
            w.message = format!(
                "`x` marks a swap, but {} holds no opposing piece",
                sq(to_sq)
            );
            w.label = format!("write `{g}`");
            w.clause = rules.movement.swap_clause.clone();
        } else {
            w.message = format!("{u} is not legal here");
        }
    }

    /// The clause that forbids a backward move: forward only (K-4), or
    /// compulsory forward moves where backward ones exist (B-8).
    fn backward_clause(&self) -> String {
        let m = &self.rules.movement;
        if m.backward == crate::engine::Backward::Never || m.compulsory_clause.is_empty() {
            m.backward_clause.clone()
        } else {
            m.compulsory_clause.clone()
        }
    }

    /// The clause that put a piece elsewhere than its throw: truncation
    /// on the way, or a diversion (B-13) at the target.
    fn divert_clause(&self, p: &Position, from: u8, to: u8) -> String {
        let rules = self.rules;
        if rules
            .movement
            .truncate_at
            .iter()
            .any(|t| from < t && t < to)
        {
            return rules.movement.truncate_clause.clone();
        }
        if let Some(s) = rules.squares.get(to as usize)
            && s.divert_when_protected.is_some()
            && p.at(to).is_some()
        {
            return s.divert_clause.clone();
        }
        String::new()
    }

    /// The short label of a refusal, beside the written unit.
    fn short(&self, p: &Position, r: &Refusal) -> String {
        r.words(self.rules, p, 0).short
    }
}

/// The clause that forbids a refused move. A throw bound to the piece that
/// just entered (PC-2) is the entry rule's, which the square does not carry.
fn clause_of(rules: &Ruleset, r: &Refusal, p: &Position) -> String {
    let clause = rules.clause_of(r, p);
    match (&rules.entry, r.forbid) {
        (Some(e), Forbid::Bound) if clause.is_empty() && p.bound == Some(e.square) => {
            e.clause.clone()
        }
        _ => clause,
    }
}

/// `PC-2, PC-3`: two clause lists as one, without repeats or empty parts.
fn join_clauses(a: &str, b: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for c in a.split(", ").chain(b.split(", ")) {
        if !c.is_empty() && !out.contains(&c) {
            out.push(c);
        }
    }
    out.join(", ")
}

/// The clause of the square that makes its owner miss a turn.
fn miss_clause(rules: &Ruleset) -> String {
    rules
        .squares
        .iter()
        .find(|s| s.miss_turn)
        .map(|s| s.miss_clause.clone())
        .unwrap_or_default()
}

/// Which written moves of its piece a refusal speaks for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// Every move of the piece: the throw belongs to another piece, the
    /// turn is missed, the piece only bears off...
    Piece,
    /// Every forward move of the piece, whatever square it ends on.
    Forward,
    /// Every backward move of the piece, whatever square it ends on.
    Backward,
    /// Only the move to its own target square.
    Elsewhere,
}

/// Which written moves a refusal speaks for: by its cause, and for a cause
/// that holds in one direction, by the direction of the refused move.
fn scope_of(rules: &Ruleset, r: &Refusal) -> Scope {
    match r.forbid {
        // A piece that does not move along the track leaves its square only
        // by bearing off, with the throws the square names (T-15).
        Forbid::ExitThrow if rules.movement.immobile.contains(r.from) => Scope::Piece,
        Forbid::Locked
        | Forbid::MissedTurn
        | Forbid::StartingThrow
        | Forbid::Guard
        | Forbid::Bound
        | Forbid::Released
        | Forbid::Priority
        | Forbid::Opening
        | Forbid::BearOffDue
        | Forbid::Immobile => Scope::Piece,
        Forbid::Backward | Forbid::NoBackward | Forbid::BeforeStart => Scope::Backward,
        // LJ-4 holds every forward move of the piece with this throw.
        Forbid::Halfway => Scope::Forward,
        // PC-4: one direction per turn forbids the other direction.
        Forbid::Direction if r.to < r.from => Scope::Backward,
        Forbid::Direction => Scope::Forward,
        Forbid::NoForward => Scope::Forward,
        Forbid::NoPiece
        | Forbid::OwnPiece
        | Forbid::Occupied
        | Forbid::Protected
        | Forbid::Blockade(_)
        | Forbid::TargetBlockade(_)
        | Forbid::Gate(_)
        | Forbid::BeyondEnd
        | Forbid::ExitThrow
        | Forbid::NotAllIn
        | Forbid::ArrivedThisTurn
        | Forbid::RelocationBlocked
        | Forbid::HitSendsTaken
        | Forbid::DropTaken(_)
        | Forbid::BackwardOntoPiece => Scope::Elsewhere,
    }
}
