//! The one-line format: a character per cell, `.` for a blank.

use super::Render;
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::grid::Grid;

/// One line per grid.
pub struct Line;

impl Render for Line {
    fn grid(&self, grid: &Grid, puzzle: &Puzzle, _highlight: &[usize], _color: bool) -> String {
        // Values as sigh prints them on a board whose digits run from 0;
        // the cells outside the grid, if any, after a blank.
        puzzle.rules().solution_line(grid) + "\n"
    }
}
