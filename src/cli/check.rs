//! `senet check FILE|DIR|-...`: every game of every record, every layer:
//! syntax, header, legality of the main line and variations, `[%pos]`,
//! result and score. Files are read game by game, so memory stays bounded
//! by one game whatever the file size.

use crate::notation::check::{CheckOptions, GameReport, RulesCache, check_game};
use crate::notation::reader::{GameSource, ReadError, StreamReader, SyntaxError};
use crate::notation::replay::{Code, Finding, Severity};
use crate::notation::syntax::Game;
use miette::NamedSource;
use serde::Serialize;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// SGN files, directories (every `*.sgn` below them) or `-` for standard input.
    #[arg(required = true, value_name = "FILE|DIR|-")]
    pub paths: Vec<PathBuf>,
    /// Check every game under this rule set (a built-in name, a .senet
    /// path, or `-` for standard input), whatever its Rules tag says.
    #[arg(long, value_name = "NAME|FILE|-", value_parser = super::complete::RuleSpec, hide_possible_values = true)]
    pub rules: Option<String>,
    /// Options to select with --rules (repeatable).
    #[arg(long = "option", value_name = "NAME", value_parser = super::complete::OptionName, hide_possible_values = true, requires = "rules")]
    pub options: Vec<String>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Warnings count as errors.
    #[arg(long)]
    pub strict: bool,
    /// Check the notation only: no rules, no replay.
    #[arg(long)]
    pub syntax_only: bool,
    /// Most problems reported per game; the rest are counted in a note.
    /// 0 is taken as 1: each game with problems shows at least its first.
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub max_errors: usize,
    /// Threads that replay games (default: every core). The games are read
    /// on one more thread, and problems are printed in file order whatever
    /// the number. At most 256.
    #[arg(long, value_parser = super::thread_count)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub record_rules: super::RecordRulesArgs,
    /// The most bytes one game may take: a longer game is an error, and
    /// the games after it are checked (memory stays a few times this).
    #[arg(long, value_name = "BYTES", default_value_t = super::MAX_GAME_BYTES, value_parser = super::game_bytes)]
    pub max_game_bytes: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Source excerpts with labels, like a compiler.
    #[value(name = "text", alias = "human")]
    Human,
    /// One line per problem: `file:line:col: severity[code]: message`.
    Short,
    /// JSON Lines: one object per problem, then a summary object.
    Json,
}

/// Counts for the summary line and object.
#[derive(Debug, Default, Serialize)]
pub struct Summary {
    pub files: usize,
    pub games: usize,
    pub valid: usize,
    pub invalid: usize,
    pub errors: usize,
    pub warnings: usize,
    pub units: usize,
    /// Games not checked because the rule file they name does not compile
    /// or cannot be used.
    #[serde(skip_serializing_if = "is_zero")]
    pub skipped: usize,
    /// Why, per rule file, in the order first met.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped_rules: Vec<SkippedRules>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The games skipped because of one rule file.
#[derive(Debug, Serialize)]
pub struct SkippedRules {
    /// The rule file as named.
    pub rules: String,
    pub games: usize,
    pub reason: String,
}

/// One finding as a JSON line.
#[derive(Serialize)]
struct JsonFinding<'a> {
    file: &'a str,
    game: usize,
    white: Option<&'a str>,
    black: Option<&'a str>,
    line: usize,
    column: usize,
    code: Code,
    severity: Severity,
    message: &'a str,
    help: Option<&'a str>,
    clause: Option<&'a str>,
    /// The ids of `clause` one by one (`clause` stays for the scripts
    /// that read it).
    clauses: Vec<&'a str>,
    turn: Option<u32>,
    side: Option<crate::engine::Side>,
    unit: Option<&'a str>,
    throw: Option<u8>,
    legal: &'a [String],
    position: Option<&'a str>,
    in_variation: bool,
}

