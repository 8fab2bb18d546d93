//! How a game opens: who moves first, the constraints on each side's
//! first unit from the standard setup (K-5, K-7), and the starting throw a
//! side waits for before its first move (KD-10).
//!
//! The model value with its clauses, its stages in the generator, and
//! its words: how `senet rules show`
//! says it, its token in `senet rules summary`, and how a move it refuses
//! reads.

use super::words::*;
use crate::engine::movegen::refuse_all;
use crate::engine::*;

/// Who moves first.
#[derive(Debug, Clone, PartialEq)]
pub enum Starter {
    /// Always this side.
    Fixed(Side, Clause),
    /// Decided by lot: the record must name the first player.
    ByLot(Clause),
}

/// A constraint on the opening of a game from the standard setup (K-5, K-7).
#[derive(Debug, Clone, PartialEq)]
pub struct OpeningRule {
    /// Whose first turn this binds.
    pub side: Side,
    /// The throw value the first unit must have (K-5: the roll-off's 1).
    pub throw: Option<u8>,
    /// The square the first unit must move from.
    pub from: Option<u8>,
    /// What happens when the constrained move is impossible.
    pub lapse: Lapse,
    pub clause: Clause,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lapse {
    /// The constraint lapses: any legal unit (A-10 default).
    AnyMove,
    /// The unit is a pass.
    Pass,
}

// Words.

/// `rules show`: who moves first (`None`: by lot).
pub fn starter_sentence(side: Option<Side>) -> String {
    match side {
        Some(s) => format!("{} moves first.", s.name()),
        None => "Who moves first is decided by lot; the game record names the first player.".into(),
    }
}

/// `rules show`: one side's opening constraint.
pub fn sentence(
    names: &Names,
    side: Side,
    throw: Option<u8>,
    from: Option<u8>,
    lapse: Lapse,
) -> String {
    // P-4: never in a game set up from another position.
    let mut t = format!(
        "In a game from the standard setup, {}'s first unit",
        side.name()
    );
    if let Some(v) = throw {
        t += &format!(" must be a throw of {v}");
    }
    if let Some(f) = from {
        t += &format!(
            "{} the piece on {}",
            if throw.is_some() {
                " moving"
            } else {
                " must move"
            },
            names.sq(f)
        );
    }
    t += match lapse {
        Lapse::AnyMove => {
            "; if that is impossible, the constraint lapses and any legal unit may be played."
        }
        Lapse::Pass => "; if that is impossible, the unit is a pass.",
    };
    t
}

/// `rules show`: the starting throw (KD-10; for one side, counted when
/// thrown, LK-15).
pub fn start_throw_sentence(values: &[u8], side: Option<Side>, counted: bool) -> String {
    let mut t = match side {
        None => format!(
            "A side whose pieces all still stand on their starting squares moves only with a throw of {}; any other throw is passed",
            list(values)
        ),
        Some(s) => format!(
            "Until {s} has thrown a {}, it moves only with that throw and passes any other ({} never waits)",
            list(values),
            s.other()
        ),
    };
    if counted {
        t += ". That throw ends the wait as soon as it is thrown: it is played if it can be, and passed otherwise";
    }
    t + "."
}

impl Starter {
    /// The `rules summary` line.
    pub fn token(&self) -> String {
        match self {
            Starter::Fixed(s, c) => format!("starter: {}{}", s.name(), cl(c)),
            Starter::ByLot(c) => format!("starter: by lot{}", cl(c)),
        }
    }
}

impl OpeningRule {
    /// The `rules summary` line.
    pub fn token(&self) -> String {
        format!(
            "opening {}: throw {} from {} else {:?}{}",
            self.side.name(),
            self.throw.map_or("-".into(), |t| t.to_string()),
            self.from.map_or("-".into(), |t| t.to_string()),
            self.lapse,
            cl(&self.clause)
        )
    }
}

/// The `rules summary` line of the starting throw, when there is one.
pub fn start_throw_token(m: &Movement) -> Option<String> {
    m.start_throw.map(|t| {
        format!(
            "start throw: {t}{}{}{}",
            m.start_throw_side
                .map(|s| format!(" for {}", s.name()))
                .unwrap_or_default(),
            if m.start_throw_counted {
                " counted-when-thrown"
            } else {
                ""
            },
            cl(&m.start_throw_clause)
        )
    })
}

impl Movement {
    /// Whether `side` waits for the starting throw at the start of a game
    /// (KD-10; LK-15: one side only).
    pub fn start_throw_due_for(&self, side: Side) -> bool {
        self.start_throw.is_some() && self.start_throw_side.is_none_or(|s| s == side)
    }
}

/// A unit refused because the opening binds it.
pub(crate) fn refused(cx: &Refused) -> Said {
    let side = cx.side();
    let sentence = match cx.rules.opening().iter().find(|o| o.side == side) {
        Some(o) => match (o.throw, o.from) {
            (Some(t), Some(f)) if t != cx.throw => {
                format!("{side}'s opening unit is a throw of {t} moving the piece on {f}")
            }
            (_, Some(f)) => format!("{side}'s first unit must move the piece on {f}"),
            _ => "the opening binds this unit".to_string(),
        },
        None => "the opening binds this unit".to_string(),
    };
    Said::new("the opening binds this unit", sentence)
}

/// A move refused because the side has not thrown its starting throw.
pub(crate) fn refused_start(cx: &Refused) -> Said {
    let need = cx.rules.movement().start_throw.unwrap_or(0);
    Said::new(
        "the starting throw is still due",
        format!(
            "{} has not yet thrown the {need} it needs before its first move",
            cx.side()
        ),
    )
}

// The generator's side: stages 3 and 4 (an opening that wants another
// throw, a starting throw still due) and stage 7 (the square the opening
// moves from).

/// Whether the opening's stages may apply in the rule set: it has an
/// opening (K-5, K-7) or a starting throw (KD-10), so stages 3, 4 and 7
/// look at the turn number.
pub(crate) fn has_stages(rules: &Ruleset) -> bool {
    !rules.opening.is_empty() || rules.movement.start_throw.is_some()
}

impl Ruleset {
    /// Stages 3 and 4: `None` when an opening that wants another throw
    /// (K-5, K-7) or a starting throw still due (KD-10) decides the whole
    /// list; else the opening rule in force for stage 7.
    #[inline]
    pub(crate) fn opening_stage<const WHY: bool>(
        &self,
        pos: &Position,
        throw: u8,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
    ) -> Option<Option<&OpeningRule>> {
        let me = pos.pieces[pos.to_move.index()];
        let extra_mark = self.throws.gives_extra(throw);
        let opening = if self.tables.opening {
            self.opening_rule(pos)
        } else {
            None
        };
        if let Some(rule) = opening
            && rule.throw.is_some_and(|t| t != throw)
        {
            refuse_all::<WHY>(me, Forbid::Opening, why);
            return None;
        }

        // KD-10 Starting Throw: until it is thrown, every throw is a pass.
        if let Some(need) = self.movement.start_throw
            && need != throw
            && self.start_throw_due(pos)
        {
            refuse_all::<WHY>(me, Forbid::StartingThrow, why);
            out.push(Unit::pass(throw, extra_mark, true));
            return None;
        }
        Some(opening)
    }

