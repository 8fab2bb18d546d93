//! A compact, canonical text form of a compiled [`Ruleset`], one fact per
//! line, for snapshots and for eyeballing what a rule file compiled to.

use super::lower::ranges;
use crate::engine::*;
use std::fmt::Write;

fn set(s: SquareSet) -> String {
    let v: Vec<u8> = s.iter().collect();
    format!("{{{}}}", ranges(&v))
}

fn bitlist(b: u32) -> String {
    let v: Vec<u8> = (0..32u8).filter(|i| b & (1 << i) != 0).collect();
    format!("{{{}}}", ranges(&v))
}

fn cl(c: &str) -> String {
    if c.is_empty() {
        String::new()
    } else {
        format!(" [{c}]")
    }
}

fn pred(p: &Pred) -> String {
    match p {
        Pred::RunLength { lengths, clause } => {
            let v: Vec<u8> = (0..64u8).filter(|i| lengths & (1u64 << i) != 0).collect();
            let text = if v.len() > 1
                && *v.last().unwrap() == 63
                && v.windows(2).all(|w| w[1] == w[0] + 1)
            {
                format!(">={}", v[0])
            } else {
                format!("in {{{}}}", ranges(&v))
            };
            format!("run {text}{}", cl(clause))
        }
        Pred::Middle { clause } => format!("middle{}", cl(clause)),
        Pred::OnSquare { squares, clause } => format!("on {}{}", set(*squares), cl(clause)),
        Pred::Taken { squares, clause } => format!("taken {}{}", set(*squares), cl(clause)),
        Pred::OwnerOn { squares, clause } => format!("owner-on {}{}", set(*squares), cl(clause)),
        Pred::OwnerSkips { clause } => format!("owner-skips{}", cl(clause)),
        Pred::And(ps) => format!(
            "and({})",
            ps.iter().map(pred).collect::<Vec<_>>().join(", ")
        ),
        Pred::Or(ps) => format!("or({})", ps.iter().map(pred).collect::<Vec<_>>().join(", ")),
        Pred::Not(q) => format!("not({})", pred(q)),
    }
}

