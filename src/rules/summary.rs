//! A compact, canonical text form of a compiled [`Ruleset`], one fact per
//! line, for snapshots and for eyeballing what a rule file compiled to.
//! Each construct writes its own lines (`token`, in its module under
//! `engine::constructs`); this is their order.

use crate::engine::constructs::{bear_off, opening, squares};
use crate::engine::*;

/// The rule set as canonical text (no `explained` lines: those are prose).
pub fn summary(r: &Ruleset) -> String {
    let m = r.meta();
    let mut lines: Vec<String> = vec![
        format!("name: {}", m.name),
        format!("title: {}", m.title),
        format!("source: {}", m.source),
        format!("status: {}", m.status),
        format!(
            "options: {}",
            m.options
                .iter()
                .map(|(n, _)| n.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        ),
        format!("selected: {}", m.selected.join(" ")),
        r.board().token(),
    ];
    lines.extend(r.houses().iter().map(House::token));
    lines.push(format!("pieces: {}", r.pieces()));
    let setup = r.setup();
    lines.push(format!("setup: white {:?} black {:?}", setup[0], setup[1]));
    lines.push(r.starter().token());
    lines.extend(r.opening().iter().map(OpeningRule::token));
    lines.push(r.throws().token());
    let mv = r.movement();
    lines.extend(mv.direction_tokens());
    lines.extend(squares::set_tokens(mv));
    // Constructs beyond the four source rule sets print only when used, so
    // that the summaries of rule sets without them stay as they were.
    lines.extend(mv.landing_tokens());
    lines.extend(opening::start_throw_token(mv));
    lines.extend(bear_off::voluntary_token(mv));
    lines.extend(r.entry().map(Entry::token));
    lines.extend(squares::no_backward_token(mv));
    lines.extend(squares::no_forward_token(mv));
    lines.extend(mv.turn_tokens());
    lines.extend(r.protection().tokens());
    lines.extend(r.blockades().iter().map(Blockade::token));
    lines.extend(r.halfway().map(HalfwayBlockade::token));
    lines.extend(r.target_blockade().map(TargetBlockade::token));
    lines.extend(
        r.squares()
            .iter()
            .enumerate()
            .filter(|(_, sq)| **sq != SquareRule::default())
            .map(|(s, sq)| sq.token(s)),
    );
    lines.push(r.bear_off().token());
    lines.push(r.turn().token());
    lines.push(r.end().token());
    let mut o = lines.join("\n");
    o.push('\n');
    o
}
