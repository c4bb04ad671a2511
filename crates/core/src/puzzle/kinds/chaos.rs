//! Chaos construction (sigh's `ChaosConstruction`): the board also parts
//! into N orthogonally connected regions of N cells (on an NxN board),
//! each holding every digit once, and which cells form which region is for
//! the solver to find. As in sigh it is a rule beside the board's own
//! regions: a chaos puzzle drops the boxes as any board does (sigh's
//! `NoBoxes`, a `regions` line of dots), and one that keeps them has both.
//!
//! A solution is its digits: the regions are a witness that they keep the
//! rule. Two solutions with the same digits and different regions are one
//! solution here, where sigh, which solves for a region label per cell
//! too, counts each parting (see build.md, "Chaos construction"). The
//! checker finds a parting of the full grid by its own search
//! ([`partings`]), which the outputs print.
//!
//! f-puzzles has no such rule: it is read from rule lines and sigh
//! strings, and `--output fpuzzles` refuses it by name. sigh's clues over
//! the regions (`ChaosArrow`, `ChaosCount`) and its givens on region
//! cells (`CC1_2`) are not read: the sigh reader refuses them by name.

use super::{Added, FromZero, Read, Rule, no_key, one};
use crate::puzzle::chaos::Chaos;
use crate::puzzle::check::Board;
use crate::puzzle::constraint::Context;
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Grid, Size};
use crate::puzzle::primitive::Primitive;
use crate::puzzle::sigh;
use crate::puzzle::sketch::Mark;
use serde_json::Value;
use std::fmt;
use std::sync::Arc;

/// The board parts into connected regions that each hold every digit once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChaosConstruction;

/// The largest side chaos construction is stated on: sigh's largest board.
pub const LARGEST_SIDE: usize = 16;

impl Read for ChaosConstruction {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["chaos construction", "chaosconstruction"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    /// `chaos construction`, with nothing after it.
    fn from_text(_: &str, words: &[String], _: Size) -> Result<Vec<Added>, String> {
        match words {
            [] => Ok(one(ChaosConstruction)),
            _ => Err(format!(
                "expected nothing after `chaos construction`, found {:?}",
                words.join(" ")
            )),
        }
    }

    const SIGH: &'static [&'static str] = &["ChaosConstruction"];

    /// `.ChaosConstruction`, with no arguments.
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        match item.args {
            [] => Ok(one(ChaosConstruction)),
            _ => Err(item.invalid("expected no arguments")),
        }
    }
}

impl fmt::Display for ChaosConstruction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("chaos construction")
    }
}

impl Rule for ChaosConstruction {
    /// It reads only which digits repeat.
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    /// Refused as sigh refuses it: regions of one cell; and past sigh's
    /// largest board.
    fn validate(&self, size: Size) -> Result<(), String> {
        match size.side() {
            0 | 1 => Err(format!(
                "the {size} board's regions would be single cells: chaos construction needs regions of 2 cells or more"
            )),
            side if side > LARGEST_SIDE => Err(format!(
                "z3doku states chaos construction on boards up to {LARGEST_SIDE}x{LARGEST_SIDE}, not {size}"
            )),
            _ => Ok(()),
        }
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        vec![Primitive::Chaos(Arc::new(Chaos::new(context.size.side())))]
    }

