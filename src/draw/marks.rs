//! Digits and pencil marks: givens bold and black, solved digits blue;
//! pencil marks small in a block per cell, each with its solution count
//! in grey at its lower right when the picture has counts; a step's cells shaded, its
//! pattern digits ringed blue, eliminations struck out in red and
//! placements ringed green; deciding candidates orange.

use super::{CELL, Canvas, Layer, Picture, Rect};
use crate::puzzle::grid::{Cell, Clue, digit_char};

/// Colours, as SudokuPad has them or near.
const GIVEN: &str = "#000000";
const SOLVED: &str = "#1a56c4";
const PENCIL: &str = "#505050";
const PATTERN_FILL: &str = "#ffe97a";
const PATTERN_RING: &str = "#9cc3ff";
const ELIMINATED: &str = "#d62728";
const PLACED: &str = "#1e9e3a";
const PLACED_RING: &str = "#9fe3b0";
const DECIDING: &str = "#d96c00";
const DECIDING_RING: &str = "#ffd7a8";
const MARKED_FILL: &str = "#ffc9a8";
const COUNT: &str = "#707070";

/// The shape of a cell's block of pencil marks on a board of `side`:
/// `(rows, columns)`, as the text pencil grid has it (3x3 on 9x9, 2x3 on
/// 6x6, 4x4 on 16x16).
pub fn block_shape(side: usize) -> (usize, usize) {
    let columns = (1..=side).find(|c| c * c >= side).unwrap_or(1);
    (side.div_ceil(columns), columns)
}

/// Where pencil mark `digit` sits in `cell`'s box on a board of `side`:
/// its centre and the font size.
pub fn mark_place(cell: Rect, digit: u8, side: usize) -> (f64, f64, f64) {
    let (rows, columns) = block_shape(side);
    let slot = usize::from(digit.max(1) - 1);
    let (r, c) = (slot / columns, slot % columns);
    let pad = 0.06 * CELL;
    let w = (cell.width - 2.0 * pad) / columns as f64;
    let h = (cell.height - 2.0 * pad) / rows as f64;
    let x = cell.x + pad + (c as f64 + 0.5) * w;
    let y = cell.y + pad + (r as f64 + 0.5) * h;
    (x, y, 0.78 * w.min(h))
}

/// Writes `text` centred on `(x, y)` at `size` (the baseline set by hand,
/// which every renderer honours alike).
pub fn centred(
    canvas: &mut Canvas,
    layer: Layer,
    (x, y): (f64, f64),
    size: f64,
    text: &str,
    style: &[(&str, &str)],
) {
    let mut attrs: Vec<(&str, super::svg::Value<'_>)> = vec![
        ("x", x.into()),
        ("y", (y + 0.36 * size).into()),
        ("font-size", size.into()),
        ("text-anchor", "middle".into()),
    ];
    attrs.extend(style.iter().map(|&(k, v)| (k, v.into())));
    canvas.layer(layer).text_element("text", &attrs, text);
}

fn fill_cell(canvas: &mut Canvas, cell: Cell, colour: &str) {
    let b = canvas.cell(cell);
    canvas.fill(Layer::Fill, b, colour);
}

fn ring(canvas: &mut Canvas, (x, y): (f64, f64), r: f64, fill: &str) {
    canvas.layer(Layer::Digit).element(
        "circle",
        &[
            ("cx", x.into()),
            ("cy", y.into()),
            ("r", r.into()),
            ("fill", fill.into()),
        ],
    );
}

