//! Full rank clues (sigh's `FullRank`): every row and column is read as a
//! number from each of its two ends, which makes 4N numbers on an NxN
//! board, ranked from the lowest (1) to the highest; a clue beside a row
//! or column is the rank of the number read from that end.
//!
//! Each digit starts exactly four of the numbers (the top and bottom rows
//! and the outer columns hold every digit once), so the numbers starting
//! with `v` hold the ranks `4(v - 1) + 1` to `4v`: a clue of rank `r`
//! says its line starts with `v = ⌈r / 4⌉` and that exactly `(r - 1) mod
//! 4` of the other three numbers starting with `v` are lower. sigh's
//! `FullRankTies` option says what a tie means. By default (`only-unclued`)
//! a clued number ties with none: the rest of the four are all higher.
//! With `any`, ties share a rank (as in 1, 2, 2, 4), so only the count of
//! lower numbers is fixed; this is the clue's `ties`. With `none` no two of
//! the 4N numbers tie, clued or not, and it holds with no clue at all
//! (sigh: "No ranks" affects the grid even when there are no FullRank
//! clues): that is a rule of its own, [`NoTies`] (`full rank without
//! ties`), and each clue beside it ties with none, as by default. (sigh's
//! handler in that mode ranks clues as by default and then refuses any two
//! equal numbers of the board.)
//!
//! f-puzzles has no key for it: it is read from rule lines (`full rank 5
//! (row 1)`, `full rank 5 with ties (column 3 from the bottom)`, `full
//! rank without ties`) and sigh strings (`.FullRank~R1~5~`, the value
//! before the second `~` for the left or top end, after it for the right
//! or bottom end; `.FullRankTies~none`).

use super::FromZero;
use super::outside::{Outside, clue_words, sigh_clue, sigh_clues};
use super::{Added, Constraint, Read, Rule, no_key, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::Context;
use crate::puzzle::expr::{Compare, Num, Test};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::Primitive;
use crate::puzzle::rank::Rank;
use crate::puzzle::sigh;
use serde_json::Value;
use std::fmt;
use std::sync::Arc;

/// The rank of the number read from a clue's end of its row or column.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FullRank {
    /// The row or column and the end it is read from.
    pub line: Outside,
    /// Its rank, from 1 (the lowest of the 4N numbers).
    pub rank: u32,
    /// Whether ties share a rank (sigh's `FullRankTies` `any`); without,
    /// the clued number ties with no other.
    pub ties: bool,
}

/// The words after the rank that allow ties.
const WITH_TIES: [&str; 2] = ["with", "ties"];

impl Read for FullRank {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["full rank", "fullrank"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    /// `full rank RANK [with ties] LINE`.
    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let ties = words.get(1..3).is_some_and(|w| w == WITH_TIES);
        let words: Vec<String> = if ties {
            words[..1].iter().chain(&words[3..]).cloned().collect()
        } else {
            words.to_vec()
        };
        let (rank, line) = clue_words(&words, size)?;
        Ok(one(FullRank { line, rank, ties }))
    }

    const SIGH: &'static [&'static str] = &["FullRank"];

    /// sigh's tie option is an item of its own, which the reader applies
    /// to every clue once all are read.
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        sigh_clues(item, |line, rank| {
            FullRank {
                line,
                rank,
                ties: false,
            }
            .into()
        })
    }
}

impl fmt::Display for FullRank {
    /// `full rank 5 (row 1 from the left)`, or `full rank 5 with ties
    /// (…)`, which read back as the same clue.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ties = if self.ties { " with ties" } else { "" };
        write!(f, "full rank {}{ties} ({})", self.rank, self.line)
    }
}

/// The 4N lines as they are read: each row from the left and from the
/// right, then each column from the top and from the bottom.
fn entries(size: Size) -> Vec<Outside> {
    let side = size.side();
    let mut out = Vec::new();
    for row in [true, false] {
        for number in 0..side {
            for reversed in [false, true] {
                out.push(Outside {
                    row,
                    number,
                    reversed,
                });
            }
        }
    }
    out
}

/// Whether two distinct cells share a row or a column, so hold different
/// digits on every board.
fn apart(a: Cell, b: Cell) -> bool {
    a != b && (a.row() == b.row() || a.col() == b.col())
}

impl FullRank {
    /// The digit the clued number starts with, and how many of the other
    /// three numbers starting with it are lower.
    fn place(&self) -> (u32, u32) {
        (self.rank.div_ceil(4), (self.rank + 3) % 4)
    }
}

