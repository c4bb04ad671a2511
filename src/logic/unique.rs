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
use super::pencil::{Pencil, bit, combinations, digits, two};
use super::seen::Seen;
use super::step::{Step, cell_list, digit_list, eliminations_text};
use super::technique::{Difficulty, Technique};
use crate::puzzle::grid::{Clue, digit_char};
use crate::puzzle::rules::HouseKind;
use std::cell::RefCell;
use std::rc::Rc;

/// One uniqueness test found: its rating, type, cells and eliminations.
struct Found {
    tenths: u16,
    kind: u8,
    cells: Vec<usize>,
    ab: (u8, u8),
    eliminations: Vec<(usize, u8)>,
}

impl Found {
    /// What SE sorts the tests by: rating, then type.
    fn key(&self) -> (u16, u8) {
        (self.tenths, self.kind)
    }
}

/// Beyond the rating's last step up with a loop's length ([`loop_bonus`]).
const MAX_LOOP: usize = 16;

/// A test a loop gives, before it is tied to the loop: its type, what it
/// adds to the rating of the loop's length, and its eliminations.
type Test = (u8, u16, Vec<(usize, u8)>);

/// The easiest test found so far (the first found among equals), and the
/// tests of the loops with two extra cells met so far ([`Search::closed`]).
/// A test on a loop of `len` cells is keyed at least as a type 1 at the
/// rating of its length (a loop's rating grows with its length, types
/// start at 1), so a walk whose loops would all be keyed no lower than the
/// test in hand is not followed: none of them could take its place.
struct Best {
    found: Option<Found>,
    /// The length of the longest loops that may beat `found`.
    longest: usize,
    /// The tests by the two extra cells, in the loop's order, and the pair.
    memo: Vec<((usize, usize, u32), Vec<Test>)>,
}

impl Best {
    /// Whether a loop of `len` cells or more could give a test keyed
    /// lower than the one in hand.
    fn may_beat(&self, len: usize) -> bool {
        len <= self.longest
    }

    /// Takes `found` as the test in hand.
    fn keep(&mut self, found: Found) {
        let key = found.key();
        self.found = Some(found);
        let beats = |len: usize| (45 + loop_bonus(len.max(4)), 1) < key;
        // The rating grows with the length up to 10 cells and stays.
        self.longest = match (1..=MAX_LOOP).take_while(|&len| beats(len)).count() {
            MAX_LOOP => usize::MAX,
            longest => longest,
        };
    }
}

/// Keeps a test of the loop on `cells` as the one in hand when it removes
/// something and is keyed (rating, type) lower.
fn offer(
    best: &mut Best,
    cells: &[usize],
    pair: &Pair,
    (tenths, kind): (u16, u8),
    eliminations: &[(usize, u8)],
) {
    let better = best.found.as_ref().is_none_or(|f| (tenths, kind) < f.key());
    if better && !eliminations.is_empty() {
        best.keep(Found {
            tenths,
            kind,
            cells: cells.to_vec(),
            ab: (pair.a, pair.b),
            eliminations: eliminations.to_vec(),
        });
    }
}

/// A walk's grid and what it needs of the board's houses
/// ([`Layout`], whose fields these are).
struct Search<'a> {
    p: &'a Pencil,
    houses_of: &'a [[usize; 3]],
    house_set: &'a [u128],
    house_cells: &'a [u128],
    core_houses: &'a [u128],
    sorted: bool,
}

/// The pair of digits a walk is for, and the cells it looks at, as bits
/// over cells (every cell on a board of more than 128): those holding both
/// digits, and their core ([`Search::core`]).
#[derive(Clone, Copy)]
struct Pair {
    ab: u32,
    a: u8,
    b: u8,
    holding: u128,
    core: u128,
}

/// Whether `cell` is in `core` ([`Search::core`]).
fn in_core(core: u128, cell: usize) -> bool {
    cell >= 128 || core >> cell & 1 == 1
}

/// SE's bounds on a walk as it goes into a cell: the cells with digits
/// beyond the pair it still allows (`allowed`), the digits beyond the pair
/// collected so far (`extra`), and the kind of house it came by (`kind`,
/// 0 to 2, or 3 at the start), which it does not leave by.
#[derive(Clone, Copy)]
struct Bounds {
    allowed: i32,
    extra: u32,
    kind: usize,
}

/// A walk in progress: its first cell, its cells in order, which cells it
/// holds, and the houses it meets at even and at odd places (bits over
/// houses).
struct Trail {
    start: usize,
    cells: Vec<usize>,
    on: Vec<bool>,
    met: [u128; 2],
}

