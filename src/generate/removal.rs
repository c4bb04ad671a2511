//! Clue removal: from a full grid, orbits of clues are taken away in a
//! random order, each only if the puzzle keeps exactly one solution.
//!
//! A clue that could not go stays needed for good: a puzzle with fewer
//! clues has every solution of one with more, so taking more clues away
//! never makes it unique again. One pass over the orbits is therefore
//! enough, and without symmetry (every orbit one cell) the result is
//! minimal. With symmetry, a kept orbit of several cells may hold a clue
//! the puzzle can do without on its own; [`Checker::all_needed`] looks at
//! exactly those.
//!
//! The native engine proves boards up to 16x16 unique however long it
//! takes. On 25x25 its search grows out of reach once about half the clues
//! are gone, so there the generator's own search decides within
//! [`BUDGET_25`] nodes, and a clue it cannot decide about stays: the puzzle
//! is still proven unique, but not minimal. A budget of nodes rather than
//! time keeps the puzzles the same on any machine.

use super::fill::count_solutions;
use super::{GenerateError, internal};
use crate::engine::Budget;
use crate::puzzle::Puzzle;
use crate::puzzle::grid::Grid;
use crate::puzzle::rules::Rules;
use crate::solve::Pipeline;
use rand::Rng;
use rand::seq::SliceRandom;
use std::sync::Arc;

/// The search nodes one proof on a board larger than 16x16 may take.
pub const BUDGET_25: usize = 5000;

/// Whether proofs on a board of this side are bounded by [`BUDGET_25`].
pub fn budgeted(side: usize) -> bool {
    side > 16
}

/// Proves puzzles unique with the solve pipeline, and counts its searches.
pub struct Checker<'a> {
    pipeline: &'a mut Pipeline,
    rules: &'a Arc<Rules>,
    /// The node budget of each proof, on boards that need one.
    budget: Option<usize>,
    /// The engine searches run so far.
    pub checks: usize,
}

impl<'a> Checker<'a> {
    /// A checker of puzzles under `rules` with `pipeline`.
    pub fn new(pipeline: &'a mut Pipeline, rules: &'a Arc<Rules>) -> Checker<'a> {
        Checker {
            pipeline,
            rules,
            budget: budgeted(rules.size().side()).then_some(BUDGET_25),
            checks: 0,
        }
    }

    /// Whether `givens` have exactly one solution under the rules; `None`
    /// when the board's budget ran out first.
    pub fn unique(&mut self, givens: &Grid) -> Result<Option<bool>, GenerateError> {
        self.checks += 1;
        if let Some(budget) = self.budget {
            return Ok(count_solutions(self.rules, givens, 2, budget).map(|n| n == 1));
        }
        let puzzle = Puzzle::new(givens.clone(), Arc::clone(self.rules));
        let count = self
            .pipeline
            .count_within(&puzzle, 2, &Budget::unbounded(), &mut |_| {})
            .map_err(internal)?;
        Ok(Some(count.solutions == 1))
    }

    /// Whether `givens`, one solution of which is known to be unique
    /// already, stay unique with the `blanked` cells emptied: first by the
    /// cheap test that each blanked cell has one candidate left among its
    /// houses' clues (then the clues force the same solution), else by a
    /// search (`None` when the budget ran out).
    fn still_unique(
        &mut self,
        givens: &Grid,
        blanked: &[usize],
    ) -> Result<Option<bool>, GenerateError> {
        let side = self.rules.size().side();
        let forced = blanked.iter().all(|&cell| {
            let mut seen = 0u32;
            for &h in self.rules.houses_of(cell) {
                for &other in &self.rules.houses()[h].cells {
                    let digit = givens.get(other);
                    if digit != 0 {
                        seen |= 1 << (digit - 1);
                    }
                }
            }
            seen.count_ones() as usize == side - 1
        });
        if forced && self.rules.constraints().is_empty() {
            return Ok(Some(true));
        }
        self.unique(givens)
    }

    /// Takes the orbits of `solution`'s cells away in a random order, each
    /// as long as the puzzle stays unique. Gives the puzzle, and the cells
    /// whose clues are not yet known to be needed: those of kept orbits of
    /// more than one cell, and those the budget could not decide about.
    pub fn remove(
        &mut self,
        solution: &Grid,
        orbits: &[Vec<usize>],
        rng: &mut impl Rng,
    ) -> Result<(Grid, Vec<usize>), GenerateError> {
        let mut order: Vec<&Vec<usize>> = orbits.iter().collect();
        order.shuffle(rng);
        let mut givens = solution.clone();
        let mut unproven = Vec::new();
        for orbit in order {
            for &cell in orbit {
                givens.set(cell, 0);
            }
            let unique = self.still_unique(&givens, orbit)?;
            if unique != Some(true) {
                for &cell in orbit {
                    givens.set(cell, solution.get(cell));
                }
                if orbit.len() > 1 || unique.is_none() {
                    unproven.extend_from_slice(orbit);
                }
            }
        }
        Ok((givens, unproven))
    }

    /// Whether each clue of `givens` in `cells` is needed: without it the
    /// puzzle (unique as it is) has a second solution; `false` also when
    /// the budget could not tell.
    pub fn all_needed(&mut self, givens: &Grid, cells: &[usize]) -> Result<bool, GenerateError> {
        let mut without = givens.clone();
        for &cell in cells {
            let digit = without.get(cell);
            without.set(cell, 0);
            if self.still_unique(&without, &[cell])? != Some(false) {
                return Ok(false);
            }
            without.set(cell, digit);
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Symmetry;
    use crate::puzzle::grid::Size;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn removal_without_symmetry_leaves_every_clue_needed() {
        let rules = Rules::classic(Size::NINE);
        let mut provers = super::super::Provers::new();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let solution = super::super::fill::random_solution(&rules, &mut rng);
        let mut checker = Checker::new(&mut provers.pipeline, &rules);
        let orbits = Symmetry::None.orbits(Size::NINE);
        let (givens, unproven) = checker
            .remove(&solution, &orbits, &mut rng)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(unproven.is_empty());
        assert_eq!(checker.unique(&givens), Ok(Some(true)));
        let clues: Vec<usize> = givens.clues().map(|(i, _)| i).collect();
        assert_eq!(checker.all_needed(&givens, &clues), Ok(true));
        assert!((17..40).contains(&clues.len()), "{}", clues.len());
    }
}
