//! The search for every board and set of rules.
//!
//! Each cell keeps its candidates (bit `d - 1` for digit `d`) as state.
//! Every rule is a propagator over those candidates ([`Prop`]): it removes
//! the digits that no assignment of its cells' other candidates supports,
//! and says when nothing is left. A changed cell wakes the propagators that
//! read it, and they run to a fixed point before the search branches; a
//! change is recorded on a trail, so the search undoes its moves instead of
//! copying state.
//!
//! What each kind of formula narrows (sigh's handlers were the measuring
//! stick; see build.md, "The generic native search"):
//! - a house: naked singles leave its other cells, a digit with one place
//!   left goes there, a digit with none is a dead end;
//! - a relation between two cells: each keeps the digits some candidate of
//!   the other allows (a table per relation);
//! - different digits (a cage, a region that is not a house): a placed
//!   digit leaves the others, and there must be as many digits as cells; a
//!   cage with a sum keeps only the digits of the sets of its size and sum
//!   its cells can still make up, and a digit every such set holds goes to
//!   its only place;
//! - rules that keep cells from the same digit beyond the houses (pairs
//!   such as anti-knight and anti-taxicab, cages across boxes): a cell
//!   that every place of a digit in a house keeps from it loses it
//!   ([`Prop::Pointing`]), and a pair that does only that acts once a
//!   cell is filled ([`Prop::Placed`]);
//! - classes of digits that each stand somewhere in a few cells (global
//!   entropy's windows): a cell keeps a class only when the others can
//!   still each take a cell of their own ([`Prop::Classes`]);
//! - a weighted sum ([`Primitive::Sum`]): bounds, each digit of
//!   each cell kept only when the other cells' least and greatest
//!   contributions let some total be met;
//! - "at least k of these cells hold d" ([`Primitive::Contains`]), grouped by cells:
//!   when the places left for a digit are as many as it needs, it takes
//!   them all, and when the digits needed fill the cells, nothing else
//!   goes there;
//! - [`Primitive::Between`]: only pairs of end digits that leave every middle cell
//!   a candidate strictly between them;
//! - buildings seen from a clue: an exact walk over (tallest so far, seen so
//!   far) states from both ends of the line;
//! - a full rank clue ([`Primitive::Rank`]): the lines that must and may
//!   read lower or higher, counted by the end they are read from (see
//!   [`crate::puzzle::rank`]); the search settles the first cells of its
//!   lines first;
//! - "when these cells hold these digits, this holds" ([`Primitive::When`]):
//!   once the condition holds the consequence propagates, and
//!   while one condition cell is open its digit leaves it when the
//!   consequence could not then hold.
//!
//! A primitive without a propagator of its own is checked once its cells
//! are filled ([`Prop::Check`]), so a new kind of formula is right at once
//! and fast once it gets a match arm in [`Prop::propagate`].
//!
//! The search branches on the open cell with the most failures per
//! candidate: each dead end a propagator finds adds to the weight of the
//! cells it reads, and a cell's weight over its candidate count picks the
//! cell (fewest candidates while nothing has failed), the way sigh's
//! candidate selector weighs conflicts. Killer cages also bring the sums
//! they imply within a house (see [`crate::puzzle::implied`]), each one
//! more cage.

use super::{Flow, Halt, Search};
use crate::puzzle::Puzzle;
use crate::puzzle::grid::{Grid, MAX_SIDE, Size};
use crate::puzzle::implied::implied_cages;
use crate::puzzle::kinds::formula;
use crate::puzzle::primitive::{Primitive, Relation};
use crate::puzzle::rules::Rules;
use std::ops::ControlFlow;
use std::sync::Arc;

/// How often (in nodes) the generic search reads the clock and the cancel
/// tokens: a node can take tens of microseconds here.
const GENERIC_CLOCK_EVERY: u64 = 64;

/// What a choice that failed adds to its cell's weight in a chaos
/// construction's search, against the cell priorities it starts from
/// ([`chaos_priorities`]): on the two puzzles of `benches/data/chaos.txt`
/// 1 took 3,045 and 66,603 nodes, 3 to 6 took 1,800 to 3,900 and 15,000
/// to 21,000, 8 took 141,000 on the second.
const CHAOS_FAILURE_WEIGHT: u32 = 4;

/// The nodes of a chaos construction's first attempt (see
/// [`Generic::solve`]); each next attempt has twice as many.
const CHAOS_FIRST_ATTEMPT: u64 = 1_000;

/// One rule as the search applies it.
enum Prop {
    /// A house of the board: every digit once.
    House(Vec<u16>),
    /// Two houses that meet in two cells or more, as the cells of each
    /// outside the other: a digit not in the meeting cells stands once in
    /// each part, so each part keeps only the digits the other can still
    /// hold (locked candidates: pointing and claiming).
    Meet(Vec<u16>, Vec<u16>),
    /// On a rectangle whose long lines hold every digit, its short lines:
    /// there are as many as digits, and each digit stands in as many of
    /// them as a short line has cells (once in each long line). See
    /// [`short_lines`].
    ShortLines(Vec<Vec<u16>>),
    /// Two cells in a relation: `ab[e]` holds the digits `b` may take when
    /// `a` holds `e`, and `ba` the other way round.
    Pair {
        a: u16,
        b: u16,
        ab: Box<[u32; MAX_SIDE + 1]>,
        ba: Box<[u32; MAX_SIDE + 1]>,
    },
    /// Different digits, with a sum when it is a cage; `sets` lists the
    /// sets of different digits of the cells' number and the sum (boards
    /// up to 12x12; larger ones keep to bounds).
    Distinct {
        cells: Vec<u16>,
        sum: Option<u32>,
        sets: Vec<u32>,
    },
    /// `Σ weight · digit` is one of `totals`. `apart` says, for a sum of
    /// two to four cells, whether its first two cells and its last two
    /// (the two halves it is searched in, see [`sum_halves`]) see each
    /// other in a house, and so hold different digits.
    Sum {
        terms: Vec<(u16, i32)>,
        totals: Vec<i32>,
        apart: [bool; 2],
    },
    /// The cell holds one of `digits` (only inside [`Prop::When`]: on its
    /// own it narrows the cell once, before the search).
    Allowed { cell: u16, digits: u32 },
    /// Each `(digit bit, count)`: at least `count` of the cells hold it.
    Contains {
        cells: Vec<u16>,
        need: Vec<(u32, u32)>,
    },
    /// Every middle cell lies strictly between the two ends.
    Between { ends: (u16, u16), middle: Vec<u16> },
    /// Read in order, `count` cells are taller than all before them.
    Visible { cells: Vec<u16>, count: u32 },
    /// When each cell holds its digit (as a bit), `then` holds.
    When {
        when: Vec<(u16, u32)>,
        then: Box<Prop>,
    },
    /// Rules of the form "when ..., then ..." whose conditions between them
    /// always hold one way (one cell's every digit; two digits' every
    /// placement in a house that holds each of them once): each case still
    /// possible is tried aside, and each cell keeps only what some case
    /// leaves it. `cells` are all the cases read; `house`, when there is
    /// one holding them all, loses a case's condition digits in its other
    /// cells during the trial.
    Cases {
        cases: Vec<(Vec<(u16, u32)>, Prop)>,
        cells: Vec<u16>,
        house: Vec<u16>,
    },
    /// At least one cell holds a digit of its set: dead when no literal
    /// can hold, and the last that can is narrowed to its set.
    Any(Vec<(u16, u32)>),
    /// Each class of digits (disjoint sets, as bits) stands in at least
    /// one of the cells: a cell keeps a class only when the other classes
    /// can still each take a cell of their own among the others (global
    /// entropy's and global mod's 2x2 windows: three classes in four
    /// cells, where a class with one place left takes it, and two classes
    /// left the same two places keep those cells to themselves).
    Classes { cells: Vec<u16>, classes: Vec<u32> },
    /// A rule written as a formula, with the cells it reads: read over the
    /// candidates' bounds, and once one cell is left open it keeps the
    /// digits that satisfy the formula.
    Formula(Arc<crate::puzzle::expr::Test<usize>>, Vec<u16>),
    /// The cells' digits in order are a word the automaton accepts: each
    /// cell keeps the digits some accepting run over the candidates uses
    /// there (forward and backward reachable states, as for a regular
    /// constraint), which is all a propagator can keep.
    Automaton(Arc<crate::puzzle::automaton::Automaton>, Vec<u16>),
    /// The cells holding a digit of a set are one connected region: cells
    /// that must be in stay joined through cells that may be, a cell cut
    /// off from them loses the set, a cell every way between them runs
    /// through joins it, and a size bounds it (see
    /// [`crate::puzzle::connected`]).
    Connected(Arc<crate::puzzle::connected::Connected>, Vec<u16>),
    /// Chaos construction, over every cell's digit and region label (the
    /// label lane after the digits), with the cells that take the first
    /// labels (see [`super::chaos`]).
    Chaos {
        labels: Box<super::chaos::Labels>,
        cells: Vec<u16>,
    },
    /// A full rank clue's number among the others, with the cells it
    /// reads: the counts of lines that must and may read lower or higher
    /// (see [`crate::puzzle::rank`]).
    Rank(Arc<crate::puzzle::rank::Rank>, Vec<u16>),
    /// A house that holds every digit, with what each cell holding a digit
    /// keeps from holding it too: a cell that every place left for a digit
    /// in the house keeps from it loses the digit (pointing, with the pair
    /// rules and the groups of different digits beside the houses). See
    /// [`pointing`].
    Pointing(Vec<u16>, Arc<Exclusions>),
    /// Once the cell holds a digit, the cells it keeps from that digit
    /// lose it: the pair rules that only keep two cells from the same
    /// digit (anti-knight, anti-taxicab), a cell's dozens of pairs woken
    /// once a change instead of each.
    Placed(u16, Arc<Exclusions>),
    /// Any other formula, with the cells it reads: checked once they are
    /// all filled.
    Check(Primitive, Vec<u16>),
}

/// The candidates a propagator reads and narrows.
pub(super) trait Doms {
    fn get(&self, cell: usize) -> u32;
    /// Narrows `cell` to `mask` (a subset of its candidates); `false` when
    /// nothing is left.
    fn set(&mut self, cell: usize, mask: u32) -> bool;
    /// Narrows `cell` to the candidates also in `keep`.
    #[inline]
    fn keep(&mut self, cell: usize, keep: u32) -> bool {
        let old = self.get(cell);
        old & keep == old || self.set(cell, old & keep)
    }
    fn side(&self) -> usize;
}

/// The search's candidates, with the trail and the queue of propagators to
/// run.
struct State {
    dom: Vec<u32>,
    side: usize,
    /// `(cell, candidates before)` for each change, to undo it.
    trail: Vec<(u16, u32)>,
    /// The propagators reading cell `c` are `watch[watch_start[c]..watch_start[c + 1]]`.
    watch_start: Vec<u32>,
    watch: Vec<u32>,
    /// Propagators waiting to run, cheap ones first.
    fast: Vec<u32>,
    slow: Vec<u32>,
    queued: Vec<bool>,
    is_slow: Vec<bool>,
}

impl State {
    fn enqueue(&mut self, prop: u32) {
        let p = prop as usize;
        if !self.queued[p] {
            self.queued[p] = true;
            if self.is_slow[p] {
                self.slow.push(prop);
            } else {
                self.fast.push(prop);
            }
        }
    }

    fn next(&mut self) -> Option<u32> {
        let prop = self.fast.pop().or_else(|| self.slow.pop())?;
        self.queued[prop as usize] = false;
        Some(prop)
    }

    fn clear_queue(&mut self) {
        for &p in self.fast.iter().chain(&self.slow) {
            self.queued[p as usize] = false;
        }
        self.fast.clear();
        self.slow.clear();
    }

    fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            if let Some((cell, old)) = self.trail.pop() {
                self.dom[usize::from(cell)] = old;
            }
        }
    }
}

