//! Blockades: runs of pieces that no move may pass over (K-10, R-5).
//!
//! The model value with its clauses, the masks of the blocked moves for
//! the generator's stages, and its words: how `senet rules show`
//! says it, its token in `senet rules summary`, and how a move it refuses
//! reads.

use super::words::*;
use crate::engine::mask_of;
use crate::engine::*;

/// A blockade: a run of `length` pieces that no move may pass over.
#[derive(Debug, Clone, PartialEq)]
pub struct Blockade {
    pub length: u8,
    pub of: BlockadeKind,
    /// `where runs count`: only pieces on these squares (the squares where
    /// runs count) form the blockade; `None`: pieces anywhere.
    pub within: Option<SquareSet>,
    pub clause: Clause,
}

impl Blockade {
    /// The squares whose pieces may form this blockade, as a mask.
    #[inline(always)]
    fn counted(&self) -> u64 {
        self.within.map_or(u64::MAX, |w| w.0)
    }

    /// Whether this blockade may stop a move whose path and target are
    /// `reach` (the squares `blocked` looks at: the path, and for a group
    /// its target too): some square of it counts (`where runs count`).
    pub(crate) fn may_stop(&self, reach: u64) -> bool {
        self.length > 0 && reach & self.counted() != 0
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockadeKind {
    /// Pieces of the mover's opponent (K-10).
    Opposing,
    /// Pieces all of one colour, either colour.
    OneColour,
    /// Any pieces, mixed colours (R-5b).
    Any,
    /// A piece of an opposing group (pieces connected through grid
    /// neighbours, `groups.rs`) of `length` or more, anywhere from the
    /// square after the mover's to the target, the target included, in
    /// either direction.
    OpposingGroup,
}

// Words.

/// `rules show`: the blockades declared on one line.
pub fn sentence(blockades: &[(u8, BlockadeKind, bool)]) -> String {
    if blockades.is_empty() {
        return "No blockades.".into();
    }
    blockades
        .iter()
        .map(|(len, of, where_runs)| {
            let whose = match of {
                BlockadeKind::Opposing => "opposing pieces",
                BlockadeKind::OneColour => "pieces of one colour (either colour)",
                BlockadeKind::Any => "pieces (any colours)",
                BlockadeKind::OpposingGroup => {
                    let only = if *where_runs {
                        ", counting only pieces on the squares where runs count"
                    } else {
                        ""
                    };
                    return format!(
                        "No move, forward or backward, may pass over or land on a piece of an opposing group of {len} or more (pieces connected side by side in a row of the board or one above another){only}."
                    );
                }
            };
            let only = if *where_runs {
                ", counting only pieces on the squares where runs count"
            } else {
                ""
            };
            format!("No move may pass over {len} {whose} on consecutive squares{only}.")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

impl Blockade {
    /// The `rules summary` line.
    pub fn token(&self) -> String {
        format!(
            "blockade: {} {:?}{}{}",
            self.length,
            self.of,
            self.within
                .map_or(String::new(), |w| format!(" within {}", set_token(w))),
            cl(&self.clause)
        )
    }
}

/// A move refused for passing over the blockade `i` of the rule set.
pub(crate) fn refused(cx: &Refused, i: u8) -> Said {
    let b = &cx.rules.blockades()[i as usize];
    let kind = match b.of {
        BlockadeKind::Opposing => format!("{} {} pieces", b.length, cx.side().other()),
        BlockadeKind::OneColour => format!("{} adjacent pieces of one colour", b.length),
        BlockadeKind::Any => format!("{} adjacent pieces", b.length),
        BlockadeKind::OpposingGroup => {
            return Said::new(
                "blockade in the way",
                format!(
                    "the move from {} passes over or lands on a piece of a group of {} or more {} pieces, which blocks the way",
                    cx.refusal.from,
                    b.length,
                    cx.side().other()
                ),
            );
        }
    };
    Said::new(
        "blockade in the way",
        format!(
            "the move from {} passes over {kind} in a row, which block the way",
            cx.refusal.from
        ),
    )
}

// The generator's side: the blockades on a move's path, one move at a time
// (`blocked`, as `attempt` and a bear-off ask) and for every piece at once
// (`blocked_steps`, as the forward and backward stages ask).

/// A blockade of consecutive pieces (of the opponent, of one colour or of
/// any colours) as masks, so that its runs are found with no branch on its
/// kind: the runs are those of `(opp | me & any) & counted` and of
/// `me & one & counted`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RunBlockade {
    /// The run's length, at least 1.
    n: u32,
    /// The squares whose pieces count (`where runs count`), else all.
    counted: u64,
    /// All ones when the mover's pieces join the opponent's in one run
    /// (any colours).
    any: u64,
    /// All ones when the mover's own pieces form runs of their own (one
    /// colour, either colour).
    one: u64,
    /// The doublings a spread over the path needs at most: the base-2
    /// logarithm of the longest distance over which a run may lie inside
    /// a path, from the largest throw of the tables.
    levels: u32,
}

/// The blockade tables: a rule set with a single blockade of consecutive
/// pieces has it as masks (`RunBlockade`), a single group blockade its
/// own path (`group`); any other (none, several) keeps the loop over its
/// blockades, as does the test of one move's path (`blocked`).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct BlockadeRuns {
    pub single: Option<RunBlockade>,
    /// A single blockade of an opposing group (MC-5): its length and the
    /// squares whose pieces count.
    group: Option<(u8, u64)>,
    /// Bit `s` (below 63) set when no move of `s` squares can pass any
    /// blockade of the rule set: a run of `n` pieces never lies wholly
    /// strictly inside a path of `n` squares or fewer, and a move of 0
    /// squares passes nothing. Bit 63 is never set, so that longer steps
    /// are always looked at; 0 (the default, without tables): every step
    /// is.
    never: u64,
}

impl BlockadeRuns {
    /// The tables of `blockades` in a rule set whose tabled throws (the
    /// only steps `blocked_steps` is asked about) are the bits of `throws`.
    pub(crate) fn compile(blockades: &[Blockade], throws: u32) -> BlockadeRuns {
        let longest = 31 - (throws | 1).leading_zeros();
        let single = match blockades {
            [b] if b.length > 0 && b.of != BlockadeKind::OpposingGroup => Some(RunBlockade {
                n: u32::from(b.length),
                counted: b.counted(),
                any: mask_of(b.of == BlockadeKind::Any),
                one: mask_of(b.of == BlockadeKind::OneColour),
                levels: 31 - (longest.saturating_sub(u32::from(b.length)) | 1).leading_zeros(),
            }),
            _ => None,
        };
        let group = match blockades {
            [b] if b.length > 0 && b.of == BlockadeKind::OpposingGroup => {
                Some((b.length, b.counted()))
            }
            _ => None,
        };
        let never = blockades.iter().fold(u64::MAX, |m, b| {
            m & match (b.length, b.of) {
                (0, _) => u64::MAX,
                // Every square from the one after the mover's to the
                // target counts: only a move of 0 squares passes none.
                (_, BlockadeKind::OpposingGroup) => 1,
                // Steps 0 ..= n.
                (n, _) => (2u64 << n.min(62)) - 1,
            }
        });
        BlockadeRuns {
            single,
            group,
            never: never & !(1 << 63),
        }
    }
}

impl RunBlockade {
    /// The first squares of the runs that form the blockade, its length
    /// being `n` (a constant where the caller names one: the shift-ands
    /// are then straight code).
    #[inline(always)]
    fn starts(&self, n: u32, me: u64, opp: u64) -> u64 {
        let mixed = (opp | (me & self.any)) & self.counted;
        let mut r = run_starts(mixed, n);
        // (The same way in every position of the rule set.)
        if self.one != 0 {
            r |= run_starts(me & self.one & self.counted, n);
        }
        r
    }

    /// `Ruleset::blocked_steps` for this blockade, its length being `n`.
    #[inline(always)]
    fn steps(&self, n: u32, me: u64, opp: u64, step: u8, backward: bool) -> u64 {
        let r = self.starts(n, me, opp);
        if r == 0 {
            // No such run on the board (most positions).
            return 0;
        }
        let k = u32::from(step).saturating_sub(n);
        if backward {
            spread_in::<true>(r << n, k, self.levels)
        } else {
            spread_in::<false>(r >> 1, k, self.levels)
        }
    }
}

impl Ruleset {
    /// The squares from which a move of `step` squares (backward when
    /// `backward`) passes a blockade: some blockade's run of `length`
    /// pieces lies wholly strictly between the two ends, as
    /// `Ruleset::blocked` finds on the move's path.
    // A step too short to pass any blockade (with the four sticks' throws,
    // most steps of a blockade of three) is 0 by one test of the tables,
    // without the call (whose registers are saved even on the way out).
    #[inline(always)]
    pub(crate) fn blocked_steps(&self, me: u64, opp: u64, step: u8, backward: bool) -> u64 {
        if self.tables.blockade.never >> step.min(63) & 1 != 0 {
            return 0;
        }
        self.blocked_steps_by(me, opp, step, backward)
    }

    /// [`blocked_steps`](Self::blocked_steps) for a step that may pass a
    /// blockade.
    // Branch-free in the position: `spread` take the distance as a
    // number, so no loop ends on a mispredicted branch, and a single
    // blockade of consecutive pieces is masks (`BlockadeRuns`). Out of
    // line: inlined into the forward stage, it cost the rule sets without
    // a blockade 8 instructions per unit there (registers spilled in the
    // inlined loop).
    #[inline(never)]
    fn blocked_steps_by(&self, me: u64, opp: u64, step: u8, backward: bool) -> u64 {
        match &self.tables.blockade.single {
            // The lengths the rule sets have, with their shift-ands unrolled.
            Some(b) if b.n == 2 => b.steps(2, me, opp, step, backward),
            Some(b) if b.n == 3 => b.steps(3, me, opp, step, backward),
            Some(b) => b.steps(b.n, me, opp, step, backward),
            None => match self.tables.blockade.group {
                Some((n, counted)) => self.group_steps(opp & counted, n, step, backward),
                None => self.blocked_steps_each(me, opp, step, backward),
            },
        }
    }

    /// [`blocked_steps`](Self::blocked_steps) for a blockade of an
    /// opposing group of `n` or more, `opp` the opposing pieces that count.
    #[inline(always)]
    fn group_steps(&self, opp: u64, n: u8, step: u8, backward: bool) -> u64 {
        // Every square from the one after the mover's to the target
        // counts: forward from s, a member on s+1 ..= s+step; backward, on
        // s-step ..= s-1.
        let g = self.in_groups(opp, n);
        if g == 0 {
            // No such group on the board (most positions).
            return 0;
        }
        let k = u32::from(step);
        if backward {
            spread::<true>(g << 1, k)
        } else {
            spread::<false>(g >> 1, k)
        }
    }

    /// [`blocked_steps`](Self::blocked_steps) blockade by blockade.
    // Out of line: inlined, its registers were saved and restored on every
    // call of the single blockade's masks as well.
    #[inline(never)]
    fn blocked_steps_each(&self, me: u64, opp: u64, step: u8, backward: bool) -> u64 {
        let mut m = 0;
        for b in &self.blockades {
            let n = u32::from(b.length);
            if n == 0 {
                continue;
            }
            let (me, opp) = (me & b.counted(), opp & b.counted());
            let r = match b.of {
                BlockadeKind::Opposing => run_starts(opp, n),
                BlockadeKind::OneColour => run_starts(opp, n) | run_starts(me, n),
                BlockadeKind::Any => run_starts(opp | me, n),
                BlockadeKind::OpposingGroup => {
                    m |= self.group_steps(opp, b.length, step, backward);
                    continue;
                }
            };
            if r == 0 {
                // No such run on the board (most positions: a test that
                // is nearly always taken the same way).
                continue;
            }
            // Forward from s: a run starting on s+1 ..= s+step-n; backward
            // from s: on s-step+1 ..= s-n. None when n >= step: a run
            // never lies wholly strictly inside the path.
            let k = u32::from(step).saturating_sub(n);
            m |= if backward {
                spread::<true>(r << n, k)
            } else {
                spread::<false>(r >> 1, k)
            };
        }
        m
    }
}

/// The first squares of `n` (>= 1) consecutive set bits of `bits`, by
/// doubling: windows of 1, 2, 4, ... squares, then one last shift-and.
#[inline(always)]
fn run_starts(bits: u64, n: u32) -> u64 {
    let (mut a, mut w) = (bits, 1);
    while 2 * w <= n {
        a &= a >> w;
        w *= 2;
    }
    // `a` holds the starts of `w`-windows, `n - w < w`: two overlapping
    // windows make the `n`-window.
    a & (a >> (n - w))
}

/// `x` moved `n` squares toward the higher squares when `UP`, else
/// toward the lower ones.
#[inline(always)]
fn shift<const UP: bool>(x: u64, n: u32) -> u64 {
    if UP { x << n } else { x >> n }
}

/// The windows of `k` (< 32) squares: `x` moved by `j` squares (toward
/// the higher squares when `UP`, else toward the lower ones) for `j` in
/// `0..k`, or'ed. Widths 1, 2, 4, 8 and 16 by doubling; `k` is covered by
/// two windows of the largest of them not above it, the second moved by
/// the rest.
#[inline(always)]
pub(crate) fn spread<const UP: bool>(x: u64, k: u32) -> u64 {
    debug_assert!(k < 32);
    let w2 = x | shift::<UP>(x, 1);
    let w4 = w2 | shift::<UP>(w2, 2);
    let w8 = w4 | shift::<UP>(w4, 4);
    let w16 = w8 | shift::<UP>(w8, 8);
    let lg = 31 - (k | 1).leading_zeros();
    let w = [x, w2, w4, w8, w16][lg as usize];
    (w | shift::<UP>(w, k.saturating_sub(1 << lg))) & mask_of(k != 0)
}

/// [`spread`] for `k` below `2 << levels`, with `levels` doublings (a
/// number fixed by the rule set: a loop the branch predictor learns).
#[inline(always)]
fn spread_in<const UP: bool>(x: u64, k: u32, levels: u32) -> u64 {
    let lg = 31 - (k | 1).leading_zeros();
    debug_assert!(
        lg <= levels,
        "a step of {k} beyond the rule set's largest throw"
    );
    let mut w = x;
    for i in 0..levels {
        w |= shift::<UP>(w, 1 << i) & mask_of(i < lg);
    }
    (w | shift::<UP>(w, k.saturating_sub(1 << lg))) & mask_of(k != 0)
}

impl Ruleset {
    /// The first blockade found on `path` (the squares strictly between
    /// a move's ends) or, for a blockade that counts it, on the square
    /// `target`, as an index into `blockades`.
    // The masks with the lengths the rule sets have unrolled, and the loop
    // out of line: its registers were saved on every call.
    #[inline(never)]
    pub(crate) fn blocked(&self, pos: &Position, path: u64, target: u8) -> Option<u8> {
        // Without tables (the referee) the loop decides, so that the masks
        // are compared with it.
        if self.tables.enabled
            && let Some(b) = &self.tables.blockade.single
        {
            let me = pos.pieces[pos.to_move.index()].0 & path;
            let opp = pos.pieces[pos.to_move.other().index()].0 & path;
            let r = match b.n {
                2 => b.starts(2, me, opp),
                3 => b.starts(3, me, opp),
                n => b.starts(n, me, opp),
            };
            return (r != 0).then_some(0);
        }
        self.blocked_each(pos, path, target)
    }

    /// [`blocked`](Self::blocked) blockade by blockade.
    #[inline(never)]
    fn blocked_each(&self, pos: &Position, path: u64, target: u8) -> Option<u8> {
        let me = pos.pieces[pos.to_move.index()].0 & path;
        let opp = pos.pieces[pos.to_move.other().index()].0 & path;
        for (i, b) in self.blockades.iter().enumerate() {
            let (me, opp) = (me & b.counted(), opp & b.counted());
            let hit = match b.of {
                BlockadeKind::Opposing => has_run(opp, b.length),
                BlockadeKind::OneColour => has_run(opp, b.length) || has_run(me, b.length),
                BlockadeKind::Any => has_run(opp | me, b.length),
                BlockadeKind::OpposingGroup => {
                    // Groups of the opposing pieces that count (`where
                    // runs count`), wherever on the board, not of those on
                    // the path alone.
                    let all = pos.pieces[pos.to_move.other().index()].0 & b.counted();
                    let on = path | 1u64.checked_shl(u32::from(target)).unwrap_or(0);
                    self.in_groups(all, b.length) & on != 0
                }
            };
            if hit {
                return Some(i as u8);
            }
        }
        None
    }
}

/// Whether `bits` holds `n` consecutive set bits.
fn has_run(bits: u64, n: u8) -> bool {
    let mut acc = bits;
    for i in 1..n {
        acc &= bits >> i;
    }
    n > 0 && acc != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testing::{random_position, variants};
    use rand::SeedableRng;
    use rand_pcg::Pcg64;

    /// A step that the tables say passes no blockade has no blocked
    /// square, in every variant of the rule sets, forward and backward,
    /// with the group blockade's and the loop's forms too.
    #[test]
    fn steps_that_pass_no_blockade_are_skipped() {
        let mut rng = Pcg64::seed_from_u64(11);
        let mut skipped = 0;
        for (name, rules) in variants() {
            let never = rules.tables.blockade.never;
            let max = rules.throws.values.iter().copied().max().unwrap_or(0);
            assert_eq!(never >> 63, 0, "{name}");
            for _ in 0..100 {
                let pos = random_position(&rules, &mut rng);
                let me = pos.pieces[pos.to_move.index()].0;
                let opp = pos.pieces[pos.to_move.other().index()].0;
                // (The masks cover the steps up to the largest throw.)
                for step in 0..=max {
                    for backward in [false, true] {
                        let by = rules.blocked_steps_by(me, opp, step, backward);
                        let each = rules.blocked_steps_each(me, opp, step, backward);
                        assert_eq!(by, each, "{name}: step {step}");
                        assert_eq!(rules.blocked_steps(me, opp, step, backward), by);
                        if never >> step & 1 != 0 {
                            assert_eq!(by, 0, "{name}: step {step}");
                            skipped += 1;
                        }
                    }
                }
            }
        }
        assert!(skipped > 0);
    }

    /// The steps the tables skip, pinned for the built-in blockades: a run
    /// of `n` is skipped for steps 0 ..= n, a group blockade for step 0
    /// only, no blockade for every step but the 64th bit's.
    #[test]
    fn the_skipped_steps_of_the_built_in_blockades() {
        for (name, never) in [
            ("kendall", 0b1111),
            ("gym-senet-kendall", 0b1111),
            ("jequier", 0b1111),
            ("ryabinin", 0b111),
            ("macabot", 0b1),
            ("bga", u64::MAX >> 1),
        ] {
            let rules = crate::rules::load(name, None, &[]).expect("built-in compiles");
            assert_eq!(rules.tables.blockade.never, never, "{name}");
        }
    }

    /// The doubling forms against the loops they replace, over every
    /// length and distance a rule set can have and a spread of boards.
    #[test]
    fn doubling_equals_the_loops() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let bits = x & x.rotate_left(11);
            for n in 1..=20u32 {
                let mut r = bits;
                for i in 1..n {
                    r &= bits >> i;
                }
                assert_eq!(run_starts(bits, n), r, "{bits:#x} {n}");
            }
            for k in 0..32u32 {
                let (mut down, mut up) = (0, 0);
                for j in 0..k {
                    down |= bits >> j;
                    up |= bits << j;
                }
                assert_eq!(spread::<false>(bits, k), down, "{bits:#x} {k}");
                assert_eq!(spread::<true>(bits, k), up, "{bits:#x} {k}");
                let lg = 31 - (k | 1).leading_zeros();
                for levels in lg..5 {
                    assert_eq!(spread_in::<false>(bits, k, levels), down, "{bits:#x} {k}");
                    assert_eq!(spread_in::<true>(bits, k, levels), up, "{bits:#x} {k}");
                }
            }
        }
    }
}
