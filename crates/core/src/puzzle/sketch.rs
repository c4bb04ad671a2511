//! How a rule looks, in a vocabulary of marks that name shapes and
//! colours, never kinds.
//!
//! Each kind says in its own module which marks it is drawn with (see
//! [`Rule::sketch`](super::kinds::Rule::sketch)); a renderer draws marks
//! and needs to know no kind. So drawing is a narrow waist, as the
//! [primitives](super::primitive) are for solving: a new kind answers one
//! method and every picture shows it. A kind with no marks (a rule over
//! the whole board) is named in the legend by its rule line, so nothing
//! vanishes from a picture silently.

use super::grid::Cell;

/// A line's colour, by name. The renderer picks the shade of each (the
/// ones setters know from f-puzzles).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineColour {
    /// Mid grey.
    Grey,
    /// Purple.
    Purple,
    /// Green.
    Green,
    /// Blue.
    Blue,
    /// Orange.
    Orange,
    /// Teal.
    Teal,
    /// Lavender.
    Lavender,
    /// Yellow.
    Yellow,
}

/// A pale fill behind cells, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tint {
    /// Pale grey.
    Grey,
    /// Pale red.
    Red,
    /// Pale green.
    Green,
    /// Pale blue.
    Blue,
    /// One of a few pale colours in turn, chosen by the rule's place in
    /// the puzzle's list, so that neighbouring groups tell apart.
    InTurn,
}

/// Which side of the grid a clue stands beside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// Left of a row.
    Left,
    /// Right of a row.
    Right,
    /// Above a column.
    Top,
    /// Below a column.
    Bottom,
}

/// One mark of a picture.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// A line of the usual width through the centres of `cells`.
    Line {
        /// Its cells, in order.
        cells: Vec<Cell>,
        /// Its colour.
        colour: LineColour,
    },
    /// A wide light grey line with a round bulb on its first cell.
    BulbLine(Vec<Cell>),
    /// A circle (a pill over several cells) with a thin arrow leaving it
    /// through `line` and pointing at the last cell.
    Arrow {
        /// The circle's cells.
        circle: Vec<Cell>,
        /// The shaft's cells.
        line: Vec<Cell>,
    },
    /// A thin line whose two end cells are circled.
    CircledEnds(Vec<Cell>),
    /// Small text in the top right corner of a cell.
    CornerText {
        /// The cell.
        cell: Cell,
        /// The text.
        text: String,
    },
    /// A dashed outline just inside `cells`, with `label` in the top left
    /// corner of the first cell in reading order.
    Cage {
        /// Its cells.
        cells: Vec<Cell>,
        /// Its label.
        label: Option<String>,
    },
    /// Cells filled with a pale tint.
    Shade {
        /// The cells.
        cells: Vec<Cell>,
        /// The tint.
        tint: Tint,
    },
    /// Cells bounded as a region: the grid's thick region lines already
    /// draw it, so it adds nothing beyond them (and no legend line).
    RegionBorder(Vec<Cell>),
    /// A dot on the edge between two neighbours, black or white, with
    /// text on it.
    Dot {
        /// The two neighbours.
        cells: [Cell; 2],
        /// Black rather than white.
        black: bool,
        /// Its text, if any.
        text: Option<String>,
    },
    /// Bold text on a white patch on the edge between two neighbours.
    EdgeText {
        /// The two neighbours.
        cells: [Cell; 2],
        /// The text.
        text: String,
    },
    /// A clue outside the grid beside row or column `index` (0-based).
    Beside {
        /// The side of the grid.
        side: Side,
        /// The row or column.
        index: usize,
        /// The clue.
        text: String,
    },
    /// A clue outside the grid one step before the first of `cells` (a
    /// diagonal), with a small arrow pointing along it.
    DiagonalClue {
        /// The diagonal's cells, from the clue's end.
        cells: Vec<Cell>,
        /// The clue.
        text: String,
    },
    /// A grey disc in a cell.
    Disc(Cell),
    /// A grey square in a cell.
    Square(Cell),
    /// A thin grey ring in a cell, the digit showing through it (a
    /// counting circle).
    Ring(Cell),
    /// Four grey chevrons on a cell's edges, pointing in or out.
    Chevrons {
        /// The cell.
        cell: Cell,
        /// Pointing towards the centre rather than away.
        inward: bool,
    },
    /// Small grey text along a cell's bottom edge.
    FootText {
        /// The cell.
        cell: Cell,
        /// The text.
        text: String,
    },
    /// A white circle on the corner four cells share, with digits in it,
    /// two a line.
    CornerCircle {
        /// The four cells.
        cells: Vec<Cell>,
        /// The digits.
        digits: Vec<u8>,
    },
    /// A line of the legend under the grid.
    Note(String),
}
