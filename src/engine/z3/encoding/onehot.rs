//! What the `bool` and `pb` encodings share: the SAT lesson's one-hot
//! Booleans `x_R_C_D` ("row R, column C holds digit D", all 1-based), the
//! groups of them that must hold exactly one true literal, and reading a
//! board back from a model. The two encodings differ only in how they say
//! "exactly one".

use super::Encoding;
use super::automaton;
use super::cage::CageSets;
use super::chaos;
use super::connected;
use super::expr;
use super::onehot_formula;
use crate::puzzle::grid::{Grid, Size};
use crate::puzzle::implied::implied_cages;
use crate::puzzle::primitive::Primitive;
use crate::puzzle::rules::Rules;
use std::cmp::Ordering::{Equal, Greater};
use std::fmt::Write;
use z3::Model;
use z3::ast::{Bool, Int};

/// A one-hot encoding of one set of rules: the Booleans and the formulas
/// one of the lessons states over them.
pub struct OneHotEncoding {
    size: Size,
    /// `x_R_C_D` at its DIMACS number minus one.
    vars: Vec<Bool>,
    rules: Vec<Bool>,
    constraints: Vec<Vec<Bool>>,
    implied_by_constraints: Vec<Bool>,
    /// Whether each puzzle gets a solver of its own (see
    /// [`searches_alone`]).
    alone: bool,
}

impl OneHotEncoding {
    /// Declares `N³` Booleans for boards under `rules`, states the houses
    /// as `houses` makes them of those (given the variables in DIMACS
    /// order: variable `n` at `n - 1`), and the constraints as both
    /// encodings do.
    pub(super) fn new(rules: &Rules, houses: impl Fn(&[Bool]) -> Vec<Bool>) -> Self {
        let size = rules.size();
        let count = size.all_cells() * size.values();
        let vars: Vec<Bool> = (1..=count)
            .map(|number| Bool::new_const(name(size, number)))
            .collect();
        let mut encoding = OneHotEncoding {
            size,
            rules: houses(&vars),
            vars,
            constraints: Vec::new(),
            implied_by_constraints: Vec::new(),
            alone: false,
        };
        encoding.state_constraints(rules);
        encoding
    }

    /// States `rules`' constraints, and the sums they imply, over the
    /// variables, in place of any stated before.
    fn state_constraints(&mut self, rules: &Rules) {
        self.constraints = constraint_formulas(rules, &self.vars);
        self.alone = searches_alone(rules);
        self.implied_by_constraints = implied_cages(rules)
            .iter()
            .map(|i| primitive_formula(rules, &i.cage(), &self.vars, Sums::PseudoBoolean))
            .collect();
    }

    /// The Boolean "cell `index` holds `digit`".
    fn var(&self, index: usize, digit: u8) -> &Bool {
        &self.vars[variable(self.size, index, digit) - 1]
    }
}

impl Encoding for OneHotEncoding {
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
        let mut encoding = OneHotEncoding {
            size: self.size,
            vars: self.vars.clone(),
            rules: self.rules.clone(),
            constraints: Vec::new(),
            implied_by_constraints: Vec::new(),
            alone: false,
        };
        encoding.state_constraints(rules);
        Box::new(encoding)
    }

    fn implied_by_constraints(&self) -> &[Bool] {
        &self.implied_by_constraints
    }

    fn clue(&self, index: usize, digit: u8) -> Bool {
        self.var(index, digit).clone()
    }

    fn differs(&self, index: usize, digit: u8) -> Bool {
        self.var(index, digit).not()
    }

    /// Reads each cell's digit: the one whose Boolean is true. `None` when a
    /// cell has no true digit (the rules forbid two, and the checker would
    /// catch a board that broke them).
    fn decode(&self, model: &Model) -> Option<Grid> {
        let mut grid = Grid::empty(self.size);
        let digits = 1..=self.size.values() as u8;
        for index in 0..self.size.all_cells() {
            // A model's own value of a constant is a lookup; `eval` would
            // run the rewriter for each of the up to n² Booleans per cell.
            let digit = digits.clone().find(|&d| {
                let var = self.var(index, d);
                model
                    .get_const_interp(var)
                    .or_else(|| model.eval(var, true))
                    .and_then(|v| v.as_bool())
                    .unwrap_or(false)
            })?;
            grid.set(index, digit);
        }
        Some(grid)
    }

    /// The true literals, one `x_R_C_D -> true` per line (the false ones,
    /// `side - 1` per cell, say nothing the true ones do not).
    fn model_text(&self, model: &Model) -> String {
        let mut text = String::new();
        for var in &self.vars {
            if model.eval(var, true).and_then(|v| v.as_bool()) == Some(true) {
                let _ = writeln!(text, "{var} -> true");
            }
        }
        text
    }

    fn logic(&self) -> Option<&'static str> {
        // Z3's finite-domain solver is its SAT solver, with native
        // cardinality constraints (see build.md, "Encodings").
        Some("QF_FD")
    }

    fn keeps_solver(&self) -> bool {
        !self.alone
    }
}

