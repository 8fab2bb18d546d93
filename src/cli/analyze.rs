//! `senet analyze`: every unit of every game valued, the errors marked, and
//! per side an error rate and a luck figure; as a table, as JSON Lines, or
//! as the record itself with NAGs and `[%eval]` comments added.

use crate::analysis::game::{self, Choice, Mark, SideSummary, Thresholds, UnitReport};
use crate::analysis::{Budget, Policy, Settings};
use crate::engine::{Position, Ruleset, Unit};
use crate::notation::header::{self, Header};
use crate::notation::replay::{Replayer, Severity, Step};
use crate::notation::syntax::{Command, CommandKind, Comment, Game, Node, Span};
use crate::notation::{Reader, write_games};
use miette::NamedSource;
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// How positions are valued: shared by `analyze` and `best`.
#[derive(Debug, Clone, clap::Args)]
pub struct EvalArgs {
    /// Throws searched, counting the current one (1: each unit valued by
    /// rollouts of the position it leads to).
    #[arg(long, default_value_t = 1)]
    pub depth: u8,
    /// Rollouts per position at the end of the search.
    #[arg(long, default_value_t = 100)]
    pub rollouts: u32,
    /// How rollouts choose their units.
    #[arg(long, value_enum, default_value_t = RolloutPolicy::Greedy)]
    pub policy: RolloutPolicy,
    /// The rollouts' seed: the same seed gives the same values on any
    /// number of threads.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Solve positions exactly when this many pieces or fewer are left in
    /// play, both sides together (0: never).
    #[arg(long, default_value_t = 2)]
    pub exact_pieces: u8,
    /// Most positions expanded per query before the search stops deepening.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Most seconds per query before the search stops deepening (values
    /// then depend on the machine's speed).
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RolloutPolicy {
    Greedy,
    Random,
}

/// The longest `--time`: a day, far inside what a `Duration` holds.
const MAX_TIME: f64 = 86_400.0;

impl EvalArgs {
    pub fn settings(&self) -> Result<Settings, ExitCode> {
        if self.depth == 0 || self.rollouts == 0 {
            errln!("error: --depth and --rollouts take a whole number from 1");
            return Err(ExitCode::from(super::EXIT_USAGE));
        }
        let time = match self.time {
            Some(t) if !(t > 0.0 && t <= MAX_TIME) => {
                errln!("error: --time takes a number of seconds above 0, at most {MAX_TIME}");
                return Err(ExitCode::from(super::EXIT_USAGE));
            }
            t => t.map(Duration::from_secs_f64),
        };
        Ok(Settings {
            depth: self.depth,
            rollouts: self.rollouts,
            policy: match self.policy {
                RolloutPolicy::Greedy => Policy::Greedy,
                RolloutPolicy::Random => Policy::Random,
            },
            seed: self.seed,
            exact_pieces: self.exact_pieces,
            budget: Budget {
                nodes: self.nodes,
                time,
            },
            ..Settings::default()
        })
    }
}

#[derive(Debug, clap::Args)]
pub struct AnalyzeArgs {
    /// SGN files (`-` for standard input).
    #[arg(required = true, value_name = "FILE|-")]
    pub files: Vec<PathBuf>,
    /// Analyse under this rule set, whatever the records' headers say
    /// (`-`: a rule file on standard input).
    #[arg(long, value_name = "NAME|FILE|-", value_parser = super::complete::RuleSpec, hide_possible_values = true)]
    pub rules: Option<String>,
    /// Options to select with --rules (repeatable).
    #[arg(long = "option", value_name = "NAME", value_parser = super::complete::OptionName, hide_possible_values = true, requires = "rules")]
    pub options: Vec<String>,
    #[command(flatten)]
    pub record_rules: super::RecordRulesArgs,
    #[command(flatten)]
    pub eval: EvalArgs,
    /// Rollouts per leaf when the unit played and the three best units of
    /// its throw are valued again for the loss (0: not again).
    #[arg(long, default_value_t = 400)]
    pub refine: u32,
    /// The losses (in the mover's probability of winning) from which a
    /// unit is marked `?!`, `?` and `??`.
    #[arg(long, value_name = "DUBIOUS,MISTAKE,BLUNDER", default_value = "0.02,0.05,0.10", value_parser = parse_marks)]
    pub marks: Thresholds,
    /// Write the records with the marks as NAGs and the values as `[%eval]`
    /// comments, to standard output or --out.
    #[arg(long, conflicts_with = "format")]
    pub annotate: bool,
    /// Where --annotate writes (one input file only).
    #[arg(long, value_name = "FILE", requires = "annotate")]
    pub out: Option<PathBuf>,
    /// Threads (default: every core; at most 256). The values do not
    /// depend on it.
    #[arg(long, value_parser = super::thread_count)]
    pub threads: Option<usize>,
    #[arg(long, value_enum)]
    pub format: Option<Format>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    #[value(alias = "human")]
    Text,
    Json,
}

/// `0.02,0.05,0.10`: three increasing losses between 0 and 1.
pub fn parse_marks(s: &str) -> Result<Thresholds, String> {
    let v: Vec<f64> = s
        .split(',')
        .map(|x| x.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("`{s}`: write three numbers, e.g. 0.02,0.05,0.10"))?;
    match v[..] {
        [a, b, c] if 0.0 <= a && a <= b && b <= c && c <= 1.0 => Ok(Thresholds {
            dubious: a,
            mistake: b,
            blunder: c,
        }),
        _ => Err(format!(
            "`{s}`: three losses from 0 to 1 in increasing order, for ?!, ? and ??"
        )),
    }
}

/// A game's main line as positions and units, or why it cannot be analysed.
struct Line {
    rules: Ruleset,
    moves: Vec<(Position, Unit)>,
    /// The span start of each move's written unit.
    spans: Vec<usize>,
}

/// Resolves the game's rules and start and replays its main line. Problems
/// in the record (the header's warnings too) are rendered into `problems`,
/// and `header_failed` says whether the header has an error; a rule file that does not
/// load is `Err` (exit code 2).
fn line(
    game: &Game,
    args: &AnalyzeArgs,
    dir: Option<&Path>,
    src: &dyn Fn() -> NamedSource<String>,
    problems: &mut Vec<String>,
    header_failed: &mut bool,
) -> Result<Option<Line>, String> {
    let report = |f: &crate::notation::replay::Finding| {
        super::render(&super::FindingReport {
            f,
            src: src(),
            game: game.index,
            players: String::new(),
        })
    };
    // The header step shared with check, replay and fmt: the rules (from
    // --rules, or the record's tags within the allowed folders) and the
    // start position.
    let mut findings = Vec::new();
    let over = args.rules.as_deref().map(|r| (r, args.options.as_slice()));
    let mut cache =
        super::record_rules_cache(args.record_rules.confinement(), args.rules.as_deref(), &[])
            .map_err(|_| String::new())?
            .for_command("analyze");
    let resolved = header::resolve(game, dir, over, &mut cache, &mut findings).map_err(|e| {
        use std::io::IsTerminal;
        let colour = super::color_choice().on(std::io::stderr().is_terminal());
        super::options::GivenOptions::flags(&args.options).render(&e, colour)
    })?;
    // Its findings, as `check` gives them; an error fails the run (exit
    // 1) but leaves a game with a start to analyse.
    problems.extend(findings.iter().map(report));
    *header_failed = findings.iter().any(|f| f.severity == Severity::Error);
    let Some(Header {
        rules,
        start: Some(start),
        ..
    }) = resolved
    else {
        return Ok(None);
    };
    let rules: Ruleset = (*rules).clone();
    let mut moves = Vec::new();
    let mut spans = Vec::new();
    let mut visit = |s: &Step<'_>| {
        if !s.in_variation {
            moves.push((s.before, s.unit));
            spans.push(s.written.span.start);
        }
    };
    let replayed = Replayer::new(&rules, 20)
        .visiting(&mut visit)
        .replay(game, start);
    let errors: Vec<_> = replayed
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error && !f.in_variation)
        .collect();
    if !errors.is_empty() {
        problems.extend(errors.into_iter().map(report));
        return Ok(None);
    }
    Ok(Some(Line {
        rules,
        moves,
        spans,
    }))
}

