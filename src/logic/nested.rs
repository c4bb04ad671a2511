//! Sudoku Explainer's chains beyond its dynamic forcing chains: the
//! dynamic forcing chains (+) (9.0) and the nested forcing chains of
//! levels 2 to 5 (9.5, 10.0, 10.5, 11.0), each plus the length bonus of
//! its complexity. Classic 9x9 grids only, as SE.
//!
//! A chain is SE's dynamic chain (see [`super::implication`]): from one
//! assumption, candidates on turn off the rest of their cell and their
//! digit in their houses; candidates off turn on the last candidate of a
//! cell or the last place of a digit in a house, in the grid the chain has
//! made so far. What sets these techniques apart is what a chain does when
//! those links run out: it asks other techniques, on the grid the chain has
//! made, for candidates to turn off, and goes on from them.
//! - Level 1 (dynamic +): pointing and claiming, hidden pairs, naked pairs
//!   and X-wings, taken in that order; the first of them that has
//!   something to say gives every elimination it makes.
//! - Level 2 adds forcing X-chains and XY forcing chains (SE's unary
//!   chains) on that grid; level 3 adds multiple forcing chains; level 4
//!   asks dynamic forcing chains instead of both; level 5 asks level 2's
//!   chains on top of that, a chain nested in a chain nested in a chain.
//!
//! A pattern that holds in the grid as it was before the chain (one that
//! owes nothing to the chain's removals) is not taken: it would not be
//! the chain's doing. The candidates a pattern's eliminations owe to the
//! chain are its causes: for pointing, claiming and X-wings the digit's
//! places gone from the houses that confine it (outside the houses that
//! receive); for a hidden pair its digits gone from the rest of its house;
//! for a naked pair the other digits gone from its cells; for a nested
//! chain, the removals that made each of its cell and house links.
//!
//! A conclusion's complexity is, as for SE's other multiple chains, the
//! number of distinct implications its chains rest on, plus the
//! complexity of every distinct nested chain among them; SE takes, of all
//! conclusions of a level, the one of least complexity, then by kind (two
//! chains from one candidate, a cell's chains, a house's chains, a
//! contradiction), then the first found, cells in reading order; a level
//! is asked only when the ones before it found nothing.
//!
//! Each nested level asks a whole chain search at each point a chain's
//! own links run out, so a step can take seconds and more: the search
//! watches the path's budget ([`Deadline`]) and gives up when it is
//! spent, and the path then gives up as it does between steps.

use super::pencil::{Pencil, digits};
use super::seen::Seen;
use super::step::Step;
use super::technique::{Difficulty, Technique, length_bonus};
use crate::engine::Budget;
use crate::puzzle::grid::{Clue, digit_char};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::OnceLock;

const NONE: u32 = u32::MAX;

/// Candidates of the 81 cells, bit `d - 1` for digit `d`.
type Cands = [u16; 81];

/// A candidate: `cell * 9 + digit - 1`.
type Slot = u16;

fn slot(cell: usize, digit: u8) -> Slot {
    (cell * 9 + usize::from(digit) - 1) as Slot
}

fn cell_of(s: Slot) -> usize {
    usize::from(s) / 9
}

fn digit_of(s: Slot) -> u8 {
    (s % 9) as u8 + 1
}

fn bit(digit: u8) -> u16 {
    1 << (digit - 1)
}

/// The 27 houses in SE's order (boxes, rows, columns), each cell's houses
/// in the same order, and each cell's place in them.
struct Geo {
    houses: [[u8; 9]; 27],
    of: [[u8; 3]; 81],
}

fn geo() -> &'static Geo {
    static GEO: OnceLock<Geo> = OnceLock::new();
    GEO.get_or_init(|| {
        let mut houses = [[0u8; 9]; 27];
        let mut of = [[0u8; 3]; 81];
        for (h, house) in houses.iter_mut().enumerate() {
            let i = h % 9;
            for (k, cell) in house.iter_mut().enumerate() {
                *cell = match h / 9 {
                    0 => (i / 3 * 3 + k / 3) * 9 + i % 3 * 3 + k % 3,
                    1 => i * 9 + k,
                    _ => k * 9 + i,
                } as u8;
            }
        }
        for (c, of) in of.iter_mut().enumerate() {
            *of = [
                (c / 27 * 3 + c % 9 / 3) as u8,
                (9 + c / 9) as u8,
                (18 + c % 9) as u8,
            ];
        }
        Geo { houses, of }
    })
}

/// The places of `digit` in house `h` of `g`, as bits over the house's
/// list.
fn places(g: &Cands, h: usize, digit: u8) -> u16 {
    let b = bit(digit);
    geo().houses[h].iter().enumerate().fold(0, |m, (k, &c)| {
        m | u16::from(g[usize::from(c)] & b != 0) << k
    })
}

/// The path's budget, for the searches of one path: a nested step can take
/// longer than the budget a path checks between steps.
pub(crate) struct Deadline;

thread_local! {
    static BUDGET: RefCell<Option<Budget>> = const { RefCell::new(None) };
}

impl Deadline {
    /// Watches `budget` until the guard is dropped.
    pub(crate) fn watch(budget: &Budget) -> DeadlineGuard {
        let before = BUDGET.with(|b| b.borrow_mut().replace(budget.clone()));
        DeadlineGuard(before)
    }

    fn spent() -> bool {
        BUDGET.with(|b| b.borrow().as_ref().is_some_and(|b| b.spent().is_some()))
    }
}

/// Restores the budget watched before [`Deadline::watch`].
pub(crate) struct DeadlineGuard(Option<Budget>);

impl Drop for DeadlineGuard {
    fn drop(&mut self) {
        let before = self.0.take();
        BUDGET.with(|b| *b.borrow_mut() = before);
    }
}

/// Why a candidate is on or off in a chain.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cause {
    /// The assumption.
    Start,
    /// The last candidate of its cell (on), or its cell's digit on (off).
    Cell,
    /// The last place in house `h` (on), or the digit on in house `h`.
    House(u8),
    /// Another technique's elimination; the nested chain's index in
    /// [`Chain::nested`], or [`NONE`].
    Rule(u32),
}

#[derive(Clone, Copy)]
struct Node {
    slot: Slot,
    on: bool,
    cause: Cause,
    first: u32,
    count: u32,
}

/// A nested chain one of a chain's implications rests on: a key that
/// tells it from others, and its complexity.
#[derive(Clone, Copy)]
struct Nested {
    key: u64,
    complexity: usize,
}

