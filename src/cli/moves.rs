//! `senet moves` (being built).

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct MovesArgs {}

pub fn run(_args: MovesArgs) -> ExitCode {
    eprintln!("senet moves: not available in this build");
    ExitCode::from(super::EXIT_USAGE)
}
