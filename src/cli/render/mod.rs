//! Output formats: one module per format, each behind the [`Render`] trait.

mod json;
mod line;
mod matrix;
mod pretty;

pub use json::Json;
pub use line::Line;
pub use matrix::Matrix;
pub use pretty::Pretty;

use super::args::OutputFormat;
use std::fmt::Write;
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::grid::{Grid, digit_char};
use z3doku::solve::{Outcome, Status};

impl OutputFormat {
    /// The renderer for this format.
    pub fn renderer(self) -> Box<dyn Render> {
        match self {
            OutputFormat::Pretty => Box::new(Pretty),
            OutputFormat::Line => Box::new(Line),
            OutputFormat::Matrix => Box::new(Matrix),
            OutputFormat::Json => Box::new(Json),
        }
    }
}

/// What to show besides the verdict.
#[derive(Clone, Copy, Debug, Default)]
pub struct Show {
    /// Draw grids (solutions).
    pub grids: bool,
    /// Print each solution's model.
    pub models: bool,
    /// Print the verdict word (`unique`, `not unique`).
    pub verdict: bool,
    /// Use ANSI colour and bold.
    pub color: bool,
}

/// Turns results into text for standard output.
pub trait Render {
    /// How one grid of `puzzle` looks in this format; `highlight` lists the
    /// row-major indexes to mark, where the format can.
    fn grid(&self, grid: &Grid, puzzle: &Puzzle, highlight: &[usize], color: bool) -> String;

    /// The text for a solved (or not) puzzle: models, grids, differing
    /// cells, verdict, as `show` asks. Formats with their own structure
    /// (JSON) override it.
    fn outcome(&self, outcome: &Outcome, show: Show) -> String {
        let mut out = String::new();
        let size = outcome.puzzle.size();
        let differing: Vec<usize> = outcome
            .differing_cells()
            .into_iter()
            .map(|c| size.index(c))
            .collect();
        for solution in &outcome.solutions {
            if let Some(model) = solution.model.as_ref().filter(|_| show.models) {
                out += model;
            }
            if show.grids {
                out += &self.grid(&solution.grid, &outcome.puzzle, &differing, show.color);
            }
        }
        if let [a, b, ..] = outcome
            .solutions
            .as_slice()
            .get(..2)
            .filter(|_| show.grids)
            .unwrap_or_default()
        {
            for &i in &differing {
                let _ = writeln!(
                    out,
                    "{}: {} / {}",
                    size.cell_at(i),
                    digit_char(a.grid.get(i)),
                    digit_char(b.grid.get(i))
                );
            }
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
