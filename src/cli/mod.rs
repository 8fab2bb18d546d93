//! The command line: raw arguments become a validated config, then one
//! library call per subcommand. Exit codes: 0 ok, 1 the input has problems,
//! 2 usage, I/O or rule-file errors.

/// `print!` for results: a failure to write is kept for [`out::finish`]
/// (exit 2), not a panic.
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::out::print(format_args!($($arg)*)) };
}
/// `println!` for results, as [`out!`].
macro_rules! outln {
    () => { $crate::cli::out::print(format_args!("\n")) };
    ($($arg:tt)*) => {{
        $crate::cli::out::print(format_args!($($arg)*));
        $crate::cli::out::print(format_args!("\n"));
    }};
}
/// `eprint!` for messages: standard error that cannot be written (`2>
/// /dev/full`) is not a panic; the text is dropped and the exit code still
/// says what happened.
macro_rules! err {
    ($($arg:tt)*) => { $crate::cli::out::eprint(format_args!($($arg)*)) };
}
/// `eprintln!` for messages, as [`err!`].
macro_rules! errln {
    () => { $crate::cli::out::eprint(format_args!("\n")) };
    ($($arg:tt)*) => {{
        $crate::cli::out::eprint(format_args!($($arg)*));
        $crate::cli::out::eprint(format_args!("\n"));
    }};
}

pub mod analyze;
pub mod best;
pub mod board;
mod bridge;
pub mod check;
pub mod compare;
mod complete;
mod examples;
pub mod fmt;
pub mod moves;
mod options;
pub mod out;
pub mod replace;
pub mod replay;
pub mod rules;
pub mod simulate;
mod trimmed;

use crate::notation::replay::{Finding, Severity};
use clap::{CommandFactory, Parser, Subcommand};
use miette::{Diagnostic, LabeledSpan, NamedSource};
use std::fmt as sfmt;
use std::process::ExitCode;

/// Exit code: the input has problems.
pub const EXIT_INPUT: u8 = 1;
/// Exit code: usage, I/O or rule-file error.
pub const EXIT_USAGE: u8 = 2;

/// Rule files, move generation and game-record checking for Senet.
#[derive(Debug, Parser)]
#[command(
    name = "senet",
    version,
    about,
    propagate_version = true,
    after_help = examples::SENET
)]
pub struct Cli {
    /// Colour in diagnostics and boards: `auto` (when writing to a
    /// terminal and NO_COLOR is unset), `always` or `never`.
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List, explain and check rule files.
    #[command(subcommand, after_help = examples::RULES)]
    Rules(rules::RulesCommand),
    /// List the legal units of a position for a throw.
    #[command(after_help = examples::MOVES)]
    Moves(moves::MovesArgs),
    /// Check game records (SGN) for legality.
    #[command(after_help = examples::CHECK)]
    Check(check::CheckArgs),
    /// Rewrite game records in canonical SGN.
    ///
    /// The `x` and `+` marks and the turn numbers that `--fix` adds follow
    /// the rule set of each record's own `Rules` tag. fmt takes no
    /// `--rules` or `--option`: marks written under rules the record does
    /// not name would not check under its own header. A record without a
    /// `Rules` tag keeps its marks as written.
    #[command(after_help = examples::FMT)]
    Fmt(fmt::FmtArgs),
    /// Replay a game record unit by unit, drawing the board.
    #[command(after_help = examples::REPLAY)]
    Replay(replay::ReplayArgs),
    /// Draw one position as a picture (SVG, PNG or text).
    #[command(after_help = examples::BOARD)]
    Board(board::BoardArgs),
    /// Simulate games between computer players.
    #[command(after_help = examples::SIMULATE)]
    Simulate(simulate::SimulateArgs),
    /// Value every unit of game records, mark the errors, sum the luck.
    #[command(after_help = examples::ANALYZE)]
    Analyze(analyze::AnalyzeArgs),
    /// Every legal unit of a position with its value, best first.
    #[command(after_help = examples::BEST)]
    Best(best::BestArgs),
    /// Rule sets or option sets side by side: length, balance, skill.
    #[command(after_help = examples::COMPARE)]
    Compare(compare::CompareArgs),
    /// Print shell completions.
    #[command(after_help = examples::COMPLETIONS)]
    Completions {
        /// bash, zsh, fish, elvish or powershell
        shell: clap_complete::Shell,
    },
}