/// Whether puzzles under `rules` are searched faster by a new solver each
/// than by the kept one: a chaos construction's regions and a connected
/// region take thousands of conflicts, and a new solver preprocesses its
/// formulas with the clues and simplifies its clauses as it searches,
/// which a kept solver, whose rules sit in a scope of their own and whose
/// inprocessing is held back, does not (on `benches/data/chaos.txt`,
/// `bool` in `batch` took 2.3x and 8x as long with the kept solver; on
/// `benches/data/connected_values.txt`, `int` 3.7x as long on the first
/// puzzle; docs/variants.md, "Chaos construction" and "Connected values").
/// The `int` encoding asks the same.
pub(super) fn searches_alone(rules: &Rules) -> bool {
    rules
        .lowered()
        .iter()
        .flatten()
        .any(|p| matches!(p, Primitive::Chaos(_) | Primitive::Connected(_)))
}

/// The DIMACS number (1-based) of "cell `index` holds `digit`":
/// `index * side + digit`, so numbers run cell by cell, digit by digit.
pub fn variable(size: Size, index: usize, digit: u8) -> usize {
    index * size.values() + usize::from(digit)
}

/// The readable name `x_R_C_D` of the variable numbered `number`. The
/// underscores keep two-digit rows, columns and digits apart (`x_10_3_12`).
/// A cell outside the grid is `x_vN_D`.
pub fn name(size: Size, number: usize) -> String {
    let values = size.values();
    let (index, digit) = ((number - 1) / values, (number - 1) % values + 1);
    let cell = size.cell_at(index);
    match cell.extra() {
        Some(n) => format!("x_v{}_{digit}", n + 1),
        None => format!("x_{}_{}_{digit}", cell.row() + 1, cell.col() + 1),
    }
}

/// Every set of variables of which exactly one must be true, as DIMACS
/// numbers: each cell's digits, then each full house's places for each
/// digit (the others are [`at_most_one_sets`]).
pub fn exactly_one_sets(rules: &Rules) -> impl Iterator<Item = Vec<usize>> + '_ {
    let size = rules.size();
    let side = size.values();
    let cells = (0..size.all_cells()).map(move |index| {
        (1..=side as u8)
            .map(|digit| variable(size, index, digit))
            .collect()
    });
    let places = rules
        .houses()
        .iter()
        .filter(move |h| h.is_full(size))
        .flat_map(move |house| {
            (1..=side as u8).map(move |digit| {
                house
                    .cells
                    .iter()
                    .map(|&index| variable(size, index, digit))
                    .collect()
            })
        });
    cells.chain(places)
}

/// The sets of variables of which at most one may be true: each place of
/// each digit in a house of fewer cells than digits (on a board with more
/// digits than a row has cells; none on others), where a digit may be
/// missing.
pub fn at_most_one_sets(rules: &Rules) -> impl Iterator<Item = Vec<usize>> + '_ {
    let size = rules.size();
    rules
        .houses()
        .iter()
        .filter(move |h| !h.is_full(size))
        .flat_map(move |house| {
            (1..=size.values() as u8).map(move |digit| {
                house
                    .cells
                    .iter()
                    .map(|&index| variable(size, index, digit))
                    .collect()
            })
        })
}

/// A clause: DIMACS literals, `n` for variable `n` true and `-n` for false.
pub type Clause = Vec<i32>;

/// The literal "cell `index` holds `digit`" (negated: "does not").
fn literal(size: Size, index: usize, digit: u8, holds: bool) -> i32 {
    // Variable numbers stop at 25³, far inside i32.
    let number = variable(size, index, digit) as i32;
    if holds { number } else { -number }
}