/// The clause ids of a finding's `clause` (`"K-9a, P-4"`).
fn clause_ids(clause: Option<&str>) -> Vec<&str> {
    clause
        .into_iter()
        .flat_map(|c| c.split(','))
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect()
}

fn syntax_finding(e: &SyntaxError) -> Finding {
    let mut f = Finding::error(Code::Syntax, e.message.clone(), e.span).label(e.label.clone());
    f.help = e.help.clone();
    f
}

/// A checked game (for its buffers) and its source, back to the reader.
type Returned = (Option<Game>, GameSource);

/// A game as read, with its source, on its way to be checked.
type ReadGame = (Result<Game, ReadError>, GameSource);

/// Games in a queue between two threads: enough to ride out a long game on
/// one thread, few enough that memory stays bounded by a few dozen games.
const QUEUE: usize = 32;

/// What checking one game found, before anything is printed: the replay may
/// run on several threads, the printing runs on one, in file order.
enum Verdict {
    /// The reader failed: a syntax error, or I/O (which ends the file).
    Unread(ReadError),
    /// `--syntax-only`: the game reads, and nothing more is checked.
    Read,
    Checked(GameReport),
    /// The rule file the game names does not compile or cannot be used.
    RuleFile(std::sync::Arc<crate::rules::RulesError>),
}

/// A game on the queue of `Checker::check_shared`: checked or not yet.
enum Work {
    Read(ReadGame),
    Judged(Judged),
}

/// A game with its verdict, ready to print.
struct Judged {
    game: Option<Game>,
    src: GameSource,
    verdict: Verdict,
}

/// Everything about one game that does not print: runs on a replay thread,
/// with that thread's cache of rule sets.
fn judge(
    opts: &CheckOptions,
    syntax_only: bool,
    cache: &mut RulesCache,
    dir: Option<&Path>,
    (next, src): ReadGame,
) -> Judged {
    let (game, verdict) = match next {
        Err(e) => (None, Verdict::Unread(e)),
        Ok(game) if syntax_only => (Some(game), Verdict::Read),
        Ok(game) => {
            let verdict = match check_game(&game, dir, opts, cache) {
                Ok(report) => Verdict::Checked(report),
                Err(e) => Verdict::RuleFile(e.0),
            };
            (Some(game), verdict)
        }
    };
    Judged { game, src, verdict }
}

/// The reader thread: reads games and hands each to `send` until the input
/// ends or `send` refuses. One returned game per game read: the queue back
/// is the pool of buffers.
fn read_games(
    input: Box<dyn BufRead + Send>,
    max_game: usize,
    back: std::sync::mpsc::Receiver<Returned>,
    mut send: impl FnMut(ReadGame) -> bool,
) {
    let mut reader = StreamReader::new(input).with_max_game(max_game);
    loop {
        let mut src = match back.try_recv() {
            Ok((game, src)) => {
                if let Some(game) = game {
                    reader.recycle(game);
                }
                src
            }
            Err(_) => GameSource {
                text: String::new(),
                offset: 0,
                line: 0,
            },
        };
        let Some(next) = reader.next_game() else {
            break;
        };
        reader.source_into(&mut src);
        if !send((next, src)) {
            break;
        }
    }
}

struct Checker {
    opts: CheckOptions,
    args_format: Format,
    strict: bool,
    syntax_only: bool,
    /// One per replay thread, kept from file to file.
    caches: Vec<RulesCache>,
    summary: Summary,
    out: super::out::Buffered,
    rule_file_failed: bool,
    /// The most bytes one game may take.
    max_game: usize,
}

/// Why the games naming a rule file are skipped, in a few words.
fn skip_reason(e: &crate::rules::RulesError) -> String {
    use crate::rules::RulesError;
    match e {
        RulesError::Invalid { count, .. } => format!(
            "the rule file does not compile ({count} error{})",
            if *count == 1 { "" } else { "s" }
        ),
        RulesError::Unusable { reason, .. } | RulesError::Io { reason, .. } => reason.clone(),
    }
}

