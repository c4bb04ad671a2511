//! Writing a puzzle as a sigh string, the way sigh's own `serialize`
//! writes it: the shape when it is not 9x9, the regions when they are not
//! the boxes, the givens and candidates as one `.~` item, then one item per
//! rule. A rule a sigh string cannot say with z3doku's meaning is an error
//! naming it, never left out.

use super::{EXTRA_MARK, LINK_PREFIX, MAX_SIDE, SighBoard, SighError, ToSigh, id, ids};
use crate::puzzle::Puzzle;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::kinds::Constraint;
use crate::puzzle::rules::HouseKind;
use std::fmt::Write;

/// A link to sigh's page that opens `puzzle`.
pub fn to_link(puzzle: &Puzzle) -> Result<String, SighError> {
    // sigh's items use only letters, digits and `. ~ _ -`, which a query
    // keeps as they are.
    Ok(format!("{LINK_PREFIX}{}", to_sigh(puzzle)?))
}

/// `puzzle` as a sigh string.
pub fn to_sigh(puzzle: &Puzzle) -> Result<String, SighError> {
    let size = puzzle.size();
    let (side, rows, cols) = (size.side(), size.rows(), size.cols());
    let rules = puzzle.rules();
    let cannot = |rule: &dyn std::fmt::Display, why: &str| SighError::CannotWrite {
        rule: rule.to_string(),
        why: why.to_string(),
    };
    if side > MAX_SIDE {
        return Err(cannot(&size, "sigh's boards run to 16x16"));
    }
    let mut out = String::new();
    // sigh names a range that is not 1 to N by its first and last values,
    // and more values than a row has cells by their count.
    let lowest = usize::from(rules.lowest_value());
    let values = size.values();
    let range = if lowest != 1 {
        format!("{lowest}-{}", lowest + values - 1)
    } else if values != side {
        values.to_string()
    } else {
        String::new()
    };
    // A Raw grid names its type after the range, which may be empty
    // (`9x9~~Raw`), as sigh writes it.
    if size.is_raw() {
        let _ = write!(out, ".Shape~{rows}x{cols}~{range}~Raw");
    } else if !range.is_empty() {
        let _ = write!(out, ".Shape~{rows}x{cols}~{range}");
    } else if (rows, cols) != (9, 9) {
        let _ = write!(out, ".Shape~{rows}x{cols}");
    }
    out += &chaos_regions(puzzle, regions(puzzle)?)?;

    // The givens and every cell's candidates, one `.~` item.
    let mut candidates: Vec<Option<u32>> = vec![None; size.all_cells()];
    let odd: u32 = (1..=values).step_by(2).fold(0, |m, d| m | 1 << (d - 1));
    let all = crate::puzzle::constraint::all_digits(size);
    for constraint in rules.constraints() {
        let (cell, digits) = match constraint {
            Constraint::Allowed(a) => (a.cell, a.digits),
            Constraint::Odd(o) => (o.0, odd),
            Constraint::Even(e) => (e.0, all & !odd),
            _ => continue,
        };
        let slot = &mut candidates[size.index(cell)];
        *slot = Some(slot.unwrap_or(all) & digits);
    }
    let mut given = Vec::new();
    for (index, limited) in candidates.iter().enumerate() {
        let cell = size.cell_at(index);
        let digit = puzzle.givens().get(index);
        if digit != 0 {
            let value = usize::from(digit) - 1 + lowest;
            given.push(format!("{}_{value}", id(cell)));
        }
        if let Some(digits) = *limited {
            let values: Vec<String> = (1..=values)
                .filter(|d| digits >> (d - 1) & 1 == 1)
                .map(|d| d.to_string())
                .collect();
            if values.is_empty() {
                // sigh reads a given with no digit as any digit; an empty
                // set is a cell that can hold none, which a given of two
                // different digits says.
                given.push(format!("{}_1~{}_2", id(cell), id(cell)));
            } else {
                given.push(format!("{}_{}", id(cell), values.join("_")));
            }
        }
    }
    if !given.is_empty() {
        out += ".~";
        out += &given.join("~");
    }

    for house in rules.houses() {
        match (house.kind, house.number) {
            (HouseKind::Diagonal, 0) => out += ".Diagonal~-1",
            (HouseKind::Diagonal, _) => out += ".Diagonal~1",
            (HouseKind::DisjointGroup, 0) => out += ".DisjointSets",
            _ => {}
        }
    }

    // Each rule as its kind writes it. A whole-board item (no arguments)
    // says the same twice as once, and two rules may write one (sigh's
    // strict Kropki is two of z3doku's), so each is written once.
    let board = SighBoard {
        size,
        constraints: rules.constraints(),
    };
    let mut flags: Vec<String> = Vec::new();
    for constraint in rules.constraints() {
        match constraint.to_sigh(&board) {
            ToSigh::Item(item) if !item.contains('~') => {
                if !flags.contains(&item) {
                    out += &item;
                    flags.push(item);
                }
            }
            ToSigh::Item(item) => out += &item,
            ToSigh::Elsewhere => {}
            ToSigh::Cannot(why) => return Err(cannot(constraint, why)),
        }
    }
    let out = named_extra_cells(out, &rules.extra_cell_ids())?;
    Ok(if out.is_empty() { ".".into() } else { out })
}

