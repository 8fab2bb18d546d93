//! The header of a record: tags → rule set and options → start position.
//!
//! Stage: a read [`Game`] → [`RulesChoice`] (the `Rules` and `RuleOptions`
//! tags, or `--rules` with its options) → the compiled rule set, through a
//! [`RulesCache`] that reads the rule files a record names only as its
//! [`Confinement`] allows → the start position (`SetUp` and `Position`, or
//! the rules' setup with `FirstPlayer`). `check`, `replay` and `fmt` all
//! resolve a header here; problems with the tags become [`Finding`]s on the
//! tags that cause them, and a rule file that does not compile comes back
//! as the [`RulesError`] itself.

use super::finding::{Code, Finding};
use super::position_string::POSITION_HELP;
use super::syntax::{Game, Node, ResultToken, Span, Tag};
use crate::diag::SourceFile;
use crate::engine::{Heading, Hit, Origin, Position, Ruleset, Side, Starter};
use crate::rules::{Confinement, RulesError};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Which rule set a game is read under, and where the header says so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesChoice {
    /// A built-in name or the path of a rule file.
    pub spec: String,
    /// The `Rules` tag's value; `None` when `--rules` chose the rule set.
    pub spec_span: Option<Span>,
    pub options: Vec<String>,
    /// The `RuleOptions` tag's value, when the options come from it.
    pub options_span: Option<Span>,
}

impl RulesChoice {
    /// The rule set `--rules` names (`over`: the spec and its options), or
    /// else the one the game's `Rules` and `RuleOptions` tags name; `None`
    /// when there is neither.
    pub fn of(game: &Game, over: Option<(&str, &[String])>) -> Option<RulesChoice> {
        if let Some((spec, options)) = over {
            return Some(RulesChoice {
                spec: spec.to_string(),
                spec_span: None,
                options: options.to_vec(),
                options_span: None,
            });
        }
        let rules = tag(game, "Rules")?;
        let (options, options_span) = match tag(game, "RuleOptions") {
            Some(t) => (rule_options(&t.value), Some(t.value_span)),
            None => (Vec::new(), None),
        };
        Some(RulesChoice {
            spec: rules.value.clone(),
            spec_span: Some(rules.value_span),
            options,
            options_span,
        })
    }

    /// Whether the header named the rule set (a record's choice, read under
    /// confinement) rather than the command line.
    pub fn from_record(&self) -> bool {
        self.spec_span.is_some()
    }
}