impl Doms for State {
    #[inline]
    fn get(&self, cell: usize) -> u32 {
        self.dom[cell]
    }

    #[inline]
    fn set(&mut self, cell: usize, mask: u32) -> bool {
        let old = self.dom[cell];
        if old == mask {
            return mask != 0;
        }
        self.trail.push((cell as u16, old));
        self.dom[cell] = mask;
        if mask == 0 {
            return false;
        }
        let (from, to) = (self.watch_start[cell], self.watch_start[cell + 1]);
        for k in from..to {
            let prop = self.watch[k as usize];
            self.enqueue(prop);
        }
        true
    }

    fn side(&self) -> usize {
        self.side
    }
}

/// Candidates as `base` has them, with changes of its own on top, for
/// asking whether a formula could hold without changing the search's
/// state. The scratch arrays belong to the engine, so that asking does not
/// allocate.
struct Overlay<'a> {
    base: &'a dyn Doms,
    value: &'a mut [u32],
    stamp: &'a mut [u32],
    epoch: u32,
}

/// The engine's arrays for trials: an overlay's changes (`value[c]`
/// counts when `stamp[c] == epoch`), and what the cases of a
/// [`Prop::Cases`] leave each cell.
struct Scratch {
    value: Vec<u32>,
    stamp: Vec<u32>,
    epoch: u32,
    union: Vec<u32>,
}

impl Scratch {
    /// A new overlay on `base`, with no changes of its own.
    fn overlay<'a>(
        value: &'a mut [u32],
        stamp: &'a mut [u32],
        epoch: &mut u32,
        base: &'a dyn Doms,
    ) -> Overlay<'a> {
        *epoch = epoch.wrapping_add(1);
        if *epoch == 0 {
            stamp.fill(0);
            *epoch = 1;
        }
        Overlay {
            base,
            value,
            stamp,
            epoch: *epoch,
        }
    }
}

impl Doms for Overlay<'_> {
    #[inline]
    fn get(&self, cell: usize) -> u32 {
        if self.stamp[cell] == self.epoch {
            self.value[cell]
        } else {
            self.base.get(cell)
        }
    }

    #[inline]
    fn set(&mut self, cell: usize, mask: u32) -> bool {
        self.stamp[cell] = self.epoch;
        self.value[cell] = mask;
        mask != 0
    }

    fn side(&self) -> usize {
        self.base.side()
    }
}

/// The lowest and highest digit of a non-empty set.
#[inline]
fn low_high(mask: u32) -> (i32, i32) {
    (
        mask.trailing_zeros() as i32 + 1,
        32 - mask.leading_zeros() as i32,
    )
}

/// The digits `lo..=hi` as bits (empty when `lo > hi`).
#[inline]
fn span(lo: i32, hi: i32, side: usize) -> u32 {
    let (lo, hi) = (lo.max(1), hi.min(side as i32));
    if lo > hi {
        return 0;
    }
    (u32::MAX >> (32 - (hi - lo + 1))) << (lo - 1)
}

impl Prop {
    /// Whether the propagator is dearer than a house or a pair, and so
    /// waits until those are done.
    fn slow(&self) -> bool {
        !matches!(self, Prop::House(_) | Prop::Pair { .. } | Prop::Placed(..))
    }

    /// Every cell it reads.
    fn cells(&self) -> Vec<u16> {
        match self {
            Prop::Meet(a, b) => a.iter().chain(b).copied().collect(),
            Prop::ShortLines(lines) => lines.concat(),
            Prop::House(cells)
            | Prop::Distinct { cells, .. }
            | Prop::Contains { cells, .. }
            | Prop::Visible { cells, .. } => cells.clone(),
            Prop::Pair { a, b, .. } => vec![*a, *b],
            Prop::Placed(cell, _) => vec![*cell],
            Prop::Sum { terms, .. } => terms.iter().map(|&(c, _)| c).collect(),
            Prop::Allowed { cell, .. } => vec![*cell],
            Prop::Between { ends, middle } => {
                let mut cells = vec![ends.0, ends.1];
                cells.extend(middle);
                cells
            }
            Prop::When { when, then } => {
                let mut cells: Vec<u16> = when.iter().map(|&(c, _)| c).collect();
                cells.extend(then.cells());
                cells.sort_unstable();
                cells.dedup();
                cells
            }
            Prop::Any(literals) => literals.iter().map(|&(c, _)| c).collect(),
            Prop::Classes { cells, .. } => cells.clone(),
            Prop::Check(_, cells)
            | Prop::Formula(_, cells)
            | Prop::Automaton(_, cells)
            | Prop::Connected(_, cells)
            | Prop::Chaos { cells, .. }
            | Prop::Rank(_, cells)
            | Prop::Pointing(cells, _)
            | Prop::Cases { cells, .. } => cells.clone(),
        }
    }

    /// Narrows `d` to what the rule allows; `false` at a dead end.
    /// `scratch` lets [`Prop::When`] try its consequence aside (absent
    /// when this runs inside such a trial already).
    fn propagate<D: Doms>(&self, d: &mut D, scratch: Option<&mut Scratch>) -> bool {
        match self {
            Prop::House(cells) => house(cells, d),
            Prop::Meet(a, b) => meet(a, b, d),
            Prop::ShortLines(lines) => short_lines(lines, d),
            Prop::Pair { a, b, ab, ba } => {
                let (a, b) = (usize::from(*a), usize::from(*b));
                d.keep(b, support(d.get(a), ab)) && d.keep(a, support(d.get(b), ba))
            }
            Prop::Distinct { cells, sum, sets } => distinct(cells, *sum, sets, d),
            Prop::Sum {
                terms,
                totals,
                apart,
            } => sum(terms, totals, *apart, d),
            Prop::Allowed { cell, digits } => d.keep(usize::from(*cell), *digits),
            Prop::Contains { cells, need } => contains(cells, need, d),
            Prop::Between { ends, middle } => between(*ends, middle, d),
            Prop::Visible { cells, count } => visible(cells, *count, d),
            Prop::When { when, then } => {
                let mut open = None;
                for &(cell, bit) in when {
                    let dom = d.get(usize::from(cell));
                    if dom & bit == 0 {
                        // The condition fails: nothing to say.
                        return true;
                    }
                    if dom != bit {
                        if open.is_some() {
                            // Two or more open: too early.
                            return true;
                        }
                        open = Some((usize::from(cell), bit));
                    }
                }
                match (open, scratch) {
                    (None, scratch) => then.propagate(d, scratch),
                    (Some((cell, bit)), Some(scratch)) => {
                        // The last open condition cell takes its digit only
                        // when the consequence could then still hold.
                        let Scratch {
                            value,
                            stamp,
                            epoch,
                            ..
                        } = scratch;
                        let mut trial = Scratch::overlay(value, stamp, epoch, &*d);
                        let possible = trial.set(cell, bit) && then.propagate(&mut trial, None);
                        possible || d.keep(cell, !bit)
                    }
                    (Some(_), None) => true,
                }
            }
            Prop::Cases {
                cases,
                cells,
                house,
            } => {
                let Some(scratch) = scratch else {
                    return true;
                };
                cases_propagate(cases, cells, house, d, scratch)
            }
            Prop::Any(literals) => any(literals, d),
            Prop::Classes { cells, classes } => each_class(cells, classes, d),
            Prop::Formula(test, cells) => formula_propagate(test, cells, d),
            Prop::Automaton(automaton, cells) => {
                let doms: Vec<u32> = cells.iter().map(|&c| d.get(usize::from(c))).collect();
                match automaton.support(&doms) {
                    None => false,
                    Some(kept) => cells
                        .iter()
                        .zip(kept)
                        .all(|(&c, keep)| d.keep(usize::from(c), keep)),
                }
            }
            Prop::Connected(rule, cells) => {
                let doms: Vec<u32> = cells.iter().map(|&c| d.get(usize::from(c))).collect();
                match rule.support(&doms) {
                    None => false,
                    Some(kept) => cells
                        .iter()
                        .zip(kept)
                        .all(|(&c, keep)| d.keep(usize::from(c), keep)),
                }
            }
            Prop::Chaos { labels, .. } => labels.narrow(d),
            Prop::Rank(rank, _) => rank.narrow(&mut AsCandidates(d)),
            Prop::Pointing(house, exclusions) => pointing(house, exclusions, d),
            Prop::Placed(cell, exclusions) => {
                let dom = d.get(usize::from(*cell));
                dom.count_ones() != 1
                    || each_cell(
                        exclusions.of(dom.trailing_zeros() as usize, usize::from(*cell)),
                        |other| d.get(other) & dom == 0 || d.keep(other, !dom),
                    )
            }
            Prop::Check(primitive, cells) => {
                if cells
                    .iter()
                    .any(|&c| d.get(usize::from(c)).count_ones() != 1)
                {
                    return true;
                }
                primitive.holds(&|c| d.get(c).trailing_zeros() as u8 + 1)
            }
        }
    }
}

/// The search's candidates as [`Prop::Rank`] reads them.
struct AsCandidates<'a, D: Doms>(&'a mut D);

impl<D: Doms> crate::puzzle::rank::Candidates for AsCandidates<'_, D> {
    #[inline]
    fn get(&self, cell: usize) -> u32 {
        self.0.get(cell)
    }

    #[inline]
    fn keep(&mut self, cell: usize, mask: u32) -> bool {
        self.0.keep(cell, mask)
    }
}

/// [`Prop::Any`]: some literal must still be able to hold; when only one
/// can, its cell keeps only that literal's digits.
fn any<D: Doms>(literals: &[(u16, u32)], d: &mut D) -> bool {
    let mut open = literals
        .iter()
        .filter(|&&(c, mask)| d.get(usize::from(c)) & mask != 0);
    match (open.next(), open.next()) {
        (None, _) => false,
        (Some(&(c, mask)), None) => d.keep(usize::from(c), mask),
        _ => true,
    }
}

/// [`Prop::Classes`]: a cell keeps each class whose placement there
/// leaves the other classes a cell each among the other cells.
fn each_class<D: Doms>(cells: &[u16], classes: &[u32], d: &mut D) -> bool {
    // Which classes each cell can still hold, as bits over `classes`.
    let can: Vec<u32> = cells
        .iter()
        .map(|&c| {
            let dom = d.get(usize::from(c));
            classes
                .iter()
                .enumerate()
                .filter(|&(_, &class)| dom & class != 0)
                .fold(0, |set, (k, _)| set | 1 << k)
        })
        .collect();
    let everyone = (1u32 << classes.len()) - 1;
    if !matches(&can, everyone, u32::MAX) {
        return false;
    }
    for (i, &cell) in cells.iter().enumerate() {
        let others = !(1 << i);
        let mut keep = u32::MAX;
        for (k, &class) in classes.iter().enumerate() {
            if can[i] & 1 << k != 0 && !matches(&can, everyone & !(1 << k), others) {
                keep &= !class;
            }
        }
        if keep != u32::MAX && !d.keep(usize::from(cell), keep) {
            return false;
        }
    }
    true
}

/// Whether each class of `wanted` can take a cell of its own among the
/// cells of `free` (bits over `can`), each cell one class it can hold.
fn matches(can: &[u32], wanted: u32, free: u32) -> bool {
    if wanted == 0 {
        return true;
    }
    let k = wanted.trailing_zeros();
    let rest = wanted & (wanted - 1);
    can.iter().enumerate().any(|(i, &classes)| {
        free & 1 << i != 0 && classes & 1 << k != 0 && matches(can, rest, free & !(1 << i))
    })
}

/// The most cells and classes a [`Prop::Classes`] takes: its matching
/// tries the classes' places in turn, which must stay small.
const MOST_CLASS_CELLS: usize = 16;
const MOST_CLASSES: usize = 8;

