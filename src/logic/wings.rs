//! Wings: XY-wing and XYZ-wing, a pivot and two pincers that share a
//! digit between them.

use super::pencil::{Pencil, bit, digits};
use super::seen::Seen;
use super::step::{Step, digit_list, eliminations_text};
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
