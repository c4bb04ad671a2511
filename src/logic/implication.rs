//! Sudoku Explainer's multiple-chain techniques, measured as SE measures
//! them: Nishio forcing chains (7.5), multiple (cell and region) forcing
//! chains (8.0) and dynamic forcing chains (8.5), each plus the length
//! bonus of its complexity.
//!
//! Every chain starts from one assumption, a candidate supposed true
//! ("on") or false ("off"), and follows its implications breadth first,
//! "on" ones before "off" ones:
//! - a candidate on turns off the other candidates of its cell (not in
//!   Nishio chains) and the digit in the rest of the cell's houses;
//! - a candidate off turns on the other candidate of a cell left with two
//!   (not in Nishio chains), and the other place of a house left with two
//!   places for the digit.
//!
//! A static chain (multiple forcing chains) reads "left with two" on the
//! grid as it stands; a dynamic one (Nishio, dynamic) takes each candidate
//! it turns off out of its grid, so later links see the grid the chain has
//! made, and a link that relies on earlier removals counts them among its
//! causes. A chain stops at its first contradiction: a candidate both on
//! and off.
//!
//! A conclusion's complexity is the number of distinct assumptions and
//! implications its chains rest on (each chain counted apart, the causes
//! of every link included); SE adds [`length_bonus`] of the complexity less
//! two to the base rating, and takes, of all conclusions of one technique,
//! the one of least complexity, then by kind (two chains from one
//! candidate, then a cell's chains, a house's chains, a contradiction),
//! then the first found, cells in reading order. A technique is asked
//! only when the ones before it found nothing, as SE asks them.

use super::links::{Links, cells128, two_cells};
use super::pencil::{Pencil, bit, digits, two};
use super::seen::Seen;
use super::step::Step;
use super::technique::{Difficulty, Technique, length_bonus};
use crate::puzzle::grid::{Clue, Grid, digit_char};
use std::cell::RefCell;
use std::rc::Rc;

const NONE: u32 = u32::MAX;

/// Which of SE's three multiple-chain techniques.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Mode {
    /// One digit's links only, dynamic, contradictions only.
    Nishio,
    /// Static chains: cell and house forcing chains.
    Multiple,
    /// Dynamic chains: contradictions, double implications, cell and
    /// house forcing chains.
    Dynamic,
}

impl Mode {
    fn cell_links(self) -> bool {
        self != Mode::Nishio
    }

    fn dynamic(self) -> bool {
        self != Mode::Multiple
    }

    fn technique(self) -> Technique {
        match self {
            Mode::Nishio => Technique::NishioForcingChain,
            Mode::Multiple => Technique::MultipleForcingChain,
            Mode::Dynamic => Technique::ForcingChain,
        }
    }
}

/// One implication: a candidate on or off, and the implications it
/// follows from (`parents` of them from `first` in [`Chain::parents`]).
#[derive(Clone, Copy)]
struct Node {
    slot: u32,
    on: bool,
    first: u32,
    parents: u32,
}

/// Everything one assumption implies, in the order found.
#[derive(Default)]
struct Chain {
    nodes: Vec<Node>,
    parents: Vec<u32>,
    on_list: Vec<u32>,
    off_list: Vec<u32>,
    /// Slots on and off, as bit sets.
    on_bits: Vec<u64>,
    off_bits: Vec<u64>,
    /// The first candidate found both on and off: its two nodes.
    absurd: Option<(u32, u32)>,
    built: bool,
}

impl Chain {
    fn push(&mut self, slot: u32, on: bool, parents: &[u32]) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(Node {
            slot,
            on,
            first: self.parents.len() as u32,
            parents: parents.len() as u32,
        });
        self.parents.extend_from_slice(parents);
        id
    }

    fn has(bits: &[u64], slot: u32) -> bool {
        bits[slot as usize / 64] >> (slot % 64) & 1 == 1
    }

    fn holds(&self, slot: u32, on: bool) -> bool {
        Chain::has(if on { &self.on_bits } else { &self.off_bits }, slot)
    }

    /// The node of `slot` on or off in this chain (it must hold it).
    fn node_of(&self, slot: u32, on: bool) -> u32 {
        let list = if on { &self.on_list } else { &self.off_list };
        list.iter()
            .copied()
            .find(|&n| self.nodes[n as usize].slot == slot)
            .unwrap_or(NONE)
    }
}

/// A conclusion found: its complexity, SE's order among equals, what it
/// concludes and how it reads.
struct Found {
    complexity: usize,
    order: u8,
    /// The candidate concluded: placed when `on`, else eliminated.
    slot: u32,
    on: bool,
    said: Said,
}

#[derive(Clone, Copy)]
enum Said {
    Contradiction { slot: u32, on: bool },
    Double { slot: u32 },
    House { house: usize, digit: u8 },
    Cell { cell: usize },
}

