//! Verdicts: what z3doku concludes about a puzzle, from any engine, with
//! every solution confirmed by the independent checker first.

use crate::check::{ClueClash, clue_clash, verify_solution};
use crate::engine::{Engine, EngineError, EngineKind, Found, Settings, new_engine};
use crate::grid::{Cell, Clue, Grid};
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
    /// Clues that together admit no solution: the clashing pair, or after
    /// [`explain`], a minimal conflicting set.
    pub conflicting: Vec<Clue>,
    /// Whether no clue can be dropped from [`Outcome::conflicting`] (false
    /// when [`explain`] ran out of time before it could make sure).
    pub conflict_is_minimal: bool,
    /// Why the engine gave up, when it did.
    pub gave_up: Option<String>,
    /// Time spent in the engine.
    pub elapsed: Duration,
    /// The engine that confirmed the verdict independently, after
    /// [`confirm`].
    pub verified_by: Option<EngineKind>,
}

impl Outcome {
    /// An outcome for `puzzle` before any search: status `None`, nothing
    /// found, nothing blamed.
    pub fn new(puzzle: &Grid) -> Outcome {
        Outcome {
            puzzle: puzzle.clone(),
            status: Status::None,
            solutions: Vec::new(),
            clash: None,
            conflicting: Vec::new(),
            conflict_is_minimal: true,
            gave_up: None,
            elapsed: Duration::ZERO,
            verified_by: None,
        }
    }

    /// The verdict and its evidence in one line, e.g. `unique: exactly one
    /// solution (24 clues, 41.2 ms)` or `no solution: these 4 clues
    /// conflict: r1c1=5 r2c7=5 r3c2=1 r9c1=2`.
    pub fn summary(&self) -> String {
        let clues = self.puzzle.clue_count();
        let ms = self.elapsed.as_secs_f64() * 1000.0;
        match self.status {
            Status::Solved => format!("solved ({clues} clues, {ms:.1} ms)"),
            Status::Unique => format!("unique: exactly one solution ({clues} clues, {ms:.1} ms)"),
            Status::Multiple => {
                let cells = self.differing_cells();
                let list: Vec<String> = cells.iter().map(Cell::to_string).collect();
                format!(
                    "not unique: at least 2 solutions, differing at {} cells: {}",
                    cells.len(),
                    list.join(" ")
                )
            }
            Status::None => match (&self.clash, self.conflicting.len()) {
                (Some(clash), _) => format!("no solution: {clash}"),
                (None, 0) => "no solution".to_string(),
                (None, n) => format!(
                    "no solution: these {n} clues conflict{}: {}",
                    if self.conflict_is_minimal {
                        ""
                    } else {
                        " (perhaps not all of them: finding a smaller set ran out of time)"
                    },
                    clue_text(&self.conflicting)
                ),
            },
            Status::GaveUp => format!(
                "gave up: {}",
                self.gave_up.as_deref().unwrap_or("no reason given")
            ),
        }
    }

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
    let clash = clue_clash(puzzle);
    let mut outcome = Outcome {
        conflicting: clash.iter().flat_map(ClueClash::clues).collect(),
        clash,
        ..Outcome::new(puzzle)
    };
    if outcome.clash.is_some() {
        return Ok(outcome);
    }
    let wanted = if unique { 2 } else { 1 };
    let start = Instant::now();
    let searched = search(engine, puzzle, wanted, &mut |found| {
        outcome.solutions.push(Solution {
            grid: found.grid.clone(),
            model: found.model.map(str::to_string),
        });
    })?;
    outcome.elapsed = start.elapsed();
    outcome.status = match (searched, outcome.solutions.len()) {
        (Search::GaveUp(reason), _) => {
            outcome.gave_up = Some(reason);
            Status::GaveUp
        }
        (Search::Done, 0) => Status::None,
        (Search::Done, 1) if unique => Status::Unique,
        (Search::Done, 1) => Status::Solved,
        (Search::Done, _) => Status::Multiple,
    };
    Ok(outcome)
}

