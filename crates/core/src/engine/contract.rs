//! What every engine promises: the [`Engine`] trait, the settings it is
//! made with, and how it says it gave up. Engines depend on this module and
//! nothing above them.

use crate::puzzle::Puzzle;
use crate::puzzle::grid::Grid;
use std::fmt;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::Thread;
use std::time::{Duration, Instant};
use thiserror::Error;

/// Which engine to solve with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EngineKind {
    /// The Z3 SMT solver, with the chosen encoding.
    #[default]
    Z3,
    /// z3doku's own bit-vector search: fast, and an independent referee for
    /// Z3's answers.
    Native,
    /// The native search and Z3's `bool` encoding side by side on each
    /// search: the first answer wins and the other is called off.
    Race,
}

impl EngineKind {
    /// Every engine, in the order the command line lists them.
    pub const ALL: [EngineKind; 3] = [EngineKind::Z3, EngineKind::Native, EngineKind::Race];

    /// The engine's name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Z3 => "z3",
            EngineKind::Native => "native",
            EngineKind::Race => "race",
        }
    }

    /// The other engine, which confirms this one's verdicts independently.
    /// A race's verdict is confirmed by the engine that did not give it
    /// ([`Engine::answered_by`]); before it has answered, by Z3.
    pub fn referee(self) -> EngineKind {
        match self {
            EngineKind::Z3 => EngineKind::Native,
            EngineKind::Native | EngineKind::Race => EngineKind::Z3,
        }
    }
}

/// Which encoding Z3 solves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EncodingKind {
    /// The notebook's: an Int per cell in 1..=N, Distinct over every house.
    #[default]
    Int,
    /// The SAT lesson's: a Boolean `x_R_C_D` per cell and digit, "exactly
    /// one" as an at-least-one clause and pairwise at-most-one clauses.
    Bool,
    /// The pysat lesson's: the same Booleans, each "exactly one" a single
    /// pseudo-Boolean equation.
    Pb,
}

impl EncodingKind {
    /// Every encoding, in the order the command line lists them.
    pub const ALL: [EncodingKind; 3] = [EncodingKind::Int, EncodingKind::Bool, EncodingKind::Pb];

    /// The encoding's name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            EncodingKind::Int => "int",
            EncodingKind::Bool => "bool",
            EncodingKind::Pb => "pb",
        }
    }
}

/// How an engine is made: which one, and what only Z3 reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Which engine.
    pub engine: EngineKind,
    /// How Z3 sees the puzzle (Z3 only).
    pub encoding: EncodingKind,
    /// Keep the text of each model, for `--model` (Z3 only).
    pub keep_models: bool,
    /// Gather the engine's statistics after each search, for `--stats`: it
    /// costs Z3 a few per cent of a Boolean encoding's time, so only when
    /// asked.
    pub keep_statistics: bool,
    /// More puzzles follow this one (`batch`): Z3 keeps a solver for the
    /// houses from the first puzzle on, rather than answering the first
    /// with a new solver of its own, which suits a lone puzzle.
    pub many_puzzles: bool,
}

/// A solution as an engine found it.
#[derive(Clone, Copy, Debug)]
pub struct Found<'a> {
    /// The solved board.
    pub grid: &'a Grid,
    /// The solver's model, as text, when [`Settings::keep_models`] asks.
    pub model: Option<&'a str>,
}

/// Why an engine stopped without an answer. Each has a stable word for
/// JSON ([`GiveUp::word`]) and a phrase for people (its `Display`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GiveUp {
    /// The time ran out.
    Timeout,
    /// The solver ran out of the memory it was allowed.
    Memory,
    /// The search was interrupted (Ctrl-C).
    Interrupted,
    /// The search was called off through its [`Cancel`]: its answer is no
    /// longer wanted.
    Cancelled,
    /// The solver answered `unknown`, for this reason of its own.
    Unknown(String),
}

impl GiveUp {
    /// The stable word for JSON: `timeout`, `memory`, `interrupted`,
    /// `cancelled` or `unknown`.
    pub fn word(&self) -> &'static str {
        match self {
            GiveUp::Timeout => "timeout",
            GiveUp::Memory => "memory",
            GiveUp::Interrupted => "interrupted",
            GiveUp::Cancelled => "cancelled",
            GiveUp::Unknown(_) => "unknown",
        }
    }
}

impl fmt::Display for GiveUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GiveUp::Timeout => f.write_str("timeout"),
            GiveUp::Memory => f.write_str("out of memory"),
            GiveUp::Interrupted => f.write_str("interrupted"),
            GiveUp::Cancelled => f.write_str("cancelled"),
            GiveUp::Unknown(reason) => write!(f, "the solver answered unknown ({reason})"),
        }
    }
}

