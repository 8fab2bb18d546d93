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

/// Lines longer than this many bytes are cut to a window of about this
/// size around the labels before a diagnostic is rendered: miette cannot
/// render a label past column 65,535, and a screen of one line helps no one.
pub const MAX_SHOWN_LINE: usize = 1000;

/// A diagnostic whose source lines are cut around its labels, so that any
/// span renders, and whose message and help are cut to
/// [`MAX_SHOWN_LINE`] bytes (a message may quote what it found: a rule
/// file of one 3 MB line would be quoted whole). Related diagnostics (each
/// problem of a rule file) are cut the same way. `None` when nothing is
/// long (the diagnostic renders as it is).
pub struct Trimmed<'d> {
    inner: &'d dyn miette::Diagnostic,
    /// The cut source and labels, when a line near a label is long.
    excerpt: Option<(Excerpt, Vec<miette::LabeledSpan>)>,
    message: Option<String>,
    help: Option<String>,
    /// Every related diagnostic, cut where needed.
    related: Vec<Related<'d>>,
}

/// A related diagnostic as shown: cut, or as it is.
enum Related<'d> {
    Trimmed(Box<Trimmed<'d>>),
    Plain(&'d dyn miette::Diagnostic),
}

/// `s` cut to at most [`MAX_SHOWN_LINE`] bytes with `…`, when longer.
fn cut_text(s: String) -> Option<String> {
    if s.len() <= MAX_SHOWN_LINE {
        return None;
    }
    let mut b = MAX_SHOWN_LINE;
    while !s.is_char_boundary(b) {
        b -= 1;
    }
    Some(format!("{}…", &s[..b]))
}

impl<'d> Trimmed<'d> {
    pub fn new(inner: &'d dyn miette::Diagnostic) -> Option<Trimmed<'d>> {
        let excerpt = Self::excerpt(inner);
        let message = cut_text(inner.to_string());
        let help = inner.help().and_then(|h| cut_text(h.to_string()));
        let mut related = Vec::new();
        let mut any_related = false;
        if let Some(rs) = inner.related() {
            for r in rs {
                related.push(match Trimmed::new(r) {
                    Some(t) => {
                        any_related = true;
                        Related::Trimmed(Box::new(t))
                    }
                    None => Related::Plain(r),
                });
            }
        }
        if excerpt.is_none() && message.is_none() && help.is_none() && !any_related {
            return None;
        }
        Some(Trimmed {
            inner,
            excerpt,
            message,
            help,
            related,
        })
    }

    /// The source cut around the labels, and the labels moved onto it;
    /// `None` when every line near a label is short.
    fn excerpt(inner: &dyn miette::Diagnostic) -> Option<(Excerpt, Vec<miette::LabeledSpan>)> {
        let src = inner.source_code()?;
        let labels: Vec<miette::LabeledSpan> = inner.labels()?.collect();
        // The lines miette shows: one of context either side of each label.
        let (mut lo, mut hi, mut first_line, mut name) = (usize::MAX, 0, 0, None);
        for l in &labels {
            let c = src.read_span(l.inner(), 1, 1).ok()?;
            if c.span().offset() < lo {
                lo = c.span().offset();
                first_line = c.line();
                name = c.name().map(str::to_string);
            }
            hi = hi.max(c.span().offset() + c.span().len());
        }
        if labels.is_empty() || hi < lo {
            return None;
        }
        let region = src
            .read_span(&SourceSpan::new(lo.into(), hi - lo), 0, 0)
            .ok()?;
        let data = region.data();
        let base = region.span().offset();
        if data
            .split(|&c| c == b'\n')
            .all(|l| l.len() <= MAX_SHOWN_LINE)
        {
            return None;
        }
        let text = String::from_utf8_lossy(data);
        let starts: Vec<usize> = labels.iter().map(|l| l.offset()).collect();
        let source = Excerpt::cut(&text, base, first_line, name, &starts);
        let labels = labels
            .iter()
            .map(|l| {
                let a = source.map(l.offset());
                let b = source.map(l.offset() + l.len()).max(a);
                miette::LabeledSpan::new(l.label().map(str::to_string), a, b - a)
            })
            .collect();
        Some((source, labels))
    }
}

/// The lines around a diagnostic's labels, each cut to at most
/// [`MAX_SHOWN_LINE`] bytes (`…` marks a cut), with the map back to the
/// file's offsets for line and column numbers.
struct Excerpt {
    text: String,
    name: Option<String>,
    /// 0-based line number of the first line in the file.
    first_line: usize,
    lines: Vec<ExcerptLine>,
}

struct ExcerptLine {
    /// File offset of the line's start and of the first byte kept.
    start: usize,
    kept: usize,
    kept_len: usize,
    /// Offset in `text` of the line, and the length of the `…` before it.
    at: usize,
    mark: usize,
}

impl Excerpt {
    fn cut(
        text: &str,
        base: usize,
        first_line: usize,
        name: Option<String>,
        labels: &[usize],
    ) -> Excerpt {
        let mut out = String::new();
        let mut lines = Vec::new();
        let mut start = base;
        for line in text.split_inclusive('\n') {
            let body = line.strip_suffix('\n').unwrap_or(line);
            let end = start + body.len();
            // The window starts a little before the first label on the line:
            // the label then sits near the left edge of the report.
            let from = labels
                .iter()
                .copied()
                .filter(|&o| o >= start && o <= end)
                .min()
                .map_or(0, |o| (o - start).saturating_sub(60));
            let mut a = from.min(body.len());
            while !body.is_char_boundary(a) {
                a -= 1;
            }
            let mut b = (a + MAX_SHOWN_LINE).min(body.len());
            while !body.is_char_boundary(b) {
                b -= 1;
            }
            let at = out.len();
            let mark = if a > 0 { "…".len() } else { 0 };
            if a > 0 {
                out.push('…');
            }
            out.push_str(&body[a..b]);
            if b < body.len() {
                out.push('…');
            }
            if line.len() > body.len() {
                out.push('\n');
            }
            lines.push(ExcerptLine {
                start,
                kept: start + a,
                kept_len: b - a,
                at,
                mark,
            });
            start += line.len();
        }
        Excerpt {
            text: out,
            name,
            first_line,
            lines,
        }
    }

    /// The offset in `text` of file offset `o` (clamped into the kept part
    /// of its line).
    fn map(&self, o: usize) -> usize {
        let i = self
            .lines
            .partition_point(|l| l.start <= o)
            .saturating_sub(1);
        let Some(l) = self.lines.get(i) else {
            return 0;
        };
        let inside = o.clamp(l.kept, l.kept + l.kept_len) - l.kept;
        l.at + l.mark + inside
    }

    /// The file column (0-based, in bytes as miette counts) of `text`
    /// offset `e`.
    fn column(&self, e: usize) -> usize {
        let i = self.lines.partition_point(|l| l.at <= e).saturating_sub(1);
        let Some(l) = self.lines.get(i) else {
            return 0;
        };
        let inside = e.saturating_sub(l.at + l.mark).min(l.kept_len);
        l.kept - l.start + inside
    }
}

impl miette::SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let inner = self.text.read_span(span, before, after)?;
        let column = if before == 0 {
            self.column(span.offset())
        } else {
            inner.column()
        };
        let (data, at, line) = (inner.data(), *inner.span(), inner.line() + self.first_line);
        Ok(Box::new(match &self.name {
            Some(n) => miette::MietteSpanContents::new_named(
                n.clone(),
                data,
                at,
                line,
                column,
                inner.line_count(),
            ),
            None => miette::MietteSpanContents::new(data, at, line, column, inner.line_count()),
        }))
    }
}

