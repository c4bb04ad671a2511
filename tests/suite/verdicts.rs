//! Verdicts with their evidence: counts against an independent counter,
//! two solutions that differ where reported, and minimal conflicting clues.

use crate::common;

use common::{Rng, backtracking_count, classic, example, output_of, shared_puzzles, z3doku};
use z3doku::engine::{Budget, Settings, new_engine};
use z3doku::puzzle::check::{clue_clash, verify_solution};
use z3doku::puzzle::grid::Grid;
use z3doku::puzzle::parse::{parse_line, parse_puzzle};
use z3doku::solve::{Status, count_with, explain, solve_with};

const LIMIT: usize = 10;

/// Puzzles with 0, 1 and several solutions, made from top1465: each
/// original, one with clues removed, and one with a clue changed.
fn mixed_puzzles(count: usize) -> Option<Vec<Grid>> {
    let lines = shared_puzzles("puzzles3_magictour_top1465.txt", 1)?;
    let mut rng = Rng(0x5eed);
    let mut out = Vec::new();
    for line in lines
        .iter()
        .step_by(lines.len() / count.div_ceil(3))
        .take(count.div_ceil(3))
    {
        let puzzle = parse_line(line, 1, None).unwrap_or_else(|e| panic!("{e}"));
        let clues: Vec<usize> = puzzle.clues().map(|(i, _)| i).collect();
        let mut fewer = puzzle.clone();
        for _ in 0..1 + rng.below(3) {
            fewer.set(clues[rng.below(clues.len())], 0);
        }
        let mut changed = puzzle.clone();
        let at = clues[rng.below(clues.len())];
        changed.set(at, (puzzle.get(at) % 9) + 1);
        let mut wrong = puzzle.clone();
        let start = rng.below(81);
        for k in 0..81 * 9 {
            let (cell, digit) = ((start + k / 9) % 81, (k % 9) as u8 + 1);
            let mut candidate = puzzle.clone();
            if puzzle.get(cell) == 0 {
                candidate.set(cell, digit);
                if clue_clash(&classic(&candidate)).is_none()
                    && backtracking_count(&candidate, 1) == 0
                {
                    wrong = candidate;
                    break;
                }
            }
        }
        out.extend([puzzle, fewer, changed, wrong]);
    }
    Some(out)
}

