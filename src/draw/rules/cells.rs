//! Marks in cells: odd (a grey circle) and even (a grey square), minimum
//! and maximum (chevrons on the edges), the digits a cell allows, clones,
//! quadruples and indexers.

use super::super::marks::centred;
use super::super::svg::Path;
use super::super::{CELL, Canvas, Layer};
use super::{circle, disc};
use crate::puzzle::grid::{Cell, digit_char};
use crate::puzzle::kinds::cells::Indexing;

const SHAPE: &str = "#d2d2d2";
/// Clone shades, one per clone rule in turn.
const CLONES: [&str; 4] = ["#fbe7a1", "#c9e7fb", "#e7d1fb", "#d1fbd9"];

/// An odd cell: a grey circle.
pub fn odd(canvas: &mut Canvas, cell: Cell) {
    let at = canvas.center(cell);
    disc(canvas, Layer::Shape, at, 0.36 * CELL, SHAPE);
}

/// An even cell: a grey square.
pub fn even(canvas: &mut Canvas, cell: Cell) {
    let b = canvas.cell(cell).inset(0.16 * CELL);
    canvas.layer(Layer::Shape).element(
        "rect",
        &[
            ("x", b.x.into()),
            ("y", b.y.into()),
            ("width", b.width.into()),
            ("height", b.height.into()),
            ("fill", SHAPE.into()),
        ],
    );
}

/// A minimum (chevrons pointing in: the neighbours are larger) or a
/// maximum (pointing out).
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

/// The digits a cell allows, small along its bottom edge.
pub fn allowed(canvas: &mut Canvas, cell: Cell, digits: u32, side: usize) {
    let text: String = (1..=side as u8)
        .filter(|d| digits & (1 << (d - 1)) != 0)
        .map(digit_char)
        .collect();
    let b = canvas.cell(cell);
    let font = (0.2 * CELL).min(0.9 * CELL / text.chars().count().max(1) as f64 * 1.6);
    centred(
        canvas,
        Layer::Cage,
        (b.x + b.width / 2.0, b.y + b.height - 0.14 * CELL),
        font,
        &text,
        &[("fill", "#707070")],
    );
}

/// Clones: the cells and their clones shaded alike, a shade per rule.
pub fn clones(canvas: &mut Canvas, cells: &[Cell], clones: &[Cell], number: usize) {
    let shade = CLONES[number % CLONES.len()];
    for &cell in cells.iter().chain(clones) {
        let b = canvas.cell(cell);
        canvas.layer(Layer::Fill).element(
            "rect",
            &[
                ("x", b.x.into()),
                ("y", b.y.into()),
                ("width", b.width.into()),
                ("height", b.height.into()),
                ("fill", shade.into()),
            ],
        );
    }
}

/// A quadruple: a circle on the corner the four cells share, with its
/// digits.
pub fn quadruple(canvas: &mut Canvas, cells: &[Cell], digits: &[u8]) {
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

/// An indexer cell: shaded by what it indexes (rows red, columns green,
/// boxes blue, as f-puzzles colours them), and named in the legend.
pub fn indexer(canvas: &mut Canvas, cell: Cell, kind: Indexing) {
    let (shade, words) = match kind {
        Indexing::Row => (
            "#f6b8b8",
            "red cells index rows: a digit v in row r says that row v of its column holds r",
        ),
        Indexing::Column => (
            "#b8f0c0",
            "green cells index columns: a digit v in column c says that column v of its row holds c",
        ),
        Indexing::Box => (
            "#b8d4f6",
            "blue cells index boxes: a digit v at place p of its box says that place v of the box holds p",
        ),
    };
    let b = canvas.cell(cell);
    canvas.layer(Layer::Fill).element(
        "rect",
        &[
            ("x", b.x.into()),
            ("y", b.y.into()),
            ("width", b.width.into()),
            ("height", b.height.into()),
            ("fill", shade.into()),
        ],
    );
    canvas.note(words.to_string());
}
