//! The candidate grid a person pencils in: each cell's digit, or the digits
//! it may still take. Every technique reads and changes one.
//!
//! Houses come from the puzzle's [`Rules`], never from the board size, so
//! the same grid serves every size, Latin squares and diagonal Sudoku. A
//! digit set is a `u32` with bit `d - 1` for digit `d` (boards go up to 25).

use crate::puzzle::Puzzle;
use crate::puzzle::grid::{Cell, Clue, Grid, Size};
use crate::puzzle::rules::{HouseKind, Rules};
use std::cell::OnceCell;
use std::sync::{Arc, Mutex, OnceLock};

/// The bit of digit `d`.
pub fn bit(digit: u8) -> u32 {
    1 << (digit - 1)
}

/// Whether a set holds exactly two digits: what the chains ask of every
/// cell and house they pass, without a population count (a dozen
/// instructions where the target has no `popcnt`).
pub fn two(set: u32) -> bool {
    let rest = set & set.wrapping_sub(1);
    rest != 0 && rest & (rest - 1) == 0
}

/// Every `k`-element subset of `0..n`, as bit sets in increasing order
/// (SE's order).
pub(crate) fn combinations(k: usize, n: usize) -> impl Iterator<Item = u64> {
    let first: u64 = if k >= 64 { u64::MAX } else { (1u64 << k) - 1 };
    let limit: u128 = 1u128 << n.min(127);
    let mut next = (k <= n && n < 64).then_some(first);
    std::iter::from_fn(move || {
        let v = next?;
        next = if v == 0 {
            None
        } else {
            // The next number with as many ones (Gosper's rule).
            let low = v & v.wrapping_neg();
            let ripple = u128::from(v) + u128::from(low);
            let ones = ((u128::from(v) ^ ripple) >> 2) / u128::from(low);
            let n = ripple | ones;
            (n < limit).then_some(n as u64)
        };
        Some(v)
    })
}

/// The digits of a set, smallest first.
pub fn digits(mut set: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let d = set.trailing_zeros() as u8 + 1;
            set &= set - 1;
            d
        })
    })
}

/// The board's shape as the techniques need it, worked out once per set of
/// rules: houses as lists of cells, each cell's houses and the cells that
/// share a house with it (its peers), as a list and as a bit set.
#[derive(Debug)]
pub struct Geometry {
    size: Size,
    houses: Vec<Vec<usize>>,
    kinds: Vec<HouseKind>,
    names: Vec<String>,
    houses_of: Vec<Vec<usize>>,
    /// Each cell's place in each of its houses, beside `houses_of`.
    places_in: Vec<Vec<u8>>,
    se_houses_of: Vec<Vec<usize>>,
    peers: Vec<Vec<usize>>,
    peer_bits: Vec<[u64; 10]>,
    house_bits: Vec<[u64; 10]>,
    overlaps: Vec<Vec<Overlap>>,
}

/// Two houses sharing two cells or more: the other house, and the shared
/// cells' places in each house's list. Both sides are kept so a technique
/// tests "is the digit anywhere else in the other house" with one mask.
#[derive(Clone, Copy, Debug)]
pub struct Overlap {
    /// The other house.
    pub house: usize,
    /// The shared cells' places in this house.
    pub here: u32,
    /// The shared cells' places in the other house.
    pub there: u32,
}

