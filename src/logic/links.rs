//! What each candidate implies on the grid as it stands, for every
//! candidate at once: Sudoku Explainer's static links (a candidate on turns
//! off the other candidates of its cell and its digit in the rest of its
//! houses; a candidate off turns on the other candidate of a cell with two,
//! and the other place of a house with two places for its digit) as a
//! graph over candidates on and off, its strongly connected components,
//! and what each reaches.
//!
//! SE's single chains (the XY pass of [`super::cycles`]) and its multiple
//! forcing chains ([`super::implication`]) follow these links from one
//! candidate after another, and most of what they follow leads nowhere:
//! a forcing chain needs its start's opposite within reach, a cell's or a
//! house's chains need something in all their reaches. One pass over the
//! components answers those questions for every start, where following
//! each start's chains took most of a rating's time.

use super::pencil::{Pencil, digits, two};
use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;

/// Candidates on and off, as bit sets over cells for each digit (at most
/// 128 cells and nine digits): `[..9]` on, `[9..]` off.
pub(crate) type Literals = [u128; 18];

/// The static links of a grid and what each candidate, on or off, reaches
/// along them (itself included).
pub(crate) struct Links {
    side: usize,
    /// By literal (`slot * 2 + on`, `slot = cell * side + digit - 1`):
    /// its component, or `NONE` for a candidate the grid lacks and for a
    /// candidate off that reaches only itself.
    component: Vec<u32>,
    /// By component: everything it reaches.
    reach: Vec<Literals>,
}

const NONE: u32 = u32::MAX;

/// A set of at most 128 cells, from a geometry's words.
pub(crate) fn cells128(words: &[u64; 10]) -> u128 {
    u128::from(words[0]) | u128::from(words[1]) << 64
}

/// Whether a set of cells holds exactly two.
pub(crate) fn two_cells(set: u128) -> bool {
    let rest = set & set.wrapping_sub(1);
    rest != 0 && rest & (rest - 1) == 0
}

/// Where literal `l` (`slot * 2 + on`) sits in [`Literals`]: its digit's
/// set on or off.
fn lit_word(l: usize, side: usize) -> usize {
    let d = l / 2 % side;
    if l % 2 == 1 { d } else { 9 + d }
}

/// The working memory of [`Links::new`], kept from grid to grid: its
/// allocation and clearing cost a tenth of the work.
#[derive(Default)]
struct Scratch {
    first: Vec<u32>,
    succ: Vec<u32>,
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<u32>,
    calls: Vec<(u32, u32)>,
    added: Vec<u32>,
    only: Vec<u32>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
    /// The grid whose links were worked out last, and its links: a step of
    /// a path asks for the links of one grid twice when the single chains
    /// find nothing (for them, then for the multiple chains), and they
    /// cost as much as a quarter of a million instructions a grid.
    static LAST: RefCell<Option<(Pencil, Rc<Option<Links>>)>> = const { RefCell::new(None) };
}

impl Links {
    /// The links of `p` ([`Links::new`]), worked out once for a grid that
    /// is asked for again.
    pub(crate) fn of(p: &Pencil) -> Rc<Option<Links>> {
        LAST.with(|last| {
            let mut last = last.borrow_mut();
            if let Some((grid, links)) = last.as_ref()
                && grid.same_candidates(p)
            {
                return Rc::clone(links);
            }
            let links = Rc::new(Links::new(p));
            *last = Some((p.clone(), Rc::clone(&links)));
            links
        })
    }

