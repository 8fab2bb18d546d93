//! `senet replay` (being built).

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct ReplayArgs {}

pub fn run(_args: ReplayArgs) -> ExitCode {
    eprintln!("senet replay: not available in this build");
    ExitCode::from(super::EXIT_USAGE)
}
