//! Lines through cells: wide lines with a bulb, arrows (a circle or pill,
//! a shaft and a head), lines with circled ends, and lines in the colours
//! setters know from f-puzzles.

use super::super::{CELL, Canvas, Layer};
use super::{circle, disc, stroke};
use crate::puzzle::grid::Cell;
use crate::puzzle::sketch::LineColour;

/// Lines with a bulb.
const BULB: &str = "#c4c4c4";
/// Arrows and lines with circled ends.
const ARROW: &str = "#9a9a9a";

/// The shade of each line colour.
fn shade(colour: LineColour) -> &'static str {
    match colour {
        LineColour::Grey => "#b4b4b4",
        LineColour::Purple => "#d66cf0",
        LineColour::Green => "#5fcf5f",
        LineColour::Blue => "#45a8f0",
        LineColour::Orange => "#ffa24a",
        LineColour::Teal => "#32b8aa",
        LineColour::Lavender => "#b99cff",
        LineColour::Yellow => "#e3cf2a",
    }
}

/// The centres of `cells`.
fn centres(canvas: &Canvas, cells: &[Cell]) -> Vec<(f64, f64)> {
    cells.iter().map(|&c| canvas.center(c)).collect()
}

/// A wide line with a bulb in its first cell.
pub fn bulb(canvas: &mut Canvas, cells: &[Cell]) {
    let points = centres(canvas, cells);
    stroke(canvas, Layer::Line, &points, BULB, 0.26 * CELL);
    if let Some(&bulb) = points.first() {
        disc(canvas, Layer::Shape, bulb, 0.38 * CELL, BULB);
    }
}

/// A line in `colour`.
pub fn coloured(canvas: &mut Canvas, cells: &[Cell], colour: LineColour) {
    let points = centres(canvas, cells);
    stroke(canvas, Layer::Line, &points, shade(colour), 0.2 * CELL);
}

/// A small label in the top right corner of `cell`.
pub fn label(canvas: &mut Canvas, cell: Cell, text: &str) {
    let b = canvas.cell(cell);
    let font = 0.22 * CELL;
    canvas.layer(Layer::Cage).text_element(
        "text",
        &[
            ("x", (b.x + b.width - 0.05 * CELL).into()),
            ("y", (b.y + 0.05 * CELL + 0.8 * font).into()),
            ("font-size", font.into()),
            ("text-anchor", "end".into()),
            ("fill", "#000000".into()),
        ],
        text,
    );
}

const RING: f64 = 0.4 * CELL;
const ARROW_WIDTH: f64 = 0.045 * CELL;

/// An arrow: the circle (a pill over several cells) and a shaft from the
/// circle's cell nearest the line through the line's cells, with a head
/// on the last.
pub fn arrow(canvas: &mut Canvas, circle_cells: &[Cell], line: &[Cell]) {
    let ring = centres(canvas, circle_cells);
    let mut shaft = centres(canvas, line);
    if let Some(&start) = shaft.first() {
        let nearest = ring.iter().copied().min_by(|a, b| {
            let d = |p: &(f64, f64)| (p.0 - start.0).powi(2) + (p.1 - start.1).powi(2);
            d(a).total_cmp(&d(b))
        });
        if let Some(from) = nearest {
            shaft.insert(0, from);
        }
    }
    if shaft.len() >= 2 {
        stroke(canvas, Layer::Line, &shaft, ARROW, ARROW_WIDTH);
        let n = shaft.len();
        head(canvas, shaft[n - 2], shaft[n - 1]);
    }
    pill(canvas, &ring);
}

/// The head of an arrow pointing from `from` to `tip`.
fn head(canvas: &mut Canvas, from: (f64, f64), tip: (f64, f64)) {
    let (dx, dy) = (tip.0 - from.0, tip.1 - from.1);
    let length = (dx * dx + dy * dy).sqrt();
    if length == 0.0 {
        return;
    }
    let (ux, uy) = (dx / length, dy / length);
    let size = 0.22 * CELL;
    // Two barbs, 35 degrees either side of the shaft.
    let (cos, sin) = (35f64.to_radians().cos(), 35f64.to_radians().sin());
    let barb = |s: f64| {
        let (bx, by) = (-ux * cos - s * uy * sin, -uy * cos + s * ux * sin);
        (tip.0 + size * bx, tip.1 + size * by)
    };
    let points = [barb(1.0), tip, barb(-1.0)];
    stroke(canvas, Layer::Line, &points, ARROW, ARROW_WIDTH);
}

/// An arrow's circle over one cell, or a pill over several: a wide
/// outlined stroke through their centres.
fn pill(canvas: &mut Canvas, points: &[(f64, f64)]) {
    match points {
        [] => {}
        [one] => circle(
            canvas,
            Layer::Shape,
            *one,
            RING,
            "#ffffff",
            ARROW,
            ARROW_WIDTH,
        ),
        many => {
            stroke(canvas, Layer::Shape, many, ARROW, 2.0 * RING + ARROW_WIDTH);
            stroke(
                canvas,
                Layer::Shape,
                many,
                "#ffffff",
                2.0 * RING - ARROW_WIDTH,
            );
        }
    }
}

/// A line whose two ends are circled.
pub fn ends_circled(canvas: &mut Canvas, cells: &[Cell]) {
    let points = centres(canvas, cells);
    stroke(canvas, Layer::Line, &points, ARROW, ARROW_WIDTH);
    if let (Some(&a), Some(&b)) = (points.first(), points.last()) {
        circle(canvas, Layer::Shape, a, RING, "#ffffff", ARROW, ARROW_WIDTH);
        circle(canvas, Layer::Shape, b, RING, "#ffffff", ARROW, ARROW_WIDTH);
    }
}