impl std::fmt::Debug for Trimmed<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.inner, f)
    }
}
impl std::fmt::Display for Trimmed<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.message {
            Some(m) => f.write_str(m),
            None => std::fmt::Display::fmt(self.inner, f),
        }
    }
}
impl std::error::Error for Trimmed<'_> {}

impl miette::Diagnostic for Trimmed<'_> {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.inner.code()
    }
    fn severity(&self) -> Option<miette::Severity> {
        self.inner.severity()
    }
    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        match &self.help {
            Some(h) => Some(Box::new(h)),
            None => self.inner.help(),
        }
    }
    fn url<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.inner.url()
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        match &self.excerpt {
            Some((source, _)) => Some(source),
            None => self.inner.source_code(),
        }
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        match &self.excerpt {
            Some((_, labels)) => Some(Box::new(labels.iter().cloned())),
            None => self.inner.labels(),
        }
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        // Related diagnostics, if the inner one has any: `related` itself
        // holds them all, cut or not.
        self.inner.related().is_some().then_some(())?;
        Some(Box::new(self.related.iter().map(|r| match r {
            Related::Trimmed(t) => &**t as &dyn miette::Diagnostic,
            Related::Plain(d) => *d,
        })))
    }
    fn diagnostic_source(&self) -> Option<&dyn miette::Diagnostic> {
        self.inner.diagnostic_source()
    }
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
