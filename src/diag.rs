//! Shared diagnostic plumbing: source files with names, and byte spans.

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
    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        line_col(&self.text, offset)
    }
}

/// 1-based line and column (in characters) of a byte offset in `text`.
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
