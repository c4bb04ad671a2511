//! Rectangular boards, as sigh's `Shape~6x9` makes them: 6 rows of 9
//! cells, 9 values; the rows (9 cells) and the 3x3 boxes are houses, the
//! columns (6 cells) only keep their values apart. Puzzles unique under a
//! rectangle and their rules solved by every engine and encoding to
//! sigh's solution and passed by the checker; random instances counted up
//! to a limit by every engine and by sigh's solver (`../shared/peers/sigh`,
//! with Node; `SKIPPED` without them), which must agree; the sigh string
//! written back reads as the same puzzle; and what z3doku does not take on
//! a rectangle refused with one line and exit status 2.

use crate::common;

use common::shapes::{
    LINE_KINDS, NAMED_KINDS, OUTSIDE_KINDS, SET_KINDS, Shape, count_on, counts_agree_with_sigh,
    counts_of_made_agree_with_sigh, each_kind_among, each_kind_beside_others, engines_agree,
    instance_of, line_rule, named_cell_rule, outside_rule, refused_by_the_sudoku_commands,
    set_rule, sigh_finds_the_solutions, unique_everywhere, written_and_read_back,
};
use common::{Rng, output_of, z3doku};
use proptest::prelude::*;
use z3doku::puzzle::sigh::{parse, to_sigh};

/// Solutions counted, at most.
const LIMIT: usize = 5;

