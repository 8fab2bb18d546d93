//! Words as outlines of the bundled font, for the PNG renderer, which has
//! no text engine of its own: the picture then looks the same on every
//! machine, whatever fonts it has.
//!
//! Stage: text, position, size → an SVG path. The layout is simple and
//! enough for the short labels of a board: one line, each glyph's advance,
//! no kerning or shaping. A character the font lacks (an Egyptian
//! hieroglyph such as `𓂀`) is drawn as a box holding its code point in hex
//! digits, as last-resort fonts do: the square shows that a sign is there
//! and which one, on every machine.

use std::fmt::Write;
use std::sync::OnceLock;

/// DejaVu Sans, bundled with its licence in `assets/fonts/`.
static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

fn face() -> &'static ttf_parser::Face<'static> {
    static FACE: OnceLock<ttf_parser::Face<'static>> = OnceLock::new();
    // The bundled file is a valid font: a failure here is a build mistake.
    FACE.get_or_init(|| ttf_parser::Face::parse(FONT, 0).expect("the bundled font parses"))
}

/// Where the text sits relative to its `x`, as SVG's `text-anchor`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
}

/// Writes path commands in picture units: font units scaled, y flipped.
struct Pen<'a> {
    d: &'a mut String,
    x: f32,
    y: f32,
    scale: f32,
}

impl Pen<'_> {
    fn at(&self, x: f32, y: f32) -> (f32, f32) {
        (self.x + x * self.scale, self.y - y * self.scale)
    }
}

impl ttf_parser::OutlineBuilder for Pen<'_> {
    fn move_to(&mut self, x: f32, y: f32) {
        let (x, y) = self.at(x, y);
        let _ = write!(self.d, "M{x:.2},{y:.2}");
    }
    fn line_to(&mut self, x: f32, y: f32) {
        let (x, y) = self.at(x, y);
        let _ = write!(self.d, "L{x:.2},{y:.2}");
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        let (x1, y1) = self.at(x1, y1);
        let (x, y) = self.at(x, y);
        let _ = write!(self.d, "Q{x1:.2},{y1:.2} {x:.2},{y:.2}");
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        let (x1, y1) = self.at(x1, y1);
        let (x2, y2) = self.at(x2, y2);
        let (x, y) = self.at(x, y);
        let _ = write!(self.d, "C{x1:.2},{y1:.2} {x2:.2},{y2:.2} {x:.2},{y:.2}");
    }
    fn close(&mut self) {
        self.d.push('Z');
    }
}

/// The path data of `text` set at `size` with its baseline at `y`.
pub fn outline(text: &str, x: f32, y: f32, size: f32, anchor: Anchor) -> String {
    let face = face();
    let scale = size / face.units_per_em() as f32;
    let glyphs: Vec<(Option<ttf_parser::GlyphId>, f32)> = text
        .chars()
        .map(|c| {
            let g = face.glyph_index(c);
            let advance = g
                .and_then(|g| face.glyph_hor_advance(g))
                .map_or(size * MISSING_ADVANCE, |a| a as f32 * scale);
            (g, advance)
        })
        .collect();
    let width: f32 = glyphs.iter().map(|(_, a)| a).sum();
    let mut pen_x = match anchor {
        Anchor::Start => x,
        Anchor::Middle => x - width / 2.0,
    };
    let mut d = String::new();
    for ((g, advance), c) in glyphs.into_iter().zip(text.chars()) {
        match g {
            Some(g) => {
                let mut pen = Pen {
                    d: &mut d,
                    x: pen_x,
                    y,
                    scale,
                };
                face.outline_glyph(g, &mut pen);
            }
            None => hex_box(&mut d, c, pen_x, y, size),
        }
        pen_x += advance;
    }
    d
}

/// The advance of a character the font lacks, in ems: its hex box.
const MISSING_ADVANCE: f32 = 0.9;

/// A character the font lacks, at `x` on the baseline `y`: a frame one
/// em high with the code point's hex digits in two rows (`013`/`080` for
/// U+13080, `22`/`65` for U+2265).
fn hex_box(d: &mut String, c: char, x: f32, y: f32, size: f32) {
    let (w, h) = (size * (MISSING_ADVANCE - 0.1), size * 0.95);
    let (x0, y0) = (x + size * 0.05, y - size * 0.78);
    let (x1, y1) = (x0 + w, y0 + h);
    let t = size * 0.05;
    // The inner edge runs the other way round: a hole under the nonzero rule.
    let _ = write!(
        d,
        "M{x0:.2},{y0:.2}L{x1:.2},{y0:.2}L{x1:.2},{y1:.2}L{x0:.2},{y1:.2}Z\
         M{:.2},{:.2}L{:.2},{:.2}L{:.2},{:.2}L{:.2},{:.2}Z",
        x0 + t,
        y0 + t,
        x0 + t,
        y1 - t,
        x1 - t,
        y1 - t,
        x1 - t,
        y0 + t
    );
    let code = c as u32;
    let hex = if code > 0xffff {
        format!("{code:06X}")
    } else {
        format!("{code:04X}")
    };
    let (top, bottom) = hex.split_at(hex.len() / 2);
    // Digits sized to fill the frame: three of them take about 1.9 em.
    let digits = size * 0.3 * 3.0 / top.len().max(2) as f32 * 0.9;
    let mid = x0 + w / 2.0;
    let row = h / 2.0;
    for (i, part) in [top, bottom].into_iter().enumerate() {
        let base = y0 + row * (i as f32 + 0.5) + digits * 0.36;
        d.push_str(&outline(part, mid, base, digits, Anchor::Middle));
    }
}
