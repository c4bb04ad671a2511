//! The 9x9 fast path.
//!
//! The board is cut into its three horizontal bands of three rows. For each
//! band and digit, one 27-bit word holds the cells of the band that digit
//! may still take: bit `9 r + c` for row `r` of the band and column `c`, so
//! cell `27 b + i` of the board is bit `i` of band `b`. A placed digit keeps
//! its own bit, so every group holds at least one bit of every digit while
//! the board can still be solved. Rows and boxes lie inside one band and a
//! column crosses the three bands at the same bits, so every update is a
//! handful of 32-bit operations. The whole board is about 120 bytes, so the
//! search copies it at each branch rather than undoing moves.

use super::{Flow, Search};
use crate::puzzle::grid::{Grid, Size};
use std::ops::ControlFlow;
use wide::{CmpEq, i32x4};

/// Every cell of a band.
const BAND: u32 = (1 << 27) - 1;

/// One row of a band.
const ROW: u32 = 0x1ff;

/// A set of columns (nine bits) times this is those columns in each row of
/// a band.
const ROWS_OF: u32 = 1 | 1 << 9 | 1 << 18;

/// The three boxes of a band.
const BOXES: [u32; 3] = [0x7 * ROWS_OF, 0x38 * ROWS_OF, 0x1c0 * ROWS_OF];

/// Each cell's peers inside its band: the rest of its row and box.
const BAND_PEERS: [u32; 27] = {
    let mut peers = [0; 27];
    let mut i = 0;
    while i < 27 {
        peers[i] = ((ROW << (i / 9 * 9)) | BOXES[i % 9 / 3]) & !(1 << i);
        i += 1;
    }
    peers
};

/// Locked candidates on a 3x3 matrix of segments: three lines (rows of a
/// band, or boxes of a stack) times three blocks (boxes of a band, or
/// columns of a stack), where a digit takes one segment in each line and
/// in each block. Index: the segments that may hold the digit, bit `3 r + k`
/// for line `r` and block `k`. Value: those that keep it once every block
/// with its places in one line has taken that line from the other blocks,
/// and every line with its places in one block has taken that block from
/// the other lines, to a fixed point; 0 when a line or block is left
/// without a place. In a band this is pointing and claiming along rows; in
/// a stack, along columns.
const KEPT: [u16; 512] = {
    let mut keep = [0; 512];
    let mut index = 0;
    while index < 512 {
        let mut segs: usize = index;
        let mut stable = false;
        while !stable {
            let before = segs;
            let mut k = 0;
            while k < 3 {
                let rows = (segs >> k) & 0b1001001;
                if rows != 0 && rows & (rows - 1) == 0 {
                    // Block k holds the digit in one line only: the
                    // line's other blocks lose it.
                    let row = rows.trailing_zeros() / 3;
                    segs &= !(7 << (3 * row)) | 1 << (3 * row + k);
                }
                let row = (segs >> (3 * k)) & 7;
                if row != 0 && row & (row - 1) == 0 {
                    // Line k holds the digit in one block only: the
                    // block's other lines lose it.
                    let bx = row.trailing_zeros();
                    segs &= !(0b1001001 << bx) | 1 << (3 * k + bx);
                }
                k += 1;
            }
            stable = segs == before;
        }
        let mut ok = true;
        let mut k = 0;
        while k < 3 {
            ok &= (segs >> k) & 0b1001001 != 0 && (segs >> (3 * k)) & 7 != 0;
            k += 1;
        }
        if ok {
            keep[index] = segs as u16;
        }
        index += 1;
    }
    keep
};

/// Locked candidates inside a band: [`KEPT`] on the band's rows and boxes,
/// as the cells of the band the digit keeps (0 when none can).
const LOCKED: [u32; 512] = {
    let mut keep = [0; 512];
    let mut index = 0;
    while index < 512 {
        let segs = KEPT[index] as usize;
        let mut seg = 0;
        while seg < 9 {
            if segs >> seg & 1 != 0 {
                keep[index] |= 7 << (9 * (seg / 3) + 3 * (seg % 3));
            }
            seg += 1;
        }
        index += 1;
    }
    keep
};

/// Four 32-bit lanes, for four digits of one band.
type Lanes = i32x4;

/// Nothing, in every lane.
const NONE: Lanes = Lanes::new([0; 4]);

/// Each lane alone (all ones there).
const LANE: [Lanes; 4] = [
    Lanes::new([-1, 0, 0, 0]),
    Lanes::new([0, -1, 0, 0]),
    Lanes::new([0, 0, -1, 0]),
    Lanes::new([0, 0, 0, -1]),
];

