//! Lines: rules drawn as a path of cells, read from f-puzzles' `lines`.

use super::FromZero;
use super::{Added, Read, Rule, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{
    Constraint, Context, digit_range, index, list, listed_once, merged, pair, sum, weighted, within,
};
use crate::puzzle::fpuzzles::write::{self as w, Item, names};
use crate::puzzle::fpuzzles::{self as fp, FpuzzlesError};
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::{Classes, Primitive, Relation};
use crate::puzzle::rule_text as text;
use crate::puzzle::sigh;
use crate::puzzle::sketch::{LineColour, Mark};
use serde_json::{Value, json};
use std::fmt;

/// Every line of every item under `key`, each made into a constraint by
/// `make` (which sees the item too, for a value the item carries).
pub fn read_lines(
    key: &str,
    value: &Value,
    size: Size,
    make: impl Fn(Vec<Cell>, &Value, &str) -> Result<Constraint, FpuzzlesError>,
) -> Result<Vec<Added>, FpuzzlesError> {
    let mut out = Vec::new();
    for (k, item) in fp::items(key, value)?.iter().enumerate() {
        let place = format!("`{key}` {}", k + 1);
        for line in fp::lines_of(item, &place)? {
            let cells = fp::read_cells(Some(line), size, &place)?;
            out.push(Added::Constraint(make(cells, item, &place)?));
        }
    }
    Ok(out)
}

/// Says why `n` cells cannot hold different digits on a board of `side`.
fn fits(n: usize, side: usize) -> Result<(), String> {
    if n > side {
        return Err(format!(
            "{n} cells cannot hold different digits from 1 to {side}"
        ));
    }
    Ok(())
}

/// A line kind that is only its cells: its struct, its key, its names and
/// how it is named; the rest is its own `Rule` impl below.
macro_rules! plain_line {
    (@cells) => { |item: &sigh::SighItem<'_>| item.cells(item.args) };
    (@cells $read:expr) => { $read };
    (
        $(#[$doc:meta])* $kind:ident, $key:literal, [$($name:literal),*], $shown:literal,
        sigh $sigh:literal $(, $read:expr)?
    ) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub struct $kind(pub Vec<Cell>);

        impl Read for $kind {
            const KEYS: &'static [&'static str] = &[$key];
            const NAMES: &'static [&'static str] = &[$($name),*];

            fn from_fpuzzles(
                key: &str,
                value: &Value,
                size: Size,
            ) -> Result<Vec<Added>, FpuzzlesError> {
                read_lines(key, value, size, |cells, _, _| Ok($kind(cells).into()))
            }

            fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
                Ok(one($kind(text::cells(words, size)?)))
            }
            const SIGH: &'static [&'static str] = &[$sigh];
            /// Its cells, after what the kind reads first.
            fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
                let cells: fn(&sigh::SighItem<'_>) -> Result<Vec<Cell>, sigh::SighError> =
                    plain_line!(@cells $($read)?);
                Ok(one($kind(cells(item)?)))
            }
        }

        impl fmt::Display for $kind {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($shown, " {}"), list(&self.0, "→"))
            }
        }
    };
}

/// A thermometer: digits strictly increase from the bulb (the first cell)
/// to the tip (the last).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Thermo {
    /// The cells from bulb to tip.
    pub cells: Vec<Cell>,
}

impl Read for Thermo {
    const KEYS: &'static [&'static str] = &["thermometer"];
    const NAMES: &'static [&'static str] = &["thermometer", "thermo"];

    fn from_fpuzzles(key: &str, value: &Value, size: Size) -> Result<Vec<Added>, FpuzzlesError> {
        read_lines(key, value, size, |cells, _, _| Ok(Thermo { cells }.into()))
    }

    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        Ok(one(Thermo {
            cells: text::cells(words, size)?,
        }))
    }
    const SIGH: &'static [&'static str] = &["Thermo", "Pair"];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        // A `Pair` of digits rising by at least one is a thermometer.
        if item.kind == "Pair" && !item.relation_is(Relation::LessBy(1)) {
            return Ok(Vec::new());
        }
        let skip = usize::from(item.kind == "Pair");
        Ok(one(Thermo {
            cells: item.cells(&item.args[skip..])?,
        }))
    }
}

impl fmt::Display for Thermo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "thermo {}", list(&self.cells, "→"))
    }
}

