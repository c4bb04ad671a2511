//! Rules on pairs and groups of cells that sigh's Interactive Sudoku
//! Solver names: greater-than signs, a relation given as a table of the
//! digit pairs it allows, and groups that contain given digits at least
//! or exactly so many times.
//!
//! f-puzzles has no key for them: they are read from rule lines, and an
//! f-puzzles link leaves them out (see
//! [`unwritable`](crate::puzzle::fpuzzles::write::unwritable)).

use super::FromZero;
use super::{Added, Read, Rule, no_key, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{self, Context, all_digits, list, listed_once, pair, subsets};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size, char_digit, digit_char};
use crate::puzzle::primitive::{Primitive, Relation};
use crate::puzzle::rule_text::{self as text, cell_word};
use crate::puzzle::sigh;
use crate::puzzle::sketch::Mark;
use serde_json::Value;
use std::fmt;

/// A rule line's words split where its cells start (at `(` or the first
/// cell).
fn before_cells(words: &[String]) -> (&[String], &[String]) {
    let at = words
        .iter()
        .position(|w| w == "(" || cell_word(w).is_some())
        .unwrap_or(words.len());
    words.split_at(at)
}

/// A greater-than sign: each cell is greater than every later cell of the
/// list it neighbours (sigh's rule; two cells are one sign, the first the
/// greater).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GreaterThan {
    /// The cells, greater first.
    pub cells: Vec<Cell>,
}

impl GreaterThan {
    /// `(greater, smaller)` for each pair of neighbours.
    fn signs(&self) -> Vec<(Cell, Cell)> {
        let mut out = Vec::new();
        for (k, &a) in self.cells.iter().enumerate() {
            for &b in &self.cells[k + 1..] {
                if a.beside(b) {
                    out.push((a, b));
                }
            }
        }
        out
    }
}

impl Read for GreaterThan {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["greater than", "greaterthan"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        Ok(one(GreaterThan {
            cells: text::cells(words, size)?,
        }))
    }
    const SIGH: &'static [&'static str] = &["GreaterThan"];
    /// `.GreaterThan~CELL~…`, the greater first.
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        Ok(one(GreaterThan {
            cells: item.cells(item.args)?,
        }))
    }
}

impl fmt::Display for GreaterThan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "greater than ({})", list(&self.cells, " "))
    }
}

impl Rule for GreaterThan {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        listed_once(&self.cells)?;
        match self.signs().is_empty() {
            true if self.cells.iter().any(|c| c.extra().is_some()) => Err(
                "a greater-than sign stands between neighbouring cells, and a cell outside the \
                 grid is beside no cell"
                    .into(),
            ),
            true => Err("a greater-than sign stands between neighbouring cells".into()),
            false => Ok(()),
        }
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        self.signs()
            .into_iter()
            .map(|(big, small)| pair(size.index(small), size.index(big), Relation::LessBy(1)))
            .collect()
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        self.signs()
            .into_iter()
            .find(|&(big, small)| board.digit(big) <= board.digit(small))
            .map(|(big, small)| format!("{} is not greater", board.holds(&[big, small])))
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        Vec::new()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(format!(".GreaterThan{}", sigh::ids(&self.cells)))
    }
}

/// A relation given as its table: each two cells next to each other in
/// the list hold a pair of digits the table allows, read in the list's
/// order (sigh's `Pair`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pairwise {
    /// The allowed `(first, second)` digit pairs, sorted.
    pub allowed: Vec<(u8, u8)>,
    /// The cells, in order.
    pub cells: Vec<Cell>,
}

impl Pairwise {
    /// For digit `i` of a first cell, the second cell's allowed digits.
    fn after(&self, i: u8) -> u32 {
        self.allowed
            .iter()
            .filter(|&&(a, _)| a == i)
            .fold(0, |m, &(_, b)| m | 1 << (b - 1))
    }
}

