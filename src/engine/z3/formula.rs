//! A Z3 solver for a formula that is not a puzzle (the N-queens lesson's),
//! under the engine's rules for limits: a deadline bounds each check, and
//! an `unknown` becomes the same [`GiveUp`](crate::engine::GiveUp) the engine would report.
//!
//! This is the Z3 engine's public face for such callers, so that they
//! state their formula through the `z3` crate and never reach into the
//! engine's own helpers.

use super::guard::guarded;
use super::{common_params, give_up, set_deadline};
use crate::engine::contract::EngineError;
use std::cell::Cell;
use std::time::Instant;
use z3::{Model, SatResult, Solver};

/// A Z3 solver whose checks answer as the engine's do.
pub struct FormulaSolver {
    solver: Solver,
    /// Whether the solver has a timeout in force.
    bounded: Cell<bool>,
}

impl Default for FormulaSolver {
    fn default() -> Self {
        FormulaSolver::new()
    }
}

impl FormulaSolver {
    /// A solver with nothing asserted.
    pub fn new() -> FormulaSolver {
        let solver = Solver::new();
        // The engine's parameters: among them, no Ctrl-C handler of Z3's,
        // which is process-wide and can crash on SIGINT after its solver
        // is gone.
        solver.set_params(&common_params());
        FormulaSolver {
            solver,
            bounded: Cell::new(false),
        }
    }

    /// Asserts `formula`.
    pub fn assert(&self, formula: &z3::ast::Bool) {
        self.solver.assert(formula);
    }

    /// Checks the formula asserted so far within `deadline`: `Some(model)`
    /// when satisfiable, `None` when not, and [`EngineError::GaveUp`] (with
    /// Z3's reason as a [`GiveUp`](crate::engine::GiveUp)) when Z3 could not tell. A panic inside
    /// the `z3` crate (as when Z3 runs past its memory limit and hands back
    /// a null term) becomes an error, as in the engine.
    pub fn check(&self, deadline: Option<Instant>) -> Result<Option<Model>, EngineError> {
        guarded(|| {
            set_deadline(&self.solver, deadline, &self.bounded)?;
            match self.solver.check() {
                SatResult::Unsat => Ok(None),
                SatResult::Unknown => Err(EngineError::GaveUp(give_up(&self.solver, deadline))),
                SatResult::Sat => {
                    self.solver.get_model().map(Some).ok_or_else(|| {
                        EngineError::Internal("Z3 said sat but gave no model".into())
                    })
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::GiveUp;
    use std::time::Duration;
    use z3::ast::Bool;

    #[test]
    fn sat_unsat_and_a_passed_deadline() {
        let solver = FormulaSolver::new();
        let a = Bool::new_const("a");
        solver.assert(&a);
        assert!(matches!(solver.check(None), Ok(Some(_))));
        let past = Instant::now().checked_sub(Duration::from_millis(1));
        assert_eq!(
            solver.check(past).err(),
            Some(EngineError::GaveUp(GiveUp::Timeout))
        );
        solver.assert(&a.not());
        assert!(matches!(solver.check(None), Ok(None)));
    }
}
