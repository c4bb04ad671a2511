//! The search for every board and set of rules.
//!
//! Each house keeps the digits still to place in it as bits of a `u32`; a
//! blank cell's candidates are the digits free in all of its houses. Blank
//! cells sit in a to-do list: the cells before `depth` are filled, the rest
//! are open. Each search node fills one cell: a cell with no candidates ends
//! the branch, a cell with one (a naked single) or a digit with one place
//! left in a house (a hidden single) is filled without branching, and
//! otherwise the search branches on the cell with the fewest candidates.
//! Filling and emptying a cell only flips bits, so the search undoes its
//! moves instead of copying state.

use super::{Flow, Search};
use crate::puzzle::Puzzle;
use crate::puzzle::grid::{Grid, MAX_CELLS, Size};
use crate::puzzle::rules::Rules;
use std::ops::ControlFlow;
use std::sync::Arc;

/// The search's tables and state. The tables are built once per set of
/// rules; the state is sized for the largest board, so that no puzzle
/// allocates.
pub(super) struct Generic {
    /// The rules the tables below were built for.
    rules: Option<Arc<Rules>>,
    /// The houses of cell `c` are `house_list[house_start[c]..house_start[c + 1]]`.
    house_start: Vec<usize>,
    house_list: Vec<u16>,
    /// Each house's cells.
    members: Vec<Vec<u16>>,
    /// The board as filled so far.
    grid: Grid,
    /// Each house's digits still to place: bit `d - 1` for digit `d`.
    free: Vec<u32>,
    /// The blank cells of the puzzle; those from `depth` on are still open.
    todo: [u16; MAX_CELLS],
    /// How many cells `todo` holds.
    open: usize,
}

/// What a scan for hidden singles found.
enum Hidden {
    /// A house where some digit has no place left.
    Dead,
    /// A cell that must take a digit (as a bit).
    Forced(usize, u32),
    /// Nothing forced.
    Nothing,
}

impl Generic {
    pub(super) fn new() -> Generic {
        Generic {
            rules: None,
            house_start: Vec::new(),
            house_list: Vec::new(),
            members: Vec::new(),
            grid: Grid::empty(Size::NINE),
            free: Vec::new(),
            todo: [0; MAX_CELLS],
            open: 0,
        }
    }

    fn build_tables(&mut self, rules: &Arc<Rules>) {
        let cells = rules.size().cells();
        self.house_start.clear();
        self.house_list.clear();
        for cell in 0..cells {
            self.house_start.push(self.house_list.len());
            self.house_list
                .extend(rules.houses_of(cell).iter().map(|&h| h as u16));
        }
        self.house_start.push(self.house_list.len());
        self.members = rules
            .houses()
            .iter()
            .map(|house| house.cells.iter().map(|&c| c as u16).collect())
            .collect();
        self.free = vec![0; self.members.len()];
        self.rules = Some(Arc::clone(rules));
    }

    /// Visits every solution of `puzzle` until `search` stops.
    pub(super) fn solve(&mut self, puzzle: &Puzzle, search: &mut Search<'_>) -> Flow {
        let rules = puzzle.rules();
        if !self
            .rules
            .as_ref()
            .is_some_and(|r| Arc::ptr_eq(r, rules) || r == rules)
        {
            self.build_tables(rules);
        }
        let size = puzzle.size();
        let all = u32::MAX >> (32 - size.side());
        self.free.fill(all);
        self.grid = Grid::empty(size);
        self.open = 0;
        for (cell, &digit) in puzzle.givens().cells().iter().enumerate() {
            if digit == 0 {
                self.todo[self.open] = cell as u16;
                self.open += 1;
                continue;
            }
            let bit = 1 << (digit - 1);
            if self.candidates(cell) & bit == 0 {
                // Two clues share a digit in a house.
                return ControlFlow::Continue(());
            }
            self.place(cell, bit);
        }
        self.search(0, search)
    }

    /// The houses holding `cell`.
    #[inline]
    fn houses(&self, cell: usize) -> &[u16] {
        &self.house_list[self.house_start[cell]..self.house_start[cell + 1]]
    }

    #[inline]
    fn candidates(&self, cell: usize) -> u32 {
        self.houses(cell)
            .iter()
            .fold(u32::MAX, |free, &h| free & self.free[usize::from(h)])
    }

    #[inline]
    fn place(&mut self, cell: usize, bit: u32) {
        for k in self.house_start[cell]..self.house_start[cell + 1] {
            self.free[usize::from(self.house_list[k])] &= !bit;
        }
        self.grid.set(cell, bit.trailing_zeros() as u8 + 1);
    }

    #[inline]
    fn unplace(&mut self, cell: usize, bit: u32) {
        for k in self.house_start[cell]..self.house_start[cell + 1] {
            self.free[usize::from(self.house_list[k])] |= bit;
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

    /// Looks through every house for a digit with no place left (a dead
    /// end) or exactly one (a hidden single).
    fn hidden_single(&self) -> Hidden {
        for (members, &free) in self.members.iter().zip(&self.free) {
            if free == 0 {
                continue;
            }
            // Bit-sliced counting: the digits seen in at least one open cell
            // of the house, and in at least two.
            let (mut once, mut twice) = (0, 0);
            for &cell in members {
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
                for &cell in members {
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