/// When to colour output: `--color`, on every command.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// When the output is a terminal and `NO_COLOR` is unset or empty.
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to colour a stream that is (`terminal`) or is not a
    /// terminal. An explicit `always` or `never` wins over `NO_COLOR`.
    pub fn on(self, terminal: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => auto_colour(terminal, std::env::var_os("NO_COLOR").as_deref()),
        }
    }
}

/// `--color auto`: colour on a terminal unless `NO_COLOR` is set to a
/// value; an empty `NO_COLOR` is as if unset, as the convention says.
fn auto_colour(terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
    terminal && no_color.is_none_or(|v| v.is_empty())
}

#[cfg(test)]
mod colour_tests {
    use super::auto_colour;
    use std::ffi::OsStr;

    #[test]
    fn only_a_set_no_color_turns_auto_colour_off() {
        assert!(auto_colour(true, None));
        assert!(auto_colour(true, Some(OsStr::new(""))));
        assert!(!auto_colour(true, Some(OsStr::new("1"))));
        assert!(!auto_colour(false, None));
    }
}

/// `--format text|json` for commands with no other format.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum TextJson {
    /// Words and tables for people.
    #[default]
    #[value(alias = "human")]
    Text,
    /// JSON for programs.
    Json,
}

/// A diagnostic as one JSON object: code, severity, message, help, and the
/// file, line and column (1-based) of its first label.
pub fn diagnostic_json(d: &dyn miette::Diagnostic) -> serde_json::Value {
    let severity = match d.severity() {
        Some(miette::Severity::Warning) => "warning",
        Some(miette::Severity::Advice) => "advice",
        _ => "error",
    };
    let mut place = (None, None, None);
    if let (Some(src), Some(label)) = (d.source_code(), d.labels().and_then(|mut l| l.next()))
        && let Ok(c) = src.read_span(label.inner(), 0, 0)
    {
        place = (
            c.name().map(str::to_string),
            Some(c.line() + 1),
            Some(c.column() + 1),
        );
    }
    serde_json::json!({
        "file": place.0,
        "line": place.1,
        "column": place.2,
        "code": d.code().map(|c| c.to_string()),
        "severity": severity,
        "message": d.to_string(),
        "help": d.help().map(|h| h.to_string()),
    })
}

/// The `--color` of this run, set once by [`main`] before any command runs.
static COLOR: std::sync::OnceLock<ColorChoice> = std::sync::OnceLock::new();

/// The `--color` of this run (`auto` where [`main`] did not set it).
pub fn color_choice() -> ColorChoice {
    COLOR.get().copied().unwrap_or_default()
}

/// Runs the command line; the binary's `main` is this call.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { 0 };
            if let Err(err) = e.print() {
                // `--help` and `--version` are output too.
                out::failed(&err);
            }
            return out::finish(ExitCode::from(code));
        }
    };
    let _ = COLOR.set(cli.color);
    let code = run(cli.command, cli.color);
    out::finish(code)
}

fn run(command: Command, color: ColorChoice) -> ExitCode {
    match command {
        Command::Rules(cmd) => rules::run(cmd),
        Command::Moves(args) => moves::run(args),
        Command::Check(args) => check::run(args),
        Command::Fmt(args) => fmt::run(args),
        Command::Replay(mut args) => {
            args.color = color;
            replay::run(args)
        }
        Command::Board(args) => board::run(args),
        Command::Simulate(args) => simulate::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Best(args) => best::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Completions { shell } => {
            let mut text = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "senet", &mut text);
            if shell == clap_complete::Shell::PowerShell {
                let script = String::from_utf8_lossy(&text);
                text = complete::powershell_values(&script).into_bytes();
            }
            if shell == clap_complete::Shell::Fish {
                // clap's fish script offers no values for a positional
                // argument: compare's rule sets are added here.
                text.extend_from_slice(
                    format!(
                        "complete -c senet -n \"__fish_senet_using_subcommand compare\" -f -a \"{}\"\n",
                        crate::rules::builtin_names().join(" ")
                    )
                    .as_bytes(),
                );
            }
            out::bytes(&text);
            ExitCode::SUCCESS
        }
    }
}

