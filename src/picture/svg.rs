//! The board as an SVG picture, written by hand as text.
//!
//! Stage: [`Ruleset`] geometry and houses + [`Position`] + the last [`Unit`]
//! → SVG text. Nothing here judges legality. The picture has two layers:
//! the board (frame, squares, numbers, houses, the way along the track),
//! which depends on the rule set only, and the pieces (the pieces, the
//! trays of borne-off pieces and pieces in hand, the arrow of the last unit
//! and the status line), which depends on the position. The HTML replay
//! draws the board once and swaps the pieces layer at every step.
//!
//! Pieces are told apart by shape as well as colour, for colour-blind
//! readers and black-and-white print: White's are light spools (a reel with
//! a waist), Black's dark cones, as the two kinds of Senet pieces found in
//! tombs.
//!
//! ```
//! use senet::engine::{Position, Side};
//! use senet::picture::svg::{Picture, board};
//! let rules = senet::rules::load("bga", None, &[]).unwrap();
//! let start = Position::start(&rules, Side::White);
//! let svg = board(&Picture::new(&rules, &start));
//! assert!(svg.starts_with("<svg"));
//! assert!(svg.contains("House of Rebirth"));
//! ```

use super::glyphs::{self, Anchor};
use crate::engine::{House, Position, Relocated, Ruleset, Side, Unit, UnitKind};
use std::fmt::Write;

/// Side of a square, in SVG user units.
const CELL: f32 = 64.0;
/// Room left and right of the board for the way along the track.
const SIDE: f32 = 44.0;
/// Room above the board.
const TOP: f32 = 14.0;
/// Height of the trays and the status line under the board.
const BELOW: f32 = 78.0;
/// Height of a caption line.
const CAPTION: f32 = 26.0;

/// The font named in every picture: the one bundled for PNG output, then
/// whatever sans-serif face a browser has.
pub const FONT: &str = "'DejaVu Sans', 'Noto Sans', 'Noto Sans Egyptian Hieroglyphs', sans-serif";

/// What to draw: a position on the board of a rule set, with the last unit
/// as an arrow and a caption if given.
#[derive(Debug, Clone, Copy)]
pub struct Picture<'a> {
    pub rules: &'a Ruleset,
    pub position: &'a Position,
    /// The unit that led to `position` and the side that played it, drawn
    /// as an arrow.
    pub last: Option<(Side, Unit)>,
    /// A line under the picture.
    pub caption: Option<&'a str>,
}

impl<'a> Picture<'a> {
    pub fn new(rules: &'a Ruleset, position: &'a Position) -> Picture<'a> {
        Picture {
            rules,
            position,
            last: None,
            caption: None,
        }
    }
}

/// How a picture writes its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lettering {
    /// SVG `<text>`: a browser sets it with its fonts, and it stays text
    /// (searchable, selectable, read by screen readers).
    Text,
    /// Paths: the outlines of the bundled font, for renderers without a
    /// text engine (PNG).
    Outlines,
}

/// Where things go on the picture of one rule set's board, and how its
/// words are written.
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    len: u8,
    row_len: u8,
    rows: u8,
    caption: bool,
    lettering: Lettering,
}

