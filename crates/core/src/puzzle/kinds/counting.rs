//! Counting circles, as sigh's Interactive Sudoku Solver states them: the
//! digit in each circle is how many of the circles hold that digit (a 3
//! in a circle means exactly three circles hold 3). Each rule is one set
//! of circles, counted apart from any other set.
//!
//! f-puzzles has no key for them: they are read from rule lines and sigh
//! strings (`.CountingCircles~R1C1~R2C5~…`), and an f-puzzles link leaves
//! them out (see [`unwritable`](crate::puzzle::fpuzzles::write::unwritable)).

use super::FromZero;
use super::{Added, Read, Rule, no_key, one, within_clause_bound};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{
    Context, all_digits, choose, digit_range, index, list, listed_once, subsets,
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

/// A set of counting circles.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CountingCircles(pub Vec<Cell>);

impl CountingCircles {
    /// The digits a circle may hold on a board of `side`: none above the
    /// number of circles.
    fn most(&self, side: usize) -> usize {
        self.0.len().min(side)
    }

    /// How many "at most `d` circles hold `d`" clauses [`CountingCircles::lower`]
    /// states.
    fn clauses(&self, side: usize) -> usize {
        let n = self.0.len();
        (1..=self.most(side))
            .filter(|&d| d < n)
            .map(|d| choose(n, d + 1))
            .fold(0usize, usize::saturating_add)
    }
}

impl Read for CountingCircles {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["counting circles", "countingcircles"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    /// `counting circles (r1c1 r2c5 r7c3)`.
    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        Ok(one(CountingCircles(text::cells(words, size)?)))
    }

    const SIGH: &'static [&'static str] = &["CountingCircles"];

    /// `.CountingCircles~CELL~…`.
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        Ok(one(CountingCircles(item.cells(item.args)?)))
    }
}

impl fmt::Display for CountingCircles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "counting circles ({})", list(&self.0, " "))
    }
}

impl Rule for CountingCircles {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        self.0.clone()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        listed_once(&self.0)?;
        if self.0.is_empty() {
            return Err("counting circles need at least one circle".into());
        }
        within_clause_bound(self.clauses(size.side()))
    }

    /// For each digit `d`, the circles holding it number 0 or `d`: no
    /// circle holds a digit above the number of circles; a circle holding
    /// `d` means at least `d` circles hold it; and of any `d + 1` circles
    /// one holds another digit (at most `d` hold it).
    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        let side = size.side();
        let cells = index(size, &self.0);
        let most = self.most(side);
        let mut out = Vec::new();
        if most < side {
            out.extend(cells.iter().map(|&cell| Primitive::Allowed {
                cell,
                digits: digit_range(1, most),
            }));
        }
        for d in 1..=most as u8 {
            for &cell in &cells {
                if d > 1 {
                    out.push(Primitive::When {
                        when: vec![(cell, d)],
                        then: Box::new(Primitive::Contains {
                            cells: cells.clone(),
                            digit: d,
                            count: usize::from(d),
                        }),
                    });
                }
            }
            if usize::from(d) < cells.len() {
                let other = all_digits(size) & !(1 << (d - 1));
                for group in subsets(&cells, usize::from(d) + 1) {
                    out.push(Primitive::Any {
                        literals: group.into_iter().map(|c| (c, other)).collect(),
                    });
                }
            }
        }
        out
    }

    /// Each circle's digit against the circles that hold it.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        self.0.iter().find_map(|&circle| {
            let d = board.digit(circle);
            let holding = self.0.iter().filter(|&&c| board.digit(c) == d).count();
            (holding != usize::from(d))
                .then(|| format!("{circle} holds {d}, and {holding} of the circles hold {d}"))
        })
    }

    fn sketch(&self, _size: Size) -> Vec<Mark> {
        self.0.iter().map(|&cell| Mark::Ring(cell)).collect()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }

    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(format!(".CountingCircles{}", sigh::ids(&self.0)))
    }
}

#[cfg(test)]
mod tests {
    use crate::puzzle::kinds::notebook_solution_under as check;

    #[test]
    fn the_checker_counts_each_circle() {
        // r1c2 r2c1 r5c4 hold 1 2 2.
        assert_eq!(check("counting circles (r1c2 r2c1 r5c4)"), Ok(()));
        // 1 2 4: one 2, one 4.
        assert!(
            check("counting circles (r1c2 r2c1 r2c3)").is_err_and(|e| e.contains("r2c1 holds 2"))
        );
    }
}
