//! Cages and regions: groups of cells whose digits differ, or add up to
//! something.

use super::FromZero;
use super::{Added, Read, Rule, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{Context, index, list, listed_once, ones, sum};
use crate::puzzle::fpuzzles::write::{Item, cells_only, names};
use crate::puzzle::fpuzzles::{self as fp, FpuzzlesError};
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::Primitive;
use crate::puzzle::rule_text as text;
use crate::puzzle::sigh;
use crate::puzzle::sketch::{Mark, Tint};
use serde_json::{Map, Value, json};
use std::fmt;

/// A killer cage: its cells hold different digits and, when `sum` is
/// given, add up to it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cage {
    /// The cells, at least one.
    pub cells: Vec<Cell>,
    /// The total, when the cage has one.
    pub sum: Option<u32>,
}

/// A digital-root cage: the sum of its digits (repeats allowed) has
/// digital root `root`, that is it is `root`, `root + 9`, …
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DigitalRoot {
    /// The cells.
    pub cells: Vec<Cell>,
    /// The root, 1 to 9.
    pub root: u32,
}

/// An extra region: its cells hold different digits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ExtraRegion(pub Vec<Cell>);

/// A region with fewer cells than a row, as when some of its cells belong
/// to no region: its cells hold different digits. Made from the regions
/// by [`RulesBuilder::build`](crate::puzzle::rules::RulesBuilder::build),
/// never read on its own.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PartialRegion {
    /// The region's number, 0-based.
    pub number: usize,
    /// Its cells.
    pub cells: Vec<Cell>,
}

/// `n` cells that must hold different digits, on a board of `side`.
fn fits(n: usize, side: usize) -> Result<(), String> {
    if n > side {
        return Err(format!(
            "{n} cells cannot hold different digits from 1 to {side}"
        ));
    }
    Ok(())
}

/// A cage's rule line: `cage 15 r1c1 r1c2`, `cage r1c1 r1c2`, `cage dr5 …`.
fn cage_from_text(words: &[String], size: Size) -> Result<Vec<Added>, String> {
    if let Some(root) = words
        .first()
        .and_then(|w| w.strip_prefix("dr"))
        .and_then(|r| r.parse().ok())
    {
        return Ok(one(DigitalRoot {
            cells: text::cells(&words[1..], size)?,
            root,
        }));
    }
    let (sum, skip) = text::leading(words);
    Ok(one(Cage {
        cells: text::cells(&words[skip..], size)?,
        sum,
    }))
}

impl Read for Cage {
    const KEYS: &'static [&'static str] = &["killercage"];
    const NAMES: &'static [&'static str] = &["killercage", "killer", "cage"];

    fn from_fpuzzles(key: &str, value: &Value, size: Size) -> Result<Vec<Added>, FpuzzlesError> {
        let mut out = Vec::new();
        for (k, item) in fp::items(key, value)?.iter().enumerate() {
            let place = format!("`{key}` {}", k + 1);
            let cells = fp::read_cells(item.get("cells"), size, &place)?;
            let sum = match fp::blank(item.get("value")) {
                true => None,
                false => Some(fp::clue_number(item, &place)?),
            };
            out.extend(one(Cage { cells, sum }));
        }
        Ok(out)
    }

    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        cage_from_text(words, size)
    }
    const SIGH: &'static [&'static str] = &["Cage"];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        let sum = match item.args.first().map(String::as_str) {
            // No sum, or a sum of 0: sigh states only the distinct digits.
            None | Some("") | Some("0") => None,
            Some(_) => Some(item.number(item.args.first())?),
        };
        let cells = item.cells(item.args.get(1..).unwrap_or_default())?;
        Ok(one(Cage { cells, sum }))
    }
}

impl fmt::Display for Cage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.sum {
            Some(sum) => write!(f, "cage {sum} ({})", list(&self.cells, " ")),
            None => write!(f, "cage ({})", list(&self.cells, " ")),
        }
    }
}

