//! Sums that killer cages imply, by the rule every killer solver starts
//! with: a house holds each digit once, so its digits add up to
//! `1 + 2 + … + N`. The cages lying inside a house (or a run of rows or
//! columns) then fix the sum of the cells they leave over (the innies),
//! and when the cages reaching into it cover it, they fix the sum of their
//! cells outside it (the outies).
//!
//! Nothing here is a new rule: each sum follows from the houses and cages,
//! so stating it as well changes no answer. It lets a search see early
//! what the cages would otherwise show only once their cells are nearly
//! all filled. Only the sums within one house are kept: there the digits
//! differ, and the sum works as a cage's does, which prunes far more than
//! bounds on a plain sum (measured on killers: plain sums cost the native
//! search more at each node than they saved).
//!
//! An implied sum holds only while all its cages do, so it belongs with
//! the whole set of rules, never with an explanation that switches
//! constraints off one by one.

use super::primitive::Primitive;
use super::rules::{HouseKind, Rules};

/// Left-over groups up to this size become sums: larger ones prune little
/// and cost a check at every node.
const MOST_CELLS: usize = 6;

/// A sum a set of cages implies, over cells of one house.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Implied {
    /// The cells, in increasing order.
    pub cells: Vec<usize>,
    /// What their digits add up to.
    pub sum: u32,
}

impl Implied {
    /// As a cage: its cells hold different digits adding up to its sum.
    pub fn cage(&self) -> Primitive {
        Primitive::Distinct {
            cells: self.cells.clone(),
            sum: Some(self.sum),
        }
    }
}

/// The sums `rules`' cages imply within one house.
pub fn implied_cages(rules: &Rules) -> Vec<Implied> {
    // A house's digits add up to `1 + … + N` only when it holds every
    // digit: with more digits than a row has cells, none does.
    if !rules.size().lines_full() {
        return Vec::new();
    }
    // Cages with cells outside the grid are no part of any house's sum.
    let on_grid = rules.size().cells();
    let cages: Vec<(Vec<usize>, u32)> = rules
        .primitives()
        .filter_map(|p| match p {
            Primitive::Distinct {
                cells,
                sum: Some(sum),
            } if cells.iter().all(|&c| c < on_grid) => {
                let mut cells = cells.clone();
                cells.sort_unstable();
                Some((cells, *sum))
            }
            _ => None,
        })
        .collect();
    if cages.is_empty() {
        return Vec::new();
    }
    implied_sums(rules, &cages)
}

/// The innie and outie sums of `cages` (cells in increasing order, and
/// sum, each) under
/// `rules`' houses that fall within one house, leaving out groups that are
/// a cage already. Overlapping cages imply nothing this way and give none.
fn implied_sums(rules: &Rules, cages: &[(Vec<usize>, u32)]) -> Vec<Implied> {
    let cells = rules.size().cells();
    let side = rules.size().side();
    let mut cage_at: Vec<Option<usize>> = vec![None; cells];
    for (k, (members, _)) in cages.iter().enumerate() {
        for &c in members {
            if cage_at[c].replace(k).is_some() {
                return Vec::new();
            }
        }
    }
    let full = side * (side + 1) / 2;
    let mut found: Vec<Implied> = Vec::new();
    for (group, houses) in groups(rules) {
        let mut inside = vec![false; cells];
        for &c in &group {
            inside[c] = true;
        }
        let total = (full * houses) as u32;
        // Cages wholly inside, and those reaching out of the group.
        let (mut within, mut reaching) = (Vec::new(), Vec::new());
        for &c in &group {
            if let Some(k) = cage_at[c] {
                let list = if cages[k].0.iter().all(|&m| inside[m]) {
                    &mut within
                } else {
                    &mut reaching
                };
                if !list.contains(&k) {
                    list.push(k);
                }
            }
        }
        let within_sum: u32 = within.iter().map(|&k| cages[k].1).sum();
        let Some(left) = total.checked_sub(within_sum) else {
            continue;
        };
        let innies: Vec<usize> = group
            .iter()
            .copied()
            .filter(|&c| cage_at[c].is_none_or(|k| !within.contains(&k)))
            .collect();
        add(&mut found, rules, cages, innies.clone(), left);
        // The reaching cages cover the innies: their outside cells make up
        // their sums less what the innies hold.
        if !reaching.is_empty() && innies.iter().all(|&c| cage_at[c].is_some()) {
            let reaching_sum: u32 = reaching.iter().map(|&k| cages[k].1).sum();
            if let Some(out_sum) = reaching_sum.checked_sub(left) {
                let mut outies: Vec<usize> = reaching
                    .iter()
                    .flat_map(|&k| cages[k].0.iter().copied())
                    .filter(|&c| !inside[c])
                    .collect();
                outies.sort_unstable();
                add(&mut found, rules, cages, outies, out_sum);
            }
        }
    }
    found
}

