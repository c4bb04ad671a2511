//! Sudoku Explainer's aligned pair exclusion (6.2) and aligned triplet
//! exclusion (7.5), found as SE 1.2.1.3 finds them.
//!
//! Two (or three) "base" cells cannot take any combination of their
//! candidates that puts one digit twice in a house, or that leaves a cell
//! seeing them all with none of its candidates: an "excluding" cell, of two
//! candidates (for a pair; two or three for a triplet). A candidate of a
//! base cell that is in no combination left is false.
//!
//! SE's rules for the cells, which decide which step a rating takes:
//! - a base cell has two candidates or more, sees no cell with one, and
//!   sees at least one excluding cell; base cells are listed in reading
//!   order;
//! - a pair is any two base cells, aligned or not, in SE's order of
//!   combinations (the pairs of the list's first two, then those ending at
//!   the third, and so on);
//! - a triplet is such a pair and a third base cell that is an excluding
//!   cell of either of the two, taken in the order of their house cells
//!   (box, row, column; the first cell's, then the second's);
//! - the cells seeing every base cell with two (or up to three)
//!   candidates must be two or more.
//!
//! The first set with an elimination is the step, as SE's rating takes it.

use super::pencil::{Pencil, digits};
use super::seen::Seen;
use super::step::{Step, cell_list, eliminations_text};
use super::technique::Technique;
use crate::puzzle::grid::Clue;

/// The cells `cell` sees, in SE's order: the cells of its box, row and
/// column (then any other house), each house in its own order, each cell
/// once.
fn house_cells(p: &Pencil, cell: usize) -> Vec<usize> {
    let g = p.geometry();
    let mut out: Vec<usize> = Vec::with_capacity(3 * p.size().side());
    for &h in g.se_houses_of(cell) {
        for &c in &g.houses()[h] {
            if c != cell && !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// The first aligned pair (`degree` 2) or triplet (3) exclusion SE would
/// take in `p`.
pub fn aligned_exclusion(p: &Pencil, degree: usize, seen: &Seen) -> Option<Step> {
    let cells = p.size().cells();
    let narrow = |c: usize| (2..=degree).contains(&(p.candidates(c).count_ones() as usize));
    // The base cells, and each one's excluding cells: in SE's order, and
    // as a bit set over cells (`w` words a cell).
    let w = cells.div_ceil(64);
    let mut base: Vec<usize> = Vec::new();
    let mut excluders: Vec<Vec<usize>> = vec![Vec::new(); cells];
    let mut bits = vec![0u64; cells * w];
    // Each base cell's place in `base`, for the base cells.
    let mut place: Vec<Option<usize>> = vec![None; cells];
    for c in 0..cells {
        if p.candidates(c).count_ones() < 2 {
            continue;
        }
        let around = house_cells(p, c);
        if around.iter().any(|&o| p.candidates(o).count_ones() == 1) {
            continue;
        }
        let mine: Vec<usize> = around.into_iter().filter(|&o| narrow(o)).collect();
        if !mine.is_empty() {
            for &x in &mine {
                bits[c * w + x / 64] |= 1 << (x % 64);
            }
            place[c] = Some(base.len());
            base.push(c);
            excluders[c] = mine;
        }
    }
    if base.len() < degree {
        return None;
    }
    let of = |c: usize| &bits[c * w..(c + 1) * w];
    let mut common = vec![0u64; w];
    let mut all = vec![0u64; w];
    let mut masks: Vec<u32> = Vec::new();
    // The triplets tried, by their places in `base` in increasing order: a
    // triplet comes again from each of its pairs whose excluding cells hold
    // its third cell, and whichever order its cells come in, what it
    // excludes is the same, so one tried without a step is not tried again.
    let n = base.len();
    let mut tried = vec![
        0u64;
        if degree == 3 {
            (n * n * n).div_ceil(64)
        } else {
            0
        }
    ];
    // SE's order of pairs: by the second cell, then the first.
    for second in 1..base.len() {
        for first in 0..second {
            let (c0, c1) = (base[first], base[second]);
            let mut count = 0;
            for (k, word) in common.iter_mut().enumerate() {
                *word = of(c0)[k] & of(c1)[k];
                count += word.count_ones();
            }
            if count < 2 {
                continue;
            }
            if degree == 2 {
                if let Some(step) = exclusion(p, &[c0, c1], &common, &mut masks, seen) {
                    return Some(step);
                }
                continue;
            }
            // The third cell: a base cell among the excluding cells of the
            // first, then of the second, in that order.
            let in_first = |t: usize| of(c0)[t / 64] >> (t % 64) & 1 == 1;
            let thirds = excluders[c0]
                .iter()
                .chain(excluders[c1].iter().filter(|&&t| !in_first(t)));
            for &t in thirds {
                let Some(third) = place[t] else { continue };
                if t == c0 || t == c1 {
                    continue;
                }
                let mut count = 0;
                for (k, word) in all.iter_mut().enumerate() {
                    *word = common[k] & of(t)[k];
                    count += word.count_ones();
                }
                if count < 2 {
                    continue;
                }
                let mut key = [first, second, third];
                key.sort_unstable();
                let key = (key[0] * n + key[1]) * n + key[2];
                if tried[key / 64] >> (key % 64) & 1 == 1 {
                    continue;
                }
                tried[key / 64] |= 1 << (key % 64);
                if let Some(step) = exclusion(p, &[c0, c1, t], &all, &mut masks, seen) {
                    return Some(step);
                }
            }
        }
    }
    None
}

/// The digits of `set` one at a time, each as its bit.
fn bits(mut set: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let low = set & set.wrapping_neg();
            set &= set - 1;
            low
        })
    })
}

