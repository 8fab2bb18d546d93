//! `senet rules list|show|explain|check`: the built-in rule sets, a rule
//! set in words, a clause of the sources with what cites it, and rule-file
//! diagnostics. A thin layer over [`crate::rules`].

use crate::engine::Ruleset;
use crate::rules::sources::{self, Clause};
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
    /// Explain a clause id: its text in the digest of the sources
    /// (docs/sources), the declarations that cite it and the options that
    /// change it.
    Explain {
        /// A clause id (`K-9a`), or an option name (`A-3/lowest`) for its
        /// clause.
        clause: String,
        /// Look at this rule set only (a built-in name or the path of a
        /// .senet file); by default at every built-in rule set.
        #[arg(long, value_name = "NAME")]
        rules: Option<String>,
    },
    /// Check a rule file and report every problem.
    Check {
        /// The path of a .senet file (or a built-in name).
        file: PathBuf,
        /// Also check with these options selected (repeatable).
        #[arg(long = "option", value_name = "NAME")]
        options: Vec<String>,
        /// Fail (exit 1) when the file has warnings, as when it has errors.
        #[arg(long)]
        deny_warnings: bool,
    },
}

pub fn run(cmd: RulesCommand) -> ExitCode {
    match cmd {
        RulesCommand::List => {
            for name in rules::builtin_names() {
                match rules::load(name, None, &[]) {
                    Ok(r) => outln!(
                        "{:<10} {}\n{:<10} source: {}\n{:<10} status: {}",
                        name,
                        r.meta.title,
                        "",
                        r.meta.source,
                        "",
                        r.meta.status
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
                out!("{}", show(&r));
                ExitCode::SUCCESS
            }
            Err(e) => {
                report(&e);
                ExitCode::from(super::EXIT_USAGE)
            }
        },
        RulesCommand::Explain { clause, rules } => {
            let Some(found) = sources::clause_of_option(&clause).and_then(sources::find) else {
                eprint!("{}", super::render(&UnknownClause::new(&clause)));
                return ExitCode::from(super::EXIT_USAGE);
            };
            let specs: Vec<String> = match rules {
                Some(spec) => vec![spec],
                None => rules::builtin_names()
                    .iter()
                    .map(|n| n.to_string())
                    .collect(),
            };
            match explain(&found, &specs) {
                Ok(text) => {
                    out!("{text}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    report(&e);
                    ExitCode::from(super::EXIT_USAGE)
                }
            }
        }
        RulesCommand::Check {
            file,
            options,
            deny_warnings,
        } => {
            let spec = file.display().to_string();
            match rules::check(&spec, None, &options) {
                Ok((r, warnings)) => {
                    let denied = deny_warnings && !warnings.is_empty();
                    if !warnings.is_empty() {
                        eprint!(
                            "{}",
                            super::render(&rules::RuleWarnings {
                                file: spec.clone(),
                                warnings,
                            })
                        );
                    }
                    if denied {
                        eprintln!("{spec}: warnings denied (--deny-warnings)");
                        return ExitCode::from(super::EXIT_INPUT);
                    }
                    outln!(
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
    let _ = writeln!(
        o,
        "\nclauses: `senet rules explain ID` prints each one (docs/sources)."
    );
    o
}

/// A clause id that the digest of the sources does not define.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("no clause `{id}` in the digest of the sources (docs/sources)")]
#[diagnostic(code(senet::rules::unknown_clause))]
pub struct UnknownClause {
    id: String,
    #[help]
    help: String,
}

impl UnknownClause {
    fn new(id: &str) -> UnknownClause {
        let all = sources::clauses();
        let base = id.split('/').next().unwrap_or(id);
        let help = if let Some(c) = all.iter().find(|c| c.id.eq_ignore_ascii_case(base)) {
            format!("did you mean `{}`?", c.id)
        } else {
            let prefix = base.split('-').next().unwrap_or("").to_ascii_uppercase();
            let same: Vec<&str> = all
                .iter()
                .filter(|c| c.id.split('-').next() == Some(prefix.as_str()))
                .map(|c| c.id)
                .collect();
            if same.is_empty() {
                let mut prefixes: Vec<&str> =
                    all.iter().filter_map(|c| c.id.split('-').next()).collect();
                prefixes.dedup();
                format!(
                    "a clause id is a prefix, `-`, a number and perhaps a letter (`K-9a`); \
                     the prefixes are {}",
                    prefixes.join(", ")
                )
            } else {
                format!("the `{prefix}` clauses are {}", same.join(", "))
            }
        };
        UnknownClause {
            id: id.to_string(),
            help,
        }
    }
}

/// Whether an `explained` line cites `id` (its clause list is `K-9a, P-4`).
fn cites(clauses: &str, id: &str) -> bool {
    clauses.split(',').any(|c| c.trim() == id)
}

/// The lines of a rule set in words that cite `id`, as `rules show` prints
/// them.
fn citing(r: &Ruleset, id: &str) -> Vec<String> {
    citing_any(r, &[id])
}

/// The lines of a rule set in words that cite any of `ids`.
fn citing_any(r: &Ruleset, ids: &[&str]) -> Vec<String> {
    r.meta
        .explained
        .iter()
        .filter(|(_, c)| ids.iter().any(|id| cites(c, id)))
        .map(|(text, c)| format!("{text} [{c}]"))
        .collect()
}

/// `lead` then the words of `text`, wrapped to lines of at most `width`
/// columns (a longer word keeps its own line); the lines after the first
/// start with `indent` spaces.
fn wrap(lead: &str, text: &str, indent: usize, width: usize) -> String {
    let mut out = lead.to_string();
    let mut col = lead.chars().count();
    let mut line_empty = true;
    for word in text.split_whitespace() {
        let len = word.chars().count();
        if !line_empty && col + 1 + len > width {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            col = indent;
        } else if !line_empty {
            out.push(' ');
            col += 1;
        }
        out.push_str(word);
        col += len;
        line_empty = false;
    }
    out
}

/// The text of `senet rules explain`: the clause in words and where it comes
/// from, then, for each rule set in `specs`, the lines in words that cite
/// it and the options that change those lines (or that are named after it).
/// An option changes a clause when selecting it adds or removes a line
/// citing the clause; the lines are printed with `-` and `+`.
pub fn explain(clause: &Clause, specs: &[String]) -> Result<String, RulesError> {
    use std::fmt::Write;
    let id = clause.id;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{}",
        wrap(&format!("{id}  "), &clause.text, id.len() + 2, 78)
    );
    let _ = writeln!(
        o,
        "\nfrom: docs/sources/{}, {}",
        clause.page.file, clause.page.title
    );
    let _ = writeln!(o, "{}", wrap("source: ", clause.page.source, 2, 78));

    let mut cited = String::new();
    let mut changed = String::new();
    for spec in specs {
        let base = rules::load(spec, None, &[])?;
        let name = &base.meta.name;
        let lines = citing(&base, id);
        for line in &lines {
            let _ = writeln!(cited, "{}", wrap(&format!("  {name}: "), line, 4, 78));
        }
        for (option, description) in &base.meta.options {
            let with = rules::load(spec, None, std::slice::from_ref(option))?;
            let after = citing(&with, id);
            let removed: Vec<&String> = lines.iter().filter(|l| !after.contains(l)).collect();
            let own = sources::clause_of_option(option);
            if removed.is_empty() && after.iter().all(|l| lines.contains(l)) && own != Some(id) {
                continue;
            }
            // What the option puts instead: its new lines citing this clause
            // or the option's own clause (`T-17b` replacing a `T-17` line).
            let before = citing_any(&base, &[id]);
            let added: Vec<String> = citing_any(
                &with,
                &[Some(id), own].into_iter().flatten().collect::<Vec<_>>(),
            )
            .into_iter()
            .filter(|l| !before.contains(l))
            .collect();
            let lead = format!("  {name} --option {option}: ");
            let _ = writeln!(changed, "{}", wrap(&lead, description, 4, 78));
            for l in removed {
                let _ = writeln!(changed, "{}", wrap("    - ", l, 6, 78));
            }
            for l in added {
                let _ = writeln!(changed, "{}", wrap("    + ", &l, 6, 78));
            }
        }
    }
    let scope = if specs.len() == 1 {
        format!("of {}", specs[0])
    } else {
        "of the built-in rule sets".to_string()
    };
    if cited.is_empty() {
        let _ = writeln!(o, "\ncited by: no rule {scope}");
    } else {
        let _ = writeln!(
            o,
            "\ncited by the rules {scope} (as `senet rules show` words them):"
        );
        o.push_str(&cited);
    }
    if changed.is_empty() {
        let _ = writeln!(o, "\nchanged by: no option {scope}");
    } else {
        let _ = writeln!(
            o,
            "\nchanged by the options {scope} (`--option NAME`; - without it, + with it):"
        );
        o.push_str(&changed);
    }
    Ok(o)
}
