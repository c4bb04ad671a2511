//! Boards with more values than a row has cells, as sigh's `Shape~9x9~10`
//! and `Shape~9x9~0-9` make them: no row, column or box holds every value,
//! each only keeps its values apart. Puzzles unique under such a shape
//! solved by every engine and encoding to sigh's solution and passed by
//! the checker; random instances counted up to a limit by every engine and
//! by sigh's solver (`../shared/peers/sigh`, with Node; `SKIPPED` without
//! them), which must agree; the sigh string written back reads as the same
//! puzzle; and what z3doku does not keep on such a board refused with one
//! line and exit status 2.

use crate::common;

use common::output_of;
use common::shapes::{
    SET_KINDS, Shape, count_everywhere, count_on, counts_agree_with_sigh,
    counts_of_made_agree_with_sigh, each_kind_among, engines_agree, instance_of, rule, set_rule,
    unique_everywhere,
};
use proptest::prelude::*;
use z3doku::puzzle::sigh::parse;

/// Solutions counted, at most.
const LIMIT: usize = 5;

/// Puzzles unique under their shape, each with sigh's solution (`node
/// ../shared/peers/sigh/run.mjs`; values past 9 as letters, as z3doku
/// prints them: `A` is 10).
const UNIQUE: &[(&str, &str)] = &[
    // Values 1 to 10 on 9x9, givens alone.
    (
        ".Shape~9x9~10.~R1C2_3~R1C3_8~R1C4_2~R1C6_4~R1C7_1~R2C2_9~R2C5_5~R2C6_10~R2C9_7~R3C1_6\
         ~R3C5_3~R3C7_2~R4C1_7~R4C2_8~R4C3_2~R4C9_9~R5C3_3~R5C4_9~R5C5_7~R6C4_8~R6C6_1~R6C8_10\
         ~R7C1_9~R7C5_2~R7C7_6~R7C9_3~R8C1_8~R8C7_4~R9C1_2~R9C5_4~R9C8_5~R9C9_1",
        "A3829416549165A3876571382947824A35191A39728465498617A2914A2567386571942A27A346951",
    ),
    // Values 0 to 9 on 9x9, a thermometer and a cage (restated on the
    // digits).
    (
        ".Shape~9x9~0-9.~R1C2_5~R1C4_7~R1C6_8~R1C9_9~R2C6_1~R3C2_1~R3C3_9~R3C8_7~R4C1_6~R4C3_7\
         ~R4C4_9~R4C5_3~R4C8_5~R6C2_8~R6C5_1~R6C6_4~R6C9_0~R7C1_1~R7C3_2~R7C5_0~R7C7_6~R7C8_3\
         ~R8C3_0~R8C4_3~R8C8_8~R9C1_3~R9C3_5~R9C5_6~R9C8_2~R9C9_1\
         .Thermo~R5C2~R5C3~R5C4~R5C5.Cage~20~R1C8~R1C9~R2C9",
        "054728369738641205219053478647930152901576843583214790172805634460392587395467021",
    ),
    // Values 0 to 6 on 6x6, anti-knight and a whisper.
    (
        ".Shape~6x6~0-6.~R1C3_6~R1C5_5~R2C5_2~R2C6_1~R6C1_5~R6C2_4~R6C4_3.AntiKnight\
         .Whisper~3~R3C1~R3C2~R3C3~R3C4",
        "126450350621405263261504613042542316",
    ),
    // Values 1 to 7 on 6x6, an arrow, a V, a sum and a white dot.
    (
        ".Shape~6x6~7.~R1C3_5~R1C4_7~R2C5_1~R3C1_1~R3C2_6~R3C6_7~R4C5_5~R4C6_1~R5C3_6~R5C4_4\
         ~R6C3_3~R6C5_7.Arrow~R2C2~R2C3~R2C4.V~R5C5~R5C6.Sum~9~R6C1~R5C2.WhiteDot~R1C5~R1C6",
        "615743372516164327237651756432423175",
    ),
    // Values 1 to 7 on 6x6, the largest regions holding the same values.
    (
        ".Shape~6x6~7.~R1C1_7~R1C6_5~R2C2_4~R2C5_2~R3C1_1~R3C3_3~R3C4_7~R6C1_5~R6C5_3\
         .RegionSameValues",
        "712345345127123754457213234571571432",
    ),
    // Values 1 to 10 on 9x9, the same.
    (
        ".Shape~9x9~10.~R1C2_1~R2C5_7~R2C9_10~R3C3_8~R3C5_2~R3C6_10~R3C7_3~R4C2_2~R4C5_5~R4C8_6\
         ~R5C7_4~R5C8_5~R5C9_3~R6C1_4~R6C3_6~R6C4_7~R7C1_2~R7C4_5~R8C1_5~R8C7_8~R9C3_7~R9C5_3\
         ~R9C8_1~R9C9_6.RegionSameValues",
        "A1234567834567812A67812A345123854A6778A2614534567A32812315867A4564A178328A7432516",
    ),
    // Values 1 to 5 on 4x4, a renban.
    (
        ".Shape~4x4~5.~R1C1_1~R1C2_4~R1C3_5~R2C4_2~R3C1_5~R3C2_3~R4C3_1.Renban~R2C1~R2C2~R2C3",
        "1453354253244215",
    ),
];

