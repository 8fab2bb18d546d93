//! Bearing off: the throw that takes a piece off, the region all of a
//! side's pieces must stand in first (K-13), voluntary bearing off (KD-6),
//! and the squares that bear off only with some throws or only from the
//! turn's start.
//!
//! The model value with its clauses, and its words: how `senet rules show`
//! says it, its token in `senet rules summary`, and how a move it refuses
//! reads.

use super::words::*;
use crate::engine::movegen::Tried;
use crate::engine::*;

#[derive(Debug, Clone, PartialEq)]
pub struct BearOff {
    /// A piece may bear off only while all its side's pieces on the board are
    /// on these squares (K-13); `None`: always.
    pub all_in: Option<SquareSet>,
    pub all_in_clause: Clause,
    /// The step a bearing-off move must reach.
    pub reach: Reach,
    pub clause: Clause,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Exactly one step past the last square (A-2 default).
    ExactPast,
    /// Exactly the last square: reaching it removes the piece (A-2 alternative).
    ExactLast,
    /// Any move beyond the last square (JQ-9).
    Beyond,
    /// No throw bears a piece off, and no move goes beyond the last
    /// square: a piece on `from` leaves without a throw once all its
    /// side's pieces stand on `region` (`auto_off.rs`).
    WithoutThrow { from: u8, region: SquareSet },
}

// Words.

/// `rules show`: `bear off voluntary` (KD-6).
pub const VOLUNTARY: &str = "Bearing off is never compulsory: when every legal move bears off, the player may pass instead.";
/// `rules show`, after "Square 30: ": `exit only from turn start`.
pub const EXIT_FROM_TURN_START: &str =
    "a piece here bears off only if it stood here when the turn began";

impl Reach {
    /// `rules show`.
    pub fn sentence(self) -> &'static str {
        match self {
            Reach::ExactPast => {
                "A piece bears off with the exact throw that takes it one step past the last square."
            }
            Reach::ExactLast => {
                "A piece bears off with the exact throw that takes it to the last square."
            }
            Reach::Beyond => "A piece bears off with any throw that takes it past the last square.",
            Reach::WithoutThrow { .. } => {
                "No throw bears a piece off; a piece leaves the board without a throw."
            }
        }
    }
}

/// `rules show`: `bear off only when all in SQUARES` (K-13).
pub fn all_in_sentence(names: &Names, squares: SquareSet) -> String {
    format!(
        "A piece may bear off only while all its side's pieces on the board are on squares {}.",
        names.set(squares)
    )
}

/// `rules show`, after an exit's sentence, where no throw bears a piece off.
pub const EXIT_WITHOUT_THROW: &str =
    ", which never happens: under these rules no throw bears a piece off";

/// `rules show`, after "Square 30: ": `exit with THROWS`, with the throws
/// as declared (`None`: any) among all the rules give.
pub fn exit_sentence(ts: &Option<Vec<u8>>, all: u32) -> String {
    match throws_text(ts, all).as_str() {
        "any throw" => "a piece here bears off with any throw".into(),
        t => format!("a piece here bears off only with {t}"),
    }
}

impl BearOff {
    /// The `rules summary` line.
    pub fn token(&self) -> String {
        let reach = match self.reach {
            Reach::WithoutThrow { from, region } => super::auto_off::token(from, region),
            r => format!("{r:?}"),
        };
        format!(
            "bear off: {reach}{}; all in {}{}",
            cl(&self.clause),
            self.all_in.map_or("-".into(), set_token),
            cl(&self.all_in_clause)
        )
    }
}

/// The `rules summary` line of voluntary bearing off, when declared.
pub fn voluntary_token(m: &Movement) -> Option<String> {
    m.bear_off_voluntary
        .then(|| format!("bear off voluntary{}", cl(&m.bear_off_voluntary_clause)))
}

