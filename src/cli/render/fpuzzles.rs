//! The f-puzzles link: the puzzle, its rules and the solution, to open in
//! f-puzzles or SudokuPad.

use super::Render;
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::fpuzzles::write::to_link;
use z3doku::puzzle::grid::Grid;

/// One f-puzzles link per solution.
pub struct Fpuzzles;

impl Render for Fpuzzles {
    fn grid(&self, grid: &Grid, puzzle: &Puzzle, _highlight: &[usize], _color: bool) -> String {
        to_link(puzzle, Some(grid)) + "\n"
    }
}
