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
use super::syntax::{Comment, Game, Node, ResultToken, Tag};
use crate::engine::{Goal, Ruleset, Side};
use crate::rules::RulesError;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

pub use super::header::RulesCache;

pub use super::header::{PROVENANCE, READ, ROSTER};

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
    let tag = |name: &str| game.tags.iter().find(|t| t.name == name);

    swallowed_moves(&game.intro, &game.nodes, &mut findings);

    // The header: the tags, the rule set and the start position.
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
                // LK-19: the turn limit drew it.
                findings.push(if rules.turn_limit_reached(&end) {
                    f.clause(&rules.end.turn_limit_clause)
                } else {
                    with_goal(f, &rules)
                });
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

/// A `{` comment whose later lines start with turn numbers: most likely a
/// `}` was left out and a later one closed it, so that moves became
/// comment. The warning points at the `{`, its span runs to the `}`.
pub(crate) fn swallowed_moves(intro: &[Comment], nodes: &[Node], findings: &mut Vec<Finding>) {
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
