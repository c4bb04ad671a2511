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
//! grid is read back as a given.

use crate::puzzle::Puzzle;
use crate::puzzle::constraint::{Indexer, Outside};
use crate::puzzle::grid::{Cell, Grid, Size};
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
        if let Some((key, item)) = item(constraint, size) {
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
    Value::Object(object)
}

/// How a constraint is written: a whole-board key set to `true`, or an
/// entry in its key's list.
enum Item {
    Flag,
    Entry(Value),
}

/// `R{row}C{col}`, 1-based.
fn name(cell: Cell) -> Value {
    json!(format!("R{}C{}", cell.row() + 1, cell.col() + 1))
}

fn names(cells: &[Cell]) -> Value {
    Value::Array(cells.iter().map(|&c| name(c)).collect())
}

/// The cell named by signed 0-based coordinates, where -1 and `side` are
/// the rim outside the board.
fn rim_name(row: isize, col: isize) -> Value {
    json!(format!("R{}C{}", row + 1, col + 1))
}

/// The clue cell beside `line`'s row or column.
fn outside_cell(line: Outside, size: Size) -> Value {
    let (number, far) = (line.number as isize, size.side() as isize);
    match (line.row, line.reversed) {
        (true, false) => rim_name(number, -1),
        (true, true) => rim_name(number, far),
        (false, false) => rim_name(-1, number),
        (false, true) => rim_name(far, number),
    }
}

/// A little killer's clue cell and direction, from its diagonal's cells.
fn little_killer(cells: &[Cell], size: Size) -> Option<(Value, &'static str)> {
    let side = size.side() as isize;
    let at = |cell: &Cell| (cell.row() as isize, cell.col() as isize);
    let inside = |(r, c): (isize, isize)| (0..side).contains(&r) && (0..side).contains(&c);
    let first = at(cells.first()?);
    let step = match cells.get(1) {
        Some(second) => {
            let second = at(second);
            (second.0 - first.0, second.1 - first.1)
        }
        // One cell: a corner, on the diagonal that leaves the board both
        // ways.
        None => [(-1, 1), (-1, -1), (1, 1), (1, -1)]
            .into_iter()
            .find(|&(dr, dc)| {
                !inside((first.0 - dr, first.1 - dc)) && !inside((first.0 + dr, first.1 + dc))
            })?,
    };
    let direction = match step {
        (-1, 1) => "UR",
        (-1, -1) => "UL",
        (1, 1) => "DR",
        (1, -1) => "DL",
        _ => return None,
    };
    let before = (first.0 - step.0, first.1 - step.1);
    // The clue sits on the rim; a diagonal that starts inside the board
    // (as a puzzle may draw it) names its first cell.
    let clue = if inside(before) { first } else { before };
    Some((rim_name(clue.0, clue.1), direction))
}

