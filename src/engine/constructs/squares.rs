//! The rules of single squares (`at SQUARES: EFFECT`) that are flags or
//! a target square: gates, truncation, immobile squares, priority, no
//! backward move, where a hit piece goes, diversion, overshoot, extra and
//! bound throws, missed turns and the way back to the hand. A square's
//! landing (relocation), lock and exit have their own modules.
//!
//! The model value with its clauses, and its words: how `senet rules show`
//! says it, its token in `senet rules summary`, and how a move it refuses
//! reads.

use super::words::*;
use crate::engine::*;

/// What a square does.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SquareRule {
    /// What happens to a piece that lands here.
    pub on_land: Option<Landing>,
    /// Bear off from this square only with these throws (bit `v`), whatever
    /// the distance; `None`: the general bear-off rule.
    pub exit_throws: Option<u32>,
    pub exit_clause: Clause,
    /// An opposing piece hit here is sent to this square (then that square's
    /// landing rule applies) instead of swapping (T-18, B-15).
    pub hit_sends_to: Option<u8>,
    /// When `hit_sends_to` is taken, the landing is refused (B-15: the
    /// piece is never swapped); otherwise it is an ordinary swap.
    pub hit_refused_when_taken: bool,
    /// Only a forward move sends the hit piece; a backward move onto it
    /// swaps (HK-5).
    pub hit_sends_forward_only: bool,
    pub hit_clause: Clause,
    /// When a move targets a protected opposing piece here and the mover has
    /// no other forward move, the mover goes to this square instead (B-13).
    pub divert_when_protected: Option<u8>,
    pub divert_clause: Clause,
    /// A piece that moves here gives its owner an extra throw that must be
    /// used by this piece.
    pub bound_extra: bool,
    pub bound_clause: Clause,
    /// A piece that moves here makes its owner miss the next turn.
    pub miss_turn: bool,
    pub miss_clause: Clause,
    /// A piece here may bear off only if it already stood here when the turn
    /// began (A-14 alternative of B-11). Added by the rules compiler.
    pub exit_from_turn_start: bool,
    pub exit_from_turn_start_clause: Clause,
    /// While its owner has a piece here, the owner's other pieces cannot move
    /// and each unit deals with this piece (B-12).
    pub lock: Option<Lock>,
    /// A forward move that would pass this square ends on this other square
    /// instead, whose landing rule then applies (KD-10 Trap).
    pub overshoot_to: Option<u8>,
    /// The drop is there only while `overshoot_to` is empty; while it is
    /// taken the piece has no such move (LK-16: `when empty`).
    pub overshoot_when_empty: bool,
    pub overshoot_clause: Clause,
    /// A piece that lands here gives its owner another throw, taken once the
    /// current throw is fully used (PC-6).
    pub extra_throw: bool,
    pub extra_clause: Clause,
    /// A piece that bears off from here gives its owner another throw, as
    /// `extra_throw` does for a landing.
    pub off_extra: bool,
    pub off_extra_clause: Clause,
    /// When a throw gives its owner no legal unit, a piece here goes back to
    /// the hand instead of the pass (PC-5: `3:1-hand`).
    pub stuck_to_hand: bool,
    pub stuck_clause: Clause,
    /// A move onto this square while a piece of either side stands on it
    /// ends where this says instead (`taken target diverts mover to`);
    /// the square it names, when taken, diverts again by its own rule.
    pub divert_when_taken: Option<Landing>,
    /// A piece here moves, with one of these throws, to a square off the
    /// track's order (`stay, moving with 1, 2, 3 to 15`).
    pub leave: Option<Leave>,
}

/// `stay, moving with VALUES to SQUARE`: with one of `throws` (bit `v`),
/// a piece on the square moves to where `to` sends it; a forward move by
/// the throw.
#[derive(Debug, Clone, PartialEq)]
pub struct Leave {
    pub throws: u32,
    pub to: Landing,
}

// Words: the `rules show` sentence of each effect, after "Square 12: ".

pub const GATE: &str = "no move may pass it; a piece must land on it exactly before going further";
pub const TRUNCATE: &str = "a move that would pass it stops on it";
pub const IMMOBILE: &str = "a piece here never moves along the track; it may only bear off";
pub const PRIORITY: &str =
    "while a piece here can move, the player must move one of the pieces on such squares";
pub const BOUND_EXTRA: &str =
    "a piece that moves here earns one extra throw, which must be used by that piece";
