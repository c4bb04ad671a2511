//! The few kinds of formula every variant rule comes down to.
//!
//! f-puzzles states some forty kinds of rule; each of them is, underneath,
//! a handful of simple relations between cells' digits: digits that
//! differ, pairs of digits that stand in some relation (less, equal, a
//! difference, a ratio, a sum), weighted sums, a cell's allowed digits,
//! digits a group must contain, and sums that hold only when certain cells
//! hold certain digits. [`Constraint::lower`](super::kinds::Constraint::lower)
//! states each rule in these terms once, and every solver back end (the
//! three Z3 encodings and the native engine) implements only these kinds,
//! so a new rule needs no new solver code unless it cannot be said with
//! them.
//!
//! The independent checker does not read primitives: it checks each rule
//! as the rule is stated, so that a mistake in lowering is caught before a
//! solution is printed rather than shared by every engine.

use super::automaton::Automaton;
use super::chaos::Chaos;
use super::connected::Connected;
use super::expr::Test;
use super::rank::Rank;
use std::sync::Arc;

/// A relation between the digits of two cells, `a` and `b` in that order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// `a != b`.
    Differ,
    /// `a == b`.
    Equal,
    /// `a + k <= b`: `b` exceeds `a` by at least `k` (`k = 1` is `a < b`).
    LessBy(u8),
    /// `a <= b`.
    LessOrEqual,
    /// `|a - b| >= k`.
    DifferenceAtLeast(u8),
    /// `|a - b| <= k`.
    DifferenceAtMost(u8),
    /// `|a - b| == k`.
    DifferenceIs(u8),
    /// `|a - b| != k`.
    DifferenceIsNot(u8),
    /// One is `k` times the other.
    RatioIs(u8),
    /// Neither is `k` times the other.
    RatioIsNot(u8),
    /// `a + b == k`.
    SumIs(u8),
    /// `a + b != k`.
    SumIsNot(u8),
    /// The digits fall in different classes: entropic lines' low, middle
    /// and high thirds, or modular lines' remainders.
    ClassesDiffer(Classes),
    /// The digits fall in the same class (a modular line's cells a whole
    /// number of moduli apart; a parity line's cells an even distance
    /// apart).
    ClassesSame(Classes),
    /// `a == p` implies `b == q` (an indexer: the digit in one cell says
    /// where another digit goes).
    Implies(u8, u8),
    /// Not both hold `k` (anti-taxicab: two cells `k` apart do not both
    /// hold `k`).
    NotBoth(u8),
}

/// How digits fall into classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Classes {
    /// Low, middle and high thirds of `1..=side` (for sides not divisible
    /// by 3, the middle third, or the outer ones, take the extra digit,
    /// as f-puzzles does).
    Thirds(u8),
    /// The remainder mod `m` (at least 1).
    Mod(u8),
}

impl Classes {
    /// The class of digit `d`: 0, 1 or 2 for thirds, the remainder for
    /// [`Classes::Mod`].
    pub fn of(self, d: u8) -> u8 {
        match self {
            Classes::Mod(m) => d.checked_rem(m).unwrap_or(d),
            Classes::Thirds(side) => {
                let third = side / 3;
                let sizes = match side % 3 {
                    1 => [third, third + 1, third],
                    2 => [third + 1, third, third + 1],
                    _ => [third; 3],
                };
                if d <= sizes[0] {
                    0
                } else if d <= sizes[0] + sizes[1] {
                    1
                } else {
                    2
                }
            }
        }
    }
}

impl Relation {
    /// Whether every two different digits stand in it, so that a house
    /// holding both cells says it already: differing, and not both holding
    /// one digit.
    pub fn holds_when_different(self) -> bool {
        matches!(self, Relation::Differ | Relation::NotBoth(_))
    }

