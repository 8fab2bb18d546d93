//! The README's table of command-line flags is generated here from clap's
//! definition of the command line and must appear in the README verbatim:
//! a flag added, renamed or removed fails this test until the table says so.

use clap::CommandFactory;
use senet::cli::Cli;
use std::path::Path;

/// Every command that runs (a leaf of the tree), with its path of names.
fn leaves(cmd: &clap::Command, path: &str, out: &mut Vec<(String, clap::Command)>) {
    let here = if path.is_empty() {
        cmd.get_name().to_string()
    } else {
        format!("{path} {}", cmd.get_name())
    };
    let subs: Vec<&clap::Command> = cmd
        .get_subcommands()
        .filter(|s| s.get_name() != "help")
        .collect();
    if subs.is_empty() {
        out.push((here, cmd.clone()));
    } else {
        for s in subs {
            leaves(s, &here, out);
        }
    }
}

/// The flags that every command has and that the table's note covers.
const EVERYWHERE: [&str; 3] = ["help", "version", "color"];

/// The table, one row per command: its inputs, its `--format` values and
/// its other flags in the order `--help` lists them.
fn table() -> String {
    let mut root = Cli::command();
    root.build();
    let mut rows = Vec::new();
    for s in root.get_subcommands().filter(|s| s.get_name() != "help") {
        leaves(s, "senet", &mut rows);
    }
    // A `|` inside a cell is escaped, as Markdown tables need.
    let mut t = String::from("| command | input | `--format` | other flags |\n|---|---|---|---|\n");
    for (name, cmd) in rows {
        let inputs: Vec<String> = cmd
            .get_positionals()
            .map(|a| {
                let names = a.get_value_names().map(|v| v.join(" ")).unwrap_or_default();
                format!("`{}`", names.replace('|', "\\|"))
            })
            .collect();
        let formats: Vec<String> = cmd
            .get_arguments()
            .find(|a| a.get_long() == Some("format"))
            .map(|a| {
                a.get_possible_values()
                    .iter()
                    .filter(|v| !v.is_hide_set())
                    .map(|v| format!("`{}`", v.get_name()))
                    .collect()
            })
            .unwrap_or_default();
        let flags: Vec<String> = cmd
            .get_arguments()
            .filter(|a| !a.is_hide_set())
            .filter_map(|a| a.get_long())
            .filter(|l| *l != "format" && !EVERYWHERE.contains(l))
            .map(|l| format!("`--{l}`"))
            .collect();
        let or_dash = |v: Vec<String>| {
            if v.is_empty() {
                "—".to_string()
            } else {
                v.join(", ")
            }
        };
        t.push_str(&format!(
            "| `{name}` | {} | {} | {} |\n",
            or_dash(inputs),
            or_dash(formats),
            or_dash(flags)
        ));
    }
    t
}

#[test]
fn readme_flag_table_matches_the_command_line() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let expected = table();
    assert!(
        readme.contains(&expected),
        "the README's table of flags differs from the command line; it should read:\n\n{expected}"
    );
}

#[test]
fn every_command_takes_color_and_shows_examples() {
    let mut root = Cli::command();
    root.build();
    let mut rows = Vec::new();
    for s in root.get_subcommands().filter(|s| s.get_name() != "help") {
        leaves(s, "senet", &mut rows);
    }
    assert!(rows.len() >= 14, "{}", rows.len());
    for (name, cmd) in &rows {
        assert!(
            cmd.get_arguments().any(|a| a.get_long() == Some("color")),
            "{name} has no --color"
        );
        let after = cmd
            .get_after_help()
            .map(|h| h.to_string())
            .unwrap_or_default();
        assert!(
            after.starts_with("Examples:\n  senet "),
            "{name}: no examples in --help"
        );
        // Every example runs the command it documents.
        let words = name.strip_prefix("senet ").unwrap();
        assert!(
            after
                .lines()
                .skip(1)
                .all(|l| l.trim().is_empty() || l.contains(&format!("senet {words}"))),
            "{name}: an example of another command:\n{after}"
        );
    }
}

