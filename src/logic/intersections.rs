//! Pointing and claiming: a digit's places in one house all lie in
//! another, so the rest of the other house loses the digit.

use super::pencil::{Pencil, digits};
use super::step::{Step, cell_list, eliminations_text};
use super::technique::Technique;
use crate::puzzle::grid::{Clue, digit_char};
use crate::puzzle::rules::HouseKind;

/// Pointing (`pointing`: from a box into a line) or claiming (from a line,
/// or a diagonal, into another house).
pub fn intersection(p: &Pencil, pointing: bool) -> Option<Step> {
    let g = p.geometry();
    for (a, house) in g.houses().iter().enumerate() {
        if (g.kind(a) == HouseKind::Box) != pointing {
            continue;
        }
        let pos = p.all_positions(a);
        for overlap in g.overlaps(a) {
            let b = overlap.house;
            for (d, &m) in pos.iter().enumerate().take(p.size().side()) {
                if m.count_ones() < 2 || m & !overlap.here != 0 {
                    continue;
                }
                let digit = d as u8 + 1;
                if p.positions(b, digit) & !overlap.there == 0 {
                    continue;
                }
                let outside = |c: &&usize| !house.contains(c) && p.has(**c, digit);
                let eliminations: Vec<Clue> = g.houses()[b]
                    .iter()
                    .filter(outside)
                    .map(|&c| Clue {
                        cell: p.cell(c),
                        digit,
                    })
                    .collect();
                let places: Vec<usize> = digits(m).map(|k| house[usize::from(k - 1)]).collect();
                let technique = if pointing {
                    Technique::Pointing
                } else {
                    Technique::Claiming
                };
                let mut step = Step::new(technique).pattern(p, &places, &[digit]);
                let text = format!(
                    "in {}, {} can only go in {} ({}), so {}",
                    g.name(a),
                    digit_char(digit),
                    g.name(b),
                    cell_list(places.iter().map(|&c| p.cell(c))),
                    eliminations_text(&eliminations)
                );
                step.eliminations = eliminations;
                return Some(step.say(text));
            }
        }
    }
    None
}
