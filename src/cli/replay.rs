//! `senet replay GAME.sgn`: one game of a record, unit by unit, with the
//! board drawn after each unit.
//!
//! Stage: text → [`Reader`] → the chosen [`Game`] → its rule set and start
//! position → [`Replayer`] (which judges every unit and calls back with
//! each one played) → text, JSON or position strings. The walk over the
//! movetext here only presents: the replay has already decided what each
//! unit did, and the walk looks every written unit up by its span.
//!
//! `--to` says where to stop, in the labels the text output prints:
//! - `12` after round 12: the last unit of White's turn `12.` and Black's
//!   turn `12...`, whichever comes later in the game;
//! - `12.` after White's turn 12, `12...` after Black's turn 12;
//! - `12.2` after the second unit of White's turn 12, `12...3` after the
//!   third unit of Black's turn 12. Every unit written in a turn counts:
//!   a bear-off without a throw (`0:30-off`) after a throw that ends the
//!   turn is the turn's last unit, and its label says so (`29...4`).
//!
//! Exit codes: 0 the game replayed; 1 the record has a syntax error, a unit
//! that the rules forbid (the output stops there and the problem is shown),
//! a header that gives no rule set or start position, or `--to` names a
//! place the game never reaches (`senet::replay::past_end`, which says
//! where the game ends in the unit of `--to`); 2 the file cannot be read,
//! the rule set does not load, or there is no game N.

use crate::engine::constructs::PlayedUnit;
use crate::engine::{Position, Relocated, Ruleset, Side, Unit, UnitKind};
use crate::notation::board::{self, Highlight};
use crate::notation::header::{self, RulesCache};
use crate::notation::reader::Reader;
use crate::notation::replay::{Code, Finding, Replayer, Severity, Step};
use crate::notation::syntax::{CommandKind, Comment, Game, Node, ResultToken, Span, UnitSyntax};
use crate::picture::html::{GameView, StepView};
use crate::rules::{Confinement, RulesError};
use miette::NamedSource;
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The record to replay (`-` for standard input).
    #[arg(value_name = "GAME.sgn|-")]
    pub file: PathBuf,
    /// Which game of the file (1 = the first; the default is the first, or
    /// every game for `--format html`). A game the file does not have is a
    /// problem of the record (exit 1, as `--to` past the end is).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub game: Option<u32>,
    /// Stop after round TURN (`12`), White's or Black's turn (`12.`,
    /// `12...`), or a unit of that turn (`12.2`, `12...3`). A place the
    /// game never reaches is an error (exit 1) that says where it ends.
    #[arg(long, value_name = "TURN[.UNIT]", value_parser = StopAt::parse)]
    pub to: Option<StopAt>,
    /// `text` (alias `human`): each unit in words with the board;
    /// `json`, `positions`, or a picture: `html`, `svg`.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// The global `--color`: highlight the piece that moved (ANSI colours).
    #[arg(skip)]
    pub color: ColorChoice,
    /// Replay under this rule set (a built-in name, a .senet path, or `-`
    /// for standard input),
    /// whatever the record's `Rules` tag says; a record without one needs it.
    #[arg(long, value_name = "NAME|FILE|-", value_parser = super::complete::RuleSpec, hide_possible_values = true)]
    pub rules: Option<String>,
    /// Options to select with --rules (repeatable).
    #[arg(long = "option", value_name = "NAME", value_parser = super::complete::OptionName, hide_possible_values = true, requires = "rules")]
    pub options: Vec<String>,
    #[command(flatten)]
    pub record_rules: super::RecordRulesArgs,
    /// Write to FILE instead of standard output (`--format svg --every`: to
    /// the directory FILE, one numbered picture each).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// `--format svg`: a picture of the start and after every turn or unit
    /// (a strip for print), written as numbered files into `--out`.
    #[arg(long, value_enum, value_name = "turn|unit", requires = "out")]
    pub every: Option<crate::cli::board::Every>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Each unit in words with the board drawn after it.
    #[value(alias = "human")]
    Text,
    /// One JSON object: the start position and every unit.
    Json,
    /// The position string of the start and after every unit, one per line.
    Positions,
    /// One self-contained HTML page: the board, the units and step controls.
    Html,
    /// A picture of the board where the replay stops (`--to`), with the last
    /// unit as an arrow.
    Svg,
}

pub use super::ColorChoice;

/// Where `--to` stops: after the last unit whose (turn, side, unit of the
/// turn) is at most this.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StopAt {
    pub turn: u32,
    /// `None`: the whole round (both sides' turns with this number).
    pub side: Option<Side>,
    /// `None`: the whole turn.
    pub unit: Option<u32>,
}

impl StopAt {
    /// Reads `12`, `12.`, `12...`, `12.2` or `12...3`.
    pub fn parse(text: &str) -> Result<StopAt, String> {
        let bad = || {
            format!(
                "`{text}` is not a turn: write 12 (round 12), 12. or 12... (White's or Black's turn 12), or 12.2 / 12...3 (a unit of that turn)"
            )
        };
        let number = |s: &str| s.parse::<u32>().ok().filter(|&n| n > 0);
        let (turn, rest, side) = if let Some((t, r)) = text.split_once("...") {
            (t, r, Some(Side::Black))
        } else if let Some((t, r)) = text.split_once('.') {
            (t, r, Some(Side::White))
        } else {
            (text, "", None)
        };
        let turn = number(turn).ok_or_else(bad)?;
        let unit = if rest.is_empty() {
            None
        } else {
            Some(number(rest).ok_or_else(bad)?)
        };
        Ok(StopAt { turn, side, unit })
    }

