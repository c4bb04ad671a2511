//! Pictures, checked by their pixels: each SVG is rasterised with the
//! renderer `-o png` uses, and the tests read the ink where the rules and
//! the solution say it must be (and must not be). A browser test compares
//! headless Chromium's rendering of the same SVG when it is installed.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // a failed expectation panics, as a test should

mod common;

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
                let ink = |image: &Raster, r: Rect| {
                    image.ink(r.x + 2.0, r.y + 2.0, r.width - 4.0, r.height - 4.0)
                };
                (ink(&image, a) - ink(&bare, b)).abs() > 0.01
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
    let drawing = Picture::new(&puzzle).digits(&solution).draw();
    let ours = raster(&drawing);
    let dir = std::env::temp_dir().join(format!("z3doku-chromium-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("killer.svg");
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
    for index in 0..81 {
        let b = drawing.layout.index(index);
        let a = ours.ink(b.x + 3.0, b.y + 3.0, b.width - 6.0, b.height - 6.0);
        let t = theirs.ink(b.x + 3.0, b.y + 3.0, b.width - 6.0, b.height - 6.0);
        worst = worst.max((a - t).abs());
    }
    let width = ours.width().min(theirs.width());
    let height = ours.height().min(theirs.height());
    let mut total = 0.0;
    for y in 0..height {
        for x in 0..width {
            total += (ours.darkness(x, y) - theirs.darkness(x, y)).abs();
        }
    }
    let mean = total / f64::from(width * height);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(worst < 0.06, "a cell's ink differs by {worst}");
    assert!(mean < 0.03, "the pages differ by {mean} on average");
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