impl Rule for Thermo {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        listed_once(&self.cells)?;
        fits(self.cells.len(), size.values())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let side = context.size.values();
        let cells = index(context.size, &self.cells);
        let length = cells.len();
        let mut out: Vec<Primitive> = cells
            .iter()
            .enumerate()
            .map(|(place, &cell)| Primitive::Allowed {
                cell,
                // `place` digits below it, `length - 1 - place` above.
                digits: digit_range(place + 1, side + place + 1 - length),
            })
            .collect();
        // Every two cells, not only neighbours, so that propagation sees
        // through open cells.
        for i in 0..length {
            for j in i + 1..length {
                out.push(pair(cells[i], cells[j], Relation::LessBy((j - i) as u8)));
            }
        }
        out
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        self.cells
            .windows(2)
            .find_map(|w| (board.digit(w[0]) >= board.digit(w[1])).then(|| board.holds(w)))
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![Mark::BulbLine(self.cells.clone())]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some(("thermometer", w::line(&self.cells)))
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(format!(".Thermo{}", sigh::ids(&self.cells)))
    }
}

/// A slow thermometer: digits never decrease from the bulb.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SlowThermo {
    /// The cells from bulb to tip.
    pub cells: Vec<Cell>,
}

impl Read for SlowThermo {
    const KEYS: &'static [&'static str] = &["slowthermometer"];
    const NAMES: &'static [&'static str] = &["slow thermo", "slowthermometer", "slowthermo"];

    fn from_fpuzzles(key: &str, value: &Value, size: Size) -> Result<Vec<Added>, FpuzzlesError> {
        read_lines(key, value, size, |cells, _, _| {
            Ok(SlowThermo { cells }.into())
        })
    }

    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        Ok(one(SlowThermo {
            cells: text::cells(words, size)?,
        }))
    }
    const SIGH: &'static [&'static str] = &["Pair"];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        if !item.relation_is(Relation::LessOrEqual) {
            return Ok(Vec::new());
        }
        Ok(one(SlowThermo {
            cells: item.cells(&item.args[1..])?,
        }))
    }
}

impl fmt::Display for SlowThermo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "slow thermo {}", list(&self.cells, "→"))
    }
}

impl Rule for SlowThermo {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        listed_once(&self.cells)
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        within(
            &index(context.size, &self.cells),
            self.cells.len(),
            Relation::LessOrEqual,
        )
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        self.cells
            .windows(2)
            .find_map(|w| (board.digit(w[0]) > board.digit(w[1])).then(|| board.holds(w)))
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![
            Mark::BulbLine(self.cells.clone()),
            Mark::Note(format!("{self}: digits never decrease from the bulb")),
        ]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some(("slowthermometer", w::line(&self.cells)))
    }
    fn to_sigh(&self, board: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        let key = sigh::relation_key(board.size.values(), |a, b| {
            Relation::LessOrEqual.allows(a, b)
        });
        sigh::ToSigh::Item(format!(".Pair~{key}{}", sigh::ids(&self.cells)))
    }
}

/// An arrow: the number in the circle (read across a pill's cells in
/// order, as decimal places) equals the sum of the digits on the line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Arrow {
    /// The circle's cells.
    pub circle: Vec<Cell>,
    /// The line's cells beyond the circle.
    pub line: Vec<Cell>,
}

