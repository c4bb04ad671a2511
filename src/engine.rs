//! Engines: what searches for solutions. Z3 (with a choice of encodings) is
//! the default; every engine answers through the [`Engine`] trait, so
//! solving, uniqueness and counting work the same on each.

use crate::encoding::EncodingKind;
use crate::grid::Grid;
use std::ops::ControlFlow;
use std::time::Duration;
use thiserror::Error;

/// Which engine to solve with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum EngineKind {
    /// The Z3 SMT solver, with the chosen encoding.
    #[default]
    Z3,
    /// z3doku's own bit-vector search: fast, and an independent referee for
    /// Z3's answers.
    Native,
}

impl EngineKind {
    /// The engine's name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Z3 => "z3",
            EngineKind::Native => "native",
        }
    }

    /// The other engine, which confirms this one's verdicts independently
    /// (see [`crate::verdict::confirm`]).
    pub fn referee(self) -> EngineKind {
        match self {
            EngineKind::Z3 => EngineKind::Native,
            EngineKind::Native => EngineKind::Z3,
        }
    }
}

/// How an engine is to work: what every engine honours, and what only Z3
/// reads.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Which engine.
    pub engine: EngineKind,
    /// How Z3 sees the puzzle (Z3 only).
    pub encoding: EncodingKind,
    /// Give up on a puzzle after this long.
    pub timeout: Option<Duration>,
    /// Keep the text of each model, for `--model` (Z3 only).
    pub keep_models: bool,
    /// Gather Z3's statistics after each search, for `--stats`: it costs a
    /// few per cent of a Boolean encoding's time, so only when asked.
    pub keep_statistics: bool,
}

/// A solution as an engine found it.
#[derive(Clone, Copy, Debug)]
pub struct Found<'a> {
    /// The solved board.
    pub grid: &'a Grid,
    /// The solver's model, as text, when [`Settings::keep_models`] asks.
    pub model: Option<&'a str>,
}

/// Why an engine stopped without an answer.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EngineError {
    /// The time ran out, or the solver answered `unknown`: the reason.
    #[error("gave up: {0}")]
    GaveUp(String),
    /// The engine broke its own contract (a model without a value, say).
    /// This is a bug in z3doku.
    #[error("internal error: {0}")]
    Internal(String),
}

/// A solver of puzzles.
pub trait Engine {
    /// Visits the solutions of `puzzle` one by one, each different from
    /// those before, until `visit` breaks or there are no more. Solutions
    /// come unchecked: [`crate::verdict`] checks them.
    fn solutions(
        &mut self,
        puzzle: &Grid,
        visit: &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
    ) -> Result<(), EngineError>;

    /// Clues (row-major indexes) that together already admit no solution,
    /// when the engine can name such a set cheaply (Z3's unsat core), for
    /// [`crate::verdict::explain`] to shrink; `None` to start from all of
    /// them.
    fn conflicting_clues(&mut self, _puzzle: &Grid) -> Result<Option<Vec<usize>>, EngineError> {
        Ok(None)
    }

    /// The engine's statistics of its last search, as (name, value) rows.
    fn statistics(&self) -> Vec<(String, String)> {
        Vec::new()
    }
}

/// Caps the memory of every Z3 context made from now on at `mib` MiB (Z3's
/// process-wide `memory_max_size`); past it, Z3 gives up with the reason
/// `out of memory`. Call it before the first engine: a context that exists
/// already keeps its limit. Below about 20 MiB Z3 cannot make a context at
/// all, so the command line asks for at least 64.
pub fn limit_z3_memory(mib: u32) {
    z3::set_global_param("memory_max_size", &mib.to_string());
}

/// The engine that `settings` asks for.
pub fn new_engine(settings: &Settings) -> Box<dyn Engine> {
    match settings.engine {
        EngineKind::Z3 => Box::new(crate::z3_engine::Z3Engine::new(settings)),
        EngineKind::Native => Box::new(crate::native::NativeEngine::new(settings)),
    }
}
