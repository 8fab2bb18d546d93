//! Relocation: where a piece goes after it lands on a square that sends it
//! on (T-14, K-11, R-12, PC-7), where a hit piece goes on from the square
//! it was sent to (T-18), and where a locked piece is released to or sent
//! after a failed throw (B-12). A relocation may name a fallback for a
//! taken square (`relocate to 15 else lowest empty`), carried beside it as
//! `Landing::when_taken`.
//!
//! Everything about the construct is here: the model value, how it is
//! resolved against the occupied squares, and its words.

use super::words::{Names, PlayedUnit, Refused, Said, cl};
use crate::engine::{Clause, Relocated, Ruleset, SquareSet};

/// Where a relocated piece goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relocation {
    /// To this square if empty; otherwise the first empty square counting
    /// down from it (T-14).
    CountDownFrom(u8),
    /// To this square if it is empty, else the move is illegal (K-15b
    /// without a fallback).
    To(u8),
    /// To the lowest-numbered empty square (K-11).
    LowestEmpty,
    /// Off the board into a shared first-in-first-out queue that enters this
    /// square whenever it is empty.
    Queue(u8),
    /// The piece stays (B-12: the lock decides what happens next).
    Stay,
    /// Back to its owner's hand, to enter again (PC-7).
    Hand,
    /// To this square if it is empty; otherwise the first empty square
    /// counting up from it (`else counting up`); refused when every square
    /// from it to the last is taken.
    CountUpFrom(u8),
    /// A number of squares on from the square the piece landed on: back
    /// when `step` is negative (`relocate back 5`: a piece that lands on
    /// 33 goes to 28), forward when positive (`relocate forward 3`). The
    /// rules compiler checks that the square lies on the board for every
    /// square that has the rule. When that square is taken, `then` says
    /// what happens.
    By { step: i8, then: WhenTaken },
}

/// What a relative relocation ([`Relocation::By`]) does when the square it
/// reaches is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WhenTaken {
    /// The move is refused.
    Refuse,
    /// The first empty square counting down from it.
    CountDown,
    /// The first empty square counting up from it.
    CountUp,
    /// The lowest-numbered empty square.
    LowestEmpty,
    /// The shared queue that enters it. The rules compiler does not
    /// produce it (the queue enters one fixed square, see `queue_square`);
    /// it is kept so that a relative move resolves every fallback.
    Queue,
}

impl Relocation {
    /// Where a piece that landed on `at` goes, given the occupied squares
    /// `occ` (without the piece itself) on a track of `len` squares, with
    /// `when_taken` as the fallback of a `To` whose square is taken.
    /// `Some(None)`: it stays. `None`: nowhere to go (the move is refused).
    #[inline]
    pub(crate) fn resolve(
        self,
        at: u8,
        occ: SquareSet,
        len: u8,
        when_taken: Option<Relocation>,
    ) -> Option<Option<Relocated>> {
        match self {
            Relocation::Stay => Some(None),
            Relocation::Hand => Some(Some(Relocated::Hand)),
            Relocation::To(s) if occ.contains(s) => match when_taken {
                Some(Relocation::To(_)) | None => None,
                Some(fallback) => fallback.resolve(at, occ, len, None),
            },
            Relocation::To(s) => Some(Some(Relocated::Square(s))),
            Relocation::CountDownFrom(s) => {
                let empty = SquareSet::range(1, s).0 & !occ.0;
                empty
                    .checked_ilog2()
                    .map(|q| Some(Relocated::Square(q as u8)))
            }
            Relocation::LowestEmpty => {
                let empty = SquareSet::range(1, len).0 & !occ.0;
                (empty != 0).then(|| Some(Relocated::Square(empty.trailing_zeros() as u8)))
            }
            Relocation::Queue(s) => Some(Some(if occ.contains(s) {
                Relocated::Queue
            } else {
                Relocated::Square(s)
            })),
            Relocation::CountUpFrom(s) => {
                let empty = SquareSet::range(s, len).0 & !occ.0;
                (empty != 0).then(|| Some(Relocated::Square(empty.trailing_zeros() as u8)))
            }
            Relocation::By { step, then } => {
                let t = at.wrapping_add_signed(step);
                let fallback = match then {
                    WhenTaken::Refuse => None,
                    WhenTaken::CountDown => Some(Relocation::CountDownFrom(t)),
                    WhenTaken::CountUp => Some(Relocation::CountUpFrom(t)),
                    WhenTaken::LowestEmpty => Some(Relocation::LowestEmpty),
                    WhenTaken::Queue => Some(Relocation::Queue(t)),
                };
                Relocation::To(t).resolve(at, occ, len, fallback)
            }
        }
    }

