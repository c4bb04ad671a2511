//! The setter's second question: which clues of a unique puzzle are
//! needed, and a minimal puzzle with the same solution.
//!
//! A clue is needed when the puzzle without it has a second solution; the
//! engine is asked for a solution other than the known one, which Z3
//! answers in one check with that solution blocked. A needed clue stays
//! needed in every smaller puzzle (fewer clues only allow more solutions),
//! so the minimal puzzle keeps the needed clues and shrinks only the
//! redundant ones, by the same deletion that names the clues to blame for a
//! puzzle without solution.

use super::{
    InternalError, Outcome, Pipeline, Status, Verification, search_excluding, shrink, solve_with,
};
use crate::engine::{Budget, Engine, GiveUp};
use crate::puzzle::Puzzle;
use crate::puzzle::grid::{Cell, Clue, Grid, Size};
use std::fmt;
use std::time::Instant;

/// What minimizing a puzzle found.
#[derive(Clone, Debug)]
pub struct Minimized {
    /// The verdict on the puzzle as given: only a [`Status::Unique`] one is
    /// minimized; [`Status::None`] comes with the clues to blame when
    /// explained, [`Status::Multiple`] with two solutions.
    pub outcome: Outcome,
    /// The clues without which the puzzle has a second solution.
    pub needed: Vec<Clue>,
    /// The clues the puzzle can do without, each on its own.
    pub redundant: Vec<Clue>,
    /// A puzzle with the same unique solution in which every clue is
    /// needed (but for the ones asked to be kept); `None` unless the
    /// puzzle is unique and the engine did not give up.
    pub minimal: Option<Puzzle>,
    /// Searches the engine ran (for Z3, about one satisfiability check
    /// each).
    pub checks: usize,
}

impl Minimized {
    /// One line about the result: the verdict when the puzzle is not
    /// unique (as [`Outcome::summary`]), else e.g. `24 clues: 20 needed, 4
    /// redundant; a minimal puzzle keeps 22 (61 checks, 3.1 ms)`.
    pub fn summary(&self) -> String {
        match (&self.minimal, self.outcome.status) {
            (Some(minimal), Status::Unique) => format!(
                "{} clues: {} needed, {} redundant; a minimal puzzle keeps {} ({} checks, {:.1} ms)",
                self.outcome.puzzle.givens().clue_count(),
                self.needed.len(),
                self.redundant.len(),
                minimal.givens().clue_count(),
                self.checks,
                self.outcome.elapsed.as_secs_f64() * 1000.0
            ),
            _ => self.outcome.summary(),
        }
    }
}

impl Pipeline {
    /// Minimizes `puzzle` (see [`minimize_with`]) within the request's
    /// timeout; with [`super::Request::explain`], the clues to blame when
    /// there is no solution.
    pub fn minimize(&mut self, puzzle: &Puzzle, keep: &[Cell]) -> Result<Minimized, InternalError> {
        let start = Instant::now();
        let budget = self.request.budget();
        let mut minimized = minimize_with(self.engine.as_mut(), puzzle, keep, &budget)?;
        self.record_and_explain(&mut minimized.outcome, &budget)?;
        if self.request.verify && minimized.outcome.status != Status::GaveUp {
            // The deletion is deterministic: engines that agree on every
            // question reach the same minimal puzzle.
            let (kind, referee) = self.referee();
            let again = minimize_with(referee, puzzle, keep, &budget)?;
            let same = |m: &Minimized| {
                (
                    m.outcome.status,
                    m.needed.clone(),
                    m.minimal.as_ref().map(|p| p.givens().to_line()),
                )
            };
            minimized.outcome.verification = if again.outcome.status == Status::GaveUp {
                Verification::NotVerified
            } else if same(&again) == same(&minimized) {
                Verification::Verified(kind)
            } else {
                return Err(InternalError(format!(
                    "the {} engine does not confirm the minimization: it says {}, against {}",
                    kind.name(),
                    again.summary(),
                    minimized.summary()
                )));
            };
        }
        minimized.outcome.elapsed = start.elapsed();
        Ok(minimized)
    }
}

