//! Chaos construction's regions: the board parts into orthogonally
//! connected regions of N cells each, N the board's longer side (N
//! regions on an NxN board, R on an RxN rectangle) or the region size a
//! sigh puzzle sets (`RegionSize`), and each region holds N different
//! digits: every digit once when the board has N of them.
//! Which cells form which region is not given; it is found with the
//! digits (sigh's `ChaosConstruction`).
//!
//! What the rule steps ask of it lives here (the native engine searches
//! the regions itself, `engine/native/chaos.rs`): whether
//! the candidates still allow such a parting ([`Chaos::feasible`]), a
//! search that is exact on a full grid ([`Chaos::holds`]) and, over open
//! cells, bounded by a number of steps, past which it answers that it
//! cannot tell (and a propagator then keeps the board: the test is only
//! ever used to throw a board away, so "cannot tell" is "may hold").
//!
//! The search builds the regions one at a time, each from the first cell
//! in reading order that is in none yet (so each parting is met once,
//! whatever the regions are called), and grows it by deciding, cell by
//! cell of its border, in or out (so each region shape is met once). A
//! cell joins only when the region can still hold different digits, a
//! finished region must match its cells to different digits (Hall's
//! condition, by augmenting paths), and the cells left must part into
//! connected pieces whose sizes are multiples of N.
//!
//! Z3's statement, a region label per cell, is in the engine
//! (`engine/z3/encoding/chaos.rs`).

use super::grid::Size;

/// "The board parts into connected regions of N cells, each holding N
/// different digits", with the clues that read the regions, and the
/// board's neighbours worked out once.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Chaos {
    /// The board: its cells, and its digits.
    pub size: Size,
    /// The cells of each region.
    region_cells: usize,
    /// The clues over the regions.
    pub clues: Vec<Clue>,
    /// Each cell's orthogonal neighbours.
    neighbours: Vec<Vec<u16>>,
}

/// A clue that reads the regions: a control cell's digit is a number the
/// regions make, less `offset` (sigh's "exclude first cell": 1).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Clue {
    /// How many of `cells` (row-major) are in the region of the first of
    /// them, itself included (sigh's `ChaosCount`).
    Count {
        /// The cell holding the count.
        control: usize,
        /// The cells counted, the first naming the region.
        cells: Vec<usize>,
        /// Taken from the count.
        offset: u8,
    },
    /// How long the run of cells in the region of the arms' shared first
    /// cell is along the arms, from that cell on, the first cell counted
    /// once (sigh's `ChaosArrow`). Arms of one cell say nothing, unless
    /// every arm has one.
    Arrow {
        /// The cell holding the length.
        control: usize,
        /// The arms, each from the shared first cell.
        arms: Vec<Vec<usize>>,
        /// Taken from the length.
        offset: u8,
    },
}

impl Clue {
    /// The cell whose digit the clue gives.
    pub fn control(&self) -> usize {
        match self {
            Clue::Count { control, .. } | Clue::Arrow { control, .. } => *control,
        }
    }

    /// What the clue takes from its number.
    pub fn offset(&self) -> u8 {
        match self {
            Clue::Count { offset, .. } | Clue::Arrow { offset, .. } => *offset,
        }
    }

    /// The arms that say something: those of two cells or more, else the
    /// first.
    pub fn active_arms(arms: &[Vec<usize>]) -> Vec<&[usize]> {
        let long: Vec<&[usize]> = arms
            .iter()
            .filter(|a| a.len() > 1)
            .map(Vec::as_slice)
            .collect();
        match (long.is_empty(), arms.first()) {
            (true, Some(first)) => vec![first.as_slice()],
            _ => long,
        }
    }

    /// The number the regions (`region(cell)`) make: the count, or the
    /// run's length.
    pub fn number(&self, region: &dyn Fn(usize) -> u8) -> usize {
        match self {
            Clue::Count { cells, .. } => match cells.first() {
                Some(&first) => cells
                    .iter()
                    .filter(|&&c| region(c) == region(first))
                    .count(),
                None => 0,
            },
            Clue::Arrow { arms, .. } => {
                let active = Clue::active_arms(arms);
                let runs: usize = active
                    .iter()
                    .map(|arm| match arm.first() {
                        Some(&start) => arm
                            .iter()
                            .take_while(|&&c| region(c) == region(start))
                            .count(),
                        None => 0,
                    })
                    .sum();
                runs.saturating_sub(active.len().saturating_sub(1))
            }
        }
    }

    /// Whether `digit` in the control cell agrees with the regions.
    pub fn agrees(&self, digit: u8, region: &dyn Fn(usize) -> u8) -> bool {
        usize::from(digit) + usize::from(self.offset()) == self.number(region)
    }
}

/// No region yet.
const NONE: u8 = u8::MAX;

/// How far a search over open cells goes before it says it cannot tell.
pub const OPEN_STEPS: u64 = 4_000;

