//! The 9x9 fast path.
//!
//! The board is nine 81-bit words, one per digit: bit `i` of word `d` says
//! that digit `d + 1` may still stand in cell `i` (row-major). A placed digit
//! keeps its own bit, so every group holds at least one bit of every word
//! while the board can still be solved. Placing a digit clears its cell from
//! the other words and its cell's peers from its own word: a handful of
//! 128-bit operations. The whole board is 304 bytes, so the search copies it
//! at each branch rather than undoing moves.

use super::{Flow, Search};
use crate::grid::{Grid, Size};
use std::ops::ControlFlow;

const CELLS: usize = 81;
const ALL: u128 = (1 << CELLS) - 1;

const fn bit(cell: usize) -> u128 {
    1 << cell
}

/// The cells of each group: rows 0-8, columns 9-17, boxes 18-26.
const GROUPS: [u128; 27] = {
    let mut groups = [0; 27];
    let mut cell = 0;
    while cell < CELLS {
        let (row, col) = (cell / 9, cell % 9);
        groups[row] |= bit(cell);
        groups[9 + col] |= bit(cell);
        groups[18 + row / 3 * 3 + col / 3] |= bit(cell);
        cell += 1;
    }
    groups
};

/// The first cell of each row: times a 9-bit set of columns, those columns
/// in every row.
const ROW_STARTS: u128 = {
    let mut starts = 0;
    let mut row = 0;
    while row < 9 {
        starts |= bit(9 * row);
        row += 1;
    }
    starts
};

/// Each cell's peers: the other cells of its row, column and box.
const PEERS: [u128; CELLS] = {
    let mut peers = [0; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (row, col) = (cell / 9, cell % 9);
        peers[cell] =
            (GROUPS[row] | GROUPS[9 + col] | GROUPS[18 + row / 3 * 3 + col / 3]) & !bit(cell);
        cell += 1;
    }
    peers
};

/// A board in the middle of a search.
#[derive(Clone, Copy)]
struct Board {
    /// For each digit, the cells it may take (or has taken).
    cells: [u128; 9],
    /// The cells without a digit yet.
    open: u128,
    /// Each digit's word when its hidden singles were last looked for: a
    /// word that has not changed since has none to give.
    swept: [u128; 9],
}

impl Board {
    /// Puts digit `d + 1` in `cell`, which must allow it.
    #[inline(always)]
    fn place(&mut self, d: usize, cell: usize) {
        let b = bit(cell);
        for word in &mut self.cells {
            *word &= !b;
        }
        self.cells[d] = (self.cells[d] & !PEERS[cell]) | b;
        self.open &= !b;
    }

    /// Fills naked and hidden singles until none is left. `false` when the
    /// board turns out unsolvable: a cell without candidates, or a digit
    /// without a place in some group.
    #[inline]
    fn propagate(&mut self) -> bool {
        loop {
            // Bit-sliced counting over the digits: the open cells with at
            // least one candidate, and with at least two.
            let (mut once, mut twice) = (0, 0);
            for &word in &self.cells {
                let word = word & self.open;
                twice |= once & word;
                once |= word;
            }
            if self.open & !once != 0 {
                return false;
            }
            let mut singles = once & !twice;
            if singles != 0 {
                while singles != 0 {
                    let cell = singles.trailing_zeros() as usize;
                    singles &= singles - 1;
                    // An earlier single of this round may have taken the
                    // cell's last digit.
                    let Some(d) = (0..9).find(|&d| self.cells[d] & bit(cell) != 0) else {
                        return false;
                    };
                    self.place(d, cell);
                }
                continue;
            }
            match self.hidden_singles() {
                None => return false,
                Some(true) => {}
                Some(false) => return true,
            }
        }
    }

