//! The setter's first question: which digits can each open cell still
//! take, in how many solutions, and which of them would make the puzzle
//! unique if placed.
//!
//! Every solution found marks a candidate in every open cell at once, so
//! most candidates are settled by solutions that some other question found.
//! Only a candidate seen in fewer than `cap` solutions needs a search of its
//! own: the puzzle with that digit placed, the solutions already known to
//! have it excluded, for the rest up to the cap. On a unique puzzle the
//! first search (which proves it unique) settles everything.

use super::{InternalError, Outcome, Pipeline, Solution, Status, Verification, search_excluding};
use crate::engine::{Budget, Engine};
use crate::puzzle::Puzzle;
use crate::puzzle::check::{ClueClash, clue_clash};
use crate::puzzle::grid::{Clue, Grid, digit_char};
use std::collections::HashSet;
use std::time::Instant;

/// The true candidates of a puzzle's open cells, with how many solutions
/// have each, counted up to a cap.
#[derive(Clone, Debug)]
pub struct Candidates {
    /// The verdict on the puzzle: [`Status::Unique`], [`Status::Multiple`],
    /// [`Status::None`] (with the clues to blame, when explained) or
    /// [`Status::GaveUp`]; its solutions are the first two found.
    pub outcome: Outcome,
    /// Counts stop at this many solutions.
    pub cap: usize,
    /// Searches the engine ran: for Z3, its satisfiability checks (each
    /// solution found is one, and each search that runs out of solutions
    /// before its limit one more).
    pub checks: usize,
    /// Distinct solutions seen along the way (a lower bound of the total).
    pub solutions_seen: usize,
    /// `counts[cell * side + digit - 1]`: solutions with `digit` in the open
    /// `cell`, up to `cap`; 0 for given cells. Empty unless there is a
    /// solution and the engine did not give up.
    counts: Vec<usize>,
}

impl Candidates {
    /// How many solutions (up to [`Candidates::cap`]) have `digit` in the
    /// cell at row-major `index`; 0 for a given cell.
    pub fn count(&self, index: usize, digit: u8) -> usize {
        let side = self.outcome.puzzle.size().side();
        match usize::from(digit).checked_sub(1) {
            Some(d) if d < side => self.counts.get(index * side + d).copied().unwrap_or(0),
            _ => 0,
        }
    }

    /// Whether the counts are known: the puzzle has a solution and the
    /// engine did not give up.
    pub fn is_known(&self) -> bool {
        !self.counts.is_empty()
    }

    /// The candidates of the open cell at `index`, each with its count, by
    /// digit; empty for a given cell.
    pub fn of_cell(&self, index: usize) -> Vec<(u8, usize)> {
        let side = self.outcome.puzzle.size().side();
        (1..=side as u8)
            .map(|d| (d, self.count(index, d)))
            .filter(|&(_, n)| n > 0)
            .collect()
    }

    /// Whether `digit` in the cell at `index` decides the puzzle: the
    /// puzzle has several solutions and exactly one of them has it, so
    /// placing it leaves the puzzle unique. A unique puzzle is decided
    /// already, and has none.
    pub fn is_deciding(&self, index: usize, digit: u8) -> bool {
        self.outcome.status == Status::Multiple && self.count(index, digit) == 1
    }

    /// The candidates that decide the puzzle (see
    /// [`Candidates::is_deciding`]), in row-major order.
    pub fn deciding(&self) -> Vec<Clue> {
        let size = self.outcome.puzzle.size();
        (0..size.cells())
            .flat_map(|i| {
                self.of_cell(i)
                    .into_iter()
                    .filter(move |&(digit, _)| self.is_deciding(i, digit))
                    .map(move |(digit, _)| Clue {
                        cell: size.cell_at(i),
                        digit,
                    })
            })
            .collect()
    }

    /// The pencil marks as one line, the form tdoku and Sudoku Explainer
    /// read: for each cell in row-major order, a character per digit, the
    /// digit when the cell can take it and `.` when not; a given cell can
    /// take only its own digit. N³ characters for an NxN board (729 for
    /// 9x9).
    pub fn pencilmarks(&self) -> String {
        let givens = self.outcome.puzzle.givens();
        let size = givens.size();
        let side = size.side() as u8;
        let mut line = String::with_capacity(size.cells() * size.side());
        for i in 0..size.cells() {
            let given = givens.get(i);
            for d in 1..=side {
                let possible = if given != 0 {
                    given == d
                } else {
                    self.count(i, d) > 0
                };
                line.push(if possible { digit_char(d) } else { '.' });
            }
        }
        line
    }

