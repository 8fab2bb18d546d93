//! `senet replay`, through the library call the command makes.
//!
//! - `tests/fixtures/replay/*.sgn`: the text output (no colour) is
//!   snapshotted, whole for the hand-written records and up to `--to 5`
//!   for the copied example games;
//! - `tests/fixtures/replay/err/*.sgn`: the output up to the illegal unit
//!   and the rendered problems are snapshotted;
//! - every canonical record of `tests/fixtures/sgn/ok`: `--format
//!   positions` has one line per unit after the start, and reaches every
//!   `[%pos]` the record asserts, the last one last;
//! - `--to`, `--game`, JSON, colour and the board of a non-standard size.

use senet::cli::replay::{Format, ReplayError, ReplayOptions, StopAt, render_replay, replay_game};
use senet::engine::{Position, Side};
use senet::notation::board::{Highlight, draw};
use std::path::{Path, PathBuf};

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("../fixtures/replay/snapshots");
    s.set_prepend_module_to_snapshot(false);
    s
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn sgn_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgn"))
        .collect();
    v.sort();
    v
}

/// Replays a file as the command would, naming it by its path in the repository.
fn replay(
    path: &Path,
    opts: &ReplayOptions,
) -> Result<senet::cli::replay::ReplayOutput, ReplayError> {
    let text = std::fs::read_to_string(path).unwrap();
    let name = path
        .strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string();
    render_replay(&text, &name, path.parent(), opts)
}

fn opts(format: Format, to: Option<&str>) -> ReplayOptions {
    ReplayOptions {
        format,
        to: to.map(|t| StopAt::parse(t).unwrap()),
        ..ReplayOptions::default()
    }
}

fn stem(path: &Path) -> String {
    path.file_stem().unwrap().to_string_lossy().into_owned()
}

#[test]
fn text_of_each_fixture() {
    let files = sgn_files(&root().join("tests/fixtures/replay"));
    assert!(files.len() >= 4, "fixtures missing");
    for file in files {
        let name = stem(&file);
        // The copied example games are long: their opening is enough to
        // show swaps, extra throws, passes and (ryabinin) the special squares.
        let to = if name.starts_with("setup") {
            None
        } else {
            Some("5")
        };
        let out = replay(&file, &opts(Format::Text, to)).unwrap();
        if name == "gap" {
            // It ends in round 3: `--to 5` is past its end, a problem of
            // the request that leaves the text as it was.
            assert_eq!(out.problems.len(), 1, "{name}: {:?}", out.problems);
            assert!(out.problems[0].contains("senet::replay::past_end"));
        } else {
            assert!(out.problems.is_empty(), "{name}: {:?}", out.problems);
        }
        assert!(!out.text.contains('\x1b'), "{name}: colour without --color");
        settings().bind(|| insta::assert_snapshot!(format!("text_{name}"), out.text));
    }
}

#[test]
fn an_illegal_unit_stops_the_replay_and_is_shown() {
    for file in sgn_files(&root().join("tests/fixtures/replay/err")) {
        let name = stem(&file);
        let out = replay(&file, &opts(Format::Text, None)).unwrap();
        assert!(!out.problems.is_empty(), "{name}: no problem reported");
        let shown = format!(
            "{}\n---- problems ----\n{}",
            out.text,
            out.problems.join("\n")
        );
        settings().bind(|| insta::assert_snapshot!(format!("err_{name}"), shown));
    }
}

#[test]
fn the_illegal_unit_fixture_stops_before_turn_4() {
    let file = root().join("tests/fixtures/replay/err/illegal-unit.sgn");
    let out = replay(&file, &opts(Format::Positions, None)).unwrap();
    // The start and the 8 legal units before `4. 2:9-12`.
    assert_eq!(out.text.lines().count(), 9);
    assert_eq!(out.text.lines().last(), Some("BWW1BBWWWB/2B7/10 w 0-0 - 4"));
    // One problem in the variation, one on the main line.
    assert_eq!(out.problems.len(), 2);
    assert!(out.problems[1].contains("2:9-12"));
}

/// The `[%pos]` strings of a record, in order.
fn asserted_positions(text: &str) -> Vec<String> {
    let mut v = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("[%pos ") {
        let tail = &rest[at + 6..];
        let end = tail.find(']').unwrap();
        v.push(tail[..end].trim().to_string());
        rest = &tail[end..];
    }
    v
}