impl Read for Arrow {
    const KEYS: &'static [&'static str] = &["arrow"];
    const NAMES: &'static [&'static str] = &["arrow"];

    fn from_fpuzzles(key: &str, value: &Value, size: Size) -> Result<Vec<Added>, FpuzzlesError> {
        let mut out = Vec::new();
        for (k, item) in fp::items(key, value)?.iter().enumerate() {
            let place = format!("`{key}` {}", k + 1);
            let circle = fp::read_cells(item.get("cells"), size, &place)?;
            for line in fp::lines_of(item, &place)? {
                // Each line starts in the circle.
                let cells = fp::read_cells(Some(line), size, &place)?;
                let line = cells.get(1..).unwrap_or_default().to_vec();
                out.extend(one(Arrow {
                    circle: circle.clone(),
                    line,
                }));
            }
        }
        Ok(out)
    }

    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        // `arrow (circle…) line…`, or the first cell as the circle.
        let (circle, line) = match words.iter().position(|w| w == ")") {
            Some(close) if words.first().is_some_and(|w| w == "(") => (
                text::cells(&words[1..close], size)?,
                text::cells(&words[close + 1..], size)?,
            ),
            _ => {
                let all = text::cells(words, size)?;
                let (circle, line) = all.split_first().ok_or("an arrow needs cells")?;
                (vec![*circle], line.to_vec())
            }
        };
        Ok(one(Arrow { circle, line }))
    }
    const SIGH: &'static [&'static str] = &["Arrow", "PillArrow"];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        if item.kind == "Arrow" {
            let cells = item.cells(item.args)?;
            let (circle, line) = cells.split_at(1);
            if line.is_empty() {
                return Err(item.invalid("an arrow needs a circle and a line"));
            }
            return Ok(one(Arrow {
                circle: circle.to_vec(),
                line: line.to_vec(),
            }));
        }
        let pill = item.number(item.args.first())? as usize;
        if pill != 2 && pill != 3 {
            return Err(item.invalid("a pill has 2 or 3 cells"));
        }
        if item.size.side() > 9 {
            return Err(item.differs(
                "on boards above 9x9 sigh reads a pill's later cells as single decimal digits",
            ));
        }
        let cells = item.cells(&item.args[1..])?;
        if cells.len() <= pill {
            return Err(item.invalid("a pill arrow needs more cells than its pill"));
        }
        let mut circle = cells[..pill].to_vec();
        circle.sort();
        if !pill_in_reading_order(&circle) {
            return Err(item
                .invalid("the pill's cells must run right, down or down-right in reading order"));
        }
        Ok(one(Arrow {
            circle,
            line: cells[pill..].to_vec(),
        }))
    }
}

impl fmt::Display for Arrow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "arrow ({}) {}",
            list(&self.circle, " "),
            list(&self.line, "→")
        )
    }
}

impl Rule for Arrow {
    /// The line's values add up to the circle's number: with each digit
    /// its value plus one, the line's digits less the circle's (each times
    /// its place) make the line's length less the places' total, a
    /// weighted sum, as no arrow says it.
    fn on_values_from_zero(&self) -> FromZero {
        let places: Vec<(Cell, i32)> = self
            .circle
            .iter()
            .rev()
            .zip(std::iter::successors(Some(1i32), |p| Some(p * 10)))
            .map(|(&c, place)| (c, -place))
            .collect();
        let sum = self.line.len() as i32 + places.iter().map(|&(_, w)| w).sum::<i32>();
        FromZero::As(
            super::sums::WeightedSum {
                terms: self.line.iter().map(|&c| (c, 1)).chain(places).collect(),
                sum,
            }
            .into(),
        )
    }

    fn cells(&self) -> Vec<Cell> {
        self.circle.iter().chain(&self.line).copied().collect()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        listed_once(&self.circle)?;
        listed_once(&self.line)?;
        if self.circle.is_empty() || self.line.is_empty() || self.circle.len() > 3 {
            return Err("an arrow needs a circle of 1 to 3 cells and a line".into());
        }
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        // The circle's cells are decimal places, the last the units.
        let places = self
            .circle
            .iter()
            .rev()
            .zip(std::iter::successors(Some(1), |p| Some(p * 10)));
        let terms = self
            .line
            .iter()
            .map(|&c| (size.index(c), 1))
            .chain(places.map(|(&c, place)| (size.index(c), -place)));
        vec![sum(merged(terms), vec![0])]
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let number = self
            .circle
            .iter()
            .fold(0u32, |n, &c| n * 10 + u32::from(board.digit(c)));
        let got = board.total(&self.line);
        (got != number).then(|| format!("the circle holds {number} and the line adds up to {got}"))
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![Mark::Arrow {
            circle: self.circle.clone(),
            line: self.line.clone(),
        }]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        // Each line starts in the circle, at the cell nearest its first
        // cell beyond it.
        let near = |cell: &&Cell| match self.line.first() {
            Some(next) => next.row().abs_diff(cell.row()) + next.col().abs_diff(cell.col()),
            None => 0,
        };
        let start = self.circle.iter().min_by_key(near)?;
        let drawn: Vec<Cell> = std::iter::once(*start)
            .chain(self.line.iter().copied())
            .collect();
        Some((
            "arrow",
            Item::Entry(json!({ "cells": names(&self.circle), "lines": [names(&drawn)] })),
        ))
    }
    fn to_sigh(&self, board: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        let (circle, line) = (sigh::ids(&self.circle), sigh::ids(&self.line));
        match self.circle.len() {
            1 => sigh::ToSigh::Item(format!(".Arrow{circle}{line}")),
            n @ (2 | 3) if board.size.side() <= 9 && pill_in_reading_order(&self.circle) => {
                sigh::ToSigh::Item(format!(".PillArrow~{n}{circle}{line}"))
            }
            _ => sigh::ToSigh::Cannot(
                "sigh's pills have 2 or 3 cells running right, down or down-right, on boards \
                 up to 9x9",
            ),
        }
    }
}

