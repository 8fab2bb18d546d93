//! `senet check`: the legality layer over game records, tested with data.
//!
//! - `tests/fixtures/sgn/err/*.sgn`: one record per diagnostic code and per
//!   clause of docs/sources that a record can break, each legal up to one unit
//!   or tag. Every finding is snapshotted twice: as a stable list of its
//!   fields (code, severity, line:col, message, label, help, clause, turn,
//!   side, unit, throw, legal units, position) and as the miette report the
//!   command line prints (no colour, width 100). A fixture is named
//!   `<code>[-<clause>][-<detail>].sgn` and must produce that code, naming
//!   that clause (checked apart from the snapshots, so that a fixture of a
//!   known bug fails its own test without hiding the other snapshots).
//! - every `"senet::sgn::…"` code written in the checker's sources must be
//!   produced by at least one fixture, so a new code without a fixture fails.
//! - `tests/fixtures/sgn/ok/*.sgn` (the generated example records) and
//!   `tests/fixtures/sgn/ok-check/*.sgn` (hand-written records of the rules'
//!   special cases) with a `Rules` tag check with no finding at all. The
//!   `ok/loose/` records exercise the syntax only and are not checked here.
//! - the binary: JSON Lines fields and the exit codes 0, 1 and 2.

use miette::NamedSource;
use senet::notation::check::{CheckOptions, RulesCache, check_game};
use senet::notation::reader::{Reader, SyntaxError};
use senet::notation::replay::{Code, Finding, Severity};
use senet::notation::syntax::Node;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_prepend_module_to_snapshot(false);
    s
}

/// The `*.sgn` files directly in `tests/fixtures/sgn/<dir>`, sorted.
fn fixtures(dir: &str) -> Vec<PathBuf> {
    let base = root().join("tests/fixtures/sgn").join(dir);
    let Ok(entries) = std::fs::read_dir(&base) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "sgn"))
        .collect();
    out.sort();
    out
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// A syntax error as the checker reports it (as `src/cli/check.rs` does).
fn syntax_finding(e: &SyntaxError) -> Finding {
    let mut f = Finding::error(Code::Syntax, e.message.clone(), e.span).label(e.label.clone());
    f.help = e.help.clone();
    f
}

/// One game's findings, with the players for the report.
struct Checked {
    game: usize,
    players: String,
    findings: Vec<Finding>,
}

/// Checks every game of a file as `senet check --rules-path rules` does:
/// a fixture may name a rule file of the repository's `rules/` folder by
/// its path, which lies outside the fixture's own folder tree.
fn check_file(path: &Path, text: &str) -> Vec<Checked> {
    let mut cache = RulesCache::new(senet::rules::Confinement {
        paths: vec![root().join("rules")],
        ..Default::default()
    });
    let mut out = Vec::new();
    for (i, g) in Reader::new(text).enumerate() {
        match g {
            Err(e) => out.push(Checked {
                game: e.game.max(i + 1),
                players: String::new(),
                findings: vec![syntax_finding(&e)],
            }),
            Ok(game) => {
                let report = check_game(&game, path.parent(), &CheckOptions::default(), &mut cache)
                    .unwrap_or_else(|e| {
                        panic!("{}: the rule file failed: {:?}", relative(path), e.0)
                    });
                let players = match (game.tag("White"), game.tag("Black")) {
                    (Some(w), Some(b)) => format!(" ({w} – {b})"),
                    _ => String::new(),
                };
                out.push(Checked {
                    game: game.index,
                    players,
                    findings: report.findings,
                });
            }
        }
    }
    out
}

fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// Replaces what changes when someone else's file changes: the digest of a
/// built-in rule file (edited with the rules) and the list of built-in rule
/// sets (grows with each new one).
fn stable(f: &Finding) -> Finding {
    let mut f = f.clone();
    fn redact(s: &str) -> String {
        let mut s = s.to_string();
        if let Some(i) = s.find("the rule file's digest is now `sha256:") {
            let start = i + "the rule file's digest is now `sha256:".len();
            if let Some(len) = s[start..].find('`') {
                s.replace_range(start..start + len, "<digest of the rule file>");
            }
        }
        if let Some(i) = s.find("use a built-in rule set (") {
            let start = i + "use a built-in rule set (".len();
            if let Some(len) = s[start..].find(')') {
                s.replace_range(start..start + len, "<built-in names>");
            }
        }
        s
    }
    f.message = redact(&f.message);
    f.help = f.help.as_deref().map(redact);
    f
}

