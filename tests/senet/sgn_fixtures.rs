//! SGN syntax fixtures: the reader, the writer and the normative grammar.
//!
//! - `tests/fixtures/sgn/ok/*.sgn` are canonical (among them the 20
//!   generated records of `shared/examples`): read → write reproduces them
//!   byte for byte;
//! - `tests/fixtures/sgn/ok/loose/*.sgn` read cleanly but are not canonical:
//!   their canonical text is snapshotted;
//! - `tests/fixtures/sgn/err-syntax/*.sgn` hold syntax errors: the rendered
//!   diagnostics (no colour, width 100) are snapshotted;
//! - on every fixture: read → write → read is equal (spans aside), write is
//!   idempotent, the streaming reader agrees with the in-memory one, and the
//!   pest grammar accepts exactly what the reader accepts.

use senet::notation::grammar;
use senet::notation::reader::{Reader, StreamReader, SyntaxError, read_all};
use senet::notation::syntax::*;
use senet::notation::writer::write_games;
use std::path::{Path, PathBuf};

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("../snapshots");
    s.set_prepend_module_to_snapshot(false);
    s
}

fn fixtures(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/sgn")
        .join(dir);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgn"))
        .collect();
    v.sort();
    v
}

fn relative(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

fn render(e: &SyntaxError, name: &str, text: &str) -> String {
    let report = miette::Report::new(e.clone())
        .with_source_code(miette::NamedSource::new(name, text.to_string()));
    let mut out = String::new();
    miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
        .with_width(100)
        .render_report(&mut out, report.as_ref())
        .unwrap();
    out
}

/// Reads a text that must be free of syntax errors.
fn read_ok(name: &str, text: &str) -> (Vec<Game>, Vec<Escape>) {
    let mut r = Reader::new(text);
    let mut games = Vec::new();
    for g in r.by_ref() {
        games.push(g.unwrap_or_else(|e| panic!("{}", render(&e, name, text))));
    }
    (games, r.trailing().to_vec())
}

/// Games as the writer sees them: spans aside, tags in canonical order.
fn strip(games: &[Game]) -> Vec<Game> {
    games
        .iter()
        .map(|g| {
            let mut g = g.without_spans();
            senet::notation::writer::sort_tags(&mut g.tags);
            g
        })
        .collect()
}

/// read → write → read is equal; write is idempotent.
fn assert_round_trip(name: &str, text: &str) -> String {
    let (games, trailing) = read_ok(name, text);
    let out = write_games(&games, &trailing);
    let (again, trailing2) = read_ok(&format!("{name} (rewritten)"), &out);
    assert_eq!(
        strip(&games),
        strip(&again),
        "{name}: rewriting changed the games"
    );
    assert_eq!(
        trailing.iter().map(|e| &e.line).collect::<Vec<_>>(),
        trailing2.iter().map(|e| &e.line).collect::<Vec<_>>()
    );
    assert_eq!(
        write_games(&again, &trailing2),
        out,
        "{name}: writing is not idempotent"
    );
    out
}

/// The streaming reader, fed through a tiny buffer, yields the same games
/// and errors (spans included) as the in-memory reader.
fn assert_stream_agrees(name: &str, text: &str) {
    let mem: Vec<Result<Game, SyntaxError>> = Reader::new(text).collect();
    for (capacity, chunk) in [(7, 1), (7, 16), (1 << 16, 1 << 16)] {
        let input = std::io::BufReader::with_capacity(capacity, text.as_bytes());
        let mut stream = StreamReader::with_chunk(input, chunk);
        let mut got = Vec::new();
        while let Some(g) = stream.next_game() {
            got.push(g.map_err(|e| match e {
                senet::notation::ReadError::Syntax(e) => e,
                e => panic!("{name}: {e}"),
            }));
        }
        assert_eq!(
            mem, got,
            "{name}: streaming (chunk {chunk}) and in-memory readers differ"
        );
    }
}

/// A diagnostic renders the same from the streaming reader's
/// [`GameSource`] (one game of text, file-wide spans) as from the whole file.
fn assert_stream_renders_alike(name: &str, text: &str) {
    let whole: Vec<String> = read_all(text)
        .1
        .iter()
        .map(|e| render(e, name, text))
        .collect();
    let mut stream =
        StreamReader::with_chunk(std::io::BufReader::with_capacity(5, text.as_bytes()), 3);
    let mut parts = Vec::new();
    while let Some(g) = stream.next_game() {
        if let Err(senet::notation::ReadError::Syntax(e)) = g {
            let report = miette::Report::new(e)
                .with_source_code(miette::NamedSource::new(name, stream.source()));
            let mut out = String::new();
            miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
                .with_width(100)
                .render_report(&mut out, report.as_ref())
                .unwrap();
            parts.push(out);
        }
    }
    assert_eq!(
        whole, parts,
        "{name}: diagnostics render differently from the streaming reader"
    );
}

fn assert_pest_agrees(name: &str, text: &str) {
    let (games, errors) = read_all(text);
    let pest = grammar::check(text);
    assert_eq!(
        errors.is_empty(),
        pest.is_ok(),
        "{name}: reader {} but the grammar {}:\n{text}",
        if errors.is_empty() {
            "accepts".to_string()
        } else {
            format!("rejects ({})", errors[0].message)
        },
        match &pest {
            Ok(()) => "accepts".to_string(),
            Err(e) => format!("rejects:\n{e}"),
        },
    );
    if errors.is_empty() {
        let units: usize = games.iter().map(|g| count_units(&g.nodes)).sum();
        assert_eq!(
            Some(units),
            grammar::count_units(text),
            "{name}: the grammar finds another number of units"
        );
    }
}

fn count_units(nodes: &[Node]) -> usize {
    nodes
        .iter()
        .map(|n| match n {
            Node::Unit(_) => 1,
            Node::Variation(v) => count_units(&v.nodes),
            _ => 0,
        })
        .sum()
}

#[test]
fn sgn_ok_fixtures_are_canonical() {
    let files = fixtures("ok");
    assert!(
        files.len() >= 20,
        "the shared examples are missing from tests/fixtures/sgn/ok"
    );
    for path in files {
        let name = relative(&path);
        let text = std::fs::read_to_string(&path).unwrap();
        let out = assert_round_trip(&name, &text);
        assert_eq!(out, text, "{name} is not in canonical form");
        assert_stream_agrees(&name, &text);
        assert_pest_agrees(&name, &text);
    }
}

#[test]
fn sgn_loose_fixtures() {
    settings().bind(|| {
        insta::glob!("../fixtures/sgn/ok/loose", "*.sgn", |path| {
            let name = relative(path);
            let text = std::fs::read_to_string(path).unwrap();
            let out = assert_round_trip(&name, &text);
            assert_stream_agrees(&name, &text);
            assert_pest_agrees(&name, &text);
            insta::assert_snapshot!(out);
        });
    });
}

#[test]
fn sgn_syntax_errors() {
    settings().bind(|| {
        insta::glob!("../fixtures/sgn/err-syntax", "*.sgn", |path| {
            let name = relative(path);
            let text = std::fs::read_to_string(path).unwrap();
            let (games, errors) = read_all(&text);
            assert!(!errors.is_empty(), "{name}: expected a syntax error");
            assert_stream_agrees(&name, &text);
            assert_pest_agrees(&name, &text);
            assert_stream_renders_alike(&name, &text);
            let mut out = format!("{} game(s) read, {} error(s)\n", games.len(), errors.len());
            for e in &errors {
                out.push_str(&format!("\ngame {}:\n", e.game));
                out.push_str(&render(e, &name, &text));
            }
            insta::assert_snapshot!(out);
        });
    });
}

/// Snippets around one game: `(text, accepted)`. Each runs through the
/// reader and the grammar, which must agree with each other and with the
/// expectation.
const SNIPPETS: &[(&str, bool)] = &[
    ("", true),
    ("*", true),
    ("1-0", true),
    ("[Event \"x\"]\n\n1. 3:12-15 *", true),
    (
        "1. 3:12-15 4+:9x13 2:29-off 2:25-27=15 2:25-27=Q 0:27-15 3:pass skip -- *",
        true,
    ),
    ("1... 1+:10-11 *", true),
    (
        "1. 1:hand-1 3:1-4 1:1-hand 5+:12-14:20-23 2:25-27=hand 3:29-off:10-11 *",
        true,
    ),
    ("1. 2:2x4:hand-1 3:hand-hand *", true),
    ("1. 3_0111:12-15 _0000:1-6 _0000+:1-6 4_1111+:9-13 *", true),
    (
        "1. 3:12-15! 3:12-15? 3:12-15!! 3:12-15?? 3:12-15!? 3:12-15?! $7 $255 *",
        true,
    ),
    (
        "1. 3:12-15 { a [%pos WBWBWBWBWB/10/10 w 0-0 - 1] b } *",
        true,
    ),
    (
        "1. 3:12-15 { [%src \"Piccione, \\\"Senet\\\" ]\"] [%conf low] [%rule K-9a] [%played-illegal] [%eval 0.63] [%clk 0:01] [%x] } *",
        true,
    ),
    ("1. 3:12-15 ; to the end [%conf high]\n*", true),
    (
        "1. 3:12-15 (3:12x15 (3:1-4) 1... 2:3-5) ( { label } 2. 3:1-4 ) *",
        true,
    ),
    ("\u{feff}[Event \"x\"]\r\n\r\n1. 3:12-15\r\n*\r\n", true),
    (
        "%escape\n[Event \"x\"]\n%mid\n1. 3:12-15\n%x\n*\n%end",
        true,
    ),
    ("{ game } 1.2:9-11{c}(2:7-9)$1 *", true),
    ("[Event \"é\"] { é } *", true),
    ("[ Event  \"a\\\\b\" ] *", true),
    ("1. 3:12-15 * [Event \"2\"] 1. 2:1-3 0-1", true),
    // the draw, an extension of SGN 1 (as in PGN)
    ("1/2-1/2", true),
    ("[Result \"1/2-1/2\"]\n\n1. 3:12-15\n1/2-1/2\n", true),
    ("1. 3:12-15 {c}1/2-1/2", true),
    ("1. 3:12-15 1/2-1/2 [Event \"2\"] 1. 2:1-3 1/2-1/2", true),
    (
        "1. 3:12-15 1/2-1/2\r\n\r\n[Event \"2\"]\r\n\r\n1. 2:1-3 *\r\n",
        true,
    ),
    // rejected
    ("1. 3:12-15", false),
    ("[Event \"x\"]", false),
    ("1. 3-12-15 *", false),
    ("1. 3:12-15x *", false),
    ("1. 3:12- *", false),
    ("1. 0:pass *", false),
    ("1. 0+:27-15 *", false),
    ("1. 05:1-6 *", false),
    ("1. 123:1-2 *", false),
    ("1. 3:0-3 *", false),
    ("1. 3:123-4 *", false),
    ("1. 3:29-off=15 *", false),
    ("1. 3:25-27=q *", false),
    ("1. _:1-2 *", false),
    ("1. 3:12-153:15-18 *", false),
    ("1. 5:12-14:20-23:1-2 *", false),
    ("1. 5:12-14: *", false),
    ("1. 0:12-14:20-23 *", false),
    ("1. 1:han-1 *", false),
    ("1. 1:hand1 *", false),
    ("1. 3:25-27=hands *", false),
    ("1. 3:29-hand=15 *", false),
    ("1. 5:12-14:pass *", false),
    ("1. 3:12-15!!! *", false),
    ("1. skipped *", false),
    ("1. --- *", false),
    // Turn numbers the reader's fast path takes (one to three digits, blank
    // after) and those it leaves to the general path.
    ("12. 3:1-4 12... 2:5-7 *", true),
    ("123... 3:1-4 *", true),
    ("1234. 3:1-4 *", true),
    ("1.3:1-4 2.\t3:4-7\n3...\n2:1-3 *", true),
    ("99...3:1-4 *", true),
    ("012. 3:1-4 *", false),
    ("10.. 3:1-4 *", false),
    ("0. 3:1-4 *", false),
    ("1.. 3:1-4 *", false),
    ("1.... 3:1-4 *", false),
    ("$1 1. 3:1-4 *", false),
    ("1. $1 3:1-4 *", false),
    ("1. 3:1-4 $1234 *", false),
    ("1. (3:1-4) *", false),
    ("1. 3:1-4 () *", false),
    ("1. 3:1-4 ({ c }) *", false),
    ("1. 3:1-4 (2:1-3 *", false),
    ("1. 3:1-4 ) *", false),
    ("1. 3:1-4 { open *", false),
    ("1. 3:1-4 { [%pos] } *", false),
    ("1. 3:1-4 { [%pos x } *", false),
    ("1. 3:1-4 { [%conf maybe] } *", false),
    ("1. 3:1-4 { [%rule 9] } *", false),
    ("1. 3:1-4 { [%eval .5] } *", false),
    ("1. 3:1-4 { [%played-illegal yes] } *", false),
    ("1. 3:1-4 { [% pos x] } *", false),
    ("1. 3:1-4 { [%src \"open] } *", false),
    ("[Event x] *", false),
    ("[Event \"a\\n\"] *", false),
    ("[Event \"open\n\"] *", false),
    ("[Event\"x\"] *", false),
    ("[Event \"x\" *", false),
    ("1. 3:1-4 [Event \"x\"] *", false),
    ("1. 3:1-4 é *", false),
    ("1. 3:1-4 % not an escape\n*", false),
    ("1. 3:1-4 1-0x", false),
    ("1. 3:1-4 *x", false),
    ("1. 3:1-4 # *", false),
    ("1. 3:1-4 1/2-1/2x", false),
    ("1. 3:1-4 1/2-1/2(", false),
    ("1. 3:1-4 1/2-1/", false),
    ("1. 3:1-4 1/2", false),
    ("1. 3:1-4 1/2 *", false),
    ("1. 3:1-4 ½-½", false),
    ("1. 3:1-4 (2:1-3 1/2-1/2", false),
    ("1. 3:1-4 1/2-1/2 1. 2:1-3", false),
];

#[test]
fn sgn_reader_and_grammar_agree_on_snippets() {
    for (i, (text, accepted)) in SNIPPETS.iter().enumerate() {
        let name = format!("snippet {i}");
        let (_, errors) = read_all(text);
        assert_eq!(
            errors.is_empty(),
            *accepted,
            "{name} {text:?}: the reader {}",
            if errors.is_empty() {
                "accepts it".to_string()
            } else {
                format!("rejects it: {}", errors[0].message)
            }
        );
        assert_pest_agrees(&name, text);
        assert_stream_agrees(&name, text);
        if *accepted {
            assert_round_trip(&name, text);
        }
    }
}

/// Small random edits of the example records (fixed seed): whatever the
/// reader makes of them, the grammar makes the same, and what reads also
/// round-trips.
#[test]
fn sgn_reader_and_grammar_agree_on_mutations() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(20260101);
    const PIECES: &[&str] = &[
        " ", "\n", "\r\n", "-", "x", ":", "+", "=", "Q", "off", "pass", "skip", "--", "0", "1",
        "9", "_", "{", "}", "(", ")", "[", "]", "\"", "\\", ";", "%", "$", "!", "?", ".", "...",
        "*", "1-0", "[%pos ", "é", "1/2-1/2",
    ];
    let files = fixtures("ok");
    let mut accepted = 0;
    for round in 0..600 {
        let text = std::fs::read_to_string(&files[round % files.len()]).unwrap();
        // A window of the file keeps the grammar's run short.
        let lines: Vec<&str> = text.lines().collect();
        let a = rng.random_range(0..lines.len());
        let b = (a + rng.random_range(1..12)).min(lines.len());
        let mut s: String = lines[..10.min(lines.len())].join("\n")
            + "\n\n"
            + &lines[a.max(10)..b.max(10)].join("\n")
            + "\n*\n";
        for _ in 0..rng.random_range(1..4) {
            let mut at = rng.random_range(0..=s.len());
            while !s.is_char_boundary(at) {
                at -= 1;
            }
            match rng.random_range(0..3) {
                0 => s.insert_str(at, PIECES[rng.random_range(0..PIECES.len())]),
                1 => {
                    let mut e = (at + rng.random_range(1..4)).min(s.len());
                    while !s.is_char_boundary(e) {
                        e += 1;
                    }
                    s.replace_range(at..e, "");
                }
                _ => {
                    let mut e = (at + 1).min(s.len());
                    while !s.is_char_boundary(e) {
                        e += 1;
                    }
                    s.replace_range(at..e, PIECES[rng.random_range(0..PIECES.len())]);
                }
            }
        }
        let name = format!("mutation {round}");
        assert_pest_agrees(&name, &s);
        assert_stream_agrees(&name, &s);
        if read_all(&s).1.is_empty() {
            accepted += 1;
            assert_round_trip(&name, &s);
        }
    }
    assert!(
        accepted > 50 && accepted < 550,
        "mutations should both break and keep records: {accepted} of 600 read"
    );
}