    /// Whether digits `a` and `b` stand in the relation.
    pub fn allows(self, a: u8, b: u8) -> bool {
        let (x, y) = (u32::from(a), u32::from(b));
        match self {
            Relation::Differ => a != b,
            Relation::Equal => a == b,
            Relation::LessBy(k) => x + u32::from(k) <= y,
            Relation::LessOrEqual => a <= b,
            Relation::DifferenceAtLeast(k) => a.abs_diff(b) >= k,
            Relation::DifferenceAtMost(k) => a.abs_diff(b) <= k,
            Relation::DifferenceIs(k) => a.abs_diff(b) == k,
            Relation::DifferenceIsNot(k) => a.abs_diff(b) != k,
            Relation::RatioIs(k) => x == u32::from(k) * y || y == u32::from(k) * x,
            Relation::RatioIsNot(k) => !(x == u32::from(k) * y || y == u32::from(k) * x),
            Relation::SumIs(k) => x + y == u32::from(k),
            Relation::SumIsNot(k) => x + y != u32::from(k),
            Relation::ClassesDiffer(classes) => classes.of(a) != classes.of(b),
            Relation::ClassesSame(classes) => classes.of(a) == classes.of(b),
            Relation::Implies(p, q) => a != p || b == q,
            Relation::NotBoth(k) => a != k || b != k,
        }
    }
}

/// One formula over cells (row-major indexes) and their digits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Primitive {
    /// The cells hold different digits, which add up to `sum` when there
    /// is one (a killer cage).
    Distinct {
        /// The cells.
        cells: Vec<usize>,
        /// Their total, when it is set.
        sum: Option<u32>,
    },
    /// Two cells' digits stand in a relation.
    Pair {
        /// The first cell.
        a: usize,
        /// The second cell.
        b: usize,
        /// How their digits relate.
        relation: Relation,
    },
    /// `Σ weight · digit` over the terms is one of `totals`. A cell appears
    /// in at most one term.
    Sum {
        /// `(cell, weight)` pairs; weights are never 0.
        terms: Vec<(usize, i32)>,
        /// The totals allowed, at least one.
        totals: Vec<i32>,
    },
    /// A cell holds one of some digits.
    Allowed {
        /// The cell.
        cell: usize,
        /// Bit `d - 1` for each digit `d` allowed; 0 allows none.
        digits: u32,
    },
    /// At least `count` of the cells hold `digit`.
    Contains {
        /// The cells.
        cells: Vec<usize>,
        /// The digit.
        digit: u8,
        /// How many of them hold it, at least.
        count: usize,
    },
    /// Every cell of `middle` holds a digit strictly between the digits of
    /// the two `ends` (a between line).
    Between {
        /// The two ends.
        ends: (usize, usize),
        /// The cells that lie between them in value.
        middle: Vec<usize>,
    },
    /// Read in order, exactly `count` of the cells hold a digit greater
    /// than every digit before it (buildings seen from the clue).
    Visible {
        /// The cells, nearest the clue first.
        cells: Vec<usize>,
        /// How many are seen.
        count: usize,
    },
    /// At least one cell holds a digit of its mask: a clause over
    /// "cell in set" literals, for the rules that are disjunctions (a 5
    /// with a 1 above it or a 9 below it; a 2x2 window holding a low
    /// digit; a table of allowed digit pairs, one clause per digit).
    Any {
        /// `(cell, digits)`: bit `d - 1` of `digits` for each digit `d`
        /// that makes the literal true. A cell may appear more than once.
        literals: Vec<(usize, u32)>,
    },
    /// When every `(cell, digit)` of `when` holds, so does `then` (a
    /// [`Primitive::Sum`] or [`Primitive::Allowed`]).
    When {
        /// The condition: each cell holds its digit.
        when: Vec<(usize, u8)>,
        /// What must then hold.
        then: Box<Primitive>,
    },
    /// A condition written as a formula (a `formula` or `smt` rule line),
    /// over row-major indexes; see [`expr`](super::expr).
    Formula(Arc<Test<usize>>),
    /// The cells' digits, read in order, are a word the automaton accepts
    /// (a regular-expression line).
    Automaton {
        /// The cells, in the order they are read.
        cells: Vec<usize>,
        /// The automaton.
        automaton: Arc<Automaton>,
    },
    /// The cells, which hold different digits (stated apart), read in
    /// order: the digits strictly between the places of their smallest and
    /// their largest add up to `sum` (a sandwich). `plain` is the same
    /// rule in the other kinds of formula, which the back ends without a
    /// way of their own read (see [`Primitive::parts`]); the one-hot
    /// encodings state it by the extremes' places instead, in far fewer
    /// terms.
    Lunchbox {
        /// The cells, in the order they are read.
        cells: Vec<usize>,
        /// What the digits between the extremes add up to.
        sum: u32,
        /// The rule in other primitives.
        plain: Arc<Vec<Primitive>>,
    },
    /// The cells, which hold different digits (stated apart), read in
    /// order: the first that is lower than the one before it holds `digit`
    /// (a hidden skyscraper). `plain` is the same rule as an automaton,
    /// for the back ends without a way of their own, as for
    /// [`Primitive::Lunchbox`]; the one-hot encodings state it by the
    /// cells rising, which their variables say without the automaton's
    /// states.
    FirstHidden {
        /// The cells, nearest the clue first.
        cells: Vec<usize>,
        /// The first hidden building's height.
        digit: u8,
        /// The rule in other primitives.
        plain: Arc<Vec<Primitive>>,
    },
    /// The cells of an area holding a digit of a set form one orthogonally
    /// connected region (sigh's connected values); see
    /// [`connected`](super::connected).
    Connected(Arc<Connected>),
    /// The board parts into connected regions of N cells, each holding
    /// every digit once (chaos construction); see [`chaos`](super::chaos).
    Chaos(Arc<Chaos>),
    /// A line's number ranked among other lines' (a full rank clue); see
    /// [`rank`](super::rank).
    Rank(Arc<Rank>),
}

