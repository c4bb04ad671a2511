//! A weighted sum (sigh's `Sum`): the cells' digits, each times its
//! weight, add up to a total. Unlike a cage, digits may repeat. With every
//! weight 1 it is a killer cage without the distinct digits; weights such
//! as 1 and -1 say that two groups of cells add up alike.

use super::FromZero;
use super::{Added, Read, Rule, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{Context, merged};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::Primitive;
use crate::puzzle::rule_text as text;
use crate::puzzle::sigh;
use crate::puzzle::sketch::Mark;
use serde_json::Value;
use std::fmt;

/// `Σ weight · digit = sum` over its terms.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WeightedSum {
    /// Each cell and its weight, as the rule lists them (a cell listed
    /// twice counts with both weights).
    pub terms: Vec<(Cell, i32)>,
    /// The total.
    pub sum: i32,
}

impl Read for WeightedSum {
    /// f-puzzles has no such rule.
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["sum"];

    fn from_fpuzzles(_: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        Ok(Vec::new())
    }

    /// `sum 10 (r1c1, 2 r1c2, -1 r1c3)`: the total, then the cells, each
    /// after its weight when that is not 1.
    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let total = words.first().map_or("", String::as_str);
        let sum: i32 = total
            .parse()
            .map_err(|_| format!("expected the total, found {total:?}"))?;
        let mut terms = Vec::new();
        let mut weight = None;
        for word in words[1..].iter().filter(|w| *w != "(" && *w != ")") {
            match word.parse::<i32>() {
                Ok(w) if weight.is_none() => weight = Some(w),
                Ok(_) => return Err(format!("two weights in a row before {word:?}")),
                Err(_) => terms.push((text::cell(word, size)?, weight.take().unwrap_or(1))),
            }
        }
        if weight.is_some() {
            return Err("a weight with no cell after it".into());
        }
        Ok(one(WeightedSum { terms, sum }))
    }
    const SIGH: &'static [&'static str] = &["Sum"];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        // `10` or `10_=_1_-2_…`: the total, then a weight per cell.
        let spec = item.args.first().map_or("", String::as_str);
        let mut parts = spec.split('_');
        let sum: i32 = parts
            .next()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| item.invalid(format!("{spec:?} is not a total")))?;
        let cells = item.cells(item.args.get(1..).unwrap_or_default())?;
        let weights: Vec<i32> = match parts.next() {
            None => vec![1; cells.len()],
            Some("=") => parts
                .map(|w| w.parse().ok().filter(|w: &i32| w.abs() <= 100))
                .collect::<Option<_>>()
                .ok_or_else(|| item.invalid("weights are whole numbers from -100 to 100"))?,
            Some(_) => return Err(item.invalid(format!("{spec:?} is not a total"))),
        };
        if weights.len() != cells.len() {
            return Err(item.invalid(format!(
                "{} weights for {} cells",
                weights.len(),
                cells.len()
            )));
        }
        Ok(one(WeightedSum {
            terms: cells.into_iter().zip(weights).collect(),
            sum,
        }))
    }
}

impl fmt::Display for WeightedSum {
    /// `sum 10 (r1c1, 2 r1c2, -1 r1c3)`, which reads back as the same rule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let terms: Vec<String> = self
            .terms
            .iter()
            .map(|&(cell, w)| match w {
                1 => cell.to_string(),
                w => format!("{w} {cell}"),
            })
            .collect();
        write!(f, "sum {} ({})", self.sum, terms.join(", "))
    }
}

impl WeightedSum {
    /// The terms with each cell once (weights of a cell listed twice
    /// added), zero weights left out.
    fn merged(&self, size: Size) -> Vec<(usize, i32)> {
        merged(self.terms.iter().map(|&(c, w)| (size.index(c), w)))
    }
}

