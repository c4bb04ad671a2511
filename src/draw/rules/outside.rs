//! Clues outside the grid: beside a row or column, and at a diagonal's
//! start with an arrow along it.

use super::super::marks::centred;
use super::super::{CELL, Canvas, Layer};
use super::stroke;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::sketch::Side;

const FONT: f64 = 0.36 * CELL;

/// `text` on `side` of the grid beside row or column `index`.
pub fn beside(canvas: &mut Canvas, side: Side, index: usize, text: &str, size: Size) {
    let end = size.side() as isize;
    let n = index as isize;
    let (row, col) = match side {
        Side::Left => (n, -1),
        Side::Right => (n, end),
        Side::Top => (-1, n),
        Side::Bottom => (end, n),
    };
    canvas.outside(row, col);
    let at = canvas.place(row, col).center();
    centred(
        canvas,
        Layer::Outside,
        at,
        FONT,
        text,
        &[("fill", "#000000")],
    );
}

/// A diagonal's clue: `text` one step before the diagonal's first cell,
/// with an arrow pointing along the diagonal.
pub fn diagonal(canvas: &mut Canvas, cells: &[Cell], text: &str) {
    let Some(first) = cells.first() else {
        return;
    };
    let (r, c) = (first.row() as isize, first.col() as isize);
    let (dr, dc) = match cells.get(1) {
        Some(next) => (next.row() as isize - r, next.col() as isize - c),
        // A diagonal of one cell runs out of a corner: its clue sits
        // outside that corner.
        None => (if r == 0 { 1 } else { -1 }, if c == 0 { 1 } else { -1 }),
    };
    let (row, col) = (r - dr, c - dc);
    canvas.outside(row, col);
    let place = canvas.place(row, col);
    let (cx, cy) = place.center();
    // The number sits away from the grid; the arrow leaves its corner
    // nearest the grid.
    let (ox, oy) = (-dc as f64 * 0.14 * CELL, -dr as f64 * 0.14 * CELL);
    let font = 0.3 * CELL;
    centred(
        canvas,
        Layer::Outside,
        (cx + ox, cy + oy),
        font,
        text,
        &[("fill", "#000000")],
    );
    let (ux, uy) = (dc as f64 / 2f64.sqrt(), dr as f64 / 2f64.sqrt());
    let start = (cx + ux * 0.2 * CELL, cy + uy * 0.2 * CELL);
    let tip = (cx + ux * 0.48 * CELL, cy + uy * 0.48 * CELL);
    stroke(canvas, Layer::Outside, &[start, tip], "#000000", 1.5);
    let barb = 0.1 * CELL;
    let back = |s: f64| {
        let (px, py) = (-uy * s, ux * s);
        (
            tip.0 - ux * barb + px * barb * 0.8,
            tip.1 - uy * barb + py * barb * 0.8,
        )
    };
    stroke(
        canvas,
        Layer::Outside,
        &[back(1.0), tip, back(-1.0)],
        "#000000",
        1.5,
    );
}
