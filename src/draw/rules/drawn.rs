//! What a setter drew beyond the rules, placed and coloured as the file
//! says: free lines, rectangles and ellipses with text in them, text, and
//! cells filled with colours. Positions come in cells from the grid's top
//! left corner, and may stand on the rim beside the grid.

use super::super::svg::{Num, Path, Value};
use super::super::{CELL, Canvas, Layer};
use crate::puzzle::grid::Cell;
use crate::puzzle::sketch::{Colour, Mark, Point};

/// The outline of a drawn rectangle or ellipse, as f-puzzles' thin line.
const OUTLINE: f64 = 0.025 * CELL;

/// `colour` as SVG's `#rrggbb` (its opacity goes in an attribute of its
/// own, which every renderer reads).
pub fn hex(colour: Colour) -> String {
    format!("#{:02x}{:02x}{:02x}", colour.red, colour.green, colour.blue)
}

/// The opacity of `colour`, when it is not opaque.
fn opacity(colour: Colour) -> Option<f64> {
    (colour.alpha < 255).then(|| f64::from(colour.alpha) / 255.0)
}

/// Leaves room on the sides of the grid that the box from `(x0, y0)` to
/// `(x1, y1)` (in cells) reaches past the bare margin.
fn reach(canvas: &mut Canvas, (x0, y0): (f64, f64), (x1, y1): (f64, f64)) {
    let side = canvas.side() as f64;
    // The bare margin holds a quarter of a cell.
    let past = 0.2;
    let row = if y0 < -past {
        -1
    } else if y1 > side + past {
        canvas.side() as isize
    } else {
        0
    };
    let col = if x0 < -past {
        -1
    } else if x1 > side + past {
        canvas.side() as isize
    } else {
        0
    };
    canvas.outside(row, col);
    // A box wider than the grid reaches both ways.
    if x0 < -past && x1 > side + past {
        canvas.outside(0, canvas.side() as isize);
    }
    if y0 < -past && y1 > side + past {
        canvas.outside(canvas.side() as isize, 0);
    }
}

/// A line through `points` in `colour`, `width` cells wide.
pub fn stroke(canvas: &mut Canvas, points: &[Point], colour: Colour, width: f64) {
    let Some(first) = points.first() else {
        return;
    };
    let half = width / 2.0;
    let (mut lo, mut hi) = ((first.x, first.y), (first.x, first.y));
    for p in points {
        lo = (lo.0.min(p.x), lo.1.min(p.y));
        hi = (hi.0.max(p.x), hi.1.max(p.y));
    }
    reach(
        canvas,
        (lo.0 - half, lo.1 - half),
        (hi.0 + half, hi.1 + half),
    );
    let paint = hex(colour);
    if points.len() == 1 {
        // A line of one cell is a dot, as a round cap draws it.
        let mut attrs: Vec<(&str, Value<'_>)> = vec![
            ("cx", (first.x * CELL).into()),
            ("cy", (first.y * CELL).into()),
            ("r", (half * CELL).into()),
            ("fill", (&paint).into()),
        ];
        if let Some(alpha) = opacity(colour) {
            attrs.push(("fill-opacity", alpha.into()));
        }
        canvas.layer(Layer::Line).element("circle", &attrs);
        return;
    }
    let mut path = Path::new();
    for (k, p) in points.iter().enumerate() {
        if k == 0 {
            path.move_to(p.x * CELL, p.y * CELL);
        } else {
            path.line_to(p.x * CELL, p.y * CELL);
        }
    }
    let mut attrs: Vec<(&str, Value<'_>)> = vec![
        ("d", path.as_str().into()),
        ("stroke", (&paint).into()),
        ("stroke-width", (width * CELL).into()),
        ("stroke-linecap", "round".into()),
        ("stroke-linejoin", "round".into()),
        ("fill", "none".into()),
    ];
    if let Some(alpha) = opacity(colour) {
        attrs.push(("stroke-opacity", alpha.into()));
    }
    canvas.layer(Layer::Line).element("path", &attrs);
}

/// The turn of `angle` degrees clockwise about `(x, y)` (page units), or
/// `None` for none.
fn rotation(angle: f64, (x, y): (f64, f64)) -> Option<String> {
    let turn = angle % 360.0;
    (turn != 0.0).then(|| format!("rotate({} {} {})", Num(turn), Num(x), Num(y)))
}