/// Why an engine stopped without an answer.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EngineError {
    /// No answer within the limits.
    #[error("gave up: {0}")]
    GaveUp(GiveUp),
    /// The engine broke its own contract (a model without a value, say).
    /// This is a bug in z3doku.
    #[error("internal error: {0}")]
    Internal(String),
}

/// What one request may spend: a deadline and a cancel token, made once
/// where the request starts ([`Budget::within`]) and handed as one value to
/// everything that searches for it, down to the engines (inside each
/// search's [`Limits`]). Clones share the token and the same instant.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Give up with [`GiveUp::Timeout`] once this has passed.
    pub deadline: Option<Instant>,
    /// Give up with [`GiveUp::Cancelled`] soon after this is cancelled,
    /// even in the middle of a search; `None` runs to the deadline.
    pub cancel: Option<Cancel>,
}

impl Budget {
    /// No deadline and no cancelling: searches run to their end.
    pub fn unbounded() -> Budget {
        Budget::default()
    }

    /// A budget of `timeout` from now (none without one): the one place a
    /// deadline is started from a request's timeout, so every front end
    /// counts it from the same moment, the start of the request.
    pub fn within(timeout: Option<Duration>) -> Budget {
        Budget {
            deadline: timeout.map(|t| Instant::now() + t),
            cancel: None,
        }
    }

    /// This budget, also called off by `cancel`.
    pub fn cancelled_by(self, cancel: Cancel) -> Budget {
        Budget {
            cancel: Some(cancel),
            ..self
        }
    }

    /// This budget, with `fallback` from now as its deadline when it has
    /// none: for work that must end even when the request set no limit
    /// (naming the clues to blame, say).
    pub fn or_within(&self, fallback: Duration) -> Budget {
        Budget {
            deadline: Some(self.deadline.unwrap_or_else(|| Instant::now() + fallback)),
            cancel: self.cancel.clone(),
        }
    }

    /// Whether [`Budget::cancel`] has been cancelled.
    pub fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(Cancel::is_cancelled)
    }

    /// Why nothing more may be spent: cancelled, or past the deadline;
    /// `None` while there is budget left.
    pub fn spent(&self) -> Option<GiveUp> {
        if self.cancelled() {
            Some(GiveUp::Cancelled)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(GiveUp::Timeout)
        } else {
            None
        }
    }

    /// The limits of one search under this budget, for up to `solutions`
    /// solutions.
    pub fn limits(&self, solutions: usize) -> Limits {
        Limits {
            solutions,
            budget: self.clone(),
        }
    }
}

/// How far one search may go: how many solutions, within which
/// [`Budget`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most solutions to visit. Knowing it lets an engine choose its
    /// method: Z3 finds a lone 9x9 solution fastest one way, and proves it
    /// unique fastest another.
    pub solutions: usize,
    /// The request's deadline and cancel token.
    pub budget: Budget,
}

impl Limits {
    /// Up to `solutions` solutions, with no deadline and no cancelling.
    pub fn solutions(solutions: usize) -> Limits {
        Budget::unbounded().limits(solutions)
    }

    /// Whether the budget's cancel token has been cancelled.
    pub fn cancelled(&self) -> bool {
        self.budget.cancelled()
    }

    /// The budget's deadline.
    pub fn deadline(&self) -> Option<Instant> {
        self.budget.deadline
    }
}

/// A switch that calls searches off from another thread: clones share it,
/// and once [`Cancel::cancel`] is called every search under
/// a [`Budget`] with it gives up with [`GiveUp::Cancelled`] within a
/// few milliseconds. `z3doku listen` cancels the work in hand when its
/// client sends a new request, a `cancel`, or leaves.
///
/// The native engine reads it as it reads the clock, every few thousand
/// search nodes. Z3 cannot be polled in the middle of a check, so a Z3
/// search under a `Cancel` has a watcher thread that sleeps until the
/// token is cancelled and then interrupts the check; the watcher is woken
/// through the threads registered here.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<CancelState>);

#[derive(Debug, Default)]
struct CancelState {
    cancelled: AtomicBool,
    /// Threads to wake when the token is cancelled.
    watchers: Mutex<Vec<Thread>>,
}

impl Cancel {
    /// A token not yet cancelled.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Calls off every search under this token (or a clone of it), now and
    /// to come.
    pub fn cancel(&self) {
        self.0.cancelled.store(true, Ordering::SeqCst);
        let watchers = self
            .0
            .watchers
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        for thread in watchers.iter() {
            thread.unpark();
        }
    }

    /// Whether [`Cancel::cancel`] has been called.
    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.load(Ordering::Relaxed)
    }

    /// Has `thread` unparked when the token is cancelled (and at once if it
    /// is already), until [`Cancel::unwatch`]: a thread that parks until
    /// cancelled then never misses the moment.
    pub fn watch(&self, thread: Thread) {
        let mut watchers = self
            .0
            .watchers
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if self.is_cancelled() {
            thread.unpark();
        }
        watchers.push(thread);
    }

    /// Stops unparking `thread` (registered by [`Cancel::watch`]).
    pub fn unwatch(&self, thread: &Thread) {
        let mut watchers = self
            .0
            .watchers
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        watchers.retain(|t| t.id() != thread.id());
    }
}

