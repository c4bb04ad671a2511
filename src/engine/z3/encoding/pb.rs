//! The `pb` encoding, in the pysat lesson's cardinality style: the `bool`
//! encoding's Booleans `x_R_C_D`, with each "exactly one" stated as a single
//! pseudo-Boolean equation `x₁ + … + xₙ = 1` that Z3 reasons about natively
//! instead of as pairwise clauses. Variant constraints are stated as in
//! the `bool` encoding: clauses, and sums as weighted equations.

use super::onehot::{OneHotEncoding, exactly_one_sets};
use crate::puzzle::rules::Rules;
use z3::ast::Bool;

/// The cardinality encoding of `rules`.
pub fn pb_encoding(rules: &Rules) -> OneHotEncoding {
    OneHotEncoding::new(rules, |vars| {
        exactly_one_sets(rules)
            .map(|set| {
                let terms: Vec<(&Bool, i32)> = set.iter().map(|&v| (&vars[v - 1], 1)).collect();
                Bool::pb_eq(&terms, 1)
            })
            .collect()
    })
}