/// A drawn rectangle or ellipse ([`Mark::Shape`]) with its text. One that
/// covers more than a cell lies under the grid's lines, as a backdrop; a
/// smaller one sits on them, as a clue on an edge or corner does.
pub fn shape(canvas: &mut Canvas, mark: &Mark) {
    let Mark::Shape {
        centre,
        width,
        height,
        round,
        fill,
        outline,
        angle,
        text,
    } = mark
    else {
        return;
    };
    // The box the shape can reach when turned: its half diagonal.
    let r = (width * width + height * height).sqrt() / 2.0;
    let (hx, hy) = if *angle % 180.0 == 0.0 {
        (width / 2.0, height / 2.0)
    } else {
        (r, r)
    };
    reach(
        canvas,
        (centre.x - hx, centre.y - hy),
        (centre.x + hx, centre.y + hy),
    );
    let layer = if *width > 1.0 || *height > 1.0 {
        Layer::Shape
    } else {
        Layer::Edge
    };
    let (cx, cy) = (centre.x * CELL, centre.y * CELL);
    let (w, h) = (width * CELL, height * CELL);
    let (fill_paint, line_paint) = (hex(*fill), hex(*outline));
    let turn = rotation(*angle, (cx, cy));
    let mut attrs: Vec<(&str, Value<'_>)> = if *round {
        vec![
            ("cx", cx.into()),
            ("cy", cy.into()),
            ("rx", (w / 2.0).into()),
            ("ry", (h / 2.0).into()),
        ]
    } else {
        vec![
            ("x", (cx - w / 2.0).into()),
            ("y", (cy - h / 2.0).into()),
            ("width", w.into()),
            ("height", h.into()),
        ]
    };
    attrs.extend([
        ("fill", (&fill_paint).into()),
        ("stroke", (&line_paint).into()),
        ("stroke-width", OUTLINE.into()),
    ]);
    if let Some(alpha) = opacity(*fill) {
        attrs.push(("fill-opacity", alpha.into()));
    }
    if let Some(alpha) = opacity(*outline) {
        attrs.push(("stroke-opacity", alpha.into()));
    }
    if let Some(turn) = &turn {
        attrs.push(("transform", turn.into()));
    }
    let name = if *round { "ellipse" } else { "rect" };
    canvas.layer(layer).element(name, &attrs);
    if let Some((words, colour)) = text {
        // The text fits the shape's height, up to the size of a clue.
        let size = (0.7 * height).min(0.4);
        write_text(canvas, layer, *centre, words, *colour, size, *angle);
    }
}

/// Text a setter placed: `size` cells high, centred on `centre`, turned
/// `angle` degrees clockwise.
pub fn text(
    canvas: &mut Canvas,
    centre: Point,
    words: &str,
    colour: Colour,
    size: f64,
    angle: f64,
) {
    // An average glyph is about 0.6 of the font size wide.
    let half_width = 0.3 * size * words.chars().count() as f64;
    let r = if angle % 180.0 == 0.0 {
        (half_width, size / 2.0)
    } else {
        let r = half_width.max(size / 2.0);
        (r, r)
    };
    reach(
        canvas,
        (centre.x - r.0, centre.y - r.1),
        (centre.x + r.0, centre.y + r.1),
    );
    write_text(canvas, Layer::Outside, centre, words, colour, size, angle);
}

/// Writes `words` centred on `centre` on `layer`.
fn write_text(
    canvas: &mut Canvas,
    layer: Layer,
    centre: Point,
    words: &str,
    colour: Colour,
    size: f64,
    angle: f64,
) {
    let (x, y) = (centre.x * CELL, centre.y * CELL);
    let font = size * CELL;
    let paint = hex(colour);
    let turn = rotation(angle, (x, y));
    // The baseline is placed by hand, as for digits (see `marks::centred`).
    let mut attrs: Vec<(&str, Value<'_>)> = vec![
        ("x", x.into()),
        ("y", (y + 0.36 * font).into()),
        ("font-size", font.into()),
        ("text-anchor", "middle".into()),
        ("fill", (&paint).into()),
    ];
    if let Some(alpha) = opacity(colour) {
        attrs.push(("fill-opacity", alpha.into()));
    }
    if let Some(turn) = &turn {
        attrs.push(("transform", turn.into()));
    }
    canvas.layer(layer).text_element("text", &attrs, words);
}

/// Fills `cell` with `colours`: one fills it, several split it into equal
/// bands from left to right.
pub fn cell_colours(canvas: &mut Canvas, cell: Cell, colours: &[Colour]) {
    let b = canvas.cell(cell);
    let band = b.width / colours.len().max(1) as f64;
    for (k, &colour) in colours.iter().enumerate() {
        let paint = hex(colour);
        let mut attrs: Vec<(&str, Value<'_>)> = vec![
            ("x", (b.x + k as f64 * band).into()),
            ("y", b.y.into()),
            ("width", band.into()),
            ("height", b.height.into()),
            ("fill", (&paint).into()),
        ];
        if let Some(alpha) = opacity(colour) {
            attrs.push(("fill-opacity", alpha.into()));
        }
        canvas.layer(Layer::Fill).element("rect", &attrs);
    }
}
