//! The library's diagnostics as miette renders them. Each error type of
//! the library says its code, severity, help, source and labels once,
//! through [`crate::diag::Diagnostic`]; here each becomes a
//! `miette::Diagnostic` that says the same, and the library's sources and
//! spans become miette's.

use crate::diag::{Diagnostic, Severity, Source, SourceFile, Span};
use crate::notation::reader::GameSource;
use miette::{LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

/// `miette::Diagnostic` for library types, from their [`Diagnostic`].
macro_rules! bridge {
    ($($t:ty),+ $(,)?) => {$(
        impl miette::Diagnostic for $t {
            fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
                Some(Box::new(Diagnostic::code(self)))
            }
            fn severity(&self) -> Option<miette::Severity> {
                Some(severity(Diagnostic::severity(self)))
            }
            fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
                Diagnostic::help(self).map(|h| Box::new(h) as Box<dyn std::fmt::Display + 'a>)
            }
            fn source_code(&self) -> Option<&dyn SourceCode> {
                Diagnostic::source_code(self).map(source)
            }
            fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
                labels(Diagnostic::labels(self))
            }
            fn related<'a>(
                &'a self,
            ) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
                related(Diagnostic::related(self))
            }
        }
    )+};
}

bridge!(
    crate::rules::RulesError,
    crate::rules::RuleError,
    crate::rules::RuleWarnings,
    crate::notation::reader::SyntaxError,
    crate::notation::reader::ReadError,
    crate::notation::position_string::PositionArgError,
    crate::notation::state_flags::PositionFlagError,
);

fn severity(s: Severity) -> miette::Severity {
    match s {
        Severity::Error => miette::Severity::Error,
        Severity::Warning => miette::Severity::Warning,
    }
}

fn source(s: Source<'_>) -> &dyn SourceCode {
    match s {
        Source::File(f) => f,
        Source::Text(t) => t,
    }
}

fn labels(labels: Vec<crate::diag::Label>) -> Option<Box<dyn Iterator<Item = LabeledSpan>>> {
    if labels.is_empty() {
        return None;
    }
    Some(Box::new(
        labels
            .into_iter()
            .map(|l| LabeledSpan::new_with_span(Some(l.text), l.span)),
    ))
}

fn related<'a>(
    related: Vec<&'a dyn Diagnostic>,
) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
    if related.is_empty() {
        return None;
    }
    Some(Box::new(related.into_iter().map(crate::diag::as_miette)))
}

impl From<Span> for SourceSpan {
    fn from(s: Span) -> SourceSpan {
        SourceSpan::new(s.start.into(), s.len())
    }
}

/// A file renders under its name.
impl SourceCode for SourceFile {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self
            .text
            .read_span(span, context_lines_before, context_lines_after)?;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line(),
            inner.column(),
            inner.line_count(),
        )))
    }
}

/// One game's text renders with the file's offsets and line numbers.
impl SourceCode for GameSource {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let start = span
            .offset()
            .checked_sub(self.offset)
            .ok_or(MietteError::OutOfBounds)?;
        let local = SourceSpan::new(start.into(), span.len());
        let inner = self
            .text
            .read_span(&local, context_lines_before, context_lines_after)?;
        let at = inner.span().offset() + self.offset;
        Ok(Box::new(MietteSpanContents::new(
            inner.data(),
            SourceSpan::new(at.into(), inner.span().len()),
            inner.line() + self.line,
            inner.column(),
            inner.line_count(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use crate::diag::{Diagnostic, Severity, SourceFile};

    /// Whether miette is told what the library says: code, severity, help,
    /// source name, labels and related problems, all the way down.
    fn says_the_same(d: &dyn Diagnostic, m: &dyn miette::Diagnostic) {
        assert_eq!(m.code().map(|c| c.to_string()).as_deref(), Some(d.code()));
        let severity = match d.severity() {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        };
        assert_eq!(m.severity(), Some(severity), "{d}");
        assert_eq!(
            m.help().map(|h| h.to_string()),
            d.help().map(|h| h.into_owned())
        );
        let labels: Vec<(usize, usize, String)> = d
            .labels()
            .into_iter()
            .map(|l| (l.span.start, l.span.len(), l.text))
            .collect();
        let told: Vec<(usize, usize, String)> = m
            .labels()
            .into_iter()
            .flatten()
            .map(|l| (l.offset(), l.len(), l.label().unwrap_or("").to_string()))
            .collect();
        assert_eq!(told, labels, "{d}");
        match (d.source_code(), m.source_code()) {
            (None, None) => {}
            (Some(s), Some(ms)) => {
                let c = ms.read_span(&(0, 0).into(), 0, 0).unwrap();
                assert_eq!(c.name(), s.name(), "{d}");
            }
            (s, ms) => panic!("{d}: source {:?} told as {}", s, ms.is_some()),
        }
        let related = d.related();
        let told: Vec<&dyn miette::Diagnostic> = m.related().into_iter().flatten().collect();
        assert_eq!(told.len(), related.len(), "{d}");
        for (d, m) in related.into_iter().zip(told) {
            says_the_same(d, m);
        }
    }

    #[test]
    fn miette_is_told_what_the_library_says() {
        // Errors with two labels, an optional one, a help of their own and
        // a fixed help, in one rule file.
        let text = "extends \"kendall\"\nat 31: gate\nextends \"bga\"\nhouse x = 40 \"X\"\n";
        let e = crate::rules::load_source(SourceFile::new("b.senet", text), &[]).unwrap_err();
        assert!(e.errors().len() >= 3, "{e:?}");
        says_the_same(&e, &e);
        let e = crate::rules::load("kendall", None, &["K-15a".into(), "K-15a".into()]).unwrap_err();
        says_the_same(&e, &e);
        // Warnings, gathered.
        let text = "extends \"kendall\"\nextra throw on 1, 4, 6, 9   [K-6]\n";
        let (_, warnings) =
            crate::rules::check_source(SourceFile::new("x.senet", text), &[]).unwrap();
        let w = crate::rules::RuleWarnings {
            file: "x.senet".into(),
            warnings,
        };
        says_the_same(&w, &w);
        // A record's syntax error, which carries no source.
        let e = crate::notation::Reader::new("[Rules \"bga\"]\n\n1. (2:7-9) *\n")
            .next()
            .unwrap()
            .unwrap_err();
        says_the_same(&e, &e);
        let e = crate::notation::reader::ReadError::from(e);
        says_the_same(&e, &e);
        // A command-line argument, a source without a name.
        let text = "WBWBWBWBWB/10/10 x 0-0 - 1";
        let p = crate::notation::position_string::PositionArgError::new(
            text,
            &crate::engine::Position::parse(text, 30, 10).unwrap_err(),
        );
        says_the_same(&p, &p);
    }
}
