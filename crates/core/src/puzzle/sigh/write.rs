//! Writing a puzzle as a sigh string, the way sigh's own `serialize`
//! writes it: the shape when it is not 9x9, the regions when they are not
//! the boxes, the givens and candidates as one `.~` item, then one item per
//! rule. A rule a sigh string cannot say with z3doku's meaning is an error
//! naming it, never left out.

use super::{LINK_PREFIX, MAX_SIDE, SighError, read::little_killer_cells, relation_key};
use crate::puzzle::Puzzle;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::kinds::Constraint;
use crate::puzzle::kinds::cells::Indexing;
use crate::puzzle::kinds::outside::Outside;
use crate::puzzle::primitive::Relation;
use crate::puzzle::rules::HouseKind;
use std::fmt::Write;

/// A link to sigh's page that opens `puzzle`.
pub fn to_link(puzzle: &Puzzle) -> Result<String, SighError> {
    // sigh's items use only letters, digits and `. ~ _ -`, which a query
    // keeps as they are.
    Ok(format!("{LINK_PREFIX}{}", to_sigh(puzzle)?))
}

/// A cell as sigh names it: `R`, the row in base 17, `C`, the column.
fn id(cell: Cell) -> String {
    let place = |n: usize| char::from_digit(n as u32 + 1, 17).unwrap_or('?');
    format!("R{}C{}", place(cell.row()), place(cell.col()))
}

/// Cells joined as sigh's arguments, each after a `~`.
fn ids(cells: &[Cell]) -> String {
    cells.iter().map(|&c| format!("~{}", id(c))).collect()
}

