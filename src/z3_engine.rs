//! The Z3 engine: puts a puzzle to Z3 through an [`Encoding`], and finds
//! further solutions by blocking each one found.
//!
//! Encodings that [keep a solver](Encoding::keeps_solver) get one solver per
//! board size, with the rules asserted once and each puzzle's clues passed
//! as assumptions; blocking clauses go inside a `push`/`pop` scope so that
//! they never outlive their puzzle. The others get a new solver per puzzle
//! with the clues asserted.

use crate::encoding::{Encoding, EncodingKind};
use crate::engine::{Engine, EngineError, Found, Settings};
use crate::grid::{Grid, Size};
use std::ops::ControlFlow;
use z3::ast::Bool;
use z3::{Params, SatResult, Solver, StatisticsValue, Tactic};

/// Conflicts before Z3's SAT solver first collects its learned clauses
/// (its `gc.initial` parameter; Z3's default is 20,000).
const GC_INITIAL_CONFLICTS: u32 = 100;

/// Solves with Z3 in the calling thread's Z3 context.
pub struct Z3Engine {
    kind: EncodingKind,
    settings: Settings,
    /// The encoding of the last size seen: its variables and rules are
    /// built once and shared by every puzzle of that size.
    encoding: Option<Box<dyn Encoding>>,
    /// The solver kept for that encoding, when it keeps one.
    kept: Option<Solver>,
    statistics: Vec<(String, String)>,
}

impl Z3Engine {
    /// An engine for `settings`; nothing is built until the first puzzle.
    pub fn new(settings: &Settings) -> Z3Engine {
        Z3Engine {
            kind: settings.encoding,
            settings: settings.clone(),
            encoding: None,
            kept: None,
            statistics: Vec::new(),
        }
    }

