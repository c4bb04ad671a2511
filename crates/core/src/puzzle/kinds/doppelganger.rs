//! Doppelganger, as sigh's Interactive Sudoku Solver states it, on an N x N
//! board whose values run from 0 to N (`Shape~9x9~0-9`): every row, column
//! and region holds 0 and all but one of the values 1 to N; no two rows
//! miss the same value, nor two columns, nor two regions; and where a
//! cell holds 0, the values its row, its column and its region miss are
//! three different values.
//!
//! sigh keeps each house's missing value in an extra cell outside the
//! grid. z3doku's boards have no such cells, and need none: the missing
//! value is the one the house lacks, so the rule is said on the grid.
//! - Each house holds 0 (it keeps its values apart already, so once).
//! - Given that, each house misses one value, and "no two rows miss the
//!   same value" is, for each two rows and each value, one of the two
//!   holds it; the same for columns and regions. Said so, it propagates
//!   as soon as one house has lost a value, as a hidden single does: the
//!   empty 9x9 fills at once on every engine, where the equal statement
//!   "every value stands N - 1 times on the board" left the native search
//!   without an answer in 30 s and `int` at 13 s or more.
//! - Two of a 0's houses missing one value `v` is `v` in neither of them:
//!   for each cell, each two of its houses and each value, the cell is
//!   not 0 or one cell of the two houses holds the value.
//!
//! f-puzzles has no key for it; it is read from sigh strings
//! (`.Doppelganger`) and rule lines (`doppelganger`).

use super::FromZero;
use super::global::no_words;
use super::{Added, Constraint, Read, Rule, no_key, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{Context, all_digits};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::Primitive;
use crate::puzzle::rules::HouseKind;
use crate::puzzle::sigh;
use crate::puzzle::sketch::Mark;
use serde_json::Value;
use std::fmt;

/// The digit that stands for the value 0 on a board from 0, where each
/// digit is the value plus one.
const ZERO: u8 = 1;

/// Doppelganger. As stated, it reads values; on a board from 0 it is
/// solved on the digits (`on_digits`), where [`ZERO`] stands for 0. On a
/// board whose values start at 1 it stays as stated and is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Doppelganger {
    /// Whether this is the rule on the digits of a board from 0.
    pub on_digits: bool,
}

impl Read for Doppelganger {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["doppelganger"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    fn from_text(name: &str, words: &[String], _: Size) -> Result<Vec<Added>, String> {
        no_words(name, words)?;
        Ok(one(Doppelganger { on_digits: false }))
    }

    const SIGH: &'static [&'static str] = &["Doppelganger"];
    fn from_sigh(_: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        Ok(one(Doppelganger { on_digits: false }))
    }
}

impl fmt::Display for Doppelganger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("doppelganger")
    }
}

/// The board's houses as lists of row-major indexes: its rows, its
/// columns and its regions (boxes or jigsaw pieces), in that order, with
/// each cell's house of each kind.
struct Houses {
    lists: Vec<Vec<usize>>,
    /// For each cell, its row's, its column's and (when it has one) its
    /// region's place in `lists`.
    of: Vec<Vec<usize>>,
}

impl Houses {
    fn of(size: Size, region_of: impl Fn(usize) -> Option<usize>) -> Houses {
        let n = size.side();
        let mut lists: Vec<Vec<usize>> = vec![Vec::new(); 2 * n];
        let mut regions: Vec<usize> = Vec::new();
        let mut of = vec![Vec::new(); size.cells()];
        for (cell, houses) in of.iter_mut().enumerate() {
            let (row, col) = (cell / n, cell % n);
            lists[row].push(cell);
            lists[n + col].push(cell);
            houses.extend([row, n + col]);
            if let Some(region) = region_of(cell) {
                let at = match regions.iter().position(|&r| r == region) {
                    Some(at) => at,
                    None => {
                        regions.push(region);
                        lists.push(Vec::new());
                        regions.len() - 1
                    }
                };
                lists[2 * n + at].push(cell);
                houses.push(2 * n + at);
            }
        }
        Houses { lists, of }
    }
}

