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
use crate::engine::{Budget, Cancel, Engine, GiveUp, Settings, new_engine};
use crate::puzzle::Puzzle;
use crate::puzzle::check::{ClueClash, clue_clash};
use crate::puzzle::grid::{Clue, Grid, digit_char};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

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
        self.conclude(&mut candidates, puzzle, cap, budget, start)?;
        Ok(candidates)
    }

    /// [`Pipeline::candidates`] on `jobs` threads (see
    /// [`candidates_split`]): the same counts, each thread with an engine
    /// of its own like this pipeline's. With [`super::Request::verify`],
    /// the other engine finds the candidates in one thread.
    pub fn candidates_split(
        &mut self,
        puzzle: &Puzzle,
        cap: usize,
        jobs: usize,
    ) -> Result<Candidates, InternalError> {
        let budget = self.request.budget();
        self.candidates_split_within(puzzle, cap, jobs, &budget)
    }

    /// [`Pipeline::candidates_split`] within `budget`.
    pub fn candidates_split_within(
        &mut self,
        puzzle: &Puzzle,
        cap: usize,
        jobs: usize,
        budget: &Budget,
    ) -> Result<Candidates, InternalError> {
        let start = Instant::now();
        let settings = self.request.settings.clone();
        let mut candidates =
            candidates_split(&settings, self.engine.as_mut(), puzzle, cap, jobs, budget)?;
        self.conclude(&mut candidates, puzzle, cap, budget, start)?;
        Ok(candidates)
    }

    /// What follows finding the candidates: the clues to blame when there
    /// is no solution, and with [`super::Request::verify`] the other
    /// engine's counts, which must be the same.
    fn conclude(
        &mut self,
        candidates: &mut Candidates,
        puzzle: &Puzzle,
        cap: usize,
        budget: &Budget,
        start: Instant,
    ) -> Result<(), InternalError> {
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
        Ok(())
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
    ) -> Result<Result<usize, GiveUp>, InternalError> {
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

/// The result before any search: the verdict on a clash of givens when
/// there is one, nothing known otherwise.
fn unsearched(puzzle: &Puzzle, cap: usize) -> Candidates {
    let clash = clue_clash(puzzle);
    Candidates {
        outcome: Outcome {
            conflicting: clash.iter().flat_map(ClueClash::clues).collect(),
            clash,
            ..Outcome::new(puzzle)
        },
        cap,
        checks: 0,
        solutions_seen: 0,
        counts: Vec::new(),
    }
}

impl Seen {
    /// Nothing seen yet of `puzzle`'s solutions; at most `kept` of them
    /// will be kept.
    fn new(puzzle: &Puzzle, kept: usize) -> Seen {
        let givens = puzzle.givens();
        let size = puzzle.size();
        let side = size.side();
        Seen {
            side,
            open: (0..size.cells()).filter(|&i| givens.get(i) == 0).collect(),
            solutions: HashSet::new(),
            kept: kept.max(2),
            overflowed: false,
            at_least: 0,
            first: Vec::new(),
            counts: vec![0; size.cells() * side],
            checks: 0,
        }
    }

    /// The candidates of `puzzle`'s open cells that may need a search of
    /// their own, in order: every digit that no given in the cell's houses
    /// holds (for those, 0 is the count, with no search).
    fn unsettled(&self, puzzle: &Puzzle) -> Vec<(usize, u8)> {
        let givens = puzzle.givens();
        let rules = puzzle.rules();
        let mut list = Vec::new();
        for &index in &self.open {
            let mut taken = vec![false; self.side + 1];
            for &house in rules.houses_of(index) {
                for &cell in &rules.houses()[house].cells {
                    taken[usize::from(givens.get(cell))] = true;
                }
            }
            list.extend(
                (1..=self.side as u8)
                    .filter(|&d| !taken[usize::from(d)])
                    .map(|d| (index, d)),
            );
        }
        list
    }

    /// The solutions kept that have `digit` in the cell at `index`: a
    /// candidate's search excludes them.
    fn having(&self, index: usize, digit: u8) -> Vec<Grid> {
        self.solutions
            .iter()
            .filter(|g| g.get(index) == digit)
            .cloned()
            .collect()
    }

    /// Takes what a candidate's search found: `found`, solutions with
    /// `digit` at `index` besides the `known` ones it excluded, searched
    /// for up to `limit`.
    fn settled(&mut self, index: usize, digit: u8, known: usize, found: &[Grid], limit: usize) {
        // Each solution took a check, and a search that ran out of
        // solutions took one more to find that out.
        self.checks += found.len() + usize::from(found.len() < limit);
        for grid in found {
            self.take(grid);
        }
        // The known ones and the new ones are distinct solutions with the
        // digit: the count, whether or not the new ones could be kept (a
        // full store marks nothing).
        let new = found.len();
        let count = &mut self.counts[index * self.side + usize::from(digit) - 1];
        *count = (*count).max(known + new);
        self.at_least = self.at_least.max(known + new);
    }
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
    let mut result = unsearched(puzzle, cap);
    if result.outcome.clash.is_some() {
        return Ok(result);
    }
    let mut seen = Seen::new(puzzle, kept);
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
    finish(&mut result, seen, verdict, start);
    Ok(result)
}

/// Fills `result` from what was `seen` and the `verdict` (or why the
/// search gave up).
fn finish(result: &mut Candidates, seen: Seen, verdict: Result<Status, GiveUp>, start: Instant) {
    let cap = result.cap;
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
) -> Result<Result<(), GiveUp>, InternalError> {
    let givens = puzzle.givens();
    let side = seen.side;
    for (index, digit) in seen.unsettled(puzzle) {
        let known = seen.counts[index * side + usize::from(digit) - 1];
        if known >= cap {
            continue;
        }
        let excluded = seen.having(index, digit);
        let mut placed = givens.clone();
        placed.set(index, digit);
        let mut found = Vec::new();
        let searched = search_excluding(
            engine,
            &puzzle.with_givens(placed),
            &excluded,
            cap - known,
            budget,
            &mut |f| found.push(f.grid.clone()),
        )?;
        seen.settled(index, digit, known, &found, cap - known);
        if let Err(reason) = searched {
            return Ok(Err(reason));
        }
    }
    Ok(Ok(()))
}

/// The largest cap whose first search is split across the threads (see
/// [`candidates_split`]): a split count keeps each part's solutions until
/// the count is done, up to the cap per part, so with a larger cap the
/// first search runs on one engine, whose store is bounded by
/// [`KEPT_SOLUTIONS`].
pub const SPLIT_FIRST_CAP: usize = 100;

/// How long the first search runs on the caller's engine alone before it
/// is split. Most puzzles a setter has in hand answer it in well under a
/// millisecond on the engine that kept its encoding from the last
/// request, and a split count costs a search per part (64 and more):
/// 9.4 ms against 0.4 ms on `examples/puzzles/killer.json`, with the
/// `race` engine `listen` uses. A first search this long is worth
/// splitting, and the slice is what it loses.
pub const FIRST_ALONE: Duration = Duration::from_millis(50);

/// [`candidates_with`] on `jobs` threads: the calling thread with `engine`,
/// the others each with an engine of its own made from `settings`.
///
/// The first search, for `cap` solutions, runs on `engine` for up to
/// [`FIRST_ALONE`]; past that it starts again as a count split as `count
/// --jobs` splits it ([`split`](super::split)), unless the cap is over
/// [`SPLIT_FIRST_CAP`]. Then the candidates seen in fewer than `cap`
/// solutions are searched for, each on its own as one thread does it, the
/// threads taking them in turn and sharing what they find.
///
/// Every count is the number of solutions with that candidate up to the
/// cap, which does not depend on who found which solution, so the counts,
/// the verdict and the deciding candidates are those of one thread, for
/// every `jobs`. What depends on which thread met which solution first is
/// [`Candidates::checks`] and [`Candidates::solutions_seen`] (distinct
/// solutions seen, a lower bound of their number either way).
pub fn candidates_split(
    settings: &Settings,
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    cap: usize,
    jobs: usize,
    budget: &Budget,
) -> Result<Candidates, InternalError> {
    split_after(settings, engine, puzzle, cap, jobs, budget, FIRST_ALONE)
}

/// [`candidates_split`], whose first search is split after `alone`.
fn split_after(
    settings: &Settings,
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    cap: usize,
    jobs: usize,
    budget: &Budget,
    alone: Duration,
) -> Result<Candidates, InternalError> {
    let start = Instant::now();
    let cap = cap.max(2);
    let mut result = unsearched(puzzle, cap);
    if result.outcome.clash.is_some() {
        return Ok(result);
    }
    let mut seen = Seen::new(puzzle, KEPT_SOLUTIONS);
    let splittable = jobs > 1 && cap <= SPLIT_FIRST_CAP;
    let alone = match splittable {
        true => {
            let slice = start + alone;
            Budget {
                deadline: Some(budget.deadline.map_or(slice, |d| d.min(slice))),
                cancel: budget.cancel.clone(),
            }
        }
        false => budget.clone(),
    };
    let mut first = seen.search(engine, puzzle, &[], cap, &alone)?;
    if splittable && first == Err(GiveUp::Timeout) && budget.spent().is_none() {
        // Long enough to split: again from the start, on every thread.
        let spent = seen.checks;
        seen = Seen::new(puzzle, KEPT_SOLUTIONS);
        let (count, grids, checks) =
            super::split::count_split_checked(settings, puzzle, cap, budget, jobs, true, &|| {})?;
        seen.checks = spent + checks;
        for grid in &grids {
            seen.take(grid);
        }
        first = match count.gave_up {
            Some(reason) => Err(reason),
            // The parts' solutions are disjoint: each was found once.
            None => Ok(count.solutions),
        };
    }
    if let Ok(n) = first {
        seen.at_least = seen.at_least.max(n);
    }
    let verdict = match first {
        Err(reason) => Err(reason),
        Ok(0) => Ok(Status::None),
        Ok(n) if n < cap && !seen.overflowed => Ok(if n == 1 {
            Status::Unique
        } else {
            Status::Multiple
        }),
        Ok(_) => settle_split(settings, engine, puzzle, &mut seen, cap, jobs, budget)?
            .map(|()| Status::Multiple),
    };
    finish(&mut result, seen, verdict, start);
    Ok(result)
}

/// [`settle`] on `jobs` threads: the calling one with `engine`, the others
/// with engines of their own. Each takes the next candidate in order that
/// is still short of the cap, searches it outside the lock, and adds what
/// it found to `seen`. A thread that gives up stops the others, and so
/// does the caller's cancel, which a watcher thread passes on.
fn settle_split(
    settings: &Settings,
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    seen: &mut Seen,
    cap: usize,
    jobs: usize,
    budget: &Budget,
) -> Result<Result<(), GiveUp>, InternalError> {
    let work = seen.unsettled(puzzle);
    let side = seen.side;
    let givens = puzzle.givens();
    let shared = Mutex::new(seen);
    let lock = || shared.lock().unwrap_or_else(PoisonError::into_inner);
    let next = AtomicUsize::new(0);
    // Stops every thread: cancelled when one gives up or fails, or when
    // the caller's budget is cancelled.
    let stop = Cancel::new();
    let within = Budget {
        deadline: budget.deadline,
        cancel: Some(stop.clone()),
    };
    let failure: Mutex<Option<Result<GiveUp, InternalError>>> = Mutex::new(None);
    let fail = |what: Result<GiveUp, InternalError>| {
        let mut first = failure.lock().unwrap_or_else(PoisonError::into_inner);
        if first.is_none() {
            *first = Some(what);
        }
        stop.cancel();
    };
    let run = |engine: &mut dyn Engine| {
        while let Some(&(index, digit)) = work.get(next.fetch_add(1, Ordering::SeqCst)) {
            let (known, excluded) = {
                let seen = lock();
                let known = seen.counts[index * side + usize::from(digit) - 1];
                if known >= cap {
                    continue;
                }
                (known, seen.having(index, digit))
            };
            let mut placed = givens.clone();
            placed.set(index, digit);
            let mut found = Vec::new();
            let searched = search_excluding(
                engine,
                &puzzle.with_givens(placed),
                &excluded,
                cap - known,
                &within,
                &mut |f| found.push(f.grid.clone()),
            );
            match searched {
                Ok(Ok(())) => lock().settled(index, digit, known, &found, cap - known),
                Ok(Err(reason)) => return fail(Ok(reason)),
                Err(e) => return fail(Err(e)),
            }
        }
    };
    let settled = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let run = &run;
        let others: Vec<_> = (1..jobs.clamp(1, work.len().max(1)))
            .map(|_| scope.spawn(move || run(new_engine(settings).as_mut())))
            .collect();
        let watcher = budget.cancel.is_some().then(|| {
            let (settled, stop) = (&settled, &stop);
            scope.spawn(move || {
                while !settled.load(Ordering::SeqCst) {
                    if budget.cancelled() {
                        return stop.cancel();
                    }
                    std::thread::park_timeout(Duration::from_millis(10));
                }
            })
        });
        run(engine);
        for other in others {
            if other.join().is_err() {
                fail(Err(InternalError(
                    "a thread of the split search stopped".into(),
                )));
            }
        }
        settled.store(true, Ordering::SeqCst);
        if let Some(watcher) = watcher {
            watcher.thread().unpark();
        }
    });
    match failure.into_inner().unwrap_or_else(PoisonError::into_inner) {
        None => Ok(Ok(())),
        Some(Ok(reason)) => Ok(Err(reason)),
        Some(Err(e)) => Err(e),
    }
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
    #[test]
    fn a_split_search_stops_at_the_deadline_and_when_cancelled() {
        let settings = Settings {
            engine: EngineKind::Native,
            ..Settings::default()
        };
        let mut engine = new_engine(&settings);
        for jobs in [1, 2, 3] {
            let start = Instant::now();
            let budget = Budget::within(Some(std::time::Duration::from_millis(200)));
            let c = candidates_split(&settings, engine.as_mut(), &empty(16), 2, jobs, &budget)
                .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(c.outcome.status, Status::GaveUp);
            assert_eq!(c.outcome.gave_up, Some(GiveUp::Timeout));
            assert!(
                start.elapsed() < std::time::Duration::from_secs(2),
                "{jobs} threads: {:?}",
                start.elapsed()
            );
            // The caller's cancel reaches every thread.
            let cancel = Cancel::new();
            let budget = Budget::unbounded().cancelled_by(cancel.clone());
            let start = Instant::now();
            let c = std::thread::scope(|scope| {
                scope.spawn(|| {
                    std::thread::sleep(std::time::Duration::from_millis(200));
                    cancel.cancel();
                });
                candidates_split(&settings, engine.as_mut(), &empty(16), 2, jobs, &budget)
            })
            .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(c.outcome.gave_up, Some(GiveUp::Cancelled));
            assert!(
                start.elapsed() < std::time::Duration::from_secs(2),
                "{jobs} threads: {:?}",
                start.elapsed()
            );
        }
    }
    #[test]
    fn a_split_first_search_finds_the_counts_of_one_thread() {
        // The first search split from its start, as past FIRST_ALONE.
        let settings = Settings {
            engine: EngineKind::Native,
            ..Settings::default()
        };
        let mut engine = new_engine(&settings);
        let six = |line: &str| {
            Puzzle::classic(
                crate::puzzle::parse::parse_puzzle(line, None).unwrap_or_else(|e| panic!("{e}")),
            )
        };
        let cases = [
            (empty(4), 2),
            (empty(4), 50),
            (six("..3.2.....14..4...1..5.....16......."), 3),
            (six("..3.2.....14..4...1..5.....16.6....."), 2),
            (six("11.................................."), 2),
        ];
        for (puzzle, cap) in &cases {
            let one = candidates_with(engine.as_mut(), puzzle, *cap, &Budget::unbounded())
                .unwrap_or_else(|e| panic!("{e}"));
            for jobs in [2, 3] {
                let split = split_after(
                    &settings,
                    engine.as_mut(),
                    puzzle,
                    *cap,
                    jobs,
                    &Budget::unbounded(),
                    std::time::Duration::ZERO,
                )
                .unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(split.outcome.status, one.outcome.status, "{puzzle}");
                assert_eq!(split.counts, one.counts, "{puzzle} cap {cap}");
                assert_eq!(
                    split.solutions_seen.min(*cap),
                    one.solutions_seen.min(*cap),
                    "{puzzle}"
                );
                // The first search was split: its parts' searches count.
                if one.outcome.status != Status::None {
                    assert!(split.checks > one.checks.min(3), "{puzzle}");
                }
            }
        }
    }
}
