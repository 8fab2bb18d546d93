//! Rule-file diagnostics. [`RulesError`] is what the library returns: an
//! I/O failure, or every problem found in one run ([`RuleError`], each with
//! its source file, a labelled span, a stable code and a concrete help).

use crate::diag::{Diagnostic, Parts, SourceFile, Span};
use thiserror::Error;

/// The most errors of one rule file that are kept and shown.
pub const MAX_SHOWN_ERRORS: usize = 100;

/// The result of loading a rule file that did not compile.
#[derive(Debug, Error)]
pub enum RulesError {
    /// The rule file could not be read (exit code 2 in the CLI).
    #[error("cannot read rule file `{path}`: {reason}")]
    Io {
        path: String,
        reason: String,
        builtins: String,
        /// `did you mean `kendall`? Otherwise ` for a near built-in name,
        /// or empty.
        guess: String,
    },
    /// A rule file named by a record that may be read but cannot serve:
    /// not a regular file, larger than the cap, or not text.
    #[error("cannot use rule file `{path}`: {reason}")]
    Unusable { path: String, reason: String },
    /// The rule file (or a file it extends) has problems: all of them, or
    /// the first [`MAX_SHOWN_ERRORS`] of a file that has more (each shown
    /// error is rendered with its part of the file, so a file of thousands
    /// of errors would otherwise take time quadratic in its size).
    #[error(
        "rule file `{file}` has {count} {}{}{}",
        if *count == 1 { "error" } else { "errors" },
        warnings_count(*warnings),
        if *count + *warnings > errors.len() { format!(" (the first {} shown)", errors.len()) } else { String::new() }
    )]
    Invalid {
        file: String,
        /// The errors found (warnings not counted).
        count: usize,
        /// The warnings found besides the errors (only `rules check`
        /// reports warnings).
        warnings: usize,
        /// Errors and warnings, in the order of the files of the chain
        /// (base first) and of the lines in each file.
        errors: Vec<RuleError>,
    },
}

/// The warnings of a rule file that compiles (`rules check`): dead values.
#[derive(Debug, Error)]
#[error("rule file `{file}` has {} {}", warnings.len(), if warnings.len() == 1 { "warning" } else { "warnings" })]
pub struct RuleWarnings {
    pub file: String,
    /// In the order of the files of the chain (base first) and of the
    /// lines in each file.
    pub warnings: Vec<RuleError>,
}

impl RulesError {
    /// What the error says beyond its message ([`Diagnostic`]).
    fn parts(&self) -> Parts<'_> {
        match self {
            RulesError::Io {
                builtins, guess, ..
            } => Parts::new("senet::rules::io").help(format!(
                "{guess}give a built-in rule set ({builtins}) or the path of a .senet file"
            )),
            RulesError::Unusable { .. } => Parts::new("senet::rules::unusable").help(
                "a rule file named by a record is a regular text file of the rules language; see `senet check --help` for --max-rule-file-bytes",
            ),
            RulesError::Invalid { errors, .. } => {
                Parts::new("senet::rules::invalid").related(errors)
            }
        }
    }
}

impl RuleWarnings {
    /// What the warnings say beyond their message ([`Diagnostic`]).
    fn parts(&self) -> Parts<'_> {
        Parts::new("senet::rules::warnings")
            .warning()
            .related(&self.warnings)
    }
}

crate::diag::diagnostic_from_parts!(RulesError, RuleWarnings, RuleError);

fn warnings_count(n: usize) -> String {
    match n {
        0 => String::new(),
        1 => " and 1 warning".to_string(),
        n => format!(" and {n} warnings"),
    }
}

