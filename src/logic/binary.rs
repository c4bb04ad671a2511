//! Sudoku Explainer's forcing X-chains and XY forcing chains: a candidate
//! assumed true leads, through links alone, to itself false, so it is
//! false. The links are the binary ones of the grid as it stands: a digit
//! placed in a cell rules out the cell's other digits and the digit in its
//! peers; a digit ruled out of a cell with two candidates leaves the
//! other, and out of a house with two places for it leaves the other
//! place. Nothing else is deduced along the way (that is the forcing
//! chains of [`super::forcing`]).
//!
//! The chain's length is SE's: the number of assumptions on it, the first
//! and the last included, less two; the rating is 6.6 for a chain of one
//! digit's links (a forcing X-chain) or 7.0 for one that also goes through
//! cells, plus [`length_bonus`]. Every candidate is tried and the lowest
//! rating wins, as SE takes the easiest of all the chains it finds.

use super::pencil::{Pencil, bit, digits};
use super::seen::Seen;
use super::step::{Step, cell_list};
use super::technique::{Difficulty, Technique, length_bonus};
use crate::puzzle::grid::{Clue, Grid, digit_char};

/// The search's memory for one grid, reused from candidate to candidate.
/// Assumptions are kept as bit sets over cells, one per digit: a true
/// digit rules out its peers' same digit with one mask per word, which is
/// what makes trying every candidate of the grid affordable.
struct Search {
    side: usize,
    words: usize,
    /// Per digit, the cells holding it.
    holding: Vec<[u64; 10]>,
    /// Per cell and digit (`cell * side + digit - 1`), the places a false
    /// digit there makes true: the cell's other digit when it has two,
    /// and the other place in each house with two places for the digit.
    partners: Vec<[(u32, bool); 4]>,
    /// Per digit, the cells assumed true and false so far.
    on: Vec<[u64; 10]>,
    off: Vec<[u64; 10]>,
    /// The assumption each one came from, by node (`(cell * side + digit
    /// - 1) * 2 + true`), valid where `on`/`off` are set.
    parent: Vec<u32>,
    next_on: Vec<(usize, u8)>,
    next_off: Vec<(usize, u8)>,
}

impl Search {
    fn new(p: &Pencil) -> Search {
        let side = p.size().side();
        let cells = p.size().cells();
        let words = cells.div_ceil(64);
        let g = p.geometry();
        let mut holding = vec![[0u64; 10]; side];
        for c in 0..cells {
            for d in digits(p.candidates(c)) {
                holding[usize::from(d - 1)][c / 64] |= 1 << (c % 64);
            }
        }
        let mut partners = vec![[(u32::MAX, false); 4]; cells * side];
        let places = p.places();
        for c in 0..cells {
            let m = p.candidates(c);
            for d in digits(m) {
                let slot = &mut partners[c * side + usize::from(d - 1)];
                let mut k = 0;
                if m.count_ones() == 2 {
                    let other = (m & !bit(d)).trailing_zeros() as usize;
                    slot[k] = ((c * side + other) as u32, true);
                    k += 1;
                }
                for &h in g.houses_of(c) {
                    let two = places[h][usize::from(d - 1)];
                    if k == slot.len() || two.count_ones() != 2 {
                        continue;
                    }
                    let house = &g.houses()[h];
                    let (a, b) = (two.trailing_zeros(), (two & (two - 1)).trailing_zeros());
                    let o = if house[a as usize] == c {
                        house[b as usize]
                    } else {
                        house[a as usize]
                    };
                    let node = (o * side + usize::from(d - 1)) as u32;
                    if !slot[..k].iter().any(|&(n, _)| n == node) {
                        slot[k] = (node, false);
                        k += 1;
                    }
                }
            }
        }
        Search {
            side,
            words,
            holding,
            partners,
            on: vec![[0; 10]; side],
            off: vec![[0; 10]; side],
            parent: vec![0; cells * side * 2],
            next_on: Vec::new(),
            next_off: Vec::new(),
        }
    }

    fn node(&self, cell: usize, digit: u8, on: bool) -> u32 {
        ((cell * self.side + usize::from(digit - 1)) * 2 + usize::from(on)) as u32
    }

