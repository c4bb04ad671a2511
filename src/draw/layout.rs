//! Where things go: the grid's place on the page from the board's size,
//! the margins the outside clues need, and the lines between regions.

use crate::puzzle::Puzzle;
use crate::puzzle::constraint::Constraint;
use crate::puzzle::grid::Cell;

/// The side of one cell, in SVG units (pixels at scale 1).
pub const CELL: f64 = 60.0;

/// A margin with nothing outside the grid: room for the outer line.
const BARE: f64 = 0.25 * CELL;

/// Half a pixel: the grid sits this far off the whole pixels, so that its
/// lines (1 and 3 wide) cover whole pixels at scale 1 and come out crisp.
const CRISP: f64 = 0.5;

/// The height of one line of legend or caption text.
pub const LEGEND_LINE: f64 = 0.42 * CELL;

/// The page: the grid's origin and side, and the margins around it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    side: usize,
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
    legend_lines: usize,
}

/// An axis-aligned box, `x`/`y` its top left corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

impl Rect {
    /// The centre.
    pub fn center(&self) -> (f64, f64) {
        (self.x + self.width / 2.0, self.y + self.height / 2.0)
    }

    /// The box shrunk by `by` on every side.
    pub fn inset(&self, by: f64) -> Rect {
        Rect {
            x: self.x + by,
            y: self.y + by,
            width: (self.width - 2.0 * by).max(0.0),
            height: (self.height - 2.0 * by).max(0.0),
        }
    }
}

/// Which sides of the grid hold clues outside it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rims {
    /// Left of the grid.
    pub left: bool,
    /// Above it.
    pub top: bool,
    /// Right of it.
    pub right: bool,
    /// Below it.
    pub bottom: bool,
}

impl Rims {
    /// The rims a place outside the grid (row and column from -1 to
    /// `side`) needs.
    pub fn add(&mut self, row: isize, col: isize, side: usize) {
        let side = side as isize;
        self.left |= col < 0;
        self.top |= row < 0;
        self.right |= col >= side;
        self.bottom |= row >= side;
    }
}

impl Layout {
    /// The page for a board of `side` with clues on `rims` and
    /// `legend_lines` lines of text under the grid.
    pub fn new(side: usize, rims: Rims, legend_lines: usize) -> Layout {
        let margin = |clues: bool| if clues { CELL } else { BARE };
        Layout {
            side,
            left: margin(rims.left),
            top: margin(rims.top),
            right: margin(rims.right),
            bottom: margin(rims.bottom),
            legend_lines,
        }
    }

    /// The board's side in cells.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The page's width.
    pub fn width(&self) -> f64 {
        self.left + self.grid_side() + self.right + 2.0 * CRISP
    }

    /// The page's height, legend included.
    pub fn height(&self) -> f64 {
        self.legend_top() + self.legend_lines as f64 * LEGEND_LINE + self.legend_pad()
    }

    fn legend_pad(&self) -> f64 {
        if self.legend_lines == 0 {
            0.0
        } else {
            0.2 * CELL
        }
    }

    /// The grid's side on the page.
    pub fn grid_side(&self) -> f64 {
        self.side as f64 * CELL
    }

    /// Where the legend's first line starts (its top).
    pub fn legend_top(&self) -> f64 {
        self.top + self.grid_side() + self.bottom + 2.0 * CRISP
    }

    /// The legend's left edge.
    pub fn legend_left(&self) -> f64 {
        BARE
    }

    /// The x of column `col`'s left edge (`col` may be -1 or `side`, off
    /// the grid, or `side` for the right edge).
    pub fn x(&self, col: isize) -> f64 {
        self.left + CRISP + col as f64 * CELL
    }

    /// The y of row `row`'s top edge.
    pub fn y(&self, row: isize) -> f64 {
        self.top + CRISP + row as f64 * CELL
    }

