//! Marks between two orthogonal neighbours: white and black dots, X and V.

use super::FromZero;
use super::{Added, Read, Rule, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{Context, neighbours, pair};
use crate::puzzle::fpuzzles::write::{Item, names};
use crate::puzzle::fpuzzles::{self as fp, FpuzzlesError};
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::{Primitive, Relation};
use crate::puzzle::rule_text as text;
use crate::puzzle::sigh;
use crate::puzzle::sketch;
use serde_json::{Map, Value, json};
use std::fmt;

/// A mark as f-puzzles lists it: its two cells, its item, and its place
/// for messages.
type Mark<'a> = ([Cell; 2], &'a Value, String);

/// The marks under `key`.
fn read_marks<'a>(key: &str, value: &'a Value, size: Size) -> Result<Vec<Mark<'a>>, FpuzzlesError> {
    let mut out = Vec::new();
    for (k, item) in fp::items(key, value)?.iter().enumerate() {
        let place = format!("`{key}` {}", k + 1);
        let cells = fp::read_cells(item.get("cells"), size, &place)?;
        let [a, b] = cells[..] else {
            return Err(fp::invalid(&place, "a dot joins two cells"));
        };
        out.push(([a, b], item, place));
    }
    Ok(out)
}

/// A dot's two cells from a rule line.
fn pair_words(words: &[String], size: Size) -> Result<[Cell; 2], String> {
    match text::cells(words, size)?[..] {
        [a, b] => Ok([a, b]),
        _ => Err("a dot joins two cells".into()),
    }
}

/// A dot's value from f-puzzles (`default` when it has none).
fn dot_value(item: &Value, place: &str, default: u32) -> Result<u8, FpuzzlesError> {
    let value = match fp::blank(item.get("value")) {
        true => default,
        false => fp::clue_number(item, place)?,
    };
    fp::small(value, place)
}

/// A dot from a rule line: `white dot 2 r1c1 r1c2`, the value optional.
fn dot_words(words: &[String], size: Size, default: u32) -> Result<([Cell; 2], u8), String> {
    let (value, skip) = text::leading(words);
    let cells = pair_words(&words[skip..], size)?;
    let value = value.unwrap_or(default);
    let value = u8::try_from(value).map_err(|_| format!("{value} is too large"))?;
    Ok((cells, value))
}

/// Says why a dot cannot hold.
fn dot_fits(cells: &[Cell; 2], value: u8) -> Result<(), String> {
    if cells[0] == cells[1] {
        return Err(format!("{} is listed twice", cells[0]));
    }
    if !neighbours(cells) {
        return Err("a dot joins two orthogonal neighbours".into());
    }
    if value == 0 {
        return Err("the dot's value must be at least 1".into());
    }
    Ok(())
}

/// A white or black dot, its value written only when it is not the
/// default f-puzzles assumes.
fn dot_item(cells: &[Cell; 2], value: u8, default: u8) -> Item {
    let mut dot = Map::new();
    dot.insert("cells".into(), names(cells));
    if value != default {
        dot.insert("value".into(), json!(value.to_string()));
    }
    Item::Entry(Value::Object(dot))
}

/// `(r1c1 r1c2)`.
fn shown(cells: &[Cell; 2]) -> String {
    format!("({} {})", cells[0], cells[1])
}

/// A white dot: two neighbours differ by `value`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Difference {
    /// The two cells.
    pub cells: [Cell; 2],
    /// The difference.
    pub value: u8,
}

impl Read for Difference {
    const KEYS: &'static [&'static str] = &["difference"];
    const NAMES: &'static [&'static str] = &["white dot", "difference"];

    fn from_fpuzzles(key: &str, value: &Value, size: Size) -> Result<Vec<Added>, FpuzzlesError> {
        let mut out = Vec::new();
        for (cells, item, place) in read_marks(key, value, size)? {
            let value = dot_value(item, &place, 1)?;
            out.extend(one(Difference { cells, value }));
        }
        Ok(out)
    }

    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let (cells, value) = dot_words(words, size, 1)?;
        Ok(one(Difference { cells, value }))
    }
    const SIGH: &'static [&'static str] = &["WhiteDot", "Pair"];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        if item.kind == "WhiteDot" {
            let pairs = item.neighbour_pairs()?;
            return Ok(pairs
                .into_iter()
                .map(|cells| Added::Constraint(Difference { cells, value: 1 }.into()))
                .collect());
        }
        // A `Pair` of two cells whose relation is one difference.
        let cells = item.cells(&item.args[1..])?;
        let side = item.size.values() as u8;
        let found = (1..side).find(|&k| item.relation_is(Relation::DifferenceIs(k)));
        Ok(match (found, cells.as_slice()) {
            (Some(value), &[a, b]) => one(Difference {
                cells: [a, b],
                value,
            }),
            _ => Vec::new(),
        })
    }
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "white dot {} {}", self.value, shown(&self.cells))
    }
}

