//! The `int` encoding, as in the Z3 notebook: an `Int` constant `c_R_C` per
//! cell with `1 <= c_R_C <= N`, `Distinct` over every house (row, column,
//! box), and `c_R_C == d` for each clue.
//!
//! To help Z3 it also states what the rules imply: every digit appears in
//! every house (`c₁ == d ∨ … ∨ cₙ == d`), and, on a solver kept for many
//! puzzles, at most once (a cardinality constraint over the same
//! equalities). On 9x9 boards a lone first solution comes from the clues'
//! values propagated into the rules before Z3's SMT core searches.
//!
//! Variant constraints are stated the notebook's way too, primitive by
//! primitive: a cage is a `Distinct` and a `Sum` (with what its sets of
//! digits imply: bounds on its cells, digits it must hold), an increasing line a chain of
//! `<`, cells that differ `!=`, other relations between two cells digit by
//! digit (`c₁ = d ⇒ c₂ ∉ {d-1, d+1}` for nonconsecutive neighbours), a
//! pencil-marked cell a disjunction of its digits, counts of buildings seen
//! and of digits among cells sums of `If`s, and conditional sums implications.

use super::Encoding;
use super::automaton;
use super::cage::CageSets;
use super::chaos;
use super::connected;
use super::expr;
use super::onehot::searches_alone;
use crate::puzzle::grid::{Grid, Size};
use crate::puzzle::implied::implied_cages;
use crate::puzzle::primitive::{Primitive, Relation};
use crate::puzzle::rules::Rules;
use std::fmt::Write;
use z3::Model;
use z3::ast::{Ast, Bool, Int};

/// The notebook's encoding of one set of rules.
pub struct IntEncoding {
    size: Size,
    cells: Vec<Int>,
    rules: Vec<Bool>,
    constraints: Vec<Vec<Bool>>,
    implied: Vec<Bool>,
    /// The cells of each house.
    houses: Vec<Vec<usize>>,
    implied_by_constraints: Vec<Bool>,
    classic: bool,
    /// Whether each puzzle gets a solver of its own (see
    /// [`searches_alone`]).
    alone: bool,
}

impl IntEncoding {
    /// Declares the cells and states `rules`.
    pub fn new(rules: &Rules) -> IntEncoding {
        let size = rules.size();
        let cells: Vec<Int> = (0..size.all_cells())
            .map(|i| Int::new_const(size.cell_at(i).model_name()))
            .collect();
        let (one, max) = (Int::from_u64(1), Int::from_u64(size.values() as u64));
        let mut formulas: Vec<Bool> = cells
            .iter()
            .map(|c| Bool::and(&[c.ge(&one), c.le(&max)]))
            .collect();
        formulas.extend(rules.houses().iter().map(|house| {
            let members: Vec<&Int> = house.cells.iter().map(|&i| &cells[i]).collect();
            Int::distinct(&members)
        }));
        let houses: Vec<Vec<usize>> = rules.houses().iter().map(|h| h.cells.clone()).collect();
        // Every digit stands somewhere only in a full house.
        let full: Vec<Vec<usize>> = rules
            .houses()
            .iter()
            .filter(|h| h.is_full(size))
            .map(|h| h.cells.clone())
            .collect();
        let implied = places_per_digit(&full, &cells, size.values())
            .map(|places| Bool::or(&places))
            .collect();
        let (constraints, implied_by_constraints) = constraint_formulas(rules, &cells);
        IntEncoding {
            size,
            cells,
            rules: formulas,
            constraints,
            implied,
            houses,
            implied_by_constraints,
            classic: rules.is_classic(),
            alone: searches_alone(rules),
        }
    }
}

/// How many searches a kept `int` solver serves (see
/// [`Encoding::kept_searches`]).
const KEPT_SEARCHES: usize = 200;

