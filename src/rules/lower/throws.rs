//! Lowering the throws: sticks and their throw map, or a die, and the
//! throws that give another throw.

use super::*;

impl Lowerer<'_> {
    /// `throws with a die of 4 faces: 1, 2, 3, 4` (BL-2).
    pub(super) fn lower_die(
        &mut self,
        layer: usize,
        d: &Decl,
        faces: &ast::Spanned<u32>,
        values: &[ast::Spanned<u32>],
    ) -> Option<(Key, Setting)> {
        let n = self.small(layer, faces, 2, 31, "the number of faces")?;
        let vals: Vec<u8> = values
            .iter()
            .filter_map(|v| self.small(layer, v, 1, 31, "a throw value"))
            .collect();
        if values.len() != n as usize {
            // Reported once; the throws are still declared, so no
            // `missing` error follows.
            self.bad(
                layer,
                &d.span,
                format!("a die of {n} faces lists {} values", values.len()),
                format!("{} values for {n} faces", values.len()),
                format!(
                    "give one value per face, e.g. `throws with a die of {n} faces: {}`",
                    (1..=n)
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
        (!vals.is_empty()).then_some((
            Key::Throws,
            Setting::Throws {
                sticks: 0,
                values: vals,
                die: true,
            },
        ))
    }

    /// `throws with 4 sticks: 0 -> 5, 1 -> 1, ...`: one value for each
    /// count of marked sides.
    pub(super) fn lower_sticks(
        &mut self,
        layer: usize,
        d: &Decl,
        sticks: &ast::Spanned<u32>,
        map: &[(ast::Spanned<u32>, ast::Spanned<u32>)],
    ) -> Option<(Key, Setting)> {
        let n = self.small(layer, sticks, 1, 8, "the number of sticks")?;
        let mut values: Vec<Option<u8>> = vec![None; n as usize + 1];
        let mut ok = true;
        for (k, v) in map {
            let val = self.small(layer, v, 1, 31, "a throw value");
            if k.node > n as u32 {
                self.errors.push(RuleError::ThrowMapRange {
                    src: self.src(layer),
                    span: mspan(k.span.start, k.span.end),
                    what: format!("{} marked sides cannot show with {n} sticks", k.node),
                    label: format!("more than {n}"),
                    help: format!("count marked sides from 0 to {n}"),
                });
                ok = false;
            } else if values[k.node as usize].is_some() {
                self.errors.push(RuleError::ThrowMapRange {
                    src: self.src(layer),
                    span: mspan(k.span.start, k.span.end),
                    what: format!("the throw map gives {} marked sides twice", k.node),
                    label: "given again".into(),
                    help: "give one value for each count of marked sides".into(),
                });
                ok = false;
            } else {
                values[k.node as usize] = val;
                ok &= val.is_some();
            }
        }
        let missing: Vec<String> = (0..=n)
            .filter(|&k| {
                values[k as usize].is_none() && !map.iter().any(|(m, _)| m.node == k as u32)
            })
            .map(|k| k.to_string())
            .collect();
        if !missing.is_empty() {
            let example = (0..=n)
                .map(|k| format!("{k} -> {}", if k == 0 { n + 1 } else { k }))
                .collect::<Vec<_>>()
                .join(", ");
            self.errors.push(RuleError::ThrowMapIncomplete {
                src: self.src(layer),
                span: mspan(d.span.start, d.span.end),
                missing: missing.join(", "),
                sticks: n as u32,
                example: format!("throws with {n} sticks: {example}"),
            });
            ok = false;
        }
        ok.then(|| {
            (
                Key::Throws,
                Setting::Throws {
                    sticks: n,
                    values: values.into_iter().map(|v| v.unwrap_or(0)).collect(),
                    die: false,
                },
            )
        })
    }

    /// `extra throw on 1, 4, 5`.
    pub(super) fn lower_extra(
        &mut self,
        layer: usize,
        vs: &[ast::Spanned<u32>],
    ) -> Option<(Key, Setting)> {
        let values: Vec<u8> = vs
            .iter()
            .filter_map(|v| self.small(layer, v, 1, 31, "a throw value"))
            .collect();
        Some((Key::Extra, Setting::Values(values)))
    }

    /// The throws and which of them give another throw; both must be
    /// declared.
    pub(super) fn build_throws(&mut self, m: &Merged, top: usize) -> Option<Throws> {
        let Some(Item {
            setting:
                Setting::Throws {
                    sticks,
                    values,
                    die,
                },
            clause,
            ..
        }) = m.get(Key::Throws)
        else {
            self.missing(
                top,
                "what the throws are worth",
                "throws with 4 sticks: 0 -> 5, 1 -> 1, 2 -> 2, 3 -> 3, 4 -> 4",
            );
            return None;
        };
        let (extra, extra_clause) = match m.get(Key::Extra) {
            Some(Item {
                setting: Setting::Values(v),
                clause,
                ..
            }) => (bits(v), clause.clone()),
            _ => {
                self.missing(
                    top,
                    "which throws give another throw",
                    "extra throw on 1, 4, 5",
                );
                (0, String::new())
            }
        };
        Some(Throws {
            sticks: *sticks,
            values: values.clone(),
            die: *die,
            extra,
            clause: clause.clone(),
            extra_clause,
        })
    }
}