plain_line!(
    /// A palindrome line reads the same both ways.
    Palindrome,
    "palindrome",
    ["palindrome"],
    "palindrome",
    sigh "Palindrome"
);

impl Rule for Palindrome {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        self.0.clone()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        listed_once(&self.0)
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let cells = index(context.size, &self.0);
        (0..cells.len() / 2)
            .map(|k| pair(cells[k], cells[cells.len() - 1 - k], Relation::Equal))
            .collect()
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        self.0
            .iter()
            .zip(self.0.iter().rev())
            .find_map(|(&a, &b)| (board.digit(a) != board.digit(b)).then(|| board.holds(&[a, b])))
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![Mark::Line {
            cells: self.0.clone(),
            colour: LineColour::Grey,
        }]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some(("palindrome", w::line(&self.0)))
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(format!(".Palindrome{}", sigh::ids(&self.0)))
    }
}

plain_line!(
    /// A renban line holds a set of consecutive digits, in any order.
    Renban,
    "renban",
    ["renban"],
    "renban",
    sigh "Renban"
);

impl Rule for Renban {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        self.0.clone()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        listed_once(&self.0)?;
        fits(self.0.len(), size.values())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let cells = index(context.size, &self.0);
        let spread = (cells.len().max(1) - 1) as u8;
        let mut out = vec![Primitive::Distinct {
            cells: cells.clone(),
            sum: None,
        }];
        out.extend(within(
            &cells,
            cells.len(),
            Relation::DifferenceAtMost(spread),
        ));
        out
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let cells = &self.0;
        board.repeat(cells).or_else(|| {
            let low = cells.iter().map(|&c| board.digit(c)).min().unwrap_or(0);
            let high = cells.iter().map(|&c| board.digit(c)).max().unwrap_or(0);
            (usize::from(high - low) + 1 != cells.len())
                .then(|| format!("{} are not consecutive", board.holds(cells)))
        })
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![Mark::Line {
            cells: self.0.clone(),
            colour: LineColour::Purple,
        }]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some(("renban", w::line(&self.0)))
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(format!(".Renban{}", sigh::ids(&self.0)))
    }
}

/// Neighbours on a whispers line differ by at least `difference`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Whispers {
    /// The cells in order.
    pub cells: Vec<Cell>,
    /// The least difference.
    pub difference: u8,
}

/// The difference a whispers line without a value keeps: half the
/// digits, rounded up (5 on 9x9), as f-puzzles has it.
fn default_difference(size: Size) -> u32 {
    (size.side() as u32).div_ceil(2)
}

impl Read for Whispers {
    const KEYS: &'static [&'static str] = &["whispers"];
    const NAMES: &'static [&'static str] = &["whispers"];

    fn from_fpuzzles(key: &str, value: &Value, size: Size) -> Result<Vec<Added>, FpuzzlesError> {
        read_lines(key, value, size, |cells, item, place| {
            let difference = match fp::blank(item.get("value")) {
                true => default_difference(size),
                false => fp::clue_number(item, place)?,
            };
            let difference = u8::try_from(difference)
                .map_err(|_| fp::invalid(place, "the difference is too large"))?;
            Ok(Whispers { cells, difference }.into())
        })
    }

    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let (difference, skip) = text::leading(words);
        let difference = difference.unwrap_or(default_difference(size));
        Ok(one(Whispers {
            cells: text::cells(&words[skip..], size)?,
            difference: u8::try_from(difference).map_err(|_| "the difference is too large")?,
        }))
    }
    const SIGH: &'static [&'static str] = &["Whisper"];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        // German whispers may leave the difference out: sigh's default is
        // 5 whatever the board.
        let args = item.args;
        let (difference, cells) = match args.first().and_then(|a| a.parse::<u8>().ok()) {
            Some(d) => (d, &args[1..]),
            None => (5, args),
        };
        let cells = item.cells(cells)?;
        Ok(one(Whispers { cells, difference }))
    }
}

impl fmt::Display for Whispers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "whispers {} {}", self.difference, list(&self.cells, "→"))
    }
}

