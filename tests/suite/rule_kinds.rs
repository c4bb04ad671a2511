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

use crate::common;

use rayon::prelude::*;
use std::time::Duration;
use z3doku::engine::contract::{EncodingKind, EngineKind, Settings};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::check::verify_solution;
use z3doku::puzzle::fpuzzles;
use z3doku::puzzle::grid::Grid;
use z3doku::puzzle::input::Source;
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
    solutions_within(settings, puzzle, limit, 60).unwrap_or_else(|| panic!("gave up: {puzzle}"))
}

/// Up to `limit` solutions of `puzzle` within `seconds`; `None` when the
/// engine gave up.
fn solutions_within(
    settings: &Settings,
    puzzle: &Puzzle,
    limit: usize,
    seconds: u64,
) -> Option<Vec<Grid>> {
    let mut pipeline = Pipeline::new(Request {
        settings: settings.clone(),
        timeout: Some(Duration::from_secs(seconds)),
        ..Request::default()
    });
    let mut found = Vec::new();
    let count = pipeline
        .count(puzzle, limit, &mut |grid| found.push(grid.clone()))
        .unwrap();
    count.gave_up.is_none().then_some(found)
}

/// The native engine's answer within two seconds, else Z3's `bool`: the
/// native search is slow on some nearly empty boards of the rules that
/// only rule lines state (proving a 3-given anti-taxicab board has a
/// second solution took over a minute, an 8-given global entropy board
/// 9.7 s, where `bool` takes 0.4 and 0.2 s: its pairs and clauses narrow a
/// cell only once the others are filled). tests/suite/sigh_kinds.rs and
/// tests/suite/variant_properties.rs count these rules with the native engine.
fn native_or_bool(puzzle: &Puzzle, limit: usize) -> Vec<Grid> {
    solutions_within(&native(), puzzle, limit, 2)
        .unwrap_or_else(|| solutions(&settings(EngineKind::Z3, EncodingKind::Bool), puzzle, limit))
}

/// A puzzle under `rules` (an empty puzzle's) whose unique solution needs
/// the rules, checked as the module says. `plain` is the same board
/// without the rule.
fn decides(name: &str, rules: &Puzzle, plain: &Puzzle) {
    decides_with(name, rules, plain, &|p, n| solutions(&native(), p, n));
}

