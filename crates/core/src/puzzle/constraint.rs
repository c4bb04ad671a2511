//! Variant rules as a puzzle states them: one [`Constraint`] per cage,
//! line, dot or clue, or per rule over the whole board, with the meaning
//! f-puzzles gives it.
//!
//! A constraint knows how people name it (its `Display`, used in
//! explanations and errors), what makes it impossible on a board
//! ([`Constraint::check`]), and how it comes down to
//! [primitives](super::primitive) ([`Constraint::lower`]), which is all the
//! solvers see.

use super::grid::{Cell, Size, digit_char};
use super::primitive::{Classes, Primitive, Relation};
use std::collections::HashSet;
use std::fmt;

/// Which way a line of cells runs from a clue outside the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outside {
    /// Whether the clue is beside a row (left or right) rather than above
    /// or below a column.
    pub row: bool,
    /// The row's or column's number, 0-based.
    pub number: usize,
    /// Whether the clue is at the far end (right of the row, below the
    /// column), so the line is read backwards.
    pub reversed: bool,
}

impl Outside {
    /// The line's cells, nearest the clue first.
    pub fn cells(self, size: Size) -> Vec<Cell> {
        let side = size.side();
        let mut cells: Vec<Cell> = (0..side)
            .map(|k| {
                if self.row {
                    size.cell(self.number, k)
                } else {
                    size.cell(k, self.number)
                }
            })
            .collect();
        if self.reversed {
            cells.reverse();
        }
        cells
    }
}

impl fmt::Display for Outside {
    /// `row 3 from the left`, `column 2 from the bottom`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (line, end) = match (self.row, self.reversed) {
            (true, false) => ("row", "left"),
            (true, true) => ("row", "right"),
            (false, false) => ("column", "top"),
            (false, true) => ("column", "bottom"),
        };
        write!(f, "{line} {} from the {end}", self.number + 1)
    }
}

/// What an indexer cell's digit points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Indexer {
    /// In row `r`, column `c`, digit `v` says that row `v` of column `c`
    /// holds `r` (all 1-based).
    Row,
    /// In row `r`, column `c`, digit `v` says that column `v` of row `r`
    /// holds `c`.
    Column,
    /// At place `p` of its region (row-major, 1-based), digit `v` says that
    /// place `v` of the region holds `p`.
    Box,
}