impl Geometry {
    fn new(rules: &Rules) -> Geometry {
        let size = rules.size();
        let cells = size.cells();
        let houses: Vec<Vec<usize>> = rules.houses().iter().map(|h| h.cells.clone()).collect();
        let mut peer_bits = vec![[0u64; 10]; cells];
        let mut peers = vec![Vec::new(); cells];
        for (cell, list) in peers.iter_mut().enumerate() {
            for &h in rules.houses_of(cell) {
                for &other in &houses[h] {
                    if other != cell && peer_bits[cell][other / 64] >> (other % 64) & 1 == 0 {
                        peer_bits[cell][other / 64] |= 1 << (other % 64);
                        list.push(other);
                    }
                }
            }
            list.sort_unstable();
        }
        let places_in = |a: &[usize], b: &[usize]| {
            (0..a.len())
                .filter(|&k| b.contains(&a[k]))
                .fold(0u32, |m, k| m | 1 << k)
        };
        let overlaps = houses
            .iter()
            .enumerate()
            .map(|(a, cells_a)| {
                (0..houses.len())
                    .filter(|&b| b != a)
                    .map(|b| Overlap {
                        house: b,
                        here: places_in(cells_a, &houses[b]),
                        there: places_in(&houses[b], cells_a),
                    })
                    .filter(|o| o.here.count_ones() >= 2)
                    .collect()
            })
            .collect();
        let house_bits = houses
            .iter()
            .map(|house| {
                house.iter().fold([0u64; 10], |mut set, &c| {
                    set[c / 64] |= 1 << (c % 64);
                    set
                })
            })
            .collect();
        let kinds: Vec<HouseKind> = rules.houses().iter().map(|h| h.kind).collect();
        let houses_of: Vec<Vec<usize>> = (0..cells).map(|c| rules.houses_of(c).to_vec()).collect();
        let places_in = houses_of
            .iter()
            .enumerate()
            .map(|(c, hs)| {
                hs.iter()
                    .map(|&h| houses[h].iter().position(|&x| x == c).unwrap_or(0) as u8)
                    .collect()
            })
            .collect();
        // SE lists a cell's houses box first, then row, then column; a
        // stable sort keeps any other houses after them in the rules' order.
        let se_rank = |h: &usize| match kinds[*h] {
            HouseKind::Box | HouseKind::Region => 0,
            HouseKind::Row => 1,
            HouseKind::Column => 2,
            _ => 3,
        };
        let se_houses_of = houses_of
            .iter()
            .map(|hs| {
                let mut hs = hs.clone();
                hs.sort_by_key(se_rank);
                hs
            })
            .collect();
        Geometry {
            size,
            house_bits,
            overlaps,
            kinds,
            names: rules.houses().iter().map(|h| h.to_string()).collect(),
            houses_of,
            places_in,
            se_houses_of,
            houses,
            peers,
            peer_bits,
        }
    }

    /// The geometry of `rules`: shared per size for classic rules, so a
    /// file of puzzles works it out once.
    pub fn of(rules: &Rules) -> Arc<Geometry> {
        static CLASSIC: OnceLock<Mutex<Vec<Arc<Geometry>>>> = OnceLock::new();
        if !rules.is_classic() {
            return Arc::new(Geometry::new(rules));
        }
        let cache = CLASSIC.get_or_init(|| Mutex::new(Vec::new()));
        // A poisoned lock only means another thread panicked while pushing;
        // working the geometry out again is always right.
        let Ok(mut cache) = cache.lock() else {
            return Arc::new(Geometry::new(rules));
        };
        if let Some(found) = cache.iter().find(|g| g.size == rules.size()) {
            return Arc::clone(found);
        }
        let made = Arc::new(Geometry::new(rules));
        cache.push(Arc::clone(&made));
        made
    }

    /// The houses, as [`Rules::houses`] lists them.
    pub fn houses(&self) -> &[Vec<usize>] {
        &self.houses
    }

    /// The kind of house `h`.
    pub fn kind(&self, h: usize) -> HouseKind {
        self.kinds[h]
    }

    /// House `h` as messages name it (`box 5`).
    pub fn name(&self, h: usize) -> &str {
        &self.names[h]
    }

    /// The houses sharing two cells or more with house `h`.
    pub fn overlaps(&self, h: usize) -> &[Overlap] {
        &self.overlaps[h]
    }

    /// The houses holding `cell`.
    pub fn houses_of(&self, cell: usize) -> &[usize] {
        &self.houses_of[cell]
    }

    /// The houses holding `cell` in Sudoku Explainer's order: its box (or
    /// region), row and column, then any other, as SE's chains and aligned
    /// exclusions list a cell's links and the cells it sees.
    pub fn se_houses_of(&self, cell: usize) -> &[usize] {
        &self.se_houses_of[cell]
    }

    /// The cells sharing a house with `cell`.
    pub fn peers(&self, cell: usize) -> &[usize] {
        &self.peers[cell]
    }

    /// Whether `a` and `b` share a house (and are different cells).
    pub fn sees(&self, a: usize, b: usize) -> bool {
        self.peer_bits[a][b / 64] >> (b % 64) & 1 == 1
    }

