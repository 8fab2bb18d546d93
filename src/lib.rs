//! senet: rule files, move generation and game-record checking for Senet.
//!
//! Data flows one way:
//!
//! - `.senet` text → [`rules`] (pest → spanned AST → checks) → [`engine::Ruleset`]
//! - [`engine::Ruleset`] + [`engine::Position`] → legal units → `play`
//! - `.sgn` text → [`notation`] (reader → events with spans) → replay against
//!   the engine → diagnostics or positions.

pub mod cli;
pub mod diag;
pub mod engine;
pub mod notation;
pub mod rules;
pub mod simulate;