#[test]
fn unique_puzzles_with_more_values_solve_everywhere() {
    for &(text, solution) in UNIQUE {
        let puzzle = unique_everywhere(text, solution);
        assert!(!puzzle.size().lines_full(), "{text}");
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
    }
}

/// `batch` prints each solution as `solve -o line` does: values, `0` for
/// the lowest on a board from 0 and letters above 9.
#[test]
fn batch_prints_the_values() {
    let input: String = UNIQUE.iter().map(|(text, _)| format!("{text}\n")).collect();
    let out = common::z3doku()
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
    let wanted: Vec<String> = UNIQUE.iter().map(|(_, s)| (*s).to_string()).collect();
    assert_eq!(lines, wanted);
}

/// The solutions sigh's solver finds for the unique puzzles are the ones
/// above.
#[test]
fn sigh_finds_the_same_unique_solutions() {
    let Some(script) = common::sigh_runner() else {
        return;
    };
    let named: Vec<(String, String)> = UNIQUE
        .iter()
        .enumerate()
        .map(|(k, (text, _))| (k.to_string(), text.to_string()))
        .collect();
    let rows = common::run_sigh(&script, &named, 2);
    for (row, (text, solution)) in rows.iter().zip(UNIQUE) {
        assert_eq!(row.get(1).map(String::as_str), Some("1"), "{text}: {row:?}");
        // sigh writes values joined by `,` past 9 values, digits below.
        let theirs = row.get(5).unwrap();
        let values: Vec<u32> = match theirs.contains(',') {
            true => theirs.split(',').map(|v| v.parse().unwrap()).collect(),
            false => theirs.chars().map(|c| c.to_digit(10).unwrap()).collect(),
        };
        let ours: Vec<u32> = solution.chars().map(|c| c.to_digit(36).unwrap()).collect();
        assert_eq!(values, ours, "{text}");
    }
}

#[test]
fn what_a_board_with_more_values_cannot_keep_is_refused_by_name() {
    common::refused_in_one_line([
        (vec!["solve", ".Shape~9x9~17"], "values 17"),
        (vec!["solve", ".Shape~6x9~8"], "values 8"),
        (
            vec!["solve", ".Shape~9x9~10.Entropic~R1C1~R1C2~R1C3"],
            "entropic line r1c1→r1c2→r1c3: z3doku solves it on boards with as many values as a \
             row has cells, and this 9x9 board has 10",
        ),
        (vec!["solve", ".Shape~9x9~10.~R1C1_11"], "values 1-10"),
        (vec!["solve", ".Shape~9x9~0-9.~R1C1_10"], "values 0-9"),
        (
            vec!["hint", ".Shape~9x9~10"],
            "its values run from 1 to 10 on a 9x9 board, which only `solve`, `check` and `count` \
             take",
        ),
        (vec!["rate", ".Shape~6x6~0-6"], "0 to 6 on a 6x6 board"),
        (
            vec!["solve", ".Shape~4x4~5", "--output", "fpuzzles"],
            "--output fpuzzles",
        ),
        (vec!["solve", ".Shape~4x4~5", "--model"], "--model"),
        (
            vec![
                "solve",
                ".Shape~4x4~5.Jigsaw~1112122233343444.RegionSameValues",
            ],
            "`RegionSameValues`: beside a jigsaw laid over the boxes",
        ),
    ]);
}

