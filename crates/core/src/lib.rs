//! z3doku's foundation, apart from Z3: what a [`puzzle::Puzzle`] is, how
//! puzzles are read and written, the independent [`puzzle::check`]er that
//! every solution passes, the [engine contract](engine::contract) and the
//! [native engine](engine::native).
//!
//! This crate does not depend on Z3. That is the point of it: the checker
//! and the native engine referee Z3's answers, so they must not share its
//! code, and the compiler keeps it so. The `z3doku` crate adds the Z3
//! engine, the solve pipeline, the logic, generation, batch and listen on
//! top, and re-exports these modules under the same paths.

pub mod engine;
pub mod puzzle;
