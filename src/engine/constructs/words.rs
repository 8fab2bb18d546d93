//! The words the constructs share: how a square, a set of squares, a list
//! of throws and a clause are written, in sentences (`senet rules show`,
//! the explanation of a refused move, the replay gloss) and in the compact
//! tokens of `senet rules summary`.

use crate::engine::{Effects, House, Position, Refusal, Ruleset, Side, SquareSet, Unit};

/// `1..10` style text for a sorted list of squares or numbers.
pub fn ranges(v: &[u8]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            parts.push(format!("{}..{}", v[i], v[j]));
        } else {
            for x in &v[i..=j] {
                parts.push(x.to_string());
            }
        }
        i = j + 1;
    }
    parts.join(", ")
}

/// `1, 4 or 5`; `none` for an empty list.
pub fn list(v: &[u8]) -> String {
    match v {
        [] => "none".into(),
        [one] => one.to_string(),
        [init @ .., last] => format!(
            "{} or {}",
            init.iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            last
        ),
    }
}

/// Throw values as bits (bit `v` for value `v`).
pub fn bits(values: &[u8]) -> u32 {
    values
        .iter()
        .filter(|&&v| v < 32)
        .fold(0, |acc, &v| acc | 1 << v)
}

/// The values whose bit is set, ascending.
pub(crate) fn values_of(b: u32) -> Vec<u8> {
    (0..32u8).filter(|i| b & (1 << i) != 0).collect()
}

/// How a sentence names squares: by number, with the house's name where
/// one is declared.
pub struct Names<'a> {
    pub houses: &'a [House],
}

impl Names<'_> {
    /// `square 27 (House of Water)`, or `square 12`.
    pub fn sq(&self, s: u8) -> String {
        match self.houses.iter().find(|h| h.square == s) {
            Some(h) => format!("square {s} ({})", h.name),
            None => format!("square {s}"),
        }
    }
    /// `26..30`: a set of squares as ranges.
    pub fn set(&self, set: SquareSet) -> String {
        let v: Vec<u8> = set.iter().collect();
        ranges(&v)
    }
}

/// A clause in a summary token: ` [K-9a]`, or nothing.
pub(crate) fn cl(c: &str) -> String {
    if c.is_empty() {
        String::new()
    } else {
        format!(" [{c}]")
    }
}

/// A square set in a summary token: `{26..30}`.
pub(crate) fn set_token(s: SquareSet) -> String {
    let v: Vec<u8> = s.iter().collect();
    format!("{{{}}}", ranges(&v))
}

/// Throw values (bit `v`) in a summary token: `{1, 4, 5}`.
pub(crate) fn bitlist(b: u32) -> String {
    format!("{{{}}}", ranges(&values_of(b)))
}

/// A refused move, with what its sentence needs: the rules, the position
/// it was refused in, and the throw.
pub struct Refused<'a> {
    pub rules: &'a Ruleset,
    pub position: &'a Position,
    pub refusal: &'a Refusal,
    pub throw: u8,
}

impl Refused<'_> {
    /// The side whose move was refused.
    pub fn side(&self) -> Side {
        self.position.to_move
    }
    /// `square 27 (House of Water)`.
    pub fn sq(&self, s: u8) -> String {
        Names {
            houses: self.rules.houses(),
        }
        .sq(s)
    }
}

/// How a refused move reads: the short label beside the unit and the
/// sentence that explains it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    pub short: String,
    pub sentence: String,
}

impl Said {
    pub(crate) fn new(short: impl Into<String>, sentence: impl Into<String>) -> Said {
        Said {
            short: short.into(),
            sentence: sentence.into(),
        }
    }
}

/// `any throw`, or `a throw of 1, 4 or 5`, for throws as declared (`None`:
/// any) among the throws the rules give (`all`, bit `v`).
pub fn throws_text(ts: &Option<Vec<u8>>, all: u32) -> String {
    match ts {
        None => "any throw".into(),
        Some(v) if bits(v) == all => "any throw".into(),
        Some(v) => format!("a throw of {}", list(v)),
    }
}

/// A played unit, with what its gloss needs (`senet replay`: what the unit
/// did, in words): the rules, the unit, what it did, the positions before
/// and after it, and how its throw reads (`throw 3`, or
/// `throw 3 (sticks 0111)` where the record wrote the sticks).
pub struct PlayedUnit<'a> {
    pub rules: &'a Ruleset,
    pub unit: &'a Unit,
    pub effects: &'a Effects,
    pub before: &'a Position,
    pub after: &'a Position,
    pub throw: &'a str,
}

impl PlayedUnit<'_> {
    /// The side that played the unit.
    pub fn side(&self) -> Side {
        self.before.to_move
    }
    /// `square 27 (House of Water)`.
    pub fn sq(&self, s: u8) -> String {
        Names {
            houses: self.rules.houses(),
        }
        .sq(s)
    }
}
