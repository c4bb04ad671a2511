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

use super::links::cells128;
use super::pencil::{Pencil, digits};
use super::seen::Seen;
use super::step::{Step, cell_list, eliminations_text};
use super::technique::Technique;
use crate::puzzle::grid::Clue;
use std::cell::RefCell;

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
    if some_set_excludes(p, degree) == Some(false) {
        return None;
    }
    walk(p, degree, seen)
}

/// The sets of [`aligned_exclusion`] in SE's order, each tried until one
/// removes something.
fn walk(p: &Pencil, degree: usize, seen: &Seen) -> Option<Step> {
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
    let kept = kept(p, set, excluding, masks)?;
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

/// The last grid on which no pair (`[0]`) or no triplet (`[1]`) removed
/// anything, with its base cells.
struct Clean {
    grid: Pencil,
    base: u128,
}

thread_local! {
    /// A rating tries the aligned exclusions at step after step of one
    /// puzzle, and a step changes a few cells: a set whose cells and the
    /// cells seeing all of them kept their candidates removes nothing now
    /// if it removed nothing then, so only the others are tried again.
    static CLEAN: RefCell<[Option<Clean>; 2]> = const { RefCell::new([None, None]) };
}

/// Whether any pair (`degree` 2) or triplet (3) [`aligned_exclusion`]
/// would try removes a candidate, found without its order and without
/// building its lists: SE tries them at every step that gets past BUG (the
/// pairs) or its single chains (the triplets), and one removes something
/// only a few times a puzzle, so the walk in SE's order runs only then.
/// `None` on a board of more than 128 cells.
///
/// The sets are the same: base cells with two or more cells seeing them
/// all with two (to `degree`) candidates, and for a triplet, one of the
/// three such a cell seeing another (how the walk reaches a third cell from
/// a pair). Instead of following each pair's excluding cells, the third
/// cells are those seeing two or more of the pair's common excluding
/// cells, a few bit-set operations a pair.
fn some_set_excludes(p: &Pencil, degree: usize) -> Option<bool> {
    let cells = p.size().cells();
    if cells > 128 || !(2..=3).contains(&degree) {
        return None;
    }
    let g = p.geometry();
    let peers = |c: usize| cells128(g.peer_bits(c));
    let (mut narrow, mut single) = (0u128, 0u128);
    for c in 0..cells {
        match p.candidates(c).count_ones() {
            1 => single |= 1 << c,
            n if n >= 2 && n as usize <= degree => narrow |= 1 << c,
            _ => {}
        }
    }
    // Each base cell's excluding cells.
    let mut excluding = [0u128; 128];
    let mut base = 0u128;
    for (c, mine) in excluding.iter_mut().enumerate().take(cells) {
        if p.candidates(c).count_ones() >= 2 && peers(c) & single == 0 {
            *mine = peers(c) & narrow;
            if *mine != 0 {
                base |= 1 << c;
            }
        }
    }
    // The cells changed since the last clean grid (all of them without
    // one), those that became or stopped being base cells, and each base
    // cell's changed peers: a set is tried again when one of its cells is
    // in `touched` or a changed cell sees all of them.
    let slot = degree - 2;
    let mut changed = !0u128;
    let mut touched = !0u128;
    CLEAN.with(|clean| {
        if let Some(last) = &clean.borrow()[slot]
            && last.grid.same_board(p)
        {
            changed = (0..cells)
                .filter(|&c| last.grid.candidates(c) != p.candidates(c))
                .fold(0, |set, c| set | 1 << c);
            touched = changed | (last.base ^ base);
        }
    });
    let mut near = [0u128; 128];
    for c in cells_of(base) {
        near[c] = peers(c) & changed;
    }
    let above = |c: usize| !0u128 << c << 1;
    let within = |x: usize, y: usize| excluding[x] >> y & 1 == 1;
    let mut masks = Vec::new();
    for i in cells_of(base) {
        for j in cells_of(base & above(i)) {
            let common = excluding[i] & excluding[j];
            if common.count_ones() < 2 {
                continue;
            }
            if degree == 2 {
                let fresh = touched & (1 << i | 1 << j) != 0 || near[i] & near[j] != 0;
                let words = [common as u64, (common >> 64) as u64];
                if fresh && removes(p, &[i, j], &words, &mut masks) {
                    return Some(true);
                }
                continue;
            }
            let (mut once, mut twice) = (0u128, 0u128);
            for e in cells_of(common) {
                twice |= once & peers(e);
                once |= peers(e);
            }
            let pair_touched = touched & (1 << i | 1 << j) != 0;
            for k in cells_of(twice & base & above(j)) {
                let fresh =
                    pair_touched || touched >> k & 1 == 1 || near[i] & near[j] & near[k] != 0;
                if !fresh {
                    continue;
                }
                let reached = [(i, j), (i, k), (j, i), (j, k), (k, i), (k, j)]
                    .iter()
                    .any(|&(x, y)| within(x, y));
                if !reached {
                    continue;
                }
                let all = common & excluding[k];
                let words = [all as u64, (all >> 64) as u64];
                if removes(p, &[i, j, k], &words, &mut masks) {
                    return Some(true);
                }
            }
        }
    }
    CLEAN.with(|clean| {
        clean.borrow_mut()[slot] = Some(Clean {
            grid: p.clone(),
            base,
        });
    });
    Some(false)
}

/// Whether the base cells `set` with their excluding cells `excluding`
/// remove a candidate.
fn removes(p: &Pencil, set: &[usize], excluding: &[u64], masks: &mut Vec<u32>) -> bool {
    kept(p, set, excluding, masks).is_some_and(|kept| {
        set.iter()
            .zip(&kept)
            .any(|(&c, &k)| p.candidates(c) & !k != 0)
    })
}

/// The cells of a set, in order.
fn cells_of(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = set.trailing_zeros() as usize;
            set &= set - 1;
            c
        })
    })
}

