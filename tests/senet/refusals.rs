//! The explanation of an illegal written move is about that move: for every
//! built-in rule set and each of its options, positions from random games
//! (fixed seed), every throw, and every move written from a piece of the
//! side to move to any square, forward and backward, or off the board. A
//! move that is not legal must be explained in words that name its
//! from-square or the square it was written to (or, for a bear-off, the
//! bearing off), never by the refusal of another move of the same piece.

use senet::engine::{Forbid, Position, Ruleset, Side, Unit, UnitKind};
use senet::notation::replay::{Code, Replayer, refusal_reason};
use senet::notation::syntax::{
    Game, MoveSep, Node, ResultToken, Span, Target, UnitBody, UnitSyntax,
};
use senet::simulate::{self, Player, RunConfig};

/// Positions taken from each rule set's random games.
const GAMES: u64 = 3;
/// One position in this many of a game's units is tried (fewer in an
/// unoptimised build, where each explanation costs more).
const EVERY: usize = if cfg!(debug_assertions) { 50 } else { 18 };

/// The rule sets to try: each built-in alone and with each option; an
/// option that needs another is tried with the first one that lets it load.
fn configurations() -> Vec<(String, Ruleset)> {
    let mut out = Vec::new();
    for name in senet::rules::builtin_names() {
        let base = senet::rules::load(name, None, &[]).unwrap();
        let options: Vec<String> = base.meta().options.iter().map(|(o, _)| o.clone()).collect();
        out.push((name.to_string(), base));
        for o in &options {
            let alone = vec![o.clone()];
            let loaded = senet::rules::load(name, None, &alone)
                .ok()
                .map(|r| (alone, r))
                .or_else(|| {
                    options.iter().filter(|x| *x != o).find_map(|x| {
                        let pair = vec![x.clone(), o.clone()];
                        senet::rules::load(name, None, &pair)
                            .ok()
                            .map(|r| (pair, r))
                    })
                });
            if let Some((chosen, r)) = loaded {
                out.push((format!("{name} --option {}", chosen.join(" --option ")), r));
            }
        }
    }
    out
}

/// Positions along random games of `rules`.
fn positions(rules: &Ruleset) -> Vec<Position> {
    let config = RunConfig {
        players: [Player::Random; 2],
        games: GAMES,
        seed: 13,
        threads: 1,
        max_units: 400,
        keep_units: true,
    };
    let mut out = Vec::new();
    for g in simulate::run(rules, &config, &|_| {}) {
        let mut pos = Position::start(rules, g.first);
        for (n, (_, _, u)) in g.units.iter().enumerate() {
            if n % EVERY == 0 {
                out.push(pos);
            }
            pos = rules.play(&pos, u).unwrap().0;
        }
    }
    out
}

/// A one-unit game from `pos`: the turn number and `throw:from-to`.
fn one_unit(pos: &Position, throw: u8, from: u8, to: Target) -> Game {
    let unit = UnitSyntax {
        span: Span::new(0, 0),
        throw: Some(throw),
        faces: None,
        plus: false,
        body: UnitBody::Move {
            from,
            sep: MoveSep::Dash,
            to,
            reloc: None,
            split: None,
        },
    };
    Game {
        index: 1,
        leading: Vec::new(),
        tags: Vec::new(),
        intro: Vec::new(),
        nodes: vec![
            Node::TurnNumber {
                number: pos.turn,
                black: pos.to_move == Side::Black,
                span: Span::new(0, 0),
            },
            Node::Unit(unit),
        ],
        result: ResultToken::Unknown,
        result_span: Span::new(0, 0),
        span: Span::new(0, 0),
    }
}

/// Whether a generated unit is the plain move `from-to`.
fn is_written(g: &Unit, from: u8, to: Target) -> bool {
    g.kind == UnitKind::Move
        && g.split.is_none()
        && g.from == from
        && match to {
            Target::Off => g.off,
            Target::Square(s) => !g.off && g.to == s,
            Target::Hand => false,
        }
}

/// The square numbers a sentence names, past the unit quoted at its start.
fn numbers(message: &str) -> Vec<u8> {
    let words = message.rsplit("` is illegal: ").next().unwrap_or(message);
    words
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect()
}

/// Why an explanation is not about the written move `from`-`to`, if it is
/// not: it names where another move of the same piece goes (and not the
/// square written), or it is word for word what refuses that piece's move
/// the other way.
fn not_about_it(
    message: &str,
    from: u8,
    to_sq: u8,
    off: bool,
    elsewhere: &[u8],
    other_way: &[String],
) -> Option<String> {
    let named = numbers(message);
    let names_target = named.contains(&to_sq) || (off && message.contains("off"));
    if let Some(s) = elsewhere.iter().find(|s| named.contains(s))
        && !names_target
    {
        return Some(format!(
            "names square {s}, where another move of the piece on {from} goes"
        ));
    }
    other_way
        .iter()
        .find(|w| message.ends_with(w.as_str()))
        .map(|w| format!("explained by the move the other way: {w}"))
}