impl Rule for Difference {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.to_vec()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        dot_fits(&self.cells, self.value)
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        vec![pair(
            size.index(self.cells[0]),
            size.index(self.cells[1]),
            Relation::DifferenceIs(self.value),
        )]
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let [a, b] = self.cells;
        (board.digit(a).abs_diff(board.digit(b)) != self.value).then(|| board.holds(&self.cells))
    }
    fn sketch(&self, _size: Size) -> Vec<sketch::Mark> {
        vec![sketch::Mark::Dot {
            cells: self.cells,
            black: false,
            text: (self.value != 1).then(|| self.value.to_string()),
        }]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some(("difference", dot_item(&self.cells, self.value, 1)))
    }
    fn to_sigh(&self, board: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        let cells = sigh::ids(&self.cells);
        if self.value == 1 {
            return sigh::ToSigh::Item(format!(".WhiteDot{cells}"));
        }
        let key = sigh::relation_key(board.size.values(), |a, b| {
            Relation::DifferenceIs(self.value).allows(a, b)
        });
        sigh::ToSigh::Item(format!(".Pair~{key}{cells}"))
    }
}

/// A black dot: one of two neighbours is `value` times the other.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ratio {
    /// The two cells.
    pub cells: [Cell; 2],
    /// The ratio.
    pub value: u8,
}

impl Read for Ratio {
    const KEYS: &'static [&'static str] = &["ratio"];
    const NAMES: &'static [&'static str] = &["black dot", "ratio"];

    fn from_fpuzzles(key: &str, value: &Value, size: Size) -> Result<Vec<Added>, FpuzzlesError> {
        let mut out = Vec::new();
        for (cells, item, place) in read_marks(key, value, size)? {
            let value = dot_value(item, &place, 2)?;
            out.extend(one(Ratio { cells, value }));
        }
        Ok(out)
    }

    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let (cells, value) = dot_words(words, size, 2)?;
        Ok(one(Ratio { cells, value }))
    }
    const SIGH: &'static [&'static str] = &["BlackDot", "Pair"];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        if item.kind == "BlackDot" {
            let pairs = item.neighbour_pairs()?;
            return Ok(pairs
                .into_iter()
                .map(|cells| Added::Constraint(Ratio { cells, value: 2 }.into()))
                .collect());
        }
        // A `Pair` of two cells whose relation is one ratio.
        let cells = item.cells(&item.args[1..])?;
        let side = item.size.values() as u8;
        let found = (2..=side).find(|&k| item.relation_is(Relation::RatioIs(k)));
        Ok(match (found, cells.as_slice()) {
            (Some(value), &[a, b]) => one(Ratio {
                cells: [a, b],
                value,
            }),
            _ => Vec::new(),
        })
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "black dot {} {}", self.value, shown(&self.cells))
    }
}

impl Rule for Ratio {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.to_vec()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        dot_fits(&self.cells, self.value)
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        vec![pair(
            size.index(self.cells[0]),
            size.index(self.cells[1]),
            Relation::RatioIs(self.value),
        )]
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let (x, y, r) = (
            u32::from(board.digit(self.cells[0])),
            u32::from(board.digit(self.cells[1])),
            u32::from(self.value),
        );
        (x != r * y && y != r * x).then(|| board.holds(&self.cells))
    }
    fn sketch(&self, _size: Size) -> Vec<sketch::Mark> {
        vec![sketch::Mark::Dot {
            cells: self.cells,
            black: true,
            text: (self.value != 2).then(|| self.value.to_string()),
        }]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some(("ratio", dot_item(&self.cells, self.value, 2)))
    }
    fn to_sigh(&self, board: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        let cells = sigh::ids(&self.cells);
        if self.value == 2 {
            return sigh::ToSigh::Item(format!(".BlackDot{cells}"));
        }
        let key = sigh::relation_key(board.size.values(), |a, b| {
            Relation::RatioIs(self.value).allows(a, b)
        });
        sigh::ToSigh::Item(format!(".Pair~{key}{cells}"))
    }
}

