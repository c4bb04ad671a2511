//! The native engine as the independent referee: its answers (solutions,
//! uniqueness verdicts, counts) must agree with Z3's on the public sets and
//! on puzzles with no solution or several made from them.

use crate::common;

use common::{NOTEBOOK, NOTEBOOK_SOLUTION, classic, output_of, shared_puzzles, z3doku};
use std::ops::ControlFlow;
use z3doku::engine::{Budget, Engine, EngineKind, Limits, Settings, new_engine};
use z3doku::puzzle::check::{clue_clash, verify_solution};
use z3doku::puzzle::grid::{Grid, Size};
use z3doku::puzzle::parse::parse_line;
use z3doku::solve::{Status, solve_with};

fn engine(kind: EngineKind) -> Box<dyn Engine> {
    new_engine(&Settings {
        engine: kind,
        ..Settings::default()
    })
}

fn grid(line: &str) -> Grid {
    parse_line(line, 1, None).unwrap_or_else(|e| panic!("{e}"))
}

/// The solutions of `puzzle`, up to `limit`, each checked and distinct,
/// sorted so that two engines' lists compare.
fn solutions(engine: &mut dyn Engine, givens: &Grid, limit: usize) -> Vec<String> {
    let mut seen = Vec::new();
    let puzzle = classic(givens);
    engine
        .solutions(&puzzle, Limits::solutions(limit), &mut |found| {
            assert_eq!(verify_solution(&puzzle, found.grid), Ok(()), "{puzzle}");
            let line = found.grid.to_line();
            assert!(!seen.contains(&line), "{puzzle}: {line} came twice");
            seen.push(line);
            if seen.len() >= limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap_or_else(|e| panic!("{puzzle}: {e}"));
    seen.sort();
    seen
}

/// Both engines give `puzzle` the same uniqueness verdict and the same
/// solutions; returns the verdict.
fn agree(z3: &mut dyn Engine, native: &mut dyn Engine, givens: &Grid) -> Status {
    let puzzle = &classic(givens);
    let by_z3 = solve_with(z3, puzzle, true, &Budget::unbounded())
        .unwrap_or_else(|e| panic!("{puzzle}: {e}"));
    let by_native = solve_with(native, puzzle, true, &Budget::unbounded())
        .unwrap_or_else(|e| panic!("{puzzle}: {e}"));
    assert_eq!(by_native.status, by_z3.status, "{puzzle}");
    let grids = |o: &z3doku::solve::Outcome| {
        let mut g: Vec<String> = o.solutions.iter().map(|s| s.grid.to_line()).collect();
        g.sort();
        g
    };
    if by_z3.status == Status::Unique {
        assert_eq!(grids(&by_native), grids(&by_z3), "{puzzle}");
    }
    by_z3.status
}

/// Z3 and the native engine agree on every `step`-th puzzle of a set, all
/// of which have exactly one solution.
fn cross_check(name: &str, step: usize) {
    let Some(puzzles) = shared_puzzles(name, step) else {
        return;
    };
    let (mut z3, mut native) = (engine(EngineKind::Z3), engine(EngineKind::Native));
    for line in &puzzles {
        let status = agree(z3.as_mut(), native.as_mut(), &grid(line));
        assert_eq!(status, Status::Unique, "{line}");
    }
}

#[test]
fn agrees_with_z3_on_all_of_top1465() {
    cross_check("puzzles3_magictour_top1465.txt", 1);
}

#[test]
fn agrees_with_z3_on_all_of_forum_hardest() {
    cross_check("puzzles6_forum_hardest_1106.txt", 1);
}

#[test]
fn agrees_with_z3_on_a_sample_of_17_clue() {
    cross_check("puzzles2_17_clue.txt", 250);
}

#[test]
fn solves_every_puzzle_of_every_set_uniquely() {
    let mut native = engine(EngineKind::Native);
    for name in [
        "puzzles2_17_clue.txt",
        "puzzles3_magictour_top1465.txt",
        "puzzles6_forum_hardest_1106.txt",
    ] {
        let Some(puzzles) = shared_puzzles(name, 1) else {
            return;
        };
        for line in &puzzles {
            let found = solutions(native.as_mut(), &grid(line), 2);
            assert_eq!(found.len(), 1, "{line}");
        }
    }
}

/// Puzzles made from a set's: with no solution (a wrong digit at a blank,
/// clashing with no clue), and with a clue or more taken away.
fn variants(line: &str, solution: &str) -> (Option<Grid>, Vec<Grid>) {
    let puzzle = grid(line);
    let solution = grid(solution);
    // A unique puzzle with one more clue that its solution does not have
    // cannot be solved: that solution would solve the original too.
    let wrong = (0..81).filter(|&i| puzzle.get(i) == 0).find_map(|i| {
        (1..=9).filter(|&d| d != solution.get(i)).find_map(|d| {
            let mut p = puzzle.clone();
            p.set(i, d);
            clue_clash(&classic(&p)).is_none().then_some(p)
        })
    });
    let clues: Vec<usize> = puzzle.clues().map(|(i, _)| i).collect();
    let fewer = [1, 2, 4, 8]
        .into_iter()
        .map(|k| {
            let mut p = puzzle.clone();
            for &i in clues.iter().step_by(clues.len() / k).take(k) {
                p.set(i, 0);
            }
            p
        })
        .collect();
    (wrong, fewer)
}

#[test]
fn counts_agree_with_z3_on_puzzles_with_none_or_several() {
    let Some(puzzles) = shared_puzzles("puzzles3_magictour_top1465.txt", 98) else {
        return;
    };
    let Some(hardest) = shared_puzzles("puzzles6_forum_hardest_1106.txt", 75) else {
        return;
    };
    let (mut z3, mut native) = (engine(EngineKind::Z3), engine(EngineKind::Native));
    let (mut none, mut several) = (0, 0);
    for line in puzzles.iter().chain(&hardest) {
        let solution = solutions(native.as_mut(), &grid(line), 2);
        assert_eq!(solution.len(), 1, "{line}");
        let (wrong, fewer) = variants(line, &solution[0]);
        for puzzle in wrong.iter().chain(&fewer) {
            let by_native = solutions(native.as_mut(), puzzle, 10);
            let by_z3 = solutions(z3.as_mut(), puzzle, 10);
            assert_eq!(by_native.len(), by_z3.len(), "{puzzle}");
            if by_z3.len() < 10 {
                // Every solution found by both: the same ones.
                assert_eq!(by_native, by_z3, "{puzzle}");
            }
            none += usize::from(by_z3.is_empty());
            several += usize::from(by_z3.len() >= 2);
            agree(z3.as_mut(), native.as_mut(), puzzle);
        }
        assert!(wrong.is_some_and(|p| solutions(native.as_mut(), &p, 1).is_empty()));
    }
    assert!(
        none >= puzzles.len() + hardest.len(),
        "{none} without a solution"
    );
    assert!(
        several >= puzzles.len(),
        "only {several} with several solutions"
    );
}

#[test]
fn sixteen_by_sixteen() {
    let size = Size::from_side(16).unwrap_or_else(|| panic!("no 16x16"));
    let mut native = engine(EngineKind::Native);
    let empty = Grid::empty(size);
    let filled = solutions(native.as_mut(), &empty, 5);
    assert_eq!(filled.len(), 5);
    // Blank a pattern of cells in a full board: Z3 and native must agree on
    // the verdict and, when unique, the solution.
    let mut z3 = engine(EngineKind::Z3);
    let full = parse_line(&filled[0], 1, Some(size)).unwrap_or_else(|e| panic!("{e}"));
    for (step, expected) in [(2, None), (3, None), (1, Some(Status::Multiple))] {
        let mut puzzle = full.clone();
        for i in (0..256).step_by(step) {
            puzzle.set(i, 0);
        }
        let status = agree(z3.as_mut(), native.as_mut(), &puzzle);
        if let Some(expected) = expected {
            assert_eq!(status, expected);
        }
    }
    // A wrong digit where the full board has another: no solution.
    let mut puzzle = full.clone();
    for i in (0..256).step_by(2) {
        puzzle.set(i, 0);
    }
    let d = full.get(0) % 16 + 1;
    puzzle.set(0, d);
    if clue_clash(&classic(&puzzle)).is_none() {
        assert_eq!(solutions(native.as_mut(), &puzzle, 10).len(), 0);
    }
}

#[test]
fn twenty_five_by_twenty_five() {
    let size = Size::from_side(25).unwrap_or_else(|| panic!("no 25x25"));
    let mut native = engine(EngineKind::Native);
    let filled = solutions(native.as_mut(), &Grid::empty(size), 2);
    assert_eq!(filled.len(), 2);
    let full = parse_line(&filled[0], 1, Some(size)).unwrap_or_else(|e| panic!("{e}"));
    let mut puzzle = full.clone();
    for i in (0..625).step_by(3) {
        puzzle.set(i, 0);
    }
    let found = solutions(native.as_mut(), &puzzle, 2);
    assert!(found.contains(&filled[0]));
}

#[test]
fn the_binary_solves_with_the_native_engine() {
    let out = output_of(
        [
            "solve", NOTEBOOK, "--engine", "native", "--unique", "--output", "line",
        ],
        0,
    );
    assert_eq!(
        String::from_utf8_lossy(&out),
        format!("{NOTEBOOK_SOLUTION}\nunique\n")
    );
    // No solution and several: the same exit statuses as with Z3.
    let mut none = NOTEBOOK.to_string();
    let (i, d) = (0..81)
        .filter(|&i| NOTEBOOK.as_bytes()[i] == b'.')
        .find_map(|i| {
            (b'1'..=b'9')
                .filter(|&d| d != NOTEBOOK_SOLUTION.as_bytes()[i])
                .find(|&d| {
                    let mut p = NOTEBOOK.as_bytes().to_vec();
                    p[i] = d;
                    clue_clash(&classic(&grid(&String::from_utf8_lossy(&p)))).is_none()
                })
                .map(|d| (i, d))
        })
        .unwrap_or_else(|| panic!("no wrong digit"));
    none.replace_range(i..=i, &char::from(d).to_string());
    let several = format!("{}{}", ".".repeat(9), &NOTEBOOK[9..]);
    for (puzzle, code) in [(none.as_str(), 1), (several.as_str(), 3)] {
        for engine in ["z3", "native"] {
            z3doku()
                .args(["solve", puzzle, "--engine", engine, "--unique"])
                .assert()
                .code(code);
        }
    }
}
