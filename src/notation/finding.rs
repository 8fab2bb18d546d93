//! Findings: what checking a record reports, one problem each.
//!
//! Stage: shared by the header checks ([`super::header`], [`super::check`])
//! and the replay ([`super::replay`]); the command line renders them. A
//! finding carries its span into the record, a stable code, and everything
//! a reader needs without the rules at hand.

use super::syntax::Span;
use crate::engine::Side;
use serde::Serialize;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// One problem found in a game record, with everything a reader needs to
/// understand it without the rules at hand.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub severity: Severity,
    /// Stable code, e.g. `senet::sgn::illegal_move`.
    pub code: &'static str,
    pub message: String,
    #[serde(skip)]
    pub span: Span,
    /// What the label under the excerpt says.
    #[serde(skip)]
    pub label: String,
    pub help: Option<String>,
    /// The clause of the rule file that forbids it (`K-9a`).
    pub clause: Option<String>,
    pub turn: Option<u32>,
    pub side: Option<Side>,
    /// The unit as written.
    pub unit: Option<String>,
    pub throw: Option<u8>,
    /// The legal units for that throw in that position.
    pub legal: Vec<String>,
    /// The position string before the unit.
    pub position: Option<String>,
    /// Found inside a variation.
    pub in_variation: bool,
}

impl Finding {
    pub fn error(code: &'static str, message: impl Into<String>, span: Span) -> Finding {
        Finding {
            severity: Severity::Error,
            code,
            message: message.into(),
            span,
            label: String::new(),
            help: None,
            clause: None,
            turn: None,
            side: None,
            unit: None,
            throw: None,
            legal: Vec::new(),
            position: None,
            in_variation: false,
        }
    }
    pub fn warning(code: &'static str, message: impl Into<String>, span: Span) -> Finding {
        Finding {
            severity: Severity::Warning,
            ..Finding::error(code, message, span)
        }
    }
    pub fn label(mut self, label: impl Into<String>) -> Finding {
        self.label = label.into();
        self
    }
    pub fn help(mut self, help: impl Into<String>) -> Finding {
        self.help = Some(help.into());
        self
    }
    /// Names the clause, when there is one.
    pub(crate) fn clause(mut self, clause: &str) -> Finding {
        if !clause.is_empty() {
            self.clause = Some(clause.to_string());
        }
        self
    }
}