/// A relation between cells `a` and `b`, which `allows(i, j)` digit `i`
/// of `a` beside digit `j` of `b`, as clauses: for each digit `i` of `a`,
/// the digits `j` of `b` it does not allow, as binary clauses `¬a_i ∨
/// ¬b_j` when there are few, or else as one support clause `¬a_i ∨ b_j ∨
/// …` over the digits it does allow, with the same from `b`'s side, so
/// that both directions propagate.
fn relation_clauses(
    size: Size,
    a: usize,
    b: usize,
    allows: impl Fn(u8, u8) -> bool,
) -> Vec<Clause> {
    let side = size.values() as u8;
    let lit = |cell, d, holds| literal(size, cell, d, holds);
    let digits = 1..=side;
    let mut clauses = Vec::new();
    let forbidden: usize = digits
        .clone()
        .map(|i| digits.clone().filter(|&j| !allows(i, j)).count())
        .sum();
    if forbidden <= 3 * usize::from(side) {
        for i in digits.clone() {
            for j in digits.clone().filter(|&j| !allows(i, j)) {
                clauses.push(vec![lit(a, i, false), lit(b, j, false)]);
            }
        }
        return clauses;
    }
    // Support clauses from each side: `x = i` needs `y` to take a digit
    // the relation allows with `i`.
    for (x, y, flip) in [(a, b, false), (b, a, true)] {
        for i in digits.clone() {
            let support: Vec<i32> = digits
                .clone()
                .filter(|&j| if flip { allows(j, i) } else { allows(i, j) })
                .map(|j| lit(y, j, true))
                .collect();
            if support.len() < usize::from(side) {
                let mut clause = vec![lit(x, i, false)];
                clause.extend(support);
                clauses.push(clause);
            }
        }
    }
    clauses
}

/// `primitive` as clauses, when clauses over the one-hot variables state
/// it: cells that differ (one binary clause per digit, unless a house keeps
/// them apart already), relations between two cells and sums of two cells
/// ([`relation_clauses`]), allowed digits, and "at least one of these
/// cells holds d"; `None` for other sums and the other counting formulas
/// (see [`primitive_formula`]).
pub fn primitive_clauses(rules: &Rules, primitive: &Primitive) -> Option<Vec<Clause>> {
    let size = rules.size();
    let side = size.values() as u8;
    let lit = |cell, d, holds| literal(size, cell, d, holds);
    let mut clauses = Vec::new();
    match primitive {
        Primitive::Distinct { cells, sum: None } => {
            for (k, &a) in cells.iter().enumerate() {
                for &b in &cells[k + 1..] {
                    if !rules.share_house(a, b) {
                        for d in 1..=side {
                            clauses.push(vec![lit(a, d, false), lit(b, d, false)]);
                        }
                    }
                }
            }
        }
        Primitive::Pair { a, b, relation } => {
            clauses = relation_clauses(size, *a, *b, |i, j| relation.allows(i, j));
        }
        // A sum of two cells is a relation between them: the pairs of
        // digits its totals allow. So stated it propagates as a pair rule
        // does, where an `or` of one equation per total over both cells'
        // literals left the SAT core little to propagate (a hidden
        // skyscraper's rising cells: `bool` 25 times sigh's time on a 6x9
        // before, docs/variants.md).
        Primitive::Sum { terms, totals } if terms.len() == 2 => {
            let [(a, wa), (b, wb)] = [terms[0], terms[1]];
            clauses = relation_clauses(size, a, b, |i, j| {
                totals.contains(&(wa * i32::from(i) + wb * i32::from(j)))
            });
        }
        Primitive::Allowed { cell, digits } => {
            for d in (1..=side).filter(|d| digits >> (d - 1) & 1 == 0) {
                clauses.push(vec![lit(*cell, d, false)]);
            }
        }
        Primitive::Contains {
            cells,
            digit,
            count: 1,
        } => clauses.push(cells.iter().map(|&c| lit(c, *digit, true)).collect()),
        Primitive::Any { literals } => {
            // One clause: a literal that leaves out one digit is that
            // digit's negation (exactly one digit per cell), else the
            // digits it takes.
            let all = u32::MAX >> (32 - u32::from(side));
            let mut clause = Vec::new();
            for &(c, digits) in literals {
                let missing = all & !digits;
                if missing.count_ones() == 1 {
                    clause.push(lit(c, missing.trailing_zeros() as u8 + 1, false));
                } else {
                    clause.extend(
                        (1..=side)
                            .filter(|d| digits >> (d - 1) & 1 == 1)
                            .map(|d| lit(c, d, true)),
                    );
                }
            }
            clause.sort_unstable();
            clause.dedup();
            clauses.push(clause);
        }
        Primitive::Formula(test) => return expr::clauses(size, test),
        _ => return None,
    }
    Some(clauses)
}

/// The clauses of every constraint, or the first constraint that clauses
/// over the one-hot variables cannot state (a sum, a count).
pub fn constraint_clauses(rules: &Rules) -> Result<Vec<Clause>, String> {
    let mut clauses = Vec::new();
    for (constraint, primitives) in rules.constraints().iter().zip(rules.lowered()) {
        for primitive in primitives {
            clauses
                .extend(primitive_clauses(rules, primitive).ok_or_else(|| constraint.to_string())?);
        }
    }
    Ok(clauses)
}

