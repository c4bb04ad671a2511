//! The `int` encoding, as in the Z3 notebook: an `Int` constant `c_R_C` per
//! cell with `1 <= c_R_C <= N`, `Distinct` over every house (row, column,
//! box), and `c_R_C == d` for each clue.
//!
//! To help Z3 it also states what the rules imply: every digit appears in
//! every house (`c₁ == d ∨ … ∨ cₙ == d`); and on 9x9 boards it looks for a
//! lone first solution with the clues' values propagated into the rules
//! before Z3's SMT core searches.
//!
//! Variant constraints are stated the notebook's way too: a cage is a
//! `Distinct` and a `Sum`, a thermometer a chain of `<`, anti-knight and
//! anti-king pairs `!=`, nonconsecutive neighbours `c₁ = d ⇒ c₂ ∉ {d-1, d+1}`,
//! and a pencil-marked cell a disjunction of its digits.

use super::Encoding;
use crate::puzzle::grid::{Grid, Size};
use crate::puzzle::rules::{Constraint, Rules};
use std::fmt::Write;
use z3::Model;
use z3::ast::{Ast, Bool, Int};

/// The notebook's encoding of one set of rules.
pub struct IntEncoding {
    size: Size,
    cells: Vec<Int>,
    rules: Vec<Bool>,
    implied: Vec<Bool>,
    classic: bool,
}

impl IntEncoding {
    /// Declares the cells and states `rules`.
    pub fn new(rules: &Rules) -> IntEncoding {
        let size = rules.size();
        let side = size.side();
        let cells: Vec<Int> = (0..size.cells())
            .map(|i| Int::new_const(format!("c_{}_{}", i / side + 1, i % side + 1)))
            .collect();
        let (one, max) = (Int::from_u64(1), Int::from_u64(side as u64));
        let mut formulas: Vec<Bool> = cells
            .iter()
            .map(|c| Bool::and(&[c.ge(&one), c.le(&max)]))
            .collect();
        formulas.extend(rules.houses().iter().map(|house| {
            let members: Vec<&Int> = house.cells.iter().map(|&i| &cells[i]).collect();
            Int::distinct(&members)
        }));
        let implied = rules
            .houses()
            .iter()
            .flat_map(|house| {
                let cells = &cells;
                (1..=side as u64).map(move |digit| {
                    let places: Vec<Bool> = house
                        .cells
                        .iter()
                        .map(|&i| cells[i].eq(Int::from_u64(digit)))
                        .collect();
                    Bool::or(&places)
                })
            })
            .collect();
        for constraint in rules.constraints() {
            formulas.extend(constraint_formulas(rules, constraint, &cells));
        }
        IntEncoding {
            size,
            cells,
            rules: formulas,
            implied,
            classic: rules.is_classic(),
        }
    }
}

/// `constraint` as formulas over the cells' `Int`s.
fn constraint_formulas(rules: &Rules, constraint: &Constraint, cells: &[Int]) -> Vec<Bool> {
    let size = rules.size();
    let at = |cell| &cells[size.index(cell)];
    match constraint {
        Constraint::Cage {
            cells: members,
            sum,
        } => {
            let ints: Vec<&Int> = members.iter().map(|&c| at(c)).collect();
            let mut formulas = Vec::new();
            if ints.len() > 1 {
                formulas.push(Int::distinct(&ints));
            }
            if let Some(sum) = sum {
                formulas.push(Int::add(&ints).eq(Int::from_u64(u64::from(*sum))));
            }
            formulas
        }
        Constraint::Thermo { cells: line } => {
            line.windows(2).map(|w| at(w[0]).lt(at(w[1]))).collect()
        }
        Constraint::AntiKnight | Constraint::AntiKing => constraint
            .pairs(size)
            .into_iter()
            .filter(|&(a, b)| !rules.share_house(a, b))
            .map(|(a, b)| cells[a].ne(&cells[b]))
            .collect(),
        Constraint::NonConsecutive => {
            let side = size.side() as u64;
            let digit = |d: u64| Int::from_u64(d);
            constraint
                .pairs(size)
                .into_iter()
                .flat_map(|(a, b)| {
                    // Digit by digit rather than as `|a - b| != 1`: the
                    // finite-domain solver propagates equalities far better
                    // than a difference.
                    let (a, b) = (&cells[a], &cells[b]);
                    (1..=side).map(move |d| {
                        let neighbours: Vec<Bool> = [d - 1, d + 1]
                            .into_iter()
                            .filter(|&n| (1..=side).contains(&n))
                            .map(|n| b.ne(digit(n)))
                            .collect();
                        a.eq(digit(d)).implies(Bool::and(&neighbours))
                    })
                })
                .collect()
        }
        Constraint::Allowed { cell, digits } => {
            let options: Vec<Bool> = (1..=size.side() as u64)
                .filter(|d| digits >> (d - 1) & 1 == 1)
                .map(|d| at(*cell).eq(Int::from_u64(d)))
                .collect();
            vec![Bool::or(&options)]
        }
    }
}

impl Encoding for IntEncoding {
    fn size(&self) -> Size {
        self.size
    }

    fn rules(&self) -> &[Bool] {
        &self.rules
    }

    fn clue(&self, index: usize, digit: u8) -> Bool {
        self.cells[index].eq(Int::from_u64(u64::from(digit)))
    }

    fn differs(&self, index: usize, digit: u8) -> Bool {
        self.cells[index].ne(Int::from_u64(u64::from(digit)))
    }

    fn decode(&self, model: &Model) -> Option<Grid> {
        let mut grid = Grid::empty(self.size);
        for (index, cell) in self.cells.iter().enumerate() {
            let value = model.eval(cell, true)?.as_u64()?;
            let digit = u8::try_from(value)
                .ok()
                .filter(|&d| usize::from(d) <= self.size.side())?;
            grid.set(index, digit);
        }
        Some(grid)
    }

    fn model_text(&self, model: &Model) -> String {
        let mut text = String::new();
        for cell in &self.cells {
            if let Some(value) = model.eval(cell, true) {
                let _ = writeln!(text, "{cell} -> {value}");
            }
        }
        text
    }

    fn implied(&self) -> &[Bool] {
        &self.implied
    }

    fn tactics(&self) -> Option<&'static [&'static str]> {
        // With the clues' values propagated, the SMT core finds a 9x9
        // first solution faster than the default portfolio or the
        // finite-domain solver (see build.md, "Encodings"). On larger boards
        // its search on `Distinct` falls far behind the finite-domain
        // solver's (25x on a 16x16 puzzle; see build.md, "The `int` path:
        // first solution without a timeout"), and on 4x4 neither wins.
        // Measured on classic rules only: with variant constraints the
        // finite-domain solver is the safe choice (a killer puzzle took the
        // SMT core tens of seconds).
        (self.size == Size::NINE && self.classic).then_some(&["propagate-values", "smt"])
    }

    fn logic(&self) -> Option<&'static str> {
        // Bounded integers with Distinct: Z3's finite-domain solver
        // bit-blasts them to SAT, and being incremental it proves there is
        // no further solution for little more than the first one cost.
        Some("QF_FD")
    }
}
