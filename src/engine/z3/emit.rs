//! Exporting a puzzle's formula for other solvers: SMT-LIB 2 in any
//! encoding, and DIMACS CNF in the `bool` encoding.

use super::encoding::{self, clauses, name, variable};
use crate::engine::contract::EncodingKind;
use crate::puzzle::Puzzle;
use crate::puzzle::rules::Constraint;
use std::fmt::Write;
use z3::Solver;

/// The puzzle's formula in `encoding` as an SMT-LIB 2 script: the rules and
/// clues asserted, then `(check-sat)` and `(get-model)`.
pub fn smt2(puzzle: &Puzzle, encoding: EncodingKind) -> String {
    let built = encoding::build(encoding, puzzle.rules());
    let solver = Solver::new();
    for rule in built.rules() {
        solver.assert(rule);
    }
    for (index, digit) in puzzle.givens().clues() {
        solver.assert(built.clue(index, digit));
    }
    let mut text = format!(
        "; z3doku: {} puzzle {puzzle}, `{}` encoding\n",
        puzzle.size(),
        encoding.name()
    );
    if let Some(logic) = built.logic() {
        let _ = writeln!(text, "(set-logic {logic})");
    }
    text.push_str(&solver.to_smt2());
    text.push_str("(get-model)\n");
    text
}

/// The puzzle's `bool`-encoding clauses and one unit clause per clue, as
/// DIMACS CNF. Comment lines map each variable number to its `x_R_C_D`.
///
/// A killer cage's sum is a pseudo-Boolean equation that plain clauses
/// over these variables do not state, so a puzzle with one is refused
/// (the error names the cage) rather than written without it.
pub fn dimacs(puzzle: &Puzzle) -> Result<String, String> {
    if let Some(cage) = puzzle
        .rules()
        .constraints()
        .iter()
        .find(|c| matches!(c, Constraint::Cage { sum: Some(_), .. }))
    {
        return Err(format!(
            "DIMACS CNF cannot state the sum of {cage}; use --format smt2"
        ));
    }
    let size = puzzle.size();
    let rules = clauses(puzzle.rules());
    let variables = size.cells() * size.side();
    let mut text = format!(
        "c z3doku: {size} puzzle {puzzle}, `bool` encoding\n\
         c variable (R-1)*{side}*{side} + (C-1)*{side} + D is x_R_C_D: row R, column C holds digit D\n",
        side = size.side()
    );
    for number in 1..=variables {
        let _ = writeln!(text, "c {number} {}", name(size, number));
    }
    let _ = writeln!(
        text,
        "p cnf {variables} {}",
        rules.len() + puzzle.givens().clue_count()
    );
    for clause in &rules {
        for lit in clause {
            let _ = write!(text, "{lit} ");
        }
        text.push_str("0\n");
    }
    for (index, digit) in puzzle.givens().clues() {
        let _ = writeln!(text, "{} 0", variable(size, index, digit));
    }
    Ok(text)
}