/// Everything one assumption implies, in the order found.
#[derive(Clone, Default)]
struct Chain {
    nodes: Vec<Node>,
    parents: Vec<u32>,
    /// The node of each slot on (`2 * slot + 1`) and off (`2 * slot`).
    at: Vec<u32>,
    on_list: Vec<u32>,
    off_list: Vec<u32>,
    /// The first candidate found both on and off: its node on, its node off.
    absurd: Option<(u32, u32)>,
    nested: Vec<Nested>,
}

impl Chain {
    fn node(&self, s: Slot, on: bool) -> u32 {
        self.at[usize::from(s) * 2 + usize::from(on)]
    }

    fn holds(&self, s: Slot, on: bool) -> bool {
        self.node(s, on) != NONE
    }

    fn push(&mut self, s: Slot, on: bool, cause: Cause, parents: &[u32]) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(Node {
            slot: s,
            on,
            cause,
            first: self.parents.len() as u32,
            count: parents.len() as u32,
        });
        self.parents.extend_from_slice(parents);
        id
    }

    /// Adds a node kept in the chain (found, not the end of a
    /// contradiction).
    fn keep(&mut self, s: Slot, on: bool, cause: Cause, parents: &[u32]) -> u32 {
        let id = self.push(s, on, cause, parents);
        self.at[usize::from(s) * 2 + usize::from(on)] = id;
        if on {
            self.on_list.push(id);
        } else {
            self.off_list.push(id);
        }
        id
    }

    fn parents_of(&self, n: u32) -> &[u32] {
        let node = self.nodes[n as usize];
        &self.parents[node.first as usize..(node.first + node.count) as usize]
    }
}

/// Scratch marks for walking ancestors.
#[derive(Default)]
struct Marks {
    mark: Vec<u32>,
    generation: u32,
    stack: Vec<u32>,
}

impl Marks {
    fn next(&mut self) -> u32 {
        if self.mark.len() < 1458 {
            self.mark.resize(1458, 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.generation = 1;
        }
        self.generation
    }

    /// Visits `node` and its ancestors, each distinct candidate state
    /// once.
    fn walk(&mut self, chain: &Chain, node: u32, visit: &mut dyn FnMut(&Node)) -> usize {
        let mark = self.next();
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        stack.push(node);
        let mut count = 0;
        while let Some(n) = stack.pop() {
            let nd = chain.nodes[n as usize];
            let key = usize::from(nd.slot) * 2 + usize::from(nd.on);
            if self.mark[key] == mark {
                continue;
            }
            self.mark[key] = mark;
            count += 1;
            visit(&nd);
            stack.extend_from_slice(chain.parents_of(n));
        }
        self.stack = stack;
        count
    }
}

/// The complexity of a conclusion resting on `targets` (a chain and a
/// node in it): the distinct implications behind each, counted chain by
/// chain, plus the complexity of every distinct nested chain among them.
/// Nested chains are told apart within one chain; the same pattern found
/// again by another of the conclusion's chains, on that chain's own grid,
/// counts again: so SE's ratings come out on the forum_hardest puzzles
/// checked against it (counted once, a house's chains rated 10.2 where SE
/// says 10.3).
fn complexity(targets: &[(&Chain, u32)], marks: &mut Marks) -> usize {
    let mut flat = 0;
    let mut nested: Vec<(*const Chain, u64)> = Vec::new();
    let mut extra = 0;
    for &(chain, node) in targets {
        let whose: *const Chain = chain;
        flat += marks.walk(chain, node, &mut |nd| {
            if let Cause::Rule(i) = nd.cause
                && i != NONE
            {
                let n = chain.nested[i as usize];
                if !nested.contains(&(whose, n.key)) {
                    nested.push((whose, n.key));
                    extra += n.complexity;
                }
            }
        });
    }
    flat + extra
}

/// The candidates removed from `outer` to make `cur` that a chain's links
/// rest on: for each link on (and the start, taken as `start`'s kind of
/// link), its cell's removed candidates or its house's removed places.
fn rule_parents(
    targets: &[(&Chain, u32)],
    start: Cause,
    outer: &Cands,
    cur: &Cands,
    marks: &mut Marks,
    out: &mut Vec<Slot>,
) {
    let g = geo();
    for &(chain, node) in targets {
        marks.walk(chain, node, &mut |nd| {
            let cause = if nd.cause == Cause::Start {
                start
            } else {
                nd.cause
            };
            if !nd.on {
                return;
            }
            let cell = cell_of(nd.slot);
            match cause {
                Cause::Cell => {
                    for d in digits(u32::from(outer[cell] & !cur[cell])) {
                        let s = slot(cell, d);
                        if !out.contains(&s) {
                            out.push(s);
                        }
                    }
                }
                Cause::House(h) => {
                    let d = digit_of(nd.slot);
                    for &c in &g.houses[usize::from(h)] {
                        let c = usize::from(c);
                        if outer[c] & bit(d) != 0 && cur[c] & bit(d) == 0 {
                            let s = slot(c, d);
                            if !out.contains(&s) {
                                out.push(s);
                            }
                        }
                    }
                }
                Cause::Start | Cause::Rule(_) => {}
            }
        });
    }
}

/// A technique's elimination on a chain's grid: the candidates it removes
/// (by cell, then digit), the candidates the chain removed that it rests
/// on, and for a nested chain its key and complexity.
struct RuleHint {
    removable: Vec<Slot>,
    parents: Vec<Slot>,
    nested: Option<Nested>,
}

/// The chain searches asked inside chains at each level beyond 1.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Inner {
    /// SE's forcing X-chains and XY forcing chains.
    Unary,
    /// Multiple (static) forcing chains.
    Multiple,
    /// Dynamic forcing chains of the given level.
    Dynamic(u8),
}

fn inner_rules(level: u8) -> &'static [Inner] {
    match level {
        0 | 1 => &[],
        2 => &[Inner::Unary],
        3 => &[Inner::Unary, Inner::Multiple],
        4 => &[Inner::Dynamic(0)],
        _ => &[Inner::Dynamic(0), Inner::Dynamic(2)],
    }
}

