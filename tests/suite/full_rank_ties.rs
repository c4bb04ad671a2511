//! Full rank without ties (sigh's `FullRankTies~none`): no two of the 4N
//! numbers read along the rows and columns, from either end, are the same.
//! On 9x9 with boxes no two can be (a row and a column always meet a box
//! at two cells that would have to match), so the rule bites on boards
//! without boxes, and on 4x4. Puzzles unique with it and not without, on
//! every engine; the empty 4x4 counted against a count by hand; random
//! puzzles counted beside sigh's solver (`../shared/peers/sigh`, run with
//! Node; without it those tests say `SKIPPED`).

use crate::common;

use common::shapes::count_on;
use z3doku::engine::{EngineKind, Settings};
use z3doku::puzzle::input::Source;
use z3doku::puzzle::sigh::{parse, to_sigh};

/// Solutions counted, at most.
const LIMIT: usize = 6;

/// The rule as sigh says it.
const NONE: &str = ".FullRankTies~none";

/// Puzzles unique with the rule, and how many solutions they have without
/// it (as sigh's solver counts them too): three 9x9 Latin squares (no
/// boxes), each made from a square whose first row and column tie and a
/// second solution that swaps four digits of it, and three 4x4s.
const UNIQUE: [(&str, usize); 6] = [
    (
        ".NoBoxes.FullRankTies~none.~R1C3_6~R1C9_2~R2C2_8~R2C6_2~R2C7_4~R3C1_6~R3C5_7~R3C6_4\
         ~R3C7_5~R3C9_1~R4C1_5~R4C3_9~R4C7_1~R4C8_8~R5C4_4~R5C5_6~R5C7_3~R6C3_5~R6C6_9~R6C9_8\
         ~R7C3_1~R7C4_6~R7C5_4~R7C8_3~R7C9_5~R8C2_5~R8C5_3~R8C7_2~R8C9_6~R9C2_3~R9C3_7~R9C5_9\
         ~R9C6_1",
        3,
    ),
    (
        ".NoBoxes.FullRankTies~none.~R1C1_9~R1C2_8~R1C3_5~R1C6_7~R1C9_4~R2C3_2~R2C5_4~R2C6_6\
         ~R3C3_7~R3C6_2~R3C7_6~R4C2_7~R4C4_8~R4C9_9~R5C1_6~R5C3_9~R5C9_5~R6C4_2~R6C8_9~R6C9_8\
         ~R7C1_1~R7C2_4~R7C7_7~R8C5_5~R8C7_4~R8C8_8~R8C9_1~R9C2_5~R9C3_8~R9C4_1~R9C7_2~R9C8_3",
        2,
    ),
    (
        ".NoBoxes.FullRankTies~none.~R1C1_9~R1C2_4~R2C5_6~R2C7_3~R2C8_9~R2C9_5~R3C2_7~R3C3_8\
         ~R3C4_5~R3C9_6~R4C4_8~R4C5_2~R4C6_1~R4C9_4~R5C2_6~R5C3_5~R5C4_4~R5C6_3~R5C9_9~R7C3_9\
         ~R7C6_4~R7C7_7~R7C8_8~R8C3_6~R8C4_3~R8C7_9~R8C9_8~R9C1_3~R9C4_6~R9C5_7~R9C7_8~R9C8_5",
        3,
    ),
    (
        ".Shape~4x4.FullRankTies~none.~R2C1_3~R2C4_2~R3C1_1~R4C4_1",
        6,
    ),
    (".Shape~4x4.FullRankTies~none.~R1C4_1~R2C4_2~R4C1_4", 6),
    (".Shape~4x4.FullRankTies~none.~R2C2_4~R3C4_2~R4C1_1", 3),
];

/// The native engine's settings.
fn native() -> Settings {
    common::every_engine().swap_remove(0)
}

#[test]
fn puzzles_unique_without_ties_have_more_solutions_with_them() {
    for (text, without) in UNIQUE {
        let puzzle = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        for settings in common::every_engine() {
            let (n, _) = count_on(&settings, &puzzle, 2, 60)
                .unwrap_or_else(|| panic!("{settings:?} gave up on {text}"));
            assert_eq!(n, 1, "{settings:?}: {text}");
        }
        let loose = parse(&text.replace(NONE, "")).unwrap();
        let (n, _) = count_on(&native(), &loose, 100, 60).unwrap();
        assert_eq!(n, without, "{text} without the rule");
        // Written back, it reads as the same puzzle.
        let written = to_sigh(&puzzle).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(written.contains(NONE), "{written}");
        assert_eq!(parse(&written), Ok(puzzle), "{written}");
    }
    // The rule line says the same as sigh's option.
    let (text, _) = UNIQUE[3];
    let lines = Source::Text("....3..21......1\nfull rank without ties\n".into())
        .read_puzzle(None)
        .unwrap();
    assert_eq!(parse(text), Ok(lines));
}