/// `Prop::Any`s over the same cells (a few), each naming one set of
/// digits in every cell, the sets apart: one [`Prop::Classes`] for them.
fn classes_of(props: Vec<Prop>) -> Vec<Prop> {
    let mut out: Vec<Prop> = Vec::with_capacity(props.len());
    let mut at = std::collections::HashMap::<Vec<u16>, usize>::new();
    for prop in props {
        let uniform = match &prop {
            Prop::Any(literals) if literals.len() <= MOST_CLASS_CELLS => literals
                .first()
                .map(|&(_, mask)| mask)
                .filter(|&mask| literals.iter().all(|&(_, m)| m == mask)),
            _ => None,
        };
        let Some(mask) = uniform else {
            out.push(prop);
            continue;
        };
        let mut cells = prop.cells();
        cells.sort_unstable();
        // A cell named twice is still one place.
        cells.dedup();
        match at.get(&cells).and_then(|&k| out.get_mut(k)) {
            Some(Prop::Classes { classes, .. })
                if classes.len() < MOST_CLASSES && classes.iter().all(|&c| c & mask == 0) =>
            {
                classes.push(mask);
            }
            _ => {
                at.insert(cells.clone(), out.len());
                out.push(Prop::Classes {
                    cells,
                    classes: vec![mask],
                });
            }
        }
    }
    // A class alone is the `Any` it was.
    out.into_iter()
        .map(|prop| match prop {
            Prop::Classes { cells, classes } if classes.len() == 1 => {
                Prop::Any(cells.iter().map(|&c| (c, classes[0])).collect())
            }
            other => other,
        })
        .collect()
}

/// [`Prop::Formula`]: the formula read over the cells' candidates (see
/// [`formula::feasible`]); with one cell left open, each of its digits is
/// tried.
fn formula_propagate<D: Doms>(
    test: &crate::puzzle::expr::Test<usize>,
    cells: &[u16],
    d: &mut D,
) -> bool {
    let value = |dom: u32| {
        if dom.count_ones() == 1 {
            dom.trailing_zeros() as u8 + 1
        } else {
            0
        }
    };
    let mut open = cells
        .iter()
        .map(|&c| usize::from(c))
        .filter(|&c| d.get(c).count_ones() != 1);
    // With one cell open, trying each of its digits decides the formula
    // too (no digit left is a dead end), so the bounds are read only
    // otherwise.
    let (Some(last), None) = (open.next(), open.next()) else {
        let doms = &*d;
        return formula::feasible(test, &|c| value(doms.get(c)), &|c| doms.get(c));
    };
    let mut keep = 0;
    let candidates = d.get(last);
    for digit in 1..=d.side() as u8 {
        let bit = 1u32 << (digit - 1);
        if candidates & bit == 0 {
            continue;
        }
        let doms = &*d;
        let at = |c: usize| if c == last { digit } else { value(doms.get(c)) };
        let dom = |c: usize| if c == last { bit } else { doms.get(c) };
        if formula::feasible(test, &at, &dom) {
            keep |= bit;
        }
    }
    d.keep(last, keep)
}

/// [`Prop::Cases`]: the union of what each case still possible leaves.
fn cases_propagate<D: Doms>(
    cases: &[(Vec<(u16, u32)>, Prop)],
    cells: &[u16],
    house: &[u16],
    d: &mut D,
    scratch: &mut Scratch,
) -> bool {
    let Scratch {
        value,
        stamp,
        epoch,
        union,
    } = scratch;
    for &c in cells {
        union[usize::from(c)] = 0;
    }
    let mut any = false;
    for (when, then) in cases {
        if when
            .iter()
            .any(|&(c, bit)| d.get(usize::from(c)) & bit == 0)
        {
            continue;
        }
        let mut trial = Scratch::overlay(value, stamp, epoch, &*d);
        let mut possible = when.iter().all(|&(c, bit)| trial.set(usize::from(c), bit));
        if possible && !house.is_empty() {
            let placed = when.iter().fold(0, |m, &(_, bit)| m | bit);
            possible = house.iter().all(|&c| {
                let c = usize::from(c);
                when.iter().any(|&(w, _)| usize::from(w) == c) || trial.keep(c, !placed)
            });
        }
        if possible && then.propagate(&mut trial, None) {
            any = true;
            for &c in cells {
                union[usize::from(c)] |= trial.get(usize::from(c));
            }
        }
    }
    if !any {
        return false;
    }
    cells
        .iter()
        .all(|&c| d.keep(usize::from(c), union[usize::from(c)]))
}

/// The digits some candidate in `from` allows by `table`.
#[inline]
fn support(mut from: u32, table: &[u32; MAX_SIDE + 1]) -> u32 {
    let mut out = 0;
    while from != 0 {
        out |= table[from.trailing_zeros() as usize + 1];
        from &= from - 1;
    }
    out
}

/// A house: naked singles out of the other cells, hidden singles in, no
/// digit without a place.
fn house<D: Doms>(cells: &[u16], d: &mut D) -> bool {
    loop {
        let (mut fixed, mut once, mut twice) = (0u32, 0u32, 0u32);
        for &c in cells {
            let dom = d.get(usize::from(c));
            if dom.count_ones() == 1 {
                if fixed & dom != 0 {
                    return false;
                }
                fixed |= dom;
            }
            twice |= once & dom;
            once |= dom;
        }
        let all = u32::MAX >> (32 - d.side());
        if once != all {
            return false;
        }
        let singles = once & !twice & !fixed;
        let mut changed = false;
        for &c in cells {
            let c = usize::from(c);
            let dom = d.get(c);
            if dom.count_ones() == 1 {
                continue;
            }
            let single = dom & singles;
            let new = if single != 0 {
                if single.count_ones() > 1 {
                    return false;
                }
                single
            } else {
                dom & !fixed
            };
            if new != dom {
                if !d.set(c, new) {
                    return false;
                }
                changed |= new.count_ones() == 1;
            }
        }
        if !changed {
            return true;
        }
    }
}

/// [`Prop::Meet`]: each part keeps the digits the other part can hold.
fn meet<D: Doms>(a: &[u16], b: &[u16], d: &mut D) -> bool {
    let union = |cells: &[u16], d: &D| cells.iter().fold(0, |m, &c| m | d.get(usize::from(c)));
    let (in_a, in_b) = (union(a, d), union(b, d));
    a.iter().all(|&c| d.keep(usize::from(c), in_b))
        && b.iter().all(|&c| d.keep(usize::from(c), in_a))
}

/// [`Prop::ShortLines`]: a digit already in as many short lines as a line
/// has cells leaves the rest; one that can still reach only as many must
/// go in each of them (to its only place in a line, when it has one); and
/// a short line that must take more digits than it has cells is a dead
/// end, one that must take exactly as many keeps only those.
fn short_lines<D: Doms>(lines: &[Vec<u16>], d: &mut D) -> bool {
    let width = lines[0].len() as u32;
    let side = d.side();
    let (mut fixed, mut open, mut once) = ([0u32; MAX_SIDE], [0u32; MAX_SIDE], [0u32; MAX_SIDE]);
    for (k, line) in lines.iter().enumerate() {
        let (mut any, mut twice) = (0u32, 0u32);
        for &c in line {
            let dom = d.get(usize::from(c));
            twice |= any & dom;
            any |= dom;
            if dom.count_ones() == 1 {
                fixed[k] |= dom;
            }
        }
        open[k] = any & !fixed[k];
        once[k] = any & !twice & !fixed[k];
    }
    let mut required = 0u32;
    for digit in 0..side {
        let bit = 1u32 << digit;
        let placed = fixed.iter().filter(|&&f| f & bit != 0).count() as u32;
        let possible = open.iter().filter(|&&o| o & bit != 0).count() as u32;
        if placed > width || placed + possible < width {
            return false;
        }
        if placed == width && possible > 0 {
            for (k, line) in lines.iter().enumerate() {
                if open[k] & bit != 0 && !line.iter().all(|&c| d.keep(usize::from(c), !bit)) {
                    return false;
                }
            }
        } else if placed + possible == width {
            required |= bit;
        }
    }
    if required == 0 {
        return true;
    }
    for (k, line) in lines.iter().enumerate() {
        let singles = once[k] & required;
        for &c in line {
            let c = usize::from(c);
            let single = d.get(c) & singles;
            if single != 0 && !d.set(c, single) {
                return false;
            }
        }
        let taken = open[k] & required | fixed[k];
        match taken.count_ones().cmp(&width) {
            std::cmp::Ordering::Greater => return false,
            std::cmp::Ordering::Equal => {
                if !line.iter().all(|&c| d.keep(usize::from(c), taken)) {
                    return false;
                }
            }
            std::cmp::Ordering::Less => {}
        }
    }
    true
}

/// Different digits, and a cage's sum.
fn distinct<D: Doms>(cells: &[u16], sum: Option<u32>, sets: &[u32], d: &mut D) -> bool {
    // Placed digits leave the other cells, until nothing new is placed.
    let (fixed, mut union, total) = loop {
        let (mut fixed, mut union, mut total) = (0u32, 0u32, 0u32);
        for &c in cells {
            let dom = d.get(usize::from(c));
            if dom.count_ones() == 1 {
                if fixed & dom != 0 {
                    return false;
                }
                fixed |= dom;
                total += dom.trailing_zeros() + 1;
            }
            union |= dom;
        }
        let mut placed = false;
        for &c in cells {
            let c = usize::from(c);
            let dom = d.get(c);
            if dom.count_ones() > 1 && dom & fixed != 0 {
                if !d.set(c, dom & !fixed) {
                    return false;
                }
                placed |= (dom & !fixed).count_ones() == 1;
            }
        }
        if !placed {
            break (fixed, union, total);
        }
    };
    if (union.count_ones() as usize) < cells.len() {
        return false;
    }
    let Some(sum) = sum else {
        return true;
    };
    if !sets.is_empty() {
        let (mut options, mut required) = (0u32, u32::MAX);
        for &set in sets {
            if set & fixed == fixed
                && set & !union == 0
                && cells.iter().all(|&c| d.get(usize::from(c)) & set != 0)
            {
                options |= set;
                required &= set;
            }
        }
        if options == 0 {
            return false;
        }
        for &c in cells {
            if !d.keep(usize::from(c), options) {
                return false;
            }
        }
        // A digit every set holds goes to its only place.
        let mut left = required & !fixed;
        while left != 0 {
            let bit = left & left.wrapping_neg();
            left ^= bit;
            let mut places = cells.iter().filter(|&&c| d.get(usize::from(c)) & bit != 0);
            match (places.next(), places.next()) {
                (None, _) => return false,
                (Some(&c), None) if !d.set(usize::from(c), bit) => return false,
                _ => {}
            }
        }
        return true;
    }
    // Large boards: bounds on the other open cells' different digits.
    let side = d.side();
    let all = u32::MAX >> (32 - side);
    let open = cells
        .iter()
        .filter(|&&c| d.get(usize::from(c)).count_ones() > 1)
        .count() as u32;
    let Some(rest) = sum.checked_sub(total) else {
        return false;
    };
    if open == 0 {
        return rest == 0;
    }
    union &= !fixed & all;
    for &c in cells {
        let c = usize::from(c);
        let dom = d.get(c);
        if dom.count_ones() == 1 {
            continue;
        }
        let mut keep = 0;
        let mut left = dom;
        while left != 0 {
            let bit = left & left.wrapping_neg();
            left ^= bit;
            let digit = bit.trailing_zeros() + 1;
            if let Some(remainder) = rest.checked_sub(digit) {
                let (low, high) = extreme_sums(union & !bit, open - 1);
                if (low..=high).contains(&remainder) {
                    keep |= bit;
                }
            }
        }
        if !d.keep(c, keep) {
            return false;
        }
    }
    true
}

/// The least and greatest sums of `count` different digits from `pool`
/// (bits); `(1, 0)`, an empty range, when the pool is too small.
fn extreme_sums(pool: u32, count: u32) -> (u32, u32) {
    if pool.count_ones() < count {
        return (1, 0);
    }
    let (mut low, mut high) = (0, 0);
    let (mut small, mut large) = (pool, pool);
    for _ in 0..count {
        low += small.trailing_zeros() + 1;
        small &= small - 1;
        let top = 31 - large.leading_zeros();
        high += top + 1;
        large &= !(1 << top);
    }
    (low, high)
}