/// Puzzles unique under their shape and rules (their givens alone have
/// several solutions), each with sigh's solution (`node
/// ../shared/peers/sigh/run.mjs`), and the text without its rules.
const UNIQUE: &[(&str, &str, &str)] = &[
    // 6x9 on 1 to 9: anti-knight and a thermometer.
    (
        ".Shape~6x9.~R1C1_3~R1C2_4~R1C7_2~R2C9_9~R3C7_6~R3C9_7~R4C8_7~R5C2_7~R5C3_5~R5C5_1\
         ~R6C4_6~R6C5_3.AntiKnight.Thermo~R3C2~R3C3~R3C4~R3C5",
        "346179285758246319912358647163985472875412936294637851",
        ".AntiKnight",
    ),
    // 4x6 on 1 to 6: a cage and a white dot.
    (
        ".Shape~4x6.~R1C1_1~R1C6_3~R2C3_3~R2C6_6~R3C2_6~R3C5_2~R3C6_4~R4C1_4\
         .Cage~10~R2C2~R2C3~R3C3.WhiteDot~R4C5~R4C6",
        "146253523416365124412365",
        ".Cage",
    ),
    // 6x4 on 0 to 5: an arrow and a V (restated on the digits).
    (
        ".Shape~6x4~0-5.~R1C4_2~R2C3_3~R2C4_0~R3C1_3~R4C1_5~R4C4_1~R5C2_2~R6C3_4\
         .Arrow~R2C2~R3C2~R4C2.V~R5C3~R5C4",
        "051224303154532142051043",
        ".Arrow",
    ),
    // 6x9 on 1 to 9: sandwiches, four on columns of 6 cells (each the
    // lunchbox of its column).
    (
        ".Shape~6x9.~R2C9_4~R5C2_4~R4C7_4~R4C5_7~R6C1_8~R3C2_3~R2C4_7~R5C3_3~R4C1_9~R3C4_2\
         ~R1C8_8.Sandwich~35~R3.Sandwich~0~R4.Sandwich~8~C6.Sandwich~14~C3.Sandwich~7~R6.Sandwich\
         ~7~R5.Sandwich~15~C4.Sandwich~0~C1",
        "479136285256789134138245679912673458543821796867594312",
        ".Sandwich",
    ),
    // 9x6 on 1 to 9: X-sums, on rows of 6 cells and columns of 9.
    (
        ".Shape~9x6.~R1C3_4~R1C6_6~R2C2_3~R5C1_7~R8C5_9~R8C6_1~R3C6_7~R6C2_5~R3C4_4~R5C6_5~R2C5_2\
         ~R9C3_6~R6C4_7~R5C3_3.XSum~R4~~20.XSum~C1~~17.XSum~C4~27~.XSum~R1~3~.XSum~R8~16~.XSum~C5\
         ~6~.XSum~R6~~8.XSum~R9~21~",
        "214536537829869417641983723145958762172354385691496278",
        ".XSum",
    ),
    // 4x6 on 1 to 6: skyscrapers, on rows of 6 cells and columns of 4.
    (
        ".Shape~4x6.~R1C4_2~R4C3_1~R4C5_4~R1C6_3~R2C2_2.Skyscraper~R3~2~.Skyscraper~R1~3\
         ~.Skyscraper~C3~~3.Skyscraper~C5~3~.Skyscraper~C6~2~.Skyscraper~C2~2~",
        "456213123456534162261345",
        ".Skyscraper",
    ),
    // 6x9 on 1 to 9: hidden skyscrapers, mostly on columns of 6 cells.
    (
        ".Shape~6x9.~R2C5_2~R5C2_9~R4C5_9~R6C7_8~R3C5_6~R1C4_1~R6C2_1~R4C8_1~R3C3_4~R6C1_3~R6C6_7\
         ~R1C2_7~R3C8_7~R1C9_6~R2C1_5~R1C8_5~R5C8_2~R2C6_8~R4C7_3.HiddenSkyscraper~C2~\
         ~4.HiddenSkyscraper~C5~~1.HiddenSkyscraper~C8~3~.HiddenSkyscraper~C1~1~.HiddenSkyscraper\
         ~C6~~5.HiddenSkyscraper~R2~~3.HiddenSkyscraper~R3~~7.HiddenSkyscraper~R6~1~",
        "278134956569728134134569278742896315896315427315247869",
        ".HiddenSkyscraper",
    ),
    // 9x6 on 1 to 9: numbered rooms, on rows of 6 cells and columns of 9.
    (
        ".Shape~9x6.~R7C2_2~R8C3_3~R6C3_9~R8C1_9~R7C4_3~R4C5_9~R9C1_8~R7C3_1~R6C6_3~R6C4_2~R8C4_8\
         ~R3C5_7~R2C4_6~R9C5_2.NumberedRoom~R5~5~.NumberedRoom~C3~4~.NumberedRoom~C6~5\
         ~.NumberedRoom~R3~~8.NumberedRoom~C2~1~.NumberedRoom~C1~1~.NumberedRoom~R6~4\
         ~.NumberedRoom~R1~1~",
        "152938374652698174236791417586589243721369943815865427",
        ".NumberedRoom",
    ),
    // 6x9 on 1 to 9: little killers along sigh's diagonals of the rectangle.
    (
        ".Shape~6x9.~R2C5_3~R2C6_7~R3C5_4~R6C5_1~R4C7_5~R4C8_7~R2C1_4~R6C7_4~R4C2_1\
         ~R6C2_9.LittleKiller~11~R2C9.LittleKiller~11~R1C3.LittleKiller~18~R6C6.LittleKiller~31\
         ~R1C9.LittleKiller~30~R4C9.LittleKiller~33~R1C1.LittleKiller~16~R3C1.LittleKiller~4~R6C8",
        "738569124425137869169248357214693578386475291597812436",
        ".LittleKiller",
    ),
    // 6x4 on 1 to 6: strict XV (no two neighbours add up to 5 or 10).
    (
        ".Shape~6x4.~R3C2_6~R1C3_3~R3C4_1~R4C2_5~R3C1_5~R2C1_1~R6C3_1.StrictXV",
        "243613455621456231546213",
        ".StrictXV",
    ),
    // 6x9 on 1 to 9: strict Kropki (no two neighbours consecutive or one twice the other).
    (
        ".Shape~6x9.~R2C6_6~R3C1_3~R1C7_1.StrictKropki",
        "268374159591826473374159628937415286682793514415268397",
        ".StrictKropki",
    ),
    // 6x9 on 1 to 9: a zipper, a double arrow, a region-sum line across
    // three boxes, an entropic line and a quadruple.
    (
        ".Shape~6x9.~R2C3_6~R4C4_5~R2C5_9~R4C1_4~R6C5_8~R6C1_6~R6C7_3~R3C3_8~R1C8_9~R2C8_5~R4C3_1\
         ~R6C3_2~R2C6_8~R3C7_2~R1C2_2.Zipper~R1C1~R1C2~R1C3~R1C4~R1C5.DoubleArrow~R3C1~R3C2~R3C3\
         ~R3C4.RegionSumLine~R5C2~R5C3~R5C4~R5C5~R4C5.Entropic~R2C6~R2C7~R2C8~R2C9.Quad~R4C7~1~2",
        "125347896346298157978615234431569728857423619692781345",
        ".Zipper",
    ),
];