/// The eliminations of pointing and claiming, hidden and naked pairs and
/// X-wings, in turn, on `cur` (the grid a chain made from `outer`): those
/// of the first that has any resting on the chain's removals.
fn basic_rules(outer: &Cands, cur: &Cands, empty: &[u8; 27], out: &mut Vec<RuleHint>) {
    let g = geo();
    // Pointing and claiming: a digit's places in a house all in another.
    for (confining, receiving) in [(0..9, 9..27), (9..27, 0..9)] {
        for a in confining {
            for d in 1..=9u8 {
                let m = places(cur, a, d);
                if !(2..=3).contains(&m.count_ones()) {
                    continue;
                }
                let cells: Vec<usize> = (0..9)
                    .filter(|&k| m >> k & 1 == 1)
                    .map(|k| usize::from(g.houses[a][k]))
                    .collect();
                for b in receiving.clone() {
                    let hb = &g.houses[b];
                    if !cells.iter().all(|&c| hb.contains(&(c as u8))) {
                        continue;
                    }
                    let ha = &g.houses[a];
                    let removable: Vec<Slot> = hb
                        .iter()
                        .map(|&c| usize::from(c))
                        .filter(|&c| !ha.contains(&(c as u8)) && cur[c] & bit(d) != 0)
                        .map(|c| slot(c, d))
                        .collect();
                    if removable.is_empty() {
                        continue;
                    }
                    let parents = ha
                        .iter()
                        .map(|&c| usize::from(c))
                        .filter(|&c| {
                            !hb.contains(&(c as u8))
                                && outer[c] & bit(d) != 0
                                && cur[c] & bit(d) == 0
                        })
                        .map(|c| slot(c, d))
                        .collect();
                    push_hint(out, removable, parents);
                }
            }
        }
    }
    if any_given(out) {
        return;
    }
    // Hidden pairs.
    for (h, hs) in g.houses.iter().enumerate() {
        if empty[h] < 4 {
            continue;
        }
        for d1 in 1..=8u8 {
            let m1 = places(cur, h, d1);
            if m1 == 0 {
                continue;
            }
            for d2 in d1 + 1..=9 {
                let m2 = places(cur, h, d2);
                if m2 == 0 || (m1 | m2).count_ones() != 2 {
                    continue;
                }
                let keep = bit(d1) | bit(d2);
                let mut removable = Vec::new();
                for (k, &c) in hs.iter().enumerate() {
                    if (m1 | m2) >> k & 1 == 1 {
                        let c = usize::from(c);
                        removable.extend(digits(u32::from(cur[c] & !keep)).map(|d| slot(c, d)));
                    }
                }
                if removable.is_empty() {
                    continue;
                }
                let mut parents = Vec::new();
                for k in (0..9).filter(|&k| (m1 | m2) >> k & 1 == 0) {
                    let c = usize::from(hs[k]);
                    for d in [d1, d2] {
                        if outer[c] & bit(d) != 0 {
                            parents.push(slot(c, d));
                        }
                    }
                }
                push_hint(out, removable, parents);
            }
        }
    }
    if any_given(out) {
        return;
    }
    // Naked pairs.
    for (h, hs) in g.houses.iter().enumerate() {
        if empty[h] < 4 {
            continue;
        }
        for i in 0..8 {
            let a = usize::from(hs[i]);
            if cur[a] == 0 || cur[a].count_ones() > 2 {
                continue;
            }
            for &b in &hs[i + 1..] {
                let b = usize::from(b);
                let union = cur[a] | cur[b];
                if cur[b] == 0 || union.count_ones() != 2 {
                    continue;
                }
                let removable: Vec<Slot> = hs
                    .iter()
                    .map(|&c| usize::from(c))
                    .filter(|&c| c != a && c != b)
                    .flat_map(|c| digits(u32::from(cur[c] & union)).map(move |d| slot(c, d)))
                    .collect();
                if removable.is_empty() {
                    continue;
                }
                let parents = [a, b]
                    .iter()
                    .flat_map(|&c| digits(u32::from(outer[c] & !union)).map(move |d| slot(c, d)))
                    .collect();
                push_hint(out, removable, parents);
            }
        }
    }
    if any_given(out) {
        return;
    }
    // X-wings: rows onto columns, then columns onto rows.
    for (base, cover) in [(9usize, 18usize), (18, 9)] {
        for d in 1..=9u8 {
            for i in 0..8 {
                let m1 = places(cur, base + i, d);
                if m1.count_ones() != 2 {
                    continue;
                }
                for j in i + 1..9 {
                    if places(cur, base + j, d) != m1 {
                        continue;
                    }
                    let covers: Vec<usize> = (0..9)
                        .filter(|&k| m1 >> k & 1 == 1)
                        .map(|k| cover + k)
                        .collect();
                    let mut removable = Vec::new();
                    for &cv in &covers {
                        for (k, &c) in g.houses[cv].iter().enumerate() {
                            let c = usize::from(c);
                            if k != i && k != j && cur[c] & bit(d) != 0 {
                                removable.push(slot(c, d));
                            }
                        }
                    }
                    if removable.is_empty() {
                        continue;
                    }
                    let mut parents = Vec::new();
                    for line in [base + i, base + j] {
                        for (k, &c) in g.houses[line].iter().enumerate() {
                            let c = usize::from(c);
                            if m1 >> k & 1 == 0 && outer[c] & bit(d) != 0 && cur[c] & bit(d) == 0 {
                                parents.push(slot(c, d));
                            }
                        }
                    }
                    push_hint(out, removable, parents);
                }
            }
        }
    }
}

/// Keeps a pattern that rests on the chain's removals.
fn push_hint(out: &mut Vec<RuleHint>, mut removable: Vec<Slot>, parents: Vec<Slot>) {
    if parents.is_empty() {
        return;
    }
    removable.sort_unstable();
    out.push(RuleHint {
        removable,
        parents,
        nested: None,
    });
}

/// Whether a technique has given something (ending the rules' turn).
fn any_given(out: &[RuleHint]) -> bool {
    !out.is_empty()
}

/// What the search is asked: static or dynamic chains, and the level.
#[derive(Clone, Copy)]
struct Kind {
    dynamic: bool,
    level: u8,
}

/// A grid to search, and how the searches inside its chains read it.
struct Board<'a> {
    base: &'a Cands,
    /// Each house's open cells: SE's subsets need twice their size.
    empty: &'a [u8; 27],
}

/// What `d` in `cell` turns off on `cands`, each once with its link: the
/// cell's other digits (with `cell_links`), then `d` wherever a house of
/// the cell has it.
fn off_links(cands: &Cands, cell: usize, d: u8, cell_links: bool) -> Vec<(Slot, Cause)> {
    let g = geo();
    let mut off: Vec<(Slot, Cause)> = Vec::new();
    if cell_links {
        for e in digits(u32::from(cands[cell] & !bit(d))) {
            off.push((slot(cell, e), Cause::Cell));
        }
    }
    for &h in &g.of[cell] {
        for &c in &g.houses[usize::from(h)] {
            let c = usize::from(c);
            if c != cell && cands[c] & bit(d) != 0 {
                let t = slot(c, d);
                if !off.iter().any(|&(x, _)| x == t) {
                    off.push((t, Cause::House(h)));
                }
            }
        }
    }
    off
}

