//! A rule written as a formula ([`Primitive::Formula`](crate::puzzle::primitive::Primitive::Formula))
//! stated to Z3, over any encoding's value of a cell: the `int` encoding's
//! `c_R_C`, or `Σ d · x_R_C_D` over the one-hot Booleans.
//!
//! Z3's finite-domain solver (`QF_FD`, which every encoding asks for)
//! takes bounded linear arithmetic with `ite`, and answers `unknown` for a
//! product of two unknowns, `div` or `mod` (tried on Z3 4.8.12: "interpreted
//! functions sent to SAT solver"). So those are stated linearly, value by
//! value, over the static range of one side (every cell ranging over its
//! digits, as [`Bounds`] reads it):
//! - `x · y` is `Σ_k ite(x = k, k · y, 0)` over the values `k` of the
//!   factor with fewer;
//! - `a / b` and `a % b` are fresh bounded integers `q`, `r` with
//!   `b = k ⇒ a = k · q + r ∧ 0 ≤ r < |k|` for each value `k ≠ 0` of `b`,
//!   and `b = 0 ⇒ q = 0 ∧ r = a`: exactly the semantics of
//!   [`expr`](crate::puzzle::expr) (Euclidean, total), since such `q`,
//!   `r` exist and are unique for every `a`, `b`.
//!
//! A side with more than [`SPLIT`] values keeps Z3's own `*`, `div` and
//! `mod` (`div` and `mod` guarded for a zero divisor); Z3 may then answer
//! `unknown`, which the engine reports as giving up, never as an answer.

use super::onehot::{Clause, variable};
use crate::puzzle::expr::{Bounds, Compare, Num, Range, Span, Test};
use crate::puzzle::grid::Size;
use crate::puzzle::kinds::formula::failing;
use z3::ast::{Ast, Bool, Int};

/// The most values a factor or divisor is split into.
const SPLIT: i128 = 1024;

/// The most assignments of a formula's cells the one-hot encodings try,
/// to state it as clauses (three cells on 9x9).
const CLAUSE_ASSIGNMENTS: usize = 1000;

/// `test` as one formula, each cell's value by `cell`, on a board of
/// `side`: the condition, and the definitions of the integers that state
/// its divisions.
pub(super) fn state(test: &Test<usize>, side: u8, cell: &dyn Fn(usize) -> Int) -> Bool {
    let all = Span {
        mask: u32::MAX >> (32 - u32::from(side)),
    };
    let span = move |_: &usize| all;
    let bounds = Bounds::new(&span);
    let mut stating = Stating {
        bounds: &bounds,
        cell,
        definitions: Vec::new(),
    };
    let condition = stating.test(test);
    let mut parts = stating.definitions;
    parts.push(condition);
    Bool::and(&parts)
}

/// `test` as clauses over the one-hot variables, one per assignment of
/// its cells that breaks it, when it reads few enough cells.
pub(super) fn clauses(size: Size, test: &Test<usize>) -> Option<Vec<Clause>> {
    let side = size.values() as u8;
    let (cells, failing) = failing(test, side, CLAUSE_ASSIGNMENTS)?;
    Some(
        failing
            .iter()
            .map(|digits| {
                cells
                    .iter()
                    .zip(digits)
                    // Variable numbers stop at 25³, far inside i32.
                    .map(|(&c, &d)| -(variable(size, c, d) as i32))
                    .collect()
            })
            .collect(),
    )
}

struct Stating<'a> {
    bounds: &'a Bounds<'a, usize>,
    cell: &'a dyn Fn(usize) -> Int,
    definitions: Vec<Bool>,
}

fn int(n: i128) -> Int {
    Int::from_i128(n)
}

/// The values of a range, when there are few enough to split on.
fn values(range: Range) -> Option<std::ops::RangeInclusive<i128>> {
    (range.low <= range.high && range.high - range.low < SPLIT).then_some(range.low..=range.high)
}