pub const MISS_TURN: &str = "a piece that moves here makes its owner miss their next turn";
pub const OFF_EXTRA: &str = "a piece that bears off from here gives its owner another throw, taken once the current throw is used";
pub const EXTRA_THROW: &str =
    "a piece that lands here gives its owner another throw, taken once the current throw is used";
pub const NO_BACKWARD: &str = "a piece here never moves backward";
/// `rules show`: `at S: no forward move` (HM-9b).
pub const NO_FORWARD: &str =
    "a piece here never moves forward along the track: it bears off, or moves backward";
pub const STUCK_TO_HAND: &str = "when a throw gives its owner no legal move, the piece here goes back to the hand and the turn ends";

/// `at S: hit sends to T [else landing forbidden]` (T-18, B-15).
pub fn hit_sends_sentence(
    names: &Names,
    t: u8,
    refused_when_taken: bool,
    forward_only: bool,
) -> String {
    format!(
        "an opposing piece {} onto here is not swapped: it goes to {}{}",
        if forward_only {
            "moved forward"
        } else {
            "moved"
        },
        names.sq(t),
        if refused_when_taken {
            "; while that square is taken, no piece may move onto it here"
        } else {
            ""
        }
    )
}

/// A hit refused because the square the hit piece would go to is taken
/// (B-15).
pub(crate) fn refused_hit(cx: &Refused) -> Said {
    let to = cx.refusal.to;
    let dest = cx.rules.squares()[to as usize].hit_sends_to.unwrap_or(to);
    Said::new(
        format!("{dest} is taken"),
        format!(
            "the piece on {} is never swapped: it would go to {}, which is taken",
            cx.sq(to),
            cx.sq(dest)
        ),
    )
}

/// `at S: overshoot drops to T [when empty]` (KD-10 Trap, LK-16).
pub fn overshoot_sentence(names: &Names, t: u8, when_empty: bool) -> String {
    format!(
        "a forward move that would pass it ends on {} instead{}",
        names.sq(t),
        if when_empty {
            "; while that square is taken, the piece has no such move"
        } else {
            ""
        }
    )
}

/// A drop refused because the square it drops to is taken (LK-16).
pub(crate) fn refused_drop(cx: &Refused, over: u8) -> Said {
    let to = cx.refusal.to;
    Said::new(
        format!("{to} is taken"),
        format!(
            "a move that would pass {} drops to {} only while that square is empty, and it is taken",
            cx.sq(over),
            cx.sq(to)
        ),
    )
}

/// `at S: protected target diverts to T` (B-13).
pub fn divert_sentence(names: &Names, t: u8) -> String {
    format!(
        "when a move targets a protected opposing piece here and the mover has no other forward move, the mover goes to {} instead",
        names.sq(t)
    )
}

/// `rules show`: `taken target diverts mover to SQUARE [else ...]`.
pub fn divert_taken_sentence(
    names: &Names,
    effect: Relocation,
    when_taken: Option<Relocation>,
) -> String {
    let to = |r: Relocation| r.sentence(&|s| names.sq(s));
    let mut t = format!(
        "a move onto the square while a piece of either side stands on it ends elsewhere: the mover {}",
        to(effect)
    );
    if let (Relocation::To(_), Some(f)) = (effect, when_taken) {
        t += &format!("; if that square is taken, it {}", to(f));
    } else if let Relocation::To(s) = effect {
        t += &format!(
            "; if that square is taken, the rule of {} decides, and without one the move is not allowed",
            names.sq(s)
        );
    }
    t
}

/// `rules show`: `stay, moving with VALUES to SQUARE [else ...]`.
pub fn stay_moving_sentence(
    names: &Names,
    throws: u32,
    effect: Relocation,
    when_taken: Option<Relocation>,
) -> String {
    let to = |r: Relocation| r.sentence(&|s| names.sq(s));
    let values: Vec<u8> = (0..32u8).filter(|v| throws & (1 << v) != 0).collect();
    let mut t = format!(
        "a piece that lands here stays; with a throw of {} it moves from here (a forward move) and {}",
        list(&values),
        to(effect)
    );
    if let (Relocation::To(_), Some(f)) = (effect, when_taken) {
        t += &format!("; if that square is taken, it {}", to(f));
    } else if let Relocation::To(_) = effect {
        t += "; if that square is taken, it cannot move so";
    }
    t
}

