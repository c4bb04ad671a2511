//! The 9x9 fast path in AVX2 vectors, for processors that have them.
//!
//! The state is laid out as tdoku's write-up describes (its triads and
//! bands), as clauses a vector can settle at once:
//!
//! - **A box** is one 256-bit vector of sixteen 9-bit digit sets, read as a
//!   4x4 matrix: lane `4 i + j` for `i, j < 3` is the cell in row `i`,
//!   column `j` of the box; lane `4 i + 3` holds the digits that may still
//!   be *absent* from minirow `i` (the three cells of row `i` in the box);
//!   lane `12 + j` the digits that may be absent from minicolumn `j`; lane
//!   15 is unused and stays empty. Each row and each column of the matrix
//!   then holds every digit exactly once (in one cell of the minirow, or
//!   as absent), each cell holds at least one digit and each absence lane
//!   at least six (a minirow holds three digits).
//! - **A band** (three rows of boxes, or three columns) is one 128-bit
//!   vector whose lane `k < 6` holds the digits that may still take
//!   arrangement `k`: the minirow of each of its three boxes that the
//!   digit sits in is one of six permutations ([`PERM`]).
//!
//! Propagation passes messages between the two until neither changes: a
//! band narrows its boxes to what its arrangements allow, and a box,
//! settled by the clauses above, narrows its two bands to the arrangements
//! it allows. The search branches as the scalar path does, on one digit's
//! arrangement in the band with the fewest left, but in two: the digit's
//! first arrangement, then all the others.
//!
//! Safe Rust reaches AVX2 through `pulp`, which checks the processor once
//! and runs a closure with the instruction set enabled; every function of
//! the search that touches the vectors is `#[inline(always)]` so that it is
//! compiled inside that closure, and the search keeps its own stack instead
//! of recursing (a recursive function could not be inlined into it).

use super::{Flow, Search};
use crate::puzzle::check::classic_without_repeats;
use crate::puzzle::grid::{Grid, Size};
use core::arch::x86_64::{__m128i, __m256i};
use pulp::cast;
use pulp::x86::V3;
use std::ops::ControlFlow;

const ALL: u16 = 0x1ff;

/// The six arrangements of a digit over a band: `PERM[k][q]` is the
/// minirow (or minicolumn) of the band's box `q` that holds the digit.
const PERM: [[usize; 3]; 6] = [
    [0, 1, 2],
    [1, 2, 0],
    [2, 0, 1],
    [0, 2, 1],
    [2, 1, 0],
    [1, 0, 2],
];

type Lanes = [u16; 16];
type Control = [u8; 32];
type HalfControl = [u8; 16];

/// A box-shaped vector: `cell` in the cells, `absent_row` in the minirows'
/// absence lanes, `absent_column` in the minicolumns', 0 in lane 15.
const fn box_lanes(cell: u16, absent_row: u16, absent_column: u16) -> Lanes {
    let mut out = [0; 16];
    let mut l = 0;
    while l < 15 {
        out[l] = if l < 12 && l % 4 < 3 {
            cell
        } else if l % 4 == 3 {
            absent_row
        } else {
            absent_column
        };
        l += 1;
    }
    out
}

const CELLS: Lanes = box_lanes(0xffff, 0, 0);
const ABSENT_ROW: Lanes = box_lanes(0, 0xffff, 0);
const ABSENT_COLUMN: Lanes = box_lanes(0, 0, 0xffff);
const ABSENT: Lanes = box_lanes(0, 0xffff, 0xffff);
/// The fewest digits each lane may keep.
const MIN: Lanes = box_lanes(1, 6, 6);
const OPEN_BOX: Lanes = box_lanes(ALL, ALL, ALL);

/// A byte shuffle (`vpshufb`, which stays within each 128-bit half) that
/// moves 16-bit lane `src[l]` of the half to lane `l`; 255 gives 0.
const fn lane_shuffle<const N: usize, const B: usize>(src: [u8; N]) -> [u8; B] {
    let mut out = [0; B];
    let mut l = 0;
    while l < N {
        let (lo, hi) = if src[l] == 255 {
            (0x80, 0x80)
        } else {
            (2 * src[l], 2 * src[l] + 1)
        };
        out[2 * l] = lo;
        out[2 * l + 1] = hi;
        l += 1;
    }
    out
}