impl Read for Pairwise {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["pairwise"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    /// `pairwise 12 21 23 (r1c1 r1c2 r1c3)`: each allowed pair as two
    /// digits, then the cells.
    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let (pairs, cells) = before_cells(words);
        let mut allowed = pairs
            .iter()
            .map(|w| {
                let digits: Vec<Option<u8>> = w.chars().map(char_digit).collect();
                match digits[..] {
                    [Some(a), Some(b)] if a > 0 && b > 0 => Ok((a, b)),
                    _ => Err(format!("{w:?} is not a pair of two digits like 12")),
                }
            })
            .collect::<Result<Vec<_>, String>>()?;
        allowed.sort_unstable();
        allowed.dedup();
        Ok(one(Pairwise {
            allowed,
            cells: text::cells(cells, size)?,
        }))
    }
    const SIGH: &'static [&'static str] = &[];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        Err(item.unknown())
    }
}

impl fmt::Display for Pairwise {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("pairwise")?;
        for &(a, b) in &self.allowed {
            write!(f, " {}{}", digit_char(a), digit_char(b))?;
        }
        write!(f, " ({})", list(&self.cells, "→"))
    }
}

impl Rule for Pairwise {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        listed_once(&self.cells)?;
        if self.cells.len() < 2 {
            return Err("a pairwise relation joins at least two cells".into());
        }
        if self.allowed.is_empty() {
            return Err("a pairwise relation allows at least one pair of digits".into());
        }
        let side = size.values() as u8;
        match self.allowed.iter().find(|&&(a, b)| a > side || b > side) {
            Some(&(a, b)) => Err(format!(
                "{}{} is not a pair of digits on the {size} board",
                digit_char(a),
                digit_char(b)
            )),
            None => Ok(()),
        }
    }

    /// One clause per digit `i` of the first cell that does not allow
    /// every digit after it: the first cell is not `i`, or the second
    /// holds a digit allowed after `i`. Stated once, it narrows either
    /// cell from the other.
    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        let all = all_digits(size);
        let mut out = Vec::new();
        for w in self.cells.windows(2) {
            let (a, b) = (size.index(w[0]), size.index(w[1]));
            for i in 1..=size.values() as u8 {
                let after = self.after(i) & all;
                if after != all {
                    out.push(Primitive::Any {
                        literals: vec![(a, all & !(1 << (i - 1))), (b, after)],
                    });
                }
            }
        }
        out
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        self.cells.windows(2).find_map(|w| {
            let pair = (board.digit(w[0]), board.digit(w[1]));
            (!self.allowed.contains(&pair))
                .then(|| format!("{}, a pair the table does not allow", board.holds(w)))
        })
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        Vec::new()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Cannot(sigh::NO_SUCH_RULE)
    }
}

/// Beyond this many clauses for one digit, `contains exactly` is refused
/// rather than lowered: "at most k of n cells" is stated as one clause per
/// k + 1 of them.
pub(super) const MOST_CLAUSES: usize = 5000;

/// The number of ways to pick `k` of `n`, or more than [`MOST_CLAUSES`]
/// as `MOST_CLAUSES + 1`.
pub(super) fn choose(n: usize, k: usize) -> usize {
    constraint::choose(n, k).min(MOST_CLAUSES + 1)
}

/// The cells contain the listed digits, each at least as many times as it
/// is listed (`exact`: exactly as many times); digits not listed are free
/// (sigh's `ContainAtLeast` and `ContainExact`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Contains {
    /// The digits, a digit listed once per time it is required, sorted.
    pub digits: Vec<u8>,
    /// The cells.
    pub cells: Vec<Cell>,
    /// Exactly as many times, rather than at least.
    pub exact: bool,
}

impl Contains {
    /// Each listed digit with its count.
    fn counts(&self) -> Vec<(u8, usize)> {
        let mut out: Vec<(u8, usize)> = Vec::new();
        for &d in &self.digits {
            match out.last_mut() {
                Some((e, n)) if *e == d => *n += 1,
                _ => out.push((d, 1)),
            }
        }
        out
    }
}

