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
    #[command(after_help = super::examples::RULES_LIST)]
    List {
        #[arg(long, value_enum, default_value_t = super::TextJson::Text)]
        format: super::TextJson,
    },
    /// Explain a rule set: provenance, options, and every rule in words with
    /// its clause.
    #[command(after_help = super::examples::RULES_SHOW)]
    Show {
        /// A built-in name (`kendall`), the path of a .senet file, or `-`
        /// for a rule file on standard input.
        #[arg(value_name = "NAME|FILE|-", value_parser = super::complete::RuleSpec, hide_possible_values = true)]
        rules: String,
        /// Select a named option of the rule file (repeatable).
        #[arg(long = "option", value_name = "NAME", value_parser = super::complete::OptionName, hide_possible_values = true)]
        options: Vec<String>,
        #[arg(long, value_enum, default_value_t = super::TextJson::Text)]
        format: super::TextJson,
    },
    /// Explain a clause id: its text in the digest of the sources
    /// (docs/sources), the declarations that cite it and the options that
    /// change it.
    #[command(after_help = super::examples::RULES_EXPLAIN)]
    Explain {
        /// A clause id (`K-9a`), or an option name (`A-3/lowest`) for its
        /// clause.
        clause: String,
        /// Look at this rule set only (a built-in name, the path of a
        /// .senet file, or `-` for standard input); by default at every
        /// built-in rule set.
        #[arg(long, value_name = "NAME|FILE|-", value_parser = super::complete::RuleSpec, hide_possible_values = true)]
        rules: Option<String>,
        #[arg(long, value_enum, default_value_t = super::TextJson::Text)]
        format: super::TextJson,
    },
    /// Check a rule file and report every problem.
    #[command(after_help = super::examples::RULES_CHECK)]
    Check {
        /// The path of a .senet file (or a built-in name), or `-` for
        /// standard input.
        #[arg(value_name = "FILE|-")]
        file: PathBuf,
        /// Also check with these options selected (repeatable).
        #[arg(long = "option", value_name = "NAME", value_parser = super::complete::OptionName, hide_possible_values = true)]
        options: Vec<String>,
        /// Fail (exit 1) when the file has warnings, as when it has errors.
        #[arg(long)]
        deny_warnings: bool,
        /// `text` (alias `human`): diagnostics with source excerpts; `json`:
        /// one object per problem, then a summary object (JSON Lines).
        #[arg(long, value_enum, default_value_t = super::TextJson::Text)]
        format: super::TextJson,
    },
}