/// Whether a refusal's sentence is about the square the move goes to or
/// over, rather than about the piece or its square.
fn about_target(f: Forbid) -> bool {
    matches!(
        f,
        Forbid::OwnPiece
            | Forbid::Occupied
            | Forbid::Protected
            | Forbid::Blockade(_)
            | Forbid::Gate(_)
            | Forbid::BeyondEnd
            | Forbid::RelocationBlocked
            | Forbid::BackwardOntoPiece
    )
}

#[test]
fn an_illegal_move_is_explained_by_what_forbids_it() {
    let mut wrong: Vec<String> = Vec::new();
    let mut explained = 0usize;
    let mut legal: Vec<Unit> = Vec::new();
    for (name, rules) in configurations() {
        let len = rules.board().len;
        let throws = rules.throws().distinct_values();
        for pos in positions(&rules) {
            for &t in throws.iter().filter(|&&t| t > 0) {
                rules.legal_units(&pos, t, &mut legal);
                let refusals = rules.refusals(&pos, t);
                for from in pos.pieces[pos.to_move.index()].iter() {
                    let targets = (1..=len)
                        .filter(|&s| s != from)
                        .map(Target::Square)
                        .chain([Target::Off]);
                    for to in targets {
                        if legal.iter().any(|g| is_written(g, from, to)) {
                            continue;
                        }
                        let game = one_unit(&pos, t, from, to);
                        let replayed = Replayer::new(&rules, 4).replay(&game, pos);
                        let Some(f) = replayed.findings.iter().find(|f| {
                            !matches!(f.code, Code::TurnNumber | Code::TurnNumberMissing)
                        }) else {
                            wrong.push(format!(
                                "{name}: {t}:{from}-{to:?} at {}: no finding",
                                pos.write(len, rules.board().row_len)
                            ));
                            continue;
                        };
                        explained += 1;
                        let to_sq = match to {
                            Target::Square(s) => s,
                            _ => len + 1,
                        };
                        let backward = to_sq < from;
                        let mine = refusals.iter().filter(|r| r.from == from);
                        let elsewhere: Vec<u8> = mine
                            .clone()
                            .filter(|r| about_target(r.forbid))
                            .map(|r| r.to)
                            .chain(
                                legal
                                    .iter()
                                    .filter(|g| g.from == from)
                                    .map(|g| if g.off { len + 1 } else { g.to }),
                            )
                            .filter(|&s| s != from && s != to_sq && s != 0)
                            .collect();
                        let other_way: Vec<String> = mine
                            .clone()
                            .filter(|r| r.to != r.from && (r.to < r.from) != backward)
                            .filter(|r| about_target(r.forbid))
                            .map(|r| refusal_reason(&rules, &pos, r, t))
                            .collect();
                        if let Some(why) = not_about_it(
                            &f.message,
                            from,
                            to_sq,
                            to == Target::Off,
                            &elsewhere,
                            &other_way,
                        ) {
                            wrong.push(format!(
                                "{name}: `{}` at {}: {} ({why})",
                                f.unit.as_deref().unwrap_or("?"),
                                pos.write(len, rules.board().row_len),
                                f.message
                            ));
                        }
                        // What `moves --why` says of this very move, where the
                        // piece has no legal move: the same sentence.
                        let listed = refusals.iter().find(|r| r.from == from && r.to == to_sq);
                        if let Some(r) = listed
                            && !legal.iter().any(|g| g.from == from)
                        {
                            let why = refusal_reason(&rules, &pos, r, t);
                            if !f.message.contains(&why) {
                                wrong.push(format!(
                                    "{name}: `{}` at {}: {} (moves --why: {why})",
                                    f.unit.as_deref().unwrap_or("?"),
                                    pos.write(len, rules.board().row_len),
                                    f.message
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(explained > 20_000, "only {explained} illegal moves tried");
    eprintln!("{explained} illegal moves explained");
    wrong.sort();
    wrong.dedup();
    // One example of each shape of message (numbers aside).
    let mut shapes = std::collections::BTreeSet::new();
    wrong.retain(|w| {
        let tail = w.split(": ").skip(2).collect::<Vec<_>>().join(": ");
        shapes.insert(tail.replace(|c: char| c.is_ascii_digit(), ""))
    });
    assert!(
        wrong.is_empty(),
        "{} explanations that do not name the written move, e.g.:\n{}",
        wrong.len(),
        wrong
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