/// An X (sum 10) or a V (sum 5) between two neighbours.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Xv {
    /// The two cells.
    pub cells: [Cell; 2],
    /// 10 or 5.
    pub sum: u8,
}

impl Read for Xv {
    const KEYS: &'static [&'static str] = &["xv"];
    /// `x` and `v` name a mark only when a cell follows (see
    /// [`rule_text`](crate::puzzle::rule_text)).
    const NAMES: &'static [&'static str] = &["xv", "x", "v"];

    fn from_fpuzzles(key: &str, value: &Value, size: Size) -> Result<Vec<Added>, FpuzzlesError> {
        let mut out = Vec::new();
        for (cells, item, place) in read_marks(key, value, size)? {
            let sum = match item.get("value").and_then(Value::as_str).map(str::trim) {
                Some("X" | "x") => 10,
                Some("V" | "v") => 5,
                // A mark without a letter is only drawn.
                _ if fp::blank(item.get("value")) => continue,
                Some(other) => {
                    return Err(fp::invalid(
                        &place,
                        format!("`value` {other:?} is not X or V"),
                    ));
                }
                None => return Err(fp::invalid(&place, "`value` is not X or V")),
            };
            out.extend(one(Xv { cells, sum }));
        }
        Ok(out)
    }

    fn from_text(name: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let (sum, words) = match name {
            "x" => (10, words),
            "v" => (5, words),
            _ => match words.first().map(String::as_str) {
                Some("x") => (10, &words[1..]),
                Some("v") => (5, &words[1..]),
                _ => return Err("xv needs X or V before its cells".into()),
            },
        };
        Ok(one(Xv {
            cells: pair_words(words, size)?,
            sum,
        }))
    }
    const SIGH: &'static [&'static str] = &["X", "V"];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        let sum = if item.kind == "X" { 10 } else { 5 };
        let pairs = item.neighbour_pairs()?;
        Ok(pairs
            .into_iter()
            .map(|cells| Added::Constraint(Xv { cells, sum }.into()))
            .collect())
    }
}

impl fmt::Display for Xv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mark = if self.sum == 10 { "X" } else { "V" };
        write!(f, "{mark} {}", shown(&self.cells))
    }
}

impl Rule for Xv {
    /// The two values add up to 10 or 5, so the two digits to 2 more: a
    /// weighted sum, as no X or V says it.
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::As(
            super::sums::WeightedSum {
                terms: self.cells.iter().map(|&c| (c, 1)).collect(),
                sum: i32::from(self.sum) + 2,
            }
            .into(),
        )
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.to_vec()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        if self.cells[0] == self.cells[1] {
            return Err(format!("{} is listed twice", self.cells[0]));
        }
        if !neighbours(&self.cells) {
            return Err("an X or V joins two orthogonal neighbours".into());
        }
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        vec![pair(
            size.index(self.cells[0]),
            size.index(self.cells[1]),
            Relation::SumIs(self.sum),
        )]
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        (board.digit(self.cells[0]) + board.digit(self.cells[1]) != self.sum)
            .then(|| board.holds(&self.cells))
    }
    fn sketch(&self, _size: Size) -> Vec<sketch::Mark> {
        let text = match self.sum {
            10 => "X".to_string(),
            5 => "V".to_string(),
            sum => sum.to_string(),
        };
        vec![sketch::Mark::EdgeText {
            cells: self.cells,
            text,
        }]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some((
            "xv",
            Item::Entry(json!({
                "cells": names(&self.cells),
                "value": if self.sum == 10 { "X" } else { "V" },
            })),
        ))
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        match self.sum {
            10 => sigh::ToSigh::Item(format!(".X{}", sigh::ids(&self.cells))),
            5 => sigh::ToSigh::Item(format!(".V{}", sigh::ids(&self.cells))),
            _ => sigh::ToSigh::Cannot(sigh::NO_SUCH_RULE),
        }
    }
}
