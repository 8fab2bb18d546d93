//! The normative SGN grammar, `grammar/sgn.pest`, as a pest parser.
//!
//! Stage: none of the pipeline — the reader is hand-written for speed. This
//! parser exists so that the grammar stays executable: a test runs both on
//! the same inputs and requires them to accept and reject alike.

use pest::Parser as _;

#[derive(pest_derive::Parser)]
#[grammar = "grammar/sgn.pest"]
pub struct SgnGrammar;

/// Whether the grammar accepts `text` as a whole SGN file; on rejection,
/// pest's message.
pub fn check(text: &str) -> Result<(), Box<pest::error::Error<Rule>>> {
    SgnGrammar::parse(Rule::file, text)
        .map(|_| ())
        .map_err(Box::new)
}

/// How many units the grammar finds in `text` (main lines and variations),
/// to compare with the reader beyond accept/reject.
pub fn count_units(text: &str) -> Option<usize> {
    let pairs = SgnGrammar::parse(Rule::file, text).ok()?;
    Some(
        pairs
            .flatten()
            .filter(|p| p.as_rule() == Rule::unit)
            .count(),
    )
}
