//! The questions people ask of a puzzle, answered in one place for the
//! command line, the batch runner and `z3doku listen`: the next step, the
//! whole path, and the ratings. Each finds the puzzle's one solution first
//! with the native search (checked by the independent checker), so that
//! every step can be checked against it.

use super::path::{Logic, Path, PathError, hint, hint_open};
use super::rating::Rating;
use super::step::Step;
use super::technique::Technique;
use crate::engine::{Budget, Engine, EngineKind, GiveUp, Settings, new_engine};
use crate::puzzle::Puzzle;
use crate::puzzle::grid::Grid;
use crate::solve::{Pipeline, Request, Status};
use std::time::Duration;

/// The budget of a question about the logic when nobody set one: reasoned
/// steps on a variant puzzle can take minutes each, and a command that
/// prints nothing for minutes reads as hung. Ten seconds is long enough for
/// every classic path and short enough to wait for.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// Answers hints, paths and ratings, keeping its engines between puzzles.
pub struct Tutor {
    /// The solve pipeline every front end uses, with the native engine:
    /// it finds the one solution the steps are checked against.
    native: Pipeline,
    prover: Box<dyn Engine>,
    timeout: Option<Duration>,
    /// The techniques to try, in the path's order.
    techniques: Vec<Technique>,
    /// Whether the engine may reason a step out when no technique applies.
    reasoned: bool,
}

/// Where a path starts: a solution to check the steps against, and
/// whether it is the only one.
struct Start {
    solution: Grid,
    /// A second solution, when the puzzle has more than one: every step
    /// must hold in it too.
    other: Option<Grid>,
}

/// A path that may have stopped where its budget ran out.
#[derive(Clone, Debug)]
pub struct Walk {
    /// The steps found; when the budget ran out, without a search step.
    pub path: Path,
    /// Why the path stopped before the puzzle was solved, when the budget
    /// ran out.
    pub gave_up: Option<GiveUp>,
    /// Whether the puzzle has one solution. When it has more, the path
    /// holds only steps true in every solution and stops where they run
    /// out ([`Path::stuck_at`]), with no search step.
    pub unique: bool,
}

impl Tutor {
    /// A tutor whose reasoned steps (variant puzzles) are proved by
    /// `prover`, within `timeout` per question (`None`: no limit).
    pub fn new(prover: EngineKind, timeout: Option<Duration>) -> Tutor {
        Tutor::with_prover(
            &Settings {
                engine: prover,
                ..Settings::default()
            },
            timeout,
        )
    }

    /// [`Tutor::new`] with the prover made from `prover` (Z3's encoding,
    /// say).
    pub fn with_prover(prover: &Settings, timeout: Option<Duration>) -> Tutor {
        let native = Settings {
            engine: EngineKind::Native,
            ..Settings::default()
        };
        Tutor {
            native: Pipeline::new(Request {
                settings: native,
                unique: true,
                ..Request::default()
            }),
            prover: new_engine(prover),
            timeout,
            techniques: super::rules::order().to_vec(),
            reasoned: true,
        }
    }

    /// The same tutor trying only `techniques` (in the path's order,
    /// whatever the order given), and reasoned steps only when
    /// `reasoned`: a setter's "singles and cage combinations only".
    pub fn with_techniques(mut self, techniques: &[Technique], reasoned: bool) -> Tutor {
        self.techniques = super::rules::order()
            .iter()
            .copied()
            .filter(|t| techniques.contains(t))
            .collect();
        self.reasoned = reasoned;
        self
    }

    /// [`Tutor::with_techniques`] in place: for the next questions.
    pub fn set_techniques(&mut self, techniques: &[Technique], reasoned: bool) {
        self.techniques = super::rules::order()
            .iter()
            .copied()
            .filter(|t| techniques.contains(t))
            .collect();
        self.reasoned = reasoned;
    }

    /// The budget of a question asked now.
    fn budget(&self) -> Budget {
        Budget::within(self.timeout)
    }