impl RulesError {
    /// The individual problems (empty for an I/O error).
    pub fn errors(&self) -> &[RuleError] {
        match self {
            RulesError::Io { .. } | RulesError::Unusable { .. } => &[],
            RulesError::Invalid { errors, .. } => errors,
        }
    }
    /// Whether no rule file was found under this name (for a file a
    /// record names: or none that it may name).
    pub fn is_io(&self) -> bool {
        matches!(self, RulesError::Io { .. })
    }
    /// Whether every problem is in the choice of options, none in the
    /// file: an option the rule set does not have, one named twice, or
    /// options that contradict each other or do not combine. Such a choice
    /// is a mistake of whoever named the options (the command line, or a
    /// record's `RuleOptions` tag).
    pub fn is_selection(&self) -> bool {
        let errors = self.errors();
        !errors.is_empty()
            && errors.iter().all(|e| {
                matches!(
                    e,
                    RuleError::UnknownOption { span: None, .. }
                        | RuleError::OptionRepeated { .. }
                        | RuleError::OptionConflict { .. }
                        | RuleError::OptionCombination { .. }
                )
            })
    }
    /// The rule file as named: the spec, or the file that did not compile.
    pub fn file(&self) -> &str {
        match self {
            RulesError::Io { path, .. } | RulesError::Unusable { path, .. } => path,
            RulesError::Invalid { file, .. } => file,
        }
    }
}

/// One problem in a rule file.
#[derive(Debug, Error)]
pub enum RuleError {
    #[error("syntax error: expected {expected}, found {found}")]
    Syntax {
        src: SourceFile,
        span: Span,
        label: String,
        expected: String,
        found: String,
        help: String,
    },

    #[error("square {square} is not on the board")]
    UnknownSquare {
        src: SourceFile,
        span: Span,
        square: u32,
        help: String,
    },

    #[error("no house is named `{name}`")]
    UnknownHouse {
        src: SourceFile,
        span: Span,
        name: String,
        help: String,
    },

    #[error("duplicate declaration: {what}")]
    Duplicate {
        src: SourceFile,
        span: Span,
        first: Span,
        what: String,
    },

    #[error("{what}")]
    Conflict {
        src: SourceFile,
        span: Span,
        other: Option<Span>,
        what: String,
        label: String,
        help: String,
    },

    #[error("unknown option `{name}`")]
    UnknownOption {
        src: SourceFile,
        span: Option<Span>,
        name: String,
        help: String,
    },

    /// A file read for a record that does not parse: its text is not shown,
    /// since it may be any file at all.
    #[error("`{name}` is not a rule file: its text does not follow the rules language")]
    NotRuleFile { name: String },

    #[error("the chain of `extends` is longer than {limit} files")]
    ChainTooLong {
        src: SourceFile,
        span: Span,
        limit: usize,
    },

    #[error("rule files extend each other in a cycle: {chain}")]
    OverlayCycle {
        src: SourceFile,
        span: Span,
        chain: String,
    },

    #[error("cannot extend `{spec}`: {reason}")]
    UnknownBase {
        src: SourceFile,
        span: Span,
        spec: String,
        reason: String,
        builtins: String,
        /// `did you mean `kendall`? ` for a near built-in name, or empty.
        guess: String,
    },

    #[error("square {square} is in both setups")]
    SetupOverlap {
        src: SourceFile,
        span: Span,
        other: Option<Span>,
        square: u8,
        side: String,
        other_side: String,
    },

    #[error("the {side} setup has {count} {}, but there are {pieces} pieces per side", if *count == 1 { "square" } else { "squares" })]
    SetupCount {
        src: SourceFile,
        span: Span,
        side: String,
        count: usize,
        pieces: u8,
    },

    #[error("the throw map gives no value for {missing} marked {}", if missing == "1" { "side" } else { "sides" })]
    ThrowMapIncomplete {
        src: SourceFile,
        span: Span,
        missing: String,
        sticks: u32,
        example: String,
    },

    #[error("{what}")]
    ThrowMapRange {
        src: SourceFile,
        span: Span,
        what: String,
        label: String,
        help: String,
    },

    #[error("the rule set does not say {what}")]
    Missing {
        src: SourceFile,
        span: Option<Span>,
        what: String,
        example: String,
    },

    #[error("{what}")]
    BadValue {
        src: SourceFile,
        span: Span,
        what: String,
        label: String,
        help: String,
    },

    #[error("`drop` removes nothing: nothing declares {what} before it")]
    DropsNothing {
        src: SourceFile,
        span: Span,
        what: String,
    },

