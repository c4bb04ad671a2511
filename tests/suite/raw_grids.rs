//! sigh's `Raw` grids (`Shape~4x4~~Raw`, `Shape~6x6~0-1~Raw`): boards of
//! cells whose rows, columns and boxes are no houses, with 1 to 16 values
//! however many cells a row has, so that the rules alone say what the
//! cells hold. Puzzles unique under their rules solved by every engine
//! and encoding to sigh's solution and passed by the checker; random
//! instances counted up to a limit by every engine and by sigh's solver
//! (`../shared/peers/sigh`, with Node; `SKIPPED` without them), which must
//! agree; the sigh string written back reads as the same puzzle; and what
//! z3doku does not take on a Raw grid refused with one line and exit
//! status 2.

use crate::common;

use common::output_of;
use common::shapes::{
    LINE_KINDS, NAMED_KINDS, OUTSIDE_KINDS, SET_KINDS, Shape, count_on, counts_agree_with_sigh,
    each_kind_among, each_kind_beside_others, engines_agree, line_rule, named_cell_rule,
    outside_rule, refused_by_the_sudoku_commands, set_rule, sigh_finds_the_solutions,
    unique_everywhere, written_and_read_back,
};
use proptest::prelude::*;
use z3doku::puzzle::sigh::parse;

/// Solutions counted, at most.
const LIMIT: usize = 40;

/// Puzzles unique under their rules (their givens alone have several
/// solutions), each with sigh's solution (`node
/// ../shared/peers/sigh/run.mjs`), and the start of their rules.
const UNIQUE: &[(&str, &str, &str)] = &[
    // 4x4 on 1 to 4: a cage, a thermometer, a renban, a sum, a V and a
    // whisper.
    (
        ".Shape~4x4~~Raw.~R1C1_2~R1C2_3~R2C1_1~R2C2_3~R3C1_2~R3C2_4~R3C4_2~R4C1_4~R4C4_3\
         .Cage~10~R1C1~R1C2~R1C3~R1C4.Thermo~R2C1~R2C2~R2C3.Renban~R3C1~R3C2~R3C3.Sum~6~R4C2~R3C2\
         .V~R4C3~R4C4.Whisper~2~R1C4~R2C4~R3C4",
        "2341134424324223",
        ".Cage",
    ),
    // 6x6 on 0 and 1: three 1s in every row and column (sigh's `Sum`,
    // restated on the digits), a whisper and a thermometer.
    (
        ".Shape~6x6~0-1~Raw.~R2C3_0~R2C5_0~R3C4_1~R4C1_1~R4C2_0~R4C3_0~R4C6_1~R5C2_0~R6C5_1\
         ~R6C6_1.Sum~3~R1C1~R1C2~R1C3~R1C4~R1C5~R1C6.Sum~3~R1C1~R2C1~R3C1~R4C1~R5C1~R6C1\
         .Sum~3~R2C1~R2C2~R2C3~R2C4~R2C5~R2C6.Sum~3~R1C2~R2C2~R3C2~R4C2~R5C2~R6C2\
         .Sum~3~R3C1~R3C2~R3C3~R3C4~R3C5~R3C6.Sum~3~R1C3~R2C3~R3C3~R4C3~R5C3~R6C3\
         .Sum~3~R4C1~R4C2~R4C3~R4C4~R4C5~R4C6.Sum~3~R1C4~R2C4~R3C4~R4C4~R5C4~R6C4\
         .Sum~3~R5C1~R5C2~R5C3~R5C4~R5C5~R5C6.Sum~3~R1C5~R2C5~R3C5~R4C5~R5C5~R6C5\
         .Sum~3~R6C1~R6C2~R6C3~R6C4~R6C5~R6C6.Sum~3~R1C6~R2C6~R3C6~R4C6~R5C6~R6C6\
         .Whisper~1~R1C1~R1C2~R2C2~R2C3.Thermo~R5C5~R5C6",
        "101010110100011100100011001101010011",
        ".Sum",
    ),
    // 4x6 on 0 to 3: an arrow, a V, a cage and a sum (restated on the
    // digits), a thermometer, a renban and a whisper.
    (
        ".Shape~4x6~0-3~Raw.~R1C2_0~R1C3_0~R2C1_2~R2C3_3~R2C5_1~R2C6_1~R3C2_3~R3C3_0~R3C5_0\
         ~R4C1_0~R4C3_2~R4C5_3~R4C6_0.Arrow~R1C1~R1C2~R1C3.V~R2C1~R2C2.Cage~5~R3C1~R3C2~R3C3\
         .Sum~8~R4C1~R4C2~R4C3~R4C4.Thermo~R1C4~R2C4~R3C4~R4C4.Renban~R1C5~R2C5~R3C5\
         .Whisper~2~R1C6~R2C6~R3C6~R4C6",
        "000023233111230203032330",
        ".Arrow",
    ),
];