/// For each house and digit, the literals `c = d` over the house's cells.
fn places_per_digit<'a>(
    houses: &'a [Vec<usize>],
    cells: &'a [Int],
    side: usize,
) -> impl Iterator<Item = Vec<Bool>> + 'a {
    houses.iter().flat_map(move |house| {
        (1..=side as u64).map(move |digit| {
            house
                .iter()
                .map(|&i| cells[i].eq(Int::from_u64(digit)))
                .collect()
        })
    })
}

/// Whether `int` keeps a solver for the puzzles of `size`, stating on it
/// that each digit is at most once in a house: on boards up to 9x9.
///
/// A new solver per puzzle spends nearly all its time preprocessing the
/// formula (bit-blasting it, and Z3's SAT preprocessing); a kept one does
/// that once. But kept, Z3 cannot substitute each puzzle's clues into the
/// rules before bit-blasting, and the bit-blasted `Distinct` tells the SAT
/// solver little until a cell's bits are nearly all set. Stated digit by
/// digit as well, as a cardinality constraint over the `c = d` literals,
/// the clues propagate as they do in the one-hot encodings (see build.md,
/// "The `int` encoding on a kept solver"). Larger boards were not measured
/// this way and keep a new solver per puzzle.
fn keeps_solver(size: Size) -> bool {
    size.side() <= 9
}

/// `rules`' constraints as formulas over `cells`, each constraint's apart,
/// and the sums they imply.
fn constraint_formulas(rules: &Rules, cells: &[Int]) -> (Vec<Vec<Bool>>, Vec<Bool>) {
    let side = rules.size().values() as u8;
    let constraints = rules
        .lowered()
        .iter()
        .map(|primitives| {
            primitives
                .iter()
                .flat_map(|p| primitive_formulas(p, cells, side))
                .collect()
        })
        .collect();
    let implied_by_constraints = implied_cages(rules)
        .iter()
        .flat_map(|i| primitive_formulas(&i.cage(), cells, side))
        .collect();
    (constraints, implied_by_constraints)
}

