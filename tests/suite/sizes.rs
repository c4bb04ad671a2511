//! Boards of every side, 1x1 to 16x16 and 25x25, end to end: the default
//! regions f-puzzles draws, Latin squares where there are none.

use crate::common;

use common::{backtracking_count, example, output_of, region_shape, z3doku};
use z3doku::engine::{Budget, Settings, new_engine};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::check::verify_solution;
use z3doku::puzzle::grid::{Grid, Size};
use z3doku::puzzle::parse::parse_puzzle;
use z3doku::solve::{Status, count_with, solve_with};

fn read(name: &str) -> Puzzle {
    let text = std::fs::read_to_string(example(name)).unwrap_or_else(|e| panic!("{e}"));
    Puzzle::classic(parse_puzzle(&text, None).unwrap_or_else(|e| panic!("{name}: {e}")))
}

fn empty(side: usize) -> Puzzle {
    Puzzle::classic(Grid::empty(
        Size::from_side(side).unwrap_or_else(|| panic!("{side}")),
    ))
}

#[test]
fn empty_four_by_four_has_288_solutions() {
    let empty = empty(4);
    let mut engine = new_engine(&Settings::default());
    let count = count_with(
        engine.as_mut(),
        &empty,
        1000,
        &Budget::unbounded(),
        &mut |_| {},
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(count.solutions, 288);
    assert!(!count.limit_reached);
    assert_eq!(backtracking_count(empty.givens(), 1000), 288);
    z3doku()
        .args(["count", &".".repeat(16)])
        .assert()
        .code(0)
        .stdout("288 solutions\n");
}

#[test]
fn shipped_puzzles_of_every_size_are_unique() {
    let mut engine = new_engine(&Settings::default());
    for (name, side) in [
        ("4x4.txt", 4),
        ("6x6.txt", 6),
        ("8x8.txt", 8),
        ("notebook.txt", 9),
        ("12x12.txt", 12),
        ("16x16.txt", 16),
        ("25x25.txt", 25),
    ] {
        let puzzle = read(name);
        assert_eq!(puzzle.size().side(), side);
        let outcome = solve_with(engine.as_mut(), &puzzle, true, &Budget::unbounded())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(outcome.status, Status::Unique, "{name}");
        assert_eq!(verify_solution(&puzzle, &outcome.solutions[0].grid), Ok(()));
        if side <= 16 {
            assert_eq!(backtracking_count(puzzle.givens(), 2), 1, "{name}");
        }
    }
}

#[test]
fn large_boards_from_the_command_line() {
    for (name, side) in [("16x16.txt", 16), ("25x25.txt", 25)] {
        let path = example(name);
        let path = path.to_str().unwrap_or_default();
        let puzzle = read(name);
        // Every output form reads back as a solution of the puzzle.
        for form in ["line", "pretty", "matrix"] {
            let out = output_of(["solve", path, "-o", form], 0);
            let text = String::from_utf8_lossy(&out);
            let grid =
                parse_puzzle(&text, None).unwrap_or_else(|e| panic!("{name} {form}: {e}\n{text}"));
            assert_eq!(grid.size().side(), side);
            assert_eq!(verify_solution(&puzzle, &grid), Ok(()), "{name} {form}");
        }
    }
}

#[test]
fn pretty_keeps_box_lines_on_a_16x16() {
    let path = example("16x16.txt");
    let out = output_of(["solve", path.to_str().unwrap_or_default()], 0);
    let text = String::from_utf8_lossy(&out);
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 16 + 5, "16 rows, 3 box lines, top and bottom");
    assert!(rows[5].starts_with('├'));
    assert_eq!(rows[1].matches('│').count(), 5);
}

#[test]
fn size_flag_and_model_names() {
    // 16 cells read as a 4x4 by default; --size 9 refuses them.
    let four = ".3....1.32.1....";
    z3doku()
        .args(["solve", four, "-o", "line"])
        .assert()
        .code(0);
    z3doku()
        .args(["solve", four, "--size", "9"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("16 cells, but a puzzle has 81"));
    let path = example("16x16.txt");
    let out = output_of(
        [
            "solve",
            path.to_str().unwrap_or_default(),
            "--model",
            "-o",
            "line",
        ],
        0,
    );
    let text = String::from_utf8_lossy(&out);
    assert!(text.contains("c_16_16 -> "), "{text}");
    assert_eq!(text.lines().filter(|l| l.contains(" -> ")).count(), 256);
}

#[test]
fn contradictions_on_a_4x4() {
    z3doku()
        .args(["check", "11.............."])
        .assert()
        .code(1)
        .stdout("no solution: r1c1 and r1c2 both hold 1\n");
    // r1c1 must be 1 (its row holds 2, 3, 4), but column 1 has its 1 at r3c1.
    z3doku()
        .args(["check", ".234....1......."])
        .assert()
        .code(1)
        .stdout("no solution: these 4 clues conflict: r1c2=2 r1c3=3 r1c4=4 r3c1=1\n");
}

#[test]
fn empty_latin_squares_count_right() {
    // Sides 3 and 5 have no regions: the counts are those of Latin squares.
    for (side, count) in [(3, "12"), (5, "161280")] {
        z3doku()
            .args(["count", &".".repeat(side * side), "--engine", "native"])
            .args(["--limit", "200000"])
            .assert()
            .code(0)
            .stdout(format!("{count} solutions\n"));
    }
    for settings in common::every_engine() {
        let mut engine = new_engine(&settings);
        let count = count_with(
            engine.as_mut(),
            &empty(3),
            100,
            &Budget::unbounded(),
            &mut |_| {},
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(count.solutions, 12, "{settings:?}");
    }
    assert_eq!(backtracking_count(empty(3).givens(), 100), 12);
}

#[test]
fn solutions_of_empty_boards_respect_the_region_shapes() {
    for (side, shape) in [(6, (2, 3)), (8, (2, 4)), (12, (3, 4))] {
        assert_eq!(region_shape(side), Some(shape));
        let (height, width) = shape;
        for settings in common::every_engine() {
            let mut engine = new_engine(&settings);
            let mut seen = 0;
            count_with(
                engine.as_mut(),
                &empty(side),
                3,
                &Budget::unbounded(),
                &mut |grid| {
                    seen += 1;
                    // Each region, worked out here from its shape, holds every
                    // digit once.
                    for top in (0..side).step_by(height) {
                        for left in (0..side).step_by(width) {
                            let mut digits: Vec<u8> = (0..side)
                                .map(|k| grid.get((top + k / width) * side + left + k % width))
                                .collect();
                            digits.sort_unstable();
                            let all: Vec<u8> = (1..=side as u8).collect();
                            assert_eq!(digits, all, "{side}x{side} {settings:?}: {grid}");
                        }
                    }
                },
            )
            .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(seen, 3, "{side}x{side} {settings:?}");
        }
    }
}

#[test]
fn tiny_boards_from_the_command_line() {
    z3doku()
        .args(["solve", "1", "-o", "line"])
        .assert()
        .code(0)
        .stdout("1\n");
    z3doku()
        .args(["check", "1.2."])
        .assert()
        .code(0)
        .stdout(predicates::str::starts_with("unique"));
    z3doku()
        .args(["count", "...."])
        .assert()
        .code(0)
        .stdout("2 solutions\n");
}
