//! Rules written as formulas (`formula EXPR`, `smt (assert …)`), on every
//! engine and encoding: puzzles that are unique with a formula and not
//! without it, and random formulas whose solutions every engine, every
//! encoding and the checker agree on.

use crate::common;

use proptest::prelude::*;
use std::collections::BTreeSet;
use std::time::Duration;
use z3doku::engine::contract::{EncodingKind, EngineKind, Settings};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::check::verify_solution;
use z3doku::puzzle::grid::Grid;
use z3doku::puzzle::input::Source;
use z3doku::solve::{Pipeline, Request};

fn settings(engine: EngineKind, encoding: EncodingKind) -> Settings {
    Settings {
        engine,
        encoding,
        ..Settings::default()
    }
}

/// Every engine and encoding: native, then Z3 in each encoding.
fn all_settings() -> Vec<Settings> {
    let mut all = vec![settings(EngineKind::Native, EncodingKind::Int)];
    all.extend(
        EncodingKind::ALL
            .iter()
            .map(|&e| settings(EngineKind::Z3, e)),
    );
    all
}

fn name(settings: &Settings) -> String {
    match settings.engine {
        EngineKind::Native => "native".into(),
        _ => format!("z3/{}", settings.encoding.name()),
    }
}

/// Up to `limit` solutions of `puzzle`, each passed by the checker.
fn solutions(settings: &Settings, puzzle: &Puzzle, limit: usize) -> Vec<Grid> {
    let mut pipeline = Pipeline::new(Request {
        settings: settings.clone(),
        timeout: Some(Duration::from_secs(60)),
        ..Request::default()
    });
    let mut found = Vec::new();
    let count = pipeline
        .count(puzzle, limit, &mut |grid| found.push(grid.clone()))
        .unwrap_or_else(|e| panic!("{}: {e}", name(settings)));
    assert_eq!(count.gave_up, None, "{}: {puzzle}", name(settings));
    for grid in &found {
        verify_solution(puzzle, grid).unwrap_or_else(|e| panic!("{}: {e}", name(settings)));
    }
    found
}

/// The puzzle of `text` (a grid, then rule lines).
fn read(text: &str) -> Result<Puzzle, String> {
    Source::Text(text.to_string())
        .read_puzzle(None)
        .map_err(|e| e.to_string())
}

/// Formulas, each of which makes a puzzle unique that is not without it.
/// The second divides a negative difference: under truncation rather than
/// SMT-LIB's division it would allow other digits.
const CASES: &[&str] = &[
    "formula r1c1 + r1c2 = 2 * r3c3",
    "formula (r1c1 - r1c9) / 2 = -3 and (r1c1 - r1c9) % 4 = 2",
    "formula abs(r2c1 - r2c2) = 5 or r2c1 = 9\nformula r5c5 - r5c6 = 7",
    "formula max(r5c5, r5c6) - min(r5c5, r5c6) = 7 and r5c5 > r5c6",
    "formula r1c1 * r2c2 - r3c3 * r4c4 = 10",
    "formula sum(r1c1 r2c2 r3c3 r4c4 r5c5) = 2 * r9c9 + 20",
    "formula count(9, r1c1, r2c5, r3c9) = 2 and r4c4 / (r5c5 - 5) = -2",
    "formula if r9c1 > 5 then distinct(r9c1, r8c2 + 1, r7c3 + 2) else r9c1 = r8c3",
    "smt (assert (= (mod (- c_1_1 c_2_2) 3) 0)) (assert (> (* c_1_1 c_2_2) 40))",
    "smt (assert (=> (< c_1_1 5) (= (div (- c_1_1 9) c_1_2) (- 2))))",
];