    /// One line about the result: the verdict (as [`Outcome::summary`]),
    /// or for a puzzle with solutions, how many candidates decide it.
    pub fn summary(&self) -> String {
        match self.outcome.status {
            Status::Multiple => {
                let deciding = self.deciding().len();
                format!(
                    "not unique: at least {} solutions; {deciding} candidate{} decide{} the puzzle \
                     ({} checks, {:.1} ms)",
                    self.solutions_seen,
                    if deciding == 1 { "" } else { "s" },
                    if deciding == 1 { "s" } else { "" },
                    self.checks,
                    self.outcome.elapsed.as_secs_f64() * 1000.0
                )
            }
            _ => self.outcome.summary(),
        }
    }
}

impl Pipeline {
    /// The true candidates of `puzzle` (see [`candidates_with`]), within
    /// the request's timeout; with [`super::Request::explain`], the clues to
    /// blame when there is no solution.
    pub fn candidates(&mut self, puzzle: &Puzzle, cap: usize) -> Result<Candidates, InternalError> {
        let budget = self.request.budget();
        self.candidates_within(puzzle, cap, &budget)
    }

    /// [`Pipeline::candidates`] within `budget`.
    pub fn candidates_within(
        &mut self,
        puzzle: &Puzzle,
        cap: usize,
        budget: &Budget,
    ) -> Result<Candidates, InternalError> {
        let start = Instant::now();
        let mut candidates = candidates_with(self.engine.as_mut(), puzzle, cap, budget)?;
        self.record_and_explain(&mut candidates.outcome, budget)?;
        if self.request.verify && candidates.outcome.status != Status::GaveUp {
            let (kind, referee) = self.referee();
            let again = candidates_with(referee, puzzle, cap, budget)?;
            candidates.outcome.verification = match again.outcome.status {
                Status::GaveUp => Verification::NotVerified,
                status
                    if status == candidates.outcome.status && again.counts == candidates.counts =>
                {
                    Verification::Verified(kind)
                }
                status => {
                    return Err(InternalError(format!(
                        "the {} engine does not confirm the candidates: it says {} ({}), against \
                         {} ({})",
                        kind.name(),
                        status.name(),
                        again.pencilmarks(),
                        candidates.outcome.status.name(),
                        candidates.pencilmarks()
                    )));
                }
            };
        }
        candidates.outcome.elapsed = start.elapsed();
        Ok(candidates)
    }
}

/// The most solutions kept to tell new ones from known ones: about 6 MB
/// (a board takes 632 bytes, whatever its size), and as much again for the
/// known solutions a candidate's search excludes. Without a bound a high
/// `--cap` kept every solution of every candidate's search: 1.8 GB in 10 s
/// on an empty 9x9 board with `--cap 100000`. Past it, a solution found
/// no longer counts for the other cells (it cannot be told from one seen
/// before), so each candidate not yet at the cap is counted by a search of
/// its own: a higher cap costs time, never memory.
pub const KEPT_SOLUTIONS: usize = 10_000;

/// What the search has seen so far: the distinct solutions kept (up to
/// [`KEPT_SOLUTIONS`]), and for each open cell and digit, how many of them
/// have it.
struct Seen {
    side: usize,
    open: Vec<usize>,
    solutions: HashSet<Grid>,
    /// The most solutions to keep: [`KEPT_SOLUTIONS`] but in tests.
    kept: usize,
    /// Whether a solution was found once the store was full: the counts
    /// then come only from the kept ones.
    overflowed: bool,
    /// Distinct solutions known to exist (at least those kept).
    at_least: usize,
    /// The first two solutions, for the verdict.
    first: Vec<Grid>,
    counts: Vec<usize>,
    checks: usize,
}

impl Seen {
    fn take(&mut self, grid: &Grid) {
        if self.solutions.contains(grid) {
            return;
        }
        if self.first.len() < 2 {
            self.first.push(grid.clone());
        }
        if self.solutions.len() >= self.kept {
            self.overflowed = true;
            return;
        }
        for &i in &self.open {
            self.counts[i * self.side + usize::from(grid.get(i)) - 1] += 1;
        }
        self.solutions.insert(grid.clone());
        self.at_least = self.at_least.max(self.solutions.len());
    }

