//! The grid's lines: thin between cells, thick where the regions change
//! (so jigsaw regions, partial regions and boards without boxes show as
//! their rules say), merged into runs so a line is one stroke.

use super::layout::Borders;
use super::svg::Path;
use super::{CELL, Canvas, Layer};
use crate::puzzle::Puzzle;

/// Width of a line between cells.
pub const THIN: f64 = 1.0;
/// Width of a line between regions, and of the frame.
pub const THICK: f64 = 3.0;

/// Draws the lines of `puzzle`'s grid.
pub fn draw(canvas: &mut Canvas, puzzle: &Puzzle) {
    let borders = Borders::of(puzzle);
    let side = canvas.side() as isize;
    let mut thin = Path::new();
    let mut thick = Path::new();
    // Horizontal edges: above row `r`, for r in 0..=side; runs along the
    // columns of one kind.
    for r in 0..=side {
        runs(
            side,
            |c| borders.thick_above(r, c),
            |from, to, bold| {
                let path = if bold { &mut thick } else { &mut thin };
                let y = r as f64 * CELL;
                path.move_to(from as f64 * CELL, y)
                    .line_to(to as f64 * CELL, y);
            },
        );
    }
    for c in 0..=side {
        runs(
            side,
            |r| borders.thick_left(r, c),
            |from, to, bold| {
                let path = if bold { &mut thick } else { &mut thin };
                let x = c as f64 * CELL;
                path.move_to(x, from as f64 * CELL)
                    .line_to(x, to as f64 * CELL);
            },
        );
    }
    let layer = canvas.layer(Layer::Grid);
    for (path, width) in [(&thin, THIN), (&thick, THICK)] {
        if !path.is_empty() {
            layer.element(
                "path",
                &[
                    ("d", path.as_str().into()),
                    ("stroke", "#000000".into()),
                    ("stroke-width", width.into()),
                    ("stroke-linecap", "square".into()),
                    ("fill", "none".into()),
                ],
            );
        }
    }
}

/// Calls `each(from, to, thick)` for each run of edges `0..side` that are
/// alike (all thick or all thin).
fn runs(side: isize, thick: impl Fn(isize) -> bool, mut each: impl FnMut(isize, isize, bool)) {
    let mut start = 0;
    while start < side {
        let kind = thick(start);
        let mut end = start + 1;
        while end < side && thick(end) == kind {
            end += 1;
        }
        each(start, end, kind);
        start = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_split_where_the_kind_changes() {
        let mut seen = Vec::new();
        runs(9, |k| (3..6).contains(&k), |a, b, t| seen.push((a, b, t)));
        assert_eq!(seen, vec![(0, 3, false), (3, 6, true), (6, 9, false)]);
    }
}
