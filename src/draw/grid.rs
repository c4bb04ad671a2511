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

/// Draws the lines of `puzzle`'s grid, and the regions a chaos
/// construction's solution found (`found`: each cell's region, row-major):
/// as region lines on a board without regions of its own, as a tint per
/// region on one with them, whose lines stay the board's.
pub fn draw(canvas: &mut Canvas, puzzle: &Puzzle, found: Option<&[u8]>) {
    let mut borders = Borders::of(puzzle);
    if let Some(found) = found {
        if borders.has_own_regions() {
            tint_regions(canvas, found);
        } else {
            borders = borders.with_found(found);
        }
    }
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

/// Pale fills for the regions a solution found, neighbours apart.
const REGION_TINTS: [&str; 8] = [
    "#fbe7a1", "#c9e7fb", "#e7d1fb", "#d1fbd9", "#fbd1d1", "#e0e0e0", "#f6dcc0", "#c0f0ee",
];

/// Fills each region of `found` with a tint, no two orthogonally touching
/// regions alike (greedily, region by region: a region of N cells touches
/// few others, so the palette does not run out on the boards drawn; if it
/// did, the tints would repeat, never fail).
fn tint_regions(canvas: &mut Canvas, found: &[u8]) {
    let side = canvas.side();
    if found.len() != side * side {
        return;
    }
    let count = found.iter().map(|&r| usize::from(r) + 1).max().unwrap_or(0);
    let mut touching = vec![vec![false; count]; count];
    for cell in 0..found.len() {
        let (r, c) = (cell / side, cell % side);
        for other in [
            (r + 1 < side).then(|| cell + side),
            (c + 1 < side).then(|| cell + 1),
        ]
        .into_iter()
        .flatten()
        {
            let (a, b) = (usize::from(found[cell]), usize::from(found[other]));
            if a != b {
                touching[a][b] = true;
                touching[b][a] = true;
            }
        }
    }
    let mut tint: Vec<usize> = Vec::with_capacity(count);
    for neighbours in &touching {
        let taken: Vec<usize> = tint
            .iter()
            .zip(neighbours)
            .filter(|&(_, &touches)| touches)
            .map(|(&t, _)| t)
            .collect();
        let free = (0..REGION_TINTS.len()).find(|t| !taken.contains(t));
        tint.push(free.unwrap_or(tint.len() % REGION_TINTS.len()));
    }
    for (cell, &region) in found.iter().enumerate() {
        let b = canvas.place((cell / side) as isize, (cell % side) as isize);
        let fill = REGION_TINTS[tint[usize::from(region)]];
        canvas.fill(Layer::Fill, b, fill);
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
