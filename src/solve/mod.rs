//! Solving: what z3doku concludes about a puzzle, from any engine, with
//! every solution confirmed by the independent checker first.
//!
//! A [`Request`] says what to find out (a solution, its uniqueness, why there
//! is none, a second engine's word) and within what time; a [`Pipeline`]
//! answers it for one puzzle after another with engines it keeps, and
//! returns an [`Outcome`]. The command line, `batch` and library callers all
//! go through it, so they reach the same verdicts.

pub mod candidates;
pub mod estimate;
pub mod minimize;
pub mod split;
mod status;

pub use candidates::Candidates;
pub use minimize::Minimized;
pub use status::{Status, exit};

use crate::engine::{
    Budget, EncodingKind, Engine, EngineError, EngineKind, Found, GiveUp, Settings, new_engine,
};
use crate::puzzle::Puzzle;
use crate::puzzle::check::{ClueClash, clue_clash, verify_solution};
use crate::puzzle::grid::{Cell, Clue, Grid};
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};
use thiserror::Error;

/// How long naming the clues to blame may take when no timeout bounds the
/// request: shrinking a conflict takes many solves, each of which can be
/// slow on a large board.
pub const EXPLAIN_BUDGET: Duration = Duration::from_secs(10);

/// What to find out about a puzzle, and within what limits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// The engine that searches, and how.
    pub settings: Settings,
    /// Prove the solution unique, or find a second one.
    pub unique: bool,
    /// When there is no solution, name a minimal set of clues to blame.
    pub explain: bool,
    /// Confirm the verdict with the other engine.
    pub verify: bool,
    /// The whole request (solving, explaining, confirming) gives up after
    /// this long.
    pub timeout: Option<Duration>,
}

impl Request {
    /// The budget of one answer to this request, starting now.
    pub fn budget(&self) -> Budget {
        Budget::within(self.timeout)
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

/// Whether a second engine confirmed the verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Verification {
    /// Nobody asked.
    #[default]
    NotAsked,
    /// This engine reached the same verdict (and the same solution).
    Verified(EngineKind),
    /// Asked, but an engine gave up before there was a verdict to compare.
    NotVerified,
}

impl Verification {
    /// One line for standard error about `verdict` (`unique`, `16
    /// solutions`): `verified: the native engine agrees (unique)`, or `not
    /// verified: ...`; `None` when nobody asked.
    pub fn summary(self, verdict: &str) -> Option<String> {
        match self {
            Verification::NotAsked => None,
            Verification::Verified(referee) => Some(format!(
                "verified: the {} engine agrees ({verdict})",
                referee.name()
            )),
            Verification::NotVerified => {
                Some("not verified: an engine gave up before reaching a verdict".into())
            }
        }
    }
}

/// Everything z3doku found out about one puzzle.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The puzzle as read.
    pub puzzle: Puzzle,
    /// The conclusion.
    pub status: Status,
    /// The solutions found: one, or two when not unique.
    pub solutions: Vec<Solution>,
    /// Clues that break a rule by themselves, when that is why there is no
    /// solution.
    pub clash: Option<ClueClash>,
    /// Clues that together admit no solution: the clashing pair, or after
    /// an explanation, a minimal conflicting set.
    pub conflicting: Vec<Clue>,
    /// Constraints (indexes into the rules'
    /// [constraints](crate::puzzle::rules::Rules::constraints)) that
    /// conflict together with [`Outcome::conflicting`], after an
    /// explanation.
    pub conflicting_rules: Vec<usize>,
    /// Whether no clue or rule can be dropped from the conflicting set
    /// (false when the explanation ran out of time before it could make
    /// sure).
    pub conflict_is_minimal: bool,
    /// Why the engine gave up, when it did.
    pub gave_up: Option<GiveUp>,
    /// Time spent on the request.
    pub elapsed: Duration,
    /// Whether the other engine confirmed the verdict.
    pub verification: Verification,
    /// The engine's statistics of the search, when the settings asked.
    pub statistics: Vec<(String, String)>,
}

impl Outcome {
    /// An outcome for `puzzle` before any search: status `None`, nothing
    /// found, nothing blamed.
    pub fn new(puzzle: &Puzzle) -> Outcome {
        Outcome {
            puzzle: puzzle.clone(),
            status: Status::None,
            solutions: Vec::new(),
            clash: None,
            conflicting: Vec::new(),
            conflicting_rules: Vec::new(),
            conflict_is_minimal: true,
            gave_up: None,
            elapsed: Duration::ZERO,
            verification: Verification::NotAsked,
            statistics: Vec::new(),
        }
    }

