//! The normative SGN grammar, `grammar/sgn.pest`, as a pest parser.
//!
//! Stage: none of the pipeline — the reader is hand-written for speed. This
//! parser exists so that the grammar stays executable: a test runs both on
//! the same inputs and requires them to accept and reject alike.

use super::reader::MAX_VARIATION_DEPTH;
use pest::Parser as _;

#[derive(pest_derive::Parser)]
#[grammar = "grammar/sgn.pest"]
pub struct SgnGrammar;

/// Whether the grammar accepts `text` as a whole SGN file; on rejection,
/// pest's message.
///
/// pest descends one call per level of nesting, so variations nested
/// deeper than [`MAX_VARIATION_DEPTH`] are refused before pest sees them,
/// as the reader refuses them: the stack stays bounded whatever the input.
pub fn check(text: &str) -> Result<(), Box<pest::error::Error<Rule>>> {
    too_deep(text)?;
    SgnGrammar::parse(Rule::file, text)
        .map(|_| ())
        .map_err(Box::new)
}

/// An error at the first `(` that opens a variation deeper than
/// [`MAX_VARIATION_DEPTH`]. Brackets inside tag values, comments and
/// escape lines are not variations and are skipped.
fn too_deep(text: &str) -> Result<(), Box<pest::error::Error<Rule>>> {
    let b = text.as_bytes();
    let skip_to = |from: usize, stop: &[u8]| -> usize {
        b[from..]
            .iter()
            .position(|c| stop.contains(c))
            .map_or(b.len(), |p| from + p)
    };
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        let line_start = i == 0 || b[i - 1] == b'\n';
        match b[i] {
            b'%' if line_start => i = skip_to(i, b"\n"),
            b'{' => i = skip_to(i, b"}"),
            b';' => i = skip_to(i, b"\n"),
            b'"' => {
                // A tag value: `\"` does not end it, a line end does.
                i += 1;
                while i < b.len() && !matches!(b[i], b'"' | b'\n') {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' => {
                depth += 1;
                if depth > MAX_VARIATION_DEPTH {
                    let pos = pest::Position::new(text, i).expect("`(` is a char boundary");
                    return Err(Box::new(pest::error::Error::new_from_pos(
                        pest::error::ErrorVariant::CustomError {
                            message: format!(
                                "variations nest more than {MAX_VARIATION_DEPTH} levels deep"
                            ),
                        },
                        pos,
                    )));
                }
            }
            b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// How many units the grammar finds in `text` (main lines and variations),
/// to compare with the reader beyond accept/reject.
pub fn count_units(text: &str) -> Option<usize> {
    too_deep(text).ok()?;
    let pairs = SgnGrammar::parse(Rule::file, text).ok()?;
    Some(
        pairs
            .flatten()
            .filter(|p| p.as_rule() == Rule::unit)
            .count(),
    )
}