#[test]
fn unique_rectangles_solve_everywhere() {
    for &(text, solution, rules) in UNIQUE {
        let puzzle = unique_everywhere(text, solution);
        assert!(!puzzle.size().is_square(), "{text}");
        written_and_read_back(&puzzle);
        // The rules are what make it unique.
        let givens = &text[..text.find(rules).unwrap()];
        let bare = parse(givens).unwrap();
        let (n, _) = count_on(&common::every_engine()[0], &bare, 2, 120).unwrap();
        assert_eq!(n, 2, "{givens}");
        // The command line prints the values, and the sigh string it
        // writes reads back as the same puzzle.
        let out = output_of(["solve", text, "--unique", "--output", "line"], 0);
        let out = String::from_utf8(out).unwrap();
        assert_eq!(out.lines().next(), Some(solution));
        let written = String::from_utf8(output_of(["solve", text, "--output", "sigh"], 0)).unwrap();
        let again = parse(written.trim()).unwrap();
        assert_eq!(again, puzzle, "{written}");
        let checked = output_of(["check", text], 0);
        assert!(String::from_utf8(checked).unwrap().contains("unique"));
        // The matrix has a row per board row, each of its columns.
        let matrix = String::from_utf8(output_of(["solve", text, "-o", "matrix"], 0)).unwrap();
        let size = puzzle.size();
        assert_eq!(matrix.lines().count(), size.rows(), "{matrix}");
        assert!(
            matrix
                .lines()
                .all(|line| line.chars().filter(char::is_ascii_digit).count() == size.cols()),
            "{matrix}"
        );
        let json = String::from_utf8(output_of(["solve", text, "-o", "json"], 0)).unwrap();
        assert!(
            json.contains(&format!("\"solutions\":[\"{solution}\"]")),
            "{json}"
        );
    }
}

/// The drawn table of a 4x6 board: 2x3 boxes, a line between the two
/// box columns and between the two box rows.
#[test]
fn pretty_draws_the_boxes_of_a_rectangle() {
    let (text, solution, _) = UNIQUE[1];
    let out = String::from_utf8(output_of(
        ["solve", text, "-o", "pretty", "--color", "never"],
        0,
    ))
    .unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "┌───────┬───────┐",
            "│ 1 4 6 │ 2 5 3 │",
            "│ 5 2 3 │ 4 1 6 │",
            "├───────┼───────┤",
            "│ 3 6 5 │ 1 2 4 │",
            "│ 4 1 2 │ 3 6 5 │",
            "└───────┴───────┘",
        ],
        "{out}"
    );
    let digits: String = out.chars().filter(char::is_ascii_digit).collect();
    assert_eq!(digits, solution);
}

/// `batch` prints each solution as `solve -o line` does.
#[test]
fn batch_prints_the_values() {
    let input: String = UNIQUE
        .iter()
        .map(|(text, _, _)| format!("{text}\n"))
        .collect();
    let out = z3doku()
        .args(["batch", "--unique", "--output", "line", "--quiet", "-"])
        .write_stdin(input)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let lines: Vec<String> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let wanted: Vec<String> = UNIQUE.iter().map(|(_, s, _)| (*s).to_string()).collect();
    assert_eq!(lines, wanted);
}

/// The solutions sigh's solver finds for the unique puzzles are the ones
/// above.
#[test]
fn sigh_finds_the_same_unique_solutions() {
    sigh_finds_the_solutions(UNIQUE);
}