    /// The number of assumptions of the shortest chain from `digit` true
    /// in `cell` to it false, when there is one of at most `bound`; with
    /// the chain's cells. `x_only` follows the digit's own links alone.
    fn chain(
        &mut self,
        p: &Pencil,
        cell: usize,
        digit: u8,
        x_only: bool,
        bound: usize,
    ) -> Option<(usize, Vec<usize>)> {
        let g = p.geometry();
        let (side, words) = (self.side, self.words);
        for d in 0..side {
            self.on[d] = [0; 10];
            self.off[d] = [0; 10];
        }
        let (tw, tb) = (cell / 64, 1u64 << (cell % 64));
        let t = usize::from(digit - 1);
        self.on[t][tw] |= tb;
        let start = self.node(cell, digit, true);
        self.parent[start as usize] = start;
        let mut ons = std::mem::take(&mut self.next_on);
        let mut offs = std::mem::take(&mut self.next_off);
        ons.clear();
        ons.push((cell, digit));
        // Rounds alternate: every true assumption of a round rules out its
        // neighbours, then every false one forces its partners.
        let mut count = 1;
        let mut found = None;
        while !ons.is_empty() && found.is_none() {
            count += 1;
            if count > bound {
                break;
            }
            offs.clear();
            for &(c, d) in &ons {
                let from = self.node(c, d, true);
                if !x_only {
                    let (w, b) = (c / 64, 1u64 << (c % 64));
                    for other in digits(p.candidates(c) & !bit(d)) {
                        let o = usize::from(other - 1);
                        if self.off[o][w] & b == 0 {
                            self.off[o][w] |= b;
                            let n = self.node(c, other, false) as usize;
                            self.parent[n] = from;
                            offs.push((c, other));
                        }
                    }
                }
                let di = usize::from(d - 1);
                let peers = g.peer_bits(c);
                for (w, &peer) in peers.iter().enumerate().take(words) {
                    let mut new = peer & self.holding[di][w] & !self.off[di][w];
                    self.off[di][w] |= new;
                    while new != 0 {
                        let o = w * 64 + new.trailing_zeros() as usize;
                        new &= new - 1;
                        let n = self.node(o, d, false) as usize;
                        self.parent[n] = from;
                        offs.push((o, d));
                    }
                }
            }
            if self.off[t][tw] & tb != 0 {
                found = Some(count);
                break;
            }
            count += 1;
            if count > bound {
                break;
            }
            ons.clear();
            for &(c, d) in &offs {
                let from = self.node(c, d, false);
                for &(node, in_cell) in &self.partners[c * side + usize::from(d - 1)] {
                    if node == u32::MAX {
                        break;
                    }
                    if x_only && in_cell {
                        continue;
                    }
                    let (o, od) = (node as usize / side, node as usize % side);
                    let (w, b) = (o / 64, 1u64 << (o % 64));
                    if self.on[od][w] & b == 0 {
                        self.on[od][w] |= b;
                        self.parent[(node * 2 + 1) as usize] = from;
                        ons.push((o, od as u8 + 1));
                    }
                }
            }
        }
        self.next_on = ons;
        self.next_off = offs;
        found.map(|count| (count, self.cells_of(self.node(cell, digit, false))))
    }

    /// The cells of the chain that ends at `node`, first to last.
    fn cells_of(&self, node: u32) -> Vec<usize> {
        let mut cells = Vec::new();
        let mut n = node;
        loop {
            let c = n as usize / 2 / self.side;
            if cells.last() != Some(&c) {
                cells.push(c);
            }
            let up = self.parent[n as usize];
            if up == n {
                break;
            }
            n = up;
        }
        cells.reverse();
        cells
    }
}