/// The most games `simulate --games` plays in one run: its statistics keep
/// a few bytes per game.
pub const MAX_GAMES: u64 = 10_000_000;
/// The most threads `--threads` starts.
pub const MAX_THREADS: usize = 256;
/// The longest game `simulate --max-units` plays.
pub const MAX_UNITS: usize = 1_000_000;

/// The default of `--max-game-bytes` (`check`, `fmt`): 16 MiB, thousands
/// of times the longest game played by people.
pub const MAX_GAME_BYTES: usize = 16 << 20;

/// `--max-game-bytes N`: 1 KiB to 1 GiB.
pub fn game_bytes(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if ((1 << 10)..=(1 << 30)).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a whole number from {} to {}",
            1 << 10,
            1 << 30
        )),
    }
}

/// A count flag in `1..=max`, or a usage error that says the range.
fn count_in(text: &str, max: usize) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!("expected a whole number from 1 to {max}")),
    }
}

/// `--threads N`: 1 to [`MAX_THREADS`]. Zero is refused by name: some
/// tools read it as "every core", which here is leaving the flag out.
pub fn thread_count(text: &str) -> Result<usize, String> {
    if text.trim() == "0" {
        return Err(format!(
            "0 threads would do no work: expected a whole number from 1 to {MAX_THREADS} \
             (leave --threads out to use every core)"
        ));
    }
    count_in(text, MAX_THREADS)
}

/// `--games N`: 1 to [`MAX_GAMES`]; zero games is refused by name.
pub fn game_count(text: &str) -> Result<u64, String> {
    if text.trim() == "0" {
        return Err(format!(
            "0 games would measure nothing: expected a whole number from 1 to {MAX_GAMES}"
        ));
    }
    match text.parse::<u64>() {
        Ok(n) if (1..=MAX_GAMES).contains(&n) => Ok(n),
        _ => Err(format!("expected a whole number from 1 to {MAX_GAMES}")),
    }
}

/// `--max-units N`: 1 to [`MAX_UNITS`].
pub fn unit_cap(text: &str) -> Result<usize, String> {
    count_in(text, MAX_UNITS)
}

/// The unit cap of `simulate` and `compare`: the one given, else 2,000, or
/// [`MAX_UNITS`] for rule sets whose games end by a turn limit (LK-19), so
/// that those games reach their draw instead of counting as unfinished.
pub fn unit_cap_for(rules: &crate::engine::Ruleset, given: Option<usize>) -> usize {
    given.unwrap_or(if rules.end().turn_limit.is_some() {
        MAX_UNITS
    } else {
        2000
    })
}

/// Renders a diagnostic for standard error, coloured as `--color` says
/// (by default only on a terminal and when `NO_COLOR` is unset).
pub fn render(diag: &dyn miette::Diagnostic) -> String {
    use std::io::IsTerminal;
    render_with(diag, color_choice().on(std::io::stderr().is_terminal()))
}

/// Renders a diagnostic at a fixed width of 100 columns, with or without
/// colour. Very long source lines are cut around the labels first
/// (`Trimmed`): any span renders.
pub fn render_with(diag: &dyn miette::Diagnostic, colour: bool) -> String {
    let trimmed = trimmed::Trimmed::new(diag);
    let diag: &dyn miette::Diagnostic = match &trimmed {
        Some(t) => t,
        None => diag,
    };
    let theme = if colour {
        miette::GraphicalTheme::unicode()
    } else {
        miette::GraphicalTheme::unicode_nocolor()
    };
    let handler = miette::GraphicalReportHandler::new_themed(theme).with_width(100);
    let mut out = String::new();
    if handler.render_report(&mut out, diag).is_err() {
        out = format!("{diag}\n");
    }
    out
}