/// As [`decides`], with `search` finding the board and the givens (the
/// native engine, unless a rule's search is slow there).
fn decides_with(
    name: &str,
    rules: &Puzzle,
    plain: &Puzzle,
    search: &dyn Fn(&Puzzle, usize) -> Vec<Grid>,
) {
    let board = search(rules, 1)
        .pop()
        .unwrap_or_else(|| panic!("{name}: no board keeps the rule"));
    verify_solution(rules, &board).unwrap_or_else(|e| panic!("{name}: {e}"));
    // Givens in a fixed scattered order, until the puzzle is unique.
    let order: Vec<usize> = (0..81).map(|k| k * 37 % 81).collect();
    let mut givens = Grid::empty(board.size());
    for &cell in &order {
        if search(&rules.with_givens(givens.clone()), 2).len() == 1 {
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
        if search(&rules.with_givens(fewer.clone()), 2).len() == 1 {
            givens = fewer;
        }
    }
    let puzzle = rules.with_givens(givens.clone());
    for encoding in EncodingKind::ALL {
        let found = solutions(&settings(EngineKind::Z3, encoding), &puzzle, 2);
        assert_eq!(found, vec![board.clone()], "{name}: z3/{}", encoding.name());
    }
    let without = search(&plain.with_givens(givens.clone()), 2);
    assert!(
        without.len() > 1,
        "{name}: {} is unique without the rule",
        givens.to_line()
    );
    // The other solutions break the rule, and the checker says so.
    for other in without.iter().filter(|&s| s != &board) {
        assert!(
            verify_solution(&puzzle, other).is_err(),
            "{name}: the checker takes {}",
            other.to_line()
        );
    }
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
    CASES.par_iter().for_each(|(name, members)| {
        let rules = fpuzzles::parse(&json(members, None)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            !rules.rules().constraints().is_empty() || rules.rules().houses().len() > 27,
            "{name}"
        );
        decides(name, &rules, &plain);
    });
}

/// `(name, rule lines)`: each rule kind that f-puzzles has no key for, as
/// a rule line after an empty 9x9 grid.
const TEXT_CASES: &[(&str, &str)] = &[
    ("anti-taxicab", "anti-taxicab"),
    ("camel", "leaper 1 3"),
    ("zebra", "anti-zebra"),
    ("diagonal nonconsecutive", "diagonal nonconsecutive"),
    ("knightmare", "knightmare"),
    ("windoku", "windoku"),
    ("Dutch flatmates", "dutch flatmates"),
    ("global entropy", "global entropy"),
    ("global mod", "global mod 3"),
    (
        "greater than",
        "greater than (r1c1 r1c2 r2c1 r2c2)\ngreater than (r5c5 r5c6)\ngreater than (r9c9 r8c9)",
    ),
    (
        "pairwise",
        "pairwise 13 31 24 42 35 53 46 64 57 75 68 86 79 97 (r1c1 r1c2 r1c3 r2c3 r2c4)",
    ),
    (
        "contains at least",
        "contains at least 1 2 (r1c1 r1c2 r2c1 r2c2)\ncontains at least 99 (r4c3 r4c4 r5c3 r5c4)",
    ),
    (
        "contains exactly",
        "contains exactly 5 5 (r1c3 r1c4 r2c3 r2c4)\ncontains exactly 7 (r7c7 r7c8)",
    ),
    (
        "hidden skyscraper",
        "hidden skyscraper 3 (row 1)\nhidden skyscraper 5 (column 1 from the bottom)",
    ),
    (
        "numbered room",
        "numbered room 7 (row 1)\nnumbered room 2 (column 9 from the bottom)",
    ),
    (
        "rellik cage",
        "rellik cage 10 (r1c1 r1c2 r2c1 r2c2)\nrellik cage 6 (r5c4 r5c5 r5c6)\nrellik cage 14 (r9c8 r9c9)",
    ),
    (
        "equality cage",
        "equality cage (r1c1 r1c2 r2c1 r2c2)\nequality cage (r5c3 r5c4 r5c5 r5c6 r5c7 r5c8)",
    ),
    (
        "lunchbox",
        "lunchbox 7 (r1c1 r1c2 r1c3 r1c4 r1c5)\nlunchbox 0 (r4c4 r5c4 r6c4)\nlunchbox 15 (r9c2 r9c3 r8c3 r8c4)",
    ),
    (
        "equal sum",
        "equal sum (r1c1 r1c2) (r2c5) (r3c8 r3c9)\nequal sum (r5c1 r6c1 r7c1) (r9c9 r8c9) (r5c5 r5c6)",
    ),
    (
        "same values",
        "same values (r1c1 r1c2 r1c3) (r5c5 r6c5 r7c5)\nsame values (r9c1 r9c2) (r8c7 r8c8) (r2c9 r3c9)",
    ),
    (
        "counting circles",
        "counting circles (r1c1 r2c4 r3c7 r5c2 r6c5 r7c9 r9c3 r4c8)",
    ),
    (
        "lockout",
        "lockout 4 r1c1 r1c2 r1c3 r1c4\nlockout 3 r5c5 r6c5 r7c5\nlockout 5 r9c1 r9c2 r8c2",
    ),
    (
        "parity line",
        "parity line r1c1 r1c2 r1c3 r2c3 r2c4\nparity line r6c6 r7c6 r8c6",
    ),
    (
        "modular line of another modulus",
        "modular line 5 r1c1 r1c2 r1c3 r1c4 r1c5 r1c6 r1c7\n\
         modular line 4 r4c4 r5c4 r6c4 r7c4 r8c4",
    ),
    (
        "value indexing",
        "value indexing r1c1 r1c2 r4c2 r5c3 r6c4\nvalue indexing r5c5 r5c6 r6c6 r7c6",
    ),
    (
        "count distinct",
        "count distinct (r1c1) r2c2 r3c3 r4c4 r5c5\ncount distinct (r9c9) r8c8 r7c8",
    ),
    (
        "look and say",
        "look and say 2709 (r1c1 r2c2 r3c3 r4c4)\nlook and say 1305 (r6c1 r6c2 r7c1 r7c2)",
    ),
    (
        "regex",
        "regex [1-4]+[6-9]{2,} r1c1 r1c2 r1c3 r1c4 r1c5\nregex (1|9)[^5]*5 r9c9 r8c9 r7c9 r6c9",
    ),
    (
        // sigh's encodings of `([13579][2468])*[13579]?` and of a running
        // sum that ends at 10.
        "state machine",
        "state machine BhaUCESUiky1DECCGKOA r1c1 r1c2 r1c3 r1c4 r1c5\n\
         state machine TgRf8jRWeJoAf80VniaF_orPE0J_VniaEfs8TQh94mhB8TQgeaEB0IBE r9c9 r8c9 r7c9",
    ),
    (
        "full rank",
        "full rank 6 (row 1)\nfull rank 29 (column 9 from the bottom)\nfull rank 17 with ties (column 4)",
    ),
    (
        "either",
        "either thermo r1c1 r1c2 r1c3 r1c4 || thermo r1c4 r1c3 r1c2 r1c1\n\
         either X (r5c5 r5c6) || V (r5c5 r5c6)\n\
         either cage 10 (r9c1 r9c2) || white dot 1 (r9c1 r9c2) && thermo r9c1 r9c2",
    ),
    (
        "sum line",
        "sum line 10 r1c1 r1c2 r1c3 r2c3 r2c4 r2c5\nsum line 13 loop r5c5 r5c6 r6c6 r7c6 r7c5 r6c5",
    ),
    ("connected values", "connected values 1 2 3 4 5"),
    (
        "connected values with a size",
        "connected values 2 4 6 8 9 size 45",
    ),
];

/// An empty 9x9 grid with `rules` after it, read as text.
fn text_puzzle(rules: &str) -> Puzzle {
    let text = format!("{}\n{rules}\n", ".".repeat(81));
    Source::Text(text).read_puzzle(None).unwrap()
}

#[test]
fn every_text_rule_kind_decides_a_puzzle() {
    let plain = fpuzzles::parse(&json("", None)).unwrap();
    TEXT_CASES.par_iter().for_each(|(name, rules)| {
        let puzzle = text_puzzle(rules);
        assert!(!puzzle.rules().constraints().is_empty(), "{name}");
        decides_with(name, &puzzle, &plain, &native_or_bool);
    });
}

#[test]
fn text_rule_kinds_read_back_and_say_they_are_not_written_to_fpuzzles() {
    for (name, rules) in TEXT_CASES {
        let puzzle = text_puzzle(rules);
        let printed: Vec<String> = puzzle
            .rules()
            .constraints()
            .iter()
            .map(|c| c.to_string())
            .collect();
        let again = text_puzzle(&printed.join("\n"));
        assert_eq!(again, puzzle, "{name}: {printed:?}");
        // f-puzzles has no key for these: the writer lists every one.
        assert_eq!(fpuzzles::write::unwritable(&puzzle), printed, "{name}");
    }
    let written = fpuzzles::parse(&json(CASES[3].1, None)).unwrap();
    assert!(fpuzzles::write::unwritable(&written).is_empty());
}

/// `(name, rule lines)`: sum kinds f-puzzles has no key for, as z3doku's
/// rule lines state them, decided by every engine.
const SUM_CASES: &[(&str, &str)] = &[(
    "weighted sum",
    "sum 11 (r1c1, 2 r1c2, -1 r1c3)\nsum 0 (r2c1, r2c2, -1 r3c3)",
)];

#[test]
fn every_rule_line_kind_decides_a_puzzle() {
    let empty = ".".repeat(81);
    let plain = z3doku::puzzle::input::Source::Text(empty.clone())
        .read_puzzle(None)
        .unwrap();
    for (name, lines) in SUM_CASES {
        let rules = z3doku::puzzle::input::Source::Text(format!("{empty}\n{lines}"))
            .read_puzzle(None)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!rules.rules().constraints().is_empty(), "{name}");
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

/// Rules beyond [`CASES`] whose writing has a case of its own: cages
/// without a sum, several whole-board rules, diagonals, a little killer in
/// a corner, dots with values other than the default, a pill whose line
/// leaves from its far cell.
const MORE_CASES: &[&str] = &[
    r#""killercage":[{"cells":["R1C1","R1C2"],"value":"3"},{"cells":["R2C1","R3C1"]}]"#,
    r#""thermometer":[{"lines":[["R1C1","R1C2","R1C3"],["R5C5","R6C6"]]}]"#,
    r#""diagonal+":true,"diagonal-":true,"antiknight":true,"antiking":true,"nonconsecutive":true"#,
    r#""negative":["ratio","xv"],"ratio":[{"cells":["R1C1","R1C2"],"value":"3"}]"#,
    r#""difference":[{"cells":["R1C1","R1C2"],"value":"4"}]"#,
    r#""littlekillersum":[{"cell":"R0C8","direction":"DR","value":"5"},{"cell":"R10C3","direction":"UL","value":"12"},{"cell":"R5C10","direction":"DL","value":"20"}]"#,
    r#""whispers":[{"lines":[["R1C1","R1C2"]],"value":"3"}]"#,
    r#""arrow":[{"cells":["R1C2","R1C3"],"lines":[["R1C3","R2C4","R3C5"],["R1C2","R2C1"]]}]"#,
    r#""sandwichsum":[{"cell":"R0C4","value":"7"},{"cell":"R10C2","value":"0"},{"cell":"R3C10","value":"35"}]"#,
    r#""disjointgroups":true,"extraregion":[{"cells":["R1C1","R2C3"]}],"odd":[{"cell":"R4C4"}]"#,
];

/// Reads `text`, writes it as JSON and as a link, and reads both back.
fn writes_back(name: &str, text: &str) {
    let puzzle = fpuzzles::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let json = fpuzzles::write::to_json(&puzzle, None);
    let again = fpuzzles::parse(&json).unwrap_or_else(|e| panic!("{name}: {e}\n{json}"));
    assert_eq!(again, puzzle, "{name}:\n{json}");
    assert_eq!(
        again.rules().constraints(),
        puzzle.rules().constraints(),
        "{name}"
    );
    // Every key the file had comes back (colours, drawn items, notes).
    let lost = common::lost_keys(
        &serde_json::from_str(text).unwrap_or_default(),
        &serde_json::from_str(&json).unwrap_or_default(),
    );
    assert!(lost.is_empty(), "{name} lost {lost:?}\n{json}");
    let link = fpuzzles::write::to_link(&puzzle, None);
    assert!(link.starts_with("https://f-puzzles.com/?load="), "{link}");
    assert_eq!(fpuzzles::parse(&link).as_ref(), Ok(&puzzle), "{name}");
}

#[test]
fn every_rule_kind_writes_back() {
    for (name, members) in CASES {
        writes_back(name, &json(members, None));
    }
    for members in MORE_CASES {
        writes_back(members, &json(members, None));
    }
    // Givens and pencil marks (two sets on one cell narrow it).
    let marked = json("", None)
        .replacen("{}", r#"{"value":5,"given":true}"#, 1)
        .replacen("{}", r#"{"value":3}"#, 1)
        .replacen("{}", r#"{"givenPencilMarks":[1,2,9]}"#, 1)
        .replacen(
            "{}",
            r#"{"centerPencilMarks":[2,4],"givenPencilMarks":[2,9]}"#,
            1,
        );
    writes_back("givens and pencil marks", &marked);
}

#[test]
fn regions_write_back() {
    let boxes: Vec<Option<usize>> = (0..81).map(|k| Some(k / 27 * 3 + k % 9 / 3)).collect();
    let mut jigsaw = boxes.clone();
    for (cell, region) in [(20, 1), (21, 4), (30, 3), (29, 0)] {
        jigsaw[cell] = Some(region);
    }
    // Partial regions keep their numbers; cells may be in none.
    let mut partial = boxes.clone();
    for cell in [0, 1, 2, 9] {
        partial[cell] = Some(40);
    }
    for cell in [10, 11, 18] {
        partial[cell] = None;
    }
    partial[19] = Some(12);
    partial[20] = Some(12);
    for (name, regions, members) in [
        ("jigsaw", &jigsaw, ""),
        (
            "jigsaw with rules",
            &jigsaw,
            r#""antiknight":true,"disjointgroups":true"#,
        ),
        ("default regions drawn", &boxes, ""),
        ("default regions with a rule", &boxes, r#""antiking":true"#),
        ("partial regions", &partial, r#""odd":[{"cell":"R1C1"}]"#),
        ("no regions", &vec![None; 81], ""),
    ] {
        writes_back(name, &json(members, Some(regions)));
    }
    // Default boxes are not written.
    let plain = fpuzzles::parse(&json(r#""antiking":true"#, None)).unwrap();
    assert!(!fpuzzles::write::to_json(&plain, None).contains("region"));
}

#[test]
fn solutions_go_under_their_own_key() {
    let (name, members) = CASES[3];
    let puzzle = fpuzzles::parse(&json(members, None)).unwrap();
    let board = solutions(&native(), &puzzle, 1).pop().unwrap();
    let text = fpuzzles::write::to_json(&puzzle, Some(&board));
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let written: Vec<u8> = value["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_u64().unwrap() as u8)
        .collect();
    assert_eq!(written, board.cells(), "{name}");
    // The solution is not read as givens.
    assert_eq!(fpuzzles::parse(&text).as_ref(), Ok(&puzzle));
}

#[test]
fn shared_puzzles_write_back() {
    let Some(list) = common::shared_data("variants/solutions.txt") else {
        return;
    };
    let dir = list.parent().unwrap();
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 35);
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        writes_back(&path.display().to_string(), &text);
    }
}

/// A 4x4 board without boxes, `givens` its digits, under chaos
/// construction (when `chaos`) with `clues`, read as text.
fn chaos_puzzle(givens: &Grid, chaos: bool, clues: &[String]) -> Puzzle {
    let rows: Vec<String> = givens
        .to_line()
        .as_bytes()
        .chunks(4)
        .map(|r| String::from_utf8_lossy(r).into_owned())
        .collect();
    let mut text = rows.join("\n") + "\nregions ................\n";
    if chaos {
        text += "chaos construction\n";
        for clue in clues {
            text += clue;
            text.push('\n');
        }
    }
    Source::Text(text).read_puzzle(None).unwrap()
}

/// Chaos construction's solutions are digits with regions, so only clues
/// over the regions make one unique: on a 4x4 board without boxes, chaos
/// arrows and counts that hold on a solution found first are added (and
/// givens after them) until it is the only one, on every engine and
/// encoding; without the rule the same givens leave several Latin
/// squares.
#[test]
fn chaos_construction_decides_a_puzzle() {
    let size = z3doku::puzzle::grid::Size::from_side(4).unwrap();
    let empty = Grid::empty(size);
    let board = solutions(&native(), &chaos_puzzle(&empty, true, &[]), 1)
        .pop()
        .unwrap();
    assert!(board.regions().is_some());
    // Every control-only clue that the board keeps.
    let mut kept = Vec::new();
    for cell in 0..16 {
        let (r, c) = (cell / 4 + 1, cell % 4 + 1);
        for clue in [
            format!("chaos arrow (r{r}c{c})"),
            format!("chaos count (r{r}c{c})"),
            format!("chaos count exclude first (r{r}c{c})"),
        ] {
            let one = chaos_puzzle(&empty, true, std::slice::from_ref(&clue));
            if verify_solution(&one, &board).is_ok() {
                kept.push(clue);
            }
        }
    }
    let mut clues: Vec<String> = Vec::new();
    let mut givens = empty.clone();
    let order: Vec<usize> = (0..16).map(|k| k * 7 % 16).collect();
    let unique = |givens: &Grid, clues: &[String]| {
        solutions(&native(), &chaos_puzzle(givens, true, clues), 2).len() == 1
    };
    for clue in &kept {
        if unique(&givens, &clues) {
            break;
        }
        clues.push(clue.clone());
    }
    for &cell in &order {
        if unique(&givens, &clues) {
            break;
        }
        givens.set(cell, board.get(cell));
    }
    let puzzle = chaos_puzzle(&givens, true, &clues);
    for settings in common::every_engine() {
        let found = solutions(&settings, &puzzle, 2);
        assert_eq!(found, vec![board.clone()], "{settings:?}\n{puzzle}");
    }
    // Without the rule, the givens leave several solutions.
    let plain = chaos_puzzle(&givens, false, &[]);
    assert!(
        solutions(&native(), &plain, 2).len() > 1,
        "{}",
        givens.to_line()
    );
    // A wrong region is caught by the checker.
    let regions = board.regions().unwrap().to_vec();
    let mut swapped = regions.clone();
    swapped.swap(0, 15);
    if swapped != regions {
        let bad = board.digits_only().with_regions(swapped);
        assert!(verify_solution(&puzzle, &bad).is_err());
    }
}

/// The native engine proves each chaos puzzle of `benches/data/chaos.txt`
/// unique, with the grid and regions Z3 finds: their clues over the
/// regions decide them, which a search over digits alone could not see
/// before the whole board was filled (it gave up after 60 s on both),
/// and one that searches the regions with the digits proves in well under
/// a second (build.md's and docs/variants.md's "Chaos construction"); so
/// are the two on a 4x6 rectangle and a 6x6 board on 7 values.
#[test]
fn the_native_engine_proves_the_chaos_benchmarks_unique() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/chaos.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{e}"));
    let mut chaos = 0;
    for line in text.lines().filter(|l| l.contains("ChaosConstruction")) {
        let (name, sigh) = line.split_once('\t').unwrap_or(("", line));
        let puzzle = Source::Text(sigh.into())
            .read_puzzle(None)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let ours = solutions_within(&native(), &puzzle, 2, 20)
            .unwrap_or_else(|| panic!("{name}: the native engine gave up"));
        assert_eq!(ours.len(), 1, "{name}");
        assert!(ours[0].regions().is_some(), "{name}");
        let z3 = solutions(&settings(EngineKind::Z3, EncodingKind::Bool), &puzzle, 2);
        assert_eq!(ours, z3, "{name}");
        chaos += 1;
    }
    assert_eq!(chaos, 4);
}
