//! Records from played games: engine units → syntax tree, for the writer.
//!
//! Stage: the engine's units (as a simulation played them) → a [`Game`]
//! with turn numbers, ready for [`super::writer::write_game`].

use super::syntax::{
    Game, LaterPart, LaterParts, MoveSep, Node, PartSyntax, Reloc, ResultToken, Span, Tag, Target,
    UnitBody, UnitSyntax,
};
use crate::engine::{Part, Relocated, Side, Unit, UnitKind};

/// The written form of one part of an engine unit.
pub fn part_syntax(p: &Part) -> PartSyntax {
    PartSyntax {
        from: p.from,
        sep: if p.hit { MoveSep::Cross } else { MoveSep::Dash },
        to: if p.off {
            Target::Off
        } else if p.to == 0 {
            Target::Hand
        } else {
            Target::Square(p.to)
        },
        reloc: p.relocated.map(|r| match r {
            Relocated::Square(s) => Reloc::Square(s),
            Relocated::Queue => Reloc::Queue,
            Relocated::Hand => Reloc::Hand,
        }),
        later: LaterParts::default(),
    }
}

/// The written form of an engine unit.
pub fn unit_syntax(u: &Unit) -> UnitSyntax {
    let body = match u.kind {
        UnitKind::Skip => UnitBody::Skip,
        UnitKind::Pass => UnitBody::Pass,
        UnitKind::Move | UnitKind::NoThrow => {
            let p = part_syntax(&u.first_part());
            UnitBody::Move {
                from: p.from,
                sep: p.sep,
                to: p.to,
                reloc: p.reloc,
                split: u.split.as_ref().map(|p| {
                    let mut second = part_syntax(p);
                    for (slot, later) in second.later.0.iter_mut().zip(u.more.iter()) {
                        *slot = Some(LaterPart::of(&part_syntax(&later)));
                    }
                    second
                }),
            }
        }
    };
    let throw = match u.kind {
        UnitKind::Skip => None,
        UnitKind::NoThrow => Some(0),
        _ => Some(u.throw),
    };
    UnitSyntax {
        span: Span::default(),
        throw,
        faces: None,
        plus: u.extra_mark,
        body,
    }
}

/// A tag with no span.
pub fn tag(name: &str, value: impl Into<String>) -> Tag {
    Tag {
        name: name.into(),
        value: value.into(),
        span: Span::default(),
        name_span: Span::default(),
        value_span: Span::default(),
    }
}

/// The result token of a game that stopped with `winner` (from
/// [`Ruleset::winner`](crate::engine::Ruleset::winner)); `finished` when
/// the rules ended it. A finished game with no winner is a draw (BL-7).
pub fn result_token(finished: bool, winner: Option<Side>) -> ResultToken {
    match (winner, finished) {
        (Some(Side::White), _) => ResultToken::WhiteWins,
        (Some(Side::Black), _) => ResultToken::BlackWins,
        (None, true) => ResultToken::Draw,
        (None, false) => ResultToken::Unknown,
    }
}

/// A game from its tags and its units, each with the side that played it
/// and the number of the turn it belongs to. A turn number is written
/// whenever the side or the number changes.
pub fn game(tags: Vec<Tag>, units: &[(Side, u32, Unit)], result: ResultToken) -> Game {
    let mut nodes = Vec::with_capacity(units.len() + units.len() / 2);
    let mut last: Option<(Side, u32)> = None;
    for &(side, turn, ref u) in units {
        if last != Some((side, turn)) {
            nodes.push(Node::TurnNumber {
                number: turn,
                black: side == Side::Black,
                span: Span::default(),
            });
            last = Some((side, turn));
        }
        nodes.push(Node::Unit(unit_syntax(u)));
    }
    Game {
        index: 1,
        leading: Vec::new(),
        tags,
        intro: Vec::new(),
        nodes,
        result,
        result_span: Span::default(),
        span: Span::default(),
    }
}
