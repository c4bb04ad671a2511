//! The public puzzle sets in `../shared/data`, solved and checked.

use crate::common;

use common::{output_of, puzzle, shared_puzzles};
use z3doku::engine::{Budget, Settings, new_engine};
use z3doku::puzzle::check::verify_solution;
use z3doku::puzzle::parse::parse_line;
use z3doku::solve::{Status, solve_with};

#[test]
fn top1465_sample_solves_and_checks() {
    let Some(puzzles) = shared_puzzles("puzzles3_magictour_top1465.txt", 4) else {
        return;
    };
    let mut engine = new_engine(&Settings::default());
    for line in &puzzles {
        let puzzle = puzzle(line);
        let outcome = solve_with(engine.as_mut(), &puzzle, false, &Budget::unbounded())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(outcome.status, Status::Solved, "{line}");
        assert_eq!(
            verify_solution(&puzzle, &outcome.solutions[0].grid),
            Ok(()),
            "{line}"
        );
    }
}

#[test]
fn top1465_through_the_binary() {
    let Some(puzzles) = shared_puzzles("puzzles3_magictour_top1465.txt", 73) else {
        return;
    };
    for line in puzzles {
        let out = output_of(["solve", &line, "--output", "line", "--unique"], 0);
        let out = String::from_utf8_lossy(&out);
        let mut lines = out.lines();
        let solution = lines.next().unwrap_or_default();
        assert_eq!(lines.next(), Some("unique"), "{line}");
        let puzzle = puzzle(&line);
        let grid = parse_line(solution, 1, None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(verify_solution(&puzzle, &grid), Ok(()), "{line}");
    }
}