/// `squares 26..30`, or `squares 26, 28` for a set that is not one range.
fn region(set: SquareSet) -> String {
    let squares: Vec<u8> = set.iter().collect();
    if squares.is_empty() {
        return String::new();
    }
    let contiguous = squares.windows(2).all(|w| w[1] == w[0] + 1);
    if contiguous && squares.len() > 2 {
        format!("squares {}..{}", squares[0], squares[squares.len() - 1])
    } else {
        format!(
            "squares {}",
            squares
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

/// A move refused by the bear-off rules.
pub(crate) fn refused(cx: &Refused) -> Said {
    let (from, throw, side) = (cx.refusal.from, cx.throw, cx.side());
    match cx.refusal.forbid {
        Forbid::BeyondEnd if matches!(cx.rules.bear_off().reach, Reach::WithoutThrow { .. }) => {
            Said::new(
                "beyond the end",
                format!(
                    "a throw of {throw} carries the piece on {from} beyond the end: no throw bears a piece off"
                ),
            )
        }
        Forbid::BeyondEnd => Said::new(
            "beyond the end",
            format!(
                "a throw of {throw} carries the piece on {from} beyond the end: bearing off needs the exact throw"
            ),
        ),
        Forbid::ExitThrow => {
            let ok = cx.rules.squares()[from as usize]
                .exit_throws
                .map_or(Vec::new(), |e| values_of(e & !1));
            Said::new(
                "wrong throw to bear off",
                format!(
                    "a piece on {} bears off only with a throw of {}",
                    cx.sq(from),
                    if ok.is_empty() {
                        String::new()
                    } else {
                        list(&ok)
                    }
                ),
            )
        }
        Forbid::NotAllIn => {
            let region = cx.rules.bear_off().all_in.map(region).unwrap_or_default();
            Said::new(
                "not all pieces home",
                format!("{side} may bear off only when all its pieces are on {region}"),
            )
        }
        // `ArrivedThisTurn`: `Refusal::words` sends only this module's
        // refusals.
        _ => Said::new(
            "arrived this turn",
            format!(
                "the piece reached {} this turn and may bear off from it only in a later turn",
                cx.sq(from)
            ),
        ),
    }
}

/// The squares a bear-off is always allowed from, compiled with the rule
/// set ([`BearOffSquares::compile`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct BearOffSquares {
    /// Squares from which `bear_off_unit` always allows a bear-off: no
    /// "only from turn start" rule there, no `all_in` region (K-13)
    /// and no blockade that could stand on the way (none, or one formed
    /// only where runs count, none of which is on the way: GK-4's 1..26
    /// before GK-5's exits from 26 and 28 to 30).
    pub sure: u64,
}

impl BearOffSquares {
    /// The sure squares of a rule set.
    pub(crate) fn compile(rules: &Ruleset) -> BearOffSquares {
        let mut sure = 0;
        let off = rules.board.off();
        for s in 1..=rules.board.len {
            // (`bear_off_unit` asks `blocked` about the path to `off`.)
            let reach = between(s, off) | 1u64.checked_shl(u32::from(off)).unwrap_or(0);
            if !rules.squares[s as usize].exit_from_turn_start
                && rules.bear_off.all_in.is_none()
                && !rules.blockades.iter().any(|b| b.may_stop(reach))
                && rules.target_blockade.is_none()
            {
                sure |= 1 << s;
            }
        }
        BearOffSquares { sure }
    }
}

impl BearOff {
    /// Whether a forward move ending on `to` (past the board when above
    /// `len`) bears off.
    #[inline]
    pub(crate) fn bears_off(&self, to: u8, len: u8) -> bool {
        match self.reach {
            Reach::ExactPast | Reach::Beyond | Reach::WithoutThrow { .. } => to > len,
            Reach::ExactLast => to >= len,
        }
    }

    /// Whether a bear-off by a move ending on `to` reaches exactly as the
    /// rule asks.
    #[inline]
    pub(crate) fn exact(&self, to: u8, len: u8) -> bool {
        match self.reach {
            Reach::ExactPast => to == len + 1,
            Reach::ExactLast => to == len,
            Reach::Beyond => true,
            Reach::WithoutThrow { .. } => false,
        }
    }
}

// Whether a bear-off is legal in a position.

impl Ruleset {
    pub(crate) fn bear_off_unit(
        &self,
        pos: &Position,
        from: u8,
        throw: u8,
        extra_mark: bool,
    ) -> Tried {
        let off = self.board.off();
        if self.squares[from as usize].exit_from_turn_start && pos.arrived.contains(from) {
            return Err((
                Refusal {
                    from,
                    to: off,
                    forbid: Forbid::ArrivedThisTurn,
                },
                None,
            ));
        }
        if let Some(region) = self.bear_off.all_in {
            let me = pos.pieces[pos.to_move.index()];
            if me.0 & !region.0 != 0 || pos.queue.count(pos.to_move) > 0 {
                return Err((
                    Refusal {
                        from,
                        to: off,
                        forbid: Forbid::NotAllIn,
                    },
                    None,
                ));
            }
        }
        // P-1: the path of a bearing-off move runs to the last square.
        let path = between(from, off);
        let forbid = self
            .blocked(pos, path, off)
            .map(Forbid::Blockade)
            .or_else(|| {
                self.target_blocked(pos, path, off)
                    .map(Forbid::TargetBlockade)
            });
        match forbid {
            Some(forbid) => Err((
                Refusal {
                    from,
                    to: off,
                    forbid,
                },
                None,
            )),
            None => Ok(Unit::bear_off(throw, from, off, extra_mark)),
        }
    }
}

// The replay gloss.

/// A piece borne off.
pub(crate) fn glossed(cx: &PlayedUnit, out: &mut Vec<String>) {
    out.push(format!(
        "{}; bears off from {}",
        cx.throw,
        cx.sq(cx.unit.from)
    ));
}
