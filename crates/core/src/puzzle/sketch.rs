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
//!
//! What a setter drew beyond the rules (f-puzzles' cosmetic keys) comes as
//! marks too, from [`Cosmetics::sketch`](super::kinds::drawing::Cosmetics::sketch):
//! free positions ([`Point`], in cells) and the file's own colours
//! ([`Colour`]) rather than named ones.

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

/// A colour as a file gives it: red, green, blue and opacity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Colour {
    /// Red, 0 to 255.
    pub red: u8,
    /// Green, 0 to 255.
    pub green: u8,
    /// Blue, 0 to 255.
    pub blue: u8,
    /// Opacity, 0 (none) to 255 (opaque).
    pub alpha: u8,
}

impl Colour {
    /// Opaque black.
    pub const BLACK: Colour = Colour::rgb(0, 0, 0);
    /// Opaque white.
    pub const WHITE: Colour = Colour::rgb(255, 255, 255);

    /// An opaque colour.
    pub const fn rgb(red: u8, green: u8, blue: u8) -> Colour {
        Colour {
            red,
            green,
            blue,
            alpha: 255,
        }
    }

    /// Reads the hexadecimal forms f-puzzles writes and CSS allows:
    /// `#rgb`, `#rgba`, `#rrggbb` and `#rrggbbaa` (either case, spaces
    /// around allowed); anything else is `None`.
    pub fn parse(text: &str) -> Option<Colour> {
        let hex = text.trim().strip_prefix('#')?;
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let digit = |k: usize| u8::from_str_radix(hex.get(k..=k)?, 16).ok();
        let pair = |k: usize| u8::from_str_radix(hex.get(k..k + 2)?, 16).ok();
        let short = |k: usize| digit(k).map(|d| d * 17);
        match hex.len() {
            3 => Some(Colour::rgb(short(0)?, short(1)?, short(2)?)),
            4 => Some(Colour {
                alpha: short(3)?,
                ..Colour::rgb(short(0)?, short(1)?, short(2)?)
            }),
            6 => Some(Colour::rgb(pair(0)?, pair(2)?, pair(4)?)),
            8 => Some(Colour {
                alpha: pair(6)?,
                ..Colour::rgb(pair(0)?, pair(2)?, pair(4)?)
            }),
            _ => None,
        }
    }
}

/// A place on the page, in cells from the grid's top left corner: `x`
/// to the right, `y` down. The centre of row `r`, column `c` (0-based) is
/// `(c + 0.5, r + 0.5)`; a place beside the grid is below 0 or above the
/// side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Cells to the right of the grid's left edge.
    pub x: f64,
    /// Cells below the grid's top edge.
    pub y: f64,
}

/// One mark of a picture.
#[derive(Clone, Debug, PartialEq)]
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
    /// A free line through `points` in `colour`, `width` cells wide, round
    /// at its ends and joints (a line a setter drew).
    Stroke {
        /// Its points, in order.
        points: Vec<Point>,
        /// Its colour.
        colour: Colour,
        /// Its width, in cells.
        width: f64,
    },
    /// A rectangle or an ellipse a setter drew, centred on `centre`,
    /// turned clockwise by `angle` degrees, with `text` in it.
    Shape {
        /// Its centre.
        centre: Point,
        /// Its width, in cells.
        width: f64,
        /// Its height, in cells.
        height: f64,
        /// An ellipse rather than a rectangle.
        round: bool,
        /// Its fill.
        fill: Colour,
        /// Its outline.
        outline: Colour,
        /// Clockwise, in degrees.
        angle: f64,
        /// Its text, if any, and the text's colour.
        text: Option<(String, Colour)>,
    },
    /// Text a setter placed, centred on `centre`, `size` cells high,
    /// turned clockwise by `angle` degrees.
    Text {
        /// Its centre.
        centre: Point,
        /// The text.
        text: String,
        /// Its colour.
        colour: Colour,
        /// Its font size, in cells.
        size: f64,
        /// Clockwise, in degrees.
        angle: f64,
    },
    /// A dashed outline just inside `cells`, as [`Mark::Cage`], in the
    /// colours a setter gave it.
    ColouredCage {
        /// Its cells.
        cells: Vec<Cell>,
        /// Its label.
        label: Option<String>,
        /// The outline's colour.
        outline: Colour,
        /// The label's colour.
        font: Colour,
    },
    /// A cell filled with colours a setter gave it: one fills the cell,
    /// several split it into equal bands from left to right.
    CellColours {
        /// The cell.
        cell: Cell,
        /// Its colours, in order.
        colours: Vec<Colour>,
    },
}

/// Each group of cells tinted in turn and outlined (an equal sum's
/// segments, the sets of same values).
pub fn groups_in_turn(groups: &[Vec<Cell>]) -> Vec<Mark> {
    groups
        .iter()
        .flat_map(|g| {
            [
                Mark::Shade {
                    cells: g.clone(),
                    tint: Tint::InTurn,
                },
                Mark::Cage {
                    cells: g.clone(),
                    label: None,
                },
            ]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_read_as_css_writes_them() {
        assert_eq!(
            Colour::parse("#C060C0"),
            Some(Colour::rgb(0xc0, 0x60, 0xc0))
        );
        assert_eq!(Colour::parse(" #fff "), Some(Colour::WHITE));
        assert_eq!(
            Colour::parse("#00000080"),
            Some(Colour {
                alpha: 0x80,
                ..Colour::BLACK
            })
        );
        assert_eq!(Colour::parse("#f008").map(|c| c.alpha), Some(0x88));
        for bad in ["", "#", "red", "#12345", "#ggg", "C060C0", "#+1+2+3"] {
            assert_eq!(Colour::parse(bad), None, "{bad}");
        }
    }
}