/// A broken game does not hide the games after it.
#[test]
fn sgn_reader_recovers_after_an_error() {
    let text = "[Event \"1\"]\n\n1. 3:1-4\n*\n\n[Event \"2\"]\n\n1. 3:1-\n2. 3:1-4\n*\n\n[Event \"3\"]\n\n1. 2:1-3\n1-0\n\n\
                [Event \"4\"]\n\n1. 2:1-3\n\n[Event \"5\"]\n\n1. 2:1-3 0-1\n\
                [Event \"6\"]\n\n1. 2:1-\n1/2-1/2\n[Event \"7\"]\n\n1. 2:1-3 1/2-1/2\n";
    let got: Vec<Result<Game, SyntaxError>> = Reader::new(text).collect();
    let summary: Vec<String> = got
        .iter()
        .map(|g| match g {
            Ok(g) => format!("{} ok {}", g.index, g.tag("Event").unwrap()),
            Err(e) => format!("{} err", e.game),
        })
        .collect();
    assert_eq!(
        summary,
        [
            "1 ok 1", "2 err", "3 ok 3", "4 err", "5 ok 5", "6 err", "7 ok 7"
        ]
    );
    assert_stream_agrees("recovery", text);
}

/// What the tree holds for each unit form.
#[test]
fn sgn_unit_forms() {
    let text = "1. 3:12-15 4+:9x13 2:29-off 2:25-27=15 5+:25-27=Q 0:27-15 3:pass skip -- 3_0111:1-4 _0000+:1-6 2:14-12?! *";
    let (games, errors) = read_all(text);
    assert!(errors.is_empty());
    let units: Vec<UnitSyntax> = games[0].main_line_units().copied().collect();
    let sq = Target::Square;
    let mv = |from, sep, to, reloc| UnitBody::Move {
        from,
        sep,
        to,
        reloc,
        split: None,
    };
    let expect = [
        (Some(3), None, false, mv(12, MoveSep::Dash, sq(15), None)),
        (Some(4), None, true, mv(9, MoveSep::Cross, sq(13), None)),
        (
            Some(2),
            None,
            false,
            mv(29, MoveSep::Dash, Target::Off, None),
        ),
        (
            Some(2),
            None,
            false,
            mv(25, MoveSep::Dash, sq(27), Some(Reloc::Square(15))),
        ),
        (
            Some(5),
            None,
            true,
            mv(25, MoveSep::Dash, sq(27), Some(Reloc::Queue)),
        ),
        (Some(0), None, false, mv(27, MoveSep::Dash, sq(15), None)),
        (Some(3), None, false, UnitBody::Pass),
        (None, None, false, UnitBody::Skip),
        (None, None, false, UnitBody::Gap),
        (
            Some(3),
            Faces::new(&[false, true, true, true]),
            false,
            mv(1, MoveSep::Dash, sq(4), None),
        ),
        (
            None,
            Faces::new(&[false; 4]),
            true,
            mv(1, MoveSep::Dash, sq(6), None),
        ),
        (Some(2), None, false, mv(14, MoveSep::Dash, sq(12), None)),
    ];
    assert_eq!(units.len(), expect.len());
    for (u, (throw, faces, plus, body)) in units.iter().zip(expect) {
        assert_eq!(
            (u.throw, u.faces, u.plus, u.body),
            (throw, faces, plus, body),
            "{}",
            u.span.text(text)
        );
        assert_eq!(u.to_string(), u.span.text(text));
    }
    assert!(matches!(
        games[0].nodes.last(),
        Some(Node::Nag { n: 6, .. })
    ));

    // Followed by a space, common units take the reader's direct path;
    // followed by `{`, the general one. Both read the same.
    for u in [
        "3:12-15", "4+:9x13", "2:29-off", "1+:1x2", "9:99-98", "2:2xoff",
    ] {
        let spaced = read_all(&format!("{u} *")).0;
        let braced = read_all(&format!("{u}{{}}*")).0;
        let (Node::Unit(a), Node::Unit(b)) = (&spaced[0].nodes[0], &braced[0].nodes[0]) else {
            panic!("{u}")
        };
        assert_eq!(a, b, "{u}");
        assert_eq!(a.to_string(), u);
    }
}