    /// The cells `cell` sees, as a bit set over cell numbers.
    pub fn peer_bits(&self, cell: usize) -> &[u64; 10] {
        &self.peer_bits[cell]
    }

    /// The cells of house `h`, as a bit set over cell numbers.
    pub fn house_bits(&self, h: usize) -> &[u64; 10] {
        &self.house_bits[h]
    }

    /// The board size.
    pub fn size(&self) -> Size {
        self.size
    }
}

/// A candidate grid: placed digits, and each open cell's candidates.
#[derive(Clone, Debug)]
pub struct Pencil {
    geometry: Arc<Geometry>,
    values: Vec<u8>,
    candidates: Vec<u32>,
    /// Every house's places of every digit ([`Pencil::places`]), worked
    /// out on first use and forgotten when a candidate changes: at each
    /// step of a path, technique after technique reads them.
    places: OnceCell<Vec<[u32; 25]>>,
    /// Each digit's cells as one bit set ([`Pencil::planes`]), kept the
    /// same way: the chains and the unique loops each read them.
    planes: OnceCell<Vec<u128>>,
}

impl Pencil {
    /// The grid of `puzzle` with its givens placed and every other cell
    /// holding the digits its houses allow; `None` when two givens clash,
    /// or when the puzzle has cells outside the grid, which the techniques
    /// do not take (the tutor says so: [`PathError::OutsideGrid`](super::PathError)).
    pub fn new(puzzle: &Puzzle) -> Option<Pencil> {
        let size = puzzle.size();
        if size.extra() > 0 {
            return None;
        }
        let all = u32::MAX >> (32 - size.side());
        let mut pencil = Pencil {
            geometry: Geometry::of(puzzle.rules()),
            values: vec![0; size.cells()],
            candidates: vec![all; size.cells()],
            places: OnceCell::new(),
            planes: OnceCell::new(),
        };
        for (cell, digit) in puzzle.givens().clues() {
            if pencil.candidates[cell] & bit(digit) == 0 {
                return None;
            }
            pencil.place(cell, digit);
        }
        Some(pencil)
    }

    /// The board's shape.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The board size.
    pub fn size(&self) -> Size {
        self.geometry.size
    }

    /// The cell with row-major index `index`.
    pub fn cell(&self, index: usize) -> Cell {
        self.geometry.size.cell_at(index)
    }

    /// The digit placed in `cell`, or 0.
    pub fn value(&self, cell: usize) -> u8 {
        self.values[cell]
    }

    /// The candidates of `cell` (none once placed).
    pub fn candidates(&self, cell: usize) -> u32 {
        self.candidates[cell]
    }

    /// Whether `digit` is a candidate of `cell`.
    pub fn has(&self, cell: usize, digit: u8) -> bool {
        self.candidates[cell] & bit(digit) != 0
    }

    /// Places `digit` in `cell` and takes it from the cell's peers.
    pub fn place(&mut self, cell: usize, digit: u8) {
        self.forget();
        self.values[cell] = digit;
        self.candidates[cell] = 0;
        let b = !bit(digit);
        for &p in &self.geometry.peers[cell] {
            self.candidates[p] &= b;
        }
    }

    /// Places `digit` in `cell` without touching its peers (the caller
    /// takes care of them).
    pub(crate) fn place_only(&mut self, cell: usize, digit: u8) {
        self.forget();
        self.values[cell] = digit;
        self.candidates[cell] = 0;
    }

    /// Becomes a copy of `other` (of the same board), reusing its own
    /// memory.
    pub(crate) fn copy_from(&mut self, other: &Pencil) {
        self.forget();
        self.values.copy_from_slice(&other.values);
        self.candidates.copy_from_slice(&other.candidates);
    }

    /// Whether `other` is a grid of the same board with the same
    /// candidates in every cell: what follows from the candidates alone
    /// (the static links of [`super::links`]) is the same for both.
    pub(crate) fn same_candidates(&self, other: &Pencil) -> bool {
        Arc::ptr_eq(&self.geometry, &other.geometry) && self.candidates == other.candidates
    }

    /// Whether `other` is a grid of the same board (the same geometry).
    pub(crate) fn same_board(&self, other: &Pencil) -> bool {
        Arc::ptr_eq(&self.geometry, &other.geometry)
    }