/// The stable text form of one finding, then its rendered report.
fn describe(name: &str, text: &str, c: &Checked, f: &Finding) -> String {
    let f = &stable(f);
    let (line, col) = senet::diag::line_col(text, f.span.start);
    let mut out = format!(
        "{}[{}] at {line}:{col} (game {})\n",
        severity(f.severity),
        f.code,
        c.game
    );
    let mut field = |k: &str, v: String| out.push_str(&format!("  {k}: {v}\n"));
    field("message", f.message.clone());
    if !f.label.is_empty() {
        field("label", f.label.clone());
    }
    if let Some(h) = &f.help {
        field("help", h.clone());
    }
    if let Some(cl) = &f.clause {
        field("clause", cl.clone());
    }
    if let (Some(t), Some(s)) = (f.turn, f.side) {
        field("turn", format!("{t}, {s}"));
    }
    if let Some(u) = &f.unit {
        field("unit", u.clone());
    }
    if let Some(t) = f.throw {
        field("throw", t.to_string());
    }
    if !f.legal.is_empty() {
        field("legal", f.legal.join(", "));
    }
    if let Some(p) = &f.position {
        field("position", p.clone());
    }
    if f.in_variation {
        field("in variation", "yes".into());
    }
    // The command line's own report, rendered without colour.
    let report = senet::cli::FindingReport {
        f,
        src: NamedSource::new(name, text.to_string()),
        game: c.game,
        players: c.players.clone(),
    };
    let rendered = senet::cli::render_with(&report, false);
    out.push('\n');
    out.push_str(&rendered);
    out
}

/// The code a fixture's name promises: the part before the first `-`.
fn promised_code(path: &Path) -> String {
    let stem = path.file_stem().unwrap().to_str().unwrap();
    format!("senet::sgn::{}", stem.split('-').next().unwrap())
}

/// The clause a fixture's name promises (`illegal_move-K-9a-pair` → `K-9a`,
/// `illegal_move-PC-3-split-sum` → `PC-3`).
fn promised_clause(path: &Path) -> Option<String> {
    let stem = path.file_stem().unwrap().to_str().unwrap();
    let parts: Vec<&str> = stem.split('-').collect();
    match parts.as_slice() {
        [_, letter, num, ..]
            if ((letter.len() == 1 && "TKBRAP".contains(*letter))
                || matches!(*letter, "PC" | "BL"))
                && num.starts_with(|c: char| c.is_ascii_digit()) =>
        {
            Some(format!("{letter}-{num}"))
        }
        _ => None,
    }
}

/// Codes that follow from an earlier unit rather than break a clause
/// themselves: a fixture may name the clause that set them up.
const CONSEQUENCES: &[&str] = &["senet::sgn::no_piece", "senet::sgn::pos_mismatch"];

