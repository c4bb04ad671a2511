//! Uniqueness tests as Sudoku Explainer makes them: unique rectangles and
//! loops of types 1 to 4.
//!
//! A loop is a closed walk of cells, each pair of neighbours sharing a
//! house, that all hold the same two digits `ab`, and that meets each of
//! its houses exactly twice, once at an odd place and once at an even one.
//! Were every cell of it reduced to `ab`, the two digits could be swapped
//! round it and the puzzle would have two solutions; so on a puzzle with
//! one solution the cells with more than `ab` (at most two, or more with
//! the same single extra digit) cannot all lose their extras:
//! - type 1: one such cell is not `a` nor `b`;
//! - type 2: the extra cells share one extra digit `c`, one of them is
//!   `c`, so their common peers are not `c`;
//! - type 3: two extra cells in one house act as one cell holding their
//!   extras, which with other cells of the house makes a naked set, or
//!   with `ab` a hidden one;
//! - type 4: two extra cells in a house where `a` has no other place hold
//!   `a` between them, so neither is `b`.
//!
//! SE rates a rectangle (4 cells) 4.5, loops of 6 and 8 cells 4.6 and 4.7,
//! longer ones 5.0; type 3 adds a tenth per cell of its set beyond the
//! first. It finds every test, walking loops from each two-candidate cell
//! in reading order, and takes the easiest, the first found among equals
//! of the same type: this finder does the same, so that the grid SE goes
//! on with is z3doku's too.

use super::links::cells128;
use super::pencil::{Pencil, bit, combinations, digits};
use super::seen::Seen;
use super::step::{Step, cell_list, digit_list, eliminations_text};
use super::technique::{Difficulty, Technique};
use crate::puzzle::grid::{Clue, digit_char};
use crate::puzzle::rules::HouseKind;

/// One uniqueness test found: its rating, type, cells and eliminations.
struct Found {
    tenths: u16,
    kind: u8,
    cells: Vec<usize>,
    ab: (u8, u8),
    eliminations: Vec<(usize, u8)>,
}

struct Search<'a> {
    p: &'a Pencil,
    /// Each cell's box, row and column, in that order (SE's).
    houses_of: Vec<[usize; 3]>,
    /// Each house's cells as bits, on a board of at most 128 cells.
    house_cells: Vec<u128>,
    /// Whether every house lists its cells in increasing order (the
    /// classic ones do), on a board of at most 128 cells: a house's cells
    /// holding a pair then come out of the bits in the house's order.
    sorted: bool,
}

/// The cells a walk for one pair of digits looks at, as bits over cells
/// (every cell on a board of more than 128): those holding both digits,
/// and their core ([`Search::core`]).
#[derive(Clone, Copy)]
struct PairCells {
    holding: u128,
    core: u128,
}

/// Whether `cell` is in `core` ([`Search::core`]).
fn in_core(core: u128, cell: usize) -> bool {
    cell >= 128 || core >> cell & 1 == 1
}