    /// The verdict and its evidence in one line, e.g. `unique: exactly one
    /// solution (24 clues, 41.2 ms)`, `no solution: these 4 clues
    /// conflict: r1c1=5 r2c7=5 r3c2=1 r9c1=2`, or with rules to blame too,
    /// `no solution: these conflict: r1c1=5, cage 15 (r1c1 r1c2 r2c1)`.
    pub fn summary(&self) -> String {
        let clues = self.puzzle.givens().clue_count();
        let board = self.puzzle.rules();
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
            Status::None => {
                let rules = self.conflicting_rule_names();
                let partly = if self.conflict_is_minimal {
                    ""
                } else {
                    " (perhaps not all of them: finding a smaller set ran out of time)"
                };
                match (&self.clash, self.conflicting.len(), rules.len()) {
                    (Some(clash), _, _) => format!(
                        "no solution: {} and {} both hold {}",
                        clash.first,
                        clash.second,
                        board.value_char(clash.digit)
                    ),
                    (None, 0, 0) => "no solution".to_string(),
                    (None, n, 0) => format!(
                        "no solution: these {n} clues conflict{partly}: {}",
                        self.conflicting
                            .iter()
                            .map(|c| board.clue_text(c))
                            .collect::<Vec<_>>()
                            .join(" ")
                    ),
                    (None, _, _) => {
                        let mut names: Vec<String> = self
                            .conflicting
                            .iter()
                            .map(|c| board.clue_text(c))
                            .collect();
                        names.extend(rules);
                        format!("no solution: these conflict{partly}: {}", names.join(", "))
                    }
                }
            }
            Status::GaveUp | Status::Error => match &self.gave_up {
                Some(reason) => format!("gave up: {reason}"),
                None => "gave up".to_string(),
            },
        }
    }

    /// The conflicting constraints as people name them (`cage 15 (r1c1
    /// r1c2)`).
    pub fn conflicting_rule_names(&self) -> Vec<String> {
        let constraints = self.puzzle.rules().constraints();
        self.conflicting_rules
            .iter()
            .filter_map(|&k| constraints.get(k).map(|c| c.to_string()))
            .collect()
    }

    /// What the verification came to, in one line for standard error (see
    /// [`Verification::summary`]).
    pub fn verification_summary(&self) -> Option<String> {
        self.verification.summary(self.status.name())
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

/// Answers `request` for one puzzle with new engines. To answer for many
/// puzzles, keep a [`Pipeline`]: its engines keep what they built.
pub fn solve(puzzle: &Puzzle, request: &Request) -> Result<Outcome, InternalError> {
    Pipeline::new(request.clone()).solve(puzzle)
}

/// Answers one [`Request`] for puzzle after puzzle, with the engines it
/// keeps (the Z3 engine builds its encoding once per set of rules).
pub struct Pipeline {
    request: Request,
    engine: Box<dyn Engine>,
    /// The other engine, made the first time `--verify` needs it, with its
    /// kind.
    referee: Option<(EngineKind, Box<dyn Engine>)>,
}

impl Pipeline {
    /// A pipeline for `request`; its engine is made now, the referee when
    /// first needed.
    pub fn new(request: Request) -> Pipeline {
        Pipeline {
            engine: new_engine(&request.settings),
            referee: None,
            request,
        }
    }

    /// The request this pipeline answers.
    pub fn request(&self) -> &Request {
        &self.request
    }

    /// The referee engine, with the request's engine's counterpart (for a
    /// race, the engine that did not give its last answer).
    fn referee(&mut self) -> (EngineKind, &mut dyn Engine) {
        let kind = match self.engine.answered_by() {
            Some(answered) => answered.referee(),
            None => self.request.settings.engine.referee(),
        };
        if self.referee.as_ref().is_some_and(|(k, _)| *k != kind) {
            self.referee = None;
        }
        // A race's Z3 side is `bool`; so is the Z3 that confirms its native
        // answers (`int` can take minutes where `bool` takes a second).
        let encoding = match self.request.settings.engine {
            EngineKind::Race => EncodingKind::Bool,
            _ => EncodingKind::default(),
        };
        let (_, referee) = self.referee.get_or_insert_with(|| {
            (
                kind,
                new_engine(&Settings {
                    engine: kind,
                    encoding,
                    ..Settings::default()
                }),
            )
        });
        (kind, referee.as_mut())
    }

    /// Solves `puzzle`: a solution (and with [`Request::unique`], a proof
    /// that it is the only one, or a second); with [`Request::explain`], a
    /// minimal set of clues to blame when there is none; with
    /// [`Request::verify`], the other engine's confirmation. The request's
    /// timeout bounds all of it.
    pub fn solve(&mut self, puzzle: &Puzzle) -> Result<Outcome, InternalError> {
        let budget = self.request.budget();
        self.solve_within(puzzle, self.request.unique, &budget)
    }

    /// [`Pipeline::solve`] within `budget` (a listening session's, which a
    /// new request cancels), with or without the proof of uniqueness.
    pub fn solve_within(
        &mut self,
        puzzle: &Puzzle,
        unique: bool,
        budget: &Budget,
    ) -> Result<Outcome, InternalError> {
        let start = Instant::now();
        let mut outcome = solve_with(self.engine.as_mut(), puzzle, unique, budget)?;
        self.record_and_explain(&mut outcome, budget)?;
        if self.request.verify {
            let (kind, referee) = self.referee();
            outcome.verification = match confirm(referee, kind, &outcome, budget)? {
                true => Verification::Verified(kind),
                false => Verification::NotVerified,
            };
        }
        outcome.elapsed = start.elapsed();
        Ok(outcome)
    }

    /// What follows every search of the pipeline's own engine: its
    /// statistics, when the settings ask, taken before anything else
    /// searches; and with [`Request::explain`], the clues to blame when
    /// there is no solution, within the deadline (or [`EXPLAIN_BUDGET`]).
    pub(crate) fn record_and_explain(
        &mut self,
        outcome: &mut Outcome,
        budget: &Budget,
    ) -> Result<(), InternalError> {
        if self.request.settings.keep_statistics {
            outcome.statistics = self.engine.statistics();
        }
        if self.request.explain {
            explain(
                self.engine.as_mut(),
                outcome,
                &budget.or_within(EXPLAIN_BUDGET),
            )?;
        }
        Ok(())
    }

    /// Counts the solutions of `puzzle` up to `limit`, handing each
    /// (checked) to `each` as it is found; with [`Request::verify`], the
    /// other engine must count the same. The request's timeout bounds the
    /// whole count.
    pub fn count(
        &mut self,
        puzzle: &Puzzle,
        limit: usize,
        each: &mut dyn FnMut(&Grid),
    ) -> Result<Count, InternalError> {
        let budget = self.request.budget();
        self.count_within(puzzle, limit, &budget, each)
    }

    /// [`Pipeline::count`] within `budget`.
    pub fn count_within(
        &mut self,
        puzzle: &Puzzle,
        limit: usize,
        budget: &Budget,
        each: &mut dyn FnMut(&Grid),
    ) -> Result<Count, InternalError> {
        let start = Instant::now();
        let mut count = count_with(self.engine.as_mut(), puzzle, limit, budget, each)?;
        if self.request.settings.keep_statistics {
            count.statistics = self.engine.statistics();
        }
        self.verify_count(puzzle, limit, &mut count, budget)?;
        count.elapsed = start.elapsed();
        Ok(count)
    }
}

impl Pipeline {
    /// With [`Request::verify`], has the other engine count `puzzle` up to
    /// `limit` again, and records whether it agrees with `count`.
    fn verify_count(
        &mut self,
        puzzle: &Puzzle,
        limit: usize,
        count: &mut Count,
        budget: &Budget,
    ) -> Result<(), InternalError> {
        if self.request.verify {
            let (kind, referee) = self.referee();
            count.verification = match confirm_count(referee, kind, puzzle, limit, count, budget)? {
                true => Verification::Verified(kind),
                false => Verification::NotVerified,
            };
        }
        Ok(())
    }

    /// [`Pipeline::count`] split across `jobs` threads (see [`split`]),
    /// each with an engine of its own like this pipeline's: the same count,
    /// and with `keep` the solutions in an order that does not depend on
    /// `jobs`. `found` hears of each solution as it is found, from the
    /// threads. With [`Request::verify`], the other engine counts the whole
    /// puzzle in one thread.
    pub fn count_split(
        &mut self,
        puzzle: &Puzzle,
        limit: usize,
        jobs: usize,
        keep: bool,
        found: &(dyn Fn() + Sync),
    ) -> Result<(Count, Vec<Grid>), InternalError> {
        let budget = self.request.budget();
        self.count_split_within(puzzle, limit, jobs, keep, &budget, found)
    }

    /// [`Pipeline::count_split`] within `budget`.
    pub fn count_split_within(
        &mut self,
        puzzle: &Puzzle,
        limit: usize,
        jobs: usize,
        keep: bool,
        budget: &Budget,
        found: &(dyn Fn() + Sync),
    ) -> Result<(Count, Vec<Grid>), InternalError> {
        let start = Instant::now();
        let (mut count, grids) = split::count_split(
            &self.request.settings,
            puzzle,
            limit,
            budget,
            jobs,
            keep,
            found,
        )?;
        self.verify_count(puzzle, limit, &mut count, budget)?;
        count.elapsed = start.elapsed();
        Ok((count, grids))
    }

    /// Estimates how many solutions `puzzle` has, from `samples` samples
    /// drawn from `seed` (see [`estimate`]); `progress` hears the estimate
    /// so far now and then. The request's timeout ends the sampling, and
    /// the samples taken make the estimate.
    pub fn estimate(
        &mut self,
        puzzle: &Puzzle,
        samples: usize,
        seed: u64,
        progress: &mut dyn FnMut(&estimate::Estimate) -> ControlFlow<()>,
    ) -> Result<estimate::Estimate, InternalError> {
        let budget = self.request.budget();
        self.estimate_within(puzzle, samples, seed, &budget, progress)
    }

    /// [`Pipeline::estimate`] within `budget`.
    pub fn estimate_within(
        &mut self,
        puzzle: &Puzzle,
        samples: usize,
        seed: u64,
        budget: &Budget,
        progress: &mut dyn FnMut(&estimate::Estimate) -> ControlFlow<()>,
    ) -> Result<estimate::Estimate, InternalError> {
        if clue_clash(puzzle).is_some() {
            return Ok(estimate::Estimate::counted(0, Duration::ZERO));
        }
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
        estimate::estimate_with(
            self.engine.as_mut(),
            puzzle,
            samples,
            &mut rng,
            budget,
            progress,
        )
        .map_err(|e| InternalError(e.to_string()))
    }
}

/// Solves `puzzle` with `engine`; with `unique`, goes on to prove the
/// solution unique or find a second one. Gives up when `budget` is spent.
pub fn solve_with(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    unique: bool,
    budget: &Budget,
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
    let searched = search(engine, puzzle, wanted, budget, &mut |found| {
        outcome.solutions.push(Solution {
            grid: found.grid.clone(),
            model: found.model.map(str::to_string),
        });
    })?;
    outcome.elapsed = start.elapsed();
    outcome.status = match (searched, outcome.solutions.len()) {
        (Err(reason), _) => {
            outcome.gave_up = Some(reason);
            Status::GaveUp
        }
        (Ok(()), 0) => Status::None,
        (Ok(()), 1) if unique => Status::Unique,
        (Ok(()), 1) => Status::Solved,
        (Ok(()), _) => Status::Multiple,
    };
    Ok(outcome)
}

/// Names the clues and rules to blame for an outcome without solutions:
/// fills [`Outcome::conflicting`] and [`Outcome::conflicting_rules`] with a
/// minimal set of clues and constraints that together admit no solution
/// (dropping any one of them makes the rest solvable). The houses are
/// never blamed: they are what makes the board Sudoku.
///
/// The engine may offer a first, smaller set (Z3's unsat core); either way
/// the set is then shrunk by deletion: runs of facts, then single ones,
/// are dropped, and stay dropped if the rest still have no solution.
///
/// Shrinking stops early when `budget` is spent (a few clues of a large board can
/// take long to refute); the set then still conflicts but may not be
/// minimal, and [`Outcome::conflict_is_minimal`] says so. Does nothing
/// unless the status is [`Status::None`] without a direct clash.
pub fn explain(
    engine: &mut dyn Engine,
    outcome: &mut Outcome,
    budget: &Budget,
) -> Result<(), InternalError> {
    if outcome.status != Status::None || outcome.clash.is_some() {
        return Ok(());
    }
    let start = Instant::now();
    let puzzle = &outcome.puzzle;
    let size = puzzle.size();
    let offered = match engine.conflict(puzzle, budget) {
        Ok(offered) => offered,
        Err(EngineError::GaveUp(_)) => None,
        Err(e) => return Err(engine_failure(e)),
    };
    let all_rules: Vec<usize> = (0..puzzle.rules().constraints().len()).collect();
    let mut facts: Vec<Fact> = puzzle
        .givens()
        .clue_list()
        .into_iter()
        .filter(|c| {
            offered
                .as_ref()
                .is_none_or(|o| o.clues.contains(&size.index(c.cell)))
        })
        .map(Fact::Clue)
        .collect();
    facts.extend(
        all_rules
            .iter()
            .filter(|k| offered.as_ref().is_none_or(|o| o.rules.contains(k)))
            .map(|&k| Fact::Rule(k)),
    );
    let relaxed = |facts: &[Fact]| {
        let clues: Vec<Clue> = facts.iter().filter_map(Fact::clue).collect();
        let rules: Vec<usize> = facts.iter().filter_map(Fact::rule).collect();
        Puzzle::new(
            puzzle.givens().with_clues(&clues),
            puzzle.rules().keeping(&rules),
        )
    };
    // Out of time, what is left conflicts, if not minimally.
    let (core, minimal) = shrink(facts, &mut |without| {
        let solvable = has_solution(engine, &relaxed(without), budget)?;
        Ok(solvable.map(|solvable| !solvable))
    })?;
    // The set must itself admit no solution; anything else is a bug. (A
    // check that runs out of time proves nothing either way: every set kept
    // was refuted before.)
    if has_solution(engine, &relaxed(&core), budget)? == Some(true) {
        return Err(InternalError(format!(
            "the clues {} were named as conflicting but have a solution",
            clue_text(&core.iter().filter_map(Fact::clue).collect::<Vec<_>>())
        )));
    }
    outcome.conflicting = core.iter().filter_map(Fact::clue).collect();
    outcome.conflicting_rules = core.iter().filter_map(Fact::rule).collect();
    outcome.conflict_is_minimal = minimal;
    outcome.elapsed += start.elapsed();
    Ok(())
}

/// One thing an explanation may blame: a given, or a constraint (by its
/// index among the rules' constraints).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fact {
    Clue(Clue),
    Rule(usize),
}

