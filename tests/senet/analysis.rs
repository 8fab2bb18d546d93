//! The evaluator against a separate brute-force solver on tiny rule files,
//! and the properties every value must have: colour symmetry, the value of
//! a position one throw from winning, the same values on any thread count,
//! and annotated records that read back, format and check clean.

use senet::analysis::game::{Thresholds, judge_all};
use senet::analysis::{Evaluator, Settings, Value};
use senet::diag::SourceFile;
use senet::engine::{Position, Ruleset, Side, SquareSet, Unit, UnitKind};
use std::collections::HashMap;
use std::process::Command;

/// 8 squares, one piece each, two sticks; swaps, backward moves and an
/// extra throw on 1, so the game graph has cycles.
const TINY: &str = r#"
title "Tiny"
source "test"
status "test"
goal: bear off all pieces
board 8 squares in rows of 4
pieces 1 per side
setup white on 1
setup black on 2
starter white
throws with 2 sticks: 0 -> 3, 1 -> 1, 2 -> 2
extra throw on 1
backward when no forward move
landing on opposing piece swaps
protect nothing
no blockade
bear off by exact throw past the end
no score
"#;

/// Two pieces each on 8 squares, protected pairs, passes allowed, and a score.
const TINY_PAIRS: &str = r#"
title "Tiny pairs"
source "test"
status "test"
goal: bear off all pieces
board 8 squares in rows of 4
pieces 2 per side
setup white on 1, 3
setup black on 2, 4
starter white
throws with 2 sticks: 0 -> 3, 1 -> 1, 2 -> 2
extra throw on 3
backward never
pass voluntary
landing on own piece forbidden
landing on opposing piece swaps
protect when run >= 2
no blockade
bear off by any throw past the end
score by row 2, 1
"#;

/// No hits, no extra throws, any throw past the end bears off.
const NO_HITS: &str = r#"
title "No hits"
source "test"
status "test"
goal: bear off all pieces
board 8 squares in rows of 4
pieces 1 per side
setup white on 1
setup black on 2
starter white
throws with 2 sticks: 0 -> 3, 1 -> 1, 2 -> 2
no extra throw
backward never
landing on opposing piece forbidden
protect nothing
no blockade
bear off by any throw past the end
no score
"#;

fn tiny(text: &str, name: &str) -> Ruleset {
    senet::rules::load_source(SourceFile::new(name, text), &[]).unwrap()
}

fn exact_settings() -> Settings {
    Settings {
        exact_pieces: 255,
        exact_states: 1_000_000,
        ..Settings::default()
    }
}

/// The brute-force solver: every position reachable from the start (turn
/// numbers past the opening are all alike), then plain Jacobi iteration of
/// "White takes the maximum, Black the minimum, a throw the weighted sum"
/// from all-zero values until nothing moves.
fn brute_force(rules: &Ruleset) -> HashMap<Position, f64> {
    let norm = |p: &Position| {
        let mut p = *p;
        p.turn = p.turn.min(3);
        p
    };
    let start = norm(&Position::start(rules, Side::White));
    let mut states = vec![start];
    let mut seen: HashMap<Position, usize> = HashMap::from([(start, 0)]);
    // Per state: (side, free successors, per throw (weight, successors)).
    type Succ = Vec<usize>;
    type State = (Side, Succ, Vec<(f64, Succ)>);
    let mut graph: Vec<State> = Vec::new();
    let total = (1u32 << rules.throws().sticks) as f64;
    let mut buf = Vec::new();
    let mut i = 0;
    while i < states.len() {
        let pos = states[i];
        let mut id = |u: &Unit, states: &mut Vec<Position>| {
            let next = norm(&rules.play(&pos, u).unwrap().0);
            *seen.entry(next).or_insert_with(|| {
                states.push(next);
                states.len() - 1
            })
        };
        let mut free = Vec::new();
        let mut throws = Vec::new();
        if !rules.game_over(&pos) {
            rules.free_units(&pos, &mut buf);
            for u in buf.clone() {
                free.push(id(&u, &mut states));
            }
            if free.is_empty() {
                for t in rules.throws().distinct_values() {
                    rules.legal_units(&pos, t, &mut buf);
                    let succ = buf.clone().iter().map(|u| id(u, &mut states)).collect();
                    throws.push((rules.throws().weight(t) as f64 / total, succ));
                }
            }
        }
        graph.push((pos.to_move, free, throws));
        i += 1;
    }
    let terminal = |p: &Position| match rules.winner(p) {
        Some(Side::White) => Some(1.0),
        Some(Side::Black) => Some(0.0),
        None if rules.game_over(p) => Some(0.5),
        None => None,
    };
    let mut v = vec![0.0; states.len()];
    for _ in 0..100_000 {
        let mut next = v.clone();
        for (s, (side, free, throws)) in graph.iter().enumerate() {
            next[s] = if let Some(t) = terminal(&states[s]) {
                t
            } else if let [skip] = free[..] {
                // These rule files have no lock: a unit due without a
                // throw is a missed turn's skip, with nothing to choose.
                v[skip]
            } else {
                assert!(free.is_empty());
                throws
                    .iter()
                    .map(|(w, succ)| {
                        let vals = succ.iter().map(|&n| v[n]);
                        w * match side {
                            Side::White => vals.fold(f64::MIN, f64::max),
                            Side::Black => vals.fold(f64::MAX, f64::min),
                        }
                    })
                    .sum()
            };
        }
        let delta = next
            .iter()
            .zip(&v)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        v = next;
        if delta < 1e-13 {
            break;
        }
    }
    states.into_iter().zip(v).collect()
}