    /// The links of `p`, or `None` on a board of more than 128 cells or
    /// nine digits.
    pub(crate) fn new(p: &Pencil) -> Option<Links> {
        let (cells, side) = (p.size().cells(), p.size().side());
        if side > 9 {
            return None;
        }
        let planes = p.planes()?;
        let g = p.geometry();
        let house_cells: Vec<u128> = (0..g.houses().len())
            .map(|h| cells128(g.house_bits(h)))
            .collect();
        // Successors, flat: literal `l`'s are `succ[first[l]..first[l + 1]]`.
        let literals = cells * side * 2;
        let mut scratch = SCRATCH.with(|s| std::mem::take(&mut *s.borrow_mut()));
        let Scratch {
            first,
            succ,
            index,
            low,
            on_stack,
            stack,
            calls,
            added,
            only,
        } = &mut scratch;
        first.clear();
        first.resize(literals + 1, 0);
        succ.clear();
        // The candidates whose being off turns something on: the others,
        // off, reach only themselves, so the links to them are left out of
        // the graph and their bits added to what turns them off at once.
        let mut live = [0u128; 9];
        for cell in 0..cells {
            let cand = p.candidates(cell);
            for digit in digits(cand) {
                let d = usize::from(digit) - 1;
                if two(cand)
                    || g.houses_of(cell)
                        .iter()
                        .any(|&h| two_cells(planes[d] & house_cells[h]))
                {
                    live[d] |= 1 << cell;
                }
            }
        }
        for slot in 0..cells * side {
            let (cell, d) = (slot / side, slot % side);
            let cand = p.candidates(cell);
            let has = cand >> d & 1 == 1;
            // Off.
            first[slot * 2] = succ.len() as u32;
            if has {
                if two(cand) {
                    let other = (cand & !(1 << d)).trailing_zeros() as usize;
                    succ.push(((cell * side + other) * 2 + 1) as u32);
                }
                for &h in g.houses_of(cell) {
                    let m = planes[d] & house_cells[h];
                    if two_cells(m) {
                        let other = (m & !(1 << cell)).trailing_zeros() as usize;
                        succ.push(((other * side + d) * 2 + 1) as u32);
                    }
                }
            }
            // On: the candidates off that turn something on.
            first[slot * 2 + 1] = succ.len() as u32;
            if has {
                for other in digits(cand & !(1 << d)) {
                    if live[usize::from(other) - 1] >> cell & 1 == 1 {
                        succ.push(((cell * side + usize::from(other) - 1) * 2) as u32);
                    }
                }
                let mut m = planes[d] & live[d] & cells128(g.peer_bits(cell));
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    m &= m - 1;
                    succ.push(((c * side + d) * 2) as u32);
                }
            }
        }
        first[literals] = succ.len() as u32;
        // Tarjan's components, without recursion. Each component comes out
        // after every component it reaches, so its reach is its own
        // literals and its successors' reaches, all known by then.
        let mut component = vec![NONE; literals];
        index.clear();
        index.resize(literals, NONE);
        low.clear();
        low.resize(literals, 0);
        on_stack.clear();
        on_stack.resize(literals, false);
        stack.clear();
        calls.clear();
        let mut reach: Vec<Literals> = Vec::with_capacity(literals / 4);
        added.clear();
        added.resize(literals, NONE);
        // By component: its one literal when it reaches nothing else.
        only.clear();
        let mut next_index = 0u32;
        // Every literal of the grid's candidates, in order.
        let roots = (0..cells).flat_map(|cell| {
            digits(p.candidates(cell)).flat_map(move |d| {
                let l = (cell * side + usize::from(d) - 1) * 2;
                [l, l + 1]
            })
        });
        for root in roots {
            // A candidate off that turns nothing on reaches only itself:
            // it needs no component ([`Links::reach`]).
            if index[root] != NONE || (root % 2 == 0 && first[root] == first[root + 1]) {
                continue;
            }
            calls.push((root as u32, first[root]));
            index[root] = next_index;
            low[root] = next_index;
            next_index += 1;
            stack.push(root as u32);
            on_stack[root] = true;
            while let Some(&mut (v, ref mut at)) = calls.last_mut() {
                let v = v as usize;
                if *at < first[v + 1] {
                    let w = succ[*at as usize] as usize;
                    *at += 1;
                    if index[w] == NONE {
                        index[w] = next_index;
                        low[w] = next_index;
                        next_index += 1;
                        stack.push(w as u32);
                        on_stack[w] = true;
                        calls.push((w as u32, first[w]));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                calls.pop();
                if let Some(&(u, _)) = calls.last() {
                    let u = u as usize;
                    low[u] = low[u].min(low[v]);
                }
                if low[v] != index[v] {
                    continue;
                }
                let id = reach.len() as u32;
                // Built in place: the components it reaches are before it.
                reach.push([0u128; 18]);
                let (known, last) = reach.split_at_mut(id as usize);
                let set = &mut last[0];
                let mut members = stack.len();
                loop {
                    members -= 1;
                    let w = stack[members] as usize;
                    on_stack[w] = false;
                    component[w] = id;
                    set[lit_word(w, side)] |= 1 << (w / 2 / side);
                    if w == v {
                        break;
                    }
                }
                // Each component reached is added once; one that reaches
                // only its one literal (most candidates off reach nothing)
                // as that literal's bit.
                let mut alone = true;
                for &w in &stack[members..] {
                    let w = w as usize;
                    if w % 2 == 1 {
                        // Everything a candidate on turns off, the
                        // candidates off left out of the graph with it.
                        let (cell, d) = (w / 2 / side, w / 2 % side);
                        let cand = p.candidates(cell);
                        let peers = planes[d] & cells128(g.peer_bits(cell));
                        set[9 + d] |= peers;
                        let mut others = cand & !(1 << d);
                        if peers != 0 || others != 0 {
                            alone = false;
                        }
                        while others != 0 {
                            let e = others.trailing_zeros() as usize;
                            others &= others - 1;
                            set[9 + e] |= 1 << cell;
                        }
                    }
                    for &x in &succ[first[w] as usize..first[w + 1] as usize] {
                        let c = component[x as usize];
                        if c == id {
                            continue;
                        }
                        alone = false;
                        if added[c as usize] == id {
                            continue;
                        }
                        added[c as usize] = id;
                        match only[c as usize] {
                            NONE => {
                                let other = &known[c as usize];
                                for i in 0..18 {
                                    set[i] |= other[i];
                                }
                            }
                            x => {
                                let x = x as usize;
                                set[lit_word(x, side)] |= 1 << (x / 2 / side);
                            }
                        }
                    }
                }
                only.push(if alone && members == stack.len() - 1 {
                    v as u32
                } else {
                    NONE
                });
                stack.truncate(members);
            }
        }
        SCRATCH.with(|s| *s.borrow_mut() = scratch);
        Some(Links {
            side,
            component,
            reach,
        })
    }

    /// Everything `slot` (`cell * side + digit - 1`) on or off reaches.
    /// The grid must hold the candidate.
    pub(crate) fn reach(&self, slot: usize, on: bool) -> Cow<'_, Literals> {
        let l = slot * 2 + usize::from(on);
        match self.component[l] {
            NONE => {
                let mut alone = [0u128; 18];
                alone[lit_word(l, self.side)] |= 1 << (slot / self.side);
                Cow::Owned(alone)
            }
            c => Cow::Borrowed(&self.reach[c as usize]),
        }
    }

    /// Whether `slot` on or off reaches `to` on or off.
    pub(crate) fn reaches(&self, slot: usize, on: bool, to: usize, to_on: bool) -> bool {
        let (cell, d) = (to / self.side, to % self.side);
        match self.component[slot * 2 + usize::from(on)] {
            NONE => (slot, on) == (to, to_on),
            c => self.reach[c as usize][if to_on { d } else { 9 + d }] >> cell & 1 == 1,
        }
    }
}
