//! Rules joined by `or` and `and` (sigh's `Or` and `And` composites): at
//! least one branch holds, a branch being one rule or several that all
//! hold.
//!
//! Each branch's rules are lowered as usual and their primitives restated
//! as one [formula](crate::puzzle::expr) (`Primitive::Formula`), which
//! every back end states exactly: Z3 in `int`, `bool` and `pb`, the native
//! engine, the checker and the rule steps. A primitive no formula says (a
//! line read by an automaton: regular expressions, state machines, sum
//! lines; a connected region) makes the rule an error that names the rule
//! inside, in every engine alike, rather than a branch left out.
//!
//! f-puzzles has no such rule. A rule line is `either RULE || RULE && RULE`:
//! `||` parts the branches and `&&` the rules of one branch, each written
//! as its own rule line; an `either` inside another is bracketed `[ … ]`.
//! sigh's strings write `.Or.Thermo~R1C1~R1C2.And.X~R3C3~R3C4.V~R5C5~R5C6.End.End`;
//! an `.And … .End` outside an `Or` adds its rules as they are.

use super::FromZero;
use super::{Added, Constraint, Read, Rule, no_key, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::Context;
use crate::puzzle::expr::{Compare, Num, Test};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::Primitive;
use crate::puzzle::sigh;
use crate::puzzle::sketch::Mark;
use serde_json::Value;
use std::fmt;
use std::sync::Arc;

/// Branches of which at least one holds; each branch's rules all hold.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Either(pub Vec<Vec<Constraint>>);

/// The first word of an `either` line.
const WORD: &str = "either";
/// Parts the branches of a line.
const OR: &str = "||";
/// Parts the rules of a branch.
const AND: &str = "&&";
/// How deep `either`s may stand inside one another: each level is a level
/// of recursion in every back end, so input cannot make it unbounded.
pub const MOST_DEPTH: usize = 8;

/// What an error in a line says: its column when it has one, and the
/// problem.
type LineError = (Option<usize>, String);

/// Reads `line` when it is an `either` line (`None` otherwise), from the
/// line's own text, since each part is a rule line of its own. An error
/// comes with its column in `line` when it has one.
pub fn read_line(line: &str, size: Size) -> Option<Result<Either, LineError>> {
    parse(line, 0, line, size, 1)
}

/// Reads `text`, which starts at byte `base` of the whole line `full`,
/// when it starts with the word `either`.
fn parse(
    full: &str,
    base: usize,
    text: &str,
    size: Size,
    depth: usize,
) -> Option<Result<Either, LineError>> {
    let start = text.len() - text.trim_start().len();
    let first = text[start..].split_whitespace().next()?;
    if !first.eq_ignore_ascii_case(WORD) {
        return None;
    }
    let from = start + first.len();
    if depth > MOST_DEPTH {
        return Some(Err((
            Some(full[..base + start].chars().count() + 1),
            format!("`either`s stand at most {MOST_DEPTH} deep"),
        )));
    }
    Some(branches(full, base + from, &text[from..], size, depth).map(Either))
}

/// The branches of `text`, which starts at byte `base` of `full`.
fn branches(
    full: &str,
    base: usize,
    text: &str,
    size: Size,
    depth: usize,
) -> Result<Vec<Vec<Constraint>>, LineError> {
    let column = |byte: usize| full[..byte].chars().count() + 1;
    let mut out = Vec::new();
    for (branch_at, branch) in split(full, text, base, OR)? {
        let mut rules = Vec::new();
        for (at, part) in split(full, branch, branch_at, AND)? {
            let trimmed = part.trim();
            let lead = at + (part.len() - part.trim_start().len());
            if trimmed.is_empty() {
                return Err((Some(column(at)), "an empty rule in an `either`".into()));
            }
            let read = match trimmed.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
                // A bracketed `either` inside this one.
                Some(inner) => match parse(full, lead + 1, inner, size, depth + 1) {
                    Some(either) => one(either?),
                    None => {
                        return Err((
                            Some(column(lead)),
                            "brackets in an `either` hold another `either`".into(),
                        ));
                    }
                },
                None => crate::puzzle::rule_text::read_line(trimmed, size)
                    .map_err(|(c, problem)| (c.map(|c| column(lead) + c - 1), problem))?,
            };
            for added in read {
                match added {
                    Added::Constraint(c) => rules.push(c),
                    _ => {
                        return Err((
                            Some(column(lead)),
                            format!("{trimmed:?} is not a rule an `either` can hold"),
                        ));
                    }
                }
            }
        }
        out.push(rules);
    }
    if out.len() < 2 {
        return Err((
            None,
            format!("an `either` needs two branches or more, parted by `{OR}`"),
        ));
    }
    Ok(out)
}