impl Chaos {
    /// The rule on a board of `size`, in regions of `region_cells` cells
    /// (which divides the board's), with `clues`.
    pub fn new(size: Size, region_cells: usize, clues: Vec<Clue>) -> Chaos {
        let neighbours = (0..size.cells())
            .map(|c| size.orthogonal(c).iter().map(|&n| n as u16).collect())
            .collect();
        Chaos {
            size,
            region_cells,
            clues,
            neighbours,
        }
    }

    /// The board's cells.
    pub fn cells(&self) -> usize {
        self.size.cells()
    }

    /// The cells of a region.
    pub fn region_cells(&self) -> usize {
        self.region_cells
    }

    /// How many regions the board parts into.
    pub fn regions(&self) -> usize {
        self.cells() / self.region_cells
    }

    /// The board's digits: as many as a region's cells, so that each
    /// region holds every one, or more.
    pub fn values(&self) -> usize {
        self.size.values()
    }

    /// Each cell's orthogonal neighbours, as row-major indexes.
    pub fn neighbours(&self) -> &[Vec<u16>] {
        &self.neighbours
    }

    /// Whether the full grid (`digit(cell)`) parts into such regions.
    pub fn holds(&self, digit: &dyn Fn(usize) -> u8) -> bool {
        let doms: Vec<u32> = (0..self.cells())
            .map(|c| match digit(c) {
                0 => 0,
                d => 1 << (d - 1),
            })
            .collect();
        self.feasible(&doms, u64::MAX) == Some(true)
    }

    /// [`Chaos::feasible`] as the propagators ask it: exact once every
    /// cell holds one candidate, else within [`OPEN_STEPS`].
    pub fn may_part(&self, doms: &[u32]) -> Option<bool> {
        let placed = doms.iter().all(|d| d.count_ones() == 1);
        self.feasible(doms, if placed { u64::MAX } else { OPEN_STEPS })
    }

    /// Whether the candidates `doms` (bit `d - 1` for digit `d`, one per
    /// cell) leave some parting into regions that each can hold different
    /// digits: `None` when `steps` cells were tried without an answer.
    pub fn feasible(&self, doms: &[u32], steps: u64) -> Option<bool> {
        let n = self.cells();
        if doms.len() != n || self.regions() >= usize::from(NONE) {
            return Some(false);
        }
        let mut search = Search {
            chaos: self,
            doms,
            label: vec![NONE; n],
            mark: vec![Mark::Free; n],
            steps,
        };
        search.next_region(0)
    }
}

/// A cell's part in the growth of the region being built.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    /// Undecided and not beside the region.
    Free,
    /// Beside the region, not yet decided.
    Border,
    /// Decided out of the region.
    Out,
}

struct Search<'a> {
    chaos: &'a Chaos,
    doms: &'a [u32],
    /// Each cell's region, or [`NONE`].
    label: Vec<u8>,
    mark: Vec<Mark>,
    /// Cells still to try before giving up.
    steps: u64,
}

/// `Some(true)` if either is, else `None` if either is, else `Some(false)`.
fn either(a: Option<bool>, b: impl FnOnce() -> Option<bool>) -> Option<bool> {
    match a {
        Some(true) => Some(true),
        Some(false) => b(),
        None => match b() {
            Some(true) => Some(true),
            _ => None,
        },
    }
}

