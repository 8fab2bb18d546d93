//! The rule-file engine against the hand-written engine of the `bga` rules
//! (`benches/hand_bga`), on games steered by the fuzzer: each input byte
//! picks a throw (its low four bits are the sticks) and which legal unit to
//! play (its high bits). At every position both engines must give the same
//! legal units, in canonical SGN, and the same position after each.
#![no_main]

#[path = "../../benches/hand_bga/mod.rs"]
#[allow(dead_code)]
mod hand_bga;

use hand_bga::{Moves, Pos};
use libfuzzer_sys::fuzz_target;
use senet::engine::{Position, Ruleset, Side, Unit};
use std::sync::OnceLock;

fn bga() -> &'static Ruleset {
    static RULES: OnceLock<Ruleset> = OnceLock::new();
    RULES.get_or_init(|| senet::rules::load("bga", None, &[]).expect("bga compiles"))
}

fn to_hand(p: &Position) -> Pos {
    Pos {
        bb: [p.pieces[0].0 as u32, p.pieces[1].0 as u32],
        off: p.off,
        side: p.to_move.index() as u8,
        extra: p.extra,
        turn: p.turn,
    }
}

fn sorted(units: impl Iterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = units.collect();
    v.sort();
    v
}

fuzz_target!(|data: &[u8]| {
    let rules = bga();
    let mut pos = Position::start(rules, Side::White);
    let mut units: Vec<Unit> = Vec::new();
    let mut moves = Moves::default();
    for &byte in data {
        if rules.game_over(&pos) {
            break;
        }
        let hand = to_hand(&pos);
        let text = pos.write(30, 10);
        // Units due without a throw (the release from the water) come
        // first when the byte's top bit asks for them.
        rules.free_units(&pos, &mut units);
        let release: Vec<String> = hand.release().iter().map(|m| m.to_string()).collect();
        assert_eq!(
            sorted(units.iter().map(|u| u.to_string())),
            sorted(release.into_iter()),
            "{text}: units without a throw differ"
        );
        if units.is_empty() || byte & 0x80 == 0 {
            let throw = hand_bga::VALUE[(byte & 15).count_ones() as usize];
            rules.legal_units(&pos, throw, &mut units);
            hand.legal(throw, &mut moves);
            assert_eq!(
                sorted(units.iter().map(|u| u.to_string())),
                sorted(moves.as_slice().iter().map(|m| m.to_string())),
                "{text}: legal units for a throw of {throw} differ"
            );
        }
        if units.is_empty() {
            continue;
        }
        let pick = (byte as usize >> 4) % units.len();
        let unit = units[pick];
        let written = unit.to_string();
        let hand_move = moves
            .as_slice()
            .iter()
            .chain(hand.release().iter())
            .find(|m| m.to_string() == written)
            .copied()
            .expect("the hand-written engine has the same unit");
        let (after, _) = rules
            .play(&pos, &unit)
            .unwrap_or_else(|r| panic!("{text}: {written} refused by its own engine: {r:?}"));
        assert_eq!(
            after.write(30, 10),
            {
                let h = hand.play(&hand_move);
                let mut q = after;
                q.pieces[0].0 = h.bb[0] as u64;
                q.pieces[1].0 = h.bb[1] as u64;
                q.off = h.off;
                q.to_move = if h.side == 0 {
                    Side::White
                } else {
                    Side::Black
                };
                q.extra = h.extra;
                q.turn = h.turn;
                q.write(30, 10)
            },
            "{text}: positions after {written} differ"
        );
        pos = after;
    }
});