#[test]
fn unique_raw_grids_solve_everywhere() {
    for &(text, solution, rules) in UNIQUE {
        let puzzle = unique_everywhere(text, solution);
        assert!(puzzle.size().is_raw(), "{text}");
        assert!(puzzle.rules().houses().is_empty(), "{text}");
        written_and_read_back(&puzzle);
        // The rules are what make it unique.
        let givens = &text[..text.find(rules).unwrap()];
        let bare = parse(givens).unwrap();
        let (n, _) = count_on(&common::every_engine()[0], &bare, 2, 120).unwrap();
        assert_eq!(n, 2, "{givens}");
        let out =
            String::from_utf8(output_of(["solve", text, "--unique", "-o", "line"], 0)).unwrap();
        assert_eq!(out.lines().next(), Some(solution));
        let checked = String::from_utf8(output_of(["check", text], 0)).unwrap();
        assert!(checked.contains("unique"), "{checked}");
        // No boxes to draw: a frame and the rows.
        let drawn = String::from_utf8(output_of(
            ["solve", text, "-o", "pretty", "--color", "never"],
            0,
        ))
        .unwrap();
        assert_eq!(drawn.lines().count(), puzzle.size().rows() + 2, "{drawn}");
        assert!(!drawn.contains('┼') && !drawn.contains('├'), "{drawn}");
    }
}

/// `examples/puzzles/magic.txt`: the 3x3 magic squares, a Raw grid of
/// the values 1 to 9, all different, every row, column and diagonal
/// adding up to 15 (sigh's `Sum`s): eight of them on every engine, by
/// `count` and by sigh's solver.
#[test]
fn the_magic_squares_are_eight() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/puzzles/magic.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let puzzle = parse(text.trim()).unwrap();
    assert!(puzzle.size().is_raw());
    assert_eq!(common::shapes::count_everywhere(&puzzle, 20), 8);
    let out = output_of(["count", path], 0);
    assert_eq!(String::from_utf8(out).unwrap().trim(), "8 solutions");
    if let Some(script) = common::sigh_runner() {
        assert_eq!(common::sigh_counts(&script, &[text.trim()], 20), [8]);
    }
}

/// `--size N` asks for N rows of N cells, whatever the values and grid
/// type the puzzle's own shape gives.
#[test]
fn size_asks_for_rows_and_columns_alone() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/puzzles/magic.txt");
    let out = output_of(["count", path, "--size", "3"], 0);
    assert_eq!(String::from_utf8(out).unwrap().trim(), "8 solutions");
    let out = output_of(["count", ".Shape~4x4~5", "--size", "4", "--limit", "2"], 0);
    assert_eq!(
        String::from_utf8(out).unwrap().trim(),
        "2 solutions (limit reached)"
    );
    common::refused_in_one_line([(
        vec!["count", path, "--size", "4"],
        "the puzzle is 3x3, but 4x4 was asked for",
    )]);
}

/// The solutions sigh's solver finds for the unique puzzles are the ones
/// above.
#[test]
fn sigh_finds_the_same_unique_solutions() {
    sigh_finds_the_solutions(UNIQUE);
}

