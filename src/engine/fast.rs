//! The tables of move generation and play, compiled with a rule set.
//!
//! Most moves of a game are ordinary steps that no rule touches: a piece
//! goes `t` squares on, onto an empty square or a swappable opposing piece.
//! When a rule file is compiled, [`FastTables::compile`] works out, for
//! every throw value and every square, which moves are such ordinary steps
//! (and which are bear-offs, and which can never be legal), as square sets.
//! The generator's forward and backward stages (`movegen.rs`) start from
//! them and clear the squares each rule forbids in the position; a move the
//! tables do not decide is tried by `Ruleset::attempt`, so the result is the
//! same units in the same order as trying every move would give.
//!
//! Here too: protection as a mask of the protected pieces
//! ([`Ruleset::protected_mask`]), the blocked steps of a position, and the
//! play of an ordinary unit in place ([`Ruleset::play_plain`]).

use super::constructs::lock::LockSquares;
use super::constructs::protection::Masks;
use super::{Backward, Hit, Reach, Relocation, Ruleset, SquareRule, between};

/// Throw values the tables cover: bit `v` of `u32` masks, as `Throws::extra`.
pub(super) const THROWS: usize = 32;

/// Tables precomputed from a [`Ruleset`] when it is compiled. All masks are
/// square sets (bit `s` = square `s`); the per-throw arrays are indexed by the
/// throw value. A default (all-zero) value has `enabled == false` and makes
/// the engine use its general path only.
///
/// The tables are derived data: they take no part in comparing rule sets
/// (`PartialEq` is always true, so two rule sets are equal when their rules
/// are) and print as `FastTables { enabled }` only.
#[derive(Clone)]
pub(crate) struct FastTables {
    /// The per-throw tables were computed (always, for a compiled rule set;
    /// false in a default value, which makes every move go through
    /// `attempt` and every unit through the general `play`).
    pub enabled: bool,
    /// Bit `v`: the tables cover a throw of value `v` (the rule set's values).
    pub throws: u32,
    /// `throws` while `enabled`, else 0: the one word the generator tests.
    pub tabled: u64,
    /// The rule set enters pieces from the hand (PC-2) or splits throws
    /// (PC-3): the generator's stage 9 runs.
    pub hand_stage: bool,
    /// Squares from which a forward move by the throw is an ordinary step:
    /// it ends on the board `t` squares on, passes no gate, truncation or
    /// overshoot square, starts on no immobile, exit or lock square, and
    /// lands on a square without relocation (a "stay" landing
    /// counts as none) or diversion. Legal exactly when no blockade stands
    /// on its path and the target holds no own piece and no protected
    /// opposing piece.
    pub fwd_plain: [u64; THROWS],
    /// Squares from which a forward move by the throw is an ordinary step
    /// unless the target holds an opposing piece (the target may divert a
    /// mover that it refuses, B-13): onto an empty square it is a plain
    /// step, onto an own piece never legal, onto an opposing piece it is
    /// left to `attempt`.
    pub fwd_unhit: [u64; THROWS],
    /// Squares from which the forward move is a bear-off in every position:
    /// legal exactly when `Ruleset::bear_off_unit` allows it.
    pub fwd_off: [u64; THROWS],
    /// Squares from which `bear_off_unit` always allows a bear-off: no
    /// "only from turn start" rule there and no `all_in` region (K-13).
    pub off_sure: u64,
    /// Squares from which a forward move by the throw is never legal and
    /// never diverts (a gate passed, an immobile square, the wrong exit
    /// throw, past the end without bearing off).
    pub fwd_dead: [u64; THROWS],
    /// As `fwd_plain` for backward moves (when the rule set allows them).
    pub back_plain: [u64; THROWS],
    /// As `fwd_dead` for backward moves.
    pub back_dead: [u64; THROWS],
    /// The protection rule's masks (`constructs/protection.rs`).
    pub protection: Masks,
    /// The lock squares (`constructs/lock.rs`).
    pub lock: LockSquares,
    /// The squares of the board: a plain unit lands on one of them. What a
    /// landing triggers there is in the masks below and `lock`.
    pub land_plain: u64,
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
    /// Squares on which a hit opposing piece is simply swapped to the
    /// mover's square (`Hit::Swap`) or sent to the lowest empty square
    /// (`Hit::LowestEmpty`, JQ-6), with no `hit_sends_to`.
    pub swap_plain: u64,
    /// Hits send the hit piece to the lowest empty square (JQ-6).
    pub hit_lowest: bool,
    /// The largest throw value the tables cover.
    pub max_throw: u8,
    /// The rule set has an opening (K-5, K-7) or a starting throw (KD-10):
    /// the generator's opening stage looks at the turn number.
    pub opening: bool,
    /// A unit list with a move may still end in a pass: voluntary passes
    /// (T-10) or bear-offs that are never compulsory (KD-6).
    pub pass_beside_moves: bool,
}

