//! Clues on cells: a cell's allowed digits, odd and even cells, minimums
//! and maximums, clones, digits around a corner, and indexer cells.

use super::FromZero;
use super::{Added, Read, Rule, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{
    Constraint, Context, all_digits, digit_range, index, list, listed_once, orthogonal_pairs, pair,
};
use crate::puzzle::fpuzzles::write::{Item, cell_only, cells_only, names};
use crate::puzzle::fpuzzles::{self as fp, FpuzzlesError};
use crate::puzzle::grid::{Cell, Size, digit_char};
use crate::puzzle::primitive::{Primitive, Relation};
use crate::puzzle::rule_text::{self as text, CELL_IS};
use crate::puzzle::sigh;
use crate::puzzle::sketch::{Mark, Tint};
use serde_json::{Value, json};
use std::fmt;

/// A cell holds one of these digits (a pencil-marked cell).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Allowed {
    /// The cell.
    pub cell: Cell,
    /// The digits it may hold: bit `d - 1` for digit `d`.
    pub digits: u32,
}

impl Read for Allowed {
    /// Pencil marks are read from the grid's cells.
    const KEYS: &'static [&'static str] = &[];
    /// `allowed r2c2 is one of 1 3 5`, or the cell first: `r2c2 is one of
    /// 1 3 5`, which also reads `r1c1 is odd` and `r1c2 is a minimum`.
    const NAMES: &'static [&'static str] = &["allowed", CELL_IS];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        Err(fp::invalid(
            format!("`{key}`"),
            "pencil marks are read from the grid's cells",
        ))
    }

    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let at = text::cell(words.first().map_or("", String::as_str), size)?;
        let tail: Vec<&str> = words
            .get(2..)
            .unwrap_or_default()
            .iter()
            .map(String::as_str)
            .collect();
        match tail[..] {
            ["odd"] => Ok(one(Odd(at))),
            ["even"] => Ok(one(Even(at))),
            ["a", "minimum"] => Ok(one(Minimum(at))),
            ["a", "maximum"] => Ok(one(Maximum(at))),
            ["one", "of", ref digits @ ..] => {
                let mask = text::digits(digits)?
                    .into_iter()
                    .fold(0u32, |mask, d| mask | 1 << (d - 1));
                Ok(one(Allowed {
                    cell: at,
                    digits: mask,
                }))
            }
            _ => Err("expected `is one of <digits>`, `is odd`, `is even`, `is a minimum` or `is a maximum`".into()),
        }
    }
    const SIGH: &'static [&'static str] = &[];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        Err(item.unknown())
    }
}

impl fmt::Display for Allowed {
    /// `r2c2 is one of 1 3 5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits: Vec<String> = (1..=32u8)
            .filter(|d| self.digits >> (d - 1) & 1 == 1)
            .map(|d| digit_char(d).to_string())
            .collect();
        write!(f, "{} is one of {}", self.cell, digits.join(" "))
    }
}

impl Rule for Allowed {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        vec![self.cell]
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        if self.digits == 0 || self.digits & !all_digits(size) != 0 {
            return Err(format!("the digits must be within 1 to {}", size.values()));
        }
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        vec![Primitive::Allowed {
            cell: context.size.index(self.cell),
            digits: self.digits,
        }]
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let d = board.digit(self.cell);
        (d == 0 || self.digits >> (d - 1) & 1 == 0).then(|| format!("{} holds {d}", self.cell))
    }
    fn sketch(&self, size: Size) -> Vec<Mark> {
        let text = (1..=size.values() as u8)
            .filter(|d| self.digits & (1 << (d - 1)) != 0)
            .map(digit_char)
            .collect();
        vec![Mark::FootText {
            cell: self.cell,
            text,
        }]
    }

    /// Written as the cell's pencil marks in the grid.
    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        // Written with the givens, as the cell's candidates.
        sigh::ToSigh::Elsewhere
    }
}