    /// The puzzle's one solution, checked by the pipeline; or why a path
    /// cannot start.
    fn start(&mut self, puzzle: &Puzzle, budget: &Budget) -> Result<Grid, PathError> {
        match self.start_open(puzzle, budget)? {
            Start {
                solution,
                other: None,
            } => Ok(solution),
            _ => Err(PathError::NotUnique(Status::Multiple)),
        }
    }

    /// A solution of the puzzle to check steps against, and a second one
    /// when it has more; or why a path cannot start (no solution, or the
    /// budget ran out).
    fn start_open(&mut self, puzzle: &Puzzle, budget: &Budget) -> Result<Start, PathError> {
        if puzzle.size().extra() > 0 {
            return Err(PathError::OutsideGrid);
        }
        let outcome = self
            .native
            .solve_within(puzzle, true, budget)
            .map_err(|e| PathError::Internal(e.0))?;
        let status = outcome.status;
        let mut found = outcome.solutions.into_iter().map(|s| s.grid);
        match (status, found.next()) {
            (Status::Unique, Some(one)) => Ok(Start {
                solution: one,
                other: None,
            }),
            (Status::Multiple, Some(one)) => match found.next() {
                Some(two) => Ok(Start {
                    solution: one,
                    other: Some(two),
                }),
                None => Err(PathError::NotUnique(Status::Multiple)),
            },
            (Status::GaveUp, _) => Err(PathError::GaveUp(
                outcome.gave_up.unwrap_or(GiveUp::Timeout),
            )),
            (Status::Multiple, _) => Err(PathError::NotUnique(Status::Multiple)),
            _ => Err(PathError::NotUnique(Status::None)),
        }
    }

    /// The easiest next step; `None` when the puzzle is solved already.
    /// Past the budget, search finishes the puzzle (see
    /// [`Tutor::hint_within`] to give up instead).
    pub fn hint(&mut self, puzzle: &Puzzle) -> Result<Option<Step>, PathError> {
        let budget = self.budget();
        let solution = self.start(puzzle, &budget)?;
        let logic = make_logic(&self.techniques, self.reasoned, budget);
        hint(puzzle, &solution, logic, self.prover.as_mut())
    }

    /// The easiest next step within `budget`; `None` when the puzzle is
    /// solved already. A step the techniques cannot find and the budget
    /// ran out before it was reasoned gives up, rather than searching. On
    /// a puzzle with more than one solution, the step holds in every one
    /// (see [`Tutor::hint_open`]); when there is none, the puzzle is not
    /// unique ([`PathError::NotUnique`]).
    pub fn hint_within(
        &mut self,
        puzzle: &Puzzle,
        budget: &Budget,
    ) -> Result<Option<Step>, PathError> {
        match self.hint_open(puzzle, budget)? {
            (step, true) => Ok(step),
            (Some(step), false) => Ok(Some(step)),
            (None, false) => Err(PathError::NotUnique(Status::Multiple)),
        }
    }

    /// The easiest next step within `budget`, and whether the puzzle has
    /// one solution. With more, the step is one that holds in every
    /// solution (checked against two of them), and `None` says no
    /// technique finds one.
    pub fn hint_open(
        &mut self,
        puzzle: &Puzzle,
        budget: &Budget,
    ) -> Result<(Option<Step>, bool), PathError> {
        let start = self.start_open(puzzle, budget)?;
        let logic = make_logic(&self.techniques, self.reasoned, budget.clone());
        let unique = start.other.is_none();
        let step = if unique {
            hint(puzzle, &start.solution, logic, self.prover.as_mut())?
        } else {
            hint_open(puzzle, &start.solution, logic, self.prover.as_mut())?
        };
        if let (Some(step), Some(reason)) = (&step, budget.spent())
            && step.technique == Technique::Search
        {
            return Err(PathError::GaveUp(reason));
        }
        if let (Some(step), Some(other)) = (&step, &start.other) {
            step.check(other).map_err(PathError::Internal)?;
        }
        Ok((step, unique))
    }

