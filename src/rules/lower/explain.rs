//! Every rule in words, for `senet rules show`: one sentence per merged
//! declaration, with its clause; rules of single squares that say the
//! same thing are grouped. The words are the constructs' own (their
//! modules under `engine::constructs`); this is the dispatch from what a
//! declaration decided to them.

use super::*;
use crate::engine::constructs::words::Names;
use crate::engine::constructs::{
    auto_off, bear_off, blockade, board, end, entry, halfway, lock, movement, opening, protection,
    squares, throws,
};

pub(super) fn explain(
    map: &BTreeMap<Key, Item>,
    houses: &[House],
    all_throws: u32,
) -> Vec<(String, Clause)> {
    let n = Names { houses };
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
    // An exit's throws are never asked where no throw bears a piece off
    // (the rule file gets a warning, `exit_without_throw`).
    let without_throw = matches!(
        map.get(&Key::BearOff).map(|i| &i.setting),
        Some(Setting::Reach(Reach::WithoutThrow { .. }))
    );
    for (k, i) in map {
        let c = match &i.setting {
            Setting::Protect(Some(p)) if i.clause.is_empty() => p.clauses().join(", "),
            Setting::TargetBlockade(b) if i.clause.is_empty() => {
                let mut cs: Vec<String> = Vec::new();
                for case in &b.cases {
                    for c in case.passing.clauses() {
                        if !cs.contains(&c) {
                            cs.push(c);
                        }
                    }
                }
                cs.join(", ")
            }
            _ => i.clause.clone(),
        };
        if let Key::Square(kind, s) = *k {
            let mut text = square_sentence(&n, kind, &i.setting, all_throws);
            if kind == SquareKind::Exit && without_throw {
                text.push_str(bear_off::EXIT_WITHOUT_THROW);
            }
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
        // The header is provenance, not a rule: `Meta` carries it.
        if let Some(text) = sentence(&n, *k, &i.setting) {
            out.push((text, c));
        }
    }
    flush(&mut group, &mut out);
    out
}

/// The sentence of a declaration of the whole rule set.
fn sentence(n: &Names, k: Key, setting: &Setting) -> Option<String> {
    Some(match (k, setting) {
        (Key::Title | Key::Source | Key::Status, _) => return None,
        (Key::Goal, Setting::Goal(g)) => g.sentence().into(),
        (Key::Goal, _) => Goal::BearOffAll.sentence().into(),
        (Key::Guard, Setting::Squares(on)) => movement::guard_on_sentence(n, *on),
        (Key::Guard, _) => movement::GUARD.into(),
        (Key::HalfwayBlockade, Setting::Halfway { length, throws }) => {
            halfway::sentence(*length, throws)
        }
        (Key::DrawOnExtra, _) => end::DRAW_ON_EXTRA.into(),
        (Key::TurnLimit, Setting::Turns(n)) => end::turn_limit_sentence(*n),
        (
            Key::StartThrow,
            Setting::StartThrow {
                throw,
                side,
                counted,
            },
        ) => opening::start_throw_sentence(&[*throw], *side, *counted),
        (Key::BearOffVoluntary, _) => bear_off::VOLUNTARY.into(),
        (Key::Board, Setting::Board { len, row_len }) => Board {
            len: *len,
            row_len: *row_len,
        }
        .sentence(),
        (Key::House(s), Setting::House { name, glyph, .. }) => {
            House::sentence(s, name, glyph.as_deref())
        }
        (Key::Pieces, Setting::Count(p)) => board::pieces_sentence(*p),
        (Key::Setup(side), Setting::Squares(s)) => board::setup_sentence(n, side, *s),
        (
            Key::Enter,
            Setting::Enter {
                square,
                throws,
                bound,
            },
        ) => entry::sentence(n, *square, throws, *bound),
        (Key::Split, Setting::Bool(true)) => movement::SPLIT_ANY.into(),
        (Key::Split, _) => movement::SPLIT.into(),
        (Key::HeldExtra, _) => end::HELD_EXTRA.into(),
        (Key::Pass, Setting::Flag) => movement::PASS_BESIDE_ENTRY.into(),
        (Key::OneDirection, _) => movement::ONE_DIRECTION.into(),
        (Key::BackwardExtra, _) => movement::BACKWARD_EXTRA.into(),
        (Key::LastPiece, Setting::LastPiece(from, to)) => {
            movement::last_piece_sentence(n, *from, *to)
        }
        (Key::Starter, Setting::Starter(s)) => opening::starter_sentence(*s),
        (Key::Opening(side), Setting::Opening { throw, from, lapse }) => {
            opening::sentence(n, side, *throw, *from, *lapse)
        }
        (
            Key::Throws,
            Setting::Throws {
                sticks,
                values,
                die,
            },
        ) => throws::sentence(*sticks, values, *die),
        (Key::Extra, Setting::Values(v)) => throws::extra_sentence(v),
        (Key::Backward, Setting::Backward(b)) => b.sentence().into(),
        (Key::Compulsory, _) => movement::COMPULSORY.into(),
        (Key::Pass, Setting::Bool(voluntary)) => movement::pass_sentence(*voluntary).into(),
        (Key::OwnPiece, _) => movement::OWN_PIECE.into(),
        (Key::Opposing, Setting::Hit(h)) => h.sentence().into(),
        (Key::Protect, Setting::Protect(p)) => protection::sentence(n, p.as_ref()),
        (Key::Runs, Setting::Runs(s, except)) => protection::runs_sentence(n, *s, *except),
        (Key::TargetBlockade, Setting::TargetBlockade(b)) => b.sentence(n),
        (Key::Blockade, Setting::Blockades(bs)) => blockade::sentence(bs),
        (Key::BearOffAllIn, Setting::Squares(s)) => bear_off::all_in_sentence(n, *s),
        (Key::BearOff, Setting::Reach(Reach::WithoutThrow { from, region })) => {
            auto_off::sentence(n, *from, *region)
        }
        (Key::BearOff, Setting::Reach(r)) => r.sentence().into(),
        (Key::PassExtra(forced), Setting::Bool(keeps)) => end::pass_extra_sentence(forced, *keeps),
        (Key::BoundThrow, Setting::Bool(ends)) => end::bound_throw_sentence(*ends).into(),
        (Key::Score, Setting::Score(ws)) => end::score_sentence(ws.as_deref()),
        _ => return None,
    })
}

/// The sentence of a rule of one square, after "Square 12: ".
fn square_sentence(n: &Names, kind: SquareKind, setting: &Setting, all_throws: u32) -> String {
    match setting {
        Setting::Landing(r, fb) if kind == SquareKind::DivertTaken => {
            squares::divert_taken_sentence(n, *r, *fb)
        }
        Setting::Landing(r, fb) => Landing::sentence(n, *r, *fb),
        Setting::StayMoving(throws, r, fb) => squares::stay_moving_sentence(n, *throws, *r, *fb),
        Setting::Exit(ts) => bear_off::exit_sentence(ts, all_throws),
        Setting::HitSends(t, forbidden, fwd) => {
            squares::hit_sends_sentence(n, *t, *forbidden, *fwd)
        }
        Setting::Overshoot(t, when_empty) => squares::overshoot_sentence(n, *t, *when_empty),
        Setting::Target(t) => squares::divert_sentence(n, *t),
        Setting::Lock(l) => l.sentence(n, all_throws),
        _ => match kind {
            SquareKind::Gate => squares::GATE,
            SquareKind::Truncate => squares::TRUNCATE,
            SquareKind::Immobile => squares::IMMOBILE,
            SquareKind::Priority => squares::PRIORITY,
            SquareKind::ExitFromTurnStart => bear_off::EXIT_FROM_TURN_START,
            SquareKind::ExitNoExtra => lock::EXIT_NO_EXTRA,
            SquareKind::BoundExtra => squares::BOUND_EXTRA,
            SquareKind::MissTurn => squares::MISS_TURN,
            SquareKind::ExtraThrow => squares::EXTRA_THROW,
            SquareKind::OffExtra => squares::OFF_EXTRA,
            SquareKind::NoBackward => squares::NO_BACKWARD,
            SquareKind::NoForward => squares::NO_FORWARD,
            SquareKind::StuckToHand => squares::STUCK_TO_HAND,
            _ => "",
        }
        .into(),
    }
}