/// Each item's `cell` under `key`, made into a constraint by `make`.
fn read_cell_items(
    key: &str,
    value: &Value,
    size: Size,
    make: impl Fn(Cell) -> Constraint,
) -> Result<Vec<Added>, FpuzzlesError> {
    let mut out = Vec::new();
    for (k, item) in fp::items(key, value)?.iter().enumerate() {
        let place = format!("`{key}` {}", k + 1);
        let cell = fp::read_cell_name(item.get("cell"), size, &place)?;
        out.push(Added::Constraint(make(cell)));
    }
    Ok(out)
}

/// Each cell of a rule line, made into a constraint by `make`.
fn read_cell_words(
    words: &[String],
    size: Size,
    make: impl Fn(Cell) -> Constraint,
) -> Result<Vec<Added>, String> {
    Ok(text::cells(words, size)?
        .into_iter()
        .map(|cell| Added::Constraint(make(cell)))
        .collect())
}

/// A marked cell: `odd r1c1 r1c3` in text, `{"cell": …}` items in
/// f-puzzles, `r1c1 is odd` in messages.
macro_rules! marked_cell {
    ($(#[$doc:meta])* $kind:ident, $key:literal, $shown:literal) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub struct $kind(pub Cell);

        impl Read for $kind {
            const KEYS: &'static [&'static str] = &[$key];
            const NAMES: &'static [&'static str] = &[$key];

            fn from_fpuzzles(
                key: &str,
                value: &Value,
                size: Size,
            ) -> Result<Vec<Added>, FpuzzlesError> {
                read_cell_items(key, value, size, |cell| $kind(cell).into())
            }

            fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
                read_cell_words(words, size, |cell| $kind(cell).into())
            }
            const SIGH: &'static [&'static str] = &[];
            fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
                Err(item.unknown())
            }
        }

        impl fmt::Display for $kind {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!("{} ", $shown), self.0)
            }
        }
    };
}

marked_cell!(
    /// A cell holds an odd digit.
    Odd,
    "odd",
    "is odd"
);

/// The odd digits of a board of `size`, as bits.
fn odd_digits(size: Size) -> u32 {
    all_digits(size) & 0x5555_5555
}

impl Rule for Odd {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        vec![self.0]
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        vec![Primitive::Allowed {
            cell: context.size.index(self.0),
            digits: odd_digits(context.size),
        }]
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        board
            .digit(self.0)
            .is_multiple_of(2)
            .then(|| board.holds(&[self.0]))
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![Mark::Disc(self.0)]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some(("odd", cell_only(self.0)))
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        // Written with the givens, as the cell's candidates.
        sigh::ToSigh::Elsewhere
    }
}

marked_cell!(
    /// A cell holds an even digit.
    Even,
    "even",
    "is even"
);

impl Rule for Even {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        vec![self.0]
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        vec![Primitive::Allowed {
            cell: context.size.index(self.0),
            digits: all_digits(context.size) & !odd_digits(context.size),
        }]
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        (!board.digit(self.0).is_multiple_of(2)).then(|| board.holds(&[self.0]))
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![Mark::Square(self.0)]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some(("even", cell_only(self.0)))
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        // Written with the givens, as the cell's candidates.
        sigh::ToSigh::Elsewhere
    }
}

/// `Err` for a cell outside the grid, which has no neighbours, row or
/// column for the rule to read.
fn on_grid(cell: Cell) -> Result<(), String> {
    match cell.extra() {
        Some(_) => Err(format!(
            "{cell} is outside the grid, and the rule reads where its cell stands"
        )),
        None => Ok(()),
    }
}

/// The orthogonal neighbours of `me` (a row-major index) on a board of
/// `size`, leaving out those `exempt` says.
fn neighbours_of(size: Size, me: usize, exempt: impl Fn(Cell) -> bool) -> Vec<usize> {
    orthogonal_pairs(size)
        .into_iter()
        .filter_map(|(a, b)| match (a == me, b == me) {
            (true, _) => Some(b),
            (_, true) => Some(a),
            _ => None,
        })
        .filter(|&other| !exempt(size.cell_at(other)))
        .collect()
}

/// The orthogonal neighbours of `cell`: above, below, left, right.
fn around(size: Size, cell: Cell) -> Vec<Cell> {
    size.orthogonal(size.index(cell))
        .into_iter()
        .map(|i| size.cell_at(i))
        .collect()
}