/// Tokens are equal when they are the same switch.
impl PartialEq for Cancel {
    fn eq(&self, other: &Cancel) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Cancel {}

/// A solver of puzzles.
pub trait Engine {
    /// Visits the solutions of `puzzle` one by one, each different from
    /// those before, until `visit` breaks, `limits` are reached, or there
    /// are no more. Solutions come unchecked: the solve pipeline checks them.
    fn solutions(
        &mut self,
        puzzle: &Puzzle,
        limits: Limits,
        visit: &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
    ) -> Result<(), EngineError>;

    /// Visits the solutions of `puzzle` other than those in `excluded`, as
    /// [`Engine::solutions`] does; `limits` counts only the solutions
    /// visited. The setter's questions ask for a solution "other than these
    /// known ones" again and again; the default searches past the excluded
    /// ones, and Z3 blocks them before it starts.
    fn solutions_excluding(
        &mut self,
        puzzle: &Puzzle,
        excluded: &[Grid],
        limits: Limits,
        visit: &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
    ) -> Result<(), EngineError> {
        past_excluded(
            |limits, visit| self.solutions(puzzle, limits, visit),
            excluded,
            limits,
            visit,
        )
    }

    /// Givens and constraints that together already admit no solution,
    /// when the engine can name such a set cheaply (Z3's unsat core), for
    /// the explanation to shrink; `None` to start from all of them.
    fn conflict(
        &mut self,
        _puzzle: &Puzzle,
        _budget: &Budget,
    ) -> Result<Option<Conflict>, EngineError> {
        Ok(None)
    }

    /// The engine's statistics of its last search, as (name, value) rows.
    fn statistics(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// Which engine gave the last search's answer, when this one runs
    /// others (a race); `None` for an engine that answers itself.
    fn answered_by(&self) -> Option<EngineKind> {
        None
    }
}

/// Facts of a puzzle that together admit no solution.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conflict {
    /// Givens, as row-major cell indexes.
    pub clues: Vec<usize>,
    /// Constraints, as indexes into the rules'
    /// [constraints](crate::puzzle::rules::Rules::constraints).
    pub rules: Vec<usize>,
}

/// The solutions of `puzzle` from an engine that searches its digits
/// (`search`, under limits, visiting digit grids): on a chaos construction
/// each digit grid found is visited once for each parting of it into the
/// rule's regions, carrying them ([`Grid::with_regions`]), so that a count
/// counts digits and regions together, as sigh does (see build.md, "Chaos
/// construction"); any other puzzle's grids are visited as they come. The
/// engine then searches with no bound on digit grids, and the visit stops
/// it once `limits` are reached.
pub fn by_partings(
    puzzle: &Puzzle,
    limits: Limits,
    visit: &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
    search: impl FnOnce(Limits, &mut dyn FnMut(Found<'_>) -> ControlFlow<()>) -> Result<(), EngineError>,
) -> Result<(), EngineError> {
    let Some(chaos) = puzzle.rules().chaos().cloned() else {
        return search(limits, visit);
    };
    let mut left = limits.solutions;
    if left == 0 {
        return Ok(());
    }
    let wider = Limits {
        solutions: usize::MAX,
        ..limits
    };
    search(wider, &mut |found| {
        for regions in crate::puzzle::kinds::chaos::partings(
            found.grid,
            chaos.region_cells(),
            &chaos.clues,
            left,
        ) {
            let grid = found.grid.digits_only().with_regions(regions);
            left -= 1;
            let flow = visit(Found {
                grid: &grid,
                model: found.model,
            });
            if flow.is_break() || left == 0 {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    })
}

/// [`Engine::solutions_excluding`] by searching past the excluded
/// solutions: `solutions` visits every solution within its limits.
pub fn past_excluded(
    solutions: impl FnOnce(
        Limits,
        &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
    ) -> Result<(), EngineError>,
    excluded: &[Grid],
    limits: Limits,
    visit: &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
) -> Result<(), EngineError> {
    let wider = Limits {
        solutions: limits.solutions.saturating_add(excluded.len()),
        ..limits
    };
    let mut left = limits.solutions;
    if left == 0 {
        return Ok(());
    }
    solutions(wider, &mut |found| {
        if excluded.contains(found.grid) {
            return ControlFlow::Continue(());
        }
        left -= 1;
        match visit(found) {
            ControlFlow::Continue(()) if left > 0 => ControlFlow::Continue(()),
            _ => ControlFlow::Break(()),
        }
    })
}
