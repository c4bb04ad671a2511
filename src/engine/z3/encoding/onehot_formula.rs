//! A rule written as a formula, stated to the one-hot encodings in their
//! own terms rather than as integer arithmetic over `Σ d · x_d`.
//!
//! Z3's finite-domain solver takes an integer sum of `ite`s by bit-blasting
//! it, and its SAT search then learns little from one cell's digit about
//! another's: a lunchbox, a count-distinct clue or a full rank clue took it
//! ten to a hundred times sigh's time (docs/variants.md, "Speed beside
//! sigh"). Here:
//! - a comparison of two cells is clauses over the digits and "at least
//!   `d`" disjunctions, `x < y` as `x = d ⇒ y ≥ d + 1` for each `d`, which
//!   propagate both ways as sigh's binary handlers do;
//! - a cell against a number is the disjunction of the digits that pass;
//! - any other comparison whose sides are linear in cells' digits, counts
//!   of a digit and `if test then p else q` with numbers `p`, `q` is one
//!   pseudo-Boolean constraint over the one-hot Booleans and the tests'
//!   own literals, which Z3's SAT solver reasons about natively;
//! - `and`, `or`, `not`, `implies` and `if` between tests stay Boolean.
//!
//! A test with anything else in it (a product of two cells, a division, a
//! minimum) is stated as before, by [`expr::state`], as a whole: the
//! definitions that states a division by must hold unconditionally.

use super::expr;
use super::onehot::variable;
use crate::puzzle::expr::{Compare, Num, Test};
use crate::puzzle::grid::Size;
use std::collections::BTreeMap;
use z3::ast::Bool;

/// `test` over the one-hot Booleans `vars` (variable `n` at `n - 1`).
pub(super) fn state(size: Size, vars: &[Bool], test: &Test<usize>) -> Bool {
    let reading = Reading { size, vars };
    reading.test(test).unwrap_or_else(|| {
        let values = size.values() as u8;
        expr::state(test, values, &|c| expr::one_hot_value(size, vars, c))
    })
}

struct Reading<'a> {
    size: Size,
    vars: &'a [Bool],
}

/// `Σ weight · literal + constant`: the one-hot Booleans by their DIMACS
/// numbers (a cell may be read more than once), tests' literals as they
/// come.
#[derive(Default)]
struct Linear {
    vars: BTreeMap<usize, i64>,
    others: Vec<(Bool, i64)>,
    constant: i64,
}