/// `primitive` as formulas over the cells' `Int`s.
fn primitive_formulas(primitive: &Primitive, cells: &[Int], side: u8) -> Vec<Bool> {
    let digit = |d: u8| Int::from_u64(u64::from(d));
    // "The cell holds one of `digits`", for the formulas read over digit
    // sets (automata, connected regions).
    let holds = |c: usize, digits: u32| {
        let options: Vec<Bool> = (1..=side)
            .filter(|d| digits >> (d - 1) & 1 == 1)
            .map(|d| cells[c].eq(digit(d)))
            .collect();
        Bool::or(&options)
    };
    match primitive {
        Primitive::Distinct {
            cells: members,
            sum,
        } => {
            let ints: Vec<&Int> = members.iter().map(|&c| &cells[c]).collect();
            let mut formulas = Vec::new();
            if ints.len() > 1 {
                formulas.push(Int::distinct(&ints));
            }
            if let Some(sum) = sum {
                formulas.push(Int::add(&ints).eq(Int::from_u64(u64::from(*sum))));
                formulas.extend(cage_facts(&ints, *sum, side));
            }
            formulas
        }
        Primitive::Pair { a, b, relation } => {
            let (x, y) = (&cells[*a], &cells[*b]);
            match relation {
                Relation::Differ => vec![x.ne(y)],
                Relation::Equal => vec![x.eq(y)],
                Relation::LessBy(k) => vec![Int::add(&[x, &digit(*k)]).le(y)],
                Relation::LessOrEqual => vec![x.le(y)],
                Relation::SumIs(k) => vec![Int::add(&[x, y]).eq(digit(*k))],
                // Digit by digit rather than as arithmetic on `|a - b|`:
                // the finite-domain solver propagates equalities far
                // better than a difference.
                relation => (1..=side)
                    .filter_map(|i| {
                        let outs: Vec<Bool> = (1..=side)
                            .filter(|&j| !relation.allows(i, j))
                            .map(|j| y.ne(digit(j)))
                            .collect();
                        match outs.len() {
                            0 => None,
                            n if n == usize::from(side) => Some(x.ne(digit(i))),
                            _ => Some(x.eq(digit(i)).implies(Bool::and(&outs))),
                        }
                    })
                    .collect(),
            }
        }
        Primitive::Sum { terms, totals } => vec![sum_formula(terms, totals, cells)],
        Primitive::Allowed { cell, digits } => {
            let options: Vec<Bool> = (1..=side)
                .filter(|d| digits >> (d - 1) & 1 == 1)
                .map(|d| cells[*cell].eq(digit(d)))
                .collect();
            vec![Bool::or(&options)]
        }
        Primitive::Contains {
            cells: members,
            digit: d,
            count,
        } => {
            let (one, zero) = (Int::from_u64(1), Int::from_u64(0));
            let hits: Vec<Int> = members
                .iter()
                .map(|&c| cells[c].eq(digit(*d)).ite(&one, &zero))
                .collect();
            let hits: Vec<&Int> = hits.iter().collect();
            vec![Int::add(&hits).ge(Int::from_u64(*count as u64))]
        }
        Primitive::Between { ends, middle } => {
            let (a, b) = (&cells[ends.0], &cells[ends.1]);
            middle
                .iter()
                .map(|&m| {
                    let m = &cells[m];
                    Bool::or(&[
                        Bool::and(&[a.lt(m), m.lt(b)]),
                        Bool::and(&[b.lt(m), m.lt(a)]),
                    ])
                })
                .collect()
        }
        Primitive::Visible { cells: line, count } => {
            let (one, zero) = (Int::from_u64(1), Int::from_u64(0));
            let seen: Vec<Int> = line
                .iter()
                .enumerate()
                .map(|(k, &c)| {
                    let taller: Vec<Bool> =
                        line[..k].iter().map(|&e| cells[c].gt(&cells[e])).collect();
                    Bool::and(&taller).ite(&one, &zero)
                })
                .collect();
            let seen: Vec<&Int> = seen.iter().collect();
            vec![Int::add(&seen).eq(Int::from_u64(*count as u64))]
        }
        Primitive::Any { literals } => {
            // A literal that leaves out one digit is `c != d`, else the
            // disjunction of the digits it takes.
            let all = u32::MAX >> (32 - u32::from(side));
            let options: Vec<Bool> = literals
                .iter()
                .flat_map(|&(c, digits)| {
                    let missing = all & !digits;
                    if missing.count_ones() == 1 {
                        vec![cells[c].ne(digit(missing.trailing_zeros() as u8 + 1))]
                    } else {
                        (1..=side)
                            .filter(|d| digits >> (d - 1) & 1 == 1)
                            .map(|d| cells[c].eq(digit(d)))
                            .collect()
                    }
                })
                .collect();
            vec![Bool::or(&options)]
        }
        Primitive::When { when, then } => {
            let condition: Vec<Bool> = when.iter().map(|&(c, d)| cells[c].eq(digit(d))).collect();
            let then = primitive_formulas(then, cells, side);
            vec![Bool::and(&condition).implies(Bool::and(&then))]
        }
        Primitive::Formula(test) => vec![expr::state(test, side, &|c| cells[c].clone())],
        Primitive::Rank(rank) => rank
            .as_tests()
            .iter()
            .map(|test| expr::state(test, side, &|c| cells[c].clone()))
            .collect(),
        Primitive::Lunchbox { plain, .. } | Primitive::FirstHidden { plain, .. } => plain
            .iter()
            .flat_map(|p| primitive_formulas(p, cells, side))
            .collect(),
        Primitive::Automaton {
            cells: members,
            automaton,
        } => {
            vec![automaton::state(automaton, members, &holds)]
        }
        Primitive::Connected(rule) => {
            let exactly = |literals: &[Bool], n: usize| {
                let (one, zero) = (Int::from_u64(1), Int::from_u64(0));
                let ones: Vec<Int> = literals.iter().map(|l| l.ite(&one, &zero)).collect();
                let ones: Vec<&Int> = ones.iter().collect();
                Int::add(&ones).eq(Int::from_u64(n as u64))
            };
            vec![connected::state(rule, &holds, &exactly)]
        }
        Primitive::Chaos(rule) => {
            // Its region labels are Booleans, counted as pseudo-Boolean
            // sums: a sum of `If`s left an empty 9x9 board's first two
            // solutions unfound in a minute, where `bool` takes 0.6 s.
            let exactly = |literals: &[Bool], n: usize| {
                let terms: Vec<(&Bool, i32)> = literals.iter().map(|l| (l, 1)).collect();
                Bool::pb_eq(&terms, n as i32)
            };
            vec![chaos::state(rule, &holds, &exactly)]
        }
    }
}

