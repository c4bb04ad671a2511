//! Region same values, as sigh's Interactive Sudoku Solver states it
//! (`RegionSameValues`): the largest regions of the board (rows, columns,
//! boxes or jigsaw pieces, whichever hold the most cells) all hold the
//! same set of values.
//!
//! Each of those regions keeps its values apart, so on a board with as
//! many values as its largest regions have cells each holds every value
//! and the rule says nothing, as sigh states nothing there. It matters on
//! boards with more values than that (`Shape~9x9~10`, `Shape~6x9~10`):
//! every row, column and box of a 9x9 on 1 to 10 then lacks the same
//! value.
//!
//! Stated as clauses: with the regions in a row, a value one region holds
//! the next holds too. Each region's values are then among the next's,
//! and as every region holds as many different values (one per cell), all
//! hold the same. For each cell of a region but the last and each value,
//! the cell does not hold it or a cell of the next region does.
//!
//! f-puzzles has no key for it; it is read from sigh strings
//! (`.RegionSameValues`) and rule lines (`region same values`).

use super::global::no_words;
use super::{Added, FromZero, Read, Rule, no_key, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{Context, all_digits, held_also};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::Primitive;
use crate::puzzle::sigh;
use crate::puzzle::sketch::Mark;
use serde_json::Value;
use std::fmt;

/// The largest regions hold the same values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RegionSameValues;

impl Read for RegionSameValues {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["region same values"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    fn from_text(name: &str, words: &[String], _: Size) -> Result<Vec<Added>, String> {
        no_words(name, words)?;
        Ok(one(RegionSameValues))
    }

    const SIGH: &'static [&'static str] = &["RegionSameValues"];

    /// On a board whose largest regions hold every value, where sigh
    /// states nothing, nothing is added: the puzzle stays as fast as one
    /// without it (a classic board stays classic).
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        match item.size.values() > item.size.side() {
            true => Ok(one(RegionSameValues)),
            false => Ok(Vec::new()),
        }
    }
}

impl fmt::Display for RegionSameValues {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("region same values")
    }
}

/// The regions the rule ties together, each named, as sigh picks them:
/// of the rows, the columns and `regions` (boxes or jigsaw pieces), those
/// with the most cells. None when those hold every value of the board
/// (each then holds all of them) or there is only one.
fn largest(size: Size, regions: &[Vec<usize>]) -> Vec<(String, Vec<usize>)> {
    let (rows, cols) = (size.rows(), size.cols());
    let mut all: Vec<(String, Vec<usize>)> = Vec::new();
    all.extend((0..rows).map(|r| {
        (
            format!("row {}", r + 1),
            (r * cols..(r + 1) * cols).collect(),
        )
    }));
    all.extend((0..cols).map(|c| {
        let cells = (0..rows).map(|r| r * cols + c).collect();
        (format!("column {}", c + 1), cells)
    }));
    all.extend(
        regions
            .iter()
            .enumerate()
            .map(|(k, cells)| (format!("region {}", k + 1), cells.clone())),
    );
    let most = all.iter().map(|(_, cells)| cells.len()).max().unwrap_or(0);
    all.retain(|(_, cells)| cells.len() == most);
    match most < size.values() && all.len() > 1 {
        true => all,
        false => Vec::new(),
    }
}

impl Rule for RegionSameValues {
    fn on_values_from_zero(&self) -> FromZero {
        // Sets of values are equal exactly when the digits one more are.
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        let regions = largest(size, context.regions);
        let all = all_digits(size);
        let mut out = Vec::new();
        for ((_, from), (_, to)) in regions.iter().zip(regions.iter().skip(1)) {
            for &cell in from {
                for digit in 1..=size.values() as u8 {
                    let bit = 1 << (digit - 1);
                    out.push(held_also(cell, bit, all, to));
                }
            }
        }
        out
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let regions = largest(board.size(), board.rules.regions());
        let held = |cells: &[usize]| -> u32 {
            cells
                .iter()
                .fold(0, |m, &c| m | 1 << (board.grid.get(c) - 1))
        };
        let (first, cells) = regions.first()?;
        let values = held(cells);
        regions.iter().find_map(|(name, cells)| {
            let other = held(cells);
            let only = values & !other;
            (only != 0).then(|| {
                let digit = only.trailing_zeros() as u8 + 1;
                let value = board.rules.value_char(digit);
                format!("{first} holds {value} and {name} does not")
            })
        })
    }

    fn sketch(&self, _: Size) -> Vec<Mark> {
        Vec::new()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }

    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(".RegionSameValues".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::check::verify_solution;
    use crate::puzzle::grid::Grid;
    use crate::puzzle::sigh::parse;

    #[test]
    fn the_checker_reads_the_rule_as_stated() {
        // Rows 123, 234 and 341 on 1 to 4: a Latin array whose rows hold
        // different values.
        let open = parse(".Shape~3x3~4").unwrap();
        let tied = parse(".Shape~3x3~4.RegionSameValues").unwrap();
        let grid = Grid::from_cells(open.size(), &[1, 2, 3, 2, 3, 4, 3, 4, 1]).unwrap();
        assert!(verify_solution(&open, &grid).is_ok());
        let error = verify_solution(&tied, &grid).unwrap_err().to_string();
        assert!(
            error.contains("row 1 holds 1 and row 2 does not"),
            "{error}"
        );
        let same = Grid::from_cells(open.size(), &[1, 2, 3, 2, 3, 1, 3, 1, 2]).unwrap();
        assert!(verify_solution(&tied, &same).is_ok());
    }

    #[test]
    fn only_the_largest_regions_that_lack_values_are_tied() {
        // `count` boxes of 3x3, three across a board 9 wide.
        let boxes = |count: usize| -> Vec<Vec<usize>> {
            let cell = |b: usize, k: usize| (b / 3 * 3 + k / 3) * 9 + b % 3 * 3 + k % 3;
            (0..count)
                .map(|b| (0..9).map(|k| cell(b, k)).collect())
                .collect()
        };
        // A 9x9 on 1 to 10: its 27 houses of 9 cells.
        let ten = Size::NINE.with_values(10).unwrap_or(Size::NINE);
        let tied = largest(ten, &boxes(9));
        assert_eq!(tied.len(), 27);
        assert_eq!(tied[26].0, "region 9");
        // On 1 to 9 each holds every value: nothing is tied.
        assert!(largest(Size::NINE, &boxes(9)).is_empty());
        // A 6x9 on 1 to 10: its 6 rows of 9 and 6 boxes, not its columns
        // of 6.
        let wide = Size::rectangle(6, 9).and_then(|s| s.with_values(10));
        let names: Vec<String> = largest(wide.unwrap_or(Size::NINE), &boxes(6))
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(names.len(), 12);
        assert!(names.iter().all(|n| !n.starts_with("column")));
    }
}
