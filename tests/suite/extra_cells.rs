//! Cells outside the grid (sigh's `Var`: `.Var~A~~2` declares `VA1` and
//! `VA2`; z3doku calls them `v1`, `v2`): unknowns with the board's digits
//! that no house holds and any rule may name. Random instances of every
//! kind that takes them, counted up to a limit by every engine and by
//! sigh's solver (`../shared/peers/sigh`, with Node; `SKIPPED` without
//! them), which agree, every solution passed by the checker; a puzzle
//! unique only with its extra cells' values; the rule lines that declare
//! and name them; what each output shows of them; and what z3doku does not
//! take with them refused in one line.

use crate::common;

use common::output_of;
use common::shapes::{
    LINE_KINDS, NAMED_KINDS, SET_KINDS, Shape, count_everywhere, count_on,
    counts_of_made_agree_with_sigh, each_kind_among, instance_of, line_rule, named_cell_rule, rule,
    set_rule,
};
use z3doku::puzzle::input::Source;
use z3doku::puzzle::sigh::{parse, to_sigh};

/// Solutions counted, at most.
const LIMIT: usize = 40;

/// `rules` with up to three of the grid cells they name (`R2C3`) turned
/// into cells outside the grid, and the groups that declare those: `VA`
/// or `VA1`, `VA2`, ..., and now and then one of them in a group `VB` of
/// its own, declared before or after `A` (sigh numbers groups by prefix
/// wherever they stand). `None` when the rules name no cell.
fn outside(random: &mut common::Rng, rules: &str) -> Option<String> {
    let mut named: Vec<&str> = Vec::new();
    for item in rules.split('.') {
        for arg in item.split('~').skip(1) {
            let b = arg.as_bytes();
            if b.len() == 4 && b[0] == b'R' && b[2] == b'C' && !named.contains(&arg) {
                named.push(arg);
            }
        }
    }
    if named.is_empty() {
        return None;
    }
    let mut chosen: Vec<&str> = Vec::new();
    for _ in 0..1 + random.below(named.len().min(3)) {
        let cell = named[random.below(named.len())];
        if !chosen.contains(&cell) {
            chosen.push(cell);
        }
    }
    // The last chosen cell alone in `VB`, sometimes.
    let b = chosen.len() > 1 && random.below(3) == 0;
    let in_a = chosen.len() - usize::from(b);
    let name = |k: usize| match (k, in_a) {
        (k, _) if k == in_a => "VB".to_string(),
        (_, 1) => "VA".to_string(),
        (k, _) => format!("VA{}", k + 1),
    };
    let replaced: Vec<String> = rules
        .split('.')
        .map(|item| {
            item.split('~')
                .map(|arg| match chosen.iter().position(|&c| c == arg) {
                    Some(k) => name(k),
                    None => arg.to_string(),
                })
                .collect::<Vec<_>>()
                .join("~")
        })
        .collect();
    let a = format!(".Var~A~~{in_a}");
    let declared = match (b, random.below(2)) {
        (false, _) => a,
        (true, 0) => format!("{a}.Var~B"),
        (true, _) => format!(".Var~B{a}"),
    };
    Some(declared + &replaced.join("."))
}

/// A random rule of the kinds sigh lets name cells outside the grid: those
/// of [`rule`], [`named_cell_rule`] (the kinds that name cells), the lines
/// and the sets.
fn any_rule(random: &mut common::Rng, shape: Shape) -> String {
    let (group, kind) = (random.below(4), random.below(13));
    match group {
        0 => rule(random, shape, &mut false, &mut false),
        1 => named_cell_rule(random, shape, kind),
        2 => line_rule(random, shape, kind % 4),
        _ => set_rule(random, shape, kind % 3),
    }
}

