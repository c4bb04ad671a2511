//! What the `bool` and `pb` encodings share: the SAT lesson's one-hot
//! Booleans `x_R_C_D` ("row R, column C holds digit D", all 1-based), the
//! groups of them that must hold exactly one true literal, and reading a
//! board back from a model. The two encodings differ only in how they say
//! "exactly one".

use super::Encoding;
use crate::puzzle::grid::{Grid, Size};
use crate::puzzle::rules::{Constraint, Rules};
use std::fmt::Write;
use z3::Model;
use z3::ast::Bool;

/// A one-hot encoding of one set of rules: the Booleans and the formulas
/// one of the lessons states over them.
pub struct OneHotEncoding {
    size: Size,
    /// `x_R_C_D` at its DIMACS number minus one.
    vars: Vec<Bool>,
    rules: Vec<Bool>,
}

impl OneHotEncoding {
    /// Declares `N³` Booleans for boards of `size` and states the rules as
    /// `state` makes them of those (given the variables in DIMACS order:
    /// variable `n` at `n - 1`).
    pub(super) fn new(size: Size, state: impl Fn(&[Bool]) -> Vec<Bool>) -> Self {
        let count = size.cells() * size.side();
        let vars: Vec<Bool> = (1..=count)
            .map(|number| Bool::new_const(name(size, number)))
            .collect();
        let rules = state(&vars);
        OneHotEncoding { size, vars, rules }
    }

    /// The Boolean "cell `index` holds `digit`".
    fn var(&self, index: usize, digit: u8) -> &Bool {
        &self.vars[variable(self.size, index, digit) - 1]
    }
}

impl Encoding for OneHotEncoding {
    fn size(&self) -> Size {
        self.size
    }

    fn rules(&self) -> &[Bool] {
        &self.rules
    }

    fn clue(&self, index: usize, digit: u8) -> Bool {
        self.var(index, digit).clone()
    }

    fn differs(&self, index: usize, digit: u8) -> Bool {
        self.var(index, digit).not()
    }

    /// Reads each cell's digit: the one whose Boolean is true. `None` when a
    /// cell has no true digit (the rules forbid two, and the checker would
    /// catch a board that broke them).
    fn decode(&self, model: &Model) -> Option<Grid> {
        let mut grid = Grid::empty(self.size);
        let digits = 1..=self.size.side() as u8;
        for index in 0..self.size.cells() {
            // A model's own value of a constant is a lookup; `eval` would
            // run the rewriter for each of the up to n² Booleans per cell.
            let digit = digits.clone().find(|&d| {
                let var = self.var(index, d);
                model
                    .get_const_interp(var)
                    .or_else(|| model.eval(var, true))
                    .and_then(|v| v.as_bool())
                    .unwrap_or(false)
            })?;
            grid.set(index, digit);
        }
        Some(grid)
    }

    /// The true literals, one `x_R_C_D -> true` per line (the false ones,
    /// `side - 1` per cell, say nothing the true ones do not).
    fn model_text(&self, model: &Model) -> String {
        let mut text = String::new();
        for var in &self.vars {
            if model.eval(var, true).and_then(|v| v.as_bool()) == Some(true) {
                let _ = writeln!(text, "{var} -> true");
            }
        }
        text
    }

    fn logic(&self) -> Option<&'static str> {
        // Z3's finite-domain solver is its SAT solver, with native
        // cardinality constraints (see build.md, "Encodings").
        Some("QF_FD")
    }

    fn keeps_solver(&self) -> bool {
        true
    }
}

/// The DIMACS number (1-based) of "cell `index` holds `digit`":
/// `index * side + digit`, so numbers run cell by cell, digit by digit.
pub fn variable(size: Size, index: usize, digit: u8) -> usize {
    index * size.side() + usize::from(digit)
}

/// The readable name `x_R_C_D` of the variable numbered `number`. The
/// underscores keep two-digit rows, columns and digits apart (`x_10_3_12`).
pub fn name(size: Size, number: usize) -> String {
    let side = size.side();
    let (index, digit) = ((number - 1) / side, (number - 1) % side + 1);
    format!("x_{}_{}_{}", index / side + 1, index % side + 1, digit)
}

/// Every set of variables of which exactly one must be true, as DIMACS
/// numbers: each cell's digits, then each house's places for each digit.
pub fn exactly_one_sets(rules: &Rules) -> impl Iterator<Item = Vec<usize>> + '_ {
    let size = rules.size();
    let side = size.side();
    let cells = (0..size.cells()).map(move |index| {
        (1..=side as u8)
            .map(|digit| variable(size, index, digit))
            .collect()
    });
    let places = rules.houses().iter().flat_map(move |house| {
        (1..=side as u8).map(move |digit| {
            house
                .cells
                .iter()
                .map(|&index| variable(size, index, digit))
                .collect()
        })
    });
    cells.chain(places)
}

/// A clause: DIMACS literals, `n` for variable `n` true and `-n` for false.
pub type Clause = Vec<i32>;

/// The literal "cell `index` holds `digit`" (negated: "does not").
fn literal(size: Size, index: usize, digit: u8, holds: bool) -> i32 {
    // Variable numbers stop at 25³, far inside i32.
    let number = variable(size, index, digit) as i32;
    if holds { number } else { -number }
}

