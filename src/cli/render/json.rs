//! JSON: one object per puzzle, in the library's one [`Report`] schema.

use super::{Render, Show};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::grid::Grid;
use z3doku::report::Report;
use z3doku::solve::Outcome;

/// A JSON object.
pub struct Json;

impl Render for Json {
    fn grid(&self, grid: &Grid, puzzle: &Puzzle, _highlight: &[usize], _color: bool) -> String {
        serde_json::json!(puzzle.rules().value_line(grid)).to_string() + "\n"
    }

    fn outcome(&self, outcome: &Outcome, show: Show) -> String {
        Report::of_outcome(outcome, show.models).to_json_line()
    }
}
