//! Chaos construction ([`Primitive::Chaos`]) as one formula, the same in
//! every encoding but for how "a cell's digit is one of these" and
//! "exactly n of these hold" are said.
//!
//! Each cell gets a region label beside its digit: fresh Booleans
//! `in[c][k]`, "cell c is in region k", exactly one per cell. Each region
//! holds each digit exactly once when the board has as many digits as a
//! region has cells (which makes it N cells), at most once when it has
//! more, and its cells are one connected region of N cells, stated as a
//! connected value's region is (`connected::region`, distance layers from
//! its first cell). The labels are numbered by the order in which the
//! regions' first cells come in reading order (cell 0 is in region 0,
//! and a cell is in region k > 0 only after some cell in region k - 1),
//! so each parting has one labelling and Z3 never searches the
//! relabellings. A solution is still
//! its digits: the engine blocks digits, and the regions are not read
//! back (the checker finds them, see build.md, "Chaos construction").
//!
//! [`Primitive::Chaos`]: crate::puzzle::primitive::Primitive::Chaos

use super::connected;
use crate::puzzle::chaos::{Chaos, Clue};
use z3::ast::Bool;

/// The formula "the board parts into connected regions of N cells, each
/// holding N different digits", where `holds(cell, digits)` says the cell
/// holds one of the digits (bit `d - 1` for digit `d`) and
/// `exactly(literals, n)` that exactly `n` of the literals hold.
pub fn state(
    rule: &Chaos,
    holds: &dyn Fn(usize, u32) -> Bool,
    exactly: &dyn Fn(&[Bool], usize) -> Bool,
) -> Bool {
    let (n, regions, values) = (rule.region_cells(), rule.regions(), rule.values());
    let within: Vec<Vec<Bool>> = (0..rule.cells())
        .map(|_| (0..regions).map(|_| Bool::fresh_const("region")).collect())
        .collect();
    let mut parts = Vec::new();
    for labels in &within {
        parts.push(exactly(labels, 1));
    }
    // Each region holds each digit once, or at most once when there are
    // more digits than its cells: exactly one of the cells holding it and
    // a spare literal that stands for "none".
    let digit: Vec<Vec<Bool>> = (0..rule.cells())
        .map(|c| (0..values).map(|d| holds(c, 1 << d)).collect())
        .collect();
    for k in 0..regions {
        for d in 0..values {
            let mut here: Vec<Bool> = within
                .iter()
                .zip(&digit)
                .map(|(labels, digits)| Bool::and(&[&labels[k], &digits[d]]))
                .collect();
            if values > n {
                here.push(Bool::fresh_const("absent"));
            }
            parts.push(exactly(&here, 1));
        }
    }
    // Labels in the order of their first cells: `seen[k]` after cell c
    // says some cell up to c is in region k.
    if let Some(first) = within.first() {
        parts.push(first[0].clone());
    }
    let mut seen: Vec<Bool> = (0..regions).map(|_| Bool::from_bool(false)).collect();
    for labels in &within {
        for k in 1..regions {
            parts.push(labels[k].implies(&seen[k - 1]));
        }
        seen = (0..regions)
            .map(|k| {
                let now = Bool::fresh_const("seen");
                parts.push(now.iff(Bool::or(&[&seen[k], &labels[k]])));
                now
            })
            .collect();
    }
    for k in 0..regions {
        let inside: Vec<Bool> = within.iter().map(|labels| labels[k].clone()).collect();
        parts.push(connected::region(
            &inside,
            rule.neighbours(),
            n,
            Some(n),
            exactly,
        ));
    }
    for clue in &rule.clues {
        parts.push(clue_formula(clue, rule, &within, holds, exactly));
    }
    Bool::and(&parts)
}

/// A clue over the regions: for each digit the control may hold, the
/// number the regions make is that digit plus the offset. `same(a, b)`
/// says cells a and b share a region.
fn clue_formula(
    clue: &Clue,
    rule: &Chaos,
    within: &[Vec<Bool>],
    holds: &dyn Fn(usize, u32) -> Bool,
    exactly: &dyn Fn(&[Bool], usize) -> Bool,
) -> Bool {
    let values = rule.values();
    let same = |a: usize, b: usize| {
        let each: Vec<Bool> = (0..rule.regions())
            .map(|k| Bool::and(&[&within[a][k], &within[b][k]]))
            .collect();
        Bool::or(&each)
    };
    // The literals that count, and what the count holds besides them.
    let (literals, base) = match clue {
        Clue::Count { cells, .. } => match cells.split_first() {
            Some((&first, rest)) => (rest.iter().map(|&c| same(first, c)).collect(), 1),
            None => (Vec::new(), 0),
        },
        Clue::Arrow { arms, .. } => {
            // Along each arm, the run reaches cell i when every cell up to
            // it shares the first one's region: a chain of fresh Booleans.
            let mut literals = Vec::new();
            let mut parts = Vec::new();
            for arm in Clue::active_arms(arms) {
                let Some((&start, rest)) = arm.split_first() else {
                    continue;
                };
                let mut before: Option<Bool> = None;
                for &c in rest {
                    let here = same(start, c);
                    let reach = Bool::fresh_const("run");
                    let step = match &before {
                        None => here,
                        Some(b) => Bool::and(&[b, &here]),
                    };
                    parts.push(reach.iff(step));
                    literals.push(reach.clone());
                    before = Some(reach);
                }
            }
            let cases = cases(clue, values, &literals, 1, holds, exactly);
            parts.push(cases);
            return Bool::and(&parts);
        }
    };
    cases(clue, values, &literals, base, holds, exactly)
}

/// "The control holds `base` + (how many of `literals` hold) - offset",
/// over its `values` digits.
fn cases(
    clue: &Clue,
    values: usize,
    literals: &[Bool],
    base: usize,
    holds: &dyn Fn(usize, u32) -> Bool,
    exactly: &dyn Fn(&[Bool], usize) -> Bool,
) -> Bool {
    let offset = usize::from(clue.offset());
    let each: Vec<Bool> = (1..=values)
        .map(|digit| {
            let control = holds(clue.control(), 1 << (digit - 1));
            match (digit + offset).checked_sub(base) {
                // No literals (an arrow whose arms are single cells): the
                // count is 0, said without an empty sum.
                Some(0) if literals.is_empty() => Bool::from_bool(true),
                Some(k) if k <= literals.len() && !literals.is_empty() => {
                    control.implies(exactly(literals, k))
                }
                _ => control.not(),
            }
        })
        .collect();
    Bool::and(&each)
}
