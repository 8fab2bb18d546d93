//! Every rule in words, for `senet rules show`: one sentence per merged
//! declaration, with its clause; rules of single squares that say the
//! same thing are grouped.

use super::*;

struct Namer<'a> {
    houses: &'a [House],
}

impl Namer<'_> {
    fn sq(&self, s: u8) -> String {
        match self.houses.iter().find(|h| h.square == s) {
            Some(h) => format!("square {s} ({})", h.name),
            None => format!("square {s}"),
        }
    }
    fn set(&self, set: SquareSet) -> String {
        let v: Vec<u8> = set.iter().collect();
        ranges(&v)
    }
    fn reloc(&self, r: Relocation) -> String {
        r.sentence(&|s| self.sq(s))
    }
}

/// `1..10` style text for a sorted list of squares or numbers.
pub fn ranges(v: &[u8]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            parts.push(format!("{}..{}", v[i], v[j]));
        } else {
            for x in &v[i..=j] {
                parts.push(x.to_string());
            }
        }
        i = j + 1;
    }
    parts.join(", ")
}

pub(super) fn list(v: &[u8]) -> String {
    match v {
        [] => "none".into(),
        [one] => one.to_string(),
        [init @ .., last] => format!(
            "{} or {}",
            init.iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            last
        ),
    }
}

fn throws_text(ts: &Throwset, all: u32) -> String {
    match ts {
        None => "any throw".into(),
        Some(v) if bits(v) == all => "any throw".into(),
        Some(v) => format!("a throw of {}", list(v)),
    }
}

fn exit_text(ts: &Throwset, all: u32) -> String {
    match throws_text(ts, all).as_str() {
        "any throw" => "a piece here bears off with any throw".into(),
        t => format!("a piece here bears off only with {t}"),
    }
}

fn pred_text(p: &Pred, n: &Namer) -> String {
    match p {
        Pred::RunLength { lengths, .. } => {
            let ls: Vec<u8> = (0..64u8).filter(|i| lengths & (1u64 << i) != 0).collect();
            if ls.len() > 1 && ls.windows(2).all(|w| w[1] == w[0] + 1) && *ls.last().unwrap() == 63
            {
                format!("it is in a run of {} or more", ls[0])
            } else {
                format!("it is in a run of {}", list(&ls))
            }
        }
        Pred::Middle { .. } => "it is the middle piece of its run".into(),
        Pred::OnSquare { squares, .. } => format!("it stands on {}", n.set(*squares)),
        Pred::Taken { squares, .. } => format!("a piece stands on {}", n.set(*squares)),
        Pred::OwnerOn { squares, .. } => {
            format!("its owner has a piece on {}", n.set(*squares))
        }
        Pred::OwnerSkips { .. } => "its owner is to miss their next turn".into(),
        Pred::And(ps) => ps
            .iter()
            .map(|q| paren(q, n))
            .collect::<Vec<_>>()
            .join(" and "),
        Pred::Or(ps) => ps
            .iter()
            .map(|q| paren(q, n))
            .collect::<Vec<_>>()
            .join(" or "),
        Pred::Not(q) => match &**q {
            Pred::Middle { .. } => "it is not the middle piece of its run".into(),
            q => format!("not ({})", pred_text(q, n)),
        },
    }
}

/// The distinct clauses cited inside a predicate, in order.
fn pred_clauses(p: &Pred) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |c: &String| {
        for part in c.split(", ").filter(|s| !s.is_empty()) {
            if !out.iter().any(|o| o == part) {
                out.push(part.to_string());
            }
        }
    };
    match p {
        Pred::RunLength { clause, .. }
        | Pred::Middle { clause }
        | Pred::OnSquare { clause, .. }
        | Pred::Taken { clause, .. }
        | Pred::OwnerOn { clause, .. }
        | Pred::OwnerSkips { clause } => add(clause),
        Pred::And(ps) | Pred::Or(ps) => {
            for q in ps {
                for c in pred_clauses(q) {
                    add(&c);
                }
            }
        }
        Pred::Not(q) => {
            for c in pred_clauses(q) {
                add(&c);
            }
        }
    }
    out
}

fn paren(p: &Pred, n: &Namer) -> String {
    match p {
        Pred::And(_) | Pred::Or(_) => format!("({})", pred_text(p, n)),
        _ => pred_text(p, n),
    }
}

