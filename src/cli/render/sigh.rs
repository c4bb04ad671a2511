//! sigh's puzzle string: the puzzle and its rules, to hand to sigh's
//! Interactive Sudoku Solver (paste it, or open it as `?q=`). A sigh string
//! has no place for a solution, so the puzzle is written as it was given,
//! once, whatever was found; a drawn grid (a hint's, say) is that grid's
//! digits as givens under the puzzle's rules.

use super::{Render, Show};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::grid::Grid;
use z3doku::puzzle::sigh::to_sigh;
use z3doku::solve::{Outcome, Status};

/// One sigh string.
pub struct Sigh;

/// The string, or the reason it cannot be written. The commands that offer
/// `-o sigh` ask [`to_sigh`] before they solve and refuse a puzzle it
/// cannot say, so the reason shows here only if a caller skipped that.
fn line(puzzle: &Puzzle) -> String {
    match to_sigh(puzzle) {
        Ok(text) => text + "\n",
        Err(e) => format!("# {e}\n"),
    }
}

impl Render for Sigh {
    fn grid(&self, grid: &Grid, puzzle: &Puzzle, _highlight: &[usize], _color: bool) -> String {
        line(&puzzle.with_givens(grid.clone()))
    }

    fn outcome(&self, outcome: &Outcome, show: Show) -> String {
        let mut out = String::new();
        if show.models {
            for model in outcome.solutions.iter().filter_map(|s| s.model.as_ref()) {
                out += model;
            }
        }
        if show.grids {
            out += &line(&outcome.puzzle);
        }
        if show.verdict {
            match outcome.status {
                Status::Unique => out += "unique\n",
                Status::Multiple => out += "not unique\n",
                _ => {}
            }
        }
        out
    }
}
