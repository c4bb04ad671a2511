//! The rules of a puzzle: which groups of cells (houses) must hold
//! different digits, and the variant [`Constraint`]s beyond them.
//!
//! Classic Sudoku's houses are its rows, columns and boxes; a board with no
//! boxes (a side with no divisor between 1 and itself that fits, such as 5
//! or 7) is a Latin square of rows and columns. Variants add the diagonals
//! as houses, and constraints: killer cages, thermometers, cells a knight's
//! or king's move apart that differ, orthogonal neighbours that are not
//! consecutive, and the digits a cell may hold. Every part of z3doku that
//! knows a rule reads it from here: the encodings, both engines, the checker
//! and the renderers. Nothing else derives a house from a board size.

use super::grid::{Cell, Size};
use std::fmt;
use std::sync::{Arc, OnceLock};
use thiserror::Error;

/// Which kind of house a [`House`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HouseKind {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A box: one of the board's regions.
    Box,
    /// A diagonal of a diagonal Sudoku: number 0 falls from r1c1 to the
    /// bottom right corner (f-puzzles' `diagonal-`), number 1 rises from
    /// the bottom left corner to the top right (`diagonal+`).
    Diagonal,
}

impl HouseKind {
    /// The word for it in messages: `row`, `column` or `box`.
    pub fn name(self) -> &'static str {
        match self {
            HouseKind::Row => "row",
            HouseKind::Column => "column",
            HouseKind::Box => "box",
            HouseKind::Diagonal => "diagonal",
        }
    }
}

/// A set of cells that holds every digit exactly once.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct House {
    /// Which kind of house.
    pub kind: HouseKind,
    /// Its number among houses of its kind, 0-based (boxes count
    /// row-major).
    pub number: usize,
    /// The row-major indexes of its cells, one per digit.
    pub cells: Vec<usize>,
}

impl fmt::Display for House {
    /// As messages name it: `row 3`, `box 5` (1-based).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.kind, self.number) {
            (HouseKind::Diagonal, 0) => f.write_str("falling diagonal"),
            (HouseKind::Diagonal, _) => f.write_str("rising diagonal"),
            (kind, number) => write!(f, "{} {}", kind.name(), number + 1),
        }
    }
}

/// One of a board's two long diagonals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Diagonal {
    /// From the top left corner to the bottom right (f-puzzles'
    /// `diagonal-`).
    Falling,
    /// From the bottom left corner to the top right (`diagonal+`).
    Rising,
}

/// A rule instance beyond the houses. Cells are listed as the puzzle gave
/// them; [`Rules::builder`] has checked that they are on the board.
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
    /// A thermometer: digits strictly increase from the bulb (the first
    /// cell) to the tip (the last).
    Thermo {
        /// The cells from bulb to tip.
        cells: Vec<Cell>,
    },
    /// Cells a chess knight's move apart hold different digits.
    AntiKnight,
    /// Cells a chess king's move apart hold different digits.
    AntiKing,
    /// Orthogonally neighbouring cells do not hold consecutive digits.
    NonConsecutive,
    /// A cell holds one of these digits (a pencil-marked cell).
    Allowed {
        /// The cell.
        cell: Cell,
        /// The digits it may hold: bit `d - 1` for digit `d`.
        digits: u32,
    },
}

/// The steps of a knight's move, one of each opposite pair.
const KNIGHT_STEPS: [(isize, isize); 4] = [(1, 2), (2, 1), (1, -2), (2, -1)];
/// The steps of a king's move, one of each opposite pair.
const KING_STEPS: [(isize, isize); 4] = [(0, 1), (1, -1), (1, 0), (1, 1)];
/// Orthogonal steps, one of each opposite pair.
const ORTHOGONAL_STEPS: [(isize, isize); 2] = [(0, 1), (1, 0)];