/// The parts of `text` (at byte `base` of `full`) between `separator`s
/// that stand outside brackets, each with the byte of `full` it starts at.
fn split<'a>(
    full: &str,
    text: &'a str,
    base: usize,
    separator: &str,
) -> Result<Vec<(usize, &'a str)>, LineError> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut k = 0;
    while k < text.len() {
        match bytes[k] {
            b'[' => depth += 1,
            b']' => {
                depth = depth.checked_sub(1).ok_or_else(|| {
                    (
                        Some(full[..base + k].chars().count() + 1),
                        "a `]` closes no `[`".to_string(),
                    )
                })?;
            }
            _ if depth == 0 && bytes[k..].starts_with(separator.as_bytes()) => {
                parts.push((base + start, &text[start..k]));
                k += separator.len();
                start = k;
                continue;
            }
            _ => {}
        }
        k += 1;
    }
    if depth > 0 {
        return Err((None, "a `[` is not closed by `]`".into()));
    }
    parts.push((base + start, &text[start..]));
    Ok(parts)
}

impl Read for Either {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &[WORD];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    /// An `either` line is read from its own text before it is split into
    /// words (see [`read_line`]); reaching here means it was not.
    fn from_text(_: &str, _: &[String], _: Size) -> Result<Vec<Added>, String> {
        Err("an either line is read from the line's own text".into())
    }

    /// sigh's `Or` and `And` open groups that `End` closes, which the
    /// string's reader gathers; it makes an [`Either`] of them.
    const SIGH: &'static [&'static str] = &[];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        Err(item.unknown())
    }
}

impl fmt::Display for Either {
    /// `either thermo r1c1→r1c2 || x (r3c3 r3c4) && v (r5c5 r5c6)`, which
    /// reads back as the same rule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let branches: Vec<String> = self
            .0
            .iter()
            .map(|branch| {
                let rules: Vec<String> = branch
                    .iter()
                    .map(|c| match c {
                        Constraint::Either(_) => format!("[{c}]"),
                        _ => c.to_string(),
                    })
                    .collect();
                rules.join(&format!(" {AND} "))
            })
            .collect();
        write!(f, "{WORD} {}", branches.join(&format!(" {OR} ")))
    }
}

/// Whether `rule`, or a rule inside it when it is an `either`, is one
/// `test` picks.
pub fn holds_rule(rule: &Constraint, test: &dyn Fn(&Constraint) -> bool) -> bool {
    match rule {
        Constraint::Either(either) => either.0.iter().flatten().any(|r| holds_rule(r, test)),
        other => test(other),
    }
}

/// Whether `rule` is one over the whole board, which sigh keeps out of its
/// composites (its "global" rules): z3doku's `either` takes them, but a
/// sigh string cannot say them inside an `Or`.
pub fn whole_board(rule: &Constraint) -> bool {
    matches!(
        rule,
        Constraint::AntiKnight(_)
            | Constraint::AntiKing(_)
            | Constraint::NonConsecutive(_)
            | Constraint::NegativeRatio(_)
            | Constraint::NegativeXv(_)
            | Constraint::AntiTaxicab(_)
            | Constraint::Leaper(_)
            | Constraint::DiagonalNonConsecutive(_)
            | Constraint::Knightmare(_)
            | Constraint::Windoku(_)
            | Constraint::DutchFlatmates(_)
            | Constraint::GlobalEntropy(_)
            | Constraint::GlobalMod(_)
            | Constraint::FullRankNoTies(_)
    )
}

/// A number of a cell.
fn cell(c: usize) -> Box<Num<usize>> {
    Box::new(Num::Cell(c))
}