impl Search<'_> {
    fn house(&self, h: usize) -> &[usize] {
        &self.p.geometry().houses()[h]
    }

    /// Every loop through `cell` (appended to `walk`) that closes at the
    /// walk's first cell, as SE walks them: house kind by house kind
    /// (never the kind of the house just used), cells in house order.
    /// `extra` collects the digits beyond `ab` of the cells looked at, at
    /// this depth and the ones before, and `allowed` the cells with extras
    /// still allowed: SE's own bounds on the walk.
    ///
    /// `met` counts, per house, the walk's cells in it at even and at odd
    /// places. A loop is kept only when it meets each house once at each,
    /// so a walk that meets a house twice at places of the same parity is
    /// not followed further: no loop it could close would be kept. Nor is
    /// a cell outside `core` ([`Search::core`]). Every walk followed thus
    /// meets each house at most once at each parity, and a loop it closes
    /// is kept (goes to `loops`) when it meets each house as often at
    /// both.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        cell: usize,
        ab: u32,
        pair: PairCells,
        walk: &mut Vec<usize>,
        allowed: i32,
        extra: u32,
        last_kind: Option<usize>,
        loops: &mut Vec<Vec<usize>>,
        met: &mut [[u8; 2]],
    ) {
        let parity = walk.len() % 2;
        walk.push(cell);
        for &h in &self.houses_of[cell] {
            met[h][parity] += 1;
        }
        let mut extra = extra;
        for kind in 0..3 {
            if last_kind == Some(kind) {
                continue;
            }
            let h = self.houses_of[cell][kind];
            // The house's cells, or only those holding `ab` (what the
            // walk does with the others is nothing).
            let (listed, mut bits): (&[usize], u128) = if self.sorted {
                (&[], pair.holding & self.house_cells[h])
            } else {
                (self.house(h), 0)
            };
            let held = std::iter::from_fn(|| {
                let c = (bits != 0).then(|| bits.trailing_zeros() as usize);
                bits &= bits.wrapping_sub(1);
                c
            });
            for next in listed.iter().copied().chain(held) {
                let m = self.p.candidates(next);
                if next == walk[0] && walk.len() >= 4 {
                    if met.iter().all(|m| m[0] == m[1]) {
                        loops.push(walk.clone());
                    }
                } else if m & ab == ab && !walk.contains(&next) {
                    extra |= m & !ab;
                    let count = m.count_ones();
                    if (count == 2 || extra.count_ones() == 1 || allowed > 0)
                        && in_core(pair.core, next)
                        && self.houses_of[next]
                            .iter()
                            .all(|&h| met[h][1 - parity] == 0)
                    {
                        let left = allowed - i32::from(count > 2);
                        self.walk(next, ab, pair, walk, left, extra, Some(kind), loops, met);
                    }
                }
            }
        }
        for &h in &self.houses_of[cell] {
            met[h][parity] -= 1;
        }
        walk.pop();
    }

    /// The cells holding `ab`, and those that may lie on a loop of `ab`
    /// that [`Search::walk`] keeps, its core: a kept loop meets each house
    /// of each of its cells exactly twice, so each of its cells, which all
    /// hold `ab`, has another in each of its houses. Cells holding `ab`
    /// that lack one are taken away until every one left has one. A walk
    /// into a cell outside finds only loops through it, none kept, and the
    /// digits beyond `ab` it collects are collected before the walk goes
    /// in: leaving it out changes nothing.
    fn core(&self, ab: u32) -> PairCells {
        let cells = self.p.size().cells();
        if cells > 128 {
            return PairCells {
                holding: u128::MAX,
                core: u128::MAX,
            };
        }
        let holding: u128 = (0..cells)
            .filter(|&c| self.p.candidates(c) & ab == ab)
            .fold(0, |set, c| set | 1 << c);
        let mut set = holding;
        loop {
            let before = set;
            for (h, &house) in self.house_cells.iter().enumerate() {
                let here = set & house;
                if here.is_power_of_two() {
                    let c = here.trailing_zeros() as usize;
                    if self.houses_of[c].contains(&h) {
                        set &= !here;
                    }
                }
            }
            if set == before {
                return PairCells { holding, core: set };
            }
        }
    }

    /// The tests one loop gives, in SE's order.
    fn tests(&self, cells: &[usize], (a, b): (u8, u8), out: &mut Vec<Found>) {
        let p = self.p;
        let ab = bit(a) | bit(b);
        let extras: Vec<usize> = cells
            .iter()
            .copied()
            .filter(|&c| p.candidates(c).count_ones() > 2)
            .collect();
        let base = 45 + loop_bonus(cells.len());
        let found = |kind: u8, tenths: u16, eliminations: Vec<(usize, u8)>| Found {
            tenths,
            kind,
            cells: cells.to_vec(),
            ab: (a, b),
            eliminations,
        };
        match extras.as_slice() {
            [] => {}
            [rescue] => out.push(found(1, base, vec![(*rescue, a), (*rescue, b)])),
            [c1, c2] => {
                let (c1, c2) = (*c1, *c2);
                let rest = (p.candidates(c1) | p.candidates(c2)) & !ab;
                if rest.count_ones() == 1 {
                    out.push(found(2, base, self.type2(&extras, rest)));
                } else {
                    self.type3(c1, c2, ab, rest, &mut |tenths, e| {
                        out.push(found(3, base + tenths, e));
                    });
                }
                if let Some(e) = self.type4(c1, c2, a, b) {
                    out.push(found(4, base, e));
                }
            }
            _ => {
                // More than two extra cells: only type 2, with the first
                // extra digit of the first of them.
                let first = p.candidates(extras[0]) & !ab;
                let lowest = first & first.wrapping_neg();
                out.push(found(2, base, self.type2(&extras, lowest)));
            }
        }
    }

    /// Type 2: the common peers of the extra cells lose the extra digit.
    fn type2(&self, extras: &[usize], digit_bit: u32) -> Vec<(usize, u8)> {
        let g = self.p.geometry();
        let Some(digit) = digits(digit_bit).next() else {
            return Vec::new();
        };
        (0..self.p.size().cells())
            .filter(|&c| {
                !extras.contains(&c) && self.p.has(c, digit) && extras.iter().all(|&e| g.sees(c, e))
            })
            .map(|c| (c, digit))
            .collect()
    }

    /// Type 3: naked sets made with the extras of `c1` and `c2` as one
    /// cell, and hidden sets made with `ab`, in every house of both, from
    /// the smallest degree up. `each` gets the rating's addition and the
    /// eliminations.
    fn type3(
        &self,
        c1: usize,
        c2: usize,
        ab: u32,
        extra: u32,
        each: &mut dyn FnMut(u16, Vec<(usize, u8)>),
    ) {
        let p = self.p;
        let side = p.size().side();
        let first = extra.count_ones() as usize;
        // The houses of both, in SE's order, each with its open cells and
        // the places of `c1` and `c2` in it, worked out once: a set of a
        // degree takes at most half the open cells, so most degrees find
        // nothing to look at.
        let shared: Vec<(usize, usize, usize, usize)> = (0..3)
            .filter_map(|kind| {
                let h = self.houses_of[c1][kind];
                if self.houses_of[c2][kind] != h {
                    return None;
                }
                let house = self.house(h);
                let empty = house.iter().filter(|&&c| p.value(c) == 0).count();
                let i1 = house.iter().position(|&c| c == c1)?;
                let i2 = house.iter().position(|&c| c == c2)?;
                Some((h, empty, i1, i2))
            })
            .collect();
        for degree in first..=7 {
            for &(h, empty, i1, i2) in &shared {
                if degree * 2 > empty {
                    continue;
                }
                let house = self.house(h);
                // The places a naked set of `degree` cells may take: a
                // cell in it has two candidates or more (`extra` in place
                // of `c1`'s) and no more than the set's digits.
                let fits = |m: u32| (2..=degree).contains(&(m.count_ones() as usize));
                let may = house.iter().enumerate().fold(0u32, |may, (i, &c)| {
                    let m = if i == i1 { extra } else { p.candidates(c) };
                    if fits(m) { may | 1 << i } else { may }
                });
                if degree * 2 <= empty && may >> i1 & 1 == 1 {
                    // The sets of `degree` places of `may` with `c1`'s and
                    // without `c2`'s, in increasing order.
                    let rest = may & !(1 << i1) & !(1 << i2);
                    for set in subsets(degree - 1, rest).map(|r| r | 1 << i1) {
                        let mut naked = extra & p.candidates(c1) & p.candidates(c2);
                        let mut union = 0;
                        let mut all_big = true;
                        for (i, &c) in house.iter().enumerate() {
                            if set & (1 << i) == 0 {
                                continue;
                            }
                            let m = if i == i1 { extra } else { p.candidates(c) };
                            if i != i1 {
                                naked |= m;
                            }
                            all_big &= m.count_ones() > 1;
                            union |= m;
                        }
                        if naked.count_ones() as usize != degree
                            || !all_big
                            || union.count_ones() as usize != degree
                        {
                            continue;
                        }
                        let e: Vec<(usize, u8)> = house
                            .iter()
                            .enumerate()
                            .filter(|&(i, &c)| set & (1 << i) == 0 && c != c1 && c != c2)
                            .flat_map(|(_, &c)| {
                                digits(p.candidates(c) & union).map(move |d| (c, d))
                            })
                            .collect();
                        if !e.is_empty() {
                            each(union.count_ones() as u16 - 1, e);
                        }
                    }
                }
                if degree * 2 < empty {
                    let others: Vec<u8> = (1..=side as u8)
                        .filter(|&d| bit(d) & (ab | extra) == 0)
                        .collect();
                    if degree - 2 > others.len() {
                        continue;
                    }
                    // A digit of a hidden set of `degree` places has a
                    // place in the house besides `c2`, and no more than
                    // `degree`: the others that may be picked, and whether
                    // `ab` itself may.
                    let fits = |d: u8| {
                        let at = p.positions(h, d) & !(1 << i2);
                        at != 0 && at.count_ones() as usize <= degree
                    };
                    if !digits(ab).all(fits) {
                        continue;
                    }
                    let may = (0..others.len())
                        .filter(|&i| fits(others[i]))
                        .fold(0u32, |may, i| may | 1 << i);
                    for pick in subsets(degree - 2, may) {
                        let mut hidden = ab;
                        let mut places = 0u32;
                        let mut all_there = true;
                        let chosen = (0..others.len())
                            .filter(|&i| pick & (1 << i) != 0)
                            .map(|i| others[i]);
                        for d in chosen.chain(digits(ab)) {
                            hidden |= bit(d);
                            let at = p.positions(h, d) & !(1 << i2);
                            all_there &= at != 0;
                            places |= at;
                        }
                        if !all_there || places.count_ones() as usize != degree {
                            continue;
                        }
                        let set = places & !(1 << i1) & !(1 << i2);
                        let e: Vec<(usize, u8)> = house
                            .iter()
                            .enumerate()
                            .filter(|&(i, &c)| set & (1 << i) != 0 && c != c1 && c != c2)
                            .flat_map(|(_, &c)| {
                                digits(p.candidates(c) & !hidden).map(move |d| (c, d))
                            })
                            .collect();
                        if !e.is_empty() {
                            each(set.count_ones().saturating_sub(1) as u16, e);
                        }
                    }
                }
            }
        }
    }

    /// Type 4: in a house of both extra cells where one loop digit has no
    /// other place, the extra cells lose the other loop digit (the last
    /// such house of box, row, column; `a` before `b`).
    fn type4(&self, c1: usize, c2: usize, a: u8, b: u8) -> Option<Vec<(usize, u8)>> {
        let p = self.p;
        let (mut lock_a, mut lock_b) = (false, false);
        for kind in 0..3 {
            let h = self.houses_of[c1][kind];
            if self.houses_of[c2][kind] != h {
                continue;
            }
            let elsewhere = |d: u8| {
                self.house(h)
                    .iter()
                    .any(|&c| c != c1 && c != c2 && p.has(c, d))
            };
            lock_a |= !elsewhere(a);
            lock_b |= !elsewhere(b);
        }
        let gone = if lock_a {
            b
        } else if lock_b {
            a
        } else {
            return None;
        };
        Some(vec![(c1, gone), (c2, gone)])
    }
}

