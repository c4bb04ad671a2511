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
use wide::u32x4;

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

/// The three bands' words side by side, lane `b` for band `b`; lane 3 is
/// always zero.
const fn lanes(words: [u32; 3]) -> u32x4 {
    u32x4::new([words[0], words[1], words[2], 0])
}

/// Nothing, in every lane.
const NONE: u32x4 = u32x4::new([0; 4]);

/// Every cell of every band.
const ALL: u32x4 = lanes([BAND; 3]);

/// The three band lanes all set: what compares a vector's bands alone.
const THREE: u32x4 = lanes([u32::MAX; 3]);

/// Each cell of the board (`27 b + i`) alone: bit `i` in lane `b`.
const CELL: [u32x4; 81] = {
    let mut cells = [NONE; 81];
    let mut c = 0;
    while c < 81 {
        let mut words = [0; 3];
        words[c / 27] = 1 << (c % 27);
        cells[c] = lanes(words);
        c += 1;
    }
    cells
};

/// Each cell's peers on the whole board: the rest of its row and box in
/// its own band's lane, its column in the other two.
const PEERS: [u32x4; 81] = {
    let mut peers = [NONE; 81];
    let mut c = 0;
    while c < 81 {
        let (b, i) = (c / 27, c % 27);
        let column = (1 << (i % 9)) * ROWS_OF;
        let mut words = [column; 3];
        words[b] = BAND_PEERS[i];
        peers[c] = lanes(words);
        c += 1;
    }
    peers
};

/// Whether no lane has a bit.
#[inline(always)]
fn is_empty(v: u32x4) -> bool {
    v.cmp_eq(NONE).all()
}

/// Whether some band's lane is empty.
#[inline(always)]
fn any_band_empty(v: u32x4) -> bool {
    (v.cmp_eq(NONE) & THREE).any()
}

/// Each lane with at most one bit: all ones there, else zero.
#[inline(always)]
fn at_most_one(v: u32x4) -> u32x4 {
    (v & (v - u32x4::splat(1))).cmp_eq(NONE)
}

/// A board in the middle of a search.
///
/// The words are kept digit by digit, the three bands of a digit in one
/// 128-bit vector (through `wide`, which is SSE2 on every x86-64), so the
/// counts over the nine digits and the peers of a placed digit take one
/// vector operation for all three bands.
#[derive(Clone, Copy)]
struct Board {
    /// For each digit, the cells of each band it may take (or has taken).
    cells: [u32x4; 9],
    /// The cells of each band without a digit yet.
    open: u32x4,
    /// The digits (bit `d` for digit `d + 1`) that lost a place since their
    /// hidden singles were last looked for: the others have none to give.
    dirty: u16,
}

impl Board {
    /// Band `b`'s word of digit `d + 1`.
    #[inline(always)]
    fn word(&self, d: usize, b: usize) -> u32 {
        self.cells[d].as_array_ref()[b]
    }

    /// Puts digit `d + 1` in cell `c`, which must allow it.
    #[inline(always)]
    fn place(&mut self, d: usize, c: usize) {
        let (b, i) = (c / 27, c % 27);
        let m = CELL[c];
        let mut lost = 0;
        for (e, word) in self.cells.iter_mut().enumerate() {
            lost |= ((word.as_array_ref()[b] >> i) & 1) << e;
            *word &= !m;
        }
        self.dirty |= lost as u16;
        self.place_single(d, c);
    }

    /// Puts digit `d + 1` in cell `c`, its only candidate: the other
    /// digits have nothing to lose there.
    #[inline(always)]
    fn place_single(&mut self, d: usize, c: usize) {
        self.dirty |= 1 << d;
        self.cells[d] = (self.cells[d] & !PEERS[c]) | CELL[c];
        self.open &= !CELL[c];
    }

