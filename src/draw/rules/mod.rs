//! Draws the marks each rule says it looks like (see
//! [`Mark`](crate::puzzle::sketch::Mark)), one drawer per family of
//! marks; no kind is named here. A rule with no marks is named in the
//! legend under the grid (its rule line, as messages name it), so a
//! picture never leaves a rule out silently.

mod board;
mod cages;
mod cells;
mod dots;
mod drawn;
mod lines;
mod outside;

use super::svg::Path;
use super::{Canvas, Layer};
use crate::puzzle::Puzzle;
use crate::puzzle::sketch::Mark;

/// Draws every rule of `puzzle` beyond rows, columns and regions (which
/// the grid's lines draw).
pub fn draw(canvas: &mut Canvas, puzzle: &Puzzle) {
    board::houses(canvas, puzzle);
    let size = puzzle.size();
    for (number, constraint) in puzzle.rules().constraints().iter().enumerate() {
        let marks = constraint.sketch(size);
        if marks.is_empty() {
            canvas.note(constraint.to_string());
        }
        for mark in &marks {
            draw_mark(canvas, mark, number, size);
        }
    }
    // What the setter drew beyond the rules (read from f-puzzles), last,
    // so that it lies over the rules as f-puzzles layers it.
    if let Some(cosmetics) = puzzle.cosmetics() {
        let number = puzzle.rules().constraints().len();
        for mark in &cosmetics.sketch(size) {
            draw_mark(canvas, mark, number, size);
        }
    }
}

/// Draws one mark of the `number`th rule.
fn draw_mark(canvas: &mut Canvas, mark: &Mark, number: usize, size: crate::puzzle::grid::Size) {
    match mark {
        Mark::Line { cells, colour } => lines::coloured(canvas, cells, *colour),
        Mark::BulbLine(cells) => lines::bulb(canvas, cells),
        Mark::Arrow { circle, line } => lines::arrow(canvas, circle, line),
        Mark::CircledEnds(cells) => lines::ends_circled(canvas, cells),
        Mark::CornerText { cell, text } => lines::label(canvas, *cell, text),
        Mark::Cage { cells, label } => {
            cages::cage(canvas, cells, label.as_deref(), BLACK, BLACK);
        }
        Mark::ColouredCage {
            cells,
            label,
            outline,
            font,
        } => {
            let (outline, font) = (drawn::hex(*outline), drawn::hex(*font));
            cages::cage(canvas, cells, label.as_deref(), &outline, &font);
        }
        Mark::Shade { cells, tint } => cages::shade(canvas, cells, *tint, number),
        // The grid's region lines draw it.
        Mark::RegionBorder(_) => {}
        Mark::Dot { cells, black, text } => dots::dot(canvas, *cells, *black, text.as_deref()),
        Mark::EdgeText { cells, text } => dots::letter(canvas, *cells, text),
        Mark::Beside { side, index, text } => outside::beside(canvas, *side, *index, text, size),
        Mark::DiagonalClue { cells, text } => outside::diagonal(canvas, cells, text),
        Mark::Disc(cell) => cells::disc_in(canvas, *cell),
        Mark::Square(cell) => cells::square(canvas, *cell),
        Mark::Ring(cell) => cells::ring(canvas, *cell),
        Mark::Chevrons { cell, inward } => cells::chevrons(canvas, *cell, *inward),
        Mark::FootText { cell, text } => cells::foot(canvas, *cell, text),
        Mark::CornerCircle { cells, digits } => cells::corner_circle(canvas, cells, digits),
        Mark::Note(text) => canvas.note(text.clone()),
        Mark::Stroke {
            points,
            colour,
            width,
        } => drawn::stroke(canvas, points, *colour, *width),
        Mark::Shape { .. } => drawn::shape(canvas, mark),
        Mark::Text {
            centre,
            text,
            colour,
            size,
            angle,
        } => drawn::text(canvas, *centre, text, *colour, *size, *angle),
        Mark::CellColours { cell, colours } => drawn::cell_colours(canvas, *cell, colours),
    }
}

/// Black, the ink of rules drawn without a colour of their own.
const BLACK: &str = "#000000";

/// A stroke through `points`, round at the ends and joints.
pub(crate) fn stroke(
    canvas: &mut Canvas,
    layer: Layer,
    points: &[(f64, f64)],
    colour: &str,
    width: f64,
) {
    let mut path = Path::new();
    for (k, &(x, y)) in points.iter().enumerate() {
        if k == 0 {
            path.move_to(x, y);
        } else {
            path.line_to(x, y);
        }
    }
    if points.len() == 1 {
        // A one-cell line is a dot.
        let (x, y) = points[0];
        disc(canvas, layer, (x, y), width / 2.0, colour);
        return;
    }
    canvas.layer(layer).element(
        "path",
        &[
            ("d", path.as_str().into()),
            ("stroke", colour.into()),
            ("stroke-width", width.into()),
            ("stroke-linecap", "round".into()),
            ("stroke-linejoin", "round".into()),
            ("fill", "none".into()),
        ],
    );
}

/// A filled circle.
pub(crate) fn disc(canvas: &mut Canvas, layer: Layer, (x, y): (f64, f64), r: f64, colour: &str) {
    canvas.layer(layer).element(
        "circle",
        &[
            ("cx", x.into()),
            ("cy", y.into()),
            ("r", r.into()),
            ("fill", colour.into()),
        ],
    );
}

/// A circle with an outline.
pub(crate) fn circle(
    canvas: &mut Canvas,
    layer: Layer,
    (x, y): (f64, f64),
    r: f64,
    fill: &str,
    line: &str,
    width: f64,
) {
    canvas.layer(layer).element(
        "circle",
        &[
            ("cx", x.into()),
            ("cy", y.into()),
            ("r", r.into()),
            ("fill", fill.into()),
            ("stroke", line.into()),
            ("stroke-width", width.into()),
        ],
    );
}