/// The lanes of each group of four digits that stand for a digit: the last
/// group has digit 9 alone.
const DIGITS: [Lanes; 3] = [Lanes::new([-1; 4]), Lanes::new([-1; 4]), LANE[0]];

/// Every cell of a band, in the lanes of each group that stand for a digit.
const FULL: [Lanes; 3] = [
    Lanes::new([BAND as i32; 4]),
    Lanes::new([BAND as i32; 4]),
    Lanes::new([BAND as i32, 0, 0, 0]),
];

/// `word` in every lane.
#[inline(always)]
fn splat(word: u32) -> Lanes {
    Lanes::splat(word as i32)
}

/// Each lane with at most one bit: all ones there, else zero.
#[inline(always)]
fn at_most_one(v: Lanes) -> Lanes {
    (v & (v - Lanes::splat(1))).cmp_eq(NONE)
}

/// Lane `k` of `v`, as a word.
#[inline(always)]
fn lane(v: &Lanes, k: usize) -> u32 {
    v.as_array_ref()[k] as u32
}

/// A board in the middle of a search.
///
/// For each band, its nine digits' words in three 128-bit vectors (through
/// `wide`, SSE2 on every x86-64), four digits a vector: the hidden singles
/// of four digits are looked for at once, lane by lane, and the counts over
/// the digits take three vector operations and a fold of four lanes.
#[derive(Clone, Copy)]
struct Board {
    /// For each band and group of four digits, lane `k` of group `g` for
    /// digit `4 g + k + 1`: the band's cells the digit may take (or has
    /// taken). The last group's lanes 1 to 3 stay empty.
    cells: [[Lanes; 3]; 3],
    /// For each band, its cells without a digit yet.
    open: [u32; 3],
    /// The digits (bit `d` for digit `d + 1`) that lost a place since their
    /// hidden singles were last looked for: the others have none to give.
    dirty: u16,
}

impl Board {
    /// Band `b`'s word of digit `d + 1`.
    #[inline(always)]
    fn word(&self, d: usize, b: usize) -> u32 {
        lane(&self.cells[b][d / 4], d % 4)
    }