marked_cell!(
    /// A cell is less than its orthogonal neighbours (those not marked as
    /// minimums themselves).
    Minimum,
    "minimum",
    "is a minimum"
);

impl Rule for Minimum {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        vec![self.0]
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        on_grid(self.0)
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let (size, me) = (context.size, context.size.index(self.0));
        let same = |c: Cell| context.all.contains(&Minimum(c).into());
        neighbours_of(size, me, same)
            .into_iter()
            .map(|other| pair(me, other, Relation::LessBy(1)))
            .collect()
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let same = |c: Cell| board.rules.constraints().contains(&Minimum(c).into());
        around(board.size(), self.0)
            .into_iter()
            .find(|&other| !same(other) && board.digit(other) <= board.digit(self.0))
            .map(|other| board.holds(&[self.0, other]))
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![Mark::Chevrons {
            cell: self.0,
            inward: true,
        }]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some(("minimum", cell_only(self.0)))
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Cannot(sigh::NO_SUCH_RULE)
    }
}

marked_cell!(
    /// A cell is greater than its orthogonal neighbours (those not marked
    /// as maximums themselves).
    Maximum,
    "maximum",
    "is a maximum"
);

impl Rule for Maximum {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        vec![self.0]
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        on_grid(self.0)
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let (size, me) = (context.size, context.size.index(self.0));
        let same = |c: Cell| context.all.contains(&Maximum(c).into());
        neighbours_of(size, me, same)
            .into_iter()
            .map(|other| pair(other, me, Relation::LessBy(1)))
            .collect()
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let same = |c: Cell| board.rules.constraints().contains(&Maximum(c).into());
        around(board.size(), self.0)
            .into_iter()
            .find(|&other| !same(other) && board.digit(other) >= board.digit(self.0))
            .map(|other| board.holds(&[self.0, other]))
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![Mark::Chevrons {
            cell: self.0,
            inward: false,
        }]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some(("maximum", cell_only(self.0)))
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Cannot(sigh::NO_SUCH_RULE)
    }
}

/// Clones: each cell holds the digit of its clone.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Clones {
    /// The cells.
    pub cells: Vec<Cell>,
    /// Their clones, in the same order.
    pub clones: Vec<Cell>,
}

impl Read for Clones {
    const KEYS: &'static [&'static str] = &["clone"];
    const NAMES: &'static [&'static str] = &["clone"];

    fn from_fpuzzles(key: &str, value: &Value, size: Size) -> Result<Vec<Added>, FpuzzlesError> {
        let mut out = Vec::new();
        for (k, item) in fp::items(key, value)?.iter().enumerate() {
            let place = format!("`{key}` {}", k + 1);
            let cells = fp::read_cells(item.get("cells"), size, &place)?;
            let clones = fp::read_cells(item.get("cloneCells"), size, &place)?;
            out.extend(one(Clones { cells, clones }));
        }
        Ok(out)
    }

    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let equals = words
            .iter()
            .position(|w| w == "=")
            .ok_or("a clone lists its cells, then `=`, then their clones")?;
        Ok(one(Clones {
            cells: text::cells(&words[..equals], size)?,
            clones: text::cells(&words[equals + 1..], size)?,
        }))
    }
    // sigh's `SameValues` of one-cell sets are read in
    // [`same_values`](super::same_values).
    const SIGH: &'static [&'static str] = &[];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        Err(item.unknown())
    }
}

impl fmt::Display for Clones {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "clone ({}) = ({})",
            list(&self.cells, " "),
            list(&self.clones, " ")
        )
    }
}

