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
use z3::{Params, SatResult, Solver, StatisticsValue};

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

    /// A solver for `encoding` with its rules asserted.
    fn new_solver(&self, encoding: &dyn Encoding) -> Solver {
        let solver = encoding
            .logic()
            .and_then(Solver::new_for_logic)
            .unwrap_or_default();
        if let Some(timeout) = self.settings.timeout {
            let mut params = Params::new();
            params.set_u32(
                "timeout",
                u32::try_from(timeout.as_millis()).unwrap_or(u32::MAX),
            );
            solver.set_params(&params);
        }
        for rule in encoding.rules() {
            solver.assert(rule);
        }
        solver
    }

    /// Makes the encoding (and kept solver) fit boards of `size`.
    fn prepare(&mut self, size: Size) {
        if self.encoding.as_ref().is_some_and(|e| e.size() == size) {
            return;
        }
        let encoding = self.kind.build(size);
        self.kept = encoding
            .keeps_solver()
            .then(|| self.new_solver(encoding.as_ref()));
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
        let clues = puzzle
            .clues()
            .map(|(index, digit)| encoding.clue(index, digit));
        let fresh;
        let (solver, assumptions): (&Solver, Vec<Bool>) = match &self.kept {
            Some(solver) => (solver, clues.collect()),
            None => {
                fresh = self.new_solver(encoding);
                for clue in clues {
                    fresh.assert(clue);
                }
                (&fresh, Vec::new())
            }
        };
        let mut scoped = false;
        let result = loop {
            match solver.check_assumptions(&assumptions) {
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
            if self.kept.is_some() && !scoped {
                solver.push();
                scoped = true;
            }
            solver.assert(Bool::or(&differs));
        };
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

    fn statistics(&self) -> Vec<(String, String)> {
        self.statistics.clone()
    }
}