#[test]
fn counts_with_extra_cells_agree_with_sigh() {
    let shapes = [
        (Shape::square(4, 4, 1), 40),
        (Shape::square(6, 6, 1), 50),
        (Shape::rectangle(4, 6, 1), 16),
        (Shape::rectangle(6, 4, 1), 12),
        (Shape::square(6, 6, 0), 16),
        (Shape::raw(4, 5, 5, 1), 16),
        (Shape::square(9, 9, 1), 10),
    ];
    let made = counts_of_made_agree_with_sigh(0xe47_0029, &shapes, LIMIT, |random, shape| {
        let first = any_rule(random, shape);
        let mut rules = outside(random, &first)?;
        // Often a second rule, which may name the same cells.
        if random.below(2) == 0 {
            rules += &any_rule(random, shape);
        }
        // Rules z3doku refuses with cells outside the grid (dots between
        // them, an indexing cell there) make no instance: see
        // `what_extra_cells_cannot_do_is_refused`.
        parse(&format!("{}{rules}", shape.spec())).ok()?;
        // sigh's same value sets miscount with a cell outside the grid
        // (`a_same_value_set_outside_the_grid`) or a cell in two sets.
        if rules.split('.').any(|item| {
            let mut cells: Vec<&str> = item.split('~').skip(2).collect();
            let n = cells.len();
            cells.sort_unstable();
            cells.dedup();
            item.starts_with("SameValues") && (item.contains("~V") || cells.len() < n)
        }) {
            return None;
        }
        instance_of(random, shape, &rules)
    });
    let Some(cases) = made else {
        return;
    };
    let kinds: Vec<&str> = [".Var~B", "~VB", ".Thermo", ".Cage~", ".Sum~", ".Arrow"]
        .into_iter()
        .chain(NAMED_KINDS[..13].iter().copied())
        .chain(LINE_KINDS[..4].iter().copied())
        .chain(SET_KINDS[..3].iter().copied())
        .collect();
    each_kind_among(&cases, &kinds);
    for (text, _) in &cases {
        let puzzle = parse(text).unwrap();
        assert!(puzzle.size().extra() > 0, "{text}");
        let written = to_sigh(&puzzle).unwrap();
        assert_eq!(parse(&written).unwrap(), puzzle, "{written}");
    }
}

/// A 4x4 whose givens settle the grid, and whose three extra cells only
/// the rules on them settle: `R1C1 + R1C2 + VA1` is 5, `VA1`, `VA2` and
/// `R1C4` rise along a thermometer, and `VB` is the value that makes a
/// cage of 9 with `VA1` and `VA2`.
const UNIQUE: &str = ".Shape~4x4.Var~A~~2.Var~B.~R1C1_1~R1C2_2~R2C1_3~R3C3_4~R4C4_1~R2C3_1~R3C1_2\
                      .Sum~5~R1C1~R1C2~VA1.Thermo~VA1~VA2~R1C4.Cage~9~VA1~VA2~VB";

/// Its grid, as sigh's solver prints it (the extra cells are not in its
/// line).
const UNIQUE_GRID: &str = "1234341221434321";

#[test]
fn a_puzzle_unique_with_its_extra_cells() {
    let puzzle = parse(UNIQUE).unwrap();
    assert_eq!(puzzle.size().extra(), 3);
    for settings in common::every_engine() {
        let (n, found) = count_on(&settings, &puzzle, 2, 60).unwrap();
        assert_eq!(n, 1, "{settings:?}");
        assert_eq!(found[0].to_line(), UNIQUE_GRID, "{settings:?}");
        assert_eq!(found[0].extra_cells(), [2, 3, 4], "{settings:?}");
    }
    // Without the cage, `VB` is free: four solutions.
    let open = &UNIQUE[..UNIQUE.find(".Cage").unwrap()];
    assert_eq!(count_everywhere(&parse(open).unwrap(), LIMIT), 4);
    if let Some(script) = common::sigh_runner() {
        let rows = common::run_sigh(
            &script,
            &[
                ("unique".into(), UNIQUE.into()),
                ("open".into(), open.into()),
            ],
            LIMIT,
        );
        assert_eq!(rows[0].get(1).map(String::as_str), Some("1"), "{rows:?}");
        assert_eq!(rows[0].get(5).map(String::as_str), Some(UNIQUE_GRID));
        assert_eq!(rows[1].get(1).map(String::as_str), Some("4"), "{rows:?}");
    }
}

