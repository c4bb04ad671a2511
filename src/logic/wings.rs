//! Wings: XY-wing and XYZ-wing, a pivot and two pincers that share a
//! digit between them.

use super::pencil::{Pencil, bit, digits};
use super::seen::Seen;
use super::step::{Step, cell_list, digit_list, eliminations_text};
use super::technique::Technique;
use crate::puzzle::grid::{Clue, digit_char};

fn shown(p: &Pencil, c: usize) -> String {
    let ds: Vec<u8> = digits(p.candidates(c)).collect();
    format!("{} ({})", p.cell(c), digit_list(&ds, false))
}

/// An XY-wing (`xyz` false) or an XYZ-wing (`xyz` true).
pub fn wing(p: &Pencil, xyz: bool, seen: &Seen) -> Option<Step> {
    let technique = if xyz {
        Technique::XyzWing
    } else {
        Technique::XyWing
    };
    let g = p.geometry();
    let pivot_size = if xyz { 3 } else { 2 };
    // One list for every pivot: this runs on every grid of the path.
    let mut pincers = Vec::new();
    for pivot in 0..p.size().cells() {
        let pm = p.candidates(pivot);
        if pm.count_ones() != pivot_size {
            continue;
        }
        pincers.clear();
        pincers.extend(g.peers(pivot).iter().copied().filter(|&c| {
            let m = p.candidates(c);
            m.count_ones() == 2
                && if xyz {
                    m & pm == m
                } else {
                    (m & pm).count_ones() == 1
                }
        }));
        for (i, &a) in pincers.iter().enumerate() {
            for &b in &pincers[i + 1..] {
                let (ma, mb) = (p.candidates(a), p.candidates(b));
                let z = ma & mb;
                if z.count_ones() != 1 || ma == mb {
                    continue;
                }
                // XY: the pincers' other digits make the pivot, and z is
                // not in it. XYZ: z is the pivot's third digit.
                if xyz {
                    if ma | mb != pm {
                        continue;
                    }
                } else if (ma | mb) & !z != pm || pm & z != 0 {
                    continue;
                }
                let digit = z.trailing_zeros() as u8 + 1;
                // Cells seeing both pincers are among the first's peers.
                let eliminations: Vec<Clue> = g
                    .peers(a)
                    .iter()
                    .copied()
                    .filter(|&c| {
                        c != pivot
                            && p.candidates(c) & bit(digit) != 0
                            && g.sees(c, b)
                            && (!xyz || g.sees(c, pivot))
                    })
                    .map(|c| Clue {
                        cell: p.cell(c),
                        digit,
                    })
                    .collect();
                if eliminations.is_empty() {
                    continue;
                }
                let mut step = Step::new(technique)
                    .pattern(p, &[pivot, a, b], &[digit])
                    .say(seen, || {
                        format!(
                            "whatever pivot {} is, {} or {} is {}, so {}",
                            shown(p, pivot),
                            shown(p, a),
                            shown(p, b),
                            digit_char(digit),
                            eliminations_text(&eliminations)
                        )
                    });
                step.eliminations = eliminations;
                return Some(step);
            }
        }
    }
    None
}

/// A unique rectangle of type 1 (`kind` 1) or 2 (`kind` 2). Only for
/// classic rules on a unique puzzle: the caller's promise.
pub fn unique_rectangle(p: &Pencil, kind: u8, seen: &Seen) -> Option<Step> {
    let g = p.geometry();
    let side = p.size().side();
    let box_of = |c: usize| {
        g.houses_of(c)
            .iter()
            .copied()
            .find(|&h| g.kind(h).is_region())
    };
    // Every corner holds both digits: a column whose two corners share
    // fewer than two ends the search through it early, and the rest is
    // looked at only when all four share exactly two.
    for r1 in 0..side {
        for r2 in r1 + 1..side {
            for c1 in 0..side {
                let left = p.candidates(r1 * side + c1) & p.candidates(r2 * side + c1);
                if left.count_ones() < 2 {
                    continue;
                }
                for c2 in c1 + 1..side {
                    let common = left & p.candidates(r1 * side + c2) & p.candidates(r2 * side + c2);
                    if common.count_ones() != 2 {
                        continue;
                    }
                    let corners = [
                        r1 * side + c1,
                        r1 * side + c2,
                        r2 * side + c1,
                        r2 * side + c2,
                    ];
                    let masks = corners.map(|c| p.candidates(c));
                    // Type 1 has one corner with more than the two digits,
                    // type 2 two: say so before the boxes are looked up.
                    if masks.iter().filter(|&&m| m != common).count() != usize::from(kind) {
                        continue;
                    }
                    let mut boxes: Vec<Option<usize>> =
                        corners.iter().map(|&c| box_of(c)).collect();
                    boxes.sort_unstable();
                    boxes.dedup();
                    if boxes.len() != 2 || boxes.contains(&None) {
                        continue;
                    }
                    let extra: Vec<usize> = (0..4).filter(|&i| masks[i] != common).collect();
                    let ab: Vec<u8> = digits(common).collect();
                    let (technique, eliminations, pattern_digits) = match (kind, extra.as_slice()) {
                        (1, &[i]) => {
                            let e: Vec<Clue> = ab
                                .iter()
                                .map(|&d| Clue {
                                    cell: p.cell(corners[i]),
                                    digit: d,
                                })
                                .collect();
                            (Technique::UniqueRectangle, e, ab.clone())
                        }
                        (2, &[i, j]) => {
                            let (mi, mj) = (masks[i] & !common, masks[j] & !common);
                            if mi != mj || mi.count_ones() != 1 {
                                continue;
                            }
                            let digit = mi.trailing_zeros() as u8 + 1;
                            let e: Vec<Clue> = (0..p.size().cells())
                                .filter(|&c| {
                                    !corners.contains(&c)
                                        && p.has(c, digit)
                                        && g.sees(c, corners[i])
                                        && g.sees(c, corners[j])
                                })
                                .map(|c| Clue {
                                    cell: p.cell(c),
                                    digit,
                                })
                                .collect();
                            (Technique::UniqueRectangle2, e, vec![ab[0], ab[1], digit])
                        }
                        _ => continue,
                    };
                    if eliminations.is_empty() {
                        continue;
                    }
                    let mut step = Step::new(technique)
                        .pattern(p, &corners, &pattern_digits)
                        .say(seen, || {
                            format!(
                                "{} would hold {} twice over in a second solution, so {}",
                                cell_list(corners.iter().map(|&c| p.cell(c))),
                                digit_list(&ab, false),
                                eliminations_text(&eliminations)
                            )
                        });
                    step.eliminations = eliminations;
                    return Some(step);
                }
            }
        }
    }
    None
}