impl Search<'_> {
    /// Builds region `region` from the first cell in none, and the rest
    /// after it.
    fn next_region(&mut self, region: u8) -> Option<bool> {
        let Some(root) = self.label.iter().position(|&l| l == NONE) else {
            return Some(self.clues_agree());
        };
        if self.doms[root] == 0 {
            return Some(false);
        }
        let saved = std::mem::replace(&mut self.mark, vec![Mark::Free; self.label.len()]);
        self.label[root] = region;
        let mut members = vec![root];
        let mut border = Vec::new();
        self.widen(root, &mut border);
        let found = self.grow(region, &mut members, &mut border);
        self.label[root] = NONE;
        self.mark = saved;
        found
    }

    /// Whether every clue's control cell can hold what the full parting
    /// makes of it.
    fn clues_agree(&self) -> bool {
        let region = |c: usize| self.label[c];
        self.chaos.clues.iter().all(|clue| {
            let number = clue.number(&region);
            let dom = self.doms.get(clue.control()).copied().unwrap_or(0);
            number
                .checked_sub(usize::from(clue.offset()))
                .filter(|&v| (1..=self.chaos.values()).contains(&v))
                .is_some_and(|v| dom >> (v - 1) & 1 == 1)
        })
    }

    /// Puts `cell`'s free neighbours in no region on the border.
    fn widen(&mut self, cell: usize, border: &mut Vec<usize>) {
        for &n in &self.chaos.neighbours[cell] {
            let n = usize::from(n);
            if self.label[n] == NONE && self.mark[n] == Mark::Free {
                self.mark[n] = Mark::Border;
                border.push(n);
            }
        }
    }

    /// Whether `cell` can join `members` with the region still able to
    /// hold different digits: a placed digit not already placed, some
    /// candidate not placed, and as many digits among them as cells.
    fn fits(&self, members: &[usize], cell: usize) -> bool {
        let (mut placed, mut all) = (0u32, self.doms[cell]);
        for &m in members {
            let d = self.doms[m];
            all |= d;
            if d.count_ones() == 1 {
                placed |= d;
            }
        }
        let d = self.doms[cell];
        d & !placed != 0 && all.count_ones() as usize > members.len()
    }

    fn grow(
        &mut self,
        region: u8,
        members: &mut Vec<usize>,
        border: &mut Vec<usize>,
    ) -> Option<bool> {
        if self.steps == 0 {
            return None;
        }
        self.steps -= 1;
        if members.len() == self.chaos.region_cells() {
            if !self.matched(members) || !self.rest_parts() {
                return Some(false);
            }
            return self.next_region(region + 1);
        }
        let Some(cell) = border.pop() else {
            return Some(false);
        };
        let cell_found = if self.fits(members, cell) {
            let before = border.len();
            self.label[cell] = region;
            members.push(cell);
            self.mark[cell] = Mark::Free;
            self.widen(cell, border);
            let found = self.grow(region, members, border);
            for &b in &border[before..] {
                self.mark[b] = Mark::Free;
            }
            border.truncate(before);
            members.pop();
            self.label[cell] = NONE;
            found
        } else {
            Some(false)
        };
        let found = either(cell_found, || {
            self.mark[cell] = Mark::Out;
            self.grow(region, members, border)
        });
        self.mark[cell] = Mark::Border;
        border.push(cell);
        found
    }

    /// Whether the region's cells can hold different digits, one each.
    fn matched(&self, members: &[usize]) -> bool {
        // `owner[d]`: the member holding digit d so far.
        let mut owner: Vec<Option<usize>> = vec![None; self.chaos.values()];
        for k in 0..members.len() {
            let mut seen = vec![false; self.chaos.values()];
            if !self.augment(members, k, &mut owner, &mut seen) {
                return false;
            }
        }
        true
    }

    fn augment(
        &self,
        members: &[usize],
        k: usize,
        owner: &mut [Option<usize>],
        seen: &mut [bool],
    ) -> bool {
        let dom = self.doms[members[k]];
        for d in 0..self.chaos.values() {
            if dom >> d & 1 == 0 || seen[d] {
                continue;
            }
            seen[d] = true;
            let free = match owner[d] {
                None => true,
                Some(other) => self.augment(members, other, owner, seen),
            };
            if free {
                owner[d] = Some(k);
                return true;
            }
        }
        false
    }

    /// Whether the cells in no region part into connected pieces of
    /// multiples of N cells.
    fn rest_parts(&self) -> bool {
        let mut seen: Vec<bool> = self.label.iter().map(|&l| l != NONE).collect();
        let mut stack = Vec::new();
        for start in 0..seen.len() {
            if seen[start] {
                continue;
            }
            seen[start] = true;
            stack.push(start);
            let mut count = 0;
            while let Some(c) = stack.pop() {
                count += 1;
                for &n in &self.chaos.neighbours[c] {
                    let n = usize::from(n);
                    if !seen[n] {
                        seen[n] = true;
                        stack.push(n);
                    }
                }
            }
            if count % self.chaos.region_cells() != 0 {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn four() -> Size {
        Size::from_side(4).unwrap_or_else(|| panic!("a 4x4 board"))
    }

    fn digits(rows: &str) -> Vec<u32> {
        rows.bytes()
            .filter(u8::is_ascii_digit)
            .map(|b| match b - b'0' {
                0 => 0b1111,
                d => 1 << (d - 1),
            })
            .collect()
    }

    #[test]
    fn a_full_grid_parts_when_its_regions_can_hold_every_digit() {
        let chaos = Chaos::new(four(), 4, Vec::new());
        // Boxes work.
        assert_eq!(
            chaos.feasible(&digits("1234 3412 2143 4321"), u64::MAX),
            Some(true)
        );
        // Rows work too, whatever the digits' columns.
        assert_eq!(
            chaos.feasible(&digits("1234 2341 3412 4123"), u64::MAX),
            Some(true)
        );
        // Five 2s: four regions cannot hold them once each.
        assert_eq!(
            chaos.feasible(&digits("1123 1444 2222 3333"), u64::MAX),
            Some(false)
        );
    }

    #[test]
    fn open_cells_may_part_and_a_bound_says_when_it_cannot_tell() {
        let chaos = Chaos::new(four(), 4, Vec::new());
        assert_eq!(
            chaos.feasible(&digits("0000 0000 0000 0000"), u64::MAX),
            Some(true)
        );
        assert_eq!(
            chaos.feasible(&digits("1000 1000 1000 1000"), u64::MAX),
            Some(true)
        );
        // Two 1s side by side in a corner: the corner's region must take
        // the second 1 or r2c1, whose only candidate is 1 as well.
        assert_eq!(
            chaos.feasible(&digits("1100 1000 0000 0000"), u64::MAX),
            Some(false)
        );
        // With no steps to spend, it cannot tell.
        assert_eq!(chaos.feasible(&digits("0000 0000 0000 0000"), 0), None);
    }
}