/// The shapes of the random instances, with how many of each.
const SHAPES: &[(Shape, usize)] = &[
    (Shape::square(3, 4, 1), 6),
    (Shape::square(4, 5, 1), 10),
    (Shape::square(4, 5, 0), 6),
    (Shape::square(6, 7, 1), 8),
    (Shape::square(6, 8, 0), 4),
    (Shape::square(9, 10, 1), 4),
    (Shape::square(9, 10, 0), 2),
];

#[test]
fn counts_on_boards_with_more_values_agree_with_sigh() {
    let Some(cases) = counts_agree_with_sigh(0x5a9e_0029, SHAPES, LIMIT) else {
        return;
    };
    each_kind_among(
        &cases,
        &[".BlackDot", ".DisjointSets", ".Cage~", ".Arrow", ".Whisper"],
    );
}

/// Chaos construction on boards with more values than a region has cells
/// (regions of N cells on an NxN board, each holding N different values
/// of the N + 1 or N + 2), with or without boxes, with up to two clues
/// over the regions on boards from 1: random instances counted up to the
/// limit by every engine (each solution with its regions, passed by the
/// checker) and by sigh's solver, which agree.
#[test]
fn chaos_construction_with_more_values_agrees_with_sigh() {
    let shapes = [
        (Shape::square(4, 5, 1), 6),
        (Shape::square(4, 6, 1), 3),
        (Shape::square(4, 5, 0), 2),
        (Shape::square(6, 7, 1), 2),
    ];
    let made = common::shapes::chaos_instance;
    let Some(cases) = counts_of_made_agree_with_sigh(0xc4a0_5e10, &shapes, LIMIT, made) else {
        return;
    };
    each_kind_among(&cases, &[".ChaosCount", ".ChaosArrow", ".NoBoxes"]);
}

/// Region same values (sigh's `RegionSameValues`) is what makes the
/// unique puzzles above that state it unique: without it they have more
/// solutions.
#[test]
fn region_same_values_is_what_makes_its_puzzles_unique() {
    let native = &common::every_engine()[0];
    for (text, _) in UNIQUE
        .iter()
        .filter(|(t, _)| t.contains(".RegionSameValues"))
    {
        let without = parse(&text.replace(".RegionSameValues", "")).unwrap();
        let (n, _) = count_on(native, &without, 2, 120).unwrap();
        assert_eq!(n, 2, "{text}");
    }
}

/// On an empty board whose rows hold N of V values, the rule leaves the
/// fillings of the same board on N values, one for each N of the V: its
/// count is C(V, N) times theirs, on every engine (and sigh's, where it
/// runs: 48, 480 and 1,440).
#[test]
fn region_same_values_on_empty_boards_counts_fillings_of_n_values() {
    let cases = [
        (".Shape~3x3~4", ".Shape~3x3", 4),
        (".Shape~2x4~5", ".Shape~2x4", 5),
        (".Shape~4x4~0-4", ".Shape~4x4~0-3", 5),
    ];
    let mut texts = Vec::new();
    for (shape, on_n, choices) in cases {
        let text = format!("{shape}.RegionSameValues");
        let n_values = count_everywhere(&parse(on_n).unwrap(), 2000);
        let tied = count_everywhere(&parse(&text).unwrap(), 10_000);
        assert_eq!(tied, choices * n_values, "{text}");
        texts.push((text, tied));
    }
    if let Some(script) = common::sigh_runner() {
        let strings: Vec<&str> = texts.iter().map(|(t, _)| t.as_str()).collect();
        let theirs = common::sigh_counts(&script, &strings, 10_000);
        let ours: Vec<usize> = texts.iter().map(|&(_, n)| n).collect();
        assert_eq!(ours, theirs);
    }
}

