//! Shared diagnostic plumbing: source files with names, byte spans,
//! line/column positions, and what every error of the library says beyond
//! its message. Both languages (rule files and SGN) use the one [`Span`]
//! and the one [`line_col`] defined here.
//!
//! Every error type of the library implements [`Diagnostic`]: a stable
//! code, a severity, a help line, the source text and the labelled spans
//! into it, and the problems it gathers (a rule file's errors). A caller
//! renders them as it likes:
//!
//! ```
//! use senet::diag::{Diagnostic, Severity, SourceFile, line_col};
//!
//! let file = SourceFile::new("mine.senet", "extends \"kendall\"\nat 31: gate\n");
//! let error = senet::rules::load_source(file, &[]).unwrap_err();
//! assert_eq!(error.code(), "senet::rules::invalid");
//! let mut shown = Vec::new();
//! for problem in error.related() {
//!     let source = problem.source_code().unwrap();
//!     let label = &problem.labels()[0];
//!     let (line, col) = line_col(source.text(), label.span.start);
//!     assert_eq!(problem.severity(), Severity::Error);
//!     shown.push(format!(
//!         "{}:{line}:{col}: {problem} [{}] ({}); help: {}",
//!         source.name().unwrap_or("?"),
//!         problem.code(),
//!         label.text,
//!         problem.help().unwrap_or_default(),
//!     ));
//! }
//! assert_eq!(
//!     shown,
//!     ["mine.senet:2:4: square 31 is not on the board [senet::rules::unknown_square] \
//!       (no square 31); help: squares are numbered 1 to 30 (30 squares on this board)"]
//! );
//! ```

use serde::Serialize;
use std::borrow::Cow;
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

/// The span `start..end`, empty at `start` when `end` comes before it.
pub fn span(start: usize, end: usize) -> Span {
    Span::new(start, end.max(start))
}

/// How serious a problem is: an error stops what it is found in (a rule
/// file does not compile, a record does not check); a warning does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// A span of a diagnostic's source with what it says there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub text: String,
}

/// The text a diagnostic's labels point into.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// A file, reported under its name.
    File(&'a SourceFile),
    /// A text without a name: a command-line argument.
    Text(&'a String),
}

impl<'a> Source<'a> {
    /// The name the text is reported under, when it has one.
    pub fn name(&self) -> Option<&'a str> {
        match self {
            Source::File(f) => Some(&f.name),
            Source::Text(_) => None,
        }
    }
    /// The whole text; labels are byte offsets into it.
    pub fn text(&self) -> &'a str {
        match self {
            Source::File(f) => &f.text,
            Source::Text(t) => t,
        }
    }
}

/// What an error of the library says beyond its message (`Display`): a
/// stable code, a severity, a help line, labelled spans into its source,
/// and the problems it gathers. Scripts match on the code, so a code is
/// never renamed.
///
/// Implemented by every error type of the library: [`crate::rules::RulesError`],
/// [`crate::rules::RuleError`], [`crate::rules::RuleWarnings`],
/// [`crate::notation::reader::SyntaxError`],
/// [`crate::notation::reader::ReadError`] and
/// [`crate::notation::position_string::PositionArgError`]. With the `cli`
/// feature each of them is also a `miette::Diagnostic` that says the same.
pub trait Diagnostic: std::error::Error + bridge::Bridge {
    /// The stable code, e.g. `senet::rules::unknown_square`.
    fn code(&self) -> &'static str;
    /// An error unless said otherwise.
    fn severity(&self) -> Severity {
        Severity::Error
    }
    /// What to do about it.
    fn help(&self) -> Option<Cow<'_, str>> {
        None
    }
    /// The text the labels point into, when the diagnostic carries it. A
    /// record's syntax error does not: its spans are offsets into the
    /// text that was read.
    fn source_code(&self) -> Option<Source<'_>> {
        None
    }
    /// The spans the problem is at, each with what it says there; the
    /// first is the problem's place.
    fn labels(&self) -> Vec<Label> {
        Vec::new()
    }
    /// The problems this one gathers (each error and warning of a rule
    /// file), in order.
    fn related(&self) -> Vec<&dyn Diagnostic> {
        Vec::new()
    }
}

