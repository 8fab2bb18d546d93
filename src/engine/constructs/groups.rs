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

use crate::engine::Board;

impl Board {
    /// The grid neighbours of `square`, as a square set (bit `s` = square
    /// `s`).
    pub fn grid_neighbours(&self, square: u8) -> u64 {
        let w = self.row_len;
        let row = self.row_of(square);
        // The column, from the board's left edge.
        let index = (square - 1) % w;
        let col = if row % 2 == 0 { index } else { w - 1 - index };
        let at = |row: u8| -> u64 {
            let index = if row % 2 == 0 { col } else { w - 1 - col };
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

#[cfg(test)]
mod tests {
    use super::*;

    fn squares(m: u64) -> Vec<u8> {
        (0..64).filter(|s| m >> s & 1 != 0).collect()
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
}
