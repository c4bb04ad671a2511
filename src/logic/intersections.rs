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
    let side = p.size().side();
    for (a, house) in g.houses().iter().enumerate() {
        if (g.kind(a) == HouseKind::Box) != pointing {
            continue;
        }
        let mut open = 0;
        for &c in house {
            open |= p.candidates(c);
        }
        for digit in digits(open) {
            let places: Vec<usize> = house.iter().copied().filter(|&c| p.has(c, digit)).collect();
            if places.len() < 2 || places.len() > side {
                continue;
            }
            for &b in g.houses_of(places[0]) {
                if b == a || !places.iter().all(|c| g.houses()[b].contains(c)) {
                    continue;
                }
                let eliminations: Vec<Clue> = g.houses()[b]
                    .iter()
                    .filter(|&&c| !house.contains(&c) && p.has(c, digit))
                    .map(|&c| Clue {
                        cell: p.cell(c),
                        digit,
                    })
                    .collect();
                if eliminations.is_empty() {
                    continue;
                }
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