struct Engine<'a> {
    p: &'a Pencil,
    side: usize,
    /// Each cell's houses in SE's order (box, row, column, then the
    /// rest), with the cell's place in each.
    houses_of: Vec<Vec<(usize, u32)>>,
    base: Vec<u32>,
    cand: Vec<u32>,
    /// The places of each digit in each house (`house * side + digit -
    /// 1`), as bit sets over the house's list: in the real grid and in
    /// the grid of the chain being built.
    base_places: Vec<u32>,
    places: Vec<u32>,
    at_on: Vec<u32>,
    at_off: Vec<u32>,
    mark: Vec<u32>,
    generation: u32,
    queue_on: Vec<u32>,
    queue_off: Vec<u32>,
    buf: Vec<u32>,
    /// What one candidate off turns on: the slot and where its parents
    /// start and end in `made_parents`.
    made: Vec<(u32, usize, usize)>,
    made_parents: Vec<u32>,
    words: usize,
    /// For [`Engine::reach`] (boards of at most 81 cells, nine digits):
    /// each cell's peers and each house's cells as bit sets over cells,
    /// the grid's cells for each digit, and the candidates waiting to be
    /// followed.
    peers: Vec<u128>,
    house_cells: Vec<u128>,
    base_planes: [u128; 9],
    /// Per digit, the houses (cells as bits) with two places or more for
    /// it: the only ones a Nishio chain reads.
    nishio_houses: Vec<Vec<u128>>,
    pending: Vec<(u8, u8, bool)>,
}

/// What one assumption implies, without how: the candidates its chain
/// turns on and off, as bit sets over cells per digit, or that it runs
/// into a contradiction. Following a chain's links without its parents
/// costs a fraction of building it, and most chains serve nothing: their
/// reach says which are worth building.
#[derive(Clone, Copy)]
struct Reach {
    on: [u128; 9],
    off: [u128; 9],
    contradiction: bool,
}

impl Reach {
    const NONE: Reach = Reach {
        on: [0; 9],
        off: [0; 9],
        contradiction: false,
    };

    /// Whether the chains of two reaches may share an implication (one on
    /// only in a cell of `worth`), as the double implications ask: not
    /// when neither meets a contradiction and nothing is in both.
    fn may_share(&self, other: &Reach, worth: u128) -> bool {
        self.contradiction
            || other.contradiction
            || (0..9)
                .any(|d| self.on[d] & other.on[d] & worth != 0 || self.off[d] & other.off[d] != 0)
    }
}

