//! Singles: full houses, hidden singles and naked singles, which place
//! digits.

use super::pencil::{Pencil, bit};
use super::seen::Seen;
use super::step::Step;
use super::technique::Technique;
use crate::puzzle::grid::{Clue, digit_char};

/// The digits placed in house `h`.
fn placed_in(p: &Pencil, h: usize) -> u32 {
    p.geometry().houses()[h]
        .iter()
        .filter(|&&c| p.value(c) != 0)
        .fold(0, |set, &c| set | bit(p.value(c)))
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
    let side = p.size().side();
    let places = p.places();
    for (h, house) in g.houses().iter().enumerate() {
        // The house's cells with a candidate: one, or the house has no
        // single open cell that a digit can go in. The grid's places are
        // read at every step anyway, and a house's cells are not.
        let with = places[h][..side].iter().fold(0, |m, &pos| m | pos);
        if with == 0 || with & (with - 1) != 0 {
            continue;
        }
        let mut open = house.iter().filter(|&&c| p.value(c) == 0);
        let (Some(&cell), None) = (open.next(), open.next()) else {
            continue;
        };
        let placed = placed_in(p, h);
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
    let side = p.size().side();
    let places = p.places();
    for (h, house) in g.houses().iter().enumerate() {
        if g.kind(h).is_region() != boxes {
            continue;
        }
        // The first digit with one place in the house: its one cell.
        let Some((d, &one)) = places[h][..side]
            .iter()
            .enumerate()
            .find(|&(_, &pos)| pos != 0 && pos & (pos - 1) == 0)
        else {
            continue;
        };
        let (digit, cell) = (d as u8 + 1, house[one.trailing_zeros() as usize]);
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
    // One candidate: a power of two, without counting bits.
    let cell = (0..p.size().cells()).find(|&c| p.candidates(c).is_power_of_two())?;
    let digit = p.candidates(cell).trailing_zeros() as u8 + 1;
    Some(
        placing(p, Technique::NakedSingle, cell, digit).say(seen, || {
            format!("{} can only be {}", p.cell(cell), digit_char(digit))
        }),
    )
}
