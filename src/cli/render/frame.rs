//! The board's frame, which every drawn grid shares: a line runs between
//! two neighbouring cells exactly when they are in different regions,
//! segment by segment, so jigsaw regions show their shapes, and each joint
//! is the box-drawing character its arms call for. On a board of boxes this
//! is the familiar grid of lines between boxes.
//!
//! `tabled` draws it. Its grid keeps one character per cell side and per
//! corner (a `Border` on one cell), which is exactly a segment and a joint,
//! and it still sizes, pads and colours the cells; z3doku only decides the
//! characters. A line is drawn above a row (or left of a column) when any
//! segment of it separates regions; where it does not, its characters are
//! blanks, so the columns stay aligned.

use tabled::Table;
use tabled::grid::config::Border;
use tabled::settings::Style;
use z3doku::puzzle::constraint::Constraint;
use z3doku::puzzle::rules::Rules;

/// Where a cell lies, for drawing. The cells in no region count as one
/// area: no line between two of them, a line between one of them and a
/// region's cell. A board without regions so gets its outer frame only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// Around the board.
    Outside,
    /// In the full region of this number ([`Rules::region_of`]).
    Region(usize),
    /// In the region of this number that is too small to be a house (a
    /// [`Constraint::PartialRegion`]). A region of one cell says nothing,
    /// so the rules do not keep it, and it is drawn as no region.
    Partial(usize),
    /// In no region.
    Nowhere,
}

/// The joints, by their arms: up, down, left, right as the bits 8, 4, 2, 1.
/// A joint with one arm cannot happen (when three of the four pairs of
/// places around a point are alike, so is the fourth), but it has its half
/// line all the same.
const JOINTS: [char; 16] = [
    ' ', '╶', '╴', '─', '╷', '┌', '┐', '┬', '╵', '└', '┘', '┴', '│', '├', '┤', '┼',
];

/// The lines of one board.
pub(super) struct Frame {
    /// The board's rows and columns.
    height: usize,
    width: usize,
    /// Each place, row-major, in a ring of outside one cell wide: the cell
    /// at row `r`, column `c` is at `(r + 1) * (width + 2) + c + 1`.
    places: Vec<Place>,
    /// Whether a line is drawn above row `k`, for `k` in `0..=height`
    /// (`height`: below the last row).
    rows: Vec<bool>,
    /// Whether a line is drawn left of column `k`, for `k` in `0..=width`.
    columns: Vec<bool>,
}

impl Frame {
    /// The frame for `rules`' regions.
    pub(super) fn new(rules: &Rules) -> Self {
        Frame::of_regions(rules, None)
    }

    /// The frame for a solution's own regions (each cell's, row-major)
    /// when it has them (chaos construction), else for `rules`' regions.
    pub(super) fn of_regions(rules: &Rules, found: Option<&[u8]>) -> Self {
        let (height, width) = (rules.size().rows(), rules.size().cols());
        let ring = width + 2;
        let mut places = vec![Place::Outside; (height + 2) * ring];
        let at = |cell: usize| (cell / width + 1) * ring + cell % width + 1;
        for cell in 0..height * width {
            places[at(cell)] = match found.and_then(|regions| regions.get(cell)) {
                Some(&r) => Place::Region(usize::from(r)),
                None => rules.region_of(cell).map_or(Place::Nowhere, Place::Region),
            };
        }
        for constraint in rules.constraints() {
            if let Constraint::PartialRegion(region) = constraint {
                for &cell in &region.cells {
                    places[at(rules.size().index(cell))] = Place::Partial(region.number);
                }
            }
        }
        let mut frame = Frame {
            height,
            width,
            places,
            rows: Vec::new(),
            columns: Vec::new(),
        };
        frame.rows = (0..=height)
            .map(|k| (0..width).any(|c| frame.above(k, c)))
            .collect();
        frame.columns = (0..=width)
            .map(|k| (0..height).any(|r| frame.left_of(r, k)))
            .collect();
        frame
    }

    /// Whether a line is drawn above row `k` (`side`: below the board).
    pub(super) fn line_above(&self, k: usize) -> bool {
        self.rows.get(k).copied().unwrap_or(false)
    }

    /// Whether a line is drawn left of column `k` (`side`: right of the
    /// board).
    pub(super) fn line_left_of(&self, k: usize) -> bool {
        self.columns.get(k).copied().unwrap_or(false)
    }

    /// Draws the frame on `table`, whose cells are the board's.
    pub(super) fn draw(&self, table: &mut Table) {
        table.with(Style::empty());
        let (last_row, last_column) = (self.height - 1, self.width - 1);
        for r in 0..self.height {
            for c in 0..self.width {
                let (top, bottom) = (self.rows[r], r == last_row && self.rows[r + 1]);
                let (left, right) = (self.columns[c], c == last_column && self.columns[c + 1]);
                let horizontal = |row| if self.above(row, c) { '─' } else { ' ' };
                let vertical = |column| if self.left_of(r, column) { '│' } else { ' ' };
                let border = Border {
                    top: top.then(|| horizontal(r)),
                    bottom: bottom.then(|| horizontal(r + 1)),
                    left: left.then(|| vertical(c)),
                    right: right.then(|| vertical(c + 1)),
                    left_top_corner: (top && left).then(|| self.joint(r, c)),
                    right_top_corner: (top && right).then(|| self.joint(r, c + 1)),
                    left_bottom_corner: (bottom && left).then(|| self.joint(r + 1, c)),
                    right_bottom_corner: (bottom && right).then(|| self.joint(r + 1, c + 1)),
                };
                table.modify((r, c), border);
            }
        }
    }