impl Layout {
    pub fn new(rules: &Ruleset, caption: bool) -> Layout {
        Layout {
            len: rules.board.len,
            row_len: rules.board.row_len,
            rows: rules.board.rows(),
            caption,
            lettering: Lettering::Text,
        }
    }
    /// Writes `words` with the baseline at `y`, starting at or centred on `x`.
    #[allow(clippy::too_many_arguments)]
    fn text(
        &self,
        out: &mut String,
        (x, y): (f32, f32),
        size: f32,
        anchor: Anchor,
        fill: &str,
        class: &str,
        words: &str,
    ) {
        let class = if class.is_empty() {
            String::new()
        } else {
            format!(" class=\"{class}\"")
        };
        match self.lettering {
            Lettering::Text => {
                let anchor = match anchor {
                    Anchor::Start => "",
                    Anchor::Middle => " text-anchor=\"middle\"",
                };
                let _ = write!(
                    out,
                    "<text{class} x=\"{x:.0}\" y=\"{y:.0}\" font-size=\"{size:.1}\"{anchor} fill=\"{fill}\">{}</text>",
                    escape(words)
                );
            }
            Lettering::Outlines => {
                let _ = write!(
                    out,
                    "<path{class} d=\"{}\" fill=\"{fill}\"/>",
                    glyphs::outline(words, x, y, size, anchor)
                );
            }
        }
    }
    pub fn width(&self) -> f32 {
        2.0 * SIDE + self.row_len as f32 * CELL
    }
    fn board_height(&self) -> f32 {
        self.rows as f32 * CELL
    }
    pub fn height(&self) -> f32 {
        TOP + self.board_height() + BELOW + if self.caption { CAPTION } else { 0.0 }
    }
    /// The row (0-based from the top) and column (0-based from the left) of
    /// a square: the track runs boustrophedon, the first row left to right.
    fn cell(&self, square: u8) -> (u8, u8) {
        let i = square - 1;
        let row = i / self.row_len;
        let k = i % self.row_len;
        let col = if row.is_multiple_of(2) {
            k
        } else {
            self.row_len - 1 - k
        };
        (row, col)
    }
    /// The top-left corner of a square.
    fn corner(&self, square: u8) -> (f32, f32) {
        let (row, col) = self.cell(square);
        (SIDE + col as f32 * CELL, TOP + row as f32 * CELL)
    }
    /// The centre of a square.
    pub fn centre(&self, square: u8) -> (f32, f32) {
        let (x, y) = self.corner(square);
        (x + CELL / 2.0, y + CELL / 2.0)
    }
    /// Whether the last row runs left to right (the track leaves the board
    /// on the right).
    fn exits_right(&self) -> bool {
        (self.rows - 1).is_multiple_of(2)
    }
    /// Where an arrow to "off the board" points: just past the last square.
    fn off_point(&self) -> (f32, f32) {
        let (x, y) = self.centre(self.len);
        let last_in_row = (self.len - 1) % self.row_len + 1 == self.row_len;
        if last_in_row {
            if self.exits_right() {
                (x + CELL * 0.5 + SIDE * 0.6, y)
            } else {
                (x - CELL * 0.5 - SIDE * 0.6, y)
            }
        } else {
            // A short last row: the track ends inside the board.
            let dx = if self.exits_right() { CELL } else { -CELL };
            (x + dx * 0.8, y)
        }
    }
    /// The top of the trays under the board.
    fn tray_y(&self) -> f32 {
        TOP + self.board_height() + 10.0
    }
    /// Where a side's tray piece sits: White's tray on the left, Black's on
    /// the right half.
    fn tray_x(&self, side: Side) -> f32 {
        match side {
            Side::White => SIDE + 14.0,
            Side::Black => self.width() / 2.0 + 14.0,
        }
    }
    /// Where an arrow from the hand starts: the side's tray.
    fn hand_point(&self, side: Side) -> (f32, f32) {
        (self.tray_x(side), self.tray_y() + 12.0)
    }
}

