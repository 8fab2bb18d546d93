//! The board as a picture: a [`Position`] drawn as the real board of rows,
//! for `senet replay` and engine docs.
//!
//! Stage: [`Ruleset`] geometry + [`Position`] → text. Nothing here judges
//! legality; the caller says which squares to highlight.
//!
//! The track runs boustrophedon (docs/sources/README.md): the first row
//! left → right, the second right → left, the third left → right, and so on
//! for any `board.len` and `board.row_len`. Arrows at the row ends show the
//! way; a house shows its glyph, or a short form of its name where the glyph
//! would not keep the columns straight in a terminal.
//!
//! ```
//! use senet::engine::{Position, Side};
//! use senet::notation::board::{Highlight, draw};
//! let rules = senet::rules::load("bga", None, &[]).unwrap();
//! let start = Position::start(&rules, Side::White);
//! let picture = draw(&rules, &start, &Highlight::default(), false);
//! assert!(picture.contains("│1     │2     │"));
//! assert!(picture.contains("│15   ☥│"));
//! ```

use crate::engine::{House, Position, Ruleset, Side};

/// Inner width of a cell, in terminal columns.
const CELL: usize = 6;

/// What to mark on the board after a unit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Highlight {
    /// Where the piece that moved now stands (`[W]`, or reverse video in colour).
    pub moved: Option<u8>,
    /// Where the piece it came from was left empty (`·`).
    pub from: Option<u8>,
    /// Where an opposing piece it displaced went (`(B)`).
    pub displaced: Option<u8>,
}

/// What the marks of a [`Highlight`] mean, in one line for a legend: with
/// `colour` the moved piece is in reverse video and a displaced one
/// underlined, without it they are bracketed (`[W]`, `(B)`).
pub fn marks_legend(colour: bool) -> &'static str {
    if colour {
        "Marks: reverse video = the piece that moved, underlined = an opposing \
         piece it displaced, · = the square it left"
    } else {
        "Marks: [W] = the piece that moved, (B) = an opposing piece it displaced, \
         · = the square it left"
    }
}

/// Whether `text` takes one terminal column per character everywhere: ASCII,
/// Latin, Greek, Cyrillic, and the punctuation, arrow, mathematical and
/// miscellaneous-symbol blocks (`☥`, `≈`). Hieroglyphs and CJK do not.
fn narrow(text: &str) -> bool {
    text.chars().all(|c| {
        let c = c as u32;
        (0x20..0x7f).contains(&c) || (0xa0..0x0590).contains(&c) || (0x2000..0x2bff).contains(&c)
    })
}

/// The mark a house gets in its cell: the glyph when it is at most three
/// narrow characters, else the first three letters of its name without
/// "House of" / "The" ("House of Horus" → `Hor`).
pub fn house_mark(house: &House) -> String {
    if let Some(g) = &house.glyph
        && narrow(g)
        && g.chars().count() <= 3
    {
        return g.clone();
    }
    let name = house.name.trim();
    let short = ["House of the ", "House of ", "The "]
        .iter()
        .find_map(|p| name.strip_prefix(p))
        .unwrap_or(name);
    short
        .chars()
        .filter(|c| !c.is_whitespace())
        .take(3)
        .collect()
}

/// One line per house: `15 ☥  House of Rebirth`.
pub fn legend(rules: &Ruleset) -> Vec<String> {
    let mut houses: Vec<&House> = rules.houses.iter().collect();
    houses.sort_by_key(|h| h.square);
    houses
        .iter()
        .map(|h| {
            let mark = house_mark(h);
            let pad = 4usize.saturating_sub(mark.chars().count());
            format!("{:>2} {mark}{} {}", h.square, " ".repeat(pad), h.name)
        })
        .collect()
}

/// The squares of row `r` (0-based from the start of the track), left to
/// right as drawn: `None` for a column past the end of a short last row.
fn row_columns(len: u8, row_len: u8, r: u8) -> Vec<Option<u8>> {
    let first = r as u16 * row_len as u16 + 1;
    (0..row_len as u16)
        .map(|col| {
            let idx = if r.is_multiple_of(2) {
                col
            } else {
                row_len as u16 - 1 - col
            };
            let s = first + idx;
            (s <= len as u16).then_some(s as u8)
        })
        .collect()
}

/// The first line of a cell: the square number left, the house mark right.
fn number_cell(rules: &Ruleset, square: Option<u8>) -> String {
    let Some(s) = square else {
        return " ".repeat(CELL);
    };
    let num = s.to_string();
    let mark = rules
        .houses
        .iter()
        .find(|h| h.square == s)
        .map(house_mark)
        .unwrap_or_default();
    let room = CELL - num.len();
    let mark: String = mark.chars().take(room.saturating_sub(1)).collect();
    let pad = room - mark.chars().count();
    format!("{num}{}{mark}", " ".repeat(pad))
}