impl Rule for Cage {
    /// Without a sum a cage only keeps its digits apart; with one, each
    /// cell's digit is its value plus one, so the digits add up to the sum
    /// plus the count of cells.
    fn on_values_from_zero(&self) -> FromZero {
        match self.sum {
            None => FromZero::Same,
            Some(sum) => FromZero::As(
                Cage {
                    cells: self.cells.clone(),
                    sum: Some(sum + self.cells.len() as u32),
                }
                .into(),
            ),
        }
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        listed_once(&self.cells)?;
        let (n, side) = (self.cells.len(), size.values());
        if n == 0 {
            return Err("a cage needs at least one cell".into());
        }
        fits(n, side)?;
        if let Some(sum) = self.sum {
            let low = (1..=n as u32).sum::<u32>();
            let high = ((side - n + 1) as u32..=side as u32).sum::<u32>();
            if !(low..=high).contains(&sum) && n == 1 {
                return Err(format!("one cell holds 1 to {side}, never {sum}"));
            }
            if !(low..=high).contains(&sum) {
                return Err(format!(
                    "no {n} different digits add up to {sum} (they make {low} to {high})"
                ));
            }
        }
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        vec![Primitive::Distinct {
            cells: index(context.size, &self.cells),
            sum: self.sum,
        }]
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        board.repeat(&self.cells).or_else(|| {
            let got = board.total(&self.cells);
            self.sum
                .filter(|&s| s != got)
                .map(|_| format!("the digits add up to {got}"))
        })
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![Mark::Cage {
            cells: self.cells.clone(),
            label: self.sum.map(|s| s.to_string()),
        }]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        let mut cage = Map::new();
        cage.insert("cells".into(), names(&self.cells));
        if let Some(sum) = self.sum {
            cage.insert("value".into(), json!(sum.to_string()));
        }
        Some(("killercage", Item::Entry(Value::Object(cage))))
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(format!(
            ".Cage~{}{}",
            self.sum.map_or(String::new(), |s| s.to_string()),
            sigh::ids(&self.cells)
        ))
    }
}

impl Read for DigitalRoot {
    /// Drawn cages are decoration, unless one carries a digital root
    /// (`DR5`).
    const KEYS: &'static [&'static str] = &["cage"];
    /// Read as a cage whose number is `DR<root>`.
    const NAMES: &'static [&'static str] = &[];

    fn from_fpuzzles(key: &str, value: &Value, size: Size) -> Result<Vec<Added>, FpuzzlesError> {
        let mut out = Vec::new();
        for (k, item) in fp::items(key, value)?.iter().enumerate() {
            if fp::blank(item.get("value")) {
                continue;
            }
            let place = format!("`{key}` {}", k + 1);
            let text = item
                .get("value")
                .and_then(Value::as_str)
                .unwrap_or("")
                .trim();
            let root = text
                .strip_prefix("DR")
                .or_else(|| text.strip_prefix("dr"))
                .and_then(|n| n.trim().parse::<u32>().ok());
            // Any other value was meant as a rule z3doku does not read.
            let Some(root) = root else {
                return Err(FpuzzlesError::Unsupported {
                    key: key.into(),
                    place: format!(" with the value {text:?} (a killer cage is `killercage`)"),
                });
            };
            let cells = fp::read_cells(item.get("cells"), size, &place)?;
            out.extend(one(DigitalRoot { cells, root }));
        }
        Ok(out)
    }

    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        cage_from_text(words, size)
    }
    const SIGH: &'static [&'static str] = &[];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        Err(item.unknown())
    }
}

impl fmt::Display for DigitalRoot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cage DR{} ({})", self.root, list(&self.cells, " "))
    }
}