/// A rule instance beyond the houses. Cells are listed as the puzzle gave
/// them; [`Constraint::check`] says whether they fit a board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Constraint {
    /// A killer cage: its cells hold different digits and, when `sum` is
    /// given, add up to it.
    Cage {
        /// The cells, at least one.
        cells: Vec<Cell>,
        /// The total, when the cage has one.
        sum: Option<u32>,
    },
    /// A digital-root cage: the sum of its digits (repeats allowed) has
    /// digital root `root`, that is it is `root`, `root + 9`, …
    DigitalRoot {
        /// The cells.
        cells: Vec<Cell>,
        /// The root, 1 to 9.
        root: u32,
    },
    /// A thermometer: digits strictly increase from the bulb (the first
    /// cell) to the tip (the last).
    Thermo {
        /// The cells from bulb to tip.
        cells: Vec<Cell>,
    },
    /// A slow thermometer: digits never decrease from the bulb.
    SlowThermo {
        /// The cells from bulb to tip.
        cells: Vec<Cell>,
    },
    /// Cells a chess knight's move apart hold different digits.
    AntiKnight,
    /// Cells a chess king's move apart hold different digits.
    AntiKing,
    /// Orthogonally neighbouring cells do not hold consecutive digits,
    /// unless a white or black dot joins them.
    NonConsecutive,
    /// No two orthogonal neighbours without a black or white dot stand in
    /// the ratio of any black dot on the board (2 when there is none).
    NegativeRatio,
    /// No two orthogonal neighbours without an X or a V add up to 5 or 10.
    NegativeXv,
    /// A cell holds one of these digits (a pencil-marked cell).
    Allowed {
        /// The cell.
        cell: Cell,
        /// The digits it may hold: bit `d - 1` for digit `d`.
        digits: u32,
    },
    /// A cell holds an odd digit.
    Odd(Cell),
    /// A cell holds an even digit.
    Even(Cell),
    /// A cell is less than its orthogonal neighbours (those not marked as
    /// minimums themselves).
    Minimum(Cell),
    /// A cell is greater than its orthogonal neighbours (those not marked
    /// as maximums themselves).
    Maximum(Cell),
    /// A little killer clue: the digits along a diagonal (repeats
    /// allowed) add up to `sum`.
    LittleKiller {
        /// The diagonal's cells, from the clue on.
        cells: Vec<Cell>,
        /// The total.
        sum: u32,
    },
    /// The digits between the 1 and the highest digit of a row or column
    /// add up to `sum`.
    Sandwich {
        /// The row or column.
        line: Outside,
        /// The total.
        sum: u32,
    },
    /// The first `X` digits from the clue add up to `sum`, where `X` is the
    /// first digit.
    XSum {
        /// The row or column and the end the clue is at.
        line: Outside,
        /// The total.
        sum: u32,
    },
    /// Seen from the clue, with digits as building heights, `count`
    /// buildings are visible.
    Skyscraper {
        /// The row or column and the end the clue is at.
        line: Outside,
        /// How many are seen.
        count: usize,
    },
    /// An arrow: the number in the circle (read across a pill's cells in
    /// order, as decimal places) equals the sum of the digits on the line.
    Arrow {
        /// The circle's cells.
        circle: Vec<Cell>,
        /// The line's cells beyond the circle.
        line: Vec<Cell>,
    },
    /// A palindrome line reads the same both ways.
    Palindrome(Vec<Cell>),
    /// A renban line holds a set of consecutive digits, in any order.
    Renban(Vec<Cell>),
    /// Neighbours on a whispers line differ by at least `difference`.
    Whispers {
        /// The cells in order.
        cells: Vec<Cell>,
        /// The least difference.
        difference: u8,
    },
    /// Where a region sum line crosses regions, each stretch in one region
    /// has the same sum.
    RegionSumLine(Vec<Cell>),
    /// Every cell of a between line lies strictly between its two ends.
    BetweenLine(Vec<Cell>),
    /// Any three consecutive cells of an entropic line hold a low (1–3), a
    /// middle (4–6) and a high (7–9) digit.
    EntropicLine(Vec<Cell>),
    /// Any three consecutive cells of a modular line hold digits with
    /// different remainders mod 3.
    ModularLine(Vec<Cell>),
    /// Cells the same distance from a zipper line's middle add up to the
    /// same total, which is the middle cell's digit on a line of odd
    /// length.
    ZipperLine(Vec<Cell>),
    /// The two ends of a double arrow add up to the sum of the cells
    /// between them.
    DoubleArrow(Vec<Cell>),
    /// A white dot: two neighbours differ by `value`.
    Difference {
        /// The two cells.
        cells: [Cell; 2],
        /// The difference.
        value: u8,
    },
    /// A black dot: one of two neighbours is `value` times the other.
    Ratio {
        /// The two cells.
        cells: [Cell; 2],
        /// The ratio.
        value: u8,
    },
    /// An X (sum 10) or a V (sum 5) between two neighbours.
    Xv {
        /// The two cells.
        cells: [Cell; 2],
        /// 10 or 5.
        sum: u8,
    },
    /// Clones: each cell holds the digit of its clone.
    Clone {
        /// The cells.
        cells: Vec<Cell>,
        /// Their clones, in the same order.
        clones: Vec<Cell>,
    },
    /// A quadruple: these digits (with repeats) appear among the cells.
    Quadruple {
        /// The cells around the clue.
        cells: Vec<Cell>,
        /// The digits, each as often as it must appear.
        digits: Vec<u8>,
    },
    /// An indexer cell.
    Indexer {
        /// What it indexes.
        kind: Indexer,
        /// The cell.
        cell: Cell,
    },
    /// An extra region: its cells hold different digits.
    ExtraRegion(Vec<Cell>),
    /// A region with fewer cells than a row, as when some of its cells
    /// belong to no region: its cells hold different digits.
    PartialRegion {
        /// The region's number, 0-based.
        number: usize,
        /// Its cells.
        cells: Vec<Cell>,
    },
}

/// What lowering needs to know of the board beyond a constraint itself.
pub struct Context<'a> {
    /// The board size.
    pub size: Size,
    /// The full regions' cells (row-major indexes, in reading order).
    pub regions: &'a [Vec<usize>],
    /// For each cell, the number of its region, if it is in one.
    pub region_of: &'a [Option<usize>],
    /// Every constraint of the puzzle (dots exempt pairs from whole-board
    /// rules, neighbouring minimums exempt each other).
    pub all: &'a [Constraint],
}