impl<'a> Engine<'a> {
    fn new(p: &'a Pencil) -> Engine<'a> {
        let size = p.size();
        let (cells, side) = (size.cells(), size.side());
        let g = p.geometry();
        let houses_of = (0..cells)
            .map(|c| {
                g.se_houses_of(c)
                    .iter()
                    .map(|&h| {
                        let k = g.houses()[h].iter().position(|&x| x == c).unwrap_or(0);
                        (h, k as u32)
                    })
                    .collect()
            })
            .collect();
        let base: Vec<u32> = (0..cells).map(|c| p.candidates(c)).collect();
        let base_places: Vec<u32> = p
            .places()
            .iter()
            .flat_map(|pos| pos[..side].iter().copied())
            .collect();
        let slots = cells * side;
        let small = cells <= 128 && side <= 9;
        let peers = if small {
            (0..cells).map(|c| cells128(g.peer_bits(c))).collect()
        } else {
            Vec::new()
        };
        let house_cells = if small {
            (0..g.houses().len())
                .map(|h| cells128(g.house_bits(h)))
                .collect()
        } else {
            Vec::new()
        };
        let mut base_planes = [0u128; 9];
        if small && let Some(planes) = p.planes() {
            base_planes[..side].copy_from_slice(planes);
        }
        let nishio_houses = base_planes
            .iter()
            .map(|&plane| {
                house_cells
                    .iter()
                    .copied()
                    .filter(|&h| {
                        let places = plane & h;
                        places & places.wrapping_sub(1) != 0
                    })
                    .collect()
            })
            .collect();
        Engine {
            p,
            side,
            houses_of,
            cand: base.clone(),
            base,
            places: base_places.clone(),
            base_places,
            at_on: vec![NONE; slots],
            at_off: vec![NONE; slots],
            mark: vec![0; slots * 2],
            generation: 0,
            queue_on: Vec::new(),
            queue_off: Vec::new(),
            buf: Vec::new(),
            made: Vec::new(),
            made_parents: Vec::new(),
            words: slots.div_ceil(64),
            peers,
            house_cells,
            base_planes,
            nishio_houses,
            pending: Vec::new(),
        }
    }

    /// Everything the chain of [`Engine::build`] from `slot` on or off
    /// would turn on and off, or that it would meet a contradiction,
    /// without its parents. The links are followed in another order, but
    /// what they reach is the same: a candidate turns on when its cell or
    /// a house's places for its digit go from two to one, which does not
    /// depend on the order the removals come in, and the chain stops at a
    /// contradiction exactly when the links reach one somewhere. Boards up
    /// to 128 cells with nine digits or fewer. Nishio chains serve only
    /// their contradictions: their reach says that alone.
    fn reach(&mut self, slot: u32, on: bool, mode: Mode) -> Reach {
        let mut r = Reach::NONE;
        if self.peers.is_empty() {
            // A board too large for these sets: every chain is built.
            r.contradiction = true;
            return r;
        }
        let (c0, d0) = self.cell_digit(slot);
        let (c0, d0) = (c0, usize::from(d0) - 1);
        if mode == Mode::Nishio {
            r.contradiction = self.nishio_contradiction(c0, d0, on);
            return r;
        }
        let dynamic = mode.dynamic();
        if dynamic {
            self.cand.copy_from_slice(&self.base);
        }
        let mut planes = self.base_planes;
        let mut pending = std::mem::take(&mut self.pending);
        pending.clear();
        if on {
            r.on[d0] |= 1 << c0;
        } else {
            r.off[d0] |= 1 << c0;
        }
        pending.push((c0 as u8, d0 as u8, on));
        let g = self.p.geometry();
        'follow: while let Some((cell, d, on)) = pending.pop() {
            let (cell, d) = (usize::from(cell), usize::from(d));
            let cb = 1u128 << cell;
            let cand = if dynamic {
                self.cand[cell]
            } else {
                self.base[cell]
            };
            if on {
                // The cell's other digits, then the digit in its houses.
                let mut others = cand & !(1 << d);
                while others != 0 {
                    let e = others.trailing_zeros() as usize;
                    others &= others - 1;
                    if r.off[e] & cb == 0 {
                        if r.on[e] & cb != 0 {
                            r.contradiction = true;
                            break 'follow;
                        }
                        r.off[e] |= cb;
                        pending.push((cell as u8, e as u8, false));
                    }
                }
                let mut new = planes[d] & self.peers[cell] & !r.off[d];
                if new & r.on[d] != 0 {
                    r.contradiction = true;
                    break 'follow;
                }
                r.off[d] |= new;
                while new != 0 {
                    let c = new.trailing_zeros() as u8;
                    new &= new - 1;
                    pending.push((c, d as u8, false));
                }
            } else {
                if two(cand) {
                    let other = (cand & !(1 << d)).trailing_zeros() as usize;
                    if r.on[other] & cb == 0 {
                        if r.off[other] & cb != 0 {
                            r.contradiction = true;
                            break 'follow;
                        }
                        r.on[other] |= cb;
                        pending.push((cell as u8, other as u8, true));
                    }
                }
                for &h in g.houses_of(cell) {
                    let m = planes[d] & self.house_cells[h];
                    if two_cells(m) {
                        let x = m & !cb;
                        if r.on[d] & x == 0 {
                            if r.off[d] & x != 0 {
                                r.contradiction = true;
                                break 'follow;
                            }
                            r.on[d] |= x;
                            pending.push((x.trailing_zeros() as u8, d as u8, true));
                        }
                    }
                }
                if dynamic {
                    self.cand[cell] &= !(1 << d);
                    planes[d] &= !cb;
                }
            }
        }
        self.pending = pending;
        r
    }

    /// Whether the Nishio chain from `cell`'s digit index `d` on or off
    /// meets a contradiction. It follows one digit's links: a place on
    /// turns off the digit's other places in its houses, and a house left
    /// with one place (of two or more in the grid) turns it on; the chain
    /// meets a contradiction when a place is both, or a house (of two
    /// places or more) has none left. What those rules reach does not
    /// depend on the order they are applied in, so they are applied to
    /// every house at once, round after round.
    fn nishio_contradiction(&self, cell: usize, d: usize, on: bool) -> bool {
        let plane = self.base_planes[d];
        let (mut turned_on, mut off) = if on {
            (1u128 << cell, plane & self.peers[cell])
        } else {
            (0, 1u128 << cell)
        };
        loop {
            if turned_on & off != 0 {
                return true;
            }
            let left = plane & !off;
            let mut new = 0u128;
            for &house in &self.nishio_houses[d] {
                let m = left & house;
                if m == 0 {
                    return true;
                }
                if m & (m - 1) == 0 {
                    new |= m;
                }
            }
            new &= !turned_on;
            if new == 0 {
                return false;
            }
            turned_on |= new;
            while new != 0 {
                let c = new.trailing_zeros() as usize;
                new &= new - 1;
                off |= plane & self.peers[c];
            }
        }
    }

    fn slot(&self, cell: usize, digit: u8) -> u32 {
        (cell * self.side + usize::from(digit) - 1) as u32
    }

    fn cell_digit(&self, slot: u32) -> (usize, u8) {
        let s = slot as usize;
        (s / self.side, (s % self.side) as u8 + 1)
    }

