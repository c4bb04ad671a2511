//! Property tests: random valid grids with random clues removed.
//!
//! Every engine and encoding agrees with an independent backtracking
//! counter on solvability, uniqueness and counts up to a small limit; every
//! solution passes the checker; every output form reads back as the same
//! grid.

mod common;

use clap::ValueEnum;
use common::backtracking_count;
use proptest::prelude::*;
use z3doku::check::verify_solution;
use z3doku::encoding::EncodingKind;
use z3doku::engine::{EngineKind, Settings, new_engine};
use z3doku::grid::{Grid, Size};
use z3doku::parse::parse_puzzle;
use z3doku::render::{OutputFormat, Show};
use z3doku::verdict::{Outcome, Solution, Status, count_with, solve_with};

/// A solved grid of `size`: the standard pattern, shuffled by symmetries
/// that keep it valid (digit relabelling, rows within bands, bands, and the
/// same for columns), driven by `seed`.
fn solved_grid(size: Size, seed: &[usize]) -> Grid {
    let (n, side) = (size.box_size(), size.side());
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
fn puzzle(size: Size) -> impl Strategy<Value = Grid> {
    (
        prop::collection::vec(any::<usize>(), 8),
        15usize..70,
        prop::collection::vec(0usize..100, size.cells()),
    )
        .prop_map(move |(seed, keep, dice)| {
            let mut grid = solved_grid(size, &seed);
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
    for &engine in EngineKind::value_variants() {
        let encodings: &[EncodingKind] = if engine == EngineKind::Z3 {
            EncodingKind::value_variants()
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

fn agree(puzzle: &Grid) -> Result<(), TestCaseError> {
    let expected = backtracking_count(puzzle, LIMIT);
    for settings in every_setting() {
        let mut engine = new_engine(&settings);
        let mut found = Vec::new();
        let count = count_with(engine.as_mut(), puzzle, LIMIT, &mut |g| {
            found.push(g.clone())
        })
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(count.solutions, expected, "{:?} on {}", settings, puzzle);
        for g in &found {
            prop_assert_eq!(verify_solution(puzzle, g), Ok(()));
        }
        let outcome = solve_with(engine.as_mut(), puzzle, true)
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
    fn engines_agree_on_9x9(p in puzzle(Size::NINE)) {
        agree(&p)?;
    }

    #[test]
    fn engines_agree_on_4x4(p in puzzle(Size::from_box(2).unwrap_or_default())) {
        agree(&p)?;
    }
}

proptest! {
    #[test]
    fn every_form_reads_back(
        box_size in 2usize..=5,
        seed in prop::collection::vec(any::<usize>(), 8),
        blanks in prop::collection::vec(any::<bool>(), 625),
    ) {
        let size = Size::from_box(box_size).unwrap_or_default();
        let mut grid = solved_grid(size, &seed);
        for (i, blank) in blanks.into_iter().take(size.cells()).enumerate() {
            if blank {
                grid.set(i, 0);
            }
        }
        let outcome = Outcome {
            status: Status::Solved,
            solutions: vec![Solution { grid: grid.clone(), model: None }],
            ..Outcome::new(&grid)
        };
        let show = Show { grids: true, ..Show::default() };
        for format in [OutputFormat::Pretty, OutputFormat::Line, OutputFormat::Matrix] {
            let text = format.renderer().outcome(&outcome, show);
            prop_assert_eq!(parse_puzzle(&text, None), Ok(grid.clone()), "{:?}\n{}", format, text);
        }
    }

    #[test]
    fn solved_grids_are_valid(box_size in 2usize..=5, seed in prop::collection::vec(any::<usize>(), 8)) {
        let size = Size::from_box(box_size).unwrap_or_default();
        let grid = solved_grid(size, &seed);
        prop_assert_eq!(verify_solution(&Grid::empty(size), &grid), Ok(()));
    }
}