#[test]
fn what_a_rectangle_cannot_take_is_refused_by_name() {
    let (text, _, _) = UNIQUE[1];
    let only = "its shape is 4x6, which only `solve`, `check` and `count` take";
    let mut cases = refused_by_the_sudoku_commands(text, only);
    cases.extend([
        (
            vec!["solve", text, "--output", "fpuzzles"],
            "--output fpuzzles: this board's shape is 4x6, which it cannot show",
        ),
        (vec!["solve", text, "--output", "svg"], "--output svg"),
        (vec!["check", text, "--output", "png"], "--output png"),
        (vec!["solve", text, "--model"], "--model"),
        (
            vec!["solve", ".Shape~6x9.Diagonal~1"],
            "diagonal+: it is defined on square boards, and this one is 6x9",
        ),
        (
            vec!["solve", ".Shape~9x6.Diagonal~-1"],
            "diagonal-: it is defined on square boards, and this one is 9x6",
        ),
        (
            vec!["count", ".Shape~6x9.DisjointSets"],
            "disjoint groups: it is defined on square boards, and this one is 6x9",
        ),
        (
            vec!["solve", ".Shape~6x9.Windoku"],
            "windoku: it is defined on square boards, and this one is 6x9",
        ),
        (
            vec!["solve", ".Shape~9x6.FullRank~C1~3~"],
            "full rank 3 (column 1 from the top): it is defined on square boards, and this one is 9x6",
        ),
        (
            vec!["solve", ".Shape~6x9~0-8.GreaterThan~R1C1~R1C2"],
            "greater than (r1c1 r1c2): z3doku solves it on rectangles whose values run from 1 to \
             the longer side, and this 6x9 runs from 0 to 8",
        ),
        (
            vec!["solve", ".Shape~6x9~10.XSum~R1~10~"],
            "x-sum 10 (row 1 from the left): z3doku solves it on rectangles whose values run from 1 \
             to the longer side, and this 6x9 runs from 1 to 10",
        ),
        (
            vec!["solve", ".Shape~6x9.Sandwich~10~R7"],
            "`R7` is not a row or column of the board",
        ),
        (
            vec!["solve", ".Shape~6x9.RegionSize~3.ChaosConstruction"],
            "chaos construction regions of 3: regions of 3 cells part the 6x9 board into 18 \
             regions, more than its 9 digits, which sigh labels the regions by",
        ),
        (
            vec!["solve", ".Shape~6x9~10.Indexing~C~R1C1"],
            "column indexer r1c1: z3doku solves it on rectangles whose values run from 1 to the \
             longer side, and this 6x9 runs from 1 to 10",
        ),
        (
            vec!["solve", ".Shape~6x6.RegionSize~4.Windoku"],
            "sigh's `RegionSize`: beside windoku, which sigh reads over regions of 4 cells",
        ),
        (vec!["solve", ".Shape~4x6.~R5C1_1"], "`R5C1` is not a cell"),
        (vec!["solve", ".Shape~4x17"], "4x17"),
        (vec!["solve", ".Shape~6x9~8"], "values 8"),
    ]);
    common::refused_in_one_line(cases);
}

/// The empty 2x4 on 1 to 5 (2x2 boxes, each row and box four of the five
/// values, each column two) beside a count by hand, on every engine and
/// by `count --estimate`, whose walks try every value the board has.
#[test]
fn the_empty_2x4_on_five_values_has_2400_fillings() {
    let rows: Vec<[u8; 4]> = (0..5u32.pow(4))
        .map(|n| [0, 1, 2, 3].map(|k| (n / 5u32.pow(k) % 5) as u8 + 1))
        .filter(|r| (0..4).all(|i| (i + 1..4).all(|j| r[i] != r[j])))
        .collect();
    let boxes_differ = |x: &[u8; 4], y: &[u8; 4]| {
        [[0, 1], [2, 3]]
            .iter()
            .all(|b| b.iter().all(|&i| b.iter().all(|&j| x[i] != y[j])))
    };
    let by_hand = rows
        .iter()
        .flat_map(|x| rows.iter().filter(move |y| boxes_differ(x, y)))
        .count();
    assert_eq!(by_hand, 2400);
    let puzzle = parse(".Shape~2x4~5").unwrap();
    assert_eq!(common::shapes::count_everywhere(&puzzle, 3000), by_hand);
    let out = String::from_utf8(output_of(["count", ".Shape~2x4~5", "--estimate"], 0)).unwrap();
    let about: f64 = out
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!((about - 2400.0).abs() < 240.0, "{out}");
}