    fn next_mark(&mut self) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.generation = 1;
        }
        self.generation
    }

    /// Follows the assumption `slot` on or off into `chain`.
    fn build(&mut self, chain: &mut Chain, slot: u32, on: bool, mode: Mode) {
        chain.nodes.clear();
        chain.parents.clear();
        chain.on_list.clear();
        chain.off_list.clear();
        chain.absurd = None;
        chain.built = true;
        self.cand.copy_from_slice(&self.base);
        self.places.copy_from_slice(&self.base_places);
        self.queue_on.clear();
        self.queue_off.clear();
        let root = chain.push(slot, on, &[]);
        if on {
            self.at_on[slot as usize] = root;
            chain.on_list.push(root);
            self.queue_on.push(root);
        } else {
            self.at_off[slot as usize] = root;
            chain.off_list.push(root);
            self.queue_off.push(root);
        }
        let (mut head_on, mut head_off) = (0, 0);
        let geometry = self.p.geometry();
        let houses = geometry.houses();
        let side = self.side;
        'chain: loop {
            if head_on < self.queue_on.len() {
                let n = self.queue_on[head_on];
                head_on += 1;
                let (cell, digit) = self.cell_digit(chain.nodes[n as usize].slot);
                // What this candidate on turns off, in SE's order, once each.
                self.buf.clear();
                let mark = self.next_mark();
                if mode.cell_links() {
                    for other in digits(self.cand[cell] & !bit(digit)) {
                        let s = self.slot(cell, other);
                        self.mark[s as usize] = mark;
                        self.buf.push(s);
                    }
                }
                for &(h, k) in &self.houses_of[cell] {
                    let mut m = self.places[h * side + usize::from(digit) - 1] & !(1 << k);
                    while m != 0 {
                        let c = houses[h][m.trailing_zeros() as usize];
                        m &= m - 1;
                        let s = (c * side + usize::from(digit) - 1) as u32;
                        if self.mark[s as usize] != mark {
                            self.mark[s as usize] = mark;
                            self.buf.push(s);
                        }
                    }
                }
                for k in 0..self.buf.len() {
                    let s = self.buf[k];
                    if self.at_on[s as usize] != NONE {
                        let off = chain.push(s, false, &[n]);
                        chain.absurd = Some((self.at_on[s as usize], off));
                        break 'chain;
                    }
                    if self.at_off[s as usize] == NONE {
                        let id = chain.push(s, false, &[n]);
                        self.at_off[s as usize] = id;
                        chain.off_list.push(id);
                        self.queue_off.push(id);
                    }
                }
            } else if head_off < self.queue_off.len() {
                let n = self.queue_off[head_off];
                head_off += 1;
                let (cell, digit) = self.cell_digit(chain.nodes[n as usize].slot);
                // What this candidate off turns on, read before it leaves
                // the grid; each with the removals it relies on.
                self.made.clear();
                self.made_parents.clear();
                if mode.cell_links() && two(self.cand[cell]) {
                    let other = (self.cand[cell] & !bit(digit)).trailing_zeros() as u8 + 1;
                    let from = self.made_parents.len();
                    self.made_parents.push(n);
                    for gone in digits(self.base[cell] & !self.cand[cell]) {
                        let at = self.at_off[cell * side + usize::from(gone) - 1];
                        if at != NONE {
                            self.made_parents.push(at);
                        }
                    }
                    let s = self.slot(cell, other);
                    self.made.push((s, from, self.made_parents.len()));
                }
                let d = usize::from(digit) - 1;
                for &(h, k) in &self.houses_of[cell] {
                    let m = self.places[h * side + d];
                    if !two(m) {
                        continue;
                    }
                    let other = houses[h][(m & !(1 << k)).trailing_zeros() as usize];
                    let s = (other * side + d) as u32;
                    if self.made.iter().any(|&(x, _, _)| x == s) {
                        continue;
                    }
                    let from = self.made_parents.len();
                    self.made_parents.push(n);
                    let mut gone = self.base_places[h * side + d] & !m;
                    while gone != 0 {
                        let c = houses[h][gone.trailing_zeros() as usize];
                        gone &= gone - 1;
                        let at = self.at_off[c * side + d];
                        if at != NONE {
                            self.made_parents.push(at);
                        }
                    }
                    self.made.push((s, from, self.made_parents.len()));
                }
                if mode.dynamic() {
                    self.cand[cell] &= !bit(digit);
                    for &(h, k) in &self.houses_of[cell] {
                        self.places[h * side + d] &= !(1 << k);
                    }
                }
                for i in 0..self.made.len() {
                    let (s, from, to) = self.made[i];
                    let parents = &self.made_parents[from..to];
                    if self.at_off[s as usize] != NONE {
                        let on = chain.push(s, true, parents);
                        chain.absurd = Some((on, self.at_off[s as usize]));
                        break 'chain;
                    }
                    if self.at_on[s as usize] == NONE {
                        let id = chain.push(s, true, parents);
                        self.at_on[s as usize] = id;
                        chain.on_list.push(id);
                        self.queue_on.push(id);
                    }
                }
            } else {
                break;
            }
        }
        chain.on_bits.clear();
        chain.on_bits.resize(self.words, 0);
        chain.off_bits.clear();
        chain.off_bits.resize(self.words, 0);
        for &n in &chain.on_list {
            let s = chain.nodes[n as usize].slot;
            chain.on_bits[s as usize / 64] |= 1 << (s % 64);
            self.at_on[s as usize] = NONE;
        }
        for &n in &chain.off_list {
            let s = chain.nodes[n as usize].slot;
            chain.off_bits[s as usize / 64] |= 1 << (s % 64);
            self.at_off[s as usize] = NONE;
        }
    }

    /// The distinct implications `node` rests on, itself included.
    fn ancestors(&mut self, chain: &Chain, node: u32) -> usize {
        if node == NONE {
            return usize::MAX / 4;
        }
        let mark = self.next_mark();
        let mut stack = std::mem::take(&mut self.buf);
        stack.clear();
        stack.push(node);
        let mut count = 0;
        while let Some(n) = stack.pop() {
            let node = chain.nodes[n as usize];
            let key = node.slot as usize * 2 + usize::from(node.on);
            if self.mark[key] == mark {
                continue;
            }
            self.mark[key] = mark;
            count += 1;
            let from = node.first as usize;
            stack.extend_from_slice(&chain.parents[from..from + node.parents as usize]);
        }
        self.buf = stack;
        count
    }
}