    /// The box of the place at `row`, `col` (inside the grid or outside).
    pub fn place(&self, row: isize, col: isize) -> Rect {
        Rect {
            x: self.x(col),
            y: self.y(row),
            width: CELL,
            height: CELL,
        }
    }

    /// The box of `cell`.
    pub fn cell(&self, cell: Cell) -> Rect {
        self.place(cell.row() as isize, cell.col() as isize)
    }

    /// The centre of `cell`.
    pub fn center(&self, cell: Cell) -> (f64, f64) {
        self.cell(cell).center()
    }

    /// The box of the cell with row-major index `index`.
    pub fn index(&self, index: usize) -> Rect {
        self.place((index / self.side) as isize, (index % self.side) as isize)
    }
}

/// Where a cell lies, for the region lines: two neighbours are parted by a
/// thick line exactly when their places differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// Off the board.
    Outside,
    /// In the full region of this number.
    Region(usize),
    /// In the region too small to be a house (a partial region).
    Partial(usize),
    /// In no region.
    Nowhere,
    /// In the region of this number a chaos construction's solution found.
    Found(u8),
}

/// The lines of a board: for each edge between two places, whether it is
/// a region line (thick) or a cell line (thin).
pub struct Borders {
    side: usize,
    places: Vec<Place>,
}

impl Borders {
    /// The borders of `puzzle`'s regions.
    pub fn of(puzzle: &Puzzle) -> Borders {
        let rules = puzzle.rules();
        let side = rules.size().side();
        let mut places: Vec<Place> = (0..side * side)
            .map(|cell| rules.region_of(cell).map_or(Place::Nowhere, Place::Region))
            .collect();
        for constraint in rules.constraints() {
            if let Constraint::PartialRegion(region) = constraint {
                for &cell in &region.cells {
                    if let Some(place) = places.get_mut(rules.size().index(cell)) {
                        *place = Place::Partial(region.number);
                    }
                }
            }
        }
        Borders { side, places }
    }

    /// The same borders with the regions a chaos construction's solution
    /// found (each cell's region, row-major) drawn where the board has no
    /// region of its own; `regions` of the wrong length change nothing.
    pub fn with_found(mut self, regions: &[u8]) -> Borders {
        if regions.len() == self.places.len() {
            for (place, &region) in self.places.iter_mut().zip(regions) {
                if *place == Place::Nowhere {
                    *place = Place::Found(region);
                }
            }
        }
        self
    }

    /// Whether some cell lies in a region of the board's own.
    pub fn has_own_regions(&self) -> bool {
        self.places
            .iter()
            .any(|p| matches!(p, Place::Region(_) | Place::Partial(_)))
    }

    fn place(&self, row: isize, col: isize) -> Place {
        let side = self.side as isize;
        if row < 0 || col < 0 || row >= side || col >= side {
            return Place::Outside;
        }
        self.places[row as usize * self.side + col as usize]
    }

    /// Whether a region line runs above the cell at `row`, `col` (`row`
    /// from 0 to `side`).
    pub fn thick_above(&self, row: isize, col: isize) -> bool {
        self.place(row - 1, col) != self.place(row, col)
    }

    /// Whether a region line runs left of the cell at `row`, `col`.
    pub fn thick_left(&self, row: isize, col: isize) -> bool {
        self.place(row, col - 1) != self.place(row, col)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins_follow_the_clues() {
        let bare = Layout::new(9, Rims::default(), 0);
        assert_eq!(bare.width(), 9.0 * CELL + 2.0 * BARE + 1.0);
        assert_eq!(bare.height(), bare.width());
        let mut rims = Rims::default();
        rims.add(-1, 3, 9);
        rims.add(2, 9, 9);
        let clued = Layout::new(9, rims, 2);
        assert_eq!(clued.x(0), BARE + 0.5);
        assert_eq!(clued.y(0), CELL + 0.5);
        assert_eq!(clued.width(), 9.0 * CELL + BARE + CELL + 1.0);
        assert!(clued.height() > clued.legend_top() + 2.0 * LEGEND_LINE - 1.0);
    }
}
