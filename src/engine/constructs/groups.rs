//! Groups: one side's pieces connected through grid neighbours, the
//! squares next to each other on the board as it lies on the table
//! rather than along the track. Protection (`group >= 2`) and blockades
//! (`3 opposing in a group`) count them.
//!
//! The grid neighbours of a square are the squares beside it in its row
//! of the board and the squares above and below it in the neighbouring
//! rows. The track runs boustrophedon, so on a board in rows of 10 the
//! square below 1 is 20 and the square below 11 is 30, while 9 and 12,
//! three squares apart along the track, are not neighbours at all.

use crate::engine::constructs::blockade::spread;
use crate::engine::{Board, Ruleset, mask_of};

impl Board {
    /// The grid neighbours of `square`, as a square set (bit `s` = square
    /// `s`).
    pub fn grid_neighbours(&self, square: u8) -> u64 {
        let w = self.row_len;
        let row = self.row_of(square);
        // The column, from the board's left edge.
        let index = (square - 1) % w;
        let col = if row.is_multiple_of(2) {
            index
        } else {
            w - 1 - index
        };
        let at = |row: u8| -> u64 {
            let index = if row.is_multiple_of(2) {
                col
            } else {
                w - 1 - col
            };
            let s = u32::from(row) * u32::from(w) + u32::from(index) + 1;
            if s <= u32::from(self.len) {
                1u64 << s
            } else {
                0
            }
        };
        let mut m = 0;
        if square > 1 && self.row_of(square - 1) == row {
            m |= 1u64 << (square - 1);
        }
        if square < self.len && self.row_of(square + 1) == row {
            m |= 1u64 << (square + 1);
        }
        if row > 0 {
            m |= at(row - 1);
        }
        if row + 1 < self.rows() {
            m |= at(row + 1);
        }
        m
    }

    /// The group of `square` among `pieces`: the pieces reached from it
    /// through grid neighbours (the square itself included when it holds
    /// one of them).
    pub fn group_of(&self, pieces: u64, square: u8) -> u64 {
        let mut group = pieces & (1u64 << square);
        let mut todo = group;
        while todo != 0 {
            let s = todo.trailing_zeros() as u8;
            todo &= todo - 1;
            let new = self.grid_neighbours(s) & pieces & !group;
            group |= new;
            todo |= new;
        }
        group
    }

    /// The pieces of `pieces` whose group has at least `n` pieces.
    pub fn in_groups_of(&self, pieces: u64, n: u8) -> u64 {
        let mut rest = pieces;
        let mut out = 0;
        while rest != 0 {
            let group = self.group_of(pieces, rest.trailing_zeros() as u8);
            if group.count_ones() >= u32::from(n) {
                out |= group;
            }
            rest &= !group;
        }
        out
    }
}

/// The grid neighbours of every square at once, as shifts and masks:
/// what [`Board::in_groups_of`] finds square by square, compiled with the
/// rule set ([`Grid::compile`]) for the generator's stages.
///
/// Beside each other in a row are the squares `s` and `s + 1` of one row.
/// Above and below each other are the squares of two neighbouring rows
/// `r` and `r + 1` that the track's turn mirrors: `s` and
/// `2(r + 1)w + 1 - s` on a board in rows of `w`. That is a reflection of
/// the square set, which a bit reversal and a shift make for all squares
/// of the two rows at once.
#[derive(Debug, Clone, Default)]
pub(crate) struct Grid {
    /// Squares whose next square along the track lies in their row.
    next_in_row: u64,
    /// The reflections of the first two pairs of rows (0 and 1, 1 and 2),
    /// which every board of up to three rows has at most: no loop for
    /// them. An absent pair has no squares.
    first: [RowPair; 2],
    /// The reflections of the other pairs of rows (2 and 3, ...).
    more: Vec<RowPair>,
    /// The neighbours of each square in the rows above and below.
    vertical: Vec<u64>,
    /// A board of up to three rows of 10 squares (every built-in one) as
    /// it lies on the table ([`Layout`]): `in_pairs` and
    /// `in_threes` by plain shifts there, without the bit reversal.
    layout: Option<Layout>,
}