impl Fact {
    fn clue(&self) -> Option<Clue> {
        match self {
            Fact::Clue(clue) => Some(*clue),
            Fact::Rule(_) => None,
        }
    }

    fn rule(&self) -> Option<usize> {
        match self {
            Fact::Rule(k) => Some(*k),
            Fact::Clue(_) => None,
        }
    }
}

/// Shrinks `items` by deletion to a set that still `holds` but loses it
/// without any one of its items, provided that dropping items never makes
/// a set hold that did not (fewer clues never conflict more, nor pin the
/// solution down more). `holds` answers `None` when it cannot tell (out of
/// time): shrinking stops there, and the flag returned is false.
///
/// Runs of items are dropped, halving the run length down to single items:
/// a small core among many items goes in few checks, and the last pass (one
/// item at a time) leaves every remaining item necessary. Used to name the
/// clues to blame ([`explain`]) and to minimize a puzzle.
pub(crate) fn shrink<T: Clone>(
    mut items: Vec<T>,
    holds: &mut impl FnMut(&[T]) -> Result<Option<bool>, InternalError>,
) -> Result<(Vec<T>, bool), InternalError> {
    let mut run = items.len().div_ceil(2);
    while run >= 1 {
        let mut k = 0;
        while k < items.len() {
            let mut without = items.clone();
            without.drain(k..(k + run).min(items.len()));
            match holds(&without)? {
                Some(true) => items = without,
                Some(false) => k += run,
                None => return Ok((items, false)),
            }
        }
        run /= 2;
    }
    Ok((items, true))
}

