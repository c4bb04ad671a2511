//! A rule on a board whose values run from 0 (sigh's `Shape~9x9~0-8`) that
//! reads what the values are: a cage's sum, an arrow, an X. z3doku solves
//! such a board on the digits 1 to N, each the value plus one, so the rule
//! is solved as its kind restates it on the digits ([`Rule::on_values_from_zero`]: a
//! cage of two cells adding up to 10 adds up to 12 there), and kept as the
//! puzzle stated it for what people and sigh read: its name in messages,
//! its marks, its sigh item.
//!
//! It is made by [`RulesBuilder`](crate::puzzle::rules::RulesBuilder) on
//! such boards, never read: no f-puzzles key, rule line or sigh type names
//! it.

use super::FromZero;
use super::{Added, Constraint, Read, Rule, no_key};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::Context;
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::Primitive;
use crate::puzzle::sigh::{self, SighBoard, ToSigh};
use crate::puzzle::sketch::Mark;
use serde_json::Value;
use std::fmt;

/// A rule as the puzzle states it on values from 0, and as it is solved
/// on the digits 1 to N.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shifted {
    /// As the puzzle states it, on the values.
    pub stated: Box<Constraint>,
    /// The same on the digits, each the value plus one.
    pub solved: Box<Constraint>,
}

impl Read for Shifted {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &[];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    fn from_text(_: &str, _: &[String], _: Size) -> Result<Vec<Added>, String> {
        Err("a rule restated on values from 0 has no rule line".into())
    }
    const SIGH: &'static [&'static str] = &[];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        Err(item.unknown())
    }
}

impl fmt::Display for Shifted {
    /// As the puzzle states it: `cage 10 (r1c1 r1c2)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.stated, f)
    }
}

impl Rule for Shifted {
    /// Already on the digits.
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        self.stated.cells()
    }

    /// Whether it can hold on the digits, where it is solved.
    fn validate(&self, size: Size) -> Result<(), String> {
        self.solved
            .validate(size)
            .map_err(|why| format!("{why} (on the digits, each its value plus one)"))
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        self.solved.lower(context)
    }

    /// The solved rule's test on the digits, which is the stated rule's on
    /// the values: the kind's own test, not its primitives.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        self.solved
            .broken(board)
            .map(|why| format!("{why} (on the digits, each its value plus one)"))
    }

    fn sketch(&self, size: Size) -> Vec<Mark> {
        self.stated.sketch(size)
    }

    /// None: f-puzzles' digits run from 1, so it cannot say the rule.
    fn to_fpuzzles(&self, _size: Size) -> Option<(&'static str, Item)> {
        None
    }

    /// The stated rule's item: sigh reads it on the values.
    fn to_sigh(&self, board: &SighBoard<'_>) -> ToSigh {
        self.stated.to_sigh(board)
    }
}
