//! The evaluator: expectimax over the throws, rollouts or exact values at
//! the leaves, within a budget.

use super::exact::{self, Table};
use super::{Settings, Value, outcome, rollout, throw_odds};
use crate::engine::{Position, Ruleset, Side, Unit};
use std::collections::{HashMap, HashSet};
use std::time::Instant;

/// A unit with the value of the position it leads to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ValuedUnit {
    pub unit: Unit,
    pub value: Value,
}

/// The units of one throw, best first for the side to move.
#[derive(Debug, Clone, PartialEq)]
pub struct ThrowAnalysis {
    pub throw: u8,
    pub probability: f64,
    pub units: Vec<ValuedUnit>,
}

/// A position before its throw: its value, the units due or allowed
/// without a throw, and the units of each throw.
#[derive(Debug, Clone, PartialEq)]
pub struct PositionAnalysis {
    pub value: Value,
    /// A missed turn's `skip`, or a lock's release (B-12), best first.
    pub free: Vec<ValuedUnit>,
    pub throws: Vec<ThrowAnalysis>,
}

/// Values positions and units for one rule set. It keeps rollout values
/// and solved endgames between queries; every value is a function of the
/// position and the settings only (with no time budget), so evaluators on
/// different threads agree.
pub struct Evaluator<'r> {
    rules: &'r Ruleset,
    settings: Settings,
    leaves: HashMap<Position, Value>,
    /// Rollout values at `refine_rollouts`, kept apart from `leaves`.
    refined: HashMap<Position, Value>,
    exact: Table,
    /// Pieces in play `[white, black]` for which an exact solve was too big.
    too_big: HashSet<[u8; 2]>,
    nodes: u64,
    started: Instant,
    /// The time budget ran out in this query: it stays out (the clock is
    /// read only every 16 nodes, and the count moves on between checks).
    timed_out: std::cell::Cell<bool>,
    buf: Vec<Vec<Unit>>,
}