/// What `d` off in `cell` turns on through `cands`' static links, each
/// once: the cell's other digit when it has two (with `cell_links`), and
/// the other place of `d` in a house that has two (with `house_links`).
fn on_links(
    cands: &Cands,
    cell: usize,
    d: u8,
    cell_links: bool,
    house_links: bool,
) -> Vec<(Slot, Cause)> {
    let g = geo();
    let mut made: Vec<(Slot, Cause)> = Vec::new();
    if cell_links && cands[cell].count_ones() == 2 {
        let other = (cands[cell] & !bit(d)).trailing_zeros() as u8 + 1;
        made.push((slot(cell, other), Cause::Cell));
    }
    if house_links {
        for &h in &g.of[cell] {
            let m = places(cands, usize::from(h), d);
            if m.count_ones() != 2 {
                continue;
            }
            let hs = &g.houses[usize::from(h)];
            let Some(other) = (0..9)
                .filter(|&k| m >> k & 1 == 1)
                .map(|k| usize::from(hs[k]))
                .find(|&c| c != cell)
            else {
                continue;
            };
            let t = slot(other, d);
            if !made.iter().any(|&(x, _)| x == t) {
                made.push((t, Cause::House(h)));
            }
        }
    }
    made
}

/// Follows the assumption `start` (on or off) on `board` into `chain`, as
/// SE's dynamic (or static) chains do, asking the techniques of `kind`'s
/// level when the links run out. `None` when the budget ran out.
fn follow(board: &Board<'_>, kind: Kind, start: Slot, on: bool, chain: &mut Chain) -> Option<()> {
    let g = geo();
    let base = board.base;
    let mut cur: Cands = *base;
    chain.nodes.clear();
    chain.parents.clear();
    chain.on_list.clear();
    chain.off_list.clear();
    chain.nested.clear();
    chain.absurd = None;
    chain.at.clear();
    chain.at.resize(1458, NONE);
    let mut pending_on: VecDeque<u32> = VecDeque::new();
    let mut pending_off: VecDeque<u32> = VecDeque::new();
    let root = chain.keep(start, on, Cause::Start, &[]);
    if on {
        pending_on.push_back(root);
    } else {
        pending_off.push_back(root);
    }
    let mut made: Vec<(Slot, Cause, Vec<u32>)> = Vec::new();
    let mut hints: Vec<RuleHint> = Vec::new();
    loop {
        if let Some(n) = pending_on.pop_front() {
            let s = chain.nodes[n as usize].slot;
            let (cell, d) = (cell_of(s), digit_of(s));
            for (t, cause) in off_links(&cur, cell, d, true) {
                if chain.holds(t, true) {
                    let end = chain.push(t, false, cause, &[n]);
                    chain.absurd = Some((chain.node(t, true), end));
                    return Some(());
                }
                if !chain.holds(t, false) {
                    let id = chain.keep(t, false, cause, &[n]);
                    pending_off.push_back(id);
                }
            }
        } else if let Some(n) = pending_off.pop_front() {
            let s = chain.nodes[n as usize].slot;
            let (cell, d) = (cell_of(s), digit_of(s));
            made.clear();
            if cur[cell].count_ones() == 2 {
                let other = (cur[cell] & !bit(d)).trailing_zeros() as u8 + 1;
                let mut parents = vec![n];
                for gone in digits(u32::from(base[cell] & !cur[cell])) {
                    let p = chain.node(slot(cell, gone), false);
                    if p != NONE {
                        parents.push(p);
                    }
                }
                made.push((slot(cell, other), Cause::Cell, parents));
            }
            for &h in &g.of[cell] {
                let hu = usize::from(h);
                let m = places(&cur, hu, d);
                if m.count_ones() != 2 {
                    continue;
                }
                let hs = &g.houses[hu];
                let other = (0..9)
                    .filter(|&k| m >> k & 1 == 1)
                    .map(|k| usize::from(hs[k]))
                    .find(|&c| c != cell)
                    .unwrap_or(cell);
                let t = slot(other, d);
                if made.iter().any(|(x, _, _)| *x == t) {
                    continue;
                }
                let mut parents = vec![n];
                let gone = places(base, hu, d) & !m;
                for k in (0..9).filter(|&k| gone >> k & 1 == 1) {
                    let p = chain.node(slot(usize::from(hs[k]), d), false);
                    if p != NONE {
                        parents.push(p);
                    }
                }
                made.push((t, Cause::House(h), parents));
            }
            if kind.dynamic {
                cur[cell] &= !bit(d);
            }
            for (t, cause, parents) in made.drain(..) {
                if chain.holds(t, false) {
                    let end = chain.push(t, true, cause, &parents);
                    chain.absurd = Some((end, chain.node(t, false)));
                    return Some(());
                }
                if !chain.holds(t, true) {
                    let id = chain.keep(t, true, cause, &parents);
                    pending_on.push_back(id);
                }
            }
        }
        if pending_on.is_empty() && pending_off.is_empty() {
            if kind.level == 0 {
                break;
            }
            hints.clear();
            advanced(board, &cur, kind.level, &mut hints)?;
            for hint in hints.drain(..) {
                let parents: Vec<u32> = hint
                    .parents
                    .iter()
                    .map(|&p| chain.node(p, false))
                    .filter(|&p| p != NONE)
                    .collect();
                let index = match hint.nested {
                    Some(n) => {
                        chain.nested.push(n);
                        (chain.nested.len() - 1) as u32
                    }
                    None => NONE,
                };
                for &t in &hint.removable {
                    if !chain.holds(t, false) {
                        let id = chain.keep(t, false, Cause::Rule(index), &parents);
                        pending_off.push_back(id);
                    }
                }
            }
            if pending_off.is_empty() {
                break;
            }
        }
    }
    Some(())
}