#[test]
fn positions_reach_every_asserted_position() {
    let mut files = sgn_files(&root().join("tests/fixtures/sgn/ok"));
    files.extend(sgn_files(&root().join("tests/fixtures/replay")));
    assert!(files.len() >= 20);
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let out = replay(&file, &opts(Format::Positions, None)).unwrap();
        assert!(
            out.problems.is_empty(),
            "{}: {:?}",
            file.display(),
            out.problems
        );
        let lines: Vec<&str> = out.text.lines().collect();
        let game = senet::notation::reader::Reader::new(&text)
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(
            lines.len(),
            game.main_line_units().count() + 1,
            "{}: one line per unit and the start",
            file.display()
        );
        let asserted = asserted_positions(&text);
        for pos in &asserted {
            assert!(
                lines.contains(&pos.as_str()),
                "{}: `{pos}` never reached",
                file.display()
            );
        }
        if let Some(last) = asserted.last() {
            assert_eq!(
                lines.last().copied(),
                Some(last.as_str()),
                "{}",
                file.display()
            );
        }
    }
}

#[test]
fn positions_of_the_setup_game() {
    let file = root().join("tests/fixtures/replay/setup-annotated.sgn");
    let out = replay(&file, &opts(Format::Positions, None)).unwrap();
    assert_eq!(out.text.lines().next(), Some("10/5BW3/1WB1WB4 w 2-2 - 20"));
    settings().bind(|| insta::assert_snapshot!("positions_setup-annotated", out.text));
}

#[test]
fn to_stops_after_a_round_a_turn_or_a_unit() {
    let file = root().join("tests/fixtures/replay/thai-0001.sgn");
    let last = |to: &str| {
        let out = replay(&file, &opts(Format::Positions, Some(to))).unwrap();
        (
            out.text.lines().count() - 1,
            out.text.lines().last().unwrap().to_string(),
        )
    };
    // 1. 2:9-11  1... 2:pass  2. 1+:1x2 2:7-9  2... 3:8x11  3. 2:5-7
    // 3... 1+:4-5 2:11-13  4. 1+:9x10 1+:10-11 2:7x9  4... (five units)
    assert_eq!(last("1").0, 2);
    assert_eq!(last("2.").0, 4);
    assert_eq!(last("2.1").0, 3);
    assert_eq!(last("2...").0, 5);
    assert_eq!(last("3").0, 8);
    assert_eq!(
        last("4.2"),
        (10, "BWW1BBWWB1/W1B7/10 w 0-0 extra 4".to_string())
    );
    assert_eq!(last("4...").0, 16);
    assert_eq!(last("4").0, 16);
    // A unit number past the end of the turn shows the whole turn.
    assert_eq!(last("4.9").0, 11);
    // Past the end of the game: everything.
    let all = replay(&file, &opts(Format::Positions, None)).unwrap();
    assert_eq!(
        replay(&file, &opts(Format::Positions, Some("999")))
            .unwrap()
            .text,
        all.text
    );
    let text = replay(&file, &opts(Format::Text, Some("999")))
        .unwrap()
        .text;
    assert!(
        text.ends_with("The game ends before 999: 1-0\n"),
        "{}",
        &text[text.len() - 80..]
    );
}

/// `--to` past the last unit is a problem of the request (exit 1) that
/// says how long the game is in the unit of `--to` (for a round number,
/// its rounds); `--to` the last round is not.
#[test]
fn to_past_the_end_is_a_problem() {
    let file = root().join("tests/fixtures/replay/thai-0001.sgn");
    let all = replay(&file, &opts(Format::Positions, None)).unwrap();
    assert!(all.problems.is_empty());
    // The game's rounds: the highest turn number written.
    let rounds = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once('.').and_then(|(n, _)| n.parse::<u32>().ok()))
        .max()
        .unwrap();
    let out = replay(&file, &opts(Format::Text, Some("999"))).unwrap();
    assert_eq!(out.problems.len(), 1, "{:?}", out.problems);
    let p = &out.problems[0];
    assert!(p.contains("senet::replay::past_end"), "{p}");
    assert!(
        p.contains(&format!(
            "--to 999 is past the end of the game: it has {rounds} rounds"
        )),
        "{p}"
    );
    assert!(p.contains("help: give --to"), "{p}");
    let last_turn = all.text.lines().last().unwrap().rsplit(' ').next().unwrap();
    let last_turn: u32 = last_turn.parse().unwrap();
    // The last position's turn number is the turn after the last unit's
    // (or the same, mid-turn): stopping at the turn before it is in the game.
    let inside = (last_turn - 1).to_string();
    let out = replay(&file, &opts(Format::Text, Some(&inside))).unwrap();
    assert!(out.problems.is_empty(), "{:?}", out.problems);
}

