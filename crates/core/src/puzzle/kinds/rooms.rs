//! Outside clues that name a digit in their row or column, as sigh's
//! Interactive Sudoku Solver states them: hidden skyscrapers and numbered
//! rooms.
//!
//! f-puzzles has no key for them: they are read from rule lines (the clue,
//! then the row or column as for skyscrapers), and an f-puzzles link
//! leaves them out (see
//! [`unwritable`](crate::puzzle::fpuzzles::write::unwritable)).

use super::FromZero;
use super::outside::{Outside, clue_words, sigh_clue, sigh_clues};
use super::{Added, Read, Rule, no_key, one};
use crate::puzzle::automaton::Automaton;
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{Context, all_digits, digit_range, index, pair};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::{Primitive, Relation};
use crate::puzzle::sigh;
use crate::puzzle::sketch::Mark;
use serde_json::Value;
use std::fmt;
use std::sync::Arc;

/// A digit clue's value as a digit, or why it is not one.
fn digit_of(clue: u32, size: Size) -> Result<u8, String> {
    match u8::try_from(clue) {
        Ok(d) if d >= 1 && usize::from(d) <= size.values() => Ok(d),
        _ => Err(format!("{clue} is not a digit of the {size} board")),
    }
}

/// Seen from the clue, with digits as building heights, the first
/// building hidden behind a taller one is `digit`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HiddenSkyscraper {
    /// The row or column and the end the clue is at.
    pub line: Outside,
    /// The first hidden building's height.
    pub digit: u8,
}

impl Read for HiddenSkyscraper {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["hidden skyscraper", "hiddenskyscraper"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let (clue, line) = clue_words(words, size)?;
        Ok(one(HiddenSkyscraper {
            line,
            digit: digit_of(clue, size)?,
        }))
    }
    const SIGH: &'static [&'static str] = &["HiddenSkyscraper"];
    /// `.HiddenSkyscraper~R3~FRONT~BACK`, either clue empty.
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        sigh_clues(item, |line, clue| {
            HiddenSkyscraper {
                line,
                digit: u8::try_from(clue).unwrap_or(u8::MAX),
            }
            .into()
        })
    }
}

impl fmt::Display for HiddenSkyscraper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "hidden skyscraper {} ({})", self.digit, self.line)
    }
}

/// The first building hidden behind a taller one is `digit`, read along
/// the line from the clue: a state for the tallest building so far (0
/// before the first) while none is hidden, and one for once `digit` was
/// the first hidden, which any digit keeps; a building lower than the
/// tallest so far moves there only if it is `digit`.
fn hidden_automaton(values: usize, digit: u8) -> Automaton {
    let found = values + 1;
    let mut edges = vec![(found, found, digit_range(1, values))];
    for top in 0..=values {
        edges.extend((top + 1..=values).map(|x| (top, x, 1u32 << (x - 1))));
        if usize::from(digit) < top {
            edges.push((top, found, 1u32 << (digit - 1)));
        }
    }
    Automaton {
        states: values + 2,
        start: vec![0],
        accept: vec![found],
        edges,
    }
}

impl Rule for HiddenSkyscraper {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        digit_of(u32::from(self.digit), size).map(|_| ())
    }

    /// The line, a row or column (so its digits differ), as a
    /// [`Primitive::FirstHidden`] whose plain form is the line read by
    /// [`hidden_automaton`]: the native search narrows each cell by the
    /// runs it allows (the `When`s of [`Rule::lower_as_formulas`] took 7%
    /// more instructions on the 6x9 puzzle of
    /// `benches/data/rectangles.txt`), and the one-hot encodings state the
    /// rule by the cells rising, in fewer terms than the automaton (73
    /// million instructions for `bool` with the `When`s, 51 with the
    /// automaton, 34 so).
    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        let cells = index(size, &self.line.cells(size));
        let plain = Primitive::Automaton {
            cells: cells.clone(),
            automaton: Arc::new(hidden_automaton(size.values(), self.digit)),
        };
        vec![Primitive::FirstHidden {
            cells,
            digit: self.digit,
            plain: Arc::new(vec![plain]),
        }]
    }

    /// The line holds `digit` at most once (it is a row or column), and
    /// at least once on a short line of a rectangle, which holds only
    /// some of the values (a full line holds them all); where it stands
    /// at place `p`, the cells before it rise (so each is seen) and the
    /// last of them is taller than it. The first cell is always seen, so
    /// it is not `digit`.
    fn lower_as_formulas(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        let side = size.values();
        let cells = index(size, &self.line.cells(size));
        let d = self.digit;
        let rise = (1..side as i32).collect::<Vec<i32>>();
        let mut out = vec![Primitive::Allowed {
            cell: cells[0],
            digits: all_digits(size) & !(1 << (d - 1)),
        }];
        if !self.line.is_full(size) {
            out.push(Primitive::Contains {
                cells: cells[1..].to_vec(),
                digit: d,
                count: 1,
            });
        }
        for p in 1..cells.len() {
            let when = vec![(cells[p], d)];
            out.push(Primitive::When {
                when: when.clone(),
                then: Box::new(Primitive::Allowed {
                    cell: cells[p - 1],
                    digits: digit_range(usize::from(d) + 1, side),
                }),
            });
            for k in 0..p - 1 {
                out.push(Primitive::When {
                    when: when.clone(),
                    then: Box::new(Primitive::Sum {
                        terms: vec![(cells[k + 1], 1), (cells[k], -1)],
                        totals: rise.clone(),
                    }),
                });
            }
        }
        out
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let mut top = 0;
        for cell in self.line.cells(board.size()) {
            let d = board.digit(cell);
            if d < top {
                return (d != self.digit)
                    .then(|| format!("the first hidden building is {d}, at {cell}"));
            }
            top = d;
        }
        Some("no building is hidden".into())
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        Vec::new()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(sigh_clue(
            "HiddenSkyscraper",
            self.line,
            u32::from(self.digit),
        ))
    }
}

