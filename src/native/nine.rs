//! The 9x9 fast path.
//!
//! The board is nine 81-bit words, one per digit: bit `i` of word `d` says
//! that digit `d + 1` may still stand in cell `i` (row-major). A placed digit
//! keeps its own bit, so every group holds at least one bit of every word
//! while the board can still be solved. Placing a digit clears its cell from
//! the other words and its cell's peers from its own word: a handful of
//! 128-bit operations. The whole board is 160 bytes, so the search copies it
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
            let mut placed = false;
            for d in 0..9 {
                for group in GROUPS {
                    let places = self.cells[d] & group;
                    if places == 0 {
                        return false;
                    }
                    if places & (places - 1) == 0 && places & self.open != 0 {
                        self.place(d, places.trailing_zeros() as usize);
                        placed = true;
                    }
                }
            }
            if !placed {
                return true;
            }
        }
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
