//! The questions people ask of a puzzle, answered in one place for the
//! command line and the batch runner: the next step, the whole path, and
//! the ratings. Each finds the puzzle's one solution first with the native
//! search (checked by the independent checker), so that every step can be
//! checked against it.

use super::path::{Logic, Path, PathError, hint, unique_solution};
use super::rating::Rating;
use super::step::Step;
use crate::engine::{Engine, EngineKind, Settings, new_engine};
use crate::puzzle::Puzzle;
use crate::puzzle::grid::Grid;
use std::time::{Duration, Instant};

/// Answers hints, paths and ratings, keeping its engines between puzzles.
pub struct Tutor {
    native: Box<dyn Engine>,
    prover: Box<dyn Engine>,
    timeout: Option<Duration>,
}

impl Tutor {
    /// A tutor whose reasoned steps (variant puzzles) are proved by
    /// `prover`, within `timeout` per question; past it the rest is
    /// finished by search.
    pub fn new(prover: EngineKind, timeout: Option<Duration>) -> Tutor {
        let native = Settings {
            engine: EngineKind::Native,
            ..Settings::default()
        };
        Tutor {
            native: new_engine(&native),
            prover: new_engine(&Settings {
                engine: prover,
                ..Settings::default()
            }),
            timeout,
        }
    }

    /// When a question asked now must be answered by.
    fn deadline(&self) -> Option<Instant> {
        self.timeout.map(|t| Instant::now() + t)
    }

    fn start(&mut self, puzzle: &Puzzle) -> Result<(Grid, Option<Instant>), PathError> {
        let deadline = self.deadline();
        let solution = unique_solution(self.native.as_mut(), puzzle, deadline)?;
        Ok((solution, deadline))
    }

    /// The easiest next step; `None` when the puzzle is solved already.
    pub fn hint(&mut self, puzzle: &Puzzle) -> Result<Option<Step>, PathError> {
        let (solution, deadline) = self.start(puzzle)?;
        let logic = Logic {
            deadline,
            ..Logic::default()
        };
        hint(puzzle, &solution, logic, self.prover.as_mut())
    }

    /// The whole path.
    pub fn path(&mut self, puzzle: &Puzzle) -> Result<Path, PathError> {
        let (solution, deadline) = self.start(puzzle)?;
        let logic = Logic {
            deadline,
            ..Logic::default()
        };
        Path::find(puzzle, &solution, logic, self.prover.as_mut())
    }

    /// The ratings, with the path they come from. A rating reads only the
    /// steps' techniques and changes, so the steps come without sentences
    /// ([`Tutor::path`] has them).
    pub fn rate(&mut self, puzzle: &Puzzle) -> Result<(Rating, Path), PathError> {
        let (solution, deadline) = self.start(puzzle)?;
        self.rate_solved(puzzle, &solution, deadline)
    }

    /// The ratings of `puzzle`, whose one solution, checked by the
    /// independent checker, is `solution` (a batch has just proved it
    /// unique): the same as [`Tutor::rate`] without the search.
    pub fn rate_unique(
        &mut self,
        puzzle: &Puzzle,
        solution: &Grid,
    ) -> Result<(Rating, Path), PathError> {
        self.rate_solved(puzzle, solution, self.deadline())
    }

    fn rate_solved(
        &mut self,
        puzzle: &Puzzle,
        solution: &Grid,
        deadline: Option<Instant>,
    ) -> Result<(Rating, Path), PathError> {
        let logic = Logic {
            deadline,
            words: false,
            ..Logic::default()
        };
        Rating::rate(puzzle, solution, logic, self.prover.as_mut())
    }
}