#[derive(Serialize)]
struct JsonUnit<'a> {
    game: usize,
    turn: u32,
    side: &'a str,
    throw: u8,
    unit: String,
    value: f64,
    best: String,
    best_value: f64,
    loss: f64,
    mark: Option<&'static str>,
    luck: f64,
    choices: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<f64>,
}

#[derive(Serialize)]
struct JsonSummary<'a> {
    game: usize,
    rules: &'a str,
    summary: Summaries,
}

#[derive(Serialize)]
struct Summaries {
    white: SideSummary,
    black: SideSummary,
}

fn r4(x: f64) -> f64 {
    super::best::round(x)
}

fn json_lines(game: usize, rules: &Ruleset, reports: &[UnitReport], out: &mut String) {
    for r in reports {
        let j = JsonUnit {
            game,
            turn: r.turn,
            side: r.side.name(),
            throw: r.unit.throw,
            unit: r.unit.to_string(),
            value: r4(r.value.win),
            best: r.best.to_string(),
            best_value: r4(r.best_value.win),
            loss: r4(r.loss),
            mark: r.mark.map(Mark::symbol),
            luck: r4(r.luck),
            choices: r.choices,
            score: r.value.score.map(r4),
        };
        out.push_str(&serde_json::to_string(&j).expect("plain data serialises"));
        out.push('\n');
    }
    let [white, black] = game::summary(reports);
    let s = JsonSummary {
        game,
        rules: &rules.meta.name,
        summary: Summaries {
            white: rounded(white),
            black: rounded(black),
        },
    };
    out.push_str(&serde_json::to_string(&s).expect("plain data serialises"));
    out.push('\n');
}

