//! Building how pieces move from the merged declarations: direction and
//! compulsion, passing, landing on a piece, the square sets that shape a
//! move (gates, truncation, immobile squares, priority, no backward move,
//! overshoot), the setup guard, the starting throw, split throws and one
//! direction per turn. Their declarations carry no checks beyond their
//! squares and throw values, so they lower where `lower` reads them.

use super::*;

pub(super) fn build_movement(m: &Merged, setup: &[Vec<u8>; 2]) -> Movement {
    let (gates, gate_clause) = m.set_of(SquareKind::Gate);
    let (truncate_at, truncate_clause) = m.set_of(SquareKind::Truncate);
    let (immobile, immobile_clause) = m.set_of(SquareKind::Immobile);
    let (no_backward, no_backward_clause) = m.set_of(SquareKind::NoBackward);
    let (no_forward, no_forward_clause) = m.set_of(SquareKind::NoForward);
    let (priority, priority_clause) = m.set_of(SquareKind::Priority);
    let (overshoot, _) = m.set_of(SquareKind::Overshoot);
    let setup_squares = [
        setup[0].iter().copied().collect::<SquareSet>(),
        setup[1].iter().copied().collect::<SquareSet>(),
    ];
    Movement {
        backward: match m.setting(Key::Backward) {
            Some(Setting::Backward(b)) => *b,
            _ => Backward::Never,
        },
        backward_clause: m.clause(Key::Backward),
        compulsory_clause: m.clause(Key::Compulsory),
        voluntary_pass: matches!(m.setting(Key::Pass), Some(Setting::Bool(true))),
        voluntary_pass_clause: m.clause(Key::Pass),
        priority,
        priority_clause,
        gates,
        gate_clause,
        truncate_at,
        truncate_clause,
        immobile,
        immobile_clause,
        no_backward,
        no_backward_clause,
        no_forward,
        no_forward_clause,
        own_clause: m.clause(Key::OwnPiece),
        hit: match m.setting(Key::Opposing) {
            Some(Setting::Hit(h)) => *h,
            _ => Hit::Swap,
        },
        swap_clause: m.clause(Key::Opposing),
        overshoot,
        setup_guard: m.get(Key::Guard).is_some(),
        setup_guard_clause: m.clause(Key::Guard),
        guard_squares: match m.setting(Key::Guard) {
            Some(Setting::Squares(on)) => [*on, *on],
            _ => setup_squares,
        },
        guard_on_setup: !matches!(m.setting(Key::Guard), Some(Setting::Squares(_))),
        setup_squares,
        bear_off_voluntary: m.get(Key::BearOffVoluntary).is_some(),
        bear_off_voluntary_clause: m.clause(Key::BearOffVoluntary),
        start_throw: match m.setting(Key::StartThrow) {
            Some(Setting::StartThrow { throw, .. }) => Some(*throw),
            _ => None,
        },
        start_throw_side: match m.setting(Key::StartThrow) {
            Some(Setting::StartThrow { side, .. }) => *side,
            _ => None,
        },
        start_throw_counted: matches!(
            m.setting(Key::StartThrow),
            Some(Setting::StartThrow { counted: true, .. })
        ),
        start_throw_clause: m.clause(Key::StartThrow),
        split: matches!(m.setting(Key::Split), Some(Setting::Bool(false))),
        split_any: matches!(m.setting(Key::Split), Some(Setting::Bool(true))),
        pass_beside_entry: matches!(m.setting(Key::Pass), Some(Setting::Flag)),
        split_clause: m.clause(Key::Split),
        one_direction: m.get(Key::OneDirection).is_some(),
        one_direction_clause: m.clause(Key::OneDirection),
        backward_extra: m.get(Key::BackwardExtra).is_some(),
        backward_extra_clause: m.clause(Key::BackwardExtra),
        last_piece: match m.setting(Key::LastPiece) {
            Some(Setting::LastPiece(from, to)) => Some((*from, *to)),
            _ => None,
        },
        last_piece_clause: m.clause(Key::LastPiece),
    }
}

impl Lowerer<'_> {
    /// `backward move gives extra throw` beside `backward never`: the extra
    /// throw could never be given.
    pub(super) fn check_backward_extra(&mut self, m: &Merged) {
        let (Some(extra), Some(back)) = (m.get(Key::BackwardExtra), m.get(Key::Backward)) else {
            return;
        };
        if back.setting != Setting::Backward(Backward::Never) {
            return;
        }
        self.errors.push(RuleError::Conflict {
            src: self.src(extra.layer),
            span: mspan(extra.span.start, extra.span.end),
            other: (back.layer == extra.layer).then(|| mspan(back.span.start, back.span.end)),
            what: "an extra throw is given to every backward move, but no piece ever moves backward"
                .into(),
            label: "never given".into(),
            help: "declare how pieces move backward (`backward when no forward move`), or drop the extra throw"
                .into(),
        });
    }

    /// The checks of a throw split into any number of parts: its units hold
    /// at most `MAX_PARTS` parts, whose later parts go back at most to the
    /// hand; and an extra throw held after a lost rest needs such throws.
    pub(super) fn check_any_parts(
        &mut self,
        m: &Merged,
        throws: Option<&Throws>,
        squares: &[SquareRule],
    ) {
        let any = matches!(m.setting(Key::Split), Some(Setting::Bool(true)));
        if let Some(i) = m.get(Key::HeldExtra)
            && !any
        {
            self.bad(
                i.layer,
                &i.span,
                "`lost rest holds extra throw` needs throws split into any number of parts: otherwise no rest is ever lost",
                "no rest to lose",
                "add `split throw into any number of parts`, or remove this line",
            );
        }
        let Some(i) = m.get(Key::Split).filter(|_| any) else {
            return;
        };
        let most = throws
            .and_then(|t| t.values.iter().copied().max())
            .unwrap_or(0);
        const MAX_PARTS: usize = 2 + MoreParts::CAPACITY;
        if usize::from(most) > MAX_PARTS {
            self.bad(
                i.layer,
                &i.span,
                format!(
                    "a throw split into any number of parts is written with at most {MAX_PARTS} parts, and these rules throw up to {most}"
                ),
                "too many parts",
                format!("keep the throw values at {MAX_PARTS} or below, or write `split throw between two pieces`"),
            );
        }
        let far = squares.iter().position(|sq| {
            sq.on_land
                .as_ref()
                .is_some_and(|l| !matches!(l.effect, Relocation::Stay | Relocation::Hand))
        });
        if let Some(s) = far {
            self.bad(
                i.layer,
                &i.span,
                format!(
                    "a throw split into any number of parts may send a piece back to the hand mid-throw, but square {s} relocates it elsewhere, which a part after the second cannot write"
                ),
                "parts relocate to the hand only",
                format!("make square {s} `relocate to hand` or `stay`, or write `split throw between two pieces`"),
            );
        }
    }
}