/// The options of a `RuleOptions` value: `;`-separated names, blanks
/// dropped.
pub fn rule_options(value: &str) -> Vec<String> {
    value
        .split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

/// Where findings about the header as a whole point: the first tag, or the
/// start of the game.
pub fn head_span(game: &Game) -> Span {
    game.tags
        .first()
        .map(|t| t.span)
        .unwrap_or(Span::new(game.span.start, game.span.start))
}

/// The finding for a game with no `Rules` tag; the help names `command`,
/// the command being run, with `--rules`.
pub fn missing_rules(head: Span, command: &str) -> Finding {
    Finding::error(
        Code::MissingRules,
        "the game does not say which rules it was played under",
        head,
    )
    .label("no Rules tag")
    .help(format!("add a tag such as `[Rules \"kendall\"]` (see `senet rules list`), or run `senet {command} --rules NAME`"))
}

type Loaded = Result<Arc<Ruleset>, Arc<RulesError>>;

/// (spec, folder of the record, options, named by the record).
type RulesKey = (String, Option<PathBuf>, Vec<String>, bool);

/// Compiled rule sets by (spec, folder, options), and the digests of rule
/// files, for the games of a run. A rule file that a record names is read
/// as the cache's [`Confinement`] allows; one given with `--rules` is read
/// as given.
#[derive(Default)]
pub struct RulesCache {
    confinement: Confinement,
    map: HashMap<RulesKey, Loaded>,
    digests: HashMap<(String, Option<PathBuf>), Option<String>>,
    /// The last key looked up and its rule set: the games of a file mostly
    /// name the same rules, and this answers them without building a key.
    last: Option<(RulesKey, Loaded)>,
    /// The rule file the command line gives as `-` (`--rules -`), already
    /// read: its text stands for the spec `-`.
    given: Option<SourceFile>,
    /// The command that reads the records (`check` when unset), named in
    /// the help for a game that does not say its rules.
    command: Option<&'static str>,
}

impl RulesCache {
    /// A cache that reads the rule files records name as `confinement`
    /// allows. [`RulesCache::default`] allows the record's own folder tree.
    pub fn new(confinement: Confinement) -> RulesCache {
        RulesCache {
            confinement,
            ..RulesCache::default()
        }
    }

    /// The cache for the command `name` (`replay`, `analyze`…), which the
    /// help of a finding names.
    pub fn for_command(mut self, name: &'static str) -> RulesCache {
        self.command = Some(name);
        self
    }

    /// The cache with the text of the rule file that the command line
    /// names `-` (standard input, read by the caller).
    pub fn with_given_rules(mut self, file: SourceFile) -> RulesCache {
        self.given = Some(file);
        self
    }

    /// The rule file `-` stands for, when `spec` is `-` from the command
    /// line and its text was given.
    fn given(&self, spec: &str, record: bool) -> Option<&SourceFile> {
        self.given.as_ref().filter(|_| spec == "-" && !record)
    }

    /// The rule set of `choice` for a record in `dir`.
    pub fn load(&mut self, choice: &RulesChoice, dir: Option<&Path>) -> Loaded {
        self.get(&choice.spec, dir, &choice.options, choice.from_record())
    }

    fn get(&mut self, spec: &str, dir: Option<&Path>, options: &[String], record: bool) -> Loaded {
        // Built-in names do not depend on the folder, and a rule file the
        // command line names is read as given, from the working directory.
        let builtin = crate::rules::builtin_source(spec).is_some();
        let dir = if builtin || !record { None } else { dir };
        if let Some(((s, d, o, r), loaded)) = &self.last
            && s == spec
            && d.as_deref() == dir
            && o.as_slice() == options
            && *r == record
        {
            return loaded.clone();
        }
        let key = (
            spec.to_string(),
            dir.map(Path::to_path_buf),
            options.to_vec(),
            record,
        );
        let confinement = &self.confinement;
        let given = self.given(spec, record).cloned();
        let loaded = self
            .map
            .entry(key.clone())
            .or_insert_with(|| {
                if let Some(file) = given {
                    crate::rules::load_source(file, options)
                } else if record {
                    crate::rules::load_for_record(spec, dir, confinement, options)
                } else {
                    crate::rules::load(spec, None, options)
                }
                .map(Arc::new)
                .map_err(Arc::new)
            })
            .clone();
        self.last = Some((key, loaded.clone()));
        loaded
    }

    /// The sha256 of the rule file of `choice`, read as [`RulesCache::load`]
    /// reads it.
    fn digest(&mut self, choice: &RulesChoice, dir: Option<&Path>) -> Option<String> {
        let record = choice.from_record();
        let dir = if record { dir } else { None };
        let key = (choice.spec.clone(), dir.map(Path::to_path_buf));
        if let Some(file) = self.given(&choice.spec, record) {
            return Some(crate::rules::text_digest(&file.text));
        }
        let confinement = &self.confinement;
        self.digests
            .entry(key)
            .or_insert_with(|| {
                if record {
                    crate::rules::digest_for_record(&choice.spec, dir, confinement).ok()
                } else {
                    crate::rules::digest(&choice.spec, None).ok()
                }
            })
            .clone()
    }
}

/// A header resolved: the rule set and, when the tags give one, the start.
#[derive(Debug, Clone)]
pub struct Header {
    pub choice: RulesChoice,
    pub rules: Arc<Ruleset>,
    pub start: Option<Position>,
}

/// Resolves the header of `game` (read from a file in `dir`): the rule set
/// (`over` is `--rules` with its options), its digest, and the start
/// position. Problems of the tags (duplicates, names in the wrong case,
/// the roster, `Date`, `RuleOptions`, `Result`, `SetUp`/`Position`) go to
/// `findings`, in line order: every command that reads a record reports
/// the same ones. `Ok(None)`: the header
/// names no rule set that loads (the findings say why); `Err`: the rule
/// file it names does not compile, which is no problem of the record.
pub fn resolve(
    game: &Game,
    dir: Option<&Path>,
    over: Option<(&str, &[String])>,
    cache: &mut RulesCache,
    findings: &mut Vec<Finding>,
) -> Result<Option<Header>, Arc<RulesError>> {
    let before = findings.len();
    let resolved = resolve_tags(game, dir, over, cache, findings);
    // Each step finds its own; the record reads in line order.
    findings[before..].sort_by_key(|f| f.span.start);
    resolved
}

/// [`resolve`] before the findings are put in line order.
fn resolve_tags(
    game: &Game,
    dir: Option<&Path>,
    over: Option<(&str, &[String])>,
    cache: &mut RulesCache,
    findings: &mut Vec<Finding>,
) -> Result<Option<Header>, Arc<RulesError>> {
    let head = head_span(game);
    tags(game, head, findings);
    let Some(choice) = RulesChoice::of(game, over) else {
        // A `Rules` tag in the wrong case has its tag_case error, which
        // says what to write; "does not say which rules" would mislead.
        if miscased(game, "Rules").is_none() {
            findings.push(missing_rules(head, cache.command.unwrap_or("check")));
        }
        return Ok(None);
    };
    let rules = match cache.load(&choice, dir) {
        Ok(r) => r,
        Err(e) => {
            return match load_problem(&choice, &e, dir, cache, head) {
                Some(f) => {
                    findings.push(f);
                    Ok(None)
                }
                None => Err(e),
            };
        }
    };
    if let Some(t) = tag(game, "RulesDigest") {
        let have = cache.digest(&choice, dir).map(|d| format!("sha256:{d}"));
        if have.as_deref() != Some(t.value.as_str()) {
            let spec = &choice.spec;
            findings.push(
                Finding::warning(
                    Code::RulesDigest,
                    format!("the rule file `{spec}` has changed since this record was checked against it"),
                    t.value_span,
                )
                .label("RulesDigest")
                .help(format!("the rule file's digest is now `{}`; re-check the record and update the tag", have.unwrap_or_default())),
            );
        }
    }
    let start = start_position(game, &rules, head, findings);
    Ok(Some(Header {
        choice,
        rules,
        start,
    }))
}

/// The finding for a rule set that does not load because of the header:
/// no such rule set (or none the record may name), or options it does not
/// have. `None`: the rule file itself is at fault.
fn load_problem(
    choice: &RulesChoice,
    e: &RulesError,
    dir: Option<&Path>,
    cache: &mut RulesCache,
    head: Span,
) -> Option<Finding> {
    // A rule set or options named on the command line are the command's
    // mistake, not the record's.
    if !choice.from_record() {
        return None;
    }
    let spec = &choice.spec;
    if e.is_io() {
        return Some(
            Finding::error(
                Code::UnknownRules,
                format!("no rule set `{spec}`: not a built-in name and no such file"),
                choice.spec_span.unwrap_or(head),
            )
            .label("Rules tag")
            .help(format!(
                "{}use a built-in rule set ({}) or a path to a .senet file in this record's folder or below it, or in a folder given with --rules-path",
                match super::finding::nearest(spec, crate::rules::builtin_names()) {
                    Some(name) => format!("did you mean `{name}`? Otherwise "),
                    None => String::new(),
                },
                crate::rules::builtin_names().join(", ")
            )),
        );
    }
    if !e.is_selection() {
        return None;
    }
    // The moves are judged under the options: none is checked, and the
    // finding says so, lest a record with no other finding look checked.
    let unchecked = format!(
        "the moves were not checked: they are judged under `{spec}` with the options the tag \
         names, which do not load until it is fixed"
    );
    let span = choice.options_span.unwrap_or(head);
    let only_unknown = e
        .errors()
        .iter()
        .all(|x| matches!(x, crate::rules::RuleError::UnknownOption { .. }));
    if !only_unknown {
        // Options named twice, or that contradict each other: the rule
        // file's words for it, at the tag.
        let first = &e.errors()[0];
        let help = crate::diag::Diagnostic::help(first)
            .map(|h| format!("{h}\n"))
            .unwrap_or_default();
        return Some(
            Finding::error(
                Code::RuleOptions,
                format!(
                    "`{}`: {first} (moves not checked)",
                    crate::diag::printable(&choice.options.join("; "))
                ),
                span,
            )
            .label("RuleOptions")
            .help(format!("{help}{unchecked}")),
        );
    }
    let plain = RulesChoice {
        options: Vec::new(),
        ..choice.clone()
    };
    let known = cache
        .load(&plain, dir)
        .map(|r| {
            r.meta
                .options
                .iter()
                .map(|o| o.0.clone())
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    let names = if known.is_empty() {
        format!("`{spec}` has no options")
    } else {
        let guesses: Vec<String> = choice
            .options
            .iter()
            .filter(|o| !known.contains(o))
            .filter_map(|o| {
                super::finding::nearest(o, known.iter().map(String::as_str))
                    .map(|k| format!("`{k}` (for `{o}`)"))
            })
            .collect();
        let guess = if guesses.is_empty() {
            String::new()
        } else {
            format!("did you mean {}; ", guesses.join(", "))
        };
        format!("{guess}the options of `{spec}` are: {}", known.join(", "))
    };
    Some(
        Finding::error(
            Code::RuleOptions,
            format!(
                "`{}` names an option that `{spec}` does not have (moves not checked)",
                crate::diag::printable(&choice.options.join("; "))
            ),
            span,
        )
        .label("RuleOptions")
        .help(format!("{names}\n{unchecked}")),
    )
}

fn tag<'g>(game: &'g Game, name: &str) -> Option<&'g Tag> {
    game.tags.iter().find(|t| t.name == name)
}

/// The position a game starts from: its `SetUp`/`Position` tags, or the
/// rule set's setup with the first player from the rules or `FirstPlayer`.
/// Problems with those tags go to `findings`; `None` when there is no
/// usable start.
pub fn start_position(
    game: &Game,
    rules: &Ruleset,
    head: Span,
    findings: &mut Vec<Finding>,
) -> Option<Position> {
    if tag(game, "SetUp").is_some_and(|t| t.value == "1") {
        set_up(game, rules, findings)
    } else {
        rules_start(game, rules, head, findings)
    }
}

/// The start a `SetUp "1"` game gives in its `Position` tag.
fn set_up(game: &Game, rules: &Ruleset, findings: &mut Vec<Finding>) -> Option<Position> {
    let board = rules.board;
    let Some(t) = tag(game, "Position") else {
        findings.push(
            Finding::error(
                Code::Setup,
                "`SetUp \"1\"` needs a Position tag",
                tag(game, "SetUp")
                    .expect("checked by the caller")
                    .value_span,
            )
            .label("SetUp")
            .help("add `[Position \"...\"]` with the position string the game starts from"),
        );
        return None;
    };
    let p = match Position::parse(&t.value, board.len, board.row_len) {
        // A game set up this way never plays the opening (P-4). Its turns
        // are counted from the position's turn number, with the first
        // player the `FirstPlayer` tag names (C-5).
        Ok(p) => Position {
            origin: Origin::SetUp,
            first: match (first_player(game, rules, findings), &rules.starter) {
                (_, Starter::Fixed(side, _)) => *side,
                (Some((_, side)), Starter::ByLot(_)) => side,
                (None, Starter::ByLot(_)) => Side::White,
            },
            ..p
        },
        Err(e) => {
            let vs = t.value_span;
            findings.push(
                Finding::error(
                    Code::Position,
                    format!("bad position string: {}", e.message),
                    Span::new(vs.start + e.at, vs.start + e.at + e.len),
                )
                .label("here")
                .help(POSITION_HELP),
            );
            return None;
        }
    };
    if let Some((flag, why)) = foreign_state(rules, &p) {
        findings.push(
            Finding::error(
                Code::Position,
                format!("the Position has the flag `{flag}`, but {why}"),
                t.value_span,
            )
            .label("Position")
            .help(format!(
                "leave `{flag}` out of the rule state: the rules `{}` never set it",
                rules.meta.name
            )),
        );
        return None;
    }
    if let Some(wrong) = wrong_piece_count(rules, &p) {
        findings.push(
            Finding::error(
                Code::Position,
                format!("the Position has {wrong}"),
                t.value_span,
            )
            .label("Position")
            .help(PIECE_COUNT_HELP),
        );
        return None;
    }
    if let Some(idle) = super::state_flags::idle_flag(rules, &p, &t.value) {
        findings.push(idle_flag_finding(&idle, "Position", t.value_span.start));
        return None;
    }
    Some(p)
}

/// The finding for a rule-state flag that means nothing under the rules,
/// in a position string that starts at `start` (`what`: `Position` or
/// `position`, for the message).
pub(crate) fn idle_flag_finding(
    idle: &super::state_flags::IdleFlag,
    what: &str,
    start: usize,
) -> Finding {
    Finding::error(
        Code::Position,
        format!("the {what} has the flag `{}`, but {}", idle.flag, idle.why),
        idle.span(start),
    )
    .label("this flag")
    .help(idle.help.clone())
}

/// How to count the pieces of a position string.
pub const PIECE_COUNT_HELP: &str = "count each side's pieces on the board plus those borne off (`W-B`), queued (`q:`) and in hand (`hand:W-B`)";

/// `the wrong number of pieces: …` when a side of `p` has more pieces than
/// the rules give it, or fewer where no capture removes any (BL-4). Used for
/// a `Position` tag and for a `[%pos]` that resynchronises a replay.
pub fn wrong_piece_count(rules: &Ruleset, p: &Position) -> Option<String> {
    // Counted wide: a position string can hold more pieces than fit a u8
    // sum (the parser caps each side at the board's squares).
    let count = |s: Side| p.in_play(s) as u32 + p.off[s.index()] as u32;
    let want = rules.pieces as u32;
    let wrong: Vec<String> = Side::BOTH
        .into_iter()
        .filter(|&s| {
            let n = count(s);
            n > want || (n < want && rules.movement.hit != Hit::Capture)
        })
        .map(|s| format!("{s} has {}", count(s)))
        .collect();
    (!wrong.is_empty()).then(|| {
        format!(
            "the wrong number of pieces: {} (on the board, borne off, queued and in hand), and the rules give each side {}",
            wrong.join(", "),
            rules.pieces
        )
    })
}

/// The side the `FirstPlayer` tag names, read the same way for a game
/// from the rules' setup and for a set-up one (C-5). A value that is not
/// a side, or a side other than the one the rules fix as the starter, is
/// reported; the first gives `None`.
fn first_player<'g>(
    game: &'g Game,
    rules: &Ruleset,
    findings: &mut Vec<Finding>,
) -> Option<(&'g Tag, Side)> {
    let t = tag(game, "FirstPlayer")?;
    let named = match t.value.as_str() {
        "White" => Side::White,
        "Black" => Side::Black,
        v => {
            findings.push(
                Finding::error(
                    Code::FirstPlayer,
                    format!("`{v}` is not a side"),
                    t.value_span,
                )
                .label("FirstPlayer")
                .help("write `White` or `Black`"),
            );
            return None;
        }
    };
    if let Starter::Fixed(side, clause) = &rules.starter
        && named != *side
    {
        let mut f = Finding::error(
            Code::FirstPlayer,
            format!(
                "under `{}` {side} moves first, not {named}",
                rules.meta.name
            ),
            t.value_span,
        )
        .label("FirstPlayer")
        .help(format!(
            "write `[FirstPlayer \"{side}\"]` or leave the tag out"
        ));
        if !clause.is_empty() {
            f.clause = Some(clause.clone());
        }
        findings.push(f);
    }
    Some((t, named))
}