    /// Whether [`resolve`](Self::resolve), with `when_taken` as the
    /// fallback, finds a place for the piece whatever the occupied squares,
    /// as long as one square of the track is empty (the square the mover
    /// left): the lowest empty square, the queue, the hand, or a square
    /// whose fallback is one of those. The forward stage counts such
    /// landings beside the ordinary steps (`Steps::fwd_sure`).
    pub(crate) fn always_resolves(self, when_taken: Option<Relocation>) -> bool {
        match self {
            Relocation::Stay
            | Relocation::Hand
            | Relocation::LowestEmpty
            | Relocation::Queue(_)
            | Relocation::CountUpFrom(1) => true,
            Relocation::To(_) => when_taken
                .is_some_and(|f| !matches!(f, Relocation::To(_)) && f.always_resolves(None)),
            Relocation::CountDownFrom(_) | Relocation::CountUpFrom(_) | Relocation::By { .. } => {
                false
            }
        }
    }

    /// The squares one of which, empty, lets [`resolve`](Self::resolve)
    /// (with `when_taken` as the fallback, on a track of `len` squares)
    /// find a place for the piece, for a relocation that
    /// [`always_resolves`](Self::always_resolves) does not cover: to a
    /// square, else counting down or up from one (GK-7, T-14's `else
    /// counting down`). GK-7's room (15 squares against ten pieces) is
    /// never full in its games, but a rule file's may be (a short board,
    /// a room of a few squares): the forward stage counts those landings
    /// beside the steps only in a position where a square of the room is
    /// empty (`Steps::fwd_roomy`), and leaves them to the slow path else.
    /// `None` for a relative relocation.
    pub(crate) fn room(self, when_taken: Option<Relocation>, len: u8) -> Option<u64> {
        match self {
            Relocation::CountDownFrom(s) => Some(SquareSet::range(1, s).0),
            Relocation::CountUpFrom(s) => Some(SquareSet::range(s, len).0),
            // A fallback to a square is not taken (`resolve`).
            Relocation::To(s) => Some(
                SquareSet::single(s).0
                    | when_taken
                        .filter(|f| !matches!(f, Relocation::To(_)))
                        .and_then(|f| f.room(None, len))
                        .unwrap_or(0),
            ),
            _ => None,
        }
    }

    /// Whether a piece that lands on `at` is sent to a square of a track of
    /// `len` squares (a relative relocation could point off the board).
    pub fn fits(self, at: u8, len: u8) -> bool {
        match self {
            Relocation::By { step, .. } => at
                .checked_add_signed(step)
                .is_some_and(|t| (1..=len).contains(&t)),
            _ => true,
        }
    }

    /// The queue square, when this relocation feeds the dead-piece queue.
    pub(crate) fn queue_square(self) -> Option<u8> {
        match self {
            Relocation::Queue(q) => Some(q),
            _ => None,
        }
    }

    /// How `senet rules show` says it, after "the piece": `sq` names a
    /// square (`square 15 (House of Rebirth)`).
    pub fn sentence(self, sq: &dyn Fn(u8) -> String) -> String {
        match self {
            Relocation::CountDownFrom(s) => format!(
                "goes to {}, or if it is taken to the first empty square counting down from it",
                sq(s)
            ),
            Relocation::To(s) => format!("goes to {}", sq(s)),
            Relocation::LowestEmpty => "goes to the lowest-numbered empty square".into(),
            Relocation::Queue(s) => format!(
                "leaves the board and enters {} if it is empty, else joins the back of a shared queue that enters it, first in first out, whenever it empties",
                sq(s)
            ),
            Relocation::Stay => "stays".into(),
            Relocation::Hand => "goes back to its owner's hand, to enter again".into(),
            Relocation::CountUpFrom(s) => format!(
                "goes to {}, or if it is taken to the first empty square counting up from it",
                sq(s)
            ),
            Relocation::By { step, then } => {
                let n = step.unsigned_abs();
                let way = if step < 0 { "back" } else { "forward" };
                let squares = if n == 1 { "square" } else { "squares" };
                let taken = match then {
                    WhenTaken::Refuse => "; if that square is taken, the move is not allowed",
                    WhenTaken::CountDown => {
                        "; if that square is taken, to the first empty square counting down from it"
                    }
                    WhenTaken::CountUp => {
                        "; if that square is taken, to the first empty square counting up from it"
                    }
                    WhenTaken::LowestEmpty => {
                        "; if that square is taken, to the lowest-numbered empty square"
                    }
                    WhenTaken::Queue => {
                        "; if that square is taken, into a shared queue that enters it, first in first out, whenever it empties"
                    }
                };
                format!("goes {way} {n} {squares}{taken}")
            }
        }
    }

