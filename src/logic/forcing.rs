//! Forcing chains: assume a candidate and follow what it forces. When the
//! assumption leads to a contradiction, the candidate is false; when every
//! candidate of a cell (or every place of a digit in a house) forces the
//! same digit somewhere, that digit is true.
//!
//! The plain kind follows singles only; the dynamic kind also applies
//! pointing, claiming and pairs along the way. The length of the longest
//! branch (digits placed and candidates removed) adds to the rating as a
//! chain's length does.

use super::implication::{Mode, multiple_chains};
use super::pencil::{Pencil, digits};
use super::propagate::Propagator;
use super::seen::Seen;
use super::step::{Step, eliminations_text};
use super::technique::{Difficulty, Technique, length_bonus};
use super::{intersections, subsets};
use crate::puzzle::grid::{Clue, Grid, digit_char};

/// A candidate supposed true: its cell and digit.
type Assumption = (usize, u8);

/// What an assumption led to: a contradiction or not, and how many
/// deductions that took. The grid it ended at, when kept, is in
/// [`Branches`].
struct Branch {
    contradiction: bool,
    length: usize,
    /// Whether the branch ended within its limit, in a contradiction or
    /// with nothing more to deduce; otherwise it was cut short.
    complete: bool,
    /// Where the grid it ended at starts in [`Branches::grids`], when kept.
    grid: usize,
}

/// How far the first pass follows each branch, in deductions: most
/// contradictions that make a forcing chain are this short.
const FIRST_LIMIT: usize = 8;

/// Follows `digit` in `cell` from `base` as far as singles (and, when
/// `dynamic`, the basic eliminations) go, stopping past `limit`
/// deductions. `q` is scratch space, reset from `base` (so that the
/// hundreds of branches of a step allocate nothing), and holds the grid
/// the branch ended at.
fn follow(
    q: &mut Propagator,
    base: &Propagator,
    (cell, digit): Assumption,
    dynamic: bool,
    limit: usize,
) -> Branch {
    q.reset_from(base);
    let mut length = 0;
    let mut outcome = q.assign(cell, digit);
    while outcome.is_ok() {
        let (placed, ran) = q.run(limit.saturating_sub(length));
        length += placed;
        if let Err(c) = ran {
            outcome = Err(c);
            break;
        }
        if !dynamic || length > limit || q.pencil.is_solved() {
            break;
        }
        let once = &mut Seen::none();
        let more = intersections::intersection(&q.pencil, true, once)
            .or_else(|| intersections::intersection(&q.pencil, false, once))
            .or_else(|| subsets::naked(&q.pencil, 2, once))
            .or_else(|| subsets::hidden(&q.pencil, 2, once));
        let Some(step) = more else { break };
        length += step.eliminations.len();
        let size = q.pencil.size();
        outcome = step
            .eliminations
            .iter()
            .try_for_each(|e| q.eliminate(size.index(e.cell), e.digit));
    }
    Branch {
        contradiction: outcome.is_err(),
        length,
        complete: length <= limit,
        grid: 0,
    }
}

/// Branches that between them cover every case: the candidates of a
/// cell, or the places of a digit in a house.
#[derive(Clone, Copy)]
enum Group {
    Cell(usize),
    House(usize, u8),
}

/// The longest chain with the same length bonus as one of `length`.
fn same_rating_up_to(length: usize) -> usize {
    let bonus = length_bonus(length);
    (length..)
        .find(|&l| length_bonus(l + 1) > bonus)
        .unwrap_or(length)
}

/// Every branch of a grid, followed as far as asked so far.
struct Branches {
    base: Propagator,
    scratch: Propagator,
    dynamic: bool,
    side: usize,
    /// By `cell * side + digit - 1`.
    slots: Vec<Option<Branch>>,
    /// The digits placed at the end of each branch kept, one after
    /// another in one block rather than a grid apiece: a step follows
    /// hundreds of branches.
    grids: Vec<u8>,
}

impl Branches {
    fn new(p: &Pencil, dynamic: bool) -> Branches {
        let base = Propagator::new(p);
        let (cells, side) = (p.size().cells(), p.size().side());
        Branches {
            scratch: base.clone(),
            base,
            dynamic,
            side,
            slots: (0..cells * side).map(|_| None).collect(),
            grids: Vec::new(),
        }
    }

    fn slot(&self, (cell, digit): Assumption) -> usize {
        cell * self.side + usize::from(digit - 1)
    }