/// Each lane from the next (second, third) lane of its matrix row.
const ROW_NEXT: Control = lane_shuffle([1, 2, 3, 0, 5, 6, 7, 4, 1, 2, 3, 0, 5, 6, 7, 4]);
const ROW_NEXT2: Control = lane_shuffle([2, 3, 0, 1, 6, 7, 4, 5, 2, 3, 0, 1, 6, 7, 4, 5]);
const ROW_NEXT3: Control = lane_shuffle([3, 0, 1, 2, 7, 4, 5, 6, 3, 0, 1, 2, 7, 4, 5, 6]);
/// Each lane from the last lane of its matrix row (the absence lane).
const ROW_LAST: Control = lane_shuffle([3, 3, 3, 3, 7, 7, 7, 7, 3, 3, 3, 3, 7, 7, 7, 7]);
/// The minicolumns' absence lanes 12, 13, 14 rotated by one (and two).
const ABSENT_COLUMN_NEXT: Control = lane_shuffle([0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 5, 6, 4, 7]);
const ABSENT_COLUMN_NEXT2: Control = lane_shuffle([0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 6, 4, 5, 7]);

/// `vpermq` patterns on the four matrix rows (64 bits each): row `i` from
/// row `i + 2` (mod 4), the other 128-bit half; from row 3; and among the
/// three rows of cells only, `i` from `i + 1` and `i + 2` (mod 3). Moves
/// across the halves cost more than those within them (`vpshufd`), so
/// [`Ops::column_others`] makes one of them do.
const QUAD_NEXT2: i32 = 0b01_00_11_10;
const QUAD_LAST: i32 = 0b11_11_11_11;
/// `vpshufd` pattern: each 64-bit row from the other row of its half.
const PAIR_SWAP: i32 = 0b01_00_11_10;
const CELL_QUAD_NEXT: i32 = 0b11_00_10_01;
const CELL_QUAD_NEXT2: i32 = 0b11_01_00_10;

/// The population count of each nibble, for `vpshufb`.
const NIBBLE_COUNT: Control = {
    let mut out = [0; 32];
    let mut i = 0;
    while i < 32 {
        out[i] = (i % 16).count_ones() as u8;
        i += 1;
    }
    out
};

/// The `s`-th arrangement `k` (of two) with `PERM[k][q] == elem`.
const fn nth_arrangement(q: usize, elem: usize, s: usize) -> u8 {
    let mut seen = 0;
    let mut k = 0;
    while k < 6 {
        if PERM[k][q] == elem {
            if seen == s {
                return k as u8;
            }
            seen += 1;
        }
        k += 1;
    }
    255
}

const BAND_FREE: [Lanes; 2] = [box_lanes(0, 0, ALL), box_lanes(0, ALL, 0)];

/// Two shuffles of a band's arrangements whose union holds, at lane
/// `4 q + e`, the digits that may sit in element `e` of box `q`.
const TRIADS: [Control; 2] = {
    let mut out = [[0; 32]; 2];
    let mut s = 0;
    while s < 2 {
        let mut src = [255; 16];
        let mut q = 0;
        while q < 3 {
            let mut e = 0;
            while e < 3 {
                src[4 * q + e] = nth_arrangement(q, e, s);
                e += 1;
            }
            q += 1;
        }
        out[s] = lane_shuffle(src);
        s += 1;
    }
    out
};