impl Reading<'_> {
    fn values(&self) -> u8 {
        self.size.values() as u8
    }

    fn var(&self, cell: usize, digit: u8) -> Bool {
        self.vars[variable(self.size, cell, digit) - 1].clone()
    }

    /// "The cell holds a digit of at least `low`".
    fn at_least(&self, cell: usize, low: u8) -> Bool {
        let options: Vec<Bool> = (low.max(1)..=self.values())
            .map(|d| self.var(cell, d))
            .collect();
        Bool::or(&options)
    }

    fn test(&self, test: &Test<usize>) -> Option<Bool> {
        Some(match test {
            Test::Literal(b) => Bool::from_bool(*b),
            Test::Compare(op, a, b) => self.compare(*op, a, b)?,
            Test::Not(t) => self.test(t)?.not(),
            Test::And(ts) => Bool::and(&self.tests(ts)?),
            Test::Or(ts) => Bool::or(&self.tests(ts)?),
            Test::Implies(a, b) => self.test(a)?.implies(self.test(b)?),
            Test::If(c, a, b) => self.test(c)?.ite(&self.test(a)?, &self.test(b)?),
            Test::Distinct(xs) => {
                let cells = xs
                    .iter()
                    .map(|x| match x {
                        Num::Cell(c) => Some(*c),
                        _ => None,
                    })
                    .collect::<Option<Vec<usize>>>()?;
                let mut parts = Vec::new();
                for (k, &a) in cells.iter().enumerate() {
                    for &b in &cells[k + 1..] {
                        parts.push(self.cells(Compare::Ne, a, b));
                    }
                }
                Bool::and(&parts)
            }
        })
    }

    fn tests(&self, tests: &[Test<usize>]) -> Option<Vec<Bool>> {
        tests.iter().map(|t| self.test(t)).collect()
    }

    fn compare(&self, op: Compare, a: &Num<usize>, b: &Num<usize>) -> Option<Bool> {
        match (a, b) {
            (Num::Cell(x), Num::Cell(y)) => return Some(self.cells(op, *x, *y)),
            (Num::Cell(x), Num::Literal(k)) => return Some(self.against(op, *x, *k)),
            (Num::Literal(k), Num::Cell(y)) => return Some(self.against(flip(op), *y, *k)),
            _ => {}
        }
        let mut sum = Linear::default();
        self.linear(a, 1, &mut sum)?;
        self.linear(b, -1, &mut sum)?;
        sum.compare(op, self.vars)
    }

    /// Two cells compared, as clauses over each digit of the first.
    fn cells(&self, op: Compare, x: usize, y: usize) -> Bool {
        if x == y {
            let holds = matches!(op, Compare::Eq | Compare::Le | Compare::Ge);
            return Bool::from_bool(holds);
        }
        let (x, y, op) = match op {
            Compare::Gt => (y, x, Compare::Lt),
            Compare::Ge => (y, x, Compare::Le),
            _ => (x, y, op),
        };
        let parts: Vec<Bool> = (1..=self.values())
            .map(|d| {
                let then = match op {
                    Compare::Eq => self.var(y, d),
                    Compare::Ne => self.var(y, d).not(),
                    Compare::Lt => self.at_least(y, d + 1),
                    _ => self.at_least(y, d),
                };
                self.var(x, d).not() | then
            })
            .collect();
        Bool::and(&parts)
    }

    /// A cell against a number: the digits that pass.
    fn against(&self, op: Compare, cell: usize, k: i64) -> Bool {
        let options: Vec<Bool> = (1..=self.values())
            .filter(|&d| passes(op, i64::from(d), k))
            .map(|d| self.var(cell, d))
            .collect();
        Bool::or(&options)
    }

    /// Adds `sign · num` to `sum`; `None` when `num` is not linear in the
    /// literals this module reads.
    fn linear(&self, num: &Num<usize>, sign: i64, sum: &mut Linear) -> Option<()> {
        match num {
            Num::Literal(n) => sum.constant += sign.checked_mul(*n)?,
            Num::Cell(c) => {
                for d in 1..=self.values() {
                    let number = variable(self.size, *c, d);
                    *sum.vars.entry(number).or_default() += sign * i64::from(d);
                }
            }
            Num::Neg(a) => self.linear(a, -sign, sum)?,
            Num::Add(xs) | Num::Sum(xs) => {
                for x in xs {
                    self.linear(x, sign, sum)?;
                }
            }
            Num::Sub(a, b) => {
                self.linear(a, sign, sum)?;
                self.linear(b, -sign, sum)?;
            }
            Num::Mul(xs) => {
                // A product of numbers and at most one other factor.
                let mut scale = sign;
                let mut other = None;
                for x in xs {
                    match x {
                        Num::Literal(n) => scale = scale.checked_mul(*n)?,
                        _ if other.is_none() => other = Some(x),
                        _ => return None,
                    }
                }
                match other {
                    Some(x) => self.linear(x, scale, sum)?,
                    None => sum.constant += scale,
                }
            }
            Num::If(t, a, b) => {
                let (Num::Literal(p), Num::Literal(q)) = (a.as_ref(), b.as_ref()) else {
                    return None;
                };
                sum.constant += sign.checked_mul(*q)?;
                let weight = sign.checked_mul(p.checked_sub(*q)?)?;
                if weight != 0 {
                    sum.others.push((self.test(t)?, weight));
                }
            }
            Num::Count(d, xs) => {
                let Num::Literal(d) = d.as_ref() else {
                    return None;
                };
                for x in xs {
                    match x {
                        Num::Cell(c) => {
                            if let Ok(d) = u8::try_from(*d)
                                && (1..=self.values()).contains(&d)
                            {
                                let number = variable(self.size, *c, d);
                                *sum.vars.entry(number).or_default() += sign;
                            }
                        }
                        Num::Literal(n) if n == d => sum.constant += sign,
                        Num::Literal(_) => {}
                        _ => return None,
                    }
                }
            }
            Num::Div(..) | Num::Mod(..) | Num::Abs(_) | Num::Min(_) | Num::Max(_) => return None,
        }
        Some(())
    }
}

