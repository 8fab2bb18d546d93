//! Lowering how a game opens: who moves first, the constraints on each
//! side's first unit (K-5, K-7) and the starting throw (KD-10).

use super::*;

impl Lowerer<'_> {
    /// `opening black: throw 1 from 10 else pass`.
    pub(super) fn lower_opening(
        &mut self,
        layer: usize,
        d: &Decl,
        side: Side,
        throw: &Option<ast::Spanned<u32>>,
        from: &Option<ast::Spanned<SquareRef>>,
        lapse: Lapse,
    ) -> Option<(Key, Setting)> {
        if throw.is_none() && from.is_none() {
            self.bad(
                layer,
                &d.span,
                "an opening constraint must name a throw, a square or both",
                "constrains nothing",
                "write e.g. `opening black: throw 1 from 10` or `opening white: from 9 else any move`",
            );
            return None;
        }
        let t = throw
            .as_ref()
            .and_then(|t| self.small(layer, t, 1, 31, "a throw value"));
        let f = from.as_ref().and_then(|f| self.square(layer, f));
        if throw.is_some() && t.is_none() || from.is_some() && f.is_none() {
            return None;
        }
        Some((
            Key::Opening(side),
            Setting::Opening {
                throw: t,
                from: f,
                lapse,
            },
        ))
    }

    /// `first move only with 6` (KD-10).
    pub(super) fn lower_start_throw(
        &mut self,
        layer: usize,
        t: &ast::Spanned<u32>,
        side: Option<Side>,
        counted: bool,
    ) -> Option<(Key, Setting)> {
        let t = self.small(layer, t, 1, 31, "a throw value")?;
        Some((
            Key::StartThrow,
            Setting::StartThrow {
                throw: t,
                side,
                counted,
            },
        ))
    }

    pub(super) fn build_starter(&mut self, m: &Merged, top: usize) -> Option<Starter> {
        match m.get(Key::Starter) {
            Some(Item {
                setting: Setting::Starter(Some(s)),
                clause,
                ..
            }) => Some(Starter::Fixed(*s, clause.clone())),
            Some(Item {
                setting: Setting::Starter(None),
                clause,
                ..
            }) => Some(Starter::ByLot(clause.clone())),
            _ => {
                self.missing(top, "who moves first", "starter white");
                None
            }
        }
    }
}

pub(super) fn build_opening(m: &Merged) -> Vec<OpeningRule> {
    m.items()
        .filter_map(|(k, i)| match (k, &i.setting) {
            (Key::Opening(side), Setting::Opening { throw, from, lapse }) => Some(OpeningRule {
                side: *side,
                throw: *throw,
                from: *from,
                lapse: *lapse,
                clause: i.clause.clone(),
            }),
            _ => None,
        })
        .collect()
}
