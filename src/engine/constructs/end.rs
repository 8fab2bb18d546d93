//! The turn and the end of a game: what a pass does to a pending extra
//! throw, what an unusable bound throw does, the goal and the score.
//!
//! The model value with its clauses, and its words: how `senet rules show`
//! says it, its token in `senet rules summary`, and how a move it refuses
//! reads.

use super::words::*;
use crate::engine::*;

#[derive(Debug, Clone, PartialEq)]
pub struct TurnRules {
    /// A forced pass keeps a pending extra throw (A-1 alternative).
    pub forced_pass_keeps_extra: bool,
    pub forced_pass_clause: Clause,
    /// A voluntary pass keeps the extra throw (A-11 default).
    pub voluntary_pass_keeps_extra: bool,
    /// A throw bound to a piece that cannot be used ends the turn (A-13 alt.)
    pub bound_pass_ends_turn: bool,
    /// An extra throw earned by a throw whose rest was lost is held by the
    /// game (`Position::held`) and given to whichever side next uses up a
    /// whole throw by moving (entering does not count).
    pub held_extra: bool,
    pub held_extra_clause: Clause,
}

#[derive(Debug, Clone, PartialEq)]
pub struct EndRules {
    /// How the game is won.
    pub goal: Goal,
    /// Points per opposing piece left, by row from the start of the track
    /// (K-14: `[3, 2, 1]`); `None`: the rule set does not score.
    pub score_by_row: Option<Vec<u8>>,
    pub clause: Clause,
    pub goal_clause: Clause,
    /// A side that bears off its last piece with a throw that gives another
    /// throw does not win: the game is drawn, with no score (LJ-9). The
    /// final position keeps that side to move with its extra throw.
    pub draw_on_extra: bool,
    pub draw_on_extra_clause: Clause,
    /// A game still going after this many turns (of either side, from the
    /// game's first unit) ends there, drawn (LK-19).
    pub turn_limit: Option<u32>,
    pub turn_limit_clause: Clause,
}

/// How a game is won.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    /// The first side to bear off all its pieces wins (K-4).
    BearOffAll,
    /// The game ends when neither side has a piece in play (pieces can be
    /// captured); the side that bore off more wins, equal counts draw (BL-7).
    MostBorneOff,
}

// Words.

impl Goal {
    /// `rules show`.
    pub fn sentence(self) -> &'static str {
        match self {
            Goal::MostBorneOff => {
                "The game ends when neither side has a piece in play; the side that bore off more pieces wins, and equal counts are a draw."
            }
            Goal::BearOffAll => "The first player to bear off all their pieces wins.",
        }
    }
}

/// `rules show`: `draw when last bear off gives extra throw` (LJ-9).
/// `rules show`: `lost rest holds extra throw`.
pub const HELD_EXTRA: &str = "An extra throw earned by a throw whose rest is lost is held by the game, and goes to whichever side next uses up a whole throw by moving (entering does not count); extra throws do not add up.";
pub const DRAW_ON_EXTRA: &str = "A side that bears off its last piece with a throw that gives another throw does not win: the game is drawn, and nobody scores.";

/// `rules show`: `draw after N turns` (LK-19).
pub fn turn_limit_sentence(n: u32) -> String {
    format!(
        "A game still going after {n} turns (each side's turns counted, from the game's first unit) ends there, drawn."
    )
}

