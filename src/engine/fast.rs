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

use super::Position;
use super::{Backward, BlockadeKind, Hit, Pred, Reach, Relocation, Ruleset, Side, SquareRule};

/// Throw values the tables cover: bit `v` of `u32` masks, as `Throws::extra`.
pub(super) const THROWS: usize = 32;

/// How [`Ruleset::protected_mask`] evaluates the protection rule, chosen
/// when the rule file is compiled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Protect {
    /// No protection rule: nothing is protected.
    Nothing,
    /// The rule is "a run of `run` or more" (B-7, T-8; `run == 0`: no run
    /// part), or "on one of `squares`" (BL-5), or the two joined by `or`
    /// (K-9a/K-9b, JQ-6): shift-ands and one mask, without a branch.
    Runs { run: u8, squares: u64 },
    /// Any other predicate: its postfix program ([`FastTables::program`]),
    /// or the walk of the tree of masks where there is none.
    #[default]
    Tree,
}

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
    /// How the protection rule is evaluated (computed whether or not the
    /// gate holds).
    pub protect: Protect,
    /// Under [`Protect::Tree`], the predicate as a union of terms (see
    /// [`Term`]) where it has that form; empty otherwise.
    pub terms: Vec<Term>,
    /// Some term asks for exact run lengths or the middle of a run.
    pub terms_runs: bool,
    /// Under [`Protect::Tree`], the predicate in postfix form, evaluated
    /// with a small stack instead of a walk of the tree; empty when it
    /// nests too deep for that stack.
    pub program: Vec<PredOp>,
    /// The program has run-length or middle-of-run leaves.
    pub program_runs: bool,
    /// Squares with a lock (B-12): a side with a piece there is dealt with
    /// by the general generator.
    pub lock_squares: u64,
    /// Squares whose lock has a release move (`0:27-15`).
    pub release_squares: u64,
    /// The squares of the board: a plain unit lands on one of them. What a
    /// landing triggers there is in the masks below and `lock_squares`.
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
            protect: Protect::Tree,
            terms: Vec::new(),
            terms_runs: false,
            program: Vec::new(),
            program_runs: false,
            tabled: 0,
            hand_stage: false,
            lock_squares: 0,
            release_squares: 0,
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

/// The pieces of `bits` in runs of exactly n (`exact[n]`, n = 1..=max) and
/// the middle pieces of odd runs; `None` when a run is longer than `max`.
#[inline]
#[allow(clippy::needless_range_loop)] // as in `protected_mask_tree`
fn runs_by_length(bits: u64, max: usize, exact: &mut [u64; 17]) -> Option<u64> {
    // One step per run (a side has a handful of pieces): its first square,
    // its length, its squares. (`exact` is the caller's: returned by value,
    // the array would be copied.)
    let mut middle = 0;
    let mut rest = bits;
    while rest != 0 {
        let lo = rest.trailing_zeros();
        let n = (!(rest >> lo)).trailing_zeros();
        if n as usize > max {
            return None;
        }
        let run = (u64::MAX >> (64 - n)) << lo;
        exact[n as usize] |= run;
        if n % 2 == 1 {
            middle |= 1u64 << (lo + n / 2);
        }
        rest &= !run;
    }
    Some(middle)
}

/// The pieces of `bits` in runs of `k` or more: shift-and finds the first
/// squares of k-square windows, shift-or spreads them over the windows.
#[inline(always)]
fn in_runs_of(bits: u64, k: u32) -> u64 {
    let mut starts = bits;
    for i in 1..k {
        starts &= bits >> i;
    }
    let mut m = starts;
    for i in 1..k {
        m |= starts << i;
    }
    m
}

/// The pieces whose run length is in `lengths` (bit n: length n), from the
/// decomposition of [`runs_by_length`]; pieces off the counted squares have
/// length 0.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // as in `protected_mask_tree`
fn of_lengths(exact: &[u64; 17], lengths: u64, counted: u64, max: usize) -> u64 {
    let mut m = if lengths & 1 != 0 { !counted } else { 0 };
    for n in 1..=max {
        m |= exact[n] & mask_of(lengths >> n & 1 != 0);
    }
    m
}

