//! The `bool` encoding, as in the SAT lesson: a Boolean `x_R_C_D` per cell
//! and digit, and for every cell, and every house and digit, an "exactly
//! one" made of one at-least-one clause and pairwise at-most-one clauses. The same clauses are what
//! `z3doku emit --format dimacs` writes.
//!
//! Variant constraints are clauses too where clauses say them
//! ([`super::primitive_clauses`]), a killer cage's sum among them (by its
//! sets of digits, with auxiliary literals); other sums and counts are pseudo-Boolean
//! equations, which plain clauses over these variables cannot hold, so
//! DIMACS export has Z3 bit-blast those (see [`crate::engine::z3::emit`]).

use super::onehot::{Clause, OneHotEncoding, at_most_one_sets, clause_formula, exactly_one_sets};
use crate::puzzle::rules::Rules;

/// The lesson's clauses: "exactly one" for each cell and each house's
/// places of each digit, over the variables numbered by
/// [`super::variable`].
pub fn house_clauses(rules: &Rules) -> Vec<Clause> {
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
    // A house of fewer cells than digits: each digit at most once.
    for set in at_most_one_sets(rules) {
        for (k, &a) in set.iter().enumerate() {
            for &b in &set[k + 1..] {
                clauses.push(vec![-(a as i32), -(b as i32)]);
            }
        }
    }
    clauses
}

/// The SAT lesson's encoding of `rules`.
pub fn bool_encoding(rules: &Rules) -> OneHotEncoding {
    OneHotEncoding::new(rules, |vars| {
        let negated: Vec<_> = vars.iter().map(|v| v.not()).collect();
        house_clauses(rules)
            .iter()
            .map(|clause| clause_formula(vars, Some(&negated), clause))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clause_count_is_the_lessons() {
        // 324 sets of 9: one at-least-one and 36 pairs each.
        let cnf = house_clauses(&Rules::classic(crate::puzzle::grid::Size::NINE));
        assert_eq!(cnf.len(), 324 * 37);
        assert_eq!(cnf.iter().filter(|c| c.len() == 9).count(), 324);
        assert!(cnf.iter().all(|c| c.len() == 2 || c.len() == 9));
    }
}
