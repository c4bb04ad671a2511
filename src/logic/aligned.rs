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

use super::pencil::{Pencil, bit, digits};
use super::seen::Seen;
use super::step::{Step, cell_list, eliminations_text};
use super::technique::Technique;
use crate::puzzle::grid::Clue;
use crate::puzzle::rules::HouseKind;

/// The cells `cell` sees, in SE's order: the cells of its box, row and
/// column (then any other house), each house in its own order, each cell
/// once.
fn house_cells(p: &Pencil, cell: usize) -> Vec<usize> {
    let g = p.geometry();
    let rank = |h: usize| match g.kind(h) {
        HouseKind::Box | HouseKind::Region => 0,
        HouseKind::Row => 1,
        HouseKind::Column => 2,
        _ => 3,
    };
    let mut houses: Vec<usize> = g.houses_of(cell).to_vec();
    houses.sort_by_key(|&h| rank(h));
    let mut out: Vec<usize> = Vec::with_capacity(3 * p.size().side());
    for h in houses {
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
    let mut is_base = vec![false; cells];
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
            base.push(c);
            is_base[c] = true;
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
                if !is_base[t] || t == c0 || t == c1 {
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
                if let Some(step) = exclusion(p, &[c0, c1, t], &all, &mut masks, seen) {
                    return Some(step);
                }
            }
        }
    }
    None
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
    let allowed = |v: [u8; 3]| {
        let clash = (aligned[0] && v[0] == v[1])
            || (aligned[1] && v[0] == v[2])
            || (aligned[2] && v[1] == v[2]);
        let used = v[..n].iter().fold(0u32, |m, &d| m | bit(d));
        !clash && masks.iter().all(|&m| m & !used != 0)
    };
    // The digits of each base cell found in some combination left: for
    // each digit not yet found, a combination holding it is looked for,
    // and every digit of the one found is found. Most sets keep every
    // digit, which a few combinations show.
    let mut kept = [0u32; 3];
    for i in 0..n {
        let (j, k) = match i {
            0 => (1, 2),
            1 => (0, 2),
            _ => (0, 1),
        };
        for d in digits(cands[i]) {
            if kept[i] & bit(d) != 0 {
                continue;
            }
            // With two cells, the third's one "digit" stands for none.
            let thirds = if n == 3 { cands[k] } else { 1 };
            let found = digits(cands[j]).find_map(|a| {
                digits(thirds).find_map(|b| {
                    let mut v = [0u8; 3];
                    v[i] = d;
                    v[j] = a;
                    if n == 3 {
                        v[k] = b;
                    }
                    allowed(v).then_some(v)
                })
            });
            if let Some(v) = found {
                for (slot, &d) in kept.iter_mut().zip(&v[..n]) {
                    *slot |= bit(d);
                }
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
    use crate::logic::unique::tests::{rate, rated};

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