    /// Stage 7: the opening's square moved from (K-5, K-7) keeps the units
    /// from it, or, when there is none and the rule says so, passes; true
    /// when that pass decided the whole list. `start` is where this
    /// throw's units begin in `out`.
    #[inline]
    pub(crate) fn opening_from_stage<const WHY: bool>(
        &self,
        rule: &OpeningRule,
        throw: u8,
        start: usize,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
    ) -> bool {
        if let Some(need) = rule.from {
            let any = out[start..].iter().any(|u| u.from == need);
            if any {
                let mut i = start;
                while i < out.len() {
                    if out[i].from != need {
                        let u = out.remove(i);
                        if WHY {
                            why.push(Refusal {
                                from: u.from,
                                to: u.to,
                                forbid: Forbid::Opening,
                            });
                        }
                    } else {
                        i += 1;
                    }
                }
            } else if rule.lapse == super::Lapse::Pass {
                for u in out.drain(start..) {
                    if WHY {
                        why.push(Refusal {
                            from: u.from,
                            to: u.to,
                            forbid: Forbid::Opening,
                        });
                    }
                }
                out.push(Unit::pass(throw, self.throws.gives_extra(throw), true));
                return true;
            }
        }
        false
    }
}

impl Ruleset {
    /// Whether the side to move still needs its starting throw (KD-10).
    pub(crate) fn start_throw_due(&self, pos: &Position) -> bool {
        self.movement.start_throw.is_some() && pos.waiting[pos.to_move.index()]
    }

    /// The throw the opening procedure gives the next unit (K-5: the
    /// roll-off's 1), if any.
    #[inline]
    pub fn opening_throw(&self, pos: &Position) -> Option<u8> {
        self.opening_rule(pos).and_then(|o| o.throw)
    }

    /// The opening rule binding the next unit, if any.
    #[inline]
    pub(crate) fn opening_rule(&self, pos: &Position) -> Option<&OpeningRule> {
        // A side's first turn is turn 1 or 2 (below): every later position
        // is decided by one more test (the calm test and a playout's throw
        // ask on every unit). The three combined without a branch: whether
        // a throw is pending follows the throws, and a branch on it alone
        // was mispredicted about as often as not.
        if pos.extra | self.opening.is_empty() | !matches!(pos.turn, 1 | 2) {
            return None;
        }
        let starter = match &self.starter {
            super::Starter::Fixed(s, _) => *s,
            super::Starter::ByLot(_) => return None,
        };
        let side = pos.to_move;
        let first_turn = if side == starter || side == Side::Black {
            1
        } else {
            2
        };
        if pos.turn != first_turn {
            return None;
        }
        let rule = self.opening.iter().find(|o| o.side == side)?;
        // P-4: only in a game from the standard setup. A position string
        // alone shows it by its board: the whole setup for an opening that
        // is the game's first unit (K-5), the side's own pieces on their
        // setup squares otherwise (K-7).
        let binds = match pos.origin {
            Origin::Standard => true,
            Origin::SetUp => false,
            Origin::Unknown => {
                let home = &self.movement.setup_squares;
                if rule.throw.is_some() {
                    pos.pieces == *home
                } else {
                    pos.pieces[side.index()] == home[side.index()]
                }
            }
        };
        binds.then_some(rule)
    }
}
