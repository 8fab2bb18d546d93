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