/// A 4x6 of jigsaw pieces (sigh's `NoBoxes` and `Jigsaw`): 810 solutions
/// on every engine and on sigh's solver, and written back as the same
/// puzzle.
#[test]
fn a_jigsaw_rectangle_counts_as_sigh_counts() {
    let text = ".Shape~4x6.NoBoxes.Jigsaw~111122112222333344334444\
                .~R1C1_1~R2C6_2~R4C1_3~R3C3_4~R2C2_3";
    let puzzle = parse(text).unwrap();
    let written = z3doku::puzzle::sigh::to_sigh(&puzzle).unwrap();
    assert_eq!(parse(&written).unwrap(), puzzle, "{written}");
    assert_eq!(common::shapes::count_everywhere(&puzzle, 1000), 810);
    if let Some(script) = common::sigh_runner() {
        assert_eq!(common::sigh_counts(&script, &[text], 1000), [810]);
    }
}

/// Empty rectangles without boxes, whose short lines only keep their
/// digits apart: the native search fills the tall and the wide ones at
/// once (an empty `9x6` ran for minutes before its short lines shared
/// out the digits), and counts the 3x5 Latin rectangles' 66,240 fillings
/// (of `5x3`) as sigh's solver does, each passed by the checker.
#[test]
fn empty_rectangles_without_boxes_fill_on_native() {
    let native = &common::every_engine()[0];
    for text in [
        ".Shape~9x6.NoBoxes",
        ".Shape~6x9.NoBoxes",
        ".Shape~8x6.NoBoxes",
        ".Shape~16x9.NoBoxes",
        ".Shape~16x15.NoBoxes",
    ] {
        let puzzle = parse(text).unwrap();
        let found = count_on(native, &puzzle, 2, 10).map(|(n, _)| n);
        assert_eq!(found, Some(2), "{text}");
    }
    let text = ".Shape~5x3.NoBoxes";
    let found = count_on(native, &parse(text).unwrap(), 70_000, 60).map(|(n, _)| n);
    assert_eq!(found, Some(66_240));
    if let Some(script) = common::sigh_runner() {
        assert_eq!(common::sigh_counts(&script, &[text], 70_000), [66_240]);
    }
}

/// The shapes of the random instances, with how many of each.
const SHAPES: &[(Shape, usize)] = &[
    (Shape::rectangle(4, 6, 1), 12),
    (Shape::rectangle(6, 4, 1), 10),
    (Shape::rectangle(6, 4, 0), 6),
    (Shape::rectangle(6, 9, 1), 8),
    (Shape::rectangle(9, 6, 0), 4),
];

#[test]
fn counts_on_rectangles_agree_with_sigh() {
    let Some(cases) = counts_agree_with_sigh(0x6a9e_0029, SHAPES, LIMIT) else {
        return;
    };
    each_kind_among(
        &cases,
        &[".Cage~", ".Arrow", ".Whisper", ".AntiKnight", ".Thermo"],
    );
}

/// sigh's kinds that read only the cells they name (sum lines, count
/// distinct, value indexing, regular expressions, look-and-say, rellik,
/// equality and lunchbox cages, equal sums, counting circles, greater-than
/// signs, "contains at least" and "contains exactly") and the whole-board
/// rules that walk rows and columns (anti-taxicab, Dutch flatmates, global
/// entropy and global mod), on
/// rectangles from 1: random instances of each, counted up to the limit
/// by every engine and by sigh's solver, which agree.
#[test]
fn named_cell_kinds_on_rectangles_agree_with_sigh() {
    let shapes = [
        (Shape::rectangle(6, 9, 1), 30),
        (Shape::rectangle(4, 6, 1), 24),
        (Shape::rectangle(9, 6, 1), 30),
    ];
    // Counted further than the other instances: their short lines pin
    // little down, and most have more than a handful of solutions.
    let made = each_kind_beside_others(
        0x4a3e_d029,
        &shapes,
        40,
        (NAMED_KINDS.len(), 2),
        named_cell_rule,
        |rules, more| {
            // sigh refuses a whole-board rule given twice, and fails on
            // anti-taxicab beside a "contains" group ("Cannot add
            // exclusions after caching", on 9x9 too).
            let both = format!("{rules}{more}");
            let clash = both.contains(".AntiTaxicab") && both.contains(".Contain");
            !rules.contains(more) && !clash
        },
    );
    let Some(cases) = made else {
        return;
    };
    each_kind_among(&cases, NAMED_KINDS);
}

