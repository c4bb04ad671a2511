//! Engines: what searches for solutions. Z3 (with a choice of encodings) is
//! the default; the native search is the fast one and Z3's referee. Both
//! answer through the [`Engine`] trait, so solving, uniqueness and counting
//! work the same on each.
//!
//! The engines sit side by side and know only [`contract`] (what an engine
//! promises) and the puzzle; this module picks one. The contract and the
//! native engine live in `z3doku-core`, which has no Z3 in it, so the
//! referee cannot lean on the engine it referees; they are re-exported here
//! under their usual paths.

pub use z3doku_core::engine::{contract, native};
pub mod race;
pub mod z3;

pub use contract::{
    Budget, Cancel, EncodingKind, Engine, EngineError, EngineKind, Found, GiveUp, Limits, Settings,
};

/// The engine that `settings` asks for.
pub fn new_engine(settings: &Settings) -> Box<dyn Engine> {
    match settings.engine {
        EngineKind::Z3 => Box::new(z3::Z3Engine::new(settings)),
        EngineKind::Native => Box::new(native::NativeEngine::new(settings)),
        EngineKind::Race => Box::new(race::RaceEngine::new(settings)),
    }
}
