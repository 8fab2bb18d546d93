//! `senet rules list|show|check`: the built-in rule sets, a rule set in
//! words, and rule-file diagnostics. A thin layer over [`crate::rules`].

use crate::rules::{self, RulesError};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, clap::Subcommand)]
pub enum RulesCommand {
    /// List the built-in rule sets: name, title, source and status.
    List,
    /// Explain a rule set: provenance, options, and every rule in words with
    /// its clause.
    Show {
        /// A built-in name (`kendall`) or the path of a .senet file.
        rules: String,
        /// Select a named option of the rule file (repeatable).
        #[arg(long = "option", value_name = "NAME")]
        options: Vec<String>,
    },
    /// Check a rule file and report every problem.
    Check {
        /// The path of a .senet file (or a built-in name).
        file: PathBuf,
        /// Also check with these options selected (repeatable).
        #[arg(long = "option", value_name = "NAME")]
        options: Vec<String>,
    },
}

pub fn run(cmd: RulesCommand) -> ExitCode {
    match cmd {
        RulesCommand::List => {
            for name in rules::builtin_names() {
                match rules::load(name, None, &[]) {
                    Ok(r) => println!(
                        "{:<10} {}\n{:<10} source: {}\n{:<10} status: {}",
                        name, r.meta.title, "", r.meta.source, "", r.meta.status
                    ),
                    Err(e) => {
                        report(&e);
                        return ExitCode::from(super::EXIT_USAGE);
                    }
                }
            }
            ExitCode::SUCCESS
        }
        RulesCommand::Show {
            rules: spec,
            options,
        } => match rules::load(&spec, None, &options) {
            Ok(r) => {
                print!("{}", show(&r));
                ExitCode::SUCCESS
            }
            Err(e) => {
                report(&e);
                ExitCode::from(super::EXIT_USAGE)
            }
        },
        RulesCommand::Check { file, options } => {
            let spec = file.display().to_string();
            match rules::load(&spec, None, &options) {
                Ok(r) => {
                    println!(
                        "{spec}: ok ({}, {} options)",
                        r.meta.title,
                        r.meta.options.len()
                    );
                    ExitCode::SUCCESS
                }
                Err(e) if e.is_io() => {
                    report(&e);
                    ExitCode::from(super::EXIT_USAGE)
                }
                Err(e) => {
                    report(&e);
                    ExitCode::from(super::EXIT_INPUT)
                }
            }
        }
    }
}

/// Renders a rules error on stderr.
fn report(e: &RulesError) {
    eprint!("{}", super::render(e));
}

/// The text of `senet rules show`.
pub fn show(r: &crate::engine::Ruleset) -> String {
    use std::fmt::Write;
    let m = &r.meta;
    let mut o = String::new();
    let _ = writeln!(o, "{} — {}", m.name, m.title);
    let _ = writeln!(o, "source: {}", m.source);
    let _ = writeln!(o, "status: {}", m.status);
    if m.options.is_empty() {
        let _ = writeln!(o, "\noptions: none");
    } else {
        let _ = writeln!(o, "\noptions (select with --option NAME):");
        for (name, desc) in &m.options {
            let mark = if m.selected.contains(name) { "*" } else { " " };
            let _ = writeln!(o, " {mark} {name:<12} {desc}");
        }
    }
    let _ = writeln!(o, "\nrules:");
    for (text, clause) in &m.explained {
        if clause.is_empty() {
            let _ = writeln!(o, "  {text}");
        } else {
            let _ = writeln!(o, "  {text} [{clause}]");
        }
    }
    o
}