    /// The compact token of `senet rules summary` (`count-down-from 15`).
    pub fn token(self) -> String {
        match self {
            Relocation::CountDownFrom(s) => format!("count-down-from {s}"),
            Relocation::To(s) => format!("to {s}"),
            Relocation::LowestEmpty => "lowest-empty".into(),
            Relocation::Queue(s) => format!("queue {s}"),
            Relocation::Stay => "stay".into(),
            Relocation::Hand => "hand".into(),
            Relocation::CountUpFrom(s) => format!("count-up-from {s}"),
            Relocation::By { step, then } => {
                let taken = match then {
                    WhenTaken::Refuse => "",
                    WhenTaken::CountDown => " else count-down",
                    WhenTaken::CountUp => " else count-up",
                    WhenTaken::LowestEmpty => " else lowest-empty",
                    WhenTaken::Queue => " else queue",
                };
                format!("by {step:+}{taken}")
            }
        }
    }
}

/// What happens to a piece that lands on a square.
#[derive(Debug, Clone, PartialEq)]
pub struct Landing {
    pub effect: Relocation,
    pub clause: Clause,
    /// When `effect` is `To(s)` and `s` is occupied: `None`, the move is
    /// illegal; `Some(r)`, the piece is relocated by `r` instead (A-3
    /// alternative "lowest empty square": `Some(LowestEmpty)`). Added by the
    /// rules compiler.
    pub when_taken: Option<Relocation>,
}

// Words of a landing.

impl Landing {
    /// `rules show`, after "Square 27: ": where a piece that lands goes.
    /// `effect` and `when_taken` as declared.
    pub fn sentence(names: &Names, effect: Relocation, when_taken: Option<Relocation>) -> String {
        let reloc = |r: Relocation| r.sentence(&|s| names.sq(s));
        let mut t = format!("a piece that lands here {}", reloc(effect));
        if let (Relocation::To(_), Some(f)) = (effect, when_taken) {
            t += &format!("; if that square is taken, it {}", reloc(f));
        } else if let Relocation::To(_) = effect {
            t += "; if that square is taken, the move is not allowed";
        }
        t
    }

    /// The square's `rules summary` part: `land count-down-from 15 [T-14]`.
    pub fn token(&self) -> String {
        let fb = self
            .when_taken
            .map(|f| format!(" else {}", f.token()))
            .unwrap_or_default();
        format!("land {}{fb}{}", self.effect.token(), cl(&self.clause))
    }
}

/// A move refused because the square its piece would be sent to is taken.
pub(crate) fn refused(cx: &Refused) -> Said {
    Said::new(
        "nowhere to go",
        format!(
            "the piece could not be placed where {} sends it",
            cx.sq(cx.refusal.to)
        ),
    )
}

// Where a rule set sends pieces.

impl Ruleset {
    /// The square the dead-piece queue enters, if the rule set has one: a
    /// landing that feeds it, or a lock's release that does when
    /// its square is taken (A-3/queue under B-12).
    pub(crate) fn queue_square(&self) -> Option<u8> {
        self.squares.iter().find_map(|s| {
            s.on_land
                .as_ref()
                .and_then(|l| l.effect.queue_square())
                .or_else(|| {
                    s.lock
                        .as_ref()
                        .and_then(|l| l.release_when_taken)
                        .and_then(Relocation::queue_square)
                })
        })
    }
}

// The replay gloss.

/// Where a landing sent the piece; `false` when it was not relocated.
pub(crate) fn glossed(cx: &PlayedUnit, out: &mut Vec<String>) -> bool {
    let to = cx.unit.to;
    match cx.unit.relocated {
        Some(Relocated::Square(s)) => out.push(format!(
            "landed on {} and goes on to {}",
            cx.sq(to),
            cx.sq(s)
        )),
        Some(Relocated::Queue) => out.push(format!(
            "landed on {} and joins the queue of dead pieces",
            cx.sq(to)
        )),
        Some(Relocated::Hand) => {
            out.push(format!("landed on {} and goes back to the hand", cx.sq(to)))
        }
        None => return false,
    }
    true
}

/// The head of the dead-piece queue re-entered the board.
pub(crate) fn glossed_queue(cx: &PlayedUnit, out: &mut Vec<String>) {
    if cx.effects.queue_enter {
        out.push("the head of the queue re-enters the board".to_string());
    }
}
// Moves that end elsewhere than on their square: a taken square that
// diverts the mover (`taken target diverts mover to`), and a piece that
// leaves its square for another with some throws (`stay, moving with`).