/// A weighted sum, by bounds: each candidate of each cell stays when the
/// other cells' least and greatest contributions let some total be met.
fn sum<D: Doms>(terms: &[(u16, i32)], totals: &[i32], apart: [bool; 2], d: &mut D) -> bool {
    let side = d.side();
    if apart != [false; 2]
        && let Some(exact) = sum_halves(terms, totals, apart, d)
    {
        return exact;
    }
    if let Some(exact) = sum_exact(terms, totals, d) {
        return exact;
    }
    loop {
        let (mut low, mut high) = (0i32, 0i32);
        for &(c, w) in terms {
            let dom = d.get(usize::from(c));
            if dom == 0 {
                return false;
            }
            let (lo, hi) = low_high(dom);
            if w > 0 {
                low += w * lo;
                high += w * hi;
            } else {
                low += w * hi;
                high += w * lo;
            }
        }
        if !totals.iter().any(|t| (low..=high).contains(t)) {
            return false;
        }
        let mut changed = false;
        for &(c, w) in terms {
            let c = usize::from(c);
            let dom = d.get(c);
            let (lo, hi) = low_high(dom);
            // The others' range, without this cell's part.
            let (own_low, own_high) = if w > 0 {
                (w * lo, w * hi)
            } else {
                (w * hi, w * lo)
            };
            let (others_low, others_high) = (low - own_low, high - own_high);
            let mut keep = 0;
            for &t in totals {
                // w · x within [t - others_high, t - others_low].
                let (a, b) = (t - others_high, t - others_low);
                let (x_low, x_high) = if w > 0 {
                    (div_ceil(a, w), div_floor(b, w))
                } else {
                    (div_ceil(b, w), div_floor(a, w))
                };
                keep |= span(x_low, x_high, side);
            }
            let new = dom & keep;
            if new != dom {
                if !d.set(c, new) {
                    return false;
                }
                changed = true;
            }
        }
        if !changed {
            return true;
        }
    }
}

/// A weighted sum of up to four cells whose partial sums fit in 128
/// values, exactly: which
/// digits of each cell lie on some choice of digits, one per cell, that
/// meets a total (the cells' digits taken as independent). Partial sums
/// are bit sets, offset so that the least possible one is bit 0. `None`
/// when the range is too wide (then bounds do).
fn sum_exact<D: Doms>(terms: &[(u16, i32)], totals: &[i32], d: &mut D) -> Option<bool> {
    // Longer sums took fewer nodes this way but more time than with bounds
    // (build.md, "The generic native search").
    const MAX_TERMS: usize = 4;
    let side = d.side() as i32;
    if terms.len() > MAX_TERMS {
        return None;
    }
    // Every partial sum, the empty one too, lies in low..=high.
    let low: i32 = terms.iter().map(|&(_, w)| w.min(0) * side).sum();
    let high: i32 = terms.iter().map(|&(_, w)| w.max(0) * side).sum();
    if high - low >= 128 {
        return None;
    }
    let shift = |set: u128, by: i32| -> u128 {
        if by >= 0 {
            set.checked_shl(by as u32).unwrap_or(0)
        } else {
            set.checked_shr((-by) as u32).unwrap_or(0)
        }
    };
    // forward[i]: partial sums of the first i terms, as bits from `low`
    // (the empty sum 0 is bit -low); need[i]: partial sums after i terms
    // from which the rest can reach a total.
    let n = terms.len();
    let mut forward = [0u128; MAX_TERMS + 1];
    let mut need = [0u128; MAX_TERMS + 1];
    forward[0] = 1u128 << (-low);
    for (i, &(c, w)) in terms.iter().enumerate() {
        let mut left = d.get(usize::from(c));
        let mut next = 0;
        while left != 0 {
            let digit = left.trailing_zeros() as i32 + 1;
            left &= left - 1;
            next |= shift(forward[i], w * digit);
        }
        forward[i + 1] = next;
    }
    for &t in totals {
        if (low..=high).contains(&t) {
            need[n] |= 1u128 << (t - low);
        }
    }
    if forward[n] & need[n] == 0 {
        return Some(false);
    }
    for i in (0..n).rev() {
        let (c, w) = terms[i];
        let mut left = d.get(usize::from(c));
        let mut before = 0;
        while left != 0 {
            let digit = left.trailing_zeros() as i32 + 1;
            left &= left - 1;
            before |= shift(need[i + 1], -w * digit);
        }
        need[i] = before;
    }
    for (i, &(c, w)) in terms.iter().enumerate() {
        let c = usize::from(c);
        let dom = d.get(c);
        let mut keep = 0;
        let mut left = dom;
        while left != 0 {
            let bit = left & left.wrapping_neg();
            left ^= bit;
            let digit = bit.trailing_zeros() as i32 + 1;
            if shift(forward[i], w * digit) & need[i + 1] != 0 {
                keep |= bit;
            }
        }
        if !d.keep(c, keep) {
            return Some(false);
        }
    }
    Some(true)
}

/// The two halves a sum of up to four cells is searched in: its first
/// two cells and the rest (one cell each for a sum of two).
fn halves(n: usize) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
    let mid = if n <= 2 { n.min(1) } else { 2 };
    (0..mid, mid..n)
}

/// One half of a sum (see [`halves`]): up to two cells, different when
/// `apart`, and the partial sums they make, as bits from `low`.
struct Half<'t> {
    terms: &'t [(u16, i32)],
    apart: bool,
    low: i32,
    sums: u128,
}

impl<'t> Half<'t> {
    /// `None` when the half's partial sums span 128 values or more.
    fn new<D: Doms>(terms: &'t [(u16, i32)], apart: bool, d: &D) -> Option<Half<'t>> {
        let side = d.side() as i32;
        let low: i32 = terms.iter().map(|&(_, w)| (w * side).min(w)).sum();
        let high: i32 = terms.iter().map(|&(_, w)| (w * side).max(w)).sum();
        if high - low >= 128 || terms.len() > 2 {
            return None;
        }
        let mut half = Half {
            terms,
            apart,
            low,
            sums: 0,
        };
        let mut sums = 0u128;
        half.each(d, |_, _, p| sums |= 1u128 << (p - low));
        half.sums = sums;
        Some(half)
    }

    /// Calls `f` with each choice of digits (as bits; the second 0 for a
    /// half of one cell) and the partial sum it makes.
    fn each<D: Doms>(&self, d: &D, mut f: impl FnMut(u32, u32, i32)) {
        let value = |bit: u32| bit.trailing_zeros() as i32 + 1;
        match self.terms {
            [] => f(0, 0, 0),
            [(a, wa)] => {
                let mut xs = d.get(usize::from(*a));
                while xs != 0 {
                    let x = xs & xs.wrapping_neg();
                    xs ^= x;
                    f(x, 0, wa * value(x));
                }
            }
            [(a, wa), (b, wb), ..] => {
                let (da, db) = (d.get(usize::from(*a)), d.get(usize::from(*b)));
                let mut xs = da;
                while xs != 0 {
                    let x = xs & xs.wrapping_neg();
                    xs ^= x;
                    let mut ys = if self.apart { db & !x } else { db };
                    while ys != 0 {
                        let y = ys & ys.wrapping_neg();
                        ys ^= y;
                        f(x, y, wa * value(x) + wb * value(y));
                    }
                }
            }
        }
    }

    /// The partial sums of this half that some partial sum of `other`
    /// completes to one of `totals`, as bits from `self.low`.
    fn completed(&self, other: &Half<'_>, totals: &[i32]) -> u128 {
        let mut out = 0u128;
        let mut left = other.sums;
        while left != 0 {
            let j = left.trailing_zeros() as i32;
            left &= left - 1;
            for &t in totals {
                let index = t - (j + other.low) - self.low;
                if (0..128).contains(&index) {
                    out |= 1u128 << index;
                }
            }
        }
        out
    }

    /// Narrows the half's cells to the choices whose partial sum is in
    /// `fine`; `false` when none is.
    fn keep<D: Doms>(&self, fine: u128, d: &mut D) -> bool {
        let (mut keep_a, mut keep_b) = (0u32, 0u32);
        let low = self.low;
        self.each(d, |x, y, p| {
            if fine >> (p - low) & 1 != 0 {
                keep_a |= x;
                keep_b |= y;
            }
        });
        match self.terms {
            [] => true,
            [(a, _)] => d.keep(usize::from(*a), keep_a),
            [(a, _), (b, _), ..] => {
                d.keep(usize::from(*a), keep_a) && d.keep(usize::from(*b), keep_b)
            }
        }
    }
}

/// A sum of two to four cells whose first two or last two cells see each
/// other, exactly (as sigh's sum handler does for a few cells): each half's
/// digit pairs, different where its cells see each other, make its partial
/// sums, and a digit stays when some pair holding it makes a partial sum the
/// other half completes. `None` when the sum is longer or its range too
/// wide (then [`sum_exact`] or bounds do).
fn sum_halves<D: Doms>(
    terms: &[(u16, i32)],
    totals: &[i32],
    apart: [bool; 2],
    d: &mut D,
) -> Option<bool> {
    if !(2..=4).contains(&terms.len()) {
        return None;
    }
    let (first, second) = halves(terms.len());
    let (first, second) = (&terms[first], &terms[second]);
    let one = Half::new(first, apart[0], d)?;
    let two = Half::new(second, apart[1], d)?;
    let (fine_one, fine_two) = (one.completed(&two, totals), two.completed(&one, totals));
    if one.sums & fine_one == 0 {
        return Some(false);
    }
    Some(one.keep(fine_one, d) && two.keep(fine_two, d))
}

#[inline]
fn div_floor(a: i32, b: i32) -> i32 {
    a.div_euclid(b) - i32::from(b < 0 && a.rem_euclid(b) != 0)
}

#[inline]
fn div_ceil(a: i32, b: i32) -> i32 {
    -div_floor(-a, b)
}

/// Each digit's places among the cells: a digit needing as many places as
/// it has left takes them, and when the needs fill the cells nothing else
/// goes there.
fn contains<D: Doms>(cells: &[u16], need: &[(u32, u32)], d: &mut D) -> bool {
    let mut needed = 0u32;
    let mut total = 0;
    for &(bit, count) in need {
        needed |= bit;
        total += count;
        let places = cells
            .iter()
            .filter(|&&c| d.get(usize::from(c)) & bit != 0)
            .count() as u32;
        if places < count {
            return false;
        }
        if places == count {
            for &c in cells {
                let c = usize::from(c);
                if d.get(c) & bit != 0 && !d.set(c, bit) {
                    return false;
                }
            }
        }
    }
    if total as usize >= cells.len() {
        for &c in cells {
            if !d.keep(usize::from(c), needed) {
                return false;
            }
        }
    }
    true
}

/// [`Primitive::Between`]: the pairs of end digits that leave each middle cell a
/// candidate strictly between them.
fn between<D: Doms>(ends: (u16, u16), middle: &[u16], d: &mut D) -> bool {
    // With nothing between them the ends may hold any digits (even
    // neighbouring ones, which leave no digit strictly between).
    if middle.is_empty() {
        return true;
    }
    let (a, b) = (usize::from(ends.0), usize::from(ends.1));
    let side = d.side();
    let (da, db) = (d.get(a), d.get(b));
    let (mut keep_a, mut keep_b, mut keep_middle) = (0u32, 0u32, 0u32);
    let mut left = da;
    while left != 0 {
        let x = left.trailing_zeros() as i32 + 1;
        left &= left - 1;
        let mut right = db;
        while right != 0 {
            let y = right.trailing_zeros() as i32 + 1;
            right &= right - 1;
            let inside = span(x.min(y) + 1, x.max(y) - 1, side);
            if inside != 0 && middle.iter().all(|&m| d.get(usize::from(m)) & inside != 0) {
                keep_a |= 1 << (x - 1);
                keep_b |= 1 << (y - 1);
                keep_middle |= inside;
            }
        }
    }
    if !d.keep(a, keep_a) || !d.keep(b, keep_b) {
        return false;
    }
    middle.iter().all(|&m| d.keep(usize::from(m), keep_middle))
}

/// Buildings seen: which digits of each cell lie on some walk from the
/// clue to the far end that sees exactly `count`. A state is the tallest
/// building so far and, as a bit, how many were seen.
fn visible<D: Doms>(cells: &[u16], count: u32, d: &mut D) -> bool {
    const WIDE: usize = MAX_SIDE + 1;
    let n = cells.len();
    let side = d.side();
    if n > MAX_SIDE || count as usize > MAX_SIDE {
        return true;
    }
    // forward[i][m]: seen counts (bits) reachable before cell i with
    // tallest m; backward[i][m]: seen counts before cell i from which the
    // rest of the line ends on `count`.
    let mut forward = [[0u32; WIDE]; WIDE + 1];
    let mut backward = [[0u32; WIDE]; WIDE + 1];
    forward[0][0] = 1;
    for i in 0..n {
        let dom = d.get(usize::from(cells[i]));
        for m in 0..=side {
            let seen = forward[i][m];
            if seen == 0 {
                continue;
            }
            let mut left = dom;
            while left != 0 {
                let digit = left.trailing_zeros() as usize + 1;
                left &= left - 1;
                if digit > m {
                    forward[i + 1][digit] |= seen << 1;
                } else {
                    forward[i + 1][m] |= seen;
                }
            }
        }
    }
    for seen in backward[n].iter_mut().take(side + 1) {
        *seen = 1 << count;
    }
    for i in (0..n).rev() {
        let dom = d.get(usize::from(cells[i]));
        for m in 0..=side {
            let mut ok = 0;
            let mut left = dom;
            while left != 0 {
                let digit = left.trailing_zeros() as usize + 1;
                left &= left - 1;
                ok |= if digit > m {
                    backward[i + 1][digit] >> 1
                } else {
                    backward[i + 1][m]
                };
            }
            backward[i][m] = ok;
        }
    }
    if forward[0][0] & backward[0][0] == 0 {
        return false;
    }
    for i in 0..n {
        let cell = usize::from(cells[i]);
        let dom = d.get(cell);
        let mut keep = 0;
        let mut left = dom;
        while left != 0 {
            let bit = left & left.wrapping_neg();
            left ^= bit;
            let digit = bit.trailing_zeros() as usize + 1;
            let supported = (0..=side).any(|m| {
                let seen = forward[i][m];
                seen != 0
                    && if digit > m {
                        seen & (backward[i + 1][digit] >> 1) != 0
                    } else {
                        seen & backward[i + 1][m] != 0
                    }
            });
            if supported {
                keep |= bit;
            }
        }
        if !d.keep(cell, keep) {
            return false;
        }
    }
    true
}

/// The most words of cells an [`Exclusions`] set takes: 640 cells, past
/// the largest board (25x25).
const EXCLUSION_WORDS: usize = 10;

/// For each digit and cell, the cells a digit there keeps from holding it
/// too, as bit sets: the cells of its houses and groups of different
/// digits, and those a pair rule forbids the same digit (anti-knight,
/// anti-taxicab, a thermometer's next bulb). sigh adds the same reasoning
/// (its `PerfectAllDifferentValueExclusion`) for anti-taxicab.
pub(super) struct Exclusions {
    cells: usize,
    words: usize,
    sets: Vec<u64>,
}

impl Exclusions {
    fn new(cells: usize, side: usize) -> Exclusions {
        let words = cells.div_ceil(64);
        Exclusions {
            cells,
            words,
            sets: vec![0; side * cells * words],
        }
    }