/// As `tests/suite/rule_kinds.rs` does: a board that keeps the rule, givens off
/// it until the puzzle is unique, then every given the rule makes
/// unneeded dropped; every engine and encoding finds that board alone, and
/// without the rule the givens leave several.
fn decides(rule: &str) {
    let empty = ".".repeat(81);
    let rules = read(&format!("{empty}\n{rule}")).unwrap_or_else(|e| panic!("{rule}: {e}"));
    let plain = read(&empty).unwrap();
    let native = settings(EngineKind::Native, EncodingKind::Int);
    let board = solutions(&native, &rules, 1)
        .pop()
        .unwrap_or_else(|| panic!("{rule}: no board keeps it"));
    let unique =
        |givens: &Grid| solutions(&native, &rules.with_givens(givens.clone()), 2).len() == 1;
    // Givens minimal under the rule may leave the board unique without it
    // too (a weak rule, or an unlucky order): then another order of the
    // cells is tried, so the puzzle is one the rule decides.
    let mut chosen = None;
    for step in [37, 41, 43, 47, 53, 59, 61, 67] {
        let order: Vec<usize> = (0..81).map(|k| k * step % 81).collect();
        let mut givens = Grid::empty(board.size());
        for &cell in &order {
            if unique(&givens) {
                break;
            }
            givens.set(cell, board.get(cell));
        }
        for &cell in &order {
            if givens.get(cell) != 0 {
                let mut fewer = givens.clone();
                fewer.set(cell, 0);
                if unique(&fewer) {
                    givens = fewer;
                }
            }
        }
        if solutions(&native, &plain.with_givens(givens.clone()), 2).len() == 2 {
            chosen = Some(givens);
            break;
        }
    }
    let givens = chosen.unwrap_or_else(|| panic!("{rule}: no order of givens needs the rule"));
    let puzzle = rules.with_givens(givens.clone());
    for settings in all_settings() {
        let found = solutions(&settings, &puzzle, 2);
        assert_eq!(found, vec![board.clone()], "{rule}: {}", name(&settings));
    }
    let without = plain.with_givens(givens.clone());
    for settings in all_settings() {
        assert_eq!(
            solutions(&settings, &without, 2).len(),
            2,
            "{rule}: {} is unique without it ({})",
            givens.to_line(),
            name(&settings)
        );
    }
}

#[test]
fn each_formula_decides_a_puzzle_on_every_engine() {
    for rule in CASES {
        decides(rule);
    }
}

#[test]
fn a_formula_line_and_its_smt_line_agree() {
    // The same rule in both syntaxes, with negative operands in the
    // division and remainder: the same solutions, counted to a limit.
    let empty = ".".repeat(16);
    let formula = read(&format!(
        "{empty}\nformula (r1c1 - r2c2 - 2) / 2 = (r1c2 - 4) % 3 - 1"
    ))
    .unwrap();
    let smt = read(&format!(
        "{empty}\nsmt (assert (= (div (- (- c_1_1 c_2_2) 2) 2) (- (mod (- c_1_2 4) 3) 1)))"
    ))
    .unwrap();
    for settings in all_settings() {
        let a: BTreeSet<String> = solutions(&settings, &formula, 300)
            .iter()
            .map(Grid::to_line)
            .collect();
        let b: BTreeSet<String> = solutions(&settings, &smt, 300)
            .iter()
            .map(Grid::to_line)
            .collect();
        assert!(!a.is_empty() && a.len() < 288, "{}", a.len());
        assert_eq!(a, b, "{}", name(&settings));
    }
}

/// A random number over the cells of a 4x4 board, as `formula` text.
fn number() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        (1..=4u8, 1..=4u8).prop_map(|(r, c)| format!("r{r}c{c}")),
        (-4..=6i32).prop_map(|n| n.to_string()),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} + {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} - {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} * {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} / {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} % {b})")),
            inner.clone().prop_map(|a| format!("abs({a})")),
            inner.clone().prop_map(|a| format!("-{a}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("min({a}, {b})")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(a, b, c)| format!("max({a}, {b}, {c})")),
            (inner.clone(), inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(a, b, c, d)| format!("(if {a} < {b} then {c} else {d})")),
            (1..=4u8, inner.clone(), inner.clone())
                .prop_map(|(d, a, b)| format!("count({d}, {a}, {b}, r1c1)")),
            (inner.clone(), inner).prop_map(|(a, b)| format!("sum({a}, {b}, r4c4)")),
        ]
    })
}