    /// The place of the cell at row `r`, column `c` of the ring (the board's
    /// row `r - 1`, column `c - 1`).
    fn place(&self, r: usize, c: usize) -> Place {
        self.places
            .get(r * (self.width + 2) + c)
            .copied()
            .unwrap_or(Place::Outside)
    }

    /// Whether the segment above the board's cell at row `r`, column `c`
    /// separates regions (`r` = `side`: the segment below the last row).
    fn above(&self, r: usize, c: usize) -> bool {
        self.place(r, c + 1) != self.place(r + 1, c + 1)
    }

    /// Whether the segment left of the board's cell at row `r`, column `c`
    /// separates regions (`c` = `side`: the segment right of the last
    /// column).
    fn left_of(&self, r: usize, c: usize) -> bool {
        self.place(r + 1, c) != self.place(r + 1, c + 1)
    }

    /// The joint at the top left corner of the board's cell at row `r`,
    /// column `c` (either may be `side`), from the four places around it.
    fn joint(&self, r: usize, c: usize) -> char {
        let (nw, ne) = (self.place(r, c), self.place(r, c + 1));
        let (sw, se) = (self.place(r + 1, c), self.place(r + 1, c + 1));
        let arms = [nw != ne, sw != se, nw != sw, ne != se];
        let index = arms
            .into_iter()
            .fold(0, |index, arm| index * 2 + usize::from(arm));
        JOINTS[index]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::render::{Pretty, Render};
    use proptest::prelude::*;
    use std::sync::Arc;
    use z3doku::puzzle::Puzzle;
    use z3doku::puzzle::grid::{Grid, Size};

    /// The arms of a line character (up, down, left, right), or `None` for
    /// a character a region's inside may hold (a blank or a digit).
    fn arms(ch: char) -> Option<[bool; 4]> {
        let index = JOINTS.iter().position(|&j| j == ch).filter(|&k| k > 0)?;
        Some([
            index & 8 != 0,
            index & 4 != 0,
            index & 2 != 0,
            index & 1 != 0,
        ])
    }

    /// Labels the areas of `text` that its lines enclose: each character
    /// that is no line gets the number of its area, numbered in reading
    /// order of first appearance. Returns the labels of the cells (the
    /// characters that are neither lines nor blanks), in reading order.
    fn areas_drawn(text: &str) -> Vec<usize> {
        let chars: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
        let open = |r: usize, c: usize| {
            chars
                .get(r)
                .and_then(|line| line.get(c))
                .is_some_and(|&ch| arms(ch).is_none())
        };
        let mut area: Vec<Vec<Option<usize>>> =
            chars.iter().map(|line| vec![None; line.len()]).collect();
        let mut next = 0;
        let mut cells = Vec::new();
        for r in 0..chars.len() {
            for c in 0..chars[r].len() {
                if open(r, c) && area[r][c].is_none() {
                    let mut stack = vec![(r, c)];
                    area[r][c] = Some(next);
                    while let Some((r, c)) = stack.pop() {
                        for (r, c) in [
                            (r + 1, c),
                            (r, c + 1),
                            (r.wrapping_sub(1), c),
                            (r, c.wrapping_sub(1)),
                        ] {
                            if open(r, c) && area[r][c].is_none() {
                                area[r][c] = Some(next);
                                stack.push((r, c));
                            }
                        }
                    }
                    next += 1;
                }
                if chars[r][c] != ' ' && open(r, c) {
                    cells.extend(area[r][c]);
                }
            }
        }
        renumbered(&cells)
    }

    /// `labels` renumbered in order of first appearance, so that two
    /// labellings of the same partition compare equal.
    fn renumbered(labels: &[usize]) -> Vec<usize> {
        let mut seen: Vec<usize> = Vec::new();
        labels
            .iter()
            .map(|l| match seen.iter().position(|s| s == l) {
                Some(k) => k,
                None => {
                    seen.push(*l);
                    seen.len() - 1
                }
            })
            .collect()
    }

    /// The areas the cells should make: neighbours in the same region (or
    /// both in none) are in one area. A region of one cell is none.
    fn areas_meant(side: usize, regions: &[Option<usize>]) -> Vec<usize> {
        let alone = |region: Option<usize>| regions.iter().filter(|&&r| r == region).count() == 1;
        let regions: Vec<Option<usize>> =
            regions.iter().map(|&r| r.filter(|_| !alone(r))).collect();
        let mut area: Vec<Option<usize>> = vec![None; side * side];
        for start in 0..side * side {
            if area[start].is_some() {
                continue;
            }
            area[start] = Some(start);
            let mut stack = vec![start];
            while let Some(cell) = stack.pop() {
                let (r, c) = (cell / side, cell % side);
                let near = [
                    (r + 1 < side).then(|| cell + side),
                    (r > 0).then(|| cell - side),
                    (c + 1 < side).then(|| cell + 1),
                    (c > 0).then(|| cell - 1),
                ];
                for other in near.into_iter().flatten() {
                    if area[other].is_none() && regions[other] == regions[cell] {
                        area[other] = Some(start);
                        stack.push(other);
                    }
                }
            }
        }
        renumbered(&area.into_iter().flatten().collect::<Vec<_>>())
    }

    /// The empty board of `side` with `regions`, drawn.
    fn drawn(side: usize, regions: Vec<Option<usize>>) -> String {
        let size = Size::from_side(side).unwrap_or_else(|| panic!("{side}"));
        let rules = Rules::builder(size)
            .regions(regions)
            .and_then(|b| b.build())
            .unwrap_or_else(|e| panic!("{e}"));
        let puzzle = Puzzle::new(Grid::empty(size), Arc::clone(&rules));
        Pretty.grid(puzzle.givens(), &puzzle, &[], false)
    }

    /// Regions for a board of `side`: its rows (or boxes, when `boxes` and
    /// the size has them) with the cells of `swaps` swapped, and the cells
    /// of `none` in no region.
    fn regions(
        side: usize,
        boxes: bool,
        swaps: &[(usize, usize)],
        none: &[usize],
    ) -> Vec<Option<usize>> {
        let size = Size::from_side(side).unwrap_or_else(|| panic!("{side}"));
        let classic = Rules::classic(size);
        let mut regions: Vec<Option<usize>> = (0..side * side)
            .map(|cell| {
                Some(
                    classic
                        .region_of(cell)
                        .filter(|_| boxes)
                        .unwrap_or(cell / side),
                )
            })
            .collect();
        let cells = side * side;
        for &(a, b) in swaps {
            regions.swap(a % cells, b % cells);
        }
        for &cell in none {
            regions[cell % cells] = None;
        }
        regions
    }

    #[test]
    fn boxes_get_whole_lines() {
        let frame = Frame::new(&Rules::classic(
            Size::from_side(6).unwrap_or_else(|| panic!()),
        ));
        let rows: Vec<usize> = (0..=6).filter(|&k| frame.line_above(k)).collect();
        let columns: Vec<usize> = (0..=6).filter(|&k| frame.line_left_of(k)).collect();
        assert_eq!((rows, columns), (vec![0, 2, 4, 6], vec![0, 3, 6]));
    }

    #[test]
    fn a_jigsaw_draws_its_shapes() {
        // Two L-shaped regions around a square; below them a region of
        // three cells (too small to be a house) and a cell in no region.
        // No line runs between the second and third rows.
        let regions = [0, 0, 1, 1, 0, 2, 2, 1, 0, 2, 2, 1, 3, 3, 3, 4]
            .map(|r| (r < 4).then_some(r))
            .to_vec();
        let text = drawn(4, regions);
        assert_eq!(
            text,
            "┌───────┬───────┐\n\
             │ .   . │ .   . │\n\
             │   ┌───┴───┐   │\n\
             │ . │ .   . │ . │\n\
             │ . │ .   . │ . │\n\
             ├───┴───────┼───┤\n\
             │ .   .   . │ . │\n\
             └───────────┴───┘\n",
        );
    }

    proptest! {
        #[test]
        fn lines_meet_and_enclose_the_regions(
            side in prop::sample::select(vec![1usize, 2, 4, 6, 9, 12, 16]),
            boxes in any::<bool>(),
            swaps in prop::collection::vec((0usize..256, 0usize..256), 0..12),
            none in prop::collection::vec(0usize..256, 0..4),
        ) {
            let regions = regions(side, boxes, &swaps, &none);
            let text = drawn(side, regions.clone());
            // Every arm meets its neighbour's arm, and none runs off the
            // drawing.
            let chars: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
            let arms_at = |r: usize, c: usize| {
                chars.get(r).and_then(|line| line.get(c)).and_then(|&ch| arms(ch)).unwrap_or_default()
            };
            for r in 0..chars.len() {
                prop_assert_eq!(chars[r].len(), chars[0].len(), "{}", text);
                for c in 0..chars[r].len() {
                    let [up, down, left, right] = arms_at(r, c);
                    let above = arms_at(r.wrapping_sub(1), c)[1];
                    let beside = arms_at(r, c.wrapping_sub(1))[3];
                    prop_assert_eq!(
                        [up, down, left, right],
                        [above, arms_at(r + 1, c)[0], beside, arms_at(r, c + 1)[2]],
                        "line {} column {}\n{}", r, c, text
                    );
                }
            }
            // The lines enclose exactly the regions' connected parts.
            prop_assert_eq!(areas_drawn(&text), areas_meant(side, &regions), "{}", text);
        }
    }
}
