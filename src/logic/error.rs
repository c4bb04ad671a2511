//! Why a solving path cannot be had. Both the path ([`super::path`]) and
//! the reasoned steps it takes ([`super::reason`]) report it, so it lives
//! below both of them rather than in either.

use crate::engine::{EngineError, GiveUp};
use crate::solve::Status;
use thiserror::Error;

/// Why there is no path.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PathError {
    /// The puzzle has no solution, or more than one: a path leads to one
    /// solution, so the puzzle must have exactly one.
    #[error("the puzzle has {}: a solving path needs exactly one solution", match .0 { Status::None => "no solution", _ => "more than one solution" })]
    NotUnique(Status),
    /// The engine gave up finding the solution.
    #[error("gave up: {0}")]
    GaveUp(GiveUp),
    /// The puzzle has cells outside the grid (sigh's `Var`), which the
    /// techniques, all of them about the grid's houses and candidates, do
    /// not take.
    #[error(
        "the techniques reason on the grid, and this puzzle has cells outside it (sigh's `Var`): \
         solve, check or count it instead"
    )]
    OutsideGrid,
    /// A step broke the solution, or the engine its contract: a bug.
    #[error("internal error: {0}")]
    Internal(String),
}

impl PathError {
    /// The status that reports it.
    pub fn status(&self) -> Status {
        match self {
            PathError::NotUnique(status) => *status,
            PathError::GaveUp(_) => Status::GaveUp,
            PathError::Internal(_) | PathError::OutsideGrid => Status::Error,
        }
    }
}

impl From<EngineError> for PathError {
    fn from(e: EngineError) -> Self {
        match e {
            EngineError::GaveUp(reason) => PathError::GaveUp(reason),
            EngineError::Internal(message) => PathError::Internal(message),
        }
    }
}