impl Checker {
    fn emit(
        &mut self,
        file: &str,
        game: Option<&Game>,
        index: usize,
        src: &GameSource,
        f: &Finding,
    ) {
        let mut f = f.clone();
        if self.strict && f.severity == Severity::Warning {
            f.severity = Severity::Error;
        }
        match f.severity {
            Severity::Error => self.summary.errors += 1,
            Severity::Warning => self.summary.warnings += 1,
        }
        let (line, column) = src.line_col(f.span.start);
        let white = game.and_then(|g| g.tag("White"));
        let black = game.and_then(|g| g.tag("Black"));
        if self.args_format != Format::Json {
            // Text from the record goes to a terminal: no raw controls.
            // (JSON escapes them itself.)
            use crate::diag::printable;
            f.message = printable(&f.message).into_owned();
            f.label = printable(&f.label).into_owned();
            f.help = f.help.as_deref().map(|h| printable(h).into_owned());
            f.unit = f.unit.as_deref().map(|u| printable(u).into_owned());
        }
        match self.args_format {
            Format::Json => {
                let j = JsonFinding {
                    file,
                    game: index,
                    white,
                    black,
                    line,
                    column,
                    code: f.code,
                    severity: f.severity,
                    message: &f.message,
                    help: f.help.as_deref(),
                    clause: f.clause.as_deref(),
                    clauses: clause_ids(f.clause.as_deref()),
                    turn: f.turn,
                    side: f.side,
                    unit: f.unit.as_deref(),
                    throw: f.throw,
                    legal: &f.legal,
                    position: f.position.as_deref(),
                    in_variation: f.in_variation,
                };
                let _ = writeln!(
                    self.out,
                    "{}",
                    serde_json::to_string(&j).expect("plain data serialises")
                );
            }
            Format::Short => {
                let sev = if f.severity == Severity::Error {
                    "error"
                } else {
                    "warning"
                };
                let clause = f
                    .clause
                    .as_ref()
                    .map(|c| format!(" [{c}]"))
                    .unwrap_or_default();
                let turn = match (f.turn, f.side) {
                    (Some(t), Some(s)) => format!(", turn {t} {s}"),
                    _ => String::new(),
                };
                let _ = writeln!(
                    self.out,
                    "{}:{line}:{column}: {sev}[{}]: {}{clause} (game {index}{turn})",
                    crate::diag::printable(file),
                    f.code,
                    f.message
                );
            }
            Format::Human => {
                let players = match (white, black) {
                    (Some(w), Some(b)) => format!(
                        " ({} – {})",
                        crate::diag::printable(w),
                        crate::diag::printable(b)
                    ),
                    _ => String::new(),
                };
                let shown = match crate::diag::printable_source(&src.text) {
                    std::borrow::Cow::Borrowed(_) => src.clone(),
                    std::borrow::Cow::Owned(text) => GameSource {
                        text,
                        ..src.clone()
                    },
                };
                let report = super::FindingReport {
                    f: &f,
                    src: NamedSource::new(crate::diag::printable(file), shown),
                    game: index,
                    players,
                };
                let _ = self.out.flush();
                err!("{}", super::render(&report));
            }
        }
    }

    /// Reads on one thread and checks on one or more (see `check_serial`,
    /// `check_shared` and `check_parallel`). Checked games and their
    /// sources go back to the reader on a bounded queue, so that their
    /// buffers serve the next games instead of being freed on one thread
    /// and allocated again on the other.
    fn check_stream(
        &mut self,
        name: &str,
        dir: Option<&Path>,
        input: Box<dyn BufRead + Send>,
    ) -> Result<(), std::io::Error> {
        self.summary.files += 1;
        match self.caches.len() {
            1 => self.check_serial(name, dir, input),
            2 => self.check_shared(name, dir, input),
            _ => self.check_parallel(name, dir, input),
        }
    }