pub(super) fn explain(
    map: &BTreeMap<Key, Item>,
    houses: &[House],
    all_throws: u32,
) -> Vec<(String, Clause)> {
    let n = Namer { houses };
    let mut out: Vec<(String, Clause)> = Vec::new();
    // Square declarations are grouped when consecutive keys of one kind say
    // the same thing with the same clause.
    let mut group: Option<(SquareKind, String, Clause, Vec<u8>)> = None;
    let flush = |group: &mut Option<(SquareKind, String, Clause, Vec<u8>)>,
                 out: &mut Vec<(String, Clause)>| {
        if let Some((_, text, clause, squares)) = group.take() {
            let subject = if squares.len() == 1 {
                let s = n.sq(squares[0]);
                let mut c = s.chars();
                c.next()
                    .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                    .unwrap_or_default()
            } else {
                format!("Squares {}", ranges(&squares))
            };
            out.push((format!("{subject}: {text}."), clause));
        }
    };
    for (k, i) in map {
        let c = match &i.setting {
            Setting::Protect(Some(p)) if i.clause.is_empty() => pred_clauses(p).join(", "),
            _ => i.clause.clone(),
        };
        if let Key::Square(kind, s) = *k {
            let text = match &i.setting {
                Setting::Landing(r, fb) => {
                    let mut t = format!("a piece that lands here {}", n.reloc(*r));
                    if let (Relocation::To(_), Some(f)) = (r, fb) {
                        t += &format!("; if that square is taken, it {}", n.reloc(*f));
                    } else if let Relocation::To(_) = r {
                        t += "; if that square is taken, the move is not allowed";
                    }
                    t
                }
                Setting::Exit(ts) => exit_text(ts, all_throws),
                Setting::Target(t) if kind == SquareKind::HitSends => format!("an opposing piece moved onto here is not swapped: it goes to {}", n.sq(*t)),
                Setting::Target(t) if kind == SquareKind::Overshoot => format!("a forward move that would pass it ends on {} instead", n.sq(*t)),
                Setting::Target(t) => format!("when a move targets a protected opposing piece here and the mover has no other forward move, the mover goes to {} instead", n.sq(*t)),
                Setting::Lock(l) => {
                    let mut parts = vec!["while a player has a piece here, none of their other pieces may move".to_string()];
                    if let Some((s, fb)) = l.release {
                        let mut t = format!(
                            "at each unit they may move it to {} without a throw, which ends the turn{}",
                            n.sq(s),
                            if l.release_misses_turn { " and makes them miss their next turn" } else { "" }
                        );
                        match fb {
                            None => t += " (not when that square is taken)",
                            Some(r) => t += &format!("; if that square is taken the piece {}", n.reloc(r)),
                        }
                        parts.push(t);
                    }
                    parts.push(format!("or throw: {} bears it off", throws_text(&l.exit, all_throws)));
                    if !l.exit_gives_extra {
                        parts.push("and that throw gives no further throw".into());
                    }
                    let other = match l.otherwise {
                        Relocation::Stay => "any other throw leaves it here".to_string(),
                        r => format!("on any other throw it {}", n.reloc(r)),
                    };
                    parts.push(format!("{other}{}", if l.fail_ends_turn { " and ends the turn" } else { "; the turn goes on as the throw allows" }));
                    parts.join("; ")
                }
                _ => match kind {
                    SquareKind::Gate => "no move may pass it; a piece must land on it exactly before going further".into(),
                    SquareKind::Truncate => "a move that would pass it stops on it".into(),
                    SquareKind::Immobile => "a piece here never moves along the track; it may only bear off".into(),
                    SquareKind::Priority => "while a piece here can move, the player must move one of the pieces on such squares".into(),
                    SquareKind::ExitFromTurnStart => "a piece here bears off only if it stood here when the turn began".into(),
                    SquareKind::ExitNoExtra => "the throw that bears the locked piece off gives no further throw".into(),
                    SquareKind::BoundExtra => "a piece that moves here earns one extra throw, which must be used by that piece".into(),
                    SquareKind::MissTurn => "a piece that moves here makes its owner miss their next turn".into(),
                    SquareKind::ExtraThrow => "a piece that lands here gives its owner another throw, taken once the current throw is used".into(),
                    SquareKind::NoBackward => "a piece here never moves backward".into(),
                    SquareKind::StuckToHand => "when a throw gives its owner no legal move, the piece here goes back to the hand and the turn ends".into(),
                    _ => String::new(),
                },
            };
            if let Some((gk, gt, gc, gs)) = &mut group
                && *gk == kind
                && *gt == text
                && *gc == c
            {
                gs.push(s);
                continue;
            }
            flush(&mut group, &mut out);
            group = Some((kind, text, c, vec![s]));
            continue;
        }
        flush(&mut group, &mut out);
        let text = match (k, &i.setting) {
            // The header is provenance, not a rule: `Meta` carries it.
            (Key::Title | Key::Source | Key::Status, _) => continue,
            (Key::Goal, Setting::Goal(Goal::MostBorneOff)) => "The game ends when neither side has a piece in play; the side that bore off more pieces wins, and equal counts are a draw.".into(),
            (Key::Goal, _) => "The first player to bear off all their pieces wins.".into(),
            (Key::Guard, _) => "A piece on one of its side's starting squares may move only when the square in front of it is empty.".into(),
            (Key::StartThrow, Setting::Values(v)) => format!("A side whose pieces all still stand on their starting squares moves only with a throw of {}; any other throw is passed.", list(v)),
            (Key::BearOffVoluntary, _) => "Bearing off is never compulsory: when every legal move bears off, the player may pass instead.".into(),
            (Key::Board, Setting::Board { len, row_len }) => format!(
                "The board has {len} squares in {} rows of {row_len}; the track runs boustrophedon (row 1 left to right, row 2 right to left, ...), and bearing off is step {}.",
                len.div_ceil(*row_len),
                len + 1
            ),
            (Key::House(s), Setting::House { name, glyph, .. }) => match glyph {
                Some(g) => format!("Square {s}: {name} ({g})."),
                None => format!("Square {s}: {name}."),
            },
            (Key::Pieces, Setting::Count(p)) => format!("Each side has {p} pieces."),
            (Key::Setup(side), Setting::Squares(s)) if s.is_empty() => format!("{} starts with every piece in hand.", side.name()),
            (Key::Setup(side), Setting::Squares(s)) => format!("{} starts on squares {}.", side.name(), n.set(*s)),
            (Key::Enter, Setting::Enter { square, throws, bound }) => format!(
                "A throw of {} (whole, never a part of a split throw) may enter a piece from the hand onto {} when it is empty{}.",
                list(throws),
                n.sq(*square),
                if *bound { "; entering gives another throw, which must move the entered piece (alone, or as one part of a split)" } else { "" }
            ),
            (Key::Split, _) => "A throw may be split in two parts, each moving a different piece forward by its part; the second part moves on the board the first left.".into(),
            (Key::OneDirection, _) => "All the moves of a turn go in one direction: after a forward move the turn's later throws move forward only (or are passed), after a backward move backward only.".into(),
            (Key::Starter, Setting::Starter(Some(s))) => format!("{} moves first.", s.name()),
            (Key::Starter, _) => "Who moves first is decided by lot; the game record names the first player.".into(),
            (Key::Opening(side), Setting::Opening { throw, from, lapse }) => {
                let mut t = format!("{}'s first unit", side.name());
                if let Some(v) = throw {
                    t += &format!(" must be a throw of {v}");
                }
                if let Some(f) = from {
                    t += &format!("{} the piece on {}", if throw.is_some() { " moving" } else { " must move" }, n.sq(*f));
                }
                t += match lapse {
                    Lapse::AnyMove => "; if that is impossible, the constraint lapses and any legal unit may be played.",
                    Lapse::Pass => "; if that is impossible, the unit is a pass.",
                };
                t
            }
            (Key::Throws, Setting::Throws { values, die: true, .. }) => format!(
                "A throw uses one die of {} faces, each equally likely: {}.",
                values.len(),
                values.iter().map(u8::to_string).collect::<Vec<_>>().join(", ")
            ),
            (Key::Throws, Setting::Throws { sticks, values, .. }) => format!(
                "A throw uses {sticks} sticks; by the number of marked sides up: {}.",
                values.iter().enumerate().map(|(k, v)| format!("{k} gives {v}")).collect::<Vec<_>>().join(", ")
            ),
            (Key::Extra, Setting::Values(v)) if v.is_empty() => "No throw gives another throw.".into(),
            (Key::Extra, Setting::Values(v)) => format!("A throw of {} gives another throw.", list(v)),
            (Key::Backward, Setting::Backward(Backward::Never)) => "Pieces move forward only.".into(),
            (Key::Backward, Setting::Backward(Backward::OneSquareWhenNoForward)) => "When no forward move exists, a piece must move backward one square, whatever the throw (same landing rules).".into(),
            (Key::Backward, Setting::Backward(Backward::ToEmptyWhenNoForward)) => "When no forward move exists, a piece must move backward by the throw, onto an empty square only.".into(),
            (Key::Backward, _) => "When no forward move exists, a piece must move backward by the throw (same landing rules).".into(),
            (Key::Compulsory, _) => "A forward move is compulsory when one exists.".into(),
            (Key::Pass, Setting::Bool(true)) => "A player may pass voluntarily at any unit.".into(),
            (Key::Pass, _) => "A player may pass only when no move is legal.".into(),
            (Key::OwnPiece, _) => "A piece may not land on a piece of its own colour.".into(),
            (Key::Opposing, Setting::Hit(Hit::LowestEmpty)) => "A piece that lands on an opposing piece sends it to the lowest-numbered empty square.".into(),
            (Key::Opposing, Setting::Hit(Hit::Forbidden)) => "No move may land on an opposing piece: no two pieces share a square and nothing is hit.".into(),
            (Key::Opposing, Setting::Hit(Hit::Capture)) => "A piece that lands on an opposing piece captures it: the opposing piece leaves the game.".into(),
            (Key::Opposing, _) => "A piece that lands on an opposing piece swaps with it: the opposing piece goes to the square the mover came from.".into(),
            (Key::Protect, Setting::Protect(None)) => "No piece is protected.".into(),
            (Key::Protect, Setting::Protect(Some(p))) => format!("An opposing piece cannot be hit when {}.", pred_text(p, &n)),
            (Key::Runs, Setting::Squares(s)) => format!("Runs are counted on squares {} only; pieces elsewhere never form or extend a run.", n.set(*s)),
            (Key::Blockade, Setting::Blockades(bs)) if bs.is_empty() => "No blockades.".into(),
            (Key::Blockade, Setting::Blockades(bs)) => bs
                .iter()
                .map(|(len, of)| {
                    let whose = match of {
                        BlockadeKind::Opposing => "opposing pieces",
                        BlockadeKind::OneColour => "pieces of one colour (either colour)",
                        BlockadeKind::Any => "pieces (any colours)",
                    };
                    format!("No move may pass over {len} {whose} on consecutive squares.")
                })
                .collect::<Vec<_>>()
                .join(" "),
            (Key::BearOffAllIn, Setting::Squares(s)) => format!("A piece may bear off only while all its side's pieces on the board are on squares {}.", n.set(*s)),
            (Key::BearOff, Setting::Reach(Reach::ExactPast)) => "A piece bears off with the exact throw that takes it one step past the last square.".into(),
            (Key::BearOff, Setting::Reach(Reach::ExactLast)) => "A piece bears off with the exact throw that takes it to the last square.".into(),
            (Key::BearOff, _) => "A piece bears off with any throw that takes it past the last square.".into(),
            (Key::PassExtra(forced), Setting::Bool(keeps)) => format!(
                "A {} pass {} a pending extra throw.",
                if *forced { "forced" } else { "voluntary" },
                if *keeps { "keeps" } else { "loses" }
            ),
            (Key::BoundThrow, Setting::Bool(true)) => "A bound extra throw that the piece cannot use ends the turn.".into(),
            (Key::BoundThrow, _) => "A bound extra throw that the piece cannot use is passed; the turn goes on as its value allows.".into(),
            (Key::Score, Setting::Score(None)) => "The game is not scored.".into(),
            (Key::Score, Setting::Score(Some(ws))) => format!(
                "The winner scores, for each opposing piece left on the board, by row from the start of the track: {}.",
                ws.iter().enumerate().map(|(r, w)| format!("row {} {w}", r + 1)).collect::<Vec<_>>().join(", ")
            ),
            _ => continue,
        };
        out.push((text, c));
    }
    flush(&mut group, &mut out);
    out
}