impl Rule for Whispers {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    /// A line may pass a cell twice (f-puzzles draws loops), but not twice
    /// in a row: a cell cannot differ from itself.
    fn validate(&self, size: Size) -> Result<(), String> {
        if let Some(w) = self.cells.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("{} is listed twice in a row", w[0]));
        }
        let side = size.values();
        if self.difference == 0 || usize::from(self.difference) >= side {
            return Err(format!(
                "a difference of {} is not between 1 and {}",
                self.difference,
                side - 1
            ));
        }
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        within(
            &index(context.size, &self.cells),
            1,
            Relation::DifferenceAtLeast(self.difference),
        )
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        self.cells.windows(2).find_map(|w| {
            (board.digit(w[0]).abs_diff(board.digit(w[1])) < self.difference)
                .then(|| board.holds(w))
        })
    }
    fn sketch(&self, size: Size) -> Vec<Mark> {
        let mut marks = vec![Mark::Line {
            cells: self.cells.clone(),
            colour: LineColour::Green,
        }];
        // The usual difference goes without saying; another is written on the
        // line's first cell.
        if u32::from(self.difference) != default_difference(size)
            && let Some(&cell) = self.cells.first()
        {
            let text = format!("≥{}", self.difference);
            marks.push(Mark::CornerText { cell, text });
        }
        marks
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some((
            "whispers",
            Item::Entry(
                json!({ "lines": [names(&self.cells)], "value": self.difference.to_string() }),
            ),
        ))
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(format!(
            ".Whisper~{}{}",
            self.difference,
            sigh::ids(&self.cells)
        ))
    }
}

plain_line!(
    /// Where a region sum line crosses regions, each stretch in one region
    /// has the same sum.
    RegionSumLine,
    "regionsumline",
    ["region sum line", "regionsumline"],
    "region sum line",
    sigh "RegionSumLine"
);

/// What a region-sum line's cell at `cell`, in `region`, belongs to: its
/// region; for a cell outside the grid, the cells outside the grid (each
/// run of them along the line is a stretch, as in sigh); nothing (`None`)
/// for a grid cell in no region, which the line passes over.
fn stretch_of(cell: Cell, region: Option<usize>) -> Option<Option<usize>> {
    match (region, cell.extra()) {
        (Some(region), _) => Some(Some(region)),
        (None, Some(_)) => Some(None),
        (None, None) => None,
    }
}

impl Rule for RegionSumLine {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        self.0.clone()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        listed_once(&self.0)
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let mut stretches: Vec<Vec<usize>> = Vec::new();
        let mut last = None;
        for (&at, cell) in self.0.iter().zip(index(context.size, &self.0)) {
            let Some(region) = stretch_of(at, context.region_of[cell]) else {
                continue;
            };
            if last != Some(region) {
                stretches.push(Vec::new());
            }
            if let Some(stretch) = stretches.last_mut() {
                stretch.push(cell);
            }
            last = Some(region);
        }
        let Some((first, rest)) = stretches.split_first() else {
            return Vec::new();
        };
        rest.iter()
            .map(|stretch| sum(weighted(stretch, first), vec![0]))
            .collect()
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let size = board.size();
        let mut sums: Vec<u32> = Vec::new();
        let mut last = None;
        for &cell in &self.0 {
            let Some(region) = stretch_of(cell, board.rules.region_of(size.index(cell))) else {
                continue;
            };
            if last != Some(region) {
                sums.push(0);
            }
            if let Some(s) = sums.last_mut() {
                *s += u32::from(board.digit(cell));
            }
            last = Some(region);
        }
        sums.windows(2).any(|w| w[0] != w[1]).then(|| {
            let sums: Vec<String> = sums.iter().map(u32::to_string).collect();
            format!("the stretches add up to {}", sums.join(", "))
        })
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![Mark::Line {
            cells: self.0.clone(),
            colour: LineColour::Blue,
        }]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some(("regionsumline", w::line(&self.0)))
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(format!(".RegionSumLine{}", sigh::ids(&self.0)))
    }
}

/// Says why a line without two ends cannot hold.
fn two_ends(cells: &[Cell]) -> Result<(), String> {
    listed_once(cells)?;
    if cells.len() < 2 {
        return Err("the line needs two ends".into());
    }
    Ok(())
}

plain_line!(
    /// Every cell of a between line lies strictly between its two ends.
    BetweenLine,
    "betweenline",
    ["between line", "betweenline"],
    "between line",
    sigh "Between"
);