/// SE's technique `mode` on `p`: its easiest conclusion, as a step.
///
/// `solution`, when known, saves building chains that can only end in a
/// contradiction and cannot: the links are sound, so a candidate supposed
/// true that holds in the solution, or supposed false that is false
/// there, never leads to one. The step is the same either way.
pub(crate) fn multiple_chains(
    p: &Pencil,
    mode: Mode,
    solution: Option<&Grid>,
    seen: &Seen,
) -> Option<Step> {
    let size = p.size();
    let (cells, side) = (size.cells(), size.side());
    let mut e = Engine::new(p);
    // The chains' memory is kept from call to call: a path asks this for
    // step after step, and each call follows hundreds of chains.
    let (mut on_chains, mut off_chain, mut reaches) =
        POOL.with(|pool| std::mem::take(&mut *pool.borrow_mut()));
    on_chains.resize_with(cells * side, Chain::default);
    on_chains.iter_mut().for_each(|c| c.built = false);
    reaches.reset(p, mode);
    let mut best: Option<Found> = None;
    let mut offer = |found: Found| {
        if best
            .as_ref()
            .is_none_or(|b| (found.complexity, found.order) < (b.complexity, b.order))
        {
            best = Some(found);
        }
    };
    let worth_on = |slot: u32| {
        let cell = slot as usize / side;
        p.candidates(cell).count_ones() > 1
    };
    let geometry = p.geometry();
    let mut members: Vec<u32> = Vec::new();
    let mut meet = Meet::new(p, e.words);
    for cell in 0..cells {
        let card = p.candidates(cell).count_ones();
        if !(card > 2 || (card > 1 && mode.dynamic())) {
            continue;
        }
        for digit in digits(p.candidates(cell)) {
            let slot = e.slot(cell, digit);
            let holds = solution.map(|g| g.get(cell) == digit);
            let contradiction = mode.dynamic();
            let double = card >= 3 && mode == Mode::Dynamic;
            if contradiction || double {
                // A chain on serves a contradiction (where the candidate
                // is false) and a double implication (cells of three or
                // more, in dynamic chains); a chain off the double
                // implications, and the contradictions only where the
                // candidate holds. Each is built only when its reach
                // shows it concludes something.
                let on_needed = double || holds != Some(true);
                let worth = reaches.worth;
                let on_reach = on_needed.then(|| reaches.get(&mut e, slot, mode));
                if contradiction && on_reach.is_some_and(|r| r.contradiction) {
                    build_on(&mut e, &mut on_chains, slot, mode);
                    let on = &on_chains[slot as usize];
                    if let Some((a, b)) = on.absurd {
                        let complexity = e.ancestors(on, a) + e.ancestors(on, b);
                        offer(Found {
                            complexity,
                            order: 7,
                            slot,
                            on: false,
                            said: Said::Contradiction { slot, on: true },
                        });
                    }
                }
                let off_needed = double || holds != Some(false);
                let off_reach = off_needed.then(|| e.reach(slot, false, mode));
                let mut off_built = false;
                if contradiction && off_reach.is_some_and(|r| r.contradiction) {
                    e.build(&mut off_chain, slot, false, mode);
                    off_built = true;
                    if let Some((a, b)) = off_chain.absurd {
                        let complexity = e.ancestors(&off_chain, a) + e.ancestors(&off_chain, b);
                        offer(Found {
                            complexity,
                            order: 7,
                            slot,
                            on: true,
                            said: Said::Contradiction { slot, on: false },
                        });
                    }
                }
                if let (true, Some(on_reach), Some(off_reach)) = (double, on_reach, off_reach)
                    && on_reach.may_share(&off_reach, worth)
                {
                    build_on(&mut e, &mut on_chains, slot, mode);
                    if !off_built {
                        e.build(&mut off_chain, slot, false, mode);
                    }
                    let on = &on_chains[slot as usize];
                    for state in [true, false] {
                        let list = if state { &on.on_list } else { &on.off_list };
                        for &n in list {
                            let s = on.nodes[n as usize].slot;
                            if !off_chain.holds(s, state) || (state && !worth_on(s)) {
                                continue;
                            }
                            let other = off_chain.node_of(s, state);
                            let complexity = e.ancestors(on, n) + e.ancestors(&off_chain, other);
                            offer(Found {
                                complexity,
                                order: 1,
                                slot: s,
                                on: state,
                                said: Said::Double { slot },
                            });
                        }
                    }
                }
            }
            if mode == Mode::Nishio {
                continue;
            }
            // House forcing chains, from the house's first place for the
            // digit.
            for hi in 0..e.houses_of[cell].len() {
                let h = e.houses_of[cell][hi].0;
                let places: Vec<usize> = geometry.houses()[h]
                    .iter()
                    .copied()
                    .filter(|&c| p.has(c, digit))
                    .collect();
                if places.len() < 2 || places[0] != cell {
                    continue;
                }
                members.clear();
                members.extend(places.iter().map(|&c| e.slot(c, digit)));
                if !reaches.meet(&mut e, &members, mode)
                    || !gather(&mut e, &mut on_chains, &members, mode, &mut meet)
                {
                    continue;
                }
                let chains: Vec<&Chain> = places
                    .iter()
                    .map(|&c| &on_chains[e.slot(c, digit) as usize])
                    .collect();
                shared(&mut e, &chains, &worth_on, &mut |complexity, s, state| {
                    offer(Found {
                        complexity,
                        order: 6,
                        slot: s,
                        on: state,
                        said: Said::House { house: h, digit },
                    });
                });
            }
        }
        if mode == Mode::Nishio {
            continue;
        }
        members.clear();
        members.extend(digits(p.candidates(cell)).map(|d| e.slot(cell, d)));
        if !reaches.meet(&mut e, &members, mode)
            || !gather(&mut e, &mut on_chains, &members, mode, &mut meet)
        {
            continue;
        }
        let chains: Vec<&Chain> = digits(p.candidates(cell))
            .map(|d| &on_chains[e.slot(cell, d) as usize])
            .collect();
        shared(&mut e, &chains, &worth_on, &mut |complexity, s, state| {
            offer(Found {
                complexity,
                order: 5,
                slot: s,
                on: state,
                said: Said::Cell { cell },
            });
        });
    }
    let found = best.map(|found| step(p, &e, mode, &found, seen));
    POOL.with(|pool| *pool.borrow_mut() = (on_chains, off_chain, reaches));
    found
}

