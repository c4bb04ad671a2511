//! Sudoku Explainer's single chains, found and measured as SE does:
//! bidirectional X-cycles and Y-cycles (6.5), forcing X-chains (6.6),
//! bidirectional XY-cycles and XY forcing chains (7.0), each plus the
//! length bonus of its complexity (the distinct candidates on the chain)
//! less two.
//!
//! Three passes go over every candidate of every open cell, in reading
//! order: links of one digit only (X), through two-candidate cells only
//! (Y; such chains start only in a cell with two candidates), and both
//! (XY). Each pass follows the candidate supposed true, layer by layer,
//! on the grid as it stands:
//! - a candidate on turns off the digit in the rest of its houses, and
//!   (Y, XY) the other candidates of its cell;
//! - a candidate off turns on the other candidate of its cell when it has
//!   two (Y, XY), and the other place of a house with two places for the
//!   digit (X, XY).
//!
//! A chain that comes back to its start, on, after two rounds or more is
//! a cycle: a candidate that sees the same digit of the cycle both where
//! it is on and where it is off is false. In the X and XY passes, a
//! candidate that leads to itself off is false, and one whose being off
//! leads to itself on is true: a forcing chain. Of everything found, the
//! easiest wins: lowest rating, then fewest candidates, then X before Y
//! before XY, then the first found.

use super::links::{Links, cells128};
use super::pencil::{Pencil, bit, digits, two};
use super::seen::Seen;
use super::step::Step;
use super::technique::{Difficulty, Technique, length_bonus};
use crate::puzzle::grid::{Clue, Grid, digit_char};
use std::cell::RefCell;

const NONE: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct Node {
    slot: u32,
    on: bool,
    parent: u32,
    /// Links from the start: a conclusion at this node rests on at least
    /// this many candidates.
    depth: u32,
}

/// One conclusion: SE's rating (as SE computes it, in floating point, so
/// that ties break as they break there), complexity, kind, and what it
/// removes or places.
struct Found {
    rating: f64,
    tenths: u16,
    complexity: usize,
    order: u8,
    technique: Technique,
    eliminations: Vec<(usize, u8)>,
    placement: Option<(usize, u8)>,
    cells: Vec<usize>,
    digit: u8,
}

/// SE's rating for a base (6.5, 6.6, 7.0) and a complexity: the bonus is
/// added a tenth at a time, as SE adds it.
fn rating(base: f64, complexity: usize) -> (f64, u16) {
    let bonus = length_bonus(complexity.saturating_sub(2));
    let added = (0..bonus).fold(0.0f64, |a, _| a + 0.1);
    let value = base + added;
    (value, ((value + 0.05) * 10.0) as u16)
}

struct Search<'a> {
    p: &'a Pencil,
    side: usize,
    nodes: Vec<Node>,
    /// Per slot, its links on the grid (which stays as it is while single
    /// chains are followed), worked out once for the three passes, as
    /// ranges of `links` laid out so that each pass reads one range a
    /// node: the slot's cell's other digits (turned off by the slot on
    /// when a pass goes through cells), the same digit in the cell's
    /// houses (turned off by the slot on), the other digit of a cell with
    /// two (turned on by the slot off when a pass goes through cells), and
    /// the other place of each house with two places (turned on by the
    /// slot off when a pass goes through houses). `at[slot]` holds where
    /// each of the four starts, and where the last ends.
    at: Vec<[u32; 5]>,
    links: Vec<u32>,
    /// Per digit, the cells holding it, on a board of at most 128 cells
    /// and nine digits (empty otherwise).
    planes: Vec<u128>,
    /// The pass under way ([`Search::pass`]): which ends of `at` bound
    /// what a slot on turns off, and what a slot off turns on.
    on_ends: (usize, usize),
    off_ends: (usize, usize),
    on_seen: Vec<u32>,
    off_seen: Vec<u32>,
    generation: u32,
    /// Marks for [`Search::complexity`], by `slot * 2 + on`.
    counted: Vec<u32>,
    counted_generation: u32,
    /// The search's queues and what it found, kept from start to start.
    pending_on: Vec<u32>,
    pending_off: Vec<u32>,
    layer: Vec<u32>,
    found: Vec<u32>,
    /// Each house's cells as bits, when the board allows (empty
    /// otherwise).
    house_cells: Vec<u128>,
}

