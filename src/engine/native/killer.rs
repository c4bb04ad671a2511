//! The search for killer puzzles: boards up to 12x12 whose rules add only
//! cages (different digits, most with a sum) and pencil marks to the
//! houses.
//!
//! Unlike the generic path, which works each cell's candidates out from
//! the filled cells whenever it needs them, this one keeps every cell's
//! candidates as state and narrows them to a fixed point before each
//! branch, copying the state (a few hundred bytes) at each branch instead
//! of undoing. Cages are where killers are decided, so each cage keeps the
//! list of digit sets that make up its sum, and each round of propagation
//! keeps only the sets its cells can still take:
//!
//! - a digit in none of them leaves every cell of the cage;
//! - a digit in all of them must be in the cage: with one place left in
//!   the cage it goes there, and when its places all lie in one house it
//!   leaves that house's other cells;
//! - a set whose digits the cells cannot all hold is dropped.
//!
//! Besides: a placed digit leaves its cell's houses and cages (naked
//! singles follow), a digit with one place in a house goes there (hidden
//! singles), and the branch is on the cell with the fewest candidates.
//! The sums the cages imply with the houses ([`crate::puzzle::implied`])
//! are searched as cages too.

use super::{Flow, Search};
use crate::puzzle::Puzzle;
use crate::puzzle::grid::Grid;
use crate::puzzle::implied::implied_cages;
use crate::puzzle::primitive::Primitive;
use crate::puzzle::rules::Rules;
use std::ops::ControlFlow;
use std::sync::Arc;

/// The largest side this path takes: every cage's digit sets are listed,
/// out of the `2^side` sets of digits.
const MOST_SIDE: usize = 12;

/// The most cells of a board this path takes.
const MOST_CELLS: usize = MOST_SIDE * MOST_SIDE;

/// Words of a set of cells.
const WORDS: usize = MOST_CELLS.div_ceil(64);

/// A set of cells, one bit each.
type CellSet = [u64; WORDS];

/// Whether `cell` is in `set`.
#[inline]
fn has(set: &CellSet, cell: usize) -> bool {
    set[cell / 64] >> (cell % 64) & 1 == 1
}

/// Adds `cell` to `set`.
#[inline]
fn put(set: &mut CellSet, cell: usize) {
    set[cell / 64] |= 1 << (cell % 64);
}

/// The search state: each cell's candidates (bit `d - 1` for digit `d`),
/// and the cells whose single digit has been taken out of their peers.
#[derive(Clone, Copy)]
struct State {
    candidates: [u16; MOST_CELLS],
    placed: CellSet,
}

/// A cage: its cells, and when it has a sum, the sets of different digits
/// (as bits) that make it up.
struct Cage {
    cells: Vec<u16>,
    /// Its cells as a set.
    members: CellSet,
    /// `None` for a cage without a sum (its digits only differ).
    sets: Option<Vec<u16>>,
}

/// The tables of one set of rules.
struct Tables {
    rules: Arc<Rules>,
    /// Whether this path takes the rules at all.
    fits: bool,
    side: usize,
    cells: usize,
    /// The digits each cell may hold at all (its pencil marks).
    allowed: Vec<u16>,
    /// The peers of cell `c` (cells that must differ from it) are
    /// `peers[peer_start[c]..peer_start[c + 1]]`.
    peer_start: Vec<usize>,
    peers: Vec<u16>,
    /// The houses of cell `c`, likewise.
    house_start: Vec<usize>,
    house_list: Vec<u16>,
    /// Each house's cells, as a list and as a set; houses with a place for
    /// every digit come first, `full` of them.
    house_cells: Vec<Vec<u16>>,
    house_sets: Vec<CellSet>,
    full: usize,
    /// The cages with sums (implied ones included).
    cages: Vec<Cage>,
}