impl Stating<'_> {
    fn num(&mut self, num: &Num<usize>) -> Int {
        match num {
            Num::Literal(n) => int(i128::from(*n)),
            Num::Cell(c) => (self.cell)(*c),
            Num::Neg(a) => self.num(a).unary_minus(),
            Num::Add(xs) | Num::Sum(xs) => {
                let parts: Vec<Int> = xs.iter().map(|x| self.num(x)).collect();
                Int::add(&parts)
            }
            Num::Sub(a, b) => Int::sub(&[self.num(a), self.num(b)]),
            Num::Mul(xs) => {
                let mut factors = xs.iter();
                let Some(first) = factors.next() else {
                    return int(1);
                };
                let mut acc = (self.num(first), self.bounds.range(first));
                for x in factors {
                    let next = (self.num(x), self.bounds.range(x));
                    acc = product(acc, next);
                }
                acc.0
            }
            Num::Div(a, b) => self.division(a, b).0,
            Num::Mod(a, b) => self.division(a, b).1,
            Num::Abs(a) => {
                let a = self.num(a);
                a.ge(int(0)).ite(&a, &a.unary_minus())
            }
            Num::Min(xs) | Num::Max(xs) => {
                let min = matches!(num, Num::Min(_));
                let mut parts = xs
                    .iter()
                    .map(|x| self.num(x))
                    .collect::<Vec<_>>()
                    .into_iter();
                let first = parts.next().unwrap_or_else(|| int(0));
                parts.fold(first, |a, b| {
                    let keep_a = if min { a.le(&b) } else { a.ge(&b) };
                    keep_a.ite(&a, &b)
                })
            }
            Num::If(t, a, b) => {
                let t = self.test(t);
                t.ite(&self.num(a), &self.num(b))
            }
            Num::Count(d, xs) => {
                let d = self.num(d);
                let hits: Vec<Int> = xs
                    .iter()
                    .map(|x| self.num(x).eq(&d).ite(&int(1), &int(0)))
                    .collect();
                Int::add(&hits)
            }
        }
    }

    /// `a / b` and `a % b`, as the module's notes say.
    fn division(&mut self, a: &Num<usize>, b: &Num<usize>) -> (Int, Int) {
        let (x, y) = (self.num(a), self.num(b));
        let (ra, rb) = (self.bounds.range(a), self.bounds.range(b));
        let Some(divisors) = values(rb) else {
            let zero = y.eq(int(0));
            return (zero.ite(&int(0), &x.div(&y)), zero.ite(&x, &x.modulo(&y)));
        };
        let q = Int::fresh_const("q");
        let r = Int::fresh_const("r");
        // Bounds for the finite-domain solver: `q` within `a`'s magnitude,
        // `r` within the divisor's, or `a` itself for a zero divisor.
        let magnitude = ra.low.abs().max(ra.high.abs());
        let largest = rb.low.abs().max(rb.high.abs());
        let (mut r_low, mut r_high) = (0, (largest - 1).max(0));
        if rb.low <= 0 && 0 <= rb.high {
            r_low = r_low.min(ra.low);
            r_high = r_high.max(ra.high);
        }
        let mut definitions = vec![
            q.ge(int(-magnitude)),
            q.le(int(magnitude)),
            r.ge(int(r_low)),
            r.le(int(r_high)),
        ];
        let single = rb.low == rb.high;
        for k in divisors {
            let holds = if k == 0 {
                Bool::and(&[q.eq(int(0)), r.eq(&x)])
            } else {
                Bool::and(&[
                    x.eq(Int::add(&[Int::mul(&[&int(k), &q]), r.clone()])),
                    r.ge(int(0)),
                    r.lt(int(k.abs())),
                ])
            };
            definitions.push(if single {
                holds
            } else {
                y.eq(int(k)).implies(&holds)
            });
        }
        self.definitions.extend(definitions);
        (q, r)
    }

    fn test(&mut self, test: &Test<usize>) -> Bool {
        match test {
            Test::Literal(b) => Bool::from_bool(*b),
            Test::Compare(op, a, b) => {
                let (a, b) = (self.num(a), self.num(b));
                match op {
                    Compare::Eq => a.eq(&b),
                    Compare::Ne => a.eq(&b).not(),
                    Compare::Lt => a.lt(&b),
                    Compare::Le => a.le(&b),
                    Compare::Gt => a.gt(&b),
                    Compare::Ge => a.ge(&b),
                }
            }
            Test::Not(t) => self.test(t).not(),
            Test::And(ts) => {
                let parts: Vec<Bool> = ts.iter().map(|t| self.test(t)).collect();
                Bool::and(&parts)
            }
            Test::Or(ts) => {
                let parts: Vec<Bool> = ts.iter().map(|t| self.test(t)).collect();
                Bool::or(&parts)
            }
            Test::Implies(a, b) => {
                let a = self.test(a);
                a.implies(self.test(b))
            }
            Test::If(c, a, b) => {
                let c = self.test(c);
                c.ite(&self.test(a), &self.test(b))
            }
            Test::Distinct(xs) => {
                let parts: Vec<Int> = xs.iter().map(|x| self.num(x)).collect();
                if parts.len() < 2 {
                    Bool::from_bool(true)
                } else {
                    Int::distinct(&parts)
                }
            }
        }
    }
}

/// `x · y` with their ranges, linear when one side has few values.
fn product((x, rx): (Int, Range), (y, ry): (Int, Range)) -> (Int, Range) {
    let corners = [
        rx.low.saturating_mul(ry.low),
        rx.low.saturating_mul(ry.high),
        rx.high.saturating_mul(ry.low),
        rx.high.saturating_mul(ry.high),
    ];
    let range = Range {
        low: corners.iter().copied().min().unwrap_or(0),
        high: corners.iter().copied().max().unwrap_or(0),
    };
    let width = |r: Range| r.high.saturating_sub(r.low);
    let (split, other, values_of) = if width(rx) <= width(ry) {
        (&x, &y, rx)
    } else {
        (&y, &x, ry)
    };
    let term = match values(values_of) {
        Some(_) if values_of.low == values_of.high => Int::mul(&[&int(values_of.low), other]),
        Some(ks) => {
            let zero = int(0);
            let parts: Vec<Int> = ks
                .map(|k| split.eq(int(k)).ite(&Int::mul(&[&int(k), other]), &zero))
                .collect();
            Int::add(&parts)
        }
        None => Int::mul(&[&x, &y]),
    };
    (term, range)
}

/// A one-hot cell's digit, `Σ d · x_d`, as an `Int`.
pub(super) fn one_hot_value(size: Size, vars: &[Bool], cell: usize) -> Int {
    let zero = int(0);
    let parts: Vec<Int> = (1..=size.values() as u8)
        .map(|d| vars[variable(size, cell, d) - 1].ite(&int(i128::from(d)), &zero))
        .collect();
    Int::add(&parts)
}