/// The digits of each of the base cells `set` that are in some combination
/// left with the excluding cells `excluding`, or `None` when nothing can
/// exclude a combination. `masks` is room to work in.
fn kept(p: &Pencil, set: &[usize], excluding: &[u64], masks: &mut Vec<u32>) -> Option<[u32; 3]> {
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
    Some(kept)
}

#[cfg(test)]
mod tests {
    use super::{some_set_excludes, walk};
    use crate::logic::Technique;
    use crate::logic::pencil::Pencil;
    use crate::logic::seen::Seen;
    use crate::logic::testing::{rate, rate_line, rated};

    /// The first pass and its memory of clean grids say "something is
    /// removed" exactly when the walk in SE's order finds a step, on every
    /// grid of the rating paths of puzzles that need chains (each path's
    /// grids one after another, as a rating meets them, so the memory is
    /// used), for pairs and triplets.
    #[test]
    fn the_first_pass_agrees_with_the_walk_along_rating_paths() {
        let puzzles = [
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
            "4.9...5.....8....27..3.........4.7...8.....6..1..........6..12.5...9...........3.",
            ".1...57.4...7...9...8.....58.4...1...2.14.....9...8.........273..3.8.......5.6...",
            "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
        ];
        let seen = Seen::new();
        let mut grids = 0;
        for line in puzzles {
            let (_, path) = rate_line(line);
            let Some(mut p) = Pencil::new(&path.puzzle) else {
                panic!("{line}: givens clash");
            };
            for step in &path.steps {
                for degree in [2, 3] {
                    assert_eq!(
                        some_set_excludes(&p, degree),
                        Some(walk(&p, degree, &seen).is_some()),
                        "{line}, degree {degree}, after {grids} grids"
                    );
                }
                grids += 1;
                p.apply(&step.placements, &step.eliminations);
            }
        }
        assert!(grids > 100, "only {grids} grids");
    }

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