/// How weighted sums of Booleans are put to Z3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sums {
    /// As pseudo-Boolean constraints, which Z3's solvers reason about
    /// natively.
    PseudoBoolean,
    /// As integer sums of `If(x, w, 0)`, which Z3's `card2bv` tactic
    /// brings to bit-vectors and so to clauses (for DIMACS export).
    Arithmetic,
}

impl Sums {
    /// `Σ w · x` over `terms` compared with `k` by `compare` (`Ordering::Equal`
    /// for `=`, `Ordering::Greater` for `>=`).
    fn state(self, terms: &[(&Bool, i32)], compare: std::cmp::Ordering, k: i32) -> Bool {
        match self {
            Sums::PseudoBoolean if compare.is_eq() => Bool::pb_eq(terms, k),
            Sums::PseudoBoolean => Bool::pb_ge(terms, k),
            Sums::Arithmetic => {
                let zero = Int::from_i64(0);
                let parts: Vec<Int> = terms
                    .iter()
                    .map(|(x, w)| x.ite(&Int::from_i64(i64::from(*w)), &zero))
                    .collect();
                let parts: Vec<&Int> = parts.iter().collect();
                let total = Int::add(&parts);
                let k = Int::from_i64(i64::from(k));
                if compare.is_eq() {
                    total.eq(&k)
                } else {
                    total.ge(&k)
                }
            }
        }
    }
}

/// `primitive` as one formula over `vars`: its clauses where it has them,
/// else sums with weights `d` over the one-hot variables (a cell's digit is
/// `Σ d · x_d`), stated as `sums` says, and Boolean structure for the rest.
pub fn primitive_formula(rules: &Rules, primitive: &Primitive, vars: &[Bool], sums: Sums) -> Bool {
    if let Some(clauses) = primitive_clauses(rules, primitive) {
        let clauses: Vec<Bool> = clauses
            .iter()
            .map(|c| clause_formula(vars, None, c))
            .collect();
        return Bool::and(&clauses);
    }
    let size = rules.size();
    let side = size.values() as u8;
    let var = |cell: usize, d: u8| &vars[variable(size, cell, d) - 1];
    let less = |x: usize, y: usize| lower_than(size, vars, x, y);
    // "The cell holds one of `digits`", for the formulas read over digit
    // sets (automata, connected regions).
    let holds = |c: usize, digits: u32| {
        // Every cell holds one of all the digits.
        if (1..=side).all(|d| digits >> (d - 1) & 1 == 1) {
            return Bool::from_bool(true);
        }
        let options: Vec<Bool> = (1..=side)
            .filter(|d| digits >> (d - 1) & 1 == 1)
            .map(|d| var(c, d).clone())
            .collect();
        Bool::or(&options)
    };
    match primitive {
        Primitive::Distinct { cells, sum } => {
            let mut parts = Vec::new();
            if let Some(clauses) = primitive_clauses(
                rules,
                &Primitive::Distinct {
                    cells: cells.clone(),
                    sum: None,
                },
            ) {
                parts.extend(clauses.iter().map(|c| clause_formula(vars, None, c)));
            }
            if let Some(sum) = sum {
                parts.extend(cage_sum(size, cells, *sum, vars, sums));
            }
            Bool::and(&parts)
        }
        Primitive::Sum { terms, totals } => weighted_sum(size, terms, totals, vars, sums),
        Primitive::Contains {
            cells,
            digit,
            count,
        } => {
            let terms: Vec<(&Bool, i32)> = cells.iter().map(|&c| (var(c, *digit), 1)).collect();
            sums.state(&terms, Greater, *count as i32)
        }
        Primitive::Between { ends, middle } => {
            let (a, b) = *ends;
            let parts: Vec<Bool> = middle
                .iter()
                .map(|&m| {
                    Bool::or(&[
                        Bool::and(&[less(a, m), less(m, b)]),
                        Bool::and(&[less(b, m), less(m, a)]),
                    ])
                })
                .collect();
            Bool::and(&parts)
        }
        Primitive::Visible { cells, count } => {
            let seen: Vec<Bool> = cells
                .iter()
                .enumerate()
                .map(|(k, &c)| {
                    let taller: Vec<Bool> = cells[..k].iter().map(|&e| less(e, c)).collect();
                    Bool::and(&taller)
                })
                .collect();
            let terms: Vec<(&Bool, i32)> = seen.iter().map(|s| (s, 1)).collect();
            sums.state(&terms, Equal, *count as i32)
        }
        Primitive::When { when, then } => {
            let condition: Vec<Bool> = when.iter().map(|&(c, d)| var(c, d).clone()).collect();
            Bool::and(&condition).implies(primitive_formula(rules, then, vars, sums))
        }
        // Over more cells than clauses state it by: each cell's digit as
        // `Σ d · x_d`.
        Primitive::Formula(test) => formula(size, vars, test, sums),
        Primitive::Rank(rank) => {
            let parts: Vec<Bool> = rank
                .as_tests()
                .iter()
                .map(|test| formula(size, vars, test, sums))
                .collect();
            Bool::and(&parts)
        }
        Primitive::Automaton { cells, automaton } => automaton::state(automaton, cells, &holds),
        Primitive::Lunchbox { cells, sum, .. } => lunchbox(size, cells, *sum, vars, sums),
        Primitive::FirstHidden { cells, digit, .. } => first_hidden(size, cells, *digit, vars),
        Primitive::Connected(rule) => {
            let exactly = |literals: &[Bool], n: usize| {
                let terms: Vec<(&Bool, i32)> = literals.iter().map(|l| (l, 1)).collect();
                sums.state(&terms, Equal, n as i32)
            };
            connected::state(rule, &holds, &exactly)
        }
        Primitive::Chaos(rule) => {
            let exactly = |literals: &[Bool], n: usize| {
                let terms: Vec<(&Bool, i32)> = literals.iter().map(|l| (l, 1)).collect();
                sums.state(&terms, Equal, n as i32)
            };
            chaos::state(rule, &holds, &exactly)
        }
        // Stated by clauses above.
        Primitive::Pair { .. } | Primitive::Allowed { .. } | Primitive::Any { .. } => {
            Bool::from_bool(true)
        }
    }
}

