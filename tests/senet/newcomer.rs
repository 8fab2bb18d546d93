//! What a newcomer meets in a first hour: standard input wherever a file is
//! read, the same exit code for the same mistake in every command, and
//! messages that say precisely what is wrong and what was meant.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `senet` in the crate's folder with `stdin` on standard input:
/// (exit code, stdout, stderr).
fn senet(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command that reads no standard input may exit before it is written.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(root().join(path)).unwrap()
}

/// `-` as a rule file gives what the file's path gives, in every command
/// that reads a rule set.
#[test]
fn a_rule_file_on_standard_input_reads_as_the_file() {
    let kendall = read("rules/kendall.senet");
    let position = "WBWBWBWBWB/10/10 w 0-0 - 2";
    let same = [
        vec!["rules", "show", "@"],
        vec!["rules", "show", "@", "--format", "json"],
        vec!["rules", "explain", "K-9a", "--rules", "@"],
        vec![
            "rules", "explain", "K-9a", "--rules", "@", "--format", "json",
        ],
        vec![
            "moves",
            "--rules",
            "@",
            "--position",
            position,
            "--throw",
            "3",
            "--why",
        ],
        vec![
            "best",
            "--rules",
            "@",
            "--position",
            position,
            "--throw",
            "3",
            "--rollouts",
            "4",
        ],
        vec![
            "board",
            "--rules",
            "@",
            "--position",
            position,
            "--format",
            "text",
        ],
        vec!["check", "--rules", "@", "games/kendall-demo.sgn"],
        vec![
            "replay",
            "--rules",
            "@",
            "games/kendall-demo.sgn",
            "--to",
            "3",
        ],
        vec!["simulate", "--rules", "@", "--games", "3", "--seed", "2"],
    ];
    for args in same {
        let with = |spec: &str| -> Vec<String> {
            args.iter()
                .map(|a| {
                    if *a == "@" {
                        spec.to_string()
                    } else {
                        a.to_string()
                    }
                })
                .collect()
        };
        let file = with("rules/kendall.senet");
        let dash = with("-");
        let file: Vec<&str> = file.iter().map(String::as_str).collect();
        let dash: Vec<&str> = dash.iter().map(String::as_str).collect();
        let (fc, fo, _) = senet(&file, b"");
        let (dc, d_out, de) = senet(&dash, &kendall);
        assert_eq!(fc, 0, "{file:?}");
        assert_eq!(dc, 0, "{dash:?}: {de}");
        // The rule set is named after its file: `kendall` or `<stdin>`.
        assert_eq!(
            fo.replace("rules/kendall.senet", "kendall"),
            d_out.replace("<stdin>", "kendall"),
            "{dash:?}"
        );
    }
}

#[test]
fn a_record_and_its_rule_file_cannot_both_be_standard_input() {
    let (code, _, err) = senet(&["check", "--rules", "-", "-"], b"");
    assert_eq!(code, 2);
    assert!(
        err.contains("standard input can hold the record or the rule file, not both"),
        "{err}"
    );
    let (code, _, err) = senet(&["simulate", "--rules", "-", "--out", "x.sgn"], b"");
    assert_eq!(code, 2, "{err}");
    assert!(!root().join("x.sgn").exists());
}

#[test]
fn fmt_check_reads_standard_input() {
    let canonical = read("games/bga-demo.sgn");
    let (code, out, err) = senet(&["fmt", "--check", "-"], &canonical);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let loose = b"[Event \"x\"]\n[Rules \"bga\"]\n\n1. 3:1-4   *\n";
    let (code, out, _) = senet(&["fmt", "--check", "-"], loose);
    assert_eq!((code, out.as_str()), (1, "not canonical: <stdin>\n"));
}

