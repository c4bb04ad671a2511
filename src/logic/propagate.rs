//! Following singles from an assumption, fast: the forcing chains follow
//! every candidate of the grid, so this is where their time goes. Each
//! digit's cells are kept as a bit set, so placing a digit visits only the
//! peers that hold it, and a house's places for a digit are a mask away: a
//! hidden single or a digit with no place shows up the moment a candidate
//! goes, without scanning the grid.

use super::pencil::{Pencil, bit, digits};

/// A candidate grid with each house's count of places per digit.
#[derive(Clone, Debug)]
pub struct Propagator {
    /// The grid.
    pub pencil: Pencil,
    /// 64-bit words in a set of cells.
    words: usize,
    /// `holding[(d - 1) * words..]`: the open cells that may hold `d`, as
    /// bits, so that placing a digit visits only the peers that lose it.
    holding: Vec<u64>,
    /// `count[h * side + d - 1]`: the open cells of house `h` that may
    /// hold `d`, while `d` is not placed in `h` (then it is left as it is,
    /// unread). Kept apart from `holding` to be read without counting bits.
    count: Vec<u8>,
    /// The digits placed in each house.
    placed: Vec<u32>,
    /// Singles found and not yet placed.
    queue: Vec<(usize, u8)>,
}

/// The grid contradicts itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contradiction;

impl Propagator {
    /// Counts the places of `pencil`.
    pub fn new(pencil: &Pencil) -> Propagator {
        let g = pencil.geometry();
        let side = pencil.size().side();
        let words = pencil.size().cells().div_ceil(64);
        let mut holding = vec![0u64; side * words];
        let mut count = vec![0u8; g.houses().len() * side];
        let mut placed = vec![0u32; g.houses().len()];
        for c in 0..pencil.size().cells() {
            for d in digits(pencil.candidates(c)) {
                holding[usize::from(d - 1) * words + c / 64] |= 1 << (c % 64);
            }
        }
        for (h, house) in g.houses().iter().enumerate() {
            for &c in house {
                match pencil.value(c) {
                    0 => {
                        for d in digits(pencil.candidates(c)) {
                            count[h * side + usize::from(d - 1)] += 1;
                        }
                    }
                    v => placed[h] |= bit(v),
                }
            }
        }
        Propagator {
            pencil: pencil.clone(),
            words,
            holding,
            count,
            placed,
            queue: Vec::new(),
        }
    }

    /// Queues every single the grid holds now: cells with one candidate,
    /// and digits with one place left in a house. ([`Propagator::new`]
    /// queues none: the forcing chains want only those an assumption
    /// makes.)
    pub fn queue_singles(&mut self) {
        let g = self.pencil.geometry();
        let side = g.size().side();
        for c in 0..g.size().cells() {
            let m = self.pencil.candidates(c);
            if m.is_power_of_two() {
                self.queue.push((c, m.trailing_zeros() as u8 + 1));
            }
        }
        for (h, house) in g.houses().iter().enumerate() {
            for d in digits(!self.placed[h] & (u32::MAX >> (32 - side))) {
                if self.count[h * side + usize::from(d - 1)] == 1
                    && let Some(&c) = house.iter().find(|&&c| self.pencil.has(c, d))
                {
                    self.queue.push((c, d));
                }
            }
        }
    }

    /// Becomes a copy of `base`, reusing its own memory.
    pub fn reset_from(&mut self, base: &Propagator) {
        self.pencil.copy_from(&base.pencil);
        self.holding.copy_from_slice(&base.holding);
        self.count.copy_from_slice(&base.count);
        self.placed.copy_from_slice(&base.placed);
        self.queue.clear();
        self.queue.extend_from_slice(&base.queue);
    }

