//! Boards whose values run from 0, as sigh's `Shape~9x9~0-8` makes them:
//! puzzles unique under such a shape solved by every engine and encoding
//! and passed by the checker; random instances counted up to a limit by
//! every engine and by sigh's solver (`../shared/peers/sigh`, with Node;
//! `SKIPPED` without them), which must agree; the sigh string written back
//! reads as the same puzzle; and every shape or rule z3doku does not keep
//! on such a board refused with one line and exit status 2. (Boards with
//! more values than a row has cells are `tests/suite/more_values.rs`'.)

use crate::common;

use common::shapes::{
    Shape, count_on, counts_agree_with_sigh, counts_of_made_agree_with_sigh, engines_agree,
    instance_of, unique_everywhere,
};
use common::{NOTEBOOK, NOTEBOOK_SOLUTION, output_of};
use proptest::prelude::*;
use z3doku::puzzle::sigh::parse;

/// Solutions counted, at most.
const LIMIT: usize = 5;

/// The givens of a one-line grid as sigh writes them with values from 0.
fn zero_based_givens(line: &str, side: usize) -> String {
    line.chars()
        .enumerate()
        .filter_map(|(i, c)| {
            let digit = c.to_digit(17).filter(|&d| d > 0)?;
            Some(format!("~R{}C{}_{}", i / side + 1, i % side + 1, digit - 1))
        })
        .collect()
}

/// A one-line grid with every value one less (`.` stays).
fn shifted(line: &str) -> String {
    line.chars()
        .map(|c| match c.to_digit(10) {
            Some(d) if d > 0 => char::from_digit(d - 1, 10).unwrap(),
            _ => c,
        })
        .collect()
}

#[test]
fn unique_puzzles_with_values_from_zero_solve_everywhere() {
    // The notebook's puzzle on values 0-8, classic rules; a 6x6 on 0-5
    // under a thermometer and anti-knight; one under a cage, an arrow, a V
    // and a sum, which read what the values are; a 4x4 on 0-3 under a
    // whisper.
    let nine = format!(".Shape~9x9~0-8.{}", zero_based_givens(NOTEBOOK, 9));
    let cases = [
        (nine.as_str(), shifted(NOTEBOOK_SOLUTION)),
        (
            ".Shape~6x6~0-5.~R1C3_4~R6C1_3~R5C4_3~R4C6_2.Thermo~R3C1~R3C2~R3C3~R3C4.AntiKnight",
            "234105105234012543543012450321321450".to_string(),
        ),
        (
            ".Shape~6x6~0-5.~R1C6_5~R4C5_3~R2C4_2~R5C6_4~R3C2_1.Cage~3~R1C1~R1C2\
             .Arrow~R3C3~R3C4~R4C4.V~R5C5~R5C6.Sum~4~R6C1~R5C2",
            "032145145203314052520431203514451320".to_string(),
        ),
        (
            ".Shape~4x4~0-3.~R4C1_3~R3C4_1~R1C1_0.Whisper~2~R2C1~R2C2~R2C3",
            "0213130220313120".to_string(),
        ),
    ];
    for (text, solution) in cases {
        let puzzle = unique_everywhere(text, &solution);
        assert_eq!(puzzle.rules().lowest_value(), 0);
        // The rules are what make the variants unique: the givens alone
        // leave more than one solution.
        let givens_alone: Vec<&str> = text.split('.').take(3).collect();
        let alone = parse(&givens_alone.join(".")).unwrap();
        if alone.rules().constraints().is_empty() && text.matches('.').count() > 2 {
            assert_eq!(
                count_on(&common::every_engine()[0], &alone, 2, 60)
                    .unwrap()
                    .0,
                2,
                "{text}"
            );
        }
        // The command line prints the values as sigh does, and the sigh
        // string it writes reads back as the same puzzle.
        let out = output_of(["solve", text, "--unique", "--output", "line"], 0);
        let out = String::from_utf8(out).unwrap();
        assert_eq!(out.lines().next(), Some(solution.as_str()));
        let written = String::from_utf8(output_of(["solve", text, "--output", "sigh"], 0)).unwrap();
        let again = parse(written.trim()).unwrap();
        assert_eq!(again, puzzle, "{written}");
        assert!(written.starts_with(&format!(".Shape~{0}x{0}~0-", puzzle.size().side())));
    }
}