    /// A solver for `encoding` with its rules asserted: from its tactics
    /// when `first` (the search for a first solution) and it has some, else
    /// for its logic.
    fn new_solver(&self, encoding: &dyn Encoding, first: bool) -> Solver {
        // A tactic's solver ignores the `timeout` parameter, and bounding
        // it with `try_for` as well can deadlock Z3 4.8's timer threads
        // (seen with several workers and millisecond timeouts): with a
        // timeout, the logic's solver, which honours the parameter, does
        // the whole search.
        let tactics = encoding
            .tactics()
            .filter(|_| first && self.uses_tactics(encoding));
        let solver = match tactics {
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
        self.configure(&solver, encoding);
        solver
    }

    /// Gives `solver` z3doku's parameters and asserts `encoding`'s rules.
    fn configure(&self, solver: &Solver, encoding: &dyn Encoding) {
        let mut params = Params::new();
        // Compacting a model costs more than a whole Sudoku search on the
        // SAT solver (see build.md, "Encodings").
        params.set_bool("model.compact", false);
        // A kept solver sees a few dozen conflicts per puzzle, so with
        // Z3's default the clauses learned on earlier puzzles piled up and
        // slowed every later check (2.7x over top1465, 4x over
        // forum_hardest); collecting early keeps the database small (see
        // build.md, "Learned clauses across puzzles").
        params.set_u32("gc.initial", GC_INITIAL_CONFLICTS);
        // Z3's own Ctrl-C handler is process-wide: solvers in several
        // threads install and restore it in turn, can leave it installed
        // after its solver is gone, and then crash on SIGINT. Interrupts
        // are the program's to handle.
        params.set_bool("ctrl_c", false);
        if let Some(limit) = self.settings.timeout {
            params.set_u32(
                "timeout",
                u32::try_from(limit.as_millis()).unwrap_or(u32::MAX),
            );
        }
        solver.set_params(&params);
        for rule in encoding.rules().iter().chain(encoding.implied()) {
            solver.assert(rule);
        }
    }

    /// Whether the first solution comes from the encoding's tactics (see
    /// [`Z3Engine::new_solver`] for why not under a timeout).
    fn uses_tactics(&self, encoding: &dyn Encoding) -> bool {
        encoding.tactics().is_some() && self.settings.timeout.is_none()
    }

    /// Makes the encoding (and kept solver) fit boards of `size`.
    fn prepare(&mut self, size: Size) {
        if self.encoding.as_ref().is_some_and(|e| e.size() == size) {
            return;
        }
        let encoding = self.kind.build(size);
        self.kept = encoding
            .keeps_solver()
            .then(|| self.new_solver(encoding.as_ref(), false));
        self.encoding = Some(encoding);
    }
}

impl Engine for Z3Engine {
    fn solutions(
        &mut self,
        puzzle: &Grid,
        visit: &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
    ) -> Result<(), EngineError> {
        self.prepare(puzzle.size());
        let Some(encoding) = self.encoding.as_deref() else {
            return Err(EngineError::Internal("no encoding was built".into()));
        };
        let clues: Vec<Bool> = puzzle
            .clues()
            .map(|(index, digit)| encoding.clue(index, digit))
            .collect();
        let fresh_solver = |first: bool| {
            let solver = self.new_solver(encoding, first);
            for clue in &clues {
                solver.assert(clue);
            }
            solver
        };
        let mut fresh = self.kept.is_none().then(|| fresh_solver(true));
        // A kept solver takes the clues as assumptions; a fresh one has them
        // asserted.
        let assumptions: &[Bool] = if self.kept.is_some() { &clues } else { &[] };
        let mut scoped = false;
        let mut blocked_any = false;
        let result = loop {
            let Some(solver) = fresh.as_ref().or(self.kept.as_ref()) else {
                break Err(EngineError::Internal("no solver".into()));
            };
            match solver.check_assumptions(assumptions) {
                SatResult::Unsat => break Ok(()),
                SatResult::Unknown => {
                    let reason = solver
                        .get_reason_unknown()
                        .unwrap_or_else(|| "unknown".into());
                    break Err(EngineError::GaveUp(reason));
                }
                SatResult::Sat => {}
            }
            let Some(model) = solver.get_model() else {
                break Err(EngineError::Internal(
                    "Z3 said sat but gave no model".into(),
                ));
            };
            let Some(grid) = encoding.decode(&model) else {
                break Err(EngineError::Internal(
                    "Z3's model leaves a cell without a digit".into(),
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
            if visit(found).is_break() {
                break Ok(());
            }
            // Block this solution: some cell that was blank must differ.
            let differs: Vec<Bool> = (0..puzzle.size().cells())
                .filter(|&i| puzzle.get(i) == 0)
                .map(|i| encoding.differs(i, grid.get(i)))
                .collect();
            let block = Bool::or(&differs);
            if fresh.is_some() && self.uses_tactics(encoding) && !blocked_any {
                // Go on with the logic's incremental solver.
                let next = fresh_solver(false);
                next.assert(&block);
                fresh = Some(next);
            } else {
                if self.kept.is_some() && !scoped {
                    solver.push();
                    scoped = true;
                }
                solver.assert(&block);
            }
            blocked_any = true;
        };
        let Some(solver) = fresh.as_ref().or(self.kept.as_ref()) else {
            return result;
        };
        if !self.settings.keep_statistics {
            if scoped {
                solver.pop(1);
            }
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
        if scoped {
            solver.pop(1);
        }
        self.statistics = statistics;
        result
    }

    fn conflicting_clues(&mut self, puzzle: &Grid) -> Result<Option<Vec<usize>>, EngineError> {
        self.prepare(puzzle.size());
        let Some(encoding) = self.encoding.as_deref() else {
            return Ok(None);
        };
        // Z3's default solver names an unsat core over assumption literals;
        // the finite-domain and tactic solvers chosen for speed do not.
        let solver = Solver::new();
        self.configure(&solver, encoding);
        // Each clue is tracked by a literal that switches it on.
        let tracked: Vec<(usize, Bool)> = puzzle
            .clues()
            .map(|(index, digit)| {
                let switch = Bool::new_const(format!("clue_{index}"));
                solver.assert(switch.implies(encoding.clue(index, digit)));
                (index, switch)
            })
            .collect();
        let switches: Vec<Bool> = tracked.iter().map(|(_, s)| s.clone()).collect();
        if solver.check_assumptions(&switches) != SatResult::Unsat {
            return Ok(None);
        }
        let core = solver.get_unsat_core();
        Ok(Some(
            tracked
                .into_iter()
                .filter(|(_, switch)| core.contains(switch))
                .map(|(index, _)| index)
                .collect(),
        ))
    }

    fn statistics(&self) -> Vec<(String, String)> {
        self.statistics.clone()
    }
}