/// A board of up to three rows of 10 squares (every built-in one) laid
/// out as it lies on the table: the square in row `r` and column `c` (from
/// the board's left edge) at bit `10r + c`. Only the middle row runs right
/// to left along the track, so one reversal of its 10 bits, from a table,
/// turns a square set into the layout and back; there the grid neighbours
/// are the cells one bit to either side in a row and 10 bits above or
/// below, all shifts by constants.
#[derive(Debug, Clone, Copy)]
struct Layout {
    /// The board's squares, `1 ..= len`, moved down to bit 0.
    board: u64,
}

/// The bits of each 10-bit number reversed.
static REV10: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut i = 0;
    while i < 1024 {
        t[i] = (i as u16).reverse_bits() >> 6;
        i += 1;
    }
    t
};

impl Layout {
    /// The row length the layout takes.
    const W: u32 = 10;
    /// The cells of one row.
    const ROW: u64 = (1 << Self::W) - 1;
    /// The cells of the three rows not in the first column, and not in
    /// the last.
    const NOT_FIRST: u64 = 0x3fe * (1 | 1 << 10 | 1 << 20);
    const NOT_LAST: u64 = 0x1ff * (1 | 1 << 10 | 1 << 20);

    /// The layout of `board`, where it has one.
    fn compile(board: Board) -> Option<Layout> {
        (u32::from(board.row_len) == Self::W && (1..=30).contains(&board.len)).then(|| Layout {
            board: (1u64 << board.len) - 1,
        })
    }

    /// The middle row's bits of `x` reversed: from squares (moved down
    /// to bit 0) to cells, and back.
    #[inline(always)]
    fn flip(x: u64) -> u64 {
        let mid = (x >> Self::W) & Self::ROW;
        let rev = u64::from(REV10[mid as usize]);
        (x & !(Self::ROW << Self::W)) | (rev << Self::W)
    }

    /// The cells of the square set `x` (squares off the board dropped).
    #[inline(always)]
    fn cells(&self, x: u64) -> u64 {
        Self::flip((x >> 1) & self.board)
    }

    /// The square set of the cells `g`.
    #[inline(always)]
    fn squares(g: u64) -> u64 {
        Self::flip(g) << 1
    }

    /// The cells with a grid neighbour in `g`, by direction, as
    /// [`Grid::sides`] (and, unlike them, with cells off the board: below
    /// the last row, beside the end of a partial row, above or below a
    /// missing row; the callers keep only cells of pieces).
    #[inline(always)]
    fn sides(g: u64) -> [u64; 4] {
        [
            (g >> 1) & Self::NOT_LAST,
            (g << 1) & Self::NOT_FIRST,
            g >> Self::W,
            g << Self::W,
        ]
    }

    /// [`Grid::in_pairs`] in the layout.
    #[inline(always)]
    fn in_pairs(&self, pieces: u64) -> u64 {
        let g = self.cells(pieces);
        let [a, b, c, d] = Self::sides(g);
        Self::squares(g & (a | b | c | d))
    }

    /// [`Grid::in_threes`] in the layout: the hubs' neighbours by shifts
    /// too.
    #[inline(always)]
    fn in_threes(&self, pieces: u64) -> u64 {
        let g = self.cells(pieces);
        let [a, b, c, d] = Self::sides(g);
        let two = (a & b) | ((a | b) & c) | ((a | b | c) & d);
        let hubs = g & two;
        if hubs == 0 {
            // No piece with two neighbours (most positions): no group of
            // three.
            return 0;
        }
        let [a, b, c, d] = Self::sides(hubs);
        Self::squares(hubs | (g & (a | b | c | d)))
    }
}

