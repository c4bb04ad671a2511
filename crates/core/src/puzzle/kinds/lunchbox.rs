//! Lunchboxes, as sigh's Interactive Sudoku Solver states them: the
//! cells hold different digits, and, read in the order listed, the digits
//! between the smallest and the largest add up to the clue (0 when the
//! two are next to each other). In a house the smallest and largest are 1
//! and the board's largest digit, which makes it a sandwich; elsewhere
//! they are whatever the box's own extremes are.
//!
//! f-puzzles has no key for it: it is read from rule lines and sigh
//! strings (`.Lunchbox~12~R1C1~R1C2~R1C3`), and an f-puzzles link leaves
//! it out (see [`unwritable`](crate::puzzle::fpuzzles::write::unwritable)).

use super::FromZero;
use super::{Added, Read, Rule, no_key, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{Context, index, list, listed_once};
use crate::puzzle::expr::{Compare, Num, Test};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::Primitive;
use crate::puzzle::rule_text as text;
use crate::puzzle::sigh;
use crate::puzzle::sketch::{LineColour, Mark};
use serde_json::Value;
use std::fmt;
use std::sync::Arc;

/// A lunchbox: different digits; those between the smallest and the
/// largest, in the cells' order, add up to `sum`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lunchbox {
    /// The cells, in order.
    pub cells: Vec<Cell>,
    /// The total between the extremes.
    pub sum: u32,
}

impl Read for Lunchbox {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["lunchbox"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    /// `lunchbox 12 (r1c1 r1c2 r1c3 r1c4)`: the clue, then the cells in
    /// order.
    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let sum = text::number(words.first())?;
        Ok(one(Lunchbox {
            cells: text::cells(&words[1..], size)?,
            sum,
        }))
    }

    const SIGH: &'static [&'static str] = &["Lunchbox"];

    /// `.Lunchbox~SUM~CELL~…`.
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        let sum = item.number(item.args.first())?;
        let cells = item.cells(item.args.get(1..).unwrap_or_default())?;
        Ok(one(Lunchbox { cells, sum }))
    }
}

impl fmt::Display for Lunchbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "lunchbox {} ({})", self.sum, list(&self.cells, "→"))
    }
}

impl Rule for Lunchbox {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        listed_once(&self.cells)?;
        let (n, side) = (self.cells.len(), size.side());
        // One cell is its own smallest and largest digit: sigh's solver
        // finds no place for the two, so neither does z3doku.
        if n < 2 {
            return Err("a lunchbox needs at least two cells".into());
        }
        if n > side {
            return Err(format!(
                "{n} cells cannot hold different digits from 1 to {side}"
            ));
        }
        Ok(())
    }

    /// Different digits, and for each two places `i < j`: when every
    /// other digit lies strictly between the digits there (they are the
    /// box's smallest and largest, either way round), the cells between
    /// them add up to the clue. The digits differ, so
    /// exactly one pair of places holds the extremes, and the formulas
    /// together say the rule.
    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let cells = index(context.size, &self.cells);
        let mut out = vec![Primitive::Distinct {
            cells: cells.clone(),
            sum: None,
        }];
        let less = |a: usize, b: usize| {
            Test::Compare(Compare::Lt, Box::new(Num::Cell(a)), Box::new(Num::Cell(b)))
        };
        for i in 0..cells.len() {
            for j in i + 1..cells.len() {
                // Every other cell lies strictly between the two, one way
                // round or the other: comparisons between cells, which
                // the one-hot encodings state far better than a minimum
                // and a maximum (36 s against 2.2 s for `bool` on the
                // speed table's puzzle).
                let (a, b) = (cells[i], cells[j]);
                let inside: Vec<Test<usize>> = cells
                    .iter()
                    .filter(|&&k| k != a && k != b)
                    .map(|&k| {
                        Test::Or(vec![
                            Test::And(vec![less(a, k), less(k, b)]),
                            Test::And(vec![less(b, k), less(k, a)]),
                        ])
                    })
                    .collect();
                let extremes = match inside.len() {
                    0 => Test::Literal(true),
                    1 => inside.into_iter().next().unwrap_or(Test::Literal(true)),
                    _ => Test::And(inside),
                };
                let between: Vec<Num<usize>> =
                    cells[i + 1..j].iter().map(|&c| Num::Cell(c)).collect();
                let total = match between.len() {
                    0 => Num::Literal(0),
                    _ => Num::Sum(between),
                };
                let sums = Test::Compare(
                    Compare::Eq,
                    Box::new(total),
                    Box::new(Num::Literal(i64::from(self.sum))),
                );
                out.push(Primitive::Formula(Arc::new(Test::Implies(
                    Box::new(extremes),
                    Box::new(sums),
                ))));
            }
        }
        out
    }

    /// A repeat, then the cells between the smallest and largest digit
    /// added up.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        if let Some(repeat) = board.repeat(&self.cells) {
            return Some(repeat);
        }
        let place = |pick: fn(u8, u8) -> bool| {
            (0..self.cells.len()).fold(0, |best, k| {
                match pick(board.digit(self.cells[k]), board.digit(self.cells[best])) {
                    true => k,
                    false => best,
                }
            })
        };
        let (low, high) = (place(|a, b| a < b), place(|a, b| a > b));
        let (from, to) = (low.min(high), low.max(high));
        let got = board.total(&self.cells[from + 1..to]);
        (got != self.sum).then(|| {
            format!(
                "the digits between {} and {} add up to {got}",
                board.holds(&[self.cells[low]]),
                board.holds(&[self.cells[high]])
            )
        })
    }

    /// A grey line through the cells in order (the order matters), in a
    /// cage labelled with the clue.
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![
            Mark::Line {
                cells: self.cells.clone(),
                colour: LineColour::Grey,
            },
            Mark::Cage {
                cells: self.cells.clone(),
                label: Some(self.sum.to_string()),
            },
        ]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }

    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(format!(".Lunchbox~{}{}", self.sum, sigh::ids(&self.cells)))
    }
}

#[cfg(test)]
mod tests {
    use crate::puzzle::kinds::notebook_solution_under as check;

    #[test]
    fn the_checker_adds_between_the_extremes() {
        // 7 1 5 8 9: between the 1 and the 9, 5 + 8.
        assert_eq!(check("lunchbox 13 (r1c1 r1c2 r1c3 r1c4 r1c5)"), Ok(()));
        assert!(check("lunchbox 12 (r1c1 r1c2 r1c3 r1c4 r1c5)").is_err());
        // Read the other way, the same cells lie between.
        assert_eq!(check("lunchbox 13 (r1c5 r1c4 r1c3 r1c2 r1c1)"), Ok(()));
        // 7 1: next to each other.
        assert_eq!(check("lunchbox 0 (r1c1 r1c2)"), Ok(()));
        assert!(check("lunchbox 0 (r1c1)").is_err());
    }
}