/// Everything a diagnostic says besides its message, built in one place
/// per error (one `match` arm per variant: its code, severity, source,
/// labels and help together), from which [`diagnostic_from_parts`] derives
/// the [`Diagnostic`] accessors.
pub(crate) struct Parts<'a> {
    code: &'static str,
    severity: Severity,
    help: Option<Cow<'a, str>>,
    source: Option<Source<'a>>,
    labels: Vec<Label>,
    related: Vec<&'a dyn Diagnostic>,
}

impl<'a> Parts<'a> {
    /// An error with this code.
    pub(crate) fn new(code: &'static str) -> Parts<'a> {
        Parts {
            code,
            severity: Severity::Error,
            help: None,
            source: None,
            labels: Vec::new(),
            related: Vec::new(),
        }
    }
    pub(crate) fn warning(mut self) -> Parts<'a> {
        self.severity = Severity::Warning;
        self
    }
    pub(crate) fn help(mut self, help: impl Into<Cow<'a, str>>) -> Parts<'a> {
        self.help = Some(help.into());
        self
    }
    /// The help, when there is one.
    pub(crate) fn help_if(mut self, help: Option<&'a String>) -> Parts<'a> {
        self.help = help.map(|h| Cow::Borrowed(h.as_str()));
        self
    }
    pub(crate) fn source(mut self, file: &'a SourceFile) -> Parts<'a> {
        self.source = Some(Source::File(file));
        self
    }
    pub(crate) fn text(mut self, text: &'a String) -> Parts<'a> {
        self.source = Some(Source::Text(text));
        self
    }
    /// A label, after those before it.
    pub(crate) fn label(mut self, span: Span, text: impl Into<String>) -> Parts<'a> {
        self.labels.push(Label {
            span,
            text: text.into(),
        });
        self
    }
    /// A label where there is a span.
    pub(crate) fn label_if(self, span: Option<Span>, text: impl Into<String>) -> Parts<'a> {
        match span {
            Some(span) => self.label(span, text),
            None => self,
        }
    }
    pub(crate) fn related<D: Diagnostic>(mut self, related: &'a [D]) -> Parts<'a> {
        self.related = related.iter().map(|d| d as &dyn Diagnostic).collect();
        self
    }
}

/// Implements [`Diagnostic`] for types with a `parts(&self) -> Parts<'_>`.
macro_rules! diagnostic_from_parts {
    ($($t:ty),+ $(,)?) => {$(
        impl $crate::diag::Diagnostic for $t {
            fn code(&self) -> &'static str {
                self.parts().code()
            }
            fn severity(&self) -> $crate::diag::Severity {
                self.parts().severity()
            }
            fn help(&self) -> Option<std::borrow::Cow<'_, str>> {
                self.parts().take_help()
            }
            fn source_code(&self) -> Option<$crate::diag::Source<'_>> {
                self.parts().source_code()
            }
            fn labels(&self) -> Vec<$crate::diag::Label> {
                self.parts().take_labels()
            }
            fn related(&self) -> Vec<&dyn $crate::diag::Diagnostic> {
                self.parts().take_related()
            }
        }
    )+};
}
pub(crate) use diagnostic_from_parts;

impl<'a> Parts<'a> {
    pub(crate) fn code(&self) -> &'static str {
        self.code
    }
    pub(crate) fn severity(&self) -> Severity {
        self.severity
    }
    pub(crate) fn take_help(self) -> Option<Cow<'a, str>> {
        self.help
    }
    pub(crate) fn source_code(&self) -> Option<Source<'a>> {
        self.source
    }
    pub(crate) fn take_labels(self) -> Vec<Label> {
        self.labels
    }
    pub(crate) fn take_related(self) -> Vec<&'a dyn Diagnostic> {
        self.related
    }
}