impl Layout {
    /// [`Grid::in_pairs`] and [`Grid::in_threes`] of one piece set at
    /// once, from one look at its cells: the pairs as a square set, the
    /// threes as a square set moved down one square (`>> 1`, as the group
    /// blockade's spread takes it). Without a branch on whether there is
    /// a piece with two neighbours, which follows the position (the
    /// test in `in_threes` was mispredicted about one call in six).
    #[inline(always)]
    fn pairs_and_threes(&self, pieces: u64) -> (u64, u64) {
        let g = self.cells(pieces);
        let [a, b, c, d] = Self::sides(g);
        let two = (a & b) | ((a | b) & c) | ((a | b | c) & d);
        let hubs = g & two;
        let pairs = Self::squares(g & (a | b | c | d));
        let [a, b, c, d] = Self::sides(hubs);
        (pairs, Self::flip(hubs | (g & (a | b | c | d))))
    }
}

/// The rows `r` and `r + 1`: bit `s` of a reversed square set (at
/// `63 - s`) goes to `2(r + 1)w + 1 - s` by `<< left` then `>> right`.
#[derive(Debug, Clone, Copy, Default)]
struct RowPair {
    left: u32,
    right: u32,
    /// The squares of the two rows.
    rows: u64,
    /// `r` is odd: a square's neighbour above and its neighbour below
    /// come from pairs of different parity.
    odd: usize,
}

impl RowPair {
    /// The squares of the two rows with a neighbour in the other row in
    /// `x`, given `x` reversed.
    #[inline(always)]
    fn across(&self, rev: u64) -> u64 {
        ((rev << self.left) >> self.right) & self.rows
    }
}

impl Grid {
    /// The neighbour masks of `board`.
    pub(crate) fn compile(board: Board) -> Grid {
        let w = u32::from(board.row_len.max(1));
        let len = u32::from(board.len);
        let row =
            |r: u32| -> u64 { (r * w + 1..=((r + 1) * w).min(len)).fold(0, |m, s| m | 1u64 << s) };
        let mut next_in_row = 0;
        for s in 1..len {
            if (s - 1) / w == s / w {
                next_in_row |= 1u64 << s;
            }
        }
        let rows = len.div_ceil(w);
        let mut pairs = (0..rows.saturating_sub(1)).map(|r| {
            let k = 2 * (r + 1) * w + 1;
            RowPair {
                left: k.saturating_sub(63),
                right: 63u32.saturating_sub(k),
                rows: row(r) | row(r + 1),
                odd: (r % 2) as usize,
            }
        });
        let first = [
            pairs.next().unwrap_or_default(),
            pairs.next().unwrap_or_default(),
        ];
        Grid {
            next_in_row,
            first,
            more: pairs.collect(),
            layout: Layout::compile(board),
            vertical: (0..64u32)
                .map(|s| match u8::try_from(s) {
                    Ok(q) if (1..=board.len).contains(&q) => {
                        let bit = 1u64 << q;
                        // q - 1 beside q when q - 1 is followed in its
                        // row; q + 1 when q is.
                        let beside = ((bit >> 1) & next_in_row) | ((bit & next_in_row) << 1);
                        board.grid_neighbours(q) & !beside
                    }
                    _ => 0,
                })
                .collect(),
        }
    }

    /// The squares whose next square along the track lies in their row
    /// of the board.
    #[inline(always)]
    pub(crate) fn next_in_row(&self) -> u64 {
        self.next_in_row
    }

    /// The squares with a grid neighbour in `x`, by direction: the next
    /// square along the row, the previous one, and the neighbour in the
    /// row pair starting on an even row and on an odd row. A square has at
    /// most one neighbour in each.
    #[inline(always)]
    fn sides(&self, x: u64) -> [u64; 4] {
        let ahead = (x >> 1) & self.next_in_row;
        let behind = (x << 1) & (self.next_in_row << 1);
        let rev = x.reverse_bits();
        let mut v = [self.first[0].across(rev), self.first[1].across(rev)];
        if !self.more.is_empty() {
            for p in &self.more {
                v[p.odd] |= p.across(rev);
            }
        }
        [ahead, behind, v[0], v[1]]
    }