/// The other techniques' eliminations on `cur`, the grid a chain made from
/// `board`'s: the basic ones, then the chain searches of `level`, the
/// first that gives any.
fn advanced(board: &Board<'_>, cur: &Cands, level: u8, out: &mut Vec<RuleHint>) -> Option<()> {
    basic_rules(board.base, cur, board.empty, out);
    if !out.is_empty() {
        return Some(());
    }
    for &rule in inner_rules(level) {
        if Deadline::spent() {
            return None;
        }
        let inner = Board {
            base: cur,
            empty: board.empty,
        };
        let found = match rule {
            Inner::Unary => unary(&inner, board.base)?,
            Inner::Multiple => search(
                &inner,
                Some(board.base),
                Kind {
                    dynamic: false,
                    level: 0,
                },
                true,
            )?,
            Inner::Dynamic(l) => search(
                &inner,
                Some(board.base),
                Kind {
                    dynamic: true,
                    level: l,
                },
                true,
            )?,
        };
        for f in found {
            if f.parents.is_empty() {
                continue;
            }
            out.push(RuleHint {
                removable: f.removable,
                parents: f.parents,
                nested: Some(Nested {
                    key: f.key,
                    complexity: f.complexity,
                }),
            });
        }
        if !out.is_empty() {
            return Some(());
        }
    }
    Some(())
}

/// What a conclusion says, for its step.
#[derive(Clone, Copy)]
enum Said {
    Contradiction { slot: Slot, on: bool },
    Double { slot: Slot },
    House { house: usize, digit: u8 },
    Cell { cell: usize },
    Unary { slot: Slot, on: bool },
}

/// A conclusion found by a search: its complexity and SE's order among
/// equals, the candidate concluded (placed when `on`), what it removes
/// from the grid searched, and the chains it rests on (kept for a search
/// inside a chain, which reads its causes).
struct Found {
    complexity: usize,
    order: u8,
    slot: Slot,
    on: bool,
    said: Said,
    removable: Vec<Slot>,
    /// For a search inside a chain: what it rests on of the chain's
    /// removals ([`rule_parents`]).
    parents: Vec<Slot>,
    key: u64,
}

fn removable_of(base: &Cands, s: Slot, on: bool) -> Vec<Slot> {
    if on {
        let cell = cell_of(s);
        digits(u32::from(base[cell] & !bit(digit_of(s))))
            .map(|d| slot(cell, d))
            .collect()
    } else {
        vec![s]
    }
}

fn key_of(s: Slot, on: bool, order: u8, complexity: usize, first: &Chain) -> u64 {
    let mut k = u64::from(s) | u64::from(on) << 10 | u64::from(order) << 11;
    k ^= (complexity as u64) << 16;
    k ^= u64::from(first.nodes.first().map_or(0, |n| n.slot)) << 40;
    k
}

/// SE's multiple chains on `board` (dynamic or static, at `kind`'s level):
/// every conclusion when `all` (for a search inside a chain), sorted as SE
/// sorts them; otherwise the easiest alone. `None` when the budget ran out.
/// Inside a chain, `outer` is the grid the chain started from, which the
/// conclusions' causes are read against.
fn search(board: &Board<'_>, outer: Option<&Cands>, kind: Kind, all: bool) -> Option<Vec<Found>> {
    let base = board.base;
    let mut causes = Marks::default();
    let mut parents_of = |targets: &[(&Chain, u32)], start: Cause| {
        let mut out = Vec::new();
        if let Some(outer) = outer {
            rule_parents(targets, start, outer, base, &mut causes, &mut out);
        }
        out
    };
    let g = geo();
    let mut on_chains: Vec<Option<Chain>> = vec![None; 729];
    let mut off_chain = Chain::default();
    let mut marks = Marks::default();
    let mut found: Vec<Found> = Vec::new();
    let mut best: Option<(usize, u8)> = None;
    let worth = |s: Slot, on: bool| !on || base[cell_of(s)].count_ones() > 1;
    // Offers a conclusion; `make` builds it only when it is kept.
    let mut offer =
        |complexity: usize, order: u8, found: &mut Vec<Found>, make: &mut dyn FnMut() -> Found| {
            if all {
                found.push(make());
            } else if best.is_none_or(|b| (complexity, order) < b) {
                best = Some((complexity, order));
                found.clear();
                found.push(make());
            }
        };
    let build = |s: Slot, on_chains: &mut Vec<Option<Chain>>| -> Option<()> {
        if on_chains[usize::from(s)].is_none() {
            if Deadline::spent() {
                return None;
            }
            let mut c = Chain::default();
            follow(board, kind, s, true, &mut c)?;
            on_chains[usize::from(s)] = Some(c);
        }
        Some(())
    };
    for cell in 0..81 {
        let card = base[cell].count_ones();
        if !(card > 2 || (card > 1 && kind.dynamic)) {
            continue;
        }
        let mut cell_on: Vec<Slot> = Vec::new();
        for d in digits(u32::from(base[cell])) {
            let s = slot(cell, d);
            build(s, &mut on_chains)?;
            if Deadline::spent() {
                return None;
            }
            follow(board, kind, s, false, &mut off_chain)?;
            let on = on_chains[usize::from(s)].as_ref()?;
            let double = card >= 3 && kind.dynamic;
            if kind.dynamic {
                if let Some((a, b)) = on.absurd {
                    let cx = complexity(&[(on, a), (on, b)], &mut marks);
                    offer(cx, 7, &mut found, &mut || Found {
                        complexity: cx,
                        order: 7,
                        slot: s,
                        on: false,
                        said: Said::Contradiction { slot: s, on: true },
                        removable: vec![s],
                        parents: parents_of(&[(on, a), (on, b)], Cause::Start),
                        key: key_of(s, false, 7, cx, on),
                    });
                }
                if let Some((a, b)) = off_chain.absurd {
                    let cx = complexity(&[(&off_chain, a), (&off_chain, b)], &mut marks);
                    let oc = &off_chain;
                    offer(cx, 7, &mut found, &mut || Found {
                        complexity: cx,
                        order: 7,
                        slot: s,
                        on: true,
                        said: Said::Contradiction { slot: s, on: false },
                        removable: removable_of(base, s, true),
                        parents: parents_of(&[(oc, a), (oc, b)], Cause::Start),
                        key: key_of(s, true, 7, cx, oc),
                    });
                }
            }
            if double {
                for state in [true, false] {
                    let list = if state { &on.on_list } else { &on.off_list };
                    for &n in list {
                        let t = on.nodes[n as usize].slot;
                        let other = off_chain.node(t, state);
                        if other == NONE || !worth(t, state) {
                            continue;
                        }
                        let cx = complexity(&[(on, n), (&off_chain, other)], &mut marks);
                        let oc = &off_chain;
                        offer(cx, 1, &mut found, &mut || Found {
                            complexity: cx,
                            order: 1,
                            slot: t,
                            on: state,
                            said: Said::Double { slot: s },
                            removable: removable_of(base, t, state),
                            parents: parents_of(&[(on, n), (oc, other)], Cause::Start),
                            key: key_of(t, state, 1, cx, on),
                        });
                    }
                }
            }
            // House chains, from the house's first place for the digit.
            for &h in &g.of[cell] {
                let hu = usize::from(h);
                let m = places(base, hu, d);
                if m.count_ones() < 2
                    || usize::from(g.houses[hu][m.trailing_zeros() as usize]) != cell
                {
                    continue;
                }
                let members: Vec<Slot> = (0..9)
                    .filter(|&k| m >> k & 1 == 1)
                    .map(|k| slot(usize::from(g.houses[hu][k]), d))
                    .collect();
                for &o in &members {
                    build(o, &mut on_chains)?;
                }
                shared(
                    base,
                    &on_chains,
                    &members,
                    Cause::House(h),
                    Said::House {
                        house: hu,
                        digit: d,
                    },
                    6,
                    &mut marks,
                    &mut parents_of,
                    &mut |cx, order, make| offer(cx, order, &mut found, make),
                );
            }
            cell_on.push(s);
        }
        shared(
            base,
            &on_chains,
            &cell_on,
            Cause::Cell,
            Said::Cell { cell },
            5,
            &mut marks,
            &mut parents_of,
            &mut |cx, order, make| offer(cx, order, &mut found, make),
        );
    }
    if all {
        found.sort_by_key(|f| (f.complexity, f.order));
    }
    Some(found)
}

