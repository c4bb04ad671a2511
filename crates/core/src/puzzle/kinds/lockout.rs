//! The lockout line (sigh's `Lockout`): its two ends (diamonds) differ by
//! at least a given amount, and every other cell of the line holds a digit
//! outside the range the ends span, neither between them nor equal to
//! either. sigh keeps the ends apart even for a difference of 0.
//!
//! f-puzzles has no key for it: it is read from rule lines and sigh
//! strings.

use super::FromZero;
use super::{Added, Read, Rule, no_key, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{Context, index, list, listed_once, pair};
use crate::puzzle::expr::{Compare, Num, Test};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::{Primitive, Relation};
use crate::puzzle::rule_text as text;
use crate::puzzle::sigh;
use crate::puzzle::sketch::{LineColour, Mark};
use serde_json::Value;
use std::fmt;
use std::sync::Arc;

/// sigh's default least difference, which a rule line without one takes.
const DEFAULT_DIFFERENCE: u8 = 4;

/// A lockout line: the ends differ by at least `difference` (and always
/// differ), and no other cell holds a digit from the smaller end to the
/// larger.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lockout {
    /// The least difference between the ends.
    pub difference: u8,
    /// The cells from one end to the other.
    pub cells: Vec<Cell>,
}

impl Read for Lockout {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["lockout", "lockout line"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    /// `lockout [D] CELLS`: D is sigh's default, 4, when left out.
    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let (difference, skip) = text::leading(words);
        let difference = match difference {
            Some(d) => u8::try_from(d).map_err(|_| format!("a difference of {d} is too large"))?,
            None => DEFAULT_DIFFERENCE,
        };
        Ok(one(Lockout {
            difference,
            cells: text::cells(&words[skip..], size)?,
        }))
    }
    const SIGH: &'static [&'static str] = &["Lockout"];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        let difference = item.number(item.args.first())?;
        let difference = u8::try_from(difference)
            .map_err(|_| item.invalid(format!("a difference of {difference} is too large")))?;
        Ok(one(Lockout {
            difference,
            cells: item.cells(&item.args[1..])?,
        }))
    }
}

impl fmt::Display for Lockout {
    /// `lockout 4 r1c1→r1c2→r1c3`, which reads back as the same line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "lockout {} {}", self.difference, list(&self.cells, "→"))
    }
}

impl Lockout {
    /// The two ends.
    fn ends(&self) -> (Cell, Cell) {
        (self.cells[0], self.cells[self.cells.len() - 1])
    }
}

impl Rule for Lockout {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        listed_once(&self.cells)?;
        if self.cells.len() < 2 {
            return Err("a lockout line needs two ends".into());
        }
        Ok(())
    }

    /// The ends as a pair at least the difference apart (at least 1: sigh
    /// keeps them apart), and each middle cell below both ends or above
    /// both, as a formula over the three; plus its differing from each
    /// end as pairs, which propagate before the ends are filled.
    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let cells = index(context.size, &self.cells);
        let (a, b) = (cells[0], cells[cells.len() - 1]);
        let mut out = vec![pair(
            a,
            b,
            Relation::DifferenceAtLeast(self.difference.max(1)),
        )];
        let cell = |c: usize| Box::new(Num::Cell(c));
        let both = |m: usize, compare: Compare| {
            Test::And(vec![
                Test::Compare(compare, cell(m), cell(a)),
                Test::Compare(compare, cell(m), cell(b)),
            ])
        };
        for &m in &cells[1..cells.len() - 1] {
            out.push(pair(m, a, Relation::Differ));
            out.push(pair(m, b, Relation::Differ));
            out.push(Primitive::Formula(Arc::new(Test::Or(vec![
                both(m, Compare::Lt),
                both(m, Compare::Gt),
            ]))));
        }
        out
    }

    /// As sigh states it: the ends too close (or equal), then a cell of
    /// the line from the smaller end to the larger.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let (a, b) = self.ends();
        let (x, y) = (board.digit(a), board.digit(b));
        if x == y || x.abs_diff(y) < self.difference {
            return Some(format!(
                "{}: the ends differ by less than {}",
                board.holds(&[a, b]),
                self.difference.max(1)
            ));
        }
        let (low, high) = (x.min(y), x.max(y));
        self.cells[1..self.cells.len() - 1]
            .iter()
            .find(|&&m| (low..=high).contains(&board.digit(m)))
            .map(|&m| format!("{}: locked out by the ends", board.holds(&[a, m, b])))
    }

    fn sketch(&self, _size: Size) -> Vec<Mark> {
        let (a, b) = self.ends();
        vec![
            Mark::Line {
                cells: self.cells.clone(),
                colour: LineColour::Lavender,
            },
            Mark::Square(a),
            Mark::Square(b),
            Mark::Note(format!(
                "{self}: the ends differ by at least {}, and no digit on the line lies \
                 from one end's to the other's",
                self.difference.max(1)
            )),
        ]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(format!(
            ".Lockout~{}{}",
            self.difference,
            sigh::ids(&self.cells)
        ))
    }
}

#[cfg(test)]
mod tests {
    use crate::puzzle::kinds::notebook_solution_under as check;

    #[test]
    fn the_checker_reads_the_rule_as_stated() {
        // r1c1..r1c4 hold 7 1 5 8: ends 7 and 8 differ by 1, and 1 and 5
        // lie outside them.
        assert!(check("lockout 1 r1c1 r1c2 r1c3 r1c4").is_ok());
        assert!(check("lockout 2 r1c1 r1c2 r1c3 r1c4").is_err());
        // r1c2 r1c3 r1c4 r1c5 hold 1 5 8 9: 5 and 8 lie between 1 and 9.
        assert!(check("lockout 1 r1c2 r1c3 r1c4 r1c5").is_err());
        // r1c3 r1c1 r1c2 r1c4: ends 5 and 8, middle 7 lies between them.
        assert!(check("lockout 3 r1c3 r1c1 r1c2 r1c4").is_err());
        // r1c3 r1c2 r1c4 r1c5 would be 5 1 8 9; 5 and 9 with 1 and 8: 8 is locked.
        assert!(check("lockout 4 r1c3 r1c2 r1c4 r1c5").is_err());
        // r1c2 (1), r1c4 (8), r1c3 (5): 8 lies outside 1..5.
        assert!(check("lockout 4 r1c2 r1c4 r1c3").is_ok());
        // Too close: 1 and 5 differ by 4, not 5.
        assert!(check("lockout 5 r1c2 r1c4 r1c3").is_err());
        assert!(check("lockout r1c1").is_err());
    }

    #[test]
    fn it_reads_back() {
        let size = crate::puzzle::grid::Size::from_side(9).unwrap_or_else(|| panic!("9x9"));
        let mut builder = crate::puzzle::rules::Rules::builder(size);
        crate::puzzle::rule_text::read_rules(&[(1, "lockout r1c2 r1c4 r1c3")], size, &mut builder)
            .unwrap_or_else(|e| panic!("{e}"));
        let rules = builder.build().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            rules.constraints()[0].to_string(),
            "lockout 4 r1c2→r1c4→r1c3"
        );
    }
}
