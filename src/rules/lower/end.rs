//! Building the turn structure (what a pass does to a pending extra throw,
//! what an unusable bound throw does) and the end of a game: the goal and
//! the score, whose row weights are checked against the board.

use super::*;

impl Lowerer<'_> {
    /// `score by row: 3, 2, 1` (K-14): one weight per row of the board.
    pub(super) fn build_end(&mut self, m: &Merged, board: Option<Board>) -> EndRules {
        let score_by_row = match m.get(Key::Score) {
            Some(Item {
                setting: Setting::Score(Some(ws)),
                span,
                layer,
                ..
            }) => {
                if let Some(b) = board
                    && ws.len() != b.rows() as usize
                {
                    self.bad(
                        *layer,
                        span,
                        format!(
                            "the score gives {} row weights for a board of {} rows",
                            ws.len(),
                            b.rows()
                        ),
                        "wrong number of weights",
                        format!(
                            "give one weight per row, from the start of the track ({} rows)",
                            b.rows()
                        ),
                    );
                }
                Some(ws.clone())
            }
            _ => None,
        };
        EndRules {
            goal: match m.setting(Key::Goal) {
                Some(Setting::Goal(g)) => *g,
                _ => Goal::BearOffAll,
            },
            score_by_row,
            clause: m.clause(Key::Score),
            goal_clause: m.clause(Key::Goal),
            draw_on_extra: m.get(Key::DrawOnExtra).is_some(),
            draw_on_extra_clause: m.clause(Key::DrawOnExtra),
            turn_limit: match m.setting(Key::TurnLimit) {
                Some(Setting::Turns(n)) => Some(*n),
                _ => None,
            },
            turn_limit_clause: m.clause(Key::TurnLimit),
        }
    }

    /// `draw after 2500 turns` (LK-19): at least one turn, and a number a
    /// position's turn number can reach.
    pub(super) fn lower_turn_limit(
        &mut self,
        layer: usize,
        n: &ast::Spanned<u32>,
    ) -> Option<(Key, Setting)> {
        let most = 2 * (Position::MAX_TURN - 1);
        if n.node == 0 || n.node > most {
            self.bad(
                layer,
                &n.span,
                format!("a turn limit counts 1 to {most} turns"),
                "out of range",
                "write e.g. `draw after 2500 turns`",
            );
            return None;
        }
        Some((Key::TurnLimit, Setting::Turns(n.node)))
    }

    /// `score by row: 3, 2, 1`, or `score none`.
    pub(super) fn lower_score(
        &mut self,
        layer: usize,
        ws: &Option<Vec<ast::Spanned<u32>>>,
    ) -> Option<(Key, Setting)> {
        let ws = ws.as_ref().map(|ws| {
            ws.iter()
                .filter_map(|w| self.small(layer, w, 0, 255, "a score weight"))
                .collect()
        });
        Some((Key::Score, Setting::Score(ws)))
    }
}

pub(super) fn build_turn(m: &Merged) -> TurnRules {
    let bool_of = |k: Key, default: bool| match m.setting(k) {
        Some(Setting::Bool(b)) => *b,
        _ => default,
    };
    TurnRules {
        forced_pass_keeps_extra: bool_of(Key::PassExtra(true), false),
        forced_pass_clause: m.clause(Key::PassExtra(true)),
        voluntary_pass_keeps_extra: bool_of(Key::PassExtra(false), true),
        bound_pass_ends_turn: bool_of(Key::BoundThrow, false),
        held_extra: m.get(Key::HeldExtra).is_some(),
        held_extra_clause: m.clause(Key::HeldExtra),
    }
}
