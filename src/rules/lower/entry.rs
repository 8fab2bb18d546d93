//! Lowering entry from the hand (PC-1, PC-2): the square a piece enters
//! on, the throws that enter, and whether entering gives a bound throw;
//! and the check that rules which put pieces in the hand say how they
//! enter.

use super::*;

impl Lowerer<'_> {
    /// `enter from hand on 1 with 1, 4 giving a bound extra throw`.
    pub(super) fn lower_enter(
        &mut self,
        layer: usize,
        square: &ast::Spanned<SquareRef>,
        throws: &[ast::Spanned<u32>],
        bound: bool,
    ) -> Option<(Key, Setting)> {
        let square = self.square(layer, square)?;
        let throws: Vec<u8> = throws
            .iter()
            .filter_map(|v| self.small(layer, v, 1, 31, "a throw value"))
            .collect();
        Some((
            Key::Enter,
            Setting::Enter {
                square,
                throws,
                bound,
            },
        ))
    }

    /// The entry rule, checked against the throws, and required when
    /// pieces start in the hand or go back to it.
    pub(super) fn build_entry(&mut self, m: &Merged, top: usize, all_throws: u32) -> Option<Entry> {
        let entry = match m.get(Key::Enter) {
            Some(Item {
                setting:
                    Setting::Enter {
                        square,
                        throws,
                        bound,
                    },
                clause,
                ..
            }) => Some(Entry {
                square: *square,
                throws: bits(throws),
                bound_extra: *bound,
                clause: clause.clone(),
            }),
            _ => None,
        };
        // PC-2: an entry throw the sticks can never show enters nothing.
        if let (Some(e), Some(i)) = (&entry, m.get(Key::Enter))
            && e.throws & !all_throws != 0
        {
            let never: Vec<u8> = (0..32u8)
                .filter(|v| e.throws & !all_throws & (1 << v) != 0)
                .collect();
            self.errors.push(RuleError::Conflict {
                src: self.src(i.layer),
                span: mspan(i.span.start, i.span.end),
                other: None,
                what: format!(
                    "pieces enter with a throw of {}, which no throw of these rules gives",
                    list(&never)
                ),
                label: "never thrown".into(),
                help: "enter with throw values that the throw map gives".into(),
            });
        }
        // Pieces that start in hand or go back to it need a way to enter.
        let in_hand =
            |side| matches!(m.setting(Key::Setup(side)), Some(Setting::Squares(s)) if s.is_empty());
        let uses_hand = Side::BOTH.into_iter().any(in_hand)
            || m.items().any(|(k, i)| {
                matches!(k, Key::Square(SquareKind::StuckToHand, _))
                    || matches!(i.setting, Setting::Landing(Relocation::Hand, _))
                    || matches!(&i.setting, Setting::Lock(l) if l.otherwise == Relocation::Hand)
            });
        if uses_hand && entry.is_none() {
            self.missing(
                top,
                "how pieces enter from the hand (pieces start there or go back there)",
                "enter from hand on 1 with 1",
            );
        }
        entry
    }
}