impl Rule for BetweenLine {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        self.0.clone()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        two_ends(&self.0)
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let cells = index(context.size, &self.0);
        let last = cells.len() - 1;
        vec![Primitive::Between {
            ends: (cells[0], cells[last]),
            middle: cells[1..last].to_vec(),
        }]
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let cells = &self.0;
        let last = cells[cells.len() - 1];
        let (a, b) = (board.digit(cells[0]), board.digit(last));
        let (low, high) = (a.min(b), a.max(b));
        cells[1..cells.len() - 1].iter().find_map(|&m| {
            (board.digit(m) <= low || board.digit(m) >= high)
                .then(|| board.holds(&[cells[0], m, last]))
        })
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![Mark::CircledEnds(self.0.clone())]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some(("betweenline", w::line(&self.0)))
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        // It says nothing, and sigh's solver fails on it.
        if self.0.len() <= 2 {
            return sigh::ToSigh::Cannot("sigh's solver fails on a between line of two cells");
        }
        sigh::ToSigh::Item(format!(".Between{}", sigh::ids(&self.0)))
    }
}

/// The first two cells of `cells` fewer than three places apart whose
/// digits fall in the same class, named.
fn same_class(board: &Board<'_>, cells: &[Cell], class: impl Fn(u8) -> u8) -> Option<String> {
    (0..cells.len()).find_map(|i| {
        (i + 1..cells.len().min(i + 3)).find_map(|j| {
            (class(board.digit(cells[i])) == class(board.digit(cells[j])))
                .then(|| board.holds(&[cells[i], cells[j]]))
        })
    })
}

plain_line!(
    /// Any three consecutive cells of an entropic line hold a low (1–3), a
    /// middle (4–6) and a high (7–9) digit.
    EntropicLine,
    "entropicline",
    ["entropic line", "entropicline"],
    "entropic line",
    sigh "Entropic",
    |item| {
        if item.size.side() != 9 {
            return Err(item.invalid("sigh's entropic lines need digits 1 to 9"));
        }
        item.cells(item.args)
    }
);

impl Rule for EntropicLine {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        self.0.clone()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        listed_once(&self.0)
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        within(
            &index(context.size, &self.0),
            2,
            Relation::ClassesDiffer(Classes::Thirds(context.size.side() as u8)),
        )
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let side = board.size().side();
        // Thirds of 1..=side, the extra digits as f-puzzles places them:
        // 10 is 3+4+3, 8 is 3+2+3.
        let third = side / 3;
        let sizes = match side % 3 {
            1 => [third, third + 1, third],
            2 => [third + 1, third, third + 1],
            _ => [third; 3],
        };
        same_class(board, &self.0, |d| {
            let d = usize::from(d);
            if d <= sizes[0] {
                0
            } else if d <= sizes[0] + sizes[1] {
                1
            } else {
                2
            }
        })
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![Mark::Line {
            cells: self.0.clone(),
            colour: LineColour::Orange,
        }]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some(("entropicline", w::line(&self.0)))
    }
    fn to_sigh(&self, board: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        if board.size.side() != 9 {
            return sigh::ToSigh::Cannot("sigh's entropic lines need digits 1 to 9");
        }
        sigh::ToSigh::Item(format!(".Entropic{}", sigh::ids(&self.0)))
    }
}

/// A modular line (sigh's `Modular`): every run of `modulus` consecutive
/// cells holds digits with different remainders mod `modulus` (a shorter
/// line, all its cells). f-puzzles' `modularline` is the modulus 3.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ModularLine {
    /// The modulus, at least 1.
    pub modulus: u8,
    /// The cells in order.
    pub cells: Vec<Cell>,
}

/// f-puzzles' modulus, and the one a rule line without a number takes.
const F_PUZZLES_MODULUS: u8 = 3;

