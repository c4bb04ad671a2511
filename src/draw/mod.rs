//! Pictures of puzzles: the puzzle as given, a solution, a candidate grid
//! or a logic step, as SVG (and as PNG with the `png` feature), drawn in
//! the conventions setters know from f-puzzles and SudokuPad.
//!
//! - [`layout`]: where the grid and its margins go, from the board's size
//!   and the clues outside it, and which lines part regions;
//! - [`grid`](self) lines, then the marks each rule sketches itself with
//!   (`Rule::sketch`, `puzzle::sketch::Mark`), drawn by one drawer per
//!   family of marks (`rules/`: cages, lines, dots, cell marks, outside
//!   clues, diagonals, and what a setter drew beyond the rules), which
//!   names no kind; a rule with no marks is named in the legend under the
//!   grid rather than left out;
//! - `marks`: digits (givens bold, solved digits blue), pencil marks (with
//!   their solution counts when asked) and a step's highlights;
//! - [`svg`]: the SVG writer; `raster` (feature `png`): resvg.
//!
//! The look follows the data: every position comes from a rule's cells and
//! the board's regions, never from a particular puzzle.

mod grid;
pub mod layout;
mod marks;
#[cfg(feature = "png")]
mod raster;
mod rules;
pub mod svg;

pub use layout::{CELL, Layout, Rect, Rims};
#[cfg(feature = "png")]
pub use raster::{FAMILY, Raster, png};

use crate::logic::Step;
use crate::puzzle::Puzzle;
use crate::puzzle::grid::{Cell, Clue, Grid};
use layout::LEGEND_LINE;
use svg::Svg;
use thiserror::Error;

/// Why a picture could not be made.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct DrawError(pub String);

/// The layers of a picture, bottom first: what a later layer draws covers
/// what an earlier one drew.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layer {
    /// Cell shading: extra regions, clones, indexers, a step's cells.
    Fill = 0,
    /// Lines through cells: lines with a bulb, arrows, coloured lines, diagonals.
    Line,
    /// Shapes in cells, over the lines: bulbs, circles, odd and even marks.
    Shape,
    /// The grid's lines.
    Grid,
    /// Cages, dashed inside their cells, and their sums.
    Cage,
    /// Marks on the edges between cells: dots, letters, circles on corners.
    Edge,
    /// Clues outside the grid.
    Outside,
    /// Digits and pencil marks.
    Digit,
}

const LAYERS: usize = 8;

/// What the drawers draw on: the layers, in grid coordinates (the grid's
/// top left corner at 0, 0), the rims outside clues need, and the legend.
pub(crate) struct Canvas {
    side: usize,
    layers: [Svg; LAYERS],
    rims: Rims,
    legend: Vec<String>,
}

impl Canvas {
    fn new(side: usize) -> Canvas {
        Canvas {
            side,
            layers: Default::default(),
            rims: Rims::default(),
            legend: Vec::new(),
        }
    }

    /// The board's side.
    pub(crate) fn side(&self) -> usize {
        self.side
    }

    /// A layer to draw on.
    pub(crate) fn layer(&mut self, layer: Layer) -> &mut Svg {
        &mut self.layers[layer as usize]
    }

    /// The box of the place at `row`, `col`, in grid coordinates (outside
    /// the grid too).
    pub(crate) fn place(&self, row: isize, col: isize) -> Rect {
        Rect {
            x: col as f64 * CELL,
            y: row as f64 * CELL,
            width: CELL,
            height: CELL,
        }
    }

    /// `rect` filled with `colour` on `layer`.
    pub(crate) fn fill(&mut self, layer: Layer, rect: Rect, colour: &str) {
        self.layer(layer).element(
            "rect",
            &[
                ("x", rect.x.into()),
                ("y", rect.y.into()),
                ("width", rect.width.into()),
                ("height", rect.height.into()),
                ("fill", colour.into()),
            ],
        );
    }

    /// The box of `cell`.
    pub(crate) fn cell(&self, cell: Cell) -> Rect {
        self.place(cell.row() as isize, cell.col() as isize)
    }

    /// The centre of `cell`.
    pub(crate) fn center(&self, cell: Cell) -> (f64, f64) {
        self.cell(cell).center()
    }

    /// Says that something is drawn at the place `row`, `col` outside the
    /// grid, so the page leaves room on that side.
    pub(crate) fn outside(&mut self, row: isize, col: isize) {
        self.rims.add(row, col, self.side);
    }

    /// A line of the legend under the grid (each said once).
    pub(crate) fn note(&mut self, text: String) {
        if !self.legend.contains(&text) {
            self.legend.push(text);
        }
    }
}

/// A finished picture: its SVG and where its grid lies on the page.
#[derive(Clone, Debug)]
pub struct Drawing {
    /// The SVG document.
    pub svg: String,
    /// The page's geometry: cells' boxes in page coordinates.
    pub layout: Layout,
}

/// What to draw: a puzzle and, as asked, its digits, pencil marks, a
/// step's highlights and a caption.
#[derive(Clone, Debug)]
pub struct Picture<'a> {
    puzzle: &'a Puzzle,
    digits: Option<Grid>,
    candidates: Option<Vec<u32>>,
    counts: Option<(Vec<usize>, usize)>,
    deciding: Vec<Clue>,
    pattern: Vec<Cell>,
    pattern_digits: Vec<u8>,
    placements: Vec<Clue>,
    eliminations: Vec<Clue>,
    marked: Vec<Cell>,
    caption: Vec<String>,
}

