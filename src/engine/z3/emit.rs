//! Exporting a puzzle's formula for other solvers: SMT-LIB 2 in any
//! encoding, and DIMACS CNF in the `bool` encoding.

use super::encoding::{
    self, Clause, Sums, house_clauses, name, primitive_clauses, primitive_formula, variable,
};
use crate::engine::contract::EncodingKind;
use crate::puzzle::Puzzle;
use std::collections::HashMap;
use std::fmt::Write;
use z3::Solver;
use z3::ast::{Ast, Bool, Dynamic};
use z3::{Goal, Tactic};

/// The puzzle's formula in `encoding` as an SMT-LIB 2 script: the rules and
/// clues asserted, then `(check-sat)` and `(get-model)`.
pub fn smt2(puzzle: &Puzzle, encoding: EncodingKind) -> String {
    let built = encoding::build(encoding, puzzle.rules());
    let solver = Solver::new();
    for rule in built
        .rules()
        .iter()
        .chain(built.constraints().iter().flatten())
    {
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
/// A sum (a killer cage's, an arrow's) or a count (buildings seen) is a
/// pseudo-Boolean formula that plain clauses over the one-hot variables do
/// not state. Z3's own tactics turn those constraints into clauses: stated
/// as integer sums of `If`s, `card2bv` makes them bit-vector arithmetic,
/// which is bit-blasted and put in conjunctive normal form, with auxiliary variables numbered
/// after the `x_R_C_D`. Only a rule Z3 cannot bring to clauses is an
/// error, which names it.
pub fn dimacs(puzzle: &Puzzle) -> Result<String, String> {
    let size = puzzle.size();
    let rules = puzzle.rules();
    let mut clauses = house_clauses(rules);
    let mut numbers: HashMap<String, usize> = HashMap::new();
    let variables = size.all_cells() * size.values();
    for number in 1..=variables {
        numbers.insert(name(size, number), number);
    }
    let mut auxiliary = 0;
    let vars: Vec<Bool> = (1..=variables)
        .map(|number| Bool::new_const(name(size, number)))
        .collect();
    for (constraint, primitives) in rules.constraints().iter().zip(rules.lowered()) {
        let direct: Option<Vec<Vec<Clause>>> = primitives
            .iter()
            .map(|p| primitive_clauses(rules, p))
            .collect();
        if let Some(direct) = direct {
            clauses.extend(direct.into_iter().flatten());
            continue;
        }
        let goal = Goal::new(false, false, false);
        for primitive in primitives {
            goal.assert(&primitive_formula(
                rules,
                primitive,
                &vars,
                Sums::Arithmetic,
            ));
        }
        let tactic = [
            "simplify",
            "card2bv",
            "simplify",
            "bit-blast",
            "tseitin-cnf",
        ]
        .iter()
        .fold(Tactic::create_skip(), |t, name| {
            t.and_then(&Tactic::new(name))
        });
        let cannot =
            |why: &str| format!("DIMACS CNF cannot state {constraint} ({why}); use --format smt2");
        let result = tactic.apply(&goal, None).map_err(|e| cannot(&e))?;
        for subgoal in result.list_subgoals() {
            for formula in subgoal.get_formulas() {
                let mut literal = |lit: &Dynamic, negated: bool| -> Option<i32> {
                    let number = *numbers.entry(lit.decl().name()).or_insert_with(|| {
                        auxiliary += 1;
                        variables + auxiliary
                    });
                    let number = i32::try_from(number).ok()?;
                    Some(if negated { -number } else { number })
                };
                let clause = clause_of(&Dynamic::from_ast(&formula), &mut literal)
                    .ok_or_else(|| cannot(&format!("Z3 gave {formula}, not a clause")))?;
                if let Some(clause) = clause {
                    clauses.push(clause);
                }
            }
        }
    }
    let total = variables + auxiliary;
    let mut text = format!(
        "c z3doku: {size} puzzle {puzzle}, `bool` encoding\n\
         c variable (R-1)*{side}*{side} + (C-1)*{side} + D is x_R_C_D: row R, column C holds digit D\n",
        side = size.side()
    );
    for number in 1..=variables {
        let _ = writeln!(text, "c {number} {}", name(size, number));
    }
    if auxiliary > 0 {
        let _ = writeln!(
            text,
            "c {} to {total}: auxiliary variables of Z3's clauses for sums and counts",
            variables + 1
        );
    }
    let _ = writeln!(
        text,
        "p cnf {total} {}",
        clauses.len() + puzzle.givens().clue_count()
    );
    for clause in &clauses {
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

/// A formula of Z3's CNF as a clause: `Some(None)` for `true` (no clause
/// needed), `None` for a shape that is not a clause. Operators are told
/// apart by name: the numbering of Z3's declaration kinds differs between
/// its versions.
fn clause_of(
    formula: &Dynamic,
    literal: &mut dyn FnMut(&Dynamic, bool) -> Option<i32>,
) -> Option<Option<Clause>> {
    let name = |ast: &Dynamic| ast.safe_decl().ok().map(|d| d.name());
    let parts = match name(formula)?.as_str() {
        "or" => formula.children(),
        _ => vec![formula.clone()],
    };
    let mut clause = Vec::new();
    for part in parts {
        match name(&part)?.as_str() {
            "true" => return Some(None),
            "false" => {}
            "not" => {
                let inner = part.nth_child(0).filter(Ast::is_const)?;
                clause.push(literal(&inner, true)?);
            }
            _ if part.is_const() => clause.push(literal(&part, false)?),
            _ => return None,
        }
    }
    Some(Some(clause))
}