impl PartialEq for FastTables {
    fn eq(&self, _: &FastTables) -> bool {
        true
    }
}

impl std::fmt::Debug for FastTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FastTables")
            .field("enabled", &self.enabled)
            .finish_non_exhaustive()
    }
}

impl Default for FastTables {
    fn default() -> Self {
        FastTables {
            enabled: false,
            throws: 0,
            fwd_plain: [0; THROWS],
            fwd_unhit: [0; THROWS],
            fwd_off: [0; THROWS],
            off_sure: 0,
            fwd_dead: [0; THROWS],
            back_plain: [0; THROWS],
            back_dead: [0; THROWS],
            protection: Masks::default(),
            tabled: 0,
            hand_stage: false,
            lock: LockSquares::default(),
            land_plain: 0,
            board_squares: 0,
            stuck_squares: 0,
            miss_squares: 0,
            bound_squares: 0,
            swap_plain: 0,
            hit_lowest: false,
            max_throw: 0,
            opening: false,
            pass_beside_moves: false,
        }
    }
}

/// Whether a square rule leaves a piece standing on the square free to
/// step on as on any square (nothing in `attempt` looks at it for a move
/// starting there, apart from what the tables check separately).
fn leaves_plainly(sq: &SquareRule) -> bool {
    let SquareRule {
        on_land: _,
        exit_throws,
        exit_clause: _,
        hit_sends_to: _,
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
        overshoot_clause: _,
        extra_throw: _, // the gate excludes it
        extra_clause: _,
        stuck_to_hand: _, // the gate excludes it
        stuck_clause: _,
    } = sq;
    exit_throws.is_none() && lock.is_none()
}

/// Whether a move generated onto this square needs nothing but the own-piece
/// and protection tests (no relocation, no diversion).
fn lands_plainly(sq: &SquareRule) -> bool {
    let SquareRule {
        on_land,
        exit_throws: _,
        exit_clause: _,
        hit_sends_to: _, // read only through `on_land` in generation
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
        overshoot_clause: _,
        extra_throw: _, // the gate excludes it
        extra_clause: _,
        stuck_to_hand: _, // the gate excludes it
        stuck_clause: _,
    } = sq;
    // A piece that stays where it lands (B-12 water) is not relocated,
    // whether or not the square is taken: `landing_unit` gives no
    // relocation. A lock there matters only to `play` (`Effects::water`).
    let _ = lock;
    unrelocated(on_land) && divert_when_protected.is_none()
}

/// Whether a piece landing on this square is never relocated: no landing
/// rule, or one that keeps it there (B-12 water).
fn unrelocated(on_land: &Option<super::Landing>) -> bool {
    on_land
        .as_ref()
        .is_none_or(|l| l.effect == Relocation::Stay)
}