    /// Runs one search for up to `limit` solutions of `puzzle` besides
    /// `excluded`, taking each; how many it found, or why it gave up.
    fn search(
        &mut self,
        engine: &mut dyn Engine,
        puzzle: &Puzzle,
        excluded: &[Grid],
        limit: usize,
        budget: &Budget,
    ) -> Result<Result<usize, crate::engine::GiveUp>, InternalError> {
        let mut found = Vec::new();
        let searched = search_excluding(engine, puzzle, excluded, limit, budget, &mut |f| {
            found.push(f.grid.clone());
        })?;
        // Each solution took a check, and a search that ran out of
        // solutions took one more to find that out.
        self.checks += found.len() + usize::from(found.len() < limit);
        for grid in &found {
            self.take(grid);
        }
        Ok(searched.map(|()| found.len()))
    }
}

/// The true candidates of `puzzle`'s open cells with `engine`, each counted
/// up to `cap` solutions (at least 2, so that a count of exactly 1 is
/// known); gives up when `budget` is spent.
pub fn candidates_with(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    cap: usize,
    budget: &Budget,
) -> Result<Candidates, InternalError> {
    candidates_keeping(engine, puzzle, cap, budget, KEPT_SOLUTIONS)
}

/// [`candidates_with`], keeping at most `kept` solutions.
fn candidates_keeping(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    cap: usize,
    budget: &Budget,
    kept: usize,
) -> Result<Candidates, InternalError> {
    let start = Instant::now();
    let cap = cap.max(2);
    let clash = clue_clash(puzzle);
    let mut result = Candidates {
        outcome: Outcome {
            conflicting: clash.iter().flat_map(ClueClash::clues).collect(),
            clash,
            ..Outcome::new(puzzle)
        },
        cap,
        checks: 0,
        solutions_seen: 0,
        counts: Vec::new(),
    };
    if result.outcome.clash.is_some() {
        return Ok(result);
    }
    let givens = puzzle.givens();
    let size = puzzle.size();
    let side = size.side();
    let mut seen = Seen {
        side,
        open: (0..size.cells()).filter(|&i| givens.get(i) == 0).collect(),
        solutions: HashSet::new(),
        kept: kept.max(2),
        overflowed: false,
        at_least: 0,
        first: Vec::new(),
        counts: vec![0; size.cells() * side],
        checks: 0,
    };
    let first = seen.search(engine, puzzle, &[], cap, budget)?;
    if let Ok(n) = first {
        // One search finds each solution once.
        seen.at_least = seen.at_least.max(n);
    }
    let verdict = match first {
        Err(reason) => Err(reason),
        Ok(0) => Ok(Status::None),
        // Fewer than the cap, and every one kept: that was every solution,
        // so every count is exact already.
        Ok(n) if n < cap && !seen.overflowed => Ok(if n == 1 {
            Status::Unique
        } else {
            Status::Multiple
        }),
        Ok(_) => settle(engine, puzzle, &mut seen, cap, budget)?.map(|()| Status::Multiple),
    };
    result.checks = seen.checks;
    result.solutions_seen = seen.at_least;
    result.outcome.solutions = seen
        .first
        .into_iter()
        .map(|grid| Solution { grid, model: None })
        .collect();
    result.outcome.elapsed = start.elapsed();
    match verdict {
        Ok(status) => {
            result.outcome.status = status;
            if status != Status::None {
                result.counts = seen.counts.iter().map(|&n| n.min(cap)).collect();
            }
        }
        Err(reason) => {
            result.outcome.status = Status::GaveUp;
            result.outcome.gave_up = Some(reason);
        }
    }
    Ok(result)
}