impl<'r> Evaluator<'r> {
    pub fn new(rules: &'r Ruleset, settings: Settings) -> Evaluator<'r> {
        Evaluator {
            rules,
            settings,
            leaves: HashMap::new(),
            refined: HashMap::new(),
            exact: Table::default(),
            too_big: HashSet::new(),
            nodes: 0,
            started: Instant::now(),
            timed_out: std::cell::Cell::new(false),
            buf: Vec::new(),
        }
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Positions expanded by the last query.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The value of `pos` before its throw.
    pub fn position(&mut self, pos: &Position) -> Value {
        self.begin();
        self.value(pos, self.settings.depth.max(1))
    }

    /// The value of `pos` and of every unit of every throw.
    pub fn analyse(&mut self, pos: &Position) -> PositionAnalysis {
        self.begin();
        let depth = self.settings.depth.max(1);
        if let Some(v) = outcome(self.rules, pos) {
            return PositionAnalysis {
                value: v,
                free: Vec::new(),
                throws: Vec::new(),
            };
        }
        let mut free = self.take_buf();
        self.rules.free_units(pos, &mut free);
        if crate::engine::constructs::auto_off::due_without_choice(&free) {
            let value = self.after(pos, &free[0], depth);
            let skip = ValuedUnit {
                unit: free[0],
                value,
            };
            self.put_buf(free);
            return PositionAnalysis {
                value,
                free: vec![skip],
                throws: Vec::new(),
            };
        }
        let free_units = self.value_units(pos, &free, depth - 1);
        self.put_buf(free);
        let mut throws = Vec::new();
        let mut expected = Value::default();
        for (throw, probability) in throw_odds(self.rules, pos) {
            let units = self.throw_units(pos, throw, depth - 1);
            let best = units.first().map_or_else(|| self.leaf(pos), |u| u.value);
            Value::add_weighted(&mut expected, &best, probability);
            throws.push(ThrowAnalysis {
                throw,
                probability,
                units,
            });
        }
        let side = pos.to_move;
        let value = free_units
            .iter()
            .map(|u| u.value)
            .fold(expected, |a, b| if b.better_for(&a, side) { b } else { a });
        PositionAnalysis {
            value,
            free: free_units,
            throws,
        }
    }

    /// The legal units of `throw` in `pos`, best first for the side to move.
    pub fn throw(&mut self, pos: &Position, throw: u8) -> Vec<ValuedUnit> {
        self.begin();
        self.throw_units(pos, throw, self.settings.depth.max(1) - 1)
    }

    /// `units` (playable in `pos`) valued, best first for the side to move.
    pub fn units(&mut self, pos: &Position, units: &[Unit]) -> Vec<ValuedUnit> {
        self.begin();
        self.value_units(pos, units, self.settings.depth.max(1) - 1)
    }

    /// As [`units`](Self::units), with `settings.refine_rollouts` rollouts
    /// per leaf.
    pub fn units_refined(&mut self, pos: &Position, units: &[Unit]) -> Vec<ValuedUnit> {
        let first = self.settings.rollouts;
        self.settings.rollouts = self.settings.refine_rollouts.max(1);
        std::mem::swap(&mut self.leaves, &mut self.refined);
        let valued = self.units(pos, units);
        std::mem::swap(&mut self.leaves, &mut self.refined);
        self.settings.rollouts = first;
        valued
    }

    /// The best of `units` (not empty) for the side to move.
    pub fn best_unit(&mut self, pos: &Position, units: &[Unit]) -> Unit {
        if units.len() == 1 {
            return units[0];
        }
        self.units(pos, units)[0].unit
    }

    /// Where in `units` (not empty) [`best_unit`](Self::best_unit) is.
    pub fn best_index(&mut self, pos: &Position, units: &[Unit]) -> usize {
        let best = self.best_unit(pos, units);
        units
            .iter()
            .position(|u| *u == best)
            .expect("the best unit is one of the units")
    }

    fn begin(&mut self) {
        self.nodes = 0;
        self.started = Instant::now();
        self.timed_out.set(false);
    }

    fn over_budget(&self) -> bool {
        let b = &self.settings.budget;
        b.nodes.is_some_and(|n| self.nodes >= n)
            || self.timed_out.get()
            || b.time.is_some_and(|t| {
                let out = self.nodes.is_multiple_of(16) && self.started.elapsed() >= t;
                self.timed_out.set(out);
                out
            })
    }

    fn take_buf(&mut self) -> Vec<Unit> {
        self.buf.pop().unwrap_or_else(|| Vec::with_capacity(16))
    }

    fn put_buf(&mut self, b: Vec<Unit>) {
        self.buf.push(b);
    }

    fn throw_units(&mut self, pos: &Position, throw: u8, depth: u8) -> Vec<ValuedUnit> {
        let mut units = self.take_buf();
        self.rules.legal_units(pos, throw, &mut units);
        let valued = self.value_units(pos, &units, depth);
        self.put_buf(units);
        valued
    }

    fn value_units(&mut self, pos: &Position, units: &[Unit], depth: u8) -> Vec<ValuedUnit> {
        let mut valued: Vec<ValuedUnit> = units
            .iter()
            .map(|u| ValuedUnit {
                unit: *u,
                value: self.after(pos, u, depth),
            })
            .collect();
        sort_best_first(&mut valued, pos.to_move);
        valued
    }

    /// The value of the position after `unit`, searched `depth` throws.
    fn after(&mut self, pos: &Position, unit: &Unit, depth: u8) -> Value {
        match self.rules.play(pos, unit) {
            Ok((next, _)) => self.value(&next, depth),
            // Not playable here: the caller passed a unit of another
            // position. It is worth nothing to its side.
            Err(_) => Value {
                win: if pos.to_move == Side::White { 0.0 } else { 1.0 },
                score: None,
            },
        }
    }

    /// Expectimax to `depth` throws.
    fn value(&mut self, pos: &Position, depth: u8) -> Value {
        if let Some(v) = outcome(self.rules, pos) {
            return v;
        }
        if let Some(v) = self.exact_value(pos) {
            return v;
        }
        if depth == 0 || self.over_budget() {
            return self.leaf(pos);
        }
        self.nodes += 1;
        let side = pos.to_move;
        let mut free = self.take_buf();
        self.rules.free_units(pos, &mut free);
        if crate::engine::constructs::auto_off::due_without_choice(&free) {
            // A missed turn uses no throw: the depth stays.
            let skip = free[0];
            self.put_buf(free);
            return self.after(pos, &skip, depth);
        }
        let mut expected = Value::default();
        let mut units = self.take_buf();
        for (throw, p) in throw_odds(self.rules, pos) {
            self.rules.legal_units(pos, throw, &mut units);
            let mut best: Option<Value> = None;
            for u in &units {
                let v = self.after(pos, u, depth - 1);
                if best.is_none_or(|b| v.better_for(&b, side)) {
                    best = Some(v);
                }
            }
            let best = best.unwrap_or_else(|| self.leaf(pos));
            Value::add_weighted(&mut expected, &best, p);
        }
        self.put_buf(units);
        let mut value = expected;
        for u in &free {
            let v = self.after(pos, u, depth - 1);
            if v.better_for(&value, side) {
                value = v;
            }
        }
        self.put_buf(free);
        value
    }

    /// A position valued without search: exactly if it can be solved,
    /// otherwise by rollouts.
    fn leaf(&mut self, pos: &Position) -> Value {
        if let Some(v) = outcome(self.rules, pos).or_else(|| self.exact_value(pos)) {
            return v;
        }
        self.nodes += 1;
        let k = exact::key(pos);
        if let Some(v) = self.leaves.get(&k) {
            return *v;
        }
        let v = rollout::value(self.rules, pos, &self.settings);
        self.leaves.insert(k, v);
        v
    }

    /// The exact value, where few enough pieces are left to solve.
    fn exact_value(&mut self, pos: &Position) -> Option<Value> {
        let s = &self.settings;
        let left = [pos.in_play(Side::White), pos.in_play(Side::Black)];
        if s.exact_pieces == 0 || left[0] + left[1] > s.exact_pieces {
            return None;
        }
        if let Some(v) = self.exact.get(pos) {
            return Some(v);
        }
        if self.too_big.contains(&left) {
            return None;
        }
        if self.exact.solve(self.rules, pos, s.exact_states) {
            self.exact.get(pos)
        } else {
            self.too_big.insert(left);
            None
        }
    }
}

/// Best first for `side`; units of equal value keep their order.
fn sort_best_first(units: &mut [ValuedUnit], side: Side) {
    units.sort_by(|a, b| {
        if a.value.better_for(&b.value, side) {
            std::cmp::Ordering::Less
        } else if b.value.better_for(&a.value, side) {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
}