/// Escapes text for SVG and HTML content and attribute values. Control
/// characters from a record (tags, comments) are written as visible escapes
/// (`\u{1b}`), as in the text output: XML does not allow most of them even
/// as character references, and HTML shows none of them.
pub fn escape(text: &str) -> String {
    let text = crate::diag::printable(text);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The name of a house without "House of" / "The": "Rebirth", "Water".
fn short_name(house: &House) -> &str {
    let name = house.name.trim();
    ["House of the ", "House of ", "The "]
        .iter()
        .find_map(|p| name.strip_prefix(p))
        .unwrap_or(name)
}

/// The whole picture: an `<svg>` element, standalone.
pub fn board(p: &Picture<'_>) -> String {
    board_with(p, Lettering::Text)
}

/// The whole picture with its words written as `lettering` says.
pub fn board_with(p: &Picture<'_>, lettering: Lettering) -> String {
    let mut layout = Layout::new(p.rules, p.caption.is_some());
    layout.lettering = lettering;
    let mut out = open(&layout, &describe(p.rules, p.position));
    out.push_str(&board_layer(p.rules, &layout));
    out.push_str(&pieces_layer(p.rules, &layout, p.position, p.last.as_ref()));
    if let Some(c) = p.caption {
        layout.text(
            &mut out,
            (layout.width() / 2.0, layout.height() - 9.0),
            15.0,
            Anchor::Middle,
            "#1d1d1b",
            "caption",
            c,
        );
        out.push('\n');
    }
    out.push_str("</svg>\n");
    out
}

/// The `<svg>` start tag, the text alternative and the shapes of the pieces.
pub fn open(layout: &Layout, description: &str) -> String {
    let (w, h) = (layout.width(), layout.height());
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" role=\"img\" aria-labelledby=\"senet-title senet-desc\" font-family=\"{FONT}\">"
    );
    out.push_str("<title id=\"senet-title\">Senet board</title>\n");
    let _ = writeln!(
        out,
        "<desc id=\"senet-desc\">{}</desc>",
        escape(description)
    );
    // A spool (White) and a cone (Black), centred on 0,0, about 36 units tall.
    out.push_str(concat!(
        "<defs>\n",
        "<symbol id=\"senet-w\" viewBox=\"-20 -20 40 40\" overflow=\"visible\">",
        "<path d=\"M-13,-17 H13 Q6,0 13,17 H-13 Q-6,0 -13,-17 Z\" fill=\"#fbf8ef\" stroke=\"#1d1d1b\" stroke-width=\"2.2\" stroke-linejoin=\"round\"/>",
        "<path d=\"M-13,-17 H13 M-13,17 H13\" stroke=\"#1d1d1b\" stroke-width=\"3.4\"/>",
        "</symbol>\n",
        "<symbol id=\"senet-b\" viewBox=\"-20 -20 40 40\" overflow=\"visible\">",
        "<path d=\"M-14,17 L-3,-15 Q0,-19 3,-15 L14,17 Z\" fill=\"#2a2521\" stroke=\"#000\" stroke-width=\"2\" stroke-linejoin=\"round\"/>",
        "<path d=\"M-8,8 H8\" stroke=\"#b9ab92\" stroke-width=\"2\"/>",
        "</symbol>\n",
        "<marker id=\"senet-head\" viewBox=\"0 0 10 10\" refX=\"7\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\">",
        "<path d=\"M0,0 L10,5 L0,10 Z\" fill=\"#b3261e\"/></marker>\n",
        "</defs>\n",
    ));
    let _ = writeln!(
        out,
        "<rect width=\"{w:.0}\" height=\"{h:.0}\" fill=\"#fffdf7\"/>"
    );
    out
}

/// The board of a rule set: frame, squares, numbers, houses and the way
/// along the track. The same for every position.
pub fn board_layer(rules: &Ruleset, layout: &Layout) -> String {
    let mut out = String::from("<g class=\"board\">\n");
    let bw = layout.row_len as f32 * CELL;
    let _ = writeln!(
        out,
        "<rect x=\"{:.0}\" y=\"{:.0}\" width=\"{bw:.0}\" height=\"{:.0}\" fill=\"#d8c08c\" stroke=\"#5b4a2f\" stroke-width=\"4\" rx=\"3\"/>",
        SIDE - 2.0,
        TOP - 2.0,
        layout.board_height() + 4.0
    );
    for s in 1..=layout.len {
        let (x, y) = layout.corner(s);
        let house = rules.houses.iter().find(|h| h.square == s);
        let fill = if house.is_some() {
            "#ead59f"
        } else {
            "#f3e7c6"
        };
        let _ = write!(
            out,
            "<g class=\"square\" data-square=\"{s}\"><rect x=\"{:.0}\" y=\"{:.0}\" width=\"{:.0}\" height=\"{:.0}\" fill=\"{fill}\" stroke=\"#8a7450\" stroke-width=\"1.5\"/>",
            x + 1.0,
            y + 1.0,
            CELL - 2.0,
            CELL - 2.0
        );
        layout.text(
            &mut out,
            (x + 5.0, y + 14.0),
            11.0,
            Anchor::Start,
            "#4a3b22",
            "",
            &s.to_string(),
        );
        if let Some(h) = house {
            let _ = write!(out, "<title>{s}: {}</title>", escape(&h.name));
            if let Some(g) = &h.glyph {
                let size = if g.chars().count() <= 1 { 30.0 } else { 18.0 };
                layout.text(
                    &mut out,
                    (x + CELL / 2.0, y + CELL / 2.0 + size * 0.35),
                    size,
                    Anchor::Middle,
                    "#9c7f49",
                    "",
                    g,
                );
            }
            let short = short_name(h);
            // Fit the name into the square: about 0.6 em per letter.
            let size = (CELL - 8.0) / (0.62 * short.chars().count().max(1) as f32);
            let size = size.min(9.5);
            layout.text(
                &mut out,
                (x + CELL / 2.0, y + CELL - 5.0),
                size,
                Anchor::Middle,
                "#5e4a27",
                "",
                short,
            );
        }
        out.push_str("</g>\n");
    }
    out.push_str(&track_arrows(layout));
    out.push_str("</g>\n");
    out
}

