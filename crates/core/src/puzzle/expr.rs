//! Formulas over cells: the typed tree that `formula` and `smt` rule lines
//! are read into (see [`expr_parse`](super::expr_parse)), its value on a
//! full grid, and what it still allows on a partly filled one.
//!
//! A formula is a [`Test`] (a condition: true or false) built from
//! [`Num`]s (integers). The two are apart in the types, so a tree that
//! mixes them (`r1c1 = 2 and r2c2`) cannot be built: the reader refuses it
//! where it stands.
//!
//! **Integer division and remainder** are SMT-LIB's (Euclidean): for
//! `b ≠ 0`, `a / b` is the `q` and `a % b` the `r` with `a = b·q + r` and
//! `0 ≤ r < |b|`, so a remainder is never negative (`-7 / 2 = -4`,
//! `-7 % 2 = 1`, `7 / -2 = -3`, `7 % -2 = 1`). They were chosen over
//! truncation (Rust's and C's `/`, `%`) because Z3 is where such rules are
//! at home: its `div` and `mod` are these, so the `int` encoding states
//! the formula as written and an `smt (assert …)` line means the same as
//! the `formula` line it mirrors. Rust's `div_euclid` and `rem_euclid` are
//! the same functions.
//!
//! **Division by zero** is total, as in Lean and Isabelle: `a / 0 = 0` and
//! `a % 0 = a` (which keeps `a = b·(a / b) + a % b`). SMT-LIB leaves it
//! unspecified, which a checker cannot evaluate, and making the whole
//! formula false would depend on which branch of an `if` was "taken".
//! Every back end states exactly this: Z3 gets `ite(b = 0, 0, a div b)`.
//! A literal `0` as a divisor is refused when the line is read, since it
//! is always a slip.
//!
//! **Sizes.** Each number a formula can reach on its board (every node,
//! with every cell ranging over `1..=N`) must lie within `±2^62`
//! ([`LIMIT`]); the reader refuses a formula that could go beyond. So the
//! checker's and the native engine's `i128` arithmetic is exact, and
//! agrees with Z3's unbounded integers.

use std::fmt;

/// The largest magnitude any part of a formula may reach.
pub const LIMIT: i128 = 1 << 62;

/// A comparison between two numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compare {
    /// `=`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
}

impl Compare {
    /// Its symbol in a `formula` line.
    pub fn symbol(self) -> &'static str {
        match self {
            Compare::Eq => "=",
            Compare::Ne => "!=",
            Compare::Lt => "<",
            Compare::Le => "<=",
            Compare::Gt => ">",
            Compare::Ge => ">=",
        }
    }

    /// Whether `a` and `b` stand so.
    pub fn holds(self, a: i128, b: i128) -> bool {
        match self {
            Compare::Eq => a == b,
            Compare::Ne => a != b,
            Compare::Lt => a < b,
            Compare::Le => a <= b,
            Compare::Gt => a > b,
            Compare::Ge => a >= b,
        }
    }
}

/// An integer over cells of type `C` (a [`Cell`](super::grid::Cell) as
/// the rule states it, a row-major index once lowered).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Num<C> {
    /// A number.
    Literal(i64),
    /// A cell's digit.
    Cell(C),
    /// `-a`.
    Neg(Box<Num<C>>),
    /// `a + b + …`, two terms or more.
    Add(Vec<Num<C>>),
    /// `a - b`.
    Sub(Box<Num<C>>, Box<Num<C>>),
    /// `a * b * …`, two factors or more.
    Mul(Vec<Num<C>>),
    /// `a / b`, Euclidean, `a / 0 = 0` (see the module's notes).
    Div(Box<Num<C>>, Box<Num<C>>),
    /// `a % b`, Euclidean (never negative), `a % 0 = a`.
    Mod(Box<Num<C>>, Box<Num<C>>),
    /// `abs(a)`.
    Abs(Box<Num<C>>),
    /// `min(a, b, …)`, one argument or more.
    Min(Vec<Num<C>>),
    /// `max(a, b, …)`, one argument or more.
    Max(Vec<Num<C>>),
    /// `if t then a else b`.
    If(Box<Test<C>>, Box<Num<C>>, Box<Num<C>>),
    /// `sum(a, b, …)`, one argument or more.
    Sum(Vec<Num<C>>),
    /// `count(d, a, b, …)`: how many of `a, b, …` equal `d`.
    Count(Box<Num<C>>, Vec<Num<C>>),
}