/// Bytes that are not UTF-8 on standard input are a problem of the input,
/// shown at their offset, never an I/O error.
#[test]
fn standard_input_that_is_not_utf8_is_an_input_problem() {
    let rules = b"extends \"kendall\"\n\xff\n";
    let (code, _, err) = senet(&["rules", "check", "-"], rules);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("found byte 18, which is not part of a UTF-8 character"),
        "{err}"
    );
    assert!(err.contains("<stdin>:2:1"), "{err}");
    let record = b"[Event \"\xff\"]\n";
    for args in [
        &["fmt", "--check", "-"][..],
        &["analyze", "-"],
        &["replay", "-"],
    ] {
        let (code, _, err) = senet(args, record);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.contains("byte 8 of the file is not part of a UTF-8 character"),
            "{args:?}: {err}"
        );
    }
}

/// A rule file named on the command line whose bytes are not UTF-8 is an
/// error of the file at the byte, as on standard input: `rules check`
/// exits 1, not 2 as for a file it cannot read.
#[test]
fn a_rule_file_that_is_not_utf8_is_an_input_problem() {
    let scratch = Scratch::new("not_utf8");
    let path = scratch.file("bad.senet", b"extends \"kendall\"\n\xff\n");
    let (code, _, err) = senet(&["rules", "check", path.to_str().unwrap()], b"");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("found byte 18, which is not part of a UTF-8 character"),
        "{err}"
    );
    assert!(err.contains("bad.senet:2:1"), "{err}");
}

/// An option named on the command line that the rule set does not have is
/// a usage error (exit 2) in every command, with "did you mean"; so are
/// options named twice or that contradict each other.
#[test]
fn a_bad_option_on_the_command_line_is_a_usage_error_everywhere() {
    let position = "WBWBWBWBWB/10/10 w 0-0 - 2";
    let commands: [&[&str]; 8] = [
        &["rules", "check", "bga"],
        &["rules", "check", "rules/bga.senet"],
        &["rules", "show", "bga"],
        &[
            "moves",
            "--rules",
            "bga",
            "--position",
            position,
            "--throw",
            "3",
        ],
        &["check", "--rules", "bga", "games/bga-demo.sgn"],
        &["replay", "--rules", "bga", "games/bga-demo.sgn"],
        &["board", "--rules", "bga", "--position", position],
        &["simulate", "--rules", "bga", "--games", "1"],
    ];
    let selections: [&[&str]; 3] = [
        &["--option", "a-14"],
        &["--option", "A-1", "--option", "A-1"],
        &["--option", "A-3/lowest", "--option", "A-3/queue"],
    ];
    for command in commands {
        for options in selections {
            let args: Vec<&str> = command.iter().chain(options).copied().collect();
            let (code, _, err) = senet(&args, b"");
            assert_eq!(code, 2, "{args:?}: {err}");
            if options[1] == "a-14" {
                assert!(err.contains("did you mean `A-14`?"), "{args:?}: {err}");
            }
            // Shown in the options as written, the offending one
            // underlined, not as a mistake of the built-in rule file.
            let last = options[options.len() - 1];
            let written = options.join(" ");
            assert!(!err.contains("rule file"), "{args:?}: {err}");
            assert!(err.contains(&format!(
                "─[--option:1:{}]",
                written.rfind(last).unwrap() + 1
            )));
            assert!(err.contains(&format!("1 │ {written}\n")), "{args:?}: {err}");
            assert!(err.contains("(options of `bga`)"), "{args:?}: {err}");
        }
    }
    // A conflict between the file's own declarations is a problem of the
    // file that `rules check` checks: exit 1.
    let (code, _, err) = senet(
        &["rules", "check", "tests/fixtures/rules/err/conflict.senet"],
        b"",
    );
    assert_eq!(code, 1, "{err}");
    // `compare` takes options after a `+`: shown there.
    let (code, _, err) = senet(&["compare", "bga+A-1+A33", "--games", "1"], b"");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("1 │ bga+A-1+A33\n"), "{err}");
    assert!(err.contains("no such option"), "{err}");
}