/// The string with each cell outside the grid, written as a mark by
/// [`id`], named as its group names it (`ids`, `VA1` first).
fn named_extra_cells(mut out: String, ids: &[String]) -> Result<String, SighError> {
    if !out.contains(EXTRA_MARK) {
        return Ok(out);
    }
    for (n, id) in ids.iter().enumerate() {
        out = out.replace(&format!("{EXTRA_MARK}{n}{EXTRA_MARK}"), id);
    }
    match out.contains(EXTRA_MARK) {
        true => Err(SighError::CannotWrite {
            rule: "a cell outside the grid".into(),
            why: "no group of extra cells declares it".into(),
        }),
        false => Ok(out),
    }
}

/// The regions, when they are not the default boxes: sigh's boxes of
/// fewer cells (`.RegionSize~4` on 6x6) when they are those, else
/// `.NoBoxes` and a jigsaw layout of the full regions (cells in none, or
/// in a region too small to be a house, make sigh's one piece of another
/// size, and a small region's digits differ as an `.AllDifferent`).
fn regions(puzzle: &Puzzle) -> Result<String, SighError> {
    let size = puzzle.size();
    let rules = puzzle.rules();
    let region_of: Vec<Option<usize>> = (0..size.cells()).map(|c| rules.region_of(c)).collect();
    let defaults = default_regions(size);
    if region_of == defaults {
        return Ok(String::new());
    }
    if rules
        .houses()
        .iter()
        .any(|h| h.kind == HouseKind::DisjointGroup)
    {
        return Err(SighError::CannotWrite {
            rule: "disjoint groups".into(),
            why: "sigh's disjoint sets keep the boxes' places, and these regions are not boxes"
                .into(),
        });
    }
    let partial: Vec<&[Cell]> = rules
        .constraints()
        .iter()
        .filter_map(|c| match c {
            Constraint::PartialRegion(region) => Some(region.cells.as_slice()),
            _ => None,
        })
        .collect();
    let full = rules.regions().len();
    if full == 0
        && let Some(cells) = sized_boxes(size, &partial)
    {
        return Ok(format!(".RegionSize~{cells}"));
    }
    let mut out = String::from(".NoBoxes");
    if full > 0 {
        let digit = |n: usize| char::from_digit(n as u32, (size.side() + 1) as u32).unwrap_or('?');
        let layout: String = region_of.iter().map(|r| digit(r.unwrap_or(full))).collect();
        let _ = write!(out, ".Jigsaw~{layout}");
    }
    for cells in partial {
        out += &format!(".AllDifferent{}", ids(cells));
    }
    Ok(out)
}

/// The regions' item `written` with what chaos construction's regions of
/// a size other than the longer side need: sigh sizes them and its boxes
/// by one `RegionSize`, so they need a board without boxes (then
/// `.NoBoxes.RegionSize~N`) or boxes of their size.
fn chaos_regions(puzzle: &Puzzle, written: String) -> Result<String, SighError> {
    let sized = puzzle.rules().constraints().iter().find_map(|c| match c {
        Constraint::ChaosConstruction(chaos) => chaos.region_cells,
        _ => None,
    });
    let Some(n) = sized.filter(|&n| n != puzzle.size().side()) else {
        return Ok(written);
    };
    let item = format!(".RegionSize~{n}");
    if written == ".NoBoxes" {
        return Ok(written + &item);
    }
    if written == item {
        return Ok(written);
    }
    Err(SighError::CannotWrite {
        rule: format!("chaos construction regions of {n}"),
        why: "sigh's `RegionSize` sizes its boxes too, and this board's regions are not boxes of \
              that size or none"
            .into(),
    })
}

/// The cell count of sigh's boxes (`RegionSize`) that `regions`, each
/// smaller than a row, are, if they are: as many as those boxes, each of
/// their cells, each inside one.
fn sized_boxes(size: Size, regions: &[&[Cell]]) -> Option<usize> {
    let cells = regions.first()?.len();
    let boxes = super::boxes_of(size, cells)?;
    let count = boxes.iter().max().map_or(0, |m| m + 1);
    let one_box = |region: &&[Cell]| {
        region.len() == cells
            && region
                .iter()
                .all(|&c| boxes[size.index(c)] == boxes[size.index(region[0])])
    };
    (regions.len() == count && regions.iter().all(one_box)).then_some(cells)
}

/// Each cell's box number as [`Rules`](crate::puzzle::rules::Rules)
/// numbers full regions (in the order their first cells come), or `None`
/// everywhere on a board without boxes.
fn default_regions(size: Size) -> Vec<Option<usize>> {
    let cols = size.cols();
    let Some((height, width)) = size.region_shape() else {
        return vec![None; size.cells()];
    };
    let across = cols / width;
    (0..size.cells())
        .map(|cell| {
            let (row, col) = (cell / cols, cell % cols);
            Some(row / height * across + col / width)
        })
        .collect()
}
