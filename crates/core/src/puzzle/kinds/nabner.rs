//! The nabner line (f-puzzles' `nabner`): no two cells on the line hold
//! consecutive digits, wherever they are on it, and no digit repeats on it.
//! So every two of its digits differ by at least 2, and a line holds at
//! most half the digits, rounded up (5 on 9x9: 1 3 5 7 9).

use super::FromZero;
use super::lines::read_lines;
use super::{Added, Read, Rule, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{Context, index, list, listed_once, within};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::{Item, line};
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::{Primitive, Relation};
use crate::puzzle::rule_text as text;
use crate::puzzle::sigh;
use crate::puzzle::sketch::{LineColour, Mark};
use serde_json::Value;
use std::fmt;

/// A nabner line: its digits differ by at least 2, every two of them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Nabner(pub Vec<Cell>);

impl Read for Nabner {
    const KEYS: &'static [&'static str] = &["nabner"];
    const NAMES: &'static [&'static str] = &["nabner"];

    fn from_fpuzzles(key: &str, value: &Value, size: Size) -> Result<Vec<Added>, FpuzzlesError> {
        read_lines(key, value, size, |cells, _, _| Ok(Nabner(cells).into()))
    }

    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        Ok(one(Nabner(text::cells(words, size)?)))
    }
    const SIGH: &'static [&'static str] = &["PairX"];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        // Every two cells of the group at least two apart.
        if !item.relation_is(Relation::DifferenceAtLeast(2)) {
            return Ok(Vec::new());
        }
        Ok(one(Nabner(item.cells(&item.args[1..])?)))
    }
}

impl fmt::Display for Nabner {
    /// `nabner r1c1→r1c2→r2c2`, which reads back as the same line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "nabner {}", list(&self.0, "→"))
    }
}

impl Rule for Nabner {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        self.0.clone()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        listed_once(&self.0)?;
        let most = size.side().div_ceil(2);
        if self.0.len() > most {
            return Err(format!(
                "{} cells cannot hold digits from 1 to {} that differ by 2 or more",
                self.0.len(),
                size.side()
            ));
        }
        Ok(())
    }

    /// A difference of at least 2 between every two cells: that says both
    /// halves of the rule, as equal digits differ by 0.
    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        within(
            &index(context.size, &self.0),
            self.0.len(),
            Relation::DifferenceAtLeast(2),
        )
    }

    /// The two halves of the rule as it is stated: a repeat, then two
    /// consecutive digits.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        board.repeat(&self.0).or_else(|| {
            let cells = &self.0;
            (0..cells.len()).find_map(|i| {
                cells[i + 1..].iter().find_map(|&b| {
                    (board.digit(cells[i]).abs_diff(board.digit(b)) == 1)
                        .then(|| format!("{} are consecutive", board.holds(&[cells[i], b])))
                })
            })
        })
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![Mark::Line {
            cells: self.0.clone(),
            colour: LineColour::Yellow,
        }]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some(("nabner", line(&self.0)))
    }
    fn to_sigh(&self, board: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        let key = sigh::relation_key(board.size.side(), |a, b| {
            Relation::DifferenceAtLeast(2).allows(a, b)
        });
        sigh::ToSigh::Item(format!(".PairX~{key}{}", sigh::ids(&self.0)))
    }
}

#[cfg(test)]
mod tests {
    use crate::puzzle::check::{CheckError, verify_solution};
    use crate::puzzle::fpuzzles::{parse, write::to_json};
    use crate::puzzle::parse::parse_puzzle;
    use crate::puzzle::{Puzzle, rule_text};

    const SOLUTION: &str =
        "715894632234516897689723145493657218867231954152489763376148529928365471541972386";

    /// The puzzle with an empty grid and `rules` as rule lines.
    fn puzzle(rules: &str) -> Result<Puzzle, String> {
        let grid = parse_puzzle(&".".repeat(81), None).map_err(|e| e.to_string())?;
        let mut builder = crate::puzzle::rules::Rules::builder(grid.size());
        let lines: Vec<(usize, &str)> =
            rules.lines().enumerate().map(|(k, l)| (k + 1, l)).collect();
        rule_text::read_rules(&lines, grid.size(), &mut builder).map_err(|e| e.to_string())?;
        let rules = builder.build().map_err(|e| e.to_string())?;
        Ok(Puzzle::new(grid, rules))
    }

    fn solution() -> crate::puzzle::grid::Grid {
        parse_puzzle(SOLUTION, None).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn reads_from_fpuzzles_and_writes_back() {
        let json = r#"{"size":9,"grid":[[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],
            [{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],
            [{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],
            [{},{},{},{},{},{},{},{},{}]],"nabner":[{"lines":[["R1C1","R1C3","R2C2"]]}]}"#;
        let read = parse(json).unwrap_or_else(|e| panic!("{e}"));
        let shown: Vec<String> = read
            .rules()
            .constraints()
            .iter()
            .map(|c| c.to_string())
            .collect();
        assert_eq!(shown, ["nabner r1c1→r1c3→r2c2"]);
        let again = parse(&to_json(&read, None)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again, read);
        assert!(to_json(&read, None).contains(r#""nabner":[{"lines":[["R1C1","R1C3","R2C2"]]}]"#));
    }

    #[test]
    fn the_checker_reads_the_rule_as_stated() {
        // r1c1 = 7, r1c3 = 5, r2c2 = 3: no two consecutive, none repeated.
        let kept = puzzle("nabner r1c1 r1c3 r2c2").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(verify_solution(&kept, &solution()), Ok(()));
        // r1c1 = 7 and r1c4 = 8 are consecutive, though not neighbours.
        let far = puzzle("nabner r1c1 r1c3 r1c4").unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(
            verify_solution(&far, &solution()),
            Err(CheckError::Broken { detail, .. }) if detail == "r1c1 holds 7 and r1c4 holds 8 are consecutive"
        ));
        // r1c1 and r2c9 both hold 7.
        let repeat = puzzle("nabner r1c1 r2c9").unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(
            verify_solution(&repeat, &solution()),
            Err(CheckError::Broken { detail, .. }) if detail == "r1c1 and r2c9 both hold 7"
        ));
    }

    #[test]
    fn a_line_longer_than_half_the_digits_is_refused() {
        let error = puzzle("nabner r1c1 r1c2 r1c3 r1c4 r1c5 r1c6").err();
        assert_eq!(
            error.as_deref(),
            Some(
                "line 1: nabner r1c1→r1c2→r1c3→r1c4→r1c5→r1c6: \
                 6 cells cannot hold digits from 1 to 9 that differ by 2 or more"
            )
        );
        assert!(puzzle("nabner r1c1 r1c2 r1c3 r1c4 r1c5").is_ok());
    }
}