/// SE's addition for a loop's length: 0.1 for 6 cells, 0.2 for 8, 0.5
/// from 10.
fn loop_bonus(cells: usize) -> u16 {
    let long = if cells >= 10 { 3 } else { 0 };
    let mid = if cells >= 8 {
        2
    } else if cells >= 6 {
        1
    } else {
        0
    };
    long + mid
}

/// Every `k`-element subset of the bits of `of`, in increasing order: the
/// subsets of `0..n` for `n` its bits, spread onto them, which keeps the
/// order.
fn subsets(k: usize, of: u32) -> impl Iterator<Item = u32> {
    combinations(k, of.count_ones() as usize).map(move |c| {
        let (mut spread, mut bits, mut at) = (0, of, 0);
        while bits != 0 {
            let low = bits & bits.wrapping_neg();
            if c >> at & 1 == 1 {
                spread |= low;
            }
            bits &= bits - 1;
            at += 1;
        }
        spread
    })
}

/// The easiest uniqueness test, as SE picks it. Only for classic rules on
/// a puzzle with one solution: the caller's promise.
pub fn unique_loop(p: &Pencil, seen: &Seen) -> Option<Step> {
    let g = p.geometry();
    let cells = p.size().cells();
    let rank = |h: usize| match g.kind(h) {
        HouseKind::Box | HouseKind::Region => Some(0),
        HouseKind::Row => Some(1),
        HouseKind::Column => Some(2),
        _ => None,
    };
    let mut houses_of = Vec::with_capacity(cells);
    for c in 0..cells {
        let mut three = [usize::MAX; 3];
        for &h in g.houses_of(c) {
            if let Some(k) = rank(h) {
                three[k] = h;
            }
        }
        if three.contains(&usize::MAX) {
            return None;
        }
        houses_of.push(three);
    }
    let house_cells = if cells > 128 {
        Vec::new()
    } else {
        (0..g.houses().len())
            .map(|h| cells128(g.house_bits(h)))
            .collect()
    };
    let sorted = !house_cells.is_empty() && g.houses().iter().all(|h| h.is_sorted());
    let search = Search {
        p,
        houses_of,
        house_cells,
        sorted,
    };
    // By pair of digits (bits over digits), its cells, worked out once.
    let mut cores: Vec<(u32, PairCells)> = Vec::new();
    let mut found: Vec<Found> = Vec::new();
    let mut loops = Vec::new();
    let mut walk = Vec::new();
    let mut met = vec![[0u8; 2]; g.houses().len()];
    for cell in 0..cells {
        let m = p.candidates(cell);
        if m.count_ones() != 2 {
            continue;
        }
        let mut ds = digits(m);
        let (Some(a), Some(b)) = (ds.next(), ds.next()) else {
            continue;
        };
        let pair = match cores.iter().find(|&&(ab, _)| ab == m) {
            Some(&(_, pair)) => pair,
            None => {
                let pair = search.core(m);
                cores.push((m, pair));
                pair
            }
        };
        if !in_core(pair.core, cell) {
            continue;
        }
        loops.clear();
        search.walk(cell, m, pair, &mut walk, 2, 0, None, &mut loops, &mut met);
        for l in &loops {
            search.tests(l, (a, b), &mut found);
        }
    }
    found.retain(|f| !f.eliminations.is_empty());
    // SE sorts by rating, then type, keeping the order found among equals.
    let best = found.into_iter().min_by_key(|f| (f.tenths, f.kind))?;
    let technique = match best.kind {
        1 => Technique::UniqueRectangle,
        2 => Technique::UniqueRectangle2,
        3 => Technique::UniqueRectangle3,
        _ => Technique::UniqueRectangle4,
    };
    let eliminations: Vec<Clue> = best
        .eliminations
        .iter()
        .map(|&(c, d)| Clue {
            cell: p.cell(c),
            digit: d,
        })
        .collect();
    let (a, b) = best.ab;
    let mut step = Step::new(technique)
        .pattern(p, &best.cells, &[a, b])
        .say(seen, || {
            let shape = if best.cells.len() == 4 {
                String::from("rectangle")
            } else {
                format!("loop of {} cells", best.cells.len())
            };
            format!(
                "the {shape} {} would hold {} and {} twice over in a second solution, so {}",
                cell_list(best.cells.iter().map(|&c| p.cell(c))),
                digit_char(a),
                digit_list(&[b], false),
                eliminations_text(&eliminations)
            )
        });
    step.difficulty = Some(Difficulty(best.tenths));
    step.eliminations = eliminations;
    Some(step)
}