/// Names the clues to blame for an outcome without solutions: fills
/// [`Outcome::conflicting`] with a minimal set of clues that together admit
/// no solution (dropping any one of them makes the rest solvable).
///
/// The engine may offer a first, smaller set (Z3's unsat core); either way
/// the set is then shrunk by deletion: runs of clues, then single clues,
/// are dropped, and stay dropped if the rest still have no solution.
///
/// Shrinking stops early when `budget` runs out or the engine gives up on a
/// step (give it a timeout: a few clues of a large board can take long to
/// refute); the set then still conflicts but may not be minimal, and
/// [`Outcome::conflict_is_minimal`] says so. Does nothing unless the status
/// is [`Status::None`] without a direct clash.
pub fn explain(
    engine: &mut dyn Engine,
    outcome: &mut Outcome,
    budget: Duration,
) -> Result<(), InternalError> {
    if outcome.status != Status::None || outcome.clash.is_some() {
        return Ok(());
    }
    let start = Instant::now();
    let puzzle = &outcome.puzzle;
    let mut core: Vec<Clue> = match engine.conflicting_clues(puzzle).map_err(engine_failure)? {
        Some(indexes) => puzzle
            .clue_list()
            .into_iter()
            .filter(|c| indexes.contains(&puzzle.size().index(c.cell)))
            .collect(),
        None => puzzle.clue_list(),
    };
    // Drop runs of clues, halving the run length down to single clues: a
    // small core among many clues goes in few solves, and the last pass
    // (one clue at a time) leaves every remaining clue necessary.
    let mut run = core.len().div_ceil(2);
    let mut minimal = true;
    'shrink: while run >= 1 {
        let mut k = 0;
        while k < core.len() {
            if start.elapsed() > budget {
                minimal = false;
                break 'shrink;
            }
            let mut without = core.clone();
            without.drain(k..(k + run).min(core.len()));
            match has_solution(engine, &puzzle.with_clues(&without))? {
                Some(false) => core = without,
                Some(true) => k += run,
                // Out of time: what is left conflicts, if not minimally.
                None => {
                    minimal = false;
                    break 'shrink;
                }
            }
        }
        run /= 2;
    }
    // The set must itself admit no solution; anything else is a bug.
    if has_solution(engine, &puzzle.with_clues(&core))? == Some(true) {
        return Err(InternalError(format!(
            "the clues {} were named as conflicting but have a solution",
            clue_text(&core)
        )));
    }
    outcome.conflicting = core;
    outcome.conflict_is_minimal = minimal;
    outcome.elapsed += start.elapsed();
    Ok(())
}

/// Confirms `outcome` with a second engine, `referee` (of kind `kind`):
/// it must reach the same status, and for a unique puzzle the same
/// solution. On agreement, records the referee in
/// [`Outcome::verified_by`] and returns `Ok(true)`; returns `Ok(false)` when
/// nothing can be confirmed because either engine gave up; a disagreement
/// is an [`InternalError`].
pub fn confirm(
    referee: &mut dyn Engine,
    kind: EngineKind,
    outcome: &mut Outcome,
) -> Result<bool, InternalError> {
    if outcome.status == Status::GaveUp {
        return Ok(false);
    }
    let unique = matches!(outcome.status, Status::Unique | Status::Multiple);
    let second = solve_with(referee, &outcome.puzzle, unique)?;
    if second.status == Status::GaveUp {
        return Ok(false);
    }
    let same_solution = match (
        outcome.status,
        outcome.solutions.first(),
        second.solutions.first(),
    ) {
        (Status::Unique, Some(a), Some(b)) => a.grid == b.grid,
        _ => true,
    };
    if second.status != outcome.status || !same_solution {
        return Err(InternalError(format!(
            "the {} engine does not confirm the verdict: it says {} ({}), against {} ({})",
            kind.name(),
            second.status.name(),
            second
                .solutions
                .first()
                .map_or(String::new(), |s| s.grid.to_line()),
            outcome.status.name(),
            outcome
                .solutions
                .first()
                .map_or(String::new(), |s| s.grid.to_line()),
        )));
    }
    outcome.verified_by = Some(kind);
    Ok(true)
}

/// Confirms `count` (of `puzzle`, up to `limit`) with a second engine: it
/// must count the same. `Ok(false)` when either engine gave up.
pub fn confirm_count(
    referee: &mut dyn Engine,
    kind: EngineKind,
    puzzle: &Grid,
    limit: usize,
    count: &Count,
) -> Result<bool, InternalError> {
    if count.gave_up.is_some() {
        return Ok(false);
    }
    let again = count_with(referee, puzzle, limit, &mut |_| {})?;
    if again.gave_up.is_some() {
        return Ok(false);
    }
    if again.solutions != count.solutions {
        return Err(InternalError(format!(
            "the {} engine does not confirm the count: it finds {}, against {}",
            kind.name(),
            again.summary(),
            count.summary()
        )));
    }
    Ok(true)
}

