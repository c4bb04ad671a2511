//! `minimize --rules`: which rules a puzzle stays unique without, and a
//! puzzle with only the ones it needs. The result is checked outside the
//! minimization: its solution by the independent checker, its uniqueness
//! by both engines, and the written puzzle read back.

use crate::common;

use common::{NOTEBOOK, NOTEBOOK_SOLUTION, z3doku};
use predicates::prelude::*;
use z3doku::engine::{Budget, EncodingKind, Engine, EngineKind, Settings, new_engine};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::check::verify_solution;
use z3doku::puzzle::grid::Grid;
use z3doku::puzzle::input::Source;
use z3doku::puzzle::parse::parse_puzzle;
use z3doku::puzzle::rules::RuleItem;
use z3doku::solve::minimize::{Minimized, minimize_rules_with, parse_rule_items};
use z3doku::solve::{Status, solve_with};

fn engine(kind: EngineKind) -> Box<dyn Engine> {
    new_engine(&Settings {
        engine: kind,
        encoding: EncodingKind::Bool,
        ..Settings::default()
    })
}

/// The notebook's puzzle without its r1c5 (needed: without it the puzzle
/// has several solutions), and two cages its solution satisfies: one that
/// stands in for r1c5 (r1c5 9 + r1c6 4), and one the givens make
/// redundant (r9c8 8 + r9c9 6).
fn two_cages() -> String {
    let mut grid: Vec<u8> = NOTEBOOK.bytes().collect();
    assert_eq!(grid[4], b'9');
    grid[4] = b'.';
    format!(
        "{}\ncage 13 (r1c5 r1c6)\ncage 14 (r9c8 r9c9)\n",
        String::from_utf8(grid).unwrap()
    )
}

fn read(text: &str) -> Puzzle {
    Source::Text(text.to_string())
        .read_puzzle_and_form(None)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .0
}

fn rule_names(puzzle: &Puzzle) -> Vec<String> {
    let rules = puzzle.rules();
    rules
        .items()
        .into_iter()
        .map(|i| rules.item_name(i))
        .collect()
}

fn minimize(kind: EngineKind, puzzle: &Puzzle, keep: &[RuleItem]) -> Minimized {
    minimize_rules_with(engine(kind).as_mut(), puzzle, keep, &Budget::unbounded())
        .unwrap_or_else(|e| panic!("{e}"))
}

/// `puzzle` has exactly one solution, `solution`, say both engines, and
/// the independent checker takes it.
fn assert_unique(puzzle: &Puzzle, solution: &str) {
    let solution = parse_puzzle(solution, None).unwrap();
    verify_solution(puzzle, &solution).unwrap_or_else(|e| panic!("{e}"));
    for kind in [EngineKind::Native, EngineKind::Z3] {
        let outcome =
            solve_with(engine(kind).as_mut(), puzzle, true, &Budget::unbounded()).unwrap();
        assert_eq!(
            outcome.status,
            Status::Unique,
            "{kind:?}: {}",
            outcome.summary()
        );
        let found: &Grid = &outcome.solutions[0].grid;
        assert_eq!(found, &solution, "{kind:?}");
    }
}

#[test]
fn a_redundant_cage_is_dropped_and_the_puzzle_stays_unique() {
    let puzzle = read(&two_cages());
    assert_eq!(
        rule_names(&puzzle),
        ["cage 13 (r1c5 r1c6)", "cage 14 (r9c8 r9c9)"]
    );
    // Without the first cage r1c5 is open: not unique.
    let without = Puzzle::new(
        puzzle.givens().clone(),
        puzzle.rules().without(&[RuleItem::Constraint(0)]).unwrap(),
    );
    let outcome = solve_with(
        engine(EngineKind::Native).as_mut(),
        &without,
        true,
        &Budget::unbounded(),
    )
    .unwrap();
    assert_eq!(outcome.status, Status::Multiple);
    let native = minimize(EngineKind::Native, &puzzle, &[]);
    let z3 = minimize(EngineKind::Z3, &puzzle, &[]);
    for m in [&native, &z3] {
        assert_eq!(m.outcome.status, Status::Unique, "{}", m.summary());
        assert_eq!(m.needed_rules, ["cage 13 (r1c5 r1c6)"]);
        assert_eq!(m.redundant_rules, ["cage 14 (r9c8 r9c9)"]);
        assert_eq!(m.kept_rules, ["cage 13 (r1c5 r1c6)"]);
        let minimal = m.minimal.as_ref().unwrap();
        assert_eq!(minimal.givens(), puzzle.givens(), "every given stays");
        assert_eq!(rule_names(minimal), ["cage 13 (r1c5 r1c6)"]);
        assert_unique(minimal, NOTEBOOK_SOLUTION);
    }
    assert!(
        native
            .summary()
            .starts_with("2 rules: 1 needed, 1 redundant; a minimal puzzle keeps 1")
    );
    // Kept, the redundant cage stays.
    let keep = parse_rule_items("#2", &puzzle).unwrap();
    assert_eq!(keep, [RuleItem::Constraint(1)]);
    let kept = minimize(EngineKind::Native, &puzzle, &keep);
    assert_eq!(
        rule_names(kept.minimal.as_ref().unwrap()),
        ["cage 13 (r1c5 r1c6)", "cage 14 (r9c8 r9c9)"]
    );
    // Named by its line, in any case and spacing, it is the same rule.
    assert_eq!(
        parse_rule_items("CAGE 14 ( r9c8  r9c9 )", &puzzle).unwrap(),
        keep
    );
}

