//! The rules of a puzzle: which groups of cells (houses) must hold
//! different digits.
//!
//! Classic Sudoku's houses are its rows, columns and boxes; a board with no
//! boxes (a side with no divisor between 1 and itself that fits, such as 5
//! or 7) is a Latin square of rows and columns. Every part of z3doku that
//! knows a rule reads it from here: the encodings, both engines, the checker
//! and the renderers. Nothing else derives a house from a board size.

use super::grid::Size;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// Which kind of house a [`House`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HouseKind {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A box: one of the board's regions.
    Box,
}

impl HouseKind {
    /// The word for it in messages: `row`, `column` or `box`.
    pub fn name(self) -> &'static str {
        match self {
            HouseKind::Row => "row",
            HouseKind::Column => "column",
            HouseKind::Box => "box",
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
        write!(f, "{} {}", self.kind.name(), self.number + 1)
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
            classic: true,
        }
    }

    /// The board size the rules are for.
    pub fn size(&self) -> Size {
        self.size
    }

    /// Every house: the rows, then the columns, then the regions.
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
    /// the default boxes, nothing else. Engines with a fast path for classic
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