/// Builds the chain on from `slot` unless it is built already.
fn build_on(e: &mut Engine<'_>, on_chains: &mut [Chain], slot: u32, mode: Mode) {
    if !on_chains[slot as usize].built {
        let mut chain = std::mem::take(&mut on_chains[slot as usize]);
        e.build(&mut chain, slot, true, mode);
        on_chains[slot as usize] = chain;
    }
}

/// The reaches of the chains on of one call, each worked out once.
#[derive(Default)]
struct Reaches {
    done: Vec<bool>,
    of: Vec<Reach>,
    /// The cells with more than one candidate: the only ones whose
    /// candidates a conclusion may turn on (as in [`shared`]).
    worth: u128,
    /// For static chains, what every candidate reaches, worked out for
    /// all of them at once.
    links: Option<Rc<Option<Links>>>,
}

impl Reaches {
    fn reset(&mut self, p: &Pencil, mode: Mode) {
        self.links = (mode == Mode::Multiple).then(|| Links::of(p));
        let slots = p.size().cells() * p.size().side();
        self.done.clear();
        self.done.resize(slots, false);
        self.of.resize(slots, Reach::NONE);
        self.worth = (0..p.size().cells().min(128))
            .filter(|&c| p.candidates(c).count_ones() > 1)
            .fold(0, |w, c| w | 1 << c);
    }

    /// The reach of the chain on from `slot`.
    fn get(&mut self, e: &mut Engine<'_>, slot: u32, mode: Mode) -> &Reach {
        let s = slot as usize;
        if !self.done[s] {
            self.of[s] = match self.links.as_deref() {
                Some(Some(links)) => {
                    let set = links.reach(s, true);
                    let mut r = Reach::NONE;
                    r.on.copy_from_slice(&set[..9]);
                    r.off.copy_from_slice(&set[9..]);
                    r.contradiction = r.on.iter().zip(&r.off).any(|(a, b)| a & b != 0);
                    r
                }
                _ => e.reach(slot, true, mode),
            };
            self.done[s] = true;
        }
        &self.of[s]
    }

