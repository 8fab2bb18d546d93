//! Building how a piece bears off: the throw that takes it off (exact past
//! the end, exact to the last square, or any beyond), the region all of a
//! side's pieces must stand in first, and whether bearing off may be
//! declined (KD-6).

use super::*;

impl Lowerer<'_> {
    /// `bear off without a throw from SQUARE when all pieces on SQUARES`:
    /// the square must lie in the region, or the bear-off is never due.
    pub(super) fn lower_bear_off_without_throw(
        &mut self,
        layer: usize,
        from: &ast::Spanned<SquareRef>,
        region: &ast::SquareSetAst,
    ) -> Option<(Key, Setting)> {
        let set = self.squares(layer, region);
        let square = self.square(layer, from)?;
        if !set.contains(square) {
            self.bad(
                layer,
                &from.span,
                format!(
                    "square {square} is not among the squares all pieces must stand on, so the bear-off is never due"
                ),
                "not in the region",
                format!("write a square of the region, or add {square} to it"),
            );
            return None;
        }
        Some((
            Key::BearOff,
            Setting::Reach(Reach::WithoutThrow {
                from: square,
                region: set,
            }),
        ))
    }

    pub(super) fn build_bear_off(&mut self, m: &Merged, top: usize) -> BearOff {
        BearOff {
            all_in: match m.setting(Key::BearOffAllIn) {
                Some(Setting::Squares(s)) => Some(*s),
                _ => None,
            },
            all_in_clause: m.clause(Key::BearOffAllIn),
            reach: match m.setting(Key::BearOff) {
                Some(Setting::Reach(r)) => *r,
                _ => {
                    self.missing(
                        top,
                        "how a piece bears off",
                        "bear off by exact throw past the end",
                    );
                    Reach::ExactPast
                }
            },
            clause: m.clause(Key::BearOff),
        }
    }
}