impl Context<'_> {
    /// Pairs `(a, b)`, `a < b`, joined by a dot of a kind `pick` accepts.
    fn marked(&self, pick: impl Fn(&Constraint) -> bool) -> HashSet<(usize, usize)> {
        let size = self.size;
        self.all
            .iter()
            .filter(|c| pick(c))
            .filter_map(|c| match c {
                Constraint::Difference { cells, .. }
                | Constraint::Ratio { cells, .. }
                | Constraint::Xv { cells, .. } => {
                    let (a, b) = (size.index(cells[0]), size.index(cells[1]));
                    Some((a.min(b), a.max(b)))
                }
                _ => None,
            })
            .collect()
    }
}

/// Every pair of orthogonal neighbours, as `(a, b)` with `a < b`.
pub fn orthogonal_pairs(size: Size) -> Vec<(usize, usize)> {
    steps_pairs(size, &[(0, 1), (1, 0)])
}

/// Every pair of cells one of `steps` apart, each once as `(a, b)`, `a < b`.
fn steps_pairs(size: Size, steps: &[(isize, isize)]) -> Vec<(usize, usize)> {
    let side = size.side() as isize;
    let mut pairs = Vec::new();
    for a in 0..size.cells() {
        let (row, col) = ((a as isize) / side, (a as isize) % side);
        for &(dr, dc) in steps {
            let (r, c) = (row + dr, col + dc);
            if (0..side).contains(&r) && (0..side).contains(&c) {
                let b = (r * side + c) as usize;
                pairs.push((a.min(b), a.max(b)));
            }
        }
    }
    pairs.sort_unstable();
    pairs
}

fn list(cells: &[Cell], sep: &str) -> String {
    cells
        .iter()
        .map(Cell::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}

impl fmt::Display for Constraint {
    /// As messages name it: `cage 15 (r1c1 r1c2 r2c1)`, `thermo r3c1→r3c4`,
    /// `anti-knight`, `r2c2 is one of 1 3 5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pair = |cells: &[Cell; 2]| format!("({} {})", cells[0], cells[1]);
        match self {
            Constraint::Cage {
                cells,
                sum: Some(sum),
            } => write!(f, "cage {sum} ({})", list(cells, " ")),
            Constraint::Cage { cells, sum: None } => write!(f, "cage ({})", list(cells, " ")),
            Constraint::DigitalRoot { cells, root } => {
                write!(f, "cage DR{root} ({})", list(cells, " "))
            }
            Constraint::Thermo { cells } => write!(f, "thermo {}", list(cells, "→")),
            Constraint::SlowThermo { cells } => write!(f, "slow thermo {}", list(cells, "→")),
            Constraint::AntiKnight => f.write_str("anti-knight"),
            Constraint::AntiKing => f.write_str("anti-king"),
            Constraint::NonConsecutive => f.write_str("nonconsecutive"),
            Constraint::NegativeRatio => f.write_str("negative ratio"),
            Constraint::NegativeXv => f.write_str("negative XV"),
            Constraint::Allowed { cell, digits } => {
                let digits: Vec<String> = (1..=32u8)
                    .filter(|d| digits >> (d - 1) & 1 == 1)
                    .map(|d| digit_char(d).to_string())
                    .collect();
                write!(f, "{cell} is one of {}", digits.join(" "))
            }
            Constraint::Odd(cell) => write!(f, "{cell} is odd"),
            Constraint::Even(cell) => write!(f, "{cell} is even"),
            Constraint::Minimum(cell) => write!(f, "{cell} is a minimum"),
            Constraint::Maximum(cell) => write!(f, "{cell} is a maximum"),
            Constraint::LittleKiller { cells, sum } => match (cells.first(), cells.last()) {
                (Some(first), Some(last)) => write!(f, "little killer {sum} ({first}→{last})"),
                _ => write!(f, "little killer {sum}"),
            },
            Constraint::Sandwich { line, sum } => {
                let name = if line.row { "row" } else { "column" };
                write!(f, "sandwich {sum} ({name} {})", line.number + 1)
            }
            Constraint::XSum { line, sum } => write!(f, "x-sum {sum} ({line})"),
            Constraint::Skyscraper { line, count } => write!(f, "skyscraper {count} ({line})"),
            Constraint::Arrow { circle, line } => {
                write!(f, "arrow ({}) {}", list(circle, " "), list(line, "→"))
            }
            Constraint::Palindrome(cells) => write!(f, "palindrome {}", list(cells, "→")),
            Constraint::Renban(cells) => write!(f, "renban {}", list(cells, "→")),
            Constraint::Whispers { cells, difference } => {
                write!(f, "whispers {difference} {}", list(cells, "→"))
            }
            Constraint::RegionSumLine(cells) => {
                write!(f, "region sum line {}", list(cells, "→"))
            }
            Constraint::BetweenLine(cells) => write!(f, "between line {}", list(cells, "→")),
            Constraint::EntropicLine(cells) => write!(f, "entropic line {}", list(cells, "→")),
            Constraint::ModularLine(cells) => write!(f, "modular line {}", list(cells, "→")),
            Constraint::ZipperLine(cells) => write!(f, "zipper line {}", list(cells, "→")),
            Constraint::DoubleArrow(cells) => write!(f, "double arrow {}", list(cells, "→")),
            Constraint::Difference { cells, value } => {
                write!(f, "white dot {value} {}", pair(cells))
            }
            Constraint::Ratio { cells, value } => write!(f, "black dot {value} {}", pair(cells)),
            Constraint::Xv { cells, sum } => {
                let mark = if *sum == 10 { "X" } else { "V" };
                write!(f, "{mark} {}", pair(cells))
            }
            Constraint::Clone { cells, clones } => {
                write!(f, "clone ({}) = ({})", list(cells, " "), list(clones, " "))
            }
            Constraint::Quadruple { cells, digits } => {
                let digits: Vec<String> = digits.iter().map(|&d| digit_char(d).into()).collect();
                write!(f, "quadruple {} ({})", digits.join(""), list(cells, " "))
            }
            Constraint::Indexer { kind, cell } => {
                let kind = match kind {
                    Indexer::Row => "row",
                    Indexer::Column => "column",
                    Indexer::Box => "box",
                };
                write!(f, "{kind} indexer {cell}")
            }
            Constraint::ExtraRegion(cells) => write!(f, "extra region ({})", list(cells, " ")),
            Constraint::PartialRegion { number, cells } => {
                write!(f, "region {} ({})", number + 1, list(cells, " "))
            }
        }
    }
}