/// A literal number.
fn literal(n: i64) -> Box<Num<usize>> {
    Box::new(Num::Literal(n))
}

/// Every test holds (an `and` of two or more, or the one, or true).
fn all_of(mut tests: Vec<Test<usize>>) -> Test<usize> {
    match tests.len() {
        0 => Test::Literal(true),
        1 => tests.remove(0),
        _ => Test::And(tests),
    }
}

/// Some test holds (an `or` of two or more, or the one, or false).
fn any_of(mut tests: Vec<Test<usize>>) -> Test<usize> {
    match tests.len() {
        0 => Test::Literal(false),
        1 => tests.remove(0),
        _ => Test::Or(tests),
    }
}

/// Cell `c` holds a digit of `digits` (bit `d - 1` for `d`).
fn in_set(c: usize, digits: u32, side: usize) -> Test<usize> {
    let all = (1u32 << side) - 1;
    if digits & all == all {
        return Test::Literal(true);
    }
    any_of(
        (1..=side)
            .filter(|d| digits >> (d - 1) & 1 == 1)
            .map(|d| Test::Compare(Compare::Eq, cell(c), literal(d as i64)))
            .collect(),
    )
}

/// A primitive as a formula over the board's digits `1..=side` (its
/// [`Size::values`]), or `None` for one no formula says (an automaton).
pub fn as_test(primitive: &Primitive, side: usize) -> Option<Test<usize>> {
    let eq = |a: Box<Num<usize>>, b: Box<Num<usize>>| Test::Compare(Compare::Eq, a, b);
    Some(match primitive {
        Primitive::Distinct { cells, sum } => {
            let mut tests = Vec::new();
            if cells.len() >= 2 {
                tests.push(Test::Distinct(
                    cells.iter().map(|&c| Num::Cell(c)).collect(),
                ));
            }
            if let (Some(sum), false) = (sum, cells.is_empty()) {
                tests.push(eq(
                    Box::new(Num::Sum(cells.iter().map(|&c| Num::Cell(c)).collect())),
                    literal(i64::from(*sum)),
                ));
            }
            all_of(tests)
        }
        // Digit by digit: `a = x` leaves `b` the digits the relation
        // allows opposite `x`, whatever the relation.
        Primitive::Pair { a, b, relation } => all_of(
            (1..=side as u8)
                .filter_map(|x| {
                    let partners = (1..=side as u8)
                        .filter(|&y| relation.allows(x, y))
                        .fold(0u32, |m, y| m | 1 << (y - 1));
                    let then = in_set(*b, partners, side);
                    (then != Test::Literal(true)).then(|| {
                        Test::Implies(
                            Box::new(eq(cell(*a), literal(i64::from(x)))),
                            Box::new(then),
                        )
                    })
                })
                .collect(),
        ),
        Primitive::Sum { terms, totals } => {
            let total = Num::Sum(
                terms
                    .iter()
                    .map(|&(c, w)| match w {
                        1 => Num::Cell(c),
                        w => Num::Mul(vec![Num::Literal(i64::from(w)), Num::Cell(c)]),
                    })
                    .collect(),
            );
            if terms.is_empty() {
                Test::Literal(totals.contains(&0))
            } else {
                any_of(
                    totals
                        .iter()
                        .map(|&t| eq(Box::new(total.clone()), literal(i64::from(t))))
                        .collect(),
                )
            }
        }
        Primitive::Allowed { cell: c, digits } => in_set(*c, *digits, side),
        Primitive::Contains {
            cells,
            digit,
            count,
        } => Test::Compare(
            Compare::Ge,
            Box::new(Num::Count(
                literal(i64::from(*digit)),
                cells.iter().map(|&c| Num::Cell(c)).collect(),
            )),
            literal(*count as i64),
        ),
        Primitive::Between { ends, middle } => {
            let low = || Box::new(Num::Min(vec![Num::Cell(ends.0), Num::Cell(ends.1)]));
            let high = || Box::new(Num::Max(vec![Num::Cell(ends.0), Num::Cell(ends.1)]));
            all_of(
                middle
                    .iter()
                    .flat_map(|&m| {
                        [
                            Test::Compare(Compare::Lt, low(), cell(m)),
                            Test::Compare(Compare::Lt, cell(m), high()),
                        ]
                    })
                    .collect(),
            )
        }
        // A cell is seen when it is taller than every cell before it.
        Primitive::Visible { cells, count } => {
            let seen: Vec<Num<usize>> = (0..cells.len())
                .map(|i| {
                    if i == 0 {
                        return Num::Literal(1);
                    }
                    Num::If(
                        Box::new(Test::Compare(
                            Compare::Gt,
                            cell(cells[i]),
                            Box::new(Num::Max(cells[..i].iter().map(|&c| Num::Cell(c)).collect())),
                        )),
                        literal(1),
                        literal(0),
                    )
                })
                .collect();
            if seen.is_empty() {
                Test::Literal(*count == 0)
            } else {
                eq(Box::new(Num::Sum(seen)), literal(*count as i64))
            }
        }
        Primitive::Any { literals } => any_of(
            literals
                .iter()
                .map(|&(c, digits)| in_set(c, digits, side))
                .collect(),
        ),
        Primitive::When { when, then } => Test::Implies(
            Box::new(all_of(
                when.iter()
                    .map(|&(c, d)| eq(cell(c), literal(i64::from(d))))
                    .collect(),
            )),
            Box::new(as_test(then, side)?),
        ),
        Primitive::Formula(test) => (**test).clone(),
        // No formula says either: a word an automaton reads along a line,
        // or a region's connectivity, or regions to find.
        Primitive::Lunchbox { plain, .. } | Primitive::FirstHidden { plain, .. } => all_of(
            plain
                .iter()
                .map(|p| as_test(p, side))
                .collect::<Option<_>>()?,
        ),
        Primitive::Automaton { .. } | Primitive::Connected(_) | Primitive::Chaos(_) => return None,
        Primitive::Rank(rank) => rank.as_test(),
    })
}

