//! The `bool` encoding, as in the SAT lesson: a Boolean `x_R_C_D` per cell
//! and digit, and for every cell, and every house and digit, an "exactly
//! one" made of one at-least-one clause and pairwise at-most-one clauses. The same clauses are what
//! `z3doku emit --format dimacs` writes.

use super::onehot::{OneHotEncoding, exactly_one_sets};
use crate::puzzle::rules::Rules;
use z3::ast::Bool;

/// A clause: DIMACS literals, `n` for variable `n` true and `-n` for false.
pub type Clause = Vec<i32>;

/// The lesson's clauses for `rules`, over the variables numbered by
/// [`super::variable`].
pub fn clauses(rules: &Rules) -> Vec<Clause> {
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
        clauses(rules)
            .iter()
            .map(|clause| {
                let lits: Vec<Bool> = clause
                    .iter()
                    .map(|&lit| {
                        let v = &vars[lit.unsigned_abs() as usize - 1];
                        if lit > 0 { v.clone() } else { v.not() }
                    })
                    .collect();
                Bool::or(&lits)
            })
            .collect()
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
