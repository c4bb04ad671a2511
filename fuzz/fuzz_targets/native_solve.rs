//! Any puzzle the parser accepts, through the native engine: solving,
//! uniqueness, counting and explaining must never panic, and must never
//! produce an internal error (a solution the checker refuses, or a
//! "conflicting" set of clues that has a solution).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::time::Duration;
use z3doku::engine::{Budget, EngineKind, Settings, new_engine};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::parse::parse_puzzle;
use z3doku::solve::{count_with, explain, solve_with};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(givens) = parse_puzzle(text, None) else {
        return;
    };
    let puzzle = Puzzle::classic(givens);
    let settings = Settings {
        engine: EngineKind::Native,
        ..Settings::default()
    };
    let mut engine = new_engine(&settings);
    let budget = |ms| Budget::within(Some(Duration::from_millis(ms)));
    let mut outcome = match solve_with(engine.as_mut(), &puzzle, true, &budget(200)) {
        Ok(outcome) => outcome,
        Err(e) => panic!("{e} on {puzzle}"),
    };
    if let Err(e) = explain(engine.as_mut(), &mut outcome, &budget(1000)) {
        panic!("{e} on {puzzle}");
    }
    if let Err(e) = count_with(engine.as_mut(), &puzzle, 5, &budget(200), &mut |_| {}) {
        panic!("{e} on {puzzle}");
    }
});