impl Rule for FullRank {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        let most = 4 * size.side() as u32;
        if !(1..=most).contains(&self.rank) {
            return Err(format!(
                "a full rank clue on the {size} board is from 1 to {most}, not {}",
                self.rank
            ));
        }
        Ok(())
    }

    /// The first cell holds `v`, and the number is ranked (a
    /// [`Rank`]) among the numbers whose first cell can hold `v` beside
    /// it (not one in the clued first cell's row or column): exactly the
    /// clue's place of those starting with `v` are lower, and without
    /// ties none equals it. They are grouped by the end they are read
    /// from: one of each group starts with `v` on every board (each digit
    /// starts one number from each end of the board), which the native
    /// engine counts on.
    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        let (v, below) = self.place();
        let index = |line: Outside| -> Vec<usize> {
            line.cells(size).iter().map(|&c| size.index(c)).collect()
        };
        let mine = self.line.cells(size);
        // Grouped by the end they are read from, whose first cells lie in
        // one row or column, so that one line of each group starts with
        // `v`.
        let mut others: Vec<Vec<Vec<usize>>> = Vec::new();
        for (row, reversed) in [(true, false), (true, true), (false, false), (false, true)] {
            let group: Vec<Vec<usize>> = entries(size)
                .into_iter()
                .filter(|&e| e.row == row && e.reversed == reversed)
                .filter(|&e| e != self.line && !apart(e.cells(size)[0], mine[0]))
                .map(index)
                .collect();
            if !group.is_empty() {
                others.push(group);
            }
        }
        // Another clue (not inside an `either`) of the same digit and a
        // lower rank has fewer lines below it, so its line reads lower.
        let under = context
            .all
            .iter()
            .filter_map(|c| match c {
                Constraint::FullRank(other) => Some(other),
                _ => None,
            })
            .filter(|o| o.line != self.line && o.rank < self.rank && o.place().0 == v)
            .map(|o| index(o.line))
            .collect();
        vec![
            Primitive::Allowed {
                cell: size.index(mine[0]),
                digits: 1 << (v - 1),
            },
            Primitive::Rank(Arc::new(Rank {
                line: index(self.line),
                digit: v as u8,
                others,
                lower: below as usize,
                ties: self.ties,
                under,
                side: size.side(),
            })),
        ]
    }

    /// As stated: the 4N numbers, the clued one's rank among them (one
    /// more than those lower), and without ties, none equal to it.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let size = board.size();
        let read = |line: Outside| -> Vec<u8> {
            line.cells(size).iter().map(|&c| board.digit(c)).collect()
        };
        let mine = read(self.line);
        let others: Vec<Vec<u8>> = entries(size)
            .into_iter()
            .filter(|&e| e != self.line)
            .map(read)
            .collect();
        let lower = others.iter().filter(|o| *o < &mine).count() as u32;
        let equal = others.iter().filter(|o| *o == &mine).count();
        let number: String = mine
            .iter()
            .map(|&d| crate::puzzle::grid::digit_char(d))
            .collect();
        if lower + 1 != self.rank {
            return Some(format!(
                "{number} ({}) ranks {}, not {}",
                self.line,
                lower + 1,
                self.rank
            ));
        }
        (!self.ties && equal > 0).then(|| format!("{number} ({}) ties with another", self.line))
    }

    fn sketch(&self, _size: Size) -> Vec<crate::puzzle::sketch::Mark> {
        vec![self.line.beside(format!("#{}", self.rank))]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }

    /// The clue, and with ties sigh's option once, before the puzzle's
    /// first clue; clues that differ on ties cannot be said, as sigh's
    /// option is the whole puzzle's.
    fn to_sigh(&self, board: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        let clues: Vec<&FullRank> = board
            .constraints
            .iter()
            .filter_map(|c| match c {
                Constraint::FullRank(f) => Some(f),
                _ => None,
            })
            .collect();
        if clues.iter().any(|c| c.ties != self.ties) {
            return sigh::ToSigh::Cannot(
                "sigh's full rank ties are one option for the whole puzzle, and these clues differ",
            );
        }
        let clue = sigh_clue("FullRank", self.line, self.rank);
        match (self.ties, clues.first()) {
            (true, Some(&first)) if first == self => {
                sigh::ToSigh::Item(format!(".FullRankTies~any{clue}"))
            }
            // The option goes once, with the puzzle's first clue; a clue
            // inside an `either` with none outside has nowhere to put it.
            (true, None) => sigh::ToSigh::Cannot(
                "sigh's full rank ties are an option of the puzzle, and no clue outside the \
                 either carries it",
            ),
            _ => sigh::ToSigh::Item(clue),
        }
    }
}

/// No two of the 4N numbers (every row and column read from each end) are
/// the same: sigh's `FullRankTies~none`, which holds on the whole board,
/// with full rank clues or without.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NoTies;

impl Read for NoTies {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["full rank without ties"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    fn from_text(name: &str, words: &[String], _: Size) -> Result<Vec<Added>, String> {
        super::global::no_words(name, words)?;
        Ok(one(NoTies))
    }

    /// sigh says it as an option of its full rank clues
    /// (`FullRankTies~none`), which the reader reads with the others.
    const SIGH: &'static [&'static str] = &[];

    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        Err(item.unknown())
    }
}

