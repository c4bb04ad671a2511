//! Marks in cells: a grey disc, square or ring, chevrons on the edges, small
//! text along the bottom, and a circle with digits on a corner.

use super::super::marks::centred;
use super::super::svg::Path;
use super::super::{CELL, Canvas, Layer};
use super::{circle, disc};
use crate::puzzle::grid::{Cell, digit_char};

const SHAPE: &str = "#d2d2d2";

/// A grey disc in `cell`.
pub fn disc_in(canvas: &mut Canvas, cell: Cell) {
    let at = canvas.center(cell);
    disc(canvas, Layer::Shape, at, 0.36 * CELL, SHAPE);
}

/// A thin grey ring in `cell`, on the shapes' layer (under the digits),
/// with no fill, so a shade or line beneath shows through.
pub fn ring(canvas: &mut Canvas, cell: Cell) {
    let at = canvas.center(cell);
    circle(
        canvas,
        Layer::Shape,
        at,
        0.4 * CELL,
        "none",
        "#808080",
        0.04 * CELL,
    );
}

/// A grey square in `cell`.
pub fn square(canvas: &mut Canvas, cell: Cell) {
    let b = canvas.cell(cell).inset(0.16 * CELL);
    canvas.fill(Layer::Shape, b, SHAPE);
}

/// Chevrons on the four edges of `cell`, pointing in or out.
pub fn chevrons(canvas: &mut Canvas, cell: Cell, inward: bool) {
    let (cx, cy) = canvas.center(cell);
    let near = 0.3 * CELL;
    let far = 0.42 * CELL;
    let wing = 0.1 * CELL;
    let (tip, base) = if inward { (near, far) } else { (far, near) };
    let mut path = Path::new();
    for (ux, uy) in [(0.0, -1.0), (0.0, 1.0), (-1.0, 0.0), (1.0, 0.0)] {
        // Perpendicular to the direction, for the wings.
        let (px, py) = (-uy, ux);
        let t = (cx + ux * tip, cy + uy * tip);
        let b = (cx + ux * base, cy + uy * base);
        path.move_to(b.0 + px * wing, b.1 + py * wing)
            .line_to(t.0, t.1)
            .line_to(b.0 - px * wing, b.1 - py * wing);
    }
    canvas.layer(Layer::Shape).element(
        "path",
        &[
            ("d", path.as_str().into()),
            ("stroke", "#8a8a8a".into()),
            ("stroke-width", 2.0.into()),
            ("fill", "none".into()),
        ],
    );
}

/// Small text along the bottom edge of `cell`.
pub fn foot(canvas: &mut Canvas, cell: Cell, text: &str) {
    let b = canvas.cell(cell);
    let font = (0.2 * CELL).min(0.9 * CELL / text.chars().count().max(1) as f64 * 1.6);
    centred(
        canvas,
        Layer::Cage,
        (b.x + b.width / 2.0, b.y + b.height - 0.14 * CELL),
        font,
        text,
        &[("fill", "#707070")],
    );
}

/// A circle on the corner the four `cells` share, with `digits`.
pub fn corner_circle(canvas: &mut Canvas, cells: &[Cell], digits: &[u8]) {
    let (Some(top), Some(left)) = (
        cells.iter().map(|c| c.row()).min(),
        cells.iter().map(|c| c.col()).min(),
    ) else {
        return;
    };
    let at = ((left + 1) as f64 * CELL, (top + 1) as f64 * CELL);
    circle(
        canvas,
        Layer::Edge,
        at,
        0.25 * CELL,
        "#ffffff",
        "#000000",
        1.5,
    );
    let text: Vec<String> = digits.iter().map(|&d| digit_char(d).to_string()).collect();
    // Two digits a line, as f-puzzles sets them.
    let rows: Vec<String> = text.chunks(2).map(|pair| pair.join(" ")).collect();
    let font = 0.15 * CELL;
    let n = rows.len() as f64;
    for (k, row) in rows.iter().enumerate() {
        let y = at.1 + (k as f64 - (n - 1.0) / 2.0) * 1.05 * font;
        centred(
            canvas,
            Layer::Edge,
            (at.0, y),
            font,
            row,
            &[("fill", "#000000")],
        );
    }
}