/// "A run of k or more" (2 <= k < 8) as a set of lengths: `Some(k)`.
fn run_at_least(lengths: u64) -> Option<u8> {
    let k = lengths.trailing_zeros();
    ((2..8).contains(&k) && lengths == u64::MAX << k).then_some(k as u8)
}

/// A position-wide condition of a [`Term`]; the flag negates it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cond {
    /// Some piece stands on one of these squares (KD-9).
    Taken(u64, bool),
    /// The owner has a piece on one of these squares (KD-9).
    OwnerOn(u64, bool),
    /// The owner is to miss their next turn (KD-9).
    OwnerSkips(bool),
}

/// Conditions a [`Term`] holds at most.
const TERM_CONDS: usize = 4;

/// One term of a protection rule written as a union of terms: a piece is
/// protected by the term when its run's length is in `lengths` (all ones:
/// any), it is or is not the middle of its run as `middle` says, it
/// stands on `squares`, and every condition holds. R-8 and KD-4/KD-9 have
/// this form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Term {
    pub lengths: u64,
    pub middle: Option<bool>,
    pub squares: u64,
    pub conds: [Cond; TERM_CONDS],
    pub n_conds: u8,
}

/// `pred` as a union of terms, if it is an `or` (nested `or`s included)
/// of `and`s (nested `and`s included) of leaves and negated leaves, or one
/// of those; `None` otherwise.
fn union_of_terms(pred: &Pred) -> Option<Vec<Term>> {
    fn add(t: &mut Term, p: &Pred, negated: bool) -> Option<()> {
        let cond = |t: &mut Term, c: Cond| {
            let i = t.n_conds as usize;
            if i == TERM_CONDS {
                return None;
            }
            t.conds[i] = c;
            t.n_conds += 1;
            Some(())
        };
        match p {
            Pred::Not(q) => add(t, q, !negated),
            Pred::And(ps) if !negated => ps.iter().try_for_each(|q| add(t, q, false)),
            Pred::RunLength { lengths, .. } => {
                t.lengths &= if negated { !lengths } else { *lengths };
                Some(())
            }
            Pred::Middle { .. } => {
                let want = !negated;
                if t.middle.is_some_and(|m| m != want) {
                    t.squares = 0; // middle and not middle: never
                }
                t.middle = Some(want);
                Some(())
            }
            Pred::OnSquare { squares, .. } => {
                t.squares &= if negated { !squares.0 } else { squares.0 };
                Some(())
            }
            Pred::Taken { squares, .. } => cond(t, Cond::Taken(squares.0, negated)),
            Pred::OwnerOn { squares, .. } => cond(t, Cond::OwnerOn(squares.0, negated)),
            Pred::OwnerSkips { .. } => cond(t, Cond::OwnerSkips(negated)),
            Pred::And(_) | Pred::Or(_) => None,
        }
    }
    let any = Term {
        lengths: u64::MAX,
        middle: None,
        squares: u64::MAX,
        conds: [Cond::OwnerSkips(false); TERM_CONDS],
        n_conds: 0,
    };
    let one = |p: &Pred| {
        let mut t = any;
        add(&mut t, p, false).map(|()| t)
    };
    fn terms(p: &Pred, one: &dyn Fn(&Pred) -> Option<Term>, out: &mut Vec<Term>) -> Option<()> {
        match p {
            Pred::Or(ps) => ps.iter().try_for_each(|q| terms(q, one, out)),
            p => {
                out.push(one(p)?);
                Some(())
            }
        }
    }
    let mut out = Vec::new();
    terms(pred, &one, &mut out)?;
    Some(out)
}

/// Values a protection program holds at once at most.
const PROGRAM_DEPTH: usize = 16;

/// One step of a protection predicate in postfix form: a leaf pushes its
/// mask, `And(n)` and `Or(n)` replace the top `n` masks by their
/// intersection or union, `Not` complements the top one. Leaves as in
/// [`Pred`]; position-wide facts push all ones or all zeros.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PredOp {
    /// A run of this length or more (2 <= k < 8), by shift-ands.
    RunAtLeast(u8),
    Run(u64),
    Middle,
    On(u64),
    Taken(u64),
    OwnerOn(u64),
    OwnerSkips,
    And(u8),
    Or(u8),
    Not,
}