/// The easiest forcing X-chain or XY forcing chain of the grid, as SE
/// rates them, eliminating one candidate.
pub(crate) fn forcing_chain(p: &Pencil, solution: Option<&Grid>, seen: &Seen) -> Option<Step> {
    // Up to 9x9, SE's own single chains, cycles included, found and
    // measured as SE finds and measures them; larger boards keep the
    // contradictions below, which are cheaper there.
    if p.size().side() <= 9 {
        return super::cycles::single_chains(p, solution, seen);
    }
    let mut search = Search::new(p);
    let open = refutable(p, &search);
    if open.as_ref().is_some_and(|o| !o.iter().any(|&b| b)) {
        return None;
    }
    let side = search.side;
    let worth = |cell: usize, digit: u8| {
        open.as_ref()
            .is_none_or(|o| o[cell * side + usize::from(digit - 1)])
    };
    // Ratings are tried from the lowest up, each with the longest chains
    // that stay within it: the first rating with a chain is the easiest,
    // and the short searches of the low ratings cost little, where
    // following every candidate's chains to their end took most of a
    // rating's time.
    let nodes = p.size().cells() * side * 2;
    let mut found = None;
    let mut rating: u16 = 66;
    'tiers: loop {
        let mut last = true;
        for x_only in [true, false] {
            let base: u16 = if x_only { 66 } else { 70 };
            if base > rating {
                last = false;
                continue;
            }
            let most = longest(rating - base);
            last &= most >= nodes;
            for cell in 0..p.size().cells() {
                for digit in digits(p.candidates(cell)) {
                    if !worth(cell, digit) {
                        continue;
                    }
                    if let Some((count, cells)) = search.chain(p, cell, digit, x_only, most) {
                        found = Some((count, cell, digit, x_only, cells));
                        break 'tiers;
                    }
                }
            }
        }
        if last {
            break;
        }
        rating += 1;
    }
    let (count, cell, digit, x_only, cells) = found?;
    let rating = if x_only { 66 } else { 70 } + length_bonus(count.saturating_sub(2));
    let technique = if x_only {
        Technique::ForcingXChain
    } else {
        Technique::XyForcingChain
    };
    let mut step = Step::new(technique)
        .pattern(p, &cells, &[digit])
        .say(seen, || {
            format!(
                "if {} were {}, the chain {} ({} steps) would rule it out, so {} cannot be {}",
                p.cell(cell),
                digit_char(digit),
                cell_list(cells.iter().map(|&c| p.cell(c))),
                count - 1,
                p.cell(cell),
                digit_char(digit)
            )
        });
    step.difficulty = Some(Difficulty(rating));
    step.eliminations = vec![Clue {
        cell: p.cell(cell),
        digit,
    }];
    Some(step)
}

