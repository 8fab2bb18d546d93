//! Analysis: the value of a position, of each unit of a throw, and of the
//! units of a played game.
//!
//! Stage: `Ruleset` + `Position` → values (White's probability of winning,
//! and White's expected score where the rule set scores) → the best unit,
//! marked errors and luck for the command line.
//!
//! The evaluator ([`Evaluator`]) searches the game as it is played: a throw
//! (a chance node weighted by the rule set's stick or die odds), then the
//! side to move picks a unit (White maximises White's value, Black
//! minimises it). A unit that leaves a pending throw keeps the same side to
//! move, so extra throws and bound throws are searched as what they are:
//! another throw of that side. Below the depth limit a position is valued
//! by seeded rollouts ([`rollout`]), or exactly ([`exact`]) when few enough
//! pieces are left for the reachable positions to be solved outright.

pub mod exact;
mod expectimax;
pub mod game;
pub mod rollout;

pub use expectimax::{Evaluator, PositionAnalysis, ThrowAnalysis, ValuedUnit};

use crate::engine::{Position, Ruleset, Side};
use std::time::Duration;

/// A value from White's side: the probability that White wins (a draw
/// counts one half) and, for rule sets that score (K-14), White's expected
/// score (the winner's points, negative when Black wins).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Value {
    pub win: f64,
    pub score: Option<f64>,
}

impl Value {
    /// The value from `side`'s point of view: its probability of winning.
    pub fn for_side(&self, side: Side) -> f64 {
        match side {
            Side::White => self.win,
            Side::Black => 1.0 - self.win,
        }
    }

    /// Whether `self` is better than `other` for `side`: a higher chance
    /// of winning, then a better expected score.
    pub fn better_for(&self, other: &Value, side: Side) -> bool {
        let sign = if side == Side::White { 1.0 } else { -1.0 };
        let d = sign * (self.win - other.win);
        if d.abs() > 1e-12 {
            return d > 0.0;
        }
        match (self.score, other.score) {
            (Some(a), Some(b)) => sign * (a - b) > 1e-12,
            _ => false,
        }
    }

    /// `weight * self` added to `acc`, for expectations.
    fn add_weighted(acc: &mut Value, v: &Value, weight: f64) {
        acc.win += weight * v.win;
        acc.score = match (acc.score, v.score) {
            (Some(a), Some(b)) => Some(a + weight * b),
            (None, Some(b)) => Some(weight * b),
            (a, None) => a,
        };
    }
}

/// How a rollout picks its units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// The unit that most improves the race count (the simulator's greedy
    /// player).
    Greedy,
    /// Uniform among the legal units.
    Random,
}

/// What the evaluator may spend on one query.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Budget {
    /// Most positions expanded (searched or valued at a leaf) per query;
    /// past it, the search values positions by rollouts where it stands.
    /// Deterministic: the same query spends the same nodes.
    pub nodes: Option<u64>,
    /// Most time per query; past it, as for `nodes`. Values then depend on
    /// the machine's speed, so seeded runs are reproducible only without it.
    pub time: Option<Duration>,
}

/// How positions are valued.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Throws searched, counting the current one: at depth 1 each unit of a
    /// throw is valued by the position it leads to; at depth 2 that
    /// position is searched one throw further.
    pub depth: u8,
    /// Rollouts per leaf.
    pub rollouts: u32,
    pub policy: Policy,
    /// The seed of the rollouts. Rollout `i` of every leaf uses the same
    /// throw stream (seeded from this seed and `i`), so that two units of a
    /// throw are compared under the same luck.
    pub seed: u64,
    /// A rollout that reaches this many units ends as a draw.
    pub rollout_max_units: u32,
    /// Solve exactly when this many pieces or fewer are left in play in all
    /// (both sides together); 0 turns exact values off.
    pub exact_pieces: u8,
    /// Most positions an exact solve may reach before it gives up.
    pub exact_states: usize,
    /// Rollouts per leaf when `analyze` values again the unit played and
    /// the best units of its throw, so that the loss and the mark rest on
    /// more playouts than the first pass over every unit (0: no second pass).
    pub refine_rollouts: u32,
    pub budget: Budget,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            depth: 1,
            rollouts: 100,
            policy: Policy::Greedy,
            seed: 1,
            rollout_max_units: 2000,
            exact_pieces: 2,
            exact_states: 200_000,
            refine_rollouts: 400,
            budget: Budget::default(),
        }
    }
}

/// Whether the rule set scores its games (K-14): values then carry an
/// expected score. The one place the analysis reads the end rules.
pub(crate) fn scores(rules: &Ruleset) -> bool {
    rules.end.score_by_row.is_some()
}

/// The value of a finished game, or `None` while it goes on.
pub fn outcome(rules: &Ruleset, pos: &Position) -> Option<Value> {
    if !rules.game_over(pos) {
        return None;
    }
    let win = match rules.winner(pos) {
        Some(Side::White) => 1.0,
        Some(Side::Black) => 0.0,
        None => 0.5,
    };
    let score = scores(rules).then(|| match rules.score(pos) {
        Some((Side::White, p)) => p as f64,
        Some((Side::Black, p)) => -(p as f64),
        None => 0.0,
    });
    Some(Value { win, score })
}

/// The throws possible before the next unit of `pos` and their
/// probabilities: the opening's throw alone where the opening fixes it
/// (K-5), otherwise every value of the sticks or die.
pub fn throw_odds(rules: &Ruleset, pos: &Position) -> Vec<(u8, f64)> {
    if let Some(t) = rules.opening_throw(pos) {
        return vec![(t, 1.0)];
    }
    let throws = &rules.throws;
    let total = if throws.die {
        throws.values.len() as f64
    } else {
        (1u64 << throws.sticks) as f64
    };
    throws
        .distinct_values()
        .into_iter()
        .map(|v| (v, throws.weight(v) as f64 / total))
        .collect()
}

/// A 64-bit mix of two words (SplitMix64's finaliser over their sum), for
/// rollout seeds.
pub(crate) fn mix(a: u64, b: u64) -> u64 {
    let mut z = a
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(b)
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Rollouts per leaf of the simulator's expectimax player: fewer than the
/// analysis default, since a player values every unit of every throw of a
/// game.
pub const PLAYER_ROLLOUTS: u32 = 16;

impl Settings {
    /// The settings of the simulator's expectimax player searching `depth`
    /// throws, its rollouts seeded from `seed` (the game's seed).
    pub fn for_player(depth: u8, seed: u64) -> Settings {
        Settings {
            depth,
            rollouts: PLAYER_ROLLOUTS,
            seed,
            ..Settings::default()
        }
    }
}