/// A random condition over the cells of a 4x4 board.
fn condition() -> impl Strategy<Value = String> {
    let compare = (
        number(),
        prop::sample::select(vec!["=", "!=", "<", "<=", ">", ">="]),
        number(),
    )
        .prop_map(|(a, op, b)| format!("({a} {op} {b})"));
    let leaf = prop_oneof![
        4 => compare,
        1 => (number(), number(), number()).prop_map(|(a, b, c)| format!("distinct({a}, {b}, {c})")),
    ];
    leaf.prop_recursive(2, 6, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} and {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} or {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} => {b})")),
            inner.clone().prop_map(|a| format!("not {a}")),
            (inner.clone(), inner.clone(), inner)
                .prop_map(|(a, b, c)| format!("(if {a} then {b} else {c})")),
        ]
    })
}

/// Every solution of the empty 4x4 board, by the native engine.
fn every_four_by_four() -> Vec<Grid> {
    let empty = read(&".".repeat(16)).unwrap();
    let all = solutions(
        &settings(EngineKind::Native, EncodingKind::Int),
        &empty,
        300,
    );
    assert_eq!(all.len(), 288);
    all
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// A random formula on 4x4: the solutions each engine and encoding
    /// finds are exactly the boards of the classic 288 on which the
    /// checker finds it true.
    #[test]
    fn random_formulas_mean_the_same_everywhere(formula in condition()) {
        let text = format!("{}\nformula {formula}", ".".repeat(16));
        // A literal 0 divisor is refused by the reader, and so is a
        // formula whose numbers could pass 2^62: nothing to compare.
        let puzzle = match read(&text) {
            Ok(puzzle) => puzzle,
            Err(e) => {
                prop_assert!(e.contains("division by zero") || e.contains("beyond"), "{}", e);
                return Ok(());
            }
        };
        let expected: BTreeSet<String> = every_four_by_four()
            .iter()
            .filter(|grid| verify_solution(&puzzle, grid).is_ok())
            .map(Grid::to_line)
            .collect();
        for settings in all_settings() {
            let found: BTreeSet<String> =
                solutions(&settings, &puzzle, 300).iter().map(Grid::to_line).collect();
            prop_assert_eq!(&found, &expected, "{}: formula {}", name(&settings), formula);
        }
    }
}

#[test]
fn errors_name_the_line_and_the_column() {
    let text = format!(
        "{}\nformula r1c1 > r1c2\n\nformula abs(r1c1 - ) = 1\n",
        ".".repeat(81)
    );
    assert_eq!(
        read(&text).err().as_deref(),
        Some("line 4, column 20: expected a cell, a number or '(', found \")\"")
    );
}

#[test]
fn the_command_line_states_and_refuses_as_it_should() {
    let dir = std::env::temp_dir().join(format!("z3doku-formula-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("formula.txt");
    std::fs::write(
        &file,
        format!(
            "{}\nformula r1c1 * r1c2 - r3c3 * r4c4 = -47\nformula (r1c9 - r1c1) / 2 = -3\n",
            common::NOTEBOOK
        ),
    )
    .unwrap();
    let path = file.to_str().unwrap();
    // Both hold on the notebook's solution (7·1 - 9·6 = -47, and
    // (2 - 7) / 2 = -3 by SMT-LIB's division, -2 by truncation's).
    for engine in ["native", "z3"] {
        let out = common::output_of(["solve", path, "--engine", engine, "-o", "line"], 0);
        assert_eq!(
            String::from_utf8_lossy(&out).trim(),
            common::NOTEBOOK_SOLUTION,
            "{engine}"
        );
    }
    // f-puzzles cannot say it: refused, naming the rule.
    let refused = common::z3doku()
        .args(["solve", path, "-o", "fpuzzles"])
        .assert()
        .failure()
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains(
            "--output fpuzzles: f-puzzles has no rule for \"formula r1c1 * r1c2 - r3c3 * r4c4 = -47\""
        ),
        "{stderr}"
    );
    // SMT-LIB states it; DIMACS states the one over three cells or fewer
    // as clauses, and names the one it cannot.
    let smt2 = common::output_of(["emit", path, "--format", "smt2"], 0);
    let smt2 = String::from_utf8_lossy(&smt2);
    assert!(
        smt2.contains("c_3_3") && smt2.contains("(check-sat)"),
        "{smt2}"
    );
    let dimacs = common::z3doku()
        .args(["emit", path, "--format", "dimacs"])
        .assert()
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&dimacs.stderr);
    if !dimacs.status.success() {
        assert!(
            stderr.contains("formula r1c1 * r1c2 - r3c3 * r4c4 = -47"),
            "{stderr}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