impl Constraint {
    /// The cells the constraint names (none for whole-board rules).
    pub fn cells(&self) -> Vec<Cell> {
        match self {
            Constraint::Cage { cells, .. }
            | Constraint::DigitalRoot { cells, .. }
            | Constraint::Thermo { cells }
            | Constraint::SlowThermo { cells }
            | Constraint::LittleKiller { cells, .. }
            | Constraint::Palindrome(cells)
            | Constraint::Renban(cells)
            | Constraint::Whispers { cells, .. }
            | Constraint::RegionSumLine(cells)
            | Constraint::BetweenLine(cells)
            | Constraint::EntropicLine(cells)
            | Constraint::ModularLine(cells)
            | Constraint::ZipperLine(cells)
            | Constraint::DoubleArrow(cells)
            | Constraint::Quadruple { cells, .. }
            | Constraint::ExtraRegion(cells)
            | Constraint::PartialRegion { cells, .. } => cells.clone(),
            Constraint::Arrow { circle, line } => circle.iter().chain(line).copied().collect(),
            Constraint::Clone { cells, clones } => cells.iter().chain(clones).copied().collect(),
            Constraint::Difference { cells, .. }
            | Constraint::Ratio { cells, .. }
            | Constraint::Xv { cells, .. } => cells.to_vec(),
            Constraint::Allowed { cell, .. }
            | Constraint::Odd(cell)
            | Constraint::Even(cell)
            | Constraint::Minimum(cell)
            | Constraint::Maximum(cell)
            | Constraint::Indexer { cell, .. } => vec![*cell],
            Constraint::AntiKnight
            | Constraint::AntiKing
            | Constraint::NonConsecutive
            | Constraint::NegativeRatio
            | Constraint::NegativeXv
            | Constraint::Sandwich { .. }
            | Constraint::XSum { .. }
            | Constraint::Skyscraper { .. } => Vec::new(),
        }
    }

