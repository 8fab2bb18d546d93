//! The command line: raw arguments become a validated config, then one
//! library call per subcommand. Exit codes: 0 ok, 1 the input has problems,
//! 2 usage, I/O or rule-file errors.

pub mod analyze;
pub mod best;
pub mod check;
pub mod compare;
pub mod fmt;
pub mod moves;
pub mod replay;
pub mod rules;
pub mod simulate;

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
#[command(name = "senet", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List, explain and check rule files.
    #[command(subcommand)]
    Rules(rules::RulesCommand),
    /// List the legal units of a position for a throw.
    Moves(moves::MovesArgs),
    /// Check game records (SGN) for legality.
    Check(check::CheckArgs),
    /// Rewrite game records in canonical SGN.
    Fmt(fmt::FmtArgs),
    /// Replay a game record unit by unit, drawing the board.
    Replay(replay::ReplayArgs),
    /// Simulate games between computer players.
    Simulate(simulate::SimulateArgs),
    /// Value every unit of game records, mark the errors, sum the luck.
    Analyze(analyze::AnalyzeArgs),
    /// Every legal unit of a position with its value, best first.
    Best(best::BestArgs),
    /// Rule sets or option sets side by side: length, balance, skill.
    Compare(compare::CompareArgs),
    /// Print shell completions.
    Completions {
        /// bash, zsh, fish, elvish or powershell
        shell: clap_complete::Shell,
    },
}

/// Runs the command line; the binary's `main` is this call.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cli.command {
        Command::Rules(cmd) => rules::run(cmd),
        Command::Moves(args) => moves::run(args),
        Command::Check(args) => check::run(args),
        Command::Fmt(args) => fmt::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Simulate(args) => simulate::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Best(args) => best::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "senet", &mut std::io::stdout());
            ExitCode::SUCCESS
        }
    }
}

/// Renders a diagnostic for standard error: colour only on a terminal and
/// when `NO_COLOR` is unset.
pub fn render(diag: &dyn miette::Diagnostic) -> String {
    use std::io::IsTerminal;
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    render_with(diag, colour)
}

/// Renders a diagnostic at a fixed width of 100 columns, with or without
/// colour.
pub fn render_with(diag: &dyn miette::Diagnostic, colour: bool) -> String {
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

/// Loads a rule set for a command, reporting a failure on standard error.
pub fn load_rules(
    spec: &str,
    relative_to: Option<&std::path::Path>,
    options: &[String],
) -> Result<crate::engine::Ruleset, ExitCode> {
    crate::rules::load(spec, relative_to, options).map_err(|e| {
        eprint!("{}", render(&e));
        ExitCode::from(EXIT_USAGE)
    })
}

/// Every `*.sgn` file below `dir`, sorted.
pub fn sgn_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<std::path::PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for p in entries {
        if p.is_dir() {
            sgn_files(&p, out)?;
        } else if p.extension().is_some_and(|e| e == "sgn") {
            out.push(p);
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