/// The `rules summary` lines of the square sets that shape a move.
pub fn set_tokens(m: &Movement) -> [String; 4] {
    [
        format!(
            "priority: {}{}",
            set_token(m.priority),
            cl(&m.priority_clause)
        ),
        format!("gates: {}{}", set_token(m.gates), cl(&m.gate_clause)),
        format!(
            "truncate: {}{}",
            set_token(m.truncate_at),
            cl(&m.truncate_clause)
        ),
        format!(
            "immobile: {}{}",
            set_token(m.immobile),
            cl(&m.immobile_clause)
        ),
    ]
}

/// The `rules summary` line of the squares that never move backward,
/// when there are some.
pub fn no_backward_token(m: &Movement) -> Option<String> {
    (!m.no_backward.is_empty()).then(|| {
        format!(
            "no backward from: {}{}",
            set_token(m.no_backward),
            cl(&m.no_backward_clause)
        )
    })
}

/// The `rules summary` line of the squares that never move forward along
/// the track, when there are some.
pub fn no_forward_token(m: &Movement) -> Option<String> {
    (!m.no_forward.is_empty()).then(|| {
        format!(
            "no forward from: {}{}",
            set_token(m.no_forward),
            cl(&m.no_forward_clause)
        )
    })
}

impl SquareRule {
    /// The `rules summary` line of a square with rules: `square 27: land
    /// count-down-from 15 [T-14]; ...`.
    pub fn token(&self, s: usize) -> String {
        let mut parts = Vec::new();
        if let Some(l) = &self.on_land {
            parts.push(l.token());
        }
        if let Some(e) = self.exit_throws {
            parts.push(format!("exit {}{}", bitlist(e), cl(&self.exit_clause)));
        }
        if self.exit_from_turn_start {
            parts.push(format!(
                "exit-from-turn-start{}",
                cl(&self.exit_from_turn_start_clause)
            ));
        }
        if let Some(h) = self.hit_sends_to {
            let taken = if self.hit_refused_when_taken {
                " else refused"
            } else {
                ""
            };
            // Printed only when used, so other summaries stay as they were.
            let fwd = if self.hit_sends_forward_only {
                " forward-only"
            } else {
                ""
            };
            parts.push(format!(
                "hit-sends-to {h}{taken}{fwd}{}",
                cl(&self.hit_clause)
            ));
        }
        if let Some(d) = self.divert_when_protected {
            parts.push(format!("divert {d}{}", cl(&self.divert_clause)));
        }
        if self.bound_extra {
            parts.push(format!("bound-extra{}", cl(&self.bound_clause)));
        }
        if self.miss_turn {
            parts.push(format!("miss-turn{}", cl(&self.miss_clause)));
        }
        if self.extra_throw {
            parts.push(format!("extra-throw{}", cl(&self.extra_clause)));
        }
        if self.off_extra {
            parts.push(format!("off-extra{}", cl(&self.off_extra_clause)));
        }
        if self.stuck_to_hand {
            parts.push(format!("stuck-to-hand{}", cl(&self.stuck_clause)));
        }
        if let Some(l) = &self.divert_when_taken {
            parts.push(format!(
                "divert-when-taken {}",
                l.token().trim_start_matches("land ")
            ));
        }
        if let Some(l) = &self.leave {
            parts.push(format!(
                "leave {} to {}",
                bitlist(l.throws),
                l.to.token().trim_start_matches("land ")
            ));
        }
        if let Some(d) = self.overshoot_to {
            parts.push(format!(
                "overshoot-to {d}{}{}",
                // Printed only when used, so other summaries stay as they were.
                if self.overshoot_when_empty {
                    " when-empty"
                } else {
                    ""
                },
                cl(&self.overshoot_clause)
            ));
        }
        if let Some(l) = &self.lock {
            parts.push(l.token());
        }
        format!("square {s}: {}", parts.join("; "))
    }
}

