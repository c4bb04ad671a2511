//! Following singles from an assumption, fast: the forcing chains follow
//! every candidate of the grid, so this is where their time goes. Each
//! house keeps how many places each digit has left, so a hidden single or
//! a digit with no place shows up the moment a candidate goes, without
//! scanning the grid.

use super::pencil::{Pencil, bit, digits};

/// A candidate grid with each house's count of places per digit.
#[derive(Clone, Debug)]
pub struct Propagator {
    /// The grid.
    pub pencil: Pencil,
    /// `count[h * side + d - 1]`: the open cells of house `h` that may
    /// hold `d`, while `d` is not placed in `h` (then it is left as it is,
    /// unread).
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
        let mut count = vec![0u8; g.houses().len() * side];
        let mut placed = vec![0u32; g.houses().len()];
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
            count,
            placed,
            queue: Vec::new(),
        }
    }

    /// Becomes a copy of `base`, reusing its own memory.
    pub fn reset_from(&mut self, base: &Propagator) {
        self.pencil.copy_from(&base.pencil);
        self.count.copy_from_slice(&base.count);
        self.placed.copy_from_slice(&base.placed);
        self.queue.clear();
        self.queue.extend_from_slice(&base.queue);
    }

    fn side(&self) -> usize {
        self.pencil.size().side()
    }

    /// One place fewer for `digit` in each house of `cell`.
    fn lose_place(&mut self, cell: usize, digit: u8) -> Result<(), Contradiction> {
        let side = self.side();
        let Propagator {
            pencil,
            count,
            placed,
            queue,
        } = self;
        for &h in pencil.geometry().houses_of(cell) {
            let k = &mut count[h * side + usize::from(digit - 1)];
            *k -= 1;
            match *k {
                0 if placed[h] & bit(digit) == 0 => return Err(Contradiction),
                1 if placed[h] & bit(digit) == 0 => {
                    let house = &pencil.geometry().houses()[h];
                    if let Some(&c) = house.iter().find(|&&c| c != cell && pencil.has(c, digit)) {
                        queue.push((c, digit));
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Takes `digit` from `cell`'s candidates.
    pub fn eliminate(&mut self, cell: usize, digit: u8) -> Result<(), Contradiction> {
        if !self.pencil.has(cell, digit) {
            return Ok(());
        }
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

    /// Places `digit` in `cell`, taking it from the peers.
    pub fn assign(&mut self, cell: usize, digit: u8) -> Result<(), Contradiction> {
        match self.pencil.value(cell) {
            v if v == digit => return Ok(()),
            0 if self.pencil.has(cell, digit) => {}
            _ => return Err(Contradiction),
        }
        let others = self.pencil.candidates(cell) & !bit(digit);
        self.pencil.place_only(cell, digit);
        // Indexes rather than iterators over the geometry's lists: those
        // would borrow the grid being changed. This is the innermost loop
        // of every forcing chain.
        for i in 0..self.pencil.geometry().houses_of(cell).len() {
            let h = self.pencil.geometry().houses_of(cell)[i];
            self.placed[h] |= bit(digit);
        }
        // The placed digit's own counts are not kept: nothing reads a
        // digit's places in a house that holds it.
        for d in digits(others) {
            self.lose_place(cell, d)?;
        }
        for i in 0..self.pencil.geometry().peers(cell).len() {
            let peer = self.pencil.geometry().peers(cell)[i];
            self.eliminate(peer, digit)?;
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
