//! Equal sums, as sigh's Interactive Sudoku Solver states them (its
//! `EqualSum`): groups of cells ("segments") that all add up to the same
//! total. Digits may repeat, within a segment and between them.
//!
//! f-puzzles has no key for it: it is read from rule lines and sigh
//! strings (`.EqualSum~R1C1~R1C2~-~R3C3`, segments parted by `-`), and an
//! f-puzzles link leaves it out (see
//! [`unwritable`](crate::puzzle::fpuzzles::write::unwritable)).

use super::FromZero;
use super::{Added, Read, Rule, no_key, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{
    Context, bracketed, cells_of, index, list, listed_once, sum, weighted,
};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::Primitive;
use crate::puzzle::rule_text as text;
use crate::puzzle::sigh;
use crate::puzzle::sketch::{Mark, groups_in_turn};
use serde_json::Value;
use std::fmt;

/// Segments of cells that add up to the same total.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EqualSum(pub Vec<Vec<Cell>>);

/// sigh's separator between segments.
const SEPARATOR: &str = "-";

impl Read for EqualSum {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["equal sum", "equalsum"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    /// `equal sum (r1c1 r1c2) (r3c3) (r5c5 r5c6 r5c7)`: each bracketed
    /// group is a segment.
    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        Ok(one(EqualSum(text::groups(words, size)?)))
    }

    const SIGH: &'static [&'static str] = &["EqualSum"];

    /// `.EqualSum~CELL~…~-~CELL~…`. sigh's solver leaves an empty segment
    /// out (it states sums only between segments with cells), and so does
    /// reading.
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        let segments = item
            .args
            .split(|w| w.as_str() == SEPARATOR)
            .filter(|s| !s.is_empty())
            .map(|s| item.cells(s))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(one(EqualSum(segments)))
    }
}

impl fmt::Display for EqualSum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "equal sum {}", bracketed(&self.0))
    }
}

impl Rule for EqualSum {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        cells_of(&self.0)
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        if self.0.is_empty() || self.0.iter().any(Vec::is_empty) {
            return Err("an equal sum needs segments of one cell or more".into());
        }
        self.0.iter().try_for_each(|s| listed_once(s))
    }

    /// Each segment's total less the first's is 0 (a cell in both drops
    /// out of the difference).
    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        let first = index(size, &self.0[0]);
        self.0[1..]
            .iter()
            .map(|s| weighted(&index(size, s), &first))
            .filter(|terms| !terms.is_empty())
            .map(|terms| sum(terms, vec![0]))
            .collect()
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let want = board.total(&self.0[0]);
        self.0[1..].iter().find_map(|s| {
            let got = board.total(s);
            (got != want).then(|| {
                format!(
                    "({}) adds up to {want} and ({}) to {got}",
                    list(&self.0[0], " "),
                    list(s, " ")
                )
            })
        })
    }

    /// Each segment tinted in turn and outlined.
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        groups_in_turn(&self.0)
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }

    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        let segments: Vec<String> = self.0.iter().map(|s| sigh::ids(s)).collect();
        sigh::ToSigh::Item(format!(
            ".EqualSum{}",
            segments.join(&format!("~{SEPARATOR}"))
        ))
    }
}

#[cfg(test)]
mod tests {
    use crate::puzzle::kinds::notebook_solution_under as check;

    #[test]
    fn the_checker_compares_each_segment() {
        // 7 + 1 = 8 = r1c4.
        assert_eq!(check("equal sum (r1c1 r1c2) (r1c4)"), Ok(()));
        assert!(check("equal sum (r1c1 r1c2) (r1c4) (r1c3)").is_err());
        assert!(check("equal sum (r1c1 r1c2").is_err_and(|e| e.contains("not closed")));
        assert!(check("equal sum r1c1 (r1c2)").is_err_and(|e| e.contains("brackets")));
    }
}
