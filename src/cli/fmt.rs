//! `senet fmt` (being built).

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct FmtArgs {}

pub fn run(_args: FmtArgs) -> ExitCode {
    eprintln!("senet fmt: not available in this build");
    ExitCode::from(super::EXIT_USAGE)
}