/// The rule set's own start, with the first player its rules fix or the
/// `FirstPlayer` tag names.
fn rules_start(
    game: &Game,
    rules: &Ruleset,
    head: Span,
    findings: &mut Vec<Finding>,
) -> Option<Position> {
    let first_written = game.nodes.iter().find_map(|n| match n {
        Node::TurnNumber { black, .. } => Some(if *black { Side::Black } else { Side::White }),
        _ => None,
    });
    let named = tag(game, "FirstPlayer").is_some();
    let named_side = first_player(game, rules, findings).map(|(_, side)| side);
    match &rules.starter {
        Starter::Fixed(side, _) => {
            // An opening procedure that decides the first player (K-5's
            // roll-off): the record must say who it was.
            if let Some(o) = rules
                .opening
                .iter()
                .find(|o| o.side == *side && o.throw.is_some())
                && !named
            {
                let mut f = Finding::error(
                    Code::FirstPlayerMissing,
                    format!("under `{}` an opening procedure decides the first player, and the record does not say who it was", rules.meta.name),
                    head,
                )
                .label("no FirstPlayer tag")
                .help(format!("add `[FirstPlayer \"{side}\"]`: the player who wins the opening plays {side} and moves first"));
                if !o.clause.is_empty() {
                    f.clause = Some(o.clause.clone());
                }
                findings.push(f);
            }
            Some(Position::start(rules, *side))
        }
        Starter::ByLot(clause) => {
            let first = match named_side {
                Some(s) => s,
                None => {
                    let mut f = Finding::error(
                        Code::FirstPlayerMissing,
                        format!("under `{}` the first player is drawn by lot, and the record does not say who it was", rules.meta.name),
                        head,
                    )
                    .label("no FirstPlayer tag")
                    .help("add `[FirstPlayer \"White\"]` or `[FirstPlayer \"Black\"]`");
                    if !clause.is_empty() {
                        f.clause = Some(clause.clone());
                    }
                    findings.push(f);
                    first_written.unwrap_or(Side::White)
                }
            };
            Some(Position::start(rules, first))
        }
    }
}