impl FastTables {
    /// The tables of a rule set.
    pub fn compile(rules: &Ruleset) -> FastTables {
        let mut f = FastTables {
            protection: Masks::compile(&rules.protection),
            lock: LockSquares::compile(&rules.squares[..=rules.board.len as usize]),
            ..FastTables::default()
        };
        let len = rules.board.len;
        let off = rules.board.off();
        let mv = &rules.movement;
        let sq = |s: u8| &rules.squares[s as usize];
        for &v in &rules.throws.values {
            f.throws |= 1 << v;
            f.max_throw = f.max_throw.max(v);
        }
        for t in 1..THROWS as u8 {
            for from in 1..=len {
                let b = 1u64 << from;
                // (JQ-4, the setup guard, depends on the square in front:
                // the forward stage takes guarded pieces out per position.)
                // Forward: the decisions of `attempt` that depend only on
                // the squares, in its order.
                let to = from + t;
                let passed = between(from, to.min(off));
                let trunc = mv.truncate_at.0 & passed != 0;
                let over = mv.overshoot.0 & passed != 0;
                let gate = mv.gates.0 & between(from, to) != 0;
                let bears_off = match rules.bear_off.reach {
                    Reach::ExactPast | Reach::Beyond => to >= off,
                    Reach::ExactLast => to >= len,
                };
                let exact = match rules.bear_off.reach {
                    Reach::ExactPast => to == off,
                    Reach::ExactLast => to == len,
                    Reach::Beyond => true,
                };
                let immobile = mv.immobile.contains(from);
                if sq(from).lock.is_some() || trunc || over {
                    // general
                } else if gate {
                    f.fwd_dead[t as usize] |= b;
                } else if let Some(exits) = sq(from).exit_throws.filter(|_| bears_off || immobile) {
                    if exits & (1 << t) == 0 {
                        f.fwd_dead[t as usize] |= b;
                    } else {
                        f.fwd_off[t as usize] |= b;
                    }
                } else if immobile && !bears_off {
                    f.fwd_dead[t as usize] |= b;
                } else if bears_off {
                    if exact {
                        f.fwd_off[t as usize] |= b;
                    } else {
                        f.fwd_dead[t as usize] |= b;
                    }
                } else if leaves_plainly(sq(from))
                    && to <= len
                    && lands_plainly(sq(to))
                    && mv.hit != Hit::Forbidden
                {
                    f.fwd_plain[t as usize] |= b;
                } else if leaves_plainly(sq(from)) && to <= len && unrelocated(&sq(to).on_land) {
                    // B-13 diversion only happens on a hit.
                    f.fwd_unhit[t as usize] |= b;
                }
                // Backward.
                if mv.backward == Backward::Never {
                    continue;
                }
                let step = if mv.backward == Backward::OneSquareWhenNoForward {
                    1
                } else {
                    t
                };
                if sq(from).lock.is_some() {
                    // general
                } else if immobile || step >= from || mv.no_backward.contains(from) {
                    // (PC-4: a square without backward moves.)
                    f.back_dead[t as usize] |= b;
                } else if lands_plainly(sq(from - step)) {
                    f.back_plain[t as usize] |= b;
                }
            }
        }
        for s in 1..=len {
            let r = sq(s);
            // PC-6: a landing that gives another throw is played by the
            // general `play`.
            f.board_squares |= 1 << s;
            if r.stuck_to_hand {
                f.stuck_squares |= 1 << s;
            }
            if !r.extra_throw {
                f.land_plain |= 1 << s;
            }
            if r.miss_turn {
                f.miss_squares |= 1 << s;
            }
            if r.bound_extra {
                f.bound_squares |= 1 << s;
            }
            if matches!(mv.hit, Hit::Swap | Hit::LowestEmpty) && r.hit_sends_to.is_none() {
                f.swap_plain |= 1 << s;
            }
            if !r.exit_from_turn_start
                && rules.bear_off.all_in.is_none()
                && rules.blockades.is_empty()
            {
                f.off_sure |= 1 << s;
            }
        }
        f.hit_lowest = mv.hit == Hit::LowestEmpty;
        f.opening = !rules.opening.is_empty() || mv.start_throw.is_some();
        f.pass_beside_moves = mv.voluntary_pass || mv.bear_off_voluntary;
        f.enabled = true;
        f.tabled = u64::from(f.throws);
        f.hand_stage = rules.entry.is_some() || mv.split;
        f
    }
}

impl Ruleset {}

#[cfg(test)]
mod tests {
    //! The fast path against the general one: the same rule set with its
    //! tables switched off is the reference. Every built-in rule set, alone
    //! and with each option and each pair of options that compile together;
    //! positions from random playouts and from random placements with random
    //! rule state (missed turns, bound throws, the queue, the opening, ...).

