//! The one-line format: a character per cell, `.` for a blank.

use super::Render;
use crate::grid::Grid;

/// One line per grid.
pub struct Line;

impl Render for Line {
    fn grid(&self, grid: &Grid, _clues: &Grid, _highlight: &[usize], _color: bool) -> String {
        grid.to_line() + "\n"
    }
}
