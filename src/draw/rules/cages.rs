//! Cages, dashed just inside their cells with a label in the top left
//! corner of their first cell in reading order; cells shaded with a tint.

use super::super::svg::Path;
use super::super::{CELL, Canvas, Layer};
use crate::puzzle::grid::Cell;
use crate::puzzle::sketch::Tint;
use std::collections::HashSet;

/// How far inside its cells a cage's line runs.
pub const INSET: f64 = 0.08 * CELL;
/// The dash pattern.
const DASH: &str = "5 3";
/// The tints taken in turn, one per rule by its place in the list.
const IN_TURN: [&str; 4] = ["#fbe7a1", "#c9e7fb", "#e7d1fb", "#d1fbd9"];

/// Draws a cage around `cells` in `outline`, with `label` in its corner
/// in `font`.
pub fn cage(canvas: &mut Canvas, cells: &[Cell], label: Option<&str>, outline: &str, font: &str) {
    let inside: HashSet<(isize, isize)> = cells
        .iter()
        .map(|c| (c.row() as isize, c.col() as isize))
        .collect();
    let has = |r: isize, c: isize| inside.contains(&(r, c));
    let d = INSET;
    let mut path = Path::new();
    // Each side of a cell on the cage's edge, drawn `d` inside; at each end
    // it stops short by `d` where the cage turns away, runs to the cell's
    // edge where the cage goes on straight, and reaches `d` past it where
    // the cage turns in (an inner corner), so the pieces meet.
    let end = |along: bool, diagonal: bool| -> f64 {
        match (along, diagonal) {
            (false, _) => d,
            (true, false) => 0.0,
            (true, true) => -d,
        }
    };
    for cell in cells {
        let (r, c) = (cell.row() as isize, cell.col() as isize);
        let (x0, y0) = (c as f64 * CELL, r as f64 * CELL);
        let (x1, y1) = (x0 + CELL, y0 + CELL);
        if !has(r - 1, c) {
            let a = end(has(r, c - 1), has(r - 1, c - 1));
            let b = end(has(r, c + 1), has(r - 1, c + 1));
            path.move_to(x0 + a, y0 + d).line_to(x1 - b, y0 + d);
        }
        if !has(r + 1, c) {
            let a = end(has(r, c - 1), has(r + 1, c - 1));
            let b = end(has(r, c + 1), has(r + 1, c + 1));
            path.move_to(x0 + a, y1 - d).line_to(x1 - b, y1 - d);
        }
        if !has(r, c - 1) {
            let a = end(has(r - 1, c), has(r - 1, c - 1));
            let b = end(has(r + 1, c), has(r + 1, c - 1));
            path.move_to(x0 + d, y0 + a).line_to(x0 + d, y1 - b);
        }
        if !has(r, c + 1) {
            let a = end(has(r - 1, c), has(r - 1, c + 1));
            let b = end(has(r + 1, c), has(r + 1, c + 1));
            path.move_to(x1 - d, y0 + a).line_to(x1 - d, y1 - b);
        }
    }
    let layer = canvas.layer(Layer::Cage);
    layer.element(
        "path",
        &[
            ("d", path.as_str().into()),
            ("stroke", outline.into()),
            ("stroke-width", 1.2.into()),
            ("stroke-dasharray", DASH.into()),
            ("fill", "none".into()),
        ],
    );
    let (Some(label), Some(first)) = (label, cells.iter().min()) else {
        return;
    };
    let b = canvas.cell(*first);
    let size = 0.23 * CELL;
    let width = 0.62 * size * label.chars().count() as f64 + 0.06 * CELL;
    let layer = canvas.layer(Layer::Cage);
    // The sum sits on the cage's corner, on white, breaking the dashes.
    layer.element(
        "rect",
        &[
            ("x", (b.x + 0.03 * CELL).into()),
            ("y", (b.y + 0.03 * CELL).into()),
            ("width", width.into()),
            ("height", (1.05 * size).into()),
            ("fill", "#ffffff".into()),
        ],
    );
    layer.text_element(
        "text",
        &[
            ("x", (b.x + 0.05 * CELL).into()),
            ("y", (b.y + 0.03 * CELL + 0.85 * size).into()),
            ("font-size", size.into()),
            ("fill", font.into()),
        ],
        label,
    );
}

/// Shades `cells` with `tint`; the `number`th rule of the puzzle takes
/// its turn of [`Tint::InTurn`].
pub fn shade(canvas: &mut Canvas, cells: &[Cell], tint: Tint, number: usize) {
    let fill = match tint {
        Tint::Grey => "#dcdcdc",
        Tint::Red => "#f6b8b8",
        Tint::Green => "#b8f0c0",
        Tint::Blue => "#b8d4f6",
        Tint::InTurn => IN_TURN[number % IN_TURN.len()],
    };
    for &cell in cells {
        let b = canvas.cell(cell);
        canvas.fill(Layer::Fill, b, fill);
    }
}
