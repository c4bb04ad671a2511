//! Property tests: random valid grids with random clues removed.
//!
//! Every engine and encoding agrees with an independent backtracking
//! counter on solvability, uniqueness and counts up to a small limit; every
//! solution passes the checker. (That every output form reads back is a
//! property test of the command line's renderers, beside them.)

use crate::common;

use common::backtracking_count;
use proptest::prelude::*;
use z3doku::engine::{Budget, EncodingKind, EngineKind, Settings, new_engine};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::check::verify_solution;
use z3doku::puzzle::grid::{Grid, Size};
use z3doku::solve::{Status, count_with, solve_with};

/// A solved grid of `size`: the standard pattern, shuffled by symmetries
/// that keep it valid (digit relabelling, rows within bands, bands, and the
/// same for columns), driven by `seed`.
fn solved_grid(n: usize, seed: &[usize]) -> Grid {
    let side = n * n;
    let size = Size::from_side(side).unwrap_or_else(|| panic!("no {side}x{side}"));
    let mut k = 0;
    let mut next = |bound: usize| {
        k += 1;
        seed[k % seed.len()].wrapping_mul(k + 7) % bound
    };
    let mut shuffle = |v: &mut Vec<usize>| {
        for i in (1..v.len()).rev() {
            v.swap(i, next(i + 1));
        }
    };
    let lines = |shuffle: &mut dyn FnMut(&mut Vec<usize>)| -> Vec<usize> {
        let mut bands: Vec<usize> = (0..n).collect();
        shuffle(&mut bands);
        let mut out = Vec::new();
        for b in bands {
            let mut within: Vec<usize> = (0..n).collect();
            shuffle(&mut within);
            out.extend(within.into_iter().map(|r| b * n + r));
        }
        out
    };
    let rows = lines(&mut shuffle);
    let cols = lines(&mut shuffle);
    let mut digits: Vec<usize> = (1..=side).collect();
    shuffle(&mut digits);
    let cells: Vec<u8> = (0..size.cells())
        .map(|i| {
            let (r, c) = (rows[i / side], cols[i % side]);
            digits[(n * (r % n) + r / n + c) % side] as u8
        })
        .collect();
    Grid::from_cells(size, &cells).unwrap_or_else(|| panic!("pattern out of range"))
}

/// A puzzle: a solved grid with each cell kept with probability `keep`%.
fn puzzle(n: usize) -> impl Strategy<Value = Grid> {
    (
        prop::collection::vec(any::<usize>(), 8),
        15usize..70,
        prop::collection::vec(0usize..100, n.pow(4)),
    )
        .prop_map(move |(seed, keep, dice)| {
            let mut grid = solved_grid(n, &seed);
            for (i, d) in dice.into_iter().enumerate() {
                if d >= keep {
                    grid.set(i, 0);
                }
            }
            grid
        })
}

/// Every engine, and every encoding of the Z3 engine.
fn every_setting() -> Vec<Settings> {
    let mut out = Vec::new();
    for engine in EngineKind::ALL {
        let encodings: &[EncodingKind] = if engine == EngineKind::Z3 {
            &EncodingKind::ALL
        } else {
            &[EncodingKind::Int]
        };
        for &encoding in encodings {
            out.push(Settings {
                engine,
                encoding,
                ..Settings::default()
            });
        }
    }
    out
}

const LIMIT: usize = 3;

fn agree(givens: &Grid) -> Result<(), TestCaseError> {
    let expected = backtracking_count(givens, LIMIT);
    let puzzle = &Puzzle::classic(givens.clone());
    for settings in every_setting() {
        let mut engine = new_engine(&settings);
        let mut found = Vec::new();
        let count = count_with(
            engine.as_mut(),
            puzzle,
            LIMIT,
            &Budget::unbounded(),
            &mut |g| found.push(g.clone()),
        )
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(count.solutions, expected, "{:?} on {}", settings, puzzle);
        for g in &found {
            prop_assert_eq!(verify_solution(puzzle, g), Ok(()));
        }
        let outcome = solve_with(engine.as_mut(), puzzle, true, &Budget::unbounded())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let status = match expected {
            0 => Status::None,
            1 => Status::Unique,
            _ => Status::Multiple,
        };
        prop_assert_eq!(outcome.status, status, "{:?} on {}", settings, puzzle);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn engines_agree_on_9x9(p in puzzle(3)) {
        agree(&p)?;
    }

    #[test]
    fn engines_agree_on_4x4(p in puzzle(2)) {
        agree(&p)?;
    }
}

proptest! {
    #[test]
    fn solved_grids_are_valid(n in 2usize..=5, seed in prop::collection::vec(any::<usize>(), 8)) {
        let grid = solved_grid(n, &seed);
        let empty = Puzzle::classic(Grid::empty(grid.size()));
        prop_assert_eq!(verify_solution(&empty, &grid), Ok(()));
    }
}