/// The second line of a cell: the piece, centred, with its highlight.
fn piece_cell(pos: &Position, square: Option<u8>, hl: &Highlight, colour: bool) -> String {
    let Some(s) = square else {
        return " ".repeat(CELL);
    };
    let piece = pos.at(s);
    let letter = |side: Side| side.letter();
    match piece {
        Some(side) if hl.moved == Some(s) => {
            if colour {
                format!(" \x1b[1;7m {} \x1b[0m  ", letter(side))
            } else {
                format!(" [{}]  ", letter(side))
            }
        }
        Some(side) if hl.displaced == Some(s) => {
            if colour {
                format!(" \x1b[4m({})\x1b[0m  ", letter(side))
            } else {
                format!(" ({})  ", letter(side))
            }
        }
        Some(side) => format!("  {}   ", letter(side)),
        None if hl.from == Some(s) => "  ·   ".to_string(),
        None => " ".repeat(CELL),
    }
}

/// A border line: `┌──────┬ … ┐`.
fn border(cols: usize, left: char, mid: char, right: char) -> String {
    let mut s = String::from(left);
    for i in 0..cols {
        s.push_str(&"─".repeat(CELL));
        s.push(if i + 1 == cols { right } else { mid });
    }
    s
}

/// Draws `pos` on the board of `rules`. Pieces are `W` and `B`; the piece
/// that moved is `[W]` (reverse video with `colour`), a piece it displaced
/// `(B)` (underlined), and the square it left `·`. Every line ends without
/// trailing spaces except inside the frame.
pub fn draw(rules: &Ruleset, pos: &Position, hl: &Highlight, colour: bool) -> String {
    let board = rules.board;
    let rows = board.rows();
    let cols = board.row_len as usize;
    // The left labels are two columns wide, or five when the track leaves
    // the board on the left (`off ←`).
    let lw = if !(rows - 1).is_multiple_of(2) { 5 } else { 2 };
    let margin = " ".repeat(lw + 1);
    let mut out = String::new();
    out.push_str(&margin);
    out.push_str(&border(cols, '┌', '┬', '┐'));
    out.push('\n');
    for r in 0..rows {
        let last = r + 1 == rows;
        let squares = row_columns(board.len, board.row_len, r);
        // The way along the track at each end of the row.
        let (left, right) = match (r.is_multiple_of(2), last) {
            (true, false) => ("→", "↓"),
            (true, true) => ("→", "→ off"),
            (false, false) => ("↓", "←"),
            (false, true) => ("off ←", "←"),
        };
        let mut line = format!("{left:>lw$} │");
        for &s in &squares {
            line.push_str(&number_cell(rules, s));
            line.push('│');
        }
        line.push(' ');
        line.push_str(right);
        out.push_str(&line);
        out.push('\n');
        out.push_str(&margin);
        out.push('│');
        for &s in &squares {
            out.push_str(&piece_cell(pos, s, hl, colour));
            out.push('│');
        }
        out.push('\n');
        out.push_str(&margin);
        if last {
            out.push_str(&border(cols, '└', '┴', '┘'));
        } else {
            out.push_str(&border(cols, '├', '┼', '┤'));
        }
        out.push('\n');
    }
    out
}

/// The line under the board: borne-off counts, the queue, missed turns, and
/// who is to move in which turn.
pub fn status(rules: &Ruleset, pos: &Position) -> String {
    let mut parts = vec![format!("off: White {}, Black {}", pos.off[0], pos.off[1])];
    if pos.hand != [0, 0] {
        parts.push(format!(
            "in hand: White {}, Black {}",
            pos.hand[0], pos.hand[1]
        ));
    }
    if !pos.queue.is_empty() {
        let q: String = pos.queue.iter().map(|s| s.letter()).collect();
        parts.push(format!("queue (head first): {q}"));
    }
    for side in Side::BOTH {
        if pos.skip[side.index()] {
            parts.push(format!("{side} misses its next turn"));
        }
    }
    match rules.winner(pos) {
        Some(w) => parts.push(format!("{w} has won")),
        None if rules.game_over(pos) => parts.push("the game is drawn".to_string()),
        None => {
            let mut next = format!("{} to move, turn {}", pos.to_move, pos.turn);
            if pos.extra {
                next.push_str(", another throw");
            }
            if let Some(b) = pos.bound {
                next.push_str(&format!(" for the piece on {b}"));
            }
            parts.push(next);
        }
    }
    parts.join(" · ")
}
