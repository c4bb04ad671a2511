//! The `int` encoding, as in the Z3 notebook: an `Int` constant `c_R_C` per
//! cell with `1 <= c_R_C <= N`, `Distinct` over every house (row, column,
//! box), and `c_R_C == d` for each clue.
//!
//! To help Z3 it also states what the rules imply: every digit appears in
//! every house (`c₁ == d ∨ … ∨ cₙ == d`); and on 9x9 boards it looks for a
//! lone first solution with the clues' values propagated into the rules
//! before Z3's SMT core searches.

use super::Encoding;
use crate::puzzle::grid::{Grid, Size};
use crate::puzzle::rules::Rules;
use std::fmt::Write;
use z3::Model;
use z3::ast::{Ast, Bool, Int};

/// The notebook's encoding of one set of rules.
pub struct IntEncoding {
    size: Size,
    cells: Vec<Int>,
    rules: Vec<Bool>,
    implied: Vec<Bool>,
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
        IntEncoding {
            size,
            cells,
            rules: formulas,
            implied,
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
        (self.size == Size::NINE).then_some(&["propagate-values", "smt"])
    }

    fn logic(&self) -> Option<&'static str> {
        // Bounded integers with Distinct: Z3's finite-domain solver
        // bit-blasts them to SAT, and being incremental it proves there is
        // no further solution for little more than the first one cost.
        Some("QF_FD")
    }
}
