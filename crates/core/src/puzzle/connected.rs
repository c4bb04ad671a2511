//! Connectivity: the cells of an area whose digits lie in a set form one
//! orthogonally connected region, not empty, of an exact size when one is
//! given (sigh's `ConnectedValues` over the whole grid).
//!
//! What the back ends ask of it lives here, once, as for the
//! [automaton](super::automaton): the test on a full grid
//! ([`Connected::holds`], a flood fill) and the narrowing over candidates
//! ([`Connected::support`]), which the native engine and the rule steps
//! use. The narrowing is sound, not complete (deciding every consequence
//! of connectivity is hard); it is sigh's handler's reasoning, with its
//! single-door rule widened to articulation points:
//! - a cell *may* be in the region when a candidate lies in the set, and
//!   *must* be when every candidate does;
//! - every cell that must be in lies in one component of the cells that
//!   may be (else nothing is left), and a cell outside that component
//!   loses the set's digits;
//! - a cell that may be in, whose removal parts cells that must be in (or,
//!   with a size, leaves too few cells beside the ones that must be in),
//!   must be in: every path between them runs through it;
//! - with a size `n`: at most `n` cells must be in and at least `n` may
//!   be; when exactly `n` may, they all must; and a cell farther from the
//!   cells that must be in than the cells still to place (counting only
//!   cells that may be in along the way) loses the set's digits.
//!
//! Z3's statement, a labelling by distance from a root, is in the engine
//! (`engine/z3/encoding/connected.rs`).

/// "The cells of `cells` holding a digit of `digits` form one connected
/// region", with its neighbours worked out once.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Connected {
    /// The area, as row-major indexes in reading order: the whole grid
    /// for every rule z3doku has.
    pub cells: Vec<usize>,
    /// The board's width (cells in a row), which says which cells
    /// neighbour.
    pub columns: usize,
    /// Bit `d - 1` for each digit `d` of the set.
    pub digits: u32,
    /// How many cells the region has, when that is said.
    pub size: Option<usize>,
    /// For each position in `cells`, the positions of its orthogonal
    /// neighbours in the area.
    neighbours: Vec<Vec<u16>>,
}

/// What a cell can be, over its candidates.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    /// No candidate in the set.
    Out,
    /// Some candidates in the set and some not.
    Open,
    /// Every candidate in the set.
    In,
}

impl Connected {
    /// The rule over `cells` (row-major, each once) of a board `columns`
    /// wide.
    pub fn new(cells: Vec<usize>, columns: usize, digits: u32, size: Option<usize>) -> Connected {
        let at = |cell: usize| cells.iter().position(|&c| c == cell);
        let neighbours = cells
            .iter()
            .map(|&c| {
                let (row, col) = (c / columns.max(1), c % columns.max(1));
                let mut near = Vec::new();
                if row > 0 {
                    near.extend(at(c - columns));
                }
                if col > 0 {
                    near.extend(at(c - 1));
                }
                if col + 1 < columns {
                    near.extend(at(c + 1));
                }
                near.extend(at(c + columns));
                near.into_iter().map(|p| p as u16).collect()
            })
            .collect();
        Connected {
            cells,
            columns,
            digits,
            size,
            neighbours,
        }
    }

    /// For each position in [`Connected::cells`], the positions of its
    /// orthogonal neighbours in the area.
    pub fn neighbours(&self) -> &[Vec<u16>] {
        &self.neighbours
    }

    /// The most cells the region can have: its size when said, else the
    /// area's.
    pub fn most(&self) -> usize {
        self.size.unwrap_or(self.cells.len()).min(self.cells.len())
    }

    /// Whether the digits of the area (`digit(cell)`) keep the rule: the
    /// cells holding a digit of the set are not none, are connected, and
    /// are as many as the size says.
    pub fn holds(&self, digit: &dyn Fn(usize) -> u8) -> bool {
        let inside: Vec<bool> = self
            .cells
            .iter()
            .map(|&c| {
                let d = digit(c);
                d != 0 && self.digits >> (d - 1) & 1 == 1
            })
            .collect();
        let count = inside.iter().filter(|&&i| i).count();
        let Some(first) = inside.iter().position(|&i| i) else {
            return false;
        };
        let mut seen = vec![false; inside.len()];
        seen[first] = true;
        let mut stack = vec![first];
        let mut reached = 1;
        while let Some(p) = stack.pop() {
            for &q in &self.neighbours[p] {
                let q = usize::from(q);
                if inside[q] && !seen[q] {
                    seen[q] = true;
                    reached += 1;
                    stack.push(q);
                }
            }
        }
        reached == count && self.size.is_none_or(|n| n == count)
    }