/// The step the base cells `set` make with their excluding cells (the bit
/// set `excluding`), when some candidate is in no combination left.
/// `masks` is room to work in.
fn exclusion(
    p: &Pencil,
    set: &[usize],
    excluding: &[u64],
    masks: &mut Vec<u32>,
    seen: &Seen,
) -> Option<Step> {
    let g = p.geometry();
    let n = set.len();
    let mut cands = [0u32; 3];
    for (k, &c) in set.iter().enumerate() {
        cands[k] = p.candidates(c);
    }
    let union = cands[0] | cands[1] | cands[2];
    // Only an excluding cell whose candidates are all the set's can be
    // left without one.
    masks.clear();
    for (k, &word) in excluding.iter().enumerate() {
        let mut rest = word;
        while rest != 0 {
            let x = k * 64 + rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let m = p.candidates(x);
            if m & !union == 0 {
                masks.push(m);
            }
        }
    }
    // Without one, only a digit repeated in a house excludes, and of
    // cells with two candidates or more that takes two of them holding
    // the same two digits.
    if masks.is_empty()
        && !(n == 3
            && (cands[0] == cands[1] || cands[0] == cands[2] || cands[1] == cands[2])
            && cands[..n].iter().any(|&m| m.count_ones() == 2))
    {
        return None;
    }
    let aligned = [
        g.sees(set[0], set[1]),
        n == 3 && g.sees(set[0], set[2]),
        n == 3 && g.sees(set[1], set[2]),
    ];
    // The digits of each base cell found in some combination left. The
    // first two cells' digits are walked; for each two, the third cell's
    // digits left are worked out at once as a bit set: a digit it shares
    // with an aligned base cell is out, and so is the one digit an
    // excluding cell lacks once those two are placed (all of them when it
    // lacks none). Once every digit is found, the walk stops.
    let mut kept = [0u32; 3];
    let full = |kept: &[u32; 3]| kept[1] == cands[1] && kept[2] == cands[2];
    for a in bits(cands[0]) {
        for b in bits(cands[1]) {
            if kept[0] & a != 0 && full(&kept) {
                break;
            }
            if aligned[0] && a == b {
                continue;
            }
            let placed = a | b;
            if n == 2 {
                if masks.iter().all(|&m| m & !placed != 0) {
                    kept[0] |= a;
                    kept[1] |= b;
                }
                continue;
            }
            let mut third = cands[2];
            if aligned[1] {
                third &= !a;
            }
            if aligned[2] {
                third &= !b;
            }
            for &m in masks.iter() {
                let lacking = m & !placed;
                if lacking == 0 {
                    third = 0;
                    break;
                }
                if lacking & (lacking - 1) == 0 {
                    third &= !lacking;
                }
            }
            if third != 0 {
                kept[0] |= a;
                kept[1] |= b;
                kept[2] |= third;
            }
        }
    }
    let eliminations: Vec<Clue> = set
        .iter()
        .zip(&kept)
        .flat_map(|(&c, &k)| {
            digits(p.candidates(c) & !k).map(move |d| Clue {
                cell: p.cell(c),
                digit: d,
            })
        })
        .collect();
    if eliminations.is_empty() {
        return None;
    }
    let technique = if set.len() == 2 {
        Technique::AlignedPairExclusion
    } else {
        Technique::AlignedTripletExclusion
    };
    let mut step = Step::new(technique).pattern(p, set, &[]).say(seen, || {
        format!(
            "of the combinations of digits of {}, those that repeat a digit in a house or \
                 leave one of {} (which see them all) without a candidate are out, so {}",
            cell_list(set.iter().map(|&c| p.cell(c))),
            cell_list(
                (0..p.size().cells())
                    .filter(|&x| excluding[x / 64] >> (x % 64) & 1 == 1)
                    .map(|x| p.cell(x))
            ),
            eliminations_text(&eliminations)
        )
    });
    step.eliminations = eliminations;
    Some(step)
}

#[cfg(test)]
mod tests {
    use crate::logic::Technique;
    use crate::logic::testing::{rate, rated};

    /// top1465 puzzles serate rates 7.1 with an aligned pair exclusion on
    /// the way and 7.5 with an aligned triplet exclusion: z3doku rated them
    /// 7.2 and 8.4 with chains before it had them.
    #[test]
    fn aligned_exclusions_rate_as_sudoku_explainer_rates_them() {
        let (er, path) = rate(
            ".1...57.4...7...9...8.....58.4...1...2.14.....9...8.........273..3.8.......5.6...",
        );
        assert_eq!(er, 71);
        assert!(rated(&path, Technique::AlignedPairExclusion).contains(&62));
        let (er, path) = rate(
            "4.9...5.....8....27..3.........4.7...8.....6..1..........6..12.5...9...........3.",
        );
        assert_eq!(er, 75);
        assert!(rated(&path, Technique::AlignedTripletExclusion).contains(&75));
    }
}
