//! Solving as a person does: named techniques on a candidate grid, the
//! step-by-step path they make, and the ratings people know (Sudoku
//! Explainer's ER/EP/ED and qqwing's levels).
//!
//! The techniques read houses from the puzzle's [`Rules`](crate::puzzle::rules::Rules),
//! so they work on every board size and on variants, where they stay sound
//! (a house is a house whatever else the rules say). What the houses cannot
//! see in a variant, the engine proves: see [`reason`].
//!
//! ```
//! use z3doku::engine::{Budget, Settings, EngineKind, new_engine};
//! use z3doku::logic::{Logic, Path, Rating, unique_solution};
//! use z3doku::puzzle::{Puzzle, parse::parse_line};
//!
//! let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
//! let puzzle = Puzzle::classic(parse_line(line, 1, None)?);
//! let mut engine = new_engine(&Settings { engine: EngineKind::Native, ..Settings::default() });
//! let solution = unique_solution(engine.as_mut(), &puzzle, &Budget::unbounded())?;
//! let (rating, path) = Rating::rate(&puzzle, &solution, Logic::default(), engine.as_mut())?;
//! assert!(!path.steps.is_empty());
//! assert!(rating.er >= rating.ed);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod aligned;
mod binary;
mod bug;
mod chains;
mod cycles;
mod direct;
mod error;
mod fish;
mod forcing;
mod implication;
pub(crate) mod intersections;
mod links;
mod nested;
pub mod path;
pub mod pencil;
mod propagate;
pub mod rating;
pub mod reason;
pub mod rules;
pub mod seen;
pub mod select;
mod singles;
pub mod step;
mod subsets;
pub mod technique;
pub mod tutor;
mod unique;
mod wings;

pub use path::{Logic, Path, PathError, hint, next_step, unique_solution};
pub use pencil::Pencil;
pub use rating::{QqwingLevel, Rating};
pub use seen::Seen;
pub use step::Step;
pub use technique::{Difficulty, Technique};
pub use tutor::{DEFAULT_TIMEOUT, Tutor, Walk};

/// What the tests of SE's techniques share: a classic puzzle rated as
/// `z3doku rate` rates it, and the steps of one technique on its path.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Logic, Path, Rating, Technique, unique_solution};
    use crate::engine::{Budget, EngineKind, Settings, new_engine};
    use crate::puzzle::Puzzle;
    use crate::puzzle::parse::parse_line;

    /// The rating and path of the classic puzzle `line`, by the native
    /// engine's solution, without words.
    pub(crate) fn rate_line(line: &str) -> (Rating, Path) {
        let puzzle = Puzzle::classic(parse_line(line, 1, None).unwrap());
        let mut engine = new_engine(&Settings {
            engine: EngineKind::Native,
            ..Settings::default()
        });
        let solution = unique_solution(engine.as_mut(), &puzzle, &Budget::unbounded()).unwrap();
        let logic = Logic {
            words: false,
            ..Logic::default()
        };
        Rating::rate(&puzzle, &solution, logic, engine.as_mut()).unwrap()
    }

    /// The ER (in tenths) and path of the classic puzzle `line`.
    pub(crate) fn rate(line: &str) -> (u16, Path) {
        let (rating, path) = rate_line(line);
        (rating.er.0, path)
    }

    /// The ratings of the steps of `technique` on `path`.
    pub(crate) fn rated(path: &Path, technique: Technique) -> Vec<u16> {
        path.steps
            .iter()
            .filter(|s| s.technique == technique)
            .filter_map(|s| s.difficulty.map(|d| d.0))
            .collect()
    }
}