fn rounded(mut s: SideSummary) -> SideSummary {
    s.total_loss = r4(s.total_loss);
    s.error_rate = r4(s.error_rate);
    s.luck = r4(s.luck);
    s
}

fn table(game: &Game, rules: &Ruleset, settings: &Settings, reports: &[UnitReport]) -> String {
    let mut out = format!("Game {}", game.index);
    if let (Some(w), Some(b)) = (game.tag("White"), game.tag("Black")) {
        // Tags go to a terminal: no raw control characters.
        let (w, b) = (crate::diag::printable(w), crate::diag::printable(b));
        out.push_str(&format!(": {w} (White) – {b} (Black)"));
    }
    out.push_str(&format!(
        "\nRules: {}; depth {}, {} rollouts per leaf, seed {}\nValues: White's probability of winning; loss and luck: the mover's\n\n",
        rules.meta.name, settings.depth, settings.rollouts, settings.seed
    ));
    let w = reports
        .iter()
        .map(|r| r.unit.to_string().len().max(r.best.to_string().len()))
        .max()
        .unwrap_or(4)
        .max(4);
    out.push_str(&format!(
        "{:<7} {:<w$}  {:>6}  {:<w$}  {:>6}  {:>6}  {:<4} {:>7}\n",
        "turn", "unit", "value", "best", "value", "loss", "mark", "luck"
    ));
    for r in reports {
        let label = match r.side {
            crate::engine::Side::White => format!("{}.", r.turn),
            crate::engine::Side::Black => format!("{}...", r.turn),
        };
        let same = r.best == Choice::Unit(r.unit);
        out.push_str(&format!(
            "{:<7} {:<w$}  {:>6.4}  {:<w$}  {:>6}  {:>6.4}  {:<4} {:>+7.4}\n",
            label,
            r.unit.to_string(),
            r.value.win,
            if same {
                "=".to_string()
            } else {
                r.best.to_string()
            },
            if same {
                String::new()
            } else {
                format!("{:.4}", r.best_value.win)
            },
            r.loss,
            r.mark.map_or("", Mark::symbol),
            r.luck
        ));
    }
    let s = game::summary(reports);
    out.push_str(&format!(
        "\n{:<6} {:>5} {:>7} {:>10} {:>10} {:>3} {:>3} {:>3} {:>8}\n",
        "side", "units", "choices", "total loss", "error rate", "?!", "?", "??", "luck"
    ));
    for (side, m) in [("White", s[0]), ("Black", s[1])] {
        out.push_str(&format!(
            "{:<6} {:>5} {:>7} {:>10.4} {:>10.4} {:>3} {:>3} {:>3} {:>+8.4}\n",
            side,
            m.units,
            m.choices,
            m.total_loss,
            m.error_rate,
            m.dubious,
            m.mistakes,
            m.blunders,
            m.luck
        ));
    }
    out
}

