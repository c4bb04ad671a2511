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

use super::pencil::{Pencil, bit, digits};
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
    /// places. A loop is kept only when it meets each house once at each
    /// ([`Search::valid`]), so a walk that meets a house twice at places
    /// of the same parity is not followed further: no loop it could close
    /// would be kept.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        cell: usize,
        ab: u32,
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
            for &next in self.house(h) {
                if next == walk[0] && walk.len() >= 4 {
                    loops.push(walk.clone());
                } else if !walk.contains(&next) {
                    let m = self.p.candidates(next);
                    if m & ab != ab {
                        continue;
                    }
                    extra |= m & !ab;
                    let count = m.count_ones();
                    if (count == 2 || extra.count_ones() == 1 || allowed > 0)
                        && self.houses_of[next]
                            .iter()
                            .all(|&h| met[h][1 - parity] == 0)
                    {
                        let left = allowed - i32::from(count > 2);
                        self.walk(next, ab, walk, left, extra, Some(kind), loops, met);
                    }
                }
            }
        }
        for &h in &self.houses_of[cell] {
            met[h][parity] -= 1;
        }
        walk.pop();
    }

    /// Whether each house the loop meets it meets once at an odd place and
    /// once at an even one.
    fn valid(&self, cells: &[usize]) -> bool {
        let mut met: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
        for (i, &c) in cells.iter().enumerate() {
            for &h in &self.houses_of[c] {
                if met[i % 2].contains(&h) {
                    return false;
                }
                met[i % 2].push(h);
            }
        }
        met[0].sort_unstable();
        met[1].sort_unstable();
        met[0] == met[1]
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
        for degree in first..=7 {
            for kind in 0..3 {
                let h = self.houses_of[c1][kind];
                if self.houses_of[c2][kind] != h {
                    continue;
                }
                let house = self.house(h);
                let empty = house.iter().filter(|&&c| p.value(c) == 0).count();
                let (Some(i1), Some(i2)) = (
                    house.iter().position(|&c| c == c1),
                    house.iter().position(|&c| c == c2),
                ) else {
                    continue;
                };
                if degree * 2 <= empty {
                    for set in combinations(degree, side) {
                        if set & (1 << i1) == 0 || set & (1 << i2) != 0 {
                            continue;
                        }
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
                    for pick in combinations(degree - 2, others.len()) {
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

/// Every `k`-element subset of `0..n`, as bit sets in increasing order.
fn combinations(k: usize, n: usize) -> impl Iterator<Item = u32> {
    let first: u32 = if k >= 32 { u32::MAX } else { (1u32 << k) - 1 };
    let limit: u64 = 1u64 << n;
    let mut next = (k <= n).then_some(first);
    std::iter::from_fn(move || {
        let v = next?;
        next = if v == 0 {
            None
        } else {
            // The next number with as many ones (Gosper's rule).
            let low = v & v.wrapping_neg();
            let ripple = u64::from(v) + u64::from(low);
            let ones = ((u64::from(v) ^ ripple) >> 2) / u64::from(low);
            let n = ripple | ones;
            (n < limit).then_some(n as u32)
        };
        Some(v)
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
    let search = Search { p, houses_of };
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
        loops.clear();
        search.walk(cell, m, &mut walk, 2, 0, None, &mut loops, &mut met);
        for l in &loops {
            if search.valid(l) {
                search.tests(l, (a, b), &mut found);
            }
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

/// Rating helpers shared by the tests of SE's techniques.
#[cfg(test)]
pub(crate) mod tests {
    use super::combinations;
    use crate::engine::{Budget, EngineKind, Settings, new_engine};
    use crate::logic::{Logic, Path, Rating, Technique, unique_solution};
    use crate::puzzle::Puzzle;
    use crate::puzzle::parse::parse_line;

    /// The ER of the classic puzzle `line`, in tenths, and its path.
    pub(crate) fn rate(line: &str) -> (u16, Path) {
        let puzzle = Puzzle::classic(parse_line(line, 1, None).unwrap());
        let mut engine = new_engine(&Settings {
            engine: EngineKind::Native,
            ..Settings::default()
        });
        let solution = unique_solution(engine.as_mut(), &puzzle, &Budget::unbounded()).unwrap();
        let logic = Logic {
            words: false,
            ..Logic::default()
        };
        let (rating, path) = Rating::rate(&puzzle, &solution, logic, engine.as_mut()).unwrap();
        (rating.er.0, path)
    }

    /// The ratings of the steps of `technique` on `path`.
    pub(crate) fn rated(path: &Path, technique: Technique) -> Vec<u16> {
        path.steps
            .iter()
            .filter(|s| s.technique == technique)
            .filter_map(|s| s.difficulty.map(|d| d.0))
            .collect()
    }

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
    fn combinations_come_in_increasing_order() {
        let all: Vec<u32> = combinations(3, 5).collect();
        assert_eq!(
            all,
            [
                0b00111, 0b01011, 0b01101, 0b01110, 0b10011, 0b10101, 0b10110, 0b11001, 0b11010,
                0b11100
            ]
        );
        assert_eq!(combinations(0, 4).collect::<Vec<_>>(), [0]);
        assert_eq!(combinations(5, 4).count(), 0);
    }
}