/// The f-puzzles key and item of `constraint`; `None` for what is written
/// elsewhere (pencil marks in the grid, regions cell by cell).
fn item(constraint: &Constraint, size: Size) -> Option<(&'static str, Item)> {
    let line = |cells: &[Cell]| Item::Entry(json!({ "lines": [names(cells)] }));
    let cells_only = |cells: &[Cell]| Item::Entry(json!({ "cells": names(cells) }));
    let cell_only = |cell: Cell| Item::Entry(json!({ "cell": name(cell) }));
    Some(match constraint {
        Constraint::Cage { cells, sum } => {
            let mut cage = Map::new();
            cage.insert("cells".into(), names(cells));
            if let Some(sum) = sum {
                cage.insert("value".into(), json!(sum.to_string()));
            }
            ("killercage", Item::Entry(Value::Object(cage)))
        }
        Constraint::DigitalRoot { cells, root } => (
            "cage",
            Item::Entry(json!({ "cells": names(cells), "value": format!("DR{root}") })),
        ),
        Constraint::Thermo { cells } => ("thermometer", line(cells)),
        Constraint::SlowThermo { cells } => ("slowthermometer", line(cells)),
        Constraint::AntiKnight => ("antiknight", Item::Flag),
        Constraint::AntiKing => ("antiking", Item::Flag),
        Constraint::NonConsecutive => ("nonconsecutive", Item::Flag),
        Constraint::NegativeRatio => ("negative", Item::Entry(json!("ratio"))),
        Constraint::NegativeXv => ("negative", Item::Entry(json!("xv"))),
        Constraint::Allowed { .. } | Constraint::PartialRegion { .. } => return None,
        Constraint::Odd(cell) => ("odd", cell_only(*cell)),
        Constraint::Even(cell) => ("even", cell_only(*cell)),
        Constraint::Minimum(cell) => ("minimum", cell_only(*cell)),
        Constraint::Maximum(cell) => ("maximum", cell_only(*cell)),
        Constraint::LittleKiller { cells, sum } => {
            let (cell, direction) = little_killer(cells, size)?;
            (
                "littlekillersum",
                Item::Entry(json!({
                    "cell": cell,
                    "direction": direction,
                    "value": sum.to_string(),
                })),
            )
        }
        Constraint::Sandwich { line, sum } => (
            "sandwichsum",
            Item::Entry(json!({ "cell": outside_cell(*line, size), "value": sum.to_string() })),
        ),
        Constraint::XSum { line, sum } => (
            "xsum",
            Item::Entry(json!({ "cell": outside_cell(*line, size), "value": sum.to_string() })),
        ),
        Constraint::Skyscraper { line, count } => (
            "skyscraper",
            Item::Entry(json!({ "cell": outside_cell(*line, size), "value": count.to_string() })),
        ),
        Constraint::Arrow { circle, line } => {
            // Each line starts in the circle, at the cell nearest its first
            // cell beyond it.
            let near = |cell: &&Cell| match line.first() {
                Some(next) => next.row().abs_diff(cell.row()) + next.col().abs_diff(cell.col()),
                None => 0,
            };
            let start = circle.iter().min_by_key(near)?;
            let drawn: Vec<Cell> = std::iter::once(*start)
                .chain(line.iter().copied())
                .collect();
            (
                "arrow",
                Item::Entry(json!({ "cells": names(circle), "lines": [names(&drawn)] })),
            )
        }
        Constraint::Palindrome(cells) => ("palindrome", line(cells)),
        Constraint::Renban(cells) => ("renban", line(cells)),
        Constraint::Whispers { cells, difference } => (
            "whispers",
            Item::Entry(json!({ "lines": [names(cells)], "value": difference.to_string() })),
        ),
        Constraint::RegionSumLine(cells) => ("regionsumline", line(cells)),
        Constraint::BetweenLine(cells) => ("betweenline", line(cells)),
        Constraint::EntropicLine(cells) => ("entropicline", line(cells)),
        Constraint::ModularLine(cells) => ("modularline", line(cells)),
        Constraint::ZipperLine(cells) => ("zipperline", line(cells)),
        Constraint::DoubleArrow(cells) => ("doublearrow", line(cells)),
        Constraint::Difference { cells, value } => ("difference", dot(cells, *value, 1)),
        Constraint::Ratio { cells, value } => ("ratio", dot(cells, *value, 2)),
        Constraint::Xv { cells, sum } => (
            "xv",
            Item::Entry(json!({
                "cells": names(cells),
                "value": if *sum == 10 { "X" } else { "V" },
            })),
        ),
        Constraint::Clone { cells, clones } => (
            "clone",
            Item::Entry(json!({ "cells": names(cells), "cloneCells": names(clones) })),
        ),
        Constraint::Quadruple { cells, digits } => (
            "quadruple",
            Item::Entry(json!({ "cells": names(cells), "values": digits })),
        ),
        Constraint::Indexer { kind, cell } => (
            match kind {
                Indexer::Row => "rowindexer",
                Indexer::Column => "columnindexer",
                Indexer::Box => "boxindexer",
            },
            cells_only(&[*cell]),
        ),
        Constraint::ExtraRegion(cells) => ("extraregion", cells_only(cells)),
    })
}

/// A white or black dot, its value written only when it is not the
/// default f-puzzles assumes.
fn dot(cells: &[Cell; 2], value: u8, default: u8) -> Item {
    let mut dot = Map::new();
    dot.insert("cells".into(), names(cells));
    if value != default {
        dot.insert("value".into(), json!(value.to_string()));
    }
    Item::Entry(Value::Object(dot))
}

/// The grid: givens, pencil marks, and regions when they are not the
/// default.
fn grid(puzzle: &Puzzle) -> Value {
    let size = puzzle.size();
    let rules = puzzle.rules();
    let regions = drawn_regions(rules);
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
        if let Constraint::Allowed { cell, digits } = constraint {
            marks[size.index(*cell)].push(*digits);
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
            Constraint::PartialRegion { number, cells } => Some((*number, cells.as_slice())),
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
