//! The search for every board size, 4x4 to 25x25.
//!
//! Each of the `3 n²` groups keeps the digits still to place in it as bits
//! of a `u32`; a blank cell's candidates are the digits free in all three of
//! its groups. Blank cells sit in a to-do list: the cells before `depth` are
//! filled, the rest are open. Each search node fills one cell: a cell with no
//! candidates ends the branch, a cell with one (a naked single) or a digit
//! with one place left in a group (a hidden single) is filled without
//! branching, and otherwise the search branches on the cell with the fewest
//! candidates. Filling and emptying a cell only flips bits, so the search
//! undoes its moves instead of copying state.

use super::{Flow, Search};
use crate::grid::{Grid, MAX_CELLS, MAX_SIDE, Size};
use std::ops::ControlFlow;

const MAX_GROUPS: usize = 3 * MAX_SIDE;

/// The search's tables and state, sized for the largest board so that no
/// puzzle allocates.
pub(super) struct Generic {
    /// The size the tables below were built for.
    size: Size,
    /// Each cell's row, column and box, as group numbers.
    groups_of: [[u8; 3]; MAX_CELLS],
    /// Each group's cells.
    members: [[u16; MAX_SIDE]; MAX_GROUPS],
    /// The board as filled so far.
    grid: Grid,
    /// Each group's digits still to place: bit `d - 1` for digit `d`.
    free: [u32; MAX_GROUPS],
    /// The blank cells of the puzzle; those from `depth` on are still open.
    todo: [u16; MAX_CELLS],
    /// How many cells `todo` holds.
    open: usize,
}

/// What a scan for hidden singles found.
enum Hidden {
    /// A group where some digit has no place left.
    Dead,
    /// A cell that must take a digit (as a bit).
    Forced(usize, u32),
    /// Nothing forced.
    Nothing,
}

impl Generic {
    pub(super) fn new() -> Generic {
        let mut generic = Generic {
            size: Size::NINE,
            groups_of: [[0; 3]; MAX_CELLS],
            members: [[0; MAX_SIDE]; MAX_GROUPS],
            grid: Grid::empty(Size::NINE),
            free: [0; MAX_GROUPS],
            todo: [0; MAX_CELLS],
            open: 0,
        };
        generic.build_tables(Size::NINE);
        generic
    }

    fn build_tables(&mut self, size: Size) {
        self.size = size;
        let side = size.side();
        for (number, group) in size.groups().enumerate() {
            for (k, &cell) in group.cells.iter().enumerate() {
                self.members[number][k] = cell as u16;
                self.groups_of[cell][number / side] = number as u8;
            }
        }
    }

    /// Visits every solution of `puzzle` until `search` stops.
    pub(super) fn solve(&mut self, puzzle: &Grid, search: &mut Search<'_>) -> Flow {
        let size = puzzle.size();
        if size != self.size {
            self.build_tables(size);
        }
        let all = u32::MAX >> (32 - size.side());
        self.free[..3 * size.side()].fill(all);
        self.grid = Grid::empty(size);
        self.open = 0;
        for (cell, &digit) in puzzle.cells().iter().enumerate() {
            if digit == 0 {
                self.todo[self.open] = cell as u16;
                self.open += 1;
                continue;
            }
            let bit = 1 << (digit - 1);
            if self.candidates(cell) & bit == 0 {
                // Two clues share a digit in a group.
                return ControlFlow::Continue(());
            }
            self.place(cell, bit);
        }
        self.search(0, search)
    }

    #[inline]
    fn candidates(&self, cell: usize) -> u32 {
        let [r, c, b] = self.groups_of[cell];
        self.free[usize::from(r)] & self.free[usize::from(c)] & self.free[usize::from(b)]
    }

    #[inline]
    fn place(&mut self, cell: usize, bit: u32) {
        for g in self.groups_of[cell] {
            self.free[usize::from(g)] &= !bit;
        }
        self.grid.set(cell, bit.trailing_zeros() as u8 + 1);
    }

    #[inline]
    fn unplace(&mut self, cell: usize, bit: u32) {
        for g in self.groups_of[cell] {
            self.free[usize::from(g)] |= bit;
        }
        self.grid.set(cell, 0);
    }

    fn search(&mut self, depth: usize, search: &mut Search<'_>) -> Flow {
        if depth == self.open {
            return search.found(&self.grid);
        }
        search.node()?;
        // The open cell with the fewest candidates: (count, place in todo,
        // candidates).
        let mut best = (u32::MAX, depth, 0);
        for pos in depth..self.open {
            let candidates = self.candidates(usize::from(self.todo[pos]));
            let count = candidates.count_ones();
            if count < best.0 {
                best = (count, pos, candidates);
                if count <= 1 {
                    break;
                }
            }
        }
        match best.0 {
            0 => return ControlFlow::Continue(()),
            1 => {}
            _ => match self.hidden_single() {
                Hidden::Dead => return ControlFlow::Continue(()),
                Hidden::Forced(cell, bit) => {
                    let pos = (depth..self.open)
                        .find(|&p| usize::from(self.todo[p]) == cell)
                        .unwrap_or(depth);
                    best = (1, pos, bit);
                }
                Hidden::Nothing => {}
            },
        }
        self.todo.swap(depth, best.1);
        let cell = usize::from(self.todo[depth]);
        let mut candidates = best.2;
        while candidates != 0 {
            let bit = candidates & candidates.wrapping_neg();
            candidates ^= bit;
            self.place(cell, bit);
            let flow = self.search(depth + 1, search);
            self.unplace(cell, bit);
            flow?;
        }
        ControlFlow::Continue(())
    }

    /// Looks through every group for a digit with no place left (a dead
    /// end) or exactly one (a hidden single).
    fn hidden_single(&self) -> Hidden {
        let side = self.size.side();
        for (members, &free) in self.members.iter().zip(&self.free).take(3 * side) {
            if free == 0 {
                continue;
            }
            // Bit-sliced counting: the digits seen in at least one open cell
            // of the group, and in at least two.
            let (mut once, mut twice) = (0, 0);
            for &cell in &members[..side] {
                let cell = usize::from(cell);
                if self.grid.get(cell) == 0 {
                    let candidates = self.candidates(cell);
                    twice |= once & candidates;
                    once |= candidates;
                }
            }
            if free & !once != 0 {
                return Hidden::Dead;
            }
            let singles = once & !twice;
            if singles != 0 {
                let bit = singles & singles.wrapping_neg();
                for &cell in &members[..side] {
                    let cell = usize::from(cell);
                    if self.grid.get(cell) == 0 && self.candidates(cell) & bit != 0 {
                        return Hidden::Forced(cell, bit);
                    }
                }
            }
        }
        Hidden::Nothing
    }
}
