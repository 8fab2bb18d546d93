//! Checking a game record: the header layer, then the replay.
//!
//! Stage: a read [`Game`] → the rule set its header names (loaded once per
//! rule file and options) → start position → [`Replayer`] → result, score
//! and tag checks → [`Finding`]s. Rule files that do not compile are not a
//! problem of the record: they come back as [`RuleFileError`] so that the
//! command line can stop with exit code 2.

use super::replay::{Finding, Replayer, Severity};
use super::syntax::{Game, Node, ResultToken, Span, Tag};
use crate::engine::{Goal, Position, PositionError, Ruleset, Side, Starter};
use crate::rules::RulesError;
use miette::Diagnostic;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The seven tags every record should carry, as in PGN.
pub const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// How to check.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// `--rules`: the rule set for every game, whatever its header says.
    pub rules_override: Option<String>,
    /// Options to select with `--rules` (the header's `RuleOptions` is used
    /// otherwise).
    pub override_options: Vec<String>,
    /// Most findings kept per game.
    pub max_findings: usize,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            rules_override: None,
            override_options: Vec::new(),
            max_findings: 20,
        }
    }
}

/// A rule file named by a record that does not compile.
#[derive(Debug)]
pub struct RuleFileError(pub Arc<RulesError>);

type Loaded = Result<Arc<Ruleset>, Arc<RulesError>>;

/// Compiled rule sets by (spec, directory, options).
#[derive(Default)]
pub struct RulesCache {
    map: HashMap<RulesKey, Loaded>,
    digests: HashMap<(String, Option<PathBuf>), Option<String>>,
    /// The last key looked up and its rule set: the games of a file mostly
    /// name the same rules, and this answers them without building a key.
    last: Option<(RulesKey, Loaded)>,
}

type RulesKey = (String, Option<PathBuf>, Vec<String>);

impl RulesCache {
    fn get(
        &mut self,
        spec: &str,
        dir: Option<&Path>,
        options: &[String],
    ) -> Result<Arc<Ruleset>, Arc<RulesError>> {
        // Built-in names do not depend on the directory.
        let builtin = crate::rules::builtin_source(spec).is_some();
        let dir_key = if builtin { None } else { dir };
        if let Some(((s, d, o), loaded)) = &self.last
            && s == spec
            && d.as_deref() == dir_key
            && o.as_slice() == options
        {
            return loaded.clone();
        }
        let key = (
            spec.to_string(),
            dir_key.map(Path::to_path_buf),
            options.to_vec(),
        );
        let loaded = self
            .map
            .entry(key.clone())
            .or_insert_with(|| {
                crate::rules::load(spec, dir, options)
                    .map(Arc::new)
                    .map_err(Arc::new)
            })
            .clone();
        self.last = Some((key, loaded.clone()));
        loaded
    }

    fn digest(&mut self, spec: &str, dir: Option<&Path>) -> Option<String> {
        let key = (spec.to_string(), dir.map(Path::to_path_buf));
        self.digests
            .entry(key)
            .or_insert_with(|| crate::rules::digest(spec, dir).ok())
            .clone()
    }
}

/// The result of checking one game.
#[derive(Debug, Clone, Default)]
pub struct GameReport {
    pub findings: Vec<Finding>,
    /// Main-line units replayed.
    pub units: usize,
    /// Findings past the cap.
    pub suppressed: usize,
    /// The rule set's name, when one was loaded.
    pub rules: Option<String>,
}

impl GameReport {
    pub fn errors(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count()
    }
}

