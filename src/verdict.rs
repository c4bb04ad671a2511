//! Verdicts: what z3doku concludes about a puzzle, from any engine, with
//! every solution confirmed by the independent checker first.

use crate::check::{ClueClash, clue_clash, verify_solution};
use crate::engine::{Engine, EngineError, Settings, new_engine};
use crate::grid::{Cell, Grid};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};
use thiserror::Error;

/// What z3doku concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// A solution, uniqueness not asked.
    Solved,
    /// Exactly one solution, proven.
    Unique,
    /// More than one solution.
    Multiple,
    /// No solution.
    None,
    /// No answer within the limits.
    GaveUp,
}

impl Status {
    /// The word for it in output and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::None => "none",
            Status::GaveUp => "gave-up",
        }
    }

    /// The process exit status that reports it (see the README).
    pub fn exit_code(self) -> u8 {
        match self {
            Status::Solved | Status::Unique => 0,
            Status::None => 1,
            Status::Multiple => 3,
            Status::GaveUp => 4,
        }
    }
}

/// A checked solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The solved board.
    pub grid: Grid,
    /// The solver's model as text, when it was asked for.
    pub model: Option<String>,
}

/// Everything z3doku found out about one puzzle.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The puzzle as read.
    pub puzzle: Grid,
    /// The conclusion.
    pub status: Status,
    /// The solutions found: one, or two when not unique.
    pub solutions: Vec<Solution>,
    /// Clues that break a rule by themselves, when that is why there is no
    /// solution.
    pub clash: Option<ClueClash>,
    /// Why the engine gave up, when it did.
    pub gave_up: Option<String>,
    /// Time spent in the engine.
    pub elapsed: Duration,
}

impl Outcome {
    /// Where the first two solutions differ (empty unless there are two).
    pub fn differing_cells(&self) -> Vec<Cell> {
        match self.solutions.as_slice() {
            [a, b, ..] => a.grid.differing(&b.grid),
            _ => Vec::new(),
        }
    }
}

/// An engine broke its contract: its answer failed the independent checker,
/// or it could not produce one. Always a bug in z3doku.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("internal error: {0} (this is a bug in z3doku; please report it with the puzzle)")]
pub struct InternalError(pub String);

/// Solves `puzzle` with a new engine for `settings`; with `unique`, goes on
/// to prove the solution unique or find a second one.
pub fn solve(puzzle: &Grid, settings: &Settings, unique: bool) -> Result<Outcome, InternalError> {
    solve_with(new_engine(settings).as_mut(), puzzle, unique)
}

/// As [`solve`], with an engine the caller keeps across puzzles.
pub fn solve_with(
    engine: &mut dyn Engine,
    puzzle: &Grid,
    unique: bool,
) -> Result<Outcome, InternalError> {
    let mut outcome = Outcome {
        puzzle: puzzle.clone(),
        status: Status::None,
        solutions: Vec::new(),
        clash: clue_clash(puzzle),
        gave_up: None,
        elapsed: Duration::ZERO,
    };
    if outcome.clash.is_some() {
        return Ok(outcome);
    }
    let wanted = if unique { 2 } else { 1 };
    let start = Instant::now();
    let searched = collect(engine, puzzle, wanted, &mut outcome.solutions);
    outcome.elapsed = start.elapsed();
    outcome.status = match (searched, outcome.solutions.len()) {
        (Err(SearchError::GaveUp(reason)), _) => {
            outcome.gave_up = Some(reason);
            Status::GaveUp
        }
        (Err(SearchError::Internal(e)), _) => return Err(e),
        (Ok(()), 0) => Status::None,
        (Ok(()), 1) if unique => Status::Unique,
        (Ok(()), 1) => Status::Solved,
        (Ok(()), _) => Status::Multiple,
    };
    Ok(outcome)
}

enum SearchError {
    GaveUp(String),
    Internal(InternalError),
}

/// Gathers up to `limit` checked solutions of `puzzle` into `into`.
fn collect(
    engine: &mut dyn Engine,
    puzzle: &Grid,
    limit: usize,
    into: &mut Vec<Solution>,
) -> Result<(), SearchError> {
    let mut wrong = None;
    let result = engine.solutions(puzzle, &mut |found| {
        if let Err(e) = verify_solution(puzzle, found.grid) {
            wrong = Some(InternalError(format!(
                "the engine's solution {} is wrong: {e}",
                found.grid
            )));
            return ControlFlow::Break(());
        }
        into.push(Solution {
            grid: found.grid.clone(),
            model: found.model.map(str::to_string),
        });
        if into.len() >= limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    if let Some(e) = wrong {
        return Err(SearchError::Internal(e));
    }
    result.map_err(|e| match e {
        EngineError::GaveUp(reason) => SearchError::GaveUp(reason),
        EngineError::Internal(message) => SearchError::Internal(InternalError(message)),
    })
}
