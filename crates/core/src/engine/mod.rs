//! What every engine promises ([`contract`]), and the engine that needs no
//! Z3 ([`native`]). The Z3 engine lives in the `z3doku` crate, above this
//! one, and answers through the same contract.

pub mod contract;
pub mod native;