/// Reads a whole record from a path or standard input (`-`) for `replay`,
/// `board` and `analyze`: `(name, text, the record's folder)`. Bytes that
/// are not UTF-8 are a problem of the input (exit 1), reported at their
/// offset as `check` reports them; a file that cannot be read is an I/O
/// error (2).
pub fn read_record(
    file: &std::path::Path,
) -> Result<(String, String, Option<std::path::PathBuf>), ExitCode> {
    read_record_text(file).map_err(ExitCode::from)
}

/// [`read_record`] with the exit code as a number (for `fmt`).
pub fn read_record_text(
    file: &std::path::Path,
) -> Result<(String, String, Option<std::path::PathBuf>), u8> {
    let (name, dir) = if is_stdin(file) {
        ("<stdin>".to_string(), None)
    } else {
        (
            file.display().to_string(),
            file.parent().map(std::path::Path::to_path_buf),
        )
    };
    let bytes = read_bytes(file).map_err(|e| {
        errln!("error: cannot read {}: {e}", crate::diag::printable(&name));
        EXIT_USAGE
    })?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok((name, text, dir)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            // The text shown has U+FFFD for each bad byte: offsets up to
            // the first one are the file's own.
            let shown = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let game = crate::notation::Reader::new(&shown[..at]).count().max(1);
            let error = crate::notation::reader::SyntaxError {
                message: format!("byte {at} of the file is not part of a UTF-8 character"),
                span: crate::diag::Span::new(at, at + '\u{fffd}'.len_utf8()),
                label: "not UTF-8".to_string(),
                help: Some("an SGN file is UTF-8 text: save the record as UTF-8".to_string()),
                game,
            };
            let report = miette::Report::new(error)
                .with_source_code(NamedSource::new(crate::diag::printable(&name), shown));
            err!("{}", render(report.as_ref()));
            Err(EXIT_INPUT)
        }
    }
}

/// Whether a path argument is `-`, standard input.
pub fn is_stdin(file: &std::path::Path) -> bool {
    file.as_os_str() == "-"
}

/// The bytes of a file, or of standard input for `-`.
fn read_bytes(file: &std::path::Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    if is_stdin(file) {
        std::io::stdin().read_to_end(&mut bytes)?;
    } else {
        std::fs::File::open(file)?.read_to_end(&mut bytes)?;
    }
    Ok(bytes)
}

/// The name under which a rule file read from standard input is shown.
pub const STDIN_RULES: &str = "<stdin>";

/// The rule file given as `-` (`rules show -`, `--rules -`), read from
/// standard input once per run: a command may compile it under several
/// sets of options (`rules explain`, `check`).
/// The file, and the offset of its first byte that is not UTF-8 (shown as
/// U+FFFD), or why standard input could not be read.
type StdinRules = Result<(crate::diag::SourceFile, Option<usize>), String>;
static STDIN_RULE_FILE: std::sync::OnceLock<StdinRules> = std::sync::OnceLock::new();

/// The rule file on standard input. Bytes that are not UTF-8 are an error
/// of the rule file at their offset; a failed read is an I/O error.
pub fn stdin_rule_file() -> Result<crate::diag::SourceFile, crate::rules::RulesError> {
    use crate::rules::RulesError;
    let read = STDIN_RULE_FILE.get_or_init(|| {
        read_bytes(std::path::Path::new("-"))
            .map_err(|e| e.to_string())
            .map(|bytes| match String::from_utf8(bytes) {
                Ok(text) => (crate::diag::SourceFile::new(STDIN_RULES, text), None),
                // Shown with U+FFFD for each bad byte: offsets up to the
                // first one are the input's own.
                Err(e) => {
                    let at = e.utf8_error().valid_up_to();
                    let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                    (crate::diag::SourceFile::new(STDIN_RULES, text), Some(at))
                }
            })
    });
    let (file, bad) = read.clone().map_err(|reason| RulesError::Io {
        path: STDIN_RULES.to_string(),
        reason: format!("standard input cannot be read: {reason}"),
        builtins: crate::rules::builtin_names().join(", "),
        guess: String::new(),
    })?;
    match bad {
        None => Ok(file),
        Some(at) => Err(crate::rules::not_utf8(file, at)),
    }
}

