//! Rule-file fixtures: every `tests/fixtures/rules/ok/*.senet` compiles and
//! its canonical summary is snapshotted; every `err/*.senet` fails and its
//! rendered diagnostics (no colour, width 100) are snapshotted. The built-in
//! rule files are snapshotted with default options and with each option.

use senet::rules;
use std::path::Path;

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("../snapshots");
    s.set_prepend_module_to_snapshot(false);
    s
}

/// The fixture path relative to the crate root (the tests' working
/// directory), so that rendered file names do not depend on the checkout.
fn relative(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

fn render(e: &rules::RulesError) -> String {
    let mut out = String::new();
    miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
        .with_width(100)
        .render_report(&mut out, e)
        .unwrap();
    out
}

/// An `ok` fixture may name the options to select on its first line:
/// `# options: T-9b, A-1`.
fn fixture_options(text: &str) -> Vec<String> {
    text.lines()
        .next()
        .and_then(|l| l.strip_prefix("# options:"))
        .map(|l| {
            l.split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn ok_fixtures_compile() {
    settings().bind(|| {
        insta::glob!("../fixtures/rules/ok", "*.senet", |path| {
            let text = std::fs::read_to_string(path).unwrap();
            let r = rules::load(&relative(path), None, &fixture_options(&text))
                .unwrap_or_else(|e| panic!("{}", render(&e)));
            insta::assert_snapshot!(rules::summary(&r));
        });
    });
}

#[test]
fn err_fixtures_report_every_error() {
    settings().bind(|| {
        insta::glob!("../fixtures/rules/err", "*.senet", |path| {
            let text = std::fs::read_to_string(path).unwrap();
            let e = rules::load(&relative(path), None, &fixture_options(&text))
                .expect_err("an err fixture must not compile");
            insta::assert_snapshot!(render(&e));
        });
    });
}

fn render_warnings(w: &rules::RuleWarnings) -> String {
    let mut out = String::new();
    miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
        .with_width(100)
        .render_report(&mut out, w)
        .unwrap();
    out
}

/// `rules check` fixtures: everything the check finds in one run (errors
/// and warnings, in line order), or the warnings of a file that compiles.
#[test]
fn check_fixtures_report_every_mistake_in_line_order() {
    settings().bind(|| {
        insta::glob!("../fixtures/rules/check", "*.senet", |path| {
            let name = relative(path);
            let shown = match rules::check(&name, None, &[]) {
                Ok((_, warnings)) => {
                    assert!(
                        !warnings.is_empty(),
                        "a check fixture has something to report"
                    );
                    render_warnings(&rules::RuleWarnings {
                        file: name.clone(),
                        warnings,
                    })
                }
                Err(e) => render(&e),
            };
            insta::assert_snapshot!(shown);
        });
    });
}

/// The five mistakes of one file come out in one run, in line order:
/// an unknown base, two syntax errors and two dead values.
#[test]
fn five_mistakes_in_one_run() {
    let e = rules::check("tests/fixtures/rules/check/five_mistakes.senet", None, &[])
        .expect_err("the file has errors");
    let codes: Vec<String> = e
        .errors()
        .iter()
        .map(|e| miette::Diagnostic::code(e).unwrap().to_string())
        .collect();
    assert_eq!(
        codes,
        [
            "senet::rules::unknown_base",
            "senet::rules::never_thrown",
            "senet::rules::syntax",
            "senet::rules::never_thrown",
            "senet::rules::syntax",
        ]
    );
    let offsets: Vec<usize> = e.errors().iter().filter_map(|e| e.offset()).collect();
    assert!(offsets.is_sorted(), "not in line order: {offsets:?}");
    let senet::rules::RulesError::Invalid {
        count, warnings, ..
    } = e
    else {
        panic!("not a rule-file error");
    };
    assert_eq!((count, warnings), (3, 2));
}

/// Every closed word list of the rules language offers "did you mean" for
/// a misspelt word: sides (of the grammar shared with SGN), kinds of
/// landing and blockade, and the names of houses and options.
#[test]
fn misspelt_closed_words_get_did_you_mean() {
    for (file, meant) in [
        (
            "tests/fixtures/rules/check/closed_words.senet",
            &["white", "black", "swaps", "opposing"][..],
        ),
        (
            "tests/fixtures/rules/check/closed_names.senet",
            &["water", "X-1"],
        ),
    ] {
        let e = rules::check(file, None, &[]).expect_err("the file has errors");
        let helps: Vec<String> = e
            .errors()
            .iter()
            .map(|e| miette::Diagnostic::help(e).unwrap().to_string())
            .collect();
        assert_eq!(helps.len(), meant.len(), "{helps:?}");
        for (help, word) in helps.iter().zip(meant) {
            assert!(
                help.starts_with(&format!("did you mean `{word}`?")),
                "{file}: {help}"
            );
        }
    }
}

/// A syntax error or an unknown base does not hide the errors of the
/// declarations that parsed; while the board may be declared by what is
/// missing, an unknown square says so rather than naming a board size the
/// file does not have.
#[test]
fn semantic_errors_come_with_syntax_errors_and_an_unknown_base() {
    let dir = std::env::temp_dir().join(format!("senet-semantic-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (
            "syntax.senet",
            "extends \"kendall\"\nat 99: extra throw\nat 98: safe\n",
        ),
        ("base.senet", "extends \"kendal\"\nat 99: extra throw\n"),
        (
            "own_board.senet",
            "extends \"kendal\"\nboard 30 squares in rows of 10\nat 99: extra throw\n",
        ),
    ];
    let mut helps = Vec::new();
    for (name, text) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let e = rules::check(path.to_str().unwrap(), None, &[]).expect_err("the file has errors");
        let square = e
            .errors()
            .iter()
            .find(|e| {
                miette::Diagnostic::code(*e).map(|c| c.to_string())
                    == Some("senet::rules::unknown_square".into())
            })
            .unwrap_or_else(|| panic!("{name}: the unknown square is not reported"));
        helps.push(miette::Diagnostic::help(square).unwrap().to_string());
    }
    std::fs::remove_dir_all(&dir).ok();
    for help in &helps[..2] {
        assert!(help.contains("board is not known"), "{help}");
        assert!(!help.contains("on this board"), "{help}");
    }
    assert_eq!(
        helps[2],
        "squares are numbered 1 to 30 (30 squares on this board)"
    );
}

/// A house off the board is one error, not two (it was reported where the
/// house is declared and again as a square).
#[test]
fn a_house_off_the_board_is_one_error() {
    let dir = std::env::temp_dir().join(format!("senet-house-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("house.senet");
    std::fs::write(&path, "extends \"thai\"\nhouse nile = 99 \"Nile\"\n").unwrap();
    let e = rules::check(path.to_str().unwrap(), None, &[]).expect_err("the file has an error");
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(codes_of(&e), ["senet::rules::unknown_square"]);
    let senet::rules::RulesError::Invalid { count, .. } = e else {
        panic!("not a rule-file error");
    };
    assert_eq!(count, 1);
}

/// Warnings do not stop a file from loading, and `load` (used by every
/// command but `rules check`) does not report them.
#[test]
fn warnings_do_not_fail_a_load() {
    let path = "tests/fixtures/rules/check/dead_values.senet";
    let (_, warnings) = rules::check(path, None, &[]).unwrap();
    assert_eq!(warnings.len(), 4);
    assert!(warnings.iter().all(|w| w.is_warning()));
    rules::load(path, None, &[]).unwrap();
}

/// An exit rule where no throw bears a piece off (MC-8) is reported as a
/// dead value, and `rules show` says it never applies instead of
/// describing a bear-off that the engine never plays.
#[test]
fn an_exit_without_a_throw_to_bear_off_is_dead() {
    let path = "tests/fixtures/rules/check/exit_without_throw.senet";
    let (rules, warnings) = rules::check(path, None, &[]).unwrap();
    let codes: Vec<String> = warnings
        .iter()
        .map(|w| miette::Diagnostic::code(w).unwrap().to_string())
        .collect();
    assert_eq!(codes, ["senet::rules::exit_without_throw"]);
    let line = rules
        .meta()
        .explained
        .iter()
        .map(|(text, _)| text.as_str())
        .find(|t| t.starts_with("Square 25:"))
        .expect("a sentence for square 25");
    assert!(line.contains("never happens"), "{line}");
    // The same exit under rules that bear off by a throw is live.
    let kendall = "extends \"kendall\"\nat 25: exit with 3\n";
    let file = senet::diag::SourceFile::new("kendall-exit.senet", kendall);
    let (_, warnings) = rules::check_source(file, &[]).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
}

/// The built-in rule files have no dead value, alone or with any option.
#[test]
fn builtins_have_no_warnings() {
    for name in rules::builtin_names() {
        let (base, warnings) = rules::check(name, None, &[]).unwrap();
        assert!(warnings.is_empty(), "{name}: {warnings:?}");
        for (option, _) in &base.meta().options {
            let (_, warnings) = rules::check(name, None, std::slice::from_ref(option)).unwrap();
            assert!(
                warnings.is_empty(),
                "{name} --option {option}: {warnings:?}"
            );
        }
    }
}

#[test]
fn err_fixtures_cover_every_code() {
    let mut codes = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir("tests/fixtures/rules/err").unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        if let Err(e) = rules::load(&path.display().to_string(), None, &fixture_options(&text)) {
            for err in e.errors() {
                codes.insert(miette::Diagnostic::code(err).unwrap().to_string());
            }
        }
    }
    for code in [
        "syntax",
        "unknown_square",
        "unknown_house",
        "duplicate",
        "conflict",
        "unknown_option",
        "overlay_cycle",
        "unknown_base",
        "setup_overlap",
        "setup_count",
        "throw_map_incomplete",
        "throw_map_range",
        "missing",
        "value",
        "drops_nothing",
    ] {
        assert!(
            codes.contains(&format!("senet::rules::{code}")),
            "no err fixture for senet::rules::{code}"
        );
    }
}

#[test]
fn builtins_with_each_option() {
    settings().bind(|| {
        for name in rules::builtin_names() {
            let base = rules::load(name, None, &[]).unwrap_or_else(|e| panic!("{}", render(&e)));
            insta::assert_snapshot!(format!("builtin_{name}"), rules::summary(&base));
            insta::assert_snapshot!(format!("show_{name}"), senet::cli::rules::show(&base));
            for (option, _) in &base.meta().options {
                let r = rules::load(name, None, std::slice::from_ref(option))
                    .unwrap_or_else(|e| panic!("{name} --option {option}: {}", render(&e)));
                let snap = format!("builtin_{name}_{}", option.replace('/', "_"));
                insta::assert_snapshot!(snap, rules::summary(&r));
            }
        }
    });
}

#[test]
fn builtins_explain_every_rule_with_a_clause() {
    for name in rules::builtin_names() {
        let r = rules::load(name, None, &[]).unwrap();
        for (text, clause) in &r.meta().explained {
            assert!(!clause.is_empty(), "{name}: no clause for `{text}`");
        }
    }
}

#[test]
fn builtin_source_and_names_agree() {
    assert_eq!(
        rules::builtin_names(),
        [
            "bga",
            "bell",
            "jequier",
            "kendall",
            "kendall1979",
            "meub",
            "piccione",
            "ryabinin",
            "thai",
            "gym-senet-kendall",
            "gym-senet-skiryuk",
            "horolsky-kendall",
            "horolsky-meub",
            "ludii-bell",
            "ludii-jequier",
            "ludii-kendall",
            "ludii-piccione",
            "macabot"
        ]
    );
    for name in rules::builtin_names() {
        assert!(rules::builtin_source(name).unwrap().contains("title"));
    }
    assert!(rules::builtin_source("nope").is_none());
}

#[test]
fn missing_file_is_an_io_error() {
    let e = rules::load("no/such/file.senet", None, &[]).unwrap_err();
    assert!(e.is_io());
}

#[test]
fn digest_is_sha256_of_the_file() {
    let d = rules::digest("kendall", None).unwrap();
    assert_eq!(d.len(), 64);
    assert_eq!(d, rules::digest("kendall", None).unwrap());
    assert_ne!(d, rules::digest("thai", None).unwrap());
}

/// A new variant written as an overlay of `kendall` that changes only its
/// throw map and one house compiles with no Rust change, and differs from
/// `kendall` in exactly those places.
#[test]
fn overlay_changes_only_what_it_declares() {
    let base = rules::load("kendall", None, &[]).unwrap();
    let over = rules::load("tests/fixtures/rules/ok/overlay_kendall.senet", None, &[])
        .unwrap_or_else(|e| panic!("{}", render(&e)));
    assert_eq!(over.meta().name, "overlay_kendall");
    assert_eq!(over.throws().values, vec![5, 1, 2, 3, 4]);
    assert_eq!(base.throws().values, vec![6, 1, 2, 3, 4]);
    let water = |r: &senet::engine::Ruleset| {
        r.houses()
            .iter()
            .find(|h| h.square == 27)
            .unwrap()
            .name
            .clone()
    };
    assert_eq!(water(&base), "House of Water");
    assert_eq!(water(&over), "House of the Nile");
    // Everything else is kendall's.
    // (A rule set cannot be edited from outside the crate, so every part
    // but the provenance, the throws and the houses is compared in turn.)
    assert_eq!(over.board(), base.board());
    assert_eq!(over.pieces(), base.pieces());
    assert_eq!(over.setup(), base.setup());
    assert_eq!(over.entry(), base.entry());
    assert_eq!(over.starter(), base.starter());
    assert_eq!(over.opening(), base.opening());
    assert_eq!(over.movement(), base.movement());
    assert_eq!(over.protection(), base.protection());
    assert_eq!(over.blockades(), base.blockades());
    assert_eq!(over.squares(), base.squares());
    assert_eq!(over.bear_off(), base.bear_off());
    assert_eq!(over.turn(), base.turn());
    assert_eq!(over.end(), base.end());
    // Options are inherited.
    assert_eq!(over.meta().options.len(), base.meta().options.len());
}

#[test]
fn options_combine_and_require() {
    let r = rules::load("thai", None, &["T-14c".to_string(), "A-11".to_string()]).unwrap();
    assert_eq!(r.meta().selected, ["T-14b", "T-14c", "A-11"]);
    assert!(!r.turn().voluntary_pass_keeps_extra);
    let lock = r.squares()[27].lock.as_ref().unwrap();
    assert_eq!(lock.otherwise, senet::engine::Relocation::Stay);
    // The `;`-separated form of the SGN RuleOptions tag is accepted too.
    let r = rules::load("thai", None, &["T-9b; T-10b".to_string()]).unwrap();
    assert_eq!(r.meta().selected, ["T-9b", "T-10b"]);
}

/// A lock whose failed throw sends the piece to the hand (a construct of
/// the language, though no built-in uses it): that unit is an ordinary
/// move, so a throw that gives another throw keeps the turn going; only
/// PC-5's return of a stuck piece ends the turn.
#[test]
fn a_lock_that_sends_to_the_hand_keeps_the_turn_on_an_extra_throw() {
    use senet::diag::SourceFile;
    use senet::engine::Position;
    let text = "extends \"bga\"\n\
        enter from hand on 1 with 1                      [B-12]\n\
        at water: lock: release to rebirth, exit with 4, otherwise relocate to hand, failure continues turn   [B-12]\n";
    let rules = rules::load_source(SourceFile::new("hand-lock.senet", text), &[]).unwrap();
    let pos = Position::parse("10/9B/6W3 w 4-4 - 30", 30, 10).unwrap();
    let mut units = Vec::new();
    rules.legal_units(&pos, 5, &mut units);
    let written: Vec<String> = units.iter().map(|u| u.to_string()).collect();
    assert_eq!(written, ["5+:27-hand"]);
    let (next, _) = rules.play(&pos, &units[0]).unwrap();
    assert_eq!(next.write(30, 10), "10/9B/10 w 4-4 extra;hand:1-0 30");
}

/// The relative move effect (`relocate back 5`, `relocate forward 2`) and
/// the `else counting up` fallback move pieces as written in
/// `ok/relative_moves.senet`, and the fallback takes over when the square
/// reached is taken.
#[test]
fn relative_moves_and_counting_up_relocate_as_written() {
    use senet::engine::{Position, Side, SquareSet};
    let r = rules::load("tests/fixtures/rules/ok/relative_moves.senet", None, &[])
        .unwrap_or_else(|e| panic!("{}", render(&e)));
    let units = |white: &[u8], black: &[u8], throw: u8| {
        let mut pos = Position::start(&r, Side::White);
        pos.pieces = [
            white.iter().copied().collect::<SquareSet>(),
            black.iter().copied().collect::<SquareSet>(),
        ];
        pos.turn = 10;
        let mut out = Vec::new();
        r.legal_units(&pos, throw, &mut out);
        out.iter().map(|u| u.to_string()).collect::<Vec<_>>()
    };
    // 12 sends its piece forward 2 to 14, 23 back 5 to 18.
    assert_eq!(units(&[10, 21], &[1, 2], 2), ["2:10-12=14", "2:21-23=18"]);
    // Taken: counting up from 14 (14, 15 taken: 16), down from 18 (17).
    assert_eq!(
        units(&[10, 21], &[14, 15, 18], 2),
        ["2:10-12=16", "2:21-23=17"]
    );
    // The water sends its piece to 15, or counting up from it.
    assert_eq!(units(&[24], &[1], 3), ["3:24-27=15"]);
    assert_eq!(units(&[24], &[15, 16], 3), ["3:24-27=17"]);
}

/// The units of one throw in a position, written as SGN.
fn units(rules: &senet::engine::Ruleset, position: &str, throw: u8) -> Vec<String> {
    let b = rules.board();
    let pos = senet::engine::Position::parse(position, b.len, b.row_len).unwrap();
    let mut out = Vec::new();
    rules.legal_units(&pos, throw, &mut out);
    out.iter().map(|u| u.to_string()).collect()
}

#[test]
fn drop_removes_inherited_rules_from_play() {
    let path = "tests/fixtures/rules/ok/drop_overlay.senet";
    let kendall = rules::load("kendall", None, &[]).unwrap();
    let open = rules::load(path, None, &[]).unwrap();
    let passing = rules::load(path, None, &["K-12".to_string()]).unwrap();
    // White on 1 behind three Black pieces; a 6 from 21 lands on the water.
    let pos = "W1BBB5/W9/WWWBB5 w 0-0 - 20";
    let before = units(&kendall, pos, 6);
    assert!(!before.contains(&"6+:1-7".to_string()), "{before:?}");
    assert!(before.contains(&"6+:21-27=2".to_string()), "{before:?}");
    // `drop blockade` frees the way; `drop at 27` leaves the water plain.
    let after = units(&open, pos, 6);
    assert_eq!(
        after,
        ["6+:1-7", "6+:11-17", "6+:21-27", "6+:22-28", "6+:23-29"]
    );
    // An option may drop a declaration too: K-12 drops compulsion and
    // offers the pass.
    let with_pass = units(&passing, pos, 6);
    assert_eq!(with_pass.last().map(String::as_str), Some("6+:pass"));
    // `drop protect`: a pair no longer protects its pieces (kendall: run >= 2).
    let pair = "W1BB6/10/WWWWBBB3 w 0-0 - 20";
    assert_eq!(units(&kendall, pair, 1), ["1+:1-2"]);
    assert_eq!(units(&open, pair, 1), ["1+:1-2", "1+:24x25"]);
}

#[test]
fn drop_in_an_option_is_undone_by_a_later_option() {
    let path = "tests/fixtures/rules/ok/drop_overlay.senet";
    let gate = rules::load(path, None, &["K-15a".to_string()]).unwrap();
    let undone = rules::load(path, None, &["K-15b".to_string()]).unwrap();
    // A 6 from 22 would pass the gate on 26.
    let pos = "W1BBB5/W9/WWWBB5 w 0-0 - 20";
    assert!(!units(&gate, pos, 6).contains(&"6+:22-28".to_string()));
    assert!(units(&undone, pos, 6).contains(&"6+:22-28".to_string()));
}

fn codes_of(e: &rules::RulesError) -> Vec<String> {
    e.errors()
        .iter()
        .map(|e| miette::Diagnostic::code(e).unwrap().to_string())
        .collect()
}

/// Two options that decide the same thing differently, neither building
/// on the other, are refused with both names; so is an option named twice.
#[test]
fn contradictory_and_repeated_options_are_errors_naming_them() {
    let two = |a: &str, b: &str| vec![a.to_string(), b.to_string()];
    let e = rules::load("kendall", None, &two("A-3/lowest", "A-3/queue")).unwrap_err();
    assert_eq!(codes_of(&e), ["senet::rules::option_conflict"]);
    let text = e.errors()[0].to_string();
    assert!(
        text.contains("`A-3/lowest`") && text.contains("`A-3/queue`"),
        "{text}"
    );
    // An option and the one it requires do not contradict each other.
    rules::load("kendall", None, &two("A-3/queue", "K-15b")).unwrap();

    let e = rules::load("kendall", None, &two("A-1", "A-1")).unwrap_err();
    assert_eq!(codes_of(&e), ["senet::rules::option_repeated"]);
    let e = rules::load("kendall", None, &["A-1; A-2; A-1".to_string()]).unwrap_err();
    assert_eq!(codes_of(&e), ["senet::rules::option_repeated"]);
    assert!(e.errors()[0].to_string().contains("`A-1`"));
}

/// Options that do not combine inside a built-in file are reported
/// against the options, with no line of the built-in file to edit.
#[test]
fn a_combination_that_fails_in_a_builtin_names_the_options() {
    let options = vec!["T-14b".to_string(), "A-3/queue".to_string()];
    let e = rules::load("thai", None, &options).unwrap_err();
    // Both decide what a piece landing on 27 does (a contradiction), and
    // the lock of one needs the piece to stay, which the other undoes.
    assert_eq!(
        codes_of(&e),
        [
            "senet::rules::option_conflict",
            "senet::rules::option_combination"
        ]
    );
    assert!(e.errors().iter().all(|e| e.file_name().is_none()));
    let err = &e.errors()[1];
    assert!(err.file_name().is_none() && err.offset().is_none());
    let text = err.to_string();
    assert!(
        text.contains("`T-14b`") && text.contains("`A-3/queue`"),
        "{text}"
    );
    assert!(text.contains("square 27"), "{text}");
}

fn senet(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("the senet binary runs");
    (
        out.status.code().expect("exited normally"),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Warnings are shown and do not fail `rules check` unless
/// `--deny-warnings`; errors fail it either way.
#[test]
fn rules_check_exits_by_errors_and_denied_warnings() {
    let file = "tests/fixtures/rules/check/dead_values.senet";
    let (code, out, err) = senet(&["rules", "check", file]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(": ok ("), "{out}");
    assert!(err.contains("has 4 warnings") && err.contains("senet::rules::never_thrown"));
    let (code, out, err) = senet(&["rules", "check", "--deny-warnings", file]);
    assert_eq!(code, 1, "{err}");
    assert!(!out.contains(": ok ("), "{out}");
    let (code, _, err) = senet(&["rules", "check", "kendall", "--deny-warnings"]);
    assert_eq!(code, 0, "{err}");
    let five = "tests/fixtures/rules/check/five_mistakes.senet";
    let (code, _, err) = senet(&["rules", "check", five]);
    assert_eq!(code, 1);
    assert!(err.contains("has 3 errors and 2 warnings"), "{err}");
}

/// `moves` refuses a position with the wrong number of pieces, as
/// `check` does for a `Position` tag.
#[test]
fn moves_rejects_a_position_with_the_wrong_number_of_pieces() {
    let args = |pos: &'static str| {
        [
            "moves",
            "--rules",
            "kendall",
            "--position",
            pos,
            "--throw",
            "3",
        ]
    };
    let (code, out, err) = senet(&args("WBWBWBWBW1/10/10 w 0-0 - 1"));
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("senet::position::piece_count"), "{err}");
    assert!(err.contains("Black has 4"), "{err}");
    assert!(out.is_empty());
    let (code, _, err) = senet(&args("WBWBWBWBWB/W9/10 w 0-0 - 1"));
    assert_eq!(code, 2);
    assert!(err.contains("White has 6"), "{err}");
    let (code, out, err) = senet(&args("WBWBWBWBWB/10/10 w 0-0 - 1"));
    assert_eq!(code, 0, "{err}");
    assert!(!out.is_empty());
}

/// A small seeded generator (xorshift64) for the sample games below.
struct Xorshift(u64);

impl Xorshift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Whether `with` differs from `base` in play: the start, the units due
/// without a throw, the legal units of a throw, what playing a unit leads
/// to (the next position: whose turn, extra throws, state), or the end and
/// score of a position, over the positions `written` by hand and those of
/// seeded random games played under each of the two rule sets.
fn plays_differently(
    base: &senet::engine::Ruleset,
    with: &senet::engine::Ruleset,
    written: &[senet::engine::Position],
) -> bool {
    use senet::engine::{Position, Side};
    let mut rng = Xorshift(0x9e37_79b9_7f4a_7c15);
    let mut throws: Vec<u8> = base.throws().distinct_values();
    throws.extend(with.throws().distinct_values());
    throws.sort_unstable();
    throws.dedup();
    let units = |r: &senet::engine::Ruleset, pos: &Position, throw: Option<u8>| {
        let mut out = Vec::new();
        match throw {
            Some(t) => r.legal_units(pos, t, &mut out),
            None => r.free_units(pos, &mut out),
        }
        out
    };
    let differ_at = |pos: &Position| {
        if base.game_over(pos) != with.game_over(pos) || base.score(pos) != with.score(pos) {
            return true;
        }
        std::iter::once(None)
            .chain(throws.iter().map(|&t| Some(t)))
            .any(|t| {
                let (a, b) = (units(base, pos, t), units(with, pos, t));
                a != b
                    || a.iter().any(|u| {
                        base.play(pos, u).map(|p| p.0).ok() != with.play(pos, u).map(|p| p.0).ok()
                    })
            })
    };
    let starter = |r: &senet::engine::Ruleset| match r.starter() {
        senet::engine::Starter::Fixed(side, _) => Some(*side),
        senet::engine::Starter::ByLot(_) => None,
    };
    if starter(base) != starter(with) {
        return true;
    }
    for first in Side::BOTH {
        if Position::start(base, first) != Position::start(with, first) {
            return true;
        }
    }
    // Positions written by hand for the special cases, which random games
    // may never reach.
    if written.iter().any(differ_at) {
        return true;
    }
    for game in 0..30 {
        for walker in [base, with] {
            let mut pos = Position::start(walker, Side::BOTH[game % 2]);
            for _ in 0..300 {
                if differ_at(&pos) {
                    return true;
                }
                if walker.game_over(&pos) {
                    break;
                }
                let free = units(walker, &pos, None);
                let choices = if free.is_empty() {
                    let values = &walker.throws().values;
                    let t = values[rng.below(values.len())];
                    units(walker, &pos, Some(t))
                } else {
                    free
                };
                if choices.is_empty() {
                    break;
                }
                let unit = &choices[rng.below(choices.len())];
                match walker.play(&pos, unit) {
                    Ok((next, _)) => pos = next,
                    Err(_) => break,
                }
            }
        }
    }
    false
}

/// The positions of a built-in's move-generation scenarios
/// (`tests/scenarios/<name>.scn`) that read on its board.
fn scenario_positions(name: &str, rules: &senet::engine::Ruleset) -> Vec<senet::engine::Position> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenarios")
        .join(format!("{name}.scn"));
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|l| l.strip_prefix("position:"))
        .filter_map(|p| {
            senet::engine::Position::parse(p.trim(), rules.board().len, rules.board().row_len).ok()
        })
        .collect()
}

/// Every option of every built-in changes play on its own, or its file
/// declares that it does not (`names
/// only`, `changes nothing unless combined with ...`), which `rules show`
/// prints; and an option so declared really changes nothing alone.
#[test]
fn every_option_changes_play_or_says_it_does_not() {
    let mut wrong = Vec::new();
    for name in rules::builtin_names() {
        let plain = rules::load(name, None, &[]).unwrap();
        let written = scenario_positions(name, &plain);
        for (option, description) in &plain.meta().options {
            // On its own: selected alone (with what it requires), against
            // the rule set with no option.
            let with = rules::load(name, None, std::slice::from_ref(option)).unwrap();
            let declared = description.contains("changes no move");
            let changes = plays_differently(&plain, &with, &written);
            if changes == declared {
                wrong.push(format!(
                    "{name} {option}: {}",
                    if changes {
                        "declared to change no move, but changes play"
                    } else {
                        "changes no move alone and does not say so"
                    }
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// `names only` holds houses only, and `unless combined with` names
/// options that exist.
#[test]
fn an_inert_option_statement_is_checked() {
    use senet::diag::SourceFile;
    let text = "extends \"kendall\"\n\
        option X-1 \"a name\" names only {\n    at 26: gate   [K-15a]\n}\n\
        option X-2 \"the default\" changes nothing unless combined with X-9 {\n    at 28: exit with 3   [K-15d]\n}\n";
    let e = rules::load_source(SourceFile::new("inert.senet", text), &[]).unwrap_err();
    assert_eq!(
        codes_of(&e),
        ["senet::rules::value", "senet::rules::unknown_option"]
    );
    let r = rules::load("kendall", None, &[]).unwrap();
    let k15c = r.meta().options.iter().find(|(n, _)| n == "K-15c").unwrap();
    assert!(
        k15c.1.ends_with("(names only: changes no move)"),
        "{}",
        k15c.1
    );
}

/// With a syntax error elsewhere the board is unknown while the rest of the
/// file is checked, so a square past the board's end once indexed past the
/// table of squares and panicked.
#[test]
fn a_square_off_the_board_beside_a_syntax_error_is_reported() {
    for rule in [
        "at 31: gate",
        "at 40: relocate to 1",
        "at 31: extra throw",
        "at 31: exit gives no extra throw",
    ] {
        let text = format!("extends \"kendall\"\nfoo\n{rule}\n");
        let file = senet::diag::SourceFile::new("off.senet", text);
        let e = rules::check_source(file, &[]).expect_err(rule);
        let codes = codes_of(&e);
        assert!(
            codes.contains(&"senet::rules::syntax".to_string()),
            "{rule}: {codes:?}"
        );
    }
}

/// `ok/backward_extra.senet`: a backward move throws again on any value, a
/// forward move only on kendall's values; the blockade counts only pieces
/// on 1..26, so three on 28..30 never block a bear-off, while three on
/// 12..14 block both ways; kendall's blockade counts everywhere.
#[test]
fn backward_extra_and_blockade_where_runs_count_play_as_written() {
    let r = rules::load("tests/fixtures/rules/ok/backward_extra.senet", None, &[])
        .unwrap_or_else(|e| panic!("{}", render(&e)));
    let kendall = rules::load("kendall", None, &[]).unwrap();
    // 12..14 protect each other and block the 6: 11 goes back, and throws
    // again on a 2 and a 3 as on a 6.
    assert_eq!(units(&r, "10/WBBB6/10 w 4-2 - 9", 2), ["2+:11-9"]);
    assert_eq!(units(&r, "10/WBBB6/10 w 4-2 - 9", 3), ["3+:11-8"]);
    assert_eq!(units(&r, "10/WBBB6/10 w 4-2 - 9", 6), ["6+:11-5"]);
    // Backward across them is blocked too: 16 has no move with a 6 (21
    // and 22 protect each other).
    assert_eq!(units(&r, "10/1BBB1W4/BB8 w 4-0 - 9", 6), ["6+:pass"]);
    // A forward 2 ends the turn.
    assert_eq!(units(&r, "10/W9/9B w 4-4 - 9", 2), ["2:11-13"]);
    // Three pieces on 28..30 are off the squares where runs count: 25
    // bears off past them; kendall's blockade holds it.
    assert_eq!(units(&r, "10/10/4W2BBB w 4-2 - 9", 6), ["6+:25-off"]);
    assert_eq!(units(&kendall, "10/10/4W2BBB w 4-2 - 9", 6), ["6+:pass"]);
}

/// `where runs count` after a group blockade: a group is made of the
/// opposing pieces on the squares where runs count only, both for the
/// moves listed and for the reason a move is refused.
#[test]
fn a_group_blockade_where_runs_count_groups_the_counted_pieces_only() {
    use senet::diag::SourceFile;
    use senet::engine::{Forbid, Position};
    let load = |runs: &str| {
        let text = format!(
            "extends \"macabot\"\nruns count on {runs}   [X-1]\n\
             blockade 3 opposing in a group where runs count   [X-3]\n"
        );
        rules::load_source(SourceFile::new("group-where.senet", text), &[]).unwrap()
    };
    let macabot = rules::load("macabot", None, &[]).unwrap();
    // Black's 19, 20 and 22 (below 19) are a group of three; on 1..20 only
    // 19 and 20 count, a group of two that does not block 18's 3.
    let pos = "10/7WBB/1B1B6 w 4-1 - 3";
    assert_eq!(units(&load("1..20"), pos, 3), ["3:18-21"]);
    assert_eq!(units(&macabot, pos, 3), ["3:18-15"]);
    // 28, 29 and 30 are a group of three; on 1..28 only 28 counts. 27's 3
    // onto 30 is refused by the protection of 28..30, not by a blockade.
    let pos = "10/10/6WBBB w 4-2 - 3";
    let rules = load("1..28");
    assert_eq!(units(&rules, pos, 3), ["3:27-24"]);
    let at = Position::parse(pos, 30, 10).unwrap();
    let why: Vec<(u8, u8, Forbid)> = rules
        .refusals(&at, 3)
        .iter()
        .map(|r| (r.from, r.to, r.forbid))
        .collect();
    assert_eq!(why, [(27, 30, Forbid::Protected)]);
    let why = macabot.refusals(&at, 3);
    assert_eq!(why.len(), 1);
    assert_eq!((why[0].from, why[0].to), (27, 30));
    assert!(matches!(why[0].forbid, Forbid::Blockade(_)), "{why:?}");
}
