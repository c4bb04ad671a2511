//! Look-and-say (sigh's `LookAndSay`): the clue is read as (count, digit)
//! pairs, each pair saying the cells hold exactly that many of that digit
//! (`1223`: exactly one 2 and exactly two 3s; a count of 0, none of it).
//! Digits the clue does not name are free.
//!
//! f-puzzles has no key for it: it is read from rule lines and sigh
//! strings.

use super::FromZero;
use super::pairs::{MOST_CLAUSES, choose};
use super::{Added, Read, Rule, no_key, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{Context, all_digits, index, list, listed_once, subsets};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::Primitive;
use crate::puzzle::rule_text as text;
use crate::puzzle::sigh;
use crate::puzzle::sketch::{Mark, Tint};
use serde_json::Value;
use std::fmt;

/// A look-and-say clue over some cells.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LookAndSay {
    /// `(count, digit)` pairs, in the clue's order.
    pub clue: Vec<(u8, u8)>,
    /// The cells.
    pub cells: Vec<Cell>,
}

/// The pairs of a clue written as decimal digits, an even number of them.
fn pairs(clue: &str) -> Option<Vec<(u8, u8)>> {
    let digits: Vec<u8> = clue
        .chars()
        .map(|c| c.to_digit(10).map(|d| d as u8))
        .collect::<Option<_>>()?;
    (!digits.is_empty() && digits.len().is_multiple_of(2))
        .then(|| digits.chunks(2).map(|p| (p[0], p[1])).collect())
}

impl Read for LookAndSay {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["look and say", "lookandsay"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    /// `look and say 1223 (CELLS)`.
    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let word = words.first().map_or("", String::as_str);
        let clue = pairs(word).ok_or_else(|| {
            format!("expected a clue of (count, digit) pairs such as 1223, found {word:?}")
        })?;
        Ok(one(LookAndSay {
            clue,
            cells: text::cells(&words[1..], size)?,
        }))
    }
    const SIGH: &'static [&'static str] = &["LookAndSay"];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        let word = item.args.first().map_or("", String::as_str);
        let clue = pairs(word)
            .ok_or_else(|| item.invalid("the clue must be (count, value) digit pairs"))?;
        Ok(one(LookAndSay {
            clue,
            cells: item.cells(&item.args[1..])?,
        }))
    }
}

impl LookAndSay {
    /// The clue as written: `1223`.
    fn clue_text(&self) -> String {
        self.clue.iter().map(|(n, d)| format!("{n}{d}")).collect()
    }
}

impl fmt::Display for LookAndSay {
    /// `look and say 1223 (r1c1 r1c2 r1c3)`, which reads back as the same
    /// rule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "look and say {} ({})",
            self.clue_text(),
            list(&self.cells, " ")
        )
    }
}

impl Rule for LookAndSay {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    /// Refused as sigh refuses it: a digit named twice with a count that
    /// is not 0; and a digit the board does not have.
    fn validate(&self, size: Size) -> Result<(), String> {
        listed_once(&self.cells)?;
        for (k, &(count, digit)) in self.clue.iter().enumerate() {
            if digit == 0 || usize::from(digit) > size.side() {
                return Err(format!("{digit} is not a digit of the {size} board"));
            }
            if count > 0 && self.clue[..k].iter().any(|&(n, d)| d == digit && n > 0) {
                return Err(format!("the clue names {digit} twice"));
            }
            if choose(self.cells.len(), usize::from(count) + 1) > MOST_CLAUSES {
                return Err(format!(
                    "too many cells to say exactly how many hold {digit}"
                ));
            }
        }
        Ok(())
    }

    /// A count of 0 takes the digit from every cell; another is "at least
    /// so many" and "of any so many and one more, one is not it".
    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        let all = all_digits(size);
        let cells = index(size, &self.cells);
        let mut out = Vec::new();
        for &(count, digit) in &self.clue {
            let not = all & !(1 << (digit - 1));
            if count == 0 {
                out.extend(
                    cells
                        .iter()
                        .map(|&cell| Primitive::Allowed { cell, digits: not }),
                );
                continue;
            }
            out.push(Primitive::Contains {
                cells: cells.clone(),
                digit,
                count: usize::from(count),
            });
            out.extend(
                subsets(&cells, usize::from(count) + 1)
                    .into_iter()
                    .map(|some| Primitive::Any {
                        literals: some.into_iter().map(|c| (c, not)).collect(),
                    }),
            );
        }
        out
    }

    /// As the clue reads: each pair's digit held as many times as its
    /// count.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        self.clue.iter().find_map(|&(count, digit)| {
            let held = self
                .cells
                .iter()
                .filter(|&&c| board.digit(c) == digit)
                .count();
            (held != usize::from(count))
                .then(|| format!("the cells hold {digit} {held} times, and the clue says {count}"))
        })
    }

    fn sketch(&self, _size: Size) -> Vec<Mark> {
        let mut marks = vec![Mark::Shade {
            cells: self.cells.clone(),
            tint: Tint::Grey,
        }];
        if let Some(&cell) = self.cells.iter().min() {
            marks.push(Mark::CornerText {
                cell,
                text: self.clue_text(),
            });
        }
        marks.push(Mark::Note(format!(
            "{self}: the clue is (count, digit) pairs, each digit held exactly so often"
        )));
        marks
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(format!(
            ".LookAndSay~{}{}",
            self.clue_text(),
            sigh::ids(&self.cells)
        ))
    }
}

#[cfg(test)]
mod tests {
    use crate::puzzle::kinds::notebook_solution_under as check;

    #[test]
    fn the_clue_counts_digits() {
        // r1c1 r3c4 r5c3 hold 7 7 7; r1c2 holds 1.
        assert!(check("look and say 37 (r1c1 r3c4 r5c3)").is_ok());
        assert!(check("look and say 2703 (r1c1 r3c4 r5c3)").is_err());
        assert!(check("look and say 1103 (r1c1 r1c2)").is_ok());
        assert!(check("look and say 1101 (r1c1 r1c2)").is_err());
        assert!(check("look and say 1717 (r1c1 r1c2)").is_err());
        assert!(check("look and say 123 (r1c1 r1c2)").is_err());
    }
}