impl Either {
    /// How deep `either`s stand in it, itself counted.
    fn depth(&self) -> usize {
        1 + self
            .0
            .iter()
            .flatten()
            .map(|c| match c {
                Constraint::Either(inner) => inner.depth(),
                _ => 0,
            })
            .max()
            .unwrap_or(0)
    }

    /// Each branch as one formula over the board `context` describes, or
    /// the first rule whose primitives no formula says.
    fn branch_tests(&self, context: &Context<'_>) -> Result<Vec<Test<usize>>, String> {
        let side = context.size.values();
        self.0
            .iter()
            .map(|branch| {
                let mut tests = Vec::new();
                for rule in branch {
                    for primitive in rule.lower_as_formulas(context) {
                        tests.push(as_test(&primitive, side).ok_or_else(|| {
                            format!(
                                "{rule}: a rule read along its line by an automaton, or one \
                                 over connected regions, cannot be one branch of an `either`"
                            )
                        })?);
                    }
                }
                Ok(all_of(tests))
            })
            .collect()
    }
}

impl Rule for Either {
    /// Each branch's rules as they are on the digits; refused when one
    /// cannot be said there.
    fn on_values_from_zero(&self) -> FromZero {
        let mut changed = false;
        let mut branches = Vec::with_capacity(self.0.len());
        for branch in &self.0 {
            let mut rules = Vec::with_capacity(branch.len());
            for rule in branch {
                match rule.on_values_from_zero() {
                    FromZero::Same => rules.push(rule.clone()),
                    FromZero::As(solved) => {
                        changed = true;
                        rules.push(solved);
                    }
                    FromZero::Cannot => return FromZero::Cannot,
                }
            }
            branches.push(rules);
        }
        if changed {
            FromZero::As(Either(branches).into())
        } else {
            FromZero::Same
        }
    }