    /// The (turn, side, unit) key of the first unit `--to` names: a game
    /// whose last unit comes before it never reaches the place to stop.
    fn first_key(&self) -> (u32, usize, u32) {
        (
            self.turn,
            self.side.map_or(0, Side::index),
            self.unit.unwrap_or(0),
        )
    }

    /// The last (turn, side, unit) key that is still shown.
    fn key(&self) -> (u32, usize, u32) {
        let side = self.side.map_or(1, Side::index);
        (self.turn, side, self.unit.unwrap_or(u32::MAX))
    }
}

impl fmt::Display for StopAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.turn)?;
        match self.side {
            Some(Side::White) => f.write_str(".")?,
            Some(Side::Black) => f.write_str("...")?,
            None => {}
        }
        if let Some(u) = self.unit {
            write!(f, "{u}")?;
        }
        Ok(())
    }
}

/// What to replay and how to show it.
#[derive(Debug, Clone)]
pub struct ReplayOptions {
    /// 1-based game number in the file.
    pub game: usize,
    pub to: Option<StopAt>,
    pub format: Format,
    /// ANSI highlight of the piece that moved, and colour in diagnostics.
    pub color: bool,
    /// Where the rule file the record names may be read from.
    pub confinement: Confinement,
    /// `--rules` and `--option`: the rule set to replay under, whatever
    /// the record's `Rules` tag says.
    pub rules: Option<(String, Vec<String>)>,
    /// The flag that set `to`, for messages: `--to` (`replay`) or `--at`
    /// (`board`).
    pub to_flag: &'static str,
    /// The command being run (`replay` or `board`), as help lines name it.
    pub command: &'static str,
}

impl Default for ReplayOptions {
    fn default() -> Self {
        ReplayOptions {
            game: 1,
            to: None,
            format: Format::Text,
            color: false,
            confinement: Confinement::default(),
            rules: None,
            to_flag: "--to",
            command: "replay",
        }
    }
}

/// What a replay produced: the output, and the problems that stopped it or
/// that it met in variations, rendered as diagnostics.
#[derive(Debug, Clone, Default)]
pub struct ReplayOutput {
    pub text: String,
    /// Errors: the exit code is 1 when there is one.
    pub problems: Vec<String>,
    /// Warnings about the header (as `check` gives them): printed, but the
    /// replay succeeds.
    pub warnings: Vec<String>,
}

/// Why there is nothing to replay.
#[derive(Debug)]
pub enum ReplayError {
    /// The chosen game (or the text before it) does not read: the rendered
    /// diagnostic. Exit code 1.
    Syntax(String),
    /// The file has fewer games: the request asks the record for what it
    /// does not hold, as `--to` past the end does. Exit code 1.
    NoSuchGame { asked: usize, found: usize },
    /// The rule set the game names does not load. Exit code 2.
    Rules(Arc<RulesError>),
}

impl ReplayError {
    /// The message for a game the file does not have (`--game`), with its
    /// stable code as `--to` past the end has one.
    pub fn no_such_game(&self, name: &str) -> String {
        match self {
            ReplayError::NoSuchGame { asked, found } => format!(
                "error: {name} has {found} game{}, so there is no game {asked} (--game counts \
                 from 1; senet::replay::no_such_game)",
                if *found == 1 { "" } else { "s" }
            ),
            _ => String::new(),
        }
    }
    pub fn exit_code(&self) -> u8 {
        match self {
            ReplayError::Syntax(_) | ReplayError::NoSuchGame { .. } => super::EXIT_INPUT,
            ReplayError::Rules(_) => super::EXIT_USAGE,
        }
    }
}

/// One unit as the replay played it, kept by the span of its written form.
#[derive(Debug, Clone)]
struct Played {
    written: UnitSyntax,
    before: Position,
    after: Position,
    unit: Unit,
    effects: crate::engine::Effects,
}

impl Played {
    fn from_step(s: &Step<'_>) -> Played {
        Played {
            written: *s.written,
            before: s.before,
            after: s.after,
            unit: s.unit,
            effects: s.effects,
        }
    }
    /// Where this unit stands for `--to`: its turn, side and `index`, its
    /// 1-based number within the turn.
    fn key(&self, index: u32) -> (u32, usize, u32) {
        (self.before.turn, self.before.to_move.index(), index)
    }

    /// This unit's 1-based number within its turn, `index` being the
    /// number of the unit shown before it in the line (0 for none, or
    /// after a unit the replay could not place) and `prev` that unit. A
    /// unit goes on with the turn when a throw is pending, and also when
    /// the unit before it left the same side to move in the same turn
    /// without one: the bear-off without a throw (`0:30-off`) after a
    /// throw that ends the turn, which is the turn's last unit.
    fn index_after(&self, prev: Option<&Played>, index: u32) -> u32 {
        let goes_on = prev.is_some_and(|q| {
            !q.effects.turn_ended
                && (q.after.turn, q.after.to_move) == (self.before.turn, self.before.to_move)
        });
        if self.before.extra || goes_on {
            index + 1
        } else {
            1
        }
    }
}

/// What follows a unit in the movetext and belongs to it.
struct Attached<'g> {
    comments: Vec<&'g Comment>,
    nags: Vec<u16>,
    variations: Vec<&'g [Node]>,
}

