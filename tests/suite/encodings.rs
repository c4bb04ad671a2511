//! The three encodings side by side: each solves the same puzzles, they
//! agree on uniqueness and on every solution of puzzles with several, and
//! the exported formulas mean the same to other solvers.

use crate::common;

use common::{NOTEBOOK, NOTEBOOK_SOLUTION, classic, example, output_of, shared_puzzles, z3doku};
use predicates::prelude::*;
use std::collections::BTreeSet;
use std::ops::ControlFlow;
use std::time::Duration;
use z3doku::engine::z3::emit::{dimacs, smt2};
use z3doku::engine::z3::encoding::{self, name, variable};
use z3doku::engine::{Budget, EncodingKind, Engine, Limits, Settings, new_engine};
use z3doku::puzzle::check::verify_solution;
use z3doku::puzzle::grid::{Grid, Size};
use z3doku::puzzle::input::Source;
use z3doku::puzzle::parse::parse_puzzle;
use z3doku::puzzle::rules::Rules;
use z3doku::solve::{Status, solve_with};

fn settings(encoding: EncodingKind) -> Settings {
    Settings {
        encoding,
        ..Settings::default()
    }
}

fn engines() -> Vec<(EncodingKind, Box<dyn Engine>)> {
    EncodingKind::ALL
        .into_iter()
        .map(|kind| (kind, new_engine(&settings(kind))))
        .collect()
}