/// A rule-state flag of a position that the rule set never sets: pieces in
/// hand without an `enter` rule (PC-1), or a turn direction without one
/// direction per turn (PC-4). Such a position could never arise, and under
/// those rules its pieces in hand could never enter. Judged for the
/// `Position` tag here and for `[%pos]` in the replay.
pub(crate) fn foreign_state(rules: &Ruleset, p: &Position) -> Option<(String, &'static str)> {
    if p.hand != [0, 0] && rules.entry.is_none() {
        return Some((
            format!("hand:{}-{}", p.hand[0], p.hand[1]),
            "these rules have no pieces in hand",
        ));
    }
    match p.heading {
        Heading::Any => None,
        _ if rules.movement.one_direction => None,
        Heading::Forward => Some((
            "fwd".into(),
            "these rules do not keep the moves of a turn in one direction",
        )),
        Heading::Backward => Some((
            "back".into(),
            "these rules do not keep the moves of a turn in one direction",
        )),
    }
}

/// The seven tags every record should carry, as in PGN.
pub const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The tags the checker reads besides the roster: a name of one of these in
/// the wrong case changes what is checked, so it is an error.
pub const READ: [&str; 8] = [
    "Rules",
    "RuleOptions",
    "RulesDigest",
    "FirstPlayer",
    "SetUp",
    "Position",
    "Score",
    "Termination",
];

