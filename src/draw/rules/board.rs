//! Houses beyond rows, columns and regions: diagonals (a line from corner
//! to corner) and disjoint groups (named in the legend, as they have no
//! mark).

use super::super::{CELL, Canvas, Layer};
use super::stroke;
use crate::puzzle::Puzzle;
use crate::puzzle::rules::HouseKind;

const DIAGONAL: &str = "#6a8fd0";

/// Draws the diagonals and names the disjoint groups.
pub fn houses(canvas: &mut Canvas, puzzle: &Puzzle) {
    let end = canvas.side() as f64 * CELL;
    let mut disjoint = false;
    for house in puzzle.rules().houses() {
        match (house.kind, house.number) {
            (HouseKind::Diagonal, 0) => {
                stroke(
                    canvas,
                    Layer::Line,
                    &[(0.0, 0.0), (end, end)],
                    DIAGONAL,
                    2.0,
                );
            }
            (HouseKind::Diagonal, _) => {
                stroke(
                    canvas,
                    Layer::Line,
                    &[(0.0, end), (end, 0.0)],
                    DIAGONAL,
                    2.0,
                );
            }
            (HouseKind::DisjointGroup, _) => disjoint = true,
            _ => {}
        }
    }
    if disjoint {
        canvas.note(
            "disjoint groups: cells at the same place in their regions hold different digits"
                .into(),
        );
    }
}
