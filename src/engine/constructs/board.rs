//! The board and what stands on it before the first move: the track's
//! length and rows, the named houses, the pieces and each side's setup.
//!
//! The model values and their words: how `senet rules show` says them and
//! their lines in `senet rules summary`.

use super::words::*;
use crate::engine::*;

/// Board geometry. Squares are numbered `1..=len` along the track; the track
/// runs boustrophedon in rows of `row_len`. Off the board is `len + 1`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Board {
    pub len: u8,
    pub row_len: u8,
}

impl Board {
    /// The step just past the last square: where borne-off pieces go.
    pub fn off(&self) -> u8 {
        self.len + 1
    }
    /// Number of rows.
    pub fn rows(&self) -> u8 {
        self.len.div_ceil(self.row_len)
    }
    /// The row (0-based from the start of the track) of a square.
    pub fn row_of(&self, square: u8) -> u8 {
        (square - 1) / self.row_len
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct House {
    pub square: u8,
    pub name: String,
    pub glyph: Option<String>,
    pub clause: Clause,
}

// Words.

impl Board {
    /// `rules show`.
    pub fn sentence(&self) -> String {
        format!(
            "The board has {} squares in {} rows of {}; the track runs boustrophedon (row 1 left to right, row 2 right to left, ...), and bearing off is step {}.",
            self.len,
            self.len.div_ceil(self.row_len),
            self.row_len,
            self.len + 1
        )
    }
    /// The `rules summary` line.
    pub fn token(&self) -> String {
        format!("board: {} squares, rows of {}", self.len, self.row_len)
    }
}

impl House {
    /// `rules show`: `Square 27: House of Water (𓈗).`
    pub fn sentence(square: u8, name: &str, glyph: Option<&str>) -> String {
        match glyph {
            Some(g) => format!("Square {square}: {name} ({g})."),
            None => format!("Square {square}: {name}."),
        }
    }
    /// The `rules summary` line.
    pub fn token(&self) -> String {
        format!(
            "house {}: {}{}{}",
            self.square,
            self.name,
            self.glyph
                .as_ref()
                .map(|g| format!(" ({g})"))
                .unwrap_or_default(),
            cl(&self.clause)
        )
    }
}

/// `rules show`: the number of pieces per side.
pub fn pieces_sentence(pieces: u8) -> String {
    format!("Each side has {pieces} pieces.")
}

/// `rules show`: where a side starts (no square: in hand, PC-1).
pub fn setup_sentence(names: &Names, side: Side, squares: SquareSet) -> String {
    if squares.is_empty() {
        format!("{} starts with every piece in hand.", side.name())
    } else {
        format!("{} starts on squares {}.", side.name(), names.set(squares))
    }
}
