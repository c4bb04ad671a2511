//! An automaton over a line's digits ([`Primitive::Automaton`]) as one
//! formula, the same in every encoding but for how "a cell's digit is one
//! of these" is said: the states a run can be in after each cell, unrolled
//! along the line (a state after cell `i + 1` is reached from a state
//! after cell `i` by a move on that cell's digit), and some accepting
//! state reached after the last. Z3 shares the repeated subterms.
//!
//! [`Primitive::Automaton`]: crate::puzzle::primitive::Primitive::Automaton

use crate::puzzle::automaton::Automaton;
use z3::ast::Bool;

/// The formula "the digits of `cells`, in order, are a word `automaton`
/// accepts", where `holds(cell, digits)` says the cell holds one of the
/// digits (bit `d - 1` for digit `d`).
pub fn state(automaton: &Automaton, cells: &[usize], holds: &dyn Fn(usize, u32) -> Bool) -> Bool {
    // `None`: the state cannot be reached there.
    let mut reach: Vec<Option<Bool>> = vec![None; automaton.states];
    for &s in &automaton.start {
        reach[s] = Some(Bool::from_bool(true));
    }
    for &cell in cells {
        let mut ways: Vec<Vec<Bool>> = vec![Vec::new(); automaton.states];
        for &(from, to, digits) in &automaton.edges {
            if let Some(before) = &reach[from] {
                ways[to].push(Bool::and(&[before.clone(), holds(cell, digits)]));
            }
        }
        reach = ways
            .into_iter()
            .map(|w| (!w.is_empty()).then(|| Bool::or(&w)))
            .collect();
    }
    let accepted: Vec<Bool> = automaton
        .accept
        .iter()
        .filter_map(|&s| reach[s].clone())
        .collect();
    Bool::or(&accepted)
}
