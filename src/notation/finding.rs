//! Findings: what checking a record reports, one problem each.
//!
//! Stage: shared by the header checks ([`super::header`], [`super::check`])
//! and the replay ([`super::replay`]); the command line renders them. A
//! finding carries its span into the record, a stable code, and everything
//! a reader needs without the rules at hand.

use super::syntax::Span;
use crate::engine::Side;
use serde::Serialize;

/// The stable code of a finding. Its text form (`Display`, JSON) is the
/// code printed since the first release, e.g. `senet::sgn::illegal_move`;
/// records of runs and scripts match on that text, so a code is never
/// renamed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    AfterEnd,
    BearOffDue,
    Date,
    DuplicateTag,
    ExtraMark,
    Faces,
    FacesMismatch,
    FirstPlayer,
    FirstPlayerMissing,
    IllegalFreeMove,
    IllegalMove,
    IllegalPass,
    IllegalSkip,
    ImpossibleThrow,
    MissedTurn,
    MissingRules,
    MissingTag,
    NoCapture,
    NoPiece,
    NotForced,
    PastEnd,
    PosMismatch,
    Position,
    Relocation,
    Result,
    ResultTag,
    ResultUnfinished,
    RuleOptions,
    RulesDigest,
    Score,
    ScoreMissing,
    Setup,
    SwallowedMoves,
    Syntax,
    TagCase,
    TurnNotOver,
    TurnNumber,
    TurnNumberMissing,
    UnknownRules,
    UnknownTag,
    WrongDestination,
}

impl Code {
    /// The stable text of the code.
    pub const fn as_str(self) -> &'static str {
        match self {
            Code::AfterEnd => "senet::sgn::after_end",
            Code::BearOffDue => "senet::sgn::bear_off_due",
            Code::Date => "senet::sgn::date",
            Code::DuplicateTag => "senet::sgn::duplicate_tag",
            Code::ExtraMark => "senet::sgn::extra_mark",
            Code::Faces => "senet::sgn::faces",
            Code::FacesMismatch => "senet::sgn::faces_mismatch",
            Code::FirstPlayer => "senet::sgn::first_player",
            Code::FirstPlayerMissing => "senet::sgn::first_player_missing",
            Code::IllegalFreeMove => "senet::sgn::illegal_free_move",
            Code::IllegalMove => "senet::sgn::illegal_move",
            Code::IllegalPass => "senet::sgn::illegal_pass",
            Code::IllegalSkip => "senet::sgn::illegal_skip",
            Code::ImpossibleThrow => "senet::sgn::impossible_throw",
            Code::MissedTurn => "senet::sgn::missed_turn",
            Code::MissingRules => "senet::sgn::missing_rules",
            Code::MissingTag => "senet::sgn::missing_tag",
            Code::NoCapture => "senet::sgn::no_capture",
            Code::NoPiece => "senet::sgn::no_piece",
            Code::NotForced => "senet::sgn::not_forced",
            // A replay's, not a record's: `senet replay --to` past the end.
            Code::PastEnd => "senet::replay::past_end",
            Code::PosMismatch => "senet::sgn::pos_mismatch",
            Code::Position => "senet::sgn::position",
            Code::Relocation => "senet::sgn::relocation",
            Code::Result => "senet::sgn::result",
            Code::ResultTag => "senet::sgn::result_tag",
            Code::ResultUnfinished => "senet::sgn::result_unfinished",
            Code::RuleOptions => "senet::sgn::rule_options",
            Code::RulesDigest => "senet::sgn::rules_digest",
            Code::Score => "senet::sgn::score",
            Code::ScoreMissing => "senet::sgn::score_missing",
            Code::Setup => "senet::sgn::setup",
            Code::SwallowedMoves => "senet::sgn::swallowed_moves",
            Code::Syntax => "senet::sgn::syntax",
            Code::TagCase => "senet::sgn::tag_case",
            Code::TurnNotOver => "senet::sgn::turn_not_over",
            Code::TurnNumber => "senet::sgn::turn_number",
            Code::TurnNumberMissing => "senet::sgn::turn_number_missing",
            Code::UnknownRules => "senet::sgn::unknown_rules",
            Code::UnknownTag => "senet::sgn::unknown_tag",
            Code::WrongDestination => "senet::sgn::wrong_destination",
        }
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

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
    pub code: Code,
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
    pub fn error(code: Code, message: impl Into<String>, span: Span) -> Finding {
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
    pub fn warning(code: Code, message: impl Into<String>, span: Span) -> Finding {
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

pub use crate::diag::nearest;

#[cfg(test)]
mod tests {
    use crate::diag::nearest;

    #[test]
    fn nearest_prefers_case_then_one_edit() {
        let names = ["bga", "kendall", "kendall1979", "thai"];
        assert_eq!(nearest("BGA", names), Some("bga"));
        assert_eq!(nearest("kendal", names), Some("kendall"));
        assert_eq!(nearest("xyz", names), None);
        // Equally near: the one with the same first letter.
        assert_eq!(nearest("gat", ["at", "gate"]), Some("gate"));
        assert_eq!(
            nearest("bga", names),
            None,
            "the word itself is no suggestion"
        );
    }

    #[test]
    fn nearest_catches_typical_typos() {
        let rules = crate::rules::builtin_names().to_vec();
        // Swapped neighbours, a dropped or doubled letter, a wrong one.
        for (typo, meant) in [
            ("thia", "thai"),
            ("bag", "bga"),
            ("kendal1979", "kendall1979"),
            ("kendalll", "kendall"),
            ("picione", "piccione"),
            ("ryabnin", "ryabinin"),
            ("jequeir", "jequier"),
        ] {
            assert_eq!(nearest(typo, rules.iter().copied()), Some(meant), "{typo}");
        }
        let options = ["A-1", "A-3/lowest", "A-3/queue", "A-7", "A-8", "A-14"];
        assert_eq!(nearest("A-3/lowst", options), Some("A-3/lowest"));
        assert_eq!(nearest("A-3/qeueu", options), Some("A-3/queue"));
        assert_eq!(nearest("A-3/queeu", options), Some("A-3/queue"));
        let tags = crate::notation::header::ROSTER
            .iter()
            .chain(&crate::notation::header::READ)
            .copied();
        for (typo, meant) in [
            ("Ruels", "Rules"),
            ("RuleOption", "RuleOptions"),
            ("Postion", "Position"),
            ("FristPlayer", "FirstPlayer"),
            ("Whtie", "White"),
        ] {
            assert_eq!(nearest(typo, tags.clone()), Some(meant), "{typo}");
        }
        let words = ["extends", "house", "throw", "protect", "board", "track"];
        for (typo, meant) in [
            ("extnds", "extends"),
            ("hosue", "house"),
            ("thorw", "throw"),
        ] {
            assert_eq!(nearest(typo, words), Some(meant), "{typo}");
        }
        // Too far to guess: nothing rather than a wild suggestion.
        assert_eq!(nearest("xyz", rules.iter().copied()), None);
        assert_eq!(nearest("senet", rules.iter().copied()), None);
        assert_eq!(nearest("A-9", ["A-1", "A-14"]), Some("A-1"));
    }
}
