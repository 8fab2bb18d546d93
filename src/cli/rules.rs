//! `senet rules list|show|check` (being built).

use std::process::ExitCode;

#[derive(Debug, clap::Subcommand)]
pub enum RulesCommand {
    /// List the built-in rule sets.
    List,
}

pub fn run(_cmd: RulesCommand) -> ExitCode {
    eprintln!("senet rules: not available in this build");
    ExitCode::from(super::EXIT_USAGE)
}
