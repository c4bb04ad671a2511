//! Sudoku Explainer's "direct" techniques: a pointing, a claiming or a
//! hidden pair or triple that is taken only when its eliminations leave a
//! digit with one place in a house, and that places that digit. SE rates
//! them below the same patterns taken for their eliminations alone (direct
//! pointing 1.7 against pointing 2.6), and tries them before naked singles
//! (direct hidden triples after), so they decide the ER of most easy
//! puzzles. A step places the single and makes the pattern's eliminations.

use super::pencil::{Pencil, digits};
use super::seen::{ByDigit, ByHouse, Seen};
use super::step::{Step, cell_list, digit_list};
use super::subsets::hidden_sets;
use super::technique::Technique;
use crate::puzzle::grid::{Clue, digit_char};

/// The one cell of house `h` left for `digit` once the cells `gone` lose
/// it, when there is exactly one.
fn single_left(p: &Pencil, h: usize, digit: u8, gone: &[usize]) -> Option<usize> {
    let mut left = p.geometry().houses()[h]
        .iter()
        .copied()
        .filter(|&c| p.has(c, digit) && !gone.contains(&c));
    match (left.next(), left.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

/// A direct pointing (`pointing`, from a box into a line) or a direct
/// claiming (from a line into a box or another house).
pub(crate) fn intersection(p: &Pencil, pointing: bool, seen: &mut Seen) -> Option<Step> {
    let g = p.geometry();
    let t = ByDigit::Direct(pointing);
    let changed = seen.digits_to_scan(p, t);
    if changed == 0 {
        return None;
    }
    // Every house's places, once: each house is read from every house it
    // overlaps.
    let all = p.places();
    for (a, house) in g.houses().iter().enumerate() {
        if g.kind(a).is_region() != pointing {
            continue;
        }
        let pos = &all[a];
        // The digits to look at with two places or more in the house: a
        // single is no pattern.
        let several = (0..p.size().side()).fold(0u32, |set, d| {
            set | u32::from(pos[d] & pos[d].wrapping_sub(1) != 0) << d
        }) & changed;
        if several == 0 {
            continue;
        }
        for overlap in g.overlaps(a) {
            let b = overlap.house;
            let there = &all[b];
            for digit in digits(several) {
                let d = usize::from(digit - 1);
                let m = pos[d];
                if m & !overlap.here != 0 || there[d] & !overlap.there == 0 {
                    continue;
                }
                let gone: Vec<usize> = g.houses()[b]
                    .iter()
                    .copied()
                    .filter(|&c| !house.contains(&c) && p.has(c, digit))
                    .collect();
                // A house of the first house's kind (a box for pointing, a
                // row for a row's claiming) that loses the digit in one of
                // those cells and keeps it in one cell only. SE looks no
                // further: on serate's ratings of 1,000 qqwing puzzles,
                // counting a single in any house gave 79.9% equal, and this
                // 85.9% (SE's 2.6 and 2.0 where z3doku said 1.7).
                let single = gone.iter().find_map(|&c| {
                    g.houses_of(c)
                        .iter()
                        .filter(|&&hh| hh != b)
                        .filter(|&&hh| g.kind(hh) == g.kind(a))
                        .find_map(|&hh| single_left(p, hh, digit, &gone).map(|s| (hh, s)))
                });
                let Some((hh, cell)) = single else {
                    continue;
                };
                let technique = if pointing {
                    Technique::DirectPointing
                } else {
                    Technique::DirectClaiming
                };
                let places: Vec<usize> = digits(m).map(|k| house[usize::from(k - 1)]).collect();
                let mut step = Step::new(technique)
                    .pattern(p, &places, &[digit])
                    .say(seen, || {
                        format!(
                            "in {}, {} can only go in {} ({}), so it leaves {}, and {} is its one place in {}",
                            g.name(a),
                            digit_char(digit),
                            g.name(b),
                            cell_list(places.iter().map(|&c| p.cell(c))),
                            cell_list(gone.iter().map(|&c| p.cell(c))),
                            p.cell(cell),
                            g.name(hh)
                        )
                    });
                step.eliminations = gone
                    .iter()
                    .map(|&c| Clue {
                        cell: p.cell(c),
                        digit,
                    })
                    .collect();
                step.placements = vec![Clue {
                    cell: p.cell(cell),
                    digit,
                }];
                return Some(step);
            }
        }
    }
    for digit in digits(changed) {
        seen.nothing_for(t, digit);
    }
    None
}

/// A direct hidden pair (`k` 2) or triple (3): `k` digits confined to `k`
/// cells of a house, whose other candidates leave that house with one
/// place for one of them.
pub(crate) fn hidden(p: &Pencil, k: usize, seen: &mut Seen) -> Option<Step> {
    let t = ByHouse {
        hidden: true,
        k,
        direct: true,
    };
    let technique = if k == 2 {
        Technique::DirectHiddenPair
    } else {
        Technique::DirectHiddenTriple
    };
    hidden_sets(p, t, seen, &mut |seen, set| {
        // A digit the set's cells lose that is left with one place.
        let single = digits(set.free & !set.keep).find(|&d| {
            let m = set.pos[usize::from(d - 1)];
            m & set.union != 0 && (m & !set.union).count_ones() == 1
        })?;
        let target =
            set.house[(set.pos[usize::from(single - 1)] & !set.union).trailing_zeros() as usize];
        let (ds, cells) = (set.digits(), set.cells());
        let mut step = Step::new(technique).pattern(p, &cells, &ds).say(seen, || {
            format!(
                "in {}, {} can only go in {}, so {} can only go in {}",
                p.geometry().name(set.h),
                digit_list(&ds, false),
                cell_list(cells.iter().map(|&c| p.cell(c))),
                digit_char(single),
                p.cell(target)
            )
        });
        step.eliminations = set.eliminations(p);
        step.placements = vec![Clue {
            cell: p.cell(target),
            digit: single,
        }];
        Some(step)
    })
}

/// SE's bivalue universal grave, type 1 (5.6): every open cell but one has
/// two candidates, and each digit has two places or none in every house,
/// but for one digit of the cell with three, which has three places in
/// each of that cell's houses. Without that digit there the grid would
/// have two solutions (the two-candidate cells could swap throughout), so
/// on a puzzle with one solution the cell holds it.
pub(crate) fn bug_one(p: &Pencil, seen: &Seen) -> Option<Step> {
    let g = p.geometry();
    let mut triple = None;
    for c in 0..p.size().cells() {
        match p.candidates(c).count_ones() {
            0 | 2 => {}
            3 if triple.is_none() => triple = Some(c),
            _ => return None,
        }
    }
    let cell = triple?;
    let mine = g.houses_of(cell);
    // The digit with three places in the cell's first house is the extra.
    let first = p.places()[*mine.first()?];
    let digit =
        digits(p.candidates(cell)).find(|&d| first[usize::from(d - 1)].count_ones() == 3)?;
    for h in 0..g.houses().len() {
        let pos = &p.places()[h];
        for d in 1..=p.size().side() as u8 {
            let n = pos[usize::from(d - 1)].count_ones();
            let extra = d == digit && mine.contains(&h);
            let grave = if extra { n == 3 } else { n == 0 || n == 2 };
            if !grave {
                return None;
            }
        }
    }
    let mut step = Step::new(Technique::BugOne)
        .pattern(p, &[cell], &[digit])
        .say(seen, || {
            format!(
                "every other open cell has two candidates and every digit two places in each house \
                 but {} in the houses of {}: without it the puzzle would have two solutions, so {} is {}",
                digit_char(digit),
                p.cell(cell),
                p.cell(cell),
                digit_char(digit)
            )
        });
    step.placements = vec![Clue {
        cell: p.cell(cell),
        digit,
    }];
    Some(step)
}