fn assert_matches_brute_force(rules: &Ruleset) {
    let truth = brute_force(rules);
    assert!(truth.len() > 50, "only {} states", truth.len());
    let mut ev = Evaluator::new(rules, exact_settings());
    for (pos, want) in &truth {
        let got = ev.position(pos).win;
        assert!(
            (got - want).abs() < 1e-7,
            "{}: evaluator {got}, brute force {want}",
            pos.write(rules.board().len, rules.board().row_len)
        );
    }
    // The search's own arithmetic: each throw's best unit, weighted, gives
    // the brute-force value of the position before the throw.
    for depth in [1, 2] {
        let mut ev = Evaluator::new(
            rules,
            Settings {
                depth,
                ..exact_settings()
            },
        );
        for pos in truth.keys().take(200) {
            let a = ev.analyse(pos);
            if a.throws.is_empty() {
                continue;
            }
            let side = pos.to_move;
            let expected: f64 = a
                .throws
                .iter()
                .map(|t| {
                    let best = t.units.first().map_or(a.value.win, |u| u.value.win);
                    for u in &t.units {
                        let after = rules.play(pos, &u.unit).unwrap().0;
                        let mut k = after;
                        k.turn = k.turn.min(3);
                        assert!((u.value.win - truth[&k]).abs() < 1e-7);
                        assert!(!u.value.better_for(&t.units[0].value, side));
                    }
                    t.probability * best
                })
                .sum();
            assert!((expected - truth[pos]).abs() < 1e-7);
            assert!((a.value.win - truth[pos]).abs() < 1e-7);
        }
    }
}

#[test]
fn exact_values_equal_a_brute_force_solver() {
    assert_matches_brute_force(&tiny(TINY, "tiny.senet"));
    assert_matches_brute_force(&tiny(TINY_PAIRS, "tiny_pairs.senet"));
}

#[test]
fn rollouts_come_near_the_exact_value() {
    let rules = tiny(TINY, "tiny.senet");
    let start = Position::start(&rules, Side::White);
    let exact = Evaluator::new(&rules, exact_settings()).position(&start);
    let rolled = Evaluator::new(
        &rules,
        Settings {
            exact_pieces: 0,
            rollouts: 4000,
            ..Settings::default()
        },
    )
    .position(&start);
    assert!(
        (exact.win - rolled.win).abs() < 0.03,
        "exact {} rollouts {}",
        exact.win,
        rolled.win
    );
}

#[test]
fn one_throw_from_winning_is_worth_that_throw() {
    // White on 6 bears off with a 3 (probability 1/4); a 1 or 2 leaves
    // Black, on 8, to bear off with any throw.
    let rules = tiny(NO_HITS, "no_hits.senet");
    let pos = Position::parse("4/1W1B w 0-0 - 5", 8, 4).unwrap();
    for settings in [
        exact_settings(),
        Settings {
            exact_pieces: 0,
            ..Settings::default()
        },
        Settings {
            exact_pieces: 0,
            depth: 2,
            ..Settings::default()
        },
    ] {
        let v = Evaluator::new(&rules, settings).position(&pos);
        assert!((v.win - 0.25).abs() < 1e-12, "{v:?}");
    }
}

/// The same position with the colours swapped.
fn mirror(p: &Position) -> Position {
    let mut m = *p;
    m.pieces = [p.pieces[1], p.pieces[0]];
    m.off = [p.off[1], p.off[0]];
    m.skip = [p.skip[1], p.skip[0]];
    m.hand = [p.hand[1], p.hand[0]];
    m.waiting = [p.waiting[1], p.waiting[0]];
    m.to_move = p.to_move.other();
    m
}

