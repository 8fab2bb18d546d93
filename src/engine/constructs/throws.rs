//! Throws: sticks and the value of each count of marked sides, or a die
//! (BL-2), and the throw values that give another throw.
//!
//! The model value with its clauses, and its words: how `senet rules show`
//! says it, its token in `senet rules summary`, and how a move it refuses
//! reads.

use super::words::*;
use crate::engine::*;

/// Throw values. With sticks, `values[k]` is the value when `k` sticks show
/// the marked side; with a die (`die`), `values` lists its faces, each
/// equally likely, and `sticks` is 0.
#[derive(Debug, Clone, PartialEq)]
pub struct Throws {
    pub sticks: u8,
    pub values: Vec<u8>,
    /// The throw is one die whose faces are `values` (BL-2), not sticks.
    pub die: bool,
    /// Bit `v` set: a throw of value `v` gives another throw.
    pub extra: u32,
    pub clause: Clause,
    pub extra_clause: Clause,
}

impl Throws {
    pub fn gives_extra(&self, value: u8) -> bool {
        value < 32 && self.extra & (1 << value) != 0
    }
    /// The value of one throw from 32 random bits: each stick shows its
    /// marked side with one bit (the low `sticks` bits), or the die shows
    /// one of its faces, each equally likely. For simulators: a rule set
    /// with a die (BL-2) has `sticks == 0`, so counting bits alone would
    /// always give its first face.
    ///
    /// ```
    /// let bell = senet::rules::load("bell", None, &[]).unwrap();
    /// let faces: Vec<u8> = [0u32, 1 << 30, 2 << 30, 3 << 30].iter().map(|&r| bell.throws().from_bits(r)).collect();
    /// assert_eq!(faces, [1, 2, 3, 4]);
    /// let thai = senet::rules::load("thai", None, &[]).unwrap();
    /// assert_eq!(thai.throws().from_bits(0b0000), 5);
    /// assert_eq!(thai.throws().from_bits(0b1011), 3);
    /// ```
    pub fn from_bits(&self, bits: u32) -> u8 {
        if self.die {
            let face = (bits as u64 * self.values.len() as u64) >> 32;
            return self.values[face as usize];
        }
        let mask = (1u64 << self.sticks) - 1;
        self.values[(bits as u64 & mask).count_ones() as usize]
    }
    /// The distinct throw values, ascending.
    pub fn distinct_values(&self) -> Vec<u8> {
        let mut v = self.values.clone();
        v.sort_unstable();
        v.dedup();
        v
    }
    /// Number of stick faces (out of `2^sticks`) that give `value`; for a
    /// die, the number of its faces that show `value` (out of `values.len()`).
    pub fn weight(&self, value: u8) -> u32 {
        if self.die {
            return self.values.iter().filter(|&&v| v == value).count() as u32;
        }
        let n = self.sticks as u32;
        self.values
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v == value)
            .map(|(k, _)| binomial(n, k as u32))
            .sum()
    }
}

fn binomial(n: u32, k: u32) -> u32 {
    (0..k).fold(1u32, |acc, i| acc * (n - i) / (i + 1))
}

// Words.

/// `rules show`: the throw map as declared (sticks by marked sides, or the
/// faces of a die).
pub fn sentence(sticks: u8, values: &[u8], die: bool) -> String {
    if die {
        format!(
            "A throw uses one die of {} faces, each equally likely: {}.",
            values.len(),
            values
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )
    } else {
        format!(
            "A throw uses {sticks} sticks; by the number of marked sides up: {}.",
            values
                .iter()
                .enumerate()
                .map(|(k, v)| format!("{k} gives {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

/// `rules show`: the throws that give another throw, as declared.
pub fn extra_sentence(values: &[u8]) -> String {
    if values.is_empty() {
        "No throw gives another throw.".into()
    } else {
        format!("A throw of {} gives another throw.", list(values))
    }
}

impl Throws {
    /// The `rules summary` line.
    pub fn token(&self) -> String {
        format!(
            "throws: {} {:?}{}; extra {}{}",
            if self.die {
                format!("die of {} faces", self.values.len())
            } else {
                format!("{} sticks", self.sticks)
            },
            self.values,
            cl(&self.clause),
            bitlist(self.extra),
            cl(&self.extra_clause)
        )
    }
}
