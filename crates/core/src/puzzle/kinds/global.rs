//! Whole-board rules beyond f-puzzles' flags, as sigh's Interactive Sudoku
//! Solver and dclamage's SudokuSolver state them: anti-taxicab, chess
//! leapers with any leap, diagonal nonconsecutive, knightmare, windoku,
//! Dutch flatmates, global entropy and global mod.
//!
//! f-puzzles has no key for any of them, so they are read from rule lines
//! and (those sigh has) sigh strings, and an f-puzzles link leaves them
//! out (see [`unwritable`](crate::puzzle::fpuzzles::write::unwritable)).

use super::FromZero;
use super::{Added, Read, Rule, no_key, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{Context, all_digits, index, pair, steps_pairs};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::{Classes, Primitive, Relation};
use crate::puzzle::rule_text as text;
use crate::puzzle::sigh;
use crate::puzzle::sketch::Mark;
use serde_json::Value;
use std::fmt;

/// Refuses words after a name that takes none.
pub(super) fn no_words(name: &str, words: &[String]) -> Result<(), String> {
    match words.first() {
        None => Ok(()),
        Some(word) => Err(format!("`{name}` takes nothing after it, found {word:?}")),
    }
}

/// Why sigh's strings cannot say a rule sigh states on boards of nine
/// values only.
const SIGH_NINE_VALUES: &str = "sigh states it on boards of 9 values only";

/// Refuses a sigh item that sigh takes on boards of nine values only
/// (its `DutchFlatmates`, `GlobalEntropy` and `GlobalMod`), elsewhere:
/// z3doku's own rule lines say what they mean on other boards, sigh's
/// strings do not.
fn sigh_nine_values(item: &sigh::SighItem<'_>) -> Result<(), sigh::SighError> {
    match item.size.values() {
        9 => Ok(()),
        _ => Err(item.invalid(SIGH_NINE_VALUES)),
    }
}

/// `item` for a board of nine values, as [`sigh_nine_values`] reads it.
fn sigh_on_nine_values(board: &sigh::SighBoard<'_>, item: &str) -> sigh::ToSigh {
    match board.size.values() {
        9 => sigh::ToSigh::Item(item.into()),
        _ => sigh::ToSigh::Cannot(SIGH_NINE_VALUES),
    }
}

/// Every pair of cells `(a, b)`, `a < b`, whose row and column distances
/// `apart` accepts: the checker's way of finding pairs, by distance rather
/// than by the steps lowering walks.
fn pairs_apart(size: Size, apart: impl Fn(usize, usize) -> bool) -> Vec<(usize, usize)> {
    let cols = size.cols();
    let mut pairs = Vec::new();
    for a in 0..size.cells() {
        for b in a + 1..size.cells() {
            let (dr, dc) = ((a / cols).abs_diff(b / cols), (a % cols).abs_diff(b % cols));
            if apart(dr, dc) {
                pairs.push((a, b));
            }
        }
    }
    pairs
}

/// A leap's moves, each once up to sign.
fn leaps(a: usize, b: usize) -> Vec<(isize, isize)> {
    let (a, b) = (a as isize, b as isize);
    let mut steps = vec![(a, b), (b, a), (a, -b), (b, -a)];
    steps.sort_unstable();
    steps.dedup();
    steps
}

/// A cell holding `d` has no other cell holding `d` at taxicab distance
/// exactly `d` (rows plus columns apart), as sigh states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AntiTaxicab;

impl Read for AntiTaxicab {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["anti-taxicab", "antitaxicab"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    fn from_text(name: &str, words: &[String], _: Size) -> Result<Vec<Added>, String> {
        no_words(name, words)?;
        Ok(one(AntiTaxicab))
    }
    const SIGH: &'static [&'static str] = &["AntiTaxicab"];
    fn from_sigh(_: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        Ok(one(AntiTaxicab))
    }
}

impl fmt::Display for AntiTaxicab {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("anti-taxicab")
    }
}