impl Ruleset {
    /// Where a move from `from` onto the taken square `to` ends, which
    /// diverts it: the square its rule names, or the fallback when that one
    /// is taken; a named square that is taken and diverts by a rule of its
    /// own diverts again. `None`: nowhere (the move is refused).
    pub(crate) fn divert_taken(
        &self,
        pos: &crate::engine::Position,
        from: u8,
        to: u8,
    ) -> Option<u8> {
        let mut occ = pos.occupied();
        occ.remove(from);
        let mut at = to;
        // Each step names another square: at most one per square.
        for _ in 0..=self.board.len {
            let Some(rule) = &self.squares[at as usize].divert_when_taken else {
                return (!occ.contains(at)).then_some(at);
            };
            if !occ.contains(at) {
                return Some(at);
            }
            match rule.effect {
                Relocation::To(s)
                    if occ.contains(s) && self.squares[s as usize].divert_when_taken.is_some() =>
                {
                    at = s;
                }
                r => {
                    return match r.resolve(at, occ, self.board.len, rule.when_taken) {
                        Some(Some(Relocated::Square(s))) => Some(s),
                        _ => None,
                    };
                }
            }
        }
        None
    }

    /// The move of a piece that leaves `from` with `throw` as `leave` says.
    pub(crate) fn leave_unit(
        &self,
        pos: &crate::engine::Position,
        from: u8,
        throw: u8,
        extra_mark: bool,
        leave: &super::squares::Leave,
    ) -> crate::engine::movegen::Tried {
        let mut occ = pos.occupied();
        occ.remove(from);
        match leave
            .to
            .effect
            .resolve(from, occ, self.board.len, leave.to.when_taken)
        {
            Some(Some(Relocated::Square(s))) => {
                Ok(crate::engine::Unit::step(throw, from, s, false, extra_mark))
            }
            _ => Err((
                crate::engine::Refusal {
                    from,
                    to: from,
                    forbid: crate::engine::Forbid::RelocationBlocked,
                },
                None,
            )),
        }
    }

    /// Whether a piece on `from` leaves it for another square with `throw`
    /// (`stay, moving with`): a forward move, whatever square it reaches.
    pub(crate) fn leaves_with(&self, from: u8, throw: u8) -> bool {
        self.squares.get(from as usize).is_some_and(|s| {
            s.leave
                .as_ref()
                .is_some_and(|l| l.throws.checked_shr(u32::from(throw)).unwrap_or(0) & 1 != 0)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn occ(squares: &[u8]) -> SquareSet {
        squares.iter().copied().collect()
    }

    #[test]
    fn relative_relocation_counts_from_the_square_landed_on() {
        let back = Relocation::By {
            step: -5,
            then: WhenTaken::Refuse,
        };
        assert_eq!(
            back.resolve(33, occ(&[]), 40, None),
            Some(Some(Relocated::Square(28)))
        );
        // Taken, no fallback: the move is refused.
        assert_eq!(back.resolve(33, occ(&[28]), 40, None), None);
        let up = Relocation::By {
            step: 2,
            then: WhenTaken::CountUp,
        };
        assert_eq!(
            up.resolve(12, occ(&[14, 15]), 30, None),
            Some(Some(Relocated::Square(16)))
        );
        assert!(back.fits(6, 30) && !back.fits(5, 30) && !up.fits(29, 30) && up.fits(28, 30));
    }

    /// The counting relocations read the empty squares as a mask: the
    /// square each finds is the one a walk over the squares finds, for
    /// every set of taken squares of a short track and every start.
    #[test]
    fn counting_finds_the_square_a_walk_finds() {
        let len = 9;
        for taken in 0u64..1 << len {
            let occ = SquareSet(taken << 1);
            let walk = |mut squares: Box<dyn Iterator<Item = u8>>| {
                squares
                    .find(|&q| !occ.contains(q))
                    .map(|q| Some(Relocated::Square(q)))
            };
            assert_eq!(
                Relocation::LowestEmpty.resolve(20, occ, len, None),
                walk(Box::new(1..=len))
            );
            for s in 0..=len + 1 {
                assert_eq!(
                    Relocation::CountDownFrom(s).resolve(20, occ, len, None),
                    walk(Box::new((1..=s).rev()))
                );
                assert_eq!(
                    Relocation::CountUpFrom(s).resolve(20, occ, len, None),
                    walk(Box::new(s..=len))
                );
            }
        }
    }

    #[test]
    fn counting_up_stops_at_the_last_square() {
        let r = Relocation::CountUpFrom(28);
        assert_eq!(
            r.resolve(27, occ(&[28]), 30, None),
            Some(Some(Relocated::Square(29)))
        );
        assert_eq!(r.resolve(27, occ(&[28, 29, 30]), 30, None), None);
        assert_eq!(r.token(), "count-up-from 28");
    }
}
