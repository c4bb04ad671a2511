//! The Z3 engine: puts a puzzle to Z3 through an [`Encoding`], and finds
//! further solutions by blocking each one found.
//!
//! Encodings that [keep a solver](Encoding::keeps_solver) get one solver per
//! set of rules from the second puzzle on, with the rules asserted once and
//! each puzzle's clues passed as assumptions (or asserted in the puzzle's
//! `push`/`pop` scope, where the encoding
//! [asks](Encoding::clues_as_assumptions)); blocking clauses go inside that
//! scope so that they never outlive their puzzle. Otherwise each puzzle
//! gets a new solver with the clues asserted.

mod block;
mod cancel;
pub mod emit;
pub mod encoding;
mod formula;
mod guard;

pub use formula::FormulaSolver;
pub use guard::quiet_guarded_panics;

use super::contract::{
    Budget, Conflict, EncodingKind, Engine, EngineError, Found, GiveUp, Limits, Settings,
};
use crate::puzzle::Puzzle;
use crate::puzzle::grid::Grid;
use crate::puzzle::rules::Rules;
use block::Blocker;
use cancel::interruptible;
use encoding::Encoding;
use guard::{guarded, memory_limit_mib};
use std::cell::Cell;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::{Duration, Instant};
use z3::ast::Bool;
use z3::{Params, SatResult, Solver, StatisticsValue, Tactic};

/// Conflicts before Z3's SAT solver first collects its learned clauses
/// (its `gc.initial` parameter; Z3's default is 20,000).
const GC_INITIAL_CONFLICTS: u32 = 100;

/// Conflicts before a kept solver's SAT solver first simplifies its clauses
/// in the middle of a search (its `sat.simplify.delay`; Z3's default is 0):
/// in effect never.
const KEPT_SIMPLIFY_DELAY: u32 = 1_000_000;

/// Solves with Z3 in the calling thread's Z3 context.
pub struct Z3Engine {
    kind: EncodingKind,
    settings: Settings,
    /// The rules last seen and their encoding: its variables and formulas
    /// are built once and shared by every puzzle under those rules.
    encoding: Option<(Arc<Rules>, Box<dyn Encoding>)>,
    /// The solver kept for that encoding, when it keeps one.
    kept: Option<Kept>,
    /// Searches since the encoding was built for new houses.
    searches: usize,
    statistics: Vec<(String, String)>,
}

/// A solver kept for an encoding's houses, and what the engine knows of it.
struct Kept {
    solver: Solver,
    /// Whether it has a timeout in force.
    bounded: Cell<bool>,
    /// Whether it holds the rules' constraints in a scope of their own (it
    /// does whenever they have any), to be popped when rules with the same
    /// houses come next.
    constraints: bool,
    /// Searches it has served.
    searches: usize,
}

impl Z3Engine {
    /// An engine for `settings`; nothing is built until the first puzzle.
    pub fn new(settings: &Settings) -> Z3Engine {
        Z3Engine {
            kind: settings.encoding,
            settings: settings.clone(),
            encoding: None,
            kept: None,
            searches: 0,
            statistics: Vec::new(),
        }
    }

    /// A solver for `encoding` with its rules asserted: from its tactics
    /// when `tactics` (the search for a first solution) and it has some,
    /// else for its logic.
    fn new_solver(&self, encoding: &dyn Encoding, tactics: bool) -> Solver {
        let solver = self.houses_solver(encoding, tactics);
        assert_constraints(&solver, encoding);
        solver
    }

    /// A solver as [`Self::new_solver`] makes one, with only the houses
    /// asserted.
    fn houses_solver(&self, encoding: &dyn Encoding, tactics: bool) -> Solver {
        let solver = match encoding.tactics().filter(|_| tactics) {
            Some(names) => {
                let mut tactic = Tactic::create_skip();
                for name in names {
                    tactic = tactic.and_then(&Tactic::new(name));
                }
                tactic.solver()
            }
            None => encoding
                .logic()
                .and_then(Solver::new_for_logic)
                .unwrap_or_default(),
        };
        self.configure_houses(&solver, encoding);
        solver
    }

    /// Z3's general solver over everything `solver` holds, with
    /// `assumptions` asserted: it decides the formulas the finite-domain
    /// solver gave up on ([`finite_domain_gave_up`]), slower but whole.
    fn general_solver(&self, solver: &Solver, assumptions: &[Bool]) -> Solver {
        let general = Solver::new();
        general.set_params(&common_params());
        for formula in solver.get_assertions().iter().chain(assumptions) {
            general.assert(formula);
        }
        general
    }