impl Rule for AntiTaxicab {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        // The highest digit, and the row-major stride (they differ on a
        // rectangle). Pairs in one house are left to the rules' builder,
        // which drops those the house keeps apart.
        let (side, cols) = (context.size.side(), context.size.cols());
        pairs_apart(context.size, |dr, dc| dr + dc <= side)
            .into_iter()
            .map(|(a, b)| {
                let distance = (a / cols).abs_diff(b / cols) + (a % cols).abs_diff(b % cols);
                pair(a, b, Relation::NotBoth(distance as u8))
            })
            .collect()
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let size = board.size();
        let cols = size.cols();
        pairs_apart(size, |_, _| true)
            .into_iter()
            .find_map(|(a, b)| {
                let digit = board.grid.get(a);
                let distance = (a / cols).abs_diff(b / cols) + (a % cols).abs_diff(b % cols);
                (digit == board.grid.get(b) && usize::from(digit) == distance).then(|| {
                    format!(
                        "{} and {} both hold {digit}, {distance} apart",
                        size.cell_at(a),
                        size.cell_at(b)
                    )
                })
            })
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        Vec::new()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(".AntiTaxicab".into())
    }
}

/// Cells a chess leaper's move apart hold different digits: the leaper
/// moves `a` rows and `b` columns or `b` rows and `a` columns (a knight is
/// 1 2, a camel 1 3, a zebra 2 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Leaper {
    /// The shorter leg.
    pub a: u8,
    /// The longer leg.
    pub b: u8,
}

impl Read for Leaper {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["leaper", "anti-camel", "anti-zebra"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    fn from_text(name: &str, words: &[String], _: Size) -> Result<Vec<Added>, String> {
        let (a, b) = match name {
            "anti-camel" => {
                no_words(name, words)?;
                (1, 3)
            }
            "anti-zebra" => {
                no_words(name, words)?;
                (2, 3)
            }
            _ => {
                let legs = match words {
                    [a, b] => (text::number(Some(a))?, text::number(Some(b))?),
                    _ => return Err("expected the leap's two legs: `leaper 1 3`".into()),
                };
                (legs.0.min(legs.1), legs.0.max(legs.1))
            }
        };
        let small = |n: u32| u8::try_from(n).map_err(|_| format!("a leg of {n} is too long"));
        Ok(one(Leaper {
            a: small(a)?,
            b: small(b)?,
        }))
    }
    const SIGH: &'static [&'static str] = &[];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        Err(item.unknown())
    }
}

impl fmt::Display for Leaper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "leaper {} {}", self.a, self.b)
    }
}

impl Rule for Leaper {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        if self.a > self.b {
            return Err("the shorter leg comes first".into());
        }
        if self.a == 0 {
            // A leap along a row or column is the row's or column's rule.
            return Err("a leaper's legs are both at least 1".into());
        }
        if usize::from(self.b) >= size.side() {
            return Err(format!(
                "a leg of {} leaves the {size} board from every cell",
                self.b
            ));
        }
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let steps = leaps(usize::from(self.a), usize::from(self.b));
        steps_pairs(context.size, &steps)
            .into_iter()
            .map(|(a, b)| pair(a, b, Relation::Differ))
            .collect()
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let (a, b) = (usize::from(self.a), usize::from(self.b));
        let pairs = pairs_apart(board.size(), |dr, dc| {
            (dr, dc) == (a, b) || (dr, dc) == (b, a)
        });
        board.pairs_where(pairs, &|x, y| x == y)
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        Vec::new()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Cannot(sigh::NO_SUCH_RULE)
    }
}

/// Diagonally neighbouring cells do not hold consecutive digits (as
/// dclamage's SudokuSolver states it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DiagonalNonConsecutive;

impl Read for DiagonalNonConsecutive {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["diagonal nonconsecutive", "diagonalnonconsecutive"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    fn from_text(name: &str, words: &[String], _: Size) -> Result<Vec<Added>, String> {
        no_words(name, words)?;
        Ok(one(DiagonalNonConsecutive))
    }
    const SIGH: &'static [&'static str] = &[];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        Err(item.unknown())
    }
}

