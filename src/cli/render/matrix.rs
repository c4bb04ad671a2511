//! The Z3 notebook's `print_matrix` form:
//!
//! ```text
//! [[7, 1, 5, 8, 9, 4, 6, 3, 2],
//!  [2, 3, 4, 5, 1, 6, 8, 9, 7],
//!  ...
//!  [5, 4, 6, 9, 7, 2, 3, 8, 1]]
//! ```
//!
//! Values are numbers, so boards above 9x9 print `10` and up as numbers too.

use super::Render;
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::grid::Grid;

/// Rows of numbers in brackets.
pub struct Matrix;

impl Render for Matrix {
    fn grid(&self, grid: &Grid, puzzle: &Puzzle, _highlight: &[usize], _color: bool) -> String {
        // Each digit's value: one less on a board whose digits run from 0,
        // where a blank, which is 0 elsewhere, is `.`.
        let lowest = puzzle.rules().lowest_value();
        let value = |&d: &u8| match (d, lowest) {
            (0, 0) => ".".to_string(),
            _ => (d + lowest).saturating_sub(1).to_string(),
        };
        let rows: Vec<String> = grid
            .rows()
            .map(|row| {
                let cells: Vec<String> = row.iter().map(value).collect();
                format!("[{}]", cells.join(", "))
            })
            .collect();
        let mut text = format!("[{}]\n", rows.join(",\n "));
        // The cells outside the grid, if any, as one more list.
        let extra: Vec<String> = grid.extra_cells().iter().map(value).collect();
        if !extra.is_empty() {
            text += &format!("[{}]\n", extra.join(", "));
        }
        text
    }
}
