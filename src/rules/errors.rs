//! Rule-file diagnostics. [`RulesError`] is what the library returns: an
//! I/O failure, or every problem found in one run ([`RuleError`], each with
//! its source file, a labelled span, a stable code and a concrete help).

use miette::{Diagnostic, NamedSource, SourceSpan};
use std::sync::Arc;
use thiserror::Error;

type Src = NamedSource<Arc<str>>;

/// The most errors of one rule file that are kept and shown.
pub const MAX_SHOWN_ERRORS: usize = 100;

/// The result of loading a rule file that did not compile.
#[derive(Debug, Error, Diagnostic)]
pub enum RulesError {
    /// The rule file could not be read (exit code 2 in the CLI).
    #[error("cannot read rule file `{path}`: {reason}")]
    #[diagnostic(
        code(senet::rules::io),
        help("{guess}give a built-in rule set ({builtins}) or the path of a .senet file")
    )]
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
    #[diagnostic(
        code(senet::rules::unusable),
        help(
            "a rule file named by a record is a regular text file of the rules language; see `senet check --help` for --max-rule-file-bytes"
        )
    )]
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
    #[diagnostic(code(senet::rules::invalid))]
    Invalid {
        file: String,
        /// The errors found (warnings not counted).
        count: usize,
        /// The warnings found besides the errors (only `rules check`
        /// reports warnings).
        warnings: usize,
        /// Errors and warnings, in the order of the files of the chain
        /// (base first) and of the lines in each file.
        #[related]
        errors: Vec<RuleError>,
    },
}

/// The warnings of a rule file that compiles (`rules check`): dead values.
#[derive(Debug, Error, Diagnostic)]
#[error("rule file `{file}` has {} {}", warnings.len(), if warnings.len() == 1 { "warning" } else { "warnings" })]
#[diagnostic(code(senet::rules::warnings), severity(Warning))]
pub struct RuleWarnings {
    pub file: String,
    /// In the order of the files of the chain (base first) and of the
    /// lines in each file.
    #[related]
    pub warnings: Vec<RuleError>,
}

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
#[derive(Debug, Error, Diagnostic)]
pub enum RuleError {
    #[error("syntax error: expected {expected}, found {found}")]
    #[diagnostic(code(senet::rules::syntax))]
    Syntax {
        #[source_code]
        src: Src,
        #[label("{label}")]
        span: SourceSpan,
        label: String,
        expected: String,
        found: String,
        #[help]
        help: String,
    },

    #[error("square {square} is not on the board")]
    #[diagnostic(code(senet::rules::unknown_square), help("{help}"))]
    UnknownSquare {
        #[source_code]
        src: Src,
        #[label("no square {square}")]
        span: SourceSpan,
        square: u32,
        help: String,
    },

    #[error("no house is named `{name}`")]
    #[diagnostic(code(senet::rules::unknown_house), help("{help}"))]
    UnknownHouse {
        #[source_code]
        src: Src,
        #[label("unknown house")]
        span: SourceSpan,
        name: String,
        help: String,
    },

