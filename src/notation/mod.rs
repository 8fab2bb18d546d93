//! SGN, the Senet Game Notation (NOTATION.md): reader, writer and the
//! syntax tree between them.
//!
//! Stage: text → [`reader`] → [`syntax::Game`] (spanned, no game knowledge)
//! → replay against the engine (being built) → checked games; and
//! [`syntax::Game`] → [`writer`] → canonical text.
//! `grammar/sgn.pest` is the normative grammar; [`grammar`] wraps it, and a
//! test keeps the hand-written reader in agreement with it.

pub mod grammar;
pub mod reader;
pub mod syntax;
pub mod writer;

pub use reader::{GameSource, ReadError, Reader, StreamReader, SyntaxError, read_all};
pub use syntax::{
    Command, CommandKind, Comment, Confidence, Escape, Faces, Game, MoveSep, Node, Reloc, ResultToken, Span,
    Tag, Target, UnitBody, UnitSyntax, Variation,
};
pub use writer::{write_game, write_games};
pub mod replay;
pub mod check;
pub mod record;