fn puzzle(text: &str) -> Grid {
    parse_puzzle(text, None).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// A solved board of any size: each row the one above shifted by a box
/// width, and each band shifted by one.
fn solved(size: Size) -> Grid {
    let side = size.side();
    let n = (1..=side).find(|n| n * n == side).unwrap_or(1);
    let mut grid = Grid::empty(size);
    for i in 0..size.cells() {
        let (r, c) = (i / side, i % side);
        grid.set(i, ((r % n * n + r / n + c) % side + 1) as u8);
    }
    grid
}

/// `grid` with the cells that `blank` picks emptied.
fn blanked(grid: &Grid, blank: impl Fn(usize) -> bool) -> Grid {
    let mut puzzle = grid.clone();
    for i in 0..grid.size().cells() {
        if blank(i) {
            puzzle.set(i, 0);
        }
    }
    puzzle
}

/// Every solution of `puzzle` the engine finds, up to `limit`, checked.
fn all_solutions(engine: &mut dyn Engine, givens: &Grid, limit: usize) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let puzzle = &classic(givens);
    engine
        .solutions(puzzle, Limits::solutions(limit), &mut |f| {
            verify_solution(puzzle, f.grid).unwrap_or_else(|e| panic!("{}: {e}", f.grid));
            assert!(found.insert(f.grid.to_line()), "a solution came twice");
            if found.len() >= limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap_or_else(|e| panic!("{e}"));
    found
}

/// Solves each puzzle with every encoding, proving uniqueness, and checks
/// that they agree on the status and (when unique) the solution.
fn agree(puzzles: &[Grid]) {
    let mut engines = engines();
    for puzzle in puzzles {
        let outcomes: Vec<_> = engines
            .iter_mut()
            .map(|(kind, engine)| {
                let outcome = solve_with(
                    engine.as_mut(),
                    &classic(puzzle),
                    true,
                    &Budget::unbounded(),
                )
                .unwrap_or_else(|e| panic!("{}: {puzzle}: {e}", kind.name()));
                (kind.name(), outcome)
            })
            .collect();
        let (first, reference) = &outcomes[0];
        for (kind, outcome) in &outcomes {
            assert_eq!(
                outcome.status, reference.status,
                "{puzzle}: {kind} and {first} disagree"
            );
            if outcome.status == Status::Unique {
                assert_eq!(outcome.solutions[0].grid, reference.solutions[0].grid);
            }
        }
    }
}

#[test]
fn every_encoding_solves_the_examples() {
    let mut puzzles = Vec::new();
    for file in [
        "notebook.txt",
        "lesson5.txt",
        "line.txt",
        "decorated.txt",
        "multiple.txt",
    ] {
        let source = Source::File(example(file));
        let puzzle = source
            .read_puzzle(None)
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        puzzles.push(puzzle.givens().clone());
    }
    agree(&puzzles);
    for (kind, mut engine) in engines() {
        let outcome = solve_with(
            engine.as_mut(),
            &classic(&puzzle(NOTEBOOK)),
            true,
            &Budget::unbounded(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(outcome.status, Status::Unique, "{}", kind.name());
        assert_eq!(outcome.solutions[0].grid.to_line(), NOTEBOOK_SOLUTION);
    }
}

#[test]
fn every_encoding_solves_a_top1465_sample() {
    let Some(lines) = shared_puzzles("puzzles3_magictour_top1465.txt", 49) else {
        return;
    };
    let puzzles: Vec<Grid> = lines.iter().map(|l| puzzle(l)).collect();
    assert!(puzzles.len() >= 30);
    agree(&puzzles);
}

#[test]
fn encodings_agree_on_every_solution_of_open_puzzles() {
    let solution = puzzle(NOTEBOOK_SOLUTION);
    let notebook = puzzle(NOTEBOOK);
    // The notebook's solution with its top band and a few cells below it
    // blank: a handful of solutions.
    let open = blanked(&solution, |i| i < 27 || [30, 40, 50].contains(&i));
    let mut sets = Vec::new();
    for (kind, mut engine) in engines() {
        let found = all_solutions(engine.as_mut(), &open, 1000);
        assert!(found.contains(NOTEBOOK_SOLUTION), "{}", kind.name());
        // Blocking clauses belong to one search: the next search of the
        // same puzzle, and of a unique one, sees none of them.
        assert_eq!(all_solutions(engine.as_mut(), &open, 1000), found);
        assert_eq!(all_solutions(engine.as_mut(), &notebook, 10).len(), 1);
        sets.push(found);
    }
    eprintln!("{} solutions", sets[0].len());
    assert!(
        sets[0].len() > 1 && sets[0].len() < 1000,
        "{}",
        sets[0].len()
    );
    assert!(sets.iter().all(|s| *s == sets[0]));
    // A full board is its own only solution.
    agree(&[solution]);
}

#[test]
fn every_encoding_works_on_4x4_and_16x16() {
    for side in [4, 16] {
        let size = Size::from_side(side).unwrap_or_default();
        let full = solved(size);
        let sparse = blanked(&full, |i| i % 3 != 0);
        let dense = blanked(&full, |i| i % 5 == 0);
        agree(&[full.clone(), sparse.clone(), dense.clone()]);
        for (kind, mut engine) in engines() {
            let outcome = solve_with(
                engine.as_mut(),
                &classic(&dense),
                true,
                &Budget::unbounded(),
            )
            .unwrap_or_else(|e| panic!("{e}"));
            assert!(
                matches!(outcome.status, Status::Unique | Status::Multiple),
                "{} {size}",
                kind.name()
            );
        }
    }
}

#[test]
fn timeouts_give_up() {
    let size = Size::from_side(16).unwrap_or_default();
    let open = blanked(&solved(size), |i| i % 17 != 0);
    for kind in EncodingKind::ALL {
        let outcome = solve_with(
            new_engine(&settings(kind)).as_mut(),
            &classic(&open),
            true,
            &Budget::within(Some(Duration::from_millis(1))),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(outcome.status, Status::GaveUp, "{}", kind.name());
    }
}

#[test]
fn models_name_each_encodings_variables() {
    let notebook = puzzle(NOTEBOOK);
    for kind in EncodingKind::ALL {
        let settings = Settings {
            keep_models: true,
            ..settings(kind)
        };
        let outcome = solve_with(
            new_engine(&settings).as_mut(),
            &classic(&notebook),
            false,
            &Budget::unbounded(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let model = outcome.solutions[0].model.clone().unwrap_or_default();
        let first = match kind {
            EncodingKind::Int => "c_1_1 -> 7",
            EncodingKind::Bool | EncodingKind::Pb => "x_1_1_7 -> true",
        };
        assert!(
            model.lines().any(|l| l == first),
            "{}: {model}",
            kind.name()
        );
        assert_eq!(model.lines().count(), 81, "{}", kind.name());
    }
}

/// Solves DIMACS text with an independent SAT solver and reads the board
/// back through the file's own comment lines.
fn solve_dimacs(text: &str, size: Size) -> Option<Grid> {
    let formula =
        varisat::dimacs::DimacsParser::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let mut solver = varisat::Solver::new();
    solver.add_formula(&formula);
    if !solver.solve().unwrap_or_else(|e| panic!("{e}")) {
        return None;
    }
    let names: std::collections::HashMap<isize, &str> = text
        .lines()
        .filter_map(|l| {
            let mut words = l.strip_prefix("c ")?.split(' ');
            let number = words.next()?.parse().ok()?;
            Some((number, words.next()?))
        })
        .collect();
    let mut grid = Grid::empty(size);
    for lit in solver.model().unwrap_or_default() {
        if lit.is_positive() {
            let cell_digit: Vec<usize> = names[&lit.var().to_dimacs()]
                .split('_')
                .skip(1)
                .map(|n| n.parse().unwrap_or_else(|e| panic!("{e}")))
                .collect();
            let [r, c, d] = cell_digit[..] else {
                panic!("{cell_digit:?}")
            };
            let index = size.index(size.cell(r - 1, c - 1));
            assert_eq!(grid.get(index), 0, "two digits in one cell");
            grid.set(index, d as u8);
        }
    }
    Some(grid)
}

#[test]
fn dimacs_is_solved_by_an_independent_sat_solver() {
    let notebook = puzzle(NOTEBOOK);
    let text = dimacs(&classic(&notebook)).unwrap();
    assert!(text.contains("\np cnf 729 "));
    assert_eq!(
        solve_dimacs(&text, Size::NINE),
        Some(puzzle(NOTEBOOK_SOLUTION))
    );
    for side in [4, 16] {
        let size = Size::from_side(side).unwrap_or_default();
        let open = blanked(&solved(size), |i| i % 4 != 0);
        let open = classic(&open);
        let grid = solve_dimacs(&dimacs(&open).unwrap(), size).unwrap_or_else(|| panic!("{size}"));
        verify_solution(&open, &grid).unwrap_or_else(|e| panic!("{e}"));
    }
    // Clashing clues: no solution, for the SAT solver as for z3doku.
    let clash = source_puzzle("clash.txt");
    assert_eq!(solve_dimacs(&dimacs(&clash).unwrap(), Size::NINE), None);
    // The numbering the comments state is the library's.
    let sixteen = Size::from_side(16).unwrap_or_default();
    let number = variable(sixteen, 16 * 9 + 2, 12);
    assert!(
        dimacs(&classic(&Grid::empty(sixteen)))
            .unwrap()
            .contains(&format!("\nc {number} x_10_3_12\n"))
    );
    assert_eq!(name(sixteen, number), "x_10_3_12");
}

fn source_puzzle(file: &str) -> z3doku::puzzle::Puzzle {
    Source::File(example(file))
        .read_puzzle(None)
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn smt2_parses_back_through_z3_with_the_same_model() {
    let notebook = puzzle(NOTEBOOK);
    for kind in EncodingKind::ALL {
        let text = smt2(&classic(&notebook), kind);
        assert!(text.contains("(check-sat)"), "{}", kind.name());
        let solver = z3::Solver::new();
        solver.from_string(text.as_str());
        assert_eq!(solver.check(), z3::SatResult::Sat, "{}", kind.name());
        let model = solver.get_model().unwrap_or_else(|| panic!("no model"));
        // The parsed constants are the encoding's own (same names, same
        // sorts), so the encoding reads the board from the parsed model.
        let encoding = encoding::build(kind, &Rules::classic(Size::NINE));
        let grid = encoding
            .decode(&model)
            .unwrap_or_else(|| panic!("{}", kind.name()));
        assert_eq!(grid.to_line(), NOTEBOOK_SOLUTION, "{}", kind.name());
        // And the clues alone, without the rules, would not fix the board.
        assert!(text.matches("(assert").count() > notebook.clue_count());
    }
}

#[test]
fn emit_writes_each_format() {
    let out = output_of(["emit", NOTEBOOK, "--format", "dimacs"], 0);
    let text = String::from_utf8(out).unwrap_or_default();
    assert_eq!(
        solve_dimacs(&text, Size::NINE),
        Some(puzzle(NOTEBOOK_SOLUTION))
    );
    for encoding in ["int", "bool", "pb"] {
        let out = output_of(["emit", NOTEBOOK, "--encoding", encoding], 0);
        let text = String::from_utf8(out).unwrap_or_default();
        assert!(text.starts_with("; z3doku: 9x9 puzzle"), "{text}");
        assert!(text.contains("(check-sat)"));
    }
    z3doku().args(["emit", "not-a-file.txt"]).assert().code(2);
}

#[test]
fn bench_checks_and_tabulates_a_small_file() {
    let dir = std::env::temp_dir().join(format!("z3doku-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let file = dir.join("three.txt");
    let lines = format!("# three puzzles\n{NOTEBOOK}\n\n{NOTEBOOK_SOLUTION}\n{NOTEBOOK}\n");
    std::fs::write(&file, lines).unwrap_or_else(|e| panic!("{e}"));
    let file = file.to_str().unwrap_or_default();
    let out = output_of(
        [
            "bench",
            file,
            "--unique",
            "--encoding",
            "int,bool",
            "--encoding",
            "pb",
        ],
        0,
    );
    let table = String::from_utf8(out).unwrap_or_default();
    let rows: Vec<&str> = table.lines().filter(|l| l.starts_with("| z3 ")).collect();
    assert_eq!(rows.len(), 3, "{table}");
    for (row, encoding) in rows.iter().zip(["int", "bool", "pb"]) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        assert_eq!(cells[2], encoding);
        assert_eq!(&cells[3..7], ["3", "3", "3", "0"], "{row}");
    }
    assert!(table.contains("median ms") && table.contains("vs fastest"));
    let out = output_of(["bench", file, "--limit", "1", "--encoding", "bool"], 0);
    assert!(
        String::from_utf8(out)
            .unwrap_or_default()
            .contains("| bool     |       1 |")
    );
    std::fs::write(dir.join("bad.txt"), "12345\n").unwrap_or_else(|e| panic!("{e}"));
    z3doku()
        .args(["bench", dir.join("bad.txt").to_str().unwrap_or_default()])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("line 1"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stats_print_a_table_on_stderr() {
    for encoding in ["int", "bool", "pb"] {
        z3doku()
            .args([
                "solve",
                NOTEBOOK,
                "-o",
                "line",
                "--stats",
                "--encoding",
                encoding,
            ])
            .assert()
            .success()
            .stdout(format!("{NOTEBOOK_SOLUTION}\n"))
            .stderr(
                predicates::str::contains("statistic").and(predicates::str::contains("memory")),
            );
    }
}