impl fmt::Display for NoTies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("full rank without ties")
    }
}

impl NoTies {
    /// The pairs of numbers that could tie on a board of `size`, one of
    /// each two that tie together, as the cells each reads: a row or
    /// column read forwards beside each other one read either way. (Both
    /// read backwards tie exactly when both read forwards do.)
    fn pairs(size: Size) -> Vec<(Vec<Cell>, Vec<Cell>)> {
        let lines: Vec<Outside> = entries(size).into_iter().filter(|e| !e.reversed).collect();
        let mut out = Vec::new();
        for (k, &a) in lines.iter().enumerate() {
            for &b in &lines[k + 1..] {
                for reversed in [false, true] {
                    out.push((a.cells(size), Outside { reversed, ..b }.cells(size)));
                }
            }
        }
        out
    }
}

impl Rule for NoTies {
    /// It reads only whether digits are equal.
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        Ok(())
    }

    /// For each two numbers that could tie, a formula: some place holds
    /// different digits. Two numbers with a place whose two cells share a
    /// house (a row, a column or a region: two rows read the same way, at
    /// their first place) never tie and need none. Without regions only a
    /// row and a column can tie on an odd side (row i with column i, and
    /// with the column as far from the other edge read backwards), 18
    /// formulas on 9x9; with 9x9's boxes none can, so there the rule
    /// states nothing. A place read from one cell by both is equal anyway
    /// and left out.
    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        let house = |x: Cell, y: Cell| {
            let (i, j) = (size.index(x), size.index(y));
            apart(x, y)
                || x != y && context.region_of[i].is_some_and(|r| context.region_of[j] == Some(r))
        };
        Self::pairs(size)
            .into_iter()
            .filter(|(a, b)| !a.iter().zip(b).any(|(&x, &y)| house(x, y)))
            .map(|(a, b)| {
                let mut places: Vec<Test<usize>> = a
                    .iter()
                    .zip(&b)
                    .filter(|(x, y)| x != y)
                    .map(|(&x, &y)| {
                        Test::Compare(
                            Compare::Ne,
                            Box::new(Num::Cell(size.index(x))),
                            Box::new(Num::Cell(size.index(y))),
                        )
                    })
                    .collect();
                let test = match places.len() {
                    // No place to differ: the two numbers are one.
                    0 => Test::Literal(false),
                    1 => places.pop().unwrap_or(Test::Literal(false)),
                    _ => Test::Or(places),
                };
                Primitive::Formula(Arc::new(test))
            })
            .collect()
    }

    /// As stated: the 4N numbers, and no two the same.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let size = board.size();
        let read = |line: Outside| -> String {
            line.cells(size)
                .iter()
                .map(|&c| crate::puzzle::grid::digit_char(board.digit(c)))
                .collect()
        };
        let all = entries(size);
        all.iter().enumerate().find_map(|(k, &a)| {
            let number = read(a);
            all[k + 1..]
                .iter()
                .find(|&&b| read(b) == number)
                .map(|&b| format!("{a} and {b} both read {number}"))
        })
    }

    fn sketch(&self, _size: Size) -> Vec<crate::puzzle::sketch::Mark> {
        Vec::new()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }

    /// sigh's option, which its clues take too: a clue with ties beside
    /// it cannot be said.
    fn to_sigh(&self, board: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        let with_ties = board
            .constraints
            .iter()
            .any(|c| matches!(c, Constraint::FullRank(f) if f.ties));
        if with_ties {
            return sigh::ToSigh::Cannot(
                "sigh's full rank ties are one option for the whole puzzle, and a clue here \
                 allows ties",
            );
        }
        sigh::ToSigh::Item(".FullRankTies~none".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::kinds::notebook_solution_under as check;

    /// The notebook's solution, row by row.
    const ROWS: [&str; 9] = [
        "715894632",
        "234516897",
        "689723145",
        "493657218",
        "867231954",
        "152489763",
        "376148529",
        "928365471",
        "541972386",
    ];

    /// The rank of each line of the notebook's solution, with ties
    /// sharing one.
    fn rank_of(line: Outside) -> u32 {
        let size = Size::NINE;
        let grid: Vec<Vec<u8>> = ROWS
            .iter()
            .map(|r| r.bytes().map(|b| b - b'0').collect())
            .collect();
        let read = |l: Outside| -> Vec<u8> {
            l.cells(size)
                .iter()
                .map(|c| grid[c.row()][c.col()])
                .collect()
        };
        let mine = read(line);
        entries(size)
            .into_iter()
            .filter(|&e| read(e) < mine)
            .count() as u32
            + 1
    }

    #[test]
    fn the_checker_ranks_every_line() {
        // Every line's true rank holds, and the next rank up does not.
        for line in entries(Size::NINE) {
            let rank = rank_of(line);
            let clue = FullRank {
                line,
                rank,
                ties: false,
            };
            assert_eq!(check(&clue.to_string()), Ok(()), "{clue}");
            let off = FullRank {
                rank: rank + 1,
                ..clue.clone()
            };
            assert!(check(&off.to_string()).is_err(), "{off}");
        }
        assert!(check("full rank 37 (row 1)").is_err());
        assert!(check("full rank 0 (row 1)").is_err());
    }

    /// The propagator, on the full board, agrees with the checker: it
    /// keeps every line's true rank and refutes the next one up (ties
    /// aside, as the notebook's lines hold none).
    #[test]
    fn the_propagator_decides_a_full_board() {
        let size = Size::NINE;
        let board: Vec<u32> = ROWS
            .iter()
            .flat_map(|r| r.bytes().map(|b| 1u32 << (b - b'1')))
            .collect();
        let decides = |clue: &FullRank| -> bool {
            let mut builder = crate::puzzle::rules::Rules::builder(size);
            crate::puzzle::rule_text::read_rules(&[(1, &clue.to_string())], size, &mut builder)
                .unwrap_or_else(|e| panic!("{e}"));
            let rules = builder.build().unwrap_or_else(|e| panic!("{e}"));
            rules.primitives().all(|p| match p {
                Primitive::Rank(rank) => rank.narrow(board.clone().as_mut_slice()),
                Primitive::Allowed { cell, digits } => board[*cell] & *digits != 0,
                _ => true,
            })
        };
        for line in entries(size) {
            let rank = rank_of(line);
            for ties in [false, true] {
                let clue = FullRank { line, rank, ties };
                assert!(decides(&clue), "{clue}");
                let off = FullRank {
                    rank: rank + 1,
                    ..clue.clone()
                };
                if off.rank <= 36 {
                    assert!(!decides(&off), "{off}");
                }
            }
        }
    }

    /// The checker finds a tie where there is one, and none where the 16
    /// numbers of a 4x4 all differ; lowering states ties only where the
    /// houses leave room for them.
    #[test]
    fn no_ties_is_checked_as_stated_and_lowered_where_ties_can_be() {
        use crate::puzzle::parse::parse_puzzle;
        let puzzle = |givens: &str, rules: &str| {
            let grid = parse_puzzle(givens, None).unwrap_or_else(|e| panic!("{e}"));
            let mut builder = crate::puzzle::rules::Rules::builder(grid.size());
            let lines: Vec<(usize, &str)> = rules.lines().map(|l| (1, l)).collect();
            crate::puzzle::rule_text::read_rules(&lines, grid.size(), &mut builder)
                .unwrap_or_else(|e| panic!("{e}"));
            let rules = builder.build().unwrap_or_else(|e| panic!("{e}"));
            crate::puzzle::Puzzle::new(grid, rules)
        };
        let p = puzzle(&".".repeat(16), "full rank without ties");
        let check = |solution: &str| {
            let grid = parse_puzzle(solution, None).unwrap_or_else(|e| panic!("{e}"));
            crate::puzzle::check::verify_solution(&p, &grid).map_err(|e| e.to_string())
        };
        assert_eq!(check("1234341223414123"), Ok(()));
        // Row 1 from the left and row 4 from the right both read 1234.
        let tie = check("1234341221434321");
        assert!(
            tie.as_ref()
                .is_err_and(|e| e.contains("row 1 from the left and row 4 from the right")),
            "{tie:?}"
        );
        let formulas = |p: &crate::puzzle::Puzzle| {
            p.rules()
                .primitives()
                .filter(|q| matches!(q, Primitive::Formula(_)))
                .count()
        };
        // With 9x9's boxes no two numbers can tie; without them a row
        // ties only with a column: row i with column i, and with column
        // 10 - i read backwards.
        assert_eq!(
            formulas(&puzzle(&".".repeat(81), "full rank without ties")),
            0
        );
        let latin = format!("full rank without ties\nregions {}", ".".repeat(81));
        assert_eq!(formulas(&puzzle(&".".repeat(81), &latin)), 18);
    }

    #[test]
    fn it_reads_back() {
        for line in [
            "full rank 5 (row 1 from the left)",
            "full rank 12 with ties (column 3 from the bottom)",
            "full rank without ties",
        ] {
            let mut builder = crate::puzzle::rules::Rules::builder(Size::NINE);
            crate::puzzle::rule_text::read_rules(&[(1, line)], Size::NINE, &mut builder)
                .unwrap_or_else(|e| panic!("{e}"));
            let rules = builder.build().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(rules.constraints()[0].to_string(), line);
        }
    }
}
