//! The units of a played game judged one by one: the value of the unit
//! played and of the best one for its throw, the loss, a mark, and how much
//! the throw helped (luck); per side, the error rate and the luck in all.
//!
//! Stage: the positions and units of a replayed main line → [`UnitReport`]s
//! → a [`SideSummary`] per side, for `senet analyze`.

use super::{Evaluator, PositionAnalysis, Settings, Value, ValuedUnit};
use crate::engine::{Position, Ruleset, Side, Unit, UnitKind};
use serde::Serialize;

/// A judgement of a unit by its loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Mark {
    /// `?!`, NAG `$6`.
    #[serde(rename = "?!")]
    Dubious,
    /// `?`, NAG `$2`.
    #[serde(rename = "?")]
    Mistake,
    /// `??`, NAG `$4`.
    #[serde(rename = "??")]
    Blunder,
}

impl Mark {
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Dubious => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
    /// The NAG number SGN (as PGN) gives the symbol.
    pub fn nag(self) -> u16 {
        match self {
            Mark::Dubious => 6,
            Mark::Mistake => 2,
            Mark::Blunder => 4,
        }
    }
}

/// Losses (in the mover's probability of winning) from which a unit is
/// marked `?!`, `?` and `??`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    pub dubious: f64,
    pub mistake: f64,
    pub blunder: f64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            dubious: 0.02,
            mistake: 0.05,
            blunder: 0.10,
        }
    }
}

impl Thresholds {
    pub fn mark(&self, loss: f64) -> Option<Mark> {
        if loss >= self.blunder {
            Some(Mark::Blunder)
        } else if loss >= self.mistake {
            Some(Mark::Mistake)
        } else if loss >= self.dubious {
            Some(Mark::Dubious)
        } else {
            None
        }
    }
}

/// The best choice at a unit: a unit, or throwing instead of a unit
/// without a throw (B-12).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Choice {
    Unit(Unit),
    Throw,
}

impl std::fmt::Display for Choice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Choice::Unit(u) => u.fmt(f),
            Choice::Throw => f.write_str("throw"),
        }
    }
}

/// One unit of a game, judged.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitReport {
    pub side: Side,
    pub turn: u32,
    pub unit: Unit,
    /// The value after the unit played.
    pub value: Value,
    pub best: Choice,
    pub best_value: Value,
    /// How much of the mover's chance of winning the unit gave away (0 for
    /// the best unit).
    pub loss: f64,
    pub mark: Option<Mark>,
    /// The units the mover could choose among (1: nothing to choose).
    pub choices: usize,
    /// The value before the throw.
    pub before: Value,
    /// How much the throw changed the mover's chance of winning: the best
    /// value of this throw less the expectation over all throws.
    pub luck: f64,
}

/// Per side: how well it played and how lucky it was.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct SideSummary {
    pub units: u32,
    /// Units with more than one choice.
    pub choices: u32,
    /// Summed loss over all units.
    pub total_loss: f64,
    /// Mean loss per unit with a choice.
    pub error_rate: f64,
    pub dubious: u32,
    pub mistakes: u32,
    pub blunders: u32,
    /// Summed luck: positive when the throws helped this side.
    pub luck: f64,
}

/// The summary of a game, `[white, black]`.
pub fn summary(reports: &[UnitReport]) -> [SideSummary; 2] {
    let mut s = [SideSummary::default(); 2];
    for r in reports {
        let m = &mut s[r.side.index()];
        m.units += 1;
        m.choices += (r.choices > 1) as u32;
        m.total_loss += r.loss;
        m.luck += r.luck;
        match r.mark {
            Some(Mark::Dubious) => m.dubious += 1,
            Some(Mark::Mistake) => m.mistakes += 1,
            Some(Mark::Blunder) => m.blunders += 1,
            None => {}
        }
    }
    for m in &mut s {
        m.error_rate = if m.choices > 0 {
            m.total_loss / m.choices as f64
        } else {
            0.0
        };
    }
    s
}

/// How many of the best units of a throw are valued again, with the unit
/// played, at `Settings::refine_rollouts`.
pub const REFINED: usize = 3;