/// `FROM_TRIADS[o][q]`: two shuffles of the triads (box `q`'s lanes of
/// [`TRIADS`] in both halves) whose union narrows box `q` of a band of rows
/// (`o` 0) or of columns (1): a cell to the digits that may sit in its
/// minirow (minicolumn), the minirow's absence lane to those that may sit in
/// either other one. [`BAND_FREE`] fills the lanes the band says nothing
/// about.
const FROM_TRIADS: [[[Control; 2]; 3]; 2] = {
    let mut out = [[[[0; 32]; 2]; 3]; 2];
    let mut o = 0;
    while o < 2 {
        let mut q = 0;
        while q < 3 {
            let base = 4 * (q % 2);
            let mut s = 0;
            while s < 2 {
                let mut src = [255; 16];
                let mut l = 0;
                while l < 15 {
                    let (i, j) = (l / 4, l % 4);
                    src[l] = if i < 3 && j < 3 {
                        (base + if o == 0 { i } else { j }) as u8
                    } else if o == 0 && j == 3 {
                        (base + (i + 1 + s) % 3) as u8
                    } else if o == 1 && i == 3 {
                        (base + (j + 1 + s) % 3) as u8
                    } else {
                        255
                    };
                    l += 1;
                }
                out[o][q][s] = lane_shuffle(src);
                s += 1;
            }
            q += 1;
        }
        o += 1;
    }
    out
};

/// Three at the lanes [`TRIADS`] fills.
const TRIAD_MIN: Lanes = [3, 3, 3, 0, 3, 3, 3, 0, 3, 3, 3, 0, 0, 0, 0, 0];
/// At lane `4 q + e`, lane `4 q + (e + 1) % 3` (and `+ 2`): the box's other
/// elements.
const TRIAD_NEXT: Control =
    lane_shuffle([1, 2, 0, 255, 5, 6, 4, 255, 1, 2, 0, 255, 255, 255, 255, 255]);
const TRIAD_NEXT2: Control =
    lane_shuffle([2, 0, 1, 255, 6, 4, 5, 255, 2, 0, 1, 255, 255, 255, 255, 255]);

/// Gathers lane `k` of a band from lane `4 q + PERM[k][q]` of a
/// [`TRIADS`]-shaped vector: boxes 0 and 1 from its low half, box 2 from
/// its high half.
const TRIAD_TO_BAND: [HalfControl; 3] = {
    let mut out = [[0; 16]; 3];
    let mut q = 0;
    while q < 3 {
        let mut src = [255; 8];
        let mut k = 0;
        while k < 6 {
            src[k] = (4 * (q % 2) + PERM[k][q]) as u8;
            k += 1;
        }
        out[q] = lane_shuffle(src);
        q += 1;
    }
    out
};

/// `BOX_TO_ROWS[q]` gathers lane `k` of a band of rows from what its box
/// `q` allows in minirow `PERM[k][q]`: minirows 0 and 1 from lanes 3 and 7
/// of the low half, minirow 2 from lane 3 of the high half.
const BOX_TO_ROWS: [[HalfControl; 2]; 3] = {
    let mut out = [[[0; 16]; 2]; 3];
    let mut q = 0;
    while q < 3 {
        let mut lo = [255; 8];
        let mut hi = [255; 8];
        let mut k = 0;
        while k < 6 {
            match PERM[k][q] {
                0 => lo[k] = 3,
                1 => lo[k] = 7,
                _ => hi[k] = 3,
            }
            k += 1;
        }
        out[q] = [lane_shuffle(lo), lane_shuffle(hi)];
        q += 1;
    }
    out
};

/// `BOX_TO_COLUMNS[q]` the same for a band of columns, from lanes 4, 5, 6
/// of the high half (the box's lanes 12, 13, 14).
const BOX_TO_COLUMNS: [HalfControl; 3] = {
    let mut out = [[0; 16]; 3];
    let mut q = 0;
    while q < 3 {
        let mut hi = [255; 8];
        let mut k = 0;
        while k < 6 {
            hi[k] = 4 + PERM[k][q] as u8;
            k += 1;
        }
        out[q] = lane_shuffle(hi);
        q += 1;
    }
    out
};

#[derive(Clone, Copy)]
struct State {
    boxes: [__m256i; 9],
    /// Bands 0, 1, 2 of rows, 3, 4, 5 of columns.
    bands: [__m128i; 6],
    /// What changed since it was last settled, one bit each.
    dirty_boxes: u16,
    dirty_bands: u8,
}

/// The AVX2 search, on a processor that has AVX2 (and the rest of x86-64's
/// third level, as `pulp` checks it), with the stack it keeps between
/// puzzles.
pub(super) struct Avx2 {
    v3: V3,
    stack: Vec<State>,
}

impl Avx2 {
    /// The search, when this processor can run it.
    pub(super) fn detect() -> Option<Avx2> {
        Some(Avx2 {
            v3: V3::try_new()?,
            stack: Vec::new(),
        })
    }