    #[error("duplicate declaration: {what}")]
    #[diagnostic(
        code(senet::rules::duplicate),
        help(
            "keep one of them; to change a declaration of the file you extend, declare it once here (it replaces the other)"
        )
    )]
    Duplicate {
        #[source_code]
        src: Src,
        #[label("declared again here")]
        span: SourceSpan,
        #[label("first declared here")]
        first: SourceSpan,
        what: String,
    },

    #[error("{what}")]
    #[diagnostic(code(senet::rules::conflict), help("{help}"))]
    Conflict {
        #[source_code]
        src: Src,
        #[label("{label}")]
        span: SourceSpan,
        #[label("conflicts with this")]
        other: Option<SourceSpan>,
        what: String,
        label: String,
        help: String,
    },

    #[error("unknown option `{name}`")]
    #[diagnostic(code(senet::rules::unknown_option), help("{help}"))]
    UnknownOption {
        #[source_code]
        src: Src,
        #[label("no such option")]
        span: Option<SourceSpan>,
        name: String,
        help: String,
    },

    /// A file read for a record that does not parse: its text is not shown,
    /// since it may be any file at all.
    #[error("`{name}` is not a rule file: its text does not follow the rules language")]
    #[diagnostic(
        code(senet::rules::not_rule_file),
        help("to see where it goes wrong, run `senet rules check` on the file yourself")
    )]
    NotRuleFile { name: String },

    #[error("the chain of `extends` is longer than {limit} files")]
    #[diagnostic(
        code(senet::rules::extends_chain),
        help(
            "a rule file may build on at most {limit} files through `extends`; extend a file nearer the base"
        )
    )]
    ChainTooLong {
        #[source_code]
        src: Src,
        #[label("one file too many")]
        span: SourceSpan,
        limit: usize,
    },

    #[error("rule files extend each other in a cycle: {chain}")]
    #[diagnostic(
        code(senet::rules::overlay_cycle),
        help(
            "a rule file may not extend itself, directly or through other files; remove one `extends`"
        )
    )]
    OverlayCycle {
        #[source_code]
        src: Src,
        #[label("this closes the cycle")]
        span: SourceSpan,
        chain: String,
    },

    #[error("cannot extend `{spec}`: {reason}")]
    #[diagnostic(
        code(senet::rules::unknown_base),
        help(
            "{guess}extend a built-in rule set ({builtins}) or a .senet file path relative to this file"
        )
    )]
    UnknownBase {
        #[source_code]
        src: Src,
        #[label("not found")]
        span: SourceSpan,
        spec: String,
        reason: String,
        builtins: String,
        /// `did you mean `kendall`? ` for a near built-in name, or empty.
        guess: String,
    },

    #[error("square {square} is in both setups")]
    #[diagnostic(
        code(senet::rules::setup_overlap),
        help("one piece per square: take square {square} out of one of the two setups")
    )]
    SetupOverlap {
        #[source_code]
        src: Src,
        #[label("{side} setup")]
        span: SourceSpan,
        #[label("{other_side} setup")]
        other: Option<SourceSpan>,
        square: u8,
        side: String,
        other_side: String,
    },

    #[error("the {side} setup has {count} {}, but there are {pieces} pieces per side", if *count == 1 { "square" } else { "squares" })]
    #[diagnostic(
        code(senet::rules::setup_count),
        help("list exactly {pieces} squares, or change `pieces {pieces} per side`")
    )]
    SetupCount {
        #[source_code]
        src: Src,
        #[label("{count} {}", if *count == 1 { "square" } else { "squares" })]
        span: SourceSpan,
        side: String,
        count: usize,
        pieces: u8,
    },

    #[error("the throw map gives no value for {missing} marked {}", if missing == "1" { "side" } else { "sides" })]
    #[diagnostic(
        code(senet::rules::throw_map_incomplete),
        help(
            "with {sticks} sticks, give a value for every count of marked sides from 0 to {sticks}, e.g. `{example}`"
        )
    )]
    ThrowMapIncomplete {
        #[source_code]
        src: Src,
        #[label("no value for {missing}")]
        span: SourceSpan,
        missing: String,
        sticks: u32,
        example: String,
    },

    #[error("{what}")]
    #[diagnostic(code(senet::rules::throw_map_range), help("{help}"))]
    ThrowMapRange {
        #[source_code]
        src: Src,
        #[label("{label}")]
        span: SourceSpan,
        what: String,
        label: String,
        help: String,
    },

    #[error("the rule set does not say {what}")]
    #[diagnostic(
        code(senet::rules::missing),
        help("add a declaration such as `{example}`")
    )]
    Missing {
        #[source_code]
        src: Src,
        #[label("in this file")]
        span: Option<SourceSpan>,
        what: String,
        example: String,
    },

    #[error("{what}")]
    #[diagnostic(code(senet::rules::value), help("{help}"))]
    BadValue {
        #[source_code]
        src: Src,
        #[label("{label}")]
        span: SourceSpan,
        what: String,
        label: String,
        help: String,
    },

    #[error("`drop` removes nothing: nothing declares {what} before it")]
    #[diagnostic(
        code(senet::rules::drops_nothing),
        help(
            "a `drop` removes a declaration of the extended file (or, in an option, one of the file or another option); check the words after `drop` and what the base declares with `senet rules show BASE`"
        )
    )]
    DropsNothing {
        #[source_code]
        src: Src,
        #[label("nothing to drop")]
        span: SourceSpan,
        what: String,
    },

    #[error("{what}{}", cited(clause))]
    #[diagnostic(code(senet::rules::never_thrown), severity(Warning), help("{help}"))]
    NeverThrown {
        #[source_code]
        src: Src,
        #[label("never thrown")]
        span: SourceSpan,
        what: String,
        clause: String,
        help: String,
    },

    #[error(
        "pieces enter from the hand, but no piece is ever in hand{}",
        cited(clause)
    )]
    #[diagnostic(
        code(senet::rules::entry_without_hand),
        severity(Warning),
        help(
            "no side starts in hand (`setup white in hand`) and no square sends a piece back to the hand; remove the entry rule or declare a hand"
        )
    )]
    EntryWithoutHand {
        #[source_code]
        src: Src,
        #[label("enters nothing")]
        span: SourceSpan,
        clause: String,
    },

    #[error("house `{name}` (square {square}) is never used{}", cited(clause))]
    #[diagnostic(
        code(senet::rules::unused_house),
        severity(Warning),
        help(
            "no square rule, target or protection names square {square}, by number or as `{name}`; give it a rule (`at {name}: ...`) or remove it"
        )
    )]
    UnusedHouse {
        #[source_code]
        src: Src,
        #[label("declared here, used nowhere")]
        span: SourceSpan,
        name: String,
        square: u32,
        clause: String,
    },

    #[error("options `{first}` and `{second}` contradict each other: both decide {what}")]
    #[diagnostic(
        code(senet::rules::option_conflict),
        help("select one of `{first}` and `{second}`")
    )]
    OptionConflict {
        first: String,
        second: String,
        what: String,
    },

    #[error("option `{name}` is selected twice")]
    #[diagnostic(
        code(senet::rules::option_repeated),
        help("name each option once (in --option or in the RuleOptions tag)")
    )]
    OptionRepeated { name: String },

    #[error("the options {options} do not combine: {what}")]
    #[diagnostic(code(senet::rules::option_combination), help("{help}"))]
    OptionCombination {
        options: String,
        what: String,
        help: String,
    },
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
        matches!(
            self,
            RuleError::NeverThrown { .. }
                | RuleError::EntryWithoutHand { .. }
                | RuleError::UnusedHouse { .. }
        )
    }

    /// The name of the file the problem is in, when it points into one.
    pub fn file_name(&self) -> Option<String> {
        use miette::Diagnostic;
        let src = self.source_code()?;
        let contents = src.read_span(&(0, 0).into(), 0, 0).ok()?;
        contents.name().map(str::to_string)
    }

    /// The byte offset of the problem's first label, when it has one.
    pub fn offset(&self) -> Option<usize> {
        use miette::Diagnostic;
        self.labels()?.next().map(|l| l.offset())
    }
}