impl Constraint {
    /// For the whole-board constraints (anti-knight, anti-king,
    /// nonconsecutive), every pair of cells it relates on a board of
    /// `size`, each pair once as row-major indexes `(a, b)` with `a < b`;
    /// empty for the others.
    pub fn pairs(&self, size: Size) -> Vec<(usize, usize)> {
        let steps: &[(isize, isize)] = match self {
            Constraint::AntiKnight => &KNIGHT_STEPS,
            Constraint::AntiKing => &KING_STEPS,
            Constraint::NonConsecutive => &ORTHOGONAL_STEPS,
            _ => return Vec::new(),
        };
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

    /// Whether two related cells must hold different digits (anti-knight,
    /// anti-king) rather than non-consecutive ones.
    pub fn pairs_differ(&self) -> bool {
        matches!(self, Constraint::AntiKnight | Constraint::AntiKing)
    }
}

impl fmt::Display for Constraint {
    /// As messages name it: `cage 15 (r1c1 r1c2 r2c1)`, `thermo r3c1→r3c4`,
    /// `anti-knight`, `r2c2 is one of 1 3 5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |cells: &[Cell], sep: &str| {
            cells
                .iter()
                .map(Cell::to_string)
                .collect::<Vec<_>>()
                .join(sep)
        };
        match self {
            Constraint::Cage {
                cells,
                sum: Some(sum),
            } => write!(f, "cage {sum} ({})", list(cells, " ")),
            Constraint::Cage { cells, sum: None } => write!(f, "cage ({})", list(cells, " ")),
            Constraint::Thermo { cells } => write!(f, "thermo {}", list(cells, "→")),
            Constraint::AntiKnight => f.write_str("anti-knight"),
            Constraint::AntiKing => f.write_str("anti-king"),
            Constraint::NonConsecutive => f.write_str("nonconsecutive"),
            Constraint::Allowed { cell, digits } => {
                let digits: Vec<String> = (1..=32u8)
                    .filter(|d| digits >> (d - 1) & 1 == 1)
                    .map(|d| super::grid::digit_char(d).to_string())
                    .collect();
                write!(f, "{cell} is one of {}", digits.join(" "))
            }
        }
    }
}

/// Why a rule cannot be part of a board's rules. Prints as
/// `cage 50 (r1c1 r1c2): no 2 different digits add up to 50`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{rule}: {problem}")]
pub struct RuleError {
    /// The rule, as people name it.
    pub rule: String,
    /// What is wrong with it.
    pub problem: String,
}

/// Makes variant [`Rules`]: the classic houses of a size, plus diagonals
/// and constraints, each checked as it is added.
#[derive(Clone, Debug)]
pub struct RulesBuilder {
    size: Size,
    diagonals: [bool; 2],
    constraints: Vec<Constraint>,
}

impl RulesBuilder {
    /// Adds a diagonal as a house (adding it twice changes nothing).
    pub fn diagonal(&mut self, diagonal: Diagonal) -> &mut Self {
        self.diagonals[diagonal as usize] = true;
        self
    }