#[test]
fn what_a_raw_grid_cannot_take_is_refused_by_name() {
    let (text, _, _) = UNIQUE[0];
    let only = "its cells form a 4x4 Raw grid (no rows, columns or boxes) of values 1 to 4, which \
                only `solve`, `check` and `count` take";
    let mut cases = refused_by_the_sudoku_commands(text, only);
    let sudoku_only = "on Sudoku grids only, and this is a Raw grid";
    cases.extend([
        (
            vec!["solve", text, "--output", "fpuzzles"],
            "--output fpuzzles: this board's cells form a 4x4 Raw grid",
        ),
        (vec!["solve", text, "--model"], "--model"),
        (vec!["solve", ".Shape~9x9~~Raw.AntiKnight"], sudoku_only),
        (vec!["solve", ".Shape~9x9~~Raw.Sandwich~10~R1"], sudoku_only),
        (vec!["solve", ".Shape~6x6~~Raw.NoBoxes"], sudoku_only),
        (vec!["count", ".Shape~6x6~~Raw.Diagonal~1"], sudoku_only),
        (
            vec![
                "count",
                ".Shape~6x6~~Raw.Jigsaw~6x6~111222111222333444333444555666555666",
            ],
            sudoku_only,
        ),
        (
            vec!["solve", ".Shape~9x9~~Raw.DutchFlatmates"],
            "dutch flatmates: z3doku states it by what a row, column or box holds, and a Raw grid \
             has none",
        ),
        (
            vec!["solve", ".Shape~9x9~3~Raw.GreaterThan~R1C1~R1C2"],
            "greater than (r1c1 r1c2): z3doku solves it on Raw grids whose values run from 1 to \
             the longer side (9), and this one's run from 1 to 3",
        ),
        (vec!["solve", ".Shape~9x9~3~Raw.~R1C1_4"], "R1C1_4"),
        (vec!["solve", ".Shape~9x9~0~Raw"], "at least 1"),
        (
            vec!["solve", ".Shape~9x9~~Hex"],
            "grid types are `Sudoku` and `Raw`",
        ),
    ]);
    common::refused_in_one_line(cases);
}

/// The shapes of the random instances, with how many of each: values as
/// many as the longer side, fewer (down to two), more, and from 0.
const SHAPES: &[(Shape, usize)] = &[
    (Shape::raw(4, 4, 4, 1), 10),
    (Shape::raw(5, 5, 3, 1), 8),
    (Shape::raw(4, 6, 4, 0), 8),
    (Shape::raw(6, 6, 6, 1), 8),
    (Shape::raw(3, 5, 7, 1), 6),
    (Shape::raw(6, 4, 2, 0), 4),
];

#[test]
fn counts_on_raw_grids_agree_with_sigh() {
    let Some(cases) = counts_agree_with_sigh(0x7a3_0029, SHAPES, LIMIT) else {
        return;
    };
    each_kind_among(
        &cases,
        &[
            ".Cage~",
            ".Arrow",
            ".Whisper",
            ".Sum",
            ".Thermo",
            ".AntiConsecutive",
        ],
    );
    for (text, _) in &cases {
        written_and_read_back(&parse(text).unwrap());
    }
}

/// `NAMED_KINDS` without Dutch flatmates, which z3doku refuses on a Raw
/// grid.
const RAW_NAMED: &[usize] = &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16];

/// Strict Kropki and strict XV, the last two of `OUTSIDE_KINDS` (the
/// others are clues outside a Sudoku grid).
const STRICT: [usize; 2] = [6, 7];

/// A rule of `RAW_NAMED`, then of `STRICT`.
fn raw_named_rule(random: &mut common::Rng, shape: Shape, kind: usize) -> String {
    match RAW_NAMED.get(kind) {
        Some(&named) => named_cell_rule(random, shape, named),
        None => outside_rule(random, shape, STRICT[kind - RAW_NAMED.len()]),
    }
}