/// A formula over the one-hot variables: in their own terms (clauses,
/// pseudo-Boolean constraints) where it allows, which Z3's SAT solver
/// propagates far better than the integer sums it bit-blasts; as integer
/// arithmetic over `Σ d · x_d` for DIMACS export, whose tactic turns
/// arithmetic into clauses, and for what the other way cannot read.
fn formula(size: Size, vars: &[Bool], test: &crate::puzzle::expr::Test<usize>, sums: Sums) -> Bool {
    match sums {
        Sums::PseudoBoolean => onehot_formula::state(size, vars, test),
        Sums::Arithmetic => expr::state(test, size.values() as u8, &|c| {
            expr::one_hot_value(size, vars, c)
        }),
    }
}

/// A lunchbox over `cells` (different digits, stated apart) by the places
/// of its extremes: "cell k holds the smallest digit" is "it holds some d
/// and no cell holds a digit below d" (on a line that holds every value,
/// "it holds 1"), the largest likewise, and for each two places, when the
/// extremes stand there either way round, the cells between hold one of
/// the sets of different digits from 2 to one below the highest value that
/// add up to `sum`: a digit in no set is in none of the cells, a digit in
/// every set in one of them, and of several sets, one has all its other
/// digits among them. The cells between differ and are as many as a set
/// has digits, so holding one set is the sum; no set: the extremes cannot
/// stand there. Only where the sets are too many to list (large boards) is
/// the sum a pseudo-Boolean equation, which, blind to the digits
/// differing, leaves the sets to the search. On 6x9 with `bool`, four such
/// sandwiches on columns of six took half the instructions they took as
/// the automaton's run over the same cells (which guesses the extremes'
/// digits and keeps the running total), and four on rows of nine half as
/// many as the plain `When` per pair of places for 1 and 9 without the
/// sets; the sets in place of the equation beside them, and one condition
/// for both ways round, took the puzzle from 149 to 114 million
/// instructions, and 2,400 random sandwich puzzles about a fifth less time.
fn lunchbox(size: Size, cells: &[usize], sum: u32, vars: &[Bool], sums: Sums) -> Bool {
    let side = size.values() as u8;
    let var = |cell: usize, d: u8| &vars[variable(size, cell, d) - 1];
    // `below[d]`: some cell of the line holds a digit below d; `above[d]`
    // one above d. Each the one before or'ed with one digit's places.
    let held = |d: u8| held_in(size, vars, cells, d);
    let mut below = vec![Bool::from_bool(false); usize::from(side) + 2];
    let mut above = below.clone();
    for d in 2..=side {
        below[usize::from(d)] = Bool::or(&[below[usize::from(d - 1)].clone(), held(d - 1)]);
        let e = side + 1 - d;
        above[usize::from(e)] = Bool::or(&[above[usize::from(e + 1)].clone(), held(e + 1)]);
    }
    let full = cells.len() == usize::from(side);
    let extreme = |c: usize, lowest: bool| -> Bool {
        if full {
            return var(c, if lowest { 1 } else { side }).clone();
        }
        let options: Vec<Bool> = (1..=side)
            .map(|d| {
                let beyond = if lowest { &below } else { &above };
                Bool::and(&[var(c, d).clone(), beyond[usize::from(d)].not()])
            })
            .collect();
        Bool::or(&options)
    };
    let lowest: Vec<Bool> = cells.iter().map(|&c| extreme(c, true)).collect();
    let highest: Vec<Bool> = cells.iter().map(|&c| extreme(c, false)).collect();
    let has = |set: u32, d: u8| set >> (d - 1) & 1 == 1;
    let inner = |set: &u32| !has(*set, 1) && !has(*set, side);
    let mut parts = Vec::new();
    for i in 0..cells.len() {
        for j in i + 1..cells.len() {
            let between = &cells[i + 1..j];
            // Unlisted (too many sets, on large boards): the sum alone.
            let sets = CageSets::new(side, between.len(), sum)
                .sets
                .map(|sets| sets.into_iter().filter(inner).collect::<Vec<u32>>());
            let held = |d: u8| held_in(size, vars, between, d);
            let then = match sets {
                None => {
                    let terms: Vec<(usize, i32)> = between.iter().map(|&c| (c, 1)).collect();
                    vec![weighted_sum(size, &terms, &[sum as i32], vars, sums)]
                }
                Some(sets) if sets.is_empty() => vec![Bool::from_bool(false)],
                Some(sets) => {
                    let union = sets.iter().fold(0, |u, &s| u | s);
                    let common = sets.iter().fold(union, |c, &s| c & s);
                    let mut then = Vec::new();
                    for &c in between {
                        let outside = (1..=side).filter(|&d| !has(union, d));
                        then.extend(outside.map(|d| var(c, d).not()));
                    }
                    then.extend((1..=side).filter(|&d| has(common, d)).map(held));
                    if sets.len() > 1 {
                        let options: Vec<Bool> = sets
                            .iter()
                            .map(|&set| {
                                let rest = set & !common;
                                let all: Vec<Bool> =
                                    (1..=side).filter(|&d| has(rest, d)).map(held).collect();
                                Bool::and(&all)
                            })
                            .collect();
                        then.push(Bool::or(&options));
                    }
                    then
                }
            };
            let ends = Bool::or(&[
                Bool::and(&[lowest[i].clone(), highest[j].clone()]),
                Bool::and(&[highest[i].clone(), lowest[j].clone()]),
            ]);
            parts.extend(then.iter().map(|t| ends.implies(t)));
        }
    }
    Bool::and(&parts)
}