impl Tables {
    fn new(rules: &Arc<Rules>) -> Tables {
        let size = rules.size();
        let (side, cells) = (size.side(), size.cells());
        let mut tables = Tables {
            rules: Arc::clone(rules),
            fits: false,
            side,
            cells,
            allowed: vec![u16::MAX >> (16 - side.min(16)); cells],
            peer_start: Vec::new(),
            peers: Vec::new(),
            house_start: Vec::new(),
            house_list: Vec::new(),
            house_cells: Vec::new(),
            house_sets: Vec::new(),
            full: 0,
            cages: Vec::new(),
        };
        let takes = side <= MOST_SIDE
            && rules
                .primitives()
                .any(|p| matches!(p, Primitive::Distinct { sum: Some(_), .. }))
            && rules
                .primitives()
                .all(|p| matches!(p, Primitive::Distinct { .. } | Primitive::Allowed { .. }));
        if !takes {
            return tables;
        }
        tables.fits = true;
        // Houses with every digit first: only they need each digit placed.
        let mut houses: Vec<&Vec<usize>> = rules.houses().iter().map(|h| &h.cells).collect();
        houses.sort_by_key(|h| h.len() != side);
        tables.full = houses.iter().filter(|h| h.len() == side).count();
        let mut peer_sets = vec![[0u64; WORDS]; cells];
        let mut houses_of: Vec<Vec<u16>> = vec![Vec::new(); cells];
        for (number, house) in houses.iter().enumerate() {
            let mut set = [0u64; WORDS];
            for &c in house.iter() {
                put(&mut set, c);
                houses_of[c].push(number as u16);
            }
            for &c in house.iter() {
                for w in 0..WORDS {
                    peer_sets[c][w] |= set[w];
                }
            }
            tables
                .house_cells
                .push(house.iter().map(|&c| c as u16).collect());
            tables.house_sets.push(set);
        }
        let mut sets_by: Vec<Vec<Vec<u16>>> =
            vec![vec![Vec::new(); side * (side + 1) / 2 + 1]; side + 1];
        for set in 0..(1u32 << side) {
            let sum: u32 = (0..side as u32)
                .filter(|d| set >> d & 1 == 1)
                .map(|d| d + 1)
                .sum();
            sets_by[set.count_ones() as usize][sum as usize].push(set as u16);
        }
        let sets_of = |count: usize, sum: u32| -> Vec<u16> {
            sets_by
                .get(count)
                .and_then(|by_sum| by_sum.get(sum as usize))
                .cloned()
                .unwrap_or_default()
        };
        let mut add_cage = |tables: &mut Tables, cells: &[usize], sum: Option<u32>| {
            let mut members = [0u64; WORDS];
            for &c in cells {
                put(&mut members, c);
            }
            for &c in cells {
                for w in 0..WORDS {
                    peer_sets[c][w] |= members[w];
                }
            }
            if let Some(sum) = sum {
                tables.cages.push(Cage {
                    cells: cells.iter().map(|&c| c as u16).collect(),
                    members,
                    sets: Some(sets_of(cells.len(), sum)),
                });
            }
        };
        for primitive in rules.primitives() {
            match primitive {
                Primitive::Distinct { cells, sum } => add_cage(&mut tables, cells, *sum),
                Primitive::Allowed { cell, digits } => tables.allowed[*cell] &= *digits as u16,
                _ => {}
            }
        }
        for implied in implied_cages(rules) {
            add_cage(&mut tables, &implied.cells, Some(implied.sum));
        }
        for (cell, set) in peer_sets.iter().enumerate() {
            tables.peer_start.push(tables.peers.len());
            tables.peers.extend(
                (0..cells)
                    .filter(|&p| p != cell && has(set, p))
                    .map(|p| p as u16),
            );
            tables.house_start.push(tables.house_list.len());
            tables.house_list.extend(&houses_of[cell]);
        }
        tables.peer_start.push(tables.peers.len());
        tables.house_start.push(tables.house_list.len());
        tables
    }
}

/// The killer search: its tables, kept while the rules stay the same.
pub(super) struct Killer {
    tables: Option<Tables>,
    /// Cells whose candidates came down to one digit, to be placed.
    queue: Vec<u16>,
    grid: Grid,
}

