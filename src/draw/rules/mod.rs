//! One drawer per family of rule kinds, chosen by the constraint's kind.
//! A kind with no drawer here is named in the legend under the grid (its
//! rule line, as messages name it), so a picture never leaves a rule out
//! silently; a new kind adds one arm to [`draw`].

mod board;
mod cages;
mod cells;
mod dots;
mod lines;
mod outside;

use super::svg::Path;
use super::{Canvas, Layer};
use crate::puzzle::Puzzle;
use crate::puzzle::constraint::Constraint;

/// Draws every rule of `puzzle` beyond rows, columns and regions (which
/// the grid's lines draw).
pub fn draw(canvas: &mut Canvas, puzzle: &Puzzle) {
    board::houses(canvas, puzzle);
    let size = puzzle.size();
    for (number, constraint) in puzzle.rules().constraints().iter().enumerate() {
        match constraint {
            Constraint::Cage(cage) => {
                cages::cage(canvas, &cage.cells, cage.sum.map(|s| s.to_string()));
            }
            Constraint::DigitalRoot(cage) => {
                cages::cage(canvas, &cage.cells, Some(cage.root.to_string()));
                canvas.note("digital root cages: the cage's digits add up to a number whose digital root is its clue".into());
            }
            Constraint::ExtraRegion(region) => cages::extra_region(canvas, &region.0),
            // The grid's region lines draw it.
            Constraint::PartialRegion(_) => {}
            Constraint::Thermo(thermo) => lines::thermo(canvas, &thermo.cells),
            Constraint::SlowThermo(thermo) => {
                lines::thermo(canvas, &thermo.cells);
                canvas.note(format!("{constraint}: digits never decrease from the bulb"));
            }
            Constraint::Arrow(arrow) => lines::arrow(canvas, &arrow.circle, &arrow.line),
            Constraint::DoubleArrow(line) => {
                lines::ends_circled(canvas, &line.0);
                canvas.note(
                    "double arrows: the circled ends add up to the digits between them".into(),
                );
            }
            Constraint::BetweenLine(line) => lines::ends_circled(canvas, &line.0),
            Constraint::Palindrome(line) => lines::coloured(canvas, &line.0, lines::PALINDROME),
            Constraint::Renban(line) => lines::coloured(canvas, &line.0, lines::RENBAN),
            Constraint::Whispers(line) => {
                lines::coloured(canvas, &line.cells, lines::WHISPERS);
                let usual = size.side().div_ceil(2);
                if usize::from(line.difference) != usual {
                    lines::label(canvas, &line.cells, &format!("≥{}", line.difference));
                }
            }
            Constraint::RegionSumLine(line) => lines::coloured(canvas, &line.0, lines::REGION_SUM),
            Constraint::EntropicLine(line) => lines::coloured(canvas, &line.0, lines::ENTROPIC),
            Constraint::ModularLine(line) => lines::coloured(canvas, &line.0, lines::MODULAR),
            Constraint::ZipperLine(line) => lines::coloured(canvas, &line.0, lines::ZIPPER),
            Constraint::Nabner(line) => lines::coloured(canvas, &line.0, lines::NABNER),
            Constraint::Difference(dot) => {
                dots::dot(
                    canvas,
                    dot.cells,
                    false,
                    (dot.value != 1).then(|| dot.value.to_string()),
                );
            }
            Constraint::Ratio(dot) => {
                dots::dot(
                    canvas,
                    dot.cells,
                    true,
                    (dot.value != 2).then(|| dot.value.to_string()),
                );
            }
            Constraint::Xv(xv) => {
                let mark = match xv.sum {
                    10 => "X".to_string(),
                    5 => "V".to_string(),
                    sum => sum.to_string(),
                };
                dots::letter(canvas, xv.cells, &mark);
            }
            Constraint::Odd(cell) => cells::odd(canvas, cell.0),
            Constraint::Even(cell) => cells::even(canvas, cell.0),
            Constraint::Minimum(cell) => cells::chevrons(canvas, cell.0, true),
            Constraint::Maximum(cell) => cells::chevrons(canvas, cell.0, false),
            Constraint::Allowed(allowed) => {
                cells::allowed(canvas, allowed.cell, allowed.digits, size.side())
            }
            Constraint::Clone(clone) => cells::clones(canvas, &clone.cells, &clone.clones, number),
            Constraint::Quadruple(quad) => cells::quadruple(canvas, &quad.cells, &quad.digits),
            Constraint::Indexer(indexer) => {
                cells::indexer(canvas, indexer.cell, indexer.kind);
            }
            Constraint::LittleKiller(clue) => outside::little_killer(canvas, &clue.cells, clue.sum),
            Constraint::Sandwich(clue) => {
                outside::beside(canvas, clue.line, &clue.sum.to_string(), size);
                canvas.note("sandwich sums beside the grid: the digits between the 1 and the largest digit add up to the clue".into());
            }
            Constraint::XSum(clue) => {
                outside::beside(canvas, clue.line, &clue.sum.to_string(), size);
                canvas.note("X-sums beside the grid: the first X digits add up to the clue, X the first digit".into());
            }
            Constraint::Skyscraper(clue) => {
                outside::beside(canvas, clue.line, &clue.count.to_string(), size);
                canvas.note("skyscrapers beside the grid: the clue counts the digits seen, higher hiding lower".into());
            }
            // Whole-board rules have no mark of their own: they are named.
            Constraint::AntiKnight(_)
            | Constraint::AntiKing(_)
            | Constraint::NonConsecutive(_)
            | Constraint::NegativeRatio(_)
            | Constraint::NegativeXv(_) => canvas.note(constraint.to_string()),
            // A kind with no drawer yet is named by its rule line.
            #[allow(unreachable_patterns)]
            other => canvas.note(other.to_string()),
        }
    }
}

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