/// `rules explain --format json` carries what the text says: the options
/// that change the clause, with the lines they take away and put instead.
#[test]
fn explain_json_has_the_options_that_change_a_clause() {
    let (code, text, _) = senet(&["rules", "explain", "T-17", "--rules", "thai"], b"");
    assert_eq!(code, 0);
    let (code, json, _) = senet(
        &[
            "rules", "explain", "T-17", "--rules", "thai", "--format", "json",
        ],
        b"",
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let changes = v["changed_by"].as_array().expect("changed_by is a list");
    let in_text: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("thai --option "))
        .filter_map(|l| l.split(':').next())
        .collect();
    assert!(!in_text.is_empty(), "{text}");
    let in_json: Vec<&str> = changes
        .iter()
        .map(|c| c["option"].as_str().unwrap())
        .collect();
    assert_eq!(in_text, in_json);
    let t17b = changes.iter().find(|c| c["option"] == "T-17b").unwrap();
    assert_eq!(t17b["rules"], "thai");
    assert!(
        t17b["removed"][0]
            .as_str()
            .unwrap()
            .contains("only with a throw of")
    );
    assert!(t17b["added"][0].as_str().unwrap().contains("[T-17b]"));
}

/// `--to` past the end says how long the game is in the unit of `--to`:
/// rounds, a side's turns, or the units of a turn.
#[test]
fn replay_to_past_the_end_speaks_in_the_unit_of_to() {
    let cases = [
        (
            "68",
            "--to 68 is past the end of the game: it has 67 rounds",
        ),
        (
            "68.",
            "--to 68. is past the end of the game: White's last turn is 67.",
        ),
        (
            "67...",
            "--to 67... is past the end of the game: Black's last turn is 66...",
        ),
        (
            "67.9",
            "--to 67.9 is past the end of turn 67.: it has 1 unit",
        ),
        (
            "66...5",
            "--to 66...5 is past the end of turn 66...: it has 2 units",
        ),
    ];
    for (to, said) in cases {
        let (code, _, err) = senet(&["replay", "games/bga-demo.sgn", "--to", to], b"");
        assert_eq!(code, 1, "--to {to}: {err}");
        assert!(err.contains(said), "--to {to}: {err}");
        assert!(err.contains("senet::replay::past_end"), "--to {to}: {err}");
    }
    // The last unit of the game is no error.
    let (code, _, err) = senet(&["replay", "games/bga-demo.sgn", "--to", "67.1"], b"");
    assert_eq!(code, 0, "{err}");
    // A game past the last one is the same kind of mistake: the record
    // does not hold what was asked for. Exit 1 in replay and board, as
    // both `--help`s say.
    for command in [&["replay"][..], &["board", "--format", "text"]] {
        let args: Vec<&str> = command
            .iter()
            .chain(&["games/bga-demo.sgn", "--game", "2"])
            .copied()
            .collect();
        let (code, _, err) = senet(&args, b"");
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.contains("has 1 game, so there is no game 2")
                && err.contains("senet::replay::no_such_game"),
            "{args:?}: {err}"
        );
        let (_, help, _) = senet(&[command[0], "--help"], b"");
        assert!(words(&help).contains("exit 1, as `--"), "{help}");
    }
    // `board --at` says the same with its own flag, with the same exit code.
    let (code, _, err) = senet(
        &[
            "board",
            "games/bga-demo.sgn",
            "--at",
            "68",
            "--format",
            "text",
        ],
        b"",
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("--at 68 is past the end of the game: it has 67 rounds"),
        "{err}"
    );
    // The game's last unit, its turn and its round are drawn, as `replay
    // --to` stops there: the final position, with the last unit marked.
    for at in ["67.1", "67.", "67"] {
        let (code, out, err) = senet(
            &[
                "board",
                "games/bga-demo.sgn",
                "--at",
                at,
                "--format",
                "text",
            ],
            b"",
        );
        assert_eq!(code, 0, "--at {at}: {err}");
        assert!(out.contains("after 67. White 3:28-off"), "--at {at}: {out}");
    }
}

