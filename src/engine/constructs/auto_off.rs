//! Bearing off without a throw: `bear off without a throw from 30 when all
//! pieces on 21..30`. No throw ever bears a piece off; instead, as soon as
//! all of a side's pieces stand on the region and one of them stands on
//! the square, that piece leaves the board at once, as a unit of its own
//! without a throw (SGN `0:30-off`).
//!
//! The bear-off is due after the move that completes the condition: the
//! side that moved stays to move, with the pending throw it had (or none),
//! and its only unit is the bear-off; the turn then goes on or ends as the
//! throw of that move said. Whether it is due is read from the board, so
//! the position string needs no flag: a side whose pieces are all on the
//! region with one on the square always owes the bear-off before it
//! throws (a move that ends outside the region leaves a piece outside it,
//! and the opponent's moves never complete it: a hit piece goes back).
//!
//! Its parts: whether a bear-off is due (`auto_off_due`), the squares
//! that rule it out by the side's pieces alone (`AutoOffSquares`), the unit
//! (`auto_off_unit`), the generator's stage that keeps every throw back
//! while it is due (`auto_off_stage`), and its words.

use super::words::*;
use crate::engine::movegen::{Refusal, refuse_all};
use crate::engine::*;

/// The bear-off without a throw as two masks, compiled with the rule set:
/// whether it may be due is read from the side's pieces with two tests and
/// no branch. A position with a piece waiting on the square while the
/// others are still on their way is not calm (`Ruleset::calm` tests the
/// held squares only), but `generate_in_rule_state` finds by these masks
/// that no stage of the rule state applies and runs the calm stages, and
/// the simulator's draw asks `Ruleset::calm_waiting` after `calm_and_free`
/// and tells the stages the position is calm.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct AutoOffSquares {
    /// The square the piece leaves from; empty without the construct.
    pub from: u64,
    /// Every square outside the region: a piece there means the bear-off
    /// is not due.
    pub away: u64,
}

impl AutoOffSquares {
    /// The masks of a rule set's bear-off.
    pub(crate) fn compile(reach: Reach) -> AutoOffSquares {
        match reach {
            Reach::WithoutThrow { from, region } => AutoOffSquares {
                from: 1u64 << from,
                away: !region.0,
            },
            _ => AutoOffSquares::default(),
        }
    }

    /// Whether a bear-off without a throw may be due for a side with the
    /// pieces `me`: a piece on the square and none outside the region.
    /// `false` says it is not due; `true` leaves the hand and the queue
    /// to [`Ruleset::auto_off_due`].
    #[inline(always)]
    pub(crate) fn may_be_due(&self, me: u64) -> bool {
        (me & self.from != 0) & (me & self.away == 0)
    }
}

impl Ruleset {
    /// The square of the piece that leaves without a throw now, if the
    /// rule set bears off so and the side to move meets the condition.
    #[inline]
    pub fn auto_off_due(&self, pos: &Position) -> Option<u8> {
        let Reach::WithoutThrow { from, region } = self.bear_off.reach else {
            return None;
        };
        let side = pos.to_move;
        let me = pos.pieces[side.index()].0;
        let due = me >> from & 1 != 0
            && me & !region.0 == 0
            && pos.hand[side.index()] == 0
            && pos.queue.count(side) == 0;
        due.then_some(from)
    }

    /// The unit of a due bear-off without a throw (`0:30-off`).
    pub(crate) fn auto_off_unit(&self, from: u8) -> Unit {
        Unit {
            kind: UnitKind::NoThrow,
            ..Unit::bear_off(0, from, self.board.off(), false)
        }
    }

    /// The generator's stage: while a bear-off without a throw is due, no
    /// throw is played (every piece is refused where it stands). `true`
    /// when it decided the list.
    #[inline]
    pub(crate) fn auto_off_stage<const WHY: bool>(
        &self,
        pos: &Position,
        why: &mut Vec<Refusal>,
    ) -> bool {
        if self.auto_off_due(pos).is_none() {
            return false;
        }
        refuse_all::<WHY>(pos.pieces[pos.to_move.index()], Forbid::BearOffDue, why);
        true
    }
}