/// Confirms `outcome` with a second engine, `referee` (of kind `kind`): it
/// must reach the same status, and for a unique puzzle the same solution.
/// `Ok(true)` on agreement; `Ok(false)` when nothing can be confirmed
/// because either engine gave up; a disagreement is an [`InternalError`].
pub fn confirm(
    referee: &mut dyn Engine,
    kind: EngineKind,
    outcome: &Outcome,
    budget: &Budget,
) -> Result<bool, InternalError> {
    if outcome.status == Status::GaveUp {
        return Ok(false);
    }
    let unique = matches!(outcome.status, Status::Unique | Status::Multiple);
    let second = solve_with(referee, &outcome.puzzle, unique, budget)?;
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
        let first_line = |o: &Outcome| {
            o.solutions
                .first()
                .map_or(String::new(), |s| s.grid.to_line())
        };
        return Err(InternalError(format!(
            "the {} engine does not confirm the verdict: it says {} ({}), against {} ({})",
            kind.name(),
            second.status.name(),
            first_line(&second),
            outcome.status.name(),
            first_line(outcome),
        )));
    }
    Ok(true)
}

/// Confirms `count` (of `puzzle`, up to `limit`) with a second engine: it
/// must count the same. `Ok(false)` when either engine gave up.
pub fn confirm_count(
    referee: &mut dyn Engine,
    kind: EngineKind,
    puzzle: &Puzzle,
    limit: usize,
    count: &Count,
    budget: &Budget,
) -> Result<bool, InternalError> {
    if count.gave_up.is_some() {
        return Ok(false);
    }
    let again = count_with(referee, puzzle, limit, budget, &mut |_| {})?;
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
    pub gave_up: Option<GiveUp>,
    /// Time spent.
    pub elapsed: Duration,
    /// Whether the other engine counted the same.
    pub verification: Verification,
    /// The engine's statistics of the count, when the settings asked.
    pub statistics: Vec<(String, String)>,
}