/// A condition over cells of type `C`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Test<C> {
    /// `true` or `false`.
    Literal(bool),
    /// Two numbers compared.
    Compare(Compare, Box<Num<C>>, Box<Num<C>>),
    /// `not t`.
    Not(Box<Test<C>>),
    /// `t and u and …`, two or more.
    And(Vec<Test<C>>),
    /// `t or u or …`, two or more.
    Or(Vec<Test<C>>),
    /// `t => u`.
    Implies(Box<Test<C>>, Box<Test<C>>),
    /// `if t then u else v`.
    If(Box<Test<C>>, Box<Test<C>>, Box<Test<C>>),
    /// `distinct(a, b, …)`: no two of them equal.
    Distinct(Vec<Num<C>>),
}

/// `a / b` as the module's notes define it.
pub fn divide(a: i128, b: i128) -> i128 {
    if b == 0 { 0 } else { a.div_euclid(b) }
}

/// `a % b` as the module's notes define it.
pub fn remainder(a: i128, b: i128) -> i128 {
    if b == 0 { a } else { a.rem_euclid(b) }
}

impl<C> Num<C> {
    /// The same number over cells `map` gives.
    pub fn map<D>(&self, map: &dyn Fn(&C) -> D) -> Num<D> {
        let all = |xs: &[Num<C>]| xs.iter().map(|x| x.map(map)).collect();
        let one = |x: &Num<C>| Box::new(x.map(map));
        match self {
            Num::Literal(n) => Num::Literal(*n),
            Num::Cell(c) => Num::Cell(map(c)),
            Num::Neg(a) => Num::Neg(one(a)),
            Num::Add(xs) => Num::Add(all(xs)),
            Num::Sub(a, b) => Num::Sub(one(a), one(b)),
            Num::Mul(xs) => Num::Mul(all(xs)),
            Num::Div(a, b) => Num::Div(one(a), one(b)),
            Num::Mod(a, b) => Num::Mod(one(a), one(b)),
            Num::Abs(a) => Num::Abs(one(a)),
            Num::Min(xs) => Num::Min(all(xs)),
            Num::Max(xs) => Num::Max(all(xs)),
            Num::If(t, a, b) => Num::If(Box::new(t.map(map)), one(a), one(b)),
            Num::Sum(xs) => Num::Sum(all(xs)),
            Num::Count(d, xs) => Num::Count(one(d), all(xs)),
        }
    }

    /// Adds the cells it reads to `out`, in order, repeats included.
    pub fn cells_into<'a>(&'a self, out: &mut Vec<&'a C>) {
        match self {
            Num::Literal(_) => {}
            Num::Cell(c) => out.push(c),
            Num::Neg(a) | Num::Abs(a) => a.cells_into(out),
            Num::Sub(a, b) | Num::Div(a, b) | Num::Mod(a, b) => {
                a.cells_into(out);
                b.cells_into(out);
            }
            Num::Add(xs) | Num::Mul(xs) | Num::Min(xs) | Num::Max(xs) | Num::Sum(xs) => {
                xs.iter().for_each(|x| x.cells_into(out));
            }
            Num::If(t, a, b) => {
                t.cells_into(out);
                a.cells_into(out);
                b.cells_into(out);
            }
            Num::Count(d, xs) => {
                d.cells_into(out);
                xs.iter().for_each(|x| x.cells_into(out));
            }
        }
    }

    /// Its value when each cell holds `digit(cell)`: plain arithmetic, as
    /// the module's notes define it.
    pub fn value(&self, digit: &dyn Fn(&C) -> i128) -> i128 {
        let values = |xs: &[Num<C>]| xs.iter().map(|x| x.value(digit)).collect::<Vec<_>>();
        match self {
            Num::Literal(n) => i128::from(*n),
            Num::Cell(c) => digit(c),
            Num::Neg(a) => -a.value(digit),
            Num::Add(xs) | Num::Sum(xs) => values(xs).iter().sum(),
            Num::Sub(a, b) => a.value(digit) - b.value(digit),
            Num::Mul(xs) => values(xs).iter().product(),
            Num::Div(a, b) => divide(a.value(digit), b.value(digit)),
            Num::Mod(a, b) => remainder(a.value(digit), b.value(digit)),
            Num::Abs(a) => a.value(digit).abs(),
            Num::Min(xs) => values(xs).into_iter().min().unwrap_or(0),
            Num::Max(xs) => values(xs).into_iter().max().unwrap_or(0),
            Num::If(t, a, b) => {
                if t.holds(digit) {
                    a.value(digit)
                } else {
                    b.value(digit)
                }
            }
            Num::Count(d, xs) => {
                let d = d.value(digit);
                values(xs).into_iter().filter(|&x| x == d).count() as i128
            }
        }
    }
}