    /// Fills every hidden single: a digit with one place left in a row,
    /// column or box. `None` on a contradiction (a digit with no place in a
    /// group), else whether anything was placed.
    ///
    /// Each digit's word is cut into its nine 9-bit rows: a row is a group
    /// by itself, the columns are counted across the rows with bit-sliced
    /// counters, and each box is three 3-bit slices of three rows.
    #[inline]
    fn hidden_singles(&mut self) -> Option<bool> {
        let mut placed = false;
        for d in 0..9 {
            let word = self.cells[d];
            if word == self.swept[d] {
                continue;
            }
            self.swept[d] = word;
            let rows: [u32; 9] = std::array::from_fn(|r| (word >> (9 * r)) as u32 & 0x1ff);
            let mut hits = 0;
            let (mut once, mut twice) = (0, 0);
            for (r, &row) in rows.iter().enumerate() {
                if row == 0 {
                    return None;
                }
                if row & (row - 1) == 0 {
                    hits |= u128::from(row) << (9 * r);
                }
                twice |= once & row;
                once |= row;
            }
            if once != 0x1ff {
                return None;
            }
            hits |= word & (u128::from(once & !twice) * ROW_STARTS);
            for (b, band) in rows.chunks_exact(3).enumerate() {
                for stack in 0..3 {
                    let slice = |row: u32| (row >> (3 * stack)) & 7;
                    let boxed = slice(band[0]) | slice(band[1]) << 3 | slice(band[2]) << 6;
                    if boxed == 0 {
                        return None;
                    }
                    if boxed & (boxed - 1) == 0 {
                        hits |= word & GROUPS[18 + 3 * b + stack];
                    }
                }
            }
            hits &= self.open;
            while hits != 0 {
                let cell = hits.trailing_zeros() as usize;
                hits &= hits - 1;
                // A hit of this round may have taken another's place.
                if self.cells[d] & bit(cell) == 0 {
                    return None;
                }
                self.place(d, cell);
                placed = true;
            }
        }
        Some(placed)
    }

    /// The open cell to branch on, with its candidates as bits: the first
    /// cell with two candidates, else one with the fewest.
    fn pivot(&self) -> (usize, u16) {
        let (mut one, mut two, mut three) = (0, 0, 0);
        for &word in &self.cells {
            let word = word & self.open;
            three |= two & word;
            two |= one & word;
            one |= word;
        }
        let pairs = two & !three;
        let cell = if pairs != 0 {
            pairs.trailing_zeros() as usize
        } else {
            let mut best = (u32::MAX, 0);
            let mut open = self.open;
            while open != 0 {
                let cell = open.trailing_zeros() as usize;
                open &= open - 1;
                let count = self.candidates(cell).count_ones();
                if count < best.0 {
                    best = (count, cell);
                }
            }
            best.1
        };
        (cell, self.candidates(cell))
    }

    /// The digits `cell` may take, bit `d` for digit `d + 1`.
    fn candidates(&self, cell: usize) -> u16 {
        let mut digits = 0;
        for (d, &word) in self.cells.iter().enumerate() {
            if word & bit(cell) != 0 {
                digits |= 1 << d;
            }
        }
        digits
    }

    /// The solved board, once no cell is open.
    fn grid(&self) -> Grid {
        let mut grid = Grid::empty(Size::NINE);
        for (d, &word) in self.cells.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                grid.set(word.trailing_zeros() as usize, d as u8 + 1);
                word &= word - 1;
            }
        }
        grid
    }
}

/// Visits every solution of the 9x9 `puzzle` until `search` stops.
pub(super) fn solve(puzzle: &Grid, search: &mut Search<'_>) -> Flow {
    let mut board = Board {
        cells: [ALL; 9],
        open: ALL,
        swept: [u128::MAX; 9],
    };
    for (cell, digit) in puzzle.clues() {
        let d = usize::from(digit) - 1;
        if board.cells[d] & bit(cell) == 0 {
            // Two clues share a digit in a group.
            return ControlFlow::Continue(());
        }
        board.place(d, cell);
    }
    descend(board, search)
}

fn descend(mut board: Board, search: &mut Search<'_>) -> Flow {
    search.node()?;
    if !board.propagate() {
        return ControlFlow::Continue(());
    }
    if board.open == 0 {
        return search.found(&board.grid());
    }
    let (cell, mut digits) = board.pivot();
    while digits != 0 {
        let d = digits.trailing_zeros() as usize;
        digits &= digits - 1;
        let mut next = board;
        next.place(d, cell);
        descend(next, search)?;
    }
    ControlFlow::Continue(())
}