/// "Some cell of `cells` holds `digit`".
fn held_in(size: Size, vars: &[Bool], cells: &[usize], digit: u8) -> Bool {
    let places: Vec<&Bool> = cells
        .iter()
        .map(|&c| &vars[variable(size, c, digit) - 1])
        .collect();
    Bool::or(&places)
}

/// "`cell` holds one of `digits`".
fn one_of(size: Size, vars: &[Bool], cell: usize, digits: impl Iterator<Item = u8>) -> Bool {
    let options: Vec<&Bool> = digits.map(|d| &vars[variable(size, cell, d) - 1]).collect();
    Bool::or(&options)
}

/// "Cell `a` holds a lower digit than cell `b`": `b` holds some d and `a`
/// one below it.
fn lower_than(size: Size, vars: &[Bool], a: usize, b: usize) -> Bool {
    let options: Vec<Bool> = (2..=size.values() as u8)
        .map(|d| {
            let here = vars[variable(size, b, d) - 1].clone();
            Bool::and(&[here, one_of(size, vars, a, 1..d)])
        })
        .collect();
    Bool::or(&options)
}

/// A hidden skyscraper over `cells` (different digits, stated apart),
/// `digit` the first building lower than the one before it: some cell
/// after the first holds `digit`, the cells before it rise, and the last
/// of them is taller. While the buildings rise, the state of the automaton
/// the other back ends read (the tallest so far) is the last cell's own
/// digit, which the one-hot variables say already: one comparison per cell
/// (`rising`, shared by the later places) where the automaton's run took a
/// term per state and digit, 34 million instructions against 51 on the
/// hidden skyscrapers of `benches/data/rectangles.txt` (docs/variants.md).
fn first_hidden(size: Size, cells: &[usize], digit: u8, vars: &[Bool]) -> Bool {
    let side = size.values() as u8;
    let mut rising = Bool::from_bool(true);
    let mut places = Vec::new();
    for p in 1..cells.len() {
        if p >= 2 {
            rising = Bool::and(&[rising, lower_than(size, vars, cells[p - 2], cells[p - 1])]);
        }
        let taller = one_of(size, vars, cells[p - 1], digit + 1..=side);
        let here = vars[variable(size, cells[p], digit) - 1].clone();
        places.push(Bool::and(&[here, rising.clone(), taller]));
    }
    Bool::or(&places)
}