    /// The squares with a grid neighbour in `x`.
    #[inline(always)]
    fn neighbours(&self, x: u64) -> u64 {
        let [a, b, c, d] = self.sides(x);
        a | b | c | d
    }

    /// The pieces of `pieces` whose group has at least `n` pieces, as
    /// [`Board::in_groups_of`]. Groups of 2 or more are the pieces with a
    /// neighbour; groups of 3 or more, the pieces with two neighbours and
    /// the neighbours of those (in a connected group of three or more, a
    /// piece with one neighbour is joined to one with two); larger groups
    /// are grown piece set by piece set.
    #[inline(always)]
    pub(crate) fn in_groups_of(&self, pieces: u64, n: u8) -> u64 {
        match n {
            0 | 1 => pieces,
            2 => self.in_pairs(pieces),
            3 => self.in_threes(pieces),
            _ => self.in_larger_groups(pieces, n),
        }
    }

    /// The pieces in groups of 2 or more: those with a neighbour. (Out of
    /// line, as `in_threes`: a small leaf that loads the masks only when
    /// it is called.)
    #[inline(never)]
    pub(crate) fn in_pairs(&self, pieces: u64) -> u64 {
        match &self.layout {
            Some(l) => l.in_pairs(pieces),
            None => self.in_pairs_general(pieces),
        }
    }

    /// [`in_pairs`](Self::in_pairs) without the layout (out of line: its
    /// registers are not saved on the layout's way).
    #[inline(never)]
    fn in_pairs_general(&self, pieces: u64) -> u64 {
        pieces & self.neighbours(pieces)
    }

    /// The pieces in groups of 3 or more: those with two neighbours
    /// (`hubs`) and the neighbours of those. On a board of up to three
    /// rows of 10, by shifts of the board's own layout; on any other
    /// board the hubs (few: none in most positions) have their neighbours
    /// in other rows from a table, hub by hub.
    #[inline(never)]
    pub(crate) fn in_threes(&self, pieces: u64) -> u64 {
        match &self.layout {
            Some(l) => l.in_threes(pieces),
            None => self.in_threes_general(pieces),
        }
    }