impl fmt::Display for DiagonalNonConsecutive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("diagonal nonconsecutive")
    }
}

impl Rule for DiagonalNonConsecutive {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        steps_pairs(context.size, &[(1, 1), (1, -1)])
            .into_iter()
            .map(|(a, b)| pair(a, b, Relation::DifferenceIsNot(1)))
            .collect()
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let pairs = pairs_apart(board.size(), |dr, dc| (dr, dc) == (1, 1));
        board.pairs_where(pairs, &|x, y| x.abs_diff(y) == 1)
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        Vec::new()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Cannot(sigh::NO_SUCH_RULE)
    }
}

/// The sums knightmare forbids when the rule names none.
const KNIGHTMARE_SUMS: [u8; 2] = [5, 15];

/// No two cells a knight's move apart add up to one of `sums` (5 or 15
/// when the rule names none, as in dclamage's SudokuSolver).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Knightmare {
    /// The sums forbidden, in increasing order.
    pub sums: Vec<u8>,
}

impl Read for Knightmare {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["knightmare"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    fn from_text(_: &str, words: &[String], _: Size) -> Result<Vec<Added>, String> {
        let mut sums = words
            .iter()
            .map(|w| {
                let n = text::number(Some(w))?;
                u8::try_from(n).map_err(|_| format!("a sum of {n} is too large"))
            })
            .collect::<Result<Vec<u8>, String>>()?;
        if sums.is_empty() {
            sums = KNIGHTMARE_SUMS.to_vec();
        }
        sums.sort_unstable();
        sums.dedup();
        Ok(one(Knightmare { sums }))
    }
    const SIGH: &'static [&'static str] = &[];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        Err(item.unknown())
    }
}

impl fmt::Display for Knightmare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("knightmare")?;
        if self.sums != KNIGHTMARE_SUMS {
            for sum in &self.sums {
                write!(f, " {sum}")?;
            }
        }
        Ok(())
    }
}

impl Rule for Knightmare {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        match self.sums.is_empty() {
            true => Err("knightmare forbids at least one sum".into()),
            false => Ok(()),
        }
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        steps_pairs(context.size, &leaps(1, 2))
            .into_iter()
            .flat_map(|(a, b)| {
                self.sums
                    .iter()
                    .map(move |&s| pair(a, b, Relation::SumIsNot(s)))
            })
            .collect()
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let pairs = pairs_apart(board.size(), |dr, dc| {
            (dr, dc) == (1, 2) || (dr, dc) == (2, 1)
        });
        board.pairs_where(pairs, &|x, y| self.sums.contains(&(x + y)))
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        Vec::new()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Cannot(sigh::NO_SUCH_RULE)
    }
}

/// Windoku's windows on a board of `size`: boxes of the board's box shape,
/// one cell in from the edge and one cell apart (four 3x3 windows on 9x9,
/// one on 4x4 and 6x6), placed as sigh places them; `None` on a board
/// without boxes.
pub fn windows(size: Size) -> Option<Vec<Vec<Cell>>> {
    let (height, width) = size.region_shape()?;
    let side = size.side();
    let mut out = Vec::new();
    let mut col = 1;
    while col + width < side {
        let mut row = 1;
        while row + height < side {
            let mut cells = Vec::new();
            for r in row..row + height {
                for c in col..col + width {
                    cells.push(size.cell(r, c));
                }
            }
            out.push(cells);
            row += height + 1;
        }
        col += width + 1;
    }
    Some(out)
}

/// Each windoku window holds different digits (every digit once): extra
/// regions one cell in from the edge and one cell apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Windoku;

impl Read for Windoku {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["windoku"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    fn from_text(name: &str, words: &[String], _: Size) -> Result<Vec<Added>, String> {
        no_words(name, words)?;
        Ok(one(Windoku))
    }
    const SIGH: &'static [&'static str] = &["Windoku"];
    fn from_sigh(_: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        Ok(one(Windoku))
    }
}

impl fmt::Display for Windoku {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("windoku")
    }
}