    /// Fills naked and hidden singles and takes locked candidates (along
    /// rows in each sweep, along columns once the sweeps have nothing left)
    /// until nothing changes. `false` when the board turns out unsolvable:
    /// a cell without candidates, or a digit without a place in some group.
    #[inline]
    fn propagate(&mut self) -> bool {
        loop {
            // Bit-sliced counting over the digits, all bands at once: the
            // open cells with at least one candidate, and with at least two.
            let (mut once, mut twice) = (NONE, NONE);
            for &word in &self.cells {
                twice |= once & word;
                once |= word;
            }
            if !is_empty(self.open & !once) {
                return false;
            }
            let singles = self.open & !twice;
            if !is_empty(singles) {
                let singles = singles.to_array();
                for (b, &singles) in singles[..3].iter().enumerate() {
                    if singles == 0 {
                        continue;
                    }
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
                            self.place_single(d, 27 * b + i);
                        }
                    }
                }
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
            let d = self.dirty.trailing_zeros() as usize;
            self.dirty &= self.dirty - 1;
            let word = self.cells[d];
            // Locked candidates along rows: which of each band's nine
            // row-box segments hold the digit, as a 9-bit index per lane.
            let segs = (word | word >> 1u32 | word >> 2u32) & u32x4::splat(0x49 * ROWS_OF);
            let segs = segs | segs >> 2u32 | segs >> 4u32;
            let segs = ((segs & u32x4::splat(7))
                | (segs >> 6u32 & u32x4::splat(0x38))
                | (segs >> 12u32 & u32x4::splat(0x1c0)))
            .to_array();
            let kept = lanes([
                LOCKED[segs[0] as usize],
                LOCKED[segs[1] as usize],
                LOCKED[segs[2] as usize],
            ]);
            let word = word & kept;
            if any_band_empty(word) {
                return None;
            }
            if word != self.cells[d] {
                // Fewer candidates may leave naked singles.
                self.cells[d] = word;
                placed = true;
            }
            // Rows and boxes with one place, and bit-sliced counts of each
            // column's places over the rows of each band.
            let mut found = NONE;
            let (mut once, mut twice) = (NONE, NONE);
            for r in 0..3 {
                let row = word >> (9 * r as u32) & u32x4::splat(ROW);
                found |= (row & at_most_one(row)) << (9 * r as u32);
                twice |= once & row;
                once |= row;
            }
            for boxed in BOXES {
                let boxed = word & u32x4::splat(boxed);
                found |= boxed & at_most_one(boxed);
            }
            // The same counts across the bands.
            let [o0, o1, o2, _] = once.to_array();
            let [t0, t1, t2, _] = twice.to_array();
            let once = o0 | o1 | o2;
            let twice = t0 | t1 | t2 | (o0 & o1) | (o2 & (o0 | o1));
            if once != ROW {
                return None;
            }
            let columns = (once & !twice) * ROWS_OF;
            let found = ((found | (word & u32x4::splat(columns))) & self.open).to_array();
            for (b, &found) in found[..3].iter().enumerate() {
                let mut found = found;
                while found != 0 {
                    let i = found.trailing_zeros() as usize;
                    found &= found - 1;
                    // A hit of this round may have taken another's place.
                    if self.word(d, b) & (1 << i) == 0 {
                        return None;
                    }
                    self.place(d, 27 * b + i);
                    placed = true;
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
            let word = self.cells[d];
            let columns = ((word | word >> 9u32 | word >> 18u32) & u32x4::splat(ROW)).to_array();
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
            let narrowed = word & lanes([kept[0] * ROWS_OF, kept[1] * ROWS_OF, kept[2] * ROWS_OF]);
            if any_band_empty(narrowed) {
                return None;
            }
            if narrowed != word {
                self.cells[d] = narrowed;
                self.dirty |= 1 << d;
                changed = true;
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
    fn pivot(&self) -> (usize, u16) {
        let (mut one, mut two, mut three) = (NONE, NONE, NONE);
        for &word in &self.cells {
            three |= two & word;
            two |= one & word;
            one |= word;
        }
        let pairs = (two & !three & self.open).to_array();
        let open = self.open.to_array();
        let mut best = (0, 0);
        for b in 0..3 {
            let mut pairs = pairs[b];
            while pairs != 0 {
                let i = pairs.trailing_zeros() as usize;
                pairs &= pairs - 1;
                // The open peers gathered into one word, for one count: the
                // column in the other bands is shifted to bits 0, 1, 9, 10,
                // 18 and 19, above the row and box.
                let column = (1 << (i % 9)) * ROWS_OF;
                let across =
                    ((open[(b + 1) % 3] & column) | (open[(b + 2) % 3] & column) << 1) >> (i % 9);
                let count =
                    (u64::from(across) << 27 | u64::from(open[b] & BAND_PEERS[i])).count_ones() + 1;
                if count > best.0 {
                    best = (count, 27 * b + i);
                }
            }
        }
        if best.0 > 0 {
            return (best.1, self.candidates(best.1));
        }
        let mut best = (u32::MAX, 0);
        for (b, &open) in open[..3].iter().enumerate() {
            let mut open = open;
            while open != 0 {
                let i = open.trailing_zeros() as usize;
                open &= open - 1;
                let count = self.candidates(27 * b + i).count_ones();
                if count < best.0 {
                    best = (count, 27 * b + i);
                }
            }
        }
        (best.1, self.candidates(best.1))
    }

    /// The digits cell `c` may take, bit `d` for digit `d + 1`.
    fn candidates(&self, c: usize) -> u16 {
        let (b, i) = (c / 27, c % 27);
        let mut digits = 0;
        for d in 0..9 {
            digits |= (((self.word(d, b) >> i) & 1) as u16) << d;
        }
        digits
    }

    /// Whether no cell is open.
    fn solved(&self) -> bool {
        is_empty(self.open)
    }

    /// The solved board, once no cell is open.
    fn grid(&self) -> Grid {
        let mut grid = Grid::empty(Size::NINE);
        for (d, words) in self.cells.iter().enumerate() {
            for (b, &word) in words.as_array_ref()[..3].iter().enumerate() {
                let mut word = word;
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
        cells: [ALL; 9],
        open: ALL,
        dirty: 0x1ff,
    };
    for (cell, digit) in puzzle.clues() {
        let d = usize::from(digit) - 1;
        if is_empty(board.cells[d] & CELL[cell]) {
            // Two clues share a digit in a group.
            return ControlFlow::Continue(());
        }
        board.place(d, cell);
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
    let (c, mut digits) = board.pivot();
    while digits != 0 {
        let d = digits.trailing_zeros() as usize;
        digits &= digits - 1;
        let mut next = board;
        next.place(d, c);
        descend(next, search)?;
    }
    ControlFlow::Continue(())
}