impl Rule for Doppelganger {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::As(Constraint::Doppelganger(Doppelganger { on_digits: true }))
    }

    fn cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        match self.on_digits && size.is_square() && size.values() == size.side() + 1 {
            true => Ok(()),
            false => Err(
                "it is stated on N x N boards whose values run from 0 to N (sigh's `Shape~9x9~0-9`)"
                    .into(),
            ),
        }
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        let n = size.side();
        let houses = Houses::of(size, |c| context.region_of[c]);
        // Each house holds 0.
        let mut out: Vec<Primitive> = houses
            .lists
            .iter()
            .map(|cells| Primitive::Contains {
                cells: cells.clone(),
                digit: ZERO,
                count: 1,
            })
            .collect();
        let values = ZERO + 1..=ZERO + n as u8;
        // No two houses of a kind miss a value: one of them holds it.
        let kinds = [0..n, n..2 * n, 2 * n..houses.lists.len()];
        for kind in kinds {
            for a in kind.clone() {
                for b in a + 1..kind.end {
                    for digit in values.clone() {
                        let literals = houses.lists[a]
                            .iter()
                            .chain(&houses.lists[b])
                            .map(|&c| (c, 1 << (digit - 1)))
                            .collect();
                        out.push(Primitive::Any { literals });
                    }
                }
            }
        }
        // A 0's houses, two at a time, miss different values.
        let not_zero = all_digits(size) & !(1 << (ZERO - 1));
        for (cell, of) in houses.of.iter().enumerate() {
            for (k, &a) in of.iter().enumerate() {
                for &b in &of[k + 1..] {
                    let mut both: Vec<usize> = houses.lists[a]
                        .iter()
                        .chain(&houses.lists[b])
                        .copied()
                        .filter(|&c| c != cell)
                        .collect();
                    both.sort_unstable();
                    both.dedup();
                    for digit in values.clone() {
                        let mut literals = vec![(cell, not_zero)];
                        literals.extend(both.iter().map(|&c| (c, 1 << (digit - 1))));
                        out.push(Primitive::Any { literals });
                    }
                }
            }
        }
        out
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let size = board.size();
        let regions: Vec<&[usize]> = board
            .rules
            .houses()
            .iter()
            .filter(|h| matches!(h.kind, HouseKind::Box | HouseKind::Region))
            .map(|h| h.cells.as_slice())
            .collect();
        let houses = Houses::of(size, |c| regions.iter().position(|r| r.contains(&c)));
        let name = |h: usize| {
            let n = size.side();
            match h {
                h if h < n => format!("row {}", h + 1),
                h if h < 2 * n => format!("column {}", h - n + 1),
                h => format!("region {}", h - 2 * n + 1),
            }
        };
        // The value (as a digit) each house misses, when it misses one.
        let mut missing = Vec::new();
        for (h, cells) in houses.lists.iter().enumerate() {
            let held: u32 = cells
                .iter()
                .fold(0, |m, &c| m | 1 << (board.grid.get(c) - 1));
            let lacks = all_digits(size) & !held;
            if held & 1 << (ZERO - 1) == 0 || lacks.count_ones() != 1 {
                return Some(format!("{} does not hold 0 and all but one value", name(h)));
            }
            missing.push(lacks.trailing_zeros() as u8 + 1);
        }
        for (h, &m) in missing.iter().enumerate() {
            let kind = |x: usize| x.min(2 * size.side()) / size.side();
            if let Some(other) = (0..h).find(|&o| kind(o) == kind(h) && missing[o] == m) {
                return Some(format!(
                    "{} and {} both miss {}",
                    name(other),
                    name(h),
                    m - ZERO
                ));
            }
        }
        for (cell, of) in houses.of.iter().enumerate() {
            if board.grid.get(cell) != ZERO {
                continue;
            }
            for (k, &a) in of.iter().enumerate() {
                if let Some(&b) = of[k + 1..].iter().find(|&&b| missing[a] == missing[b]) {
                    return Some(format!(
                        "{} holds 0, and its {} and {} both miss {}",
                        size.cell_at(cell),
                        name(a),
                        name(b),
                        missing[a] - ZERO
                    ));
                }
            }
        }
        None
    }

    fn sketch(&self, _size: Size) -> Vec<Mark> {
        Vec::new()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }

    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(".Doppelganger".into())
    }
}