impl Rule for WeightedSum {
    /// Each digit is its value plus one: the total grows by every weight.
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::As(
            WeightedSum {
                terms: self.terms.clone(),
                sum: self.sum + self.terms.iter().map(|&(_, w)| w).sum::<i32>(),
            }
            .into(),
        )
    }

    fn cells(&self) -> Vec<Cell> {
        self.terms.iter().map(|&(c, _)| c).collect()
    }

    /// Some cell must count, and the total must lie between the least and
    /// the greatest the weighted digits reach.
    fn validate(&self, size: Size) -> Result<(), String> {
        let side = size.values() as i64;
        let terms = self.merged(size);
        if terms.is_empty() {
            return Err("no cell counts (every weight is 0)".into());
        }
        let (low, high) = terms.iter().fold((0i64, 0i64), |(lo, hi), &(_, w)| {
            let (a, b) = (i64::from(w), i64::from(w) * side);
            (lo + a.min(b), hi + a.max(b))
        });
        if !(low..=high).contains(&i64::from(self.sum)) {
            return Err(format!(
                "the weighted digits add up to {low} to {high}, never {}",
                self.sum
            ));
        }
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        vec![Primitive::Sum {
            terms: self.merged(context.size),
            totals: vec![self.sum],
        }]
    }

    /// Each term as listed, weight times digit.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let got: i64 = self
            .terms
            .iter()
            .map(|&(c, w)| i64::from(w) * i64::from(board.digit(c)))
            .sum();
        (got != i64::from(self.sum)).then(|| format!("the weighted digits add up to {got}"))
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        Vec::new()
    }

    /// f-puzzles cannot say it.
    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        if self.terms.iter().any(|&(_, k)| k.abs() > 100) {
            return sigh::ToSigh::Cannot("sigh's weights run from -100 to 100");
        }
        let cells: Vec<Cell> = self.terms.iter().map(|&(c, _)| c).collect();
        if self.terms.iter().all(|&(_, k)| k == 1) {
            return sigh::ToSigh::Item(format!(".Sum~{}{}", self.sum, sigh::ids(&cells)));
        }
        let weights: Vec<String> = self.terms.iter().map(|(_, k)| k.to_string()).collect();
        let (sum, weights) = (self.sum, weights.join("_"));
        sigh::ToSigh::Item(format!(".Sum~{sum}_=_{weights}{}", sigh::ids(&cells)))
    }
}

#[cfg(test)]
mod tests {
    use crate::puzzle::check::{CheckError, verify_solution};
    use crate::puzzle::parse::parse_puzzle;
    use crate::puzzle::{Puzzle, rule_text};

    const SOLUTION: &str =
        "715894632234516897689723145493657218867231954152489763376148529928365471541972386";

    fn puzzle(rules: &str) -> Result<Puzzle, String> {
        let grid = parse_puzzle(&".".repeat(81), None).map_err(|e| e.to_string())?;
        let mut builder = crate::puzzle::rules::Rules::builder(grid.size());
        let lines: Vec<(usize, &str)> =
            rules.lines().enumerate().map(|(k, l)| (k + 1, l)).collect();
        rule_text::read_rules(&lines, grid.size(), &mut builder).map_err(|e| e.to_string())?;
        let rules = builder.build().map_err(|e| e.to_string())?;
        Ok(Puzzle::new(grid, rules))
    }

    fn names(rules: &str) -> Vec<String> {
        puzzle(rules)
            .unwrap_or_else(|e| panic!("{e}"))
            .rules()
            .constraints()
            .iter()
            .map(|c| c.to_string())
            .collect()
    }

    #[test]
    fn reads_back_as_printed() {
        assert_eq!(
            names("sum 10 (r1c1, 2 r1c2, -1 r1c3)"),
            ["sum 10 (r1c1, 2 r1c2, -1 r1c3)"]
        );
        assert_eq!(
            names("sum -3 r1c1 r1c1 -4 r2c2"),
            ["sum -3 (r1c1, r1c1, -4 r2c2)"]
        );
    }

    #[test]
    fn the_checker_reads_the_rule_as_stated() {
        let solution = parse_puzzle(SOLUTION, None).unwrap_or_else(|e| panic!("{e}"));
        // r1c1 = 7, r1c2 = 1, r1c3 = 5: 7 + 2 - 5 = 4; repeats allowed.
        let kept = puzzle("sum 4 (r1c1, 2 r1c2, -1 r1c3)\nsum 14 (r1c1 r2c9)")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(verify_solution(&kept, &solution), Ok(()));
        let broken = puzzle("sum 5 (r1c1, 2 r1c2, -1 r1c3)").unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(
            verify_solution(&broken, &solution),
            Err(CheckError::Broken { detail, .. }) if detail == "the weighted digits add up to 4"
        ));
    }

    #[test]
    fn unreachable_totals_are_refused() {
        assert_eq!(
            puzzle("sum 19 (r1c1 r1c2)").err().as_deref(),
            Some("line 1: sum 19 (r1c1, r1c2): the weighted digits add up to 2 to 18, never 19")
        );
        assert!(puzzle("sum 0 (r1c1, -1 r1c1)").is_err());
        assert!(puzzle("sum -8 (r1c1, -1 r1c2)").is_ok());
    }
}