/// `rules show`: the score as declared (`None`: not scored).
pub fn score_sentence(weights: Option<&[u8]>) -> String {
    match weights {
        None => "The game is not scored.".into(),
        Some(ws) => format!(
            "The winner scores, for each opposing piece left on the board, by row from the start of the track: {}.",
            ws.iter()
                .enumerate()
                .map(|(r, w)| format!("row {} {w}", r + 1))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `rules show`: what a forced or voluntary pass does to a pending extra
/// throw.
pub fn pass_extra_sentence(forced: bool, keeps: bool) -> String {
    format!(
        "A {} pass {} a pending extra throw.",
        if forced { "forced" } else { "voluntary" },
        if keeps { "keeps" } else { "loses" }
    )
}

/// `rules show`: what a bound extra throw the piece cannot use does.
pub fn bound_throw_sentence(ends_turn: bool) -> &'static str {
    if ends_turn {
        "A bound extra throw that the piece cannot use ends the turn."
    } else {
        "A bound extra throw that the piece cannot use is passed; the turn goes on as its value allows."
    }
}

impl TurnRules {
    /// The `rules summary` line.
    pub fn token(&self) -> String {
        format!(
            "turn: forced pass keeps extra {}{}; voluntary pass keeps extra {}; bound pass ends turn {}",
            self.forced_pass_keeps_extra,
            cl(&self.forced_pass_clause),
            self.voluntary_pass_keeps_extra,
            self.bound_pass_ends_turn
        ) + &if self.held_extra {
            format!("; held extra{}", cl(&self.held_extra_clause))
        } else {
            String::new()
        }
    }
}

impl EndRules {
    /// The `rules summary` line.
    pub fn token(&self) -> String {
        format!(
            "end: goal{}{}{}{}; score {}{}",
            if self.goal == Goal::MostBorneOff {
                " most-borne-off"
            } else {
                ""
            },
            cl(&self.goal_clause),
            if self.draw_on_extra {
                format!(" draw-on-extra{}", cl(&self.draw_on_extra_clause))
            } else {
                String::new()
            },
            self.turn_limit
                .map(|n| format!(" draw-after {n} turns{}", cl(&self.turn_limit_clause)))
                .unwrap_or_default(),
            self.score_by_row
                .as_ref()
                .map_or("none".into(), |w| format!("{w:?}")),
            cl(&self.clause)
        )
    }
}

// The end of a game in a position: the winner, whether the game is
// over, the score.

impl Ruleset {
    /// The winner, once a side has no pieces left in play (K-4); under
    /// [`Goal::MostBorneOff`], once neither side has, the side that bore off
    /// more (`None` for a draw: see [`game_over`](Self::game_over)).
    pub fn winner(&self, pos: &Position) -> Option<Side> {
        if self.turn_limit_reached(pos) {
            return None;
        }
        match self.end.goal {
            Goal::BearOffAll => Side::BOTH
                .into_iter()
                .find(|&s| pos.in_play(s) == 0)
                // LJ-9: the last piece left with a throw that gives another.
                .filter(|&s| !(self.end.draw_on_extra && pos.extra && pos.to_move == s)),
            Goal::MostBorneOff => {
                if !self.game_over(pos) || pos.off[0] == pos.off[1] {
                    None
                } else if pos.off[0] > pos.off[1] {
                    Some(Side::White)
                } else {
                    Some(Side::Black)
                }
            }
        }
    }

    /// Whether the game has ended (with a winner, or drawn under BL-7).
    // A short way for a position where both sides have a piece on the
    // board (every position of a game but its last): then both have
    // pieces in play, no goal is reached, and the game is over only at its
    // turn limit (LK-19). A playout under a turn limit asks this after
    // every unit. (Not marked `#[inline]`: forced inline into a playout
    // loop, it cost the rule sets without a turn limit registers there.)
    pub fn game_over(&self, pos: &Position) -> bool {
        if pos.pieces[0].0 != 0 && pos.pieces[1].0 != 0 {
            return self
                .end
                .turn_limit
                .is_some_and(|n| self.turns_played(pos) >= n);
        }
        self.turn_limit_reached(pos)
            || match self.end.goal {
                Goal::BearOffAll => Side::BOTH.into_iter().any(|s| pos.in_play(s) == 0),
                Goal::MostBorneOff => Side::BOTH.into_iter().all(|s| pos.in_play(s) == 0),
            }
    }

    /// The lowest turn number from which [`game_over`](Self::game_over)
    /// may say yes while both sides have a piece on the board, by the turn
    /// limit (LK-19): half the limit, a turn number covering two turns
    /// ([`turns_played`](Self::turns_played)); `u32::MAX` without a limit.
    /// A playout asks `game_over` after a unit only where a side has no
    /// piece on the board or the turn has come this far: asked after every
    /// unit under a limit, the call cost `ludii-kendall` about 22
    /// instructions per unit.
    pub fn turn_limit_from(&self) -> u32 {
        self.end.turn_limit.map_or(u32::MAX, |n| n / 2)
    }

    /// The turns played before `pos`, each side's counted (C-5), from the
    /// turn number: a turn number covers White's turn and Black's after
    /// it; in a game Black starts (by rule, or by lot as `pos.first`
    /// says), Black's first turn has the number 1 alone.
    #[inline]
    pub fn turns_played(&self, pos: &Position) -> u32 {
        let black_first = match self.starter {
            Starter::Fixed(side, _) => side == Side::Black,
            Starter::ByLot(_) => pos.first == Side::Black,
        };
        (2 * pos.turn.saturating_sub(1) + (pos.to_move == Side::Black) as u32)
            .saturating_sub(black_first as u32)
    }

    /// Whether the game has run into its turn limit (LK-19): no side has
    /// won before the limit's last turn ended, and the game is drawn. A
    /// turn ending with a side's last bear-off is a win, not a draw.
    #[inline]
    pub fn turn_limit_reached(&self, pos: &Position) -> bool {
        self.end.turn_limit.is_some_and(|n| {
            self.turns_played(pos) >= n && Side::BOTH.into_iter().all(|s| pos.in_play(s) > 0)
        })
    }

    /// The winner's points under the rule set's scoring (K-14), if it scores.
    pub fn score(&self, pos: &Position) -> Option<(Side, u32)> {
        let weights = self.end.score_by_row.as_ref()?;
        let winner = self.winner(pos)?;
        let loser = winner.other();
        let points = pos.pieces[loser.index()]
            .iter()
            .map(|s| {
                let row = self.board.row_of(s) as usize;
                weights.get(row).copied().unwrap_or(0) as u32
            })
            .sum();
        Some((winner, points))
    }
}

// The replay gloss: the end of the game, the pieces borne off, and
// whether the side throws again.

/// A game that ended with the unit, or the side's count of pieces off.
pub(crate) fn glossed(cx: &PlayedUnit, out: &mut Vec<String>) {
    let (rules, fx, side) = (cx.rules, cx.effects, cx.side());
    if rules.game_over(cx.after) && rules.end.goal == Goal::MostBorneOff {
        // BL-7: the board is empty; the counts decide, and the mover need
        // not be the winner.
        let [w, b] = cx.after.off;
        out.push(match rules.winner(cx.after) {
            Some(s) => {
                format!("the board is empty: {s} bore off more (White {w}, Black {b}) and wins")
            }
            None => format!("the board is empty and both sides bore off {w}: the game is drawn"),
        });
    } else if fx.won {
        out.push(format!("{side} has borne off every piece and wins"));
    } else if rules.turn_limit_reached(cx.after) {
        out.push(format!(
            "{} turns have been played: the game ends, drawn",
            rules.end.turn_limit.unwrap_or(0)
        ));
    } else if rules.game_over(cx.after) && rules.winner(cx.after).is_none() {
        // LJ-9: the last piece left with a throw that gives another.
        out.push(format!(
            "{side} has borne off every piece with a throw that gives another: the game is drawn"
        ));
    } else if fx.bear_off {
        out.push(format!("{side} has {} off", cx.after.off[side.index()]));
    }
}

/// `throws again`: the turn goes on with a throw. A move that makes a
/// bear-off without a throw due keeps its side to move without one when
/// its throw ends the turn: the bear-off is next, and then the turn ends.
pub(crate) fn glossed_turn(cx: &PlayedUnit, out: &mut Vec<String>) {
    if !cx.effects.turn_ended && cx.unit.kind != UnitKind::Skip && cx.after.extra {
        out.push("throws again".to_string());
    } else if !cx.effects.turn_ended && cx.rules.auto_off_due(cx.after).is_some() {
        out.push("the bear-off without a throw comes next, then the turn ends".to_string());
    }
}

#[cfg(test)]
mod tests {
    use crate::diag::SourceFile;
    use crate::engine::{Position, Side};

    /// C-5, LK-19: the turns played count from the side that took the
    /// first turn, whether the rules fix it or the lot drew it. A limit
    /// of 2 turns is reached after both sides' first turns, not after
    /// Black's first in a game Black started by lot.
    #[test]
    fn turns_played_count_from_the_first_player_drawn_by_lot() {
        for (starter, lot) in [("starter black", false), ("starter by lot", true)] {
            let text = format!("extends \"ludii-kendall\"\n{starter}\ndraw after 2 turns\n");
            let rules =
                crate::rules::load_source(SourceFile::new("limit.senet", text), &[]).unwrap();
            let firsts: &[Side] = if lot {
                &[Side::White, Side::Black]
            } else {
                &[Side::Black]
            };
            for &first in firsts {
                let mut pos = Position::start(&rules, first);
                for played in 0..4 {
                    assert_eq!(rules.turns_played(&pos), played, "{starter}, {first} first");
                    assert_eq!(
                        rules.turn_limit_reached(&pos),
                        played >= 2,
                        "{starter}, {first} first, {played} turns played"
                    );
                    pos.end_turn();
                }
            }
        }
    }
}
