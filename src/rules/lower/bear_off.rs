//! Building how a piece bears off: the throw that takes it off (exact past
//! the end, exact to the last square, or any beyond), the region all of a
//! side's pieces must stand in first, and whether bearing off may be
//! declined (KD-6).

use super::*;

impl Lowerer<'_> {
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