impl Killer {
    pub(super) fn new() -> Killer {
        Killer {
            tables: None,
            queue: Vec::with_capacity(MOST_CELLS * 4),
            grid: Grid::empty(crate::puzzle::grid::Size::NINE),
        }
    }

    /// Whether this path takes puzzles under `rules` (building its tables
    /// for them when they are new).
    pub(super) fn takes(&mut self, rules: &Arc<Rules>) -> bool {
        let known = self
            .tables
            .as_ref()
            .is_some_and(|t| Arc::ptr_eq(&t.rules, rules) || t.rules == *rules);
        if !known {
            self.tables = Some(Tables::new(rules));
        }
        self.tables.as_ref().is_some_and(|t| t.fits)
    }

    /// Visits every solution of `puzzle` until `search` stops; its rules
    /// must be ones [`Killer::takes`].
    pub(super) fn solve(&mut self, puzzle: &Puzzle, search: &mut Search<'_>) -> Flow {
        let Some(tables) = self.tables.take() else {
            return ControlFlow::Continue(());
        };
        self.grid = Grid::empty(puzzle.size());
        let flow = self.start(&tables, puzzle, search);
        self.tables = Some(tables);
        flow
    }

    fn start(&mut self, t: &Tables, puzzle: &Puzzle, search: &mut Search<'_>) -> Flow {
        let mut state = State {
            candidates: [0; MOST_CELLS],
            placed: [0; WORDS],
        };
        state.candidates[..t.cells].copy_from_slice(&t.allowed);
        self.queue.clear();
        for (cell, &digit) in puzzle.givens().cells().iter().enumerate() {
            if digit != 0 {
                let bit = 1u16 << (digit - 1);
                if state.candidates[cell] & bit == 0 {
                    return ControlFlow::Continue(());
                }
                state.candidates[cell] = bit;
            }
        }
        for cell in 0..t.cells {
            let c = state.candidates[cell];
            if c == 0 {
                return ControlFlow::Continue(());
            }
            if c & (c - 1) == 0 {
                self.queue.push(cell as u16);
            }
        }
        if !self.propagate(t, &mut state) {
            return ControlFlow::Continue(());
        }
        self.search(t, &state, search)
    }

