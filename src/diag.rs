//! Shared diagnostic plumbing: source files with names, byte spans, and
//! line/column positions. Both languages (rule files and SGN) use the one
//! [`Span`] and the one [`line_col`] defined here.

use miette::{NamedSource, SourceSpan};
use std::sync::Arc;

/// A source text with the name it is reported under (a path, or
/// `<builtin>/kendall.senet`).
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub name: String,
    pub text: Arc<str>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<Arc<str>>) -> SourceFile {
        SourceFile {
            name: name.into(),
            text: text.into(),
        }
    }
    /// The source in the form miette renders.
    pub fn named(&self) -> NamedSource<Arc<str>> {
        NamedSource::new(self.name.clone(), self.text.clone())
    }
}

/// A byte range `start..end` into a source text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
    pub const fn len(&self) -> usize {
        self.end - self.start
    }
    pub const fn is_empty(&self) -> bool {
        self.end == self.start
    }
    /// The text this span covers in `source` (which must be the text the
    /// spans were read from, starting at offset 0).
    pub fn text<'a>(&self, source: &'a str) -> &'a str {
        &source[self.start..self.end]
    }
}

impl From<Span> for SourceSpan {
    fn from(s: Span) -> SourceSpan {
        SourceSpan::new(s.start.into(), s.len())
    }
}

impl From<Span> for std::ops::Range<usize> {
    fn from(s: Span) -> std::ops::Range<usize> {
        s.start..s.end
    }
}

/// 1-based line and column (in characters) of a byte offset in `text`:
/// the one place positions are counted, for every diagnostic printed as
/// `file:line:col`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

/// A byte span `start..end` as miette wants it.
pub fn span(start: usize, end: usize) -> SourceSpan {
    SourceSpan::new(start.into(), end.saturating_sub(start))
}
