//! Count distinct (sigh's `CountDistinct`): the digit in the first
//! (control) cell is the number of different digits among the other
//! cells.
//!
//! f-puzzles has no key for it: it is read from rule lines and sigh
//! strings.

use super::FromZero;
use super::{Added, Read, Rule, no_key, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{Context, digit_range, index, list, listed_once};
use crate::puzzle::expr::{Compare, Num, Test};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::Primitive;
use crate::puzzle::rule_text as text;
use crate::puzzle::sigh;
use crate::puzzle::sketch::Mark;
use serde_json::Value;
use std::fmt;
use std::sync::Arc;

/// The control cell counts the different digits of the others.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CountDistinct {
    /// The cell that holds the count.
    pub control: Cell,
    /// The cells counted.
    pub counted: Vec<Cell>,
}

impl Read for CountDistinct {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["count distinct", "countdistinct"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    /// `count distinct (CONTROL) CELLS`, the brackets optional: the first
    /// cell is the control.
    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let cells = text::cells(words, size)?;
        let (&control, counted) = cells.split_first().ok_or("expected the cells")?;
        Ok(one(CountDistinct {
            control,
            counted: counted.to_vec(),
        }))
    }
    const SIGH: &'static [&'static str] = &["CountDistinct"];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        let cells = item.cells(item.args)?;
        Ok(one(CountDistinct {
            control: cells[0],
            counted: cells[1..].to_vec(),
        }))
    }
}

impl fmt::Display for CountDistinct {
    /// `count distinct (r1c1) r1c2 r1c3`, which reads back as the same
    /// rule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "count distinct ({}) {}",
            self.control,
            list(&self.counted, " ")
        )
    }
}

impl Rule for CountDistinct {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        std::iter::once(self.control)
            .chain(self.counted.iter().copied())
            .collect()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        listed_once(&self.cells())?;
        if self.counted.is_empty() {
            return Err("count distinct needs cells to count".into());
        }
        Ok(())
    }

    /// The control keeps the counts the cells can have, and equals the
    /// number of digits that appear among them, as a formula: the sum over
    /// the digits of "it appears at least once".
    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        let control = size.index(self.control);
        let counted: Vec<Num<usize>> = index(size, &self.counted)
            .into_iter()
            .map(Num::Cell)
            .collect();
        let appears = (1..=size.side() as i64)
            .map(|d| {
                Num::If(
                    Box::new(Test::Compare(
                        Compare::Ge,
                        Box::new(Num::Count(Box::new(Num::Literal(d)), counted.clone())),
                        Box::new(Num::Literal(1)),
                    )),
                    Box::new(Num::Literal(1)),
                    Box::new(Num::Literal(0)),
                )
            })
            .collect();
        vec![
            Primitive::Allowed {
                cell: control,
                digits: digit_range(1, self.counted.len().min(size.side())),
            },
            Primitive::Formula(Arc::new(Test::Compare(
                Compare::Eq,
                Box::new(Num::Cell(control)),
                Box::new(Num::Sum(appears)),
            ))),
        ]
    }

    /// As the rule is stated: the control's digit against the number of
    /// different digits among the others.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let seen = self
            .counted
            .iter()
            .fold(0u32, |seen, &c| seen | 1 << board.digit(c));
        let distinct = seen.count_ones();
        let control = u32::from(board.digit(self.control));
        (control != distinct).then(|| {
            format!(
                "{} holds {control}, and the cells hold {distinct} different digits",
                self.control
            )
        })
    }

    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![
            Mark::RegionBorder(self.cells()),
            Mark::CornerText {
                cell: self.control,
                text: "#".into(),
            },
            Mark::Note(format!(
                "{self}: the cell marked # counts the different digits of the others"
            )),
        ]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(format!(".CountDistinct{}", sigh::ids(&self.cells())))
    }
}

#[cfg(test)]
mod tests {
    use crate::puzzle::kinds::notebook_solution_under as check;

    #[test]
    fn the_control_counts_the_digits() {
        // r2c1 holds 2; r1c1 r3c4 hold 7 7: one digit.
        assert!(check("count distinct (r2c1) r1c1 r3c4").is_err());
        // r1c2 holds 1: r1c1 and r3c4 are both 7.
        assert!(check("count distinct (r1c2) r1c1 r3c4").is_ok());
        // r1c5 holds 9; r1c1 r1c2 r1c3 r2c1 r2c2 r2c3 r3c1 r3c2 r3c3: nine digits.
        assert!(check("count distinct r1c5 r1c1 r1c2 r1c3 r2c1 r2c2 r2c3 r3c1 r3c2 r3c3").is_ok());
        assert!(check("count distinct r1c5").is_err());
    }
}