/// The way along the track: an arrow at each row end, "off" where it
/// leaves the board.
fn track_arrows(layout: &Layout) -> String {
    let mut out = String::new();
    let left = SIDE / 2.0;
    let right = layout.width() - SIDE / 2.0;
    for r in 0..layout.rows {
        let y = TOP + r as f32 * CELL + CELL / 2.0;
        let last = r + 1 == layout.rows;
        let rightward = r % 2 == 0;
        // Entering the row: at its start, pointing along it (the first row's
        // start is where the track begins).
        let (start_x, end_x) = if rightward {
            (left, right)
        } else {
            (right, left)
        };
        let dir = if rightward { 1.0 } else { -1.0 };
        if r == 0 {
            let _ = write!(
                out,
                "<path d=\"M{:.0},{y:.0} h{:.0}\" stroke=\"#5b4a2f\" stroke-width=\"2.5\" marker-end=\"url(#senet-track)\"/>",
                start_x - dir * 12.0,
                dir * 20.0
            );
        }
        if last {
            let _ = write!(
                out,
                "<path d=\"M{:.0},{y:.0} h{:.0}\" stroke=\"#5b4a2f\" stroke-width=\"2.5\" marker-end=\"url(#senet-track)\"/>",
                end_x - dir * 12.0,
                dir * 20.0,
            );
            layout.text(
                &mut out,
                (end_x, y + 22.0),
                11.0,
                Anchor::Middle,
                "#4a3b22",
                "",
                "off",
            );
        } else {
            // Down to the next row at this row's end.
            let _ = write!(
                out,
                "<path d=\"M{end_x:.0},{:.0} v{:.0}\" stroke=\"#5b4a2f\" stroke-width=\"2.5\" marker-end=\"url(#senet-track)\"/>",
                y - 8.0,
                CELL - 4.0
            );
        }
    }
    out.push_str(concat!(
        "<marker id=\"senet-track\" viewBox=\"0 0 10 10\" refX=\"6\" refY=\"5\" markerWidth=\"4\" markerHeight=\"4\" orient=\"auto\">",
        "<path d=\"M0,0 L10,5 L0,10 Z\" fill=\"#5b4a2f\"/></marker>\n"
    ));
    out
}

fn piece(out: &mut String, side: Side, x: f32, y: f32, size: f32, square: Option<u8>) {
    let id = match side {
        Side::White => "senet-w",
        Side::Black => "senet-b",
    };
    let data = match square {
        Some(s) => format!(" data-square=\"{s}\" data-side=\"{}\"", side.letter()),
        None => String::new(),
    };
    let _ = write!(
        out,
        "<use href=\"#{id}\" x=\"{:.1}\" y=\"{:.1}\" width=\"{size:.0}\" height=\"{size:.0}\"{data}/>",
        x - size / 2.0,
        y - size / 2.0
    );
}

/// An arrow from `a` to `b`, bowed so that it clears the pieces.
fn arrow(out: &mut String, a: (f32, f32), b: (f32, f32), dashed: bool) {
    let (mx, my) = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    // Bow to the left of the direction of travel by a fifth of the length,
    // at least a quarter square.
    let bow = (len * 0.2).max(CELL * 0.25);
    let (cx, cy) = (mx + dy / len * bow, my - dx / len * bow);
    // Stop short of the piece at the end so that the head does not hide it:
    // back along the tangent at the end (from the control point).
    let (tx, ty) = (b.0 - cx, b.1 - cy);
    let tl = (tx * tx + ty * ty).sqrt().max(1.0);
    let b = (b.0 - tx / tl * 14.0, b.1 - ty / tl * 14.0);
    let dash = if dashed {
        " stroke-dasharray=\"6 4\""
    } else {
        ""
    };
    let _ = write!(
        out,
        "<path class=\"last\" d=\"M{:.1},{:.1} Q{cx:.1},{cy:.1} {:.1},{:.1}\" fill=\"none\" stroke=\"#b3261e\" stroke-width=\"4\" stroke-linecap=\"round\" opacity=\"0.85\"{dash} marker-end=\"url(#senet-head)\"/>",
        a.0, a.1, b.0, b.1
    );
}