#[test]
fn each_output_shows_the_extra_cells() {
    let text = |args: &[&str]| String::from_utf8(output_of(args, 0)).unwrap();
    let line = text(&["solve", UNIQUE, "-o", "line"]);
    assert_eq!(line.trim(), format!("{UNIQUE_GRID} 234"));
    let pretty = text(&["solve", UNIQUE, "--color", "never"]);
    for shown in ["v1 (VA1) = 2", "v2 (VA2) = 3", "v3 (VB) = 4"] {
        assert!(pretty.contains(shown), "{pretty}");
    }
    let matrix = text(&["solve", UNIQUE, "-o", "matrix"]);
    assert!(matrix.ends_with("[2, 3, 4]\n"), "{matrix}");
    let json: serde_json::Value =
        serde_json::from_str(&text(&["check", UNIQUE, "-o", "json"])).unwrap();
    assert_eq!(json["status"], "unique");
    assert_eq!(json["extra_cells"], serde_json::json!(["234"]));
    assert_eq!(
        json["extra_cell_ids"],
        serde_json::json!(["VA1", "VA2", "VB"])
    );
    // Two solutions that differ outside the grid alone are two.
    let open = &UNIQUE[..UNIQUE.find(".Cage").unwrap()];
    let checked = String::from_utf8(output_of(
        ["check", open, "-o", "line", "--engine", "native"],
        3,
    ))
    .unwrap();
    assert!(checked.contains("differing at 1 cells: v3"), "{checked}");
    // The model names them too.
    let model = text(&["solve", UNIQUE, "--model"]);
    assert!(model.contains("v_3 -> 4"), "{model}");
    // The sigh string written back declares and names them.
    let sigh = text(&["solve", UNIQUE, "-o", "sigh"]);
    assert!(
        sigh.contains(".Var~A~~2") && sigh.contains(".Var~B"),
        "{sigh}"
    );
    assert_eq!(parse(sigh.trim()), parse(UNIQUE));
    // A batch line carries them after the grid.
    let file = std::env::temp_dir().join(format!("z3doku-extra-{}.txt", std::process::id()));
    std::fs::write(&file, format!("{UNIQUE}\n")).unwrap();
    let path = file.to_str().unwrap();
    let batch = String::from_utf8(output_of(["batch", path, "--unique", "--quiet"], 0)).unwrap();
    let _ = std::fs::remove_file(&file);
    assert_eq!(batch.trim(), format!("{UNIQUE_GRID} 234"));
}

/// The text form: `extra cells A 2` declares `v1` and `v2` wherever the
/// line stands, and every rule line (formulas too) names them.
#[test]
fn rule_lines_declare_and_name_extra_cells() {
    let text = "12..3.1.2.4....1\n\
                thermo v1 v2 r1c4\n\
                extra cells A 2\n\
                sum 5 (r1c1, r1c2, v1)\n\
                extra cells B 1\n\
                formula v1 + v2 + v3 = 9\n";
    let puzzle = Source::from_arg(text).read_puzzle(None).unwrap();
    assert_eq!(puzzle.size().extra(), 3);
    assert_eq!(count_everywhere(&puzzle, LIMIT), 1);
    let solved = String::from_utf8(output_of(["solve", text, "-o", "line"], 0)).unwrap();
    assert_eq!(solved.trim(), format!("{UNIQUE_GRID} 234"));
    // What the rules print reads back as the same rules.
    let lines: Vec<String> = puzzle
        .rules()
        .constraints()
        .iter()
        .map(|c| c.to_string())
        .collect();
    let again = format!("12..3.1.2.4....1\n{}", lines.join("\n"));
    assert_eq!(Source::from_arg(&again).read_puzzle(None).unwrap(), puzzle);
}