/// The comments, NAGs and variations after `nodes[i]` (a unit), and the
/// index of the next node that is not one of them.
fn attached(nodes: &[Node], i: usize) -> (Attached<'_>, usize) {
    let mut a = Attached {
        comments: Vec::new(),
        nags: Vec::new(),
        variations: Vec::new(),
    };
    let mut j = i + 1;
    while j < nodes.len() {
        match &nodes[j] {
            Node::Comment(c) => a.comments.push(c),
            Node::Nag { n, .. } => a.nags.push(*n),
            Node::Variation(v) => a.variations.push(&v.nodes),
            _ => break,
        }
        j += 1;
    }
    (a, j)
}

/// A NAG as a reader knows it: PGN's symbols, words where there is none.
pub fn nag_symbol(n: u16) -> String {
    let s = match n {
        1 => "!",
        2 => "?",
        3 => "!!",
        4 => "??",
        5 => "!?",
        6 => "?!",
        7 => "□ (forced)",
        8 => "(only move)",
        9 => "(worst move)",
        10 => "=",
        11 => "= (quiet)",
        12 => "= (active)",
        13 => "∞",
        14 => "⩲",
        15 => "⩱",
        16 => "±",
        17 => "∓",
        18 => "+-",
        19 => "-+",
        20 => "+- (crushing)",
        21 => "-+ (crushing)",
        _ => return format!("${n}"),
    };
    s.to_string()
}