    /// Says why the constraint cannot hold on a board of `size`, if it
    /// cannot: cells off the board or listed twice, a cage with more cells
    /// than digits or a sum its cells cannot reach, a line longer than its
    /// rule allows, a dot between cells that are not neighbours.
    pub fn check(&self, size: Size) -> Result<(), String> {
        let side = size.side();
        let cells = self.cells();
        if let Some(off) = cells.iter().find(|c| c.row() >= side || c.col() >= side) {
            return Err(format!("{off} is not on the {size} board"));
        }
        let lists: Vec<&[Cell]> = match self {
            Constraint::Arrow { circle, line } => vec![circle, line],
            Constraint::Clone { cells, clones } => vec![cells, clones],
            // A little killer's diagonal is worked out, not listed.
            Constraint::LittleKiller { .. } => vec![],
            _ => vec![&cells],
        };
        for list in lists {
            let mut sorted = list.to_vec();
            sorted.sort_unstable();
            if let Some(pair) = sorted.windows(2).find(|w| w[0] == w[1]) {
                return Err(format!("{} is listed twice", pair[0]));
            }
        }
        let top = side as u32;
        let n = cells.len();
        let neighbours =
            |c: &[Cell; 2]| c[0].row().abs_diff(c[1].row()) + c[0].col().abs_diff(c[1].col()) == 1;
        match self {
            Constraint::Cage { sum, .. } => {
                if n == 0 {
                    return Err("a cage needs at least one cell".into());
                }
                if n > side {
                    return Err(format!(
                        "{n} cells cannot hold different digits from 1 to {side}"
                    ));
                }
                if let Some(sum) = *sum {
                    let low = (1..=n as u32).sum::<u32>();
                    let high = ((side - n + 1) as u32..=top).sum::<u32>();
                    if !(low..=high).contains(&sum) {
                        return Err(format!(
                            "no {n} different digits add up to {sum} (they make {low} to {high})"
                        ));
                    }
                }
            }
            Constraint::DigitalRoot { root, .. } if n == 0 || !(1..=9).contains(root) => {
                return Err("a digital-root cage needs cells and a root from 1 to 9".into());
            }
            Constraint::Thermo { cells } | Constraint::Renban(cells) if cells.len() > side => {
                return Err(format!(
                    "{} cells cannot hold different digits from 1 to {side}",
                    cells.len()
                ));
            }
            Constraint::Allowed { digits, .. } => {
                let all = u32::MAX >> (32 - side);
                if *digits == 0 || digits & !all != 0 {
                    return Err(format!("the digits must be within 1 to {side}"));
                }
            }
            Constraint::LittleKiller { cells, sum }
                if cells.is_empty()
                    || *sum > top * cells.len() as u32
                    || *sum < cells.len() as u32 =>
            {
                return Err(format!("{} cells cannot add up to {sum}", cells.len()));
            }
            Constraint::Sandwich { sum, .. } | Constraint::XSum { sum, .. }
                if *sum > top * (top + 1) / 2 =>
            {
                return Err(format!("no line adds up to {sum}"));
            }
            Constraint::Skyscraper { count, .. } if *count == 0 || *count > side => {
                return Err(format!("between 1 and {side} buildings are seen"));
            }
            Constraint::Arrow { circle, line }
                if circle.is_empty() || line.is_empty() || circle.len() > 3 =>
            {
                return Err("an arrow needs a circle of 1 to 3 cells and a line".into());
            }
            Constraint::Whispers { difference, .. }
                if *difference == 0 || usize::from(*difference) >= side =>
            {
                return Err(format!(
                    "a difference of {difference} is not between 1 and {}",
                    side - 1
                ));
            }
            Constraint::BetweenLine(cells) | Constraint::DoubleArrow(cells) if cells.len() < 2 => {
                return Err("the line needs two ends".into());
            }
            Constraint::Difference { cells, value } | Constraint::Ratio { cells, value } => {
                if !neighbours(cells) {
                    return Err("a dot joins two orthogonal neighbours".into());
                }
                if *value == 0 {
                    return Err("the dot's value must be at least 1".into());
                }
            }
            Constraint::Xv { cells, .. } if !neighbours(cells) => {
                return Err("an X or V joins two orthogonal neighbours".into());
            }
            Constraint::Clone { cells, clones } if cells.len() != clones.len() => {
                return Err(format!(
                    "{} cells and {} clones do not pair up",
                    cells.len(),
                    clones.len()
                ));
            }
            Constraint::Quadruple { cells, digits } => {
                if digits.is_empty() || digits.len() > cells.len() {
                    return Err("a quadruple needs 1 to 4 digits".into());
                }
                if digits.iter().any(|&d| d == 0 || usize::from(d) > side) {
                    return Err(format!("the digits must be within 1 to {side}"));
                }
            }
            Constraint::ExtraRegion(cells) if cells.len() > side => {
                return Err(format!(
                    "{} cells cannot hold different digits from 1 to {side}",
                    cells.len()
                ));
            }
            _ => {}
        }
        Ok(())
    }