    /// Visits every solution of the 9x9 `puzzle` until `search` stops.
    pub(super) fn solve(&mut self, puzzle: &Grid, search: &mut Search<'_>) -> Flow {
        let v3 = self.v3;
        let stack = &mut self.stack;
        v3.vectorize(
            #[inline(always)]
            move || run(Ops(v3), puzzle, search, stack),
        )
    }
}

#[inline(always)]
fn run(ops: Ops, puzzle: &Grid, search: &mut Search<'_>, stack: &mut Vec<State>) -> Flow {
    // Each clue fixes its cell, and in both its bands the minirow and
    // minicolumn of its digit: the bands start narrowed, so that their
    // first settling narrows every box at once. Two clues that share a
    // digit in a group leave it no arrangement in some band, which the
    // first choice of a branch finds.
    let mut boxes = [OPEN_BOX; 9];
    let mut bands = [[ALL, ALL, ALL, ALL, ALL, ALL, 0, 0]; 6];
    for (cell, digit) in puzzle.clues() {
        let (r, c) = (cell / 9, cell % 9);
        let (b, bit) = (3 * (r / 3) + c / 3, 1 << (digit - 1));
        boxes[b][4 * (r % 3) + c % 3] = bit;
        for (k, perm) in PERM.iter().enumerate() {
            if perm[c / 3] != r % 3 {
                bands[r / 3][k] &= !bit;
            }
            if perm[r / 3] != c % 3 {
                bands[3 + c / 3][k] &= !bit;
            }
        }
    }
    let mut state = State {
        boxes: boxes.map(cast),
        bands: bands.map(cast),
        dirty_boxes: 0x1ff,
        dirty_bands: 0x3f,
    };
    stack.clear();
    loop {
        search.node()?;
        if ops.propagate(&mut state) {
            match choose(&state) {
                Choice::Solved => {
                    if let Some(grid) = solution(&state) {
                        search.found(&grid)?;
                    }
                }
                Choice::Branch { band, digit, k } => {
                    // Arrangement `k` of the digit first, the others later.
                    let bit = 1 << digit;
                    let lanes: [u16; 8] = cast(state.bands[band]);
                    let mut others = lanes;
                    others[k] &= !bit;
                    let mut rest = state;
                    rest.bands[band] = cast(others);
                    rest.dirty_bands = 1 << band;
                    rest.dirty_boxes = 0;
                    stack.push(rest);
                    let first: [u16; 8] =
                        std::array::from_fn(|i| if i == k { lanes[i] } else { lanes[i] & !bit });
                    state.bands[band] = cast(first);
                    state.dirty_bands = 1 << band;
                    state.dirty_boxes = 0;
                    continue;
                }
                Choice::Dead => {}
            }
        }
        match stack.pop() {
            Some(next) => state = next,
            None => return ControlFlow::Continue(()),
        }
    }
}

enum Choice {
    /// Every band has one arrangement left for each digit.
    Solved,
    /// A band has no arrangement left for a digit.
    Dead,
    Branch {
        band: usize,
        digit: usize,
        k: usize,
    },
}

/// The band with the fewest arrangements left (summed over its digits)
/// among those not fixed, in it a digit with the fewest, and that digit's
/// first arrangement.
#[inline(always)]
fn choose(s: &State) -> Choice {
    let mut best = (u32::MAX, 0);
    for (i, &band) in s.bands.iter().enumerate() {
        let lanes: [u16; 8] = cast(band);
        if lanes.iter().fold(0, |a, l| a | l) != ALL {
            return Choice::Dead;
        }
        let [lo, hi]: [u64; 2] = cast(band);
        let n = lo.count_ones() + hi.count_ones();
        if n > 9 && n < best.0 {
            best = (n, i);
        }
    }
    if best.0 == u32::MAX {
        return Choice::Solved;
    }
    let band = best.1;
    let lanes: [u16; 8] = cast(s.bands[band]);
    // at_least[n]: the digits with more than n arrangements left.
    let mut at_least = [0u16; 6];
    for &lane in &lanes[..6] {
        for n in (1..6).rev() {
            at_least[n] |= at_least[n - 1] & lane;
        }
        at_least[0] |= lane;
    }
    let fewest = (1..5)
        .map(|n| at_least[n] & !at_least[n + 1])
        .find(|&digits| digits != 0)
        .unwrap_or(at_least[5]);
    let digit = fewest.trailing_zeros() as usize;
    let k = lanes.iter().position(|l| l >> digit & 1 != 0).unwrap_or(0);
    Choice::Branch { band, digit, k }
}