    #[error("{what}{}", cited(clause))]
    NeverThrown {
        src: SourceFile,
        span: Span,
        what: String,
        clause: String,
        help: String,
    },

    #[error(
        "pieces enter from the hand, but no piece is ever in hand{}",
        cited(clause)
    )]
    EntryWithoutHand {
        src: SourceFile,
        span: Span,
        clause: String,
    },

    #[error(
        "`exit with` never applies: under these rules no throw bears a piece off{}",
        cited(clause)
    )]
    ExitWithoutThrow {
        src: SourceFile,
        span: Span,
        clause: String,
    },

    #[error("house `{name}` (square {square}) is never used{}", cited(clause))]
    UnusedHouse {
        src: SourceFile,
        span: Span,
        name: String,
        square: u32,
        clause: String,
    },

    #[error("options `{first}` and `{second}` contradict each other: both decide {what}")]
    OptionConflict {
        first: String,
        second: String,
        what: String,
    },

    #[error("option `{name}` is selected twice")]
    OptionRepeated { name: String },

    #[error("the options {options} do not combine: {what}")]
    OptionCombination {
        options: String,
        what: String,
        help: String,
    },
}

impl RuleError {
    /// Each problem's code, severity, labels and help ([`Diagnostic`]).
    fn parts(&self) -> Parts<'_> {
        use RuleError as E;
        match self {
            E::Syntax {
                src,
                span,
                label,
                help,
                ..
            } => Parts::new("senet::rules::syntax")
                .source(src)
                .label(*span, label)
                .help(help),
            E::UnknownSquare {
                src,
                span,
                square,
                help,
            } => Parts::new("senet::rules::unknown_square")
                .source(src)
                .label(*span, format!("no square {square}"))
                .help(help),
            E::UnknownHouse {
                src, span, help, ..
            } => Parts::new("senet::rules::unknown_house")
                .source(src)
                .label(*span, "unknown house")
                .help(help),
            E::Duplicate {
                src, span, first, ..
            } => Parts::new("senet::rules::duplicate")
                .source(src)
                .label(*span, "declared again here")
                .label(*first, "first declared here")
                .help(
                    "keep one of them; to change a declaration of the file you extend, declare it once here (it replaces the other)",
                ),
            E::Conflict {
                src,
                span,
                other,
                label,
                help,
                ..
            } => Parts::new("senet::rules::conflict")
                .source(src)
                .label(*span, label)
                .label_if(*other, "conflicts with this")
                .help(help),
            E::UnknownOption {
                src, span, help, ..
            } => Parts::new("senet::rules::unknown_option")
                .source(src)
                .label_if(*span, "no such option")
                .help(help),
            E::NotRuleFile { .. } => Parts::new("senet::rules::not_rule_file").help(
                "to see where it goes wrong, run `senet rules check` on the file yourself",
            ),
            E::ChainTooLong { src, span, limit } => Parts::new("senet::rules::extends_chain")
                .source(src)
                .label(*span, "one file too many")
                .help(format!(
                    "a rule file may build on at most {limit} files through `extends`; extend a file nearer the base"
                )),
            E::OverlayCycle { src, span, .. } => Parts::new("senet::rules::overlay_cycle")
                .source(src)
                .label(*span, "this closes the cycle")
                .help(
                    "a rule file may not extend itself, directly or through other files; remove one `extends`",
                ),
            E::UnknownBase {
                src,
                span,
                builtins,
                guess,
                ..
            } => Parts::new("senet::rules::unknown_base")
                .source(src)
                .label(*span, "not found")
                .help(format!(
                    "{guess}extend a built-in rule set ({builtins}) or a .senet file path relative to this file"
                )),
            E::SetupOverlap {
                src,
                span,
                other,
                square,
                side,
                other_side,
            } => Parts::new("senet::rules::setup_overlap")
                .source(src)
                .label(*span, format!("{side} setup"))
                .label_if(*other, format!("{other_side} setup"))
                .help(format!(
                    "one piece per square: take square {square} out of one of the two setups"
                )),
            E::SetupCount {
                src,
                span,
                count,
                pieces,
                ..
            } => Parts::new("senet::rules::setup_count")
                .source(src)
                .label(
                    *span,
                    format!("{count} {}", if *count == 1 { "square" } else { "squares" }),
                )
                .help(format!(
                    "list exactly {pieces} squares, or change `pieces {pieces} per side`"
                )),
            E::ThrowMapIncomplete {
                src,
                span,
                missing,
                sticks,
                example,
            } => Parts::new("senet::rules::throw_map_incomplete")
                .source(src)
                .label(*span, format!("no value for {missing}"))
                .help(format!(
                    "with {sticks} sticks, give a value for every count of marked sides from 0 to {sticks}, e.g. `{example}`"
                )),
            E::ThrowMapRange {
                src,
                span,
                label,
                help,
                ..
            } => Parts::new("senet::rules::throw_map_range")
                .source(src)
                .label(*span, label)
                .help(help),
            E::Missing {
                src, span, example, ..
            } => Parts::new("senet::rules::missing")
                .source(src)
                .label_if(*span, "in this file")
                .help(format!("add a declaration such as `{example}`")),
            E::BadValue {
                src,
                span,
                label,
                help,
                ..
            } => Parts::new("senet::rules::value")
                .source(src)
                .label(*span, label)
                .help(help),
            E::DropsNothing { src, span, .. } => Parts::new("senet::rules::drops_nothing")
                .source(src)
                .label(*span, "nothing to drop")
                .help(
                    "a `drop` removes a declaration of the extended file (or, in an option, one of the file or another option); check the words after `drop` and what the base declares with `senet rules show BASE`",
                ),
            E::NeverThrown {
                src, span, help, ..
            } => Parts::new("senet::rules::never_thrown")
                .warning()
                .source(src)
                .label(*span, "never thrown")
                .help(help),
            E::EntryWithoutHand { src, span, .. } => {
                Parts::new("senet::rules::entry_without_hand")
                    .warning()
                    .source(src)
                    .label(*span, "enters nothing")
                    .help(
                        "no side starts in hand (`setup white in hand`) and no square sends a piece back to the hand; remove the entry rule or declare a hand",
                    )
            }
            E::ExitWithoutThrow { src, span, .. } => {
                Parts::new("senet::rules::exit_without_throw")
                    .warning()
                    .source(src)
                    .label(*span, "never applies")
                    .help(
                        "the rules bear a piece off only without a throw (`bear off without a throw`), so no move from this square leaves the board by a throw; remove the exit rule, or replace the bear-off rule",
                    )
            }
            E::UnusedHouse {
                src,
                span,
                name,
                square,
                ..
            } => Parts::new("senet::rules::unused_house")
                .warning()
                .source(src)
                .label(*span, "declared here, used nowhere")
                .help(format!(
                    "no square rule, target or protection names square {square}, by number or as `{name}`; give it a rule (`at {name}: ...`) or remove it"
                )),
            E::OptionConflict { first, second, .. } => Parts::new("senet::rules::option_conflict")
                .help(format!("select one of `{first}` and `{second}`")),
            E::OptionRepeated { .. } => Parts::new("senet::rules::option_repeated")
                .help("name each option once (in --option or in the RuleOptions tag)"),
            E::OptionCombination { help, .. } => {
                Parts::new("senet::rules::option_combination").help(help)
            }
        }
    }
}

/// ` [K-6]` after a message, for the clauses of the declaration it is about.
fn cited(clause: &str) -> String {
    if clause.is_empty() {
        String::new()
    } else {
        format!(" [{clause}]")
    }
}

impl RuleError {
    /// Whether this is a warning (a dead value), which does not stop the
    /// rule file from compiling.
    pub fn is_warning(&self) -> bool {
        self.severity() == crate::diag::Severity::Warning
    }

    /// The name of the file the problem is in, when it points into one.
    pub fn file_name(&self) -> Option<String> {
        self.source_code()?.name().map(str::to_string)
    }

    /// The byte offset of the problem's first label, when it has one.
    pub fn offset(&self) -> Option<usize> {
        self.labels().first().map(|l| l.span.start)
    }
}