    /// Gives `solver` z3doku's parameters and asserts `encoding`'s houses,
    /// not its constraints.
    fn configure_houses(&self, solver: &Solver, encoding: &dyn Encoding) {
        let mut params = common_params();
        // A kept solver sees a few dozen conflicts per puzzle, so with
        // Z3's default the clauses learned on earlier puzzles piled up and
        // slowed every later check (2.7x over top1465, 4x over
        // forum_hardest); collecting early keeps the database small (see
        // build.md, "Learned clauses across puzzles").
        params.set_u32("gc.initial", GC_INITIAL_CONFLICTS);
        solver.set_params(&params);
        for rule in encoding.rules().iter().chain(encoding.implied()) {
            solver.assert(rule);
        }
    }

    /// Makes the encoding (and kept solver) fit puzzles under `rules`.
    ///
    /// Rules with the same houses as the last (killer puzzles one after
    /// another, say) share its variables and house formulas, and its kept
    /// solver, whose constraints' scope is popped and a new one pushed:
    /// building and preprocessing the houses again cost more than many a
    /// search (see build.md, "Killer cages in the Z3 encodings").
    fn prepare(&mut self, rules: &Arc<Rules>) {
        let same_rules = matches!(&self.encoding,
            Some((r, _)) if Arc::ptr_eq(r, rules) || **r == **rules);
        if !same_rules {
            let encoding = match self.encoding.take() {
                Some((r, encoding)) if r.size() == rules.size() && r.houses() == rules.houses() => {
                    encoding.with_constraints(rules)
                }
                _ => {
                    self.kept = None;
                    self.searches = 0;
                    encoding::build(self.kind, rules)
                }
            };
            self.encoding = Some((Arc::clone(rules), encoding));
            self.scope_constraints();
        }
    }

    /// Keeps a solver for the encoding, if it keeps one, once a second
    /// search comes under the same houses: a lone puzzle is answered faster
    /// by a new solver, into whose rules Z3 substitutes the clues before
    /// preprocessing them (see build.md, "The `int` encoding on a kept
    /// solver"). When the settings say many puzzles follow (`batch`), from
    /// the first search on: the new solver of the first would be built for
    /// one puzzle, and the kept one's cost fall on the second
    /// (docs/variants.md, "Formulas in the one-hot encodings"). Called once
    /// per search; an explanation makes a solver of its own and does not
    /// count.
    fn keep_on_reuse(&mut self) {
        let Some((_, encoding)) = &self.encoding else {
            return;
        };
        let served = self.kept.as_ref().map_or(0, |kept| kept.searches);
        if encoding.kept_searches().is_some_and(|most| served >= most) {
            self.kept = None;
        }
        let reused = self.searches > 0 || self.settings.many_puzzles;
        if self.kept.is_none() && reused && encoding.keeps_solver() {
            let solver = self.houses_solver(encoding.as_ref(), false);
            self.configure_kept(&solver, encoding.as_ref());
            self.kept = Some(Kept {
                solver,
                bounded: Cell::new(false),
                constraints: false,
                searches: 0,
            });
            self.scope_constraints();
        }
        // A search on a solver of its own leaves the kept one unserved.
        let keeps = self
            .encoding
            .as_ref()
            .is_some_and(|(_, encoding)| encoding.keeps_solver());
        if let Some(kept) = &mut self.kept
            && keeps
        {
            kept.searches += 1;
        }
        self.searches += 1;
    }

    /// Asserts what `encoding` states only on a kept solver, and holds back
    /// Z3's inprocessing there.
    fn configure_kept(&self, kept: &Solver, encoding: &dyn Encoding) {
        // A kept solver sees few conflicts per puzzle, and Z3's SAT
        // inprocessing (subsumption, probing, equivalent literals), which
        // its conflicts trigger, would go over the whole clause database,
        // the houses' clauses with it, again and again: held back, `int`
        // took 17% fewer instructions on the own killers and 31% fewer on
        // the shared variants, `bool` as many (see build.md, "The `int`
        // encoding on a kept solver").
        let mut params = Params::new();
        params.set_u32("sat.simplify.delay", KEPT_SIMPLIFY_DELAY);
        kept.set_params(&params);
        for formula in encoding.kept_formulas() {
            kept.assert(formula);
        }
    }

    /// Puts the encoding's constraints on the kept solver, if there is one,
    /// in a scope of their own in place of the last rules'.
    fn scope_constraints(&mut self) {
        let (Some(kept), Some((_, encoding))) = (&mut self.kept, &self.encoding) else {
            return;
        };
        if kept.constraints {
            kept.solver.pop(1);
            kept.constraints = false;
        }
        // Rules searched by a new solver per puzzle leave the kept one
        // with the houses alone, for the rules that come after them.
        let any = encoding.keeps_solver()
            && (!encoding.constraints().iter().all(Vec::is_empty)
                || !encoding.implied_by_constraints().is_empty());
        if any {
            kept.solver.push();
            assert_constraints(&kept.solver, encoding.as_ref());
            kept.constraints = true;
        }
    }
}