    /// The whole path; past the budget, search finishes it.
    pub fn path(&mut self, puzzle: &Puzzle) -> Result<Path, PathError> {
        let budget = self.budget();
        let solution = self.start(puzzle, &budget)?;
        let logic = make_logic(&self.techniques, self.reasoned, budget);
        Path::find(puzzle, &solution, logic, self.prover.as_mut())
    }

    /// The path within `budget`, each step handed to `each` as it is found;
    /// where the budget runs out, it stops with the steps found. On a
    /// puzzle with more than one solution, only steps that hold in every
    /// solution are taken (each checked against two of them), and the
    /// path stops where they run out ([`Walk::unique`]).
    pub fn walk(
        &mut self,
        puzzle: &Puzzle,
        budget: &Budget,
        each: &mut dyn FnMut(&Step),
    ) -> Result<Walk, PathError> {
        let start = self.start_open(puzzle, budget)?;
        let logic = make_logic(&self.techniques, self.reasoned, budget.clone());
        let Some(other) = start.other else {
            let (path, gave_up) =
                Path::walk(puzzle, &start.solution, logic, self.prover.as_mut(), each)?;
            return Ok(Walk {
                path,
                gave_up,
                unique: true,
            });
        };
        let mut wrong: Option<String> = None;
        let mut checked = |step: &Step| {
            if wrong.is_none() {
                wrong = step.check(&other).err();
            }
            if wrong.is_none() {
                each(step);
            }
        };
        let (path, gave_up) = Path::walk_open(
            puzzle,
            &start.solution,
            logic,
            self.prover.as_mut(),
            &mut checked,
        )?;
        if let Some(wrong) = wrong {
            return Err(PathError::Internal(wrong));
        }
        Ok(Walk {
            path,
            gave_up,
            unique: false,
        })
    }

    /// The ratings, with the path they come from. A rating reads only the
    /// steps' techniques and changes, so the steps come without sentences
    /// ([`Tutor::path`] has them). Past the budget, search finishes the
    /// path.
    pub fn rate(&mut self, puzzle: &Puzzle) -> Result<(Rating, Path), PathError> {
        let budget = self.budget();
        let solution = self.start(puzzle, &budget)?;
        self.rate_solved(puzzle, &solution, budget)
    }

    /// The ratings within `budget`: a path cut short by the budget rates
    /// nothing true, so it gives up instead.
    pub fn rate_within(
        &mut self,
        puzzle: &Puzzle,
        budget: &Budget,
    ) -> Result<(Rating, Path), PathError> {
        let solution = self.start(puzzle, budget)?;
        let rated = self.rate_solved(puzzle, &solution, budget.clone())?;
        if let Some(reason) = budget.spent().filter(|_| rated.1.searched()) {
            return Err(PathError::GaveUp(reason));
        }
        Ok(rated)
    }

    /// The ratings of `puzzle`, whose one solution, checked by the
    /// independent checker, is `solution` (a batch has just proved it
    /// unique): the same as [`Tutor::rate`] without the search.
    pub fn rate_unique(
        &mut self,
        puzzle: &Puzzle,
        solution: &Grid,
    ) -> Result<(Rating, Path), PathError> {
        let budget = self.budget();
        self.rate_solved(puzzle, solution, budget)
    }

    fn rate_solved(
        &mut self,
        puzzle: &Puzzle,
        solution: &Grid,
        budget: Budget,
    ) -> Result<(Rating, Path), PathError> {
        let logic = Logic {
            words: false,
            ..make_logic(&self.techniques, self.reasoned, budget)
        };
        Rating::rate(puzzle, solution, logic, self.prover.as_mut())
    }
}

/// How to look for steps: `techniques`, reasoned steps when `reasoned`,
/// within `budget`. (A function of the fields, not of the tutor, so the
/// prover can be borrowed beside it.)
fn make_logic(techniques: &[Technique], reasoned: bool, budget: Budget) -> Logic<'_> {
    Logic {
        techniques,
        reasoned,
        budget,
        ..Logic::default()
    }
}