/// Per cell and digit (`cell * side + digit - 1`), whether the digit
/// assumed there might be ruled out by a chain, worked out for every
/// candidate at once; `None` on a board with too many candidates for it.
///
/// Most grids a chain is looked for in have none (a harder technique makes
/// the step), and following every candidate's chains to their end to learn
/// it took most of a rating's time. Here the digits each true digit makes
/// true through one false one are a bit set over candidates, the sets are
/// closed under "reaches" together, and a digit is ruled out only if it
/// reaches a true digit that rules it out. Every chain one digit follows
/// is a path there, so a digit marked false here has no chain.
fn refutable(p: &Pencil, search: &Search) -> Option<Vec<bool>> {
    let g = p.geometry();
    let side = search.side;
    let cells = p.size().cells();
    let mut id = vec![u32::MAX; cells * side];
    let mut of: Vec<(usize, u8)> = Vec::new();
    for c in 0..cells {
        for d in digits(p.candidates(c)) {
            id[c * side + usize::from(d - 1)] = of.len() as u32;
            of.push((c, d));
        }
    }
    let n = of.len();
    if n > 2048 {
        return None;
    }
    let words = n.div_ceil(64);
    let set = |v: &mut [u64], k: u32| v[k as usize / 64] |= 1 << (k % 64);
    // What each digit rules out, and what each makes true in one link.
    let mut weak = vec![0u64; n * words];
    let mut reach = vec![0u64; n * words];
    // Successor lists, flat: `succ[start[k]..start[k + 1]]` (one
    // allocation, where a list per candidate was a third of the time).
    let mut succ: Vec<u32> = Vec::with_capacity(n * 4);
    let mut start: Vec<u32> = Vec::with_capacity(n + 1);
    let mut out: Vec<u32> = Vec::new();
    for (k, &(c, d)) in of.iter().enumerate() {
        start.push(succ.len() as u32);
        let w = &mut weak[k * words..(k + 1) * words];
        out.clear();
        out.extend(digits(p.candidates(c) & !bit(d)).map(|o| id[c * side + usize::from(o - 1)]));
        out.extend(
            g.peers(c)
                .iter()
                .filter(|&&o| p.has(o, d))
                .map(|&o| id[o * side + usize::from(d - 1)]),
        );
        let r = &mut reach[k * words..(k + 1) * words];
        for &o in &out {
            set(w, o);
            let (oc, od) = of[o as usize];
            for &(node, _) in &search.partners[oc * side + usize::from(od - 1)] {
                if node == u32::MAX {
                    break;
                }
                let to = id[node as usize];
                if r[to as usize / 64] >> (to % 64) & 1 == 0 {
                    set(r, to);
                    succ.push(to);
                }
            }
        }
    }
    // What each digit reaches in any number of links: the digits are
    // grouped into strongly connected components (Tarjan's algorithm,
    // which finishes a component only after every component it reaches),
    // so one pass in that order fills every component's set.
    start.push(succ.len() as u32);
    let next = |k: usize| &succ[start[k] as usize..start[k + 1] as usize];
    let scc = components(n, &next);
    let count = scc.iter().map(|&c| c as usize + 1).max().unwrap_or(0);
    // The members of each component, flat, by a counting sort.
    let mut first = vec![0u32; count + 1];
    for &c in &scc {
        first[c as usize + 1] += 1;
    }
    for c in 0..count {
        first[c + 1] += first[c];
    }
    let mut fill = first.clone();
    let mut members = vec![0u32; n];
    for (k, &c) in scc.iter().enumerate() {
        members[fill[c as usize] as usize] = k as u32;
        fill[c as usize] += 1;
    }
    let mut from = vec![0u64; count * words];
    let mut acc = vec![0u64; words];
    for c in 0..count {
        acc.fill(0);
        for &k in &members[first[c] as usize..first[c + 1] as usize] {
            for &b in next(k as usize) {
                set(&mut acc, b);
                let cb = scc[b as usize] as usize;
                if cb != c {
                    for (x, y) in acc.iter_mut().zip(&from[cb * words..(cb + 1) * words]) {
                        *x |= *y;
                    }
                }
            }
        }
        from[c * words..(c + 1) * words].copy_from_slice(&acc);
    }
    for k in 0..n {
        let c = scc[k] as usize;
        reach[k * words..(k + 1) * words].copy_from_slice(&from[c * words..(c + 1) * words]);
    }
    let mut open = vec![false; cells * side];
    for (k, &(c, d)) in of.iter().enumerate() {
        let r = &reach[k * words..(k + 1) * words];
        let w = &weak[k * words..(k + 1) * words];
        open[c * side + usize::from(d - 1)] = r.iter().zip(w).any(|(a, b)| a & b != 0);
    }
    Some(open)
}

/// The strongly connected component of each of the `n` nodes of the graph
/// whose successors `next` lists, numbered in the order Tarjan's algorithm
/// finishes them: a component's successors have lower numbers.
fn components<'a>(n: usize, next: &impl Fn(usize) -> &'a [u32]) -> Vec<u32> {
    let none = u32::MAX;
    let (mut index, mut low) = (vec![none; n], vec![0u32; n]);
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut comp = vec![none; n];
    let (mut counter, mut found) = (0u32, 0u32);
    let mut calls: Vec<(u32, usize)> = Vec::new();
    for root in 0..n as u32 {
        if index[root as usize] != none {
            continue;
        }
        calls.push((root, 0));
        index[root as usize] = counter;
        low[root as usize] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        while let Some(&mut (v, ref mut edge)) = calls.last_mut() {
            let vi = v as usize;
            if let Some(&w) = next(vi).get(*edge) {
                *edge += 1;
                let wi = w as usize;
                if index[wi] == none {
                    index[wi] = counter;
                    low[wi] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[wi] = true;
                    calls.push((w, 0));
                } else if on_stack[wi] {
                    low[vi] = low[vi].min(index[wi]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(u, _)) = calls.last() {
                low[u as usize] = low[u as usize].min(low[vi]);
            }
            if low[vi] == index[vi] {
                while let Some(w) = stack.pop() {
                    on_stack[w as usize] = false;
                    comp[w as usize] = found;
                    if w == v {
                        break;
                    }
                }
                found += 1;
            }
        }
    }
    comp
}

/// The most assumptions a chain may have for its length bonus to stay at
/// or under `bonus` tenths.
fn longest(bonus: u16) -> usize {
    let mut count = 2;
    while length_bonus(count + 1 - 2) <= bonus && count < usize::from(u16::MAX) {
        count += 1;
    }
    count
}