/// sigh's outside clues on rectangles from 1, read along lines of either
/// length (a sandwich on a short line is the lunchbox of its cells, an
/// X-sum's first digit names at most the line's cells, a hidden
/// skyscraper's digit must stand in the line, a numbered room's first
/// digit names one of its cells; little killers along sigh's diagonals
/// of the rectangle), and strict Kropki and strict XV: random instances
/// of each, counted up to the limit by every engine and by sigh's solver,
/// which agree.
#[test]
fn outside_clues_on_rectangles_agree_with_sigh() {
    let shapes = [
        (Shape::rectangle(6, 9, 1), 30),
        (Shape::rectangle(4, 6, 1), 24),
        (Shape::rectangle(9, 6, 1), 30),
    ];
    // sigh refuses a whole-board rule given twice.
    let made = each_kind_beside_others(
        0x0a75_1de5,
        &shapes,
        20,
        (OUTSIDE_KINDS.len(), 3),
        outside_rule,
        |rules, more| !rules.contains(more),
    );
    let Some(cases) = made else {
        return;
    };
    each_kind_among(&cases, OUTSIDE_KINDS);
    for (text, _) in &cases {
        written_and_read_back(&parse(text).unwrap());
    }
}

/// sigh's zipper, double-arrow, region-sum and entropic lines and
/// quadruples on rectangles from 1: random instances of each (entropic
/// lines on 9 values), counted up to the limit by every engine and by
/// sigh's solver, which agree, each written back as it was read.
#[test]
fn line_kinds_on_rectangles_agree_with_sigh() {
    let shapes = [
        (Shape::rectangle(6, 9, 1), 20),
        (Shape::rectangle(4, 6, 1), 16),
        (Shape::rectangle(9, 6, 1), 20),
    ];
    let made = each_kind_beside_others(
        0x11e5_0a7e,
        &shapes,
        20,
        (LINE_KINDS.len(), 2),
        line_rule,
        |_, _| true,
    );
    let Some(cases) = made else {
        return;
    };
    each_kind_among(&cases, LINE_KINDS);
    for (text, _) in &cases {
        written_and_read_back(&parse(text).unwrap());
    }
}

/// sigh's state machines, same value sets (of one cell or more), `or`s
/// and `and`s of rules, connected values (each value stands once per long
/// line) and row and column indexing (a short line's indexer names one of
/// its cells) on rectangles from 1: random instances of each,
/// counted up to the limit by every engine and by sigh's solver, which
/// agree, each written back as it was read.
#[test]
fn set_kinds_on_rectangles_agree_with_sigh() {
    let shapes = [
        (Shape::rectangle(6, 9, 1), 12),
        (Shape::rectangle(4, 6, 1), 16),
        (Shape::rectangle(9, 6, 1), 12),
    ];
    let made = each_kind_beside_others(
        0x5e75_0a7d,
        &shapes,
        12,
        (SET_KINDS.len(), 2),
        set_rule,
        |_, _| true,
    );
    let Some(cases) = made else {
        return;
    };
    each_kind_among(&cases, SET_KINDS);
    each_kind_among(&cases, &[".And"]);
    for (text, _) in &cases {
        written_and_read_back(&parse(text).unwrap());
    }
}