    /// Whether the chains on of a group's `members` may share a
    /// conclusion, as [`gather`] asks, from their reaches: a chain that
    /// meets a contradiction stops there, and its reach then bounds
    /// nothing, but the others' must share something for the group to.
    fn meet(&mut self, e: &mut Engine<'_>, members: &[u32], mode: Mode) -> bool {
        let side = e.side;
        let mut on = [self.worth; 9];
        let mut off = [!0u128; 9];
        for &m in members {
            let (c, d) = (m as usize / side, m as usize % side);
            on[d] &= !(1 << c);
            off[d] &= !(1 << c);
        }
        for &m in members {
            let r = self.get(e, m, mode);
            if r.contradiction {
                continue;
            }
            let mut any = 0;
            for d in 0..side {
                on[d] &= r.on[d];
                off[d] &= r.off[d];
                any |= on[d] | off[d];
            }
            if any == 0 {
                return false;
            }
        }
        true
    }
}

/// What the chains of a group built so far share, as bit sets over slots
/// on and off, without the group's own candidates.
struct Meet {
    /// Slots in cells with more than one candidate: the only ones a
    /// group's conclusion may turn on (as in [`shared`]).
    worth: Vec<u64>,
    on: Vec<u64>,
    off: Vec<u64>,
}

impl Meet {
    fn new(p: &Pencil, words: usize) -> Meet {
        let side = p.size().side();
        let mut worth = vec![0u64; words];
        for cell in 0..p.size().cells() {
            if p.candidates(cell).count_ones() > 1 {
                for s in cell * side..(cell + 1) * side {
                    worth[s / 64] |= 1 << (s % 64);
                }
            }
        }
        Meet {
            worth,
            on: vec![0; words],
            off: vec![0; words],
        }
    }
}

/// Builds the chains on of a group's `members` (a cell's candidates, or a
/// digit's places in a house), in order, those not built yet; whether all
/// of them share something, which their conclusions ([`shared`]) need.
/// A member's own candidate is on in its chain alone (on in another would
/// meet it off there, a contradiction that ends that chain first) and off
/// in the others, never in its own, so none is ever shared: once nothing
/// else is, the members left need not be built for this group.
fn gather(
    e: &mut Engine<'_>,
    on_chains: &mut [Chain],
    members: &[u32],
    mode: Mode,
    meet: &mut Meet,
) -> bool {
    meet.on.copy_from_slice(&meet.worth);
    meet.off.iter_mut().for_each(|w| *w = !0);
    for &m in members {
        let (w, b) = (m as usize / 64, 1u64 << (m % 64));
        meet.on[w] &= !b;
        meet.off[w] &= !b;
    }
    for &m in members {
        if !on_chains[m as usize].built {
            let mut chain = std::mem::take(&mut on_chains[m as usize]);
            e.build(&mut chain, m, true, mode);
            on_chains[m as usize] = chain;
        }
        let chain = &on_chains[m as usize];
        let mut any = 0;
        for (w, (on, off)) in meet.on.iter_mut().zip(meet.off.iter_mut()).enumerate() {
            *on &= chain.on_bits[w];
            *off &= chain.off_bits[w];
            any |= *on | *off;
        }
        if any == 0 {
            return false;
        }
    }
    true
}

thread_local! {
    static POOL: RefCell<(Vec<Chain>, Chain, Reaches)> = RefCell::new(Default::default());
}

/// The implications every one of `chains` shares, on then off, in the
/// first chain's order, each handed to `each` with its complexity.
fn shared(
    e: &mut Engine<'_>,
    chains: &[&Chain],
    worth_on: &dyn Fn(u32) -> bool,
    each: &mut dyn FnMut(usize, u32, bool),
) {
    let Some((first, rest)) = chains.split_first() else {
        return;
    };
    for state in [true, false] {
        let list = if state {
            &first.on_list
        } else {
            &first.off_list
        };
        for &n in list {
            let s = first.nodes[n as usize].slot;
            if !rest.iter().all(|c| c.holds(s, state)) || (state && !worth_on(s)) {
                continue;
            }
            let mut complexity = e.ancestors(first, n);
            for c in rest {
                let other = c.node_of(s, state);
                complexity += e.ancestors(c, other);
            }
            each(complexity, s, state);
        }
    }
}

