//! Output formats: one module per format, each behind the [`Render`] trait.

mod fpuzzles;
mod frame;
mod json;
mod line;
mod matrix;
mod pencil;
mod picture;
mod pretty;
mod sigh;

pub use fpuzzles::{Fpuzzles, missing_solution};
pub use json::Json;
pub use line::Line;
pub use matrix::Matrix;
pub use pencil::{DECIDING_MARK, pencil_grid};
pub use picture::{Svg, emit, folder, numbered, outcome_picture, refuse_terminal};
pub use pretty::Pretty;
pub use sigh::Sigh;

use super::args::{PictureFormat, ResultFormat};
use std::fmt::Write;
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::grid::Grid;
use z3doku::solve::{Outcome, Status};

impl ResultFormat {
    /// The renderer for this format.
    pub fn renderer(self) -> Box<dyn Render> {
        match self {
            ResultFormat::Pretty => Box::new(Pretty),
            ResultFormat::Line => Box::new(Line),
            ResultFormat::Matrix => Box::new(Matrix),
            ResultFormat::Json => Box::new(Json),
            ResultFormat::Fpuzzles => Box::new(Fpuzzles),
            ResultFormat::Sigh => Box::new(Sigh),
            // A PNG is drawn from the SVG as it is written out (see `emit`).
            ResultFormat::Svg | ResultFormat::Png => Box::new(Svg),
        }
    }

    /// The picture format, for `svg` and `png`.
    pub fn picture(self) -> Option<PictureFormat> {
        match self {
            ResultFormat::Svg => Some(PictureFormat::Svg),
            ResultFormat::Png => Some(PictureFormat::Png),
            _ => None,
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
        let board = outcome.puzzle.rules();
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
                    board.value_char(a.grid.get(i)),
                    board.value_char(b.grid.get(i))
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use z3doku::engine::{EngineKind, Settings, new_engine};
    use z3doku::puzzle::grid::Size;
    use z3doku::puzzle::parse::parse_puzzle;
    use z3doku::solve::{Solution, count_with};

    /// A full board of `side`, as the native engine first fills it.
    fn full(side: usize) -> Grid {
        let size = Size::from_side(side).unwrap_or_else(|| panic!("{side}"));
        let mut engine = new_engine(&Settings {
            engine: EngineKind::Native,
            ..Settings::default()
        });
        let mut first = None;
        let empty = Puzzle::classic(Grid::empty(size));
        count_with(
            engine.as_mut(),
            &empty,
            1,
            &z3doku::engine::Budget::unbounded(),
            &mut |g| first = Some(g.clone()),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        first.unwrap_or_else(|| panic!("no {size} board"))
    }

    proptest! {
        #[test]
        fn every_form_reads_back(
            side in prop::sample::select(vec![1usize, 2, 4, 5, 6, 8, 9, 10, 12, 16, 25]),
            blanks in prop::collection::vec(any::<bool>(), 625),
        ) {
            let mut grid = full(side);
            for (i, blank) in blanks.into_iter().take(grid.size().cells()).enumerate() {
                if blank {
                    grid.set(i, 0);
                }
            }
            let puzzle = Puzzle::classic(grid.clone());
            let outcome = Outcome {
                status: Status::Solved,
                solutions: vec![Solution { grid: grid.clone(), model: None }],
                ..Outcome::new(&puzzle)
            };
            let show = Show { grids: true, ..Show::default() };
            for format in [ResultFormat::Pretty, ResultFormat::Line, ResultFormat::Matrix] {
                let text = format.renderer().outcome(&outcome, show);
                prop_assert_eq!(parse_puzzle(&text, None), Ok(grid.clone()), "{:?}\n{}", format, text);
            }
        }
    }
}