impl Primitive {
    /// The primitives a back end without a way of its own for this one
    /// reads it as: a lunchbox's or a hidden skyscraper's plain ones,
    /// else itself.
    pub fn parts(&self) -> &[Primitive] {
        match self {
            Primitive::Lunchbox { plain, .. } | Primitive::FirstHidden { plain, .. } => plain,
            other => std::slice::from_ref(other),
        }
    }

    /// Every cell the formula reads, conditions included, each once.
    pub fn cells(&self) -> Vec<usize> {
        let mut cells = match self {
            Primitive::Distinct { cells, .. }
            | Primitive::Contains { cells, .. }
            | Primitive::Visible { cells, .. } => cells.clone(),
            Primitive::Pair { a, b, .. } => vec![*a, *b],
            Primitive::Sum { terms, .. } => terms.iter().map(|&(c, _)| c).collect(),
            Primitive::Allowed { cell, .. } => vec![*cell],
            Primitive::Any { literals } => literals.iter().map(|&(c, _)| c).collect(),
            Primitive::Between { ends, middle } => {
                let mut cells = vec![ends.0, ends.1];
                cells.extend(middle);
                cells
            }
            Primitive::When { when, then } => {
                let mut cells: Vec<usize> = when.iter().map(|&(c, _)| c).collect();
                cells.extend(then.cells());
                cells
            }
            Primitive::Formula(test) => test.cells(),
            Primitive::Automaton { cells, .. }
            | Primitive::Lunchbox { cells, .. }
            | Primitive::FirstHidden { cells, .. } => cells.clone(),
            Primitive::Connected(rule) => rule.cells.clone(),
            Primitive::Chaos(rule) => (0..rule.cells()).collect(),
            Primitive::Rank(rank) => rank.cells(),
        };
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    /// Whether a full assignment (`digit` of each cell) satisfies it.
    pub fn holds(&self, digit: &dyn Fn(usize) -> u8) -> bool {
        match self {
            Primitive::Distinct { cells, sum } => {
                let mut seen = 0u64;
                for &c in cells {
                    let bit = 1u64 << digit(c);
                    if seen & bit != 0 {
                        return false;
                    }
                    seen |= bit;
                }
                sum.is_none_or(|s| cells.iter().map(|&c| u32::from(digit(c))).sum::<u32>() == s)
            }
            Primitive::Pair { a, b, relation } => relation.allows(digit(*a), digit(*b)),
            Primitive::Sum { terms, totals } => {
                let total: i32 = terms.iter().map(|&(c, w)| w * i32::from(digit(c))).sum();
                totals.contains(&total)
            }
            Primitive::Allowed { cell, digits } => {
                let d = digit(*cell);
                d != 0 && digits >> (d - 1) & 1 == 1
            }
            Primitive::Contains {
                cells,
                digit: d,
                count,
            } => cells.iter().filter(|&&c| digit(c) == *d).count() >= *count,
            Primitive::Between { ends, middle } => {
                let (x, y) = (digit(ends.0), digit(ends.1));
                let (low, high) = (x.min(y), x.max(y));
                middle.iter().all(|&m| (low + 1..high).contains(&digit(m)))
            }
            Primitive::Visible { cells, count } => {
                let (mut seen, mut top) = (0, 0);
                for &c in cells {
                    if digit(c) > top {
                        seen += 1;
                        top = digit(c);
                    }
                }
                seen == *count
            }
            Primitive::Any { literals } => literals.iter().any(|&(c, digits)| {
                let d = digit(c);
                d != 0 && digits >> (d - 1) & 1 == 1
            }),
            Primitive::When { when, then } => {
                when.iter().any(|&(c, d)| digit(c) != d) || then.holds(digit)
            }
            Primitive::Formula(test) => test.holds(&|&c| i128::from(digit(c))),
            Primitive::Lunchbox { plain, .. } | Primitive::FirstHidden { plain, .. } => {
                plain.iter().all(|p| p.holds(digit))
            }
            Primitive::Automaton { cells, automaton } => {
                let word: Vec<u8> = cells.iter().map(|&c| digit(c)).collect();
                automaton.accepts(&word)
            }
            Primitive::Connected(rule) => rule.holds(digit),
            Primitive::Chaos(rule) => rule.holds(digit),
            Primitive::Rank(rank) => rank.holds(digit),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirds_follow_f_puzzles() {
        let nine: Vec<u8> = (1..=9).map(|d| Classes::Thirds(9).of(d)).collect();
        assert_eq!(nine, [0, 0, 0, 1, 1, 1, 2, 2, 2]);
        let ten: Vec<u8> = (1..=10).map(|d| Classes::Thirds(10).of(d)).collect();
        assert_eq!(ten, [0, 0, 0, 1, 1, 1, 1, 2, 2, 2]);
        let eight: Vec<u8> = (1..=8).map(|d| Classes::Thirds(8).of(d)).collect();
        assert_eq!(eight, [0, 0, 0, 1, 1, 2, 2, 2]);
    }

    #[test]
    fn any_holds_when_one_literal_does() {
        let any = Primitive::Any {
            literals: vec![(0, 0b10000), (1, 0b1), (2, 0b100000000)],
        };
        let grid = |digits: [u8; 3]| move |c: usize| digits[c];
        assert!(any.holds(&grid([5, 1, 3])));
        assert!(any.holds(&grid([2, 4, 9])));
        assert!(!any.holds(&grid([4, 2, 8])));
        assert_eq!(any.cells(), [0, 1, 2]);
        assert!(Relation::NotBoth(3).allows(3, 2) && !Relation::NotBoth(3).allows(3, 3));
    }

    #[test]
    fn relations_read_as_named() {
        assert!(Relation::RatioIs(2).allows(3, 6) && Relation::RatioIs(2).allows(6, 3));
        assert!(!Relation::RatioIsNot(2).allows(4, 2));
        assert!(Relation::LessBy(2).allows(3, 5) && !Relation::LessBy(2).allows(3, 4));
        assert!(Relation::Implies(3, 7).allows(2, 1) && !Relation::Implies(3, 7).allows(3, 1));
    }
}