/// `game` with each judged main-line unit followed by its mark as a NAG
/// and a comment `{ [%eval p] … }` (`p`: the mover's probability of
/// winning). Comments and marks of an earlier analysis are replaced; every
/// other node stays as it was.
pub fn annotate(game: &Game, spans: &[usize], reports: &[UnitReport]) -> Game {
    let by_span: HashMap<usize, &UnitReport> = spans.iter().copied().zip(reports).collect();
    let mut g = game.clone();
    let mut nodes = Vec::with_capacity(game.nodes.len() + 2 * reports.len());
    let mut i = 0;
    while i < game.nodes.len() {
        let node = &game.nodes[i];
        nodes.push(node.clone());
        i += 1;
        let Node::Unit(u) = node else { continue };
        let Some(r) = by_span.get(&u.span.start) else {
            continue;
        };
        // The unit's own NAGs stay first; an earlier analysis's mark and
        // `[%eval]` comment go.
        while i < game.nodes.len() {
            match (&game.nodes[i], game.nodes.get(i + 1)) {
                (Node::Nag { n: 2 | 4 | 6, .. }, Some(Node::Comment(c))) if is_ours_marked(c) => {
                    i += 2
                }
                (Node::Comment(c), _) if is_ours(c) => i += 1,
                (n @ Node::Nag { .. }, _) => {
                    nodes.push(n.clone());
                    i += 1;
                }
                _ => break,
            }
        }
        if let Some(m) = r.mark {
            nodes.push(Node::Nag {
                n: m.nag(),
                span: Span::default(),
            });
        }
        nodes.push(Node::Comment(eval_comment(r)));
    }
    g.nodes = nodes;
    g
}

/// A comment written by [`annotate`].
fn is_ours(c: &Comment) -> bool {
    c.text.starts_with("[%eval ")
}

/// A comment written by [`annotate`] after a mark: the NAG before it is
/// the analysis's too.
fn is_ours_marked(c: &Comment) -> bool {
    is_ours(c) && c.text.contains(" loss ")
}

fn eval_comment(r: &UnitReport) -> Comment {
    let p = r.value.for_side(r.side);
    let args = format!("{p:.3}");
    let mut text = format!("[%eval {args}]");
    if r.mark.is_some() {
        text.push_str(&format!(
            " loss {:.3}; best {} {:.3}",
            r.loss,
            r.best,
            r.best_value.for_side(r.side)
        ));
    }
    Comment {
        text,
        commands: vec![Command {
            name: "eval".into(),
            args: args.clone(),
            kind: CommandKind::Eval(args.parse().expect("a number just printed")),
            span: Span::default(),
            name_span: Span::default(),
            args_span: Span::default(),
        }],
        span: Span::default(),
    }
}

/// What analysing the files came to.
struct Run<'a> {
    args: &'a AnalyzeArgs,
    settings: Settings,
    threads: usize,
    /// A record had a problem: exit code 1.
    failed: bool,
    /// The annotated records, for `--annotate`.
    annotated: String,
}