/// Draws the digits, pencil marks and highlights of `picture`.
pub fn draw(canvas: &mut Canvas, picture: &Picture<'_>) {
    let size = picture.puzzle.size();
    let side = size.side();
    let givens = picture.puzzle.givens();
    for &cell in &picture.marked {
        fill_cell(canvas, cell, MARKED_FILL);
    }
    for &cell in &picture.pattern {
        fill_cell(canvas, cell, PATTERN_FILL);
    }
    let big = 0.62 * CELL;
    for index in 0..size.cells() {
        let cell = size.cell_at(index);
        let centre = canvas.center(cell);
        let given = givens.get(index);
        let solved = picture.digits.as_ref().map_or(0, |g| g.get(index));
        if given != 0 {
            let text = digit_char(given).to_string();
            centred(
                canvas,
                Layer::Digit,
                centre,
                big,
                &text,
                &[("fill", GIVEN), ("font-weight", "bold")],
            );
            continue;
        }
        if solved != 0 {
            let text = digit_char(solved).to_string();
            centred(
                canvas,
                Layer::Digit,
                centre,
                big,
                &text,
                &[("fill", SOLVED)],
            );
            continue;
        }
        let Some(marks) = picture.candidates.as_ref().and_then(|c| c.get(index)) else {
            continue;
        };
        let placed_here: Vec<u8> = digits_at(&picture.placements, cell);
        let struck: Vec<u8> = digits_at(&picture.eliminations, cell);
        let deciding: Vec<u8> = digits_at(&picture.deciding, cell);
        let in_pattern = picture.pattern.contains(&cell);
        let b = canvas.cell(cell);
        for digit in 1..=side as u8 {
            let has = marks & (1 << (digit - 1)) != 0;
            let placed = placed_here.contains(&digit);
            if !has && !placed {
                continue;
            }
            let (mut x, mut y, mut font) = mark_place(b, digit, side);
            let count = picture
                .counts
                .as_ref()
                .map(|(counts, cap)| (counts.get(index * side + usize::from(digit) - 1), *cap));
            if let Some((Some(&n), cap)) = count.filter(|_| has) {
                // The count small at the mark's lower right, the digit
                // moved up and left to make room.
                let small = 0.5 * font;
                centred(
                    canvas,
                    Layer::Digit,
                    (x + 0.42 * font, y + 0.3 * font),
                    small,
                    &count_text(n, cap),
                    &[("fill", COUNT)],
                );
                x -= 0.2 * font;
                y -= 0.12 * font;
                font *= 0.8;
            }
            let text = digit_char(digit).to_string();
            let r = 0.62 * font;
            let colour = if placed {
                ring(canvas, (x, y), r, PLACED_RING);
                PLACED
            } else if struck.contains(&digit) {
                ELIMINATED
            } else if deciding.contains(&digit) {
                ring(canvas, (x, y), r, DECIDING_RING);
                DECIDING
            } else if in_pattern && picture.pattern_digits.contains(&digit) {
                ring(canvas, (x, y), r, PATTERN_RING);
                SOLVED
            } else {
                PENCIL
            };
            let bold = placed || struck.contains(&digit) || deciding.contains(&digit);
            let weight = if bold { "bold" } else { "normal" };
            centred(
                canvas,
                Layer::Digit,
                (x, y),
                font,
                &text,
                &[("fill", colour), ("font-weight", weight)],
            );
            if struck.contains(&digit) && !placed {
                let d = 0.5 * font;
                let mut path = super::svg::Path::new();
                path.move_to(x - d, y + d).line_to(x + d, y - d);
                canvas.layer(Layer::Digit).element(
                    "path",
                    &[
                        ("d", path.as_str().into()),
                        ("stroke", ELIMINATED.into()),
                        ("stroke-width", (0.12 * font).into()),
                        ("stroke-linecap", "round".into()),
                    ],
                );
            }
        }
    }
}

/// A count as written beside a pencil mark: short (`12k` for twelve
/// thousand and more), with `+` when it reached the cap.
fn count_text(n: usize, cap: usize) -> String {
    let number = if n >= 10_000 {
        format!("{}k", n / 1000)
    } else {
        n.to_string()
    };
    if n >= cap { number + "+" } else { number }
}

/// The digits `clues` name in `cell`.
fn digits_at(clues: &[Clue], cell: Cell) -> Vec<u8> {
    clues
        .iter()
        .filter(|c| c.cell == cell)
        .map(|c| c.digit)
        .collect()
}