impl Read for Contains {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &[
        "contains at least",
        "contains exactly",
        "containatleast",
        "containexact",
    ];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    /// `contains at least 1 1 2 (r1c1 r1c2 r1c3)`: the digits (written
    /// together or apart), then the cells.
    fn from_text(name: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let (digits, cells) = before_cells(words);
        let digits: Vec<&str> = digits.iter().map(String::as_str).collect();
        let mut digits = text::digits(&digits)?;
        digits.sort_unstable();
        Ok(one(Contains {
            digits,
            cells: text::cells(cells, size)?,
            exact: matches!(name, "contains exactly" | "containexact"),
        }))
    }
    const SIGH: &'static [&'static str] = &["ContainAtLeast", "ContainExact"];
    /// `.ContainAtLeast~1_1_2~CELL~…` (or `ContainExact`): the digits
    /// parted by `_`, then the cells.
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        let listed = item.args.first().cloned().unwrap_or_default();
        let mut digits = listed
            .split('_')
            .map(|word| {
                let digit = item.number(Some(&word.to_string()))?;
                u8::try_from(digit)
                    .ok()
                    .filter(|&d| d >= 1)
                    .ok_or_else(|| item.invalid(format!("{digit} is not a digit of the board")))
            })
            .collect::<Result<Vec<u8>, _>>()?;
        digits.sort_unstable();
        Ok(one(Contains {
            digits,
            cells: item.cells(item.args.get(1..).unwrap_or_default())?,
            exact: item.kind == "ContainExact",
        }))
    }
}

impl fmt::Display for Contains {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let how = if self.exact { "exactly" } else { "at least" };
        write!(f, "contains {how}")?;
        for &d in &self.digits {
            write!(f, " {}", digit_char(d))?;
        }
        write!(f, " ({})", list(&self.cells, " "))
    }
}

impl Rule for Contains {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        listed_once(&self.cells)?;
        if self.digits.is_empty() {
            return Err("expected the digits the cells contain".into());
        }
        if let Some(&d) = self
            .digits
            .iter()
            .find(|&&d| usize::from(d) > size.values())
        {
            return Err(format!(
                "{} is not a digit of the {size} board",
                digit_char(d)
            ));
        }
        if self.digits.len() > self.cells.len() {
            return Err(format!(
                "{} cells cannot hold {} digits",
                self.cells.len(),
                self.digits.len()
            ));
        }
        if self.exact
            && let Some((d, _)) = self
                .counts()
                .into_iter()
                .find(|&(_, k)| choose(self.cells.len(), k + 1) > MOST_CLAUSES)
        {
            return Err(format!(
                "too many cells to say exactly how many hold {}",
                digit_char(d)
            ));
        }
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        let all = all_digits(size);
        let cells: Vec<usize> = self.cells.iter().map(|&c| size.index(c)).collect();
        let mut out = Vec::new();
        for (digit, count) in self.counts() {
            out.push(Primitive::Contains {
                cells: cells.clone(),
                digit,
                count,
            });
            if self.exact {
                // At most `count`: of any `count + 1` cells, one is not it.
                let not = all & !(1 << (digit - 1));
                out.extend(
                    subsets(&cells, count + 1)
                        .into_iter()
                        .map(|some| Primitive::Any {
                            literals: some.into_iter().map(|c| (c, not)).collect(),
                        }),
                );
            }
        }
        out
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        self.counts().into_iter().find_map(|(digit, count)| {
            let held = self
                .cells
                .iter()
                .filter(|&&c| board.digit(c) == digit)
                .count();
            let wrong = if self.exact {
                held != count
            } else {
                held < count
            };
            wrong.then(|| {
                format!(
                    "{} holds {} {held} times, not {}{count}",
                    if self.cells.len() == 1 {
                        "the cell"
                    } else {
                        "the group"
                    },
                    digit_char(digit),
                    if self.exact { "" } else { "at least " },
                )
            })
        })
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        Vec::new()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        let kind = if self.exact {
            "ContainExact"
        } else {
            "ContainAtLeast"
        };
        let digits: Vec<String> = self.digits.iter().map(u8::to_string).collect();
        sigh::ToSigh::Item(format!(
            ".{kind}~{}{}",
            digits.join("_"),
            sigh::ids(&self.cells)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_and_their_count_agree() {
        let items = [0, 1, 2, 3, 4];
        assert_eq!(subsets(&items, 2).len(), choose(5, 2));
        assert_eq!(subsets(&items, 5), vec![items.to_vec()]);
        assert_eq!(choose(3, 4), 0);
        assert_eq!(choose(40, 20), MOST_CLAUSES + 1);
    }
}