/// The variant constraints that clauses state, as clauses: every
/// constraint except a cage's sum (see [`cage_sums`]).
///
/// Pairs that must differ (anti-knight, anti-king, cage mates) get one
/// binary clause per digit, unless a house already keeps them apart;
/// nonconsecutive neighbours one per pair of consecutive digits; a
/// thermometer forbids each pair of digits out of order on consecutive
/// cells, and, as unit clauses, the digits too small or too large for a
/// cell's place on it; a pencil-marked cell forbids the digits it lacks.
pub fn constraint_clauses(rules: &Rules) -> Vec<Clause> {
    let size = rules.size();
    let side = size.side() as u8;
    let mut clauses = Vec::new();
    let differ = |clauses: &mut Vec<Clause>, a: usize, b: usize| {
        if !rules.share_house(a, b) {
            for d in 1..=side {
                clauses.push(vec![literal(size, a, d, false), literal(size, b, d, false)]);
            }
        }
    };
    for constraint in rules.constraints() {
        match constraint {
            Constraint::Cage { cells, .. } => {
                let cells: Vec<usize> = cells.iter().map(|&c| size.index(c)).collect();
                for (k, &a) in cells.iter().enumerate() {
                    for &b in &cells[k + 1..] {
                        differ(&mut clauses, a, b);
                    }
                }
            }
            Constraint::Thermo { cells } => {
                let cells: Vec<usize> = cells.iter().map(|&c| size.index(c)).collect();
                let length = cells.len();
                for (place, &cell) in cells.iter().enumerate() {
                    // At least `place` digits lie below it and
                    // `length - 1 - place` above.
                    for d in 1..=side {
                        let (d_at, side_at) = (usize::from(d), usize::from(side));
                        if d_at <= place || d_at + (length - 1 - place) > side_at {
                            clauses.push(vec![literal(size, cell, d, false)]);
                        }
                    }
                }
                for w in cells.windows(2) {
                    for i in 1..=side {
                        for j in 1..=i {
                            clauses.push(vec![
                                literal(size, w[0], i, false),
                                literal(size, w[1], j, false),
                            ]);
                        }
                    }
                }
            }
            Constraint::AntiKnight | Constraint::AntiKing => {
                for (a, b) in constraint.pairs(size) {
                    differ(&mut clauses, a, b);
                }
            }
            Constraint::NonConsecutive => {
                for (a, b) in constraint.pairs(size) {
                    for d in 1..side {
                        clauses.push(vec![
                            literal(size, a, d, false),
                            literal(size, b, d + 1, false),
                        ]);
                        clauses.push(vec![
                            literal(size, a, d + 1, false),
                            literal(size, b, d, false),
                        ]);
                    }
                }
            }
            Constraint::Allowed { cell, digits } => {
                let index = size.index(*cell);
                for d in (1..=side).filter(|d| digits >> (d - 1) & 1 == 0) {
                    clauses.push(vec![literal(size, index, d, false)]);
                }
            }
        }
    }
    clauses
}

/// Each cage's sum as a pseudo-Boolean equation: the variables of its
/// cells' digits, each weighted by its digit, and the total.
pub fn cage_sums(rules: &Rules) -> Vec<(Vec<(usize, i32)>, i32)> {
    let size = rules.size();
    rules
        .constraints()
        .iter()
        .filter_map(|constraint| match constraint {
            Constraint::Cage {
                cells,
                sum: Some(sum),
            } => {
                let terms = cells
                    .iter()
                    .flat_map(|&cell| {
                        (1..=size.side() as u8)
                            .map(move |d| (variable(size, size.index(cell), d), i32::from(d)))
                    })
                    .collect();
                // A sum was checked against the cage's reach: at most 325.
                Some((terms, *sum as i32))
            }
            _ => None,
        })
        .collect()
}

/// `clause` as a formula over `vars` (variable `n` at `n - 1`).
pub(super) fn clause_formula(vars: &[Bool], clause: &[i32]) -> Bool {
    let lits: Vec<Bool> = clause
        .iter()
        .map(|&lit| {
            let v = &vars[lit.unsigned_abs() as usize - 1];
            if lit > 0 { v.clone() } else { v.not() }
        })
        .collect();
    Bool::or(&lits)
}

/// The variant constraints over `vars`: [`constraint_clauses`] as
/// clauses and [`cage_sums`] as pseudo-Boolean equations. Both one-hot
/// encodings state them so.
pub(super) fn constraint_formulas(rules: &Rules, vars: &[Bool]) -> Vec<Bool> {
    let clauses = constraint_clauses(rules);
    let sums = cage_sums(rules).into_iter().map(|(terms, total)| {
        let terms: Vec<(&Bool, i32)> = terms.iter().map(|&(v, w)| (&vars[v - 1], w)).collect();
        Bool::pb_eq(&terms, total)
    });
    clauses
        .iter()
        .map(|clause| clause_formula(vars, clause))
        .chain(sums)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_names_round_trip() {
        let nine = Size::NINE;
        assert_eq!(variable(nine, 0, 1), 1);
        assert_eq!(variable(nine, 80, 9), 729);
        assert_eq!(name(nine, 1), "x_1_1_1");
        assert_eq!(name(nine, variable(nine, 9 * 4 + 2, 7)), "x_5_3_7");
        let sixteen = Size::from_side(16).unwrap_or_default();
        assert_eq!(
            name(sixteen, variable(sixteen, 16 * 9 + 2, 12)),
            "x_10_3_12"
        );
    }

    #[test]
    fn every_variable_is_in_a_set_per_house_and_its_cell() {
        for size in Size::all() {
            let rules = Rules::classic(size);
            let per_cell = 1 + rules.houses_of(0).len();
            let sets: Vec<Vec<usize>> = exactly_one_sets(&rules).collect();
            assert_eq!(sets.len(), per_cell * size.cells());
            let mut seen = vec![0; size.cells() * size.side() + 1];
            for set in &sets {
                assert_eq!(set.len(), size.side());
                for &v in set {
                    seen[v] += 1;
                }
            }
            assert!(seen[1..].iter().all(|&n| n == per_cell));
        }
    }
}
