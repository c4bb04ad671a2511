//! Pointing and claiming: a digit's places in one house all lie in
//! another, so the rest of the other house loses the digit.

use super::pencil::{Pencil, digits};
use super::seen::{ByDigit, Seen};
use super::step::{Step, cell_list, eliminations_text};
use super::technique::Technique;
use crate::puzzle::grid::{Clue, digit_char};

/// Pointing (`pointing`: from a box into a line) or claiming (from a line,
/// or a diagonal, into another house), for the digits `seen` says have
/// changed.
pub(crate) fn intersection(p: &Pencil, pointing: bool, seen: &mut Seen) -> Option<Step> {
    let g = p.geometry();
    let t = if pointing {
        ByDigit::Pointing
    } else {
        ByDigit::Claiming
    };
    let changed = seen.digits_to_scan(p, t);
    if changed == 0 {
        return None;
    }
    for (a, house) in g.houses().iter().enumerate() {
        if g.kind(a).is_region() != pointing {
            continue;
        }
        let pos = &p.places()[a];
        // The digits with two places or more: a single is no pattern.
        let several = (0..p.size().side()).fold(0u32, |set, d| {
            set | u32::from(pos[d] & pos[d].wrapping_sub(1) != 0) << d
        }) & changed;
        for overlap in g.overlaps(a) {
            let b = overlap.house;
            let confined = digits(several)
                .filter(|&d| pos[usize::from(d - 1)] & !overlap.here == 0)
                .fold(0u32, |set, d| set | 1 << (d - 1));
            if confined == 0 {
                continue;
            }
            // Most confined digits are old patterns whose eliminations are
            // made: the other house's places say so with one mask.
            let there = &p.places()[b];
            for digit in digits(confined) {
                let m = pos[usize::from(digit - 1)];
                if there[usize::from(digit - 1)] & !overlap.there == 0 {
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
                let mut step = Step::new(technique)
                    .pattern(p, &places, &[digit])
                    .say(seen, || {
                        format!(
                            "in {}, {} can only go in {} ({}), so {}",
                            g.name(a),
                            digit_char(digit),
                            g.name(b),
                            cell_list(places.iter().map(|&c| p.cell(c))),
                            eliminations_text(&eliminations)
                        )
                    });
                step.eliminations = eliminations;
                return Some(step);
            }
        }
    }
    for digit in digits(changed) {
        seen.nothing_for(t, digit);
    }
    None
}