/// Appends `pred` in postfix form; `depth` values are already on the stack.
/// The stack depth reached, or `None` when it would exceed
/// [`PROGRAM_DEPTH`].
fn postfix(pred: &Pred, out: &mut Vec<PredOp>, depth: usize) -> Option<usize> {
    let leaf = |op, out: &mut Vec<PredOp>| {
        out.push(op);
        (depth < PROGRAM_DEPTH).then_some(depth + 1)
    };
    match pred {
        Pred::RunLength { lengths, .. } => match run_at_least(*lengths) {
            Some(k) => leaf(PredOp::RunAtLeast(k), out),
            None => leaf(PredOp::Run(*lengths), out),
        },
        Pred::Middle { .. } => leaf(PredOp::Middle, out),
        Pred::OnSquare { squares, .. } => leaf(PredOp::On(squares.0), out),
        Pred::Taken { squares, .. } => leaf(PredOp::Taken(squares.0), out),
        Pred::OwnerOn { squares, .. } => leaf(PredOp::OwnerOn(squares.0), out),
        Pred::OwnerSkips { .. } => leaf(PredOp::OwnerSkips, out),
        Pred::Not(p) => {
            let reached = postfix(p, out, depth)?;
            out.push(PredOp::Not);
            Some(reached)
        }
        Pred::And(ps) | Pred::Or(ps) => {
            let n = u8::try_from(ps.len()).ok()?;
            let mut reached = depth;
            for (i, p) in ps.iter().enumerate() {
                reached = reached.max(postfix(p, out, depth + i)?);
            }
            if ps.is_empty() {
                // Empty `and` is true, empty `or` false: as the walk's folds.
                reached = reached.max(depth + 1);
                if reached > PROGRAM_DEPTH {
                    return None;
                }
            }
            out.push(if matches!(pred, Pred::And(_)) {
                PredOp::And(n)
            } else {
                PredOp::Or(n)
            });
            Some(reached)
        }
    }
}

