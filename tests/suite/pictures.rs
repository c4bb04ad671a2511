//! Pictures, checked by their pixels: each SVG is rasterised with the
//! renderer `-o png` uses, and the tests read the ink where the rules and
//! the solution say it must be (and must not be). A browser test compares
//! headless Chromium's rendering of the same SVG when it is installed.

use crate::common;

use common::{example, z3doku};
use z3doku::draw::{CELL, Drawing, Picture, Raster, Rect};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::grid::{Grid, Size};
use z3doku::puzzle::input::Source;

fn read(text: &str) -> Puzzle {
    Source::Text(text.to_string())
        .read_puzzle(None)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn read_file(path: &std::path::Path) -> Puzzle {
    Source::File(path.to_path_buf()).read_puzzle(None).unwrap()
}

fn raster(drawing: &Drawing) -> Raster {
    Raster::of_svg(&drawing.svg, 1.0).unwrap()
}

const EMPTY: &str =
    ".................................................................................";

/// The killer's solution, as the README gives it.
const KILLER_SOLUTION: &str =
    "782156439569432178413987265348261597956874321271395846894713652627548913135629784";

/// The dark pixels met crossing the line at `(x, y)` across `length`
/// pixels either side, perpendicular to a line that is horizontal when
/// `horizontal`.
fn thickness(raster: &Raster, x: f64, y: f64, horizontal: bool) -> usize {
    (-5..=5)
        .filter(|&k| {
            let (px, py) = if horizontal {
                (x, y + f64::from(k))
            } else {
                (x + f64::from(k), y)
            };
            // Anti-aliased edges count from a third dark.
            raster.darkness(px.floor() as u32, py.floor() as u32) > 0.3
        })
        .count()
}

#[test]
fn region_lines_are_thick_exactly_where_the_regions_change() {
    let puzzle = read_file(&example("jigsaw.txt"));
    let drawing = Picture::new(&puzzle).draw();
    let image = raster(&drawing);
    let rules = puzzle.rules();
    let side = puzzle.size().side();
    let mut thick = 0;
    for r in 0..side {
        for c in 0..side {
            let here = r * side + c;
            let b = drawing.layout.index(here);
            // Above the cell (the grid's top edge is the frame).
            let above = thickness(&image, b.x + b.width / 2.0, b.y, true);
            let parted = r == 0 || rules.region_of(here) != rules.region_of(here - side);
            assert_eq!(
                above >= 3,
                parted,
                "above r{}c{}: {above} dark pixels",
                r + 1,
                c + 1
            );
            let left = thickness(&image, b.x, b.y + b.height / 2.0, false);
            let parted = c == 0 || rules.region_of(here) != rules.region_of(here - 1);
            assert_eq!(
                left >= 3,
                parted,
                "left of r{}c{}: {left} dark pixels",
                r + 1,
                c + 1
            );
            assert!(above >= 1 && left >= 1, "every cell has its lines");
            thick += usize::from(parted);
        }
    }
    // A jigsaw's lines do not run straight across: more than the 9 + 6
    // of a classic board's columns parts, here and there.
    assert!(thick > 15, "{thick}");
}

#[test]
fn boxes_of_every_shape_have_their_lines() {
    for side in [4usize, 6, 8, 9, 12, 16] {
        let size = Size::from_side(side).unwrap();
        let puzzle = Puzzle::classic(Grid::empty(size));
        let drawing = Picture::new(&puzzle).draw();
        let image = raster(&drawing);
        let (rows, columns) = size.region_shape().unwrap();
        for k in 1..side {
            let b = drawing.layout.index(k * side);
            let line = thickness(&image, b.x + b.width / 2.0, b.y, true);
            assert_eq!(
                line >= 3,
                k % rows == 0,
                "{side}x{side}: above row {k}: {line}"
            );
            let b = drawing.layout.index(k);
            let line = thickness(&image, b.x, b.y + b.height / 2.0, false);
            assert_eq!(
                line >= 3,
                k % columns == 0,
                "{side}x{side}: left of column {k}: {line}"
            );
        }
        assert_eq!(image.width() as f64, drawing.layout.width().round());
    }
}

/// The share of dark pixels along a strip from `from` to `to` (a straight
/// horizontal or vertical segment), one pixel wide.
fn strip(raster: &Raster, from: (f64, f64), to: (f64, f64)) -> f64 {
    let steps = ((to.0 - from.0).abs() + (to.1 - from.1).abs()).round() as usize;
    let dark = (0..=steps)
        .filter(|&k| {
            let t = k as f64 / steps.max(1) as f64;
            let x = from.0 + t * (to.0 - from.0);
            let y = from.1 + t * (to.1 - from.1);
            // The dash is 1.2 wide at a fractional place: a pixel either
            // side counts.
            (-1..=1).any(|d| {
                let (px, py) = if from.1 == to.1 {
                    (x, y + f64::from(d))
                } else {
                    (x + f64::from(d), y)
                };
                raster.darkness(px.round() as u32, py.round() as u32) > 0.35
            })
        })
        .count();
    dark as f64 / (steps + 1) as f64
}

#[test]
fn a_cage_is_dashed_just_inside_its_cells_and_nowhere_else() {
    let puzzle = read(&format!("{EMPTY}\nkiller 15 r2c2 r2c3 r3c2\n"));
    let drawing = Picture::new(&puzzle).draw();
    let image = raster(&drawing);
    let at = |r: usize, c: usize| drawing.layout.index((r - 1) * 9 + c - 1);
    let inset = 0.08 * CELL;
    // The bottom of r2c3 (open below: r3c3 is not in the cage) is dashed:
    // ink and gaps along it.
    let b = at(2, 3);
    let bottom = strip(
        &image,
        (b.x + 15.0, b.y + b.height - inset),
        (b.x + b.width - 15.0, b.y + b.height - inset),
    );
    assert!(bottom > 0.3 && bottom < 0.95, "dashed: {bottom}");
    // The right of r3c2, the same.
    let b = at(3, 2);
    let right = strip(
        &image,
        (b.x + b.width - inset, b.y + 15.0),
        (b.x + b.width - inset, b.y + b.height - 15.0),
    );
    assert!(right > 0.3 && right < 0.95, "dashed: {right}");
    // Inside the cage, between r2c2 and r2c3, no cage line runs.
    let b = at(2, 2);
    let inner = strip(
        &image,
        (b.x + b.width - inset, b.y + 20.0),
        (b.x + b.width - inset, b.y + b.height - 20.0),
    );
    assert!(inner < 0.05, "no line inside the cage: {inner}");
    // Nor in a cell outside it.
    let b = at(5, 5);
    let away = strip(
        &image,
        (b.x + 10.0, b.y + inset),
        (b.x + b.width - 10.0, b.y + inset),
    );
    assert!(away < 0.05, "no cage at r5c5: {away}");
    // The sum sits in the top left corner of the first cell.
    let b = at(2, 2);
    assert!(image.ink(b.x + 2.0, b.y + 2.0, 0.35 * CELL, 0.28 * CELL) > 0.08);
    assert!(image.ink(b.x + b.width * 0.6, b.y + 2.0, 0.35 * CELL, 0.28 * CELL) < 0.05);
}

/// Whether the pixel at the centre of `b` moved by `(dx, dy)` cells is the
/// thermometer's grey.
fn grey_at(image: &Raster, b: Rect, dx: f64, dy: f64) -> bool {
    let (x, y) = b.center();
    let [r, g, bl, _] = image.pixel((x + dx * CELL) as u32, (y + dy * CELL) as u32);
    let near = |v: u8| (150..=215).contains(&v);
    near(r) && near(g) && near(bl)
}

#[test]
fn a_thermometer_has_its_bulb_in_its_first_cell() {
    let puzzle = read(&format!("{EMPTY}\nthermo r5c2 r5c3 r5c4 r4c4\n"));
    let drawing = Picture::new(&puzzle).draw();
    let image = raster(&drawing);
    let at = |r: usize, c: usize| drawing.layout.index((r - 1) * 9 + c - 1);
    // The bulb is wider than the line: grey a third of a cell above and
    // below the first cell's centre, and not beside the line further on.
    assert!(grey_at(&image, at(5, 2), 0.0, 0.3));
    assert!(grey_at(&image, at(5, 2), 0.0, -0.3));
    assert!(
        grey_at(&image, at(5, 3), 0.0, 0.0),
        "the line runs through r5c3"
    );
    assert!(!grey_at(&image, at(5, 3), 0.0, 0.3), "no bulb in r5c3");
    assert!(!grey_at(&image, at(4, 4), 0.3, 0.0), "no bulb at the tip");
    assert!(
        grey_at(&image, at(4, 4), 0.0, 0.0),
        "the line reaches the tip"
    );
    // Cells off the thermometer are white at their centre.
    assert!(!grey_at(&image, at(8, 8), 0.0, 0.0));
}

/// The darkness of the box of `half` pixels around `b`'s centre, pixel
/// by pixel.
fn glyph(image: &Raster, b: Rect, half: i32) -> Vec<f64> {
    let (cx, cy) = b.center();
    let mut out = Vec::new();
    for dy in -half..=half {
        for dx in -half..=half {
            out.push(image.darkness((cx as i32 + dx) as u32, (cy as i32 + dy) as u32));
        }
    }
    out
}

#[test]
fn each_digit_is_drawn_where_the_solution_has_it() {
    let puzzle = read_file(&example("killer.json"));
    let solution = Grid::from_cells(
        Size::from_side(9).unwrap(),
        &KILLER_SOLUTION
            .bytes()
            .map(|b| b - b'0')
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let drawing = Picture::new(&puzzle).digits(&solution).draw();
    let image = raster(&drawing);
    // Templates: the digits 1 to 9 drawn alone on a plain board, in the
    // solved colour, read from the same place in a cell.
    let plain = Puzzle::classic(Grid::empty(Size::from_side(9).unwrap()));
    let mut row = vec![0u8; 81];
    for d in 1..=9u8 {
        row[usize::from(d) - 1] = d;
    }
    let shown = Grid::from_cells(Size::from_side(9).unwrap(), &row).unwrap();
    let templates_drawing = Picture::new(&plain).digits(&shown).draw();
    let templates_image = raster(&templates_drawing);
    let half = 13;
    let templates: Vec<Vec<f64>> = (0..9)
        .map(|k| glyph(&templates_image, templates_drawing.layout.index(k), half))
        .collect();
    for index in 0..81 {
        let seen = glyph(&image, drawing.layout.index(index), half);
        let distance =
            |t: &Vec<f64>| -> f64 { t.iter().zip(&seen).map(|(a, b)| (a - b).abs()).sum() };
        let best = (0..9)
            .min_by(|&a, &b| distance(&templates[a]).total_cmp(&distance(&templates[b])))
            .unwrap();
        assert_eq!(
            best as u8 + 1,
            solution.get(index),
            "r{}c{} reads as {}",
            index / 9 + 1,
            index % 9 + 1,
            best + 1
        );
    }
}

#[test]
fn givens_are_bold_black_and_solved_digits_blue() {
    let puzzle = read("1...............");
    let solution = Grid::from_cells(
        Size::from_side(4).unwrap(),
        &[1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1],
    )
    .unwrap();
    let drawing = Picture::new(&puzzle).digits(&solution).draw();
    assert!(drawing.svg.contains("font-weight=\"bold\">1</text>"));
    let image = raster(&drawing);
    let blue = |b: Rect| {
        let (cx, cy) = b.center();
        (-15..=15).any(|dy| {
            (-12..=12).any(|dx| {
                let [r, _, bl, _] =
                    image.pixel((cx + f64::from(dx)) as u32, (cy + f64::from(dy)) as u32);
                bl > 150 && r < 90
            })
        })
    };
    assert!(!blue(drawing.layout.index(0)), "the given is black");
    assert!(blue(drawing.layout.index(1)), "a solved digit is blue");
    // Bold ink is heavier: the given 1 against the solved 1 at r2c3.
    let ink = |b: Rect| image.ink(b.x + 15.0, b.y + 10.0, 30.0, 40.0);
    assert!(ink(drawing.layout.index(0)) > ink(drawing.layout.index(6)) * 1.15);
}

#[test]
fn outside_clues_stand_beside_the_grid() {
    let puzzle = read(&format!(
        "{EMPTY}\nsandwich 13 row 2\nlittle killer 14 r4c0 ur\n"
    ));
    let drawing = Picture::new(&puzzle).draw();
    let image = raster(&drawing);
    // The grid moved right to leave a column for the clues.
    assert_eq!(drawing.layout.x(0), CELL + 0.5);
    let left_of = |r: isize| drawing.layout.place(r, -1);
    // Inside the place beside the row, clear of the grid's frame.
    let ink = |b: Rect| image.ink(b.x + 2.0, b.y + 4.0, b.width - 10.0, b.height - 8.0);
    assert!(ink(left_of(1)) > 0.03, "the sandwich sum beside row 2");
    assert!(ink(left_of(3)) > 0.03, "the little killer sum beside row 4");
    assert!(ink(left_of(6)) < 0.001, "nothing beside row 7");
}

#[test]
fn rules_without_a_mark_are_named_under_the_grid() {
    let puzzle = read(&format!("{EMPTY}\nantiknight\n"));
    let drawing = Picture::new(&puzzle).draw();
    assert!(
        drawing.svg.contains(">anti-knight</text>"),
        "{}",
        drawing.svg
    );
    let image = raster(&drawing);
    let top = drawing.layout.legend_top();
    assert!(
        image.ink(
            0.0,
            top,
            drawing.layout.width(),
            drawing.layout.height() - top
        ) > 0.01
    );
    // A board with no such rule has no legend.
    let plain = Picture::new(&read(EMPTY)).draw();
    assert_eq!(plain.layout.height(), plain.layout.width());
}

#[test]
fn every_rule_kind_of_the_examples_draws() {
    // Each f-puzzles variant file of the shared set draws, its picture
    // rasterises, and every kind is drawn or named.
    let Some(dir) = common::shared_data("variants") else {
        eprintln!("SKIPPED: ../shared/data/variants is missing");
        return;
    };
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let puzzle = read_file(&path);
        let drawing = Picture::new(&puzzle).draw();
        let image = raster(&drawing);
        // The same givens under the classic rules, for what the rules add.
        let bare_drawing = Picture::new(&Puzzle::classic(puzzle.givens().clone())).draw();
        let bare = raster(&bare_drawing);
        for constraint in puzzle.rules().constraints() {
            let cells = constraint.cells();
            if cells.is_empty() {
                let name = constraint.to_string();
                assert!(
                    drawing.svg.contains(&name),
                    "{}: {name} is named",
                    path.display()
                );
                continue;
            }
            let changed = cells.iter().any(|&cell| {
                let index = puzzle.size().index(cell);
                let (a, b) = (
                    drawing.layout.index(index),
                    bare_drawing.layout.index(index),
                );
                // Mean darkness rather than `ink`: thermometers and many
                // lines are a light grey, lighter than `ink`'s threshold.
                let shade = |image: &Raster, r: Rect| {
                    let (x0, y0) = (r.x.round() as u32 + 2, r.y.round() as u32 + 2);
                    let (x1, y1) = ((r.x + r.width) as u32 - 2, (r.y + r.height) as u32 - 2);
                    let pixels = (y0..y1).flat_map(|y| (x0..x1).map(move |x| (x, y)));
                    let (sum, n) = pixels.fold((0.0, 0.0), |(sum, n), (x, y)| {
                        (sum + image.darkness(x, y), n + 1.0)
                    });
                    sum / f64::max(n, 1.0)
                };
                (shade(&image, a) - shade(&bare, b)).abs() > 0.01
            });
            assert!(
                changed,
                "{}: {constraint} shows in its cells",
                path.display()
            );
        }
        seen += 1;
    }
    assert!(seen >= 30, "{seen}");
}

#[test]
fn large_boards_draw_a_digit_in_every_cell() {
    for name in ["16x16.txt", "25x25.txt"] {
        let puzzle = read_file(&example(name));
        let drawing = Picture::new(&puzzle).draw();
        let image = raster(&drawing);
        let size = puzzle.size();
        for (index, digit) in puzzle.givens().clues() {
            let b = drawing.layout.index(index);
            let ink = image.ink(b.x + 8.0, b.y + 8.0, b.width - 16.0, b.height - 16.0);
            assert!(
                ink > 0.02,
                "{name}: {} ({digit}) holds {ink}",
                size.cell_at(index)
            );
        }
    }
}

#[test]
fn chromium_draws_the_svg_as_resvg_does() {
    let chromium = std::path::Path::new("/usr/bin/chromium");
    if !chromium.exists() {
        eprintln!("SKIPPED: /usr/bin/chromium is not installed");
        return;
    }
    let puzzle = read_file(&example("killer.json"));
    let solution = Grid::from_cells(
        Size::from_side(9).unwrap(),
        &KILLER_SOLUTION
            .bytes()
            .map(|b| b - b'0')
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let killer = Picture::new(&puzzle).digits(&solution).draw();
    same_in_chromium(chromium, "killer", &killer);
    // What a setter drew: turned shapes, an ellipse, text on the rim,
    // cell colours and a coloured cage.
    let drawn = decorated(
        r##""line":[{"lines":[["R2C2","R2C6","R4C8"]],"outlineC":"#FF0000","width":0.4}],
        "rectangle":[{"cells":["R5C5"],"baseC":"#0000FF","outlineC":"#000000","width":0.8,"height":0.4,"value":"A","fontC":"#FFFFFF"},
                     {"cells":["R7C2","R7C3"],"baseC":"#FFE060","outlineC":"#000000","width":0.8,"height":0.3,"angle":45}],
        "circle":[{"cells":["R3C8","R4C8"],"baseC":"#00FF00","outlineC":"#000000","width":0.5,"height":0.7}],
        "text":[{"cells":["R0C3"],"value":"Wm","fontC":"#FF00FF","size":0.6},
                {"cells":["R8C5"],"value":"T","fontC":"#000000","size":0.5,"angle":30}],
        "cage":[{"cells":["R8C8","R8C9"],"outlineC":"#FF8000"}]"##,
        &[
            (72, r##""c":"#FFFF00""##),
            (73, r##""cArray":["#FF0000","#0000FF"]"##),
        ],
    );
    same_in_chromium(chromium, "drawn", &Picture::new(&drawn).draw());
}

/// Has headless Chromium screenshot `drawing`'s SVG and checks it against
/// resvg's rendering: each cell's ink, and the whole page.
fn same_in_chromium(chromium: &std::path::Path, name: &str, drawing: &Drawing) {
    let ours = raster(drawing);
    let dir = std::env::temp_dir().join(format!("z3doku-chromium-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join(format!("{name}.svg"));
    let shot = dir.join("shot.png");
    std::fs::write(&svg, &drawing.svg).unwrap();
    let status = std::process::Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg(format!("--window-size={},{}", ours.width(), ours.height()))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", svg.display()))
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let theirs = Raster::of_png(&std::fs::read(&shot).unwrap()).unwrap();
    // Fonts and anti-aliasing differ a little; what each cell holds must
    // not: its ink within a few per cent, and the whole page close.
    let mut worst: f64 = 0.0;
    let cells = drawing.layout.side() * drawing.layout.side();
    for index in 0..cells {
        let b = drawing.layout.index(index);
        let a = ours.ink(b.x + 3.0, b.y + 3.0, b.width - 6.0, b.height - 6.0);
        let t = theirs.ink(b.x + 3.0, b.y + 3.0, b.width - 6.0, b.height - 6.0);
        worst = worst.max((a - t).abs());
    }
    let width = ours.width().min(theirs.width());
    let height = ours.height().min(theirs.height());
    let mut total = 0.0;
    // Colours too: a shape in the wrong colour has the right darkness.
    let mut hue = 0.0;
    for y in 0..height {
        for x in 0..width {
            total += (ours.darkness(x, y) - theirs.darkness(x, y)).abs();
            let (a, t) = (ours.pixel(x, y), theirs.pixel(x, y));
            hue += (0..3)
                .map(|k| f64::from(a[k].abs_diff(t[k])) / 255.0)
                .sum::<f64>()
                / 3.0;
        }
    }
    let mean = total / f64::from(width * height);
    let colour = hue / f64::from(width * height);
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "{name}: Chromium against resvg: worst cell's ink differs by {worst:.4}, the page's \
         darkness by {mean:.4} and its colour by {colour:.4} on average ({width}x{height} pixels)"
    );
    assert!(worst < 0.06, "{name}: a cell's ink differs by {worst}");
    assert!(mean < 0.03, "{name}: the pages differ by {mean} on average");
    assert!(
        colour < 0.03,
        "{name}: the pages' colours differ by {colour} on average"
    );
}

#[test]
fn draw_writes_svg_and_png() {
    let out = z3doku()
        .args(["draw"])
        .arg(example("killer.json"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
    assert!(text.contains("stroke-dasharray"), "the cages are dashed");
    // Into a file, by its extension.
    let dir = std::env::temp_dir().join(format!("z3doku-draw-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("killer.png");
    let out = z3doku()
        .arg("draw")
        .arg(example("killer.json"))
        .arg("--out")
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let png = std::fs::read(&file).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let image = Raster::of_png(&png).unwrap();
    assert!(image.width() > 500);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn each_command_draws_its_picture() {
    let killer = example("killer.json");
    let png = |args: &[&str]| {
        let out = z3doku().args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(&out.stdout[..4], b"\x89PNG", "{args:?}");
    };
    let path = killer.to_str().unwrap();
    png(&["solve", path, "--unique", "-o", "png"]);
    png(&["check", path, "--grid", "-o", "png"]);
    let svg = |args: &[&str]| {
        let out = z3doku().args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let hint = svg(&["hint", common::NOTEBOOK, "-o", "svg"]);
    assert!(hint.contains("#ffe97a"), "the step's cells are shaded");
    assert!(
        hint.contains("Hidden single") || hint.contains("single"),
        "{hint}"
    );
    let candidates = svg(&["candidates", "1...............", "-o", "svg"]);
    assert!(candidates.contains("<svg"));
    let generated = svg(&["generate", "--seed", "1", "-o", "svg", "-q"]);
    assert!(generated.starts_with("<svg"));
}

#[test]
fn pictures_refuse_what_does_not_fit() {
    let out = z3doku()
        .args(["steps", common::NOTEBOOK, "-o", "svg"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--out DIR"));
    let out = z3doku()
        .args(["solve", common::NOTEBOOK, "--out", "x.svg"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("-o svg or -o png"));
    let out = z3doku()
        .args(["solve", common::NOTEBOOK, "-o", "svg", "--model"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn steps_draw_one_picture_per_step() {
    let dir = std::env::temp_dir().join(format!("z3doku-steps-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = z3doku()
        .args(["steps", common::NOTEBOOK, "-o", "svg", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = z3doku().args(["steps", common::NOTEBOOK]).output().unwrap();
    let steps = String::from_utf8(text.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("no technique"))
        .count();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    files.sort();
    assert_eq!(files.len(), steps);
    assert_eq!(files[0].to_str(), Some("step-001.svg"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A 9x9 f-puzzles file with no rule, only what a setter drew: `extra`
/// is its keys beyond `size` and `grid`, and `cells` its grid cells'
/// fields by row-major index.
fn decorated(extra: &str, cells: &[(usize, &str)]) -> Puzzle {
    let grid: Vec<String> = (0..81)
        .map(|k| match cells.iter().find(|(at, _)| *at == k) {
            Some((_, fields)) => format!("{{{fields}}}"),
            None => "{}".into(),
        })
        .collect();
    let rows: Vec<String> = grid
        .chunks(9)
        .map(|r| format!("[{}]", r.join(",")))
        .collect();
    read(&format!(
        r#"{{"size":9,"grid":[{}],{extra}}}"#,
        rows.join(",")
    ))
}

/// Whether the pixel at `(x, y)` (page units) is near `rgb`.
fn colour_at(image: &Raster, (x, y): (f64, f64), rgb: [u8; 3]) -> bool {
    let [r, g, b, _] = image.pixel(x as u32, y as u32);
    let near = |v: u8, w: u8| v.abs_diff(w) < 40;
    near(r, rgb[0]) && near(g, rgb[1]) && near(b, rgb[2])
}

#[test]
fn what_a_setter_drew_stands_where_the_file_puts_it() {
    let puzzle = decorated(
        r##""line":[{"lines":[["R2C2","R2C6"]],"outlineC":"#FF0000","width":0.4}],
        "rectangle":[{"cells":["R5C5"],"baseC":"#0000FF","outlineC":"#0000FF","width":0.8,"height":0.4},
                     {"cells":["R7C2"],"baseC":"#0000FF","outlineC":"#0000FF","width":0.8,"height":0.2,"angle":90}],
        "circle":[{"cells":["R3C8","R4C8"],"baseC":"#00FF00","outlineC":"#000000","width":0.5,"height":0.5}],
        "text":[{"cells":["R0C3"],"value":"W","fontC":"#FF00FF","size":0.8}],
        "cage":[{"cells":["R8C8","R8C9"],"outlineC":"#FF8000"}]"##,
        &[
            (72, r##""c":"#FFFF00""##),
            (73, r##""cArray":["#FF0000","#0000FF"]"##),
        ],
    );
    let drawing = Picture::new(&puzzle).draw();
    let image = raster(&drawing);
    let layout = &drawing.layout;
    let at = |r: usize, c: usize| layout.index((r - 1) * 9 + c - 1);
    let shifted = |b: Rect, dx: f64, dy: f64| {
        let (x, y) = b.center();
        (x + dx * CELL, y + dy * CELL)
    };
    const RED: [u8; 3] = [255, 0, 0];
    const BLUE: [u8; 3] = [0, 0, 255];
    const GREEN: [u8; 3] = [0, 255, 0];
    // The line runs from the centre of r2c2 to that of r2c6, a fifth of a
    // cell wide (half its `width`), and no further.
    for c in 2..=6 {
        assert!(
            colour_at(&image, shifted(at(2, c), 0.0, 0.0), RED),
            "line at r2c{c}"
        );
    }
    assert!(colour_at(&image, shifted(at(2, 4), 0.0, 0.07), RED));
    assert!(
        !colour_at(&image, shifted(at(2, 4), 0.0, 0.15), RED),
        "too wide"
    );
    assert!(
        !colour_at(&image, shifted(at(2, 7), 0.0, 0.0), RED),
        "too long"
    );
    assert!(!colour_at(&image, shifted(at(3, 4), 0.0, 0.0), RED));
    // The rectangle: 0.8 wide, 0.4 high, on r5c5's centre.
    assert!(colour_at(&image, shifted(at(5, 5), 0.0, 0.0), BLUE));
    assert!(colour_at(&image, shifted(at(5, 5), 0.35, 0.0), BLUE));
    assert!(colour_at(&image, shifted(at(5, 5), 0.0, 0.15), BLUE));
    assert!(
        !colour_at(&image, shifted(at(5, 5), 0.0, 0.3), BLUE),
        "too high"
    );
    assert!(
        !colour_at(&image, shifted(at(5, 5), 0.45, 0.0), BLUE),
        "too wide"
    );
    // Turned a quarter clockwise, a wide bar stands upright.
    assert!(colour_at(&image, shifted(at(7, 2), 0.0, 0.3), BLUE));
    assert!(
        !colour_at(&image, shifted(at(7, 2), 0.3, 0.0), BLUE),
        "not turned"
    );
    // The circle over two cells sits on the edge between them.
    let edge = shifted(at(3, 8), 0.0, 0.5);
    assert!(colour_at(&image, (edge.0 + 4.0, edge.1 + 4.0), GREEN));
    assert!(colour_at(&image, (edge.0 - 4.0, edge.1 - 10.0), GREEN));
    assert!(
        !colour_at(&image, shifted(at(3, 8), 0.0, 0.0), GREEN),
        "r3c8's centre is clear"
    );
    assert!(
        !colour_at(&image, shifted(at(3, 8), 0.0, 0.2), GREEN),
        "a quarter cell in radius"
    );
    // The text on the rim above column 3: the page grows for it, and its
    // ink is magenta there.
    assert!(layout.y(0) >= CELL, "room above the grid: {}", layout.y(0));
    let above = layout.place(-1, 2);
    let magenta = (0..above.height as u32)
        .flat_map(|dy| (0..above.width as u32).map(move |dx| (dx, dy)))
        .filter(|&(dx, dy)| {
            colour_at(
                &image,
                (above.x + f64::from(dx), above.y + f64::from(dy)),
                [255, 0, 255],
            )
        })
        .count();
    assert!(magenta > 60, "the text above column 3: {magenta} pixels");
    // The drawn cage, dashed in its colour just inside r8c8 and r8c9.
    let b = at(8, 8);
    let inset = 0.08 * CELL;
    let orange = (0..(2.0 * CELL) as u32)
        .filter(|&dx| colour_at(&image, (b.x + f64::from(dx), b.y + inset), [255, 128, 0]))
        .count();
    assert!(
        orange > 30 && orange < 110,
        "dashed orange along the cage's top: {orange}"
    );
    // Cell colours: r9c1 yellow, r9c2 red on its left and blue on its right.
    assert!(colour_at(
        &image,
        shifted(at(9, 1), 0.3, 0.3),
        [255, 255, 0]
    ));
    assert!(colour_at(&image, shifted(at(9, 2), -0.3, 0.3), RED));
    assert!(colour_at(&image, shifted(at(9, 2), 0.3, 0.3), BLUE));
    // Nothing else is coloured: a plain cell's centre is white.
    assert!(colour_at(
        &image,
        shifted(at(6, 6), 0.0, 0.0),
        [255, 255, 255]
    ));
}

#[test]
fn a_drawing_that_cannot_be_placed_is_named_under_the_grid() {
    let puzzle = decorated(
        r##""rectangle":[{"cells":["R5C5"],"width":"wide"}],
        "line":[{"lines":[["R1C1","R12C1"]]}],
        "text":[{"cells":["R1C1"],"value":"ok","fontC":"blue"}]"##,
        &[],
    );
    let svg = Picture::new(&puzzle).draw().svg;
    assert!(
        svg.contains("f-puzzles `rectangle` 1 is not drawn: `width`"),
        "{svg}"
    );
    assert!(
        svg.contains("f-puzzles `line` 1 is not drawn: &quot;R12C1&quot;"),
        "{svg}"
    );
    assert!(
        svg.contains("f-puzzles `text` 1 is not drawn: `fontC`"),
        "{svg}"
    );
}

#[test]
fn candidates_write_each_marks_count_beside_it() {
    let puzzle =
        "....9..3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....";
    let run = |format: &str| {
        let out = z3doku()
            .args([
                "candidates",
                "--engine",
                "native",
                "--cap",
                "5",
                "-o",
                format,
                puzzle,
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let report: serde_json::Value = serde_json::from_str(&run("json")).unwrap();
    let mut expected: Vec<String> = report["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|cell| cell["counts"].as_object().unwrap().values().cloned())
        .map(|n| {
            let n = n.as_u64().unwrap();
            if n >= 5 {
                format!("{n}+")
            } else {
                n.to_string()
            }
        })
        .collect();
    // The counts are the grey text of the picture, one per pencil mark.
    let svg = run("svg");
    let mut drawn: Vec<String> = svg
        .lines()
        .filter(|l| l.starts_with("<text") && l.contains(r##"fill="#707070""##))
        .map(|l| l[l.find('>').unwrap() + 1..l.find("</text>").unwrap()].to_string())
        .collect();
    expected.sort();
    drawn.sort();
    assert!(expected.len() > 100, "{}", expected.len());
    assert_eq!(drawn, expected);
    assert!(expected.iter().any(|c| c == "1") && expected.iter().any(|c| c == "5+"));
}

/// A 4x4 chaos construction's solution: its digits and the regions found
/// with them (an L, its mirror, and two 2x2 squares' worth of the rest).
fn chaos_solution() -> Grid {
    let digits = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
    let regions = vec![0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3];
    Grid::from_cells(Size::from_side(4).unwrap(), &digits)
        .unwrap()
        .with_regions(regions)
}

#[test]
fn a_chaos_solution_draws_the_regions_it_found() {
    // Without boxes, the regions are the thick lines.
    let puzzle = read("................\nregions ................\nchaos construction\n");
    let solution = chaos_solution();
    let regions = solution.regions().unwrap().to_vec();
    let drawing = Picture::new(&puzzle).digits(&solution).draw();
    let image = raster(&drawing);
    for r in 0..4 {
        for c in 0..4 {
            let here = r * 4 + c;
            let b = drawing.layout.index(here);
            let above = thickness(&image, b.x + b.width / 2.0, b.y, true);
            let parted = r == 0 || regions[here] != regions[here - 4];
            assert_eq!(above >= 3, parted, "above r{}c{}", r + 1, c + 1);
            let left = thickness(&image, b.x, b.y + b.height / 2.0, false);
            let parted = c == 0 || regions[here] != regions[here - 1];
            assert_eq!(left >= 3, parted, "left of r{}c{}", r + 1, c + 1);
        }
    }
    // The puzzle alone has no region lines inside the grid.
    let bare = Picture::new(&puzzle).draw();
    let image = raster(&bare);
    let b = bare.layout.index(5);
    assert!(thickness(&image, b.x + b.width / 2.0, b.y, true) < 3);
    // With boxes kept, the lines stay the boxes' and the regions are
    // tinted: the corner of each cell is no longer white.
    let boxed = read("................\nchaos construction\n");
    let drawing = Picture::new(&boxed).digits(&solution).draw();
    let image = raster(&drawing);
    for index in 0..16 {
        let b = drawing.layout.index(index);
        let [r, g, bl, _] = image.pixel((b.x + 0.15 * CELL) as u32, (b.y + 0.15 * CELL) as u32);
        assert!(r < 250 || g < 250 || bl < 250, "cell {index} is tinted");
    }
}

#[test]
fn chaos_clues_draw_their_control_cells_and_arms() {
    let puzzle = read(
        "................\nregions ................\nchaos construction\n\
         chaos count (r2c2)\nchaos arrow (r3c3) (r3c3 r3c4) (r3c3 r2c3 r1c3)\n",
    );
    let drawing = Picture::new(&puzzle).draw();
    let image = raster(&drawing);
    let at = |r: usize, c: usize| drawing.layout.index((r - 1) * 4 + c - 1);
    // The count's square fills its control cell's centre.
    assert!(grey_at(&image, at(2, 2), 0.0, 0.0), "a square on r2c2");
    // The arrow's circle is a ring round r3c3 (empty at its centre), its
    // shafts run through r2c3 and to r3c4.
    assert!(grey_at(&image, at(3, 3), 0.0, -0.4), "a ring round r3c3");
    assert!(!grey_at(&image, at(3, 3), 0.0, 0.0), "the ring is open");
    assert!(grey_at(&image, at(2, 3), 0.0, 0.0), "an arm through r2c3");
    assert!(!grey_at(&image, at(4, 1), 0.0, 0.0), "nothing in r4c1");
    assert!(
        drawing.svg.contains("chaos count: a square"),
        "{}",
        drawing.svg
    );
    assert!(drawing.svg.contains("chaos arrow: a circle"));
}