/// [`GiveUp::Cancelled`] when `limits` were cancelled, [`GiveUp::Memory`]
/// when `solver` reached the memory limit (near it, Z3 can say sat and
/// then give no model), else the internal error `what`.
fn cancelled_or(limits: &Limits, solver: &Solver, what: &str) -> EngineError {
    if limits.cancelled() {
        EngineError::GaveUp(GiveUp::Cancelled)
    } else if at_memory_limit(solver) == Some(true) {
        EngineError::GaveUp(GiveUp::Memory)
    } else {
        EngineError::Internal(what.into())
    }
}

/// Whether Z3 has used as much memory as it may, by `solver`'s `max
/// memory` statistic; `None` without a statistic or a limit.
fn at_memory_limit(solver: &Solver) -> Option<bool> {
    let used = match solver.get_statistics().value("max memory")? {
        StatisticsValue::Double(mib) => mib,
        StatisticsValue::UInt(mib) => f64::from(mib),
    };
    Some(used >= memory_limit_mib()?)
}

/// Asserts `encoding`'s constraints and the sums they imply on `solver`.
fn assert_constraints(solver: &Solver, encoding: &dyn Encoding) {
    for formula in encoding
        .constraints()
        .iter()
        .flatten()
        .chain(encoding.implied_by_constraints())
    {
        solver.assert(formula);
    }
}

/// Whether the first solution comes from `encoding`'s tactics rather than
/// its logic's solver.
///
/// Only when one solution is wanted: the logic's solver is incremental, so
/// it proves a solution unique for little more than finding it, while
/// after a tactic's first solution a second solver must search the puzzle
/// again (`int` on top1465 with uniqueness: 15.3 s against 9.6 s per 100
/// puzzles; see build.md, "The `int` path: first solution without a
/// timeout").
///
/// And never under a deadline: a tactic's solver ignores the `timeout`
/// parameter, and bounding it with `try_for` as well can deadlock Z3 4.8's
/// timer threads (seen with several workers and millisecond timeouts).
fn uses_tactics(encoding: &dyn Encoding, limits: &Limits) -> bool {
    encoding.tactics().is_some() && limits.deadline().is_none() && limits.solutions == 1
}

/// Bounds `solver`'s next check by `deadline`, or lifts the bound an
/// earlier check left (a kept solver serves puzzles with and without one).
/// `bounded` says whether a bound is in force, so that a solver never
/// bounded is never touched: updating parameters costs the SAT solver a
/// little on every call. `Err` when the deadline has passed already.
fn set_deadline(
    solver: &Solver,
    deadline: Option<Instant>,
    bounded: &Cell<bool>,
) -> Result<(), EngineError> {
    let millis = match deadline {
        Some(deadline) => {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(EngineError::GaveUp(GiveUp::Timeout));
            }
            // Z3 counts whole milliseconds, and 0 would mean no limit.
            u32::try_from(left.as_millis()).unwrap_or(u32::MAX).max(1)
        }
        None if !bounded.get() => return Ok(()),
        // Z3's own default: no limit.
        None => u32::MAX,
    };
    let mut params = Params::new();
    params.set_u32("timeout", millis);
    solver.set_params(&params);
    bounded.set(deadline.is_some());
    Ok(())
}

/// The parameters every solver of z3doku's gets.
fn common_params() -> Params {
    let mut params = Params::new();
    // Compacting a model costs more than a whole Sudoku search on the
    // SAT solver (see build.md, "Encodings").
    params.set_bool("model.compact", false);
    // Z3's own Ctrl-C handler is process-wide: solvers in several
    // threads install and restore it in turn, can leave it installed
    // after its solver is gone, and then crash on SIGINT. Interrupts
    // are the program's to handle.
    params.set_bool("ctrl_c", false);
    params
}

/// Whether `solver`, Z3's finite-domain solver, gave up on formulas it was
/// given rather than on a limit. Z3 4.8 does so when its preprocessing
/// leaves an integer comparison it cannot bit-blast, as it does when bounds
/// alone empty a cell's range (a two-cell cage of 7 on 4x4 beside a
/// rising line that needs a larger digit in the same box): then it says
/// `interpreted functions sent to SAT solver` instead of unsat.
fn finite_domain_gave_up(solver: &Solver) -> bool {
    solver
        .get_reason_unknown()
        .is_some_and(|reason| reason.contains("interpreted functions sent to SAT solver"))
}

