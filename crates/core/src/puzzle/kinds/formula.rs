//! A rule written as a formula: `formula EXPR` over the cells `r1c1`, or
//! `smt (assert …)` in SMT-LIB 2 over the names `c_R_C` that `--model`
//! prints. Both are read into one typed tree (see
//! [`expr`](crate::puzzle::expr) for what the operators mean, integer
//! division and division by zero included, and
//! [`expr_parse`](crate::puzzle::expr_parse) for the grammar), lowered to
//! one [`Primitive::Formula`] that every back end states, and checked on a
//! full grid by evaluating the formula as written.
//!
//! f-puzzles has no such rule, so the kind reads no key and writes none:
//! [`unwritable`](crate::puzzle::fpuzzles::write::unwritable) names it,
//! so that `--output fpuzzles` refuses the
//! puzzle rather than drop the rule.

use super::FromZero;
use super::{Added, Read, Rule, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::Context;
use crate::puzzle::expr::{Bounds, LIMIT, Span, Syntax, Test, Written};
use crate::puzzle::expr_parse::{self, ParseError};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::Primitive;
use crate::puzzle::sigh;
use crate::puzzle::sketch::Mark;
use serde_json::Value;
use std::fmt;
use std::sync::Arc;

/// A condition on the digits of some cells, as its line wrote it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Formula {
    /// The condition.
    pub test: Test<Cell>,
    /// The syntax it was written in, which it prints back in.
    pub syntax: Syntax,
}

/// The first word of a `formula` line and of an `smt` line.
const WORDS: [(&str, Syntax); 2] = [("formula", Syntax::Formula), ("smt", Syntax::Smt)];

/// Reads `line` when it is a `formula` or `smt` line (`None` otherwise),
/// from the whole line's text, since the words other rule lines are read
/// from drop `>` and `,`. An error comes with its column in `line`.
pub fn read_line(line: &str, size: Size) -> Option<Result<Formula, ParseError>> {
    let chars: Vec<char> = line.chars().collect();
    let start = chars.iter().position(|c| !c.is_whitespace())?;
    let end = chars[start..]
        .iter()
        .position(|c| !c.is_ascii_alphabetic())
        .map_or(chars.len(), |k| start + k);
    let word: String = chars[start..end].iter().collect::<String>().to_lowercase();
    let (_, syntax) = WORDS.iter().find(|(w, _)| *w == word)?;
    let test = match syntax {
        Syntax::Formula => expr_parse::infix(&chars, end, size),
        Syntax::Smt => expr_parse::smt(&chars, end, size),
    };
    Some(test.map(|test| Formula {
        test,
        syntax: *syntax,
    }))
}

impl Read for Formula {
    /// f-puzzles has no formula rule.
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["formula", "smt"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        Err(FpuzzlesError::Unsupported {
            key: key.to_string(),
            place: String::new(),
        })
    }

    /// A formula line is read from its whole text by [`read_line`], which
    /// `rule_text` asks first; the lower-case words have lost `>` and `,`.
    /// From the words alone the formula reads only when it needs neither.
    fn from_text(name: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let line = format!("{name} {}", words.join(" "));
        match read_line(&line, size) {
            Some(Ok(formula)) => Ok(one(formula)),
            Some(Err(e)) => Err(e.message),
            None => Err(format!("{name:?} does not start a formula line")),
        }
    }
    const SIGH: &'static [&'static str] = &[];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        Err(item.unknown())
    }
}

impl fmt::Display for Formula {
    /// `formula abs(r1c1 - r1c2) != 1 or r1c1 = 9`, or `smt (assert …)`:
    /// the line it reads back from.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (word, name): (&str, &dyn Fn(&Cell) -> String) = match self.syntax {
            Syntax::Formula => ("formula", &|c: &Cell| c.to_string()),
            Syntax::Smt => ("smt", &|c: &Cell| c.model_name()),
        };
        let written = Written {
            test: &self.test,
            syntax: self.syntax,
            name,
        };
        write!(f, "{word} {written}")
    }
}

