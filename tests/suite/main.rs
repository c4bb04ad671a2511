//! z3doku's integration tests, one module per subject, in one test binary.
//!
//! One binary rather than one per file: each test binary links the whole
//! library and its dependencies in release, and `cargo test` runs binaries
//! one after another, so a file whose few tests are long left a core idle.
//! As one binary, the tests are built and linked once and shared over the
//! cores (see build.md, "Tests"). `cargo test --release --test suite
//! rule_steps` runs one module's tests.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // a failed expectation panics, as a test should

mod common;

mod batch;
mod boundaries;
mod cli;
mod data_sets;
mod encodings;
mod estimate;
mod extra_cells;
mod formula;
mod full_rank;
mod full_rank_ties;
mod generate;
mod limits;
mod listen;
mod logic;
mod minimize_rules;
mod more_values;
mod native;
mod native_variants;
mod pictures;
mod promises;
mod properties;
mod queens;
mod raw_grids;
mod readme;
mod rectangles;
mod robustness;
mod round_trip;
mod rule_kinds;
mod rule_steps;
mod se_ratings;
mod setter;
mod sigh;
mod sigh_kinds;
mod sigh_replicate;
mod sizes;
mod value_ranges;
mod variant_properties;
mod variants;
mod verdicts;
mod z3_limits;