/// Problems of the header come in the order of its lines, whichever step
/// found them.
#[test]
fn header_findings_come_in_line_order() {
    let record = "[Event \"x\"]\n[Site \"?\"]\n[Date \"2026.13.45\"]\n[Round \"?\"]\n\
                  [White \"a\"]\n[Black \"b\"]\n[result \"*\"]\n[Rules \"bga\"]\n\
                  [RuleOptions \"A-1;;A-14\"]\n[Event \"again\"]\n[FirstPlayer \"Green\"]\n\n*\n";
    let (code, out, _) = senet(&["check", "--format", "short", "-"], record.as_bytes());
    assert_eq!(code, 1);
    let lines: Vec<usize> = out
        .lines()
        .filter_map(|l| l.strip_prefix("<stdin>:"))
        .map(|l| l.split(':').next().unwrap().parse().unwrap())
        .collect();
    assert!(lines.len() >= 4, "{out}");
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted, "{out}");
}

/// A `Date` with several wrong parts names each, at the parts themselves.
#[test]
fn a_wrong_date_names_every_wrong_part() {
    let record = |date: &str| {
        format!(
            "[Event \"x\"]\n[Site \"?\"]\n[Date \"{date}\"]\n[Round \"?\"]\n[White \"a\"]\n\
             [Black \"b\"]\n[Result \"*\"]\n[Rules \"bga\"]\n[FirstPlayer \"White\"]\n\n*\n"
        )
    };
    let cases = [
        // (date, column of the first wrong part, words)
        (
            "2026.12.45",
            16,
            "`2026.12.45` has no day 45: month 12 has 31 days",
        ),
        (
            "2026.13.45",
            13,
            "`2026.13.45` has no month 13: months run from 01 to 12, and no day 45: days run from 01 to 31",
        ),
        ("2026.02.30", 16, "has no day 30: month 02 has 28 days"),
        ("2026.1.45", 13, "the month `1` is not 2 digits (or ??)"),
    ];
    for (date, column, said) in cases {
        let (code, out, _) = senet(
            &["check", "--format", "short", "-"],
            record(date).as_bytes(),
        );
        assert_eq!(code, 1, "{date}: {out}");
        let line = out
            .lines()
            .find(|l| l.contains("senet::sgn::date"))
            .unwrap_or_default();
        assert!(
            line.starts_with(&format!("<stdin>:3:{column}:")),
            "{date}: {out}"
        );
        assert!(line.contains(said), "{date}: {out}");
    }
}

/// A rule set named on the command line that is near a built-in name gets
/// "did you mean", as the `Rules` tag and `extends` do.
#[test]
fn a_misspelt_rule_set_on_the_command_line_gets_did_you_mean() {
    let position = "WBWBWBWBWB/10/10 w 0-0 - 2";
    for (spec, meant) in [("kendal", "kendall"), ("BGA", "bga")] {
        let (code, _, err) = senet(
            &[
                "moves",
                "--rules",
                spec,
                "--position",
                position,
                "--throw",
                "3",
            ],
            b"",
        );
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(&format!("did you mean `{meant}`?")), "{err}");
    }
}

/// `replay` and `board` take the header step `check` takes: a mistake in
/// the `RuleOptions` tag is a problem of the record at the tag (exit 1),
/// not a rule file that fails to compile (exit 2).
#[test]
fn replay_and_board_report_rule_options_at_the_tag() {
    let record = "tests/fixtures/sgn/err/rule_options-conflict.sgn";
    for args in [
        &["replay", record][..],
        &["board", record, "--format", "text"],
    ] {
        let (code, _, err) = senet(args, b"");
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains("senet::sgn::rule_options"), "{args:?}: {err}");
        assert!(err.contains("(moves not checked)"), "{args:?}: {err}");
    }
}

/// `check - -` would read standard input twice: it is a usage error.
#[test]
fn standard_input_is_named_once() {
    let record = std::fs::read("games/bga-demo.sgn").unwrap();
    let (code, _, err) = senet(&["check", "-", "-"], &record);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("more than once"), "{err}");
    let (code, _, err) = senet(&["check", "-"], &record);
    assert_eq!(code, 0, "{err}");
}

