//! Inputs the fuzz targets (`fuzz/`) found, kept as fixtures in
//! `tests/fixtures/fuzz/`: each file is named after the target that found
//! it (`TARGET-what.bin`) and must hold what that target asserts, and the
//! command line must handle it without a crash. A new finding is a new file.

use senet::notation::{read_all, write_games};
use std::path::{Path, PathBuf};
use std::process::Command;

fn findings() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fuzz");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("tests/fixtures/fuzz")
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

/// `(exit code, stdout)` of the binary; a panic or a signal fails here.
fn senet(args: &[&str]) -> (i32, Vec<u8>) {
    let out = Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the senet binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let code = out
        .status
        .code()
        .unwrap_or_else(|| panic!("senet {args:?} was killed by a signal:\n{stderr}"));
    assert!(
        code != 101 && !stderr.contains("panicked"),
        "senet {args:?} panicked:\n{stderr}"
    );
    (code, out.stdout)
}

/// What `fuzz_targets/fmt_roundtrip.rs` asserts: canonical text reads back
/// without errors into as many games, and writing it again changes nothing.
fn fmt_round_trip(name: &str, text: &str) {
    let (games, errors) = read_all(text);
    assert!(errors.is_empty(), "{name}: the finding no longer reads");
    let once = write_games(&games, &[]);
    let (again, errors) = read_all(&once);
    assert!(errors.is_empty(), "{name}: canonical text does not read");
    assert_eq!(again.len(), games.len(), "{name}: game count changed");
    assert_eq!(
        write_games(&again, &[]),
        once,
        "{name}: fmt is not idempotent"
    );
}

#[test]
fn every_fuzz_finding_holds_its_targets_property() {
    let files = findings();
    assert!(!files.is_empty());
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let file = path.to_str().unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let target = name.split('-').next().unwrap();
        match target {
            "fmt_roundtrip" => {
                fmt_round_trip(&name, std::str::from_utf8(&bytes).unwrap());
                // The command line: its output is a fixed point too.
                let (code, once) = senet(&["fmt", "--stdout", file]);
                assert_eq!(code, 0, "{name}");
                let dir =
                    std::env::temp_dir().join(format!("senet-fuzz-finding-{}", std::process::id()));
                std::fs::create_dir_all(&dir).unwrap();
                let again = dir.join("once.sgn");
                std::fs::write(&again, &once).unwrap();
                let (code, twice) = senet(&["fmt", "--stdout", again.to_str().unwrap()]);
                let _ = std::fs::remove_dir_all(&dir);
                assert_eq!(code, 0, "{name}");
                assert!(once == twice, "{name}: a second fmt changes the text");
            }
            "read_sgn" | "check_sgn" => {
                let (code, _) = senet(&["check", file]);
                assert!(code <= 2, "{name}: exit {code}");
            }
            "compile_rules" => {
                let (code, _) = senet(&["rules", "check", file]);
                assert!(code <= 2, "{name}: exit {code}");
            }
            other => panic!("{name}: no test for the target `{other}`"),
        }
    }
}