    /// Puts digit `d + 1` in cell `i` of band `b`, which must allow it.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, i: usize) {
        let m = splat(1 << i);
        let mut lost = 0;
        for (g, group) in self.cells[b].iter_mut().enumerate() {
            lost |= (((*group & m).cmp_eq(m).move_mask()) as u16) << (4 * g);
            *group &= !m;
        }
        self.dirty |= lost;
        self.place_single(d, b, i);
    }

    /// Puts digit `d + 1` in cell `i` of band `b`, its only candidate:
    /// the other digits have nothing to lose there.
    #[inline(always)]
    fn place_single(&mut self, d: usize, b: usize, i: usize) {
        let (g, k) = (d / 4, d % 4);
        self.dirty |= 1 << d;
        let cells = &mut self.cells;
        cells[b][g] = (cells[b][g] & !(splat(BAND_PEERS[i]) & LANE[k])) | (splat(1 << i) & LANE[k]);
        let column = splat((1 << (i % 9)) * ROWS_OF) & LANE[k];
        for other in [(b + 1) % 3, (b + 2) % 3] {
            cells[other][g] &= !column;
        }
        self.open[b] &= !(1 << i);
    }

    /// Fills naked and hidden singles and takes locked candidates (along
    /// rows in each sweep, along columns once the sweeps have nothing left)
    /// until nothing changes. `false` when the board turns out unsolvable:
    /// a cell without candidates, or a digit without a place in some group.
    #[inline]
    fn propagate(&mut self) -> bool {
        loop {
            let mut placed = false;
            for b in 0..3 {
                // Bit-sliced counting over the digits: lane by lane over
                // the three groups, then over the four lanes.
                let [g0, g1, g2] = self.cells[b];
                let twice = (g0 & g1) | (g2 & (g0 | g1));
                let once = (g0 | g1 | g2).to_array().map(|w| w as u32);
                let twice = twice.to_array().map(|w| w as u32);
                let twice = twice[0]
                    | twice[1]
                    | twice[2]
                    | twice[3]
                    | (once[0] & once[1])
                    | ((once[0] | once[1]) & (once[2] | once[3]))
                    | (once[2] & once[3]);
                let once = once[0] | once[1] | once[2] | once[3];
                let open = self.open[b];
                if open & !once != 0 {
                    return false;
                }
                let singles = open & !twice;
                if singles != 0 {
                    placed = true;
                    for d in 0..9 {
                        let mut hits = self.word(d, b) & singles;
                        while hits != 0 {
                            let i = hits.trailing_zeros() as usize;
                            hits &= hits - 1;
                            // A single of this round may have taken the
                            // cell's last digit.
                            if self.word(d, b) & (1 << i) == 0 {
                                return false;
                            }
                            self.place_single(d, b, i);
                        }
                    }
                }
            }
            if placed {
                continue;
            }
            match self.hidden_singles() {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            match self.columns_locked() {
                None => return false,
                Some(true) => {}
                Some(false) => return true,
            }
        }
    }

    /// Fills every hidden single: a digit with one place left in a row,
    /// column or box. `None` on a contradiction (a digit with no place in a
    /// group), else whether anything was placed.
    #[inline]
    fn hidden_singles(&mut self) -> Option<bool> {
        let mut placed = false;
        while self.dirty != 0 {
            // The four digits of the first group with a changed digit.
            let g = self.dirty.trailing_zeros() as usize / 4;
            self.dirty &= !(0xf << (4 * g));
            let mut words = [NONE; 3];
            let mut found = [NONE; 3];
            let (mut once, mut twice) = (NONE, NONE);
            for b in 0..3 {
                let word = self.cells[b][g];
                // Locked candidates along rows: which of the band's nine
                // row-box segments hold each digit, as a 9-bit index.
                let segs = (word | word >> 1u32 | word >> 2u32) & splat(0x49 * ROWS_OF);
                let segs = segs | segs >> 2u32 | segs >> 4u32;
                let segs = ((segs & splat(7))
                    | (segs >> 6u32 & splat(0x38))
                    | (segs >> 12u32 & splat(0x1c0)))
                .to_array();
                let kept = Lanes::new(segs.map(|s| LOCKED[s as usize] as i32));
                let word = word & kept;
                if (word.cmp_eq(NONE) & DIGITS[g]).any() {
                    return None;
                }
                if word != self.cells[b][g] {
                    // Fewer candidates may leave naked singles.
                    self.cells[b][g] = word;
                    placed = true;
                }
                // Rows and boxes with one place; bit-sliced counts of each
                // column's places over the nine rows.
                let mut hits = NONE;
                for r in 0..3 {
                    let row = word >> (9 * r as u32) & splat(ROW);
                    hits |= (row & at_most_one(row)) << (9 * r as u32);
                    twice |= once & row;
                    once |= row;
                }
                for boxed in BOXES {
                    let boxed = word & splat(boxed);
                    hits |= boxed & at_most_one(boxed);
                }
                words[b] = word;
                found[b] = hits;
            }
            if !(once.cmp_eq(splat(ROW)) | !DIGITS[g]).all() {
                return None;
            }
            let columns = once & !twice;
            let columns = columns | columns << 9u32 | columns << 18u32;
            for b in 0..3 {
                let hits = ((found[b] | (words[b] & columns)) & splat(self.open[b])).to_array();
                for (k, &hits) in hits.iter().enumerate() {
                    let d = 4 * g + k;
                    let mut hits = hits as u32;
                    while hits != 0 {
                        let i = hits.trailing_zeros() as usize;
                        hits &= hits - 1;
                        // A hit of this round may have taken another's place.
                        if self.word(d, b) & (1 << i) == 0 {
                            return None;
                        }
                        self.place(d, b, i);
                        placed = true;
                    }
                }
            }
        }
        Some(placed)
    }

    /// Locked candidates along columns, for every digit, once the sweeps
    /// of singles and of locked candidates along rows have nothing left:
    /// [`KEPT`] on each stack's 3x3 matrix of bands by columns, from the
    /// columns each band's word holds. Run here rather than in every sweep
    /// it cuts slightly more nodes for less work, since between two
    /// fixpoints a digit's columns are read once instead of at each
    /// sweep. `None` when a digit is left without a place in a band, else
    /// whether any candidate went (the digit is then swept again).
    fn columns_locked(&mut self) -> Option<bool> {
        let mut changed = false;
        for d in 0..9 {
            let columns = [0, 1, 2].map(|b| {
                let word = self.word(d, b);
                (word | word >> 9 | word >> 18) & ROW
            });
            let mut kept = [0; 3];
            for stack in 0..3 {
                let segs = (columns[0] >> (3 * stack) & 7)
                    | (columns[1] >> (3 * stack) & 7) << 3
                    | (columns[2] >> (3 * stack) & 7) << 6;
                let segs = u32::from(KEPT[segs as usize]);
                for (b, kept) in kept.iter_mut().enumerate() {
                    *kept |= (segs >> (3 * b) & 7) << (3 * stack);
                }
            }
            for (b, kept) in kept.into_iter().enumerate() {
                let old = self.word(d, b);
                let word = old & (kept * ROWS_OF);
                if word == 0 {
                    return None;
                }
                if word != old {
                    let cells = &mut self.cells[b][d / 4];
                    *cells &= !(splat(old & !word) & LANE[d % 4]);
                    self.dirty |= 1 << d;
                    changed = true;
                }
            }
        }
        Some(changed)
    }

    /// The open cell to branch on, as band and bit, with its candidates.
    ///
    /// A cell with two candidates if there is one: of those, the one with
    /// the most open peers, whose two branches fill or narrow the most cells
    /// and so end soonest (this halves the search against taking the first
    /// such cell). Else a cell with the fewest candidates.
    fn pivot(&self) -> (usize, usize, u16) {
        let mut best = (0, 0, 0);
        for b in 0..3 {
            let (mut one, mut two, mut three) = (0, 0, 0);
            for d in 0..9 {
                let word = self.word(d, b);
                three |= two & word;
                two |= one & word;
                one |= word;
            }
            let mut pairs = two & !three & self.open[b];
            while pairs != 0 {
                let i = pairs.trailing_zeros() as usize;
                pairs &= pairs - 1;
                // The open peers gathered into one word, for one count: the
                // column in the other bands is shifted to bits 0, 1, 9, 10,
                // 18 and 19, above the row and box.
                let column = (1 << (i % 9)) * ROWS_OF;
                let across = ((self.open[(b + 1) % 3] & column)
                    | (self.open[(b + 2) % 3] & column) << 1)
                    >> (i % 9);
                let open = (u64::from(across) << 27 | u64::from(self.open[b] & BAND_PEERS[i]))
                    .count_ones()
                    + 1;
                if open > best.0 {
                    best = (open, b, i);
                }
            }
        }
        if best.0 > 0 {
            return (best.1, best.2, self.candidates(best.1, best.2));
        }
        let mut best = (u32::MAX, 0, 0);
        for b in 0..3 {
            let mut open = self.open[b];
            while open != 0 {
                let i = open.trailing_zeros() as usize;
                open &= open - 1;
                let count = self.candidates(b, i).count_ones();
                if count < best.0 {
                    best = (count, b, i);
                }
            }
        }
        (best.1, best.2, self.candidates(best.1, best.2))
    }

    /// The digits cell `i` of band `b` may take, bit `d` for digit `d + 1`.
    fn candidates(&self, b: usize, i: usize) -> u16 {
        let mut digits = 0;
        for d in 0..9 {
            digits |= (((self.word(d, b) >> i) & 1) as u16) << d;
        }
        digits
    }

    /// Whether no cell is open.
    fn solved(&self) -> bool {
        self.open == [0; 3]
    }

    /// The solved board, once no cell is open.
    fn grid(&self) -> Grid {
        let mut grid = Grid::empty(Size::NINE);
        for b in 0..3 {
            for d in 0..9 {
                let mut word = self.word(d, b);
                while word != 0 {
                    grid.set(27 * b + word.trailing_zeros() as usize, d as u8 + 1);
                    word &= word - 1;
                }
            }
        }
        grid
    }
}

/// Visits every solution of the 9x9 `puzzle` until `search` stops.
pub(super) fn solve(puzzle: &Grid, search: &mut Search<'_>) -> Flow {
    let mut board = Board {
        cells: [FULL; 3],
        open: [BAND; 3],
        dirty: 0x1ff,
    };
    for (cell, digit) in puzzle.clues() {
        let (d, b, i) = (usize::from(digit) - 1, cell / 27, cell % 27);
        if board.word(d, b) & (1 << i) == 0 {
            // Two clues share a digit in a group.
            return ControlFlow::Continue(());
        }
        board.place(d, b, i);
    }
    board.dirty = 0x1ff;
    descend(board, search)
}

fn descend(mut board: Board, search: &mut Search<'_>) -> Flow {
    search.node()?;
    if !board.propagate() {
        return ControlFlow::Continue(());
    }
    if board.solved() {
        return search.found(&board.grid());
    }
    let (b, i, mut digits) = board.pivot();
    while digits != 0 {
        let d = digits.trailing_zeros() as usize;
        digits &= digits - 1;
        let mut next = board;
        next.place(d, b, i);
        descend(next, search)?;
    }
    ControlFlow::Continue(())
}
