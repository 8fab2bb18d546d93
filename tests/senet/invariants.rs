//! Invariants over random games of every built-in rule set, with fixed
//! seeds: games end or reach the cap, pieces are conserved, every unit
//! played is one the generator offered, every record written checks clean,
//! and a record with one injected error fails exactly at that unit.

use senet::engine::{Position, Side, Unit, UnitKind};
use senet::notation::check::{CheckOptions, RulesCache, check_game};
use senet::notation::reader::Reader;
use senet::notation::replay::Severity;
use senet::notation::syntax::Node;
use senet::simulate::{self, Player, RunConfig};

const GAMES: u64 = 10_000;
const CAP: usize = 2000;

/// Pieces are on the board, borne off, queued, in hand or captured
/// (`captured`, as counted from the effects of the units played).
fn conserved(
    rules: &senet::engine::Ruleset,
    pos: &Position,
    captured: [u8; 2],
) -> Result<(), String> {
    if pos.pieces[0].0 & pos.pieces[1].0 != 0 {
        return Err("two pieces on one square".into());
    }
    if pos.pieces[0].0 & !((1u64 << (rules.board().len + 1)) - 2) != 0
        || pos.pieces[1].0 & !((1u64 << (rules.board().len + 1)) - 2) != 0
    {
        return Err("a piece off the track".into());
    }
    for s in Side::BOTH {
        let total = pos.pieces[s.index()].len() as u8
            + pos.off[s.index()]
            + pos.queue.count(s)
            + pos.hand[s.index()]
            + captured[s.index()];
        if total != rules.pieces() {
            return Err(format!("{s} has {total} pieces, not {}", rules.pieces()));
        }
    }
    Ok(())
}

