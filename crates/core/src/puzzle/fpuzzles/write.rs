//! Writing puzzles as f-puzzles JSON, and as the links f-puzzles and
//! SudokuPad open (`https://f-puzzles.com/?load=` and lz-string's
//! `compressToBase64` of the JSON).
//!
//! Every rule goes back under the key [`parse`](super::parse) reads it
//! from, so that reading what is written gives the same puzzle. Regions
//! are written cell by cell (`region`) only when they are not the board's
//! default boxes; regions too small to be houses come from them and are
//! not written as rules of their own. A solution goes under the top-level
//! `solution` key (N·N numbers, as f-puzzles keeps it): a digit in the
//! grid is read back as a given. What the puzzle only draws (its title,
//! shapes, colours and notes: [`Cosmetics`](crate::puzzle::kinds::drawing::Cosmetics))
//! goes back where it was read from.

use crate::puzzle::Puzzle;
use crate::puzzle::grid::{Cell, Grid};
use crate::puzzle::rules::{Constraint, HouseKind, Rules};
use serde_json::{Map, Value, json};

/// Where an f-puzzles link's payload starts.
pub const LINK_PREFIX: &str = "https://f-puzzles.com/?load=";

/// `puzzle` as f-puzzles JSON, with `solution` under `solution` when given.
pub fn to_json(puzzle: &Puzzle, solution: Option<&Grid>) -> String {
    to_value(puzzle, solution).to_string()
}

/// An f-puzzles link that opens `puzzle` (with `solution`, when given).
pub fn to_link(puzzle: &Puzzle, solution: Option<&Grid>) -> String {
    format!(
        "{LINK_PREFIX}{}",
        lz_str::compress_to_base64(&to_json(puzzle, solution))
    )
}

/// `puzzle` as an f-puzzles JSON object.
pub fn to_value(puzzle: &Puzzle, solution: Option<&Grid>) -> Value {
    let size = puzzle.size();
    let rules = puzzle.rules();
    let mut object = Map::new();
    object.insert("size".into(), json!(size.side()));
    object.insert("grid".into(), grid(puzzle));
    for house in rules.houses() {
        match (house.kind, house.number) {
            (HouseKind::Diagonal, 0) => object.insert("diagonal-".into(), json!(true)),
            (HouseKind::Diagonal, _) => object.insert("diagonal+".into(), json!(true)),
            (HouseKind::DisjointGroup, _) => object.insert("disjointgroups".into(), json!(true)),
            _ => None,
        };
    }
    for constraint in rules.constraints() {
        if let Some((key, item)) = constraint.to_fpuzzles(size) {
            match item {
                Item::Flag => {
                    object.insert(key.into(), json!(true));
                }
                Item::Entry(entry) => {
                    let list = object
                        .entry(key)
                        .or_insert_with(|| Value::Array(Vec::new()));
                    if let Value::Array(list) = list {
                        list.push(entry);
                    }
                }
            }
        }
    }
    if let Some(solution) = solution {
        object.insert("solution".into(), json!(solution.cells()));
    }
    if let Some(cosmetics) = puzzle.cosmetics() {
        cosmetics.dress(&mut object);
    }
    Value::Object(object)
}

/// The rules of `puzzle` that f-puzzles JSON cannot say (sigh's rules
/// with no f-puzzles key: anti-taxicab, windoku, greater-than signs, …),
/// as messages name them; the JSON and links would leave them out, so the
/// command line refuses to write such a puzzle in f-puzzles' form. Pencil marks and regions are written in the grid.
pub fn unwritable(puzzle: &Puzzle) -> Vec<String> {
    let size = puzzle.size();
    puzzle
        .rules()
        .constraints()
        .iter()
        .filter(|c| !matches!(c, Constraint::Allowed(_) | Constraint::PartialRegion(_)))
        .filter(|c| c.to_fpuzzles(size).is_none())
        .map(|c| c.to_string())
        .collect()
}

/// How a constraint is written: a whole-board key set to `true`, or an
/// entry in its key's list.
pub enum Item {
    /// `key: true`.
    Flag,
    /// An entry of the list under the key.
    Entry(Value),
}

/// `R{row}C{col}`, 1-based.
pub fn name(cell: Cell) -> Value {
    json!(format!("R{}C{}", cell.row() + 1, cell.col() + 1))
}

/// A list of cell names.
pub fn names(cells: &[Cell]) -> Value {
    Value::Array(cells.iter().map(|&c| name(c)).collect())
}