impl Read for ModularLine {
    const KEYS: &'static [&'static str] = &["modularline"];
    const NAMES: &'static [&'static str] = &["modular line", "modularline"];

    fn from_fpuzzles(key: &str, value: &Value, size: Size) -> Result<Vec<Added>, FpuzzlesError> {
        read_lines(key, value, size, |cells, _, _| {
            Ok(ModularLine {
                modulus: F_PUZZLES_MODULUS,
                cells,
            }
            .into())
        })
    }

    /// `modular line [M] CELLS`: M is 3 when left out.
    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let (modulus, skip) = text::leading(words);
        let modulus = match modulus {
            Some(m) => u8::try_from(m).map_err(|_| format!("a modulus of {m} is too large"))?,
            None => F_PUZZLES_MODULUS,
        };
        Ok(one(ModularLine {
            modulus,
            cells: text::cells(&words[skip..], size)?,
        }))
    }
    const SIGH: &'static [&'static str] = &["Modular"];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        let modulus = item.number(item.args.first())?;
        let modulus = u8::try_from(modulus)
            .map_err(|_| item.invalid(format!("a modulus of {modulus} is too large")))?;
        Ok(one(ModularLine {
            modulus,
            cells: item.cells(&item.args[1..])?,
        }))
    }
}

impl fmt::Display for ModularLine {
    /// `modular line r1c1→r1c2` for f-puzzles' modulus 3,
    /// `modular line 5 r1c1→r1c2` for another.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("modular line ")?;
        if self.modulus != F_PUZZLES_MODULUS {
            write!(f, "{} ", self.modulus)?;
        }
        f.write_str(&list(&self.cells, "→"))
    }
}

impl Rule for ModularLine {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        if self.modulus == 0 {
            return Err("a modular line's modulus is at least 1".into());
        }
        listed_once(&self.cells)
    }

    /// Every two cells, not only those in one run, so that propagation
    /// sees through open cells: cells a whole number of moduli apart share
    /// a remainder (each run of `m` drops one cell and takes one with the
    /// remainder it dropped), and any others differ (their remainders are
    /// those of two different cells of the first run).
    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let m = usize::from(self.modulus);
        if m == 1 {
            return Vec::new();
        }
        let cells = index(context.size, &self.cells);
        let classes = Classes::Mod(self.modulus);
        let mut out = Vec::new();
        for i in 0..cells.len() {
            for j in i + 1..cells.len() {
                let relation = if (j - i).is_multiple_of(m) {
                    Relation::ClassesSame(classes)
                } else {
                    Relation::ClassesDiffer(classes)
                };
                out.push(pair(cells[i], cells[j], relation));
            }
        }
        out
    }

    /// As sigh states it: each run of `m` consecutive cells (the whole
    /// line when shorter) has no two remainders alike.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let m = usize::from(self.modulus);
        let run = m.min(self.cells.len()).max(1);
        self.cells.windows(run).find_map(|w| {
            (0..w.len()).find_map(|i| {
                w[i + 1..].iter().find_map(|&b| {
                    (board.digit(w[i]) % self.modulus == board.digit(b) % self.modulus).then(|| {
                        format!(
                            "{}, the same remainder mod {}",
                            board.holds(&[w[i], b]),
                            self.modulus
                        )
                    })
                })
            })
        })
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        let mut marks = vec![Mark::Line {
            cells: self.cells.clone(),
            colour: LineColour::Teal,
        }];
        // The usual modulus goes without saying; another is written on the
        // line's first cell.
        if self.modulus != F_PUZZLES_MODULUS
            && let Some(&cell) = self.cells.first()
        {
            let text = format!("mod {}", self.modulus);
            marks.push(Mark::CornerText { cell, text });
        }
        marks
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        (self.modulus == F_PUZZLES_MODULUS).then(|| ("modularline", w::line(&self.cells)))
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(format!(
            ".Modular~{}{}",
            self.modulus,
            sigh::ids(&self.cells)
        ))
    }
}

plain_line!(
    /// Cells the same distance from a zipper line's middle add up to the
    /// same total, which is the middle cell's digit on a line of odd
    /// length.
    ZipperLine,
    "zipperline",
    ["zipper line", "zipperline"],
    "zipper line",
    sigh "Zipper"
);

