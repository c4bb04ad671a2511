#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // a failed expectation panics, as a test should
//! One puzzle per f-puzzles rule kind whose unique solution depends on
//! that rule.
//!
//! Each case is a rule stated in f-puzzles JSON on an empty 9x9 board, with
//! clue values read off the notebook's solution so that it can hold. The
//! test finds a board that keeps the rule (native engine), has the
//! independent checker accept it, adds that board's digits as givens until
//! the puzzle is unique, drops every given the rule makes unneeded, and
//! then asks: is it unique on every engine and encoding, with that board;
//! and without the rule, has it more than one solution? So each rule is
//! shown to be read, stated and solved the same way everywhere, and to
//! matter.

mod common;

use std::time::Duration;
use z3doku::engine::contract::{EncodingKind, EngineKind, Settings};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::check::verify_solution;
use z3doku::puzzle::fpuzzles;
use z3doku::puzzle::grid::Grid;
use z3doku::solve::{Pipeline, Request};

/// `(name, JSON members)`: each rule kind as f-puzzles writes it.
const CASES: &[(&str, &str)] = &[
    (
        "digital-root cage",
        r#""cage":[{"cells":["R1C1","R1C2","R2C1"],"value":"DR1"}]"#,
    ),
    (
        "slow thermometer",
        r#""slowthermometer":[{"lines":[["R3C7","R1C2","R2C1","R2C2"]]}]"#,
    ),
    (
        "palindrome",
        r#""palindrome":[{"lines":[["R1C1","R1C2","R2C5","R2C9"]]}]"#,
    ),
    ("renban", r#""renban":[{"lines":[["R1C1","R1C4","R1C5"]]}]"#),
    (
        "whispers",
        r#""whispers":[{"lines":[["R1C1","R1C2","R1C5","R1C9"]]}]"#,
    ),
    (
        "region sum line",
        r#""regionsumline":[{"lines":[["R1C2","R2C1","R3C6"]]}]"#,
    ),
    (
        "between line",
        r#""betweenline":[{"lines":[["R1C2","R1C3","R1C4","R1C5"]]}]"#,
    ),
    (
        "entropic line",
        r#""entropicline":[{"lines":[["R1C2","R1C3","R1C1","R2C1","R2C4"]]}]"#,
    ),
    (
        "modular line",
        r#""modularline":[{"lines":[["R1C2","R1C3","R1C5","R1C6","R2C1","R2C2"]]}]"#,
    ),
    (
        "zipper line",
        r#""zipperline":[{"lines":[["R1C1","R2C2","R1C5","R2C6","R1C9"]]}]"#,
    ),
    (
        "double arrow",
        r#""doublearrow":[{"lines":[["R1C2","R1C3","R2C2","R2C1","R1C5"]]}]"#,
    ),
    (
        "arrow",
        r#""arrow":[{"cells":["R1C5"],"lines":[["R1C5","R1C2","R1C3","R2C2"]]}]"#,
    ),
    (
        "arrow with a pill",
        r#""arrow":[{"cells":["R1C2","R1C3"],"lines":[["R1C3","R1C1","R1C4"]]}]"#,
    ),
    (
        "white dots",
        r#""difference":[{"cells":["R1C4","R1C5"]},{"cells":["R2C3","R2C4"]}]"#,
    ),
    (
        "black dots",
        r#""ratio":[{"cells":["R4C7","R4C8"]},{"cells":["R9C2","R8C2"]}]"#,
    ),
    (
        "X and V",
        r#""xv":[{"cells":["R1C6","R1C7"],"value":"X"},{"cells":["R2C1","R2C2"],"value":"V"}]"#,
    ),
    (
        "clone",
        r#""clone":[{"cells":["R1C1","R1C2"],"cloneCells":["R2C9","R2C5"]}]"#,
    ),
    (
        "quadruple",
        r#""quadruple":[{"cells":["R1C1","R1C2","R2C1","R2C2"],"values":[1,7]}]"#,
    ),
    (
        "odd and even",
        r#""odd":[{"cell":"R1C1"}],"even":[{"cell":"R1C9"}]"#,
    ),
    ("minimum", r#""minimum":[{"cell":"R1C2"}]"#),
    ("maximum", r#""maximum":[{"cell":"R1C5"}]"#),
    (
        "little killer",
        r#""littlekillersum":[{"cell":"R4C0","direction":"UR","value":"14"}]"#,
    ),
    (
        "sandwich",
        r#""sandwichsum":[{"cell":"R1C0","value":"13"}]"#,
    ),
    (
        "x-sum",
        r#""xsum":[{"cell":"R1C0","value":"40"},{"cell":"R1C10","value":"5"}]"#,
    ),
    (
        "skyscraper",
        r#""skyscraper":[{"cell":"R1C0","value":"3"},{"cell":"R0C1","value":"3"}]"#,
    ),
    (
        "row indexer",
        r#""rowindexer":[{"cells":["R1C2","R2C1","R2C4"]}]"#,
    ),
    (
        "column indexer",
        r#""columnindexer":[{"cells":["R2C6","R4C3","R4C5"]}]"#,
    ),
    (
        "box indexer",
        r#""boxindexer":[{"cells":["R1C3","R1C8","R2C2"]}]"#,
    ),
    (
        "extra region",
        r#""extraregion":[{"cells":["R1C1","R5C5","R9C9","R3C7"]}]"#,
    ),
    ("disjoint groups", r#""disjointgroups":true"#),
    ("negative ratio", r#""negative":["ratio"]"#),
    ("negative XV", r#""negative":["xv"]"#),
    (
        "nonconsecutive with a black dot",
        r#""nonconsecutive":true,"ratio":[{"cells":["R1C1","R1C2"]}]"#,
    ),
];

/// An empty 9x9 grid with `members` beside it, as f-puzzles JSON; `regions`
/// gives each cell's region, when set.
fn json(members: &str, regions: Option<&[Option<usize>]>) -> String {
    let rows: Vec<String> = (0..9)
        .map(|r| {
            let cells: Vec<String> = (0..9)
                .map(|c| match regions {
                    Some(regions) => match regions[r * 9 + c] {
                        Some(region) => format!(r#"{{"region":{region}}}"#),
                        None => r#"{"region":null}"#.into(),
                    },
                    None => "{}".into(),
                })
                .collect();
            format!("[{}]", cells.join(","))
        })
        .collect();
    let members = if members.is_empty() {
        String::new()
    } else {
        format!(",{members}")
    };
    format!(r#"{{"size":9,"grid":[{}]{members}}}"#, rows.join(","))
}

fn settings(engine: EngineKind, encoding: EncodingKind) -> Settings {
    Settings {
        engine,
        encoding,
        ..Settings::default()
    }
}

fn native() -> Settings {
    settings(EngineKind::Native, EncodingKind::Int)
}

/// Up to `limit` solutions of `puzzle`.
fn solutions(settings: &Settings, puzzle: &Puzzle, limit: usize) -> Vec<Grid> {
    let mut pipeline = Pipeline::new(Request {
        settings: settings.clone(),
        timeout: Some(Duration::from_secs(60)),
        ..Request::default()
    });
    let mut found = Vec::new();
    let count = pipeline
        .count(puzzle, limit, &mut |grid| found.push(grid.clone()))
        .unwrap();
    assert_eq!(count.gave_up, None, "{puzzle}");
    found
}

/// A puzzle under `rules` (an empty puzzle's) whose unique solution needs
/// the rules, checked as the module says. `plain` is the same board
/// without the rule.
fn decides(name: &str, rules: &Puzzle, plain: &Puzzle) {
    let board = solutions(&native(), rules, 1)
        .pop()
        .unwrap_or_else(|| panic!("{name}: no board keeps the rule"));
    verify_solution(rules, &board).unwrap_or_else(|e| panic!("{name}: {e}"));
    // Givens in a fixed scattered order, until the puzzle is unique.
    let order: Vec<usize> = (0..81).map(|k| k * 37 % 81).collect();
    let mut givens = Grid::empty(board.size());
    for &cell in &order {
        if solutions(&native(), &rules.with_givens(givens.clone()), 2).len() == 1 {
            break;
        }
        givens.set(cell, board.get(cell));
    }
    // Drop what the rule makes unneeded.
    for &cell in &order {
        if givens.get(cell) == 0 {
            continue;
        }
        let mut fewer = givens.clone();
        fewer.set(cell, 0);
        if solutions(&native(), &rules.with_givens(fewer.clone()), 2).len() == 1 {
            givens = fewer;
        }
    }
    let puzzle = rules.with_givens(givens.clone());
    for encoding in EncodingKind::ALL {
        let found = solutions(&settings(EngineKind::Z3, encoding), &puzzle, 2);
        assert_eq!(found, vec![board.clone()], "{name}: z3/{}", encoding.name());
    }
    let without = solutions(&native(), &plain.with_givens(givens.clone()), 2);
    assert!(
        without.len() > 1,
        "{name}: {} is unique without the rule",
        givens.to_line()
    );
    assert_eq!(
        solutions(
            &settings(EngineKind::Z3, EncodingKind::Bool),
            &plain.with_givens(givens),
            2
        )
        .len(),
        2,
        "{name}: z3 without the rule"
    );
}

#[test]
fn every_rule_kind_decides_a_puzzle() {
    let plain = fpuzzles::parse(&json("", None)).unwrap();
    for (name, members) in CASES {
        let rules = fpuzzles::parse(&json(members, None)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            !rules.rules().constraints().is_empty() || rules.rules().houses().len() > 27,
            "{name}"
        );
        decides(name, &rules, &plain);
    }
}

#[test]
fn jigsaw_regions_decide_a_puzzle() {
    // The classic boxes, with the four cells where boxes 1, 2, 4 and 5
    // meet each moved on to the next box round that corner (a single swap
    // between two boxes leaves no solution, by the law of leftovers).
    let mut regions: Vec<Option<usize>> = (0..81).map(|k| Some(k / 27 * 3 + k % 9 / 3)).collect();
    for (cell, region) in [(20, 1), (21, 4), (30, 3), (29, 0)] {
        regions[cell] = Some(region);
    }
    let jigsaw = fpuzzles::parse(&json("", Some(&regions))).unwrap();
    assert_eq!(jigsaw.rules().houses().len(), 27);
    assert!(!jigsaw.rules().is_classic());
    // Without regions the board is a Latin square.
    let latin = fpuzzles::parse(&json("", Some(&[None; 81]))).unwrap();
    assert_eq!(latin.rules().houses().len(), 18);
    decides("jigsaw", &jigsaw, &latin);
}
