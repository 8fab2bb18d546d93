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
        split: m.get(Key::Split).is_some(),
        split_clause: m.clause(Key::Split),
        one_direction: m.get(Key::OneDirection).is_some(),
        one_direction_clause: m.clause(Key::OneDirection),
        last_piece: match m.setting(Key::LastPiece) {
            Some(Setting::LastPiece(from, to)) => Some((*from, *to)),
            _ => None,
        },
        last_piece_clause: m.clause(Key::LastPiece),
    }
}