impl Rule for ZipperLine {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        self.0.clone()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        listed_once(&self.0)
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let cells = index(context.size, &self.0);
        let length = cells.len();
        let pairs: Vec<[usize; 2]> = (0..length / 2)
            .map(|k| [cells[k], cells[length - 1 - k]])
            .collect();
        // On an odd line every pair adds up to the middle digit; on an
        // even one, to the same total as the innermost pair.
        let reference: Vec<usize> = if length % 2 == 1 {
            vec![cells[length / 2]]
        } else {
            pairs.last().map(|p| p.to_vec()).unwrap_or_default()
        };
        pairs
            .iter()
            .filter(|p| p.to_vec() != reference)
            .map(|p| sum(weighted(p, &reference), vec![0]))
            .collect()
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let cells = &self.0;
        let n = cells.len();
        let mut sums: Vec<u32> = (0..n / 2)
            .map(|k| u32::from(board.digit(cells[k])) + u32::from(board.digit(cells[n - 1 - k])))
            .collect();
        if n % 2 == 1 {
            sums.push(u32::from(board.digit(cells[n / 2])));
        }
        sums.windows(2).any(|w| w[0] != w[1]).then(|| {
            let sums: Vec<String> = sums.iter().map(u32::to_string).collect();
            format!("the pairs add up to {}", sums.join(", "))
        })
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![Mark::Line {
            cells: self.0.clone(),
            colour: LineColour::Lavender,
        }]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some(("zipperline", w::line(&self.0)))
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(format!(".Zipper{}", sigh::ids(&self.0)))
    }
}

plain_line!(
    /// The two ends of a double arrow add up to the sum of the cells
    /// between them.
    DoubleArrow,
    "doublearrow",
    ["double arrow", "doublearrow"],
    "double arrow",
    sigh "DoubleArrow"
);

impl Rule for DoubleArrow {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        self.0.clone()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        two_ends(&self.0)
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let cells = index(context.size, &self.0);
        let ends = [cells[0], cells[cells.len() - 1]];
        vec![sum(weighted(&ends, &cells[1..cells.len() - 1]), vec![0])]
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let cells = &self.0;
        let ends =
            u32::from(board.digit(cells[0])) + u32::from(board.digit(cells[cells.len() - 1]));
        let middle = board.total(&cells[1..cells.len() - 1]);
        (ends != middle).then(|| format!("the ends add up to {ends} and the middle to {middle}"))
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![
            Mark::CircledEnds(self.0.clone()),
            Mark::Note("double arrows: the circled ends add up to the digits between them".into()),
        ]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some(("doublearrow", w::line(&self.0)))
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(format!(".DoubleArrow{}", sigh::ids(&self.0)))
    }
}

/// Whether a pill's cells, as listed, are in reading order and run right,
/// down or down-right, so that sigh reads the same number from them.
fn pill_in_reading_order(cells: &[Cell]) -> bool {
    cells.windows(2).all(|w| {
        matches!(
            (
                w[1].row() as isize - w[0].row() as isize,
                w[1].col() as isize - w[0].col() as isize
            ),
            (0, 1) | (1, 0) | (1, 1)
        )
    })
}

#[cfg(test)]
mod tests {
    use crate::puzzle::fpuzzles::parse;

    /// An empty 4x4 f-puzzles grid with `rules` beside it.
    fn four(rules: &str) -> String {
        let row = "[{},{},{},{}]";
        format!(r#"{{"size":4,"grid":[{row},{row},{row},{row}],{rules}}}"#)
    }

    #[test]
    fn a_whispers_loop_is_read() {
        let looped = four(r#""whispers":[{"lines":[["R1C1","R1C2","R2C2","R2C1","R1C1"]]}]"#);
        let puzzle = parse(&looped).unwrap_or_else(|e| panic!("{e}"));
        let shown: Vec<String> = puzzle
            .rules()
            .constraints()
            .iter()
            .map(|c| c.to_string())
            .collect();
        assert_eq!(shown, ["whispers 2 r1c1→r1c2→r2c2→r2c1→r1c1"]);
        let stuck = four(r#""whispers":[{"lines":[["R1C1","R1C1"]]}]"#);
        assert!(parse(&stuck).is_err_and(|e| e.to_string().contains("listed twice in a row")));
    }
}

#[cfg(test)]
mod sketch_tests {
    use super::Whispers;
    use crate::puzzle::grid::Size;
    use crate::puzzle::kinds::Rule;
    use crate::puzzle::sketch::{LineColour, Mark};

    #[test]
    fn whispers_write_only_an_unusual_difference() {
        let size = Size::NINE;
        let cells = vec![size.cell(0, 0), size.cell(0, 1)];
        let line = Mark::Line {
            cells: cells.clone(),
            colour: LineColour::Green,
        };
        let usual = Whispers {
            cells: cells.clone(),
            difference: 5,
        };
        assert_eq!(usual.sketch(size), std::slice::from_ref(&line));
        let three = Whispers {
            cells: cells.clone(),
            difference: 3,
        };
        let text = Mark::CornerText {
            cell: cells[0],
            text: "≥3".into(),
        };
        assert_eq!(three.sketch(size), [line, text]);
    }
}