/// Reads a conclusion's causes from its chains' ends and its start's kind.
type CausesOf<'a> = dyn FnMut(&[(&Chain, u32)], Cause) -> Vec<Slot> + 'a;

/// Takes a conclusion's complexity and order, and builds it when kept.
type Offer<'a> = dyn FnMut(usize, u8, &mut dyn FnMut() -> Found) + 'a;

/// The conclusions every chain on of `members` shares, on then off, in
/// the first chain's order.
#[allow(clippy::too_many_arguments)]
fn shared(
    base: &Cands,
    on_chains: &[Option<Chain>],
    members: &[Slot],
    start: Cause,
    said: Said,
    order: u8,
    marks: &mut Marks,
    parents_of: &mut CausesOf<'_>,
    offer: &mut Offer<'_>,
) {
    let chains: Vec<&Chain> = members
        .iter()
        .filter_map(|&m| on_chains[usize::from(m)].as_ref())
        .collect();
    if chains.len() != members.len() || chains.len() < 2 {
        return;
    }
    let (first, rest) = (chains[0], &chains[1..]);
    for state in [true, false] {
        let list = if state {
            &first.on_list
        } else {
            &first.off_list
        };
        for &n in list {
            let t = first.nodes[n as usize].slot;
            if members.contains(&t) && state {
                continue;
            }
            if !rest.iter().all(|c| c.holds(t, state))
                || (state && base[cell_of(t)].count_ones() < 2)
            {
                continue;
            }
            let targets: Vec<(&Chain, u32)> =
                chains.iter().map(|c| (*c, c.node(t, state))).collect();
            let cx = complexity(&targets, marks);
            offer(cx, order, &mut || Found {
                complexity: cx,
                order,
                slot: t,
                on: state,
                said,
                removable: removable_of(base, t, state),
                parents: parents_of(&targets, start),
                key: key_of(t, state, order, cx, first),
            });
        }
    }
}

/// SE's unary chains on `board`: for each candidate, its bidirectional
/// cycles, and the chains from it on and off that come back to turn it
/// round (forcing X-chains and XY forcing chains); one digit's links, then
/// two-candidate cells' alone (cycles only), then both. Static links, on
/// the grid as it stands. Sorted as SE sorts them: by rating, complexity,
/// then kind.
fn unary(board: &Board<'_>, outer: &Cands) -> Option<Vec<Found>> {
    let base = board.base;
    let mut found: Vec<(u16, usize, u8, Found)> = Vec::new();
    let mut marks = Marks::default();
    let mut causes = Marks::default();
    for (cell_links, house_links) in [(false, true), (true, false), (true, true)] {
        let sort_key = if !cell_links {
            2
        } else if !house_links {
            3
        } else {
            4
        };
        for cell in 0..81 {
            let card = base[cell].count_ones();
            if card < 2 || (card > 2 && !house_links) {
                continue;
            }
            if Deadline::spent() {
                return None;
            }
            for d in digits(u32::from(base[cell])) {
                let s = slot(cell, d);
                for (chain, end) in cycles(base, s, cell_links, house_links) {
                    let removable = cycle_removable(base, &chain, end);
                    if removable.is_empty() {
                        continue;
                    }
                    let cx = complexity(&[(&chain, end)], &mut marks);
                    let mut parents = Vec::new();
                    rule_parents_any(&chain, end, outer, base, &mut parents);
                    let rating = if cell_links && house_links { 70 } else { 65 }
                        + length_bonus(cx.saturating_sub(2));
                    let key = key_of(s, true, 20 + sort_key, cx, &chain)
                        ^ removable
                            .iter()
                            .fold(0u64, |k, &r| k.rotate_left(7) ^ u64::from(r));
                    found.push((
                        rating,
                        cx,
                        sort_key,
                        Found {
                            complexity: cx,
                            order: sort_key,
                            slot: s,
                            on: false,
                            said: Said::Unary { slot: s, on: true },
                            removable,
                            parents,
                            key,
                        },
                    ));
                }
                if !house_links {
                    continue;
                }
                for on in [true, false] {
                    let mut chain = Chain::default();
                    let targets = unary_chain(base, s, on, cell_links, &mut chain);
                    for t in targets {
                        let cx = complexity(&[(&chain, t)], &mut marks);
                        let nd = chain.nodes[t as usize];
                        let removable = removable_of(base, s, nd.on);
                        if removable.is_empty() {
                            continue;
                        }
                        let mut parents = Vec::new();
                        rule_parents(
                            &[(&chain, t)],
                            Cause::Start,
                            outer,
                            base,
                            &mut causes,
                            &mut parents,
                        );
                        let rating =
                            if cell_links { 70 } else { 66 } + length_bonus(cx.saturating_sub(2));
                        found.push((
                            rating,
                            cx,
                            sort_key,
                            Found {
                                complexity: cx,
                                order: sort_key,
                                slot: s,
                                on: nd.on,
                                said: Said::Unary { slot: s, on },
                                removable,
                                parents,
                                key: key_of(s, nd.on, sort_key, cx, &chain),
                            },
                        ));
                    }
                }
            }
        }
    }
    found.sort_by_key(|f| (f.0, f.1, f.2));
    Some(found.into_iter().map(|f| f.3).collect())
}