impl<C> Test<C> {
    /// The same condition over cells `map` gives.
    pub fn map<D>(&self, map: &dyn Fn(&C) -> D) -> Test<D> {
        let all = |ts: &[Test<C>]| ts.iter().map(|t| t.map(map)).collect();
        let one = |t: &Test<C>| Box::new(t.map(map));
        match self {
            Test::Literal(b) => Test::Literal(*b),
            Test::Compare(op, a, b) => {
                Test::Compare(*op, Box::new(a.map(map)), Box::new(b.map(map)))
            }
            Test::Not(t) => Test::Not(one(t)),
            Test::And(ts) => Test::And(all(ts)),
            Test::Or(ts) => Test::Or(all(ts)),
            Test::Implies(a, b) => Test::Implies(one(a), one(b)),
            Test::If(c, a, b) => Test::If(one(c), one(a), one(b)),
            Test::Distinct(xs) => Test::Distinct(xs.iter().map(|x| x.map(map)).collect()),
        }
    }

    /// Adds the cells it reads to `out`, in order, repeats included.
    pub fn cells_into<'a>(&'a self, out: &mut Vec<&'a C>) {
        match self {
            Test::Literal(_) => {}
            Test::Compare(_, a, b) => {
                a.cells_into(out);
                b.cells_into(out);
            }
            Test::Not(t) => t.cells_into(out),
            Test::And(ts) | Test::Or(ts) => ts.iter().for_each(|t| t.cells_into(out)),
            Test::Implies(a, b) => {
                a.cells_into(out);
                b.cells_into(out);
            }
            Test::If(c, a, b) => {
                c.cells_into(out);
                a.cells_into(out);
                b.cells_into(out);
            }
            Test::Distinct(xs) => xs.iter().for_each(|x| x.cells_into(out)),
        }
    }

    /// The cells it reads, each once, in the order first read.
    pub fn cells(&self) -> Vec<C>
    where
        C: Clone + PartialEq,
    {
        let mut all = Vec::new();
        self.cells_into(&mut all);
        let mut once: Vec<C> = Vec::new();
        for c in all {
            if !once.contains(c) {
                once.push(c.clone());
            }
        }
        once
    }

    /// Whether it holds when each cell holds `digit(cell)`.
    pub fn holds(&self, digit: &dyn Fn(&C) -> i128) -> bool {
        match self {
            Test::Literal(b) => *b,
            Test::Compare(op, a, b) => op.holds(a.value(digit), b.value(digit)),
            Test::Not(t) => !t.holds(digit),
            Test::And(ts) => ts.iter().all(|t| t.holds(digit)),
            Test::Or(ts) => ts.iter().any(|t| t.holds(digit)),
            Test::Implies(a, b) => !a.holds(digit) || b.holds(digit),
            Test::If(c, a, b) => {
                if c.holds(digit) {
                    a.holds(digit)
                } else {
                    b.holds(digit)
                }
            }
            Test::Distinct(xs) => {
                let values: Vec<i128> = xs.iter().map(|x| x.value(digit)).collect();
                values
                    .iter()
                    .enumerate()
                    .all(|(k, v)| !values[k + 1..].contains(v))
            }
        }
    }
}

/// What a cell may still hold: its digit when filled, else its candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// The digits it may hold, bit `d - 1` for digit `d`.
    pub mask: u32,
}

impl Span {
    fn range(self) -> Range {
        if self.mask == 0 {
            return Range::EMPTY;
        }
        Range {
            low: i128::from(self.mask.trailing_zeros() + 1),
            high: i128::from(32 - self.mask.leading_zeros()),
        }
    }
}

/// The integers a number may still take: `low..=high`, or none when
/// `low > high` (a cell without candidates).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    /// The least.
    pub low: i128,
    /// The greatest.
    pub high: i128,
}

impl Range {
    const EMPTY: Range = Range { low: 1, high: 0 };

    fn point(n: i128) -> Range {
        Range { low: n, high: n }
    }

    fn is_empty(self) -> bool {
        self.low > self.high
    }

    fn single(self) -> Option<i128> {
        (self.low == self.high).then_some(self.low)
    }

    fn hull(self, other: Range) -> Range {
        if self.is_empty() {
            return other;
        }
        if other.is_empty() {
            return self;
        }
        Range {
            low: self.low.min(other.low),
            high: self.high.max(other.high),
        }
    }

    /// The least and greatest of `f` over the corners of `self × other`.
    fn corners(self, other: Range, f: impl Fn(i128, i128) -> i128) -> Range {
        if self.is_empty() || other.is_empty() {
            return Range::EMPTY;
        }
        let values = [
            f(self.low, other.low),
            f(self.low, other.high),
            f(self.high, other.low),
            f(self.high, other.high),
        ];
        Range {
            low: values.iter().copied().min().unwrap_or(0),
            high: values.iter().copied().max().unwrap_or(0),
        }
    }
}

/// Whether a condition may still come out true, and whether false.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Truth {
    /// It may be true.
    pub can_hold: bool,
    /// It may be false.
    pub can_fail: bool,
}

