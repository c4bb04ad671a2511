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
    /// The cages with sums holding cell `c`, likewise.
    cage_start: Vec<usize>,
    cage_list: Vec<u16>,
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
            cage_start: Vec::new(),
            cage_list: Vec::new(),
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
        for cell in 0..cells {
            tables.cage_start.push(tables.cage_list.len());
            for (number, cage) in tables.cages.iter().enumerate() {
                if has(&cage.members, cell) {
                    tables.cage_list.push(number as u16);
                }
            }
        }
        tables.cage_start.push(tables.cage_list.len());
        tables
    }

    /// The houses holding `cell`.
    #[inline]
    fn houses_of(&self, cell: usize) -> &[u16] {
        &self.house_list[self.house_start[cell]..self.house_start[cell + 1]]
    }

    /// The cages with sums holding `cell`.
    #[inline]
    fn cages_of(&self, cell: usize) -> &[u16] {
        &self.cage_list[self.cage_start[cell]..self.cage_start[cell + 1]]
    }

    /// The cells that must differ from `cell`.
    #[inline]
    fn peers_of(&self, cell: usize) -> &[u16] {
        &self.peers[self.peer_start[cell]..self.peer_start[cell + 1]]
    }
}

/// What propagation has still to look at: cells down to one digit, to be
/// taken out of their peers, and the houses and cages whose cells changed
/// since they were last looked at (as bit sets).
struct Work {
    queue: Vec<u16>,
    houses: Vec<u64>,
    cages: Vec<u64>,
}

impl Work {
    /// Nothing to look at, for `t`'s houses and cages.
    fn reset(&mut self, t: &Tables) {
        self.queue.clear();
        self.houses.clear();
        self.houses.resize(t.house_cells.len().div_ceil(64), 0);
        self.cages.clear();
        self.cages.resize(t.cages.len().div_ceil(64), 0);
    }

    /// Marks the houses and cages of `cell` to be looked at again.
    #[inline]
    fn touch(&mut self, t: &Tables, cell: usize) {
        for &h in t.houses_of(cell) {
            self.houses[usize::from(h) / 64] |= 1 << (h % 64);
        }
        for &c in t.cages_of(cell) {
            self.cages[usize::from(c) / 64] |= 1 << (c % 64);
        }
    }

    /// Narrows `cell` to `keep`'s digits; `None` when none is left.
    #[inline]
    fn narrow(&mut self, t: &Tables, state: &mut State, cell: usize, keep: u16) -> Option<()> {
        let before = state.candidates[cell];
        let after = before & keep;
        if after != before {
            if after == 0 {
                return None;
            }
            state.candidates[cell] = after;
            if after & (after - 1) == 0 {
                self.queue.push(cell as u16);
            }
            self.touch(t, cell);
        }
        Some(())
    }

    /// Puts digit `bit` in `cell`; `None` when it is no candidate there.
    #[inline]
    fn fix(&mut self, t: &Tables, state: &mut State, cell: usize, bit: u16) -> Option<()> {
        if state.candidates[cell] & bit == 0 {
            return None;
        }
        self.narrow(t, state, cell, bit)
    }
}

/// Takes the lowest member out of a bit set.
#[inline]
fn pop(set: &mut [u64]) -> Option<usize> {
    for (k, word) in set.iter_mut().enumerate() {
        if *word != 0 {
            let bit = word.trailing_zeros() as usize;
            *word &= *word - 1;
            return Some(k * 64 + bit);
        }
    }
    None
}

/// The killer search: its tables, kept while the rules stay the same.
pub(super) struct Killer {
    tables: Option<Tables>,
    work: Work,
    grid: Grid,
    weight: Vec<u32>,
}

