//! Same value sets, as sigh's Interactive Sudoku Solver states them (its
//! `SameValues`): sets of as many cells each hold the same values, each
//! as often (a value twice in one set stands twice in every other).
//!
//! Sets of one cell are clones, and are read as z3doku's
//! [`Clones`](super::cells::Clones), cell by cell; sets of several cells
//! are this rule.
//!
//! Stated for each other set beside the first: for each value, as many
//! of its cells hold it as of the first's (a count per value, exact);
//! beside that, what every solution keeps anyway and propagates at once:
//! a value in a cell of one set stands in some cell of the other, and
//! both add up to the same total.
//!
//! f-puzzles has no key for it: it is read from rule lines (`same values
//! (r1c1 r1c2) (r3c3 r3c4)`) and sigh strings (`.SameValues~2~R1C1~R1C2
//! ~R3C3~R3C4`, the number of sets, then their cells one set after the
//! other).

use super::cells::Clones;
use super::{Added, FromZero, Read, Rule, no_key, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{
    Context, all_digits, bracketed, cells_of, held_also, index, list, listed_once, sum, weighted,
};
use crate::puzzle::expr::{Compare, Num, Test};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::Primitive;
use crate::puzzle::rule_text as text;
use crate::puzzle::sigh;
use crate::puzzle::sketch::{Mark, groups_in_turn};
use serde_json::Value;
use std::fmt;
use std::sync::Arc;

/// Sets of cells, of as many cells each, that hold the same values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SameValues(pub Vec<Vec<Cell>>);

impl Read for SameValues {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["same values", "samevalues"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    /// `same values (r1c1 r1c2) (r3c3 r3c4)`: each bracketed group is a
    /// set.
    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        Ok(one(SameValues(text::groups(words, size)?)))
    }

    const SIGH: &'static [&'static str] = &["SameValues"];

    /// `.SameValues~SETS~CELL~…`: the cells, parted into `SETS` sets of
    /// as many cells in order. Sets of one cell are clones.
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        let sets = item.number(item.args.first())? as usize;
        let cells = item.cells(&item.args[1..])?;
        if sets < 2 || cells.len() % sets != 0 {
            return Err(item.invalid(format!("{} cells in {sets} sets", cells.len())));
        }
        let length = cells.len() / sets;
        if length > 1 {
            let sets = cells.chunks(length).map(<[Cell]>::to_vec).collect();
            return Ok(one(SameValues(sets)));
        }
        // A set that repeats the first's cell says nothing (and is not
        // written back).
        Ok(cells[1..]
            .iter()
            .filter(|&&other| other != cells[0])
            .map(|&other| {
                Added::Constraint(
                    Clones {
                        cells: vec![cells[0]],
                        clones: vec![other],
                    }
                    .into(),
                )
            })
            .collect())
    }
}

impl fmt::Display for SameValues {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "same values {}", bracketed(&self.0))
    }
}

/// How many of `cells` hold `digit`.
fn count(digit: u8, cells: &[usize]) -> Num<usize> {
    Num::Count(
        Box::new(Num::Literal(i64::from(digit))),
        cells.iter().map(|&c| Num::Cell(c)).collect(),
    )
}

impl Rule for SameValues {
    /// It compares values only, and every value one more keeps them the
    /// same.
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        cells_of(&self.0)
    }

    /// Two sets or more, of as many cells each, none named twice in a set
    /// (sigh lets the sets share cells, and so does z3doku).
    fn validate(&self, _: Size) -> Result<(), String> {
        let length = self.0.first().map_or(0, Vec::len);
        if self.0.len() < 2 || length == 0 {
            return Err("same values needs two sets of one cell or more".into());
        }
        if let Some(other) = self.0.iter().find(|s| s.len() != length) {
            return Err(format!(
                "its sets hold {length} and {} cells, and must be of one size",
                other.len()
            ));
        }
        self.0.iter().try_for_each(|s| listed_once(s))
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        let first = index(size, &self.0[0]);
        let all = all_digits(size);
        let mut out = Vec::new();
        for set in &self.0[1..] {
            let other = index(size, set);
            let terms = weighted(&other, &first);
            if terms.is_empty() {
                // The same cells: nothing to say.
                continue;
            }
            out.push(sum(terms, vec![0]));
            for digit in 1..=size.values() as u8 {
                let bit = 1 << (digit - 1);
                for (from, to) in [(&first, &other), (&other, &first)] {
                    for &cell in from.iter().filter(|c| !to.contains(c)) {
                        out.push(held_also(cell, bit, all, to));
                    }
                }
                out.push(Primitive::Formula(Arc::new(Test::Compare(
                    Compare::Eq,
                    Box::new(count(digit, &other)),
                    Box::new(count(digit, &first)),
                ))));
            }
        }
        out
    }

    /// Each set's values, sorted, against the first's.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let values = |set: &[Cell]| {
            let mut digits: Vec<u8> = set.iter().map(|&c| board.digit(c)).collect();
            digits.sort_unstable();
            digits
        };
        let shown = |set: &[Cell]| {
            let digits: Vec<String> = values(set)
                .iter()
                .map(|&d| board.rules.value_char(d).to_string())
                .collect();
            format!("({}) holds {}", list(set, " "), digits.join(" "))
        };
        let want = values(&self.0[0]);
        self.0[1..]
            .iter()
            .find(|set| values(set) != want)
            .map(|set| format!("{} and {}", shown(&self.0[0]), shown(set)))
    }

    /// Each set tinted in turn and outlined.
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        groups_in_turn(&self.0)
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }

    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        let cells: Vec<String> = self.0.iter().map(|s| sigh::ids(s)).collect();
        sigh::ToSigh::Item(format!(".SameValues~{}{}", self.0.len(), cells.concat()))
    }
}

#[cfg(test)]
mod tests {
    use crate::puzzle::kinds::notebook_solution_under as check;

    #[test]
    fn the_checker_compares_the_values_of_each_set() {
        // The notebook's solution starts 7 1 5 8 9 4 and its second row
        // 2 3 4 5 1 6: r1c2 r1c3 (1 5) and r2c5 r2c4 (1 5) hold the same.
        assert_eq!(check("same values (r1c2 r1c3) (r2c5 r2c4)"), Ok(()));
        assert_eq!(check("same values (r1c2 r1c3) (r2c4 r2c5)"), Ok(()));
        let error = check("same values (r1c1 r1c2) (r2c1 r2c2)").unwrap_err();
        assert!(
            error.contains("(r1c1 r1c2) holds 1 7 and (r2c1 r2c2) holds 2 3"),
            "{error}"
        );
        assert!(check("same values (r1c1 r1c2) (r2c1)").is_err_and(|e| e.contains("one size")));
        assert!(check("same values (r1c1 r1c2)").is_err_and(|e| e.contains("two sets")));
    }
}