/// The clues as `r1c1=5 r2c7=5`.
pub fn clue_text(clues: &[Clue]) -> String {
    clues
        .iter()
        .map(Clue::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// How many solutions a puzzle has, up to a limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    /// Solutions found (each checked and different from the others).
    pub solutions: usize,
    /// Whether the search stopped at the limit, so there may be more.
    pub limit_reached: bool,
    /// Why the engine gave up before finishing, if it did.
    pub gave_up: Option<String>,
    /// Time spent.
    pub elapsed: Duration,
}

impl Count {
    /// The exit status that reports it: 0 with a solution, 1 with none, and
    /// 4 when the engine gave up, since the count is then not known.
    pub fn exit_code(&self) -> u8 {
        match (self.solutions, &self.gave_up) {
            (_, Some(_)) => Status::GaveUp.exit_code(),
            (0, None) => Status::None.exit_code(),
            _ => 0,
        }
    }

    /// The count in words, e.g. `3 solutions`, `1 solution`, `1000
    /// solutions (limit reached)` or `at least 2 solutions (gave up: timeout)`.
    pub fn summary(&self) -> String {
        let noun = if self.solutions == 1 {
            "solution"
        } else {
            "solutions"
        };
        match (&self.gave_up, self.limit_reached) {
            (Some(reason), _) if self.solutions == 0 => {
                format!("gave up before finding a solution: {reason}")
            }
            (Some(reason), _) => format!("at least {} {noun} (gave up: {reason})", self.solutions),
            (None, true) => format!("{} {noun} (limit reached)", self.solutions),
            (None, false) => format!("{} {noun}", self.solutions),
        }
    }
}

/// Counts the solutions of `puzzle` up to `limit`, handing each (checked)
/// to `each` as it is found.
pub fn count_with(
    engine: &mut dyn Engine,
    puzzle: &Grid,
    limit: usize,
    each: &mut dyn FnMut(&Grid),
) -> Result<Count, InternalError> {
    let start = Instant::now();
    let mut count = Count {
        solutions: 0,
        limit_reached: false,
        gave_up: None,
        elapsed: Duration::ZERO,
    };
    if clue_clash(puzzle).is_none() && limit > 0 {
        let searched = search(engine, puzzle, limit, &mut |found| {
            count.solutions += 1;
            each(found.grid);
        })?;
        if let Search::GaveUp(reason) = searched {
            count.gave_up = Some(reason);
        }
        count.limit_reached = count.solutions >= limit;
    }
    count.elapsed = start.elapsed();
    Ok(count)
}

/// How a search ended.
enum Search {
    /// Every solution wanted was found, or there were no more.
    Done,
    /// The engine gave up, for this reason.
    GaveUp(String),
}

/// Whether `puzzle` has a solution; `None` when the engine gave up.
fn has_solution(engine: &mut dyn Engine, puzzle: &Grid) -> Result<Option<bool>, InternalError> {
    let mut found = false;
    let searched = search(engine, puzzle, 1, &mut |_| found = true)?;
    Ok(match searched {
        Search::Done => Some(found),
        Search::GaveUp(_) => None,
    })
}

/// Runs `engine` over `puzzle`, checks each solution with the independent
/// checker, and hands it to `take`, until `limit` solutions or no more.
fn search(
    engine: &mut dyn Engine,
    puzzle: &Grid,
    limit: usize,
    take: &mut dyn FnMut(Found<'_>),
) -> Result<Search, InternalError> {
    let mut wrong = None;
    let mut taken = 0;
    let result = engine.solutions(puzzle, &mut |found| {
        if let Err(e) = verify_solution(puzzle, found.grid) {
            wrong = Some(InternalError(format!(
                "the engine's solution {} is wrong: {e}",
                found.grid
            )));
            return ControlFlow::Break(());
        }
        take(found);
        taken += 1;
        if taken >= limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    if let Some(e) = wrong {
        return Err(e);
    }
    match result {
        Ok(()) => Ok(Search::Done),
        Err(EngineError::GaveUp(reason)) => Ok(Search::GaveUp(reason)),
        Err(e) => Err(engine_failure(e)),
    }
}

fn engine_failure(e: EngineError) -> InternalError {
    match e {
        EngineError::Internal(message) => InternalError(message),
        EngineError::GaveUp(reason) => InternalError(format!("the engine gave up: {reason}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_puzzle;

    const NOTEBOOK: &str =
        "....94.3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....";

    /// An engine that answers whatever it is told to.
    struct Scripted(Vec<Grid>);

    impl Engine for Scripted {
        fn solutions(
            &mut self,
            _puzzle: &Grid,
            visit: &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
        ) -> Result<(), EngineError> {
            for grid in &self.0 {
                if visit(Found { grid, model: None }).is_break() {
                    break;
                }
            }
            Ok(())
        }
    }

    fn notebook() -> Grid {
        parse_puzzle(NOTEBOOK, None).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_wrong_solution_is_an_internal_error_never_a_verdict() {
        let puzzle = notebook();
        let mut wrong = Scripted(vec![puzzle.clone()]); // still has blanks
        let result = solve_with(&mut wrong, &puzzle, false);
        assert!(
            matches!(result, Err(InternalError(ref m)) if m.contains("is wrong")),
            "{result:?}"
        );
    }

    #[test]
    fn disagreeing_engines_are_an_internal_error() {
        let puzzle = notebook();
        let mut outcome =
            solve(&puzzle, &Settings::default(), true).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(outcome.status, Status::Unique);
        let mut claims_none = Scripted(Vec::new());
        let result = confirm(&mut claims_none, EngineKind::Native, &mut outcome);
        assert!(
            matches!(result, Err(InternalError(ref m)) if m.contains("says none")),
            "{result:?}"
        );
        assert_eq!(outcome.verified_by, None);
        let solution = outcome.solutions[0].grid.clone();
        let mut agrees = Scripted(vec![solution]);
        assert_eq!(
            confirm(&mut agrees, EngineKind::Native, &mut outcome),
            Ok(true)
        );
        assert_eq!(outcome.verified_by, Some(EngineKind::Native));
    }
}
