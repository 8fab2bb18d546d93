//! Pictures of the game: the board as SVG or PNG, and a replay as one
//! self-contained HTML page.
//!
//! Stage: [`crate::engine::Ruleset`] + [`crate::engine::Position`] (and, for
//! a replay, the units the replay walk played) → SVG text → PNG bytes or
//! HTML. Nothing here judges legality or reads records.

pub mod glyphs;
pub mod html;
#[cfg(feature = "png")]
pub mod png;
pub mod svg;