impl Truth {
    fn of(can_hold: bool, can_fail: bool) -> Truth {
        Truth { can_hold, can_fail }
    }

    fn not(self) -> Truth {
        Truth::of(self.can_fail, self.can_hold)
    }
}

/// Reading a formula over what its cells may still hold: each cell's
/// [`Span`], and whether some part went past [`LIMIT`].
pub struct Bounds<'a, C> {
    span: &'a dyn Fn(&C) -> Span,
    over: std::cell::Cell<bool>,
}

impl<'a, C> Bounds<'a, C> {
    /// Bounds with each cell's candidates from `span`.
    pub fn new(span: &'a dyn Fn(&C) -> Span) -> Bounds<'a, C> {
        Bounds {
            span,
            over: std::cell::Cell::new(false),
        }
    }

    /// Whether some part of what was read could go past [`LIMIT`].
    pub fn over_limit(&self) -> bool {
        self.over.get()
    }

    /// The integers `num` may still take. Sound (every value it can take
    /// lies within) and exact when every cell it reads is filled.
    pub fn range(&self, num: &Num<C>) -> Range {
        let range = self.range_of(num);
        if !range.is_empty() && (range.low < -LIMIT || range.high > LIMIT) {
            self.over.set(true);
        }
        range
    }

    fn range_of(&self, num: &Num<C>) -> Range {
        let fold = |xs: &[Num<C>], f: &dyn Fn(Range, Range) -> Range| {
            let mut ranges = xs.iter().map(|x| self.range(x));
            let first = ranges.next().unwrap_or(Range::EMPTY);
            ranges.fold(first, f)
        };
        match num {
            Num::Literal(n) => Range::point(i128::from(*n)),
            Num::Cell(c) => (self.span)(c).range(),
            Num::Neg(a) => {
                let a = self.range(a);
                Range {
                    low: a.high.saturating_neg(),
                    high: a.low.saturating_neg(),
                }
            }
            Num::Add(xs) | Num::Sum(xs) => fold(xs, &|a, b| a.corners(b, i128::saturating_add)),
            Num::Sub(a, b) => self.range(a).corners(self.range(b), i128::saturating_sub),
            Num::Mul(xs) => fold(xs, &|a, b| a.corners(b, i128::saturating_mul)),
            Num::Div(a, b) => divide_range(self.range(a), self.range(b)),
            Num::Mod(a, b) => remainder_range(self.range(a), self.range(b)),
            Num::Abs(a) => {
                let a = self.range(a);
                match a {
                    _ if a.is_empty() => a,
                    Range { low, .. } if low >= 0 => a,
                    Range { high, .. } if high <= 0 => Range {
                        low: high.saturating_neg(),
                        high: a.low.saturating_neg(),
                    },
                    _ => Range {
                        low: 0,
                        high: a.low.saturating_neg().max(a.high),
                    },
                }
            }
            Num::Min(xs) => fold(xs, &|a, b| a.corners(b, i128::min)),
            Num::Max(xs) => fold(xs, &|a, b| a.corners(b, i128::max)),
            Num::If(t, a, b) => {
                let truth = self.truth(t);
                let mut range = Range::EMPTY;
                // Both branches are read, so that every part is checked
                // against the limit whatever the condition.
                let (a, b) = (self.range(a), self.range(b));
                if truth.can_hold {
                    range = range.hull(a);
                }
                if truth.can_fail {
                    range = range.hull(b);
                }
                range
            }
            Num::Count(d, xs) => {
                let target = self.range(d);
                let (mut must, mut may) = (0, 0);
                for x in xs {
                    let (can, always) = self.equality(x, target);
                    may += i128::from(can);
                    must += i128::from(always);
                }
                Range {
                    low: must,
                    high: may,
                }
            }
        }
    }

    /// Whether `x` may equal a number in `target`, and whether it must.
    /// A cell against a single number is read digit by digit, so that a
    /// hole among its candidates counts.
    fn equality(&self, x: &Num<C>, target: Range) -> (bool, bool) {
        let range = self.range(x);
        if range.is_empty() || target.is_empty() {
            return (false, false);
        }
        let overlap = range.low <= target.high && target.low <= range.high;
        let always = range.single().is_some() && range.single() == target.single();
        match (x, target.single()) {
            (Num::Cell(c), Some(d)) => {
                let mask = (self.span)(c).mask;
                let has = (1..=32).contains(&d) && mask >> (d - 1) & 1 == 1;
                (has, always)
            }
            _ => (overlap, always),
        }
    }

    /// Whether `test` may still hold, and whether it may fail. Sound, and
    /// exact when every cell it reads is filled.
    pub fn truth(&self, test: &Test<C>) -> Truth {
        match test {
            Test::Literal(b) => Truth::of(*b, !*b),
            Test::Compare(op, a, b) => {
                let (x, y) = (self.range(a), self.range(b));
                if x.is_empty() || y.is_empty() {
                    return Truth::of(false, false);
                }
                match op {
                    Compare::Eq | Compare::Ne => {
                        let (can, always) = match (&**a, &**b) {
                            (_, Num::Cell(_)) if x.single().is_some() => self.equality(b, x),
                            _ => self.equality(a, y),
                        };
                        let eq = Truth::of(can, !always);
                        if *op == Compare::Eq { eq } else { eq.not() }
                    }
                    Compare::Lt => Truth::of(x.low < y.high, x.high >= y.low),
                    Compare::Le => Truth::of(x.low <= y.high, x.high > y.low),
                    Compare::Gt => Truth::of(x.high > y.low, x.low <= y.high),
                    Compare::Ge => Truth::of(x.high >= y.low, x.low < y.high),
                }
            }
            Test::Not(t) => self.truth(t).not(),
            // Folded rather than collected: the native engine asks this
            // for every candidate of every cell the formula reads.
            Test::And(ts) => ts.iter().fold(Truth::of(true, false), |acc, t| {
                let t = self.truth(t);
                Truth::of(acc.can_hold && t.can_hold, acc.can_fail || t.can_fail)
            }),
            Test::Or(ts) => ts.iter().fold(Truth::of(false, true), |acc, t| {
                let t = self.truth(t);
                Truth::of(acc.can_hold || t.can_hold, acc.can_fail && t.can_fail)
            }),
            Test::Implies(a, b) => {
                let (a, b) = (self.truth(a), self.truth(b));
                Truth::of(a.can_fail || b.can_hold, a.can_hold && b.can_fail)
            }
            Test::If(c, a, b) => {
                let (c, a, b) = (self.truth(c), self.truth(a), self.truth(b));
                Truth::of(
                    (c.can_hold && a.can_hold) || (c.can_fail && b.can_hold),
                    (c.can_hold && a.can_fail) || (c.can_fail && b.can_fail),
                )
            }
            Test::Distinct(xs) => {
                let ranges: Vec<Range> = xs.iter().map(|x| self.range(x)).collect();
                if ranges.iter().any(|r| r.is_empty()) {
                    return Truth::of(false, false);
                }
                let (mut can_fail, mut can_hold) = (false, true);
                for i in 0..xs.len() {
                    for j in i + 1..xs.len() {
                        let (can, always) = match ranges[j].single() {
                            Some(_) if matches!(xs[i], Num::Cell(_)) => {
                                self.equality(&xs[i], ranges[j])
                            }
                            _ => self.equality(&xs[j], ranges[i]),
                        };
                        can_fail |= can;
                        can_hold &= !always;
                    }
                }
                // Cells alone: as many digits among them as cells.
                let cells: Option<Vec<u32>> = xs
                    .iter()
                    .map(|x| match x {
                        Num::Cell(c) => Some((self.span)(c).mask),
                        _ => None,
                    })
                    .collect();
                if let Some(masks) = cells {
                    let union = masks.iter().fold(0, |u, m| u | m);
                    can_hold &= union.count_ones() as usize >= masks.len();
                }
                Truth::of(can_hold, can_fail)
            }
        }
    }
}

/// The range of `a / b`: the divisor's negative and positive parts each
/// take their least and greatest at the corners (Euclidean division is
/// monotone in each argument once the divisor's sign is fixed), and a
/// divisor that may be 0 adds 0.
fn divide_range(a: Range, b: Range) -> Range {
    let mut range = Range::EMPTY;
    for part in divisor_parts(b) {
        range = range.hull(a.corners(part, divide));
    }
    if !a.is_empty() && b.low <= 0 && 0 <= b.high {
        range = range.hull(Range::point(0));
    }
    range
}

/// The range of `a % b`: `0..|b| - 1` for a divisor other than 0 (no more
/// than `a` itself when `a` is not negative, and exact for two single
/// numbers), and `a` when the divisor may be 0.
fn remainder_range(a: Range, b: Range) -> Range {
    if a.is_empty() || b.is_empty() {
        return Range::EMPTY;
    }
    let mut range = Range::EMPTY;
    if let (Some(x), Some(y)) = (a.single(), b.single()) {
        return Range::point(remainder(x, y));
    }
    for part in divisor_parts(b) {
        let largest = part.low.saturating_abs().max(part.high.saturating_abs());
        let mut high = largest - 1;
        if a.low >= 0 {
            high = high.min(a.high);
        }
        range = range.hull(Range { low: 0, high });
    }
    if b.low <= 0 && 0 <= b.high {
        range = range.hull(a);
    }
    range
}

/// The negative and the positive parts of a divisor's range (each empty
/// when the divisor has none).
fn divisor_parts(b: Range) -> impl Iterator<Item = Range> {
    let negative = Range {
        low: b.low,
        high: b.high.min(-1),
    };
    let positive = Range {
        low: b.low.max(1),
        high: b.high,
    };
    [negative, positive].into_iter().filter(|r| !r.is_empty())
}

/// How a formula is written: as a `formula` line or an `smt` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Syntax {
    /// `formula r1c1 + r1c2 = 2 * r3c3`.
    Formula,
    /// `smt (assert (= (+ c_1_1 c_1_2) (* 2 c_3_3)))`.
    Smt,
}