/// The words of a documented command line up to a shell redirection,
/// pipe or comment: quotes (either kind) group words.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let (mut quote, mut in_word) = (None, false);
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, '>' | '<' | '|' | '#' | '&') if !in_word => break,
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// Every example of every `--help`, and every `senet` command line of the
/// README's shell blocks, is a command line that the program accepts: a
/// flag renamed or a value no longer taken fails here, not in a user's
/// first hour.
#[test]
fn every_documented_command_line_parses() {
    use clap::Parser;
    let mut root = Cli::command();
    root.build();
    let mut rows = vec![("senet".to_string(), root.clone())];
    for s in root.get_subcommands().filter(|s| s.get_name() != "help") {
        leaves(s, "senet", &mut rows);
        rows.push((format!("senet {}", s.get_name()), s.clone()));
    }
    let mut lines: Vec<(String, String)> = Vec::new();
    for (name, cmd) in &rows {
        let after = cmd
            .get_after_help()
            .map(|h| h.to_string())
            .unwrap_or_default();
        for l in after.lines().filter(|l| l.starts_with("  senet ")) {
            // The description column is set off by two spaces or more.
            let command = l.trim().split("  ").next().unwrap();
            lines.push((format!("{name} --help"), command.to_string()));
        }
    }
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    for block in readme.split("```sh\n").skip(1) {
        let block = block.split("\n```").next().unwrap();
        for l in block.lines().filter(|l| l.starts_with("senet ")) {
            lines.push(("README".to_string(), l.to_string()));
        }
    }
    assert!(lines.len() > 40, "only {} command lines found", lines.len());
    let mut refused = Vec::new();
    for (whence, line) in &lines {
        if let Err(e) = Cli::try_parse_from(shell_words(line)) {
            refused.push(format!("{whence}: {line}\n{e}"));
        }
    }
    assert!(refused.is_empty(), "{}", refused.join("\n"));
}

#[test]
fn every_text_format_accepts_human() {
    let mut root = Cli::command();
    root.build();
    let mut rows = Vec::new();
    for s in root.get_subcommands().filter(|s| s.get_name() != "help") {
        leaves(s, "senet", &mut rows);
    }
    for (name, cmd) in &rows {
        if let Some(format) = cmd.get_arguments().find(|a| a.get_long() == Some("format")) {
            let values = format.get_possible_values();
            let text = values.iter().find(|v| v.get_name() == "text");
            assert!(text.is_some(), "{name}: --format has no `text`");
            assert!(
                text.unwrap().matches("human", false),
                "{name}: `human` is not an alias of `text`"
            );
        }
    }
}