/// The grid of a state whose bands are all fixed, or `None` when its cells
/// do not make one: the bands then place each digit in one cell of each
/// box, so such a state holds at most that one grid.
fn solution(s: &State) -> Option<Grid> {
    let mut grid = Grid::empty(Size::NINE);
    for (b, &lanes) in s.boxes.iter().enumerate() {
        let lanes: Lanes = cast(lanes);
        for l in (0..12).filter(|l| l % 4 < 3) {
            if lanes[l].count_ones() != 1 {
                return None;
            }
            let (r, c) = (3 * (b / 3) + l / 4, 3 * (b % 3) + l % 4);
            grid.set(9 * r + c, lanes[l].trailing_zeros() as u8 + 1);
        }
    }
    classic_without_repeats(&grid).then_some(grid)
}

/// The instructions, through `pulp`'s safe wrappers.
#[derive(Clone, Copy)]
struct Ops(V3);

impl Ops {
    #[inline(always)]
    fn lanes(self, a: Lanes) -> __m256i {
        cast(a)
    }
    #[inline(always)]
    fn and(self, a: __m256i, b: __m256i) -> __m256i {
        self.0.avx2._mm256_and_si256(a, b)
    }
    #[inline(always)]
    fn or(self, a: __m256i, b: __m256i) -> __m256i {
        self.0.avx2._mm256_or_si256(a, b)
    }
    /// `a` without `b`.
    #[inline(always)]
    fn minus(self, a: __m256i, b: __m256i) -> __m256i {
        self.0.avx2._mm256_andnot_si256(b, a)
    }
    #[inline(always)]
    fn shuffle(self, a: __m256i, control: Control) -> __m256i {
        self.0.avx2._mm256_shuffle_epi8(a, cast(control))
    }
    #[inline(always)]
    fn half_shuffle(self, a: __m128i, control: HalfControl) -> __m128i {
        self.0.ssse3._mm_shuffle_epi8(a, cast(control))
    }
    #[inline(always)]
    fn quads<const PATTERN: i32>(self, a: __m256i) -> __m256i {
        self.0.avx2._mm256_permute4x64_epi64::<PATTERN>(a)
    }
    /// All-ones in the lanes where `a` and `b` are equal.
    #[inline(always)]
    fn equal(self, a: __m256i, b: __m256i) -> __m256i {
        self.0.avx2._mm256_cmpeq_epi16(a, b)
    }
    /// Whether some lane of `a` is below that of `min`.
    #[inline(always)]
    fn below(self, a: __m256i, min: __m256i) -> bool {
        !self.empty(self.0.avx2._mm256_cmpgt_epi16(min, a))
    }
    #[inline(always)]
    fn empty(self, a: __m256i) -> bool {
        self.0.avx._mm256_testz_si256(a, a) != 0
    }
    #[inline(always)]
    fn same(self, a: __m256i, b: __m256i) -> bool {
        self.empty(self.0.avx2._mm256_xor_si256(a, b))
    }
    #[inline(always)]
    fn halves(self, a: __m256i) -> (__m128i, __m128i) {
        (
            self.0.avx._mm256_castsi256_si128(a),
            self.0.avx2._mm256_extracti128_si256::<1>(a),
        )
    }
    /// The number of digits in each lane.
    #[inline(always)]
    fn counts(self, a: __m256i) -> __m256i {
        let (x, nibble) = (self.0.avx2, self.0.avx._mm256_set1_epi8(0x0f));
        let table: __m256i = cast(NIBBLE_COUNT);
        let low = x._mm256_shuffle_epi8(table, x._mm256_and_si256(a, nibble));
        let high = x._mm256_shuffle_epi8(
            table,
            x._mm256_and_si256(x._mm256_srli_epi16::<4>(a), nibble),
        );
        let bytes = x._mm256_add_epi8(low, high);
        x._mm256_and_si256(
            x._mm256_add_epi16(bytes, x._mm256_srli_epi16::<8>(bytes)),
            self.0.avx._mm256_set1_epi16(0xff),
        )
    }
    /// Each lane's union with the other lanes of its matrix row.
    #[inline(always)]
    fn row_union(self, a: __m256i) -> __m256i {
        let a = self.or(a, self.shuffle(a, ROW_NEXT));
        self.or(a, self.shuffle(a, ROW_NEXT2))
    }
    /// Each lane's union with the other lanes of its matrix column.
    #[inline(always)]
    fn column_union(self, a: __m256i) -> __m256i {
        self.or(a, self.column_others(a))
    }
    /// At each lane, the union of the other lanes of its matrix column:
    /// one move across the 128-bit halves (matrix rows i and i ^ 2) and two
    /// within them (rows i ^ 1 and i ^ 3), cheaper than three.
    #[inline(always)]
    fn column_others(self, a: __m256i) -> __m256i {
        let across = self.quads::<QUAD_NEXT2>(a);
        let x = self.0.avx2;
        self.or(
            across,
            self.or(
                x._mm256_shuffle_epi32::<PAIR_SWAP>(a),
                x._mm256_shuffle_epi32::<PAIR_SWAP>(across),
            ),
        )
    }

