//! The board as a PNG image: the SVG picture, with its words as outlines of
//! the bundled font ([`super::glyphs`]), drawn by a pure-Rust renderer. No
//! system font is ever looked up, so the same picture gives the same pixels
//! on every machine.
//!
//! Stage: [`super::svg::Picture`] → SVG text with outlined words → pixels →
//! PNG bytes.

use super::svg::{self, Lettering, Picture};

/// Why a picture did not become a PNG.
#[derive(Debug, thiserror::Error)]
pub enum PngError {
    #[error("the picture does not parse as SVG: {0}")]
    Svg(String),
    #[error("the picture is too large to draw ({width} × {height} pixels)")]
    Size { width: u32, height: u32 },
    #[error("the image could not be encoded as PNG: {0}")]
    Encode(String),
}

/// Draws `picture` at `scale` pixels per picture unit (2 suits print and
/// dense screens) and encodes it as PNG.
pub fn render(picture: &Picture<'_>, scale: f32) -> Result<Vec<u8>, PngError> {
    let text = svg::board_with(picture, Lettering::Outlines);
    let tree = resvg::usvg::Tree::from_str(&text, &resvg::usvg::Options::default())
        .map_err(|e| PngError::Svg(e.to_string()))?;
    let size = tree.size();
    let (width, height) = (
        (size.width() * scale).ceil() as u32,
        (size.height() * scale).ceil() as u32,
    );
    let mut pixmap = resvg::tiny_skia::Pixmap::new(width, height)
        .filter(|_| width <= 16_384 && height <= 16_384)
        .ok_or(PngError::Size { width, height })?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| PngError::Encode(e.to_string()))
}