#[cfg(test)]
mod tests {
    use super::{combinations, subsets};
    use crate::logic::Technique;
    use crate::logic::testing::{rate, rated};

    /// Puzzles serate rates 4.5 (a type 4 rectangle), 4.7 (a loop of 8
    /// cells) and 7.2 with a type 3 rectangle (a naked pair, 4.6) on the
    /// way; z3doku gave 6.6, 6.6 and 8.3 with rectangles of types 1 and 2
    /// alone.
    #[test]
    fn rectangles_and_loops_rate_as_sudoku_explainer_rates_them() {
        let (er, path) = rate(
            "2.7..1..815.9..2..8....2..3.......1..3.19....6..5....9..83..7....9...35.....2....",
        );
        assert_eq!(er, 45);
        assert!(!rated(&path, Technique::UniqueRectangle4).is_empty());
        let (er, path) = rate(
            ".8.3..7......87.261...2...5.3.6.......7.....9261.........9..263.9......88.3...5..",
        );
        assert_eq!(er, 47);
        assert!(rated(&path, Technique::UniqueRectangle).contains(&47));
        let (er, path) = rate(
            "49.6..........4.8........5....2...1.....167.2.7...3....689.......25..6..3.......7",
        );
        assert_eq!(er, 72);
        assert!(rated(&path, Technique::UniqueRectangle3).contains(&46));
    }

    #[test]
    fn subsets_of_a_set_come_in_increasing_order() {
        let of = 0b1011_0100;
        let all: Vec<u32> = subsets(2, of).collect();
        let wanted: Vec<u32> = combinations(2, 8)
            .filter(|&s| s & !u64::from(of) == 0)
            .map(|s| s as u32)
            .collect();
        assert_eq!(all, wanted);
        assert_eq!(all.len(), 6);
        assert_eq!(subsets(0, of).collect::<Vec<_>>(), [0]);
        assert_eq!(subsets(5, of).count(), 0);
    }
}