/// Finds which clues of `puzzle` are needed and a minimal puzzle with the
/// same solution, with `engine`; the clues in the `keep` cells stay in it
/// whether needed or not (cells without a clue are ignored). Gives up when
/// `budget` is spent, with [`Status::GaveUp`].
pub fn minimize_with(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    keep: &[Cell],
    budget: &Budget,
) -> Result<Minimized, InternalError> {
    let start = Instant::now();
    let outcome = solve_with(engine, puzzle, true, budget)?;
    let mut minimized = Minimized {
        outcome,
        needed: Vec::new(),
        redundant: Vec::new(),
        minimal: None,
        checks: 2,
    };
    let solution = match (
        minimized.outcome.status,
        minimized.outcome.solutions.first(),
    ) {
        (Status::Unique, Some(solution)) => solution.grid.clone(),
        _ => return Ok(minimized),
    };
    let mut checks = 0;
    let mut unique = |clues: &[Clue], engine: &mut dyn Engine| {
        checks += 1;
        has_other_solution(engine, &puzzle.with_clues(clues), &solution, budget)
            .map(|other| other.map(|other| !other))
    };
    let clues = puzzle.givens().clue_list();
    let mut gave_up = None;
    for (k, &clue) in clues.iter().enumerate() {
        let mut others = clues.clone();
        others.remove(k);
        match unique(&others, engine)? {
            Ok(true) => minimized.redundant.push(clue),
            Ok(false) => minimized.needed.push(clue),
            Err(reason) => {
                gave_up = Some(reason);
                break;
            }
        }
    }
    if gave_up.is_none() {
        let (kept, droppable): (Vec<Clue>, Vec<Clue>) = minimized
            .redundant
            .iter()
            .partition(|c| keep.contains(&c.cell));
        let fixed: Vec<Clue> = minimized.needed.iter().copied().chain(kept).collect();
        let (left, complete) = shrink(droppable, &mut |subset| {
            let together: Vec<Clue> = fixed.iter().chain(subset).copied().collect();
            Ok(match unique(&together, engine)? {
                Ok(unique) => Some(unique),
                Err(reason) => {
                    gave_up = Some(reason);
                    None
                }
            })
        })?;
        if complete {
            let clues: Vec<Clue> = fixed.into_iter().chain(left).collect();
            minimized.minimal = Some(puzzle.with_clues(&clues));
        }
    }
    minimized.checks += checks;
    minimized.outcome.elapsed = start.elapsed();
    if let Some(reason) = gave_up {
        minimized.outcome.status = Status::GaveUp;
        minimized.outcome.gave_up = Some(reason);
        minimized.minimal = None;
    }
    Ok(minimized)
}

/// Whether `puzzle` has a solution other than `solution`; `Err` when the
/// engine gave up.
fn has_other_solution(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    solution: &Grid,
    budget: &Budget,
) -> Result<Result<bool, GiveUp>, InternalError> {
    let mut found = false;
    let searched = search_excluding(
        engine,
        puzzle,
        std::slice::from_ref(solution),
        1,
        budget,
        &mut |_| found = true,
    )?;
    Ok(searched.map(|()| found))
}

/// Why a list of cells could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellListError {
    /// The token that is not a cell of the board.
    pub token: String,
    /// The board's side.
    pub side: usize,
}

impl fmt::Display for CellListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a cell: write rROWcCOL, with ROW and COL from 1 to {}, e.g. r1c1",
            self.token, self.side
        )
    }
}

impl std::error::Error for CellListError {}

/// Reads cells written as `r1c1,r5c5` (commas or spaces between them,
/// either case) on a board of `size`.
pub fn parse_cells(text: &str, size: Size) -> Result<Vec<Cell>, CellListError> {
    let side = size.side();
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|token| {
            let bad = || CellListError {
                token: token.to_string(),
                side,
            };
            let lower = token.to_ascii_lowercase();
            let (row, col) = lower
                .strip_prefix('r')
                .and_then(|rest| rest.split_once('c'))
                .ok_or_else(bad)?;
            let number = |s: &str| {
                s.parse::<usize>()
                    .ok()
                    .filter(|n| (1..=side).contains(n) && s.chars().all(|c| c.is_ascii_digit()))
            };
            match (number(row), number(col)) {
                (Some(r), Some(c)) => Ok(size.cell(r - 1, c - 1)),
                _ => Err(bad()),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_and_bad_tokens_are_named() {
        let nine = Size::NINE;
        assert_eq!(
            parse_cells("r1c1, R9C9", nine),
            Ok(vec![nine.cell(0, 0), nine.cell(8, 8)])
        );
        for bad in ["r0c1", "r1c10", "x1c1", "r1", "r+1c1", "r1c1c1"] {
            let error = parse_cells(&format!("r2c2,{bad}"), nine).err();
            assert_eq!(error.map(|e| e.token), Some(bad.to_string()), "{bad}");
        }
    }
}