/// What a cage's sets of digits say, stated beside its `Distinct` and
/// `Sum` in the same words: each cell lies between the least and the
/// greatest digit of any set, a digit every set has is in some cell, and
/// where there are several sets, the cage holds the other digits of one
/// of them. They follow from the cage alone, so they go with its
/// constraint (and its switch in an explanation).
fn cage_facts(ints: &[&Int], sum: u32, side: u8) -> Vec<Bool> {
    let found = CageSets::new(side, ints.len(), sum);
    let has = |set: u32, d: u8| set >> (d - 1) & 1 == 1;
    let digit = |d: u8| Int::from_u64(u64::from(d));
    let somewhere = |d: u8| {
        let places: Vec<Bool> = ints.iter().map(|c| Ast::eq(*c, digit(d))).collect();
        Bool::or(&places)
    };
    let mut facts = Vec::new();
    let low = (1..=side).find(|&d| has(found.union, d));
    let high = (1..=side).rev().find(|&d| has(found.union, d));
    if let (Some(low), Some(high)) = (low, high)
        && (low > 1 || high < side)
    {
        for c in ints {
            facts.push(c.ge(digit(low)));
            facts.push(c.le(digit(high)));
        }
    }
    facts.extend((1..=side).filter(|&d| has(found.common, d)).map(somewhere));
    if let Some(sets) = found.sets.filter(|s| s.len() > 1) {
        let options: Vec<Bool> = sets
            .iter()
            .map(|&set| {
                let held: Vec<Bool> = (1..=side)
                    .filter(|&d| has(set & !found.common, d))
                    .map(somewhere)
                    .collect();
                Bool::and(&held)
            })
            .collect();
        facts.push(Bool::or(&options));
    }
    facts
}

/// `Σ weight · cell` is one of `totals`.
fn sum_formula(terms: &[(usize, i32)], totals: &[i32], cells: &[Int]) -> Bool {
    if terms.is_empty() {
        return Bool::from_bool(totals.contains(&0));
    }
    let products: Vec<Int> = terms
        .iter()
        .map(|&(c, w)| match w {
            1 => cells[c].clone(),
            w => Int::mul(&[&Int::from_i64(i64::from(w)), &cells[c]]),
        })
        .collect();
    let products: Vec<&Int> = products.iter().collect();
    let total = Int::add(&products);
    let options: Vec<Bool> = totals
        .iter()
        .map(|&t| total.eq(Int::from_i64(i64::from(t))))
        .collect();
    Bool::or(&options)
}

impl Encoding for IntEncoding {
    fn size(&self) -> Size {
        self.size
    }

    fn rules(&self) -> &[Bool] {
        &self.rules
    }

    fn constraints(&self) -> &[Vec<Bool>] {
        &self.constraints
    }

    fn with_constraints(&self, rules: &Rules) -> Box<dyn Encoding> {
        let (constraints, implied_by_constraints) = constraint_formulas(rules, &self.cells);
        Box::new(IntEncoding {
            size: self.size,
            cells: self.cells.clone(),
            rules: self.rules.clone(),
            constraints,
            implied: self.implied.clone(),
            houses: self.houses.clone(),
            implied_by_constraints,
            classic: rules.is_classic(),
            alone: searches_alone(rules),
        })
    }