/// A search's memory, kept from grid to grid: a path follows the single
/// chains of step after step, and allocating and clearing it for each
/// cost more than a tenth of the search.
#[derive(Default)]
struct Memory {
    nodes: Vec<Node>,
    at: Vec<[u32; 5]>,
    links: Vec<u32>,
    planes: Vec<u128>,
    on_seen: Vec<u32>,
    off_seen: Vec<u32>,
    generation: u32,
    counted: Vec<u32>,
    counted_generation: u32,
    pending_on: Vec<u32>,
    pending_off: Vec<u32>,
    layer: Vec<u32>,
    found: Vec<u32>,
    house_cells: Vec<u128>,
}

thread_local! {
    static MEMORY: RefCell<Memory> = RefCell::new(Memory::default());
}

impl<'a> Search<'a> {
    fn new(p: &'a Pencil, memory: Memory) -> Search<'a> {
        let Memory {
            mut nodes,
            mut at,
            mut links,
            mut planes,
            mut on_seen,
            mut off_seen,
            mut generation,
            mut counted,
            mut counted_generation,
            mut pending_on,
            mut pending_off,
            mut layer,
            mut found,
            mut house_cells,
        } = memory;
        let g = p.geometry();
        let cells = p.size().cells();
        let side = p.size().side();
        let slots = cells * side;
        at.clear();
        at.resize(slots, [0; 5]);
        links.clear();
        let houses = g.houses();
        let places = p.places();
        planes.clear();
        if let Some(grid_planes) = p.planes()
            && side <= 9
        {
            planes.extend_from_slice(grid_planes);
        }
        // Each house's cells as bits, when every house lists its cells in
        // increasing order (the classic ones do): its cells holding a
        // digit then come out of the bits in the house's order.
        house_cells.clear();
        if !planes.is_empty() && houses.iter().all(|h| h.is_sorted()) {
            house_cells.extend((0..houses.len()).map(|h| cells128(g.house_bits(h))));
        }
        // The marks stay valid from grid to grid of one size: a search
        // only compares them with a generation of its own.
        if on_seen.len() != slots {
            on_seen.clear();
            on_seen.resize(slots, 0);
            off_seen.clear();
            off_seen.resize(slots, 0);
            counted.clear();
            counted.resize(slots * 2, 0);
            generation = 0;
            counted_generation = 0;
        }
        nodes.clear();
        pending_on.clear();
        pending_off.clear();
        layer.clear();
        found.clear();
        for cell in 0..cells {
            let cell_houses = g.se_houses_of(cell);
            let m = p.candidates(cell);
            for digit in digits(m) {
                let slot = cell * side + usize::from(digit) - 1;
                let ends = &mut at[slot];
                ends[0] = links.len() as u32;
                for other in digits(m & !bit(digit)) {
                    links.push((cell * side + usize::from(other) - 1) as u32);
                }
                ends[1] = links.len() as u32;
                if house_cells.is_empty() {
                    let from = links.len();
                    for &h in cell_houses {
                        for &c in &houses[h] {
                            let s = (c * side + usize::from(digit) - 1) as u32;
                            if c != cell && p.has(c, digit) && !links[from..].contains(&s) {
                                links.push(s);
                            }
                        }
                    }
                } else {
                    let mut taken = 1u128 << cell;
                    for &h in cell_houses {
                        let mut m = planes[usize::from(digit) - 1] & house_cells[h] & !taken;
                        taken |= m;
                        while m != 0 {
                            let c = m.trailing_zeros() as usize;
                            m &= m - 1;
                            links.push((c * side + usize::from(digit) - 1) as u32);
                        }
                    }
                }
                ends[2] = links.len() as u32;
                if two(m) {
                    let other = (m & !bit(digit)).trailing_zeros() as usize;
                    links.push((cell * side + other) as u32);
                }
                ends[3] = links.len() as u32;
                let from = links.len();
                for &h in cell_houses {
                    let m = places[h][usize::from(digit) - 1];
                    if two(m) {
                        // The house's two places, in the house's order.
                        let (a, b) = (
                            houses[h][m.trailing_zeros() as usize],
                            houses[h][(m & (m - 1)).trailing_zeros() as usize],
                        );
                        let other = if a == cell { b } else { a };
                        let s = (other * side + usize::from(digit) - 1) as u32;
                        if !links[from..].contains(&s) {
                            links.push(s);
                        }
                    }
                }
                ends[4] = links.len() as u32;
            }
        }
        Search {
            p,
            side,
            planes,
            at,
            links,
            on_ends: (1, 2),
            off_ends: (3, 4),
            nodes,
            on_seen,
            off_seen,
            generation,
            counted,
            counted_generation,
            pending_on,
            pending_off,
            layer,
            found,
            house_cells,
        }
    }

    /// The search's memory, for the next grid.
    fn memory(self) -> Memory {
        Memory {
            nodes: self.nodes,
            at: self.at,
            links: self.links,
            planes: self.planes,
            on_seen: self.on_seen,
            off_seen: self.off_seen,
            generation: self.generation,
            counted: self.counted,
            counted_generation: self.counted_generation,
            pending_on: self.pending_on,
            pending_off: self.pending_off,
            layer: self.layer,
            found: self.found,
            house_cells: self.house_cells,
        }
    }

    /// Sets the links for a pass: through cells with two candidates when
    /// `y`, through houses with two places when `x` (a slot on always
    /// turns off its digit in its houses). Every start of the pass then
    /// reads one range per node.
    fn pass(&mut self, y: bool, x: bool) {
        self.on_ends = if y { (0, 2) } else { (1, 2) };
        self.off_ends = match (y, x) {
            (true, true) => (2, 4),
            (true, false) => (2, 3),
            _ => (3, 4),
        };
    }

    /// The other places of `slot`'s digit in houses with two places.
    fn house_on(&self, slot: u32) -> std::ops::Range<usize> {
        let ends = &self.at[slot as usize];
        ends[3] as usize..ends[4] as usize
    }

    fn cell_digit(&self, slot: u32) -> (usize, u8) {
        let s = slot as usize;
        (s / self.side, (s % self.side) as u8 + 1)
    }

    fn slot(&self, cell: usize, digit: u8) -> u32 {
        (cell * self.side + usize::from(digit) - 1) as u32
    }

    fn fresh(&mut self) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.on_seen.iter_mut().for_each(|m| *m = 0);
            self.off_seen.iter_mut().for_each(|m| *m = 0);
            self.generation = 1;
        }
        self.generation
    }

    /// The distinct candidates (and states) on the way to node `n`.
    fn complexity(&mut self, n: u32) -> usize {
        self.counted_generation = self.counted_generation.wrapping_add(1);
        if self.counted_generation == 0 {
            self.counted.iter_mut().for_each(|m| *m = 0);
            self.counted_generation = 1;
        }
        let mut count = 0;
        let mut at = n;
        while at != NONE {
            let node = self.nodes[at as usize];
            let key = node.slot as usize * 2 + usize::from(node.on);
            if self.counted[key] != self.counted_generation {
                self.counted[key] = self.counted_generation;
                count += 1;
            }
            at = node.parent;
        }
        count
    }

    /// What candidate on, node `n`, turns off in the pass under way, in
    /// SE's order, once each: a range of `self.links`.
    fn on_to_off(&self, n: u32) -> std::ops::Range<usize> {
        let ends = &self.at[self.nodes[n as usize].slot as usize];
        ends[self.on_ends.0] as usize..ends[self.on_ends.1] as usize
    }

    /// Whether `slot` off turns anything on in the pass under way. Most
    /// candidates off turn nothing on: a search does not keep them as
    /// nodes, as no chain goes on from them (a cycle's closing candidate
    /// off and a forcing chain's end are kept where they are found).
    fn leads_on(&self, slot: u32) -> bool {
        let ends = &self.at[slot as usize];
        ends[self.off_ends.0] < ends[self.off_ends.1]
    }

    /// What candidate off, node `n`, turns on in the pass under way.
    fn off_to_on(&self, n: u32) -> std::ops::Range<usize> {
        let ends = &self.at[self.nodes[n as usize].slot as usize];
        ends[self.off_ends.0] as usize..ends[self.off_ends.1] as usize
    }

    fn push(&mut self, slot: u32, on: bool, parent: u32) -> u32 {
        let depth = if parent == NONE {
            0
        } else {
            self.nodes[parent as usize].depth + 1
        };
        self.nodes.push(Node {
            slot,
            on,
            parent,
            depth,
        });
        (self.nodes.len() - 1) as u32
    }

    /// Whether the links of node `n` may still lead to a conclusion that
    /// rests on at most `deepest` candidates: a conclusion's complexity is
    /// at least its depth, so past that depth nothing found could win.
    fn within(&self, n: u32, deepest: u32) -> bool {
        self.nodes[n as usize].depth < deepest
    }

    /// The cycles back to `start` (on) in the pass under way, up to
    /// `deepest` links: the nodes that close them go to `self.found`.
    ///
    /// Chains are followed layer by layer, each candidate on once (the
    /// first way found); a cycle closes wherever a candidate on, other
    /// than the start, turns off one of the candidates whose being off
    /// turns the start on (its partners), unless that candidate is already
    /// off on the way there. Each candidate off is followed once too: a
    /// second way to it turns on only what the first did.
    fn cycles(&mut self, start: u32, deepest: u32) {
        self.nodes.clear();
        self.found.clear();
        let mark = self.fresh();
        let root = self.push(start, true, NONE);
        self.on_seen[start as usize] = mark;
        // The partners: what the start off turns on is what, off, turns
        // the start on (both links go both ways).
        let partners = self.off_to_on(root);
        let mut pending_on = std::mem::take(&mut self.pending_on);
        let mut pending_off = std::mem::take(&mut self.pending_off);
        pending_on.clear();
        pending_off.clear();
        pending_on.push(root);
        let mut layer = std::mem::take(&mut self.layer);
        layer.clear();
        while !pending_on.is_empty() {
            std::mem::swap(&mut layer, &mut pending_on);
            for &n in &layer {
                if !self.within(n, deepest) {
                    continue;
                }
                // A cycle closed from here rests on one more candidate
                // off, which must stay within the depth too.
                let closes = n != root && self.nodes[n as usize].depth + 1 < deepest;
                for k in self.on_to_off(n) {
                    let s = self.links[k];
                    if closes
                        && self.links[partners.clone()].contains(&s)
                        && !self.off_ancestor(n, s)
                    {
                        let off = self.push(s, false, n);
                        let id = self.push(start, true, off);
                        self.found.push(id);
                    }
                    if self.leads_on(s) && self.off_seen[s as usize] != mark {
                        self.off_seen[s as usize] = mark;
                        let id = self.push(s, false, n);
                        pending_off.push(id);
                    }
                }
            }
            layer.clear();
            std::mem::swap(&mut layer, &mut pending_off);
            for &n in &layer {
                if !self.within(n, deepest) {
                    continue;
                }
                for k in self.off_to_on(n) {
                    let s = self.links[k];
                    if self.on_seen[s as usize] != mark {
                        self.on_seen[s as usize] = mark;
                        let id = self.push(s, true, n);
                        pending_on.push(id);
                    }
                }
            }
            layer.clear();
        }
        self.pending_on = pending_on;
        self.pending_off = pending_off;
        self.layer = layer;
    }

    /// Whether `slot` off is on the way to node `n`.
    fn off_ancestor(&self, n: u32, slot: u32) -> bool {
        let mut at = self.nodes[n as usize].parent;
        while at != NONE {
            let node = self.nodes[at as usize];
            if !node.on && node.slot == slot {
                return true;
            }
            at = node.parent;
        }
        false
    }

    /// Forcing chains from `start` on or off in the pass under way (one
    /// that goes through houses): the nodes where it meets its own
    /// opposite, up to `deepest` links, go to `self.found`.
    fn forcing(&mut self, start: u32, on: bool, deepest: u32) {
        self.nodes.clear();
        self.found.clear();
        let mark = self.fresh();
        let root = self.push(start, on, NONE);
        let mut pending_on = std::mem::take(&mut self.pending_on);
        let mut pending_off = std::mem::take(&mut self.pending_off);
        pending_on.clear();
        pending_off.clear();
        if on {
            self.on_seen[start as usize] = mark;
            pending_on.push(root);
        } else {
            self.off_seen[start as usize] = mark;
            pending_off.push(root);
        }
        // The first meeting is the chain: what is found later is never
        // looked at, so the search ends there.
        'search: while !pending_on.is_empty() || !pending_off.is_empty() {
            let mut k_on = 0;
            while k_on < pending_on.len() {
                let n = pending_on[k_on];
                k_on += 1;
                if !self.within(n, deepest) {
                    continue;
                }
                for k in self.on_to_off(n) {
                    let s = self.links[k];
                    if on && s == start {
                        let id = self.push(s, false, n);
                        self.found.push(id);
                        break 'search;
                    }
                    // (A candidate off on the way here is marked seen.)
                    if self.leads_on(s) && self.off_seen[s as usize] != mark {
                        self.off_seen[s as usize] = mark;
                        let id = self.push(s, false, n);
                        pending_off.push(id);
                    }
                }
            }
            pending_on.clear();
            let mut k_off = 0;
            while k_off < pending_off.len() {
                let n = pending_off[k_off];
                k_off += 1;
                if !self.within(n, deepest) {
                    continue;
                }
                for k in self.off_to_on(n) {
                    let s = self.links[k];
                    if !on && s == start {
                        let id = self.push(s, true, n);
                        self.found.push(id);
                        break 'search;
                    }
                    if self.on_seen[s as usize] != mark {
                        self.on_seen[s as usize] = mark;
                        let id = self.push(s, true, n);
                        pending_on.push(id);
                    }
                }
            }
            pending_off.clear();
        }
        self.pending_on = pending_on;
        self.pending_off = pending_off;
    }

    /// Whether a cycle may come back to `start` in the pass under way:
    /// it comes back from a candidate off that turns the start on (the
    /// other digit of its cell, or its other place in a house), turned
    /// off by a candidate on, other than the start, that the start
    /// reaches. `links` (all the links, a pass's and more) says what the
    /// start reaches; without them, any cycle may.
    fn may_cycle(&self, links: Option<&Links>, start: u32, y: bool, x: bool) -> bool {
        let Some(links) = links else {
            return true;
        };
        let reach = links.reach(start as usize, true);
        let (cell, digit) = self.cell_digit(start);
        let g = self.p.geometry();
        // Whether a candidate on other than the start, that the start
        // reaches, turns `at`'s `back` off.
        let turned_off = |at: usize, back: u8| {
            let others = self.p.candidates(at) & !bit(back);
            let in_cell = digits(others)
                .any(|e| (at, e) != (cell, digit) && reach[usize::from(e) - 1] >> at & 1 == 1);
            let mut peers = reach[usize::from(back) - 1] & cells128(g.peer_bits(at));
            if back == digit {
                peers &= !(1 << cell);
            }
            in_cell || peers != 0
        };
        let m = self.p.candidates(cell);
        if y && two(m) {
            let other = (m & !bit(digit)).trailing_zeros() as u8 + 1;
            if turned_off(cell, other) {
                return true;
            }
        }
        if x {
            for &back in &self.links[self.house_on(start)] {
                let (c, d) = self.cell_digit(back);
                if turned_off(c, d) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether a cycle from `start` may remove anything. What it removes
    /// sees one of its digits where the cycle has it on (`a`) and where it
    /// has it off (`b`), outside its cells ([`Search::cycle_removes`]).
    /// The cycle's links go both ways, so the start on turns `a` on and
    /// `b` off, and the start off turns `a` off and `b` on; and what sees
    /// the digit where it is on is off. So what it removes is off whether
    /// the start is on or off, and sees the digit where the start on and
    /// off turn it on and off and where they turn it off and on. `links`
    /// (all the links, a pass's and more) says what the start on and off
    /// reach; without them, any cycle may. A pass of one digit's links
    /// (`x_only`) makes cycles of the start's digit alone.
    fn may_remove(&self, links: Option<&Links>, start: u32, x_only: bool) -> bool {
        let Some(links) = links else {
            return true;
        };
        let (on, off) = (
            links.reach(start as usize, true),
            links.reach(start as usize, false),
        );
        let (cell, digit) = self.cell_digit(start);
        let g = self.p.geometry();
        let ds = if x_only {
            let d = usize::from(digit) - 1;
            d..d + 1
        } else {
            0..self.side
        };
        ds.into_iter().any(|d| {
            let (a, b) = (on[d] & off[9 + d], on[9 + d] & off[d]);
            let mut removed = on[9 + d] & off[9 + d] & !(1 << cell);
            while removed != 0 {
                let x = removed.trailing_zeros() as usize;
                removed &= removed - 1;
                let sees = cells128(g.peer_bits(x));
                if sees & a != 0 && sees & b != 0 {
                    return true;
                }
            }
            false
        })
    }

    /// Whether a cycle closed at node `n` removes anything
    /// ([`Search::cycle_removes`] not empty), from bit sets: most cycles
    /// found remove nothing. Without bit sets (boards of more than 128
    /// cells or nine digits), whether it may.
    fn removes_any(&self, n: u32) -> bool {
        if self.planes.is_empty() {
            return true;
        }
        let g = self.p.geometry();
        let (mut cells, mut seen_on, mut seen_off) = (0u128, [0u128; 9], [0u128; 9]);
        let mut at = n;
        while at != NONE && self.nodes[at as usize].parent != NONE {
            let node = self.nodes[at as usize];
            let (c, d) = self.cell_digit(node.slot);
            cells |= 1 << c;
            let seen = if node.on { &mut seen_on } else { &mut seen_off };
            seen[usize::from(d) - 1] |= cells128(g.peer_bits(c));
            at = node.parent;
        }
        (0..self.side).any(|d| seen_on[d] & seen_off[d] & self.planes[d] & !cells != 0)
    }

    /// What a cycle closed at node `n` removes: candidates that see the
    /// cycle's digit both where it is on and where it is off.
    fn cycle_removes(&self, n: u32) -> (Vec<usize>, Vec<(usize, u8)>) {
        let mut cells = Vec::new();
        let mut at = n;
        while at != NONE && self.nodes[at as usize].parent != NONE {
            let (c, _) = self.cell_digit(self.nodes[at as usize].slot);
            if !cells.contains(&c) {
                cells.push(c);
            }
            at = self.nodes[at as usize].parent;
        }
        let g = self.p.geometry();
        let mut forward: Vec<(usize, u8)> = Vec::new();
        let mut back: Vec<(usize, u8)> = Vec::new();
        let mut at = n;
        while at != NONE && self.nodes[at as usize].parent != NONE {
            let node = self.nodes[at as usize];
            let (c, d) = self.cell_digit(node.slot);
            for &peer in g.peers(c) {
                if !cells.contains(&peer) && self.p.has(peer, d) {
                    let list = if node.on { &mut forward } else { &mut back };
                    if !list.contains(&(peer, d)) {
                        list.push((peer, d));
                    }
                }
            }
            at = node.parent;
        }
        forward.retain(|e| back.contains(e));
        (cells, forward)
    }
}

/// SE's easiest single chain on `p`, as a step.
///
/// `solution`, when known, saves following forcing chains that cannot
/// conclude: a chain from a candidate supposed true that holds in the
/// solution never reaches that candidate false (its links are sound), nor
/// one from a candidate supposed false that is false there. The step is
/// the same either way.
pub(crate) fn single_chains(p: &Pencil, solution: Option<&Grid>, seen: &Seen) -> Option<Step> {
    let mut s = Search::new(p, MEMORY.with(|m| std::mem::take(&mut *m.borrow_mut())));
    let links = Links::of(p);
    let links = links.as_ref();
    let mut best: Option<Found> = None;
    let cells = p.size().cells();
    // Whether a conclusion would beat the best so far: asked before
    // working out what a cycle removes, as most cycles found lose.
    let beats = |best: &Option<Found>, rating: f64, complexity: usize, order: u8| {
        best.as_ref().is_none_or(|b| {
            rating < b.rating
                || (rating == b.rating && (complexity, order) < (b.complexity, b.order))
        })
    };
    // The most candidates a conclusion of base rating `base` may rest on
    // and still beat the best so far (every one when there is none):
    // chains are followed no deeper. The rating only grows with the
    // complexity, so this cuts off exactly what could not win.
    // Changes whenever `best` does.
    let mut version = 0u32;
    let deepest = |best: &Option<Found>, base: f64, order: u8| -> u32 {
        if best.is_none() {
            return u32::MAX;
        }
        let mut c = 0usize;
        while beats(best, rating(base, c + 1).0, c + 1, order) {
            c += 1;
        }
        c as u32
    };
    // Whether a cycle from a slot may remove anything in the two passes
    // through cells, the same for both ([`Search::may_remove`]): 0 when
    // not worked out yet, 1 no, 2 yes.
    let mut through_cells = vec![0u8; cells * p.size().side()];
    for (y, x) in [(false, true), (true, false), (true, true)] {
        let order = match (y, x) {
            (false, _) => 2,
            (true, false) => 3,
            (true, true) => 4,
        };
        let (cycle_base, chain_base) = if y && x { (7.0, 7.0) } else { (6.5, 6.6) };
        s.pass(y, x);
        // The depth bounds of the pass, worked out again only when the
        // best changes: (the best's version they are for, the bound).
        let (mut cycle_most, mut chain_most) = ((u32::MAX, 0), (u32::MAX, 0));
        for cell in 0..cells {
            let card = p.candidates(cell).count_ones();
            if card < 2 {
                continue;
            }
            for digit in digits(p.candidates(cell)) {
                if card > 2 && !x {
                    continue;
                }
                let start = s.slot(cell, digit);
                // A cycle comes back to its start, on, from a candidate
                // off that turns it on: the other digit of its cell (when
                // the pass goes through cells) or its other place in a
                // house. Without either there is none to look for.
                if ((y && card == 2) || (x && !s.house_on(start).is_empty()))
                    && (if y {
                        let known = &mut through_cells[start as usize];
                        if *known == 0 {
                            *known = 1 + u8::from(s.may_remove(links.as_ref(), start, false));
                        }
                        *known == 2
                    } else {
                        s.may_remove(links.as_ref(), start, true)
                    })
                    && s.may_cycle(links.as_ref(), start, y, x)
                {
                    if cycle_most.0 != version {
                        cycle_most = (version, deepest(&best, cycle_base, order));
                    }
                    s.cycles(start, cycle_most.1);
                } else {
                    s.found.clear();
                }
                for i in 0..s.found.len() {
                    let n = s.found[i];
                    let complexity = s.complexity(n);
                    let (base, technique) = match (y, x) {
                        (true, true) => (7.0, Technique::BidirectionalCycle),
                        (true, false) => (6.5, Technique::BidirectionalYCycle),
                        _ => (6.5, Technique::BidirectionalXCycle),
                    };
                    let (r, tenths) = rating(base, complexity);
                    if !beats(&best, r, complexity, order) || !s.removes_any(n) {
                        continue;
                    }
                    let (cycle_cells, removes) = s.cycle_removes(n);
                    if removes.is_empty() {
                        continue;
                    }
                    best = Some(Found {
                        rating: r,
                        tenths,
                        complexity,
                        order,
                        technique,
                        eliminations: removes,
                        placement: None,
                        cells: cycle_cells,
                        digit,
                    });
                    version += 1;
                }
                if !x {
                    continue;
                }
                let holds = solution.map(|g| g.get(cell) == digit);
                for on in [true, false] {
                    if holds == Some(on) {
                        continue;
                    }
                    // A chain meets its start's opposite only where the
                    // links reach it.
                    if links
                        .as_ref()
                        .is_some_and(|l| !l.reaches(start as usize, on, start as usize, !on))
                    {
                        continue;
                    }
                    if chain_most.0 != version {
                        chain_most = (version, deepest(&best, chain_base, order));
                    }
                    s.forcing(start, on, chain_most.1);
                    for i in 0..s.found.len() {
                        let n = s.found[i];
                        let complexity = s.complexity(n);
                        let (base, technique) = if y {
                            (7.0, Technique::XyForcingChain)
                        } else {
                            (6.6, Technique::ForcingXChain)
                        };
                        let (r, tenths) = rating(base, complexity);
                        if !beats(&best, r, complexity, order) {
                            continue;
                        }
                        let mut chain_cells = Vec::new();
                        let mut at = n;
                        while at != NONE {
                            let (c, _) = s.cell_digit(s.nodes[at as usize].slot);
                            if !chain_cells.contains(&c) {
                                chain_cells.push(c);
                            }
                            at = s.nodes[at as usize].parent;
                        }
                        chain_cells.reverse();
                        best = Some(Found {
                            rating: r,
                            tenths,
                            complexity,
                            order,
                            technique,
                            eliminations: if on { vec![(cell, digit)] } else { Vec::new() },
                            placement: (!on).then_some((cell, digit)),
                            cells: chain_cells,
                            digit,
                        });
                        version += 1;
                    }
                }
            }
        }
    }
    MEMORY.with(|m| *m.borrow_mut() = s.memory());
    let found = best?;
    let length = found.complexity.saturating_sub(2);
    let mut step = Step::new(found.technique)
        .pattern(p, &found.cells, &[found.digit])
        .say(seen, || {
            let chain = found
                .cells
                .iter()
                .map(|&c| p.cell(c).to_string())
                .collect::<Vec<_>>()
                .join("-");
            match found.placement {
                Some((c, d)) => format!(
                    "if {} were not {}, the chain {chain} would make it {}, so it is ({length} implications)",
                    p.cell(c),
                    digit_char(d),
                    digit_char(d)
                ),
                None if found.technique == Technique::ForcingXChain
                    || found.technique == Technique::XyForcingChain =>
                {
                    let (c, d) = found.eliminations[0];
                    format!(
                        "if {} were {}, the chain {chain} would rule it out, so it is not ({length} implications)",
                        p.cell(c),
                        digit_char(d)
                    )
                }
                None => format!(
                    "the cycle {chain} on {} holds either way round, so {} ({length} implications)",
                    digit_char(found.digit),
                    found
                        .eliminations
                        .iter()
                        .map(|&(c, d)| format!("{}≠{}", p.cell(c), digit_char(d)))
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
            }
        });
    step.difficulty = Some(Difficulty(found.tenths));
    step.eliminations = found
        .eliminations
        .iter()
        .map(|&(c, d)| Clue {
            cell: p.cell(c),
            digit: d,
        })
        .collect();
    step.placements = found
        .placement
        .map(|(c, d)| Clue {
            cell: p.cell(c),
            digit: d,
        })
        .into_iter()
        .collect();
    Some(step)
}

#[cfg(test)]
mod tests {
    use crate::logic::Technique;
    use crate::logic::testing::rate_line;

    /// A qqwing puzzle serate rates 6.9: its hardest step is a
    /// bidirectional Y-cycle of complexity 18 (6.5 + 0.4). z3doku gave 7.1,
    /// an XY forcing chain, when it had no cycles.
    #[test]
    fn a_y_cycle_rates_as_sudoku_explainer_rates_it() {
        let line =
            ".8.....4..462...1.9.....8..6..8..4.....52.........6.25..16...5..9.34..6.......2.1";
        let (rating, path) = rate_line(line);
        assert_eq!(rating.er.0, 69);
        let top = path.steps.iter().max_by_key(|s| s.difficulty).unwrap();
        assert_eq!(top.technique, Technique::BidirectionalYCycle);
    }
}