#[test]
fn what_a_board_from_zero_cannot_keep_is_refused_by_name() {
    common::refused_in_one_line([
        (
            vec!["hint", ".Shape~6x9~0-8"],
            "its shape is 6x9, which only `solve`, `check` and `count` take",
        ),
        (
            vec!["solve", ".Shape~9x9~~Hex"],
            "grid types are `Sudoku` and `Raw`",
        ),
        (vec!["solve", ".Shape~9x9~2-10"], "values 2-10"),
        (
            vec!["solve", ".Shape~9x9~0-8.BlackDot~R1C1~R1C2"],
            "black dot 2 (r1c1 r1c2): it reads what the values are",
        ),
        (
            vec!["solve", ".Shape~9x9~0-8.Entropic~R1C1~R1C2~R1C3"],
            "reads what the values are",
        ),
        (vec!["solve", ".Shape~4x4~0-3.X~R1C1~R1C2"], "X (r1c1 r1c2)"),
        // sigh sees no building of height 0: 36 fillings where the digits'
        // skyscraper has 24.
        (
            vec!["solve", ".Shape~4x4~0-3.Skyscraper~R1~2~.~R1C1_0"],
            "skyscraper 2 (row 1 from the left): it reads what the values are",
        ),
        (
            vec!["solve", ".Shape~9x9~0-8.~R1C1_0_1"],
            "several candidates",
        ),
        (vec!["solve", ".Shape~9x9~0-8.~R1C1_9"], "values 0-8"),
        (
            vec!["hint", ".Shape~9x9~0-8"],
            "only `solve`, `check` and `count`",
        ),
        (
            vec!["solve", ".Shape~4x4~0-3", "--output", "fpuzzles"],
            "--output fpuzzles",
        ),
        (vec!["solve", ".Shape~4x4~0-3", "--model"], "--model"),
    ]);
}

#[test]
fn counts_on_boards_from_zero_agree_with_sigh() {
    let from_zero = |side| Shape::square(side, side, 0);
    counts_agree_with_sigh(
        0x0b0a_5d29,
        &[(from_zero(4), 16), (from_zero(6), 16), (from_zero(9), 8)],
        LIMIT,
    );
}

/// Doppelganger (sigh's, on N x N boards from 0 to N): the empty 4x4 on
/// 0-4 has 768 solutions on every engine and on sigh's solver (17,280
/// without boxes, on native); a 9x9 puzzle has sigh's 3 solutions on
/// every engine, and the empty 9x9 fills within 10 s on each; random
/// instances on 4x4, 6x6 and 9x9 count as sigh counts them; on a board
/// from 1 it is refused by name.
#[test]
fn doppelganger_counts_as_sigh_counts() {
    let empty = parse(".Shape~4x4~0-4.Doppelganger").unwrap();
    assert_eq!(common::shapes::count_everywhere(&empty, 1000), 768);
    let native = &common::every_engine()[0];
    let open = parse(".Shape~4x4~0-4.NoBoxes.Doppelganger").unwrap();
    assert_eq!(
        count_on(native, &open, 20_000, 60).map(|(n, _)| n),
        Some(17_280)
    );
    common::refused_in_one_line([
        (
            vec!["solve", ".Doppelganger"],
            "doppelganger: it is stated on N x N boards whose values run from 0 to N",
        ),
        (vec!["solve", ".Shape~6x6~0-5.Doppelganger"], "from 0 to N"),
    ]);
    if let Some(script) = common::sigh_runner() {
        let counts = common::sigh_counts(
            &script,
            &[
                ".Shape~4x4~0-4.Doppelganger",
                ".Shape~4x4~0-4.NoBoxes.Doppelganger",
            ],
            20_000,
        );
        assert_eq!(counts, [768, 17_280]);
    }
    // 30 givens of a solution sigh found: 3 solutions on every engine.
    let nine = parse(
        ".Shape~9x9~0-9.Doppelganger.~R5C6_4.~R3C2_9.~R6C6_2.~R1C7_4.~R2C1_4.~R8C6_7.~R2C4_6.~R6C2_8.~R1C8_9.~R8C2_6.~R4C1_6.~R1C5_5.~R2C3_5.~R7C2_1.~R6C9_4.~R1C9_8.~R4C4_7.~R9C4_1.~R4C9_0.~R8C8_3.~R1C4_3.~R6C8_1.~R5C1_2.~R9C1_0.~R2C6_8.~R5C5_6.~R8C5_4.~R5C2_0.~R7C7_2.~R7C5_3",
    )
    .unwrap();
    assert_eq!(common::shapes::count_everywhere(&nine, 10), 3);
    // The empty 9x9 on 0-9 fills at once on every engine (the native
    // search found nothing in 30 s, and `int` took 13 s or more, while the
    // rule said "every value stands 8 times" in place of "of two rows,
    // one holds it").
    let empty = parse(".Shape~9x9~0-9.Doppelganger").unwrap();
    for settings in common::every_engine() {
        let found = count_on(&settings, &empty, 2, 10).map(|(n, _)| n);
        assert_eq!(found, Some(2), "{settings:?}");
    }
    let shapes = [
        (Shape::square(4, 5, 0), 10),
        (Shape::square(6, 7, 0), 10),
        (Shape::square(9, 10, 0), 4),
    ];
    counts_of_made_agree_with_sigh(0xd099_e129, &shapes, LIMIT, |random, shape| {
        instance_of(random, shape, ".Doppelganger")
    });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// On 4x4 and 6x6 boards from 0, random rules z3doku keeps there: every
    /// engine finds the same solutions (up to the limit), each passed by
    /// the checker, and the sigh string written back reads as the same
    /// puzzle.
    #[test]
    fn engines_agree_on_boards_from_zero(seed in 1u64.., six in any::<bool>()) {
        let side = if six { 6 } else { 4 };
        engines_agree(Shape::square(side, side, 0), seed, LIMIT)?;
    }
}