/// `puzzle` as a sigh string.
pub fn to_sigh(puzzle: &Puzzle) -> Result<String, SighError> {
    let size = puzzle.size();
    let side = size.side();
    let rules = puzzle.rules();
    let cannot = |rule: &dyn std::fmt::Display, why: &str| SighError::CannotWrite {
        rule: rule.to_string(),
        why: why.to_string(),
    };
    if side > MAX_SIDE {
        return Err(cannot(&size, "sigh's boards run to 16x16"));
    }
    let mut out = String::new();
    if side != 9 {
        let _ = write!(out, ".Shape~{side}x{side}");
    }
    out += &regions(puzzle)?;

    // The givens and every cell's candidates, one `.~` item.
    let mut candidates: Vec<Option<u32>> = vec![None; size.cells()];
    let odd: u32 = (1..=side).step_by(2).fold(0, |m, d| m | 1 << (d - 1));
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
            given.push(format!("{}_{digit}", id(cell)));
        }
        if let Some(digits) = *limited {
            let values: Vec<String> = (1..=side)
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

    let all_rules = rules.constraints();
    let has = |pick: fn(&Constraint) -> bool| all_rules.iter().any(pick);
    let nonconsecutive = has(|c| matches!(c, Constraint::NonConsecutive(_)));
    let negative_ratio = has(|c| matches!(c, Constraint::NegativeRatio(_)));
    let any_dot = has(|c| matches!(c, Constraint::Difference(_) | Constraint::Ratio(_)));
    let plain_dots = !has(|c| match c {
        Constraint::Difference(d) => d.value != 1,
        Constraint::Ratio(r) => r.value != 2,
        _ => false,
    });
    let mut strict_written = false;
    for constraint in all_rules {
        let item = match constraint {
            Constraint::Cage(cage) => format!(
                ".Cage~{}{}",
                cage.sum.map_or(String::new(), |s| s.to_string()),
                ids(&cage.cells)
            ),
            Constraint::ExtraRegion(region) => format!(".AllDifferent{}", ids(&region.0)),
            // Written with the regions above.
            Constraint::PartialRegion(_) => continue,
            Constraint::Thermo(t) => format!(".Thermo{}", ids(&t.cells)),
            Constraint::SlowThermo(t) => format!(
                ".Pair~{}{}",
                relation_key(side, |a, b| Relation::LessOrEqual.allows(a, b)),
                ids(&t.cells)
            ),
            Constraint::Arrow(arrow) => match arrow.circle.len() {
                1 => format!(".Arrow{}{}", ids(&arrow.circle), ids(&arrow.line)),
                n @ (2 | 3) if side <= 9 && pill_in_reading_order(&arrow.circle) => {
                    format!(".PillArrow~{n}{}{}", ids(&arrow.circle), ids(&arrow.line))
                }
                _ => {
                    return Err(cannot(
                        constraint,
                        "sigh's pills have 2 or 3 cells running right, down or down-right, on \
                         boards up to 9x9",
                    ));
                }
            },
            Constraint::Palindrome(line) => format!(".Palindrome{}", ids(&line.0)),
            Constraint::Renban(line) => format!(".Renban{}", ids(&line.0)),
            Constraint::Whispers(w) => format!(".Whisper~{}{}", w.difference, ids(&w.cells)),
            Constraint::RegionSumLine(line) => format!(".RegionSumLine{}", ids(&line.0)),
            Constraint::BetweenLine(line) if line.0.len() > 2 => {
                format!(".Between{}", ids(&line.0))
            }
            // It says nothing, and sigh's solver fails on it.
            Constraint::BetweenLine(_) => {
                return Err(cannot(
                    constraint,
                    "sigh's solver fails on a between line of two cells",
                ));
            }
            Constraint::EntropicLine(line) if side == 9 => format!(".Entropic{}", ids(&line.0)),
            Constraint::EntropicLine(_) => {
                return Err(cannot(
                    constraint,
                    "sigh's entropic lines need digits 1 to 9",
                ));
            }
            Constraint::ModularLine(line) => format!(".Modular~3{}", ids(&line.0)),
            Constraint::ZipperLine(line) => format!(".Zipper{}", ids(&line.0)),
            Constraint::DoubleArrow(line) => format!(".DoubleArrow{}", ids(&line.0)),
            Constraint::Nabner(line) => format!(
                ".PairX~{}{}",
                relation_key(side, |a, b| Relation::DifferenceAtLeast(2).allows(a, b)),
                ids(&line.0)
            ),
            Constraint::AntiKnight(_) => ".AntiKnight".into(),
            Constraint::AntiKing(_) => ".AntiKing".into(),
            Constraint::NonConsecutive(_) | Constraint::NegativeRatio(_) => {
                if nonconsecutive && negative_ratio && plain_dots {
                    // sigh's strict Kropki says both, exempting its white
                    // and black dots, as z3doku exempts every dot.
                    if strict_written {
                        continue;
                    }
                    strict_written = true;
                    ".StrictKropki".into()
                } else if nonconsecutive && !negative_ratio && !any_dot {
                    ".AntiConsecutive".into()
                } else {
                    return Err(cannot(
                        constraint,
                        "sigh's anti-consecutive exempts no dot, and its strict Kropki is \
                         nonconsecutive and negative ratio 2 together beside plain dots",
                    ));
                }
            }
            Constraint::NegativeXv(_) => ".StrictXV".into(),
            // Written with the givens above.
            Constraint::Allowed(_) | Constraint::Odd(_) | Constraint::Even(_) => continue,
            Constraint::Clone(clone) => clone
                .cells
                .iter()
                .zip(&clone.clones)
                .filter(|(a, b)| a != b)
                .map(|(&a, &b)| format!(".SameValues~2~{}~{}", id(a), id(b)))
                .collect(),
            Constraint::Quadruple(quad) => {
                let corner = quad.cells.iter().min().copied();
                let square = corner.is_some_and(|c| {
                    let mut expected: Vec<Cell> = [(0, 0), (0, 1), (1, 0), (1, 1)]
                        .iter()
                        .filter(|(dr, dc)| c.row() + dr < side && c.col() + dc < side)
                        .map(|(dr, dc)| size.cell(c.row() + dr, c.col() + dc))
                        .collect();
                    let mut cells = quad.cells.clone();
                    expected.sort();
                    cells.sort();
                    cells == expected && cells.len() == 4
                });
                match corner.filter(|_| square) {
                    Some(corner) => format!(
                        ".Quad~{}{}",
                        id(corner),
                        quad.digits
                            .iter()
                            .map(|d| format!("~{d}"))
                            .collect::<String>()
                    ),
                    None => return Err(cannot(constraint, "sigh's quads are 2x2 squares")),
                }
            }
            Constraint::Indexer(indexer) => match indexer.kind {
                Indexing::Row => format!(".Indexing~R~{}", id(indexer.cell)),
                Indexing::Column => format!(".Indexing~C~{}", id(indexer.cell)),
                Indexing::Box => {
                    return Err(cannot(constraint, "sigh indexes rows and columns only"));
                }
            },
            Constraint::LittleKiller(lk) => {
                let mut cells = lk.cells.clone();
                cells.sort();
                let start = little_killer_cells(size).into_iter().find_map(|d| {
                    let first = d.first().copied();
                    let mut d = d;
                    d.sort();
                    (d == cells).then_some(first).flatten()
                });
                match start {
                    Some(start) => format!(".LittleKiller~{}~{}", lk.sum, id(start)),
                    None => {
                        return Err(cannot(
                            constraint,
                            "sigh's little killers run along diagonals of two or more cells",
                        ));
                    }
                }
            }
            Constraint::Sandwich(s) => format!(".Sandwich~{}~{}", s.sum, line_id(s.line)),
            Constraint::XSum(x) => outside_clue("XSum", x.line, x.sum),
            Constraint::Skyscraper(s) => outside_clue("Skyscraper", s.line, s.count as u32),
            Constraint::Difference(dot) if dot.value == 1 => {
                format!(".WhiteDot{}", ids(&dot.cells))
            }
            Constraint::Difference(dot) => format!(
                ".Pair~{}{}",
                relation_key(side, |a, b| Relation::DifferenceIs(dot.value).allows(a, b)),
                ids(&dot.cells)
            ),
            Constraint::Ratio(dot) if dot.value == 2 => format!(".BlackDot{}", ids(&dot.cells)),
            Constraint::Ratio(dot) => format!(
                ".Pair~{}{}",
                relation_key(side, |a, b| Relation::RatioIs(dot.value).allows(a, b)),
                ids(&dot.cells)
            ),
            Constraint::Xv(mark) if mark.sum == 10 => format!(".X{}", ids(&mark.cells)),
            Constraint::Xv(mark) if mark.sum == 5 => format!(".V{}", ids(&mark.cells)),
            Constraint::WeightedSum(w) if w.terms.iter().all(|&(_, k)| k.abs() <= 100) => {
                let cells: Vec<Cell> = w.terms.iter().map(|&(c, _)| c).collect();
                if w.terms.iter().all(|&(_, k)| k == 1) {
                    format!(".Sum~{}{}", w.sum, ids(&cells))
                } else {
                    let weights: Vec<String> = w.terms.iter().map(|(_, k)| k.to_string()).collect();
                    format!(".Sum~{}_=_{}{}", w.sum, weights.join("_"), ids(&cells))
                }
            }
            Constraint::WeightedSum(_) => {
                return Err(cannot(constraint, "sigh's weights run from -100 to 100"));
            }
            #[allow(unreachable_patterns)] // kinds added later land here until they are written
            _ => {
                return Err(cannot(
                    constraint,
                    "sigh has no such rule, or states it otherwise",
                ));
            }
        };
        out += &item;
    }
    Ok(if out.is_empty() { ".".into() } else { out })
}