/// A condition written in a syntax, with how to name its cells: prints
/// as the line reads (without the line's first word).
pub struct Written<'a, C> {
    /// The condition.
    pub test: &'a Test<C>,
    /// The syntax.
    pub syntax: Syntax,
    /// A cell's name.
    pub name: &'a dyn Fn(&C) -> String,
}

impl<C> fmt::Display for Written<'_, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::new();
        match self.syntax {
            Syntax::Formula => infix_test(self.test, 0, self.name, &mut text),
            Syntax::Smt => {
                text.push_str("(assert ");
                smt_test(self.test, self.name, &mut text);
                text.push(')');
            }
        }
        f.write_str(&text)
    }
}

/// How tightly an operator binds in a `formula` line, loosest first.
mod level {
    pub const IF: u8 = 0;
    pub const OR: u8 = 1;
    pub const AND: u8 = 2;
    pub const NOT: u8 = 3;
    pub const COMPARE: u8 = 4;
    pub const ADD: u8 = 5;
    pub const MUL: u8 = 6;
    pub const NEG: u8 = 7;
}

/// Writes `body` at its own `level`, in brackets when the place it goes
/// (`context`) binds tighter.
fn bracket(level: u8, context: u8, out: &mut String, body: impl FnOnce(&mut String)) {
    if level < context {
        out.push('(');
        body(out);
        out.push(')');
    } else {
        body(out);
    }
}