/// Searches for each candidate seen in fewer than `cap` solutions, with its
/// digit placed and the known solutions that have it excluded, until its
/// count is known or reaches the cap. Digits a given already holds in one
/// of the cell's houses need no search.
fn settle(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    seen: &mut Seen,
    cap: usize,
    budget: &Budget,
) -> Result<Result<(), crate::engine::GiveUp>, InternalError> {
    let givens = puzzle.givens();
    let rules = puzzle.rules();
    let side = seen.side;
    for index in seen.open.clone() {
        let mut taken = vec![false; side + 1];
        for &house in rules.houses_of(index) {
            for &cell in &rules.houses()[house].cells {
                taken[usize::from(givens.get(cell))] = true;
            }
        }
        for digit in 1..=side as u8 {
            let known = seen.counts[index * side + usize::from(digit) - 1];
            if taken[usize::from(digit)] || known >= cap {
                continue;
            }
            let excluded: Vec<Grid> = seen
                .solutions
                .iter()
                .filter(|g| g.get(index) == digit)
                .cloned()
                .collect();
            let mut placed = givens.clone();
            placed.set(index, digit);
            let found = seen.search(
                engine,
                &puzzle.with_givens(placed),
                &excluded,
                cap - known,
                budget,
            )?;
            match found {
                Err(reason) => return Ok(Err(reason)),
                // The known ones and the new ones are distinct solutions
                // with the digit: the count, whether or not the new ones
                // could be kept (a full store marks nothing).
                Ok(new) => {
                    let count = &mut seen.counts[index * side + usize::from(digit) - 1];
                    *count = (*count).max(known + new);
                    seen.at_least = seen.at_least.max(known + new);
                }
            }
        }
    }
    Ok(Ok(()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{EngineKind, Settings, new_engine};
    use crate::puzzle::grid::Size;

    fn empty(side: usize) -> Puzzle {
        Puzzle::classic(Grid::empty(Size::from_side(side).unwrap_or_default()))
    }

    #[test]
    fn an_empty_4x4_board_takes_every_digit_everywhere() {
        for engine in EngineKind::ALL {
            let mut engine = new_engine(&Settings {
                engine,
                ..Settings::default()
            });
            let c = candidates_with(engine.as_mut(), &empty(4), 1000, &Budget::unbounded())
                .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(c.outcome.status, Status::Multiple);
            assert_eq!(c.solutions_seen, 288);
            // 288 solutions, each digit a quarter of them in every cell.
            assert!((0..16).all(|i| (1..=4).all(|d| c.count(i, d) == 72)));
            assert_eq!(c.pencilmarks(), "1234".repeat(16));
            assert!(c.deciding().is_empty());
        }
    }

    #[test]
    fn counts_stay_exact_when_few_solutions_are_kept() {
        // 288 solutions, but only 5 kept: every candidate past them is
        // counted by a search of its own, and the counts do not change.
        for engine in EngineKind::ALL {
            let mut engine = new_engine(&Settings {
                engine,
                ..Settings::default()
            });
            for cap in [2, 50, 72, 100, 1000] {
                let c =
                    candidates_keeping(engine.as_mut(), &empty(4), cap, &Budget::unbounded(), 5)
                        .unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(c.outcome.status, Status::Multiple);
                let want = cap.min(72);
                assert!(
                    (0..16).all(|i| (1..=4).all(|d| c.count(i, d) == want)),
                    "cap {cap}: {:?}",
                    (0..16).map(|i| c.of_cell(i)).collect::<Vec<_>>()
                );
                assert!(c.solutions_seen >= cap.min(288), "cap {cap}");
            }
            // A puzzle with fewer solutions than the cap but more than are
            // kept is still counted exactly.
            let c = candidates_keeping(engine.as_mut(), &empty(4), 1000, &Budget::unbounded(), 200)
                .unwrap_or_else(|e| panic!("{e}"));
            assert!((0..16).all(|i| (1..=4).all(|d| c.count(i, d) == 72)));
        }
    }

    #[test]
    fn many_short_searches_stop_at_the_deadline() {
        // An empty 16x16 board: each candidate's search is short, too short
        // for the native engine to read its clock, and there are 4096.
        let mut engine = new_engine(&Settings {
            engine: EngineKind::Native,
            ..Settings::default()
        });
        let start = Instant::now();
        let budget = Budget::within(Some(std::time::Duration::from_millis(200)));
        let c = candidates_with(engine.as_mut(), &empty(16), 2, &budget)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.outcome.status, Status::GaveUp);
        assert!(
            start.elapsed() < std::time::Duration::from_secs(2),
            "{:?}",
            start.elapsed()
        );
    }
}
