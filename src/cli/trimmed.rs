//! Diagnostics cut to a size that renders: very long source lines,
//! messages and help are cut around what matters.

use miette::SourceSpan;

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