impl Run<'_> {
    /// Analyses every game of one file. `Err` stops the run (exit code 2).
    fn file(&mut self, path: &Path) -> Result<(), ExitCode> {
        super::stdin_once(path, self.args.rules.as_deref())?;
        // Bytes that are not UTF-8 are a problem of the record (exit 1); a
        // record on standard input has no folder of its own.
        let (name, text, dir) = super::read_record(path)?;
        let dir = dir.as_deref();
        let src = || NamedSource::new(name.clone(), text.clone());
        let mut reader = Reader::new(&text);
        let mut games = Vec::new();
        let mut unreadable = false;
        for g in reader.by_ref() {
            match g {
                Ok(g) => games.push(g),
                Err(e) => {
                    unreadable = true;
                    let report = miette::Report::new(e).with_source_code(src());
                    err!("{}", super::render(report.as_ref()));
                }
            }
        }
        self.failed |= unreadable;
        if unreadable && self.args.annotate {
            // A file that does not read is not rewritten: nothing is lost.
            return Ok(());
        }
        let mut out_games = Vec::new();
        for game in &games {
            out_games.push(self.game(game, dir, &src)?);
        }
        if self.args.annotate {
            self.annotated
                .push_str(&write_games(&out_games, reader.trailing()));
        }
        Ok(())
    }

    /// Analyses one game and prints its report; returns the game as
    /// `--annotate` writes it (unchanged when it cannot be analysed).
    fn game(
        &mut self,
        game: &Game,
        dir: Option<&Path>,
        src: &dyn Fn() -> NamedSource<String>,
    ) -> Result<Game, ExitCode> {
        let mut problems = Vec::new();
        let mut header_failed = false;
        let found = line(game, self.args, dir, src, &mut problems, &mut header_failed).map_err(
            |rendered| {
                err!("{rendered}");
                ExitCode::from(super::EXIT_USAGE)
            },
        )?;
        for p in &problems {
            err!("{p}");
        }
        self.failed |= header_failed;
        let Some(l) = found else {
            self.failed = true;
            return Ok(game.clone());
        };
        let bar = progress_bar(l.moves.len() as u64);
        let progress = |d: u64| {
            if let Some(b) = &bar {
                b.set_position(d);
            }
        };
        let reports = game::judge_all(
            &l.rules,
            &l.moves,
            &self.settings,
            &self.args.marks,
            self.threads,
            &progress,
        );
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        if self.args.annotate {
            return Ok(annotate(game, &l.spans, &reports));
        }
        if self.args.format == Some(Format::Json) {
            let mut s = String::new();
            json_lines(game.index, &l.rules, &reports, &mut s);
            out!("{s}");
        } else {
            outln!("{}", table(game, &l.rules, &self.settings, &reports));
        }
        Ok(game.clone())
    }
}

pub fn run(args: AnalyzeArgs) -> ExitCode {
    let settings = match args.eval.settings() {
        Ok(s) => Settings {
            refine_rollouts: args.refine,
            ..s
        },
        Err(code) => return code,
    };
    if args.out.is_some() && args.files.len() > 1 {
        errln!("error: --out takes the annotated record of one file; give one FILE");
        return ExitCode::from(super::EXIT_USAGE);
    }
    let mut run = Run {
        args: &args,
        settings,
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        failed: false,
        annotated: String::new(),
    };
    for path in &args.files {
        if let Err(code) = run.file(path) {
            return code;
        }
    }
    if args.annotate {
        match &args.out {
            Some(out) => {
                // Safe write (docs/security.md): a new file renamed over the
                // old one once complete; a symbolic link is refused.
                let written = super::replace::replace_with(out, false, |w| {
                    std::io::Write::write_all(w, run.annotated.as_bytes())
                });
                if let Err(e) = written {
                    errln!("error: cannot write {}: {e}", out.display());
                    return ExitCode::from(super::EXIT_USAGE);
                }
            }
            None => out!("{}", run.annotated),
        }
    }
    if run.failed {
        ExitCode::from(super::EXIT_INPUT)
    } else {
        ExitCode::SUCCESS
    }
}

fn progress_bar(len: u64) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    (std::io::stderr().is_terminal() && len >= 20).then(|| {
        let b = indicatif::ProgressBar::new(len);
        b.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} units eta {eta}")
                .expect("the template is valid"),
        );
        b
    })
}
