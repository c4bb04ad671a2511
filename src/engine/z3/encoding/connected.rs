//! A connected region ([`Primitive::Connected`]) as one formula, the same
//! in every encoding but for how "a cell's digit is one of these" and
//! "exactly n of these hold" are said.
//!
//! Connectivity is a labelling by distance from a root, in layers of
//! fresh Booleans: `reach[k][p]`, "cell p is in the region and within k
//! steps of the root through the region". The root is the first cell in
//! reading order that is in the region (a chain of fresh `before`
//! Booleans says which cells come after one that is, so the root is
//! unique and Z3 has no choice of it to search); a cell within k + 1
//! steps is within k steps or next to a cell that is; and every cell in
//! the region is within `most - 1` steps, `most` being the region's size
//! (every path in a region of `most` cells is shorter). Each implication
//! goes one way only, which is all soundness needs: a true
//! `reach[k][p]` is a path of region cells to the root. Each layer also
//! implies the next, which Z3 would otherwise have to learn. All of it is
//! clauses over the "in the region" literals, which the SAT core of
//! every encoding propagates.
//!
//! [`Primitive::Connected`]: crate::puzzle::primitive::Primitive::Connected

use crate::puzzle::connected::Connected;
use z3::ast::Bool;

/// The formula "the cells of `rule`'s area holding a digit of its set are
/// one connected region, not empty, of its size", where `holds(cell,
/// digits)` says the cell holds one of the digits (bit `d - 1` for digit
/// `d`) and `exactly(literals, n)` that exactly `n` of the literals hold.
pub fn state(
    rule: &Connected,
    holds: &dyn Fn(usize, u32) -> Bool,
    exactly: &dyn Fn(&[Bool], usize) -> Bool,
) -> Bool {
    let inside: Vec<Bool> = rule.cells.iter().map(|&c| holds(c, rule.digits)).collect();
    region(&inside, rule.neighbours(), rule.most(), rule.size, exactly)
}

/// The formula "the positions whose `inside` literal holds are one
/// connected region, not empty, of `size` cells when said", where
/// `neighbours[p]` are the positions next to `p` and `most` bounds the
/// region's cells. Chaos construction states each of its regions so.
pub fn region(
    inside: &[Bool],
    neighbours: &[Vec<u16>],
    most: usize,
    size: Option<usize>,
    exactly: &dyn Fn(&[Bool], usize) -> Bool,
) -> Bool {
    let mut parts = vec![Bool::or(inside)];
    if let Some(n) = size {
        parts.push(exactly(inside, n));
    }
    // The root: in the region, with no cell before it in the region.
    let mut reach: Vec<Bool> = Vec::with_capacity(inside.len());
    let mut before: Option<Bool> = None;
    for (p, here) in inside.iter().enumerate() {
        let root = Bool::fresh_const("root");
        parts.push(root.implies(here));
        if let Some(before) = &before {
            parts.push(root.implies(before.not()));
        }
        if p + 1 < inside.len() {
            let next = Bool::fresh_const("before");
            parts.push(here.implies(&next));
            if let Some(before) = &before {
                parts.push(before.implies(&next));
            }
            before = Some(next);
        }
        reach.push(root);
    }
    // A region of two cells or more leaves no cell of it alone: said
    // directly, it propagates before any distance is known.
    if size.is_some_and(|n| n >= 2) {
        for (p, here) in inside.iter().enumerate() {
            let near: Vec<Bool> = neighbours[p]
                .iter()
                .map(|&q| inside[usize::from(q)].clone())
                .collect();
            parts.push(here.implies(Bool::or(&near)));
        }
    }
    for _ in 1..most.max(1) {
        let next: Vec<Bool> = (0..inside.len())
            .map(|_| Bool::fresh_const("reach"))
            .collect();
        for (p, now) in next.iter().enumerate() {
            parts.push(now.implies(&inside[p]));
            let mut ways = vec![reach[p].clone()];
            ways.extend(neighbours[p].iter().map(|&q| reach[usize::from(q)].clone()));
            parts.push(now.implies(Bool::or(&ways)));
            parts.push(reach[p].implies(now));
        }
        reach = next;
    }
    for (p, here) in inside.iter().enumerate() {
        parts.push(here.implies(&reach[p]));
    }
    Bool::and(&parts)
}