#[test]
fn to_reads_only_turn_labels() {
    for ok in ["12", "12.", "12...", "12.2", "12...3"] {
        let s = StopAt::parse(ok).unwrap();
        assert_eq!(s.to_string(), ok);
    }
    assert_eq!(
        StopAt::parse("12...3").unwrap(),
        StopAt {
            turn: 12,
            side: Some(Side::Black),
            unit: Some(3)
        }
    );
    for bad in ["", "x", "0", "12..2", "12.0", "-1", "12.a"] {
        assert!(StopAt::parse(bad).is_err(), "`{bad}` accepted");
    }
}

#[test]
fn json_lists_each_unit() {
    let file = root().join("tests/fixtures/replay/setup-annotated.sgn");
    let out = replay(&file, &opts(Format::Json, None)).unwrap();
    let v: serde_json::Value = serde_json::from_str(&out.text).unwrap();
    assert_eq!(v["rules"], "bga");
    assert_eq!(v["units"].as_array().unwrap().len(), 9);
    assert_eq!(v["units"][0]["nags"][0], 1);
    assert_eq!(v["units"][0]["variations"][0][0]["unit"], "4+:17-21");
    assert_eq!(v["end"], "10/4WW2B1/2BB6 b 3-2 - 22");
    settings().bind(|| insta::assert_snapshot!("json_setup-annotated", out.text));
}

#[test]
fn game_picks_one_game_of_a_file() {
    let a = std::fs::read_to_string(root().join("tests/fixtures/replay/thai-0001.sgn")).unwrap();
    let b =
        std::fs::read_to_string(root().join("tests/fixtures/replay/setup-annotated.sgn")).unwrap();
    let both = format!("{a}\n{b}");
    let second = ReplayOptions {
        game: 2,
        format: Format::Positions,
        ..ReplayOptions::default()
    };
    let out = render_replay(&both, "both.sgn", None, &second).unwrap();
    assert_eq!(out.text.lines().next(), Some("10/5BW3/1WB1WB4 w 2-2 - 20"));
    let third = ReplayOptions { game: 3, ..second };
    assert!(matches!(
        render_replay(&both, "both.sgn", None, &third),
        Err(ReplayError::NoSuchGame { asked: 3, found: 2 })
    ));
}

#[test]
fn a_syntax_error_is_rendered() {
    let text = "[Rules \"thai\"]\n\n1. 2:9-11 1... 2:pass {\n*\n";
    match render_replay(text, "broken.sgn", None, &ReplayOptions::default()) {
        Err(e @ ReplayError::Syntax(_)) => {
            assert_eq!(e.exit_code(), 1);
            let ReplayError::Syntax(shown) = e else {
                unreachable!()
            };
            assert!(shown.contains("broken.sgn"), "{shown}");
        }
        other => panic!("expected a syntax error, got {other:?}"),
    }
}

/// A `Rules` tag that names no rule set is a problem of the record, at the
/// tag, as in `check` (exit 1); the same name given with `--rules` is a
/// usage error (exit 2).
#[test]
fn unknown_rules_are_a_problem_of_the_record_and_a_usage_error_on_the_command_line() {
    let text = "[Rules \"no-such-rules\"]\n\n1. 2:9-11 *\n";
    let found = render_replay(text, "x.sgn", None, &ReplayOptions::default()).unwrap();
    assert!(
        found.problems[0].contains("unknown_rules") && found.problems[0].contains("Rules tag"),
        "{:?}",
        found.problems
    );
    let over = ReplayOptions {
        rules: Some(("no-such-rules".to_string(), Vec::new())),
        ..ReplayOptions::default()
    };
    let e = render_replay(text, "x.sgn", None, &over).unwrap_err();
    assert!(matches!(e, ReplayError::Rules(_)));
    assert_eq!(e.exit_code(), 2);
    let missing = render_replay(
        "[Event \"?\"]\n\n1. 2:9-11 *\n",
        "x.sgn",
        None,
        &ReplayOptions::default(),
    )
    .unwrap();
    assert!(
        missing.problems[0].contains("missing_rules"),
        "{:?}",
        missing.problems
    );
}