    /// Each of `members` keeps the others from `digits`.
    fn group(&mut self, members: &[u16], digits: u32) {
        for &a in members {
            let mut left = digits;
            while left != 0 {
                let at =
                    (left.trailing_zeros() as usize * self.cells + usize::from(a)) * self.words;
                left &= left - 1;
                for &b in members.iter().filter(|&&b| b != a) {
                    self.sets[at + usize::from(b) / 64] |= 1 << (b % 64);
                }
            }
        }
    }

    /// The set of digit `digit` (from 0) in `cell`.
    fn of(&self, digit: usize, cell: usize) -> &[u64] {
        let at = (digit * self.cells + cell) * self.words;
        &self.sets[at..at + self.words]
    }
}

/// Calls `f` on each cell of the bit set `set`, while `f` says go on;
/// whether it always did.
fn each_cell(set: &[u64], mut f: impl FnMut(usize) -> bool) -> bool {
    for (w, &word) in set.iter().enumerate() {
        let mut word = word;
        while word != 0 {
            if !f(w * 64 + word.trailing_zeros() as usize) {
                return false;
            }
            word &= word - 1;
        }
    }
    true
}

/// The digits `ab` (a pair's table) keeps from both cells at once, when
/// that is all it does; `None` for any other relation.
fn only_apart(ab: &[u32; MAX_SIDE + 1], side: usize) -> Option<u32> {
    let all = u32::MAX >> (32 - side);
    let mut apart = 0;
    for (k, &table) in ab[1..=side].iter().enumerate() {
        let bit = 1 << k;
        match table {
            t if t == all => {}
            t if t == all & !bit => apart |= bit,
            _ => return None,
        }
    }
    Some(apart)
}

/// When pair rules or groups of different digits keep cells outside each
/// other's houses from the same digit, [`Prop::Pointing`] for each full
/// house and [`Prop::Placed`] in place of the pairs that do nothing else;
/// otherwise `props` as they are. Boards of more than 640 cells keep their
/// pairs.
fn with_exclusions(props: Vec<Prop>, rules: &Rules) -> Vec<Prop> {
    let size = rules.size();
    let (cells, side) = (size.cells(), size.values());
    if cells.div_ceil(64) > EXCLUSION_WORDS {
        return props;
    }
    let cells16 = |h: &crate::puzzle::rules::House| -> Vec<u16> {
        h.cells.iter().map(|&c| c as u16).collect()
    };
    let all = u32::MAX >> (32 - side);
    let mut exclusions = Exclusions::new(cells, side);
    for house in rules.houses() {
        exclusions.group(&cells16(house), all);
    }
    let mut kept = Vec::with_capacity(props.len());
    let mut placed = vec![false; cells];
    let mut beyond_houses = false;
    for prop in props {
        // Only the digits' cells: a chaos construction's label cells
        // (after them) are no one's peers.
        if prop.cells().iter().any(|&c| usize::from(c) >= cells) {
            kept.push(prop);
            continue;
        }
        match &prop {
            Prop::Distinct { cells, .. } => {
                beyond_houses |= cells.iter().any(|&a| {
                    cells
                        .iter()
                        .any(|&b| !rules.share_house(usize::from(a), usize::from(b)))
                });
                exclusions.group(cells, all);
            }
            Prop::Pair { a, b, ab, .. } => {
                let (a, b) = (*a, *b);
                match only_apart(ab, side) {
                    Some(apart) => {
                        beyond_houses |=
                            apart != 0 && !rules.share_house(usize::from(a), usize::from(b));
                        exclusions.group(&[a, b], apart);
                        placed[usize::from(a)] |= apart != 0;
                        placed[usize::from(b)] |= apart != 0;
                        continue;
                    }
                    None => {
                        let same = (1..=side)
                            .filter(|&d| ab[d] & 1 << (d - 1) == 0)
                            .fold(0, |set, d| set | 1 << (d - 1));
                        beyond_houses |=
                            same != 0 && !rules.share_house(usize::from(a), usize::from(b));
                        exclusions.group(&[a, b], same);
                    }
                }
            }
            _ => {}
        }
        kept.push(prop);
    }
    let exclusions = Arc::new(exclusions);
    kept.extend(
        (0..cells)
            .filter(|&c| placed[c])
            .map(|c| Prop::Placed(c as u16, Arc::clone(&exclusions))),
    );
    if beyond_houses {
        kept.extend(
            rules
                .houses()
                .iter()
                .filter(|h| h.is_full(size))
                .map(|h| Prop::Pointing(cells16(h), Arc::clone(&exclusions))),
        );
    }
    kept
}

/// [`Prop::Pointing`]: for each digit with two or more places left in the
/// house (one place is the house's own hidden single), the cells every
/// place keeps from it lose it.
fn pointing<D: Doms>(house: &[u16], exclusions: &Exclusions, d: &mut D) -> bool {
    let words = exclusions.words;
    for digit in 0..d.side() {
        let bit = 1u32 << digit;
        let mut common = [u64::MAX; EXCLUSION_WORDS];
        let mut places = 0;
        for &cell in house {
            let cell = usize::from(cell);
            if d.get(cell) & bit != 0 {
                places += 1;
                for (x, y) in common.iter_mut().zip(exclusions.of(digit, cell)) {
                    *x &= y;
                }
            }
        }
        if places >= 2
            && !each_cell(&common[..words], |cell| {
                d.get(cell) & bit == 0 || d.keep(cell, !bit)
            })
        {
            return false;
        }
    }
    true
}

/// `props` with the pair rules over the same two cells made one, whose
/// table allows what all of them allow, and no digit twice when a house
/// holds both cells. Each table narrowed alone keeps a digit that has a
/// partner in each but none in all at once: strict Kropki's pairs (not
/// consecutive, not one twice the other) beside a 2 whose neighbour may
/// hold 2, 3 or 4 keep it by the 4 and by the 3, and the two tables
/// together, with the house's 2, leave the 2 nothing. Proving a strict
/// Kropki 6x9 with three givens unique took 6,790 nodes before.
fn merge_pairs(props: Vec<Prop>, rules: &Rules) -> Vec<Prop> {
    let mut out: Vec<Prop> = Vec::with_capacity(props.len());
    let mut at = std::collections::HashMap::<(u16, u16), usize>::new();
    for prop in props {
        let Prop::Pair { a, b, ab, ba } = prop else {
            out.push(prop);
            continue;
        };
        let (a, b, ab, ba) = if a <= b {
            (a, b, ab, ba)
        } else {
            (b, a, ba, ab)
        };
        match at.get(&(a, b)).and_then(|&k| out.get_mut(k)) {
            Some(Prop::Pair { ab: x, ba: y, .. }) => {
                for (x, e) in x.iter_mut().zip(ab.iter()) {
                    *x &= e;
                }
                for (y, e) in y.iter_mut().zip(ba.iter()) {
                    *y &= e;
                }
            }
            _ => {
                at.insert((a, b), out.len());
                out.push(Prop::Pair { a, b, ab, ba });
            }
        }
    }
    for prop in &mut out {
        if let Prop::Pair { a, b, ab, ba } = prop
            && rules.share_house(usize::from(*a), usize::from(*b))
        {
            for d in 1..=MAX_SIDE {
                ab[d] &= !(1 << (d - 1));
                ba[d] &= !(1 << (d - 1));
            }
        }
    }
    out
}

/// The tables of a relation, each way round.
fn pair_tables(relation: Relation, side: usize) -> [Box<[u32; MAX_SIDE + 1]>; 2] {
    let mut ab = Box::new([0u32; MAX_SIDE + 1]);
    let mut ba = Box::new([0u32; MAX_SIDE + 1]);
    for e in 1..=side as u8 {
        for f in 1..=side as u8 {
            if relation.allows(e, f) {
                ab[usize::from(e)] |= 1 << (f - 1);
                ba[usize::from(f)] |= 1 << (e - 1);
            }
        }
    }
    [ab, ba]
}

/// The sum of the digits whose bits are in `set`.
fn digit_sum(mut set: u32) -> u32 {
    let mut sum = 0;
    while set != 0 {
        sum += set.trailing_zeros() + 1;
        set &= set - 1;
    }
    sum
}

/// A primitive as a propagator; `sets(size, sum)` lists the sets of
/// different digits of a size and sum (empty on boards above 12x12).
fn lower(
    primitive: &Primitive,
    sets: &dyn Fn(usize, u32) -> Vec<u32>,
    in_house: &dyn Fn(&[usize]) -> bool,
    side: usize,
    extra: Extra,
) -> Prop {
    let cells16 = |cells: &[usize]| cells.iter().map(|&c| c as u16).collect::<Vec<_>>();
    match primitive {
        // A plain sum of cells in one house is a cage: its digits differ
        // anyway, and a cage's sets say more than bounds.
        Primitive::Sum { terms, totals }
            if !terms.is_empty()
                && totals.len() == 1
                && totals[0] >= 0
                && terms.iter().all(|&(_, w)| w == 1)
                && in_house(&terms.iter().map(|&(c, _)| c).collect::<Vec<_>>()) =>
        {
            let cells: Vec<usize> = terms.iter().map(|&(c, _)| c).collect();
            let total = totals[0] as u32;
            Prop::Distinct {
                cells: cells16(&cells),
                sum: Some(total),
                sets: sets(cells.len(), total),
            }
        }
        Primitive::Distinct { cells, sum } => Prop::Distinct {
            cells: cells16(cells),
            sum: *sum,
            sets: sum.map_or_else(Vec::new, |s| sets(cells.len(), s)),
        },
        Primitive::Pair { a, b, relation } => {
            let [ab, ba] = pair_tables(*relation, side);
            Prop::Pair {
                a: *a as u16,
                b: *b as u16,
                ab,
                ba,
            }
        }
        Primitive::Sum { terms, totals } => {
            let cells: Vec<usize> = terms.iter().map(|&(c, _)| c).collect();
            let (first, second) = halves(cells.len());
            let apart = |half: std::ops::Range<usize>| {
                extra.sums_apart && half.len() == 2 && in_house(&cells[half])
            };
            Prop::Sum {
                terms: terms.iter().map(|&(c, w)| (c as u16, w)).collect(),
                totals: totals.clone(),
                apart: [apart(first), apart(second)],
            }
        }
        Primitive::Allowed { cell, digits } => Prop::Allowed {
            cell: *cell as u16,
            digits: *digits,
        },
        Primitive::Contains {
            cells,
            digit,
            count,
        } => Prop::Contains {
            cells: cells16(cells),
            need: vec![(1 << (digit - 1), *count as u32)],
        },
        Primitive::Between { ends, middle } => Prop::Between {
            ends: (ends.0 as u16, ends.1 as u16),
            middle: cells16(middle),
        },
        Primitive::Visible { cells, count } => Prop::Visible {
            cells: cells16(cells),
            count: *count as u32,
        },
        Primitive::When { when, then } => Prop::When {
            when: when
                .iter()
                .map(|&(c, digit)| (c as u16, 1u32 << (digit.max(1) - 1)))
                .collect(),
            then: Box::new(lower(then, sets, in_house, side, extra)),
        },
        Primitive::Any { literals } => {
            Prop::Any(literals.iter().map(|&(c, m)| (c as u16, m)).collect())
        }
        Primitive::Formula(test) => Prop::Formula(test.clone(), cells16(&primitive.cells())),
        Primitive::Automaton { cells, automaton } => {
            Prop::Automaton(automaton.clone(), cells16(cells))
        }
        Primitive::Connected(rule) => Prop::Connected(rule.clone(), cells16(&rule.cells)),
        Primitive::Rank(rank) => Prop::Rank(rank.clone(), cells16(&rank.cells())),
        // Its digit cells and, after them, their labels.
        Primitive::Chaos(rule) => Prop::Chaos {
            labels: Box::new(super::chaos::Labels::new(rule)),
            cells: (0..2 * rule.cells()).map(|c| c as u16).collect(),
        },
        // A kind of formula without a propagator yet is checked when full.
        #[allow(unreachable_patterns)]
        other => Prop::Check(other.clone(), cells16(&other.cells())),
    }
}

/// Rules "when ..., then ..." that share their condition's shape, and
/// whether their conditions between them always hold one way.
struct WhenGroup {
    members: Vec<usize>,
    exhaustive: bool,
}

/// What groups rules "when ..., then ...": the condition's house (or
/// `usize::MAX` for one cell), its one cell (or `usize::MAX`), and its two
/// digits, lower first (0 for one cell).
type WhenKey = (usize, usize, u8, u8);

/// Groups `whens` by condition: those on one cell
/// are exhaustive when they name every digit; those on two cells of one
/// house with two digits when they name every
/// ordered pair of the house's cells, since the house holds both digits
/// once. Every other rule is a group of its own, not exhaustive.
///
/// A group holds one rule per condition. [`Prop::Cases`] reads its cases
/// as alternatives (one of them holds), so two rules under the same
/// condition there would be read as "one or the other" where both hold:
/// an X-sum's "when r5c1 is 3" and a hidden skyscraper's "when r5c1 is 3"
/// on one cell once let a grid through that broke the second. The first
/// rule of each condition goes in the group; the others stand alone.
fn when_groups(whens: &[(&[(usize, u8)], &Primitive)], rules: &Rules) -> Vec<WhenGroup> {
    let side = rules.size().values();
    // Key: the condition's cells' house (or the one cell) and its digits.
    let mut keyed: Vec<(WhenKey, Vec<usize>)> = Vec::new();
    let mut alone = Vec::new();
    let mut conditions: std::collections::HashSet<Vec<(usize, u8)>> = Default::default();
    for (k, (when, _)) in whens.iter().enumerate() {
        let mut condition = when.to_vec();
        condition.sort_unstable();
        if !conditions.insert(condition) {
            alone.push(k);
            continue;
        }
        let key = match when {
            [(c, _)] => Some((usize::MAX, *c, 0, 0)),
            // Only a full house holds both digits somewhere, which makes
            // its placements exhaustive.
            [(a, x), (b, y)] if x != y => rules
                .houses_of(*a)
                .iter()
                .find(|&&h| {
                    let house = &rules.houses()[h];
                    house.is_full(rules.size()) && house.cells.contains(b)
                })
                .map(|&h| (h, usize::MAX, (*x).min(*y), (*x).max(*y))),
            _ => None,
        };
        match key {
            Some(key) => match keyed.iter_mut().find(|(k, _)| *k == key) {
                Some((_, members)) => members.push(k),
                None => keyed.push((key, vec![k])),
            },
            None => alone.push(k),
        }
    }
    let mut groups = Vec::new();
    for ((house, _, _, _), members) in keyed {
        let exhaustive = if house == usize::MAX {
            let digits: std::collections::BTreeSet<u8> =
                members.iter().map(|&k| whens[k].0[0].1).collect();
            digits.len() == side && digits.iter().all(|&d| (1..=side as u8).contains(&d))
        } else {
            let n = rules.houses()[house].cells.len();
            // Each placement: where the lower digit stands, and the higher.
            let placements: std::collections::BTreeSet<(usize, usize)> = members
                .iter()
                .map(|&k| {
                    let w = whens[k].0;
                    if w[0].1 < w[1].1 {
                        (w[0].0, w[1].0)
                    } else {
                        (w[1].0, w[0].0)
                    }
                })
                .collect();
            placements.len() == n * (n - 1)
        };
        if exhaustive && members.len() > 1 {
            groups.push(WhenGroup {
                members,
                exhaustive,
            });
        } else {
            alone.extend(members);
        }
    }
    groups.extend(alone.into_iter().map(|k| WhenGroup {
        members: vec![k],
        exhaustive: false,
    }));
    groups
}

/// Every line (row or column) and region (box or jigsaw piece) of the
/// board's size that meet in two cells or more, as the cells of each
/// outside the other. Meetings of diagonals and disjoint groups with the
/// rest cost more than they saved (build.md, "The generic native search").
fn meetings(rules: &Rules) -> Vec<Prop> {
    use crate::puzzle::rules::HouseKind;
    let side = rules.size().side();
    let of = |kinds: &[HouseKind]| -> Vec<&[usize]> {
        rules
            .houses()
            .iter()
            .filter(|h| kinds.contains(&h.kind) && h.cells.len() == side && h.is_full(rules.size()))
            .map(|h| h.cells.as_slice())
            .collect()
    };
    let lines = of(&[HouseKind::Row, HouseKind::Column]);
    let regions = of(&[HouseKind::Box, HouseKind::Region]);
    let mut props = Vec::new();
    for a in &lines {
        for b in &regions {
            let shared = a.iter().filter(|c| b.contains(c)).count();
            if shared >= 2 && shared < side {
                let only = |x: &[usize], y: &[usize]| -> Vec<u16> {
                    x.iter()
                        .filter(|c| !y.contains(c))
                        .map(|&c| c as u16)
                        .collect()
                };
                props.push(Prop::Meet(only(a, b), only(b, a)));
            }
        }
    }
    props
}

/// On a rectangle without boxes or regions whose long lines hold every
/// digit, its short lines, as one [`Prop::ShortLines`]. sigh adds the same
/// reasoning there, on boards of three or more short lines' cells: boxes
/// share the digits out well enough, and without them the search of an
/// empty `9x6` ran for minutes.
fn short_line_set(rules: &Rules) -> Option<Prop> {
    use crate::puzzle::rules::HouseKind;
    let size = rules.size();
    let regions = [HouseKind::Box, HouseKind::Region];
    if rules.houses().iter().any(|h| regions.contains(&h.kind)) {
        return None;
    }
    let short = match (size.rows(), size.cols()) {
        (rows, cols) if rows > cols && rows == size.values() => HouseKind::Row,
        (rows, cols) if cols > rows && cols == size.values() => HouseKind::Column,
        _ => return None,
    };
    let lines: Vec<Vec<u16>> = rules
        .houses()
        .iter()
        .filter(|h| h.kind == short)
        .map(|h| h.cells.iter().map(|&c| c as u16).collect())
        .collect();
    (lines.len() == size.values() && lines[0].len() > 2).then_some(Prop::ShortLines(lines))
}

/// The weights a chaos construction's search starts from, as sigh's
/// cell priorities: each rule adds its number of cells to each cell it
/// reads (the construction itself 2), so that the clues' controls and
/// the labels they read are settled first.
fn chaos_priorities(rules: &Rules, props: &[Prop], cells: usize) -> Vec<u32> {
    let mut weight = vec![0u32; cells];
    let n = rules.size().cells();
    for prop in props {
        let read = prop.cells();
        let each = if matches!(prop, Prop::Chaos { .. }) {
            2
        } else {
            read.len() as u32
        };
        for c in read {
            weight[usize::from(c)] += each;
        }
        if let Prop::Chaos { labels, .. } = prop {
            for (control, read) in labels.clue_cells() {
                let each = read.len() as u32 + 1;
                weight[control] += each;
                for c in read {
                    weight[n + c] += each;
                }
            }
        }
    }
    weight
}

/// Region labels renumbered from 0 in the order they first come in
/// reading order, as the checker's partings are: one name per parting
/// whatever labels the search gave it.
fn in_reading_order(labels: impl Iterator<Item = u8>) -> Vec<u8> {
    let mut names = [u8::MAX; 32];
    let mut next = 0;
    labels
        .map(|l| {
            let name = &mut names[usize::from(l) % 32];
            if *name == u8::MAX {
                *name = next;
                next += 1;
            }
            *name
        })
        .collect()
}

/// Cells, and the `(digit bit, count)` each `Contains` over them needs.
type ContainsGroup = (Vec<u16>, Vec<(u32, u32)>);

/// The search's tables and state. The tables are built once per set of
/// rules; the state is sized for the board, so that searching does not
/// allocate.
pub(super) struct Generic {
    /// The rules the tables below were built for.
    rules: Option<Arc<Rules>>,
    props: Vec<Prop>,
    /// The cells each propagator reads.
    prop_cells: Vec<Vec<u16>>,
    /// Each cell's digits allowed at all (pencil marks and the like).
    allowed: Vec<u32>,
    state: State,
    scratch: Scratch,
    /// Each cell's weight: how often a propagator reading it failed.
    weight: Vec<u32>,
    /// For each cell, the digits whose place the search settles first
    /// while the cell can hold one of them: a full rank clue's digit in
    /// the first cells of the lines it is ranked among.
    first: Vec<u32>,
    /// The region label cells after the digits: as many as the board's
    /// cells for a chaos construction, else none.
    labels: usize,
    /// A label cell's candidates before the search: a bit per region.
    all_labels: u32,
    /// The board handed to the visitor.
    grid: Grid,
    /// For a randomised search, each cell's digits (as bits) in the order
    /// they are tried; `None` tries them from the smallest up.
    orders: Option<Vec<[u32; MAX_SIDE]>>,
    /// The propagation the search adds to the primitives' own; all of it
    /// is on except in the tests that show what each part gains.
    extra: Extra,
    /// The node count at which a chaos construction's search starts again
    /// ([`CHAOS_FIRST_ATTEMPT`]); `u64::MAX` once a solution is found, and
    /// on every other puzzle.
    restart_at: u64,
}

/// Propagation beyond each primitive's own, each part on by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Extra {
    /// Lines and regions that meet narrow each other ([`Prop::Meet`]).
    meetings: bool,
    /// Sums of two to four cells keep cells that see each other apart
    /// ([`sum_halves`]).
    sums_apart: bool,
    /// A rectangle's short lines share out the digits ([`Prop::ShortLines`]).
    short_lines: bool,
    /// A digit's places in a house keep it from the cells they all keep
    /// it from ([`Prop::Pointing`]).
    pointing: bool,
    /// Classes of digits that each stand in a group of cells take cells
    /// of their own ([`Prop::Classes`]).
    classes: bool,
}