    /// One replay thread, this one: a bounded queue of games from the
    /// reader keeps memory bounded by a few games.
    fn check_serial(
        &mut self,
        name: &str,
        dir: Option<&Path>,
        input: Box<dyn BufRead + Send>,
    ) -> Result<(), std::io::Error> {
        let max_game = self.max_game;
        let (tx, rx) = std::sync::mpsc::sync_channel::<ReadGame>(QUEUE);
        // Room for every game in flight, so that none is dropped on the way
        // back: the games in existence stay bounded by the two queues.
        let (back_tx, back_rx) = std::sync::mpsc::sync_channel::<Returned>(QUEUE + 8);
        std::thread::scope(|scope| {
            scope.spawn(move || read_games(input, max_game, back_rx, |g| tx.send(g).is_ok()));
            let mut index = 0usize;
            for read in rx {
                let judged = judge(&self.opts, self.syntax_only, &mut self.caches[0], dir, read);
                let back = self.print(name, &mut index, judged)?;
                // A full queue (or a reader that has stopped) only means
                // these buffers are freed instead of reused.
                let _ = back_tx.try_send(back);
            }
            Ok(())
        })
    }

    /// Two replay threads, the reader and this one: the reader hands each
    /// game on unchecked while the queue has room, and checks it itself
    /// when the queue is full (this thread is behind). One queue in file
    /// order carries both, so the verdicts print in file order, and the
    /// share of games the reader checks follows the load: about one in four
    /// when reading takes a third of the work, as on the corpus of
    /// `docs/performance.md`. Two busy threads, none waiting on a third:
    /// on two cores this beats `check_parallel`'s reader, two replay
    /// threads and printer.
    fn check_shared(
        &mut self,
        name: &str,
        dir: Option<&Path>,
        input: Box<dyn BufRead + Send>,
    ) -> Result<(), std::io::Error> {
        let max_game = self.max_game;
        let mut caches = std::mem::take(&mut self.caches);
        let [mine, theirs] = &mut caches[..] else {
            unreachable!("check_stream calls this with two caches")
        };
        let opts = &self.opts.clone();
        let syntax_only = self.syntax_only;
        let (tx, rx) = std::sync::mpsc::sync_channel::<Work>(QUEUE);
        let (back_tx, back_rx) = std::sync::mpsc::sync_channel::<Returned>(QUEUE + 8);
        let result = std::thread::scope(|scope| {
            scope.spawn(move || {
                read_games(input, max_game, back_rx, |g| {
                    match tx.try_send(Work::Read(g)) {
                        Ok(()) => true,
                        Err(std::sync::mpsc::TrySendError::Full(Work::Read(g))) => tx
                            .send(Work::Judged(judge(opts, syntax_only, theirs, dir, g)))
                            .is_ok(),
                        Err(_) => false,
                    }
                })
            });
            let mut index = 0usize;
            for work in rx {
                let judged = match work {
                    Work::Read(g) => judge(opts, syntax_only, mine, dir, g),
                    Work::Judged(j) => j,
                };
                let back = self.print(name, &mut index, judged)?;
                let _ = back_tx.try_send(back);
            }
            Ok(())
        });
        self.caches = caches;
        result
    }