impl Rule for Formula {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        self.test.cells()
    }

    /// Every number the formula can reach on the board, each cell taking
    /// any digit, must lie within ±2^62, so that every back end computes
    /// it exactly.
    fn validate(&self, size: Size) -> Result<(), String> {
        let all = Span {
            mask: u32::MAX >> (32 - size.side()),
        };
        let span = move |_: &Cell| all;
        let bounds = Bounds::new(&span);
        bounds.truth(&self.test);
        if bounds.over_limit() {
            return Err(format!(
                "its numbers can go beyond ±{LIMIT} (2^62), the most z3doku computes exactly"
            ));
        }
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        vec![Primitive::Formula(Arc::new(
            self.test.map(&|c: &Cell| size.index(*c)),
        ))]
    }

    /// The formula evaluated on the grid as written.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let digit = |c: &Cell| i128::from(board.digit(*c));
        if self.test.holds(&digit) {
            return None;
        }
        let cells = self.cells();
        Some(if cells.is_empty() {
            "it is false".to_string()
        } else {
            format!("it is false where {}", board.holds(&cells))
        })
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        Vec::new()
    }

    /// f-puzzles cannot say it (see
    /// [`unwritable`](crate::puzzle::fpuzzles::write::unwritable)).
    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Cannot(sigh::NO_SUCH_RULE)
    }
}

/// What the native engine asks: whether the formula can still hold, given
/// each cell's digit by `value` (0 when open) and an open cell's
/// candidates by `open`. Reads it over intervals (see
/// [`Bounds`]): exact once every cell is filled, and once all but one
/// are, the one left keeps exactly the digits that satisfy it.
pub fn feasible(
    test: &Test<usize>,
    value: &dyn Fn(usize) -> u8,
    open: &dyn Fn(usize) -> u32,
) -> bool {
    let span = |&c: &usize| Span {
        mask: match value(c) {
            0 => open(c),
            d => 1 << (d - 1),
        },
    };
    Bounds::new(&span).truth(test).can_hold
}