    /// The candidates the rule leaves each position of the area, given
    /// each position's candidates `doms` (bit `d - 1` for digit `d`);
    /// `None` when it cannot hold. Sound: a candidate goes only when no
    /// completion keeps it. Run to a fixed point.
    pub fn support(&self, doms: &[u32]) -> Option<Vec<u32>> {
        let mut doms = doms.to_vec();
        // Each round either finds nothing new or decides a cell (in or
        // out) for good, so there are at most as many rounds as cells.
        while self.round(&mut doms)? {}
        Some(doms)
    }

    fn part(&self, dom: u32) -> Part {
        if dom & self.digits == 0 {
            Part::Out
        } else if dom & !self.digits == 0 {
            Part::In
        } else {
            Part::Open
        }
    }

    /// One pass of every rule; `Some(true)` when a cell changed.
    fn round(&self, doms: &mut [u32]) -> Option<bool> {
        let m = doms.len();
        let parts: Vec<Part> = doms.iter().map(|&d| self.part(d)).collect();
        let possible = parts.iter().filter(|&&p| p != Part::Out).count();
        let decided = parts.iter().filter(|&&p| p == Part::In).count();
        let mut changed = false;
        let force_in = |doms: &mut [u32], p: usize, changed: &mut bool| {
            if doms[p] & !self.digits != 0 {
                doms[p] &= self.digits;
                *changed = true;
            }
        };
        if let Some(n) = self.size {
            if decided > n || possible < n {
                return None;
            }
            if possible == n && decided < n {
                for (p, &part) in parts.iter().enumerate() {
                    if part == Part::Open {
                        force_in(doms, p, &mut changed);
                    }
                }
                return Some(changed);
            }
        }
        let Some(seed) = parts.iter().position(|&p| p == Part::In) else {
            return match possible {
                0 => None,
                1 => {
                    let p = parts.iter().position(|&p| p != Part::Out)?;
                    force_in(doms, p, &mut changed);
                    Some(changed)
                }
                _ => Some(false),
            };
        };
        // The cells that may be in and can reach the seed: with a size,
        // through at most `n - decided` cells still open (a 0-1 walk:
        // cells that must be in cost nothing); without one, any number.
        let budget = self.size.map_or(m, |n| n - decided);
        let far = u32::MAX;
        let mut distance = vec![far; m];
        let mut now = std::collections::VecDeque::new();
        distance[seed] = 0;
        now.push_back(seed);
        while let Some(p) = now.pop_front() {
            let here = distance[p];
            for &q in &self.neighbours[p] {
                let q = usize::from(q);
                let step = match parts[q] {
                    Part::Out => continue,
                    Part::In => 0,
                    Part::Open => 1,
                };
                let there = here + step;
                if there < distance[q] && there as usize <= budget {
                    distance[q] = there;
                    if step == 0 {
                        now.push_front(q);
                    } else {
                        now.push_back(q);
                    }
                }
            }
        }
        for p in 0..m {
            if distance[p] == far {
                match parts[p] {
                    Part::In => return None,
                    Part::Open => {
                        doms[p] &= !self.digits;
                        changed = true;
                    }
                    Part::Out => {}
                }
            }
        }
        if changed {
            return Some(true);
        }
        // Every cell that may be in now lies in the seed's component.
        Some(self.cut_cells(doms, &parts, seed, possible, decided))
    }