    /// The [`TRIADS`] of a band's arrangements.
    #[inline(always)]
    fn triads(self, arrangements: __m128i) -> __m256i {
        let both = self.0.avx2._mm256_broadcastsi128_si256(arrangements);
        self.or(self.shuffle(both, TRIADS[0]), self.shuffle(both, TRIADS[1]))
    }

    /// Settles every box and band that changed; false on a contradiction.
    #[inline(always)]
    fn propagate(self, s: &mut State) -> bool {
        loop {
            // Bands first: each of them narrows three boxes at once.
            if s.dirty_bands != 0 {
                let band = s.dirty_bands.trailing_zeros() as usize;
                s.dirty_bands &= s.dirty_bands - 1;
                if !self.settle_band(s, band) {
                    return false;
                }
            } else if s.dirty_boxes != 0 {
                let b = s.dirty_boxes.trailing_zeros() as usize;
                s.dirty_boxes &= s.dirty_boxes - 1;
                if !self.settle_box(s, b) {
                    return false;
                }
            } else {
                return true;
            }
        }
    }

    /// Narrows box `b` to a fixed point of its clauses and its two bands to
    /// what it allows; false on a contradiction.
    #[inline(always)]
    fn settle_box(self, s: &mut State, b: usize) -> bool {
        let cell = self.lanes(CELLS);
        let absent_row = self.lanes(ABSENT_ROW);
        let absent_column = self.lanes(ABSENT_COLUMN);
        let absent = self.lanes(ABSENT);
        let min = self.lanes(MIN);
        let mut lanes = s.boxes[b];
        loop {
            let n = self.counts(lanes);
            if self.below(n, min) {
                return false;
            }
            let at_min = self.and(lanes, self.equal(n, min));
            // A digit in one lane of its matrix row (column) is there.
            let row_others = self.or(
                self.or(
                    self.shuffle(lanes, ROW_NEXT),
                    self.shuffle(lanes, ROW_NEXT2),
                ),
                self.shuffle(lanes, ROW_NEXT3),
            );
            let column_others = self.column_others(lanes);
            let alone = self.or(
                self.minus(lanes, row_others),
                self.minus(lanes, column_others),
            );
            // Cells with one digit left, or a digit with no other place.
            let placed = self.and(self.or(at_min, alone), cell);
            // An absence lane down to six digits: they leave its minirow
            // (minicolumn).
            let out = self.and(at_min, absent);
            let out = self.or(self.shuffle(out, ROW_LAST), self.quads::<QUAD_LAST>(out));
            // A placed digit leaves the box's other cells and the absence
            // lanes of its minirow and minicolumn.
            let placed_row = self.row_union(placed);
            let placed_column = self.column_union(placed);
            let placed_box = self.column_union(placed_row);
            let open = self.equal(placed, self.lanes([0; 16]));
            let keep_cell = self.and(
                self.minus(self.or(self.minus(open, placed_box), placed), out),
                cell,
            );
            let taken = self.or(
                self.and(placed_row, absent_row),
                self.and(placed_column, absent_column),
            );
            let next = self.and(lanes, self.or(keep_cell, self.minus(absent, taken)));
            if self.same(next, lanes) {
                break;
            }
            lanes = next;
        }
        s.boxes[b] = lanes;
        // A digit may take minirow e of this box when a cell of it may hold
        // the digit and the other two minirows may lack it.
        let in_cells = self.and(lanes, cell);
        let rows = self.and(
            self.and(
                self.row_union(in_cells),
                self.quads::<CELL_QUAD_NEXT>(lanes),
            ),
            self.quads::<CELL_QUAD_NEXT2>(lanes),
        );
        let columns = self.and(
            self.and(
                self.column_union(in_cells),
                self.shuffle(lanes, ABSENT_COLUMN_NEXT),
            ),
            self.shuffle(lanes, ABSENT_COLUMN_NEXT2),
        );
        let allowed = self.or(self.and(rows, absent_row), self.and(columns, absent_column));
        let (lo, hi) = self.halves(allowed);
        let (row_band, column_band) = (b / 3, b % 3);
        let [from_lo, from_hi] = BOX_TO_ROWS[column_band];
        let by_rows = self.0.sse2._mm_or_si128(
            self.half_shuffle(lo, from_lo),
            self.half_shuffle(hi, from_hi),
        );
        let by_columns = self.half_shuffle(hi, BOX_TO_COLUMNS[row_band]);
        self.narrow_band(s, row_band, by_rows);
        self.narrow_band(s, 3 + column_band, by_columns);
        true
    }

