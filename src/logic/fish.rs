//! Fish: X-wing, swordfish, jellyfish. A digit's places in `k` rows lie in
//! `k` columns (or the other way round), so those columns lose it
//! elsewhere.

use super::pencil::Pencil;
use super::step::{Step, eliminations_text};
use super::subsets::combinations;
use super::technique::Technique;
use crate::puzzle::grid::{Clue, digit_char};
use crate::puzzle::rules::HouseKind;

/// A fish of size `k` (2, 3 or 4).
pub fn fish(p: &Pencil, k: usize) -> Option<Step> {
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
    for digit in 1..=side as u8 {
        for (base, cover) in [(&rows, &columns), (&columns, &rows)] {
            // A row's places are column numbers, and a column's are row
            // numbers: the houses list their cells in that order.
            let lines: Vec<(usize, u32)> = base
                .iter()
                .map(|&h| (h, p.positions(h, digit)))
                .filter(|(_, m)| (2..=k).contains(&(m.count_ones() as usize)))
                .collect();
            let found = combinations(lines.len(), k, &mut |pick| {
                let union = pick.iter().fold(0u32, |u, &i| u | lines[i].1);
                if union.count_ones() as usize != k {
                    return None;
                }
                let bases: Vec<usize> = pick.iter().map(|&i| lines[i].0).collect();
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
                let mut step = Step::new(technique).pattern(p, &cells, &[digit]);
                let text = format!(
                    "in {}, {} can only go in {}, so {}",
                    names(&bases),
                    digit_char(digit),
                    names(&covers),
                    eliminations_text(&eliminations)
                );
                step.eliminations = eliminations;
                Some(step.say(text))
            });
            if found.is_some() {
                return found;
            }
        }
    }
    None
}
