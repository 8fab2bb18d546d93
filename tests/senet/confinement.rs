//! Rule files named by records: read only from the record's own folder
//! tree and the `--rules-path` folders, only regular files under the size
//! cap, never quoted when they do not parse; a broken one skips only the
//! games that name it. Also the limits of rule compiling (`extends` chains,
//! a board shrunk by an overlay). Each case runs the binary on files made
//! in a fresh temporary folder.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh folder for one test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("senet-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
    fn path(&self, rel: &str) -> PathBuf {
        self.0.join(rel)
    }
    fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn senet(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Diagnostics as words: no frame characters, no line breaks (miette wraps
/// messages at a width that depends on the names in them).
fn flat(text: &str) -> String {
    text.replace(['│', '·'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn record(rules: &str) -> String {
    format!("[Rules \"{rules}\"]\n\n1. 2:9-11\n*\n")
}

const SECRET: &str = "SECRET-LINE-do-not-echo";

/// A file outside the record's folder, a missing file, an absolute path and
/// a symlink that leads out all get the same answer, with the same exit
/// code, and nothing of the outside file is shown.
#[test]
fn a_record_reaches_no_file_outside_its_folder_tree() {
    let t = Scratch::new("confine-outside");
    t.write("outside/secret.senet", &format!("{SECRET}\nmore\n"));
    let secret = std::fs::canonicalize(t.path("outside/secret.senet")).unwrap();
    std::fs::create_dir_all(t.path("area")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&secret, t.path("area/link.senet")).unwrap();
    let specs = [
        "../outside/secret.senet".to_string(),
        "../outside/missing.senet".to_string(),
        s(&secret).to_string(),
        "sub/../../outside/secret.senet".to_string(),
        #[cfg(unix)]
        "link.senet".to_string(),
        "/dev/zero".to_string(),
    ];
    let mut answers = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let game = t.write(&format!("area/g{i}.sgn"), &record(spec));
        for cmd in ["check", "replay"] {
            let (code, stdout, stderr) = senet(&[cmd, s(&game)]);
            assert!(
                !stderr.contains(SECRET) && !stdout.contains(SECRET),
                "{spec}: {stderr}"
            );
            let shown: Vec<String> = stderr
                .replace(spec.as_str(), "SPEC")
                .replace(&format!("g{i}.sgn"), "G")
                .lines()
                // The underline under the tag value is as long as the spec.
                .filter(|l| !l.contains('─'))
                .map(flat)
                .collect();
            let shown = flat(&shown.join(" "));
            answers.push((cmd, code, shown));
        }
    }
    for cmd in ["check", "replay"] {
        let mine: Vec<_> = answers.iter().filter(|a| a.0 == cmd).collect();
        for a in &mine[1..] {
            assert_eq!(a.1, mine[0].1, "{cmd}: exit codes differ");
            assert_eq!(a.2, mine[0].2, "{cmd}: answers differ");
        }
    }
    assert!(answers.iter().any(|a| a.0 == "check" && a.1 == 1));
}

/// `--rules-path` opens a folder: the same spec is found there, and a path
/// that leaves the record's folder for that folder is allowed.
#[test]
fn rules_path_allows_a_folder() {
    let t = Scratch::new("confine-path");
    t.write(
        "common/five.senet",
        "extends \"thai\"\nthrows with 4 sticks: 0 -> 5, 1 -> 1, 2 -> 2, 3 -> 3, 4 -> 4   [T-2]\n",
    );
    let by_name = t.write("area/a.sgn", &record("five.senet"));
    let by_path = t.write("area/b.sgn", &record("../common/five.senet"));
    for game in [&by_name, &by_path] {
        assert_eq!(
            senet(&["check", s(game)]).0,
            1,
            "refused without --rules-path"
        );
        let (code, _, stderr) = senet(&["check", "--rules-path", s(&t.path("common")), s(game)]);
        assert_eq!(code, 0, "{stderr}");
    }
    // Below the record's own folder is always allowed.
    t.write(
        "area/variants/five.senet",
        "extends \"thai\"\nthrows with 4 sticks: 0 -> 5, 1 -> 1, 2 -> 2, 3 -> 3, 4 -> 4   [T-2]\n",
    );
    let below = t.write("area/c.sgn", &record("variants/five.senet"));
    assert_eq!(senet(&["check", s(&below)]).0, 0);
    let (code, _, stderr) = senet(&["replay", "--format", "positions", s(&below)]);
    assert_eq!(code, 0, "{stderr}");
}

/// An overlay that a record names extends only what the record could name
/// itself; refused and missing bases read alike.
#[test]
fn extends_is_confined_too() {
    let t = Scratch::new("confine-extends");
    t.write("outside/base.senet", &format!("{SECRET}\n"));
    let outside = std::fs::canonicalize(t.path("outside/base.senet")).unwrap();
    let mut shown = Vec::new();
    for (i, base) in [
        s(&outside),
        "../outside/base.senet",
        "../outside/none.senet",
    ]
    .iter()
    .enumerate()
    {
        t.write(
            &format!("area/over{i}.senet"),
            &format!("extends \"{base}\"\n"),
        );
        let game = t.write(
            &format!("area/g{i}.sgn"),
            &record(&format!("over{i}.senet")),
        );
        let (code, _, stderr) = senet(&["check", s(&game)]);
        assert_eq!(code, 2, "{stderr}");
        assert!(!stderr.contains(SECRET), "{stderr}");
        assert!(flat(&stderr).contains("no such file exists"), "{stderr}");
        let words: Vec<&str> = stderr.lines().filter(|l| !l.contains('─')).collect();
        shown.push(flat(
            &words
                .join("\n")
                .replace(base, "BASE")
                .replace(&format!("over{i}"), "OVER")
                .replace(&format!("g{i}.sgn"), "G"),
        ));
    }
    assert_eq!(shown[0], shown[2]);
    assert_eq!(shown[1], shown[2]);
}

/// Inside the allowed folders: a FIFO is not waited on, a file over the cap
/// is not read, a file that is not a rule file is named and not quoted;
/// each skips only the games that name it, and the summary says why.
#[test]
fn unusable_rule_files_skip_only_their_games() {
    let t = Scratch::new("confine-unusable");
    t.write("area/notes.senet", &format!("{SECRET}\n"));
    t.write(
        "area/big.senet",
        &format!("extends \"thai\"\n{}", "# padding\n".repeat(50)),
    );
    #[cfg(unix)]
    {
        let fifo = std::ffi::CString::new(s(&t.path("area/fifo.senet"))).unwrap();
        // SAFETY: a NUL-terminated path and a mode; no memory is shared.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    }
    let mut text = String::new();
    for spec in [
        "thai",
        "notes.senet",
        "big.senet",
        "fifo.senet",
        "bga",
        "notes.senet",
    ] {
        text.push_str(&record(spec));
        text.push('\n');
    }
    let game = t.write("area/games.sgn", &text);
    let (code, _, stderr) = senet(&["check", "--max-rule-file-bytes", "100", s(&game)]);
    assert_eq!(code, 2, "{stderr}");
    assert!(!stderr.contains(SECRET), "{stderr}");
    assert!(
        stderr.contains("6 games, 2 valid, 0 invalid, 4 skipped"),
        "{stderr}"
    );
    assert!(stderr.contains("skipped: 2 games naming `"), "{stderr}");
    assert!(stderr.contains("larger than 100 bytes"), "{stderr}");
    assert!(stderr.contains("not a regular file"), "{stderr}");
    // The JSON summary says the same.
    let (_, stdout, _) = senet(&[
        "check",
        "--format",
        "json",
        "--max-rule-file-bytes",
        "100",
        s(&game),
    ]);
    let summary: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(summary["summary"]["skipped"], 4, "{stdout}");
    assert_eq!(
        summary["summary"]["skipped_rules"]
            .as_array()
            .unwrap()
            .len(),
        3,
        "{stdout}"
    );
}

/// An overlay that shrinks the board below its base's houses is a
/// diagnostic, through `rules check` and through a record.
#[test]
fn a_shrunk_board_is_a_diagnostic() {
    let t = Scratch::new("confine-shrink");
    let rules = t.write(
        "small.senet",
        "extends \"thai\"\nboard 15 squares in rows of 10   [X-1]\n",
    );
    let (code, _, stderr) = senet(&["rules", "check", s(&rules)]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("senet::rules::unknown_square"), "{stderr}");
    assert!(stderr.contains("squares are numbered 1 to 15"), "{stderr}");
    let game = t.write("g.sgn", &record("small.senet"));
    let (code, _, stderr) = senet(&["check", s(&game)]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("1 skipped"), "{stderr}");
}

/// A chain of `extends` longer than the cap stops at the cap with a
/// diagnostic; each file is read once.
#[test]
fn long_extends_chains_stop_at_the_cap() {
    let t = Scratch::new("confine-chain");
    let n = 2000;
    t.write("c0.senet", "extends \"thai\"\n");
    for i in 1..=n {
        t.write(
            &format!("c{i}.senet"),
            &format!("extends \"c{}.senet\"\n", i - 1),
        );
    }
    let cap = senet::rules::MAX_EXTENDS_CHAIN;
    let within = senet::rules::load(s(&t.path(&format!("c{}.senet", cap - 2))), None, &[]);
    assert!(within.is_ok(), "a chain of {cap} files compiles");
    let e = senet::rules::load(s(&t.path(&format!("c{n}.senet"))), None, &[]).unwrap_err();
    let codes: Vec<String> = e
        .errors()
        .iter()
        .map(|x| miette::Diagnostic::code(x).unwrap().to_string())
        .collect();
    assert_eq!(codes, ["senet::rules::extends_chain"]);
}

/// Thousands of duplicate declarations: every one is counted, the first
/// hundred are kept and shown, so that showing them stays linear in the
/// size of the file.
#[test]
fn thousands_of_duplicates_are_counted_and_a_hundred_shown() {
    let mut text = String::from("extends \"thai\"\n");
    for _ in 0..5000 {
        text.push_str("pieces 5 per side   [X-1]\n");
    }
    let file = senet::diag::SourceFile::new("dups.senet", text);
    let e = senet::rules::load_source(file, &[]).unwrap_err();
    let senet::rules::RulesError::Invalid { count, errors, .. } = &e else {
        panic!("{e:?}")
    };
    assert_eq!(*count, 4999);
    assert_eq!(errors.len(), senet::rules::errors::MAX_SHOWN_ERRORS);
    assert_eq!(
        e.to_string(),
        "rule file `dups.senet` has 4999 errors (the first 100 shown)"
    );
}

/// A directory walk follows no symlink (a loop would never end, a link out
/// of the folder would have its target quoted) and never opens a FIFO named
/// `*.sgn` (it would hang); it says what it skipped. The binary gets 60 seconds, so that a hang fails the test
/// instead of stalling the suite.
#[cfg(unix)]
#[test]
fn directory_walks_skip_loops_fifos_and_devices() {
    let t = Scratch::new("walk-skips");
    t.write("games/a/ok.sgn", "[Rules \"bga\"]\n\n*\n");
    std::os::unix::fs::symlink(t.path("games"), t.path("games/a/loop")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", t.path("games/zero.sgn")).unwrap();
    t.write("outside/secret.txt", &format!("{SECRET}\n"));
    std::os::unix::fs::symlink(t.path("outside/secret.txt"), t.path("games/leak.sgn")).unwrap();
    let fifo = std::ffi::CString::new(s(&t.path("games/pipe.sgn"))).unwrap();
    // SAFETY: a NUL-terminated path and a mode; no memory is shared.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let games = t.path("games");
    for args in [vec!["check", s(&games)], vec!["fmt", "--check", s(&games)]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_senet"))
            .args(&args)
            .env("NO_COLOR", "1")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let start = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > std::time::Duration::from_secs(60) {
                let _ = child.kill();
                panic!("{args:?} hangs on a walk with a loop, a FIFO and a device");
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !stderr.contains(SECRET),
            "{args:?} quoted a file outside the folder:\n{stderr}"
        );
        for skipped in ["loop", "zero.sgn", "pipe.sgn", "leak.sgn"] {
            assert!(
                stderr
                    .lines()
                    .any(|l| l.contains("skipped") && l.contains(skipped)),
                "{args:?}: {skipped} not reported as skipped:\n{stderr}"
            );
        }
    }
}