/// A record whose tags have a duplicate, a name in the wrong case and a
/// date that does not exist, its moves legal.
const BAD_TAGS: &str = "[Event \"Club evening\"]\n[Site \"Cairo\"]\n[Date \"2026.13.45\"]\n\
[Round \"1\"]\n[White \"Nefer\"]\n[black \"Kiya\"]\n[Result \"*\"]\n[Rules \"bga\"]\n\
[Round \"2\"]\n\n1. 2:9-11\n1... 2:10-12\n*\n";

/// `replay`, `board` and `analyze` take check's header step with its tag
/// findings: the same codes and words, and exit 1 for an error.
#[test]
fn every_command_that_reads_a_record_reports_checks_tag_findings() {
    let scratch = Scratch::new("tag_findings");
    let path = scratch.file("tags.sgn", BAD_TAGS);
    let path = path.to_str().unwrap();
    let (code, out, _) = senet(&["check", "--format", "json", path], b"");
    assert_eq!(code, 1);
    let found: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v.get("message").is_some())
        .collect();
    let codes: Vec<&str> = found.iter().map(|f| f["code"].as_str().unwrap()).collect();
    for want in [
        "senet::sgn::date",
        "senet::sgn::tag_case",
        "senet::sgn::duplicate_tag",
    ] {
        assert!(codes.contains(&want), "check: {codes:?}");
    }
    for args in [
        &["replay", path][..],
        &["board", path, "--format", "text"],
        &["analyze", path],
    ] {
        let (code, _, err) = senet(args, b"");
        assert_eq!(code, 1, "{args:?}: {err}");
        let said = words(&err);
        for f in &found {
            let (code, message) = (f["code"].as_str().unwrap(), f["message"].as_str().unwrap());
            assert!(
                said.contains(code) && said.contains(&words(message)),
                "{args:?} does not say `{code}: {message}`:\n{err}"
            );
        }
    }
}

/// `text` with every run of white space one space: a diagnostic wraps long
/// lines where the terminal ends.
fn words(text: &str) -> String {
    text.split_whitespace()
        .filter(|w| *w != "│")
        .collect::<Vec<_>>()
        .join(" ")
}

/// A folder of one test, removed when the test ends, passed or failed
/// (the guard is dropped while a failed assertion unwinds).
struct Scratch(std::path::PathBuf);