/// Tags, comments, commands and their spans.
#[test]
fn sgn_tags_comments_commands() {
    let text = "[Event \"a \\\"b\\\" c\"]\n{ intro }\n1. 3:12-15 { [%pos WBWBWBWBWB/10/10 w 0-0 - 1] [%conf high] [%eval 0.5] [%src \"x\"] [%rule K-9a] [%played-illegal] [%foo  bar ] }\n*\n";
    let (games, errors) = read_all(text);
    assert!(errors.is_empty());
    let g = &games[0];
    assert_eq!(g.tag("Event"), Some("a \"b\" c"));
    assert_eq!(g.tags[0].value_span.text(text), "a \\\"b\\\" c");
    assert_eq!(g.tags[0].name_span.text(text), "Event");
    assert_eq!(g.intro[0].text, "intro");
    let Node::Comment(c) = &g.nodes[2] else {
        panic!("{:?}", g.nodes[2])
    };
    let (pos, span) = c.pos().unwrap();
    assert_eq!(pos, "WBWBWBWBWB/10/10 w 0-0 - 1");
    assert_eq!(span.text(text), pos);
    let kinds: Vec<&CommandKind> = c.commands.iter().map(|c| &c.kind).collect();
    assert_eq!(
        kinds,
        [
            &CommandKind::Pos,
            &CommandKind::Conf(Confidence::High),
            &CommandKind::Eval(0.5),
            &CommandKind::Src("x".into()),
            &CommandKind::Rule,
            &CommandKind::PlayedIllegal,
            &CommandKind::Other
        ]
    );
    assert_eq!(c.commands[4].args, "K-9a");
    assert_eq!(c.commands[6].name, "foo");
    assert_eq!(c.commands[6].args, "bar");
    assert_eq!(c.commands[6].span.text(text), "[%foo  bar ]");
    assert_eq!(g.result, ResultToken::Unknown);
    assert_eq!(g.result_span.text(text), "*");
    assert_eq!(g.span.text(text), text.trim_end());
}