/// The causes of a cycle's links, both ways round: every link of the
/// chain from `end` back to its start, on or off, counts by its kind (the
/// cycle read backwards turns each off link on).
fn rule_parents_any(chain: &Chain, end: u32, outer: &Cands, cur: &Cands, out: &mut Vec<Slot>) {
    let g = geo();
    let mut n = end;
    loop {
        let nd = chain.nodes[n as usize];
        let cell = cell_of(nd.slot);
        let d = digit_of(nd.slot);
        match nd.cause {
            Cause::Cell => {
                for e in digits(u32::from(outer[cell] & !cur[cell])) {
                    let s = slot(cell, e);
                    if !out.contains(&s) {
                        out.push(s);
                    }
                }
            }
            Cause::House(h) => {
                for &c in &g.houses[usize::from(h)] {
                    let c = usize::from(c);
                    if outer[c] & bit(d) != 0 && cur[c] & bit(d) == 0 {
                        let s = slot(c, d);
                        if !out.contains(&s) {
                            out.push(s);
                        }
                    }
                }
            }
            Cause::Start | Cause::Rule(_) => {}
        }
        match chain.parents_of(n).first() {
            Some(&p) => n = p,
            None => break,
        }
    }
}

/// What a cycle removes: the candidates of its digits that see a cell of
/// the cycle where the digit is on one way round and one where it is on
/// the other way, outside the cycle.
fn cycle_removable(base: &Cands, chain: &Chain, end: u32) -> Vec<Slot> {
    let g = geo();
    let mut cells: Vec<usize> = Vec::new();
    let mut path: Vec<Node> = Vec::new();
    let mut n = end;
    while let Some(&p) = chain.parents_of(n).first() {
        let nd = chain.nodes[n as usize];
        cells.push(cell_of(nd.slot));
        path.push(nd);
        n = p;
    }
    let (mut forward, mut back): (Vec<Slot>, Vec<Slot>) = (Vec::new(), Vec::new());
    for nd in &path {
        let (cell, d) = (cell_of(nd.slot), digit_of(nd.slot));
        for &h in &g.of[cell] {
            for &c in &g.houses[usize::from(h)] {
                let c = usize::from(c);
                if cells.contains(&c) || base[c] & bit(d) == 0 {
                    continue;
                }
                let side = if nd.on { &mut forward } else { &mut back };
                let s = slot(c, d);
                if !side.contains(&s) {
                    side.push(s);
                }
            }
        }
    }
    let mut removable: Vec<Slot> = forward.into_iter().filter(|s| back.contains(s)).collect();
    removable.sort_unstable();
    removable
}

/// SE's search for bidirectional cycles through `start` on: static links
/// followed a layer of on links then a layer of off links at a time; an
/// off link is not followed back onto the line it came along, and a
/// candidate turned on is followed once. Each time the start is turned on
/// again, at least four layers on, the chain that did it and its end.
fn cycles(base: &Cands, start: Slot, cell_links: bool, house_links: bool) -> Vec<(Chain, u32)> {
    let mut chain = Chain::default();
    chain.at.resize(1458, NONE);
    let root = chain.keep(start, true, Cause::Start, &[]);
    let mut pending_on: VecDeque<u32> = VecDeque::from([root]);
    let mut pending_off: VecDeque<u32> = VecDeque::new();
    let mut ends: Vec<u32> = Vec::new();
    let mut length = 0;
    // Whether `s` off is on the first-parent line of node `n`.
    let on_line = |chain: &Chain, mut n: u32, s: Slot| loop {
        match chain.parents_of(n).first() {
            Some(&p) => {
                n = p;
                let nd = chain.nodes[n as usize];
                if nd.slot == s && !nd.on {
                    return true;
                }
            }
            None => return false,
        }
    };
    while !pending_on.is_empty() || !pending_off.is_empty() {
        length += 1;
        while let Some(n) = pending_on.pop_front() {
            let s = chain.nodes[n as usize].slot;
            let (cell, d) = (cell_of(s), digit_of(s));
            for (t, cause) in off_links(base, cell, d, cell_links) {
                if !on_line(&chain, n, t) {
                    let id = chain.keep(t, false, cause, &[n]);
                    pending_off.push_back(id);
                }
            }
        }
        length += 1;
        while let Some(n) = pending_off.pop_front() {
            let s = chain.nodes[n as usize].slot;
            let (cell, d) = (cell_of(s), digit_of(s));
            for (t, cause) in on_links(base, cell, d, cell_links, house_links) {
                if length >= 4 && t == start {
                    ends.push(chain.push(t, true, cause, &[n]));
                }
                if !chain.holds(t, true) {
                    let id = chain.keep(t, true, cause, &[n]);
                    pending_on.push_back(id);
                }
            }
        }
    }
    ends.into_iter().map(|e| (chain.clone(), e)).collect()
}

/// One unary chain: static links, all on ones then all off ones in turn,
/// noting each time it reaches its start's opposite. The nodes it ends at.
fn unary_chain(
    base: &Cands,
    start: Slot,
    on: bool,
    cell_links: bool,
    chain: &mut Chain,
) -> Vec<u32> {
    chain.at.clear();
    chain.at.resize(1458, NONE);
    let root = chain.keep(start, on, Cause::Start, &[]);
    let mut pending_on: VecDeque<u32> = VecDeque::new();
    let mut pending_off: VecDeque<u32> = VecDeque::new();
    if on {
        pending_on.push_back(root);
    } else {
        pending_off.push_back(root);
    }
    let mut ends: Vec<u32> = Vec::new();
    while !pending_on.is_empty() || !pending_off.is_empty() {
        while let Some(n) = pending_on.pop_front() {
            let s = chain.nodes[n as usize].slot;
            let (cell, d) = (cell_of(s), digit_of(s));
            for (t, cause) in off_links(base, cell, d, cell_links) {
                if t == start && on {
                    if !ends.iter().any(|&e| !chain.nodes[e as usize].on) {
                        ends.push(chain.push(t, false, cause, &[n]));
                    }
                    continue;
                }
                if !chain.holds(t, false) {
                    let id = chain.keep(t, false, cause, &[n]);
                    pending_off.push_back(id);
                }
            }
        }
        while let Some(n) = pending_off.pop_front() {
            let s = chain.nodes[n as usize].slot;
            let (cell, d) = (cell_of(s), digit_of(s));
            for (t, cause) in on_links(base, cell, d, cell_links, true) {
                if t == start && !on {
                    if !ends.iter().any(|&e| chain.nodes[e as usize].on) {
                        ends.push(chain.push(t, true, cause, &[n]));
                    }
                    continue;
                }
                if !chain.holds(t, true) {
                    let id = chain.keep(t, true, cause, &[n]);
                    pending_on.push_back(id);
                }
            }
        }
    }
    ends
}