/// The digit in the first cell from the clue, `n`, says where `digit` is:
/// the `n`th cell from the clue holds it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NumberedRoom {
    /// The row or column and the end the clue is at.
    pub line: Outside,
    /// The digit the first cell points at.
    pub digit: u8,
}

impl Read for NumberedRoom {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["numbered room", "numberedroom"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let (clue, line) = clue_words(words, size)?;
        Ok(one(NumberedRoom {
            line,
            digit: digit_of(clue, size)?,
        }))
    }
    const SIGH: &'static [&'static str] = &["NumberedRoom"];
    /// `.NumberedRoom~R3~FRONT~BACK`, either clue empty.
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        sigh_clues(item, |line, clue| {
            NumberedRoom {
                line,
                digit: u8::try_from(clue).unwrap_or(u8::MAX),
            }
            .into()
        })
    }
}

impl fmt::Display for NumberedRoom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "numbered room {} ({})", self.digit, self.line)
    }
}

impl Rule for NumberedRoom {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        digit_of(u32::from(self.digit), size).map(|_| ())
    }

    /// The first cell holding `n` implies the `n`th holds `digit`; for
    /// `n = 1` that is the first cell itself, which then holds 1 only
    /// when `digit` is 1. On a short line of a rectangle the first digit
    /// names one of its cells: it is at most their count (sigh's
    /// `Indexing` keeps the control cell to the line's length).
    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        let cells = index(size, &self.line.cells(size));
        let mut out = Vec::new();
        let named = all_digits(size) & digit_range(1, cells.len());
        let allowed = match self.digit {
            1 => named,
            _ => named & !1,
        };
        if allowed != all_digits(size) {
            out.push(Primitive::Allowed {
                cell: cells[0],
                digits: allowed,
            });
        }
        for (n, &cell) in cells.iter().enumerate().skip(1) {
            out.push(pair(
                cells[0],
                cell,
                Relation::Implies(n as u8 + 1, self.digit),
            ));
        }
        out
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let cells = self.line.cells(board.size());
        let n = board.digit(cells[0]);
        let Some(&room) = usize::from(n).checked_sub(1).and_then(|k| cells.get(k)) else {
            return Some(format!("{} holds {n}, which names no cell", cells[0]));
        };
        (board.digit(room) != self.digit).then(|| {
            format!(
                "{} holds {n}, and {room} holds {}",
                cells[0],
                board.digit(room)
            )
        })
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        Vec::new()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(sigh_clue("NumberedRoom", self.line, u32::from(self.digit)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use itertools::Itertools;

    /// Every line of five different digits from 1 to 6 (a short line) and
    /// of 1 to 5 (a full one), against the first hidden building read off
    /// the digits.
    #[test]
    fn the_hidden_automaton_accepts_where_the_first_hidden_is_its_digit() {
        for values in [5, 6] {
            let lines: Vec<Vec<u8>> = (1..=values as u8).permutations(5).collect();
            for digit in 1..=values as u8 {
                let automaton = hidden_automaton(values, digit);
                for line in &lines {
                    let first = (1..line.len())
                        .find(|&k| line[k] < line[..k].iter().copied().max().unwrap_or(0))
                        .map(|k| line[k]);
                    assert_eq!(
                        automaton.accepts(line),
                        first == Some(digit),
                        "{line:?} {digit}"
                    );
                }
            }
        }
    }
}