    fn cells(&self) -> Vec<Cell> {
        let mut cells: Vec<Cell> = self.0.iter().flatten().flat_map(|c| c.cells()).collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    /// Each rule inside as it validates alone; and each must say its
    /// primitives as a formula, which is asked of its lowering on a board
    /// without regions (no kind lowers to an automaton only where regions
    /// are).
    fn validate(&self, size: Size) -> Result<(), String> {
        if self.0.len() < 2 || self.0.iter().any(Vec::is_empty) {
            return Err("an either needs two branches or more, each of one rule or more".into());
        }
        if self.depth() > MOST_DEPTH {
            return Err(format!("`either`s stand at most {MOST_DEPTH} deep"));
        }
        for rule in self.0.iter().flatten() {
            rule.validate(size).map_err(|e| format!("{rule}: {e}"))?;
            // A clue over chaos construction's regions is stated in the
            // construction's primitive, which no branch holds.
            if matches!(
                rule,
                super::Constraint::ChaosCount(_) | super::Constraint::ChaosArrow(_)
            ) {
                return Err(format!(
                    "{rule}: a clue over chaos construction's regions cannot stand in a branch"
                ));
            }
        }
        let region_of = vec![None; size.all_cells()];
        let context = Context {
            size,
            regions: &[],
            region_of: &region_of,
            all: &[],
        };
        self.branch_tests(&context).map(|_| ())
    }

    /// One formula: some branch's formula holds. (`validate` has refused
    /// a rule no formula says, so none is met here; were one met, the
    /// formula would be `false`, never a branch left out.)
    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let test = self
            .branch_tests(context)
            .map_or(Test::Literal(false), any_of);
        vec![Primitive::Formula(Arc::new(test))]
    }

