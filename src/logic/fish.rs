//! Fish: X-wing, swordfish, jellyfish. A digit's places in `k` rows lie in
//! `k` columns (or the other way round), so those columns lose it
//! elsewhere.

use super::pencil::{Pencil, digits};
use super::seen::{ByDigit, Seen};
use super::step::{Step, eliminations_text};
use super::subsets::tight_sets;
use super::technique::Technique;
use crate::puzzle::grid::{Clue, digit_char};
use crate::puzzle::rules::HouseKind;

/// A fish of size `k` (2, 3 or 4), of the digits `seen` says have changed.
pub(crate) fn fish(p: &Pencil, k: usize, seen: &mut Seen) -> Option<Step> {
    let technique = match k {
        2 => Technique::XWing,
        3 => Technique::Swordfish,
        _ => Technique::Jellyfish,
    };
    let g = p.geometry();
    let rows: Vec<usize> = (0..g.houses().len())
        .filter(|&h| g.kind(h) == HouseKind::Row)
        .collect();
    let columns: Vec<usize> = (0..g.houses().len())
        .filter(|&h| g.kind(h) == HouseKind::Column)
        .collect();
    let side = p.size().side();
    let t = ByDigit::Fish(k);
    let changed = seen.digits_to_scan(p, t);
    // The lines with two to `k` places: their numbers in `base`, and those
    // places.
    let mut lines: Vec<(usize, u32)> = Vec::with_capacity(side);
    let mut masks: Vec<u32> = Vec::with_capacity(side);
    let (mut row_places, mut column_places) = (Vec::new(), Vec::new());
    for digit in digits(changed) {
        row_places.clear();
        row_places.extend(rows.iter().map(|&h| p.positions(h, digit)));
        column_places.clear();
        column_places.extend(columns.iter().map(|&h| p.positions(h, digit)));
        for (base, cover, base_places, cover_places) in [
            (&rows, &columns, &row_places, &column_places),
            (&columns, &rows, &column_places, &row_places),
        ] {
            // A row's places are column numbers, and a column's are row
            // numbers: the houses list their cells in that order.
            lines.clear();
            lines.extend(
                (0..base.len())
                    .map(|j| (j, base_places[j]))
                    .filter(|(_, m)| (2..=k).contains(&(m.count_ones() as usize))),
            );
            masks.clear();
            masks.extend(lines.iter().map(|&(_, m)| m));
            let found = tight_sets(&masks, k, &mut |pick, union| {
                // An old fish whose eliminations are made is the common
                // case: check with masks before building anything. Bit `j`
                // of a cover line's places is base line `j`.
                let picked = pick.iter().fold(0u32, |m, &i| m | 1 << lines[i].0);
                let useful = (0..side)
                    .filter(|&i| union >> i & 1 == 1)
                    .any(|i| cover_places[i] & !picked != 0);
                if !useful {
                    return None;
                }
                let bases: Vec<usize> = pick.iter().map(|&i| base[lines[i].0]).collect();
                let covers: Vec<usize> = (0..side)
                    .filter(|&i| union >> i & 1 == 1)
                    .map(|i| cover[i])
                    .collect();
                let in_base = |c: &usize| bases.iter().any(|&b| g.houses()[b].contains(c));
                let eliminations: Vec<Clue> = covers
                    .iter()
                    .flat_map(|&h| g.houses()[h].iter())
                    .filter(|&c| !in_base(c) && p.has(*c, digit))
                    .map(|&c| Clue {
                        cell: p.cell(c),
                        digit,
                    })
                    .collect();
                if eliminations.is_empty() {
                    return None;
                }
                let cells: Vec<usize> = bases
                    .iter()
                    .flat_map(|&b| g.houses()[b].iter().copied())
                    .filter(|&c| p.has(c, digit))
                    .collect();
                let names = |hs: &[usize]| {
                    hs.iter()
                        .map(|&h| g.name(h).to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let mut step = Step::new(technique)
                    .pattern(p, &cells, &[digit])
                    .say(seen, || {
                        format!(
                            "in {}, {} can only go in {}, so {}",
                            names(&bases),
                            digit_char(digit),
                            names(&covers),
                            eliminations_text(&eliminations)
                        )
                    });
                step.eliminations = eliminations;
                Some(step)
            });
            if found.is_some() {
                return found;
            }
        }
        seen.nothing_for(t, digit);
    }
    None
}