    /// Several replay threads. The reader deals the games out in turn, game
    /// `i` to thread `i % n`, each over its own bounded queue; this thread
    /// takes the verdicts back in the same turn, so they come out in file
    /// order without a reordering buffer, and prints them. A thread with a
    /// long game holds up the printing, not the others, until its queues
    /// fill: the games in flight stay bounded by the queues.
    fn check_parallel(
        &mut self,
        name: &str,
        dir: Option<&Path>,
        input: Box<dyn BufRead + Send>,
    ) -> Result<(), std::io::Error> {
        let max_game = self.max_game;
        let mut caches = std::mem::take(&mut self.caches);
        let n = caches.len();
        let opts = &self.opts.clone();
        let syntax_only = self.syntax_only;
        let per_thread = QUEUE / 2;
        let (back_tx, back_rx) =
            std::sync::mpsc::sync_channel::<Returned>(n * (2 * per_thread + 1) + 8);
        let result = std::thread::scope(|scope| {
            let mut inboxes = Vec::with_capacity(n);
            let mut outboxes = Vec::with_capacity(n);
            for cache in caches.iter_mut() {
                let (in_tx, in_rx) = std::sync::mpsc::sync_channel::<ReadGame>(per_thread);
                let (out_tx, out_rx) = std::sync::mpsc::sync_channel::<Judged>(per_thread);
                scope.spawn(move || {
                    for read in in_rx {
                        if out_tx
                            .send(judge(opts, syntax_only, cache, dir, read))
                            .is_err()
                        {
                            break;
                        }
                    }
                });
                inboxes.push(in_tx);
                outboxes.push(out_rx);
            }
            scope.spawn(move || {
                let mut k = 0;
                read_games(input, max_game, back_rx, |g| {
                    let sent = inboxes[k].send(g).is_ok();
                    k = (k + 1) % n;
                    sent
                });
            });
            let mut index = 0usize;
            // Game `i` is on thread `i % n`: the first thread that has no
            // next verdict has seen the end of the input.
            for outbox in outboxes.iter().cycle() {
                let Ok(judged) = outbox.recv() else {
                    break;
                };
                let back = self.print(name, &mut index, judged)?;
                let _ = back_tx.try_send(back);
            }
            Ok(())
        });
        self.caches = caches;
        result
    }

    /// Counts and prints one game's verdict; hands the game back for its
    /// buffers.
    fn print(
        &mut self,
        name: &str,
        index: &mut usize,
        judged: Judged,
    ) -> Result<Returned, std::io::Error> {
        let Judged { game, src, verdict } = judged;
        *index += 1;
        self.summary.games += 1;
        match verdict {
            Verdict::Unread(ReadError::Io(e)) => return Err(e),
            Verdict::Unread(ReadError::Syntax(e)) => {
                self.summary.invalid += 1;
                let f = syntax_finding(&e);
                self.emit(name, None, e.game.max(*index), &src, &f);
            }
            Verdict::Read => self.summary.valid += 1,
            Verdict::Checked(report) => {
                let game = game.as_ref().expect("a checked game was read");
                let index = game.index;
                self.summary.units += report.units;
                let mut errors = 0;
                for f in &report.findings {
                    if f.severity == Severity::Error || self.strict {
                        errors += 1;
                    }
                    self.emit(name, Some(game), index, &src, f);
                }
                if report.suppressed > 0 && self.args_format != Format::Json {
                    let n = report.suppressed;
                    let s = if n == 1 { "" } else { "s" };
                    errln!("note: game {index}: {n} more problem{s} not shown (--max-errors)");
                }
                if errors > 0 {
                    self.summary.invalid += 1;
                } else {
                    self.summary.valid += 1;
                }
            }
            Verdict::RuleFile(e) => {
                // The rule file's own diagnostics once, at its first game;
                // its games are counted and the run goes on.
                let rules = e.file().to_string();
                match self
                    .summary
                    .skipped_rules
                    .iter_mut()
                    .find(|s| s.rules == rules)
                {
                    Some(s) => s.games += 1,
                    None => {
                        let _ = self.out.flush();
                        err!("{}", super::render(&*e));
                        self.summary.skipped_rules.push(SkippedRules {
                            rules,
                            games: 1,
                            reason: skip_reason(&e),
                        });
                    }
                }
                self.summary.skipped += 1;
                self.rule_file_failed = true;
            }
        }
        Ok((game, src))
    }
}

