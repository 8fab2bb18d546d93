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
//!
//! Simulating a game and writing it as SGN: every throw comes from a
//! seeded PCG64 generator ([`simulate::RNG_NAME`]), so the record names
//! its source and reads back as a legal game.
//!
//! ```
//! use senet::notation::{record, writer};
//! use senet::simulate::{Player, play_game};
//!
//! let rules = senet::rules::load("bga", None, &[]).unwrap();
//! // Game seed 7, at most 2000 units, keeping the units for the record.
//! let played = play_game(&rules, [Player::Random, Player::Greedy], 7, 2000, true);
//! assert!(played.finished);
//!
//! let result = record::result_token(played.finished, played.winner);
//! let tags = vec![
//!     // The seven tags every record carries, `?` where unknown.
//!     record::tag("Event", "a simulated game"),
//!     record::tag("Site", "?"),
//!     record::tag("Date", "????.??.??"),
//!     record::tag("Round", "1"),
//!     record::tag("White", Player::Random.name()),
//!     record::tag("Black", Player::Greedy.name()),
//!     record::tag("Result", result.to_string()),
//!     record::tag("Rules", rules.meta().name.clone()),
//!     record::tag("ThrowSource", format!("rng:{}:{}", senet::simulate::RNG_NAME, played.seed)),
//!     record::tag("FirstPlayer", played.first.name()),
//! ];
//! let text = writer::game_to_string(&record::game(tags, &played.units, result));
//! assert!(text.starts_with("[Event \"a simulated game\"]"));
//!
//! // The record reads back and checks clean under the rules it names.
//! let game = senet::notation::Reader::new(&text).next().unwrap().unwrap();
//! let report = senet::notation::check::check_game(
//!     &game,
//!     None,
//!     &Default::default(),
//!     &mut Default::default(),
//! )
//! .unwrap();
//! assert!(report.findings.is_empty(), "{:?}", report.findings);
//! ```
//!
//! Many games at once, on several threads, with the statistics that
//! `senet simulate --stats` prints:
//!
//! ```
//! use senet::simulate::{Player, RunConfig, Stats, run};
//!
//! let rules = senet::rules::load("thai", None, &[]).unwrap();
//! let config = RunConfig {
//!     players: [Player::Random, Player::Random],
//!     games: 20,
//!     seed: 1,
//!     threads: 2,
//!     max_units: 2000,
//!     keep_units: false,
//! };
//! let games = run(&rules, &config, &|_done| {});
//! let figures: Vec<_> = games.iter().map(|g| g.figures()).collect();
//! let stats = Stats::from_games(&figures);
//! assert_eq!(stats.games, 20);
//! ```
//!
//! The crate's features: `cli` (on by default) builds the `senet` binary
//! and pulls in clap, clap_complete, indicatif and miette with its
//! graphical renderer; `png` (part of `cli`) adds [`picture`]'s PNG output
//! through resvg. A library user who needs neither depends on
//! `senet = { version = "0.1", default-features = false }`, which builds
//! none of them: every error still says its stable code, severity, help
//! and labelled spans into its source through [`diag::Diagnostic`], for
//! the caller to render (with `cli`, each is also a `miette::Diagnostic`
//! that says the same).

pub mod analysis;
/// The `senet` command line. Not part of the library's API: it exists for
/// the binary (and the crate's own tests) and changes without notice.
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod cli;
pub mod diag;
pub mod engine;
pub mod notation;
pub mod picture;
pub mod rules;
pub mod simulate;