impl Count {
    /// A count before its search: no solution, nothing asked of it yet.
    pub(crate) fn nothing_yet() -> Count {
        Count {
            solutions: 0,
            limit_reached: false,
            gave_up: None,
            elapsed: Duration::ZERO,
            verification: Verification::NotAsked,
            statistics: Vec::new(),
        }
    }

    /// The count as a status: solved with a solution, none without, and
    /// gave up when the engine did, since the count is then not known.
    pub fn status(&self) -> Status {
        match (self.solutions, &self.gave_up) {
            (_, Some(_)) => Status::GaveUp,
            (0, None) => Status::None,
            _ => Status::Solved,
        }
    }

    /// The count in words, e.g. `3 solutions`, `1 solution`, `1000
    /// solutions (limit reached)` or `at least 2 solutions (gave up: timeout)`.
    pub fn summary(&self) -> String {
        match &self.gave_up {
            Some(reason) if self.solutions == 0 => {
                format!("gave up before finding a solution: {reason}")
            }
            gave_up => count_words(
                self.solutions,
                ["solution", "solutions"],
                self.limit_reached,
                gave_up.as_ref(),
            ),
        }
    }
}

/// A count in words, for anything counted: `92 placements`, `1 solution`,
/// `10 solutions (limit reached)`, `at least 812 placements (gave up:
/// timeout)`. `nouns` are the singular and the plural.
pub fn count_words(
    count: usize,
    nouns: [&str; 2],
    limit_reached: bool,
    gave_up: Option<&GiveUp>,
) -> String {
    let noun = nouns[usize::from(count != 1)];
    match (gave_up, limit_reached) {
        (Some(reason), _) => format!("at least {count} {noun} (gave up: {reason})"),
        (None, true) => format!("{count} {noun} (limit reached)"),
        (None, false) => format!("{count} {noun}"),
    }
}