    /// As stated: broken when every branch has a rule that is broken.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let mut why = Vec::new();
        for branch in &self.0 {
            match branch.iter().find_map(|c| c.broken(board).map(|e| (c, e))) {
                Some((rule, e)) => why.push(format!("{rule}: {e}")),
                None => return None,
            }
        }
        Some(format!("no branch holds ({})", why.join("; ")))
    }

    fn sketch(&self, size: Size) -> Vec<Mark> {
        let mut marks: Vec<Mark> = self
            .0
            .iter()
            .flatten()
            .flat_map(|c| c.sketch(size))
            .filter(|m| !matches!(m, Mark::Note(_)))
            .collect();
        marks.push(Mark::Note(format!("{self}: at least one branch holds")));
        marks
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }

    /// `.Or`, each branch (several rules as `.And … .End`), `.End`. A rule
    /// written with the givens (a cell's digits) is a given item of its
    /// own here, which sigh reads inside an `Or` as that rule.
    fn to_sigh(&self, board: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        let mut out = String::from(".Or");
        for branch in &self.0 {
            let mut items = String::new();
            for rule in branch {
                match rule {
                    Constraint::Allowed(a) => {
                        let digits: Vec<String> = (1..=board.size.values())
                            .filter(|d| a.digits >> (d - 1) & 1 == 1)
                            .map(|d| d.to_string())
                            .collect();
                        if digits.is_empty() {
                            return sigh::ToSigh::Cannot("a cell that can hold no digit");
                        }
                        items += &format!(".~{}_{}", sigh::id(a.cell), digits.join("_"));
                    }
                    rule if whole_board(rule) => {
                        return sigh::ToSigh::Cannot(
                            "sigh keeps rules over the whole board out of its Or",
                        );
                    }
                    rule => match rule.to_sigh(board) {
                        sigh::ToSigh::Item(item) => items += &item,
                        sigh::ToSigh::Elsewhere | sigh::ToSigh::Cannot(_) => {
                            return sigh::ToSigh::Cannot(
                                "a rule inside it cannot be written as a sigh item",
                            );
                        }
                    },
                }
            }
            if branch.len() == 1 {
                out += &items;
            } else {
                out += &format!(".And{items}.End");
            }
        }
        out += ".End";
        sigh::ToSigh::Item(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::kinds::notebook_solution_under as check;

    #[test]
    fn the_checker_wants_one_branch() {
        // r1c1 r1c2 hold 7 1: not a thermo, but an X? 7 + 1 = 8: no. A
        // difference of 6: yes.
        assert_eq!(
            check("either thermo r1c1 r1c2 || white dot 6 (r1c1 r1c2)"),
            Ok(())
        );
        assert!(check("either thermo r1c1 r1c2 || x (r1c1 r1c2)").is_err());
        // Both rules of a branch must hold: 7 + 1 = 8, and r1c3 r1c4 hold
        // 5 8.
        assert!(check("either x (r1c1 r1c2) || thermo r1c1 r1c2 && thermo r1c3 r1c4").is_err());
        assert_eq!(
            check("either x (r1c1 r1c2) || thermo r1c2 r1c1 && thermo r1c3 r1c4"),
            Ok(())
        );
        assert_eq!(
            check("either x (r1c1 r1c2) || [either x (r1c3 r1c4) || thermo r1c3 r1c4]"),
            Ok(())
        );
        assert!(check("either thermo r1c1 r1c2").is_err());
        let deep = |n: usize| {
            format!(
                "either x (r1c1 r1c2) || {}thermo r1c2 r1c1{}",
                "[either x (r1c1 r1c2) || ".repeat(n),
                "]".repeat(n)
            )
        };
        assert_eq!(check(&deep(MOST_DEPTH - 1)), Ok(()));
        assert!(check(&deep(MOST_DEPTH)).is_err_and(|e| e.contains("deep")));
        assert!(check(&deep(100_000)).is_err_and(|e| e.contains("deep")));
        assert!(
            check("either regex 7.* r1c1 r1c2 || x (r1c1 r1c2)")
                .is_err_and(|e| e.contains("automaton"))
        );
    }

    #[test]
    fn formulas_say_what_primitives_say() {
        // Every relation, digit by digit, on two cells of a 4x4 board.
        use crate::puzzle::primitive::{Classes, Relation};
        let relations = [
            Relation::Differ,
            Relation::Equal,
            Relation::LessBy(2),
            Relation::LessOrEqual,
            Relation::DifferenceAtLeast(2),
            Relation::DifferenceAtMost(1),
            Relation::DifferenceIs(1),
            Relation::DifferenceIsNot(1),
            Relation::RatioIs(2),
            Relation::RatioIsNot(2),
            Relation::SumIs(5),
            Relation::SumIsNot(5),
            Relation::ClassesDiffer(Classes::Mod(2)),
            Relation::ClassesSame(Classes::Thirds(4)),
            Relation::Implies(2, 3),
            Relation::NotBoth(4),
        ];
        let mut primitives: Vec<Primitive> = relations
            .iter()
            .map(|&relation| Primitive::Pair {
                a: 0,
                b: 1,
                relation,
            })
            .collect();
        primitives.extend([
            Primitive::Distinct {
                cells: vec![0, 1, 2],
                sum: Some(7),
            },
            Primitive::Sum {
                terms: vec![(0, 2), (1, -1), (2, 1)],
                totals: vec![3, 5],
            },
            Primitive::Allowed {
                cell: 2,
                digits: 0b1010,
            },
            Primitive::Contains {
                cells: vec![0, 1, 2],
                digit: 2,
                count: 2,
            },
            Primitive::Between {
                ends: (0, 2),
                middle: vec![1],
            },
            Primitive::Visible {
                cells: vec![0, 1, 2],
                count: 2,
            },
            Primitive::Any {
                literals: vec![(0, 0b1), (2, 0b1100)],
            },
            Primitive::When {
                when: vec![(0, 3)],
                then: Box::new(Primitive::Allowed {
                    cell: 1,
                    digits: 0b10,
                }),
            },
        ]);
        for primitive in &primitives {
            let test = as_test(primitive, 4).unwrap_or_else(|| panic!("{primitive:?}"));
            for k in 0..64 {
                let digits = [k % 4 + 1, k / 4 % 4 + 1, k / 16 + 1];
                let digit = |c: usize| digits[c] as u8;
                assert_eq!(
                    test.holds(&|&c| i128::from(digit(c))),
                    primitive.holds(&digit),
                    "{primitive:?} {digits:?}"
                );
            }
        }
    }

    #[test]
    fn it_reads_back() {
        for line in [
            "either thermo r1c1→r1c2 || X (r3c3 r3c4) && V (r5c5 r5c6)",
            "either cage 10 (r1c1 r1c2) || [either X (r1c1 r1c2) || V (r1c1 r1c2)]",
        ] {
            let mut builder = crate::puzzle::rules::Rules::builder(Size::NINE);
            crate::puzzle::rule_text::read_rules(&[(1, line)], Size::NINE, &mut builder)
                .unwrap_or_else(|e| panic!("{e}"));
            let rules = builder.build().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(rules.constraints()[0].to_string(), line);
        }
    }
}