    #[inline(always)]
    fn narrow_band(self, s: &mut State, band: usize, keep: __m128i) {
        let x = self.0.sse2;
        let old = s.bands[band];
        let new = x._mm_and_si128(old, keep);
        let gone = x._mm_xor_si128(old, new);
        // Stored and marked without a branch: whether a message changes a
        // band is close to a coin toss, and a mispredicted branch costs
        // more than the store.
        s.bands[band] = new;
        s.dirty_bands |= u8::from(self.0.sse4_1._mm_testz_si128(gone, gone) == 0) << band;
    }

    /// Narrows band `band` by the triad rule and its three boxes to what
    /// its arrangements allow; false on a contradiction.
    #[inline(always)]
    fn settle_band(self, s: &mut State, band: usize) -> bool {
        // An element (minirow or minicolumn of a box) takes three digits:
        // when only three may sit there, they do, and their arrangements
        // that put them elsewhere in that box go. Done whether or not some
        // element is down to three: the branch would be mispredicted more
        // often than the few instructions cost.
        let arrangements = s.bands[band];
        let triads = self.triads(arrangements);
        let n = self.counts(triads);
        let three = self.lanes(TRIAD_MIN);
        if self.below(n, three) {
            return false;
        }
        let held = self.and(triads, self.equal(n, three));
        let elsewhere = self.or(
            self.shuffle(held, TRIAD_NEXT),
            self.shuffle(held, TRIAD_NEXT2),
        );
        let (lo, hi) = self.halves(elsewhere);
        let sse2 = self.0.sse2;
        let gone = sse2._mm_or_si128(
            sse2._mm_or_si128(
                self.half_shuffle(lo, TRIAD_TO_BAND[0]),
                self.half_shuffle(lo, TRIAD_TO_BAND[1]),
            ),
            self.half_shuffle(hi, TRIAD_TO_BAND[2]),
        );
        let arrangements = sse2._mm_andnot_si128(gone, arrangements);
        s.bands[band] = arrangements;
        let triads = self.triads(arrangements);
        // Boxes 0 and 1's triads are in the low half, box 2's in the high.
        let halves = [
            self.quads::<0b01_00_01_00>(triads),
            self.quads::<0b11_10_11_10>(triads),
        ];
        let (o, t) = (band / 3, band % 3);
        let free = self.lanes(BAND_FREE[o]);
        for (q, [first, second]) in FROM_TRIADS[o].iter().enumerate() {
            let triads = halves[q / 2];
            let allowed = self.or(
                self.or(self.shuffle(triads, *first), self.shuffle(triads, *second)),
                free,
            );
            let b = if o == 0 { 3 * t + q } else { 3 * q + t };
            let old = s.boxes[b];
            let new = self.and(old, allowed);
            // Without a branch, as in `narrow_band`.
            s.boxes[b] = new;
            s.dirty_boxes |= u16::from(!self.same(old, new)) << b;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // tests fail loudly
    use super::super::{NativeEngine, nine, visited};
    use super::*;
    use crate::engine::contract::Settings;
    use crate::puzzle::Puzzle;
    use crate::puzzle::check::verify_solution;
    use rand::seq::SliceRandom;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The AVX2 search, or `None` (said on standard error) on a processor
    /// without AVX2, where the engine uses the scalar search alone.
    fn avx2() -> Option<Avx2> {
        let found = Avx2::detect();
        if found.is_none() {
            eprintln!("this processor has no AVX2: the AVX2 search is not tested here");
        }
        found
    }

    /// Both searches find the same solutions of `givens`, up to `cap`, each
    /// a valid grid; the number found.
    fn agree(avx2: &mut Avx2, givens: &Grid, cap: usize) -> usize {
        let (vector, vector_capped) = visited(cap, &mut |search| avx2.solve(givens, search));
        let (scalar, scalar_capped) = visited(cap, &mut |search| nine::solve(givens, search));
        let line = givens.to_line();
        assert_eq!(vector_capped, scalar_capped, "{line}");
        if vector_capped {
            assert_eq!((vector.len(), scalar.len()), (cap, cap), "{line}");
        } else {
            assert_eq!(vector, scalar, "{line}");
        }
        let mut once = vector.clone();
        once.dedup();
        assert_eq!(once, vector, "{line}: a solution came twice");
        let puzzle = Puzzle::classic(givens.clone());
        for solution in &vector {
            let grid = crate::puzzle::parse::parse_puzzle(solution, None).unwrap();
            assert_eq!(verify_solution(&puzzle, &grid), Ok(()), "{line}");
        }
        vector.len()
    }

    #[test]
    fn finds_what_the_scalar_search_finds() {
        let Some(mut avx2) = avx2() else { return };
        let rules = Puzzle::classic(Grid::empty(Size::NINE));
        let mut engine = NativeEngine::new(&Settings::default());
        let mut rng = ChaCha8Rng::seed_from_u64(34);
        let mut kinds = [0; 3];
        for round in 0..64 {
            let solution = engine.random_solution(&rules, &mut rng).unwrap();
            let mut cells: Vec<usize> = (0..81).collect();
            cells.shuffle(&mut rng);
            let kept = [0, 20, 26, 30, 34, 40, 50, 60][round % 8];
            let mut givens = Grid::empty(Size::NINE);
            for &cell in &cells[..kept] {
                givens.set(cell, solution.get(cell));
            }
            kinds[agree(&mut avx2, &givens, 40).min(2)] += 1;
            // A wrong digit in a blank cell: often no solution at all.
            givens.set(cells[kept], rng.random_range(1..=9));
            kinds[agree(&mut avx2, &givens, 40).min(2)] += 1;
        }
        // Every kind of answer came up: none, one, several.
        assert!(kinds.iter().all(|&k| k >= 10), "{kinds:?}");
    }

    #[test]
    fn clashing_clues_have_no_solution() {
        let Some(mut avx2) = avx2() else { return };
        for (a, b) in [(0, 8), (0, 72), (0, 20), (40, 44)] {
            let mut givens = Grid::empty(Size::NINE);
            givens.set(a, 5);
            givens.set(b, 5);
            assert_eq!(agree(&mut avx2, &givens, 10), 0);
        }
    }

    #[test]
    fn the_arrangements_are_the_six_permutations() {
        // The six are the six permutations of the three elements.
        let mut seen: Vec<[usize; 3]> = PERM.to_vec();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 6);
        assert!(PERM.iter().all(|p| (0..3).all(|e| p.contains(&e))));
    }
}