/// Random instances with region same values on boards with more values
/// (and rectangles with more values), counted by every engine and sigh.
#[test]
fn region_same_values_counts_agree_with_sigh() {
    let shapes = [
        (Shape::square(4, 5, 1), 6),
        (Shape::square(4, 6, 0), 4),
        (Shape::square(6, 7, 1), 6),
        (Shape::square(9, 10, 1), 3),
        (
            Shape {
                rows: 4,
                cols: 6,
                values: 7,
                lowest: 1,
                raw: false,
            },
            4,
        ),
    ];
    counts_of_made_agree_with_sigh(0x5a9e_0035, &shapes, LIMIT, |random, shape| {
        let mut rules = String::from(".RegionSameValues");
        if random.below(2) == 0 {
            let (mut dots, mut anti) = (false, false);
            rules += &rule(random, shape, &mut dots, &mut anti);
        }
        instance_of(random, shape, &rules)
    });
}

/// Same value sets and `or`s of rules (with `and`s inside) on boards from 1
/// with more values, rectangles among them: random instances, counted by
/// every engine and sigh, which agree.
#[test]
fn same_values_and_ors_with_more_values_agree_with_sigh() {
    let shapes = [
        (Shape::square(4, 5, 1), 8),
        (Shape::square(6, 7, 1), 8),
        (Shape::square(9, 10, 1), 4),
        (
            Shape {
                rows: 4,
                cols: 6,
                values: 7,
                lowest: 1,
                raw: false,
            },
            6,
        ),
    ];
    let mut next = 0;
    let made = counts_of_made_agree_with_sigh(0x5a9e_0036, &shapes, LIMIT, |random, shape| {
        // `SET_KINDS[1]` and `[2]`: state machines, connected values and
        // indexing are kept to boards of as many values as the longer
        // side.
        next += 1;
        let other = 1 + random.below(2);
        let rules = set_rule(random, shape, 1 + next % 2) + &set_rule(random, shape, other);
        instance_of(random, shape, &rules)
    });
    if let Some(cases) = made {
        each_kind_among(&cases, &SET_KINDS[1..3]);
    }
}

/// The empty boards' counts beside a count by hand: 3x3 arrays of values 1
/// to 4, no value twice in a row or column.
#[test]
fn the_empty_3x3_on_four_values_has_1056_fillings() {
    let puzzle = parse(".Shape~3x3~4").unwrap();
    let mut by_hand = 0;
    let rows: Vec<[u8; 3]> = (1..=4u8)
        .flat_map(|a| (1..=4u8).flat_map(move |b| (1..=4u8).map(move |c| [a, b, c])))
        .filter(|[a, b, c]| a != b && b != c && a != c)
        .collect();
    for x in &rows {
        for y in &rows {
            for z in &rows {
                if (0..3).all(|k| x[k] != y[k] && x[k] != z[k] && y[k] != z[k]) {
                    by_hand += 1;
                }
            }
        }
    }
    assert_eq!(by_hand, 1056);
    assert_eq!(count_everywhere(&puzzle, 2000), by_hand);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// On 4x4 and 6x6 boards with more values, random rules z3doku keeps
    /// there: every engine finds the same solutions (up to the limit),
    /// each passed by the checker, and the sigh string written back reads
    /// as the same puzzle.
    #[test]
    fn engines_agree_on_boards_with_more_values(seed in 1u64.., six in any::<bool>(), zero in any::<bool>()) {
        let side = if six { 6 } else { 4 };
        let shape = Shape::square(side, side + 1, usize::from(!zero));
        engines_agree(shape, seed, LIMIT)?;
    }
}