#[test]
fn counts_match_an_independent_counter() {
    let Some(puzzles) = mixed_puzzles(210) else {
        return;
    };
    assert!(puzzles.len() >= 200);
    let mut engine = new_engine(&Settings::default());
    let mut seen = [0usize; 3]; // none, one, several
    for puzzle in &puzzles {
        let mut solutions = Vec::new();
        let count = count_with(
            engine.as_mut(),
            &classic(puzzle),
            LIMIT,
            &Budget::unbounded(),
            &mut |g| solutions.push(g.clone()),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let expected = backtracking_count(puzzle, LIMIT);
        assert_eq!(count.solutions, expected, "{puzzle}");
        assert_eq!(count.limit_reached, expected == LIMIT, "{puzzle}");
        for (k, s) in solutions.iter().enumerate() {
            assert_eq!(verify_solution(&classic(puzzle), s), Ok(()));
            assert!(!solutions[..k].contains(s), "a solution counted twice");
        }
        seen[expected.min(2)] += 1;
    }
    assert!(seen.iter().all(|&n| n >= 20), "too few of a kind: {seen:?}");
}

#[test]
fn count_command_first_line_and_exit_status() {
    let multiple = example("multiple.txt");
    let out = output_of(
        ["count", multiple.to_str().unwrap_or_default(), "--print"],
        0,
    );
    let out = String::from_utf8_lossy(&out);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("16 solutions"));
    let text = std::fs::read_to_string(&multiple).unwrap_or_else(|e| panic!("{e}"));
    let puzzle = classic(&parse_puzzle(&text, None).unwrap_or_else(|e| panic!("{e}")));
    assert_eq!(backtracking_count(puzzle.givens(), 100), 16);
    let printed: Vec<&str> = lines.collect();
    assert_eq!(printed.len(), 16);
    for line in printed {
        let grid = parse_line(line, 1, None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(verify_solution(&puzzle, &grid), Ok(()));
    }
    z3doku()
        .args([
            "count",
            multiple.to_str().unwrap_or_default(),
            "--limit",
            "5",
        ])
        .assert()
        .code(0)
        .stdout("5 solutions (limit reached)\n");
    let clash = example("clash.txt");
    z3doku()
        .args(["count", clash.to_str().unwrap_or_default()])
        .assert()
        .code(1)
        .stdout("0 solutions\n");
}

#[test]
fn two_solutions_differ_exactly_where_reported() {
    let Some(puzzles) = mixed_puzzles(90) else {
        return;
    };
    let several: Vec<&Grid> = puzzles
        .iter()
        .filter(|p| backtracking_count(p, 2) == 2)
        .take(10)
        .collect();
    assert!(several.len() >= 5);
    for puzzle in several {
        let out = output_of(["check", &puzzle.to_line(), "--output", "json"], 3);
        let json: serde_json::Value =
            serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(json["status"], "multiple");
        let grids: Vec<Grid> = json["solutions"]
            .as_array()
            .unwrap_or_else(|| panic!("{json}"))
            .iter()
            .map(|s| {
                parse_line(s.as_str().unwrap_or_default(), 1, None)
                    .unwrap_or_else(|e| panic!("{e}"))
            })
            .collect();
        assert_eq!(grids.len(), 2);
        for g in &grids {
            assert_eq!(verify_solution(&classic(puzzle), g), Ok(()));
        }
        let differing: Vec<String> = grids[0]
            .differing(&grids[1])
            .iter()
            .map(|c| c.to_string())
            .collect();
        assert!(!differing.is_empty());
        assert_eq!(json["differing_cells"], serde_json::json!(differing));
    }
}

#[test]
fn conflicting_clues_are_unsat_and_minimal() {
    let Some(puzzles) = mixed_puzzles(150) else {
        return;
    };
    let unsolvable: Vec<&Grid> = puzzles
        .iter()
        .filter(|p| clue_clash(&classic(p)).is_none() && backtracking_count(p, 1) == 0)
        .take(8)
        .collect();
    assert!(unsolvable.len() >= 5);
    let mut engine = new_engine(&Settings::default());
    for puzzle in unsolvable {
        let mut outcome = solve_with(
            engine.as_mut(),
            &classic(puzzle),
            true,
            &Budget::unbounded(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(outcome.status, Status::None);
        explain(
            engine.as_mut(),
            &mut outcome,
            &Budget::within(Some(std::time::Duration::from_secs(60))),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(outcome.conflict_is_minimal);
        let core = &outcome.conflicting;
        assert!(!core.is_empty() && core.len() <= puzzle.clue_count());
        // Unsat by itself, checked by Z3 and by the independent counter.
        let alone = puzzle.with_clues(core);
        let again = solve_with(
            engine.as_mut(),
            &classic(&alone),
            false,
            &Budget::unbounded(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again.status, Status::None, "{}", outcome.summary());
        assert_eq!(backtracking_count(&alone, 1), 0);
        // Minimal: without any one clue, there is a solution.
        for k in 0..core.len() {
            let mut fewer = core.clone();
            fewer.remove(k);
            assert_eq!(
                backtracking_count(&puzzle.with_clues(&fewer), 1),
                1,
                "{} is not needed",
                core[k]
            );
        }
        assert!(outcome.summary().starts_with(&format!(
            "no solution: these {} clues conflict: ",
            core.len()
        )));
    }
}

#[test]
fn forum_hardest_are_all_unique() {
    let Some(puzzles) = shared_puzzles("puzzles6_forum_hardest_1106.txt", 1) else {
        return;
    };
    let mut engine = new_engine(&Settings::default());
    for line in &puzzles {
        let puzzle = common::puzzle(line);
        let outcome = solve_with(engine.as_mut(), &puzzle, true, &Budget::unbounded())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(outcome.status, Status::Unique, "{line}");
    }
}

#[test]
fn check_prints_the_verdict_line() {
    let run =
        |args: &[&str], code: i32| String::from_utf8_lossy(&output_of(args, code)).into_owned();
    let notebook = example("notebook.txt");
    let notebook = notebook.to_str().unwrap_or_default();
    let unique = run(&["check", notebook], 0);
    assert!(
        unique.starts_with("unique: exactly one solution (26 clues, "),
        "{unique}"
    );
    assert_eq!(unique.lines().count(), 1, "no grid unless asked");
    let with_grid = run(&["check", notebook, "--grid", "-o", "line"], 0);
    assert_eq!(with_grid.lines().nth(1), Some(common::NOTEBOOK_SOLUTION));
    let multiple = example("multiple.txt");
    let multiple = run(&["check", multiple.to_str().unwrap_or_default()], 3);
    assert!(
        multiple.starts_with("not unique: at least 2 solutions, differing at "),
        "{multiple}"
    );
    let clash = example("clash.txt");
    assert_eq!(
        run(&["check", clash.to_str().unwrap_or_default()], 1),
        "no solution: r1c3 and r1c7 both hold 5\n"
    );
    let wrong = common::NOTEBOOK.replacen('.', "5", 1);
    let none = run(&["check", &wrong], 1);
    assert!(none.starts_with("no solution: these "), "{none}");
}
