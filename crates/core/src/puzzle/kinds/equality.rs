//! Equality cages, as sigh's Interactive Sudoku Solver states them: the
//! cage's digits differ, as many are even as odd, and as many are low as
//! high. Low is the lower half of the digits and high the upper half
//! (1-4 and 6-9 on 9x9); on a board with an odd number of digits the
//! middle one (5 on 9x9) is neither, so no cage holds it.
//!
//! f-puzzles has no key for them: they are read from rule lines and sigh
//! strings (`.EqualityCage~R1C1~R1C2`), and an f-puzzles link leaves them
//! out (see [`unwritable`](crate::puzzle::fpuzzles::write::unwritable)).

use super::FromZero;
use super::{Added, Read, Rule, no_key, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{
    Context, all_digits, digit_range, index, list, listed_once, subsets,
};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::Primitive;
use crate::puzzle::rule_text as text;
use crate::puzzle::sigh;
use crate::puzzle::sketch::Mark;
use serde_json::Value;
use std::fmt;

/// An equality cage: different digits, half of them even and half low.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EqualityCage(pub Vec<Cell>);

/// The two halves each count must split evenly, on a board of `side`:
/// `(even, odd)` and `(low, high)` as digit bits.
fn halves(side: usize) -> [(u32, u32); 2] {
    let all = u32::MAX >> (32 - side);
    let even = (1..=side)
        .filter(|d| d % 2 == 0)
        .fold(0, |m, d| m | 1 << (d - 1));
    let half = side / 2;
    [
        (even, all & !even),
        (digit_range(1, half), digit_range(side - half + 1, side)),
    ]
}

impl Read for EqualityCage {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["equality cage", "equalitycage"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    /// `equality cage (r1c1 r1c2 r2c1 r2c2)`.
    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        Ok(one(EqualityCage(text::cells(words, size)?)))
    }

    const SIGH: &'static [&'static str] = &["EqualityCage"];

    /// `.EqualityCage~CELL~…`.
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        Ok(one(EqualityCage(item.cells(item.args)?)))
    }
}

impl fmt::Display for EqualityCage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "equality cage ({})", list(&self.0, " "))
    }
}

impl Rule for EqualityCage {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        self.0.clone()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        listed_once(&self.0)?;
        let n = self.0.len();
        if n == 0 || n % 2 == 1 {
            return Err(format!(
                "an equality cage has an even number of cells, not {n}"
            ));
        }
        let half = size.side() / 2;
        if n / 2 > half {
            return Err(format!(
                "{n} cells cannot hold {} different low digits: the {size} board has {half}",
                n / 2
            ));
        }
        Ok(())
    }

    /// Different digits, the middle digit nowhere, and for each split
    /// (even and odd, low and high) at most half the cells on each side:
    /// with `n` cells and no digit on neither side, "at most `n/2` on one
    /// side" makes exactly `n/2` on each. "At most `n/2` even" is one
    /// clause per `n/2 + 1` cells: one of them is odd.
    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        let side = size.side();
        let cells = index(size, &self.0);
        let mut out = vec![Primitive::Distinct {
            cells: cells.clone(),
            sum: None,
        }];
        let [_, (low, high)] = halves(side);
        if side % 2 == 1 {
            out.extend(cells.iter().map(|&cell| Primitive::Allowed {
                cell,
                digits: (low | high) & all_digits(size),
            }));
        }
        for group in subsets(&cells, cells.len() / 2 + 1) {
            for (one_side, other) in halves(side) {
                for mask in [one_side, other] {
                    out.push(Primitive::Any {
                        literals: group.iter().map(|&c| (c, mask)).collect(),
                    });
                }
            }
        }
        out
    }

    /// A repeat, the middle digit, then each split counted.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        if let Some(repeat) = board.repeat(&self.0) {
            return Some(repeat);
        }
        let side = board.size().side();
        let digits: Vec<usize> = self
            .0
            .iter()
            .map(|&c| usize::from(board.digit(c)))
            .collect();
        if side % 2 == 1
            && let Some(&middle) = self
                .0
                .iter()
                .find(|&&c| usize::from(board.digit(c)) * 2 == side + 1)
        {
            return Some(format!(
                "{middle} holds {}, which is neither low nor high",
                board.digit(middle)
            ));
        }
        let even = digits.iter().filter(|&&d| d % 2 == 0).count();
        let low = digits.iter().filter(|&&d| 2 * d <= side).count();
        let n = digits.len();
        if 2 * even != n {
            return Some(format!("{even} of its {n} digits are even"));
        }
        (2 * low != n).then(|| format!("{low} of its {n} digits are low"))
    }

    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![Mark::Cage {
            cells: self.0.clone(),
            label: Some("=".into()),
        }]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }

    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(format!(".EqualityCage{}", sigh::ids(&self.0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::kinds::notebook_solution_under as check;

    #[test]
    fn the_checker_counts_both_splits() {
        // r1c1 r2c1 hold 7 2: one odd, one even, one high, one low.
        assert_eq!(check("equality cage (r1c1 r2c1)"), Ok(()));
        // 7 1 2 3: one even of four.
        assert!(check("equality cage (r1c1 r1c2 r2c1 r2c2)").is_err_and(|e| e.contains("even")));
        // 1 5: the middle digit.
        assert!(check("equality cage (r1c2 r1c3)").is_err_and(|e| e.contains("neither")));
        // 7 9 (r1c1 r1c5): both odd.
        assert!(check("equality cage (r1c1 r1c5)").is_err());
        assert!(check("equality cage (r1c1 r1c2 r1c3)").is_err_and(|e| e.contains("even number")));
    }

    #[test]
    fn halves_split_the_digits() {
        let [(even, odd), (low, high)] = halves(9);
        assert_eq!((even, odd), (0b010101010, 0b101010101));
        assert_eq!((low, high), (0b000001111, 0b111100000));
        let [_, (low, high)] = halves(6);
        assert_eq!((low, high), (0b000111, 0b111000));
    }
}
