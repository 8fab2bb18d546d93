//! Exact values of small endgames, by value iteration.
//!
//! Stage: a position with few pieces left → every position reachable from
//! it → values to convergence → a table the evaluator reads instead of
//! rolling out.
//!
//! The game graph has cycles (swaps, backward moves, passes and extra
//! throws can bring a position back), so a memoised recursion would not
//! terminate. Instead the reachable positions are listed once, each with
//! its successors per throw, and the equations
//! `V(s) = Σ_throw p(throw) · best_unit V(next)` are iterated (in place,
//! Gauss–Seidel) until no value moves by more than [`TOLERANCE`].
//!
//! The turn number matters to the rules only in the first two turns (the
//! opening), so positions are keyed with turns past 2 counted as 3.

use super::{Value, outcome, throw_odds};
use crate::engine::{Position, Ruleset, Side, Unit};
use std::collections::HashMap;

/// Iteration stops when no value changes by more than this.
pub const TOLERANCE: f64 = 1e-12;
/// Most sweeps over the positions before the iteration gives up on
/// convergence (only a game that can go on for ever comes near it).
pub const MAX_SWEEPS: usize = 20_000;

/// The key of a position in a table: the position with turns past the
/// opening counted as one.
pub fn key(pos: &Position) -> Position {
    let mut k = *pos;
    k.turn = k.turn.min(3);
    k
}

/// Exact values of every position solved so far.
#[derive(Debug, Default, Clone)]
pub struct Table {
    values: HashMap<Position, Value>,
}

impl Table {
    pub fn get(&self, pos: &Position) -> Option<Value> {
        self.values.get(&key(pos)).copied()
    }
    pub fn len(&self) -> usize {
        self.values.len()
    }
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Solves every position reachable from `root` that the table does not
    /// hold yet and adds them. `false` (and nothing added) when more than
    /// `max_states` new positions are reachable.
    pub fn solve(&mut self, rules: &Ruleset, root: &Position, max_states: usize) -> bool {
        if self.get(root).is_some() {
            return true;
        }
        let Some(graph) = Graph::build(rules, root, &self.values, max_states) else {
            return false;
        };
        let values = graph.iterate(rules);
        for (pos, v) in graph.positions.into_iter().zip(values) {
            self.values.insert(pos, v);
        }
        true
    }
}

/// Where a successor's value comes from.
#[derive(Debug, Clone, Copy)]
enum Next {
    /// A position being solved (its index).
    State(u32),
    /// A finished game or a position the table already holds.
    Fixed(Value),
}

#[derive(Debug)]
enum Node {
    /// Nothing to decide: the one unit due without a throw (a missed turn).
    Forced(Next),
    /// The side to move throws; `free` are units it may play instead,
    /// without a throw (a lock's release, B-12).
    Throw {
        side: Side,
        free: Vec<Next>,
        /// Per throw: its probability and the units' successors.
        throws: Vec<(f64, Vec<Next>)>,
    },
}

struct Graph {
    positions: Vec<Position>,
    nodes: Vec<Node>,
}

impl Graph {
    fn build(
        rules: &Ruleset,
        root: &Position,
        known: &HashMap<Position, Value>,
        max_states: usize,
    ) -> Option<Graph> {
        let mut index: HashMap<Position, u32> = HashMap::new();
        let mut positions = vec![key(root)];
        index.insert(key(root), 0);
        let mut nodes = Vec::new();
        let mut buf: Vec<Unit> = Vec::with_capacity(16);
        let mut i = 0;
        while i < positions.len() {
            let pos = positions[i];
            let mut next_of = |u: &Unit, positions: &mut Vec<Position>| -> Option<Next> {
                let (next, _) = rules.play(&pos, u).ok()?;
                let k = key(&next);
                if let Some(v) = outcome(rules, &k).or_else(|| known.get(&k).copied()) {
                    return Some(Next::Fixed(v));
                }
                let id = *index.entry(k).or_insert_with(|| {
                    positions.push(k);
                    positions.len() as u32 - 1
                });
                Some(Next::State(id))
            };
            rules.free_units(&pos, &mut buf);
            let units = buf.clone();
            let node = if crate::engine::constructs::auto_off::due_without_choice(&units) {
                Node::Forced(next_of(&units[0], &mut positions)?)
            } else {
                let free = units
                    .iter()
                    .filter_map(|u| next_of(u, &mut positions))
                    .collect();
                let mut throws = Vec::new();
                for (t, p) in throw_odds(rules, &pos) {
                    rules.legal_units(&pos, t, &mut buf);
                    let units = buf.clone();
                    let succ = units
                        .iter()
                        .filter_map(|u| next_of(u, &mut positions))
                        .collect();
                    throws.push((p, succ));
                }
                Node::Throw {
                    side: pos.to_move,
                    free,
                    throws,
                }
            };
            nodes.push(node);
            if positions.len() > max_states {
                return None;
            }
            i += 1;
        }
        Some(Graph { positions, nodes })
    }

    /// Value iteration to [`TOLERANCE`], starting from even chances.
    fn iterate(&self, rules: &Ruleset) -> Vec<Value> {
        let scored = super::scores(rules);
        let mut win = vec![0.5; self.nodes.len()];
        let mut score = vec![0.0; if scored { self.nodes.len() } else { 0 }];
        let get = |n: &Next, win: &[f64], score: &[f64]| -> (f64, f64) {
            match *n {
                Next::State(i) => (
                    win[i as usize],
                    score.get(i as usize).copied().unwrap_or(0.0),
                ),
                Next::Fixed(v) => (v.win, v.score.unwrap_or(0.0)),
            }
        };
        // A side picks the successor best for it: the higher chance of
        // winning, then the better expected score.
        let pick = |side: Side, a: (f64, f64), b: (f64, f64)| -> (f64, f64) {
            let s = if side == Side::White { 1.0 } else { -1.0 };
            let d = s * (b.0 - a.0);
            if d > 1e-15 || (d.abs() <= 1e-15 && s * (b.1 - a.1) > 0.0) {
                b
            } else {
                a
            }
        };
        for _ in 0..MAX_SWEEPS {
            let mut delta = 0.0f64;
            // Later positions lie mostly nearer the end: sweep them first.
            for i in (0..self.nodes.len()).rev() {
                let v = match &self.nodes[i] {
                    Node::Forced(n) => get(n, &win, &score),
                    Node::Throw { side, free, throws } => {
                        let mut exp = (0.0, 0.0);
                        for (p, succ) in throws {
                            // A throw with no unit leaves the position as it is.
                            let best = succ
                                .iter()
                                .map(|n| get(n, &win, &score))
                                .reduce(|a, b| pick(*side, a, b))
                                .unwrap_or((win[i], score.get(i).copied().unwrap_or(0.0)));
                            exp.0 += p * best.0;
                            exp.1 += p * best.1;
                        }
                        free.iter()
                            .map(|n| get(n, &win, &score))
                            .fold(exp, |a, b| pick(*side, a, b))
                    }
                };
                delta = delta.max((v.0 - win[i]).abs());
                win[i] = v.0;
                if scored {
                    delta = delta.max((v.1 - score[i]).abs() / 64.0);
                    score[i] = v.1;
                }
            }
            if delta <= TOLERANCE {
                break;
            }
        }
        // Rounded well above the tolerance, so that a position's value does
        // not depend on which root it was solved from.
        let round = |x: f64| (x * 1e9).round() / 1e9;
        (0..self.nodes.len())
            .map(|i| Value {
                win: round(win[i]),
                score: scored.then(|| round(score[i])),
            })
            .collect()
    }
}