    /// Adds `constraint`, or says why it cannot be kept on this board:
    /// cells off the board or listed twice, a cage with more cells than
    /// digits or a sum its cells cannot reach, a thermometer longer than the
    /// digits, an allowed set with digits beyond the board's or none.
    pub fn constraint(&mut self, constraint: Constraint) -> Result<&mut Self, RuleError> {
        let side = self.size.side();
        let fail = |problem: String| RuleError {
            rule: constraint.to_string(),
            problem,
        };
        let cells: &[Cell] = match &constraint {
            Constraint::Cage { cells, .. } | Constraint::Thermo { cells } => cells,
            Constraint::Allowed { cell, .. } => std::slice::from_ref(cell),
            _ => &[],
        };
        if let Some(off) = cells.iter().find(|c| c.row() >= side || c.col() >= side) {
            return Err(fail(format!("{off} is not on the {} board", self.size)));
        }
        let mut sorted = cells.to_vec();
        sorted.sort_unstable();
        if let Some(pair) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(fail(format!("{} is listed twice", pair[0])));
        }
        match &constraint {
            Constraint::Cage { cells, sum } => {
                let n = cells.len();
                if n == 0 {
                    return Err(fail("a cage needs at least one cell".into()));
                }
                if n > side {
                    return Err(fail(format!(
                        "{n} cells cannot hold different digits from 1 to {side}"
                    )));
                }
                if let Some(sum) = *sum {
                    let low = (1..=n as u32).sum::<u32>();
                    let high = ((side - n + 1) as u32..=side as u32).sum::<u32>();
                    if !(low..=high).contains(&sum) {
                        return Err(fail(format!(
                            "no {n} different digits add up to {sum} (they make {low} to {high})"
                        )));
                    }
                }
            }
            Constraint::Thermo { cells } if cells.len() > side => {
                return Err(fail(format!(
                    "{} cells cannot increase within 1 to {side}",
                    cells.len()
                )));
            }
            Constraint::Allowed { digits, .. } => {
                let all = u32::MAX >> (32 - side);
                if *digits == 0 || digits & !all != 0 {
                    return Err(fail(format!("the digits must be within 1 to {side}")));
                }
            }
            _ => {}
        }
        if !self.constraints.contains(&constraint) {
            self.constraints.push(constraint);
        }
        Ok(self)
    }

    /// The rules: shared classic ones when nothing was added.
    pub fn build(&self) -> Arc<Rules> {
        if self.diagonals == [false; 2] && self.constraints.is_empty() {
            return Rules::classic(self.size);
        }
        let mut rules = Rules::build(self.size);
        let side = self.size.side();
        for (number, on) in self.diagonals.iter().enumerate() {
            if *on {
                let cells = (0..side)
                    .map(|k| match number {
                        0 => k * side + k,
                        _ => (side - 1 - k) * side + k,
                    })
                    .collect();
                rules.add_house(House {
                    kind: HouseKind::Diagonal,
                    number,
                    cells,
                });
            }
        }
        rules.constraints = self.constraints.clone();
        rules.classic = false;
        Arc::new(rules)
    }
}

/// The rules of a board: its size and its houses.
///
/// Rules are shared: [`Rules::classic`] builds the classic rules of each
/// size once per process and hands out the same [`Arc`], so a file of
/// puzzles costs nothing per puzzle here, and engines that prepare
/// themselves for a set of rules can tell at a glance that it has not
/// changed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    size: Size,
    houses: Vec<House>,
    /// For each cell, the indexes (into `houses`) of the houses holding it.
    houses_of: Vec<Vec<usize>>,
    /// For each cell, its region's number, when the board has regions.
    region_of: Vec<Option<usize>>,
    constraints: Vec<Constraint>,
    classic: bool,
}

impl Rules {
    /// Classic Sudoku on boards of `size`: every row, every column and
    /// every box holds each digit once. Boxes take the shape
    /// [`Size::region_shape`] gives; sides without one have none.
    pub fn classic(size: Size) -> Arc<Rules> {
        static CLASSIC: OnceLock<Vec<Arc<Rules>>> = OnceLock::new();
        let all = CLASSIC.get_or_init(|| Size::all().map(|s| Arc::new(Rules::build(s))).collect());
        match all.iter().find(|r| r.size == size) {
            Some(rules) => Arc::clone(rules),
            // Every Size is one of Size::all(); this only keeps the
            // function total.
            None => Arc::new(Rules::build(size)),
        }
    }