/// The point a piece of `side` goes to or comes from on the picture:
/// a square, off the board, or the hand.
fn point(layout: &Layout, side: Side, square: u8, off: bool) -> (f32, f32) {
    if off || square > layout.len {
        layout.off_point()
    } else if square == 0 {
        layout.hand_point(side)
    } else {
        layout.centre(square)
    }
}

/// The arrow of a unit played by `side`, and of the second part of a
/// split throw and any relocation.
fn unit_arrows(layout: &Layout, side: Side, u: &Unit) -> String {
    let mut out = String::new();
    if !matches!(u.kind, UnitKind::Move | UnitKind::NoThrow) {
        return out;
    }
    let to = point(layout, side, u.to, u.off);
    arrow(&mut out, point(layout, side, u.from, false), to, false);
    if let Some(Relocated::Square(s)) = u.relocated {
        arrow(&mut out, to, layout.centre(s), true);
    }
    if let Some(p) = &u.split {
        let to = point(layout, side, p.to, p.off);
        arrow(&mut out, point(layout, side, p.from, false), to, false);
        if let Some(Relocated::Square(s)) = p.relocated {
            arrow(&mut out, to, layout.centre(s), true);
        }
    }
    out
}

/// The position on the board: pieces, trays, the last unit's arrow and the
/// status line. Every piece on the board carries `data-square` and
/// `data-side`, and the trays `data-off` / `data-hand`, so that a reader of
/// the picture (or a test) can tell the position from it.
pub fn pieces_layer(
    rules: &Ruleset,
    layout: &Layout,
    pos: &Position,
    last: Option<&(Side, Unit)>,
) -> String {
    let mut out = String::from("<g class=\"pieces\">\n");
    for s in 1..=layout.len {
        if let Some(side) = pos.at(s) {
            let (x, y) = layout.centre(s);
            piece(&mut out, side, x, y - 1.0, 36.0, Some(s));
        }
    }
    out.push('\n');
    let ty = layout.tray_y();
    for side in Side::BOTH {
        let i = side.index();
        let x = layout.tray_x(side);
        let _ = write!(
            out,
            "<g class=\"tray\" data-side=\"{}\" data-off=\"{}\" data-hand=\"{}\">",
            side.letter(),
            pos.off[i],
            pos.hand[i]
        );
        piece(&mut out, side, x, ty + 12.0, 22.0, None);
        let mut words = format!("{side}: off {}", pos.off[i]);
        if pos.hand[i] > 0 || pos.hand != [0, 0] {
            let _ = write!(words, ", in hand {}", pos.hand[i]);
        }
        layout.text(
            &mut out,
            (x + 16.0, ty + 17.0),
            13.0,
            Anchor::Start,
            "#1d1d1b",
            "",
            &words,
        );
        out.push_str("</g>\n");
    }
    let status = crate::notation::board::status(rules, pos);
    // The status line repeats the counts already in the trays: keep the rest.
    let status: Vec<&str> = status.split(" · ").skip(1).collect();
    layout.text(
        &mut out,
        (SIDE, ty + 46.0),
        13.0,
        Anchor::Start,
        "#1d1d1b",
        "status",
        &status.join(" · "),
    );
    out.push('\n');
    if let Some((side, u)) = last {
        out.push_str(&unit_arrows(layout, *side, u));
        out.push('\n');
    }
    out.push_str("</g>\n");
    out
}

/// The board in words, for readers who cannot see the picture.
pub fn describe(rules: &Ruleset, pos: &Position) -> String {
    let list = |side: Side| -> String {
        let squares: Vec<String> = (1..=rules.board.len)
            .filter(|&s| pos.at(s) == Some(side))
            .map(|s| s.to_string())
            .collect();
        if squares.is_empty() {
            format!("no {side} piece on the board")
        } else {
            format!("{side} on {}", squares.join(", "))
        }
    };
    format!(
        "A Senet board of {} squares in rows of {}. {}; {}. {}.",
        rules.board.len,
        rules.board.row_len,
        list(Side::White),
        list(Side::Black),
        crate::notation::board::status(rules, pos)
    )
}