/// A move refused by the rule of a square: a gate passed, an immobile
/// piece, a priority square, no backward move, a missed turn.
pub(crate) fn refused(cx: &Refused) -> Said {
    let from = cx.refusal.from;
    match cx.refusal.forbid {
        Forbid::Gate(g) => Said::new(
            format!("passes {g}"),
            format!(
                "the move from {from} would pass {}, which must be landed on exactly",
                cx.sq(g)
            ),
        ),
        Forbid::Immobile => Said::new(
            "this piece only bears off",
            format!(
                "a piece on {} does not move along the track; it only bears off",
                cx.sq(from)
            ),
        ),
        Forbid::Priority => Said::new(
            "another piece must move",
            "a piece on a priority square can move, and one of those must",
        ),
        Forbid::NoBackward => Said::new(
            "never moves backward from here",
            format!("a piece on {} never moves backward", cx.sq(from)),
        ),
        Forbid::NoForward => Said::new(
            "only bears off or moves back",
            format!(
                "a piece on {} does not move forward along the track; it only bears off or moves backward",
                cx.sq(from)
            ),
        ),
        // `MissedTurn`: `Refusal::words` sends only this module's refusals.
        _ => Said::new("turn missed", format!("{}'s turn is missed", cx.side())),
    }
}

// What the tables of the other constructs and the play of a plain unit
// need of the square rules.

/// The squares whose landing does something the play of a plain unit
/// applies itself, compiled with the rule set ([`Landings::compile`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct Landings {
    /// The squares of the board where a landing gives no other throw
    /// (PC-6: one that does is played by the general `play`): a plain
    /// unit lands on one of them. What a landing triggers there is in the
    /// masks below and the lock squares.
    pub land_plain: u64,
    /// The squares a plain unit would land on but for the region of a
    /// bear-off without a throw: played plainly out of line, where the
    /// bear-off's due is seen to (`PlainSquares::home`), or, in a rule
    /// set of `Tables::plain_home`, inlined by the copy that sees to it.
    pub land_home: u64,
    /// The squares of the board.
    pub board_squares: u64,
    /// Squares from which a piece that cannot move goes back to the hand
    /// (PC-5).
    pub stuck_squares: u64,
    /// Squares whose landing piece makes its owner miss the next turn
    ///
    pub miss_squares: u64,
    /// Squares whose landing piece gets an extra throw bound to it.
    pub bound_squares: u64,
}

impl Landings {
    /// The landing squares of a rule set's square rules.
    pub(crate) fn compile(rules: &Ruleset) -> Landings {
        let mut f = Landings::default();
        for s in 1..=rules.board.len {
            let r = &rules.squares[s as usize];
            f.board_squares |= 1 << s;
            if r.stuck_to_hand {
                f.stuck_squares |= 1 << s;
            }
            // A move into the region of a bear-off without a throw may
            // make one due, which a copy of the plain play sees to (out of
            // line, or inlined under `Tables::plain_home`; `land_home`).
            let home = match rules.bear_off.reach {
                crate::engine::Reach::WithoutThrow { region, .. } => region.contains(s),
                _ => false,
            };
            if !r.extra_throw && !home {
                f.land_plain |= 1 << s;
            }
            if !r.extra_throw && home {
                f.land_home |= 1 << s;
            }
            if r.miss_turn {
                f.miss_squares |= 1 << s;
            }
            if r.bound_extra {
                f.bound_squares |= 1 << s;
            }
        }
        f
    }
}

/// Whether a square rule leaves a piece standing on the square free to
/// step on as on any square (nothing in `attempt` looks at it for a move
/// starting there, apart from what the tables check separately).
pub(crate) fn leaves_plainly(sq: &SquareRule) -> bool {
    let SquareRule {
        on_land: _,
        exit_throws,
        exit_clause: _,
        hit_sends_to: _,
        hit_refused_when_taken: _,
        hit_sends_forward_only: _,
        hit_clause: _,
        divert_when_protected: _,
        divert_clause: _,
        bound_extra: _,
        bound_clause: _,
        miss_turn: _,
        miss_clause: _,
        exit_from_turn_start: _, // only in `bear_off_unit`
        exit_from_turn_start_clause: _,
        lock,
        overshoot_to: _,
        overshoot_when_empty: _,
        overshoot_clause: _,
        extra_throw: _, // the gate excludes it
        extra_clause: _,
        off_extra: _, // `play` only, which is general for its rule sets
        off_extra_clause: _,
        stuck_to_hand: _, // the gate excludes it
        stuck_clause: _,
        divert_when_taken: _,
        leave,
    } = sq;
    exit_throws.is_none() && lock.is_none() && leave.is_none()
}