    /// The digits placed, row-major, 0 for an open cell.
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// Takes `digit` from the candidates of `cell`.
    pub fn eliminate(&mut self, cell: usize, digit: u8) {
        self.forget();
        self.candidates[cell] &= !bit(digit);
    }

    /// Applies placements and eliminations. What was worked out from the
    /// candidates ([`Pencil::places`], [`Pencil::planes`]) is kept, each
    /// candidate taken away taken from it too: a path applies a step, and
    /// the next step's scan reads them again, a few changed of hundreds.
    pub fn apply(&mut self, placements: &[Clue], eliminations: &[Clue]) {
        let size = self.size();
        let mut places = self.places.take();
        let mut planes = self.planes.take();
        let geometry = Arc::clone(&self.geometry);
        let mut lose = |cell: usize, lost: u32| {
            if let Some(places) = places.as_mut() {
                for (&h, &k) in geometry.houses_of[cell]
                    .iter()
                    .zip(&geometry.places_in[cell])
                {
                    let here = !(1u32 << k);
                    for d in digits(lost) {
                        places[h][usize::from(d - 1)] &= here;
                    }
                }
            }
            if let Some(planes) = planes.as_mut() {
                for d in digits(lost) {
                    planes[usize::from(d - 1)] &= !(1u128 << cell);
                }
            }
        };
        for e in eliminations {
            let cell = size.index(e.cell);
            let lost = self.candidates[cell] & bit(e.digit);
            self.candidates[cell] &= !lost;
            lose(cell, lost);
        }
        for p in placements {
            let cell = size.index(p.cell);
            lose(cell, self.candidates[cell]);
            self.values[cell] = p.digit;
            self.candidates[cell] = 0;
            let b = bit(p.digit);
            for &peer in &geometry.peers[cell] {
                let lost = self.candidates[peer] & b;
                if lost != 0 {
                    self.candidates[peer] &= !lost;
                    lose(peer, lost);
                }
            }
        }
        if let Some(places) = places {
            let _ = self.places.set(places);
        }
        if let Some(planes) = planes {
            let _ = self.planes.set(planes);
        }
    }

    /// The positions of `digit` among house `h`'s cells, as a bit set of
    /// their places in the house's list.
    pub fn positions(&self, h: usize, digit: u8) -> u32 {
        // Without a branch per cell: whether a cell holds the digit is
        // as good as random, and the techniques ask this very often.
        let shift = digit - 1;
        let mut set = 0;
        for (k, &cell) in self.geometry.houses[h].iter().enumerate() {
            set |= (self.candidates[cell] >> shift & 1) << k;
        }
        set
    }

    /// The positions of every digit in house `h` at once: entry `d - 1`
    /// is [`Pencil::positions`] of `d`.
    pub fn all_positions(&self, h: usize) -> [u32; 25] {
        let mut pos = [0u32; 25];
        for (k, &cell) in self.geometry.houses[h].iter().enumerate() {
            for d in digits(self.candidates[cell]) {
                pos[usize::from(d - 1)] |= 1 << k;
            }
        }
        pos
    }

    /// Forgets what was worked out from the candidates, which change.
    fn forget(&mut self) {
        self.places.take();
        self.planes.take();
    }

    /// Each digit's cells as a bit set over cells (entry `d - 1` for `d`),
    /// or `None` on a board of more than 128 cells.
    pub(crate) fn planes(&self) -> Option<&[u128]> {
        let cells = self.size().cells();
        (cells <= 128).then(|| {
            self.planes
                .get_or_init(|| {
                    let mut planes = vec![0u128; self.size().side()];
                    for (c, &m) in self.candidates.iter().enumerate() {
                        for d in digits(m) {
                            planes[usize::from(d) - 1] |= 1 << c;
                        }
                    }
                    planes
                })
                .as_slice()
        })
    }

    /// [`Pencil::all_positions`] of every house, by house.
    pub fn places(&self) -> &[[u32; 25]] {
        self.places.get_or_init(|| {
            (0..self.geometry.houses.len())
                .map(|h| self.all_positions(h))
                .collect()
        })
    }

    /// Whether `digit` is placed in house `h`.
    pub fn placed_in(&self, h: usize, digit: u8) -> bool {
        self.geometry.houses[h]
            .iter()
            .any(|&c| self.values[c] == digit)
    }