impl Rule for DigitalRoot {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        listed_once(&self.cells)?;
        if self.cells.is_empty() || !(1..=9).contains(&self.root) {
            return Err("a digital-root cage needs cells and a root from 1 to 9".into());
        }
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let top = (context.size.values() * self.cells.len()) as i32;
        let totals = (0..)
            .map(|k| self.root as i32 + 9 * k)
            .take_while(|&t| t <= top);
        vec![sum(
            ones(&index(context.size, &self.cells)),
            totals.collect(),
        )]
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let got = board.total(&self.cells);
        (got < self.root || !(got - self.root).is_multiple_of(9))
            .then(|| format!("the digits add up to {got}"))
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![
            Mark::Cage {
                cells: self.cells.clone(),
                label: Some(self.root.to_string()),
            },
            Mark::Note("digital root cages: the cage's digits add up to a number whose digital root is its clue".into()),
        ]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some((
            "cage",
            Item::Entry(
                json!({ "cells": names(&self.cells), "value": format!("DR{}", self.root) }),
            ),
        ))
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Cannot(sigh::NO_SUCH_RULE)
    }
}

impl Read for ExtraRegion {
    const KEYS: &'static [&'static str] = &["extraregion"];
    const NAMES: &'static [&'static str] = &["extra region", "extraregion"];

    fn from_fpuzzles(key: &str, value: &Value, size: Size) -> Result<Vec<Added>, FpuzzlesError> {
        let mut out = Vec::new();
        for (k, item) in fp::items(key, value)?.iter().enumerate() {
            let place = format!("`{key}` {}", k + 1);
            out.extend(one(ExtraRegion(fp::read_cells(
                item.get("cells"),
                size,
                &place,
            )?)));
        }
        Ok(out)
    }

    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        Ok(one(ExtraRegion(text::cells(words, size)?)))
    }
    const SIGH: &'static [&'static str] = &["AllDifferent"];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        Ok(one(ExtraRegion(item.cells(item.args)?)))
    }
}

impl fmt::Display for ExtraRegion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "extra region ({})", list(&self.0, " "))
    }
}

impl Rule for ExtraRegion {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        self.0.clone()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        listed_once(&self.0)?;
        fits(self.0.len(), size.values())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        vec![Primitive::Distinct {
            cells: index(context.size, &self.0),
            sum: None,
        }]
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        board.repeat(&self.0)
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![Mark::Shade {
            cells: self.0.clone(),
            tint: Tint::Grey,
        }]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some(("extraregion", cells_only(&self.0)))
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(format!(".AllDifferent{}", sigh::ids(&self.0)))
    }
}

impl Read for PartialRegion {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &[];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        Err(fp::invalid(
            format!("`{key}`"),
            "a partial region comes from the grid's `region`s",
        ))
    }

    fn from_text(_: &str, _: &[String], _: Size) -> Result<Vec<Added>, String> {
        Err("a partial region comes from `regions`".into())
    }
    const SIGH: &'static [&'static str] = &[];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        Err(item.unknown())
    }
}

impl fmt::Display for PartialRegion {
    /// Numbered from 1, as messages number houses.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "region {} ({})", self.number + 1, list(&self.cells, " "))
    }
}

impl Rule for PartialRegion {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        listed_once(&self.cells)
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        vec![Primitive::Distinct {
            cells: index(context.size, &self.cells),
            sum: None,
        }]
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        board.repeat(&self.cells)
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![Mark::RegionBorder(self.cells.clone())]
    }

    /// Written cell by cell in the grid's `region`s.
    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        // Written with the regions, as an `.AllDifferent` after the layout.
        sigh::ToSigh::Elsewhere
    }
}

#[cfg(test)]
mod tests {
    use super::Cage;
    use crate::puzzle::grid::Size;
    use crate::puzzle::rules::Rules;

    #[test]
    fn a_cage_sum_out_of_reach_reads_in_good_english() {
        let error = |cells: &[(usize, usize)], sum| {
            let cells = cells.iter().map(|&(r, c)| Size::NINE.cell(r, c)).collect();
            Rules::builder(Size::NINE)
                .constraint(Cage {
                    cells,
                    sum: Some(sum),
                })
                .err()
                .map(|e| e.to_string())
        };
        assert_eq!(
            error(&[(0, 0)], 99).as_deref(),
            Some("cage 99 (r1c1): one cell holds 1 to 9, never 99")
        );
        assert_eq!(
            error(&[(0, 0), (0, 1)], 50).as_deref(),
            Some("cage 50 (r1c1 r1c2): no 2 different digits add up to 50 (they make 3 to 17)")
        );
    }
}