impl Default for Extra {
    fn default() -> Extra {
        Extra {
            meetings: true,
            sums_apart: true,
            short_lines: true,
            pointing: true,
            classes: true,
        }
    }
}

impl Generic {
    pub(super) fn new() -> Generic {
        Generic {
            restart_at: u64::MAX,
            rules: None,
            props: Vec::new(),
            prop_cells: Vec::new(),
            allowed: Vec::new(),
            state: State {
                dom: Vec::new(),
                side: 9,
                trail: Vec::new(),
                watch_start: Vec::new(),
                watch: Vec::new(),
                fast: Vec::new(),
                slow: Vec::new(),
                queued: Vec::new(),
                is_slow: Vec::new(),
            },
            scratch: Scratch {
                value: Vec::new(),
                stamp: Vec::new(),
                epoch: 0,
                union: Vec::new(),
            },
            weight: Vec::new(),
            first: Vec::new(),
            labels: 0,
            all_labels: 0,
            grid: Grid::empty(Size::NINE),
            orders: None,
            extra: Extra::default(),
        }
    }

    fn build_tables(&mut self, rules: &Arc<Rules>) {
        let size = rules.size();
        // `side` is the count of digits here: a row's cells, or more.
        // `cells` counts those outside the grid too, which only the rules
        // that name them read.
        let (cells, side) = (size.all_cells(), size.values());
        let all = u32::MAX >> (32 - side);
        // The sets of different digits by size and sum, on boards small
        // enough to list them.
        let mut by_size_sum: Vec<Vec<Vec<u32>>> = Vec::new();
        if side <= 12 {
            let top = side * (side + 1) / 2;
            by_size_sum = vec![vec![Vec::new(); top + 1]; side + 1];
            for set in 1..=all {
                by_size_sum[set.count_ones() as usize][digit_sum(set) as usize].push(set);
            }
        }
        let sets = |n: usize, s: u32| -> Vec<u32> {
            by_size_sum
                .get(n)
                .and_then(|by_sum| by_sum.get(s as usize))
                .cloned()
                .unwrap_or_default()
        };
        // A house of fewer cells than digits only keeps its digits apart.
        let mut props: Vec<Prop> = rules
            .houses()
            .iter()
            .map(|h| {
                let cells = h.cells.iter().map(|&c| c as u16).collect();
                match h.is_full(size) {
                    true => Prop::House(cells),
                    false => Prop::Distinct {
                        cells,
                        sum: None,
                        sets: Vec::new(),
                    },
                }
            })
            .collect();
        if self.extra.meetings {
            props.extend(meetings(rules));
        }
        if self.extra.short_lines {
            props.extend(short_line_set(rules));
        }
        self.allowed = vec![all; cells];
        // `Contains` counts, grouped by their cells.
        let mut contains: Vec<ContainsGroup> = Vec::new();
        let houses = rules.houses();
        let in_house = |cells: &[usize]| {
            houses
                .iter()
                .any(|h| cells.iter().all(|c| h.cells.contains(c)))
        };
        let mut whens: Vec<(&[(usize, u8)], &Primitive)> = Vec::new();
        for primitive in rules.primitives().flat_map(Primitive::parts) {
            match primitive {
                Primitive::Allowed { cell, digits } => self.allowed[*cell] &= digits,
                Primitive::Distinct { cells, sum: None }
                    if houses.iter().any(|h| {
                        h.cells.len() == cells.len() && cells.iter().all(|c| h.cells.contains(c))
                    }) => {}
                Primitive::Contains {
                    cells,
                    digit,
                    count,
                } => {
                    let key: Vec<u16> = cells.iter().map(|&c| c as u16).collect();
                    let need = (1u32 << (digit - 1), *count as u32);
                    match contains.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, needs)) => needs.push(need),
                        None => contains.push((key, vec![need])),
                    }
                }
                Primitive::When { when, then } => whens.push((when, then)),
                other => props.push(lower(other, &sets, &in_house, side, self.extra)),
            }
        }
        for group in when_groups(&whens, rules) {
            let cases: Vec<(Vec<(u16, u32)>, Prop)> = group
                .members
                .iter()
                .map(|&k| {
                    let (when, then) = whens[k];
                    (
                        when.iter()
                            .map(|&(c, digit)| (c as u16, 1u32 << (digit.max(1) - 1)))
                            .collect(),
                        lower(then, &sets, &in_house, side, self.extra),
                    )
                })
                .collect();
            if group.exhaustive {
                let mut cells: Vec<u16> = cases
                    .iter()
                    .flat_map(|(when, then)| {
                        when.iter()
                            .map(|&(c, _)| c)
                            .chain(then.cells())
                            .collect::<Vec<_>>()
                    })
                    .collect();
                cells.sort_unstable();
                cells.dedup();
                let house = houses
                    .iter()
                    .find(|h| cells.iter().all(|&c| h.cells.contains(&usize::from(c))))
                    .map(|h| h.cells.iter().map(|&c| c as u16).collect())
                    .unwrap_or_default();
                props.push(Prop::Cases {
                    cases,
                    cells,
                    house,
                });
            } else {
                props.extend(cases.into_iter().map(|(when, then)| Prop::When {
                    when,
                    then: Box::new(then),
                }));
            }
        }
        props.extend(
            contains
                .into_iter()
                .map(|(cells, need)| Prop::Contains { cells, need }),
        );
        for implied in implied_cages(rules) {
            props.push(Prop::Distinct {
                cells: implied.cells.iter().map(|&c| c as u16).collect(),
                sum: Some(implied.sum),
                sets: sets(implied.cells.len(), implied.sum),
            });
        }
        let mut props = merge_pairs(props, rules);
        if self.extra.classes {
            props = classes_of(props);
        }
        if self.extra.pointing {
            props = with_exclusions(props, rules);
        }
        // A chaos construction's region labels follow the digits, as cells
        // of their own.
        let chaos = rules.chaos();
        self.labels = if chaos.is_some() { cells } else { 0 };
        self.all_labels = chaos.map_or(0, |chaos| u32::MAX >> (32 - chaos.regions()));
        let cells = cells + self.labels;
        // Who reads each cell.
        let prop_cells: Vec<Vec<u16>> = props.iter().map(Prop::cells).collect();
        let mut readers: Vec<Vec<u32>> = vec![Vec::new(); cells];
        for (k, list) in prop_cells.iter().enumerate() {
            for &c in list {
                readers[usize::from(c)].push(k as u32);
            }
        }
        let state = &mut self.state;
        state.side = side;
        state.dom = vec![all; cells];
        state.watch_start.clear();
        state.watch.clear();
        for list in &readers {
            state.watch_start.push(state.watch.len() as u32);
            state.watch.extend(list);
        }
        state.watch_start.push(state.watch.len() as u32);
        state.queued = vec![false; props.len()];
        state.is_slow = props.iter().map(Prop::slow).collect();
        state.fast = Vec::with_capacity(props.len());
        state.slow = Vec::with_capacity(props.len());
        state.trail = Vec::with_capacity(cells * side);
        self.scratch = Scratch {
            value: vec![0; cells],
            stamp: vec![0; cells],
            epoch: 0,
            union: vec![0; cells],
        };
        self.weight = vec![0; cells];
        if self.labels > 0 {
            self.weight = chaos_priorities(rules, &props, cells);
        }
        self.first = vec![0; cells];
        for prop in &props {
            if let Prop::Rank(rank, _) = prop {
                for line in std::iter::once(&rank.line).chain(rank.others.iter().flatten()) {
                    self.first[line[0]] |= 1 << (rank.digit - 1);
                }
            }
        }
        self.props = props;
        self.prop_cells = prop_cells;
        self.rules = Some(Arc::clone(rules));
    }

    /// Tries each cell's digits in the order `orders` gives (each cell's
    /// digits as bits, every digit of the board once), or from the
    /// smallest up with `None`.
    pub(super) fn set_orders(&mut self, orders: Option<Vec<[u32; MAX_SIDE]>>) {
        self.orders = orders;
    }

    /// Visits every solution of `puzzle` until `search` stops.
    pub(super) fn solve(&mut self, puzzle: &Puzzle, search: &mut Search<'_>) -> Flow {
        let rules = puzzle.rules();
        if !self
            .rules
            .as_ref()
            .is_some_and(|r| Arc::ptr_eq(r, rules) || r == rules)
        {
            self.build_tables(rules);
        }
        self.grid = Grid::empty(puzzle.size());
        // A chaos construction's search starts again, its weights kept, each
        // time an attempt runs out of nodes before its first solution, with
        // twice the nodes the next time: on its heavy tails a wrong early
        // choice of digits or regions costs far more than starting again.
        // From the first solution on it runs to the end, so that counts
        // are exact.
        let mut budget = CHAOS_FIRST_ATTEMPT;
        loop {
            if !self.start(puzzle) {
                return ControlFlow::Continue(());
            }
            self.restart_at = match self.labels {
                0 => u64::MAX,
                _ => search.nodes.saturating_add(budget),
            };
            let flow = self.search(search);
            if flow != ControlFlow::Break(Halt::Restart) {
                return flow;
            }
            budget = budget.saturating_mul(2);
        }
    }

    /// Sets every cell to what the givens allow and propagates; `false`
    /// at a dead end.
    fn start(&mut self, puzzle: &Puzzle) -> bool {
        let state = &mut self.state;
        state.trail.clear();
        state.clear_queue();
        for (cell, &digit) in puzzle.givens().all_cells().iter().enumerate() {
            let mut dom = self.allowed[cell];
            if digit != 0 {
                dom &= 1 << (digit - 1);
            }
            state.dom[cell] = dom;
            if dom == 0 {
                return false;
            }
        }
        // Every region label.
        let n = puzzle.size().all_cells();
        state.dom[n..n + self.labels].fill(self.all_labels);
        for k in 0..self.props.len() {
            state.enqueue(k as u32);
        }
        self.propagate()
    }

    /// Runs the waiting propagators to a fixed point; `false` at a dead
    /// end (the queue is then empty and the failing rule's cells weigh
    /// more).
    fn propagate(&mut self) -> bool {
        while let Some(k) = self.state.next() {
            let prop = &self.props[k as usize];
            if !prop.propagate(&mut self.state, Some(&mut self.scratch)) {
                self.state.clear_queue();
                // Chaos construction reads every cell: its failures weigh
                // the cell branched on instead ([`Generic::search`]).
                if !matches!(prop, Prop::Chaos { .. }) {
                    for &c in &self.prop_cells[k as usize] {
                        let w = &mut self.weight[usize::from(c)];
                        *w = w.saturating_add(1);
                    }
                }
                return false;
            }
        }
        true
    }

    /// The open cell to branch on: the most weight per candidate, and the
    /// fewest candidates among equals; `None` when every cell is filled.
    /// While a first cell of a full rank clue's lines can still hold the
    /// clue's digit, only such cells are chosen: which lines start with
    /// the digit decides most of the clue, and the clue's propagator,
    /// which reads nearly the whole board, otherwise weighs every cell
    /// alike when it fails (sparse puzzles of three clues took over 10 s
    /// before, mostly milliseconds with this).
    fn choose(&self) -> Option<usize> {
        let mut best: Option<(usize, u64, u64)> = None;
        let first = self
            .state
            .dom
            .iter()
            .zip(&self.first)
            .any(|(&dom, &f)| dom.count_ones() > 1 && dom & f != 0);
        for (cell, &dom) in self.state.dom.iter().enumerate() {
            let count = u64::from(dom.count_ones());
            if count <= 1 || (first && dom & self.first[cell] == 0) {
                continue;
            }
            let weight = u64::from(self.weight[cell]) + 1;
            // weight / count > best_weight / best_count, in integers.
            let better = best.is_none_or(|(_, w, n)| weight * n > w * count);
            if better {
                best = Some((cell, weight, count));
            }
        }
        best.map(|(cell, _, _)| cell)
    }

    fn search(&mut self, search: &mut Search<'_>) -> Flow {
        search.node()?;
        if search.nodes >= self.restart_at {
            return ControlFlow::Break(Halt::Restart);
        }
        // A node here propagates far more than one of the other searches,
        // so the clock and the tokens are read more often.
        if search.nodes.is_multiple_of(GENERIC_CLOCK_EVERY) {
            search.look_up()?;
        }
        let Some(cell) = self.choose() else {
            let n = self.grid.size().all_cells();
            for (cell, &dom) in self.state.dom[..n].iter().enumerate() {
                self.grid.set(cell, dom.trailing_zeros() as u8 + 1);
            }
            // No more attempts: the solutions to come follow this one.
            self.restart_at = u64::MAX;
            if self.labels == 0 {
                return search.found(&self.grid);
            }
            let labels = self.state.dom[n..]
                .iter()
                .map(|&l| l.trailing_zeros() as u8);
            let grid = self.grid.clone().with_regions(in_reading_order(labels));
            return search.found(&grid);
        };
        // Each digit in turn; once it fails (or its solutions are seen) it
        // leaves the cell, and what that implies propagates before the
        // next digit is tried.
        let mut next = 0;
        loop {
            let candidates = self.state.dom[cell];
            let preferred = candidates & self.first[cell];
            // Label cells have no order: their labels go from the lowest.
            let bit = match self.orders.as_ref().and_then(|o| o.get(cell)) {
                // A first cell tries the clue's digit first, as sigh's
                // search asks where that digit goes along the edge.
                None if preferred != 0 => preferred & preferred.wrapping_neg(),
                None => candidates & candidates.wrapping_neg(),
                Some(order) => {
                    // The cell's order holds every candidate, so one is met.
                    while next < MAX_SIDE && order[next] & candidates == 0 {
                        next += 1;
                    }
                    order.get(next).copied().unwrap_or(candidates) & candidates
                }
            };
            let bit = bit & bit.wrapping_neg();
            if bit == candidates {
                // The last digit left, placed by what the others' failing
                // implied.
                return self.search(search);
            }
            let mark = self.state.trail.len();
            if self.state.set(cell, bit) && self.propagate() {
                let flow = self.search(search);
                self.state.undo(mark);
                flow?;
            } else {
                self.state.clear_queue();
                self.state.undo(mark);
                // With region labels, the choice that failed weighs, as
                // sigh's conflict scores do.
                if self.labels > 0 {
                    self.weight[cell] = self.weight[cell].saturating_add(CHAOS_FAILURE_WEIGHT);
                }
            }
            if !(self.state.set(cell, candidates & !bit) && self.propagate()) {
                self.state.clear_queue();
                return ControlFlow::Continue(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::input::Source;
    use std::path::Path;

    /// A puzzle of the native variant set (`tests/data/variants` at the
    /// top of the repository).
    fn variant(name: &str) -> Puzzle {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/data/variants")
            .join(name);
        Source::File(path)
            .read_puzzle(None)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    /// The search nodes to prove `puzzle` unique with `extra`, and the
    /// solutions found (each checked), within `budget` nodes.
    fn nodes(puzzle: &Puzzle, extra: Extra, budget: u64) -> (u64, usize) {
        let mut generic = Generic::new();
        generic.extra = extra;
        let mut found = 0;
        let mut visit = |f: super::super::Found<'_>| {
            assert_eq!(
                crate::puzzle::check::verify_solution(puzzle, f.grid),
                Ok(())
            );
            found += 1;
            ControlFlow::Continue(())
        };
        let mut search = Search {
            visit: &mut visit,
            deadline: None,
            cancel: None,
            rival: None,
            left: 2,
            nodes: 0,
            budget,
        };
        let _ = generic.solve(puzzle, &mut search);
        (search.nodes, found)
    }

    /// Each part of the extra propagation, switched off alone, costs the
    /// search nodes on the puzzles it was made for (build.md, "The generic
    /// native search"): without lines and boxes narrowing each other the
    /// X-sum puzzle took 5,075 nodes (678 with), and without a sum's cells
    /// kept apart the zipper puzzle took 3,410 (1,344 with).
    /// An empty 9x6 board without boxes (rows of 6 that keep their digits
    /// apart, columns of 9 that hold every digit): the search ran for
    /// minutes before the short lines shared out the digits; now it finds
    /// two fillings at once.
    #[test]
    fn short_lines_fill_an_empty_tall_rectangle() {
        let empty = crate::puzzle::sigh::parse(".Shape~9x6.NoBoxes").unwrap();
        let all = Extra::default();
        let (with, found) = nodes(&empty, all, u64::MAX);
        assert_eq!(found, 2);
        assert!(with < 200, "{with} nodes with short lines");
        let alone = Extra {
            short_lines: false,
            ..all
        };
        let (without, found) = nodes(&empty, alone, 20_000);
        assert!(
            found < 2,
            "{found} fillings in {without} nodes without short lines"
        );
    }

    #[test]
    fn meetings_and_sums_apart_each_save_nodes() {
        let all = Extra::default();
        let no_meetings = Extra {
            meetings: false,
            ..all
        };
        let no_apart = Extra {
            sums_apart: false,
            ..all
        };
        let xsum = variant("xsum.json");
        let (with, found) = nodes(&xsum, all, u64::MAX);
        assert_eq!(found, 1);
        let (without, found) = nodes(&xsum, no_meetings, u64::MAX);
        assert_eq!(found, 1);
        assert!(
            without > 3 * with,
            "X-sum: {without} nodes without meetings, {with} with"
        );
        let zipper = variant("zipper.json");
        let (with, found) = nodes(&zipper, all, u64::MAX);
        assert_eq!(found, 1);
        let (without, found) = nodes(&zipper, no_apart, u64::MAX);
        assert_eq!(found, 1);
        assert!(
            without > 2 * with,
            "zipper: {without} nodes without sums apart, {with} with"
        );
    }

    /// The nodes to `puzzle`'s first two solutions with every part on and
    /// with `off`, each run finding two.
    fn nodes_with_and_without(puzzle: &Puzzle, off: Extra) -> (u64, u64) {
        let (with, found) = nodes(puzzle, Extra::default(), u64::MAX);
        assert_eq!(found, 2);
        let (without, found) = nodes(puzzle, off, u64::MAX);
        assert_eq!(found, 2);
        (with, without)
    }

    /// Pair rules that keep cells apart join the houses' pointing: on an
    /// empty board under anti-taxicab the search takes 3,539 nodes to two
    /// fillings with only the pairs, 197 with pointing (sigh finds the
    /// first in 79 guesses).
    #[test]
    fn pointing_through_pair_rules_saves_nodes() {
        let empty = crate::puzzle::sigh::parse(".AntiTaxicab").unwrap();
        let off = Extra {
            pointing: false,
            ..Extra::default()
        };
        let (with, without) = nodes_with_and_without(&empty, off);
        assert!(
            without > 5 * with,
            "anti-taxicab: {without} nodes without pointing, {with} with"
        );
    }

    /// Global entropy's windows as classes that take cells of their own:
    /// a nearly empty board (8 givens, docs/variants.md) took 8,084 nodes
    /// to find its first two solutions with each window's three "some
    /// cell holds this class" alone, 2,922 with (sigh: 3,392 guesses).
    #[test]
    fn classes_in_a_window_take_cells_of_their_own() {
        let puzzle = crate::puzzle::sigh::parse(
            ".~R2C5_4~R3C3_3~R4C1_6~R4C8_1~R7C4_2~R8C2_5~R8C9_7~R9C7_5.GlobalEntropy",
        )
        .unwrap();
        let off = Extra {
            classes: false,
            ..Extra::default()
        };
        let (with, without) = nodes_with_and_without(&puzzle, off);
        assert!(
            without > 2 * with,
            "global entropy: {without} nodes without classes, {with} with"
        );
    }

    /// Two rules under one condition both hold: an X-sum's cases on r5c1
    /// and a hidden skyscraper's "when r5c1 is 3" once made one group of
    /// alternatives, and the search returned a grid whose column 1 hid a 1
    /// first (found by `engines_agree_on_random_rules_6x6`).
    #[test]
    fn rules_under_one_condition_all_hold() {
        let text = "......\n......\n......\n...5..\n......\n......\n\
                    hidden skyscraper 3 column 1 from the top\n\
                    x-sum 10 row 5 from the left\n";
        let puzzle = Source::Text(text.into()).read_puzzle(None).unwrap();
        // `nodes` checks each solution it finds against the checker.
        let (_, found) = nodes(&puzzle, Extra::default(), u64::MAX);
        assert_eq!(found, 2);
    }

    /// A sum of two cells that see each other never takes the same digit
    /// twice: 4 + 4 is not 8 when the cells share a row.
    #[test]
    fn a_sum_keeps_cells_that_see_each_other_apart() {
        let terms = [(0u16, 1), (1u16, 1), (2u16, -1)];
        let mut doms = vec![u32::MAX >> 23; 81];
        doms[2] = 1 << 7; // the third cell holds 8
        doms[0] = (1 << 3) | (1 << 2); // the first 3 or 4
        let mut state = State {
            dom: doms,
            side: 9,
            trail: Vec::new(),
            watch_start: vec![0; 82],
            watch: Vec::new(),
            fast: Vec::new(),
            slow: Vec::new(),
            queued: Vec::new(),
            is_slow: Vec::new(),
        };
        assert!(sum(&terms, &[0], [true, false], &mut state));
        // 3 + 5 only: the second cell keeps 5 alone, not 4.
        assert_eq!(state.dom[0], 1 << 2);
        assert_eq!(state.dom[1], 1 << 4);
        let mut state2 = State {
            dom: vec![u32::MAX >> 23; 81],
            ..state
        };
        state2.dom[2] = 1 << 7;
        state2.dom[0] = (1 << 3) | (1 << 2);
        assert!(sum(&terms, &[0], [false, false], &mut state2));
        // Apart or not is what tells 4 + 4 away.
        assert_eq!(state2.dom[0], (1 << 3) | (1 << 2));
    }
}