/// Compiles the rule set a command line names: a built-in name, the path
/// of a rule file, or `-` for a rule file on standard input.
pub fn rules_of(
    spec: &str,
    options: &[String],
) -> Result<crate::engine::Ruleset, crate::rules::RulesError> {
    if spec == "-" {
        crate::rules::load_source(stdin_rule_file()?, options)
    } else {
        crate::rules::load(spec, None, options)
    }
}

/// Loads a rule set for a command (`-`: from standard input), reporting a
/// failure on standard error.
pub fn load_rules(spec: &str, options: &[String]) -> Result<crate::engine::Ruleset, ExitCode> {
    load_rules_given(spec, options, &options::GivenOptions::flags(options))
}

/// [`load_rules`] for options written as `given` (a refused choice of
/// options is shown there, not in the rule file).
fn load_rules_given(
    spec: &str,
    options: &[String],
    given: &options::GivenOptions,
) -> Result<crate::engine::Ruleset, ExitCode> {
    use std::io::IsTerminal;
    rules_of(spec, options).map_err(|e| {
        let colour = color_choice().on(std::io::stderr().is_terminal());
        err!("{}", given.render(&e, colour));
        ExitCode::from(EXIT_USAGE)
    })
}

/// Standard input holds one file: a record read from `-` and `--rules -`
/// together are a usage error.
pub fn stdin_once(record: &std::path::Path, rules: Option<&str>) -> Result<(), ExitCode> {
    if is_stdin(record) && rules == Some("-") {
        errln!(
            "error: standard input can hold the record or the rule file, not both: \
             give one of them as a file"
        );
        return Err(ExitCode::from(EXIT_USAGE));
    }
    Ok(())
}

/// The rule cache of a command that reads records, with `--rules -` read
/// from standard input. Standard input holds one of the two: a record read
/// from `-` and `--rules -` together are a usage error.
pub fn record_rules_cache(
    confinement: crate::rules::Confinement,
    rules: Option<&str>,
    records: &[&std::path::Path],
) -> Result<crate::notation::header::RulesCache, ExitCode> {
    let cache = crate::notation::header::RulesCache::new(confinement);
    for record in records {
        stdin_once(record, rules)?;
    }
    if rules != Some("-") {
        return Ok(cache);
    }
    match stdin_rule_file() {
        Ok(file) => Ok(cache.with_given_rules(file)),
        Err(e) => {
            err!("{}", render(&e));
            Err(ExitCode::from(EXIT_USAGE))
        }
    }
}

/// A position string given on the command line (`--position`), read for
/// the board of `rules`; a bad one, or one with a rule-state flag the
/// rules give no meaning, is reported with its span, exit 2.
pub fn position_arg(
    rules: &crate::engine::Ruleset,
    text: &str,
) -> Result<crate::engine::Position, ExitCode> {
    let board = rules.board;
    let p = crate::engine::Position::parse(text, board.len, board.row_len).map_err(|e| {
        let diag = crate::notation::position_string::PositionArgError::new(text, &e);
        err!("{}", render(&diag));
        ExitCode::from(EXIT_USAGE)
    })?;
    // A flag the rules give no meaning, as in a `Position` tag.
    if let Some(idle) = crate::notation::state_flags::idle_flag(rules, &p, text) {
        let diag = crate::notation::state_flags::PositionFlagError::new(text, &idle);
        err!("{}", render(&diag));
        return Err(ExitCode::from(EXIT_USAGE));
    }
    Ok(p)
}

/// Where the rule files that records name may be read from: the options
/// of every command that reads records (docs/security.md).
#[derive(Debug, Clone, clap::Args)]
pub struct RecordRulesArgs {
    /// A folder whose rule files records may name, besides the record's own
    /// folder and those below it (repeatable). A `Rules` tag or `extends`
    /// path is looked up there after the record's own folder.
    #[arg(long = "rules-path", value_name = "DIR")]
    pub rules_paths: Vec<std::path::PathBuf>,
    /// The largest rule file, in bytes, that a record may name.
    #[arg(long, value_name = "BYTES", default_value_t = crate::rules::DEFAULT_MAX_RULE_FILE_BYTES)]
    pub max_rule_file_bytes: u64,
}

