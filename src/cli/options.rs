//! A choice of options that a rule set refuses (an unknown option, one
//! named twice, two that contradict each other or do not combine) is a
//! mistake of the command line, not of the rule file: it is reported
//! against the options as they were written, with the offending one
//! underlined, as `check` reports a `RuleOptions` tag at the tag.

use crate::diag::{SourceFile, Span};
use crate::rules::{RuleError, RulesError};
use miette::{Diagnostic, LabeledSpan};
use std::fmt as sfmt;

/// The options of a command line as written, and where each option name
/// stands in that text.
pub struct GivenOptions {
    src: SourceFile,
    names: Vec<(String, Span)>,
}

impl GivenOptions {
    /// `--option A --option B;C`, as repeated flags.
    pub fn flags(options: &[String]) -> GivenOptions {
        let mut text = String::new();
        let mut names = Vec::new();
        for option in options {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str("--option ");
            push_names(&mut text, &mut names, option, ';');
        }
        GivenOptions {
            src: SourceFile::new("--option", text),
            names,
        }
    }

    /// `bga+A-1+A-14`, a rule set and its options in one argument.
    pub fn spec(spec: &str) -> GivenOptions {
        let mut text = String::new();
        let mut names = Vec::new();
        let (rules, options) = spec.split_once('+').unwrap_or((spec, ""));
        text.push_str(rules);
        text.push('+');
        push_names(&mut text, &mut names, options, '+');
        GivenOptions {
            src: SourceFile::new("the rule set's options", text),
            names,
        }
    }

    /// The span of the last option written as `name`.
    fn span_of(&self, name: &str) -> Option<Span> {
        let name = name.trim_matches('`');
        self.names
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|&(_, s)| s)
    }

    /// The span of the option an error is about: the unknown or repeated
    /// one, the second of two that contradict each other, or the last of
    /// those that do not combine.
    fn span_for(&self, e: &RuleError) -> Option<Span> {
        match e {
            RuleError::UnknownOption { name, .. } | RuleError::OptionRepeated { name } => {
                self.span_of(name)
            }
            RuleError::OptionConflict { second, .. } => self.span_of(second),
            RuleError::OptionCombination { options, .. } => options
                .split(", ")
                .filter_map(|o| self.span_of(o))
                .max_by_key(|s| s.start),
            _ => None,
        }
    }

    /// Renders a rule set that did not load: a refused choice of options
    /// against the options as written, anything else as it is.
    pub fn render(&self, e: &RulesError, colour: bool) -> String {
        if !e.is_selection() {
            return super::render_with(e, colour);
        }
        e.errors()
            .iter()
            .map(|error| {
                let report = OptionReport {
                    error,
                    src: self.src.clone(),
                    span: self.span_for(error),
                    rules: rule_set_name(e.file()),
                };
                super::render_with(&report, colour)
            })
            .collect()
    }
}

/// Appends each of the `sep`-separated names of `written` to `text`,
/// noting where each name (without its spacing) stands.
fn push_names(text: &mut String, names: &mut Vec<(String, Span)>, written: &str, sep: char) {
    let mut at = text.len();
    for part in written.split(sep) {
        let lead = part.len() - part.trim_start().len();
        let name = part.trim();
        if !name.is_empty() {
            names.push((
                name.to_string(),
                Span::new(at + lead, at + lead + name.len()),
            ));
        }
        at += part.len() + sep.len_utf8();
    }
    text.push_str(written);
}

/// A rule set's name from its file: `bga` for `<builtin>/bga.senet`.
fn rule_set_name(file: &str) -> String {
    std::path::Path::new(file)
        .file_stem()
        .map_or(file.into(), |s| s.to_string_lossy().into_owned())
}

/// One refused option, shown in the options as written.
struct OptionReport<'e> {
    error: &'e RuleError,
    src: SourceFile,
    span: Option<Span>,
    /// The rule file whose options these are.
    rules: String,
}

impl sfmt::Debug for OptionReport<'_> {
    fn fmt(&self, f: &mut sfmt::Formatter<'_>) -> sfmt::Result {
        sfmt::Display::fmt(self, f)
    }
}

impl sfmt::Display for OptionReport<'_> {
    fn fmt(&self, f: &mut sfmt::Formatter<'_>) -> sfmt::Result {
        write!(f, "{} (options of `{}`)", self.error, self.rules)
    }
}

impl std::error::Error for OptionReport<'_> {}

impl Diagnostic for OptionReport<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn sfmt::Display + 'b>> {
        self.error.code()
    }
    fn help<'b>(&'b self) -> Option<Box<dyn sfmt::Display + 'b>> {
        self.error.help()
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.span.is_some().then_some(&self.src as _)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let label = match self.error {
            RuleError::UnknownOption { .. } => "no such option",
            RuleError::OptionRepeated { .. } => "named again here",
            RuleError::OptionConflict { .. } => "contradicts an option before it",
            _ => "does not combine with the options before it",
        };
        let span = self.span?;
        Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
            Some(label.to_string()),
            span,
        ))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_where_they_were_written() {
        let given = GivenOptions::flags(&["A-1".into(), " A-3/queue ; A-14".into()]);
        let text = &given.src.text;
        assert_eq!(&**text, "--option A-1 --option  A-3/queue ; A-14");
        let shown: Vec<&str> = given.names.iter().map(|(_, s)| s.text(text)).collect();
        assert_eq!(shown, ["A-1", "A-3/queue", "A-14"]);
        let given = GivenOptions::spec("bga+A-1+A-9");
        let text = &given.src.text;
        assert_eq!(given.span_of("A-9").map(|s| s.text(text)), Some("A-9"));
        assert_eq!(given.span_of("`A-1`").map(|s| s.text(text)), Some("A-1"));
    }
}