    /// As the rule reads: some parting of the full grid into connected
    /// regions of N cells with N different digits each.
    /// A solution's own regions are checked as they are; a grid without
    /// them must part somehow.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        if let Some(regions) = board.grid.regions() {
            return wrong_regions(board.grid, regions);
        }
        partings(board.grid, 1).is_empty().then(|| {
            let n = board.size().side();
            format!(
                "the grid parts into no {n} connected regions of {n} cells that each hold every digit once"
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
        sigh::ToSigh::Item(".ChaosConstruction".into())
    }
}

/// What is wrong with `regions` (each cell's region) as a parting of the
/// full `grid`: a region of other than N cells, with a digit twice, or in
/// pieces.
pub fn wrong_regions(grid: &Grid, regions: &[u8]) -> Option<String> {
    let size = grid.size();
    let n = size.side();
    if regions.len() != size.cells() {
        return Some(format!(
            "its regions name {} cells, not {}",
            regions.len(),
            size.cells()
        ));
    }
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (cell, &r) in regions.iter().enumerate() {
        match members.get_mut(usize::from(r)) {
            Some(cells) => cells.push(cell),
            None => {
                return Some(format!(
                    "{} is in region {}, past the {n} regions",
                    size.cell_at(cell),
                    r + 1
                ));
            }
        }
    }
    for (r, cells) in members.iter().enumerate() {
        if cells.len() != n {
            return Some(format!(
                "region {} has {} cells, not {n}",
                r + 1,
                cells.len()
            ));
        }
        let mut seen = 0u32;
        for &c in cells {
            let bit = 1u32 << grid.get(c);
            if seen & bit != 0 {
                return Some(format!("region {} holds {} twice", r + 1, grid.get(c)));
            }
            seen |= bit;
        }
        let mut reached = vec![cells[0]];
        let mut k = 0;
        while let Some(&c) = reached.get(k) {
            k += 1;
            for m in size.orthogonal(c) {
                if regions[m] == regions[c] && !reached.contains(&m) {
                    reached.push(m);
                }
            }
        }
        if reached.len() != n {
            return Some(format!("region {} is in pieces", r + 1));
        }
    }
    None
}

/// Up to `limit` partings of the full `grid` into N connected regions of
/// N cells, each holding N different digits: each a region number per
/// cell, the regions numbered from 0 in the order their first cells come
/// in reading order (so each parting once). A plain search of its own,
/// apart from the engines' ([`Chaos`]): each region grows from the first
/// cell in none, and every cell of its border is tried in and out.
pub fn partings(grid: &Grid, limit: usize) -> Vec<Vec<u8>> {
    let size = grid.size();
    let mut found = Vec::new();
    if limit == 0 || size.side() > LARGEST_SIDE || !grid.is_full() {
        return found;
    }
    let mut parting = Parting {
        grid,
        size,
        region: vec![None; size.cells()],
        found: &mut found,
        limit,
    };
    parting.next(0);
    found
}

struct Parting<'a> {
    grid: &'a Grid,
    size: Size,
    region: Vec<Option<u8>>,
    found: &'a mut Vec<Vec<u8>>,
    limit: usize,
}

impl Parting<'_> {
    fn done(&self) -> bool {
        self.found.len() >= self.limit
    }

    /// Starts region `k` at the first cell in none.
    fn next(&mut self, k: u8) {
        let Some(root) = self.region.iter().position(Option::is_none) else {
            self.found
                .push(self.region.iter().map(|r| r.unwrap_or(0)).collect());
            return;
        };
        self.region[root] = Some(k);
        let digits = 1u32 << self.grid.get(root);
        self.grow(k, 1, digits, Vec::new(), vec![root]);
        self.region[root] = None;
    }

    /// Region `k` has `count` cells holding `digits`; `out` are the cells
    /// decided out of it, `members` its cells.
    fn grow(&mut self, k: u8, count: usize, digits: u32, out: Vec<usize>, members: Vec<usize>) {
        if self.done() {
            return;
        }
        if count == self.size.side() {
            self.next(k + 1);
            return;
        }
        // The first border cell not decided: in, then out.
        let border = members
            .iter()
            .flat_map(|&m| self.size.orthogonal(m))
            .find(|&c| self.region[c].is_none() && !out.contains(&c));
        let Some(cell) = border else {
            return;
        };
        let bit = 1u32 << self.grid.get(cell);
        if digits & bit == 0 {
            self.region[cell] = Some(k);
            let mut more = members.clone();
            more.push(cell);
            self.grow(k, count + 1, digits | bit, out.clone(), more);
            self.region[cell] = None;
        }
        let mut out = out;
        out.push(cell);
        self.grow(k, count, digits, out, members);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse::parse_puzzle;

    #[test]
    fn the_notebook_solution_parts_into_its_boxes_and_rows() {
        use crate::puzzle::kinds::notebook_solution_under as check;
        assert!(check("chaos construction").is_ok());
        assert!(check("chaos construction 3").is_err());
    }

    #[test]
    fn partings_are_listed_once_each() {
        // The rows of a 4x4 Latin square with boxes: its rows, its
        // columns and its boxes each part it, and the search finds each
        // once.
        let grid = parse_puzzle("1234341221434321", None).unwrap_or_else(|e| panic!("{e}"));
        let all = partings(&grid, 100);
        let mut unique = all.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(all.len(), unique.len());
        let rows: Vec<u8> = (0..16).map(|c| c / 4).collect();
        let boxes: Vec<u8> = (0..16).map(|c| (c / 8) * 2 + (c % 4) / 2).collect();
        assert!(all.contains(&rows));
        assert!(all.contains(&boxes));
        // Two 1s beside each other in a corner, whose other neighbour
        // holds 1 as well: no parting.
        let grid = parse_puzzle("1123134223143421", None).unwrap_or_else(|e| panic!("{e}"));
        assert!(partings(&grid, 1).is_empty());
        assert_eq!(
            ChaosConstruction.to_sigh(&sigh::SighBoard {
                size: Size::NINE,
                constraints: &[]
            }),
            sigh::ToSigh::Item(".ChaosConstruction".into())
        );
    }
}