impl RecordRulesArgs {
    pub fn confinement(&self) -> crate::rules::Confinement {
        crate::rules::Confinement {
            paths: self.rules_paths.clone(),
            max_bytes: self.max_rule_file_bytes,
        }
    }
}

/// Every `*.sgn` file below `dir`, sorted. The walk follows no symbolic
/// link (a link could lead out of the folder, to a file whose lines a
/// diagnostic would quote, or round in a loop), and takes only regular
/// files (reading a device, FIFO or socket could hang or never end). Each
/// skip is noted on standard error, so that nothing is left out silently;
/// a link or special file named on the command line is read as given.
pub fn sgn_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<std::path::PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for p in entries {
        let meta = std::fs::symlink_metadata(&p)?;
        let sgn = p.extension().is_some_and(|e| e == "sgn");
        if meta.file_type().is_symlink() {
            if sgn || std::fs::metadata(&p).is_ok_and(|m| m.is_dir()) {
                errln!("note: skipped {}: a symbolic link", p.display());
            }
        } else if meta.is_dir() {
            sgn_files(&p, out)?;
        } else if sgn {
            if meta.is_file() {
                out.push(p);
            } else {
                errln!("note: skipped {}: not a regular file", p.display());
            }
        }
    }
    Ok(())
}

/// A finding of `check` or `replay` with its source text, ready for
/// miette: the help adds the game, turn, side, throw, clause and position.
pub struct FindingReport<'a, S: miette::SourceCode + 'static> {
    pub f: &'a Finding,
    pub src: NamedSource<S>,
    pub game: usize,
    /// ` (White – Black)`, or empty.
    pub players: String,
}

impl<S: miette::SourceCode + 'static> sfmt::Debug for FindingReport<'_, S> {
    fn fmt(&self, f: &mut sfmt::Formatter<'_>) -> sfmt::Result {
        f.write_str(&self.f.message)
    }
}
impl<S: miette::SourceCode + 'static> sfmt::Display for FindingReport<'_, S> {
    fn fmt(&self, f: &mut sfmt::Formatter<'_>) -> sfmt::Result {
        f.write_str(&self.f.message)
    }
}
impl<S: miette::SourceCode + 'static> std::error::Error for FindingReport<'_, S> {}

impl<S: miette::SourceCode + 'static> Diagnostic for FindingReport<'_, S> {
    fn code<'b>(&'b self) -> Option<Box<dyn sfmt::Display + 'b>> {
        Some(Box::new(self.f.code))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.f.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }
    fn help<'b>(&'b self) -> Option<Box<dyn sfmt::Display + 'b>> {
        let f = self.f;
        let mut lines = Vec::new();
        if let Some(h) = &f.help {
            lines.push(h.clone());
        }
        let mut ctx = format!("game {}{}", self.game, self.players);
        if let (Some(turn), Some(side)) = (f.turn, f.side) {
            ctx.push_str(&format!(", turn {turn}, {side}"));
        }
        if let Some(t) = f.throw {
            ctx.push_str(&format!(", throw {t}"));
        }
        if f.in_variation {
            ctx.push_str(", in a variation");
        }
        lines.push(ctx);
        if let Some(c) = &f.clause {
            lines.push(format!("rule: {c}"));
        }
        if let Some(p) = &f.position {
            lines.push(format!("position before: {p}"));
        }
        // Last, where to read what the cited clauses say.
        if let Some(c) = &f.clause {
            let explain: Vec<String> = c
                .split(',')
                .map(str::trim)
                .filter(|id| !id.is_empty())
                .map(|id| format!("`senet rules explain {id}`"))
                .collect();
            if !explain.is_empty() {
                lines.push(format!("what the rule says: {}", explain.join(", ")));
            }
        }
        Some(Box::new(lines.join("\n")))
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.src)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let label = if self.f.label.is_empty() {
            None
        } else {
            Some(self.f.label.clone())
        };
        Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
            label,
            self.f.span,
        ))))
    }
}
