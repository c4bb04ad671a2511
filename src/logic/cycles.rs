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

use super::pencil::{Pencil, bit, digits};
use super::seen::Seen;
use super::step::Step;
use super::technique::{Difficulty, Technique, length_bonus};
use crate::puzzle::grid::{Clue, digit_char};
use crate::puzzle::rules::HouseKind;

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
    /// Per slot, the house links of the grid (which stays as it is while
    /// single chains are followed), worked out once: the same digit in
    /// the cell's houses (turned off by the slot on), and the other place
    /// of each house with two places (turned on by the slot off), each as
    /// a range of `links`.
    house_off: Vec<(u32, u32)>,
    house_on: Vec<(u32, u32)>,
    links: Vec<u32>,
    on_seen: Vec<u32>,
    off_seen: Vec<u32>,
    generation: u32,
    path: Vec<u32>,
    path_generation: u32,
    buf: Vec<u32>,
}

impl<'a> Search<'a> {
    fn new(p: &'a Pencil) -> Search<'a> {
        let g = p.geometry();
        let rank = |h: usize| match g.kind(h) {
            HouseKind::Box | HouseKind::Region => 0,
            HouseKind::Row => 1,
            HouseKind::Column => 2,
            _ => 3,
        };
        let cells = p.size().cells();
        let side = p.size().side();
        let houses_of: Vec<Vec<usize>> = (0..cells)
            .map(|c| {
                let mut hs = g.houses_of(c).to_vec();
                hs.sort_by_key(|&h| rank(h));
                hs
            })
            .collect();
        let slots = cells * side;
        let (mut house_off, mut house_on) = (vec![(0, 0); slots], vec![(0, 0); slots]);
        let mut links: Vec<u32> = Vec::new();
        let houses = g.houses();
        for (cell, cell_houses) in houses_of.iter().enumerate() {
            for digit in digits(p.candidates(cell)) {
                let slot = cell * side + usize::from(digit) - 1;
                let from = links.len();
                for &h in cell_houses {
                    for &c in &houses[h] {
                        let s = (c * side + usize::from(digit) - 1) as u32;
                        if c != cell && p.has(c, digit) && !links[from..].contains(&s) {
                            links.push(s);
                        }
                    }
                }
                house_off[slot] = (from as u32, links.len() as u32);
                let from = links.len();
                for &h in cell_houses {
                    let places: Vec<usize> = houses[h]
                        .iter()
                        .copied()
                        .filter(|&c| p.has(c, digit))
                        .collect();
                    if places.len() == 2 {
                        let other = if places[0] == cell {
                            places[1]
                        } else {
                            places[0]
                        };
                        let s = (other * side + usize::from(digit) - 1) as u32;
                        if !links[from..].contains(&s) {
                            links.push(s);
                        }
                    }
                }
                house_on[slot] = (from as u32, links.len() as u32);
            }
        }
        Search {
            p,
            side,
            house_off,
            house_on,
            links,
            nodes: Vec::new(),
            on_seen: vec![0; cells * side],
            path: vec![0; cells * side],
            path_generation: 0,
            off_seen: vec![0; cells * side],
            generation: 0,
            buf: Vec::new(),
        }
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

    /// Marks the candidates off that are strict ancestors of node `n`, so
    /// that [`Search::is_ancestor`] answers at once for every link of `n`.
    fn mark_path(&mut self, n: u32) {
        self.path_generation = self.path_generation.wrapping_add(1);
        if self.path_generation == 0 {
            self.path.iter_mut().for_each(|m| *m = 0);
            self.path_generation = 1;
        }
        let mut at = self.nodes[n as usize].parent;
        while at != NONE {
            let node = self.nodes[at as usize];
            if !node.on {
                self.path[node.slot as usize] = self.path_generation;
            }
            at = node.parent;
        }
    }

    /// Whether `slot` off is a strict ancestor of the node last given to
    /// [`Search::mark_path`].
    fn is_ancestor(&self, slot: u32) -> bool {
        self.path[slot as usize] == self.path_generation
    }

    /// The distinct candidates (and states) on the way to node `n`.
    fn complexity(&self, n: u32) -> usize {
        let mut seen: Vec<(u32, bool)> = Vec::new();
        let mut at = n;
        while at != NONE {
            let node = self.nodes[at as usize];
            if !seen.contains(&(node.slot, node.on)) {
                seen.push((node.slot, node.on));
            }
            at = node.parent;
        }
        seen.len()
    }

    /// What candidate on, node `n`, turns off: into `self.buf`, in SE's
    /// order, once each.
    fn on_to_off(&mut self, n: u32, y: bool) {
        self.buf.clear();
        let slot = self.nodes[n as usize].slot;
        let (cell, digit) = self.cell_digit(slot);
        if y {
            for other in digits(self.p.candidates(cell) & !bit(digit)) {
                self.buf.push(self.slot(cell, other));
            }
        }
        let (from, to) = self.house_off[slot as usize];
        self.buf
            .extend_from_slice(&self.links[from as usize..to as usize]);
    }

    /// What candidate off, node `n`, turns on: into `self.buf`.
    fn off_to_on(&mut self, n: u32, y: bool, x: bool) {
        self.buf.clear();
        let slot = self.nodes[n as usize].slot;
        let (cell, digit) = self.cell_digit(slot);
        let m = self.p.candidates(cell);
        if y && m.count_ones() == 2 {
            let other = (m & !bit(digit)).trailing_zeros() as u8 + 1;
            self.buf.push(self.slot(cell, other));
        }
        if x {
            let (from, to) = self.house_on[slot as usize];
            self.buf
                .extend_from_slice(&self.links[from as usize..to as usize]);
        }
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

    /// The cycles back to `start` (on), as the nodes that close them, up
    /// to `deepest` links.
    fn cycles(&mut self, start: u32, y: bool, x: bool, deepest: u32) -> Vec<u32> {
        self.nodes.clear();
        let mark = self.fresh();
        let root = self.push(start, true, NONE);
        self.on_seen[start as usize] = mark;
        let mut pending_on = vec![root];
        let mut pending_off: Vec<u32> = Vec::new();
        let mut found = Vec::new();
        let mut length = 0;
        while !pending_on.is_empty() || !pending_off.is_empty() {
            length += 1;
            for n in std::mem::take(&mut pending_on) {
                if !self.within(n, deepest) {
                    continue;
                }
                self.on_to_off(n, y);
                self.mark_path(n);
                for k in 0..self.buf.len() {
                    let s = self.buf[k];
                    if !self.is_ancestor(s) {
                        let id = self.push(s, false, n);
                        pending_off.push(id);
                    }
                }
            }
            length += 1;
            for n in std::mem::take(&mut pending_off) {
                if !self.within(n, deepest) {
                    continue;
                }
                self.off_to_on(n, y, x);
                for k in 0..self.buf.len() {
                    let s = self.buf[k];
                    if length >= 4 && s == start {
                        found.push(self.push(s, true, n));
                    }
                    if self.on_seen[s as usize] != mark {
                        self.on_seen[s as usize] = mark;
                        let id = self.push(s, true, n);
                        pending_on.push(id);
                    }
                }
            }
        }
        found
    }

    /// Forcing chains from `start` on or off: the nodes where it meets
    /// its own opposite, up to `deepest` links.
    fn forcing(&mut self, start: u32, on: bool, y: bool, deepest: u32) -> Vec<u32> {
        self.nodes.clear();
        let mark = self.fresh();
        let root = self.push(start, on, NONE);
        let (mut pending_on, mut pending_off) = if on {
            self.on_seen[start as usize] = mark;
            (vec![root], Vec::new())
        } else {
            self.off_seen[start as usize] = mark;
            (Vec::new(), vec![root])
        };
        let mut found: Vec<u32> = Vec::new();
        while !pending_on.is_empty() || !pending_off.is_empty() {
            let mut k_on = 0;
            while k_on < pending_on.len() {
                let n = pending_on[k_on];
                k_on += 1;
                if !self.within(n, deepest) {
                    continue;
                }
                self.on_to_off(n, y);
                self.mark_path(n);
                for k in 0..self.buf.len() {
                    let s = self.buf[k];
                    if on && s == start && !found.iter().any(|&f| self.nodes[f as usize].slot == s)
                    {
                        found.push(self.push(s, false, n));
                    }
                    if !self.is_ancestor(s) && self.off_seen[s as usize] != mark {
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
                self.off_to_on(n, y, true);
                for k in 0..self.buf.len() {
                    let s = self.buf[k];
                    if !on && s == start && !found.iter().any(|&f| self.nodes[f as usize].slot == s)
                    {
                        found.push(self.push(s, true, n));
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
        found
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
pub(crate) fn single_chains(p: &Pencil, seen: &Seen) -> Option<Step> {
    let mut s = Search::new(p);
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
    for (y, x) in [(false, true), (true, false), (true, true)] {
        let order = match (y, x) {
            (false, _) => 2,
            (true, false) => 3,
            (true, true) => 4,
        };
        let (cycle_base, chain_base) = if y && x { (7.0, 7.0) } else { (6.5, 6.6) };
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
                let most = deepest(&best, cycle_base, order);
                for n in s.cycles(start, y, x, most) {
                    let complexity = s.complexity(n);
                    let (base, technique) = match (y, x) {
                        (true, true) => (7.0, Technique::BidirectionalCycle),
                        (true, false) => (6.5, Technique::BidirectionalYCycle),
                        _ => (6.5, Technique::BidirectionalXCycle),
                    };
                    let (r, tenths) = rating(base, complexity);
                    if !beats(&best, r, complexity, order) {
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
                }
                if !x {
                    continue;
                }
                for on in [true, false] {
                    let most = deepest(&best, chain_base, order);
                    for n in s.forcing(start, on, y, most) {
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
                    }
                }
            }
        }
    }
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
    use crate::engine::{Budget, EngineKind, Settings, new_engine};
    use crate::logic::{Logic, Rating, Technique, unique_solution};
    use crate::puzzle::Puzzle;
    use crate::puzzle::parse::parse_line;

    /// A qqwing puzzle serate rates 6.9: its hardest step is a
    /// bidirectional Y-cycle of complexity 18 (6.5 + 0.4). z3doku gave 7.1,
    /// an XY forcing chain, when it had no cycles.
    #[test]
    fn a_y_cycle_rates_as_sudoku_explainer_rates_it() {
        let line =
            ".8.....4..462...1.9.....8..6..8..4.....52.........6.25..16...5..9.34..6.......2.1";
        let puzzle = Puzzle::classic(parse_line(line, 1, None).unwrap());
        let mut engine = new_engine(&Settings {
            engine: EngineKind::Native,
            ..Settings::default()
        });
        let solution = unique_solution(engine.as_mut(), &puzzle, &Budget::unbounded()).unwrap();
        let logic = Logic {
            words: false,
            ..Logic::default()
        };
        let (rating, path) = Rating::rate(&puzzle, &solution, logic, engine.as_mut()).unwrap();
        assert_eq!(rating.er.0, 69);
        let top = path.steps.iter().max_by_key(|s| s.difficulty).unwrap();
        assert_eq!(top.technique, Technique::BidirectionalYCycle);
    }
}
