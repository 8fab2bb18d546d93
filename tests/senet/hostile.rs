//! Hostile records: whatever a record holds, `senet` never crashes, never
//! hangs and keeps its memory bounded; it reports the problem and goes on.
//! Each test here pins one class of input that once crashed, hung or
//! misreported (the fixtures sit in the usual folders: `sgn/err-syntax`,
//! `sgn/ok/loose`, `sgn/err`).

use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the binary; `(exit code, stdout, stderr)`. A crash (a signal, or
/// Rust's panic exit 101) fails the test here.
fn senet(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("the senet binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let code = out
        .status
        .code()
        .unwrap_or_else(|| panic!("senet {args:?} was killed by a signal:\n{stderr}"));
    assert!(
        code != 101 && !stderr.contains("panicked"),
        "senet {args:?} panicked:\n{stderr}"
    );
    (
        code,
        String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr,
    )
}

const TOO_DEEP: &str = "tests/fixtures/sgn/err-syntax/variation-too-deep.sgn";
const DEEPEST: &str = "tests/fixtures/sgn/ok/loose/variation-deepest.sgn";

#[test]
fn variations_too_deep_are_a_syntax_error_and_the_next_game_is_read() {
    let (code, _, stderr) = senet(&["check", TOO_DEEP]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("variations nest more than 100 levels deep"),
        "{stderr}"
    );
    assert!(stderr.contains("2 games, 1 valid, 1 invalid"), "{stderr}");
    let (code, stdout, stderr) = senet(&["fmt", "--stdout", TOO_DEEP]);
    assert_eq!((code, stdout.as_str()), (1, ""), "{stderr}");
    assert!(
        stderr.contains("variations nest more than 100 levels deep"),
        "{stderr}"
    );
    let (code, _, stderr) = senet(&["replay", TOO_DEEP]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("variations nest more than 100 levels deep"),
        "{stderr}"
    );
}

#[test]
fn variations_at_the_deepest_level_check_replay_and_format() {
    let (code, _, stderr) = senet(&["check", DEEPEST]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("1 game, 1 valid, 0 invalid"), "{stderr}");
    let (code, stdout, stderr) = senet(&["fmt", "--stdout", DEEPEST]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.matches('(').count(), 100, "{stdout}");
    let (code, _, stderr) = senet(&["replay", DEEPEST]);
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn count_flags_out_of_range_are_usage_errors() {
    let file = "tests/fixtures/sgn/ok-check/bga-B-13.sgn";
    for args in [
        &["check", "--threads", "0", file][..],
        &["check", "--threads", "18446744073709551616", file],
        &["check", "--threads", "100000", file],
        &[
            "simulate",
            "--rules",
            "bga",
            "--games",
            "18446744073709551615",
        ],
        &["simulate", "--rules", "bga", "--games", "0"],
        &["simulate", "--rules", "bga", "--threads", "4000000000"],
        &[
            "simulate",
            "--rules",
            "bga",
            "--max-units",
            "18446744073709551615",
        ],
    ] {
        let (code, _, stderr) = senet(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(
            stderr.contains("expected a whole number from 1 to") || stderr.contains("not in 1..="),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn numbers_in_position_strings_never_wrap() {
    // Each record was accepted before, its numbers wrapped round.
    for (file, message) in [
        (
            "position-empty-run-wraps",
            "group 2 has more than 10 squares",
        ),
        ("position-261-pieces", "White has 261 pieces"),
        (
            "position-queue-256",
            "the queue `q:` holds at most 32 pieces, not 256",
        ),
        (
            "position-turn-4294967295",
            "the turn number is a whole number from 1 to 999999999",
        ),
        (
            "position-pos-piece-count",
            "the position has the wrong number of pieces: White has 6",
        ),
    ] {
        let path = format!("tests/fixtures/sgn/err/{file}.sgn");
        let (code, _, stderr) = senet(&["check", "--format", "short", &path]);
        assert_eq!(code, 1, "{file}: {stderr}");
        assert!(
            stderr.contains("1 game, 0 valid, 1 invalid"),
            "{file}: {stderr}"
        );
        let (_, stdout, _) = senet(&["check", "--format", "short", &path]);
        assert!(stdout.contains(message), "{file}: {stdout}");
    }
}

/// A fresh folder for one test, removed by the caller.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("senet-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Names in `dir`, sorted: what a run left behind.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

const LOOSE: &str = "tests/fixtures/sgn/ok/loose/forms.sgn";

#[cfg(unix)]
#[test]
fn fmt_never_follows_a_planted_link_and_keeps_the_mode() {
    use std::os::unix::fs::{PermissionsExt, symlink};
    let dir = scratch("planted");
    let record = dir.join("game.sgn");
    let victim = dir.join("victim.txt");
    std::fs::copy(root().join(LOOSE), &record).unwrap();
    std::fs::set_permissions(&record, std::fs::Permissions::from_mode(0o640)).unwrap();
    std::fs::write(&victim, "precious\n").unwrap();
    // The name the old temporary file had: whoever could write to the
    // folder could point it anywhere.
    symlink(&victim, dir.join("game.sgn.senet-fmt.tmp")).unwrap();
    let (code, _, stderr) = senet(&["fmt", record.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    let (_, canonical, _) = senet(&["fmt", "--stdout", LOOSE]);
    assert_eq!(std::fs::read_to_string(&record).unwrap(), canonical);
    let mode = std::fs::metadata(&record).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    assert_eq!(
        names(&dir),
        ["game.sgn", "game.sgn.senet-fmt.tmp", "victim.txt"],
        "a temporary file was left behind"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn fmt_refuses_links_unless_told() {
    let dir = scratch("links");
    let target = dir.join("target.sgn");
    let link = dir.join("link.sgn");
    let hard = dir.join("hard.sgn");
    std::fs::copy(root().join(LOOSE), &target).unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let before = std::fs::read_to_string(&target).unwrap();
    let (code, _, stderr) = senet(&["fmt", link.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("is a symbolic link"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), before);
    let (code, _, stderr) = senet(&["fmt", "--follow-symlinks", link.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_ne!(std::fs::read_to_string(&target).unwrap(), before);

    std::fs::write(&target, &before).unwrap();
    std::fs::hard_link(&target, &hard).unwrap();
    let (code, _, stderr) = senet(&["fmt", hard.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("has other hard links"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&hard).unwrap(), before);
    let (code, _, stderr) = senet(&[
        "simulate",
        "--rules",
        "bga",
        "--games",
        "2",
        "--out",
        link.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), before);
    assert_eq!(names(&dir), ["hard.sgn", "link.sgn", "target.sgn"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fmt_with_a_syntax_error_writes_nothing() {
    let dir = scratch("broken");
    let record = dir.join("broken.sgn");
    std::fs::copy(
        root().join("tests/fixtures/sgn/err-syntax/several-games.sgn"),
        &record,
    )
    .unwrap();
    let before = std::fs::read(&record).unwrap();
    let (code, _, _) = senet(&["fmt", record.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(std::fs::read(&record).unwrap(), before);
    assert_eq!(names(&dir), ["broken.sgn"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn terminal_escapes_in_tags_and_comments_never_reach_the_terminal() {
    let file = "tests/fixtures/sgn/err/impossible_throw-B-4-terminal-escapes.sgn";
    for args in [
        &["check", file][..],
        &["check", "--format", "short", file],
        &["replay", file],
    ] {
        let (_, stdout, stderr) = senet(args);
        assert!(
            !stdout.contains('\u{1b}') && !stderr.contains('\u{1b}') && !stderr.contains('\u{7}'),
            "{args:?}:\n{stdout}\n{stderr}"
        );
    }
    let (_, stdout, _) = senet(&["replay", file]);
    assert!(stdout.contains(r"A\u{1b}[31mred (White)"), "{stdout}");
}

#[test]
fn bytes_that_are_not_utf8_fail_their_game_at_the_right_offset() {
    // Not `.sgn`: the syntax fixtures are read as text. Games 2 and 3 hold
    // a byte that is not UTF-8 (in a comment, in the movetext); 1 and 4
    // are good. Before, the whole file was an I/O error counted nowhere.
    let file = "tests/fixtures/sgn/err-syntax/not-utf8.bytes";
    let bytes = std::fs::read(root().join(file)).unwrap();
    let at = |b: u8| bytes.iter().position(|&c| c == b).unwrap();
    let (code, stdout, stderr) = senet(&["check", "--format", "short", file]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("4 games, 2 valid, 2 invalid"), "{stderr}");
    for (byte, game) in [(at(0xe9), 2), (at(0xff), 3)] {
        assert!(
            stdout.contains(&format!(
                "byte {byte} of the file is not part of a UTF-8 character (game {game})"
            )),
            "{stdout}"
        );
    }
    let (code, stdout, _) = senet(&["fmt", "--stdout", file]);
    assert_eq!((code, stdout.as_str()), (1, ""));
}

#[test]
fn a_game_over_the_size_cap_fails_alone() {
    let dir = scratch("oversize");
    let head = "[Event \"?\"]\n[Site \"?\"]\n[Date \"2026.??.??\"]\n[Round \"-\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n[Rules \"bga\"]\n\n";
    let good = format!("{head}1. 2:9-11\n*\n\n");
    // One long line, then one of many lines: both over a cap of 64 KiB.
    let long_line = format!(
        "{head}1. 2:9-11 {{ {} }} 1... 2:10-12\n*\n\n",
        "x".repeat(200_000)
    );
    let many_lines = format!(
        "{head}1. 2:9-11\n{}1... 2:10-12\n*\n\n",
        "{ a remark }\n".repeat(20_000)
    );
    let bad = format!("{head}1. 2:9-11 1... 9:10-19\n*\n");
    let text = [good.as_str(), &long_line, &good, &many_lines, &bad].concat();
    let file = dir.join("big.sgn");
    std::fs::write(&file, &text).unwrap();
    let line = text[..text.rfind("9:10-19").unwrap()].matches('\n').count() + 1;
    for threads in ["1", "2", "3"] {
        let (code, stdout, stderr) = senet(&[
            "check",
            "--format",
            "short",
            "--threads",
            threads,
            "--max-game-bytes",
            "65536",
            file.to_str().unwrap(),
        ]);
        assert_eq!(code, 1, "{stderr}");
        assert!(stderr.contains("5 games, 2 valid, 3 invalid"), "{stderr}");
        assert_eq!(
            stdout.matches("longer than 65536 bytes").count(),
            2,
            "{stdout}"
        );
        // Line numbers after the discarded games are the file's.
        assert!(stdout.contains(&format!(":{line}:")), "{stdout}");
    }
    let (code, _, stderr) = senet(&["fmt", "--max-game-bytes", "65536", file.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A reader that stops after the first byte closes the pipe; no command may
/// panic on the next write (`senet rules list | head -1` did).
#[test]
fn a_closed_pipe_is_no_panic() {
    use std::io::Read;
    let commands: [&[&str]; 3] = [
        &["rules", "list"],
        &["rules", "show", "bga"],
        &["replay", "--color", "never", "games/bga-demo.sgn"],
    ];
    for args in commands {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_senet"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 1];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !stderr.contains("panicked") && out.status.code() != Some(101),
            "{args:?} after the reader left: {:?}\n{stderr}",
            out.status
        );
    }
}

/// `analyze` prints the players' names: escaped like check's and replay's.
#[test]
fn analyze_shows_no_raw_control_characters() {
    let dir = std::env::temp_dir().join(format!("senet-analyze-ctrl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("ctrl.sgn");
    std::fs::write(
        &file,
        "[Event \"?\"]\n[White \"W\u{1b}[2J\"]\n[Black \"B\"]\n[Rules \"bga\"]\n\n1. 2:9-11 *\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(["analyze", "--rollouts", "2", file.to_str().unwrap()])
        .output()
        .expect("the binary runs");
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("Game 1: W"), "{stdout}");
    assert!(
        !stdout.contains('\u{1b}'),
        "a raw escape reached the terminal:\n{stdout}"
    );
}

/// `analyze --annotate --out` writes like `fmt`: a symbolic link at the
/// output is refused and what it points to is left alone; a plain file is
/// replaced.
#[cfg(unix)]
#[test]
fn analyze_out_refuses_a_symlink() {
    let dir = scratch("analyze-out");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    let link = dir.join("out.sgn");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let game = root().join("games/ryabinin-demo-2.sgn");
    let args = |out: &std::path::Path| {
        senet(&[
            "analyze",
            "--rollouts",
            "2",
            "--annotate",
            "--out",
            out.to_str().unwrap(),
            game.to_str().unwrap(),
        ])
    };
    let (code, _, stderr) = args(&link);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    let plain = dir.join("plain.sgn");
    std::fs::write(&plain, "old\n").unwrap();
    let (code, _, stderr) = args(&plain);
    assert_eq!(code, 0, "{stderr}");
    assert!(std::fs::read_to_string(&plain).unwrap().contains("[%eval"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Standard output on a full disk: every command says so and exits 2,
/// instead of panicking in `print!` (exit 101) or ending with exit 0 and
/// the output lost.
#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_output_is_an_io_error() {
    let position = "WBWBWBWBWB/10/10 w 0-0 - 1";
    let commands: &[&[&str]] = &[
        &["--help"],
        &["completions", "bash"],
        &["rules", "list"],
        &["rules", "show", "bga"],
        &["rules", "check", "rules/bga.senet"],
        &["rules", "explain", "K-9a"],
        &[
            "moves",
            "--rules",
            "bga",
            "--position",
            position,
            "--throw",
            "3",
        ],
        &[
            "moves",
            "--rules",
            "bga",
            "--position",
            position,
            "--format",
            "json",
        ],
        &["check", "--format", "json", "games/bga-demo.sgn"],
        &[
            "check",
            "--format",
            "short",
            "tests/fixtures/sgn/err-syntax/not-utf8.bytes",
        ],
        &["fmt", "--stdout", "games/bga-demo.sgn"],
        &["replay", "games/bga-demo.sgn"],
        &["replay", "--format", "html", "games/bga-demo.sgn"],
        &["replay", "--format", "svg", "games/bga-demo.sgn"],
        &["board", "--rules", "bga", "--position", position],
        &["simulate", "--rules", "bga", "--games", "2"],
        &[
            "best",
            "--rules",
            "bga",
            "--position",
            position,
            "--throw",
            "3",
            "--rollouts",
            "2",
        ],
        &["analyze", "--rollouts", "2", "games/ryabinin-demo-2.sgn"],
        &["compare", "bga", "--games", "20", "--skill-games", "0"],
    ];
    for args in commands {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_senet"))
            .args(*args)
            .current_dir(root())
            .env("NO_COLOR", "1")
            .stdout(full)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}:\n{stderr}");
        assert!(
            stderr.contains("cannot write to standard output") && !stderr.contains("panicked"),
            "{args:?}:\n{stderr}"
        );
    }
}

/// Standard error that cannot be written (`2> /dev/full`) is no panic:
/// the messages are lost, and the exit code still says what happened.
#[test]
fn a_full_standard_error_is_not_a_panic() {
    let commands: &[(&[&str], i32)] = &[
        (
            &["check", "tests/fixtures/sgn/err-syntax/not-utf8.bytes"],
            1,
        ),
        (&["check", "games/"], 0),
        (
            &["rules", "check", "tests/fixtures/rules/err/duplicate.senet"],
            1,
        ),
        (&["replay", "--to", "99", "games/bga-demo.sgn"], 1),
        (
            &["simulate", "--rules", "bga", "--games", "2", "--stats"],
            0,
        ),
        (&["no-such-command"], 2),
    ];
    for (args, want) in commands {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_senet"))
            .args(*args)
            .current_dir(root())
            .env("NO_COLOR", "1")
            .stderr(full)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(*want), "{args:?}");
    }
}

/// `replay` (and `board`) on bytes that are not UTF-8: a problem of the
/// input at its offset (exit 1), as `check` reports it, not an I/O error.
#[test]
fn replay_reports_bytes_that_are_not_utf8_at_their_offset() {
    let file = "tests/fixtures/sgn/err-syntax/not-utf8.bytes";
    let bytes = std::fs::read(root().join(file)).unwrap();
    let at = bytes.iter().position(|&c| c == 0xe9).unwrap();
    for args in [
        &["replay", file][..],
        &["replay", "--format", "html", file],
        &["board", file],
    ] {
        let (code, stdout, stderr) = senet(args);
        assert_eq!((code, stdout.as_str()), (1, ""), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "byte {at} of the file is not part of a UTF-8 character"
            )) && stderr.contains("senet::sgn::syntax"),
            "{args:?}: {stderr}"
        );
    }
}

/// Every picture or table written with `--out` goes through the safe
/// replacement: a symbolic link planted at the output is refused and what
/// it points to is left alone (`board`, `replay --out`, `replay --every`,
/// `compare --plot`); a plain file is replaced and no temporary is left.
#[cfg(unix)]
#[test]
fn pictures_written_to_files_never_follow_a_planted_link() {
    let dir = scratch("picture-out");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    let strip = dir.join("strip");
    std::fs::create_dir_all(&strip).unwrap();
    for name in [
        "board.svg",
        "replay.txt",
        "replay.html",
        "plot.svg",
        "strip/001.svg",
    ] {
        std::os::unix::fs::symlink(&victim, dir.join(name)).unwrap();
    }
    let at = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let position = "WBWBWBWBWB/10/10 w 0-0 - 1";
    let runs: Vec<Vec<String>> = vec![
        vec![
            "board",
            "--rules",
            "bga",
            "--position",
            position,
            "--out",
            &at("board.svg"),
        ],
        vec!["replay", "games/bga-demo.sgn", "--out", &at("replay.txt")],
        vec![
            "replay",
            "games/bga-demo.sgn",
            "--format",
            "html",
            "--out",
            &at("replay.html"),
        ],
        vec![
            "replay",
            "games/bga-demo.sgn",
            "--format",
            "svg",
            "--every",
            "turn",
            "--out",
            &at("strip"),
        ],
        vec![
            "compare",
            "bga",
            "--games",
            "20",
            "--skill-games",
            "0",
            "--plot",
            "svg",
            "--out",
            &at("plot.svg"),
        ],
    ]
    .into_iter()
    .map(|v| v.into_iter().map(String::from).collect())
    .collect();
    for args in &runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, _, stderr) = senet(&args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains("is a symbolic link"), "{args:?}: {stderr}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    }
    // Plain files are replaced.
    std::fs::remove_file(dir.join("board.svg")).unwrap();
    std::fs::write(dir.join("board.svg"), "old\n").unwrap();
    let (code, _, stderr) = senet(&[
        "board",
        "--rules",
        "bga",
        "--position",
        position,
        "--out",
        &at("board.svg"),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        std::fs::read_to_string(dir.join("board.svg"))
            .unwrap()
            .starts_with("<svg")
    );
    assert!(
        names(&dir).iter().all(|n| !n.ends_with(".tmp")),
        "a temporary file was left behind: {:?}",
        names(&dir)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A rule file of one very long line: its diagnostics are cut around the
/// span like a record's (the message quoting what was found too), so a
/// 3 MB line gives a screenful, not 3 MB (or 16 MB) of output, and a label
/// past column 65,535 in one of a rule file's errors never panics.
#[test]
fn rule_file_diagnostics_cut_long_lines() {
    let dir = scratch("long-rule-line");
    let cases = [
        ("word.senet", "x".repeat(3_000_000)),
        (
            "spaces.senet",
            format!("title \"t\" {}bogus\n", " ".repeat(3_000_000)),
        ),
        (
            "not.senet",
            format!(
                "extends \"bga\"\nprotect when {}run >= 2\n",
                "not ".repeat(100_000)
            ),
        ),
    ];
    for (name, text) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let (code, stdout, stderr) = senet(&["rules", "check", path.to_str().unwrap()]);
        assert_eq!(code, 1, "{name}: {}", &stderr[..stderr.len().min(2000)]);
        assert!(stdout.is_empty());
        assert!(
            stderr.len() < 20_000,
            "{name}: {} bytes of diagnostics",
            stderr.len()
        );
        assert!(stderr.contains("senet::rules::"), "{name}: {stderr}");
        assert!(stderr.contains('…'), "{name}: nothing was cut:\n{stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Control characters from tags and comments never reach an HTML page or
/// an SVG picture raw: XML does not allow them and a page shows none of
/// them; they are written as the visible escapes of the text output.
#[test]
fn pictures_escape_control_characters() {
    let file = "tests/fixtures/sgn/err/impossible_throw-B-4-terminal-escapes.sgn";
    let raw = std::fs::read_to_string(root().join(file)).unwrap();
    assert!(raw.contains('\u{1b}'), "the fixture holds an escape");
    let bad = |s: &str| {
        s.chars()
            .any(|c| c.is_control() && !matches!(c, '\n' | '\t'))
    };
    let (_, html, stderr) = senet(&["replay", "--format", "html", file]);
    assert!(html.contains("<html"), "{stderr}");
    assert!(!bad(&html), "raw control characters in the page");
    assert!(html.contains("\\u{1b}"), "the escape is shown");
    let (code, svg, stderr) = senet(&[
        "board",
        "--rules",
        "bga",
        "--position",
        "WBWBWBWBWB/10/10 w 0-0 - 1",
        "--caption",
        "a\u{1b}[31mred\u{7}",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!bad(&svg), "raw control characters in the picture");
    assert!(svg.contains("a\\u{1b}[31mred\\u{7}"), "{svg}");
}

/// Variations 100,000 deep, closed and unclosed: every reader (check, fmt,
/// replay as text, HTML and SVG, board) reports the nesting cap as a
/// diagnostic and goes on to the next game; none overflows its stack.
#[test]
fn variations_100_000_deep_are_a_diagnostic_for_every_reader() {
    let dir = scratch("deep");
    let depth = 100_000;
    let next = "\n\n[Rules \"bga\"]\n\n*\n";
    let closed = format!(
        "[Rules \"bga\"]\n\n1. 1:10-11 {}{} *{next}",
        "( 1. 1:10-11 ".repeat(depth),
        ")".repeat(depth)
    );
    let open = format!(
        "[Rules \"bga\"]\n\n1. 1:10-11 {} *{next}",
        "( 1. 1:10-11 ".repeat(depth)
    );
    for (name, text) in [("closed.sgn", closed), ("open.sgn", open)] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let file = path.to_str().unwrap();
        let runs: [&[&str]; 6] = [
            &["check", file],
            &["fmt", "--stdout", file],
            &["replay", file],
            &["replay", "--format", "html", file],
            &["replay", "--format", "svg", file],
            &["board", file],
        ];
        for args in runs {
            let (code, _, stderr) = senet(args);
            assert_eq!(code, 1, "{args:?}: {}", &stderr[..stderr.len().min(3000)]);
            assert!(
                stderr.contains("variations nest more than 100 levels deep"),
                "{args:?}: {}",
                &stderr[..stderr.len().min(3000)]
            );
        }
        let (_, _, stderr) = senet(&["check", file]);
        assert!(
            stderr.contains("2 games, 1 valid, 1 invalid"),
            "{name}: {stderr}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