/// Judges one unit played in `before`.
pub fn judge(
    ev: &mut Evaluator<'_>,
    before: &Position,
    unit: &Unit,
    thresholds: &Thresholds,
) -> UnitReport {
    let side = before.to_move;
    let a: PositionAnalysis = ev.analyse(before);
    let expected = expectation(&a).unwrap_or(a.value);
    let find = |list: &[ValuedUnit]| list.iter().find(|v| v.unit == *unit).map(|v| v.value);
    let (value, best, best_value, choices, after_throw) = match unit.kind {
        // Due without a choice: a missed turn, a bear-off without a throw.
        UnitKind::Skip => (a.value, Choice::Unit(*unit), a.value, 1, a.value),
        UnitKind::NoThrow if unit.off => (a.value, Choice::Unit(*unit), a.value, 1, a.value),
        UnitKind::NoThrow => {
            // Against the other units without a throw, and throwing.
            let played = find(&a.free).unwrap_or(a.value);
            let (best, best_value) = match a.free.first() {
                Some(f) if !expected.better_for(&f.value, side) => (Choice::Unit(f.unit), f.value),
                _ => (Choice::Throw, expected),
            };
            (played, best, best_value, a.free.len() + 1, expected)
        }
        UnitKind::Move | UnitKind::Pass => {
            let units = a
                .throws
                .iter()
                .find(|t| t.throw == unit.throw)
                .map(|t| t.units.as_slice())
                .unwrap_or(&[]);
            let played = find(units).unwrap_or_else(|| ev.units(before, &[*unit])[0].value);
            let after_throw = units.first().map_or(played, |b| b.value);
            if units.len() > 1 && ev.settings().refine_rollouts > 0 {
                // The loss rests on the unit played and the best ones:
                // value them again with more rollouts.
                let mut shortlist: Vec<Unit> = units.iter().take(REFINED).map(|v| v.unit).collect();
                if !shortlist.contains(unit) {
                    shortlist.push(*unit);
                }
                let refined = ev.units_refined(before, &shortlist);
                let played = find(&refined).unwrap_or(played);
                let b = refined[0];
                (
                    played,
                    Choice::Unit(b.unit),
                    b.value,
                    units.len(),
                    after_throw,
                )
            } else {
                match units.first() {
                    Some(b) => (
                        played,
                        Choice::Unit(b.unit),
                        b.value,
                        units.len(),
                        after_throw,
                    ),
                    None => (played, Choice::Unit(*unit), played, 1, played),
                }
            }
        }
    };
    let loss = (best_value.for_side(side) - value.for_side(side)).max(0.0);
    let luck = match unit.kind {
        UnitKind::Move | UnitKind::Pass => after_throw.for_side(side) - expected.for_side(side),
        _ => 0.0,
    };
    UnitReport {
        side,
        turn: before.turn,
        unit: *unit,
        value,
        best,
        best_value,
        loss,
        mark: if choices > 1 {
            thresholds.mark(loss)
        } else {
            None
        },
        choices,
        before: expected,
        luck,
    }
}

/// The expectation over the throws of the best unit of each.
fn expectation(a: &PositionAnalysis) -> Option<Value> {
    if a.throws.is_empty() {
        return None;
    }
    let mut v = Value::default();
    for t in &a.throws {
        let best = t.units.first().map_or(a.value, |u| u.value);
        Value::add_weighted(&mut v, &best, t.probability);
    }
    Some(v)
}

/// Judges every `(position before, unit)` of a game over `threads`
/// threads, each with its own evaluator; the reports come back in order
/// and do not depend on the number of threads. `progress` is called with
/// the number of units judged so far.
pub fn judge_all(
    rules: &Ruleset,
    moves: &[(Position, Unit)],
    settings: &Settings,
    thresholds: &Thresholds,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<UnitReport> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let done = AtomicU64::new(0);
    let out: Mutex<Vec<(usize, UnitReport)>> = Mutex::new(Vec::with_capacity(moves.len()));
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1).min(moves.len().max(1)) {
            scope.spawn(|| {
                let mut ev = Evaluator::new(rules, *settings);
                let mut mine = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((before, unit)) = moves.get(i) else {
                        break;
                    };
                    mine.push((i, judge(&mut ev, before, unit, thresholds)));
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                }
                out.lock()
                    .expect("no thread panics while holding the lock")
                    .extend(mine);
            });
        }
    });
    let mut all = out.into_inner().expect("threads joined");
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
}