/// `R3` or `C5`.
fn line_id(line: Outside) -> String {
    format!("{}{}", if line.row { 'R' } else { 'C' }, line.number + 1)
}

/// A clue on one side of a row or column: sigh's front value is the left
/// or top one, its back value the right or bottom one.
fn outside_clue(kind: &str, line: Outside, value: u32) -> String {
    if line.reversed {
        format!(".{kind}~{}~~{value}", line_id(line))
    } else {
        format!(".{kind}~{}~{value}~", line_id(line))
    }
}

/// Whether a pill's cells, as listed, are in reading order and run right,
/// down or down-right, so that sigh reads the same number from them.
fn pill_in_reading_order(cells: &[Cell]) -> bool {
    cells.windows(2).all(|w| {
        matches!(
            (
                w[1].row() as isize - w[0].row() as isize,
                w[1].col() as isize - w[0].col() as isize
            ),
            (0, 1) | (1, 0) | (1, 1)
        )
    })
}

/// The regions, when they are not the default boxes: `.NoBoxes` and a
/// jigsaw layout of the full regions (cells in none, or in a region too
/// small to be a house, make sigh's one piece of another size, and a small
/// region's digits differ as an `.AllDifferent`).
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
    let mut out = String::from(".NoBoxes");
    let full = rules.regions().len();
    if full == 0 {
        return Ok(out);
    }
    let digit = |n: usize| char::from_digit(n as u32, (size.side() + 1) as u32).unwrap_or('?');
    let layout: String = region_of.iter().map(|r| digit(r.unwrap_or(full))).collect();
    let _ = write!(out, ".Jigsaw~{layout}");
    for constraint in rules.constraints() {
        if let Constraint::PartialRegion(region) = constraint {
            out += &format!(".AllDifferent{}", ids(&region.cells));
        }
    }
    Ok(out)
}

/// Each cell's box number as [`Rules`](crate::puzzle::rules::Rules)
/// numbers full regions (in the order their first cells come), or `None`
/// everywhere on a board without boxes.
fn default_regions(size: Size) -> Vec<Option<usize>> {
    let side = size.side();
    let Some((height, width)) = size.region_shape() else {
        return vec![None; size.cells()];
    };
    let across = side / width;
    (0..size.cells())
        .map(|cell| {
            let (row, col) = (cell / side, cell % side);
            Some(row / height * across + col / width)
        })
        .collect()
}
