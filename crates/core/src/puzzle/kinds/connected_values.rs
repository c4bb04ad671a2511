//! Connected values (sigh's `ConnectedValues` over the grid): the cells
//! holding any of the given digits form one orthogonally connected region,
//! not empty; with a size, of exactly that many cells.
//!
//! sigh also states it over a group of its extra `Var` cells (a group
//! prefix before the digits); z3doku's boards have no such cells, so a
//! sigh item naming a group is refused, naming it. On z3doku's boards
//! every row holds each digit once, so the region always has `k·N` cells
//! for `k` digits on an NxN board: a size says nothing more, or cannot
//! hold. It is stated as given all the same (the puzzle is then without a
//! solution, as in sigh), and lowering gives every back end the `k·N` when
//! none is given, which bounds the region for Z3's distance labels and the
//! native engine's counts.
//!
//! f-puzzles has no key for it: it is read from rule lines and sigh
//! strings. A whole-board rule, its picture is its line in the legend.

use super::{Added, FromZero, Read, Rule, no_key, one};
use crate::puzzle::check::Board;
use crate::puzzle::connected::Connected;
use crate::puzzle::constraint::{Context, all_digits};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::Primitive;
use crate::puzzle::sigh;
use crate::puzzle::sketch::Mark;
use serde_json::Value;
use std::fmt;
use std::sync::Arc;

/// The cells holding a digit of `digits` are one connected region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ConnectedValues {
    /// Bit `d - 1` for each digit `d` of the set; never empty.
    pub digits: u32,
    /// How many cells the region has, when said.
    pub size: Option<u32>,
}

/// The largest digit any board has (25x25).
const MOST_DIGIT: u32 = 25;

/// The set of `words` read as digits, each from 1 to 25 (a digit the board
/// does not have is refused by `validate`, which knows the board).
fn digit_set(words: &[&str]) -> Result<u32, String> {
    if words.is_empty() {
        return Err("expected the digits: `connected values 1 2`".into());
    }
    let mut digits = 0u32;
    for word in words {
        match word.parse::<u32>() {
            Ok(d) if (1..=MOST_DIGIT).contains(&d) => digits |= 1 << (d - 1),
            _ => return Err(format!("{word:?} is not a digit")),
        }
    }
    Ok(digits)
}

/// A region's size: a whole number above 0.
fn region_size(word: &str) -> Result<u32, String> {
    match word.parse::<u32>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "a region's size is a whole number above 0, found {word:?}"
        )),
    }
}

impl Read for ConnectedValues {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["connected values", "connectedvalues"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    /// `connected values 1 2`, or `connected values 1 2 size 18`.
    fn from_text(_: &str, words: &[String], _: Size) -> Result<Vec<Added>, String> {
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let (digits, size) = match words.iter().position(|&w| w == "size") {
            Some(at) => match &words[at + 1..] {
                [n] => (&words[..at], Some(region_size(n)?)),
                _ => return Err("expected one number after `size`".into()),
            },
            None => (&words[..], None),
        };
        Ok(one(ConnectedValues {
            digits: digit_set(digits)?,
            size,
        }))
    }

    const SIGH: &'static [&'static str] = &["ConnectedValues"];

    /// `.ConnectedValues~~1_2` or `.ConnectedValues~~1_2~18`: the group
    /// prefix (empty for the grid), the values parted by `_`, the size.
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        let (prefix, values, size) = match item.args {
            [prefix, values] => (prefix, values, None),
            [prefix, values, size] => (prefix, values, Some(size)),
            _ => return Err(item.invalid("expected a group, the values and maybe a size")),
        };
        if !prefix.is_empty() {
            return Err(item.differs(format!(
                "the cell group `{prefix}`: z3doku's rule reads the grid's cells, not a group \
                 outside it"
            )));
        }
        let values: Vec<&str> = values.split(['_', ',']).collect();
        let digits = digit_set(&values).map_err(|e| item.invalid(e))?;
        let size = match size.map(String::as_str) {
            None | Some("") => None,
            Some(n) => Some(region_size(n).map_err(|e| item.invalid(e))?),
        };
        Ok(one(ConnectedValues { digits, size }))
    }
}

impl ConnectedValues {
    /// The digits of the set, lowest first.
    fn listed(&self) -> Vec<u32> {
        (1..=MOST_DIGIT)
            .filter(|d| self.digits >> (d - 1) & 1 == 1)
            .collect()
    }
}