impl Rule for Clones {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.iter().chain(&self.clones).copied().collect()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        listed_once(&self.cells)?;
        listed_once(&self.clones)?;
        if self.cells.len() != self.clones.len() {
            return Err(format!(
                "{} cells and {} clones do not pair up",
                self.cells.len(),
                self.clones.len()
            ));
        }
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        self.cells
            .iter()
            .zip(&self.clones)
            .filter(|(a, b)| a != b)
            .map(|(&a, &b)| pair(size.index(a), size.index(b), Relation::Equal))
            .collect()
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        self.cells
            .iter()
            .zip(&self.clones)
            .find_map(|(&a, &b)| (board.digit(a) != board.digit(b)).then(|| board.holds(&[a, b])))
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        let cells = self.cells.iter().chain(&self.clones).copied().collect();
        vec![Mark::Shade {
            cells,
            tint: Tint::InTurn,
        }]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some((
            "clone",
            Item::Entry(json!({ "cells": names(&self.cells), "cloneCells": names(&self.clones) })),
        ))
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(
            self.cells
                .iter()
                .zip(&self.clones)
                .filter(|(a, b)| a != b)
                .map(|(&a, &b)| format!(".SameValues~2~{}~{}", sigh::id(a), sigh::id(b)))
                .collect(),
        )
    }
}

/// A quadruple: these digits (with repeats) appear among the cells.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Quadruple {
    /// The cells around the clue.
    pub cells: Vec<Cell>,
    /// The digits, each as often as it must appear.
    pub digits: Vec<u8>,
}

impl Read for Quadruple {
    const KEYS: &'static [&'static str] = &["quadruple"];
    const NAMES: &'static [&'static str] = &["quadruple"];

    fn from_fpuzzles(key: &str, value: &Value, size: Size) -> Result<Vec<Added>, FpuzzlesError> {
        let mut out = Vec::new();
        for (k, item) in fp::items(key, value)?.iter().enumerate() {
            let place = format!("`{key}` {}", k + 1);
            let cells = fp::read_cells(item.get("cells"), size, &place)?;
            let digits = item
                .get("values")
                .and_then(Value::as_array)
                .ok_or_else(|| fp::invalid(&place, "`values` is not a list"))?
                .iter()
                .map(|v| {
                    fp::number(v)
                        .and_then(|n| u8::try_from(n).ok())
                        .ok_or_else(|| fp::invalid(&place, format!("{v} is not a digit")))
                })
                .collect::<Result<Vec<u8>, _>>()?;
            out.extend(one(Quadruple { cells, digits }));
        }
        Ok(out)
    }

    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let start = words
            .iter()
            .position(|w| w == "(" || text::cell_word(w).is_some())
            .unwrap_or(words.len());
        let digits: Vec<&str> = words[..start].iter().map(String::as_str).collect();
        Ok(one(Quadruple {
            cells: text::cells(&words[start..], size)?,
            digits: text::digits(&digits)?,
        }))
    }
    const SIGH: &'static [&'static str] = &["Quad"];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        let size = item.size;
        let corner = item.cell(item.args.first().map_or("", String::as_str))?;
        if !size.contains(corner.row() + 1, corner.col() + 1) {
            return Err(item.invalid(format!("no 2x2 square starts at {corner}")));
        }
        let (r, c) = (corner.row(), corner.col());
        let digits = item.args[1..]
            .iter()
            .map(|v| {
                v.parse::<u8>()
                    .ok()
                    .filter(|d| (1..=size.side()).contains(&usize::from(*d)))
                    .ok_or_else(|| item.invalid(format!("{v:?} is not a digit")))
            })
            .collect::<Result<Vec<u8>, _>>()?;
        let cells = vec![
            size.cell(r, c),
            size.cell(r, c + 1),
            size.cell(r + 1, c),
            size.cell(r + 1, c + 1),
        ];
        Ok(one(Quadruple { cells, digits }))
    }
}

impl fmt::Display for Quadruple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits: String = self.digits.iter().map(|&d| digit_char(d)).collect();
        write!(f, "quadruple {digits} ({})", list(&self.cells, " "))
    }
}