    fn clue(&self, index: usize, digit: u8) -> Bool {
        self.cells[index].eq(Int::from_u64(u64::from(digit)))
    }

    fn differs(&self, index: usize, digit: u8) -> Bool {
        self.cells[index].ne(Int::from_u64(u64::from(digit)))
    }

    fn decode(&self, model: &Model) -> Option<Grid> {
        let mut grid = Grid::empty(self.size);
        for (index, cell) in self.cells.iter().enumerate() {
            let value = model.eval(cell, true)?.as_u64()?;
            let digit = u8::try_from(value)
                .ok()
                .filter(|&d| usize::from(d) <= self.size.values())?;
            grid.set(index, digit);
        }
        Some(grid)
    }

    fn model_text(&self, model: &Model) -> String {
        let mut text = String::new();
        for cell in &self.cells {
            if let Some(value) = model.eval(cell, true) {
                let _ = writeln!(text, "{cell} -> {value}");
            }
        }
        text
    }

    fn implied(&self) -> &[Bool] {
        &self.implied
    }

    fn implied_by_constraints(&self) -> &[Bool] {
        &self.implied_by_constraints
    }

    fn keeps_solver(&self) -> bool {
        keeps_solver(self.size) && !self.alone
    }

    fn kept_formulas(&self) -> Vec<Bool> {
        // Built only for a kept solver: a new Z3 term, even unused, can
        // change the order in which Z3 meets the others, and so which
        // solution a new solver finds first.
        places_per_digit(&self.houses, &self.cells, self.size.values())
            .map(|places| {
                let once: Vec<(&Bool, i32)> = places.iter().map(|p| (p, 1)).collect();
                Bool::pb_le(&once, 1)
            })
            .collect()
    }

    fn counts_over_names(&self) -> bool {
        // Measured up to 16x16 (the empty 16x16's 200 solutions: over
        // 15 minutes to 22 s; under --memory 64 and 100, clean verdicts).
        // On 25x25 under a 64 MiB limit, Z3 4.8 ran out of memory where it
        // cannot say so and aborted the process.
        self.size.side() <= 16
    }

    fn kept_searches(&self) -> Option<usize> {
        // With each puzzle's clues asserted (and popped), the kept solver
        // slows as it serves: over all of top1465, `bench` solved 57
        // puzzles a second on one solver and 85 to 98 on a new one every 50
        // to 300 puzzles. (`bool`, which assumes its clues, only lost by
        // it: 592 against 559 with uniqueness, every 300.)
        Some(KEPT_SEARCHES)
    }

    fn clues_as_assumptions(&self) -> bool {
        // Z3 4.8's finite-domain solver translates bounded integers to
        // bit-vectors as formulas are asserted, and answers unknown when an
        // assumption is an equality over integers. (A Boolean per cell and
        // digit implying the equality, assumed instead, took 13% more
        // instructions on the shared variants and 5% more on the own
        // killers.)
        false
    }

    fn tactics(&self) -> Option<&'static [&'static str]> {
        // With the clues' values propagated, the SMT core finds a 9x9
        // first solution faster than the default portfolio or the
        // finite-domain solver (see build.md, "Encodings"). On larger boards
        // its search on `Distinct` falls far behind the finite-domain
        // solver's (25x on a 16x16 puzzle; see build.md, "The `int` path:
        // first solution without a timeout"), and on 4x4 neither wins.
        // Measured on classic rules only: with variant constraints the
        // finite-domain solver is the safe choice (a killer puzzle took the
        // SMT core tens of seconds).
        (self.size == Size::NINE && self.classic).then_some(&["propagate-values", "smt"])
    }

    fn logic(&self) -> Option<&'static str> {
        // Bounded integers with Distinct: Z3's finite-domain solver
        // bit-blasts them to SAT, and being incremental it proves there is
        // no further solution for little more than the first one cost.
        Some("QF_FD")
    }
}
