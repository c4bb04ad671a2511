//! Marks on the edge between two neighbours: white and black dots, and
//! letters or numbers on a white patch.

use super::super::{CELL, Canvas, Layer};
use super::circle;
use crate::puzzle::grid::Cell;

/// The middle of the edge between two neighbours.
fn edge(canvas: &Canvas, cells: [Cell; 2]) -> (f64, f64) {
    let (a, b) = (canvas.center(cells[0]), canvas.center(cells[1]));
    ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
}

/// A dot, black or white, with `value` on it.
pub fn dot(canvas: &mut Canvas, cells: [Cell; 2], black: bool, value: Option<&str>) {
    let at = edge(canvas, cells);
    let fill = if black { "#000000" } else { "#ffffff" };
    circle(canvas, Layer::Edge, at, 0.13 * CELL, fill, "#000000", 1.5);
    if let Some(value) = value {
        let font = 0.17 * CELL;
        let colour = if black { "#ffffff" } else { "#000000" };
        canvas.layer(Layer::Edge).text_element(
            "text",
            &[
                ("x", at.0.into()),
                ("y", (at.1 + 0.36 * font).into()),
                ("font-size", font.into()),
                ("text-anchor", "middle".into()),
                ("fill", colour.into()),
            ],
            value,
        );
    }
}

/// A letter or number on the edge, on a white patch.
pub fn letter(canvas: &mut Canvas, cells: [Cell; 2], text: &str) {
    let at = edge(canvas, cells);
    let font = 0.3 * CELL;
    let half = 0.16 * CELL;
    let layer = canvas.layer(Layer::Edge);
    layer.element(
        "rect",
        &[
            ("x", (at.0 - half).into()),
            ("y", (at.1 - half).into()),
            ("width", (2.0 * half).into()),
            ("height", (2.0 * half).into()),
            ("fill", "#ffffff".into()),
        ],
    );
    layer.text_element(
        "text",
        &[
            ("x", at.0.into()),
            ("y", (at.1 + 0.36 * font).into()),
            ("font-size", font.into()),
            ("font-weight", "bold".into()),
            ("text-anchor", "middle".into()),
            ("fill", "#000000".into()),
        ],
        text,
    );
}