/// The rule set as canonical text (no `explained` lines: those are prose).
pub fn summary(r: &Ruleset) -> String {
    let mut o = String::new();
    let m = &r.meta;
    let _ = writeln!(o, "name: {}", m.name);
    let _ = writeln!(o, "title: {}", m.title);
    let _ = writeln!(o, "source: {}", m.source);
    let _ = writeln!(o, "status: {}", m.status);
    let _ = writeln!(
        o,
        "options: {}",
        m.options
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    );
    let _ = writeln!(o, "selected: {}", m.selected.join(" "));
    let _ = writeln!(
        o,
        "board: {} squares, rows of {}",
        r.board.len, r.board.row_len
    );
    for h in &r.houses {
        let _ = writeln!(
            o,
            "house {}: {}{}{}",
            h.square,
            h.name,
            h.glyph
                .as_ref()
                .map(|g| format!(" ({g})"))
                .unwrap_or_default(),
            cl(&h.clause)
        );
    }
    let _ = writeln!(o, "pieces: {}", r.pieces);
    let _ = writeln!(o, "setup: white {:?} black {:?}", r.setup[0], r.setup[1]);
    let _ = match &r.starter {
        Starter::Fixed(s, c) => writeln!(o, "starter: {}{}", s.name(), cl(c)),
        Starter::ByLot(c) => writeln!(o, "starter: by lot{}", cl(c)),
    };
    for op in &r.opening {
        let _ = writeln!(
            o,
            "opening {}: throw {} from {} else {:?}{}",
            op.side.name(),
            op.throw.map_or("-".into(), |t| t.to_string()),
            op.from.map_or("-".into(), |t| t.to_string()),
            op.lapse,
            cl(&op.clause)
        );
    }
    let t = &r.throws;
    let _ = writeln!(
        o,
        "throws: {} {:?}{}; extra {}{}",
        if t.die {
            format!("die of {} faces", t.values.len())
        } else {
            format!("{} sticks", t.sticks)
        },
        t.values,
        cl(&t.clause),
        bitlist(t.extra),
        cl(&t.extra_clause)
    );
    let mv = &r.movement;
    let _ = writeln!(o, "backward: {:?}{}", mv.backward, cl(&mv.backward_clause));
    let _ = writeln!(o, "compulsory:{}", cl(&mv.compulsory_clause));
    let _ = writeln!(
        o,
        "voluntary pass: {}{}",
        mv.voluntary_pass,
        cl(&mv.voluntary_pass_clause)
    );
    let _ = writeln!(
        o,
        "priority: {}{}",
        set(mv.priority),
        cl(&mv.priority_clause)
    );
    let _ = writeln!(o, "gates: {}{}", set(mv.gates), cl(&mv.gate_clause));
    let _ = writeln!(
        o,
        "truncate: {}{}",
        set(mv.truncate_at),
        cl(&mv.truncate_clause)
    );
    let _ = writeln!(
        o,
        "immobile: {}{}",
        set(mv.immobile),
        cl(&mv.immobile_clause)
    );
    let _ = writeln!(
        o,
        "own piece:{}; swap:{}",
        cl(&mv.own_clause),
        cl(&mv.swap_clause)
    );
    // Constructs beyond the four source rule sets print only when used, so
    // that the summaries of rule sets without them stay as they were.
    if mv.hit != Hit::Swap {
        let _ = writeln!(o, "hit: {:?}{}", mv.hit, cl(&mv.swap_clause));
    }
    if mv.setup_guard {
        let _ = writeln!(o, "setup guard{}", cl(&mv.setup_guard_clause));
    }
    if let Some(t) = mv.start_throw {
        let _ = writeln!(o, "start throw: {t}{}", cl(&mv.start_throw_clause));
    }
    if mv.bear_off_voluntary {
        let _ = writeln!(o, "bear off voluntary{}", cl(&mv.bear_off_voluntary_clause));
    }
    if let Some(e) = &r.entry {
        let _ = writeln!(
            o,
            "enter on {} with {}{}{}",
            e.square,
            bitlist(e.throws),
            if e.bound_extra { ", bound extra" } else { "" },
            cl(&e.clause)
        );
    }
    if !mv.no_backward.is_empty() {
        let _ = writeln!(
            o,
            "no backward from: {}{}",
            set(mv.no_backward),
            cl(&mv.no_backward_clause)
        );
    }
    if mv.split {
        let _ = writeln!(o, "split throws{}", cl(&mv.split_clause));
    }
    if mv.one_direction {
        let _ = writeln!(o, "one direction per turn{}", cl(&mv.one_direction_clause));
    }
    let _ = writeln!(
        o,
        "protection: {}",
        r.protection.rule.as_ref().map_or("none".into(), pred)
    );
    let _ = writeln!(o, "runs on: {}", set(r.protection.run_squares));
    for b in &r.blockades {
        let _ = writeln!(o, "blockade: {} {:?}{}", b.length, b.of, cl(&b.clause));
    }
    for (s, sq) in r.squares.iter().enumerate() {
        if *sq == SquareRule::default() {
            continue;
        }
        let mut parts = Vec::new();
        if let Some(l) = &sq.on_land {
            let fb = l
                .when_taken
                .map(|f| format!(" else {}", f.token()))
                .unwrap_or_default();
            parts.push(format!("land {}{fb}{}", l.effect.token(), cl(&l.clause)));
        }
        if let Some(e) = sq.exit_throws {
            parts.push(format!("exit {}{}", bitlist(e), cl(&sq.exit_clause)));
        }
        if sq.exit_from_turn_start {
            parts.push(format!(
                "exit-from-turn-start{}",
                cl(&sq.exit_from_turn_start_clause)
            ));
        }
        if let Some(h) = sq.hit_sends_to {
            parts.push(format!("hit-sends-to {h}{}", cl(&sq.hit_clause)));
        }
        if let Some(d) = sq.divert_when_protected {
            parts.push(format!("divert {d}{}", cl(&sq.divert_clause)));
        }
        if sq.bound_extra {
            parts.push(format!("bound-extra{}", cl(&sq.bound_clause)));
        }
        if sq.miss_turn {
            parts.push(format!("miss-turn{}", cl(&sq.miss_clause)));
        }
        if sq.extra_throw {
            parts.push(format!("extra-throw{}", cl(&sq.extra_clause)));
        }
        if sq.stuck_to_hand {
            parts.push(format!("stuck-to-hand{}", cl(&sq.stuck_clause)));
        }
        if let Some(d) = sq.overshoot_to {
            parts.push(format!("overshoot-to {d}{}", cl(&sq.overshoot_clause)));
        }
        if let Some(l) = &sq.lock {
            parts.push(format!(
                "lock(release {}{}{}, exit {}, otherwise {}, fail-ends-turn {}, exit-gives-extra {}){}",
                l.release_to.map_or("-".into(), |s| s.to_string()),
                l.release_when_taken.map(|f| format!(" else {}", f.token())).unwrap_or_default(),
                if l.release_misses_turn { " misses-turn" } else { "" },
                bitlist(l.exit_throws),
                l.otherwise.token(),
                l.fail_ends_turn,
                l.exit_gives_extra,
                cl(&l.clause)
            ));
        }
        let _ = writeln!(o, "square {s}: {}", parts.join("; "));
    }
    let b = &r.bear_off;
    let _ = writeln!(
        o,
        "bear off: {:?}{}; all in {}{}",
        b.reach,
        cl(&b.clause),
        b.all_in.map_or("-".into(), set),
        cl(&b.all_in_clause)
    );
    let tu = &r.turn;
    let _ = writeln!(
        o,
        "turn: forced pass keeps extra {}{}; voluntary pass keeps extra {}; bound pass ends turn {}",
        tu.forced_pass_keeps_extra,
        cl(&tu.forced_pass_clause),
        tu.voluntary_pass_keeps_extra,
        tu.bound_pass_ends_turn
    );
    let _ = writeln!(
        o,
        "end: goal{}{}; score {}{}",
        if r.end.goal == Goal::MostBorneOff {
            " most-borne-off"
        } else {
            ""
        },
        cl(&r.end.goal_clause),
        r.end
            .score_by_row
            .as_ref()
            .map_or("none".into(), |w| format!("{w:?}")),
        cl(&r.end.clause)
    );
    o
}