/// Positions from a seeded random game, past the opening.
fn midgame(rules: &Ruleset, count: usize) -> Vec<Position> {
    let g = senet::simulate::play_game(rules, [senet::simulate::Player::Random; 2], 11, 2000, true);
    let mut pos = Position::start(rules, g.first);
    let mut out = Vec::new();
    for (_, _, u) in &g.units {
        if pos.turn > 3 && !rules.game_over(&pos) && out.len() < count && pos.queue.is_empty() {
            out.push(pos);
        }
        pos = rules.play(&pos, u).unwrap().0;
    }
    out.into_iter().step_by(7).collect()
}

#[test]
fn values_are_symmetric_under_swapping_colours() {
    for name in ["bga", "thai"] {
        let rules = senet::rules::load(name, None, &[]).unwrap();
        let settings = Settings {
            rollouts: 16,
            ..Settings::default()
        };
        let mut ev = Evaluator::new(&rules, settings);
        let positions = midgame(&rules, 60);
        assert!(
            positions.len() >= 5,
            "{name}: {} positions",
            positions.len()
        );
        for pos in positions {
            let v = ev.position(&pos).win;
            let m = ev.position(&mirror(&pos)).win;
            assert!(
                (v - (1.0 - m)).abs() < 1e-9,
                "{name} {pos}: {v} but mirrored {m}"
            );
        }
    }
    let rules = tiny(TINY_PAIRS, "tiny_pairs.senet");
    let mut ev = Evaluator::new(&rules, exact_settings());
    for pos in brute_force(&rules).keys().take(300) {
        let (v, m): (Value, Value) = (ev.position(pos), ev.position(&mirror(pos)));
        assert!((v.win - (1.0 - m.win)).abs() < 1e-7);
        assert!((v.score.unwrap() + m.score.unwrap()).abs() < 1e-6);
    }
}

#[test]
fn analysis_is_the_same_on_any_thread_count() {
    let rules = senet::rules::load("bga", None, &[]).unwrap();
    let g = senet::simulate::play_game(&rules, [senet::simulate::Player::Greedy; 2], 5, 2000, true);
    let mut pos = Position::start(&rules, g.first);
    let mut moves = Vec::new();
    for (_, _, u) in g.units.iter().take(30) {
        moves.push((pos, *u));
        pos = rules.play(&pos, u).unwrap().0;
    }
    let settings = Settings {
        rollouts: 8,
        refine_rollouts: 16,
        ..Settings::default()
    };
    let t = Thresholds::default();
    let one = judge_all(&rules, &moves, &settings, &t, 1, &|_| {});
    let three = judge_all(&rules, &moves, &settings, &t, 3, &|_| {});
    assert_eq!(one, three);
    assert_eq!(one.len(), 30);
    // Another seed gives other rollouts: the seed is used.
    let other = judge_all(
        &rules,
        &moves,
        &Settings {
            seed: 2,
            ..settings
        },
        &t,
        2,
        &|_| {},
    );
    assert_ne!(one, other);
}

#[test]
fn the_expectimax_player_plays_legal_seeded_games() {
    let rules = tiny(TINY_PAIRS, "tiny_pairs.senet");
    let players = [
        senet::simulate::Player::Expectimax(2),
        senet::simulate::Player::Random,
    ];
    let a = senet::simulate::play_game(&rules, players, 3, 2000, true);
    let b = senet::simulate::play_game(&rules, players, 3, 2000, true);
    assert!(a.finished);
    assert_eq!(a.units, b.units);
    assert_eq!(
        "expectimax:2".parse::<senet::simulate::Player>(),
        Ok(players[0])
    );
    assert!("expectimax:0".parse::<senet::simulate::Player>().is_err());
}

