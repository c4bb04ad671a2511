//! What the tests of board shapes (`value_ranges.rs`, `more_values.rs`)
//! share: counting on each engine with every solution checked, and sigh's
//! names for random cells and walks.

use std::time::Duration;
use z3doku::engine::{Budget, Settings, new_engine};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::check::verify_solution;
use z3doku::puzzle::grid::Grid;
use z3doku::puzzle::sigh::to_sigh;
use z3doku::solve::count_with;

/// Up to `limit` solutions of `puzzle` on one engine within `seconds`,
/// every one passed by the checker; `None` when the engine gave up.
pub fn count_on(
    settings: &Settings,
    puzzle: &Puzzle,
    limit: usize,
    seconds: u64,
) -> Option<(usize, Vec<Grid>)> {
    let budget = Budget::within(Some(Duration::from_secs(seconds)));
    let mut engine = new_engine(settings);
    let mut found = Vec::new();
    let count = count_with(engine.as_mut(), puzzle, limit, &budget, &mut |grid| {
        verify_solution(puzzle, grid).unwrap_or_else(|e| panic!("{e}: {puzzle:?}"));
        found.push(grid.clone());
    })
    .unwrap();
    count.gave_up.is_none().then_some((count.solutions, found))
}

/// The same count on every engine, which it returns.
pub fn count_everywhere(puzzle: &Puzzle, limit: usize) -> usize {
    let counts: Vec<usize> = super::every_engine()
        .iter()
        .map(|settings| {
            count_on(settings, puzzle, limit, 120)
                .unwrap_or_else(|| panic!("{settings:?} gave up on {}", to_sigh(puzzle).unwrap()))
                .0
        })
        .collect();
    assert!(
        counts.iter().all(|&n| n == counts[0]),
        "engines disagree ({counts:?}) on {}",
        to_sigh(puzzle).unwrap()
    );
    counts[0]
}

/// sigh's id of a cell (0-based row and column; boards up to 9x9 here).
pub fn id((r, c): (usize, usize)) -> String {
    format!("R{}C{}", r + 1, c + 1)
}

/// A walk of `len` distinct orthogonal neighbours on a board of `side`.
pub fn walk(random: &mut super::Rng, side: usize, len: usize) -> Vec<(usize, usize)> {
    'again: loop {
        let mut cells = vec![(random.below(side), random.below(side))];
        while cells.len() < len {
            let (r, c) = cells[cells.len() - 1];
            let next: Vec<(usize, usize)> = [(0, 1), (2, 1), (1, 0), (1, 2)]
                .iter()
                .filter_map(|&(dr, dc)| {
                    let (r, c) = ((r + dr).checked_sub(1)?, (c + dc).checked_sub(1)?);
                    (r < side && c < side && !cells.contains(&(r, c))).then_some((r, c))
                })
                .collect();
            if next.is_empty() {
                continue 'again;
            }
            cells.push(next[random.below(next.len())]);
        }
        return cells;
    }
}

/// sigh's ids of `cells`, each after a `~`.
pub fn ids(cells: &[(usize, usize)]) -> String {
    cells.iter().map(|&c| format!("~{}", id(c))).collect()
}