fn infix_list<C>(xs: &[Num<C>], name: &dyn Fn(&C) -> String, out: &mut String) {
    for (k, x) in xs.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        infix_num(x, level::IF, name, out);
    }
}

fn infix_num<C>(num: &Num<C>, context: u8, name: &dyn Fn(&C) -> String, out: &mut String) {
    let call = |word: &str, xs: &[Num<C>], out: &mut String| {
        out.push_str(word);
        out.push('(');
        infix_list(xs, name, out);
        out.push(')');
    };
    // A chain `a + b + c` is one node: a term that is itself a chain of
    // the same operator goes in brackets, so that it reads back as it is.
    let chain = |xs: &[Num<C>], symbol: &str, me: u8, out: &mut String| {
        bracket(me, context, out, |out| {
            for (k, x) in xs.iter().enumerate() {
                if k > 0 {
                    out.push_str(symbol);
                }
                let same = matches!(
                    (x, me),
                    (Num::Add(_), level::ADD) | (Num::Mul(_), level::MUL)
                );
                let at = if k == 0 && !same { me } else { me + 1 };
                infix_num(x, at, name, out);
            }
        })
    };
    let binary = |a: &Num<C>, symbol: &str, b: &Num<C>, me: u8, out: &mut String| {
        bracket(me, context, out, |out| {
            infix_num(a, me, name, out);
            out.push_str(symbol);
            infix_num(b, me + 1, name, out);
        })
    };
    match num {
        Num::Literal(n) => {
            let _ = fmt::Write::write_fmt(out, format_args!("{n}"));
        }
        Num::Cell(c) => out.push_str(&name(c)),
        Num::Neg(a) => bracket(level::NEG, context, out, |out| {
            out.push('-');
            infix_num(a, level::NEG, name, out);
        }),
        Num::Add(xs) => chain(xs, " + ", level::ADD, out),
        Num::Sub(a, b) => binary(a, " - ", b, level::ADD, out),
        Num::Mul(xs) => chain(xs, " * ", level::MUL, out),
        Num::Div(a, b) => binary(a, " / ", b, level::MUL, out),
        Num::Mod(a, b) => binary(a, " % ", b, level::MUL, out),
        Num::Abs(a) => call("abs", std::slice::from_ref(&**a), out),
        Num::Min(xs) => call("min", xs, out),
        Num::Max(xs) => call("max", xs, out),
        Num::Sum(xs) => call("sum", xs, out),
        Num::Count(d, xs) => {
            out.push_str("count(");
            infix_num(d, level::IF, name, out);
            for x in xs {
                out.push_str(", ");
                infix_num(x, level::IF, name, out);
            }
            out.push(')');
        }
        Num::If(t, a, b) => bracket(level::IF, context, out, |out| {
            out.push_str("if ");
            infix_test(t, level::IF, name, out);
            out.push_str(" then ");
            infix_num(a, level::IF, name, out);
            out.push_str(" else ");
            infix_num(b, level::IF, name, out);
        }),
    }
}