    fn get(&self, a: Assumption) -> Option<&Branch> {
        self.slots[self.slot(a)].as_ref()
    }

    /// The digits placed at the end of a kept branch without a
    /// contradiction.
    fn grid(&self, a: Assumption) -> &[u8] {
        let cells = self.base.pencil.size().cells();
        let at = self.get(a).map_or(0, |b| b.grid);
        &self.grids[at..][..cells]
    }

    /// Follows each of `assumptions` not followed yet, or cut short, up to
    /// `limit` deductions; `keep` keeps the grids they end at.
    fn follow(&mut self, assumptions: &[Assumption], limit: usize, keep: bool) {
        for &a in assumptions {
            let at = self.slot(a);
            if self.slots[at].as_ref().is_none_or(|b| !b.complete) {
                let mut branch = follow(&mut self.scratch, &self.base, a, self.dynamic, limit);
                if keep && !branch.contradiction {
                    branch.grid = self.grids.len();
                    self.grids.extend_from_slice(self.scratch.pencil.values());
                }
                self.slots[at] = Some(branch);
            }
        }
    }
}

/// The best forcing chain: a contradiction, or a conclusion shared by
/// every branch of a cell or of a digit in a house, whichever is shortest.
///
/// `solution`, when known, saves following its digits while looking for
/// contradictions: a true digit never leads to one. Their branches are
/// followed only if the shared conclusions need them, so the step is the
/// same either way.
///
/// `se_nested` (a classic puzzle with one solution) asks SE's chains
/// beyond its dynamic ones, which are slow; a puzzle with several
/// solutions keeps z3doku's own dynamic chain.
pub fn forcing_chain(
    p: &Pencil,
    dynamic: bool,
    se_nested: bool,
    solution: Option<&Grid>,
    seen: &Seen,
) -> Option<Step> {
    // On boards up to 9x9, SE's own multiple-chain techniques, asked in
    // its order; each is cheap enough there. Larger boards, and what lies
    // beyond SE's dynamic chains (its "dynamic forcing chains (+)"), keep
    // the propagation below.
    if !dynamic && p.size().side() <= 9 {
        return [Mode::Nishio, Mode::Multiple, Mode::Dynamic]
            .into_iter()
            .find_map(|mode| multiple_chains(p, mode, solution, seen));
    }
    // Beyond them, on classic 9x9 grids, SE's dynamic forcing chains (+)
    // and nested forcing chains; where those find nothing, nothing is
    // found (search, or the budget's end, takes over).
    if dynamic && se_nested && p.size().side() == 9 && p.geometry().houses().len() == 27 {
        return super::nested::forcing_chain(p, seen);
    }
    propagation_chain(p, dynamic, solution, seen)
}

