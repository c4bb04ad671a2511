//! A number read along a line of cells, ranked among others of the same
//! length ([`Primitive::Rank`](super::primitive::Primitive::Rank)): the
//! formula a full rank clue lowers to, with what each back end needs of it.
//!
//! Numbers are compared as their digits read in order, so the first
//! place where two differ decides. The rule says: the line starts with
//! `digit`; of the other lines that start with it too, exactly `lower`
//! read lower; and unless `ties`, none reads the same.
//!
//! Z3 and rules made of rules get it as one [`Test`] ([`Rank::as_test`]).
//! The native engine and the rule steps narrow candidates with
//! [`Rank::narrow`], which walks each other line beside the clued one
//! place by place, as sigh's `FullRank` handler does: assuming the places
//! before are equal, a place can make the other line lower, higher, or
//! leave the tie to a later place. Each other line thus may be lower,
//! higher or equal, and counting those that must and may be each, against
//! the clue's counts, says which lines must (or cannot) start with the
//! digit, and which pairs of lines must be ordered, which narrows the
//! first place where they can differ.

use super::expr::{Compare, Num, Test};

/// A full rank clue's formula over row-major cell indexes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rank {
    /// The clued line's cells, read from the clue.
    pub line: Vec<usize>,
    /// The digit it starts with.
    pub digit: u8,
    /// The lines it is ranked among, each as long as `line`, in groups:
    /// those whose first cell can hold `digit` beside the clued one's (a
    /// first cell in the same row or column cannot), grouped by the row
    /// or column their first cells lie in. On every board the rule is
    /// read on, exactly one line of each group starts with `digit`, as
    /// that row or column is a house; [`Rank::narrow`] counts on it, but
    /// the rule itself does not say it.
    pub others: Vec<Vec<Vec<usize>>>,
    /// How many of the others that start with `digit` read lower.
    pub lower: usize,
    /// Whether another line may read the same.
    pub ties: bool,
    /// Lines that start with `digit` and read lower, as other rules say
    /// (another full rank clue of the same digit and a lower rank); the
    /// native engine orders them at once rather than only by counting.
    pub under: Vec<Vec<usize>>,
    /// The board's side, to tell cells in one row or column, whose digits
    /// differ.
    pub side: usize,
}

/// The candidates [`Rank::narrow`] reads and narrows: bit `d - 1` for
/// digit `d`, by cell.
pub trait Candidates {
    /// The cell's candidates.
    fn get(&self, cell: usize) -> u32;
    /// Narrows the cell to the candidates also in `mask`; `false` when
    /// nothing is left.
    fn keep(&mut self, cell: usize, mask: u32) -> bool;
}

impl Candidates for [u32] {
    fn get(&self, cell: usize) -> u32 {
        self[cell]
    }

    fn keep(&mut self, cell: usize, mask: u32) -> bool {
        self[cell] &= mask;
        self[cell] != 0
    }
}

/// What an other line may be beside the clued one, assuming it starts
/// with the same digit.
#[derive(Clone, Copy, Default)]
struct May {
    lower: bool,
    higher: bool,
    equal: bool,
}

/// The lowest and highest digit of a non-empty set.
fn low_high(mask: u32) -> (u32, u32) {
    (mask.trailing_zeros() + 1, 32 - mask.leading_zeros())
}

/// The digits up to `d`, and from `d` up.
fn up_to(d: u32) -> u32 {
    if d >= 32 { u32::MAX } else { (1u32 << d) - 1 }
}
fn from(d: u32) -> u32 {
    !up_to(d.saturating_sub(1))
}