/// Keeps the sum of `cells` when they are few, in one house, and not a
/// cage or a group already found.
fn add(
    found: &mut Vec<Implied>,
    rules: &Rules,
    cages: &[(Vec<usize>, u32)],
    mut cells: Vec<usize>,
    sum: u32,
) {
    cells.sort_unstable();
    if cells.is_empty() || cells.len() > MOST_CELLS {
        return;
    }
    if cages.iter().any(|(members, _)| *members == cells) || found.iter().any(|f| f.cells == cells)
    {
        return;
    }
    // In one house the digits differ, and the sum works as a cage's does:
    // sets of different digits prune far more than bounds on a plain sum,
    // which cost more at each node than they save (measured on killers).
    let one_house = rules
        .houses()
        .iter()
        .any(|h| h.cells.len() == rules.size().side() && cells.iter().all(|c| h.cells.contains(c)));
    if one_house {
        found.push(Implied { cells, sum });
    }
}

/// The groups of cells whose digits' sum is known: each full house, and
/// each run of up to half the board's rows or columns. Each comes with the
/// number of houses it is made of.
fn groups(rules: &Rules) -> Vec<(Vec<usize>, usize)> {
    let side = rules.size().side();
    let mut groups: Vec<(Vec<usize>, usize)> = rules
        .houses()
        .iter()
        .filter(|h| h.cells.len() == side)
        .map(|h| (h.cells.clone(), 1))
        .collect();
    for kind in [HouseKind::Row, HouseKind::Column] {
        let lines: Vec<&Vec<usize>> = rules
            .houses()
            .iter()
            .filter(|h| h.kind == kind)
            .map(|h| &h.cells)
            .collect();
        if lines.len() != side {
            continue;
        }
        for run in 2..=side / 2 {
            for first in 0..=side - run {
                let cells = lines[first..first + run]
                    .iter()
                    .flat_map(|l| l.iter().copied())
                    .collect();
                groups.push((cells, run));
            }
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::grid::Size;

    #[test]
    fn a_row_of_cages_leaves_its_last_cells_summed() {
        let rules = Rules::classic(Size::NINE);
        // Row 1: cages over c1-c3 (6) and c4-c7 (30) leave r1c8 and r1c9
        // summing to 9; cages r1c8 r2c8 (10) and r1c9 r2c9 (11) reaching
        // out of it then leave r2c8 and r2c9 summing to 21 - 9.
        let cages = vec![(vec![0, 1, 2], 6), (vec![3, 4, 5, 6], 30)];
        let sums = implied_sums(&rules, &cages);
        let innie = Implied {
            cells: vec![7, 8],
            sum: 9,
        };
        assert!(sums.contains(&innie), "{sums:?}");
        let reaching = vec![
            (vec![0, 1, 2], 6),
            (vec![3, 4, 5, 6], 30),
            (vec![7, 16], 10),
            (vec![8, 17], 11),
        ];
        let sums = implied_sums(&rules, &reaching);
        let outie = Implied {
            cells: vec![16, 17],
            sum: 12,
        };
        assert!(sums.contains(&outie), "{sums:?}");
    }

    #[test]
    fn overlapping_cages_imply_nothing() {
        let rules = Rules::classic(Size::NINE);
        let cages = vec![(vec![0, 1], 3), (vec![1, 2], 5)];
        assert!(implied_sums(&rules, &cages).is_empty());
    }
}