/// Whether a unit is due without a choice: a missed turn (`skip`) or a
/// bear-off without a throw. A free unit that is not due (a lock's
/// release) is offered beside throwing.
#[inline]
pub fn due_without_choice(units: &[Unit]) -> bool {
    units
        .first()
        .is_some_and(|u| u.kind == UnitKind::Skip || (u.kind == UnitKind::NoThrow && u.off))
}

// Words.

/// `rules show`.
pub fn sentence(names: &Names, from: u8, region: SquareSet) -> String {
    format!(
        "No throw bears a piece off. When all of a side's pieces stand on squares {} and one stands on {}, that piece leaves the board at once, without a throw; the turn then goes on or ends as the throw of the move before said.",
        names.set(region),
        names.sq(from)
    )
}

/// The `rules summary` form of the reach.
pub fn token(from: u8, region: SquareSet) -> String {
    format!("WithoutThrow from {from} when all in {}", set_token(region))
}

/// A throw refused because a bear-off without a throw is due first.
pub(crate) fn refused(cx: &Refused) -> Said {
    let from = cx.rules.auto_off_due(cx.position).unwrap_or(0);
    Said::new(
        "bear-off due first",
        format!(
            "all of {}'s pieces stand in the home region and one stands on {}: it leaves the board without a throw (`0:{from}-off`) before anything is thrown",
            cx.side(),
            cx.sq(from)
        ),
    )
}

/// The replay gloss of the bear-off.
pub(crate) fn glossed(cx: &PlayedUnit, out: &mut Vec<String>) {
    out.push(format!(
        "no throw; bears off from {}, all its side's pieces being home",
        cx.sq(cx.unit.from)
    ));
}

#[cfg(test)]
mod tests {
    use crate::diag::SourceFile;
    use crate::engine::{Position, Side, UnitKind};

    /// MC-8 beside R-10: a move that lands on a square that misses its
    /// side's next turn and so brings the side's last piece home makes
    /// the bear-off without a throw due in the same turn; the bear-off
    /// comes next and ends the turn, and the turn missed is the side's
    /// next one, after the other side's.
    #[test]
    fn a_due_bear_off_comes_before_a_missed_turn() {
        let text = "extends \"macabot\"\nat 22: miss next turn   [X-2]\n";
        let rules = crate::rules::load_source(SourceFile::new("o.senet", text), &[]).unwrap();
        let board = rules.board();
        let mut pos = Position::parse(
            "5WW1W1/7WB1/2B1W2BBB b 0-0 extra 44",
            board.len,
            board.row_len,
        )
        .unwrap();
        let mut units = Vec::new();
        rules.legal_units(&pos, 3, &mut units);
        let step = *units
            .iter()
            .find(|u| u.from == 19 && u.to == 22)
            .expect("19-22 is legal");
        rules.apply(&mut pos, &step).unwrap();
        assert_eq!(pos.to_move, Side::Black, "the turn goes on");
        assert!(pos.skip[Side::Black.index()], "the next turn is missed");
        rules.free_units(&pos, &mut units);
        assert_eq!(units.len(), 1);
        assert_eq!(units[0].kind, UnitKind::NoThrow, "{:?}", units[0]);
        assert_eq!(units[0].from, 30);
        rules.legal_units(&pos, 3, &mut units);
        assert!(units.is_empty(), "no throw while the bear-off is due");
        rules.free_units(&pos, &mut units);
        rules.apply(&mut pos, &units[0]).unwrap();
        assert_eq!(pos.to_move, Side::White, "the bear-off ends the turn");
        assert!(
            pos.skip[Side::Black.index()],
            "Black's next turn is still missed"
        );
    }
}