    /// The constraint as [primitives](Primitive) on the board `context`
    /// describes. Pairs that a house keeps apart anyway are left out of the
    /// "differ" relations.
    pub fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        let side = size.side();
        let all = u32::MAX >> (32 - side);
        let index =
            |cells: &[Cell]| -> Vec<usize> { cells.iter().map(|&c| size.index(c)).collect() };
        let pair = |a: usize, b: usize, relation| Primitive::Pair { a, b, relation };
        // Every pair of the line `k` or fewer places apart.
        let within = |cells: &[usize], k: usize, relation: Relation| -> Vec<Primitive> {
            let mut out = Vec::new();
            for i in 0..cells.len() {
                for j in i + 1..cells.len().min(i + k + 1) {
                    out.push(pair(cells[i], cells[j], relation));
                }
            }
            out
        };
        let sum = |terms: Vec<(usize, i32)>, totals: Vec<i32>| Primitive::Sum { terms, totals };
        match self {
            Constraint::Cage { cells, sum } => vec![Primitive::Distinct {
                cells: index(cells),
                sum: *sum,
            }],
            Constraint::DigitalRoot { cells, root } => {
                let top = (side * cells.len()) as i32;
                let totals = (0..)
                    .map(|k| *root as i32 + 9 * k)
                    .take_while(|&t| t <= top);
                vec![sum(
                    index(cells).into_iter().map(|c| (c, 1)).collect(),
                    totals.collect(),
                )]
            }
            Constraint::Thermo { cells } => {
                let cells = index(cells);
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
                for i in 0..length {
                    for j in i + 1..length {
                        out.push(pair(cells[i], cells[j], Relation::LessBy((j - i) as u8)));
                    }
                }
                out
            }
            Constraint::SlowThermo { cells } => {
                within(&index(cells), cells.len(), Relation::LessOrEqual)
            }
            Constraint::AntiKnight | Constraint::AntiKing => {
                let steps: &[(isize, isize)] = if *self == Constraint::AntiKnight {
                    &[(1, 2), (2, 1), (1, -2), (2, -1)]
                } else {
                    &[(1, 1), (1, -1)]
                };
                steps_pairs(size, steps)
                    .into_iter()
                    .map(|(a, b)| pair(a, b, Relation::Differ))
                    .collect()
            }
            Constraint::NonConsecutive => {
                let dotted = context.marked(|c| {
                    matches!(c, Constraint::Difference { .. } | Constraint::Ratio { .. })
                });
                orthogonal_pairs(size)
                    .into_iter()
                    .filter(|p| !dotted.contains(p))
                    .map(|(a, b)| pair(a, b, Relation::DifferenceIsNot(1)))
                    .collect()
            }
            Constraint::NegativeRatio => {
                let dotted = context.marked(|c| {
                    matches!(c, Constraint::Difference { .. } | Constraint::Ratio { .. })
                });
                let mut ratios: Vec<u8> = context
                    .all
                    .iter()
                    .filter_map(|c| match c {
                        Constraint::Ratio { value, .. } => Some(*value),
                        _ => None,
                    })
                    .collect();
                if ratios.is_empty() {
                    ratios.push(2);
                }
                ratios.sort_unstable();
                ratios.dedup();
                orthogonal_pairs(size)
                    .into_iter()
                    .filter(|p| !dotted.contains(p))
                    .flat_map(|(a, b)| {
                        ratios
                            .iter()
                            .map(move |&r| pair(a, b, Relation::RatioIsNot(r)))
                    })
                    .collect()
            }
            Constraint::NegativeXv => {
                let marked = context.marked(|c| matches!(c, Constraint::Xv { .. }));
                orthogonal_pairs(size)
                    .into_iter()
                    .filter(|p| !marked.contains(p))
                    .flat_map(|(a, b)| [5, 10].map(|s| pair(a, b, Relation::SumIsNot(s))))
                    .collect()
            }
            Constraint::Allowed { cell, digits } => vec![Primitive::Allowed {
                cell: size.index(*cell),
                digits: *digits,
            }],
            Constraint::Odd(cell) | Constraint::Even(cell) => {
                let odd = all & 0x5555_5555;
                let digits = if matches!(self, Constraint::Odd(_)) {
                    odd
                } else {
                    all & !odd
                };
                vec![Primitive::Allowed {
                    cell: size.index(*cell),
                    digits,
                }]
            }
            Constraint::Minimum(cell) | Constraint::Maximum(cell) => {
                let minimum = matches!(self, Constraint::Minimum(_));
                let me = size.index(*cell);
                orthogonal_pairs(size)
                    .into_iter()
                    .filter_map(|(a, b)| match (a == me, b == me) {
                        (true, _) => Some(b),
                        (_, true) => Some(a),
                        _ => None,
                    })
                    .filter(|&other| {
                        let same = if minimum {
                            Constraint::Minimum(size.cell_at(other))
                        } else {
                            Constraint::Maximum(size.cell_at(other))
                        };
                        !context.all.contains(&same)
                    })
                    .map(|other| {
                        if minimum {
                            pair(me, other, Relation::LessBy(1))
                        } else {
                            pair(other, me, Relation::LessBy(1))
                        }
                    })
                    .collect()
            }
            Constraint::LittleKiller { cells, sum: total } => vec![sum(
                index(cells).into_iter().map(|c| (c, 1)).collect(),
                vec![*total as i32],
            )],
            Constraint::Sandwich { line, sum: total } => {
                let cells = index(&line.cells(size));
                let high = side as u8;
                let mut out = Vec::new();
                for i in 0..cells.len() {
                    for j in i + 1..cells.len() {
                        let between: Vec<(usize, i32)> =
                            cells[i + 1..j].iter().map(|&c| (c, 1)).collect();
                        for (x, y) in [(1, high), (high, 1)] {
                            out.push(Primitive::When {
                                when: vec![(cells[i], x), (cells[j], y)],
                                then: Box::new(sum(between.clone(), vec![*total as i32])),
                            });
                        }
                    }
                }
                out
            }
            Constraint::XSum { line, sum: total } => {
                let cells = index(&line.cells(size));
                (1..=side)
                    .map(|x| Primitive::When {
                        when: vec![(cells[0], x as u8)],
                        then: Box::new(sum(
                            cells[..x].iter().map(|&c| (c, 1)).collect(),
                            vec![*total as i32],
                        )),
                    })
                    .collect()
            }
            Constraint::Skyscraper { line, count } => vec![Primitive::Visible {
                cells: index(&line.cells(size)),
                count: *count,
            }],
            Constraint::Arrow { circle, line } => {
                // The circle's cells are decimal places, the last the units.
                let places = circle
                    .iter()
                    .rev()
                    .zip(std::iter::successors(Some(1), |p| Some(p * 10)));
                let terms = line
                    .iter()
                    .map(|&c| (size.index(c), 1))
                    .chain(places.map(|(&c, place)| (size.index(c), -place)));
                vec![sum(merged(terms), vec![0])]
            }
            Constraint::Palindrome(cells) => {
                let cells = index(cells);
                (0..cells.len() / 2)
                    .map(|k| pair(cells[k], cells[cells.len() - 1 - k], Relation::Equal))
                    .collect()
            }
            Constraint::Renban(cells) => {
                let cells = index(cells);
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
            Constraint::Whispers { cells, difference } => {
                within(&index(cells), 1, Relation::DifferenceAtLeast(*difference))
            }
            Constraint::RegionSumLine(cells) => {
                let mut stretches: Vec<Vec<usize>> = Vec::new();
                let mut last = None;
                for cell in index(cells) {
                    let Some(region) = context.region_of[cell] else {
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
            Constraint::BetweenLine(cells) => {
                let cells = index(cells);
                let last = cells.len() - 1;
                vec![Primitive::Between {
                    ends: (cells[0], cells[last]),
                    middle: cells[1..last].to_vec(),
                }]
            }
            Constraint::EntropicLine(cells) => within(
                &index(cells),
                2,
                Relation::ClassesDiffer(Classes::Thirds(side as u8)),
            ),
            Constraint::ModularLine(cells) => {
                within(&index(cells), 2, Relation::ClassesDiffer(Classes::Mod3))
            }
            Constraint::ZipperLine(cells) => {
                let cells = index(cells);
                let length = cells.len();
                let pairs: Vec<[usize; 2]> = (0..length / 2)
                    .map(|k| [cells[k], cells[length - 1 - k]])
                    .collect();
                // On an odd line every pair adds up to the middle digit; on
                // an even one, to the same total as the innermost pair.
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
            Constraint::DoubleArrow(cells) => {
                let cells = index(cells);
                let ends = [cells[0], cells[cells.len() - 1]];
                vec![sum(weighted(&ends, &cells[1..cells.len() - 1]), vec![0])]
            }
            Constraint::Difference { cells, value } => vec![pair(
                size.index(cells[0]),
                size.index(cells[1]),
                Relation::DifferenceIs(*value),
            )],
            Constraint::Ratio { cells, value } => vec![pair(
                size.index(cells[0]),
                size.index(cells[1]),
                Relation::RatioIs(*value),
            )],
            Constraint::Xv { cells, sum: total } => vec![pair(
                size.index(cells[0]),
                size.index(cells[1]),
                Relation::SumIs(*total),
            )],
            Constraint::Clone { cells, clones } => cells
                .iter()
                .zip(clones)
                .filter(|(a, b)| a != b)
                .map(|(&a, &b)| pair(size.index(a), size.index(b), Relation::Equal))
                .collect(),
            Constraint::Quadruple { cells, digits } => {
                let cells = index(cells);
                let mut distinct = digits.clone();
                distinct.sort_unstable();
                distinct.dedup();
                distinct
                    .into_iter()
                    .map(|digit| Primitive::Contains {
                        cells: cells.clone(),
                        digit,
                        count: digits.iter().filter(|&&d| d == digit).count(),
                    })
                    .collect()
            }
            Constraint::Indexer { kind, cell } => {
                let me = size.index(*cell);
                let (row, col) = (cell.row(), cell.col());
                // For each digit `v`: the cell it points at, and the digit
                // that cell must then hold.
                let target = |v: usize| -> Option<(usize, u8)> {
                    match kind {
                        Indexer::Row => Some((size.index(size.cell(v - 1, col)), row as u8 + 1)),
                        Indexer::Column => Some((size.index(size.cell(row, v - 1)), col as u8 + 1)),
                        Indexer::Box => {
                            let region = &context.regions[context.region_of[me]?];
                            let place = region.iter().position(|&c| c == me)?;
                            Some((*region.get(v - 1)?, place as u8 + 1))
                        }
                    }
                };
                (1..=side)
                    .filter_map(|v| {
                        let (other, digit) = target(v)?;
                        (other != me).then(|| pair(me, other, Relation::Implies(v as u8, digit)))
                    })
                    .collect()
            }
            Constraint::ExtraRegion(cells) | Constraint::PartialRegion { cells, .. } => {
                vec![Primitive::Distinct {
                    cells: index(cells),
                    sum: None,
                }]
            }
        }
    }
}

/// Terms for `Σ plus - Σ minus`.
fn weighted(plus: &[usize], minus: &[usize]) -> Vec<(usize, i32)> {
    merged(
        plus.iter()
            .map(|&c| (c, 1))
            .chain(minus.iter().map(|&c| (c, -1))),
    )
}

/// `terms` with each cell's weights added into one term, and terms that
/// cancel out dropped (a primitive sum lists a cell at most once).
fn merged(terms: impl IntoIterator<Item = (usize, i32)>) -> Vec<(usize, i32)> {
    let mut out: Vec<(usize, i32)> = Vec::new();
    for (cell, weight) in terms {
        match out.iter_mut().find(|t| t.0 == cell) {
            Some(term) => term.1 += weight,
            None => out.push((cell, weight)),
        }
    }
    out.retain(|t| t.1 != 0);
    out
}

/// The bits of digits `low..=high` (empty when `low > high`).
pub fn digit_range(low: usize, high: usize) -> u32 {
    if low > high || high == 0 {
        return 0;
    }
    let up_to_high = (1u64 << high) - 1;
    let below_low = (1u64 << (low.max(1) - 1)) - 1;
    (up_to_high & !below_low) as u32
}