    /// [`in_threes`](Self::in_threes) without the layout.
    #[inline(never)]
    fn in_threes_general(&self, pieces: u64) -> u64 {
        let [a, b, c, d] = self.sides(pieces);
        let two = (a & b) | ((a | b) & c) | ((a | b | c) & d);
        let hubs = pieces & two;
        let mut near = ((hubs >> 1) & self.next_in_row) | ((hubs << 1) & (self.next_in_row << 1));
        let mut rest = hubs;
        while rest != 0 {
            near |= self.vertical[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        hubs | (pieces & near)
    }

    /// [`in_groups_of`](Self::in_groups_of) for `n` > 3: each group grown
    /// from one of its pieces, neighbours by neighbours.
    #[inline(never)]
    fn in_larger_groups(&self, pieces: u64, n: u8) -> u64 {
        let (mut rest, mut out) = (pieces, 0);
        while rest != 0 {
            let mut group = rest & rest.wrapping_neg();
            loop {
                let next = (group | self.neighbours(group)) & pieces;
                if next == group {
                    break;
                }
                group = next;
            }
            if group.count_ones() >= u32::from(n) {
                out |= group;
            }
            rest &= !group;
        }
        out
    }
}

/// The protection by groups and the group blockade of `macabot` (MC-3,
/// MC-4, MC-5) from one look at the opposing groups: a rule set whose
/// protection is "in a group of 2 or more, or on one of these squares"
/// and whose only blockade is "3 opposing in a group" counted on every
/// square, on a board with the grid's layout ([`Layout`]), and no
/// blockade on forward moves by target. Its forward stage then asks for
/// both at once ([`Ruleset::grouped_steps`] out of line in the general
/// copy of the stages, `grouped_steps_in` inlined in the grouped shape's,
/// `Tables::grouped_shape`) rather than the protection (after
/// a branch on whether a step lands on a piece, which follows the
/// throws) and the blockade (after a chain of tests of the rule set)
/// apart, each finding the opposing cells again.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GroupedSteps {
    /// The squares protecting a piece whatever its group (MC-4, MC-7).
    squares: u64,
    /// The board's layout (`Grid::layout`).
    layout: Layout,
}

impl GroupedSteps {
    /// The rule set's form, where it has it, from its compiled
    /// protection masks and grid.
    pub(crate) fn compile(
        rules: &Ruleset,
        prot: &crate::engine::constructs::protection::Masks,
        grid: &Grid,
        target_tabled: bool,
    ) -> Option<GroupedSteps> {
        use crate::engine::constructs::blockade::BlockadeKind;
        use crate::engine::constructs::protection::Protect;
        let squares = match (prot.protect, prot.flat.is_none(), prot.groups) {
            (Protect::Tree, true, Some((2, squares))) => squares,
            _ => return None,
        };
        match rules.blockades.as_slice() {
            [b] if b.of == BlockadeKind::OpposingGroup
                && b.length == 3
                && b.within.is_none()
                && !target_tabled =>
            {
                grid.layout.map(|layout| GroupedSteps { squares, layout })
            }
            _ => None,
        }
    }
}

/// [`spread`]`::<false>` for `k` below 8: three windows, each the one
/// before or'ed with itself moved by a number of squares from
/// [`STEP_SHIFTS`], rather than the windows of 1, 2 and 4 picked by masks,
/// which cost a dozen instructions more a call of
/// [`Ruleset::grouped_steps`].
#[inline(always)]
pub(crate) fn spread_short(x: u64, k: u32) -> u64 {
    let [a, b, c] = STEP_SHIFTS[k as usize];
    let w = x | (x >> a);
    let w = w | (w >> b);
    (w | (w >> c)) & mask_of(k != 0)
}

/// For a step of `k` squares (below 8), three shifts `a`, `b`, `c` that
/// move a square set down by every number of squares in `0..k` when the
/// set is or'ed with itself moved by each in turn: the windows of
/// `1 + a`, `1 + a + b` and `k = 1 + a + b + c` squares, each shift at
/// most the width of the window before it, so that no square is skipped
/// (a step of 0 passes none: its shifts are 0, and `spread_short` clears
/// the set).
const STEP_SHIFTS: [[u32; 3]; 8] = {
    let mut t = [[0u32; 3]; 8];
    let mut k = 1;
    while k < 8 {
        let a = if k - 1 < 1 { k - 1 } else { 1 };
        let b = if k - 1 - a < 2 { k - 1 - a } else { 2 };
        t[k] = [a as u32, b as u32, (k - 1 - a - b) as u32];
        k += 1;
    }
    t
};

impl Ruleset {
    /// The opposing pieces protected (as `protected_if` gives them) and
    /// the squares from which a forward move of `step` squares passes a
    /// group blockade (as `blocked_steps`), where the rule set has
    /// [`GroupedSteps`] (`Tables::grouped`). Out of line, as
    /// `blocked_steps_by` is, in the general copy of the stages, which
    /// the other blocking rule sets run; inlined
    /// ([`grouped_steps_in`](Self::grouped_steps_in)) in the copy of the
    /// grouped shape (`Tables::grouped_shape`).
    #[inline(never)]
    pub(crate) fn grouped_steps(&self, opp: u64, step: u8) -> (u64, u64) {
        let Some(g) = &self.tables.grouped else {
            unreachable!("asked only of a rule set with the grouped form")
        };
        self.grouped_steps_in(g, opp, step)
    }