    fn search(&mut self, t: &Tables, state: &State, search: &mut Search<'_>) -> Flow {
        search.node()?;
        // The open cell with the fewest candidates.
        let mut best = (u32::MAX, usize::MAX);
        for cell in 0..t.cells {
            if has(&state.placed, cell) {
                continue;
            }
            let count = state.candidates[cell].count_ones();
            if count < best.0 {
                best = (count, cell);
                if count == 2 {
                    break;
                }
            }
        }
        let cell = best.1;
        if cell == usize::MAX {
            for (c, &bit) in state.candidates[..t.cells].iter().enumerate() {
                self.grid.set(c, bit.trailing_zeros() as u8 + 1);
            }
            return search.found(&self.grid);
        }
        let mut left = state.candidates[cell];
        while left != 0 {
            let bit = left & left.wrapping_neg();
            left ^= bit;
            let mut next = *state;
            next.candidates[cell] = bit;
            self.queue.clear();
            self.queue.push(cell as u16);
            if self.propagate(t, &mut next) {
                self.search(t, &next, search)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Narrows `state` until nothing more follows; false when some cell
    /// or house or cage is left without a way out.
    fn propagate(&mut self, t: &Tables, state: &mut State) -> bool {
        loop {
            if !self.place_queued(t, state) {
                return false;
            }
            match hidden_singles(t, state, &mut self.queue) {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            match cages(t, state, &mut self.queue) {
                None => return false,
                Some(true) => continue,
                Some(false) => return true,
            }
        }
    }

    /// Takes each queued cell's digit out of its peers.
    fn place_queued(&mut self, t: &Tables, state: &mut State) -> bool {
        while let Some(cell) = self.queue.pop() {
            let cell = usize::from(cell);
            if has(&state.placed, cell) {
                continue;
            }
            put(&mut state.placed, cell);
            let bit = state.candidates[cell];
            for &peer in &t.peers[t.peer_start[cell]..t.peer_start[cell + 1]] {
                let peer = usize::from(peer);
                let before = state.candidates[peer];
                if before & bit != 0 {
                    let after = before & !bit;
                    if after == 0 {
                        return false;
                    }
                    state.candidates[peer] = after;
                    if after & (after - 1) == 0 {
                        self.queue.push(peer as u16);
                    }
                }
            }
        }
        true
    }
}

/// Narrows `cell` to `keep`'s digits, queueing it when one is left; `None`
/// when none is, else whether it changed.
#[inline]
fn narrow(state: &mut State, queue: &mut Vec<u16>, cell: usize, keep: u16) -> Option<bool> {
    let before = state.candidates[cell];
    let after = before & keep;
    if after == before {
        return Some(false);
    }
    if after == 0 {
        return None;
    }
    state.candidates[cell] = after;
    if after & (after - 1) == 0 {
        queue.push(cell as u16);
    }
    Some(true)
}

/// Places each digit with one place left in a house; `None` when a digit
/// has none, else whether anything changed.
fn hidden_singles(t: &Tables, state: &mut State, queue: &mut Vec<u16>) -> Option<bool> {
    let all = u16::MAX >> (16 - t.side);
    let mut changed = false;
    for members in &t.house_cells[..t.full] {
        let (mut once, mut twice) = (0u16, 0u16);
        for &cell in members {
            let c = state.candidates[usize::from(cell)];
            twice |= once & c;
            once |= c;
        }
        if once != all {
            return None;
        }
        let mut singles = once & !twice;
        while singles != 0 {
            let bit = singles & singles.wrapping_neg();
            singles ^= bit;
            let cell = members
                .iter()
                .map(|&c| usize::from(c))
                .find(|&c| state.candidates[c] & bit != 0)?;
            if state.candidates[cell] != bit {
                state.candidates[cell] = bit;
                queue.push(cell as u16);
                changed = true;
            }
        }
    }
    Some(changed)
}

/// Keeps in each cage's cells only the digits of the sets they can still
/// make up, and places or locks the digits every such set holds; `None`
/// on a cage with no set left, else whether anything changed.
fn cages(t: &Tables, state: &mut State, queue: &mut Vec<u16>) -> Option<bool> {
    let mut changed = false;
    for cage in &t.cages {
        let Some(sets) = &cage.sets else { continue };
        let (mut union, mut common) = (0u16, u16::MAX);
        for &set in sets {
            let mut covered = 0u16;
            let mut fits = true;
            for &cell in &cage.cells {
                let here = state.candidates[usize::from(cell)] & set;
                if here == 0 {
                    fits = false;
                    break;
                }
                covered |= here;
            }
            if fits && covered == set {
                union |= set;
                common &= set;
            }
        }
        if union == 0 {
            return None;
        }
        for &cell in &cage.cells {
            changed |= narrow(state, queue, usize::from(cell), union)?;
        }
        // Digits the cage must hold: a single place gets the digit, places
        // all in one house take it from the house's other cells.
        let mut must = common;
        while must != 0 {
            let bit = must & must.wrapping_neg();
            must ^= bit;
            let (mut places, mut count) = ([0u16; MOST_SIDE], 0);
            for &c in &cage.cells {
                if state.candidates[usize::from(c)] & bit != 0 {
                    places[count] = c;
                    count += 1;
                }
            }
            let places = &places[..count];
            let first = usize::from(*places.first()?);
            if count == 1 {
                if state.candidates[first] != bit {
                    state.candidates[first] = bit;
                    queue.push(first as u16);
                    changed = true;
                }
                continue;
            }
            for &house in &t.house_list[t.house_start[first]..t.house_start[first + 1]] {
                let house = usize::from(house);
                let set = &t.house_sets[house];
                if !places[1..].iter().all(|&c| has(set, usize::from(c))) {
                    continue;
                }
                for &other in &t.house_cells[house] {
                    let other = usize::from(other);
                    if !has(&cage.members, other) {
                        changed |= narrow(state, queue, other, !bit)?;
                    }
                }
            }
        }
    }
    Some(changed)
}
