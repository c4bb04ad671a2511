//! The one-line format: a character per cell, `.` for a blank.

use super::Render;
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::grid::Grid;

/// One line per grid.
pub struct Line;

impl Render for Line {
    fn grid(&self, grid: &Grid, _puzzle: &Puzzle, _highlight: &[usize], _color: bool) -> String {
        grid.to_line() + "\n"
    }
}
