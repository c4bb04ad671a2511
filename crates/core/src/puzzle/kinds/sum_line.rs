//! The sum line (sigh's `SumLine`): the line can be cut into segments of
//! consecutive cells that each add up to the given sum. A loop (sigh's
//! `LOOP` argument) closes on itself, so one segment may run through the
//! line's last cell and on from its first.
//!
//! It comes down to an [automaton](crate::puzzle::automaton) over the
//! running total of the segment so far: a digit adds to it, reaching the
//! sum starts a new segment, going past it fails, and the line ends at a
//! segment's end. A loop starts at some running total `p` (what the
//! segment through the joint holds before the first cell) and must end at
//! the same `p`, so it is one copy of that automaton per `p`.
//!
//! f-puzzles has no key for it: it is read from rule lines and sigh
//! strings (`.SumLine~10~R1C1~R1C2~R1C3` and `…~LOOP`).

use super::FromZero;
use super::{Added, Read, Rule, no_key, one};
use crate::puzzle::automaton::Automaton;
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{Context, index, list, listed_once};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::Primitive;
use crate::puzzle::rule_text as text;
use crate::puzzle::sigh;
use crate::puzzle::sketch::{LineColour, Mark};
use serde_json::Value;
use std::fmt;
use std::sync::Arc;

/// The word that makes a line a loop, in rule lines (`loop`) and in sigh's
/// arguments (`LOOP`).
const LOOP: &str = "loop";

/// The largest sum a loop may have: its automaton has a state per pair of
/// running totals, so this bounds it to 64 x 64 states.
const MOST_LOOP_SUM: u32 = 64;

/// sigh's largest sum (its solver keeps the running totals in 32 bits).
const MOST_SIGH_SUM: u32 = 30;

/// A line cut into segments that each add up to `sum`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SumLine {
    /// Each segment's total.
    pub sum: u32,
    /// Whether the line closes on itself.
    pub looped: bool,
    /// The cells in order.
    pub cells: Vec<Cell>,
}

impl Read for SumLine {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["sum line", "sumline"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    /// `sum line SUM [loop] CELLS`.
    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let (sum, skip) = text::leading(words);
        let sum = sum.ok_or("a sum line needs its sum first")?;
        let looped = words.get(skip).is_some_and(|w| w == LOOP);
        let cells = text::cells(&words[skip + usize::from(looped)..], size)?;
        Ok(one(SumLine { sum, looped, cells }))
    }

    const SIGH: &'static [&'static str] = &["SumLine"];

    /// `.SumLine~SUM~CELL~…`, with `~LOOP` last for a loop.
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        let sum = item.number(item.args.first())?;
        let rest = item.args.get(1..).unwrap_or_default();
        let (rest, looped) = match rest.split_last() {
            Some((last, cells)) if last == "LOOP" => (cells, true),
            _ => (rest, false),
        };
        Ok(one(SumLine {
            sum,
            looped,
            cells: item.cells(rest)?,
        }))
    }
}

impl fmt::Display for SumLine {
    /// `sum line 10 r1c1→r1c2→r1c3`, or `sum line 10 loop …`, which read
    /// back as the same line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let looped = if self.looped { " loop" } else { "" };
        write!(
            f,
            "sum line {}{looped} {}",
            self.sum,
            list(&self.cells, "→")
        )
    }
}

/// Whether `digits`, read in order from a running total of `start`, is cut
/// into whole segments of `sum` and ends at a running total of `start`
/// again: the rule as stated, for the checker.
fn segments_from(digits: &[u8], sum: u32, start: u32) -> bool {
    let mut running = start;
    for &d in digits {
        running += u32::from(d);
        if running == sum {
            running = 0;
        } else if running > sum {
            return false;
        }
    }
    running == start
}

impl SumLine {
    /// The automaton over running totals: states `p * sum + s` for the
    /// total `p` the run started at (always 0 on a line) and the total
    /// `s` now; a digit moves `s` to `s + d`, or to 0 when that is the sum.
    pub fn automaton(&self, size: Size) -> Automaton {
        let sum = self.sum as usize;
        let starts = if self.looped { sum } else { 1 };
        let side = size.side();
        let mut edges = Vec::new();
        for p in 0..starts {
            for s in 0..sum {
                let mut back = 0u32;
                for d in 1..=side.min(sum - s) {
                    if s + d == sum {
                        back |= 1 << (d - 1);
                    } else {
                        edges.push((p * sum + s, p * sum + s + d, 1u32 << (d - 1)));
                    }
                }
                if back != 0 {
                    edges.push((p * sum + s, p * sum, back));
                }
            }
        }
        let ends: Vec<usize> = (0..starts).map(|p| p * sum + p).collect();
        Automaton {
            states: starts * sum,
            start: ends.clone(),
            accept: ends,
            edges,
        }
    }
}