/// The digits of `cells` (row-major) under which `test` fails, every
/// such assignment, when there are at most `limit` assignments to try on
/// a board of `side`; `None` when there are more. The one-hot encodings
/// state a formula over a few cells as one clause per failing assignment.
pub fn failing(test: &Test<usize>, side: u8, limit: usize) -> Option<(Vec<usize>, Vec<Vec<u8>>)> {
    let cells = test.cells();
    let total = (0..cells.len()).try_fold(1usize, |n, _| {
        n.checked_mul(usize::from(side)).filter(|&n| n <= limit)
    })?;
    let mut out = Vec::new();
    let mut digits = vec![1u8; cells.len()];
    for _ in 0..total {
        let digit = |c: &usize| {
            let k = cells.iter().position(|x| x == c).unwrap_or(0);
            i128::from(digits[k])
        };
        if !test.holds(&digit) {
            out.push(digits.clone());
        }
        // The next assignment, the last cell fastest.
        for d in digits.iter_mut().rev() {
            if *d < side {
                *d += 1;
                break;
            }
            *d = 1;
        }
    }
    Some((cells, out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Puzzle;
    use crate::puzzle::check::{CheckError, verify_solution};
    use crate::puzzle::parse::parse_puzzle;
    use crate::puzzle::rule_text;
    use crate::puzzle::rules::Rules;

    const SOLUTION: &str =
        "715894632234516897689723145493657218867231954152489763376148529928365471541972386";

    /// The rules of `lines` on 9x9, or the error as printed.
    fn rules(lines: &str) -> Result<Arc<Rules>, String> {
        let mut builder = Rules::builder(Size::NINE);
        let lines: Vec<(usize, &str)> =
            lines.lines().enumerate().map(|(k, l)| (k + 1, l)).collect();
        rule_text::read_rules(&lines, Size::NINE, &mut builder).map_err(|e| e.to_string())?;
        builder.build().map_err(|e| e.to_string())
    }

    fn printed(line: &str) -> String {
        match rules(line) {
            Ok(rules) => rules.constraints()[0].to_string(),
            Err(e) => e,
        }
    }

    fn error(line: &str) -> String {
        rules(line).err().unwrap_or_else(|| panic!("{line} reads"))
    }

    #[test]
    fn formulas_print_back_as_they_read() {
        for (line, shown) in [
            (
                "formula r1c1 + r1c2 = 2 * r3c3",
                "formula r1c1 + r1c2 = 2 * r3c3",
            ),
            (
                "FORMULA abs(r1c1-r1c2) != 1 or R1C1 = 9",
                "formula abs(r1c1 - r1c2) != 1 or r1c1 = 9",
            ),
            (
                "formula (r1c1 + r1c2) * r1c3 > 10",
                "formula (r1c1 + r1c2) * r1c3 > 10",
            ),
            (
                "formula r1c1 - (r1c2 - r1c3) = 1",
                "formula r1c1 - (r1c2 - r1c3) = 1",
            ),
            (
                "formula r1c1 - r1c2 - r1c3 < 0",
                "formula r1c1 - r1c2 - r1c3 < 0",
            ),
            (
                "formula (r1c1 + r1c2) + r1c3 = 9",
                "formula r1c1 + r1c2 + r1c3 = 9",
            ),
            (
                "formula r1c1 + (r1c2 + r1c3) = 9",
                "formula r1c1 + (r1c2 + r1c3) = 9",
            ),
            (
                "formula -r1c1 / 2 % -3 == --4",
                "formula -r1c1 / 2 % -3 = 4",
            ),
            (
                "formula r1c1 = 1 => r1c2 = 2 => r1c3 = 3",
                "formula r1c1 = 1 => r1c2 = 2 => r1c3 = 3",
            ),
            (
                "formula (r1c1 = 1 => r1c2 = 2) => false",
                "formula (r1c1 = 1 => r1c2 = 2) => false",
            ),
            (
                "formula not (r1c1 = 1 and r1c2 = 2) or not r3c3 > 4",
                "formula not (r1c1 = 1 and r1c2 = 2) or not r3c3 > 4",
            ),
            (
                "formula (r1c1 = 1 or r1c2 = 1) and r1c3 <> 2",
                "formula (r1c1 = 1 or r1c2 = 1) and r1c3 != 2",
            ),
            (
                "formula sum(r1c1 r1c2, r1c3) = min(r2c2, 3) + max(r4c4) + count(5, r5c5 r5c6)",
                "formula sum(r1c1, r1c2, r1c3) = min(r2c2, 3) + max(r4c4) + count(5, r5c5, r5c6)",
            ),
            (
                "formula 1 + if r1c1 > 5 then r1c2 else r1c3 = 4",
                "formula 1 + (if r1c1 > 5 then r1c2 else r1c3 = 4)",
            ),
            (
                "formula if r1c1 > 5 then distinct(r1c2, r1c3 + 1) else true",
                "formula if r1c1 > 5 then distinct(r1c2, r1c3 + 1) else true",
            ),
            (
                "smt (assert (= (+ c_1_1 c_1_2) (* 2 c_3_3)))",
                "smt (assert (= (+ c_1_1 c_1_2) (* 2 c_3_3)))",
            ),
            (
                "smt (assert (or (distinct (abs (- c_1_1 c_1_2)) 1) (= c_1_1 9))) (assert (< c_1_1 c_1_2 c_1_3))",
                "smt (assert (and (or (distinct (abs (- c_1_1 c_1_2)) 1) (= c_1_1 9)) (and (< c_1_1 c_1_2) (< c_1_2 c_1_3))))",
            ),
            (
                "smt (assert (=> (not (>= c_2_2 (- 3))) (ite (> (div c_1_1 (mod c_1_2 4)) 1) true (<= (- c_9_9) 5))))",
                "smt (assert (=> (not (>= c_2_2 (- 3))) (ite (> (div c_1_1 (mod c_1_2 4)) 1) true (<= (- c_9_9) 5))))",
            ),
        ] {
            // `1 + if …` reads its `else` as far as it goes, which makes a
            // number plus a condition: a type error, shown below.
            if line.contains("1 + if") {
                continue;
            }
            assert_eq!(printed(line), shown, "{line}");
            assert_eq!(printed(shown), shown, "{shown} reads back");
        }
    }

    #[test]
    fn errors_point_at_the_character() {
        let mut wrong = Vec::new();
        for (line, message) in [
            (
                "formula r1c1 + * 2 = 3",
                "line 1, column 16: expected a cell, a number or '(', found \"*\"",
            ),
            (
                "formula r1c1 = 2 and r2c2",
                "line 1, column 22: 'and' needs a condition (a comparison, distinct(…), true or \
                 false), and r2c2 is a number",
            ),
            (
                "  formula r1c1 + (r1c2 = 3) > 1",
                "line 1, column 18: '+' needs a number, and (r1c2 = 3) is a condition",
            ),
            (
                "formula r1c1 + r1c2",
                "line 1, column 9: a formula needs a condition (a comparison, distinct(…), true or false), and r1c1 + r1c2 is a number",
            ),
            (
                "formula r1c1 < r1c2 < r1c3",
                "line 1, column 21: comparisons do not chain: join them with 'and'",
            ),
            (
                "formula r1c1 / 0 = 1",
                "line 1, column 16: division by zero",
            ),
            (
                "formula r10c1 = 1",
                "line 1, column 9: r10c1 is not a cell on the 9x9 board",
            ),
            (
                "formula r1c1 = 1 & r1c2 = 2",
                "line 1, column 18: unexpected character '&'",
            ),
            (
                "formula (r1c1 = 1",
                "line 1, column 18: expected ')', found the end of the line",
            ),
            (
                "formula",
                "line 1, column 8: expected a formula after 'formula'",
            ),
            (
                "formula foo = 1",
                "line 1, column 9: expected a cell, a number or '(', found \"foo\"",
            ),
            (
                "formula if r1c1 = 1 then 2 else r1c2 = 3",
                "line 1, column 33: 'then' gave a number, so 'else' needs one too, and this is a condition",
            ),
            (
                "formula abs(r1c1, r1c2) = 1",
                "line 1, column 9: abs(…) takes one number",
            ),
            (
                "formula r1c1 * r1c2 * r1c3 * r1c4 * r1c5 * r1c6 * r1c7 * r1c8 * r1c9 * r2c1 * r2c2 * r2c3 * r2c4 * r2c5 * r2c6 * r2c7 * r2c8 * r2c9 * r3c1 * r3c2 > 0",
                "line 1: formula r1c1 * r1c2 * r1c3 * r1c4 * r1c5 * r1c6 * r1c7 * r1c8 * r1c9 * r2c1 * r2c2 * r2c3 * r2c4 * r2c5 * r2c6 * r2c7 * r2c8 * r2c9 * r3c1 * r3c2 > 0: its numbers can go beyond ±4611686018427387904 (2^62), the most z3doku computes exactly",
            ),
            (
                "smt (assert (bvadd c_1_1 1))",
                "line 1, column 14: \"bvadd\" is not an operator z3doku reads in an smt line (it reads + - * div mod abs = distinct < <= > >= and or not => ite)",
            ),
            (
                "smt (assert (= x 1))",
                "line 1, column 16: unknown name \"x\": the cells are c_R_C, as --model names them",
            ),
            (
                "smt (declare-const x Int)",
                "line 1, column 6: an smt line holds (assert …) only, found \"declare-const\" (every cell c_R_C is declared already)",
            ),
            (
                "smt (assert (+ c_1_1 2))",
                "line 1, column 13: assert needs a condition (a comparison, distinct(…), true or false), and (+ c_1_1 2) is a number",
            ),
            (
                "smt (assert (= c_1_1 -3))",
                "line 1, column 22: SMT-LIB writes -3 as (- 3)",
            ),
            (
                "smt (assert (not (= c_1_1 1) (= c_1_2 1)))",
                "line 1, column 14: not takes 1 arguments, not 2",
            ),
            (
                "smt (assert (= c_1_1 1)",
                "line 1, column 24: expected ')', found the end of the line",
            ),
            (
                "smt (assert (mod c_1_1 0))",
                "line 1, column 24: division by zero",
            ),
        ] {
            let found = error(line);
            if found != message {
                wrong.push(format!("{line}\n  found {found}\n  not   {message}"));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn deep_or_long_formulas_are_refused_not_overflowed() {
        let deep = format!("formula {}r1c1{} = 1", "(".repeat(100), ")".repeat(100));
        assert!(
            error(&deep).contains("nests more than 64 deep"),
            "{}",
            error(&deep)
        );
        let nots = format!("formula {} r1c1 = 1", "not ".repeat(100));
        assert!(error(&nots).contains("nests more than"));
        let smt = format!(
            "smt (assert {}true{})",
            "(not ".repeat(100),
            ")".repeat(100)
        );
        assert!(error(&smt).contains("nests more than"));
        // Past the length limit, however it nests.
        for long in [
            format!("formula r1c1 {} = 1", "- r1c1 ".repeat(5000)),
            format!(
                "formula {}r1c1{} = 1",
                "(".repeat(100_000),
                ")".repeat(100_000)
            ),
        ] {
            assert!(
                error(&long).contains("too long (over 2000"),
                "{}",
                error(&long)
            );
        }
    }

    #[test]
    fn the_checker_evaluates_the_formula_as_written() {
        let grid = parse_puzzle(SOLUTION, None).unwrap_or_else(|e| panic!("{e}"));
        let check = |line: &str| {
            let rules = rules(line).unwrap_or_else(|e| panic!("{e}"));
            let puzzle = Puzzle::new(grid.clone(), rules);
            verify_solution(&puzzle, &grid)
        };
        // r1c1 = 7, r1c2 = 1, r1c3 = 5, r3c3 = 9.
        assert_eq!(check("formula r1c1 + r1c2 = r1c3 + 3"), Ok(()));
        assert_eq!(
            check("formula (r1c2 - r1c1) / 4 = -2 and (r1c2 - r1c1) % 4 = 2"),
            Ok(())
        );
        assert_eq!(check("smt (assert (= (mod (- c_1_2 c_1_1) 4) 2))"), Ok(()));
        assert_eq!(
            check("formula r1c1 / (r1c2 - 1) = 0 and r1c1 % (r1c2 - 1) = 7"),
            Ok(())
        );
        assert!(matches!(
            check("formula r1c1 + r1c2 = 2 * r3c3"),
            Err(CheckError::Broken { rule, detail })
                if rule == "formula r1c1 + r1c2 = 2 * r3c3"
                    && detail == "it is false where r1c1 holds 7 and r1c2 holds 1 and r3c3 holds 9"
        ));
    }

    #[test]
    fn a_formula_has_no_f_puzzles_key() {
        let rules = rules("formula r1c1 = 5").unwrap_or_else(|e| panic!("{e}"));
        let puzzle = Puzzle::new(
            parse_puzzle(&".".repeat(81), None).unwrap_or_else(|e| panic!("{e}")),
            rules,
        );
        assert_eq!(
            crate::puzzle::fpuzzles::write::unwritable(&puzzle),
            ["formula r1c1 = 5"]
        );
        assert!(
            puzzle.rules().constraints()[0]
                .to_fpuzzles(Size::NINE)
                .is_none()
        );
    }

    #[test]
    fn the_last_open_cell_keeps_exactly_the_digits_that_satisfy_it() {
        let rules = rules("formula abs(r1c1 - r1c2) != 1 or r1c1 = 9\nformula (r1c3 - 5) % 3 = 2 and r1c3 / 4 >= 1")
            .unwrap_or_else(|e| panic!("{e}"));
        let tests: Vec<Arc<Test<usize>>> = rules
            .lowered()
            .iter()
            .flatten()
            .filter_map(|p| match p {
                Primitive::Formula(t) => Some(Arc::clone(t)),
                _ => None,
            })
            .collect();
        let open_all = |_: usize| 0x1ff;
        // r1c2 = 5: r1c1 may not be 4 or 6.
        let first = &tests[0];
        let kept: Vec<u8> = (1..=9)
            .filter(|&d| feasible(first, &|c| [d, 5][c.min(1)], &open_all))
            .collect();
        assert_eq!(kept, [1, 2, 3, 5, 7, 8, 9]);
        // (d - 5) mod 3 = 2 for d = 4, 7 (and 1, which d / 4 >= 1 rules out).
        let second = &tests[1];
        let kept: Vec<u8> = (1..=9)
            .filter(|&d| feasible(second, &|_| d, &open_all))
            .collect();
        assert_eq!(kept, [4, 7]);
        // With nothing filled, intervals prune too: r1c3 / 4 >= 1 needs 4.. at least.
        let only_low = |_: usize| 0b111;
        assert!(!feasible(second, &|_| 0, &only_low));
    }
}