impl Search<'_> {
    fn house(&self, h: usize) -> &[usize] {
        &self.p.geometry().houses()[h]
    }

    /// Every loop through `cell` (appended to the trail) that closes at
    /// the trail's first cell, as SE walks them: house kind by house kind
    /// (never the kind of the house just used), cells in house order,
    /// within SE's own `bounds` on the walk ([`Bounds`]; the digits beyond
    /// the pair are those of the cells looked at, at this depth and the
    /// ones before, whether walked into or not).
    ///
    /// A loop is kept only when it meets each house once at an even place
    /// and once at an odd one, so a walk that meets a house twice at
    /// places of the same parity is not followed further: no loop it could
    /// close would be kept. Nor is a cell outside the pair's core
    /// ([`Search::core`]), nor a walk whose loops could not beat the test
    /// in hand ([`Best`]). Every walk followed thus meets each house at
    /// most once at each parity, and a loop it closes is kept when it
    /// meets the same houses at both; its tests go to `best` at once, in
    /// the order SE finds them.
    fn walk(&self, cell: usize, pair: &Pair, trail: &mut Trail, bounds: Bounds, best: &mut Best) {
        let parity = trail.cells.len() % 2;
        trail.cells.push(cell);
        trail.on[cell] = true;
        trail.met[parity] |= self.house_set[cell];
        let mut extra = bounds.extra;
        for kind in 0..3 {
            if bounds.kind == kind {
                continue;
            }
            let h = self.houses_of[cell][kind];
            let from = Bounds { kind, ..bounds };
            if self.sorted {
                // Only the house's cells holding `ab`: what the walk does
                // with the others is nothing.
                let mut bits = pair.holding & self.house_cells[h];
                while bits != 0 {
                    let next = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    self.next(next, pair, trail, from, &mut extra, best);
                }
            } else {
                for &next in self.house(h) {
                    self.next(next, pair, trail, from, &mut extra, best);
                }
            }
        }
        trail.met[parity] &= !self.house_set[cell];
        trail.on[cell] = false;
        trail.cells.pop();
    }

    /// What [`Search::walk`] does with `next`, a cell of a house of the
    /// trail's last cell, reached by a house of kind `from.kind`: closes a
    /// loop at the trail's first cell, or walks on into it if SE's bounds,
    /// the houses met and the test in hand allow.
    #[inline(always)]
    fn next(
        &self,
        next: usize,
        pair: &Pair,
        trail: &mut Trail,
        from: Bounds,
        extra: &mut u32,
        best: &mut Best,
    ) {
        let len = trail.cells.len();
        let m = self.p.candidates(next);
        if next == trail.start && len >= 4 {
            if trail.met[0] == trail.met[1] && best.may_beat(len) {
                self.closed(&trail.cells, pair, best);
            }
        } else if m & pair.ab == pair.ab && !trail.on[next] {
            *extra |= m & !pair.ab;
            let wide = !two(m);
            if (!wide || extra.is_power_of_two() || from.allowed > 0)
                && in_core(pair.core, next)
                && self.house_set[next] & trail.met[len % 2] == 0
                && best.may_beat(len + 1)
            {
                let bounds = Bounds {
                    allowed: from.allowed - i32::from(wide),
                    extra: *extra,
                    kind: from.kind,
                };
                self.walk(next, pair, trail, bounds, best);
            }
        }
    }

    /// The cells holding `ab` (bits over digits; `holding` on a board of
    /// at most 128 cells), and those that may lie on a loop of `ab` that
    /// [`Search::walk`] keeps, its core: a kept loop meets each house of
    /// each of its cells exactly twice, so each of its cells, which all
    /// hold `ab`, has another in each of its houses. Cells holding `ab`
    /// that lack one are taken away until every one left has one. A walk
    /// into a cell outside finds only loops through it, none kept, and the
    /// digits beyond `ab` it collects are collected before the walk goes
    /// in: leaving it out changes nothing.
    fn core(&self, (a, b): (u8, u8), holding: u128) -> Pair {
        let ab = bit(a) | bit(b);
        if self.p.size().cells() > 128 {
            return Pair {
                ab,
                a,
                b,
                holding: u128::MAX,
                core: u128::MAX,
            };
        }
        let mut set = holding;
        loop {
            let before = set;
            for &house in self.core_houses {
                let here = set & house;
                if here.is_power_of_two() {
                    set &= !here;
                }
            }
            if set == before {
                return Pair {
                    ab,
                    a,
                    b,
                    holding,
                    core: set,
                };
            }
        }
    }

    /// A loop closed on `cells`: its tests go to `best` in SE's order.
    /// With two extra cells they depend only on those cells, in the
    /// loop's order, and the pair (the loop's length adds the same to
    /// each rating): SE finds a loop from each of its cells with two
    /// candidates, both ways round, so they are worked out once a pair of
    /// extra cells.
    fn closed(&self, cells: &[usize], pair: &Pair, best: &mut Best) {
        let p = self.p;
        let mut extras = [0; 3];
        let mut count = 0;
        for &c in cells {
            if !two(p.candidates(c)) {
                if count < 3 {
                    extras[count] = c;
                }
                count += 1;
            }
        }
        let base = 45 + loop_bonus(cells.len());
        if count == 2 {
            let key = (extras[0], extras[1], pair.ab);
            let at = match best.memo.iter().position(|(k, _)| *k == key) {
                Some(at) => at,
                None => {
                    let mut tests = Vec::new();
                    self.tests(&extras[..2], pair, &mut tests);
                    best.memo.push((key, tests));
                    best.memo.len() - 1
                }
            };
            let tests = std::mem::take(&mut best.memo[at].1);
            for (kind, add, e) in &tests {
                offer(best, cells, pair, (base + add, *kind), e);
            }
            best.memo[at].1 = tests;
        } else if count > 0 {
            let extras: Vec<usize> = if count > 3 {
                cells
                    .iter()
                    .copied()
                    .filter(|&c| !two(p.candidates(c)))
                    .collect()
            } else {
                extras[..count].to_vec()
            };
            let mut tests = Vec::new();
            self.tests(&extras, pair, &mut tests);
            for (kind, add, e) in &tests {
                offer(best, cells, pair, (base + add, *kind), e);
            }
        }
    }

    /// The tests of a loop with the extra cells `extras` (cells holding
    /// more than the pair, in the loop's order, at least one), in SE's
    /// order: each its type, what it adds to the loop's rating and its
    /// eliminations.
    fn tests(&self, extras: &[usize], pair: &Pair, out: &mut Vec<Test>) {
        let p = self.p;
        let (a, b, ab) = (pair.a, pair.b, pair.ab);
        match *extras {
            [] => {}
            [rescue] => out.push((1, 0, vec![(rescue, a), (rescue, b)])),
            [c1, c2] => {
                let rest = (p.candidates(c1) | p.candidates(c2)) & !ab;
                if rest.is_power_of_two() {
                    out.push((2, 0, self.type2(extras, rest)));
                } else {
                    self.type3(c1, c2, ab, rest, &mut |tenths, e| {
                        out.push((3, tenths, e));
                    });
                }
                if let Some(e) = self.type4(c1, c2, a, b) {
                    out.push((4, 0, e));
                }
            }
            _ => {
                // More than two extra cells: only type 2, with the first
                // extra digit of the first of them.
                let first = p.candidates(extras[0]) & !ab;
                let lowest = first & first.wrapping_neg();
                out.push((2, 0, self.type2(extras, lowest)));
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

/// What the walks need of a board's houses, worked out once a board.
struct Layout {
    /// The board it is for: its geometry's address, side and houses.
    board: (usize, usize, usize),
    /// Each cell's box, row and column, in that order (SE's).
    houses_of: Vec<[usize; 3]>,
    /// Each cell's box, row and column as bits over houses.
    house_set: Vec<u128>,
    /// Each house's cells as bits, on a board of at most 128 cells.
    house_cells: Vec<u128>,
    /// The cells of each box, row and column as bits, on a board of at
    /// most 128 cells.
    core_houses: Vec<u128>,
    /// Whether every house lists its cells in increasing order (the
    /// classic ones do), on a board of at most 128 cells: a house's cells
    /// holding a pair then come out of the bits in the house's order.
    sorted: bool,
}

thread_local! {
    /// The last board's layout: a path asks for unique loops at nearly
    /// every step, always on the same board. Classic geometries are made
    /// once a size and kept ([`crate::logic::pencil::Geometry::of`]), so
    /// the address names one for good; two classic boards of one side are
    /// the same anyway.
    static LAYOUT: RefCell<Option<Rc<Layout>>> = const { RefCell::new(None) };
}

impl Layout {
    fn board(p: &Pencil) -> (usize, usize, usize) {
        let g = p.geometry();
        (
            std::ptr::from_ref(g) as usize,
            p.size().side(),
            g.houses().len(),
        )
    }

    /// The layout of `p`'s board, or none when a cell lacks a box (or
    /// region), row or column, or a house is beyond the 128th (a classic
    /// board has 75 at most).
    fn of(p: &Pencil) -> Option<Rc<Layout>> {
        let board = Layout::board(p);
        LAYOUT.with(|last| {
            if let Some(layout) = last.borrow().as_ref().filter(|l| l.board == board) {
                return Some(Rc::clone(layout));
            }
            let layout = Rc::new(Layout::new(p, board)?);
            *last.borrow_mut() = Some(Rc::clone(&layout));
            Some(layout)
        })
    }

    fn new(p: &Pencil, board: (usize, usize, usize)) -> Option<Layout> {
        let g = p.geometry();
        let cells = p.size().cells();
        // A cell's box (or region), row and column come first among its
        // houses in SE's order.
        let kinds = |hs: &[usize]| -> Option<[usize; 3]> {
            let three = [*hs.first()?, *hs.get(1)?, *hs.get(2)?];
            let box_like = matches!(g.kind(three[0]), HouseKind::Box | HouseKind::Region);
            let ok = box_like
                && g.kind(three[1]) == HouseKind::Row
                && g.kind(three[2]) == HouseKind::Column
                && three.iter().all(|&h| h < 128);
            ok.then_some(three)
        };
        let houses_of: Vec<[usize; 3]> = (0..cells)
            .map(|c| kinds(g.se_houses_of(c)))
            .collect::<Option<_>>()?;
        let house_set = houses_of
            .iter()
            .map(|three| three.iter().fold(0u128, |set, &h| set | 1 << h))
            .collect();
        let house_cells: Vec<u128> = if cells > 128 {
            Vec::new()
        } else {
            (0..g.houses().len())
                .map(|h| cells128(g.house_bits(h)))
                .collect()
        };
        let core_houses = house_cells
            .iter()
            .enumerate()
            .filter(|&(h, _)| {
                matches!(
                    g.kind(h),
                    HouseKind::Box | HouseKind::Region | HouseKind::Row | HouseKind::Column
                )
            })
            .map(|(_, &set)| set)
            .collect();
        let sorted = !house_cells.is_empty() && g.houses().iter().all(|h| h.is_sorted());
        Some(Layout {
            board,
            houses_of,
            house_set,
            house_cells,
            core_houses,
            sorted,
        })
    }
}

/// The easiest uniqueness test, as SE picks it. Only for classic rules on
/// a puzzle with one solution: the caller's promise.
pub fn unique_loop(p: &Pencil, seen: &Seen) -> Option<Step> {
    let layout = Layout::of(p)?;
    let cells = p.size().cells();
    // Each digit's cells as bits, for the cells holding a pair.
    let planes = p.planes().unwrap_or_default();
    let search = Search {
        p,
        houses_of: &layout.houses_of,
        house_set: &layout.house_set,
        house_cells: &layout.house_cells,
        core_houses: &layout.core_houses,
        sorted: layout.sorted,
    };
    // By pair of digits, its cells, worked out once.
    let mut pairs: Vec<Pair> = Vec::new();
    let mut best = Best {
        found: None,
        longest: usize::MAX,
        memo: Vec::new(),
    };
    let mut trail = Trail {
        start: 0,
        cells: Vec::with_capacity(cells),
        on: vec![false; cells],
        met: [0; 2],
    };
    for cell in 0..cells {
        let m = p.candidates(cell);
        if !two(m) {
            continue;
        }
        let mut ds = digits(m);
        let (Some(a), Some(b)) = (ds.next(), ds.next()) else {
            continue;
        };
        let pair = match pairs.iter().find(|pair| pair.ab == m) {
            Some(&pair) => pair,
            None => {
                let plane = |d: u8| planes.get(usize::from(d) - 1).copied().unwrap_or(0);
                let holding = plane(a) & plane(b);
                let pair = search.core((a, b), holding);
                pairs.push(pair);
                pair
            }
        };
        if in_core(pair.core, cell) && best.may_beat(4) {
            let bounds = Bounds {
                allowed: 2,
                extra: 0,
                kind: 3,
            };
            trail.start = cell;
            search.walk(cell, &pair, &mut trail, bounds, &mut best);
        }
    }
    let best = best.found?;
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
