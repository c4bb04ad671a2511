//! The `pb` encoding, in the pysat lesson's cardinality style: the `bool`
//! encoding's Booleans `x_R_C_D`, with each "exactly one" stated as a single
//! pseudo-Boolean equation `x₁ + … + xₙ = 1` that Z3 reasons about natively
//! instead of as pairwise clauses. Variant constraints are stated as in
//! the `bool` encoding: clauses, and sums as weighted equations.

use super::onehot::{OneHotEncoding, at_most_one_sets, exactly_one_sets};
use crate::puzzle::rules::Rules;
use z3::ast::Bool;

/// The cardinality encoding of `rules`.
pub fn pb_encoding(rules: &Rules) -> OneHotEncoding {
    OneHotEncoding::new(rules, |vars| {
        let terms = |set: &[usize]| -> Vec<(&Bool, i32)> {
            set.iter().map(|&v| (&vars[v - 1], 1)).collect()
        };
        let exactly = exactly_one_sets(rules).map(|set| Bool::pb_eq(&terms(&set), 1));
        // A house of fewer cells than digits: each digit at most once.
        let at_most = at_most_one_sets(rules).map(|set| Bool::pb_le(&terms(&set), 1));
        exactly.chain(at_most).collect()
    })
}