impl Rule for Windoku {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        match windows(size) {
            Some(windows) if !windows.is_empty() => Ok(()),
            _ => Err(format!("the {size} board has no boxes to place windows by")),
        }
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        windows(context.size)
            .unwrap_or_default()
            .iter()
            .map(|cells| Primitive::Distinct {
                cells: index(context.size, cells),
                sum: None,
            })
            .collect()
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        windows(board.size())
            .unwrap_or_default()
            .iter()
            .find_map(|cells| board.repeat(cells))
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        Vec::new()
    }

    /// f-puzzles could draw the windows as four extra regions, but they
    /// would read back as four rules, not this one.
    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(".Windoku".into())
    }
}

/// Every middle digit (5 on 9x9, `⌈N/2⌉` in general) has a 1 directly
/// above it or the largest digit directly below it, or both (sigh's Dutch
/// flatmates).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DutchFlatmates;

impl Read for DutchFlatmates {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["dutch flatmates", "dutchflatmates"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    fn from_text(name: &str, words: &[String], _: Size) -> Result<Vec<Added>, String> {
        no_words(name, words)?;
        Ok(one(DutchFlatmates))
    }
    const SIGH: &'static [&'static str] = &["DutchFlatmates"];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        sigh_nine_values(item)?;
        Ok(one(DutchFlatmates))
    }
}

impl fmt::Display for DutchFlatmates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("dutch flatmates")
    }
}

/// The flatmates' middle digit on a board of `side`.
fn middle(side: usize) -> u8 {
    side.div_ceil(2) as u8
}

impl Rule for DutchFlatmates {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        match size.side() >= 3 {
            true => Ok(()),
            false => Err("Dutch flatmates needs at least three digits".into()),
        }
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        let (side, cols) = (size.side(), size.cols());
        let mid = middle(side);
        let all = all_digits(size);
        (0..size.cells())
            .map(|c| {
                let mut literals = vec![(c, all & !(1 << (mid - 1)))];
                if c >= cols {
                    literals.push((c - cols, 1));
                }
                if c + cols < size.cells() {
                    literals.push((c + cols, 1 << (side - 1)));
                }
                Primitive::Any { literals }
            })
            .collect()
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let size = board.size();
        let side = size.side();
        let mid = middle(side);
        (0..size.cells()).find_map(|c| {
            let cell = size.cell_at(c);
            let above = cell.row() > 0 && board.digit(size.cell(cell.row() - 1, cell.col())) == 1;
            let below = cell.row() + 1 < size.rows()
                && usize::from(board.digit(size.cell(cell.row() + 1, cell.col()))) == side;
            (board.digit(cell) == mid && !above && !below)
                .then(|| format!("{cell} holds {mid} with no 1 above it and no {side} below it"))
        })
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        Vec::new()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, board: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh_on_nine_values(board, ".DutchFlatmates")
    }
}

/// Every 2x2 window of the board, its cells in reading order.
fn squares(size: Size) -> Vec<[Cell; 4]> {
    let mut out = Vec::new();
    for r in 0..size.rows().saturating_sub(1) {
        for c in 0..size.cols().saturating_sub(1) {
            out.push([
                size.cell(r, c),
                size.cell(r, c + 1),
                size.cell(r + 1, c),
                size.cell(r + 1, c + 1),
            ]);
        }
    }
    out
}

/// The three classes' digits on a board of `side`, as bits.
fn class_masks(classes: Classes, side: usize) -> [u32; 3] {
    let mut masks = [0; 3];
    for d in 1..=side as u8 {
        masks[usize::from(classes.of(d))] |= 1 << (d - 1);
    }
    masks
}

/// Every 2x2 window holds a digit of each of three classes: lowering
/// and the checker for [`GlobalEntropy`] and [`GlobalMod`].
fn lower_classes(size: Size, classes: Classes) -> Vec<Primitive> {
    let masks = class_masks(classes, size.side());
    squares(size)
        .iter()
        .flat_map(|square| {
            masks.map(|mask| Primitive::Any {
                literals: square.iter().map(|&c| (size.index(c), mask)).collect(),
            })
        })
        .collect()
}