impl Killer {
    pub(super) fn new() -> Killer {
        Killer {
            tables: None,
            work: Work {
                queue: Vec::with_capacity(MOST_CELLS * 4),
                houses: Vec::new(),
                cages: Vec::new(),
            },
            grid: Grid::empty(crate::puzzle::grid::Size::NINE),
            weight: Vec::new(),
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
            self.weight.clear();
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
        if self.weight.len() != tables.cells {
            self.weight.clear();
            self.weight.resize(tables.cells, 0);
        }
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
        let work = &mut self.work;
        work.reset(t);
        let mut ok = Some(());
        for cell in 0..t.cells {
            work.touch(t, cell);
            let digit = puzzle.givens().get(cell);
            if digit != 0 {
                ok = ok.and_then(|()| work.fix(t, &mut state, cell, 1 << (digit - 1)));
            }
            let c = state.candidates[cell];
            if c == 0 {
                ok = None;
            } else if c & (c - 1) == 0 {
                work.queue.push(cell as u16);
            }
        }
        if ok.is_none() || propagate(t, &mut state, work).is_none() {
            return ControlFlow::Continue(());
        }
        self.search(t, &state, search)
    }

    fn search(&mut self, t: &Tables, state: &State, search: &mut Search<'_>) -> Flow {
        search.node()?;
        // The open cell with the fewest candidates for its weight: how
        // often a digit tried in it failed at once. Cells that keep failing
        // are where the puzzle is decided, so they are tried early.
        let mut best = (u32::MAX, usize::MAX);
        for cell in 0..t.cells {
            if has(&state.placed, cell) {
                continue;
            }
            let count = state.candidates[cell].count_ones();
            let score = (count << 16) / self.weight[cell].saturating_add(1);
            if score < best.0 {
                best = (score, cell);
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
            self.work.reset(t);
            let ok = self
                .work
                .narrow(t, &mut next, cell, bit)
                .and_then(|()| propagate(t, &mut next, &mut self.work));
            if ok.is_some() {
                self.search(t, &next, search)?;
            } else {
                self.weight[cell] = self.weight[cell].saturating_add(1);
            }
        }
        ControlFlow::Continue(())
    }
}

/// Narrows `state` until nothing more follows; `None` when some cell,
/// house or cage is left without a way out.
fn propagate(t: &Tables, state: &mut State, work: &mut Work) -> Option<()> {
    loop {
        while let Some(cell) = work.queue.pop() {
            let cell = usize::from(cell);
            if has(&state.placed, cell) {
                continue;
            }
            put(&mut state.placed, cell);
            let bit = state.candidates[cell];
            for &peer in t.peers_of(cell) {
                work.narrow(t, state, usize::from(peer), !bit)?;
            }
        }
        if let Some(house) = pop(&mut work.houses) {
            if house < t.full {
                hidden_singles(t, state, work, house)?;
            }
            continue;
        }
        if let Some(cage) = pop(&mut work.cages) {
            narrow_cage(t, state, work, cage)?;
            continue;
        }
        return Some(());
    }
}

/// Places each digit with one place left in a house; `None` when a digit
/// has none.
fn hidden_singles(t: &Tables, state: &mut State, work: &mut Work, house: usize) -> Option<()> {
    let all = u16::MAX >> (16 - t.side);
    let members = &t.house_cells[house];
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
        work.fix(t, state, cell, bit)?;
    }
    Some(())
}

/// Keeps in a cage's cells only the digits of the sets they can still
/// make up, and places or locks the digits every such set holds; `None`
/// when no set is left.
fn narrow_cage(t: &Tables, state: &mut State, work: &mut Work, number: usize) -> Option<()> {
    let cage = &t.cages[number];
    let Some(sets) = &cage.sets else {
        return Some(());
    };
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
        work.narrow(t, state, usize::from(cell), union)?;
    }
    // Narrowing to the sets' digits keeps the same sets, so the cage need
    // not be looked at again for it.
    work.cages[number / 64] &= !(1 << (number % 64));
    // Digits the cage must hold: a single place gets the digit, places all
    // in one house take it from the house's other cells.
    let mut must = common;
    while must != 0 {
        let bit = must & must.wrapping_neg();
        must ^= bit;
        let (mut places, mut count) = ([0u16; MOST_SIDE], 0);
        for &c in &cage.cells {
            if state.candidates[usize::from(c)] & bit != 0 && count < MOST_SIDE {
                places[count] = c;
                count += 1;
            }
        }
        let places = &places[..count];
        let first = usize::from(*places.first()?);
        if count == 1 {
            work.fix(t, state, first, bit)?;
            continue;
        }
        for &house in t.houses_of(first) {
            let house = usize::from(house);
            let set = &t.house_sets[house];
            if !places[1..].iter().all(|&c| has(set, usize::from(c))) {
                continue;
            }
            for &other in &t.house_cells[house] {
                let other = usize::from(other);
                if !has(&cage.members, other) {
                    work.narrow(t, state, other, !bit)?;
                }
            }
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // tests fail loudly
    use super::super::generic::Generic;
    use super::super::{Flow, Search, visited};
    use super::*;
    use crate::puzzle::input::Source;

    /// Every solution of `puzzle` that `solve` visits, sorted.
    fn all(solve: &mut dyn FnMut(&mut Search<'_>) -> Flow) -> Vec<String> {
        visited(usize::MAX, solve).0
    }

    /// The killer search and the generic one find the same solutions.
    fn agree(text: &str) -> usize {
        let puzzle = Source::Text(text.into()).read_puzzle(None).unwrap();
        let mut killer = Killer::new();
        assert!(killer.takes(puzzle.rules()));
        let fast = all(&mut |search| killer.solve(&puzzle, search));
        let mut generic = Generic::new();
        let slow = all(&mut |search| generic.solve(&puzzle, search));
        assert_eq!(fast, slow);
        let mut unique = fast.clone();
        unique.dedup();
        assert_eq!(unique.len(), fast.len(), "a solution came twice");
        fast.len()
    }

    #[test]
    fn the_killer_search_finds_what_the_generic_one_does() {
        // The example killer with only its first 18 cages.
        let example = include_str!("../../../../../examples/puzzles/killer.txt");
        let first: Vec<&str> = example.lines().skip(1).take(19).collect();
        assert_eq!(agree(&(first.join("\n") + "\n")), 164);
        // A 4x4 killer with a given and a cage without a sum.
        let text = format!(
            "1{}\nkiller 5 r1c2 r2c2\nkiller 6 r3c3 r4c4\nkiller r1c3 r2c1\n",
            ".".repeat(15)
        );
        assert_eq!(agree(&text), 2);
    }

    #[test]
    fn other_rules_go_elsewhere() {
        let text = format!("{}\nantiking\n", ".".repeat(81));
        let puzzle = Source::Text(text).read_puzzle(None).unwrap();
        assert!(!Killer::new().takes(puzzle.rules()));
    }
}
