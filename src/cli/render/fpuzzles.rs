//! The f-puzzles link: the puzzle and its rules, to open in f-puzzles or
//! SudokuPad, with the solution under `solution` when it is proven to be
//! the only one.

use super::{Render, Show};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::fpuzzles::write::to_link;
use z3doku::puzzle::grid::Grid;
use z3doku::solve::{Outcome, Status};

/// One f-puzzles link.
pub struct Fpuzzles;

impl Render for Fpuzzles {
    fn grid(&self, grid: &Grid, puzzle: &Puzzle, _highlight: &[usize], _color: bool) -> String {
        to_link(puzzle, Some(grid)) + "\n"
    }

    /// One link for the puzzle, whatever the number of solutions found.
    /// f-puzzles and SudokuPad take the link's `solution` as *the* answer
    /// and mark any other wrong, so a solution goes in only when it is
    /// proven unique; [`missing_solution`] says why it is left out.
    fn outcome(&self, outcome: &Outcome, show: Show) -> String {
        let mut out = String::new();
        if show.models {
            for model in outcome.solutions.iter().filter_map(|s| s.model.as_ref()) {
                out += model;
            }
        }
        if show.grids && !outcome.solutions.is_empty() {
            let unique = outcome
                .solutions
                .first()
                .filter(|_| outcome.status == Status::Unique);
            out += &to_link(&outcome.puzzle, unique.map(|s| &s.grid));
            out.push('\n');
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

/// Why the link of a puzzle with a solution found holds none, for standard
/// error; `None` when it holds one, or when no solution was found.
pub fn missing_solution(outcome: &Outcome) -> Option<&'static str> {
    if outcome.solutions.is_empty() {
        return None;
    }
    match outcome.status {
        Status::Unique => None,
        Status::Solved => Some(
            "the link holds no solution, as it is not proven the only one (add --unique to prove it)",
        ),
        Status::Multiple => Some("the link holds no solution, as the puzzle has more than one"),
        _ => Some("the link holds no solution, as it could not be proven the only one"),
    }
}