impl fmt::Display for ConnectedValues {
    /// `connected values 1 2`, `connected values 1 2 size 18`: reads back
    /// as the same rule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits: Vec<String> = self.listed().iter().map(u32::to_string).collect();
        write!(f, "connected values {}", digits.join(" "))?;
        if let Some(n) = self.size {
            write!(f, " size {n}")?;
        }
        Ok(())
    }
}

impl Rule for ConnectedValues {
    /// It names values, and its reader takes them from 1 (a set with 0 in
    /// it could not be read): refused on a board from 0 rather than read
    /// as a different set.
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    /// Refused as sigh refuses it: a digit the board does not have.
    fn validate(&self, size: Size) -> Result<(), String> {
        if self.digits == 0 {
            return Err("no digits to connect".into());
        }
        match self
            .listed()
            .into_iter()
            .find(|&d| d as usize > size.values())
        {
            Some(d) => Err(format!("{d} is not a digit of the {size} board")),
            None => Ok(()),
        }
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        let digits = self.digits & all_digits(size);
        // Every long line holds each digit once (every row of a square):
        // each digit stands once per line, so without a size of its own
        // the region has that many cells per digit, which bounds it for
        // every back end.
        let implied = digits.count_ones() as usize * (size.cells() / size.values());
        let region = self.size.map_or(implied, |n| n as usize);
        vec![Primitive::Connected(Arc::new(Connected::new(
            (0..size.cells()).collect(),
            size.cols(),
            digits,
            Some(region),
        )))]
    }

    /// As the rule reads, by a flood fill over the grid: some cell holds a
    /// digit of the set, every such cell is reached from the first, and
    /// there are as many as the size says.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let size = board.size();
        let inside = |c: usize| {
            let d = board.grid.get(c);
            d != 0 && self.digits >> (d - 1) & 1 == 1
        };
        let members: Vec<usize> = (0..size.cells()).filter(|&c| inside(c)).collect();
        let Some(&first) = members.first() else {
            return Some("no cell holds one of its digits".into());
        };
        let mut reached = vec![false; size.cells()];
        reached[first] = true;
        let mut stack = vec![first];
        while let Some(c) = stack.pop() {
            for n in size.orthogonal(c) {
                if inside(n) && !reached[n] {
                    reached[n] = true;
                    stack.push(n);
                }
            }
        }
        if let Some(&apart) = members.iter().find(|&&c| !reached[c]) {
            return Some(format!(
                "{} and {} hold its digits and are not connected",
                size.cell_at(first),
                size.cell_at(apart)
            ));
        }
        match self.size {
            Some(n) if n as usize != members.len() => {
                Some(format!("its region has {} cells, not {n}", members.len()))
            }
            _ => None,
        }
    }

    fn sketch(&self, _size: Size) -> Vec<Mark> {
        Vec::new()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }

    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        let values: Vec<String> = self.listed().iter().map(u32::to_string).collect();
        let size = self.size.map(|n| format!("~{n}")).unwrap_or_default();
        sigh::ToSigh::Item(format!(".ConnectedValues~~{}{size}", values.join("_")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::kinds::notebook_solution_under as check;

    #[test]
    fn the_notebook_solution_is_judged_by_its_regions() {
        // The notebook's solution: its 1s and 2s are scattered (r1c2 and
        // r1c9 in the first row alone); its cells of 1 2 3 4 5 9 make one
        // region, those of 1 2 3 4 5 6 one region no more.
        assert!(check("connected values 1 2").is_err());
        assert!(check("connected values 1 2 3 4 5 9").is_ok());
        assert!(check("connected values 1 2 3 4 5 9 size 54").is_ok());
        assert!(check("connected values 1 2 3 4 5 6").is_err());
        // Every digit at once is the whole grid: connected.
        assert!(check("connected values 1 2 3 4 5 6 7 8 9").is_ok());
        assert!(check("connected values 1 2 3 4 5 6 7 8 9 size 81").is_ok());
        assert!(check("connected values 1 2 3 4 5 6 7 8 9 size 80").is_err());
        assert!(check("connected values 10").is_err());
        assert!(check("connected values").is_err());
        assert!(check("connected values 1 size").is_err());
    }

    #[test]
    fn sigh_items_read_and_write_back() {
        let rule = ConnectedValues {
            digits: 0b11,
            size: Some(18),
        };
        let board = sigh::SighBoard {
            size: Size::NINE,
            constraints: &[],
        };
        assert_eq!(
            rule.to_sigh(&board),
            sigh::ToSigh::Item(".ConnectedValues~~1_2~18".into())
        );
        assert_eq!(rule.to_string(), "connected values 1 2 size 18");
    }
}