#[test]
fn what_extra_cells_cannot_do_is_refused() {
    let only = "its grid has 3 cells outside it (sigh's `Var`), which only `solve`, `check` and \
                `count` take";
    let mut cases: Vec<(Vec<&str>, &str)> = ["hint", "steps", "rate", "candidates", "draw"]
        .into_iter()
        .map(|command| (vec![command, UNIQUE], only))
        .collect();
    cases.extend([
        (
            vec!["solve", UNIQUE, "-o", "fpuzzles"],
            "--output fpuzzles: this board's grid has 3 cells outside it",
        ),
        (
            vec!["solve", UNIQUE, "-o", "svg"],
            "--output svg: this board's grid has 3 cells outside it",
        ),
        // sigh lays a group's cells out in rows and lets dots join them
        // there; z3doku places them beside no cell.
        (
            vec!["solve", ".Shape~4x4.Var~A~~2.WhiteDot~VA1~VA2"],
            "a dot on cells outside the grid",
        ),
        (
            vec!["solve", ".Shape~4x4.Var~A~~2.GreaterThan~VA1~VA2"],
            "a cell outside the grid is beside no cell",
        ),
        (
            vec!["solve", ".Shape~4x4.Var~A.Indexing~C~VA"],
            "v1 is outside the grid, and the rule reads where its cell stands",
        ),
        (
            vec!["solve", ".Shape~4x4.Var~A~~4.ConnectedValues~VA~1_2"],
            "the cell group `VA`",
        ),
        (
            vec!["solve", ".Var~A.ChaosConstruction"],
            "chaos construction: z3doku builds regions on boards without cells outside the grid",
        ),
        (
            vec!["solve", ".Shape~4x4.Or.Var~A.End"],
            "only at the top level",
        ),
        (
            vec!["solve", ".Shape~4x4.Var~A.Thermo~VA1~R1C1"],
            "`VA1` is not a cell",
        ),
        (vec!["solve", ".Var~A~~300"], "300 cells outside the grid"),
        (vec!["solve", ".Var~a"], "upper-case letters A to Z"),
        (
            vec!["count", "1234341221.3.3.1\nthermo v1 r1c1"],
            "the board has 0 cells outside the grid",
        ),
    ]);
    common::refused_in_one_line(cases);
}

/// A same value set with cells outside the grid, which sigh's solver
/// miscounts: its 18 solutions leave `VA1` and `VA2` free among 1 to 3,
/// where the sets `{R2C1 R2C2 R2C3}`, `{R1C2 VA1 R1C4}` and `{R3C3 VA2
/// R4C2}` pin them (the first holds 1, 2 and 3; the second 3, `VA1` and 1;
/// the third 1, `VA2` and 2). The one solution is checked here by hand.
#[test]
fn a_same_value_set_outside_the_grid() {
    let text = ".Shape~4x4~4.~R3C3_1~R3C4_2~R1C3_2~R4C4_3.Var~A~~2\
                .SameValues~3~R2C3~R2C2~R2C1~R1C2~VA1~R1C4~R3C3~VA2~R4C2";
    let puzzle = parse(text).unwrap();
    for settings in common::every_engine() {
        let (n, found) = count_on(&settings, &puzzle, LIMIT, 60).unwrap();
        assert_eq!(n, 1, "{settings:?}");
        let grid = &found[0];
        assert_eq!(grid.to_line(), "4321213434121243", "{settings:?}");
        assert_eq!(grid.extra_cells(), [2, 3], "{settings:?}");
    }
}

/// sigh keeps the last declaration of a prefix, and so does z3doku.
#[test]
fn a_prefix_declared_again_is_its_last_declaration() {
    let twice = parse(".Shape~4x4.Var~A~~3.Sum~8~VA1~VA2.Var~A~~2").unwrap();
    assert_eq!(twice.size().extra(), 2);
    assert_eq!(count_everywhere(&twice, 300), 288);
    assert!(parse(".Shape~4x4.Var~A~~2.Var~A.Sum~8~VA1~VA2").is_err());
}