pub fn run(args: CheckArgs) -> ExitCode {
    for path in &args.paths {
        if let Err(code) = super::stdin_once(path, args.rules.as_deref()) {
            return code;
        }
    }
    // Standard input is read once: a second `-` would check an empty
    // "file" as if it were a record.
    if args.paths.iter().filter(|p| super::is_stdin(p)).count() > 1 {
        errln!("error: `-` (standard input) is given more than once: give it once");
        return ExitCode::from(super::EXIT_USAGE);
    }
    if let Some(spec) = &args.rules {
        // A bad --rules is a usage error before any record is read.
        if let Err(code) = super::load_rules(spec, &args.options) {
            return code;
        }
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let records: Vec<&std::path::Path> = args.paths.iter().map(PathBuf::as_path).collect();
    let mut caches = Vec::new();
    for _ in 0..threads {
        match super::record_rules_cache(
            args.record_rules.confinement(),
            args.rules.as_deref(),
            &records,
        ) {
            Ok(cache) => caches.push(cache),
            Err(code) => return code,
        }
    }
    let mut checker = Checker {
        opts: CheckOptions {
            rules_override: args.rules.clone(),
            override_options: args.options.clone(),
            max_findings: args.max_errors.max(1),
        },
        args_format: args.format,
        strict: args.strict,
        syntax_only: args.syntax_only,
        caches,
        summary: Summary::default(),
        out: super::out::Buffered::new(),
        rule_file_failed: false,
        max_game: args.max_game_bytes,
    };
    let mut io_failed = false;
    for path in &args.paths {
        let files = if path.as_os_str() == "-" {
            let stdin = std::io::stdin();
            if let Err(e) = checker.check_stream("<stdin>", None, Box::new(BufReader::new(stdin))) {
                errln!("error: cannot read standard input: {e}");
                io_failed = true;
            }
            continue;
        } else if path.is_dir() {
            let mut v = Vec::new();
            if let Err(e) = super::sgn_files(path, &mut v) {
                errln!("error: cannot read directory {}: {e}", path.display());
                io_failed = true;
                continue;
            }
            if v.is_empty() {
                // Nothing to do is a usage problem: the folder was
                // probably not the one meant.
                errln!(
                    "error: no .sgn file in {} or below it: nothing was checked there",
                    path.display()
                );
                io_failed = true;
            }
            v
        } else {
            vec![path.clone()]
        };
        for file in files {
            let name = file.display().to_string();
            let input = match std::fs::File::open(&file) {
                Ok(f) => f,
                Err(e) => {
                    errln!("error: cannot read {name}: {e}");
                    io_failed = true;
                    continue;
                }
            };
            let dir = file.parent().map(Path::to_path_buf);
            if let Err(e) = checker.check_stream(
                &name,
                dir.as_deref(),
                Box::new(BufReader::with_capacity(1 << 16, input)),
            ) {
                errln!("error: cannot read {name}: {e}");
                io_failed = true;
            }
        }
    }
    let s = &checker.summary;
    match args.format {
        Format::Json => {
            let _ = writeln!(checker.out, "{}", serde_json::json!({ "summary": s }));
        }
        _ => {
            let _ = checker.out.flush();
            let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
            let mut line = format!(
                "{}, {} valid, {} invalid",
                plural(s.games, "game"),
                s.valid,
                s.invalid
            );
            if s.skipped > 0 {
                line.push_str(&format!(", {} skipped", s.skipped));
            }
            if s.files > 1 {
                line = format!("{} in {}", line, plural(s.files, "file"));
            }
            if s.warnings > 0 && !args.strict {
                line.push_str(&format!(" ({})", plural(s.warnings, "warning")));
            }
            errln!("{line}");
            for k in &s.skipped_rules {
                errln!(
                    "skipped: {} naming `{}`: {}",
                    plural(k.games, "game"),
                    k.rules,
                    k.reason
                );
            }
        }
    }
    let _ = checker.out.flush();
    if checker.rule_file_failed || io_failed {
        ExitCode::from(super::EXIT_USAGE)
    } else if checker.summary.errors > 0 {
        ExitCode::from(super::EXIT_INPUT)
    } else {
        ExitCode::SUCCESS
    }
}