#[test]
fn colour_highlights_the_piece_that_moved() {
    let file = root().join("tests/fixtures/replay/thai-0001.sgn");
    let o = ReplayOptions {
        color: true,
        ..opts(Format::Text, Some("1."))
    };
    let out = replay(&file, &o).unwrap();
    assert!(out.text.contains("\x1b[1;7m W \x1b[0m"), "{}", out.text);
}

#[test]
fn boards_of_other_sizes() {
    let rules = senet::rules::load(
        root()
            .join("tests/fixtures/rules/ok/small_board.senet")
            .to_str()
            .unwrap(),
        None,
        &[],
    )
    .unwrap();
    let start = Position::start(&rules, Side::White);
    let hl = Highlight {
        moved: Some(rules.setup()[0][0]),
        ..Highlight::default()
    };
    settings()
        .bind(|| insta::assert_snapshot!("board_small_board", draw(&rules, &start, &hl, false)));
}

/// Every label the replay prints for a unit of the main line names that
/// unit for `replay --to` and `board --at` (the same walk, with the flag
/// `--at` and the picture's steps): stopped at the label, the replay shows
/// the units up to that one and no problem. Over every game of games/,
/// whose macabot game has bear-offs without a throw after a throw that
/// ends the turn (`29... ... 2:20x22 0:30-off`): the bear-off is the last
/// unit of that turn, `29...4`, and `29...3` is the unit before it.
#[test]
fn every_label_replay_prints_is_accepted_by_to_and_at() {
    let mut labels_checked = 0;
    for file in sgn_files(&root().join("games")) {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file.strip_prefix(root()).unwrap().display().to_string();
        let games = senet::notation::reader::Reader::new(&text).count();
        for game in 1..=games {
            let whole = replay(
                &file,
                &ReplayOptions {
                    game,
                    ..opts(Format::Json, None)
                },
            )
            .unwrap();
            assert!(whole.problems.is_empty(), "{name} game {game}");
            let v: serde_json::Value = serde_json::from_str(&whole.text).unwrap();
            let labels: Vec<String> = v["units"]
                .as_array()
                .unwrap()
                .iter()
                .map(|u| u["label"].as_str().unwrap().to_string())
                .collect();
            for (i, label) in labels.iter().enumerate() {
                assert!(
                    !labels[..i].contains(label),
                    "{name} game {game}: `{label}` labels two units"
                );
                let to = ReplayOptions {
                    game,
                    ..opts(Format::Positions, Some(label))
                };
                let out = replay(&file, &to).unwrap();
                assert!(
                    out.problems.is_empty(),
                    "{name} game {game}: --to {label}: {}",
                    out.problems.join("\n")
                );
                assert_eq!(
                    out.text.lines().count(),
                    i + 2,
                    "{name} game {game}: --to {label} stops after unit {}",
                    i + 1
                );
                let at = ReplayOptions {
                    format: Format::Svg,
                    to_flag: "--at",
                    command: "board",
                    ..to
                };
                let (out, view) = replay_game(&text, &name, file.parent(), &at).unwrap();
                assert!(
                    out.problems.is_empty(),
                    "{name} game {game}: --at {label}: {}",
                    out.problems.join("\n")
                );
                let steps = view.unwrap().steps;
                assert_eq!(steps.len(), i + 1, "{name} game {game}: --at {label}");
                assert_eq!(steps.last().map(|s| s.label.as_str()), Some(label.as_str()));
                labels_checked += 1;
            }
        }
    }
    assert!(labels_checked > 3000, "only {labels_checked} labels");
    // The macabot turns with a bear-off without a throw, as labelled.
    let file = root().join("games/macabot-demo.sgn");
    let out = replay(&file, &opts(Format::Text, None)).unwrap();
    for line in [
        "29...3 Black  2:20x22",
        "29...4 Black  0:30-off",
        "36...2 Black  0:30-off",
        "37...2 Black  0:30-off",
    ] {
        assert!(
            out.text.lines().any(|l| l == line),
            "`{line}` is not in the replay"
        );
    }
    // The 2 ends Black's turn: the bear-off comes next, and no throw.
    let gloss = out
        .text
        .lines()
        .skip_while(|l| *l != "29...3 Black  2:20x22")
        .nth(1)
        .unwrap();
    assert!(
        gloss.ends_with("the bear-off without a throw comes next, then the turn ends")
            && !gloss.contains("throws again"),
        "{gloss}"
    );
}
