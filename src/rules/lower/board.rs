//! Lowering the board and what stands on it before the first move: the
//! header (title, source, status), the board's size, the houses, the
//! number of pieces and each side's setup.

use super::*;

impl Lowerer<'_> {
    /// `board 30 squares in rows of 10`.
    pub(super) fn lower_board(
        &mut self,
        layer: usize,
        len: &ast::Spanned<u32>,
        row_len: &ast::Spanned<u32>,
    ) -> Option<(Key, Setting)> {
        let l = self.small(layer, len, 2, 62, "the number of squares");
        let r = self.small(layer, row_len, 1, 62, "the row length");
        Some((
            Key::Board,
            Setting::Board {
                len: l?,
                row_len: r?,
            },
        ))
    }

    /// `house water = 27 "House of Water" glyph "𓈗"`.
    pub(super) fn lower_house(
        &mut self,
        layer: usize,
        ident: &ast::Spanned<String>,
        square: &ast::Spanned<u32>,
        name: &str,
        glyph: &Option<String>,
    ) -> Option<(Key, Setting)> {
        let sq = ast::Spanned::new(SquareRef::Number(square.node), square.span);
        let s = self.square(layer, &sq)?;
        Some((
            Key::House(s),
            Setting::House {
                ident: ident.node.clone(),
                name: name.to_string(),
                glyph: glyph.clone(),
            },
        ))
    }

    /// `pieces 5 per side`.
    pub(super) fn lower_pieces(
        &mut self,
        layer: usize,
        n: &ast::Spanned<u32>,
    ) -> Option<(Key, Setting)> {
        let n = self.small(layer, n, 1, 31, "the number of pieces per side")?;
        Some((Key::Pieces, Setting::Count(n)))
    }

    /// Every rule set needs a title.
    pub(super) fn build_title(&mut self, m: &Merged, top: usize) {
        if m.get(Key::Title).is_none() {
            self.missing(top, "its title", "title \"Kendall-style rules\"");
        }
    }

    pub(super) fn build_board(&mut self, m: &Merged, top: usize) -> Option<Board> {
        match m.setting(Key::Board) {
            Some(Setting::Board { len, row_len }) => Some(Board {
                len: *len,
                row_len: *row_len,
            }),
            _ => {
                self.missing(
                    top,
                    "how big the board is",
                    "board 30 squares in rows of 10",
                );
                None
            }
        }
    }

    pub(super) fn build_pieces(&mut self, m: &Merged, top: usize) -> Option<u8> {
        match m.setting(Key::Pieces) {
            Some(Setting::Count(n)) => Some(*n),
            _ => {
                self.missing(top, "how many pieces each side has", "pieces 5 per side");
                None
            }
        }
    }

    /// Each side's starting squares, checked against the number of pieces
    /// and against each other.
    pub(super) fn build_setup(
        &mut self,
        m: &Merged,
        top: usize,
        pieces: Option<u8>,
    ) -> [Vec<u8>; 2] {
        let mut setup: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
        for side in Side::BOTH {
            match m.get(Key::Setup(side)) {
                Some(Item {
                    setting: Setting::Squares(s),
                    span,
                    layer,
                    ..
                }) => {
                    setup[side.index()] = s.iter().collect();
                    // An empty setup is `in hand`: every piece enters (PC-1).
                    if let Some(p) = pieces
                        && s.len() != p as u32
                        && !s.is_empty()
                    {
                        self.errors.push(RuleError::SetupCount {
                            src: self.src(*layer),
                            span: mspan(span.start, span.end),
                            side: side.name().to_string(),
                            count: s.len() as usize,
                            pieces: p,
                        });
                    }
                }
                _ => self.missing(
                    top,
                    &format!("where {} starts", side.name()),
                    &format!("setup {} on 1, 3, 5, 7, 9", side.name().to_lowercase()),
                ),
            }
        }
        if let (Some(w), Some(b)) = (
            m.get(Key::Setup(Side::White)),
            m.get(Key::Setup(Side::Black)),
        ) && let (Setting::Squares(ws), Setting::Squares(bs)) = (&w.setting, &b.setting)
            && let Some(sq) = SquareSet(ws.0 & bs.0).iter().next()
        {
            let other = if w.layer == b.layer {
                Some(mspan(w.span.start, w.span.end))
            } else {
                None
            };
            self.errors.push(RuleError::SetupOverlap {
                src: self.src(b.layer),
                span: mspan(b.span.start, b.span.end),
                other,
                square: sq,
                side: "Black".into(),
                other_side: "White".into(),
            });
        }
        setup
    }
}

/// The named houses, by square.
pub(super) fn build_houses(m: &Merged) -> Vec<House> {
    m.items()
        .filter_map(|(k, i)| match (k, &i.setting) {
            (Key::House(s), Setting::House { name, glyph, .. }) => Some(House {
                square: *s,
                name: name.clone(),
                glyph: glyph.clone(),
                clause: i.clause.clone(),
            }),
            _ => None,
        })
        .collect()
}