/// The sum of a cage (different digits in `cells`, stated apart) by the
/// sets of digits it may hold, as clauses: each cell holds a digit of some
/// set, a digit every set has is somewhere in the cage, and where there are
/// several sets, one of them is chosen (`set` literals) and fixes which of
/// the other digits are in the cage (`in` literals, each tied to its
/// cells). With the digits different that is the sum; Z3's search finds
/// its sets only through many conflicts when the sum is a pseudo-Boolean
/// equation (see build.md, "Killer cages in the Z3 encodings"). A cage
/// with too many sets to list keeps the equation.
fn cage_sum(size: Size, cells: &[usize], sum: u32, vars: &[Bool], sums: Sums) -> Vec<Bool> {
    let side = size.values() as u8;
    let found = CageSets::new(side, cells.len(), sum);
    let Some(sets) = found.sets else {
        let terms: Vec<(usize, i32)> = cells.iter().map(|&c| (c, 1)).collect();
        return vec![weighted_sum(size, &terms, &[sum as i32], vars, sums)];
    };
    if sets.is_empty() {
        return vec![Bool::from_bool(false)];
    }
    let var = |cell: usize, d: u8| &vars[variable(size, cell, d) - 1];
    let has = |set: u32, d: u8| set >> (d - 1) & 1 == 1;
    let held_somewhere = |d: u8| held_in(size, vars, cells, d);
    let mut clauses = Vec::new();
    for d in 1..=side {
        if !has(found.union, d) {
            clauses.extend(cells.iter().map(|&c| var(c, d).not()));
        } else if has(found.common, d) {
            clauses.push(held_somewhere(d));
        }
    }
    if sets.len() == 1 {
        return clauses;
    }
    let open: Vec<u8> = (1..=side)
        .filter(|&d| has(found.union & !found.common, d))
        .collect();
    let chosen: Vec<Bool> = sets.iter().map(|_| Bool::fresh_const("set")).collect();
    clauses.push(Bool::or(&chosen));
    for &d in &open {
        let inside = Bool::fresh_const("in");
        for &c in cells {
            clauses.push(var(c, d).implies(&inside));
        }
        clauses.push(inside.implies(held_somewhere(d)));
        let mut with = Vec::new();
        for (set, &digits) in chosen.iter().zip(&sets) {
            if has(digits, d) {
                clauses.push(set.implies(&inside));
                with.push(set);
            } else {
                clauses.push(set.implies(inside.not()));
            }
        }
        clauses.push(inside.implies(Bool::or(&with)));
    }
    clauses
}

/// `Σ weight · digit` over `terms` is one of `totals`, as pseudo-Boolean
/// equations over the one-hot variables. Negative weights go on the
/// negated variable (`-w·x = w·¬x - w`), since Z3's pseudo-Boolean
/// solver takes them best positive.
fn weighted_sum(
    size: Size,
    terms: &[(usize, i32)],
    totals: &[i32],
    vars: &[Bool],
    sums: Sums,
) -> Bool {
    let mut literals: Vec<(Bool, i32)> = Vec::new();
    let mut shift = 0;
    for &(cell, weight) in terms {
        for d in 1..=size.values() as u8 {
            let v = &vars[variable(size, cell, d) - 1];
            let w = weight * i32::from(d);
            if w >= 0 {
                literals.push((v.clone(), w));
            } else {
                literals.push((v.not(), -w));
                shift -= w;
            }
        }
    }
    let terms: Vec<(&Bool, i32)> = literals.iter().map(|(v, w)| (v, *w)).collect();
    let options: Vec<Bool> = totals
        .iter()
        .map(|&t| {
            if terms.is_empty() {
                Bool::from_bool(t == 0)
            } else {
                sums.state(&terms, Equal, t + shift)
            }
        })
        .collect();
    Bool::or(&options)
}

/// `clause` as a formula over `vars` (variable `n` at `n - 1`), taking a
/// negative literal from `negated` (the variables' negations, in the same
/// order) when given: every `not` is a call into Z3 as dear as the clause's
/// own `or`, and a board's houses hold thousands of clauses over its few
/// hundred variables (made once, the houses of a fresh `bool` solver take
/// about a tenth fewer instructions to build and check).
pub(super) fn clause_formula(vars: &[Bool], negated: Option<&[Bool]>, clause: &[i32]) -> Bool {
    let lits: Vec<Bool> = clause
        .iter()
        .map(|&lit| {
            let at = lit.unsigned_abs() as usize - 1;
            match negated {
                _ if lit > 0 => vars[at].clone(),
                Some(negated) => negated[at].clone(),
                None => vars[at].not(),
            }
        })
        .collect();
    Bool::or(&lits)
}

