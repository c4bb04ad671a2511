//! Full grids: a random solution of the empty board, by a randomised
//! depth-first search over the houses.
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
    let mut filler = Filler {
        rules,
        used: vec![0; rules.houses().len()],
        cells: vec![0; size.cells()],
        full: (1u32 << size.side()) - 1,
        nodes: 0,
        budget: NODES_PER_CELL * size.cells(),
    };
    loop {
        filler.used.fill(0);
        filler.cells.fill(0);
        filler.nodes = 0;
        if filler.descend(rng) == Some(true) {
            // The cells hold digits 1 to the side, as many as the board's.
            return Grid::from_cells(size, &filler.cells).unwrap_or_else(|| Grid::empty(size));
        }
    }
}

/// The state of one attempt.
struct Filler<'a> {
    rules: &'a Rules,
    /// For each house, its digits placed so far (bit `d - 1` for `d`).
    used: Vec<u32>,
    /// Each cell's digit, 0 while open.
    cells: Vec<u8>,
    /// Every digit of the board.
    full: u32,
    nodes: usize,
    budget: usize,
}

impl Filler<'_> {
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

    /// Fills the open cells: `Some(true)` when the board is full,
    /// `Some(false)` on a dead end, `None` when the budget ran out.
    fn descend(&mut self, rng: &mut impl Rng) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        let mut best: Option<(u32, usize, u32)> = None;
        for cell in 0..self.cells.len() {
            if self.cells[cell] != 0 {
                continue;
            }
            let candidates = self.candidates(cell);
            let count = candidates.count_ones();
            if best.is_none_or(|(fewest, _, _)| count < fewest) {
                best = Some((count, cell, candidates));
                if count <= 1 {
                    break;
                }
            }
        }
        let Some((_, cell, candidates)) = best else {
            return Some(true);
        };
        let mut digits: Vec<u8> = (1..=32u8)
            .filter(|d| candidates >> (d - 1) & 1 == 1)
            .collect();
        digits.shuffle(rng);
        for digit in digits {
            self.toggle(cell, digit);
            if self.descend(rng)? {
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