/// The prose of a comment: its text without the `[%…]` commands, with
/// whitespace runs collapsed.
pub fn comment_prose(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("[%") {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        // The command ends at the first `]` outside a quoted argument.
        let mut quoted = false;
        let mut escaped = false;
        let mut end = tail.len();
        for (k, c) in tail.char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' if quoted => escaped = true,
                '"' => quoted = !quoted,
                ']' if !quoted => {
                    end = k + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &tail[end..];
        out.push(' ');
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The commands of a comment in words, one string each (`[%pos]` is left
/// out: the replay has checked it).
fn command_notes(rules: &Ruleset, c: &Comment) -> Vec<String> {
    c.commands
        .iter()
        .filter_map(|cmd| match &cmd.kind {
            CommandKind::Pos => None,
            CommandKind::Src(s) => Some(format!("source: {s}")),
            CommandKind::Conf(conf) => Some(format!("confidence: {}", conf.as_str())),
            CommandKind::Rule => {
                let clause = cmd.args.trim();
                // The fullest statement of the rule file that cites the
                // clause (a declaration may cite several: `B-11, P-5`).
                let said = rules
                    .meta
                    .explained
                    .iter()
                    .filter(|(_, c)| c.split(',').any(|c| c.trim() == clause))
                    .map(|(t, _)| t.as_str())
                    .max_by_key(|t| t.len());
                Some(match said {
                    Some(t) => format!("rule {clause}: {t}"),
                    None => format!("rule {clause}"),
                })
            }
            CommandKind::PlayedIllegal => {
                Some("played although the rules forbid it (the record says so)".to_string())
            }
            CommandKind::Eval(e) => Some(format!(
                "evaluation: {e} (win probability for the side that moved)"
            )),
            CommandKind::Other => Some(format!("[%{} {}]", cmd.name, cmd.args).replace(" ]", "]")),
        })
        .collect()
}

/// What a unit did, in words, one clause each: the constructs' gloss.
fn events(rules: &Ruleset, p: &Played) -> Vec<String> {
    let u = &p.unit;
    let throw = if let Some(f) = p.written.faces {
        format!("throw {} (sticks {f})", u.throw)
    } else {
        format!("throw {}", u.throw)
    };
    PlayedUnit {
        rules,
        unit: u,
        effects: &p.effects,
        before: &p.before,
        after: &p.after,
        throw: &throw,
    }
    .gloss()
}

/// `12.`, `12...`, or `12.2` / `12...3` for a unit of a turn of several.
fn label(p: &Played, index: u32) -> String {
    let single = index == 1 && p.effects.turn_ended;
    let dots = if p.before.to_move == Side::White {
        "."
    } else {
        "..."
    };
    if single {
        format!("{}{dots}", p.before.turn)
    } else {
        format!("{}{dots}{index}", p.before.turn)
    }
}

/// The squares to mark after a unit.
fn highlight(p: &Played) -> Highlight {
    let u = &p.unit;
    if !matches!(u.kind, UnitKind::Move | UnitKind::NoThrow) {
        return Highlight::default();
    }
    let landed = match u.relocated {
        Some(Relocated::Square(s)) => Some(s),
        Some(Relocated::Queue | Relocated::Hand) => None,
        None if u.off || u.to == 0 => None,
        None => Some(u.to),
    };
    Highlight {
        moved: landed,
        from: (p.after.at(u.from).is_none()).then_some(u.from),
        displaced: if p.effects.swap {
            p.effects.hit_to
        } else {
            None
        },
    }
}

/// One unit of the JSON output.
#[derive(Serialize)]
struct JsonUnit {
    label: String,
    turn: u32,
    side: Side,
    unit: String,
    throw: Option<u8>,
    faces: Option<String>,
    events: Vec<String>,
    effects: JsonEffects,
    comments: Vec<String>,
    commands: Vec<JsonCommand>,
    nags: Vec<u16>,
    variations: Vec<Vec<JsonUnit>>,
    position: String,
    /// For pictures: the comment commands in words, the side and unit
    /// played, and the position after it.
    #[serde(skip)]
    glosses: Vec<String>,
    #[serde(skip)]
    played: (Side, Unit),
    #[serde(skip)]
    after: Position,
}

#[derive(Serialize)]
struct JsonEffects {
    swap: bool,
    hit_to: Option<u8>,
    water: bool,
    bear_off: bool,
    pass: bool,
    skip: bool,
    backward: bool,
    truncation: bool,
    queue_join: bool,
    queue_enter: bool,
    turn_ended: bool,
    won: bool,
}

#[derive(Serialize)]
struct JsonCommand {
    name: String,
    args: String,
}

#[derive(Serialize)]
struct JsonGame<'a> {
    game: usize,
    rules: &'a str,
    start: String,
    units: Vec<JsonUnit>,
    /// The position after the last unit shown.
    end: String,
    /// Where the replay stopped early: `to` (the `--to` mark) or `illegal`.
    stopped: Option<&'static str>,
}

/// The replay of one game, walking the movetext with what the
/// [`Replayer`] saw.
struct Walk<'a> {
    rules: &'a Ruleset,
    played: HashMap<usize, Played>,
    /// Error findings of variations, by the start of their span.
    var_errors: HashMap<usize, &'a Finding>,
    /// The first error of the main line: the replay shows everything before
    /// it and stops there.
    stop_error: Option<&'a Finding>,
    opts: &'a ReplayOptions,
    out: String,
    json: Vec<JsonUnit>,
    /// Variation findings to render.
    problems: Vec<&'a Finding>,
    len: u8,
    row_len: u8,
    /// Main-line units shown, and the label of the last one (`14...2`).
    shown: usize,
    last_label: String,
    /// The `--to` key of the last main-line unit shown.
    last_key: Option<(u32, usize, u32)>,
    /// The last turn number written in the main line (number, side), for
    /// games whose last units were not replayed (after a `--`).
    last_written: Option<(u32, usize)>,
    /// Main-line units shown per turn (number, side), for a `--to` past
    /// the end to say where the game ends in its own terms.
    /// With the span of the turn's last unit shown.
    turn_units: HashMap<(u32, usize), (u32, Span)>,
}

impl<'a> Walk<'a> {
    fn pos_string(&self, p: &Position) -> String {
        p.write(self.len, self.row_len)
    }

    /// Comments and NAGs of a unit as text lines.
    fn notes(&self, a: &Attached<'_>) -> Vec<String> {
        let mut lines = Vec::new();
        for c in &a.comments {
            let prose = comment_prose(&c.text);
            if !prose.is_empty() {
                lines.push(format!("“{}”", crate::diag::printable(&prose)));
            }
            for n in command_notes(self.rules, c) {
                lines.push(n);
            }
        }
        lines
    }

    fn nags_text(nags: &[u16]) -> String {
        nags.iter()
            .map(|&n| nag_symbol(n))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn json_unit(
        &self,
        p: &Played,
        index: u32,
        a: &Attached<'_>,
        variations: Vec<Vec<JsonUnit>>,
    ) -> JsonUnit {
        let fx = &p.effects;
        JsonUnit {
            label: label(p, index),
            turn: p.before.turn,
            side: p.before.to_move,
            unit: p.unit.to_string(),
            throw: match p.unit.kind {
                UnitKind::Skip => None,
                _ => Some(p.unit.throw),
            },
            faces: p.written.faces.map(|f| f.to_string()),
            events: events(self.rules, p),
            effects: JsonEffects {
                swap: fx.swap,
                hit_to: fx.hit_to,
                water: fx.water,
                bear_off: fx.bear_off,
                pass: fx.pass,
                skip: fx.skip,
                backward: fx.backward,
                truncation: fx.truncation,
                queue_join: fx.queue_join,
                queue_enter: fx.queue_enter,
                turn_ended: fx.turn_ended,
                won: fx.won,
            },
            comments: a
                .comments
                .iter()
                .map(|c| comment_prose(&c.text))
                .filter(|t| !t.is_empty())
                .collect(),
            commands: a
                .comments
                .iter()
                .flat_map(|c| c.commands.iter())
                .map(|c| JsonCommand {
                    name: c.name.to_string(),
                    args: c.args.clone(),
                })
                .collect(),
            nags: a.nags.clone(),
            variations,
            position: self.pos_string(&p.after),
            glosses: a
                .comments
                .iter()
                .flat_map(|c| command_notes(self.rules, c))
                .collect(),
            played: (p.before.to_move, p.unit),
            after: p.after,
        }
    }

    /// A variation, listed with `indent` levels: each unit in words, no
    /// board; the position string after its last unit. Returns the units
    /// for JSON.
    fn variation(&mut self, nodes: &'a [Node], indent: usize) -> Vec<JsonUnit> {
        let pad = "   ".repeat(indent);
        let mut json = Vec::new();
        let mut index = 0u32;
        let mut prev: Option<Played> = None;
        let mut last: Option<Position> = None;
        let mut i = 0;
        if self.opts.format == Format::Text {
            self.out.push_str(&format!("{pad}( variation\n"));
        }
        while i < nodes.len() {
            match &nodes[i] {
                Node::Unit(u) => {
                    let (a, next) = attached(nodes, i);
                    let mut sub = Vec::new();
                    match self.played.get(&u.span.start).cloned() {
                        Some(p) => {
                            index = p.index_after(prev.as_ref(), index);
                            prev = Some(p.clone());
                            last = Some(p.after);
                            if self.opts.format == Format::Text {
                                let nags = Self::nags_text(&a.nags);
                                let head = format!(
                                    "{pad}   {} {}  {}",
                                    label(&p, index),
                                    p.before.to_move,
                                    p.unit
                                );
                                self.out.push_str(head.trim_end());
                                if !nags.is_empty() {
                                    self.out.push_str(&format!(" {nags}"));
                                }
                                self.out.push('\n');
                                self.out.push_str(&format!(
                                    "{pad}      {}\n",
                                    events(self.rules, &p).join("; ")
                                ));
                                for n in self.notes(&a) {
                                    self.out.push_str(&format!("{pad}      {n}\n"));
                                }
                            }
                            for v in &a.variations {
                                sub.push(self.variation(v, indent + 1));
                            }
                            json.push(self.json_unit(&p, index, &a, sub));
                        }
                        None => {
                            if let Some(f) = self.var_errors.get(&u.span.start).copied() {
                                if self.opts.format == Format::Text {
                                    self.out
                                        .push_str(&format!("{pad}   {u}  ✗ {}\n", f.message));
                                }
                                self.problems.push(f);
                            } else if self.opts.format == Format::Text {
                                self.out.push_str(&format!(
                                    "{pad}   {u}  (not replayed: the line is out of step)\n"
                                ));
                            }
                            if self.opts.format == Format::Text {
                                for n in self.notes(&a) {
                                    self.out.push_str(&format!("{pad}      {n}\n"));
                                }
                            }
                            for v in &a.variations {
                                self.variation(v, indent + 1);
                            }
                            prev = None;
                            last = None;
                        }
                    }
                    i = next;
                    continue;
                }
                // A comment right after `(` labels the variation.
                Node::Comment(c) if i == 0 && self.opts.format == Format::Text => {
                    let prose = comment_prose(&c.text);
                    if !prose.is_empty() {
                        self.out
                            .push_str(&format!("{pad}   “{}”\n", crate::diag::printable(&prose)));
                    }
                }
                _ => {}
            }
            i += 1;
        }
        if self.opts.format == Format::Text {
            match last {
                Some(p) => self
                    .out
                    .push_str(&format!("{pad})  {}\n", self.pos_string(&p))),
                None => self.out.push_str(&format!("{pad})\n")),
            }
        }
        json
    }

    /// The main line. Returns why it stopped early, if it did.
    fn main_line(
        &mut self,
        nodes: &'a [Node],
        start: &Position,
    ) -> (Option<&'static str>, Position) {
        let mut index = 0u32;
        // The unit shown before, while the line is in step.
        let mut prev: Option<Played> = None;
        let mut now = *start;
        // The turn number last written, for units the replay could not place.
        let mut written_turn = String::new();
        let limit = self.opts.to.map(|t| t.key());
        let mut i = 0;
        while i < nodes.len() {
            let u = match &nodes[i] {
                Node::Unit(u) => u,
                Node::TurnNumber { number, black, .. } => {
                    written_turn = format!("{number}{} ", if *black { "..." } else { "." });
                    self.last_written = Some((*number, *black as usize));
                    i += 1;
                    continue;
                }
                _ => {
                    i += 1;
                    continue;
                }
            };
            let (a, next) = attached(nodes, i);
            if let Some(f) = self.stop_error
                && f.span.start < u.span.start
            {
                return (Some("illegal"), now);
            }
            let Some(p) = self.played.get(&u.span.start).cloned() else {
                if self.stop_error.is_some_and(|f| f.span.start < u.span.end) {
                    return (Some("illegal"), now);
                }
                // A gap (`--`) or a unit after one: the replay is out of step
                // until a `[%pos]` puts it back, and the record's position is
                // then all there is to show.
                let asserted = a.comments.iter().rev().find_map(|c| {
                    c.pos()
                        .and_then(|(t, _)| Position::parse(t, self.len, self.row_len).ok())
                });
                match self.opts.format {
                    Format::Text => {
                        let state = if asserted.is_some() {
                            "the record gives the position after it"
                        } else {
                            "the position is unknown until the next [%pos]"
                        };
                        self.out
                            .push_str(&format!("{written_turn}{u}  (not replayed: {state})\n"));
                        for n in self.notes(&a) {
                            self.out.push_str(&format!("   {n}\n"));
                        }
                        if let Some(q) = &asserted {
                            self.out.push_str(&board::draw(
                                self.rules,
                                q,
                                &Highlight::default(),
                                self.opts.color,
                            ));
                            self.out
                                .push_str(&format!("   {}\n", board::status(self.rules, q)));
                            self.out.push_str(&format!("   {}\n", self.pos_string(q)));
                        }
                        self.out.push('\n');
                    }
                    Format::Positions => {
                        if let Some(q) = &asserted {
                            self.out.push_str(&self.pos_string(q));
                            self.out.push('\n');
                        }
                    }
                    Format::Json | Format::Html | Format::Svg => {}
                }
                if let Some(q) = asserted {
                    now = q;
                }
                index = 0;
                prev = None;
                i = next;
                continue;
            };
            let this = p.index_after(prev.as_ref(), index);
            if limit.is_some_and(|l| p.key(this) > l) {
                return (Some("to"), now);
            }
            index = this;
            prev = Some(p.clone());
            now = p.after;
            self.shown += 1;
            self.last_label = label(&p, index);
            self.last_key = Some(p.key(index));
            self.turn_units
                .insert((p.before.turn, p.before.to_move.index()), (index, u.span));
            match self.opts.format {
                Format::Positions => {
                    self.out.push_str(&self.pos_string(&p.after));
                    self.out.push('\n');
                    // Walked for their problems only.
                    for v in &a.variations {
                        self.variation(v, 1);
                    }
                }
                Format::Text => {
                    let nags = Self::nags_text(&a.nags);
                    let mut head = format!("{} {}  {}", label(&p, index), p.before.to_move, p.unit);
                    if !nags.is_empty() {
                        head.push_str(&format!("  {nags}"));
                    }
                    self.out.push_str(&head);
                    self.out.push('\n');
                    self.out
                        .push_str(&format!("   {}\n", events(self.rules, &p).join("; ")));
                    for n in self.notes(&a) {
                        self.out.push_str(&format!("   {n}\n"));
                    }
                    self.out.push_str(&board::draw(
                        self.rules,
                        &p.after,
                        &highlight(&p),
                        self.opts.color,
                    ));
                    self.out
                        .push_str(&format!("   {}\n", board::status(self.rules, &p.after)));
                    self.out
                        .push_str(&format!("   {}\n", self.pos_string(&p.after)));
                    for v in &a.variations {
                        self.variation(v, 1);
                    }
                    self.out.push('\n');
                }
                Format::Json | Format::Html | Format::Svg => {
                    let mut vars = Vec::new();
                    for v in &a.variations {
                        vars.push(self.variation(v, 1));
                    }
                    let j = self.json_unit(&p, index, &a, vars);
                    self.json.push(j);
                }
            }
            i = next;
        }
        if self.stop_error.is_some() {
            return (Some("illegal"), now);
        }
        (None, now)
    }
}

/// The finding for a `--to` that names a place the game never reaches: a
/// round, a turn or a unit after its last one, or a unit after the last
/// one of its turn. The message gives the game's length in the unit of
/// `--to`: rounds for `12`, a side's turns for `12.` and `12...`, a turn's
/// units for `12.2`. `stopped`: the walk stopped at `--to` before the end.
fn past_end(t: StopAt, stopped: bool, walk: &Walk<'_>, game: &Game) -> Option<Finding> {
    let flag = walk.opts.to_flag;
    let side = t.side.map(Side::index);
    // A unit beyond the last of a turn that the game has.
    if let (Some(u), Some(s)) = (t.unit, side)
        && let Some(&(n, last)) = walk.turn_units.get(&(t.turn, s))
        && u > n
    {
        let turn = StopAt { unit: None, ..t };
        let plural = if n == 1 { "" } else { "s" };
        return Some(
            Finding::error(
                Code::PastEnd,
                format!("{flag} {t} is past the end of turn {turn}: it has {n} unit{plural}"),
                last,
            )
            .label(format!("the last unit of {turn}"))
            .help(format!(
                "give {flag} {turn}{n} or an earlier unit of the turn, or leave {flag} out to replay the whole game"
            )),
        );
    }
    if stopped {
        return None;
    }
    let reached = walk.last_key.is_some_and(|last| t.first_key() <= last);
    // Units after a gap (`--`) are not replayed: where they end is unknown.
    let unreplayed = walk.last_written.is_some_and(|(n, s)| {
        (t.turn, side.unwrap_or(0)) <= (n, s)
            && walk.last_key.is_none_or(|(ln, ls, _)| (ln, ls) != (n, s))
    });
    if reached || unreplayed {
        return None;
    }
    let Some((last_turn, _, _)) = walk.last_key else {
        return Some(past(
            format!("{flag} {t} is past the end of the game: it has no units"),
            "leave {flag} out: there is nothing to stop after".to_string(),
            game,
        ));
    };
    let (message, help) = match t.side {
        // A round: the game's rounds.
        None => (
            format!(
                "{flag} {t} is past the end of the game: it has {last_turn} round{}",
                if last_turn == 1 { "" } else { "s" }
            ),
            format!(
                "give {flag} {last_turn} or an earlier round, or leave {flag} out to replay the whole game"
            ),
        ),
        // A side's turn (or a unit of one): that side's last turn.
        Some(s) => {
            let last = walk
                .turn_units
                .keys()
                .filter(|(_, k)| *k == s.index())
                .map(|(n, _)| *n)
                .max();
            let dots = if s == Side::White { "." } else { "..." };
            match last {
                Some(n) => (
                    format!("{flag} {t} is past the end of the game: {s}'s last turn is {n}{dots}"),
                    format!(
                        "give {flag} {n}{dots} or an earlier turn, or leave {flag} out to replay the whole game"
                    ),
                ),
                None => (
                    format!("{flag} {t} is past the end of the game: {s} has no turn in it"),
                    format!(
                        "give a turn of the other side, or {flag} {last_turn}, or leave {flag} out to replay the whole game"
                    ),
                ),
            }
        }
    };
    Some(past(message, help, game))
}

/// A `senet::replay::past_end` finding at the game's result.
fn past(message: String, help: String, game: &Game) -> Finding {
    Finding::error(Code::PastEnd, message, game.result_span)
        .label("the game ends here")
        .help(help)
}

/// Replays game `opts.game` of `text` (read from `name`, whose directory
/// `dir` a relative `Rules` path is resolved against).
pub fn render_replay(
    text: &str,
    name: &str,
    dir: Option<&Path>,
    opts: &ReplayOptions,
) -> Result<ReplayOutput, ReplayError> {
    replay_game(text, name, dir, opts).map(|(out, _)| out)
}

/// [`render_replay`], and for the picture formats the game as walked (none
/// when the header gives no rule set or start position).
pub fn replay_game(
    text: &str,
    name: &str,
    dir: Option<&Path>,
    opts: &ReplayOptions,
) -> Result<(ReplayOutput, Option<GameView>), ReplayError> {
    let mut found = 0;
    let mut chosen = None;
    // The source under a diagnostic, with no raw control characters.
    let shown = crate::diag::printable_source(text);
    for item in Reader::new(text) {
        found += 1;
        if found == opts.game {
            chosen = Some(item);
            break;
        }
    }
    let game = match chosen {
        None => {
            return Err(ReplayError::NoSuchGame {
                asked: opts.game,
                found,
            });
        }
        Some(Err(e)) => {
            let report =
                miette::Report::new(e).with_source_code(NamedSource::new(name, shown.to_string()));
            return Err(ReplayError::Syntax(super::render_with(
                report.as_ref(),
                opts.color,
            )));
        }
        Some(Ok(g)) => g,
    };
    let src = || NamedSource::new(name, shown.to_string());
    let problem = |f: &Finding| {
        super::render_with(
            &super::FindingReport {
                f,
                src: src(),
                game: opts.game,
                players: String::new(),
            },
            opts.color,
        )
    };
    let over = opts.rules.as_ref().map(|(r, o)| (r.as_str(), o.as_slice()));
    let mut cache = RulesCache::new(opts.confinement.clone()).for_command(opts.command);
    if over.is_some_and(|(spec, _)| spec == "-") {
        let file = super::stdin_rule_file().map_err(|e| ReplayError::Rules(Arc::new(e)))?;
        cache = cache.with_given_rules(file);
    }
    // The header step `check` takes, with its findings: a mistake in the
    // tags is a problem of the record at the tag (exit 1 for an error); a
    // rule file that does not compile is not (exit 2).
    let mut found = Vec::new();
    let resolved =
        header::resolve(&game, dir, over, &mut cache, &mut found).map_err(ReplayError::Rules)?;
    let (errors, warnings): (Vec<&Finding>, Vec<&Finding>) =
        found.iter().partition(|f| f.severity == Severity::Error);
    let mut header_problems: Vec<String> = errors.iter().map(|f| problem(f)).collect();
    let warnings: Vec<String> = warnings.iter().map(|f| problem(f)).collect();
    let Some(header::Header {
        choice,
        rules,
        start: Some(start),
    }) = resolved
    else {
        if header_problems.is_empty() {
            let head = header::head_span(&game);
            header_problems.push(problem(&Finding::error(
                Code::Setup,
                "the game has no usable start position",
                head,
            )));
        }
        return Ok((
            ReplayOutput {
                text: String::new(),
                problems: header_problems,
                warnings,
            },
            None,
        ));
    };
    let options = &choice.options;

    let mut played = HashMap::new();
    let mut visit = |s: &Step<'_>| {
        played.insert(s.written.span.start, Played::from_step(s));
    };
    let replayed = Replayer::new(&rules, 1000)
        .visiting(&mut visit)
        .replay(&game, start);
    let errors: Vec<&Finding> = replayed
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .collect();
    let stop_error = errors
        .iter()
        .filter(|f| !f.in_variation)
        .min_by_key(|f| f.span.start)
        .copied();
    let var_errors = errors
        .iter()
        .filter(|f| f.in_variation)
        .map(|f| (f.span.start, *f))
        .collect();

    let mut walk = Walk {
        rules: &rules,
        played,
        var_errors,
        stop_error,
        opts,
        out: String::new(),
        json: Vec::new(),
        problems: Vec::new(),
        len: rules.board.len,
        row_len: rules.board.row_len,
        shown: 0,
        last_label: String::new(),
        last_key: None,
        last_written: None,
        turn_units: HashMap::new(),
    };
    match opts.format {
        Format::Positions => {
            walk.out.push_str(&walk.pos_string(&start));
            walk.out.push('\n');
        }
        Format::Text => {
            let mut intro = vec![format!("Game {}", opts.game)];
            if let (Some(w), Some(b)) = (game.tag("White"), game.tag("Black")) {
                use crate::diag::printable;
                intro[0].push_str(&format!(
                    ": {} (White) – {} (Black)",
                    printable(w),
                    printable(b)
                ));
            }
            if let Some(e) = game.tag("Event") {
                intro.push(format!("Event: {}", crate::diag::printable(e)));
            }
            let mut r = format!("Rules: {}", rules.meta.name);
            if !rules.meta.title.is_empty() {
                r.push_str(&format!(" ({})", rules.meta.title));
            }
            if !options.is_empty() {
                r.push_str(&format!("; options {}", options.join(", ")));
            }
            intro.push(r);
            let legend = board::legend(&rules);
            if !legend.is_empty() {
                intro.push("Houses:".to_string());
                intro.extend(legend.into_iter().map(|l| format!("   {l}")));
            }
            intro.push(board::marks_legend(opts.color).to_string());
            for c in &game.intro {
                let prose = comment_prose(&c.text);
                if !prose.is_empty() {
                    intro.push(format!("“{prose}”"));
                }
                intro.extend(command_notes(&rules, c));
            }
            walk.out.push_str(&intro.join("\n"));
            walk.out.push_str("\n\nStart\n");
            walk.out.push_str(&board::draw(
                &rules,
                &start,
                &Highlight::default(),
                opts.color,
            ));
            walk.out
                .push_str(&format!("   {}\n", board::status(&rules, &start)));
            walk.out
                .push_str(&format!("   {}\n\n", walk.pos_string(&start)));
        }
        Format::Json | Format::Html | Format::Svg => {}
    }
    let (stopped, end) = walk.main_line(&game.nodes, &start);
    let mut problems = header_problems;
    problems.extend(walk.problems.iter().map(|f| problem(f)));
    // `--to` named a unit after the last of its turn: the walk stopped
    // after that turn.
    let mut past_turn = false;
    if stopped == Some("illegal") {
        if let Some(f) = walk.stop_error {
            problems.push(problem(f));
            if opts.format == Format::Text {
                walk.out.push_str(&format!("Stopped: {}\n", f.message));
            }
        }
    } else if let Some(t) = opts.to
        && let Some(f) = past_end(t, stopped.is_some(), &walk, &game)
    {
        past_turn = stopped.is_some();
        problems.push(problem(&f));
    }
    // `--to` named the game's last unit (or its turn): the walk ran to the
    // end and reached it, which is stopping there.
    let stopped = match (stopped, opts.to) {
        (None, Some(t)) if walk.last_key.is_some_and(|last| t.first_key() <= last) => Some("to"),
        (s, _) => s,
    };
    if stopped != Some("illegal") && opts.format == Format::Text {
        match (stopped, opts.to) {
            (Some(_), Some(t)) if past_turn => walk.out.push_str(&format!(
                "Stopped after {}, the last unit of its turn (--to {t})\n",
                walk.last_label
            )),
            (Some(_), Some(t)) => walk.out.push_str(&format!("Stopped after {t} (--to)\n")),
            (None, Some(t)) => walk
                .out
                .push_str(&format!("The game ends before {t}: {}\n", game.result)),
            _ => walk.out.push_str(&format!(
                "Result: {}{}\n",
                game.result,
                if game.result == ResultToken::Draw {
                    " (drawn)"
                } else {
                    ""
                }
            )),
        }
    }
    if opts.format == Format::Json {
        let j = JsonGame {
            game: opts.game,
            rules: &rules.meta.name,
            start: walk.pos_string(&start),
            units: std::mem::take(&mut walk.json),
            end: walk.pos_string(&end),
            stopped,
        };
        walk.out = serde_json::to_string_pretty(&j).expect("plain data serialises");
        walk.out.push('\n');
    }
    let view = matches!(opts.format, Format::Html | Format::Svg).then(|| {
        let ending = match (stopped, opts.to) {
            (Some("illegal"), _) => walk
                .stop_error
                .map_or("Stopped".to_string(), |f| format!("Stopped: {}", f.message)),
            (Some(_), Some(t)) => format!("Stopped after {t}"),
            (None, Some(t)) => format!("The game ends before {t}: {}", game.result),
            _ => format!("Result: {}", game.result),
        };
        let mut intro = Vec::new();
        for c in &game.intro {
            let prose = comment_prose(&c.text);
            if !prose.is_empty() {
                intro.push(prose);
            }
            intro.extend(command_notes(&rules, c));
        }
        GameView {
            number: opts.game,
            tags: game
                .tags
                .iter()
                .map(|t| (t.name.clone(), t.value.clone()))
                .collect(),
            intro,
            steps: std::mem::take(&mut walk.json)
                .into_iter()
                .map(step_view)
                .collect(),
            rules: (*rules).clone(),
            start,
            ending,
        }
    });
    Ok((
        ReplayOutput {
            text: walk.out,
            problems,
            warnings,
        },
        view,
    ))
}

/// A unit of the walk as the pictures show it.
fn step_view(j: JsonUnit) -> StepView {
    StepView {
        label: j.label,
        text: j.unit,
        events: j.events,
        throw: j.throw,
        faces: j.faces,
        comments: j.comments,
        glosses: j.glosses,
        nags: j.nags.iter().map(|&n| nag_symbol(n)).collect(),
        played: j.played,
        after: j.after,
        variations: j
            .variations
            .into_iter()
            .map(|v| v.into_iter().map(step_view).collect())
            .collect(),
    }
}

pub fn run(args: ReplayArgs) -> ExitCode {
    let color = args.color.on(std::io::stdout().is_terminal());
    if let Err(code) = super::stdin_once(&args.file, args.rules.as_deref()) {
        return code;
    }
    let (name, text, dir) = match super::read_record(&args.file) {
        Ok(read) => read,
        Err(code) => return code,
    };
    if matches!(args.format, Format::Html | Format::Svg) {
        return super::board::replay_pictures(&args, &text, &name, dir.as_deref());
    }
    if args.every.is_some() {
        errln!("error: --every draws pictures: use it with --format svg");
        return ExitCode::from(super::EXIT_USAGE);
    }
    let opts = ReplayOptions {
        game: args.game.unwrap_or(1) as usize,
        to: args.to,
        format: args.format,
        color: color && args.out.is_none(),
        confinement: args.record_rules.confinement(),
        rules: args.rules.clone().map(|r| (r, args.options.clone())),
        to_flag: "--to",
        command: "replay",
    };
    match render_replay(&text, &name, dir.as_deref(), &opts) {
        Ok(out) => {
            if let Some(path) = &args.out {
                if let Err(e) =
                    super::replace::replace_with(path, false, |w| w.write_all(out.text.as_bytes()))
                {
                    errln!("error: cannot write {}: {e}", path.display());
                    return ExitCode::from(super::EXIT_USAGE);
                }
            } else {
                super::out::bytes(out.text.as_bytes());
            }
            for p in out.warnings.iter().chain(&out.problems) {
                err!("{p}");
            }
            if out.problems.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(super::EXIT_INPUT)
            }
        }
        Err(e) => {
            match &e {
                ReplayError::Syntax(rendered) => err!("{rendered}"),
                ReplayError::NoSuchGame { .. } => errln!("{}", e.no_such_game(&name)),
                ReplayError::Rules(r) => err!(
                    "{}",
                    super::options::GivenOptions::flags(&args.options).render(r, color)
                ),
            }
            ExitCode::from(e.exit_code())
        }
    }
}