/// Why `solver` answered unknown, as a [`GiveUp`].
fn give_up(solver: &Solver, deadline: Option<Instant>) -> GiveUp {
    // A cancelled check under a deadline ran out of time: a cancel token's
    // interrupt is told apart before this is asked, and Ctrl-C ends the
    // process.
    reason_of(solver.get_reason_unknown(), deadline, || {
        // Some of Z3's solvers (the pseudo-Boolean one) stop at the memory
        // limit without a reason: its `max memory` statistic tells.
        at_memory_limit(solver)
    })
}

/// The [`GiveUp`] for what Z3 `said` of an `unknown` in a check bounded by
/// `deadline`: it says `timeout` or `canceled` when its time ran out, `max.
/// memory exceeded` or `out of memory` when that did, and sometimes
/// nothing, when `over_memory` has the last word.
///
/// When its timer cancels a search, Z3 may instead give the reason of the
/// part that was running, such as `(incomplete (theory arithmetic))` from
/// an arithmetic check cut short: so once the deadline is reached (or so
/// nearly that the timer, counting whole milliseconds from the check's
/// start, may have fired), any reason but memory is the deadline's.
fn reason_of(
    said: Option<String>,
    deadline: Option<Instant>,
    over_memory: impl FnOnce() -> Option<bool>,
) -> GiveUp {
    let said = said.filter(|s| !s.trim().is_empty());
    let lower = said.as_deref().unwrap_or_default().to_lowercase();
    let time_is_up = deadline.is_some_and(|d| Instant::now() + Duration::from_millis(2) >= d);
    if lower.contains("memory") {
        GiveUp::Memory
    } else if lower.contains("timeout")
        || time_is_up
        || (lower.contains("cancel") && deadline.is_some())
    {
        GiveUp::Timeout
    } else if lower.contains("cancel") || lower.contains("interrupt") {
        GiveUp::Interrupted
    } else if over_memory() == Some(true) {
        GiveUp::Memory
    } else {
        GiveUp::Unknown(said.unwrap_or_else(|| "no reason given".into()))
    }
}

impl Z3Engine {
    /// Drops the encoding and kept solver after `result` if Z3 ran out of
    /// memory or time, a panic cut their building short, or an interrupt
    /// stopped the search: a context past its memory limit can leave them
    /// half made, and a kept solver interrupted between its scope's `push`
    /// and `pop` cannot be trusted to hold only the houses (see `cancel`).
    /// A check stopped by its deadline can stop while Z3 takes the
    /// solver's formulas into its SAT solver, and the part not taken is
    /// never taken: the kept solver's next puzzle was answered without
    /// some of the houses (a wrong grid, caught by the checker, in one
    /// `batch --timeout 1` of 14 on a loaded machine). So the next puzzle
    /// builds them again instead of reusing them.
    fn forget_after<T>(&mut self, result: &Result<T, EngineError>) {
        if matches!(
            result,
            Err(EngineError::GaveUp(
                GiveUp::Memory | GiveUp::Cancelled | GiveUp::Interrupted | GiveUp::Timeout
            ) | EngineError::Internal(_))
        ) {
            self.kept = None;
            self.encoding = None;
        }
    }