/// The provenance tags of docs/sgn.md, kept but not read: a name of one of
/// these in the wrong case is a warning.
pub const PROVENANCE: [&str; 6] = [
    "ThrowSource",
    "Source",
    "SourceRef",
    "Annotator",
    "Transcriber",
    "Certainty",
];

/// The tag written as `name` in another letter case, if there is one.
fn miscased<'g>(game: &'g Game, name: &str) -> Option<&'g Tag> {
    game.tags
        .iter()
        .find(|t| t.name != name && t.name.eq_ignore_ascii_case(name))
}

/// The tag step: duplicates, names in the wrong case, the roster, the
/// date, empty option names and the Result tag.
fn tags(game: &Game, head: Span, findings: &mut Vec<Finding>) {
    let tag = |name: &str| game.tags.iter().find(|t| t.name == name);
    for (i, t) in game.tags.iter().enumerate() {
        if let Some(first) = game.tags[..i].iter().find(|f| f.name == t.name) {
            findings.push(
                Finding::error(
                    Code::DuplicateTag,
                    format!("a second `{}` tag: the game already has one", t.name),
                    t.span,
                )
                .label("second tag")
                .help(format!(
                    "the first, `[{} \"{}\"]`, is the one read: keep one of the two",
                    first.name,
                    crate::diag::printable(&first.value)
                )),
            );
        }
    }
    for t in &game.tags {
        let known = ROSTER.iter().chain(&READ).chain(&PROVENANCE);
        let Some(name) = known
            .copied()
            .find(|n| **n != t.name && n.eq_ignore_ascii_case(&t.name))
        else {
            continue;
        };
        let read = !PROVENANCE.contains(&name);
        let message = format!(
            "`{}` is not a tag name: tag names are case-sensitive",
            t.name
        );
        let help = format!(
            "did you mean `{name}`? Write `[{name} \"…\"]` (`senet fmt --fix` corrects the case)"
        );
        let f = if read {
            Finding::error(Code::TagCase, message, t.name_span)
        } else {
            Finding::warning(Code::TagCase, message, t.name_span)
        };
        findings.push(f.label(format!("did you mean `{name}`?")).help(help));
    }
    for t in &game.tags {
        // A name one typo away from a tag of SGN 1 (`Ruels`, `Dat`), when
        // the game has no tag of that name: kept as an unknown tag, it
        // would silently not be read.
        let known = ROSTER.iter().chain(&READ).chain(&PROVENANCE).copied();
        if known.clone().any(|n| n.eq_ignore_ascii_case(&t.name)) {
            continue;
        }
        let Some(name) = crate::diag::nearest(&t.name, known) else {
            continue;
        };
        if game.tags.iter().any(|o| o.name.eq_ignore_ascii_case(name)) {
            continue;
        }
        findings.push(
            Finding::warning(
                Code::UnknownTag,
                format!(
                    "`{}` is not a tag of SGN 1: it is kept but not read",
                    crate::diag::printable(&t.name)
                ),
                t.name_span,
            )
            .label(format!("did you mean `{name}`?"))
            .help(format!(
                "did you mean `{name}`? Write `[{name} \"…\"]`; a tag of your own is kept as it is"
            )),
        );
    }
    // A roster tag in the wrong case has its own finding above.
    let missing: Vec<&str> = ROSTER
        .iter()
        .copied()
        .filter(|n| tag(n).is_none() && miscased(game, n).is_none())
        .collect();
    if !missing.is_empty() {
        findings.push(
            Finding::warning(
                Code::MissingTag,
                format!("the game has no {} tag{}", join(&missing), if missing.len() > 1 { "s" } else { "" }),
                head,
            )
            .label("tags of this game")
            .help("every record carries Event, Site, Date, Round, White, Black and Result; write `?` for an unknown value"),
        );
    }
    if let Some(t) = tag("Date")
        && let Some((why, from, to)) = date_problem(&t.value)
    {
        let at = t.value_span.start;
        findings.push(
            Finding::error(
                Code::Date,
                format!("`{}` {why}", crate::diag::printable(&t.value)),
                Span::new(at + from, at + to),
            )
            .label("date")
            .help(match iso_date(&t.value) {
                Some(pgn) => format!("SGN writes dates with dots, year first: write `{pgn}`"),
                None => "write `2026.03.14`, with `??` for unknown parts: `1979.??.??`".to_string(),
            }),
        );
    }
    if let Some(t) = tag("Position")
        && tag("SetUp").is_none_or(|s| s.value != "1")
    {
        // Read without `SetUp "1"`, the game would be judged from the
        // rules' own start, not from the position the record gives.
        findings.push(
            Finding::error(
                Code::Setup,
                "the Position tag is not read: the game has no `[SetUp \"1\"]`",
                t.name_span,
            )
            .label("Position without SetUp")
            .help("add `[SetUp \"1\"]` so that the game starts from this Position, or remove the Position tag to start from the rules' setup"),
        );
    }
    if let Some(t) = tag("RuleOptions")
        && let Some((at, l)) = super::lookalike::first_in(&t.value)
    {
        let s = t.value_span.start + at;
        findings.push(
            Finding::error(
                Code::RuleOptions,
                format!(
                    "`{}` names an option with {}",
                    crate::diag::printable(&t.value),
                    super::lookalike::describe(l)
                ),
                Span::new(s, s + l.ch.len_utf8()),
            )
            .label(super::lookalike::describe(l))
            .help(super::lookalike::in_word(&t.value).unwrap_or_default()),
        );
    }
    if let Some(t) = tag("RuleOptions")
        && let Some(at) = empty_option(&t.value)
    {
        let s = t.value_span.start + at;
        findings.push(
            Finding::error(
                Code::RuleOptions,
                format!(
                    "`{}` has an empty option name",
                    crate::diag::printable(&t.value)
                ),
                Span::new(s, s + 1),
            )
            .label("nothing between these separators")
            .help("separate option names with one `;`: `A-1; A-14`"),
        );
    }
    if let Some(t) = tag("Result")
        && ResultToken::parse(&t.value) != Some(game.result)
    {
        findings.push(
            Finding::error(
                Code::ResultTag,
                format!(
                    "the Result tag says `{}` but the game ends with `{}`",
                    t.value, game.result
                ),
                t.value_span,
            )
            .label("Result tag")
            .help("the Result tag and the result token after the movetext must be equal"),
        );
    }
}