fn classes_broken(board: &Board<'_>, classes: Classes, names: [&str; 3]) -> Option<String> {
    squares(board.size()).into_iter().find_map(|square| {
        (0..3u8).find_map(|k| {
            (!square.iter().any(|&c| classes.of(board.digit(c)) == k)).then(|| {
                format!(
                    "the 2x2 square at {} holds no {} digit",
                    square[0],
                    names[usize::from(k)]
                )
            })
        })
    })
}

/// Whether three classes of digits fit a board of `size`.
fn three_classes(size: Size, name: &str) -> Result<(), String> {
    match size.side() >= 3 {
        true => Ok(()),
        false => Err(format!("{name} needs at least three digits")),
    }
}

/// Every 2x2 window holds a low, a middle and a high digit (1-3, 4-6 and
/// 7-9 on 9x9; thirds as entropic lines take them on other sizes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GlobalEntropy;

impl Read for GlobalEntropy {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["global entropy", "globalentropy"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    fn from_text(name: &str, words: &[String], _: Size) -> Result<Vec<Added>, String> {
        no_words(name, words)?;
        Ok(one(GlobalEntropy))
    }
    const SIGH: &'static [&'static str] = &["GlobalEntropy"];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        sigh_nine_values(item)?;
        Ok(one(GlobalEntropy))
    }
}

impl fmt::Display for GlobalEntropy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("global entropy")
    }
}

impl Rule for GlobalEntropy {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        three_classes(size, "global entropy")
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        lower_classes(context.size, Classes::Thirds(context.size.side() as u8))
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let classes = Classes::Thirds(board.size().side() as u8);
        classes_broken(board, classes, ["low", "middle", "high"])
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        Vec::new()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, board: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh_on_nine_values(board, ".GlobalEntropy")
    }
}

/// Every 2x2 window holds a digit of each remainder mod 3 (1 4 7, 2 5 8
/// and 3 6 9 on 9x9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GlobalMod;

impl Read for GlobalMod {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["global mod", "globalmod"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    fn from_text(name: &str, words: &[String], _: Size) -> Result<Vec<Added>, String> {
        // sigh calls it "global mod 3"; 3 is the only modulus.
        match words {
            [] => Ok(one(GlobalMod)),
            [three] if three == "3" => Ok(one(GlobalMod)),
            _ => Err(format!("`{name}` takes only the modulus 3")),
        }
    }
    const SIGH: &'static [&'static str] = &["GlobalMod"];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        sigh_nine_values(item)?;
        Ok(one(GlobalMod))
    }
}

impl fmt::Display for GlobalMod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("global mod")
    }
}

impl Rule for GlobalMod {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        three_classes(size, "global mod")
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        lower_classes(context.size, Classes::Mod(3))
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        classes_broken(board, Classes::Mod(3), ["0 mod 3", "1 mod 3", "2 mod 3"])
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        Vec::new()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, board: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh_on_nine_values(board, ".GlobalMod")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_sit_where_sigh_puts_them() {
        let nine = windows(Size::NINE).unwrap_or_default();
        let corners: Vec<String> = nine.iter().map(|w| w[0].to_string()).collect();
        assert_eq!(corners, ["r2c2", "r6c2", "r2c6", "r6c6"]);
        assert!(nine.iter().all(|w| w.len() == 9));
        let four = Size::from_side(4).and_then(windows).unwrap_or_default();
        assert_eq!(four.len(), 1);
        assert_eq!(four[0].len(), 4);
        assert_eq!(Size::from_side(5).and_then(windows), None);
    }

    #[test]
    fn classes_split_nine_digits_in_threes() {
        assert_eq!(
            class_masks(Classes::Thirds(9), 9),
            [0b111, 0b111000, 0b111000000]
        );
        assert_eq!(
            class_masks(Classes::Mod(3), 9),
            [0b100100100, 0b001001001, 0b010010010]
        );
    }
}