fn infix_test<C>(test: &Test<C>, context: u8, name: &dyn Fn(&C) -> String, out: &mut String) {
    let chain = |ts: &[Test<C>], symbol: &str, me: u8, out: &mut String| {
        bracket(me, context, out, |out| {
            for (k, t) in ts.iter().enumerate() {
                if k > 0 {
                    out.push_str(symbol);
                }
                infix_test(t, me + 1, name, out);
            }
        })
    };
    match test {
        Test::Literal(b) => out.push_str(if *b { "true" } else { "false" }),
        Test::Compare(op, a, b) => bracket(level::COMPARE, context, out, |out| {
            infix_num(a, level::ADD, name, out);
            out.push(' ');
            out.push_str(op.symbol());
            out.push(' ');
            infix_num(b, level::ADD, name, out);
        }),
        Test::Not(t) => bracket(level::NOT, context, out, |out| {
            out.push_str("not ");
            infix_test(t, level::NOT, name, out);
        }),
        Test::And(ts) => chain(ts, " and ", level::AND, out),
        Test::Or(ts) => chain(ts, " or ", level::OR, out),
        // `=>` groups to the right: `a => b => c` is `a => (b => c)`.
        Test::Implies(a, b) => bracket(level::IF, context, out, |out| {
            infix_test(a, level::OR, name, out);
            out.push_str(" => ");
            infix_test(b, level::IF, name, out);
        }),
        Test::If(c, a, b) => bracket(level::IF, context, out, |out| {
            out.push_str("if ");
            infix_test(c, level::IF, name, out);
            out.push_str(" then ");
            infix_test(a, level::IF, name, out);
            out.push_str(" else ");
            infix_test(b, level::IF, name, out);
        }),
        Test::Distinct(xs) => {
            out.push_str("distinct(");
            infix_list(xs, name, out);
            out.push(')');
        }
    }
}

fn smt_apply<C>(op: &str, xs: &[Num<C>], name: &dyn Fn(&C) -> String, out: &mut String) {
    out.push('(');
    out.push_str(op);
    for x in xs {
        out.push(' ');
        smt_num(x, name, out);
    }
    out.push(')');
}

fn smt_num<C>(num: &Num<C>, name: &dyn Fn(&C) -> String, out: &mut String) {
    let two = |op: &str, a: &Num<C>, b: &Num<C>, out: &mut String| {
        out.push('(');
        out.push_str(op);
        out.push(' ');
        smt_num(a, name, out);
        out.push(' ');
        smt_num(b, name, out);
        out.push(')');
    };
    match num {
        Num::Literal(n) if *n < 0 => {
            let _ = fmt::Write::write_fmt(out, format_args!("(- {})", n.unsigned_abs()));
        }
        Num::Literal(n) => {
            let _ = fmt::Write::write_fmt(out, format_args!("{n}"));
        }
        Num::Cell(c) => out.push_str(&name(c)),
        Num::Neg(a) => smt_apply("-", std::slice::from_ref(&**a), name, out),
        Num::Add(xs) | Num::Sum(xs) => match &xs[..] {
            [only] => smt_num(only, name, out),
            _ => smt_apply("+", xs, name, out),
        },
        Num::Sub(a, b) => two("-", a, b, out),
        Num::Mul(xs) => smt_apply("*", xs, name, out),
        Num::Div(a, b) => two("div", a, b, out),
        Num::Mod(a, b) => two("mod", a, b, out),
        Num::Abs(a) => smt_apply("abs", std::slice::from_ref(&**a), name, out),
        // SMT-LIB has no min or max: nested `ite`s say them.
        Num::Min(xs) => fold_tail(xs, "<=", name, out),
        Num::Max(xs) => fold_tail(xs, ">=", name, out),
        Num::If(t, a, b) => {
            out.push_str("(ite ");
            smt_test(t, name, out);
            out.push(' ');
            smt_num(a, name, out);
            out.push(' ');
            smt_num(b, name, out);
            out.push(')');
        }
        Num::Count(d, xs) => {
            out.push_str("(+");
            for x in xs {
                out.push_str(" (ite (= ");
                smt_num(x, name, out);
                out.push(' ');
                smt_num(d, name, out);
                out.push_str(") 1 0)");
            }
            if xs.is_empty() {
                out.push_str(" 0");
            }
            out.push(')');
        }
    }
}