impl Rule for Quadruple {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        listed_once(&self.cells)?;
        if self.digits.is_empty() || self.digits.len() > self.cells.len() {
            return Err("a quadruple needs 1 to 4 digits".into());
        }
        if self
            .digits
            .iter()
            .any(|&d| d == 0 || usize::from(d) > size.values())
        {
            return Err(format!("the digits must be within 1 to {}", size.values()));
        }
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let cells = index(context.size, &self.cells);
        let mut distinct = self.digits.clone();
        distinct.sort_unstable();
        distinct.dedup();
        distinct
            .into_iter()
            .map(|digit| Primitive::Contains {
                cells: cells.clone(),
                digit,
                count: self.digits.iter().filter(|&&d| d == digit).count(),
            })
            .collect()
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        self.digits.iter().find_map(|&d| {
            let want = self.digits.iter().filter(|&&e| e == d).count();
            let have = self.cells.iter().filter(|&&c| board.digit(c) == d).count();
            (have < want).then(|| format!("{} holds {d} {have} times", board.holds(&self.cells)))
        })
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![Mark::CornerCircle {
            cells: self.cells.clone(),
            digits: self.digits.clone(),
        }]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some((
            "quadruple",
            Item::Entry(json!({ "cells": names(&self.cells), "values": self.digits })),
        ))
    }
    fn to_sigh(&self, board: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        let corner = self.cells.iter().min().copied();
        let square = corner.is_some_and(|c| {
            let mut expected: Vec<Cell> = [(0, 0), (0, 1), (1, 0), (1, 1)]
                .iter()
                .filter(|(dr, dc)| board.size.contains(c.row() + dr, c.col() + dc))
                .map(|(dr, dc)| board.size.cell(c.row() + dr, c.col() + dc))
                .collect();
            let mut cells = self.cells.clone();
            expected.sort();
            cells.sort();
            cells == expected && cells.len() == 4
        });
        match corner.filter(|_| square) {
            Some(corner) => {
                let digits: String = self.digits.iter().map(|d| format!("~{d}")).collect();
                sigh::ToSigh::Item(format!(".Quad~{}{digits}", sigh::id(corner)))
            }
            None => sigh::ToSigh::Cannot("sigh's quads are 2x2 squares"),
        }
    }
}

/// What an indexer cell's digit points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Indexing {
    /// In row `r`, column `c`, digit `v` says that row `v` of column `c`
    /// holds `r` (all 1-based).
    Row,
    /// In row `r`, column `c`, digit `v` says that column `v` of row `r`
    /// holds `c`.
    Column,
    /// At place `p` of its region (row-major, 1-based), digit `v` says that
    /// place `v` of the region holds `p`.
    Box,
}

impl Indexing {
    /// `row`, `column` or `box`.
    fn word(self) -> &'static str {
        match self {
            Indexing::Row => "row",
            Indexing::Column => "column",
            Indexing::Box => "box",
        }
    }
}

/// An indexer cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Indexer {
    /// What it indexes.
    pub kind: Indexing,
    /// The cell.
    pub cell: Cell,
}

impl Read for Indexer {
    const KEYS: &'static [&'static str] = &["rowindexer", "columnindexer", "boxindexer"];
    const NAMES: &'static [&'static str] = &[
        "row indexer",
        "column indexer",
        "box indexer",
        "rowindexer",
        "columnindexer",
        "boxindexer",
    ];

    fn from_fpuzzles(key: &str, value: &Value, size: Size) -> Result<Vec<Added>, FpuzzlesError> {
        let kind = kind_named(key);
        let mut out = Vec::new();
        for (k, item) in fp::items(key, value)?.iter().enumerate() {
            let place = format!("`{key}` {}", k + 1);
            for cell in fp::read_cells(item.get("cells"), size, &place)? {
                out.extend(one(Indexer { kind, cell }));
            }
        }
        Ok(out)
    }

    fn from_text(name: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let kind = kind_named(name);
        read_cell_words(words, size, |cell| Indexer { kind, cell }.into())
    }
    const SIGH: &'static [&'static str] = &["Indexing"];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        let kind = match item.args.first().map(String::as_str) {
            Some("R") => Indexing::Row,
            Some("C") => Indexing::Column,
            _ => return Err(item.invalid("the indexing must be R or C")),
        };
        let cells = item.cells(&item.args[1..])?;
        Ok(cells
            .into_iter()
            .map(|cell| Added::Constraint(Indexer { kind, cell }.into()))
            .collect())
    }
}

/// The indexing a key or name (`rowindexer`, `box indexer`) starts with.
fn kind_named(name: &str) -> Indexing {
    if name.starts_with("row") {
        Indexing::Row
    } else if name.starts_with("column") {
        Indexing::Column
    } else {
        Indexing::Box
    }
}

