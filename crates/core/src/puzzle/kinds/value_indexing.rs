//! The value-indexing line (sigh's `ValueIndexing`): the digit in its
//! second cell, D, says how many cells further along the line the first
//! cell's digit appears again. So with cells `c0 c1 c2 …`, `c1` holds a D
//! from 1 to the number of cells after it, and `c(1 + D)` holds the
//! digit of `c0`.
//!
//! f-puzzles has no key for it: it is read from rule lines and sigh
//! strings.

use super::FromZero;
use super::{Added, Read, Rule, no_key, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{Context, digit_range, index, list, listed_once, sum};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::Primitive;
use crate::puzzle::rule_text as text;
use crate::puzzle::sigh;
use crate::puzzle::sketch::Mark;
use serde_json::Value;
use std::fmt;

/// A value-indexing line: the first cell's digit, the second cell's
/// index, then the cells it indexes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ValueIndexing(pub Vec<Cell>);

impl Read for ValueIndexing {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["value indexing", "valueindexing"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        Ok(one(ValueIndexing(text::cells(words, size)?)))
    }
    const SIGH: &'static [&'static str] = &["ValueIndexing"];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        Ok(one(ValueIndexing(item.cells(item.args)?)))
    }
}

impl fmt::Display for ValueIndexing {
    /// `value indexing r1c1→r1c2→r1c3`, which reads back as the same line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "value indexing {}", list(&self.0, "→"))
    }
}

impl Rule for ValueIndexing {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        self.0.clone()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        listed_once(&self.0)?;
        if self.0.len() < 3 {
            return Err("a value-indexing line needs a digit, an index and a cell to index".into());
        }
        Ok(())
    }

    /// The index cell keeps the places there are; each index D makes the
    /// D-th cell after it equal the first cell (a sum of 0 that holds when
    /// the index is D).
    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let cells = index(context.size, &self.0);
        let places = (cells.len() - 2).min(context.size.side());
        let (value, control) = (cells[0], cells[1]);
        let mut out = vec![Primitive::Allowed {
            cell: control,
            digits: digit_range(1, places),
        }];
        for d in 1..=places {
            out.push(Primitive::When {
                when: vec![(control, d as u8)],
                then: Box::new(sum(vec![(value, 1), (cells[1 + d], -1)], vec![0])),
            });
        }
        out
    }

    /// As the rule is stated: an index past the line's end, or the cell it
    /// points at holding another digit than the first cell.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let d = usize::from(board.digit(self.0[1]));
        match self.0.get(1 + d) {
            None => Some(format!(
                "{} points past the line's end",
                board.holds(&[self.0[1]])
            )),
            Some(&target) => (board.digit(target) != board.digit(self.0[0])).then(|| {
                format!(
                    "{}: the indexed cell does not repeat the first",
                    board.holds(&[self.0[0], self.0[1], target])
                )
            }),
        }
    }

    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![
            Mark::Arrow {
                circle: vec![self.0[0]],
                line: self.0[1..].to_vec(),
            },
            Mark::Note(format!(
                "{self}: the second cell's digit says how many cells further on the first \
                 cell's digit appears again"
            )),
        ]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(format!(".ValueIndexing{}", sigh::ids(&self.0)))
    }
}

#[cfg(test)]
mod tests {
    use crate::puzzle::kinds::notebook_solution_under as check;

    #[test]
    fn the_index_points_at_the_first_digit_again() {
        // r1c4 holds 8 and r2c2 3: the third cell after r2c2, r4c3,
        // holds 3, not 8.
        assert!(check("value indexing r1c4 r2c2 r3c3 r3c2 r4c3 r5c5").is_err());
        // r7c4 (1) points at the next cell, r7c3, whose 6 repeats r3c1's.
        assert!(check("value indexing r3c1 r7c4 r7c3").is_ok());
        // An index past the end: r1c1's 7 with only two cells after it.
        assert!(check("value indexing r2c2 r1c1 r3c3 r4c4").is_err());
    }
}