    fn search(
        &mut self,
        puzzle: &Puzzle,
        excluded: &[Grid],
        limits: Limits,
        visit: &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
    ) -> Result<(), EngineError> {
        if limits.solutions == 0 {
            return Ok(());
        }
        let deadline = limits.deadline();
        self.prepare(puzzle.rules());
        self.keep_on_reuse();
        let Some((_, encoding)) = self.encoding.as_ref() else {
            return Err(EngineError::Internal("no encoding was built".into()));
        };
        let encoding = encoding.as_ref();
        let tactics = uses_tactics(encoding, &limits);
        let givens = puzzle.givens();
        let clues: Vec<Bool> = givens
            .clues()
            .map(|(index, digit)| encoding.clue(index, digit))
            .collect();
        // An excluded solution is blocked over every cell, givens too: a
        // grid that breaks a given is then excluded already, and stays
        // allowed otherwise.
        let exclusions: Vec<Bool> = excluded
            .iter()
            .map(|grid| {
                let differs: Vec<Bool> = (0..puzzle.size().all_cells())
                    .map(|i| encoding.differs(i, grid.get(i)))
                    .collect();
                Bool::or(&differs)
            })
            .collect();
        let fresh_solver = |first: bool| {
            let solver = self.new_solver(encoding, first && tactics);
            for clue in clues.iter().chain(&exclusions) {
                solver.assert(clue);
            }
            solver
        };
        let kept = self.kept.as_ref().filter(|_| encoding.keeps_solver());
        let mut fresh = kept.is_none().then(|| fresh_solver(true));
        // A kept solver takes the clues as assumptions when the encoding
        // allows, else in the puzzle's scope; a fresh one has them asserted.
        let assume = kept.is_some() && encoding.clues_as_assumptions();
        let assumptions: &[Bool] = if assume { &clues } else { &[] };
        let scoped_formulas: Vec<&Bool> = match kept {
            Some(_) if assume => exclusions.iter().collect(),
            Some(_) => clues.iter().chain(&exclusions).collect(),
            None => Vec::new(),
        };
        let mut scoped = false;
        if let Some(kept) = kept.filter(|_| !scoped_formulas.is_empty()) {
            kept.solver.push();
            scoped = true;
            for formula in scoped_formulas {
                kept.solver.assert(formula);
            }
        }
        let fresh_bounded = Cell::new(false);
        let mut blocker = Blocker::new(encoding, fresh.is_some());
        let mut fell_back = false;
        let mut blocked_any = false;
        let mut left = limits.solutions;
        let result = loop {
            let (solver, bounded) = match (&fresh, kept) {
                (Some(fresh), _) => (fresh, &fresh_bounded),
                (None, Some(kept)) => (&kept.solver, &kept.bounded),
                (None, None) => break Err(EngineError::Internal("no solver".into())),
            };
            if limits.cancelled() {
                break Err(EngineError::GaveUp(GiveUp::Cancelled));
            }
            if let Err(e) = set_deadline(solver, deadline, bounded) {
                break Err(e);
            }
            match solver.check_assumptions(assumptions) {
                SatResult::Unsat => break Ok(()),
                // An interrupt from the cancel token's watcher.
                SatResult::Unknown if limits.cancelled() => {
                    break Err(EngineError::GaveUp(GiveUp::Cancelled));
                }
                SatResult::Unknown if !fell_back && finite_domain_gave_up(solver) => {
                    // Go on with Z3's general solver, which decides the same
                    // formulas; its checks go on under the same limits.
                    let general = self.general_solver(solver, assumptions);
                    fresh = Some(general);
                    fresh_bounded.set(false);
                    fell_back = true;
                    continue;
                }
                SatResult::Unknown => break Err(EngineError::GaveUp(give_up(solver, deadline))),
                SatResult::Sat => {}
            }
            // An interrupt that lands after the check can keep Z3 from
            // giving or evaluating the model: then the search was
            // cancelled, not wrong.
            let Some(model) = solver.get_model() else {
                break Err(cancelled_or(
                    &limits,
                    solver,
                    "Z3 said sat but gave no model",
                ));
            };
            let Some(grid) = encoding.decode(&model) else {
                break Err(cancelled_or(
                    &limits,
                    solver,
                    "Z3's model leaves a cell without a digit",
                ));
            };
            let text = self
                .settings
                .keep_models
                .then(|| encoding.model_text(&model));
            let found = Found {
                grid: &grid,
                model: text.as_deref(),
            };
            left -= 1;
            if visit(found).is_break() || left == 0 {
                break Ok(());
            }
            // Block this solution: some cell that was blank must differ.
            // Blocked as a count from the second solution on (see
            // `Blocker::block`).
            let block = blocker.block(&grid, givens, left > 1 && blocked_any);
            if fresh.is_some() && tactics && !blocked_any && !fell_back {
                // Go on with the logic's incremental solver.
                let next = fresh_solver(false);
                for formula in &block {
                    next.assert(formula);
                }
                fresh = Some(next);
                fresh_bounded.set(false);
            } else {
                // A scope is only ever opened on the kept solver.
                if fresh.is_none() && !scoped {
                    solver.push();
                    scoped = true;
                }
                for formula in &block {
                    solver.assert(formula);
                }
            }
            blocked_any = true;
        };
        // The puzzle's scope is closed on the kept solver, even when a
        // general solver took over its search.
        if let Some(kept) = kept.filter(|_| scoped) {
            kept.solver.pop(1);
        }
        let Some(solver) = fresh.as_ref().or(kept.map(|kept| &kept.solver)) else {
            return result;
        };
        if !self.settings.keep_statistics {
            return result;
        }
        let statistics = solver
            .get_statistics()
            .entries()
            .map(|e| {
                let value = match e.value {
                    StatisticsValue::UInt(n) => n.to_string(),
                    StatisticsValue::Double(x) => format!("{x:.3}"),
                };
                (e.key, value)
            })
            .collect();
        self.statistics = statistics;
        result
    }