/// SE's dynamic forcing chains (+) and nested forcing chains on `p`, the
/// first level (1 to 5) that concludes anything: its easiest conclusion,
/// as a step. `None` when none does, when the board is not a classic 9x9
/// one, or when the path's budget ran out.
pub(crate) fn forcing_chain(p: &Pencil, seen: &Seen) -> Option<Step> {
    if p.size().side() != 9 || p.geometry().houses().len() != 27 {
        return None;
    }
    let mut base: Cands = [0; 81];
    for (c, b) in base.iter_mut().enumerate() {
        *b = p.candidates(c) as u16;
    }
    let mut empty = [0u8; 27];
    for (h, e) in empty.iter_mut().enumerate() {
        *e = geo().houses[h]
            .iter()
            .filter(|&&c| p.value(usize::from(c)) == 0)
            .count() as u8;
    }
    let board = Board {
        base: &base,
        empty: &empty,
    };
    for level in 1..=5u8 {
        let found = search(
            &board,
            None,
            Kind {
                dynamic: true,
                level,
            },
            false,
        )?;
        if let Some(f) = found.into_iter().next() {
            return Some(step(p, level, &f, seen));
        }
    }
    None
}

fn step(p: &Pencil, level: u8, found: &Found, seen: &Seen) -> Step {
    let name = |s: Slot, on: bool| {
        format!(
            "{}{}{}",
            p.cell(cell_of(s)),
            if on { "=" } else { "≠" },
            digit_char(digit_of(s))
        )
    };
    let (pattern, ds): (Vec<usize>, Vec<u8>) = match found.said {
        Said::Contradiction { slot, .. } | Said::Double { slot } | Said::Unary { slot, .. } => {
            (vec![cell_of(slot)], vec![digit_of(slot)])
        }
        Said::House { house, digit } => (
            geo().houses[house]
                .iter()
                .map(|&c| usize::from(c))
                .filter(|&c| p.has(c, digit))
                .collect(),
            vec![digit],
        ),
        Said::Cell { cell } => (vec![cell], digits(p.candidates(cell)).collect()),
    };
    let technique = if level == 1 {
        Technique::DynamicForcingChainPlus
    } else {
        Technique::NestedForcingChain
    };
    let length = found.complexity.saturating_sub(2);
    let mut s = Step::new(technique)
        .pattern(p, &pattern, &ds)
        .say(seen, || {
            let because = match found.said {
                Said::Contradiction { slot, on } | Said::Unary { slot, on } => format!(
                    "if {}, a candidate would be both true and false",
                    name(slot, on)
                ),
                Said::Double { slot } => format!(
                    "{} and {} both imply it",
                    name(slot, true),
                    name(slot, false)
                ),
                Said::House { house, digit } => format!(
                    "wherever {} goes in {}, it follows",
                    digit_char(digit),
                    house_name(house)
                ),
                Said::Cell { cell } => format!("whatever {} is, it follows", p.cell(cell)),
            };
            format!(
                "{} ({because}; level {level}, {length} implications)",
                name(found.slot, found.on)
            )
        });
    let clue = Clue {
        cell: p.cell(cell_of(found.slot)),
        digit: digit_of(found.slot),
    };
    if found.on {
        s.placements = vec![clue];
    } else {
        s.eliminations = vec![clue];
    }
    s.difficulty = Some(Difficulty(85 + 5 * u16::from(level) + length_bonus(length)));
    s
}

fn house_name(h: usize) -> String {
    match h {
        0..9 => format!("box {}", h + 1),
        9..18 => format!("row {}", h - 8),
        _ => format!("column {}", h - 17),
    }
}

#[cfg(test)]
mod tests {
    use super::{Deadline, forcing_chain};
    use crate::engine::Budget;
    use crate::logic::pencil::Pencil;
    use crate::logic::testing::rate_line;
    use crate::logic::{Seen, Technique};
    use crate::puzzle::Puzzle;
    use crate::puzzle::parse::parse_line;
    use std::time::Duration;

    fn puzzle(line: &str) -> Puzzle {
        Puzzle::classic(parse_line(line, 1, None).unwrap())
    }

    /// The top1465 puzzle serate rates 9.8: SE's path (its solver asked
    /// step by step) takes eight steps of its dynamic forcing chains (+),
    /// these, rated so; z3doku's own dynamic chain gave 9.5 in their place.
    #[test]
    fn dynamic_plus_rates_as_sudoku_explainer_rates_it() {
        let (rating, path) = rate_line(
            "7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5",
        );
        assert_eq!(rating.er.0, 98);
        assert!(!rating.searched);
        let plus: Vec<(u16, String)> = path
            .steps
            .iter()
            .filter(|s| s.technique == Technique::DynamicForcingChainPlus)
            .map(|s| {
                let e = &s.eliminations[0];
                (s.difficulty.unwrap().0, format!("{}-{}", e.cell, e.digit))
            })
            .collect();
        let se = [
            (97, "r1c3-5"),
            (97, "r3c7-5"),
            (98, "r3c4-1"),
            (98, "r1c2-5"),
            (98, "r8c4-2"),
            (98, "r1c4-1"),
            (97, "r4c3-8"),
            (98, "r6c2-4"),
        ];
        let se: Vec<(u16, String)> = se.iter().map(|&(d, e)| (d, e.to_string())).collect();
        assert_eq!(plus, se);
    }

    /// A spent budget stops the search within the step: nothing is found,
    /// and the path gives up as between steps.
    #[test]
    fn a_spent_budget_stops_the_search() {
        let p = Pencil::new(&puzzle(
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        ))
        .unwrap();
        let budget = Budget::within(Some(Duration::ZERO));
        let _watch = Deadline::watch(&budget);
        assert!(forcing_chain(&p, &Seen::none()).is_none());
    }
}