/// sigh's `RegionSize`, boxes of other than the longer side's cells (2x2
/// on 6x6, 8x8 and 4x6, 2x3 on 6x9, none on 9x9 for 6 cells, 2x2 on 6x6 on
/// 8 values, and boxes larger than a row: 2x4 on 4x4 on 8 values, 3x3 on
/// 6x6 on 9): random instances with one or two other rules, counted up to
/// the limit by every engine and by sigh's solver, which agree, each
/// written back (as `.RegionSize~N`, or the larger boxes as
/// `.AllDifferent`s) as it was read.
#[test]
fn region_sizes_agree_with_sigh() {
    let shapes = [
        (Shape::square(6, 6, 1), 6),
        (Shape::square(8, 8, 1), 4),
        (Shape::rectangle(4, 6, 1), 6),
        (Shape::rectangle(6, 9, 1), 4),
        (Shape::square(9, 9, 1), 3),
        (Shape::square(6, 8, 1), 4),
        (Shape::square(4, 8, 1), 4),
        (Shape::square(6, 9, 1), 4),
    ];
    let made = counts_of_made_agree_with_sigh(0x2e61_0512, &shapes, LIMIT, |random, shape| {
        let cells = match (shape.rows, shape.cols, shape.values) {
            (9, 9, _) | (6, 9, _) => 6,
            (4, 4, 8) => 8,
            (6, 6, 9) => 9,
            _ => 4,
        };
        let (mut dots, mut anti) = (false, false);
        let mut rules = format!(".RegionSize~{cells}");
        for _ in 0..1 + random.below(2) {
            rules += &common::shapes::rule(random, shape, &mut dots, &mut anti);
        }
        // sigh sizes its disjoint sets by it, and z3doku refuses them
        // beside it.
        if rules.contains(".DisjointSets") {
            return None;
        }
        instance_of(random, shape, &rules)
    });
    let Some(cases) = made else {
        return;
    };
    for (text, _) in &cases {
        let puzzle = parse(text).unwrap();
        let written = to_sigh(&puzzle).unwrap();
        assert_eq!(parse(&written).unwrap(), puzzle, "{written}");
        let larger = text.contains(".RegionSize~8") || text.contains(".RegionSize~9");
        let boxes = !text.starts_with(".Shape~9x9") && !larger;
        assert_eq!(written.contains(".RegionSize~"), boxes, "{written}");
        assert!(!larger || written.contains(".AllDifferent~"), "{written}");
    }
}

/// The most digit solutions a chaos instance's givens may leave without
/// its construction for the partings to be summed over them.
const PLAIN: usize = 3000;

/// Solutions counted on chaos instances, at most.
const CHAOS_LIMIT: usize = 20;

/// Chaos construction on rectangles: regions of the longer side's cells,
/// as many as the shorter side (4 regions of 6 on `4x6`), each holding
/// different values, with or without boxes, with up to two clues over the
/// regions. sigh's solver is no referee here: it misses partings of
/// rectangles (the 2x4 `1234/3412` parts into its two rows and into its
/// two 2x2 boxes, and sigh counts one; see docs/variants.md), where on
/// squares it counts them all. So each random instance's count, up to a
/// limit, by every engine (each solution with its regions, passed by the
/// checker) is held to the checker's own search: the partings its clues
/// accept (`kinds::chaos::partings`, no engine in it) summed over every
/// digit solution of the same givens without the construction; and the
/// instance is written back as it was read.
/// The count of the chaos construction `text` by every engine, held to
/// the checker's partings summed over the digit solutions of the same
/// givens without the construction and its clues (up to [`PLAIN`] of
/// them; `None`, to try another, past that), and the puzzle written back
/// as it was read.
fn counted_as_partings(text: &str) -> Option<usize> {
    let chaos = parse(text).unwrap();
    let plain: String = text
        .split('.')
        .filter(|item| !item.starts_with("Chaos"))
        .collect::<Vec<_>>()
        .join(".");
    let native = &common::every_engine()[0];
    let (n, grids) = count_on(native, &parse(&plain).unwrap(), PLAIN, 30)?;
    if n == PLAIN {
        return None;
    }
    let partings: usize = grids
        .iter()
        .map(|grid| common::chaos_partings(&chaos, grid))
        .sum();
    let ours = common::shapes::count_everywhere(&chaos, CHAOS_LIMIT);
    assert_eq!(ours, partings.min(CHAOS_LIMIT), "{text}");
    let written = to_sigh(&chaos).unwrap();
    assert_eq!(parse(&written).unwrap(), chaos, "{written}");
    Some(ours)
}