fn senet(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_senet"))
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

#[test]
fn the_annotated_demo_game_checks_clean_and_is_canonical() {
    let path = "games/bga-demo-analysed.sgn";
    let (code, _, stderr) = senet(&["check", path]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
    let text = std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    match senet::cli::fmt::format_text(&text) {
        senet::cli::fmt::Formatted::Text(t) => assert_eq!(t, text),
        senet::cli::fmt::Formatted::Syntax(e) => panic!("{e:?}"),
    }
    // Every unit of the main line carries its value.
    let game = senet::notation::Reader::new(&text).next().unwrap().unwrap();
    let units = game.main_line_units().count();
    let evals = text.matches("[%eval ").count();
    assert!(evals >= units, "{evals} evaluations for {units} units");
}

#[test]
fn annotating_again_changes_nothing_else() {
    // The demo game annotated by a cheap analysis: everything of the
    // original is still there, and annotating the result again gives the
    // same text.
    let dir = std::env::temp_dir().join(format!("senet-annotate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let once = dir.join("once.sgn");
    let args = |input: &str, out: &std::path::Path| {
        vec![
            "analyze".to_string(),
            input.to_string(),
            "--annotate".into(),
            "--rollouts".into(),
            "4".into(),
            "--refine".into(),
            "8".into(),
            "--threads".into(),
            "2".into(),
            "--out".into(),
            out.display().to_string(),
        ]
    };
    let run = |a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        senet(&a)
    };
    let (code, _, err) = run(args("games/ryabinin-demo-2.sgn", &once));
    assert_eq!(code, 0, "{err}");
    let twice = dir.join("twice.sgn");
    let (code, _, err) = run(args(&once.display().to_string(), &twice));
    assert_eq!(code, 0, "{err}");
    let a = std::fs::read_to_string(&once).unwrap();
    let b = std::fs::read_to_string(&twice).unwrap();
    assert_eq!(a, b);
    let original = std::fs::read_to_string(format!(
        "{}/games/ryabinin-demo-2.sgn",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    // With the added NAGs and `[%eval]` comments taken out, the record is
    // the original's canonical form.
    let strip = |t: &str| {
        let g = senet::notation::Reader::new(t).next().unwrap().unwrap();
        let mut g = g.without_spans();
        let mut keep = Vec::new();
        let mut skip_comment = false;
        for n in g.nodes.iter().rev() {
            match n {
                senet::notation::Node::Comment(c) if c.text.starts_with("[%eval ") => {
                    skip_comment = c.text.contains(" loss ");
                    continue;
                }
                senet::notation::Node::Nag { n: 2 | 4 | 6, .. } if skip_comment => {
                    skip_comment = false;
                    continue;
                }
                _ => skip_comment = false,
            }
            keep.push(n.clone());
        }
        keep.reverse();
        g.nodes = keep;
        g
    };
    assert_eq!(strip(&a), strip(&original));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn best_prints_the_documented_json() {
    let (code, out, err) = senet(&[
        "best",
        "--rules",
        "bga",
        "--position",
        "WBWBWBWBWB/10/10 w 0-0 - 1",
        "--rollouts",
        "8",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["position"], "WBWBWBWBWB/10/10 w 0-0 - 1");
    let throws = v["throws"].as_array().unwrap();
    let p: f64 = throws
        .iter()
        .map(|t| t["probability"].as_f64().unwrap())
        .sum();
    assert!((p - 1.0).abs() < 1e-12);
    let expected: f64 = throws
        .iter()
        .map(|t| t["probability"].as_f64().unwrap() * t["units"][0]["value"].as_f64().unwrap())
        .sum();
    assert!((expected - v["value"].as_f64().unwrap()).abs() < 1e-5);
    let (code, out, _) = senet(&[
        "best",
        "--rules",
        "bga",
        "--position",
        "WBWBWBWBWB/10/10 w 0-0 - 1",
        "--throw",
        "2",
        "--rollouts",
        "8",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["throw"], 2);
    assert_eq!(v["units"][0]["unit"], "2:9-11");
    let (code, _, _) = senet(&[
        "best",
        "--rules",
        "bga",
        "--position",
        "W w",
        "--format",
        "json",
    ]);
    assert_eq!(code, 2);
}

#[test]
fn analyze_json_lines_have_the_documented_fields() {
    let (code, out, err) = senet(&[
        "analyze",
        "games/ryabinin-demo-2.sgn",
        "--format",
        "json",
        "--rollouts",
        "4",
        "--refine",
        "8",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (summary, units) = lines.split_last().unwrap();
    assert!(!units.is_empty());
    for u in units {
        for key in [
            "game",
            "turn",
            "side",
            "throw",
            "unit",
            "value",
            "best",
            "best_value",
            "loss",
            "mark",
        ] {
            assert!(u.get(key).is_some(), "{key} missing in {u}");
        }
        assert!(u["loss"].as_f64().unwrap() >= 0.0);
    }
    assert!(summary["summary"]["white"]["error_rate"].is_number());
    let _ = (UnitKind::Pass, SquareSet::EMPTY);
}

/// `compare` plays a rule set with a turn limit to its draws, as `simulate`
/// does: without `--max-units` its games are not cut at 2,000 units and
/// counted unfinished (LK-19 under `trap` and `home-row`).
#[test]
fn compare_plays_turn_limited_games_to_their_draw() {
    let figures = |extra: &[&str]| {
        let mut args = vec![
            "compare",
            "ludii-kendall+trap+home-row",
            "--games",
            "50",
            "--seed",
            "1",
            "--skill-games",
            "0",
            "--format",
            "json",
        ];
        args.extend_from_slice(extra);
        let (code, out, err) = senet(&args);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        (
            v[0]["draws"].as_u64().unwrap(),
            v[0]["unfinished"].as_u64().unwrap(),
        )
    };
    let (draws, unfinished) = figures(&[]);
    assert!(draws > 0, "no game reached the turn limit");
    assert_eq!(unfinished, 0);
    // The same games cut at 2,000 units: the drawn ones are unfinished.
    assert_eq!(figures(&["--max-units", "2000"]), (0, draws));
}