impl Linear {
    /// `Σ + constant op 0` as one pseudo-Boolean constraint.
    fn compare(self, op: Compare, vars: &[Bool]) -> Option<Bool> {
        // Weights on positive literals: `w · l` with `w < 0` is `|w| · ¬l
        // - |w|`.
        let mut terms: Vec<(Bool, i64)> = Vec::new();
        let mut constant = self.constant;
        let all = self
            .vars
            .into_iter()
            .map(|(number, w)| (vars[number - 1].clone(), w))
            .chain(self.others);
        for (literal, w) in all {
            match w {
                0 => {}
                w if w > 0 => terms.push((literal, w)),
                w => {
                    terms.push((literal.not(), -w));
                    constant += w;
                }
            }
        }
        // `Σ w · l op -constant`, each side flipped to `≥` or `=`.
        let bound = -constant;
        let total: i64 = terms.iter().map(|(_, w)| w).sum();
        let (eq, flip_terms, k) = match op {
            Compare::Eq | Compare::Ne => (true, false, bound),
            Compare::Ge => (false, false, bound),
            Compare::Gt => (false, false, bound + 1),
            // `Σ ≤ b` is `Σ w · ¬l ≥ total - b`.
            Compare::Le => (false, true, total - bound),
            Compare::Lt => (false, true, total - bound + 1),
        };
        let terms: Vec<(Bool, i32)> = terms
            .into_iter()
            .map(|(l, w)| Some((if flip_terms { l.not() } else { l }, i32::try_from(w).ok()?)))
            .collect::<Option<_>>()?;
        let k = i32::try_from(k).ok()?;
        let refs: Vec<(&Bool, i32)> = terms.iter().map(|(l, w)| (l, *w)).collect();
        let stated = if refs.is_empty() {
            Bool::from_bool(if eq { k == 0 } else { k <= 0 })
        } else if eq {
            Bool::pb_eq(&refs, k)
        } else if k <= 0 {
            Bool::from_bool(true)
        } else if k == 1 && refs.iter().all(|&(_, w)| w >= 1) {
            let any: Vec<Bool> = refs.iter().map(|(l, _)| (*l).clone()).collect();
            Bool::or(&any)
        } else {
            Bool::pb_ge(&refs, k)
        };
        Some(if op == Compare::Ne {
            stated.not()
        } else {
            stated
        })
    }
}

/// `a op b` read the other way round: `k < y` is `y > k`.
fn flip(op: Compare) -> Compare {
    match op {
        Compare::Lt => Compare::Gt,
        Compare::Le => Compare::Ge,
        Compare::Gt => Compare::Lt,
        Compare::Ge => Compare::Le,
        same => same,
    }
}