/// `senet fmt`: exit codes, `--check`, `--stdout`, rewriting in place.
#[test]
fn sgn_fmt_command() {
    let bin = env!("CARGO_BIN_EXE_senet");
    let dir = std::env::temp_dir().join(format!("senet-fmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sgn");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(bin)
            .arg("fmt")
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let canonical = root.join("ok/kendall-0001.sgn");
    let loose = dir.join("loose.sgn");
    std::fs::copy(root.join("ok/loose/forms.sgn"), &loose).unwrap();
    let before = std::fs::read_to_string(&loose).unwrap();

    let (code, out, _) = run(&["--check", canonical.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (0, ""));
    let (code, out, _) = run(&[
        "--check",
        canonical.to_str().unwrap(),
        loose.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(
        out.contains("loose.sgn") && !out.contains("kendall"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(&loose).unwrap(),
        before,
        "--check changes nothing"
    );

    let (code, printed, _) = run(&["--stdout", loose.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(
        std::fs::read_to_string(&loose).unwrap(),
        before,
        "--stdout changes nothing"
    );
    let (code, _, _) = run(&[loose.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(
        std::fs::read_to_string(&loose).unwrap(),
        printed,
        "rewritten in place"
    );
    let (code, _, _) = run(&["--check", loose.to_str().unwrap()]);
    assert_eq!(code, 0);

    let broken = root.join("err-syntax/several-games.sgn");
    let (code, out, err) = run(&["--stdout", broken.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.contains("senet::sgn::syntax") && err.contains("several-games.sgn:8:8"),
        "{err}"
    );

    let (code, _, err) = run(&[dir.join("missing.sgn").to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// [`StreamReader::source`] gives each game's own text with its place in
/// the file, whatever the chunk size.
#[test]
fn sgn_stream_sources() {
    let text: String = fixtures("ok")
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap() + "\n")
        .collect();
    for chunk in [1, 100, 1 << 16] {
        let mut r = StreamReader::with_chunk(
            std::io::BufReader::with_capacity(64, text.as_bytes()),
            chunk,
        );
        let mut n = 0;
        while let Some(g) = r.next_game() {
            let g = g.unwrap();
            let src = r.source();
            assert_eq!(
                &text[src.offset..src.offset + src.text.len()],
                src.text,
                "chunk {chunk}"
            );
            assert_eq!(
                src.line,
                text[..src.offset].matches('\n').count(),
                "chunk {chunk}"
            );
            assert!(src.offset <= g.span.start && g.span.end <= src.offset + src.text.len());
            n += 1;
        }
        assert_eq!(n, 20);
    }
}