#[test]
fn random_games_keep_the_invariants() {
    let mut problems = Vec::new();
    for name in senet::rules::builtin_names() {
        let rules = senet::rules::load(name, None, &[]).unwrap();
        let config = RunConfig {
            players: [Player::Random; 2],
            games: GAMES,
            seed: 2026,
            threads: 2,
            max_units: CAP,
            keep_units: true,
        };
        let games = simulate::run(&rules, &config, &|_| {});
        assert_eq!(games.len() as u64, GAMES);
        let mut buf: Vec<Unit> = Vec::new();
        let mut finished = 0;
        for (i, g) in games.iter().enumerate() {
            assert!(
                g.finished || g.units.len() == CAP,
                "{name} game {i} stopped early"
            );
            finished += g.finished as usize;
            let mut pos = Position::start(&rules, g.first);
            let mut captured = [0u8; 2];
            let known = problems.len();
            for (n, (side, turn, u)) in g.units.iter().enumerate() {
                assert_eq!(
                    (pos.to_move, pos.turn),
                    (*side, *turn),
                    "{name} game {i} unit {n}"
                );
                // The unit is one the generator offers for its throw.
                if matches!(u.kind, UnitKind::Skip | UnitKind::NoThrow) {
                    rules.free_units(&pos, &mut buf);
                } else {
                    rules.legal_units(&pos, u.throw, &mut buf);
                }
                if !buf.contains(u) {
                    problems.push(format!(
                        "{name} game {i} unit {n}: {u} not generated at {}",
                        pos.write(30, 10)
                    ));
                    break;
                }
                let (next, fx) = rules.play(&pos, u).unwrap();
                if fx.capture {
                    captured[pos.to_move.other().index()] += 1;
                }
                pos = next;
                if let Err(e) = conserved(&rules, &pos, captured) {
                    problems.push(format!("{name} game {i} unit {n} ({u}): {e}"));
                    break;
                }
            }
            if problems.len() == known {
                assert_eq!(pos, g.final_position, "{name} game {i}");
            }
        }
        assert!(
            finished as u64 > GAMES * 9 / 10,
            "{name}: only {finished} of {GAMES} games finished"
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn simulation_does_not_depend_on_the_thread_count() {
    let rules = senet::rules::load("ryabinin", None, &[]).unwrap();
    let play = |threads| {
        let config = RunConfig {
            players: [Player::Random, Player::Greedy],
            games: 300,
            seed: 77,
            threads,
            max_units: CAP,
            keep_units: true,
        };
        simulate::run(&rules, &config, &|_| {})
            .iter()
            .enumerate()
            .map(|(i, g)| {
                senet::cli::simulate::record_text(&rules, g, i as u64, config.players, "t")
            })
            .collect::<Vec<_>>()
    };
    let one = play(1);
    assert_eq!(one, play(2));
    assert_eq!(one, play(3));
    // And the same seed gives the same first game on its own.
    let alone = simulate::play_game(
        &rules,
        [Player::Random, Player::Greedy],
        simulate::game_seed(77, 0),
        CAP,
        true,
    );
    assert_eq!(
        one[0],
        senet::cli::simulate::record_text(&rules, &alone, 0, [Player::Random, Player::Greedy], "t")
    );
}

/// Written records of random games check clean; with one unit replaced by
/// an illegal one, the first error is at that unit.
#[test]
fn written_records_check_clean_and_injected_errors_are_found() {
    for name in senet::rules::builtin_names() {
        let rules = senet::rules::load(name, None, &[]).unwrap();
        let config = RunConfig {
            players: [Player::Random; 2],
            games: 60,
            seed: 11,
            threads: 2,
            max_units: CAP,
            keep_units: true,
        };
        let games = simulate::run(&rules, &config, &|_| {});
        let mut buf = Vec::new();
        let mut injected = 0;
        for (i, g) in games.iter().enumerate() {
            let text = senet::cli::simulate::record_text(&rules, g, i as u64, config.players, "t");
            let game = Reader::new(&text).next().unwrap().unwrap();
            let report = check_game(
                &game,
                None,
                &CheckOptions::default(),
                &mut RulesCache::default(),
            )
            .unwrap();
            assert!(
                report.findings.is_empty(),
                "{name} game {i}: {:?}\n{text}",
                report.findings
            );

            // Inject: the first move unit whose throw allows no move from the
            // square before the piece's real start... simply move the piece
            // one square further than the throw allows.
            let mut pos = Position::start(&rules, g.first);
            let pick = g.units.len() / 2;
            let mut target = None;
            for (n, (_, _, u)) in g.units.iter().enumerate() {
                if n >= pick
                    && u.kind == UnitKind::Move
                    && u.from > 0
                    && u.split.is_none()
                    && !u.off
                    && u.to > u.from
                    && u.to < rules.board().len
                {
                    rules.legal_units(&pos, u.throw, &mut buf);
                    let wrong = format!("{}:{}-{}", u.throw, u.from, u.to + 1);
                    if !buf.iter().any(|b| b.to_string().starts_with(&wrong)) {
                        target = Some((n, wrong));
                        break;
                    }
                }
                pos = rules.play(&pos, u).unwrap().0;
            }
            let Some((n, wrong)) = target else { continue };
            // Replace the n-th unit of the tree, write the record, read it back.
            let mut bad_game = game.clone();
            let replacement = Reader::new(&format!("[Rules \"{name}\"]\n\n1. {wrong} *\n"))
                .next()
                .unwrap()
                .unwrap();
            let new_unit = *replacement.main_line_units().next().unwrap();
            let mut seen = 0;
            for node in bad_game.nodes.iter_mut() {
                if let Node::Unit(u) = node {
                    if seen == n {
                        *u = new_unit;
                    }
                    seen += 1;
                }
            }
            let mut bad = String::new();
            senet::notation::writer::write_game(&bad_game, &mut bad);
            let reread = Reader::new(&bad).next().unwrap().unwrap();
            let at = reread.main_line_units().nth(n).unwrap().span.start;
            let game = Reader::new(&bad).next().unwrap().unwrap();
            let report = check_game(
                &game,
                None,
                &CheckOptions::default(),
                &mut RulesCache::default(),
            )
            .unwrap();
            let first = report
                .findings
                .iter()
                .find(|f| f.severity == Severity::Error);
            let first = first
                .unwrap_or_else(|| panic!("{name} game {i}: `{wrong}` at unit {n} was accepted"));
            assert_eq!(
                first.span.start, at,
                "{name} game {i}: first error {first:?} is not at the injected unit `{wrong}`"
            );
            injected += 1;
        }
        assert!(
            injected >= 40,
            "{name}: only {injected} records got an injected error"
        );
    }
}

/// `--stats` figures are reproducible for a seed and sane; the JSON object
/// has exactly the documented keys.
#[test]
fn statistics_are_reproducible_and_sane() {
    for name in senet::rules::builtin_names() {
        let rules = senet::rules::load(name, None, &[]).unwrap();
        let config = RunConfig {
            players: [Player::Random; 2],
            games: 2000,
            seed: 5,
            threads: 2,
            max_units: CAP,
            keep_units: false,
        };
        let stats = |c: &RunConfig| {
            let games = simulate::run(&rules, c, &|_| {});
            let figures: Vec<_> = games.iter().map(|g| g.figures()).collect();
            serde_json::to_value(simulate::Stats::from_games(&figures)).unwrap()
        };
        let a = stats(&config);
        assert_eq!(
            a,
            stats(&RunConfig {
                threads: 1,
                ..config.clone()
            }),
            "{name}"
        );
        let keys: Vec<&str> = a.as_object().unwrap().keys().map(String::as_str).collect();
        let mut want = vec![
            "games",
            "unfinished",
            "draws",
            "units_mean",
            "units_median",
            "turns_mean",
            "white_win_rate",
            "events_per_game",
        ];
        want.sort();
        let mut got = keys.clone();
        got.sort();
        assert_eq!(got, want);
        let events: Vec<&str> = a["events_per_game"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        for e in [
            "swap",
            "water",
            "bear_off",
            "pass",
            "skip",
            "backward",
            "truncation",
            "queue_join",
        ] {
            assert!(events.contains(&e), "{name}: {e} missing");
        }
        assert_eq!(a["games"], 2000);
        let rate = &a["white_win_rate"];
        let (r, lo, hi) = (
            rate["rate"].as_f64().unwrap(),
            rate["low"].as_f64().unwrap(),
            rate["high"].as_f64().unwrap(),
        );
        assert!(lo <= r && r <= hi && hi - lo < 0.06, "{name}: {rate}");
        // Random players: neither side should win four games in five.
        assert!((0.2..0.8).contains(&r), "{name}: white wins {r}");
        let units = a["units_mean"].as_f64().unwrap();
        assert!(units > 20.0 && units < CAP as f64, "{name}: {units}");
        // Every piece of the winner is borne off in a finished game.
        let bear_off = a["events_per_game"]["bear_off"].as_f64().unwrap();
        let captures = rules.movement().hit == senet::engine::Hit::Capture;
        assert!(
            captures || bear_off >= rules.pieces() as f64 * 0.9,
            "{name}: {bear_off} bear-offs per game"
        );
        // The rule sets' own events show up where their rules have them.
        let e = &a["events_per_game"];
        let has = |v: &str| e[v].as_f64().unwrap() > 0.0;
        let backward = rules.movement().backward != senet::engine::Backward::Never;
        assert_eq!(has("backward"), backward, "{name}: backward moves");
        if rules.squares().iter().any(|s| s.miss_turn) {
            assert!(has("skip"), "{name}: no missed turn");
        }
        if !rules.movement().truncate_at.is_empty() {
            assert!(has("truncation"), "{name}: no truncation");
        }
    }
}