/// A finding names the clause that forbids it: every fixture named
/// `<code>-<clause>` must report that clause with that code.
#[test]
fn check_err_clauses() {
    let mut wrong = Vec::new();
    for path in fixtures("err") {
        let (Some(clause), code) = (promised_clause(&path), promised_code(&path)) else {
            continue;
        };
        if CONSEQUENCES.contains(&code.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let checked = check_file(&path, &text);
        let Some(f) = checked
            .iter()
            .flat_map(|c| &c.findings)
            .find(|f| f.code.as_str() == code)
        else {
            continue; // check_err_fixtures reports the missing code
        };
        let given = f.clause.clone().unwrap_or_default();
        if !given.split(", ").any(|c| c == clause) {
            wrong.push(format!(
                "{}: expected clause {clause}, got [{given}]: {}",
                relative(&path),
                f.message
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "findings that name the wrong clause:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn check_err_fixtures() {
    let files = fixtures("err");
    assert!(!files.is_empty(), "no fixtures in tests/fixtures/sgn/err");
    settings().bind(|| {
        insta::glob!("../fixtures/sgn/err", "*.sgn", |path| {
            let name = relative(path);
            let text = std::fs::read_to_string(path).unwrap();
            let checked = check_file(path, &text);
            // What a fixture must report is asserted by check_err_codes, so
            // that a fixture of a known bug does not stop the other snapshots.
            let mut out = String::new();
            for c in &checked {
                for f in &c.findings {
                    if !out.is_empty() {
                        out.push_str("\n---\n\n");
                    }
                    out.push_str(&describe(&name, &text, c, f));
                }
            }
            insta::assert_snapshot!(out);
        });
    });
}

/// Every fixture fails (under `--strict` every finding is an error) with
/// the code its name promises.
#[test]
fn check_err_codes() {
    let mut wrong = Vec::new();
    for path in fixtures("err") {
        let text = std::fs::read_to_string(&path).unwrap();
        let codes: Vec<&str> = check_file(&path, &text)
            .iter()
            .flat_map(|c| c.findings.iter().map(|f| f.code.as_str()))
            .collect();
        let code = promised_code(&path);
        if !codes.contains(&code.as_str()) {
            wrong.push(format!(
                "{}: expected {code}, got {codes:?}",
                relative(&path)
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "fixtures without the finding their name promises:\n{}",
        wrong.join("\n")
    );
}

/// Every `"senet::sgn::…"` literal in the checker's sources.
fn codes_in_source() -> BTreeSet<String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("src/notation"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.push(root().join("src/cli/check.rs"));
    let mut codes = BTreeSet::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, _) in text.match_indices("\"senet::sgn::") {
            let rest = &text[i + 1..];
            let end = rest.find('"').unwrap();
            codes.insert(rest[..end].to_string());
        }
    }
    codes
}

#[test]
fn check_every_code_has_a_fixture() {
    let in_source = codes_in_source();
    assert!(
        in_source.contains("senet::sgn::illegal_move"),
        "the scan found no codes: {in_source:?}"
    );
    let mut produced = BTreeSet::new();
    for path in fixtures("err") {
        let text = std::fs::read_to_string(&path).unwrap();
        for c in check_file(&path, &text) {
            for f in c.findings {
                produced.insert(f.code.to_string());
            }
        }
    }
    let missing: Vec<&String> = in_source.difference(&produced).collect();
    assert!(
        missing.is_empty(),
        "codes with no fixture in tests/fixtures/sgn/err: {missing:?}"
    );
}

/// Records that must check clean: no error and no warning.
#[test]
fn check_ok_records_are_clean() {
    let mut n = 0;
    for path in fixtures("ok").into_iter().chain(fixtures("ok-check")) {
        let name = relative(&path);
        let text = std::fs::read_to_string(&path).unwrap();
        let has_rules = Reader::new(&text).any(|g| g.is_ok_and(|g| g.tag("Rules").is_some()));
        if !has_rules {
            continue;
        }
        n += 1;
        for c in check_file(&path, &text) {
            let shown: Vec<String> = c
                .findings
                .iter()
                .map(|f| describe(&name, &text, &c, f))
                .collect();
            assert!(
                shown.is_empty(),
                "{name} should check clean:\n{}",
                shown.join("\n")
            );
        }
    }
    assert!(n >= 20, "only {n} records with a Rules tag were checked");
}

fn senet(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("the senet binary runs");
    (
        out.status.code().expect("exited normally"),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn check_json_lines() {
    let file = "tests/fixtures/sgn/err/illegal_move-K-9a.sgn";
    let (code, stdout, _) = senet(&["check", "--format", "json", file]);
    assert_eq!(code, 1);
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.len() >= 2, "{stdout}");
    let (summary, findings) = lines.split_last().unwrap();
    for f in findings {
        for key in [
            "file", "game", "line", "column", "code", "severity", "message", "clause", "turn",
            "side", "unit", "legal",
        ] {
            assert!(f.get(key).is_some(), "no `{key}` in {f}");
        }
        assert!(f["legal"].is_array());
        assert!(matches!(f["severity"].as_str(), Some("error" | "warning")));
    }
    let f = &findings[0];
    assert_eq!(f["file"], file);
    assert_eq!(f["game"], 1);
    assert_eq!(f["code"], "senet::sgn::illegal_move");
    assert_eq!(f["severity"], "error");
    assert_eq!(f["clause"], "K-9a, P-4");
    assert_eq!(f["turn"], 10);
    assert_eq!(f["side"], "White");
    assert_eq!(f["unit"], "3:5x8");
    assert_eq!(
        (f["line"].as_u64(), f["column"].as_u64()),
        (Some(12), Some(5))
    );
    assert!(
        f["legal"]
            .as_array()
            .unwrap()
            .iter()
            .any(|u| u == "3:12-15")
    );
    let s = &summary["summary"];
    for key in ["files", "games", "valid", "invalid"] {
        assert!(s[key].is_u64(), "no `{key}` in {summary}");
    }
    assert_eq!(
        (s["files"].as_u64(), s["games"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(
        (s["valid"].as_u64(), s["invalid"].as_u64()),
        (Some(0), Some(1))
    );

    // A clean record: only the summary.
    let (code, stdout, _) = senet(&[
        "check",
        "--format",
        "json",
        "tests/fixtures/sgn/ok/bga-0001.sgn",
    ]);
    assert_eq!(code, 0, "{stdout}");
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    assert_eq!(lines[0]["summary"]["valid"], 1);
}

#[test]
fn check_exit_codes() {
    let clean = "tests/fixtures/sgn/ok/kendall-0001.sgn";
    let bad = "tests/fixtures/sgn/err/illegal_move-K-9a.sgn";
    assert_eq!(senet(&["check", clean]).0, 0);
    assert_eq!(senet(&["check", bad]).0, 1);
    assert_eq!(senet(&["check", clean, bad]).0, 1);
    assert_eq!(
        senet(&["check", "tests/fixtures/sgn/err/no-such-file.sgn"]).0,
        2
    );
    assert_eq!(senet(&["check", "--rules", "no-such-rules", clean]).0, 2);
    // Warnings pass, except with --strict.
    let warned = "tests/fixtures/sgn/err/missing_tag.sgn";
    assert_eq!(senet(&["check", warned]).0, 0);
    assert_eq!(senet(&["check", "--strict", warned]).0, 1);
    // --syntax-only does not replay.
    assert_eq!(senet(&["check", "--syntax-only", bad]).0, 0);
    // The human summary line.
    let (_, _, stderr) = senet(&["check", clean, bad]);
    assert!(
        stderr.contains("2 games, 1 valid, 1 invalid in 2 files"),
        "{stderr}"
    );
}

/// A rule file named by a record that does not compile is not a problem of
/// the record: exit 2, the rule file named (a file that does not parse as a
/// rule file is never quoted: a record may name any file), and the summary
/// says which games were skipped and why.
#[test]
fn check_broken_rule_file() {
    let dir = std::env::temp_dir().join(format!("senet-check-broken-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("broken.senet"),
        "title \"x\"\nboard 30 squares in rows of 10\npieces banana\n",
    )
    .unwrap();
    let record = dir.join("game.sgn");
    std::fs::write(&record, "[Rules \"broken.senet\"]\n\n1. 2:9-11\n*\n").unwrap();
    let (code, _, stderr) = senet(&["check", record.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("broken.senet` is not a rule file"),
        "the rule file is not named:\n{stderr}"
    );
    assert!(
        !stderr.contains("banana"),
        "the rule file is quoted:\n{stderr}"
    );
    assert!(
        stderr.contains("1 game, 0 valid, 0 invalid, 1 skipped")
            && stderr.contains("skipped: 1 game naming `"),
        "{stderr}"
    );
}

/// Runs the binary with `input` on standard input.
fn senet_stdin(args: &[&str], input: &[u8]) -> (i32, String, String) {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the senet binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from another thread: the output pipes fill while it reads.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        out.status.code().expect("exited normally"),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Every fixture record (clean, failing, with syntax errors), and the
/// example games, several times over in different orders: a file of many
/// games in which the verdicts of neighbouring games differ.
fn many_games() -> String {
    let mut files: Vec<PathBuf> = ["ok", "ok-check", "err", "err-syntax"]
        .iter()
        .flat_map(|d| fixtures(d))
        .collect();
    let games = root().join("games");
    let mut examples: Vec<PathBuf> = std::fs::read_dir(&games)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgn"))
        .collect();
    examples.sort();
    files.extend(examples);
    let mut text = String::new();
    for round in 0..3 {
        if round == 1 {
            files.reverse();
        }
        if round == 2 {
            // Failing and clean records interleaved.
            let (a, b) = files.split_at(files.len() / 2);
            files = a
                .iter()
                .zip(b)
                .flat_map(|(x, y)| [x.clone(), y.clone()])
                .collect();
        }
        for f in &files {
            text.push_str(&std::fs::read_to_string(f).unwrap());
            text.push('\n');
        }
    }
    text
}

/// The replay on several threads prints exactly what one thread prints, in
/// file order, in every format, from a file and from standard input: with
/// two threads (the reader shares the replay) and more (replay threads
/// apart from the reader).
#[test]
fn check_threads_same_output() {
    let dir = std::env::temp_dir().join(format!("senet-check-threads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = many_games();
    let file = dir.join("many.sgn");
    std::fs::write(&file, &text).unwrap();
    let path = file.to_str().unwrap();
    for format in ["human", "short", "json"] {
        for extra in [
            &[][..],
            &["--strict", "--max-errors", "2"][..],
            &["--syntax-only"][..],
        ] {
            let args = |threads: &'static str, input: &str| -> Vec<String> {
                let mut a = vec!["check", "--format", format, "--threads", threads];
                a.extend_from_slice(extra);
                a.push(input);
                a.into_iter().map(String::from).collect()
            };
            let senet = |a: Vec<String>| senet(&a.iter().map(String::as_str).collect::<Vec<_>>());
            let senet_stdin = |a: Vec<String>, input: &[u8]| {
                senet_stdin(&a.iter().map(String::as_str).collect::<Vec<_>>(), input)
            };
            let serial = senet(args("1", path));
            assert_eq!(serial.0, 1, "{}", serial.2);
            assert!(
                serial.2.len() + serial.1.len() > 10_000,
                "too little output to compare"
            );
            for threads in ["2", "3", "7"] {
                assert!(
                    senet(args(threads, path)) == serial,
                    "{format} {extra:?} --threads {threads}"
                );
            }
            let stdin_serial = senet_stdin(args("1", "-"), text.as_bytes());
            for threads in ["2", "3"] {
                let stdin_parallel = senet_stdin(args(threads, "-"), text.as_bytes());
                assert!(
                    stdin_parallel == stdin_serial,
                    "{format} {extra:?} --threads {threads} from standard input"
                );
            }
        }
    }

    // A rule file that does not compile, named by a game in the middle of
    // the file: that game is skipped, the games before and after it are
    // reported, alike on any number of threads.
    std::fs::write(
        dir.join("broken.senet"),
        "title \"x\"\nboard 30 squares in rows of 10\npieces banana\n",
    )
    .unwrap();
    let half = text.len() / 2;
    let cut = half + text[half..].find("\n[Event").unwrap() + 1;
    let broken = format!(
        "{}[Rules \"broken.senet\"]\n\n1. 2:9-11\n*\n\n{}",
        &text[..cut],
        &text[cut..]
    );
    let file = dir.join("broken.sgn");
    std::fs::write(&file, broken).unwrap();
    let path = file.to_str().unwrap();
    let serial = senet(&["check", "--format", "short", "--threads", "1", path]);
    assert_eq!(serial.0, 2, "{}", serial.2);
    assert!(serial.2.contains("broken.senet` is not a rule file"));
    assert!(
        serial.2.contains(", 1 skipped") && serial.2.contains("skipped: 1 game naming `"),
        "{}",
        serial.2
    );
    for threads in ["2", "5"] {
        assert!(senet(&["check", "--format", "short", "--threads", threads, path]) == serial);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `senet` run in `dir`.
fn senet_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the senet binary runs");
    (
        out.status.code().expect("exited normally"),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("senet-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Records simulated under a rule file name it by its path from the
/// records' folder, with its digest: they check and replay clean from
/// another working directory, as a user would run them.
/// LK-19: under a turn limit no game is left unfinished: with a limit of
/// six turns, too few to bear off seven pieces, every game is drawn, six
/// turns long, and `simulate` needs no `--max-units` to see them end.
#[test]
fn games_end_drawn_at_the_turn_limit() {
    forty_games_drawn_after_six_turns("tests/fixtures/rules/ok/turn_limit.senet");
}

/// The same with the first player drawn by lot: in the games Black wins
/// the lot, Black's opening turn is the first of the six, as when Black
/// starts by rule, so every game still lasts six turns.
#[test]
fn games_end_drawn_at_the_turn_limit_whoever_wins_the_lot() {
    forty_games_drawn_after_six_turns("tests/fixtures/rules/ok/turn_limit_by_lot.senet");
}

/// Simulates 40 games under `rules` (a limit of six turns) and checks
/// every one was drawn at the limit, six turns long.
fn forty_games_drawn_after_six_turns(rules: &str) {
    let (code, out, err) = senet(&["simulate", "--rules", rules, "--games", "40", "--stats"]);
    assert_eq!(code, 0, "{err}");
    let field = |name: &str| {
        out.lines()
            .find_map(|l| l.strip_prefix(name))
            .map(str::trim)
            .unwrap_or_else(|| panic!("no `{name}` in {out}"))
            .to_string()
    };
    assert_eq!(field("unfinished"), "0");
    assert_eq!(field("draws"), "40");
    assert_eq!(field("turns_mean"), "6.0");
}

#[test]
fn simulated_records_name_their_rule_file() {
    let dir = scratch("sim-rules");
    std::fs::create_dir_all(dir.join("variants")).unwrap();
    let rule_file = dir.join("variants/long.senet");
    std::fs::copy(root().join("rules/bga.senet"), &rule_file).unwrap();
    let games = dir.join("games.sgn");
    let (code, _, err) = senet(&[
        "simulate",
        "--rules",
        rule_file.to_str().unwrap(),
        "--games",
        "3",
        "--out",
        games.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&games).unwrap();
    assert!(text.contains("[Rules \"variants/long.senet\"]"), "{text}");
    let digest = senet::rules::digest(rule_file.to_str().unwrap(), None).unwrap();
    assert!(
        text.contains(&format!("[RulesDigest \"sha256:{digest}\"]")),
        "{text}"
    );
    // From a folder that is neither the records' nor the rule file's.
    let elsewhere = scratch("sim-rules-elsewhere");
    let (code, out, err) = senet_in(&elsewhere, &["check", games.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        format!("{out}{err}").contains("3 games, 3 valid"),
        "{out}{err}"
    );
    assert!(!err.contains("rules_digest"), "{err}");
    let (code, _, err) = senet_in(
        &elsewhere,
        &["replay", "--game", "2", games.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");

    // Records written outside the rule file's folder tree could name it
    // by no path that check and replay accept (they refuse `..`): nothing
    // is simulated, exit 2, and the message says the two ways out.
    let out_dir = dir.join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    let outside = out_dir.join("games.sgn");
    let simulate = |extra: &[&str]| {
        let mut args = vec![
            "simulate",
            "--rules",
            rule_file.to_str().unwrap(),
            "--games",
            "2",
            "--out",
            outside.to_str().unwrap(),
        ];
        args.extend(extra);
        senet(&args)
    };
    let (code, _, err) = simulate(&[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        !outside.exists(),
        "no record that cannot resolve is written"
    );
    // Nor is a folder for one file per game left behind.
    let per_game = out_dir.join("per-game");
    let (code, _, err) = senet(&[
        "simulate",
        "--rules",
        rule_file.to_str().unwrap(),
        "--games",
        "2",
        "--out",
        per_game.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(!per_game.exists(), "{} was left behind", per_game.display());
    // The message names the very folder to write into or to give.
    let folder = std::fs::canonicalize(dir.join("variants")).unwrap();
    assert!(err.contains("the records cannot name"), "{err}");
    assert!(
        err.contains(&format!("add `--rules-path {}`", folder.display())),
        "{err}"
    );
    // With `--rules-path`, the records name the file from that folder, and
    // the readers find it with the same flag (and only with it).
    let variants = dir.join("variants");
    let (code, _, err) = simulate(&["--rules-path", variants.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!("the same `--rules-path {}`", variants.display())),
        "{err}"
    );
    let text = std::fs::read_to_string(&outside).unwrap();
    assert!(text.contains("[Rules \"long.senet\"]"), "{text}");
    assert!(
        text.contains(&format!("[RulesDigest \"sha256:{digest}\"]")),
        "{text}"
    );
    let (code, out, err) = senet_in(&elsewhere, &["check", outside.to_str().unwrap()]);
    assert_eq!(code, 1, "refused without --rules-path: {out}{err}");
    for command in ["check", "replay"] {
        let (code, out, err) = senet_in(
            &elsewhere,
            &[
                command,
                "--rules-path",
                variants.to_str().unwrap(),
                outside.to_str().unwrap(),
            ],
        );
        assert_eq!(code, 0, "{command}: {out}{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&elsewhere);
}

/// `senet fmt --fix` applies the mechanical fixes (look-alikes, `X`, tag
/// name case, missing turn numbers), lists each with its line and column,
/// and the result checks clean; without `--fix` the same file is a syntax
/// error that names the en dash by its code point.
#[test]
fn fmt_fix_applies_the_mechanical_fixes() {
    let file = "tests/fixtures/sgn/fix/mistakes.sgn";
    let (code, out, err) = senet(&["fmt", "--stdout", file]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("U+201C LEFT DOUBLE QUOTATION MARK"), "{err}");
    assert!(out.is_empty(), "{out}");
    let (code, out, err) = senet(&["fmt", "--fix", "--stdout", file]);
    assert_eq!(code, 0, "{err}");
    settings().bind(|| {
        insta::assert_snapshot!("fmt_fix_mistakes", format!("{err}---\n{out}"));
    });
    let dir = scratch("fmt-fix");
    let fixed = dir.join("fixed.sgn");
    std::fs::write(&fixed, &out).unwrap();
    let (code, out, err) = senet(&["check", fixed.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The findings of the first game of `text`, checked as `senet check`
/// checks it.
fn findings_of(text: &str) -> Vec<Finding> {
    let game = Reader::new(text).next().unwrap().unwrap();
    check_game(
        &game,
        Some(root()),
        &CheckOptions::default(),
        &mut RulesCache::default(),
    )
    .unwrap()
    .findings
}

/// One left-out `0:30-off` is one finding: the bear-off without a throw is
/// the only way on, so the check reads on as the rules have it, and the
/// opponent's next unit, the units after it and the result are judged
/// from the position after the bear-off. Each bear-off of the macabot
/// demo is left out in turn (with the comment after it), with the record's
/// `[%pos]` commands and without them: after a throw that ends the turn
/// (the turn number of the opponent comes next), after a 1 (the next
/// throw comes next) and at the end of the game (the result comes next).
#[test]
fn a_missing_bear_off_without_a_throw_is_one_finding() {
    let demo = std::fs::read_to_string(root().join("games/macabot-demo.sgn")).unwrap();
    let bare = {
        let mut out = String::new();
        let mut rest = demo.as_str();
        while let Some(at) = rest.find("[%pos ") {
            out.push_str(&rest[..at]);
            rest = &rest[at + rest[at..].find(']').unwrap() + 1..];
        }
        out + rest
    };
    for (kind, record) in [("with [%pos]", &demo), ("without [%pos]", &bare)] {
        assert!(
            findings_of(record).is_empty(),
            "{kind}: the demo checks clean"
        );
        // Each bear-off's span, to the end of the comment after it.
        let game = Reader::new(record).next().unwrap().unwrap();
        let mut offs = Vec::new();
        for (i, node) in game.nodes.iter().enumerate() {
            if let Node::Unit(u) = node
                && u.to_string() == "0:30-off"
            {
                let end = match game.nodes.get(i + 1) {
                    Some(Node::Comment(c)) => c.span.end,
                    _ => u.span.end,
                };
                offs.push((u.span.start, end));
            }
        }
        assert_eq!(offs.len(), 5, "{kind}");
        for (at, end) in offs {
            let text = format!("{}{}", &record[..at], &record[end..]);
            let line = record[..at].lines().count();
            let findings = findings_of(&text);
            let codes: Vec<&str> = findings.iter().map(|f| f.code.as_str()).collect();
            assert_eq!(
                codes,
                ["senet::sgn::bear_off_due"],
                "{kind}, the bear-off of line {line} left out: {:#?}",
                findings
            );
        }
    }
}

/// A rule-state flag of a position string that the rules give no meaning:
/// the rules, a position string with the flag, the flag, and what the
/// message and the help must say. Every flag the position string knows
/// has a row (`every_flag_has_a_row`).
const IDLE_FLAGS: &[(&str, &str, &str, &str, &str)] = &[
    (
        "bell",
        "WBWBWBWBWB/WBWBWBWBWB/10 w 0-0 extra 3",
        "extra",
        "gives another throw",
        "`extra throw on VALUES`",
    ),
    (
        "ludii-kendall",
        "WBWBWBWBWB/WBWB6/10 b 0-0 held 1",
        "held",
        "holds no extra throw",
        "`lost rest holds extra throw`",
    ),
    (
        "thai",
        "WBWBWBWBWB/10/10 w 0-0 extra;fwd 1",
        "fwd",
        "one direction",
        "`one direction per turn`",
    ),
    (
        "bga",
        "WBWBWBWBWB/10/10 w 0-0 extra;back 1",
        "back",
        "one direction",
        "`one direction per turn`",
    ),
    (
        "ryabinin",
        "WBWBWBWBWB/10/10 w 0-0 extra;bound:26 1",
        "bound:26",
        "no piece of White's",
        "`extra throw bound to piece`",
    ),
    (
        "ryabinin",
        "WBWBWBWB1B/10/5W4 w 0-0 extra;bound:25 1",
        "bound:25",
        "only a piece on 26",
        "`extra throw bound to piece`",
    ),
    (
        "thai",
        "WBWBWBWBWB/10/10 w 0-0 extra;bound:26 1",
        "bound:26",
        "bound to a piece",
        "`extra throw bound to piece`",
    ),
    (
        "piccione",
        "W9/10/10 w 0-0 extra;bound:1;hand:4-5 6",
        "hand:4-5",
        "",
        "",
    ),
    (
        "thai",
        "WBWBWBWBWB/10/10 w 0-0 skip:w 1",
        "skip:w",
        "miss a turn",
        "`miss next turn`",
    ),
    (
        "kendall",
        "WBWBWBWBWB/10/10 w 0-0 skip:b 1",
        "skip:b",
        "miss a turn",
        "`miss next turn`",
    ),
    (
        "thai",
        "WBWBWBWBWB/10/10 w 0-0 wait:w 1",
        "wait:w",
        "no starting throw",
        "`first move needs throw V`",
    ),
    (
        "ludii-kendall --option starting-throw",
        "WBWBWBWBWB/WBWB6/10 b 0-0 wait:w;wait:b 1",
        "wait:b",
        "only White waits",
        "`first move needs throw V`",
    ),
    (
        "thai",
        "WBWBWBWBWB/10/10 w 0-0 mark:15 1",
        "mark:15",
        "binds the piece it moves out",
        "`moved piece binds next ply`",
    ),
    (
        "ludii-kendall",
        "WBWBWBWBWB/WBWB6/10 b 0-0 mark:15 1",
        "mark:15",
        "no piece stands on 15",
        "`moved piece binds next ply`",
    ),
    (
        "ludii-kendall",
        "WBWBWBWBWB/WBWB6/10 b 0-0 mark:13 1",
        "mark:13",
        "out to 15, not to 13",
        "`moved piece binds next ply`",
    ),
    (
        "bga",
        "WBWBWBWBWB/10/10 w 0-0 hand:1-0 1",
        "hand:1-0",
        "no pieces in hand",
        "`enter from hand on SQUARE with VALUES`",
    ),
    (
        "thai",
        "WBWBWBWB1B/10/10 w 0-0 q:W 1",
        "q:W",
        "no queue",
        "`relocate to SQUARE else queue`",
    ),
];

/// The flags refused in the `Position` tag and in `[%pos]` before the
/// others were, whose findings there keep their form.
const LEGACY: &[&str] = &["hand", "fwd", "back"];

/// The rule set and options of a row (`ludii-kendall --option trap`).
fn rules_of(spec: &str) -> (&str, Vec<&str>) {
    let mut words = spec.split(" --option ");
    (words.next().unwrap(), words.collect())
}

/// Each flag of `IDLE_FLAGS` is refused wherever a position string is
/// read: the `Position` tag and a `[%pos]` (in step and after a gap, where
/// it would resynchronise the replay) give `senet::sgn::position` at the
/// flag, and `--position` of `moves`, `board` and `best` gives
/// `senet::position::flag` at the flag, exit 2. The message says why, the
/// help names the rule the flag needs. A row with an empty `why` is a
/// control: the flag means what it says there, and it is accepted.
#[test]
fn a_flag_the_rules_give_no_meaning_is_refused_wherever_a_position_is_read() {
    for &(spec, pos, flag, why, needs) in IDLE_FLAGS {
        let (rules, options) = rules_of(spec);
        let option_tag = if options.is_empty() {
            String::new()
        } else {
            format!("[RuleOptions \"{}\"]\n", options.join("; "))
        };
        let tag =
            format!("[Position \"{pos}\"]\n{option_tag}[Rules \"{rules}\"]\n[SetUp \"1\"]\n\n*\n");
        let gap = format!(
            "{option_tag}[Rules \"{rules}\"]\n[FirstPlayer \"White\"]\n\n1. -- {{ [%pos {pos}] }}\n*\n"
        );
        for (place, text) in [("Position tag", &tag), ("[%pos] after a gap", &gap)] {
            let findings = findings_of(text);
            let refused: Vec<&Finding> = findings
                .iter()
                .filter(|f| f.code == Code::Position)
                .collect();
            if why.is_empty() {
                assert!(
                    refused.is_empty(),
                    "{spec}, {place}: `{flag}` refused: {refused:#?}"
                );
                continue;
            }
            assert_eq!(refused.len(), 1, "{spec}, {place}: `{flag}`: {findings:#?}");
            let f = refused[0];
            assert!(
                f.message.contains(&format!("the flag `{flag}`")) && f.message.contains(why),
                "{spec}, {place}: {}",
                f.message
            );
            let spanned = &text[f.span.start..f.span.end];
            if LEGACY.contains(&flag.split(':').next().unwrap()) {
                // Refused before the other flags were: the span is the whole
                // position string, the help says to leave the flag out.
                assert!(
                    spanned.contains(flag),
                    "{spec}, {place}: the span `{spanned}`"
                );
                continue;
            }
            assert_eq!(spanned, flag, "{spec}, {place}: the span");
            let help = f.help.as_deref().unwrap_or("");
            assert!(help.contains(needs), "{spec}, {place}: {help}");
        }
        let mut args: Vec<&str> = vec!["--rules", rules];
        for o in &options {
            args.extend(["--option", o]);
        }
        args.extend(["--position", pos]);
        for command in [
            vec!["moves", "--throw", "1"],
            vec!["board", "--format", "text"],
            vec!["best", "--throw", "1", "--rollouts", "1", "--depth", "1"],
        ] {
            let mut all = command.clone();
            all.extend(&args);
            let (code, out, raw) = senet(&all);
            // The message and help as one line each: unwrapped.
            let err: String = raw
                .lines()
                .map(|l| l.trim_start().trim_start_matches("│ "))
                .collect::<Vec<_>>()
                .join(" ");
            if why.is_empty() {
                assert_eq!(code, 0, "{spec}: {all:?}: {err}");
                continue;
            }
            assert_eq!(code, 2, "{spec}: {all:?}: {out}{err}");
            assert!(
                err.contains("senet::position::flag"),
                "{spec}: {all:?}: {err}"
            );
            assert!(err.contains(why), "{spec}: {all:?}: {err}");
            // The label under the flag: the string quoted once, the flag
            // underlined from its first character.
            let col = pos
                .find(&format!(" {flag}"))
                .or_else(|| pos.find(&format!(";{flag}")))
                .unwrap()
                + 1;
            let quoted = raw.lines().find(|l| l.contains(pos)).unwrap();
            let under = raw.lines().skip_while(|l| !l.contains(pos)).nth(1).unwrap();
            let start = quoted[..quoted.find(pos).unwrap()].chars().count() + col;
            let marks: String = under.chars().skip(start).take(flag.len()).collect();
            assert!(
                marks.chars().all(|c| c == '─' || c == '┬')
                    && !under
                        .chars()
                        .nth(start - 1)
                        .is_some_and(|c| c == '─' || c == '┬'),
                "{spec}: {all:?}: the flag is not what is underlined:\n{err}"
            );
            assert!(err.contains(needs), "{spec}: {all:?}: {err}");
        }
    }
}

/// Every flag the position string knows (as its reader lists them when one
/// is unknown) has a row of `IDLE_FLAGS`, and each row refuses its flag
/// under the rules named while the same flag is accepted where a rule set
/// sets it (the demo records and the tests' own positions assert them).
#[test]
fn every_flag_has_a_row() {
    let e =
        senet::engine::Position::parse("WBWBWBWBWB/10/10 w 0-0 nonsense 1", 30, 10).unwrap_err();
    let listed = e.message.split("expected ").nth(1).unwrap();
    let families: Vec<&str> = listed
        .split([',', ' '])
        .filter(|w| !w.is_empty() && *w != "or")
        .map(|w| w.split(':').next().unwrap())
        .collect();
    for family in [
        "extra", "held", "fwd", "back", "bound", "skip", "wait", "mark", "hand", "q",
    ] {
        assert!(
            families.contains(&family),
            "`{family}` is not in `{listed}`"
        );
    }
    for family in families {
        assert!(
            IDLE_FLAGS
                .iter()
                .any(|r| !r.3.is_empty() && r.2.split(':').next() == Some(family)),
            "no row refuses a `{family}` flag"
        );
    }
}