/// Each constraint's primitives as formulas over `vars`, one list per
/// constraint. Both one-hot encodings state them so.
pub(super) fn constraint_formulas(rules: &Rules, vars: &[Bool]) -> Vec<Vec<Bool>> {
    rules
        .lowered()
        .iter()
        .map(|primitives| {
            primitives
                .iter()
                .map(|p| primitive_formula(rules, p, vars, Sums::PseudoBoolean))
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use itertools::Itertools;

    #[test]
    fn numbers_and_names_round_trip() {
        let nine = Size::NINE;
        assert_eq!(variable(nine, 0, 1), 1);
        assert_eq!(variable(nine, 80, 9), 729);
        assert_eq!(name(nine, 1), "x_1_1_1");
        assert_eq!(name(nine, variable(nine, 9 * 4 + 2, 7)), "x_5_3_7");
        let sixteen = Size::from_side(16).unwrap_or_default();
        assert_eq!(
            name(sixteen, variable(sixteen, 16 * 9 + 2, 12)),
            "x_10_3_12"
        );
    }

    /// Asserts `stated(cells, param)` over the first 4 and the first 6
    /// cells of a 6x6 board, for each of `params`, and checks every line of
    /// different digits there against `holds(line, param)`, the rule read
    /// off the digits.
    fn agrees_on_every_line(
        params: &[u32],
        stated: impl Fn(Size, &[usize], &[Bool], u32) -> Bool,
        holds: impl Fn(&[u8], u32) -> bool,
    ) {
        let size = Size::from_side(6).unwrap_or_default();
        let vars: Vec<Bool> = (1..=size.cells() * size.values())
            .map(|number| Bool::new_const(name(size, number)))
            .collect();
        let solver = z3::Solver::new();
        for len in [4, 6] {
            let cells: Vec<usize> = (0..len).collect();
            for &param in params {
                solver.push();
                solver.assert(stated(size, &cells, &vars, param));
                for line in (1..=6u8).permutations(len) {
                    let digits: Vec<Bool> = cells
                        .iter()
                        .flat_map(|&c| (1..=6u8).map(move |d| (c, d)))
                        .map(|(c, d)| {
                            let v = &vars[variable(size, c, d) - 1];
                            if line[c] == d { v.clone() } else { v.not() }
                        })
                        .collect();
                    let sat = solver.check_assumptions(&digits) == z3::SatResult::Sat;
                    assert_eq!(sat, holds(&line, param), "{line:?}, {param}");
                }
                solver.pop(1);
            }
        }
    }

    /// Four cells (some of the values) and six (all of them, so the
    /// extremes are 1 and 6), sums of no cell, of one set of digits or
    /// none at each length, and of several (7: 2 and 5, or 3 and 4).
    #[test]
    fn a_lunchbox_holds_exactly_where_its_extremes_enclose_the_sum() {
        let stated = |size, cells: &[usize], vars: &[Bool], sum| {
            lunchbox(size, cells, sum, vars, Sums::PseudoBoolean)
        };
        agrees_on_every_line(&[0, 5, 7, 9, 14], stated, |line, sum| {
            let at = |d: u8| line.iter().position(|&e| e == d).unwrap_or(0);
            let (lo, hi) = (
                at(*line.iter().min().unwrap_or(&1)),
                at(*line.iter().max().unwrap_or(&1)),
            );
            let inside: u32 = line[lo.min(hi) + 1..lo.max(hi)]
                .iter()
                .map(|&d| u32::from(d))
                .sum();
            inside == sum
        });
    }

    /// Six cells and four (a short line, which may miss the digit), each
    /// digit.
    #[test]
    fn a_first_hidden_digit_holds_exactly_where_the_line_hides_it_first() {
        let stated = |size, cells: &[usize], vars: &[Bool], digit: u32| {
            first_hidden(size, cells, digit as u8, vars)
        };
        agrees_on_every_line(&[1, 2, 3, 4, 5, 6], stated, |line, digit| {
            let hidden = (1..line.len()).find(|&k| line[k] < line[k - 1]);
            hidden.map(|k| u32::from(line[k])) == Some(digit)
        });
    }

    #[test]
    fn every_variable_is_in_a_set_per_house_and_its_cell() {
        for size in Size::all() {
            let rules = Rules::classic(size);
            let per_cell = 1 + rules.houses_of(0).len();
            let sets: Vec<Vec<usize>> = exactly_one_sets(&rules).collect();
            assert_eq!(sets.len(), per_cell * size.cells());
            let mut seen = vec![0; size.cells() * size.side() + 1];
            for set in &sets {
                assert_eq!(set.len(), size.side());
                for &v in set {
                    seen[v] += 1;
                }
            }
            assert!(seen[1..].iter().all(|&n| n == per_cell));
        }
    }
}
