//! The blockade at half the throw (LJ-4): with a throw of one of the
//! listed values, a piece whose square half the throw ahead (rounded down)
//! is taken by a piece that lies in `length` or more taken squares in a row,
//! without a gap, inside that square's row of the board, does not move.
//! Pieces of both sides make the row of taken squares, the mover's own
//! included; a row of the board ends it (never across a turn of the track).
//!
//! The model value with its clause, the mask of the pieces it holds for the
//! forward stage, and its words: how `senet rules show` says it, its token
//! in `senet rules summary`, and how a move it refuses reads.

use super::words::*;
use crate::engine::*;

/// `blockade at half the throw: 3 any in one row, on 4, 6`.
#[derive(Debug, Clone, PartialEq)]
pub struct HalfwayBlockade {
    /// Taken squares in a row, at least, that hold the piece back.
    pub length: u8,
    /// The throws tested (bit `v` = value `v`).
    pub throws: u32,
    pub clause: Clause,
}

// Words.

/// `rules show`.
pub fn sentence(length: u8, throws: &[u8]) -> String {
    format!(
        "With a throw of {}, a piece does not move when the square half the throw ahead (rounded down) holds a piece that lies in {length} or more taken squares in a row, of either side, within one row of the board.",
        list(throws)
    )
}

impl HalfwayBlockade {
    /// The `rules summary` line.
    pub fn token(&self) -> String {
        let vs: Vec<u8> = (0..32u8).filter(|v| self.throws & (1 << v) != 0).collect();
        format!(
            "halfway blockade: {} any in row on {:?}{}",
            self.length,
            vs,
            cl(&self.clause)
        )
    }
}

/// A move refused because the square half the throw ahead is in a row of
/// taken squares.
pub(crate) fn refused(cx: &Refused) -> Said {
    let from = cx.refusal.from;
    let half = cx.throw / 2;
    let length = cx.rules.halfway().map_or(0, |h| h.length);
    Said::new(
        "a row of pieces halfway",
        format!(
            "with a {} the piece on {} looks {half} squares ahead, and {} lies in {length} or more taken squares in a row",
            cx.throw,
            cx.sq(from),
            cx.sq(from + half)
        ),
    )
}

// The generator's side.

impl Ruleset {
    /// The pieces of the side to move that the blockade at half the throw
    /// holds with `throw` (0 for a throw it does not test).
    #[inline]
    pub(crate) fn halfway_held(&self, pos: &Position, throw: u8) -> u64 {
        let Some(h) = &self.halfway else {
            return 0;
        };
        if throw >= 32 || h.throws & (1 << throw) == 0 {
            return 0;
        }
        let occ = pos.occupied().0;
        // (Compiled with the grid, rather than square by square at every
        // call; without tables, as the referee runs, by the loop.)
        let next = if self.tables.enabled {
            self.tables.grid.next_in_row()
        } else {
            next_in_row(self.board.row_len, self.board.len)
        };
        let runs = row_runs(occ, h.length, next);
        (runs >> (throw / 2)) & pos.pieces[pos.to_move.index()].0
    }
}

/// The squares `s` such that `s` and `s + 1` are in the same row of the
/// board (rows of `row_len` from square 1, `len` squares).
fn next_in_row(row_len: u8, len: u8) -> u64 {
    let mut next = 0u64;
    for s in 1..len {
        if s % row_len != 0 {
            next |= 1 << s;
        }
    }
    next
}

/// The taken squares of `occ` that lie in `length` or more taken squares in
/// a row inside one row of the board, `next` the squares whose next square
/// lies in their row of the board ([`next_in_row`]).
fn row_runs(occ: u64, length: u8, next: u64) -> u64 {
    // Bit s of `win`: s .. s + n - 1 are all taken, in one row. Two
    // overlapping windows of one row make a window of one row.
    let mut win = occ;
    for n in 1..length {
        win &= win >> 1;
        if n == 1 {
            win &= next;
        }
    }
    let mut runs = 0;
    for i in 0..length.max(1) {
        runs |= win << i;
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::next_in_row;
    use crate::engine::Board;
    use crate::engine::constructs::groups::Grid;

    fn bits(squares: &[u8]) -> u64 {
        squares.iter().fold(0, |m, &s| m | 1 << s)
    }

    fn row_runs(occ: u64, length: u8, row_len: u8, len: u8) -> u64 {
        super::row_runs(occ, length, next_in_row(row_len, len))
    }

    /// The grid's squares followed in their row, which the tables take,
    /// are the loop's, on boards of every shape.
    #[test]
    fn the_grid_has_the_rows() {
        for len in 1..=63u8 {
            for row_len in 1..=16u8 {
                let grid = Grid::compile(Board { len, row_len });
                assert_eq!(
                    grid.next_in_row(),
                    next_in_row(row_len, len),
                    "{len}/{row_len}"
                );
            }
        }
    }

    #[test]
    fn a_run_stops_at_the_end_of_a_row() {
        // 9, 10, 11: three in a row on the track, but 10 and 11 lie in two
        // rows of the board.
        assert_eq!(row_runs(bits(&[9, 10, 11]), 3, 10, 30), 0);
        assert_eq!(row_runs(bits(&[8, 9, 10]), 3, 10, 30), bits(&[8, 9, 10]));
        assert_eq!(
            row_runs(bits(&[11, 12, 13, 14, 20, 21, 22]), 3, 10, 30),
            bits(&[11, 12, 13, 14])
        );
        assert_eq!(row_runs(bits(&[1, 2, 4, 5]), 3, 10, 30), 0);
        assert_eq!(
            row_runs(bits(&[28, 29, 30]), 3, 10, 30),
            bits(&[28, 29, 30])
        );
    }
}
