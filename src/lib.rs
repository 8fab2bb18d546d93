//! senet: rule files, move generation and game-record checking for Senet.
//!
//! Data flows one way:
//!
//! - `.senet` text → [`rules`] (pest → spanned AST → checks) → [`engine::Ruleset`]
//! - [`engine::Ruleset`] + [`engine::Position`] → legal units → `play`
//! - `.sgn` text → [`notation`] (reader → games with spans) → replay against
//!   the engine → findings or positions.
//!
//! A tour: load a built-in rule set, ask for the legal units of a throw,
//! play one, and check a record.
//!
//! ```
//! use senet::engine::{Position, Side};
//!
//! // Kendall-style rules: Black opens with the roll-off's 1, 10 to 11 (K-5).
//! let rules = senet::rules::load("kendall", None, &[]).unwrap();
//! let start = Position::start(&rules, Side::Black);
//! assert_eq!(start.to_string(), "WBWBWBWBWB/10/10 b 0-0 - 1");
//!
//! let mut units = Vec::new();
//! rules.legal_units(&start, 1, &mut units);
//! let texts: Vec<String> = units.iter().map(|u| u.to_string()).collect();
//! assert_eq!(texts, ["1+:10-11"]);
//!
//! // A 1 gives another throw: Black is still to move, mid-turn.
//! let (next, _effects) = rules.play(&start, &units[0]).unwrap();
//! assert_eq!(next.to_string(), "WBWBWBWBW1/B9/10 b 0-0 extra 1");
//!
//! // A record whose second unit is illegal: square 11 holds Black's own piece.
//! let record = "[Rules \"kendall\"]\n[FirstPlayer \"Black\"]\n\n1... 1+:10-11 2:9x11 *\n";
//! let game = senet::notation::Reader::new(record).next().unwrap().unwrap();
//! let report = senet::notation::check::check_game(
//!     &game,
//!     None,
//!     &Default::default(),
//!     &mut Default::default(),
//! )
//! .unwrap();
//! let codes: Vec<&str> = report.findings.iter().map(|f| f.code.as_str()).collect();
//! assert!(codes.contains(&"senet::sgn::no_piece"), "{codes:?}");
//! ```

pub mod analysis;
pub mod cli;
pub mod diag;
pub mod engine;
pub mod notation;
pub mod picture;
pub mod rules;
pub mod simulate;
