//! Killer puzzles: cages drawn over a random solution, their sums taken
//! from it, and givens only where the cages leave more than one solution.
//!
//! Cages grow one at a time from a random uncaged cell, through uncaged
//! orthogonal neighbours holding digits not yet in the cage, to a random
//! size from [`SMALLEST_CAGE`] to [`LARGEST_CAGE`] cells. A cell left
//! alone joins a neighbouring cage that has room and lacks its digit, or
//! stays uncaged. Then the solution's digits are taken away as givens, in
//! a random order, each one the puzzle stays unique without (proven by the
//! native engine). A puzzle with fewer givens has every solution of one
//! with more, so one pass is enough: when the cages alone leave one
//! solution every given goes, and otherwise every given kept is needed.
//!
//! Starting from the full grid rather than from the bare cages keeps the
//! searches small: the native engine finds a second solution of a nearly
//! empty killer board slowly (seconds to minutes on 9x9), while each step
//! down from a full grid is proven in microseconds until the last few
//! givens. Those last proofs still take up to tens of seconds on some
//! 9x9 puzzles.

use super::{GenerateError, internal};
use crate::engine::Budget;
use crate::puzzle::Puzzle;
use crate::puzzle::grid::{Cell, Grid, Size};
use crate::puzzle::kinds::cages::Cage;
use crate::puzzle::rules::Rules;
use crate::solve::Pipeline;
use rand::seq::SliceRandom;
use rand::{Rng, RngExt};
use std::sync::Arc;

/// The fewest cells a cage is drawn with.
pub const SMALLEST_CAGE: usize = 2;
/// The most cells a cage is drawn with.
pub const LARGEST_CAGE: usize = 5;

/// The board sides killer puzzles are made on: from 4 (the smallest with
/// boxes) to 9; above, proving a puzzle with few givens unique takes the
/// search too long.
pub fn supported(size: Size) -> bool {
    (4..=9).contains(&size.side())
}

/// A killer puzzle over `solution`: its cages and the fewest givens this
/// search finds, proven unique with `pipeline`; and the number of searches
/// it took.
pub fn puzzle(
    pipeline: &mut Pipeline,
    solution: &Grid,
    rng: &mut impl Rng,
) -> Result<(Puzzle, usize), GenerateError> {
    let size = solution.size();
    let mut builder = Rules::builder(size);
    for cells in cages(solution, rng) {
        let sum = cells
            .iter()
            .map(|&c| u32::from(solution.get(size.index(c))))
            .sum();
        builder
            .constraint(Cage {
                cells,
                sum: Some(sum),
            })
            .map_err(|e| GenerateError::Internal(format!("a drawn cage: {e}")))?;
    }
    let rules = builder
        .build()
        .map_err(|e| GenerateError::Internal(format!("the drawn cages: {e}")))?;
    let mut checks = 0;
    let mut givens = solution.clone();
    let mut order: Vec<usize> = (0..size.cells()).collect();
    order.shuffle(rng);
    for cell in order {
        let mut fewer = givens.clone();
        fewer.set(cell, 0);
        if other_solution(pipeline, &rules, &fewer, solution, &mut checks)?.is_none() {
            givens = fewer;
        }
    }
    Ok((Puzzle::new(givens, rules), checks))
}

/// A solution of `givens` under `rules` other than `solution` (which is
/// one), if there is one.
fn other_solution(
    pipeline: &mut Pipeline,
    rules: &Arc<Rules>,
    givens: &Grid,
    solution: &Grid,
    checks: &mut usize,
) -> Result<Option<Grid>, GenerateError> {
    *checks += 1;
    let puzzle = Puzzle::new(givens.clone(), Arc::clone(rules));
    let mut other = None;
    pipeline
        .count_within(&puzzle, 2, &Budget::unbounded(), &mut |found| {
            if found != solution {
                other = Some(found.clone());
            }
        })
        .map_err(internal)?;
    Ok(other)
}

/// Random cages over `solution`: connected groups of different digits
/// covering the board but for cells no cage could take.
pub fn cages(solution: &Grid, rng: &mut impl Rng) -> Vec<Vec<Cell>> {
    let size = solution.size();
    let neighbours = |cell: usize| size.orthogonal(cell);
    let digit_in = |cage: &[usize], cell: usize| {
        cage.iter()
            .any(|&other| solution.get(other) == solution.get(cell))
    };
    let mut cage_of: Vec<Option<usize>> = vec![None; size.cells()];
    let mut cages: Vec<Vec<usize>> = Vec::new();
    let mut order: Vec<usize> = (0..size.cells()).collect();
    order.shuffle(rng);
    for start in order {
        if cage_of[start].is_some() {
            continue;
        }
        let target = rng.random_range(SMALLEST_CAGE..=LARGEST_CAGE);
        let mut cage = vec![start];
        cage_of[start] = Some(cages.len());
        while cage.len() < target {
            let mut open: Vec<usize> = cage
                .iter()
                .flat_map(|&c| neighbours(c))
                .filter(|&n| cage_of[n].is_none() && !digit_in(&cage, n))
                .collect();
            open.sort_unstable();
            open.dedup();
            let Some(&next) = open.get(rng.random_range(0..open.len().max(1))) else {
                break;
            };
            cage_of[next] = Some(cages.len());
            cage.push(next);
        }
        cages.push(cage);
    }
    // A cell alone joins a neighbouring cage with room for its digit.
    for k in 0..cages.len() {
        let [cell] = cages[k][..] else { continue };
        let mut hosts: Vec<usize> = neighbours(cell)
            .into_iter()
            .filter_map(|n| cage_of[n])
            .filter(|&h| h != k && cages[h].len() >= SMALLEST_CAGE && cages[h].len() < LARGEST_CAGE)
            .filter(|&h| !digit_in(&cages[h], cell))
            .collect();
        hosts.sort_unstable();
        hosts.dedup();
        if let Some(&host) = hosts.get(rng.random_range(0..hosts.len().max(1))) {
            cages[k].clear();
            cages[host].push(cell);
            cage_of[cell] = Some(host);
        }
    }
    cages
        .into_iter()
        .filter(|cage| cage.len() >= SMALLEST_CAGE)
        .map(|mut cage| {
            cage.sort_unstable();
            cage.into_iter().map(|c| size.cell_at(c)).collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::fill::random_solution;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn cages_are_connected_groups_of_different_digits() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let solution = random_solution(&Rules::classic(Size::NINE), &mut rng);
        let cages = cages(&solution, &mut rng);
        let mut covered = 0;
        for cage in &cages {
            assert!(
                (SMALLEST_CAGE..=LARGEST_CAGE).contains(&cage.len()),
                "{cage:?}"
            );
            let mut digits: Vec<u8> = cage
                .iter()
                .map(|&c| solution.get(Size::NINE.index(c)))
                .collect();
            digits.sort_unstable();
            digits.dedup();
            assert_eq!(digits.len(), cage.len(), "{cage:?}");
            // Connected: every cell is reached from the first.
            let mut reached = vec![cage[0]];
            while let Some(&next) = cage.iter().find(|c| {
                !reached.contains(c)
                    && reached
                        .iter()
                        .any(|r| r.row().abs_diff(c.row()) + r.col().abs_diff(c.col()) == 1)
            }) {
                reached.push(next);
            }
            assert_eq!(reached.len(), cage.len(), "{cage:?}");
            covered += cage.len();
        }
        assert!(covered >= 72, "{covered} cells caged");
    }
}
