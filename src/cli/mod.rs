//! The command line: raw arguments become a validated config, then one
//! library call per subcommand. Exit codes: 0 ok, 1 the input has problems,
//! 2 usage, I/O or rule-file errors.

pub mod check;
pub mod fmt;
pub mod moves;
pub mod replay;
pub mod rules;
pub mod simulate;

use clap::{CommandFactory, Parser, Subcommand};
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