/// Checks one game: header, replay of the main line and every variation,
/// result and score. `dir` is the directory of the `.sgn` file, against
/// which a `Rules` path is resolved.
pub fn check_game(
    game: &Game,
    dir: Option<&Path>,
    opts: &CheckOptions,
    cache: &mut RulesCache,
) -> Result<GameReport, RuleFileError> {
    let mut report = GameReport::default();
    let mut findings = Vec::new();
    let head = game
        .tags
        .first()
        .map(|t| t.span)
        .unwrap_or(Span::new(game.span.start, game.span.start));
    let tag = |name: &str| game.tags.iter().find(|t| t.name == name);

    // Tags.
    let missing: Vec<&str> = ROSTER
        .iter()
        .copied()
        .filter(|n| tag(n).is_none())
        .collect();
    if !missing.is_empty() {
        findings.push(
            Finding::warning(
                "senet::sgn::missing_tag",
                format!("the game has no {} tag{}", join(&missing), if missing.len() > 1 { "s" } else { "" }),
                head,
            )
            .label("tags of this game")
            .help("every record carries Event, Site, Date, Round, White, Black and Result; write `?` for an unknown value"),
        );
    }
    if let Some(t) = tag("Date")
        && !date_ok(&t.value)
    {
        findings.push(
            Finding::warning(
                "senet::sgn::date",
                format!("`{}` is not a date of the form YYYY.MM.DD", t.value),
                value_span(t),
            )
            .label("date")
            .help("write `2026.03.14`, with `??` for unknown parts: `1979.??.??`"),
        );
    }
    if let Some(t) = tag("Result")
        && ResultToken::parse(&t.value) != Some(game.result)
    {
        findings.push(
            Finding::error(
                "senet::sgn::result_tag",
                format!(
                    "the Result tag says `{}` but the game ends with `{}`",
                    t.value, game.result
                ),
                value_span(t),
            )
            .label("Result tag")
            .help("the Result tag and the result token after the movetext must be equal"),
        );
    }

    // The rule set.
    let (spec, spec_span) = match (&opts.rules_override, tag("Rules")) {
        (Some(s), _) => (s.clone(), None),
        (None, Some(t)) => (t.value.clone(), Some(value_span(t))),
        (None, None) => {
            findings.push(
                Finding::error("senet::sgn::missing_rules", "the game does not say which rules it was played under", head)
                    .label("no Rules tag")
                    .help("add a tag such as `[Rules \"kendall\"]` (see `senet rules list`), or check with `--rules NAME`"),
            );
            report.findings = findings;
            return Ok(report);
        }
    };
    let (options, options_span) = if opts.rules_override.is_some() {
        (opts.override_options.clone(), None)
    } else {
        match tag("RuleOptions") {
            Some(t) => (
                t.value
                    .split(';')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect(),
                Some(value_span(t)),
            ),
            None => (Vec::new(), None),
        }
    };
    let rules = match cache.get(&spec, dir, &options) {
        Ok(r) => r,
        Err(e) => {
            if e.is_io() {
                findings.push(
                    Finding::error("senet::sgn::unknown_rules", format!("no rule set `{spec}`: not a built-in name and no such file"), spec_span.unwrap_or(head))
                        .label("Rules tag")
                        .help(format!(
                            "use a built-in rule set ({}) or a path to a .senet file relative to this record",
                            crate::rules::builtin_names().join(", ")
                        )),
                );
                report.findings = findings;
                return Ok(report);
            }
            let only_options = !e.errors().is_empty()
                && e.errors().iter().all(|x| {
                    x.code()
                        .is_some_and(|c| c.to_string() == "senet::rules::unknown_option")
                });
            if only_options {
                let known = crate::rules::load(&spec, dir, &[])
                    .map(|r| {
                        r.meta
                            .options
                            .iter()
                            .map(|o| o.0.clone())
                            .collect::<Vec<_>>()
                    })
                    .unwrap_or_default();
                findings.push(
                    Finding::error(
                        "senet::sgn::rule_options",
                        format!(
                            "`{}` names an option that `{spec}` does not have",
                            options.join("; ")
                        ),
                        options_span.unwrap_or(head),
                    )
                    .label("RuleOptions")
                    .help(if known.is_empty() {
                        format!("`{spec}` has no options")
                    } else {
                        format!("the options of `{spec}` are: {}", known.join(", "))
                    }),
                );
                report.findings = findings;
                return Ok(report);
            }
            return Err(RuleFileError(e));
        }
    };
    report.rules = Some(rules.meta.name.clone());
    if let Some(t) = tag("RulesDigest") {
        let have = cache.digest(&spec, dir).map(|d| format!("sha256:{d}"));
        if have.as_deref() != Some(t.value.as_str()) {
            findings.push(
                Finding::warning(
                    "senet::sgn::rules_digest",
                    format!("the rule file `{spec}` has changed since this record was checked against it"),
                    value_span(t),
                )
                .label("RulesDigest")
                .help(format!("the rule file's digest is now `{}`; re-check the record and update the tag", have.unwrap_or_default())),
            );
        }
    }

    // The start position.
    let start = start_position(game, &rules, head, &mut findings);
    let Some(start) = start else {
        report.findings = findings;
        return Ok(report);
    };

    // The movetext.
    let replayed = Replayer::new(&rules, opts.max_findings).replay(game, start);
    findings.extend(replayed.findings);
    report.units = replayed.units;
    report.suppressed = replayed.suppressed;

    // Result and score against the final position.
    if let Some(end) = replayed.final_position {
        let over = rules.game_over(&end);
        let winner = rules.winner(&end);
        let abandoned = tag("Termination").is_some_and(|t| t.value == "abandoned");
        let token = |w: Side| if w == Side::White { "1-0" } else { "0-1" };
        let left = format!(
            "White has {} and Black {} pieces left",
            end.in_play(Side::White),
            end.in_play(Side::Black)
        );
        match (game.result, over, winner) {
            (ResultToken::WhiteWins | ResultToken::BlackWins, true, Some(w)) => {
                let c = claimed_winner(game.result);
                if c != w {
                    let f = Finding::error(
                        "senet::sgn::result",
                        format!("the result says {c} won, but {}", ending(&rules, &end)),
                        game.result_span,
                    )
                    .label("result")
                    .help(format!("write `{}`", token(w)));
                    // The goal clause where the counts decide (BL-7).
                    findings.push(if rules.end.goal == Goal::MostBorneOff {
                        with_goal(f, &rules)
                    } else {
                        f
                    });
                }
            }
            (ResultToken::WhiteWins | ResultToken::BlackWins, true, None) => {
                let c = claimed_winner(game.result);
                let f = Finding::error(
                    "senet::sgn::result",
                    format!(
                        "the result says {c} won, but the game is drawn: {}",
                        ending(&rules, &end)
                    ),
                    game.result_span,
                )
                .label("result")
                .help("write `1/2-1/2` here and in the Result tag: the game ended with no winner");
                findings.push(with_goal(f, &rules));
            }
            (ResultToken::WhiteWins | ResultToken::BlackWins, false, _) if !abandoned => {
                let c = claimed_winner(game.result);
                let f = Finding::error(
                    "senet::sgn::result",
                    format!("the result says {c} won, but the game is not over: {left}"),
                    game.result_span,
                )
                .label("result")
                .help("write `*` for an unfinished game, or `[Termination \"abandoned\"]` if it was given up");
                findings.push(with_goal(f, &rules));
            }
            (ResultToken::Draw, true, Some(w)) => {
                let f = Finding::error(
                    "senet::sgn::result",
                    format!(
                        "the result says the game was drawn, but {w} won: {}",
                        ending(&rules, &end)
                    ),
                    game.result_span,
                )
                .label("result")
                .help(format!("write `{}` here and in the Result tag", token(w)));
                findings.push(with_goal(f, &rules));
            }
            (ResultToken::Draw, false, _) => {
                let help = if rules.end.goal == Goal::MostBorneOff {
                    "`1/2-1/2` is for a game that ended with no winner under its rules; write `*` for an unfinished game".to_string()
                } else {
                    format!(
                        "`{}` has no draws: write `*` for an unfinished game, or the winner's result with `[Termination \"abandoned\"]` for a game given up",
                        rules.meta.name
                    )
                };
                let f = Finding::error(
                    "senet::sgn::result",
                    format!("the result says the game was drawn, but the game is not over: {left}"),
                    game.result_span,
                )
                .label("result")
                .help(help);
                findings.push(with_goal(f, &rules));
            }
            (ResultToken::Unknown, true, w) => {
                let f = Finding::warning(
                    "senet::sgn::result_unfinished",
                    format!(
                        "the game is over ({}{}) but the result is `*`",
                        if w.is_none() { "drawn: " } else { "" },
                        ending(&rules, &end)
                    ),
                    game.result_span,
                )
                .label("result")
                .help(format!(
                    "write `{}` here and in the Result tag",
                    w.map_or("1/2-1/2", token)
                ));
                // The goal clause where the rules, not a lone winner, end it.
                findings.push(if rules.end.goal == Goal::MostBorneOff {
                    with_goal(f, &rules)
                } else {
                    f
                });
            }
            _ => {}
        }
        let score = rules.score(&end);
        match (tag("Score"), score) {
            (Some(t), Some((side, points))) => {
                let want = format!("{side} {points}");
                if t.value != want {
                    let mut f = Finding::error("senet::sgn::score", format!("the score is `{want}`, not `{}`", t.value), value_span(t))
                        .label("Score")
                        .help(format!("write `[Score \"{want}\"]`: the winner scores for each opposing piece left, by row"));
                    if !rules.end.clause.is_empty() {
                        f.clause = Some(rules.end.clause.clone());
                    }
                    findings.push(f);
                }
            }
            (None, Some((side, points))) => {
                let mut f = Finding::warning(
                    "senet::sgn::score_missing",
                    "the game is over and the rules score it, but there is no Score tag",
                    game.result_span,
                )
                .label("finished game")
                .help(format!("add `[Score \"{side} {points}\"]`"));
                if !rules.end.clause.is_empty() {
                    f.clause = Some(rules.end.clause.clone());
                }
                findings.push(f);
            }
            (Some(t), None) if rules.end.score_by_row.is_none() => findings.push(
                Finding::warning(
                    "senet::sgn::score",
                    format!("`{}` does not score games", rules.meta.name),
                    value_span(t),
                )
                .label("Score")
                .help("remove the Score tag"),
            ),
            _ => {}
        }
    }
    report.findings = findings;
    Ok(report)
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
    let tag = |name: &str| game.tags.iter().find(|t| t.name == name);
    let board = rules.board;
    let first_written = game.nodes.iter().find_map(|n| match n {
        Node::TurnNumber { black, .. } => Some(if *black { Side::Black } else { Side::White }),
        _ => None,
    });
    if tag("SetUp").is_some_and(|t| t.value == "1") {
        match tag("Position") {
            None => {
                findings.push(
                    Finding::error(
                        "senet::sgn::setup",
                        "`SetUp \"1\"` needs a Position tag",
                        value_span(tag("SetUp").expect("checked above")),
                    )
                    .label("SetUp")
                    .help("add `[Position \"...\"]` with the position string the game starts from"),
                );
                None
            }
            Some(t) => match Position::parse(&t.value, board.len, board.row_len) {
                Ok(p) if foreign_state(rules, &p).is_some() => {
                    let (flag, why) = foreign_state(rules, &p).expect("just tested");
                    findings.push(
                        Finding::error(
                            "senet::sgn::position",
                            format!("the Position has the flag `{flag}`, but {why}"),
                            value_span(t),
                        )
                        .label("Position")
                        .help(format!(
                            "leave `{flag}` out of the rule state: the rules `{}` never set it",
                            rules.meta.name
                        )),
                    );
                    None
                }
                Ok(p) => match wrong_piece_count(rules, &p) {
                    None => Some(p),
                    Some(wrong) => {
                        findings.push(
                            Finding::error(
                                "senet::sgn::position",
                                format!("the Position has {wrong}"),
                                value_span(t),
                            )
                            .label("Position")
                            .help(PIECE_COUNT_HELP),
                        );
                        None
                    }
                },
                Err(e) => {
                    let vs = value_span(t);
                    findings.push(
                        Finding::error("senet::sgn::position", format!("bad position string: {}", e.message), Span::new(vs.start + e.at, vs.start + e.at + e.len))
                            .label("here")
                            .help("a position string is `<30 squares as 3 groups of 10> <w|b> <W-B off> <state> <turn>`, e.g. `WBWBWBWBWB/10/10 w 0-0 - 1`"),
                    );
                    None
                }
            },
        }
    } else {
        let named = tag("FirstPlayer").map(|t| (t, t.value.as_str()));
        let named_side = match named {
            Some((_, "White")) => Some(Side::White),
            Some((_, "Black")) => Some(Side::Black),
            Some((t, v)) => {
                findings.push(
                    Finding::error(
                        "senet::sgn::first_player",
                        format!("`{v}` is not a side"),
                        value_span(t),
                    )
                    .label("FirstPlayer")
                    .help("write `White` or `Black`"),
                );
                None
            }
            None => None,
        };
        match &rules.starter {
            Starter::Fixed(side, clause) => {
                // An opening procedure that decides the first player (K-5's
                // roll-off): the record must say who it was.
                if let Some(o) = rules
                    .opening
                    .iter()
                    .find(|o| o.side == *side && o.throw.is_some())
                    && named.is_none()
                {
                    let mut f = Finding::error(
                        "senet::sgn::first_player_missing",
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
                if let (Some(n), Some((t, _))) = (named_side, named)
                    && n != *side
                {
                    let mut f = Finding::error(
                        "senet::sgn::first_player",
                        format!("under `{}` {side} moves first, not {n}", rules.meta.name),
                        value_span(t),
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
                Some(Position::start(rules, *side))
            }
            Starter::ByLot(clause) => {
                let first = match named_side {
                    Some(s) => s,
                    None => {
                        let mut f = Finding::error(
                            "senet::sgn::first_player_missing",
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
}

/// How a finished game ended, for a message: `White bore off all its
/// pieces`; under [`Goal::MostBorneOff`], the counts (BL-7).
pub fn ending(rules: &Ruleset, end: &Position) -> String {
    let [w, b] = end.off;
    match (rules.end.goal, rules.winner(end)) {
        (Goal::BearOffAll, Some(s)) => format!("{s} bore off all its pieces"),
        (Goal::MostBorneOff, Some(s)) => {
            let (mine, theirs) = if s == Side::White { (w, b) } else { (b, w) };
            format!("{s} bore off more pieces, {mine} to {theirs}")
        }
        (_, None) if w == b => format!("both sides bore off {}", pieces(w)),
        (_, None) => format!("White bore off {} and Black {b}", pieces(w)),
    }
}

fn pieces(n: u8) -> String {
    if n == 1 {
        "1 piece".to_string()
    } else {
        format!("{n} pieces")
    }
}

fn with_goal(mut f: Finding, rules: &Ruleset) -> Finding {
    if !rules.end.goal_clause.is_empty() {
        f.clause = Some(rules.end.goal_clause.clone());
    }
    f
}

/// The span of a tag's value (inside the quotes).
fn value_span(t: &Tag) -> Span {
    t.value_span
}

fn date_ok(d: &str) -> bool {
    let parts: Vec<&str> = d.split('.').collect();
    let ok = |p: &str, n: usize| {
        p.len() == n && (p.chars().all(|c| c.is_ascii_digit()) || p.chars().all(|c| c == '?'))
    };
    parts.len() == 3 && ok(parts[0], 4) && ok(parts[1], 2) && ok(parts[2], 2)
}

fn join(items: &[&str]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].to_string(),
        n => format!("{} or {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// A bad position string given on the command line.
#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("bad position string: {message}")]
#[diagnostic(
    code(senet::position),
    help(
        "a position string is `<30 squares as 3 groups of 10> <w|b> <W-B off> <state> <turn>`, e.g. `WBWBWBWBWB/10/10 w 0-0 - 1`"
    )
)]
pub struct PositionArgError {
    message: String,
    #[source_code]
    src: String,
    #[label("here")]
    span: miette::SourceSpan,
}

impl PositionArgError {
    pub fn new(text: &str, e: &PositionError) -> PositionArgError {
        PositionArgError {
            message: e.message.clone(),
            src: text.to_string(),
            span: (e.at, e.len).into(),
        }
    }
}

/// Writes `x` for every swap and `+` for every throw that gives another
/// throw, on each unit the replay resolves (main line and variations),
/// under the rule set the game's header names. Units the replay cannot
/// resolve stay as written. Returns how many units changed, or `None` when
/// the game names no rule set that loads.
pub fn canonical_marks(
    game: &mut Game,
    dir: Option<&Path>,
    cache: &mut RulesCache,
) -> Option<usize> {
    let spec = game.tag("Rules")?.to_string();
    let options: Vec<String> = game
        .tag("RuleOptions")
        .map(|v| {
            v.split(';')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect()
        })
        .unwrap_or_default();
    let rules = cache.get(&spec, dir, &options).ok()?;
    let mut ignored = Vec::new();
    let start = start_position(game, &rules, Span::default(), &mut ignored)?;
    let mut marks: HashMap<usize, (bool, bool)> = HashMap::new();
    let mut visit = |step: &super::replay::Step<'_>| {
        marks.insert(
            step.written.span.start,
            (step.unit.hit, step.unit.extra_mark),
        );
    };
    Replayer::new(&rules, usize::MAX)
        .visiting(&mut visit)
        .replay(game, start);
    fn fix(nodes: &mut [Node], marks: &HashMap<usize, (bool, bool)>, changed: &mut usize) {
        for node in nodes {
            match node {
                Node::Unit(u) => {
                    if let Some(&(hit, extra)) = marks.get(&u.span.start) {
                        let before = *u;
                        if let super::syntax::UnitBody::Move { sep, .. } = &mut u.body
                            && hit
                        {
                            *sep = super::syntax::MoveSep::Cross;
                        }
                        if extra && u.throw.is_some_and(|t| t > 0) {
                            u.plus = true;
                        }
                        *changed += (before != *u) as usize;
                    }
                }
                Node::Variation(v) => fix(&mut v.nodes, marks, changed),
                _ => {}
            }
        }
    }
    let mut changed = 0;
    fix(&mut game.nodes, &marks, &mut changed);
    Some(changed)
}

/// A rule-state flag of a position that the rule set never sets: pieces in
/// hand without an `enter` rule (PC-1), or a turn direction without one
/// direction per turn (PC-4). Such a position could never arise, and under
/// those rules its pieces in hand could never enter.
/// How to count the pieces of a position string.
pub(super) const PIECE_COUNT_HELP: &str = "count each side's pieces on the board plus those borne off (`W-B`), queued (`q:`) and in hand (`hand:W-B`)";

/// `the wrong number of pieces: …` when a side of `p` has more pieces than
/// the rules give it, or fewer where no capture removes any (BL-4).
pub(super) fn wrong_piece_count(rules: &Ruleset, p: &Position) -> Option<String> {
    // Counted wide: a position string can hold more pieces than fit a u8
    // sum (Position::parse caps each side at the board's squares).
    let count = |s: Side| p.in_play(s) as u32 + p.off[s.index()] as u32;
    let want = rules.pieces as u32;
    let wrong: Vec<String> = Side::BOTH
        .into_iter()
        .filter(|&s| {
            let n = count(s);
            n > want || (n < want && rules.movement.hit != crate::engine::Hit::Capture)
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

pub(super) fn foreign_state(rules: &Ruleset, p: &Position) -> Option<(String, &'static str)> {
    if p.hand != [0, 0] && rules.entry.is_none() {
        return Some((
            format!("hand:{}-{}", p.hand[0], p.hand[1]),
            "these rules have no pieces in hand",
        ));
    }
    match p.heading {
        crate::engine::Heading::Any => None,
        _ if rules.movement.one_direction => None,
        crate::engine::Heading::Forward => Some((
            "fwd".into(),
            "these rules do not keep the moves of a turn in one direction",
        )),
        crate::engine::Heading::Backward => Some((
            "back".into(),
            "these rules do not keep the moves of a turn in one direction",
        )),
    }
}

/// The side a win token (`1-0`, `0-1`) says won.
fn claimed_winner(result: ResultToken) -> Side {
    if result == ResultToken::WhiteWins {
        Side::White
    } else {
        Side::Black
    }
}
