//! `senet simulate` (being built).

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct SimulateArgs {}

pub fn run(_args: SimulateArgs) -> ExitCode {
    eprintln!("senet simulate: not available in this build");
    ExitCode::from(super::EXIT_USAGE)
}
