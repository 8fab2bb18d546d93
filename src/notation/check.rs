//! Checking a game record: the tags, the header, the replay, the result.
//!
//! Stage: a read [`Game`] → the roster and date tags → the header
//! ([`super::header`]: rule set, loaded once per rule file and options,
//! and start position) → [`Replayer`] → result and score against the final
//! position → [`Finding`]s. Rule files that do not compile are not a
//! problem of the record: they come back as [`RuleFileError`], and the
//! command line skips the games that name them.

use super::finding::{Code, Finding, Severity};
use super::header::{self, Header};
use super::replay::{Replayer, ending};
use super::syntax::{Comment, Game, Node, ResultToken, Span, Tag};
use crate::engine::{Goal, Ruleset, Side};
use crate::rules::RulesError;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

pub use super::header::RulesCache;

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

/// A rule file named by a record that does not compile (or cannot be used):
/// the games that name it are skipped.
#[derive(Debug)]
pub struct RuleFileError(pub Arc<RulesError>);

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
    let head = header::head_span(game);
    let tag = |name: &str| game.tags.iter().find(|t| t.name == name);

    tags(game, head, &mut findings);
    swallowed_moves(&game.intro, &game.nodes, &mut findings);
    if opts.rules_override.is_none() && tag("Rules").is_none() && miscased(game, "Rules").is_some()
    {
        // The tag_case error says what to write; the game has no rule set
        // until then, and "does not say which rules" would mislead.
        in_line_order(&mut findings);
        report.findings = findings;
        return Ok(report);
    }

    // The header: rule set and start position.
    let over = opts
        .rules_override
        .as_deref()
        .map(|spec| (spec, opts.override_options.as_slice()));
    let header = header::resolve(game, dir, over, cache, &mut findings).map_err(RuleFileError)?;
    // Every finding so far is about the header, each found by its own
    // step: in line order, as the record reads.
    in_line_order(&mut findings);
    let Some(Header { rules, start, .. }) = header else {
        report.findings = findings;
        return Ok(report);
    };
    report.rules = Some(rules.meta.name.clone());
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
                        Code::Result,
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
                    Code::Result,
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
                    Code::Result,
                    format!("the result says {c} won, but the game is not over: {left}"),
                    game.result_span,
                )
                .label("result")
                .help("write `*` for an unfinished game, or `[Termination \"abandoned\"]` if it was given up");
                findings.push(with_goal(f, &rules));
            }
            (ResultToken::Draw, true, Some(w)) => {
                let f = Finding::error(
                    Code::Result,
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
                    Code::Result,
                    format!("the result says the game was drawn, but the game is not over: {left}"),
                    game.result_span,
                )
                .label("result")
                .help(help);
                findings.push(with_goal(f, &rules));
            }
            (ResultToken::Unknown, true, w) => {
                let f = Finding::warning(
                    Code::ResultUnfinished,
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
                    let mut f = Finding::error(Code::Score, format!("the score is `{want}`, not `{}`", t.value), value_span(t))
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
                    Code::ScoreMissing,
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
                    Code::Score,
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

/// Sorts findings by where they are in the record; those at one place keep
/// the order of the steps that found them.
fn in_line_order(findings: &mut [Finding]) {
    findings.sort_by_key(|f| f.span.start);
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
        let at = value_span(t).start;
        findings.push(
            Finding::error(
                Code::Date,
                format!("`{}` {why}", crate::diag::printable(&t.value)),
                Span::new(at + from, at + to),
            )
            .label("date")
            .help("write `2026.03.14`, with `??` for unknown parts: `1979.??.??`"),
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
                value_span(t),
            )
            .label("Result tag")
            .help("the Result tag and the result token after the movetext must be equal"),
        );
    }
}

/// A `{` comment whose later lines start with turn numbers: most likely a
/// `}` was left out and a later one closed it, so that moves became
/// comment. The warning points at the `{`, its span runs to the `}`.
fn swallowed_moves(intro: &[Comment], nodes: &[Node], findings: &mut Vec<Finding>) {
    let nested = nodes.iter().filter_map(|n| match n {
        Node::Comment(c) => Some(c),
        _ => None,
    });
    for c in intro.iter().chain(nested) {
        let lines: Vec<&str> = c.text.lines().skip(1).map(str::trim).collect();
        let moves: Vec<&str> = lines
            .iter()
            .copied()
            .filter(|l| starts_with_turn_number(l))
            .collect();
        let (Some(first), Some(last)) = (moves.first(), lines.last()) else {
            continue;
        };
        let n = moves.len();
        findings.push(
            Finding::warning(
                Code::SwallowedMoves,
                format!(
                    "this comment holds {n} line{} that look{} like moves, from `{}`; it is closed only by the `}}` after `{}`",
                    if n == 1 { "" } else { "s" },
                    if n == 1 { "s" } else { "" },
                    crate::diag::printable(first),
                    crate::diag::printable(last),
                ),
                c.span,
            )
            .label("this comment, `{` to `}`")
            .help("close the comment with `}` where it should end; moves inside a comment are not checked"),
        );
    }
    for n in nodes {
        if let Node::Variation(v) = n {
            swallowed_moves(&[], &v.nodes, findings);
        }
    }
}

/// Whether a line of a comment starts as movetext does: `12.` or `12...`
/// and then a space or the end of the line.
fn starts_with_turn_number(line: &str) -> bool {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 9 || line.starts_with('0') {
        return false;
    }
    let rest = &line[digits..];
    let rest = rest.strip_prefix("...").or_else(|| rest.strip_prefix('.'));
    rest.is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t']))
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

fn with_goal(mut f: Finding, rules: &Ruleset) -> Finding {
    if !rules.end.goal_clause.is_empty() {
        f.clause = Some(rules.end.goal_clause.clone());
    }
    f
}

/// The span of a tag's value (inside the quotes).
fn value_span(t: &Tag) -> super::syntax::Span {
    t.value_span
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
    let mut ignored = Vec::new();
    let Header { rules, start, .. } =
        header::resolve(game, dir, None, cache, &mut ignored).ok()??;
    let start = start?;
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

/// The side a win token (`1-0`, `0-1`) says won.
fn claimed_winner(result: ResultToken) -> Side {
    if result == ResultToken::WhiteWins {
        Side::White
    } else {
        Side::Black
    }
}