/// sigh's kinds that read only the cells they name, and anti-taxicab,
/// global entropy, global mod, strict Kropki and strict XV, on Raw grids
/// whose values run from 1 to the longer side: random instances of each,
/// counted up to the limit by every engine and by sigh's solver, which
/// agree.
#[test]
fn named_cell_kinds_on_raw_grids_agree_with_sigh() {
    let shapes = [
        (Shape::raw(6, 6, 6, 1), 18),
        (Shape::raw(4, 6, 6, 1), 18),
        (Shape::raw(9, 9, 9, 1), 18),
    ];
    let made = each_kind_beside_others(
        0x7a3_d029,
        &shapes,
        LIMIT,
        (RAW_NAMED.len() + STRICT.len(), 2),
        raw_named_rule,
        |rules, more| {
            // As on rectangles: sigh refuses a whole-board rule given
            // twice, and fails on anti-taxicab beside a "contains" group
            // or a look-and-say line ("Cannot add exclusions after
            // caching", on 6x6 Sudoku grids too).
            let both = format!("{rules}{more}");
            let clash = both.contains(".AntiTaxicab")
                && (both.contains(".Contain") || both.contains(".LookAndSay"));
            !rules.contains(more) && !clash
        },
    );
    let Some(cases) = made else {
        return;
    };
    let named = RAW_NAMED.iter().map(|&k| NAMED_KINDS[k]);
    let kinds: Vec<&str> = named.chain(STRICT.map(|k| OUTSIDE_KINDS[k])).collect();
    each_kind_among(&cases, &kinds);
}

/// `LINE_KINDS` and `SET_KINDS` that z3doku keeps on a Raw grid: region-sum
/// lines (no boxes), connected values and indexing (no rows) are refused.
const RAW_LINES: &[usize] = &[0, 1, 2, 4];
const RAW_SETS: &[usize] = &[0, 1, 2];

fn raw_line_or_set_rule(random: &mut common::Rng, shape: Shape, kind: usize) -> String {
    match RAW_LINES.get(kind) {
        Some(&line) => line_rule(random, shape, line),
        None => set_rule(random, shape, RAW_SETS[kind - RAW_LINES.len()]),
    }
}

/// sigh's zipper, double-arrow and entropic lines, quadruples, state
/// machines, same value sets and `or`s of rules on Raw grids from 1:
/// random instances of each, counted up to the limit by every engine and
/// by sigh's solver, which agree, each written back as it was read.
#[test]
fn line_and_set_kinds_on_raw_grids_agree_with_sigh() {
    let shapes = [
        (Shape::raw(6, 6, 6, 1), 14),
        (Shape::raw(4, 6, 6, 1), 14),
        (Shape::raw(9, 9, 9, 1), 14),
    ];
    let made = each_kind_beside_others(
        0x7a3_11e5,
        &shapes,
        LIMIT,
        (RAW_LINES.len() + RAW_SETS.len(), 2),
        raw_line_or_set_rule,
        |_, _| true,
    );
    let Some(cases) = made else {
        return;
    };
    let lines = RAW_LINES.iter().map(|&k| LINE_KINDS[k]);
    let kinds: Vec<&str> = lines
        .chain(RAW_SETS.iter().map(|&k| SET_KINDS[k]))
        .collect();
    each_kind_among(&cases, &kinds);
    for (text, _) in &cases {
        written_and_read_back(&parse(text).unwrap());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// On Raw grids of 4x5 and 5x4, of 2 to 6 values from 0 or from 1,
    /// random rules z3doku keeps there: every engine finds the same
    /// solutions (up to the limit), each passed by the checker, and the
    /// sigh string written back reads as the same puzzle.
    #[test]
    fn engines_agree_on_raw_grids(
        seed in 1u64..,
        tall in any::<bool>(),
        values in 2usize..=6,
        zero in any::<bool>(),
    ) {
        let (rows, cols) = if tall { (5, 4) } else { (4, 5) };
        engines_agree(Shape::raw(rows, cols, values, usize::from(!zero)), seed, LIMIT)?;
    }
}