impl fmt::Display for Indexer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} indexer {}", self.kind.word(), self.cell)
    }
}

impl Indexer {
    /// How many cells the line it indexes has: a column's rows, a row's
    /// columns, a region's cells (on a rectangle, a short line has fewer
    /// cells than the board has values, and the indexer's digit names
    /// one of them, as sigh's `Indexing` keeps it).
    fn line_length(&self, size: Size) -> usize {
        match self.kind {
            Indexing::Row => size.rows(),
            Indexing::Column => size.cols(),
            Indexing::Box => size.side(),
        }
    }
}

impl Rule for Indexer {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        vec![self.cell]
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        on_grid(self.cell)
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        let me = size.index(self.cell);
        let (row, col) = (self.cell.row(), self.cell.col());
        let length = self.line_length(size);
        // For each digit `v`: the cell it points at, and the digit that
        // cell must then hold.
        let target = |v: usize| -> Option<(usize, u8)> {
            match self.kind {
                Indexing::Row => Some((size.index(size.cell(v - 1, col)), row as u8 + 1)),
                Indexing::Column => Some((size.index(size.cell(row, v - 1)), col as u8 + 1)),
                Indexing::Box => {
                    let region = &context.regions[context.region_of[me]?];
                    let place = region.iter().position(|&c| c == me)?;
                    Some((*region.get(v - 1)?, place as u8 + 1))
                }
            }
        };
        let mut out: Vec<Primitive> = (1..=length)
            .filter_map(|v| {
                let (other, digit) = target(v)?;
                (other != me).then(|| pair(me, other, Relation::Implies(v as u8, digit)))
            })
            .collect();
        if length < size.values() {
            out.push(Primitive::Allowed {
                cell: me,
                digits: digit_range(1, length),
            });
        }
        out
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let (size, rules, cell) = (board.size(), board.rules, self.cell);
        let v = usize::from(board.digit(cell));
        let length = self.line_length(size);
        if v > length {
            return Some(format!("{cell} holds {v}, and its line has {length} cells"));
        }
        let (target, want) = match self.kind {
            Indexing::Row => (Some(size.cell(v - 1, cell.col())), cell.row() + 1),
            Indexing::Column => (Some(size.cell(cell.row(), v - 1)), cell.col() + 1),
            Indexing::Box => {
                let me = size.index(cell);
                let region = rules.region_of(me).map(|r| &rules.regions()[r]);
                let place = region
                    .and_then(|r| r.iter().position(|&c| c == me))
                    .unwrap_or(0);
                (
                    region.and_then(|r| r.get(v - 1)).map(|&c| size.cell_at(c)),
                    place + 1,
                )
            }
        };
        match target {
            Some(target) if usize::from(board.digit(target)) == want => None,
            Some(target) => Some(format!("{cell} holds {v}, so {target} should hold {want}")),
            None => Some(format!("{cell} is in no region")),
        }
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        // Rows red, columns green, boxes blue, as f-puzzles colours them.
        let (tint, words) = match self.kind {
            Indexing::Row => (
                Tint::Red,
                "red cells index rows: a digit v in row r says that row v of its column holds r",
            ),
            Indexing::Column => (
                Tint::Green,
                "green cells index columns: a digit v in column c says that column v of its row holds c",
            ),
            Indexing::Box => (
                Tint::Blue,
                "blue cells index boxes: a digit v at place p of its box says that place v of the box holds p",
            ),
        };
        vec![
            Mark::Shade {
                cells: vec![self.cell],
                tint,
            },
            Mark::Note(words.to_string()),
        ]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        let key = match self.kind {
            Indexing::Row => "rowindexer",
            Indexing::Column => "columnindexer",
            Indexing::Box => "boxindexer",
        };
        Some((key, cells_only(&[self.cell])))
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        match self.kind {
            Indexing::Row => sigh::ToSigh::Item(format!(".Indexing~R~{}", sigh::id(self.cell))),
            Indexing::Column => sigh::ToSigh::Item(format!(".Indexing~C~{}", sigh::id(self.cell))),
            Indexing::Box => sigh::ToSigh::Cannot("sigh indexes rows and columns only"),
        }
    }
}