    fn build(size: Size) -> Rules {
        let side = size.side();
        let mut houses = Vec::with_capacity(3 * side);
        let line = |kind, number, cell: &dyn Fn(usize) -> usize| House {
            kind,
            number,
            cells: (0..side).map(cell).collect(),
        };
        for r in 0..side {
            houses.push(line(HouseKind::Row, r, &|k| r * side + k));
        }
        for c in 0..side {
            houses.push(line(HouseKind::Column, c, &|k| k * side + c));
        }
        let mut region_of = vec![None; size.cells()];
        if let Some((height, width)) = size.region_shape() {
            // Boxes are `height` rows by `width` columns; there are `width`
            // of them down the board and `height` across.
            let across = side / width;
            for b in 0..side {
                let (top, left) = (b / across * height, b % across * width);
                let house = line(HouseKind::Box, b, &|k| {
                    (top + k / width) * side + left + k % width
                });
                for &cell in &house.cells {
                    region_of[cell] = Some(b);
                }
                houses.push(house);
            }
        }
        let mut houses_of = vec![Vec::new(); size.cells()];
        for (h, house) in houses.iter().enumerate() {
            for &cell in &house.cells {
                houses_of[cell].push(h);
            }
        }
        Rules {
            size,
            houses,
            houses_of,
            region_of,
            constraints: Vec::new(),
            classic: true,
        }
    }

    /// A builder of variant rules on boards of `size`, starting from the
    /// classic houses.
    pub fn builder(size: Size) -> RulesBuilder {
        RulesBuilder {
            size,
            diagonals: [false; 2],
            constraints: Vec::new(),
        }
    }

    fn add_house(&mut self, house: House) {
        for &cell in &house.cells {
            self.houses_of[cell].push(self.houses.len());
        }
        self.houses.push(house);
    }

    /// The constraints beyond the houses, in the order they were added.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// Whether cells `a` and `b` (row-major) share a house, so that they
    /// differ whatever else the rules say.
    pub fn share_house(&self, a: usize, b: usize) -> bool {
        self.houses_of[a]
            .iter()
            .any(|h| self.houses_of[b].contains(h))
    }

    /// The board size the rules are for.
    pub fn size(&self) -> Size {
        self.size
    }

    /// Every house: the rows, then the columns, then the regions, then the
    /// diagonals.
    pub fn houses(&self) -> &[House] {
        &self.houses
    }

    /// The indexes into [`Rules::houses`] of the houses that hold `cell`
    /// (a row-major index).
    pub fn houses_of(&self, cell: usize) -> &[usize] {
        &self.houses_of[cell]
    }

    /// The number of the region that holds `cell`, when the board has
    /// regions.
    pub fn region_of(&self, cell: usize) -> Option<usize> {
        self.region_of[cell]
    }

    /// Whether these are the classic rules of their size: rows, columns and
    /// the default boxes, no diagonal and no constraint. Engines with a fast path for classic
    /// Sudoku take it only then.
    pub fn is_classic(&self) -> bool {
        self.classic
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn houses_cover_every_cell_once_per_kind() {
        for size in Size::all() {
            let rules = Rules::classic(size);
            let kinds = if size.region_shape().is_some() { 3 } else { 2 };
            assert_eq!(rules.houses().len(), kinds * size.side(), "{size}");
            let mut seen = vec![0; size.cells()];
            for house in rules.houses() {
                assert_eq!(house.cells.len(), size.side());
                for &c in &house.cells {
                    seen[c] += 1;
                }
            }
            assert!(seen.iter().all(|&n| n == kinds), "{size}");
            assert!((0..size.cells()).all(|c| rules.houses_of(c).len() == kinds));
        }
    }

    #[test]
    fn boxes_have_the_region_shape() {
        let six = Rules::classic(Size::from_side(6).unwrap_or_default());
        let first = six.houses().iter().find(|h| h.kind == HouseKind::Box);
        assert_eq!(first.map(|h| h.cells.clone()), Some(vec![0, 1, 2, 6, 7, 8]));
        let nine = Rules::classic(Size::NINE);
        assert_eq!(
            nine.houses()[18 + 4].cells,
            vec![30, 31, 32, 39, 40, 41, 48, 49, 50]
        );
        assert_eq!(nine.region_of(40), Some(4));
        assert_eq!(nine.houses()[22].to_string(), "box 5");
    }

    #[test]
    fn classic_rules_are_shared() {
        assert!(Arc::ptr_eq(
            &Rules::classic(Size::NINE),
            &Rules::classic(Size::NINE)
        ));
    }
}
