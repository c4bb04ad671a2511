//! The 45 rule: every house holds each digit once, so a house (or a run
//! of rows or of columns, which are disjoint houses) adds up to a known
//! total. The cages with a sum that lie in it, or reach into it, then say
//! what the cells left over add up to: the cells of the run in no cage
//! (innies) less the cells of its cages that lie outside it (outies).
//! Each such sum over a few cells is a rule of its own, narrowed by
//! [`super::support`] as any other.

use super::Unit;
use super::UnitKind;
use crate::puzzle::primitive::Primitive;
use crate::puzzle::rules::{Constraint, Rules};

/// The most innies and outies a sum may have to be worth a step: beyond
/// that a sum says little about any one cell.
const MOST: usize = 5;

/// The 45 rule's sums on `rules`: one per row, column and box, and per run
/// of two or more rows or columns, with at most [`MOST`] innies and
/// outies. None when the cages overlap (their sums would count a cell
/// twice).
pub(super) fn units(rules: &Rules) -> Vec<Unit> {
    let size = rules.size();
    let side = size.side();
    let mut cages: Vec<(Vec<usize>, Option<u32>)> = Vec::new();
    for constraint in rules.constraints() {
        if let Constraint::Cage(cage) = constraint {
            let cells: Vec<usize> = cage.cells.iter().map(|&c| size.index(c)).collect();
            cages.push((cells, cage.sum));
        }
    }
    if cages.is_empty() {
        return Vec::new();
    }
    let mut owner = vec![None; size.cells()];
    for (k, (cells, _)) in cages.iter().enumerate() {
        for &c in cells {
            if owner[c].is_some() {
                return Vec::new();
            }
            owner[c] = Some(k);
        }
    }
    let total_of_house = (side * (side + 1) / 2) as i64;
    let mut runs: Vec<(String, Vec<usize>)> = Vec::new();
    for (word, of) in [("row", true), ("column", false)] {
        for first in 0..side {
            // The whole board says nothing: every run is shorter.
            for last in (first..side).filter(|&last| last - first + 1 < side) {
                let cells: Vec<usize> = (first..=last)
                    .flat_map(|i| {
                        (0..side).map(move |j| if of { i * side + j } else { j * side + i })
                    })
                    .collect();
                let name = if first == last {
                    format!("{word} {}", first + 1)
                } else {
                    format!("{word}s {}-{}", first + 1, last + 1)
                };
                runs.push((name, cells));
            }
        }
    }
    for (k, region) in rules.regions().iter().enumerate() {
        let word = if rules
            .houses()
            .iter()
            .any(|h| h.kind == crate::puzzle::rules::HouseKind::Region)
        {
            "region"
        } else {
            "box"
        };
        runs.push((format!("{word} {}", k + 1), region.clone()));
    }
    let mut units: Vec<Unit> = Vec::new();
    'runs: for (name, cells) in runs {
        let houses = (cells.len() / side) as i64;
        let mut inside = vec![false; size.cells()];
        for &c in &cells {
            inside[c] = true;
        }
        let mut total = houses * total_of_house;
        let mut touched: Vec<usize> = cells.iter().filter_map(|&c| owner[c]).collect();
        touched.sort_unstable();
        touched.dedup();
        let mut outies = Vec::new();
        for &k in &touched {
            let Some(sum) = cages[k].1 else {
                continue 'runs;
            };
            total -= i64::from(sum);
            outies.extend(cages[k].0.iter().copied().filter(|&c| !inside[c]));
        }
        let innies: Vec<usize> = cells
            .iter()
            .copied()
            .filter(|&c| owner[c].is_none())
            .collect();
        let count = innies.len() + outies.len();
        if count == 0 || count > MOST {
            continue;
        }
        let Ok(total) = i32::try_from(total) else {
            continue;
        };
        let mut terms: Vec<(usize, i32)> = innies.iter().map(|&c| (c, 1)).collect();
        terms.extend(outies.iter().map(|&c| (c, -1)));
        terms.sort_unstable();
        let mut unit_cells: Vec<usize> = terms.iter().map(|&(c, _)| c).collect();
        unit_cells.sort_unstable();
        // Outies of one cage hold different digits, whether or not a
        // house says so.
        let mut prims = vec![Primitive::Sum {
            terms: terms.clone(),
            totals: vec![total],
        }];
        for &k in &touched {
            let apart: Vec<usize> = outies
                .iter()
                .copied()
                .filter(|&c| owner[c] == Some(k))
                .collect();
            if apart.len() > 1 {
                prims.push(Primitive::Distinct {
                    cells: apart,
                    sum: None,
                });
            }
        }
        if units
            .iter()
            .any(|u: &Unit| u.cells == unit_cells && u.prims[0] == prims[0])
        {
            continue;
        }
        let equation = equation(&innies, &outies, total, size);
        units.push(Unit {
            name: format!("45 rule on {name}"),
            kind: UnitKind::Innies(equation),
            cells: unit_cells,
            prims,
            whole: None,
        });
    }
    units
}

/// `r2c5 + r2c6 − r3c1 = 11`.
fn equation(
    innies: &[usize],
    outies: &[usize],
    total: i32,
    size: crate::puzzle::grid::Size,
) -> String {
    let names = |cells: &[usize], join: &str| {
        cells
            .iter()
            .map(|&c| size.cell_at(c).to_string())
            .collect::<Vec<_>>()
            .join(join)
    };
    match (innies.is_empty(), outies.is_empty()) {
        // Outies alone, or outies over the innies, read better as what
        // they add up to.
        (true, _) => format!("{} = {}", names(outies, " + "), -total),
        (false, false) if total < 0 => format!(
            "{} − {} = {}",
            names(outies, " + "),
            names(innies, " − "),
            -total
        ),
        (false, true) => format!("{} = {total}", names(innies, " + ")),
        (false, false) => format!(
            "{} − {} = {total}",
            names(innies, " + "),
            names(outies, " − ")
        ),
    }
}