    fn unsat_core(
        &mut self,
        puzzle: &Puzzle,
        budget: &Budget,
    ) -> Result<Option<Conflict>, EngineError> {
        if budget.cancelled() {
            return Err(EngineError::GaveUp(GiveUp::Cancelled));
        }
        // Chaos construction's formula holds the clues over its regions,
        // whose switch would be the construction's: the core would blame
        // it for what a clue does. The explanation starts from everything.
        if puzzle.rules().has_chaos() {
            return Ok(None);
        }
        self.prepare(puzzle.rules());
        let Some((_, encoding)) = self.encoding.as_ref() else {
            return Ok(None);
        };
        let encoding = encoding.as_ref();
        // Z3's default solver names an unsat core over assumption literals;
        // the finite-domain and tactic solvers chosen for speed do not.
        let solver = Solver::new();
        self.configure_houses(&solver, encoding);
        // Each clue and each constraint is tracked by a literal that
        // switches it on.
        let switch = |name: String, formulas: &[Bool]| {
            let switch = Bool::new_const(name);
            for formula in formulas {
                solver.assert(switch.implies(formula));
            }
            switch
        };
        let clues: Vec<(usize, Bool)> = puzzle
            .givens()
            .clues()
            .map(|(index, digit)| {
                let formula = encoding.clue(index, digit);
                (index, switch(format!("clue_{index}"), &[formula]))
            })
            .collect();
        let rules: Vec<(usize, Bool)> = encoding
            .constraints()
            .iter()
            .enumerate()
            .map(|(k, formulas)| (k, switch(format!("rule_{k}"), formulas)))
            .collect();
        let switches: Vec<Bool> = clues.iter().chain(&rules).map(|(_, s)| s.clone()).collect();
        set_deadline(&solver, budget.deadline, &Cell::new(false))?;
        match solver.check_assumptions(&switches) {
            SatResult::Unsat => {}
            // An interrupt from the cancel token's watcher.
            SatResult::Unknown if budget.cancelled() => {
                return Err(EngineError::GaveUp(GiveUp::Cancelled));
            }
            _ => return Ok(None),
        }
        let core = solver.get_unsat_core();
        let named = |tracked: Vec<(usize, Bool)>| -> Vec<usize> {
            tracked
                .into_iter()
                .filter(|(_, switch)| core.contains(switch))
                .map(|(index, _)| index)
                .collect()
        };
        Ok(Some(Conflict {
            clues: named(clues),
            rules: named(rules),
        }))
    }
}

impl Engine for Z3Engine {
    fn solutions(
        &mut self,
        puzzle: &Puzzle,
        limits: Limits,
        visit: &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
    ) -> Result<(), EngineError> {
        let cancel = limits.budget.cancel.clone();
        let result = guarded(|| {
            interruptible(cancel.as_ref(), || {
                super::contract::by_partings(puzzle, limits, visit, |limits, visit| {
                    self.search(puzzle, &[], limits, visit)
                })
            })
        });
        self.forget_after(&result);
        result
    }

    fn solutions_excluding(
        &mut self,
        puzzle: &Puzzle,
        excluded: &[Grid],
        limits: Limits,
        visit: &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
    ) -> Result<(), EngineError> {
        // A chaos construction's solutions are digits with regions, and
        // blocking an excluded grid's digits would block its other
        // regions too: those are searched past instead.
        if puzzle.rules().has_chaos() {
            return super::contract::past_excluded(
                |limits, visit| self.solutions(puzzle, limits, visit),
                excluded,
                limits,
                visit,
            );
        }
        let cancel = limits.budget.cancel.clone();
        let result = guarded(|| {
            interruptible(cancel.as_ref(), || {
                self.search(puzzle, excluded, limits, visit)
            })
        });
        self.forget_after(&result);
        result
    }

    fn conflict(
        &mut self,
        puzzle: &Puzzle,
        budget: &Budget,
    ) -> Result<Option<Conflict>, EngineError> {
        let result =
            guarded(|| interruptible(budget.cancel.as_ref(), || self.unsat_core(puzzle, budget)));
        self.forget_after(&result);
        result
    }

    fn statistics(&self) -> Vec<(String, String)> {
        self.statistics.clone()
    }
}