    /// The number of cells without a digit.
    pub fn open_cells(&self) -> usize {
        self.values.iter().filter(|&&v| v == 0).count()
    }

    /// Whether every cell holds a digit.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// Whether nothing is visibly wrong: every open cell has a candidate
    /// and every digit a place (or a placement) in every house.
    pub fn is_consistent(&self) -> bool {
        if (0..self.values.len()).any(|c| self.values[c] == 0 && self.candidates[c] == 0) {
            return false;
        }
        let all = u32::MAX >> (32 - self.size().side());
        self.geometry.houses.iter().all(|house| {
            let mut seen = 0;
            for &c in house {
                seen |= self.candidates[c];
                if self.values[c] != 0 {
                    seen |= bit(self.values[c]);
                }
            }
            seen == all
        })
    }

    /// The placed digits as a grid.
    pub fn grid(&self) -> Grid {
        // The values are digits of this board, so the grid always exists.
        Grid::from_cells(self.size(), &self.values).unwrap_or_else(|| Grid::empty(self.size()))
    }
}

#[cfg(test)]
mod tests {
    use super::{combinations, two};

    #[test]
    fn combinations_come_in_increasing_order() {
        let all: Vec<u64> = combinations(2, 4).collect();
        assert_eq!(all, [0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100]);
        assert_eq!(combinations(1, 3).collect::<Vec<_>>(), [1, 2, 4]);
        assert_eq!(combinations(3, 2).count(), 0);
        let all: Vec<u64> = combinations(3, 5).collect();
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

    /// A grid that keeps its places and planes through `apply` has the
    /// same as one that works them out afresh, on a 9x9 board (planes
    /// kept) and a 16x16 one (places only), placements and eliminations
    /// mixed as a path's steps mix them.
    #[test]
    fn kept_places_and_planes_are_worked_out_ones() {
        use super::Pencil;
        use crate::puzzle::Puzzle;
        use crate::puzzle::grid::{Clue, Grid, Size};
        for side in [9usize, 16] {
            let size = Size::from_side(side).unwrap();
            let (h, w) = size.region_shape().unwrap();
            // The pattern solution: each row the one above shifted by a
            // box's width, by one more at each band.
            let cells: Vec<u8> = (0..size.cells())
                .map(|i| {
                    let (r, c) = (i / side, i % side);
                    ((w * (r % h) + r / h + c) % side) as u8 + 1
                })
                .collect();
            let solution = Grid::from_cells(size, &cells).unwrap();
            let puzzle = Puzzle::classic(Grid::empty(size));
            let mut p = Pencil::new(&puzzle).unwrap();
            let mut state = 12345u64;
            let mut next = |n: usize| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (state >> 33) as usize % n
            };
            while !p.is_solved() {
                let _ = (p.places(), p.planes());
                let mut eliminations = Vec::new();
                for _ in 0..next(4) {
                    let c = next(size.cells());
                    let d = next(side) as u8 + 1;
                    if p.has(c, d) && solution.get(c) != d {
                        eliminations.push(Clue {
                            cell: p.cell(c),
                            digit: d,
                        });
                    }
                }
                let open: Vec<usize> = (0..size.cells()).filter(|&c| p.value(c) == 0).collect();
                let c = open[next(open.len())];
                let placements = [Clue {
                    cell: p.cell(c),
                    digit: solution.get(c),
                }];
                p.apply(&placements, &eliminations);
                let fresh: Vec<[u32; 25]> = (0..p.geometry().houses().len())
                    .map(|h| p.all_positions(h))
                    .collect();
                assert_eq!(p.places(), &fresh[..]);
                if let Some(planes) = p.planes() {
                    for (d, &plane) in planes.iter().enumerate() {
                        let cells = (0..size.cells()).filter(|&c| p.candidates(c) >> d & 1 == 1);
                        assert_eq!(plane, cells.fold(0u128, |m, c| m | 1 << c));
                    }
                } else {
                    assert!(size.cells() > 128);
                }
            }
        }
    }

    #[test]
    fn two_is_exactly_two_digits() {
        for set in 0u32..(1 << 12) {
            assert_eq!(two(set), set.count_ones() == 2, "{set:b}");
        }
        assert!(two(1 << 24 | 1));
        assert!(!two(u32::MAX));
    }
}