fn step(p: &Pencil, e: &Engine<'_>, mode: Mode, found: &Found, seen: &Seen) -> Step {
    let (cell, digit) = e.cell_digit(found.slot);
    let clue = Clue {
        cell: p.cell(cell),
        digit,
    };
    let name = |slot: u32, on: bool| {
        let (c, d) = e.cell_digit(slot);
        format!(
            "{}{}{}",
            p.cell(c),
            if on { "=" } else { "≠" },
            digit_char(d)
        )
    };
    let (pattern, ds): (Vec<usize>, Vec<u8>) = match found.said {
        Said::Contradiction { slot, .. } | Said::Double { slot } => {
            let (c, d) = e.cell_digit(slot);
            (vec![c], vec![d])
        }
        Said::House { house, digit } => (
            p.geometry().houses()[house]
                .iter()
                .copied()
                .filter(|&c| p.has(c, digit))
                .collect(),
            vec![digit],
        ),
        Said::Cell { cell } => (vec![cell], digits(p.candidates(cell)).collect()),
    };
    let length = found.complexity.saturating_sub(2);
    let mut s = Step::new(mode.technique())
        .pattern(p, &pattern, &ds)
        .say(seen, || {
            let because = match found.said {
                Said::Contradiction { slot, on } => format!(
                    "if {}, {length} implications later a candidate would be both true and false",
                    name(slot, on)
                ),
                Said::Double { slot } => {
                    format!(
                        "{} and {} both imply it",
                        name(slot, true),
                        name(slot, false)
                    )
                }
                Said::House { house, digit } => format!(
                    "wherever {} goes in {}, it follows",
                    digit_char(digit),
                    p.geometry().name(house)
                ),
                Said::Cell { cell } => format!("whatever {} is, it follows", p.cell(cell)),
            };
            format!(
                "{} ({because}; {length} implications)",
                name(found.slot, found.on)
            )
        });
    if found.on {
        s.placements = vec![clue];
    } else {
        s.eliminations = vec![clue];
    }
    s.difficulty = s.difficulty.map(|d| Difficulty(d.0 + length_bonus(length)));
    s
}

#[cfg(test)]
mod tests {
    use crate::logic::Technique;
    use crate::logic::testing::rate_line;
    use crate::puzzle::Puzzle;
    use crate::puzzle::parse::parse_line;

    /// The ER and the technique of the hardest step.
    fn hardest(line: &str) -> (u16, Technique) {
        let (rating, path) = rate_line(line);
        let top = path
            .steps
            .iter()
            .max_by_key(|s| s.difficulty)
            .map(|s| s.technique)
            .unwrap();
        (rating.er.0, top)
    }

    /// The reach of a chain, followed without its parents, and the
    /// static links' reach are what the chain built node by node holds:
    /// the same contradiction, and otherwise the same candidates on and
    /// off, from every candidate on and off, in every mode.
    #[test]
    fn reaches_hold_what_the_chains_hold() {
        use super::super::links::Links;
        use super::super::pencil::{Pencil, digits};
        use super::{Chain, Engine, Mode};
        for line in [
            "....75....1..2.....4...3...5.....3.2...8...1.......6.....1..48.2........7........",
            "....7...56.1.92....95.6....8.......3.6........3..4.7...5.....1...2.5..78...4.95..",
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        ] {
            let puzzle = Puzzle::classic(parse_line(line, 1, None).unwrap());
            let p = Pencil::new(&puzzle).unwrap();
            let links = Links::new(&p).unwrap();
            let mut e = Engine::new(&p);
            let mut chain = Chain::default();
            for cell in 0..81 {
                for digit in digits(p.candidates(cell)) {
                    let slot = e.slot(cell, digit);
                    for on in [true, false] {
                        for mode in [Mode::Nishio, Mode::Multiple, Mode::Dynamic] {
                            e.build(&mut chain, slot, on, mode);
                            let r = e.reach(slot, on, mode);
                            assert_eq!(r.contradiction, chain.absurd.is_some(), "{line} {slot}");
                            if r.contradiction || mode == Mode::Nishio {
                                continue;
                            }
                            let set = links.reach(slot as usize, on);
                            for c in 0..81 {
                                for d in 0..9 {
                                    let s = (c * 9 + d) as u32;
                                    let (held_on, held_off) =
                                        (chain.holds(s, true), chain.holds(s, false));
                                    assert_eq!(r.on[d] >> c & 1 == 1, held_on);
                                    assert_eq!(r.off[d] >> c & 1 == 1, held_off);
                                    if mode == Mode::Multiple {
                                        assert_eq!(set[d] >> c & 1 == 1, held_on);
                                        assert_eq!(set[9 + d] >> c & 1 == 1, held_off);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// top1465 puzzles serate rates 7.6 (Nishio), 8.2 (multiple forcing
    /// chains) and 9.0 (dynamic, complexity 20): z3doku gave 8.5 and more
    /// before its chains were measured as SE measures them.
    #[test]
    fn chains_rate_as_sudoku_explainer_rates_them() {
        assert_eq!(
            hardest(
                "....75....1..2.....4...3...5.....3.2...8...1.......6.....1..48.2........7........"
            ),
            (76, Technique::NishioForcingChain)
        );
        assert_eq!(
            hardest(
                "....7...56.1.92....95.6....8.......3.6........3..4.7...5.....1...2.5..78...4.95.."
            ),
            (82, Technique::MultipleForcingChain)
        );
        assert_eq!(
            hardest(
                "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
            ),
            (90, Technique::ForcingChain)
        );
    }
}
