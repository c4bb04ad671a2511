//! The Z3 engine: puts a puzzle to Z3 through an [`Encoding`], and finds
//! further solutions by blocking each one found.

use crate::encoding::{Encoding, EncodingKind};
use crate::engine::{Engine, EngineError, Found, Settings};
use crate::grid::Grid;
use std::ops::ControlFlow;
use z3::ast::Bool;
use z3::{Params, SatResult, Solver};

/// Solves with Z3 in the calling thread's Z3 context.
pub struct Z3Engine {
    kind: EncodingKind,
    settings: Settings,
    /// The encoding of the last size seen: its variables and rules are
    /// built once and shared by every puzzle of that size.
    encoding: Option<Box<dyn Encoding>>,
    statistics: Vec<(String, String)>,
}

impl Z3Engine {
    /// An engine for `settings`; nothing is built until the first puzzle.
    pub fn new(settings: &Settings) -> Z3Engine {
        Z3Engine {
            kind: settings.encoding,
            settings: settings.clone(),
            encoding: None,
            statistics: Vec::new(),
        }
    }

    fn new_solver(&self, encoding: &dyn Encoding) -> Solver {
        let solver = encoding
            .logic()
            .and_then(Solver::new_for_logic)
            .unwrap_or_default();
        let mut params = Params::new();
        // Z3's own Ctrl-C handler is process-wide: solvers in several
        // threads install and restore it in turn, can leave it installed
        // after its solver is gone, and then crash on SIGINT. Interrupts
        // are the program's to handle.
        params.set_bool("ctrl_c", false);
        if let Some(timeout) = self.settings.timeout {
            params.set_u32(
                "timeout",
                u32::try_from(timeout.as_millis()).unwrap_or(u32::MAX),
            );
        }
        solver.set_params(&params);
        solver
    }
}

impl Engine for Z3Engine {
    fn solutions(
        &mut self,
        puzzle: &Grid,
        visit: &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
    ) -> Result<(), EngineError> {
        let size = puzzle.size();
        let encoding = match self.encoding.take() {
            Some(e) if e.size() == size => e,
            _ => self.kind.build(size),
        };
        let solver = self.new_solver(encoding.as_ref());
        for rule in encoding.rules() {
            solver.assert(rule);
        }
        for (index, digit) in puzzle.clues() {
            solver.assert(encoding.clue(index, digit));
        }
        let result = loop {
            match solver.check() {
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
            let differs: Vec<Bool> = (0..size.cells())
                .filter(|&i| puzzle.get(i) == 0)
                .map(|i| encoding.differs(i, grid.get(i)))
                .collect();
            solver.assert(Bool::or(&differs));
        };
        self.statistics = solver
            .get_statistics()
            .entries()
            .map(|e| (e.key, format!("{:?}", e.value)))
            .collect();
        self.encoding = Some(encoding);
        result
    }

    fn statistics(&self) -> Vec<(String, String)> {
        self.statistics.clone()
    }
}
