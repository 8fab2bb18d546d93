//! Rollouts: a position valued by playing it out many times with a fast
//! policy and counting the results.
//!
//! Stage: `Position` → seeded playouts → a [`Value`] for the evaluator's
//! leaves. Rollout `i` draws its throws from a generator seeded with the
//! settings' seed and `i` only, so the value of a position is a function of
//! the position and the settings: the same on any thread, in any order.

use super::{Policy, Settings, Value, mix, outcome};
use crate::engine::{Position, Ruleset, Unit};
use crate::simulate::{game_rng, greedy, throw_sticks};
use rand::Rng;

/// The mean result of `settings.rollouts` playouts from `pos`.
pub fn value(rules: &Ruleset, pos: &Position, settings: &Settings) -> Value {
    if let Some(v) = outcome(rules, pos) {
        return v;
    }
    let n = settings.rollouts.max(1);
    let mut buf = Vec::with_capacity(16);
    let mut acc = Value::default();
    for i in 0..n {
        let end = playout(rules, pos, settings, i, &mut buf);
        Value::add_weighted(&mut acc, &end, 1.0 / n as f64);
    }
    acc
}

/// One playout from `pos` with rollout index `index`: the result, or a
/// draw when the unit cap is reached first.
pub fn playout(
    rules: &Ruleset,
    start: &Position,
    settings: &Settings,
    index: u32,
    buf: &mut Vec<Unit>,
) -> Value {
    let mut rng = game_rng(mix(settings.seed, index as u64));
    let mut pos = *start;
    for _ in 0..settings.rollout_max_units {
        if let Some(v) = outcome(rules, &pos) {
            return v;
        }
        rules.free_units(&pos, buf);
        let unit = if crate::engine::constructs::auto_off::due_without_choice(&buf) {
            buf[0]
        } else if !buf.is_empty() && rng.random::<bool>() {
            // A choice between a unit without a throw and throwing (B-12):
            // even odds, as the simulator plays it.
            buf[rng.random_range(0..buf.len())]
        } else {
            let throw = match rules.opening_throw(&pos) {
                Some(t) => t,
                None => throw_sticks(rules, &mut rng),
            };
            rules.legal_units(&pos, throw, buf);
            if buf.is_empty() {
                break;
            }
            match settings.policy {
                Policy::Greedy if buf.len() > 1 => buf[greedy(rules, &pos, buf)],
                Policy::Greedy => buf[0],
                Policy::Random => buf[rng.random_range(0..buf.len())],
            }
        };
        if rules.apply(&mut pos, &unit).is_err() {
            break;
        }
    }
    outcome(rules, &pos).unwrap_or(Value {
        win: 0.5,
        score: super::scores(rules).then_some(0.0),
    })
}
