//! Full grids: a random solution of the empty board, by a randomised
//! depth-first search over the houses. The same search, digits in order
//! and bounded by a number of nodes, counts solutions where the native
//! engine's search would take too long to be waited for (25x25 removal).
//!
//! The search fills the open cell with the fewest candidates and tries its
//! candidates in a random order. Every solution grid can come out: taking
//! the grid's own digit at each step never leads to a dead end, and each
//! such step has a chance. A search that wanders too long starts again
//! with the same random stream (large boards sometimes paint themselves
//! into a corner deep down); the restarts count nodes, not time, so the
//! same stream always gives the same grid.

use crate::puzzle::grid::Grid;
use crate::puzzle::rules::Rules;
use rand::Rng;
use rand::seq::SliceRandom;

/// Nodes per cell one attempt may visit before it starts again.
const NODES_PER_CELL: usize = 8;

/// A random full grid keeping every house of `rules` (the other
/// constraints of variant rules are not looked at).
pub fn random_solution(rules: &Rules, rng: &mut impl Rng) -> Grid {
    let size = rules.size();
    let mut board = Board::new(rules);
    loop {
        board.clear();
        let mut shuffle = |digits: &mut [u8]| digits.shuffle(rng);
        if board.search(&mut shuffle, 1, NODES_PER_CELL * size.cells()) == Some(1) {
            // The cells hold digits 1 to the side, as many as the board's.
            return Grid::from_cells(size, &board.cells).unwrap_or_else(|| Grid::empty(size));
        }
    }
}

/// The solutions of `givens` under the houses of `rules` (the other
/// constraints are not looked at), counted up to `limit`, by a search of
/// at most `budget` nodes: `None` when the budget ran out first.
pub fn count_solutions(rules: &Rules, givens: &Grid, limit: usize, budget: usize) -> Option<usize> {
    let mut board = Board::new(rules);
    for (cell, digit) in givens.clues() {
        if board.candidates(cell) >> (digit - 1) & 1 == 0 {
            return Some(0);
        }
        board.toggle(cell, digit);
    }
    board.search(&mut |_| {}, limit, budget)
}

/// A board being filled: a depth-first search over bit sets of the
/// houses.
struct Board<'a> {
    rules: &'a Rules,
    /// For each house, its digits placed so far (bit `d - 1` for `d`).
    used: Vec<u32>,
    /// Each cell's digit, 0 while open.
    cells: Vec<u8>,
    /// Every digit of the board.
    full: u32,
    nodes: usize,
    budget: usize,
    found: usize,
    limit: usize,
    /// Each open cell's candidates at the current node (0 for a filled
    /// cell).
    scratch: Vec<u32>,
}

impl<'a> Board<'a> {
    fn new(rules: &'a Rules) -> Board<'a> {
        let size = rules.size();
        Board {
            rules,
            used: vec![0; rules.houses().len()],
            cells: vec![0; size.cells()],
            full: (1u32 << size.side()) - 1,
            nodes: 0,
            budget: 0,
            found: 0,
            limit: 0,
            scratch: vec![0; size.cells()],
        }
    }

    fn clear(&mut self) {
        self.used.fill(0);
        self.cells.fill(0);
    }

    /// The digits `cell` may still take.
    fn candidates(&self, cell: usize) -> u32 {
        let taken = self
            .rules
            .houses_of(cell)
            .iter()
            .fold(0, |taken, &h| taken | self.used[h]);
        self.full & !taken
    }

    /// Places `digit` in the open `cell`, or takes it back out of it.
    fn toggle(&mut self, cell: usize, digit: u8) {
        let bit = 1 << (digit - 1);
        for &h in self.rules.houses_of(cell) {
            self.used[h] ^= bit;
        }
        self.cells[cell] ^= digit;
    }

    /// Fills the open cells, trying each cell's digits in the order
    /// `order` leaves them, until `limit` solutions: their number, or
    /// `None` when `budget` nodes ran out first. The board keeps the last
    /// solution found when the limit is reached.
    fn search(
        &mut self,
        order: &mut dyn FnMut(&mut [u8]),
        limit: usize,
        budget: usize,
    ) -> Option<usize> {
        self.nodes = 0;
        self.found = 0;
        self.limit = limit;
        self.budget = budget;
        self.descend(order)?;
        Some(self.found)
    }

    /// One node: `Some(true)` when the limit is reached, `Some(false)` when
    /// this branch is done, `None` when the budget ran out.
    fn descend(&mut self, order: &mut dyn FnMut(&mut [u8])) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        // The open cell with the fewest candidates; none left is a
        // solution, one without candidates a dead end.
        let mut best: Option<(u32, usize, u32)> = None;
        for cell in 0..self.cells.len() {
            let candidates = match self.cells[cell] {
                0 => self.candidates(cell),
                _ => 0,
            };
            self.scratch[cell] = candidates;
            if self.cells[cell] != 0 {
                continue;
            }
            let count = candidates.count_ones();
            if best.is_none_or(|(fewest, _, _)| count < fewest) {
                best = Some((count, cell, candidates));
                if count <= 1 {
                    break;
                }
            }
        }
        let Some((fewest, mut cell, mut candidates)) = best else {
            self.found += 1;
            return Some(self.found >= self.limit);
        };
        if fewest >= 2 {
            // A digit with one place left in a house goes there (a hidden
            // single); one with none is a dead end.
            let rules = self.rules;
            for (h, house) in rules.houses().iter().enumerate() {
                let (mut once, mut twice) = (0u32, 0u32);
                for &c in &house.cells {
                    let word = self.scratch[c];
                    twice |= once & word;
                    once |= word;
                }
                let missing = self.full & !self.used[h];
                if missing & !once != 0 {
                    return Some(false);
                }
                let single = missing & once & !twice;
                if single != 0 {
                    let digit = single & single.wrapping_neg();
                    if let Some(&c) = house.cells.iter().find(|&&c| self.scratch[c] & digit != 0) {
                        (cell, candidates) = (c, digit);
                        break;
                    }
                }
            }
        }
        let mut digits = [0u8; 32];
        let mut count = 0;
        for d in 1..=32u8 {
            if candidates >> (d - 1) & 1 == 1 {
                digits[count] = d;
                count += 1;
            }
        }
        let digits = &mut digits[..count];
        order(digits);
        for &digit in digits.iter() {
            self.toggle(cell, digit);
            if self.descend(order)? {
                return Some(true);
            }
            self.toggle(cell, digit);
        }
        Some(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Puzzle;
    use crate::puzzle::check::verify_solution;
    use crate::puzzle::grid::Size;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use std::collections::HashSet;

    #[test]
    fn every_size_fills_to_a_valid_grid() {
        for size in Size::all() {
            let rules = Rules::classic(size);
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            let grid = random_solution(&rules, &mut rng);
            let empty = Puzzle::classic(Grid::empty(size));
            assert_eq!(verify_solution(&empty, &grid), Ok(()), "{size}");
        }
    }

    #[test]
    fn all_288_four_by_four_grids_come_out() {
        // Every grid can come out: a few thousand draws meet all 288.
        let rules = Rules::classic(Size::from_side(4).unwrap_or_default());
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let seen: HashSet<Grid> = (0..5000)
            .map(|_| random_solution(&rules, &mut rng))
            .collect();
        assert_eq!(seen.len(), 288);
    }
}