impl<'a> Picture<'a> {
    /// The puzzle as given: its rules and givens.
    pub fn new(puzzle: &'a Puzzle) -> Picture<'a> {
        Picture {
            puzzle,
            digits: None,
            candidates: None,
            counts: None,
            deciding: Vec::new(),
            pattern: Vec::new(),
            pattern_digits: Vec::new(),
            placements: Vec::new(),
            eliminations: Vec::new(),
            marked: Vec::new(),
            caption: Vec::new(),
        }
    }

    /// Shows the digits of `grid` in the cells without a given (a
    /// solution, or the grid so far), in the solved colour.
    pub fn digits(mut self, grid: &Grid) -> Self {
        self.digits = Some(grid.clone());
        self
    }

    /// Shows pencil marks: for each cell (row-major), its candidates as
    /// bits (bit `d - 1` for digit `d`), in the cells with no digit.
    pub fn candidates(mut self, candidates: Vec<u32>) -> Self {
        self.candidates = Some(candidates);
        self
    }

    /// Writes beside each pencil mark how many solutions have it:
    /// `counts[cell * side + digit - 1]` (cells row-major), counted up to
    /// `cap`, which is written `cap+` (at least that many).
    pub fn counts(mut self, counts: Vec<usize>, cap: usize) -> Self {
        self.counts = Some((counts, cap));
        self
    }

    /// Marks these candidates as deciding (placed, each leaves the puzzle
    /// unique).
    pub fn deciding(mut self, deciding: &[Clue]) -> Self {
        self.deciding = deciding.to_vec();
        self
    }

    /// Highlights a step: its pattern's cells and digits, its eliminations
    /// struck out and its placements ringed, and its sentence as the
    /// caption.
    pub fn step(mut self, step: &Step) -> Self {
        self.pattern = step.cells.clone();
        self.pattern_digits = step.digits.clone();
        self.placements = step.placements.clone();
        self.eliminations = step.eliminations.clone();
        self.caption.push(step.to_string());
        self
    }

    /// Marks `cells` (where two solutions differ, say).
    pub fn marked(mut self, cells: &[Cell]) -> Self {
        self.marked = cells.to_vec();
        self
    }

    /// Adds a line of caption under the grid.
    pub fn caption(mut self, text: impl Into<String>) -> Self {
        self.caption.push(text.into());
        self
    }

    /// Draws it.
    pub fn draw(&self) -> Drawing {
        let side = self.puzzle.size().side();
        let mut canvas = Canvas::new(side);
        let found = self.digits.as_ref().and_then(Grid::regions);
        grid::draw(&mut canvas, self.puzzle, found);
        rules::draw(&mut canvas, self.puzzle);
        marks::draw(&mut canvas, self);
        let mut lines: Vec<String> = Vec::new();
        let width = side as f64 * CELL;
        for text in canvas.legend.iter().chain(&self.caption) {
            lines.extend(wrap(text, width));
        }
        let layout = Layout::new(side, canvas.rims, lines.len());
        let mut doc = Svg::new();
        let (w, h) = (layout.width(), layout.height());
        let view = format!("0 0 {} {}", svg::Num(w), svg::Num(h));
        doc.open(
            "svg",
            &[
                ("xmlns", "http://www.w3.org/2000/svg".into()),
                ("width", w.into()),
                ("height", h.into()),
                ("viewBox", (&view).into()),
                ("font-family", FONTS.into()),
            ],
        );
        doc.element(
            "rect",
            &[
                ("width", w.into()),
                ("height", h.into()),
                ("fill", "#ffffff".into()),
            ],
        );
        let shift = format!(
            "translate({} {})",
            svg::Num(layout.x(0)),
            svg::Num(layout.y(0))
        );
        doc.open("g", &[("transform", (&shift).into())]);
        for layer in &canvas.layers {
            doc.append(layer);
        }
        doc.close("g");
        let font = 0.26 * CELL;
        for (k, line) in lines.iter().enumerate() {
            let y = layout.legend_top() + (k as f64 + 0.75) * LEGEND_LINE;
            doc.text_element(
                "text",
                &[
                    ("x", layout.legend_left().into()),
                    ("y", y.into()),
                    ("font-size", font.into()),
                    ("fill", "#222222".into()),
                ],
                line,
            );
        }
        doc.close("svg");
        Drawing {
            svg: doc.as_str().to_string(),
            layout,
        }
    }
}

/// The fonts a picture asks for: DejaVu Sans first, which the PNG renderer
/// has built in, then what browsers have.
const FONTS: &str = "DejaVu Sans, Verdana, Arial, sans-serif";

/// `text` cut into lines that fit `width` at the legend's font size (an
/// average glyph taken as 0.55 em), at spaces where it can.
fn wrap(text: &str, width: f64) -> Vec<String> {
    let per_line = ((width / (0.26 * CELL * 0.55)) as usize).max(20);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let mut word = word.to_string();
        while word.chars().count() > per_line {
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            let head: String = word.chars().take(per_line).collect();
            word = word.chars().skip(per_line).collect();
            lines.push(head);
        }
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > per_line {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captions_wrap_at_spaces() {
        let text = "word ".repeat(60);
        let lines = wrap(&text, 9.0 * CELL);
        assert!(lines.len() > 1);
        let per_line = ((9.0 * CELL / (0.26 * CELL * 0.55)) as usize).max(20);
        assert!(lines.iter().all(|l| l.chars().count() <= per_line));
        assert_eq!(lines.join(" "), text.trim_end());
        let long = "x".repeat(200);
        assert_eq!(wrap(&long, 9.0 * CELL).concat(), long);
    }
}