/// The cell named by signed 0-based coordinates, where -1 and `side` are
/// the rim outside the board.
pub fn rim_name(row: isize, col: isize) -> Value {
    json!(format!("R{}C{}", row + 1, col + 1))
}

/// A line rule's entry: `{"lines": [[cells…]]}`.
pub fn line(cells: &[Cell]) -> Item {
    Item::Entry(json!({ "lines": [names(cells)] }))
}

/// An entry that lists cells: `{"cells": [cells…]}`.
pub fn cells_only(cells: &[Cell]) -> Item {
    Item::Entry(json!({ "cells": names(cells) }))
}

/// An entry of one cell: `{"cell": cell}`.
pub fn cell_only(cell: Cell) -> Item {
    Item::Entry(json!({ "cell": name(cell) }))
}

/// The grid: givens, pencil marks, and regions when they are not the
/// default.
fn grid(puzzle: &Puzzle) -> Value {
    let size = puzzle.size();
    let rules = puzzle.rules();
    // Regions the file named stay named, even where they are the default
    // boxes (which read back the same either way).
    let named = puzzle.cosmetics().is_some_and(|c| c.regions_drawn());
    let regions = drawn_regions(rules).or_else(|| {
        named.then(|| {
            let classic = Rules::classic(size);
            (0..size.cells())
                .map(|cell| classic.region_of(cell))
                .collect()
        })
    });
    let mut cells: Vec<Map<String, Value>> = vec![Map::new(); size.cells()];
    for (index, fields) in cells.iter_mut().enumerate() {
        let digit = puzzle.givens().get(index);
        if digit != 0 {
            fields.insert("value".into(), json!(digit));
            fields.insert("given".into(), json!(true));
        }
        if let Some(regions) = &regions {
            fields.insert("region".into(), json!(regions[index]));
        }
    }
    let mut marks: Vec<Vec<u32>> = vec![Vec::new(); size.cells()];
    for constraint in rules.constraints() {
        if let Constraint::Allowed(allowed) = constraint {
            marks[size.index(allowed.cell)].push(allowed.digits);
        }
    }
    let digits =
        |mask: u32| -> Vec<u32> { (1..=32).filter(|d| mask >> (d - 1) & 1 == 1).collect() };
    for (fields, marks) in cells.iter_mut().zip(marks) {
        // A cell has two sets of marks, read centre first; a third set
        // narrows the second.
        let (centre, given) = match marks.as_slice() {
            [] => continue,
            [only] => (None, *only),
            [first, rest @ ..] => (Some(*first), rest.iter().fold(u32::MAX, |m, d| m & d)),
        };
        if let Some(centre) = centre {
            fields.insert("centerPencilMarks".into(), json!(digits(centre)));
        }
        fields.insert("givenPencilMarks".into(), json!(digits(given)));
    }
    let side = size.side();
    let rows: Vec<Value> = cells
        .chunks(side)
        .map(|row| Value::Array(row.iter().cloned().map(Value::Object).collect()))
        .collect();
    Value::Array(rows)
}

/// Each cell's region number, when the board's regions must be written:
/// they differ from the default boxes, or they were drawn as the default
/// on a board with no other rule (which reads back as drawn, not
/// classic). Full regions take numbers the partial ones do not use, and
/// partial regions keep theirs, as they name them.
fn drawn_regions(rules: &Rules) -> Option<Vec<Option<usize>>> {
    if rules.is_classic() {
        return None;
    }
    let size = rules.size();
    let classic = Rules::classic(size);
    let partial: Vec<(usize, &[Cell])> = rules
        .constraints()
        .iter()
        .filter_map(|c| match c {
            Constraint::PartialRegion(region) => Some((region.number, region.cells.as_slice())),
            _ => None,
        })
        .collect();
    let only_regions = rules.constraints().len() == partial.len()
        && rules.houses().len() == classic.houses().len();
    if rules.regions() == classic.regions() && partial.is_empty() && !only_regions {
        return None;
    }
    let mut regions = vec![None; size.cells()];
    for (number, cells) in &partial {
        for &cell in *cells {
            regions[size.index(cell)] = Some(*number);
        }
    }
    let mut free = (0..).filter(|n| !partial.iter().any(|(p, _)| p == n));
    for region in rules.regions() {
        let number = free.next();
        for &cell in region {
            regions[cell] = number;
        }
    }
    Some(regions)
}