/// Runs the binary from the repository root with `stdin` as its input.
fn senet(args: &[&str], stdin: &str, env: &[(&str, &str)]) -> (i32, String, String) {
    use std::io::Write;
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_senet"));
    cmd.args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("the senet binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().expect("exited normally"),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A Kendall record with its `Rules` tag taken out.
fn untagged() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text =
        std::fs::read_to_string(root.join("tests/fixtures/sgn/ok/kendall-0001.sgn")).unwrap();
    let out: String = text
        .lines()
        .filter(|l| !l.starts_with("[Rules "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(out.len(), text.len());
    out
}

#[test]
fn replay_and_board_take_the_rules_a_record_lacks() {
    let record = untagged();
    let (code, _, err) = senet(&["replay", "-", "--format", "positions"], &record, &[]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("senet::sgn::missing_rules"), "{err}");
    let (code, out, err) = senet(
        &["replay", "-", "--format", "positions", "--rules", "kendall"],
        &record,
        &[],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().count() > 10, "{out}");
    assert!(out.starts_with("WBWBWBWBWB/10/10 b 0-0 - 1\n"), "{out}");
    let (code, out, err) = senet(
        &["board", "-", "--format", "json", "--rules", "kendall"],
        &record,
        &[],
    );
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["rules"], "kendall");
    assert_eq!(json["position"], out_last(&record));
}

/// The last position of `replay --format positions` for a record under Kendall rules.
fn out_last(record: &str) -> String {
    let (_, out, _) = senet(
        &["replay", "-", "--format", "positions", "--rules", "kendall"],
        record,
        &[],
    );
    out.lines().last().unwrap().to_string()
}

#[test]
fn rules_check_reads_standard_input() {
    let (code, out, err) = senet(&["rules", "check", "-"], "extends \"kendall\"\n", &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("<stdin>: ok ("), "{out}");
    let (code, out, _) = senet(
        &["rules", "check", "-", "--format", "json"],
        "extends \"kendall\"\nat 31: gate\n",
        &[],
    );
    assert_eq!(code, 1);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.last().unwrap()["summary"], true);
    assert_eq!(lines.last().unwrap()["errors"], lines.len() - 1);
    assert_eq!(lines[0]["line"], 2);
    assert!(
        lines[0]["code"]
            .as_str()
            .unwrap()
            .starts_with("senet::rules::"),
        "{out}"
    );
}

#[test]
fn zero_threads_and_zero_games_are_refused_by_name() {
    for args in [
        &["check", "games/", "--threads", "0"][..],
        &["simulate", "--rules", "bga", "--threads", "0"],
        &["simulate", "--rules", "bga", "--games", "0"],
        &["compare", "bga", "thai", "--games", "0"],
    ] {
        let (code, _, err) = senet(args, "", &[]);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("0 threads would do no work")
                || err.contains("0 games would measure nothing"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn color_is_chosen_on_every_command_and_no_color_is_honoured() {
    let bad = ["rules", "show", "no-such-rules"];
    let (code, _, plain) = senet(&bad, "", &[]);
    assert_eq!(code, 2);
    assert!(!plain.contains('\u{1b}'), "{plain}");
    let always: Vec<&str> = bad.iter().copied().chain(["--color", "always"]).collect();
    let (_, _, coloured) = senet(&always, "", &[("NO_COLOR", "1")]);
    assert!(coloured.contains('\u{1b}'), "{coloured}");
    // `auto` on a pipe, and NO_COLOR under `auto`: no colour.
    let (_, _, auto) = senet(&bad, "", &[("NO_COLOR", "1")]);
    assert!(!auto.contains('\u{1b}'), "{auto}");
}

#[test]
fn completion_offers_the_builtin_rule_sets_and_their_options() {
    let (code, out, err) = senet(&["completions", "bash"], "", &[]);
    assert_eq!(code, 0, "{err}");
    for name in senet::rules::builtin_names() {
        assert!(out.contains(name), "no {name} in the bash completion");
    }
    for option in ["K-15a", "T-17b", "A-3/lowest"] {
        assert!(out.contains(option), "no {option} in the bash completion");
    }
    // The lists feed completion only: --help does not print them.
    let (_, help, _) = senet(&["check", "--help"], "", &[]);
    assert!(!help.contains("possible values"), "{help}");
    assert!(!help.contains("KD-10/trap"), "{help}");
    assert!(help.contains("Examples:"), "{help}");
}

/// Every shell's script offers the rule set names and option names, and
/// `compare`'s rule sets complete as `--rules` does.
#[test]
fn every_shell_completes_rule_sets_options_and_compare() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let (code, out, err) = senet(&["completions", shell], "", &[]);
        assert_eq!(code, 0, "{shell}: {err}");
        for name in senet::rules::builtin_names() {
            assert!(out.contains(name), "no {name} in the {shell} completion");
        }
        for option in ["K-15a", "T-17b", "A-3/lowest"] {
            assert!(
                out.contains(option),
                "no {option} in the {shell} completion"
            );
        }
    }
    // compare's RULES.
    let (_, fish, _) = senet(&["completions", "fish"], "", &[]);
    assert!(
        fish.lines().any(|l| l
            .starts_with("complete -c senet -n \"__fish_senet_using_subcommand compare\" -f -a")
            && l.contains("kendall1979")),
        "compare's RULES do not complete in fish"
    );
    let (_, bash, _) = senet(&["completions", "bash"], "", &[]);
    let compare = &bash[bash.find("senet__subcmd__compare)").unwrap()..];
    let compare = &compare[..compare.find(";;").unwrap()];
    assert!(compare.contains("kendall1979"), "{compare}");
    let (_, help, _) = senet(&["compare", "--help"], "", &[]);
    assert!(!help.contains("piccione"), "{help}");
}

#[test]
fn rules_list_and_show_print_json() {
    let (code, out, _) = senet(&["rules", "list", "--format", "json"], "", &[]);
    assert_eq!(code, 0);
    let list: serde_json::Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, senet::rules::builtin_names());
    // Each rule set names its group: the sources, then the programs'
    // readings, never mixed.
    let groups: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["group"].as_str().unwrap())
        .collect();
    for (name, group) in names.iter().zip(&groups) {
        assert_eq!(
            Some(*group),
            senet::rules::builtin_group(name).map(|g| g.name()),
            "{name}"
        );
    }
    assert_eq!(groups[0], "source");
    assert!(groups.contains(&"program"), "{groups:?}");
    assert!(groups.windows(2).all(|w| w[0] == w[1] || w[1] == "program"));
    // The text lists the programs' readings under their own heading.
    let (_, text, _) = senet(&["rules", "list"], "", &[]);
    let (sources, programs) = text
        .split_once("\nAs implemented by other programs:\n")
        .expect("a heading for the programs' readings");
    assert!(sources.starts_with("bga "), "{text}");
    assert!(programs.contains("ludii-bell "), "{text}");
    assert!(!sources.contains("ludii-"), "{text}");
    let (code, out, _) = senet(
        &[
            "rules", "show", "thai", "--option", "T-17b", "--format", "human",
        ],
        "",
        &[],
    );
    assert_eq!(code, 0);
    assert!(out.starts_with("thai — "), "{out}");
    let (_, out, _) = senet(
        &[
            "rules", "show", "thai", "--option", "T-17b", "--format", "json",
        ],
        "",
        &[],
    );
    let show: serde_json::Value = serde_json::from_str(&out).unwrap();
    let selected: Vec<&str> = show["options"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["selected"] == true)
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    assert_eq!(selected, ["T-17b"]);
    let (_, out, _) = senet(
        &[
            "rules", "explain", "T-17", "--rules", "thai", "--format", "json",
        ],
        "",
        &[],
    );
    let explain: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(explain["id"], "T-17");
    assert!(!explain["cited_by"].as_array().unwrap().is_empty());
}