impl Rule for SumLine {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        listed_once(&self.cells)?;
        if self.sum == 0 {
            return Err("a sum line's segments add up to 1 or more".into());
        }
        let most = size.side() as u32 * self.cells.len() as u32;
        if self.sum > most {
            return Err(format!(
                "a sum of {} cannot be reached on {} cells",
                self.sum,
                self.cells.len()
            ));
        }
        if self.looped && self.sum > MOST_LOOP_SUM {
            return Err(format!(
                "a sum line loop's sum is at most {MOST_LOOP_SUM}, not {}",
                self.sum
            ));
        }
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        vec![Primitive::Automaton {
            cells: index(context.size, &self.cells),
            automaton: Arc::new(self.automaton(context.size)),
        }]
    }

    /// As stated: a line is cut from its first cell; a loop may be cut
    /// anywhere, so some running total at its first cell must work.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let digits: Vec<u8> = self.cells.iter().map(|&c| board.digit(c)).collect();
        let fits = if self.looped {
            (0..self.sum).any(|start| segments_from(&digits, self.sum, start))
        } else {
            segments_from(&digits, self.sum, 0)
        };
        (!fits).then(|| {
            format!(
                "{}: not cut into segments of {}",
                board.holds(&self.cells),
                self.sum
            )
        })
    }

    fn sketch(&self, _size: Size) -> Vec<Mark> {
        let mut cells = self.cells.clone();
        if self.looped {
            cells.extend(self.cells.first().copied());
        }
        vec![
            Mark::Line {
                cells,
                colour: LineColour::Green,
            },
            Mark::Note(format!(
                "{self}: the line is cut into segments that each add up to {}",
                self.sum
            )),
        ]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }

    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        if self.sum > MOST_SIGH_SUM {
            return sigh::ToSigh::Cannot("sigh's sum lines add up to 30 at most");
        }
        let looped = if self.looped { "~LOOP" } else { "" };
        sigh::ToSigh::Item(format!(
            ".SumLine~{}{}{looped}",
            self.sum,
            sigh::ids(&self.cells)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::kinds::notebook_solution_under as check;

    #[test]
    fn the_checker_cuts_the_line() {
        // r1c1..r1c6 hold 7 1 5 8 9 4: 7+1 = 8, then 5 alone is short.
        assert_eq!(check("sum line 8 r1c1 r1c2 r1c4"), Ok(()));
        assert!(check("sum line 8 r1c1 r1c2 r1c3").is_err());
        // 5 8 | 9 4 = 13 13.
        assert_eq!(check("sum line 13 r1c3 r1c4 r1c5 r1c6"), Ok(()));
        // r1c2 r1c3 r1c4 r1c6 hold 1 5 8 4: no run round the loop makes 9.
        assert!(check("sum line 9 loop r1c2 r1c3 r1c4 r1c6").is_err());
        // r1c4 r1c6 r1c3 r1c2 hold 8 4 5 1: 4 5 | 1 8, through the joint.
        assert_eq!(check("sum line 9 loop r1c4 r1c6 r1c3 r1c2"), Ok(()));
        assert!(check("sum line 9 r1c4 r1c6 r1c3 r1c2").is_err());
        assert!(check("sum line loop r1c1").is_err());
    }

    #[test]
    fn the_automaton_reads_as_the_checker() {
        let size = Size::NINE;
        let words = |n: u32| -> Vec<Vec<u8>> {
            (0..9u32.pow(n))
                .map(|k| (0..n).map(|j| (k / 9u32.pow(j) % 9) as u8 + 1).collect())
                .collect()
        };
        for looped in [false, true] {
            for sum in [1, 4, 9, 10, 15] {
                let line = SumLine {
                    sum,
                    looped,
                    cells: Vec::new(),
                };
                let automaton = line.automaton(size);
                for n in 1..=4 {
                    for word in words(n) {
                        let want = if looped {
                            (0..sum).any(|p| segments_from(&word, sum, p))
                        } else {
                            segments_from(&word, sum, 0)
                        };
                        assert_eq!(automaton.accepts(&word), want, "{sum} {looped} {word:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn it_reads_back() {
        for line in [
            "sum line 10 r1c1→r1c2→r1c3",
            "sum line 12 loop r1c1→r1c2→r2c2→r2c1",
        ] {
            let mut builder = crate::puzzle::rules::Rules::builder(Size::NINE);
            crate::puzzle::rule_text::read_rules(&[(1, line)], Size::NINE, &mut builder)
                .unwrap_or_else(|e| panic!("{e}"));
            let rules = builder.build().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(rules.constraints()[0].to_string(), line);
        }
    }
}
