//! SGN, the Senet Game Notation (docs/sgn.md).
//!
//! Stage: text → [`reader`] → [`syntax::Game`] (spanned, no game knowledge)
//! → [`header`] (tags → rule set and options → start position) → [`replay`]
//! against the engine → [`check`] findings; and the way back,
//! [`syntax::Game`] → [`writer`] → canonical text (games played by the
//! engine become syntax trees in [`record`]). Positions are written and
//! read as text in [`position_string`].
//! `grammar/sgn.pest` is the normative grammar; [`grammar`] wraps it, and a
//! test keeps the hand-written reader in agreement with it.
//!
//! ```
//! use senet::notation::{Reader, write_games};
//! let text = "[Rules \"bga\"]\n1.  2:9-11  4+:10x14!\n*";
//! let games: Vec<_> = Reader::new(text).games().collect::<Result<_, _>>().unwrap();
//! assert_eq!(games[0].main_line_units().count(), 2);
//! assert_eq!(write_games(&games, &[]), "[Rules \"bga\"]\n\n1. 2:9-11 4+:10x14 $1\n*\n");
//! ```

pub mod grammar;
pub mod reader;
pub mod syntax;
pub mod writer;

pub use reader::{GameSource, ReadError, Reader, StreamReader, SyntaxError, read_all};
pub use syntax::{
    Command, CommandKind, Comment, Confidence, Escape, Faces, Game, MoveSep, Node, Reloc,
    ResultToken, Span, Tag, Target, UnitBody, UnitSyntax, Variation,
};
pub use writer::{write_game, write_games};
pub mod board;
pub mod check;
pub mod finding;
pub mod header;
pub mod lookalike;
pub mod position_string;
pub mod record;
pub mod replay;
pub mod state_flags;