/// Caps the memory Z3 may use at `mib` MiB (its `memory_max_size`, which Z3
/// counts over the whole process: a batch's workers share it); past it, Z3
/// gives up with [`GiveUp::Memory`]. Call it before the first engine: a
/// context that exists already keeps the limit it was made with. Below
/// about 20 MiB Z3 cannot make a context at all, so the command line asks
/// for at least 64.
pub fn limit_memory(mib: u32) {
    z3::set_global_param("memory_max_size", &mib.to_string());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::grid::{Grid, Size};

    fn encoding(kind: EncodingKind, side: usize) -> Box<dyn Encoding> {
        let size = Size::from_side(side).unwrap_or_default();
        encoding::build(kind, &crate::puzzle::rules::Rules::classic(size))
    }

    #[test]
    fn a_solver_is_kept_from_the_second_search_and_int_renews_it() {
        let empty = Puzzle::classic(Grid::empty(Size::from_side(4).unwrap_or_default()));
        for kind in EncodingKind::ALL {
            let mut engine = Z3Engine::new(&Settings {
                encoding: kind,
                ..Settings::default()
            });
            let search = |engine: &mut Z3Engine| {
                let mut found = 0;
                let result = engine.solutions(&empty, Limits::solutions(2), &mut |_| {
                    found += 1;
                    ControlFlow::Continue(())
                });
                assert!(result.is_ok() && found == 2, "{kind:?}");
            };
            search(&mut engine);
            assert!(engine.kept.is_none(), "{kind:?}");
            search(&mut engine);
            assert!(engine.kept.is_some(), "{kind:?}");
            // `int` serves 200 searches on a kept solver, the others all.
            for _ in 0..210 {
                search(&mut engine);
            }
            let renewed = engine.kept.as_ref().is_some_and(|kept| kept.searches < 211);
            assert_eq!(renewed, kind == EncodingKind::Int, "{kind:?}");
        }
    }

    #[test]
    fn int_takes_tactics_only_for_a_lone_9x9_solution_without_a_deadline() {
        let nine = encoding(EncodingKind::Int, 9);
        assert!(uses_tactics(nine.as_ref(), &Limits::solutions(1)));
        assert!(!uses_tactics(nine.as_ref(), &Limits::solutions(2)));
        let timed = Budget::within(Some(std::time::Duration::ZERO)).limits(1);
        assert!(!uses_tactics(nine.as_ref(), &timed));
        for side in [4, 6, 12, 16, 25] {
            let other = encoding(EncodingKind::Int, side);
            assert!(
                !uses_tactics(other.as_ref(), &Limits::solutions(1)),
                "{side}"
            );
        }
        for kind in [EncodingKind::Bool, EncodingKind::Pb] {
            assert!(!uses_tactics(
                encoding(kind, 9).as_ref(),
                &Limits::solutions(1)
            ));
        }
    }

    #[test]
    fn z3s_reasons_become_give_up_words() {
        let never = || None;
        let said = |s: &str| Some(s.to_string());
        let passed = Some(Instant::now());
        let later = Some(Instant::now() + Duration::from_secs(3600));
        assert_eq!(
            reason_of(said("max. memory exceeded"), passed, never),
            GiveUp::Memory
        );
        assert_eq!(
            reason_of(said("out of memory"), None, never),
            GiveUp::Memory
        );
        assert_eq!(reason_of(said("timeout"), None, never), GiveUp::Timeout);
        assert_eq!(reason_of(said("canceled"), later, never), GiveUp::Timeout);
        assert_eq!(
            reason_of(said("canceled"), None, never),
            GiveUp::Interrupted
        );
        assert_eq!(reason_of(None, None, || Some(true)), GiveUp::Memory);
        // What Z3 4.8.12 said when its timer stopped a queens count.
        let cut_short = || said("(incomplete (theory arithmetic))");
        assert_eq!(reason_of(cut_short(), passed, never), GiveUp::Timeout);
        assert_eq!(
            reason_of(cut_short(), later, || Some(false)),
            GiveUp::Unknown("(incomplete (theory arithmetic))".into())
        );
        assert_eq!(
            reason_of(None, None, never),
            GiveUp::Unknown("no reason given".into())
        );
    }

    #[test]
    fn a_search_stops_at_its_limit() {
        let mut engine = Z3Engine::new(&Settings::default());
        let empty = Puzzle::classic(Grid::empty(Size::from_side(4).unwrap_or_default()));
        let mut seen = 0;
        let result = engine.solutions(&empty, Limits::solutions(3), &mut |_| {
            seen += 1;
            ControlFlow::Continue(())
        });
        assert_eq!((result, seen), (Ok(()), 3));
    }

    /// A count on `int` states the digits at most once per house and
    /// blocks over named Booleans: 200 grids of the empty 9x9 took some
    /// 200,000 conflicts blocked over the integers alone, a few hundred now.
    #[test]
    fn an_int_count_finds_each_grid_in_few_conflicts() {
        let mut engine = Z3Engine::new(&Settings {
            keep_statistics: true,
            ..Settings::default()
        });
        let empty = Puzzle::classic(Grid::empty(Size::from_side(9).unwrap_or_default()));
        let mut grids = std::collections::HashSet::new();
        let result = engine.solutions(&empty, Limits::solutions(200), &mut |found| {
            assert!(crate::puzzle::check::verify_solution(&empty, found.grid).is_ok());
            grids.insert(found.grid.clone());
            ControlFlow::Continue(())
        });
        assert_eq!((result, grids.len()), (Ok(()), 200));
        let conflicts: u64 = engine
            .statistics()
            .iter()
            .find(|(key, _)| key == "sat conflicts")
            .and_then(|(_, value)| value.parse().ok())
            .unwrap_or(u64::MAX);
        assert!(conflicts < 5_000, "{conflicts} conflicts");
    }

    #[test]
    fn a_cancelled_search_gives_up_and_the_engine_serves_on() {
        use crate::engine::Cancel;
        use std::time::Duration;
        for kind in EncodingKind::ALL {
            let mut engine = Z3Engine::new(&Settings {
                encoding: kind,
                ..Settings::default()
            });
            // Far more solutions than a search lists in the time, and a
            // 25x25 board whose every check takes a while.
            for side in [9, 25] {
                let empty = Puzzle::classic(Grid::empty(Size::from_side(side).unwrap_or_default()));
                let cancel = Cancel::new();
                let limits = Budget::unbounded()
                    .cancelled_by(cancel.clone())
                    .limits(usize::MAX);
                let start = Instant::now();
                let result = std::thread::scope(|scope| {
                    scope.spawn(|| {
                        std::thread::sleep(Duration::from_millis(100));
                        cancel.cancel();
                    });
                    engine.solutions(&empty, limits, &mut |_| ControlFlow::Continue(()))
                });
                assert_eq!(
                    result,
                    Err(EngineError::GaveUp(GiveUp::Cancelled)),
                    "{kind:?} {side}"
                );
                // Listing every solution of an empty board never ends, so
                // any return proves the cancel was heard; the bound is
                // loose because the 25x25 encoding is built before the
                // search that hears it, which a loaded machine slows.
                assert!(start.elapsed() < Duration::from_secs(20), "{kind:?} {side}");
            }
            // The interrupt leaves the context usable.
            let small = Puzzle::classic(Grid::empty(Size::from_side(4).unwrap_or_default()));
            let mut seen = 0;
            let result = engine.solutions(&small, Limits::solutions(2), &mut |_| {
                seen += 1;
                ControlFlow::Continue(())
            });
            assert_eq!((result, seen), (Ok(()), 2), "{kind:?}");
        }
    }

    /// An interrupt used to leave Z3's context marked cancelled, so that a
    /// kept solver's next `push` failed unseen, the next puzzle's clues
    /// stayed behind, and a later puzzle with a solution was answered
    /// "no solution". Every puzzle after a cancelled search is answered as
    /// on a fresh engine.
    #[test]
    fn a_cancelled_search_leaves_nothing_behind() {
        use crate::engine::Cancel;
        use crate::puzzle::parse::parse_line;
        use std::time::Duration;
        let notebook =
            "....94.3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....";
        let top =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
        let classic = |line: &str| {
            Puzzle::classic(parse_line(line, 1, None).unwrap_or_else(|e| panic!("{e}")))
        };
        for kind in EncodingKind::ALL {
            let mut engine = Z3Engine::new(&Settings {
                encoding: kind,
                ..Settings::default()
            });
            let count = |engine: &mut Z3Engine, puzzle: &Puzzle| {
                let mut seen = Vec::new();
                let result = engine.solutions(puzzle, Limits::solutions(2), &mut |found| {
                    seen.push(found.grid.clone());
                    ControlFlow::Continue(())
                });
                assert_eq!(result, Ok(()), "{kind:?}");
                for grid in &seen {
                    let checked = crate::puzzle::check::verify_solution(puzzle, grid);
                    assert!(checked.is_ok(), "{kind:?}");
                }
                seen.len()
            };
            // Twice, so that the engine keeps a solver for these houses.
            for line in [top, notebook] {
                assert_eq!(count(&mut engine, &classic(line)), 1, "{kind:?} before");
            }
            // Where the interrupt lands varies, so a few times over.
            for round in 0..4 {
                let empty = Puzzle::classic(Grid::empty(Size::from_side(9).unwrap_or_default()));
                let cancel = Cancel::new();
                let limits = Budget::unbounded()
                    .cancelled_by(cancel.clone())
                    .limits(usize::MAX);
                let result = std::thread::scope(|scope| {
                    scope.spawn(|| {
                        std::thread::sleep(Duration::from_millis(20 + 30 * round));
                        cancel.cancel();
                    });
                    engine.solutions(&empty, limits, &mut |_| ControlFlow::Continue(()))
                });
                assert_eq!(
                    result,
                    Err(EngineError::GaveUp(GiveUp::Cancelled)),
                    "{kind:?}"
                );
                for line in [top, notebook, top] {
                    let after = count(&mut engine, &classic(line));
                    assert_eq!(after, 1, "{kind:?} after round {round}");
                }
            }
        }
    }
}