impl Rank {
    /// Every cell it reads, each once, sorted.
    pub fn cells(&self) -> Vec<usize> {
        let mut cells: Vec<usize> = self
            .line
            .iter()
            .chain(self.others.iter().flatten().flatten())
            .chain(self.under.iter().flatten())
            .copied()
            .collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    /// Whether two distinct cells share a row or a column, so hold
    /// different digits.
    fn apart(&self, a: usize, b: usize) -> bool {
        a != b && (a / self.side == b / self.side || a % self.side == b % self.side)
    }

    /// Whether a full assignment satisfies it.
    pub fn holds(&self, digit: &dyn Fn(usize) -> u8) -> bool {
        let read = |cells: &[usize]| -> Vec<u8> { cells.iter().map(|&c| digit(c)).collect() };
        let mine = read(&self.line);
        if mine.first() != Some(&self.digit) {
            return false;
        }
        let same: Vec<Vec<u8>> = self
            .others
            .iter()
            .flatten()
            .map(|o| read(o))
            .filter(|o| o.first() == Some(&self.digit))
            .collect();
        same.iter().filter(|o| **o < mine).count() == self.lower
            && (self.ties || same.iter().all(|o| *o != mine))
            && self.under.iter().all(|u| {
                let u = read(u);
                u.first() == Some(&self.digit) && u < mine
            })
    }

    /// The rule as one formula (see [`Rank::as_tests`]).
    pub fn as_test(&self) -> Test<usize> {
        Test::And(self.as_tests())
    }

    /// The rule as formulas that all hold: the first cell holds the digit;
    /// the lines of `under` start with it and read lower; counted over the
    /// others, those that start with it and read lower come to `lower`;
    /// without ties, each other differs from the line somewhere. Z3 gets
    /// them one by one, as it got them before the rule had a primitive.
    pub fn as_tests(&self) -> Vec<Test<usize>> {
        let cell = |c: usize| Box::new(Num::Cell(c));
        let starts = |c: usize| {
            Test::Compare(
                Compare::Eq,
                cell(c),
                Box::new(Num::Literal(i64::from(self.digit))),
            )
        };
        let mut all = vec![starts(self.line[0])];
        for under in &self.under {
            all.push(starts(under[0]));
            all.push(self.reads_lower(under));
        }
        let mut counted = Vec::new();
        for other in self.others.iter().flatten() {
            counted.push(Num::If(
                Box::new(Test::And(vec![starts(other[0]), self.reads_lower(other)])),
                Box::new(Num::Literal(1)),
                Box::new(Num::Literal(0)),
            ));
            if self.ties
                || other
                    .iter()
                    .zip(&self.line)
                    .any(|(&o, &m)| self.apart(o, m))
            {
                // Ties allowed, or a place in one row or column: the
                // lines differ on every board.
                continue;
            }
            let mut differs = vec![Test::Not(Box::new(starts(other[0])))];
            for (&o, &m) in other.iter().zip(&self.line).skip(1).filter(|(o, m)| o != m) {
                differs.push(Test::Compare(Compare::Ne, cell(o), cell(m)));
            }
            all.push(Test::Or(differs));
        }
        all.push(Test::Compare(
            Compare::Eq,
            Box::new(Num::Sum(counted)),
            Box::new(Num::Literal(self.lower as i64)),
        ));
        all
    }

    /// `other < line` read as numbers, given that their first digits are
    /// equal: the first place where they differ decides. Places that are
    /// one cell are equal on every board, and places in one row or column
    /// differ on every board, which ends the comparison there.
    fn reads_lower(&self, other: &[usize]) -> Test<usize> {
        let cell = |c: usize| Box::new(Num::Cell(c));
        let mut test = Test::Literal(false);
        for (&o, &m) in other.iter().zip(&self.line).skip(1).rev() {
            if o == m {
                continue;
            }
            let less = Test::Compare(Compare::Lt, cell(o), cell(m));
            test = if self.apart(o, m) {
                less
            } else {
                Test::Or(vec![
                    less,
                    Test::And(vec![Test::Compare(Compare::Eq, cell(o), cell(m)), test]),
                ])
            };
        }
        test
    }

    /// What `other` may be beside the line, given that both start with
    /// the digit: the walk place by place while the places before may be
    /// equal. A digit two places share cannot come again later in either
    /// line (each is a row or a column), so it leaves the sets compared
    /// after it, as the digit both start with does from the start.
    fn compare<C: Candidates + ?Sized>(&self, other: &[usize], d: &C) -> May {
        let mut may = May::default();
        let mut used = 1u32 << (self.digit - 1);
        for (&o, &m) in other.iter().zip(&self.line).skip(1) {
            if o == m {
                // One cell: equal here on every board.
                let here = d.get(o) & !used;
                if here == 0 {
                    return may;
                }
                if here.count_ones() == 1 {
                    used |= here;
                }
                continue;
            }
            let (a, b) = (d.get(o) & !used, d.get(m) & !used);
            if a == 0 || b == 0 {
                return may;
            }
            let ((a_lo, a_hi), (b_lo, b_hi)) = (low_high(a), low_high(b));
            may.higher |= a_hi > b_lo;
            may.lower |= a_lo < b_hi;
            if may.lower && may.higher {
                // Both ways already; whether they could tie is left open.
                may.equal = !self.apart(o, m) && a & b != 0;
                return may;
            }
            if self.apart(o, m) || a & b == 0 {
                return may;
            }
            // One way at most so far, so they share one digit at most.
            used |= a & b;
        }
        may.equal = true;
        may
    }

    /// Narrows `low` against `high`, two lines that both start with the
    /// digit, so that `low` reads lower (or the same, unless `strict`):
    /// the first place where they are not one fixed digit keeps `low`'s
    /// digits up to `high`'s highest and `high`'s from `low`'s lowest
    /// (strictly, when the two cells differ on every board); a place that
    /// comes out fixed and equal passes the question to the next.
    fn order<C: Candidates + ?Sized>(
        &self,
        low: &[usize],
        high: &[usize],
        strict: bool,
        d: &mut C,
    ) -> bool {
        let mut used = 1u32 << (self.digit - 1);
        for (&a, &b) in low.iter().zip(high).skip(1) {
            if a == b {
                let here = d.get(a) & !used;
                if here == 0 {
                    return false;
                }
                if here.count_ones() == 1 {
                    used |= here;
                }
                continue;
            }
            let (x, y) = (d.get(a) & !used, d.get(b) & !used);
            if x == 0 || y == 0 {
                return false;
            }
            let apart = self.apart(a, b);
            let ((x_lo, _), (_, y_hi)) = (low_high(x), low_high(y));
            // Different digits here: strictly lower.
            let (keep_a, keep_b) = if apart {
                (up_to(y_hi - 1), from(x_lo + 1))
            } else {
                (up_to(y_hi), from(x_lo))
            };
            if !d.keep(a, keep_a) || !d.keep(b, keep_b) {
                return false;
            }
            let (x, y) = (d.get(a) & !used, d.get(b) & !used);
            if apart || x != y || x.count_ones() != 1 {
                return x != 0 && y != 0;
            }
            used |= x;
        }
        !strict
    }

    /// Narrows the candidates to what the rule allows, as far as counting
    /// the groups whose line starting with the digit must and may read
    /// lower or higher shows; `false` at a dead end. Sound on every board
    /// whose rows and columns are houses (see [`Rank::others`]).
    ///
    /// Each group's line that starts with the digit is one of those whose
    /// first cell can still hold it, so the group may read lower when one
    /// of them may, and must when all must (or when the one placed there
    /// must). When the groups that may go one side are as many as the
    /// clue needs there, each of them goes there; when those that must
    /// are as many, every other group goes the other side. A group that
    /// goes one side keeps the digit only in the first cells of lines
    /// that may go there, and when one line is left it is ordered beside
    /// the clued one.
    pub fn narrow<C: Candidates + ?Sized>(&self, d: &mut C) -> bool {
        let v = 1u32 << (self.digit - 1);
        if !d.keep(self.line[0], v) {
            return false;
        }
        let Some(higher) = self.others.len().checked_sub(self.lower) else {
            return false;
        };
        for under in &self.under {
            if !d.keep(under[0], v) || !self.order(under, &self.line, true, d) {
                return false;
            }
        }
        // Per group: whether its line may read lower, and above (higher,
        // or with ties the same); per line, the same, or neither when its
        // first cell cannot hold the digit.
        let mut lines: Vec<(bool, bool)> = Vec::new();
        let mut groups: Vec<(bool, bool)> = Vec::with_capacity(self.others.len());
        for group in &self.others {
            let (mut lower, mut above, mut placed) = (false, false, None);
            for other in group {
                let first = d.get(other[0]);
                if first & v == 0 {
                    lines.push((false, false));
                    continue;
                }
                let may = self.compare(other, d);
                let line = (may.lower, may.higher || (self.ties && may.equal));
                if line == (false, false) && !d.keep(other[0], !v) {
                    return false;
                }
                if first == v {
                    if placed.is_some() {
                        return false;
                    }
                    placed = Some(line);
                }
                lower |= line.0;
                above |= line.1;
                lines.push(line);
            }
            let group_may = placed.unwrap_or((lower, above));
            if group_may == (false, false) {
                return false;
            }
            groups.push(group_may);
        }
        let count =
            |pick: &dyn Fn(&(bool, bool)) -> bool| groups.iter().filter(|g| pick(g)).count();
        let (may_lower, must_lower) = (count(&|g| g.0), count(&|g| g.0 && !g.1));
        let (may_above, must_above) = (count(&|g| g.1), count(&|g| g.1 && !g.0));
        if may_lower < self.lower
            || must_lower > self.lower
            || may_above < higher
            || must_above > higher
        {
            return false;
        }
        let mut at = 0;
        for (group, &(lower, above)) in self.others.iter().zip(&groups) {
            let flags = &lines[at..at + group.len()];
            at += group.len();
            // All the groups that may go one side are needed there, or
            // those that must go the other side fill it.
            let go_below = lower && (may_lower == self.lower || must_above == higher);
            let go_above = above && (may_above == higher || must_lower == self.lower);
            if go_below == go_above {
                // Undecided (both cannot happen once the counts pass).
                continue;
            }
            // The line placed in the group, or else those that may go the
            // group's side, which lose the digit otherwise.
            let placed = group
                .iter()
                .zip(flags)
                .find(|(other, f)| **f != (false, false) && d.get(other[0]) == v);
            let mut left = placed.map(|(other, f)| (other, *f));
            let mut many = false;
            if placed.is_none() {
                for (other, f) in group.iter().zip(flags) {
                    if *f == (false, false) {
                        continue;
                    }
                    if !(if go_below { f.0 } else { f.1 }) {
                        if !d.keep(other[0], !v) {
                            return false;
                        }
                        continue;
                    }
                    many |= left.is_some();
                    left = Some((other, *f));
                }
            }
            // The one line left starts with the digit, and goes the
            // group's side.
            let ok = match (left, many) {
                (None, _) => false,
                (Some((other, f)), false) => {
                    d.keep(other[0], v) && (f != (true, true) || self.put(other, go_below, d))
                }
                _ => true,
            };
            if !ok {
                return false;
            }
        }
        true
    }

    /// Orders `other`, which starts with the digit, below the line or
    /// above it (higher, or with ties the same).
    fn put<C: Candidates + ?Sized>(&self, other: &[usize], below: bool, d: &mut C) -> bool {
        if below {
            self.order(other, &self.line, true, d)
        } else {
            self.order(&self.line, other, !self.ties, d)
        }
    }
}