/// Whether a move generated onto this square needs nothing but the own-piece
/// and protection tests (no relocation, no diversion).
pub(crate) fn lands_plainly(sq: &SquareRule) -> bool {
    let SquareRule {
        on_land,
        exit_throws: _,
        exit_clause: _,
        hit_sends_to: _,           // read only through `on_land` in generation
        hit_refused_when_taken: _, // as `hit_sends_to`: never `swap_plain`
        hit_sends_forward_only: _, // as `hit_sends_to`
        hit_clause: _,
        divert_when_protected,
        divert_clause: _,
        bound_extra: _, // `play` only: `bound_squares`
        bound_clause: _,
        miss_turn: _, // `play` only: `miss_squares`
        miss_clause: _,
        exit_from_turn_start: _,
        exit_from_turn_start_clause: _,
        lock,
        overshoot_to: _, // through `Movement::overshoot`
        overshoot_when_empty: _,
        overshoot_clause: _,
        extra_throw: _, // the gate excludes it
        extra_clause: _,
        off_extra: _, // a bear-off lands nowhere
        off_extra_clause: _,
        stuck_to_hand: _, // the gate excludes it
        stuck_clause: _,
        divert_when_taken,
        leave: _, // a square moved from
    } = sq;
    // A piece that stays where it lands (B-12 water) is not relocated,
    // whether or not the square is taken: `landing_unit` gives no
    // relocation. A lock there matters only to `play` (`Effects::water`).
    let _ = lock;
    unrelocated(on_land) && divert_when_protected.is_none() && divert_when_taken.is_none()
}

/// Whether a piece landing on this square is never relocated: no landing
/// rule, or one that keeps it there (B-12 water).
pub(crate) fn unrelocated(on_land: &Option<Landing>) -> bool {
    on_land
        .as_ref()
        .is_none_or(|l| l.effect == Relocation::Stay)
}

// The generator's side: a missed turn (R-10, stage 1).

impl Ruleset {
    pub(crate) fn skip_due(&self, pos: &Position) -> bool {
        pos.skip[pos.to_move.index()] && !pos.extra
    }
}

// Stage 8, priority squares.

impl Ruleset {
    /// Stage 8, priority squares: when a piece on one can move, the
    /// units from other squares are refused. `start` is where this
    /// throw's units begin in `out`.
    #[inline]
    pub(crate) fn priority_stage<const WHY: bool>(
        &self,
        me: SquareSet,
        start: usize,
        out: &mut Vec<Unit>,
        why: &mut Vec<Refusal>,
    ) {
        let prio = self.movement.priority;
        if me.0 & prio.0 != 0 && out[start..].iter().any(|u| prio.contains(u.from)) {
            let mut i = start;
            while i < out.len() {
                if !prio.contains(out[i].from) {
                    let u = out.remove(i);
                    if WHY {
                        why.push(Refusal {
                            from: u.from,
                            to: u.to,
                            forbid: Forbid::Priority,
                        });
                    }
                } else {
                    i += 1;
                }
            }
        }
    }
}

// The replay gloss: a missed turn, a stuck piece sent back to the hand, a
// move stopped short, a square that costs the next turn or binds the next
// throw.

/// `White misses this turn`.
pub(crate) fn glossed_skip(cx: &PlayedUnit, out: &mut Vec<String>) {
    out.push(format!("{} misses this turn", cx.side()));
}

/// A piece that cannot move goes back to the hand (PC-5).
pub(crate) fn glossed_stuck(cx: &PlayedUnit, out: &mut Vec<String>) {
    out.push(format!(
        "{}; no legal move: the piece on {} goes back to the hand",
        cx.throw,
        cx.sq(cx.unit.from)
    ));
}

/// A move stopped short by truncation.
pub(crate) fn glossed_truncation(cx: &PlayedUnit, out: &mut Vec<String>) {
    if cx.effects.truncation {
        out.push(format!(
            "stopped short on {}: the throw would have gone further",
            cx.sq(cx.unit.to)
        ));
    }
}

/// A landing that costs the next turn or binds the next throw to
/// the piece.
pub(crate) fn glossed_landing(cx: &PlayedUnit, out: &mut Vec<String>) {
    let side = cx.side();
    if cx.after.skip[side.index()] && !cx.before.skip[side.index()] {
        out.push(format!(
            "on {}, {side} will miss its next turn",
            cx.sq(cx.unit.to)
        ));
    }
    if let Some(b) = cx.after.bound {
        out.push(format!("the next throw must move the piece on {b}"));
    }
}