/// The bound that lets the command line see every [`Diagnostic`] as a
/// `miette::Diagnostic` (its related problems included); nothing without
/// the `cli` feature.
mod bridge {
    #[cfg(feature = "cli")]
    pub trait Bridge {
        fn as_miette(&self) -> &dyn miette::Diagnostic;
    }
    #[cfg(feature = "cli")]
    impl<T: miette::Diagnostic> Bridge for T {
        fn as_miette(&self) -> &dyn miette::Diagnostic {
            self
        }
    }
    #[cfg(not(feature = "cli"))]
    pub trait Bridge {}
    #[cfg(not(feature = "cli"))]
    impl<T: ?Sized> Bridge for T {}
}

/// The `miette::Diagnostic` of a library diagnostic, for the command line.
#[cfg(feature = "cli")]
pub(crate) fn as_miette(d: &dyn Diagnostic) -> &dyn miette::Diagnostic {
    d.as_miette()
}

/// Whether `c` could steer a terminal: C0 and C1 controls and DEL, except
/// tab and line end.
fn steers_terminal(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\r')
}

/// `s` with every control character written as a visible escape (`\u{1b}`),
/// for text from a record (tags, comments) on its way to a terminal: an
/// escape sequence in an uploaded record must not reach the terminal raw.
pub fn printable(s: &str) -> std::borrow::Cow<'_, str> {
    replace_controls(s, |c| c.escape_unicode().to_string())
}

/// [`printable`] for source text shown under a diagnostic: each control
/// character becomes as many `?` as it has bytes, so that spans into the
/// text stay valid.
pub fn printable_source(s: &str) -> std::borrow::Cow<'_, str> {
    replace_controls(s, |c| "?".repeat(c.len_utf8()))
}

/// `s` with every character that could steer a terminal replaced by
/// `with(c)`; borrowed when there is none.
fn replace_controls(s: &str, with: impl Fn(char) -> String) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(steers_terminal) {
        return std::borrow::Cow::Borrowed(s);
    }
    std::borrow::Cow::Owned(
        s.chars()
            .map(|c| {
                if steers_terminal(c) {
                    with(c)
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

/// The candidate a mistyped `word` most likely meant: one that differs only
/// in letter case, or else the nearest within a small edit distance (one
/// edit for short words, a third of the length for longer ones, at most
/// three; between equally near ones, one with the same first letter).
/// `None` when nothing is that close, so that a help line never guesses
/// wildly.
pub fn nearest<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let candidates: Vec<&str> = candidates.into_iter().collect();
    if let Some(c) = candidates
        .iter()
        .find(|c| c.eq_ignore_ascii_case(word) && **c != word)
    {
        return Some(c);
    }
    let lower = word.to_lowercase();
    // At most three edits: further than that is no typo. The distance is
    // at least the difference in length, which spares the table for words
    // far longer than any candidate.
    let length = lower.chars().count();
    let limit = (length / 3).clamp(1, 3);
    candidates
        .into_iter()
        .filter(|c| *c != word)
        .filter(|c| c.chars().count().abs_diff(length) <= limit)
        .map(|c| (edit_distance(&lower, &c.to_lowercase()), c))
        .filter(|&(d, _)| d <= limit)
        // Between equally near candidates, one with the same first letter
        // (`gat`: `gate`, not `at`).
        .min_by_key(|&(d, c)| (d, c.chars().next() != lower.chars().next()))
        .map(|(_, c)| c)
}

/// Damerau–Levenshtein distance over characters (the optimal string
/// alignment form): insertions, deletions, substitutions and swaps of two
/// neighbours each cost one, so that `thia` is one edit from `thai`.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows of the table: two back, the last and the one being filled.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut last: Vec<usize> = (0..=b.len()).collect();
    let mut row: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..=b.len() {
            let cost = (a[i - 1] != b[j - 1]) as usize;
            let mut d = (last[j - 1] + cost).min(last[j] + 1).min(row[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            row[j] = d;
        }
        std::mem::swap(&mut before, &mut last);
        std::mem::swap(&mut last, &mut row);
    }
    last[b.len()]
}