/// The byte offset, in a `RuleOptions` value, of a `;` with no option name
/// before it (or of a trailing one); `None` when every name is there.
/// A value with no name at all names no options and is not a mistake.
fn empty_option(value: &str) -> Option<usize> {
    if value.trim().is_empty() {
        return None;
    }
    let mut start = 0;
    for (i, c) in value.char_indices() {
        if c == ';' {
            if value[start..i].trim().is_empty() {
                return Some(i);
            }
            start = i + 1;
        }
    }
    value[start..]
        .trim()
        .is_empty()
        .then(|| value.rfind(';').unwrap_or(0))
}

/// The `YYYY.MM.DD` form of an ISO date `YYYY-MM-DD` (or `YYYY/MM/DD`),
/// when `d` is one.
fn iso_date(d: &str) -> Option<String> {
    let sep = d.chars().find(|c| *c == '-' || *c == '/')?;
    let parts: Vec<&str> = d.split(sep).collect();
    let digits = |p: &str, n: usize| p.len() == n && p.bytes().all(|c| c.is_ascii_digit());
    (parts.len() == 3 && digits(parts[0], 4) && digits(parts[1], 2) && digits(parts[2], 2))
        .then(|| parts.join("."))
}

/// What is wrong with a `Date` value, as PGN writes dates: `YYYY.MM.DD`,
/// each part all digits or all `?`; a month 01 to 12 and a day that month
/// has (29 February only in a leap year, or when the year is unknown).
/// Every wrong part is named, and the byte range from the first wrong part
/// to the last comes with the words.
fn date_problem(d: &str) -> Option<(String, usize, usize)> {
    let parts: Vec<&str> = d.split('.').collect();
    if parts.len() != 3 {
        return Some((
            "is not a date of the form YYYY.MM.DD".to_string(),
            0,
            d.len(),
        ));
    }
    // The byte range of each part in the value.
    let month_at = parts[0].len() + 1;
    let day_at = month_at + parts[1].len() + 1;
    let ranges = [
        (0, parts[0].len()),
        (month_at, month_at + parts[1].len()),
        (day_at, d.len()),
    ];
    let names = ["year", "month", "day"];
    let form = |p: &str, n: usize| {
        p.len() == n && (p.bytes().all(|c| c.is_ascii_digit()) || p.bytes().all(|c| c == b'?'))
    };
    let mut wrong: Vec<(String, usize)> = Vec::new();
    for (i, want) in [4, 2, 2].into_iter().enumerate() {
        if !form(parts[i], want) {
            wrong.push((
                format!(
                    "the {} `{}` is not {want} digits (or {})",
                    names[i],
                    crate::diag::printable(parts[i]),
                    "?".repeat(want)
                ),
                i,
            ));
        }
    }
    if !wrong.is_empty() {
        let words: Vec<String> = wrong.iter().map(|(w, _)| w.clone()).collect();
        return Some((
            format!("is not a date of the form YYYY.MM.DD: {}", words.join("; ")),
            ranges[wrong[0].1].0,
            ranges[wrong[wrong.len() - 1].1].1,
        ));
    }
    let number = |p: &str| p.parse::<u32>().ok();
    let (year, month, day) = (number(parts[0]), number(parts[1]), number(parts[2]));
    let month_ok = month.is_none_or(|m| (1..=12).contains(&m));
    if let Some(m) = month
        && !month_ok
    {
        wrong.push((format!("no month {m}: months run from 01 to 12"), 1));
    }
    let leap = |y: u32| y.is_multiple_of(4) && (!y.is_multiple_of(100) || y.is_multiple_of(400));
    let most = match month.filter(|_| month_ok) {
        Some(2) => {
            if year.is_some_and(|y| !leap(y)) {
                28
            } else {
                29
            }
        }
        Some(4 | 6 | 9 | 11) => 30,
        _ => 31,
    };
    if let Some(day) = day
        && (day == 0 || day > most)
    {
        let why = match month.filter(|_| month_ok) {
            Some(m) => format!("no day {day}: month {m:02} has {most} days"),
            None => format!("no day {day}: days run from 01 to 31"),
        };
        wrong.push((why, 2));
    }
    if wrong.is_empty() {
        return None;
    }
    let words: Vec<String> = wrong.iter().map(|(w, _)| w.clone()).collect();
    Some((
        format!("has {}", words.join(", and ")),
        ranges[wrong[0].1].0,
        ranges[wrong[wrong.len() - 1].1].1,
    ))
}

fn join(items: &[&str]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].to_string(),
        n => format!("{} or {}", items[..n - 1].join(", "), items[n - 1]),
    }
}