/// The 4x4 has 288 grids; in 96 of them the 16 numbers all differ
/// (counted by hand, by a backtracking search over all 288). The rule
/// line and sigh's string agree on every engine, and with sigh's solver.
#[test]
fn the_empty_4x4_has_96_grids_without_ties() {
    let empty = Source::Text(format!("{}\nfull rank without ties\n", ".".repeat(16)))
        .read_puzzle(None)
        .unwrap();
    for settings in common::every_engine() {
        let (n, _) = count_on(&settings, &empty, 300, 60).unwrap();
        assert_eq!(n, 96, "{settings:?}");
    }
    let loose = Source::Text(".".repeat(16)).read_puzzle(None).unwrap();
    assert_eq!(count_on(&native(), &loose, 300, 60).unwrap().0, 288);
    let Some(script) = common::sigh_runner() else {
        return;
    };
    let counts = common::sigh_counts(
        &script,
        &[".Shape~4x4.FullRankTies~none", ".Shape~4x4"],
        300,
    );
    assert_eq!(counts, [96, 288]);
}

/// A sigh cell id, 0-based (boards up to 9x9 here).
fn id(r: usize, c: usize) -> String {
    format!("R{}C{}", r + 1, c + 1)
}

/// A random board and rules with the option set: a 4x4 or 6x6 with its
/// boxes, a 9x9 without boxes (on values 1-9 or 0-8), or a 9x9 with boxes
/// and two full rank clues; its side and its string without givens.
fn shape(random: &mut common::Rng) -> (usize, String) {
    match random.below(5) {
        0 => (4, ".Shape~4x4".into()),
        1 => (6, ".Shape~6x6".into()),
        2 => (9, ".NoBoxes".into()),
        3 => (9, ".Shape~9x9~0-8.NoBoxes".into()),
        _ => {
            let mut clues = String::new();
            let mut ranks = Vec::new();
            while ranks.len() < 2 {
                let rank = 1 + random.below(36);
                if ranks.contains(&rank) {
                    continue;
                }
                ranks.push(rank);
                let line = format!("{}{}", ["R", "C"][random.below(2)], 1 + random.below(9));
                clues += &if random.below(2) == 0 {
                    format!(".FullRank~{line}~{rank}~")
                } else {
                    format!(".FullRank~{line}~~{rank}")
                };
            }
            (9, clues)
        }
    }
}

#[test]
fn random_puzzles_count_as_sighs_solver_counts_them() {
    let Some(script) = common::sigh_runner() else {
        return;
    };
    let mut random = common::Rng(0x0715_71e5);
    // (sigh string, z3doku's count with the rule, and without it)
    let mut cases: Vec<(String, usize, usize)> = Vec::new();
    while cases.len() < 30 {
        let (side, head) = shape(&mut random);
        let rule = parse(&format!("{head}{NONE}")).unwrap_or_else(|e| panic!("{head}: {e}"));
        let Some(board) = count_on(&native(), &rule, 1, 10).and_then(|(_, f)| f.into_iter().next())
        else {
            continue;
        };
        // Givens from the board, in a random order, until fewer than
        // `LIMIT` solutions are left, or now and then fewer givens.
        let cells = side * side;
        let mut order: Vec<usize> = (0..cells).collect();
        for k in (1..cells).rev() {
            order.swap(k, random.below(k + 1));
        }
        // The value of the digit 1: 0 on the board whose values run from 0.
        let lowest = usize::from(!head.contains("0-8"));
        let most = if random.below(4) == 0 {
            random.below(cells)
        } else {
            cells
        };
        let mut givens = String::new();
        let mut text = String::new();
        for (k, &cell) in order.iter().enumerate().take(most) {
            let value = usize::from(board.get(cell)) - 1 + lowest;
            givens += &format!("~{}_{value}", id(cell / side, cell % side));
            text = format!("{head}{NONE}.{givens}");
            if k + 1 >= cells / 5 {
                let p = parse(&text).unwrap();
                if count_on(&native(), &p, LIMIT, 20).is_some_and(|(n, _)| n < LIMIT) {
                    break;
                }
            }
        }
        if text.is_empty() {
            text = format!("{head}{NONE}");
        }
        let p = parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let (with, _) = count_on(&native(), &p, LIMIT, 60).unwrap_or_else(|| panic!("{text}"));
        // Z3 too, on one case in three.
        if cases.len().is_multiple_of(3) {
            let bool_ = Settings {
                engine: EngineKind::Z3,
                encoding: z3doku::engine::contract::EncodingKind::Bool,
                ..Settings::default()
            };
            let (z3, _) = count_on(&bool_, &p, LIMIT, 60).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(z3, with, "bool: {text}");
        }
        let loose = parse(&text.replace(NONE, "")).unwrap();
        let (without, _) = count_on(&native(), &loose, LIMIT, 60).unwrap();
        cases.push((text, with, without));
    }
    let strings: Vec<&str> = cases.iter().map(|(s, _, _)| s.as_str()).collect();
    let counts = common::sigh_counts(&script, &strings, LIMIT);
    for ((text, ours, _), theirs) in cases.iter().zip(&counts) {
        assert_eq!(ours, theirs, "{text}");
    }
    // The rule took solutions away in some of them.
    let bites = cases
        .iter()
        .filter(|(_, with, without)| with < without)
        .count();
    assert!(bites >= 3, "the rule took solutions away in {bites} cases");
}