impl Scratch {
    /// An empty folder named after the test and this run.
    fn new(test: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("senet-newcomer-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// A file of `text` in the folder.
    fn file(&self, name: &str, text: impl AsRef<[u8]>) -> std::path::PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A test's folder is gone when the test ends, even when it fails.
#[test]
fn scratch_folders_are_removed_even_on_failure() {
    let kept = std::panic::catch_unwind(|| {
        let scratch = Scratch::new("failing");
        scratch.file("a.sgn", "*\n");
        assert!(scratch.0.join("a.sgn").exists());
        let dir = scratch.0.clone();
        std::panic::panic_any(dir);
    });
    let dir = kept.expect_err("the closure fails");
    let dir = dir.downcast::<std::path::PathBuf>().unwrap();
    assert!(!dir.exists(), "{} was left behind", dir.display());
}

/// A folder with no record in it: nothing was checked, which is a usage
/// problem (exit 2), said on standard error.
#[test]
fn check_of_a_folder_without_records_says_nothing_was_checked() {
    let scratch = Scratch::new("no_records");
    std::fs::create_dir_all(scratch.0.join("sub")).unwrap();
    scratch.file("notes.txt", "not a record");
    let (code, _, err) = senet(&["check", scratch.0.to_str().unwrap()], b"");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no .sgn file in"), "{err}");
    assert!(err.contains("nothing was checked"), "{err}");
}

/// `--max-errors 0` shows each game's first problem and counts the rest,
/// as `--help` says.
#[test]
fn max_errors_zero_shows_the_first_problem() {
    let (_, help, _) = senet(&["check", "--help"], b"");
    assert!(words(&help).contains("0 is taken as 1"), "{help}");
    let record = "tests/fixtures/sgn/err/date.sgn";
    let (one_code, one, _) = senet(
        &["check", "--format", "short", "--max-errors", "1", record],
        b"",
    );
    let (zero_code, zero, _) = senet(
        &["check", "--format", "short", "--max-errors", "0", record],
        b"",
    );
    assert_eq!((zero_code, zero.as_str()), (one_code, one.as_str()));
    assert_eq!(zero_code, 1);
    assert!(zero.contains("senet::sgn::date"), "{zero}");
}

/// The help for a record that does not say its rules names the command
/// being run, with `--rules`.
#[test]
fn missing_rules_help_names_the_command_being_run() {
    let record = "tests/fixtures/sgn/err/missing_rules.sgn";
    for (args, command) in [
        (&["check", record][..], "check"),
        (&["replay", record], "replay"),
        (&["board", record, "--format", "text"], "board"),
        (&["analyze", record], "analyze"),
    ] {
        let (code, _, err) = senet(args, b"");
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            words(&err).contains(&format!("or run `senet {command} --rules NAME`")),
            "{args:?}: {err}"
        );
    }
}

/// A finding that cites clauses ends with the command that prints them,
/// and JSON gives the ids as an array beside the old `clause` string.
#[test]
fn cited_clauses_point_to_rules_explain() {
    let record = "tests/fixtures/sgn/err/illegal_move-K-9a.sgn";
    let (code, _, err) = senet(&["check", record], b"");
    assert_eq!(code, 1, "{err}");
    let help = words(&err);
    assert!(
        help.contains(
            "what the rule says: `senet rules explain K-9a`, `senet rules explain P-4` 1 game"
        ),
        "{err}"
    );
    let (_, out, _) = senet(&["check", "--format", "json", record], b"");
    let f: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(f["clause"], "K-9a, P-4");
    assert_eq!(f["clauses"], serde_json::json!(["K-9a", "P-4"]));
    for id in ["K-9a", "P-4"] {
        let (code, out, err) = senet(&["rules", "explain", id], b"");
        assert_eq!(code, 0, "{id}: {err}");
        assert!(out.starts_with(id), "{id}: {out}");
    }
}

/// fmt prints the warning check gives for a comment that swallowed moves,
/// and `fmt --check` does not call canonical a text that lacks a turn
/// number (`fmt --fix` adds it).
#[test]
fn fmt_warns_of_swallowed_moves_and_checks_turn_numbers() {
    let record = "tests/fixtures/sgn/err/swallowed_moves.sgn";
    let (_, _, err) = senet(&["fmt", "--stdout", record], b"");
    assert!(err.contains("senet::sgn::swallowed_moves"), "{err}");
    assert!(err.contains("game 1\n"), "the file's first game: {err}");
    let (_, _, err) = senet(&["fmt", "--check", record], b"");
    assert!(err.contains("senet::sgn::swallowed_moves"), "{err}");
    // Byte for byte canonical, but Black's turn has no `1...`.
    let text = "[Event \"Club evening\"]\n[Site \"Cairo\"]\n[Date \"2026.03.14\"]\n\
[Round \"1\"]\n[White \"Nefer\"]\n[Black \"Kiya\"]\n[Result \"*\"]\n[Rules \"bga\"]\n\n\
1. 2:9-11 2:10-12\n2. 2:7-9\n*\n";
    let scratch = Scratch::new("turn_numbers");
    let path = scratch.file("turns.sgn", text);
    let (_, canonical, _) = senet(&["fmt", "--stdout", path.to_str().unwrap()], b"");
    assert_eq!(canonical, text, "the text is otherwise canonical");
    let (code, out, err) = senet(&["fmt", "--check", path.to_str().unwrap()], b"");
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("not canonical")
            && out.contains("turns.sgn (a turn starts without its turn number at 10:11;"),
        "{out}"
    );
    assert!(out.contains("senet fmt --fix"), "{out}");
    // Without a `Rules` tag fmt cannot know the turns or the marks: every
    // mode says what it left unchecked and unfixed, and `--check` does not
    // fail a text it could not judge.
    let untagged = text.replace("[Rules \"bga\"]\n", "");
    let path = scratch.file("untagged.sgn", &untagged);
    let path = path.to_str().unwrap();
    for mode in ["--check", "--stdout", "--fix"] {
        let (code, _, err) = senet(&["fmt", mode, path], b"");
        assert_eq!(code, 0, "{mode}: {err}");
        assert!(
            words(&err).contains(&format!(
                "note: {path}: game 1 has no `Rules` tag, so its turn numbers and its `x` and \
                 `+` marks were neither checked nor fixed"
            )),
            "{mode}: {err}"
        );
    }
    assert_eq!(std::fs::read_to_string(path).unwrap(), untagged);
    // fmt's --help says why it takes no --rules.
    let (_, help, _) = senet(&["fmt", "--help"], b"");
    assert!(
        words(&help).contains("fmt takes no `--rules` or `--option`"),
        "{help}"
    );
}

/// Look-alike characters are named by code point, with the fix, in
/// position strings and option names too.
#[test]
fn look_alikes_are_named_in_positions_and_option_names() {
    let (code, _, err) = senet(
        &[
            "moves",
            "--rules",
            "bga",
            "--position",
            "WBWBWBWBWB/10/10 w 0\u{2013}0 - 2",
            "--throw",
            "3",
        ],
        b"",
    );
    assert_eq!(code, 2, "{err}");
    assert!(words(&err).contains("U+2013 EN DASH"), "{err}");
    assert!(
        words(&err).contains("write `WBWBWBWBWB/10/10 w 0-0 - 2`"),
        "{err}"
    );
    let (code, _, err) = senet(
        &["rules", "show", "bga", "--option", "A\u{2212}3/lowest"],
        b"",
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("U+2212 MINUS SIGN"), "{err}");
    assert!(words(&err).contains("write `A-3/lowest`"), "{err}");
    let record = BAD_TAGS
        .replace("[Date \"2026.13.45\"]", "[Date \"2026.03.14\"]")
        .replace("[black ", "[Black ")
        .replace("[Round \"2\"]\n", "[RuleOptions \"A\u{2013}1\"]\n");
    let scratch = Scratch::new("look_alikes");
    let path = scratch.file("option.sgn", &record);
    let (code, _, err) = senet(&["check", path.to_str().unwrap()], b"");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("U+2013 EN DASH") && err.contains("write `A-1`"),
        "{err}"
    );
    let record = BAD_TAGS
        .replace("[Date \"2026.13.45\"]", "[Date \"2026.03.14\"]")
        .replace("[black ", "[Black ")
        .replace(
            "[Round \"2\"]\n",
            "[SetUp \"1\"]\n[Position \"WBWBWBWBWB/10/10\u{00A0}w 0-0 - 1\"]\n",
        );
    let path = scratch.file("position.sgn", &record);
    let (code, _, err) = senet(&["check", path.to_str().unwrap()], b"");
    assert_eq!(code, 1, "{err}");
    assert!(words(&err).contains("U+00A0 NO-BREAK SPACE"), "{err}");
}

/// An empty option name on the command line (`--option ''`, `' '`, or an
/// empty part of `A-1;;A-14`) is a usage error, as the same mistake in a
/// record's `RuleOptions` tag is an input error; it selected nothing.
#[test]
fn an_empty_option_name_is_a_usage_error() {
    for name in ["", " ", "A-1;;A-14"] {
        let (code, _, err) = senet(&["rules", "show", "bga", "--option", name], b"");
        assert_eq!(code, 2, "--option {name:?}: {err}");
        assert!(err.contains("has an empty option name"), "{err}");
    }
    let (code, _, err) = senet(&["rules", "show", "bga", "--option", "A-1"], b"");
    assert_eq!(code, 0, "{err}");
}