    /// Articulation points of the cells that may be in (one component,
    /// holding the seed): an open cell whose removal parts cells that
    /// must be in, or, with a size, leaves the seed's side too small, must
    /// be in. Tarjan's walk, kept on a stack of its own.
    fn cut_cells(
        &self,
        doms: &mut [u32],
        parts: &[Part],
        seed: usize,
        possible: usize,
        decided: usize,
    ) -> bool {
        let m = doms.len();
        let unseen = u32::MAX;
        let mut order = vec![unseen; m];
        let mut low = vec![0u32; m];
        // Per cell: cells and cells that must be in of its walk's subtree.
        let mut cells_below = vec![0usize; m];
        let mut in_below = vec![0usize; m];
        // Per cell: what the subtrees it parts from the rest hold.
        let mut parted_cells = vec![0usize; m];
        let mut parted_in = vec![0usize; m];
        let mut next = 0u32;
        // (cell, parent, next neighbour to look at)
        let mut stack: Vec<(usize, usize, usize)> = vec![(seed, usize::MAX, 0)];
        order[seed] = next;
        low[seed] = next;
        next += 1;
        while let Some(top) = stack.last_mut() {
            let (p, parent) = (top.0, top.1);
            if let Some(&q) = self.neighbours[p].get(top.2) {
                top.2 += 1;
                let q = usize::from(q);
                if parts[q] == Part::Out || q == parent {
                    continue;
                }
                if order[q] == unseen {
                    order[q] = next;
                    low[q] = next;
                    next += 1;
                    stack.push((q, p, 0));
                } else {
                    low[p] = low[p].min(order[q]);
                }
                continue;
            }
            stack.pop();
            cells_below[p] += 1;
            if parts[p] == Part::In {
                in_below[p] += 1;
            }
            if parent != usize::MAX {
                low[parent] = low[parent].min(low[p]);
                cells_below[parent] += cells_below[p];
                in_below[parent] += in_below[p];
                if low[p] >= order[parent] {
                    parted_cells[parent] += cells_below[p];
                    parted_in[parent] += in_below[p];
                }
            }
        }
        let mut changed = false;
        for p in 0..m {
            // The seed must be in, so only open cells other than it count;
            // the seed's own side keeps the rest.
            if parts[p] != Part::Open || parted_cells[p] == 0 {
                continue;
            }
            let parts_in = parted_in[p] > 0 && decided > parted_in[p];
            let too_small = self
                .size
                .is_some_and(|n| possible - 1 - parted_cells[p] < n);
            if parts_in || too_small {
                doms[p] &= self.digits;
                changed = true;
            }
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4x4 area, digits 1 and 2 in the set.
    fn four(size: Option<usize>) -> Connected {
        Connected::new((0..16).collect(), 4, 0b11, size)
    }

    #[test]
    fn a_flood_fill_decides_a_full_grid() {
        let grid = |s: &str| -> Vec<u8> { s.bytes().map(|b| b - b'0').collect() };
        // 1s and 2s: r1c1 r1c2; r2c3 r2c4 r3c3 r3c4; r4c1 r4c2: apart.
        let apart = grid("1234341243211234");
        let rule = four(None);
        let at = |g: &Vec<u8>| {
            let g = g.clone();
            move |c: usize| g[c]
        };
        assert!(!rule.holds(&at(&apart)));
        let mut region = vec![5u8; 16];
        for c in [0, 1, 5, 9, 13, 14, 10, 6] {
            region[c] = 1;
        }
        assert!(rule.holds(&at(&region)));
        assert!(four(Some(8)).holds(&at(&region)));
        assert!(!four(Some(7)).holds(&at(&region)));
        assert!(!rule.holds(&|_| 5), "an empty region breaks it");
    }

    #[test]
    fn narrowing_strips_what_cannot_join_and_forces_cut_cells() {
        let rule = four(None);
        let all = 0b1111u32;
        let (yes, no) = (0b11u32, 0b1100u32);
        let mut doms = vec![all; 16];
        // r1c1 and r1c3 must be in; r1c2 is the only way between them
        // when r2c1..r2c3 are out.
        doms[0] = yes;
        doms[2] = yes;
        for c in [4, 5, 6] {
            doms[c] = no;
        }
        doms[3] = no;
        doms[7] = no;
        let kept = rule.support(&doms).unwrap();
        assert_eq!(kept[1], yes, "r1c2 parts r1c1 from r1c3");
        // Everything else is cut off from them: it loses 1 and 2.
        for (c, &k) in kept.iter().enumerate().skip(8) {
            assert_eq!(k, no, "r{}c{}", c / 4 + 1, c % 4 + 1);
        }
        // Two cells that must be in, with no way between them.
        let mut apart = vec![no; 16];
        apart[0] = yes;
        apart[15] = yes;
        assert!(rule.support(&apart).is_none());
    }

    #[test]
    fn a_size_bounds_the_region() {
        let all = 0b1111u32;
        let yes = 0b11u32;
        let mut doms = vec![all; 16];
        doms[0] = yes;
        // Two more cells to place: r3c1 and beyond are too far.
        let kept = four(Some(3)).support(&doms).unwrap();
        for c in [10, 11, 14, 15, 12, 13, 7] {
            assert_eq!(kept[c] & yes, 0, "r{}c{}", c / 4 + 1, c % 4 + 1);
        }
        assert_eq!(kept[1], all);
        // Three that must be in and a size of 2.
        let mut three = vec![all; 16];
        for c in [0, 1, 2] {
            three[c] = yes;
        }
        assert!(four(Some(2)).support(&three).is_none());
        // Exactly as many cells may be in as the size: they all are.
        let mut few = vec![0b1100u32; 16];
        for c in [0, 1] {
            few[c] = all;
        }
        assert_eq!(four(Some(2)).support(&few).unwrap()[..2], [yes, yes]);
    }
}