/// Forcing chains by propagation: the shortest contradiction, or a
/// conclusion every branch of a cell or of a digit in a house shares.
fn propagation_chain(
    p: &Pencil,
    dynamic: bool,
    solution: Option<&Grid>,
    seen: &Seen,
) -> Option<Step> {
    let technique = if dynamic {
        Technique::DynamicForcingChain
    } else {
        Technique::ForcingChain
    };
    let size = p.size();
    let cells = size.cells();
    let side = size.side();
    let mut branches = Branches::new(p, dynamic);
    let mut best: Option<(usize, Step)> = None;
    let (assumptions, truths): (Vec<Assumption>, Vec<Assumption>) = (0..cells)
        .flat_map(|cell| digits(p.candidates(cell)).map(move |d| (cell, d)))
        .partition(|&(cell, digit)| solution.is_none_or(|s| s.get(cell) != digit));
    // Contradictions first: they also fill in the branches the other kinds
    // of conclusion compare. Every branch is followed a short way, then
    // the unfinished ones further, doubling the way each time: the
    // shortest contradiction is found without following every branch to
    // its end, and past its rating no branch is of use to any conclusion.
    let mut limit = FIRST_LIMIT.min(cells);
    let shortest = loop {
        branches.follow(&assumptions, limit, true);
        let shortest = assumptions
            .iter()
            .filter_map(|&a| branches.get(a))
            .filter(|b| b.complete && b.contradiction)
            .map(|b| b.length)
            .min();
        if let Some(shortest) = shortest {
            // Every contradiction as short as the shortest (within its
            // length bonus, so at the same rating) goes in one step: taken
            // one at a time they would each be rated the same or lower.
            let top = same_rating_up_to(shortest);
            if top > limit {
                branches.follow(&assumptions, top, false);
            }
            break Some(shortest);
        }
        if limit >= cells {
            break None;
        }
        limit = (limit * 2).min(cells);
    };
    let mut found: Vec<(usize, usize, u8)> = assumptions
        .iter()
        .filter_map(|&(cell, digit)| {
            let b = branches.get((cell, digit))?;
            (b.complete && b.contradiction).then_some((b.length, cell, digit))
        })
        .collect();
    if let Some(shortest) = shortest {
        let top = same_rating_up_to(shortest);
        found.retain(|&(l, _, _)| l <= top);
        found.sort_unstable();
        let (length, cell, digit) = found[0];
        let cells_of: Vec<usize> = found.iter().map(|&(_, c, _)| c).collect();
        let digits_of: Vec<u8> = {
            let mut ds: Vec<u8> = found.iter().map(|&(_, _, d)| d).collect();
            ds.sort_unstable();
            ds.dedup();
            ds
        };
        let eliminations: Vec<Clue> = found
            .iter()
            .map(|&(_, c, d)| Clue {
                cell: p.cell(c),
                digit: d,
            })
            .collect();
        let mut step = Step::new(technique)
            .pattern(p, &cells_of, &digits_of)
            .say(seen, || {
                let mut text = format!(
                    "if {} were {}, {length} deductions later the grid would contradict itself, so {} cannot be {}",
                    p.cell(cell),
                    digit_char(digit),
                    p.cell(cell),
                    digit_char(digit)
                );
                if found.len() > 1 {
                    text += &format!("; as quickly, {}", eliminations_text(&eliminations[1..]));
                }
                text
            });
        step.eliminations = eliminations;
        best = Some((length, step));
    }
    if best.is_none() {
        // No contradiction: the conclusions compare every branch, the
        // solution's too.
        branches.follow(&truths, cells, true);
        // Every branch of a cell, then of each digit in each house.
        let mut groups: Vec<(Vec<Assumption>, Group)> = Vec::new();
        for cell in (0..cells).filter(|&c| p.candidates(c).count_ones() >= 2) {
            let options = digits(p.candidates(cell)).map(|d| (cell, d)).collect();
            groups.push((options, Group::Cell(cell)));
        }
        for (h, house) in p.geometry().houses().iter().enumerate() {
            for digit in 1..=side as u8 {
                let options: Vec<Assumption> = house
                    .iter()
                    .filter(|&&c| p.has(c, digit))
                    .map(|&c| (c, digit))
                    .collect();
                if options.len() >= 2 {
                    groups.push((options, Group::House(h, digit)));
                }
            }
        }
        for (options, group) in groups {
            let followed = options
                .iter()
                .all(|&option| branches.get(option).is_some_and(|b| !b.contradiction));
            if !followed {
                continue;
            }
            let length = options
                .iter()
                .filter_map(|&option| branches.get(option))
                .map(|b| b.length)
                .max()
                .unwrap_or(0);
            if best.as_ref().is_some_and(|(l, _)| length >= *l) {
                continue;
            }
            let placements: Vec<Clue> = (0..cells)
                .filter(|&c| p.value(c) == 0)
                .filter_map(|c| {
                    let first = branches.grid(options[0])[c];
                    (first != 0 && options[1..].iter().all(|&o| branches.grid(o)[c] == first)).then(
                        || Clue {
                            cell: p.cell(c),
                            digit: first,
                        },
                    )
                })
                .collect();
            if placements.is_empty() {
                continue;
            }
            let pattern: Vec<usize> = options.iter().map(|&(c, _)| c).collect();
            let mut ds: Vec<u8> = options.iter().map(|&(_, d)| d).collect();
            ds.dedup();
            let mut step = Step::new(technique)
                .pattern(p, &pattern, &ds)
                .say(seen, || {
                    let said = match group {
                        Group::Cell(cell) => format!("whatever {} is", p.cell(cell)),
                        Group::House(h, digit) => format!(
                            "wherever {} goes in {}",
                            digit_char(digit),
                            p.geometry().name(h)
                        ),
                    };
                    format!(
                        "{said}, {} follows within {length} deductions",
                        placements
                            .iter()
                            .map(|c| format!("{}={}", c.cell, digit_char(c.digit)))
                            .collect::<Vec<_>>()
                            .join(" ")
                    )
                });
            step.placements = placements;
            best = Some((length, step));
        }
    }
    best.map(|(length, mut step)| {
        step.difficulty = step
            .difficulty
            .map(|d| Difficulty(d.0 + length_bonus(length)));
        step
    })
}