#[test]
fn chaos_construction_on_rectangles_counts_its_partings() {
    let shapes = [
        (Shape::rectangle(4, 6, 1), 6),
        (Shape::rectangle(6, 4, 1), 4),
        (Shape::rectangle(3, 6, 1), 3),
        (Shape::rectangle(2, 6, 0), 2),
        (
            Shape {
                rows: 4,
                cols: 6,
                values: 7,
                lowest: 1,
                raw: false,
            },
            3,
        ),
    ];
    // By hand: the 2x4 1234/3412 parts into its rows and into its boxes.
    let by_hand =
        ".Shape~2x4.~R1C1_1~R1C2_2~R1C3_3~R1C4_4~R2C1_3~R2C2_4~R2C3_1~R2C4_2.ChaosConstruction";
    assert_eq!(
        common::shapes::count_everywhere(&parse(by_hand).unwrap(), 10),
        2
    );
    // `count --print` prints each solution's regions beside its digits,
    // which the two share.
    let out = String::from_utf8(output_of(["count", "--print", by_hand], 0)).unwrap();
    let mut lines: Vec<&str> = out.lines().skip(1).collect();
    lines.sort_unstable();
    assert_eq!(
        lines,
        [
            "12343412",
            "12343412",
            "regions 11112222",
            "regions 11221122"
        ],
        "{out}"
    );
    let mut random = Rng(0xc4a0_5ec7);
    let mut cases: Vec<(String, usize)> = Vec::new();
    for (shape, wanted) in shapes {
        let (mut tries, mut made) = (0, 0);
        while made < wanted {
            tries += 1;
            assert!(tries < 20 * wanted, "{shape:?}: too few instances");
            let Some(text) = common::shapes::chaos_instance(&mut random, shape) else {
                continue;
            };
            let Some(ours) = counted_as_partings(&text) else {
                continue;
            };
            cases.push((text, ours));
            made += 1;
        }
    }
    each_kind_among(&cases, &[".ChaosCount", ".ChaosArrow", ".NoBoxes"]);
    let mut seen = vec![0usize; CHAOS_LIMIT + 1];
    for (_, n) in &cases {
        seen[*n] += 1;
    }
    eprintln!("how many had 0, 1, ... {CHAOS_LIMIT} solutions: {seen:?}");
    assert!(seen[1] > 0 && seen[1] < cases.len(), "{seen:?}");
}

/// Chaos construction's regions of a size other than the board's longer
/// side (sigh's `RegionSize` beside its `ChaosConstruction`), where sigh
/// labels no more regions than the board has values: regions of 4 on
/// `4x6`, of 3 on `2x6`, of 2 and of 8 on `4x4~8`, with sigh's boxes of
/// that size or none. As on rectangles, each instance's count by every engine is
/// held to the checker's own enumeration of the partings summed over the
/// digit solutions without the construction, and written back as read.
/// sigh's solver is no referee here: it finds no solution to some of
/// these whose solutions the checker passes (see docs/variants.md).
#[test]
fn chaos_construction_with_a_region_size_counts_its_partings() {
    let more = |rows, cols, values| Shape {
        rows,
        cols,
        values,
        lowest: 1,
        raw: false,
    };
    let cases = [
        (Shape::rectangle(4, 6, 1), 4, 3),
        (Shape::rectangle(2, 6, 1), 3, 2),
        (more(4, 4, 8), 2, 3),
        (more(4, 4, 8), 8, 2),
    ];
    let mut random = Rng(0x5e_c7_a0);
    let mut counts: Vec<(String, usize)> = Vec::new();
    for (shape, cells, wanted) in cases {
        let (mut tries, mut made) = (0, 0);
        while made < wanted {
            tries += 1;
            assert!(tries < 20 * wanted, "{shape:?}: too few instances");
            let boxes = if made % 2 == 0 { ".NoBoxes" } else { "" };
            let rules = format!("{boxes}.RegionSize~{cells}.ChaosConstruction");
            let Some(text) = common::shapes::chaos_instance_of(&mut random, shape, &rules) else {
                continue;
            };
            let Some(ours) = counted_as_partings(&text) else {
                continue;
            };
            let written = to_sigh(&parse(&text).unwrap()).unwrap();
            assert!(
                written.contains(&format!(".RegionSize~{cells}")),
                "{written}"
            );
            counts.push((text, ours));
            made += 1;
        }
    }
    let seen: Vec<usize> = counts.iter().map(|(_, n)| *n).collect();
    eprintln!("their counts: {seen:?}");
    assert!(seen.contains(&1) && seen.iter().any(|&n| n > 1), "{seen:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// On 4x6 and 6x4 boards, from 0 and from 1, random rules z3doku keeps
    /// there: every engine finds the same solutions (up to the limit),
    /// each passed by the checker, and the sigh string written back reads
    /// as the same puzzle.
    #[test]
    fn engines_agree_on_rectangles(seed in 1u64.., tall in any::<bool>(), zero in any::<bool>()) {
        let (rows, cols) = if tall { (6, 4) } else { (4, 6) };
        engines_agree(Shape::rectangle(rows, cols, usize::from(!zero)), seed, LIMIT)?;
    }
}