#[test]
fn rule_names_that_are_not_the_puzzles_are_errors_naming_them() {
    let puzzle = read(&two_cages());
    for (name, says) in [
        ("cage 15 (r9c8 r9c9)", "is not a rule of this puzzle"),
        ("#3", "the puzzle's rules are #1 to #2"),
        ("#0", "is not a rule's number"),
        ("bananas r1c1", "is not a rule line"),
    ] {
        let error = parse_rule_items(&format!("#1; {name}"), &puzzle).unwrap_err();
        assert_eq!(error.name, name);
        assert!(error.to_string().contains(says), "{error}");
        assert!(error.to_string().contains(name), "{error}");
    }
}

/// Every pair of orthogonal neighbours of the notebook's solution whose
/// digits are consecutive, as white dots.
fn consecutive_dots() -> Vec<String> {
    let digits: Vec<i32> = NOTEBOOK_SOLUTION
        .bytes()
        .map(|b| i32::from(b - b'0'))
        .collect();
    let mut dots = Vec::new();
    for r in 0..9 {
        for c in 0..9 {
            for (dr, dc) in [(0, 1), (1, 0)] {
                let (r2, c2) = (r + dr, c + dc);
                if r2 < 9 && c2 < 9 && (digits[r * 9 + c] - digits[r2 * 9 + c2]).abs() == 1 {
                    dots.push(format!(
                        "white dot 1 r{}c{} r{}c{}",
                        r + 1,
                        c + 1,
                        r2 + 1,
                        c2 + 1
                    ));
                }
            }
        }
    }
    dots
}

#[test]
fn a_dot_that_lifts_a_negative_rule_is_needed_until_the_rule_goes() {
    // The notebook's givens (unique by themselves), nonconsecutive, and a
    // white dot on every consecutive pair of the solution. Each dot is
    // needed on its own: without it the solution breaks nonconsecutive.
    // Nonconsecutive is redundant, and once it is gone so is every dot:
    // dropping a dot tightens the board here, which the deletion must
    // notice to reach a minimal puzzle.
    let dots = consecutive_dots();
    assert!(dots.len() > 5);
    let text = format!("{NOTEBOOK}\nnonconsecutive\n{}\n", dots.join("\n"));
    let puzzle = read(&text);
    assert_unique(&puzzle, NOTEBOOK_SOLUTION);
    let m = minimize(EngineKind::Native, &puzzle, &[]);
    assert_eq!(m.redundant_rules, ["nonconsecutive"]);
    assert_eq!(m.needed_rules.len(), dots.len());
    assert!(m.kept_rules.is_empty(), "{:?}", m.kept_rules);
    let minimal = m.minimal.unwrap();
    assert!(minimal.rules().is_classic());
    assert_unique(&minimal, NOTEBOOK_SOLUTION);
}

#[test]
fn the_command_prints_the_rules_and_a_puzzle_that_reads_back() {
    // The puzzle comes on standard input, as a file's text would.
    let file = "-";
    // Text: the givens and the needed cage, which reads back unique.
    let out = z3doku()
        .args([
            "minimize", "--rules", file, "-o", "text", "--engine", "native",
        ])
        .write_stdin(two_cages())
        .assert()
        .code(0)
        .stderr(predicate::str::contains(
            "2 rules: 1 needed, 1 redundant; a minimal puzzle keeps 1",
        ))
        .stderr(predicate::str::contains(
            "needed:\n  #1 cage 13 (r1c5 r1c6)\nredundant:\n  #2 cage 14 (r9c8 r9c9)\n",
        ))
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.ends_with("cage 13 (r1c5 r1c6)\n"), "{text}");
    let back = read(&text);
    assert_eq!(rule_names(&back), ["cage 13 (r1c5 r1c6)"]);
    assert_unique(&back, NOTEBOOK_SOLUTION);
    // f-puzzles: the link reads back as the same puzzle.
    let out = z3doku()
        .args([
            "minimize", "--rules", file, "-o", "fpuzzles", "--engine", "native", "--verify",
        ])
        .write_stdin(two_cages())
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let link = String::from_utf8(out).unwrap();
    let back = read(link.trim());
    assert_eq!(rule_names(&back), ["cage 13 (r1c5 r1c6)"]);
    assert_eq!(back.givens(), read(&text).givens());
    assert_unique(&back, NOTEBOOK_SOLUTION);
    // JSON names the rules.
    let out = z3doku()
        .args([
            "minimize",
            "--rules",
            file,
            "-o",
            "json",
            "--keep",
            "cage 14 (r9c8 r9c9)",
        ])
        .write_stdin(two_cages())
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        json["needed_rules"],
        serde_json::json!(["cage 13 (r1c5 r1c6)"])
    );
    assert_eq!(
        json["redundant_rules"],
        serde_json::json!(["cage 14 (r9c8 r9c9)"])
    );
    assert_eq!(
        json["kept_rules"],
        serde_json::json!(["cage 13 (r1c5 r1c6)", "cage 14 (r9c8 r9c9)"])
    );
    let back = read(json["minimal"].as_str().unwrap());
    assert_eq!(rule_names(&back).len(), 2);
    // A name the puzzle does not have is an input error naming it.
    z3doku()
        .args([
            "minimize",
            "--rules",
            file,
            "--keep",
            "#1; cage 15 (r9c8 r9c9)",
        ])
        .write_stdin(two_cages())
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "--keep: \"cage 15 (r9c8 r9c9)\" is not a rule of this puzzle",
        ));
}