    use super::*;
    use crate::engine::testing::{random_position, variants};
    use crate::engine::{Position, Side, Unit, UnitKind};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    /// Compares the two engines on `pos` for every throw (and the units due
    /// without one); returns the next position of a random unit.
    fn compare(
        name: &str,
        fast: &Ruleset,
        slow: &Ruleset,
        pos: &Position,
        rng: &mut Pcg64,
    ) -> Option<Position> {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let mut throws = fast.throws.distinct_values();
        throws.push(0);
        throws.push(throws.iter().max().unwrap() + 1);
        let mut all = Vec::new();
        for &t in &throws {
            fast.legal_units(pos, t, &mut a);
            slow.legal_units(pos, t, &mut b);
            assert_eq!(a, b, "{name}: legal units for {t} in {}", pos.write(30, 10));
            all.extend_from_slice(&a);
        }
        fast.free_units(pos, &mut a);
        slow.free_units(pos, &mut b);
        assert_eq!(a, b, "{name}: free units in {}", pos.write(30, 10));
        all.extend_from_slice(&a);
        // A unit from a square without a piece of the mover: refused. And
        // units no generator makes but a caller may pass: a bear-off
        // marked as a hit, squares beyond the board's 64 bits.
        let empty = (1..=fast.board.len).find(|&s| !pos.pieces[pos.to_move.index()].contains(s));
        let mut refused: Vec<Unit> = all
            .iter()
            .filter(|u| u.kind == UnitKind::Move && u.from != 0)
            .take(1)
            .filter_map(|u| empty.map(|from| Unit { from, ..*u }))
            .collect();
        refused.extend(
            all.iter()
                .filter(|u| u.off)
                .map(|u| Unit { hit: true, ..*u }),
        );
        refused.extend(
            all.iter()
                .filter(|u| u.kind == UnitKind::Move && !u.off)
                .take(1)
                .map(|u| Unit {
                    from: u.from + 64,
                    to: u.to + 64,
                    ..*u
                }),
        );
        for u in all.iter().chain(&refused) {
            let played = fast.play(pos, u);
            assert_eq!(
                played,
                slow.play(pos, u),
                "{name}: play {u} in {}",
                pos.write(30, 10)
            );
            // `apply` is `play` in place, and leaves the position alone on
            // a refusal.
            let mut q = *pos;
            match (fast.apply(&mut q, u), played) {
                (Ok(fx), Ok((next, fx2))) => assert!(q == next && fx == fx2, "{name}: apply {u}"),
                (Err(a), Err(b)) => assert!(a == b && q == *pos, "{name}: apply {u} refused"),
                (a, b) => panic!("{name}: apply {u} gave {a:?}, play {b:?}"),
            }
        }
        let real: Vec<&Unit> = all
            .iter()
            .filter(|u| u.throw != 0 || u.kind != UnitKind::Move)
            .collect();
        if real.is_empty() {
            return None;
        }
        let u = real[rng.random_range(0..real.len())];
        slow.play(pos, u).ok().map(|(p, _)| p)
    }

    #[test]
    fn fast_path_equals_general_path() {
        let mut rng = Pcg64::seed_from_u64(5);
        let mut served = 0;
        for (name, fast) in variants() {
            if !fast.fast.enabled {
                continue;
            }
            served += 1;
            let mut slow = fast.clone();
            // The reference: the same generator with no step tables (every
            // move tried by `attempt`) and the general `play` only.
            slow.fast.enabled = false;
            slow.fast.tabled = 0;
            for _ in 0..300 {
                let pos = random_position(&fast, &mut rng);
                compare(&name, &fast, &slow, &pos, &mut rng);
            }
            for game in 0..6 {
                let first = if game % 2 == 0 {
                    Side::White
                } else {
                    Side::Black
                };
                let mut pos = Position::start(&fast, first);
                for _ in 0..300 {
                    if fast.game_over(&pos) {
                        break;
                    }
                    match compare(&name, &fast, &slow, &pos, &mut rng) {
                        Some(next) => pos = next,
                        None => break,
                    }
                }
            }
        }
        assert!(served >= 10, "the fast path served only {served} rule sets");
    }
}