/// Counts the solutions of `puzzle` up to `limit` with `engine`, handing
/// each (checked) to `each` as it is found; gives up when `budget` is
/// spent.
pub fn count_with(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    limit: usize,
    budget: &Budget,
    each: &mut dyn FnMut(&Grid),
) -> Result<Count, InternalError> {
    let start = Instant::now();
    let mut count = Count::nothing_yet();
    if clue_clash(puzzle).is_none() && limit > 0 {
        let searched = search(engine, puzzle, limit, budget, &mut |found| {
            count.solutions += 1;
            each(found.grid);
        })?;
        count.gave_up = searched.err();
        count.limit_reached = count.solutions >= limit;
    }
    count.elapsed = start.elapsed();
    Ok(count)
}

/// Whether `puzzle` has a solution; `None` when the engine gave up.
fn has_solution(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    budget: &Budget,
) -> Result<Option<bool>, InternalError> {
    let mut found = false;
    let searched = search(engine, puzzle, 1, budget, &mut |_| found = true)?;
    Ok(searched.ok().map(|()| found))
}

/// Runs `engine` over `puzzle`, checks each solution with the independent
/// checker, and hands it to `take`, until `limit` solutions or no more.
/// `Ok(Err(reason))` when the engine gave up.
fn search(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    limit: usize,
    budget: &Budget,
    take: &mut dyn FnMut(Found<'_>),
) -> Result<Result<(), GiveUp>, InternalError> {
    search_excluding(engine, puzzle, &[], limit, budget, take)
}

/// [`search`] for solutions other than those in `excluded`.
///
/// The budget is read before the search and after each solution, not only
/// inside the engine: an engine reads its clock every few thousand nodes,
/// and a caller that runs many short searches (true candidates run one per
/// candidate) or takes many solutions quickly would otherwise never reach
/// that far within one search, and run on past its deadline.
fn search_excluding(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    excluded: &[Grid],
    limit: usize,
    budget: &Budget,
    take: &mut dyn FnMut(Found<'_>),
) -> Result<Result<(), GiveUp>, InternalError> {
    if let Some(reason) = budget.spent() {
        return Ok(Err(reason));
    }
    let mut wrong = None;
    let mut spent = None;
    let mut taken = 0;
    let known: HashSet<&Grid> = excluded.iter().collect();
    let result = engine.solutions_excluding(puzzle, excluded, budget.limits(limit), &mut |found| {
        if known.contains(found.grid) {
            wrong = Some(InternalError(format!(
                "the engine found {} again, though it was excluded",
                found.grid
            )));
            return ControlFlow::Break(());
        }
        if let Err(e) = verify_solution(puzzle, found.grid) {
            wrong = Some(InternalError(format!(
                "the engine's solution {} is wrong: {e}",
                found.grid
            )));
            return ControlFlow::Break(());
        }
        take(found);
        taken += 1;
        // The last solution wanted ends the search well, whatever the time.
        if taken < limit
            && let Some(reason) = budget.spent()
        {
            spent = Some(reason);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    if let Some(e) = wrong {
        return Err(e);
    }
    if let (Ok(()), Some(reason)) = (&result, spent) {
        return Ok(Err(reason));
    }
    match result {
        Ok(()) => Ok(Ok(())),
        Err(EngineError::GaveUp(reason)) => Ok(Err(reason)),
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
    use crate::engine::Limits;
    use crate::puzzle::parse::parse_puzzle;

    const NOTEBOOK: &str =
        "....94.3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....";

    /// An engine that answers whatever it is told to.
    struct Scripted(Vec<Grid>);

    impl Engine for Scripted {
        fn solutions(
            &mut self,
            _puzzle: &Puzzle,
            limits: Limits,
            visit: &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
        ) -> Result<(), EngineError> {
            for grid in self.0.iter().take(limits.solutions) {
                if visit(Found { grid, model: None }).is_break() {
                    break;
                }
            }
            Ok(())
        }
    }

    fn notebook() -> Puzzle {
        Puzzle::classic(parse_puzzle(NOTEBOOK, None).unwrap_or_else(|e| panic!("{e}")))
    }

    #[test]
    fn a_wrong_solution_is_an_internal_error_never_a_verdict() {
        let puzzle = notebook();
        let mut wrong = Scripted(vec![puzzle.givens().clone()]); // still has blanks
        let result = solve_with(&mut wrong, &puzzle, false, &Budget::unbounded());
        assert!(
            matches!(result, Err(InternalError(ref m)) if m.contains("is wrong")),
            "{result:?}"
        );
    }

    #[test]
    fn disagreeing_engines_are_an_internal_error() {
        let puzzle = notebook();
        let request = Request {
            unique: true,
            ..Request::default()
        };
        let outcome = solve(&puzzle, &request).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(outcome.status, Status::Unique);
        let mut claims_none = Scripted(Vec::new());
        let result = confirm(
            &mut claims_none,
            EngineKind::Native,
            &outcome,
            &Budget::unbounded(),
        );
        assert!(
            matches!(result, Err(InternalError(ref m)) if m.contains("says none")),
            "{result:?}"
        );
        let solution = outcome.solutions[0].grid.clone();
        let mut agrees = Scripted(vec![solution]);
        assert_eq!(
            confirm(
                &mut agrees,
                EngineKind::Native,
                &outcome,
                &Budget::unbounded()
            ),
            Ok(true)
        );
    }

    #[test]
    fn the_pipeline_verifies_and_says_so() {
        let request = Request {
            unique: true,
            verify: true,
            ..Request::default()
        };
        let outcome = solve(&notebook(), &request).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            outcome.verification,
            Verification::Verified(EngineKind::Native)
        );
    }
}