/// The minimum (`<=`) or maximum (`>=`) of `xs` as nested `ite`s.
fn fold_tail<C>(xs: &[Num<C>], test: &str, name: &dyn Fn(&C) -> String, out: &mut String) {
    match xs {
        [] => out.push('0'),
        [only] => smt_num(only, name, out),
        [first, rest @ ..] => {
            let mut tail = String::new();
            fold_tail(rest, test, name, &mut tail);
            let mut head = String::new();
            smt_num(first, name, &mut head);
            let _ = fmt::Write::write_fmt(
                out,
                format_args!("(ite ({test} {head} {tail}) {head} {tail})"),
            );
        }
    }
}

fn smt_test<C>(test: &Test<C>, name: &dyn Fn(&C) -> String, out: &mut String) {
    let many = |op: &str, ts: &[Test<C>], out: &mut String| {
        out.push('(');
        out.push_str(op);
        for t in ts {
            out.push(' ');
            smt_test(t, name, out);
        }
        out.push(')');
    };
    match test {
        Test::Literal(b) => out.push_str(if *b { "true" } else { "false" }),
        Test::Compare(Compare::Ne, a, b) => {
            out.push_str("(not (= ");
            smt_num(a, name, out);
            out.push(' ');
            smt_num(b, name, out);
            out.push_str("))");
        }
        Test::Compare(op, a, b) => {
            out.push('(');
            out.push_str(op.symbol());
            out.push(' ');
            smt_num(a, name, out);
            out.push(' ');
            smt_num(b, name, out);
            out.push(')');
        }
        Test::Not(t) => many("not", std::slice::from_ref(&**t), out),
        Test::And(ts) => many("and", ts, out),
        Test::Or(ts) => many("or", ts, out),
        Test::Implies(a, b) => {
            out.push_str("(=> ");
            smt_test(a, name, out);
            out.push(' ');
            smt_test(b, name, out);
            out.push(')');
        }
        Test::If(c, a, b) => {
            out.push_str("(ite");
            for t in [c, a, b] {
                out.push(' ');
                smt_test(t, name, out);
            }
            out.push(')');
        }
        Test::Distinct(xs) => smt_apply("distinct", xs, name, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_is_euclidean_and_total() {
        // a = b·q + r with 0 <= r < |b|, whatever the signs.
        for (a, b, q, r) in [
            (7, 2, 3, 1),
            (-7, 2, -4, 1),
            (7, -2, -3, 1),
            (-7, -2, 4, 1),
            (-8, 3, -3, 1),
            (6, -3, -2, 0),
            (5, 0, 0, 5),
            (-5, 0, 0, -5),
        ] {
            assert_eq!((divide(a, b), remainder(a, b)), (q, r), "{a} / {b}");
            assert_eq!(a, b * divide(a, b) + remainder(a, b));
        }
    }

    /// Every number in `-range..=range`, as a one-cell-free `Num`.
    fn literals(range: i64) -> Vec<Num<usize>> {
        (-range..=range).map(Num::Literal).collect()
    }

    #[test]
    fn division_ranges_hold_every_value() {
        // Over intervals of literals, through `if`s on a cell that may be
        // anything: the range of a / b and a % b holds every quotient.
        let span = |_: &usize| Span { mask: 0b11 };
        let bounds = Bounds::new(&span);
        let pick = |values: &[Num<usize>]| {
            // if c = 1 then v0 else if c = 1 then v1 … : every value possible.
            let mut num = values[0].clone();
            for v in &values[1..] {
                num = Num::If(
                    Box::new(Test::Compare(
                        Compare::Eq,
                        Box::new(Num::Cell(0)),
                        Box::new(Num::Literal(1)),
                    )),
                    Box::new(v.clone()),
                    Box::new(num),
                );
            }
            num
        };
        let all = literals(6);
        for a_low in 0..all.len() {
            for a_high in a_low..all.len().min(a_low + 4) {
                for b_low in 0..all.len() {
                    for b_high in b_low..all.len().min(b_low + 4) {
                        let a = pick(&all[a_low..=a_high]);
                        let b = pick(&all[b_low..=b_high]);
                        let div = bounds.range(&Num::Div(Box::new(a.clone()), Box::new(b.clone())));
                        let rem = bounds.range(&Num::Mod(Box::new(a), Box::new(b)));
                        for x in a_low..=a_high {
                            for y in b_low..=b_high {
                                let (x, y) = (x as i128 - 6, y as i128 - 6);
                                let (q, r) = (divide(x, y), remainder(x, y));
                                assert!(div.low <= q && q <= div.high, "{x} / {y}: {div:?}");
                                assert!(rem.low <= r && r <= rem.high, "{x} % {y}: {rem:?}");
                            }
                        }
                    }
                }
            }
        }
    }
}
