//! `senet check` (being built).

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct CheckArgs {}

pub fn run(_args: CheckArgs) -> ExitCode {
    eprintln!("senet check: not available in this build");
    ExitCode::from(super::EXIT_USAGE)
}