/// A protection rule of the form "run of k or more", "on one of these
/// squares", or the two joined by `or`: `Some((k, squares))`, with `k == 0`
/// for no run part.
fn runs_or_squares(pred: &Pred) -> Option<(u8, u64)> {
    fn at_least(p: &Pred) -> Option<u8> {
        match p {
            Pred::RunLength { lengths, .. } => run_at_least(*lengths),
            _ => None,
        }
    }
    fn on_squares(p: &Pred) -> Option<u64> {
        match p {
            Pred::OnSquare { squares, .. } => Some(squares.0),
            _ => None,
        }
    }
    match pred {
        Pred::Or(ps) => match ps.as_slice() {
            [a, b] => match (at_least(a), on_squares(b), at_least(b), on_squares(a)) {
                (Some(k), Some(sq), _, _) | (_, _, Some(k), Some(sq)) => Some((k, sq)),
                _ => None,
            },
            _ => None,
        },
        p => at_least(p)
            .map(|k| (k, 0))
            .or_else(|| on_squares(p).map(|sq| (0, sq))),
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
        hit_refused_when_taken: _,
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
        hit_sends_to: _,           // read only through `on_land` in generation
        hit_refused_when_taken: _, // as `hit_sends_to`: never `swap_plain`
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

/// Bits of the squares strictly between `a` and `b` (`a < b`).
fn between(a: u8, b: u8) -> u64 {
    if b <= a + 1 {
        return 0;
    }
    let hi = if b >= 64 { u64::MAX } else { (1u64 << b) - 1 };
    hi & !((1u64 << (a + 1)) - 1)
}

impl FastTables {
    /// The tables of a rule set.
    pub fn compile(rules: &Ruleset) -> FastTables {
        let protect = match &rules.protection.rule {
            None => Protect::Nothing,
            Some(p) => runs_or_squares(p).map_or(Protect::Tree, |(run, squares)| Protect::Runs {
                run,
                squares,
            }),
        };
        let mut program = Vec::new();
        if let Some(p) = &rules.protection.rule
            && protect == Protect::Tree
            && postfix(p, &mut program, 0).is_none()
        {
            program.clear();
        }
        let program_runs = program
            .iter()
            .any(|op| matches!(op, PredOp::Run(_) | PredOp::Middle));
        let terms = match &rules.protection.rule {
            Some(p) if protect == Protect::Tree => union_of_terms(p).unwrap_or_default(),
            _ => Vec::new(),
        };
        let terms_runs = terms.iter().any(|t| {
            t.middle.is_some() || (t.lengths != u64::MAX && run_at_least(t.lengths).is_none())
        });
        let mut f = FastTables {
            protect,
            terms,
            terms_runs,
            program,
            program_runs,
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
            if let Some(lock) = &r.lock {
                f.lock_squares |= 1 << s;
                if lock.release_to.is_some() {
                    f.release_squares |= 1 << s;
                }
            }
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

impl Ruleset {
    /// The squares from which a move of `step` squares (backward when
    /// `backward`) passes a blockade: some blockade's run of `length`
    /// pieces lies wholly strictly between the two ends, as
    /// `Ruleset::blocked` finds on the move's path.
    pub(super) fn blocked_steps(&self, me: u64, opp: u64, step: u8, backward: bool) -> u64 {
        /// The first squares of `n` consecutive set bits.
        fn starts(bits: u64, n: u32) -> u64 {
            let mut r = bits;
            for i in 1..n {
                r &= bits >> i;
            }
            r
        }
        let step = step as u32;
        // The loops run to the largest throw whatever this one is, and
        // mask the distances that do not apply: a loop whose length
        // followed the throw would end on a mispredicted branch.
        let max = self.fast.max_throw as u32;
        let mut m = 0;
        for b in &self.blockades {
            let n = b.length as u32;
            if n == 0 {
                continue;
            }
            let r = match b.of {
                BlockadeKind::Opposing => starts(opp, n),
                BlockadeKind::OneColour => starts(opp, n) | starts(me, n),
                BlockadeKind::Any => starts(opp | me, n),
            };
            if r == 0 {
                // No such run on the board (most positions: a test that
                // is nearly always taken the same way).
                continue;
            }
            // Forward from s: a run starting on s+1 ..= s+step-n; backward
            // from s: on s-step+1 ..= s-n. None when n >= step: a run
            // never lies wholly strictly inside the path.
            if backward {
                for d in n..max {
                    m |= (r << d) & mask_of(d < step);
                }
            } else {
                for d in 1..=max.saturating_sub(n) {
                    m |= (r >> d) & mask_of(d + n <= step);
                }
            }
        }
        m
    }

    /// The squares of `owner`'s pieces that the protection rule protects in
    /// `pos`: [`Ruleset::protected`] for all of them at once, bit by bit.
    #[inline]
    pub(crate) fn protected_mask(&self, pos: &Position, owner: Side) -> u64 {
        match self.fast.protect {
            Protect::Nothing => 0,
            Protect::Runs { run, squares } => {
                let mine = pos.pieces[owner.index()].0;
                let b = mine & self.protection.run_squares.0;
                let by_run = match run {
                    0 => 0,
                    2 => b & ((b << 1) | (b >> 1)),
                    k => in_runs_of(b, k as u32),
                };
                by_run | (mine & squares)
            }
            Protect::Tree => self.protected_mask_tree(pos, owner),
        }
    }

    /// The mask of a [`Protect::Tree`] rule: its terms where it is a union
    /// of terms, else its postfix program where there is one, else the walk
    /// of the tree ([`pred_mask`](Self::pred_mask)).
    // Indexed loops over `exact`: the iterator form measured a quarter
    // slower here.
    #[allow(clippy::needless_range_loop)]
    fn protected_mask_tree(&self, pos: &Position, owner: Side) -> u64 {
        let f = &self.fast;
        if !f.terms.is_empty() {
            return self.protected_mask_terms(pos, owner);
        }
        let prog = &f.program;
        if prog.is_empty() {
            return self.protected_mask_walk(pos, owner);
        }
        let counted = self.protection.run_squares.0;
        let mine = pos.pieces[owner.index()].0;
        let bits = mine & counted;
        let max = self.run_bound() as usize;
        let mut exact = [0u64; 17];
        let middle = if f.program_runs {
            match runs_by_length(bits, max, &mut exact) {
                Some(m) => m,
                // A run longer than a side's pieces: the walk finds it.
                None => return self.protected_mask_walk(pos, owner),
            }
        } else {
            0
        };
        let mut stack = [0u64; PROGRAM_DEPTH];
        let mut sp = 0;
        for op in prog {
            let v = match *op {
                PredOp::RunAtLeast(k) => in_runs_of(bits, k as u32),
                PredOp::Run(lengths) => of_lengths(&exact, lengths, counted, max),
                PredOp::Middle => middle,
                PredOp::On(sq) => sq,
                PredOp::Taken(sq) => mask_of(pos.occupied().0 & sq != 0),
                PredOp::OwnerOn(sq) => mask_of(mine & sq != 0),
                PredOp::OwnerSkips => mask_of(pos.skip[owner.index()]),
                PredOp::And(n) => {
                    sp -= n as usize;
                    stack[sp..sp + n as usize]
                        .iter()
                        .fold(u64::MAX, |m, x| m & x)
                }
                PredOp::Or(n) => {
                    sp -= n as usize;
                    stack[sp..sp + n as usize].iter().fold(0, |m, x| m | x)
                }
                PredOp::Not => {
                    sp -= 1;
                    !stack[sp]
                }
            };
            stack[sp] = v;
            sp += 1;
        }
        stack[0] & mine
    }

    /// The mask of a rule that is a union of [`Term`]s: each term's run,
    /// middle and square masks and its position-wide conditions, without
    /// a branch on the position.
    #[allow(clippy::needless_range_loop)] // as in `protected_mask_tree`
    fn protected_mask_terms(&self, pos: &Position, owner: Side) -> u64 {
        let f = &self.fast;
        let counted = self.protection.run_squares.0;
        let mine = pos.pieces[owner.index()].0;
        let bits = mine & counted;
        let max = self.run_bound() as usize;
        let mut exact = [0u64; 17];
        let middle = if f.terms_runs {
            match runs_by_length(bits, max, &mut exact) {
                Some(m) => m,
                None => return self.protected_mask_walk(pos, owner),
            }
        } else {
            0
        };
        let occupied = pos.occupied().0;
        let skips = pos.skip[owner.index()];
        let mut mask = 0;
        for t in &f.terms {
            let by_run = if t.lengths == u64::MAX {
                u64::MAX
            } else if let Some(k) = run_at_least(t.lengths) {
                in_runs_of(bits, k as u32)
            } else {
                of_lengths(&exact, t.lengths, counted, max)
            };
            let by_middle = match t.middle {
                None => u64::MAX,
                Some(true) => middle,
                Some(false) => !middle,
            };
            let mut holds = true;
            for c in &t.conds[..t.n_conds as usize] {
                holds &= match *c {
                    Cond::Taken(sq, negated) => (occupied & sq != 0) != negated,
                    Cond::OwnerOn(sq, negated) => (mine & sq != 0) != negated,
                    Cond::OwnerSkips(negated) => skips != negated,
                };
            }
            mask |= by_run & by_middle & t.squares & mask_of(holds);
        }
        mask & mine
    }

    /// [`protected_mask`](Self::protected_mask) where `needed`, else 0,
    /// or the mask anyway where that is cheaper than a branch.
    #[inline]
    pub(super) fn protected_if(&self, pos: &Position, owner: Side, needed: bool) -> u64 {
        match self.fast.protect {
            Protect::Nothing => 0,
            Protect::Runs { .. } => self.protected_mask(pos, owner),
            Protect::Tree if needed => self.protected_mask_tree(pos, owner),
            Protect::Tree => 0,
        }
    }

    fn protected_mask_walk(&self, pos: &Position, owner: Side) -> u64 {
        match &self.protection.rule {
            Some(p) => self.pred_mask(p, pos, owner) & pos.pieces[owner.index()].0,
            None => 0,
        }
    }

    /// The run lengths that `pred_mask` finds with fixed-length loops: a
    /// side's pieces (longer runs only arise in positions written by hand,
    /// and are found one by one).
    #[inline]
    fn run_bound(&self) -> u32 {
        (self.pieces as u32).clamp(1, 16)
    }

    /// The squares on which a piece of `owner` would satisfy `pred` (exact on
    /// the squares of `owner`'s pieces, which is all that is asked).
    fn pred_mask(&self, pred: &Pred, pos: &Position, owner: Side) -> u64 {
        let all = |b: bool| if b { u64::MAX } else { 0 };
        match pred {
            Pred::RunLength { lengths, .. } => {
                let counted = self.protection.run_squares.0;
                let bits = pos.pieces[owner.index()].0 & counted;
                let k = lengths.trailing_zeros();
                if k > 0 && k < 8 && *lengths == u64::MAX << k {
                    // "A run of k or more" (B-7, T-8).
                    return in_runs_of(bits, k);
                }
                // Pieces off the counted squares are in no run (length 0).
                let mut mask = if lengths & 1 != 0 { !counted } else { 0 };
                // Run by run, lengths 1..=max: `win` holds the first squares
                // of n-square windows, `ge` the pieces in runs of n or more.
                // The loops have the same length in every position, so no
                // branch follows the runs.
                let max = self.run_bound();
                let (mut win, mut ge) = (bits, bits);
                for n in 1..=max {
                    let win_next = win & (bits >> n);
                    let mut ge_next = win_next;
                    for i in 1..=n {
                        ge_next |= win_next << i;
                    }
                    mask |= ge & !ge_next & mask_of(lengths >> n & 1 != 0);
                    (win, ge) = (win_next, ge_next);
                }
                // Runs longer than a side's pieces (in a position written
                // by hand), one by one.
                let mut rest = ge;
                while rest != 0 {
                    let lo = rest.trailing_zeros();
                    let n = (!(rest >> lo)).trailing_zeros();
                    let run = (u64::MAX >> (64 - n)) << lo;
                    if n < 64 && lengths & (1u64 << n) != 0 {
                        mask |= run;
                    }
                    rest &= !run;
                }
                mask
            }
            Pred::Middle { .. } => {
                let counted = self.protection.run_squares.0;
                let bits = pos.pieces[owner.index()].0 & counted;
                // As for `RunLength`: a run of exactly n starts on a piece
                // with none before it, with an n-window and no n+1-window.
                let first = bits & !(bits << 1);
                let max = self.run_bound();
                let mut mask = 0;
                let mut win = bits;
                for n in 1..=max {
                    let win_next = win & (bits >> n);
                    if n % 2 == 1 {
                        mask |= (first & win & !win_next) << (n / 2);
                    }
                    win = win_next;
                }
                // Longer runs, one by one.
                let mut rest = 0;
                for i in 0..=max {
                    rest |= win << i;
                }
                while rest != 0 {
                    let lo = rest.trailing_zeros();
                    let n = (!(rest >> lo)).trailing_zeros();
                    let run = (u64::MAX >> (64 - n)) << lo;
                    if n % 2 == 1 {
                        mask |= 1u64 << (lo + n / 2);
                    }
                    rest &= !run;
                }
                mask
            }
            Pred::OnSquare { squares, .. } => squares.0,
            Pred::Taken { squares, .. } => all(pos.occupied().0 & squares.0 != 0),
            Pred::OwnerSkips { .. } => all(pos.skip[owner.index()]),
            Pred::OwnerOn { squares, .. } => all(pos.pieces[owner.index()].0 & squares.0 != 0),
            Pred::And(ps) => ps
                .iter()
                .fold(u64::MAX, |m, p| m & self.pred_mask(p, pos, owner)),
            Pred::Or(ps) => ps.iter().fold(0, |m, p| m | self.pred_mask(p, pos, owner)),
            Pred::Not(p) => !self.pred_mask(p, pos, owner),
        }
    }
}

/// All ones when `b`, else 0.
#[inline(always)]
pub(super) fn mask_of(b: bool) -> u64 {
    0u64.wrapping_sub(b as u64)
}

#[cfg(test)]
mod tests {
    //! The fast path against the general one: the same rule set with its
    //! tables switched off is the reference. Every built-in rule set, alone
    //! and with each option and each pair of options that compile together;
    //! positions from random playouts and from random placements with random
    //! rule state (missed turns, bound throws, the queue, the opening, ...).

    use super::*;
    use crate::engine::{Queue, SquareSet, Unit, UnitKind};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    fn variants() -> Vec<(String, Ruleset)> {
        let mut out = Vec::new();
        for name in crate::rules::builtin_names() {
            let base = crate::rules::load(name, None, &[]).expect("built-in compiles");
            let opts: Vec<String> = base.meta.options.iter().map(|(o, _)| o.clone()).collect();
            let mut sets: Vec<Vec<String>> = vec![vec![]];
            for (i, a) in opts.iter().enumerate() {
                sets.push(vec![a.clone()]);
                for b in &opts[i + 1..] {
                    sets.push(vec![a.clone(), b.clone()]);
                }
            }
            for set in sets {
                if let Ok(r) = crate::rules::load(name, None, &set) {
                    out.push((format!("{name} {set:?}"), r));
                }
            }
        }
        // Forms no built-in set has: longer runs in the mask form of
        // protection, longer and other blockades.
        for text in [
            "extends \"bga\"\nprotect when run >= 3   [X-1]\nblockade 2 of one colour   [X-3]\n",
            "extends \"meub\"\nblockade 2 any   [X-3]\n",
            "extends \"ryabinin\"\nprotect when (middle of run [X-1]) or (run in {1, 6, 8, 9} [X-2])\n",
            // Terms with negated leaves and every condition.
            "extends \"kendall1979\"\nprotect when (not (run in {1, 3}) and not on 20..24 and not not square 27 taken [X-1]) or (owner misses next turn and not owner on 1..10 [X-2]) or (not middle of run and run = 3 [X-3])\n",
            // Nested `or`s and `and`s, still a union of terms.
            "extends \"kendall\"\nprotect when ((run = 2 [X-1]) or (on 5..9 and not square 27 taken [X-2])) or ((not middle of run) and (run in {3, 5}) [X-3])\n",
            // Not a union of terms: the postfix program.
            "extends \"thai\"\nprotect when not ((run >= 2 [X-1]) or (on 20..22 [X-2]))\n",
            "extends \"bga\"\nprotect when (run >= 2 [X-1]) and ((on 10..20 [X-2]) or (not middle of run [X-3]))\n",
            "extends \"kendall\"\nprotect when (run >= 3 [X-1]) or (on 15, 26 [X-2])\nblockade 4 any   [X-3]\n",
            "extends \"thai\"\nprotect when (on 20..22 [X-2]) or (run >= 4 [X-1])\nblockade 2 of one colour   [X-3]\n",
            "extends \"jequier\"\nblockade 2 any   [X-3]\n",
        ] {
            let file = crate::diag::SourceFile::new("overlay.senet", text);
            let r =
                crate::rules::load_source(file, &[]).unwrap_or_else(|e| panic!("{text}: {e:?}"));
            out.push((text.to_string(), r));
        }
        out
    }

    fn random_position(rules: &Ruleset, rng: &mut Pcg64) -> Position {
        let len = rules.board.len;
        let mut p = Position::start(rules, Side::White);
        p.pieces = [SquareSet::EMPTY; 2];
        let mut free: Vec<u8> = (1..=len).collect();
        for side in 0..2 {
            let n = rng.random_range(0..=rules.pieces);
            for _ in 0..n {
                let i = rng.random_range(0..free.len());
                p.pieces[side].insert(free.swap_remove(i));
            }
            p.off[side] = rng.random_range(0..=rules.pieces - n);
        }
        p.to_move = if rng.random() {
            Side::White
        } else {
            Side::Black
        };
        p.extra = rng.random_bool(0.3);
        if p.extra && rng.random_bool(0.2) {
            p.bound = Some(rng.random_range(1..=len));
        }
        p.skip = [rng.random_bool(0.1), rng.random_bool(0.1)];
        p.waiting = [rng.random_bool(0.2), rng.random_bool(0.2)];
        let mut q = Queue::default();
        if rng.random_bool(0.1) {
            for _ in 0..rng.random_range(1..=2) {
                q.push(if rng.random() {
                    Side::White
                } else {
                    Side::Black
                });
            }
        }
        p.queue = q;
        p.turn = rng.random_range(1..=3);
        let mine = p.pieces[p.to_move.index()];
        p.arrived = SquareSet(mine.0 & rng.random::<u64>());
        // Pieces in hand, as a position written by hand may have them
        // under rules without an entry.
        if rng.random_bool(0.1) {
            p.hand = [rng.random_range(0..=2), rng.random_range(0..=2)];
        }
        p
    }

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

    /// The protection rules of the built-in sets that have the simple form
    /// are evaluated as such (the test above checks them against the
    /// general `protected`).
    #[test]
    fn simple_protection_rules_take_the_mask_form() {
        let protect = |name: &str| crate::rules::load(name, None, &[]).unwrap().fast.protect;
        let sq = |s: &[u8]| s.iter().fold(0u64, |m, &q| m | 1 << q);
        assert_eq!(protect("bga"), Protect::Runs { run: 2, squares: 0 });
        assert_eq!(protect("thai"), Protect::Runs { run: 2, squares: 0 });
        assert_eq!(
            protect("kendall"),
            Protect::Runs {
                run: 2,
                squares: sq(&[26, 28, 29, 30])
            }
        );
        assert_eq!(
            protect("bell"),
            Protect::Runs {
                run: 0,
                squares: sq(&[15, 26, 27, 28, 29])
            }
        );
        assert_eq!(protect("ryabinin"), Protect::Tree);
        // The other rules are unions of terms, or else postfix programs
        // (the mask test checks both against `protected`).
        for name in ["ryabinin", "kendall1979"] {
            let r = crate::rules::load(name, None, &[]).unwrap();
            assert!(!r.fast.terms.is_empty(), "{name}");
        }
        let file = crate::diag::SourceFile::new(
            "overlay.senet",
            "extends \"thai\"\nprotect when not ((run >= 2 [X-1]) or (on 20..22 [X-2]))\n",
        );
        let r = crate::rules::load_source(file, &[]).unwrap();
        assert!(r.fast.terms.is_empty() && !r.fast.program.is_empty());
        let file = crate::diag::SourceFile::new(
            "overlay.senet",
            "extends \"kendall\"\nprotect when ((run = 2 [X-1]) or (on 5..9 [X-2])) or (owner on 27 [X-3])\n",
        );
        let r = crate::rules::load_source(file, &[]).unwrap();
        assert_eq!(r.fast.terms.len(), 3);
        let file = crate::diag::SourceFile::new(
            "overlay.senet",
            "extends \"thai\"\nprotect when (on 20..22 [X-2]) or (run >= 4 [X-1])\n",
        );
        assert_eq!(
            crate::rules::load_source(file, &[]).unwrap().fast.protect,
            Protect::Runs {
                run: 4,
                squares: sq(&[20, 21, 22])
            }
        );
    }

    #[test]
    fn protected_mask_agrees_with_protected() {
        let mut rng = Pcg64::seed_from_u64(7);
        for (name, rules) in variants() {
            for i in 0..400 {
                let mut pos = random_position(&rules, &mut rng);
                if i % 4 == 0 {
                    // Positions written by hand may hold more pieces than
                    // the rule set has, in runs longer than any game makes.
                    let len = rules.board.len;
                    let start = rng.random_range(1..=len / 2);
                    let run = rng.random_range(rules.pieces..=rules.pieces + 6);
                    let side = rng.random_range(0..2);
                    for q in start..(start + run).min(len + 1) {
                        pos.pieces[1 - side].remove(q);
                        pos.pieces[side].insert(q);
                    }
                }
                for owner in Side::BOTH {
                    let mask = rules.protected_mask(&pos, owner);
                    for s in pos.pieces[owner.index()].iter() {
                        assert_eq!(
                            mask & (1 << s) != 0,
                            rules.protected(&pos, s),
                            "{name}: square {s} in {}",
                            pos.write(30, 10)
                        );
                    }
                }
            }
        }
    }
}