pub fn run(cmd: RulesCommand) -> ExitCode {
    match cmd {
        RulesCommand::List { format } => list(format),
        RulesCommand::Show {
            rules: spec,
            options,
            format,
        } => match super::rules_of(&spec, &options) {
            Ok(r) => {
                match format {
                    super::TextJson::Text => out!("{}", show(&r)),
                    super::TextJson::Json => outln!("{}", show_json(&r)),
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                use std::io::IsTerminal;
                let colour = super::color_choice().on(std::io::stderr().is_terminal());
                err!(
                    "{}",
                    super::options::GivenOptions::flags(&options).render(&e, colour)
                );
                ExitCode::from(super::EXIT_USAGE)
            }
        },
        RulesCommand::Explain {
            clause,
            rules,
            format,
        } => {
            let Some(found) = sources::clause_of_option(&clause).and_then(sources::find) else {
                err!("{}", super::render(&UnknownClause::new(&clause)));
                return ExitCode::from(super::EXIT_USAGE);
            };
            let specs: Vec<String> = match rules {
                Some(spec) => vec![spec],
                None => rules::builtin_names()
                    .iter()
                    .map(|n| n.to_string())
                    .collect(),
            };
            let text = match format {
                super::TextJson::Text => explain(&found, &specs),
                super::TextJson::Json => explain_json(&found, &specs).map(|j| format!("{j}\n")),
            };
            match text {
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
            format,
        } => check(&file, &options, format, deny_warnings),
    }
}

/// `senet rules list`.
fn list(format: super::TextJson) -> ExitCode {
    let mut all = Vec::new();
    let mut group = rules::Group::Source;
    for name in rules::builtin_names() {
        let in_group = rules::builtin_group(name).unwrap_or(rules::Group::Source);
        match rules::load(name, None, &[]) {
            Ok(r) => match format {
                super::TextJson::Text => {
                    // The sources come first, without a heading; the
                    // programs' readings follow under theirs.
                    if in_group != group {
                        group = in_group;
                        outln!("\nAs implemented by other programs:");
                    }
                    outln!(
                        "{:<10} {}\n{:<10} source: {}\n{:<10} status: {}",
                        name,
                        r.meta.title,
                        "",
                        r.meta.source,
                        "",
                        r.meta.status
                    )
                }
                super::TextJson::Json => all.push(serde_json::json!({
                    "name": name,
                    "group": in_group.name(),
                    "title": r.meta.title,
                    "source": r.meta.source,
                    "status": r.meta.status,
                })),
            },
            Err(e) => {
                report(&e);
                return ExitCode::from(super::EXIT_USAGE);
            }
        }
    }
    if format == super::TextJson::Json {
        outln!("{}", serde_json::Value::Array(all));
    }
    ExitCode::SUCCESS
}

/// `senet rules check FILE|-`: every problem of a rule file, exit 1 when
/// there is an error (or, with `--deny-warnings`, a warning).
fn check(
    file: &std::path::Path,
    options: &[String],
    format: super::TextJson,
    deny_warnings: bool,
) -> ExitCode {
    let stdin = super::is_stdin(file);
    let spec = if stdin {
        super::STDIN_RULES.to_string()
    } else {
        file.display().to_string()
    };
    let checked = if stdin {
        super::stdin_rule_file().and_then(|f| rules::check_source(f, options))
    } else {
        rules::check(&spec, None, options)
    };
    let json = format == super::TextJson::Json;
    match checked {
        Ok((r, warnings)) => {
            let denied = deny_warnings && !warnings.is_empty();
            if json {
                for w in &warnings {
                    outln!("{}", super::diagnostic_json(w));
                }
                outln!(
                    "{}",
                    serde_json::json!({
                        "summary": true,
                        "file": spec,
                        "ok": !denied,
                        "title": r.meta.title,
                        "options": r.meta.options.len(),
                        "errors": 0,
                        "warnings": warnings.len(),
                    })
                );
            } else {
                if !warnings.is_empty() {
                    err!(
                        "{}",
                        super::render(&rules::RuleWarnings {
                            file: spec.clone(),
                            warnings,
                        })
                    );
                }
                if denied {
                    errln!("{spec}: warnings denied (--deny-warnings)");
                } else {
                    outln!(
                        "{spec}: ok ({}, {} options)",
                        r.meta.title,
                        r.meta.options.len()
                    );
                }
            }
            if denied {
                ExitCode::from(super::EXIT_INPUT)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            if json {
                let problems: Vec<&dyn miette::Diagnostic> = if e.errors().is_empty() {
                    vec![&e]
                } else {
                    e.errors()
                        .iter()
                        .map(|d| d as &dyn miette::Diagnostic)
                        .collect()
                };
                for d in &problems {
                    outln!("{}", super::diagnostic_json(*d));
                }
                let errors = problems
                    .iter()
                    .filter(|d| d.severity() != Some(miette::Severity::Warning))
                    .count();
                outln!(
                    "{}",
                    serde_json::json!({
                        "summary": true,
                        "file": spec,
                        "ok": false,
                        "errors": errors,
                        "warnings": problems.len() - errors,
                    })
                );
            } else {
                use std::io::IsTerminal;
                let colour = super::color_choice().on(std::io::stderr().is_terminal());
                err!(
                    "{}",
                    super::options::GivenOptions::flags(options).render(&e, colour)
                );
            }
            // Options named on the command line that the file does not
            // have (or that do not go together) are a usage error, as in
            // every other command; a problem of the file is one of the input.
            ExitCode::from(if e.is_io() || e.is_selection() {
                super::EXIT_USAGE
            } else {
                super::EXIT_INPUT
            })
        }
    }
}

/// `senet rules show --format json`: the same facts as the text.
fn show_json(r: &Ruleset) -> serde_json::Value {
    let m = &r.meta;
    serde_json::json!({
        "name": m.name,
        "title": m.title,
        "source": m.source,
        "status": m.status,
        "options": m.options.iter().map(|(name, description)| serde_json::json!({
            "name": name,
            "description": description,
            "selected": m.selected.contains(name),
        })).collect::<Vec<_>>(),
        "rules": m.explained.iter().map(|(text, clause)| serde_json::json!({
            "text": text,
            "clauses": clause.split(',').map(str::trim).filter(|c| !c.is_empty()).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

/// `senet rules explain --format json`: the same facts as the text: the
/// clause, where it comes from, the lines of each rule set that cite it and
/// the options that change those lines.
fn explain_json(clause: &Clause, specs: &[String]) -> Result<serde_json::Value, RulesError> {
    let found = explained(clause, specs)?;
    Ok(serde_json::json!({
        "id": clause.id,
        "text": clause.text,
        "page": format!("docs/sources/{}", clause.page.file),
        "title": clause.page.title,
        "source": clause.page.source,
        "cited_by": found.cited.iter().map(|(rules, line)| serde_json::json!({
            "rules": rules,
            "line": line,
        })).collect::<Vec<_>>(),
        "changed_by": found.changes.iter().map(|c| serde_json::json!({
            "rules": c.rules,
            "option": c.option,
            "description": c.description,
            "removed": c.removed,
            "added": c.added,
        })).collect::<Vec<_>>(),
    }))
}

/// Renders a rules error on stderr.
fn report(e: &RulesError) {
    err!("{}", super::render(e));
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

/// What the rule sets say about a clause: the lines citing it, by rule
/// set, and the options that change those lines.
struct Explained {
    /// (rule set, line as `rules show` words it).
    cited: Vec<(String, String)>,
    changes: Vec<Change>,
}

/// An option that changes the lines citing a clause: selecting it removes
/// `removed` and adds `added`.
struct Change {
    rules: String,
    option: String,
    description: String,
    removed: Vec<String>,
    added: Vec<String>,
}

/// The lines of each rule set in `specs` that cite `clause`, and the
/// options that change them (or that are named after it). An option
/// changes a clause when selecting it adds or removes a line citing the
/// clause.
fn explained(clause: &Clause, specs: &[String]) -> Result<Explained, RulesError> {
    let id = clause.id;
    let mut found = Explained {
        cited: Vec::new(),
        changes: Vec::new(),
    };
    for spec in specs {
        let base = super::rules_of(spec, &[])?;
        let name = &base.meta.name;
        let lines = citing(&base, id);
        for line in &lines {
            found.cited.push((name.clone(), line.clone()));
        }
        for (option, description) in &base.meta.options {
            let with = super::rules_of(spec, std::slice::from_ref(option))?;
            let after = citing(&with, id);
            let removed: Vec<String> = lines
                .iter()
                .filter(|l| !after.contains(l))
                .cloned()
                .collect();
            let own = sources::clause_of_option(option);
            if removed.is_empty() && after.iter().all(|l| lines.contains(l)) && own != Some(id) {
                continue;
            }
            // What the option puts instead: its new lines citing this clause
            // or the option's own clause (`T-17b` replacing a `T-17` line).
            let ids: Vec<&str> = [Some(id), own].into_iter().flatten().collect();
            let added: Vec<String> = citing_any(&with, &ids)
                .into_iter()
                .filter(|l| !lines.contains(l))
                .collect();
            found.changes.push(Change {
                rules: name.clone(),
                option: option.clone(),
                description: description.clone(),
                removed,
                added,
            });
        }
    }
    Ok(found)
}

/// The text of `senet rules explain`: the clause in words and where it comes
/// from, then, for each rule set in `specs`, the lines in words that cite
/// it and the options that change those lines (printed with `-` and `+`).
pub fn explain(clause: &Clause, specs: &[String]) -> Result<String, RulesError> {
    use std::fmt::Write;
    let id = clause.id;
    let found = explained(clause, specs)?;
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
    for (name, line) in &found.cited {
        let _ = writeln!(cited, "{}", wrap(&format!("  {name}: "), line, 4, 78));
    }
    let mut changed = String::new();
    for c in &found.changes {
        let lead = format!("  {} --option {}: ", c.rules, c.option);
        let _ = writeln!(changed, "{}", wrap(&lead, &c.description, 4, 78));
        for l in &c.removed {
            let _ = writeln!(changed, "{}", wrap("    - ", l, 6, 78));
        }
        for l in &c.added {
            let _ = writeln!(changed, "{}", wrap("    + ", l, 6, 78));
        }
    }
    let scope = if specs.len() == 1 {
        let spec = specs[0].as_str();
        format!(
            "of {}",
            if spec == "-" {
                super::STDIN_RULES
            } else {
                spec
            }
        )
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
