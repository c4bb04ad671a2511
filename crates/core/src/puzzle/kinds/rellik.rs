//! Rellik cages, as sigh's Interactive Sudoku Solver states them: the
//! cage's digits differ, and no one or more of them add up to its clue.
//!
//! f-puzzles has no key for them: they are read from rule lines and sigh
//! strings (`.RellikCage~10~R1C1~R1C2`), and an f-puzzles link leaves them
//! out (see [`unwritable`](crate::puzzle::fpuzzles::write::unwritable)).

use super::FromZero;
use super::{Added, Read, Rule, no_key, one, within_clause_bound};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{
    Context, all_digits, choose, index, list, listed_once, pair, subsets,
};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::{Primitive, Relation};
use crate::puzzle::rule_text as text;
use crate::puzzle::sigh;
use crate::puzzle::sketch::Mark;
use serde_json::Value;
use std::fmt;

/// A rellik cage: different digits, no one or more of which add up to
/// `sum`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RellikCage {
    /// The cells, at least one.
    pub cells: Vec<Cell>,
    /// The total no part of the cage may make.
    pub sum: u32,
}

/// Every set of `3..=most` different digits of `1..=side` that adds up to
/// `sum`, as bits (bit `d - 1` for digit `d`).
fn sets(side: usize, most: usize, sum: u32) -> Vec<u32> {
    fn walk(
        next: u32,
        side: u32,
        left: u32,
        set: u32,
        size: usize,
        most: usize,
        out: &mut Vec<u32>,
    ) {
        if left == 0 {
            if size >= 3 {
                out.push(set);
            }
            return;
        }
        if size == most {
            return;
        }
        for d in next..=side.min(left) {
            walk(
                d + 1,
                side,
                left - d,
                set | 1 << (d - 1),
                size + 1,
                most,
                out,
            );
        }
    }
    let mut out = Vec::new();
    walk(1, side as u32, sum, 0, 0, most, &mut out);
    out
}

impl RellikCage {
    /// How many clauses [`RellikCage::lower`] states for sets of three
    /// digits or more.
    fn clauses(&self, side: usize) -> usize {
        let n = self.cells.len();
        sets(side, n, self.sum)
            .iter()
            .map(|set| choose(n, set.count_ones() as usize))
            .fold(0usize, usize::saturating_add)
    }
}

impl Read for RellikCage {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["rellik cage", "rellikcage", "rellik"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    /// `rellik cage 10 (r1c1 r1c2 r2c1)`: the clue, then the cells.
    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let sum = text::number(words.first())?;
        Ok(one(RellikCage {
            cells: text::cells(&words[1..], size)?,
            sum,
        }))
    }

    const SIGH: &'static [&'static str] = &["RellikCage"];

    /// `.RellikCage~SUM~CELL~…`.
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        let sum = item.number(item.args.first())?;
        let cells = item.cells(item.args.get(1..).unwrap_or_default())?;
        Ok(one(RellikCage { cells, sum }))
    }
}

impl fmt::Display for RellikCage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rellik cage {} ({})", self.sum, list(&self.cells, " "))
    }
}

impl Rule for RellikCage {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        listed_once(&self.cells)?;
        let (n, side) = (self.cells.len(), size.side());
        if n == 0 {
            return Err("a rellik cage needs at least one cell".into());
        }
        if n > side {
            return Err(format!(
                "{n} cells cannot hold different digits from 1 to {side}"
            ));
        }
        // sigh refuses a clue of 0 outright (no digits at all make 0).
        if self.sum == 0 {
            return Err("a rellik cage's clue is at least 1".into());
        }
        within_clause_bound(self.clauses(side))
    }

    /// Different digits; no cell holds the clue; no two cells add up to it
    /// (a pair relation, which both engines propagate from either side);
    /// and for each set of three or more different digits that adds up to
    /// it, not all of them are in the cage. With the digits different,
    /// "all of a set of `k` are in the cage" is "some `k` cells hold only
    /// digits of the set", so each `k` cells get one clause: one of them
    /// holds a digit outside the set.
    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        let side = size.side();
        let cells = index(size, &self.cells);
        let mut out = vec![Primitive::Distinct {
            cells: cells.clone(),
            sum: None,
        }];
        if let Ok(s) = usize::try_from(self.sum)
            && (1..=side).contains(&s)
        {
            out.extend(cells.iter().map(|&cell| Primitive::Allowed {
                cell,
                digits: all_digits(size) & !(1 << (s - 1)),
            }));
        }
        if (3..2 * side as u32).contains(&self.sum) {
            for (k, &a) in cells.iter().enumerate() {
                for &b in &cells[k + 1..] {
                    out.push(pair(a, b, Relation::SumIsNot(self.sum as u8)));
                }
            }
        }
        for set in sets(side, cells.len(), self.sum) {
            let outside = all_digits(size) & !set;
            for group in subsets(&cells, set.count_ones() as usize) {
                out.push(Primitive::Any {
                    literals: group.into_iter().map(|c| (c, outside)).collect(),
                });
            }
        }
        out
    }

    /// A repeat, then every one or more of the cage's digits, summed.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        if let Some(repeat) = board.repeat(&self.cells) {
            return Some(repeat);
        }
        let n = self.cells.len();
        (1u32..1 << n).find_map(|chosen| {
            let part: Vec<Cell> = (0..n)
                .filter(|&k| chosen >> k & 1 == 1)
                .map(|k| self.cells[k])
                .collect();
            (board.total(&part) == self.sum)
                .then(|| format!("{} add up to {}", board.holds(&part), self.sum))
        })
    }

    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![Mark::Cage {
            cells: self.cells.clone(),
            label: Some(format!("≠{}", self.sum)),
        }]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }

    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(format!(
            ".RellikCage~{}{}",
            self.sum,
            sigh::ids(&self.cells)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::kinds::notebook_solution_under as check;

    #[test]
    fn the_checker_sums_every_part() {
        // r1c1..r1c3 hold 7 1 5: their parts make 1, 5, 6, 7, 8, 12, 13.
        assert_eq!(check("rellik cage 9 (r1c1 r1c2 r1c3)"), Ok(()));
        let two = check("rellik cage 6 (r1c1 r1c2 r1c3)").unwrap_err();
        assert!(
            two.contains("r1c2 holds 1 and r1c3 holds 5 add up to 6"),
            "{two}"
        );
        assert!(check("rellik cage 13 (r1c1 r1c2 r1c3)").is_err());
        assert!(check("rellik cage 5 (r1c1 r1c2 r1c3)").is_err());
        assert!(check("rellik cage 0 (r1c1 r1c2)").is_err_and(|e| e.contains("at least 1")));
    }

    #[test]
    fn sets_of_three_or_more_add_up() {
        // 10 from 1..9 in three or more different digits.
        let found = sets(9, 9, 10);
        let mut as_digits: Vec<Vec<u8>> = found
            .iter()
            .map(|s| (1..=9).filter(|d| s >> (d - 1) & 1 == 1).collect())
            .collect();
        as_digits.sort();
        assert_eq!(
            as_digits,
            [
                vec![1, 2, 3, 4],
                vec![1, 2, 7],
                vec![1, 3, 6],
                vec![1, 4, 5],
                vec![2, 3, 5]
            ]
        );
        assert!(sets(9, 3, 10).iter().all(|s| s.count_ones() == 3));
        assert_eq!(subsets(&[1, 2, 3, 4], 3).len(), 4);
        assert_eq!(choose(9, 4), 126);
    }
}