    /// One place fewer for `digit` in each house of `cell` (which
    /// `holding` no longer has): a house without the digit placed and with
    /// no place left for it is a contradiction, and one with one place left
    /// a hidden single.
    // Inlined: it runs a few times per candidate lost, and the call cost
    // as much as its body.
    #[inline(always)]
    fn lose_place(&mut self, cell: usize, digit: u8) -> Result<(), Contradiction> {
        let Propagator {
            pencil,
            words,
            holding,
            count,
            placed,
            queue,
        } = self;
        let g = pencil.geometry();
        let side = g.size().side();
        let b = bit(digit);
        for &h in g.houses_of(cell) {
            let k = &mut count[h * side + usize::from(digit - 1)];
            *k -= 1;
            if placed[h] & b != 0 {
                continue;
            }
            match *k {
                0 => return Err(Contradiction),
                1 => {
                    let cells = &holding[usize::from(digit - 1) * *words..];
                    let house = g.house_bits(h);
                    if let Some((w, here)) = (0..*words)
                        .map(|w| (w, cells[w] & house[w]))
                        .find(|&(_, here)| here != 0)
                    {
                        queue.push((w * 64 + here.trailing_zeros() as usize, digit));
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Takes `digit` from the candidates of `cell`, which holds it.
    fn take(&mut self, cell: usize, digit: u8) -> Result<(), Contradiction> {
        self.pencil.eliminate(cell, digit);
        let left = self.pencil.candidates(cell);
        if left == 0 {
            return Err(Contradiction);
        }
        if left.is_power_of_two() {
            self.queue.push((cell, left.trailing_zeros() as u8 + 1));
        }
        self.lose_place(cell, digit)
    }

    /// Takes `digit` from `cell`'s candidates.
    pub fn eliminate(&mut self, cell: usize, digit: u8) -> Result<(), Contradiction> {
        if !self.pencil.has(cell, digit) {
            return Ok(());
        }
        self.holding[usize::from(digit - 1) * self.words + cell / 64] &= !(1 << (cell % 64));
        self.take(cell, digit)
    }

    /// Places `digit` in `cell`, taking it from the peers.
    pub fn assign(&mut self, cell: usize, digit: u8) -> Result<(), Contradiction> {
        match self.pencil.value(cell) {
            v if v == digit => return Ok(()),
            0 if self.pencil.has(cell, digit) => {}
            _ => return Err(Contradiction),
        }
        let words = self.words;
        let (word, mask) = (cell / 64, !(1u64 << (cell % 64)));
        for d in digits(self.pencil.candidates(cell)) {
            self.holding[usize::from(d - 1) * words + word] &= mask;
        }
        let others = self.pencil.candidates(cell) & !bit(digit);
        self.pencil.place_only(cell, digit);
        for &h in self.pencil.geometry().houses_of(cell) {
            self.placed[h] |= bit(digit);
        }
        // The placed digit's own counts are not kept: nothing reads a
        // digit's places in a house that holds it.
        for d in digits(others) {
            self.lose_place(cell, d)?;
        }
        // The peers that lose the digit: its cells among the peers.
        let peers = *self.pencil.geometry().peer_bits(cell);
        let row = usize::from(digit - 1) * words;
        for (w, &near) in peers.iter().enumerate().take(words) {
            let mut losing = self.holding[row + w] & near;
            while losing != 0 {
                let one = losing & losing.wrapping_neg();
                losing ^= one;
                // One at a time: `lose_place` finds a house's last place
                // in `holding`, which must agree with the counts.
                self.holding[row + w] &= !one;
                self.take(w * 64 + one.trailing_zeros() as usize, digit)?;
            }
        }
        Ok(())
    }

    /// Places singles until none is left, or past `limit` of them: the
    /// number placed, and whether the grid then contradicts itself. A
    /// contradiction's count says how far the chain went to reach it.
    pub fn run(&mut self, limit: usize) -> (usize, Result<(), Contradiction>) {
        let mut placed = 0;
        while let Some((cell, digit)) = self.queue.pop() {
            if self.pencil.value(cell) == digit {
                continue;
            }
            if let Err(c) = self.assign(cell, digit) {
                return (placed, Err(c));
            }
            placed += 1;
            if placed > limit {
                break;
            }
        }
        (placed, Ok(()))
    }
}