    /// [`grouped_steps`](Self::grouped_steps) with the rule set's form
    /// `g`: no branch on the position.
    #[inline(always)]
    pub(crate) fn grouped_steps_in(&self, g: &GroupedSteps, opp: u64, step: u8) -> (u64, u64) {
        let (pairs, threes) = g.layout.pairs_and_threes(opp);
        let prot = pairs | (opp & g.squares);
        // Every square from the one after the mover's to the target
        // counts (as `group_steps`; a step of 0 passes none): the members
        // moved down by 0 ..= step - 1 squares, or'ed.
        let k = u32::from(step);
        let blocked = if k < 8 {
            // (Every throw of four sticks.)
            spread_short(threes, k)
        } else {
            spread::<false>(threes, k)
        };
        (prot, blocked)
    }

    /// The pieces of `pieces` whose group has at least `n` pieces: from
    /// the compiled [`Grid`], or, without tables (the referee), square by
    /// square ([`Board::in_groups_of`]).
    #[inline(always)]
    pub(crate) fn in_groups(&self, pieces: u64, n: u8) -> u64 {
        if self.tables.enabled {
            self.tables.grid.in_groups_of(pieces, n)
        } else {
            self.board.in_groups_of(pieces, n)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squares(m: u64) -> Vec<u8> {
        (0..64).filter(|s| m >> s & 1 != 0).collect()
    }

    /// The three shifts of `spread_short` against `spread`'s windows, for
    /// every step below 8, over sets of lone squares, runs and random
    /// ones.
    #[test]
    fn short_spread_is_spread() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut sets = vec![0u64, 1, 1 << 63, u64::MAX, 0b1011 << 20];
        for _ in 0..500 {
            // (xorshift64)
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            sets.push(x);
            sets.push(x & x.rotate_left(9) & x.rotate_left(23));
        }
        for k in 0..8 {
            for &m in &sets {
                assert_eq!(spread_short(m, k), spread::<false>(m, k), "{m:#x} by {k}");
            }
        }
    }

    #[test]
    fn grid_neighbours_follow_the_rows_as_they_lie() {
        let b = Board {
            len: 30,
            row_len: 10,
        };
        // Row 1 left to right, row 2 right to left beneath it: 1 sits
        // above 20, 10 above 11; row 3 runs left to right again, so 11
        // sits above 30 and 20 above 21.
        assert_eq!(squares(b.grid_neighbours(1)), vec![2, 20]);
        assert_eq!(squares(b.grid_neighbours(10)), vec![9, 11]);
        assert_eq!(squares(b.grid_neighbours(11)), vec![10, 12, 30]);
        assert_eq!(squares(b.grid_neighbours(15)), vec![6, 14, 16, 26]);
        assert_eq!(squares(b.grid_neighbours(20)), vec![1, 19, 21]);
        assert_eq!(squares(b.grid_neighbours(26)), vec![15, 25, 27]);
        assert_eq!(squares(b.grid_neighbours(30)), vec![11, 29]);
        for s in 1..=20 {
            assert!(b.grid_neighbours(s) >> (21 - s) & 1 != 0, "{s}");
        }
        for s in 11..=30 {
            assert!(b.grid_neighbours(s) >> (41 - s) & 1 != 0, "{s}");
        }
    }

    #[test]
    fn groups_connect_pieces_above_one_another() {
        let b = Board {
            len: 30,
            row_len: 10,
        };
        let set = |v: &[u8]| v.iter().fold(0u64, |m, &s| m | 1 << s);
        // 10 sits above 11; 9 is beside 10 only.
        assert_eq!(b.in_groups_of(set(&[10, 11]), 2), set(&[10, 11]));
        assert_eq!(b.in_groups_of(set(&[9, 11]), 2), 0);
        // 2 sits above 19: a group of two that no run along the track makes.
        assert_eq!(b.in_groups_of(set(&[2, 19, 7]), 2), set(&[2, 19]));
        // 1, 20 and 21 are one group through two vertical partners.
        assert_eq!(b.in_groups_of(set(&[1, 20, 21, 5]), 3), set(&[1, 20, 21]));
        assert_eq!(
            squares(b.group_of(set(&[1, 20, 21, 5]), 21)),
            vec![1, 20, 21]
        );
        assert_eq!(b.group_of(set(&[1, 20]), 5), 0);
    }

    /// The protection and the group blockade asked together
    /// (`Ruleset::grouped_steps`) against each asked alone, in every
    /// variant of the rule sets with that form, for every step up to the
    /// largest throw.
    #[test]
    fn grouped_steps_are_the_protection_and_the_blockade() {
        use crate::engine::testing::{random_position, variants};
        use rand::SeedableRng;
        use rand_pcg::Pcg64;
        let macabot = crate::rules::load("macabot", None, &[]).expect("built-in compiles");
        assert!(macabot.tables.grouped.is_some());
        let mut rng = Pcg64::seed_from_u64(17);
        let (mut checked, mut blocked_some, mut hubs) = (0, 0, 0);
        for (name, rules) in variants() {
            if rules.tables.grouped.is_none() {
                continue;
            }
            let max = rules.throws.values.iter().copied().max().unwrap_or(0);
            for _ in 0..400 {
                let pos = random_position(&rules, &mut rng);
                let me = pos.pieces[pos.to_move.index()].0;
                let opp = pos.pieces[pos.to_move.other().index()].0;
                hubs += usize::from(rules.in_groups(opp, 3) != 0);
                for step in 0..=max {
                    let (prot, blocked) = rules.grouped_steps(opp, step);
                    let alone = rules.protected_mask(&pos, pos.to_move.other());
                    assert_eq!(prot, alone, "{name}: {opp:#x}");
                    let by = rules.blocked_steps(me, opp, step, false);
                    assert_eq!(blocked, by, "{name}: {opp:#x} step {step}");
                    checked += 1;
                    blocked_some += usize::from(blocked != 0);
                }
            }
        }
        assert!(checked >= 2000, "{checked}");
        assert!(blocked_some >= 100 && hubs >= 50, "{blocked_some} {hubs}");
    }

    /// The masks against the square-by-square walk, on boards of every
    /// shape (rows of 1 to 12, full and partial last rows) and random
    /// piece sets, for every group size.
    #[test]
    fn grid_masks_equal_the_walk() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut layouts = 0;
        for len in [2u8, 5, 9, 10, 17, 29, 30, 31, 36, 44, 62] {
            for row_len in 1..=12u8 {
                let b = Board { len, row_len };
                let grid = Grid::compile(b);
                // (The layout where the board has one, and the general
                // masks on every board.)
                let general = Grid {
                    layout: None,
                    ..grid.clone()
                };
                if len <= 30 && row_len == 10 {
                    assert!(grid.layout.is_some(), "{len}/{row_len}");
                    layouts += 1;
                }
                let board = (u64::MAX >> (63 - len)) & !1;
                for s in 1..=len {
                    assert_eq!(
                        grid.neighbours(1u64 << s),
                        b.grid_neighbours(s),
                        "{len}/{row_len}: {s}"
                    );
                }
                for _ in 0..300 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    // Sparse and dense sets.
                    let pieces = board & (x & x.rotate_left(23) | (x >> 40) & x.rotate_left(5));
                    for n in 0..=7 {
                        let walk = b.in_groups_of(pieces, n);
                        assert_eq!(
                            grid.in_groups_of(pieces, n),
                            walk,
                            "{len}/{row_len}: {pieces:#x} {n}"
                        );
                        assert_eq!(
                            general.in_groups_of(pieces, n),
                            walk,
                            "{len}/{row_len}: {pieces:#x} {n}"
                        );
                    }
                    // In the layout, bits off the board (0, past the last
                    // square) are no pieces.
                    let off = 1 | !(u64::MAX >> (63 - len));
                    for n in (2..=3).filter(|_| grid.layout.is_some()) {
                        assert_eq!(
                            grid.in_groups_of(pieces | off, n),
                            b.in_groups_of(pieces, n),
                            "{len}/{row_len}: {pieces:#x} {n}, off the board"
                        );
                    }
                }
            }
        }
        assert!(layouts > 0);
    }
}
