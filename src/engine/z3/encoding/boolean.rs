//! The `bool` encoding, as in the SAT lesson: a Boolean `x_R_C_D` per cell
//! and digit, and for every cell, and every house and digit, an "exactly
//! one" made of one at-least-one clause and pairwise at-most-one clauses. The same clauses are what
//! `z3doku emit --format dimacs` writes.
//!
//! Variant constraints are clauses too ([`super::constraint_clauses`]),
//! except killer cages' sums: those are pseudo-Boolean equations, which
//! CNF cannot hold without auxiliary variables, so DIMACS export refuses
//! puzzles that have them.

use super::onehot::{
    Clause, OneHotEncoding, clause_formula, constraint_clauses, constraint_formulas,
    exactly_one_sets,
};
use crate::puzzle::rules::Rules;

/// The lesson's clauses for `rules`, over the variables numbered by
/// [`super::variable`], then the clauses of its variant constraints
/// (not the cages' sums: see [`super::cage_sums`]).
pub fn clauses(rules: &Rules) -> Vec<Clause> {
    let mut clauses = house_clauses(rules);
    clauses.extend(constraint_clauses(rules));
    clauses
}

/// The lesson's clauses: "exactly one" for each cell and each house's
/// places of each digit.
fn house_clauses(rules: &Rules) -> Vec<Clause> {
    let mut clauses = Vec::new();
    for set in exactly_one_sets(rules) {
        // Variable numbers stop at 25³, far inside i32.
        let lits: Vec<i32> = set.iter().map(|&v| v as i32).collect();
        for (k, &a) in lits.iter().enumerate() {
            for &b in &lits[k + 1..] {
                clauses.push(vec![-a, -b]);
            }
        }
        clauses.push(lits);
    }
    clauses
}

/// The SAT lesson's encoding of `rules`.
pub fn bool_encoding(rules: &Rules) -> OneHotEncoding {
    OneHotEncoding::new(rules.size(), |vars| {
        let mut formulas: Vec<_> = house_clauses(rules)
            .iter()
            .map(|clause| clause_formula(vars, clause))
            .collect();
        formulas.extend(constraint_formulas(rules, vars));
        formulas
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clause_count_is_the_lessons() {
        // 324 sets of 9: one at-least-one and 36 pairs each.
        let cnf = clauses(&Rules::classic(crate::puzzle::grid::Size::NINE));
        assert_eq!(cnf.len(), 324 * 37);
        assert_eq!(cnf.iter().filter(|c| c.len() == 9).count(), 324);
        assert!(cnf.iter().all(|c| c.len() == 2 || c.len() == 9));
    }
}