fn passes(op: Compare, a: i64, b: i64) -> bool {
    match op {
        Compare::Eq => a == b,
        Compare::Ne => a != b,
        Compare::Lt => a < b,
        Compare::Le => a <= b,
        Compare::Gt => a > b,
        Compare::Ge => a >= b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::{SatResult, Solver};

    fn cell(c: usize) -> Box<Num<usize>> {
        Box::new(Num::Cell(c))
    }

    fn lit(n: i64) -> Box<Num<usize>> {
        Box::new(Num::Literal(n))
    }

    /// Formulas over cells 0, 1 and 2 of a 4x4 board, one of each shape
    /// this module states in its own terms, and one it leaves to integers.
    fn formulas() -> Vec<Test<usize>> {
        let mut all = Vec::new();
        for op in [
            Compare::Eq,
            Compare::Ne,
            Compare::Lt,
            Compare::Le,
            Compare::Gt,
            Compare::Ge,
        ] {
            all.push(Test::Compare(op, cell(0), cell(1)));
            all.push(Test::Compare(op, cell(0), lit(3)));
            all.push(Test::Compare(op, lit(2), cell(1)));
            // 2·a - b + (a < c ? 3 : -1) op c + 1
            all.push(Test::Compare(
                op,
                Box::new(Num::Add(vec![
                    Num::Mul(vec![Num::Literal(2), Num::Cell(0)]),
                    Num::Neg(cell(1)),
                    Num::If(
                        Box::new(Test::Compare(Compare::Lt, cell(0), cell(2))),
                        lit(3),
                        lit(-1),
                    ),
                ])),
                Box::new(Num::Sum(vec![Num::Cell(2), Num::Literal(1)])),
            ));
            // How many of a, b, c, 2 are 2, against c.
            all.push(Test::Compare(
                op,
                Box::new(Num::Count(
                    lit(2),
                    vec![Num::Cell(0), Num::Cell(1), Num::Cell(2), Num::Literal(2)],
                )),
                cell(2),
            ));
        }
        all.push(Test::Distinct(vec![
            Num::Cell(0),
            Num::Cell(1),
            Num::Cell(2),
        ]));
        all.push(Test::Implies(
            Box::new(Test::Not(Box::new(Test::Compare(
                Compare::Eq,
                cell(0),
                cell(2),
            )))),
            Box::new(Test::If(
                Box::new(Test::Compare(Compare::Gt, cell(1), lit(2))),
                Box::new(Test::Or(vec![
                    Test::Compare(Compare::Lt, cell(0), cell(2)),
                    Test::Literal(false),
                ])),
                Box::new(Test::And(vec![Test::Compare(
                    Compare::Le,
                    cell(2),
                    cell(1),
                )])),
            )),
        ));
        // Left to integers: a product of two cells, a remainder.
        all.push(Test::Compare(
            Compare::Eq,
            Box::new(Num::Mod(
                Box::new(Num::Mul(vec![Num::Cell(0), Num::Cell(1)])),
                lit(3),
            )),
            Box::new(Num::Sub(cell(2), lit(1))),
        ));
        all
    }

    #[test]
    fn each_assignment_satisfies_the_formula_as_the_rule_reads_it() {
        let size = Size::from_side(4).unwrap_or_default();
        let count = size.cells() * size.values();
        let vars: Vec<Bool> = (1..=count)
            .map(|n| Bool::new_const(super::super::onehot::name(size, n)))
            .collect();
        let solver = Solver::new();
        for test in formulas() {
            let stated = state(size, &vars, &test);
            for code in 0..64usize {
                let digits = [code % 4 + 1, code / 4 % 4 + 1, code / 16 + 1];
                solver.push();
                solver.assert(&stated);
                for (c, &d) in digits.iter().enumerate() {
                    for e in 1..=4u8 {
                        let v = &vars[variable(size, c, e) - 1];
                        solver.assert(if usize::from(e) == d {
                            v.clone()
                        } else {
                            v.not()
                        });
                    }
                }
                let holds = test.holds(&|c: &usize| digits[*c] as i128);
                let sat = solver.check() == SatResult::Sat;
                solver.pop(1);
                assert_eq!(sat, holds, "{test:?} on {digits:?}");
            }
        }
    }
}
