//! Singles: full houses, hidden singles and naked singles, which place
//! digits.

use super::pencil::{Pencil, bit, digits};
use super::seen::Seen;
use super::step::Step;
use super::technique::Technique;
use crate::puzzle::grid::{Clue, digit_char};

/// The digits placed in house `h`, and the union of its open cells'
/// candidates with the digits seen in more than one of them.
fn house_counts(p: &Pencil, h: usize) -> (u32, u32, u32) {
    let (mut placed, mut once, mut twice) = (0, 0, 0);
    for &c in &p.geometry().houses()[h] {
        match p.value(c) {
            0 => {
                let m = p.candidates(c);
                twice |= once & m;
                once |= m;
            }
            v => placed |= bit(v),
        }
    }
    (placed, once, twice)
}

fn placing(p: &Pencil, technique: Technique, cell: usize, digit: u8) -> Step {
    let mut step = Step::new(technique).pattern(p, &[cell], &[digit]);
    step.placements = vec![Clue {
        cell: p.cell(cell),
        digit,
    }];
    step
}

/// A house with one empty cell.
pub fn full_house(p: &Pencil, seen: &Seen) -> Option<Step> {
    let g = p.geometry();
    for (h, house) in g.houses().iter().enumerate() {
        let mut open = house.iter().filter(|&&c| p.value(c) == 0);
        let (Some(&cell), None) = (open.next(), open.next()) else {
            continue;
        };
        let (placed, _, _) = house_counts(p, h);
        let all = u32::MAX >> (32 - p.size().side());
        let missing = all & !placed;
        if missing.count_ones() != 1 || p.candidates(cell) & missing == 0 {
            continue;
        }
        let digit = missing.trailing_zeros() as u8 + 1;
        return Some(placing(p, Technique::FullHouse, cell, digit).say(seen, || {
            format!(
                "{} is the last empty cell in {}, so it is {}",
                p.cell(cell),
                g.name(h),
                digit_char(digit)
            )
        }));
    }
    None
}

/// A digit with one place left in a box (`boxes`) or in another house.
pub fn hidden_single(p: &Pencil, boxes: bool, seen: &Seen) -> Option<Step> {
    let g = p.geometry();
    let technique = if boxes {
        Technique::HiddenSingleBox
    } else {
        Technique::HiddenSingleLine
    };
    for (h, house) in g.houses().iter().enumerate() {
        if g.kind(h).is_region() != boxes {
            continue;
        }
        let (_, once, twice) = house_counts(p, h);
        let Some(digit) = digits(once & !twice).next() else {
            continue;
        };
        let Some(&cell) = house.iter().find(|&&c| p.has(c, digit)) else {
            continue;
        };
        return Some(placing(p, technique, cell, digit).say(seen, || {
            format!(
                "{} can only go in {} in {}",
                digit_char(digit),
                p.cell(cell),
                g.name(h)
            )
        }));
    }
    None
}

/// A cell with one candidate.
pub fn naked_single(p: &Pencil, seen: &Seen) -> Option<Step> {
    let cell = (0..p.size().cells()).find(|&c| p.candidates(c).count_ones() == 1)?;
    let digit = p.candidates(cell).trailing_zeros() as u8 + 1;
    Some(
        placing(p, Technique::NakedSingle, cell, digit).say(seen, || {
            format!("{} can only be {}", p.cell(cell), digit_char(digit))
        }),
    )
}
